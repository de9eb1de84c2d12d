//! The write-time source-token probe (Reclaim Evaluation, Kwon 2026, §4 and §12; reclaim-eval
//! `reclaim.probe`): read a candidate memory note, with the source it was written from and the
//! stale value it must not assert on its own, and tell, with no model call, whether a later
//! correction can still repair it. See `docs/probe.md`.
//!
//! Two modes:
//!
//! * [`Mode::Reference`]: bit-compatible with `reclaim.probe.classify_note` (an 18-character
//!   lower-cased source prefix and a conclusion substring; [`reference`]). Verdicts
//!   `correctable`, `uncorrectable_silent`, `uncorrectable_loud`.
//! * [`Mode::Itemized`] (default): the source as items, the note as tokens, k of N items
//!   kept, the stale value by token, and the completeness tag ([`itemized`], [`source`],
//!   [`text`], [`tag`]). Verdicts `complete`, `partial_tagged`, `partial_silent`, `silent`,
//!   `loud`.
//!
//! ```text
//! NoteInput ──probe_note(mode)──► NoteProbe { row: NoteRow (verdict, k, N, stale, tag, ...),
//!                                             items (tokens with spans), stale_spans, tag }
//! [NoteInput] ──summary::report(mode)──► ProbeReport { notes, summary (Wilson), by_verdict,
//!                                                      confusion, by_policy, side_by_side }
//! ```
//!
//! Nothing here panics on user input; a note without any source is an [`IngestError`].

pub mod explain;
pub mod figures;
pub mod headlines;
pub mod itemized;
pub mod numbers;
pub mod read;
pub mod reference;
pub mod source;
pub mod summary;
pub mod tag;
pub mod text;
pub mod unit;
pub mod verdict;
pub mod warnings;

use serde::{Deserialize, Serialize};

use crate::error::{IngestError, Location};
pub use explain::{Explanation, Highlight, HighlightRole, explain, highlights};
pub use itemized::{ItemResult, TokenResult};
pub use read::{ProbeKey, ProbeKeys, SourceText, read_notes, read_notes_with_source, read_probe_keys};
pub use source::{ItemInput, ItemKind, ItemSpec, SourceKind};
pub use summary::{ProbeReport, ProbeSummary, ProbeTable, probe_table, render_text, report};
pub use tag::Tag;
pub use text::Span;
pub use unit::{LiveProbe, NoteChoice, Probe, ProbeOverview, ProbeRequest, ProbeView, explain_note};
pub use verdict::probe_note;

crate::choice! {
    /// Which probe.
    #[derive(Default)]
    pub enum Mode {
        #[default]
        Itemized,
        Reference,
    }
}

impl Mode {
    /// The mode named `s`, also by its short names (`items`, `ref`), any case.
    pub fn parse(s: &str) -> Option<Mode> {
        match s.trim().to_ascii_lowercase().as_str() {
            "itemized" | "itemised" | "items" => Some(Mode::Itemized),
            "reference" | "ref" => Some(Mode::Reference),
            _ => None,
        }
    }
    /// The verdicts of this mode, in display order.
    pub fn verdicts(self) -> &'static [Verdict] {
        match self {
            Mode::Itemized => {
                &[Verdict::Complete, Verdict::PartialTagged, Verdict::PartialSilent, Verdict::Silent, Verdict::Loud]
            }
            Mode::Reference => &[Verdict::Correctable, Verdict::UncorrectableSilent, Verdict::UncorrectableLoud],
        }
    }
}

/// A probe verdict (the first five are itemized mode's, the last three reference mode's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Every source item is in the note.
    Complete,
    /// Some items are missing and the note's completeness tag says so (loud).
    PartialTagged,
    /// Some items are missing and nothing says so.
    PartialSilent,
    /// No source item, the stale value kept: the silent-uncorrectable case.
    Silent,
    /// No source item, and no stale value (or a tag declaring the loss).
    Loud,
    /// Reference: the 18-character source prefix is in the note.
    Correctable,
    /// Reference: no prefix, the conclusion is in the note.
    UncorrectableSilent,
    /// Reference: neither.
    UncorrectableLoud,
}

