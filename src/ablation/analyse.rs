//! Utilities, labels, the u histogram, positive rates and the non-circularity panel.

use crate::distinct::first_seen;
use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::read::{AblationWarningKind, AblationWarnings, PairRow};
use super::specialist::{SpecialistDiagnostics, diagnose_run};
use crate::error::{Error, Result};
use crate::stats::Interval;
use crate::stats::bca::percentile_interval;
use crate::stats::bootstrap::Scheme;
use crate::stats::correlation::{fisher_z_interval, spearman};
use crate::stats::proportions::wilson_interval;
use crate::stats::resample::bootstrap_counts;
use crate::stats::weighted_spearman::SpearmanPlan;

/// A pre-set gate on the point estimate of ρ.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Gate {
    /// |ρ| < limit (seed-000 pilot gate: 0.5).
    AbsBelow { limit: f64 },
    /// low ≤ ρ ≤ high (seed-000 at-scale gate: [−0.15, +0.15]).
    Within { low: f64, high: f64 },
}

impl Gate {
    /// seed-000's pilot gate |ρ| < 0.5.
    pub const PILOT: Gate = Gate::AbsBelow { limit: 0.5 };
    /// seed-000's at-scale gate ρ ∈ [−0.15, +0.15].
    pub const SCALE: Gate = Gate::Within { low: -0.15, high: 0.15 };

    /// Passes, and the margin: distance from ρ to the nearest gate bound, positive inside.
    pub fn check(&self, rho: f64) -> (bool, f64) {
        match *self {
            Gate::AbsBelow { limit } => (rho.abs() < limit, limit - rho.abs()),
            Gate::Within { low, high } => (rho >= low && rho <= high, (rho - low).min(high - rho)),
        }
    }

    /// `|rho| < 0.5`, `rho in [-0.15, 0.15]`.
    pub fn describe(&self) -> String {
        match self {
            Gate::AbsBelow { limit } => format!("|rho| < {limit}"),
            Gate::Within { low, high } => format!("rho in [{low}, {high}]"),
        }
    }

    /// Parses `pilot`, `scale`, `abs:T` or `within:LO,HI` (also `str::parse`, so the CLI's
    /// `--gate` reads a `Gate` directly).
    pub fn parse(s: &str) -> Option<Gate> {
        let s = s.trim();
        match s {
            "pilot" => return Some(Gate::PILOT),
            "scale" => return Some(Gate::SCALE),
            _ => {}
        }
        if let Some(t) = s.strip_prefix("abs:") {
            return t.trim().parse().ok().filter(|x: &f64| *x > 0.0).map(|limit| Gate::AbsBelow { limit });
        }
        let (lo, hi) = s.strip_prefix("within:")?.split_once(',')?;
        let (low, high): (f64, f64) = (lo.trim().parse().ok()?, hi.trim().parse().ok()?);
        (low <= high).then_some(Gate::Within { low, high })
    }
}

/// A gate as a setting's text: `scale`, `pilot`, `abs:T` or `within:LO,HI`.
impl crate::fields::FieldValue for Gate {
    const KIND: crate::fields::Kind = crate::fields::Kind::Text;
    fn from_text(text: &str) -> std::result::Result<Gate, String> {
        text.parse()
    }
    fn to_text(&self) -> String {
        match *self {
            g if g == Gate::SCALE => "scale".into(),
            g if g == Gate::PILOT => "pilot".into(),
            Gate::AbsBelow { limit } => format!("abs:{limit}"),
            Gate::Within { low, high } => format!("within:{low},{high}"),
        }
    }
}

impl std::str::FromStr for Gate {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Gate, String> {
        Gate::parse(s).ok_or_else(|| format!("`{s}`: use scale, pilot, abs:T or within:LO,HI"))
    }
}

crate::choice! {
    /// Which variable is correlated with the retrieval score.
    #[derive(Default)]
    pub enum Target {
        /// The three-valued utility u ∈ {−1, 0, +1} (what seed-000's text names).
        #[default]
        U,
        /// The binary label y = [u = +1] (u = −1 folded into the negatives).
        Y,
    }
}

crate::fields! {
    /// Settings of an ablation analysis, recorded with it.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub struct AblationSettings {
        target: Target = Target::U, label "correlate",
            help "Correlate the retrieval score with u (three-valued) or y (binary).";
        gate: Gate = Gate::SCALE, label "gate on \u{03c1}",
            help "Gate on \u{03c1}: `scale` (\u{03c1} in [-0.15, 0.15]), `pilot` (|\u{03c1}| < 0.5), `abs:T` or `within:LO,HI`.";
        bootstrap: usize = 10_000, label "resamples", help "Bootstrap resamples of every interval.";
        seed: u64 = 42, label "seed", help "Seed of the ChaCha8 stream behind every interval.";
        confidence: f64 = 0.95, label "confidence", help "Confidence level of the intervals.";
        #[serde(default)]
        specialist_threshold: f64 = 0.0, label "specialist threshold",
            help "A specialist's score above this predicts y = 1 (0: z = logit 1 \u{2212} logit 0 > 0).";
    }
}

