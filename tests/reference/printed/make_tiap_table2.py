"""TIAP's Table 2 (001_0e77a4c1eae841d2.txt, §5.1: fixed-subset rescoring on canonical-covered
shared subsets) as a printed-numbers file for `memaudit verify`, transcribed from the paper's
text. Each run is named as in the authors' `query_target_alignment.records.csv` (MTEL-Mem,
`artifacts/paper_summaries/`); check it with

    memaudit verify --printed tiap_table2.csv alignment --input query_target_alignment.records.csv \\
      --filter parser_max_facts=5 --group dataset --metric ndcg --bootstrap 3000

    python3 make_tiap_table2.py      (standard library only)
"""
import csv

# dataset, provider, run_id, n, Raw, Source, Canonical, Canonical-Raw [lo, hi], Canonical-Source [lo, hi]
TABLE_2 = [
    ("LoCoMo", "Lexical", "20260313T023254Z_lexical_full", "899", "0.1876", "0.3809", "0.3556", ("+0.168", "0.147", "0.189"), ("-0.025", "-0.036", "-0.015")),
    ("LoCoMo", "all MiniLM", "20260313T053200Z_ollama_full_warm", "899", "0.2118", "0.4198", "0.3875", ("+0.176", "0.154", "0.198"), ("-0.032", "-0.043", "-0.022")),
    ("LoCoMo", "BGE M3", "20260314T044224Z_locomo_ollama_bge_m3_full", "963", "0.2548", "0.4109", "0.3231", ("+0.068", "0.045", "0.091"), ("-0.088", "-0.101", "-0.075")),
    ("LoCoMo", "mxbai-embed-large", "20260314T052424Z_locomo_ollama_mxbai_full", "899", "0.2120", "0.4195", "0.3870", ("+0.175", "0.152", "0.198"), ("-0.033", "-0.043", "-0.022")),
    ("LongMemEval-S", "Lexical", "20260313T172942Z_longmemeval_s_lexical_full", "332", "0.1877", "0.4041", "0.4558", ("+0.268", "0.236", "0.303"), ("+0.052", "0.038", "0.066")),
    ("LongMemEval-S", "all MiniLM", "20260313T185031Z_longmemeval_s_ollama_full_guarded_w8_np16", "332", "0.2001", "0.4561", "0.5309", ("+0.331", "0.299", "0.364"), ("+0.075", "0.061", "0.089")),
    ("LongMemEval-S", "BGE M3", "20260314T013728Z_longmemeval_s_ollama_bge_m3_full", "299", "0.1969", "0.4576", "0.5326", ("+0.336", "0.302", "0.371"), ("+0.075", "0.061", "0.090")),
    ("LongMemEval-S", "mxbai-embed-large", "20260314T201109Z_longmemeval_s_ollama_mxbai_full", "332", "0.1815", "0.5032", "0.6015", ("+0.420", "0.382", "0.457"), ("+0.098", "0.083", "0.113")),
]

with open("tiap_table2.csv", "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["source", "analysis", "table", "row", "column", "printed"])
    for ds, provider, run, n, raw, src, can, cr, cs in TABLE_2:
        source = f"Table 2 {ds} {provider}"
        rc = f"run={run}; target_a=raw; target_b=canonical"
        sc = f"run={run}; target_a=source; target_b=canonical"
        rows = [(rc, "n", n), (rc, "mean_a", raw), (sc, "mean_a", src), (rc, "mean_b", can),
                (rc, "diff", cr[0]), (rc, "low", cr[1]), (rc, "high", cr[2]),
                (sc, "diff", cs[0]), (sc, "low", cs[1]), (sc, "high", cs[2])]
        for row, column, printed in rows:
            w.writerow([source, "alignment", "target_contrasts", row, column, printed])
