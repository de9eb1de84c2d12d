// Measures the comparison page on the benchmark size (not a test; no asserts): 10 arms × 2,000
// paired items, 45 contrasts, 10,000 resamples each, BCa (the defaults).
//
//   node www/gen-compare-bench.mjs /tmp/compare-bench.csv
//   node www/measure-compare.mjs /tmp/compare-bench.csv [runs]
//
// Reports, measured inside the page: time from the file input's `change` event to the rendered
// results (tables, forest plot and CD diagram drawn), the worker's own read and total times,
// how many progress-bar updates were shown, and the longest main-thread task; then the time of
// a re-run on the kept table ("Compare" pressed again: no file is read).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve, CHROMIUM_ARGS } from './static-server.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const file = process.argv[2] || '/tmp/compare-bench.csv';
const runs = Number(process.argv[3] || 3);
if (!fs.existsSync(file)) throw new Error(`${file} missing: node www/gen-compare-bench.mjs ${file}`);

const srv = await serve({ '/': path.join(ROOT, 'dist') });
const ctx = await chromium.launchPersistentContext(fs.mkdtempSync(path.join(os.tmpdir(), 'memaudit-measure-')), {
  executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS, viewport: { width: 1280, height: 900 },
});

async function instrument(page) {
  await page.evaluate(() => {
    window.__m = { progress: 0, longest: 0, longTasks: 0 };
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) {
        window.__m.longTasks++;
        window.__m.longest = Math.max(window.__m.longest, e.duration);
      }
    }).observe({ type: 'longtask', buffered: false });
    new MutationObserver(() => {
      const p = document.querySelector('#compare-progress');
      if (p && p.value !== window.__m.lastValue) { window.__m.progress++; window.__m.lastValue = p.value; }
      const t = document.querySelector('#compare-timing')?.dataset;
      // A load shows its read time; a re-run on the kept table shows read 0.
      const done = document.querySelector('#page-compare[data-state="ready"] #cd-diagram')
        && t?.totalMs && (window.__m.rerun ? t.readMs === '0.0' : Number(t.readMs) > 0);
      if (done && window.__m.start && !window.__m.end) window.__m.end = performance.now();
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
}

for (let i = 0; i < runs; i++) {
  const page = await ctx.newPage();
  page.on('pageerror', (e) => console.log('pageerror', e.message));
  await page.goto(srv.origin + '/#compare');
  await page.waitForSelector('#compare-file-input', { state: 'attached' });
  await instrument(page);
  await page.evaluate(() => document.addEventListener('change', () => { window.__m.start = performance.now(); }, true));
  await page.setInputFiles('#compare-file-input', file);
  await page.waitForFunction(() => window.__m.end, null, { timeout: 300_000 });
  await page.waitForTimeout(300);
  const m = await page.evaluate(() => window.__m);
  const t = await page.$eval('#compare-timing', (p) => ({ ...p.dataset }));
  const summary = await page.textContent('#compare-summary');
  const conv = await page.textContent('#arms .conventions code');
  const pairs = await page.$$eval('#pairs-table tbody tr', (r) => r.length);
  console.log(`run ${i + 1}: ${summary.trim()} ${pairs} contrasts; ${conv}`);
  console.log(`  change→results ${(m.end - m.start).toFixed(0)} ms (worker: read ${Number(t.readMs).toFixed(0)} ms, total ${Number(t.totalMs).toFixed(0)} ms); ` +
    `${m.progress} progress updates; longest main-thread task ${m.longest.toFixed(0)} ms (${m.longTasks} tasks > 50 ms)`);

  // Re-run on the kept table.
  await page.evaluate(() => { window.__m.end = undefined; window.__m.rerun = true; window.__m.start = performance.now(); });
  await page.click('#compare-run');
  await page.waitForFunction(() => window.__m.end, null, { timeout: 300_000 });
  const m2 = await page.evaluate(() => window.__m);
  const t2 = await page.$eval('#compare-timing', (p) => ({ ...p.dataset }));
  console.log(`  re-run (Compare pressed, kept table): click→results ${(m2.end - m2.start).toFixed(0)} ms (worker total ${Number(t2.totalMs).toFixed(0)} ms)`);
  await page.close();
}
await ctx.close();
srv.server.close();
