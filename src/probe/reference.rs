//! `reference` mode: bit-compatible with reclaim-eval's `reclaim.probe.classify_note`
//! (collapseindex/reclaim-eval `src/reclaim/probe.py` @ d7f0797; seed-003-004 notes § A2.2):
//!
//! ```text
//! SRC_MARKER = 18
//! n             = note.lower()
//! src_present   = bool(source)     and source[:18].lower() in n      # raw substring
//! concl_present = bool(conclusion) and str(conclusion).lower() in n  # raw substring
//! src_present → correctable;  else concl_present → uncorrectable_silent;  else uncorrectable_loud
//! ```
//!
//! `source[:18]` is the first 18 **characters** (Python slices code points). Lower-casing is
//! Rust's `str::to_lowercase`, which equals Python's `str.lower()` on ASCII and on the common
//! accented and Greek letters (final sigma included; both are full Unicode mappings, from
//! possibly different Unicode versions). No whitespace collapsing, no number parsing, no word
//! boundaries: `$55` is found inside `$550` and `Ben` inside `Benefit`, exactly as in the
//! reference. The source takes precedence over the conclusion.

use serde::{Deserialize, Serialize};

use super::text::{CharIndex, Span};

/// The reference probe's source marker: this many leading characters of the source.
pub const SRC_MARKER: usize = 18;

/// The reference probe's three regimes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Regime {
    Correctable,
    UncorrectableSilent,
    UncorrectableLoud,
}

/// `Verdict(regime, silent_failure, correctable)` of the reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReferenceVerdict {
    pub regime: Regime,
    pub silent_failure: bool,
    pub correctable: bool,
}

/// The first [`SRC_MARKER`] characters of `source`, lower-cased (the source token).
pub fn source_marker(source: &str) -> String {
    let end = source.char_indices().nth(SRC_MARKER).map_or(source.len(), |(b, _)| b);
    source[..end].to_lowercase()
}

/// `classify_note(note, source, conclusion)`, exactly.
pub fn classify_note(note: &str, source: &str, conclusion: &str) -> ReferenceVerdict {
    let n = note.to_lowercase();
    let src_present = !source.is_empty() && n.contains(&source_marker(source));
    let concl_present = !conclusion.is_empty() && n.contains(&conclusion.to_lowercase());
    if src_present {
        ReferenceVerdict { regime: Regime::Correctable, silent_failure: false, correctable: true }
    } else if concl_present {
        ReferenceVerdict { regime: Regime::UncorrectableSilent, silent_failure: true, correctable: false }
    } else {
        ReferenceVerdict { regime: Regime::UncorrectableLoud, silent_failure: false, correctable: false }
    }
}

/// Every occurrence of `needle_lower` (already lower-cased) in the lower-cased `note`, as spans
/// of the original note. Occurrences may overlap.
pub fn find_lowered(note: &str, needle_lower: &str) -> Vec<Span> {
    if needle_lower.is_empty() {
        return Vec::new();
    }
    let lowered = note.to_lowercase();
    // Byte offset in `lowered` where each original character's lower-case form starts. Every
    // character lower-cases independently except Σ (σ or ς by context), and both of those are
    // two bytes, so the offsets agree with `str::to_lowercase`.
    let mut orig_of_lower: Vec<(usize, usize)> = Vec::with_capacity(note.len()); // (lowered byte, original byte)
    let mut pos = 0usize;
    for (b, c) in note.char_indices() {
        orig_of_lower.push((pos, b));
        pos += c.to_lowercase().map(char::len_utf8).sum::<usize>();
    }
    let map = |lb: usize, is_end: bool| -> usize {
        match orig_of_lower.binary_search_by_key(&lb, |&(l, _)| l) {
            Ok(i) => orig_of_lower[i].1,
            // inside a character that lower-cased to several: round outwards
            Err(i) => {
                if is_end {
                    orig_of_lower.get(i).map_or(note.len(), |&(_, o)| o)
                } else {
                    orig_of_lower[i.saturating_sub(1)].1
                }
            }
        }
    };
    let idx = CharIndex::new(note);
    let mut out = Vec::new();
    let mut from = 0usize;
    while let Some(rel) = lowered.get(from..).and_then(|rest| rest.find(needle_lower)) {
        let start = from + rel;
        let end = start + needle_lower.len();
        let (b0, b1) = (map(start, false), if end >= pos { note.len() } else { map(end, true) });
        out.push(idx.span(b0, b1));
        // next occurrence may overlap: advance by one character of `lowered`
        from = start + lowered[start..].chars().next().map_or(1, char::len_utf8);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marker_is_eighteen_characters() {
        assert_eq!(source_marker("notebooks at $4 each (7 bought) and pens"), "notebooks at $4 ea");
        assert_eq!(source_marker("Ben is not the manager, and"), "ben is not the man");
        assert_eq!(source_marker("short"), "short");
        assert_eq!(source_marker("ÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉÉ").chars().count(), 18);
    }

    #[test]
    fn spans_map_back_to_the_original() {
        let note = "NOTEBOOKS at $4 each; Ünïcode $55 and $55";
        let spans = find_lowered(note, "$55");
        assert_eq!(spans.len(), 2);
        assert_eq!(&note[spans[0].byte_start..spans[0].byte_end], "$55");
        assert_eq!(spans[0].start, note[..spans[0].byte_start].chars().count());
        let s = find_lowered(note, "ünïcode");
        assert_eq!(&note[s[0].byte_start..s[0].byte_end], "Ünïcode");
        // İ lower-cases to two characters: a match of its first half covers the whole letter
        let s = find_lowered("XİY", "i");
        assert_eq!((s[0].byte_start, s[0].byte_end), (1, 3));
        assert_eq!(find_lowered("aaa", "aa").len(), 2, "overlapping occurrences");
    }
}
