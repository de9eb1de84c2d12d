//! The compliance measures of [`super::read::Tasks`] rows, per group (BriefBench, seed-002 §1.4,
//! §1.5, §1.8, §2.10):
//!
//! * **Use factor κ = P̂_comply / P̂_ret** (ratio of means over the arm's rows) with the
//!   delta-method standard error ([`crate::stats::ratio::ratio_of_means`], with and without the
//!   covariance term) and a bootstrap percentile interval; and the conditional estimator, the
//!   compliance on the rows with recall = 1 (Wilson when compliance is 0/1).
//! * **Return on tokens** per 1k tokens: the ratio of means P̂_comply / (T̄/1000) (BriefBench
//!   Table 6) with its delta-method error and a bootstrap interval, and the mean of per-task
//!   ratios compliance_i / (T_i/1000) (its text), both labelled.
//! * **Depth**: compliance per (arm, depth) cell; the OLS slope β of compliance on depth
//!   ([`crate::stats::regression`]) with its classical s.e. and a bootstrap interval; the endpoint
//!   slope P(d_max) − P(d_min).
//! * **Crossover** of a focus arm: Δ(d) = P_focus(d) − P_b(d) for each other arm b and
//!   Δ(d) = P_focus(d) − max_b P_b(d); d* = the smallest depth whose interval of Δ(d) lies above
//!   0 (BriefBench §1.8), else none in range; and where the fitted lines of focus and b cross,
//!   d× = (α_b − α_f)/(β_f − β_b), with its bootstrap interval and the share of resamples in
//!   which it falls inside the observed depths.
//! * **Power** of each comparison (focus vs each arm, or every pair): power to detect the
//!   observed difference, the minimum detectable effect at the target power, the n per arm the
//!   observed difference needs ([`crate::stats::power`]), and Hoeffding's half-width.
//!
//! **Bootstrap**: rows are resampled within each (arm, depth) cell, keeping its size (BriefBench:
//! "bootstrap tasks within depth strata and refit"); one stream per group from the stated seed,
//! every statistic computed on the same resamples; intervals are percentile (type-7 quantiles).
//! Rows carry no task id, so arms are resampled independently (no pairing is assumed).

use serde::{Deserialize, Serialize};

use super::ComplianceRequest;
use super::read::{Pooled, Reading, Row, Tasks};
use crate::error::{Error, Result};
use crate::fields::mention;
use crate::headline::some_of;
use crate::ingest::table::Tally;
use crate::stats::bootstrap::{Bootstrap, Scheme};
use crate::stats::power::{self, Design};
use crate::stats::proportions::{hoeffding_half_width, wilson_interval};
use crate::stats::quantile::quantile_sorted;
use crate::stats::ratio::ratio_of_means;
use crate::stats::regression::{ols, weighted_line};
use crate::stats::resample::bootstrap_counts;

/// Tokens per unit of return on tokens ("compliance per 1k tokens").
pub const PER_TOKENS: f64 = 1000.0;

/// One arm of one group.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ArmRow {
    pub group: String,
    pub arm: String,
    pub n: usize,
    /// Every compliance value is 0 or 1.
    pub binary: bool,
    pub compliance: f64,
    pub compliance_low: Option<f64>,
    pub compliance_high: Option<f64>,
    /// `wilson` (0/1 values) or `bootstrap`.
    pub compliance_interval: String,
    /// Hoeffding half-width of the compliance at δ = 1 − level.
    pub hoeffding: Option<f64>,
    pub recall: Option<f64>,
    pub kappa: Option<f64>,
    pub kappa_se: Option<f64>,
    pub kappa_se_independent: Option<f64>,
    /// `kappa_se` and `kappa_se_independent` with the sample variances (divisor n − 1,
    /// BriefBench's code).
    #[serde(default)]
    pub kappa_se_sample: Option<f64>,
    #[serde(default)]
    pub kappa_se_independent_sample: Option<f64>,
    pub kappa_delta_low: Option<f64>,
    pub kappa_delta_high: Option<f64>,
    pub kappa_boot_low: Option<f64>,
    pub kappa_boot_high: Option<f64>,
    /// Compliance on the rows with recall = 1.
    pub kappa_conditional: Option<f64>,
    pub kappa_conditional_n: usize,
    pub kappa_conditional_low: Option<f64>,
    pub kappa_conditional_high: Option<f64>,
    pub tokens: Option<f64>,
    /// P̂_comply / (T̄/1000).
    pub rot: Option<f64>,
    pub rot_se: Option<f64>,
    pub rot_se_independent: Option<f64>,
    /// `rot_se` and `rot_se_independent` with the sample variances.
    #[serde(default)]
    pub rot_se_sample: Option<f64>,
    #[serde(default)]
    pub rot_se_independent_sample: Option<f64>,
    pub rot_delta_low: Option<f64>,
    pub rot_delta_high: Option<f64>,
    pub rot_boot_low: Option<f64>,
    pub rot_boot_high: Option<f64>,
    /// Mean of compliance_i / (T_i/1000).
    pub rot_mean_of_ratios: Option<f64>,
    pub rot_mean_of_ratios_low: Option<f64>,
    pub rot_mean_of_ratios_high: Option<f64>,
}

/// One (arm, depth) cell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DepthRow {
    pub group: String,
    pub arm: String,
    pub depth: f64,
    pub n: usize,
    pub compliance: f64,
    pub low: Option<f64>,
    pub high: Option<f64>,
    pub interval: String,
    pub hoeffding: Option<f64>,
}

