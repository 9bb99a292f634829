#!/usr/bin/env bash
# test_scan.sh ERRATA_BIN — `errata scan` and `errata run` as CI uses them, on the output of real
# failing tools (gcc and make, Python, git) and on the bundled knowledge base: findings at their
# lines, every format, compressed input, pipes with pipefail, the command's own exit status,
# signals. Prints TAP.
set -u
ERRATA=$1
ROOT=${SOURCE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
T=$(mktemp -d /tmp/errata-scan-XXXXXX)
trap 'rm -rf "$T"' EXIT
DB="$T/index.db"
export ERRATA_DB=$DB

. "$(dirname "$0")/tap.sh"
json_is() { # FILE JQ_EXPR EXPECTED DESCRIPTION
    local got
    got=$(jq -r "$2" "$1" 2>&1)
    if [ "$got" = "$3" ]; then ok "$4"; else not_ok "$4: $2 is '$got', wanted '$3'"; fi
}

"$ERRATA" build "$ROOT/kb" -o "$DB" >/dev/null || { echo "Bail out! cannot build the index"; exit 1; }

# A real failing build, a real traceback and a real git error, with benign lines around them.
mkdir -p "$T/proj"
printf '#include "nothere.h"\nint main(void) { return 0; }\n' >"$T/proj/a.c"
printf 'all:\n\tgcc -c a.c -o a.o\n' >"$T/proj/Makefile"
{
    for i in $(seq 1 200); do echo "test_case_$i ... ok"; done
    make -C "$T/proj" 2>&1
    for i in $(seq 1 300); do echo "[$i/300] Compiling module_$i.c"; done
    python3 -c 'import no_such_module_errata' 2>&1
    echo "collected 12 items"
    (cd "$T" && git status 2>&1)
} >"$T/ci.log"
gcc_line=$(grep -n 'fatal error: nothere.h' "$T/ci.log" | cut -d: -f1)
py_line=$(grep -n "^ModuleNotFoundError" "$T/ci.log" | cut -d: -f1)
git_line=$(grep -n "^fatal: not a git repository" "$T/ci.log" | cut -d: -f1)

run 0 "scan a log with three failures" -- "$ERRATA" scan "$T/ci.log"
has "$T/out" "3 known failures" "three findings"
has "$T/out" "c-cpp/missing-header-file — line $gcc_line" "the gcc error at its line"
has "$T/out" "python/modulenotfounderror-no-module-named — line $py_line" "the traceback at its line"
has "$T/out" "git/not-a-git-repository — line $git_line" "the git error at its line"
has "$T/out" "pip install" "the answer says what to try"
lacks "$T/out" "make/" "make's framing line is not a finding of its own"

run 0 "--json" -- "$ERRATA" scan --json "$T/ci.log"
json_is "$T/out" '.findings | length' 3 "JSON: three findings"
json_is "$T/out" '.findings[1].line' "$py_line" "JSON: the line of the second"
json_is "$T/out" '.findings[1].match.captures.module' no_such_module_errata "JSON: its capture"
json_is "$T/out" ".source" "$T/ci.log" "JSON: the source is the file"

run 0 "--jsonl" -- "$ERRATA" scan --jsonl "$T/ci.log"
if [ "$(jq -c .type "$T/out" | tr '\n' ' ')" = '"finding" "finding" "finding" "summary" ' ]; then
    ok "JSON Lines: a line a finding, then the summary"
else not_ok "JSON Lines: a line a finding, then the summary"; fi

run 0 "--github" -- "$ERRATA" scan --github "$T/ci.log"
has "$T/out" "::error file=$T/ci.log,line=$gcc_line,title=c-cpp/missing-header-file::" "a workflow command at the gcc line"
[ "$(wc -l <"$T/out")" -eq 3 ] && ok "one command a finding" || not_ok "one command a finding"

run 0 "--markdown" -- "$ERRATA" scan --markdown "$T/ci.log"
has "$T/out" "## Errata: 3 known failures" "Markdown heading"

run 0 "--sarif" -- "$ERRATA" scan --sarif "$T/ci.log"
json_is "$T/out" '[.runs[0].results[] | .locations[0].physicalLocation.region.startLine] | join(",")' \
    "$gcc_line,$py_line,$git_line" "SARIF: every result located at its line"

# stdin, a pipe keeping the producer's status, compressed input, several files.
run 0 "stdin with --source" -- sh -c "cat '$T/ci.log' | '$ERRATA' scan --json --source ci.log"
json_is "$T/out" ".source" "ci.log" "stdin is named by --source"
run 2 "make 2>&1 | errata scan, with pipefail, fails as make does" -- \
    bash -c "set -o pipefail; make -C '$T/proj' 2>&1 | '$ERRATA' scan --quiet"
gzip -c "$T/ci.log" >"$T/ci.log.gz"
run 0 "a gzip log" -- "$ERRATA" scan --json "$T/ci.log.gz"
json_is "$T/out" '.findings | length' 3 "gzip: the same findings"
if command -v zstd >/dev/null; then
    zstd -q -c "$T/ci.log" >"$T/ci.log.zst"
    run 0 "a zstd log on stdin" -- sh -c "'$ERRATA' scan --json <'$T/ci.log.zst'"
    json_is "$T/out" '.findings | length' 3 "zstd: the same findings"
fi
head -c 1000 "$T/ci.log.gz" >"$T/cut.gz"
run 2 "a truncated gzip log" -- "$ERRATA" scan "$T/cut.gz"
has "$T/err" "truncated" "says it is truncated"
for i in $(seq 1 5000); do echo "step $i done"; done >"$T/benign.log"
run 1 "a benign log" -- "$ERRATA" scan "$T/benign.log"
has "$T/out" "0 known failures" "nothing found"
run 0 "two files as JSON" -- "$ERRATA" scan --json "$T/ci.log" "$T/benign.log"
json_is "$T/out" '[.[] | .findings | length] | join(",")' "3,0" "an array of one document a file"
run 0 "two files as SARIF" -- "$ERRATA" scan --sarif "$T/ci.log" "$T/benign.log"
json_is "$T/out" '.runs | length' 2 "one run a file"
run 2 "a missing file" -- "$ERRATA" scan "$T/nope.log"
has "$T/err" "nope.log" "names the file"
run 2 "a directory" -- "$ERRATA" scan "$T/proj"
has "$T/err" "$T/proj: reading the input failed: Is a directory" "names it and says why"
run 2 "two formats at once" -- "$ERRATA" scan --json --sarif "$T/ci.log"

# --follow: a finding written to a growing log is reported while errata still waits; Ctrl-C
# (SIGINT) ends the scan with its summary.
for i in $(seq 1 50); do echo "step $i"; done >"$T/growing.log"
"$ERRATA" scan --follow --jsonl "$T/growing.log" >"$T/follow.out" 2>"$T/follow.err" &
fpid=$!
sleep 0.5
python3 -c 'import no_such_module_errata' >>"$T/growing.log" 2>&1
for _ in $(seq 1 50); do grep -q '"type":"finding"' "$T/follow.out" 2>/dev/null && break; sleep 0.1; done
if grep -q '"type":"finding"' "$T/follow.out"; then ok "--follow reports a finding written after it started"
else not_ok "--follow reports a finding written after it started"; fi
kill -INT "$fpid"
wait "$fpid"
fst=$?
if [ "$fst" -eq 0 ] && grep -q '"type":"summary"' "$T/follow.out"; then ok "SIGINT ends --follow with the summary (exit 0)"
else not_ok "SIGINT ends --follow with the summary (exit $fst)"; fi
run 2 "--follow with two files" -- "$ERRATA" scan --follow "$T/ci.log" "$T/benign.log"

# errata run: the command's output through, its status out, the findings after.
run 2 "run make: make's own status" -- "$ERRATA" run -- make -C "$T/proj"
has "$T/err" "fatal error: nothere.h" "make's stderr passed through"
has "$T/out" "gcc -c a.c" "make's stdout passed through"
has "$T/err" "c-cpp/missing-header-file" "the finding after the output"
run 0 "run a command that succeeds" -- "$ERRATA" run -- echo fine
has "$T/out" "fine" "its output"
lacks "$T/err" "known failure" "no findings on success"
run 1 "run with --report SARIF" -- "$ERRATA" run --sarif --report "$T/r.sarif" -- python3 -c 'import no_such_module_errata'
json_is "$T/r.sarif" '.runs[0].results[0].ruleId' python/modulenotfounderror-no-module-named "the report names the failure"
run 0 "--report is written on success too" -- "$ERRATA" run --json --report "$T/ok.json" -- true
json_is "$T/ok.json" '.findings | length' 0 "an empty report"
run 137 "a killed command" -- "$ERRATA" run -- sh -c 'kill -9 $$'
has "$T/err" "killed by signal 9" "reported as killed"
run 127 "a command that does not exist" -- "$ERRATA" run -- no-such-command-errata
has "$T/err" "no-such-command-errata" "names it"
run 2 "run without a command" -- "$ERRATA" run
# Transient infrastructure against real defects: categories, --fail-on, retryable, --retry.
run 0 "scan --json says what is transient" -- "$ERRATA" scan --json "$T/ci.log"
json_is "$T/out" '.retryable' false "a log with real defects is not retryable"
json_is "$T/out" '[.findings[].transient] | join(",")' "false,false,false" "each finding says it is not transient"
json_is "$T/out" '.findings[0].category' build_error "and its category"
run 1 "--fail-on defect fails on a compiler error" -- "$ERRATA" scan --quiet --fail-on defect "$T/ci.log"
run 0 "--fail-on network_error passes a build failure" -- "$ERRATA" scan --quiet --fail-on network_error "$T/ci.log"
run 0 "--fail-on on a benign log passes" -- "$ERRATA" scan --quiet --fail-on any "$T/benign.log"
run 2 "--fail-on with a malformed list" -- "$ERRATA" scan --fail-on "build_error,,x" "$T/ci.log"
has "$T/err" "separated by commas" "says how to write the list"
if command -v curl >/dev/null; then
    # A real DNS failure (.invalid never resolves): transient.
    curl -sS http://errata-test.invalid/ >"$T/dns.log" 2>&1
    run 0 "a DNS failure" -- "$ERRATA" scan --json "$T/dns.log"
    json_is "$T/out" '.retryable' true "is retryable"
    run 0 "--fail-on defect passes a DNS failure" -- "$ERRATA" scan --quiet --fail-on defect "$T/dns.log"
    # Fails on DNS the first time, passes the second: run --retry runs it again.
    cat >"$T/flaky.sh" <<FLAKY
#!/bin/sh
if [ -f "$T/flaky.done" ]; then echo "fetched"; exit 0; fi
touch "$T/flaky.done"
exec curl -sS http://errata-test.invalid/
FLAKY
    chmod +x "$T/flaky.sh"
    run 0 "run --retry 2 passes a command that failed on DNS once" -- "$ERRATA" run --retry 2 -- "$T/flaky.sh"
    has "$T/err" "transient infrastructure only" "says why it runs it again"
    has "$T/out" "fetched" "the second run's output"
    rm -f "$T/flaky.done"
    run 6 "without --retry, curl's own status" -- "$ERRATA" run -- "$T/flaky.sh"
fi
printf '#!/bin/sh
echo x >>"%s/count"
exec make -C "%s/proj"
' "$T" "$T" >"$T/defect.sh"
chmod +x "$T/defect.sh"
run 2 "run --retry 3 never reruns a compiler error" -- "$ERRATA" run --retry 3 -- "$T/defect.sh"
[ "$(wc -l <"$T/count")" -eq 1 ] && ok "ran once" || not_ok "ran $(wc -l <"$T/count") times"
run 2 "--retry out of range" -- "$ERRATA" run --retry 99 -- true
run 1 "run --fail-on fails a command that exits 0 but prints a defect" -- \
    "$ERRATA" run --fail-on defect -- sh -c "cat '$T/ci.log'"

# SIGTERM to errata reaches the command.
"$ERRATA" run -- sh -c 'trap "echo got-term; exit 3" TERM; echo started; while :; do sleep 0.1; done' >"$T/out" 2>"$T/err" &
pid=$!
for _ in $(seq 1 50); do grep -q started "$T/out" 2>/dev/null && break; sleep 0.1; done
kill -TERM "$pid"
wait "$pid"
st=$?
if [ "$st" -eq 3 ] && grep -q got-term "$T/out"; then ok "SIGTERM forwarded, the command's status kept"
else not_ok "SIGTERM forwarded (exit $st)"; fi

echo "1..$n"
[ "$failed" -eq 0 ]
