#!/usr/bin/env bash
# Cross-checks schema/record.schema.json against `errata validate` on tests/fixtures/records.
# usage: tests/schema/run.sh ERRATA_BIN   (or --ajv-only)
set -euo pipefail
if [ "$#" -ne 1 ]; then
  echo "usage: $0 ERRATA_BIN|--ajv-only" >&2
  exit 2
fi
bin=$1
case "$bin" in
  --ajv-only | /*) ;;
  *) bin="$PWD/$bin" ;;
esac
cd "$(dirname "$0")"
if [ ! -d node_modules ]; then
  npm ci --no-audit --no-fund --silent >/dev/null
fi
node check.mjs "$bin" ../fixtures/records
