#!/usr/bin/env python3
"""LoCoMo answer files of four vendor families, written in their released shapes (synthetic
questions and verdicts; nothing copied from any vendor or from LoCoMo), and the reference
per-arm accuracies and pairwise exact McNemar p-values for `tests/outcome_families.rs`.

Run ONCE (outputs committed; Python is never needed to build or test memaudit):

    python3 -m pip install statsmodels==0.15.0 numpy
    cd tests/reference/outcome_families && python3 make_reference.py

Files (shapes of the released families):

    mem0_evals.json      mem0 `evals.py` family (Memobase, ...): {"<conv>": [{question, answer,
                         response, category (string), bleu_score, f1_score, llm_score 0/1}]},
                         conversation keys "0".."9" in no particular order
    evermemos.json       MemOS / EverMemOS: {"total_questions", "correct", "accuracy",
                         "detailed_results": {"locomo_exp_user_<n>": [{question, golden_answer,
                         generated_answer, llm_judgments: {judgment_1..3: bool}, category}]}}
    zep_grades.json      Zep: {"locomo_experiment_user_<n>": [{question, answer, golden_answer,
                         grade: bool}]}
    audit_results.json   locomo-audit-like: {"conv-26": [{question_id, question, answer,
                         prediction, is_correct: bool, category: int}], ...} keyed by sample ids

Question texts repeat inside some conversations (the same text at two positions): pairing by
(conversation, position) keeps them distinct. The reference pairs by (conversation number,
position) exactly as documented, takes each file's own verdict (EverMemOS: majority of three
judgments), and computes McNemar's exact test (statsmodels `mcnemar(table, exact=True)`).
"""

import json
import os
import random

from statsmodels.stats.contingency_tables import mcnemar
import statsmodels

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE_IDS = ["conv-26", "conv-30", "conv-41", "conv-42", "conv-43", "conv-44", "conv-47", "conv-48", "conv-49", "conv-50"]
TOPICS = ["the pottery class", "the trip to the lake", "the new job", "the dog", "the marathon", "the book club"]


def questions():
    r = random.Random(20261124)
    out = []
    for c in range(10):
        qs = []
        for p in range(r.randint(8, 16)):
            topic = r.choice(TOPICS)
            kind = r.choice(["When did", "Where did", "Why did"])
            qs.append({"question": f"{kind} speaker {c % 2 + 1} mention {topic}?", "answer": r.choice(["May 2023", "the lake", "to relax"]), "category": r.choice([1, 2, 3, 4])})
        # A repeated question text inside the conversation (as LoCoMo has).
        qs.append(dict(qs[0]))
        out.append(qs)
    return out


def verdicts(qs, skill, seed):
    r = random.Random(seed)
    return [[1 if r.random() < skill else 0 for _ in conv] for conv in qs]


def main():
    qs = questions()
    arms = {
        "mem0_evals": verdicts(qs, 0.62, 1),
        "evermemos": verdicts(qs, 0.71, 2),
        "zep_grades": verdicts(qs, 0.55, 3),
        "audit_results": verdicts(qs, 0.66, 4),
    }
    order = list(range(10))
    random.Random(5).shuffle(order)
    mem0 = {str(c): [{"question": q["question"], "answer": q["answer"], "response": q["answer"] if v else "I don't know",
                      "category": str(q["category"]), "bleu_score": 0.5, "f1_score": 0.5, "llm_score": v}
                     for q, v in zip(qs[c], arms["mem0_evals"][c])] for c in order}
    rj = random.Random(6)
    ever_records = {}
    for c in range(10):
        recs = []
        for q, v in zip(qs[c], arms["evermemos"][c]):
            # Three judgments whose majority is the verdict.
            j = [bool(v)] * 3
            flip = rj.randrange(3)
            if rj.random() < 0.3:
                j[flip] = not j[flip]
            recs.append({"question": q["question"], "golden_answer": q["answer"], "generated_answer": "...",
                         "llm_judgments": {f"judgment_{i + 1}": x for i, x in enumerate(j)}, "category": str(q["category"])})
        ever_records[f"locomo_exp_user_{c}"] = recs
    n_ever = sum(len(v) for v in ever_records.values())
    ever = {"total_questions": n_ever, "correct": sum(map(sum, arms["evermemos"])),
            "accuracy": sum(map(sum, arms["evermemos"])) / n_ever, "detailed_results": ever_records}
    zep = {f"locomo_experiment_user_{c}": [{"question": q["question"], "answer": "...", "golden_answer": q["answer"], "grade": bool(v)}
                                           for q, v in zip(qs[c], arms["zep_grades"][c])] for c in range(10)}
    audit = {SAMPLE_IDS[c]: [{"question_id": f"{SAMPLE_IDS[c]}_q{p}", "question": q["question"], "answer": q["answer"],
                              "prediction": "...", "is_correct": bool(v), "category": q["category"]}
                             for p, (q, v) in enumerate(zip(qs[c], arms["audit_results"][c]))] for c in range(10)}
    files = {"mem0_evals.json": mem0, "evermemos.json": ever, "zep_grades.json": zep, "audit_results.json": audit}
    for name, doc in files.items():
        with open(os.path.join(HERE, name), "w") as f:
            json.dump(doc, f, indent=2)
            f.write("\n")
    # Reference: items keyed (conversation, position); per-arm accuracy; pairwise McNemar.
    names = ["mem0_evals", "evermemos", "zep_grades", "audit_results"]
    flat = {a: [v for conv in arms[a] for v in conv] for a in names}
    n = len(flat[names[0]])
    accuracy = {a: sum(flat[a]) / n for a in names}
    pairs = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            b_only = sum(1 for x, y in zip(flat[a], flat[b]) if x == 1 and y == 0)
            c_only = sum(1 for x, y in zip(flat[a], flat[b]) if x == 0 and y == 1)
            both = sum(1 for x, y in zip(flat[a], flat[b]) if x == 1 and y == 1)
            neither = n - b_only - c_only - both
            res = mcnemar([[both, b_only], [c_only, neither]], exact=True)
            pairs.append({"a": a, "b": b, "a_only": b_only, "b_only": c_only, "mcnemar_exact_p": float(res.pvalue)})
    out = {"generator": "make_reference.py", "statsmodels": statsmodels.__version__, "items": n,
           "accuracy": accuracy, "pairs": pairs}
    with open(os.path.join(HERE, "reference.json"), "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
