//! What pairing says when it refuses: the advice behind every [`super::PairingError`] message —
//! which columns could be the item key or the arm, whether rows can only pair by position,
//! which columns vary inside repeated cells, and the one fix to try first. Kept apart from the
//! pairing itself ([`super::pairing`]), which only decides.

use crate::fields::mention;
use std::collections::{BTreeMap, HashMap};

use super::pairing::{ARM_SEP, CellRows, Duplicates, Grouping, ITEM_SEP, PairingOptions, PairingReport};
use super::spec::{self, Spec, truncate};
use super::{ColumnKind, OutcomeTable};

pub(super) fn columns_list(table: &OutcomeTable, skip: &[&str], max: usize) -> String {
    let mut cols: Vec<&super::ColumnInfo> = table
        .columns
        .iter()
        .filter(|c| !skip.contains(&c.name.as_str()) && c.distinct >= 2 && c.kind != ColumnKind::Binary)
        .collect();
    // Id-like names first, then texts, then numbers, each in file order.
    cols.sort_by_key(|c| (!spec::is_id_name(&c.name), c.kind != ColumnKind::Text));
    let mut out: Vec<String> = cols.iter().take(max).map(|c| format!("`{}` ({} values)", c.name, c.distinct)).collect();
    if cols.len() > max {
        out.push(format!("… {} more", cols.len() - max));
    }
    if out.is_empty() { "none".into() } else { out.join(", ") }
}

pub(super) fn arm_candidates(table: &OutcomeTable, skip: &[&str]) -> String {
    let out = arm_candidate_list(table, skip);
    if out.is_empty() { "none".into() } else { out.join(", ") }
}

/// The columns that could name the arms (at most six, arm-like names first), each with its
/// number of values: empty when no column could.
pub(super) fn arm_candidate_list(table: &OutcomeTable, skip: &[&str]) -> Vec<String> {
    let mut c: Vec<&super::ColumnInfo> = table
        .columns
        .iter()
        .filter(|c| c.distinct >= 2 && c.distinct <= 50 && !skip.contains(&c.name.as_str()))
        .filter(|c| c.kind == ColumnKind::Text || spec::is_arm_name(&c.name))
        .collect();
    c.sort_by_key(|c| !spec::is_arm_name(&c.name));
    c.iter().take(6).map(|c| format!("`{}` ({} values)", c.name, c.distinct)).collect()
}

