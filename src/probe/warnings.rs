//! Counted warnings of the probe and reclaim readers, counted by the shared
//! [`crate::ingest::Warnings`]: one entry per kind, with the first few examples naming file
//! and line. Nothing read is dropped or altered silently.

use serde::{Deserialize, Serialize};

pub use crate::ingest::Severity;
use crate::ingest::warnings::{Kind, Warning, Warnings};

/// Every kind of warning the probe and reclaim readers and the reclaim analysis can raise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProbeWarningKind {
    /// A note has no `note_id`: it is named by its line.
    NoteIdMissing,
    /// A note id is used twice: both notes are kept.
    NoteIdDuplicate,
    /// A reclaim-eval problem has no probe key: its source and stale value are read from the
    /// file's template notes.
    SourceFromTemplate,
    /// Template notes of one problem disagree: the first is used.
    TemplateMismatch,
    /// A problem has no known stale value: the stale value is never found.
    StaleUnknown,
    /// A trial has no `policy`: grouped as `all`.
    PolicyMissing,
    /// Strict scoring was asked for, but a trial has no reply or no known truth: its stored
    /// outcome is used.
    StrictUnavailable,
    /// A trial's strict re-score differs from its stored `correct` (parser drift).
    RescoreDisagrees,
    /// `--abstain hedge`, but a trial has no reply text: its abstention is decided by the
    /// strict rule.
    HedgeNoReply,
    /// `--abstain hedge`: a trial the strict rule counts as an abstention has an answer under
    /// `_is_abstain`'s own parse (words are parsed without the problem's options, only the
    /// `_NONANSWER` blocklist refused; numbers from the reply rather than a stored answer) and no
    /// hedge phrase: it counts as an emission.
    HedgeCountsAnswer,
}

impl ProbeWarningKind {
    /// How much the warning matters for the numbers.
    pub fn severity(self) -> Severity {
        use ProbeWarningKind::*;
        match self {
            NoteIdMissing | SourceFromTemplate => Severity::Note,
            _ => Severity::Warning,
        }
    }

    /// One line saying what happened and what was done about it.
    pub fn describe(self) -> &'static str {
        use ProbeWarningKind::*;
        match self {
            NoteIdMissing => "notes without `note_id`: named by their line",
            NoteIdDuplicate => "note ids used twice: both notes kept",
            SourceFromTemplate => {
                "problems without a probe key: source and stale value read from the file's template notes"
            }
            TemplateMismatch => "template notes of one problem disagree: the first is used",
            StaleUnknown => "problems without a known stale value: the stale value is never found",
            PolicyMissing => "trials without `policy`: grouped as `all`",
            StrictUnavailable => "trials without a reply or a known truth: stored outcomes used",
            RescoreDisagrees => "trials whose strict re-score differs from the stored `correct`",
            HedgeNoReply => {
                "abstain rule `hedge`: trials without reply text use the strict rule (no hedge phrases to search)"
            }
            HedgeCountsAnswer => {
                "abstain rule `hedge`: trials the strict rule counts as abstentions have an answer under _is_abstain's \
                 parse (words without the options list) and no hedge phrase: counted as emissions"
            }
        }
    }
}

impl Kind for ProbeWarningKind {
    fn severity(self) -> Severity {
        ProbeWarningKind::severity(self)
    }
    fn describe(self) -> &'static str {
        ProbeWarningKind::describe(self)
    }
}

/// One aggregated warning of the probe or reclaim readers.
pub type ProbeWarning = Warning<ProbeWarningKind>;

/// Aggregated warnings of the probe and reclaim readers (the shared [`Warnings`] counter).
pub type ProbeWarnings = Warnings<ProbeWarningKind>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_serialise_snake_case_with_severity() {
        let mut w = ProbeWarnings::default();
        w.add(ProbeWarningKind::SourceFromTemplate, || "f, line 3".into());
        w.add(ProbeWarningKind::RescoreDisagrees, || "f, line 4".into());
        let v = serde_json::to_value(&w).unwrap();
        let s = v.to_string();
        assert!(s.contains("\"source_from_template\"") && s.contains("\"note\""), "{s}");
        assert_eq!(w.count(ProbeWarningKind::RescoreDisagrees), 1);
    }
}
