//! The tables of a compliance report (`memaudit compliance --format csv --table NAME`).

use super::analyse::{ArmRow, ComplianceReport, CrossoverRow, DepthRow, MarginRow, MediationRow, PowerRow, SlopeRow};
use super::dominance::{DominanceRow, EcdfRow};
use super::recall::{FailureRow, RecallBinRow};
use super::theory::{LawFit, TheoryRow};
use crate::report::{Column, Table, flag, num, opt};

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
        /// The theory's curves at the stated s₀, ρ, q per depth, beside the focus arm's margin.
        Theory,
        /// Both laws fitted to each arm's compliance by depth, with AIC and BIC.
        Laws,
    }
}

const THEORY: &[Column<TheoryRow>] = &crate::columns![TheoryRow;
    "group" => |r| r.group.clone(),
    "depth" => |r| num(Some(r.depth)),
    /// s₀^d·ρ^{d(d+1)/2} at the stated s₀, ρ.
    "similarity_ceiling" => |r| num(Some(r.similarity_ceiling)),
    /// q^d at the stated q.
    "structured" => |r| num(Some(r.structured)),
    /// g(d) = q^d − s₀^d·ρ^{d(d+1)/2}.
    "advantage" => |r| num(Some(r.advantage)),
    /// The focus arm (with a focus set).
    "focus" => |r| opt(&r.focus),
    /// The best of the other arms at this depth.
    "against" => |r| opt(&r.against),
    /// The measured margin Δ(d) of the focus over the best other arm.
    "delta" => |r| num(r.delta),
    "low" => |r| num(r.low),
    "high" => |r| num(r.high),
    /// Whether g(d) lies inside the measured interval.
    "inside" => |r| r.inside.map(flag).unwrap_or_default(),
];

