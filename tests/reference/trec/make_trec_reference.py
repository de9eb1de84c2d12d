#!/usr/bin/env python3
"""Generates the TREC inputs and the trec_eval reference values for
`tests/trec_eval_agreement.rs`.

Run ONCE (the outputs are committed; Python is never needed to build or test memaudit):

    python3 -m venv /tmp/trecenv
    /tmp/trecenv/bin/pip install pytrec-eval-terrier numpy
    cd tests/reference/trec && /tmp/trecenv/bin/python make_trec_reference.py

Everything is deterministic (numpy Generator with a fixed seed, sorted output), so re-running
with the same numpy / pytrec-eval-terrier versions reproduces the files byte for byte.

Files written (all in this directory):

    graded.qrels              40 queries, grades 0..3 (rel 0 judgments included)
    binary.qrels              the same judgments made binary: rel = 1 iff graded rel >= 2
    runs.run                  2 systems (tags `sysA`, `sysB`), 6-column TREC run
    conventions_example.qrels / conventions_example.run
                              the worked example of shared/notes/conventions.md §3.3
    reference_values.json     per-query, per-system pytrec_eval values (see "cases" below)

Design of the data (each item is there to exercise one rule):

  * graded relevance 0..3, with rel 0 judgments (judged non-relevant: no gain, not counted in
    num_rel) and with unjudged retrieved documents (documents judged only for other queries,
    and documents judged for no query at all);
  * queries with exactly one relevant document;
  * query 440 has judgments but NO relevant document (only rel 0). trec_eval (and therefore
    pytrec_eval) still evaluates it and reports 0 for every measure (num_rel = 0), so the
    trec_eval mean over queries includes those zeros. memaudit treats such a query as NOT
    ELIGIBLE (`Cell::score == None`) and leaves it out of every mean. This is a documented
    convention difference, asserted explicitly by the Rust test. Under binary.qrels more
    queries have no relevant document (those whose best grade is 1); same treatment;
  * query 439 has 75 relevant documents (more than k = 60: the ideal DCG of ndcg_cut_60 is
    truncated to 60 gains) and its lists hold 100 items;
  * lists shorter than, equal to, just above and well above k = 60 (5 .. 100 items), with a
    first relevant document at rank exactly 60 (query 411, sysA) and exactly 61 (query 412,
    sysA);
  * DELIBERATELY TIED scores: all scores are rounded to 2 decimals (natural ties) and some lists
    have blocks of identical scores mixing a grade-3 document, a grade-0 document and 0-2
    never-judged ones (queries 401..403: block at the top of the list; 404..406: block in the
    middle). trec_eval orders by score descending and breaks ties by docno DESCENDING
    (strcmp, so "D9" > "D10" > "D1"); the rank column of runs.run instead lists tied documents
    in docno ASCENDING order, so the saved order and the trec_eval order differ on ties;
  * one list (query 407, sysB) whose rank column is a random permutation unrelated to the
    scores (trec_eval ignores the rank column entirely);
  * system sysB uses negative scores (log-probability style);
  * query 438 is absent from sysB's run (trec_eval without -c skips it for sysB; memaudit's
    default MissingRun::Skip leaves the cell unscored);
  * query 999 appears in the run but not in the qrels (both tools ignore it).

Cases in reference_values.json:

  "graded" / "binary"
      pytrec_eval on runs.run (split per tag) against graded.qrels / binary.qrels: the
      trec_eval ordering (memaudit RankOrder::TrecEval).
  "graded_saved_order" / "binary_saved_order"
      pytrec_eval on the same lists with every score replaced by -rank, i.e. the lists read in
      their saved rank-column order (memaudit RankOrder::Saved). "tie_sensitive" lists the
      (system, query) pairs where some measure differs between the two orders; the Rust test
      asserts memaudit's Saved order reproduces the *_saved_order values and therefore
      DIFFERS from trec_eval on those lists.
  "conventions_example"
      conventions.md §3.3: qrels {A:3, B:2, C:1, D:0}, ranking [C, X(unjudged), A, B].

Measures (pytrec_eval names) and the memaudit quantity they are compared with:

  ndcg_cut_60  <-> ListScore.ndcg      with Settings.k = 60
  ndcg_cut_10  <-> ListScore.ndcg      with k = 10
  ndcg         <-> ListScore.ndcg      with k = 1000 (trec_eval's ndcg is uncut up to its
                                       default -M 1000 depth; every list here is <= 100 long)
  recall_60    <-> ListScore.recall    with k = 60
  success_1    <-> ListScore.top1 (any k) and ListScore.hit with k = 1
  success_10   <-> ListScore.hit       with k = 10
  P_5          <-> ListScore.groups_hit / 5 with k = 5 (one document = one group for TREC)
  recip_rank   <-> ListScore.mrr       see below

MRR: trec_eval's recip_rank is NOT cut at any k: it is 1/rank of the first relevant document
anywhere in the list (up to the -M depth, 1000). memaudit's mrr is MRR@k (0 when the first
credited item is below k). We do not cut the runs before pytrec_eval (that would need our own
re-implementation of the trec_eval ordering, which is exactly what is under test); instead the
test derives the comparison from the trec_eval value alone:
    memaudit mrr (k = 1000) == recip_rank                              (uncut, exact)
    memaudit mrr (k = 60)   == recip_rank if recip_rank >= 1/60 else 0  (first rank <= 60)
    memaudit first_rank     == round(1 / recip_rank) when recip_rank > 0
Query 412 (sysA, first relevant at rank 61) is the case where recip_rank (1/61) and MRR@60 (0)
genuinely differ.
"""

