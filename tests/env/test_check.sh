#!/usr/bin/env bash
# test_check.sh ERRATA_BIN — errata check and lookup --env on real environment files: a
# package-lock.json made here by `npm install`, and real `pip freeze` output. Prints TAP.
set -u
ERRATA=$1
ROOT=${SOURCE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
T=$(mktemp -d /tmp/errata-env-XXXXXX)
trap 'rm -rf "$T"' EXIT
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; [ -f "$T/err" ] && sed 's/^/# /' "$T/err" | head -10; }
check() { local desc=$1; shift; if "$@" >"$T/out" 2>"$T/err"; then ok "$desc"; else not_ok "$desc"; fi; }

"$ERRATA" build "$ROOT/kb" -o "$T/index.db" >/dev/null 2>"$T/err" && ok "index built" || not_ok "index built"

# A real lock file: npm install of React in a scratch project.
mkdir -p "$T/app"
if (cd "$T/app" && npm init -y >/dev/null 2>&1 &&
    npm install --no-audit --no-fund --loglevel=error react@18.3.1 react-dom@18.3.1 >/dev/null 2>"$T/err"); then
    ok "npm install made a package-lock.json"
else
    not_ok "npm install made a package-lock.json"
fi
LOCK="$T/app/package-lock.json"
check "check --env package-lock.json --json" "$ERRATA" --db "$T/index.db" check --env "$LOCK" --json
cp "$T/out" "$T/check.json"
[ "$(jq '[.records[].id | select(startswith("react/"))] | length' "$T/check.json")" -gt 0 ] \
    && ok "React records apply to react 18.3.1" || not_ok "React records apply to react 18.3.1"
[ "$(jq -r '.records[] | select(.id | startswith("react/")) | .source' "$T/check.json" | head -1)" != "" ] \
    && jq -r '.records[] | select(.id | startswith("react/")) | .source' "$T/check.json" | head -1 | grep -q "package-lock.json:[0-9]" \
    && ok "each exposure names the lock file line" || not_ok "each exposure names the lock file line"
check "check --sarif" "$ERRATA" --db "$T/index.db" check --env "$LOCK" --sarif
[ "$(jq -r '.version' "$T/out")" = "2.1.0" ] && [ "$(jq '.runs[0].results | length' "$T/out")" -gt 0 ] \
    && [ "$(jq -r '.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri' "$T/out")" = "$LOCK" ] \
    && ok "SARIF 2.1.0 results located in the lock file" || not_ok "SARIF 2.1.0 results located in the lock file"
# A report, not a verdict: exit 0 whatever it lists; --fail-on makes the listed ones problems.
"$ERRATA" --db "$T/index.db" check --env "$LOCK" --sarif >"$T/out" 2>"$T/err"
[ $? -eq 0 ] && [ "$(jq -r '[.runs[0].results[].level] | unique | join(",")' "$T/out")" = "note" ] \
    && ok "without --fail-on: exit 0, every SARIF result a note" || not_ok "without --fail-on: exit 0, every SARIF result a note"
"$ERRATA" --db "$T/index.db" check --env "$LOCK" --sarif --fail-on any >"$T/out" 2>"$T/err"
[ $? -eq 1 ] && [ "$(jq -r '[.runs[0].results[].level] | unique | join(",")' "$T/out")" = "warning" ] \
    && ok "--fail-on any: exit 1, the results are warnings" || not_ok "--fail-on any: exit 1, the results are warnings"
"$ERRATA" --db "$T/index.db" check --env "$LOCK" --fail-on network_error >"$T/out" 2>"$T/err"
[ $? -eq 0 ] && ok "--fail-on a category nothing is in: exit 0" || not_ok "--fail-on a category nothing is in: exit 0"
"$ERRATA" --db "$T/index.db" check --env-set no-such-package-errata=1.0 >"$T/out" 2>"$T/err"
[ $? -eq 0 ] && ok "nothing applies: exit 0 too" || not_ok "nothing applies: exit 0 too"
"$ERRATA" --db "$T/index.db" check --env "$LOCK" --fail-on "a,,b" >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && grep -q "separated by commas" "$T/err" && ok "a malformed --fail-on is an error" || not_ok "a malformed --fail-on is an error"
# Versions from --env-set have no file: their SARIF results are still located.
"$ERRATA" --db "$T/index.db" check --env-set torch=2.3.0 --env-set transformers=4.40.0 \
    --env-set peft=0.10.0 --sarif >"$T/out" 2>"$T/err"