/// The depth slope of one arm.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SlopeRow {
    pub group: String,
    pub arm: String,
    pub n: usize,
    pub depths: usize,
    /// OLS β of compliance on depth (per hop).
    pub slope: Option<f64>,
    pub slope_se: Option<f64>,
    pub slope_low: Option<f64>,
    pub slope_high: Option<f64>,
    pub intercept: Option<f64>,
    /// P(d_max) − P(d_min).
    pub endpoint: Option<f64>,
}

/// Δ(d) of the focus arm against one arm or the best of them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MarginRow {
    pub group: String,
    pub focus: String,
    /// An arm, or `max(a, b, …)`.
    pub against: String,
    pub depth: f64,
    pub focus_compliance: f64,
    pub against_compliance: f64,
    /// The arm with the highest compliance at this depth (for the max row).
    pub best: String,
    pub delta: f64,
    pub low: Option<f64>,
    pub high: Option<f64>,
    pub above_zero: bool,
}

/// Where the focus arm overtakes another.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CrossoverRow {
    pub group: String,
    pub focus: String,
    pub against: String,
    /// The smallest depth whose interval of Δ(d) lies above 0 (`None`: none in range).
    pub d_star: Option<f64>,
    /// Where the fitted lines cross (`None` for the max, or parallel lines).
    pub crossing: Option<f64>,
    pub crossing_in_range: bool,
    pub crossing_low: Option<f64>,
    pub crossing_high: Option<f64>,
    /// Share of resamples whose lines cross inside the observed depths.
    pub share_in_range: Option<f64>,
}

/// How much of the focus arm's lead over another goes through recall (Baron–Kenny).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MediationRow {
    pub group: String,
    pub focus: String,
    pub against: String,
    pub n: usize,
    /// τ = compliance(focus) − compliance(against).
    pub total: f64,
    pub total_low: Option<f64>,
    pub total_high: Option<f64>,
    /// a = recall(focus) − recall(against).
    pub a: f64,
    /// b: recall's coefficient, controlling for the arm.
    pub b: f64,
    /// τ′: the arm's coefficient, controlling for recall.
    pub direct: f64,
    /// τ − τ′ (= a·b).
    pub indirect: f64,
    pub indirect_low: Option<f64>,
    pub indirect_high: Option<f64>,
    /// (τ − τ′)/τ; `None` when τ = 0.
    pub proportion: Option<f64>,
    pub proportion_low: Option<f64>,
    pub proportion_high: Option<f64>,
    /// The interval of τ includes 0: the proportion is a ratio of noise.
    pub unstable: bool,
}

/// The power of one comparison.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PowerRow {
    pub group: String,
    pub arm: String,
    pub against: String,
    pub n: usize,
    pub n_against: usize,
    pub compliance: f64,
    pub against_compliance: f64,
    pub delta: f64,
    pub design: Design,
    /// Power to detect the observed difference.
    pub power: Option<f64>,
    /// Smallest detectable difference at the target power, in the observed direction.
    pub mde: Option<f64>,
    /// n per arm the observed difference needs (not rounded).
    pub n_needed: Option<f64>,
    pub power_at_claim: Option<f64>,
    /// Fisher's exact test of the two arms' 0/1 compliance ([`crate::stats::fisher`]): its
    /// two-sided p and the sample odds ratio (`None` for rates, or an odds ratio with a zero
    /// off-diagonal cell).
    #[serde(default)]
    pub fisher_p: Option<f64>,
    #[serde(default)]
    pub odds_ratio: Option<f64>,
    /// Cliff's δ of the arm's per-row compliance against the other's ([`crate::stats::cliff`]):
    /// P(X > Y) − P(X < Y); `None` past [`MAX_CLIFF_WORK`].
    #[serde(default)]
    pub cliffs_delta: Option<f64>,
    /// `detectable`, `below_mde` (observed gap smaller than the MDE), `claim_undetectable` (MDE
    /// above the claimed effect) or `no_difference`.
    pub verdict: String,
}

/// Settings printed with every result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub bootstrap: Bootstrap,
    pub focus: Option<String>,
    pub against: Vec<String>,
    pub claimed_effect: Option<f64>,
    pub target_power: f64,
    pub alpha: f64,
    pub per_tokens: f64,
    pub group: Vec<String>,
    pub resampling: String,
    /// The theory's parameters, as given (none: no theory rows).
    #[serde(default)]
    pub theory: super::theory::TheorySettings,
}

/// Everything `memaudit compliance` reports.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ComplianceReport {
    pub settings: Settings,
    pub rows: usize,
    pub readings: Vec<Reading>,
    pub missing: Tally,
    pub filtered_out: usize,
    pub pooled: Vec<Pooled>,
    pub groups: Vec<String>,
    pub arms: Vec<ArmRow>,
    pub depth: Vec<DepthRow>,
    pub slopes: Vec<SlopeRow>,
    pub margins: Vec<MarginRow>,
    pub crossover: Vec<CrossoverRow>,
    pub power: Vec<PowerRow>,
    #[serde(default)]
    pub mediation: Vec<MediationRow>,
    /// Compliance per recall bin, over every arm and per arm (BriefBench Table 45).
    #[serde(default)]
    pub recall_bins: Vec<super::recall::RecallBinRow>,
    /// Failures (compliance below 1) not retrieved or retrieved but not used (BriefBench Table 34).
    #[serde(default)]
    pub failures: Vec<super::recall::FailureRow>,
    /// Every pair of arms' ECDFs compared, per group and measure (two-sample KS; BriefBench
    /// Figs. 2, 4, 7).
    #[serde(default)]
    pub dominance: Vec<super::dominance::DominanceRow>,
    /// The steps of each arm's ECDF, per group and measure.
    #[serde(default)]
    pub ecdf: Vec<super::dominance::EcdfRow>,
    /// The theory's curves at the stated s₀, ρ, q per (group, depth), beside the focus arm's
    /// margin over the best other arm (empty without the three parameters or depths).
    #[serde(default)]
    pub theory: Vec<super::theory::TheoryRow>,
    /// Both laws (q^d, s₀^d·ρ^{d(d+1)/2}) fitted to each arm's compliance by depth, with AIC
    /// and BIC; saturated fits refused (in-sample: they describe, they test nothing).
    #[serde(default)]
    pub laws: Vec<super::theory::LawFit>,
    pub notes: Vec<String>,
    /// How the rows became cells: design columns split by or pooled, the rows (or tasks) each
    /// (group, arm) holds and groups whose arms hold different numbers ([`crate::cells`]).
    #[serde(default)]
    pub populations: crate::cells::CellReport,
}

