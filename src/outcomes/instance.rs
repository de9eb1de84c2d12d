//! One item as the files state it: the instance view behind a number.
//!
//! A comparison reduces each (item, arm) to a value; the rows it read also hold the question,
//! the gold answer, each arm's answer and each judge's verdict. [`item_text`] gives them back
//! for one item: the columns every row of the item holds with the same text (the question, the
//! gold answer, the category) once, then each arm's rows with where they stand (`FILE:LINE`)
//! and the columns that differ (its answer, its verdicts, its score).
//!
//! Nothing is guessed or merged: every row of the item and arm is listed (several rows of one
//! (item, arm) are shown apart), a missing cell is left out of its row, and a text longer than
//! [`TEXT_CHARS`] characters is cut with its full length stated. The key columns (they are the
//! item) and the arm columns (they are the arm's name) are not repeated.

use super::pairing::ITEM_SEP;
use super::{OutcomeRow, OutcomeTable, Spec};
pub use crate::report::instance::{ArmText, ItemText, ROWS_PER_ARM, RowText, TEXT_CHARS, TextField, cell};

/// The rows of `item` in `arms` (every arm when `arms` is empty) under `spec`, as the files
/// state them. `None` when no row kept by the spec's filter is that item.
pub fn item_text(table: &OutcomeTable, spec: &Spec, item: &str, arms: &[String]) -> Option<ItemText> {
    let arm_of = |row: &OutcomeRow| spec.arm_label(row).map(|a| spec.shown_arm(a));
    // The item as the pairing names it: the key's texts joined with ` | `.
    let is_item = |row: &OutcomeRow| {
        let parts: Option<Vec<&str>> = spec.key.iter().map(|c| row.fields.get(c).map(String::as_str)).collect();
        parts.is_some_and(|p| !p.is_empty() && p.join(ITEM_SEP) == item)
    };
    let mut order: Vec<String> = arms.to_vec();
    let mut found: Vec<(usize, &OutcomeRow)> = Vec::new();
    for row in table.rows.iter().filter(|r| spec.keeps(r) && is_item(r)) {
        let Some(arm) = arm_of(row) else { continue };
        let slot = match order.iter().position(|a| *a == arm) {
            Some(i) => i,
            None if arms.is_empty() => {
                order.push(arm);
                order.len() - 1
            }
            None => continue,
        };
        found.push((slot, row));
    }
    if found.is_empty() {
        return None;
    }
    let hidden: Vec<&str> = spec.key.iter().chain(&spec.arm).map(String::as_str).collect();
    let columns: Vec<&str> = table.columns.iter().map(|c| c.name.as_str()).filter(|c| !hidden.contains(c)).collect();
    // Shared: present in every row with one text.
    let shared: Vec<&str> = columns
        .iter()
        .copied()
        .filter(|c| {
            let first = found[0].1.fields.get(*c);
            first.is_some() && found.iter().all(|(_, r)| r.fields.get(*c) == first)
        })
        .collect();
    let mut out = ItemText {
        item: item.to_string(),
        key: spec.key.clone(),
        shared: shared.iter().filter_map(|c| found[0].1.fields.get(*c).map(|t| cell(c, t))).collect(),
        arms: order.iter().map(|a| ArmText { arm: a.clone(), rows: Vec::new(), more_rows: 0 }).collect(),
    };
    for (slot, row) in found {
        let arm = &mut out.arms[slot];
        if arm.rows.len() >= ROWS_PER_ARM {
            arm.more_rows += 1;
            continue;
        }
        arm.rows.push(RowText {
            at: format!("{}:{}", table.location(row).file, row.line),
            fields: columns
                .iter()
                .filter(|c| !shared.contains(c))
                .filter_map(|c| row.fields.get(*c).map(|t| cell(c, t)))
                .collect(),
        });
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::InputFile;
    use crate::outcomes::{ReadOptions, read_outcomes};

    fn table(csv: &str) -> OutcomeTable {
        read_outcomes(&InputFile::new("answers.csv", csv.as_bytes().to_vec()), &ReadOptions::default()).unwrap()
    }

    fn spec() -> Spec {
        Spec { key: vec!["qid".into()], arm: vec!["system".into()], value: "correct".into(), ..Spec::default() }
    }

    const CSV: &str = "qid,system,question,gold,answer,correct\n\
        q1,a,Where is the club?,Paris,Paris,1\n\
        q1,b,Where is the club?,Paris,Lyon,0\n\
        q2,a,When?,May,May,1\n\
        q2,b,When?,May,June,0\n\
        q1,b,Where is the club?,Paris,Paris,1\n";

    #[test]
    fn shared_cells_once_then_each_arms_rows_with_their_lines() {
        let t = table(CSV);
        let x = item_text(&t, &spec(), "q1", &["b".into(), "a".into()]).unwrap();
        let shared: Vec<(&str, &str)> = x.shared.iter().map(|f| (f.column.as_str(), f.text.as_str())).collect();
        assert_eq!(shared, [("question", "Where is the club?"), ("gold", "Paris")]);
        assert_eq!(x.arms.iter().map(|a| a.arm.as_str()).collect::<Vec<_>>(), ["b", "a"], "the order asked");
        // b has two rows for q1: both shown, each with its line; neither merged.
        let b: Vec<(&str, Vec<&str>)> = x.arms[0]
            .rows
            .iter()
            .map(|r| (r.at.as_str(), r.fields.iter().map(|f| f.text.as_str()).collect()))
            .collect();
        assert_eq!(b, [("answers.csv:3", vec!["Lyon", "0"]), ("answers.csv:6", vec!["Paris", "1"])]);
        assert_eq!(x.arms[1].rows[0].at, "answers.csv:2");
        assert!(x.arms[1].rows[0].fields.iter().all(|f| f.column != "qid" && f.column != "system"));
    }

    #[test]
    fn every_arm_when_none_is_named_and_none_for_an_unknown_item() {
        let t = table(CSV);
        let x = item_text(&t, &spec(), "q2", &[]).unwrap();
        assert_eq!(x.arms.iter().map(|a| a.arm.as_str()).collect::<Vec<_>>(), ["a", "b"]);
        assert!(item_text(&t, &spec(), "q3", &[]).is_none());
        assert!(item_text(&t, &spec(), "q", &[]).is_none(), "a prefix of an item is not the item");
    }

    #[test]
    fn a_long_text_is_cut_with_its_length_said() {
        let long = "é".repeat(TEXT_CHARS + 5);
        let t = table(&format!("qid,system,answer,correct\nq1,a,{long},1\nq1,b,short,0\n"));
        let x = item_text(&t, &spec(), "q1", &[]).unwrap();
        let f = &x.arms[0].rows[0].fields[0];
        assert_eq!(f.chars, Some(TEXT_CHARS + 5));
        assert_eq!(f.text.chars().count(), TEXT_CHARS + 1, "cut, with an ellipsis");
        assert_eq!(x.arms[1].rows[0].fields[0].chars, None);
    }

    #[test]
    fn a_key_of_several_columns_is_matched_part_by_part() {
        let t = table("conv,pos,system,answer,correct\n0,1,a,x,1\n0,1,b,y,0\n0,12,a,z,1\n");
        let s = Spec { key: vec!["conv".into(), "pos".into()], ..spec() };
        let x = item_text(&t, &s, "0 | 1", &[]).unwrap();
        assert_eq!(x.arms.len(), 2);
        assert_eq!(x.key, ["conv", "pos"]);
        assert!(item_text(&t, &s, "0 | 12", &[]).is_some());
        assert!(item_text(&t, &s, "0 |", &[]).is_none());
    }
}
