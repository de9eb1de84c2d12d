// The hostile corpus (tests/hostile/corpus, written by tests/hostile/make_corpus.py) through
// every page of the viewer in headless Chromium (node:test + playwright-core): the browser half
// of tests/hostile.rs, which runs the same files through every CLI subcommand.
//
// Each file is chosen alone on each page, then with valid companions on the pages that read
// several files; the pages are shared among four tabs run side by side (every page keeps its
// worker). The run it starts must end (`data-finished` counts the page's runs) within HANG,
// with results or with an error that names the file; nothing the files hold may run (no
// dialog, no element made from their HTML, no request for it); no page error or console
// error; and every page still runs its demo afterwards.
//
// Needs: `trunk build --release` (-> dist/), /usr/bin/chromium and the native CLI in
// MEMAUDIT_BIN. Run: MEMAUDIT_BIN=... npm run e2e

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { ROOT, DIST, cli, launch, openPage, assertClean, readRows } from './testkit.mjs';

const CORPUS = path.join(ROOT, 'tests', 'hostile', 'corpus');
const VIEWER = '/viewer/';
const HANG = 60_000;

/** Every page with a file picker: its slug and the prefix of its element ids. */
const PAGES = [
  ['rescore', ''], ['compare', 'compare-'], ['probe', 'probe-'], ['reclaim', 'reclaim-'],
  ['answers', 'answers-'], ['ablation', 'ablation-'], ['claims', 'claims-'], ['rules', 'rules-'],
  ['trec-eval', 'trec-eval-'], ['labels', 'labels-'], ['calibration', 'calibration-'],
  ['alignment', 'alignment-'], ['compliance', 'compliance-'],
];

/** Pages that read several files, with valid companions: the hostile file joins them, so the
 * readers behind the pairing (a run with its qrels, a rule file's data) are reached too. */
const TE = path.join(ROOT, 'tests', 'reference', 'trec_eval');
const FIXTURES = path.join(ROOT, 'tests', 'reference', 'paper_fixtures');
const WITH_COMPANIONS = [
  ['trec-eval', 'trec-eval-', [path.join(TE, 'test.qrels'), path.join(TE, 'run_a.run')]],
  ['rules', 'rules-', [path.join(FIXTURES, 'seed000_rules.json'), path.join(FIXTURES, 'seed000_values.json')]],
  ['compare', 'compare-', [path.join(ROOT, 'static', 'demo', 'compare', 'outcomes.csv')]],
];

let srv;
let ctx;

before(async () => {
  ({ srv, ctx } = await launch({ [VIEWER]: DIST }, 'hostile'));
});

after(async () => {
  await ctx?.close();
  srv?.server.close();
});

/** Chooses `file` alone on the page and waits for the run it starts to end: its outcome. */
async function runFile(page, slug, p, file) {
  const section = `#page-${slug}`;
  const before = await page.getAttribute(section, 'data-finished');
  if (await page.$(`#${p}clear-files`)) await page.click(`#${p}clear-files`);
  await page.setInputFiles(`#${p}file-input`, file);
  const started = Date.now();
  try {
    await page.waitForFunction(([sel, n]) => {
      const el = document.querySelector(sel);
      return el.dataset.finished !== n && el.dataset.state !== 'busy';
    }, [section, before], { timeout: HANG, polling: 20 });
  } catch {
    return { hang: true, took: Date.now() - started };
  }
  const took = Date.now() - started;
  const error = await page.$(`#${p}error`);
  return {
    took,
    state: await page.getAttribute(section, 'data-state'),
    title: error ? (await page.textContent(`#${p}error h2`)).trim() : null,
    error: error ? (await error.textContent()).replace(/\s+/g, ' ').trim() : null,
  };
}

/** How many tabs run the plans side by side: each run mostly waits on the browser's round
 * trips, so tabs (each with its own worker) share two cores well. */
const LANES = 4;

