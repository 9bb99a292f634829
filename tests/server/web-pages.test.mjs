// The web pages as a stranger meets them, in Debian's Chromium at a desktop (1280x800) and a
// phone (375x800) size: every answer links to its record page, the search page, the no-match
// page (search box, how to add a record), Ctrl+Enter, the answer scrolled into view, ?lang=zh,
// no horizontal scrolling with long URLs and code, the dark scheme, and the chain picture on a
// record page. Every page is saved as a screenshot per size (and scheme) to a directory this
// file prints: $ERRATA_SCREENSHOTS, or web-screenshots/ next to the errata binary (the build
// directory).
//
// The records it uses are read from ../../kb (their examples, signatures and transition
// graphs), so the expectations follow the knowledge base rather than being written here.
//
// Environment: as web.test.mjs, plus ERRATA_SCREENSHOTS.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { launchChromium } from './browser.mjs';
import { BIN, ROOT, SEED_TEXT, SEED_ID, ensureIndex, removeIndex, startServer, stopServer } from './harness.mjs';

export const SHOTS = process.env.ERRATA_SCREENSHOTS || join(dirname(BIN), 'web-screenshots');
const SIZES = { desktop: { width: 1280, height: 800 }, mobile: { width: 375, height: 800 } };
const CJK = /[\u4e00-\u9fff]/;

// a record whose answer holds long URLs and long code lines, and one with a chain both ways
const LONG = record('spring-boot/required-bean-not-found');
const CHAIN = record('git/merge-conflict');
const NONSENSE = 'qzxv flurbo wibblequark 8c1f';

let db;
let server;
let browser;

function record(id) {
  return JSON.parse(readFileSync(join(ROOT, 'kb', `${id}.json`), 'utf8'));
}

function edgeIds(r, kind) {
  return (r.transition_graph?.[kind] || []).map((e) => (typeof e === 'string' ? e : e.id));
}

async function newPage(size, contextOptions = {}) {
  const context = await browser.newContext({ locale: 'en-US', viewport: SIZES[size], ...contextOptions });
  const page = await context.newPage();
  page.problems = [];
  page.on('pageerror', (e) => page.problems.push(`page error: ${e.message}`));
  page.on('response', (r) => {
    if (r.status() >= 400 && !r.url().endsWith('/favicon.ico')) page.problems.push(`${r.status()} for ${r.url()}`);
  });
  page.setDefaultTimeout(15000);
  return { context, page };
}

async function shot(page, name) {
  mkdirSync(SHOTS, { recursive: true });
  const file = join(SHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  assert.ok(statSync(file).size > 1000, `${file} is a real screenshot`);
}

// Nothing is wider than the viewport: no horizontal scrolling of the page.
async function assertNoHorizontalScroll(page, what) {
  const { scroll, width } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth, width: window.innerWidth,
  }));
  assert.ok(scroll <= width, `${what}: the page is ${scroll} px wide in a ${width} px window`);
}

async function lookUp(page, text, { keys = false } = {}) {
  await page.fill('#error-text', text);
  if (keys) await page.press('#error-text', 'Control+Enter');
  else await page.click('#lookup-submit');
}

before(async () => {
  db = ensureIndex('web-pages');
  server = await startServer(db);
  browser = await launchChromium();
  console.log(`web screenshots: ${SHOTS}`);
});

after(async () => {
  await browser?.close();
  const e = await stopServer(server);
  removeIndex();
  assert.deepEqual(e, { code: 0, signal: null }, `server exit on SIGTERM; stderr: ${server?.stderr}`);
});

