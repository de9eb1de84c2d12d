//! Each printed number against the recomputed report (the verdicts: [`super`]).

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::read::{Printed, PrintedValue};
use crate::capability::{Analysis, Capability};
use crate::choice::Choice;
use crate::report::Table;

crate::choice! {
    /// How a printed number compares with the data.
    pub enum Verdict {
        /// The recomputed value rounded as printed is the printed value.
        Matches = "matches",
        /// Off by at most one unit in the last printed place.
        WithinRounding = "within_rounding",
        /// Off by more.
        Differs = "differs",
        /// The report has no such value (the note says why).
        NotComputed = "not_computed",
        /// It names another analysis than the one run.
        OtherAnalysis = "other_analysis",
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
        }
    }
}

/// The check of a printed file against one analysis's report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PrintedCheck {
    pub analysis: Analysis,
    pub rows: Vec<CheckRow>,
}

impl PrintedCheck {
    /// How many rows have `v`.
    pub fn count(&self, v: Verdict) -> usize {
        self.rows.iter().filter(|r| r.verdict == v).count()
    }
}

/// The verdict of a recomputed value `x` (on the report's scale) against a printed one, and the
/// difference on the printed scale.
pub fn judge(x: f64, p: PrintedValue) -> (Verdict, f64) {
    let y = if p.percent { x * 100.0 } else { x };
    let d = p.decimals as usize;
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

    /// The value of `p` in the table, or why there is none.
    fn look_up(&mut self, p: &Printed) -> Result<f64, String> {
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
        let found: Vec<&Vec<String>> =
            rows.get(&wanted).map(|rs| rs.iter().map(|&r| &table.rows[r]).collect()).unwrap_or_default();
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
        cell.parse::<f64>().map_err(|_| format!("the cell `{}` of that row is `{cell}`, not a number", p.column))
    }
}

/// Checks every printed number against `report`, the report of capability `C`.
pub fn check<C: Capability>(report: &C::Report, printed: &[Printed]) -> PrintedCheck {
    let mut tables: HashMap<String, Result<Indexed, String>> = HashMap::new();
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
            match table.as_mut().map_err(|e| e.clone()).and_then(|t| t.look_up(p)) {
                Ok(x) => {
                    let (verdict, difference) = judge(x, p.value);
                    row.recomputed = Some(x);
                    row.verdict = verdict;
                    row.difference = Some(difference);
                }
                Err(why) => row.note = why,
            }
            row
        })
        .collect();
    PrintedCheck { analysis: C::ANALYSIS, rows }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(text: &str) -> PrintedValue {
        super::super::read::parse_printed(text).unwrap()
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
            name: "t".into(),
            headers: vec!["run".into(), "k".into(), "x".into()],
            rows: vec![
                vec!["a".into(), "5".into(), "0.5".into()],
                vec!["a".into(), "10".into(), "".into()],
                vec!["b".into(), "5".into(), "n/a".into()],
            ],
        };
        let p = |row: &[(&str, &str)], column: &str| Printed {
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
        assert_eq!(t.look_up(&p(&[("run", "a"), ("k", "5.0")], "x")), Ok(0.5));
        let e = t.look_up(&p(&[("run", "a")], "x")).unwrap_err();
        assert!(e.contains("2 rows") && e.contains("`k=…`"), "{e}");
        assert!(t.look_up(&p(&[("run", "c")], "x")).unwrap_err().contains("its `run`: a, b"));
        assert!(t.look_up(&p(&[("run", "a"), ("k", "10")], "x")).unwrap_err().contains("empty"));
        assert!(t.look_up(&p(&[("run", "b")], "x")).unwrap_err().contains("not a number"));
        assert!(t.look_up(&p(&[("system", "a")], "x")).unwrap_err().contains("no column `system`"));
        // A text cell that reads like a key of another kind is not that key.
        assert!(t.look_up(&p(&[("run", "n:5")], "x")).is_err());
    }
}
