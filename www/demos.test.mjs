// Every page's built-in demo (`?demo#<page>` and its "Try the demo" button) in headless
// Chromium: the page's "What the data says" panel equals the `headlines` of the CLI's JSON on
// the same files with the same (default) settings, every headline's card exists, no request
// leaves the page's origin, nothing but the tables scrolls sideways in a 420 px window, and
// axe-core finds no serious or critical accessibility violation on
// the page with its results. With MEMAUDIT_SCREENSHOTS=1 it also writes
// www/screenshots/<page>.png (the results, headlines first) — the committed screenshots.
//
// Run after `trunk build --release` with MEMAUDIT_BIN pointing at a release `memaudit`.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import {
  ROOT, DIST, cli, launch, openPage as open, assertClean as clean, waitReady, checkHeadlines, download,
} from './testkit.mjs';

const VIEWER = '/viewer/';
const DEMO = path.join(ROOT, 'static', 'demo');
const FIX = path.join(ROOT, 'tests', 'reference', 'paper_fixtures');
const TE = path.join(ROOT, 'tests', 'reference', 'trec_eval');
const AXE = fs.readFileSync(path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
const SHOTS = path.join(ROOT, 'www', 'screenshots');

/** Each page: its slug, the panel's id, and the CLI call on the demo's files (run in `cwd`). */
/** The release page's demo: the other pages' demo files side by side (written in `before`). */
const RELEASE = fs.mkdtempSync(path.join(os.tmpdir(), 'memaudit-release-demo-'));
const RELEASE_FILES = [
  ['memories.jsonl', 'memories.jsonl'], ['queries.jsonl', 'queries.jsonl'], ['runs.jsonl', 'runs.jsonl'],
  ['compare/outcomes.csv', 'outcomes.csv'], ['compliance/compliance.csv', 'compliance.csv'],
  ['reclaim/trials.jsonl', 'trials.jsonl'], ['labels/labels.csv', 'labels.csv'], ['README.md', 'README.md'],
];

const PAGES = [
  { slug: 'audit', panel: '#audit-headlines', cwd: RELEASE, args: ['audit', ...RELEASE_FILES.map(([, name]) => name)] },
  { slug: 'rescore', panel: '#headlines', cwd: DEMO, args: ['rescore', '-i', 'memories.jsonl', '-i', 'queries.jsonl', '-i', 'runs.jsonl'] },
  { slug: 'compare', panel: '#compare-headlines', cwd: path.join(DEMO, 'compare'), args: ['compare', '--outcomes', 'outcomes.csv'] },
  { slug: 'probe', panel: '#probe-headlines', cwd: path.join(DEMO, 'probe'), args: ['probe', '--notes', 'notes.jsonl'] },
  { slug: 'reclaim', panel: '#reclaim-headlines', cwd: path.join(DEMO, 'reclaim'), args: ['reclaim', '--trials', 'trials.jsonl'] },
  { slug: 'answers', panel: '#answers-headlines', cwd: path.join(DEMO, 'answers'), args: ['answers', '--input', 'answers.jsonl'] },
  { slug: 'ablation', panel: '#ablation-headlines', cwd: path.join(DEMO, 'ablation'), args: ['ablation', '--input', 'ablation.csv'] },
  { slug: 'claims', panel: '#claims-headlines', cwd: FIX, args: ['claims', '--data', 'seed000_scores.csv', '--claims', 'seed000_claims.csv', '--printed-table', 'seed000_tables.csv'] },
  { slug: 'rules', panel: '#rules-headlines', cwd: FIX, args: ['rules', '--rules', 'seed000_rules.json', '--values', 'seed000_values.json', '--git-log', 'seed000_gitlog.txt'] },
  { slug: 'trec-eval', panel: '#trec-eval-headlines', cwd: TE, args: ['trec-eval', 'test.qrels', 'run_a.run', 'run_b.run'] },
  { slug: 'labels', panel: '#labels-headlines', cwd: path.join(DEMO, 'labels'), args: ['labels', '--labels', 'labels.csv'] },
  { slug: 'calibration', panel: '#calibration-headlines', cwd: path.join(DEMO, 'calibration'), args: ['calibration', '--input', 'routing.csv'] },
  { slug: 'alignment', panel: '#alignment-headlines', cwd: path.join(DEMO, 'alignment'), args: ['alignment', '--input', 'per_query.csv', '--input', 'answers.csv'] },
  { slug: 'compliance', panel: '#compliance-headlines', cwd: path.join(DEMO, 'compliance'), args: ['compliance', '--input', 'compliance.csv'] },
];

let srv;
let ctx;

before(async () => {
  for (const [from, to] of RELEASE_FILES) fs.copyFileSync(path.join(DEMO, from), path.join(RELEASE, to));
  ({ srv, ctx } = await launch({ [VIEWER]: DIST }, 'demos'));
});

after(async () => {
  await ctx?.close();
  srv?.server.close();
});

/** axe-core's serious and critical violations on the page as it is. */
async function axeViolations(page) {
  // Evaluated through the DevTools protocol, not an inline <script>: the page's CSP stays on.
  await page.evaluate(AXE);
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ')}`);
}

for (const p of PAGES) {
  test(`${p.slug} page: ?demo shows what the data says, as the CLI does on the same files`, async () => {
    const { page, log } = await open(ctx);
    await page.goto(`${srv.origin}${VIEWER}?demo#${p.slug}`);
    await waitReady(page, p.slug);
    await page.waitForSelector(`${p.panel} h2`);
    const want = JSON.parse(cli([...p.args, '--format', 'json'], { cwd: p.cwd }));
    const got = await checkHeadlines(page, p.panel, want, p.slug);
    assert.ok(got.length > 0, `${p.slug}: the demo says something`);
    assert.deepEqual(await axeViolations(page), [], `${p.slug}: serious accessibility violations`);
    // Every table of results is made for exploring: each column header sorts, a search box
    // stands above it.
    const tables = await page.$$eval('.table-wrap table', (ts) => ts.map((t) => ({
      id: t.id,
      heads: t.querySelectorAll('thead tr:last-child th').length,
      sorts: t.querySelectorAll('thead tr:last-child th > button.sort').length,
      search: !!t.closest('.explore')?.querySelector(':scope > .table-tools input[type=search]'),
    })));
    assert.ok(tables.length > 0, `${p.slug}: tables on screen`);
    for (const t of tables) {
      assert.ok(t.heads > 0 && t.sorts === t.heads && t.search, `${p.slug}: table ${t.id} sorts and searches: ${JSON.stringify(t)}`);
    }
    if (process.env.MEMAUDIT_SCREENSHOTS === '1') {
      fs.mkdirSync(SHOTS, { recursive: true });
      await page.$eval(p.panel, (el) => el.scrollIntoView());
      await page.screenshot({ path: path.join(SHOTS, `${p.slug}.png`) });
    }
    // A narrow window: nothing scrolls sideways but the tables inside their cards.
    await page.setViewportSize({ width: 420, height: 900 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 1, `${p.slug}: the page scrolls sideways by ${overflow}px at 420px`);
    clean(log, srv.origin, VIEWER);
    await page.close();
  });
}

test('a demo is read again when a setting changes how its files are read', async () => {
  // The IR evaluation scores each run as it is read: other measures read the demo's files again
  // (they are fetched again: a demo's files are not kept).
  const { page, log } = await open(ctx);
  await page.goto(`${srv.origin}${VIEWER}?demo#trec-eval`);
  await waitReady(page, 'trec-eval');
  await page.fill('#trec-eval-measures', 'P.5 recip_rank');
  await page.click('#trec-eval-apply');
  await page.waitForFunction(
    () => document.querySelector('#trec-eval-summary td[data-measure="P_5"]') !== null,
    null,
    { timeout: 60_000 },
  );
  await waitReady(page, 'trec-eval');
  assert.equal(await page.$('#trec-eval-error'), null, 'no error');
  const want = JSON.parse(cli(['trec-eval', '-m', 'P.5', '-m', 'recip_rank', 'test.qrels', 'run_a.run', 'run_b.run', '--format', 'json'], { cwd: TE }));
  await checkHeadlines(page, '#trec-eval-headlines', want, 'trec-eval');
  // Every summary value of every run, and only those (in trec_eval's order).
  const cells = await page.$$eval('#trec-eval-summary td[data-measure]', (tds) => tds.map((td) => [td.dataset.run, td.dataset.measure, td.dataset.value]));
  const expected = want.runs.flatMap((r) => r.names.map((n, i) => [r.file, n.name, r.summary[i]]));
  assert.deepEqual(expected.map(([, m]) => m), ['recip_rank', 'P_5', 'recip_rank', 'P_5']);
  assert.equal(cells.length, expected.length, 'summary cells');
  for (const [run, measure, value] of expected) {
    const c = cells.find(([r, m]) => r === run && m === measure);
    assert.ok(c, `${run} ${measure} shown`);
    assert.ok(Math.abs(Number(c[2]) - value) < 1e-12, `${run} ${measure}: ${c[2]} vs ${value}`);
  }
  clean(log, srv.origin, VIEWER);
  await page.close();
});

test('the "Try the demo" button of a page runs its demo', async () => {
  const { page, log } = await open(ctx);
  await page.goto(`${srv.origin}${VIEWER}#answers`);
  await page.click('#answers-demo-button');
  await waitReady(page, 'answers');
  const p = PAGES.find((x) => x.slug === 'answers');
  // The headlines are brought into view: the panel's top is on screen.
  await page.waitForFunction((sel) => {
    const top = document.querySelector(sel)?.getBoundingClientRect().top;
    return top !== undefined && top >= -2 && top < window.innerHeight * 0.8;
  }, p.panel, { timeout: 5000 });
  await checkHeadlines(page, p.panel, JSON.parse(cli([...p.args, '--format', 'json'], { cwd: p.cwd })), 'answers button');
  clean(log, srv.origin, VIEWER);
  await page.close();
});

/** A table's rows as shown: each row's `data-*` keys and each cell's `data-value` (or text). */
const shownRows = (page, table) => page.$$eval(`${table} tbody tr`, (trs) => trs.map((tr) => ({
  key: JSON.stringify({ ...tr.dataset }),
  cells: Object.fromEntries([...tr.children].map((c) => [c.dataset.col, c.dataset.value ?? c.textContent])),
})));

test('tables sort by any column (numbers as numbers, stable, blanks last) and search their rows', async () => {
  const { page, log } = await open(ctx);
  await page.goto(`${srv.origin}${VIEWER}?demo#answers`);
  await waitReady(page, 'answers');
  const table = '#answers-summary';
  await page.waitForSelector(`${table} tbody tr`);
  const original = await shownRows(page, table);
  assert.ok(original.length >= 4, 'the demo has rows to sort');
  const cols = await page.$$eval(`${table} thead th`, (ths) => ths.map((th) => th.textContent));
  const numeric = Object.keys(original[0].cells).find((c) => original.some((r) => r.cells[c] !== '' && Number.isFinite(Number(r.cells[c])))
    && new Set(original.map((r) => r.cells[c])).size > 1);
  assert.ok(numeric, `a numeric column varies: ${cols}`);
  const index = Object.keys(original[0].cells).indexOf(numeric);
  const header = `${table} thead th:nth-child(${index + 1})`;
  // What the order must be, computed here from the rows as the result gave them.
  const value = (r) => (r.cells[numeric] === '' ? null : Number(r.cells[numeric]));
  const want = (sign) => original.map((r, i) => ({ r, i })).sort((a, b) => {
    const [x, y] = [value(a.r), value(b.r)];
    if (x === null || y === null) return (x === null) - (y === null) || a.i - b.i;
    return sign * (x - y) || a.i - b.i;
  }).map(({ r }) => r.key + JSON.stringify(r.cells));
  const now = async () => (await shownRows(page, table)).map((r) => r.key + JSON.stringify(r.cells));
  await page.click(`${header} button.sort`);
  assert.equal(await page.getAttribute(header, 'aria-sort'), 'ascending');
  assert.deepEqual(await now(), want(1), `ascending by ${numeric}`);
  // Keyboard: Enter on the focused header sorts the other way.
  await page.focus(`${header} button.sort`);
  await page.keyboard.press('Enter');
  assert.equal(await page.getAttribute(header, 'aria-sort'), 'descending');
  assert.deepEqual(await now(), want(-1), `descending by ${numeric}`);
  await page.click(`${header} button.sort`);
  assert.equal(await page.getAttribute(header, 'aria-sort'), null);
  assert.deepEqual(await now(), original.map((r) => r.key + JSON.stringify(r.cells)), 'back to the order of the result');
  // Search: the rows whose text contains the query, any case; the count says how many.
  const texts = await page.$$eval(`${table} tbody tr`, (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent.toLowerCase())));
  const word = texts[1].find((c) => /[a-z]/.test(c) && c.length > 2) ?? texts[1][0];
  const search = page.locator(`.explore:has(${table}) .table-search`);
  await search.fill(word.toUpperCase());
  const matching = texts.filter((cells) => cells.some((c) => c.includes(word))).length;
  assert.equal((await shownRows(page, table)).length, matching, `rows containing ${word}`);
  assert.equal(await page.textContent(`.explore:has(${table}) .table-count`), `${matching} of ${texts.length} rows`);
  await search.fill('no row says this 1f0c9');
  assert.equal((await shownRows(page, table)).length, 0);
  await search.fill('');
  assert.equal((await shownRows(page, table)).length, texts.length);
  clean(log, srv.origin, VIEWER);
  await page.close();
});

/** Every table cell of an HTML document opened in `page`, row by row. */
const cells = (page) => page.$$eval('table tr', (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));

test('report to attach: the page writes what `memaudit report` writes; it opens offline with no request', async () => {
  const { page, log } = await open(ctx);
  await page.goto(`${srv.origin}${VIEWER}?demo#compare`);
  await waitReady(page, 'compare');
  const cwd = path.join(DEMO, 'compare');
  const fromPage = await download(page, '#compare-report-html');
  const fromCli = cli(['report', 'compare', '--outcomes', 'outcomes.csv'], { cwd });
  const json = JSON.parse(cli(['compare', '--outcomes', 'outcomes.csv', '--format', 'json'], { cwd }));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memaudit-attach-'));
  const views = [];
  for (const [name, html] of [['page', fromPage], ['cli', fromCli]]) {
    const file = path.join(dir, `${name}.html`);
    fs.writeFileSync(file, html);
    const view = await ctx.newPage();
    const requests = [];
    view.on('request', (r) => requests.push(r.url()));
    await view.goto(`file://${file}`);
    // Nothing but the file itself is requested: no script, font, image or style from anywhere.
    assert.deepEqual(requests, [`file://${file}`], `${name}: requests`);
    const headlines = await view.$$eval('#headlines li', (lis) => lis.map((li) => li.textContent));
    assert.equal(headlines.length, json.headlines.length, `${name}: headlines`);
    json.headlines.forEach((h, i) => assert.ok(headlines[i].includes(h.text) && headlines[i].includes(h.evidence), `${name}: ${h.text}`));
    assert.equal(await view.$$eval('figure svg', (s) => s.length), 3, `${name}: forest plot, CD diagram and win-rate matrix inline`);
    views.push({ view, cells: await cells(view) });
    // Printed on A4 landscape (297 mm less 10 mm margins, 96 px an inch): every column of
    // every table is on the page, nothing cut at the right edge.
    await view.emulateMedia({ media: 'print' });
    await view.setViewportSize({ width: 1047, height: 740 });
    const widest = await view.$$eval('table', (ts) => ts.map((t) => [t.closest('section')?.querySelector('h3, h2')?.textContent, t.getBoundingClientRect().right]));
    for (const [title, right] of widest) assert.ok(right <= 1047 + 1, `${name}: table ${title} ends at ${right}px in print`);
    const pdf = await view.pdf({ format: 'A4', landscape: true, preferCSSPageSize: true });
    assert.ok(pdf.length > 10_000 && pdf.subarray(0, 5).toString() === '%PDF-', `${name}: a PDF prints`);
    await view.emulateMedia({ media: 'screen' });
  }
  // The same tables, cell for cell (numbers to 1e-9: wasm and native special functions may
  // differ in the last bits); the input files with the same SHA-256.
  const [a, b] = views.map((v) => v.cells);
  assert.equal(a.length, b.length, 'rows');
  a.forEach((row, i) => row.forEach((c, j) => {
    const x = Number(c);
    const y = Number(b[i][j]);
    if (c !== '' && Number.isFinite(x) && Number.isFinite(y)) assert.ok(Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(y)), `cell ${i},${j}: ${c} vs ${b[i][j]}`);
    else assert.equal(c, b[i][j], `cell ${i},${j}`);
  }));
  for (const v of views) await v.view.close();
  // The Markdown variant.
  const md = await download(page, '#compare-report-md');
  assert.ok(md.startsWith('# memaudit compare report') && md.includes(json.headlines[0].text));
  clean(log, srv.origin, VIEWER);
  await page.close();
});
