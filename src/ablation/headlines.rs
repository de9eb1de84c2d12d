//! What a counterfactual ablation says, first: runs whose ρ between the ablation label and the
//! retrieval score breaches the pre-set gate (overall or in a subset), whether ρ is nonzero by
//! its interval, and how often removing a memory changes the answer.

use super::analyse::{AblationReport, GroupAblation};
use super::specialist::SpecialistDiagnostics;
use super::table::AblationTable;
use crate::headline::{Headline, estimate, from_warnings, some_of};

/// The headlines of an ablation report (unranked: see [`crate::headline::rank`]).
pub fn headlines(r: &AblationReport) -> Vec<Headline> {
    let mut hs = Vec::new();
    for run in &r.runs {
        let o = &run.overall;
        let nc = &o.noncircularity;
        let rho = rho_evidence(o);
        if nc.passes == Some(false) {
            hs.push(Headline::alert(
                format!("Run {}: ρ breaches the gate {}: the label tracks the retrieval score", o.run, r.gate),
                rho,
                AblationTable::Groups,
            ));
        } else if !run.breaching_subsets.is_empty() {
            hs.push(Headline::alert(
                format!(
                    "Run {}: ρ passes the gate {} overall but breaches it in {} subset(s)",
                    o.run,
                    r.gate,
                    run.breaching_subsets.len()
                ),
                format!("{}; overall {rho}", some_of(&run.breaching_subsets, 4)),
                AblationTable::Groups,
            ));
        } else if nc.passes == Some(true) {
            let nonzero = if nc.nonzero == Some(true) { ", though its interval excludes 0" } else { "" };
            hs.push(Headline::context(
                format!("Run {}: ρ is within the gate {}{nonzero}", o.run, r.gate),
                rho,
                AblationTable::Groups,
            ));
        } else {
            hs.push(Headline::finding(
                format!("Run {}: ρ is undefined (a variable is constant), the gate cannot be applied", o.run),
                rho,
                AblationTable::Groups,
            ));
        }
        let rt = &o.rates;
        hs.push(Headline::context(
            format!(
                "Run {}: the answer is right only with the memory (u = +1) in {:.1}% of {} pairs",
                o.run,
                100.0 * rt.positive_rate,
                rt.pairs
            ),
            format!(
                "positive rate {} (Wilson); harmful {:.3}; u histogram −1/0/+1: {}/{}/{}; {} queries",
                estimate(rt.positive_rate, Some(rt.positive_low), Some(rt.positive_high)),
                rt.harmful_rate,
                rt.histogram.harmful,
                rt.histogram.neutral,
                rt.histogram.helpful,
                rt.queries
            ),
            AblationTable::Groups,
        ));
    }
    hs.extend(specialist_headlines(&r.specialist));
    hs.extend(from_warnings(r.warnings.iter(), AblationTable::Groups));
    hs
}

/// A split a specialist was trained on: its scores there say nothing of how it generalises.
fn is_training_split(split: &str) -> bool {
    matches!(split.trim().to_ascii_lowercase().as_str(), "train" | "training")
}

/// Whether the specialist's scores tell the labels apart (AUROC), and whether its predictions
/// beat calling every pair positive: on each split it was not trained on, or on the whole run
/// when the pairs name no splits.
fn specialist_headlines(rows: &[SpecialistDiagnostics]) -> Vec<Headline> {
    let mut hs = Vec::new();
    let has_splits = |run: &str| rows.iter().any(|d| d.run == run && d.split.is_some());
    for d in rows {
        let judged = match &d.split {
            Some(s) => !is_training_split(s),
            None => !has_splits(&d.run),
        };
        let Some(auc) = d.auroc.as_ref().filter(|_| judged) else { continue };
        let r#where = match &d.split {
            Some(s) => format!("Run {}, split {s}", d.run),
            None => format!("Run {}", d.run),
        };
        let evidence = format!(
            "AUROC {} (DeLong), {} positives, {} negatives; median score {} vs {}",
            estimate(auc.auc, auc.low, auc.high),
            d.positives,
            d.negatives,
            d.positive_median.map_or("-".into(), |m| format!("{m:.3}")),
            d.negative_median.map_or("-".into(), |m| format!("{m:.3}")),
        );
        match d.separates() {
            Some(false) => hs.push(Headline::finding(
                format!("{where}: the specialist's scores do not tell y = 1 from y = 0 (AUROC interval holds 0.5)"),
                evidence,
                AblationTable::Specialist,
            )),
            _ => hs.push(Headline::context(
                format!(
                    "{where}: the specialist's scores rank a positive above a negative {:.0}% of the time",
                    100.0 * auc.auc
                ),
                evidence,
                AblationTable::Specialist,
            )),
        }
        if let (Some(f1), Some(base)) = (d.f1, d.all_positive_f1)
            && f1 <= base
        {
            hs.push(Headline::finding(
                format!(
                    "{where}: the specialist's F1 {f1:.3} (score > {}) does not beat calling every pair positive ({base:.3})",
                    d.threshold
                ),
                format!(
                    "2π/(1 + π) with π = {:.3}; precision {}, recall {}, {} of {} pairs predicted positive",
                    d.positive_share,
                    d.precision.map_or("-".into(), |p| format!("{p:.3}")),
                    d.recall.map_or("-".into(), |p| format!("{p:.3}")),
                    d.predicted_positive,
                    d.pairs
                ),
                AblationTable::Specialist,
            ));
        }
    }
    hs
}

fn rho_evidence(g: &GroupAblation) -> String {
    let nc = &g.noncircularity;
    let Some(rho) = nc.rho else {
        return format!("n = {} pairs", nc.n);
    };
    let ci = nc
        .pair_ci
        .as_ref()
        .map(|c| {
            format!(
                " [{:.3}, {:.3}] ({} bootstrap by {}, B = {}, seed {})",
                c.low, c.high, c.method, c.unit, c.resamples, c.seed
            )
        })
        .unwrap_or_default();
    let margin = nc.margin.map(|m| format!("; margin to the gate {m:+.3}")).unwrap_or_default();
    format!("ρ({}, score) = {rho:.3}{ci}, n = {} pairs{margin}", nc.target.name(), nc.n)
}
