"""The peer of `cargo bench --bench compliance`: the same statistics in NumPy on BriefBench's
released rows — per dataset, rows resampled within (arm, depth) cells (B = 10,000), per arm
the compliance, κ = compliance/recall, return on tokens (ratio of means and mean of ratios), the
OLS depth slope, the focus arm's margins against every arm and their max, and the crossing of
fitted lines; percentile intervals. Vectorised (one multinomial count matrix per cell).

    python3 benches/compliance_peer.py   # numpy; prints the median of 5 runs
"""
import json
import time
from pathlib import Path

import numpy as np

ROWS = Path(__file__).resolve().parents[2] / "shared" / "fixtures" / "external" / "BriefBench" / "all_rows_claude.jsonl"
B = 10_000
FOCUS = "brief_graph_3hop"


def run():
    rows = [json.loads(l) for l in open(ROWS)]
    rng = np.random.default_rng(1337)
    out = {}
    for ds in sorted({r["dataset"] for r in rows}):
        sel = [r for r in rows if r["dataset"] == ds]
        arms = sorted({r["arm"] for r in sel})
        depths = sorted({r["depth"] for r in sel})
        # per cell: B × (sum c, sum r, sum t, sum c/t, weight)
        sums = {}
        for a in arms:
            for d in depths:
                cell = [r for r in sel if r["arm"] == a and r["depth"] == d]
                if not cell:
                    continue
                c = np.array([r["compliance_rate"] for r in cell])
                rec = np.array([r["recall"] for r in cell])
                t = np.array([r["total_tokens"] for r in cell]) / 1000.0
                w = rng.multinomial(len(cell), np.full(len(cell), 1 / len(cell)), size=B)
                sums[(a, d)] = (w @ c, w @ rec, w @ t, w @ (c / t), np.full(B, len(cell)))
        res = {}
        for a in arms:
            cells = [sums[(a, d)] for d in depths if (a, d) in sums]
            c, r_, t, ct, n = (sum(x[i] for x in cells) for i in range(5))
            with np.errstate(divide="ignore", invalid="ignore"):
                kappa = c / r_
            rot, mor, comp = c / t, ct / n, c / n
            ds_ = [d for d in depths if (a, d) in sums]
            means = np.stack([sums[(a, d)][0] / sums[(a, d)][4] for d in ds_])
            ns = np.array([sums[(a, d)][4][0] for d in ds_])
            x = np.array(ds_, dtype=float)
            xm = (ns * x).sum() / ns.sum()
            slope = ((ns * (x - xm))[:, None] * means).sum(0) / (ns * (x - xm) ** 2).sum()
            res[a] = {k: np.nanpercentile(v, [2.5, 97.5]) for k, v in
                      [("comp", comp), ("kappa", kappa), ("rot", rot), ("mor", mor), ("slope", slope)]}
            res[a]["cells"] = means
        f = res[FOCUS]["cells"]
        others = [res[a]["cells"] for a in arms if a != FOCUS]
        margins = [np.percentile(f - o, [2.5, 97.5], axis=1) for o in others]
        mx = np.percentile(f - np.max(np.stack(others), axis=0), [2.5, 97.5], axis=1)
        out[ds] = (res, margins, mx)
    return out


times = []
for _ in range(5):
    t0 = time.perf_counter()
    run()
    times.append((time.perf_counter() - t0) * 1000)
times.sort()
print(f"numpy peer: median {times[2]:.0f} ms (min {times[0]:.0f}, max {times[4]:.0f})")
