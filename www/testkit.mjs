// Helpers shared by the viewer's end-to-end tests (node:test + playwright-core): the native
// CLI, a Chromium context on a static server, pages that record errors and requests, reading
// tables with their full-precision `data-value`s, downloads and CSV comparison.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

import { serve, CHROMIUM_ARGS } from './static-server.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DIST = path.join(ROOT, 'dist');
export const TOL = 1e-9;

/** Resident memory of every Chromium process, in MB (the measuring scripts sample it). */
export function chromiumMb() {
  try {
    const out = execFileSync('ps', ['-C', 'chromium', '-o', 'rss='], { encoding: 'utf8' });
    return out.split('\n').filter(Boolean).reduce((s, l) => s + Number(l), 0) / 1024;
  } catch {
    return 0;
  }
}

/** The native CLI's standard output (MEMAUDIT_BIN); `cwd` for relative file names. */
export function cli(args, { cwd } = {}) {
  const bin = process.env.MEMAUDIT_BIN;
  assert.ok(bin, 'set MEMAUDIT_BIN to the native memaudit CLI (cargo build --release --bin memaudit)');
  return execFileSync(bin, args, { encoding: 'utf8', maxBuffer: 1 << 28, cwd });
}

/** The CLI's error message (exit code 2) for a run expected to fail. */
export function cliError(args) {
  try {
    execFileSync(process.env.MEMAUDIT_BIN, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    return String(e.stderr);
  }
  assert.fail(`memaudit ${args.join(' ')} was expected to fail`);
}

/** A refusal as JSON (`--format json`, exit code 2): the document printed on stdout. */
export function cliRefusal(args) {
  try {
    execFileSync(process.env.MEMAUDIT_BIN, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 });
  } catch (e) {
    assert.equal(e.status, 2, `memaudit ${args.join(' ')}: exit code`);
    return JSON.parse(String(e.stdout));
  }
  assert.fail(`memaudit ${args.join(' ')} was expected to refuse`);
}

/** Serves `mounts` ({prefix: dir}) and opens headless Chromium: { srv, ctx }. */
export async function launch(mounts, name) {
  assert.ok(fs.existsSync(path.join(DIST, 'index.html')), 'dist/ missing: run `trunk build --release` first');
  const srv = await serve(mounts);
  const ctx = await chromium.launchPersistentContext(fs.mkdtempSync(path.join(os.tmpdir(), `memaudit-${name}-`)), {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 900 },
    acceptDownloads: true,
  });
  return { srv, ctx };
}

/** A fresh page that records page errors, console errors and every request. */
export async function openPage(ctx) {
  const page = await ctx.newPage();
  const log = { errors: [], requests: [] };
  page.on('pageerror', (e) => log.errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') log.errors.push(`console.error: ${m.text()}`);
  });
  page.on('request', (r) => log.requests.push(r.url()));
  return { page, log };
}

/** Every request went to `origin` under one of `prefixes` (or to a blob:/data: URL the page made). */
export function assertOwnFilesOnly(log, origin, prefixes) {
  for (const url of log.requests) {
    if (url.startsWith('blob:') || url.startsWith('data:')) continue;
    const u = new URL(url);
    assert.equal(u.origin, origin, `request to another origin: ${url}`);
    assert.ok(prefixes.some((p) => u.pathname.startsWith(p)), `request outside the page's own files: ${url}`);
  }
}

/** No page error, no console error, no request beyond the page's own files. */
export function assertClean(log, origin, prefix) {
  assert.deepEqual(log.errors, []);
  assertOwnFilesOnly(log, origin, [prefix]);
}

/** Waits until page `name` shows results (`#page-{name}[data-state=ready]`). */
export const waitReady = (page, name) => page.waitForSelector(`#page-${name}[data-state="ready"]`, { timeout: 120_000 });

/** Rows of a table as { attrs: {data-*}, cells: {col: {value, text}} }. */
export async function readRows(page, selector) {
  return page.$$eval(`${selector} tbody tr`, (trs) =>
    trs.map((tr) => {
      const attrs = { ...tr.dataset };
      const cells = {};
      for (const el of tr.querySelectorAll('[data-col]')) {
        cells[el.dataset.col] = { value: el.dataset.value, text: el.textContent.trim() };
      }
      return { attrs, cells };
    }),
  );
}

