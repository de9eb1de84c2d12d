//! Each arm's values without pairing: every row (after the spec's filter) with a value is one
//! observation of its arm. For files whose rows carry no item id (BriefBench's per-attempt
//! rows) this is all that can be said without assuming an order; it is also given with every
//! refused pairing, so per-arm intervals are always available.

use serde::{Deserialize, Serialize};

use super::pairing::{PairingError, check_spec, row_value, value_label};
use super::{OutcomeTable, OutcomeWarnings, Spec};

/// One arm's values in row order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ArmValues {
    pub arm: String,
    pub values: Vec<f64>,
    /// Rows of the arm without a value (missing, or no judgment).
    pub missing: usize,
}

/// The values per arm (arms in first-seen order) and what the value is, in words.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UnpairedValues {
    pub value: String,
    pub arms: Vec<ArmValues>,
    pub rows_filtered: usize,
    pub warnings: OutcomeWarnings,
}

/// Groups the rows of `table` by arm under `spec` (the key is not used). Fails when the arm or
/// value column does not fit the table, or a value is not a number (naming file, line, field).
pub fn arm_values(table: &OutcomeTable, spec: &Spec) -> Result<UnpairedValues, PairingError> {
    let source = check_spec(table, spec, false)?;
    let mut warnings = OutcomeWarnings::default();
    let mut arms: Vec<ArmValues> = Vec::new();
    let mut index: std::collections::HashMap<String, usize> = Default::default();
    let mut rows_filtered = 0;
    for row in &table.rows {
        if !spec.keeps(row) {
            rows_filtered += 1;
            continue;
        }
        // A row without an arm value cannot be placed: the pairing's refusal names it.
        let Some(arm) = spec.arm_label(row).map(|a| spec.shown_arm(a)) else { continue };
        let value = row_value(table, row, &source, &mut warnings)?;
        let j = *index.entry(arm.clone()).or_insert_with(|| {
            arms.push(ArmValues { arm, values: Vec::new(), missing: 0 });
            arms.len() - 1
        });
        match value {
            Some(v) => arms[j].values.push(v),
            None => arms[j].missing += 1,
        }
    }
    Ok(UnpairedValues { value: value_label(spec, &source, false), arms, rows_filtered, warnings })
}

#[cfg(test)]
mod tests {
    use super::super::{ReadOptions, read_outcomes};
    use super::*;
    use crate::ingest::InputFile;

    #[test]
    fn rows_grouped_by_arm_without_a_key() {
        let csv = "system,dataset,pass\nA,x,1\nB,x,0\nA,y,0\nB,y,\nA,z,1\n";
        let table = read_outcomes(&InputFile::new("t.csv", csv.as_bytes().to_vec()), &ReadOptions::default()).unwrap();
        let spec = Spec { arm: vec!["system".into()], value: "pass".into(), ..Spec::default() };
        let u = arm_values(&table, &spec).unwrap();
        assert_eq!(u.arms.len(), 2);
        assert_eq!(
            (u.arms[0].arm.as_str(), u.arms[0].values.clone(), u.arms[0].missing),
            ("A", vec![1.0, 0.0, 1.0], 0)
        );
        assert_eq!((u.arms[1].arm.as_str(), u.arms[1].values.clone(), u.arms[1].missing), ("B", vec![0.0], 1));
        let bad = Spec { arm: vec!["nope".into()], value: "pass".into(), ..Spec::default() };
        assert!(matches!(arm_values(&table, &bad), Err(PairingError::Spec(m)) if m.contains("`nope`")));
    }
}