/// Sums of one cell under a count vector.
#[derive(Debug, Clone, Copy, Default)]
struct Sums {
    w: f64,
    c: f64,
    r: f64,
    t: f64,
    ratio: f64,
    full: f64,
    c_full: f64,
    /// Σw·r² and Σw·c·r (the mediation regression; rows with a recall).
    rr: f64,
    cr: f64,
    /// Σw over rows with a recall.
    wr: f64,
}

/// The estimates one count vector gives (the data: all counts 1).
#[derive(Debug, Clone, Default)]
struct Est {
    compliance: Vec<Option<f64>>,
    kappa: Vec<Option<f64>>,
    kappa_cond: Vec<Option<f64>>,
    rot: Vec<Option<f64>>,
    mor: Vec<Option<f64>>,
    slope: Vec<Option<f64>>,
    intercept: Vec<Option<f64>>,
    /// arm × depth.
    cell: Vec<Option<f64>>,
    /// (against slot, with the max last) × depth.
    margin: Vec<Option<f64>>,
    /// per against arm.
    crossing: Vec<Option<f64>>,
    /// per against arm: (total, a, direct, b) of the mediation through recall.
    mediation: Vec<Option<[f64; 4]>>,
}

struct Layout<'a> {
    rows: Vec<&'a Row>,
    arms: Vec<String>,
    depths: Vec<f64>,
    /// Cell id per row: arm × depths + depth.
    cell: Vec<usize>,
    focus: Option<usize>,
    against: Vec<usize>,
}

fn div(a: f64, b: f64) -> Option<f64> {
    (b != 0.0).then(|| a / b)
}

impl Layout<'_> {
    fn estimate(&self, counts: impl Fn(usize) -> f64) -> Est {
        let (na, nd) = (self.arms.len(), self.depths.len());
        let mut cells = vec![Sums::default(); na * nd];
        for (i, row) in self.rows.iter().enumerate() {
            let w = counts(i);
            if w == 0.0 {
                continue;
            }
            let s = &mut cells[self.cell[i]];
            s.w += w;
            s.c += w * row.compliance;
            if let Some(r) = row.recall {
                s.r += w * r;
                s.rr += w * r * r;
                s.cr += w * row.compliance * r;
                s.wr += w;
                if r == 1.0 {
                    s.full += w;
                    s.c_full += w * row.compliance;
                }
            }
            if let Some(t) = row.tokens {
                s.t += w * t;
                s.ratio += w * row.compliance / (t / PER_TOKENS);
            }
        }
        let mut e = Est::default();
        let mut arm_totals: Vec<Sums> = Vec::with_capacity(na);
        for a in 0..na {
            let arm = &cells[a * nd..(a + 1) * nd];
            let tot = total(arm);
            arm_totals.push(tot);
            e.compliance.push(div(tot.c, tot.w));
            e.kappa.push(div(tot.c, tot.r));
            e.kappa_cond.push(div(tot.c_full, tot.full));
            e.rot.push(div(tot.c, tot.t / PER_TOKENS));
            e.mor.push(div(tot.ratio, tot.w));
            let (mut sw, mut swx, mut swxx, mut swy, mut swxy) = (0.0, 0.0, 0.0, 0.0, 0.0);
            for (d, s) in self.depths.iter().zip(arm) {
                e.cell.push(div(s.c, s.w));
                sw += s.w;
                swx += s.w * d;
                swxx += s.w * d * d;
                swy += s.c;
                swxy += d * s.c;
            }
            let line = if nd > 1 { weighted_line(sw, swx, swxx, swy, swxy) } else { None };
            e.slope.push(line.map(|l| l.0));
            e.intercept.push(line.map(|l| l.1));
        }
        if let Some(f) = self.focus {
            for &b in &self.against {
                for d in 0..nd {
                    e.margin.push(e.cell[f * nd + d].zip(e.cell[b * nd + d]).map(|(x, y)| x - y));
                }
            }
            for d in 0..nd {
                let best = self.against.iter().filter_map(|&b| e.cell[b * nd + d]).reduce(f64::max);
                e.margin.push(e.cell[f * nd + d].zip(best).map(|(x, y)| x - y));
            }
            for &b in &self.against {
                e.mediation.push(mediation(&arm_totals[f], &arm_totals[b]));
            }
            for &b in &self.against {
                let c = match (e.slope[f], e.slope[b], e.intercept[f], e.intercept[b]) {
                    (Some(sf), Some(sb), Some(i_f), Some(ib)) if (sf - sb).abs() > 1e-12 => {
                        Some((ib - i_f) / (sf - sb))
                    }
                    _ => None,
                };
                e.crossing.push(c);
            }
        }
        e
    }
}

