#!/usr/bin/env bash
# test_cli_docs.sh ERRATA CLI_MD ERRATA_1 — one source for every option (docs/cmdline/):
#   1. the committed docs/cli.md and docs/man/errata.1 are what the build generates from it
#      (scripts/gen-cli-docs rewrites them);
#   2. every option a command's parser takes (its getopt table in src/cli/) is documented in
#      its docs/cmdline file, common options aside (errata.md documents those);
#   3. every documented option is accepted by the parser: `errata CMD OPTION [ARG] --help`
#      prints the command's help and exits 0.
set -u
ERRATA=$1 GEN_MD=$2 GEN_MAN=$3
ROOT=${SOURCE_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
n=0 failed=0
check() { # DESCRIPTION COMMAND…
    local what=$1
    shift
    n=$((n + 1))
    if out=$("$@" 2>&1); then
        echo "ok $n - $what"
    else
        failed=$((failed + 1))
        echo "not ok $n - $what"
        echo "$out" | head -20 | sed 's/^/# /'
    fi
}
check "docs/cli.md is generated from docs/cmdline (run scripts/gen-cli-docs)" \
    diff -u "$ROOT/docs/cli.md" "$GEN_MD"
check "docs/man/errata.1 is generated from docs/cmdline (run scripts/gen-cli-docs)" \
    diff -u "$ROOT/docs/man/errata.1" "$GEN_MAN"

COMMON=" db json lang color help "
# The long options of `int cmd_CMD(` in its source file, macros expanded.
parser_options() {
    local cmd=$1 file="$ROOT/src/cli/cmd_$1.c"
    [ "$cmd" = mcp ] && file="$ROOT/src/cli/cmd_serve.c"
    awk -v f="int cmd_$cmd(" 'index($0, f) == 1 {on = 1} on {print} on && /^}/ {exit}' "$file" |
        awk '/longopts\[\] = /, /};/' >"$T/table"
    grep -q CLI_COMMON_LONGOPTS "$T/table" && printf '%s\n' db json lang color help
    grep -q CLI_ENV_LONGOPTS "$T/table" && printf '%s\n' env env-set env-auto
    grep -o '{"[a-z-]*"' "$T/table" | tr -d '{"'
}
doc_options() { # option lines of the ## Options section
    awk '/^## Options$/ {on = 1; next} /^## / {on = 0} on && /^-/' "$ROOT/docs/cmdline/$1.md"
}
value_for() { # a value the parser accepts for a metavar
    case $1 in
    FILE) echo /dev/null ;; N | S | BYTES) echo 3 ;; 'en|zh') echo en ;; WHEN) echo auto ;;
    N=V) echo pkg=1.0 ;; DIR) echo "$T" ;; D) echo python ;; HOST:PORT) echo 127.0.0.1:0 ;;
    NAME) echo localhost ;; *) echo x ;;
    esac
}
T=$(mktemp -d /tmp/errata-cli-docs-XXXXXX)
trap 'rm -rf "$T"' EXIT
for cmd in $(cat "$ROOT/docs/cmdline/ORDER"); do
    parsed=$(parser_options "$cmd" | sort -u)
    documented=$(doc_options "$cmd" | grep -o -- '--[a-z-]*' | sed 's/^--//' | sort -u)
    missing=""
    for o in $parsed; do
        case "$COMMON" in *" $o "*) continue ;; esac
        echo "$documented" | grep -qx -- "$o" || missing="$missing --$o"
    done
    check "errata $cmd: every option its parser takes is documented${missing:+ (missing:$missing)}" \
        test -z "$missing"
    while read -r line; do
        long=$(echo "$line" | grep -o -- '--[a-z-]*' | head -1)
        metavar=$(echo "$line" | sed -e 's/^.*--[a-z-]*//' -e 's/^ *//')
        args=("$long")
        [ -n "$metavar" ] && args+=("$(value_for "$metavar")")
        check "errata $cmd accepts its documented option '$line'" \
            bash -c '"$@" --help | head -1 | grep -q "^Usage: errata '"$cmd"'"' _ "$ERRATA" "$cmd" "${args[@]}"
    done < <(doc_options "$cmd")
done
echo "1..$n"
echo "$((n - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
