// End-to-end tests of the viewer's comparison, probe and reclaim pages in headless Chromium
// (node:test + playwright-core), against the native CLI's JSON for the same files and settings.
//
// Needs: `trunk build --release` (-> dist/), /usr/bin/chromium, the native CLI in MEMAUDIT_BIN
// and the fixtures in ../shared/fixtures/external. Run: MEMAUDIT_BIN=... npm run e2e
//
// Every number checked carries its full precision in `data-value` (compared to 1e-9). The pages
// must raise no error, log no console error, and request nothing but their own files.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import {
  ROOT, TOL, cli, cliRefusal, launch, openPage as open, assertClean as clean, waitReady, readRows, checkNumber, inkPixels,
  download, assertCsvClose, assertDeepClose, checkHeadlines,
} from './testkit.mjs';

/** The words of a POSIX shell command line that quotes with single quotes only (the CLI twin). */
function shellWords(line) {
  const words = [];
  let word = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (c === '\\') {
      word = (word ?? '') + line[++i];
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== null) words.push(word);
  return words;
}


const DIST = path.join(ROOT, 'dist');
const EXT = path.resolve(ROOT, '..', 'shared', 'fixtures', 'external');
const SRCCONCL = path.join(EXT, 'reclaim-eval', 'srcconcl_llama_arith.jsonl');
const REALWORLD = path.join(EXT, 'reclaim-eval', 'realworld_meta-llama_llama-3.1-8b-instruct_arith_t0.7.jsonl');
const FIX = path.join(EXT, 'reclaim-eval', 'fix_x-ai_grok-4.3-20260430_arith.jsonl');
const HEDGE = path.join(ROOT, 'tests', 'reference', 'reclaim_hedge', 'blank_strict_grok-4.3.head54.jsonl');
const BRIEFBENCH = path.join(EXT, 'BriefBench', 'all_rows_claude.jsonl');
const MEMOBASE = path.join(EXT, 'memobase', 'memobase_eval_0503_3000.json');
const JUDGES = path.join(ROOT, 'tests', 'reference', 'judges', 'judge_file.json');
const DEMO = path.join(ROOT, 'static', 'demo');
const VIEWER = '/viewer/';

let srv;
let ctx;

before(async () => {
  for (const f of [SRCCONCL, REALWORLD, FIX, BRIEFBENCH]) assert.ok(fs.existsSync(f), `fixture missing: ${f}`);
  ({ srv, ctx } = await launch({ [VIEWER]: DIST }, 'pages'));
});

after(async () => {
  await ctx?.close();
  srv?.server.close();
});

const openPage = () => open(ctx);
const assertClean = (log) => clean(log, srv.origin, VIEWER);

/** Every arm and every contrast on the comparison page equals the CLI's JSON. */
async function checkComparison(page, want) {
  const arms = await readRows(page, '#arms-table');
  assert.equal(arms.length, want.arms.length, 'arm rows');
  for (const a of want.arms) {
    const row = arms.find((r) => r.attrs.arm === a.arm);
    assert.ok(row, `arm ${a.arm} missing`);
    assert.equal(Number(row.cells.n.value), a.n, `${a.arm} n`);
    for (const col of ['mean', 'ci_low', 'ci_high', 'mean_rank', 'win_rate']) checkNumber(row.cells[col], a[col], `${a.arm} ${col}`);
    assert.equal(Number(row.cells.copeland.value), a.copeland, `${a.arm} copeland`);
    if (a.binary) for (const col of ['wilson_low', 'wilson_high']) checkNumber(row.cells[col], a[col], `${a.arm} ${col}`);
  }
  const pairs = await readRows(page, '#pairs-table');
  assert.equal(pairs.length, want.pairs.length, 'contrast rows');
  for (const p of want.pairs) {
    const key = `${p.a} − ${p.b}`;
    const row = pairs.find((r) => r.attrs.a === p.a && r.attrs.b === p.b);
    assert.ok(row, `contrast ${key} missing`);
    assert.equal(row.attrs.significant, String(p.significant), `${key} significant`);
    for (const col of ['diff', 'ci_low', 'ci_high', 'p_value', 'p_holm', 'p_bh', 'permutation_p', 'win_rate']) checkNumber(row.cells[col], p[col], `${key} ${col}`);
    assert.equal(Number(row.cells.wins.value), p.wins, `${key} wins`);
  }
  const conv = await page.$$eval('#compare-results .conventions code', (els) => els.map((e) => e.textContent));
  assert.ok(conv.length >= 4, 'settings are shown next to every result');
  for (const c of conv) assert.equal(c, want.conventions);
}

/** Makes the spec panel read key = pid × seed, arm = policy, value = correct; runs if it had to change anything. */
async function setSpec(page, { key, arm, value }) {
  let changed = false;
  const columns = await page.$$eval('#spec-columns tbody tr', (trs) => trs.map((tr) => tr.dataset.column));
  for (const col of columns) {
    for (const [role, want] of [['key', key.includes(col)], ['arm', arm.includes(col)]]) {
      const box = `#spec-columns tr[data-column="${col}"] input[data-role="${role}"]`;
      if ((await page.isChecked(box)) !== want) {
        await page.setChecked(box, want);
        changed = true;
      }
    }
  }
  if ((await page.inputValue('#spec-value')) !== `col:${value}`) {
    await page.selectOption('#spec-value', `col:${value}`);
    changed = true;
  }
  return changed;
}

