//! The comparison engine; see the module documentation of [`crate::compare`].

use serde::{Deserialize, Serialize};

pub use super::settings::{CiMethod, CompareSettings, ResampleUnit, Resampling};
use crate::error::{Error, Result};
use crate::headline::some_of;
use crate::stats::bca::{CiOutcome, bca_interval, percentile_interval};
use crate::stats::bootstrap::{Resampler, Scheme};
use crate::stats::tournament::{self, Tally};
use crate::stats::{
    agreement, correlation, friedman, mcnemar, multiplicity, nemenyi, permutation, posterior, proportions, wilcoxon,
};

crate::choice! {
    /// The test behind a contrast's p-value.
    pub enum PairedTest {
        /// Exact McNemar on the discordant pairs (two 0/1 arms).
        McNemarExact = "mcnemar_exact",
        /// Wilcoxon signed-rank on the paired differences (any other values).
        WilcoxonSignedRank,
    }
}

/// A complete item × arm matrix.
#[derive(Debug, Clone, PartialEq)]
pub struct CompareInput {
    pub arms: Vec<String>,
    pub items: Vec<String>,
    /// `values[item][arm]`
    pub values: Vec<Vec<f64>>,
    /// Per item, its label in the resampling column (strata or clusters), when resampling needs one.
    pub groups: Option<Vec<String>>,
    /// Per item, its label in the breakdown column (`CompareSettings::per`).
    pub per: Option<Vec<String>>,
}

/// One arm: `{arm, n, mean, ci_low, ci_high, wilson_low, wilson_high}` (+ more).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ArmRow {
    pub arm: String,
    /// The group of the arm's rows this row is about (`category=2`), in a summary without
    /// pairing taken group by group; absent for the arm as a whole.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    pub n: usize,
    pub mean: f64,
    pub ci_low: f64,
    pub ci_high: f64,
    /// `bca`, `percentile`, `degenerate`, or `wilson` (binary arm whose bootstrap is degenerate).
    pub ci_method: String,
    pub ci_note: Option<String>,
    /// All values are 0 or 1.
    pub binary: bool,
    pub successes: Option<f64>,
    pub wilson_low: Option<f64>,
    pub wilson_high: Option<f64>,
    pub clopper_pearson_low: Option<f64>,
    pub clopper_pearson_high: Option<f64>,
    /// Hoeffding half-width at δ = alpha (values assumed in [0, 1]).
    pub hoeffding_half_width: Option<f64>,
    pub mean_rank: Option<f64>,
    /// The arm's mean win rate against the other arms: per pair, the share of items on which it
    /// does better (ties half), averaged over the pairs ([`crate::stats::tournament`]).
    #[serde(default)]
    pub win_rate: Option<f64>,
    /// Pairwise majorities won minus lost (Copeland's score).
    #[serde(default)]
    pub copeland: Option<i64>,
}

/// One contrast a − b.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairRow {
    pub a: String,
    pub b: String,
    pub n_pairs: usize,
    pub mean_a: f64,
    pub mean_b: f64,
    /// mean_a − mean_b
    pub diff: f64,
    pub ci_low: f64,
    pub ci_high: f64,
    pub ci_method: String,
    pub ci_note: Option<String>,
    /// Items where a is right and b wrong (binary arms) — the help count of the ledger.
    pub b_count: Option<u64>,
    /// Items where a is wrong and b right.
    pub c_count: Option<u64>,
    /// Items where a scores higher / equal / lower than b.
    pub wins: usize,
    pub ties: usize,
    pub losses: usize,
    /// The share of items on which a does better than b, ties half (better: higher, or lower
    /// with `higher_is_better=false`); b's is 1 − this ([`crate::stats::tournament`]).
    #[serde(default)]
    pub win_rate: Option<f64>,
    /// The test behind `p_value`: `mcnemar_exact` (binary) or `wilcoxon_signed_rank`.
    pub test: PairedTest,
    pub p_value: f64,
    pub mcnemar_p: Option<f64>,
    pub mcnemar_mid_p: Option<f64>,
    pub wilcoxon_p: Option<f64>,
    /// Paired sign-flip permutation test of Σ(a − b) (two-sided;
    /// [`crate::stats::permutation::sign_flip_test`]).
    #[serde(default)]
    pub permutation_p: Option<f64>,
    /// `exact` (every sign pattern) or `monte_carlo R=… seed=…`.
    #[serde(default)]
    pub permutation_method: Option<String>,
    /// Within a stratum of `--per` (0/1 arms): E[S] of S = helps − hurts in the stratum under
    /// random strata, and the one-sided randomization p-values P(S ≥ s), P(S ≤ s)
    /// ([`crate::stats::permutation::subset_sum_test`]; TAG's target-hit localization).
    #[serde(default)]
    pub interaction_expected: Option<f64>,
    #[serde(default)]
    pub interaction_p_greater: Option<f64>,
    #[serde(default)]
    pub interaction_p_less: Option<f64>,
    /// Whether the interaction p-values were summed exactly (else the normal approximation).
    #[serde(default)]
    pub interaction_exact: Option<bool>,
    /// Cohen's h = 2 asin√p_a − 2 asin√p_b (binary arms).
    pub cohen_h: Option<f64>,
    pub cohen_h_label: Option<String>,
    /// P(θ_a > θ_b), Jeffreys Beta–Binomial posteriors, arms treated as independent.
    pub p_superiority: Option<f64>,
    /// Pooled two-proportion z-test (independent-samples cross-check).
    pub z_two_proportion: Option<f64>,
    pub p_two_proportion: Option<f64>,
    /// Spearman's ρ between the arms' per-item values.
    pub spearman: Option<f64>,
    /// Cohen's κ between the arms' per-item outcomes (binary arms).
    pub kappa: Option<f64>,
    /// Holm-adjusted p over all contrasts (family-wise error).
    pub p_holm: f64,
    /// Benjamini–Hochberg adjusted p over all contrasts (false discovery rate).
    pub p_bh: f64,
    /// p_holm < alpha.
    pub significant: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MeanRank {
    pub arm: String,
    pub mean_rank: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VsControl {
    pub arm: String,
    pub rank_diff: f64,
    pub significant: bool,
}

/// The omnibus test and the critical-difference diagram's numbers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FriedmanRow {
    pub k: usize,
    pub n_blocks: usize,
    /// Demšar's χ²_F, no tie correction.
    pub chi2: f64,
    /// SciPy / R form, corrected for ties.
    pub chi2_tie_corrected: f64,
    pub p: f64,
    pub p_tie_corrected: f64,
    pub iman_davenport_f: Option<f64>,
    pub p_iman_davenport: Option<f64>,
    /// Mean rank per arm, 1 = best.
    pub mean_ranks: Vec<MeanRank>,
    pub alpha: f64,
    pub q_alpha: f64,
    /// Nemenyi critical difference.
    pub cd: f64,
    /// Groups of arms whose mean ranks are all within one CD (one bar each in the diagram).
    pub cliques: Vec<Vec<String>>,
    pub control: Option<String>,
    pub bonferroni_dunn_cd: Option<f64>,
    pub vs_control: Vec<VsControl>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    pub settings: CompareSettings,
    pub conventions: String,
    pub n_items: usize,
    pub arms: Vec<ArmRow>,
    pub pairs: Vec<PairRow>,
    pub friedman: Option<FriedmanRow>,
    /// Fleiss' κ across all arms (binary outcomes only): do the arms agree item by item?
    pub fleiss_kappa: Option<f64>,
    pub notes: Vec<String>,
    /// Contrasts within each value of the `per` column (empty without one).
    pub by_stratum: Vec<StratumComparison>,
    /// The cost of each arm per `--cost` column, and each `--matched` control against its arm.
    #[serde(default)]
    pub costs: Vec<CostComparison>,
    /// How often each system's judgments agree, where its items hold several verdicts
    /// ([`super::judges`]; set from the rows before pairing, empty otherwise).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub judges: Vec<super::judges::JudgeAgreement>,
}

