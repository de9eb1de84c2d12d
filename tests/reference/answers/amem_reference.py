#!/usr/bin/env python3
"""Reference values of the `amem_f1` profile (tests/answers.rs), standard library only:

    python3 tests/reference/answers/amem_reference.py

It reads the worked examples of `answers_reference.json` (gold variants, raw prediction), adds
the cases below (what A-Mem's tokenizer does differently), and writes `amem_reference.json`:
each case's best A-Mem F1 over its gold variants.

`simple_tokenize` and the F1 lines of `calculate_metrics` are re-typed, unchanged in behaviour,
from A-Mem's `utils.py` (WujiangXu/AgenticMemory), which mem0 copies as
`evaluation/metrics/utils.py` and whose `f1` its `evals.py` writes as `f1_score`. The re-typing
was checked against mem0's file (exec of its two functions, BLEU stubbed) on every case, and
memaudit's `amem_f1` reproduces all 1,540 `f1_score` values of mem0's released
`results/locomo/exp_data_0-10_2000/results.json` (commit 81a0fba).
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def simple_tokenize(text):
    text = str(text)
    return text.lower().replace(".", " ").replace(",", " ").replace("!", " ").replace("?", " ").split()


def amem_f1(prediction, reference):
    if not prediction or not reference:
        return 0.0
    prediction = str(prediction).strip()
    reference = str(reference).strip()
    pred_tokens = set(simple_tokenize(prediction))
    ref_tokens = set(simple_tokenize(reference))
    common_tokens = pred_tokens & ref_tokens
    if not pred_tokens or not ref_tokens:
        return 0.0
    precision = len(common_tokens) / len(pred_tokens)
    recall = len(common_tokens) / len(ref_tokens)
    return 2 * precision * recall / (precision + recall) if (precision + recall) > 0 else 0.0


EXTRA = [
    # (gold variants, raw prediction)
    (["red red blue"], "red blue blue"),  # sets: {red, blue} on both sides -> 1
    (["7 May 2023"], "Caroline went on May 7, 2023."),
    (["Why? Because!"], "because why"),
    (["well-known"], "well known"),  # the hyphen stays inside the token
    (["2022"], "In 2022"),
    (["Paris"], "   "),  # stripped to empty: no tokens -> 0
    (["a;b"], "a; b"),  # ';' is not split off
    (["Ben", "Benjamin"], "benjamin, of course"),
    (["x y"], "x\u00a0y"),  # Python's split() splits on NO-BREAK SPACE
    (["a b"], "a\u001cb"),  # and on the file separator U+001C
]


def main():
    with open(os.path.join(HERE, "answers_reference.json")) as f:
        worked = json.load(f)["cases"]
    cases = [(c["gold"], c["prediction"]) for c in worked] + EXTRA
    out = []
    for gold, pred in cases:
        out.append({"gold": gold, "prediction": pred, "amem_f1": max(amem_f1(pred, g) for g in gold)})
    with open(os.path.join(HERE, "amem_reference.json"), "w") as f:
        json.dump({"generator": "amem_reference.py (Python %s)" % sys.version.split()[0], "cases": out}, f,
                  indent=1, ensure_ascii=False)
    print("cases %d" % len(out))


if __name__ == "__main__":
    main()
