#!/usr/bin/env python3
"""Reference per-arm intervals without pairing for `tests/outcome_families.rs`
(`id_less_rows_give_per_arm_intervals_without_pairing`).

BriefBench's per-attempt rows (`../shared/fixtures/external/BriefBench/all_rows_claude.jsonl`,
used in tests only) carry no task id, so no paired comparison can be made without assuming an
order. Each arm is then summarised on its own: every row one observation of its arm, the value
`correct` (true/false). The reference counts successes per arm and computes statsmodels'
Wilson score and Clopper-Pearson ("beta") intervals at 95%.

Run ONCE (output committed; Python is never needed to build or test memaudit):

    python3 -m pip install statsmodels==0.15.0
    cd tests/reference/unpaired_arms && python3 make_reference.py
"""

import json
import os

import statsmodels
from statsmodels.stats.proportion import proportion_confint

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "..", "..", "..", "..", "shared", "fixtures", "external", "BriefBench", "all_rows_claude.jsonl")

arms = {}
with open(SOURCE) as f:
    for line in f:
        if not line.strip():
            continue
        row = json.loads(line)
        arms.setdefault(row["arm"], []).append(1 if row["correct"] else 0)

out = {"statsmodels": statsmodels.__version__, "value": "correct", "confidence": 0.95, "arms": []}
for arm, values in arms.items():
    n, k = len(values), sum(values)
    wl, wh = proportion_confint(k, n, alpha=0.05, method="wilson")
    cl, ch = proportion_confint(k, n, alpha=0.05, method="beta")
    out["arms"].append({"arm": arm, "n": n, "successes": k, "mean": k / n,
                        "wilson": [wl, wh], "clopper_pearson": [cl, ch]})

with open(os.path.join(HERE, "reference.json"), "w") as f:
    json.dump(out, f, indent=1)
    f.write("\n")
print(json.dumps(out)[:400])
