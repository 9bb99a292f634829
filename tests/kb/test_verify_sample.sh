#!/usr/bin/env bash
# test_verify_sample.sh ERRATA_BIN — `errata verify` on the fixed sample of records in
# tests/kb/verify-sample.txt, after installing their domains' tools: every one must be verified
# (a skip is a failure here: the sample's tools are installed first). Prints TAP.
set -u
ERRATA=$1
ROOT=${SOURCE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
mapfile -t ids < <(grep -v -E '^(#|$)' "$ROOT/tests/kb/verify-sample.txt")
mapfile -t domains < <(printf '%s\n' "${ids[@]}" | cut -d/ -f1 | sort -u)
if [ "$(id -u)" -eq 0 ]; then
    "$ROOT/scripts/install-verify-tools" "${domains[@]}" || { echo "not ok 1 - install the sample's tools"; echo "0 passed, 1 failed"; exit 1; }
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$ERRATA" verify --json --kb "$ROOT/kb" --timeout 60 "${ids[@]}" >"$out"
n=0 failed=0
while IFS=$'\t' read -r id state reason; do
    n=$((n + 1))
    if [ "$state" = verified ]; then echo "ok $n - verified $id"; else failed=$((failed + 1)); echo "not ok $n - $id: $state: $reason"; fi
done < <(jq -r '.records[] | [.id, .state, (.reason | gsub("\n"; " "))] | @tsv' "$out")
[ "$n" -eq "${#ids[@]}" ] || { failed=$((failed + 1)); echo "not ok - verify reported $n of ${#ids[@]} records"; }
echo "1..$n"
echo "$((n - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
