#!/usr/bin/env bash
# Load test of `errata serve` on 127.0.0.1 only.
#
#   tests/server/load.sh ERRATA_BIN [SECONDS]
#
# 1. wrk sends the request mix of load.lua (valid lookups of a 40-line pytest trace and of the
#    seed error, invalid JSON, unknown ids, invalid UTF-8, bodies over 1 MiB) for SECONDS
#    (default 60); every answer must be 200, 400, 404 or 413;
# 2. the server must still answer /healthz, stop on SIGTERM with status 0 and, for an ASan
#    build, report no AddressSanitizer or LeakSanitizer error;
# 3. a second, pure run of the trace lookup for SECONDS/6 on a fresh server reports requests/s
#    and the latency distribution (p50, p99);
# 4. abuse.mjs for 25 s on a fresh server: 1,350 slowloris connections and oversized batches
#    while a prober checks that /healthz keeps answering (its checks count here); then the
#    server must still answer and stop cleanly.
# Ends with the line "N passed, N failed" over its checks; exits non-zero if any failed.
set -euo pipefail
cd "$(dirname "$0")"

BIN=${1:?usage: load.sh ERRATA_BIN [SECONDS]}
BIN=$(realpath "$BIN")
DURATION=${2:-60}
[[ $DURATION =~ ^[0-9]+$ ]] && (( DURATION >= 6 )) || { echo "load.sh: SECONDS must be a whole number >= 6" >&2; exit 2; }
PURE=$(( DURATION / 6 ))
# abuse.mjs holds about 1,400 sockets and the server up to 1,024 connections
ulimit -n 8192 2>/dev/null || true
THREADS=${WRK_THREADS:-2}
CONNECTIONS=${WRK_CONNECTIONS:-32}

apt_install() {
    if [[ $(id -u) -ne 0 ]]; then
        echo "load.sh: $1 is missing and only root can install it with apt-get" >&2
        exit 2
    fi
    DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >/dev/null
}
command -v wrk >/dev/null || apt_install wrk
command -v curl >/dev/null || apt_install curl

T=$(mktemp -d)
PID=""
cleanup() {
    if [[ -n $PID ]] && kill -0 "$PID" 2>/dev/null; then
        kill -TERM "$PID" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$PID" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$PID" 2>/dev/null || true
    fi
    rm -rf "$T"
}
trap cleanup EXIT

PASSED=0
FAILED=0
SKIPPED=0
check() { # check NAME COMMAND...
    local name=$1
    shift
    if "$@"; then
        PASSED=$((PASSED + 1))
        echo "ok - $name"
    else
        FAILED=$((FAILED + 1))
        echo "not ok - $name"
    fi
}

IS_ASAN=0
if grep -aq '__asan_init' "$BIN"; then IS_ASAN=1; fi

SERVE_ERR=""
URL=""
start_server() { # start_server NAME: sets PID, URL, SERVE_ERR
    SERVE_ERR="$T/serve-$1.err"
    "$BIN" serve --listen 127.0.0.1:0 --db "$T/index.db" 2>"$SERVE_ERR" &
    PID=$!
    URL=""
    for _ in $(seq 150); do
        URL=$(sed -n 's|^errata: serving on \(http://127\.0\.0\.1:[0-9][0-9]*\)$|\1|p' "$SERVE_ERR" | head -1)
        [[ -n $URL ]] && return 0
        kill -0 "$PID" 2>/dev/null || break
        sleep 0.1
    done
    echo "load.sh: the server did not start:" >&2
    cat "$SERVE_ERR" >&2
    return 1
}

stop_server() { # stop_server: SIGTERM, wait, sets STATUS
    STATUS=0
    kill -TERM "$PID" 2>/dev/null || true
    local waited=0
    while kill -0 "$PID" 2>/dev/null && (( waited < 300 )); do sleep 0.1; waited=$((waited + 1)); done
    if kill -0 "$PID" 2>/dev/null; then
        echo "load.sh: no exit 30 s after SIGTERM; killing it" >&2
        kill -KILL "$PID" 2>/dev/null || true
    fi
    wait "$PID" || STATUS=$?
    PID=""
}

no_sanitizer_report() {
    if grep -q -e 'ERROR: AddressSanitizer' -e 'LeakSanitizer' "$1"; then
        grep -m5 -e 'ERROR: AddressSanitizer' -e 'LeakSanitizer' "$1" >&2
        return 1
    fi
}

field() { sed -n "s/^$1: //p" "$2" | head -1; }

# --- the index and the trace ------------------------------------------------------------
"$BIN" build ../../kb -o "$T/index.db" >"$T/build.out" 2>&1 || { cat "$T/build.out" >&2; exit 2; }
sed -n '/^local TRACE = \[==\[$/,/^\]==\]$/p' load.lua | sed '1d;$d' >"$T/trace.txt"
TRACE_ID=python/attributeerror-nonetype-has-no-attribute
echo "# trace: $(wc -l <"$T/trace.txt") lines, $(wc -c <"$T/trace.txt") bytes"
check "the CLI matches the 40-line trace to $TRACE_ID" \
    bash -c '"$1" --db "$2" lookup --json --limit 1 <"$3" | jq -e --arg id "$4" ".matches[0].id == \$id" >/dev/null' _ "$BIN" "$T/index.db" "$T/trace.txt" "$TRACE_ID"

