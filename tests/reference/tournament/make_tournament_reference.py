"""Reference values of the tournament columns of `memaudit compare` (src/stats/tournament.rs).

Writes `outcomes.csv` (5 arms x 60 items, real values with ties) and `tournament.json`: for
higher- and lower-is-better, each arm's mean win rate and Copeland score, and each pair's win
rate (a's share of items where it does better, ties half), computed here with NumPy from the
rows, independently of memaudit. Run: python3 make_tournament_reference.py
"""
import csv
import itertools
import json

import numpy as np

rng = np.random.default_rng(20261130)
arms = ["alpha", "beta", "gamma", "delta", "eps"]
items = [f"q{i:02d}" for i in range(60)]
# Coarse values (0, 0.25, ..., 1) so that ties are common; arms differ in their level.
levels = {"alpha": 0.0, "beta": 0.3, "gamma": 0.5, "delta": 0.55, "eps": 1.0}
values = {a: np.clip(np.round((rng.normal(levels[a], 1.0, len(items)) + 1.5) / 4 * 4) / 4, 0, 1) for a in arms}

with open("outcomes.csv", "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["item", "arm", "score"])
    for i, item in enumerate(items):
        for a in arms:
            w.writerow([item, a, f"{values[a][i]:g}"])

out = {}
for higher in (True, False):
    sign = 1.0 if higher else -1.0
    k = len(arms)
    W = np.full((k, k), np.nan)
    for i, j in itertools.permutations(range(k), 2):
        d = sign * (values[arms[i]] - values[arms[j]])
        W[i, j] = (np.sum(d > 0) + 0.5 * np.sum(d == 0)) / len(d)
    mean = [float(np.nanmean(W[i])) for i in range(k)]
    copeland = [int(np.sum(W[i][~np.isnan(W[i])] > 0.5) - np.sum(W[i][~np.isnan(W[i])] < 0.5)) for i in range(k)]
    out["higher_is_better" if higher else "lower_is_better"] = {
        "arms": {a: {"win_rate": mean[i], "copeland": copeland[i]} for i, a in enumerate(arms)},
        "pairs": {f"{arms[i]}|{arms[j]}": float(W[i, j]) for i, j in itertools.permutations(range(k), 2)},
    }

with open("tournament.json", "w") as f:
    json.dump(out, f, indent=1, sort_keys=True)
    f.write("\n")
