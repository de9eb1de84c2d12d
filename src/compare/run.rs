//! From outcome rows to a comparison: pair (refusing unpaired data), pick the resampling
//! column, compare. Shared by the CLI (`memaudit compare`) and the viewer.

use serde::{Deserialize, Serialize};

use super::engine::{
    CompareInput, CompareSettings, Comparison, CostComparison, MatchedControl, Resampling, UnpairedArms, compare,
};
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

/// A comparison refused as a whole: what is wrong and how to fix it, with the pairing report
/// when the rows could be placed and each arm's interval without pairing when the arm and value
/// columns are known. A report, not an error: the CLI prints it (`refused`, `pairing`,
/// `unpaired`) and the page shows it where the comparison would be.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RefusedComparison {
    /// What is wrong and how to fix it.
    #[serde(rename = "refused")]
    pub message: String,
    pub pairing: Option<PairingReport>,
    pub unpaired: Option<UnpairedArms>,
}

impl RefusedComparison {
    /// The refusal as an error value, its arms without pairing as text after the message.
    pub fn to_error(&self) -> Error {
        Error::Unpaired {
            message: format!("{}{}", self.message, super::table::render_unpaired(self.unpaired.as_ref())),
        }
    }
}

/// What a comparison run gives: the comparison, or the refusal of the pairing. Written as the
/// variant's own keys (no tag), so a compared report's JSON is a [`CompareOutput`]'s.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum CompareReport {
    Compared(Box<CompareOutput>),
    Refused(Box<RefusedComparison>),
}

impl CompareReport {
    /// The comparison, or the refusal as an error value ([`RefusedComparison::to_error`]).
    pub fn compared(self) -> Result<CompareOutput, Error> {
        match self {
            CompareReport::Compared(out) => Ok(*out),
            CompareReport::Refused(r) => Err(r.to_error()),
        }
    }

    /// The comparison when there is one.
    pub fn as_compared(&self) -> Option<&CompareOutput> {
        match self {
            CompareReport::Compared(out) => Some(out),
            CompareReport::Refused(_) => None,
        }
    }
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
/// `setting` is the field that named the column (`by` or `per`), named by the refusal.
fn column_per_item(paired: &Paired, column: &str, setting: &str) -> Result<Vec<String>, Error> {
    if let Some(i) = paired.report.key.iter().position(|k| k == column) {
        return Ok(paired.item_keys.iter().map(|k| k.get(i).cloned().unwrap_or_default()).collect());
    }
    if paired.report.strata.iter().any(|s| s == column) {
        return Ok(paired.strata.iter().map(|m| m.get(column).cloned().unwrap_or_default()).collect());
    }
    Err(Error::setting(
        setting,
        format!(
            "column `{column}` is neither a key column ({}) nor a strata column ({}); add it with {}",
            paired.report.key.join(", "),
            if paired.report.strata.is_empty() { "none".to_string() } else { paired.report.strata.join(", ") },
            crate::fields::mention("strata")
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
        Resampling::Stratified(c) | Resampling::Cluster(c) => Some(column_per_item(paired, c, "by")?),
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
        return Err(CompareError::Compare(Error::Unpaired { message }));
    }
    let paired = pair_for_test(table, spec, options)?;
    // Fewer than two items in every arm: no paired comparison, but each arm is still shown on
    // its own (a refused pairing, not a refused analysis).
    if paired.arms.len() >= 2
        && let Some(message) = super::engine::too_few_items(&paired.items)
    {
        return Err(CompareError::Compare(Error::Unpaired { message }));
    }
    let mut input = input_from_paired(&paired, &settings.resampling)?;
    if let Some(column) = &settings.per {
        input.per = Some(column_per_item(&paired, column, "per")?);
    }
    let mut comparison = compare(&input, settings, progress)?;
    comparison.costs = settings
        .cost
        .iter()
        .map(|column| costs(table, spec, options, settings, &paired, column))
        .collect::<Result<_, _>>()?;
    Ok((CompareOutput { comparison, spec: spec.clone(), pairing: paired.report.clone() }, paired))
}

/// The arms' cost in `column` on the compared items (the rows paired again with the cost as
/// the value), and each `--matched` control against its arm.
fn costs(
    table: &OutcomeTable,
    spec: &Spec,
    options: &PairingOptions,
    settings: &CompareSettings,
    outcomes: &Paired,
    column: &str,
) -> Result<CostComparison, Error> {
    if !table.columns.iter().any(|c| c.name == column) {
        return Err(Error::setting("cost", format!("there is no column `{column}` to read a cost from")));
    }
    let matched: Vec<(String, String)> = settings
        .matched
        .iter()
        .filter_map(|m| m.split_once(':').map(|(c, a)| (c.trim().to_string(), a.trim().to_string())))
        .collect();
    for (c, a) in &matched {
        if let Some(x) = [c, a].into_iter().find(|x| !outcomes.arms.contains(x)) {
            return Err(Error::setting(
                "matched",
                format!("`{x}` is not an arm (the arms: {})", outcomes.arms.join(", ")),
            ));
        }
    }
    let empty = |note: String| CostComparison {
        column: column.into(),
        arms: Vec::new(),
        matched: Vec::new(),
        note: Some(note),
    };
    let cost_spec = Spec { value: column.to_string(), ..spec.clone() };
    let paired = match pair_for_test(table, &cost_spec, options) {
        Ok(p) => p,
        Err(e) => return Ok(empty(format!("the cost `{column}` cannot be paired item by item: {e}"))),
    };
    if paired.items != outcomes.items || paired.arms != outcomes.arms {
        return Ok(empty(format!(
            "the rows with a cost `{column}` are not the items compared ({} vs {} items): give a cost on every compared row",
            paired.items.len(),
            outcomes.items.len()
        )));
    }
    let input = input_from_paired(&paired, &settings.resampling)?;
    let inner = CompareSettings {
        per: None,
        cost: Vec::new(),
        matched: Vec::new(),
        control: None,
        reference: None,
        quantities: true,
        ..settings.clone()
    };
    let c = compare(&input, &inner, &mut |_, _| {})?;
    let matched = matched
        .iter()
        .filter_map(|(control, arm)| {
            let p = c.pairs.iter().find(|p| (&p.a, &p.b) == (control, arm) || (&p.a, &p.b) == (arm, control))?;
            let sign = if &p.a == control { 1.0 } else { -1.0 };
            let (lo, hi) = if sign > 0.0 { (p.ci_low, p.ci_high) } else { (-p.ci_high, -p.ci_low) };
            Some(MatchedControl {
                control: control.clone(),
                arm: arm.clone(),
                control_mean: if sign > 0.0 { p.mean_a } else { p.mean_b },
                arm_mean: if sign > 0.0 { p.mean_b } else { p.mean_a },
                diff: sign * p.diff,
                ci_low: lo,
                ci_high: hi,
                differs: lo > 0.0 || hi < 0.0,
            })
        })
        .collect();
    Ok(CostComparison { column: column.into(), arms: c.arms, matched, note: None })
}
