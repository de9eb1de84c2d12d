"""Reference values for `memaudit compliance` and `memaudit power` (tests/compliance.rs).

Writes rows.csv (per-task rows: two datasets, three arms, depths 1-3 in unbalanced cells; dataset
`binary` has 0/1 compliance, dataset `rates` compliance in thirds) and reference.json, computed
independently of memaudit with NumPy (ratio of means and its delta-method errors, plug-in
variances), SciPy (`linregress`, `brentq`, `fisher_exact`) and statsmodels (`proportion_confint(method="wilson")`,
`power_proportions_2indep`, `normal_power_het`, `NormalIndPower`).

    python3 make_compliance_reference.py   # numpy, scipy, statsmodels
"""
import json
import math

import numpy as np
from scipy import stats
from scipy.optimize import brentq
from scipy.stats import fisher_exact
import statsmodels.api as sm
from statsmodels.stats.power import NormalIndPower, normal_power_het
from statsmodels.stats.proportion import power_proportions_2indep, proportion_confint

rng = np.random.default_rng(20261124)
ARMS = {"x": (0.95, 0.02, 0.9), "y": (0.9, 0.15, 0.8), "z": (0.85, 0.2, 0.7)}
CELLS = {1: 30, 2: 24, 3: 17}
rows = []
for dataset in ["binary", "rates"]:
    for arm, (r1, loss, kappa) in ARMS.items():
        for depth, n in CELLS.items():
            for t in range(n):
                p_ret = max(r1 - loss * (depth - 1), 0.0)
                hit = rng.random() < p_ret
                recall = 1.0 if hit else float(rng.choice([0.0, 0.5]))
                if dataset == "binary":
                    c = float(rng.random() < (kappa if hit else 0.1))
                else:
                    c = float(rng.binomial(3, kappa if hit else 0.2)) / 3.0
                tokens = int(900 + rng.integers(0, 300) + 200 * depth * (arm != "x"))
                rows.append((dataset, f"{arm}{depth}-{t}", arm, depth, c, recall, tokens))

with open("rows.csv", "w") as f:
    f.write("dataset,task,arm,depth,compliance,recall,total_tokens\n")
    for r in rows:
        f.write(f"{r[0]},{r[1]},{r[2]},{r[3]},{r[4]!r},{r[5]!r},{r[6]}\n")

CONF = 0.95
ALPHA = 1 - CONF
POWER = 0.8
z = stats.norm.ppf(1 - ALPHA / 2)


def ratio(y, x):
    n = len(y)
    my, mx = y.mean(), x.mean()
    vy = ((y - my) ** 2).sum() / n / n
    vx = ((x - mx) ** 2).sum() / n / n
    c = ((y - my) * (x - mx)).sum() / n / n
    r = my / mx
    rel = vy / my**2 + vx / mx**2
    return r, abs(r) * math.sqrt(max(rel - 2 * c / (my * mx), 0)), abs(r) * math.sqrt(rel)


def ratio_sample(y, x):
    """The same standard errors with NumPy's sample variances (ddof = 1), as BriefBench's code."""
    n = len(y)
    my, mx = y.mean(), x.mean()
    vy = np.var(y, ddof=1) / n
    vx = np.var(x, ddof=1) / n
    c = np.cov(y, x, ddof=1)[0, 1] / n
    r = my / mx
    rel = vy / my**2 + vx / mx**2
    return abs(r) * math.sqrt(max(rel - 2 * c / (my * mx), 0)), abs(r) * math.sqrt(rel)


def power_2p(p1, p2, n1, n2):
    return float(power_proportions_2indep(p1 - p2, p2, n1, ratio=n2 / n1, alpha=ALPHA, return_results=False))


def power_2m(d, s1, s2, n1, n2):
    se = math.sqrt(s1**2 / n1 + s2**2 / n2)
    return float(normal_power_het(abs(d), 1, ALPHA, std_null=se, std_alternative=se))


