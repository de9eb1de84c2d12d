//! Each arm's values without pairing: every row (after the spec's filter) with a value is one
//! observation of its arm. For files whose rows carry no item id (BriefBench's per-attempt
//! rows) this is all that can be said without assuming an order; it is also given with every
//! refused pairing, so per-arm intervals are always available.

use serde::{Deserialize, Serialize};

use super::pairing::{PairingError, check_spec, row_value, value_label};
use super::{OutcomeTable, OutcomeWarnings, Spec};

/// One arm's values in row order (of one group of its rows, when grouped).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ArmValues {
    pub arm: String,
    /// The group (`category=2`) when the arm's rows are also taken group by group.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    pub values: Vec<f64>,
    /// Rows of the arm without a value (missing, or no judgment).
    pub missing: usize,
}

impl ArmValues {
    /// The arm, and its group after a `·` when it has one (`memobase · category=2`).
    pub fn label(&self) -> String {
        group_label(&self.arm, self.group.as_deref())
    }
}

/// `arm · group`, or the arm alone.
pub fn group_label(arm: &str, group: Option<&str>) -> String {
    match group {
        Some(g) => format!("{arm} · {g}"),
        None => arm.to_string(),
    }
}

/// The text a row without a value in the grouping column is grouped under.
const NO_GROUP_VALUE: &str = "(no value)";

/// The values per arm (arms in first-seen order) and what the value is, in words.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UnpairedValues {
    pub value: String,
    pub arms: Vec<ArmValues>,
    pub rows_filtered: usize,
    pub warnings: OutcomeWarnings,
}

/// Groups the rows of `table` by arm under `spec` (the key is not used); with `per`, each
/// arm's rows are also taken group by group of that column (after the arm's own entry, groups
/// in first-seen order). Without an arm column every row is one observation of one arm, named
/// after the file. Fails when the arm, value or `per` column does not fit the table, or a value
/// is not a number (naming file, line, field).
pub fn arm_values(table: &OutcomeTable, spec: &Spec, per: Option<&str>) -> Result<UnpairedValues, PairingError> {
    let source = check_spec(table, spec, false)?;
    if let Some(c) = per
        && table.column(c).is_none()
    {
        return Err(PairingError::Spec(format!(
            "per: there is no column `{c}` in {} to group by (columns: {})",
            table.name,
            table.columns.iter().map(|c| format!("`{}`", c.name)).collect::<Vec<_>>().join(", ")
        )));
    }
    let one_arm = spec.arm.is_empty().then(|| spec.shown_arm(crate::ingest::file_stem(&table.name)));
    let mut warnings = OutcomeWarnings::default();
    let mut arms: Vec<ArmValues> = Vec::new();
    let mut index: std::collections::HashMap<(String, Option<String>), usize> = Default::default();
    let mut rows_filtered = 0;
    for row in &table.rows {
        if !spec.keeps(row) {
            rows_filtered += 1;
            continue;
        }
        // A row without an arm value cannot be placed: the pairing's refusal names it.
        let arm = match &one_arm {
            Some(a) => a.clone(),
            None => match spec.arm_label(row) {
                Some(a) => spec.shown_arm(a),
                None => continue,
            },
        };
        let value = row_value(table, row, &source, &mut warnings)?;
        let group = per.map(|c| format!("{c}={}", row.fields.get(c).map_or(NO_GROUP_VALUE, String::as_str)));
        let places = std::iter::once(None).chain(group.map(Some));
        for g in places {
            let j = *index.entry((arm.clone(), g.clone())).or_insert_with(|| {
                arms.push(ArmValues { arm: arm.clone(), group: g, values: Vec::new(), missing: 0 });
                arms.len() - 1
            });
            match value {
                Some(v) => arms[j].values.push(v),
                None => arms[j].missing += 1,
            }
        }
    }
    // Each arm's own entry first, then its groups.
    let order: std::collections::HashMap<String, usize> =
        arms.iter().filter(|a| a.group.is_none()).enumerate().map(|(i, a)| (a.arm.clone(), i)).collect();
    arms.sort_by_key(|a| (order.get(&a.arm).copied(), a.group.is_some()));
    Ok(UnpairedValues { value: value_label(spec, &source, false), arms, rows_filtered, warnings })
}

#[cfg(test)]
mod tests {
    use super::super::{ReadOptions, read_outcomes};
    use super::*;
    use crate::ingest::InputFile;

    #[test]
    fn one_file_without_an_arm_column_is_one_arm_taken_whole_and_by_group() {
        let csv = "item,category,correct\nq1,x,1\nq2,y,0\nq3,x,0\nq4,,1\nq5,y,\n";
        let table =
            read_outcomes(&InputFile::new("runs/judge.csv", csv.as_bytes().to_vec()), &ReadOptions::default()).unwrap();
        let spec = Spec { value: "correct".into(), ..Spec::default() };
        let u = arm_values(&table, &spec, Some("category")).unwrap();
        let got: Vec<(String, Vec<f64>, usize)> =
            u.arms.iter().map(|a| (a.label(), a.values.clone(), a.missing)).collect();
        let want = [
            ("judge", vec![1.0, 0.0, 0.0, 1.0], 1),
            ("judge · category=x", vec![1.0, 0.0], 0),
            ("judge · category=y", vec![0.0], 1),
            ("judge · category=(no value)", vec![1.0], 0),
        ];
        assert_eq!(got, want.map(|(l, v, m)| (l.to_string(), v, m)));
        // A grouping column the rows do not have is refused by name.
        assert!(
            matches!(arm_values(&table, &spec, Some("topic")), Err(PairingError::Spec(m)) if m.contains("`topic`"))
        );
    }

    #[test]
    fn rows_grouped_by_arm_without_a_key() {
        let csv = "system,dataset,pass\nA,x,1\nB,x,0\nA,y,0\nB,y,\nA,z,1\n";
        let table = read_outcomes(&InputFile::new("t.csv", csv.as_bytes().to_vec()), &ReadOptions::default()).unwrap();
        let spec = Spec { arm: vec!["system".into()], value: "pass".into(), ..Spec::default() };
        let u = arm_values(&table, &spec, None).unwrap();
        assert_eq!(u.arms.len(), 2);
        assert_eq!(
            (u.arms[0].arm.as_str(), u.arms[0].values.clone(), u.arms[0].missing),
            ("A", vec![1.0, 0.0, 1.0], 0)
        );
        assert_eq!((u.arms[1].arm.as_str(), u.arms[1].values.clone(), u.arms[1].missing), ("B", vec![0.0], 1));
        let bad = Spec { arm: vec!["nope".into()], value: "pass".into(), ..Spec::default() };
        assert!(matches!(arm_values(&table, &bad, None), Err(PairingError::Spec(m)) if m.contains("`nope`")));
    }
}
