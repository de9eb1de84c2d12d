#!/usr/bin/env python3
"""Routing rows of a gated memory that name the bank entries each routed item retrieved, with
NumPy reference values of TAG's bank governance (seed-003 §3.4, App. E) for tests/calibration.rs.

Run with Python 3.11 and numpy 2.1:  python3 tests/reference/calibration/governance.py

Writes governance.csv (item, split, confidence, correct, with_memory, retrieved_ids as a `;` list;
splits fit, dev, test; some rows name an entry twice, some name none, some lack the outcome
with memory) and governance_reference.json: for evidence from the fit and dev splits, per entry
the observations X = with_memory - correct (an entry named twice in a row counted once), n,
helps, hurts, the mean, the published radius sqrt(log(2/delta)/(2n)), the textbook radius
sqrt(2 log(2/delta)/n) and retirement (mean + radius < 0) under both, at delta = 0.05 and 0.2.
"""
import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ENTRIES = [f"E{i}" for i in range(1, 13)]


def main():
    rng = np.random.default_rng(3)
    # entry quality: a few entries hurt more than they help
    quality = {e: q for e, q in zip(ENTRIES, rng.uniform(-0.45, 0.35, len(ENTRIES)))}
    quality.update({"E1": -0.95, "E2": -0.6, "E3": -0.4})
    rows = []
    for i in range(420):
        split = ["fit", "dev", "test"][i % 3]
        conf = round(float(rng.uniform(0.2, 1.0)), 4)
        correct = int(rng.random() < conf)
        k = int(rng.integers(0, 4))
        named = list(rng.choice(ENTRIES, size=k, replace=True))
        if named and rng.random() < 0.08:
            with_memory = ""
        elif named:
            if correct:
                with_memory = int(rng.random() > max(0.0, -min(quality[e] for e in named)))
            else:
                with_memory = int(rng.random() < max(0.0, max(quality[e] for e in named)) + 0.05)
        else:
            with_memory = correct
        rows.append((f"q{i:03d}", split, conf, correct, with_memory, ";".join(named)))
    with open(os.path.join(HERE, "governance.csv"), "w") as f:
        f.write("item,split,confidence,correct,with_memory,retrieved_ids\n")
        for r in rows:
            f.write(",".join(str(x) for x in r) + "\n")

    obs = {}
    for item, split, conf, correct, with_memory, named in rows:
        if split not in ("fit", "dev") or not named or with_memory == "":
            continue
        x = int(with_memory) - int(correct)
        for e in dict.fromkeys(named.split(";")):
            obs.setdefault(e, []).append(x)
    out = {"splits": ["fit", "dev"], "deltas": {}}
    for delta in (0.05, 0.2):
        entries = {}
        for e, xs in obs.items():
            xs = np.array(xs, dtype=float)
            n = len(xs)
            mean = float(xs.mean())
            pub = float(np.sqrt(np.log(2 / delta) / (2 * n)))
            text = float(np.sqrt(2 * np.log(2 / delta) / n))
            entries[e] = {
                "n": n, "helps": int((xs == 1).sum()), "hurts": int((xs == -1).sum()), "mean": mean,
                "radius_published": pub, "radius_textbook": text,
                "retired_published": mean + pub < 0, "retired_textbook": mean + text < 0,
            }
        out["deltas"][str(delta)] = entries
    with open(os.path.join(HERE, "governance_reference.json"), "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
