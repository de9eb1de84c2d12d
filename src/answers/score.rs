//! The scoring functions behind the profiles, each a port of its reference script (the exact
//! rules are in `docs/answers.md`).

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::normalize::{literal_normalize, locomo_normalize, py_split, py_strip, squad_normalize};
use super::porter;

/// Token F1 of SQuAD v1.1 `f1_score` (and of every script derived from it): with the common
/// tokens counted as a multiset (`Counter(pred) & Counter(gold)`), P = common/|pred|,
/// R = common/|gold|, F1 = 2PR/(P + R); 0 when nothing is common (so also when either side has
/// no token). Computed in the same floating-point order as Python.
pub fn token_f1<S: AsRef<str>>(pred: &[S], gold: &[S]) -> f64 {
    f1_against(&Tokens::of(pred.iter().map(|p| p.as_ref().to_string())), gold)
}

/// A prediction's tokens counted once, to be scored against many gold variants in time linear
/// in each gold (a 2,000-token prediction against 500 variants recounted the prediction 500
/// times).
#[derive(Debug, Clone, Default)]
pub struct Tokens {
    counts: HashMap<String, usize>,
    len: usize,
}

impl Tokens {
    pub fn of(tokens: impl IntoIterator<Item = String>) -> Tokens {
        let mut t = Tokens::default();
        for p in tokens {
            *t.counts.entry(p).or_insert(0) += 1;
            t.len += 1;
        }
        t
    }
}

/// [`token_f1`] of counted prediction tokens: the common count is the size of the multisets'
/// intersection, Σ over gold tokens of min(gold count, prediction count) — the same number
/// SQuAD's `Counter(pred) & Counter(gold)` gives — then the same floating-point steps.
pub fn f1_against<S: AsRef<str>>(pred: &Tokens, gold: &[S]) -> f64 {
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for g in gold {
        *counts.entry(g.as_ref()).or_insert(0) += 1;
    }
    let common: usize = counts.iter().map(|(g, &n)| n.min(pred.counts.get(*g).copied().unwrap_or(0))).sum();
    if common == 0 {
        return 0.0;
    }
    let precision = 1.0 * common as f64 / pred.len as f64;
    let recall = 1.0 * common as f64 / gold.len() as f64;
    (2.0 * precision * recall) / (precision + recall)
}

/// A prediction with each normal form computed once, on first use, and shared by every gold
/// variant it is scored against.
#[derive(Debug, Default)]
pub struct Prediction<'a> {
    text: &'a str,
    squad: std::cell::OnceCell<String>,
    squad_tokens: std::cell::OnceCell<Tokens>,
    literal: std::cell::OnceCell<String>,
    stems: std::cell::OnceCell<Tokens>,
    /// Multi-hop: the comma-separated parts, each with its stems.
    parts: std::cell::OnceCell<Vec<Tokens>>,
}

fn locomo_stems(s: &str) -> Tokens {
    Tokens::of(py_split(&locomo_normalize(s)).into_iter().map(stem))
}

/// [`porter::stem`], remembered: answers repeat their words, and stemming is most of LoCoMo
/// scoring. The memory is emptied when it holds [`STEMS_REMEMBERED`] words (a pure function:
/// forgetting only costs time).
fn stem(word: &str) -> String {
    thread_local! {
        static STEMS: std::cell::RefCell<HashMap<String, String>> = std::cell::RefCell::new(HashMap::new());
    }
    STEMS.with(|m| {
        let mut m = m.borrow_mut();
        if let Some(s) = m.get(word) {
            return s.clone();
        }
        if m.len() >= STEMS_REMEMBERED {
            m.clear();
        }
        let s = porter::stem(word);
        m.insert(word.to_string(), s.clone());
        s
    })
}

const STEMS_REMEMBERED: usize = 100_000;

impl<'a> Prediction<'a> {
    pub fn new(text: &'a str) -> Self {
        Prediction { text, ..Prediction::default() }
    }

    fn squad(&self) -> &str {
        self.squad.get_or_init(|| squad_normalize(self.text))
    }

    fn squad_tokens(&self) -> &Tokens {
        self.squad_tokens.get_or_init(|| Tokens::of(py_split(self.squad()).into_iter().map(str::to_string)))
    }

