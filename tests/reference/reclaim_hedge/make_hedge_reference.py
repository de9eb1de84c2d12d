"""Reference values for memaudit's `--abstain hedge` rule (reclaim-eval's behavioural abstain).

The rule is reclaim-eval's `_is_abstain` in `src/reclaim/probe.py` (collapseindex/reclaim-eval,
commit ec5947fc33ef1748516621438eecb5b405975eb0; quoted in shared/notes/seed-003-004.md § A2.2):
a reply is an abstention when no answer parses from it, or when its lower-cased text
(`str.lower()`) contains any of the `_HEDGE` phrases as a raw substring. In its behavioural
confirm (`probe_policy`) a reply counts as recovered when `score(reply, p)` is true, and only the
other replies are tested with `_is_abstain`: abstain rate = declined / n, RR = hits / n.

This script re-implements that rule independently of memaudit (standard library only, Python
3.11), applies it to the committed fixture `blank_strict_grok-4.3.head54.jsonl` (the first 54
lines of reclaim-eval's `data/results/blank_strict_grok-4.3.jsonl` at commit
4bdafb1be43b1fa63868a0b44c2b4704666cce7e, byte for byte), and writes
`hedge_reference.json`: per row the strict and the hedge decision, per policy the counts, and
the hedge test on a list of phrase and near-miss strings. `tests/reclaim_hedge.rs` compares
memaudit against it.

    python3.11 make_hedge_reference.py    # from this folder; deterministic
"""
import json
import platform
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIXTURE = "blank_strict_grok-4.3.head54.jsonl"
KEYS = HERE.parents[3] / "shared/fixtures/external/reclaim-eval/probe_keys_base16.json"

# reclaim-eval probe.py `_HEDGE`, in its order
HEDGE = ("not sure", "cannot", "can't", "can not", "don't have", "do not have",
         "enough to recompute", "unable", "insufficient", "no way to", "need the original")

# reclaim-eval llm.py numeric ANSWER-line pattern (seed-003-004 notes § A1.4)
NUMERIC = re.compile(r"ANSWER\s*:\s*[*_`'\"(\[]*\s*\$?\s*(-?\d[\d,]*\.?\d*)", re.I)


def parse_number(text):
    """The last numeric ANSWER-line value, or None."""
    if not text:
        return None
    found = NUMERIC.findall(text)
    if not found:
        return None
    try:
        return float(found[-1].replace(",", ""))
    except ValueError:
        return None


def first_hedge(reply):
    low = (reply or "").lower()
    for h in HEDGE:
        if h in low:
            return h
    return None


def hedge_abstains(reply):
    """`_is_abstain` for a numeric problem."""
    return parse_number(reply) is None or first_hedge(reply) is not None


def main():
    keys = json.loads(KEYS.read_text())
    truth = {k["pid"]: k["correct"] for k in keys["arith"]}
    rows = []
    cells = {}
    for line, text in enumerate((HERE / FIXTURE).read_text().splitlines(), start=1):
        r = json.loads(text)
        reply = r["reply"]
        ans = parse_number(reply)
        if r["pid"] in truth:  # memaudit re-scores strictly when the truth is known
            correct = ans is not None and abs(ans - truth[r["pid"]]) < 0.5
        else:  # otherwise the stored bucket
            correct = r["bucket"] in ("true", "recov", "correct")
        strict_abstain = (not correct) and ans is None
        hedge_abstain = (not correct) and hedge_abstains(reply)
        rows.append({
            "line": line, "pid": r["pid"], "policy": r["policy"], "seed": r["seed"],
            "correct": correct, "strict_abstain": strict_abstain, "hedge_abstain": hedge_abstain,
            "hedge_phrase": first_hedge(reply),
        })
        c = cells.setdefault(r["policy"], {"policy": r["policy"], "n": 0, "recovered": 0,
                                           "abstain_strict": 0, "abstain_hedge": 0,
                                           "emit_strict": 0, "emit_hedge": 0})
        c["n"] += 1
        c["recovered"] += correct
        c["abstain_strict"] += strict_abstain
        c["abstain_hedge"] += hedge_abstain
        c["emit_strict"] += (not correct) and not strict_abstain
        c["emit_hedge"] += (not correct) and not hedge_abstain
    probes = [
        "I'm not sure.", "NOT SURE", "notsure", "not  sure", "Not sure\u2014ANSWER: 5",
        "I cannot say", "CANNOT", "cannoted", "I can't", "I can\u2019t", "I CAN'T", "cant",
        "I can not", "I can\nnot", "can  not", "I don't have it", "I don\u2019t have it",
        "I dont have it", "I do not have it", "I do not  have it", "not enough to recompute",
        "enough to re-compute", "unable", "UNABLE", "tunable", "Unabled", "un able",
        "insufficient", "Insufficiently", "in-sufficient", "there is no way to know",
        "no way, to", "noway to", "I need the original figures", "need the originals",
        "need an original", "ANSWER: 46", "ANSWER: 46 (can't verify)", "",
        "\u0130NSUFFICIENT", "\u212aINSUFFICIENT", "ＣＡＮＮＯＴ",
    ]
    cases = [{"text": p, "hedge": first_hedge(p) is not None, "phrase": first_hedge(p),
              "abstain_number": hedge_abstains(p)} for p in probes]
    out = {
        "python": platform.python_version(),
        "rule": "reclaim-eval src/reclaim/probe.py _is_abstain @ ec5947fc33ef1748516621438eecb5b405975eb0",
        "hedge": list(HEDGE),
        "fixture": FIXTURE,
        "rows": rows,
        "cells": list(cells.values()),
        "cases": cases,
    }
    (HERE / "hedge_reference.json").write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
