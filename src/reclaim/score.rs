//! Strict re-scoring of raw replies, ported from reclaim-eval (`llm.py`, `experiment.score`,
//! `multiwoz.extract_time`; seed-003-004 notes § A1.4). The paper scores "the value the model
//! commits on its ANSWER line, not whether the surrounding prose hedges (strict scoring)".
//!
//! * **Numeric** ([`parse_answer`]): every match of
//!   `ANSWER\s*:\s*[*_`'"(\[]*\s*\$?\s*(-?\d[\d,]*\.?\d*)` (case-insensitive), the **last** one,
//!   commas removed, parsed as a float. No match ⇒ no answer (abstain); there is no fallback to
//!   stray numbers (the v2 fix). Correct iff |answer − truth| < 0.5 ([`TOLERANCE`]).
//! * **Word** ([`parse_answer_word`]): the last match of
//!   `ANSWER\s*:\s*[*_`'"(\[]*\s*([A-Za-z][A-Za-z/]*)`, accepted only if it equals one of the
//!   problem's closed options ignoring case (the option's own spelling is returned); otherwise
//!   no answer. Correct iff it equals the truth ignoring case.
//! * **Time** ([`extract_time`], MultiWOZ): the **first**
//!   `ANSWER:\s*\*?\*?\s*(\d{1,2}):(\d{2})\s*(am|pm)?`; with `loose`, when there is none, the
//!   last `(\d{1,2}):(\d{2})\s*(am|pm)?` anywhere (the RR scorer's fallback; the failure-mode
//!   scorer is strict). Normalised to 24-hour `HH:MM`: pm adds 12 unless the hour is 12, 12 am
//!   is 00, the hour is taken mod 24. Correct iff equal to the truth's normalised form.
//!   Case-insensitive matching here is [inferred]; the notes do not give reclaim's flags.
//! * **Structured** ([`parse_structured`]): the outermost `{…}` parsed as JSON, its `answer`
//!   field; `INSUFFICIENT`, `UNKNOWN`, `NONE`, `N/A`, `NA`, `NULL`, `UNDETERMINED`, `UNSURE` or
//!   an empty string ⇒ abstain; numeric mode takes the first number in the string.
//!
//! `\d` matches any Unicode decimal digit, as in Python 3's `re`; such digits are converted to
//! their values before parsing (Python's `float()` accepts them too).

use std::sync::LazyLock;

use regex::Regex;
use serde::{Deserialize, Serialize};

/// Numeric answers within this distance of the truth are correct (`|ans − y*| < 0.5`).
pub const TOLERANCE: f64 = 0.5;

fn re(p: &str) -> Regex {
    // ok: the patterns are constants of this file, exercised by the tests
    Regex::new(p).expect("valid pattern") // ok: constant pattern, exercised by the tests
}

static NUMERIC: LazyLock<Regex> = LazyLock::new(|| re(r#"(?i)ANSWER\s*:\s*[*_`'"(\[]*\s*\$?\s*(-?\d[\d,]*\.?\d*)"#));
static WORD: LazyLock<Regex> = LazyLock::new(|| re(r#"(?i)ANSWER\s*:\s*[*_`'"(\[]*\s*([A-Za-z][A-Za-z/]*)"#));
static TIME_ANSWER: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)ANSWER:\s*\*?\*?\s*(\d{1,2}):(\d{2})\s*(am|pm)?"));
static TIME_ANY: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)(\d{1,2}):(\d{2})\s*(am|pm)?"));
static DIGIT: LazyLock<Regex> = LazyLock::new(|| re(r"^\d$"));
static FIRST_NUMBER: LazyLock<Regex> = LazyLock::new(|| re(r"-?\d[\d,]*\.?\d*"));

/// The value of a Unicode decimal digit (`\d`): Unicode's decimal digits come in runs of ten
/// consecutive code points starting at a zero, so the value is the count of digits before it
/// in its run, mod 10.
fn digit_value(c: char) -> Option<u32> {
    if let Some(d) = c.to_digit(10) {
        return Some(d);
    }
    let is_digit = |c: char| {
        let mut buf = [0u8; 4];
        DIGIT.is_match(c.encode_utf8(&mut buf))
    };
    if !is_digit(c) {
        return None;
    }
    let mut n = 0u32;
    let mut cp = c as u32;
    while n < 9 {
        match cp.checked_sub(1).and_then(char::from_u32) {
            Some(p) if is_digit(p) => {
                n += 1;
                cp -= 1;
            }
            _ => break,
        }
    }
    Some(n % 10)
}

/// Python's `float(s.replace(",", ""))` for a matched `-?\d[\d,]*\.?\d*`.
fn parse_float(s: &str) -> Option<f64> {
    let mut t = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            ',' => {}
            '-' | '.' => t.push(c),
            _ => t.push(char::from_digit(digit_value(c)?, 10)?),
        }
    }
    t.parse::<f64>().ok()
}

/// reclaim's `parse_answer`: the last numeric ANSWER-line value, or `None` (abstain).
pub fn parse_answer(text: &str) -> Option<f64> {
    let last = NUMERIC.captures_iter(text).last()?;
    parse_float(last.get(1)?.as_str())
}

