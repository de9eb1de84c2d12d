//! Positional pairing for rows that carry no item id (BriefBench's per-attempt rows): opt-in
//! (`--pair-by-position`), and only after checking that the columns defining the order agree
//! row by row across arms — the k-th row of every arm must describe the same item.
//!
//! Each row gets `position` = its rank (1-based) among its arm's rows in file order; the item
//! key becomes `position`. The check compares the order columns at every position: the first
//! disagreement refuses the pairing, naming the position, the arms, the column and both values.

use crate::fields::mention;
use std::collections::BTreeMap;

use super::{ColumnKind, OutcomeTable, Spec};

/// The default order columns: every text column that is neither an arm nor the value, with at
/// most 50 distinct values (descriptions such as `dataset`, `spec_variant`), plus the strata.
pub fn default_order_columns(table: &OutcomeTable, spec: &Spec) -> Vec<String> {
    let mut cols: Vec<String> = table
        .columns
        .iter()
        .filter(|c| c.kind == ColumnKind::Text && c.distinct <= 50 && c.name != "file")
        .filter(|c| !spec.arm.contains(&c.name) && c.name != spec.value && !spec.key.contains(&c.name))
        .map(|c| c.name.clone())
        .collect();
    for s in &spec.strata {
        if !cols.contains(s) && !spec.arm.contains(s) {
            cols.push(s.clone());
        }
    }
    cols
}

/// The table with a `position` column and the spec keyed by it, or why positional pairing is
/// refused.
pub fn by_position(table: &OutcomeTable, spec: &Spec, order: &[String]) -> Result<(OutcomeTable, Spec), String> {
    if spec.arm.is_empty() {
        return Err(format!("positional pairing needs the arm column(s): choose them ({})", mention("arm")));
    }
    let order: Vec<String> = if order.is_empty() { default_order_columns(table, spec) } else { order.to_vec() };
    for c in &order {
        if table.column(c).is_none() {
            return Err(format!("the order column `{c}` is not in the files"));
        }
    }
    let arm_of = |r: &super::OutcomeRow| -> String {
        spec.arm.iter().map(|a| r.fields.get(a).cloned().unwrap_or_default()).collect::<Vec<_>>().join("/")
    };
    let mut out = table.clone();
    let mut count: BTreeMap<String, usize> = BTreeMap::new();
    // position -> (arm, order values) of the first arm seen there
    let mut first: BTreeMap<usize, (String, Vec<String>, usize)> = BTreeMap::new();
    for r in &mut out.rows {
        let arm = arm_of(r);
        let p = count.entry(arm.clone()).or_insert(0);
        *p += 1;
        let values: Vec<String> = order.iter().map(|c| r.fields.get(c).cloned().unwrap_or_default()).collect();
        match first.get(p) {
            None => {
                first.insert(*p, (arm, values, r.line));
            }
            Some((arm0, values0, line0)) => {
                if let Some(i) = values.iter().zip(values0).position(|(a, b)| a != b) {
                    return Err(format!(
                        "row {p} of arm `{arm}` (line {}) has {} = `{}` where row {p} of arm `{arm0}` (line {line0}) has \
                         `{}`: the arms do not list the same items in the same order, so rows cannot be paired by \
                         position. Give the rows an item id ({}), or name the columns that define the order \
                         ({} COL,COL)",
                        r.line,
                        order[i],
                        values[i],
                        values0[i],
                        mention("key"),
                        mention("pair_by_position")
                    ));
                }
            }
        }
        r.fields.insert("position".into(), p.to_string());
        r.values.insert("position".into(), *p as f64);
    }
    out.columns = super::column_infos(
        &out.columns.iter().map(|c| c.name.clone()).chain(std::iter::once("position".to_string())).collect::<Vec<_>>(),
        &out.rows,
    );
    let mut spec = spec.clone();
    spec.key = vec!["position".into()];
    spec.reasons.retain(|r| !r.starts_with("key = ") && !r.starts_with("no column identifies the item"));
    spec.reasons.push(format!(
        "key = `position`: rows paired by their order within each arm (`pair_by_position`), checked equal on {}",
        if order.is_empty() {
            "no column".to_string()
        } else {
            order.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", ")
        }
    ));
    Ok((out, spec))
}
