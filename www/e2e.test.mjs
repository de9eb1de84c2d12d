// End-to-end test of the memaudit viewer in headless Chromium (node:test + playwright-core).
//
// Needs: `trunk build --release` (-> dist/), Debian's /usr/bin/chromium, and the native CLI
// in MEMAUDIT_BIN (cargo build --release --bin memaudit). Run: MEMAUDIT_BIN=... npm run e2e
//
// The viewer is served from a sub-path (/some/sub/path/viewer/) to check that dist/ works
// anywhere. Every number on screen is compared with the CLI's JSON for the same files: each
// numeric cell carries its full-precision value in `data-value` (checked to 1e-9) and shows
// its 4-decimal rounding. The page must raise no error, log no console error, and request
// nothing but its own files.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

import {
  ROOT, DIST, cli, launch, openPage as open, assertOwnFilesOnly as ownFilesOnly, readRows,
  checkNumber as check, download, assertCsvClose,
  inkPixels, checkHeadlines,
} from './testkit.mjs';

const DEMO = path.join(ROOT, 'static', 'demo');
const DEMO_FILES = ['memories.jsonl', 'queries.jsonl', 'runs.jsonl'].map((f) => path.join(DEMO, f));
const SCREENSHOT = path.join(ROOT, 'www', 'screenshot.png');
const VIEWER = '/some/sub/path/viewer/';
const SITE = '/site/';

let srv;
let ctx;
let cliReport;

function rescoreArgs(extra = []) {
  return ['rescore', '-m', DEMO_FILES[0], '-q', DEMO_FILES[1], '-r', DEMO_FILES[2], ...extra];
}

before(async () => {
  cliReport = JSON.parse(cli(rescoreArgs(['--format', 'json'])));
  ({ srv, ctx } = await launch(
    {
      [VIEWER]: DIST,
      [`${SITE}viewer/`]: DIST,
      [`${SITE}traces/demo/`]: DEMO,
      [SITE]: path.join(ROOT, 'www'),
      // Same origin, then a redirect to another origin (localhost is not 127.0.0.1).
      '/redirected/': { redirect: 'http://localhost:PORT/site/traces/demo/' },
    },
    'e2e',
  ));
});

after(async () => {
  await ctx?.close();
  srv?.server.close();
});

const openPage = () => open(ctx);

/** Every request went to the page's own files (or to a blob:/data: URL it created). */
const assertOwnFilesOnly = (log, allowedPrefixes) => ownFilesOnly(log, srv.origin, allowedPrefixes);

async function waitReady(page) {
  await page.waitForSelector('.app[data-state="ready"]', { timeout: 120_000 });
}

/** A numeric cell holds `expected` exactly (to 1e-9) and shows its 4-decimal rounding. */
const checkNumber = (cell, expected, what, opts = {}) => check(cell, expected, what, { fourDecimals: true, ...opts });

function checkInt(cell, expected, what) {
  assert.ok(cell, `${what}: no cell`);
  assert.equal(Number(cell.value ?? cell.text), expected, `${what}`);
}

async function canvasInkPixels(page) {
  return page.$eval('#delta-histogram', (c) => {
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let ink = 0;
    let bar = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (d[i] < 245 || d[i + 1] < 245 || d[i + 2] < 245) ink++;
      // The bar colour (52, 101, 164), blended at 85 % on white.
      if (Math.abs(d[i] - 83) < 20 && Math.abs(d[i + 1] - 124) < 20 && Math.abs(d[i + 2] - 178) < 20) bar++;
    }
    return { ink, bar };
  });
}

