#!/usr/bin/env bash
# test_kb.sh ERRATA_BIN — the bundled knowledge base: every record validates without errors, the
# whole of it compiles into an index that answers, and no record is outranked on its own
# examples. Prints TAP.
set -u
ERRATA=$1
ROOT=${SOURCE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
T=$(mktemp -d /tmp/errata-kb-XXXXXX)
trap 'rm -rf "$T"' EXIT
n=0 failed=0
check() { # DESCRIPTION COMMAND…
    local desc=$1; shift
    n=$((n + 1))
    if "$@" >"$T/out" 2>&1; then echo "ok $n - $desc"; else
        failed=$((failed + 1)); echo "not ok $n - $desc"; grep -v ': warning: ' "$T/out" | sed 's/^/# /' | head -40; fi
}
check "every record validates" "$ERRATA" validate --errors-only "$ROOT/kb"
check "the knowledge base builds" "$ERRATA" build "$ROOT/kb" -o "$T/index.db"
check "every record comes first on each of its own examples (validate --cross)" \
    "$ERRATA" validate --cross "$ROOT/kb"
check "the seed's message finds the seed first" bash -c \
    "'$ERRATA' --db '$T/index.db' lookup --json 'RuntimeError: torch.compile is not supported for PEFT models with dynamic adapters' | jq -e '.matches[0].id == \"huggingface/torch-compile-incompatible-with-peft\"'"
echo "1..$n"
echo "$((n - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
