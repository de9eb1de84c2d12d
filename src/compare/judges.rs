//! The judges' agreement of one system's judged file: where each item holds several verdicts
//! (`llm_judgments: {judgment_1, judgment_2, judgment_3}`, one per judge run), how often the
//! runs agree.
//!
//! Over the items whose every verdict is present (the others are counted, not guessed):
//! - Fleiss' κ (Fleiss 1971) with two categories and m judgments per item:
//!   P_i = (Σ_c n_ic² − m)/(m(m − 1)), P̄ = mean P_i, p_c = Σ_i n_ic/(N m), P̄_e = Σ_c p_c²,
//!   κ = (P̄ − P̄_e)/(1 − P̄_e) (as [`crate::stats::agreement::fleiss_kappa`]), computed from the
//!   shares of items by their number of 1s, on which P_i and p_c depend alone;
//! - its percentile bootstrap interval over items (the comparison's resamples and seed, drawn by
//!   its resampler: linear in items × resamples, threaded);
//! - the share of unanimous items, and each judgment's share of 1s.
//!
//! Reference: statsmodels' `fleiss_kappa` on the same counts and NumPy shares
//! (`tests/reference/judges/`).

use serde::{Deserialize, Serialize};

use super::engine::CompareSettings;
use super::table::CompareTable;
use crate::headline::Headline;
use crate::outcomes::judgments::JudgePanel;
use crate::report::{Column, num, render_columns};
use crate::stats::bca::percentile_interval;
use crate::stats::bootstrap::{Resampler, Scheme};

/// How often one system's judgments agree, item by item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JudgeAgreement {
    /// The system (its arm, or its file without an arm column).
    pub arm: String,
    /// The judgments compared (`judgment_1`, …).
    pub judgments: Vec<String>,
    /// Items with every verdict present.
    pub items: usize,
    /// Items with some verdicts but not all: left out.
    pub incomplete: usize,
    /// Rows repeating an item already read for the system: only the first counts.
    #[serde(default)]
    pub repeated: usize,
    /// Items on which every judgment agrees.
    pub unanimous: usize,
    pub unanimous_share: Option<f64>,
    /// Fleiss' κ; `None` when every verdict is the same (no chance agreement to correct).
    pub kappa: Option<f64>,
    pub kappa_low: Option<f64>,
    pub kappa_high: Option<f64>,
    /// How κ's interval was drawn, in words (level, resamples, seed).
    pub interval: String,
    /// P̄: the mean agreement of judgment pairs on an item.
    pub observed: Option<f64>,
    /// P̄_e: the agreement expected by chance.
    pub expected: Option<f64>,
    /// Each judgment's share of 1s over the items, in the order of `judgments`.
    pub shares: Vec<f64>,
}

/// The agreement of each panel, with κ's interval from `settings`' resamples and seed.
pub fn judges_agreement(panels: &[JudgePanel], settings: &CompareSettings) -> Vec<JudgeAgreement> {
    panels.iter().map(|p| agreement(p, settings)).collect()
}

/// Fleiss' κ of two categories from the shares of items by how many of the m judgments say 1
/// (`shares[k]`: the share of items with k ones): P_i depends only on k, so
/// P̄ = Σ_k shares[k]·(k² + (m − k)² − m)/(m(m − 1)), p₁ = Σ_k shares[k]·k/m,
/// P̄_e = p₁² + (1 − p₁)². `None` when P̄_e = 1 (every verdict the same) or m < 2.
fn kappa_of_shares(shares: &[f64]) -> Option<(f64, f64, f64)> {
    let m = shares.len().checked_sub(1).filter(|&m| m >= 2)? as f64;
    let p_bar: f64 = shares
        .iter()
        .enumerate()
        .map(|(k, s)| {
            let k = k as f64;
            s * (k * k + (m - k) * (m - k) - m) / (m * (m - 1.0))
        })
        .sum();
    let p1: f64 = shares.iter().enumerate().map(|(k, s)| s * k as f64 / m).sum();
    let p_e = p1 * p1 + (1.0 - p1) * (1.0 - p1);
    ((1.0 - p_e).abs() >= 1e-15).then(|| ((p_bar - p_e) / (1.0 - p_e), p_bar, p_e))
}

/// The most resampled items (items × resamples) κ's interval may draw: about 7 s on a 2-core
/// machine. Past it the interval is left out and `interval` says what to lower.
pub const MAX_JUDGES_WORK: u64 = 500_000_000;

