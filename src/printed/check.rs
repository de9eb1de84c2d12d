//! Each printed number against the recomputed report (the verdicts: [`super`]).

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::number::PrintedValue;
use super::read::Printed;
use crate::capability::{Analysis, Capability};
use crate::choice::Choice;
use crate::report::Table;

crate::choice! {
    /// How a printed number compares with the data.
    pub enum Verdict {
        /// The recomputed value rounded as printed is the printed value.
        Matches,
        /// Off by at most one unit in the last printed place.
        WithinRounding,
        /// Off by more.
        Differs,
        /// The report has no such value (the note says why).
        NotComputed,
        /// It names another analysis than the one run.
        OtherAnalysis,
    }
}

/// One printed number, checked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CheckRow {
    pub line: usize,
    pub source: String,
    pub analysis: String,
    pub table: String,
    /// The row's keys as written (`run=lex; target_b=canonical`).
    pub row: String,
    pub column: String,
    pub printed: String,
    /// The report's cell, as the table holds it (full precision).
    pub recomputed: Option<f64>,
    pub verdict: Verdict,
    /// recomputed − printed, on the printed scale (×100 for a percentage).
    pub difference: Option<f64>,
    pub note: String,
    /// For a number that does not match: the other conventions under which the data gives the
    /// printed value exactly ([`conventions`]), `; `-separated; empty when none does.
    #[serde(default)]
    pub convention: String,
}

impl CheckRow {
    /// An entry's row before it is checked: not computed, without a note.
    pub fn unchecked(p: &Printed) -> CheckRow {
        CheckRow {
            line: p.line,
            source: p.source.clone(),
            analysis: p.analysis.map(|a| a.name().to_string()).unwrap_or_default(),
            table: p.table.clone(),
            row: p.row.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("; "),
            column: p.column.clone(),
            printed: p.printed.clone(),
            recomputed: None,
            verdict: Verdict::NotComputed,
            difference: None,
            note: String::new(),
            convention: String::new(),
        }
    }
}

/// The check of a printed file against one analysis's report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PrintedCheck {
    pub analysis: Analysis,
    pub rows: Vec<CheckRow>,
    /// The printed numbers checked against each other ([`super::lint::lint_printed`]): where
    /// the paper's own numbers cannot all be right, whatever the data.
    #[serde(default)]
    pub findings: Vec<super::lint::Finding>,
}

impl PrintedCheck {
    /// How many rows have `v`.
    pub fn count(&self, v: Verdict) -> usize {
        self.rows.iter().filter(|r| r.verdict == v).count()
    }
}

/// Decimals a value is rounded to at most when it is compared.
const MAX_DECIMALS: usize = 40;

/// The verdict of a recomputed value `x` (on the report's scale) against a printed one, and the
/// difference on the printed scale.
pub fn judge(x: f64, p: PrintedValue) -> (Verdict, f64) {
    let y = if p.percent { x * 100.0 } else { x };
    // More decimals than an f64 holds add nothing (and past 65,535 `format!` cannot write them).
    let d = (p.decimals as usize).min(MAX_DECIMALS);
    let rounded: f64 = format!("{y:.d$}").parse().unwrap_or(f64::NAN);
    let difference = y - p.value;
    let unit = 10f64.powi(-(p.decimals as i32));
    let verdict = if rounded == p.value {
        Verdict::Matches
    } else if difference.abs() <= unit * (1.0 + 1e-9) {
        Verdict::WithinRounding
    } else {
        Verdict::Differs
    };
    (verdict, difference)
}

/// A key cell as compared: a number by its value (`5` is `5.0`), any other text as it is.
fn key_of(cell: &str) -> String {
    match cell.parse::<f64>() {
        Ok(x) if x.is_finite() => format!("n:{x}"),
        _ => format!("t:{cell}"),
    }
}

/// Where an entry's number stands in its report table: the cell's value, its row, its column
/// and the entry's key columns.
#[derive(Debug, Clone, PartialEq)]
struct Found {
    x: f64,
    row: usize,
    column: usize,
    keys: Vec<usize>,
}

