"""Reference for `src/stats/fisher.rs`: scipy.stats.fisher_exact (two-sided p and the sample odds
ratio) on small, unbalanced, symmetric, zero-cell, empty-margin and large 2x2 tables.

    /tmp/refenv/bin/python make_fisher_reference.py      (SciPy)
"""
import json
import math

from scipy.stats import fisher_exact

TABLES = [
    [8, 2, 1, 5], [1, 9, 11, 3], [3, 1, 1, 3], [0, 5, 5, 0], [5, 0, 0, 5], [0, 0, 3, 4],
    [2, 3, 0, 0], [7, 12, 0, 4], [10, 10, 10, 10], [29, 43, 41, 31], [120, 80, 95, 105],
    [1, 0, 0, 1], [0, 7, 2, 9], [150, 650, 180, 620], [3, 1200, 11, 1190],
    # BriefBench-sized arms: 40 tasks each, compliance 0.875 vs 0.775.
    [35, 5, 31, 9],
]
out = []
for a, b, c, d in TABLES:
    res = fisher_exact([[a, b], [c, d]], alternative="two-sided")
    odds = float(res.statistic)
    out.append({"table": [a, b, c, d], "p": float(res.pvalue),
                "odds_ratio": odds if math.isfinite(odds) and b * c > 0 else None})
with open("fisher.json", "w") as f:
    json.dump(out, f, indent=1)
    f.write("\n")
for o in out:
    print(o)
