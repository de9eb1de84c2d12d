"""Reference values for the target shifts and aggregations of `memaudit alignment`, computed
independently with NumPy and SciPy.

Writes `records.csv` in the shape of TIAP's `query_target_alignment.records.csv` (run_id,
dataset, query_index, then per target T of raw, source, canonical: T_eligible, T_hit_at_k,
T_top1, T_ndcg): two datasets of three runs, 40 queries each; every query raw-eligible, some not
source- or canonical-eligible; nDCG values on a coarse grid so that some are equal across
targets. And `shift_reference.json` with:

- per run and pair of targets (raw-source, raw-canonical, source-canonical), on the queries
  eligible under both: shared, hit flips, top-1 flips, nDCG changed, change rate, mean shift
  (B - A), mean |shift|, share of |shift| >= 0.1, the counts of |shift| in 20 bins on [0, 1]
  (np.histogram: the shifts lie on a grid of 0.2, so floating point puts some across an edge);
  and per dataset the same pooled over its runs;
- per run: mean nDCG under each target (its eligible queries), `canonical_or_raw` (canonical
  where eligible, else raw, over raw-eligible queries), and over the queries eligible under raw
  and source the arithmetic mean, geometric mean (scipy.stats.gmean) and minimum of the triplet
  (raw, source, canonical_or_raw); per dataset and method the Kendall-tau distance from the raw
  order of the runs (pairs ordered oppositely; means equal to 12 significant digits are ties, not counted), checked against
  scipy.stats.kendalltau where no value ties; and per pair of a dataset's runs and method, the
  run with the higher mean (`winners`);
- per run and pair of targets, on the run's queries eligible under every target (TIAP Table 2's
  shared subset): n, the two means, the mean difference B - A and a 95% percentile bootstrap
  interval of it from 20,000 NumPy resamples (`target_contrasts`; memaudit's own resampling
  differs, so its interval is compared within Monte-Carlo error);
- the same aggregations and winners on the shared subset (`aggregations_shared`,
  `winners_shared`): per dataset, the queries eligible under every target in every run of it,
  every method averaged over them.

Deterministic (numpy seed 7). Made with Python 3.11, NumPy and SciPy:

    python -m venv /tmp/refenv && /tmp/refenv/bin/pip install numpy scipy
    /tmp/refenv/bin/python make_shift_reference.py
"""
import csv
import itertools
import json

import numpy as np
import scipy
from scipy.stats import gmean, kendalltau

rng = np.random.default_rng(7)
T = ["raw", "source", "canonical"]
Q = 40
datasets = {"LoCoMo": ["lex", "dense", "bge"], "LME": ["lex-l", "dense-l", "mx-l"]}
data = {}
for ds, runs in datasets.items():
    for r in runs:
        el = {"raw": np.ones(Q, bool), "source": rng.random(Q) > 0.1, "canonical": rng.random(Q) > 0.4}
        base = np.round(rng.integers(0, 6, Q) / 5, 1)
        nd = {"raw": base}
        nd["source"] = np.where(rng.random(Q) < 0.5, base, np.round(rng.integers(0, 6, Q) / 5, 1))
        nd["canonical"] = np.where(rng.random(Q) < 0.3, nd["source"], np.round(rng.integers(0, 6, Q) / 5, 1))
        hit = {t: (nd[t] > 0).astype(float) for t in T}
        top1 = {t: (nd[t] >= 0.8).astype(float) for t in T}
        data[r] = (ds, el, nd, hit, top1)

