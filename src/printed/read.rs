//! The printed-numbers file: a table (CSV/TSV, JSON Lines or a JSON array; read by
//! [`crate::ingest::table`]) with the columns
//!
//! | column | holds |
//! |---|---|
//! | `source` | where the paper prints it (`Table 2`), free text (optional) |
//! | `analysis` | the capability (`alignment`, `compare`, …); empty: the one run (optional) |
//! | `table` | the report's table (`--table` name) |
//! | `row` | the row's keys: `COLUMN=value; COLUMN=value` (empty: a table of one row) |
//! | `column` | the table's column |
//! | `printed` | the number as printed (`0.176`, `.176`, `+0.168`, `−0.025`, `34.3%`, `1,533`) |

use serde::{Deserialize, Serialize};

use crate::capability::Analysis;
use crate::choice::Choice;
use crate::error::{IngestError, Location, Result};
use crate::ingest::InputFile;
use crate::ingest::table::{required_column, rows};

/// A printed number, as read from its text.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PrintedValue {
    /// The number on its printed scale (34.3 for `34.3%`).
    pub value: f64,
    /// Its decimals as printed.
    pub decimals: u32,
    /// Printed as a percentage: the recomputed value is multiplied by 100 to compare.
    pub percent: bool,
}

/// A number as a paper prints it: a sign (`+`, `-`, `−`), digits with optional thousands
/// separators (`1,533`), an optional leading-dot fraction (`.176`), an optional `%`. `None` for
/// anything else.
pub fn parse_printed(text: &str) -> Option<PrintedValue> {
    let t = text.trim().replace('\u{2212}', "-");
    let (t, percent) = match t.strip_suffix('%') {
        Some(s) => (s.trim_end().to_string(), true),
        None => (t, false),
    };
    let t = t.strip_prefix('+').unwrap_or(&t);
    let (sign, digits) = match t.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", t),
    };
    let (whole, fraction) = match digits.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (digits, None),
    };
    // Thousands separators only in groups of three after one to three digits.
    let groups: Vec<&str> = whole.split(',').collect();
    let grouped_ok = groups.len() == 1
        || (!groups[0].is_empty() && groups[0].len() <= 3 && groups[1..].iter().all(|g| g.len() == 3));
    let whole = groups.concat();
    let all_digits = |s: &str| s.chars().all(|c| c.is_ascii_digit());
    if !grouped_ok
        || !all_digits(&whole)
        || fraction.is_some_and(|f| f.is_empty() || !all_digits(f))
        || (whole.is_empty() && fraction.is_none())
    {
        return None;
    }
    let number = format!("{sign}{}.{}", if whole.is_empty() { "0" } else { &whole }, fraction.unwrap_or("0"));
    Some(PrintedValue { value: number.parse().ok()?, decimals: fraction.map_or(0, |f| f.len() as u32), percent })
}

/// One number of the printed file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Printed {
    /// Its line in the file.
    pub line: usize,
    pub source: String,
    /// The analysis it belongs to; `None`: the one run.
    pub analysis: Option<Analysis>,
    pub table: String,
    /// The row's keys, in the order written.
    pub row: Vec<(String, String)>,
    pub column: String,
    /// The number as printed.
    pub printed: String,
    pub value: PrintedValue,
}

/// The most entries a printed file may hold.
pub const MAX_PRINTED: usize = 100_000;

