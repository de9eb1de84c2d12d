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

pub mod itemized;
pub mod read;
pub mod reference;
pub mod source;
pub mod summary;
pub mod tag;
pub mod text;
pub mod unit;
pub mod warnings;

use serde::{Deserialize, Serialize};

use crate::error::{IngestError, Location};
pub use itemized::{ItemResult, TokenResult};
pub use read::{ProbeKey, ProbeKeys, read_notes, read_probe_keys};
pub use source::{ItemInput, ItemKind, ItemSpec, SourceKind};
pub use summary::{ProbeReport, ProbeSummary, ProbeTable, probe_table, render_text, report};
pub use tag::Tag;
pub use text::Span;
pub use unit::{LiveProbe, NoteChoice, Probe, ProbeOverview, ProbeRequest, ProbeView, explain_note};

/// Which probe.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, PartialOrd, Ord)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    #[default]
    Itemized,
    Reference,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::Itemized => "itemized",
            Mode::Reference => "reference",
        }
    }
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

/// Judges one note.
pub fn probe_note(input: &NoteInput, mode: Mode) -> Result<NoteProbe, IngestError> {
    match mode {
        Mode::Itemized => probe_itemized(input),
        Mode::Reference => probe_reference(input),
    }
}

fn base_row(input: &NoteInput, mode: Mode, verdict: Verdict) -> NoteRow {
    let note_chars = input.note.chars().count();
    NoteRow {
        note_id: input.note_id.clone(),
        mode,
        verdict,
        items_total: 0,
        items_found: 0,
        stale_found: false,
        tag_k: None,
        tag_n: None,
        tag_variant: None,
        tag_agrees: None,
        missing: Vec::new(),
        note_chars,
        budget: input.budget,
        over_budget: input.budget.map(|b| note_chars as u64 > b),
        stale: input.stale.clone(),
        answer: input.answer.clone(),
        correct: input.correct,
        policy: input.policy.clone(),
        integrity: input.integrity,
        arm: input.arm.clone(),
        explanation: String::new(),
    }
}

fn probe_itemized(input: &NoteInput) -> Result<NoteProbe, IngestError> {
    let items = input.items()?;
    let toks = text::tokenize(&input.note);
    let idx = text::CharIndex::new(&input.note);
    let results: Vec<ItemResult> = items.iter().map(|i| itemized::match_item(i, &toks, &idx)).collect();
    let stale_targets = input.stale.as_deref().map(itemized::stale_targets).unwrap_or_default();
    let stale_spans = itemized::find_stale(&stale_targets, &toks, &idx);
    let tag = tag::parse_tag(&input.note);
    let n = results.len();
    let k = results.iter().filter(|r| r.found).count();
    let stale_found = !stale_spans.is_empty();
    let loss = tag.as_ref().is_some_and(Tag::declares_loss);
    let verdict = if k == n {
        Verdict::Complete
    } else if k > 0 {
        if loss { Verdict::PartialTagged } else { Verdict::PartialSilent }
    } else if stale_found && !loss {
        Verdict::Silent
    } else {
        Verdict::Loud
    };
    let mut row = base_row(input, Mode::Itemized, verdict);
    row.items_total = n;
    row.items_found = k;
    row.stale_found = stale_found;
    row.missing = results.iter().filter(|r| !r.found).map(|r| r.label.clone()).collect();
    if let Some(t) = &tag {
        row.tag_k = Some(t.k);
        row.tag_n = Some(t.n);
        row.tag_variant = Some(t.variant.clone());
        row.tag_agrees = Some(t.k == k as u64 && t.n == n as u64);
    }
    row.explanation = explain_itemized(&row, &results, input.stale.as_deref(), tag.as_ref());
    Ok(NoteProbe { row, items: results, stale_spans, tag })
}

fn quote_list(labels: &[String], max: usize) -> String {
    let mut shown: Vec<String> = labels.iter().take(max).map(|l| format!("“{l}”")).collect();
    if labels.len() > max {
        shown.push(format!("{} more", labels.len() - max));
    }
    shown.join(", ")
}

fn explain_itemized(row: &NoteRow, items: &[ItemResult], stale: Option<&str>, tag: Option<&Tag>) -> String {
    let (k, n) = (row.items_found, row.items_total);
    let stale_txt = stale.map(|s| format!("the stale value “{s}”")).unwrap_or_else(|| "a stale value".into());
    let tag_txt = tag.map(|t| format!("its completeness tag (“{}”) says {} of {} were kept", t.text, t.k, t.n));
    match row.verdict {
        Verdict::Complete => format!(
            "All {n} source item{} ({}) are in the note, so a later correction can recompute the answer{}.",
            if n == 1 { "" } else { "s" },
            quote_list(&items.iter().map(|i| i.label.clone()).collect::<Vec<_>>(), 3),
            if row.stale_found { format!(" even though {stale_txt} is also kept") } else { String::new() }
        ),
        Verdict::PartialTagged => format!(
            "Only {k} of {n} source items are in the note (missing {}), but {}, so the gap is visible (loud).",
            quote_list(&row.missing, 3),
            tag_txt.unwrap_or_default()
        ),
        Verdict::PartialSilent => format!(
            "Only {k} of {n} source items are in the note (missing {}) and nothing in it says items were dropped{}, so a reader may silently compute from an incomplete source.",
            quote_list(&row.missing, 3),
            match tag {
                Some(t) => format!(" (its tag claims {} of {})", t.k, t.n),
                None => String::new(),
            }
        ),
        Verdict::Silent => format!(
            "None of the {n} source items is in the note but {stale_txt} is, so a correction has nothing to recompute from and nothing flags it (silent-uncorrectable)."
        ),
        Verdict::Loud => {
            if row.stale_found {
                format!(
                    "None of the {n} source items is in the note; {stale_txt} is kept but {}, so the failure is flagged (loud).",
                    tag_txt.unwrap_or_else(|| "a tag declares the loss".into())
                )
            } else {
                format!(
                    "None of the {n} source items is in the note and {stale_txt} is absent, so the note cannot be corrected but asserts nothing stale (loud)."
                )
            }
        }
        _ => String::new(),
    }
}

