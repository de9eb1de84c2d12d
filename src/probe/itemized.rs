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

use rustc_hash::{FxHashMap, FxHashSet};

use super::source::{ItemKind, ItemSpec, Target};
use super::text::{self, CharIndex, NumberTok, Span, Tok, TokKind};

/// Spans listed per token at most; `spans_total` counts them all (a number such as `3` may occur
/// 200,000 times in a 10 MB note: listing each for every item would not end).
pub const MAX_SPANS: usize = 100;

/// One token of an item, and where the note has it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TokenResult {
    /// As shown (`notebooks`, `$4`, `7`, `17:15`).
    pub token: String,
    /// `word`, `number` or `time`.
    pub kind: String,
    /// For a found item: used in the match; otherwise: occurs anywhere in the note.
    pub found: bool,
    /// The first [`MAX_SPANS`] of them, in note order.
    pub spans: Vec<Span>,
    /// How many there are in all.
    #[serde(default)]
    pub spans_total: usize,
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

/// Where each note token occurs, built once per note, so that an item's targets are looked up
/// instead of compared with every token (20,000 items against a 10 MB note ran for hours).
/// A lookup gives exactly the tokens [`Target::matches`] accepts, in note order.
pub struct NoteIndex<'a> {
    toks: &'a [Tok],
    /// Word tokens by their form, and by each of their singular forms.
    words: FxHashMap<&'a str, Vec<usize>>,
    by_singular: FxHashMap<String, Vec<usize>>,
    /// Number tokens by (value bits, percent), and the distinct values sorted (for the
    /// relative tolerance of [`text::numbers_equal`]).
    numbers: FxHashMap<(u64, bool), Vec<usize>>,
    values: Vec<(f64, bool)>,
    times: FxHashMap<u16, Vec<usize>>,
    /// Negation tokens before token i (i = 0..=n), and the clauses holding one.
    negations_before: Vec<usize>,
    negated_clauses: FxHashSet<usize>,
}

/// The note tokens matching one target: disjoint sorted lists.
struct Occ<'a>(Vec<&'a [usize]>);

impl Occ<'_> {
    fn is_empty(&self) -> bool {
        self.0.iter().all(|p| p.is_empty())
    }

    fn len(&self) -> usize {
        self.0.iter().map(|p| p.len()).sum()
    }

    /// All of them in note order.
    fn sorted(&self) -> impl Iterator<Item = usize> + '_ {
        let mut heads = vec![0usize; self.0.len()];
        std::iter::from_fn(move || {
            let (k, &i) =
                self.0.iter().enumerate().filter_map(|(k, p)| p.get(heads[k]).map(|i| (k, i))).min_by_key(|x| x.1)?;
            heads[k] += 1;
            Some(i)
        })
    }

    /// The first one after token `last`.
    fn first_after(&self, last: usize) -> Option<usize> {
        self.0.iter().filter_map(|p| p.get(p.partition_point(|&i| i <= last)).copied()).min()
    }
}

impl<'a> NoteIndex<'a> {
    pub fn new(toks: &'a [Tok]) -> Self {
        let mut ix = NoteIndex {
            toks,
            words: FxHashMap::default(),
            by_singular: FxHashMap::default(),
            numbers: FxHashMap::default(),
            values: Vec::new(),
            times: FxHashMap::default(),
            negations_before: Vec::with_capacity(toks.len() + 1),
            negated_clauses: FxHashSet::default(),
        };
        let mut negations = 0;
        for (i, t) in toks.iter().enumerate() {
            ix.negations_before.push(negations);
            match &t.kind {
                TokKind::Word { norm, negation } => {
                    ix.words.entry(norm.as_str()).or_default().push(i);
                    for s in text::singulars(norm) {
                        ix.by_singular.entry(s).or_default().push(i);
                    }
                    if *negation {
                        negations += 1;
                        ix.negated_clauses.insert(t.clause);
                    }
                }
                TokKind::Number(n) => {
                    let key = (n.value.to_bits(), n.unit == text::Unit::Percent);
                    let at = ix.numbers.entry(key).or_default();
                    if at.is_empty() {
                        ix.values.push((n.value, key.1));
                    }
                    at.push(i);
                }
                TokKind::Time(x) => ix.times.entry(x.minutes).or_default().push(i),
            }
        }
        ix.negations_before.push(negations);
        ix.values.sort_by(|a, b| a.0.total_cmp(&b.0));
        ix
    }

