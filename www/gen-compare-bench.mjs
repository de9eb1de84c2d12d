// Writes the comparison benchmark's input (not a test; nothing is committed): 10 arms × 2,000
// paired items as a long CSV `item,arm,correct` (0/1 outcomes, arm j succeeding with
// probability 0.35 + 0.03 j shifted by a per-item difficulty, as in benches/compare.rs), or with
// `--continuous` values in [0, 1] instead.
//
//   node www/gen-compare-bench.mjs /tmp/compare-bench.csv [--continuous] [--arms 10] [--items 2000]
import fs from 'node:fs';

const args = process.argv.slice(2);
const out = args.find((a) => !a.startsWith('--')) || '/tmp/compare-bench.csv';
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const arms = opt('arms', 10);
const items = opt('items', 2000);
const continuous = args.includes('--continuous');

// mulberry32: a small deterministic generator (same file for the same arguments).
let state = 11;
function random() {
  state = (state + 0x6d2b79f5) | 0;
  let t = Math.imul(state ^ (state >>> 15), 1 | state);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

const lines = ['item,arm,correct'];
for (let i = 0; i < items; i++) {
  const difficulty = random();
  for (let j = 0; j < arms; j++) {
    const p = Math.min(1, Math.max(0, 0.35 + 0.03 * j + 0.3 * (difficulty - 0.5)));
    const v = continuous ? Math.min(1, Math.max(0, p + 0.2 * (random() - 0.5))).toFixed(6) : random() < p ? '1' : '0';
    lines.push(`item${i},arm${j},${v}`);
  }
}
fs.writeFileSync(out, lines.join('\n') + '\n');
console.log(`${out}: ${items} items × ${arms} arms = ${items * arms} rows (${continuous ? 'continuous' : '0/1'} values)`);
