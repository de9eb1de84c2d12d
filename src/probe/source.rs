//! The source as items: what a note must keep for a later correction to recompute the answer.
//!
//! Items are given explicitly (`source_items`) or parsed from a source text by one of three
//! documented tokenizers, chosen by `source_kind` (default `auto`):
//!
//! * **`line_items`** (arithmetic ledgers): the source is split at top level (outside
//!   parentheses) at `;`, `,`, line breaks and the word `and`; a piece without numbers is joined
//!   to the next piece, a piece without noun words to the previous one. Each piece is one item:
//!   its **noun words** (words outside parentheses, not after `per`, not in a small list of unit
//!   and filler words such as `at`, `each`, `bought`, `of`) and **all its numbers** (price and
//!   quantity). Example: `notebooks at $4 each (7 bought)` → noun `notebooks`, numbers `$4`, `7`;
//!   `apples at $3 per bag (5 bags)` → `apples`, `$3`, `5`. An item is found when **any** of its
//!   distinctive noun words (those no other item shares; all of them if every word is shared,
//!   as `tickets` in `adult tickets` / `child tickets`) and **every** number occur in the note,
//!   anywhere (the item-level design measured in seed-003-004 § A2.4).
//! * **`times`** (MultiWOZ): every clock time in the source is one item (normalised `HH:MM`,
//!   see [`super::text`]); found when the same time occurs in the note.
//! * **`clauses`** (constraint logic): the source is split at top level at `,`, `;`, `.` and the
//!   word `and`; each clause is one item whose tokens are its content words (stop words such
//!   as `is`, `the`, `of`, `at` removed) and numbers, in order, with its polarity (negated when
//!   it contains `not`, `no`, `never`, `n't`, ...). A clause is found when one sentence of the
//!   note contains its tokens in the same order, with a negation word between its first and
//!   last token if and only if the clause is negated (`Ben is NOT the manager` keeps
//!   `Ben is not the manager`; `Ben is the manager` does not). Each parenthesised part
//!   (`(one each of manager, designer, auditor among Ana, Ben, Cleo)`) is a **domain** item:
//!   found when all its content words and numbers occur anywhere in the note.
//!
//! `auto` picks `times` when the source holds a clock time, `line_items` when it holds a
//! currency amount (`$4`) or a parenthesised quantity (`(7)`), and `clauses` otherwise.
//!
//! Matching is lexical: paraphrases with other words (`before` for `ahead of`) and numbers
//! written as words are not recognised; give explicit `source_items` when a source needs them.

use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

use super::text::{self, NumberTok, TimeTok, Tok, TokKind, words_match};

/// Which tokenizer turns a source text into items.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SourceKind {
    #[default]
    Auto,
    LineItems,
    Times,
    Clauses,
}

impl SourceKind {
    pub fn parse(s: &str) -> Option<SourceKind> {
        match s.trim().to_ascii_lowercase().replace(['-', ' '], "_").as_str() {
            "auto" | "" => Some(SourceKind::Auto),
            "line_items" | "items" | "lineitems" | "ledger" | "arith" | "number" => Some(SourceKind::LineItems),
            "times" | "time" | "multiwoz" => Some(SourceKind::Times),
            "clauses" | "clause" | "logic" | "text" => Some(SourceKind::Clauses),
            _ => None,
        }
    }
}

/// What kind of item (decides how it is matched).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ItemKind {
    /// Noun words (any) + numbers (all), anywhere in the note.
    LineItem,
    /// One clock time, anywhere.
    Time,
    /// Content words and numbers in order within one sentence, polarity respected.
    Clause,
    /// All words and numbers, anywhere (parenthesised domain lists; explicit items).
    Domain,
}

/// One token an item needs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Target {
    /// Lower-cased word, matched with plural stripping.
    Word {
        word: String,
    },
    Number {
        value: f64,
        percent: bool,
        currency: bool,
    },
    /// Minutes after midnight.
    Time {
        minutes: u16,
    },
}