for (const size of Object.keys(SIZES)) {
  test(`${size}: Ctrl+Enter looks up, the answer scrolls into view and links to its record page`, async (t) => {
    t.diagnostic(`screenshots in ${SHOTS}`);
    const { context, page } = await newPage(size);
    try {
      await page.goto(`${server.url}/`);
      await lookUp(page, SEED_TEXT, { keys: true });
      const link = page.locator(`#answer h2.record-id a[href="/records/${SEED_ID}"]`);
      await link.waitFor();
      // scrolled so that the answer starts at the top of the window, below the form
      const top = await page.locator('#answer').evaluate((el) => el.getBoundingClientRect().top);
      const scrollY = await page.evaluate(() => window.scrollY);
      assert.ok(scrollY > 0, 'the page scrolled');
      assert.ok(top >= 0 && top < 60, `the answer's top is at ${top} px in the window`);
      assert.ok(await page.locator('#answer p.record-page a').count() === 1, 'an "open the record page" link');
      await shot(page, `lookup-answer-${size}`);
      await Promise.all([page.waitForNavigation(), link.click()]);
      assert.equal(new URL(page.url()).pathname, `/records/${SEED_ID}`);
      assert.equal((await page.locator('h2.record-id').innerText()).trim(), SEED_ID);
      assert.deepEqual(page.problems, []);
    } finally {
      await context.close();
    }
  });

  test(`${size}: an answer with long URLs and code does not scroll sideways`, async () => {
    const { context, page } = await newPage(size);
    try {
      await page.goto(`${server.url}/`);
      await lookUp(page, LONG.examples.match[0]);
      await page.locator(`#answer h2.record-id a[href="/records/${LONG.id}"]`).waitFor();
      await assertNoHorizontalScroll(page, 'the answer');
      // the code is really longer than its block, which scrolls inside itself instead
      const inside = await page.locator('#answer pre').evaluateAll((pres) =>
        pres.some((p) => p.scrollWidth > p.clientWidth && getComputedStyle(p).overflowX === 'auto'));
      if (size === 'mobile') assert.ok(inside, 'a code block wider than the phone scrolls inside itself');
      await shot(page, `lookup-long-${size}`);
      for (const path of [`/records/${LONG.id}`, `/?q=${encodeURIComponent(LONG.examples.match[1])}`, '/domains',
        `/records/${CHAIN.id}?lang=zh`]) {
        await page.goto(`${server.url}${path}`);
        await assertNoHorizontalScroll(page, path);
      }
      await shot(page, `record-chain-zh-${size}`);
      assert.deepEqual(page.problems, []);
    } finally {
      await context.close();
    }
  });

  test(`${size}: no match offers the search box and says how to add a record, without JavaScript`, async () => {
    const { context, page } = await newPage(size, { javaScriptEnabled: false });
    try {
      await page.goto(`${server.url}/`);
      await lookUp(page, NONSENSE);
      await page.waitForURL(/[?&]q=/);
      assert.equal(new URL(page.url()).hash, '#answer', 'the form goes to the answer');
      assert.equal(await page.locator('#answer .record-id').count(), 0, 'nothing matched');
      const form = page.locator('#no-match form[action="/search"]');
      assert.equal(await form.count(), 1, 'a search form');
      assert.equal(await form.locator('input[type="search"][name="q"]').inputValue(), NONSENSE, 'filled in');
      const advice = await page.locator('#no-match').innerText();
      assert.ok(advice.includes('docs/format.md'), 'points to the record format');
      assert.ok(advice.includes('kb/<domain>/<slug>.json'), 'says where a record goes');
      assert.ok(advice.includes('errata validate'), 'says how to check it');
      await assertNoHorizontalScroll(page, 'the no-match page');
      await shot(page, `no-match-${size}`);
      await form.locator('input[type="search"]').fill(CHAIN.signature.split(' / ')[0]);
      await Promise.all([page.waitForNavigation(), form.locator('button[type="submit"]').click()]);
      assert.equal(new URL(page.url()).pathname, '/search');
      assert.ok(await page.locator(`#answer ol.hits a[href="/records/${CHAIN.id}"]`).count() === 1,
        `the search finds ${CHAIN.id}`);
    } finally {
      await context.close();
    }
  });

  test(`${size}: the no-match answer from the JavaScript lookup offers the same`, async () => {
    const { context, page } = await newPage(size);
    try {
      await page.goto(`${server.url}/`);
      await lookUp(page, NONSENSE);
      await page.locator('#answer #no-match form[action="/search"]').waitFor();
      assert.ok((await page.locator('#answer #no-match').innerText()).includes('docs/format.md'));
      assert.deepEqual(page.problems, []);
    } finally {
      await context.close();
    }
  });

  test(`${size}: the search page lists hits that link to their record pages`, async () => {
    const { context, page } = await newPage(size, { javaScriptEnabled: false });
    try {
      await page.goto(`${server.url}/`);
      await Promise.all([page.waitForNavigation(), page.locator('header nav a[href="/search"]').click()]);
      const input = page.locator('#search-form input[type="search"][name="q"]');
      assert.equal(await input.count(), 1, 'the search box');
      await input.fill('merge conflict');
      await Promise.all([page.waitForNavigation(), input.press('Enter')]);
      const hits = page.locator('#answer ol.hits li a[href^="/records/"]');
      assert.ok(await hits.count() >= 1, 'hits');
      assert.ok(await page.locator(`#answer ol.hits a[href="/records/${CHAIN.id}"]`).count() === 1);
      await assertNoHorizontalScroll(page, 'the search page');
      await shot(page, `search-${size}`);
      const href = await hits.first().getAttribute('href');
      await Promise.all([page.waitForNavigation(), hits.first().click()]);
      assert.equal(new URL(page.url()).pathname, href);
      assert.equal(await page.locator('h2.record-id').count(), 1);
      await page.goto(`${server.url}/search?q=${encodeURIComponent(NONSENSE)}`);
      assert.equal(await page.locator('#answer ol.hits li').count(), 0);
      assert.ok((await page.locator('#answer p.none').innerText()).trim().length > 0, 'says nothing was found');
    } finally {
      await context.close();
    }
  });

  test(`${size}: ?lang=zh translates the pages' own words and keeps the language on links`, async () => {
    const { context, page } = await newPage(size);
    try {
      const words = async () => page.evaluate(() => ({
        lang: document.documentElement.lang,
        h1: document.querySelector('h1').innerText,
        nav: [...document.querySelectorAll('header nav a')].map((a) => a.innerText),
        label: document.querySelector('main label')?.innerText,
        button: document.querySelector('main button')?.innerText,
        footer: document.querySelector('footer').innerText,
      }));
      for (const path of ['/', '/search', '/domains']) {
        await page.goto(`${server.url}${path}`);
        const en = await words();
        await page.goto(`${server.url}${path}?lang=zh`);
        const zh = await words();
        assert.equal(en.lang, 'en');
        assert.equal(zh.lang, 'zh');
        for (const key of ['h1', 'label', 'button', 'footer']) {
          if (path === '/domains' && (key === 'label' || key === 'button')) continue;
          assert.match(zh[key], CJK, `${path}?lang=zh: the ${key} is Chinese (${zh[key]})`);
          assert.notEqual(zh[key], en[key]);
        }
        // the navigation in Chinese; the switch back says "English"
        assert.ok(zh.nav.slice(0, 3).every((t) => CJK.test(t)), `${path}: Chinese navigation ${zh.nav}`);
        assert.equal(zh.nav.at(-1), 'English');
        assert.ok(await page.locator('header nav a[href="/search?lang=zh"]').count() === 1, 'links stay in Chinese');
      }
      await page.goto(`${server.url}/?lang=zh`);
      await shot(page, `home-zh-${size}`);
      await lookUp(page, SEED_TEXT, { keys: true });
      const link = page.locator(`#answer h2.record-id a[href="/records/${SEED_ID}?lang=zh"]`);
      await link.waitFor();
      assert.match(await page.locator('#answer #root-cause h3').innerText(), CJK, 'the answer in Chinese');
      await Promise.all([page.waitForNavigation(), link.click()]);
      assert.match(await page.locator('h1, h3').first().innerText(), CJK);
      // the switch keeps the paste: /?q=…&lang=zh back to /?q=…
      await page.goto(`${server.url}/?q=${encodeURIComponent(SEED_TEXT)}&lang=zh`);
      await Promise.all([page.waitForNavigation(), page.locator('a#lang-switch').click()]);
      assert.equal(new URL(page.url()).searchParams.get('q'), SEED_TEXT);
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
      assert.deepEqual(page.problems, []);
    } finally {
      await context.close();
    }
  });

  test(`${size}: the record page draws the chain of errors with links to its neighbours`, async () => {
    const { context, page } = await newPage(size, { javaScriptEnabled: false });
    try {
      await page.goto(`${server.url}/records/${CHAIN.id}`);
      const svg = page.locator('section#graph figure.chain svg');
      assert.equal(await svg.count(), 1, 'the chain picture');
      const hrefs = await svg.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      const expected = [...edgeIds(CHAIN, 'preceded_by'), ...edgeIds(CHAIN, 'leads_to')].map((id) => `/records/${id}`);
      assert.ok(expected.length >= 2, 'the record has neighbours both ways');
      assert.deepEqual(hrefs, expected, 'preceded-by first, then leads-to, each a link');
      const box = await svg.boundingBox();
      assert.ok(box.width <= SIZES[size].width && box.height > 100, `the picture is ${box.width}x${box.height}`);
      const text = await svg.evaluate((el) => el.textContent);
      assert.ok(text.includes(CHAIN.id.split('/')[1]), 'the record itself is in the picture');
      await shot(page, `record-chain-${size}`);
      await Promise.all([page.waitForNavigation(), svg.locator('a').last().click()]);
      assert.equal(new URL(page.url()).pathname, expected.at(-1));
      // a record without a transition graph has no picture
      await page.goto(`${server.url}/records/${SEED_ID}`);
      assert.equal(await page.locator('figure.chain').count(), 0);
    } finally {
      await context.close();
    }
  });

  test(`${size}: a dark system gets a dark page with readable text`, async () => {
    const colours = async (scheme) => {
      const { context, page } = await newPage(size, { colorScheme: scheme });
      try {
        await page.goto(`${server.url}/?q=${encodeURIComponent(SEED_TEXT)}`);
        if (scheme === 'dark') await shot(page, `lookup-answer-dark-${size}`); // light: shot above
        await page.goto(`${server.url}/records/${CHAIN.id}`);
        if (scheme === 'dark') await shot(page, `record-chain-dark-${size}`);
        return await page.evaluate(() => {
          const style = (sel, prop) => getComputedStyle(document.querySelector(sel))[prop];
          return {
            bg: style('body', 'backgroundColor'), fg: style('body', 'color'),
            muted: style('footer', 'color'), link: style('main a', 'color'),
            code: style('pre', 'backgroundColor'),
          };
        });
      } finally {
        await context.close();
      }
    };
    const light = await colours('light');
    const dark = await colours('dark');
    assert.notEqual(dark.bg, light.bg, 'the background follows the scheme');
    assert.ok(luminance(dark.bg) < 0.05, `a dark background (${dark.bg})`);
    assert.ok(luminance(light.bg) > 0.9, `a light background (${light.bg})`);
    for (const [scheme, c] of [['light', light], ['dark', dark]]) {
      for (const key of ['fg', 'muted', 'link']) {
        const ratio = contrast(c[key], c.bg);
        assert.ok(ratio >= 4.5, `${scheme}: ${key} ${c[key]} on ${c.bg} has contrast ${ratio.toFixed(2)}`);
        assert.ok(contrast(c[key], c.code) >= 4.5, `${scheme}: ${key} on code blocks`);
      }
    }
  });
}

// WCAG 2 relative luminance and contrast ratio of CSS rgb() colours.
function luminance(css) {
  const [r, g, b] = css.match(/[\d.]+/g).slice(0, 3).map(Number).map((v) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a, b) {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}
