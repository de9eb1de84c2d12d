//! What the viewer shows of a judged note: the spans to highlight (source tokens, the stale
//! value, the completeness tag) and the verdict in one sentence.

use serde::{Deserialize, Serialize};

use super::verdict::probe_note;
use super::{Mode, NoteInput, NoteProbe, Span, Verdict};
use crate::error::IngestError;

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