test('uploaded demo files: every number matches the CLI', async () => {
  const { page, log } = await openPage();
  await page.goto(`${srv.origin}${VIEWER}#rescore`);
  await page.waitForSelector('#file-input');
  // Any order (runs first), and gzip is detected from the bytes.
  const gz = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'memaudit-gz-')), 'runs.jsonl.gz');
  fs.writeFileSync(gz, zlib.gzipSync(fs.readFileSync(DEMO_FILES[2])));
  // A press on the chooser starts the worker, which starts its helper; given time to load, the
  // helper computes half of the bootstrap intervals, and every number below must still be the
  // CLI's (one thread).
  await page.dispatchEvent('label[for="file-input"]', 'pointerdown');
  // (3 s: 1.5 s was once too short on a loaded 2-core machine.)
  await page.waitForTimeout(3000);
  await page.setInputFiles('#file-input', [gz, DEMO_FILES[0], DEMO_FILES[1]]);
  await waitReady(page);
  await page.waitForSelector('#summary-table tbody tr');
  assert.match(await page.textContent('#timing'), /; [1-9][0-9]* of the bootstrap intervals computed by a second worker\./);

  // Reading summary: three files with their detected formats.
  const files = await page.$$eval('#files-table tbody tr', (trs) =>
    trs.map((tr) => [tr.dataset.file, tr.querySelector('[data-format]').dataset.format]),
  );
  assert.deepEqual(
    files.sort(),
    [
      ['memories.jsonl', 'memories_jsonl'],
      ['queries.jsonl', 'queries_jsonl'],
      ['runs.jsonl.gz', 'runs_jsonl'],
    ],
  );
  assert.match(await page.textContent('#files-table tr[data-file="runs.jsonl.gz"]'), /gzip/);
  const warnings = await page.$$eval('#warnings li.warning', (lis) => lis.map((li) => [li.dataset.kind, Number(li.dataset.count)]));
  assert.deepEqual(
    warnings.sort(),
    cliReport.reading.warnings.map((w) => [w.kind, w.count]).concat(cliReport.scoring_warnings.map((w) => [w.kind, w.count])).sort(),
  );

  await checkHeadlines(page, '#headlines', cliReport, 'rescore');

  // Summary: every nDCG / CI / recall / hit / MRR / top-1 cell.
  const summary = await readRows(page, '#summary-table');
  assert.equal(summary.length, cliReport.summary.length);
  for (const want of cliReport.summary) {
    const key = `${want.system}/${want.target}/${want.subset}`;
    const row = summary.find((r) => r.attrs.system === want.system && r.attrs.target === want.target && r.attrs.subset === want.subset);
    assert.ok(row, `summary row ${key} missing`);
    checkInt(row.cells.n, want.n, `${key} n`);
    for (const col of ['ndcg', 'ndcg_ci_low', 'ndcg_ci_high', 'recall', 'hit', 'mrr', 'top1']) {
      checkNumber(row.cells[col], want[col], `${key} ${col}`);
    }
  }

  // Instability: every row, every column.
  const inst = await readRows(page, '#instability-table');
  assert.equal(inst.length, cliReport.instability.length);
  for (const want of cliReport.instability) {
    const key = `${want.system}/${want.a}-${want.b}`;
    const row = inst.find((r) => r.attrs.system === want.system && r.attrs.a === want.a && r.attrs.b === want.b);
    assert.ok(row, `instability row ${key} missing`);
    for (const col of ['n', 'ndcg_changed', 'hit_flips', 'hit_gained', 'hit_lost', 'top1_flips', 'recall_changed', 'mrr_changed']) {
      checkInt(row.cells[col], want[col], `${key} ${col}`);
    }
    checkNumber(row.cells.change_rate, want.change_rate, `${key} change_rate`, { fourDecimals: false });
    for (const col of ['mcnemar_p', 'mean_a', 'mean_b', 'mean_diff_ndcg', 'ci_low', 'ci_high']) {
      checkNumber(row.cells[col], want[col], `${key} ${col}`);
    }
  }

  // Instability per query category (TIAP §5.3): every row, every column.
  const byCat = await readRows(page, '#instability-by-category-table');
  assert.ok(cliReport.instability_by_category.length > 0, 'the demo has categories');
  assert.equal(byCat.length, cliReport.instability_by_category.length);
  for (const want of cliReport.instability_by_category) {
    const key = `${want.system}/${want.a}-${want.b}/${want.category}`;
    const row = byCat.find(
      (r) => r.attrs.system === want.system && r.attrs.a === want.a && r.attrs.b === want.b && r.attrs.category === want.category,
    );
    assert.ok(row, `instability_by_category row ${key} missing`);
    assert.equal(row.cells.category.text, want.category, `${key} category`);
    for (const col of ['n', 'ndcg_changed', 'hit_flips', 'top1_flips']) checkInt(row.cells[col], want[col], `${key} ${col}`);
    checkNumber(row.cells.change_rate, want.change_rate, `${key} change_rate`, { fourDecimals: false });
    checkNumber(row.cells.mean_diff_ndcg, want.mean_diff_ndcg, `${key} mean_diff_ndcg`);
  }

  // Aggregations over the per-query nDCG triplet, τ_d from Raw, agreement filtering (TIAP
  // App. B, Table 8): every row, every column, and the population / fallback labels.
  assert.ok(cliReport.aggregations.length > 0, 'the demo has three targets');
  const setting = await page.$eval('#aggregations-setting', (p) => ({ ...p.dataset, text: p.textContent }));
  assert.equal(setting.population, cliReport.aggregations[0].population);
  assert.equal(setting.fallback, cliReport.aggregations[0].fallback);
  assert.match(setting.text, /fallback for targetless queries: raw/);
  const aggs = await readRows(page, '#aggregations-table');
  assert.equal(aggs.length, cliReport.aggregations.length);
  for (const want of cliReport.aggregations) {
    const row = aggs.find((r) => r.attrs.system === want.system);
    assert.ok(row, `aggregations row ${want.system} missing`);
    assert.equal(row.attrs.population, want.population);
    assert.equal(row.attrs.fallback, want.fallback);
    for (const col of ['n', 'source_fallback', 'canonical_fallback']) checkInt(row.cells[col], want[col], `${want.system} ${col}`);
    for (const col of ['raw', 'source', 'canonical', 'arith', 'geom', 'min']) checkNumber(row.cells[col], want[col], `${want.system} ${col}`);
  }
  const taus = await readRows(page, '#kendall-from-raw-table');
  assert.equal(taus.length, cliReport.kendall_from_raw.length);
  for (const want of cliReport.kendall_from_raw) {
    const row = taus.find((r) => r.attrs.aggregation === want.aggregation);
    assert.ok(row, `kendall_from_raw row ${want.aggregation} missing`);
    for (const col of ['systems', 'tau_d', 'max', 'ties']) checkInt(row.cells[col], want[col], `${want.aggregation} ${col}`);
    assert.equal(row.cells.order.text, want.order, `${want.aggregation} order`);
  }
  const agree = await readRows(page, '#agreement-table');
  assert.equal(agree.length, cliReport.agreement.length);
  for (const want of cliReport.agreement) {
    const row = agree.find((r) => r.attrs.system === want.system);
    assert.ok(row, `agreement row ${want.system} missing`);
    for (const col of ['n', 'kept', 'n_all_hit']) checkInt(row.cells[col], want[col], `${want.system} ${col}`);
    checkNumber(row.cells.retention, want.retention, `${want.system} retention`, { fourDecimals: false });
    for (const col of ['spread_kept', 'spread_all_hit']) checkNumber(row.cells[col], want[col], `${want.system} ${col}`);
  }

  // Winner grid: every (pair, target) cell, on the shared subset first, then on all eligible
  // queries; hit rows carry McNemar's p.
  const readGrid = () => page.$$eval('#winner-grid tbody tr', (trs) =>
    trs.map((tr) => ({
      a: tr.dataset.a,
      b: tr.dataset.b,
      flip: tr.dataset.flip,
      cells: [...tr.querySelectorAll('td[data-target]')].map((td) => {
        const cols = {};
        for (const el of td.querySelectorAll('[data-col]')) cols[el.dataset.col] = { value: el.dataset.value, text: el.textContent.trim() };
        return { target: td.dataset.target, winner: td.dataset.winner, significant: td.dataset.significant, n: td.dataset.n, cols };
      }),
    })),
  );
  const checkGrid = async (subset, metric) => {
    assert.deepEqual(await page.$eval('#winner-grid', (t) => [t.dataset.subset, t.dataset.metric]), [subset, metric]);
    const grid = await readGrid();
    let cells = 0;
    for (const want of cliReport.winners.filter((w) => w.subset === subset && w.metric === metric)) {
      const key = `${subset} ${metric} ${want.a} vs ${want.b} @${want.target}`;
      const row = grid.find((r) => r.a === want.a && r.b === want.b);
      assert.ok(row, `winner row ${key} missing`);
      assert.equal(row.flip, String(want.flip), `${key} flip`);
      const cell = row.cells.find((c) => c.target === want.target);
      assert.ok(cell, `winner cell ${key} missing`);
      assert.equal(cell.winner, want.winner ?? '', `${key} winner`);
      assert.equal(cell.significant, String(want.significant), `${key} significant`);
      assert.equal(Number(cell.n), want.n, `${key} n`);
      for (const col of ['delta', 'ci_low', 'ci_high', 'mean_a', 'mean_b']) checkNumber(cell.cols[col], want[col], `${key} ${col}`);
      if (metric === 'hit') check(cell.cols.mcnemar_p, want.mcnemar_p, `${key} mcnemar_p`);
      cells++;
    }
    assert.ok(cells > 0, `${subset} ${metric}: no rows`);
    assert.equal(cells, grid.reduce((s, r) => s + r.cells.length, 0), 'winner grid has cells the CLI does not');
    const flipRows = await page.$$eval('#winner-grid tr.flip', (trs) => trs.length);
    assert.equal(flipRows, grid.filter((r) => r.flip === 'true').length, 'flipping pairs are highlighted');
    return grid;
  };
  await checkGrid('shared', 'ndcg');
  const shared = cliReport.winners.filter((w) => w.subset === 'shared' && w.metric === 'ndcg');
  assert.ok(shared.every((w) => w.n === shared.find((x) => x.a === w.a && x.b === w.b).n), 'one population per pair');
  await page.selectOption('#winners-subset', 'all');
  const all = await checkGrid('all', 'ndcg');
  assert.ok(all.some((r) => r.flip === 'true'), 'the demo has at least one winner flip');
  await page.selectOption('#winners-metric', 'hit');
  await checkGrid('all', 'hit');

  // Settings are printed under every table.
  const captions = await page.$$eval('#results .conventions code', (els) => els.map((e) => e.textContent));
  assert.ok(captions.length >= 8);
  for (const c of captions) assert.equal(c, cliReport.conventions);

  // CSV exports come from the same core call as the CLI's --format csv --table NAME: byte-
  // identical where the numbers use only + − × ÷ and √ (IEEE-exact on every platform).
  // instability's mcnemar_p goes through ln/exp, whose last bit may differ between the
  // platform libm of the native CLI and Rust's wasm32 libm: there, numbers agree to 1e-12.
  for (const table of ['summary', 'winners', 'coverage', 'recommendations', 'instability', 'instability_by_category', 'card', 'mapping']) {
    const csv = await download(page, `button[data-export="${table}"][data-kind="csv"]`);
    const want = cli(rescoreArgs(['--format', 'csv', '--table', table]));
    if (table === 'instability') assertCsvClose(csv, want, table);
    else assert.equal(csv, want, `${table} CSV`);
  }
  const json = JSON.parse(await download(page, 'button[data-export="summary"][data-kind="json"]'));
  assert.deepEqual(json.length, cliReport.summary.length);
  const catJson = JSON.parse(await download(page, 'button[data-export="instability_by_category"][data-kind="json"]'));
  assert.deepEqual(catJson, cliReport.instability_by_category);
  // The reporting card (TIAP Table 14): one row per system, its mapping as the CLI's.
  const cardRows = await page.$$eval('#reporting-card-table tbody tr[data-system]', (trs) => trs.map((tr) => [tr.dataset.system, tr.dataset.mapping]));
  assert.deepEqual(cardRows, cliReport.card.map((c) => [c.system, c.mapping]));
  // Its target mapping, exported next to the trace: the CLI's `mapping` rows.
  const mappingJson = JSON.parse(await download(page, 'button[data-export="mapping"][data-kind="json"]'));
  assert.deepEqual(mappingJson, cliReport.mapping);

  // Drill-down: a ranked list with marks.
  await page.waitForSelector('#drill-items tbody tr[data-rank]');
  const marks = await page.$$eval('#drill-items tbody tr[data-rank]', (trs) => trs.map((tr) => tr.dataset.mark));
  assert.ok(marks.length > 5);
  assert.ok(marks.some((m) => m !== 'none'), 'some item earns credit');
  assert.match(await page.textContent('#multi-anchor-rule'), /maximum matching/);
  // Pick another system and a query through the filter box.
  const sys = cliReport.systems[1];
  await page.selectOption('#drill-system', { label: sys });
  await page.waitForSelector(`#drilldown .drill-result[data-system="${sys}"]`);
  await page.fill('#drill-filter', 'q7');
  const opts = await page.$$eval('#drill-query option[value]:not([value=""])', (os) => os.map((o) => [o.value, o.textContent]));
  assert.ok(opts.length > 0 && opts.every(([, t]) => t.includes('q7')), 'filter narrows the query list');
  await page.selectOption('#drill-query', opts[0][0]);
  await page.waitForSelector(`#drilldown .drill-result[data-query="${opts[0][1].split(' ')[0]}"]`);

  // The histogram is drawn.
  const px = await canvasInkPixels(page);
  assert.ok(px.ink > 2000 && px.bar > 500, `histogram pixels: ${JSON.stringify(px)}`);
  await page.selectOption('#hist-system', { label: cliReport.systems[0] });
  const svg = await download(page, '#export-svg');
  assert.match(svg, /^<svg/);
  assert.match(svg, /<rect/);

  // The top of the page: navigation, intake, settings, what was read and the first results
  // (a full-page shot would be well over 1 MB).
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: SCREENSHOT, fullPage: true, clip: { x: 0, y: 0, width: 1280, height: 1800 } });

  // A malformed file: the error names the file and line; the page keeps working.
  const bad = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'memaudit-bad-')), 'broken.jsonl');
  fs.writeFileSync(bad, '{"memory_id":"m1","anchors":["m1"],"raw":true}\n{"memory_id":"m2","anchors":["m2"],"raw":tru}\n');
  await page.setInputFiles('#file-input', bad);
  await page.waitForSelector('#error');
  assert.equal(await page.textContent('#error-file'), 'broken.jsonl');
  assert.equal(await page.textContent('#error-line'), '2');
  assert.ok((await page.textContent('#error-message')).length > 0);
  await waitReady(page);
  assert.equal(await page.$$eval('#summary-table tbody tr', (t) => t.length), cliReport.summary.length, 'results are still shown');
  // Still responsive: a rescore with other settings works after the error.
  await page.fill('#k', '10');
  await page.click('#apply');
  await page.waitForFunction(() => document.querySelector('#results .conventions code')?.textContent.startsWith('k=10 '));
  await waitReady(page);
  const k10 = JSON.parse(cli(rescoreArgs(['--format', 'json', '--k', '10'])));
  const rows = await readRows(page, '#summary-table');
  for (const want of k10.summary) {
    const row = rows.find((r) => r.attrs.system === want.system && r.attrs.target === want.target && r.attrs.subset === want.subset);
    checkNumber(row.cells.ndcg, want.ndcg, `k=10 ${want.system}/${want.target}/${want.subset} ndcg`);
    checkNumber(row.cells.ndcg_ci_low, want.ndcg_ci_low, `k=10 ${want.system}/${want.target}/${want.subset} ci_low`);
  }
  // Several cutoffs: every table at the largest, the curve at each (and drawn).
  await page.fill('#k', '1,5,10,30');
  await page.click('#apply');
  await page.waitForFunction(() => document.querySelector('#results .conventions code')?.textContent.startsWith('k=1,5,10,30 '));
  await waitReady(page);
  const curve = JSON.parse(cli(rescoreArgs(['--format', 'json', '--k', '1,5,10,30']))).curve;
  const curveRows = await readRows(page, '#curve-table');
  assert.equal(curveRows.length, curve.length, 'curve rows');
  curveRows.forEach((r, i) => {
    const w = curve[i];
    assert.deepEqual([r.attrs.system, r.attrs.target, r.attrs.subset, Number(r.attrs.k)], [w.system, w.target, w.subset, w.k]);
    for (const col of ['ndcg', 'recall', 'hit', 'mrr']) checkNumber(r.cells[col], w[col], `curve ${w.system}/${w.target}/${w.subset}@${w.k} ${col}`);
  });
  assert.ok((await inkPixels(page, '#curve-plot')) > 500, 'the curve is drawn');

  assert.deepEqual(log.errors, []);
  assertOwnFilesOnly(log, [VIEWER]);
  await page.close();
});

