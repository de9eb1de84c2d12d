//! The verdict procedures: how one note is judged in each mode ([`probe_note`]) — itemized
//! (k of N source items kept, the stale value by token, the completeness tag) or reference
//! (reclaim-eval's 18-character prefix and conclusion substring) — and the one sentence that
//! explains the verdict.

use super::{
    ItemKind, ItemResult, Mode, NoteInput, NoteProbe, NoteRow, Tag, TokenResult, Verdict, itemized, reference, tag,
    text,
};
use crate::error::IngestError;

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
        invented: input
            .source
            .as_deref()
            .map(|s| super::numbers::invented_numbers(&input.note, &super::numbers::number_strings(s))),
    }
}

fn probe_itemized(input: &NoteInput) -> Result<NoteProbe, IngestError> {
    let items = input.items()?;
    let toks = text::tokenize(&input.note);
    let idx = text::CharIndex::new(&input.note);
    let index = itemized::NoteIndex::new(&toks);
    let results: Vec<ItemResult> = items.iter().map(|i| itemized::match_item(i, &index, &idx)).collect();
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
            spans_total: marker_spans.len(),
            spans: marker_spans.into_iter().take(itemized::MAX_SPANS).collect(),
        }],
    };
    Ok(NoteProbe { row, items: vec![item], stale_spans, tag: None })
}