fn total(cells: &[Sums]) -> Sums {
    cells.iter().fold(Sums::default(), |mut acc, s| {
        acc.w += s.w;
        acc.c += s.c;
        acc.r += s.r;
        acc.t += s.t;
        acc.ratio += s.ratio;
        acc.full += s.full;
        acc.c_full += s.c_full;
        acc.rr += s.rr;
        acc.cr += s.cr;
        acc.wr += s.wr;
        acc
    })
}

/// Baron & Kenny (1986) on two arms, recall as the mediator (BriefBench §1.11): total
/// τ = ȳ_f − ȳ_b, a = m̄_f − m̄_b, and the OLS of compliance on (1, t, recall) over both arms'
/// rows gives the direct effect τ′ (t's coefficient) and b (recall's); indirect = τ − τ′ = a·b.
/// From weighted sums (rows with a recall); `None` when the 3 × 3 system is singular.
fn mediation(f: &Sums, o: &Sums) -> Option<[f64; 4]> {
    if f.wr <= 0.0 || o.wr <= 0.0 || f.wr != f.w || o.wr != o.w {
        return None;
    }
    let total = f.c / f.w - o.c / o.w;
    let a = f.r / f.w - o.r / o.w;
    // normal equations for (α, τ′, b)
    let m = [[f.w + o.w, f.w, f.r + o.r], [f.w, f.w, f.r], [f.r + o.r, f.r, f.rr + o.rr]];
    let y = [f.c + o.c, f.c, f.cr + o.cr];
    let coef = solve3(m, y)?;
    Some([total, a, coef[1], coef[2]])
}

/// Solves a 3 × 3 linear system by Cramer's rule; `None` when it is (near) singular.
fn solve3(m: [[f64; 3]; 3], y: [f64; 3]) -> Option<[f64; 3]> {
    let det = |m: &[[f64; 3]; 3]| {
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    };
    let d = det(&m);
    let scale = m.iter().flatten().map(|x| x.abs()).fold(0.0, f64::max).powi(3);
    if d.abs() <= 1e-12 * scale.max(1.0) {
        return None;
    }
    let mut out = [0.0; 3];
    for (k, o) in out.iter_mut().enumerate() {
        let mut mk = m;
        for (row, yv) in mk.iter_mut().zip(y) {
            row[k] = yv;
        }
        *o = det(&mk) / d;
    }
    Some(out)
}

/// Percentile interval of the defined replicates of one statistic.
fn interval(reps: &[Est], level: f64, pick: impl Fn(&Est) -> Option<f64>) -> (Option<f64>, Option<f64>) {
    let mut v: Vec<f64> = reps.iter().filter_map(&pick).filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return (None, None);
    }
    v.sort_by(f64::total_cmp);
    let a = 1.0 - level;
    (Some(quantile_sorted(&v, a / 2.0)), Some(quantile_sorted(&v, 1.0 - a / 2.0)))
}

fn z_interval(x: Option<f64>, se: Option<f64>, z: f64) -> (Option<f64>, Option<f64>) {
    match (x, se) {
        (Some(x), Some(s)) => (Some(x - z * s), Some(x + z * s)),
        _ => (None, None),
    }
}

fn sd(v: &[f64]) -> f64 {
    let n = v.len() as f64;
    if v.len() < 2 {
        return 0.0;
    }
    let m = v.iter().sum::<f64>() / n;
    (v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0)).sqrt()
}

fn is_binary(v: impl IntoIterator<Item = f64>) -> bool {
    v.into_iter().all(|x| x == 0.0 || x == 1.0)
}

/// The most values Cliff's δ reads over one group's power rows (the two arms' rows of each
/// pair, merged once sorted): 50,000,000; past it δ is left out and a note says so.
pub const MAX_CLIFF_WORK: usize = 50_000_000;

/// The most pairs of arms a power table holds when no focus arm is named (every pair).
pub const MAX_POWER_PAIRS: usize = 200_000;

/// The most resampled estimates one group's bootstrap keeps (every statistic of every resample,
/// for its percentile intervals): 40,000,000, about 640 MB.
pub const MAX_KEPT_ESTIMATES: usize = 40_000_000;

impl Est {
    /// The statistics one resample estimates.
    fn values(&self) -> usize {
        self.compliance.len()
            + self.kappa.len()
            + self.kappa_cond.len()
            + self.rot.len()
            + self.mor.len()
            + self.slope.len()
            + self.intercept.len()
            + self.cell.len()
            + self.margin.len()
            + self.crossing.len()
            + 4 * self.mediation.len()
    }
}

/// Refuses a bootstrap that would keep more than [`MAX_KEPT_ESTIMATES`] estimates, before it
/// starts, saying how many resamples fit.
fn check_kept_estimates(group: &str, point: &Est, resamples: usize) -> Result<()> {
    let per = point.values().max(1);
    let kept = per.saturating_mul(resamples);
    if kept <= MAX_KEPT_ESTIMATES {
        return Ok(());
    }
    let fits = MAX_KEPT_ESTIMATES / per;
    Err(Error::setting(
        "bootstrap",
        format!(
            "{}the bootstrap would keep {kept} resampled estimates ({resamples} resamples × {per} statistics: {} arms, \
             {} arm × depth cells), more than {MAX_KEPT_ESTIMATES}, the most kept here: {}",
            if group.is_empty() { String::new() } else { format!("group `{group}`: ") },
            point.compliance.len(),
            point.cell.len(),
            if fits >= 1 {
                format!("lower {} to {fits} or fewer, or compare fewer arms or depths at once", mention("bootstrap"))
            } else {
                "compare fewer arms or depths at once (filter the rows)".to_string()
            }
        ),
    ))
}

