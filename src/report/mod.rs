//! Tables of display strings shared by every capability: the same [`Table`]s feed the CLI's
//! CSV and text output and the viewer's tables and CSV exports, so every number on screen has
//! a CLI twin.
//!
//! A table's columns are defined once, name and value together ([`Column`], [`columns!`](crate::columns!)),
//! so a header can never drift from the value printed under it; each capability names its
//! tables with a [`crate::choice::Choice`] enum (`RescoreTable::Summary`), never a string.

use crate::error::{Error, Result};

/// A named table of display strings (full precision for numbers).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Table {
    pub name: String,
    pub headers: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

/// Full-precision number (shortest representation that round-trips), empty for `None`.
pub fn num(v: Option<f64>) -> String {
    v.map(|x| format!("{x}")).unwrap_or_default()
}

/// `true` or `false`.
pub fn flag(b: bool) -> String {
    if b { "true".into() } else { "false".into() }
}

/// The value as text, empty for `None`.
pub fn opt<T: ToString>(v: &Option<T>) -> String {
    v.as_ref().map(ToString::to_string).unwrap_or_default()
}

/// The name serde writes for a value (a unit variant's snake_case name: `within_rounding`),
/// empty when it is not a string.
pub fn serde_name<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_value(v).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

/// One column of a table: its CSV name and how a row gives its text, defined together.
pub struct Column<R> {
    pub name: &'static str,
    pub value: fn(&R) -> String,
}

/// A list of [`Column`]s of rows of type `R`, each `"name" => |row| text`:
///
/// ```
/// use memaudit::report::{Column, Table};
/// struct Row { system: String, n: usize }
/// const COLUMNS: &[Column<Row>] = &memaudit::columns![Row;
///     "system" => |r| r.system.clone(),
///     "n" => |r| r.n.to_string(),
/// ];
/// let t = Table::of("counts", COLUMNS, &[Row { system: "bm25".into(), n: 3 }]);
/// assert_eq!(t.to_csv().unwrap(), "system,n\nbm25,3\n");
/// ```
#[macro_export]
macro_rules! columns {
    ($row:ty; $( $name:literal => $value:expr ),+ $(,)?) => {
        [ $( $crate::report::Column::<$row> { name: $name, value: $value } ),+ ]
    };
}

impl Table {
    /// The table of `rows` under `columns`.
    pub fn of<'a, R: 'a>(name: &str, columns: &[Column<R>], rows: impl IntoIterator<Item = &'a R>) -> Table {
        Table {
            name: name.into(),
            headers: columns.iter().map(|c| c.name.to_string()).collect(),
            rows: rows.into_iter().map(|r| columns.iter().map(|c| (c.value)(r)).collect()).collect(),
        }
    }

    /// An empty table with these column names.
    pub fn new(name: &str, headers: &[&str]) -> Table {
        Table { name: name.into(), headers: headers.iter().map(|h| h.to_string()).collect(), rows: Vec::new() }
    }

    /// RFC 4180 CSV with a header line.
    pub fn to_csv(&self) -> Result<String> {
        let mut w = csv::Writer::from_writer(Vec::new());
        let err = |e: csv::Error| Error::Output { what: format!("table {}", self.name), message: e.to_string() };
        w.write_record(&self.headers).map_err(err)?;
        for r in &self.rows {
            w.write_record(r).map_err(err)?;
        }
        let bytes = w.into_inner().map_err(|e| Error::Output { what: self.name.clone(), message: e.to_string() })?;
        String::from_utf8(bytes).map_err(|e| Error::Output { what: self.name.clone(), message: e.to_string() })
    }
}

/// Aligns columns of a small text table.
pub(crate) fn render_columns(headers: &[&str], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = headers.iter().map(|h| h.chars().count()).collect();
    for r in rows {
        for (i, c) in r.iter().enumerate() {
            widths[i] = widths[i].max(c.chars().count());
        }
    }
    let line = |cells: Vec<String>| -> String {
        cells
            .iter()
            .enumerate()
            .map(|(i, c)| format!("{c:<w$}", w = widths[i]))
            .collect::<Vec<_>>()
            .join("  ")
            .trim_end()
            .to_string()
    };
    let mut out = line(headers.iter().map(|s| s.to_string()).collect());
    out.push('\n');
    out.push_str(&widths.iter().map(|w| "-".repeat(*w)).collect::<Vec<_>>().join("  "));
    out.push('\n');
    for r in rows {
        out.push_str(&line(r.clone()));
        out.push('\n');
    }
    out
}
