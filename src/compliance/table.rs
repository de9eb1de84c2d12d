//! The tables of a compliance report (`memaudit compliance --format csv --table NAME`).

use super::analyse::{ArmRow, ComplianceReport, CrossoverRow, DepthRow, MarginRow, MediationRow, PowerRow, SlopeRow};
use super::dominance::{DominanceRow, EcdfRow};
use super::recall::{FailureRow, RecallBinRow};
use crate::report::{Column, Table, flag, num};

crate::choice! {
    /// The tables of a compliance report.
    pub enum ComplianceTable {
        /// Per arm: compliance, κ and return on tokens with their intervals.
        Arms,
        /// Compliance per (arm, depth) cell.
        Depth,
        /// The depth slope of each arm.
        Slopes,
        /// Δ(d) of the focus arm against each arm and the best of them.
        Margins,
        /// d* and where the fitted lines cross.
        Crossover,
        /// Power and minimum detectable effect of each comparison.
        Power,
        /// How much of the focus arm's lead goes through recall (Baron–Kenny).
        Mediation,
        /// Compliance per recall bin (r = 0, 0 < r ≤ 0.5, 0.5 < r < 1, r = 1), over every arm
        /// and per arm.
        RecallBins,
        /// Failures (compliance below 1) never retrieved or retrieved but not used, per arm.
        Failures,
        /// Every pair of arms' ECDFs of compliance, recall and return on tokens: the two-sample
        /// KS statistics, two-sided and one-sided, and which lies right of the other.
        Dominance,
        /// The steps of each arm's ECDF (value, share at or below it).
        Ecdf,
        /// The rows (or tasks) each (group, arm) holds ([`crate::cells`]).
        Populations,
        /// The columns that split the groups, are pooled, or are not used.
        CellColumns,
    }
}

const RECALL_BINS: &[Column<RecallBinRow>] = &crate::columns![RecallBinRow;
    "group" => |r| r.group.clone(),
    "arm" => |r| r.arm.clone(),
    "bin" => |r| r.bin.clone(),
    "n" => |r| r.n.to_string(),
    "compliance" => |r| num(r.compliance),
    "low" => |r| num(r.low),
    "high" => |r| num(r.high),
];

const FAILURES: &[Column<FailureRow>] = &crate::columns![FailureRow;
    "group" => |r| r.group.clone(),
    "arm" => |r| r.arm.clone(),
    "n" => |r| r.n.to_string(),
    "failures" => |r| r.failures.to_string(),
    "not_retrieved" => |r| r.not_retrieved.to_string(),
    "retrieved_not_used" => |r| r.retrieved_not_used.to_string(),
    "not_retrieved_share" => |r| num(r.not_retrieved_share),
    "retrieved_not_used_share" => |r| num(r.retrieved_not_used_share),
    "partial" => |r| r.partial.to_string(),
    "no_recall" => |r| r.no_recall.to_string(),
];

const DOMINANCE: &[Column<DominanceRow>] = &crate::columns![DominanceRow;
    "group" => |r| r.group.clone(),
    "measure" => |r| r.measure.name().into(),
    "arm_a" => |r| r.arm_a.clone(),
    "arm_b" => |r| r.arm_b.clone(),
    "n_a" => |r| r.n_a.to_string(),
    "n_b" => |r| r.n_b.to_string(),
    "mean_a" => |r| num(Some(r.mean_a)),
    "mean_b" => |r| num(Some(r.mean_b)),
    "d" => |r| num(Some(r.d)),
    "p" => |r| num(Some(r.p)),
    "d_a_greater" => |r| num(Some(r.d_a_greater)),
    "p_a_greater" => |r| num(Some(r.p_a_greater)),
    "d_b_greater" => |r| num(Some(r.d_b_greater)),
    "p_b_greater" => |r| num(Some(r.p_b_greater)),
    "order" => |r| r.order.name().into(),
    "method" => |r| r.method.name().into(),
    "tied" => |r| flag(r.tied),
];