[ "$(jq '[.runs[0].results[] | select(.locations[0].physicalLocation.artifactLocation.uri and .locations[0].physicalLocation.region.startLine >= 1)] | length' "$T/out")" = \
  "$(jq '.runs[0].results | length' "$T/out")" ] && [ "$(jq '.runs[0].results | length' "$T/out")" -gt 0 ] \
    && ok "every SARIF result has a location, --env-set ones too" || not_ok "every SARIF result has a location, --env-set ones too"
# Chinese: the words around the records too.
"$ERRATA" --db "$T/index.db" check --lang zh --env-set torch=2.3.0 --env-set transformers=4.40.0 \
    --env-set peft=0.10.0 >"$T/out" 2>"$T/err"
grep -q "个已知错误" "$T/out" && grep -q "首先尝试" "$T/out" && ! grep -q "first try" "$T/out" \
    && ok "check --lang zh speaks Chinese" || not_ok "check --lang zh speaks Chinese"

# The same lock file tells a lookup whether its answer applies.
check "lookup --env package-lock.json" "$ERRATA" --db "$T/index.db" lookup --json --env "$LOCK" \
    "Error: Invalid hook call. Hooks can only be called inside of the body of a function component."
[ "$(jq -r '.matches[0].applicability.state' "$T/out")" != "null" ] && ok "the match carries its applicability" \
    || not_ok "the match carries its applicability"

# Real pip freeze output: captured on a Debian machine (fixture), and live when pip is here.
FREEZE="$ROOT/tests/fixtures/env/pip/pip-freeze.txt"
"$ERRATA" --db "$T/index.db" check --env "$FREEZE" >"$T/out" 2>"$T/err"
[ $? -le 1 ] && ok "check reads a real pip freeze" || not_ok "check reads a real pip freeze"
if python3 -m pip --version >/dev/null 2>&1; then
    python3 -m pip freeze --disable-pip-version-check >"$T/freeze.txt" 2>/dev/null
    printf 'torch==2.3.0\ntransformers==4.40.0\npeft==0.10.0\n' >>"$T/freeze.txt"
    check "check on this machine's pip freeze" "$ERRATA" --db "$T/index.db" check --env "$T/freeze.txt" --json
    jq -e '[.records[].id] | index("huggingface/torch-compile-incompatible-with-peft")' "$T/out" >/dev/null \
        && ok "the seed applies once torch 2.3 is in the freeze" || not_ok "the seed applies once torch 2.3 is in the freeze"
else
    echo "# pip is not installed here: the live pip freeze check is not counted"
fi
# The seed's three cases through the command line.
SEED_MSG="RuntimeError: torch.compile is not supported for PEFT models with dynamic adapters"
for c in "2.3.0 applies" "2.1.0 not_affected"; do
    set -- $c
    "$ERRATA" --db "$T/index.db" lookup --json --env-set transformers=4.40.0 --env-set peft=0.10.0 \
        --env-set "torch=$1" "$SEED_MSG" >"$T/out" 2>"$T/err"
    [ "$(jq -r '.matches[0].applicability.state' "$T/out")" = "$2" ] && ok "torch $1: $2" || not_ok "torch $1: $2"
done
"$ERRATA" --db "$T/index.db" lookup --json --env-set transformers=4.40.0 --env-set peft=0.10.0 "$SEED_MSG" >"$T/out"
[ "$(jq -r '.matches[0].applicability.state' "$T/out")" = "unknown" ] && ok "without torch: unknown" || not_ok "without torch: unknown"
# Bad environment files are named with their line.
printf 'requests==2.31.0\n==1.0\n' >"$T/requirements.txt"
"$ERRATA" --db "$T/index.db" check --env "$T/requirements.txt" >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && grep -q "requirements.txt:2" "$T/err" && ok "a malformed requirements line is named" || not_ok "a malformed requirements line is named"
"$ERRATA" --db "$T/index.db" check >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && grep -q "needs an environment" "$T/err" && ok "check without an environment says so" || not_ok "check without an environment says so"

echo "1..$n"
echo "$((n - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