test('comparison page: reclaim-eval srcconcl file equals memaudit compare, click-through, refusal', async () => {
  const { page, log } = await openPage();
  await page.goto(`${srv.origin}${VIEWER}#compare`);
  await page.waitForSelector('#compare-file-input', { state: 'attached' });
  assert.equal(await page.getAttribute('#nav-compare', 'aria-current'), 'page');
  await page.setInputFiles('#compare-file-input', SRCCONCL);
  await waitReady(page, 'compare');
  await page.waitForSelector('#arms-table tbody tr');
  assert.equal(await page.getAttribute('#compare-files tr[data-file="srcconcl_llama_arith.jsonl"] [data-format]', 'data-format'), 'reclaim_eval');
  assert.ok((await page.$$eval('#spec-reasons li', (l) => l.length)) >= 3, 'the inference says why');

  if (await setSpec(page, { key: ['pid', 'seed'], arm: ['policy'], value: 'correct' })) {
    await page.click('#compare-run');
    await waitReady(page, 'compare');
  }
  assert.equal(await page.textContent('#spec-key'), 'pid × seed');
  assert.equal(await page.textContent('#pairing-ok'), 'Paired: 96 items × 3 arms.');

  const base = ['compare', '--outcomes', SRCCONCL, '--item', 'pid,seed', '--arm', 'policy', '--value', 'correct'];
  const want = JSON.parse(cli([...base, '--format', 'json']));
  await checkComparison(page, want);
  await checkHeadlines(page, '#compare-headlines', want, 'compare');
  // The contrasts show their essentials; the export's other columns are folded, one click away,
  // with the CLI's values.
  const folded = Number(await page.getAttribute('#pairs-table', 'data-folded'));
  assert.ok(folded >= 10, `the contrasts fold their secondary columns (${folded})`);
  assert.equal(await page.isVisible('#pairs-table th.folded >> nth=0'), false, 'folded at first');
  const foldButton = page.locator('#pairs').locator('button.table-fold');
  assert.match(await foldButton.textContent(), new RegExp(`\\(${folded} more\\)`));
  await foldButton.click();
  assert.equal(await foldButton.getAttribute('aria-pressed'), 'true');
  assert.equal(await page.isVisible('#pairs-table th.folded >> nth=0'), true, 'unfolded on request');
  const unfolded = await readRows(page, '#pairs-table');
  for (const p of want.pairs) {
    const row = unfolded.find((r) => r.attrs.a === p.a && r.attrs.b === p.b);
    for (const col of ['mcnemar_p', 'mcnemar_mid_p', 'kappa']) checkNumber(row.cells[col], p[col], `${p.a} − ${p.b} folded ${col}`);
    assert.equal(Number(row.cells.b_count.value), p.b_count, `${p.a} − ${p.b} folded b_count`);
  }
  await foldButton.click();
  const f = await page.$eval('#friedman-line', (p) => ({ ...p.dataset }));
  assert.ok(Math.abs(Number(f.chi2) - want.friedman.chi2) <= TOL && Math.abs(Number(f.cd) - want.friedman.cd) <= TOL);
  assert.equal(Number(await page.getAttribute('#cliques', 'data-count')), want.friedman.cliques.length);

  // Plots are drawn; the forest plot's first row is clickable.
  for (const id of ['#forest-plot', '#cd-diagram', '#posterior-plot', '#win-rate-plot']) {
    assert.ok((await inkPixels(page, id)) > 1500, `${id} has pixels`);
  }
  const box = await page.$eval('#forest-plot', (c) => ({ w: c.clientWidth, h: c.clientHeight, cw: c.width, ch: c.height }));
  // Row 0 of the forest plot is centred at y = 50 canvas pixels (title 34 + 6, rows of 20).
  await page.click('#forest-plot', { position: { x: box.w / 2, y: (50 * box.h) / box.ch } });
  await page.waitForSelector('#items-table tbody tr');
  const first = want.pairs[0];
  assert.equal(await page.getAttribute('#items-table', 'data-selection'), `${first.a}−${first.b}`);
  assert.equal(Number(await page.getAttribute('#items-table', 'data-total')), want.n_items);
  const items = await readRows(page, '#items-table');
  for (const r of items) checkNumber(r.cells.diff, Number(r.cells.a.value) - Number(r.cells.b.value), `item ${r.attrs.item}`);
  // An arm row shows the arm's items with their ranks.
  await page.click(`#arms-table tr[data-arm="${want.arms[2].arm}"]`);
  await page.waitForSelector(`#items-table[data-selection="${want.arms[2].arm}"] tbody tr`);

  // Exports: CSV as the CLI's --format csv, LaTeX as --format latex, the SVG from the same drawing.
  assertCsvClose(await download(page, 'button[data-export="pairs"][data-kind="csv"]'), cli([...base, '--format', 'csv', '--table', 'pairs']), 'pairs');
  assertCsvClose(await download(page, 'button[data-export="arms"][data-kind="csv"]'), cli([...base, '--format', 'csv', '--table', 'arms']), 'arms');
  assert.equal(await download(page, '#export-latex'), cli([...base, '--format', 'latex']));
  const json = JSON.parse(await download(page, '#export-compare-json'));
  assert.deepEqual(Object.keys(json).sort(), Object.keys(want).sort());
  const svg = await download(page, '#forest-plot-svg');
  assert.match(svg, /^<svg/);
  assert.equal((svg.match(/<circle/g) || []).length, want.pairs.length, 'one marker per contrast in the SVG');
  assert.match(await download(page, '#cd-diagram-svg'), /CD = /);
  // The win-rate matrix writes each pair's share in its cells, both ways.
  const matrix = await download(page, '#win-rate-plot-svg');
  for (const p of want.pairs) {
    for (const w of [p.win_rate, 1 - p.win_rate]) assert.match(matrix, new RegExp(`>\\s*${w.toFixed(2).replace('.', '\\.')}\\s*<`), `win rate ${w.toFixed(2)} in the matrix`);
  }

  // Other settings re-run on the kept table (no file read) and still equal the CLI.
  await page.fill('#cmp-bootstrap', '2000');
  await page.fill('#cmp-seed', '7');
  await page.selectOption('#cmp-ci', 'percentile');
  await page.click('#compare-run');
  await page.waitForFunction(() => document.querySelector('#arms .conventions code')?.textContent.includes('seed=7'));
  await waitReady(page, 'compare');
  await checkComparison(page, JSON.parse(cli([...base, '--bootstrap', '2000', '--seed', '7', '--ci', 'percentile', '--format', 'json'])));

  // BriefBench rows carry no item id: refused, with the core's message verbatim.
  await page.click('#compare-clear-files');
  await page.setInputFiles('#compare-file-input', BRIEFBENCH);
  await page.waitForSelector('#refusal-message', { timeout: 120_000 });
  // The page keeps the settings chosen above (2000 percentile resamples, seed 7).
  const refusal = cliRefusal(['compare', '--outcomes', BRIEFBENCH, '--bootstrap', '2000', '--seed', '7', '--ci', 'percentile', '--format', 'json']);
  // The core's message verbatim, each setting it mentions named as the page labels it (the
  // spec table's `key` column, the "pair by position" checkbox) where the CLI gives its option.
  const pageWords = (t) => t.replaceAll('--key', '\u201ckey\u201d').replaceAll('--pair-by-position', '\u201cpair by position\u201d');
  assert.equal((await page.textContent('#refusal-message')).trim(), pageWords(refusal.refused.replaceAll(BRIEFBENCH, 'all_rows_claude.jsonl')));
  assert.equal((await page.textContent('label[for="pair-by-position"]')).trim(), 'pair by position');
  assert.equal(await page.$('#arms-table'), null, 'no comparison is shown for unpaired data');
  // The refusal's headlines: the alert first, then each arm on its own.
  const refusalHeadlines = refusal.headlines.map((h) => ({ ...h, evidence: pageWords(h.evidence.replaceAll(BRIEFBENCH, 'all_rows_claude.jsonl')) }));
  assert.equal(refusalHeadlines[0].level, 'alert');
  await checkHeadlines(page, '#compare-headlines', { headlines: refusalHeadlines }, 'refusal');
  // … but each arm without pairing, as the CLI's `unpaired.arms`.
  const unpaired = await readRows(page, '#unpaired-table');
  assert.equal(unpaired.length, refusal.unpaired.arms.length);
  assert.ok(unpaired.length >= 2);
  unpaired.forEach((r, i) => {
    const want = refusal.unpaired.arms[i];
    assert.equal(r.attrs.arm, want.arm);
    assert.equal(Number(r.cells.n.value), want.n);
    for (const col of ['mean', 'ci_low', 'ci_high', 'wilson_low', 'wilson_high', 'clopper_pearson_low', 'clopper_pearson_high']) {
      checkNumber(r.cells[col], want[col], `unpaired ${want.arm} ${col}`);
    }
  });

  // One system's judge file (Memobase's LoCoMo answers): no arm column, so nothing to compare;
  // its summary overall and per category is the result, as `memaudit compare --per` gives it.
  await page.click('#compare-clear-files');
  await page.setInputFiles('#compare-file-input', MEMOBASE);
  await page.waitForSelector('#unpaired-table', { timeout: 120_000 });
  await page.selectOption('#cmp-per', 'category');
  await page.click('#compare-run');
  await page.waitForFunction(() => document.querySelectorAll('#unpaired-table tbody tr').length > 1, null, { timeout: 120_000 });
  await waitReady(page, 'compare');
  const one = JSON.parse(cli(['compare', '--outcomes', MEMOBASE, '--per', 'category', '--bootstrap', '2000', '--seed', '7', '--ci', 'percentile', '--format', 'json']));
  assert.equal(one.headlines[0].level, 'context');
  assert.match(one.headlines[0].text, /^One arm only/);
  const rows = await readRows(page, '#unpaired-table');
  assert.equal(rows.length, one.unpaired.arms.length);
  assert.equal(rows.length, 5, 'the file, then categories 1 to 4');
  rows.forEach((r, i) => {
    const want = one.unpaired.arms[i];
    assert.equal(r.attrs.arm, want.arm);
    assert.equal(r.attrs.group, want.group);
    assert.equal(Number(r.cells.n.value), want.n);
    for (const col of ['mean', 'ci_low', 'ci_high', 'wilson_low', 'wilson_high', 'clopper_pearson_low', 'clopper_pearson_high']) {
      checkNumber(r.cells[col], want[col], `one system ${want.group} ${col}`);
    }
  });

  // One system judged three times per question (locomo-audit's shape): the judges' agreement,
  // as `memaudit compare --table judges` gives it.
  await page.click('#compare-clear-files');
  await page.setInputFiles('#compare-file-input', JUDGES);
  await page.waitForSelector('#judges-table', { timeout: 120_000 });
  await waitReady(page, 'compare');
  const judged = JSON.parse(cli(['compare', '--outcomes', JUDGES, '--per', 'category', '--bootstrap', '2000', '--seed', '7', '--ci', 'percentile', '--format', 'json']));
  const judges = await readRows(page, '#judges-table');
  assert.equal(judges.length, judged.unpaired.judges.length);
  assert.equal(judges.length, 1);
  const j = judged.unpaired.judges[0];
  assert.equal(judges[0].attrs.arm, j.arm);
  for (const col of ['items', 'incomplete', 'unanimous']) assert.equal(Number(judges[0].cells[col].value), j[col], col);
  checkNumber(judges[0].cells.fleiss_kappa, j.kappa, 'judges kappa');
  checkNumber(judges[0].cells.kappa_low, j.kappa_low, 'judges kappa_low');
  checkNumber(judges[0].cells.kappa_high, j.kappa_high, 'judges kappa_high');

  assertClean(log);
  await page.close();
});

