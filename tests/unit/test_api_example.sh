#!/usr/bin/env bash
# test_api_example.sh ERRATA LIBERRATA_SO CC [SANITIZE] — the C example in docs/api.md compiles
# against the public header and the shared library alone, with -Wall -Wextra -Werror, and
# answers a lookup. SANITIZE is the build's b_sanitize: a sanitized library needs a sanitized
# program around it.
set -u
ERRATA=$1 LIB=$2 CC=${3:-cc} SANITIZE=${4:-none}
san=()
[ "$SANITIZE" = none ] || san=(-fsanitize="$SANITIZE")
ROOT=${SOURCE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
T=$(mktemp -d /tmp/errata-api-example-XXXXXX)
trap 'rm -rf "$T"' EXIT
awk '/^```c$/ {on = 1; next} /^```$/ && on {exit} on' "$ROOT/docs/api.md" >"$T/example.c"
[ -s "$T/example.c" ] || { echo "FAIL: no \`\`\`c block in docs/api.md"; exit 1; }
libdir=$(dirname "$LIB")
if ! "$CC" -std=c11 -Wall -Wextra -Werror "${san[@]}" -I"$ROOT/include" "$T/example.c" -L"$libdir" -lerrata \
    -Wl,-rpath,"$libdir" -o "$T/example" 2>"$T/cc.log"; then
    echo "FAIL: docs/api.md's example does not compile:"; cat "$T/cc.log"; exit 1
fi
"$ERRATA" build --force "$ROOT/kb/python" -o "$T/index.db" >/dev/null || { echo "FAIL: build"; exit 1; }
out=$("$T/example" "$T/index.db") || { echo "FAIL: the example exited $?"; echo "$out"; exit 1; }
echo "$out" | grep -q '^python/modulenotfounderror-no-module-named (score ' ||
    { echo "FAIL: the example did not name the record:"; echo "$out" | head; exit 1; }
echo "$out" | grep -q '"matched": *true' || { echo "FAIL: no JSON answer"; exit 1; }
echo "OK: docs/api.md's example compiles and answers"
