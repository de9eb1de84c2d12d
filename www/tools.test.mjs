// End-to-end tests of the viewer's answers, ablation, K-sweep & claims and rules pages
// in headless Chromium, against `memaudit answers|ablation|claims|rules --format json`
// on the same files and settings (the core's committed test inputs).
//
// Needs: `trunk build --release` (-> dist/), /usr/bin/chromium and the native CLI in
// MEMAUDIT_BIN. Run: MEMAUDIT_BIN=... npm run e2e
//
// Every number checked carries its full precision in `data-value` (compared to 1e-9); CSV
// downloads equal the CLI's `--format csv` byte for byte. The pages must raise no error, log no
// console error, and request nothing but their own files. The CLI runs in the files' folder
// with relative names, so the file names it records are the browser's (a file's name without
// folders).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import {
  ROOT, DIST, cli, cliError, launch, openPage as open, assertClean as clean, waitReady, readRows, checkNumber, inkPixels,
  download, assertUniqueIds, assertDeepClose, checkHeadlines, assertCsvClose, assertOwnFilesOnly, readItemText,
} from './testkit.mjs';

const FIXTURES = path.join(ROOT, 'tests', 'reference', 'paper_fixtures');
const ANSWERS_REFERENCE = path.join(ROOT, 'tests', 'reference', 'answers', 'answers_reference.json');
const LABELS = path.join(ROOT, 'tests', 'reference', 'labels');
const VIEWER = '/viewer/';

let srv;
let ctx;
let work;

/** A companion site's release folder (`?release=/site/release`), written before the server starts. */
const SITE_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'memaudit-site-'));

before(async () => {
  fs.mkdirSync(path.join(SITE_DIR, 'release', 'sub'), { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'static', 'demo', 'compliance', 'compliance.csv'), path.join(SITE_DIR, 'release', 'compliance.csv'));
  fs.copyFileSync(path.join(ROOT, 'static', 'demo', 'labels', 'labels.csv'), path.join(SITE_DIR, 'release', 'sub', 'labels.csv'));
  fs.writeFileSync(path.join(SITE_DIR, 'release', 'manifest.json'),
    JSON.stringify({ title: 'A demo release', files: ['compliance.csv', 'sub/labels.csv'] }));
  ({ srv, ctx } = await launch({ [VIEWER]: DIST, '/site/': SITE_DIR }, 'tools'));
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'memaudit-tools-'));
  // The 45 worked examples of tests/answers.rs as answer rows, plus one whose text is markup.
  const cases = JSON.parse(fs.readFileSync(ANSWERS_REFERENCE, 'utf8')).cases;
  const rows = cases.map((c, i) => {
    // A judge's verdict the file states (read as its own score, shown beside the profiles).
    const r = { query_id: `case${String(i).padStart(2, '0')}`, gold: c.gold, prediction: c.prediction, llm_score: i % 3 === 0 ? 1 : 0 };
    if (c.dataset !== null) r.dataset = c.dataset;
    if (c.category !== null) r.category = c.category;
    return r;
  });
  rows.push({ query_id: 'markup', gold: ['<b>bold</b>'], prediction: '<img src=x onerror="window.__pwned=1"> <b>bold</b>' });
  fs.writeFileSync(path.join(work, 'answers.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  for (const f of fs.readdirSync(FIXTURES)) fs.copyFileSync(path.join(FIXTURES, f), path.join(work, f));
  for (const f of ['long.csv', 'judged.jsonl']) fs.copyFileSync(path.join(LABELS, f), path.join(work, f));
  fs.copyFileSync(path.join(ROOT, 'tests', 'reference', 'calibration', 'routing.csv'), path.join(work, 'routing.csv'));
  fs.copyFileSync(path.join(ROOT, 'tests', 'reference', 'calibration', 'governance.csv'), path.join(work, 'governance.csv'));
  for (const f of ['per_query.csv', 'answers.csv']) fs.copyFileSync(path.join(ROOT, 'static', 'demo', 'alignment', f), path.join(work, `alignment-${f}`));
  fs.copyFileSync(path.join(ROOT, 'static', 'demo', 'labels', 'labels.csv'), path.join(work, 'demo-labels.csv'));
  fs.copyFileSync(path.join(ROOT, 'static', 'demo', 'compliance', 'compliance.csv'), path.join(work, 'compliance.csv'));
  // A data file behind some of the rules' values, fingerprinted by both.
  fs.mkdirSync(path.join(work, 'results', 'v7'), { recursive: true });
  fs.mkdirSync(path.join(work, 'drop'));
  const data = '{"bm25": "the BM25 baseline run, as committed"}\n';
  fs.writeFileSync(path.join(work, 'results', 'v7', 'bm25-baseline-mab.json'), data);
  fs.writeFileSync(path.join(work, 'drop', 'bm25-baseline-mab.json'), data);
});

after(async () => {
  await ctx?.close();
  srv?.server.close();
});

const openPage = () => open(ctx);
const assertClean = (log) => clean(log, srv.origin, VIEWER);
const inWork = (args) => cli(args, { cwd: work });
const file = (name) => path.join(work, name);
const opt = (v) => v ?? '';

/** Goes to a page, drops files on it and waits for its results. */
async function load(page, name, files) {
  await page.goto(`${srv.origin}${VIEWER}#${name}`);
  await page.waitForSelector(`#${name}-file-input`, { state: 'attached' });
  await page.setInputFiles(`#${name}-file-input`, files);
  await waitReady(page, name);
}

/** Presses the page's "Re-analyse" and waits for the result whose settings line has `marker`. */
async function reanalyse(page, name, card, marker) {
  await page.click(`#${name}-apply`);
  await page.waitForFunction(
    ([c, m]) => document.querySelector(`#${c} .conventions code`)?.textContent.includes(m),
    [card, marker],
    { timeout: 120_000 },
  );
  await waitReady(page, name);
}

/** Every row of `selector` in order equals `want` in the listed numeric columns. */
async function checkTable(page, selector, want, columns, what) {
  const rows = await readRows(page, selector);
  assert.equal(rows.length, want.length, `${what}: rows`);
  rows.forEach((r, i) => {
    for (const [col, get] of Object.entries(columns)) checkNumber(r.cells[col], get(want[i]), `${what} row ${i + 1} ${col}`);
  });
  return rows;
}

test('answers page: profiles, summary, rows and the profile diff equal memaudit answers', async () => {
  const { page, log } = await openPage();
  await load(page, 'answers', file('answers.jsonl'));
  const base = ['answers', '--input', 'answers.jsonl'];
  const check = async (args) => {
    const want = JSON.parse(inWork([...base, ...args, '--format', 'json']));
    await checkHeadlines(page, '#answers-headlines', want, 'answers');
    await checkTable(page, '#answers-summary', want.summary, { n: (s) => s.n, mean: (s) => s.mean, correct: (s) => s.correct, correct_rate: (s) => s.correct_rate }, 'summary');
    const rows = await readRows(page, '#answers-rows');
    assert.equal(rows.length, want.rows.length, 'rows');
    rows.forEach((r, i) => {
      assert.equal(r.attrs.query, want.rows[i].query_id);
      for (const s of want.rows[i].scores) {
        checkNumber(r.cells[s.profile], s.score, `${r.attrs.query} ${s.profile}`);
        assert.equal(r.cells[`${s.profile}_correct`].value, String(s.correct), `${r.attrs.query} ${s.profile} verdict`);
      }
      const stated = (want.rows[i].stated ?? []).find((x) => x.column === 'llm_score');
      checkNumber(r.cells.stated_llm_score, stated ? stated.value : null, `${r.attrs.query} stated llm_score`);
    });
    // The file's own verdict against every profile.
    assert.ok(want.stated.length > 0 && want.stated.every((c) => c.column === 'llm_score' && c.kind === 'verdict'), 'llm_score stated');
    const stated = await checkTable(page, '#answers-stated', want.stated, { n: (c) => c.n, stated_mean: (c) => c.stated_mean, profile_correct_rate: (c) => c.profile_correct_rate, agree: (c) => c.agree, stated_only: (c) => c.stated_only, profile_only: (c) => c.profile_only, kappa: (c) => c.kappa }, 'stated');
    assert.deepEqual(stated.map((c) => c.attrs.profile), want.stated.map((c) => c.profile));
    await checkTable(page, '#answers-disagreements', want.disagreements, { n: (d) => d.n, verdict_changes: (d) => d.verdict_changes, a_only: (d) => d.a_only, b_only: (d) => d.b_only, score_changes: (d) => d.score_changes }, 'disagreements');
    const diff = await checkTable(page, '#answers-diff', want.diff, { score_a: (d) => d.score_a, score_b: (d) => d.score_b, line: (d) => d.line }, 'diff');
    assert.deepEqual(diff.map((d) => d.attrs.query), want.diff.map((d) => d.query_id));
    assert.equal(Number(await page.getAttribute('#answers-diff-count', 'data-count')), want.diff.length);
    return want;
  };
  const want = await check(['--diff', 'paper_sem:mab_sem']);
  assert.ok(want.diff.length > 0, 'the two profiles disagree somewhere');
  // Every profile is documented next to its numbers.
  const profiles = await page.$$eval('#answers-profiles tbody tr', (trs) => trs.map((tr) => [tr.dataset.profile, tr.querySelector('[data-col=rules]').textContent]));
  assert.deepEqual(profiles.map((p) => p[0]), want.profiles.map((p) => p.profile));
  profiles.forEach((p, i) => assert.equal(p[1], want.profiles[i].rules));
  for (const c of await page.$$eval('#page-answers .conventions code', (els) => els.map((e) => e.textContent))) {
    assert.equal(c, 'profiles=paper_sem,mab_sem,mab_f1,squad_em,squad_f1,locomo_f1,amem_f1 f1_threshold=0.5 diff=paper_sem:mab_sem');
  }
  // User text is text: the markup row is shown, never parsed.
  assert.equal(await page.$('#page-answers img'), null);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  // Exports: the CLI's CSV tables.
  for (const t of ['summary', 'rows', 'diff', 'stated']) {
    assert.equal(await download(page, `#page-answers button[data-export="${t}"][data-kind="csv"]`), inWork([...base, '--diff', 'paper_sem:mab_sem', '--format', 'csv', '--table', t]), t);
  }
  const json = JSON.parse(await download(page, '#answers-report-json'));
  assertDeepClose(json, want, 'answers JSON');
  // The instance view: a query of the diff, and the markup row, as `--show-item` prints them;
  // the markup stays text.
  for (const [table, query] of [['#answers-diff', want.diff[0].query_id], ['#answers-rows', 'markup']]) {
    await page.click(`${table} tr[data-query="${query}"]`);
    const shown = await readItemText(page, 'answers-', query);
    const cli = JSON.parse(inWork([...base, '--diff', 'paper_sem:mab_sem', '--show-item', query]));
    assert.deepEqual(shown, { shared: cli.shared, arms: cli.arms.map((a) => ({ arm: a.arm, rows: a.rows })) }, `query ${query}`);
    assert.equal(cli.arms[0].rows[0].fields.filter((f) => f.column.startsWith('score ')).length, want.profiles.length, 'a score per profile');
    assert.equal(await download(page, '#page-answers button[data-export="item-text"][data-kind="csv"]'), inWork([...base, '--diff', 'paper_sem:mab_sem', '--show-item', query, '--format', 'csv']), `query ${query} CSV`);
  }
  assert.equal(await page.textContent('#answers-item-text dd[data-col="prediction"]'), '<img src=x onerror="window.__pwned=1"> <b>bold</b>');
  assert.equal(await page.$('#page-answers img'), null);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);

  // Another diff: the pickers re-run at once.
  await page.selectOption('#answers-diff-a', 'squad_em');
  await page.selectOption('#answers-diff-b', 'squad_f1');
  await page.waitForFunction(() => document.querySelector('#answers-diff-card .conventions code')?.textContent.includes('diff=squad_em:squad_f1'));
  await waitReady(page, 'answers');
  await check(['--diff', 'squad_em:squad_f1']);

  // Fewer profiles and another F1 threshold.
  for (const p of ['paper_sem', 'mab_f1', 'locomo_f1', 'amem_f1']) await page.uncheck(`#answers-profiles-picker input[data-profile="${p}"]`);
  await page.fill('#answers-f1-threshold', '0.4');
  await reanalyse(page, 'answers', 'answers-summary-card', 'f1_threshold=0.4');
  await check(['--profiles', 'mab_sem,squad_em,squad_f1', '--f1-threshold', '0.4', '--diff', 'squad_em:squad_f1']);

  await assertUniqueIds(page);
  assertClean(log);
  await page.close();
});