test('comparison page: contrasts per stratum equal memaudit compare --per, forest plot grouped by stratum', async () => {
  const { page, log } = await openPage();
  await page.goto(`${srv.origin}${VIEWER}#compare`);
  await page.setInputFiles('#compare-file-input', SRCCONCL);
  await waitReady(page, 'compare');
  await setSpec(page, { key: ['pid', 'seed'], arm: ['policy'], value: 'correct' });
  await page.selectOption('#cmp-per', 'seed');
  await page.fill('#cmp-bootstrap', '2000');
  await page.click('#compare-run');
  await page.waitForSelector('#strata-table tbody tr', { timeout: 120_000 });
  await waitReady(page, 'compare');
  const want = JSON.parse(cli(['compare', '--outcomes', SRCCONCL, '--item', 'pid,seed', '--arm', 'policy', '--value', 'correct', '--per', 'seed', '--bootstrap', '2000', '--format', 'json']));
  assert.equal(want.by_stratum.length, 3);
  // The overall tables are unchanged by --per; one stratum's contrasts equal the CLI's.
  await checkComparison(page, want);
  const stratum = want.by_stratum[1];
  const rows = (await readRows(page, '#strata-table')).filter((r) => r.attrs.stratum === stratum.value);
  assert.equal(rows.length, stratum.pairs.length);
  for (const p of stratum.pairs) {
    const row = rows.find((r) => r.attrs.a === p.a && r.attrs.b === p.b);
    assert.ok(row, `${stratum.value}: ${p.a} − ${p.b} missing`);
    assert.equal(Number(row.cells.n_items.value), stratum.n_items);
    for (const col of ['mean_a', 'mean_b', 'diff', 'ci_low', 'ci_high', 'p_value', 'p_holm', 'p_bh', 'interaction_p_greater', 'interaction_p_less']) checkNumber(row.cells[col], p[col], `seed ${stratum.value} ${p.a} − ${p.b} ${col}`);
    assert.equal(row.attrs.significant, String(p.significant));
  }
  assert.equal((await readRows(page, '#strata-table')).length, want.by_stratum.reduce((n, s) => n + s.pairs.length, 0));
  // The forest plot groups its rows by stratum: one marker per stratum contrast, one heading per stratum.
  assert.equal(await page.inputValue('#forest-order'), 'stratum');
  const svg = await download(page, '#forest-plot-svg');
  assert.equal((svg.match(/<circle/g) || []).length, want.by_stratum.reduce((n, s) => n + s.pairs.length, 0));
  for (const s of want.by_stratum) assert.ok(svg.includes(`seed = ${s.value} (${s.n_items} items)`), `heading of seed ${s.value}`);
  // The CLI's CSV, to the last digit but one (wasm's exp/ln may differ from the native ones in the last bit).
  assertCsvClose(await download(page, 'button[data-export="strata"][data-kind="csv"]'), cli(['compare', '--outcomes', SRCCONCL, '--item', 'pid,seed', '--arm', 'policy', '--value', 'correct', '--per', 'seed', '--bootstrap', '2000', '--format', 'csv', '--table', 'strata']), 'strata CSV');
  assertDeepClose(JSON.parse(await download(page, 'button[data-export="strata"][data-kind="json"]')), want.by_stratum, 'strata JSON');
  assert.match(await page.textContent('#strata .conventions code'), / per=seed$/);
  assertClean(log);
  await page.close();
});

test('comparison page: "Use this rescoring" compares system × target', async () => {
  const { page, log } = await openPage();
  await page.goto(`${srv.origin}${VIEWER}?demo`);
  await page.waitForSelector('.app[data-state="ready"] #use-rescoring', { timeout: 120_000 });
  await page.click('#use-rescoring');
  await waitReady(page, 'compare');
  assert.equal(await page.evaluate(() => location.hash), '#compare');
  // Canonical has fewer eligible queries: refused with how to fix it, naming the checkbox by
  // its label on this page (the CLI says --allow-incomplete).
  const fix = (await page.textContent('label[for="allow-incomplete"]')).trim();
  assert.match(await page.textContent('#refusal-message'), new RegExp(`use \u201c${fix}\u201d to compare`));
  await page.check('#allow-incomplete');
  await page.click('#compare-run');
  await page.waitForSelector('#arms-table tbody tr', { timeout: 120_000 });

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memaudit-rescore-'));
  const report = path.join(dir, 'report.json');
  fs.writeFileSync(report, cli(['rescore', '-m', path.join(DEMO, 'memories.jsonl'), '-q', path.join(DEMO, 'queries.jsonl'), '-r', path.join(DEMO, 'runs.jsonl'), '--format', 'json']));
  const want = JSON.parse(cli(['compare', '--outcomes', report, '--allow-incomplete', '--format', 'json']));
  assert.equal(want.arms.length, 12, 'four demo systems × three targets');
  await checkComparison(page, want);
  assertClean(log);
  await page.close();
});

