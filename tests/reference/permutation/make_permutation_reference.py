"""Reference values for the sign-flip permutation test and the subset-sum randomization test.

Sign flip: scipy.stats.permutation_test on one sample (permutation_type='samples' flips signs),
statistic = the sum, n_resamples = inf (exact), two-sided. Subset sum: scipy.stats.
multivariate_hypergeom.pmf summed over the subset counts (a, b) with a − b ≥ s (and ≤ s).

Deterministic (numpy seed 5). Made with Python 3.11, scipy 1.17.1, numpy:

    /tmp/refenv/bin/python make_permutation_reference.py   # the venv of tests/reference/labels
"""
import json

import numpy as np
import scipy
from scipy.stats import multivariate_hypergeom, permutation_test

rng = np.random.default_rng(5)


def sign_flip(d):
    res = permutation_test((np.asarray(d, dtype=float),), lambda x, axis: np.sum(x, axis=axis),
                           permutation_type='samples', n_resamples=np.inf, alternative='two-sided',
                           vectorized=True)
    return float(res.pvalue)


flip = []
for n, kind in [(6, 'normal'), (10, 'normal'), (12, 'ints'), (14, 'normal'), (16, 'skewed'), (9, 'zeros')]:
    if kind == 'normal':
        d = np.round(rng.normal(0.4, 1.0, n), 4)
    elif kind == 'ints':
        d = rng.integers(-3, 5, n).astype(float)
    elif kind == 'skewed':
        d = np.round(rng.exponential(1.0, n) - 0.6, 4)
    else:
        d = np.array([0.0, 0.0, 0.5, 1.0, -0.25, 0.0, 2.0, 0.75, 0.0])
    flip.append({"d": [float(x) for x in d], "p": sign_flip(d)})

# Beyond the exact enumeration (20 differences): memaudit draws Monte Carlo; SciPy's exact value.
d = np.round(rng.normal(0.3, 1.0, 20), 4)
monte_carlo = {"d": [float(x) for x in d], "p": sign_flip(d)}

subset = []
for n, plus, minus, h, s in [(800, 14, 8, 105, 6), (600, 58, 16, 120, 15), (50, 10, 10, 10, 0), (30, 5, 1, 12, 4), (100, 0, 7, 20, -3)]:
    m = [plus, minus, n - plus - minus]
    greater = less = 0.0
    for a in range(0, min(plus, h) + 1):
        for b in range(0, min(minus, h - a) + 1):
            r = h - a - b
            if r > m[2]:
                continue
            p = float(multivariate_hypergeom.pmf([a, b, r], m, h))
            if a - b >= s:
                greater += p
            if a - b <= s:
                less += p
    subset.append({"n": n, "plus": plus, "minus": minus, "h": h, "s": s, "greater": greater, "less": less})

with open("permutation_reference.json", "w") as f:
    json.dump({"made_with": {"scipy": scipy.__version__, "numpy": np.__version__}, "sign_flip": flip, "monte_carlo": monte_carlo, "subset_sum": subset}, f, indent=1)
    f.write("\n")