/// The cost of the arms in one cost column (calls, tokens) on the compared items: each arm's
/// mean with its interval, and each stated compute-matched control against the arm it controls.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CostComparison {
    pub column: String,
    /// Per arm: `{arm, n, mean, ci_low, ci_high, …}` of the cost (as the arms table).
    pub arms: Vec<ArmRow>,
    pub matched: Vec<MatchedControl>,
    /// Why the costs could not be compared (a cost missing on some compared rows).
    pub note: Option<String>,
}

/// A compute-matched control and the arm it controls.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MatchedControl {
    pub control: String,
    pub arm: String,
    pub control_mean: f64,
    pub arm_mean: f64,
    /// control − arm, with the comparison's paired bootstrap interval.
    pub diff: f64,
    pub ci_low: f64,
    pub ci_high: f64,
    /// The interval excludes 0: the control does not match the arm's cost.
    pub differs: bool,
}

/// The comparison restricted to the items of one stratum.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StratumComparison {
    pub column: String,
    pub value: String,
    pub n_items: usize,
    pub arms: Vec<ArmRow>,
    pub pairs: Vec<PairRow>,
}

/// A pair's items from a's side, "better" as the settings say (higher, or lower).
fn better_of(settings: &CompareSettings, wins: usize, ties: usize, losses: usize) -> Tally {
    if settings.higher_is_better {
        Tally { better: wins, ties, worse: losses }
    } else {
        Tally { better: losses, ties, worse: wins }
    }
}

fn is_binary(v: &[f64]) -> bool {
    v.iter().all(|&x| x == 0.0 || x == 1.0)
}

fn interval(estimate: f64, replicates: &[f64], jackknife: &[f64], settings: &CompareSettings) -> Option<CiOutcome> {
    let confidence = 1.0 - settings.alpha;
    match settings.ci {
        CiMethod::Bca => bca_interval(estimate, replicates, jackknife, confidence, settings.z0),
        CiMethod::Percentile => {
            let (low, high) = percentile_interval(replicates, confidence)?;
            let degenerate = low == high && replicates.iter().all(|r| *r == low);
            Some(CiOutcome {
                low,
                high,
                method: if degenerate { "degenerate".into() } else { "percentile".into() },
                fallback: degenerate
                    .then(|| "all bootstrap resamples are equal: the interval is a single value".into()),
                z0: None,
                acceleration: None,
            })
        }
    }
}

