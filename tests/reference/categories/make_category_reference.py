"""Reference values for memaudit's `instability_by_category` (TIAP §5.3), recomputed in Python.

Run (from the repository root, with any build of the CLI):
    python3 tests/reference/categories/make_category_reference.py target/release/memaudit
(any Python 3 with numpy, e.g. the venv of tests/reference/README.md)

What it does, independently of memaudit's own per-category code:
1. writes `queries.jsonl` here: the demo queries (static/demo/queries.jsonl) with the
   `category` key removed from every query whose position (0-based) is 4 mod 9, so the
   sentinel category `(none)` is exercised;
2. runs `memaudit rescore -m static/demo/memories.jsonl -q <that file> -r static/demo/runs.jsonl
   --format json --bootstrap 0 --k K` for each K in CASES and reads only its `per_query` rows
   (per-query nDCG / Hit / top-1 are checked against trec_eval elsewhere);
3. reads each query's category from the queries file itself (not from `per_query`), puts
   queries without one under `(none)`, and for every system, pair of compared targets
   (raw, source), (raw, canonical), (source, canonical) and category counts, on the
   category's queries eligible under both targets: n, nDCG changed (exact float `!=`, the
   paper's test), change rate, Hit flips, top-1 flips and the mean of nDCG_b - nDCG_a
   (numpy);
4. writes `category_reference.json` (versions, cases, rows). The Rust test
   tests/instability_by_category.rs recomputes the same cases through the library and
   compares every row (counts exactly, rates and means to 1e-12).

Deterministic: re-running it reproduces both files byte for byte. Python and numpy are never
a build or runtime dependency of memaudit.
"""
import json
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
DEMO = os.path.join(ROOT, "static", "demo")
TARGETS = ["raw", "source", "canonical"]
NO_CATEGORY = "(none)"
CASES = [60, 5]


def write_queries():
    out = []
    with open(os.path.join(DEMO, "queries.jsonl"), encoding="utf-8") as f:
        for i, line in enumerate(l for l in f if l.strip()):
            q = json.loads(line)
            if i % 9 == 4:
                q.pop("category", None)
            out.append(json.dumps(q, ensure_ascii=False, separators=(",", ":")))
    path = os.path.join(HERE, "queries.jsonl")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    return path


def read_categories(path):
    cats = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                q = json.loads(line)
                c = q.get("category")
                cats[str(q["query_id"])] = NO_CATEGORY if c is None else str(c)
    return cats


def per_query(binary, queries, k):
    args = [binary, "rescore", "-m", os.path.join(DEMO, "memories.jsonl"), "-q", queries,
            "-r", os.path.join(DEMO, "runs.jsonl"), "--format", "json", "--bootstrap", "0", "--k", str(k)]
    report = json.loads(subprocess.run(args, check=True, capture_output=True).stdout)
    return report["per_query"]


def rows_for(per_query_rows, cats):
    scores = {}  # (system, query, target) -> (ndcg, hit, top1), eligible cells only
    systems = []
    for r in per_query_rows:
        if r["system"] not in systems:
            systems.append(r["system"])
        if r["eligible"]:
            scores[(r["system"], r["query_id"], r["target"])] = (r["ndcg"], r["hit"], r["top1"])
    compared = [t for t in TARGETS if any(key[2] == t for key in scores)]
    pairs = [(a, b) for i, a in enumerate(compared) for b in compared[i + 1:]]
    names = sorted({c for c in cats.values() if c != NO_CATEGORY})
    if NO_CATEGORY in cats.values():
        names.append(NO_CATEGORY)
    rows = []
    for s in systems:
        for a, b in pairs:
            for c in names:
                shared = [q for q, qc in cats.items() if qc == c and (s, q, a) in scores and (s, q, b) in scores]
                xa = [scores[(s, q, a)] for q in shared]
                xb = [scores[(s, q, b)] for q in shared]
                n = len(shared)
                changed = sum(1 for x, y in zip(xa, xb) if x[0] != y[0])
                diffs = np.array([y[0] - x[0] for x, y in zip(xa, xb)], dtype=float)
                rows.append({
                    "system": s, "a": a, "b": b, "category": c, "n": n,
                    "ndcg_changed": changed,
                    "change_rate": changed / n if n else None,
                    "hit_flips": sum(1 for x, y in zip(xa, xb) if x[1] != y[1]),
                    "top1_flips": sum(1 for x, y in zip(xa, xb) if x[2] != y[2]),
                    "mean_diff_ndcg": float(np.mean(diffs)) if n else None,
                })
    return rows


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target", "release", "memaudit")
    queries = write_queries()
    cats = read_categories(queries)
    out = {
        "versions": {"python": sys.version.split()[0], "numpy": np.__version__},
        "inputs": {"memories": "static/demo/memories.jsonl", "queries": "tests/reference/categories/queries.jsonl",
                   "runs": "static/demo/runs.jsonl"},
        "no_category": NO_CATEGORY,
        "cases": [{"k": k, "bootstrap": 0, "rows": rows_for(per_query(binary, queries, k), cats)} for k in CASES],
    }
    with open(os.path.join(HERE, "category_reference.json"), "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