out = {"confidence": CONF, "power": POWER, "arms": [], "cells": [], "slopes": [], "power_rows": [], "mediation": []}
data = {}
for dataset in ["binary", "rates"]:
    for arm in ARMS:
        sel = [r for r in rows if r[0] == dataset and r[2] == arm]
        c = np.array([r[4] for r in sel])
        rec = np.array([r[5] for r in sel])
        tok = np.array([r[6] for r in sel], dtype=float) / 1000.0
        d = np.array([r[3] for r in sel], dtype=float)
        data[(dataset, arm)] = c
        k, kse, kse0 = ratio(c, rec)
        rot, rse, rse0 = ratio(c, tok)
        kse1, kse01 = ratio_sample(c, rec)
        rse1, rse01 = ratio_sample(c, tok)
        full = c[rec == 1.0]
        binary = bool(np.all((c == 0) | (c == 1)))
        row = {
            "group": f"dataset={dataset}", "arm": arm, "n": len(c), "binary": binary,
            "compliance": c.mean(), "recall": rec.mean(), "kappa": k, "kappa_se": kse,
            "kappa_se_independent": kse0, "kappa_conditional": full.mean(), "kappa_conditional_n": len(full),
            "rot": rot, "rot_se": rse, "rot_se_independent": rse0, "rot_mean_of_ratios": (c / tok).mean(),
            "hoeffding": math.sqrt(math.log(2 / ALPHA) / (2 * len(c))),
            "kappa_se_sample": kse1, "kappa_se_independent_sample": kse01,
            "rot_se_sample": rse1, "rot_se_independent_sample": rse01,
        }
        if binary:
            lo, hi = proportion_confint(c.sum(), len(c), alpha=ALPHA, method="wilson")
            row["compliance_low"], row["compliance_high"] = lo, hi
            lo, hi = proportion_confint(full.sum(), len(full), alpha=ALPHA, method="wilson")
            row["kappa_conditional_low"], row["kappa_conditional_high"] = lo, hi
        out["arms"].append(row)
        for depth in CELLS:
            cc = c[d == depth]
            cell = {"group": f"dataset={dataset}", "arm": arm, "depth": depth, "n": len(cc), "compliance": cc.mean()}
            if binary:
                cell["low"], cell["high"] = proportion_confint(cc.sum(), len(cc), alpha=ALPHA, method="wilson")
            out["cells"].append(cell)
        lr = stats.linregress(d, c)
        out["slopes"].append({
            "group": f"dataset={dataset}", "arm": arm, "slope": lr.slope, "intercept": lr.intercept,
            "slope_se": lr.stderr, "endpoint": c[d == 3].mean() - c[d == 1].mean(),
        })
    for b in ["y", "z"]:
        # Baron-Kenny with statsmodels OLS: compliance ~ 1 + t + recall over the two arms' rows.
        sel = [r for r in rows if r[0] == dataset and r[2] in ("x", b)]
        t = np.array([1.0 if r[2] == "x" else 0.0 for r in sel])
        m = np.array([r[5] for r in sel])
        y = np.array([r[4] for r in sel])
        fit = sm.OLS(y, sm.add_constant(np.column_stack([t, m]))).fit()
        total = y[t == 1].mean() - y[t == 0].mean()
        out["mediation"].append({
            "group": f"dataset={dataset}", "against": b, "n": len(sel), "total": total,
            "a": m[t == 1].mean() - m[t == 0].mean(), "direct": fit.params[1], "b": fit.params[2],
            "indirect": total - fit.params[1],
        })
        a1, a2 = data[(dataset, "x")], data[(dataset, b)]
        p1, p2, n1, n2 = a1.mean(), a2.mean(), len(a1), len(a2)
        delta = p1 - p2
        if dataset == "binary":
            pw = power_2p(p1, p2, n1, n2)
            mde = brentq(lambda e: power_2p(min(p2 + e, 1.0), p2, n1, n2) - POWER, 1e-9, 1 - p2) if power_2p(1.0, p2, n1, n2) >= POWER else None
            pbar = (p1 + p2) / 2
            n_needed = (z * math.sqrt(2 * pbar * (1 - pbar)) + stats.norm.ppf(POWER) * math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))) ** 2 / delta**2
            claim = power_2p(min(p2 + 0.1, 1.0), p2, n1, n2)
        else:
            s1, s2 = a1.std(ddof=1), a2.std(ddof=1)
            pw = power_2m(delta, s1, s2, n1, n2)
            mde = brentq(lambda e: power_2m(e, s1, s2, n1, n2) - POWER, 1e-9, 1.0)
            n_needed = (z + stats.norm.ppf(POWER)) ** 2 * (s1**2 + s2**2) / delta**2
            claim = power_2m(0.1, s1, s2, n1, n2)
        row = {
            "group": f"dataset={dataset}", "arm": "x", "against": b, "delta": delta, "power": pw,
            "mde": mde, "n_needed": n_needed, "power_at_claim": claim,
        }
        # Cliff's delta by its definition: the mean sign of every (x_i - y_j).
        row["cliffs_delta"] = float(np.sign(a1[:, None] - a2[None, :]).mean())
        if dataset == "binary":
            k1, k2 = int(a1.sum()), int(a2.sum())
            res = fisher_exact([[k1, n1 - k1], [k2, n2 - k2]], alternative="two-sided")
            row["fisher_p"], row["odds_ratio"] = float(res.pvalue), float(res.statistic)
        out["power_rows"].append(row)

