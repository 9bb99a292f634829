// The HTTP API of `errata serve` against its contract, docs/openapi.json (docs/http-api.md):
// the document lints clean with @redocly/cli, every endpoint is called with valid and invalid
// requests, and every answer's status must be one the document lists for that path and method,
// with a body that validates against the schema it declares.
//
// Environment: ERRATA_BIN (default ../../build/errata), ERRATA_DB (default: an index built
// from ../../kb into a temporary directory), ERRATA_TEST_PIDS (a file to which the id of every
// server started here is appended, so that a runner can stop it whatever happens).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import http from 'node:http';
import net from 'node:net';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { BIN, HERE, ROOT, SEED_TEXT, SEED_ID, ensureIndex, removeIndex, startServer, stopServer } from './harness.mjs';

const DOC_PATH = join(ROOT, 'docs/openapi.json');

const CHAIN_ID = 'python/modulenotfounderror-no-module-named';
const ALIAS = 'ModuleNotFoundError';
const TRACE = `Traceback (most recent call last):
  File "/srv/app/main.py", line 3, in <module>
    import requests
ModuleNotFoundError: No module named 'requests'
`;

// ---------------------------------------------------------------------------------------------
// The server

let db;
let server;




// One HTTP request with node:http, so that any method, header and raw body can be sent.
// Resolves with the status, headers and body (text and, when it parses, JSON).
function request(method, path, { headers = {}, body } = {}) {
  const url = new URL(server.url);
  return new Promise((res, rej) => {
    let got = null;
    const req = http.request({
      host: url.hostname, port: url.port, method, path, headers: {
        connection: 'close',
        ...(body !== undefined ? { 'content-length': Buffer.byteLength(body) } : {}),
        ...headers,
      },
    }, (r) => {
      got = r;
      const chunks = [];
      r.on('data', (c) => chunks.push(c));
      r.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json;
        try { json = JSON.parse(text); } catch { json = undefined; }
        res({ status: r.statusCode, headers: r.headers, text, json });
      });
      r.on('error', rej);
    });
    req.setTimeout(30000, () => req.destroy(new Error(`${method} ${path}: timeout`)));
    // A server may answer (413) and close before the whole body is sent: a write error then
    // is not a failure as long as the answer arrived.
    req.on('error', (e) => { if (!got) rej(e); });
    if (body !== undefined) req.end(body); else req.end();
  });
}

