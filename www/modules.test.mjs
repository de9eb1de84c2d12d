// End-to-end tests of the viewer's two page modules (src/web/bridge.rs) in headless Chromium:
// the first page downloads only the module of its own pages, under 1.0 MB gzipped with its
// JS, CSS and HTML; the other module is loaded when one of its pages is opened and shares the
// shell (one navigation, the input limits, dropped files, the page's state); a module that
// cannot be loaded is reported in its place.
//
// Needs: `trunk build --release` (-> dist/), /usr/bin/chromium and the native CLI in
// MEMAUDIT_BIN. Run: MEMAUDIT_BIN=... npm run e2e

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

import { ROOT, DIST, cliError, launch, openPage as open, assertClean, assertUniqueIds } from './testkit.mjs';

const VIEWER = '/viewer/';
const COMPLIANCE = path.join(ROOT, 'static', 'demo', 'compliance', 'compliance.csv');
/** The first page's budget: wasm + JS + CSS + HTML, gzip -9 (the issue "Scale and size"). */
const FIRST_PAGE_BUDGET = 1_000_000;

let srv;
let ctx;

before(async () => {
  ({ srv, ctx } = await launch({ [VIEWER]: DIST }, 'modules'));
});

after(async () => {
  await ctx?.close();
  srv?.server.close();
});

const openPage = () => open(ctx);

/** The dist/ file a request of the viewer names (its query dropped). */
function distFile(url) {
  const u = new URL(url);
  assert.ok(u.pathname.startsWith(VIEWER), `request outside the viewer: ${url}`);
  return path.join(DIST, decodeURIComponent(u.pathname.slice(VIEWER.length)) || 'index.html');
}

/** Which page modules were requested: names like 'web' (memaudit-web-<hash>) and 'tools'. */
function modulesRequested(requests) {
  const names = new Set();
  for (const url of requests) {
    const m = new URL(url).pathname.match(/\/memaudit-(web|tools)(?:-[0-9a-f]+)?(?:_bg\.wasm|\.js)$/);
    if (m) names.add(m[1]);
  }
  return [...names].sort();
}

/** Drops `files` ({name, text}) on the page, as a user dragging them from the desktop would. */
async function dropFiles(page, files) {
  await page.evaluate((fs) => {
    const dt = new DataTransfer();
    for (const f of fs) dt.items.add(new File([f.text], f.name, { type: 'text/csv' }));
    const app = document.querySelector('.app');
    app.dispatchEvent(new DragEvent('dragover', { bubbles: true, cancelable: true, dataTransfer: dt }));
    app.dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: dt }));
  }, files);
}

for (const [where, hash, module, section] of [
  ['the default page', '', 'web', 'audit'],
  ['#compare', '#compare', 'web', 'compare'],
  ['#trec-eval', '#trec-eval', 'tools', 'trec-eval'],
  ['?page=labels', '?page=labels', 'tools', 'labels'],
]) {
  test(`first page (${where}): one page module, everything under 1.0 MB gzipped`, async () => {
    const { page, log } = await openPage();
    await page.goto(`${srv.origin}${VIEWER}${hash}`);
    await page.waitForSelector(`#page-${section}:not([hidden])`);
    await page.waitForLoadState('networkidle');
    assert.deepEqual(modulesRequested(log.requests), [module], 'the page module of the page on screen, only');
    assert.ok(!log.requests.some((u) => /worker/.test(u)), 'no worker before the user does anything');
    let total = 0;
    const sizes = {};
    for (const url of new Set(log.requests)) {
      const gz = zlib.gzipSync(fs.readFileSync(distFile(url)), { level: 9 }).length;
      sizes[path.basename(distFile(url))] = gz;
      total += gz;
    }
    assert.ok(total < FIRST_PAGE_BUDGET, `first page: ${total} bytes gzipped ${JSON.stringify(sizes)}`);
    // The shell is drawn once, with every page in its navigation.
    assert.equal(await page.locator('.app').count(), 1);
    assert.equal(await page.locator('#nav a').count(), 14);
    assertClean(log, srv.origin, VIEWER);
    await page.close();
  });
}

