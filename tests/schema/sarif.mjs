// sarif.mjs ERRATA_BIN SCHEMA — the SARIF that `errata scan --sarif` and `errata check --sarif`
// write, validated against the official OASIS SARIF 2.1.0 JSON Schema (sarif-schema.sh fetches
// it), on the output of real failing tools. Beyond the schema, what GitHub's upload requires:
// every result has a physical location with a file and a line, the driver a name, and every
// ruleId/ruleIndex names a rule of the run. A deliberately broken document must be refused, so
// the validator is shown to reject. Prints TAP and "N passed, N failed".
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';

const [bin, schemaPath] = process.argv.slice(2);
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const schema = JSON.parse(readFileSync(schemaPath, 'utf8'));
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(schema);

const lines = [];
let passed = 0, failed = 0;
function ok(cond, desc, detail = '') {
  if (cond) { passed++; lines.push(`ok ${passed + failed} - ${desc}`); }
  else { failed++; lines.push(`not ok ${passed + failed} - ${desc}`); if (detail) lines.push(`# ${String(detail).slice(0, 800).replace(/\n/g, '\n# ')}`); }
}

const T = mkdtempSync(join(tmpdir(), 'errata-sarif-'));
const run = (args, opts = {}) => spawnSync(bin, args, { encoding: 'utf8', maxBuffer: 64 << 20, ...opts });
const sh = (cmd, cwd) => spawnSync('sh', ['-c', cmd], { encoding: 'utf8', cwd });

// The index of the bundled knowledge base.
const db = join(T, 'index.db');
const built = run(['build', join(ROOT, 'kb'), '-o', db]);
if (built.status !== 0) { console.log(`Bail out! errata build: ${built.stderr}`); process.exit(1); }

// Real failures from real tools.
mkdirSync(join(T, 'proj'));
writeFileSync(join(T, 'proj/a.c'), '#include "nothere.h"\nint main(void) { return 0; }\n');
writeFileSync(join(T, 'proj/Makefile'), 'all:\n\tgcc -c a.c -o a.o\n');
const benign = Array.from({ length: 200 }, (_, i) => `[${i}/200] Compiling unit_${i}.c`).join('\n') + '\n';
const logs = {
  'make.log': sh('make 2>&1', join(T, 'proj')).stdout,
  'python.log': benign + sh("python3 -c 'import no_such_module_errata' 2>&1").stdout,
  'git.log': sh('git status 2>&1', T).stdout + benign,
  'node.log': sh("node -e 'require(\"no-such-package-errata\")' 2>&1").stdout,
  'benign.log': benign,
};
for (const [name, text] of Object.entries(logs)) writeFileSync(join(T, name), text);

function checkDoc(desc, text, { minResults = 0 } = {}) {
  let doc;
  try { doc = JSON.parse(text); } catch (e) { ok(false, `${desc}: parses`, e.message); return; }
  ok(validate(doc), `${desc}: valid against the SARIF 2.1.0 schema`, ajv.errorsText(validate.errors, { separator: '\n' }));
  const results = doc.runs.flatMap((r) => r.results.map((x) => ({ run: r, x })));
  ok(results.length >= minResults, `${desc}: at least ${minResults} result(s) (${results.length})`);
  const unlocated = results.filter(({ x }) => !(x.locations?.[0]?.physicalLocation?.artifactLocation?.uri &&
    x.locations[0].physicalLocation.region?.startLine >= 1));
  ok(unlocated.length === 0, `${desc}: every result has a file and a line`, JSON.stringify(unlocated.slice(0, 2).map(({ x }) => x)));
  const unnamed = results.filter(({ run, x }) => {
    const rules = run.tool.driver.rules ?? [];
    return !run.tool.driver.name || !rules.some((r) => r.id === x.ruleId) ||
      (x.ruleIndex !== undefined && rules[x.ruleIndex]?.id !== x.ruleId);
  });
  ok(unnamed.length === 0, `${desc}: every ruleId and ruleIndex names a rule of its run`);
  return doc;
}

