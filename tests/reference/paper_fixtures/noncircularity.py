#!/usr/bin/env python3
"""Synthetic ablation traces shaped like seed-000's non-circularity table, with SciPy/NumPy
reference values for tests/ablation.rs.

Run with Python 3.11, numpy and scipy (1.17):  python3 tests/reference/paper_fixtures/noncircularity.py

Writes noncircularity.csv (one row per (query, removed memory): run, query_id, subset, rank,
memory_id, cosine, base_score, ablated_score; K = 5) and noncircularity_reference.json:
per run (and per LoCoMo subset) n, scipy.stats.spearmanr rho (repr string), the Fisher-z
interval tanh(atanh(rho) +- 1.959964/sqrt(n-3)), and percentile bootstrap intervals
(B = 10000, numpy default_rng(42)) resampling pairs i.i.d. and whole queries. The data are
generated so that rho lands within 0.001 of the paper's values for n >= 175: u is mostly 0,
base correctness is per query, and cosine = 0.55 + 0.08 N(0,1) + beta*u rounded to 4 decimals
(ties), with beta found by bisection.
"""
import json
import os

import numpy as np
from scipy.stats import norm, rankdata, spearmanr

HERE = os.path.dirname(os.path.abspath(__file__))
K = 5
B = 10_000
Z = norm.ppf(0.975)

RUNS = [
    # (run, subset, pairs, target rho, P(base correct), P(u=+1 | base correct), P(u=-1 | base wrong))
    ("phase6_pilot", "ruler_qa1", 25, 0.080, 0.6, 0.2, 0.0),
    ("phase6_train", "mab", 1000, -0.057, 0.5, 0.278, 0.03),
    ("phase7_mab", "mab", 5910, 0.051, 0.45, 0.227, 0.036),
    ("phase7_locomo", "single_hop", 1490, 0.182, 0.6, 0.39, 0.04),
    ("phase7_locomo", "multi_hop", 175, -0.024, 0.4, 0.3, 0.05),
]


def make(rng, pairs, target, pb, pu, ph):
    q = pairs // K
    base = rng.random(q) < pb
    u = np.zeros(pairs, dtype=int)
    for i in range(q):
        r = rng.random(K)
        if base[i]:
            u[i * K:(i + 1) * K] = (r < pu).astype(int)
        else:
            u[i * K:(i + 1) * K] = -(r < ph).astype(int)
    noise = 0.08 * rng.standard_normal(pairs)

    def rho_for(beta):
        s = np.round(0.55 + noise + beta * u, 4)
        return spearmanr(u, s)[0], s

    lo, hi = -0.3, 0.3
    for _ in range(60):
        mid = (lo + hi) / 2
        if rho_for(mid)[0] < target:
            lo = mid
        else:
            hi = mid
    rho, s = rho_for((lo + hi) / 2)
    return base, u, s, rho


def spearman_rows(x, y, idx):
    """rho of each resample (rows of idx), mid-ranks per row."""
    out = np.empty(idx.shape[0])
    for start in range(0, idx.shape[0], 500):
        block = idx[start:start + 500]
        rx = rankdata(x[block], axis=1)
        ry = rankdata(y[block], axis=1)
        rx -= rx.mean(axis=1, keepdims=True)
        ry -= ry.mean(axis=1, keepdims=True)
        num = (rx * ry).sum(axis=1)
        den = np.sqrt((rx * rx).sum(axis=1) * (ry * ry).sum(axis=1))
        with np.errstate(invalid="ignore", divide="ignore"):
            out[start:start + 500] = num / den
    return out[np.isfinite(out)]


def intervals(u, s, qids):
    n = len(u)
    rng = np.random.default_rng(42)
    pair = spearman_rows(u, s, rng.integers(0, n, (B, n)))
    uq = np.unique(qids)
    members = [np.flatnonzero(qids == q) for q in uq]
    rng = np.random.default_rng(42)
    draws = rng.integers(0, len(uq), (B, len(uq)))
    sizes = np.array([len(m) for m in members])
    cluster = []
    for row in draws:
        if sizes[row].sum() != n:
            idx = np.concatenate([members[c] for c in row])
            cluster.append(spearman_rows(u, s, idx[None, :]))
        else:
            cluster.append(spearman_rows(u, s, np.concatenate([members[c] for c in row])[None, :]))
    cluster = np.concatenate(cluster)
    q = lambda v: [float(np.percentile(v, 2.5)), float(np.percentile(v, 97.5))]
    return q(pair), q(cluster)


def main():
    rng = np.random.default_rng(20261122)
    rows = []
    groups = {}
    qn = 0
    for run, subset, pairs, target, pb, pu, ph in RUNS:
        base, u, s, rho = make(rng, pairs, target, pb, pu, ph)
        qids = np.repeat(np.arange(qn, qn + pairs // K), K)
        qn += pairs // K
        for j in range(pairs):
            b = int(base[j // K])
            ablated = b - int(u[j])
            rows.append((run, "q%05d" % qids[j], subset, j % K + 1, "m%05d_%d" % (qids[j], j % K + 1), s[j], b, ablated))
        groups.setdefault((run, None), []).append((u, s, qids))
        groups[(run, subset)] = [(u, s, qids)]
    with open(os.path.join(HERE, "noncircularity.csv"), "w") as f:
        f.write("run,query_id,subset,rank,memory_id,cosine,base_score,ablated_score\n")
        for r in rows:
            f.write("%s,%s,%s,%d,%s,%.4f,%d,%d\n" % r)
    ref = []
    for (run, subset), parts in groups.items():
        if subset is not None and run != "phase7_locomo":
            continue
        u = np.concatenate([p[0] for p in parts])
        s = np.round(np.concatenate([p[1] for p in parts]), 4)
        qids = np.concatenate([p[2] for p in parts])
        rho = float(spearmanr(u, s)[0])
        n = len(u)
        h = Z / np.sqrt(n - 3)
        pair, cluster = intervals(u, s, qids)
        ref.append({
            "run": run, "subset": subset, "n": n, "rho": repr(rho),
            "fisher_z": [float(np.tanh(np.arctanh(rho) - h)), float(np.tanh(np.arctanh(rho) + h))],
            "pair_ci": pair, "query_ci": cluster,
            "positives": int((u == 1).sum()), "harmful": int((u == -1).sum()),
        })
        print(run, subset, n, round(rho, 4), [round(x, 4) for x in pair], [round(x, 4) for x in cluster])
    with open(os.path.join(HERE, "noncircularity_reference.json"), "w") as f:
        json.dump({"generator": "noncircularity.py (numpy %s)" % np.__version__, "groups": ref}, f, indent=1)


if __name__ == "__main__":
    main()