fn agreement(p: &JudgePanel, settings: &CompareSettings) -> JudgeAgreement {
    let n = p.ones.len();
    let work = (n as u64).saturating_mul(settings.bootstrap as u64);
    let m = p.judgments.len();
    // One 0/1 vector per k = 0..=m (item has k ones): κ of a resample is a function of their
    // means, drawn together on the same resampled items by the comparison's resampler (the
    // threaded, cached path: items × resamples draws, not a pass over every item per resample).
    let classes: Vec<Vec<f64>> =
        (0..=m).map(|k| p.ones.iter().map(|&o| if o as usize == k { 1.0 } else { 0.0 }).collect()).collect();
    let shares: Vec<f64> =
        classes.iter().map(|v| if n == 0 { 0.0 } else { v.iter().sum::<f64>() / n as f64 }).collect();
    let whole = if n == 0 { None } else { kappa_of_shares(&shares) };
    let (kappa_low, kappa_high) = match whole {
        Some(_) if work <= MAX_JUDGES_WORK => {
            let refs: Vec<&[f64]> = classes.iter().map(Vec::as_slice).collect();
            let means = Resampler::new(settings.bootstrap, settings.seed).means_under(&refs, &Scheme::Iid);
            let reps: Vec<f64> = (0..means.first().map_or(0, Vec::len))
                .filter_map(|r| {
                    let s: Vec<f64> = means.iter().map(|arm| arm[r]).collect();
                    kappa_of_shares(&s).map(|k| k.0)
                })
                .collect();
            percentile_interval(&reps, 1.0 - settings.alpha).map_or((None, None), |(l, h)| (Some(l), Some(h)))
        }
        _ => (None, None),
    };
    let unanimous = p.ones.iter().filter(|&&o| o == 0 || o as usize == m).count();
    let share = |x: usize| (n > 0).then(|| x as f64 / n as f64);
    JudgeAgreement {
        arm: p.arm.clone(),
        judgments: p.judgments.clone(),
        items: n,
        incomplete: p.incomplete,
        repeated: p.repeated,
        unanimous,
        unanimous_share: share(unanimous),
        kappa: whole.map(|k| k.0),
        kappa_low,
        kappa_high,
        interval: if whole.is_some() && work > MAX_JUDGES_WORK {
            // Report text, shown by the CLI and the page alike: the setting in plain words.
            format!(
                "no interval: {n} items × {} resamples is more than the {MAX_JUDGES_WORK} resampled items taken \
                 here; lower the resamples (bootstrap) to {} or fewer",
                settings.bootstrap,
                MAX_JUDGES_WORK / n.max(1) as u64
            )
        } else {
            interval_text(settings)
        },
        observed: whole.map(|k| k.1),
        expected: whole.map(|k| k.2),
        shares: p.positives.iter().map(|&x| share(x).unwrap_or(0.0)).collect(),
    }
}

/// The columns of the `judges` table (`memaudit compare --format csv --table judges`).
pub const JUDGES: &[Column<JudgeAgreement>] = &crate::columns![JudgeAgreement;
    /// The system (its arm, or its file without an arm column).
    "arm" => |j| j.arm.clone(),
    /// The judgment columns compared (judgment_1, …).
    "judgments" => |j| j.judgments.join(";"),
    /// Items with every verdict present.
    "items" => |j| j.items.to_string(),
    /// Items with some verdicts but not all: left out.
    "incomplete" => |j| j.incomplete.to_string(),
    /// Items on which every judgment agrees.
    "unanimous" => |j| j.unanimous.to_string(),
    /// unanimous / items.
    "unanimous_share" => |j| num(j.unanimous_share),
    /// Fleiss' κ of the judgments (empty when every verdict is the same).
    "fleiss_kappa" => |j| num(j.kappa),
    /// κ's interval, lower bound (how it was drawn: interval).
    "kappa_low" => |j| num(j.kappa_low),
    /// κ's interval, upper bound.
    "kappa_high" => |j| num(j.kappa_high),
    /// How κ's interval was drawn: level, resamples, seed.
    "interval" => |j| j.interval.clone(),
    /// P̄: the mean agreement of judgment pairs on an item.
    "observed_agreement" => |j| num(j.observed),
    /// P̄_e: the agreement expected by chance.
    "chance_agreement" => |j| num(j.expected),
    /// Each judgment's share of 1s over the items, in the order of judgments.
    "shares" => |j| j.shares.iter().map(|s| num(Some(*s))).collect::<Vec<_>>().join(";"),
    /// Rows repeating an item already read for the system: only the first counts.
    "repeated" => |j| j.repeated.to_string(),
];

/// A value to three decimals, `—` when there is none.
fn f3(x: Option<f64>) -> String {
    x.map_or("—".to_string(), |v| format!("{v:.3}"))
}

/// κ with its interval: `0.984 [0.974, 0.992]`.
fn kappa_text(j: &JudgeAgreement) -> String {
    format!("{} [{}, {}]", f3(j.kappa), f3(j.kappa_low), f3(j.kappa_high))
}

/// Each judgment's share of 1s: `judgment_1 0.798, judgment_2 0.798`.
fn shares_text(j: &JudgeAgreement) -> String {
    j.judgments.iter().zip(&j.shares).map(|(n, s)| format!("{n} {s:.3}")).collect::<Vec<_>>().join(", ")
}

