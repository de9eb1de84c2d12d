#!/usr/bin/env python3
"""Writes the cells fixtures (rows in the shape of reclaim-eval's results, values made up here):

* sweep_retired.jsonl: 2 policies x 3 prompts x 3 seeds. Policy `summary` holds 8 current problems
  p0..p7; policy `source_first` also holds 3 retired ones r0..r2 (as reclaim-eval's claude files
  hold gen_l12..gen_l23 for some policies only). `prompt` is crossed with every problem: a design
  column the cells must split by, never pool unasked.

Outcomes are a fixed function of (policy, problem, prompt, seed), so the file is deterministic.
Run from this folder: python3 make_cells_fixtures.py
"""
import json

rows = []
for policy in ["summary", "source_first"]:
    problems = [f"p{i}" for i in range(8)] + ([f"r{i}" for i in range(3)] if policy == "source_first" else [])
    for pid in problems:
        for k, prompt in enumerate(["v0", "v1", "v2"]):
            for seed in range(3):
                h = (sum(map(ord, policy + pid)) * 7 + k * 13 + seed * 5) % 10
                good = h < (7 if policy == "source_first" else 4) - (3 if pid.startswith("r") else 0) - k
                rows.append({"pid": pid, "seed": seed, "policy": policy, "prompt": prompt,
                             "answer": 46.0 if good else 55.0, "correct": good})
with open("sweep_retired.jsonl", "w") as f:
    for r in rows:
        f.write(json.dumps(r) + "\n")
print(len(rows), "rows")
