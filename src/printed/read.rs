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

use super::number::{PrintedValue, parse_printed};

/// One number of the printed file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Printed {
    /// The printed-numbers file it was read from.
    #[serde(default)]
    pub file: String,
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
            file: file.name.clone(),
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