const ECDF: &[Column<EcdfRow>] = &crate::columns![EcdfRow;
    "group" => |r| r.group.clone(),
    "measure" => |r| r.measure.name().into(),
    "arm" => |r| r.arm.clone(),
    "value" => |r| num(Some(r.value)),
    "at_or_below" => |r| r.at_or_below.to_string(),
    "cdf" => |r| num(Some(r.cdf)),
    "n" => |r| r.n.to_string(),
];

const MEDIATION: &[Column<MediationRow>] = &crate::columns![MediationRow;
    "group" => |r| r.group.clone(),
    "focus" => |r| r.focus.clone(),
    "against" => |r| r.against.clone(),
    "n" => |r| r.n.to_string(),
    "total" => |r| num(Some(r.total)),
    "total_low" => |r| num(r.total_low),
    "total_high" => |r| num(r.total_high),
    "a" => |r| num(Some(r.a)),
    "b" => |r| num(Some(r.b)),
    "direct" => |r| num(Some(r.direct)),
    "indirect" => |r| num(Some(r.indirect)),
    "indirect_low" => |r| num(r.indirect_low),
    "indirect_high" => |r| num(r.indirect_high),
    "proportion" => |r| num(r.proportion),
    "proportion_low" => |r| num(r.proportion_low),
    "proportion_high" => |r| num(r.proportion_high),
    "unstable" => |r| flag(r.unstable),
];

const ARMS: &[Column<ArmRow>] = &crate::columns![ArmRow;
    "group" => |r| r.group.clone(),
    "arm" => |r| r.arm.clone(),
    "n" => |r| r.n.to_string(),
    "binary" => |r| flag(r.binary),
    "compliance" => |r| num(Some(r.compliance)),
    "compliance_low" => |r| num(r.compliance_low),
    "compliance_high" => |r| num(r.compliance_high),
    "compliance_interval" => |r| r.compliance_interval.clone(),
    "hoeffding" => |r| num(r.hoeffding),
    "recall" => |r| num(r.recall),
    "kappa" => |r| num(r.kappa),
    "kappa_se" => |r| num(r.kappa_se),
    "kappa_se_independent" => |r| num(r.kappa_se_independent),
    "kappa_delta_low" => |r| num(r.kappa_delta_low),
    "kappa_delta_high" => |r| num(r.kappa_delta_high),
    "kappa_boot_low" => |r| num(r.kappa_boot_low),
    "kappa_boot_high" => |r| num(r.kappa_boot_high),
    "kappa_conditional" => |r| num(r.kappa_conditional),
    "kappa_conditional_n" => |r| r.kappa_conditional_n.to_string(),
    "kappa_conditional_low" => |r| num(r.kappa_conditional_low),
    "kappa_conditional_high" => |r| num(r.kappa_conditional_high),
    "tokens" => |r| num(r.tokens),
    "rot" => |r| num(r.rot),
    "rot_se" => |r| num(r.rot_se),
    "rot_se_independent" => |r| num(r.rot_se_independent),
    "rot_delta_low" => |r| num(r.rot_delta_low),
    "rot_delta_high" => |r| num(r.rot_delta_high),
    "rot_boot_low" => |r| num(r.rot_boot_low),
    "rot_boot_high" => |r| num(r.rot_boot_high),
    "rot_mean_of_ratios" => |r| num(r.rot_mean_of_ratios),
    "rot_mean_of_ratios_low" => |r| num(r.rot_mean_of_ratios_low),
    "rot_mean_of_ratios_high" => |r| num(r.rot_mean_of_ratios_high),
    "kappa_se_sample" => |r| num(r.kappa_se_sample),
    "kappa_se_independent_sample" => |r| num(r.kappa_se_independent_sample),
    "rot_se_sample" => |r| num(r.rot_se_sample),
    "rot_se_independent_sample" => |r| num(r.rot_se_independent_sample),
];

const DEPTH: &[Column<DepthRow>] = &crate::columns![DepthRow;
    "group" => |r| r.group.clone(),
    "arm" => |r| r.arm.clone(),
    "depth" => |r| num(Some(r.depth)),
    "n" => |r| r.n.to_string(),
    "compliance" => |r| num(Some(r.compliance)),
    "low" => |r| num(r.low),
    "high" => |r| num(r.high),
    "interval" => |r| r.interval.clone(),
    "hoeffding" => |r| num(r.hoeffding),
];