import importlib.metadata
import json
import os
import platform
import sys

import numpy as np
import pytrec_eval

SEED = 20240611
K = 60
MEASURES = {
    "ndcg",
    "ndcg_cut.10,60",
    "recall.60",
    "recip_rank",
    "success.1,10",
    "P.5",
    "num_rel",
    "num_ret",
}
MEASURE_NAMES = [
    "ndcg",
    "ndcg_cut_10",
    "ndcg_cut_60",
    "recall_60",
    "recip_rank",
    "success_1",
    "success_10",
    "P_5",
    "num_rel",
    "num_ret",
]
SYSTEMS = ["sysA", "sysB"]
HERE = os.path.dirname(os.path.abspath(__file__))

rng = np.random.default_rng(SEED)

# ---------------------------------------------------------------------------------------------
# Qrels
# ---------------------------------------------------------------------------------------------
QIDS = [str(q) for q in range(401, 441)]
# Unpadded docnos so that lexicographic (strcmp) and numeric orders differ: D9 > D10 > D100.
POOL = [f"D{n}" for n in range(1, 1200)]

# Deliberate ties need known docnos. Each pair (hi, lo) has hi > lo under strcmp but hi < lo
# numerically ("D9" > "D10"): trec_eval ranks hi (grade 3) before lo (grade 0) among equal
# scores, the rank column of runs.run (docno ascending) ranks lo first.
TIE_PAIRS = {
    "401": ("D9", "D10"),
    "402": ("D8", "D11"),
    "403": ("D7", "D12"),
    "404": ("D6", "D13"),
    "405": ("D5", "D14"),
    "406": ("D4", "D15"),
}
TIE_AT_TOP = {"401", "402", "403"}  # 404..406: the tie block sits in the middle of the list
qrels = {}  # qid -> {docno: grade}
used = {d for pair in TIE_PAIRS.values() for d in pair}  # reserved for the tie pairs


def take_docs(n):
    """n docnos not yet judged for any query (every query gets its own judged docs)."""
    free = [d for d in POOL if d not in used]
    idx = rng.choice(len(free), size=n, replace=False)
    docs = [free[i] for i in sorted(idx)]
    used.update(docs)
    return docs


for qid in QIDS:
    q = int(qid)
    if q == 439:  # 75 relevant documents (> k), plus 10 judged non-relevant
        docs = take_docs(85)
        grades = [int(g) for g in rng.integers(1, 4, size=75)] + [0] * 10
    elif q == 440:  # judged, but no relevant document at all
        docs = take_docs(6)
        grades = [0] * 6
    elif q in (413, 414, 415, 416, 417):  # exactly one relevant document (+ rel 0 judgments)
        docs = take_docs(int(rng.integers(3, 9)))
        grades = [0] * len(docs)
        grades[int(rng.integers(0, len(docs)))] = int(rng.integers(1, 4))
    else:
        n = int(rng.integers(4, 25))
        docs = take_docs(n)
        grades = [int(g) for g in rng.choice([0, 1, 2, 3], size=n, p=[0.45, 0.25, 0.18, 0.12])]
        if max(grades) == 0:
            grades[0] = 2
    qrels[qid] = dict(zip(docs, grades))

for qid, (hi, lo) in TIE_PAIRS.items():
    qrels[qid][hi] = 3
    qrels[qid][lo] = 0