/// Analyses the rows (validate the request first).
pub fn analyse(tasks: &Tasks, q: &ComplianceRequest) -> Result<ComplianceReport> {
    let boot = q.bootstrap;
    let level = boot.confidence;
    let alpha = 1.0 - level;
    let z = crate::stats::normal::z_two_sided(level);
    let grouped = crate::distinct::groups_first_seen(tasks.rows.iter(), |r| r.group.clone());
    let groups: Vec<String> = grouped.iter().map(|(g, _)| g.clone()).collect();
    let all_arms = crate::distinct::first_seen(tasks.rows.iter().map(|r| r.arm.clone()));
    if let Some(f) = &q.focus
        && !all_arms.contains(f)
    {
        return Err(Error::setting("focus", format!("no rows of arm `{f}` (the arms: {})", some_of(&all_arms, 20))));
    }
    for a in &q.against {
        if !all_arms.contains(a) {
            return Err(Error::setting(
                "against",
                format!("no rows of arm `{a}` (the arms: {})", some_of(&all_arms, 20)),
            ));
        }
    }
    let has_depth = tasks.rows.iter().all(|r| r.depth.is_some()) && !tasks.rows.is_empty();
    let mut report = ComplianceReport {
        settings: Settings {
            bootstrap: boot,
            focus: q.focus.clone(),
            against: q.against.clone(),
            claimed_effect: q.claimed_effect,
            target_power: q.power,
            alpha,
            per_tokens: PER_TOKENS,
            group: q.group.clone(),
            resampling: "rows within (arm, depth) cells, arms independent; percentile intervals".into(),
            theory: Default::default(),
        },
        rows: tasks.rows.len(),
        readings: tasks.readings.clone(),
        missing: tasks.missing.clone(),
        filtered_out: tasks.filtered_out,
        pooled: tasks.pooled.clone(),
        groups: groups.clone(),
        arms: Vec::new(),
        depth: Vec::new(),
        slopes: Vec::new(),
        margins: Vec::new(),
        crossover: Vec::new(),
        power: Vec::new(),
        mediation: Vec::new(),
        recall_bins: Vec::new(),
        failures: Vec::new(),
        dominance: Vec::new(),
        ecdf: Vec::new(),
        theory: Vec::new(),
        laws: Vec::new(),
        notes: Vec::new(),
        populations: tasks.cells.clone(),
    };
    if !has_depth {
        report.notes.push("no depth column: no depth slopes, margins or crossover".into());
    }
    for (g, rows) in grouped {
        let g = &g;
        let arms = crate::distinct::first_seen(rows.iter().map(|r| r.arm.clone()));
        let mut depths: Vec<f64> = Vec::new();
        if has_depth {
            depths = rows.iter().map(|r| r.depth.unwrap_or_default()).collect();
            depths.sort_by(f64::total_cmp);
            depths.dedup_by(|a, b| a.total_cmp(b).is_eq());
        } else {
            depths.push(f64::NAN);
        }
        let nd = depths.len();
        // Each row's cell by lookup (a hash of arms, a search of the sorted depths): linear in
        // the rows at any number of arms and depths.
        let arm_index: std::collections::HashMap<&str, usize> =
            arms.iter().enumerate().map(|(i, a)| (a.as_str(), i)).collect();
        let cell: Vec<usize> = rows
            .iter()
            .map(|r| {
                let a = arm_index.get(r.arm.as_str()).copied().unwrap_or_default();
                let d = match r.depth {
                    Some(x) if has_depth => depths.binary_search_by(|y| y.total_cmp(&x)).unwrap_or_default(),
                    _ => 0,
                };
                a * nd + d
            })
            .collect();
        let focus = q.focus.as_ref().and_then(|f| arms.iter().position(|a| a == f));
        if q.focus.is_some() && focus.is_none() {
            report.notes.push(format!("group `{g}` has no rows of the focus arm: no margins or power against it"));
        }
        let against: Vec<usize> = match focus {
            None => Vec::new(),
            Some(f) if q.against.is_empty() => (0..arms.len()).filter(|&a| a != f).collect(),
            Some(_) => q.against.iter().filter_map(|a| arms.iter().position(|x| x == a)).collect(),
        };
        let layout = Layout { rows, arms: arms.clone(), depths: depths.clone(), cell: cell.clone(), focus, against };
        let point = layout.estimate(|_| 1.0);
        check_kept_estimates(g, &point, boot.resamples)?;
        let mut reps: Vec<Est> = Vec::with_capacity(boot.resamples);
        let labels: Vec<u32> = cell.iter().map(|&c| c as u32).collect();
        bootstrap_counts(layout.rows.len(), &Scheme::Stratified(labels), boot.resamples, boot.seed, |counts| {
            reps.push(layout.estimate(|i| counts[i] as f64));
            Some(0.0)
        });
        let undefined = |pick: &dyn Fn(&Est) -> Option<f64>| reps.iter().filter(|e| pick(e).is_none()).count();
        // Each arm's rows, in their order, gathered in one pass.
        let mut of_arm: Vec<Vec<&Row>> = vec![Vec::new(); arms.len()];
        for (r, c) in layout.rows.iter().zip(&cell) {
            of_arm[*c / nd].push(r);
        }
        let first_arm_row = report.arms.len();
        for (a, arm) in arms.iter().enumerate() {
            let mine = &of_arm[a];
            let n = mine.len();
            let comp: Vec<f64> = mine.iter().map(|r| r.compliance).collect();
            let binary = is_binary(comp.iter().copied());
            let k = comp.iter().sum::<f64>();
            let (cl, ch, how) = if binary {
                let w = wilson_interval(k, n as f64, level);
                (w.map(|i| i.low), w.map(|i| i.high), "wilson")
            } else {
                let (l, h) = interval(&reps, level, |e| e.compliance[a]);
                (l, h, "bootstrap")
            };
            let recall: Option<Vec<f64>> = mine.iter().map(|r| r.recall).collect();
            let tokens: Option<Vec<f64>> = mine.iter().map(|r| r.tokens).collect();
            let kr = recall.as_ref().and_then(|r| ratio_of_means(&comp, r));
            let tr = tokens.as_ref().and_then(|t| {
                let t: Vec<f64> = t.iter().map(|x| x / PER_TOKENS).collect();
                ratio_of_means(&comp, &t)
            });
            let full: Vec<f64> = match &recall {
                Some(r) => comp.iter().zip(r).filter(|(_, r)| **r == 1.0).map(|(c, _)| *c).collect(),
                None => Vec::new(),
            };
            let (kcl, kch) = if recall.is_none() || full.is_empty() {
                (None, None)
            } else if is_binary(full.iter().copied()) {
                let w = wilson_interval(full.iter().sum(), full.len() as f64, level);
                (w.map(|i| i.low), w.map(|i| i.high))
            } else {
                interval(&reps, level, |e| e.kappa_cond[a])
            };
            let (kbl, kbh) = if kr.is_some() { interval(&reps, level, |e| e.kappa[a]) } else { (None, None) };
            let ku = undefined(&|e: &Est| e.kappa[a]);
            if kr.is_some() && ku > 0 {
                report.notes.push(format!(
                    "{g}{}{arm}: κ undefined (recall 0) in {ku} of {} resamples; its interval is over the others",
                    if g.is_empty() { "" } else { ": " },
                    reps.len()
                ));
            }
            let (kdl, kdh) = z_interval(kr.map(|k| k.ratio), kr.map(|k| k.se), z);
            let (rdl, rdh) = z_interval(tr.map(|k| k.ratio), tr.map(|k| k.se), z);
            let (rbl, rbh) = if tr.is_some() { interval(&reps, level, |e| e.rot[a]) } else { (None, None) };
            let (ml, mh) = if tr.is_some() { interval(&reps, level, |e| e.mor[a]) } else { (None, None) };
            report.arms.push(ArmRow {
                group: g.clone(),
                arm: arm.clone(),
                n,
                binary,
                compliance: k / n as f64,
                compliance_low: cl,
                compliance_high: ch,
                compliance_interval: how.into(),
                hoeffding: hoeffding_half_width(n as f64, alpha),
                recall: recall.as_ref().map(|r| r.iter().sum::<f64>() / n as f64),
                kappa: kr.map(|k| k.ratio),
                kappa_se: kr.map(|k| k.se),
                kappa_se_independent: kr.map(|k| k.se_independent),
                kappa_se_sample: kr.and_then(|k| k.se_sample),
                kappa_se_independent_sample: kr.and_then(|k| k.se_independent_sample),
                kappa_delta_low: kdl,
                kappa_delta_high: kdh,
                kappa_boot_low: kbl,
                kappa_boot_high: kbh,
                kappa_conditional: point.kappa_cond[a].filter(|_| recall.is_some()),
                kappa_conditional_n: full.len(),
                kappa_conditional_low: kcl,
                kappa_conditional_high: kch,
                tokens: tokens.as_ref().map(|t| t.iter().sum::<f64>() / n as f64),
                rot: tr.map(|k| k.ratio),
                rot_se: tr.map(|k| k.se),
                rot_se_independent: tr.map(|k| k.se_independent),
                rot_se_sample: tr.and_then(|k| k.se_sample),
                rot_se_independent_sample: tr.and_then(|k| k.se_independent_sample),
                rot_delta_low: rdl,
                rot_delta_high: rdh,
                rot_boot_low: rbl,
                rot_boot_high: rbh,
                rot_mean_of_ratios: point.mor[a].filter(|_| tokens.is_some()),
                rot_mean_of_ratios_low: ml,
                rot_mean_of_ratios_high: mh,
            });
            if has_depth {
                for (d, depth) in depths.iter().enumerate() {
                    let cv: Vec<f64> = mine.iter().filter(|r| r.depth == Some(*depth)).map(|r| r.compliance).collect();
                    if cv.is_empty() {
                        continue;
                    }
                    let (l, h, how) = if is_binary(cv.iter().copied()) {
                        let w = wilson_interval(cv.iter().sum(), cv.len() as f64, level);
                        (w.map(|i| i.low), w.map(|i| i.high), "wilson")
                    } else {
                        let (l, h) = interval(&reps, level, |e| e.cell[a * nd + d]);
                        (l, h, "bootstrap")
                    };
                    report.depth.push(DepthRow {
                        group: g.clone(),
                        arm: arm.clone(),
                        depth: *depth,
                        n: cv.len(),
                        compliance: cv.iter().sum::<f64>() / cv.len() as f64,
                        low: l,
                        high: h,
                        interval: how.into(),
                        hoeffding: hoeffding_half_width(cv.len() as f64, alpha),
                    });
                }
                let xs: Vec<f64> = mine.iter().filter_map(|r| r.depth).collect();
                let line = ols(&xs, &comp);
                let (sl, sh) = if line.is_some() { interval(&reps, level, |e| e.slope[a]) } else { (None, None) };
                let present: Vec<usize> = (0..nd).filter(|&d| point.cell[a * nd + d].is_some()).collect();
                let endpoint = match (present.first(), present.last()) {
                    (Some(&lo), Some(&hi)) if hi > lo => {
                        Some(point.cell[a * nd + hi].unwrap_or_default() - point.cell[a * nd + lo].unwrap_or_default())
                    }
                    _ => None,
                };
                report.slopes.push(SlopeRow {
                    group: g.clone(),
                    arm: arm.clone(),
                    n,
                    depths: present.len(),
                    slope: line.map(|l| l.slope),
                    slope_se: line.and_then(|l| l.slope_se),
                    slope_low: sl,
                    slope_high: sh,
                    intercept: line.map(|l| l.intercept),
                    endpoint,
                });
            }
        }
        if let Some(f) = layout.focus {
            let na = layout.against.len();
            if has_depth && na > 0 {
                let names: Vec<String> = layout.against.iter().map(|&b| arms[b].clone()).collect();
                let max_label = if na == 1 { names[0].clone() } else { format!("max({})", names.join(", ")) };
                let slots = layout.against.iter().map(|&b| (Some(b), arms[b].clone())).chain([(None, max_label)]);
                for (s, (b, label)) in slots.enumerate() {
                    if b.is_none() && na == 1 {
                        continue;
                    }
                    let mut d_star = None;
                    for (d, depth) in depths.iter().enumerate() {
                        let Some(delta) = point.margin[s * nd + d] else { continue };
                        let fc = point.cell[f * nd + d].unwrap_or_default();
                        let (best, ac) = match b {
                            Some(b) => (arms[b].clone(), point.cell[b * nd + d].unwrap_or_default()),
                            None => layout
                                .against
                                .iter()
                                .filter_map(|&b| point.cell[b * nd + d].map(|c| (arms[b].clone(), c)))
                                .fold((String::new(), f64::NEG_INFINITY), |acc, x| if x.1 > acc.1 { x } else { acc }),
                        };
                        let (l, h) = interval(&reps, level, |e| e.margin[s * nd + d]);
                        let above = l.is_some_and(|l| l > 0.0);
                        if above && d_star.is_none() {
                            d_star = Some(*depth);
                        }
                        report.margins.push(MarginRow {
                            group: g.clone(),
                            focus: arms[f].clone(),
                            against: label.clone(),
                            depth: *depth,
                            focus_compliance: fc,
                            against_compliance: ac,
                            best,
                            delta,
                            low: l,
                            high: h,
                            above_zero: above,
                        });
                    }
                    let (crossing, cl, ch, share) = match b {
                        Some(_) => {
                            let c = point.crossing[s];
                            let (lo, hi) = (depths[0], depths[nd - 1]);
                            let (cl, ch) = interval(&reps, level, |e| e.crossing[s]);
                            let inr = reps.iter().filter(|e| e.crossing[s].is_some_and(|x| x >= lo && x <= hi)).count();
                            (c, cl, ch, (!reps.is_empty()).then(|| inr as f64 / reps.len() as f64))
                        }
                        None => (None, None, None, None),
                    };
                    report.crossover.push(CrossoverRow {
                        group: g.clone(),
                        focus: arms[f].clone(),
                        against: label,
                        d_star,
                        crossing,
                        crossing_in_range: crossing.is_some_and(|x| x >= depths[0] && x <= depths[nd - 1]),
                        crossing_low: cl,
                        crossing_high: ch,
                        share_in_range: share,
                    });
                }
            }
        }
        if let Some(f) = layout.focus {
            for (s, &b) in layout.against.iter().enumerate() {
                let Some([total, a, direct, coef_b]) = point.mediation.get(s).copied().flatten() else { continue };
                let pick = |k: usize| move |e: &Est| e.mediation.get(s).copied().flatten().map(|m| m[k]);
                let (tl, th) = interval(&reps, level, pick(0));
                let (il, ih) =
                    interval(&reps, level, |e: &Est| e.mediation.get(s).copied().flatten().map(|m| m[0] - m[2]));
                let prop = |m: [f64; 4]| (m[0] != 0.0).then(|| (m[0] - m[2]) / m[0]);
                let (pl, ph) = interval(&reps, level, |e: &Est| e.mediation.get(s).copied().flatten().and_then(prop));
                let n = of_arm[f].len() + of_arm[b].len();
                report.mediation.push(MediationRow {
                    group: g.clone(),
                    focus: arms[f].clone(),
                    against: arms[b].clone(),
                    n,
                    total,
                    total_low: tl,
                    total_high: th,
                    a,
                    b: coef_b,
                    direct,
                    indirect: total - direct,
                    indirect_low: il,
                    indirect_high: ih,
                    proportion: prop([total, a, direct, coef_b]),
                    proportion_low: pl,
                    proportion_high: ph,
                    unstable: !(tl.is_some_and(|l| l > 0.0) || th.is_some_and(|h| h < 0.0)),
                });
            }
        }
        // Power: the focus against each arm, or every pair (within a stated budget).
        let na = arms.len();
        let pairs = arm_pairs(na, layout.focus, MAX_POWER_PAIRS).unwrap_or_else(|| {
            let every_pair = na.saturating_mul(na.saturating_sub(1)) / 2;
            report.notes.push(format!(
                "{}{} arms make {every_pair} pairs, more than the {MAX_POWER_PAIRS} power rows computed here: \
                 no power table; name the arm compared with the others ({}) for power against it",
                if g.is_empty() { String::new() } else { format!("group `{g}`: ") },
                na,
                crate::fields::mention("focus")
            ));
            Vec::new()
        });
        let mut values: Vec<Vec<f64>> = of_arm.iter().map(|rows| rows.iter().map(|r| r.compliance).collect()).collect();
        let spread: Vec<f64> = values.iter().map(|v| sd(v)).collect();
        // Cliff's δ reads both arms' rows of each pair: bounded before it is spent.
        let cliff_work: usize = pairs.iter().map(|&(a, b)| values[a].len() + values[b].len()).sum();
        let sorted: Vec<Vec<f64>> = if cliff_work <= MAX_CLIFF_WORK {
            values.iter_mut().for_each(|v| v.sort_by(f64::total_cmp));
            values
        } else {
            report.notes.push(format!(
                "{}Cliff's \u{3b4} is not computed: its pairs read {cliff_work} values, more than {MAX_CLIFF_WORK}; name the \
                 arm compared with the others ({})",
                if g.is_empty() { String::new() } else { format!("group `{g}`: ") },
                crate::fields::mention("focus")
            ));
            Vec::new()
        };
        for (a, b) in pairs {
            let (Some(ra), Some(rb)) = (report.arms.get(first_arm_row + a), report.arms.get(first_arm_row + b)) else {
                continue;
            };
            let mut row = power_row(g, ra, rb, (spread[a], spread[b]), q, alpha);
            if let (Some(x), Some(y)) = (sorted.get(a), sorted.get(b)) {
                row.cliffs_delta = crate::stats::cliff::cliffs_delta_sorted(x, y);
            }
            report.power.push(row);
        }
    }
    (report.recall_bins, report.failures) = super::recall::recall_tables(&tasks.rows, level);
    (report.dominance, report.ecdf) = super::dominance::dominance_tables(
        &tasks.rows,
        report.settings.per_tokens,
        q.focus.as_deref(),
        &mut report.notes,
    );
    report.theory = super::theory::theory_rows(&q.theory, &report.depth, &report.margins);
    report.laws = super::theory::law_fits(&report.depth);
    report.settings.theory = q.theory;
    Ok(report)
}