    /// The tokens `target` matches (as [`Target::matches`] decides).
    fn occurrences<'s>(&'s self, target: &Target) -> Occ<'s> {
        let get = |m: Option<&'s Vec<usize>>| m.map_or(&[][..], Vec::as_slice);
        match target {
            // words_match(w, norm): norm = w, norm is a singular of w, or w a singular of norm.
            Target::Word { word } => {
                let mut parts = vec![get(self.words.get(word.as_str())), get(self.by_singular.get(word))];
                for s in text::singulars(word) {
                    parts.push(get(self.words.get(s.as_str())));
                }
                Occ(parts)
            }
            Target::Number { value, percent, .. } => {
                // numbers_equal allows a relative difference of 1e-9: every distinct value within
                // twice that window is a candidate, then checked exactly.
                let window = 2e-9 * value.abs().max(1.0);
                let from = self.values.partition_point(|v| v.0 < value - window);
                let a =
                    NumberTok { value: *value, unit: if *percent { text::Unit::Percent } else { text::Unit::None } };
                let parts = self.values[from..]
                    .iter()
                    .take_while(|v| v.0 <= value + window)
                    .filter(|v| {
                        let unit = if v.1 { text::Unit::Percent } else { text::Unit::None };
                        text::numbers_equal(a, NumberTok { value: v.0, unit })
                    })
                    .map(|v| get(self.numbers.get(&(v.0.to_bits(), v.1))))
                    .collect();
                Occ(parts)
            }
            Target::Time { minutes } => Occ(vec![get(self.times.get(minutes))]),
        }
    }

    /// Is there a negation among tokens `from..=to`?
    fn negation_between(&self, from: usize, to: usize) -> bool {
        self.negations_before[to + 1] > self.negations_before[from]
    }
}

fn spans_of(ids: impl Iterator<Item = usize>, toks: &[Tok], idx: &CharIndex) -> Vec<Span> {
    ids.take(MAX_SPANS).map(|i| idx.span(toks[i].byte_start, toks[i].byte_end)).collect()
}

/// A clause's targets in order within one sentence, polarity respected: the note token
/// indices used, or `None`. (Sentences only grow along the note, so the first occurrence after
/// the previous target is the only candidate in the same sentence.)
fn clause_match(item: &ItemSpec, occ: &[Occ<'_>], ix: &NoteIndex<'_>) -> Option<Vec<usize>> {
    let toks = ix.toks;
    let first = occ.first()?;
    'start: for s in first.sorted() {
        let sentence = toks[s].sentence;
        let mut used = vec![s];
        let mut last = s;
        for o in &occ[1..] {
            match o.first_after(last) {
                Some(i) if toks[i].sentence == sentence => {
                    used.push(i);
                    last = i;
                }
                _ => continue 'start,
            }
        }
        // One token: a negation in its clause; several: between the first and the last.
        let negated_here =
            if used.len() == 1 { ix.negated_clauses.contains(&toks[s].clause) } else { ix.negation_between(s, last) };
        if negated_here == item.negated {
            return Some(used);
        }
    }
    None
}

