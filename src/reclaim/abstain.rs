//! The abstention rule: when a trial that was not recovered counts as an **abstention** rather
//! than a confident-wrong **emission**.
//!
//! * [`AbstainRule::Strict`] (default): abstain = no committed value on the ANSWER line (the
//!   strict parse of [`super::score`], or the stored answer / bucket). This is what the paper's
//!   tables count ("we score the value the model commits on its ANSWER line, not whether the
//!   surrounding prose hedges", §5; Tables 3, 7, 10, 17).
//! * [`AbstainRule::Hedge`]: reclaim-eval's behavioural `_is_abstain` (`src/reclaim/probe.py`,
//!   collapseindex/reclaim-eval @ ec5947fc33ef1748516621438eecb5b405975eb0; seed-003-004 notes
//!   § A2.2): abstain = no parsable answer, **or** the reply contains any [`HEDGE_PHRASES`]
//!   phrase. The phrases are searched in the **whole raw reply** (the row's `reply` /
//!   `raw_reply`, prose and ANSWER line alike), lower-cased (Python `str.lower()`; Rust
//!   `str::to_lowercase`, the same full Unicode mapping), as **raw substrings**: no word
//!   boundaries, no whitespace or apostrophe normalisation (`tunable` contains `unable`;
//!   `can’t` with a typographic apostrophe is not `can't`; `not  sure` with two spaces is not
//!   `not sure`).
//!
//! As in the released `probe_policy`, `_is_abstain` is asked only of replies that were **not**
//! recovered (`if not ok: declined += _is_abstain(reply, p)`): a correct reply that hedges
//! still counts as recovered, so RR is the same under both rules; abstain = declined / n.
//!
//! "No parsable answer" follows `_is_abstain` exactly: numeric problems use `parse_answer` (the
//! strict numeric parse); word problems call `parse_answer_word(reply)` **without** the
//! problem's options, i.e. the last ANSWER-line word unless it is on reclaim's `_NONANSWER`
//! blocklist ([`NONANSWER_WORDS`]). So under `hedge` a word reply committing a non-option word
//! (`ANSWER: Zed`) is an emission, where the strict rule calls it an abstention; memaudit counts
//! such trials in a warning. reclaim-eval has no time problems in its probe; for them memaudit
//! uses the strict time parse [extension].

use super::score::{AnswerKind, extract_time, parse_answer, word_on_answer_line};

/// reclaim-eval `probe.py` `_HEDGE`, in its order.
pub const HEDGE_PHRASES: [&str; 11] = [
    "not sure",
    "cannot",
    "can't",
    "can not",
    "don't have",
    "do not have",
    "enough to recompute",
    "unable",
    "insufficient",
    "no way to",
    "need the original",
];

/// reclaim-eval `llm.py` `_NONANSWER`: the words `parse_answer_word` refuses when it is given no
/// options (the call `_is_abstain` makes).
pub const NONANSWER_WORDS: [&str; 42] = [
    "please",
    "unable",
    "cannot",
    "cant",
    "none",
    "nobody",
    "noone",
    "unknown",
    "unclear",
    "insufficient",
    "sorry",
    "i",
    "no",
    "not",
    "na",
    "n",
    "without",
    "need",
    "more",
    "there",
    "the",
    "a",
    "an",
    "sufficient",
    "determine",
    "provide",
    "details",
    "detail",
    "information",
    "info",
    "memory",
    "context",
    "unsure",
    "unspecified",
    "undetermined",
    "indeterminate",
    "ambiguous",
    "uncertain",
    "missing",
    "lacking",
    "given",
    "based",
];

crate::choice! {
    /// Which trials count as abstentions.
    #[derive(Default)]
    pub enum AbstainRule {
        /// No committed value on the ANSWER line (the paper's tables).
        #[default]
        Strict,
        /// reclaim-eval's behavioural `_is_abstain`: no parsable answer or any hedge phrase in the
        /// raw reply (needs replies; rows without one fall back to `strict`, counted).
        Hedge,
    }
}

impl AbstainRule {
    /// The rule of a name (`strict`, `hedge`).
    pub fn parse(s: &str) -> Option<AbstainRule> {
        match s.trim().to_ascii_lowercase().as_str() {
            "strict" => Some(AbstainRule::Strict),
            "hedge" => Some(AbstainRule::Hedge),
            _ => None,
        }
    }

    /// One line saying what the rule counts.
    pub fn describe(self) -> &'static str {
        match self {
            AbstainRule::Strict => "abstain = no committed value on the ANSWER line (the paper's tables)",
            AbstainRule::Hedge => {
                "abstain = not recovered and (no parsable answer or a hedge phrase anywhere in the raw reply) \
                 (reclaim-eval probe.py _is_abstain)"
            }
        }
    }
}