    /// [`squad_em`].
    pub fn squad_em(&self, gold: &str) -> f64 {
        if self.squad() == squad_normalize(gold) { 1.0 } else { 0.0 }
    }

    /// [`squad_f1`].
    pub fn squad_f1(&self, gold: &str) -> f64 {
        f1_against(self.squad_tokens(), &py_split(&squad_normalize(gold)))
    }

    /// [`mab_sem`].
    pub fn mab_sem(&self, gold: &str) -> f64 {
        if self.squad().contains(&squad_normalize(gold)) { 1.0 } else { 0.0 }
    }

    /// [`best_over_gold`] of [`mab_sem`](Self::mab_sem), in one pass ([`first_contained`]).
    pub fn mab_sem_over(&self, gold: &[String]) -> (f64, Option<usize>) {
        first_contained(self.squad(), gold, squad_normalize)
    }

    /// [`literal_sem`].
    pub fn literal_sem(&self, gold: &str) -> f64 {
        if self.literal().contains(&literal_normalize(gold)) { 1.0 } else { 0.0 }
    }

    /// [`best_over_gold`] of [`literal_sem`](Self::literal_sem), in one pass ([`first_contained`]).
    pub fn literal_sem_over(&self, gold: &[String]) -> (f64, Option<usize>) {
        first_contained(self.literal(), gold, literal_normalize)
    }

    fn literal(&self) -> &str {
        self.literal.get_or_init(|| literal_normalize(self.text))
    }

    /// [`mab_f1`].
    pub fn mab_f1(&self, gold: &str) -> f64 {
        let g = squad_normalize(gold);
        let special = |s: &str| matches!(s, "yes" | "no" | "noanswer");
        if (special(self.squad()) || special(&g)) && self.squad() != g {
            return 0.0;
        }
        f1_against(self.squad_tokens(), &py_split(&g))
    }

    /// [`locomo_f1_score`].
    pub fn locomo_f1(&self, gold: &str) -> f64 {
        let g: Vec<String> = py_split(&locomo_normalize(gold)).into_iter().map(stem).collect();
        f1_against(self.stems.get_or_init(|| locomo_stems(self.text)), &g)
    }

    /// [`locomo_multi_f1`].
    pub fn locomo_multi_f1(&self, gold: &str) -> f64 {
        let preds = self.parts.get_or_init(|| self.text.split(',').map(|p| locomo_stems(py_strip(p))).collect());
        let golds: Vec<Vec<String>> =
            gold.split(',').map(|g| py_split(&locomo_normalize(py_strip(g))).into_iter().map(stem).collect()).collect();
        let best: Vec<f64> =
            golds.iter().map(|g| preds.iter().map(|p| f1_against(p, g)).fold(f64::NEG_INFINITY, f64::max)).collect();
        best.iter().sum::<f64>() / best.len() as f64
    }

    /// [`LocomoRule::score`].
    pub fn locomo(&self, rule: LocomoRule, gold: &str) -> f64 {
        match rule {
            LocomoRule::MultiHop => self.locomo_multi_f1(gold),
            LocomoRule::F1 | LocomoRule::Uncategorised => self.locomo_f1(gold),
            LocomoRule::FirstAlternative => self.locomo_f1(py_strip(gold.split(';').next().unwrap_or_default())),
            LocomoRule::Adversarial => locomo_adversarial(self.text),
        }
    }
}

/// A-Mem's token-set F1 (`utils.calculate_metrics`, the `f1_score` of mem0's `evals.py`):
/// both sides `str(·).strip()`, 0 when either is empty; `simple_tokenize` lower-cases, turns
/// `.` `,` `!` `?` into spaces and splits on white space; the tokens are **sets** (a repeated
/// word counts once); P = |common|/|pred set|, R = |common|/|gold set|, F1 = 2PR/(P + R), 0
/// when either set is empty or nothing is common.
pub fn amem_f1(pred: &str, gold: &str) -> f64 {
    fn tokens(s: &str) -> std::collections::HashSet<String> {
        let lowered = py_strip(s).to_lowercase().replace(['.', ',', '!', '?'], " ");
        py_split(&lowered).into_iter().map(str::to_string).collect()
    }
    let (p, g) = (tokens(pred), tokens(gold));
    if p.is_empty() || g.is_empty() {
        return 0.0;
    }
    let common = p.intersection(&g).count() as f64;
    let precision = common / p.len() as f64;
    let recall = common / g.len() as f64;
    if precision + recall > 0.0 { 2.0 * precision * recall / (precision + recall) } else { 0.0 }
}

