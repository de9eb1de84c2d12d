#!/usr/bin/env python3
"""Reference values for memaudit's answer-scoring profiles (tests/answers.rs).

Run with Python 3.11 and `pip install nltk==3.9.1 regex snowballstemmer`:

    python3 tests/reference/answers/reference.py ../shared

It writes, next to this script:
  - answers_reference.json: every worked example scored by the reference functions below;
  - porter_nltk.tsv: NLTK 3.9.1 PorterStemmer stems of every distinct token of the MIT-licensed
    LongMemEval snapshot (shared/fixtures/external/BriefBench), and whether Snowball English
    (the algorithm of the rust-stemmers crate) agrees;
  - locomo10_f1.json: LoCoMo official scores of every LoCoMo-10 question (numbers only: the
    data is CC BY-NC 4.0 and is read by the test from shared/, never copied here).

The scoring functions are re-typed from their sources, unchanged in behaviour:
  SQuAD v1.1 evaluate-v1.1.py (normalize_answer, f1_score, exact_match_score,
  metric_max_over_ground_truths); MemoryAgentBench utils/eval_other_utils.py (normalize_answer,
  f1_score, substring_exact_match_score, drqa_metric_max_over_ground_truths, parse_output,
  post_process routing, default_post_process); LoCoMo task_eval/evaluation.py
  (normalize_answer, f1_score, f1, eval_question_answering's category rules).
"""
import json
import os
import re
import string
import sys
from collections import Counter

import numpy as np
import regex
import snowballstemmer
from nltk.stem import PorterStemmer

HERE = os.path.dirname(os.path.abspath(__file__))
ps = PorterStemmer()
snow = snowballstemmer.stemmer("english")


# ---- SQuAD v1.1 ---------------------------------------------------------------------------
def squad_normalize(s):
    def remove_articles(text):
        return re.sub(r"\b(a|an|the)\b", " ", text)

    def white_space_fix(text):
        return " ".join(text.split())

    def remove_punc(text):
        exclude = set(string.punctuation)
        return "".join(ch for ch in text if ch not in exclude)

    def lower(text):
        return text.lower()

    return white_space_fix(remove_articles(remove_punc(lower(s))))


def squad_f1(prediction, ground_truth):
    prediction_tokens = squad_normalize(prediction).split()
    ground_truth_tokens = squad_normalize(ground_truth).split()
    common = Counter(prediction_tokens) & Counter(ground_truth_tokens)
    num_same = sum(common.values())
    if num_same == 0:
        return 0
    precision = 1.0 * num_same / len(prediction_tokens)
    recall = 1.0 * num_same / len(ground_truth_tokens)
    return (2 * precision * recall) / (precision + recall)


def squad_em(prediction, ground_truth):
    return squad_normalize(prediction) == squad_normalize(ground_truth)


def max_over(metric_fn, prediction, ground_truths):
    return max(metric_fn(prediction, gt) for gt in ground_truths)


# ---- MemoryAgentBench ---------------------------------------------------------------------
def mab_normalize(answer_text):
    text = answer_text.lower()
    text = "".join(char for char in text if char not in string.punctuation)
    text = re.sub(r"\b(a|an|the)\b", " ", text)
    text = " ".join(text.split())
    return text


def mab_f1(prediction, ground_truth):
    normalized_prediction = mab_normalize(prediction)
    normalized_ground_truth = mab_normalize(ground_truth)
    ZERO_METRIC = (0, 0, 0)
    special_answers = {"yes", "no", "noanswer"}
    if (
        normalized_prediction in special_answers or normalized_ground_truth in special_answers
    ) and normalized_prediction != normalized_ground_truth:
        return ZERO_METRIC
    prediction_tokens = normalized_prediction.split()
    ground_truth_tokens = normalized_ground_truth.split()
    common_tokens = Counter(prediction_tokens) & Counter(ground_truth_tokens)
    num_common_tokens = sum(common_tokens.values())
    if num_common_tokens == 0:
        return ZERO_METRIC
    precision = num_common_tokens / len(prediction_tokens)
    recall = num_common_tokens / len(ground_truth_tokens)
    f1 = (2 * precision * recall) / (precision + recall)
    return f1, precision, recall


