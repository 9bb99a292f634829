#!/usr/bin/env bash
# test_cli.sh ERRATA_BIN — the errata command as a user runs it: exit codes, messages, stdin,
# the JSON output, and bad input of every kind. Prints TAP.
set -u
ERRATA=$1
ROOT=${SOURCE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
SEED="$ROOT/kb/huggingface/torch-compile-incompatible-with-peft.json"
SEED_ID=huggingface/torch-compile-incompatible-with-peft
SEED_MSG="RuntimeError: torch.compile is not supported for PEFT models with dynamic adapters"
T=$(mktemp -d /tmp/errata-cli-XXXXXX)
trap 'rm -rf "$T"' EXIT
DB="$T/index.db"

. "$(dirname "$0")/tap.sh"

run 0 "--version" -- "$ERRATA" --version
has "$T/out" "errata 0." "version printed"
run 0 "--help" -- "$ERRATA" --help
for c in lookup search show validate build; do
    run 0 "$c --help" -- "$ERRATA" "$c" --help
    has "$T/out" "Exit status" "$c --help documents its exit status"
done
# The man page (generated from docs/cmdline/) documents every command that --help lists.
"$ERRATA" --help | awk '/^Commands:/ {on = 1; next} on && /^  [a-z]/ {print $1}' >"$T/commands"
[ -s "$T/commands" ] && ok "--help lists the commands" || not_ok "--help lists the commands"
while read -r c; do
    grep -q "^\\.SS \"errata $c[ \"]" "$ROOT/docs/man/errata.1" && ok "man page documents $c" || not_ok "man page documents $c"
done <"$T/commands"
# errata loads no HTTP stack: serve and mcp run errata-serve, found next to it.
ldd "$ERRATA" >"$T/out" 2>"$T/err"
lacks "$T/out" "libmicrohttpd" "errata does not link libmicrohttpd"
lacks "$T/out" "libgnutls" "errata does not load gnutls"
ldd "$(dirname "$ERRATA")/errata-serve" >"$T/out" 2>"$T/err"
has "$T/out" "libmicrohttpd" "errata-serve links libmicrohttpd"
for c in serve mcp; do
    run 0 "$c --help (run by errata-serve)" -- "$ERRATA" "$c" --help
    has "$T/out" "Usage: errata $c" "$c --help is $c's own"
done
mkdir -p "$T/alone" && cp "$ERRATA" "$T/alone/errata"
run 2 "serve without errata-serve beside it or installed" -- env ERRATA_DB=/nonexistent "$T/alone/errata" serve
has "$T/err" "serve needs errata-serve" "a missing errata-serve is named"
run 2 "unknown command" -- "$ERRATA" frobnicate
has "$T/err" "unknown command 'frobnicate'" "unknown command is named"
run 2 "unknown option" -- "$ERRATA" lookup --frob x

# validate: the seed is valid, with its known flaws as warnings
run 0 "validate the seed" -- "$ERRATA" validate "$SEED"
for i in 0 1 2; do
    has "$T/out" "dead_ends[$i].action: warning: empty" "warns about dead_ends[$i].action"
    has "$T/out" "workarounds_zh[$i]: warning: identical to workarounds[$i]" "warns about workarounds_zh[$i]"
done
has "$T/out" "0 error(s)" "seed has no errors"
run 0 "validate --json" -- "$ERRATA" validate --json "$SEED"
[ "$(jq -r .valid "$T/out")" = true ] && ok "validate --json says valid" || not_ok "validate --json says valid"
[ "$(jq '[.diagnostics[] | select(.field | test("^dead_ends"))] | length' "$T/out")" = 3 ] && ok "three dead-end warnings in JSON" || not_ok "three dead-end warnings in JSON"
printf '{\n  "id": "a/b",\n  "signature" "x"\n}\n' >"$T/broken.json"
run 1 "validate broken JSON" -- "$ERRATA" validate "$T/broken.json"
has "$T/out" "$T/broken.json:3:" "syntax error names file:line"
sed 's/"fail_rate": 0.95/"fail_rate": 1.7/' "$SEED" >"$T/rate.json"
run 1 "validate a rate above 1" -- "$ERRATA" validate "$T/rate.json"
has "$T/out" "dead_ends[0].fail_rate: error: 1.7 is outside [0, 1]" "rate error names its field"
run 2 "validate a missing path" -- "$ERRATA" validate "$T/nope"
has "$T/err" "$T/nope" "missing path is named"
run 0 "validate --quiet" -- "$ERRATA" validate --quiet "$SEED"
[ ! -s "$T/out" ] && ok "--quiet prints nothing" || not_ok "--quiet prints nothing"

# build (from the seed alone: the whole knowledge base is tested by kb/test_kb.sh)
mkdir -p "$T/kb/huggingface"
cp "$SEED" "$T/kb/huggingface/"
run 0 "build a knowledge base" -- "$ERRATA" build "$T/kb" -o "$DB"
has "$T/out" "built $DB" "build reports the index"
run 0 "rebuild unchanged" -- "$ERRATA" build "$T/kb" -o "$DB"
has "$T/out" "up to date" "unchanged build is skipped"
run 0 "build --force" -- "$ERRATA" build --force "$T/kb" -o "$DB"
has "$T/out" "built" "forced build rebuilds"
mkdir -p "$T/badkb/x"
cp "$T/broken.json" "$T/badkb/x/broken.json"
# A symbolic link loop, a link back up and a dangling link are reported and skipped.
mkdir -p "$T/loopkb/huggingface" && cp "$SEED" "$T/loopkb/huggingface/"
ln -s .. "$T/loopkb/huggingface/up" && ln -s self "$T/loopkb/self" && ln -s /nonexistent "$T/loopkb/gone.json"
run 0 "build a knowledge base with symbolic link loops" -- "$ERRATA" build "$T/loopkb" -o "$T/loop.db"
run 0 "validate names each bad link" -- "$ERRATA" validate "$T/loopkb"
has "$T/out" "loopkb/huggingface/up: warning: skipped: a symbolic link back to a directory above it" "a link back up is named"
has "$T/out" "loopkb/self: warning: skipped: Too many levels of symbolic links" "a link loop is named"
has "$T/out" "loopkb/gone.json: warning: skipped: No such file or directory" "a dangling link is named"
run 1 "build refuses invalid records" -- "$ERRATA" build "$T/badkb" -o "$DB"
has "$T/err" "broken.json:3:" "build names the broken file"
run 0 "old index still answers after a refused build" -- "$ERRATA" --db "$DB" lookup "$SEED_MSG"

# lookup: the acceptance
run 0 "lookup the seed's message" -- "$ERRATA" --db "$DB" lookup "$SEED_MSG"
has "$T/out" "$SEED_ID" "seed record shown"
has "$T/out" "TRY 1 (works 95%) Set environment variable" "workarounds shown best first, with success rates"
has "$T/out" "TRY 3 (works 85%) Use \`torch.compile\` only after" "the weakest workaround shown last"
has "$T/out" "AVOID (fails 95%) The issue is not about optimization mode" "a dead end without an action leads with why it fails"
lacks "$T/out" "action not recorded" "no placeholder for the seed's empty dead-end actions"
has "$T/out" "Not checked against your versions" "versions without an environment are said to be unchecked"
lacks "$T/out" "(active)" "no status that reads like a verdict on the reader's machine"
has "$T/out" "torch>=2.2.0" "versions shown"
has "$T/out" "https://huggingface.co/docs/peft" "doc URL shown"
lacks "$T/out" $'\033[' "no colour when stdout is not a terminal"
run 0 "lookup --json" -- "$ERRATA" lookup --db "$DB" --json "$SEED_MSG"
[ "$(jq -r '.matches[0].id' "$T/out")" = "$SEED_ID" ] && ok "--json gives the seed id" || not_ok "--json gives the seed id"
[ "$(jq -r '.matches[0].record.workarounds | length' "$T/out")" = 3 ] && ok "--json carries the workarounds" || not_ok "--json carries the workarounds"
printf '%s\n' "$SEED_MSG" | ERRATA_DB="$DB" "$ERRATA" lookup >"$T/out" 2>"$T/err"
[ $? -eq 0 ] && grep -qF "$SEED_ID" "$T/out" && ok "stdin and ERRATA_DB" || not_ok "stdin and ERRATA_DB"
printf '%s\n' "$SEED_MSG" | "$ERRATA" --db "$DB" lookup - >"$T/out" 2>"$T/err"
[ $? -eq 0 ] && ok "'-' reads stdin" || not_ok "'-' reads stdin"
run 0 "lookup --lang zh" -- "$ERRATA" --db "$DB" lookup --lang zh "$SEED_MSG"
has "$T/out" "运行时错误" "Chinese signature shown"
run 2 "bad --lang" -- "$ERRATA" --db "$DB" lookup --lang fr "$SEED_MSG"
run 0 "--color always" -- "$ERRATA" --db "$DB" lookup --color always "$SEED_MSG"
has "$T/out" $'\033[' "colour on request"
NO_COLOR=1 "$ERRATA" --db "$DB" lookup "$SEED_MSG" >"$T/out" 2>&1
lacks "$T/out" $'\033[' "NO_COLOR respected"
run 0 "lookup --explain" -- "$ERRATA" --db "$DB" lookup --explain "$SEED_MSG"
has "$T/out" "specificity" "explain shows the score's parts"
run 1 "no match" -- "$ERRATA" --db "$DB" lookup "all 42 tests passed, nothing to see here"
has "$T/out" "No known error matched" "no match is said plainly"
mkdir -p "$T/kb2/python" && cp "$ROOT/kb/python/modulenotfounderror-no-module-named.json" \
    "$ROOT/kb/python/importerror-cannot-import-name.json" "$T/kb2/python/" && cp -r "$T/kb/huggingface" "$T/kb2/"
"$ERRATA" build "$T/kb2" -o "$T/db2" >/dev/null
run 1 "one word that names an error" -- "$ERRATA" --db "$T/db2" lookup "ModuleNotFoundError"
has "$T/out" "python/modulenotfounderror-no-module-named" "a lone error name finds its record as a guess"
lacks "$T/out" "No known error matched" "guesses are not headed by 'nothing matched'"

# bad input
printf '' | "$ERRATA" --db "$DB" lookup >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && grep -q "empty" "$T/err" && ok "empty input: exit 2 and says empty" || not_ok "empty input"
printf '\xff\xfe\xc3(%s\xed\xa0\x80\n' "$SEED_MSG" | "$ERRATA" --db "$DB" lookup >"$T/out" 2>"$T/err"
[ $? -eq 0 ] && grep -qF "$SEED_ID" "$T/out" && ok "invalid UTF-8 around the error" || not_ok "invalid UTF-8 around the error"
{ head -c 50000000 /dev/zero | tr '\0' 'x' | fold -w 99; printf '\n%s\n' "$SEED_MSG"; } >"$T/big.txt"
"$ERRATA" --db "$DB" lookup --limit 1 <"$T/big.txt" >"$T/out" 2>"$T/err"
[ $? -eq 0 ] && grep -qF "$SEED_ID" "$T/out" && ok "50 MB input" || not_ok "50 MB input"
"$ERRATA" --db "$DB" lookup --max-input 1000000 <"$T/big.txt" >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && grep -q "limit" "$T/err" && ok "input over --max-input: exit 2 and says the limit" || not_ok "input over --max-input"
run 2 "missing index" -- "$ERRATA" --db "$T/none.db" lookup "$SEED_MSG"
has "$T/err" "$T/none.db" "missing index is named"
has "$T/err" "errata build" "missing index says how to make one"
echo "not a database" >"$T/text.db"
run 2 "not an index" -- "$ERRATA" --db "$T/text.db" lookup "$SEED_MSG"
has "$T/err" "not an Errata index" "not an index is said"
head -c 4096 "$DB" >"$T/trunc.db"
run 2 "truncated index" -- "$ERRATA" --db "$T/trunc.db" lookup "$SEED_MSG"
has "$T/err" "rebuild" "truncated index: says to rebuild"

# search and guesses
run 0 "search" -- "$ERRATA" --db "$DB" search peft adapters
has "$T/out" "$SEED_ID" "search finds the seed"
run 1 "search for nothing related" -- "$ERRATA" --db "$DB" search zebra giraffe
run 1 "a paraphrase is a guess, not a match" -- "$ERRATA" --db "$DB" lookup "torch compile fails on my PEFT model with dynamic adapters"
has "$T/out" "a guess" "the guess is marked as one"

# show
run 0 "show the seed" -- "$ERRATA" --db "$DB" show "$SEED_ID"
has "$T/out" "Root cause" "show prints the record"
run 0 "show --json" -- "$ERRATA" --db "$DB" show --json "$SEED_ID"
[ "$(jq -r .id "$T/out")" = "$SEED_ID" ] && ok "show --json is the record" || not_ok "show --json is the record"
run 1 "show an unknown id" -- "$ERRATA" --db "$DB" show nope/nothing
has "$T/err" "no record with id 'nope/nothing'" "unknown id is named"
run 2 "show without an id" -- "$ERRATA" --db "$DB" show

echo "1..$n"
echo "$((n - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