const LAWS: &[Column<LawFit>] = &crate::columns![LawFit;
    "group" => |r| r.group.clone(),
    "arm" => |r| r.arm.clone(),
    /// `structured` (q^d) or `similarity_ceiling` (s₀^d·ρ^{d(d+1)/2}).
    "law" => |r| r.law.clone(),
    /// Depth cells fitted (their compliance, unweighted).
    "points" => |r| r.points.to_string(),
    /// Coefficients + the residual variance.
    "parameters" => |r| r.parameters.to_string(),
    "q" => |r| num(r.q),
    "s0" => |r| num(r.s0),
    "rho" => |r| num(r.rho),
    /// Residual sum of squares of log compliance.
    "rss" => |r| num(r.rss),
    "aic" => |r| num(r.aic),
    "bic" => |r| num(r.bic),
    /// Why the law was not fitted.
    "refused" => |r| r.refused.clone().unwrap_or_default(),
];

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
    /// The group the arm is compared within (the settings' group columns, joined).
    "group" => |r| r.group.clone(),
    "arm" => |r| r.arm.clone(),
    /// Rows of this arm.
    "n" => |r| r.n.to_string(),
    /// Whether every compliance value is 0 or 1.
    "binary" => |r| flag(r.binary),
    /// Mean compliance of the arm.
    "compliance" => |r| num(Some(r.compliance)),
    /// Lower bound of its interval (compliance_interval).
    "compliance_low" => |r| num(r.compliance_low),
    /// Upper bound of its interval.
    "compliance_high" => |r| num(r.compliance_high),
    /// wilson (0/1 values) or bootstrap.
    "compliance_interval" => |r| r.compliance_interval.clone(),
    /// Hoeffding's half-width √(ln(2/δ)/(2n)) at δ = 1 − level.
    "hoeffding" => |r| num(r.hoeffding),
    /// Mean recall of the arm.
    "recall" => |r| num(r.recall),
    /// Use factor κ = mean compliance / mean recall.
    "kappa" => |r| num(r.kappa),
    /// Delta-method standard error of κ, with the covariance of compliance and recall (plug-in variances, divisor n).
    "kappa_se" => |r| num(r.kappa_se),
    /// kappa_se without the covariance term (BriefBench's formula).
    "kappa_se_independent" => |r| num(r.kappa_se_independent),
    /// κ − z·kappa_se.
    "kappa_delta_low" => |r| num(r.kappa_delta_low),
    /// κ + z·kappa_se.
    "kappa_delta_high" => |r| num(r.kappa_delta_high),
    /// Percentile bootstrap interval of κ, lower bound.
    "kappa_boot_low" => |r| num(r.kappa_boot_low),
    /// Percentile bootstrap interval of κ, upper bound.
    "kappa_boot_high" => |r| num(r.kappa_boot_high),
    /// The conditional estimator: mean compliance on the rows with recall = 1.
    "kappa_conditional" => |r| num(r.kappa_conditional),
    /// Rows with recall = 1.
    "kappa_conditional_n" => |r| r.kappa_conditional_n.to_string(),
    /// Its interval (Wilson for 0/1 compliance, else bootstrap), lower bound.
    "kappa_conditional_low" => |r| num(r.kappa_conditional_low),
    /// Its interval, upper bound.
    "kappa_conditional_high" => |r| num(r.kappa_conditional_high),
    /// Mean tokens per row.
    "tokens" => |r| num(r.tokens),
    /// Return on tokens: mean compliance / (mean tokens / 1000), the ratio of means.
    "rot" => |r| num(r.rot),
    /// Delta-method standard error of rot, with the covariance term.
    "rot_se" => |r| num(r.rot_se),
    /// rot_se without the covariance term.
    "rot_se_independent" => |r| num(r.rot_se_independent),
    /// rot − z·rot_se.
    "rot_delta_low" => |r| num(r.rot_delta_low),
    /// rot + z·rot_se.
    "rot_delta_high" => |r| num(r.rot_delta_high),
    /// Percentile bootstrap interval of rot, lower bound.
    "rot_boot_low" => |r| num(r.rot_boot_low),
    /// Percentile bootstrap interval of rot, upper bound.
    "rot_boot_high" => |r| num(r.rot_boot_high),
    /// The mean of per-row compliance / (tokens / 1000): the other estimator of return on tokens.
    "rot_mean_of_ratios" => |r| num(r.rot_mean_of_ratios),
    /// Its bootstrap interval, lower bound.
    "rot_mean_of_ratios_low" => |r| num(r.rot_mean_of_ratios_low),
    /// Its bootstrap interval, upper bound.
    "rot_mean_of_ratios_high" => |r| num(r.rot_mean_of_ratios_high),
    /// kappa_se with sample variances (divisor n − 1, BriefBench's code).
    "kappa_se_sample" => |r| num(r.kappa_se_sample),
    /// kappa_se_independent with sample variances.
    "kappa_se_independent_sample" => |r| num(r.kappa_se_independent_sample),
    /// rot_se with sample variances.
    "rot_se_sample" => |r| num(r.rot_se_sample),
    /// rot_se_independent with sample variances.
    "rot_se_independent_sample" => |r| num(r.rot_se_independent_sample),
];

const DEPTH: &[Column<DepthRow>] = &crate::columns![DepthRow;
    "group" => |r| r.group.clone(),
    "arm" => |r| r.arm.clone(),
    /// The depth (hops) of the cell.
    "depth" => |r| num(Some(r.depth)),
    /// Rows of the arm at this depth.
    "n" => |r| r.n.to_string(),
    /// Mean compliance in the cell.
    "compliance" => |r| num(Some(r.compliance)),
    /// Lower bound of its interval (interval).
    "low" => |r| num(r.low),
    /// Upper bound of its interval.
    "high" => |r| num(r.high),
    /// wilson (0/1 values) or bootstrap.
    "interval" => |r| r.interval.clone(),
    /// Hoeffding's half-width at δ = 1 − level.
    "hoeffding" => |r| num(r.hoeffding),
];

const SLOPES: &[Column<SlopeRow>] = &crate::columns![SlopeRow;
    "group" => |r| r.group.clone(),
    "arm" => |r| r.arm.clone(),
    /// Rows of the arm.
    "n" => |r| r.n.to_string(),
    /// Distinct depths the line is fitted over.
    "depths" => |r| r.depths.to_string(),
    /// OLS slope β of compliance on depth, per hop.
    "slope" => |r| num(r.slope),
    /// Its classical standard error (as SciPy's linregress).
    "slope_se" => |r| num(r.slope_se),
    /// Bootstrap interval of β within depth strata, lower bound.
    "slope_low" => |r| num(r.slope_low),
    /// Bootstrap interval of β, upper bound.
    "slope_high" => |r| num(r.slope_high),
    /// OLS intercept.
    "intercept" => |r| num(r.intercept),
    /// Endpoint slope: compliance at the deepest depth minus at the shallowest.
    "endpoint" => |r| num(r.endpoint),
];