// The aggregation card's exports (TIAP App. B), on a fresh page (Chromium stops offering
// downloads after about ten on one page): CSV equal to the CLI's --table output (the
// geometric mean goes through cbrt, whose last bit may differ between native libm and
// wasm32: numbers to 1e-12 there), JSON equal to the CLI's rows.
test('aggregation exports equal the CLI', async () => {
  const { page, log } = await openPage();
  await page.goto(`${srv.origin}${VIEWER}?demo`);
  await waitReady(page);
  await page.waitForSelector('#aggregations-table tbody tr');
  for (const table of ['aggregations', 'kendall_from_raw', 'agreement']) {
    const csv = await download(page, `button[data-export="${table}"][data-kind="csv"]`);
    const want = cli(rescoreArgs(['--format', 'csv', '--table', table]));
    if (table === 'aggregations') assertCsvClose(csv, want, table);
    else assert.equal(csv, want, `${table} CSV`);
  }
  for (const table of ['kendall_from_raw', 'agreement']) {
    const got = JSON.parse(await download(page, `button[data-export="${table}"][data-kind="json"]`));
    assert.deepEqual(got, cliReport[table], `${table} JSON`);
  }
  const aggJson = JSON.parse(await download(page, 'button[data-export="aggregations"][data-kind="json"]'));
  assert.equal(aggJson.length, cliReport.aggregations.length);
  for (const [i, want] of cliReport.aggregations.entries()) {
    for (const [key, v] of Object.entries(want)) {
      if (typeof v === 'number' && !Number.isInteger(v)) assert.ok(Math.abs(aggJson[i][key] - v) < 1e-12, `aggregations JSON ${key}`);
      else assert.equal(aggJson[i][key], v, `aggregations JSON ${key}`);
    }
  }
  assert.deepEqual(log.errors, []);
  assertOwnFilesOnly(log, [VIEWER]);
  await page.close();
});