/// Reads a printed-numbers file; an entry that cannot be read is an error naming its line and
/// column.
pub fn read(file: &InputFile) -> Result<Vec<Printed>> {
    let name = file.name.as_str();
    let t = rows(file)?;
    let col = |aliases: &[&str], what: &str| {
        required_column(name, &t.headers, None, aliases, "the printed file's header", what)
    };
    let (table, column, printed) =
        (col(&["table"], "table")?, col(&["column"], "column")?, col(&["printed", "value"], "printed")?);
    let optional = |n: &str| t.headers.iter().position(|h| h == n);
    let (source, analysis, row) = (optional("source"), optional("analysis"), optional("row"));
    if t.records.len() > MAX_PRINTED {
        return Err(IngestError::new(
            Location::file(name),
            format!("{} printed numbers, more than the {MAX_PRINTED} checked at once: split the file", t.records.len()),
        )
        .into());
    }
    let at = |line: usize, field: &str, message: String| {
        IngestError::new(Location::line(name, line).with_field(field.to_string()), message)
    };
    let mut out = Vec::with_capacity(t.records.len());
    for (line, cells) in &t.records {
        let cell = |i: Option<usize>| i.map(|i| cells[i].trim().to_string()).unwrap_or_default();
        let text = cell(Some(printed));
        let value = parse_printed(&text).ok_or_else(|| {
            at(
                *line,
                "printed",
                format!("`{text}` is not a number as printed (e.g. 0.176, .176, +0.168, −0.025, 34.3%, 1,533)"),
            )
        })?;
        let analysis = match cell(analysis) {
            a if a.is_empty() => None,
            a => Some(<Analysis as Choice>::parse(&a).ok_or_else(|| {
                at(
                    *line,
                    "analysis",
                    format!(
                        "`{a}` is not an analysis (one of: {})",
                        Analysis::ALL.iter().map(|x| x.name()).collect::<Vec<_>>().join(", ")
                    ),
                )
            })?),
        };
        let mut keys = Vec::new();
        for part in cell(row).split(';').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = part.split_once('=').ok_or_else(|| {
                at(*line, "row", format!("`{part}` is not COLUMN=value (write the row as `run=lexical; target_a=raw`)"))
            })?;
            keys.push((k.trim().to_string(), v.trim().to_string()));
        }
        for (field, v) in [("table", cell(Some(table))), ("column", cell(Some(column)))] {
            if v.is_empty() {
                return Err(at(*line, field, format!("the {field} is empty")).into());
            }
        }
        out.push(Printed {
            line: *line,
            source: cell(source),
            analysis,
            table: cell(Some(table)),
            row: keys,
            column: cell(Some(column)),
            printed: text,
            value,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_as_papers_print_them() {
        let p = |t: &str| parse_printed(t).map(|v| (v.value, v.decimals, v.percent));
        assert_eq!(p("0.176"), Some((0.176, 3, false)));
        assert_eq!(p(".176"), Some((0.176, 3, false)));
        assert_eq!(p("+0.168"), Some((0.168, 3, false)));
        assert_eq!(p("\u{2212}0.025"), Some((-0.025, 3, false)));
        assert_eq!(p("-.033"), Some((-0.033, 3, false)));
        assert_eq!(p("34.3%"), Some((34.3, 1, true)));
        assert_eq!(p("1,533"), Some((1533.0, 0, false)));
        assert_eq!(p("12,345.5"), Some((12345.5, 1, false)));
        for bad in ["", "n/a", "1,53", "1.2.3", "0.", "+", "1e-3", "[0.1, 0.2]", ",533"] {
            assert_eq!(p(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_file_of_printed_numbers_and_its_errors() {
        let f = |t: &str| InputFile::new("printed.csv", t.as_bytes().to_vec());
        let ok = "source,analysis,table,row,column,printed\nTable 2,alignment,target_contrasts,run=lex; target_b=canonical,diff,+0.168\n,,winners,,winner,1\n";
        let got = read(&f(ok)).unwrap();
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].analysis, Some(Analysis::Alignment));
        assert_eq!(got[0].row, [("run".to_string(), "lex".to_string()), ("target_b".into(), "canonical".into())]);
        assert_eq!((got[0].line, got[1].analysis, got[1].row.len()), (2, None, 0));
        let e = read(&f("table,column,printed\nt,c,about 3\n")).unwrap_err().to_string();
        assert!(e.contains("printed.csv") && e.contains("line 2") && e.contains("about 3"), "{e}");
        let e = read(&f("table,column,printed,row\nt,c,3,run lex\n")).unwrap_err().to_string();
        assert!(e.contains("COLUMN=value"), "{e}");
        let e = read(&f("table,column,printed,analysis\nt,c,3,comparison\n")).unwrap_err().to_string();
        assert!(e.contains("not an analysis"), "{e}");
        let e = read(&f("table,printed\nt,3\n")).unwrap_err().to_string();
        assert!(e.contains("no column column"), "{e}");
    }
}