test('ablation page: u histogram, rates, rho with both intervals, the gate and the breach audit equal memaudit ablation', async () => {
  const { page, log } = await openPage();
  await load(page, 'ablation', file('noncircularity.csv'));
  const check = async (args) => {
    const want = JSON.parse(inWork(['ablation', '--input', 'noncircularity.csv', ...args, '--format', 'json']));
    await checkHeadlines(page, '#ablation-headlines', want, 'ablation');
    const groups = want.runs.flatMap((r) => [r.overall, ...r.subsets]);
    const ci = (k, side) => (g) => g.noncircularity[k]?.[side] ?? null;
    await checkTable(page, '#ablation-groups', groups, {
      pairs: (g) => g.rates.pairs, queries: (g) => g.rates.queries,
      u_harmful: (g) => g.rates.histogram.harmful, u_neutral: (g) => g.rates.histogram.neutral, u_helpful: (g) => g.rates.histogram.helpful,
      positive_rate: (g) => g.rates.positive_rate, positive_low: (g) => g.rates.positive_low, positive_high: (g) => g.rates.positive_high,
      base_correct_rate: (g) => g.rates.base_correct_rate, rho_n: (g) => g.noncircularity.n, rho: (g) => g.noncircularity.rho,
      rho_pair_low: ci('pair_ci', 'low'), rho_pair_high: ci('pair_ci', 'high'), rho_query_low: ci('query_ci', 'low'), rho_query_high: ci('query_ci', 'high'),
      gate_margin: (g) => g.noncircularity.margin,
    }, 'groups');
    const nc = await checkTable(page, '#ablation-noncircularity', groups, {
      rho: (g) => g.noncircularity.rho, rho2: (g) => g.noncircularity.rho2, unexplained: (g) => g.noncircularity.unexplained,
      pair_low: ci('pair_ci', 'low'), pair_high: ci('pair_ci', 'high'), query_low: ci('query_ci', 'low'), query_high: ci('query_ci', 'high'),
      fisher_low: ci('fisher_z', 'low'), fisher_high: ci('fisher_z', 'high'), margin: (g) => g.noncircularity.margin,
    }, 'non-circularity');
    nc.forEach((r, i) => {
      assert.equal(r.attrs.run, groups[i].run);
      assert.equal(r.attrs.subset, opt(groups[i].subset));
      assert.equal(r.cells.passes.value, String(groups[i].noncircularity.passes ?? ''), `${r.attrs.run}/${r.attrs.subset} passes`);
    });
    assert.equal(await page.getAttribute('#ablation-gate-line', 'data-gate'), want.gate);
    for (const r of want.runs) {
      const li = `#ablation-breaches li[data-run="${r.overall.run}"]`;
      assert.equal(await page.getAttribute(li, 'data-breach'), String(r.breach));
      assert.equal(await page.getAttribute(li, 'data-breaching'), r.breaching_subsets.join(','));
    }
    return want;
  };
  const want = await check([]);
  // seed-000: the at-scale gate flags LoCoMo, and the audit names single-hop.
  assert.equal(await page.getAttribute('#ablation-breaches li[data-run="phase7_locomo"]', 'data-breaching'), 'single_hop');
  assert.ok(want.runs.some((r) => r.breach));
  for (const id of ['#ablation-u-histogram', '#ablation-rho-plot']) assert.ok((await inkPixels(page, id)) > 5000, `${id} drawn`);
  assert.equal(await download(page, '#page-ablation button[data-export="groups"][data-kind="csv"]'), inWork(['ablation', '--input', 'noncircularity.csv', '--format', 'csv']));
  assert.match(await download(page, '#ablation-u-histogram-svg'), /u = \+1/);
  assert.match(await download(page, '#ablation-rho-plot-svg'), /gate -0\.15/);
  const json = JSON.parse(await download(page, '#ablation-report-json'));
  assert.deepEqual(Object.keys(json).sort(), Object.keys(want).sort());
  await page.selectOption('#ablation-hist-mode', 'pooled');
  assert.ok((await inkPixels(page, '#ablation-u-histogram')) > 3000);

  // Another gate, resamples and seed: re-analysed from the kept file.
  await page.selectOption('#ablation-gate', 'pilot');
  await page.fill('#ablation-bootstrap', '2000');
  await page.fill('#ablation-seed', '7');
  await reanalyse(page, 'ablation', 'ablation-groups-card', 'seed=7');
  await check(['--gate', 'pilot', '--bootstrap', '2000', '--seed', '7']);

  await assertUniqueIds(page);
  assertClean(log);
  await page.close();
});

test('ablation page: the specialist diagnostics per run and split equal memaudit ablation', async () => {
  const { page, log } = await openPage();
  await load(page, 'ablation', file('specialist.csv'));
  const want = JSON.parse(inWork(['ablation', '--input', 'specialist.csv', '--format', 'json']));
  await checkHeadlines(page, '#ablation-headlines', want, 'ablation');
  assert.equal(want.specialist.length, 4, 'phase7, its train and val splits, the pilot');
  const auc = (k) => (d) => d.auroc?.[k] ?? null;
  const rows = await checkTable(page, '#ablation-specialist', want.specialist, {
    pairs: (d) => d.pairs, positives: (d) => d.positives, negatives: (d) => d.negatives, pos_weight: (d) => d.pos_weight,
    positive_median: (d) => d.positive_median, negative_median: (d) => d.negative_median, median_delta: (d) => d.median_delta,
    auroc: auc('auc'), auroc_low: auc('low'), auroc_high: auc('high'), f1: (d) => d.f1, all_positive_f1: (d) => d.all_positive_f1,
    rho_retrieval: (d) => d.rho_retrieval,
  }, 'specialist');
  assert.deepEqual(rows.map((r) => [r.attrs.run, r.attrs.split]), want.specialist.map((d) => [d.run, opt(d.split)]));
  assert.equal(await download(page, '#page-ablation button[data-export="specialist"][data-kind="csv"]'),
    inWork(['ablation', '--input', 'specialist.csv', '--format', 'csv', '--table', 'specialist']));
  await assertUniqueIds(page);
  assertClean(log);
  await page.close();
});

