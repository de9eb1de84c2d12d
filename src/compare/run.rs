//! From outcome rows to a comparison: pair (refusing unpaired data), pick the resampling
//! column, compare. Shared by the CLI (`memaudit compare`) and the viewer.

use serde::{Deserialize, Serialize};

use super::engine::{CompareInput, CompareSettings, Comparison, Resampling, compare};
use crate::error::Error;
use crate::outcomes::{OutcomeTable, Paired, PairingError, PairingOptions, PairingReport, Spec, pair_for_test};

/// A comparison with the spec that read the rows and the pairing report behind it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompareOutput {
    #[serde(flatten)]
    pub comparison: Comparison,
    /// How the rows were read (key, arm, value, strata) and why.
    pub spec: Spec,
    /// What pairing found (coverage per arm, duplicates, restriction to complete items).
    pub pairing: PairingReport,
}

/// Why a comparison could not run.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CompareError {
    #[error(transparent)]
    Pairing(#[from] PairingError),
    #[error(transparent)]
    Compare(#[from] Error),
}

/// The value of `column` for each item: from the key tuple when it is a key column, else from
/// the item's strata.
fn column_per_item(paired: &Paired, column: &str) -> Result<Vec<String>, Error> {
    if let Some(i) = paired.report.key.iter().position(|k| k == column) {
        return Ok(paired.item_keys.iter().map(|k| k.get(i).cloned().unwrap_or_default()).collect());
    }
    if paired.report.strata.iter().any(|s| s == column) {
        return Ok(paired.strata.iter().map(|m| m.get(column).cloned().unwrap_or_default()).collect());
    }
    Err(Error::setting(
        "resampling",
        format!(
            "column `{column}` is neither a key column ({}) nor a strata column ({}); add it with --strata",
            paired.report.key.join(", "),
            if paired.report.strata.is_empty() { "none".to_string() } else { paired.report.strata.join(", ") }
        ),
    ))
}

/// The compare engine's input from a validated pairing.
pub fn input_from_paired(paired: &Paired, resampling: &Resampling) -> Result<CompareInput, Error> {
    let values = paired
        .dense_values()
        .ok_or_else(|| Error::Empty("the pairing left items without a value in some arm".into()))?;
    let groups = match resampling {
        Resampling::Iid => None,
        Resampling::Stratified(c) | Resampling::Cluster(c) => Some(column_per_item(paired, c)?),
    };
    Ok(CompareInput { arms: paired.arms.clone(), items: paired.items.clone(), values, groups, per: None })
}

/// Pairs `table` under `spec` (refusing unpaired data unless the options allow a restriction)
/// and compares the arms.
pub fn compare_table(
    table: &OutcomeTable,
    spec: &Spec,
    options: &PairingOptions,
    settings: &CompareSettings,
    progress: &mut dyn FnMut(&str, f64),
) -> Result<(CompareOutput, Paired), CompareError> {
    // LoCoMo answer files pair on (conversation, position): refuse when the questions differ.
    if table.format == crate::outcomes::OutcomeFormat::LocomoAnswers
        && spec.key == ["conversation", "position"]
        && let Err(message) = crate::outcomes::locomo::check_questions(table)
    {
        return Err(CompareError::Compare(Error::Unpaired { message, pairing: None, unpaired: None }));
    }
    let paired = pair_for_test(table, spec, options)?;
    let mut input = input_from_paired(&paired, &settings.resampling)?;
    if let Some(column) = &settings.per {
        input.per = Some(column_per_item(&paired, column)?);
    }
    let comparison = compare(&input, settings, progress)?;
    Ok((CompareOutput { comparison, spec: spec.clone(), pairing: paired.report.clone() }, paired))
}
