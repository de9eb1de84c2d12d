//! The note tokenizer: one pass over a text that yields words, numbers and clock times with
//! their positions, and the sentence each belongs to. Everything the itemized probe compares is
//! a token, never a raw substring, so `$55` never matches inside `$550` and `Ben` never matches
//! inside `Benefit`.
//!
//! **Words** are maximal runs of alphabetic characters (Unicode), with inner apostrophes
//! (`'`, `’`) kept (`isn't`, `Ben's`); hyphens, digits and punctuation split words
//! (`second-tallest` → `second`, `tallest`). A word is compared lower-cased, with a possessive
//! `'s` removed, and with simple plural stripping ([`words_match`]). Negation words are `not`,
//! `no`, `never`, `cannot`, `nor`, `neither` and any word ending in `n't`.
//!
//! **Numbers** ([`NumberTok`]) are ASCII digit runs with
//! * an optional currency sign before them (`$`, `€`, `£`, `¥`, a space allowed after it) or a
//!   currency word after them (`dollar`, `dollars`, `usd`, `bucks`): unit `currency`;
//! * thousands separators: `,` followed by exactly three digits, only after a first group of at
//!   most three digits (`55,000` = 55000, but `4,7` is two numbers);
//! * an optional decimal part (`.` followed by digits; a bare trailing `.` is punctuation);
//! * an optional `%` right after (a space allowed): unit `percent`;
//! * an optional sign: `-` or `−` directly before the digits or the currency sign, when not
//!   preceded by a letter or digit (`-5`, `-$5`; the `-` of `3-5` is a range, not a sign).
//!
//! A number does not start right after a letter, digit or `_` (the `0` of `gen_a0` is not a
//! number) unless it has a currency sign. Values are compared as numbers: `55`, `55.00`,
//! `$55` and `55 dollars` are equal; `$55` and `$550` are not. Percentages equal only
//! percentages. Numbers written as words (`seven`) are not recognised.
//!
//! **Clock times** ([`TimeTok`]) are `H:MM` / `HH:MM` (not followed by a digit), optionally with
//! `am`/`pm`/`a.m.`/`p.m.`, or `H am` / `H pm`; normalised to minutes after midnight in 24-hour
//! form (pm adds 12 except at 12; 12 am is 00; the hour is taken mod 24, as MultiWOZ's
//! `extract_time` does). A time is one token: its digits are not also numbers.
//!
//! **Sentences** end at `!`, `?`, `;`, a line break, or a `.` followed by white space or the
//! end of the text (a `.` inside `4.40` does not end one).
//!
//! Offsets are byte offsets into the text; [`CharIndex`] converts them to character (Unicode
//! scalar) offsets for display.

use serde::{Deserialize, Serialize};

/// A half-open range of the note, in characters (Unicode scalar values) and in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Span {
    /// First character (0-based, counted in Unicode scalar values).
    pub start: usize,
    /// One past the last character.
    pub end: usize,
    /// The same range in UTF-8 bytes.
    pub byte_start: usize,
    pub byte_end: usize,
}

/// Byte offset → character offset for one text.
#[derive(Debug, Clone)]
pub struct CharIndex {
    /// `starts[i]` = byte offset of character i; one extra entry = the text length.
    starts: Vec<usize>,
}

impl CharIndex {
    pub fn new(text: &str) -> Self {
        let mut starts: Vec<usize> = text.char_indices().map(|(b, _)| b).collect();
        starts.push(text.len());
        CharIndex { starts }
    }

    /// The character offset of a byte offset (the character containing it, for a byte inside
    /// a multi-byte character).
    pub fn char_of(&self, byte: usize) -> usize {
        match self.starts.binary_search(&byte) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        }
    }

    pub fn span(&self, byte_start: usize, byte_end: usize) -> Span {
        Span { start: self.char_of(byte_start), end: self.char_of(byte_end), byte_start, byte_end }
    }
}