test('K-sweep and claims page: claims, findings, cells and labelled deltas equal memaudit claims', async () => {
  const { page, log } = await openPage();
  await load(page, 'claims', ['seed000_claims.csv', 'seed000_scores.csv', 'seed000_tables.csv'].map(file));
  const roles = await page.$$eval('#claims-files tbody tr', (trs) => trs.map((tr) => [tr.dataset.file, tr.dataset.role]));
  assert.deepEqual(roles, [['seed000_claims.csv', 'claims'], ['seed000_scores.csv', 'scores'], ['seed000_tables.csv', 'table']]);
  const base = ['claims', '--data', 'seed000_scores.csv', '--claims', 'seed000_claims.csv', '--printed-table', 'seed000_tables.csv'];
  const check = async (args) => {
    const want = JSON.parse(inWork([...base, ...args, '--format', 'json']));
    await checkHeadlines(page, '#claims-headlines', want, 'claims');
    const claims = await checkTable(page, '#claims-table', want.claims, {
      reported: (c) => c.reported, recomputed: (c) => c.recomputed, difference: (c) => c.difference, n: (c) => c.n, reported_n: (c) => c.reported_n,
      recomputed_ci_low: (c) => c.recomputed_ci?.[0], recomputed_ci_high: (c) => c.recomputed_ci?.[1],
    }, 'claims');
    claims.forEach((r, i) => {
      assert.equal(r.attrs.claim, want.claims[i].claim_id);
      assert.equal(r.attrs.verdict, want.claims[i].verdict, `${r.attrs.claim} verdict`);
      assert.equal(r.cells.reason.text, want.claims[i].reason);
    });
    const counts = await page.$eval('#claims-counts', (p) => ({ ...p.dataset }));
    assert.deepEqual(counts, { matches: String(want.counts.matches), withinRounding: String(want.counts.within_rounding), differs: String(want.counts.differs), cannotCompute: String(want.counts.cannot_compute) });
    const findings = await checkTable(page, '#claims-findings', want.findings, { expected: (f) => f.expected, found: (f) => f.found }, 'findings');
    findings.forEach((r, i) => assert.deepEqual([r.attrs.kind, r.attrs.table, r.attrs.row], [want.findings[i].kind, opt(want.findings[i].table), want.findings[i].row]));
    const s = want.sweep;
    await checkTable(page, '#ksweep-cells', s.cells, { n: (c) => c.n, mean: (c) => c.mean, ci_low: (c) => c.ci_low, ci_high: (c) => c.ci_high, wilson_low: (c) => c.wilson_low, wilson_high: (c) => c.wilson_high }, 'cells');
    const deltas = await checkTable(page, '#ksweep-deltas', s.deltas, { n_shared: (d) => d.n_shared, mean_a: (d) => d.mean_a, mean_b: (d) => d.mean_b, delta: (d) => d.delta, ci_low: (d) => d.ci_low, ci_high: (d) => d.ci_high }, 'deltas');
    deltas.forEach((r, i) => assert.deepEqual([r.attrs.a, r.attrs.b, r.attrs.k, r.attrs.label], [s.deltas[i].a, s.deltas[i].b, String(s.deltas[i].k), s.deltas[i].label]));
    await checkTable(page, '#ksweep-stability', s.stability, { delta_base: (x) => x.delta_base, delta_k: (x) => x.delta_k, change: (x) => x.change }, 'stability');
    return want;
  };
  const want = await check([]);
  // seed-000: E1 recomputes to 24, a boundary label, 1 of 4 datasets within ±2pp.
  assert.equal(await page.getAttribute('#claims-table tr[data-claim="t1_fc_vanilla"]', 'data-verdict'), 'differs');
  assert.ok(Number(await page.getAttribute('#ksweep-labels', 'data-boundary')) > 0);
  for (const id of ['#ksweep-plot', '#ksweep-deltas-plot']) assert.ok((await inkPixels(page, id)) > 5000, `${id} drawn`);
  assert.match(await download(page, '#ksweep-deltas-plot-svg'), /boundary/);
  for (const t of ['claims', 'findings', 'cells', 'deltas', 'stability']) {
    assert.equal(await download(page, `#page-claims button[data-export="${t}"][data-kind="csv"]`), inWork([...base, '--format', 'csv', '--csv-table', t]), t);
  }
  assertDeepClose(JSON.parse(await download(page, '#claims-report-json')), want, 'claims JSON');
  // Another panel of the K-sweep plot.
  const panels = await page.$$eval('#ksweep-panel option', (o) => o.map((x) => x.value));
  await page.selectOption('#ksweep-panel', panels[panels.length - 1]);
  assert.ok((await inkPixels(page, '#ksweep-plot')) > 5000);

  // One contrast, another slack and seed.
  await page.fill('#claims-contrasts', 'specialist:vanilla');
  await page.fill('#claims-slack', '0.03');
  await page.fill('#claims-seed', '11');
  await reanalyse(page, 'claims', 'ksweep-deltas-card', 'seed=11');
  await check(['--contrast', 'specialist:vanilla', '--slack', '0.03', '--seed', '11']);

  // A printed table alone is linted.
  await page.click('#claims-clear-files');
  await page.setInputFiles('#claims-file-input', file('other_seeds_tables.csv'));
  await page.waitForFunction(() => document.querySelector('#claims-files tbody tr')?.dataset.file === 'other_seeds_tables.csv', null, { timeout: 120_000 });
  await waitReady(page, 'claims');
  const lint = JSON.parse(inWork(['claims', '--printed-table', 'other_seeds_tables.csv', '--format', 'json']));
  const rows = await readRows(page, '#claims-findings');
  assert.deepEqual(rows.map((r) => [r.attrs.kind, r.attrs.row]), lint.findings.map((f) => [f.kind, f.row]));
  assert.equal(await page.$('#ksweep-cells'), null, 'no K-sweep without scores');

  // Fingerprints and a duplicated query id (seed-000's banking77 artifact): the specialist ran
  // K = 10 with another prompt; vanilla's q1 at K = 5 is given twice (lines 6 and 8).
  fs.writeFileSync(file('fingerprints.csv'), 'arm,dataset,k,query_id,sem,prompt_hash\n'
    + 'specialist,icl_banking77,5,q1,1,icl\nspecialist,icl_banking77,5,q2,0,icl\nspecialist,icl_banking77,10,q1,0,generic\n'
    + 'specialist,icl_banking77,10,q2,0,generic\nvanilla,icl_banking77,5,q1,1,icl\nvanilla,icl_banking77,5,q2,1,icl\n'
    + 'vanilla,icl_banking77,5,q1,0,icl\nvanilla,icl_banking77,10,q1,1,icl\nvanilla,icl_banking77,10,q2,1,icl\n');
  await page.click('#claims-clear-files');
  await page.setInputFiles('#claims-file-input', file('fingerprints.csv'));
  await page.waitForFunction(() => document.querySelector('#claims-files tbody tr')?.dataset.file === 'fingerprints.csv', null, { timeout: 120_000 });
  await waitReady(page, 'claims');
  const fp = ['claims', '--data', 'fingerprints.csv', '--contrast', 'specialist:vanilla', '--slack', '0.03', '--seed', '11'];
  const fpWant = JSON.parse(inWork([...fp, '--format', 'json']));
  const fpRows = await readRows(page, '#claims-findings');
  assert.deepEqual(fpRows.map((r) => [r.attrs.kind, r.attrs.row]), fpWant.findings.map((f) => [f.kind, f.row]));
  assert.deepEqual(fpWant.findings.map((f) => f.kind), ['config_mismatch', 'config_mismatch', 'duplicate_query_id']);
  assert.equal(await page.getAttribute('#claims-warnings li[data-kind="duplicate_query_id"]', 'data-count'), '1');
  assert.equal(await download(page, '#page-claims button[data-export="findings"][data-kind="csv"]'), inWork([...fp, '--format', 'csv', '--csv-table', 'findings']));

  await assertUniqueIds(page);
  assertClean(log);
  await page.close();
});

test('an invalid setting is refused by the page with the words of memaudit claims', async () => {
  const { page, log } = await openPage();
  await load(page, 'claims', [file('seed000_scores.csv')]);
  // memaudit claims --no-sweep --confidence 1.5 (once run unchecked by the CLI)
  const err = cliError(['claims', '--data', file('seed000_scores.csv'), '--no-sweep', '--confidence', '1.5']);
  const m = err.trim().match(/^memaudit: error: invalid setting `confidence`: (.*)$/);
  assert.ok(m, err);
  await page.fill('#claims-confidence', '1.5');
  await page.click('#claims-apply');
  await page.waitForSelector('#claims-error', { timeout: 30_000 });
  // The page names the setting by its declared label, in quotes (the CLI by its option).
  assert.equal((await page.textContent('#claims-error h2')).trim(), 'Invalid setting \u201cconfidence\u201d');
  assert.equal((await page.textContent('#claims-error-message')).trim(), m[1]);
  // Nothing was sent: the results on screen stay, the page is not busy.
  assert.ok(await page.$('#claims-results'));
  assert.equal(await page.getAttribute('#page-claims', 'data-state'), 'ready');
  assertClean(log);
  await page.close();
});

test('rules page: verdicts, margins, input hashes and the late rule flagged equal memaudit rules', async () => {
  const { page, log } = await openPage();
  await page.goto(`${srv.origin}${VIEWER}#rules`);
  await page.fill('#rules-evaluated-at', '2026-11-22T00:00:00Z');
  await page.setInputFiles('#rules-file-input', [file('seed000_gitlog.txt'), file('seed000_values.json'), path.join(work, 'drop', 'bm25-baseline-mab.json'), file('seed000_rules.json')]);
  await waitReady(page, 'rules');
  const roles = await page.$$eval('#rules-files tbody tr', (trs) => trs.map((tr) => [tr.dataset.file, tr.dataset.role]));
  assert.deepEqual(roles, [['seed000_gitlog.txt', 'git_log'], ['seed000_values.json', 'values'], ['bm25-baseline-mab.json', 'data'], ['seed000_rules.json', 'rules']]);
  const args = ['rules', '--rules', 'seed000_rules.json', '--values', 'seed000_values.json', '--git-log', 'seed000_gitlog.txt', '--data', 'results/v7/bm25-baseline-mab.json', '--evaluated-at', '2026-11-22T00:00:00Z'];
  const want = JSON.parse(inWork([...args, '--format', 'json']));
  await checkHeadlines(page, '#rules-headlines', want, 'rules');
  const rows = await checkTable(page, '#rules-verdicts', want.verdicts, { margin: (v) => v.margin }, 'verdicts');
  rows.forEach((r, i) => {
    const v = want.verdicts[i];
    assert.deepEqual([r.attrs.rule, r.attrs.fired, r.attrs.temporal], [v.rule_id, String(v.fired ?? ''), v.temporal.status]);
    assert.equal(r.cells.outcome.text, v.outcome);
    assert.equal(r.cells.registered.text, opt(v.temporal.registered));
  });
  const counts = await page.$eval('#rules-counts', (p) => ({ ...p.dataset }));
  assert.deepEqual(counts, { fired: String(want.fired), notFired: String(want.not_fired), errors: String(want.errors), late: String(want.registered_after_data) });
  // The rule registered after its data is flagged, in the alert, the table and its details.
  assert.equal(want.registered_after_data, 1);
  assert.deepEqual(await page.$$eval('#rules-late li', (l) => l.map((x) => x.dataset.rule)), ['bm25_layer']);
  assert.match(await page.getAttribute('#rules-verdicts tr[data-rule="bm25_layer"]', 'class'), /late/);
  assert.match(await page.textContent('#rules-verdicts tr[data-rule="bm25_layer"] [data-col="flag"]'), /registered after its data/);
  assert.equal(await page.$$eval('#rules-verdicts tr.late', (l) => l.length), 1);
  // Inputs with their file hashes (the dropped data file fingerprints its source).
  const i = want.verdicts.findIndex((v) => v.rule_id === 'bm25_layer');
  const inputs = await readRows(page, `#rules-inputs-${i}`);
  assert.equal(inputs.length, want.verdicts[i].inputs.length);
  inputs.forEach((r, j) => {
    const w = want.verdicts[i].inputs[j];
    assert.ok(w.sha256, 'the CLI fingerprints the data file');
    assert.deepEqual([r.attrs.input, r.cells.sha256.text, r.cells.data_time.text, r.cells.late.value], [w.name, w.sha256, w.data_time, 'true']);
    checkNumber(r.cells.estimate, w.estimate, `${w.name} estimate`);
  });
  assert.equal(await download(page, '#page-rules button[data-export="verdicts"][data-kind="csv"]'), inWork([...args, '--format', 'csv']));
  assertDeepClose(JSON.parse(await download(page, '#rules-report-json')), want, 'rules JSON');

  await assertUniqueIds(page);
  assertClean(log);
  await page.close();
});