def mab_sem(prediction, ground_truth):
    return mab_normalize(ground_truth) in mab_normalize(prediction)


def drqa_max(metric_function, prediction, ground_truths):
    if isinstance(ground_truths, str):
        ground_truth_list = [ground_truths]
    elif ground_truths and isinstance(ground_truths[0], list):
        ground_truth_list = [gt for gt_sublist in ground_truths for gt in gt_sublist]
    else:
        ground_truth_list = ground_truths
    return max(metric_function(prediction, gt) for gt in ground_truth_list)


def parse_output(output_text, answer_prefix="Answer:"):
    extraction_patterns = [
        re.compile(f"(?:{answer_prefix})(.*)(?:\n|$)", flags=re.IGNORECASE),
        re.compile(r"(?:^)(.*)(?:\n|$)"),
    ]
    for pattern in extraction_patterns:
        match = pattern.search(output_text)
        if match:
            extracted_text = match[1].strip()
            return re.sub(f"^{re.escape(answer_prefix)}", "", extracted_text, flags=re.IGNORECASE).strip()
    return None


def mab_metrics(prediction, answer):
    return {
        "f1": drqa_max(lambda x, y: mab_f1(x, y)[0], prediction, answer),
        "substring_exact_match": drqa_max(mab_sem, prediction, answer),
    }


def mab_post_process(output, answer, dataset):
    prediction = output
    if "icl" in dataset or "eventqa" in dataset:
        return mab_metrics(parse_output(prediction), answer)
    if ("infbench" in dataset or "longmemeval" in dataset) and "choice_eng" in dataset:
        m = mab_metrics(prediction, answer)
        parsed = parse_output(prediction)
        if parsed is not None:
            p = mab_metrics(parsed, answer)
            m = {k: max(v, p[k]) for k, v in m.items()}
        m["substring_exact_match"] = answer[1].lower() in prediction.lower()
        return m
    metrics = mab_metrics(prediction, answer)
    parsed = parse_output(prediction)
    if parsed is not None:
        parsed_metrics = mab_metrics(parsed, answer)
        metrics = {k: max(v, parsed_metrics[k]) for k, v in metrics.items()}
    return metrics


# ---- LoCoMo -------------------------------------------------------------------------------
def locomo_normalize(s):
    s = s.replace(",", "")

    def remove_articles(text):
        return regex.sub(r"\b(a|an|the|and)\b", " ", text)

    def white_space_fix(text):
        return " ".join(text.split())

    def remove_punc(text):
        exclude = set(string.punctuation)
        return "".join(ch for ch in text if ch not in exclude)

    def lower(text):
        return text.lower()

    return white_space_fix(remove_articles(remove_punc(lower(s))))


def make_locomo(stem):
    def f1_score(prediction, ground_truth):
        prediction_tokens = [stem(w) for w in locomo_normalize(prediction).split()]
        ground_truth_tokens = [stem(w) for w in locomo_normalize(ground_truth).split()]
        common = Counter(prediction_tokens) & Counter(ground_truth_tokens)
        num_same = sum(common.values())
        if num_same == 0:
            return 0
        precision = 1.0 * num_same / len(prediction_tokens)
        recall = 1.0 * num_same / len(ground_truth_tokens)
        return (2 * precision * recall) / (precision + recall)

    def f1(prediction, ground_truth):
        predictions = [p.strip() for p in prediction.split(",")]
        ground_truths = [g.strip() for g in ground_truth.split(",")]
        return np.mean([max([f1_score(prediction, gt) for prediction in predictions]) for gt in ground_truths])

    def score(output, answer, category):
        # eval_question_answering; no category -> plain f1_score (memaudit's extension)
        answer = str(answer)
        if category == 3:
            answer = answer.split(";")[0].strip()
        if category in [2, 3, 4]:
            return f1_score(output, answer)
        if category == 1:
            return float(f1(output, answer))
        if category == 5:
            return 1 if ("no information available" in output.lower() or "not mentioned" in output.lower()) else 0
        return f1_score(output, answer)

    return score


