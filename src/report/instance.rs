//! One item as the files state it: the instance view behind a number, shared by every
//! analysis whose items carry text (the comparison's arms, the labels' raters).
//!
//! An analysis reduces each item to values; the rows it read also hold the question, the gold
//! answer, each arm's answer and each judge's verdict. An [`ItemText`] gives them back for one
//! item: the cells every row of the item holds with the same text once ([`ItemText::shared`]),
//! then each arm's (or rater's) rows with where they stand (`FILE:LINE`) and the cells that
//! differ. Nothing is guessed or merged: every row is listed, a text longer than [`TEXT_CHARS`]
//! characters is cut with its full length stated ([`cell`]).
//!
//! **Invariant**: plain data and its one table ([`table`]); the analyses fill it.

use serde::{Deserialize, Serialize};

/// The characters of one cell shown at most; a longer text is cut and its length stated.
pub const TEXT_CHARS: usize = 4_000;

/// The rows read for one item of one arm at most; more are counted in [`ArmText::more_rows`].
pub const ROWS_PER_ARM: usize = 20;

/// The question "show this item's rows as the files state them" (`--show-item ITEM` of
/// `labels` and `answers`): the item as the analysis's items table names it (a query id for the
/// answers, an item name for the labels).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShowItem {
    pub item: String,
}

/// One cell's text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TextField {
    /// The column (nested JSON keys joined with `.`).
    pub column: String,
    /// Its text, cut at [`TEXT_CHARS`] characters.
    pub text: String,
    /// The text's full length in characters, when it was cut.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chars: Option<usize>,
}

/// One row of an arm's item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RowText {
    /// Where the row stands: `FILE:LINE`.
    pub at: String,
    /// Its cells that are not shared by every row of the item, in column order.
    pub fields: Vec<TextField>,
}

/// One arm's (labels: one rater's) rows of the item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ArmText {
    /// The arm, as the comparison names it (labels: the rater).
    pub arm: String,
    pub rows: Vec<RowText>,
    /// Rows of this (item, arm) past [`ROWS_PER_ARM`], not shown.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub more_rows: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// One item's text (`memaudit compare --show-item ITEM`, `memaudit labels --show-item ITEM`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ItemText {
    /// The item, as the analysis names it (a comparison: its key columns' texts joined with
    /// ` | `; labels: with `/`).
    pub item: String,
    /// The key columns that name it.
    pub key: Vec<String>,
    /// The cells every row of the item holds with the same text, in column order.
    pub shared: Vec<TextField>,
    /// Each arm asked for (labels: each rater), in the order asked; one with no row for the
    /// item has none.
    pub arms: Vec<ArmText>,
}

/// `text` as the cell of `column`: cut at [`TEXT_CHARS`] characters, its length stated when cut.
pub fn cell(column: &str, text: &str) -> TextField {
    let chars = text.chars().count();
    if chars <= TEXT_CHARS {
        return TextField { column: column.to_string(), text: text.to_string(), chars: None };
    }
    let cut: String = text.chars().take(TEXT_CHARS).collect();
    TextField { column: column.to_string(), text: format!("{cut}…"), chars: Some(chars) }
}

/// One item's text as a table, a row per cell: `who` (`arm` or `rater`; empty for the shared
/// cells), `at` (`FILE:LINE`, empty for the shared cells), `column`, `text` (`--show-item ITEM
/// --format csv` and the page's export).
pub fn table(t: &ItemText, who: &str) -> super::Table {
    let shared = t.shared.iter().map(|f| vec![String::new(), String::new(), f.column.clone(), f.text.clone()]);
    let own = t.arms.iter().flat_map(|a| {
        a.rows.iter().flat_map(move |r| {
            r.fields.iter().map(move |f| vec![a.arm.clone(), r.at.clone(), f.column.clone(), f.text.clone()])
        })
    });
    super::Table {
        name: "item_text".into(),
        headers: vec![who.into(), "at".into(), "column".into(), "text".into()],
        rows: shared.chain(own).collect(),
        docs: Default::default(),
    }
}
