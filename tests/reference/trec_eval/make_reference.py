#!/usr/bin/env python3
"""Generates TREC inputs and trec_eval reference values for `tests/trec_eval_measures.rs`
(`memaudit trec-eval` against trec_eval itself, via pytrec-eval-terrier).

Run ONCE (outputs are committed; Python is never needed to build or test memaudit):

    python3 -m venv /tmp/trecenv
    /tmp/trecenv/bin/pip install pytrec-eval-terrier==0.5.11
    cd tests/reference/trec_eval && /tmp/trecenv/bin/python make_reference.py

Deterministic (random.Random with fixed seeds; sorted JSON): re-running reproduces every file.

Files written here:

    test.qrels     30 topics, graded 0..4 and negative ("unjudged, in the pool") judgments,
                   '#' comment lines, docnos containing '#', topics judged with no relevant
                   document (t03, t17), a topic no run answers (t29)
    run_a.run      TREC run: ties in sim (trec_eval breaks them by docno descending), rank
                   column unrelated to sim on some topics, lines with extra trailing fields,
                   comment lines, a topic absent from the qrels (zz9), 1..150 documents
    run_b.run      a second run (negative scores, different depths)
    reference.json per case (options), per run, per measure spec, per topic: every
                   pytrec_eval value; plus the summary text trec_eval prints for `official`,
                   built from those per-topic values with trec_eval's averaging and printf.

pytrec-eval-terrier 0.5.11 embeds trec_eval 9.0.8 semantics (32-bit scores, recall cutoffs
floor(x*R + 0.9)): the Rust test evaluates with `--trec-eval-version 9`; trec_eval 10's
differences are checked against hand-computed values and trec_eval 10's own test outputs'
documented behaviour in the Rust tests.

Cases: "default"; "level2" (-l 2, relevance_level=2); "judged" (-J, judged_docs_only_flag);
"ir_measures" (the TREC CAsT pair of ../../../../shared/fixtures/external/ir_measures, graded
to 50... read from there, only values are written); "ranx" (the ranx JSON fixtures).

pytrec_eval cannot compute measures with level=gain pairs (ndcg.1=3, it aborts), relstring or
runid (not numbers), nor utility with parameters (it returns 0): those are checked against
hand-computed values in the Rust tests.
"""

import json
import os
import random

import pytrec_eval

HERE = os.path.dirname(os.path.abspath(__file__))
EXTERNAL = os.path.normpath(os.path.join(HERE, "../../../../shared/fixtures/external"))

MEASURES = [
    "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank",
    "iprec_at_recall", "P", "recall", "infAP", "gm_bpref", "Rprec_mult", "utility", "11pt_avg", "binG",
    "G", "ndcg", "ndcg_rel", "Rndcg", "ndcg_cut", "map_cut", "relative_P", "success", "set_P",
    "set_relative_P", "set_recall", "set_map", "set_F", "num_nonrel_judged_ret",
    "P.3,7,12", "ndcg_cut.3,25", "recall.4", "success.2,20", "iprec_at_recall.0.25,0.33",
    "Rprec_mult.0.5,1.5", "map_cut.8", "set_F.0.5", "relative_P.2",
]

# `official` in trec_eval's print order (runid is printed from the file, not from pytrec).
OFFICIAL = ["num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank",
            "iprec_at_recall", "P"]


def docno(r, i):
    return r.choice(["DOC", "doc", "D", "clueweb#"]) + str(i) + ("#" + str(r.randint(0, 9)) if r.random() < 0.2 else "")


def make_files():
    r = random.Random(20261124)
    topics = [f"t{i:02d}" for i in range(30)]
    pool = sorted({docno(r, i) for i in range(400)})
    qrels_lines = ["# qrels written for memaudit's trec-eval reference test"]
    judged = {}
    for t in topics:
        docs = r.sample(pool, r.randint(3, 40))
        judged[t] = {}
        for j, d in enumerate(docs):
            if t in ("t03", "t17"):
                rel = r.choice([0, 0, -1]) if j else 0
            else:
                rel = r.choice([0, 0, 0, 1, 1, 2, 3, 4, -1]) if j else r.choice([1, 2, 3])
            judged[t][d] = rel
            qrels_lines.append(f"{t} 0 {d} {rel}")
    body = qrels_lines[1:]
    r.shuffle(body)
    # Single comment lines between judgments (trec_eval 10 cannot read two in a row).
    qrels_lines = qrels_lines[:1]
    for i, line in enumerate(body):
        qrels_lines.append(line)
        if i % 37 == 5:
            qrels_lines.append("# a comment between judgments")
    runs = {}
    for name, tag, sign in (("run_a", "runA", 1), ("run_b", "runB", -1)):
        lines = ["# run " + tag]
        per_topic = {}
        for t in topics + ["zz9"]:
            if t == "t29":
                continue
            depth = r.choice([1, 5, 10, 30, 60, 150])
            cand = list(judged.get(t, {}).keys()) + r.sample(pool, 60)
            seen = []
            for d in cand:
                if d not in seen:
                    seen.append(d)
            r.shuffle(seen)
            docs = seen[:depth]
            sims = [sign * round(r.choice([r.random(), r.random(), 0.5, 0.25]), 2) for _ in docs]
            per_topic[t] = dict(zip(docs, sims))
            order = list(range(len(docs)))
            if r.random() < 0.3:
                r.shuffle(order)  # a rank column unrelated to sim
            for rank, i in enumerate(order):
                extra = " extra fields here" if r.random() < 0.1 else ""
                lines.append(f"{t}\tQ0\t{docs[i]}\t{rank + 1}\t{sims[i]}\t{tag}{extra}")
        body = lines[1:]
        r.shuffle(body)
        lines = lines[:1] + body
        runs[name] = (tag, per_topic, lines)
    with open(os.path.join(HERE, "test.qrels"), "w") as f:
        f.write("\n".join(qrels_lines) + "\n")
    for name, (_, _, lines) in runs.items():
        with open(os.path.join(HERE, name + ".run"), "w") as f:
            f.write("\n".join(lines) + "\n")
    return judged, {n: (tag, pt) for n, (tag, pt, _) in runs.items()}