impl AblationSettings {
    pub fn validate(&self) -> Result<()> {
        if !self.specialist_threshold.is_finite() {
            return Err(Error::setting("specialist_threshold", "must be a finite number"));
        }
        crate::stats::bootstrap::Bootstrap { resamples: self.bootstrap, seed: self.seed, confidence: self.confidence }
            .validate(0)
    }
}

/// The three-way distribution of u (plot-ready: one bar per value).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct UHistogram {
    /// u = −1: correct only without the memory ("harmful").
    pub harmful: usize,
    /// u = 0.
    pub neutral: usize,
    /// u = +1: correct only with the memory (y = 1).
    pub helpful: usize,
}

/// Counts and rates of one group of pairs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rates {
    pub pairs: usize,
    pub queries: usize,
    /// Distinct numbers of removed memories per query (K; one value when uniform).
    pub k_values: Vec<usize>,
    pub histogram: UHistogram,
    /// #{y = 1} / pairs, with its Wilson interval.
    pub positive_rate: f64,
    pub positive_low: f64,
    pub positive_high: f64,
    /// #{u = −1} / pairs.
    pub harmful_rate: f64,
    /// Queries whose base answer is correct.
    pub base_correct: usize,
    pub base_correct_rate: f64,
    /// Answerer calls the trace implies: one base call per query plus one per removed memory.
    pub answerer_calls: usize,
}

/// A bootstrap interval with how it was drawn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CiRecord {
    pub low: f64,
    pub high: f64,
    /// `pair` (i.i.d. pairs) or `query` (whole queries, all their pairs).
    pub unit: String,
    pub method: String,
    pub resamples: usize,
    pub seed: u64,
    pub rng: String,
    /// Resamples where ρ was undefined (a constant variable), left out of the quantiles.
    pub undefined: usize,
}

/// ρ(u or y, retrieval score) with its intervals and the gate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NonCircularity {
    pub target: Target,
    /// Pairs with a retrieval score.
    pub n: usize,
    pub n_queries: usize,
    /// Spearman's ρ with mid-ranks for ties (`None` when a variable is constant).
    pub rho: Option<f64>,
    pub rho2: Option<f64>,
    /// 1 − ρ²: the share of rank variance ρ leaves unexplained.
    pub unexplained: Option<f64>,
    pub pair_ci: Option<CiRecord>,
    pub query_ci: Option<CiRecord>,
    /// tanh(atanh ρ ± z/√(n − 3)): the i.i.d. normal approximation.
    pub fisher_z: Option<Interval>,
    /// The CI (pair-level) excludes 0: "statistically nonzero".
    pub nonzero: Option<bool>,
    pub gate: String,
    /// The gate applied to the point estimate.
    pub passes: Option<bool>,
    /// Distance of ρ to the nearest gate bound (positive inside the gate).
    pub margin: Option<f64>,
}

/// One group: a run, or a subset within a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroupAblation {
    pub run: String,
    /// `None` for the whole run.
    pub subset: Option<String>,
    pub rates: Rates,
    pub noncircularity: NonCircularity,
}

/// One run with its subsets and the breach audit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunAblation {
    pub overall: GroupAblation,
    pub subsets: Vec<GroupAblation>,
    /// The run's ρ fails the gate.
    pub breach: bool,
    /// Subsets whose own ρ fails the gate (the drill-down on a breach; always computed).
    pub breaching_subsets: Vec<String>,
}

/// The whole analysis.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AblationReport {
    pub settings: AblationSettings,
    pub gate: String,
    pub runs: Vec<RunAblation>,
    pub warnings: AblationWarnings,
    /// Specialist diagnostics per run and split, for runs whose pairs carry a specialist's
    /// score (empty otherwise).
    #[serde(default)]
    pub specialist: Vec<SpecialistDiagnostics>,
    /// How texts became outcomes (set by [`super::Ablation`]; `None` when called directly).
    #[serde(default)]
    pub scoring: Option<super::OutcomeScoring>,
}

impl AblationReport {
    /// Every run's overall group followed by its subsets (the order of the CSV table).
    pub fn groups(&self) -> impl Iterator<Item = &GroupAblation> {
        self.runs.iter().flat_map(|r| std::iter::once(&r.overall).chain(&r.subsets))
    }
}

/// u = score(base) − score(without i) ∈ {−1, 0, +1}.
pub fn utility(p: &PairRow) -> i8 {
    (p.base - p.ablated) as i8
}

