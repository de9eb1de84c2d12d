"""Reference values for the judges' agreement of a judge file (src/compare/judges.rs).

Writes `judge_file.json`, a LoCoMo-style judge file of one system as released by
locomo-audit's fc-baseline (`detailed_results` per conversation, each record with
`question_id`, `category` and `llm_judgments: {judgment_1, judgment_2, judgment_3}`), made up
here from a fixed seed (two records miss a judgment, so they are left out of the agreement), and
`reference.json` with what statsmodels and NumPy compute from it:

- Fleiss' kappa (statsmodels.stats.inter_rater.fleiss_kappa, method="fleiss") on the items
  whose three judgments are all present, with the observed (P-bar) and chance (P-bar_e)
  agreement computed from its formula;
- the unanimous items and each judgment's share of true;
- each judgment's accuracy on the complete items (for `--judgment each`).

Made with Python 3, numpy 2.4.6, statsmodels 0.15.0:
    python3 make_reference.py
Deterministic: re-running reproduces both files byte for byte.
"""
import json

import numpy as np
from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

rng = np.random.default_rng(20261129)
detailed = {}
complete = []
n_conv, per_conv = 4, 30
for c in range(n_conv):
    records = []
    for q in range(per_conv):
        truth = rng.random() < 0.7
        # Each judge run agrees with the item's truth 90% of the time.
        js = [bool(truth if rng.random() < 0.9 else not truth) for _ in range(3)]
        rec = {
            "question_id": f"conv{c}_q{q}",
            "question": f"question {q} of conversation {c}",
            "golden_answer": "gold",
            "generated_answer": "answer",
            "llm_judgments": {f"judgment_{k + 1}": js[k] for k in range(3)},
            "category": str(1 + q % 4),
        }
        if (c, q) in [(1, 3), (2, 7)]:
            del rec["llm_judgments"]["judgment_2"]
        else:
            complete.append(js)
        records.append(rec)
    detailed[f"locomo_exp_user_{c}"] = records
with open("judge_file.json", "w") as f:
    json.dump({"total_questions": n_conv * per_conv, "detailed_results": detailed}, f, indent=1)

table = np.array(complete, dtype=int)  # items x judges, 0/1
counts, _ = aggregate_raters(table, n_cat=2)
kappa = fleiss_kappa(counts, method="fleiss")
n, m = counts.shape[0], 3
p_i = ((counts**2).sum(axis=1) - m) / (m * (m - 1))
p_c = counts.sum(axis=0) / (n * m)
ref = {
    "items": int(n),
    "incomplete": 2,
    "unanimous": int(((counts == 0).any(axis=1)).sum()),
    "fleiss_kappa": float(kappa),
    "observed": float(p_i.mean()),
    "expected": float((p_c**2).sum()),
    "shares": [float(x) for x in table.mean(axis=0)],
}
with open("reference.json", "w") as f:
    json.dump(ref, f, indent=1)
    f.write("\n")
print(ref)