/// A hint for tables without an item id: rows that can only pair by their position.
pub(super) fn position_hint(table: &OutcomeTable, spec: &Spec) -> Option<String> {
    if table.rows.is_empty() || table.columns.iter().any(|c| spec::is_id_name(&c.name) && c.distinct >= 2) {
        return None;
    }
    if table.format == super::OutcomeFormat::LocomoAnswers && spec.key == ["conversation", "position"] {
        return Some(
            "These LoCoMo answer files carry no question id: their questions are matched across files by \
             conversation and question text, so an item an arm misses is a question its file does not ask."
                .into(),
        );
    }
    let arm: Vec<&str> = spec.arm.iter().map(String::as_str).collect();
    if arm.is_empty() {
        return Some(
            "None of the columns looks like an item id (item, id, question_id, task_id, pid, …): add one to every row."
                .into(),
        );
    }
    // Arm of each row, and row counts per arm (first-seen order).
    let mut arm_names: Vec<String> = Vec::new();
    let mut arm_lookup: HashMap<String, usize> = HashMap::new();
    let mut per_arm: Vec<usize> = Vec::new();
    let arm_ids: Vec<usize> = table
        .rows
        .iter()
        .map(|r| {
            let a = arm.iter().map(|a| r.fields.get(*a).map_or("", String::as_str)).collect::<Vec<_>>().join(ARM_SEP);
            let id = match arm_lookup.get(&a) {
                Some(&id) => id,
                None => {
                    arm_lookup.insert(a.clone(), arm_names.len());
                    arm_names.push(a);
                    per_arm.push(0);
                    arm_names.len() - 1
                }
            };
            per_arm[id] += 1;
            id
        })
        .collect();
    // A grouping column within which every arm has the same number of rows.
    let mut best: Option<Grouping> = None;
    for c in &table.columns {
        let name = c.name.as_str();
        if arm.contains(&name) || name == spec.value || c.distinct < 2 || c.distinct > 50 || c.missing > 0 {
            continue;
        }
        let mut counts: HashMap<(&str, usize), usize> = HashMap::new();
        for (r, a) in table.rows.iter().zip(&arm_ids) {
            let g = r.fields.get(name).map_or("", String::as_str);
            *counts.entry((g, *a)).or_default() += 1;
        }
        let mut per_group: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        for ((g, _), n) in &counts {
            per_group.entry(g).or_default().push(*n);
        }
        let balanced = per_group.values().all(|v| v.iter().all(|n| *n == v[0] && *n > 1));
        if balanced && best.as_ref().is_none_or(|b| c.distinct > b.1) {
            let sizes = per_group.iter().map(|(g, v)| (g.to_string(), v[0])).collect();
            best = Some((name, c.distinct, sizes));
        }
    }
    let per_arm: Vec<(String, usize)> = arm_names.into_iter().zip(per_arm).collect();
    let how = match best {
        Some((col, _, sizes)) => format!(
            "the rows seem to pair only by their order within each (`{col}`, arm) group (rows per arm: {})",
            sizes.iter().map(|(g, n)| format!("{col} = {}: {n}", truncate(g, 20))).collect::<Vec<_>>().join(", ")
        ),
        None if per_arm.iter().all(|(_, n)| *n == 1) => {
            "every arm has a single row: these look like aggregate results, not per-item outcomes".to_string()
        }
        None if per_arm.iter().all(|(_, n)| *n == per_arm[0].1) => {
            format!("the rows seem to pair only by their order within each arm ({} rows per arm)", per_arm[0].1)
        }
        None => format!(
            "the arms do not even hold the same number of rows ({})",
            per_arm.iter().take(10).map(|(a, n)| format!("{a}: {n}")).collect::<Vec<_>>().join(", ")
        ),
    };
    Some(format!(
        "None of the columns looks like an item id (item, id, question_id, task_id, pid, …): {how}. memaudit does \
         not pair rows by position unless asked: add an item id to every row (e.g. `task_id`) and use it as the key, \
         or pair by position with {} (refused unless the columns describing each row agree row by row across arms).",
        mention("pair_by_position")
    ))
}

pub(super) fn no_key_message(table: &OutcomeTable, spec: &Spec) -> String {
    let mut skip: Vec<&str> = spec.arm.iter().map(String::as_str).collect();
    skip.push(spec.value.as_str());
    let mut m = format!(
        "no pairing key: no column identifies the item in {} (found columns: {}). Choose the column(s) that name \
         the item ({}).",
        table.name,
        columns_list(table, &skip, 10),
        mention("key")
    );
    if let Some(h) = position_hint(table, spec) {
        m.push(' ');
        m.push_str(&h);
    }
    m
}

/// Columns (not key, arm or value) whose values differ within repeated cells, most telling
/// first: those that differ in every repeated cell and have few values.
pub(super) fn varying_columns(table: &OutcomeTable, spec: &Spec, dup_cells: &[&CellRows]) -> Vec<String> {
    let mut out: Vec<(bool, bool, usize, String)> = Vec::new();
    for c in &table.columns {
        let name = &c.name;
        if spec.key.contains(name) || spec.arm.contains(name) || *name == spec.value {
            continue;
        }
        if spec.judgment.is_some() && name.starts_with(&format!("{}.", spec.value)) {
            continue;
        }
        let mut varies_in = 0;
        for rows in dup_cells.iter().take(2000) {
            let first = table.rows[rows[0].0].fields.get(name);
            if rows.iter().any(|(ri, _)| table.rows[*ri].fields.get(name) != first) {
                varies_in += 1;
            }
        }
        if varies_in > 0 {
            let all = varies_in == dup_cells.len().min(2000);
            out.push((!all, !spec::is_id_name(name), c.distinct, name.clone()));
        }
    }
    out.sort();
    out.into_iter().map(|(_, _, _, n)| n).collect()
}

