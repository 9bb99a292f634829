#!/usr/bin/env bash
# test_accuracy.sh ERRATA ACCURACY FLOOR — the bundled knowledge base answers tests/corpus (real
# runs of the tools its first records were written from) at least as well as when the floor was
# measured: P@1 ≥ FLOOR and no pattern match on a benign log. Raise FLOOR when accuracy rises;
# a change that lowers it is a regression to fix, not a floor to lower.
set -u
ERRATA=$1 ACCURACY=$2 FLOOR=$3
ROOT=${SOURCE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
T=$(mktemp -d /tmp/errata-accuracy-XXXXXX)
trap 'rm -rf "$T"' EXIT
"$ERRATA" build --force "$ROOT/kb" -o "$T/index.db" >/dev/null || { echo "cannot build the index"; exit 1; }
"$ACCURACY" "$T/index.db" "$ROOT/tests/corpus" --floor "$FLOOR" | grep -E '^(corpus|  all|OK|FAIL)'
exit "${PIPESTATUS[0]}"
