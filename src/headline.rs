//! Headlines: what a report's data says, in a few sentences, most severe first — the verdict a
//! reviewer came for (a winner that flips with the credit target, a reported number the data
//! does not give, arms that could not be paired), each with the numbers it rests on and the
//! table that shows them.
//!
//! Every capability computes its headlines from its report
//! ([`crate::capability::Capability::headlines`]); the CLI prints them first in its text output
//! and as the `headlines` array of every JSON output, the viewer in its "What the data says"
//! panel. A headline never says more than its evidence: "significant" always names the
//! correction or the interval it rests on.

use serde::{Deserialize, Serialize};

use crate::choice::Choice;
use crate::ingest::warnings::{Kind, Severity, Warning};

crate::choice! {
    /// How much a headline matters (the order of the list).
    pub enum Level {
        /// A conclusion does not hold as stated: a winner flips, a reported number differs, a
        /// rule fired against, data could not be used as given.
        Alert,
        /// A result to weigh: a difference whose interval excludes 0, a caveat on the data.
        Finding,
        /// What was compared, on how many items; a result that holds.
        Context,
    }
}

/// One sentence of what the data says.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Headline {
    pub level: Level,
    /// The sentence.
    pub text: String,
    /// The numbers it rests on, with the method ("+0.026 [0.004, 0.048], n = 754; 95%
    /// percentile bootstrap").
    pub evidence: String,
    /// The table that shows it (its `--table` name), when one does.
    pub table: Option<String>,
}

impl Headline {
    pub fn new(level: Level, text: impl Into<String>, evidence: impl Into<String>, table: Option<&str>) -> Self {
        Headline { level, text: text.into(), evidence: evidence.into(), table: table.map(str::to_string) }
    }

    pub fn alert(text: impl Into<String>, evidence: impl Into<String>, table: impl Choice) -> Self {
        Headline::new(Level::Alert, text, evidence, Some(table.name()))
    }

    pub fn finding(text: impl Into<String>, evidence: impl Into<String>, table: impl Choice) -> Self {
        Headline::new(Level::Finding, text, evidence, Some(table.name()))
    }

    pub fn context(text: impl Into<String>, evidence: impl Into<String>, table: impl Choice) -> Self {
        Headline::new(Level::Context, text, evidence, Some(table.name()))
    }

    /// The headline with every setting it mentions ([`crate::fields::mention`]) named by
    /// `word` (an interface's words: `--recode` on the command line).
    pub fn in_words(mut self, word: &dyn Fn(&str) -> String) -> Self {
        self.text = crate::fields::render_mentions(&self.text, word);
        self.evidence = crate::fields::render_mentions(&self.evidence, word);
        self
    }
}

/// A setting as reports name it where no interface speaks (the JSON, the report to attach, the
/// viewer's list): its settings key in backticks, `` `recode` ``.
pub fn settings_key(name: &str) -> String {
    format!("`{name}`")
}

/// The most headlines a report gives: past it, the least severe are summed up in one line.
pub const MAX_HEADLINES: usize = 12;

/// `headlines` most severe first (stable within a level); past [`MAX_HEADLINES`] the rest is
/// counted in a last line, never dropped without a word.
pub fn rank(mut headlines: Vec<Headline>) -> Vec<Headline> {
    headlines.sort_by_key(|h| h.level);
    if headlines.len() > MAX_HEADLINES {
        let rest = headlines.split_off(MAX_HEADLINES - 1);
        let alerts = rest.iter().filter(|h| h.level == Level::Alert).count();
        let level = rest[0].level;
        headlines.push(Headline {
            level,
            text: format!(
                "{} more headline(s) not shown{}: see the tables",
                rest.len(),
                if alerts > 0 { format!(", {alerts} of them alerts") } else { String::new() }
            ),
            evidence: rest.iter().take(3).map(|h| h.text.as_str()).collect::<Vec<_>>().join("; "),
            table: None,
        });
    }
    headlines
}

/// The "What the data says" section of a text report (empty when there is nothing to say).
pub fn render_text(headlines: &[Headline]) -> String {
    if headlines.is_empty() {
        return String::new();
    }
    let mut out = String::from("What the data says\n");
    for h in headlines {
        let mark = match h.level {
            Level::Alert => "!",
            Level::Finding => "*",
            Level::Context => "-",
        };
        out.push_str(&format!("  {mark} {}\n", h.text));
        if !h.evidence.is_empty() {
            out.push_str(&format!("      {}", h.evidence));
            if let Some(t) = &h.table {
                out.push_str(&format!("  [table: {t}]"));
            }
            out.push('\n');
        }
    }
    out.push('\n');
    out
}

/// A difference with its interval and size: `+0.026 [0.004, 0.048], n = 754`.
pub fn difference(delta: f64, low: Option<f64>, high: Option<f64>, n: usize) -> String {
    match (low, high) {
        (Some(l), Some(h)) => format!("{delta:+.3} [{l:.3}, {h:.3}], n = {n}"),
        _ => format!("{delta:+.3}, n = {n}"),
    }
}