test('rules page: each exclusion ledger row judged with and without its values equals memaudit rules', async () => {
  const { page, log } = await openPage();
  await page.goto(`${srv.origin}${VIEWER}#rules`);
  await page.fill('#rules-evaluated-at', '2026-11-22T00:00:00Z');
  await page.setInputFiles('#rules-file-input', ['seed000_gitlog.txt', 'seed000_values.json', 'seed000_rules.json', 'seed000_exclusions.csv'].map(file));
  await waitReady(page, 'rules');
  const args = ['rules', '--rules', 'seed000_rules.json', '--values', 'seed000_values.json', '--git-log', 'seed000_gitlog.txt',
    '--exclusions', 'seed000_exclusions.csv', '--evaluated-at', '2026-11-22T00:00:00Z'];
  const want = JSON.parse(inWork([...args, '--format', 'json']));
  await checkHeadlines(page, '#rules-headlines', want, 'rules');
  assert.equal(want.exclusion_effects.length, 1, 'banking77 on phase7_knorm');
  const rows = await checkTable(page, '#rules-effects', want.exclusion_effects,
    { margin_with: (e) => e.margin_with, margin_without: (e) => e.margin_without }, 'exclusion effects');
  rows.forEach((r, i) => {
    const e = want.exclusion_effects[i];
    assert.deepEqual([r.attrs.item, r.attrs.rule, r.cells.outcome_with.text, r.cells.outcome_without.text],
      [e.item, e.rule_id, e.outcome_with, e.outcome_without]);
  });
  assert.equal(await download(page, '#page-rules button[data-export="exclusion_effects"][data-kind="csv"]'),
    inWork([...args, '--format', 'csv', '--table', 'exclusion_effects']));
  await assertUniqueIds(page);
  assertClean(log);
  await page.close();
});

test('input fingerprints: the browser\'s SHA-256, the WebAssembly one without crypto.subtle, and one spare worker', async () => {
  // A data file of 3 MB (several of the core's 1 MiB hashing chunks, not a multiple of one).
  const big = path.join(work, 'big', 'bm25-baseline-mab.json');
  fs.mkdirSync(path.dirname(big), { recursive: true });
  fs.writeFileSync(big, JSON.stringify({ bm25: 'the BM25 baseline run, as committed', pad: 'memaudit '.repeat(350_001) }) + '\n');
  const inputs = [file('seed000_gitlog.txt'), file('seed000_values.json'), big, file('seed000_rules.json')];
  const want = Object.fromEntries(inputs.map((f) => [path.basename(f), crypto.createHash('sha256').update(fs.readFileSync(f)).digest('hex')]));
  for (const subtle of [true, false]) {
    const { page, log } = await openPage();
    await page.addInitScript(() => {
      window.__workers = 0;
      const W = window.Worker;
      window.Worker = class extends W {
        constructor(...a) { super(...a); window.__workers++; }
      };
    });
    let routed = false;
    if (!subtle) {
      // As on a plain-http origin (not a secure context): the worker has no crypto.subtle.
      await page.route('**/worker-loader.js', async (route) => {
        routed = true;
        const body = (await route.fetch()).text();
        await route.fulfill({
          contentType: 'text/javascript',
          body: 'Object.defineProperty(Crypto.prototype, "subtle", { get() { return undefined; } });\n' + await body,
        });
      });
    }
    await page.goto(`${srv.origin}${VIEWER}#rules`);
    await page.waitForSelector('#rules-file-input', { state: 'attached' });
    // A press on the chooser starts the spare worker; the run takes it instead of a second one.
    await page.dispatchEvent('label[for="rules-file-input"]', 'pointerdown');
    assert.equal(await page.evaluate(() => window.__workers), 1, 'the spare worker starts on the press');
    await page.fill('#rules-evaluated-at', '2026-11-22T00:00:00Z');
    await page.setInputFiles('#rules-file-input', inputs);
    await waitReady(page, 'rules');
    const shown = await page.$$eval('#rules-files tbody tr', (trs) =>
      Object.fromEntries(trs.map((tr) => [tr.dataset.file, tr.querySelector('[data-col="sha256"]').title])));
    assert.deepEqual(shown, want, subtle ? 'crypto.subtle' : 'WebAssembly');
    assert.equal(routed, !subtle, 'the worker without crypto.subtle was the one that ran');
    await page.dispatchEvent('label[for="rules-file-input"]', 'pointerdown');
    assert.equal(await page.evaluate(() => window.__workers), 1, 'no spare while the page has its worker');
    assertClean(log);
    await page.close();
  }
});

test('IR evaluation page: trec_eval measures, per-query values, its text and the runs compared equal memaudit trec-eval', async () => {
  const TE = path.join(ROOT, 'tests', 'reference', 'trec_eval');
  for (const f of ['test.qrels', 'run_a.run', 'run_b.run']) fs.copyFileSync(path.join(TE, f), path.join(work, f));
  const { page, log } = await openPage();
  await page.goto(`${srv.origin}${VIEWER}#trec-eval`);
  await page.fill('#trec-eval-bootstrap', '2000');
  // Runs first, then the qrels: roles come from the content, not the order.
  await page.setInputFiles('#trec-eval-file-input', [file('run_a.run'), file('test.qrels'), file('run_b.run')]);
  await waitReady(page, 'trec-eval');
  const roles = await page.$$eval('#trec-eval-files tbody tr', (trs) => trs.map((tr) => [tr.dataset.file, tr.dataset.role]));
  assert.deepEqual(roles, [['test.qrels', 'qrels'], ['run_a.run', 'runs'], ['run_b.run', 'runs']]);

  const check = async (args) => {
    const all = ['trec-eval', ...args, '--bootstrap', '2000', 'test.qrels', 'run_a.run', 'run_b.run'];
    const want = JSON.parse(inWork([...all, '--format', 'json']));
    await checkHeadlines(page, '#trec-eval-headlines', want, 'trec-eval');
    // Every summary value of every run.
    const cells = await page.$$eval('#trec-eval-summary td[data-measure]', (tds) => tds.map((td) => ({ run: td.dataset.run, measure: td.dataset.measure, value: td.dataset.value, text: td.textContent.trim() })));
    let n = 0;
    for (const run of want.runs) {
      run.names.forEach((name, i) => {
        const v = run.summary[i];
        if (v === null) return;
        const c = cells.find((x) => x.run === run.file && x.measure === name.name);
        assert.ok(c, `${run.file} ${name.name}: no cell`);
        if (typeof v === 'string') assert.equal(c.value, v);
        else checkNumber(c, v, `${run.file} ${name.name}`);
        n++;
      });
    }
    assert.equal(cells.length, n, 'summary cells');
    // trec_eval's text of each run, byte for byte the CLI's with that run alone.
    for (const [i, run] of ['run_a.run', 'run_b.run'].entries()) {
      const text = await page.textContent(`#trec-eval-text-${i}`);
      const alone = inWork(['trec-eval', ...args, 'test.qrels', run]);
      assert.equal(text, alone, `${run}: trec_eval text`);
    }
    // The comparison: each run's mean and each pair.
    await checkTable(page, '#trec-eval-arms', want.comparison.comparison.arms, { mean: (a) => a.mean, ci_low: (a) => a.ci_low, ci_high: (a) => a.ci_high }, 'arms');
    await checkTable(page, '#trec-eval-pairs', want.comparison.comparison.pairs, { diff: (p) => p.diff, p_value: (p) => p.p_value, p_holm: (p) => p.p_holm }, 'pairs');
    assert.equal(await page.getAttribute('#trec-eval-comparison-line', 'data-measure'), want.comparison.measure);
    // The runs compared are drawn: the forest plot of the contrasts, as the report's SVG.
    assert.ok((await inkPixels(page, '#trec-eval-forest')) > 1500, 'the forest plot is drawn');
    // "On this page" lists the result cards as drawn, then the settings, which follow the results.
    await page.waitForSelector('#trec-eval-contents a[data-card="trec-eval-comparison"]');
    const listed = await page.$$eval('#trec-eval-contents a[data-card]', (as) => as.map((a) => a.dataset.card));
    const drawn = await page.$$eval('#trec-eval-results section.card[id]', (ss) => ss.map((s) => s.id));
    assert.deepEqual(listed, [...drawn, 'trec-eval-settings']);
    assert.ok(await page.$eval('#trec-eval-results', (r) =>
      Boolean(r.compareDocumentPosition(document.getElementById('trec-eval-settings')) & Node.DOCUMENT_POSITION_FOLLOWING)),
    'the settings follow the results');
    const hash = await page.evaluate(() => location.hash);
    await page.click('#trec-eval-contents a[data-card="trec-eval-comparison"]');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'trec-eval-comparison');
    assert.equal(await page.evaluate(() => location.hash), hash, 'the page shown stays');
    // The per-query values of the compared measure.
    const rows = await page.$$eval('#trec-eval-per-query-table tbody tr', (trs) => trs.map((tr) => ({ q: tr.dataset.query, cells: [...tr.querySelectorAll('td')].map((td) => ({ run: td.dataset.run, value: td.dataset.value ?? '' })) })));
    for (const run of want.runs) {
      const col = run.names.findIndex((x) => x.name === want.comparison.measure);
      for (const q of run.queries) {
        const r = rows.find((x) => x.q === q.qid);
        const c = r.cells.find((x) => x.run === run.file);
        checkNumber({ value: c.value, text: c.value }, q.values[col], `${run.file} ${q.qid}`);
      }
    }
    // The exports are the CLI's CSV.
    assert.equal(await download(page, '#page-trec-eval button[data-export="summary"][data-kind="csv"]'), inWork([...all, '--format', 'csv', '--table', 'summary']));
    assert.equal(await download(page, '#page-trec-eval button[data-export="per_query"][data-kind="csv"]'), inWork([...all, '--format', 'csv', '--table', 'per_query']));
    return want;
  };
  const first = await check([]);
  assert.equal(first.comparison.measure, 'map');
  // Other measures, a relevance level and a depth, compared on nDCG@10.
  await page.fill('#trec-eval-measures', 'official nDCG@10 P.3,7');
  await page.fill('#trec-eval-level', '2');
  await page.fill('#trec-eval-depth', '50');
  await page.fill('#trec-eval-compare-measure', 'ndcg_cut_10');
  await reanalyse(page, 'trec-eval', 'trec-eval-summary-card', '-l 2');
  const second = await check(['-l', '2', '-M', '50', '-m', 'official', '-m', 'nDCG@10', '-m', 'P.3,7', '--compare-measure', 'ndcg_cut_10']);
  assert.equal(second.comparison.measure, 'ndcg_cut_10');
  // An unknown measure is refused with the core's words.
  const err = cliError(['trec-eval', '-m', 'nope', file('test.qrels'), file('run_a.run')]);
  const m = err.trim().match(/^memaudit: error: invalid setting `measure`: (.*)$/);
  assert.ok(m, err);
  await page.fill('#trec-eval-measures', 'nope');
  await page.click('#trec-eval-apply');
  await page.waitForSelector('#trec-eval-error', { timeout: 30_000 });
  assert.equal((await page.textContent('#trec-eval-error-message')).trim(), m[1]);

  await assertUniqueIds(page);
  assertClean(log);
  await page.close();
});

