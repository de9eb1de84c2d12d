// Measures the rescoring page on a large bundle (not a test; no asserts): whether it ends in
// results or in a reported failure (never a dead tab), the time from choosing the files to that
// end, the worker's phases, and the peak memory of Chromium (every process, sampled every
// 100 ms). For "Limits: the largest inputs" in docs/viewer.md.
//
//   memaudit synth --queries 20000 --systems 8 --depth 60 --no-quirks --no-own-store --out /tmp/big9m
//   trunk build --release
//   node www/measure-large-bundle.mjs /tmp/big9m [runs]
//
// MEMAUDIT_DIST: another dist/ to serve (the viewer before a change).
import fs from 'node:fs';
import path from 'node:path';

import { DIST, chromiumMb, launch } from './testkit.mjs';

const dir = process.argv[2];
const runs = Number(process.argv[3] || 1);
if (!dir) throw new Error('give the directory of a bundle (memories.jsonl, queries.jsonl, runs.jsonl)');
const files = ['memories.jsonl', 'queries.jsonl', 'runs.jsonl'].map((f) => path.join(dir, f));
const mb = files.reduce((s, f) => s + fs.statSync(f).size, 0) / 1e6;

const { srv, ctx } = await launch({ '/': process.env.MEMAUDIT_DIST || DIST }, 'measure-large-bundle');
let peak = 0;
const sampler = setInterval(() => (peak = Math.max(peak, chromiumMb())), 100);
for (let i = 0; i < runs; i++) {
  const page = await ctx.newPage();
  let crashed = false;
  page.on('crash', () => (crashed = true));
  await page.goto(`${srv.origin}/#rescore`);
  await page.waitForSelector('#file-input', { state: 'attached' });
  peak = chromiumMb();
  const t0 = Date.now();
  await page.setInputFiles('#file-input', files);
  let state = 'busy';
  while (!crashed && Date.now() - t0 < 600_000) {
    state = await page.getAttribute('.app', 'data-state').catch(() => 'gone');
    if (state === 'ready' || state === 'error' || state === 'gone') break;
    await page.waitForTimeout(100);
  }
  const ms = Date.now() - t0;
  const error = state === 'error' ? (await page.textContent('#error').catch(() => '')).trim().slice(0, 300) : '';
  const timing = state === 'ready' ? (await page.textContent('#timing').catch(() => '')).trim() : '';
  // The page still answers: a click on the navigation is handled.
  const alive = !crashed && (await page.evaluate(() => document.readyState).catch(() => 'dead')) === 'complete';
  console.log(`run ${i + 1}: ${mb.toFixed(0)} MB of JSONL: ${crashed ? 'TAB CRASHED' : `state ${state}`} after ${ms} ms` +
    `${error ? ` (${error})` : ''}; page alive ${alive}; Chromium peak ${peak.toFixed(0)} MB`);
  if (timing) console.log(`  worker: ${timing}`);
  await page.close().catch(() => {});
}
clearInterval(sampler);
await ctx.close();
srv.server.close();
