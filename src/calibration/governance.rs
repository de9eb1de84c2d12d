//! Bank governance (TAG, seed-003 §3.4, Algorithm 1 steps 5–6, App. E): every routed item whose
//! row names the memory entries it retrieved gives each of them one paired utility observation
//! X = outcome with memory − outcome without ∈ {−1, 0, +1} (the candidate's, accepted or not);
//! an entry with n observations of mean µ̂ is retired when its upper confidence bound is below 0:
//!
//! - published (TAG): µ̂ + √(log(2/δ) / (2n)) < 0 — Hoeffding's radius for a range of 1;
//! - textbook: µ̂ + √(2·log(2/δ) / n) < 0 — Hoeffding's radius for X ∈ [−1, 1] (range 2),
//!   twice as wide, so it retires fewer entries.
//!
//! δ is not reported by the paper: it is a setting, shown with every result. Evidence comes from
//! the splits named (TAG: fit/dev only, frozen before test), else from every row, said.
//! Reference: `tests/reference/calibration/governance.py` (NumPy), values in
//! `tests/calibration.rs`.

use serde::{Deserialize, Serialize};

use super::read::Item;

crate::choice! {
    /// The radius of the retirement rule.
    #[derive(Default)]
    pub enum Radius {
        /// √(log(2/δ)/(2n)), as TAG prints it (Hoeffding for a range of 1).
        #[default]
        Published,
        /// √(2·log(2/δ)/n), Hoeffding for utilities in [−1, 1].
        Textbook,
    }
}

/// The two radii for n observations at δ.
pub fn radii(n: usize, delta: f64) -> (f64, f64) {
    let l = (2.0 / delta).ln();
    let n = n as f64;
    ((l / (2.0 * n)).sqrt(), (2.0 * l / n).sqrt())
}

/// One bank entry's evidence and its retirement under both radii.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EntryUtility {
    pub entry: String,
    /// Observations X (routed items naming the entry, with both outcomes).
    pub n: usize,
    /// Observations with X = +1 and X = −1.
    pub helps: usize,
    pub hurts: usize,
    /// µ̂ = mean of X.
    pub mean: f64,
    pub radius_published: f64,
    pub radius_textbook: f64,
    /// µ̂ + the chosen radius.
    pub ucb: f64,
    /// Retired under the chosen radius (ucb < 0).
    pub retired: bool,
    /// Retired under the other radius.
    pub retired_other: bool,
}

/// Governance of the bank entries the rows name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Governance {
    pub delta: f64,
    pub radius: Radius,
    /// The splits whose rows gave evidence (empty: every row).
    pub splits: Vec<String>,
    /// Rows naming at least one entry.
    pub rows_with_entries: usize,
    /// Of those, rows that gave evidence.
    pub rows_used: usize,
    /// Rows naming entries without an outcome with memory: no X, left out (counted).
    pub rows_without_outcome: usize,
    /// Rows naming entries in a split not named: left out (counted).
    pub rows_other_splits: usize,
    /// Distinct splits among the rows that gave evidence (to say a test split contributed).
    pub evidence_splits: Vec<String>,
    /// Entries, lowest upper bound first.
    pub entries: Vec<EntryUtility>,
    pub retired: usize,
    pub retired_other: usize,
}

