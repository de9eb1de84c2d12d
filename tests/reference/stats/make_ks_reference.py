"""Reference for `src/stats/ks.rs`: scipy.stats.ks_2samp (two-sided, 'less', 'greater') on
samples with and without ties, equal and unequal sizes; exact where memaudit is exact
(m*n <= 4,000,000), otherwise method='asymp' for the one-sided p-values and
scipy.special.kolmogorov(sqrt(mn/(m+n)) * D) for the two-sided one; plus kolmogorov itself.

    /tmp/refenv/bin/python make_ks_reference.py      (SciPy)
"""
import json
import math

import numpy as np
from scipy.special import kolmogorov
from scipy.stats import ks_2samp

EXACT_MAX_CELLS = 4_000_000
rng = np.random.default_rng(20261130)


def thirds(n, p):
    """Compliance-like values: shares of three rubric checks (heavy ties)."""
    return list(rng.binomial(3, p, size=n) / 3.0)


CASES = [
    ("continuous, equal sizes", list(rng.normal(0, 1, 20)), list(rng.normal(0.5, 1, 20))),
    ("continuous, unequal", list(rng.normal(0, 1, 17)), list(rng.normal(0.3, 1.2, 29))),
    ("continuous, far apart", list(rng.normal(0, 1, 30)), list(rng.normal(3, 1, 25))),
    ("compliance thirds, 40 vs 40", thirds(40, 0.8), thirds(40, 0.6)),
    ("compliance thirds, 14 vs 26", thirds(14, 0.5), thirds(26, 0.55)),
    ("binary 0/1, 96 vs 96", list(rng.binomial(1, 0.95, 96) * 1.0), list(rng.binomial(1, 0.8, 96) * 1.0)),
    ("one each", [0.2], [0.7]),
    ("identical", [0.0, 1.0, 1.0, 0.5], [1.0, 0.5, 0.0, 1.0]),
    ("sizes 3 and 1000", [0.1, 0.5, 0.9], list(rng.uniform(0, 1, 1000))),
    ("larger, exact, 300 vs 250", list(rng.exponential(1.0, 300)), list(rng.exponential(1.3, 250))),
    ("asymptotic, 2100 vs 2000", list(rng.normal(0, 1, 2100)), list(rng.normal(0.08, 1, 2000))),
    ("asymptotic with ties, 2500 vs 1700", thirds(2500, 0.7), thirds(1700, 0.68)),
]

tests = []
for name, x, y in CASES:
    x, y = [round(float(v), 5) for v in x], [round(float(v), 5) for v in y]
    m, n = len(x), len(y)
    exact = m * n <= EXACT_MAX_CELLS
    method = "exact" if exact else "asymp"
    two = ks_2samp(x, y, alternative="two-sided", method=method)
    less = ks_2samp(x, y, alternative="less", method=method)
    greater = ks_2samp(x, y, alternative="greater", method=method)
    en = m * n / (m + n)
    allv = x + y
    tests.append({
        "name": name, "x": [float(v) for v in x], "y": [float(v) for v in y],
        "method": "exact" if exact else "asymptotic",
        "d": float(two.statistic), "p": float(two.pvalue),
        "p_kolmogorov": float(kolmogorov(math.sqrt(en) * float(two.statistic))),
        "d_less": float(less.statistic), "p_less": float(less.pvalue),
        "d_greater": float(greater.statistic), "p_greater": float(greater.pvalue),
        "tied": len(set(allv)) < len(allv),
    })

LAMBDAS = [0.0, 0.2, 0.5, 0.8, 0.99, 1.0, 1.2, 1.5, 2.0, 3.0, 5.0]
out = {"tests": tests, "kolmogorov": [[l, float(kolmogorov(l))] for l in LAMBDAS]}
with open("ks.json", "w") as f:
    json.dump(out, f, indent=None, separators=(",", ":"))
    f.write("\n")
for t in tests:
    print(t["name"], t["method"], t["d"], t["p"], t["p_less"], t["p_greater"], t["tied"])
