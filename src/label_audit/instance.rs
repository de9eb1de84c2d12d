//! One labelled item as the label files state it (`memaudit labels --show-item ITEM`, the
//! labels page's item view): the text a rater labelled and each rater's label, read again from
//! the files the labels came from.
//!
//! A label file often carries what was labelled beside the labels (the question, the credited
//! passage, the judge's reason). The agreement tables reduce an item to one class per rater;
//! [`item_text`] gives the item back as the files state it, in the shape of every instance
//! view ([`ItemText`]): the cells all of the item's rows share once (the question, the
//! passage), then each rater's rows with their `FILE:LINE`, the label cell first, then the
//! cells that differ (a judge's reason).
//!
//! The files are read as [`super::read`] read them, with the columns each [`Reading`] records:
//! the same item names (item columns joined with `/`, or `FILE:LINE` for a wide file read by
//! its lines), the same raters (a long file's rater column, a wide file's rater columns; raters
//! left out by the `raters` setting are left out here too). A label is shown as written, before
//! any recode, and a missing one as its empty or `NA` cell: nothing is merged or guessed.

use super::read::Reading;
use crate::error::Result;
use crate::ingest::InputFile;
use crate::ingest::table::rows;
use crate::report::instance::{ArmText, ItemText, ROWS_PER_ARM, RowText, TextField, cell};

/// One (row, rater) of the item: where it stands, the label cell, the row's other cells.
struct Found<'a> {
    rater: usize,
    at: String,
    label: TextField,
    /// The row's cells besides the item, the rater and the labels (column, text), non-empty.
    cells: Vec<(&'a str, &'a str)>,
}

