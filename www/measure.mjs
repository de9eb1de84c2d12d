// Measures load-to-results time of the viewer on a large bundle (not a test; no asserts).
//
//   memaudit synth --queries 2000 --systems 8 --depth 60 --no-quirks --out /tmp/big
//   node www/measure.mjs /tmp/big
//
// MEMAUDIT_CHOOSE_MS=300: press the pointer on the file chooser 300 ms before the files are
// chosen (a user's click on "Choose files…" and a quick pick in the dialog), which starts the
// spare worker; without it the worker starts when the files arrive. MEMAUDIT_DIST: another
// dist/ to serve; MEMAUDIT_JSFLAGS: V8 flags (e.g. --prof).
// Reports, measured inside the page: time from the file input's `change` event to the results
// being rendered, the worker's own phase timings, how many progress updates the page showed,
// and the longest main-thread task (the page must stay responsive while the worker works).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve, CHROMIUM_ARGS } from './static-server.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = process.argv[2] || '/tmp/big';
const runs = Number(process.argv[3] || 3);
const files = ['memories.jsonl', 'queries.jsonl', 'runs.jsonl'].map((f) => path.join(dir, f));
const rows = fs.readFileSync(files[2], 'utf8').split('\n').filter(Boolean)
  .reduce((n, l) => n + (l.match(/"memory_id"/g) || []).length, 0);

const srv = await serve({ '/': process.env.MEMAUDIT_DIST || path.join(ROOT, 'dist') });
const ctx = await chromium.launchPersistentContext(fs.mkdtempSync(path.join(os.tmpdir(), 'memaudit-measure-')), {
  executablePath: '/usr/bin/chromium', headless: true, args: [...CHROMIUM_ARGS, ...(process.env.MEMAUDIT_JSFLAGS ? ['--js-flags=' + process.env.MEMAUDIT_JSFLAGS] : [])], viewport: { width: 1280, height: 900 },
});
for (let i = 0; i < runs; i++) {
  const page = await ctx.newPage();
  page.on('pageerror', (e) => console.log('pageerror', e.message));
  await page.addInitScript(() => {
    const W = window.Worker;
    // When the page's worker is started and when each of its messages arrives.
    window.__w = [];
    window.Worker = class extends W {
      constructor(...a) { super(...a); window.__w.push(['spawn', performance.now()]); }
      set onmessage(f) { super.onmessage = f && ((e) => { window.__w.push(['msg', performance.now()]); return f(e); }); }
      get onmessage() { return super.onmessage; }
    };
  });
  await page.goto(srv.origin + '/');
  await page.waitForSelector('#file-input');
  await page.evaluate(() => {
    window.__m = { progress: 0, longest: 0, longTasks: 0 };
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) {
        window.__m.longTasks++;
        window.__m.longest = Math.max(window.__m.longest, e.duration);
      }
    }).observe({ type: 'longtask', buffered: false });
    document.addEventListener('change', () => { window.__m.start = performance.now(); }, true);
    new MutationObserver(() => {
      const p = document.querySelector('#progress');
      if (p && p.value !== window.__m.lastValue) { window.__m.progress++; window.__m.lastValue = p.value; }
      if (document.querySelector('.app[data-state="ready"]') && document.querySelector('#summary-table') && !window.__m.end) {
        window.__m.end = performance.now();
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
  if (process.env.MEMAUDIT_CHOOSE_MS) {
    await page.dispatchEvent('label[for="file-input"]', 'pointerdown');
    await page.waitForTimeout(Number(process.env.MEMAUDIT_CHOOSE_MS));
  }
  await page.setInputFiles('#file-input', files);
  await page.waitForSelector('.app[data-state="ready"] #summary-table', { timeout: 300_000 });
  await page.waitForTimeout(300);
  const m = await page.evaluate(() => window.__m);
  const w = await page.evaluate(() => window.__w);
  const timing = await page.textContent('#timing');
  console.log(`run ${i + 1}: ${rows} ranked rows: change→results ${(m.end - m.start).toFixed(0)} ms; ` +
    `${m.progress} progress updates; longest main-thread task ${m.longest.toFixed(0)} ms (${m.longTasks} tasks > 50 ms)`);
  console.log(`  worker: ${timing.trim()}`);
  // The first message is Ready; the run's result is the last before the page's first drill-down.
  const since = (t) => (t - m.start).toFixed(0);
  const msgs = w.filter((x) => x[0] === 'msg').map((x) => x[1]).filter((t) => t <= m.end);
  const spawn = w.find((x) => x[0] === 'spawn');
  console.log(`  since change: worker started ${spawn ? since(spawn[1]) : '-'} ms, ready ${msgs.length ? since(msgs[0]) : '-'} ms; ` +
    `messages at ${msgs.slice(-3).map(since).join(', ')} ms; results on screen ${since(m.end)} ms`);
  await page.close();
}
await ctx.close();
srv.server.close();
