//! Short labels for long arm names on screen (plots, table cells), each with its full name in a
//! legend: LongMemEval judge logs and per-judgment arms give names of 40 characters and more
//! that run off a forest plot. Every output file (JSON, CSV, LaTeX) keeps the full names.
//!
//! Rule: names of at most `max` characters stay as they are. When two or more names are longer,
//! what they all share at the start and at the end (whole parts, cut after or before a `_`,
//! `-`, `.`, `/`, `:` or space) is dropped and stands as an ellipsis: five budget runs
//! `oracle_bc_on_budget_500_20251217-0720`, … become `…500…`, …, the part that tells them
//! apart. A label still longer than `max` (or every long name when they share nothing) keeps
//! its first `h` and last `max − 1 − h` characters around an ellipsis (`fc-baseline…4o-mini`);
//! `h` is the most balanced split that leaves every label distinct. When no split does, long
//! names become `A1`, `A2`, … in order. Written by hand: no crate abbreviates a set of names
//! under a uniqueness constraint.

/// Where a shared part may end or begin.
fn separator(c: char) -> bool {
    matches!(c, '_' | '-' | '.' | '/' | ':' | ' ')
}

/// The long names with what they all share at both ends (whole parts) replaced by `…`; `None`
/// when fewer than two names are long, they share nothing, or a name would be left empty.
fn without_shared_ends(names: &[String], max: usize) -> Option<Vec<String>> {
    let long: Vec<Vec<char>> = names.iter().filter(|n| n.chars().count() > max).map(|n| n.chars().collect()).collect();
    if long.len() < 2 {
        return None;
    }
    let shortest = long.iter().map(Vec::len).min().unwrap_or(0);
    let same = |at: &dyn Fn(&Vec<char>) -> char| long.iter().all(|n| at(n) == at(&long[0]));
    // The shared start, cut after its last separator.
    let mut head = (0..shortest).take_while(|&i| same(&|n| n[i])).count();
    while head > 0 && !separator(long[0][head - 1]) {
        head -= 1;
    }
    // The shared end of what is left, cut before its first separator.
    let rest = shortest - head;
    let mut tail = (0..rest).take_while(|&i| same(&|n| n[n.len() - 1 - i])).count();
    while tail > 0 && !separator(long[0][long[0].len() - tail]) {
        tail -= 1;
    }
    if head + tail == 0 || long.iter().any(|n| n.len() == head + tail) {
        return None;
    }
    let shown = |n: &String| -> String {
        let chars: Vec<char> = n.chars().collect();
        if chars.len() <= max {
            return n.clone();
        }
        let mut s = String::new();
        if head > 0 {
            s.push('\u{2026}');
        }
        s.extend(&chars[head..chars.len() - tail]);
        if tail > 0 {
            s.push('\u{2026}');
        }
        s
    };
    Some(names.iter().map(shown).collect())
}

/// One short label per name (the name itself when it fits), distinct when the names are.
pub fn short_labels(names: &[String], max: usize) -> Vec<String> {
    let max = max.max(5);
    if names.iter().all(|n| n.chars().count() <= max) {
        return names.to_vec();
    }
    without_shared_ends(names, max)
        .and_then(|parts| both_ends(&parts, max))
        .or_else(|| both_ends(names, max))
        .unwrap_or_else(|| codes(names, max))
}

fn distinct(labels: &[String]) -> bool {
    let mut seen = std::collections::HashSet::new();
    labels.iter().all(|l| seen.insert(l.as_str()))
}

/// Each name longer than `max` cut to its two ends around an ellipsis, the most balanced split
/// that keeps the labels distinct; `None` when no split does.
fn both_ends(names: &[String], max: usize) -> Option<Vec<String>> {
    let len = |s: &str| s.chars().count();
    if names.iter().all(|n| len(n) <= max) {
        return distinct(names).then(|| names.to_vec());
    }
    let cut = |n: &str, head: usize| -> String {
        if len(n) <= max {
            return n.to_string();
        }
        let tail = max - 1 - head;
        let chars: Vec<char> = n.chars().collect();
        let mut s: String = chars[..head].iter().collect();
        s.push('\u{2026}');
        s.extend(&chars[chars.len() - tail..]);
        s
    };
    // Prefer a balanced split, then the others by distance from it.
    let mid = (max - 1) / 2;
    let mut heads: Vec<usize> = (1..=max - 2).collect();
    heads.sort_by_key(|&h| (h.abs_diff(mid), std::cmp::Reverse(h)));
    heads.into_iter().map(|head| names.iter().map(|n| cut(n, head)).collect::<Vec<_>>()).find(|l| distinct(l))
}