fn probe_reference(input: &NoteInput) -> Result<NoteProbe, IngestError> {
    let source_text = input.reference_source()?;
    let conclusion = input.stale.clone().unwrap_or_default();
    let v = reference::classify_note(&input.note, &source_text, &conclusion);
    let verdict = match v.regime {
        reference::Regime::Correctable => Verdict::Correctable,
        reference::Regime::UncorrectableSilent => Verdict::UncorrectableSilent,
        reference::Regime::UncorrectableLoud => Verdict::UncorrectableLoud,
    };
    let marker = reference::source_marker(&source_text);
    let marker_spans = if source_text.is_empty() { Vec::new() } else { reference::find_lowered(&input.note, &marker) };
    let stale_spans = reference::find_lowered(&input.note, &conclusion.to_lowercase());
    let mut row = base_row(input, Mode::Reference, verdict);
    row.items_total = 1;
    row.items_found = usize::from(verdict == Verdict::Correctable);
    row.stale_found = !stale_spans.is_empty();
    if verdict != Verdict::Correctable {
        row.missing = vec![marker.clone()];
    }
    row.explanation = match verdict {
        Verdict::Correctable => format!(
            "The source's first {} characters (“{marker}”) occur in the note, so the reference probe counts it correctable{}.",
            reference::SRC_MARKER,
            if row.stale_found {
                format!(" although the conclusion “{conclusion}” is also there")
            } else {
                String::new()
            }
        ),
        Verdict::UncorrectableSilent => format!(
            "The source prefix “{marker}” is absent but the conclusion “{conclusion}” occurs, so the reference probe flags a silent failure."
        ),
        _ => format!(
            "Neither the source prefix “{marker}” nor the conclusion{} occurs in the note, so the reference probe calls it uncorrectable but loud.",
            if conclusion.is_empty() { String::new() } else { format!(" “{conclusion}”") }
        ),
    };
    let item = ItemResult {
        label: marker.clone(),
        kind: ItemKind::Domain,
        negated: false,
        found: verdict == Verdict::Correctable,
        tokens: vec![TokenResult {
            token: marker,
            kind: "prefix".into(),
            found: !marker_spans.is_empty(),
            spans: marker_spans,
        }],
    };
    Ok(NoteProbe { row, items: vec![item], stale_spans, tag: None })
}

/// What a highlighted span is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HighlightRole {
    /// A token of a source item (or the reference prefix).
    Source,
    /// The stale value.
    Stale,
    /// The completeness tag.
    Tag,
}

/// One span for the viewer to highlight.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Highlight {
    pub span: Span,
    pub role: HighlightRole,
    /// Index of the source item (for `source`).
    pub item: Option<usize>,
    /// The item is kept (all of its required tokens were found).
    pub item_found: Option<bool>,
    /// The token as shown (`$4`, `notebooks`, the stale value, the tag text).
    pub token: String,
}

/// The viewer's view of one note: verdict, one-sentence explanation, spans to highlight.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Explanation {
    pub note_id: String,
    pub mode: Mode,
    pub verdict: Verdict,
    pub explanation: String,
    /// Sorted by start; spans of different roles may overlap.
    pub highlights: Vec<Highlight>,
}

/// The spans of every found source token, of the stale value and of the tag, sorted.
pub fn highlights(p: &NoteProbe) -> Vec<Highlight> {
    let mut out = Vec::new();
    for (i, item) in p.items.iter().enumerate() {
        for t in item.tokens.iter().filter(|t| t.found) {
            for s in &t.spans {
                out.push(Highlight {
                    span: *s,
                    role: HighlightRole::Source,
                    item: Some(i),
                    item_found: Some(item.found),
                    token: t.token.clone(),
                });
            }
        }
    }
    let stale = p.row.stale.clone().unwrap_or_default();
    for s in &p.stale_spans {
        out.push(Highlight {
            span: *s,
            role: HighlightRole::Stale,
            item: None,
            item_found: None,
            token: stale.clone(),
        });
    }
    if let Some(t) = &p.tag {
        out.push(Highlight {
            span: t.span,
            role: HighlightRole::Tag,
            item: None,
            item_found: None,
            token: t.text.clone(),
        });
    }
    out.sort_by_key(|h| (h.span.start, h.span.end));
    out
}

/// Probes one note and returns what the viewer shows: verdict, explanation, highlights.
pub fn explain(input: &NoteInput, mode: Mode) -> Result<Explanation, IngestError> {
    let p = probe_note(input, mode)?;
    Ok(Explanation {
        note_id: p.row.note_id.clone(),
        mode,
        verdict: p.row.verdict,
        explanation: p.row.explanation.clone(),
        highlights: highlights(&p),
    })
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