test('labels page: Fleiss and Cohen kappas, distributions, items and the sample equal memaudit labels', async () => {
  const { page, log } = await openPage();
  await load(page, 'labels', file('demo-labels.csv'));
  const base = ['labels', '--labels', 'demo-labels.csv'];
  const check = async (args) => {
    const want = JSON.parse(inWork([...base, ...args, '--format', 'json']));
    await checkHeadlines(page, '#labels-headlines', want, 'labels');
    await checkTable(page, '#labels-overall', want.overall, {
      complete_items: (o) => o.complete_items, fleiss_kappa: (o) => o.fleiss_kappa, low: (o) => o.low, high: (o) => o.high,
      mean_pair_agreement: (o) => o.mean_pair_agreement, ties: (o) => o.ties,
    }, 'overall');
    await checkTable(page, '#labels-pairs', want.pairs, {
      n: (q) => q.n, percent_agreement: (q) => q.percent_agreement, kappa: (q) => q.kappa, low: (q) => q.low, high: (q) => q.high,
    }, 'pairs');
    await checkTable(page, '#labels-distribution', want.distribution, {
      count: (d) => d.count, n: (d) => d.n, share: (d) => d.share, low: (d) => d.low, high: (d) => d.high,
    }, 'distribution');
    const items = await readRows(page, '#labels-items');
    assert.equal(items.length, want.item_rows.length, 'items');
    items.forEach((r, i) => assert.equal(r.attrs.item, want.item_rows[i].item));
    return want;
  };
  await check([]);
  // A collapse, groups, a tie-break and the sample: re-analysed on the kept file where only the analysis changes.
  await page.fill('#labels-collapse', 'relevant=supports,partial');
  await page.selectOption('#labels-tie-break', 'class_order');
  await page.fill('#labels-group', 'dataset');
  await page.fill('#labels-stratum', 'credited_rank');
  await page.fill('#labels-sample-per-bucket', '3');
  await page.fill('#labels-buckets', '1-5,6-20,21-60');
  await page.selectOption('#labels-sample-mode', 'even');
  await reanalyse(page, 'labels', 'labels-overall-card', 'collapse=relevant=supports,partial');
  const args = ['--collapse', 'relevant=supports,partial', '--tie-break', 'class_order', '--group', 'dataset', '--stratum', 'credited_rank',
    '--sample', '3', '--buckets', '1-5,6-20,21-60', '--sample-mode', 'even'];
  const want = await check(args);
  const sample = await readRows(page, '#labels-sample');
  assert.deepEqual(sample.map((r) => r.attrs.item), want.sample.rows.map((r) => r.item), 'sample');
  for (const t of ['overall', 'pairs', 'distribution', 'items', 'sample']) {
    assert.equal(await download(page, `#page-labels button[data-export="${t}"][data-kind="csv"]`), inWork([...base, ...args, '--format', 'csv', '--table', t]), t);
  }
  assertDeepClose(JSON.parse(await download(page, '#labels-report-json')), want, 'labels JSON');
  // The instance view: a sampled item opens as the file states it, as `--show-item` prints it.
  const showItem = async (item) => {
    const shown = await readItemText(page, 'labels-', item);
    const cli = JSON.parse(inWork([...base, ...args, '--show-item', item]));
    assert.deepEqual(shown, { shared: cli.shared, arms: cli.arms.map((a) => ({ arm: a.arm, rows: a.rows })) }, `item ${item}`);
    assert.ok(cli.arms.length >= 2 && cli.arms.every((a) => a.rows.length > 0 && a.rows[0].fields[0].column === 'label'), 'each rater with its label first');
    assert.equal(await download(page, '#page-labels button[data-export="item-text"][data-kind="csv"]'), inWork([...base, ...args, '--show-item', item, '--format', 'csv']), `item ${item} CSV`);
  };
  const sampled = want.sample.rows[0].item;
  await page.click(`#labels-sample tr[data-item="${sampled}"]`);
  await showItem(sampled);
  assert.equal(await page.getAttribute(`#labels-sample tr[data-item="${sampled}"]`, 'aria-current'), 'true', 'the row shown is marked');
  // Enter on a row of the items table opens its item too.
  const other = want.item_rows.find((r) => r.item !== sampled && !r.unanimous).item;
  await page.focus(`#labels-items tr[data-item="${other}"]`);
  await page.keyboard.press('Enter');
  await showItem(other);

  // TIAP's judged_cases shape, read by its own column names (a fresh page: default settings).
  const fresh = await openPage();
  await load(fresh.page, 'labels', file('judged.jsonl'));
  const tiap = JSON.parse(inWork(['labels', '--labels', 'judged.jsonl', '--format', 'json']));
  assert.equal(Number(await fresh.page.getAttribute('#labels-counts', 'data-items')), tiap.items);
  await checkHeadlines(fresh.page, '#labels-headlines', tiap, 'labels on judged.jsonl');
  // A repeated label is refused with the CLI's words (default settings: repeats refused).
  fs.writeFileSync(file('dup.csv'), 'item,rater,label\nq1,a,x\nq1,a,y\nq1,b,x\n');
  await fresh.page.setInputFiles('#labels-file-input', file('dup.csv'));
  await fresh.page.waitForSelector('#labels-error', { timeout: 30_000 });
  const words = (await fresh.page.textContent('#labels-error-message')).replace(/\s+/g, ' ');
  const cliWords = cliError(['labels', '--labels', file('dup.csv')]);
  assert.ok(words.includes('already has a label from rater `a`') && words.includes('dup.csv'), words);
  assert.ok(cliWords.includes('already has a label from rater `a`'), cliWords);
  assertClean(fresh.log);
  await fresh.page.close();

  await assertUniqueIds(page);
  assertClean(log);
  await page.close();
});

test('calibration page: ledger, AUC, bins, sweep and Platt calibration equal memaudit calibration', async () => {
  const { page, log } = await openPage();
  await load(page, 'calibration', file('routing.csv'));
  const base = ['calibration', '--input', 'routing.csv'];
  const check = async (args) => {
    const want = JSON.parse(inWork([...base, ...args, '--format', 'json']));
    await checkHeadlines(page, '#calibration-headlines', want, 'calibration');
    await checkTable(page, '#calibration-ledger', want.ledger, { n: (l) => l.n, help: (l) => l.help, hurt: (l) => l.hurt, delta_accuracy: (l) => l.delta_accuracy }, 'ledger');
    await checkTable(page, '#calibration-bins', want.bins, {
      n: (b) => b.n, accuracy_without: (b) => b.accuracy_without, without_low: (b) => b.without_low, without_high: (b) => b.without_high, accuracy_with: (b) => b.accuracy_with,
    }, 'bins');
    await checkTable(page, '#calibration-sweep', want.sweep, { tau: (w) => w.tau, inject_fraction: (w) => w.inject_fraction, accuracy: (w) => w.accuracy, delta: (w) => w.delta }, 'sweep');
    await checkTable(page, '#calibration-calibration', want.calibration, { n: (c) => c.n, ece: (c) => c.ece, brier: (c) => c.brier, log_loss: (c) => c.log_loss }, 'calibration');
    assert.ok(Math.abs(Number(await page.getAttribute('#calibration-auc', 'data-auc')) - want.auc.auc) < 1e-9, 'AUC');
    return want;
  };
  await check([]);
  // A split and a fit split: Platt scaling scored on the other splits (the file is read again).
  await page.fill('#calibration-split', 'split');
  await page.fill('#calibration-fit', '0');
  await page.fill('#calibration-ece-bins', '15');
  await reanalyse(page, 'calibration', 'calibration-ledger-card', 'fit=0');
  const args = ['--split', 'split', '--fit', '0', '--ece-bins', '15'];
  const want = await check(args);
  // Each evaluation split, then the two pooled (scored over their items together).
  assert.deepEqual(want.calibration.filter((c) => c.method === 'platt').map((c) => c.split), ['1', '2', 'pooled: 1, 2']);
  // The CLI's CSV to the last digit but one (wasm's exp may differ from the native one in the last bit).
  for (const t of ['ledger', 'bins', 'sweep', 'calibration']) {
    assertCsvClose(await download(page, `#page-calibration button[data-export="${t}"][data-kind="csv"]`), inWork([...base, ...args, '--format', 'csv', '--table', t]), t);
  }
  assertDeepClose(JSON.parse(await download(page, '#calibration-report-json')), want, 'calibration JSON');
  // Platt on every split is refused with the core's words.
  await page.fill('#calibration-fit', '0,1,2');
  await page.click('#calibration-apply');
  await page.waitForSelector('#calibration-error', { timeout: 60_000 });
  assert.match(await page.textContent('#calibration-error-message'), /leave at least one split/);
  await assertUniqueIds(page);
  assertClean(log);
  await page.close();
});