/// One arm's row: its mean with the chosen bootstrap interval over `replicates` (Wilson's when
/// the bootstrap is degenerate on 0/1 values), and for 0/1 values the Wilson and
/// Clopper–Pearson intervals, for values in [0, 1] Hoeffding's half-width.
fn arm_row(
    name: &str,
    col: &[f64],
    replicates: &[f64],
    jackknife: &[f64],
    mean_rank: Option<f64>,
    settings: &CompareSettings,
) -> Result<ArmRow> {
    let n = col.len();
    let m = mean(col);
    let binary = is_binary(col);
    let successes = binary.then(|| col.iter().sum::<f64>());
    let confidence = 1.0 - settings.alpha;
    let wilson = successes.and_then(|s| proportions::wilson_interval(s, n as f64, confidence));
    let cp = successes.and_then(|s| proportions::clopper_pearson_interval(s as u64, n as u64, confidence));
    let mut ci = interval(m, replicates, jackknife, settings).ok_or_else(|| Error::Empty("no resamples".into()))?;
    if ci.method == "degenerate" && settings.quantities {
        ci.fallback = Some("every item has the same value: a constant, its interval is [c, c]".into());
    } else if let Some(w) = wilson.filter(|_| ci.method == "degenerate") {
        ci = CiOutcome {
            low: w.low,
            high: w.high,
            method: "wilson".into(),
            fallback: Some("bootstrap degenerate (every item has the same value): Wilson score interval".into()),
            z0: None,
            acceleration: None,
        };
    }
    let bounded = col.iter().all(|v| (0.0..=1.0).contains(v));
    Ok(ArmRow {
        arm: name.to_string(),
        group: None,
        n,
        mean: m,
        ci_low: ci.low,
        ci_high: ci.high,
        ci_method: ci.method,
        ci_note: ci.fallback,
        binary,
        successes,
        wilson_low: wilson.map(|w| w.low),
        wilson_high: wilson.map(|w| w.high),
        clopper_pearson_low: cp.map(|c| c.low),
        clopper_pearson_high: cp.map(|c| c.high),
        hoeffding_half_width: if bounded { proportions::hoeffding_half_width(n as f64, settings.alpha) } else { None },
        mean_rank,
        win_rate: None,
        copeland: None,
    })
}

/// Each arm on its own, without pairing (given with a refused pairing).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UnpairedArms {
    /// What the value is, in words.
    pub value: String,
    /// One row per arm with at least two values (`mean_rank` is absent).
    pub arms: Vec<ArmRow>,
    /// Arms with fewer than two values (no interval), with their number of values.
    pub too_few: Vec<(String, usize)>,
    /// Rows without a value, per arm (only arms that have some).
    pub missing: Vec<(String, usize)>,
    /// The resampling and interval settings, in words.
    pub settings: String,
    /// How often each system's judgments agree, where its items hold several verdicts
    /// ([`super::judges`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub judges: Vec<super::judges::JudgeAgreement>,
}

impl ArmRow {
    /// The arm, and its group after a `·` when the row is about one ([`crate::outcomes::group_label`]).
    pub fn label(&self) -> String {
        crate::outcomes::group_label(&self.arm, self.group.as_deref())
    }
}

impl UnpairedArms {
    /// The arm, when every row is of one arm (one system's file): nothing to compare, and the
    /// summary on its own is the result.
    pub fn one_arm(&self) -> Option<&str> {
        let first = self.arms.first()?;
        self.arms.iter().all(|a| a.arm == first.arm).then_some(first.arm.as_str())
    }
}

/// Each arm on its own, without pairing: every value one observation, the arm's own i.i.d.
/// bootstrap (same resamples, seed and interval method as the paired run), Wilson and
/// Clopper–Pearson for 0/1 values. No contrast is drawn: arms observed on different items
/// cannot be compared item by item. Arms with fewer than two values are listed, not estimated.
pub fn unpaired_arms(values: &crate::outcomes::UnpairedValues, settings: &CompareSettings) -> Result<UnpairedArms> {
    settings.validate()?;
    let mut arms = Vec::with_capacity(values.arms.len());
    let mut too_few = Vec::new();
    for a in &values.arms {
        if a.values.len() < 2 {
            too_few.push((a.label(), a.values.len()));
            continue;
        }
        let mut resampler = Resampler::new(settings.bootstrap, settings.seed);
        let replicates = resampler.means_under(&[a.values.as_slice()], &Scheme::Iid).remove(0);
        let jackknife = Resampler::jackknife(&a.values, &Scheme::Iid);
        let row = arm_row(&a.arm, &a.values, &replicates, &jackknife, None, settings)?;
        arms.push(ArmRow { group: a.group.clone(), ..row });
    }
    Ok(UnpairedArms {
        value: values.value.clone(),
        arms,
        too_few,
        missing: values.arms.iter().filter(|a| a.missing > 0).map(|a| (a.label(), a.missing)).collect(),
        settings: format!(
            "every row one observation of its arm; {:.0}% intervals, {} {} resamples per arm (seed {})",
            100.0 * (1.0 - settings.alpha),
            settings.bootstrap,
            if settings.ci == CiMethod::Bca { "BCa" } else { "percentile" },
            settings.seed
        ),
        judges: Vec::new(),
    })
}

fn mean(v: &[f64]) -> f64 {
    if v.is_empty() { f64::NAN } else { v.iter().sum::<f64>() / v.len() as f64 }
}

/// Dense labels for the resampling column.
fn scheme_for(input: &CompareInput, settings: &CompareSettings) -> Result<Scheme> {
    let labels = |column: &str| -> Result<Vec<u32>> {
        let groups = input
            .groups
            .as_ref()
            .ok_or_else(|| Error::setting("resampling", format!("column `{column}` has no value per item")))?;
        let mut ids: std::collections::BTreeMap<&str, u32> = Default::default();
        Ok(groups
            .iter()
            .map(|g| {
                let next = ids.len() as u32;
                *ids.entry(g.as_str()).or_insert(next)
            })
            .collect())
    };
    Ok(match &settings.resampling {
        Resampling::Iid => Scheme::Iid,
        Resampling::Stratified(c) => Scheme::Stratified(labels(c)?),
        Resampling::Cluster(c) => Scheme::Cluster(labels(c)?),
    })
}

