// The web pages of `errata serve` (docs/http-api.md) in a real browser: Debian's Chromium driven
// by playwright-core. The paste form answers the seed error, long pastes work, record pages work
// without JavaScript and switch to Chinese, and /domains links to each domain.
//
// Environment: ERRATA_BIN (default ../../build/errata), ERRATA_DB (default: an index built
// from ../../kb into a temporary directory), ERRATA_TEST_PIDS (a file to which the id of every
// server started here is appended), CHROMIUM (default /usr/bin/chromium).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { launchChromium } from './browser.mjs';
import { BIN, SEED_TEXT, SEED_ID, ensureIndex, removeIndex, startServer, stopServer } from './harness.mjs';

// the screenshots directory web-pages.test.mjs prints
const ARTIFACTS = process.env.ERRATA_SCREENSHOTS || join(dirname(BIN), 'web-screenshots');

const CJK = /[\u4e00-\u9fff]/;

let db;
let server;
let browser;

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
  db = ensureIndex('web');
  server = await startServer(db);
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  const e = await stopServer(server);
  removeIndex();
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