binary_qrels = {q: {d: (1 if g >= 2 else 0) for d, g in j.items()} for q, j in qrels.items()}

# ---------------------------------------------------------------------------------------------
# Runs
# ---------------------------------------------------------------------------------------------
LENGTHS = [5, 8, 12, 20, 30, 45, 59, 60, 61, 75, 100]
all_judged = sorted({d for j in qrels.values() for d in j})
never_judged = [f"U{n}" for n in range(1, 400)]  # judged for no query


def candidate_list(qid, length, sys_index):
    """Judged docs of the query, docs judged for other queries, never-judged docs."""
    own = list(qrels[qid])
    others = [d for d in all_judged if d not in qrels[qid]]
    n_own = min(len(own), max(1, int(length * rng.uniform(0.3, 0.8))))
    chosen = [own[i] for i in rng.choice(len(own), size=n_own, replace=False)]
    n_rest = length - len(chosen)
    n_other = n_rest // 2
    chosen += [others[i] for i in rng.choice(len(others), size=n_other, replace=False)]
    chosen += [never_judged[i] for i in rng.choice(len(never_judged), size=n_rest - n_other, replace=False)]
    return chosen


def fmt(score):
    return f"{score:.2f}"


run_lists = {s: {} for s in SYSTEMS}  # system -> qid -> [(docno, score_text)] in rank order
shuffled_rank = set()
for si, sys_name in enumerate(SYSTEMS):
    for qid in QIDS + ["999"]:
        if qid == "438" and sys_name == "sysB":
            continue  # absent from sysB's run
        if qid == "999":
            docs = [never_judged[i] for i in rng.choice(len(never_judged), size=10, replace=False)]
            scores = [round(float(x), 2) for x in rng.uniform(0, 10, size=10)]
        elif qid in ("411", "412") and sys_name == "sysA":
            # First relevant document at rank exactly 60 (411) / 61 (412): 70 items, strictly
            # decreasing scores, every item above the target unjudged or judged non-relevant.
            target = 60 if qid == "411" else 61
            rel = [d for d, g in qrels[qid].items() if g > 0]
            nonrel = [d for d, g in qrels[qid].items() if g == 0]
            filler = nonrel + [never_judged[i] for i in rng.choice(len(never_judged), size=80, replace=False)]
            docs = filler[: target - 1] + [rel[0]] + filler[target - 1 : 69]
            scores = [round(100.0 - 0.5 * i, 2) for i in range(len(docs))]
        elif qid == "439":
            docs = candidate_list(qid, 100, si)
            scores = [round(float(x), 2) for x in rng.normal(0, 1, size=100)]
        else:
            length = int(rng.choice(LENGTHS))
            docs = candidate_list(qid, length, si)
            grades = np.array([qrels[qid].get(d, 0) for d in docs], dtype=float)
            signal = (1.0 if si == 0 else 0.6) * grades + rng.normal(0, 1.2, size=len(docs))
            scores = [round(float(x), 2) for x in signal]
        if sys_name == "sysB":
            scores = [round(s - 20.0, 2) for s in scores]  # negative, log-prob style
        if qid in TIE_PAIRS:
            # A block of equal scores holding the pair and 0-2 never-judged fillers named
            # "D1x..." (between lo and hi under strcmp: "D10" < "D1x.." < "D9").
            hi, lo = TIE_PAIRS[qid]
            keep = [i for i, d in enumerate(docs) if d not in (hi, lo)]
            docs = [docs[i] for i in keep]
            scores = [scores[i] for i in keep]
            if qid in TIE_AT_TOP:
                tied = round(max(scores) + 1.0, 2)
            else:
                tied = round(float(np.median(scores)), 2)
            fillers = [f"D1x{qid}{c}" for c in "ab"[: int(rng.integers(0, 3))]]
            docs = docs + [hi, lo] + fillers
            scores = scores + [tied] * (2 + len(fillers))
        ranked = sorted(zip(docs, scores), key=lambda p: (-p[1], p[0]))  # ties: docno ASCENDING
        if qid == "407" and sys_name == "sysB":
            perm = rng.permutation(len(ranked))
            ranked = [ranked[i] for i in perm]
            shuffled_rank.add((sys_name, qid))
        run_lists[sys_name][qid] = [(d, fmt(s)) for d, s in ranked]
        assert all(float(fmt(s)) == s for _, s in ranked)  # sorted on exactly the written values

