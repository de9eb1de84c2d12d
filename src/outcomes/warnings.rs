//! Counted warnings of the outcomes reader and the pairing validator, counted by the shared
//! [`crate::ingest::Warnings`]: one entry per kind, counted, with the first few examples naming
//! file and line. Nothing read is dropped or altered silently.

use serde::{Deserialize, Serialize};

pub use crate::ingest::Severity;
use crate::ingest::warnings::{Kind, Warning, Warnings};

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
    /// Inspect samples without a score (`scores: {}`): missing, never 0.
    UnscoredSample,
    /// Several files each state their configuration (a top-level `config`, `system`, …): each
    /// file's arm is that configuration instead of a part of its path.
    ArmFromStatedConfig,
    /// Lines of an MTEL-Mem pipeline trace without a readable `hit_ranks`: their rank columns
    /// (hit, top1, first_rank, reciprocal_rank) are missing, never a miss.
    TraceWithoutRanks,
    /// LoCoMo answer files that list the same questions in different orders: their questions
    /// are paired by text (question, gold answer, repeat), numbered as the first file lists
    /// them.
    QuestionsAlignedByText,
}

impl OutcomeWarningKind {
    /// How much the warning matters for the numbers.
    pub fn severity(self) -> Severity {
        use OutcomeWarningKind::*;
        match self {
            MissingMarker | ArmFromFileName | ArmFromStatedConfig | FilteredRows | MissingValue => Severity::Note,
            _ => Severity::Warning,
        }
    }

    /// One line saying what happened and what was done about it.
    pub fn describe(self) -> &'static str {
        use OutcomeWarningKind::*;
        match self {
            MissingMarker => "cells written NA / N/A / NaN / null: read as missing",
            ArmFromFileName => "judge files name no arm: the arm is the file name",
            ArmFromStatedConfig => "each file states its configuration: the file's arm is that configuration",
            IneligibleMetricIgnored => "metrics given for non-eligible queries: ignored (missing, not 0)",
            EligibleWithoutMetric => "eligible queries with an empty metric cell: missing",
            MissingValue => "rows without a value (e.g. not eligible): missing, not 0",
            JudgmentTie => "majority of judgments tied (exactly half true): read as 0 (majority needs more than half)",
            JudgmentMissing => "records without the chosen judgment: missing",
            DuplicatesAveraged => "several rows for one (item, arm) averaged (mean), as requested",
            FilteredRows => "rows left out by the filter",
            IncompleteItemsDropped => "items without a value in every arm left out, as requested",
            UnscoredSample => "Inspect samples without a score: missing, never 0",
            QuestionsAlignedByText => {
                "LoCoMo answer files list the questions in different orders: paired by question text and gold \
                 answer, numbered as the first file lists them"
            }
            TraceWithoutRanks => {
                "pipeline trace lines without a readable `hit_ranks`: their rank columns are missing, never a miss"
            }
        }
    }
}

impl Kind for OutcomeWarningKind {
    fn severity(self) -> Severity {
        OutcomeWarningKind::severity(self)
    }
    fn describe(self) -> &'static str {
        OutcomeWarningKind::describe(self)
    }
}

/// One aggregated warning of the outcomes reader.
pub type OutcomeWarning = Warning<OutcomeWarningKind>;

/// Aggregated warnings of the outcomes reader (the shared [`Warnings`] counter).
pub type OutcomeWarnings = Warnings<OutcomeWarningKind>;

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
        assert_eq!(w.get(OutcomeWarningKind::JudgmentTie).unwrap().examples.len(), 5);
        let mut other = OutcomeWarnings::default();
        other.add_n(OutcomeWarningKind::MissingValue, 3, || "x".into());
        w.extend(&other);
        assert_eq!(w.count(OutcomeWarningKind::MissingValue), 3);
        assert_eq!(w.len(), 2);
        assert_eq!(w.get(OutcomeWarningKind::MissingValue).unwrap().severity, Severity::Note);
    }
}
