#!/usr/bin/env bash
# test_exports.sh LIBERRATA_SO — the shared library's layer is enforced: it exports exactly the
# functions errata.h marks ERRATA_API, all named errata_*, and nothing internal. Prints TAP.
set -u
SO=$1
ROOT=${SOURCE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
T=$(mktemp -d /tmp/errata-exports-XXXXXX)
trap 'rm -rf "$T"' EXIT
nm -D --defined-only "$SO" | awk '$2 ~ /^[TDBRW]$/ {print $3}' | sort -u >"$T/exported"
grep -o '^ERRATA_API [^(]*(' "$ROOT/include/errata.h" | grep -o 'errata_[a-z0-9_]*($' | tr -d '(' | sort -u >"$T/declared"
n=0 failed=0
check() { n=$((n + 1)); if [ -s "$2" ]; then failed=$((failed + 1)); echo "not ok $n - $1"; sed 's/^/#   /' "$2" | head -20; else echo "ok $n - $1"; fi; }
grep -v '^errata_' "$T/exported" >"$T/unprefixed"
check "every exported symbol starts with errata_ ($(wc -l <"$T/exported") exported)" "$T/unprefixed"
comm -23 "$T/declared" "$T/exported" >"$T/missing"
check "every ERRATA_API function of errata.h is exported ($(wc -l <"$T/declared") declared)" "$T/missing"
comm -13 "$T/declared" "$T/exported" >"$T/extra"
check "nothing is exported that errata.h does not declare" "$T/extra"
echo "1..$n"
echo "$((n - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
