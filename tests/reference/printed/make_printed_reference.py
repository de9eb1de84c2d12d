"""Reference for `memaudit verify --printed`: a printed-numbers file for the generated TIAP-shaped
records of `../alignment/records.csv`, and the verdict of each entry computed here, independently
of memaudit, from the NumPy values of `../alignment/shift_reference.json`.

Verdicts (docs/formats.md, "Printed numbers"): `matches` when f"{x:.{d}f}" (Python rounds the
exact binary value) equals the printed number of d decimals; `within_rounding` when off by at
most one unit of the last printed place; `differs` otherwise; `not_computed` when the row is not
there or several rows match; `other_analysis` for another analysis's entry. A percentage is
compared as 100 x.

    python3 make_printed_reference.py      (standard library only)
"""
import csv
import json

ref = json.load(open("../alignment/shift_reference.json"))


def find(rows, **keys):
    got = [r for r in rows if all(str(r[k]) == v for k, v in keys.items())]
    assert len(got) == 1, keys
    return got[0]


def printed_as(x, d, shift=0.0, sign=False, percent=False):
    y = 100 * x if percent else x
    text = f"{y + shift:.{d}f}"
    if sign and not text.startswith("-"):
        text = "+" + text
    return text + ("%" if percent else "")


def verdict(x, text):
    percent = text.endswith("%")
    t = text.rstrip("%").replace("\u2212", "-").lstrip("+")
    d = len(t.split(".")[1]) if "." in t else 0
    p = float(t)
    y = 100 * x if percent else x
    if float(f"{y:.{d}f}") == p:
        return "matches"
    if abs(y - p) <= 10 ** -d * (1 + 1e-9):
        return "within_rounding"
    return "differs"


entries = []


def entry(source, table, row, column, x, text, analysis="alignment", want=None):
    entries.append({"source": source, "analysis": analysis, "table": table,
                    "row": "; ".join(f"{k}={v}" for k, v in row.items()), "column": column, "printed": text,
                    "want": want or verdict(x, text)})


c = find(ref["target_contrasts"], run="lex", target_a="raw", target_b="canonical")
entry("Table 2", "target_contrasts", {"run": "lex", "target_a": "raw", "target_b": "canonical"}, "diff",
      c["diff"], printed_as(c["diff"], 3, sign=True))
entry("Table 2", "target_contrasts", {"run": "lex", "target_a": "raw", "target_b": "canonical"}, "mean_b",
      c["mean_b"], printed_as(c["mean_b"], 4).lstrip("0"))
# One unit off in the last place, and three units off.
entry("Table 2", "target_contrasts", {"run": "dense", "target_a": "source", "target_b": "canonical"}, "mean_a",
      find(ref["target_contrasts"], run="dense", target_a="source", target_b="canonical")["mean_a"],
      printed_as(find(ref["target_contrasts"], run="dense", target_a="source", target_b="canonical")["mean_a"], 3, shift=0.0009))
s = find(ref["shifts"], group="LoCoMo", run="pooled", target_a="raw", target_b="canonical")
entry("Table 15", "shifts", {"group": "LoCoMo", "run": "pooled", "target_a": "raw", "target_b": "canonical"}, "change_rate",
      s["change_rate"], printed_as(s["change_rate"], 1, percent=True))
entry("Table 15", "shifts", {"group": "LoCoMo", "run": "pooled", "target_a": "raw", "target_b": "canonical"}, "changed",
      s["changed"], f"{s['changed']:,}")
entry("Table 15", "shifts", {"group": "LME", "run": "pooled", "target_a": "raw", "target_b": "source"}, "mean_abs_shift",
      find(ref["shifts"], group="LME", run="pooled", target_a="raw", target_b="source")["mean_abs_shift"],
      printed_as(find(ref["shifts"], group="LME", run="pooled", target_a="raw", target_b="source")["mean_abs_shift"], 2, shift=0.03))
a = find(ref["aggregations"], group="LME", run="mx-l", method="geometric_mean")
entry("Table 8", "aggregations", {"run": "mx-l", "method": "geometric_mean"}, "mean", a["mean"], printed_as(a["mean"], 3).lstrip("0"))
# Not computed: no such run; two rows (the pair of targets not given); another analysis.
entry("Table 8", "aggregations", {"run": "no-such-run", "method": "raw"}, "mean", 0.0, "0.5", want="not_computed")
entry("Table 2", "target_contrasts", {"run": "lex", "target_a": "raw"}, "diff", 0.0, "0.1", want="not_computed")
entry("Table 3", "labels", {}, "kappa", 0.0, "0.8", analysis="labels", want="other_analysis")

with open("printed.csv", "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["source", "analysis", "table", "row", "column", "printed"])
    for e in entries:
        w.writerow([e[k] for k in ["source", "analysis", "table", "row", "column", "printed"]])
with open("expected.json", "w") as f:
    json.dump([{"line": i + 2, "verdict": e["want"]} for i, e in enumerate(entries)], f, indent=1)
    f.write("\n")
