//! Text normalisers of the answer-scoring scripts, ported character for character from their
//! Python sources (the rules behind each profile are listed in `docs/answers.md`).
//!
//! Python's string primitives are reproduced exactly where they matter:
//!
//! - `str.split()` / `str.strip()` split on `str.isspace()` characters: Unicode `White_Space`
//!   plus the four ASCII separators U+001C–U+001F ([`is_py_space`]);
//! - `string.punctuation` is the 32 ASCII punctuation characters (`char::is_ascii_punctuation`);
//! - `str.lower()` is the full Unicode lower-case mapping (Rust's `to_lowercase`; both apply
//!   the final-sigma rule; their Unicode versions may differ on newly added characters);
//! - `\b` in `re.sub(r'\b(a|an|the)\b', ' ', s)` is a boundary between a word character
//!   (`str.isalnum()` or `_`) and a non-word character. Word characters are approximated by
//!   `char::is_alphanumeric() || '_'`, which differs from Python only on the few combining marks
//!   that Unicode lists as `Other_Alphabetic` (e.g. Devanagari vowel signs).

/// `str.isspace()`: Unicode `White_Space` plus U+001C–U+001F (Python counts the ASCII
/// information separators as white space; Rust does not).
pub fn is_py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// A word character of Python's `re` (`\w` for `str` patterns), see the module notes.
fn is_py_word(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

/// `' '.join(s.split())`: runs of white space become one space, ends trimmed.
pub fn white_space_fix(s: &str) -> String {
    s.split(is_py_space).filter(|t| !t.is_empty()).collect::<Vec<_>>().join(" ")
}

/// `s.split()`: the white-space separated tokens.
pub fn py_split(s: &str) -> Vec<&str> {
    s.split(is_py_space).filter(|t| !t.is_empty()).collect()
}

/// `s.strip()`.
pub fn py_strip(s: &str) -> &str {
    s.trim_matches(is_py_space)
}

/// `''.join(ch for ch in s if ch not in string.punctuation)`.
pub fn remove_punc(s: &str) -> String {
    s.chars().filter(|c| !c.is_ascii_punctuation()).collect()
}

/// `re.sub(r'\b(w1|w2|…)\b', ' ', s)`: every whole-word occurrence of one of `words` replaced by
/// one space, scanning left to right like `re.sub` (non-overlapping, first alternative that
/// ends on a word boundary).
pub fn remove_words(s: &str, words: &[&str]) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < chars.len() {
        let boundary_before = i == 0 || !is_py_word(chars[i - 1]);
        let hit = if boundary_before && is_py_word(chars[i]) {
            words.iter().find_map(|w| {
                let n = w.chars().count();
                let matches = i + n <= chars.len() && chars[i..i + n].iter().copied().eq(w.chars());
                (matches && chars.get(i + n).is_none_or(|&c| !is_py_word(c))).then_some(n)
            })
        } else {
            None
        };
        match hit {
            Some(n) => {
                out.push(' ');
                i += n;
            }
            None => {
                out.push(chars[i]);
                i += 1;
            }
        }
    }
    out
}

/// The articles SQuAD removes.
pub const ARTICLES: [&str; 3] = ["a", "an", "the"];
/// LoCoMo's `evaluation.py` also removes "and".
pub const LOCOMO_STOP: [&str; 4] = ["a", "an", "the", "and"];

/// SQuAD v1.1 `normalize_answer` (Rajpurkar et al. 2016, `evaluate-v1.1.py`), also
/// MemoryAgentBench's `utils/eval_other_utils.py::normalize_answer`:
/// `white_space_fix(remove_articles(remove_punc(lower(s))))`.
pub fn squad_normalize(s: &str) -> String {
    white_space_fix(&remove_words(&remove_punc(&s.to_lowercase()), &ARTICLES))
}

/// The paper-literal normalisation of seed-000 §3.2: "after lowercasing and whitespace
/// normalization" — `' '.join(s.lower().split())`, nothing else.
pub fn literal_normalize(s: &str) -> String {
    white_space_fix(&s.to_lowercase())
}

/// LoCoMo `task_eval/evaluation.py::normalize_answer` (Maharana et al. 2024): commas deleted
/// first (`s.replace(',', "")`), then lower-case, ASCII punctuation removed, the words
/// a/an/the/and replaced by a space, white space folded.
pub fn locomo_normalize(s: &str) -> String {
    let s = s.replace(',', "");
    white_space_fix(&remove_words(&remove_punc(&s.to_lowercase()), &LOCOMO_STOP))
}

#[cfg(test)]
mod tests {
    use super::*;

    // Values from Python 3.11 (the expressions in the doc comments).
    #[test]
    fn python_primitives() {
        assert_eq!(white_space_fix("  a\t b\u{1c}c\u{a0}d \n"), "a b c d");
        assert_eq!(py_strip("\u{1f} x \u{2003}"), "x");
        assert_eq!(remove_punc("Don't stop—go!"), "Dont stop—go");
        assert_eq!(remove_words("a an the anthem theatre a_b", &ARTICLES), "      anthem theatre a_b");
        assert_eq!(remove_words("the", &ARTICLES), " ");
        assert_eq!(remove_words("an", &ARTICLES), " ");
    }

    #[test]
    fn normalisers() {
        assert_eq!(squad_normalize("The  Eiffel-Tower, in PARIS."), "eiffeltower in paris");
        assert_eq!(literal_normalize("The  Eiffel-Tower,\nin PARIS."), "the eiffel-tower, in paris.");
        assert_eq!(locomo_normalize("Hiking, swimming and the sea"), "hiking swimming sea");
        // punctuation goes before the articles: "a.b" → "ab" keeps no article
        assert_eq!(squad_normalize("a.b"), "ab");
        assert_eq!(squad_normalize("(a) b"), "b");
    }
}