/// Runs the whole comparison. `progress(stage, fraction)` is called along the way.
/// The most steps the contrasts may take: every pair of arms has a bootstrap interval (a sort of
/// its resampled differences) and a sign-flip test (resamples × items), about
/// pairs × resamples × (items + 14) steps — 2.7 × 10¹¹ for 1,000 arms × 40 items took 143 s
/// here. 3 × 10¹⁰ is about 16 s.
pub const MAX_CONTRAST_WORK: u64 = 30_000_000_000;

/// Refuses, before any resampling, contrasts that would take more than [`MAX_CONTRAST_WORK`]
/// steps, saying what to lower.
fn check_contrast_work(arms: usize, items: usize, resamples: usize) -> Result<()> {
    check_contrasts_of_strata(arms, items, 1, resamples)
}

/// [`check_contrast_work`] of `strata` comparisons over `items` in all (each stratum its own
/// contrasts, so each adds the fixed cost of its intervals).
fn check_contrasts_of_strata(arms: usize, items: usize, strata: usize, resamples: usize) -> Result<()> {
    let pairs = (arms as u64).saturating_mul(arms.saturating_sub(1) as u64) / 2;
    let per_resample = pairs.saturating_mul((items as u64).saturating_add(14u64.saturating_mul(strata as u64)));
    let work = per_resample.saturating_mul(resamples as u64);
    if work <= MAX_CONTRAST_WORK {
        return Ok(());
    }
    let fits = MAX_CONTRAST_WORK / per_resample.max(1);
    let lower = if fits >= 100 {
        format!(
            "lower {} to {fits} or fewer, or keep fewer arms ({})",
            crate::fields::mention("bootstrap"),
            crate::fields::mention("filter")
        )
    } else {
        format!(
            "keep fewer arms ({}): even 100 resamples are too many for this many contrasts",
            crate::fields::mention("filter")
        )
    };
    Err(Error::setting(
        "bootstrap",
        format!(
            "{arms} arms make {pairs} contrasts; with {items} items and {resamples} resamples (each contrast's \
             interval and sign-flip test) that is about {work} steps, more than the {MAX_CONTRAST_WORK} taken here: \
             {lower}"
        ),
    ))
}

/// The arm a setting names: the arm of that name, else the only arm with `given` as one of the
/// `/`-separated parts of its name (`raw` for `run1/raw` when no other arm ends or starts so).
/// Several such arms, or none, are refused with the arms listed.
fn named_arm(field: &str, given: &str, arms: &[String]) -> Result<String> {
    if arms.iter().any(|a| a == given) {
        return Ok(given.to_string());
    }
    let parts: Vec<&String> = arms.iter().filter(|a| a.contains('/') && a.split('/').any(|p| p == given)).collect();
    match parts.as_slice() {
        [one] => Ok((*one).clone()),
        [] => Err(Error::setting(field, format!("no arm named `{given}` (arms: {})", some_of(arms, 20)))),
        many => Err(Error::setting(
            field,
            format!(
                "`{given}` is part of {} arms' names ({}): name one of them whole",
                many.len(),
                some_of(&many.iter().map(|a| a.as_str()).collect::<Vec<_>>(), 20)
            ),
        )),
    }
}

/// Why `items` (those observed in every arm) are too few for a paired comparison, if they are.
pub fn too_few_items(items: &[String]) -> Option<String> {
    match items {
        [] => Some("no item is observed in every arm".into()),
        [one] => Some(format!(
            "one item (`{one}`) is observed in every arm: a paired comparison needs at least two (check the key \
             columns — is every row its own item, or do the arms share almost no item?)"
        )),
        _ => None,
    }
}

