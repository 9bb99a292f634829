#!/usr/bin/env bash
# test_deb.sh DEB — installs the Debian package DEB for real, with dpkg -i (its Depends checked
# against this system, its postinst compiling the index), into a throwaway copy of this machine:
# an overlay of / in a private mount namespace, so nothing of it reaches the real system. Then
# the smoke test: the installed errata, given no --db, answers the seed's message with the seed,
# `errata serve` answers /healthz, the man page is there, and removing and purging the package
# leaves no /var/lib/errata. Needs root (mounts); prints "N passed, N failed".
set -uo pipefail

. "$(dirname "$0")/smoke.sh"

if [ "${1:-}" = --inside ]; then
    # In the private mount namespace: $2 the overlay's folder, $3 the package.
    T=$2 deb=$3
    M=$T/root
    in_root() { chroot "$M" "$@"; }

    overlay_root "$T" || finish
    cp "$deb" "$M/tmp/errata.deb"

    if out=$(in_root env DEBIAN_FRONTEND=noninteractive dpkg -i /tmp/errata.deb 2>&1); then
        ok "dpkg -i installs the package (Depends met, postinst compiled the index)"
    else
        notok "dpkg -i installs the package" "$out"
        finish
    fi
    if [ -s "$M/var/lib/errata/errata.db" ]; then ok "postinst wrote /var/lib/errata/errata.db"
    else notok "postinst wrote /var/lib/errata/errata.db"; fi

    smoke_lookup chroot "$M" errata
    smoke_healthz "$M/tmp/serve.log" chroot "$M" errata

    if [ -f "$M/usr/share/man/man1/errata.1.gz" ]; then ok "the man page is installed"
    else notok "the man page is installed"; fi
    if [ -f "$M/usr/share/doc/errata/copyright" ] && ls "$M"/usr/share/doc/errata/README.md* >/dev/null 2>&1; then
        ok "the docs and copyright are installed"
    else notok "the docs and copyright are installed"; fi

    if out=$(in_root dpkg -r errata 2>&1) && [ ! -e "$M/var/lib/errata" ] && [ ! -e "$M/usr/bin/errata" ]; then
        ok "dpkg -r removes the programs and the index with /var/lib/errata"
    else notok "dpkg -r removes the programs and the index with /var/lib/errata" "$out"; fi
    if out=$(in_root dpkg -P errata 2>&1) && ! in_root dpkg-query -W errata >/dev/null 2>&1; then ok "dpkg -P purges it"
    else notok "dpkg -P purges it" "$out"; fi
    finish
fi

[ $# -eq 1 ] && [ -f "$1" ] || { echo "usage: test_deb.sh DEB" >&2; exit 2; }
deb=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
if [ "$(id -u)" -ne 0 ]; then
    echo "not ok - the package installs (this test mounts an overlay of /, which needs root)"
    echo "0 passed, 1 failed"
    exit 1
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/errata-deb-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
unshare --mount --propagation private "$0" --inside "$T" "$deb"