test('calibration page: bank governance per retrieved entry equals memaudit calibration', async () => {
  const { page, log } = await openPage();
  await page.goto(`${srv.origin}${VIEWER}#calibration`);
  await page.fill('#calibration-split', 'split');
  await page.fill('#calibration-governance-splits', 'fit,dev');
  await page.waitForSelector('#calibration-file-input', { state: 'attached' });
  await page.setInputFiles('#calibration-file-input', file('governance.csv'));
  await waitReady(page, 'calibration');
  const args = ['calibration', '--input', 'governance.csv', '--split', 'split', '--governance-splits', 'fit,dev'];
  const want = JSON.parse(inWork([...args, '--format', 'json']));
  await checkHeadlines(page, '#calibration-headlines', want, 'calibration');
  assert.ok(want.governance.retired > 0 && want.governance.retired !== want.governance.retired_other, 'the radii disagree');
  const rows = await checkTable(page, '#calibration-governance', want.governance.entries, {
    n: (e) => e.n, helps: (e) => e.helps, hurts: (e) => e.hurts, mean: (e) => e.mean, ucb: (e) => e.ucb,
    radius_published: (e) => e.radius_published, radius_textbook: (e) => e.radius_textbook,
  }, 'governance');
  assert.deepEqual(rows.map((r) => r.attrs.entry), want.governance.entries.map((e) => e.entry));
  assertCsvClose(await download(page, '#page-calibration button[data-export="governance"][data-kind="csv"]'),
    inWork([...args, '--format', 'csv', '--table', 'governance']), 'governance');
  await assertUniqueIds(page);
  assertClean(log);
  await page.close();
});

test('alignment page: classes, coverage confound and run identity equal memaudit alignment', async () => {
  const { page, log } = await openPage();
  await load(page, 'alignment', [file('alignment-per_query.csv'), file('alignment-answers.csv')]);
  const base = ['alignment', '--input', 'alignment-per_query.csv', '--input', 'alignment-answers.csv'];
  const check = async (args) => {
    const want = JSON.parse(inWork([...base, ...args, '--format', 'json']));
    await checkHeadlines(page, '#alignment-headlines', want, 'alignment');
    await checkTable(page, '#alignment-alignment', want.alignment, {
      n: (a) => a.n, mean_score: (a) => a.mean_score, positive_share: (a) => a.positive_share, strong_share: (a) => a.strong_share,
    }, 'alignment');
    await checkTable(page, '#alignment-coverage', want.coverage, { covered_mean: (c) => c.covered_mean, uncovered_mean: (c) => c.uncovered_mean, diff: (c) => c.diff, low: (c) => c.low, high: (c) => c.high }, 'coverage');
    await checkTable(page, '#alignment-identity', want.identity, { common: (i) => i.common, identical: (i) => i.identical, share: (i) => i.share }, 'identity');
    return want;
  };
  await check([]);
  await page.fill('#alignment-target-b', 'source');
  await page.fill('#alignment-strong', '0.6');
  await reanalyse(page, 'alignment', 'alignment-alignment-card', 'target_b=source');
  const args = ['--target-b', 'source', '--strong', '0.6'];
  const want = await check(args);
  for (const t of ['alignment', 'coverage', 'identity']) {
    assert.equal(await download(page, `#page-alignment button[data-export="${t}"][data-kind="csv"]`), inWork([...base, ...args, '--format', 'csv', '--table', t]), t);
  }
  assertDeepClose(JSON.parse(await download(page, '#alignment-report-json')), want, 'alignment JSON');

  // TIAP's records as shipped (targets in columns, the answer F1 in the same row), one dataset
  // kept by "keep only": the CLI's --filter.
  const records = ['run_id,dataset,query_index,qa_f1_generated,raw_eligible,raw_hit_at_k,raw_ndcg,canonical_eligible,canonical_hit_at_k,canonical_ndcg'];
  for (const [run, dataset] of [['r1', 'A'], ['r2', 'A'], ['r3', 'B']]) {
    for (let q = 1; q <= 12; q++) {
      const raw = (q + run.length * 3) % 3 !== 0;
      const canon = (q * 7 + Number(run[1])) % 4 !== 0;
      const covered = q % 5 !== 0;
      records.push([run, dataset, q, ((q * 37 + Number(run[1]) * 11) % 100) / 100, 'True', raw ? 1 : 0, raw ? (q % 7) / 10 + 0.05 : 0,
        covered ? 'True' : 'False', covered ? (canon ? 1 : 0) : '', covered ? (canon ? (q % 3) / 10 + 0.1 : 0) : ''].join(','));
    }
  }
  fs.writeFileSync(path.join(work, 'records.csv'), records.join('\n') + '\n');
  await page.click('#alignment-clear-files');
  await page.setInputFiles('#alignment-file-input', file('records.csv'));
  await waitReady(page, 'alignment');
  await page.fill('#alignment-target-b', 'canonical');
  await page.fill('#alignment-filter', 'dataset=A');
  await page.fill('#alignment-metric', 'ndcg');
  await reanalyse(page, 'alignment', 'alignment-alignment-card', 'dataset=A');
  const filtered = JSON.parse(inWork(['alignment', '--input', 'records.csv', '--filter', 'dataset=A', '--metric', 'ndcg', '--strong', '0.6', '--format', 'json']));
  assert.deepEqual(filtered.runs, ['r1', 'r2']);
  await checkTable(page, '#alignment-alignment', filtered.alignment, {
    n: (a) => a.n, mean_score: (a) => a.mean_score, strong_share: (a) => a.strong_share,
  }, 'records alignment');
  await checkTable(page, '#alignment-coverage', filtered.coverage, { diff: (c) => c.diff, low: (c) => c.low, high: (c) => c.high }, 'records coverage');
  // Every run, compared within its dataset: the target shifts (TIAP Table 15) and the
  // aggregations with τ_d (Table 8) equal `--group dataset`.
  await page.fill('#alignment-filter', '');
  await page.fill('#alignment-group', 'dataset');
  await reanalyse(page, 'alignment', 'alignment-shifts-card', 'group');
  const grouped = JSON.parse(inWork(['alignment', '--input', 'records.csv', '--group', 'dataset', '--metric', 'ndcg', '--strong', '0.6', '--format', 'json']));
  assert.ok(grouped.shifts.some((s) => s.run === 'pooled' && s.group === 'A'), 'a pooled row for dataset A');
  await checkTable(page, '#alignment-shifts', grouped.shifts, {
    shared: (s) => s.shared, hit_flips: (s) => s.hit_flips, changed: (s) => s.changed, change_rate: (s) => s.change_rate,
    mean_abs_shift: (s) => s.mean_abs_shift, large_share: (s) => s.large_share,
  }, 'records shifts');
  await checkTable(page, '#alignment-aggregations', grouped.aggregations, { n: (a) => a.n, mean: (a) => a.mean, tau_d: (a) => a.tau_d }, 'records aggregations');
  const winners = await checkTable(page, '#alignment-winners', grouped.winners, { mean_a: (w) => w.mean_a, mean_b: (w) => w.mean_b }, 'records winners');
  winners.forEach((r, i) => assert.equal(r.cells.winner.text, grouped.winners[i].winner, `winner ${i + 1}`));
  await checkHeadlines(page, '#alignment-headlines', grouped, 'alignment grouped');
  // TIAP Table 2: each run's target contrasts on its shared subset, as the CLI prints them.
  await checkTable(page, '#alignment-contrasts', grouped.target_contrasts, {
    n: (c) => c.n, mean_a: (c) => c.mean_a, mean_b: (c) => c.mean_b, diff: (c) => c.diff, low: (c) => c.low, high: (c) => c.high,
  }, 'records target contrasts');
  // Figure 3: the histogram of the first pooled row of the settings' pair is drawn, its numbers
  // those of the row, and its CSV export equals --table shift_histogram.
  assert.ok((await inkPixels(page, '#alignment-histogram')) > 3000, 'shift histogram drawn');
  const first = grouped.shifts.find((s) => s.run === 'pooled' && s.target_a === 'raw' && s.target_b === 'canonical');
  assert.equal(await page.getAttribute('#alignment-histogram-stats', 'data-n'), String(first.shared));
  assert.equal(first.bins.reduce((a, b) => a + b.count, 0), first.shared, 'the bins count every shared query');
  const groupedArgs = ['alignment', '--input', 'records.csv', '--group', 'dataset', '--metric', 'ndcg', '--strong', '0.6'];
  for (const t of ['shift_histogram', 'target_contrasts']) {
    assert.equal(await download(page, `#page-alignment button[data-export="${t}"][data-kind="csv"]`), inWork([...groupedArgs, '--format', 'csv', '--table', t]), t);
  }
  // The paper's printed numbers against the result on screen, as `memaudit verify` says: one
  // printed as recomputed, one off by much, one of a row that is not there.
  const c0 = grouped.target_contrasts[0];
  const printedCsv = ['source,table,row,column,printed',
    `T2,target_contrasts,run=${c0.run}; target_a=${c0.target_a}; target_b=${c0.target_b},diff,${c0.diff.toFixed(3)}`,
    `T2,target_contrasts,run=${c0.run}; target_a=${c0.target_a}; target_b=${c0.target_b},mean_a,${(c0.mean_a + 0.25).toFixed(3)}`,
    'T2,target_contrasts,run=nobody; target_a=raw,diff,0.1'].join('\n') + '\n';
  fs.writeFileSync(file('printed.csv'), printedCsv);
  await page.setInputFiles('#alignment-printed-input', file('printed.csv'));
  await page.waitForSelector('#alignment-printed tbody tr[data-verdict]');
  const verified = JSON.parse(inWork(['verify', '--printed', 'printed.csv', ...groupedArgs, '--format', 'json']));
  assert.deepEqual(verified.rows.map((r) => r.verdict), ['matches', 'differs', 'not_computed']);
  const onScreen = await page.$$eval('#alignment-printed tbody tr[data-verdict]', (trs) => trs.map((t) => t.dataset.verdict));
  assert.deepEqual(onScreen, verified.rows.map((r) => r.verdict));
  assert.equal(await download(page, '#page-alignment button[data-export="printed"][data-kind="csv"]'),
    inWork(['verify', '--printed', 'printed.csv', ...groupedArgs, '--format', 'csv']), 'printed CSV');
  await assertUniqueIds(page);
  assertClean(log);
  await page.close();
});