pub fn compare(
    input: &CompareInput,
    settings: &CompareSettings,
    progress: &mut dyn FnMut(&str, f64),
) -> Result<Comparison> {
    settings.validate()?;
    let k = input.arms.len();
    let n = input.items.len();
    if k < 2 {
        return Err(Error::Empty(format!("a comparison needs at least two arms (found {k})")));
    }
    if let Some(message) = too_few_items(&input.items) {
        return Err(Error::Empty(message));
    }
    if input.values.iter().any(|row| row.len() != k || row.iter().any(|v| !v.is_finite())) {
        return Err(Error::Empty("every item needs one finite value per arm".into()));
    }
    // The overall contrasts, and those of every stratum when asked: refused before any work.
    match (&settings.per, &input.per) {
        (Some(_), Some(labels)) => {
            let strata = crate::distinct::first_seen(labels.iter()).len();
            check_contrasts_of_strata(k, 2 * n, strata + 1, settings.bootstrap)?;
        }
        _ => check_contrast_work(k, n, settings.bootstrap)?,
    }
    let columns: Vec<Vec<f64>> = (0..k).map(|j| input.values.iter().map(|row| row[j]).collect()).collect();
    let scheme = scheme_for(input, settings)?;
    let mut notes = Vec::new();
    let first = input.values[0][0];
    if input.values.iter().all(|row| row.iter().all(|&v| v == first)) {
        notes.push(format!(
            "every value of every arm is {first}: the arms cannot differ, and no test can say anything — is the \
             value column an outcome (not a constant such as a config flag)?"
        ));
    }
    // Arms named by a setting: exactly, or by the one arm a short name stands for.
    let mut named = settings.clone();
    for (field, slot) in
        [("control", &mut named.control), ("reference", &mut named.reference), ("baseline", &mut named.baseline)]
    {
        if let Some(given) = slot.as_mut() {
            let arm = named_arm(field, given, &input.arms)?;
            if arm != *given {
                notes.push(format!(
                    "{field} `{given}` is the arm `{arm}`, the only arm whose name has `{given}` as a part"
                ));
                *given = arm;
            }
        }
    }
    let settings = &named;

    // One resampling for all arms.
    progress("bootstrap", 0.0);
    // Every arm in one call: the resamples are drawn once for all of them, also when they are
    // too many to cache (each arm's means are those it would have alone, bit for bit).
    let mut resampler = Resampler::new(settings.bootstrap, settings.seed);
    let column_refs: Vec<&[f64]> = columns.iter().map(Vec::as_slice).collect();
    let replicates: Vec<Vec<f64>> = resampler.means_under(&column_refs, &scheme);
    progress("bootstrap", 0.6);
    let jackknife: Vec<Vec<f64>> = columns.iter().map(|c| Resampler::jackknife(c, &scheme)).collect();

    // Friedman on items as blocks.
    let fr = friedman::friedman(&input.values, settings.higher_is_better);

    // Arms.
    let mut arms = Vec::with_capacity(k);
    for j in 0..k {
        let mean_rank = fr.as_ref().map(|f| f.mean_ranks[j]);
        arms.push(arm_row(&input.arms[j], &columns[j], &replicates[j], &jackknife[j], mean_rank, settings)?);
    }
    progress("contrasts", 0.7);

    // Contrasts.
    let mut pairs = Vec::new();
    // Contrasts a − b in arm order; with a reference arm, every contrast with it reads
    // other − reference.
    let reference = settings.reference.as_ref().and_then(|r| input.arms.iter().position(|a| a == r));
    let mut order = Vec::with_capacity(k * k.saturating_sub(1) / 2);
    for i in 0..k {
        for j in i + 1..k {
            order.push(if Some(i) == reference { (j, i) } else { (i, j) });
        }
    }
    // P(superiority) depends on the two arms' successes only: with many arms over few items the
    // same pairs of counts come back (1,000 arms × 40 items: 499,500 contrasts, at most 41²
    // counts), and each is an adaptive integral. Each is computed once.
    let mut superiority: rustc_hash::FxHashMap<(u64, u64), Option<f64>> = Default::default();
    // Each pair's items from a's side, for the tournament below (by arm index, as they are drawn).
    let mut tallies: Vec<(usize, usize, Tally)> = Vec::with_capacity(order.len());
    for (i, j) in order {
        {
            let (a, b) = (&columns[i], &columns[j]);
            let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
            let reps: Vec<f64> = replicates[i].iter().zip(&replicates[j]).map(|(x, y)| x - y).collect();
            let jk: Vec<f64> = jackknife[i].iter().zip(&jackknife[j]).map(|(x, y)| x - y).collect();
            let diff = mean(a) - mean(b);
            let ci = interval(diff, &reps, &jk, settings).ok_or_else(|| Error::Empty("no resamples".into()))?;
            let binary = arms[i].binary && arms[j].binary;
            let wins = d.iter().filter(|x| **x > 0.0).count();
            let losses = d.iter().filter(|x| **x < 0.0).count();
            let (b_count, c_count) = if binary { (Some(wins as u64), Some(losses as u64)) } else { (None, None) };
            let tally = better_of(settings, wins, d.len() - wins - losses, losses);
            tallies.push((i, j, tally));
            let mc = binary.then(|| mcnemar::mcnemar(wins as u64, losses as u64));
            let wx = wilcoxon::wilcoxon_signed_rank(&d);
            let flip = permutation::sign_flip_test(&d, settings.bootstrap, settings.seed);
            let (test, p_value) = match (&mc, &wx) {
                (Some(m), _) => (PairedTest::McNemarExact, m.exact_p),
                (None, Some(w)) => (PairedTest::WilcoxonSignedRank, w.p),
                (None, None) => (PairedTest::WilcoxonSignedRank, 1.0),
            };
            let (sa, sb) = (arms[i].successes, arms[j].successes);
            let nf = n as f64;
            let z = match (sa, sb) {
                (Some(x1), Some(x2)) => proportions::two_proportion_z(x1, nf, x2, nf),
                _ => None,
            };
            pairs.push(PairRow {
                a: input.arms[i].clone(),
                b: input.arms[j].clone(),
                n_pairs: n,
                mean_a: mean(a),
                mean_b: mean(b),
                diff,
                ci_low: ci.low,
                ci_high: ci.high,
                ci_method: ci.method,
                ci_note: ci.fallback,
                b_count,
                c_count,
                wins,
                ties: n - wins - losses,
                losses,
                win_rate: tally.win_rate(),
                test,
                p_value,
                mcnemar_p: mc.map(|m| m.exact_p),
                mcnemar_mid_p: mc.and_then(|m| m.mid_p),
                wilcoxon_p: wx.map(|w| w.p),
                permutation_p: flip.as_ref().map(|f| f.p),
                permutation_method: flip.as_ref().map(permutation::SignFlip::describe),
                interaction_expected: None,
                interaction_p_greater: None,
                interaction_p_less: None,
                interaction_exact: None,
                cohen_h: binary.then(|| proportions::cohens_h(mean(a), mean(b))),
                cohen_h_label: binary
                    .then(|| proportions::cohens_h_label(proportions::cohens_h(mean(a), mean(b))).into()),
                p_superiority: match (sa, sb) {
                    (Some(x1), Some(x2)) => *superiority
                        .entry((x1.to_bits(), x2.to_bits()))
                        .or_insert_with(|| posterior::posterior_superiority(x1, nf, x2, nf)),
                    _ => None,
                },
                z_two_proportion: z.map(|t| t.z),
                p_two_proportion: z.map(|t| t.p),
                spearman: correlation::spearman(a, b),
                kappa: if binary {
                    agreement::cohens_kappa(&as_labels(a), &as_labels(b)).map(|k| k.kappa)
                } else {
                    None
                },
                p_holm: f64::NAN,
                p_bh: f64::NAN,
                significant: false,
            });
        }
    }
    // The tournament: each arm's mean win rate and Copeland score over the pairs.
    if k > 1 {
        for (arm, s) in arms.iter_mut().zip(tournament::standings(k, &tallies)) {
            arm.win_rate = s.mean_win_rate;
            arm.copeland = Some(s.copeland);
        }
    }
    let ps: Vec<f64> = pairs.iter().map(|p| p.p_value).collect();
    for ((p, h), bh) in pairs.iter_mut().zip(multiplicity::holm(&ps)).zip(multiplicity::benjamini_hochberg(&ps)) {
        p.p_holm = h;
        p.p_bh = bh;
        p.significant = h < settings.alpha;
    }
    progress("omnibus", 0.9);

    let friedman = match fr {
        Some(f) => {
            let q = nemenyi::nemenyi_q(k, settings.alpha);
            let cd = nemenyi::critical_difference(k, f.n_blocks, settings.alpha);
            match (q, cd) {
                (Some(q_alpha), Some(cd)) => {
                    let cliques = nemenyi::cliques(&f.mean_ranks, cd)
                        .into_iter()
                        .map(|c| c.arms.iter().map(|&a| input.arms[a].clone()).collect())
                        .collect();
                    let control = settings.control.as_ref().and_then(|c| input.arms.iter().position(|a| a == c));
                    let bd = control.and_then(|_| nemenyi::bonferroni_dunn_cd(k, f.n_blocks, settings.alpha));
                    let vs_control = match (control, bd) {
                        (Some(c), Some(bd)) => (0..k)
                            .filter(|&j| j != c)
                            .map(|j| {
                                let rd = f.mean_ranks[j] - f.mean_ranks[c];
                                VsControl { arm: input.arms[j].clone(), rank_diff: rd, significant: rd.abs() >= bd }
                            })
                            .collect(),
                        _ => Vec::new(),
                    };
                    Some(FriedmanRow {
                        k,
                        n_blocks: f.n_blocks,
                        chi2: f.chi2,
                        chi2_tie_corrected: f.chi2_tie_corrected,
                        p: f.p,
                        p_tie_corrected: f.p_tie_corrected,
                        iman_davenport_f: f.iman_davenport_f,
                        p_iman_davenport: f.p_iman_davenport,
                        mean_ranks: input
                            .arms
                            .iter()
                            .zip(&f.mean_ranks)
                            .map(|(a, r)| MeanRank { arm: a.clone(), mean_rank: *r })
                            .collect(),
                        alpha: settings.alpha,
                        q_alpha,
                        cd,
                        cliques,
                        control: settings.control.clone(),
                        bonferroni_dunn_cd: bd,
                        vs_control,
                    })
                }
                _ => None,
            }
        }
        None => None,
    };

    let fleiss_kappa = if arms.iter().all(|a| a.binary) {
        let counts: Vec<Vec<f64>> = input
            .values
            .iter()
            .map(|row| {
                let ones = row.iter().filter(|v| **v == 1.0).count() as f64;
                vec![ones, k as f64 - ones]
            })
            .collect();
        agreement::fleiss_kappa(&counts).map(|k| k.kappa)
    } else {
        None
    };
    if arms.iter().any(|a| a.binary) && arms.iter().any(|a| !a.binary) {
        notes.push(
            "some arms are binary and some are not: McNemar and Cohen's h are given only for binary pairs".into(),
        );
    }
    let by_stratum = match (&settings.per, &input.per) {
        (Some(column), Some(labels)) => {
            let mut strata = by_stratum(input, settings, column, labels, progress)?;
            localize(&mut strata, &pairs, n as u64);
            strata
        }
        (Some(column), None) => {
            return Err(Error::setting("per", format!("column `{column}` has no value per item")));
        }
        _ => Vec::new(),
    };
    progress("done", 1.0);
    Ok(Comparison {
        settings: settings.clone(),
        conventions: settings.describe(),
        n_items: n,
        arms,
        pairs,
        friedman,
        fleiss_kappa,
        notes,
        by_stratum,
        costs: Vec::new(),
        judges: Vec::new(),
    })
}

