"""Reference values for `memaudit alignment`, computed independently with NumPy.

Writes `per_query.csv` (system, query_id, target, eligible, hit for targets raw and canonical,
four runs, some queries not canonical-eligible, one run a renamed copy of another) and
`answers.csv` (system, query_id, f1), and `reference.json` with: per run and class (a_only,
b_only, both, neither) n, mean F1, positive share (> 0), strong share (>= 0.5); the mean of the
per-run values and the pooled values; per run and target the coverage means and difference; per
pair of runs and target the identical-metric share.

Deterministic (numpy seed 3). Made with Python 3.11 and NumPy:

    /tmp/refenv/bin/python make_alignment_reference.py   # the venv of tests/reference/labels
"""
import csv
import itertools
import json

import numpy as np

rng = np.random.default_rng(3)
runs = ["bm25", "dense", "hybrid"]
Q = 50
data = {}
for r in runs:
    raw = rng.random(Q) < 0.5
    canon = np.where(raw, rng.random(Q) < 0.7, rng.random(Q) < 0.3)
    elig = rng.random(Q) > 0.15
    f1 = np.round(np.where(raw & ~canon, rng.uniform(0.2, 1.0, Q), np.where(rng.random(Q) < 0.5, 0.0, rng.uniform(0, 0.6, Q))), 2)
    data[r] = (raw, canon, elig, f1)
data["hybrid-copy"] = data["hybrid"]
runs.append("hybrid-copy")

with open("per_query.csv", "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["system", "query_id", "target", "eligible", "hit"])
    for r in runs:
        raw, canon, elig, _ = data[r]
        for q in range(Q):
            w.writerow([r, f"q{q:02d}", "raw", "true", int(raw[q])])
            w.writerow([r, f"q{q:02d}", "canonical", "true" if elig[q] else "false", int(canon[q]) if elig[q] else ""])
with open("answers.csv", "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["system", "query_id", "f1"])
    for r in runs:
        for q in range(Q):
            w.writerow([r, f"q{q:02d}", data[r][3][q]])


def stats(f1):
    if len(f1) == 0:
        return {"n": 0, "mean_score": None, "positive_share": None, "strong_share": None}
    f1 = np.asarray(f1)
    return {"n": int(len(f1)), "mean_score": float(f1.mean()), "positive_share": float((f1 > 0).mean()), "strong_share": float((f1 >= 0.5).mean())}


classes = {"a_only": lambda a, b: a & ~b, "b_only": lambda a, b: ~a & b, "both": lambda a, b: a & b, "neither": lambda a, b: ~a & ~b}
alignment = []
pooled = {c: [] for c in classes}
per_run = {c: [] for c in classes}
for r in runs:
    raw, canon, elig, f1 = data[r]
    for c, fn in classes.items():
        m = fn(raw, canon) & elig
        s = stats(f1[m])
        alignment.append({"run": r, "class": c, **s})
        pooled[c].extend(f1[m].tolist())
        per_run[c].append(s)
for c in classes:
    def mean_of(key):
        v = [s[key] for s in per_run[c] if s[key] is not None]
        return float(np.mean(v)) if v else None
    alignment.append({"run": "mean_of_runs", "class": c, "n": sum(s["n"] for s in per_run[c]),
                      "mean_score": mean_of("mean_score"), "positive_share": mean_of("positive_share"), "strong_share": mean_of("strong_share")})
    alignment.append({"run": "pooled", "class": c, **stats(pooled[c])})

coverage = []
for r in runs:
    raw, canon, elig, _ = data[r]
    cov, unc = raw[elig].astype(float), raw[~elig].astype(float)
    coverage.append({"run": r, "target": "raw", "covered_mean": float(cov.mean()), "uncovered_mean": float(unc.mean()) if len(unc) else None,
                     "diff": float(cov.mean() - unc.mean()) if len(unc) else None})

identity = []
for a, b in itertools.combinations(runs, 2):
    ra, ca, ea, _ = data[a]
    rb, cb, eb, _ = data[b]
    identity.append({"run_a": a, "run_b": b, "target": "raw", "share": float((ra == rb).mean())})
    both = ea & eb
    identity.append({"run_a": a, "run_b": b, "target": "canonical", "share": float((ca[both] == cb[both]).mean())})

with open("reference.json", "w") as f:
    json.dump({"made_with": {"numpy": np.__version__}, "alignment": alignment, "coverage": coverage, "identity": identity}, f, indent=1)
    f.write("\n")