/**
 * A numeric cell holds `expected` to 1e-9 (no value: empty). What is shown is its rounding:
 * `fourDecimals` demands exactly 4 decimals (a dash for none); otherwise signed values and
 * p-value notation are allowed.
 */
export function checkNumber(cell, expected, what, { fourDecimals = false } = {}) {
  assert.ok(cell, `${what}: no cell`);
  if (expected === null || expected === undefined) {
    assert.equal(cell.value, '', `${what}: expected no value`);
    if (fourDecimals) assert.equal(cell.text, '—', `${what}: expected a dash`);
    return;
  }
  const v = Number(cell.value);
  assert.ok(Math.abs(v - expected) <= TOL, `${what}: page ${cell.value} vs CLI ${expected}`);
  if (fourDecimals) {
    assert.match(cell.text, /^-?\d+\.\d{4}$/, `${what}: shown as ${cell.text}`);
    assert.ok(Math.abs(Number(cell.text) - expected) <= 0.00005 + 1e-12, `${what}: ${cell.text} is not ${expected} rounded`);
    return;
  }
  const shown = Number(cell.text.replace(/^\+/, '').replace(/[^0-9eE.+-].*$/, ''));
  if (Number.isFinite(shown) && !/e/i.test(cell.text) && !/%$/.test(cell.text)) {
    assert.ok(Math.abs(shown - expected) <= 0.00005 + 1e-12, `${what}: shown ${cell.text} is not ${expected}`);
  }
}

/** Pixels of a canvas that are not (near) white. */
export async function inkPixels(page, selector) {
  return page.$eval(selector, (c) => {
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let ink = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] < 230 || d[i + 1] < 230 || d[i + 2] < 230) ink++;
    return ink;
  });
}

/**
 * The item view `#{prefix}item-text` once it shows `item`, as `--show-item ITEM` prints it:
 * { shared: [{column, text}], arms: [{arm, rows: [{at, fields: [{column, text}]}]}] }.
 */
export async function readItemText(page, prefix, item) {
  await page.waitForSelector(`#${prefix}item-text-body[data-item="${item}"]`, { timeout: 30_000 });
  return page.$eval(`#${prefix}item-text-body`, (body) => {
    const cells = (root) => [...root.querySelectorAll('dd')].map((d) => ({ column: d.dataset.col, text: d.textContent }));
    const shared = body.querySelector('.item-shared');
    return {
      shared: shared ? cells(shared) : [],
      arms: [...body.querySelectorAll('.item-arm')].map((a) => ({
        arm: a.dataset.arm,
        rows: [...a.querySelectorAll('.item-row')].map((r) => ({ at: r.dataset.at, fields: cells(r) })),
      })),
    };
  });
}

const DOWNLOAD_SPACING_MS = 110;
const lastDownload = new WeakMap();

/** The text of the file a click on `selector` downloads. */
export async function download(page, selector) {
  // Chromium starts at most 10 downloads a second from one frame and drops the rest without a
  // word (its throttle of URL download requests per RenderFrame): a test that clicks eleven
  // export buttons in a row would wait forever for the eleventh.
  // Clicks are spaced so no second holds more than ten.
  const wait = (lastDownload.get(page) ?? 0) + DOWNLOAD_SPACING_MS - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  lastDownload.set(page, Date.now());
  // What the page said while we waited: a download that never starts names its cause.
  const said = [];
  const listen = (m) => said.push(`${m.type()}: ${m.text()}`);
  page.on('console', listen);
  try {
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
    return fs.readFileSync(await dl.path(), 'utf8');
  } catch (e) {
    const found = await page.locator(selector).count().catch(() => -1);
    const visible = found === 1 ? await page.locator(selector).isVisible().catch(() => false) : false;
    e.message = `no download from ${selector} (${found} matching, visible: ${visible}; the page said: ${JSON.stringify(said)}): ${e.message}`;
    throw e;
  } finally {
    page.off('console', listen);
  }
}