impl Target {
    pub fn display(&self) -> String {
        match self {
            Target::Word { word } => word.clone(),
            Target::Number { value, percent, currency } => text::format_number(NumberTok {
                value: *value,
                unit: if *percent {
                    text::Unit::Percent
                } else if *currency {
                    text::Unit::Currency
                } else {
                    text::Unit::None
                },
            }),
            Target::Time { minutes } => text::format_time(TimeTok { minutes: *minutes }),
        }
    }

    pub fn kind_name(&self) -> &'static str {
        match self {
            Target::Word { .. } => "word",
            Target::Number { .. } => "number",
            Target::Time { .. } => "time",
        }
    }

    /// Does note token `tok` match this target?
    pub fn matches(&self, tok: &Tok) -> bool {
        match (self, &tok.kind) {
            (Target::Word { word }, TokKind::Word { norm, .. }) => words_match(word, norm),
            (Target::Number { value, percent, .. }, TokKind::Number(n)) => text::numbers_equal(
                NumberTok { value: *value, unit: if *percent { text::Unit::Percent } else { text::Unit::None } },
                *n,
            ),
            (Target::Time { minutes }, TokKind::Time(t)) => t.minutes == *minutes,
            _ => false,
        }
    }

    /// The target a note token stands for.
    pub fn of_tok(tok: &Tok) -> Option<Target> {
        match &tok.kind {
            TokKind::Word { norm, .. } => Some(Target::Word { word: norm.clone() }),
            TokKind::Number(n) => Some(Target::Number {
                value: n.value,
                percent: n.unit == text::Unit::Percent,
                currency: n.unit == text::Unit::Currency,
            }),
            TokKind::Time(t) => Some(Target::Time { minutes: t.minutes }),
        }
    }
}

/// One source item and the tokens it needs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ItemSpec {
    /// The item as written in the source (or the given label).
    pub label: String,
    pub kind: ItemKind,
    /// The tokens, in source order. For line items only the distinctive noun words are listed.
    pub targets: Vec<Target>,
    /// Clauses: the clause is negated.
    #[serde(default)]
    pub negated: bool,
}

impl ItemSpec {
    pub fn words(&self) -> impl Iterator<Item = &str> {
        self.targets.iter().filter_map(|t| match t {
            Target::Word { word } => Some(word.as_str()),
            _ => None,
        })
    }
}

/// An item as a user gives it in `source_items`: a string (parsed with the source kind's
/// tokenizer as one item) or an object.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ItemInput {
    Text(String),
    Spec(ItemObject),
}

/// `{label?, words?, numbers?, times?, text?, kind?}`: `words` (any one must occur for a line
/// item; all for other kinds), `numbers` (all must occur; numbers or strings like `"$4"`),
/// `times` (`"17:15"`). Without `words`, the label's content words are used. `text` alone is
/// parsed like a string item.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ItemObject {
    #[serde(default)]
    pub label: Option<String>,
    #[serde(default)]
    pub words: Option<Vec<String>>,
    #[serde(default)]
    pub numbers: Option<Vec<NumberInput>>,
    #[serde(default)]
    pub times: Option<Vec<String>>,
    #[serde(default)]
    pub text: Option<String>,
    #[serde(default)]
    pub kind: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum NumberInput {
    Number(f64),
    Text(String),
}

/// Words that never identify a line item.
const LINE_STOP: &[&str] = &[
    "at", "each", "per", "and", "of", "the", "a", "an", "for", "x", "bought", "buy", "buys", "buying", "qty",
    "quantity", "price", "priced", "cost", "costs", "is", "are", "was", "were", "with", "total", "dollar", "dollars",
    "usd", "ea", "apiece", "piece", "pieces", "pcs", "unit", "units", "item", "items", "times", "plus", "to", "in",
    "on", "from", "by", "some",
];

