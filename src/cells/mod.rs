//! Cells: how a capability's rows become the cells it reports, one mechanism for every
//! capability that aggregates rows (reclaim, compare, compliance, calibration, labels,
//! alignment, answers, ablation, claims). The rules are written once, in `docs/formats.md`
//! ("Cells, populations, unknowns and duplicates"):
//!
//! * A capability **declares** its columns: those that identify an item (`pid`, `seed`), those
//!   that key a cell (`policy`, `arm`, …) and those it reads as outcomes or values. Every other
//!   column is a candidate **design column** ([`design`]): one whose values split rows that
//!   would otherwise repeat an item in one cell (reclaim-eval's `prompt`, `n`, `budget`) is a
//!   key — one cell per value, shown as a column — unless the settings pool it
//!   ([`CellSettings::pool`]), and then every result that pooled says so. No fixed list of
//!   design columns.
//! * An item repeated in one cell that no column tells apart is **refused** with the file, both
//!   lines and the identity's fields ([`design::Design::detect`]); rows without any identity
//!   cannot be told apart, so exactly repeated rows are counted and shown.
//! * Every cell states its **population** — the items it holds — and cells set side by side
//!   (one panel) whose items differ are flagged, naming the items that differ ([`population`]).
//!   A stated problem set, or the items every cell of a panel holds, restricts the cells; what
//!   was left out is counted by reason.
//!
//! ```text
//! rows ──Frame (identity, cell, panel, undeclared columns)──► Design::detect(settings)
//!      ──► keyed columns per row · pooled · unused · refused repeats
//! cells' items ──Populations::of──► P1, P2, … per cell · mismatches per panel
//! ```

pub mod design;
pub mod population;
pub mod report;

use serde::{Deserialize, Serialize};

pub use design::{Design, DesignColumn, Frame, UnusedColumn, fingerprint};
pub use population::{CellItems, Exclusions, Mismatch, Population, Populations, Restriction, RowRef};
pub use report::CellReport;

use crate::error::{Error, Result};

crate::fields! {
    /// The settings of how rows become cells, the same in every capability that has cells (the
    /// "Cells" settings of each interface).
    #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(default)]
    pub struct CellSettings {
        pool: Vec<String> = Vec::new(), label "pool columns",
            help "Pool the values of these columns into one cell instead of one cell per value; every result that pooled says so.";
        split as "split_by": Vec<String> = Vec::new(), label "split by columns",
            help "One cell per value of these columns, even when they are not detected as design columns.";
        problems: Option<Vec<String>> = None, via ItemList, label "problem set",
            help "Keep only these items (ids one per line or comma-separated, a JSON list of ids, or probe keys); the others are left out and counted.";
        common_items: bool = false, label "common items only",
            help "Keep, among the cells set side by side, only the items every one of them holds (the others are left out and counted).";
    }
}

/// A problem set as text ([`Kind::Items`](crate::fields::Kind::Items)): empty is none, else
/// [`parse_item_list`]; written back one id per line.
pub struct ItemList;

impl crate::fields::Codec<Option<Vec<String>>> for ItemList {
    const KIND: crate::fields::Kind = crate::fields::Kind::Items;
    const OPTIONAL: bool = true;
    fn from_text(text: &str) -> std::result::Result<Option<Vec<String>>, String> {
        if text.trim().is_empty() { Ok(None) } else { parse_item_list(text).map(Some) }
    }
    fn to_text(value: &Option<Vec<String>>) -> String {
        value.as_ref().map(|p| p.join("\n")).unwrap_or_default()
    }
}

impl CellSettings {
    /// Refuses a column both pooled and keyed, an empty name and an empty problem set.
    pub fn validate(&self) -> Result<()> {
        for (setting, list) in [("pool", &self.pool), ("split_by", &self.split)] {
            if let Some(empty) = list.iter().find(|c| c.trim().is_empty()) {
                return Err(Error::setting(setting, format!("a column name is empty ({empty:?})")));
            }
        }
        if let Some(c) = self.pool.iter().find(|c| self.split.contains(c)) {
            return Err(Error::setting("pool", format!("`{c}` is both pooled and split by: choose one")));
        }
        if let Some(p) = &self.problems
            && p.is_empty()
        {
            return Err(Error::setting("problems", "the problem set is empty"));
        }
        Ok(())
    }

    /// The settings in words, for the settings line of every result (empty when all default).
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if !self.pool.is_empty() {
            parts.push(format!("pooled: {}", self.pool.join(", ")));
        }
        if !self.split.is_empty() {
            parts.push(format!("split by: {}", self.split.join(", ")));
        }
        if let Some(p) = &self.problems {
            parts.push(format!("problem set: {} item(s)", p.len()));
        }
        if self.common_items {
            parts.push("common items only".into());
        }
        parts.join("; ")
    }

    /// Whether anything differs from the defaults.
    pub fn is_default(&self) -> bool {
        *self == CellSettings::default()
    }
}