with open("records.csv", "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["run_id", "dataset", "query_index"] + [f"{t}_{c}" for t in T for c in ["eligible", "hit_at_k", "top1", "ndcg"]])
    for r, (ds, el, nd, hit, top1) in data.items():
        for q in range(Q):
            row = [r, ds, q + 1]
            for t in T:
                if el[t][q]:
                    row += ["True", hit[t][q], top1[t][q], nd[t][q]]
                else:
                    row += ["False", "", "", ""]
            w.writerow(row)


def shift_stats(rs, a, b):
    hf = tf = ch = 0
    d = []
    for r in rs:
        _, el, nd, hit, top1 = data[r]
        both = el[a] & el[b]
        hf += int((hit[a][both] != hit[b][both]).sum())
        tf += int((top1[a][both] != top1[b][both]).sum())
        ch += int((nd[a][both] != nd[b][both]).sum())
        d.extend((nd[b][both] - nd[a][both]).tolist())
    d = np.asarray(d)
    return {"shared": len(d), "hit_flips": hf, "top1_flips": tf, "changed": ch, "change_rate": ch / len(d),
            "mean_shift": float(d.mean()), "mean_abs_shift": float(np.abs(d).mean()),
            "large_share": float((np.abs(d) >= 0.1).mean()),
            "bins": np.histogram(np.abs(d), bins=20, range=(0, 1))[0].tolist()}


shifts = []
for ds, runs in datasets.items():
    for a, b in itertools.combinations(T, 2):
        for r in runs:
            shifts.append({"group": ds, "run": r, "target_a": a, "target_b": b, **shift_stats([r], a, b)})
        shifts.append({"group": ds, "run": "pooled", "target_a": a, "target_b": b, **shift_stats(runs, a, b)})


def discordant(x, y):
    def tie(a, b):
        return abs(a - b) <= 1e-12 * max(abs(a), abs(b), 1.0)
    return sum(1 for i, j in itertools.combinations(range(len(x)), 2)
               if not tie(x[i], x[j]) and not tie(y[i], y[j]) and (x[i] > x[j]) != (y[i] > y[j]))


methods = T + ["canonical_or_raw", "arithmetic_mean", "geometric_mean", "minimum"]


def aggregate(shared):
    aggregations, winners = [], []
    for ds, runs in datasets.items():
        common = np.ones(Q, bool)
        for r in runs:
            _, el, _, _, _ = data[r]
            common &= el["raw"] & el["source"] & el["canonical"]
        means = {}
        for r in runs:
            _, el, nd, _, _ = data[r]
            sel = {t: (common if shared else el[t]) for t in T}
            fb = np.where(el["canonical"], nd["canonical"], nd["raw"])
            keep = common if shared else el["raw"] & el["source"]
            trip = np.stack([nd["raw"][keep], nd["source"][keep], fb[keep]])
            vals = {t: nd[t][sel[t]] for t in T}
            vals["canonical_or_raw"] = fb[common if shared else el["raw"]]
            vals["arithmetic_mean"] = trip.mean(axis=0)
            vals["geometric_mean"] = gmean(trip, axis=0)
            vals["minimum"] = trip.min(axis=0)
            means[r] = {m: (len(v), float(np.mean(v))) for m, v in vals.items()}
        ref = [means[r]["raw"][1] for r in runs]
        for m in methods:
            y = [means[r][m][1] for r in runs]
            tau_d = None if m == "raw" else discordant(ref, y)
            if tau_d is not None and len(set(ref)) == len(ref) and len(set(y)) == len(y):
                # Without ties, Kendall's tau = 1 - 2 d / C(n, 2).
                pairs = len(runs) * (len(runs) - 1) / 2
                assert abs(kendalltau(ref, y).statistic - (1 - 2 * tau_d / pairs)) < 1e-12
            for ra, rb in itertools.combinations(runs, 2):
                a, b = means[ra][m][1], means[rb][m][1]
                tie = abs(a - b) <= 1e-12 * max(abs(a), abs(b), 1.0)
                winners.append({"group": ds, "run_a": ra, "run_b": rb, "method": m, "mean_a": a, "mean_b": b,
                                "winner": "tie" if tie else ra if a > b else rb})
            for r in runs:
                n, mean = means[r][m]
                aggregations.append({"group": ds, "run": r, "method": m, "n": n, "mean": mean, "tau_d": tau_d})
    return aggregations, winners


contrasts = []
for ds, runs in datasets.items():
    for r in runs:
        _, el, nd, _, _ = data[r]
        common = el["raw"] & el["source"] & el["canonical"]
        for a, b in itertools.combinations(T, 2):
            d = nd[b][common] - nd[a][common]
            boot_rng = np.random.default_rng(11)
            idx = boot_rng.integers(0, len(d), (20000, len(d)))
            means = d[idx].mean(axis=1)
            contrasts.append({"group": ds, "run": r, "target_a": a, "target_b": b, "n": int(common.sum()),
                              "mean_a": float(nd[a][common].mean()), "mean_b": float(nd[b][common].mean()),
                              "diff": float(d.mean()), "low": float(np.percentile(means, 2.5)),
                              "high": float(np.percentile(means, 97.5))})

aggregations, winners = aggregate(False)
aggregations_shared, winners_shared = aggregate(True)

with open("shift_reference.json", "w") as f:
    json.dump({"made_with": {"numpy": np.__version__, "scipy": scipy.__version__}, "shifts": shifts,
               "aggregations": aggregations, "winners": winners, "target_contrasts": contrasts, "aggregations_shared": aggregations_shared,
               "winners_shared": winners_shared}, f, indent=1)
    f.write("\n")
