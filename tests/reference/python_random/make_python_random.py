#!/usr/bin/env python3
"""Reference values for memaudit's Python-compatible resampler (`memaudit::reclaim::pyrandom`).

Writes `python_random.json` next to this script. Run with CPython 3.11 (the version the
reclaim-eval numbers were checked with; `random.Random` seeding, `getrandbits`, `random()` and
`randrange` via `_randbelow_with_getrandbits` have been stable since 3.2):

    python3.11 tests/reference/python_random/make_python_random.py

It uses only the standard library. Floats are written as `repr()` strings: serde_json's default
float parser is not always correctly rounded (off by one unit in the last place for some
inputs), while Rust's `str::parse::<f64>` is, so the Rust test parses the strings. It reads the reclaim-eval fixtures in
`../shared/fixtures/external/reclaim-eval/` (next to the repository; override with
MEMAUDIT_SHARED) to compute the paper-style bootstrap intervals that `tests/reclaim.rs`
compares with float equality. The bootstrap below is the reclaim-eval recipe (seed-003-004
notes § A1.6, § C1): a fresh `random.Random(seed)` per cell, 5,000 resamples, each the mean of
k draws `xs[r.randrange(k)]` over the file-order list, sorted, CI = means[int(0.025*B)],
means[int(0.975*B)].
"""

import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.environ.get("MEMAUDIT_SHARED") or os.path.join(HERE, "..", "..", "..", "..", "shared")
RE = os.path.join(SHARED, "fixtures", "external", "reclaim-eval")


def boot(xs, iters=5000, seed=0):
    r = random.Random(seed)
    k = len(xs)
    means = sorted(sum(xs[r.randrange(k)] for _ in range(k)) / k for _ in range(iters))
    return sum(xs) / k, means[int(0.025 * iters)], means[int(0.975 * iters)]


def rows(name):
    with open(os.path.join(RE, name)) as f:
        return [json.loads(line) for line in f if line.strip()]


def streams():
    out = []
    for seed in [0, 1, 42, 1337, 2**32 + 5, 2**70 + 3, -7]:
        r = random.Random(seed)
        bits32 = [r.getrandbits(32) for _ in range(5)]
        r = random.Random(seed)
        floats = [repr(r.random()) for _ in range(5)]
        ranges = {}
        for n in [1, 2, 3, 7, 24, 96, 100, 1000, 2**31 + 1, 2**32, 2**40 + 17]:
            r = random.Random(seed)  # a fresh stream per n
            ranges[str(n)] = [r.randrange(n) for _ in range(8)]
        bits = {}
        for k in [1, 5, 31, 33, 64]:
            r = random.Random(seed)
            bits[str(k)] = [r.getrandbits(k) for _ in range(4)]
        out.append({"seed": str(seed), "getrandbits32": bits32, "random": floats, "randrange": ranges, "getrandbits": bits})
    return out


def cells():
    out = []
    # Table 8 (deployed-system wall), llama arith, directed, n = 96 per variant, file order.
    rw = rows("realworld_meta-llama_llama-3.1-8b-instruct_arith_t0.7.jsonl")
    for variant in ["source_first@0.1", "source_first_auto", "langchain_summary", "mem0", "vector_rag", "lossy@0.1"]:
        xs = [1 if r["correct"] else 0 for r in rw if r["arm"] == "directed" and r["variant"] == variant]
        m, lo, hi = boot(xs)
        out.append({"file": "realworld_meta-llama_llama-3.1-8b-instruct_arith_t0.7.jsonl", "filter": {"arm": "directed", "variant": variant}, "n": len(xs), "mean": repr(m), "low": repr(lo), "high": repr(hi)})
    # Table 5 grok cells, directed, n = 24.
    fx = rows("fix_x-ai_grok-4.3-20260430_arith.jsonl")
    for g in [1.0, 0.6, 0.3, 0.1]:
        for pol in ["lossy", "lossy_padded", "source_first"]:
            xs = [1 if r["correct"] else 0 for r in fx if r["arm"] == "directed" and r["integrity"] == g and r["policy"] == pol]
            m, lo, hi = boot(xs)
            out.append({"file": "fix_x-ai_grok-4.3-20260430_arith.jsonl", "filter": {"arm": "directed", "integrity": g, "policy": pol}, "n": len(xs), "mean": repr(m), "low": repr(lo), "high": repr(hi)})
    # "keep both" (source_plus_conclusion) and its neighbours, llama, no arm field.
    sc = rows("srcconcl_llama_arith.jsonl")
    for pol in ["lossy", "source_first", "source_plus_conclusion"]:
        xs = [1 if r["correct"] else 0 for r in sc if r["policy"] == pol]
        m, lo, hi = boot(xs)
        out.append({"file": "srcconcl_llama_arith.jsonl", "filter": {"policy": pol}, "n": len(xs), "mean": repr(m), "low": repr(lo), "high": repr(hi)})
    return out


def paired():
    # auto - summary, paired by sorted (seed, pid) keys (reclaim-eval auto_vs_summary_ci.py).
    rw = rows("realworld_meta-llama_llama-3.1-8b-instruct_arith_t0.7.jsonl")
    out = []
    for a, b in [("source_first_auto", "langchain_summary"), ("source_first_auto", "mem0")]:
        da = {(r["seed"], r["pid"]): int(bool(r["correct"])) for r in rw if r["arm"] == "directed" and r["variant"] == a}
        db = {(r["seed"], r["pid"]): int(bool(r["correct"])) for r in rw if r["arm"] == "directed" and r["variant"] == b}
        keys = sorted(set(da) & set(db))
        d = [da[k] - db[k] for k in keys]
        m, lo, hi = boot(d)
        out.append({"file": "realworld_meta-llama_llama-3.1-8b-instruct_arith_t0.7.jsonl", "arm": "directed", "a": a, "b": b, "n": len(d), "mean": repr(m), "low": repr(lo), "high": repr(hi)})
    return out


LOWER_CASES = ["NOTEBOOKS AT $4 EA", "ΟΔΟΣ ÉTÉ", "ΑΣ. Σ ΣΑ", "İstanbul", "Straße ẞ", "ǅemal", "Ωmega Å K", "ＡＢＣ"]


def main():
    doc = {
        "lower": [{"text": t, "lower": t.lower()} for t in LOWER_CASES],
        "python": sys.version.split()[0],
        "recipe": "fresh random.Random(seed) per cell; B=5000; mean of k draws xs[r.randrange(k)]; sorted; means[int(0.025*B)], means[int(0.975*B)]",
        "streams": streams(),
        "cells": cells(),
        "paired": paired(),
    }
    with open(os.path.join(HERE, "python_random.json"), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
