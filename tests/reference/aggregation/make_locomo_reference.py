"""Reference values for memaudit's `aggregations`, `kendall_from_raw` and `agreement` on the
real LoCoMo-10 file (CC BY-NC 4.0: read as a test input only; only the recomputed numbers are
written here, never its text), recomputed in plain Python from the CLI's `per_query` rows.

Run (from the repository root):
    python3 tests/reference/aggregation/make_locomo_reference.py target/release/memaudit

1. `memaudit import --out TMP locomo ../shared/fixtures/external/locomo-audit/locomo10.json`
   (MEMAUDIT_SHARED overrides ../shared);
2. builds three synthetic systems `mix-2`, `mix-4`, `mix-6` that the Rust test
   tests/aggregation_reference.rs rebuilds identically from the same file: for each query
   (tenant T = the query id before `/`), every memory of T gets the key
   splitmix64(fnv1a64(memory_id) ^ fnv1a64(system + "|" + query_id)), shifted right by 2, 4
   or 6 bits when the memory is relevant (its id is an evidence anchor or one of its anchors
   is), and the 20 memories with the smallest (key, memory_id) form the ranked list;
3. runs `memaudit rescore -m TMP/memories.jsonl -q TMP/queries.jsonl -r TMP/runs.jsonl
   --format json --bootstrap 0` and recomputes the three tables from `per_query` with
   make_aggregation_reference.compute (population: Raw-eligible queries; Source / Canonical
   fall back to Raw);
4. writes `locomo_reference.json`.
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, HERE)
from make_aggregation_reference import compute  # noqa: E402

M64 = (1 << 64) - 1
SYSTEMS = [("mix-2", 2), ("mix-4", 4), ("mix-6", 6)]
DEPTH = 20


def fnv1a64(s):
    h = 0xCBF29CE484222325
    for b in s.encode("utf-8"):
        h = ((h ^ b) * 0x100000001B3) & M64
    return h


def splitmix64(x):
    x = (x + 0x9E3779B97F4A7C15) & M64
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(l) for l in f if l.strip()]


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target", "release", "memaudit")
    shared = os.environ.get("MEMAUDIT_SHARED", os.path.join(ROOT, "..", "shared"))
    locomo = os.path.join(shared, "fixtures", "external", "locomo-audit", "locomo10.json")
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([binary, "import", "--out", tmp, "locomo", locomo], check=True, capture_output=True)
        memories = read_jsonl(os.path.join(tmp, "memories.jsonl"))
        queries = read_jsonl(os.path.join(tmp, "queries.jsonl"))
        by_tenant = {}
        for m in memories:
            by_tenant.setdefault(m["memory_id"].split("/")[0], []).append(
                (m["memory_id"], fnv1a64(m["memory_id"]), set(m.get("anchors") or [])))
        lines = []
        for name, shift in SYSTEMS:
            for q in queries:
                qid = q["query_id"]
                ev = set(q.get("evidence") or [])
                seed = fnv1a64(name + "|" + qid)
                keyed = []
                for mid, h, anchors in by_tenant.get(qid.split("/")[0], []):
                    key = splitmix64(h ^ seed)
                    if mid in ev or anchors & ev:
                        key >>= shift
                    keyed.append((key, mid))
                keyed.sort()
                ranked = [mid for _, mid in keyed[:DEPTH]]
                lines.append(json.dumps({"system": name, "query_id": qid, "ranked": ranked}, separators=(",", ":")))
        runs = os.path.join(tmp, "runs.jsonl")
        with open(runs, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        args = [binary, "rescore", "-m", os.path.join(tmp, "memories.jsonl"), "-q", os.path.join(tmp, "queries.jsonl"),
                "-r", runs, "--format", "json", "--bootstrap", "0"]
        report = json.loads(subprocess.run(args, check=True, capture_output=True).stdout)
    aggs, kendall, agree = compute(report["per_query"])
    out = {
        "versions": {"python": sys.version.split()[0]},
        "input": "fixtures/external/locomo-audit/locomo10.json",
        "systems": [{"name": n, "shift": s} for n, s in SYSTEMS],
        "depth": DEPTH,
        "k": 60,
        "aggregations": aggs,
        "kendall_from_raw": kendall,
        "agreement": agree,
    }
    with open(os.path.join(HERE, "locomo_reference.json"), "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