/// A proportion with its interval: `0.412 [0.380, 0.445]`.
pub fn estimate(v: f64, low: Option<f64>, high: Option<f64>) -> String {
    match (low, high) {
        (Some(l), Some(h)) => format!("{v:.3} [{l:.3}, {h:.3}]"),
        _ => format!("{v:.3}"),
    }
}

/// A p-value to three decimals, `< 0.001` below.
pub fn p_value(p: f64) -> String {
    if p < 0.001 { "< 0.001".to_string() } else { format!("= {p:.3}") }
}

/// A confidence level as a percentage: `95`, `99.5`.
pub fn percent(level: f64) -> String {
    let p = level * 100.0;
    if (p - p.round()).abs() < 1e-9 { format!("{p:.0}") } else { format!("{p}") }
}

/// The first `max` names and how many more: `a, b, c and 4 more`.
pub fn some_of<S: AsRef<str>>(names: &[S], max: usize) -> String {
    let shown: Vec<&str> = names.iter().take(max).map(AsRef::as_ref).collect();
    let mut out = shown.join(", ");
    if names.len() > max {
        out.push_str(&format!(" and {} more", names.len() - max));
    }
    out
}

/// A finding about `items` when there are any: `text(n)` says it of `n` items, the evidence
/// names the first `max` of them ([`some_of`]); `None` when there are none.
pub fn finding_on<S: AsRef<str>>(
    items: &[S],
    max: usize,
    text: impl FnOnce(usize) -> String,
    table: impl Choice,
) -> Option<Headline> {
    (!items.is_empty()).then(|| Headline::finding(text(items.len()), some_of(items, max), table))
}

/// `s` with its first letter upper-case (a warning's message as a headline).
fn sentence_case(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// `1 query` / `3 queries`.
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// One finding per reading warning that left data out or may change a number (notes, which
/// only record a convention applied, are not headlines): at most `max`, then one line for the
/// rest.
pub fn from_warnings<'a, K: Kind + Serialize + 'a>(
    warnings: impl IntoIterator<Item = &'a Warning<K>>,
    table: impl Choice,
) -> Vec<Headline> {
    const MAX: usize = 3;
    let serious: Vec<_> = warnings.into_iter().filter(|w| w.severity == Severity::Warning).collect();
    let mut out: Vec<Headline> = serious
        .iter()
        .take(MAX)
        .map(|w| {
            let example = w.examples.first().map(|e| format!("; e.g. {e}")).unwrap_or_default();
            Headline::finding(
                format!("{} ({}×)", sentence_case(&w.message), w.count),
                format!("{}{example}", crate::report::serde_name(&w.kind)),
                table,
            )
        })
        .collect();
    if serious.len() > MAX {
        let rest: Vec<String> = serious[MAX..].iter().map(|w| crate::report::serde_name(&w.kind)).collect();
        out.push(Headline::finding(
            format!("{} more kind(s) of reading warning", serious.len() - MAX),
            some_of(&rest, 5),
            table,
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::choice! {
        /// The tables a headline points at, as a capability declares them.
        enum RescoreTable { Summary, Winners }
    }

    #[test]
    fn ranking_puts_alerts_first_and_counts_what_it_cuts() {
        let mut hs = vec![Headline::context("c", "", RescoreTable::Summary)];
        hs.extend((0..MAX_HEADLINES).map(|i| Headline::finding(format!("f{i}"), "", RescoreTable::Winners)));
        hs.push(Headline::alert("a", "", RescoreTable::Winners));
        let ranked = rank(hs);
        assert_eq!(ranked.len(), MAX_HEADLINES);
        assert_eq!(ranked[0].text, "a");
        assert_eq!(ranked[0].table.as_deref(), Some("winners"));
        let last = ranked.last().unwrap();
        assert!(last.text.starts_with("3 more headline(s) not shown"), "{}", last.text);
        assert!(last.evidence.contains("f10") && last.evidence.contains('c'), "{}", last.evidence);
    }

    #[test]
    fn formats_state_interval_and_size() {
        assert_eq!(difference(0.0264, Some(0.0041), Some(0.048), 754), "+0.026 [0.004, 0.048], n = 754");
        assert_eq!(difference(-0.5, None, None, 3), "-0.500, n = 3");
        assert_eq!(some_of(&["a", "b", "c", "d"], 2), "a, b and 2 more");
        assert_eq!(count(1, "query", "queries"), "1 query");
        let text = render_text(&[Headline::alert("x flips", "+0.1", RescoreTable::Winners)]);
        assert_eq!(text, "What the data says\n  ! x flips\n      +0.1  [table: winners]\n\n");
        assert_eq!(render_text(&[]), "");
    }
}