/// SQuAD v1.1 `exact_match_score`: normalised strings equal.
pub fn squad_em(pred: &str, gold: &str) -> f64 {
    Prediction::new(pred).squad_em(gold)
}

/// SQuAD v1.1 `f1_score` on `normalize_answer(·).split()` tokens.
pub fn squad_f1(pred: &str, gold: &str) -> f64 {
    Prediction::new(pred).squad_f1(gold)
}

/// MemoryAgentBench `substring_exact_match_score`: `normalize_answer(gold) in
/// normalize_answer(pred)` (a character substring test, gold inside the prediction).
pub fn mab_sem(pred: &str, gold: &str) -> f64 {
    Prediction::new(pred).mab_sem(gold)
}

/// The paper-literal SEM of seed-000 §3.2: lower-case and white space folded only, gold
/// inside the prediction (the direction of the harness).
pub fn literal_sem(pred: &str, gold: &str) -> f64 {
    Prediction::new(pred).literal_sem(gold)
}

/// MemoryAgentBench `f1_score`: SQuAD F1, except that when either normalised string is `yes`,
/// `no` or `noanswer` and they differ the score is 0.
pub fn mab_f1(pred: &str, gold: &str) -> f64 {
    Prediction::new(pred).mab_f1(gold)
}

/// MemoryAgentBench `parse_output(output, "Answer:")`: the rest of the line after the first
/// `Answer:` (any case), else the first line; stripped, one leading `Answer:` removed, stripped
/// again. (Python's case-insensitive `s` also matches `ſ` U+017F; so does this.)
pub fn parse_output(raw: &str) -> String {
    let chars: Vec<char> = raw.chars().collect();
    let prefix: Vec<char> = "answer:".chars().collect();
    let same = |c: char, p: char| c.to_ascii_lowercase() == p || (p == 's' && c == 'ſ');
    let at = |i: usize| {
        i + prefix.len() <= chars.len() && chars[i..i + prefix.len()].iter().zip(&prefix).all(|(&c, &p)| same(c, p))
    };
    let start = (0..chars.len()).find(|&i| at(i)).map_or(0, |i| i + prefix.len());
    let line: String = chars[start..].iter().take_while(|&&c| c != '\n').collect();
    let extracted = py_strip(&line);
    let ex: Vec<char> = extracted.chars().collect();
    let rest = if ex.len() >= prefix.len() && ex[..prefix.len()].iter().zip(&prefix).all(|(&c, &p)| same(c, p)) {
        ex[prefix.len()..].iter().collect::<String>()
    } else {
        extracted.to_string()
    };
    py_strip(&rest).to_string()
}

/// LoCoMo `evaluation.py::f1_score`: LoCoMo normalisation, NLTK Porter stem of every token,
/// token F1.
pub fn locomo_f1_score(pred: &str, gold: &str) -> f64 {
    Prediction::new(pred).locomo_f1(gold)
}

/// LoCoMo `evaluation.py::f1` (multi-hop, category 1): prediction and gold split on `,` (parts
/// stripped); for every gold part the best `f1_score` over the prediction parts; the mean over
/// gold parts (`np.mean`, summed left to right).
pub fn locomo_multi_f1(pred: &str, gold: &str) -> f64 {
    Prediction::new(pred).locomo_multi_f1(gold)
}

/// LoCoMo category 5 (adversarial): 1 when the lower-cased prediction contains `no information
/// available` or `not mentioned`.
pub fn locomo_adversarial(pred: &str) -> f64 {
    let p = pred.to_lowercase();
    if p.contains("no information available") || p.contains("not mentioned") { 1.0 } else { 0.0 }
}

/// How LoCoMo scores one question, by category (`eval_question_answering`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LocomoRule {
    /// Category 1: multi-hop partial F1 ([`locomo_multi_f1`]).
    MultiHop,
    /// Categories 2 and 4: [`locomo_f1_score`].
    F1,
    /// Category 3: gold cut at its first `;`, then [`locomo_f1_score`].
    FirstAlternative,
    /// Category 5: [`locomo_adversarial`].
    Adversarial,
    /// No (or another) category: [`locomo_f1_score`] (memaudit's extension, counted).
    Uncategorised,
}