/// Matches one item against the note's tokens.
pub fn match_item(item: &ItemSpec, ix: &NoteIndex<'_>, idx: &CharIndex) -> ItemResult {
    let occ: Vec<Occ<'_>> = item.targets.iter().map(|t| ix.occurrences(t)).collect();
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
        ItemKind::Clause => match clause_match(item, &occ, ix) {
            Some(u) => (true, Some(u)),
            None => (false, None),
        },
    };
    let tokens = item
        .targets
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let (spans, total) = match &used {
                Some(u) => (spans_of(std::iter::once(u[i]), ix.toks, idx), 1),
                None => (spans_of(occ[i].sorted(), ix.toks, idx), occ[i].len()),
            };
            TokenResult {
                token: t.display(),
                kind: t.kind_name().to_string(),
                found: total > 0,
                spans,
                spans_total: total,
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
        parse_source(source, SourceKind::Auto)
            .iter()
            .map(|i| match_item(i, &NoteIndex::new(&toks), &idx).found)
            .collect()
    }

    #[test]
    fn the_index_finds_exactly_what_comparing_every_token_finds() {
        let note = "Cities: 3 cities, a city, the citys; 4 boxes at $4.00 and 4% (four) of 1000000000 \
                    vs 1000000000.5 and 1000000001; classes, glasses, 17:15 or 5:15 pm. Not 3 buses; bus 3.";
        let toks = tokenize(note);
        let ix = NoteIndex::new(&toks);
        let mut targets: Vec<Target> = toks.iter().filter_map(Target::of_tok).collect();
        for w in ["city", "citie", "box", "boxe", "class", "glass", "bus", "buse", "absent"] {
            targets.push(Target::Word { word: w.to_string() });
        }
        for (value, percent) in [(4.0, false), (4.0, true), (1e9, false), (1e9 + 0.5, false), (3.0000000001, false)] {
            targets.push(Target::Number { value, percent, currency: false });
        }
        for t in &targets {
            let every: Vec<usize> = toks.iter().enumerate().filter(|(_, k)| t.matches(k)).map(|(i, _)| i).collect();
            let occ = ix.occurrences(t);
            assert_eq!(occ.sorted().collect::<Vec<_>>(), every, "{t:?}");
            assert_eq!(occ.len(), every.len(), "{t:?}");
            for last in 0..toks.len() {
                assert_eq!(occ.first_after(last), every.iter().copied().find(|&i| i > last), "{t:?} after {last}");
            }
        }
    }

    #[test]
    fn spans_are_listed_up_to_the_limit_and_counted_in_full() {
        let note = "3 ".repeat(MAX_SPANS + 7);
        let toks = tokenize(&note);
        let item = ItemSpec {
            label: "3".into(),
            kind: ItemKind::Domain,
            targets: vec![Target::Number { value: 3.0, percent: false, currency: false }],
            negated: false,
        };
        let r = match_item(&item, &NoteIndex::new(&toks), &CharIndex::new(&note));
        assert!(r.found);
        assert_eq!((r.tokens[0].spans.len(), r.tokens[0].spans_total), (MAX_SPANS, MAX_SPANS + 7));
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
        assert!(
            match_item(&one("Rome", "rome", false), &NoteIndex::new(&toks), &idx).found,
            "Rome is affirmed in its clause"
        );
        assert!(
            match_item(&one("not Paris", "paris", true), &NoteIndex::new(&toks), &idx).found,
            "Paris is negated in its clause"
        );
        assert!(!match_item(&one("Paris", "paris", false), &NoteIndex::new(&toks), &idx).found);
        let commas = tokenize("Rome, never Paris");
        let idx = CharIndex::new("Rome, never Paris");
        assert!(match_item(&one("Rome", "rome", false), &NoteIndex::new(&commas), &idx).found);
    }

    #[test]
    fn spans_point_at_the_tokens() {
        let note = "Pens: 9 at $2. Notebooks: 7 at $4.";
        let toks = tokenize(note);
        let idx = CharIndex::new(note);
        let items = parse_source(NB, SourceKind::Auto);
        let r = match_item(&items[1], &NoteIndex::new(&toks), &idx);
        assert!(r.found);
        let texts: Vec<&str> = r.tokens.iter().map(|t| &note[t.spans[0].byte_start..t.spans[0].byte_end]).collect();
        assert_eq!(texts, vec!["Pens", "$2", "9"]);
    }
}
