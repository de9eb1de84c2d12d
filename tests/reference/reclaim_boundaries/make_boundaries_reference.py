"""Reference values for the reclaim boundary evidence (tests/reclaim_boundaries.rs).

Writes four files in the shapes of reclaim-eval's released results (our own generated rows, not
theirs): sizesweep.jsonl, noisysweep.jsonl, cascade.jsonl, completeness.jsonl; and
reference.json with, computed independently of memaudit in plain Python:

* every sweep point's reclaim rate and its percentile interval by reclaim-eval's recipe
  (`integrity_table_ci.py`: a fresh `random.Random(0)` per interval, 5,000 resamples of
  `xs[r.randrange(k)]`, sorted means, indices int(0.025*5000) and int(0.975*5000)), and the
  crossover (the largest swept value whose rate exceeds 0.5, `analyze_sizesweep.crossover`);
* the recompute certificate's split (k_items = n, all_kept), the cascade's mean blast, reclaim
  rate, source-complete share and per-hop wrong shares, the completeness buckets;
* the invented-number audit of the released realworld arith file (`confab_audit.py`'s rule) and
  the failure modes of the released grok fix file with the probe keys (recovered, inherited =
  |answer - drift| < 0.5, abstained = no answer, novel = the rest).

    python3 make_boundaries_reference.py   # standard library only
"""
import json
import random
import re
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
EXTERNAL = HERE.parents[2] / ".." / "shared" / "fixtures" / "external" / "reclaim-eval"


def ci(xs, seed=0, b=5000):
    r = random.Random(seed)
    k = len(xs)
    means = sorted(sum(xs[r.randrange(k)] for _ in range(k)) / k for _ in range(b))
    return means[int(0.025 * b)], means[int(0.975 * b)]


g = random.Random(20261124)
size, noise, cascade, completeness = [], [], [], []
for budget, cap in [(300, 5), (600, 11)]:
    for n in [2, 4, 6, 8, 12, 16]:
        for store in range(8):
            for seed in range(3):
                for policy in ["source_first", "lossy_padded"]:
                    k = min(n, cap - g.randrange(0, 2)) if policy == "source_first" else 0
                    ok = policy == "source_first" and k == n and g.random() < 0.93
                    size.append({"store": store, "n": n, "budget": budget, "policy": policy, "seed": seed,
                                 "arm": "directed", "k_items": k, "locus_kept": k > 0, "model": "llama",
                                 "answer": 1.0 if ok else 0.0, "correct": ok})
for d in [0, 4, 8, 16]:
    for store in range(8):
        for seed in range(3):
            for policy in ["source_first_naive", "source_first_denoised"]:
                kept = policy == "source_first_denoised" or g.random() < max(0.0, 1 - d / 10)
                ok = kept and g.random() < 0.95
                noise.append({"store": store, "decoys": d, "n_relevant": 4, "budget": 420, "policy": policy,
                              "seed": seed, "arm": "directed", "rel_kept": 4 if kept else 3, "all_kept": kept,
                              "model": "llama", "answer": 1.0 if ok else 0.0, "correct": ok})
for h in [1, 2, 4]:
    for policy in ["lossy", "source_first"]:
        for planted in [True, False]:
            for store in range(12):
                per_hop = []
                for hop in range(h):
                    wrong = planted and (policy == "lossy" or g.random() < 0.2)
                    per_hop.append(not wrong)
                complete = policy == "source_first" and g.random() < 0.8
                cascade.append({"H": h, "policy": policy, "planted": planted, "store": store, "per_hop": per_hop,
                                "blast": sum(1 for x in per_hop if not x), "reclaim": complete and g.random() < 0.9,
                                "source_complete": complete, "mem_has_source_final": complete})
buckets = ["silent_missum", "other_wrong", "flagged_partial", "abstain", "correct"]
for (budget, n, k) in [(300, 6, 5), (600, 16, 15)]:
    for store in range(8):
        for seed in range(3):
            b = g.choices(buckets, weights=[6, 3, 1, 1, 1])[0]
            completeness.append({"budget": budget, "n": n, "k": k, "store": store, "seed": seed,
                                 "answer": 1.0, "bucket": b, "correct": b == "correct"})

for name, rows in [("sizesweep", size), ("noisysweep", noise), ("cascade", cascade), ("completeness", completeness)]:
    with open(HERE / f"{name}.jsonl", "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")