impl Verdict {
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Complete => "complete",
            Verdict::PartialTagged => "partial_tagged",
            Verdict::PartialSilent => "partial_silent",
            Verdict::Silent => "silent",
            Verdict::Loud => "loud",
            Verdict::Correctable => "correctable",
            Verdict::UncorrectableSilent => "uncorrectable_silent",
            Verdict::UncorrectableLoud => "uncorrectable_loud",
        }
    }
    pub fn mode(self) -> Mode {
        match self {
            Verdict::Correctable | Verdict::UncorrectableSilent | Verdict::UncorrectableLoud => Mode::Reference,
            _ => Mode::Itemized,
        }
    }
    /// The probe predicts that a correction recovers the answer (`complete`, `correctable`).
    pub fn predicts_recovery(self) -> bool {
        matches!(self, Verdict::Complete | Verdict::Correctable)
    }
    /// The silent-uncorrectable case (`silent`, `uncorrectable_silent`).
    pub fn is_silent_failure(self) -> bool {
        matches!(self, Verdict::Silent | Verdict::UncorrectableSilent)
    }
    /// Fails without a signal: the silent-uncorrectable case or a silently partial note.
    pub fn is_unflagged_failure(self) -> bool {
        matches!(self, Verdict::Silent | Verdict::UncorrectableSilent | Verdict::PartialSilent)
    }
}

/// One candidate memory note and what the probe needs to judge it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NoteInput {
    pub note_id: String,
    /// The candidate memory note.
    pub note: String,
    /// The source text the note was written from (the recomputable facts).
    pub source: Option<String>,
    /// The source as explicit items (wins over `source` in itemized mode).
    pub source_items: Option<Vec<ItemInput>>,
    /// How to parse `source` (and string items).
    pub source_kind: SourceKind,
    /// The stale (committed, wrong) value as text: `"$55"`, `"Ben"`, `"17:15"`.
    pub stale: Option<String>,
    /// The true answer, if known (shown; not used by the verdict).
    pub answer: Option<String>,
    /// The real outcome: did a correction recover the answer from this note?
    pub correct: Option<bool>,
    pub policy: Option<String>,
    pub integrity: Option<f64>,
    /// Character budget B of the note.
    pub budget: Option<u64>,
    pub arm: Option<String>,
    pub pid: Option<String>,
    pub seed: Option<i64>,
    /// Where the note was read from (file and line), for error messages.
    pub origin: Option<Location>,
}

impl NoteInput {
    pub fn new(note_id: impl Into<String>, note: impl Into<String>) -> Self {
        NoteInput { note_id: note_id.into(), note: note.into(), ..NoteInput::default() }
    }
    pub fn with_source(mut self, source: impl Into<String>) -> Self {
        self.source = Some(source.into());
        self
    }
    pub fn with_stale(mut self, stale: impl Into<String>) -> Self {
        self.stale = Some(stale.into());
        self
    }
    pub fn with_correct(mut self, correct: bool) -> Self {
        self.correct = Some(correct);
        self
    }

    fn location(&self, field: &str) -> Location {
        self.origin.clone().unwrap_or_else(|| Location::file(&format!("note {}", self.note_id))).with_field(field)
    }

    /// The items of the source (explicit items first, else the parsed `source`).
    pub fn items(&self) -> Result<Vec<ItemSpec>, IngestError> {
        if let Some(inputs) = &self.source_items {
            let (items, empty) = source::items_from_input(inputs, self.source_kind);
            if let Some(&i) = empty.first() {
                return Err(IngestError::new(
                    self.location(&format!("source_items[{i}]")),
                    "this item has no word, number or time to look for",
                ));
            }
            if items.is_empty() {
                return Err(IngestError::new(self.location("source_items"), "no source items given"));
            }
            return Ok(items);
        }
        match self.source.as_deref().map(str::trim) {
            Some(s) if !s.is_empty() => {
                let items = source::parse_source(s, self.source_kind);
                if items.is_empty() {
                    Err(IngestError::new(
                        self.location("source"),
                        "no source items could be read from the source text; give `source_items`",
                    ))
                } else {
                    Ok(items)
                }
            }
            _ => Err(IngestError::new(self.location("source"), "the note needs a `source` or `source_items`")),
        }
    }

    /// The source string the reference probe uses: `source`, else the item labels joined with
    /// `", "` (then not bit-compatible with reclaim-eval, which always has a source string).
    pub fn reference_source(&self) -> Result<String, IngestError> {
        if let Some(s) = self.source.as_deref().filter(|s| !s.is_empty()) {
            return Ok(s.to_string());
        }
        let items = self.items()?;
        Ok(items.iter().map(|i| i.label.as_str()).collect::<Vec<_>>().join(", "))
    }
}

