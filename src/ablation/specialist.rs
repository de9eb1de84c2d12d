//! Specialist diagnostics (seed-000 §4.2.5, §5 item 9): when the pairs carry a trained
//! specialist's score (z = logit("1") − logit("0")), how well it tells the ablation label y
//! apart, per run and per split.
//!
//! - `pos_weight` = N₋/N₊, the class weight of a weighted binary cross-entropy (the paper:
//!   0.861/0.139 = 6.19 at a 13.9% positive rate);
//! - label discrimination: median and mean score of the positives and of the negatives, and
//!   their differences (positives − negatives);
//! - AUROC = P(z₊ > z₋) + ½P(z₊ = z₋) with DeLong's interval ([`crate::stats::roc::auc_delong`]);
//!   the paper reports none ("a viewer can add AUROC as an extension");
//! - the specialist's F1 when it predicts y = 1 above a threshold (default 0: z > 0, the
//!   paper's "% above 0"), F1 = 2TP/(2TP + FP + FN), against the trivial all-positive baseline
//!   2π/(1 + π) (precision π, recall 1; π = N₊/N);
//! - Spearman's ρ between the specialist's score and the retrieval score (the paper's
//!   ρ(specialist, cosine) = +0.074 [+0.012, +0.138] on 885 validation pairs) with the
//!   pair-level percentile bootstrap of the non-circularity panel.
//!
//! References: scikit-learn `roc_auc_score`, `f1_score`; SciPy `spearmanr`; NumPy `median`
//! (`tests/reference/ablation_specialist.py`, values in `tests/ablation.rs`).

use serde::{Deserialize, Serialize};

use super::analyse::{AblationSettings, CiRecord, label, rho_interval};
use super::read::PairRow;
use crate::stats::bootstrap::Scheme;
use crate::stats::bootstrap::mean;
use crate::stats::correlation::spearman;
use crate::stats::quantile::median;
use crate::stats::roc::{Auc, auc_delong};

/// The diagnostics of one run, or of one split of a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SpecialistDiagnostics {
    pub run: String,
    /// `None` for the whole run.
    pub split: Option<String>,
    /// Pairs with a specialist score.
    pub pairs: usize,
    /// Pairs with y = 1 (u = +1) and with y = 0.
    pub positives: usize,
    pub negatives: usize,
    /// π = positives / pairs.
    pub positive_share: f64,
    /// N₋ / N₊ (`None` without a positive).
    pub pos_weight: Option<f64>,
    pub positive_median: Option<f64>,
    pub positive_mean: Option<f64>,
    pub negative_median: Option<f64>,
    pub negative_mean: Option<f64>,
    /// Positives' median − negatives' median.
    pub median_delta: Option<f64>,
    /// Positives' mean − negatives' mean.
    pub mean_delta: Option<f64>,
    /// AUROC with DeLong's interval (`None` without both classes).
    pub auroc: Option<Auc>,
    /// The specialist predicts y = 1 when its score is above this.
    pub threshold: f64,
    /// Pairs scored above the threshold, and of those the ones with y = 1.
    pub predicted_positive: usize,
    pub true_positive: usize,
    pub precision: Option<f64>,
    pub recall: Option<f64>,
    /// 2TP / (2TP + FP + FN).
    pub f1: Option<f64>,
    /// 2π / (1 + π): the F1 of calling every pair positive.
    pub all_positive_f1: Option<f64>,
    /// Pairs with both a specialist and a retrieval score.
    pub rho_retrieval_n: usize,
    /// Spearman's ρ(specialist score, retrieval score).
    pub rho_retrieval: Option<f64>,
    pub rho_retrieval_ci: Option<CiRecord>,
}

impl SpecialistDiagnostics {
    /// The AUROC interval holds ½: the scores do not tell the classes apart at this level.
    pub fn separates(&self) -> Option<bool> {
        let a = self.auroc.as_ref()?;
        Some(!(a.low? <= 0.5 && 0.5 <= a.high?))
    }
}

fn ratio(a: usize, b: usize) -> Option<f64> {
    (b > 0).then(|| a as f64 / b as f64)
}

/// The diagnostics of `pairs` (those without a specialist score are left out; `None` when
/// none has one).
pub fn diagnose(
    run: &str,
    split: Option<&str>,
    pairs: &[&PairRow],
    settings: &AblationSettings,
) -> Option<SpecialistDiagnostics> {
    let scored: Vec<(&PairRow, f64)> = pairs.iter().filter_map(|p| Some((*p, p.specialist_score?))).collect();
    if scored.is_empty() {
        return None;
    }
    let (pos, neg): (Vec<f64>, Vec<f64>) = {
        let (p, n): (Vec<&(&PairRow, f64)>, Vec<_>) = scored.iter().partition(|(p, _)| label(p));
        (p.iter().map(|(_, z)| *z).collect(), n.iter().map(|(_, z)| *z).collect())
    };
    let n = scored.len();
    let t = settings.specialist_threshold;
    let predicted_positive = scored.iter().filter(|(_, z)| *z > t).count();
    let true_positive = pos.iter().filter(|z| **z > t).count();
    let (fp, fneg) = (predicted_positive - true_positive, pos.len() - true_positive);
    let pi = pos.len() as f64 / n as f64;
    let both = |a: Option<f64>, b: Option<f64>| Some(a? - b?);
    let (pm, nm) = (median(&pos), median(&neg));
    let (pa, na) = (mean(&pos), mean(&neg));

    let paired: Vec<(f64, f64)> = scored.iter().filter_map(|(p, z)| Some((*z, p.retrieval_score?))).collect();
    let (zs, ss): (Vec<f64>, Vec<f64>) = paired.iter().copied().unzip();
    let rho_retrieval = spearman(&zs, &ss);
    let rho_retrieval_ci = rho_retrieval.and_then(|_| rho_interval(&zs, &ss, &Scheme::Iid, "pair", settings));
    Some(SpecialistDiagnostics {
        run: run.to_string(),
        split: split.map(str::to_string),
        pairs: n,
        positives: pos.len(),
        negatives: neg.len(),
        positive_share: pi,
        pos_weight: ratio(neg.len(), pos.len()),
        positive_median: pm,
        positive_mean: pa,
        negative_median: nm,
        negative_mean: na,
        median_delta: both(pm, nm),
        mean_delta: both(pa, na),
        auroc: auc_delong(&pos, &neg, settings.confidence),
        threshold: t,
        predicted_positive,
        true_positive,
        precision: ratio(true_positive, predicted_positive),
        recall: ratio(true_positive, pos.len()),
        f1: ratio(2 * true_positive, 2 * true_positive + fp + fneg),
        all_positive_f1: Some(2.0 * pi / (1.0 + pi)),
        rho_retrieval_n: zs.len(),
        rho_retrieval,
        rho_retrieval_ci,
    })
}

