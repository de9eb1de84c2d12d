"""Reference for the conventions `memaudit verify --printed` names for a printed number that does
not match the data (the `convention` column): each case is a small report table, the row and
column a printed number names, the printed text, and the conventions under which the table's
values give the printed text exactly, decided here independently of memaudit:

- `percent`: 100 x rounded as printed (a percentage printed without its sign);
- `truncated`: x cut (not rounded) after the printed decimals;
- `complement`: 1 - x; `sign`: -x;
- `ddof1` / `ddof0`: a standard error (or SD) computed with the other variance convention, from
  the sample itself with NumPy (np.std(ddof=1) against np.std(ddof=0));
- `column:NAME`: another column of the same row; `row:KEY=VALUE`: the same column of the row that
  differs from the printed one in that key only.

A number within one unit of its last printed digit is only tried as cut. "Gives the printed
text" is Python's rounding: f"{y:.{d}f}" == the printed text.

    /tmp/refenv/bin/python make_convention_reference.py      (NumPy)
"""
import json
import math

import numpy as np


def fmt(y, d):
    return f"{y:.{d}f}"


def decimals(text):
    t = text.rstrip("%").lstrip("+-")
    return len(t.split(".")[1]) if "." in t else 0


def conventions(headers, rows, at, column, keys, text):
    """The conventions under which the table gives `text`, by the definitions above."""
    d = decimals(text)
    p = float(text.rstrip("%"))
    row = rows[at]
    x = float(row[headers.index(column)])
    gives = lambda y: math.isfinite(y) and float(fmt(y, d)) == p
    out = []
    if gives(100 * x):
        out.append("percent")
    cut = math.trunc(x * 10**d + 1e-9 * math.copysign(1, x)) / 10**d
    if abs(cut - p) < 1e-9 * max(abs(p), 1):
        out.append("truncated")
    if abs(x - p) <= 10**-d * (1 + 1e-9):
        # One unit off in the last digit: only the cut is a convention (another cell three
        # digits alike is as likely a coincidence).
        return out
    if gives(1 - x):
        out.append("complement")
    if x != 0 and gives(-x):
        out.append("sign")
    if "n" in headers:
        n = float(row[headers.index("n")])
        if column in ("se", "sd"):
            if gives(x * math.sqrt(n / (n - 1))):
                out.append("ddof1")
            elif gives(x * math.sqrt((n - 1) / n)):
                out.append("ddof0")
    for c, cell in enumerate(row):
        name = headers[c]
        if name != column and name not in keys:
            try:
                if gives(float(cell)):
                    out.append(f"column:{name}")
            except ValueError:
                pass
    key_cols = [headers.index(k) for k in keys]
    for r, other in enumerate(rows):
        differing = [k for k in key_cols if other[k] != row[k]]
        if r != at and len(differing) == 1 and gives(float(other[headers.index(column)])):
            out.append(f"row:{headers[differing[0]]}={other[differing[0]]}")
    return out


cases = []


def case(name, headers, rows, at, column, keys, text):
    rows = [[c if isinstance(c, str) else repr(float(c)) for c in r] for r in rows]
    cases.append({"name": name, "headers": headers, "rows": rows, "at": at, "column": column, "keys": keys,
                  "printed": text, "conventions": conventions(headers, rows, at, column, keys, text)})


H = ["run", "mean_a", "mean_b", "diff"]
runs = [["a", 0.41237, 0.52011, 0.10774], ["b", 0.39004, 0.45518, 0.06514], ["c", 0.30112, 0.28791, -0.01321]]
case("a percentage printed without its sign", H, runs, 0, "mean_a", ["run"], "41.2")
case("cut, not rounded", H, runs, 2, "mean_b", ["run"], "0.287")
case("the complement", H, runs, 0, "mean_b", ["run"], "0.480")
case("the other difference", H, runs, 2, "diff", ["run"], "0.013")
case("the other column of the row", H, runs, 1, "mean_a", ["run"], "0.455")
case("the run next to it", H, runs, 0, "diff", ["run"], "0.065")
case("nothing gives it", H, runs, 0, "mean_a", ["run"], "0.333")

rng = np.random.default_rng(20261130)
sample = rng.normal(0.5, 0.2, size=12)
n = len(sample)
se0 = float(np.std(sample, ddof=0) / math.sqrt(n))
se1 = float(np.std(sample, ddof=1) / math.sqrt(n))
assert fmt(se0, 4) != fmt(se1, 4)
case("a standard error with ddof = 1, recomputed with ddof = 0", ["arm", "n", "mean", "se"],
     [["brief", n, float(np.mean(sample)), se0]], 0, "se", ["arm"], fmt(se1, 4))
sd0 = float(np.std(sample, ddof=0))
sd1 = float(np.std(sample, ddof=1))
assert fmt(sd0, 3) != fmt(sd1, 3)
case("an SD with ddof = 0, recomputed with ddof = 1", ["arm", "n", "mean", "sd"],
     [["brief", n, float(np.mean(sample)), sd1]], 0, "sd", ["arm"], fmt(sd0, 3))

with open("conventions.json", "w") as f:
    json.dump(cases, f, indent=1, ensure_ascii=False)
    f.write("\n")
for c in cases:
    print(c["name"], c["printed"], c["conventions"])