test('the first screen says what memaudit is before any script runs; the viewer takes its place; a skip link', async () => {
  // No script at all: index.html alone says what memaudit is and what to drop.
  const bare = await openPage();
  await bare.page.route('**/start-*.js', (route) => route.fulfill({ body: '', contentType: 'text/javascript' }));
  await bare.page.goto(`${srv.origin}${VIEWER}`);
  const first = bare.page.locator('#first-screen');
  assert.ok(await first.isVisible(), 'the first screen is drawn');
  const text = await first.innerText();
  for (const words of ['memaudit', 'What to drop', 'never uploaded', 'Starting the viewer']) {
    assert.ok(text.includes(words), `first screen says "${words}": ${text}`);
  }
  assert.equal(await bare.page.locator('#first-screen h1').innerText(), 'memaudit');
  await bare.page.close();

  // With the viewer: the first screen is gone once the app is drawn, and the first Tab
  // reaches the skip link, which moves the focus past the navigation without changing the page.
  const { page, log } = await openPage();
  await page.goto(`${srv.origin}${VIEWER}#rescore`);
  await page.waitForSelector('#nav');
  assert.equal(await page.locator('#first-screen').count(), 0, 'the first screen is taken away');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'skip-link');
  assert.ok(await page.locator('#skip-link').isVisible(), 'the focused skip link is shown');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'page-content');
  assert.equal(await page.evaluate(() => location.hash), '#rescore', 'the page shown stays');
  assert.deepEqual(log.errors, []);
  assertOwnFilesOnly(log, [VIEWER]);
  await page.close();
});