test('compliance page: kappa, return on tokens, slopes, margins, power and the calculator equal the CLI', async () => {
  const { page, log } = await openPage();
  await load(page, 'compliance', file('compliance.csv'));
  const base = ['compliance', '--input', 'compliance.csv'];
  const check = async (args) => {
    const want = JSON.parse(inWork([...base, ...args, '--format', 'json']));
    await checkHeadlines(page, '#compliance-headlines', want, 'compliance');
    assert.equal(Number(await page.getAttribute('#compliance-counts', 'data-rows')), want.rows);
    await checkTable(page, '#compliance-arms', want.arms, {
      n: (a) => a.n, compliance: (a) => a.compliance, compliance_low: (a) => a.compliance_low, kappa: (a) => a.kappa, kappa_se: (a) => a.kappa_se,
      kappa_boot_low: (a) => a.kappa_boot_low, kappa_boot_high: (a) => a.kappa_boot_high, kappa_conditional: (a) => a.kappa_conditional,
      rot: (a) => a.rot, rot_boot_high: (a) => a.rot_boot_high, rot_mean_of_ratios: (a) => a.rot_mean_of_ratios,
    }, 'arms');
    await checkTable(page, '#compliance-slopes', want.slopes, { slope: (s) => s.slope, slope_low: (s) => s.slope_low, slope_high: (s) => s.slope_high, endpoint: (s) => s.endpoint }, 'slopes');
    await checkTable(page, '#compliance-depth', want.depth, { n: (c) => c.n, compliance: (c) => c.compliance, low: (c) => c.low, high: (c) => c.high }, 'depth');
    await checkTable(page, '#compliance-margins', want.margins, { delta: (m) => m.delta, low: (m) => m.low, high: (m) => m.high }, 'margins');
    await checkTable(page, '#compliance-power', want.power, { power: (p) => p.power, mde: (p) => p.mde, n_needed: (p) => p.n_needed }, 'power');
    // Compliance by recall bin and the failure modes (BriefBench Tables 45 and 34).
    assert.ok(want.recall_bins.length > 0 && want.failures.length > 0, 'the demo has a recall column');
    await checkTable(page, '#compliance-recall-bins', want.recall_bins, { n: (x) => x.n, compliance: (x) => x.compliance, low: (x) => x.low, high: (x) => x.high }, 'recall bins');
    await checkTable(page, '#compliance-failures', want.failures, { failures: (x) => x.failures, not_retrieved: (x) => x.not_retrieved, not_retrieved_share: (x) => x.not_retrieved_share }, 'failures');
    // Each pair of arms' ECDFs and their KS tests (BriefBench Figs. 2, 4, 7).
    assert.ok(want.dominance.length > 0 && want.ecdf.length > 0, 'the demo has pairs of arms');
    await checkTable(page, '#compliance-dominance', want.dominance, { d: (x) => x.d, p: (x) => x.p, d_a_greater: (x) => x.d_a_greater, p_a_greater: (x) => x.p_a_greater, p_b_greater: (x) => x.p_b_greater }, 'dominance');
    if (want.mediation.length) {
      await checkTable(page, '#compliance-mediation', want.mediation, { total: (m) => m.total, direct: (m) => m.direct, indirect: (m) => m.indirect, indirect_low: (m) => m.indirect_low, proportion: (m) => m.proportion }, 'mediation');
    }
    return want;
  };
  await check([]);
  assert.equal(await page.locator('#compliance-depth-plot-0').count(), 1, 'the depth plot is drawn');
  assert.equal(await page.locator('#compliance-ecdf-plot-0').count(), 1, 'the ECDF plot is drawn');
  await page.fill('#compliance-focus', 'graph');
  await page.fill('#compliance-claimed-effect', '0.1');
  await page.fill('#compliance-bootstrap', '2000');
  // The theory's parameters (BriefBench's calibrated values): its curves beside the margins.
  await page.fill('#compliance-theory-s0', '0.7');
  await page.fill('#compliance-theory-rho', '0.67');
  await page.fill('#compliance-theory-q', '0.97');
  await reanalyse(page, 'compliance', 'compliance-arms-card', 'theory_q=0.97');
  const args = ['--focus', 'graph', '--claimed-effect', '0.1', '--bootstrap', '2000', '--theory-s0', '0.7', '--theory-rho', '0.67', '--theory-q', '0.97'];
  const want = await check(args);
  assert.ok(want.theory.length > 0 && want.laws.length > 0, 'theory rows and law fits');
  await checkTable(page, '#compliance-theory', want.theory, { similarity_ceiling: (x) => x.similarity_ceiling, structured: (x) => x.structured, advantage: (x) => x.advantage, delta: (x) => x.delta, low: (x) => x.low, high: (x) => x.high }, 'theory');
  await checkTable(page, '#compliance-laws', want.laws, { points: (x) => x.points, q: (x) => x.q, s0: (x) => x.s0, rho: (x) => x.rho, aic: (x) => x.aic, bic: (x) => x.bic }, 'laws');
  const dStar = await page.getAttribute('#compliance-crossover tr[data-against^="max("]', 'data-d-star');
  assert.equal(dStar, String(want.crossover.find((c) => c.against.startsWith('max(')).d_star ?? ''));
  assert.ok(want.mediation.length > 0, 'mediation rows with a focus');
  for (const t of ['arms', 'depth', 'slopes', 'margins', 'crossover', 'power', 'mediation', 'recall_bins', 'failures', 'dominance', 'ecdf', 'theory', 'laws']) {
    assertCsvClose(await download(page, `#page-compliance button[data-export="${t}"][data-kind="csv"]`), inWork([...base, ...args, '--format', 'csv', '--table', t]), t);
  }
  assertDeepClose(JSON.parse(await download(page, '#compliance-report-json')), want, 'compliance JSON');
  // The calculator: the same answer as `memaudit power`, and the command it prints.
  await page.selectOption('#power-design', 'two_proportions');
  await page.fill('#power-n', '40');
  await page.fill('#power-p1', '1');
  await page.fill('#power-p2', '0.9');
  const calc = JSON.parse(inWork(['power', '--design', 'two_proportions', '--n', '40', '--p1', '1', '--p2', '0.9', '--format', 'json']));
  await page.waitForFunction(() => document.querySelector('#power-command')?.textContent.includes('--p1 1 --p2 0.9'));
  for (const [attr, key] of [['data-power', 'power'], ['data-n-needed', 'n_needed'], ['data-mde', 'mde']]) {
    assert.ok(Math.abs(Number(await page.getAttribute('#power-answer', attr)) - calc[key]) < 1e-9, `${key}: ${calc[key]}`);
  }
  assert.match(await page.textContent('#power-command'), /^memaudit power --design two_proportions --n 40 --p1 1 --p2 0.9/);
  await page.fill('#power-alpha', '2');
  await page.waitForSelector('#power-error');
  // A compliance rate outside [0, 1] is refused with the file, line and column.
  fs.writeFileSync(file('bad-compliance.csv'), 'arm,compliance\na,1\nb,1.5\n');
  await page.setInputFiles('#compliance-file-input', file('bad-compliance.csv'));
  await page.waitForSelector('#compliance-error', { timeout: 30_000 });
  assert.equal(await page.textContent('#compliance-error-file'), 'bad-compliance.csv');
  assert.equal(await page.textContent('#compliance-error-line'), '3');
  assert.equal(await page.textContent('#compliance-error-field'), 'compliance');
  assert.match(await page.textContent('#compliance-error-message'), /is not in \[0, 1\]/);
  assert.ok(cliError(['compliance', '--input', file('bad-compliance.csv')]).includes('line 3'));
  await assertUniqueIds(page);
  assertClean(log);
  await page.close();
});

test('Input limits: a file over the row budget is refused as memaudit --max-rows refuses it, in the page’s words, then read under the defaults', async () => {
  const { page, log } = await openPage();
  await page.goto(`${srv.origin}${VIEWER}#compliance`);
  await page.waitForSelector('#compliance-file-input', { state: 'attached' });
  await page.click('#limits summary');
  // A bad value is refused in the panel and nothing changes.
  await page.fill('#limits-max-rows', '0');
  await page.click('#limits-apply');
  await page.waitForSelector('#limits-error');
  assert.match(await page.textContent('#limits-error'), /max_rows/);
  await page.fill('#limits-max-rows', '5');
  await page.click('#limits-apply');
  await page.waitForFunction(() => document.querySelector('#limits-now')?.textContent.includes(', 5 rows'));
  assert.equal(await page.$('#limits-error'), null);
  // memaudit --max-rows 5 compliance --input compliance.csv
  const err = cliError(['--max-rows', '5', 'compliance', '--input', file('compliance.csv')]);
  const m = err.trim().match(/^memaudit: error: .*compliance\.csv, line 6: (holds more than 5 rows .*)$/);
  assert.ok(m, err);
  // The same message, the setting named in each interface's words.
  const onPage = m[1].replace('(--max-rows)', '(\u201cmost rows per file\u201d under Input limits)');
  assert.notEqual(onPage, m[1], err);
  await page.setInputFiles('#compliance-file-input', file('compliance.csv'));
  await page.waitForSelector('#compliance-error-message', { timeout: 60_000 });
  assert.equal((await page.textContent('#compliance-error-file')).trim(), 'compliance.csv');
  assert.equal((await page.textContent('#compliance-error-message')).trim(), onPage);
  // The defaults again: the same file is read.
  await page.click('#limits-reset');
  await page.waitForFunction(() => document.querySelector('#limits-now')?.textContent.includes(', 2000000 rows'));
  await page.setInputFiles('#compliance-file-input', file('compliance.csv'));
  await waitReady(page, 'compliance');
  assertClean(log);
  await page.close();
});

