#!/usr/bin/env python3
"""Synthetic ablation traces with a specialist's score per pair, shaped like seed-000 §4.2.5
(the specialist's scores are bf16-like: quantised to 1/8, both medians land on -0.125, heavy
ties), with scikit-learn/SciPy/NumPy reference values for tests/ablation.rs.

Run with Python 3.11, numpy 2.1, scipy 1.14 and scikit-learn 1.9:
    python3 tests/reference/paper_fixtures/specialist.py

Writes specialist.csv (run, split, query_id, rank, cosine, score_z, base_score, ablated_score;
K = 5) and specialist_reference.json: per run, and per split of a run with two splits, the
pairs with a specialist score, positives (u = +1) and negatives, pos_weight = N-/N+, NumPy
median and mean of each class's scores, sklearn roc_auc_score, DeLong's standard error from
its definition (O(mn) structural components, sample variances), sklearn precision/recall/f1
of `score_z > 0`, the all-positive F1 computed by sklearn f1_score on an all-ones
prediction, scipy.stats.spearmanr(score_z, cosine) and its percentile bootstrap interval
(B = 10000, numpy default_rng(42), pairs i.i.d.).
"""
import json
import os

import numpy as np
from scipy.stats import norm, spearmanr
from sklearn.metrics import f1_score, precision_score, recall_score, roc_auc_score

HERE = os.path.dirname(os.path.abspath(__file__))
K = 5
B = 10_000
Z = norm.ppf(0.975)


def make(rng, queries, run, splits, signal, missing):
    rows = []
    for q in range(queries):
        split = splits[q % len(splits)] if splits else ""
        base = rng.random() < 0.55
        for k in range(1, K + 1):
            r = rng.random()
            if base:
                u = 1 if r < 0.2 else 0
            else:
                u = -1 if r < 0.04 else 0
            ablated = base - u
            cos = round(0.55 + 0.08 * rng.standard_normal() + 0.01 * u, 4)
            z = np.round((-0.125 + signal * (u == 1) + 0.35 * rng.standard_normal()) * 8) / 8
            zs = "" if (q * K + k) in missing else repr(float(z))
            rows.append((run, split, f"{run}-q{q}", k, cos, zs, int(base), int(ablated)))
    return rows


def delong_se(pos, neg):
    psi = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
    v10 = psi.mean(axis=1)
    v01 = psi.mean(axis=0)
    return float(np.sqrt(v10.var(ddof=1) / len(pos) + v01.var(ddof=1) / len(neg)))


def group(rows):
    rows = [r for r in rows if r[5] != ""]
    y = np.array([1 if r[6] - r[7] == 1 else 0 for r in rows])
    z = np.array([float(r[5]) for r in rows])
    s = np.array([r[4] for r in rows])
    pos, neg = z[y == 1], z[y == 0]
    pred = (z > 0).astype(int)
    auc = roc_auc_score(y, z)
    se = delong_se(pos, neg)
    rho = spearmanr(z, s)[0]
    rng = np.random.default_rng(42)
    n = len(z)
    reps = []
    for _ in range(B):
        i = rng.integers(0, n, n)
        reps.append(spearmanr(z[i], s[i])[0])
    lo, hi = np.quantile(reps, [0.025, 0.975])
    return {
        "pairs": n,
        "positives": int(y.sum()),
        "negatives": int(n - y.sum()),
        "pos_weight": float((n - y.sum()) / y.sum()),
        "positive_median": float(np.median(pos)),
        "negative_median": float(np.median(neg)),
        "positive_mean": float(np.mean(pos)),
        "negative_mean": float(np.mean(neg)),
        "auroc": float(auc),
        "auroc_low": max(0.0, float(auc - Z * se)),
        "auroc_high": min(1.0, float(auc + Z * se)),
        "precision": float(precision_score(y, pred, zero_division=np.nan)),
        "recall": float(recall_score(y, pred)),
        "f1": float(f1_score(y, pred)),
        "all_positive_f1": float(f1_score(y, np.ones_like(y))),
        "rho_retrieval": repr(float(rho)),
        "rho_retrieval_ci": [float(lo), float(hi)],
    }


def main():
    rng = np.random.default_rng(2026)
    phase7 = make(rng, 240, "phase7", ["train", "val"], 0.05, set())
    pilot = make(rng, 30, "pilot", [], 0.6, {3, 17, 88})
    rows = phase7 + pilot
    with open(os.path.join(HERE, "specialist.csv"), "w") as f:
        f.write("run,split,query_id,rank,cosine,score_z,base_score,ablated_score\n")
        for r in rows:
            f.write(",".join(str(x) for x in r) + "\n")
    out = []
    for run, rs in [("phase7", phase7), ("pilot", pilot)]:
        out.append({"run": run, "split": None, **group(rs)})
        if run == "phase7":
            for sp in ["train", "val"]:
                out.append({"run": run, "split": sp, **group([r for r in rs if r[1] == sp])})
    with open(os.path.join(HERE, "specialist_reference.json"), "w") as f:
        json.dump({"generator": "specialist.py", "B": B, "seed": 42, "groups": out}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