test('?demo loads the demo', async () => {
  const { page, log } = await openPage();
  await page.goto(`${srv.origin}${VIEWER}?demo`);
  await waitReady(page);
  const rows = await readRows(page, '#summary-table');
  assert.equal(rows.length, cliReport.summary.length);
  // The demo is the bundle of static/demo, fetched from dist/demo by the worker.
  const want = cliReport.summary[0];
  const row = rows.find((r) => r.attrs.system === want.system && r.attrs.target === want.target && r.attrs.subset === want.subset);
  checkNumber(row.cells.ndcg, want.ndcg, 'demo ndcg');
  await page.waitForSelector('#drill-items tbody tr[data-rank]');
  // "On this page": the result cards as drawn, then the settings, which follow the results.
  await page.waitForSelector('#contents a[data-card="settings"]');
  const listed = await page.$$eval('#contents a[data-card]', (as) => as.map((a) => a.dataset.card));
  const drawn = await page.$$eval('#results section.card[id]', (ss) => ss.map((s) => s.id));
  assert.deepEqual(listed, [...drawn, 'settings']);
  assert.ok(await page.$eval('#results', (r) =>
    Boolean(r.compareDocumentPosition(document.getElementById('settings')) & Node.DOCUMENT_POSITION_FOLLOWING)));
  const px = await canvasInkPixels(page);
  assert.ok(px.bar > 500, `histogram pixels: ${JSON.stringify(px)}`);
  assert.deepEqual(log.errors, []);
  assertOwnFilesOnly(log, [VIEWER]);
  await page.close();
});