/// The per-note result row (the `notes` rows of `memaudit probe --format json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NoteRow {
    pub note_id: String,
    pub mode: Mode,
    pub verdict: Verdict,
    /// N: source items (reference mode: 1, the 18-character prefix).
    pub items_total: usize,
    /// k: items found in the note.
    pub items_found: usize,
    /// The stale value occurs in the note (as a token in itemized mode, as a substring in
    /// reference mode).
    pub stale_found: bool,
    /// The completeness tag's k and n (itemized mode; `None` when the note has no tag).
    pub tag_k: Option<u64>,
    pub tag_n: Option<u64>,
    /// Which tag pattern matched (`exact`, `k_of_n_items`, ...).
    pub tag_variant: Option<String>,
    /// The tag's k and n equal the measured k and N.
    pub tag_agrees: Option<bool>,
    /// Labels of the items not found.
    pub missing: Vec<String>,
    /// The note's length in characters, its budget, and whether it exceeds the budget.
    pub note_chars: usize,
    pub budget: Option<u64>,
    pub over_budget: Option<bool>,
    pub stale: Option<String>,
    pub answer: Option<String>,
    pub correct: Option<bool>,
    pub policy: Option<String>,
    pub integrity: Option<f64>,
    pub arm: Option<String>,
    /// One sentence saying why.
    pub explanation: String,
    /// Numbers the note states that its `source` text does not (`None` without a source
    /// text): [`numbers::invented_numbers`].
    #[serde(default)]
    pub invented: Option<Vec<String>>,
}

/// Everything the probe found in one note.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NoteProbe {
    pub row: NoteRow,
    /// Each source item, its tokens and their spans (reference mode: one item, the prefix).
    pub items: Vec<ItemResult>,
    /// Where the stale value occurs.
    pub stale_spans: Vec<Span>,
    pub tag: Option<Tag>,
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "notebooks at $4 each (7 bought) and pens at $2 each (9 bought)";

    fn verdict(note: &str, mode: Mode) -> Verdict {
        probe_note(&NoteInput::new("n", note).with_source(SRC).with_stale("$55"), mode).unwrap().row.verdict
    }

    #[test]
    fn itemized_verdicts() {
        use Verdict::*;
        let m = Mode::Itemized;
        assert_eq!(verdict("The facts were: 7 notebooks at $4 and 9 pens at $2. Total $55.", m), Complete);
        assert_eq!(verdict("7 notebooks at $4. The total was $55.", m), PartialSilent);
        assert_eq!(
            verdict(
                "7 notebooks at $4. [Note: this memory preserved only 1 of the original 2 line items; 1 were dropped and are not shown.]",
                m
            ),
            PartialTagged
        );
        assert_eq!(verdict("You concluded the total before tax was $55.", m), Silent);
        assert_eq!(verdict("You concluded the total before tax was $550.", m), Loud);
        assert_eq!(verdict("No figures were retained.", m), Loud);
        assert_eq!(verdict("Total $55. Note: 0 of 2 items preserved.", m), Loud);
    }

    #[test]
    fn reference_and_itemized_differ_on_paraphrase() {
        let note = "Maria bought 7 notebooks for $4 each and 9 pens for $2 each; you said $55.";
        assert_eq!(verdict(note, Mode::Reference), Verdict::UncorrectableSilent);
        assert_eq!(verdict(note, Mode::Itemized), Verdict::Complete);
    }

    #[test]
    fn a_note_without_source_is_an_error_with_location() {
        let mut n = NoteInput::new("x", "note");
        n.origin = Some(Location::line("notes.jsonl", 4));
        let e = probe_note(&n, Mode::Itemized).unwrap_err();
        assert_eq!(e.location.line, Some(4));
        assert_eq!(e.location.field.as_deref(), Some("source"));
        assert!(probe_note(&n, Mode::Reference).is_err());
    }

    #[test]
    fn highlights_and_explanation() {
        let input = NoteInput::new("n", "7 notebooks at $4; total $55.").with_source(SRC).with_stale("$55");
        let e = explain(&input, Mode::Itemized).unwrap();
        assert_eq!(e.verdict, Verdict::PartialSilent);
        assert!(e.explanation.contains("1 of 2"), "{}", e.explanation);
        let roles: Vec<(HighlightRole, &str)> =
            e.highlights.iter().map(|h| (h.role, &input.note[h.span.byte_start..h.span.byte_end])).collect();
        assert_eq!(
            roles,
            vec![
                (HighlightRole::Source, "7"),
                (HighlightRole::Source, "notebooks"),
                (HighlightRole::Source, "$4"),
                (HighlightRole::Stale, "$55"),
            ]
        );
        let r = explain(&input, Mode::Reference).unwrap();
        assert_eq!(r.verdict, Verdict::UncorrectableSilent);
        assert_eq!(r.highlights.len(), 1);
        assert!(r.explanation.ends_with('.'));
    }
}