/// Runs the comparison on each stratum's items (values in sorted order). A stratum with a
/// single item or a single value everywhere still gets its rows (intervals may be degenerate).
fn by_stratum(
    input: &CompareInput,
    settings: &CompareSettings,
    column: &str,
    labels: &[String],
    progress: &mut dyn FnMut(&str, f64),
) -> Result<Vec<StratumComparison>> {
    // Each stratum's items, gathered in one pass; strata in sorted order.
    let mut strata = crate::distinct::groups_first_seen(0..input.items.len(), |&i| &labels[i]);
    strata.sort_by(|a, b| a.0.cmp(b.0));
    let values: Vec<&String> = strata.iter().map(|(v, _)| *v).collect();
    let inner = CompareSettings { per: None, ..settings.clone() };
    let mut out = Vec::with_capacity(values.len());
    for (vi, (v, keep)) in strata.iter().enumerate() {
        let sub = CompareInput {
            arms: input.arms.clone(),
            items: keep.iter().map(|&i| input.items[i].clone()).collect(),
            values: keep.iter().map(|&i| input.values[i].clone()).collect(),
            groups: input.groups.as_ref().map(|g| keep.iter().map(|&i| g[i].clone()).collect()),
            per: None,
        };
        let c = compare(&sub, &inner, &mut |_, _| {})?;
        progress(&format!("stratum {column} = {v}"), 0.9 + 0.1 * (vi + 1) as f64 / values.len() as f64);
        out.push(StratumComparison {
            column: column.to_string(),
            value: (*v).clone(),
            n_items: c.n_items,
            arms: c.arms,
            pairs: c.pairs,
        });
    }
    Ok(out)
}