/// The diagnostics of a run: the whole run, then each split when the scored pairs have more
/// than one (in the order first seen).
pub fn diagnose_run(run: &str, pairs: &[&PairRow], settings: &AblationSettings) -> Vec<SpecialistDiagnostics> {
    let Some(overall) = diagnose(run, None, pairs, settings) else { return Vec::new() };
    let splits = crate::distinct::first_seen(
        pairs.iter().filter(|p| p.specialist_score.is_some()).filter_map(|p| p.split.as_deref()),
    );
    let mut out = vec![overall];
    if splits.len() > 1 {
        for s in splits {
            let in_split: Vec<&PairRow> = pairs.iter().copied().filter(|p| p.split.as_deref() == Some(s)).collect();
            out.extend(diagnose(run, Some(s), &in_split, settings));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(q: usize, u: i8, z: Option<f64>, s: Option<f64>) -> PairRow {
        let (base, ablated) = match u {
            1 => (1.0, 0.0),
            -1 => (0.0, 1.0),
            _ => (1.0, 1.0),
        };
        PairRow {
            run: "r".into(),
            query_id: format!("q{q}"),
            subset: None,
            rank: None,
            memory_id: None,
            retrieval_score: s,
            specialist_score: z,
            split: None,
            base,
            ablated,
            file: "f".into(),
            line: q,
        }
    }

    /// Hand-counted: positives z = 0.5, −0.125; negatives z = −0.125 (u = −1, folded into
    /// y = 0), 0.25, −1. TP = 1 (0.5), FP = 1 (0.25), FN = 1 (−0.125): F1 = 2/(2 + 2) = 0.5.
    /// AUROC: pairs (0.5 beats all 3) + (−0.125: ties −0.125, beats −1, loses to 0.25) =
    /// (3 + 1.5)/6 = 0.75. π = 0.4: all-positive F1 = 0.8/1.4.
    #[test]
    fn counts_by_hand() {
        let ps = [
            pair(1, 1, Some(0.5), None),
            pair(2, 1, Some(-0.125), None),
            pair(3, -1, Some(-0.125), None),
            pair(4, 0, Some(0.25), None),
            pair(5, 0, Some(-1.0), None),
            pair(6, 1, None, None),
        ];
        let refs: Vec<&PairRow> = ps.iter().collect();
        let d = diagnose("r", None, &refs, &AblationSettings::default()).unwrap();
        assert_eq!((d.pairs, d.positives, d.negatives), (5, 2, 3));
        assert_eq!(d.pos_weight, Some(1.5));
        assert_eq!((d.predicted_positive, d.true_positive), (2, 1));
        assert_eq!(d.f1, Some(0.5));
        assert_eq!(d.precision, Some(0.5));
        assert_eq!(d.recall, Some(0.5));
        assert!((d.auroc.as_ref().unwrap().auc - 0.75).abs() < 1e-15);
        assert!((d.all_positive_f1.unwrap() - 0.8 / 1.4).abs() < 1e-15);
        assert_eq!(d.positive_median, Some(0.1875));
        assert_eq!(d.negative_median, Some(-0.125));
        assert_eq!(d.median_delta, Some(0.3125));
        assert_eq!((d.rho_retrieval_n, d.rho_retrieval), (0, None));
        assert!(d.rho_retrieval_ci.is_none());
    }

    #[test]
    fn nothing_without_a_specialist_score() {
        let ps = [pair(1, 1, None, Some(0.3))];
        let refs: Vec<&PairRow> = ps.iter().collect();
        assert!(diagnose_run("r", &refs, &AblationSettings::default()).is_empty());
    }

    #[test]
    fn one_class_gives_no_auroc_and_no_pos_weight() {
        let ps = [pair(1, 0, Some(0.5), None), pair(2, 0, Some(-0.5), None)];
        let refs: Vec<&PairRow> = ps.iter().collect();
        let d = diagnose("r", None, &refs, &AblationSettings::default()).unwrap();
        assert_eq!((d.positives, d.pos_weight, d.auroc.is_none()), (0, None, true));
        // No positive: F1 = 2·0/(0 + 1 + 0) = 0, like scikit-learn's f1_score; the baseline 0.
        assert_eq!((d.f1, d.recall, d.all_positive_f1), (Some(0.0), None, Some(0.0)));
        assert_eq!(d.separates(), None);
    }
}