/// The last ANSWER-line word (`ANSWER\s*:\s*<wrap>([A-Za-z][A-Za-z/]*)`), unvalidated.
pub fn word_on_answer_line(text: &str) -> Option<String> {
    let last = WORD.captures_iter(text).last()?;
    Some(last.get(1)?.as_str().to_string())
}

/// reclaim's `parse_answer_word`: the last ANSWER-line word if it is one of `options`
/// (ignoring case), in the option's spelling; otherwise `None` (abstain).
pub fn parse_answer_word(text: &str, options: &[String]) -> Option<String> {
    let tok = word_on_answer_line(text)?.to_lowercase();
    options.iter().find(|o| o.to_lowercase() == tok).cloned()
}

fn normalise_time(h: &str, m: &str, meridiem: Option<&str>) -> Option<String> {
    let mut hour = h.chars().try_fold(0u32, |acc, c| Some(acc * 10 + digit_value(c)?))?;
    let minute = m.chars().try_fold(0u32, |acc, c| Some(acc * 10 + digit_value(c)?))?;
    match meridiem.map(str::to_ascii_lowercase).as_deref() {
        Some("pm") if hour != 12 => hour += 12,
        Some("am") if hour == 12 => hour = 0,
        _ => {}
    }
    Some(format!("{:02}:{:02}", hour % 24, minute))
}

/// MultiWOZ's `extract_time`: the first ANSWER-line time, or with `loose` the last time
/// anywhere when there is none; normalised `HH:MM`.
pub fn extract_time(text: &str, loose: bool) -> Option<String> {
    let c = match TIME_ANSWER.captures(text) {
        Some(c) => c,
        None if loose => TIME_ANY.captures_iter(text).last()?,
        None => return None,
    };
    normalise_time(c.get(1)?.as_str(), c.get(2)?.as_str(), c.get(3).map(|m| m.as_str()))
}

/// A time given as truth (`"17:15"`, `"5:15 pm"`), normalised the same way.
pub fn normalise_time_text(s: &str) -> Option<String> {
    let c = TIME_ANY.captures(s)?;
    normalise_time(c.get(1)?.as_str(), c.get(2)?.as_str(), c.get(3).map(|m| m.as_str()))
}

const ABSTAIN_TOKENS: [&str; 9] =
    ["INSUFFICIENT", "UNKNOWN", "NONE", "N/A", "NA", "NULL", "UNDETERMINED", "UNSURE", ""];

/// What a structured reply's `answer` field holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "value", rename_all = "snake_case")]
pub enum Structured {
    Abstain,
    Number(f64),
    Text(String),
}

/// reclaim's `parse_structured`: the outermost `{…}` as JSON, its `answer`; `None` when there
/// is no parsable object or no `answer`. `numeric` pulls the first number out of a string.
pub fn parse_structured(text: &str, numeric: bool) -> Option<Structured> {
    let (a, b) = (text.find('{')?, text.rfind('}')?);
    if b < a {
        return None;
    }
    let v: serde_json::Value = serde_json::from_str(&text[a..=b]).ok()?;
    let ans = v.get("answer")?;
    let s = match ans {
        serde_json::Value::Null => return Some(Structured::Abstain),
        serde_json::Value::Number(n) => return n.as_f64().map(Structured::Number),
        serde_json::Value::String(s) => s.trim().to_string(),
        other => other.to_string(),
    };
    if ABSTAIN_TOKENS.contains(&s.to_uppercase().as_str()) {
        return Some(Structured::Abstain);
    }
    if numeric {
        return match FIRST_NUMBER.find(&s) {
            Some(m) => parse_float(m.as_str()).map(Structured::Number),
            None => Some(Structured::Abstain),
        };
    }
    Some(Structured::Text(s))
}

/// An answer value: a number or a word/time.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Answer {
    Number(f64),
    Text(String),
}

impl Answer {
    pub fn display(&self) -> String {
        match self {
            Answer::Number(x) => crate::probe::read::python_g(*x),
            Answer::Text(s) => s.clone(),
        }
    }
}

/// How a reply is parsed and compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AnswerKind {
    Number,
    Word,
    Time,
}

/// Parses a raw reply strictly for `kind` (`options` for words; `loose_time` enables
/// MultiWOZ's fallback).
pub fn parse_reply(reply: &str, kind: AnswerKind, options: &[String], loose_time: bool) -> Option<Answer> {
    match kind {
        AnswerKind::Number => parse_answer(reply).map(Answer::Number),
        AnswerKind::Word => parse_answer_word(reply, options).map(Answer::Text),
        AnswerKind::Time => extract_time(reply, loose_time).map(Answer::Text),
    }
}

