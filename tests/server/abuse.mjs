// abuse.mjs — slowloris and oversized batches against a running `errata serve`, while a prober
// checks that /healthz keeps answering.
//
//   node abuse.mjs URL [SECONDS] [HEADER_TIMEOUT_S] [CLIENT_CONNECTIONS]
//
// For SECONDS (default 25), all at once:
//   - 1,200 trickling connections from 127.0.0.1, each sending a request line and then one header
//     line every 2 s (under the 10 s idle timeout, so only a deadline that trickling cannot
//     extend closes them) — more than the server's 1,024 connections in all;
//   - 150 more trickling connections, one from each of 127.0.0.10…, so the per-client limit does
//     not apply to them and only the header deadline can close them;
//   - four clients posting oversized batches in a loop (a 1 MB JSON-RPC batch to /mcp, a REST
//     batch of 51 texts, a 2 MB body);
//   - a prober on its own address (127.0.0.2) asking GET /healthz every 100 ms.
// Checks, printed as "ok"/"not ok" lines and a last line "N passed, N failed":
//   - every probe is answered 200, and the median probe within 100 ms (the slowest is printed);
//   - the server never holds more of 127.0.0.1's connections than CLIENT_CONNECTIONS;
//   - every connection from its own address is closed by the server within HEADER_TIMEOUT_S
//     plus 5 s of opening, although it kept trickling;
//   - every oversized batch gets an error (a 4xx status or a JSON-RPC error), never a result.
// Latencies are measured, not asserted beyond the median, so a slow machine does not flake it.
import http from 'node:http';
import net from 'node:net';

const url = new URL(process.argv[2] ?? '');
const seconds = Number(process.argv[3] ?? 25);
const headerTimeout = Number(process.argv[4] ?? 10);
const clientLimit = Number(process.argv[5] ?? 64);
const port = Number(url.port);
const hostHeader = `${url.hostname}:${port}`;