#[allow(clippy::too_many_arguments)]
pub(super) fn fix_message(
    table: &OutcomeTable,
    spec: &Spec,
    r: &PairingReport,
    opts: &PairingOptions,
    values: &[Vec<Option<f64>>],
    has_row: &[Vec<bool>],
    item_keys: &[Vec<String>],
) -> String {
    let key_text = spec.key.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ");
    let mut skip: Vec<&str> = spec.arm.iter().map(String::as_str).collect();
    skip.extend(spec.key.iter().map(String::as_str));
    skip.push(spec.value.as_str());
    if r.n_items == 0 {
        return if r.rows_filtered > 0 {
            format!("no rows left after the filter ({} rows left out)", r.rows_filtered)
        } else {
            "no rows to pair".to_string()
        };
    }
    if r.n_arms < 2 {
        let only = r.arms.first().map_or(String::new(), |a| a.arm.clone());
        return format!(
            "only one arm (`{only}`) under arm = {}: a paired comparison needs at least two; choose the column that \
             names the arms (candidates: {})",
            spec.arm.iter().map(|a| format!("`{a}`")).collect::<Vec<_>>().join(" × "),
            arm_candidates(table, &skip)
        );
    }
    let d = &r.duplicates;
    if d.cells > 0 && opts.duplicates == Duplicates::Refuse {
        let mut m = format!(
            "the pairing key ({key_text}) does not identify one row per arm: {} (item, arm) cells hold several rows \
             ({} extra rows)",
            d.cells, d.surplus_rows
        );
        if let Some(e) = d.examples.first() {
            let lines = e.rows.iter().take(6).map(|l| l.line.map_or("?".into(), |x| x.to_string())).collect::<Vec<_>>();
            m.push_str(&format!(
                ", e.g. item `{}`, arm `{}`: {} lines {}",
                truncate(&e.item, 60),
                e.arm,
                e.rows.first().map_or("", |l| l.file.as_str()),
                lines.join(", ")
            ));
        }
        m.push('.');
        let arm_cols: Vec<&str> = spec.arm.iter().map(String::as_str).collect();
        let key_cols: Vec<&str> = spec.key.iter().map(String::as_str).collect();
        let index = spec::KeyIndex::new(table);
        let mut fixes: Vec<String> = Vec::new();
        for c in d.varying_columns.iter().take(8) {
            let mut key = key_cols.clone();
            key.push(c);
            let s = index.stats(&key, &arm_cols);
            if s.surplus == 0 && s.complete_items > 0 {
                fixes.push(format!(
                    "adding `{c}` ({} {}) gives one row per (item, arm), {} of {} items in every arm",
                    mention("key"),
                    key.join(","),
                    s.complete_items,
                    s.items
                ));
            }
        }
        if fixes.is_empty() {
            let mut exclude = vec![spec.value.as_str()];
            if spec.judgment.is_some() {
                exclude.extend(
                    table
                        .columns
                        .iter()
                        .map(|c| c.name.as_str())
                        .filter(|n| n.starts_with(&format!("{}.", spec.value))),
                );
            }
            let added = spec::extend_key(table, &index, &key_cols, &arm_cols, &exclude);
            if let Some((_, _, _, s)) = added.last()
                && s.surplus == 0
                && s.complete_items > 0
            {
                let names: Vec<&str> = added.iter().map(|a| a.0).collect();
                let mut key = key_cols.clone();
                key.extend(&names);
                fixes.push(format!(
                    "adding {} ({} {}) gives one row per (item, arm), {} of {} items in every arm",
                    names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(" and "),
                    mention("key"),
                    key.join(","),
                    s.complete_items,
                    s.items
                ));
            }
        }
        if !d.varying_columns.is_empty() {
            let shown: Vec<String> = d
                .varying_columns
                .iter()
                .take(6)
                .map(|c| format!("`{c}` ({} values)", table.column(c).map_or(0, |x| x.distinct)))
                .collect();
            m.push_str(&format!(" Columns that differ within those rows: {}.", shown.join(", ")));
        }
        if fixes.is_empty() {
            m.push_str(" No combination of the other columns tells the rows apart.");
        } else {
            m.push_str(&format!(" Fix: {}.", fixes.join("; ")));
        }
        m.push_str(&format!(
            " Or set {} to `mean` to average the repeated rows of each (item, arm) (e.g. several seeds per item): \
             the value becomes a mean.",
            mention("aggregate")
        ));
        if let Some(h) = position_hint(table, spec) {
            m.push(' ');
            m.push_str(&h);
        }
        return m;
    }
    // Incomplete items.
    let worst = r
        .arms
        .iter()
        .enumerate()
        .max_by_key(|(_, a)| (a.items_without_row + a.items_without_value, std::cmp::Reverse(a.arm.clone())));
    let mut m = String::new();
    if let Some((a, cov)) = worst {
        let first_missing = |want_row: bool| {
            (0..r.n_items)
                .find(|&i| if want_row { !has_row[i][a] } else { has_row[i][a] && values[i][a].is_none() })
                .map(|i| truncate(&item_keys[i].join(ITEM_SEP), 60))
                .unwrap_or_default()
        };
        let mut parts = Vec::new();
        if cov.items_without_row > 0 {
            parts.push(format!("has no rows for {} items (first: `{}`)", cov.items_without_row, first_missing(true)));
        }
        if cov.items_without_value > 0 {
            parts.push(format!(
                "has no value for {} items (empty cells, e.g. not eligible: missing, not 0; first: `{}`)",
                cov.items_without_value,
                first_missing(false)
            ));
        }
        m.push_str(&format!("arm `{}` {}", cov.arm, parts.join(" and ")));
        let others = r.arms_with_different_items.len().saturating_sub(1);
        if others > 0 {
            m.push_str(&format!(" ({others} other arms also miss items)"));
        }
        m.push_str(&format!("; {} of {} items have a value in every arm", r.complete_items, r.n_items));
    }
    let share = r.complete_items as f64 / r.n_items.max(1) as f64;
    let rows_all_there = r.arms.iter().all(|a| a.items_without_row == 0);
    if rows_all_there {
        m.push_str(
            ". Every item has a row in every arm, but some rows have no value (missing, never 0): compare only arms \
             that share their items (e.g. filter the rows to one value of an arm column)",
        );
    } else if share < 0.5 {
        m.push_str(&format!(
            ". The key ({key_text}) may not identify the item across arms: pick a pairing key that does (found \
             columns: {})",
            columns_list(table, &skip, 10)
        ));
    } else {
        m.push_str(&format!(
            ". Pick a pairing key that identifies the item (found columns: {})",
            columns_list(table, &skip, 10)
        ));
    }
    if r.complete_items > 0 {
        m.push_str(&format!(
            ", or use {} to compare on the {} items present in every arm.",
            mention("allow_incomplete"),
            r.complete_items
        ));
    } else {
        m.push_str(&format!("; no item has a value in every arm, so {} cannot help.", mention("allow_incomplete")));
    }
    if let Some(h) = position_hint(table, spec) {
        m.push(' ');
        m.push_str(&h);
    }
    let unscored = table.warnings.count(super::OutcomeWarningKind::UnscoredSample);
    if unscored > 0 {
        m.push_str(&format!(
            " {unscored} Inspect samples carry no score (the log was run without a scorer or not yet scored): score \
             it (`inspect score LOG`) or leave that log out."
        ));
    }
    m
}