# ---------------------------------------------------------------------------------------------
# Writing and re-reading the files (the values given to pytrec_eval are parsed from the very
# text memaudit reads, so both see the same doubles)
# ---------------------------------------------------------------------------------------------


def qid_key(q):
    return (len(q), q)


def write_qrels(path, q):
    with open(path, "w") as f:
        for qid in sorted(q, key=qid_key):
            for d in sorted(q[qid], key=lambda x: (len(x), x)):
                f.write(f"{qid} 0 {d} {q[qid][d]}\n")


def write_run(path, lists):
    with open(path, "w") as f:
        for sys_name in SYSTEMS:
            for qid in sorted(lists[sys_name], key=qid_key):
                for r, (d, s) in enumerate(lists[sys_name][qid], start=1):
                    f.write(f"{qid} Q0 {d} {r} {s} {sys_name}\n")


def read_qrels(path):
    out = {}
    for line in open(path):
        f = line.split()
        if f:
            out.setdefault(f[0], {})[f[2]] = int(f[3])
    return out


def read_run(path):
    """system -> qid -> {docno: score}, and the same with score = -rank (saved order)."""
    by_score, by_rank = {}, {}
    for line in open(path):
        f = line.split()
        if not f:
            continue
        qid, _, doc, rank, score, tag = f
        by_score.setdefault(tag, {}).setdefault(qid, {})[doc] = float(score)
        by_rank.setdefault(tag, {}).setdefault(qid, {})[doc] = -float(rank)
    return by_score, by_rank


write_qrels(os.path.join(HERE, "graded.qrels"), qrels)
write_qrels(os.path.join(HERE, "binary.qrels"), binary_qrels)
write_run(os.path.join(HERE, "runs.run"), run_lists)

# conventions.md §3.3 worked example
with open(os.path.join(HERE, "conventions_example.qrels"), "w") as f:
    f.write("1 0 A 3\n1 0 B 2\n1 0 C 1\n1 0 D 0\n")
with open(os.path.join(HERE, "conventions_example.run"), "w") as f:
    f.write("1 Q0 C 1 4.0 example\n1 Q0 X 2 3.0 example\n1 Q0 A 3 2.0 example\n1 Q0 B 4 1.0 example\n")


def evaluate(qrels_path, run, measures):
    ev = pytrec_eval.RelevanceEvaluator(read_qrels(qrels_path), measures)
    out = {}
    for sys_name in sorted(run):
        res = ev.evaluate(run[sys_name])
        out[sys_name] = {q: {m: float(v) for m, v in sorted(res[q].items())} for q in sorted(res, key=qid_key)}
    return out


by_score, by_rank = read_run(os.path.join(HERE, "runs.run"))
cases = {}
for name in ("graded", "binary"):
    qpath = os.path.join(HERE, f"{name}.qrels")
    cases[name] = {
        "qrels": f"{name}.qrels",
        "run": "runs.run",
        "order": "trec_eval",
        "values": evaluate(qpath, by_score, MEASURES),
    }
    cases[f"{name}_saved_order"] = {
        "qrels": f"{name}.qrels",
        "run": "runs.run",
        "order": "saved",
        "values": evaluate(qpath, by_rank, MEASURES),
    }

example_measures = {"ndcg", "ndcg_cut.1,2,3,10", "recip_rank", "P.2", "recall.2"}
ex_run = {"example": {"1": {"C": 4.0, "X": 3.0, "A": 2.0, "B": 1.0}}}
cases["conventions_example"] = {
    "qrels": "conventions_example.qrels",
    "run": "conventions_example.run",
    "order": "trec_eval",
    "values": evaluate(os.path.join(HERE, "conventions_example.qrels"), ex_run, example_measures),
}

# Where the saved order and trec_eval's order give different numbers.
tie_sensitive = {}
for name in ("graded", "binary"):
    a, b = cases[name]["values"], cases[f"{name}_saved_order"]["values"]
    pairs = []
    for s in sorted(a):
        for q in sorted(a[s], key=qid_key):
            diff = sorted(m for m in a[s][q] if abs(a[s][q][m] - b[s][q][m]) > 1e-9)
            if diff:
                pairs.append({"system": s, "query": q, "measures": diff})
    tie_sensitive[name] = pairs