/// What a number's unit marker says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    None,
    Currency,
    Percent,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NumberTok {
    pub value: f64,
    pub unit: Unit,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeTok {
    /// Minutes after midnight, 0..1440.
    pub minutes: u16,
}

#[derive(Debug, Clone, PartialEq)]
pub enum TokKind {
    /// Lower-cased, possessive removed.
    Word {
        norm: String,
        negation: bool,
    },
    Number(NumberTok),
    Time(TimeTok),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Tok {
    pub kind: TokKind,
    pub byte_start: usize,
    pub byte_end: usize,
    /// Index of the sentence the token is in.
    pub sentence: usize,
    /// Index of the clause the token is in: clauses end at sentence ends, commas, and before a
    /// coordinating or subordinating word (`but`, `and`, `while`, …), so a negation in one clause
    /// ("… but has not had the chance …") does not negate another.
    pub clause: usize,
    /// Inside parentheses (depth > 0) in the text.
    pub in_parens: bool,
}

impl Tok {
    pub fn word(&self) -> Option<&str> {
        match &self.kind {
            TokKind::Word { norm, .. } => Some(norm),
            _ => None,
        }
    }
    pub fn is_negation(&self) -> bool {
        matches!(self.kind, TokKind::Word { negation: true, .. })
    }
}

const CURRENCY: [char; 4] = ['$', '€', '£', '¥'];
const CURRENCY_WORDS: [&str; 4] = ["dollar", "dollars", "usd", "bucks"];
const NEGATIONS: [&str; 6] = ["not", "no", "never", "cannot", "nor", "neither"];
/// Words that start a new clause.
const CLAUSE_WORDS: [&str; 11] =
    ["but", "and", "or", "while", "whereas", "although", "though", "yet", "because", "however", "whilst"];

/// Tokenizes `text` (see the module documentation for the rules).
pub fn tokenize(text: &str) -> Vec<Tok> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let byte_at = |i: usize| chars.get(i).map_or(text.len(), |&(b, _)| b);
    let ch = |i: usize| chars.get(i).map(|&(_, c)| c);
    let mut toks = Vec::new();
    let mut sentence = 0usize;
    let mut clause = 0usize;
    let mut depth = 0usize;
    let mut i = 0usize;
    while i < chars.len() {
        let c = chars[i].1;
        let prev = if i == 0 { None } else { ch(i - 1) };
        if c.is_alphabetic() {
            let start = i;
            let mut j = i + 1;
            while j < chars.len() {
                let cj = chars[j].1;
                if cj.is_alphabetic() || ((cj == '\'' || cj == '’') && ch(j + 1).is_some_and(char::is_alphabetic)) {
                    j += 1;
                } else {
                    break;
                }
            }
            let raw = &text[byte_at(start)..byte_at(j)];
            let mut lower = raw.to_lowercase().replace('’', "'");
            let negation = NEGATIONS.contains(&lower.as_str()) || lower.ends_with("n't");
            if lower.ends_with("'s") && lower.len() > 2 {
                lower.truncate(lower.len() - 2);
            }
            if CLAUSE_WORDS.contains(&lower.as_str()) {
                clause += 1;
            }
            toks.push(Tok {
                kind: TokKind::Word { norm: lower, negation },
                byte_start: byte_at(start),
                byte_end: byte_at(j),
                sentence,
                clause,
                in_parens: depth > 0,
            });
            i = j;
            continue;
        }
        if let Some((tok, next)) = scan_time(&chars, i, prev).or_else(|| scan_number(&chars, i, prev)) {
            let (b0, b1) = (byte_at(tok.0), byte_at(next));
            toks.push(Tok { kind: tok.1, byte_start: b0, byte_end: b1, sentence, clause, in_parens: depth > 0 });
            i = next;
            continue;
        }
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth = depth.saturating_sub(1),
            '!' | '?' | ';' | '\n' => {
                sentence += 1;
                clause += 1;
            }
            '.' if ch(i + 1).is_none_or(char::is_whitespace) => {
                sentence += 1;
                clause += 1;
            }
            ',' => clause += 1,
            _ => {}
        }
        i += 1;
    }
    toks
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

fn digits_at(chars: &[(usize, char)], mut i: usize) -> usize {
    let start = i;
    while i < chars.len() && chars[i].1.is_ascii_digit() {
        i += 1;
    }
    i - start
}

fn digit_str(chars: &[(usize, char)], from: usize, to: usize) -> String {
    chars[from..to].iter().map(|&(_, c)| c).collect()
}

/// A clock time starting at `i` (digits first): `((start, kind), next index)`.
fn scan_time(chars: &[(usize, char)], i: usize, prev: Option<char>) -> Option<((usize, TokKind), usize)> {
    if prev.is_some_and(is_word_char) || prev == Some(':') || prev == Some('.') {
        return None;
    }
    let h_len = digits_at(chars, i);
    if !(1..=2).contains(&h_len) {
        return None;
    }
    let hour: u32 = digit_str(chars, i, i + h_len).parse().ok()?;
    if hour > 24 {
        return None;
    }
    let mut j = i + h_len;
    let mut minute = 0u32;
    let mut has_minutes = false;
    if chars.get(j).map(|c| c.1) == Some(':') && digits_at(chars, j + 1) == 2 {
        minute = digit_str(chars, j + 1, j + 3).parse().ok()?;
        if minute >= 60 {
            return None;
        }
        j += 3;
        has_minutes = true;
        if chars.get(j).is_some_and(|c| c.1.is_ascii_digit() || c.1 == ':') {
            return None;
        }
    }
    // am / pm (a.m. / p.m.), after at most one space
    let mut k = j;
    if chars.get(k).is_some_and(|c| c.1 == ' ') {
        k += 1;
    }
    let meridiem = scan_meridiem(chars, k);
    if !has_minutes && meridiem.is_none() {
        return None;
    }
    let mut h = hour;
    let next = match meridiem {
        Some((pm, end)) => {
            if hour == 0 || hour > 12 {
                // "17:15 pm" or "0 am": keep the clock value, ignore the marker
                if !has_minutes {
                    return None;
                }
            } else if pm && hour != 12 {
                h = hour + 12;
            } else if !pm && hour == 12 {
                h = 0;
            }
            end
        }
        None => j,
    };
    let minutes = ((h % 24) * 60 + minute) as u16;
    Some(((i, TokKind::Time(TimeTok { minutes })), next))
}

/// `am`, `pm`, `a.m.`, `p.m.` at `k` (any case), not followed by a letter: (is pm, next index).
fn scan_meridiem(chars: &[(usize, char)], k: usize) -> Option<(bool, usize)> {
    let c0 = chars.get(k)?.1.to_ascii_lowercase();
    if c0 != 'a' && c0 != 'p' {
        return None;
    }
    let pm = c0 == 'p';
    let at = |i: usize| chars.get(i).map(|c| c.1.to_ascii_lowercase());
    let end = if at(k + 1) == Some('m') {
        k + 2
    } else if at(k + 1) == Some('.') && at(k + 2) == Some('m') && at(k + 3) == Some('.') {
        k + 4
    } else {
        return None;
    };
    if chars.get(end).is_some_and(|c| c.1.is_alphanumeric()) {
        return None;
    }
    Some((pm, end))
}

/// A number starting at `i` (sign, currency sign, digits or `.digit`).
fn scan_number(chars: &[(usize, char)], i: usize, prev: Option<char>) -> Option<((usize, TokKind), usize)> {
    let at = |k: usize| chars.get(k).map(|c| c.1);
    let mut j = i;
    let mut negative = false;
    let mut currency = false;
    if matches!(at(j), Some('-') | Some('−')) {
        if prev.is_some_and(char::is_alphanumeric) {
            return None;
        }
        negative = true;
        j += 1;
    }
    if at(j).is_some_and(|c| CURRENCY.contains(&c)) {
        currency = true;
        j += 1;
        if at(j) == Some(' ') && at(j + 1).is_some_and(|c| c.is_ascii_digit()) {
            j += 1;
        }
        if !negative && matches!(at(j), Some('-') | Some('−')) && at(j + 1).is_some_and(|c| c.is_ascii_digit()) {
            negative = true;
            j += 1;
        }
    }
    let lead = digits_at(chars, j);
    let starts_with_point = lead == 0 && at(j) == Some('.') && digits_at(chars, j + 1) > 0;
    if lead == 0 && !starts_with_point {
        return None;
    }
    if !currency && !negative && (prev.is_some_and(is_word_char) || (prev == Some('.') && starts_with_point)) {
        return None;
    }
    let mut text = String::new();
    if lead > 0 {
        text.push_str(&digit_str(chars, j, j + lead));
        j += lead;
        if lead <= 3 {
            while at(j) == Some(',') && digits_at(chars, j + 1) == 3 {
                text.push_str(&digit_str(chars, j + 1, j + 4));
                j += 4;
            }
        }
    }
    if at(j) == Some('.') {
        let frac = digits_at(chars, j + 1);
        if frac > 0 {
            text.push('.');
            text.push_str(&digit_str(chars, j + 1, j + 1 + frac));
            j += 1 + frac;
        }
    }
    if text.starts_with('.') {
        text.insert(0, '0');
    }
    let mut value: f64 = text.parse().ok()?;
    if negative {
        value = -value;
    }
    let mut unit = if currency { Unit::Currency } else { Unit::None };
    // suffixes: "%", " %", " dollars"
    let mut k = j;
    if at(k) == Some(' ') {
        k += 1;
    }
    if at(k) == Some('%') && unit == Unit::None {
        unit = Unit::Percent;
        j = k + 1;
    } else if unit == Unit::None {
        let mut e = k;
        while at(e).is_some_and(char::is_alphabetic) {
            e += 1;
        }
        if e > k {
            let w: String = chars[k..e].iter().map(|c| c.1.to_ascii_lowercase()).collect();
            if CURRENCY_WORDS.contains(&w.as_str()) {
                unit = Unit::Currency;
                j = e;
            }
        }
    }
    Some(((i, TokKind::Number(NumberTok { value, unit })), j))
}

/// Two numbers are equal when their values are equal (to 1e-9 relative) and neither or both
/// are percentages.
pub fn numbers_equal(a: NumberTok, b: NumberTok) -> bool {
    let scale = a.value.abs().max(b.value.abs()).max(1.0);
    (a.value - b.value).abs() <= 1e-9 * scale && ((a.unit == Unit::Percent) == (b.unit == Unit::Percent))
}

/// Singular candidates of a lower-cased word (simple plural stripping): `-ies` → `-y`,
/// `-es` → ``, `-s` → `` (not after another `s`), each only when at least three characters
/// remain before the suffix.
pub(crate) fn singulars(w: &str) -> Vec<String> {
    let stem = |suffix: &str| w.strip_suffix(suffix).filter(|s| s.chars().count() >= 3);
    let mut out = Vec::with_capacity(3);
    if let Some(s) = stem("ies") {
        out.push(format!("{s}y"));
    }
    if let Some(s) = stem("es") {
        out.push(s.to_string());
    }
    if !w.ends_with("ss")
        && let Some(s) = stem("s")
    {
        out.push(s.to_string());
    }
    out
}

/// Word equality with simple plural stripping (both words lower-cased): equal, or one is a
/// singular candidate of the other (`pens` = `pen`, `boxes` = `box`, `berries` = `berry`,
/// `tomatoes` = `tomato`). `Ben` ≠ `Benefit`: words are whole tokens.
pub fn words_match(a: &str, b: &str) -> bool {
    a == b || singulars(a).iter().any(|s| s == b) || singulars(b).iter().any(|s| s == a)
}

/// Parses a whole string as exactly one number token (optionally surrounded by white space),
/// e.g. `"$55"`, `"55.00"`, `"55 dollars"`, `"1,200"`.
pub fn parse_number(s: &str) -> Option<NumberTok> {
    let t = s.trim();
    let toks = tokenize(t);
    match toks.as_slice() {
        [tok] if tok.byte_start == 0 && tok.byte_end == t.len() => match tok.kind {
            TokKind::Number(n) => Some(n),
            _ => None,
        },
        _ => None,
    }
}

/// Parses a whole string as exactly one clock time (`"17:15"`, `"7:45 pm"`, `"7pm"`).
pub fn parse_time(s: &str) -> Option<TimeTok> {
    let t = s.trim();
    let toks = tokenize(t);
    match toks.as_slice() {
        [tok] if tok.byte_start == 0 && tok.byte_end == t.len() => match tok.kind {
            TokKind::Time(x) => Some(x),
            _ => None,
        },
        _ => None,
    }
}

/// `HH:MM` for minutes after midnight.
pub fn format_time(t: TimeTok) -> String {
    format!("{:02}:{:02}", t.minutes / 60, t.minutes % 60)
}

/// A number as the probe shows it (`$4`, `7`, `8%`, `55.5`).
pub fn format_number(n: NumberTok) -> String {
    let v = if n.value.fract() == 0.0 && n.value.abs() < 1e15 {
        format!("{}", n.value as i64)
    } else {
        format!("{}", n.value)
    };
    match n.unit {
        Unit::Currency => {
            if let Some(rest) = v.strip_prefix('-') {
                format!("-${rest}")
            } else {
                format!("${v}")
            }
        }
        Unit::Percent => format!("{v}%"),
        Unit::None => v,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nums(text: &str) -> Vec<(f64, Unit)> {
        tokenize(text)
            .into_iter()
            .filter_map(|t| match t.kind {
                TokKind::Number(n) => Some((n.value, n.unit)),
                _ => None,
            })
            .collect()
    }

    fn words(text: &str) -> Vec<String> {
        tokenize(text).iter().filter_map(|t| t.word().map(str::to_string)).collect()
    }

    #[test]
    fn numbers_normalised() {
        assert_eq!(nums("$55"), vec![(55.0, Unit::Currency)]);
        assert_eq!(nums("$550"), vec![(550.0, Unit::Currency)]);
        assert_eq!(nums("$55.00"), vec![(55.0, Unit::Currency)]);
        assert_eq!(nums("55 dollars"), vec![(55.0, Unit::Currency)]);
        assert_eq!(nums("55,000 cents"), vec![(55000.0, Unit::None)]);
        assert_eq!(nums("$1,234.50 and 4,7"), vec![(1234.5, Unit::Currency), (4.0, Unit::None), (7.0, Unit::None)]);
        assert_eq!(nums("8% tax"), vec![(8.0, Unit::Percent)]);
        assert_eq!(nums("$ 27"), vec![(27.0, Unit::Currency)]);
        assert_eq!(nums("€4 £5 ¥6"), vec![(4.0, Unit::Currency), (5.0, Unit::Currency), (6.0, Unit::Currency)]);
        assert_eq!(
            nums("-5 and -$3 but 3-5"),
            vec![(-5.0, Unit::None), (-3.0, Unit::Currency), (3.0, Unit::None), (5.0, Unit::None)]
        );
        assert_eq!(nums("gen_a0 x2"), vec![]);
        assert_eq!(nums("US$12"), vec![(12.0, Unit::Currency)]);
        assert_eq!(nums("total 46. Then"), vec![(46.0, Unit::None)]);
        assert_eq!(nums(".5 and 0.25"), vec![(0.5, Unit::None), (0.25, Unit::None)]);
        assert_eq!(nums("1234,567"), vec![(1234.0, Unit::None), (567.0, Unit::None)]);
    }

    #[test]
    fn times_normalised() {
        let times = |t: &str| -> Vec<String> {
            tokenize(t)
                .into_iter()
                .filter_map(|x| match x.kind {
                    TokKind::Time(t) => Some(format_time(t)),
                    _ => None,
                })
                .collect()
        };
        assert_eq!(times("leave after 17:15, arrive by 7:45 pm or 9am"), vec!["17:15", "19:45", "09:00"]);
        assert_eq!(times("12:30 am and 12 pm and 12:05 p.m."), vec!["00:30", "12:00", "12:05"]);
        assert_eq!(times("7 pens and 3 apples"), Vec::<String>::new());
        assert_eq!(nums("at 17:15"), vec![], "a time's digits are not numbers");
        assert_eq!(parse_time(" 5:07PM "), Some(TimeTok { minutes: 17 * 60 + 7 }));
        assert_eq!(parse_time("17:15 tomorrow"), None);
    }

    #[test]
    fn words_and_plurals() {
        assert_eq!(words("Ben's role isn't second-tallest"), vec!["ben", "role", "isn't", "second", "tallest"]);
        assert!(tokenize("isn't").iter().all(Tok::is_negation));
        assert!(words_match("pens", "pen") && words_match("pen", "pens"));
        assert!(words_match("boxes", "box") && words_match("berries", "berry") && words_match("tomatoes", "tomato"));
        assert!(words_match("glasses", "glass"));
        assert!(!words_match("ben", "benefit"));
        assert!(!words_match("is", "i") && !words_match("bus", "bu"));
        assert!(!words_match("class", "clas"));
    }

    #[test]
    fn sentences_and_parentheses() {
        let t = tokenize("Price $4.40 each. Ben is not (here); Cleo\nis");
        let s: Vec<usize> = t.iter().map(|x| x.sentence).collect();
        assert_eq!(s, vec![0, 0, 0, 1, 1, 1, 1, 2, 3]);
        assert!(t[6].in_parens && !t[5].in_parens);
    }

    #[test]
    fn char_offsets() {
        let text = "é $55";
        let idx = CharIndex::new(text);
        let t = tokenize(text);
        let sp = idx.span(t[1].byte_start, t[1].byte_end);
        assert_eq!((sp.start, sp.end), (2, 5));
        assert_eq!((sp.byte_start, sp.byte_end), (3, 6));
    }

    #[test]
    fn whole_string_parsers() {
        assert_eq!(parse_number("$55").map(|n| n.value), Some(55.0));
        assert_eq!(parse_number(" 55.00 ").map(|n| n.value), Some(55.0));
        assert_eq!(parse_number("55 dollars").map(|n| n.unit), Some(Unit::Currency));
        assert_eq!(parse_number("Ben"), None);
        assert_eq!(parse_number("55 pens"), None);
        assert_eq!(format_number(NumberTok { value: 4.0, unit: Unit::Currency }), "$4");
        assert_eq!(format_number(NumberTok { value: -2.5, unit: Unit::Currency }), "-$2.5");
    }
}
