"""The peers of `cargo bench --bench trec_eval`, on the same files: load the TREC qrels and run
and evaluate `map P.10 recip_rank ndcg_cut.1000 recall.1000`, printing the means as trec_eval
does (`measure all value`).

Usage: python3 benches/trec_eval_peers.py pytrec_eval|ranx QRELS RUN
"""
import sys


def load(qrels_path, run_path):
    qrels, run = {}, {}
    with open(qrels_path) as f:
        for line in f:
            q, _, d, rel = line.split()
            qrels.setdefault(q, {})[d] = int(rel)
    with open(run_path) as f:
        for line in f:
            q, _, d, _, score, _ = line.split()
            run.setdefault(q, {})[d] = float(score)
    return qrels, run


def main():
    tool, qrels_path, run_path = sys.argv[1:4]
    if tool == "pytrec_eval":
        import pytrec_eval

        qrels, run = load(qrels_path, run_path)
        names = {"map", "P.10", "recip_rank", "ndcg_cut.1000", "recall.1000"}
        res = pytrec_eval.RelevanceEvaluator(qrels, names).evaluate(run)
        for m in ["map", "recip_rank", "P_10", "recall_1000", "ndcg_cut_1000"]:
            vals = [v[m] for v in res.values()]
            print(f"{m:<22}\tall\t{sum(vals) / len(vals):.4f}")
    elif tool == "ranx":
        from ranx import Qrels, Run, evaluate

        qrels = Qrels.from_file(qrels_path, kind="trec")
        run = Run.from_file(run_path, kind="trec")
        res = evaluate(qrels, run, ["map", "precision@10", "mrr", "ndcg@1000", "recall@1000"])
        print(" ".join(f"{k}={v:.4f}" for k, v in res.items()))
    else:
        sys.exit(f"unknown tool {tool}")


if __name__ == "__main__":
    main()