# Sanity checks of the design (fail loudly rather than write a weaker reference).
g = cases["graded"]["values"]
for qid in TIE_PAIRS:
    for s in SYSTEMS:
        assert any(p["system"] == s and p["query"] == qid for p in tie_sensitive["graded"]), (s, qid)
        if qid in TIE_AT_TOP:
            # the grade-3 doc wins the tie in trec_eval, loses it in the saved order
            assert g[s][qid]["success_1"] == 1.0, (s, qid)
            assert cases["graded_saved_order"]["values"][s][qid]["success_1"] == 0.0, (s, qid)
assert abs(g["sysA"]["411"]["recip_rank"] - 1 / 60) < 1e-15
assert abs(g["sysA"]["412"]["recip_rank"] - 1 / 61) < 1e-15
assert "438" not in g["sysB"] and "438" in g["sysA"]
assert all("999" not in g[s] for s in SYSTEMS)
assert g["sysA"]["440"]["num_rel"] == 0.0 and g["sysA"]["440"]["ndcg_cut_60"] == 0.0
assert g["sysA"]["439"]["num_rel"] == 75.0
lens = [len(v) for s in SYSTEMS for v in run_lists[s].values()]
assert min(lens) < 60 and max(lens) > 60 and 60 in lens and 61 in lens


def trec_mean(values, measure):
    qs = list(values)
    return sum(values[q][measure] for q in qs) / len(qs)


no_rel = {
    name: sorted(
        {q for s in SYSTEMS for q, r in cases[name]["values"][s].items() if r["num_rel"] == 0},
        key=qid_key,
    )
    for name in ("graded", "binary")
}
# trec_eval's "all" mean (without -c: over the queries of the run that are in the qrels,
# INCLUDING the no-relevant queries at 0) versus the mean over queries with a relevant document
# (memaudit's population).
means = {}
for name in ("graded", "binary"):
    means[name] = {}
    for s in SYSTEMS:
        v = cases[name]["values"][s]
        elig = {q: r for q, r in v.items() if r["num_rel"] > 0}
        means[name][s] = {
            m: {"trec_eval_all": trec_mean(v, m), "queries_with_relevant": trec_mean(elig, m),
                "n_all": len(v), "n_with_relevant": len(elig)}
            for m in ("ndcg_cut_60", "recall_60", "recip_rank")
        }

out = {
    "generator": "tests/reference/trec/make_trec_reference.py",
    "pytrec_eval_package": "pytrec-eval-terrier",
    "pytrec_eval_version": importlib.metadata.version("pytrec-eval-terrier"),
    "numpy_version": np.__version__,
    "python_version": platform.python_version(),
    "seed": SEED,
    "k": K,
    "relevance_level": 1,
    "measures": MEASURE_NAMES,
    "conventions_example_measures": ["ndcg", "ndcg_cut_1", "ndcg_cut_2", "ndcg_cut_3", "ndcg_cut_10", "recip_rank", "P_2", "recall_2"],
    "systems": SYSTEMS,
    "no_relevant_queries": no_rel,
    "absent_from_run": [{"system": "sysB", "query": "438"}],
    "not_in_qrels": ["999"],
    "rank_column_shuffled": [{"system": s, "query": q} for s, q in sorted(shuffled_rank)],
    "first_relevant_at": [{"system": "sysA", "query": "411", "rank": 60}, {"system": "sysA", "query": "412", "rank": 61}],
    "deliberate_tie_queries": sorted(TIE_PAIRS),
    "tie_sensitive": tie_sensitive,
    "means": means,
    "notes": [
        "trec_eval orders by score descending, ties by docno descending (strcmp); the rank column is ignored.",
        "*_saved_order cases: pytrec_eval on the same lists with score := -rank (the saved rank-column order).",
        "recip_rank is uncut; compare with memaudit mrr at k=1000 exactly, and at k=60 only where recip_rank >= 1/60 (else memaudit gives 0).",
        "queries with no relevant document get 0 from trec_eval (num_rel = 0) and are not eligible (None) in memaudit.",
        "trec_eval without -c skips queries absent from a run; memaudit MissingRun::Skip leaves them unscored.",
    ],
    "cases": cases,
}
with open(os.path.join(HERE, "reference_values.json"), "w") as f:
    json.dump(out, f, indent=1, sort_keys=True)
    f.write("\n")

print("pytrec-eval-terrier", out["pytrec_eval_version"], "numpy", np.__version__, "python", sys.version.split()[0])
for name, pairs in tie_sensitive.items():
    print(name, "tie-sensitive lists:", [(p["system"], p["query"]) for p in pairs])
print("no relevant:", no_rel)
