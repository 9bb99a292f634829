#!/usr/bin/env bash
# test_shell_snippets.sh ERRATA_BIN SNIPPETS_BIN — every workaround `how` that is a shell command,
# filled in with the captures of each example of its record exactly as an answer shows it, must
# parse with `bash -n`, without a warning (a filled-in command must run: a capture may not break
# its quoting).
# Prints TAP: one line for the whole knowledge base, then each snippet that fails.
set -u
ERRATA=$1 SNIPPETS=$2
ROOT=${SOURCE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
T=$(mktemp -d /tmp/errata-snippets-XXXXXX)
trap 'rm -rf "$T"' EXIT
"$ERRATA" build --force "$ROOT/kb" -o "$T/index.db" >/dev/null || { echo "not ok 1 - build"; echo "0 passed, 1 failed"; exit 1; }
mkdir "$T/s"
count=$("$SNIPPETS" "$T/index.db" "$T/s") || { echo "not ok 1 - write the snippets"; echo "0 passed, 1 failed"; exit 1; }
bad=0
for f in "$T"/s/*.sh; do
    [ -e "$f" ] || continue
    # A warning counts: "here-document delimited by end-of-file" parses, but not as meant.
    if ! bash -n "$f" 2>"$T/err" || [ -s "$T/err" ]; then
        bad=$((bad + 1))
        echo "# $(head -1 "$f" | sed 's/^# //'): $(head -1 "$T/err")"
    fi
done
n=2 failed=0
if [ "$count" -gt 100 ]; then echo "ok 1 - $count shell snippets found"; else failed=1; echo "not ok 1 - only $count shell snippets found"; fi
if [ "$bad" -eq 0 ]; then echo "ok 2 - every one parses with bash -n"; else failed=$((failed + 1)); echo "not ok 2 - $bad of $count do not parse with bash -n"; fi
echo "1..$n"
echo "$((n - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
