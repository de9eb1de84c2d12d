"""Reference for the compliance report's `dominance` table (`tests/compliance.rs`):
scipy.stats.ks_2samp of every pair of arms (first-seen order) per dataset, on per-task
compliance, recall and return on tokens (compliance * 1000 / total_tokens), read from
`rows.csv` (made by make_compliance_reference.py). Exact p-values, as memaudit at these sizes.

    /tmp/refenv/bin/python make_dominance_reference.py      (SciPy 1.17.1)
"""
import csv
import json

import numpy as np
from scipy.stats import ks_2samp

rows = list(csv.DictReader(open("rows.csv")))
out = []
for dataset in dict.fromkeys(r["dataset"] for r in rows):
    in_group = [r for r in rows if r["dataset"] == dataset]
    arms = list(dict.fromkeys(r["arm"] for r in in_group))
    measures = {
        "compliance": lambda r: float(r["compliance"]),
        "recall": lambda r: float(r["recall"]) if r["recall"] != "" else None,
        "rot": lambda r: float(r["compliance"]) * 1000.0 / float(r["total_tokens"]) if r["total_tokens"] != "" else None,
    }
    for measure, value in measures.items():
        vals = {a: [v for v in (value(r) for r in in_group if r["arm"] == a) if v is not None] for a in arms}
        for i, a in enumerate(arms):
            for b in arms[i + 1:]:
                x, y = vals[a], vals[b]
                two = ks_2samp(x, y, method="exact")
                less = ks_2samp(x, y, alternative="less", method="exact")
                greater = ks_2samp(x, y, alternative="greater", method="exact")
                out.append({
                    "group": f"dataset={dataset}", "measure": measure, "arm_a": a, "arm_b": b,
                    "n_a": len(x), "n_b": len(y), "mean_a": float(np.mean(x)), "mean_b": float(np.mean(y)),
                    "d": float(two.statistic), "p": float(two.pvalue),
                    "d_a_greater": float(less.statistic), "p_a_greater": float(less.pvalue),
                    "d_b_greater": float(greater.statistic), "p_b_greater": float(greater.pvalue),
                })
with open("dominance.json", "w") as f:
    json.dump(out, f, indent=1)
    f.write("\n")
print(len(out), "pairs")