def read_trec_qrels(path):
    q = {}
    for line in open(path):
        if line.strip().startswith("#") or not line.strip():
            continue
        t, _, d, rel = line.split()
        q.setdefault(t, {})[d] = int(rel)
    return q


def read_trec_run(path):
    run, tag = {}, None
    for line in open(path):
        if line.strip().startswith("#") or not line.strip():
            continue
        f = line.split()
        run.setdefault(f[0], {})[f[2]] = float(f[4])
        tag = f[5]
    return tag, run


def evaluate(qrels, run, **kw):
    """{measure spec: {topic: {value name: value}}}: each spec evaluated on its own (pytrec_eval
    names `set_F.0.5` plain `set_F`, so merging specs would mix values)."""
    return {m: pytrec_eval.RelevanceEvaluator(qrels, {m}, **kw).evaluate(run) for m in MEASURES}


def merged_defaults(per_measure):
    """Per topic, the values of the measures without parameters (for the summary text)."""
    out = {}
    for m, topics in per_measure.items():
        if "." in m:
            continue
        for t, vals in topics.items():
            out.setdefault(t, {}).update(vals)
    return out


def fmt(x):
    """C's `%6.4f`. A NaN (0/0: -J left a topic with no document) is the x86-64 default NaN,
    whose sign bit glibc prints: `-nan` (checked against the trec_eval binary)."""
    import math
    return "  -nan" if math.isnan(x) else f"{x:6.4f}"


def no_nan(v):
    """JSON has no NaN: written as the string "nan"."""
    import math
    if isinstance(v, dict):
        return {k: no_nan(x) for k, x in v.items()}
    if isinstance(v, float) and math.isnan(v):
        return "nan"
    return v


def summary_text(runid, per_topic):
    """trec_eval's summary for `official`: means, the geometric mean of gm_map, counts summed."""
    topics = sorted(per_topic)
    n = len(topics)
    lines = [f"{'runid':<22}\tall\t{runid}"]
    for m in OFFICIAL:
        if m == "P":
            keys = [f"P_{c}" for c in (5, 10, 15, 20, 30, 100, 200, 500, 1000)]
        elif m == "iprec_at_recall":
            keys = [f"iprec_at_recall_{x / 10:.2f}" for x in range(11)]
        else:
            keys = [m]
        for k in keys:
            s = 0.0
            for t in topics:
                s += per_topic[t][k]
            if m in ("num_q",):
                lines.append(f"{k:<22}\tall\t{n}")
            elif m in ("num_ret", "num_rel", "num_rel_ret"):
                lines.append(f"{k:<22}\tall\t{int(s)}")
            elif m == "gm_map":
                import math
                lines.append(f"{k:<22}\tall\t{fmt(math.exp(s / n))}")
            else:
                lines.append(f"{k:<22}\tall\t{fmt(s / n)}")
    return "\n".join(lines) + "\n"


def main():
    make_files()
    qrels = read_trec_qrels(os.path.join(HERE, "test.qrels"))
    cases = {}
    for case, kw in (("default", {}), ("level2", {"relevance_level": 2}), ("judged", {"judged_docs_only_flag": True})):
        cases[case] = {"qrels": "test.qrels", "options": kw, "runs": {}}
        for name in ("run_a", "run_b"):
            tag, run = read_trec_run(os.path.join(HERE, name + ".run"))
            values = evaluate(qrels, run, **kw)
            cases[case]["runs"][name + ".run"] = {
                "runid": tag,
                "per_measure": values,
                "official_summary": summary_text(tag, merged_defaults(values)),
            }
    cast_qrels = read_trec_qrels(os.path.join(EXTERNAL, "ir_measures/compat.qrels"))
    tag, cast_run = read_trec_run(os.path.join(EXTERNAL, "ir_measures/compat.run"))
    values = evaluate(cast_qrels, cast_run)
    cases["ir_measures"] = {"qrels": "ir_measures/compat.qrels", "options": {}, "runs": {
        "ir_measures/compat.run": {"runid": tag, "per_measure": values,
                                   "official_summary": summary_text(tag, merged_defaults(values))}}}
    ranx_qrels = json.load(open(os.path.join(EXTERNAL, "ranx/qrels.json")))
    ranx_run = json.load(open(os.path.join(EXTERNAL, "ranx/run.json")))
    values = evaluate(ranx_qrels, ranx_run)
    cases["ranx"] = {"qrels": "ranx/qrels.json", "options": {}, "runs": {
        "ranx/run.json": {"runid": "run", "per_measure": values,
                          "official_summary": summary_text("run", merged_defaults(values))}}}
    out = {
        "generator": "make_reference.py",
        "pytrec_eval_terrier": "0.5.11",
        "measures": MEASURES,
        "cases": cases,
    }
    with open(os.path.join(HERE, "reference.json"), "w") as f:
        json.dump(no_nan(out), f, indent=1, sort_keys=True, allow_nan=False)
        f.write("\n")


if __name__ == "__main__":
    main()