// errata scan --sarif: each log, several at once, stdin, a benign log.
for (const name of ['make.log', 'python.log', 'git.log', 'node.log']) {
  const r = run(['--db', db, 'scan', '--sarif', join(T, name)]);
  const doc = checkDoc(`scan --sarif ${name}`, r.stdout, { minResults: 1 });
  if (doc) ok(doc.runs[0].results.every((x) => x.locations[0].physicalLocation.artifactLocation.uri === join(T, name)),
    `scan --sarif ${name}: located in the file scanned`);
}
const several = run(['--db', db, 'scan', '--sarif', ...['make.log', 'python.log', 'benign.log'].map((n) => join(T, n))]);
const sev = checkDoc('scan --sarif of three files', several.stdout, { minResults: 2 });
if (sev) ok(sev.runs.length === 3, 'three files: one run each', `${sev.runs.length} runs`);
const stdin = run(['--db', db, 'scan', '--sarif', '--source', 'ci.log'], { input: logs['python.log'] });
const sd = checkDoc('scan --sarif of stdin', stdin.stdout, { minResults: 1 });
if (sd) ok(sd.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri === 'ci.log', 'stdin: located at --source');
checkDoc('scan --sarif of a benign log', run(['--db', db, 'scan', '--sarif', join(T, 'benign.log')]).stdout);
// A file name with a space and a '#': a URI reference must have them percent-encoded.
writeFileSync(join(T, 'build log #1.txt'), logs['python.log']);
const spaced = checkDoc('scan --sarif of "build log #1.txt"',
  run(['--db', db, 'scan', '--sarif', join(T, 'build log #1.txt')]).stdout, { minResults: 1 });
if (spaced) ok(spaced.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri.endsWith('build%20log%20%231.txt'),
  'the name is percent-encoded in the uri');
// errata run --sarif --report
const rep = join(T, 'run.sarif');
run(['--db', db, 'run', '--sarif', '--report', rep, '--', 'python3', '-c', 'import no_such_module_errata']);
checkDoc('run --sarif --report', readFileSync(rep, 'utf8'), { minResults: 1 });

// errata check --sarif: a lock file (results at its lines), versions without a file, --fail-on.
// A package-lock.json (lockfile version 3, as npm 9 and later write it) pinning React 18.3.1.
const lock = join(T, 'package-lock.json');
writeFileSync(lock, JSON.stringify({
  name: 'app', lockfileVersion: 3, requires: true,
  packages: {
    '': { name: 'app', dependencies: { react: '^18.3.1', 'react-dom': '^18.3.1' } },
    'node_modules/react': { version: '18.3.1' },
    'node_modules/react-dom': { version: '18.3.1' },
  },
}, null, 2));
checkDoc('check --sarif on a package-lock.json', run(['--db', db, 'check', '--env', lock, '--sarif']).stdout, { minResults: 1 });
const set = ['--env-set', 'torch=2.3.0', '--env-set', 'transformers=4.40.0', '--env-set', 'peft=0.10.0'];
checkDoc('check --sarif with --env-set versions', run(['--db', db, 'check', ...set, '--sarif']).stdout, { minResults: 1 });
const failing = run(['--db', db, 'check', '--env', lock, '--sarif', '--fail-on', 'any']);
const fd = checkDoc('check --sarif --fail-on any', failing.stdout, { minResults: 1 });
if (fd) ok(fd.runs[0].results.every((x) => x.level === 'warning') && failing.status === 1,
  'check --fail-on any: warnings, exit 1');

// The validator refuses what the schema forbids: a result whose level is not one of SARIF's.
const good = JSON.parse(run(['--db', db, 'scan', '--sarif', join(T, 'make.log')]).stdout);
const bad = structuredClone(good);
bad.runs[0].results[0].level = 'fatal';
ok(!validate(bad), 'a result with level "fatal" is refused by the schema');
delete bad.runs[0].results[0].level;
bad.runs[0].results[0].locations[0].physicalLocation.region.startLine = 0;
ok(!validate(bad), 'a region whose startLine is 0 is refused by the schema');

rmSync(T, { recursive: true, force: true });
console.log('TAP version 13');
console.log(`1..${passed + failed}`);
for (const l of lines) console.log(l);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