/// The governance of `items` (`None` when no row names an entry).
pub fn govern(items: &[&Item], splits: &[String], delta: f64, radius: Radius) -> Option<Governance> {
    let named: Vec<&Item> = items.iter().copied().filter(|i| !i.entries.is_empty()).collect();
    if named.is_empty() {
        return None;
    }
    let in_splits = |i: &Item| splits.is_empty() || i.split.as_ref().is_some_and(|s| splits.contains(s));
    let rows_other_splits = named.iter().filter(|i| !in_splits(i)).count();
    let kept: Vec<&Item> = named.iter().copied().filter(|i| in_splits(i)).collect();
    let rows_without_outcome = kept.iter().filter(|i| i.with_memory.is_none()).count();
    let used: Vec<&Item> = kept.iter().copied().filter(|i| i.with_memory.is_some()).collect();
    let rows_used = used.len();
    // (entry, X) per row, an entry named twice in a row once; grouped in the order first named.
    let observations = used.iter().flat_map(|i| {
        let x = i.with_memory.unwrap_or(i.correct) as i8 - i.correct as i8;
        crate::distinct::first_seen(i.entries.iter().map(String::as_str)).into_iter().map(move |e| (e, x))
    });
    let by_entry = crate::distinct::groups_first_seen(observations, |(e, _)| *e);
    let mut entries: Vec<EntryUtility> = by_entry
        .into_iter()
        .map(|(entry, obs)| {
            let xs: Vec<i8> = obs.iter().map(|(_, x)| *x).collect();
            let n = xs.len();
            let mean = xs.iter().map(|&x| x as f64).sum::<f64>() / n as f64;
            let (p, t) = radii(n, delta);
            let (chosen, other) = match radius {
                Radius::Published => (p, t),
                Radius::Textbook => (t, p),
            };
            EntryUtility {
                entry: entry.to_string(),
                n,
                helps: xs.iter().filter(|&&x| x == 1).count(),
                hurts: xs.iter().filter(|&&x| x == -1).count(),
                mean,
                radius_published: p,
                radius_textbook: t,
                ucb: mean + chosen,
                retired: mean + chosen < 0.0,
                retired_other: mean + other < 0.0,
            }
        })
        .collect();
    entries.sort_by(|a, b| a.ucb.total_cmp(&b.ucb).then_with(|| a.entry.cmp(&b.entry)));
    let evidence_splits = crate::distinct::first_seen(used.iter().filter_map(|i| i.split.as_deref()))
        .into_iter()
        .map(str::to_string)
        .collect();
    Some(Governance {
        delta,
        radius,
        splits: splits.to_vec(),
        rows_with_entries: named.len(),
        rows_used,
        rows_without_outcome,
        rows_other_splits,
        evidence_splits,
        retired: entries.iter().filter(|e| e.retired).count(),
        retired_other: entries.iter().filter(|e| e.retired_other).count(),
        entries,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Location;

    fn item(correct: bool, with: Option<bool>, entries: &[&str], split: &str) -> Item {
        Item {
            id: "i".into(),
            confidence: 0.5,
            correct,
            with_memory: with,
            applied: None,
            split: Some(split.into()),
            entries: entries.iter().map(|e| e.to_string()).collect(),
            confidence_at: Location::file("f"),
        }
    }

    /// By hand: E1 sees X = −1, −1, −1, 0 (µ̂ = −0.75, n = 4); at δ = 0.05 log(40) = 3.6889,
    /// published radius √(3.6889/8) = 0.67906 (UCB −0.0709: retired), textbook
    /// √(7.3778/4) = 1.35812 (UCB 0.608: kept). E2 (one −1, n = 1) is kept by both.
    #[test]
    fn hand_counted_entries_under_both_radii() {
        let items = [
            item(true, Some(false), &["E1"], "fit"),
            item(true, Some(false), &["E1", "E1"], "fit"),
            item(true, Some(false), &["E1", "E2"], "fit"),
            item(false, Some(false), &["E1"], "fit"),
            item(false, Some(true), &["E2"], "test"),
            item(false, None, &["E2"], "fit"),
            item(false, Some(true), &[], "fit"),
        ];
        let refs: Vec<&Item> = items.iter().collect();
        let g = govern(&refs, &["fit".to_string()], 0.05, Radius::Published).unwrap();
        assert_eq!((g.rows_with_entries, g.rows_used, g.rows_without_outcome, g.rows_other_splits), (6, 4, 1, 1));
        let e1 = g.entries.iter().find(|e| e.entry == "E1").unwrap();
        assert_eq!((e1.n, e1.helps, e1.hurts, e1.mean), (4, 0, 3, -0.75), "a row naming E1 twice counts once");
        assert!((e1.radius_published - (40f64.ln() / 8.0).sqrt()).abs() < 1e-15);
        assert!((e1.radius_textbook - (2.0 * 40f64.ln() / 4.0).sqrt()).abs() < 1e-15);
        assert!(e1.retired && !e1.retired_other);
        let e2 = g.entries.iter().find(|e| e.entry == "E2").unwrap();
        assert_eq!((e2.n, e2.mean, e2.retired), (1, -1.0, false));
        assert_eq!((g.retired, g.retired_other), (1, 0));
        assert_eq!(g.entries[0].entry, "E1", "lowest upper bound first");
        let t = govern(&refs, &["fit".to_string()], 0.05, Radius::Textbook).unwrap();
        assert_eq!((t.retired, t.retired_other), (0, 1));
        // Every row, the test split's too.
        let all = govern(&refs, &[], 0.05, Radius::Published).unwrap();
        assert_eq!((all.rows_used, all.evidence_splits.as_slice()), (5, &["fit".to_string(), "test".to_string()][..]));
    }
}