crate::choice! {
    /// What to do with an item repeated within one cell (the one policy of every reader,
    /// `docs/formats.md` "Duplicates"): refuse it, naming both lines, or keep the first row and
    /// count the repeats (and those whose values differ), shown with the result.
    #[derive(Default)]
    pub enum Repeats {
        /// Refuse the file, naming both lines.
        #[default]
        Refuse,
        /// Keep the first row; count the repeats and the conflicting ones.
        First,
    }
}

/// Columns that name a replicate of an item (a seed, an epoch): part of an item's identity,
/// pooled within a cell as replicates, never a design column.
pub const REPLICATE_COLUMNS: &[&str] = &["seed", "epoch", "replicate", "repeat", "trial"];

/// At most this many examples are named in a message or a note (the rest are counted).
pub const EXAMPLES: usize = 5;

/// `items` as `a, b, c, … (N in all)`: the first [`EXAMPLES`], then the count.
pub fn some_of<S: AsRef<str>>(items: &[S]) -> String {
    let shown: Vec<&str> = items.iter().take(EXAMPLES).map(AsRef::as_ref).collect();
    if items.len() > EXAMPLES {
        format!("{}, … ({} in all)", shown.join(", "), items.len())
    } else {
        shown.join(", ")
    }
}

/// Parses a problem set as a user gives it: one id per line, a comma-separated list, a JSON
/// array of ids, or a JSON object whose arrays hold objects with a `pid` (reclaim-eval's probe
/// keys). Blank entries are skipped; ids are trimmed.
pub fn parse_item_list(text: &str) -> std::result::Result<Vec<String>, String> {
    let t = text.trim_start_matches('\u{feff}').trim();
    if t.starts_with('[') || t.starts_with('{') {
        let v: serde_json::Value = serde_json::from_str(t).map_err(|e| format!("not valid JSON: {e}"))?;
        let mut out = Vec::new();
        collect_ids(&v, &mut out);
        if out.is_empty() {
            return Err("no ids in this JSON (a list of ids, or objects with a `pid`)".into());
        }
        return Ok(crate::distinct::first_seen(out));
    }
    let ids: Vec<String> =
        t.split(['\n', ',']).map(|s| s.trim().trim_end_matches('\r').to_string()).filter(|s| !s.is_empty()).collect();
    if ids.is_empty() {
        return Err("no ids (one per line, or separated by commas)".into());
    }
    Ok(crate::distinct::first_seen(ids))
}

fn collect_ids(v: &serde_json::Value, out: &mut Vec<String>) {
    use serde_json::Value;
    match v {
        Value::String(s) if !s.trim().is_empty() => out.push(s.trim().to_string()),
        Value::Number(n) => out.push(n.to_string()),
        Value::Array(a) => a.iter().for_each(|x| collect_ids(x, out)),
        Value::Object(o) => {
            for key in ["pid", "problem_id", "item", "id"] {
                if let Some(id) = o.get(key).filter(|x| x.is_string() || x.is_number()) {
                    collect_ids(id, out);
                    return;
                }
            }
            for (k, x) in o {
                if !k.starts_with('_') && (x.is_array() || x.is_object()) {
                    collect_ids(x, out);
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_are_validated_and_described() {
        assert!(CellSettings::default().validate().is_ok());
        assert!(CellSettings::default().is_default());
        let both = CellSettings { pool: vec!["prompt".into()], split: vec!["prompt".into()], ..Default::default() };
        assert!(matches!(both.validate(), Err(Error::Setting { setting, .. }) if setting == "pool"));
        let empty = CellSettings { problems: Some(vec![]), ..Default::default() };
        assert!(empty.validate().is_err());
        let s = CellSettings { pool: vec!["prompt".into()], common_items: true, ..Default::default() };
        assert_eq!(s.describe(), "pooled: prompt; common items only");
    }

    #[test]
    fn item_lists_in_every_shape() {
        assert_eq!(parse_item_list("a\nb\r\n\nc\n").unwrap(), ["a", "b", "c"]);
        assert_eq!(parse_item_list("a, b,a").unwrap(), ["a", "b"]);
        assert_eq!(parse_item_list("[\"x\", 3]").unwrap(), ["x", "3"]);
        let keys = r#"{"_provenance": {"source": "s"}, "arith": [{"pid": "notebooks", "correct": 46}], "logic": [{"pid": "roles"}]}"#;
        assert_eq!(parse_item_list(keys).unwrap(), ["notebooks", "roles"]);
        assert!(parse_item_list("  \n").is_err());
        assert!(parse_item_list("{\"a\": 1}").is_err());
    }

    #[test]
    fn examples_are_counted_past_five() {
        assert_eq!(some_of(&["a", "b"]), "a, b");
        assert_eq!(some_of(&["1", "2", "3", "4", "5", "6", "7"]), "1, 2, 3, 4, 5, … (7 in all)");
    }
}