/// A report table with its rows indexed by each set of key columns entries use (built once per
/// set), so that an entry is one look-up, not a scan of the table.
struct Indexed {
    table: Table,
    by: HashMap<Vec<usize>, HashMap<Vec<String>, Vec<usize>>>,
}

impl Indexed {
    fn new(table: Table) -> Indexed {
        Indexed { table, by: HashMap::new() }
    }

    /// Where `p` stands in the table, or why it is not there.
    fn look_up(&mut self, p: &Printed) -> Result<Found, String> {
        let table = &self.table;
        let index = |c: &str| table.headers.iter().position(|h| h == c);
        let no_column = |c: &str| {
            format!("the table `{}` has no column `{c}` (its columns: {})", table.name, table.headers.join(", "))
        };
        let column = index(&p.column).ok_or_else(|| no_column(&p.column))?;
        let keys: Vec<(usize, &str)> = p
            .row
            .iter()
            .map(|(k, v)| index(k).map(|i| (i, v.as_str())).ok_or_else(|| no_column(k)))
            .collect::<Result<_, _>>()?;
        let columns: Vec<usize> = keys.iter().map(|&(i, _)| i).collect();
        let rows = self.by.entry(columns.clone()).or_insert_with(|| {
            let mut m: HashMap<Vec<String>, Vec<usize>> = HashMap::new();
            for (r, row) in table.rows.iter().enumerate() {
                m.entry(columns.iter().map(|&i| key_of(&row[i])).collect()).or_default().push(r);
            }
            m
        });
        let wanted: Vec<String> = keys.iter().map(|&(_, v)| key_of(v)).collect();
        let at: &[usize] = rows.get(&wanted).map_or(&[], Vec::as_slice);
        let found: Vec<&Vec<String>> = at.iter().map(|&r| &table.rows[r]).collect();
        let row = match found.as_slice() {
            [one] => *one,
            [] => {
                let shown = keys.first().map(|&(i, _)| {
                    let mut seen: Vec<&str> = Vec::new();
                    for r in &table.rows {
                        if !seen.contains(&r[i].as_str()) {
                            seen.push(&r[i]);
                            if seen.len() == 8 {
                                break;
                            }
                        }
                    }
                    format!(" (its `{}`: {})", table.headers[i], seen.join(", "))
                });
                return Err(format!("no row of `{}` has these keys{}", table.name, shown.unwrap_or_default()));
            }
            many => {
                // A column whose values tell the rows apart, to name in the row's keys.
                let apart = (0..table.headers.len())
                    .find(|&c| !keys.iter().any(|&(i, _)| i == c) && many.iter().any(|r| r[c] != many[0][c]));
                return Err(format!(
                    "{} rows of `{}` have these keys{}",
                    many.len(),
                    table.name,
                    apart.map(|c| format!(": add `{}=…` to the row", table.headers[c])).unwrap_or_default()
                ));
            }
        };
        let cell = &row[column];
        if cell.is_empty() {
            return Err(format!("the cell `{}` of that row is empty", p.column));
        }
        let x = cell
            .parse::<f64>()
            .map_err(|_| format!("the cell `{}` of that row is `{cell}`, not a number", p.column))?;
        Ok(Found { x, row: at[0], column, keys: columns })
    }
}

/// At most this many table cells are read in all, looking for the rows next to a printed
/// number's row that give it ([`conventions`]): past it the rest are not looked for.
pub const MAX_NEIGHBOUR_CELLS: usize = 20_000_000;