/// The rows of `item` in `files` (`files[i]` read as `readings[i]`), per rater of `raters` in
/// that order; `raters_kept` is the `raters` setting (empty: every rater). `Ok(None)` when no
/// row names the item.
pub fn item_text(
    files: &[InputFile],
    readings: &[Reading],
    raters: &[String],
    raters_kept: &[String],
    item: &str,
) -> Result<Option<ItemText>> {
    // Each file's rows, read once and kept while the item's cells borrow from them.
    let tables: Vec<_> =
        files.iter().zip(readings).map(|(f, r)| rows(f).map(|t| (f, r, t))).collect::<std::result::Result<_, _>>()?;
    let mut found: Vec<Found<'_>> = Vec::new();
    let mut key: Vec<String> = Vec::new();
    for (file, reading, table) in &tables {
        let h = &table.headers;
        let col = |name: &str| h.iter().position(|c| c == name);
        let item_cols: Vec<usize> = reading.item.iter().filter_map(|c| col(c)).collect();
        let rater_col = reading.rater.as_deref().and_then(col);
        let label_col = reading.label.as_deref().and_then(col);
        let rater_cols: Vec<usize> = reading.rater_columns.iter().filter_map(|c| col(c)).collect();
        let hidden = |i: usize| {
            item_cols.contains(&i) || Some(i) == rater_col || Some(i) == label_col || rater_cols.contains(&i)
        };
        for (line, rec) in &table.records {
            let id = if reading.items_by_line {
                format!("{}:{line}", file.name)
            } else {
                item_cols.iter().map(|&i| rec[i].as_str()).collect::<Vec<_>>().join("/")
            };
            if id != item {
                continue;
            }
            if key.is_empty() {
                key = if reading.items_by_line { vec!["FILE:LINE".into()] } else { reading.item.clone() };
            }
            let cells: Vec<(&str, &str)> = (0..h.len())
                .filter(|&i| !hidden(i) && !rec[i].is_empty())
                .map(|i| (h[i].as_str(), rec[i].as_str()))
                .collect();
            let at = format!("{}:{line}", file.name);
            // (rater, its label's column and cell) of this row.
            let labels: Vec<(&str, usize)> = match (rater_col, label_col) {
                (Some(r), Some(l)) => vec![(rec[r].as_str(), l)],
                _ => rater_cols.iter().map(|&c| (h[c].as_str(), c)).collect(),
            };
            for (name, c) in labels {
                if !raters_kept.is_empty() && !raters_kept.iter().any(|k| k == name) {
                    continue;
                }
                let Some(rater) = raters.iter().position(|r| r == name) else { continue };
                found.push(Found { rater, at: at.clone(), label: cell(&h[c], &rec[c]), cells: cells.clone() });
            }
        }
    }
    if found.is_empty() {
        return Ok(None);
    }
    // Shared: a column every row of the item holds with one text.
    let first = &found[0].cells;
    let shared: Vec<(&str, &str)> =
        first.iter().copied().filter(|c| found.iter().all(|f| f.cells.contains(c))).collect();
    let mut out = ItemText {
        item: item.to_string(),
        key,
        shared: shared.iter().map(|(c, t)| cell(c, t)).collect(),
        arms: raters.iter().map(|r| ArmText { arm: r.clone(), rows: Vec::new(), more_rows: 0 }).collect(),
    };
    for f in found {
        let arm = &mut out.arms[f.rater];
        if arm.rows.len() >= ROWS_PER_ARM {
            arm.more_rows += 1;
            continue;
        }
        let own = f.cells.iter().filter(|c| !shared.contains(c)).map(|(c, t)| cell(c, t));
        arm.rows.push(RowText { at: f.at, fields: std::iter::once(f.label).chain(own).collect() });
    }
    // A rater left out by the `raters` setting is not shown; every kept rater is, rows or not.
    if !raters_kept.is_empty() {
        out.arms.retain(|a| raters_kept.contains(&a.arm));
    }
    Ok(Some(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capability::{Capability, FileRole, RoleFile};
    use crate::label_audit::{Labels, LabelsRequest};

    fn loaded(files: &[(&str, &str)], request: &LabelsRequest) -> (Vec<InputFile>, super::super::unit::LoadedLabels) {
        let inputs: Vec<InputFile> = files.iter().map(|(n, t)| InputFile::new(*n, t.as_bytes().to_vec())).collect();
        let roles: Vec<RoleFile> = inputs
            .iter()
            .map(|f| RoleFile { file: f.clone(), role: FileRole::Labels, detected: FileRole::Labels })
            .collect();
        let l = Labels::load(&roles, request, &mut |_, _, _| {}).unwrap();
        (inputs, l)
    }

    fn show(files: &[(&str, &str)], request: &LabelsRequest, item: &str) -> Option<ItemText> {
        let (inputs, l) = loaded(files, request);
        item_text(&inputs, &l.set.readings, &l.set.raters, &request.raters, item).unwrap()
    }

    fn texts(f: &[TextField]) -> Vec<(&str, &str)> {
        f.iter().map(|f| (f.column.as_str(), f.text.as_str())).collect()
    }

    const LONG: &str = "item,rater,label,question,reason\n\
        q1,alice,supports,Where is the club?,names it\n\
        q1,bob,partial,Where is the club?,vague\n\
        q2,alice,supports,When?,\n\
        q2,bob,supports,When?,\n";

    #[test]
    fn a_long_file_shows_the_shared_question_then_each_raters_label_and_reason() {
        let x = show(&[("labels.csv", LONG)], &LabelsRequest::default(), "q1").unwrap();
        assert_eq!(x.key, ["item"]);
        assert_eq!(texts(&x.shared), [("question", "Where is the club?")]);
        assert_eq!(x.arms.iter().map(|a| a.arm.as_str()).collect::<Vec<_>>(), ["alice", "bob"]);
        assert_eq!(x.arms[0].rows[0].at, "labels.csv:2");
        assert_eq!(texts(&x.arms[0].rows[0].fields), [("label", "supports"), ("reason", "names it")]);
        assert_eq!(texts(&x.arms[1].rows[0].fields), [("label", "partial"), ("reason", "vague")]);
    }

    #[test]
    fn agreeing_labels_stay_with_their_raters_and_empty_cells_are_left_out() {
        let x = show(&[("labels.csv", LONG)], &LabelsRequest::default(), "q2").unwrap();
        assert_eq!(texts(&x.shared), [("question", "When?")], "the label is never a shared cell");
        for a in &x.arms {
            assert_eq!(texts(&a.rows[0].fields), [("label", "supports")]);
        }
    }

    #[test]
    fn a_wide_file_gives_each_rater_its_column_and_the_rows_cells_are_shared() {
        let wide = "id,question,alice,bob\nq1,Where?,supports,does_not_support\nq2,When?,partial,partial\n";
        // Every column besides the item is a rater unless the raters are named.
        let x = show(&[("wide.csv", wide)], &LabelsRequest::default(), "q1").unwrap();
        assert_eq!(x.arms.iter().map(|a| a.arm.as_str()).collect::<Vec<_>>(), ["question", "alice", "bob"]);
        assert!(x.shared.is_empty());
        let named = LabelsRequest { raters: vec!["alice".into(), "bob".into()], ..LabelsRequest::default() };
        let x = show(&[("wide.csv", wide)], &named, "q1").unwrap();
        assert_eq!(texts(&x.shared), [("question", "Where?")]);
        assert_eq!(texts(&x.arms[0].rows[0].fields), [("alice", "supports")]);
        assert_eq!(texts(&x.arms[1].rows[0].fields), [("bob", "does_not_support")]);
        assert_eq!(x.arms[1].rows[0].at, "wide.csv:2");
    }

    #[test]
    fn one_file_per_rater_items_joined_and_raters_left_out_are_not_shown() {
        let request = LabelsRequest { item: vec!["run".into(), "q".into()], ..LabelsRequest::default() };
        let long = "run,q,rater,label,passage\nr1,0,alice,supports,text A\nr1,0,bob,partial,text A\nr1,0,carol,,text A\nr1,1,carol,partial,text B\n";
        let x = show(&[("a.csv", long)], &request, "r1/0").unwrap();
        assert_eq!(x.key, ["run", "q"]);
        assert_eq!(x.arms.len(), 3);
        assert_eq!(texts(&x.arms[2].rows[0].fields), [("label", "")], "a missing label is shown as its cell");
        let kept = LabelsRequest { raters: vec!["bob".into(), "alice".into()], ..request };
        let x = show(&[("a.csv", long)], &kept, "r1/0").unwrap();
        assert_eq!(x.arms.iter().map(|a| a.arm.as_str()).collect::<Vec<_>>(), ["bob", "alice"]);
    }

    #[test]
    fn an_unknown_item_is_none_and_a_prefix_is_not_the_item() {
        assert!(show(&[("labels.csv", LONG)], &LabelsRequest::default(), "q3").is_none());
        assert!(show(&[("labels.csv", LONG)], &LabelsRequest::default(), "q").is_none());
    }

    #[test]
    fn rows_of_one_rater_past_the_cap_are_counted() {
        let mut csv = String::from("item,rater,label\n");
        for _ in 0..ROWS_PER_ARM + 3 {
            csv.push_str("q1,alice,supports\n");
        }
        let request = LabelsRequest { repeats: crate::cells::Repeats::First, ..LabelsRequest::default() };
        let x = show(&[("many.csv", &csv)], &request, "q1").unwrap();
        assert_eq!((x.arms[0].rows.len(), x.arms[0].more_rows), (ROWS_PER_ARM, 3));
    }
}
