//! The judges' agreement of one system's judged file: where each item holds several verdicts
//! (`llm_judgments: {judgment_1, judgment_2, judgment_3}`, one per judge run), how often the
//! runs agree.
//!
//! Over the items whose every verdict is present (the others are counted, not guessed):
//! - Fleiss' κ (Fleiss 1971) with two categories and m judgments per item:
//!   P_i = (Σ_c n_ic² − m)/(m(m − 1)), P̄ = mean P_i, p_c = Σ_i n_ic/(N m), P̄_e = Σ_c p_c²,
//!   κ = (P̄ − P̄_e)/(1 − P̄_e) ([`crate::stats::agreement::fleiss_kappa`]);
//! - its percentile bootstrap interval over items (the comparison's resamples and seed);
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
use crate::stats::agreement::fleiss_kappa_weighted;
use crate::stats::bca::percentile_interval;
use crate::stats::bootstrap::Scheme;
use crate::stats::resample::bootstrap_counts;

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

fn agreement(p: &JudgePanel, settings: &CompareSettings) -> JudgeAgreement {
    let n = p.counts.len();
    let counts: Vec<Vec<f64>> = p.counts.iter().map(|c| vec![f64::from(c[0]), f64::from(c[1])]).collect();
    let whole = fleiss_kappa_weighted(&counts, None);
    let (kappa_low, kappa_high) = match whole {
        Some(_) => {
            let reps = bootstrap_counts(n, &Scheme::Iid, settings.bootstrap, settings.seed, |w| {
                fleiss_kappa_weighted(&counts, Some(w)).map(|k| k.kappa)
            });
            percentile_interval(&reps.values, 1.0 - settings.alpha).map_or((None, None), |(l, h)| (Some(l), Some(h)))
        }
        None => (None, None),
    };
    let unanimous = p.counts.iter().filter(|c| c[0] == 0 || c[1] == 0).count();
    let share = |x: usize| (n > 0).then(|| x as f64 / n as f64);
    JudgeAgreement {
        arm: p.arm.clone(),
        judgments: p.judgments.clone(),
        items: n,
        incomplete: p.incomplete,
        unanimous,
        unanimous_share: share(unanimous),
        kappa: whole.as_ref().map(|k| k.kappa),
        kappa_low,
        kappa_high,
        interval: interval_text(settings),
        observed: whole.as_ref().map(|k| k.p_o),
        expected: whole.as_ref().map(|k| k.p_e),
        shares: p.positives.iter().map(|&x| share(x).unwrap_or(0.0)).collect(),
    }
}

/// The columns of the `judges` table (`memaudit compare --format csv --table judges`).
pub const JUDGES: &[Column<JudgeAgreement>] = &crate::columns![JudgeAgreement;
    "arm" => |j| j.arm.clone(),
    "judgments" => |j| j.judgments.join(";"),
    "items" => |j| j.items.to_string(),
    "incomplete" => |j| j.incomplete.to_string(),
    "unanimous" => |j| j.unanimous.to_string(),
    "unanimous_share" => |j| num(j.unanimous_share),
    "fleiss_kappa" => |j| num(j.kappa),
    "kappa_low" => |j| num(j.kappa_low),
    "kappa_high" => |j| num(j.kappa_high),
    "interval" => |j| j.interval.clone(),
    "observed_agreement" => |j| num(j.observed),
    "chance_agreement" => |j| num(j.expected),
    "shares" => |j| j.shares.iter().map(|s| num(Some(*s))).collect::<Vec<_>>().join(";"),
];

/// The judges' agreement as text (empty without any): one line per system.
pub fn render_judges(judges: &[JudgeAgreement]) -> String {
    let Some(first) = judges.first() else { return String::new() };
    let settings = &first.interval;
    let f3 = |x: Option<f64>| x.map_or("—".to_string(), |v| format!("{v:.3}"));
    let mut out = format!("\n== Judges' agreement (Fleiss' κ over the items with every verdict; {settings})\n");
    let rows: Vec<Vec<String>> = judges
        .iter()
        .map(|j| {
            vec![
                j.arm.clone(),
                j.judgments.len().to_string(),
                j.items.to_string(),
                format!("{} ({})", j.unanimous, f3(j.unanimous_share)),
                format!("{} [{}, {}]", f3(j.kappa), f3(j.kappa_low), f3(j.kappa_high)),
                j.judgments.iter().zip(&j.shares).map(|(n, s)| format!("{n} {s:.3}")).collect::<Vec<_>>().join(", "),
            ]
        })
        .collect();
    out.push_str(&render_columns(&["arm", "judgments", "items", "unanimous", "κ [CI]", "share of 1s"], &rows));
    for j in judges.iter().filter(|j| j.incomplete > 0) {
        out.push_str(&format!("{}: {} item(s) with some verdicts missing, left out\n", j.arm, j.incomplete));
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
    let f3 = |x: Option<f64>| x.map_or("—".to_string(), |v| format!("{v:.3}"));
    judges
        .iter()
        .map(|j| {
            let text = format!(
                "The {} judgments of `{}` agree on {} of {} items (Fleiss' κ {} [{}, {}])",
                j.judgments.len(),
                j.arm,
                j.unanimous,
                j.items,
                f3(j.kappa),
                f3(j.kappa_low),
                f3(j.kappa_high)
            );
            let mut evidence = format!(
                "share of 1s per judgment: {}; {}",
                j.judgments.iter().zip(&j.shares).map(|(n, s)| format!("{n} {s:.3}")).collect::<Vec<_>>().join(", "),
                j.interval
            );
            if j.incomplete > 0 {
                evidence.push_str(&format!("; {} item(s) with some verdicts missing left out", j.incomplete));
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