test('probe page: the § A2.2 notebook note, highlighted as text; the realworld batch equals memaudit probe', async () => {
  const { page, log } = await openPage();
  await page.goto(`${srv.origin}${VIEWER}#probe`);
  // The live probe runs in the worker, which may still be compiling its wasm on a loaded machine:
  // requests queue until it is up, so wait for the page, then give the first verdict time.
  await page.waitForSelector('#page-probe', { timeout: 120_000 });
  // The first result must not re-create the fields above it (a user typing in `source` while it
  // arrives would lose focus and the keystrokes): the same elements before and after.
  const fields = ['#probe-note', '#probe-source', '#probe-stale', '#probe-example'];
  await page.evaluate((sels) => {
    window.__fields = sels.map((s) => document.querySelector(s));
  }, fields);
  await page.fill('#probe-note', 'pens at $2, total $55');
  await page.waitForSelector('#probe-view, #probe-live-error', { timeout: 120_000 });
  assert.deepEqual(
    await page.evaluate((sels) => sels.map((s, i) => window.__fields[i] === document.querySelector(s)), fields),
    [true, true, true, true],
    'the first live result re-created the input fields',
  );
  await page.fill('#probe-note', '(Memory of an earlier session.) You concluded the total before tax was $55.');
  await page.fill('#probe-source', 'notebooks at $4 each (7 bought) and pens at $2 each (9 bought)');
  await page.fill('#probe-stale', '$55');
  await page.waitForSelector('#probe-verdict[data-verdict="silent"]', { timeout: 120_000 });
  assert.equal(await page.getAttribute('#probe-other-verdict', 'data-verdict'), 'uncorrectable_silent');
  assert.deepEqual(await page.$$eval('#probe-highlighted mark.hl-stale', (m) => m.map((x) => x.textContent)), ['$55']);
  assert.match(await page.textContent('#probe-explanation'), /silent-uncorrectable/);
  await page.check('#probe-mode-reference');
  await page.waitForSelector('#probe-verdict[data-verdict="uncorrectable_silent"]');
  assert.equal(await page.getAttribute('#probe-other-verdict', 'data-verdict'), 'silent');
  assert.deepEqual(await page.$$eval('#probe-highlighted mark.hl-stale', (m) => m.map((x) => x.textContent)), ['$55']);

  // User text is text: markup in a note is shown, never parsed.
  await page.fill('#probe-note', '<img src=x onerror="window.__pwned=1"> pens at $2, total $55');
  await page.waitForFunction(() => document.querySelector('#probe-highlighted')?.textContent.startsWith('<img'));
  assert.equal(await page.$('#probe-highlighted img'), null);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);

  // A batch: counts, rates and recovery per verdict, both modes, as the CLI.
  await page.setInputFiles('#probe-file-input', REALWORLD);
  await waitReady(page, 'probe');
  await page.waitForSelector('#probe-results');
  const want = JSON.parse(cli(['probe', '--notes', REALWORLD, '--format', 'json']));
  await checkHeadlines(page, '#probe-headlines', want, 'probe');
  // Results first: "On this page" lists the cards, and what was read comes after the notes.
  await page.waitForSelector('#probe-contents a[data-card="probe-notes"]');
  const cards = await page.$$eval('#probe-contents a[data-card]', (as) => as.map((a) => a.dataset.card));
  assert.ok(cards.indexOf('probe-summary') < cards.indexOf('probe-notes') && cards.indexOf('probe-notes') < cards.indexOf('probe-reading'), `${cards}`);
  assert.equal(Number(await page.getAttribute('#probe-notes-table', 'data-total')), want.notes.length);
  const counts = await readRows(page, '#probe-counts');
  const rates = await readRows(page, '#probe-rates');
  const byVerdict = await readRows(page, '#probe-by-verdict');
  const confusion = await readRows(page, '#probe-confusion');
  for (const mode of ['itemized', 'reference']) {
    const m = want.side_by_side[mode];
    for (const [verdict, n] of Object.entries(m.summary.counts)) {
      const row = counts.find((r) => r.attrs.mode === mode && r.attrs.verdict === verdict);
      assert.ok(row, `${mode}/${verdict} count missing`);
      assert.equal(Number(row.cells.count.value), n, `${mode}/${verdict} count`);
    }
    const r = rates.find((x) => x.attrs.mode === mode);
    for (const col of ['silent_rate', 'silent_low', 'silent_high', 'unflagged_rate', 'unflagged_low', 'unflagged_high']) {
      checkNumber(r.cells[col], m.summary[col], `${mode} ${col}`);
    }
    for (const v of m.by_verdict) {
      const row = byVerdict.find((x) => x.attrs.mode === mode && x.attrs.verdict === v.verdict);
      assert.equal(Number(row.cells.n.value), v.n, `${mode}/${v.verdict} n`);
      assert.equal(Number(row.cells.recovered.value), v.recovered, `${mode}/${v.verdict} recovered`);
      for (const col of ['rate', 'low', 'high']) checkNumber(row.cells[col], v[col], `${mode}/${v.verdict} ${col}`);
    }
    const c = confusion.find((x) => x.attrs.mode === mode);
    for (const col of ['accuracy', 'precision', 'npv', 'sensitivity', 'specificity']) checkNumber(c.cells[col], m.confusion[col], `${mode} ${col}`);
  }
  for (const cell of want.side_by_side.agreement) {
    const notes = await page.getAttribute(`#probe-agreement tr[data-itemized="${cell.itemized}"] td[data-reference="${cell.reference}"]`, 'data-notes');
    assert.equal(Number(notes), cell.notes, `${cell.itemized} × ${cell.reference}`);
  }
  assert.ok((await inkPixels(page, '#probe-verdict-chart')) > 5000, 'verdict bars drawn');
  assert.equal(await download(page, 'button[data-export="notes"][data-kind="csv"]'), cli(['probe', '--notes', REALWORLD, '--format', 'csv', '--table', 'notes']));
  // Paging and a note's highlights.
  await page.click('#probe-page-next');
  await page.waitForSelector('#probe-notes-table tr[data-index="50"]');
  await page.click('#probe-notes-table tr[data-index="50"]');
  await page.waitForSelector('#probe-detail-highlighted');
  assert.equal(await page.getAttribute('#probe-detail-verdict', 'data-verdict'), want.notes[50].verdict);

  assertClean(log);
  await page.close();
});

