//! Tables of display strings shared by every capability: the same [`Table`]s feed the CLI's
//! CSV and text output and the viewer's tables and CSV exports, so every number on screen has
//! a CLI twin.
//!
//! A table's columns are defined once, name and value together ([`Column`], [`columns!`](crate::columns!)),
//! so a header can never drift from the value printed under it; each capability names its
//! tables with a [`crate::choice::Choice`] enum (`RescoreTable::Summary`), never a string.

use crate::error::{Error, Result};

pub mod instance;

/// A named table of display strings (full precision for numbers).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Table {
    pub name: String,
    pub headers: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// What a column means, by its header, for the columns that say it (declared beside the
    /// column: [`columns!`](crate::columns!)). The report to attach lists them under the table
    /// and the viewer shows them on the column's header.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub docs: std::collections::BTreeMap<String, String>,
}

/// Full-precision number (shortest representation that round-trips), empty for `None`.
pub fn num(v: Option<f64>) -> String {
    v.map(|x| format!("{x}")).unwrap_or_default()
}

/// A p-value as people read it: four decimals, scientific notation below 1e-4, and `< 1e-16`
/// below that (no test has the resolution). The screen, the CLI's text tables and the report
/// to attach all print p-values with this; the CSV and JSON keep [`num`].
pub fn p_value(p: f64) -> String {
    if (0.0..1e-16).contains(&p) {
        "< 1e-16".into()
    } else if p < 1e-4 {
        format!("{p:.1e}")
    } else {
        format!("{p:.4}")
    }
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

/// One column of a table: its CSV name, how a row gives its text and what it means, defined
/// together.
pub struct Column<R> {
    pub name: &'static str,
    pub value: fn(&R) -> String,
    /// What the column means, in a sentence (empty: its name says it).
    pub doc: &'static str,
}

/// A list of [`Column`]s of rows of type `R`, each `"name" => |row| text`, with what it means
/// as its doc comment where the name does not say it:
///
/// ```
/// use memaudit::report::{Column, Table};
/// struct Row { system: String, n: usize }
/// const COLUMNS: &[Column<Row>] = &memaudit::columns![Row;
///     "system" => |r| r.system.clone(),
///     /// Queries scored.
///     "n" => |r| r.n.to_string(),
/// ];
/// let t = Table::of("counts", COLUMNS, &[Row { system: "bm25".into(), n: 3 }]);
/// assert_eq!(t.to_csv().unwrap(), "system,n\nbm25,3\n");
/// assert_eq!(t.doc("n"), Some("Queries scored."));
/// ```
#[macro_export]
macro_rules! columns {
    ($row:ty; $( $(#[doc = $doc:literal])* $name:literal => $value:expr ),+ $(,)?) => {
        [ $( $crate::report::Column::<$row> { name: $name, value: $value, doc: concat!($($doc, "\n"),*) } ),+ ]
    };
}

/// A column's doc comment as one sentence: its lines joined, the spaces after `///` gone.
fn doc_text(doc: &str) -> String {
    doc.split('\n').map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join(" ")
}

pub(crate) fn docs_of<R>(columns: &[Column<R>]) -> impl Iterator<Item = (String, String)> + '_ {
    columns.iter().filter(|c| !c.doc.trim().is_empty()).map(|c| (c.name.to_string(), doc_text(c.doc)))
}

impl Table {
    /// The table of `rows` under `columns`.
    pub fn of<'a, R: 'a>(name: &str, columns: &[Column<R>], rows: impl IntoIterator<Item = &'a R>) -> Table {
        Table {
            name: name.into(),
            headers: columns.iter().map(|c| c.name.to_string()).collect(),
            rows: rows.into_iter().map(|r| columns.iter().map(|c| (c.value)(r)).collect()).collect(),
            docs: docs_of(columns).collect(),
        }
    }

    /// What the column `header` means, where its declaration says it.
    pub fn doc(&self, header: &str) -> Option<&str> {
        self.docs.get(header).map(String::as_str)
    }

    /// The explained columns in the table's order, `(header, what it means)`.
    pub fn explained(&self) -> impl Iterator<Item = (&str, &str)> {
        self.headers.iter().filter_map(|h| Some((h.as_str(), self.doc(h)?)))
    }

    /// The table of `rows` under the columns of their keys (`key` reads a row's key), then
    /// `columns`: rows that share a key type declare its columns once.
    pub fn keyed<K, R>(name: &str, keys: &[Column<K>], key: fn(&R) -> &K, columns: &[Column<R>], rows: &[R]) -> Table {
        let mut t = Table::of(name, keys, rows.iter().map(key));
        t.headers.extend(columns.iter().map(|c| c.name.to_string()));
        t.docs.extend(docs_of(columns));
        for (cells, r) in t.rows.iter_mut().zip(rows) {
            cells.extend(columns.iter().map(|c| (c.value)(r)));
        }
        t
    }

    /// The table without the columns named `names` (a view that leaves out columns of no
    /// use for these rows).
    pub fn without(mut self, names: &[&str]) -> Table {
        fn pick(cells: Vec<String>, keep: &[bool]) -> Vec<String> {
            cells.into_iter().zip(keep).filter(|(_, k)| **k).map(|(c, _)| c).collect()
        }
        let keep: Vec<bool> = self.headers.iter().map(|h| !names.contains(&h.as_str())).collect();
        self.headers = pick(std::mem::take(&mut self.headers), &keep);
        self.docs.retain(|h, _| !names.contains(&h.as_str()));
        self.rows = std::mem::take(&mut self.rows).into_iter().map(|r| pick(r, &keep)).collect();
        self
    }

    /// An empty table with these column names.
    pub fn new(name: &str, headers: &[&str]) -> Table {
        Table { name: name.into(), headers: headers.iter().map(|h| h.to_string()).collect(), ..Table::default() }
    }

    /// RFC 4180 CSV with a header line, every text cell a spreadsheet would run as a formula
    /// neutralised (see [`spreadsheet_safe`]).
    pub fn to_csv(&self) -> Result<String> {
        self.csv_with(|c| spreadsheet_safe(c))
    }

    /// RFC 4180 CSV with every cell as it is (`--csv-raw`).
    pub fn to_csv_raw(&self) -> Result<String> {
        self.csv_with(std::borrow::Cow::Borrowed)
    }

    fn csv_with<'a>(&'a self, cell: impl Fn(&'a str) -> std::borrow::Cow<'a, str>) -> Result<String> {
        let mut w = csv::Writer::from_writer(Vec::new());
        let err = |e: csv::Error| Error::Output { what: format!("table {}", self.name), message: e.to_string() };
        w.write_record(self.headers.iter().map(|h| cell(h).into_owned())).map_err(err)?;
        for r in &self.rows {
            w.write_record(r.iter().map(|c| cell(c).into_owned())).map_err(err)?;
        }
        let bytes = w.into_inner().map_err(|e| Error::Output { what: self.name.clone(), message: e.to_string() })?;
        String::from_utf8(bytes).map_err(|e| Error::Output { what: self.name.clone(), message: e.to_string() })
    }
}

/// A CSV cell a spreadsheet will not run as a formula: text (never a number) that begins with
/// `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'`, which spreadsheets show as
/// text (OWASP, "CSV Injection"). `-0.25`, `+3` and `1e-9` are numbers and stay as they are.
pub fn spreadsheet_safe(cell: &str) -> std::borrow::Cow<'_, str> {
    let risky = cell.starts_with(['=', '+', '-', '@', '\t', '\r']);
    if risky && cell.trim().parse::<f64>().is_err() {
        std::borrow::Cow::Owned(format!("'{cell}"))
    } else {
        std::borrow::Cow::Borrowed(cell)
    }
}

/// Text for a terminal: control characters other than newline and tab (escape sequences, a
/// carriage return that would overwrite a line) are shown as `\u{1b}` instead of acting.
pub fn terminal_safe(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(|c| c.is_control() && c != '\n' && c != '\t') {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if c.is_control() && c != '\n' && c != '\t' {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// An aligned text table (`--format table`) of `rows`, each column declared once as
/// `heading => cell` with the row bound by the closure's pattern:
/// `text_table!(&r.bins, |b| { "bin" => b.bin.to_string(), "n" => b.n.to_string() })`.
#[macro_export]
macro_rules! text_table {
    ($rows:expr, |$row:pat_param| { $( $heading:expr => $cell:expr ),+ $(,)? }) => {
        $crate::report::render_columns(
            &[$( $heading ),+],
            &($rows).into_iter().map(|$row| vec![$( $cell ),+]).collect::<Vec<Vec<String>>>(),
        )
    };
}

/// A size in bytes as people read it, in powers of 1024 (`16.0 MiB`, `3.2 KiB`, `12 B`).
pub fn bytes(n: u64) -> String {
    match n {
        n if n >= 1 << 20 => format!("{:.1} MiB", n as f64 / (1u64 << 20) as f64),
        n if n >= 1 << 10 => format!("{:.1} KiB", n as f64 / (1u64 << 10) as f64),
        n => format!("{n} B"),
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
            // Padded by hand: a width past 65,535 (a cell of user text) is out of `format!`'s range.
            .map(|(i, c)| format!("{c}{}", " ".repeat(widths[i].saturating_sub(c.chars().count()))))
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

#[cfg(test)]
mod tests {
    use super::*;

    struct Row {
        a: u8,
    }

    const EXPLAINED: &[Column<Row>] = &crate::columns![Row;
        "plain" => |r| r.a.to_string(),
        /// What it is,
        /// on two lines.
        "told" => |r| r.a.to_string(),
    ];

    #[test]
    fn a_columns_doc_comment_is_its_explanation_and_follows_it() {
        let t = Table::of("t", EXPLAINED, &[Row { a: 1 }]);
        assert_eq!(t.doc("told"), Some("What it is, on two lines."));
        assert_eq!(t.doc("plain"), None);
        assert_eq!(t.explained().collect::<Vec<_>>(), vec![("told", "What it is, on two lines.")]);
        let keyed = Table::keyed("k", EXPLAINED, |r: &Row| r, EXPLAINED, &[Row { a: 2 }]);
        assert_eq!(keyed.doc("told"), Some("What it is, on two lines."));
        let without = t.without(&["told"]);
        assert_eq!(without.doc("told"), None);
        assert_eq!(without.headers, vec!["plain"]);
    }

    #[test]
    fn a_cell_wider_than_format_can_pad_is_aligned_by_hand() {
        // `format!("{:<w$}")` panics past a width of 65,535: a cell of user text can be wider.
        let wide = "x".repeat(70_000);
        let out = render_columns(&["name", "n"], &[vec![wide.clone(), "1".into()], vec!["a".into(), "2".into()]]);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[1].len(), 70_000 + 2 + 1, "the rule under the headers");
        assert_eq!(lines[2], format!("{wide}  1"));
        assert_eq!(lines[3], format!("a{}  2", " ".repeat(69_999)));
    }

    #[test]
    fn a_table_without_columns_keeps_the_others_in_order() {
        let mut t = Table::new("t", &["a", "b", "c"]);
        t.rows.push(vec!["1".into(), "2".into(), "3".into()]);
        t.rows.push(vec!["4".into(), "5".into(), "6".into()]);
        let t = t.without(&["b", "missing"]);
        assert_eq!(t.headers, ["a", "c"]);
        assert_eq!(t.rows, [["1", "3"], ["4", "6"]]);
    }

    #[test]
    fn formula_cells_are_neutralised_and_numbers_kept() {
        let mut t = Table::new("t", &["id", "value"]);
        for (id, v) in [("=cmd|' /C calc'!A0", "-0.25"), ("+SUM(A1)", "+3"), ("-x", "1e-9"), ("@f", "-inf")] {
            t.rows.push(vec![id.into(), v.into()]);
        }
        t.rows.push(vec!["\tx".into(), "\rY".into()]);
        t.rows.push(vec!["plain".into(), "-".into()]);
        // Read back with a CSV reader: each cell is its neutralised text.
        let csv = t.to_csv().unwrap();
        let mut r = csv::Reader::from_reader(csv.as_bytes());
        let rows: Vec<Vec<String>> = r.records().map(|r| r.unwrap().iter().map(str::to_string).collect()).collect();
        assert_eq!(
            rows,
            [
                ["'=cmd|' /C calc'!A0", "-0.25"],
                ["'+SUM(A1)", "+3"],
                ["'-x", "1e-9"],
                ["'@f", "-inf"],
                ["'\tx", "'\rY"],
                ["plain", "'-"],
            ]
        );
        let raw = t.to_csv_raw().unwrap();
        assert!(raw.contains("\n=cmd|' /C calc'!A0,-0.25\n"), "{raw}");
    }

    #[test]
    fn control_characters_are_made_visible_for_a_terminal() {
        assert_eq!(terminal_safe("q1\x1b[31mred\r\n\tok"), "q1\\u{1b}[31mred\\u{d}\n\tok");
        assert_eq!(terminal_safe("\u{9b}x"), "\\u{9b}x");
        assert!(matches!(terminal_safe("plain é\n"), std::borrow::Cow::Borrowed(_)));
    }
}