let passed = 0;
let failed = 0;
function check(name, ok, detail = '') {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? 'ok' : 'not ok'} - ${name}${detail ? ` (${detail})` : ''}`);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const start = Date.now();
const deadline = start + seconds * 1000;

// One trickling connection. Resolves with when it was opened and closed (closed: null if it was
// still open at the end, when the test closes it itself).
function trickle(localAddress) {
  return new Promise((resolve) => {
    const opened = Date.now();
    let closedByServer = null;
    let timer = null;
    const sock = net.connect({ host: url.hostname, port, localAddress });
    sock.on('connect', () => {
      sock.write(`GET /healthz HTTP/1.1\r\nHost: ${hostHeader}\r\n`);
      let n = 0;
      timer = setInterval(() => sock.write(`X-Trickle-${n++}: ${'a'.repeat(8)}\r\n`), 2000);
    });
    sock.on('error', () => {});
    sock.on('close', () => {
      clearInterval(timer);
      if (closedByServer === null) closedByServer = Date.now();
      resolve({ opened, closed: closedByServer === -1 ? null : closedByServer });
    });
    setTimeout(() => {
      if (!sock.destroyed) {
        closedByServer = -1;
        sock.destroy();
      }
    }, Math.max(0, deadline - Date.now()));
  });
}

// One request with node's http module. Resolves with { status, body } or { error }.
function request({ method = 'GET', path, headers = {}, body, localAddress, timeout = 10000 }) {
  return new Promise((resolve) => {
    const req = http.request({
      host: url.hostname, port, method, path, localAddress, agent: false, timeout,
      headers: { host: hostHeader, ...headers },
    }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString() }));
      res.on('error', (e) => resolve({ error: e.message }));
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (e) => resolve({ error: e.message }));
    if (body !== undefined) req.end(body);
    else req.end();
  });
}

async function prober() {
  const latencies = [];
  const failures = [];
  while (Date.now() < deadline) {
    const t0 = process.hrtime.bigint();
    const r = await request({ path: '/healthz', localAddress: '127.0.0.2', timeout: 2000 });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (r.status === 200) latencies.push(ms);
    else failures.push(r.error ?? `status ${r.status}`);
    await sleep(Math.max(0, 100 - ms));
  }
  return { latencies, failures };
}

const json = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const call = { jsonrpc: '2.0', method: 'tools/call', params: { name: 'lookup_error', arguments: { text: 'x' } } };
const mcpBatch = JSON.stringify(Array.from({ length: 4900 }, (_, i) => ({ ...call, id: i, params: { ...call.params, arguments: { text: `ModuleNotFoundError: No module named 'm${i}' ${'x'.repeat(120)}` } } })));
const restBatch = JSON.stringify({ texts: Array.from({ length: 51 }, (_, i) => `error ${i}`) });
const bigBody = JSON.stringify({ text: 'y'.repeat(2 << 20) });

// An oversized request is refused when it gets a 4xx, or a 200 carrying one JSON-RPC error.
function refused(r) {
  if (r.error) return false;
  if (r.status >= 400 && r.status < 500) return true;
  try {
    const j = JSON.parse(r.body);
    return r.status === 200 && !Array.isArray(j) && j.error !== undefined;
  } catch {
    return false;
  }
}

async function batcher(k) {
  const bad = [];
  let n = 0;
  const kinds = [
    { method: 'POST', path: '/mcp', headers: json, body: mcpBatch },
    { method: 'POST', path: '/api/v1/lookup/batch', headers: json, body: restBatch },
    { method: 'POST', path: '/api/v1/lookup', headers: json, body: bigBody },
  ];
  while (Date.now() < deadline - 1000) {
    const kind = kinds[(n + k) % kinds.length];
    const r = await request({ ...kind, localAddress: `127.0.1.${k + 1}` });
    n++;
    if (!refused(r)) bad.push(`${kind.path}: ${r.error ?? `${r.status} ${r.body.slice(0, 120)}`}`);
  }
  return { n, bad };
}

// The per-client check counts, once a second, how many of 127.0.0.1's connections the server
// still holds open past their first second.
const crowd = [];
const crowdState = [];
for (let i = 0; i < 1200; i++) {
  const state = { opened: Date.now(), closed: null };
  crowdState.push(state);
  crowd.push(trickle('127.0.0.1').then((r) => Object.assign(state, r, { done: true })));
}
const spread = [];
for (let i = 0; i < 150; i++) spread.push(trickle(`127.0.${Math.floor(i / 200) + 2}.${10 + (i % 200)}`));

let maxHeld = 0;
const sampler = (async () => {
  await sleep(1500);
  while (Date.now() < deadline - 500) {
    const now = Date.now();
    const held = crowdState.filter((s) => !s.done && now - s.opened > 1000).length;
    maxHeld = Math.max(maxHeld, held);
    await sleep(1000);
  }
})();

const [probe, batches] = await Promise.all([
  prober(),
  Promise.all([0, 1, 2, 3].map(batcher)),
  sampler,
]);
const spreadDone = await Promise.all(spread);
await Promise.all(crowd);

const lat = probe.latencies.slice().sort((a, b) => a - b);
const q = (p) => (lat.length ? lat[Math.min(lat.length - 1, Math.floor(p * lat.length))] : NaN);
console.log(`# ${seconds} s: ${lat.length + probe.failures.length} probes, p50 ${q(0.5).toFixed(1)} ms, ` +
  `p99 ${q(0.99).toFixed(1)} ms, max ${(lat[lat.length - 1] ?? NaN).toFixed(1)} ms`);
check('every /healthz probe answered 200', probe.failures.length === 0 && lat.length > 0,
  probe.failures.length ? `${probe.failures.length} failed: ${[...new Set(probe.failures)].slice(0, 3).join('; ')}` : '');
check('the median probe answered within 100 ms', q(0.5) < 100, `${q(0.5).toFixed(1)} ms`);
check(`the server held at most ${clientLimit} trickling connections of one client`, maxHeld <= clientLimit,
  `at most ${maxHeld} held at once`);
const lifetimes = spreadDone.map((s) => (s.closed === null ? Infinity : (s.closed - s.opened) / 1000));
const longest = Math.max(...lifetimes);
check(`every trickling connection was closed within ${headerTimeout} + 5 s`, longest <= headerTimeout + 5,
  `longest ${Number.isFinite(longest) ? longest.toFixed(1) + ' s' : 'still open at the end'}`);
const sent = batches.reduce((a, b) => a + b.n, 0);
const bad = batches.flatMap((b) => b.bad);
console.log(`# oversized batches: ${sent} sent`);
check('every oversized batch was refused with an error', sent > 0 && bad.length === 0,
  bad.length ? `${bad.length} not refused: ${bad.slice(0, 2).join('; ')}` : '');
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