/// The conventions under which the data gives a printed number exactly (its rounding
/// matches) where the report's own value does not, each in words: the value printed as a
/// percentage without its sign (×100) or the reverse, truncated instead of rounded, its
/// complement (1 − x), its sign reversed, with the other variance convention (ddof = 1 or 0, for
/// a row that states its `n`: ×√(n/(n−1)) for a standard error or interval half-width, ×n/(n−1)
/// for a variance), another column of the same row, or the same column of a row that differs
/// in one key. Within rounding, only the cut is looked for (a value one unit off is truncated,
/// or rounded twice). At most [`MAX_CONVENTIONS`] are named. `budget` counts the cells read for
/// the neighbouring rows.
fn conventions(t: &Table, found: &Found, p: &Printed, verdict: Verdict, budget: &mut usize) -> Vec<String> {
    let v = p.value;
    let matches = |y: f64| y.is_finite() && judge(y, v).0 == Verdict::Matches;
    let Found { x, row: at, column, ref keys } = *found;
    let mut out: Vec<String> = Vec::new();
    let scale = if v.percent { 1.0 } else { 100.0 };
    let y = if v.percent { x * 100.0 } else { x };
    if v.percent && matches(x / 100.0) {
        out.push("the value is already a percentage (not ×100)".into());
    } else if !v.percent && matches(x * scale) {
        out.push("as a percentage without its sign (×100)".into());
    } else if !v.percent && matches(x / 100.0) {
        out.push("as a fraction of the printed percentage (÷100)".into());
    }
    // Cut after the printed decimals (a hair is added so that 0.287, stored as 0.28699…, stays
    // 0.287).
    let places = 10f64.powi(v.decimals as i32);
    let truncated = (y * places + 1e-9 * y.signum()).trunc() / places;
    if (truncated - v.value).abs() < 1e-9 * v.value.abs().max(1.0) {
        out.push("truncated, not rounded".into());
    }
    // Within one unit of the last digit, only the cut is a convention: another row or column
    // three digits alike is as likely a coincidence.
    if verdict == Verdict::WithinRounding {
        return out;
    }
    if matches(1.0 - x) {
        out.push(format!("its complement, 1 \u{2212} {}", t.headers[column]));
    }
    if x != 0.0 && matches(-x) {
        out.push("its sign reversed (the other difference, A \u{2212} B for B \u{2212} A)".into());
    }
    let n =
        t.headers.iter().position(|h| h == "n").and_then(|i| t.rows[at][i].parse::<f64>().ok()).filter(|n| *n > 1.0);
    if let Some(n) = n {
        let name = t.headers[column].to_ascii_lowercase();
        let words: Vec<&str> = name.split(['_', ' ', '-']).collect();
        let spread = ["se", "sd", "std", "stderr", "sem", "half", "halfwidth", "width", "margin"];
        if words.iter().any(|w| spread.contains(w)) {
            if matches(x * (n / (n - 1.0)).sqrt()) {
                out.push("with the sample variance (ddof = 1, ×√(n/(n−1)))".into());
            } else if matches(x * ((n - 1.0) / n).sqrt()) {
                out.push("with the population variance (ddof = 0, ×√((n−1)/n))".into());
            }
        } else if words.iter().any(|w| w.starts_with("var")) {
            if matches(x * n / (n - 1.0)) {
                out.push("with the sample variance (ddof = 1, ×n/(n−1))".into());
            } else if matches(x * (n - 1.0) / n) {
                out.push("with the population variance (ddof = 0, ×(n−1)/n)".into());
            }
        }
    }
    let row = &t.rows[at];
    for (c, cell) in row.iter().enumerate() {
        if c != column && !keys.contains(&c) && cell.parse::<f64>().is_ok_and(matches) {
            out.push(format!("the same row's `{}`", t.headers[c]));
        }
    }
    if !keys.is_empty() && *budget >= t.rows.len() * keys.len() {
        *budget -= t.rows.len() * keys.len();
        for (r, other) in t.rows.iter().enumerate() {
            let differing: Vec<usize> = keys.iter().copied().filter(|&k| other[k] != row[k]).collect();
            if r != at && differing.len() == 1 && other[column].parse::<f64>().is_ok_and(matches) {
                let k = differing[0];
                out.push(format!("the row with `{}={}`", t.headers[k], other[k]));
            }
        }
    }
    let more = out.len().saturating_sub(MAX_CONVENTIONS);
    out.truncate(MAX_CONVENTIONS);
    if more > 0 {
        out.push(format!("{more} more"));
    }
    out
}

/// At most this many conventions are named for one printed number.
pub const MAX_CONVENTIONS: usize = 4;

