#!/usr/bin/env python3
"""Reference for `--judgment each` (`tests/outcome_families.rs`,
`several_verdicts_per_item_as_separate_arms`): the committed `evermemos.json` (three
judgments per question under `llm_judgments`) and `zep_grades.json` (one `grade`), paired by
(conversation number, position). Each EverMemOS judgment is its own arm
(`evermemos/judgment_k`), Zep's grade one arm; per-arm accuracy and every pairwise exact
McNemar p-value (statsmodels `mcnemar(table, exact=True)`).

Run ONCE after `make_reference.py` (output committed):

    python3 -m pip install statsmodels==0.15.0
    cd tests/reference/outcome_families && python3 each_judgment_reference.py
"""

import json
import os
import re

import statsmodels
from statsmodels.stats.contingency_tables import mcnemar

HERE = os.path.dirname(os.path.abspath(__file__))


def conv_number(key):
    return int(re.search(r"(\d+)$", key).group(1))


def load(name):
    with open(os.path.join(HERE, name)) as f:
        return json.load(f)


arms = {}
ever = load("evermemos.json")["detailed_results"]
for key, recs in ever.items():
    c = conv_number(key)
    for p, rec in enumerate(recs, start=1):
        for j, v in rec["llm_judgments"].items():
            arms.setdefault(f"evermemos/{j}", {})[(c, p)] = 1 if v else 0
zep = load("zep_grades.json")
for key, recs in zep.items():
    c = conv_number(key)
    for p, rec in enumerate(recs, start=1):
        arms.setdefault("zep_grades", {})[(c, p)] = 1 if rec["grade"] else 0

names = sorted(arms)
items = sorted(arms[names[0]])
assert all(sorted(arms[a]) == items for a in names)
accuracy = {a: sum(arms[a][i] for i in items) / len(items) for a in names}
pairs = []
for x, a in enumerate(names):
    for b in names[x + 1:]:
        va, vb = [arms[a][i] for i in items], [arms[b][i] for i in items]
        a_only = sum(1 for u, v in zip(va, vb) if u == 1 and v == 0)
        b_only = sum(1 for u, v in zip(va, vb) if u == 0 and v == 1)
        both = sum(1 for u, v in zip(va, vb) if u == 1 and v == 1)
        neither = len(items) - a_only - b_only - both
        p = mcnemar([[both, a_only], [b_only, neither]], exact=True).pvalue
        pairs.append({"a": a, "b": b, "a_only": a_only, "b_only": b_only, "mcnemar_exact_p": float(p)})

out = {"generator": "each_judgment_reference.py", "statsmodels": statsmodels.__version__, "items": len(items),
       "accuracy": accuracy, "pairs": pairs}
with open(os.path.join(HERE, "each_judgment.json"), "w") as f:
    json.dump(out, f, indent=1, sort_keys=True)
    f.write("\n")
print(json.dumps(accuracy))
