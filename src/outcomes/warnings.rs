//! Counted warnings of the outcomes reader and the pairing validator, in the same shape as
//! [`crate::ingest::Warnings`]: one entry per kind, counted, with the first few examples naming
//! file and line. Nothing read is dropped or altered silently.

use serde::{Deserialize, Serialize};

pub use crate::ingest::Severity;

/// Every kind of warning the outcomes readers and the pairing validator can raise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OutcomeWarningKind {
    /// CSV cells written as a missing-value marker (`NA`, `N/A`, `NaN`, `nan`, `null`, `NULL`)
    /// are read as missing.
    MissingMarker,
    /// A judge file names no arm: the arm is the file name without directory and extension.
    ArmFromFileName,
    /// A metric is given for a query that is not eligible for the target: ignored (missing).
    IneligibleMetricIgnored,
    /// A query is eligible for a target but its metric cell is empty: missing.
    EligibleWithoutMetric,
    /// Rows whose value cell is empty (e.g. not eligible): missing, never 0.
    MissingValue,
    /// A majority of judgments was requested and exactly half of them are true: read as 0.
    JudgmentTie,
    /// A record lacks the chosen judgment (or has no judgment at all): missing.
    JudgmentMissing,
    /// Several rows for the same (item, arm) were averaged, as requested.
    DuplicatesAveraged,
    /// Rows left out by the spec's filter.
    FilteredRows,
    /// Items not present (with a value) in every arm were left out, as requested.
    IncompleteItemsDropped,
}

impl OutcomeWarningKind {
    /// How much the warning matters for the numbers.
    pub fn severity(self) -> Severity {
        use OutcomeWarningKind::*;
        match self {
            MissingMarker | ArmFromFileName | FilteredRows | MissingValue => Severity::Note,
            _ => Severity::Warning,
        }
    }

    /// One line saying what happened and what was done about it.
    pub fn describe(self) -> &'static str {
        use OutcomeWarningKind::*;
        match self {
            MissingMarker => "cells written NA / N/A / NaN / null: read as missing",
            ArmFromFileName => "judge files name no arm: the arm is the file name",
            IneligibleMetricIgnored => "metrics given for non-eligible queries: ignored (missing, not 0)",
            EligibleWithoutMetric => "eligible queries with an empty metric cell: missing",
            MissingValue => "rows without a value (e.g. not eligible): missing, not 0",
            JudgmentTie => "majority of judgments tied (exactly half true): read as 0 (majority needs more than half)",
            JudgmentMissing => "records without the chosen judgment: missing",
            DuplicatesAveraged => "several rows for one (item, arm) averaged (mean), as requested",
            FilteredRows => "rows left out by the filter",
            IncompleteItemsDropped => "items without a value in every arm left out, as requested",
        }
    }
}

/// One aggregated warning.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OutcomeWarning {
    /// What happened.
    pub kind: OutcomeWarningKind,
    /// How much it matters.
    pub severity: Severity,
    /// How many times it happened.
    pub count: usize,
    /// [`OutcomeWarningKind::describe`].
    pub message: String,
    /// The first few occurrences, each naming where it happened.
    pub examples: Vec<String>,
}

/// Aggregated warnings, one entry per kind, in first-seen order.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct OutcomeWarnings {
    items: Vec<OutcomeWarning>,
}

const MAX_EXAMPLES: usize = 5;

impl OutcomeWarnings {
    /// Counts one occurrence; `example` is called only while fewer than five are kept.
    pub fn add(&mut self, kind: OutcomeWarningKind, example: impl FnOnce() -> String) {
        self.add_n(kind, 1, example)
    }

    /// Counts `n` occurrences with one example (nothing when `n == 0`).
    pub fn add_n(&mut self, kind: OutcomeWarningKind, n: usize, example: impl FnOnce() -> String) {
        if n == 0 {
            return;
        }
        let i = match self.items.iter().position(|w| w.kind == kind) {
            Some(i) => i,
            None => {
                self.items.push(OutcomeWarning {
                    kind,
                    severity: kind.severity(),
                    count: 0,
                    message: kind.describe().to_string(),
                    examples: Vec::new(),
                });
                self.items.len() - 1
            }
        };
        let w = &mut self.items[i];
        w.count += n;
        if w.examples.len() < MAX_EXAMPLES {
            w.examples.push(example());
        }
    }

    /// Adds every warning of `other` (counts add up, examples are kept up to five).
    pub fn extend(&mut self, other: &OutcomeWarnings) {
        for w in &other.items {
            let mut examples = w.examples.iter();
            let first = examples.next().cloned().unwrap_or_default();
            self.add_n(w.kind, w.count, || first);
            for e in examples {
                if let Some(mine) = self.items.iter_mut().find(|m| m.kind == w.kind)
                    && mine.examples.len() < MAX_EXAMPLES
                {
                    mine.examples.push(e.clone());
                }
            }
        }
    }

    /// How many times `kind` happened.
    pub fn count(&self, kind: OutcomeWarningKind) -> usize {
        self.items.iter().find(|w| w.kind == kind).map_or(0, |w| w.count)
    }

    /// The aggregated entry of `kind`, if it happened.
    pub fn get(&self, kind: OutcomeWarningKind) -> Option<&OutcomeWarning> {
        self.items.iter().find(|w| w.kind == kind)
    }

    /// Every aggregated warning, in first-seen order.
    pub fn iter(&self) -> impl Iterator<Item = &OutcomeWarning> {
        self.items.iter()
    }

    /// No warning at all.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Number of distinct kinds.
    pub fn len(&self) -> usize {
        self.items.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_keeps_first_examples() {
        let mut w = OutcomeWarnings::default();
        for i in 0..7 {
            w.add(OutcomeWarningKind::JudgmentTie, || format!("line {i}"));
        }
        assert_eq!(w.count(OutcomeWarningKind::JudgmentTie), 7);
        assert_eq!(w.get(OutcomeWarningKind::JudgmentTie).unwrap().examples.len(), MAX_EXAMPLES);
        let mut other = OutcomeWarnings::default();
        other.add_n(OutcomeWarningKind::MissingValue, 3, || "x".into());
        w.extend(&other);
        assert_eq!(w.count(OutcomeWarningKind::MissingValue), 3);
        assert_eq!(w.len(), 2);
        assert_eq!(w.get(OutcomeWarningKind::MissingValue).unwrap().severity, Severity::Note);
    }
}