impl LocomoRule {
    pub fn of(category: Option<i64>) -> LocomoRule {
        match category {
            Some(1) => LocomoRule::MultiHop,
            Some(2) | Some(4) => LocomoRule::F1,
            Some(3) => LocomoRule::FirstAlternative,
            Some(5) => LocomoRule::Adversarial,
            _ => LocomoRule::Uncategorised,
        }
    }

    /// The LoCoMo score of one (prediction, gold) under this rule.
    pub fn score(self, pred: &str, gold: &str) -> f64 {
        Prediction::new(pred).locomo(self, gold)
    }
}

/// How MemoryAgentBench's `post_process` treats a dataset (routing on its name).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MabRoute {
    /// `default_post_process`: the best of the raw output and its parse.
    RawAndParsed,
    /// `icl*` and `eventqa*`: the parsed output only.
    ParsedOnly,
    /// `*choice_eng*`: SEM is `gold[1].lower() in raw.lower()`; F1 the best of raw and parse.
    ChoiceEng,
    /// `ruler_niah*`, `recsys*`: the harness scores these with recall metrics that are not
    /// answer matching; memaudit scores them like [`MabRoute::RawAndParsed`] and counts them.
    Unsupported,
}

impl MabRoute {
    /// The route of a dataset name, in `post_process`'s order of tests.
    pub fn of(dataset: Option<&str>) -> MabRoute {
        let d = dataset.unwrap_or_default();
        if d.contains("icl") || d.contains("eventqa") {
            MabRoute::ParsedOnly
        } else if (d.contains("infbench") || d.contains("longmemeval")) && d.contains("choice_eng") {
            MabRoute::ChoiceEng
        } else if d.contains("ruler_niah") || d.contains("recsys") {
            MabRoute::Unsupported
        } else {
            MabRoute::RawAndParsed
        }
    }
}

/// Which output gave a score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Output {
    Raw,
    Parsed,
}

/// Below this many prediction bytes × gold variants, containment is checked one gold at a time;
/// above, all the golds are searched in one pass over the prediction (Aho–Corasick).
const ONE_PASS_FROM: usize = 1 << 22;

/// The longest gold the one-pass search takes: an automaton grows with its patterns (a 10 MB
/// gold ran past 300 s), while one long gold is found in linear time on its own.
const ONE_PASS_LONGEST_GOLD: usize = 4096;

/// [`best_over_gold`] of a containment rule (1 when the normalised gold is a substring of the
/// normalised prediction): the first gold contained, else the first gold with 0 — the same
/// result as testing each gold in turn, in time linear in the prediction and the golds (a 10 MiB
/// prediction against 20,000 variants took a minute one gold at a time).
pub fn first_contained(text: &str, gold: &[String], normalise: impl Fn(&str) -> String) -> (f64, Option<usize>) {
    if gold.is_empty() {
        return (0.0, None);
    }
    let golds: Vec<String> = gold.iter().map(|g| normalise(g)).collect();
    let one_at_a_time = golds.len() < 2
        || text.len().saturating_mul(golds.len()) < ONE_PASS_FROM
        || golds.iter().any(|g| g.len() > ONE_PASS_LONGEST_GOLD);
    let first = if one_at_a_time {
        golds.iter().position(|g| text.contains(g.as_str()))
    } else {
        // An empty gold is contained in any text (as in Python); the automaton takes the rest.
        let empty = golds.iter().position(String::is_empty);
        let patterns: Vec<(usize, &str)> =
            golds.iter().enumerate().filter(|(_, g)| !g.is_empty()).map(|(i, g)| (i, g.as_str())).collect();
        let mut first = empty;
        if let Ok(ac) = aho_corasick::AhoCorasick::new(patterns.iter().map(|(_, g)| g)) {
            for m in ac.find_overlapping_iter(text) {
                let i = patterns[m.pattern().as_usize()].0;
                if first.is_none_or(|f| i < f) {
                    first = Some(i);
                    if i == 0 {
                        break;
                    }
                }
            }
        } else {
            first = golds.iter().position(|g| text.contains(g.as_str()));
        }
        first
    };
    match first {
        Some(i) => (1.0, Some(i)),
        None => (0.0, Some(0)),
    }
}