/** Same CSV up to numbers differing by at most 1e-12 (relative). */
export function assertCsvClose(got, want, what) {
  const g = got.split('\n');
  const w = want.split('\n');
  assert.equal(g.length, w.length, `${what}: line count`);
  assert.equal(g[0], w[0], `${what}: header`);
  for (let i = 1; i < g.length; i++) {
    const gc = g[i].split(',');
    const wc = w[i].split(',');
    assert.equal(gc.length, wc.length, `${what} line ${i + 1}`);
    gc.forEach((cell, j) => {
      if (cell === wc[j]) return;
      const [x, y] = [Number(cell), Number(wc[j])];
      assert.ok(Number.isFinite(x) && Math.abs(x - y) <= 1e-12 * Math.max(1, Math.abs(y)), `${what} line ${i + 1}: ${cell} vs ${wc[j]}`);
    });
  }
}

/** No two elements of the document share an id. */
export async function assertUniqueIds(page) {
  const dups = await page.evaluate(() => {
    const ids = [...document.querySelectorAll('[id]')].map((e) => e.id);
    return [...new Set(ids.filter((x, i) => ids.indexOf(x) !== i))];
  });
  assert.deepEqual(dups, [], 'duplicate element ids');
}

/** Equal JSON values, numbers to a relative 1e-9 (wasm and native special functions may differ in the last bits). */
export function assertDeepClose(got, want, what) {
  if (typeof want === 'number' && typeof got === 'number') {
    assert.ok(Math.abs(got - want) <= 1e-9 * Math.max(1, Math.abs(want)), `${what}: ${got} vs ${want}`);
  } else if (Array.isArray(want)) {
    assert.ok(Array.isArray(got) && got.length === want.length, `${what}: array length`);
    want.forEach((w, i) => assertDeepClose(got[i], w, `${what}[${i}]`));
  } else if (want !== null && typeof want === 'object') {
    assert.deepEqual(Object.keys(got ?? {}).sort(), Object.keys(want).sort(), `${what}: keys`);
    for (const k of Object.keys(want)) assertDeepClose(got[k], want[k], `${what}.${k}`);
  } else {
    assert.equal(got, want, what);
  }
}

/**
 * The page's "What the data says" panel (`panel`, e.g. `#headlines`) lists the CLI JSON's
 * `headlines` in order (level, text, evidence), comes before every other result card, and each
 * "show the table" button names a card that exists and brings it into view.
 */
export async function checkHeadlines(page, panel, want, what) {
  assert.ok(Array.isArray(want.headlines), `${what}: the CLI JSON has headlines`);
  const got = await page.$$eval(`${panel} li.headline`, (lis) => lis.map((li) => ({
    level: li.dataset.level,
    text: li.querySelector('.headline-text').textContent,
    evidence: li.querySelector('.headline-evidence')?.textContent ?? '',
    card: li.querySelector('.headline-link')?.dataset.card ?? null,
  })));
  assert.deepEqual(got.map(({ level, text, evidence }) => ({ level, text, evidence })),
    want.headlines.map(({ level, text, evidence }) => ({ level, text, evidence })), `${what}: headlines`);
  assert.equal(await page.textContent(`${panel} h2`), 'What the data says');
  // Headlines first: of the page's cards only the inputs (drop zone, a pasted note) and the
  // settings precede the panel.
  const first = await page.$eval(panel, (p) => {
    const pageEl = p.closest('section.page');
    const cards = [...pageEl.querySelectorAll('section.card')];
    return cards.slice(0, cards.indexOf(p)).every((c) => /(intake|settings|live)$/.test(c.id));
  });
  assert.ok(first, `${what}: the headlines are the first card`);
  for (const h of got.filter((h) => h.card)) {
    assert.ok(await page.$(`#${h.card}`), `${what}: card #${h.card} of "${h.text}" exists`);
  }
  const link = got.findIndex((h) => h.card);
  if (link >= 0) {
    await page.click(`${panel} li.headline:nth-child(${link + 1}) .headline-link`);
    const focused = await page.evaluate(() => document.activeElement?.id);
    assert.equal(focused, got[link].card, `${what}: the link focuses its card`);
  }
  return got;
}
