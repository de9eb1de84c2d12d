//! `itemized` mode: the source as items (see [`super::source`]), the note as tokens (see
//! [`super::text`]), k of N items kept, the stale value by token, and the completeness tag.
//!
//! Verdicts (k items found of N, `stale` = the stale value occurs, `loss` = a completeness
//! tag with k < n is present):
//!
//! | verdict | rule | meaning |
//! |---|---|---|
//! | `complete` | k = N | a correction can recompute the answer (the stale value may be there too) |
//! | `partial_tagged` | 0 < k < N, loss | loud: the note says items are missing |
//! | `partial_silent` | 0 < k < N, no loss | silent: a reader may sum the items it sees |
//! | `silent` | k = 0, stale, no loss | the silent-uncorrectable case: no source, stale value kept |
//! | `loud` | k = 0, and no stale value or a loss tag | uncorrectable, but nothing stale is asserted unflagged |
//!
//! This is the item-level design of seed-003-004 § A2.4 with two changes the issue asks for:
//! a partial note is split by its completeness tag (the paper's remedy for the silent size
//! boundary, §7), not by the stale value; and words and numbers are matched as tokens.

use serde::{Deserialize, Serialize};

use super::source::{ItemKind, ItemSpec, Target};
use super::text::{CharIndex, Span, Tok};

/// One token of an item, and where the note has it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TokenResult {
    /// As shown (`notebooks`, `$4`, `7`, `17:15`).
    pub token: String,
    /// `word`, `number` or `time`.
    pub kind: String,
    /// For a found item: used in the match; otherwise: occurs anywhere in the note.
    pub found: bool,
    pub spans: Vec<Span>,
}

/// One source item and whether the note keeps it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ItemResult {
    pub label: String,
    pub kind: ItemKind,
    pub negated: bool,
    pub found: bool,
    pub tokens: Vec<TokenResult>,
}

/// Indices of the note tokens that match each target.
fn occurrences(targets: &[Target], toks: &[Tok]) -> Vec<Vec<usize>> {
    targets.iter().map(|t| toks.iter().enumerate().filter(|(_, k)| t.matches(k)).map(|(i, _)| i).collect()).collect()
}

fn spans_of(ids: &[usize], toks: &[Tok], idx: &CharIndex) -> Vec<Span> {
    ids.iter().map(|&i| idx.span(toks[i].byte_start, toks[i].byte_end)).collect()
}

/// A clause's targets in order within one sentence, polarity respected: the note token
/// indices used, or `None`.
fn clause_match(item: &ItemSpec, occ: &[Vec<usize>], toks: &[Tok]) -> Option<Vec<usize>> {
    let first = occ.first()?;
    'start: for &s in first {
        let sentence = toks[s].sentence;
        let mut used = vec![s];
        let mut last = s;
        for o in &occ[1..] {
            match o.iter().find(|&&i| i > last && toks[i].sentence == sentence) {
                Some(&i) => {
                    used.push(i);
                    last = i;
                }
                None => continue 'start,
            }
        }
        // One token: a negation in its clause; several: between the first and the last.
        let negated_here = if used.len() == 1 {
            toks.iter().any(|t| t.clause == toks[s].clause && t.is_negation())
        } else {
            toks[s..=last].iter().any(Tok::is_negation)
        };
        if negated_here == item.negated {
            return Some(used);
        }
    }
    None
}

/// Matches one item against the note's tokens.
pub fn match_item(item: &ItemSpec, toks: &[Tok], idx: &CharIndex) -> ItemResult {
    let occ = occurrences(&item.targets, toks);
    let has = |i: usize| !occ[i].is_empty();
    let (found, used): (bool, Option<Vec<usize>>) = match item.kind {
        ItemKind::LineItem => {
            let words: Vec<usize> =
                (0..item.targets.len()).filter(|&i| matches!(item.targets[i], Target::Word { .. })).collect();
            let any_word = words.is_empty() || words.iter().any(|&i| has(i));
            let all_other = (0..item.targets.len()).filter(|i| !words.contains(i)).all(has);
            (any_word && all_other && !item.targets.is_empty(), None)
        }
        ItemKind::Time | ItemKind::Domain => (!item.targets.is_empty() && (0..item.targets.len()).all(has), None),
        ItemKind::Clause => match clause_match(item, &occ, toks) {
            Some(u) => (true, Some(u)),
            None => (false, None),
        },
    };
    let tokens = item
        .targets
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let ids: Vec<usize> = match &used {
                Some(u) => vec![u[i]],
                None => occ[i].clone(),
            };
            TokenResult {
                token: t.display(),
                kind: t.kind_name().to_string(),
                found: !ids.is_empty(),
                spans: spans_of(&ids, toks, idx),
            }
        })
        .collect();
    ItemResult { label: item.label.clone(), kind: item.kind, negated: item.negated, found, tokens }
}

/// Where the stale value occurs: runs of consecutive note tokens matching the stale tokens.
pub fn find_stale(stale: &[Target], toks: &[Tok], idx: &CharIndex) -> Vec<Span> {
    if stale.is_empty() || toks.len() < stale.len() {
        return Vec::new();
    }
    (0..=toks.len() - stale.len())
        .filter(|&s| stale.iter().enumerate().all(|(j, t)| t.matches(&toks[s + j])))
        .map(|s| idx.span(toks[s].byte_start, toks[s + stale.len() - 1].byte_end))
        .collect()
}