test('?title= and ?about= stand above the pages as text, the title the tab\'s', async () => {
  const { page, log } = await openPage();
  const title = '<img src=x id=injected> Our paper\'s results';
  const about = 'Released files of §5. <b>not bold</b>';
  await page.goto(`${srv.origin}${VIEWER}?demo&title=${encodeURIComponent(title)}&about=${encodeURIComponent(about)}`);
  await waitReady(page);
  assert.equal(await page.textContent('#companion-title'), title);
  assert.equal(await page.textContent('#companion-about'), about);
  assert.equal(await page.locator('#companion img, #companion b, #injected').count(), 0, 'text, never markup');
  assert.equal(await page.title(), `${title} \u2014 memaudit`);
  // Without a title, no companion band.
  await page.goto(`${srv.origin}${VIEWER}?demo&about=alone`);
  await waitReady(page);
  assert.equal(await page.locator('#companion').count(), 0);
  assert.deepEqual(log.errors, []);
  assertOwnFilesOnly(log, [VIEWER]);
  await page.close();
});

test('a demo file missing from dist/ is reported by name, and the demo runs once it is served', async () => {
  const { page, log } = await openPage();
  // The worker fetches the demo from dist/demo/ when it is asked for; here runs.jsonl is missing.
  const requested = [];
  await page.route('**/demo/runs.jsonl', (route) => {
    requested.push(route.request().url());
    return route.fulfill({ status: 404, body: 'not found' });
  });
  await page.goto(`${srv.origin}${VIEWER}#rescore`);
  await page.click('#demo-button');
  await page.waitForSelector('#error');
  assert.match(await page.textContent('#error'), /runs\.jsonl.*could not be loaded from demo\/runs\.jsonl: HTTP 404.*demo\/ folder/s);
  assert.deepEqual(requested, [`${srv.origin}${VIEWER}demo/runs.jsonl`], 'fetched relative to the viewer');
  await page.unroute('**/demo/runs.jsonl');
  await page.click('#demo-button');
  await waitReady(page);
  await page.waitForSelector('#summary-table tbody tr');
  assert.ok(log.errors.every((e) => /404/.test(e)), log.errors.join('\n'));
  assertOwnFilesOnly(log, [VIEWER]);
  await page.close();
});

