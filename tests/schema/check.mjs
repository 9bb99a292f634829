// Cross-checks schema/record.schema.json against `errata validate` on the record fixtures.
//
// usage: node check.mjs ERRATA_BIN FIXTURES_DIR
//        node check.mjs --ajv-only FIXTURES_DIR
//
// FIXTURES_DIR holds valid/*.json and invalid/*.json. A fixture passes when ajv's verdict,
// the verdict of `ERRATA_BIN validate --quiet FILE` (exit 0 = valid, 1 = invalid) and its
// directory all agree. With --ajv-only the C validator is not run. Output is TAP, closed by
// a plain "N passed, N failed" line; the exit status is 1 when anything failed.

import { readFileSync, readdirSync, existsSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

const here = dirname(fileURLToPath(import.meta.url));
const schemaPath = resolve(here, "../../schema/record.schema.json");

function usage(msg) {
  if (msg) console.error(`check.mjs: ${msg}`);
  console.error("usage: node check.mjs ERRATA_BIN|--ajv-only FIXTURES_DIR");
  process.exit(2);
}

const [bin, fixturesArg] = process.argv.slice(2);
if (!bin || !fixturesArg || process.argv.length > 4) usage();
const ajvOnly = bin === "--ajv-only";
const errataBin = ajvOnly ? null : resolve(bin);
const fixturesDir = resolve(fixturesArg);
if (errataBin && !existsSync(errataBin)) usage(`${bin}: no such file`);

let passed = 0;
let failed = 0;
let n = 0;
const lines = [];

function report(ok, name, detail) {
  n += 1;
  if (ok) passed += 1;
  else failed += 1;
  lines.push(`${ok ? "ok" : "not ok"} ${n} - ${name}${detail ? ` (${detail})` : ""}`);
}

function diag(text) {
  for (const line of String(text).trimEnd().split("\n")) lines.push(`# ${line}`);
}

// The schema itself must compile under strict mode.
const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormats(ajv);
let validate = null;
try {
  validate = ajv.compile(JSON.parse(readFileSync(schemaPath, "utf8")));
  report(true, "schema compiles under ajv strict mode");
} catch (err) {
  report(false, "schema compiles under ajv strict mode", err.message);
}

function ajvVerdict(file) {
  let data;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    return { verdict: "invalid", why: `JSON: ${err.message}` };
  }
  if (validate(data)) return { verdict: "valid", why: "" };
  const why = validate.errors
    .map((e) => `${e.instancePath || "/"} ${e.message}`)
    .join("; ");
  return { verdict: "invalid", why };
}

function errataVerdict(file) {
  const r = spawnSync(errataBin, ["validate", "--quiet", file], {
    encoding: "utf8",
    shell: false,
    timeout: 30000,
  });
  if (r.error) return { verdict: `error: ${r.error.message}`, why: "" };
  const why = `${r.stdout || ""}${r.stderr || ""}`;
  if (r.status === 0) return { verdict: "valid", why };
  if (r.status === 1) return { verdict: "invalid", why };
  const how = r.status === null ? `signal ${r.signal}` : `exit ${r.status}`;
  return { verdict: `error: ${how}`, why };
}

let fixtures = 0;
for (const expected of ["valid", "invalid"]) {
  const dir = join(fixturesDir, expected);
  const files = existsSync(dir)
    ? readdirSync(dir).filter((f) => f.endsWith(".json")).sort()
    : [];
  for (const f of files) {
    fixtures += 1;
    const name = `${expected}/${f}`;
    const file = join(dir, f);
    const a = validate ? ajvVerdict(file) : { verdict: "schema did not compile", why: "" };
    const c = ajvOnly ? null : errataVerdict(file);
    const ok = a.verdict === expected && (c === null || c.verdict === expected);
    const detail = ok
      ? ""
      : c === null
        ? `ajv: ${a.verdict}`
        : `ajv: ${a.verdict}, errata: ${c.verdict}`;
    report(ok, name, detail);
    if (!ok) {
      if (a.why) diag(`ajv: ${a.why}`);
      if (c && c.why) diag(`errata: ${c.why}`);
    }
  }
}
if (fixtures === 0) report(false, `fixtures found under ${fixturesDir}`, "none");

console.log("TAP version 13");
console.log(`1..${n}`);
for (const line of lines) console.log(line);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
