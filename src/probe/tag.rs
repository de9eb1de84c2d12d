//! The completeness tag: a note's own statement of how many source items it kept.
//!
//! reclaim-eval's `sizesweep.build_note("source_first_complete")` appends, only when k < N,
//!
//! ```text
//!  [Note: this memory preserved only {k} of the original {n} line items; {n-k} were dropped and are not shown.]
//! ```
//!
//! (seed-003-004 notes § A2.3; paper §7 "one-line 'k of N items preserved' tag"). The parser
//! tries these patterns in order (case-insensitive, `\s+` between words) and reports the first
//! match, with the variant's name:
//!
//! | variant | pattern | example |
//! |---|---|---|
//! | `exact` | `preserved only (k) of the original (n) line items` | the reclaim-eval tag |
//! | `k_of_n_items` | `(k) [out] of [the] [original] (n) [source\|original] [line] item[s]` | `4 of 6 items preserved`, `3 out of 5 line items` |
//! | `k_slash_n_items` | `(k)/(n) [line] item[s]` | `4/6 items kept` |
//! | `items_colon` | `item[s] [kept\|preserved\|retained\|included]: (k) (/\|of) (n)` | `items kept: 4/6` |
//! | `all_n_items` | `all (n) [original] [line] item[s] [are\|were] (preserved\|kept\|retained\|included\|shown)` | `all 6 items preserved` (k = n) |
//!
//! The tag **declares a loss** when k < n. The probe compares it with the measured k and N.

use std::sync::LazyLock;

use regex::Regex;
use serde::{Deserialize, Serialize};

use super::text::{CharIndex, Span};

/// A parsed completeness tag.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tag {
    /// Items the tag says were kept.
    pub k: u64,
    /// Items the tag says the source had.
    pub n: u64,
    /// Which pattern matched (`exact`, `k_of_n_items`, `k_slash_n_items`, `items_colon`, `all_n_items`).
    pub variant: String,
    /// The matched text.
    pub text: String,
    pub span: Span,
}

impl Tag {
    /// k < n: the note says items were dropped.
    pub fn declares_loss(&self) -> bool {
        self.k < self.n
    }
}

struct Pattern {
    name: &'static str,
    re: Regex,
    /// capture group of k, of n (0 = k equals n)
    k: usize,
    n: usize,
}

fn pattern(name: &'static str, re: &str, k: usize, n: usize) -> Pattern {
    // ok: the patterns are constants of this file, compiled in tests
    Pattern { name, re: Regex::new(re).expect("valid tag pattern"), k, n } // ok: constant pattern, exercised by the tests
}

static PATTERNS: LazyLock<Vec<Pattern>> = LazyLock::new(|| {
    vec![
        pattern("exact", r"(?i)preserved\s+only\s+(\d+)\s+of\s+the\s+original\s+(\d+)\s+line\s+items", 1, 2),
        pattern(
            "k_of_n_items",
            r"(?i)\b(\d+)\s+(?:out\s+)?of\s+(?:the\s+)?(?:original\s+)?(\d+)\s+(?:(?:source|original)\s+)?(?:line[\s-]+)?items?\b",
            1,
            2,
        ),
        pattern("k_slash_n_items", r"(?i)\b(\d+)\s*/\s*(\d+)\s+(?:line[\s-]+)?items?\b", 1, 2),
        pattern(
            "items_colon",
            r"(?i)\bitems?\s*(?:kept|preserved|retained|included)?\s*:\s*(\d+)\s*(?:/|of)\s*(\d+)",
            1,
            2,
        ),
        pattern(
            "all_n_items",
            r"(?i)\ball\s+(\d+)\s+(?:original\s+)?(?:line[\s-]+)?items?\s+(?:(?:are|were)\s+)?(?:preserved|kept|retained|included|shown)",
            0,
            1,
        ),
    ]
});

/// The first completeness tag in `note`, if any (see the module documentation).
pub fn parse_tag(note: &str) -> Option<Tag> {
    let idx = CharIndex::new(note);
    for p in PATTERNS.iter() {
        if let Some(c) = p.re.captures(note) {
            let num = |g: usize| c.get(g).and_then(|m| m.as_str().parse::<u64>().ok());
            let Some(n) = num(p.n) else { continue };
            let k = if p.k == 0 { Some(n) } else { num(p.k) };
            let (Some(k), Some(m)) = (k, c.get(0)) else { continue };
            return Some(Tag {
                k,
                n,
                variant: p.name.to_string(),
                text: m.as_str().to_string(),
                span: idx.span(m.start(), m.end()),
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_reclaim_tag() {
        let note = "(Memory of an earlier session.) The facts were: a at $1 each (2 bought). \
                    [Note: this memory preserved only 5 of the original 6 line items; 1 were dropped and are not shown.]";
        let t = parse_tag(note).unwrap();
        assert_eq!((t.k, t.n, t.variant.as_str()), (5, 6, "exact"));
        assert!(t.declares_loss());
        assert_eq!(&note[t.span.byte_start..t.span.byte_end], t.text);
        assert!(PATTERNS.len() == 5);
    }

    #[test]
    fn looser_variants() {
        let cases = [
            ("PRESERVED ONLY 15 of the original 16 line items", 15, 16, "exact"),
            ("(4 of 6 items preserved)", 4, 6, "k_of_n_items"),
            ("kept 3 out of 5 line items", 3, 5, "k_of_n_items"),
            ("only 2 of the original 4 source items survive", 2, 4, "k_of_n_items"),
            ("4 of 6 line-items", 4, 6, "k_of_n_items"),
            ("[4/6 items kept]", 4, 6, "k_slash_n_items"),
            ("Items kept: 4/6", 4, 6, "items_colon"),
            ("items: 3 of 3", 3, 3, "items_colon"),
            ("all 6 items preserved", 6, 6, "all_n_items"),
            ("All 4 line items were kept.", 4, 4, "all_n_items"),
        ];
        for (text, k, n, variant) in cases {
            let t = parse_tag(text).unwrap_or_else(|| panic!("{text}"));
            assert_eq!((t.k, t.n, t.variant.as_str()), (k, n, variant), "{text}");
        }
        for text in ["7 notebooks at $4", "one of the original 16 items is missing", "4 of 6", "$4 of 6 pens"] {
            assert_eq!(parse_tag(text), None, "{text}");
        }
        assert!(!parse_tag("all 6 items preserved").unwrap().declares_loss());
    }

    #[test]
    fn huge_numbers_do_not_panic() {
        assert_eq!(parse_tag("99999999999999999999999 of 3 items"), None);
    }
}