test('embedding: a site page preloads a bundle with ?bundle=', async () => {
  const { page, log } = await openPage();
  // In every frame: when workers start and when the bundle's last file has downloaded.
  await page.addInitScript(() => {
    window.__workers = [];
    const W = window.Worker;
    window.Worker = class extends W {
      constructor(...a) { super(...a); window.__workers.push(performance.now()); }
    };
    const f = window.fetch;
    window.fetch = async (...a) => {
      const r = await f(...a);
      if (String(a[0]).endsWith('runs.jsonl')) window.__runsFetched = performance.now();
      return r;
    };
  });
  await page.goto(`${srv.origin}${SITE}embed.html`);
  const frame = page.frameLocator('#memaudit-viewer');
  await frame.locator('.app[data-state="ready"]').waitFor({ timeout: 120_000 });
  const n = await frame.locator('#summary-table tbody tr').count();
  assert.equal(n, cliReport.summary.length);
  // The site's title and description of the bundle stand above the viewer's pages, as text.
  assert.equal(await frame.locator('#companion-title').textContent(), 'demo (synthetic)');
  assert.match(await frame.locator('#companion-about').textContent(), /^Synthetic traces: three systems' saved ranked lists/);
  // The worker started while the bundle downloaded, and the run took it: one worker.
  const viewer = page.frames().find((f) => /bundle=/.test(f.url()));
  const { workers, runsFetched } = await viewer.evaluate(() => ({ workers: window.__workers, runsFetched: window.__runsFetched }));
  assert.equal(workers.length, 1, 'one worker');
  assert.ok(runsFetched && workers[0] < runsFetched, `worker started at ${workers[0]} ms, bundle downloaded at ${runsFetched} ms`);
  assert.deepEqual(log.errors, []);
  assertOwnFilesOnly(log, [SITE]);
  await page.close();
});

/** Tries to run an inline script in `page`: the CSP violation it caused, and whether it ran. */
async function injectInlineScript(page) {
  return page.evaluate(
    () =>
      new Promise((resolve) => {
        const timer = setTimeout(() => resolve({ violated: null, ran: window.__inlineRan === true }), 2000);
        document.addEventListener(
          'securitypolicyviolation',
          (e) => {
            clearTimeout(timer);
            setTimeout(() => resolve({ violated: e.effectiveDirective, ran: window.__inlineRan === true }), 50);
          },
          { once: true },
        );
        const s = document.createElement('script');
        s.textContent = 'window.__inlineRan = true;';
        document.head.append(s);
      }),
  );
}

test('a strict Content-Security-Policy is in force, and dist/ holds no inline or live-reload script', async () => {
  const html = fs.readFileSync(path.join(DIST, 'index.html'), 'utf8');
  const policy = html.match(/<meta http-equiv="Content-Security-Policy" content="([^"]+)"/)?.[1];
  assert.ok(policy, 'index.html has a CSP meta');
  for (const d of ["default-src 'none'", "script-src 'self' 'wasm-unsafe-eval'", "connect-src 'self'", "style-src 'self'"]) {
    assert.ok(policy.split('; ').includes(d), `policy has ${d}: ${policy}`);
  }
  // Only style attributes may be inline (plotters measures text with a styled <span>).
  assert.deepEqual(policy.split('; ').filter((d) => /unsafe-inline/.test(d)), ["style-src-attr 'unsafe-inline'"]);
  assert.doesNotMatch(policy, /'unsafe-eval'|https?:|\*/);
  assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script in dist/index.html');
  for (const f of fs.readdirSync(DIST).filter((f) => /\.(js|html)$/.test(f))) {
    assert.doesNotMatch(fs.readFileSync(path.join(DIST, f), 'utf8'), /new WebSocket|__trunk_address__|autoreload/i, `${f}: live-reload code`);
  }
  for (const url of [`${srv.origin}${VIEWER}?demo`, `${srv.origin}${SITE}embed.html`]) {
    const { page } = await openPage();
    await page.goto(url);
    if (url.includes('?demo')) {
      await waitReady(page);
      await page.waitForSelector('#summary-table tbody tr');
    }
    const tried = await injectInlineScript(page);
    assert.deepEqual(tried, { violated: 'script-src-elem', ran: false }, url);
    await page.close();
  }
});

