#!/usr/bin/env bash
# test_build_kill.sh ERRATA_BIN — a build killed at any moment never harms the index it was
# replacing: after each SIGKILL at a random point of a full build of the bundled knowledge base,
# the old index opens and answers; a later build cleans up what the killed ones left. TAP.
set -u
ERRATA=$1
ROOT=${SOURCE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
T=$(mktemp -d /tmp/errata-kill-XXXXXX)
trap 'rm -rf "$T"' EXIT
SEED_MSG="RuntimeError: torch.compile is not supported for PEFT models with dynamic adapters"
SEED_ID=huggingface/torch-compile-incompatible-with-peft
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; }

"$ERRATA" build "$ROOT/kb" -o "$T/index.db" >/dev/null 2>&1 && ok "a first build" || not_ok "a first build"
# How long a whole build takes here, so the kills land across all of it.
start=$(date +%s%N)
"$ERRATA" build --force "$ROOT/kb" -o "$T/timing.db" >/dev/null 2>&1
span_ms=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$span_ms" -gt 50 ] || span_ms=50
RANDOM=42 # the same kill points every run
for i in 1 2 3 4 5 6; do
    delay_ms=$(( RANDOM % span_ms ))
    "$ERRATA" build --force "$ROOT/kb" -o "$T/index.db" >/dev/null 2>&1 &
    pid=$!
    sleep "$((delay_ms / 1000)).$(printf '%03d' $((delay_ms % 1000)))"
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    if "$ERRATA" --db "$T/index.db" lookup --json "$SEED_MSG" 2>/dev/null | jq -e ".matches[0].id == \"$SEED_ID\"" >/dev/null; then
        ok "killed after ${delay_ms} ms of ${span_ms}: the index still opens and answers"
    else
        not_ok "killed after ${delay_ms} ms of ${span_ms}: the index still opens and answers"
    fi
done
"$ERRATA" build --force "$ROOT/kb" -o "$T/index.db" >/dev/null 2>&1 && ok "a complete build after the kills" || not_ok "a complete build after the kills"
left=$(ls "$T" | grep -c 'index.db.tmp-' || true)
[ "$left" -eq 0 ] && ok "no temporary files of the killed builds are left" || not_ok "$left temporary files of the killed builds are left"
echo "1..$n"
echo "$((n - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