/// For 0/1 arms, where each contrast's helps and hurts fall: in each stratum, S = helps − hurts
/// against random strata of the same size (the subset-sum randomization test).
fn localize(strata: &mut [StratumComparison], overall: &[PairRow], n: u64) {
    let of_pair: std::collections::HashMap<(&str, &str), &PairRow> =
        overall.iter().rev().map(|o| ((o.a.as_str(), o.b.as_str()), o)).collect();
    for s in strata.iter_mut() {
        for p in s.pairs.iter_mut() {
            let Some(all) = of_pair.get(&(p.a.as_str(), p.b.as_str())).copied() else { continue };
            if let (Some(plus), Some(minus), Some(b), Some(c)) = (all.b_count, all.c_count, p.b_count, p.c_count)
                && let Some(t) = permutation::subset_sum_test(n, plus, minus, s.n_items as u64, b as i64 - c as i64)
            {
                p.interaction_expected = Some(t.expected);
                p.interaction_p_greater = Some(t.greater);
                p.interaction_p_less = Some(t.less);
                p.interaction_exact = Some(t.exact);
            }
        }
    }
}

fn as_labels(v: &[f64]) -> Vec<u8> {
    v.iter().map(|x| u8::from(*x == 1.0)).collect()
}

/// One item behind a contrast (for the viewer's click-through and the CLI).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairItem {
    pub item: String,
    pub a: f64,
    pub b: f64,
    pub diff: f64,
    pub group: Option<String>,
}