/// Two answers are the same value: numbers within [`TOLERANCE`], words equal ignoring case,
/// times equal after normalisation; a number and a text compare through the text's number.
pub fn same_answer(a: &Answer, b: &Answer, kind: AnswerKind) -> bool {
    let num = |x: &Answer| match x {
        Answer::Number(v) => Some(*v),
        Answer::Text(s) => s.trim().trim_start_matches('$').replace(',', "").parse::<f64>().ok(),
    };
    match kind {
        AnswerKind::Number => match (num(a), num(b)) {
            (Some(x), Some(y)) => (x - y).abs() < TOLERANCE,
            _ => false,
        },
        AnswerKind::Time => match (a, b) {
            (Answer::Text(x), Answer::Text(y)) => {
                normalise_time_text(x).is_some() && normalise_time_text(x) == normalise_time_text(y)
            }
            _ => false,
        },
        AnswerKind::Word => a.display().to_lowercase() == b.display().to_lowercase(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numeric_rules() {
        assert_eq!(parse_answer("Work...\nANSWER: 46"), Some(46.0));
        assert_eq!(parse_answer("ANSWER: $55\nRechecking.\nANSWER: $46"), Some(46.0), "last match wins");
        assert_eq!(parse_answer("**ANSWER:** $1,234.50"), Some(1234.5), "wrap class and commas");
        assert_eq!(parse_answer("**ANSWER**: 46"), None, "markdown between ANSWER and the colon");
        assert_eq!(parse_answer("answer: (46)"), Some(46.0), "case-insensitive, parenthesis");
        assert_eq!(parse_answer("ANSWER: `46`"), Some(46.0));
        assert_eq!(parse_answer("ANSWER : \"-3\""), Some(-3.0));
        assert_eq!(parse_answer("ANSWER: 46."), Some(46.0), "a trailing point parses");
        assert_eq!(parse_answer("ANSWER: $ 46.00"), Some(46.0));
        assert_eq!(parse_answer("The total is 46."), None, "no fallback to stray numbers");
        assert_eq!(parse_answer("ANSWER: I cannot recompute this."), None);
        assert_eq!(parse_answer("ANSWER: ٤٦"), Some(46.0), "Unicode digits as in Python");
        assert_eq!(parse_answer("ANSWER: ４６"), Some(46.0));
        assert!(same_answer(&Answer::Number(46.4), &Answer::Number(46.0), AnswerKind::Number));
        assert!(!same_answer(&Answer::Number(46.5), &Answer::Number(46.0), AnswerKind::Number), "strict <");
        assert!(same_answer(&Answer::Text("$46".into()), &Answer::Number(46.0), AnswerKind::Number));
    }

    #[test]
    fn word_rules() {
        let opts: Vec<String> = ["Ana", "Ben", "Cleo"].iter().map(|s| s.to_string()).collect();
        assert_eq!(parse_answer_word("ANSWER: ana", &opts).as_deref(), Some("Ana"));
        assert_eq!(parse_answer_word("ANSWER: **Ben**.", &opts).as_deref(), Some("Ben"));
        assert_eq!(parse_answer_word("ANSWER: Ben\nANSWER: Ana", &opts).as_deref(), Some("Ana"));
        assert_eq!(parse_answer_word("ANSWER: Ana/Ben", &opts), None, "not an option");
        assert_eq!(parse_answer_word("ANSWER: Ben\nANSWER: Nobody", &opts), None, "last match, then validated");
        assert_eq!(parse_answer_word("The manager is Ana.", &opts), None);
        assert_eq!(parse_answer_word("ANSWER: 'Cleo'", &opts).as_deref(), Some("Cleo"));
    }

    #[test]
    fn time_rules() {
        assert_eq!(extract_time("ANSWER: 5:15 pm", false).as_deref(), Some("17:15"));
        assert_eq!(extract_time("ANSWER: **12:30am**", false).as_deref(), Some("00:30"));
        assert_eq!(extract_time("ANSWER: 12:05 PM", false).as_deref(), Some("12:05"));
        assert_eq!(extract_time("ANSWER: 9:00\nANSWER: 10:00", false).as_deref(), Some("09:00"), "first match");
        assert_eq!(extract_time("Leave at 17:15, or 18:00.", false), None, "strict: ANSWER line only");
        assert_eq!(extract_time("Leave at 17:15, or 18:00.", true).as_deref(), Some("18:00"), "loose: last time");
        assert_eq!(extract_time("ANSWER: 25:10", false).as_deref(), Some("01:10"), "hour mod 24");
        assert!(same_answer(&Answer::Text("5:15 pm".into()), &Answer::Text("17:15".into()), AnswerKind::Time));
    }

    #[test]
    fn structured_channel() {
        assert_eq!(parse_structured(r#"ok {"answer": 46} done"#, true), Some(Structured::Number(46.0)));
        assert_eq!(parse_structured(r#"{"answer": "about $1,046 total"}"#, true), Some(Structured::Number(1046.0)));
        assert_eq!(parse_structured(r#"{"answer": "n/a"}"#, true), Some(Structured::Abstain));
        assert_eq!(parse_structured(r#"{"answer": ""}"#, false), Some(Structured::Abstain));
        assert_eq!(parse_structured(r#"{"answer": "Ana"}"#, false), Some(Structured::Text("Ana".into())));
        assert_eq!(parse_structured("no json", true), None);
        assert_eq!(parse_structured("} {", true), None);
    }
}
