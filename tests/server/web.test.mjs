// The web pages of `errata serve` (docs/http-api.md) in a real browser: Debian's Chromium driven
// by playwright-core. The paste form answers the seed error, long pastes work, record pages work
// without JavaScript and switch to Chinese, and /domains links to each domain.
//
// Environment: ERRATA_BIN (default ../../build/errata), ERRATA_DB (default: an index built
// from ../../kb into a temporary directory), ERRATA_TEST_PIDS (a file to which the id of every
// server started here is appended), CHROMIUM (default /usr/bin/chromium).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../..');
const BIN = process.env.ERRATA_BIN ? resolve(process.env.ERRATA_BIN) : join(ROOT, 'build/errata');
const ARTIFACTS = join(ROOT, 'tests/artifacts');

const SEED_TEXT = 'RuntimeError: torch.compile is not supported for PEFT models with dynamic adapters';
const SEED_ID = 'huggingface/torch-compile-incompatible-with-peft';
const CJK = /[\u4e00-\u9fff]/;

let tmp;
let db;
let server;
let browser;

function ensureIndex() {
  if (process.env.ERRATA_DB) return process.env.ERRATA_DB;
  tmp = mkdtempSync(join(tmpdir(), 'errata-web-'));
  const out = join(tmp, 'index.db');
  const r = spawnSync(BIN, ['build', join(ROOT, 'kb'), '-o', out], { encoding: 'utf8' });
  assert.equal(r.status, 0, `errata build failed: ${r.stderr}`);
  return out;
}

function startServer() {
  const child = spawn(BIN, ['serve', '--listen', '127.0.0.1:0', '--db', db], { stdio: ['ignore', 'ignore', 'pipe'] });
  if (process.env.ERRATA_TEST_PIDS) appendFileSync(process.env.ERRATA_TEST_PIDS, `${child.pid}\n`);
  const s = { child, stderr: '', url: null, exited: null };
  s.exitPromise = new Promise((res) => child.on('exit', (code, signal) => { s.exited = { code, signal }; res(s.exited); }));
  return new Promise((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`no "serving on" line within 15 s; stderr: ${s.stderr}`)), 15000);
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d) => {
      s.stderr += d;
      const m = /^errata: serving on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(s.stderr);
      if (m && !s.url) { s.url = m[1]; clearTimeout(timer); res(s); }
    });
    s.exitPromise.then((e) => { clearTimeout(timer); rej(new Error(`server exited (${e.code}, ${e.signal}); stderr: ${s.stderr}`)); });
  });
}

async function stopServer(s) {
  if (!s || s.exited) return s?.exited;
  s.child.kill('SIGTERM');
  const timer = setTimeout(() => s.child.kill('SIGKILL'), 10000);
  const e = await s.exitPromise;
  clearTimeout(timer);
  return e;
}

// A page that fails the test on any JavaScript error or failed request of its own.
async function newPage(contextOptions = {}) {
  const context = await browser.newContext({ locale: 'en-US', ...contextOptions });
  const page = await context.newPage();
  page.problems = [];
  page.on('pageerror', (e) => page.problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) page.problems.push(`console error: ${m.text()}`);
  });
  // any of the page's own requests that fail, except the favicon a browser asks for by itself
  page.on('response', (r) => {
    if (r.status() >= 400 && !r.url().endsWith('/favicon.ico')) page.problems.push(`${r.status()} for ${r.url()}`);
  });
  page.on('requestfailed', (r) => page.problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
  page.setDefaultTimeout(15000);
  return { context, page };
}

before(async () => {
  db = ensureIndex();
  server = await startServer();
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});

after(async () => {
  await browser?.close();
  const e = await stopServer(server);
  if (tmp) rmSync(tmp, { recursive: true, force: true });
  assert.deepEqual(e, { code: 0, signal: null }, `server exit on SIGTERM; stderr: ${server?.stderr}`);
});

test('paste the seed error into the form and see its record with workarounds', async () => {
  const { context, page } = await newPage();
  try {
    const resp = await page.goto(`${server.url}/`);
    assert.equal(resp.status(), 200);
    assert.ok(await page.locator('form#lookup-form textarea#error-text[name="q"]').count() === 1, 'the paste form');
    await page.fill('#error-text', SEED_TEXT);
    await page.click('#lookup-submit');
    await page.locator('#answer .record-id', { hasText: SEED_ID }).first().waitFor();
    const ids = await page.locator('#answer .record-id').allTextContents();
    assert.equal(ids[0].trim(), SEED_ID);
    const workarounds = page.locator('#answer li.workaround');
    assert.ok(await workarounds.count() >= 1, 'at least one workaround');
    assert.ok((await workarounds.first().innerText()).trim().length > 0);
    mkdirSync(ARTIFACTS, { recursive: true });
    const shot = join(ARTIFACTS, 'web-lookup.png');
    await page.screenshot({ path: shot, fullPage: true });
    assert.ok(statSync(shot).size > 1000);
    assert.deepEqual(page.problems, []);
  } finally {
    await context.close();
  }
});

