#!/usr/bin/env bash
# test_dockerfile.sh SOURCE_ROOT ERRATA ERRATA_SERVE — the Dockerfile, checked without a Docker
# engine (none runs in CI): every COPY from the build context names a file of the tree that
# .dockerignore keeps; every COPY from the build stage names a path that `meson install` with
# the Dockerfile's own `meson setup` options installs; the final stage installs the package of
# every shared library errata and errata-serve (ERRATA, ERRATA_SERVE: this build's) link; the
# entry point is `errata serve` with options serve has, listening on the EXPOSEd port, as a
# user other than root. Prints "N passed, N failed".
set -uo pipefail
. "$(dirname "$0")/smoke.sh"
[ $# -eq 3 ] || { echo "usage: test_dockerfile.sh SOURCE_ROOT ERRATA ERRATA_SERVE" >&2; exit 2; }
src=$1 errata=$2 errata_serve=$3
df=$src/Dockerfile
[ -f "$df" ] || { notok "Dockerfile exists"; finish; }

# The instructions, one a line: continuations joined, comments dropped.
instr=$(sed -e '/^[[:space:]]*#/d' "$df" | sed -e ':a' -e '/\\$/{N;s/\\\n//;ba' -e '}')
stages=$(grep -c '^FROM ' <<<"$instr")
final=$(awk '/^FROM /{n++} n=='"$stages"'' <<<"$instr")
if [ "$stages" -ge 2 ] && grep -q '^FROM debian:12 AS build' <<<"$instr" && grep -q '^FROM debian:12-slim' <<<"$final"; then
    ok "two stages: debian:12 builds, debian:12-slim runs"
else
    notok "two stages: debian:12 builds, debian:12-slim runs" "$(grep '^FROM' <<<"$instr")"
fi

# .dockerignore's patterns as bash globs over paths relative to the context (enough for ours:
# no '!' exceptions, '**/' for any folder).
ignored() {
    local p pat
    while IFS= read -r pat; do
        [[ -z "$pat" || "$pat" == \#* ]] && continue
        for p in "$1" "${1%%/*}"; do
            # shellcheck disable=SC2053
            [[ "$p" == $pat || "$p" == ${pat#\*\*/} || "/$p" == */${pat#\*\*/} ]] && return 0
        done
    done <"$src/.dockerignore"
    return 1
}
bad=
while read -r _ args; do
    read -ra words <<<"$args"
    for w in "${words[@]:0:${#words[@]}-1}"; do
        [ "$w" = . ] && continue
        if [ ! -e "$src/$w" ]; then bad+="$w: not in the tree"$'\n'
        elif ignored "$w"; then bad+="$w: excluded by .dockerignore"$'\n'; fi
    done
done < <(grep '^COPY ' <<<"$instr" | grep -v -- '--from=')
if [ -z "$bad" ]; then ok "every COPY from the build context names a file of the tree that .dockerignore keeps"
else notok "every COPY from the build context names a file of the tree that .dockerignore keeps" "$bad"; fi
for keep in scripts/install-deps meson.build kb src; do
    ignored "$keep" && notok ".dockerignore keeps $keep, which the build needs"
done
ignored build && ignored .git || notok ".dockerignore leaves out build trees and .git"

# What meson installs with the Dockerfile's setup options: a configure-only setup (no build).
setup=$(grep -o 'meson setup [^&]*' <<<"$instr" | head -1)
read -ra opts <<<"${setup#meson setup }"
destdir=$(grep -o 'meson install [^&]*--destdir [^ &]*' <<<"$instr" | sed 's/.*--destdir //')
T=$(mktemp -d "${TMPDIR:-/tmp}/errata-dockerfile-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
if [ -z "$setup" ] || [ -z "$destdir" ]; then
    notok "the build stage runs meson setup and meson install --destdir" "$setup"
elif ! out=$(meson setup "$T/b" "$src" "${opts[@]:1}" 2>&1); then
    notok "meson setup with the Dockerfile's options (${opts[*]:1})" "$out"
else
    installed=$(meson introspect --installed "$T/b" | jq -r '.[]')
    bad=
    while read -r _ _ args; do
        read -ra words <<<"$args"
        for w in "${words[@]:0:${#words[@]}-1}"; do
            p=${w#"$destdir"}
            [ "$p" != "$w" ] && grep -qxF "$p" <<<"$installed" && continue
            [ "$p" != "$w" ] && grep -q "^$p/" <<<"$installed" && continue
            bad+="$w: not installed by meson install --destdir $destdir"$'\n'
        done
    done < <(grep '^COPY --from=build ' <<<"$instr")
    copies=$(grep -c '^COPY --from=build ' <<<"$instr")
    for need in bin/errata bin/errata-serve share/errata/errata.db share/errata/kb; do
        grep -q "^COPY --from=build .*$destdir/usr/local/${need%/*}[ /]" <<<"$instr" ||
            grep -q "^COPY --from=build .*$destdir/usr/local/${need}[ /]" <<<"$instr" ||
            bad+="nothing copies /usr/local/$need"$'\n'
    done
    if [ -z "$bad" ] && [ "$copies" -gt 0 ]; then
        ok "the final stage copies errata, errata-serve, the knowledge base and its index as meson installs them"
    else
        notok "the final stage copies errata, errata-serve, the knowledge base and its index as meson installs them" "$bad"
    fi
fi

# The runtime libraries: the package of each shared library the programs link (glibc's is in
# every Debian image). Hyperscan's is chosen by architecture in the Dockerfile.
bad=
for lib in $(for b in "$errata" "$errata_serve"; do readelf -dW "$b" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; done | sort -u); do
    path=$(ldd "$errata_serve" "$errata" | awk -v l="$lib" '$1 == l {print $3; exit}')
    pkg=$(dpkg -S "$(readlink -f "$path")" 2>/dev/null | head -1 | cut -d: -f1)
    [ -n "$pkg" ] || pkg=$(dpkg -S "$path" 2>/dev/null | head -1 | cut -d: -f1)
    case $pkg in
    libc6) continue ;;
    libasan*|libubsan*|liblsan*|libtsan*) continue ;; # a sanitizer build's runtimes, not Errata's
    libhyperscan5|libvectorscan5) grep -q 'libhyperscan5' <<<"$final" && grep -q 'libvectorscan5' <<<"$final" && continue ;;
    '') bad+="$lib: no Debian package owns it"$'\n'; continue ;;
    esac
    grep -Eq "apt-get install[^&]* $pkg( |$)" <<<"$final" || bad+="$lib ($pkg) is not installed by the final stage"$'\n'
done
if [ -z "$bad" ]; then ok "the final stage installs every shared library errata and errata-serve link"
else notok "the final stage installs every shared library errata and errata-serve link" "$bad"; fi

entry=$(grep '^ENTRYPOINT ' <<<"$final" | tail -1)
port=$(grep '^EXPOSE ' <<<"$final" | awk '{print $2}')
listen=$(jq -r '.[index("--listen") + 1] // empty' <<<"${entry#ENTRYPOINT }" 2>/dev/null)
if [[ $(jq -r '.[0:2] | join(" ")' <<<"${entry#ENTRYPOINT }" 2>/dev/null) == "errata serve" ]] &&
   [ -n "$port" ] && [ "$listen" = "0.0.0.0:$port" ]; then
    ok "the entry point is errata serve --listen 0.0.0.0:$port, the EXPOSEd port"
else
    notok "the entry point is errata serve --listen 0.0.0.0:PORT of EXPOSE PORT" "$entry / EXPOSE $port"
fi
help=$("$errata_serve" serve --help 2>&1)
bad=
for o in $(jq -r '.[2:][] | select(startswith("--"))' <<<"${entry#ENTRYPOINT }" 2>/dev/null); do
    grep -q -- "^ *$o " <<<"$help" || bad+="$o"$'\n'
done
if [ -z "$bad" ]; then ok "errata serve has every option the entry point gives"
else notok "errata serve has every option the entry point gives" "$bad"; fi
user=$(grep '^USER ' <<<"$final" | tail -1 | awk '{print $2}')
if [ -n "$user" ] && [ "$user" != root ] && [ "$user" != 0 ] && grep -q "useradd .*$user" <<<"$final"; then
    ok "it runs as the user $user, created in the final stage"
else
    notok "it runs as a user other than root, created in the final stage" "USER $user"
fi
finish
