"""Reference values for memaudit's `aggregations`, `kendall_from_raw` and `agreement`
(TIAP App. B, Table 8; seed-001 §1.7 "Aggregation functions", "τ_d", "Agreement filtering"),
recomputed in plain Python (no numpy).

Run (from the repository root, with any build of the CLI):
    python3 tests/reference/aggregation/make_aggregation_reference.py target/release/memaudit

What it does, independently of memaudit's own aggregation code:
1. runs `memaudit rescore -m static/demo/memories.jsonl -q static/demo/queries.jsonl
   -r static/demo/runs.jsonl --format json --bootstrap 0 --k K` for each K in CASES and reads
   only its `per_query` rows (per-query nDCG / Hit are checked against trec_eval elsewhere);
2. per system, the population is the queries whose Raw row is eligible; the triplet is
   (nDCG_Raw, nDCG_Source, nDCG_Canonical) with Source / Canonical replaced by the Raw value
   when that target's row is missing or not eligible (the Raw fallback, counted);
3. means over the population of the three members, of their arithmetic mean, of the
   geometric mean `(R*S*C) ** (1/3)` (zeros kept) and of the minimum;
4. τ_d per column (source, canonical, arith, geom, min): over all pairs of systems with a
   non-empty population, the pairs whose Raw means and column means differ in sign
   (a pair with an exact tie under either is a tie, never discordant);
5. agreement: the population queries where the three Hit values are equal (kept), retention
   kept / n, mean spread max - min of the triplet on the kept queries and on the kept
   all-hit queries;
6. writes `aggregation_reference.json`. tests/aggregation_reference.rs recomputes the same
   cases through the library and compares every row (counts and orders exactly, numbers to
   1e-12).

Deterministic: re-running it reproduces the file byte for byte. Python is never a build or
runtime dependency of memaudit.
"""
import itertools
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
DEMO = os.path.join(ROOT, "static", "demo")
CASES = [60, 5]
COLUMNS = ["source", "canonical", "arith", "geom", "min"]


def per_query(binary, k):
    args = [binary, "rescore", "-m", os.path.join(DEMO, "memories.jsonl"),
            "-q", os.path.join(DEMO, "queries.jsonl"), "-r", os.path.join(DEMO, "runs.jsonl"),
            "--format", "json", "--bootstrap", "0", "--k", str(k)]
    report = json.loads(subprocess.run(args, check=True, capture_output=True).stdout)
    return report["per_query"]


def avg(xs):
    return sum(xs) / len(xs) if xs else None


def compute(rows):
    systems, queries, cell = [], [], {}
    for r in rows:
        if r["system"] not in systems:
            systems.append(r["system"])
        if r["query_id"] not in queries:
            queries.append(r["query_id"])
        if r["eligible"]:
            cell[(r["system"], r["query_id"], r["target"])] = (r["ndcg"], r["hit"])
    aggs, agree = [], []
    for s in systems:
        trip, src_fb, can_fb = [], 0, 0
        for q in queries:
            raw = cell.get((s, q, "raw"))
            if raw is None:
                continue
            src = cell.get((s, q, "source"))
            if src is None:
                src_fb += 1
                src = raw
            can = cell.get((s, q, "canonical"))
            if can is None:
                can_fb += 1
                can = raw
            trip.append((raw, src, can))
        nd = [(a[0], b[0], c[0]) for a, b, c in trip]
        aggs.append({
            "system": s, "population": "raw_eligible", "fallback": "raw", "n": len(trip),
            "source_fallback": src_fb, "canonical_fallback": can_fb,
            "raw": avg([x[0] for x in nd]), "source": avg([x[1] for x in nd]),
            "canonical": avg([x[2] for x in nd]),
            "arith": avg([(x[0] + x[1] + x[2]) / 3.0 for x in nd]),
            "geom": avg([(x[0] * x[1] * x[2]) ** (1.0 / 3.0) for x in nd]),
            "min": avg([min(x) for x in nd]),
        })
        kept = [t for t in trip if t[0][1] == t[1][1] == t[2][1]]
        all_hit = [t for t in kept if t[0][1] == 1.0]

        def spread(t):
            v = [t[0][0], t[1][0], t[2][0]]
            return max(v) - min(v)

        agree.append({
            "system": s, "population": "raw_eligible", "fallback": "raw", "n": len(trip),
            "kept": len(kept), "retention": len(kept) / len(trip) if trip else None,
            "spread_kept": avg([spread(t) for t in kept]),
            "n_all_hit": len(all_hit), "spread_all_hit": avg([spread(t) for t in all_hit]),
        })
    ranked = [a for a in aggs if a["n"] > 0]
    kendall = []
    for col in COLUMNS:
        disc = ties = 0
        for x, y in itertools.combinations(ranked, 2):
            dr, dc = x["raw"] - y["raw"], x[col] - y[col]
            if dr == 0 or dc == 0:
                ties += 1
            elif (dr > 0) != (dc > 0):
                disc += 1
        order = sorted(range(len(ranked)), key=lambda i: (-ranked[i][col], i))
        kendall.append({"aggregation": col, "systems": len(ranked), "tau_d": disc,
                        "max": len(ranked) * (len(ranked) - 1) // 2, "ties": ties,
                        "order": " > ".join(ranked[i]["system"] for i in order)})
    return aggs, kendall, agree


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target", "release", "memaudit")
    cases = []
    for k in CASES:
        aggs, kendall, agree = compute(per_query(binary, k))
        cases.append({"k": k, "bootstrap": 0, "aggregations": aggs, "kendall_from_raw": kendall,
                      "agreement": agree})
    out = {
        "versions": {"python": sys.version.split()[0]},
        "inputs": {"memories": "static/demo/memories.jsonl", "queries": "static/demo/queries.jsonl",
                   "runs": "static/demo/runs.jsonl"},
        "cases": cases,
    }
    with open(os.path.join(HERE, "aggregation_reference.json"), "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