/// Long names as `A1`, `A2`, … in order.
fn codes(names: &[String], max: usize) -> Vec<String> {
    let mut k = 0;
    names
        .iter()
        .map(|n| {
            if n.chars().count() <= max {
                n.clone()
            } else {
                k += 1;
                format!("A{k}")
            }
        })
        .collect()
}

/// Whether any label differs from its name (a legend is needed).
pub fn abbreviated(names: &[String], labels: &[String]) -> bool {
    names.iter().zip(labels).any(|(n, l)| n != l)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn short_names_stay() {
        let names = s(&["bm25", "dense"]);
        assert_eq!(short_labels(&names, 20), names);
        assert!(!abbreviated(&names, &short_labels(&names, 20)));
    }

    #[test]
    fn long_names_keep_both_ends_and_stay_distinct() {
        let names = s(&[
            "longmemeval_s_stella_20251212-0340.jsonl.eval-results-gpt-4o-mini",
            "longmemeval_s_stella_20251212-0340.jsonl.eval-results-gpt-4o",
            "bm25",
        ]);
        let labels = short_labels(&names, 20);
        assert!(labels.iter().all(|l| l.chars().count() <= 20), "{labels:?}");
        assert_eq!(labels[2], "bm25");
        assert_ne!(labels[0], labels[1]);
        assert_eq!(labels[..2], ["\u{2026}4o-mini", "\u{2026}4o"], "the part after what both share");
        assert!(abbreviated(&names, &labels));
        // One long name shares nothing with another: its two ends.
        let names = s(&["longmemeval_s_stella_20251212-0340.jsonl.eval-results-gpt-4o-mini", "bm25"]);
        let labels = short_labels(&names, 20);
        assert!(labels[0].ends_with("4o-mini") && labels[0].starts_with("longmem"), "{labels:?}");
    }

    #[test]
    fn runs_that_differ_in_the_middle_keep_the_middle() {
        let names: Vec<String> =
            [500, 1000, 2000, 4000, 8000].iter().map(|b| format!("oracle_bc_on_budget_{b}_20251217-0720")).collect();
        let labels = short_labels(&names, 24);
        assert_eq!(
            labels,
            s(&[
                "\u{2026}500\u{2026}",
                "\u{2026}1000\u{2026}",
                "\u{2026}2000\u{2026}",
                "\u{2026}4000\u{2026}",
                "\u{2026}8000\u{2026}"
            ])
        );
        // Parts are whole: `run-a7` and `run-a9` share `run-`, not `run-a`.
        let names = s(&["experiment-run-a7-final-with-reranker", "experiment-run-a9-final-with-reranker", "bm25"]);
        assert_eq!(short_labels(&names, 20), s(&["\u{2026}a7\u{2026}", "\u{2026}a9\u{2026}", "bm25"]));
        // What differs is itself long: its two ends, within the limit.
        let names = s(&[
            "common-prefix-xxxxxxxxxxxxxxxxxxxxxxxxxxxx-one-end",
            "common-prefix-yyyyyyyyyyyyyyyyyyyyyyyyyyyy-two-end",
        ]);
        let labels = short_labels(&names, 16);
        assert!(labels.iter().all(|l| l.chars().count() <= 16 && l.starts_with('\u{2026}')), "{labels:?}");
        assert_ne!(labels[0], labels[1]);
    }

    #[test]
    fn names_equal_at_both_ends_fall_back_to_codes() {
        let names = s(&["aaaaaaaaaaaaXaaaaaaaaaaaa", "aaaaaaaaaaaaYaaaaaaaaaaaa", "short"]);
        let labels = short_labels(&names, 8);
        assert_eq!(labels, s(&["A1", "A2", "short"]));
    }

    #[test]
    fn multibyte_names_are_cut_at_characters() {
        let names = s(&["système-à-mémoire-très-longue-numéro-un", "système-à-mémoire-très-longue-numéro-deux"]);
        let labels = short_labels(&names, 12);
        assert!(labels.iter().all(|l| l.chars().count() <= 12));
        assert_ne!(labels[0], labels[1]);
    }
}
