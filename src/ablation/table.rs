//! The tables of an ablation analysis (`memaudit ablation --format csv --table NAME`): the same
//! [`Table`] feeds the CLI and the viewer's export and table.

use super::{AblationReport, GroupAblation, SpecialistDiagnostics};
use crate::report::{Column, Table, num, opt};

crate::choice! {
    /// The tables an ablation analysis can be exported as.
    pub enum AblationTable {
        /// One row per run and per subset ([`AblationReport::groups`]) with the u histogram,
        /// the positive rate, ρ with both intervals and the gate.
        Groups,
        /// One row per run and split whose pairs carry a specialist's score: the class
        /// balance, the label discrimination, AUROC, F1 against the all-positive baseline.
        Specialist,
    }
}

const GROUPS: &[Column<GroupAblation>] = &crate::columns![GroupAblation;
    "run" => |g| g.run.clone(),
    "subset" => |g| opt(&g.subset),
    "pairs" => |g| g.rates.pairs.to_string(),
    "queries" => |g| g.rates.queries.to_string(),
    "u_harmful" => |g| g.rates.histogram.harmful.to_string(),
    "u_neutral" => |g| g.rates.histogram.neutral.to_string(),
    "u_helpful" => |g| g.rates.histogram.helpful.to_string(),
    "positive_rate" => |g| num(Some(g.rates.positive_rate)),
    "positive_low" => |g| num(Some(g.rates.positive_low)),
    "positive_high" => |g| num(Some(g.rates.positive_high)),
    "base_correct_rate" => |g| num(Some(g.rates.base_correct_rate)),
    "rho_n" => |g| g.noncircularity.n.to_string(),
    "rho" => |g| num(g.noncircularity.rho),
    "rho_pair_low" => |g| num(g.noncircularity.pair_ci.as_ref().map(|c| c.low)),
    "rho_pair_high" => |g| num(g.noncircularity.pair_ci.as_ref().map(|c| c.high)),
    "rho_query_low" => |g| num(g.noncircularity.query_ci.as_ref().map(|c| c.low)),
    "rho_query_high" => |g| num(g.noncircularity.query_ci.as_ref().map(|c| c.high)),
    "gate_passes" => |g| opt(&g.noncircularity.passes),
    "gate_margin" => |g| num(g.noncircularity.margin),
];

const SPECIALIST: &[Column<SpecialistDiagnostics>] = &crate::columns![SpecialistDiagnostics;
    "run" => |d| d.run.clone(),
    /// The split of the row (empty: the whole run).
    "split" => |d| opt(&d.split),
    /// Pairs with a specialist score.
    "pairs" => |d| d.pairs.to_string(),
    /// Pairs with y = 1 (u = +1).
    "positives" => |d| d.positives.to_string(),
    "negatives" => |d| d.negatives.to_string(),
    /// Negatives / positives: the class weight of a weighted cross-entropy.
    "pos_weight" => |d| num(d.pos_weight),
    "positive_median" => |d| num(d.positive_median),
    "negative_median" => |d| num(d.negative_median),
    /// Positives' median score − negatives'.
    "median_delta" => |d| num(d.median_delta),
    "positive_mean" => |d| num(d.positive_mean),
    "negative_mean" => |d| num(d.negative_mean),
    /// Positives' mean score − negatives'.
    "mean_delta" => |d| num(d.mean_delta),
    /// P(score of a positive > score of a negative), ties counted ½.
    "auroc" => |d| num(d.auroc.as_ref().map(|a| a.auc)),
    /// DeLong interval of the AUROC.
    "auroc_low" => |d| num(d.auroc.as_ref().and_then(|a| a.low)),
    "auroc_high" => |d| num(d.auroc.as_ref().and_then(|a| a.high)),
    /// The specialist predicts y = 1 above this score.
    "threshold" => |d| num(Some(d.threshold)),
    "precision" => |d| num(d.precision),
    "recall" => |d| num(d.recall),
    /// The specialist's F1 at the threshold: 2TP / (2TP + FP + FN).
    "f1" => |d| num(d.f1),
    /// 2π / (1 + π): the F1 of calling every pair positive.
    "all_positive_f1" => |d| num(d.all_positive_f1),
    /// Spearman's ρ between the specialist's score and the retrieval score.
    "rho_retrieval" => |d| num(d.rho_retrieval),
    /// Pair-level percentile bootstrap interval of that ρ.
    "rho_retrieval_low" => |d| num(d.rho_retrieval_ci.as_ref().map(|c| c.low)),
    "rho_retrieval_high" => |d| num(d.rho_retrieval_ci.as_ref().map(|c| c.high)),
    /// Pairs with both scores.
    "rho_retrieval_n" => |d| d.rho_retrieval_n.to_string(),
];

/// One table of an ablation analysis.
pub fn table(report: &AblationReport, which: AblationTable) -> Table {
    match which {
        AblationTable::Groups => {
            let groups: Vec<&GroupAblation> = report.groups().collect();
            Table::of(which.name(), GROUPS, groups.iter().copied())
        }
        AblationTable::Specialist => Table::of(which.name(), SPECIALIST, &report.specialist),
    }
}
