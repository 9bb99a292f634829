#!/usr/bin/env bash
# test_install.sh BUILD_DIR — `meson install` of BUILD_DIR puts everything an installed Errata
# needs where it looks: installed with --destdir into a scratch folder, which is then laid over
# a throwaway copy of / (an overlay in a private mount namespace, tests/pkg/smoke.sh) so the
# programs run at their real installed paths with nothing written to this system. The installed
# errata, given no --db, answers the seed's message (the index meson compiled and installed at
# default_db), and `errata serve` finds the installed errata-serve. Needs root; prints
# "N passed, N failed".
set -uo pipefail
. "$(dirname "$0")/smoke.sh"

if [ "${1:-}" = --inside ]; then
    T=$2 build=$3 bindir=$4 db=$5
    if out=$(meson install -C "$build" --destdir "$T/dest" --no-rebuild 2>&1); then
        ok "meson install --destdir"
    else
        notok "meson install --destdir" "$(printf '%s\n' "$out" | tail -20)"
        finish
    fi
    # The install laid over the copy of / (overlayfs refuses a layer inside another layer).
    overlay_root "$T" || finish
    cp -a "$T/dest/." "$T/root/"
    if [ -s "$T/dest$db" ]; then ok "the index is installed at default_db ($db)"
    else notok "the index is installed at default_db ($db)"; fi
    smoke_lookup chroot "$T/root" "$bindir/errata"
    smoke_healthz "$T/root/tmp/serve.log" chroot "$T/root" "$bindir/errata"
    finish
fi

[ $# -eq 1 ] && [ -f "$1/build.ninja" ] || { echo "usage: test_install.sh BUILD_DIR" >&2; exit 2; }
build=$(cd "$1" && pwd)
if [ "$(id -u)" -ne 0 ]; then
    echo "not ok - meson install runs where it installs (this test mounts an overlay of /, which needs root)"
    echo "0 passed, 1 failed"
    exit 1
fi
option() { meson introspect --buildoptions "$build" | jq -r --arg n "$1" '.[] | select(.name == $n) | .value'; }
prefix=$(option prefix)
bindir=$prefix/$(option bindir)
db=$(option default_db)
[ -n "$db" ] || db=$prefix/$(option datadir)/errata/errata.db
if [ "$(option build_index)" != true ]; then
    echo "not ok - $build is configured with -Dbuild_index=false: meson install installs no index"
    echo "0 passed, 1 failed"
    exit 1
fi

T=$(mktemp -d "${TMPDIR:-/tmp}/errata-install-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
unshare --mount --propagation private "$0" --inside "$T" "$build" "$bindir" "$db"