test('a page of the other module: loaded when opened, with the shell\'s limits, drops and state', async () => {
  const { page, log } = await openPage();
  await page.goto(`${srv.origin}${VIEWER}#rescore`);
  await page.waitForSelector('#page-rescore:not([hidden])');
  // Limits set in the shell (drawn by the first module) apply to the other module's pages.
  await page.click('#limits summary');
  await page.fill('#limits-max-rows', '5');
  await page.click('#limits-apply');
  await page.waitForFunction(() => document.querySelector('#limits-now')?.textContent.includes(', 5 rows'));
  assert.deepEqual(modulesRequested(log.requests), ['web']);
  await page.click('#nav-compliance');
  await page.waitForSelector('#page-compliance:not([hidden]) #compliance-file-input', { state: 'attached' });
  assert.deepEqual(modulesRequested(log.requests), ['tools', 'web']);
  assert.equal(await page.locator('.app').count(), 1);
  assert.equal(await page.locator('#nav').count(), 1);
  assert.equal(await page.getAttribute('.app', 'data-page'), 'compliance');
  assert.equal(await page.locator('section.page:not([hidden])').count(), 1, 'one page on screen');
  await assertUniqueIds(page);
  const text = fs.readFileSync(COMPLIANCE, 'utf8');
  // Dropped on the shell, read by the compliance page under the shell's limits.
  await dropFiles(page, [{ name: 'compliance.csv', text }]);
  await page.waitForSelector('#compliance-error-message', { timeout: 60_000 });
  const err = cliError(['--max-rows', '5', 'compliance', '--input', COMPLIANCE]);
  const m = err.trim().match(/compliance\.csv, line 6: (holds more than 5 rows .*)$/);
  assert.ok(m, err);
  // The same message, the setting named in each interface's words.
  const onPage = m[1].replace('(--max-rows)', '(\u201cmost rows per file\u201d under Input limits)');
  assert.notEqual(onPage, m[1], err);
  assert.equal((await page.textContent('#compliance-error-message')).trim(), onPage);
  assert.equal(await page.getAttribute('.app', 'data-state'), 'error', 'the guest page\'s state is the shell\'s');
  // The defaults again: the same drop is read, and the shell shows the page ready.
  await page.click('#limits-reset');
  await page.waitForFunction(() => document.querySelector('#limits-now')?.textContent.includes(', 2000000 rows'));
  // (The refused file was taken off the page's list.)
  assert.equal(await page.locator('#compliance-file-list').count(), 0);
  await dropFiles(page, [{ name: 'compliance.csv', text }]);
  await page.waitForSelector('.app[data-state="ready"]', { timeout: 120_000 });
  assert.equal(await page.getAttribute('#page-compliance', 'data-state'), 'ready');
  // Back to a page of the first module, and again: each page keeps its state.
  await page.click('#nav-rescore');
  await page.waitForSelector('#page-rescore:not([hidden])');
  assert.equal(await page.getAttribute('.app', 'data-state'), 'idle');
  assert.equal(await page.locator('#page-compliance[hidden]').count(), 1);
  await page.goBack();
  await page.waitForSelector('#page-compliance:not([hidden])');
  assert.equal(await page.getAttribute('.app', 'data-state'), 'ready');
  assert.equal(modulesRequested(log.requests).length, 2, 'each module loaded once');
  assertClean(log, srv.origin, VIEWER);
  await page.close();
});

test('the first module\'s pages as the guest: a rescoring handed to the comparison page', async () => {
  const { page, log } = await openPage();
  await page.goto(`${srv.origin}${VIEWER}#labels`);
  await page.waitForSelector('#page-labels:not([hidden])');
  assert.deepEqual(modulesRequested(log.requests), ['tools']);
  await page.click('#nav-rescore');
  await page.click('#demo-button');
  await page.waitForSelector('.app[data-state="ready"] #use-rescoring', { timeout: 120_000 });
  await page.click('#use-rescoring');
  await page.waitForSelector('#page-compare:not([hidden])');
  assert.equal(await page.evaluate(() => location.hash), '#compare');
  assert.equal(await page.getAttribute('.app', 'data-page'), 'compare');
  await page.waitForSelector('#refusal-message', { timeout: 120_000 });
  // The fix is named by the checkbox's label on the page (the CLI says --allow-incomplete).
  const fix = (await page.textContent('label[for="allow-incomplete"]')).trim();
  assert.ok((await page.textContent('#refusal-message')).includes(`use \u201c${fix}\u201d to compare`));
  await assertUniqueIds(page);
  assertClean(log, srv.origin, VIEWER);
  await page.close();
});

test('?demo runs the demo of the page shown first only, not of a page of the other module opened later', async () => {
  const { page, log } = await openPage();
  await page.goto(`${srv.origin}${VIEWER}?demo`);
  await page.waitForSelector('#page-rescore[data-state="ready"]', { timeout: 120_000 });
  await page.click('#nav-labels');
  await page.waitForSelector('#page-labels:not([hidden])');
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(500);
  assert.equal(await page.getAttribute('#page-labels', 'data-state'), 'idle');
  assert.ok(!log.requests.some((u) => u.includes('/demo/labels/')), 'the labels demo was not fetched');
  // Its own button still runs it.
  await page.click('#labels-demo-button');
  await page.waitForSelector('#page-labels[data-state="ready"]', { timeout: 120_000 });
  assertClean(log, srv.origin, VIEWER);
  await page.close();
});

test('a page module that cannot be loaded is reported in its place; the other pages keep working', async () => {
  const { page, log } = await openPage();
  await page.route('**/memaudit-tools_bg.wasm*', (route) => route.fulfill({ status: 404, body: 'not found' }));
  await page.goto(`${srv.origin}${VIEWER}#rescore`);
  await page.waitForSelector('#page-rescore:not([hidden])');
  await page.click('#nav-ablation');
  await page.waitForSelector('#pages-tools-error');
  assert.match(await page.textContent('#pages-tools-error'), /memaudit-tools/);
  await page.click('#nav-rescore');
  await page.click('#demo-button');
  await page.waitForSelector('.app[data-state="ready"]', { timeout: 120_000 });
  // The browser's own notes about the 404 (and the failed compile) are the only errors.
  log.errors = log.errors.filter((e) => !/404|WebAssembly|wasm/i.test(e));
  assertClean(log, srv.origin, VIEWER);
  await page.close();
});