locomo_score = make_locomo(ps.stem)
locomo_score_snowball = make_locomo(lambda w: snow.stemWord(w))


def locomo_best(output, gold, category):
    if category == 5:
        return locomo_score(output, "", 5)
    return max(locomo_score(output, g, category) for g in gold) if gold else 0


# ---- worked examples ----------------------------------------------------------------------
CASES = [
    # (gold variants, raw prediction, dataset, category)
    (["Paris"], "Paris", None, None),
    (["Paris"], "It is Paris, France.", None, None),
    (["The Eiffel Tower"], "eiffel tower", None, None),
    (["The Eiffel Tower"], "I think: eiffel tower!\nAnswer: Eiffel Tower", None, None),
    (["an apple a day"], "An apple, a day.", None, None),
    (["cat"], "concatenate", None, None),
    (["U.S."], "The US", None, None),
    (["yes"], "Yes.", None, None),
    (["yes"], "no", None, None),
    (["no"], "No, it is not", None, None),
    (["noanswer"], "no answer", None, None),
    (["42", "forty-two"], "The answer is forty two", None, None),
    (["42"], "Answer: 42\nBecause six times seven.", None, None),
    (["42"], "Reasoning first.\nfinal ANSWER: answer: 42", None, None),
    (["Refund_request"], "label: refund_request", "icl_banking77", None),
    (["Refund_request"], "refund_request\nAnswer: card_arrival", "icl_banking77", None),
    (["Refund_request"], "refund_request\nAnswer: card_arrival", "ruler_qa1_197K", None),
    (["A", "The Great Gatsby"], "I pick (A) the great gatsby", "infbench_choice_eng", None),
    (["B", "Moby Dick"], "It must be Moby-Dick.", "infbench_choice_eng", None),
    (["the the the"], "the", None, None),
    (["red red blue"], "red blue blue", None, None),
    ([""], "anything", None, None),
    (["Paris"], "", None, None),
    (["Café au lait"], "café AU LAIT!", None, None),
    (["ΟΔΟΣ"], "η οδος", None, None),
    (["ΟΔΟΣ"], "η οδός", None, None),
    (["İstanbul"], "istanbul", None, None),
    (["a b"], "a\u001cb", None, None),
    (["x y"], "x\u00a0y", None, None),
    (["an"], "anand", None, None),
    (["the_end"], "the end", None, None),
    (["New York"], "  new\tyork  ", None, None),
    (["1990"], "In 1990.", None, None),
    (["Hiking, pottery, camping"], "pottery and camping", None, 1),
    (["Hiking, pottery, camping"], "hiking, swimming", None, 1),
    (["running"], "He runs every day", None, 4),
    (["7 May 2023; around May"], "May 7, 2023", None, 3),
    (["adopting a dog"], "Not mentioned in the conversation", None, 5),
    (["adopting a dog"], "She adopted a dog", None, 5),
    (["generously donated"], "generous donation", None, 2),
    (["The Louvre and the Orsay"], "louvre orsay", None, 2),
    (["Melanie, Caroline"], "caroline", None, 1),
    (["dying"], "she is dying", None, 4),
    (["a, b, c, d, e, f, g, h, i, j"], "a, c, e, g, i, k", None, 1),
    (["The sky is blue"], "skies are blue", None, None),
]


def paper_sem(pred, gold):
    return max((" ".join(g.lower().split()) in " ".join(pred.lower().split())) for g in gold)