test('the workers run under the same policy where the host sends dist/_headers', async () => {
  const html = fs.readFileSync(path.join(DIST, 'index.html'), 'utf8');
  const policy = html.match(/<meta http-equiv="Content-Security-Policy" content="([^"]+)"/)?.[1];
  const headers = fs.readFileSync(path.join(DIST, '_headers'), 'utf8');
  assert.ok(headers.split('\n').includes(`  Content-Security-Policy: ${policy}`), headers);
  const { page } = await openPage();
  await page.goto(`${srv.origin}${VIEWER}?demo`);
  await waitReady(page);
  await page.waitForSelector('#summary-table tbody tr');
  // The test server sends _headers as a host would: the worker's script comes with the policy.
  const sent = await page.evaluate(async () => (await fetch('worker-loader.js', { method: 'HEAD' })).headers.get('content-security-policy'));
  assert.equal(sent, policy);
  const workers = page.workers();
  assert.ok(workers.length >= 1, 'a worker runs');
  for (const w of workers) {
    // A script from a data: URL is not 'self': refused inside the worker as on the page.
    const tried = await w.evaluate(() => {
      try {
        importScripts('data:text/javascript,self.__ran=1');
        return 'ran';
      } catch (e) {
        return e.name;
      }
    });
    assert.notEqual(tried, 'ran', `${w.url()}: a data: script ran in the worker`);
  }
  await page.close();
});

test('?bundle= that redirects to another origin is refused', async () => {
  const { page } = await openPage();
  await page.goto(`${srv.origin}${VIEWER}?bundle=/redirected`);
  await page.waitForSelector('#error');
  assert.match(await page.textContent('#error'), /redirected\/memories\.jsonl/);
  assert.notEqual(await page.getAttribute('.app', 'data-state'), 'ready');
  await page.close();
});

test('a missing bundle is reported, the page still works', async () => {
  const { page, log } = await openPage();
  await page.goto(`${srv.origin}${VIEWER}?bundle=no-such-dir`);
  await page.waitForSelector('#error');
  assert.match(await page.textContent('#error'), /no-such-dir\/memories\.jsonl.*404/s);
  await page.click('#demo-button');
  await waitReady(page);
  await page.waitForSelector('#summary-table tbody tr');
  // The only console error is the browser's own note about the 404.
  assert.ok(log.errors.every((e) => /404/.test(e)), log.errors.join('\n'));
  await page.close();
});