/// The best score over gold variants (first maximum, like Python's `max`), with its index.
pub fn best_over_gold(gold: &[String], f: impl Fn(&str) -> f64) -> (f64, Option<usize>) {
    let mut best: Option<(f64, usize)> = None;
    for (i, g) in gold.iter().enumerate() {
        let s = f(g);
        if best.is_none_or(|(b, _)| s > b) {
            best = Some((s, i));
        }
    }
    best.map_or((0.0, None), |(s, i)| (s, Some(i)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_pass_containment_equals_testing_each_gold_in_turn() {
        // Both paths (a short text: one gold at a time; a long one: the automaton) against the
        // reference rule, best_over_gold of each gold's containment.
        let words = ["red", "fox", "the fox", "ox", "", "blue", "red fox", "jumps", "x"];
        let mut seed = 7u64;
        let mut next = |n: usize| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n
        };
        for round in 0..200 {
            let golds: Vec<String> = (0..1 + next(6)).map(|_| words[next(words.len())].to_string()).collect();
            let repeat = if round % 2 == 0 { 1 } else { 1 << 20 };
            let body = ["a quick brown", "red", "fox", "the", "jumps"][..1 + next(5)].join(" ");
            let text = format!("{}{}", "z".repeat(repeat), body);
            let want = best_over_gold(&golds, |g| if text.contains(g) { 1.0 } else { 0.0 });
            assert_eq!(first_contained(&text, &golds, str::to_string), want, "{golds:?} in …{body}");
        }
        assert_eq!(first_contained("abc", &[], str::to_string), (0.0, None));
    }

    #[test]
    fn token_f1_counts_a_multiset() {
        assert_eq!(token_f1(&["a", "a", "b"], &["a", "c"]), 2.0 * (1.0 / 3.0) * 0.5 / (1.0 / 3.0 + 0.5));
        assert_eq!(token_f1::<&str>(&[], &[]), 0.0);
        assert_eq!(squad_f1("The cat sat", "a cat"), 2.0 * 0.5 * 1.0 / 1.5);
    }

    #[test]
    fn mab_rules() {
        assert_eq!(mab_sem("It is in Paris, France.", "paris"), 1.0);
        assert_eq!(mab_sem("concatenate", "cat"), 1.0, "a character substring, not a token match");
        assert_eq!(literal_sem("Paris.", "paris"), 1.0);
        assert_eq!(literal_sem("The U.S.", "us"), 0.0);
        assert_eq!(mab_f1("yes", "no"), 0.0);
        assert_eq!(mab_f1("Yes.", "yes"), 1.0);
        assert_eq!(parse_output("Reasoning...\nFinal answer: Paris\nmore"), "Paris");
        assert_eq!(parse_output("Paris\nbecause"), "Paris");
        assert_eq!(parse_output("ANSWER: answer: x"), "x");
        assert_eq!(parse_output(""), "");
        assert_eq!(MabRoute::of(Some("icl_banking77")), MabRoute::ParsedOnly);
        assert_eq!(MabRoute::of(Some("ruler_qa1_197K")), MabRoute::RawAndParsed);
        assert_eq!(MabRoute::of(Some("infbench_choice_eng")), MabRoute::ChoiceEng);
        assert_eq!(MabRoute::of(Some("ruler_niah_mk")), MabRoute::Unsupported);
    }

    #[test]
    fn locomo_rules() {
        assert_eq!(locomo_f1_score("running and swimming", "swim, run"), 1.0);
        let mh = locomo_multi_f1("hiking, pottery", "pottery, camping");
        assert_eq!(mh, 0.5);
        assert_eq!(LocomoRule::of(Some(3)).score("June 2023", "June 2023; maybe July"), 1.0);
        assert_eq!(LocomoRule::of(Some(5)).score("Not mentioned in the conversation", "x"), 1.0);
        assert_eq!(
            best_over_gold(&["b".into(), "a".into(), "a".into()], |g| if g == "a" { 1.0 } else { 0.0 }),
            (1.0, Some(1))
        );
        assert_eq!(best_over_gold(&[], |_| 1.0), (0.0, None));
    }
}