/// Words that carry no content in a clause.
const CLAUSE_STOP: &[&str] = &[
    "a", "an", "the", "is", "are", "was", "were", "be", "been", "being", "of", "to", "at", "in", "on", "and", "or",
    "than", "each", "one", "among", "for", "by", "with", "does", "do", "did", "has", "have", "had", "it", "its", "as",
    "that", "this", "who", "which", "exactly", "also", "then", "there",
];

fn is_stop(list: &[&str], w: &str) -> bool {
    list.contains(&w)
}

/// Splits `text` at top level (outside parentheses) at the given separators; returns byte
/// ranges, and the parenthesised parts separately.
/// Byte ranges of a text.
type Ranges = Vec<(usize, usize)>;

fn split_top(text: &str, split_and: bool, split_period: bool) -> (Ranges, Ranges) {
    let mut parts = Vec::new();
    let mut parens = Vec::new();
    let mut depth = 0usize;
    let mut start = 0usize;
    let mut paren_start = 0usize;
    let bytes = text.as_bytes();
    let mut i = 0usize;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'(' | b'[' => {
                if depth == 0 {
                    paren_start = i + 1;
                }
                depth += 1;
            }
            b')' | b']' => {
                if depth == 1 {
                    parens.push((paren_start, i));
                }
                depth = depth.saturating_sub(1);
            }
            b';' | b',' | b'\n' if depth == 0 => {
                // "1,234" is a number, not a separator
                let digit_before = i > 0 && bytes[i - 1].is_ascii_digit();
                let three_after = bytes.get(i + 1..i + 4).is_some_and(|s| s.iter().all(u8::is_ascii_digit))
                    && !bytes.get(i + 4).is_some_and(u8::is_ascii_digit);
                if !(b == b',' && digit_before && three_after) {
                    parts.push((start, i));
                    start = i + 1;
                }
            }
            b'.' if depth == 0 && split_period && bytes.get(i + 1).is_none_or(|c| c.is_ascii_whitespace()) => {
                parts.push((start, i));
                start = i + 1;
            }
            b'a' | b'A' if depth == 0 && split_and => {
                let before_ok = i == 0 || !bytes[i - 1].is_ascii_alphanumeric();
                let word = bytes.get(i..i + 3).is_some_and(|w| w.eq_ignore_ascii_case(b"and"));
                let after_ok = bytes.get(i + 3).is_none_or(|c| !c.is_ascii_alphanumeric());
                if before_ok && word && after_ok {
                    parts.push((start, i));
                    start = i + 3;
                    i += 3;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    if depth > 0 {
        parens.push((paren_start, text.len()));
    }
    parts.push((start, text.len()));
    (parts, parens)
}

/// Chooses the tokenizer for `auto` (see the module documentation).
pub fn detect_kind(source: &str) -> SourceKind {
    let toks = text::tokenize(source);
    if toks.iter().any(|t| matches!(t.kind, TokKind::Time(_))) {
        return SourceKind::Times;
    }
    let currency = toks.iter().any(|t| matches!(t.kind, TokKind::Number(n) if n.unit == text::Unit::Currency));
    // "(7)" or "(7 bought)": a number right after an opening parenthesis
    let paren_qty = source.as_bytes().windows(2).any(|w| w[0] == b'(' && w[1].is_ascii_digit());
    if currency || paren_qty { SourceKind::LineItems } else { SourceKind::Clauses }
}

/// Parses a source text into items with the given tokenizer (`Auto` detects).
pub fn parse_source(source: &str, kind: SourceKind) -> Vec<ItemSpec> {
    let kind = if kind == SourceKind::Auto { detect_kind(source) } else { kind };
    match kind {
        SourceKind::Times => parse_times(source),
        SourceKind::LineItems => parse_line_items(source),
        SourceKind::Clauses | SourceKind::Auto => parse_clauses(source),
    }
}

/// Every clock time in `source`, one item each (repeats kept once).
pub fn parse_times(source: &str) -> Vec<ItemSpec> {
    let mut out: Vec<ItemSpec> = Vec::new();
    for t in text::tokenize(source) {
        if let TokKind::Time(x) = t.kind {
            if out.iter().any(|i| i.targets == vec![Target::Time { minutes: x.minutes }]) {
                continue;
            }
            out.push(ItemSpec {
                label: source[t.byte_start..t.byte_end].to_string(),
                kind: ItemKind::Time,
                targets: vec![Target::Time { minutes: x.minutes }],
                negated: false,
            });
        }
    }
    out
}

struct Piece {
    range: (usize, usize),
    nouns: Vec<String>,
    numbers: Vec<Target>,
}

fn line_piece(source: &str, range: (usize, usize)) -> Piece {
    let toks = text::tokenize(&source[range.0..range.1]);
    let mut nouns = Vec::new();
    let mut numbers = Vec::new();
    let mut after_per = false;
    for t in &toks {
        match &t.kind {
            TokKind::Word { norm, .. } => {
                if norm == "per" {
                    after_per = true;
                    continue;
                }
                if !after_per && !t.in_parens && !is_stop(LINE_STOP, norm) && !nouns.contains(norm) {
                    nouns.push(norm.clone());
                }
                after_per = false;
            }
            _ => {
                after_per = false;
                if let Some(target) = Target::of_tok(t)
                    && !numbers.contains(&target)
                {
                    numbers.push(target);
                }
            }
        }
    }
    Piece { range, nouns, numbers }
}

/// The `line_items` tokenizer.
///
/// Linear in the source: each part is tokenized once alone and once within the piece it ends up
/// in (a piece that grows is tokenized again only when it is complete), and distinctive nouns
/// are found through an index of every piece's nouns (a 20,000-item source compared every pair).
pub fn parse_line_items(source: &str) -> Vec<ItemSpec> {
    let (parts, _) = split_top(source, true, false);
    let mut pieces: Vec<Piece> = Vec::new();
    let mut pending: Option<(usize, usize)> = None; // parts without numbers, joined to the next
    let mut last_extends_to: Option<usize> = None; // the last piece takes in text up to here
    let finish_last = |pieces: &mut Vec<Piece>, to: &mut Option<usize>| {
        if let (Some(end), Some(last)) = (to.take(), pieces.last_mut()) {
            *last = line_piece(source, (last.range.0, end));
        }
    };
    for &(a, b) in &parts {
        if source[a..b].trim().is_empty() {
            continue;
        }
        // Tokens never span a separator: the joined text has numbers when this part has.
        let own = line_piece(source, (a, b));
        if own.numbers.is_empty() {
            pending = Some((pending.map_or(a, |p| p.0), b));
            continue;
        }
        let piece = match pending.take() {
            Some((pa, _)) => line_piece(source, (pa, b)),
            None => own,
        };
        if piece.nouns.is_empty() && !pieces.is_empty() {
            last_extends_to = Some(piece.range.1);
            continue;
        }
        finish_last(&mut pieces, &mut last_extends_to);
        pieces.push(piece);
    }
    if let Some(range) = pending {
        // trailing words without numbers: part of the last item
        if !pieces.is_empty() {
            last_extends_to = Some(range.1);
        }
    }
    finish_last(&mut pieces, &mut last_extends_to);
    // Which pieces have a noun matching `w` (words_match: equal, or one a singular of the other).
    let mut exact: FxHashMap<&str, Vec<usize>> = FxHashMap::default();
    let mut by_singular: FxHashMap<String, Vec<usize>> = FxHashMap::default();
    let note = |list: &mut Vec<usize>, i: usize| {
        if list.last() != Some(&i) {
            list.push(i);
        }
    };
    for (i, p) in pieces.iter().enumerate() {
        for v in &p.nouns {
            note(exact.entry(v.as_str()).or_default(), i);
            for s in text::singulars(v) {
                note(by_singular.entry(s).or_default(), i);
            }
        }
    }
    // Each list is sorted without repeats: another piece is in it unless it is exactly [i].
    let elsewhere = |list: Option<&Vec<usize>>, i: usize| list.is_some_and(|l| l.len() > 1 || l.first() != Some(&i));
    line_items(source, &pieces, |i, w| {
        elsewhere(exact.get(w), i)
            || elsewhere(by_singular.get(w), i)
            || text::singulars(w).iter().any(|s| elsewhere(exact.get(s.as_str()), i))
    })
}

/// Each piece as an item, its words those no other piece shares (`shared(i, word)`: whether a
/// piece other than the `i`-th has `word`), or all its words when every one is shared.
fn line_items(source: &str, pieces: &[Piece], shared: impl Fn(usize, &str) -> bool) -> Vec<ItemSpec> {
    let items = pieces.iter().enumerate();
    items.map(|(i, p)| line_item(source, p, p.nouns.iter().filter(|w| !shared(i, w)).collect())).collect()
}

/// A line item of `source` from its piece: its distinctive nouns (all of them when none is) and
/// its numbers are its targets.
fn line_item(source: &str, p: &Piece, distinctive: Vec<&String>) -> ItemSpec {
    let words: Vec<&String> = if distinctive.is_empty() { p.nouns.iter().collect() } else { distinctive };
    let mut targets: Vec<Target> = words.into_iter().map(|w| Target::Word { word: w.clone() }).collect();
    targets.extend(p.numbers.iter().cloned());
    ItemSpec { label: clean_label(&source[p.range.0..p.range.1]), kind: ItemKind::LineItem, targets, negated: false }
}

fn clean_label(s: &str) -> String {
    let t = s.trim().trim_matches(|c: char| c == ',' || c == ';' || c == '.').trim();
    let t = t.strip_prefix("and ").or_else(|| t.strip_prefix("And ")).unwrap_or(t);
    t.trim().to_string()
}

fn content_targets(text_part: &str) -> (Vec<Target>, bool) {
    let mut targets = Vec::new();
    let mut negated = false;
    for t in text::tokenize(text_part) {
        if t.is_negation() {
            negated = true;
            continue;
        }
        if let Some(w) = t.word()
            && is_stop(CLAUSE_STOP, w)
        {
            continue;
        }
        if let Some(target) = Target::of_tok(&t) {
            targets.push(target);
        }
    }
    (targets, negated)
}

/// The `clauses` tokenizer (and domain items for parenthesised parts).
pub fn parse_clauses(source: &str) -> Vec<ItemSpec> {
    let (parts, parens) = split_top(source, true, true);
    let mut items = Vec::new();
    for (a, b) in parts {
        // drop parenthesised spans from the clause text
        let mut clause = String::new();
        let mut depth = 0usize;
        for c in source[a..b].chars() {
            match c {
                '(' | '[' => depth += 1,
                ')' | ']' => depth = depth.saturating_sub(1),
                _ if depth == 0 => clause.push(c),
                _ => {}
            }
        }
        let (targets, negated) = content_targets(&clause);
        if targets.is_empty() {
            continue;
        }
        items.push(ItemSpec { label: clean_label(&clause), kind: ItemKind::Clause, targets, negated });
    }
    for (a, b) in parens {
        let (mut targets, _) = content_targets(&source[a..b]);
        let mut seen: Vec<Target> = Vec::new();
        targets.retain(|t| {
            if seen.contains(t) {
                false
            } else {
                seen.push(t.clone());
                true
            }
        });
        if targets.is_empty() {
            continue;
        }
        items.push(ItemSpec { label: clean_label(&source[a..b]), kind: ItemKind::Domain, targets, negated: false });
    }
    items
}

/// Turns explicit `source_items` into items. `kind` decides how string items are parsed.
/// Returns the items and, for each input that yielded nothing, its index.
pub fn items_from_input(inputs: &[ItemInput], kind: SourceKind) -> (Vec<ItemSpec>, Vec<usize>) {
    let mut items = Vec::new();
    let mut empty = Vec::new();
    for (i, input) in inputs.iter().enumerate() {
        let got = match input {
            ItemInput::Text(s) => one_item_from_text(s, kind),
            ItemInput::Spec(o) => item_from_object(o, kind),
        };
        match got {
            Some(item) => items.push(item),
            None => empty.push(i),
        }
    }
    (items, empty)
}

/// One item from a text: the tokenizer's items merged into one (all their targets).
fn one_item_from_text(s: &str, kind: SourceKind) -> Option<ItemSpec> {
    let kind = if kind == SourceKind::Auto { detect_kind(s) } else { kind };
    let mut parsed = match kind {
        SourceKind::LineItems => parse_line_items(s),
        SourceKind::Times => parse_times(s),
        _ => parse_clauses(s),
    };
    match parsed.len() {
        0 => None,
        1 => parsed.pop().map(|mut it| {
            it.label = clean_label(s);
            it
        }),
        _ => {
            // several pieces in one given item: require all their tokens
            let kind = parsed[0].kind;
            let negated = parsed.iter().any(|p| p.negated);
            let mut targets: Vec<Target> = Vec::new();
            for p in parsed {
                for t in p.targets {
                    if !targets.contains(&t) {
                        targets.push(t);
                    }
                }
            }
            let kind = if kind == ItemKind::LineItem { ItemKind::Domain } else { kind };
            Some(ItemSpec { label: clean_label(s), kind, targets, negated })
        }
    }
}

fn item_from_object(o: &ItemObject, kind: SourceKind) -> Option<ItemSpec> {
    if o.words.is_none() && o.numbers.is_none() && o.times.is_none() {
        let t = o.text.as_deref().or(o.label.as_deref())?;
        let mut it = one_item_from_text(t, o.kind.as_deref().and_then(SourceKind::parse).unwrap_or(kind))?;
        if let Some(l) = &o.label {
            it.label = l.clone();
        }
        return Some(it);
    }
    let mut targets = Vec::new();
    let words: Vec<String> = match &o.words {
        Some(ws) => ws.iter().flat_map(|w| text::tokenize(w)).filter_map(|t| t.word().map(str::to_string)).collect(),
        None => o
            .label
            .as_deref()
            .map(|l| {
                text::tokenize(l)
                    .iter()
                    .filter_map(|t| t.word().map(str::to_string))
                    .filter(|w| !is_stop(LINE_STOP, w))
                    .collect()
            })
            .unwrap_or_default(),
    };
    for w in words {
        let t = Target::Word { word: w };
        if !targets.contains(&t) {
            targets.push(t);
        }
    }
    for n in o.numbers.iter().flatten() {
        let tok = match n {
            NumberInput::Number(v) => Some(NumberTok { value: *v, unit: text::Unit::None }),
            NumberInput::Text(s) => text::parse_number(s),
        };
        if let Some(x) = tok {
            targets.push(Target::Number {
                value: x.value,
                percent: x.unit == text::Unit::Percent,
                currency: x.unit == text::Unit::Currency,
            });
        }
    }
    for s in o.times.iter().flatten() {
        if let Some(t) = text::parse_time(s) {
            targets.push(Target::Time { minutes: t.minutes });
        }
    }
    if targets.is_empty() {
        return None;
    }
    let label = o
        .label
        .clone()
        .or_else(|| o.text.clone())
        .unwrap_or_else(|| targets.iter().map(Target::display).collect::<Vec<_>>().join(" "));
    let item_kind = match o.kind.as_deref().and_then(SourceKind::parse) {
        Some(SourceKind::Clauses) => ItemKind::Clause,
        Some(SourceKind::Times) => ItemKind::Time,
        _ => {
            if targets.iter().all(|t| matches!(t, Target::Time { .. })) {
                ItemKind::Time
            } else {
                ItemKind::LineItem
            }
        }
    };
    Some(ItemSpec { label, kind: item_kind, targets, negated: false })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The line-items tokenizer as first written (each growing piece tokenized again, every
    /// pair of pieces compared): the reference for the linear one.
    fn every_pair_line_items(source: &str) -> Vec<ItemSpec> {
        let (parts, _) = split_top(source, true, false);
        let mut pieces: Vec<Piece> = Vec::new();
        let mut pending: Option<(usize, usize)> = None; // a piece without numbers, joined to the next
        for &(a, b) in &parts {
            if source[a..b].trim().is_empty() {
                continue;
            }
            let range = match pending.take() {
                Some((pa, _)) => (pa, b),
                None => (a, b),
            };
            let piece = line_piece(source, range);
            if piece.numbers.is_empty() {
                pending = Some(range);
                continue;
            }
            if piece.nouns.is_empty()
                && let Some(last) = pieces.last_mut()
            {
                *last = line_piece(source, (last.range.0, range.1));
                continue;
            }
            pieces.push(piece);
        }
        if let Some(range) = pending {
            // trailing words without numbers: part of the last item
            if let Some(last) = pieces.last_mut() {
                *last = line_piece(source, (last.range.0, range.1));
            }
        }
        line_items(source, &pieces, |i, w| {
            pieces.iter().enumerate().any(|(j, q)| j != i && q.nouns.iter().any(|v| words_match(w, v)))
        })
    }

    #[test]
    fn line_items_equal_the_pairwise_reference() {
        let sources = [
            "notebooks at $4 each (7 bought) and pens at $2 each (9 bought)",
            "apples, pears and plums: apple $3, pear $2; plum 4 and 5 more; extra words; 6",
            "7 boxes; (3) crates, 4 box; cities and a city 5, citys 6, and words at the end",
            "no numbers here; nor here, and none; 12 at last; trailing",
            "1,234 units at $5; 2 units at $6; per item 3; per 4 boxes",
            "",
        ];
        let many: String = (0..300).map(|i| format!("item{i} at ${} each ({} bought); word; ", i % 7, i % 5)).collect();
        for s in sources.iter().copied().chain([many.as_str()]) {
            assert_eq!(parse_line_items(s), every_pair_line_items(s), "{s}");
        }
    }

    fn show(items: &[ItemSpec]) -> Vec<(String, Vec<String>)> {
        items.iter().map(|i| (i.label.clone(), i.targets.iter().map(Target::display).collect())).collect()
    }

    #[test]
    fn line_items_noun_price_quantity() {
        let items = parse_source("notebooks at $4 each (7 bought) and pens at $2 each (9 bought)", SourceKind::Auto);
        assert_eq!(
            show(&items),
            vec![
                ("notebooks at $4 each (7 bought)".to_string(), vec!["notebooks".into(), "$4".into(), "7".into()]),
                ("pens at $2 each (9 bought)".to_string(), vec!["pens".into(), "$2".into(), "9".into()]),
            ]
        );
        assert!(items.iter().all(|i| i.kind == ItemKind::LineItem));
        let items = parse_source("apples at $3 per bag (5 bags) and oranges at $4 per bag (6 bags)", SourceKind::Auto);
        assert_eq!(show(&items)[0].1, vec!["apples", "$3", "5"]);
        // shared head noun: only the distinctive word counts
        let items = parse_source("adult tickets at $12 (3) and child tickets at $8 (5)", SourceKind::Auto);
        assert_eq!(show(&items)[0].1, vec!["adult", "$12", "3"]);
        assert_eq!(show(&items)[1].1, vec!["child", "$8", "5"]);
        let items = parse_source("boards at $11 each (8) and boxes of screws at $2 each (7)", SourceKind::Auto);
        assert_eq!(show(&items)[1].1, vec!["boxes", "screws", "$2", "7"]);
        // other layouts
        let items = parse_source("7 notebooks at $4, 9 pens at $2", SourceKind::Auto);
        assert_eq!(show(&items)[1].1, vec!["pens", "9", "$2"]);
        let items = parse_source("Notebooks: $4 each, 7 bought\nPens: $2 each, 9 bought", SourceKind::LineItems);
        assert_eq!(
            show(&items),
            vec![
                ("Notebooks: $4 each, 7 bought".to_string(), vec!["notebooks".into(), "$4".into(), "7".into()]),
                ("Pens: $2 each, 9 bought".to_string(), vec!["pens".into(), "$2".into(), "9".into()]),
            ]
        );
        let items = parse_source("salt and pepper at $3 (2), 1,200 nails at $0.05", SourceKind::Auto);
        assert_eq!(
            show(&items),
            vec![
                (
                    "salt and pepper at $3 (2)".to_string(),
                    vec!["salt".into(), "pepper".into(), "$3".into(), "2".into()]
                ),
                ("1,200 nails at $0.05".to_string(), vec!["nails".into(), "1200".into(), "$0.05".into()]),
            ]
        );
    }

    #[test]
    fn times() {
        let items = parse_source("I need to leave after 17:15 and arrive by 7:45 pm.", SourceKind::Auto);
        assert_eq!(show(&items).iter().map(|x| x.1[0].clone()).collect::<Vec<_>>(), vec!["17:15", "19:45"]);
        assert!(items.iter().all(|i| i.kind == ItemKind::Time));
    }

    #[test]
    fn logic_clauses_and_domain() {
        let items = parse_source(
            "Ben is not the manager, and Cleo is the auditor (one each of manager, designer, auditor among Ana, Ben, Cleo)",
            SourceKind::Auto,
        );
        assert_eq!(items.len(), 3);
        assert_eq!(items[0].kind, ItemKind::Clause);
        assert!(items[0].negated && !items[1].negated);
        assert_eq!(show(&items)[0].1, vec!["ben", "manager"]);
        assert_eq!(show(&items)[1].1, vec!["cleo", "auditor"]);
        assert_eq!(items[2].kind, ItemKind::Domain);
        assert_eq!(show(&items)[2].1, vec!["manager", "designer", "auditor", "ana", "ben", "cleo"]);
        let items = parse_source(
            "Dee is at position 1, Eve is immediately right of Dee, and Gus is at position 4 (positions 1 to 4 for Dee, Eve, Fia, Gus)",
            SourceKind::Auto,
        );
        assert_eq!(show(&items)[0].1, vec!["dee", "position", "1"]);
        assert_eq!(show(&items)[1].1, vec!["eve", "immediately", "right", "dee"]);
        assert_eq!(items.len(), 4);
        let items =
            parse_source("Hal ahead of Ira, Ira ahead of Jo, Jo ahead of Kit, and Kit ahead of Lee", SourceKind::Auto);
        assert_eq!(items.len(), 4);
        assert_eq!(show(&items)[3].1, vec!["kit", "ahead", "lee"]);
    }

    #[test]
    fn explicit_items() {
        let inputs: Vec<ItemInput> = serde_json::from_str(
            r#"["notebooks at $4 each (7 bought)", {"label": "pens", "numbers": [2, "9"]}, {"times": ["5:15 pm"]}, {"label": ""}]"#,
        )
        .unwrap();
        let (items, empty) = items_from_input(&inputs, SourceKind::Auto);
        assert_eq!(empty, vec![3]);
        assert_eq!(show(&items)[0].1, vec!["notebooks", "$4", "7"]);
        assert_eq!(show(&items)[1].1, vec!["pens", "2", "9"]);
        assert_eq!(show(&items)[2].1, vec!["17:15"]);
        assert_eq!(items[2].kind, ItemKind::Time);
    }

    #[test]
    fn kind_names() {
        assert_eq!(SourceKind::parse("line-items"), Some(SourceKind::LineItems));
        assert_eq!(SourceKind::parse("logic"), Some(SourceKind::Clauses));
        assert_eq!(SourceKind::parse("bogus"), None);
    }
}
