#!/usr/bin/env bash
# Runs the server tests: the HTTP API against docs/openapi.json, MCP over stdio and Streamable
# HTTP with the official SDK, and the web pages in Chromium.
#
#   tests/server/run.sh ERRATA_BIN
#
# Installs what it needs when it is missing (node_modules with npm ci, Debian's chromium with
# apt-get), builds an index from ../../kb into a temporary directory, runs the four test files
# with node's test runner (TAP), stops every server the tests started, and ends with the line
# "N passed, N failed". Exits non-zero if any test failed.
set -euo pipefail
cd "$(dirname "$0")"

BIN=${1:?usage: run.sh ERRATA_BIN}
BIN=$(realpath "$BIN")
[[ -x $BIN ]] || { echo "run.sh: $BIN is not an executable" >&2; exit 2; }

if [[ ! -d node_modules ]]; then
    npm ci --no-audit --no-fund
fi

if [[ ! -x /usr/bin/chromium ]]; then
    if [[ $(id -u) -ne 0 ]]; then
        echo "run.sh: /usr/bin/chromium is missing and only root can install it with apt-get" >&2
        exit 2
    fi
    DEBIAN_FRONTEND=noninteractive apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium
fi

T=$(mktemp -d)
PIDS="$T/pids"
: >"$PIDS"
cleanup() {
    # every process a test started and left running: TERM, then KILL after 5 s
    local pid alive=()
    while read -r pid; do
        [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null && alive+=("$pid")
    done <"$PIDS"
    if ((${#alive[@]})); then
        echo "run.sh: stopping leftover test processes: ${alive[*]}" >&2
        for pid in "${alive[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
        for _ in $(seq 50); do
            local any=0
            for pid in "${alive[@]}"; do kill -0 "$pid" 2>/dev/null && any=1; done
            ((any)) || break
            sleep 0.1
        done
        for pid in "${alive[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
    fi
    rm -rf "$T"
}
trap cleanup EXIT

"$BIN" build ../../kb -o "$T/index.db" >"$T/build.out" 2>&1 || { cat "$T/build.out" >&2; exit 2; }

RC=0
ERRATA_BIN="$BIN" ERRATA_DB="$T/index.db" ERRATA_TEST_PIDS="$PIDS" \
    node --test --test-reporter=tap --test-timeout=180000 \
    openapi.test.mjs mcp.test.mjs web.test.mjs web-pages.test.mjs 2>&1 | tee "$T/tap.txt" || RC=$?

count() { sed -n "s/^# $1 \([0-9][0-9]*\)$/\1/p" "$T/tap.txt" | tail -1; }
PASSED=$(count pass)
FAILED=$(count fail)
CANCELLED=$(count cancelled)
PASSED=${PASSED:-0}
FAILED=$(( ${FAILED:-0} + ${CANCELLED:-0} ))
if (( RC != 0 && FAILED == 0 )); then
    # the runner failed without counting a failed test (a crash, a file that did not load)
    FAILED=1
fi
echo "$PASSED passed, $FAILED failed"
(( FAILED == 0 ))
