//! Short labels for long arm names on screen (plots, table cells), each with its full name in a
//! legend: LongMemEval judge logs and per-judgment arms give names of 40 characters and more
//! that run off a forest plot. Every output file (JSON, CSV, LaTeX) keeps the full names.
//!
//! Rule: names of at most `max` characters stay as they are. A longer name keeps its first `h`
//! and last `max − 1 − h` characters around an ellipsis (`fc-baseline…4o-mini`); `h` is the
//! largest split (from `max − 2` down to 1) that leaves every label distinct. When no split
//! does, long names become `A1`, `A2`, … in order. Written by hand: no crate abbreviates a set
//! of names under a uniqueness constraint.

/// One short label per name (the name itself when it fits), distinct when the names are.
pub fn short_labels(names: &[String], max: usize) -> Vec<String> {
    let max = max.max(5);
    let len = |s: &str| s.chars().count();
    if names.iter().all(|n| len(n) <= max) {
        return names.to_vec();
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
    let distinct = |labels: &[String]| {
        let mut seen = std::collections::HashSet::new();
        labels.iter().all(|l| seen.insert(l.as_str()))
    };
    // Prefer a balanced split, then the others by distance from it.
    let mid = (max - 1) / 2;
    let mut heads: Vec<usize> = (1..=max - 2).collect();
    heads.sort_by_key(|&h| (h.abs_diff(mid), std::cmp::Reverse(h)));
    for head in heads {
        let labels: Vec<String> = names.iter().map(|n| cut(n, head)).collect();
        if distinct(&labels) {
            return labels;
        }
    }
    let mut k = 0;
    names
        .iter()
        .map(|n| {
            if len(n) <= max {
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
        assert!(labels[0].ends_with("4o-mini") && labels[0].starts_with("longmem"), "{labels:?}");
        assert!(abbreviated(&names, &labels));
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
