"""Writes the large valid inputs behind the probe and answers timings in BENCHMARKS.md
("Large notes and many gold variants"): python3 benches/large_inputs.py DIR

- bignote.jsonl: one note of 10 MB against a 20,000-item source (line items);
- manynotes.jsonl: 20,000 short notes (10.5 MB);
- answers.jsonl: 200,000 answer rows (24 MB);
- answers_gold.jsonl: 2,000 rows, each with 500 gold variants and a 2,000-word prediction.
Deterministic; nothing here is real data.
"""
import json
import os
import sys

out = sys.argv[1] if len(sys.argv) > 1 else "target/large-inputs"
os.makedirs(out, exist_ok=True)
src = "; ".join(f"item{i} at ${i % 50} each ({i % 9 + 1} bought)" for i in range(20000))
note = ("You kept: " + src + " ") * 20
with open(os.path.join(out, "bignote.jsonl"), "w") as f:
    f.write(json.dumps({"note_id": "n1", "note": note[:10_000_000], "source": src, "stale": "$55"}) + "\n")
with open(os.path.join(out, "manynotes.jsonl"), "w") as f:
    for i in range(20000):
        f.write(json.dumps({"note_id": f"n{i}", "note": "Maria: 7 notebooks at $4, 9 pens at $2. " * 10,
                            "source": "notebooks at $4 each (7 bought) and pens at $2 each (9 bought)", "stale": "$55"}) + "\n")
with open(os.path.join(out, "answers.jsonl"), "w") as f:
    for i in range(200000):
        f.write(json.dumps({"query_id": f"q{i}", "gold": f"answer number {i} is here",
                            "prediction": f"the answer number {i} is here probably"}) + "\n")
with open(os.path.join(out, "answers_gold.jsonl"), "w") as f:
    for i in range(2000):
        f.write(json.dumps({"query_id": f"q{i}", "gold": [f"variant {j} of {i}" for j in range(500)],
                            "prediction": "x " * 2000}) + "\n")