/// The first hedge phrase (in [`HEDGE_PHRASES`] order) found in the lower-cased reply.
pub fn hedge_phrase(reply: &str) -> Option<&'static str> {
    let low = reply.to_lowercase();
    HEDGE_PHRASES.iter().copied().find(|h| low.contains(h))
}

/// `parse_answer_word(reply)` with no options: the last ANSWER-line word unless it is one of
/// [`NONANSWER_WORDS`] (compared lower-cased).
pub fn parse_word_unconstrained(reply: &str) -> Option<String> {
    let w = word_on_answer_line(reply)?;
    let low = w.to_lowercase();
    if NONANSWER_WORDS.contains(&low.as_str()) { None } else { Some(w) }
}

/// Whether `_is_abstain` parses an answer from the reply (see the module docs for each kind).
pub fn hedge_parses(reply: &str, kind: AnswerKind, loose_time: bool) -> bool {
    match kind {
        AnswerKind::Number => parse_answer(reply).is_some(),
        AnswerKind::Word => parse_word_unconstrained(reply).is_some(),
        AnswerKind::Time => extract_time(reply, loose_time).is_some(),
    }
}

/// reclaim-eval's `_is_abstain(reply, problem)`: no parsable answer or a hedge phrase.
pub fn is_abstain_hedge(reply: &str, kind: AnswerKind, loose_time: bool) -> bool {
    !hedge_parses(reply, kind, loose_time) || hedge_phrase(reply).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_phrase_matches_in_any_case_anywhere() {
        for h in HEDGE_PHRASES {
            assert_eq!(hedge_phrase(h), Some(h), "{h}");
            assert!(hedge_phrase(&format!("Well, {}. ANSWER: 46", h.to_uppercase())).is_some(), "{h} upper");
            assert!(
                is_abstain_hedge(&format!("ANSWER: 46\n(I {h} say more)"), AnswerKind::Number, false),
                "{h} after the ANSWER line"
            );
        }
        assert_eq!(hedge_phrase("I can not and cannot"), Some("cannot"), "first in list order");
    }

    #[test]
    fn raw_substrings_no_normalisation() {
        // inside other words: a raw substring test, as Python's `h in low`
        assert_eq!(hedge_phrase("a tunable knob"), Some("unable"));
        assert_eq!(hedge_phrase("Insufficiently"), Some("insufficient"));
        assert_eq!(hedge_phrase("cannoted"), Some("cannot"));
        assert_eq!(hedge_phrase("need the originals"), Some("need the original"));
        // near misses
        for miss in [
            "notsure",
            "not  sure",
            "I can\u{2019}t",
            "cant",
            "I can\nnot",
            "I don\u{2019}t have it",
            "I dont have it",
            "enough to re-compute",
            "un able",
            "in-sufficient",
            "no way, to",
            "need an original",
            "ＣＡＮＮＯＴ",
            "\u{130}NSUFFICIENT",
        ] {
            assert_eq!(hedge_phrase(miss), None, "{miss:?}");
        }
    }

    #[test]
    fn parsable_answer_by_kind() {
        assert!(!is_abstain_hedge("ANSWER: 46", AnswerKind::Number, false));
        assert!(is_abstain_hedge("The total is 46.", AnswerKind::Number, false), "no ANSWER line");
        assert!(is_abstain_hedge("Insufficient data.\nANSWER: 46", AnswerKind::Number, false), "hedged commit");
        // words: no options, the _NONANSWER blocklist
        assert!(!is_abstain_hedge("ANSWER: Zed", AnswerKind::Word, false), "any word outside the blocklist");
        assert!(is_abstain_hedge("ANSWER: Unknown", AnswerKind::Word, false));
        assert!(is_abstain_hedge("ANSWER: none", AnswerKind::Word, false));
        assert!(is_abstain_hedge("ANSWER: 42", AnswerKind::Word, false), "a word must start with a letter");
        assert_eq!(parse_word_unconstrained("ANSWER: ben\nANSWER: **Ana**").as_deref(), Some("Ana"));
        // times: the strict parse (extension)
        assert!(!is_abstain_hedge("ANSWER: 5:15 pm", AnswerKind::Time, false));
        assert!(is_abstain_hedge("Leave at 17:15", AnswerKind::Time, false));
        assert!(!is_abstain_hedge("Leave at 17:15", AnswerKind::Time, true));
    }

    #[test]
    fn names_round_trip() {
        for r in [AbstainRule::Strict, AbstainRule::Hedge] {
            assert_eq!(AbstainRule::parse(r.name()), Some(r));
            assert_eq!(serde_json::to_value(r).unwrap(), serde_json::Value::String(r.name().into()));
        }
        assert_eq!(AbstainRule::parse("lenient"), None);
        assert_eq!(AbstainRule::default(), AbstainRule::Strict);
    }
}