/// The pairs of `na` arms a table compares: the `focus` arm (its index) against each other
/// arm, it first; without one every pair (a before b), or `None` past `max` pairs.
pub(super) fn arm_pairs(na: usize, focus: Option<usize>, max: usize) -> Option<Vec<(usize, usize)>> {
    match focus {
        Some(f) => Some((0..na).filter(|&b| b != f).map(|b| (f, b)).collect()),
        None if na.saturating_mul(na.saturating_sub(1)) / 2 > max => None,
        None => Some((0..na).flat_map(|a| (a + 1..na).map(move |b| (a, b))).collect()),
    }
}

fn power_row(g: &str, ra: &ArmRow, rb: &ArmRow, (s1, s2): (f64, f64), q: &ComplianceRequest, alpha: f64) -> PowerRow {
    let (n1, n2) = (ra.n as f64, rb.n as f64);
    let (p1, p2) = (ra.compliance, rb.compliance);
    let delta = p1 - p2;
    let up = delta >= 0.0;
    let pw = q.power;
    let (design, power, mde, n_needed, at_claim) = if ra.binary && rb.binary {
        let claim = q.claimed_effect.map(|e| {
            let p = if up { (p2 + e).min(1.0) } else { (p2 - e).max(0.0) };
            power::two_proportions_power(p, p2, n1, n2, alpha)
        });
        (
            Design::TwoProportions,
            (delta != 0.0).then(|| power::two_proportions_power(p1, p2, n1, n2, alpha)).flatten(),
            power::two_proportions_mde(p2, n1, n2, alpha, pw, up),
            power::two_proportions_n(p1, p2, alpha, pw),
            claim.flatten(),
        )
    } else {
        let mde = power::minimum_detectable(1.0, pw, |d| power::two_means_power(d, s1, s2, n1, n2, alpha));
        (
            Design::TwoMeans,
            (delta != 0.0).then(|| power::two_means_power(delta, s1, s2, n1, n2, alpha)).flatten(),
            mde,
            power::two_means_n(delta, s1, s2, alpha, pw),
            q.claimed_effect.and_then(|e| power::two_means_power(e, s1, s2, n1, n2, alpha)),
        )
    };
    // Successes of a 0/1 arm: its mean × n, a whole number up to rounding.
    let fisher = (ra.binary && rb.binary).then(|| {
        let (k1, k2) = ((p1 * n1).round() as u64, (p2 * n2).round() as u64);
        crate::stats::fisher::fisher_exact(k1, ra.n as u64 - k1, k2, rb.n as u64 - k2)
    });
    let verdict = match (q.claimed_effect, mde) {
        (Some(e), Some(m)) if m > e => "claim_undetectable",
        (Some(_), None) => "claim_undetectable",
        _ if delta == 0.0 => "no_difference",
        (_, Some(m)) if delta.abs() < m => "below_mde",
        (_, None) => "below_mde",
        _ => "detectable",
    };
    PowerRow {
        group: g.to_string(),
        arm: ra.arm.clone(),
        against: rb.arm.clone(),
        n: ra.n,
        n_against: rb.n,
        compliance: p1,
        against_compliance: p2,
        delta,
        design,
        power,
        mde: mde.map(|m| if up { m } else { -m }),
        n_needed,
        power_at_claim: at_claim,
        fisher_p: fisher.map(|f| f.p),
        odds_ratio: fisher.and_then(|f| f.odds_ratio),
        cliffs_delta: None,
        verdict: verdict.into(),
    }
}