/// The stale value's tokens (`"$55"` → one number; `"Ben"` → one word; `"17:15"` → one time).
pub fn stale_targets(stale: &str) -> Vec<Target> {
    super::text::tokenize(stale).iter().filter_map(Target::of_tok).collect()
}

#[cfg(test)]
mod tests {
    use super::super::source::{SourceKind, parse_source};
    use super::super::text::tokenize;
    use super::*;

    fn found(source: &str, note: &str) -> Vec<bool> {
        let toks = tokenize(note);
        let idx = CharIndex::new(note);
        parse_source(source, SourceKind::Auto).iter().map(|i| match_item(i, &toks, &idx).found).collect()
    }

    fn stale_in(stale: &str, note: &str) -> usize {
        find_stale(&stale_targets(stale), &tokenize(note), &CharIndex::new(note)).len()
    }

    const NB: &str = "notebooks at $4 each (7 bought) and pens at $2 each (9 bought)";

    #[test]
    fn line_items_found_by_noun_and_numbers() {
        assert_eq!(
            found(NB, "The facts were: notebooks at $4 each (7 bought) and pens at $2 each (9 bought)."),
            [true, true]
        );
        assert_eq!(
            found(NB, "* Number of notebooks: 7\n* Price per notebook: $4\n* Number of pens: 9\n* Price per pen: $2"),
            [true, true]
        );
        assert_eq!(found(NB, "7 notebooks at $4.00; the pens came to $27"), [true, false]);
        assert_eq!(found(NB, "notebooks at $40 each (70 bought)"), [false, false]);
        assert_eq!(found(NB, "You concluded the total before tax was $55."), [false, false]);
    }

    #[test]
    fn stale_value_as_a_token() {
        assert_eq!(stale_in("$55", "the total was $55."), 1);
        assert_eq!(stale_in("$55", "the total was $550."), 0);
        assert_eq!(stale_in("$55", "the total was $55.00"), 1);
        assert_eq!(stale_in("$55", "the total was 55 dollars"), 1);
        assert_eq!(stale_in("$55", "5500 cents, 55%"), 0);
        assert_eq!(stale_in("Ben", "You concluded the manager was Ben."), 1);
        assert_eq!(stale_in("Ben", "a Benefit for Bent"), 0);
        assert_eq!(stale_in("Ben", "Ben's role"), 1);
        assert_eq!(stale_in("17:15", "leave at 5:15 pm"), 1);
        assert_eq!(stale_in("position 3", "in position 3."), 1);
        assert_eq!(stale_in("", "anything"), 0);
    }

    #[test]
    fn clauses_respect_order_sentence_and_polarity() {
        let src = "Ben is not the manager, and Cleo is the auditor (one each of manager, designer, auditor among Ana, Ben, Cleo)";
        assert_eq!(
            found(src, "Ben is NOT the manager. Cleo is the auditor. Ana, Ben, Cleo: manager, designer, auditor."),
            [true, true, true]
        );
        assert_eq!(found(src, "You concluded the manager was Ben. Ben is the manager."), [false, false, false]);
        assert_eq!(found(src, "Ben isn't the manager; Cleo is not the auditor"), [true, false, false]);
        assert_eq!(found(src, "Ben. Not the manager."), [false, false, false], "one sentence");
        let race = "Hal ahead of Ira, Ira ahead of Jo, Jo ahead of Kit, and Kit ahead of Lee";
        assert_eq!(
            found(race, "Hal finished ahead of Ira. Ira ahead of Hal. Lee ahead of Kit."),
            [true, false, false, false]
        );
    }

    /// A negation negates its own clause only: "visited Rome but has not had the chance to visit
    /// Paris" keeps Rome (affirmed) and Paris (negated).
    #[test]
    fn a_negation_in_another_clause_does_not_negate() {
        let one = |label: &str, word: &str, negated: bool| ItemSpec {
            label: label.into(),
            kind: ItemKind::Clause,
            targets: vec![Target::Word { word: word.into() }],
            negated,
        };
        let note = "The user visited Rome but has not had the chance to visit Paris.";
        let toks = tokenize(note);
        let idx = CharIndex::new(note);
        assert!(match_item(&one("Rome", "rome", false), &toks, &idx).found, "Rome is affirmed in its clause");
        assert!(match_item(&one("not Paris", "paris", true), &toks, &idx).found, "Paris is negated in its clause");
        assert!(!match_item(&one("Paris", "paris", false), &toks, &idx).found);
        let commas = tokenize("Rome, never Paris");
        let idx = CharIndex::new("Rome, never Paris");
        assert!(match_item(&one("Rome", "rome", false), &commas, &idx).found);
    }

    #[test]
    fn spans_point_at_the_tokens() {
        let note = "Pens: 9 at $2. Notebooks: 7 at $4.";
        let toks = tokenize(note);
        let idx = CharIndex::new(note);
        let items = parse_source(NB, SourceKind::Auto);
        let r = match_item(&items[1], &toks, &idx);
        assert!(r.found);
        let texts: Vec<&str> = r.tokens.iter().map(|t| &note[t.spans[0].byte_start..t.spans[0].byte_end]).collect();
        assert_eq!(texts, vec!["Pens", "$2", "9"]);
    }
}
