"""Reference values for `memaudit calibration` from scikit-learn, statsmodels and NumPy.

Writes `routing.csv` (per-item rows: item, split, confidence, correct, applied, with_memory,
and `logprob` = ln(confidence)) and `reference.json` with: the help/hurt ledger; the AUC of the
confidence for helped vs hurt items (sklearn.metrics.roc_auc_score) and its DeLong standard
error (computed here from the O(mn) definition of the structural components, DeLong et al.
1988); Brier (sklearn.metrics.brier_score_loss) and log loss (sklearn.metrics.log_loss) per
split; the ECE with 10 equal-width bins (written out here); Platt scaling fitted on split "0"
(statsmodels Logit, unpenalized MLE) and its Brier / log loss / ECE on the other splits; the
Wilson intervals of the accuracy per equal-count bin (statsmodels proportion_confint); the
routing sweep at the 0, 5, …, 100th percentiles (numpy.percentile, linear).

Deterministic (numpy seed 11). Made with Python 3.11, scikit-learn 1.9.1, statsmodels 0.15.0:

    /tmp/refenv/bin/python make_calibration_reference.py   # the venv of tests/reference/labels
"""
import csv
import json

import numpy as np
import sklearn
import statsmodels
import statsmodels.api as sm
from sklearn.metrics import brier_score_loss, log_loss, roc_auc_score
from statsmodels.stats.proportion import proportion_confint

rng = np.random.default_rng(11)
N = 450
split = np.repeat(["0", "1", "2"], N // 3)
skill = rng.normal(size=N)
conf = np.clip(1 / (1 + np.exp(-(1.5 * skill + 1.0))), 0.005, 0.995).round(4)
correct = rng.random(N) < 1 / (1 + np.exp(-(1.1 * skill + 0.5)))
with_memory = np.where(correct, rng.random(N) > 0.05 + 0.1 * (1 - conf), rng.random(N) < 0.55 * (1 - conf))
applied = conf < np.percentile(conf[split == "0"], 35)
with open("routing.csv", "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["item", "split", "confidence", "logprob", "correct", "applied", "with_memory"])
    for i in range(N):
        w.writerow([f"q{i:03d}", split[i], f"{conf[i]:.4f}", repr(float(np.log(conf[i]))), int(correct[i]), int(applied[i]), int(with_memory[i])])
conf = np.array([float(f"{c:.4f}") for c in conf])

help_ = (~correct) & with_memory
hurt = correct & (~with_memory)
pos, neg = conf[help_], conf[hurt]
auc = roc_auc_score(np.r_[np.ones(len(pos)), np.zeros(len(neg))], np.r_[pos, neg])
psi = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
v10, v01 = psi.mean(axis=1), psi.mean(axis=0)
se = float(np.sqrt(v10.var(ddof=1) / len(pos) + v01.var(ddof=1) / len(neg)))


def ece(p, y, bins=10):
    idx = np.clip(np.ceil(p * bins).astype(int), 1, bins) - 1
    return float(sum(np.mean(idx == b) * abs(y[idx == b].mean() - p[idx == b].mean()) for b in range(bins) if np.any(idx == b)))


calibration = []
# Each split, then the evaluation splits (those not fitted on) pooled: one row over their items
# together (TAG pools its seeds 1 and 2).
POOLED = "pooled: 1, 2"
masks = {s: split == s for s in ["0", "1", "2"]}
masks[POOLED] = (split == "1") | (split == "2")
for s in ["0", "1", "2", POOLED]:
    m = masks[s]
    calibration.append({"method": "raw", "split": s, "ece": ece(conf[m], correct[m]),
                        "brier": float(brier_score_loss(correct[m], conf[m])), "log_loss": float(log_loss(correct[m], conf[m]))})
fit = sm.Logit(correct[split == "0"].astype(float), sm.add_constant(conf[split == "0"])).fit(disp=0, tol=1e-12)
b, a = [float(x) for x in fit.params]
for s in ["1", "2", POOLED]:
    m = masks[s]
    p = 1 / (1 + np.exp(-(a * conf[m] + b)))
    calibration.append({"method": "platt", "split": s, "ece": ece(p, correct[m]),
                        "brier": float(brier_score_loss(correct[m], p)), "log_loss": float(log_loss(correct[m], p))})

order = np.argsort(conf, kind="stable")
bins = []
start = 0
for k in range(10):
    end = max(-(-(k + 1) * N // 10), start + 1)
    while end < N and conf[order[end]] == conf[order[end - 1]]:
        end += 1
    part = order[start:end]
    x = int(correct[part].sum())
    lo, hi = proportion_confint(x, len(part), alpha=0.05, method="wilson")
    bins.append({"n": len(part), "accuracy_without": x / len(part), "without_low": float(lo), "without_high": float(hi)})
    start = end
    if start >= N:
        break

sweep = []
base = correct.mean()
for q in range(0, 101, 5):
    tau = float(np.percentile(conf, q))
    routed = conf < tau
    final = np.where(routed, with_memory, correct)
    sweep.append({"percentile": q, "tau": tau, "inject_fraction": float(routed.mean()), "accuracy": float(final.mean()),
                  "delta": float(final.mean() - base)})

ref = {
    "made_with": {"scikit-learn": sklearn.__version__, "statsmodels": statsmodels.__version__, "numpy": np.__version__},
    "ledger": {"n": N, "help": int(help_.sum()), "hurt": int(hurt.sum())},
    "auc": float(auc), "auc_se": se,
    "calibration": calibration, "platt": {"a": a, "b": b},
    "bins": bins, "sweep": sweep,
}
with open("reference.json", "w") as f:
    json.dump(ref, f, indent=1)
    f.write("\n")