def case_values(gold, pred, dataset, category):
    mab = mab_post_process(pred, gold, dataset or "")
    return {
        "gold": gold,
        "prediction": pred,
        "dataset": dataset,
        "category": category,
        "squad_normalized": squad_normalize(pred),
        "locomo_normalized": locomo_normalize(pred),
        "parse_output": parse_output(pred),
        "paper_sem": float(paper_sem(pred, gold)),
        "mab_sem": float(mab["substring_exact_match"]),
        "mab_f1": float(mab["f1"]),
        "squad_em": float(max_over(squad_em, pred, gold)),
        "squad_f1": float(max_over(squad_f1, pred, gold)),
        "locomo_f1": float(locomo_best(pred, gold, category)),
    }


def tokens_of(text):
    return locomo_normalize(text).split()


def main():
    shared = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "../../../../shared")
    ext = os.path.join(shared, "fixtures", "external")
    cases = [case_values(*c) for c in CASES]
    with open(os.path.join(HERE, "answers_reference.json"), "w") as f:
        json.dump({"generator": "reference.py (Python %s, nltk 3.9.1)" % sys.version.split()[0], "cases": cases}, f,
                  indent=1, ensure_ascii=False)

    # Porter parity on an MIT-licensed English text (LongMemEval snapshot)
    with open(os.path.join(ext, "BriefBench", "longmemeval_s_cleaned_snapshot.json")) as f:
        lme = json.load(f)
    words = set()
    for q in lme["questions"]:
        words.update(tokens_of(q["question"]))
        words.update(tokens_of(str(q["answer"])))
        for s in q["sessions"]:
            for t in s["turns"]:
                words.update(tokens_of(t["content"]))
    words = sorted(w for w in words if "\t" not in w)
    differ = 0
    with open(os.path.join(HERE, "porter_nltk.tsv"), "w") as f:
        f.write("word\tnltk_porter\tsnowball_agrees\n")
        for w in words:
            a, b = ps.stem(w), snow.stemWord(w)
            differ += a != b
            f.write("%s\t%s\t%d\n" % (w, a, int(a == b)))

    # LoCoMo-10: gold vs the text of the first evidence turn, official scoring (numbers only)
    with open(os.path.join(ext, "locomo-audit", "locomo10.json")) as f:
        locomo = json.load(f)
    scores, changed, n = [], 0, 0
    vocab = set()
    for conv in locomo:
        turns = {}
        for k, v in conv["conversation"].items():
            if k.startswith("session_") and isinstance(v, list):
                for t in v:
                    turns[t["dia_id"]] = t["text"]
        for qa in conv["qa"]:
            cat = qa["category"]
            gold = str(qa.get("answer", qa.get("adversarial_answer", "")))
            ev = qa.get("evidence") or []
            pred = turns.get(ev[0], "") if ev else ""
            s = float(locomo_score(pred, gold, cat))
            s2 = float(locomo_score_snowball(pred, gold, cat))
            changed += s != s2
            n += 1
            scores.append(s)
            vocab.update(tokens_of(pred))
            vocab.update(tokens_of(gold))
    vocab = sorted(vocab)
    vocab_differ = sum(ps.stem(w) != snow.stemWord(w) for w in vocab)
    with open(os.path.join(HERE, "locomo10_f1.json"), "w") as f:
        json.dump({
            "what": "LoCoMo official score of each LoCoMo-10 question (file order), gold = answer (or "
                    "adversarial_answer), prediction = text of the first evidence turn ('' if none)",
            "questions": n,
            "snowball_changes_score": changed,
            "distinct_tokens": len(vocab),
            "snowball_differs_on_tokens": vocab_differ,
            # repr() strings: the shortest text that round-trips, parsed exactly by Rust's
            # str::parse::<f64> (serde_json's default float parser may be one ulp off)
            "scores": [repr(x) for x in scores],
        }, f)
    print("cases %d; porter words %d (snowball differs on %d); locomo questions %d (snowball changes %d; "
          "tokens %d, differ %d)" % (len(cases), len(words), differ, n, changed, len(vocab), vocab_differ))


if __name__ == "__main__":
    main()
