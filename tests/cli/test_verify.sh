#!/usr/bin/env bash
# test_verify.sh ERRATA_BIN — `errata verify` on a small knowledge base of demonstration records
# (tests/cli/verify-kb): each record's reproduce command is run contained and its output must be
# answered by that record; --update writes the finding into the files and nothing else. TAP.
set -u
ERRATA=$1
ROOT=${SOURCE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
T=$(mktemp -d /tmp/errata-verify-test-XXXXXX)
trap 'rm -rf "$T"' EXIT
cp -r "$ROOT/tests/cli/verify-kb" "$T/kb"
chmod -R u+w "$T/kb"

. "$(dirname "$0")/tap.sh"

# A variable of the caller must not reach the command: the environment is cleared.
export ERRATA_DEMO_SECRET=leaked
run 1 "a knowledge base with failing records" -- "$ERRATA" verify --kb "$T/kb" --timeout 1
has "$T/out" "verified demo/prints-its-error" "the record whose command prints its error is verified"
has "$T/out" "FAILED   demo/prints-something-else" "a command whose output the regex does not match fails"
has "$T/out" "all good here" "the failure shows what the command printed"
has "$T/out" "FAILED   demo/hangs" "a command that hangs fails"
has "$T/out" "timed out" "and says it timed out"
has "$T/out" "skipped  demo/needs-a-missing-tool: needs errata-demo-no-such-tool, deb:errata-demo-no-such-package" \
    "a record whose tools are missing is skipped, naming them"
has "$T/out" "verified demo/sees-a-clean-sandbox" \
    "the command runs in an empty scratch directory that is HOME, with the fixed PATH, C.UTF-8 and no inherited variables"
if [ "$(id -u)" -eq 0 ] || unshare -rn true 2>/dev/null; then
    has "$T/out" "verified demo/has-no-network" "the command sees no network interface but lo"
    has "$T/out" "verified demo/reaches-its-loopback" "its loopback is up: 127.0.0.1 refuses, it is not unreachable"
else
    has "$T/out" "network not isolated" "without namespaces the report says the network was not isolated"
fi
has "$T/out" "4 verified, 2 failed, 1 skipped (of 7 records)" "the summary counts every record"
if pgrep -fx "sleep 47" >/dev/null; then not_ok "the timed-out command's process group was killed"; else ok "the timed-out command's process group was killed"; fi
run 0 "one record by id" -- "$ERRATA" verify --kb "$T/kb" demo/prints-its-error
has "$T/out" "1 verified, 0 failed, 0 skipped (of 1 records)" "only the record named"
run 2 "an unknown id is an error" -- "$ERRATA" verify --kb "$T/kb" demo/no-such-record
has "$T/err" "no record 'demo/no-such-record'" "and names it"
run 1 "--domain and --json" -- "$ERRATA" verify --json --kb "$T/kb" --domain demo --timeout 1
if jq -e '.verified == 4 and .failed == 2 and .skipped == 1 and (.records | length) == 7 and
          ([.records[] | select(.id == "demo/prints-its-error")][0].output | test("widget 42 exploded"))' \
    "$T/out" >/dev/null; then ok "the JSON report"; else not_ok "the JSON report"; fi
scratch=$(jq -r '.records[] | select(.id == "demo/sees-a-clean-sandbox") | .output' "$T/out" | sed -n 's/.*home=\([^ ]*\).*/\1/p')
if [ -n "$scratch" ] && [ ! -e "$scratch" ]; then ok "the scratch directory is removed"; else not_ok "the scratch directory is removed ($scratch)"; fi
if [ "$(id -u)" -eq 0 ]; then
    if jq -e '.records[] | select(.id == "demo/sees-a-clean-sandbox") | .output | test("uid=65534")' "$T/out" >/dev/null; then
        ok "run as root, the command runs as nobody"; else not_ok "run as root, the command runs as nobody"; fi
fi
run 2 "a bad --timeout" -- "$ERRATA" verify --kb "$T/kb" --timeout 0
has "$T/err" "--timeout" "names the option"

# --update: verified ai_generated → reproduced + last_confirmed; failing reproduced → ai_generated.
cp "$T/kb/demo/prints-its-error.json" "$T/before-ok.json"
cp "$T/kb/demo/prints-something-else.json" "$T/before-bad.json"
cp "$T/kb/demo/needs-a-missing-tool.json" "$T/before-skip.json"
run 1 "--update" -- "$ERRATA" verify --kb "$T/kb" --update --timeout 1 demo/prints-its-error \
    demo/prints-something-else demo/needs-a-missing-tool
today=$(date -u +%F)
if jq -e --arg d "$today" '.verification_tier == "reproduced" and .last_confirmed == $d' \
    "$T/kb/demo/prints-its-error.json" >/dev/null; then ok "a verified record becomes reproduced, confirmed today"; else not_ok "a verified record becomes reproduced, confirmed today"; fi
if jq -e '.verification_tier == "ai_generated" and .last_confirmed == null' \
    "$T/kb/demo/prints-something-else.json" >/dev/null; then ok "a reproduced record that fails loses the claim"; else not_ok "a reproduced record that fails loses the claim"; fi
if cmp -s "$T/kb/demo/needs-a-missing-tool.json" "$T/before-skip.json"; then ok "a skipped record is left as it was"; else not_ok "a skipped record is left as it was"; fi
# Nothing but the two values changed: the same bytes once they are put back.
sed -e 's/"verification_tier": "reproduced"/"verification_tier": "ai_generated"/' \
    -e "s/\"last_confirmed\": \"$today\"/\"last_confirmed\": null/" "$T/kb/demo/prints-its-error.json" >"$T/restored.json"
if cmp -s "$T/restored.json" "$T/before-ok.json"; then ok "--update changes only those two values"; else not_ok "--update changes only those two values"; diff "$T/before-ok.json" "$T/kb/demo/prints-its-error.json" | sed 's/^/# /'; fi
has "$T/out" "[updated, tier changed]" "the report says which files changed"
ls "$T/kb/demo/" | grep -q 'tmp-' && not_ok "no temporary files left" || ok "no temporary files left"

echo "1..$n"
echo "$((n - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