/// The judges' agreement as text (empty without any): one line per system.
pub fn render_judges(judges: &[JudgeAgreement]) -> String {
    let Some(first) = judges.first() else { return String::new() };
    let settings = &first.interval;
    let mut out = format!("\n== Judges' agreement (Fleiss' κ over the items with every verdict; {settings})\n");
    let rows: Vec<Vec<String>> = judges
        .iter()
        .map(|j| {
            vec![
                j.arm.clone(),
                j.judgments.len().to_string(),
                j.items.to_string(),
                format!("{} ({})", j.unanimous, f3(j.unanimous_share)),
                kappa_text(j),
                shares_text(j),
            ]
        })
        .collect();
    out.push_str(&render_columns(&["arm", "judgments", "items", "unanimous", "κ [CI]", "share of 1s"], &rows));
    for j in judges.iter().filter(|j| j.incomplete > 0) {
        out.push_str(&format!("{}: {} item(s) with some verdicts missing, left out\n", j.arm, j.incomplete));
    }
    for j in judges.iter().filter(|j| j.repeated > 0) {
        out.push_str(&format!(
            "{}: {} row(s) repeat an item already read, only its first row counts\n",
            j.arm, j.repeated
        ));
    }
    out
}

/// How κ's interval is drawn under `settings`, in words.
fn interval_text(settings: &CompareSettings) -> String {
    format!(
        "{:.0}% percentile intervals, {} resamples of the items (seed {})",
        100.0 * (1.0 - settings.alpha),
        settings.bootstrap,
        settings.seed
    )
}

/// Fleiss' κ below this is "moderate" or worse (Landis & Koch 1977): the judges' verdicts then
/// differ enough that a single judgment's accuracy is not the system's.
pub const KAPPA_FINDING: f64 = 0.6;

/// What the judges' agreement says: each system's κ as context, a finding where κ is below
/// [`KAPPA_FINDING`] or items were left out.
pub fn judges_headlines(judges: &[JudgeAgreement]) -> Vec<Headline> {
    judges
        .iter()
        .map(|j| {
            let text = format!(
                "The {} judgments of `{}` agree on {} of {} items (Fleiss' κ {})",
                j.judgments.len(),
                j.arm,
                j.unanimous,
                j.items,
                kappa_text(j)
            );
            let mut evidence = format!("share of 1s per judgment: {}; {}", shares_text(j), j.interval);
            if j.incomplete > 0 {
                evidence.push_str(&format!("; {} item(s) with some verdicts missing left out", j.incomplete));
            }
            if j.repeated > 0 {
                evidence.push_str(&format!("; {} row(s) repeat an item, only its first row counts", j.repeated));
            }
            let weak = j.kappa.is_some_and(|k| k < KAPPA_FINDING);
            if weak {
                Headline::finding(text, evidence, CompareTable::Judges)
            } else {
                Headline::context(text, evidence, CompareTable::Judges)
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// κ from the shares of items by their number of 1s is Fleiss' κ of the counts (checked
    /// against statsmodels in `stats::agreement` and `tests/reference/judges`).
    #[test]
    fn kappa_from_shares_is_fleiss_kappa_of_the_counts() {
        for m in 2..6u32 {
            let counts: Vec<[u32; 2]> = (0..97u32)
                .map(|i| {
                    let ones = (i * 7 + i / 3) % (m + 1);
                    [m - ones, ones]
                })
                .collect();
            let rows: Vec<Vec<f64>> = counts.iter().map(|c| vec![f64::from(c[0]), f64::from(c[1])]).collect();
            let want = crate::stats::agreement::fleiss_kappa(&rows).unwrap();
            let mut shares = vec![0.0; m as usize + 1];
            for c in &counts {
                shares[c[1] as usize] += 1.0 / counts.len() as f64;
            }
            let (k, p_o, p_e) = kappa_of_shares(&shares).unwrap();
            assert!((k - want.kappa).abs() < 1e-12 && (p_o - want.p_o).abs() < 1e-12 && (p_e - want.p_e).abs() < 1e-12);
        }
        // Every verdict the same: no chance agreement to correct.
        assert_eq!(kappa_of_shares(&[0.0, 0.0, 1.0]), None);
    }

    /// Past the work budget κ is given without its interval, and `interval` says what to lower.
    #[test]
    fn past_the_budget_the_interval_is_left_out_and_said() {
        let n = 60_000usize;
        let panel = JudgePanel {
            arm: "a".into(),
            judgments: vec!["judgment_1".into(), "judgment_2".into()],
            ones: (0..n).map(|i| if i % 3 == 0 { 1 } else { 2 }).collect(),
            positives: vec![0, 0],
            incomplete: 0,
            repeated: 0,
        };
        let settings = CompareSettings { bootstrap: 10_000, ..CompareSettings::default() };
        let j = &judges_agreement(std::slice::from_ref(&panel), &settings)[0];
        assert!(j.kappa.is_some() && j.kappa_low.is_none() && j.kappa_high.is_none());
        assert!(j.interval.starts_with("no interval: 60000 items × 10000 resamples"), "{}", j.interval);
        assert!(j.interval.ends_with("to 8333 or fewer"), "{}", j.interval);
        let settings = CompareSettings { bootstrap: 200, ..CompareSettings::default() };
        let j = &judges_agreement(&[panel], &settings)[0];
        assert!(j.kappa_low.is_some() && j.interval.contains("200 resamples"));
    }
}
