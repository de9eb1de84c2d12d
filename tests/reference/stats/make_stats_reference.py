"""Reference values for memaudit's statistics, computed once with SciPy / statsmodels.

Run:  python3 make_stats_reference.py > stats_reference.json
(SciPy 1.17.1, statsmodels 0.14.x, NumPy 2.x, Python 3.11; versions are written into the JSON.)
The Rust test tests/stats_reference.rs reads the JSON; Python is never a runtime dependency.
Cases are random but seeded, so re-running gives the same file.
"""
import json
import math
import sys

import numpy as np
import scipy
import scipy.stats as st
import statsmodels
from scipy import integrate
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.inter_rater import cohens_kappa, fleiss_kappa
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint, proportions_ztest

rng = np.random.default_rng(20261122)
out = {"versions": {"python": sys.version.split()[0], "numpy": np.__version__, "scipy": scipy.__version__,
                    "statsmodels": statsmodels.__version__}}

# Wilson and Clopper-Pearson
props = []
for _ in range(40):
    n = int(rng.integers(1, 400))
    x = int(rng.integers(0, n + 1))
    conf = float(rng.choice([0.9, 0.95, 0.99]))
    wl, wh = proportion_confint(x, n, alpha=1 - conf, method="wilson")
    cl, ch = proportion_confint(x, n, alpha=1 - conf, method="beta")
    props.append({"x": x, "n": n, "confidence": conf, "wilson": [wl, wh], "clopper_pearson": [cl, ch]})
out["proportions"] = props

# Two-proportion z (pooled)
z = []
for _ in range(20):
    n1, n2 = int(rng.integers(5, 300)), int(rng.integers(5, 300))
    x1, x2 = int(rng.integers(1, n1)), int(rng.integers(1, n2))
    stat, p = proportions_ztest([x1, x2], [n1, n2])
    z.append({"x1": x1, "n1": n1, "x2": x2, "n2": n2, "z": float(stat), "p": float(p)})
out["two_proportion_z"] = z

# McNemar (exact and chi-square with / without correction)
mc = []
for _ in range(20):
    b, c = int(rng.integers(0, 80)), int(rng.integers(0, 80))
    if b + c == 0:
        continue
    table = [[10, b], [c, 10]]
    ex = mcnemar(table, exact=True).pvalue
    cc = mcnemar(table, exact=False, correction=True)
    nc = mcnemar(table, exact=False, correction=False)
    mc.append({"b": b, "c": c, "exact_p": float(ex), "chi2_cc": float(cc.statistic), "p_cc": float(cc.pvalue),
               "chi2": float(nc.statistic), "p": float(nc.pvalue)})
out["mcnemar"] = mc

# Posterior superiority with Jeffreys priors, by adaptive quadrature
post = []
for _ in range(12):
    n1, n2 = int(rng.integers(3, 150)), int(rng.integers(3, 150))
    s1, s2 = int(rng.integers(0, n1 + 1)), int(rng.integers(0, n2 + 1))
    a1, b1, a2, b2 = s1 + 0.5, n1 - s1 + 0.5, s2 + 0.5, n2 - s2 + 0.5
    f = lambda t: st.beta.pdf(t, a1, b1) * st.beta.cdf(t, a2, b2)
    val = integrate.quad(f, 0, 1, limit=1000, epsabs=1e-11, epsrel=1e-10, points=[a1 / (a1 + b1)])[0]
    post.append({"s1": s1, "n1": n1, "s2": s2, "n2": n2, "p": val})
out["posterior_superiority"] = post

# Friedman (scipy applies the tie correction)
fr = []
for _ in range(10):
    k = int(rng.integers(3, 9))
    n = int(rng.integers(5, 40))
    m = rng.integers(0, 4, size=(n, k)).astype(float) if rng.random() < 0.5 else np.round(rng.random((n, k)), 2)
    stat, p = st.friedmanchisquare(*[m[:, j] for j in range(k)])
    ranks = np.mean([st.rankdata(-row) for row in m], axis=0)
    fr.append({"blocks": m.tolist(), "chi2_tie_corrected": float(stat), "p_tie_corrected": float(p),
               "mean_ranks": ranks.tolist()})
out["friedman"] = fr

# Studentized range quantiles at a few non-table points
sr = []
for k, p in [(2, 0.9), (3, 0.5), (7, 0.99), (13, 0.95), (60, 0.95), (100, 0.9)]:
    sr.append({"k": k, "p": p, "q": float(st.studentized_range.ppf(p, k, np.inf))})
out["studentized_range"] = sr

# Holm and Benjamini-Hochberg
mt = []
for _ in range(8):
    p = rng.random(int(rng.integers(2, 30))) ** 2
    mt.append({"p": p.tolist(), "holm": multipletests(p, method="holm")[1].tolist(),
               "bh": multipletests(p, method="fdr_bh")[1].tolist()})
out["multiplicity"] = mt

# Cohen's kappa (statsmodels on the contingency table) and Fleiss' kappa
ck = []
for _ in range(8):
    n = int(rng.integers(10, 200))
    cats = int(rng.integers(2, 5))
    a = rng.integers(0, cats, n)
    b = np.where(rng.random(n) < 0.7, a, rng.integers(0, cats, n))
    table = np.zeros((cats, cats))
    for x, y in zip(a, b):
        table[x, y] += 1
    ck.append({"a": a.tolist(), "b": b.tolist(), "kappa": float(cohens_kappa(table).kappa)})
out["cohens_kappa"] = ck
fk = []
for _ in range(6):
    items, raters, cats = int(rng.integers(5, 60)), int(rng.integers(2, 8)), int(rng.integers(2, 5))
    counts = np.array([np.bincount(rng.integers(0, cats, raters), minlength=cats) for _ in range(items)])
    fk.append({"counts": counts.tolist(), "kappa": float(fleiss_kappa(counts, method="fleiss"))})
out["fleiss_kappa"] = fk

# Spearman with ties, Fisher-z interval by hand from scipy's rho
sp = []
for _ in range(10):
    n = int(rng.integers(5, 300))
    x = rng.integers(0, 6, n).astype(float)
    y = x + rng.normal(0, 2, n).round(1)
    r = st.spearmanr(x, y).statistic
    zc = st.norm.ppf(0.975) / math.sqrt(n - 3)
    sp.append({"x": x.tolist(), "y": y.tolist(), "rho": float(r),
               "fisher": [math.tanh(math.atanh(r) - zc), math.tanh(math.atanh(r) + zc)]})
out["spearman"] = sp

# Wilcoxon signed-rank (scipy defaults)
wx = []
for n in [8, 12, 13, 20, 45, 120]:
    d = np.round(rng.normal(0.1, 0.5, n), 1)
    r = st.wilcoxon(d)
    wx.append({"d": d.tolist(), "statistic": float(r.statistic), "p": float(r.pvalue)})
out["wilcoxon"] = wx

json.dump(out, sys.stdout, indent=1)