test('a long paste (a 40 KB log) is answered too', async () => {
  const { context, page } = await newPage();
  try {
    await page.goto(`${server.url}/`);
    const filler = Array.from({ length: 1000 }, (_, i) => `[build] step ${i}: compiling module_${i}.py ... ok`).join('\n');
    const log = `${filler}\nTraceback (most recent call last):\n  File "train.py", line 88, in <module>\n    model = torch.compile(model)\n${SEED_TEXT}\n`;
    assert.ok(log.length > 40000);
    await page.fill('#error-text', log);
    await page.click('#lookup-submit');
    await page.locator('#answer .record-id', { hasText: SEED_ID }).first().waitFor();
    assert.deepEqual(page.problems, []);
  } finally {
    await context.close();
  }
});

test('the form works without JavaScript', async () => {
  const { context, page } = await newPage({ javaScriptEnabled: false });
  try {
    await page.goto(`${server.url}/`);
    await page.fill('#error-text', SEED_TEXT);
    await Promise.all([page.waitForNavigation(), page.click('#lookup-submit')]);
    await page.locator('#answer .record-id', { hasText: SEED_ID }).first().waitFor();
    assert.ok(await page.locator('#answer li.workaround').count() >= 1);
  } finally {
    await context.close();
  }
});

test('/?q= renders the answer on the server', async () => {
  const { context, page } = await newPage({ javaScriptEnabled: false });
  try {
    const resp = await page.goto(`${server.url}/?q=${encodeURIComponent(SEED_TEXT)}`);
    assert.equal(resp.status(), 200);
    assert.equal((await page.locator('#answer .record-id').first().innerText()).trim(), SEED_ID);
  } finally {
    await context.close();
  }
});

test('the record page without JavaScript: workarounds, dead ends, then Chinese', async () => {
  const { context, page } = await newPage({ javaScriptEnabled: false });
  try {
    const resp = await page.goto(`${server.url}/records/${SEED_ID}`);
    assert.equal(resp.status(), 200);
    assert.equal((await page.locator('.record-id').first().innerText()).trim(), SEED_ID);
    const w = page.locator('section#workarounds li.workaround');
    const d = page.locator('section#dead-ends li.dead-end');
    assert.ok(await w.count() >= 1, 'workarounds render');
    assert.ok(await d.count() >= 1, 'dead ends render');
    assert.ok((await w.first().innerText()).trim().length > 0);
    assert.ok((await d.first().innerText()).trim().length > 0);
    const english = await page.locator('body').innerText();
    assert.ok(english.includes(SEED_TEXT));

    const sw = page.locator('a#lang-switch');
    assert.equal(await sw.count(), 1, 'a#lang-switch');
    await Promise.all([page.waitForNavigation(), sw.click()]);
    assert.match(page.url(), /lang=zh/);
    const chinese = await page.locator('body').innerText();
    assert.match(chinese, CJK, 'Chinese text after the switch');
    assert.ok(chinese.includes('运行时错误'), 'the Chinese signature');
    assert.ok(await page.locator('section#workarounds li.workaround').count() >= 1);
    // and back
    await Promise.all([page.waitForNavigation(), page.locator('a#lang-switch').click()]);
    assert.ok((await page.locator('body').innerText()).includes(SEED_TEXT));
  } finally {
    await context.close();
  }
});

test('/domains links to /domains/python, which lists python records', async () => {
  const { context, page } = await newPage();
  try {
    const resp = await page.goto(`${server.url}/domains`);
    assert.equal(resp.status(), 200);
    const link = page.locator('a[href="/domains/python"]');
    assert.ok(await link.count() >= 1, 'a link to /domains/python');
    await Promise.all([page.waitForNavigation(), link.first().click()]);
    assert.match(page.url(), /\/domains\/python$/);
    const records = page.locator('a[href^="/records/python/"]');
    assert.ok(await records.count() >= 10, 'links to python records');
    assert.deepEqual(page.problems, []);
  } finally {
    await context.close();
  }
});
