// Measures the IR evaluation page on the trec-eval benchmark's files (not a test; no asserts):
// time from choosing the files to results on screen, the progress the page showed while
// reading, a Cancel in the middle of reading (the page must stay usable), and the peak memory of
// Chromium (every process, sampled every 100 ms).
//
//   cargo bench --bench trec_eval          # writes target/bench-trec-eval/{qrels.txt,run.trec}
//   trunk build --release
//   node www/measure-trec-eval.mjs [runs] [--big GB]     # MEMAUDIT_DIST: another dist/ to serve
//
// `--big GB` also writes target/bench-trec-eval/big.trec (GB gigabytes of run lines: the
// benchmark's queries repeated under new query ids, which the qrels do not judge) and reads it.
import fs from 'node:fs';
import path from 'node:path';

import { ROOT, DIST, chromiumMb, launch } from './testkit.mjs';

const args = process.argv.slice(2);
const big = args.includes('--big') ? Number(args[args.indexOf('--big') + 1]) : 0;
const runs = Number(args.find((a, i) => /^\d+$/.test(a) && args[i - 1] !== '--big') || 3);
const DIR = path.join(ROOT, 'target', 'bench-trec-eval');
const qrels = path.join(DIR, 'qrels.txt');
const run = path.join(DIR, 'run.trec');
if (!fs.existsSync(run)) throw new Error('run `cargo bench --bench trec_eval` first (it writes the files)');

function writeBig(gb) {
  const file = path.join(DIR, 'big.trec');
  const want = gb * 1024 ** 3;
  if (fs.existsSync(file) && fs.statSync(file).size >= want) return file;
  const base = fs.readFileSync(run, 'utf8');
  const fd = fs.openSync(file, 'w');
  let written = 0;
  for (let copy = 0; written < want; copy++) {
    // Query ids stay distinct across copies: `c3-q17`.
    const text = base.replace(/^(\S+)/gm, `c${copy}-$1`);
    fs.writeSync(fd, text);
    written += Buffer.byteLength(text);
  }
  fs.closeSync(fd);
  return file;
}

const { srv, ctx } = await launch({ '/': process.env.MEMAUDIT_DIST || DIST }, 'measure-trec-eval');
const page = await ctx.newPage();
let peak = 0;
const sampler = setInterval(() => (peak = Math.max(peak, chromiumMb())), 100);

async function evaluate(files, label) {
  await page.goto(`${srv.origin}/#trec-eval`);
  await page.waitForSelector('#trec-eval-file-input', { state: 'attached' });
  await page.fill('#trec-eval-measures', 'map P.10 recip_rank ndcg_cut.1000 recall.1000');
  peak = chromiumMb();
  const seen = new Set();
  const t0 = Date.now();
  await page.setInputFiles('#trec-eval-file-input', files);
  for (;;) {
    const state = await page.getAttribute('#page-trec-eval', 'data-state');
    if (state === 'ready' || state === 'error') break;
    // Read without waiting: `page.textContent` waits up to 30 s for a label that may be gone
    // by then (the run ended between two looks), which once added 30 s to a measured run.
    const label = await page.evaluate(() => document.querySelector('#trec-eval-status label')?.textContent ?? null);
    if (label) seen.add(label.replace(/ — \d+%$/, '') + ' ' + (label.match(/\d+%$/) || [''])[0]);
    await page.waitForTimeout(100);
  }
  const ms = Date.now() - t0;
  const state = await page.getAttribute('#page-trec-eval', 'data-state');
  const error = state === 'error' ? (await page.textContent('#trec-eval-error').catch(() => '')).trim() : '';
  const counts = await page.$eval('#trec-eval-counts', (p) => `${p.dataset.runs} run(s), ${p.dataset.queries} queries`).catch(() => '');
  const progress = [...seen].filter((s) => /reading/.test(s));
  console.log(`${label}: ${ms} ms, state ${state}${error ? ` (${error})` : ''}, ${counts}, Chromium peak ${peak.toFixed(0)} MB`);
  console.log(`  reading progress shown ${progress.length} times: ${progress.slice(0, 3).join(' | ')} … ${progress.slice(-2).join(' | ')}`);
}

for (let i = 0; i < runs; i++) await evaluate([qrels, run], `7M-line run (${(fs.statSync(run).size / 1e6).toFixed(0)} MB)`);

// Cancel while reading: the page must go back to idle and take the next run.
await page.goto(`${srv.origin}/#trec-eval`);
await page.waitForSelector('#trec-eval-file-input', { state: 'attached' });
await page.setInputFiles('#trec-eval-file-input', [qrels, run]);
await page.waitForSelector('#trec-eval-cancel', { timeout: 30_000 });
await page.waitForTimeout(500);
const tc = Date.now();
await page.click('#trec-eval-cancel');
await page.waitForFunction(() => document.querySelector('#page-trec-eval')?.dataset.state !== 'busy', null, { timeout: 10_000 });
console.log(`cancel while reading: page ${await page.getAttribute('#page-trec-eval', 'data-state')} after ${Date.now() - tc} ms`);
await evaluate([qrels, run], 'after the cancel, the same files');

if (big) {
  const file = writeBig(big);
  await evaluate([qrels, file], `${(fs.statSync(file).size / 1e9).toFixed(2)} GB run`);
}
clearInterval(sampler);
await ctx.close();
srv.server.close();