/// Checks every printed number against `report`, the report of capability `C`.
pub fn check<C: Capability>(report: &C::Report, printed: &[Printed]) -> PrintedCheck {
    let mut tables: HashMap<String, Result<Indexed, String>> = HashMap::new();
    let mut budget = MAX_NEIGHBOUR_CELLS;
    let rows = printed
        .iter()
        .map(|p| {
            let mut row =
                CheckRow { analysis: p.analysis.unwrap_or(C::ANALYSIS).name().to_string(), ..CheckRow::unchecked(p) };
            if let Some(other) = p.analysis.filter(|a| *a != C::ANALYSIS) {
                row.verdict = Verdict::OtherAnalysis;
                row.note = format!("for `{other}`: checked with a run of that analysis");
                return row;
            }
            let table = tables.entry(p.table.clone()).or_insert_with(|| match <C::Table as Choice>::parse(&p.table) {
                Some(which) => C::table(report, which).map(Indexed::new).map_err(|e| e.to_string()),
                None => Err(format!(
                    "`{}` has no table `{}` (its tables: {})",
                    C::ANALYSIS,
                    p.table,
                    C::Table::ALL.iter().map(|t| t.name()).collect::<Vec<_>>().join(", ")
                )),
            });
            let found = table.as_mut().map_err(|e| e.clone()).and_then(|t| Ok((t.look_up(p)?, &t.table)));
            match found {
                Ok((found, t)) => {
                    let (verdict, difference) = judge(found.x, p.value);
                    row.recomputed = Some(found.x);
                    row.verdict = verdict;
                    row.difference = Some(difference);
                    if verdict != Verdict::Matches {
                        row.convention = conventions(t, &found, p, verdict, &mut budget).join("; ");
                    }
                }
                Err(why) => row.note = why,
            }
            row
        })
        .collect();
    PrintedCheck { analysis: C::ANALYSIS, rows, findings: super::lint::lint_printed(printed) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(text: &str) -> PrintedValue {
        super::super::number::parse_printed(text).unwrap()
    }

    #[test]
    fn a_number_printed_with_more_decimals_than_format_can_write_is_judged() {
        // 70,000 decimals: past `format!`'s precision range; compared at 40.
        let printed = v(&format!("0.{}", "5".repeat(70_000)));
        assert_eq!(printed.decimals, 70_000);
        assert_eq!(judge(5.0 / 9.0, printed).0, Verdict::Matches);
    }

    /// The verdicts against Python's rounding: f"{x:.3f}" of the exact binary value.
    #[test]
    fn verdicts_by_hand_and_as_python_rounds() {
        // f"{0.1875:.3f}" == "0.188" (a binary tie, to even); f"{0.2875:.3f}" == "0.287"
        // (0.2875 is 0.28749999… in binary); f"{0.28749:.3f}" == "0.287".
        assert_eq!(judge(0.1875, v("0.188")).0, Verdict::Matches);
        assert_eq!(judge(0.2875, v("0.287")).0, Verdict::Matches);
        assert_eq!(judge(0.28749, v(".288")).0, Verdict::WithinRounding, "TIAP Table 8: rounded twice");
        assert_eq!(judge(0.1741, v("+0.175")).0, Verdict::WithinRounding);
        assert_eq!(judge(0.1739, v("+0.175")).0, Verdict::Differs, "1.1 units off");
        let (verdict, d) = judge(0.625, v("0.59"));
        assert_eq!(verdict, Verdict::Differs);
        assert!((d - 0.035).abs() < 1e-12);
        assert_eq!(judge(0.343, v("34.3%")).0, Verdict::Matches);
        assert_eq!(judge(0.3436, v("34.3%")).0, Verdict::WithinRounding);
        assert_eq!(judge(-0.0252, v("\u{2212}0.025")).0, Verdict::Matches);
        assert_eq!(judge(1533.0, v("1,533")).0, Verdict::Matches);
        assert_eq!(judge(-0.0004, v("0.000")).0, Verdict::Matches, "-0.000 is 0.000");
    }

    #[test]
    fn rows_are_found_by_their_keys_or_the_reason_is_said() {
        let t = Table {
            docs: Default::default(),
            name: "t".into(),
            headers: vec!["run".into(), "k".into(), "x".into()],
            rows: vec![
                vec!["a".into(), "5".into(), "0.5".into()],
                vec!["a".into(), "10".into(), "".into()],
                vec!["b".into(), "5".into(), "n/a".into()],
            ],
        };
        let p = |row: &[(&str, &str)], column: &str| Printed {
            file: String::new(),
            line: 2,
            source: String::new(),
            analysis: None,
            table: "t".into(),
            row: row.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
            column: column.into(),
            printed: "0.5".into(),
            value: v("0.5"),
        };
        let mut t = Indexed::new(t);
        assert_eq!(t.look_up(&p(&[("run", "a"), ("k", "5.0")], "x")).map(|f| (f.x, f.row)), Ok((0.5, 0)));
        let e = t.look_up(&p(&[("run", "a")], "x")).unwrap_err();
        assert!(e.contains("2 rows") && e.contains("`k=…`"), "{e}");
        assert!(t.look_up(&p(&[("run", "c")], "x")).unwrap_err().contains("its `run`: a, b"));
        assert!(t.look_up(&p(&[("run", "a"), ("k", "10")], "x")).unwrap_err().contains("empty"));
        assert!(t.look_up(&p(&[("run", "b")], "x")).unwrap_err().contains("not a number"));
        assert!(t.look_up(&p(&[("system", "a")], "x")).unwrap_err().contains("no column `system`"));
        // A text cell that reads like a key of another kind is not that key.
        assert!(t.look_up(&p(&[("run", "n:5")], "x")).is_err());
    }
    /// The conventions named for numbers that do not match, against the ones Python finds by
    /// the same definitions (`tests/reference/printed/make_convention_reference.py`; the
    /// variance conventions from NumPy's `np.std` with ddof = 0 and 1 of the sample itself).
    #[test]
    fn the_conventions_that_give_a_printed_number_are_those_python_finds() {
        let cases: serde_json::Value =
            serde_json::from_str(include_str!("../../tests/reference/printed/conventions.json")).unwrap();
        for c in cases.as_array().unwrap() {
            let strings = |v: &serde_json::Value| -> Vec<String> {
                v.as_array().unwrap().iter().map(|x| x.as_str().unwrap().to_string()).collect()
            };
            let headers = strings(&c["headers"]);
            let rows: Vec<Vec<String>> = c["rows"].as_array().unwrap().iter().map(strings).collect();
            let t = Table { name: "t".into(), headers: headers.clone(), rows, docs: Default::default() };
            let at = c["at"].as_u64().unwrap() as usize;
            let column = headers.iter().position(|h| h == c["column"].as_str().unwrap()).unwrap();
            let key_names = strings(&c["keys"]);
            let keys: Vec<usize> = key_names.iter().map(|k| headers.iter().position(|h| h == k).unwrap()).collect();
            let text = c["printed"].as_str().unwrap();
            let p = Printed {
                file: String::new(),
                line: 2,
                source: String::new(),
                analysis: None,
                table: "t".into(),
                row: key_names
                    .iter()
                    .map(|k| (k.clone(), t.rows[at][headers.iter().position(|h| h == k).unwrap()].clone()))
                    .collect(),
                column: c["column"].as_str().unwrap().into(),
                printed: text.into(),
                value: v(text),
            };
            let x = t.rows[at][column].parse::<f64>().unwrap();
            let found = Found { x, row: at, column, keys };
            let got = conventions(&t, &found, &p, judge(x, p.value).0, &mut usize::MAX.clone());
            let want = strings(&c["conventions"]);
            let name = c["name"].as_str().unwrap();
            assert_eq!(got.len(), want.len(), "{name}: {got:?} for {want:?}");
            for w in &want {
                let marker = match w.split_once(':') {
                    Some(("column", x)) => format!("row's `{x}`"),
                    Some(("row", kv)) => format!("`{kv}`"),
                    _ => match w.as_str() {
                        "percent" => "(\u{d7}100)".to_string(),
                        "truncated" => "truncated".to_string(),
                        "complement" => "complement".to_string(),
                        "sign" => "sign reversed".to_string(),
                        "ddof1" => "ddof = 1".to_string(),
                        "ddof0" => "ddof = 0".to_string(),
                        other => panic!("unknown convention {other}"),
                    },
                };
                assert!(got.iter().any(|g| g.contains(&marker)), "{name}: {marker} not in {got:?}");
            }
        }
    }
}