test('probe page: plain-text notes (one per paragraph) with their source file equal memaudit probe --source-file', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memaudit-plain-'));
  const notes = path.join(dir, 'session_notes.txt');
  const source = path.join(dir, 'source.txt');
  fs.writeFileSync(notes, 'You concluded the total before tax was $55.\n\nNotebooks: 7 at $4 each.\nPens: 9 at $2 each.\n\nPens at $2.\n');
  fs.writeFileSync(source, 'notebooks at $4 each (7 bought) and pens at $2 each (9 bought)\n');
  const { page, log } = await openPage();
  await page.goto(`${srv.origin}${VIEWER}#probe`);
  await page.waitForSelector('#probe-file-input', { state: 'attached' });
  await page.setInputFiles('#probe-file-input', [notes, source]);
  await waitReady(page, 'probe');
  await page.waitForSelector('#probe-results');
  assert.equal(await page.getAttribute('#probe-files tr[data-file="source.txt"]', 'data-kind'), 'source text');
  const args = ['probe', '--notes', notes, '--source-file', source];
  const want = JSON.parse(cli([...args, '--format', 'json']));
  assert.equal(want.notes.length, 3);
  assert.equal(Number(await page.getAttribute('#probe-notes-table', 'data-total')), 3);
  assert.equal(await download(page, 'button[data-export="notes"][data-kind="csv"]'), cli([...args, '--format', 'csv', '--table', 'notes']));
  assertClean(log);
  await page.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('reclaim page: cells equal memaudit reclaim, with both resamplers', async () => {
  const { page, log } = await openPage();
  await page.goto(`${srv.origin}${VIEWER}#reclaim`);
  await page.setInputFiles('#reclaim-file-input', FIX);
  await waitReady(page, 'reclaim');
  await page.waitForSelector('#reclaim-cells tbody tr');

  const check = async (want) => {
    const rows = await readRows(page, '#reclaim-cells');
    assert.equal(rows.length, want.cells.length, 'cell rows');
    for (const c of want.cells) {
      const key = `${c.policy}/g=${c.integrity}/${c.arm}`;
      const row = rows.find(
        (r) => r.attrs.policy === c.policy && Number(r.attrs.integrity) === c.integrity && r.attrs.arm === (c.arm ?? '') && r.attrs.model === (c.model ?? ''),
      );
      assert.ok(row, `cell ${key} missing`);
      for (const col of ['n', 'problems', 'recovered']) assert.equal(Number(row.cells[col].value), c[col], `${key} ${col}`);
      for (const col of ['rr', 'rr_low', 'rr_high', 'abstain_rate', 'emit_rate']) checkNumber(row.cells[col], c[col], `${key} ${col}`);
      checkNumber(row.cells.attractor_per_n, c.attractor_per_n.rate, `${key} attractor_per_n`);
    }
  };
  await check(JSON.parse(cli(['reclaim', '--trials', FIX, '--format', 'json'])));
  assert.ok((await inkPixels(page, '#reclaim-plot')) > 5000, 'RR plot drawn');
  assert.equal(await download(page, 'button[data-export="cells"][data-kind="csv"]'), cli(['reclaim', '--trials', FIX, '--format', 'csv', '--table', 'cells']));
  assert.match(await download(page, '#reclaim-plot-svg'), /memory integrity g/);

  await page.selectOption('#reclaim-resampler', 'chacha8');
  await page.check('#reclaim-cluster');
  await page.fill('#reclaim-resamples', '2000');
  await page.fill('#reclaim-seed', '11');
  await page.click('#reclaim-apply');
  await page.waitForFunction(() => document.querySelector('#reclaim-cells-card .conventions code')?.textContent.includes('ChaCha'));
  await waitReady(page, 'reclaim');
  await check(JSON.parse(cli(['reclaim', '--trials', FIX, '--resampler', 'chacha8', '--cluster-by-problem', '--bootstrap', '2000', '--seed', '11', '--format', 'json'])));

  assertClean(log);
  await page.close();
});

test('reclaim page: design columns, populations and common problems equal memaudit reclaim', async () => {
  // Rows in reclaim-eval's shape: three prompts crossed with every problem (a design column), and
  // one policy holding three retired problems the other does not.
  const SWEEP = path.join(ROOT, 'tests', 'reference', 'cells', 'sweep_retired.jsonl');
  const { page, log } = await openPage();
  await page.goto(`${srv.origin}${VIEWER}#reclaim`);
  await page.setInputFiles('#reclaim-file-input', SWEEP);
  await waitReady(page, 'reclaim');
  await page.waitForSelector('#reclaim-populations tbody tr');
  const inDir = (args) => cli(args, { cwd: path.dirname(SWEEP) });
  const name = path.basename(SWEEP);
  const check = async (extra) => {
    const want = JSON.parse(inDir(['reclaim', '--trials', name, ...extra, '--format', 'json']));
    const rows = await readRows(page, '#reclaim-cells');
    assert.equal(rows.length, want.cells.length, `cells ${extra}`);
    for (const c of want.cells) {
      const design = (c.design ?? []).map(([k, v]) => `${k}=${v}`).join(' ');
      const row = rows.find((r) => r.attrs.policy === c.policy && r.attrs.design === design);
      assert.ok(row, `${c.policy} ${design}`);
      for (const col of ['n', 'problems', 'recovered']) assert.equal(Number(row.cells[col].value), c[col], `${c.policy} ${design} ${col}`);
      for (const col of ['rr', 'rr_low', 'rr_high']) checkNumber(row.cells[col], c[col], `${c.policy} ${design} ${col}`);
      assert.equal(row.cells.population.text, c.population, `${c.policy} ${design} population`);
    }
    await checkHeadlines(page, '#reclaim-headlines', want, `reclaim ${extra}`);
    // The page's CLI twin is this very command, its words quoted for a shell.
    const twin = shellWords(await page.textContent('#reclaim-cli-twin'));
    assert.deepEqual(twin, ['memaudit', 'reclaim', '--trials', name, ...extra, '--format', 'json']);
    return want;
  };
  // Applies the cells fields and waits for the result whose settings line says `said`.
  const apply = async (said) => {
    await page.click('#reclaim-apply');
    await page.waitForFunction((s) => document.querySelector('#reclaim-cells-card .conventions code')?.textContent.includes(s), said);
    await waitReady(page, 'reclaim');
  };
  // Split by prompt, never pooled unasked; the retired problems are named.
  const split = await check([]);
  assert.deepEqual(split.populations.keyed.map((k) => k.column), ['prompt']);
  assert.match(await page.textContent('#reclaim-populations-card'), /r0, r1, r2/);
  const pops = await readRows(page, '#reclaim-populations');
  assert.deepEqual(pops.map((r) => r.cells.population.text), split.populations.populations.map((p) => p.id));
  // Common problems only: the retired ones are left out and counted.
  await page.check('#reclaim-cells-common-items');
  await apply('common items only');
  const common = await check(['--common-items']);
  assert.equal(common.populations.excluded[0].rows, 27);
  // The prompt pooled, as asked: said on the result.
  await page.uncheck('#reclaim-cells-common-items');
  await page.fill('#reclaim-cells-pool', 'prompt');
  await apply('pooled: prompt');
  const pooled = await check(['--pool', 'prompt']);
  assert.equal(pooled.cells.length, 2);
  assertClean(log);
  await page.close();
});

test('reclaim page: boundary evidence (invented numbers, failure modes, sweeps, cascade) equals memaudit reclaim', async () => {
  const { page, log } = await openPage();
  await page.goto(`${srv.origin}${VIEWER}#reclaim`);
  await page.setInputFiles('#reclaim-file-input', REALWORLD);
  await waitReady(page, 'reclaim');
  await page.waitForSelector('#reclaim-invented tbody tr');
  // The CLI in the file's folder, so the examples name the file as the browser does.
  const inExt = (args) => cli(args, { cwd: path.dirname(REALWORLD) });
  const rw = path.basename(REALWORLD);
  const want = JSON.parse(inExt(['reclaim', '--trials', rw, '--format', 'json']));
  const rows = await readRows(page, '#reclaim-invented');
  assert.equal(rows.length, want.boundaries.invented.length);
  for (const w of want.boundaries.invented) {
    const r = rows.find((x) => x.attrs.policy === w.policy);
    assert.ok(r, w.policy);
    for (const col of ['memories', 'with_invented']) assert.equal(Number(r.cells[col].value), w[col], `${w.policy} ${col}`);
    for (const col of ['share', 'mean_invented', 'mean_low', 'mean_high']) checkNumber(r.cells[col], w[col], `${w.policy} ${col}`);
  }
  const mem0 = want.boundaries.invented.find((x) => x.policy === 'mem0');
  assert.equal(mem0.with_invented, mem0.memories);
  for (const t of ['invented', 'failure_modes']) {
    assert.equal(await download(page, `button[data-export="${t}"][data-kind="csv"]`), inExt(['reclaim', '--trials', rw, '--format', 'csv', '--table', t]), t);
  }
  // Sweeps and cascades have no pid: the item column is stated, as with --item.
  const sweep = path.join(ROOT, 'tests', 'reference', 'reclaim_boundaries', 'sizesweep.jsonl');
  const cascade = path.join(ROOT, 'tests', 'reference', 'reclaim_boundaries', 'cascade.jsonl');
  for (const [file, table] of [[sweep, 'sweeps'], [cascade, 'cascade']]) {
    const fresh = await openPage();
    await fresh.page.goto(`${srv.origin}${VIEWER}#reclaim`);
    await fresh.page.fill('#reclaim-item', 'store');
    await fresh.page.setInputFiles('#reclaim-file-input', file);
    await waitReady(fresh.page, 'reclaim');
    await fresh.page.waitForSelector(`#reclaim-${table} tbody tr`);
    const csv = cli(['reclaim', '--trials', file, '--item', 'store', '--format', 'csv', '--table', table]);
    assert.equal(await download(fresh.page, `button[data-export="${table}"][data-kind="csv"]`), csv, table);
    if (table === 'sweeps') assert.ok((await inkPixels(fresh.page, '#reclaim-sweep-plot-n')) > 2000, 'sweep plot drawn');
    assertClean(fresh.log);
    await fresh.page.close();
  }
  assertClean(log);
  await page.close();
});

test('reclaim page: the abstention rule (strict, hedge) equals memaudit reclaim --abstain', async () => {
  const { page, log } = await openPage();
  await page.goto(`${srv.origin}${VIEWER}#reclaim`);
  await page.setInputFiles('#reclaim-file-input', HEDGE);
  await waitReady(page, 'reclaim');
  await page.waitForSelector('#reclaim-cells tbody tr');

  const check = async (rule) => {
    const want = JSON.parse(cli(['reclaim', '--trials', HEDGE, '--abstain', rule, '--format', 'json']));
    await checkHeadlines(page, '#reclaim-headlines', want, `reclaim ${rule}`);
    assert.equal(await page.getAttribute('#reclaim-abstain-rule', 'data-rule'), rule);
    assert.ok((await page.textContent('#reclaim-cells-card .conventions code')).includes(`abstain=${rule}`), 'rule under the table');
    const rows = await readRows(page, '#reclaim-cells');
    assert.equal(rows.length, want.cells.length, 'cell rows');
    for (const c of want.cells) {
      const row = rows.find((r) => r.attrs.policy === c.policy);
      assert.ok(row, `cell ${c.policy} missing`);
      for (const col of ['n', 'recovered', 'hedge_abstain', 'abstain_fallback']) assert.equal(Number(row.cells[col].value), c[col], `${rule} ${c.policy} ${col}`);
      for (const col of ['rr', 'abstain_rate', 'emit_rate']) checkNumber(row.cells[col], c[col], `${rule} ${c.policy} ${col}`);
    }
    assert.equal(
      await download(page, 'button[data-export="cells"][data-kind="csv"]'),
      cli(['reclaim', '--trials', HEDGE, '--abstain', rule, '--format', 'csv', '--table', 'cells']),
    );
    return want;
  };
  const strict = await check('strict');
  await page.selectOption('#reclaim-abstain', 'hedge');
  await page.click('#reclaim-apply');
  await page.waitForFunction(() => document.querySelector('#reclaim-abstain-rule')?.dataset.rule === 'hedge');
  await waitReady(page, 'reclaim');
  const hedge = await check('hedge');
  const lossy = (r) => r.cells.find((c) => c.policy === 'lossy');
  assert.deepEqual([lossy(strict).emit, lossy(hedge).emit, lossy(hedge).hedge_abstain], [17, 12, 5]);

  assertClean(log);
  await page.close();
});

test('comparison page: long arm names are shortened on screen with a legend, full in the exports', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memaudit-long-'));
  const file = path.join(dir, 'long_arms.csv');
  const arms = [
    'retrieval-pipeline-bm25-with-cross-encoder-reranker-v2',
    'retrieval-pipeline-dense-with-cross-encoder-reranker-v2',
    'bm25',
  ];
  let csv = 'item,arm,correct\n';
  for (let i = 1; i <= 40; i++) arms.forEach((a, j) => { csv += `q${i},${a},${(i * (j + 3)) % 5 < 3 ? 1 : 0}\n`; });
  fs.writeFileSync(file, csv);
  const { page, log } = await openPage();
  await page.goto(`${srv.origin}${VIEWER}#compare`);
  await page.waitForSelector('#compare-file-input', { state: 'attached' });
  await page.setInputFiles('#compare-file-input', file);
  await waitReady(page, 'compare');
  await page.waitForSelector('#arms-table tbody tr');
  const want = JSON.parse(cli(['compare', '--outcomes', file, '--format', 'json']));
  assert.deepEqual(want.arms.map((a) => a.arm), arms);
  await checkComparison(page, want);
  const legend = await readRows(page, '#arm-legend');
  assert.deepEqual(legend.map((r) => r.attrs.arm), arms.slice(0, 2), 'only the long names are in the legend');
  for (const r of legend) {
    assert.ok(r.cells.label.text.length <= 24 && r.cells.label.text.includes('\u2026'), r.cells.label.text);
    const cell = await page.$eval(`#arms-table tr[data-arm="${r.attrs.arm}"] td[data-col="arm"]`, (td) => ({ text: td.textContent, title: td.title }));
    assert.deepEqual(cell, { text: r.cells.label.text, title: r.attrs.arm });
  }
  assert.notEqual(legend[0].cells.label.text, legend[1].cells.label.text);
  assert.equal(await page.textContent('#arms-table tr[data-arm="bm25"] td[data-col="arm"]'), 'bm25');
  assert.ok((await inkPixels(page, '#forest-plot')) > 1500, 'forest plot drawn');
  assertCsvClose(await download(page, 'button[data-export="arms"][data-kind="csv"]'), cli(['compare', '--outcomes', file, '--format', 'csv', '--table', 'arms']), 'arms');
  // Renamed on the page as with --rename: the tables, the exports and the spec say the new name.
  await page.fill('#spec-rename', `${arms[1]}=dense+rerank`);
  await page.click('#compare-run');
  await page.waitForSelector('#arms-table tr[data-arm="dense+rerank"]');
  await waitReady(page, 'compare');
  const renamed = ['compare', '--outcomes', file, '--rename', `${arms[1]}=dense+rerank`];
  await checkComparison(page, JSON.parse(cli([...renamed, '--format', 'json'])));
  assertCsvClose(await download(page, 'button[data-export="pairs"][data-kind="csv"]'), cli([...renamed, '--format', 'csv', '--table', 'pairs']), 'pairs renamed');
  assert.equal(await page.textContent('#spec-renamed'), `${arms[1]} \u2192 dense+rerank`);
  const exported = JSON.parse(await download(page, '#export-compare-json'));
  assert.ok(exported.spec.reasons.includes(`arm \`${arms[1]}\` shown as \`dense+rerank\` (as stated)`), exported.spec.reasons.join('\n'));
  assert.deepEqual(exported.spec.rename, { [arms[1]]: 'dense+rerank' });
  // An arm the rows do not have is refused, the setting named by its label on this page.
  await page.fill('#spec-rename', 'no-such-arm=x');
  await page.click('#compare-run');
  await page.waitForSelector('#refusal-message');
  const refusal = await page.textContent('#refusal-message');
  assert.ok(refusal.startsWith('\u201crename arms\u201d: no arm `no-such-arm`') && !refusal.includes('--rename'), refusal);
  await page.fill('#spec-rename', 'a=x; b=x');
  await page.click('#compare-run');
  await page.waitForFunction(() => document.body.textContent.includes('two arms are renamed `x`'));
  assertClean(log);
  await page.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('comparison page: four vendors\' LoCoMo answer files dropped together equal memaudit compare, with a reference arm', async () => {
  const FAM = path.join(ROOT, 'tests', 'reference', 'outcome_families');
  const files = ['mem0_evals.json', 'evermemos.json', 'zep_grades.json', 'audit_results.json'].map((f) => path.join(FAM, f));
  const { page, log } = await openPage();
  await page.goto(`${srv.origin}${VIEWER}#compare`);
  await page.waitForSelector('#compare-file-input', { state: 'attached' });
  await page.setInputFiles('#compare-file-input', files);
  await waitReady(page, 'compare');
  await page.waitForSelector('#arms-table tbody tr');
  const formats = await page.$$eval('#compare-files tr[data-file] [data-format]', (els) => els.map((e) => e.dataset.format));
  assert.deepEqual(formats, ['locomo_answers', 'locomo_answers', 'locomo_answers', 'locomo_answers']);
  assert.equal(await page.textContent('#spec-key'), 'conversation × position');
  const want = JSON.parse(cli(['compare', '--outcomes', ...files, '--format', 'json']));
  assert.deepEqual(want.arms.map((a) => a.arm), ['mem0_evals', 'evermemos', 'zep_grades', 'audit_results']);
  await checkComparison(page, want);
  // The items behind a contrast, and one item's text as the files state it: the question and
  // gold answer once, each arm's answer and score with its file and line, as the CLI prints.
  await page.click('#pairs-table tr[data-a="mem0_evals"][data-b="evermemos"]');
  await page.waitForSelector('#items-table[data-selection="mem0_evals−evermemos"] tbody tr');
  // Filtered by outcome pattern: mem0 right where evermemos is wrong, as `--items` lists them.
  const listed = JSON.parse(cli(['compare', '--outcomes', ...files, '--items', 'mem0_evals,evermemos'])).items;
  await page.selectOption('#items-pattern', 'a_higher');
  const higher = listed.filter((i) => i.diff > 0);
  await page.waitForSelector(`#items-table[data-shown="${higher.length}"]`);
  assert.equal(Number(await page.getAttribute('#items-table', 'data-total')), listed.length);
  const shownRows = await readRows(page, '#items-table');
  assert.deepEqual(shownRows.map((r) => r.attrs.item), higher.slice(0, 100).map((i) => i.item));
  const item = await page.getAttribute('#items-table tbody tr:first-child', 'data-item');
  await page.focus('#items-table tbody tr:first-child');
  await page.keyboard.press('Enter');
  await page.waitForSelector(`#item-text-body[data-item="${item}"]`);
  const text = JSON.parse(cli(['compare', '--outcomes', ...files, '--show-item', item, '--items', 'mem0_evals,evermemos']));
  assert.ok(text.shared.some((f) => f.column === 'question'), 'the question is shared');
  const shared = await page.$$eval('#item-shared dd', (els) => els.map((e) => [e.dataset.col, e.textContent]));
  assert.deepEqual(shared, text.shared.map((f) => [f.column, f.text]));
  assert.equal(text.arms.length, 2);
  for (const arm of text.arms) {
    const rows = await page.$$eval(`#item-text .item-arm[data-arm="${arm.arm}"] .item-row`, (els) =>
      els.map((r) => ({ at: r.dataset.at, fields: [...r.querySelectorAll('dd')].map((d) => [d.dataset.col, d.textContent]) })));
    // The CLI names a file as its path was given, the page by the name it was chosen under.
    assert.deepEqual(rows, arm.rows.map((r) => ({ at: path.basename(r.at), fields: r.fields.map((f) => [f.column, f.text]) })), `arm ${arm.arm}`);
    assert.ok(arm.rows[0].fields.some((f) => ['response', 'generated_answer'].includes(f.column)), `${arm.arm}'s own answer`);
  }
  assert.equal(await page.getAttribute('#items-table tbody tr:first-child', 'aria-current'), 'true');
  // Every contrast against evermemos reads other − evermemos.
  await page.selectOption('#cmp-reference', 'evermemos');
  await page.click('#compare-run');
  await page.waitForFunction(() => document.querySelector('#compare-results .conventions code')?.textContent.includes('reference=evermemos'), null, { timeout: 120_000 });
  await waitReady(page, 'compare');
  const ref = JSON.parse(cli(['compare', '--outcomes', ...files, '--reference', 'evermemos', '--format', 'json']));
  assert.ok(ref.pairs.filter((p) => p.a === 'evermemos').length === 0, 'the reference is never a');
  await checkComparison(page, ref);
  assertClean(log);
  await page.close();
});

test('comparison page: cost per arm and a compute-matched control equal memaudit compare --cost --matched', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memaudit-costs-'));
  const file = path.join(dir, 'costs.csv');
  const rows = ['item,arm,correct,calls'];
  for (let i = 0; i < 90; i++) {
    const base = i % 4 !== 0 ? 1 : 0;
    const routed = i % 3 === 0;
    rows.push(`q${i},baseline,${base},1`, `q${i},retry,${i % 11 === 0 ? 1 - base : base},2`, `q${i},gated,${routed ? 1 : base},${routed ? 2 : 1}`);
  }
  fs.writeFileSync(file, rows.join('\n') + '\n');
  const { page, log } = await openPage();
  await page.goto(`${srv.origin}${VIEWER}#compare`);
  await page.setInputFiles('#compare-file-input', file);
  await waitReady(page, 'compare');
  await setSpec(page, { key: ['item'], arm: ['arm'], value: 'correct' });
  await page.fill('#cmp-bootstrap', '1000');
  await page.fill('#cmp-cost', 'calls');
  await page.fill('#cmp-matched', 'retry:gated');
  await page.click('#compare-run');
  await page.waitForSelector('#matched-table tbody tr', { timeout: 120_000 });
  await waitReady(page, 'compare');
  const args = ['compare', '--outcomes', file, '--item', 'item', '--arm', 'arm', '--value', 'correct', '--bootstrap', '1000', '--cost', 'calls', '--matched', 'retry:gated'];
  const want = JSON.parse(cli([...args, '--format', 'json']));
  await checkHeadlines(page, '#compare-headlines', want, 'compare costs');
  const costs = await readRows(page, '#costs-table');
  assert.equal(costs.length, want.costs[0].arms.length);
  for (const a of want.costs[0].arms) {
    const row = costs.find((r) => r.attrs.arm === a.arm);
    for (const col of ['mean', 'ci_low', 'ci_high']) checkNumber(row.cells[col], a[col], `cost ${a.arm} ${col}`);
  }
  const matched = await readRows(page, '#matched-table');
  assert.equal(matched[0].attrs.differs, 'true');
  for (const col of ['diff', 'ci_low', 'ci_high']) checkNumber(matched[0].cells[col], want.costs[0].matched[0][col], `matched ${col}`);
  for (const t of ['costs', 'matched']) {
    assertCsvClose(await download(page, `button[data-export="${t}"][data-kind="csv"]`), cli([...args, '--format', 'csv', '--table', t]), t);
  }
  assertClean(log);
  await page.close();
});

test('a file chosen on a page of the other module reaches that page only, whichever module drew the shell', async () => {
  // The two page modules each carry their own yew; the guest's events must never run the
  // host's handlers (a file picked on the comparison page was once handed to compliance).
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memaudit-guest-'));
  const small = path.join(dir, 'small.csv');
  fs.writeFileSync(small, 'item_id,arm,correct\nq1,a,1\nq1,b,0\nq2,a,1\nq2,b,1\nq3,a,0\nq3,b,1\n');
  const compliance = path.join(DEMO, 'compliance', 'compliance.csv');
  for (const [first, second, firstFile, secondFile] of [
    ['compliance', 'compare', compliance, small],
    ['compare', 'compliance', small, compliance],
  ]) {
    const { page, log } = await openPage();
    await page.goto(`${srv.origin}${VIEWER}#${first}`);
    await page.waitForSelector(`#${first}-file-input`, { state: 'attached' });
    await page.setInputFiles(`#${first}-file-input`, firstFile);
    await waitReady(page, first);
    await page.goto(`${srv.origin}${VIEWER}#${second}`);
    await page.waitForSelector(`#${second}-file-input`, { state: 'attached' });
    await page.setInputFiles(`#${second}-file-input`, secondFile);
    await waitReady(page, second);
    for (const [p, f] of [[first, firstFile], [second, secondFile]]) {
      const names = await page.$$eval(`#${p}-files tr[data-file]`, (els) => els.map((e) => e.dataset.file));
      assert.deepEqual(names, [path.basename(f)], `${first} then ${second}: the files of ${p}`);
      assert.equal(await page.$(`#${p}-error`), null, `${first} then ${second}: ${p} shows an error`);
    }
    assertClean(log);
    await page.close();
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

test('a worker that runs out of WebAssembly memory is reported on its page and restarted; other pages keep working', async () => {
  // Outcome rows that fit under budgets raised to their ceiling but not in the worker's 4 GiB of
  // WebAssembly memory (each row keeps its cells; MEMAUDIT_OOM_ROWS overrides the count).
  const rows = Number(process.env.MEMAUDIT_OOM_ROWS ?? 12_000_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memaudit-oom-'));
  const big = path.join(dir, 'oom.csv');
  const fd = fs.openSync(big, 'w');
  fs.writeSync(fd, 'item_id,arm,correct\n');
  for (let start = 0; start < rows; start += 100_000) {
    let chunk = '';
    for (let i = start; i < Math.min(rows, start + 100_000); i++) chunk += `q${i >> 1},${i & 1 ? 'b' : 'a'},${(i * 7) % 3 ? 1 : 0}\n`;
    fs.writeSync(fd, chunk);
  }
  fs.closeSync(fd);
  const small = path.join(dir, 'small.csv');
  fs.writeFileSync(small, 'item_id,arm,correct\nq1,a,1\nq1,b,0\nq2,a,1\nq2,b,1\nq3,a,0\nq3,b,1\n');
  const { page, log } = await openPage();
  // Another page with results, in its own worker.
  await page.goto(`${srv.origin}${VIEWER}#compliance`);
  await page.waitForSelector('#compliance-file-input', { state: 'attached' });
  await page.setInputFiles('#compliance-file-input', path.join(DEMO, 'compliance', 'compliance.csv'));
  await waitReady(page, 'compliance');
  // The budgets at their ceiling: nothing refuses the file before the worker runs out of memory.
  await page.goto(`${srv.origin}${VIEWER}#compare`);
  await page.waitForSelector('#compare-file-input', { state: 'attached' });
  await page.click('#limits summary');
  await page.fill('#limits-max-mib', '65536');
  await page.fill('#limits-max-rows', '1000000000');
  await page.click('#limits-apply');
  await page.waitForFunction(() => document.querySelector('#limits-now')?.textContent.includes('65536 MiB'));
  await page.setInputFiles('#compare-file-input', big);
  await page.waitForSelector('#compare-error h2', { timeout: 300_000 });
  assert.equal((await page.textContent('#compare-error h2')).trim(), "The page's worker stopped");
  assert.match(await page.textContent('#compare-error'), /out of memory/);
  assert.equal(await page.getAttribute('#page-compare', 'data-state'), 'error');
  // The page works again with a new worker (the file that was too large taken off its list).
  await page.click('#limits-reset');
  await page.click('#compare-clear-files');
  await page.setInputFiles('#compare-file-input', small);
  await waitReady(page, 'compare');
  await page.waitForSelector('#arms-table tbody tr');
  // The other page kept its results and still runs.
  await page.goto(`${srv.origin}${VIEWER}#compliance`);
  assert.equal(await page.getAttribute('#page-compliance', 'data-state'), 'ready');
  await page.setInputFiles('#compliance-file-input', path.join(DEMO, 'compliance', 'compliance.csv'));
  await waitReady(page, 'compliance');
  // The trap itself may be logged by the browser; nothing else may be.
  log.errors = log.errors.filter((l) => !/memory|RuntimeError|unreachable|worker/i.test(l));
  assertClean(log);
  await page.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
