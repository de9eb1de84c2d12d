"""Time pytrec_eval on the Raw target of the benchmark run (written by `cargo bench --bench rescore`).

Usage: python3 benches/pytrec_eval_time.py target/bench-trec [--once]
Reports load (parse TREC files into dicts) and evaluate times separately, and the mean
ndcg_cut_60 per system so the numbers can be checked against memaudit's Raw means. With
`--once` it loads and evaluates once (for a whole-process timing with `/usr/bin/time`, beside
`memaudit rescore`'s).
"""
import statistics
import sys
import time

import pytrec_eval


def load(dirname):
    qrels, run = {}, {}
    with open(f"{dirname}/raw.qrels") as f:
        for line in f:
            q, _, d, rel = line.split()
            qrels.setdefault(q, {})[d] = int(rel)
    with open(f"{dirname}/all.run") as f:
        for line in f:
            q, _, d, _, score, tag = line.split()
            run.setdefault(tag, {}).setdefault(q, {})[d] = float(score)
    return qrels, run


def main():
    d = sys.argv[1]
    reps = 1 if "--once" in sys.argv[2:] else 3
    loads, evals = [], []
    for _ in range(reps):
        t = time.perf_counter()
        qrels, runs = load(d)
        loads.append(time.perf_counter() - t)
        t = time.perf_counter()
        ev = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.60", "recall.60", "recip_rank", "success.1"})
        res = {tag: ev.evaluate(run) for tag, run in runs.items()}
        evals.append(time.perf_counter() - t)
    rows = sum(len(v) for r in runs.values() for v in r.values())
    print(f"pytrec_eval {pytrec_eval.__version__ if hasattr(pytrec_eval, '__version__') else ''}: {rows} ranked rows")
    print(f"load TREC files   {statistics.median(loads) * 1e3:8.1f} ms")
    print(f"evaluate (Raw)    {statistics.median(evals) * 1e3:8.1f} ms")
    for tag, r in res.items():
        print(tag, f"{statistics.mean(v['ndcg_cut_60'] for v in r.values()):.6f}")


if __name__ == "__main__":
    main()
