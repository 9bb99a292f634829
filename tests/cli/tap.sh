# tap.sh — sourced by the CLI tests: TAP lines and the checks they share. The caller sets T (a
# temporary directory); every check counts in n and failed, and a failure shows the last
# command's output.
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; sed 's/^/# /' "$T/out" "$T/err" | head -30; }
# run EXPECTED_STATUS DESCRIPTION -- COMMAND…: runs it with stdout in $T/out, stderr in $T/err.
run() {
    local want=$1 desc=$2
    shift 3
    "$@" >"$T/out" 2>"$T/err"
    local got=$?
    if [ "$got" -eq "$want" ]; then ok "$desc (exit $got)"; else not_ok "$desc (exit $got, wanted $want)"; fi
}
# has FILE TEXT DESCRIPTION / lacks FILE TEXT DESCRIPTION
has() { if grep -qF -- "$2" "$1"; then ok "$3"; else not_ok "$3: '$2' not in $(basename "$1")"; fi; }
lacks() { if grep -qF -- "$2" "$1"; then not_ok "$3: '$2' found in $(basename "$1")"; else ok "$3"; fi; }