# Compliance by recall bin (BriefBench Table 45) and the failure modes (Table 34), per dataset:
# over every arm, then per arm; Wilson intervals (statsmodels) where the bin's compliance is 0/1.
BINS = [("r = 0", lambda r: r == 0), ("0 < r \u2264 0.5", lambda r: 0 < r <= 0.5),
        ("0.5 < r < 1", lambda r: 0.5 < r < 1), ("r = 1", lambda r: r == 1)]
out["recall_bins"], out["failures"] = [], []
for dataset in ["binary", "rates"]:
    for arm in ["all arms", "x", "y", "z"]:
        sel = [r for r in rows if r[0] == dataset and (arm == "all arms" or r[2] == arm)]
        comp = np.array([r[4] for r in sel])
        rec = np.array([r[5] for r in sel])
        for name, member in BINS:
            c = comp[np.array([member(x) for x in rec], dtype=bool)]
            row = {"group": f"dataset={dataset}", "arm": arm, "bin": name, "n": len(c),
                   "compliance": c.mean() if len(c) else None, "low": None, "high": None}
            if len(c) and np.isin(c, [0.0, 1.0]).all():
                row["low"], row["high"] = proportion_confint(c.sum(), len(c), alpha=ALPHA, method="wilson")
            out["recall_bins"].append(row)
        failed = comp < 1  # BriefBench: a task not fully honoured
        nr = int((failed & (rec == 0)).sum())
        nf = int(failed.sum())
        out["failures"].append({"group": f"dataset={dataset}", "arm": arm, "n": len(sel), "failures": nf,
                                "not_retrieved": nr, "retrieved_not_used": nf - nr,
                                "partial": int((failed & (comp > 0)).sum())})

# `memaudit power` calculations.
calc = []
for p1, p2, n in [(1.0, 0.9, 40), (0.875, 0.775, 40), (0.9, 0.8, 199), (0.6, 0.5, 100)]:
    pbar = (p1 + p2) / 2
    n_needed = (z * math.sqrt(2 * pbar * (1 - pbar)) + stats.norm.ppf(POWER) * math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))) ** 2 / (p1 - p2) ** 2
    calc.append({"design": "two_proportions", "n": n, "p1": p1, "p2": p2,
                 "power": power_2p(p1, p2, n, n), "n_needed": n_needed})
for delta, sd, n in [(0.1, 0.3, 40), (0.05, 0.2, 120)]:
    es = delta / sd
    calc.append({"design": "paired_means", "n": n, "delta": delta, "sd": sd,
                 "power": float(NormalIndPower().power(es, n, ALPHA, ratio=0)),
                 "n_needed": float(NormalIndPower().solve_power(es, None, ALPHA, POWER, ratio=0))})
    calc.append({"design": "two_means", "n": n, "delta": delta, "sd": sd,
                 "power": float(NormalIndPower().power(es, n, ALPHA, ratio=1)),
                 "n_needed": float(NormalIndPower().solve_power(es, None, ALPHA, POWER, ratio=1))})
# McNemar (Connor 1987), written out independently.
for p10, p01, n in [(0.15, 0.05, 60), (0.2, 0.1, 150)]:
    psi, d = p10 + p01, p10 - p01
    pw = stats.norm.cdf((math.sqrt(n) * abs(d) - z * math.sqrt(psi)) / math.sqrt(psi - d * d)) + \
        stats.norm.cdf((-math.sqrt(n) * abs(d) - z * math.sqrt(psi)) / math.sqrt(psi - d * d))
    nn = (z * math.sqrt(psi) + stats.norm.ppf(POWER) * math.sqrt(psi - d * d)) ** 2 / d**2
    calc.append({"design": "paired_proportions", "n": n, "p10": p10, "p01": p01, "power": pw, "n_needed": nn})
out["calculations"] = calc


def clean(v):
    if isinstance(v, dict):
        return {k: clean(x) for k, x in v.items()}
    if isinstance(v, list):
        return [clean(x) for x in v]
    if isinstance(v, (np.floating,)):
        return float(v)
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, np.bool_):
        return bool(v)
    return v


with open("reference.json", "w") as f:
    json.dump(clean(out), f, indent=1)