def sweep(rows, var):
    groups = defaultdict(lambda: defaultdict(list))
    for r in rows:
        fixed = tuple((c, r[c]) for c in ["n_relevant", "budget"] if c in r and c != var)
        groups[(r["policy"], fixed)][r[var]].append(1.0 if r["correct"] else 0.0)
    out = []
    for (policy, fixed), by_x in groups.items():
        pts = []
        for x in sorted(by_x):
            xs = by_x[x]
            lo, hi = ci(xs)
            pts.append({"x": x, "n": len(xs), "rr": sum(xs) / len(xs), "low": lo, "high": hi})
        over = [p["x"] for p in pts if p["rr"] > 0.5]
        out.append({"policy": policy, "fixed": " ".join(f"{c}={v}" for c, v in fixed), "points": pts,
                    "crossover": max(over) if over else None})
    return out


def certificate(rows, passes):
    groups = defaultdict(lambda: {True: [], False: []})
    for r in rows:
        groups[r["policy"]][passes(r)].append(1.0 if r["correct"] else 0.0)
    out = []
    for policy, sides in groups.items():
        row = {"policy": policy}
        for name, side in [("pass", True), ("flag", False)]:
            xs = sides[side]
            row[f"{name}_n"] = len(xs)
            row[f"{name}_rr"] = sum(xs) / len(xs) if xs else None
            row[f"{name}_low"], row[f"{name}_high"] = ci(xs) if xs else (None, None)
        out.append(row)
    return out


casc = defaultdict(list)
for r in cascade:
    casc[(r["policy"], r["H"], r["planted"])].append(r)
cascade_ref = []
for (policy, h, planted), rows in casc.items():
    blasts = [float(r["blast"]) for r in rows]
    rec = [1.0 if r["reclaim"] else 0.0 for r in rows]
    cascade_ref.append({
        "policy": policy, "hops": h, "planted": planted, "chains": len(rows),
        "blast": sum(blasts) / len(blasts), "blast_ci": ci(blasts), "rr": sum(rec) / len(rec), "rr_ci": ci(rec),
        "source_complete": sum(r["source_complete"] for r in rows) / len(rows),
        "hop_wrong": [sum(1 for r in rows if not r["per_hop"][i]) / len(rows) for i in range(h)],
    })

comp = defaultdict(lambda: defaultdict(int))
for r in completeness:
    comp[f"n={r['n']} budget={r['budget']}"][r["bucket"]] += 1


def nums(text):
    return {m.group() for m in re.finditer(r"\d+(?:\.\d+)?", text or "")}


real = [json.loads(l) for l in open(EXTERNAL / "realworld_meta-llama_llama-3.1-8b-instruct_arith_t0.7.jsonl")]
seen = {}
for r in real:
    if "src_nums" in r:
        seen.setdefault((r["seed"], r["pid"], r["variant"]), r)
by_var = defaultdict(list)
for (seed, pid, v), r in seen.items():
    by_var[v].append(len(nums(r["memory_text"]) - set(r["src_nums"])))
invented = {v: {"memories": len(c), "with_invented": sum(1 for x in c if x), "mean": sum(c) / len(c)} for v, c in by_var.items()}

keys = json.load(open(EXTERNAL / "probe_keys_base16.json"))
keyed = {k["pid"]: k for fam in ("arith", "logic") for k in keys[fam]}
fail = defaultdict(lambda: defaultdict(int))
for l in open(EXTERNAL / "fix_x-ai_grok-4.3-20260430_arith.jsonl"):
    r = json.loads(l)
    cell = (r["policy"], r["integrity"], r["arm"])
    a = r.get("answer")
    drift = keyed.get(r["pid"], {}).get("drift")
    if r["correct"]:
        mode = "recovered"
    elif a is None:
        mode = "abstained"
    elif drift is not None and abs(float(a) - float(str(drift).strip("$").replace(",", ""))) < 0.5:
        mode = "inherited"
    else:
        mode = "novel"
    fail[cell][mode] += 1
    fail[cell]["n"] += 1
failure = [{"policy": p, "integrity": g_, "arm": a, **dict(m)} for (p, g_, a), m in fail.items()]

json.dump({"size": sweep(size, "n"), "noise": sweep(noise, "decoys"),
           "size_certificate": certificate(size, lambda r: r["k_items"] == r["n"]),
           "noise_certificate": certificate(noise, lambda r: r["all_kept"]),
           "cascade": cascade_ref, "completeness": {k: dict(v) for k, v in comp.items()},
           "invented": invented, "failure": failure, "keyed_pids": len(keyed)},
          open(HERE / "reference.json", "w"), indent=1)
