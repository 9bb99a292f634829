#!/usr/bin/env bash
# test_static.sh ERRATA KB_DIR — the statically linked errata of scripts/build-static needs no
# shared library (no program interpreter, no NEEDED entry), compiles KB_DIR into an index
# (Hyperscan's compiler and SQLite, linked in) and answers the seed's message from it with the
# seed. Prints "N passed, N failed".
set -uo pipefail
. "$(dirname "$0")/smoke.sh"
[ $# -eq 2 ] && [ -d "$2" ] || { echo "usage: test_static.sh ERRATA KB_DIR" >&2; exit 2; }
errata=$1 kb=$2

if [ ! -x "$errata" ]; then
    notok "$errata exists"
    finish
fi
if ! readelf -lW "$errata" | grep -q 'Requesting program interpreter' &&
   ! readelf -dW "$errata" | grep -q '(NEEDED)'; then
    ok "errata is statically linked: no program interpreter, no shared library"
else
    notok "errata is statically linked" "$(readelf -dW "$errata" | grep '(NEEDED)')"
fi

T=$(mktemp -d "${TMPDIR:-/tmp}/errata-static-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
if out=$("$errata" build -o "$T/errata.db" "$kb" 2>&1); then ok "the static errata compiles the knowledge base"
else notok "the static errata compiles the knowledge base" "$out"; fi
smoke_lookup "$errata" --db "$T/errata.db"
finish