/// y = [u = +1]: the memory is causally necessary for the correct answer.
pub fn label(p: &PairRow) -> bool {
    utility(p) == 1
}

fn rates(pairs: &[&PairRow], confidence: f64) -> Rates {
    let mut h = UHistogram::default();
    let mut per_query: BTreeMap<&str, (usize, f64)> = BTreeMap::new();
    for p in pairs {
        match utility(p) {
            -1 => h.harmful += 1,
            1 => h.helpful += 1,
            _ => h.neutral += 1,
        }
        let e = per_query.entry(&p.query_id).or_insert((0, p.base));
        e.0 += 1;
    }
    let n = pairs.len();
    let ci = wilson_interval(h.helpful as f64, n as f64, confidence);
    let base_correct = per_query.values().filter(|(_, b)| *b == 1.0).count();
    let q = per_query.len();
    Rates {
        pairs: n,
        queries: q,
        k_values: per_query.values().map(|(k, _)| *k).collect::<BTreeSet<_>>().into_iter().collect(),
        histogram: h,
        positive_rate: ratio(h.helpful, n),
        positive_low: ci.map_or(f64::NAN, |c| c.low),
        positive_high: ci.map_or(f64::NAN, |c| c.high),
        harmful_rate: ratio(h.harmful, n),
        base_correct,
        base_correct_rate: ratio(base_correct, q),
        answerer_calls: q + n,
    }
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 { f64::NAN } else { a as f64 / b as f64 }
}

/// Spearman's ρ(u or y, s) with pair-level and query-clustered percentile bootstrap intervals.
pub fn noncircularity(pairs: &[&PairRow], settings: &AblationSettings) -> NonCircularity {
    noncircularity_steps(pairs, settings, &mut |_| {})
}

/// [`noncircularity`], calling `step` with the unit of each bootstrap (`pair`, `query`) before
/// it runs.
fn noncircularity_steps(pairs: &[&PairRow], settings: &AblationSettings, step: &mut dyn FnMut(&str)) -> NonCircularity {
    let scored: Vec<&PairRow> = pairs.iter().copied().filter(|p| p.retrieval_score.is_some()).collect();
    let x: Vec<f64> = scored
        .iter()
        .map(|p| match settings.target {
            Target::U => utility(p) as f64,
            Target::Y => label(p) as u8 as f64,
        })
        .collect();
    let s: Vec<f64> = scored.iter().map(|p| p.retrieval_score.unwrap_or(f64::NAN)).collect();
    let mut qids: BTreeMap<&str, u32> = BTreeMap::new();
    let clusters: Vec<u32> = scored
        .iter()
        .map(|p| {
            let next = qids.len() as u32;
            *qids.entry(&p.query_id).or_insert(next)
        })
        .collect();
    let rho = spearman(&x, &s);
    let n = scored.len();
    let mut ci = |scheme: Scheme, unit: &str| -> Option<CiRecord> {
        step(unit);
        rho?;
        rho_interval(&x, &s, &scheme, unit, settings)
    };
    let pair_ci = ci(Scheme::Iid, "pair");
    let query_ci = ci(Scheme::Cluster(clusters), "query");
    let gate = rho.map(|r| settings.gate.check(r));
    NonCircularity {
        target: settings.target,
        n,
        n_queries: qids.len(),
        rho,
        rho2: rho.map(|r| r * r),
        unexplained: rho.map(|r| 1.0 - r * r),
        nonzero: pair_ci.as_ref().map(|c| c.low > 0.0 || c.high < 0.0),
        pair_ci,
        query_ci,
        fisher_z: rho.and_then(|r| fisher_z_interval(r, n, settings.confidence)),
        gate: settings.gate.describe(),
        passes: gate.map(|g| g.0),
        margin: gate.map(|g| g.1),
    }
}

/// The percentile bootstrap interval of Spearman's ρ(x, y) under `scheme` (`unit` names what
/// is drawn), with how it was drawn; `None` when ρ is undefined in the data or in too many
/// resamples.
pub(super) fn rho_interval(
    x: &[f64],
    y: &[f64],
    scheme: &Scheme,
    unit: &str,
    settings: &AblationSettings,
) -> Option<CiRecord> {
    let plan = SpearmanPlan::new(x, y)?;
    let reps = bootstrap_counts(x.len(), scheme, settings.bootstrap, settings.seed, |c| plan.rho(c));
    let (low, high) = percentile_interval(&reps.values, settings.confidence)?;
    Some(CiRecord {
        low,
        high,
        unit: unit.to_string(),
        method: "percentile".into(),
        resamples: settings.bootstrap,
        seed: settings.seed,
        rng: "chacha8".into(),
        undefined: reps.undefined,
    })
}