/** Runs `plans` in one tab: its failures, tally, slowest run, and what the files made. */
async function runLane(plans, files) {
  const { page, log } = await openPage(ctx);
  const dialogs = [];
  page.on('dialog', async (d) => {
    dialogs.push(d.message());
    await d.dismiss();
  });
  const failures = [];
  const tally = { runs: 0, refused: 0, read: 0 };
  let slowest = { took: 0, what: '' };
  for (const [slug, p, companions] of plans) {
    await page.goto(`${srv.origin}${VIEWER}#${slug}`);
    await page.waitForSelector(`#${p}file-input`, { state: 'attached' });
    for (const file of files) {
      const name = path.basename(file);
      const what = `${slug} page, ${name}${companions.length ? ` with ${companions.map((c) => path.basename(c)).join(', ')}` : ''}`;
      const r = await runFile(page, slug, p, [...companions, file]);
      tally.runs++;
      if (r.took > slowest.took) slowest = { took: r.took, what };
      if (r.hang) {
        failures.push(`${what}: no result and no error after ${HANG} ms`);
        // A page stuck on one file would fail every later one: start it again.
        await page.goto(`${srv.origin}${VIEWER}#${slug}`);
        await page.reload();
        await page.waitForSelector(`#${p}file-input`, { state: 'attached' });
        continue;
      }
      if (r.error !== null) {
        tally.refused++;
        if (!r.error.includes(name)) failures.push(`${what}: the error names no file: ${r.error}`);
        // The worker died, or a message between it and the page was lost.
        if (/worker stopped|could not be read|^Could not read the (result|answer)$/.test(r.title)) failures.push(`${what}: ${r.error}`);
      } else if (r.state === 'ready') {
        tally.read++;
      } else {
        failures.push(`${what}: ended ${r.state} with no error shown`);
      }
    }
    // The page still works: its demo runs.
    const before = await page.getAttribute(`#page-${slug}`, 'data-finished');
    await page.click(`#${p}demo-button`);
    await page.waitForFunction(([sel, n]) => {
      const el = document.querySelector(sel);
      return el.dataset.finished !== n && el.dataset.state !== 'busy';
    }, [`#page-${slug}`, before], { timeout: HANG });
    if ((await page.getAttribute(`#page-${slug}`, 'data-state')) !== 'ready' || (await page.$(`#${p}error`))) {
      failures.push(`${slug} page: its demo no longer runs after the corpus`);
    }
  }
  // Nothing the files hold ran: no element made from their HTML.
  const made = await page.evaluate(() => ({
    images: [...document.querySelectorAll('img')].filter((i) => /(^|\/)x$/.test(i.getAttribute('src') ?? '')).length,
    inline: [...document.querySelectorAll('script')].filter((s) => !s.src).length,
  }));
  await page.close();
  return { failures, tally, slowest, dialogs, made, log };
}

test('every page survives the hostile corpus: each run ends with results or an error naming its file', async () => {
  const files = fs.readdirSync(CORPUS).sort().map((f) => path.join(CORPUS, f));
  assert.ok(files.length >= 50, 'the corpus is written by tests/hostile/make_corpus.py');
  const plans = [...PAGES.map(([slug, p]) => [slug, p, []]), ...WITH_COMPANIONS];
  const lanes = Array.from({ length: LANES }, (_, i) => plans.filter((_, j) => j % LANES === i));
  const done = await Promise.all(lanes.map((lane) => runLane(lane, files)));
  const failures = done.flatMap((d) => d.failures);
  const tally = { runs: 0, refused: 0, read: 0 };
  for (const d of done) for (const k of Object.keys(tally)) tally[k] += d.tally[k];
  const slowest = done.map((d) => d.slowest).reduce((a, b) => (b.took > a.took ? b : a));
  console.log(`hostile corpus in the viewer: ${tally.runs} runs (${files.length} files × ${plans.length} pages or page and companions, `
    + `${LANES} tabs), ${tally.refused} refused, ${tally.read} read; the slowest took ${slowest.took} ms (${slowest.what})`);
  assert.deepEqual(failures, [], `${failures.length} of ${tally.runs} runs failed`);
  // Nothing the files hold ran: no dialog, no element made from their HTML, no request for it.
  assert.deepEqual(done.flatMap((d) => d.dialogs), [], 'a dialog was opened by a file\'s content');
  for (const d of done) {
    assert.deepEqual(d.made, { images: 0, inline: 0 }, 'elements made from a file\'s HTML');
    assert.ok(!d.log.requests.some((u) => /\/x$/.test(new URL(u).pathname)), 'a request for a file\'s <img src=x>');
    assertClean(d.log, srv.origin, VIEWER);
  }
});

test('a file can be taken off any page\'s list: the others are read again', async () => {
  const { page, log } = await openPage(ctx);
  const outcomes = path.join(ROOT, 'static', 'demo', 'compare', 'outcomes.csv');
  const hostile = path.join(CORPUS, 'formula_and_html_ids.csv');
  await page.goto(`${srv.origin}${VIEWER}#compare`);
  await page.waitForSelector('#compare-file-input', { state: 'attached' });
  // Both files are read together (the hostile ids are outcomes too).
  let r = await runFile(page, 'compare', 'compare-', [outcomes, hostile]);
  assert.ok(!r.hang, 'the run with both files ended');
  const listed = () => page.$$eval('#compare-file-list code', (cs) => cs.map((c) => c.textContent));
  assert.deepEqual(await listed(), ['outcomes.csv', 'formula_and_html_ids.csv']);
  // Removing one runs the comparison again on the other alone.
  const before = await page.getAttribute('#page-compare', 'data-finished');
  await page.click('#compare-file-list button[aria-label="remove formula_and_html_ids.csv"]');
  await page.waitForFunction((n) => {
    const el = document.querySelector('#page-compare');
    return el.dataset.finished !== n && el.dataset.state !== 'busy';
  }, before);
  assert.deepEqual(await listed(), ['outcomes.csv']);
  assert.equal(await page.getAttribute('#page-compare', 'data-state'), 'ready');
  assert.equal(await page.$('#compare-error'), null);
  const want = JSON.parse(cli(['compare', '--outcomes', outcomes, '--format', 'json']));
  const arms = (await readRows(page, '#arms-table')).map((r) => r.attrs.arm);
  assert.deepEqual(arms.sort(), want.arms.map((a) => a.arm).sort(), 'the arms of outcomes.csv alone');
  // "clear all" empties the list.
  await page.click('#compare-clear-files');
  assert.equal(await page.$('#compare-file-list'), null);
  assertClean(log, srv.origin, VIEWER);
  await page.close();
});