# --- the mixed run ----------------------------------------------------------------------
start_server mix
node -e 'process.stdout.write(JSON.stringify({text: require("fs").readFileSync(process.argv[1], "utf8"), limit: 3}))' \
    "$T/trace.txt" >"$T/trace.json"
check "the server answers the trace lookup with $TRACE_ID" \
    bash -c 'curl -sS --max-time 10 -H "Content-Type: application/json" --data-binary @"$1" "$2/api/v1/lookup" | grep -q "\"id\": *\"$3\""' \
    _ "$T/trace.json" "$URL" "$TRACE_ID"

echo "# mixed run: ${DURATION}s, $THREADS threads, $CONNECTIONS connections, $URL"
WRK_RC=0
wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --timeout 10s --latency -s load.lua "$URL" >"$T/mix.out" 2>&1 || WRK_RC=$?
sed 's/^/#   /' "$T/mix.out"
check "wrk ran the mix" test "$WRK_RC" -eq 0 -a "$(field requests_per_s "$T/mix.out" | cut -d. -f1)" -gt 0
check "every answer is 200, 400, 404 or 413" test "$(field unexpected "$T/mix.out")" = 0
for s in 200 400 404 413; do
    check "the mix got status $s" test "$(field "status $s" "$T/mix.out")" -gt 0
done
check "no timeouts" bash -c '! grep -q "timeout [1-9]" "$1"' _ "$T/mix.out"
check "/healthz answers after the load" \
    bash -c 'curl -sS --max-time 10 "$1/healthz" | grep -q "\"status\": *\"ok\""' _ "$URL"
check "the server answers the trace lookup after the load" \
    bash -c 'curl -sS --max-time 10 -H "Content-Type: application/json" --data-binary @"$1" "$2/api/v1/lookup" | grep -q "\"id\": *\"$3\""' \
    _ "$T/trace.json" "$URL" "$TRACE_ID"
stop_server
check "SIGTERM after the mix: exit status 0 (got $STATUS)" test "$STATUS" -eq 0
if (( IS_ASAN )); then
    check "no AddressSanitizer/LeakSanitizer report after the mix" no_sanitizer_report "$SERVE_ERR"
else
    SKIPPED=$((SKIPPED + 1))
    echo "ok - no sanitizer report after the mix # SKIP not an ASan build"
fi

# --- the pure run -----------------------------------------------------------------------
start_server pure
echo "# pure run: the 40-line trace lookup, ${PURE}s, $THREADS threads, $CONNECTIONS connections"
WRK_RC=0
wrk -t"$THREADS" -c"$CONNECTIONS" -d"${PURE}s" --timeout 10s --latency -s load.lua "$URL" -- trace >"$T/pure.out" 2>&1 || WRK_RC=$?
sed 's/^/#   /' "$T/pure.out"
check "wrk ran the pure trace lookups" test "$WRK_RC" -eq 0 -a "$(field requests_per_s "$T/pure.out" | cut -d. -f1)" -gt 0
check "every pure trace lookup answered 200" bash -c '! grep -q "Non-2xx or 3xx responses" "$1" && ! grep -q "Socket errors" "$1"' _ "$T/pure.out"
stop_server
check "SIGTERM after the pure run: exit status 0 (got $STATUS)" test "$STATUS" -eq 0
if (( IS_ASAN )); then
    check "no AddressSanitizer/LeakSanitizer report after the pure run" no_sanitizer_report "$SERVE_ERR"
fi

# --- slowloris and oversized batches ---------------------------------------------------
start_server abuse
echo "# abuse: slowloris and oversized batches for 25 s, /healthz probed every 100 ms"
node abuse.mjs "$URL" 25 >"$T/abuse.out" 2>&1 || true
sed 's/^/#   /' "$T/abuse.out"
while read -r line; do
    case $line in
        "ok - "*) PASSED=$((PASSED + 1)); echo "$line" ;;
        "not ok - "*) FAILED=$((FAILED + 1)); echo "$line" ;;
    esac
done <"$T/abuse.out"
check "abuse.mjs ran to its result line" grep -qE '^[0-9]+ passed, [0-9]+ failed$' "$T/abuse.out"
check "/healthz answers after the abuse" \
    bash -c 'curl -sS --max-time 10 "$1/healthz" | grep -q "\"status\": *\"ok\""' _ "$URL"
stop_server
check "SIGTERM after the abuse: exit status 0 (got $STATUS)" test "$STATUS" -eq 0
if (( IS_ASAN )); then
    check "no AddressSanitizer/LeakSanitizer report after the abuse" no_sanitizer_report "$SERVE_ERR"
fi

echo "# pure trace lookup: $(field requests_per_s "$T/pure.out") requests/s," \
    "p50 $(field p50_ms "$T/pure.out") ms, p90 $(field p90_ms "$T/pure.out") ms," \
    "p99 $(field p99_ms "$T/pure.out") ms, max $(field max_ms "$T/pure.out") ms"
if (( SKIPPED )); then
    echo "$PASSED passed, $FAILED failed, $SKIPPED skipped"
else
    echo "$PASSED passed, $FAILED failed"
fi
(( FAILED == 0 ))
