"""Reference for the compliance report's `laws` and `theory` tables (`tests/compliance.rs`).

`theory_rows.csv`: per-task compliance rates of two arms at depths 1-5 (numpy seed 20261201),
plus a third arm with a cell of compliance 0. For each (arm) the depth cells' mean compliance is
fitted by least squares without an intercept in log space (`numpy.linalg.lstsq`):
    structured:          log c = d * log q
    similarity_ceiling:  log c = d * log s0 + d(d+1)/2 * log rho
with BriefBench's `model_selection.py` criteria, re-typed: log L = -n/2 (ln 2 pi + ln(RSS/n) + 1)
(RSS floored at 1e-12), k = coefficients + 1, AIC = 2k - 2 log L, BIC = k ln n - 2 log L.
A fit with k >= n points, or a cell of compliance <= 0, is refused (not fitted).
The theory's curves at s0 = 0.70, rho = 0.67, q = 0.97 per depth are written too.

    /tmp/refenv/bin/python make_theory_reference.py      (NumPy 2.1.0)
"""
import csv
import json
import math

import numpy as np

rng = np.random.default_rng(20261201)
rows = []
for arm, base in [("graph", 0.95), ("vector", 0.62)]:
    for d in range(1, 6):
        mean = base ** d if arm == "graph" else 0.7 ** d * 0.67 ** (d * (d + 1) / 2) + 0.05
        for t in range(12):
            v = float(np.clip(mean + rng.normal(0, 0.05), 0.01, 1.0))
            rows.append({"arm": arm, "task": f"{arm}-{d}-{t}", "depth": d, "compliance": round(v, 6)})
for d in range(1, 5):
    for t in range(3):
        rows.append({"arm": "none", "task": f"none-{d}-{t}", "depth": d, "compliance": 0.0 if d == 3 else 0.5})
with open("theory_rows.csv", "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=["arm", "task", "depth", "compliance"])
    w.writeheader()
    w.writerows(rows)


def loglik(rss, n):
    rss = 1e-12 if rss <= 0 else rss
    return -0.5 * n * (math.log(2 * math.pi) + math.log(rss / n) + 1.0)


laws = []
for arm in dict.fromkeys(r["arm"] for r in rows):
    depths = sorted({r["depth"] for r in rows if r["arm"] == arm})
    cells = [(d, float(np.mean([r["compliance"] for r in rows if r["arm"] == arm and r["depth"] == d]))) for d in depths]
    n = len(cells)
    d = np.array([c[0] for c in cells], dtype=float)
    c = np.array([c[1] for c in cells])
    for law, cols in [("structured", [d]), ("similarity_ceiling", [d, d * (d + 1) / 2])]:
        k = len(cols) + 1
        out = {"arm": arm, "law": law, "points": n, "parameters": k}
        if k >= n or np.any(c <= 0):
            out["refused"] = True
        else:
            X = np.column_stack(cols)
            y = np.log(c)
            beta, *_ = np.linalg.lstsq(X, y, rcond=None)
            rss = float(np.sum((y - X @ beta) ** 2))
            ll = loglik(rss, n)
            out.update({"rss": rss, "aic": 2 * k - 2 * ll, "bic": k * math.log(n) - 2 * ll})
            if law == "structured":
                out["q"] = float(math.exp(beta[0]))
            else:
                out["s0"] = float(math.exp(beta[0]))
                out["rho"] = float(math.exp(beta[1]))
        laws.append(out)

theory = []
for dd in range(1, 6):
    sim = 0.70 ** dd * 0.67 ** (dd * (dd + 1) / 2)
    st = 0.97 ** dd
    theory.append({"depth": dd, "similarity_ceiling": sim, "structured": st, "advantage": st - sim})

with open("theory.json", "w") as f:
    json.dump({"generator": "make_theory_reference.py (NumPy %s)" % np.__version__, "laws": laws, "theory": theory}, f, indent=1)
print(len(rows), "rows;", len(laws), "fits")
