// Measures the answers, ablation, K-sweep & claims and rules pages on the core's committed test
// inputs (not a test; no asserts): time from choosing the files to results on screen
// (`#page-P[data-state=ready]`, plots drawn), and the worker's own time as the page prints it.
//
//   node www/measure-tools.mjs [runs]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { ROOT, DIST, launch } from './testkit.mjs';

const runs = Number(process.argv[2] || 3);
const FIXTURES = path.join(ROOT, 'tests', 'reference', 'paper_fixtures');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memaudit-measure5-'));
// The 45 worked examples of tests/answers.rs as answer rows.
const answers = path.join(dir, 'answers.jsonl');
const cases = JSON.parse(fs.readFileSync(path.join(ROOT, 'tests', 'reference', 'answers', 'answers_reference.json'), 'utf8')).cases;
fs.writeFileSync(answers, cases.map((c, i) => JSON.stringify({ query_id: `case${i}`, gold: c.gold, prediction: c.prediction, ...(c.dataset ? { dataset: c.dataset } : {}), ...(c.category !== null ? { category: c.category } : {}) })).join('\n') + '\n');

const { srv, ctx } = await launch({ '/': DIST }, 'measure5');
const page = await ctx.newPage();
const measure = async (name, files, line) => {
  const out = [];
  for (let i = 0; i < runs; i++) {
    await page.goto(`${srv.origin}/#${name}`);
    await page.waitForSelector(`#${name}-file-input`, { state: 'attached' });
    const t0 = Date.now();
    await page.setInputFiles(`#${name}-file-input`, files);
    await page.waitForSelector(`#page-${name}[data-state="ready"]`, { timeout: 300_000 });
    out.push(`${Date.now() - t0} ms (${(await page.textContent(line)).trim()})`);
  }
  console.log(`${name}: ${out.join(' | ')}`);
};
await measure('answers', [answers], '#answers-summary-line');
await measure('ablation', [path.join(FIXTURES, 'noncircularity.csv')], '#ablation-summary-line');
await measure('claims', ['seed000_claims.csv', 'seed000_scores.csv', 'seed000_tables.csv'].map((f) => path.join(FIXTURES, f)), '#claims-summary-line');
await measure('rules', ['seed000_rules.json', 'seed000_values.json', 'seed000_gitlog.txt'].map((f) => path.join(FIXTURES, f)), '#rules-counts');
await ctx.close();
srv.server.close();
