"""Reference values for `memaudit labels` from scikit-learn and statsmodels.

Writes label tables (long, wide, JSON Lines) and `reference.json` with, per case:
Cohen's kappa (sklearn.metrics.cohen_kappa_score) and percent agreement per rater pair on the
items both raters labelled, Fleiss' kappa (statsmodels.stats.inter_rater.fleiss_kappa on
aggregate_raters) on the items every rater labelled, and each rater's label shares with Wilson
intervals (statsmodels.stats.proportion.proportion_confint, method="wilson") — on the classes
and on the collapse supports ∪ partial → relevant.

Deterministic (numpy seed 20261124). Made with Python 3.11, scikit-learn 1.9.1,
statsmodels 0.15.0, numpy:

    python3 -m venv /tmp/refenv && /tmp/refenv/bin/pip install scikit-learn statsmodels
    cd tests/reference/labels && /tmp/refenv/bin/python make_labels_reference.py
"""
import csv
import itertools
import json

import numpy as np
import sklearn
import statsmodels
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa
from statsmodels.stats.proportion import proportion_confint

rng = np.random.default_rng(20261124)
CLASSES = ["supports", "partial", "does_not_support"]
COLLAPSE = {"supports": "relevant", "partial": "relevant", "does_not_support": "does_not_support"}


def make_case(n_items, raters, accuracy, missing):
    truth = rng.choice(3, size=n_items, p=[0.3, 0.4, 0.3])
    labels = {}
    for r, acc in zip(raters, accuracy):
        col = []
        for t in truth:
            if rng.random() < missing:
                col.append(None)
            elif rng.random() < acc:
                col.append(CLASSES[t])
            else:
                col.append(CLASSES[rng.choice([c for c in range(3) if c != t])])
        labels[r] = col
    return [f"i{i:03d}" for i in range(n_items)], labels


def reference(items, labels, raters, mapping=None):
    def lab(r, i):
        v = labels[r][i]
        return None if v is None else (mapping[v] if mapping else v)

    classes = sorted({mapping[c] for c in CLASSES}) if mapping else CLASSES
    pairs = []
    for a, b in itertools.combinations(raters, 2):
        both = [i for i in range(len(items)) if lab(a, i) is not None and lab(b, i) is not None]
        x = [lab(a, i) for i in both]
        y = [lab(b, i) for i in both]
        pairs.append({
            "rater_a": a, "rater_b": b, "n": len(both),
            "percent_agreement": float(np.mean([p == q for p, q in zip(x, y)])),
            "kappa": float(cohen_kappa_score(x, y)),
        })
    complete = [i for i in range(len(items)) if all(lab(r, i) is not None for r in raters)]
    table = np.array([[classes.index(lab(r, i)) for r in raters] for i in complete])
    counts, _ = aggregate_raters(table, n_cat=len(classes))
    fleiss = float(fleiss_kappa(counts, method="fleiss"))
    shares = []
    for r in raters:
        got = [lab(r, i) for i in range(len(items)) if lab(r, i) is not None]
        for c in classes:
            k = sum(1 for g in got if g == c)
            lo, hi = proportion_confint(k, len(got), alpha=0.05, method="wilson")
            shares.append({"rater": r, "label": c, "count": k, "n": len(got), "low": float(lo), "high": float(hi)})
    return {"pairs": pairs, "fleiss_kappa": fleiss, "complete_items": len(complete), "shares": shares}


cases = {}
# A long CSV: five raters, some missing labels.
raters = ["human", "gpt", "claude", "gemini", "deepseek"]
items, labels = make_case(90, raters, [0.9, 0.85, 0.8, 0.75, 0.6], 0.04)
with open("long.csv", "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["item", "rater", "label"])
    for i, it in enumerate(items):
        for r in raters:
            w.writerow([it, r, labels[r][i] or ""])
cases["long.csv"] = {"raters": raters, "classes": reference(items, labels, raters),
                     "collapsed": reference(items, labels, raters, COLLAPSE)}

# A wide CSV: three raters, complete.
raters = ["r1", "r2", "r3"]
items, labels = make_case(60, raters, [0.7, 0.7, 0.5], 0.0)
with open("wide.csv", "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["item"] + raters)
    for i, it in enumerate(items):
        w.writerow([it] + [labels[r][i] for r in raters])
cases["wide.csv"] = {"raters": raters, "classes": reference(items, labels, raters),
                     "collapsed": reference(items, labels, raters, COLLAPSE)}

# JSON Lines in TIAP's judged_cases shape: run_label + query_index, judge_model, judge_semantic_label.
raters = ["sonnet", "opus", "gemini", "gpt"]
items, labels = make_case(70, raters, [0.85, 0.85, 0.8, 0.7], 0.03)
with open("judged.jsonl", "w") as f:
    for i, it in enumerate(items):
        for r in raters:
            f.write(json.dumps({"run_label": "run" + str(i % 4), "query_index": i, "judge_model": r,
                                "judge_semantic_label": labels[r][i]}) + "\n")
cases["judged.jsonl"] = {"raters": raters, "classes": reference(items, labels, raters),
                         "collapsed": reference(items, labels, raters, COLLAPSE)}

with open("reference.json", "w") as f:
    json.dump({"made_with": {"scikit-learn": sklearn.__version__, "statsmodels": statsmodels.__version__,
                             "numpy": np.__version__},
               "classes": CLASSES, "collapse": "relevant=supports,partial", "confidence": 0.95,
               "cases": cases}, f, indent=1)
    f.write("\n")