test('release page: the default page; one drop of several families is routed and equals memaudit audit', async () => {
  const { page, log } = await openPage();
  await page.goto(`${srv.origin}${VIEWER}`);
  await page.waitForSelector('#page-audit:not([hidden]) #audit-file-input', { state: 'attached' });
  // A printed-numbers file among them: checked against the runs, never analysed.
  const a0 = JSON.parse(inWork(['compliance', '--input', 'compliance.csv', '--format', 'json'])).arms[0];
  const key = `arm=${a0.arm}` + (a0.group ? `; group=${a0.group}` : '');
  fs.writeFileSync(file('release-printed.csv'),
    `source,analysis,table,row,column,printed\nT1,compliance,arms,${key},compliance,${a0.compliance.toFixed(2)}\nT2,compliance,arms,arm=nobody,compliance,0.5\n`);
  const files = ['compliance.csv', 'demo-labels.csv', 'routing.csv', 'alignment-per_query.csv', 'alignment-answers.csv', 'release-printed.csv'];
  await page.setInputFiles('#audit-file-input', files.map(file));
  await waitReady(page, 'audit');
  const want = JSON.parse(inWork(['audit', ...files, '--format', 'json']));
  await checkHeadlines(page, '#audit-headlines', want, 'audit');
  const rows = await readRows(page, '#audit-files');
  assert.deepEqual(rows.map((r) => [r.attrs.file, r.attrs.status]), want.files.map((f) => [f.file, f.status]), 'files');
  const routes = Object.fromEntries(want.files.map((f) => [f.file, f.routed]));
  assert.deepEqual(routes['compliance.csv'], ['compliance']);
  // memaudit's own per-query rows feed the comparison too (arms compared on per-query metrics).
  assert.ok(routes['alignment-per_query.csv'].includes('alignment'), routes['alignment-per_query.csv']);
  assert.ok(routes['alignment-per_query.csv'].some((r) => r.startsWith('compare')), routes['alignment-per_query.csv']);
  assert.deepEqual(routes['release-printed.csv'], []);
  assert.deepEqual(want.printed.map((p) => [p.run, p.verdict]), [['compliance', 'matches'], ['', 'not_computed']]);
  const printedRows = await readRows(page, '#audit-printed');
  assert.deepEqual(printedRows.map((r) => r.attrs.verdict), want.printed.map((p) => p.verdict), 'printed on the release page');
  assert.equal(await page.locator('#audit-printed-card-input, #audit-printed-input').count(), 0, 'no second printed card');
  const analyses = await readRows(page, '#audit-analyses');
  assert.deepEqual(analyses.map((r) => [r.attrs.analysis, r.attrs.status]), want.analyses.map((a) => [a.id, a.status]), 'analyses');
  for (const t of ['files', 'analyses', 'printed']) {
    assert.equal(await download(page, `#page-audit button[data-export="${t}"][data-kind="csv"]`), inWork(['audit', ...files, '--format', 'csv', '--table', t]), t);
  }
  assertDeepClose(JSON.parse(await download(page, '#audit-report-json')), want, 'audit JSON');
  await assertUniqueIds(page);
  // "Open on the Compliance page": that page, its files handed over, the CLI's numbers.
  await page.click('#audit-open-compliance');
  await page.waitForSelector('#page-compliance:not([hidden])');
  await waitReady(page, 'compliance');
  assert.equal(await page.evaluate(() => location.hash), '#compliance');
  await checkHeadlines(page, '#compliance-headlines', JSON.parse(inWork(['compliance', '--input', 'compliance.csv', '--format', 'json'])), 'compliance');
  assertClean(log);
  await page.close();
});

test('a folder dropped on the page is walked as memaudit audit walks it: the same names, hidden files passed over', async () => {
  // A folder on disk, dropped as the operating system drops it (CDP drag with a path).
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'memaudit-drop-'));
  const dir = path.join(parent, 'paper');
  fs.mkdirSync(path.join(dir, 'sub'), { recursive: true });
  fs.mkdirSync(path.join(dir, '.git'));
  fs.copyFileSync(file('compliance.csv'), path.join(dir, 'compliance.csv'));
  fs.copyFileSync(file('demo-labels.csv'), path.join(dir, 'sub', 'labels.csv'));
  fs.writeFileSync(path.join(dir, '.hidden.csv'), 'not,read\n');
  fs.writeFileSync(path.join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  const { page, log } = await openPage();
  await page.goto(`${srv.origin}${VIEWER}`);
  await page.waitForSelector('#page-audit:not([hidden]) #audit-file-input', { state: 'attached' });
  const cdp = await page.context().newCDPSession(page);
  const data = { items: [], files: [dir], dragOperationsMask: 1 };
  for (const type of ['dragEnter', 'dragOver', 'drop']) await cdp.send('Input.dispatchDragEvent', { type, x: 200, y: 200, data });
  await waitReady(page, 'audit');
  const want = JSON.parse(cli(['audit', 'paper', '--format', 'json'], { cwd: parent }));
  assert.deepEqual(want.files.map((f) => f.file), ['paper/compliance.csv', 'paper/sub/labels.csv']);
  const rows = await readRows(page, '#audit-files');
  assert.deepEqual(rows.map((r) => [r.attrs.file, r.attrs.status]), want.files.map((f) => [f.file, f.status]), 'files');
  assertDeepClose(JSON.parse(await download(page, '#audit-report-json')), want, 'audit JSON');
  assert.equal(await page.$('#folder-error'), null);
  assertClean(log);
  await page.close();
  fs.rmSync(parent, { recursive: true, force: true });
});

test('an archive dropped whole: each analysis opens on its page with the files unpacked from it', async () => {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'memaudit-archive-'));
  fs.mkdirSync(path.join(parent, 'paper'));
  fs.copyFileSync(file('compliance.csv'), path.join(parent, 'paper', 'compliance.csv'));
  fs.copyFileSync(file('demo-labels.csv'), path.join(parent, 'paper', 'labels.csv'));
  const archive = path.join(parent, 'paper.tar.gz');
  execFileSync('tar', ['-czf', archive, '-C', parent, 'paper']);
  const { page, log } = await openPage();
  await page.goto(`${srv.origin}${VIEWER}`);
  await page.waitForSelector('#page-audit:not([hidden]) #audit-file-input', { state: 'attached' });
  await page.setInputFiles('#audit-file-input', archive);
  await waitReady(page, 'audit');
  const want = JSON.parse(cli(['audit', 'paper.tar.gz', '--format', 'json'], { cwd: parent }));
  assert.deepEqual(want.files.map((f) => [f.file, f.status]), [
    ['paper.tar.gz', 'unpacked'], ['paper.tar.gz/paper/compliance.csv', 'read'], ['paper.tar.gz/paper/labels.csv', 'read'],
  ]);
  assertDeepClose(JSON.parse(await download(page, '#audit-report-json')), want, 'audit JSON');
  // Its compliance rows, unpacked in the page and handed over: the compliance page's numbers.
  await page.click('#audit-open-compliance');
  await page.waitForSelector('#page-compliance:not([hidden])');
  await waitReady(page, 'compliance');
  await checkHeadlines(page, '#compliance-headlines', JSON.parse(inWork(['compliance', '--input', 'compliance.csv', '--format', 'json'])), 'compliance');
  assert.equal(await page.$('[id^="audit-open-error"]'), null);
  assertClean(log);
  await page.close();
  fs.rmSync(parent, { recursive: true, force: true });
});

test('the grouping is edited on the page as with --leave-out, --apart and --route, and the CLI gives the same', async () => {
  const { page, log } = await openPage();
  await page.goto(`${srv.origin}${VIEWER}`);
  await page.waitForSelector('#page-audit:not([hidden]) #audit-file-input', { state: 'attached' });
  const files = ['compliance.csv', 'demo-labels.csv', 'routing.csv'];
  await page.setInputFiles('#audit-file-input', files.map(file));
  await waitReady(page, 'audit');
  await page.click('#audit-edit summary');
  // Leave the compliance rows out: the same as memaudit audit … --leave-out compliance.csv.
  const index = files.indexOf('compliance.csv');
  await page.click(`#audit-leave-${index}`);
  await page.waitForSelector('#audit-files tr[data-file="compliance.csv"][data-status="left_out"]', { timeout: 60_000 });
  await waitReady(page, 'audit');
  assert.equal(await page.inputValue('#audit-leave-out'), 'compliance.csv');
  const want = JSON.parse(inWork(['audit', ...files, '--leave-out', 'compliance.csv', '--format', 'json']));
  assert.equal(want.files.find((f) => f.file === 'compliance.csv').status, 'left_out');
  assertDeepClose(JSON.parse(await download(page, '#audit-report-json')), want, 'audit JSON, compliance left out');
  // A name that is no file of the release is refused, in the page's words as in the CLI's.
  const err = cliError(['audit', ...files.map(file), '--apart', 'nothing.csv']);
  assert.match(err, /invalid setting `apart`: `nothing\.csv` names no file of the release/);
  assertClean(log);
  await page.close();
});

test('a file dropped on a page that does not read it names the page that does, as the CLI does', async () => {
  const { page, log } = await openPage();
  await page.goto(`${srv.origin}${VIEWER}#labels`);
  await page.waitForSelector('#labels-file-input', { state: 'attached' });
  await page.setInputFiles('#labels-file-input', file('compliance.csv'));
  await page.waitForSelector('#labels-error-message', { timeout: 60_000 });
  const shown = (await page.textContent('#labels-error-message')).trim();
  assert.match(shown, /its content is per-task compliance rows \(an arm and a compliance column\), which the Compliance page reads: open it \(#compliance\)/);
  const err = cliError(['labels', '--labels', file('compliance.csv')]);
  assert.match(err, /its content is per-task compliance rows \(an arm and a compliance column\), an input of `memaudit compliance`/);
  // The page offers to open that page with the file (taken off its own list): the compliance
  // page's numbers, as memaudit compliance gives them.
  assert.equal(await page.locator('#labels-file-list').count(), 0);
  assert.equal(await page.textContent('#labels-open-elsewhere'), 'Open the Compliance page with this file');
  await page.click('#labels-open-elsewhere');
  await page.waitForSelector('#page-compliance:not([hidden])');
  await waitReady(page, 'compliance');
  assert.equal(await page.evaluate(() => location.hash), '#compliance');
  await checkHeadlines(page, '#compliance-headlines', JSON.parse(inWork(['compliance', '--input', 'compliance.csv', '--format', 'json'])), 'compliance');
  assertClean(log);
  await page.close();
});

test('a companion site preloads a release with ?release=: its title, every file, and memaudit audit\'s numbers', async () => {
  const { page, log } = await openPage();
  await page.goto(`${srv.origin}${VIEWER}?release=/site/release`);
  await page.waitForSelector('#page-audit:not([hidden])');
  await waitReady(page, 'audit');
  assert.equal(await page.title(), 'A demo release \u2014 memaudit');
  // memaudit audit release (in the site's folder): the same names, the same numbers.
  const want = JSON.parse(cli(['audit', 'release', '--format', 'json'], { cwd: SITE_DIR }));
  const rows = await readRows(page, '#audit-files');
  assert.deepEqual(rows.map((r) => r.attrs.file), ['release/compliance.csv', 'release/sub/labels.csv']);
  assert.deepEqual(want.files.map((f) => f.file), ['release/compliance.csv', 'release/manifest.json', 'release/sub/labels.csv']);
  const got = JSON.parse(await download(page, '#audit-report-json'));
  // The CLI reads the folder, manifest included (listed, not read as data); the rest is equal.
  assertDeepClose(got.analyses, want.analyses, 'analyses');
  const besides = (hs) => hs.filter((h) => !/^\d+ files: /.test(h.text));
  assert.deepEqual(besides(got.headlines), besides(want.headlines), 'headlines besides the count of files');
  assert.ok(log.requests.some((u) => u.endsWith('/site/release/sub/labels.csv')));
  assert.deepEqual(log.errors, []);
  assertOwnFilesOnly(log, srv.origin, [VIEWER, '/site/']);
  await page.close();
});