fn group(
    run: &str,
    subset: Option<&str>,
    pairs: &[&PairRow],
    settings: &AblationSettings,
    step: &mut dyn FnMut(&str),
) -> GroupAblation {
    let name = match subset {
        Some(s) => format!("run {run}, subset {s}"),
        None => format!("run {run}"),
    };
    GroupAblation {
        run: run.to_string(),
        subset: subset.map(str::to_string),
        rates: rates(pairs, settings.confidence),
        noncircularity: noncircularity_steps(pairs, settings, &mut |unit| step(&format!("{name}: {unit} bootstrap"))),
    }
}

/// Analyses every run (and every subset of a run) of the pairs. `progress` hears of every
/// bootstrap before it runs (two per run and subset: pairs, whole queries), with the share of
/// them done, and `done` at 1.
pub fn analyse(
    pairs: &[PairRow],
    settings: &AblationSettings,
    mut warnings: AblationWarnings,
    progress: &mut dyn FnMut(&str, f64),
) -> Result<AblationReport> {
    settings.validate()?;
    if pairs.is_empty() {
        return Err(Error::Empty(
            "no ablation pairs: the files hold no (query, removed memory) row below their header".into(),
        ));
    }
    let runs: Vec<(&str, Vec<&PairRow>, Vec<&str>)> = first_seen(pairs.iter().map(|p| p.run.as_str()))
        .into_iter()
        .map(|run| {
            let in_run: Vec<&PairRow> = pairs.iter().filter(|p| p.run == run).collect();
            let subsets = first_seen(in_run.iter().filter_map(|p| p.subset.as_deref()));
            (run, in_run, subsets)
        })
        .collect();
    // Two bootstraps per group: the run, and its subsets when it has more than one.
    let groups: usize = runs.iter().map(|(_, _, s)| 1 + if s.len() > 1 { s.len() } else { 0 }).sum();
    let total = (2 * groups) as f64;
    let mut done = 0usize;
    let mut step = |what: &str| {
        progress(what, done as f64 / total);
        done += 1;
    };
    let mut out = Vec::new();
    let mut specialist = Vec::new();
    for (run, in_run, subsets) in runs {
        let overall = group(run, None, &in_run, settings, &mut step);
        let diagnostics = diagnose_run(run, &in_run, settings);
        if let Some(d) = diagnostics.first()
            && d.pairs < in_run.len()
        {
            warnings.add(AblationWarningKind::MissingSpecialistScore, || {
                format!("run {run}: {} of {} pairs", in_run.len() - d.pairs, in_run.len())
            });
        }
        specialist.extend(diagnostics);
        if overall.rates.k_values.len() > 1 {
            // Name the queries whose K is not the run's commonest.
            let mut k_of: BTreeMap<&str, usize> = BTreeMap::new();
            for p in &in_run {
                *k_of.entry(&p.query_id).or_default() += 1;
            }
            let mut freq: BTreeMap<usize, usize> = BTreeMap::new();
            for k in k_of.values() {
                *freq.entry(*k).or_default() += 1;
            }
            let common = freq.iter().max_by_key(|(k, n)| (**n, **k)).map_or(0, |(k, _)| *k);
            let odd: Vec<String> =
                k_of.iter().filter(|(_, k)| **k != common).map(|(q, k)| format!("{q} (K = {k})")).collect();
            warnings.add(AblationWarningKind::UnequalK, || {
                format!("run {run}: K = {common} for most queries; {}", crate::cells::some_of(&odd))
            });
        }
        let mut by_query: BTreeMap<&str, Vec<i64>> = BTreeMap::new();
        for p in &in_run {
            if let Some(r) = p.rank {
                by_query.entry(&p.query_id).or_default().push(r);
            }
        }
        for (q, mut ranks) in by_query {
            ranks.sort_unstable();
            if ranks.iter().enumerate().any(|(i, &r)| r != i as i64 + 1) {
                warnings.add(AblationWarningKind::RankIrregular, || format!("run {run}, query {q}: ranks {ranks:?}"));
            }
        }
        let subsets: Vec<GroupAblation> = if subsets.len() > 1 {
            subsets
                .iter()
                .map(|s| {
                    let sub: Vec<&PairRow> =
                        in_run.iter().copied().filter(|p| p.subset.as_deref() == Some(*s)).collect();
                    group(run, Some(s), &sub, settings, &mut step)
                })
                .collect()
        } else {
            Vec::new()
        };
        let breaching_subsets = subsets
            .iter()
            .filter(|g| g.noncircularity.passes == Some(false))
            .filter_map(|g| g.subset.clone())
            .collect();
        out.push(RunAblation {
            breach: overall.noncircularity.passes == Some(false),
            overall,
            subsets,
            breaching_subsets,
        });
    }
    progress("done", 1.0);
    Ok(AblationReport {
        settings: settings.clone(),
        gate: settings.gate.describe(),
        runs: out,
        warnings,
        specialist,
        scoring: None,
    })
}