const SLOPES: &[Column<SlopeRow>] = &crate::columns![SlopeRow;
    "group" => |r| r.group.clone(),
    "arm" => |r| r.arm.clone(),
    "n" => |r| r.n.to_string(),
    "depths" => |r| r.depths.to_string(),
    "slope" => |r| num(r.slope),
    "slope_se" => |r| num(r.slope_se),
    "slope_low" => |r| num(r.slope_low),
    "slope_high" => |r| num(r.slope_high),
    "intercept" => |r| num(r.intercept),
    "endpoint" => |r| num(r.endpoint),
];

const MARGINS: &[Column<MarginRow>] = &crate::columns![MarginRow;
    "group" => |r| r.group.clone(),
    "focus" => |r| r.focus.clone(),
    "against" => |r| r.against.clone(),
    "depth" => |r| num(Some(r.depth)),
    "focus_compliance" => |r| num(Some(r.focus_compliance)),
    "against_compliance" => |r| num(Some(r.against_compliance)),
    "best" => |r| r.best.clone(),
    "delta" => |r| num(Some(r.delta)),
    "low" => |r| num(r.low),
    "high" => |r| num(r.high),
    "above_zero" => |r| flag(r.above_zero),
];

const CROSSOVER: &[Column<CrossoverRow>] = &crate::columns![CrossoverRow;
    "group" => |r| r.group.clone(),
    "focus" => |r| r.focus.clone(),
    "against" => |r| r.against.clone(),
    "d_star" => |r| num(r.d_star),
    "crossing" => |r| num(r.crossing),
    "crossing_in_range" => |r| flag(r.crossing_in_range),
    "crossing_low" => |r| num(r.crossing_low),
    "crossing_high" => |r| num(r.crossing_high),
    "share_in_range" => |r| num(r.share_in_range),
];

const POWER: &[Column<PowerRow>] = &crate::columns![PowerRow;
    "group" => |r| r.group.clone(),
    "arm" => |r| r.arm.clone(),
    "against" => |r| r.against.clone(),
    "n" => |r| r.n.to_string(),
    "n_against" => |r| r.n_against.to_string(),
    "compliance" => |r| num(Some(r.compliance)),
    "against_compliance" => |r| num(Some(r.against_compliance)),
    "delta" => |r| num(Some(r.delta)),
    "design" => |r| r.design.to_string(),
    "power" => |r| num(r.power),
    "mde" => |r| num(r.mde),
    "n_needed" => |r| num(r.n_needed),
    "power_at_claim" => |r| num(r.power_at_claim),
    "verdict" => |r| r.verdict.clone(),
    "fisher_p" => |r| num(r.fisher_p),
    "odds_ratio" => |r| num(r.odds_ratio),
    "cliffs_delta" => |r| num(r.cliffs_delta),
];

/// One table of a compliance report.
pub fn table(r: &ComplianceReport, which: ComplianceTable) -> Table {
    let name = which.name();
    match which {
        ComplianceTable::Arms => Table::of(name, ARMS, &r.arms),
        ComplianceTable::Depth => Table::of(name, DEPTH, &r.depth),
        ComplianceTable::Slopes => Table::of(name, SLOPES, &r.slopes),
        ComplianceTable::Margins => Table::of(name, MARGINS, &r.margins),
        ComplianceTable::Crossover => Table::of(name, CROSSOVER, &r.crossover),
        ComplianceTable::Power => Table::of(name, POWER, &r.power),
        ComplianceTable::Mediation => Table::of(name, MEDIATION, &r.mediation),
        ComplianceTable::RecallBins => Table::of(name, RECALL_BINS, &r.recall_bins),
        ComplianceTable::Failures => Table::of(name, FAILURES, &r.failures),
        ComplianceTable::Dominance => Table::of(name, DOMINANCE, &r.dominance),
        ComplianceTable::Ecdf => Table::of(name, ECDF, &r.ecdf),
        ComplianceTable::Populations => r.populations.populations_table(name),
        ComplianceTable::CellColumns => r.populations.columns_table(name),
    }
}