const MARGINS: &[Column<MarginRow>] = &crate::columns![MarginRow;
    "group" => |r| r.group.clone(),
    /// The focus arm.
    "focus" => |r| r.focus.clone(),
    /// The arm it is compared with, or max(a, b, …): the best of those arms at each depth.
    "against" => |r| r.against.clone(),
    /// The depth of the comparison.
    "depth" => |r| num(Some(r.depth)),
    "focus_compliance" => |r| num(Some(r.focus_compliance)),
    "against_compliance" => |r| num(Some(r.against_compliance)),
    /// The arm with the highest compliance at this depth (for the max row).
    "best" => |r| r.best.clone(),
    /// Δ(d) = focus_compliance − against_compliance.
    "delta" => |r| num(Some(r.delta)),
    /// Bootstrap interval of Δ(d), lower bound.
    "low" => |r| num(r.low),
    /// Bootstrap interval of Δ(d), upper bound.
    "high" => |r| num(r.high),
    /// Whether the interval of Δ(d) lies above 0.
    "above_zero" => |r| flag(r.above_zero),
];

const CROSSOVER: &[Column<CrossoverRow>] = &crate::columns![CrossoverRow;
    "group" => |r| r.group.clone(),
    "focus" => |r| r.focus.clone(),
    "against" => |r| r.against.clone(),
    /// d*: the smallest depth whose interval of Δ(d) lies above 0 (empty: none in range).
    "d_star" => |r| num(r.d_star),
    /// d×: where the fitted lines of the two arms cross (empty for the max, or parallel lines).
    "crossing" => |r| num(r.crossing),
    /// Whether d× lies inside the observed depths.
    "crossing_in_range" => |r| flag(r.crossing_in_range),
    /// Bootstrap interval of d×, lower bound.
    "crossing_low" => |r| num(r.crossing_low),
    /// Bootstrap interval of d×, upper bound.
    "crossing_high" => |r| num(r.crossing_high),
    /// Share of resamples whose lines cross inside the observed depths.
    "share_in_range" => |r| num(r.share_in_range),
];

const POWER: &[Column<PowerRow>] = &crate::columns![PowerRow;
    "group" => |r| r.group.clone(),
    "arm" => |r| r.arm.clone(),
    /// The arm it is compared with.
    "against" => |r| r.against.clone(),
    /// Rows of the arm.
    "n" => |r| r.n.to_string(),
    /// Rows of the other arm.
    "n_against" => |r| r.n_against.to_string(),
    "compliance" => |r| num(Some(r.compliance)),
    "against_compliance" => |r| num(Some(r.against_compliance)),
    /// compliance − against_compliance.
    "delta" => |r| num(Some(r.delta)),
    /// The design the power is computed for: two independent proportions or two independent
    /// means.
    "design" => |r| r.design.to_string(),
    /// Power to detect the observed difference at the settings' alpha.
    "power" => |r| num(r.power),
    /// Smallest detectable difference at the target power, in the observed direction.
    "mde" => |r| num(r.mde),
    /// Rows per arm the observed difference needs at the target power (not rounded).
    "n_needed" => |r| num(r.n_needed),
    /// Power to detect the claimed effect (the settings' claimed effect), at these n.
    "power_at_claim" => |r| num(r.power_at_claim),
    /// detectable, below_mde (the observed gap is smaller than the MDE), claim_undetectable
    /// (the MDE is above the claimed effect) or no_difference.
    "verdict" => |r| r.verdict.clone(),
    /// Two-sided p of Fisher's exact test of the two arms' 0/1 compliance.
    "fisher_p" => |r| num(r.fisher_p),
    /// The sample odds ratio of the two arms' 0/1 compliance (empty with a zero cell).
    "odds_ratio" => |r| num(r.odds_ratio),
    /// Cliff's δ of the arm's per-row compliance against the other's: P(X > Y) − P(X < Y).
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
        ComplianceTable::Theory => Table::of(name, THEORY, &r.theory),
        ComplianceTable::Laws => Table::of(name, LAWS, &r.laws),
    }
}