/// The items behind the contrast of arms `a` and `b`, largest |difference| first.
pub fn items_for_pair(input: &CompareInput, a: usize, b: usize) -> Vec<PairItem> {
    let mut out: Vec<PairItem> = input
        .items
        .iter()
        .enumerate()
        .filter_map(|(i, item)| {
            let row = input.values.get(i)?;
            let (x, y) = (*row.get(a)?, *row.get(b)?);
            Some(PairItem {
                item: item.clone(),
                a: x,
                b: y,
                diff: x - y,
                group: input.groups.as_ref().and_then(|g| g.get(i).cloned()),
            })
        })
        .collect();
    out.sort_by(|p, q| q.diff.abs().total_cmp(&p.diff.abs()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(arms: &[&str], cols: &[&[f64]]) -> CompareInput {
        let n = cols[0].len();
        CompareInput {
            arms: arms.iter().map(|s| s.to_string()).collect(),
            items: (0..n).map(|i| format!("item{i}")).collect(),
            values: (0..n).map(|i| cols.iter().map(|c| c[i]).collect()).collect(),
            groups: None,
            per: None,
        }
    }

    #[test]
    fn binary_pair_ledger_and_tests() {
        // conventions.md §3.6 paired example: A − B = 0.25 on 12 items, b = 3, c = 0
        let a = [1.0, 1.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0];
        let b = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0];
        let s = CompareSettings { bootstrap: 2000, ..Default::default() };
        let c = compare(&input(&["A", "B"], &[&a, &b]), &s, &mut |_, _| {}).unwrap();
        let p = &c.pairs[0];
        assert_eq!((p.b_count, p.c_count), (Some(3), Some(0)));
        assert!((p.diff - 0.25).abs() < 1e-15);
        assert_eq!(p.test, PairedTest::McNemarExact);
        assert!((p.mcnemar_p.unwrap() - 0.25).abs() < 1e-12, "2·(1/2)^3");
        assert!((p.cohen_h.unwrap() - proportions::cohens_h(8.0 / 12.0, 5.0 / 12.0)).abs() < 1e-15);
        assert!(p.ci_low <= p.diff && p.diff <= p.ci_high);
        assert_eq!(p.p_holm, p.p_value, "one contrast: Holm changes nothing");
        assert!(c.arms[0].wilson_low.is_some());
        let f = c.friedman.unwrap();
        assert_eq!(f.k, 2);
        assert!(f.mean_ranks[0].mean_rank < f.mean_ranks[1].mean_rank, "A ranks better");
    }

    #[test]
    fn swapping_arms_negates_differences() {
        let a = [0.2, 0.5, 0.9, 0.4, 0.7, 0.1, 0.3, 0.8];
        let b = [0.1, 0.5, 0.6, 0.5, 0.2, 0.1, 0.35, 0.4];
        let s = CompareSettings { bootstrap: 1000, ci: CiMethod::Percentile, ..Default::default() };
        let ab = compare(&input(&["a", "b"], &[&a, &b]), &s, &mut |_, _| {}).unwrap();
        let ba = compare(&input(&["b", "a"], &[&b, &a]), &s, &mut |_, _| {}).unwrap();
        let (x, y) = (&ab.pairs[0], &ba.pairs[0]);
        assert!((x.diff + y.diff).abs() < 1e-15);
        assert!((x.ci_low + y.ci_high).abs() < 1e-12 && (x.ci_high + y.ci_low).abs() < 1e-12);
        assert_eq!(x.p_value, y.p_value);
        assert_eq!((x.wins, x.losses), (y.losses, y.wins));
        assert_eq!(x.test, PairedTest::WilcoxonSignedRank);
    }

    #[test]
    fn degenerate_arm_falls_back_to_wilson() {
        let a = [1.0; 40];
        let mut b = [1.0; 40];
        for v in b.iter_mut().take(13) {
            *v = 0.0;
        }
        let c = compare(&input(&["brief", "dense"], &[&a, &b]), &CompareSettings::default(), &mut |_, _| {}).unwrap();
        assert_eq!(c.arms[0].ci_method, "wilson");
        assert!(c.arms[0].ci_note.as_ref().unwrap().contains("degenerate"));
        // seed-002 §2.6: forced b = 13, c = 0 → exact p = 2^-12
        assert!((c.pairs[0].mcnemar_p.unwrap() - 2f64.powi(-12)).abs() < 1e-15);
        // the paired difference is not degenerate: BCa works
        assert_eq!(c.pairs[0].ci_method, "bca");
    }

    #[test]
    fn contrasts_within_strata() {
        let a = [1.0, 1.0, 1.0, 0.0, 1.0, 0.0];
        let b = [0.0, 0.0, 1.0, 0.0, 1.0, 1.0];
        let mut inp = input(&["a", "b"], &[&a, &b]);
        inp.per = Some(["x", "x", "x", "y", "y", "y"].iter().map(|s| s.to_string()).collect());
        let s = CompareSettings { bootstrap: 500, per: Some("part".into()), ..Default::default() };
        let c = compare(&inp, &s, &mut |_, _| {}).unwrap();
        assert_eq!(c.by_stratum.len(), 2);
        let (x, y) = (&c.by_stratum[0], &c.by_stratum[1]);
        assert_eq!((x.value.as_str(), x.n_items, y.value.as_str()), ("x", 3, "y"));
        assert!((x.pairs[0].diff - 2.0 / 3.0).abs() < 1e-12);
        assert!((y.pairs[0].diff + 1.0 / 3.0).abs() < 1e-12);
        assert!((c.pairs[0].diff - 1.0 / 6.0).abs() < 1e-12, "pooled");
        let no_labels = CompareSettings { per: Some("part".into()), ..Default::default() };
        assert!(compare(&input(&["a", "b"], &[&a, &b]), &no_labels, &mut |_, _| {}).is_err());
    }

    #[test]
    fn a_short_name_stands_for_the_only_arm_it_is_part_of() {
        let arms: Vec<String> = ["r1/raw", "r1/source", "r1/canonical"].iter().map(|s| s.to_string()).collect();
        assert_eq!(super::named_arm("reference", "raw", &arms).unwrap(), "r1/raw");
        assert_eq!(super::named_arm("reference", "r1/source", &arms).unwrap(), "r1/source");
        let e = super::named_arm("reference", "r1", &arms).unwrap_err().to_string();
        assert!(e.contains("`r1` is part of 3 arms' names"), "{e}");
        let e = super::named_arm("reference", "ndcg", &arms).unwrap_err().to_string();
        assert!(e.contains("no arm named `ndcg`"), "{e}");
        // Through a comparison: the note says which arm was taken, the contrasts read − r1/raw.
        let inp = input(&["r1/raw", "r1/source"], &[&[0.0, 1.0, 1.0, 0.0], &[1.0, 1.0, 1.0, 0.0]]);
        let s = CompareSettings { reference: Some("raw".into()), bootstrap: 200, ..CompareSettings::default() };
        let c = compare(&inp, &s, &mut |_, _| {}).unwrap();
        assert!(c.notes.iter().any(|n| n.contains("reference `raw` is the arm `r1/raw`")), "{:?}", c.notes);
        assert_eq!((c.pairs[0].a.as_str(), c.pairs[0].b.as_str()), ("r1/source", "r1/raw"));
    }

    #[test]
    fn contrasts_beyond_the_work_budget_are_refused_before_resampling() {
        // 300 arms × 40 items at 10,000 resamples: 44,850 × 54 × 10,000 ≈ 2.4 × 10¹⁰ steps, taken.
        assert!(super::check_contrast_work(300, 40, 10_000).is_ok());
        // 1,000 arms: 499,500 × 54 × 10,000 ≈ 2.7 × 10¹¹, refused with the resamples that fit.
        let e = super::check_contrast_work(1000, 40, 10_000).unwrap_err().to_string();
        assert!(e.contains("1000 arms make 499500 contrasts") && e.contains("to 1112 or fewer"), "{e}");
        // So many arms that no resampling fits: fewer arms is the only way.
        let e = super::check_contrast_work(10_000, 40, 100).unwrap_err().to_string();
        assert!(e.contains("even 100 resamples are too many"), "{e}");
    }

    #[test]
    fn errors_are_values() {
        let s = CompareSettings::default();
        assert!(compare(&input(&["a"], &[&[1.0]]), &s, &mut |_, _| {}).is_err());
        let bad = CompareSettings { control: Some("zzz".into()), ..Default::default() };
        let e = compare(&input(&["a", "b"], &[&[1.0, 0.0], &[0.0, 1.0]]), &bad, &mut |_, _| {}).unwrap_err();
        assert!(e.to_string().contains("control"), "{e}");
        let bad = CompareSettings { resampling: Resampling::Cluster("task".into()), ..Default::default() };
        assert!(compare(&input(&["a", "b"], &[&[1.0, 0.0], &[0.0, 1.0]]), &bad, &mut |_, _| {}).is_err());
        // One item is refused: nothing can be paired on one observation.
        let e = compare(&input(&["a", "b"], &[&[1.0], &[0.0]]), &s, &mut |_, _| {}).unwrap_err();
        assert!(e.to_string().contains("one item"), "{e}");
    }
}