// The same over a bare socket, for bodies the server may refuse before reading them (413): it
// may answer and close while the body is still being sent, and node:http then reports the
// write error instead of the answer. Here the body goes in 64 KiB pieces, and sending stops as
// soon as an answer arrives or a write fails; the answer is read until the server closes.
function rawRequest(method, path, { headers = {}, body = Buffer.alloc(0) } = {}) {
  const url = new URL(server.url);
  body = Buffer.isBuffer(body) ? body : Buffer.from(body);
  return new Promise((res, rej) => {
    const sock = net.connect({ host: url.hostname, port: Number(url.port), allowHalfOpen: true });
    const chunks = [];
    let failed = false;
    sock.setTimeout(30000, () => sock.destroy(new Error(`${method} ${path}: timeout`)));
    sock.on('data', (c) => chunks.push(c));
    sock.on('error', () => { failed = true; });
    sock.on('end', () => sock.end());
    sock.on('close', () => {
      const raw = Buffer.concat(chunks);
      const end = raw.indexOf('\r\n\r\n');
      if (end < 0) { rej(new Error(`${method} ${path}: no answer (${raw.length} bytes)`)); return; }
      const [statusLine, ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n');
      const hdrs = {};
      for (const l of lines) {
        const i = l.indexOf(':');
        hdrs[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
      }
      let rest = raw.subarray(end + 4);
      if (hdrs['content-length'] !== undefined) rest = rest.subarray(0, Number(hdrs['content-length']));
      const text = rest.toString('utf8');
      let json;
      try { json = JSON.parse(text); } catch { json = undefined; }
      res({ status: Number(statusLine.split(' ')[1]), headers: hdrs, text, json });
    });
    sock.on('connect', async () => {
      const head = [`${method} ${path} HTTP/1.1`, `Host: ${url.host}`, 'Connection: close',
        `Content-Length: ${body.length}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), '', ''].join('\r\n');
      const write = (b) => new Promise((done) => {
        if (failed || chunks.length || sock.destroyed) { done(false); return; }
        sock.write(b, (e) => done(!e));
      });
      if (!(await write(head))) return;
      for (let off = 0; off < body.length; off += 65536) {
        await new Promise((r) => setImmediate(r));
        if (!(await write(body.subarray(off, off + 65536)))) return;
      }
      if (!failed && !sock.destroyed) sock.end();
    });
  });
}

const jsonBody = (v) => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(v) });

// ---------------------------------------------------------------------------------------------
// The document and its schemas

const doc = JSON.parse(readFileSync(DOC_PATH, 'utf8'));
const BASE = 'https://errata.invalid/openapi.json';
const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
// The OpenAPI members around the schemas are not JSON Schema keywords.
ajv.addVocabulary(['openapi', 'info', 'servers', 'security', 'tags', 'paths', 'components', 'example']);
addFormats(ajv);
ajv.addSchema({ ...doc, $id: BASE });
const validators = new Map();
function validatorAt(pointer) {
  if (!validators.has(pointer)) validators.set(pointer, ajv.compile({ $ref: `${BASE}#${pointer}` }));
  return validators.get(pointer);
}
const esc = (s) => s.replace(/~/g, '~0').replace(/\//g, '~1');

// The path template of the document that a concrete path falls under: `{id}` holds a `/`
// (domain/slug), any other parameter one segment.
function templateOf(path) {
  const p = decodeURI(path.split('?')[0]);
  const exact = Object.keys(doc.paths).find((t) => t === p);
  if (exact) return exact;
  return Object.keys(doc.paths).find((t) => {
    if (!t.includes('{')) return false;
    const re = new RegExp('^' + t.replace(/[.*+?^$()|[\]\\]/g, '\\$&')
      .replace(/\{id\}/g, '.+').replace(/\{[a-z]+\}/g, '[^/]+') + '$');
    return re.test(p);
  });
}

// Checks an answer against what the document declares for the request; returns its JSON.
function conforms(method, path, r) {
  const where = `${method} ${path} -> ${r.status} ${r.text.slice(0, 300)}`;
  const tpl = templateOf(path);
  const op = tpl && doc.paths[tpl][method.toLowerCase()];
  if (!op) {
    // Not in the document: an unknown path is 404, a method a path does not serve 405,
    // both with the shared Error body.
    assert.equal(r.status, tpl ? 405 : 404, where);
    assert.match(r.headers['content-type'] ?? '', /^application\/json/, where);
    const v = validatorAt('/components/schemas/Error');
    assert.ok(v(r.json), `${where}\n${ajv.errorsText(v.errors)}`);
    return r.json;
  }
  const key = String(r.status);
  assert.ok(key in op.responses, `status ${r.status} is not documented for ${method} ${tpl}: ${where}`);
  let pointer = `/paths/${esc(tpl)}/${method.toLowerCase()}/responses/${key}`;
  let resp = op.responses[key];
  if (resp.$ref) {
    pointer = resp.$ref.slice(1);
    resp = pointer.split('/').slice(1).reduce((o, k) => o[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  }
  if (!resp.content) {
    assert.equal(r.text, '', `${where}: the document declares no body`);
    return undefined;
  }
  const ctype = (r.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  assert.ok(ctype in resp.content, `${where}: content type '${ctype}' is not one of ${Object.keys(resp.content)}`);
  if (ctype === 'application/json' || ctype.endsWith('+json')) {
    const body = r.json ?? JSON.parse(r.text);
    const v = validatorAt(`${pointer}/content/${ctype.replace(/\//g, '~1')}/schema`);
    assert.ok(v(body), `${where}\n${ajv.errorsText(v.errors, { separator: '\n' })}`);
    return body;
  }
  return r.text;
}

const called = new Set();
async function call(method, path, opts, send = request) {
  const r = await send(method, path, opts);
  const tpl = templateOf(path);
  if (tpl && doc.paths[tpl][method.toLowerCase()]) called.add(`${method.toLowerCase()} ${tpl}`);
  const json = conforms(method, path, r);
  return { ...r, json };
}

async function expectError(method, path, status, code, opts, send = request) {
  const r = await call(method, path, opts, send);
  assert.equal(r.status, status, `${method} ${path}: ${r.status} ${r.text.slice(0, 300)}`);
  assert.equal(r.json?.error?.code, code, `${method} ${path}: ${r.text.slice(0, 300)}`);
  return r;
}

// ---------------------------------------------------------------------------------------------

before(async () => {
  db = ensureIndex('openapi');
  server = await startServer(db);
});

after(async () => {
  const e = await stopServer(server);
  removeIndex();
  assert.deepEqual(e, { code: 0, signal: null }, `server exit on SIGTERM; stderr: ${server?.stderr}`);
});

test('docs/openapi.json lints clean with @redocly/cli (recommended rules)', () => {
  const cli = join(HERE, 'node_modules/@redocly/cli/bin/cli.js');
  const r = spawnSync(process.execPath, [cli, 'lint', '--config', join(HERE, 'redocly.yaml'), '--format=json', DOC_PATH], {
    encoding: 'utf8',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  assert.equal(r.status, 0, `redocly lint failed:\n${r.stdout}\n${r.stderr}`);
  const report = JSON.parse(r.stdout);
  assert.deepEqual(report.totals, { errors: 0, warnings: 0, ignored: 0 }, JSON.stringify(report.problems, null, 2));
});

test('every documented operation has an operationId and every error response the Error schema', () => {
  for (const [tpl, item] of Object.entries(doc.paths)) {
    for (const [m, op] of Object.entries(item)) {
      assert.ok(op.operationId, `${m} ${tpl}`);
      for (const [status, resp] of Object.entries(op.responses)) {
        if (Number(status) < 400 || tpl === '/mcp') continue;
        assert.match(resp.$ref ?? '', /^#\/components\/responses\//, `${m} ${tpl} ${status}`);
      }
    }
  }
});

test('GET /openapi.json is docs/openapi.json', async () => {
  const r = await call('GET', '/openapi.json');
  assert.equal(r.status, 200);
  assert.deepEqual(r.json, doc);
});

test('GET /healthz', async () => {
  const r = await call('GET', '/healthz');
  assert.equal(r.status, 200);
  assert.equal(r.json.status, 'ok');
  assert.ok(r.json.records > 0);
});

test('GET /api/v1/lookup on the seed text', async () => {
  const r = await call('GET', `/api/v1/lookup?q=${encodeURIComponent(SEED_TEXT)}`);
  assert.equal(r.status, 200);
  assert.equal(r.json.matched, true);
  assert.equal(r.json.matches[0].id, SEED_ID);
  assert.equal(r.json.matches[0].match, 'regex');
  assert.equal(r.json.matches[0].record.id, SEED_ID);
  assert.ok(r.json.matches[0].record.workarounds.length > 0);
});

test('GET /api/v1/lookup with limit and lang', async () => {
  const r = await call('GET', `/api/v1/lookup?q=${encodeURIComponent(TRACE)}&limit=1&lang=zh`);
  assert.equal(r.status, 200);
  assert.equal(r.json.matches.length, 1);
  assert.equal(r.json.matches[0].id, 'python/modulenotfounderror-no-module-named');
});

test('GET /api/v1/lookup on text that matches nothing', async () => {
  const r = await call('GET', `/api/v1/lookup?q=${encodeURIComponent('all good, nothing failed here')}`);
  assert.equal(r.status, 200);
  assert.equal(r.json.matched, false);
});

test('POST /api/v1/lookup with a JSON body', async () => {
  const r = await call('POST', '/api/v1/lookup', jsonBody({ text: SEED_TEXT, limit: 2, lang: 'en' }));
  assert.equal(r.status, 200);
  assert.equal(r.json.matches[0].id, SEED_ID);
  assert.ok(r.json.matches.length <= 2);
});

test('POST /api/v1/lookup with raw text/plain', async () => {
  const r = await call('POST', '/api/v1/lookup', { headers: { 'content-type': 'text/plain' }, body: TRACE });
  assert.equal(r.status, 200);
  assert.equal(r.json.matches[0].id, 'python/modulenotfounderror-no-module-named');
  assert.equal(r.json.input.bytes, Buffer.byteLength(TRACE));
});

test('POST /api/v1/lookup with raw text/plain holding invalid UTF-8 is repaired, not refused', async () => {
  const body = Buffer.concat([Buffer.from('build log \xff\xfe\n', 'latin1'), Buffer.from(SEED_TEXT + '\n')]);
  const r = await call('POST', '/api/v1/lookup', { headers: { 'content-type': 'text/plain; charset=utf-8' }, body });
  assert.equal(r.status, 200);
  assert.equal(r.json.matches[0].id, SEED_ID);
});

test('POST /api/v1/lookup/batch answers in order', async () => {
  const r = await call('POST', '/api/v1/lookup/batch', jsonBody({
    items: [{ text: SEED_TEXT }, { text: 'all good, nothing failed here' }, { text: TRACE }], limit: 3,
  }));
  assert.equal(r.status, 200);
  assert.equal(r.json.results.length, 3);
  assert.equal(r.json.results[0].matches[0].id, SEED_ID);
  assert.equal(r.json.results[1].matched, false);
  assert.equal(r.json.results[2].matches[0].id, 'python/modulenotfounderror-no-module-named');
  for (const a of r.json.results) assert.ok(a.matches.length <= 3);
});

test('POST /api/v1/check: the exposures of an environment, as JSON and as SARIF', async () => {
  const env = {
    files: [{ name: 'requirements.txt', content: 'transformers==4.40.0\npeft==0.10.0\ntorch==2.3.0\n' }],
    packages: { node: '20.11.1' },
  };
  const r = await call('POST', '/api/v1/check', jsonBody(env));
  assert.equal(r.status, 200);
  assert.ok(r.json.records.some((x) => x.id === SEED_ID), 'the seed applies to torch 2.3.0');
  assert.equal(r.json.count, r.json.records.length);
  const seed = r.json.records.find((x) => x.id === SEED_ID);
  assert.equal(seed.source, 'requirements.txt:1');
  const old = await call('POST', '/api/v1/check', jsonBody({ packages: { torch: '2.1.0', transformers: '4.40.0', peft: '0.10.0' } }));
  assert.ok(!old.json.records.some((x) => x.id === SEED_ID), 'not with torch 2.1.0');
  const sarif = await call('POST', '/api/v1/check', jsonBody({ ...env, format: 'sarif' }));
  assert.equal(sarif.status, 200);
  assert.match(sarif.headers['content-type'], /^application\/sarif\+json/);
  const doc2 = JSON.parse(sarif.text);
  assert.equal(doc2.version, '2.1.0');
  assert.ok(doc2.runs[0].results.some((x) => x.ruleId === SEED_ID));
  // A file that does not parse names itself and its line; a body without an environment is
  // the wrong shape.
  const bad = await expectError('POST', '/api/v1/check', 400, 'bad_request',
    jsonBody({ files: [{ name: 'requirements.txt', content: 'requests==2.31.0\n==1.0\n' }] }));
  assert.match(bad.json.error.message, /requirements\.txt:2/);
  await expectError('POST', '/api/v1/check', 400, 'invalid_json', jsonBody({}));
  await expectError('POST', '/api/v1/check', 400, 'invalid_json', jsonBody({ files: 'x' }));
  await expectError('POST', '/api/v1/check', 400, 'invalid_json', jsonBody({ packages: { torch: '2.3.0' }, format: 'xml' }));
});

test('POST /api/v1/scan: a whole log, its findings at their lines, in every format', async () => {
  const benign = Array.from({ length: 300 }, (_, i) => `[${i}/300] Compiling unit_${i}.c`).join('\n');
  const log = `${benign}\n${TRACE}${benign}\nfatal: not a git repository (or any of the parent directories): .git\n`;
  const traceLine = 300 + 4; // the ModuleNotFoundError line
  const gitLine = 300 + 4 + 300 + 1;
  const r = await call('POST', '/api/v1/scan?source=ci.log', { headers: { 'content-type': 'text/plain' }, body: log });
  assert.equal(r.status, 200);
  assert.equal(r.json.source, 'ci.log');
  assert.equal(r.json.input.lines, gitLine);
  assert.deepEqual(r.json.findings.map((f) => [f.match.id, f.line]),
    [[CHAIN_ID, traceLine], ['git/not-a-git-repository', gitLine]]);
  assert.equal(r.json.findings[0].match.captures.module, 'requests');
  assert.equal(r.json.retryable, false);
  const sarif = await call('POST', '/api/v1/scan?format=sarif&source=ci.log', { body: log });
  assert.match(sarif.headers['content-type'], /^application\/sarif\+json/);
  const results = JSON.parse(sarif.text).runs[0].results;
  assert.deepEqual(results.map((x) => x.locations[0].physicalLocation.region.startLine), [traceLine, gitLine]);
  assert.ok(results.every((x) => x.locations[0].physicalLocation.artifactLocation.uri === 'ci.log'));
  const gh = await call('POST', '/api/v1/scan?format=github&source=ci.log', { body: log });
  assert.match(gh.text, new RegExp(`^::error file=ci\\.log,line=${traceLine},title=${CHAIN_ID.replace('/', '\\/')}::`, 'm'));
  const md = await call('POST', '/api/v1/scan?format=markdown', { body: log });
  assert.match(md.text, /^## Errata: 2 known failures/);
  const none = await call('POST', '/api/v1/scan', { body: benign });
  assert.deepEqual(none.json.findings, []);
  await expectError('POST', '/api/v1/scan?format=xml', 400, 'bad_request', { body: log });
  await expectError('POST', '/api/v1/scan?lang=fr', 400, 'bad_request', { body: log });
  await call('GET', '/api/v1/scan');
});

test('POST /api/v1/scan streams a body far over the body limit in constant memory', async () => {
  // 96 MiB of build output with one error at its end, sent in pieces; the lookup endpoints
  // refuse a tenth of it (413), the scan reads it as it comes.
  const line = '[  50%] Building C object src/CMakeFiles/app.dir/module.c.o\n';
  const piece = Buffer.from(line.repeat(Math.ceil((1 << 20) / line.length)));
  const pieces = 96;
  const LAST = 'fatal: not a git repository (or any of the parent directories): .git\n';
  const url = new URL(server.url);
  const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))[1]);
  const before = rss();
  const answer = await new Promise((res, rej) => {
    const req = http.request({ host: url.hostname, port: url.port, method: 'POST', path: '/api/v1/scan?source=big.log',
      headers: { 'content-type': 'text/plain', connection: 'close' } }, (r) => {
      const chunks = [];
      r.on('data', (c) => chunks.push(c));
      r.on('end', () => res({ status: r.statusCode, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
    });
    req.on('error', rej);
    (async () => {
      for (let i = 0; i < pieces; i++)
        if (!req.write(piece)) await new Promise((d) => req.once('drain', d));
      req.end(LAST);
    })();
  });
  const after = rss();
  assert.equal(answer.status, 200);
  assert.deepEqual(answer.json.findings.map((f) => f.match.id), ['git/not-a-git-repository']);
  assert.equal(answer.json.findings[0].line, answer.json.input.lines);
  assert.equal(answer.json.input.bytes, pieces * piece.length + Buffer.byteLength(LAST));
  // The body is never held: the server grew by far less than it.
  assert.ok(after - before < 32 * 1024, `the server grew by ${after - before} KiB for a ${pieces} MiB body`);
});

test('POST /api/v1/lookup/batch with exactly 50 items', async () => {
  const items = Array.from({ length: 50 }, () => ({ text: SEED_TEXT }));
  const r = await call('POST', '/api/v1/lookup/batch', jsonBody({ items }));
  assert.equal(r.status, 200);
  assert.equal(r.json.results.length, 50);
});

test('GET /api/v1/search', async () => {
  const r = await call('GET', `/api/v1/search?q=${encodeURIComponent('torch compile peft adapters')}&limit=3`);
  assert.equal(r.status, 200);
  assert.ok(r.json.matches.length >= 1 && r.json.matches.length <= 3);
  assert.ok(r.json.matches.some((m) => m.id === SEED_ID));
  for (const m of r.json.matches) assert.equal(m.match, 'fuzzy');
});

test('GET /api/v1/records/{id}', async () => {
  const r = await call('GET', `/api/v1/records/${SEED_ID}`);
  assert.equal(r.status, 200);
  assert.equal(r.json.id, SEED_ID);
  assert.equal(r.json.signature, SEED_TEXT);
  const kb = JSON.parse(readFileSync(join(ROOT, 'kb', `${SEED_ID}.json`), 'utf8'));
  assert.deepEqual(r.json.workarounds.map((w) => w.action), kb.workarounds.map((w) => w.action));
});

test('GET /api/v1/records/{id} with the / of the id percent-encoded', async () => {
  const r = await call('GET', `/api/v1/records/${encodeURIComponent(SEED_ID)}`);
  assert.equal(r.status, 200);
  assert.equal(r.json.id, SEED_ID);
});

test('GET /api/v1/records/{alias}', async () => {
  const r = await call('GET', `/api/v1/records/${encodeURIComponent(ALIAS)}`);
  assert.equal(r.status, 200);
  assert.equal(r.json.id, 'python/modulenotfounderror-no-module-named');
});

test('GET /api/v1/domains', async () => {
  const r = await call('GET', '/api/v1/domains');
  assert.equal(r.status, 200);
  const names = r.json.domains.map((d) => d.domain);
  assert.deepEqual(names, [...names].sort());
  assert.ok(names.includes('python') && names.includes('huggingface'));
});

test('GET /api/v1/domains/{domain}', async () => {
  const r = await call('GET', '/api/v1/domains/python');
  assert.equal(r.status, 200);
  assert.equal(r.json.domain, 'python');
  assert.ok(r.json.records.length > 0);
  for (const rec of r.json.records) assert.match(rec.id, /^python\//);
  const all = (await call('GET', '/api/v1/domains')).json.domains;
  assert.equal(r.json.records.length, all.find((d) => d.domain === 'python').records);
});

test('GET /api/v1/stats agrees with /healthz and /api/v1/domains', async () => {
  const r = await call('GET', '/api/v1/stats');
  assert.equal(r.status, 200);
  const health = (await call('GET', '/healthz')).json;
  const domains = (await call('GET', '/api/v1/domains')).json.domains;
  assert.equal(r.json.records, health.records);
  assert.equal(r.json.domains, domains.length);
  assert.equal(Object.values(r.json.by_domain).reduce((a, b) => a + b, 0), r.json.records);
  assert.equal(Object.values(r.json.by_tier).reduce((a, b) => a + b, 0), r.json.records);
  for (const d of domains) assert.equal(r.json.by_domain[d.domain], d.records);
});

test('GET /api/v1/chain/{id} with the default and an explicit depth', async () => {
  const r = await call('GET', `/api/v1/chain/${CHAIN_ID}`);
  assert.equal(r.status, 200);
  assert.equal(r.json.root, CHAIN_ID);
  assert.equal(r.json.depth, 2);
  assert.ok(r.json.nodes.some((n) => n.id === CHAIN_ID && n.distance === 0));
  assert.ok(r.json.edges.length >= 3);
  assert.ok(r.json.edges.some((e) => e.kind === 'preceded_by'));
  assert.ok(r.json.edges.some((e) => e.kind === 'frequently_confused_with'));
  for (const n of r.json.nodes) assert.ok(n.distance <= 2);
  const r1 = await call('GET', `/api/v1/chain/${CHAIN_ID}?depth=1`);
  assert.equal(r1.status, 200);
  assert.equal(r1.json.depth, 1);
  for (const n of r1.json.nodes) assert.ok(n.distance <= 1);
  const r5 = await call('GET', `/api/v1/chain/${CHAIN_ID}?depth=5`);
  assert.equal(r5.status, 200);
  assert.ok(r5.json.nodes.length >= r.json.nodes.length);
});

test('POST /mcp: initialize, a notification, ping', async () => {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const init = await call('POST', '/mcp', {
    headers,
    body: JSON.stringify({
      jsonrpc: '2.0', id: 1, method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'openapi-test', version: '0' } },
    }),
  });
  assert.equal(init.status, 200);
  assert.equal(init.json.id, 1);
  assert.equal(init.json.result.protocolVersion, '2025-06-18');
  assert.ok(init.json.result.capabilities.tools);
  const session = init.headers['mcp-session-id'];
  const h2 = { ...headers, 'mcp-protocol-version': '2025-06-18', ...(session ? { 'mcp-session-id': session } : {}) };
  const note = await call('POST', '/mcp', { headers: h2, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
  assert.equal(note.status, 202);
  const ping = await call('POST', '/mcp', { headers: h2, body: JSON.stringify({ jsonrpc: '2.0', id: 'p', method: 'ping' }) });
  assert.equal(ping.status, 200);
  assert.deepEqual(ping.json, { jsonrpc: '2.0', id: 'p', result: {} });
});

test('POST /mcp: initialize negotiates each protocol version of the contract', async (t) => {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const init = (v) => call('POST', '/mcp', {
    headers,
    body: JSON.stringify({
      jsonrpc: '2.0', id: v, method: 'initialize',
      params: { protocolVersion: v, capabilities: {}, clientInfo: { name: 'openapi-test', version: '0' } },
    }),
  });
  for (const v of ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']) {
    await t.test(v, async () => {
      const r = await init(v);
      assert.equal(r.status, 200);
      assert.equal(r.json.result?.protocolVersion, v, r.text);
    });
  }
  await t.test('an unknown version is answered with one the server supports', async () => {
    const r = await init('1999-01-01');
    assert.equal(r.status, 200);
    assert.ok(['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'].includes(r.json.result?.protocolVersion), r.text);
  });
});

test('POST /mcp: JSON-RPC errors', async () => {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const parse = await call('POST', '/mcp', { headers, body: '{"jsonrpc": "2.0", "id": 1, "method": ' });
  assert.equal(parse.json?.error?.code, -32700, parse.text);
  const unknown = await call('POST', '/mcp', { headers, body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'no/such/method' }) });
  assert.equal(unknown.json?.error?.code, -32601, unknown.text);
  assert.equal(unknown.json.id, 7);
  const invalid = await call('POST', '/mcp', { headers, body: JSON.stringify({ jsonrpc: '1.0', id: 8, method: 'ping' }) });
  assert.equal(invalid.json?.error?.code, -32600, invalid.text);
  const badParams = await call('POST', '/mcp', {
    headers, body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { arguments: {} } }),
  });
  assert.equal(badParams.json?.error?.code, -32602, badParams.text);
});

test('POST /mcp: a batch over 50 messages is one JSON-RPC error, 50 are answered', async () => {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const ping = (id) => ({ jsonrpc: '2.0', id, method: 'ping' });
  const over = await request('POST', '/mcp', { headers, body: JSON.stringify(Array.from({ length: 51 }, (_, i) => ping(i))) });
  assert.equal(over.status, 200);
  assert.equal(over.json?.error?.code, -32600, over.text);
  assert.match(over.json.error.message, /batch of 51 messages is over the limit of 50/);
  const full = await request('POST', '/mcp', { headers, body: JSON.stringify(Array.from({ length: 50 }, (_, i) => ping(i))) });
  assert.equal(full.json.length, 50);
});

test('DNS rebinding: a request naming another host or origin is refused on every route', async () => {
  for (const path of ['/api/v1/stats', '/mcp', '/']) {
    const method = path === '/mcp' ? 'POST' : 'GET';
    const body = path === '/mcp' ? JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) : undefined;
    const ct = { 'content-type': 'application/json' };
    const evilHost = await request(method, path, { headers: { ...ct, host: 'rebind.example:8080' }, body });
    assert.equal(evilHost.status, 421, `${path} Host: ${evilHost.status}`);
    for (const origin of ['http://rebind.example', 'http://localhost:1@rebind.example', 'http://localhost.rebind.example', 'null']) {
      const r = await request(method, path, { headers: { ...ct, origin }, body });
      assert.equal(r.status, 403, `${path} Origin ${origin}: ${r.status}`);
    }
    const local = await request(method, path, { headers: { ...ct, origin: 'http://localhost:5173', host: `127.0.0.1:${new URL(server.url).port}` }, body });
    assert.equal(local.status, 200, `${path} from a local origin: ${local.status}`);
  }
});

test('--allow-host lets a named host through', async () => {
  const s = await startServer(db, ['--allow-host', 'errata.internal']);
  try {
    const url = new URL(s.url);
    const get = (host) => new Promise((res, rej) => {
      http.get({ host: url.hostname, port: url.port, path: '/healthz', headers: { host } }, (r) => { r.resume(); res(r.statusCode); }).on('error', rej);
    });
    assert.equal(await get('errata.internal:80'), 200);
    assert.equal(await get('other.internal'), 421);
  } finally {
    await stopServer(s);
  }
});

test('GET /mcp is 405', async () => {
  await expectError('GET', '/mcp', 405, 'method_not_allowed', { headers: { accept: 'text/event-stream' } });
});

test('web pages: /, /?q=, /records/{id}, /domains, /domains/{domain}', async () => {
  const home = await call('GET', '/');
  assert.equal(home.status, 200);
  assert.match(home.text, /id="lookup-form"/);
  const answered = await call('GET', `/?q=${encodeURIComponent(SEED_TEXT)}`);
  assert.equal(answered.status, 200);
  assert.ok(answered.text.includes(SEED_ID));
  const rec = await call('GET', `/records/${SEED_ID}`);
  assert.equal(rec.status, 200);
  assert.ok(rec.text.includes(SEED_ID));
  const zh = await call('GET', `/records/${SEED_ID}?lang=zh`);
  assert.equal(zh.status, 200);
  assert.match(zh.text, /[\u4e00-\u9fff]/);
  const domains = await call('GET', '/domains');
  assert.equal(domains.status, 200);
  assert.ok(domains.text.includes('/domains/python'));
  const py = await call('GET', '/domains/python');
  assert.equal(py.status, 200);
  assert.ok(py.text.includes('python/modulenotfounderror-no-module-named'));
});

// --- invalid requests ---------------------------------------------------------------------

test('unknown record id, domain, chain root and path are 404', async (t) => {
  for (const path of ['/api/v1/records/python/no-such-record', '/api/v1/domains/no-such-domain',
    '/api/v1/chain/python/no-such-record', '/api/v1/no-such-endpoint', '/no/such/page']) {
    await t.test(`GET ${path}`, () => expectError('GET', path, 404, 'not_found'));
  }
  // Web pages answer a person: a 404 page in HTML, as the document declares.
  for (const path of ['/records/python/no-such-record', '/domains/no-such-domain']) {
    await t.test(`GET ${path} (HTML)`, async () => {
      const r = await call('GET', path);
      assert.equal(r.status, 404);
      assert.match(r.headers['content-type'], /^text\/html/);
      assert.match(r.text, /Not found/);
    });
  }
  // An encoded NUL must not cut a path short: "/assets/style.css%00.js" is no asset (the web
  // surface answers its 404 as an HTML page).
  for (const path of ['/assets/style.css%00.js', '/assets/app.js%00', '/openapi.json%00x']) {
    await t.test(`GET ${path}`, async () => {
      const r = await request('GET', path);
      assert.equal(r.status, 404, `${path} -> ${r.status}`);
      assert.doesNotMatch(r.text, /^(:root|\/\*|\{\s*"openapi")/);
    });
  }
});

test('missing or invalid parameters are 400 bad_request', async () => {
  await expectError('GET', '/api/v1/lookup', 400, 'bad_request');
  await expectError('GET', '/api/v1/lookup?q=', 400, 'bad_request');
  await expectError('GET', `/api/v1/lookup?q=${encodeURIComponent(SEED_TEXT)}&limit=abc`, 400, 'bad_request');
  await expectError('GET', `/api/v1/lookup?q=${encodeURIComponent(SEED_TEXT)}&lang=fr`, 400, 'bad_request');
  await expectError('GET', '/api/v1/search', 400, 'bad_request');
  await expectError('GET', '/api/v1/search?q=torch&limit=x', 400, 'bad_request');
  await expectError('GET', `/api/v1/chain/${CHAIN_ID}?depth=0`, 400, 'bad_request');
  await expectError('GET', `/api/v1/chain/${CHAIN_ID}?depth=6`, 400, 'bad_request');
  await expectError('GET', `/api/v1/chain/${CHAIN_ID}?depth=two`, 400, 'bad_request');
  await expectError('POST', '/api/v1/lookup', 400, 'bad_request', jsonBody({ text: '' }));
  await expectError('POST', '/api/v1/lookup/batch', 400, 'bad_request', jsonBody({ items: [{ text: '' }] }));
});

test('more than 50 batch items is 400 bad_request', async () => {
  const items = Array.from({ length: 51 }, () => ({ text: SEED_TEXT }));
  await expectError('POST', '/api/v1/lookup/batch', 400, 'bad_request', jsonBody({ items }));
});

test('a JSON body that does not parse is 400 invalid_json with line and column', async () => {
  const r = await expectError('POST', '/api/v1/lookup', 400, 'invalid_json', {
    headers: { 'content-type': 'application/json' }, body: '{\n  "text": "x",\n  "limit": }',
  });
  assert.match(r.json.error.message, /\b3\b/, `the message should give line 3: ${r.json.error.message}`);
  await expectError('POST', '/api/v1/lookup/batch', 400, 'invalid_json', {
    headers: { 'content-type': 'application/json' }, body: '{"items": [',
  });
});

test('a JSON body of the wrong shape is 400 invalid_json', async (t) => {
  for (const [path, body] of [['/api/v1/lookup', { text: 42 }], ['/api/v1/lookup', [SEED_TEXT]],
    ['/api/v1/lookup/batch', { items: 'x' }], ['/api/v1/lookup/batch', { items: [{ text: 1 }] }]]) {
    await t.test(`POST ${path} ${JSON.stringify(body)}`, () => expectError('POST', path, 400, 'invalid_json', jsonBody(body)));
  }
});

test('invalid UTF-8 is 400 invalid_utf8', async () => {
  await expectError('GET', '/api/v1/lookup?q=%FF', 400, 'invalid_utf8');
  await expectError('GET', '/api/v1/lookup?q=abc%C3%28', 400, 'invalid_utf8');
  await expectError('GET', '/api/v1/search?q=%FF', 400, 'invalid_utf8');
  const body = Buffer.concat([Buffer.from('{"text": "'), Buffer.from([0xff, 0xfe]), Buffer.from(' boom"}')]);
  await expectError('POST', '/api/v1/lookup', 400, 'invalid_utf8', { headers: { 'content-type': 'application/json' }, body });
});

test('a body over 1 MiB is 413 payload_too_large', async () => {
  const big = JSON.stringify({ text: 'x'.repeat(1024 * 1024 + 16) });
  const json = { 'content-type': 'application/json' };
  await expectError('POST', '/api/v1/lookup', 413, 'payload_too_large', { headers: json, body: big }, rawRequest);
  await expectError('POST', '/api/v1/lookup', 413, 'payload_too_large', {
    headers: { 'content-type': 'text/plain' }, body: Buffer.alloc(1024 * 1024 + 1, 0x61),
  }, rawRequest);
  await expectError('POST', '/api/v1/lookup/batch', 413, 'payload_too_large', { headers: json, body: big }, rawRequest);
  await expectError('POST', '/mcp', 413, 'payload_too_large', { headers: { ...json, accept: 'application/json, text/event-stream' }, body: big }, rawRequest);
});

test('a body of exactly 1 MiB is read', async () => {
  const fits = Buffer.alloc(1024 * 1024, 0x61);
  fits.write(`${SEED_TEXT}\n`, 0, 'latin1');
  const r = await call('POST', '/api/v1/lookup', { headers: { 'content-type': 'text/plain' }, body: fits });
  assert.equal(r.status, 200, r.text.slice(0, 300));
  assert.equal(r.json.input.bytes, 1024 * 1024);
  assert.equal(r.json.matches[0].id, SEED_ID);
});

test('request headers over 32 KiB get 431 or a closed connection', async () => {
  let r;
  try {
    r = await rawRequest('GET', '/healthz', { headers: { 'x-filler': 'y'.repeat(40 * 1024) } });
  } catch (e) {
    assert.match(e.message, /no answer/);
    return;
  }
  assert.equal(r.status, 431, r.text.slice(0, 200));
});

test('a wrong method is 405 method_not_allowed', async () => {
  await expectError('DELETE', '/api/v1/lookup', 405, 'method_not_allowed');
  await expectError('PUT', '/api/v1/lookup', 405, 'method_not_allowed', jsonBody({ text: SEED_TEXT }));
  await expectError('GET', '/api/v1/lookup/batch', 405, 'method_not_allowed');
  await expectError('POST', '/api/v1/search', 405, 'method_not_allowed', jsonBody({ q: 'x' }));
  await expectError('DELETE', `/api/v1/records/${SEED_ID}`, 405, 'method_not_allowed');
  await expectError('POST', '/api/v1/domains', 405, 'method_not_allowed', jsonBody({}));
  await expectError('PATCH', '/api/v1/stats', 405, 'method_not_allowed', jsonBody({}));
  await expectError('POST', '/healthz', 405, 'method_not_allowed', jsonBody({}));
  await expectError('DELETE', '/openapi.json', 405, 'method_not_allowed');
  await expectError('DELETE', '/mcp', 405, 'method_not_allowed');
});

test('every documented operation was called', () => {
  // Keeps this file honest when docs/openapi.json grows: each operation must be exercised above.
  const all = Object.entries(doc.paths).flatMap(([tpl, item]) => Object.keys(item).map((m) => `${m} ${tpl}`));
  assert.deepEqual(all.filter((o) => !called.has(o)), []);
});

// A socket that sends a request line and then a header line every 500 ms, never finishing.
// Resolves with how long it stayed open (ms) once the server closes it, or Infinity after 10 s.
function trickleUntilClosed(url) {
  return new Promise((resolve) => {
    const { hostname, port } = new URL(url);
    const opened = Date.now();
    const sock = net.connect({ host: hostname, port: Number(port) });
    let n = 0;
    const drip = setInterval(() => sock.write(`X-Drip-${n++}: 1\r\n`), 500);
    const give = setTimeout(() => { sock.destroy(); }, 10000);
    sock.on('connect', () => sock.write(`GET /healthz HTTP/1.1\r\nHost: ${hostname}:${port}\r\n`));
    sock.on('error', () => {});
    sock.on('close', () => {
      clearInterval(drip);
      clearTimeout(give);
      const ms = Date.now() - opened;
      resolve(ms >= 10000 ? Infinity : ms);
    });
  });
}

test('--header-timeout and --max-client-connections: trickling cannot keep a connection', async () => {
  const s = await startServer(db, ['--header-timeout', '2', '--max-client-connections', '3']);
  try {
    const lifetimes = (await Promise.all(Array.from({ length: 5 }, () => trickleUntilClosed(s.url)))).sort((a, b) => a - b);
    // two over the per-client limit are closed at once; the three admitted at their deadline
    assert.ok(lifetimes[1] < 1500, `connections over the limit were refused at once: ${lifetimes}`);
    for (const ms of lifetimes.slice(2)) assert.ok(ms >= 1500 && ms < 6000, `closed at the 2 s deadline: ${lifetimes}`);
    const ok = await fetch(`${s.url}/healthz`);
    assert.equal(ok.status, 200);
  } finally {
    assert.deepEqual(await stopServer(s), { code: 0, signal: null });
  }
});

test('--header-timeout and --max-client-connections refuse what is not a count', () => {
  for (const args of [['--header-timeout', '0'], ['--header-timeout', 'x'], ['--max-client-connections', '-1'],
    ['--max-client-connections', '70000']]) {
    const r = spawnSync(BIN, ['serve', '--db', db, ...args], { encoding: 'utf8' });
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, new RegExp(`${args[0]} takes a whole number from 1 to`));
  }
});
