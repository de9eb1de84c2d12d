//! The routing and calibration statistics of [`super::read::Routed`] items.
//!
//! * **Ledger** (TAG §4): help = wrong without memory and right with it, hurt = the reverse;
//!   Δacc = (help − hurt)/n, per population (all, applied, not applied).
//! * **AUC of the confidence for help vs hurt** (TAG Tables 8–9): Mann–Whitney with ties ½,
//!   DeLong interval ([`crate::stats::roc::auc_delong`]); helps are the positives.
//! * **Accuracy per confidence bin**: equal-count bins of the confidence (ties kept together),
//!   accuracy without and with memory with Wilson intervals.
//! * **Threshold sweep** (TAG Table 10): τ at the 0th, 5th, …, 100th percentile of the
//!   confidence (type-7 quantile); routed = c < τ (or c ≥ τ); inject fraction and the accuracy
//!   of "memory's outcome when routed, else the baseline's".
//! * **Calibration** (TAG Table 11): ECE (equal-width bins), Brier, log loss of the confidence
//!   as a probability (raw), and after Platt scaling fitted on the `fit` split values and scored
//!   on every other split — never on the split it was fitted on.

use serde::{Deserialize, Serialize};

use super::read::{Item, Reading, Routed};
use super::{AucPopulation, CalibrationRequest, Route, Scale};
use crate::error::{Error, Result};
use crate::ingest::table::Tally;
use crate::stats::calibration::{Platt, ReliabilityBin, brier_score, expected_calibration_error, log_loss, platt_fit};
use crate::stats::proportions::wilson_interval;
use crate::stats::quantile::quantile_sorted;
use crate::stats::roc::{Auc, auc_delong};

/// One population of the help/hurt ledger.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LedgerRow {
    /// `all`, `applied` or `not_applied`.
    pub population: String,
    pub n: usize,
    pub help: usize,
    pub hurt: usize,
    pub both_right: usize,
    pub both_wrong: usize,
    /// (help − hurt)/n.
    pub delta_accuracy: Option<f64>,
    pub accuracy_without: Option<f64>,
    pub accuracy_with: Option<f64>,
}

/// Accuracy in one confidence bin.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BinRow {
    pub bin: usize,
    pub confidence_low: f64,
    pub confidence_high: f64,
    pub n: usize,
    pub accuracy_without: f64,
    pub without_low: Option<f64>,
    pub without_high: Option<f64>,
    pub accuracy_with: Option<f64>,
    pub with_low: Option<f64>,
    pub with_high: Option<f64>,
    /// Share of the bin's items memory was applied to.
    pub applied_share: Option<f64>,
}

/// One routing threshold.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SweepRow {
    pub percentile: f64,
    pub tau: f64,
    pub inject_fraction: f64,
    pub accuracy: f64,
    /// accuracy − the accuracy without memory.
    pub delta: f64,
    pub help: usize,
    pub hurt: usize,
}

/// Calibration of one split under one method.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CalibrationRow {
    /// `raw` or `platt`.
    pub method: String,
    /// The split scored (`all` without a split column; `pooled: 1, 2` for the evaluation splits
    /// together, after the splits, when there are two or more: every split without `fit`, or the
    /// splits other than the fit ones).
    pub split: String,
    /// The row pools the evaluation splits.
    #[serde(default)]
    pub pooled: bool,
    pub n: usize,
    pub ece: Option<f64>,
    pub brier: Option<f64>,
    pub log_loss: Option<f64>,
    pub reliability: Vec<ReliabilityBin>,
}

/// The Platt fit, where it was fitted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlattFit {
    pub fit_on: Vec<String>,
    pub n: usize,
    pub a: f64,
    pub b: f64,
    pub iterations: usize,
}

/// Settings printed with every result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub scale: Scale,
    pub ece_bins: usize,
    pub accuracy_bins: usize,
    pub auc_population: AucPopulation,
    pub route: Route,
    pub confidence_level: f64,
    pub fit: Vec<String>,
    pub quantiles: String,
    /// Bank governance: δ, the radius, the splits giving evidence (empty: every row).
    #[serde(default)]
    pub retire_delta: Option<f64>,
    #[serde(default)]
    pub retire_radius: Option<super::governance::Radius>,
    #[serde(default)]
    pub governance_splits: Vec<String>,
}

/// Everything `memaudit calibration` reports.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CalibrationReport {
    pub settings: Settings,
    pub items: usize,
    pub readings: Vec<Reading>,
    pub missing: Tally,
    pub ledger: Vec<LedgerRow>,
    pub auc: Option<Auc>,
    /// Why there is no AUC (no with-memory outcome, no help or no hurt).
    pub auc_note: Option<String>,
    pub bins: Vec<BinRow>,
    pub sweep: Vec<SweepRow>,
    pub calibration: Vec<CalibrationRow>,
    pub platt: Option<PlattFit>,
    pub notes: Vec<String>,
    /// How the rows became cells: design columns pooled, the items each split holds, rows left
    /// out ([`crate::cells`]).
    #[serde(default)]
    pub populations: crate::cells::CellReport,
    /// Bank governance, when the rows name the entries they retrieved.
    #[serde(default)]
    pub governance: Option<super::governance::Governance>,
}

fn ledger(population: &str, items: &[&Item]) -> Option<LedgerRow> {
    let paired: Vec<(bool, bool)> = items.iter().filter_map(|it| Some((it.correct, it.with_memory?))).collect();
    if items.is_empty() {
        return None;
    }
    let count = |f: fn(&(bool, bool)) -> bool| paired.iter().filter(|x| f(x)).count();
    let (help, hurt) = (count(|p| !p.0 && p.1), count(|p| p.0 && !p.1));
    let n = paired.len();
    Some(LedgerRow {
        population: population.into(),
        n,
        help,
        hurt,
        both_right: count(|p| p.0 && p.1),
        both_wrong: count(|p| !p.0 && !p.1),
        delta_accuracy: (n > 0).then(|| (help as f64 - hurt as f64) / n as f64),
        accuracy_without: Some(items.iter().filter(|i| i.correct).count() as f64 / items.len() as f64),
        accuracy_with: (n > 0).then(|| paired.iter().filter(|p| p.1).count() as f64 / n as f64),
    })
}

fn share(k: usize, n: usize, level: f64) -> (Option<f64>, Option<f64>) {
    match wilson_interval(k as f64, n as f64, level) {
        Some(i) => (Some(i.low), Some(i.high)),
        None => (None, None),
    }
}

/// Equal-count bins of the items sorted by confidence; items with equal confidence stay in one
/// bin (a bin may then hold more than N/B).
fn accuracy_bins(items: &[&Item], bins: usize, level: f64) -> Vec<BinRow> {
    let mut sorted: Vec<&Item> = items.to_vec();
    sorted.sort_by(|a, b| a.confidence.total_cmp(&b.confidence));
    let n = sorted.len();
    let mut out = Vec::new();
    let mut start = 0;
    for b in 0..bins {
        if start >= n {
            break;
        }
        let mut end = ((b + 1) * n).div_ceil(bins).max(start + 1).min(n);
        while end < n && sorted[end].confidence == sorted[end - 1].confidence {
            end += 1;
        }
        let part = &sorted[start..end];
        let k = part.len();
        let right = part.iter().filter(|i| i.correct).count();
        let with: Vec<bool> = part.iter().filter_map(|i| i.with_memory).collect();
        let applied: Vec<bool> = part.iter().filter_map(|i| i.applied).collect();
        let (wl, wh) = share(right, k, level);
        let right_with = with.iter().filter(|x| **x).count();
        let (ml, mh) = if with.is_empty() { (None, None) } else { share(right_with, with.len(), level) };
        out.push(BinRow {
            bin: out.len() + 1,
            confidence_low: part[0].confidence,
            confidence_high: part[k - 1].confidence,
            n: k,
            accuracy_without: right as f64 / k as f64,
            without_low: wl,
            without_high: wh,
            accuracy_with: (!with.is_empty()).then(|| right_with as f64 / with.len() as f64),
            with_low: ml,
            with_high: mh,
            applied_share: (!applied.is_empty())
                .then(|| applied.iter().filter(|x| **x).count() as f64 / applied.len() as f64),
        });
        start = end;
    }
    out
}

fn sweep(items: &[&Item], route: Route) -> Vec<SweepRow> {
    if items.iter().any(|i| i.with_memory.is_none()) || items.is_empty() {
        return Vec::new();
    }
    let mut conf: Vec<f64> = items.iter().map(|i| i.confidence).collect();
    conf.sort_by(f64::total_cmp);
    let n = items.len() as f64;
    let base = items.iter().filter(|i| i.correct).count() as f64 / n;
    (0..=20)
        .map(|step| {
            let percentile = step as f64 * 5.0;
            let tau = quantile_sorted(&conf, percentile / 100.0);
            let routed = |i: &Item| match route {
                Route::Below => i.confidence < tau,
                Route::AtLeast => i.confidence >= tau,
            };
            let (mut injected, mut right, mut help, mut hurt) = (0usize, 0usize, 0usize, 0usize);
            for i in items {
                let with = i.with_memory.unwrap_or(i.correct);
                if routed(i) {
                    injected += 1;
                    right += usize::from(with);
                    help += usize::from(with && !i.correct);
                    hurt += usize::from(!with && i.correct);
                } else {
                    right += usize::from(i.correct);
                }
            }
            SweepRow {
                percentile,
                tau,
                inject_fraction: injected as f64 / n,
                accuracy: right as f64 / n,
                delta: right as f64 / n - base,
                help,
                hurt,
            }
        })
        .collect()
}

fn probability(scale: Scale, c: f64) -> Option<f64> {
    match scale {
        Scale::Probability => Some(c),
        Scale::Logprob => Some(c.exp()),
        Scale::Score => None,
    }
}

/// Splits named in a pooled row's name at most.
const NAMED_SPLITS: usize = 8;

/// The split name of the evaluation splits pooled (`pooled: 1, 2`; past eight splits, the first
/// eight and their number: `pooled: 1, 2, …, 8, … (60000 splits)`).
pub fn pooled_name(splits: &[&str]) -> String {
    if splits.len() <= NAMED_SPLITS {
        return format!("pooled: {}", splits.join(", "));
    }
    format!("pooled: {}, … ({} splits)", splits[..NAMED_SPLITS].join(", "), splits.len())
}

fn scored(method: &str, split: &str, p: &[f64], y: &[bool], bins: usize) -> CalibrationRow {
    let e = expected_calibration_error(p, y, bins);
    CalibrationRow {
        method: method.into(),
        split: split.into(),
        pooled: false,
        n: p.len(),
        ece: e.as_ref().map(|e| e.ece),
        brier: brier_score(p, y),
        log_loss: log_loss(p, y),
        reliability: e.map(|e| e.bins).unwrap_or_default(),
    }
}

/// Computes the report.
pub fn analyse(r: &Routed, q: &CalibrationRequest) -> Result<CalibrationReport> {
    let all: Vec<&Item> = r.items.iter().collect();
    let mut notes = Vec::new();
    let mut ledgers: Vec<LedgerRow> = ledger("all", &all).into_iter().collect();
    if all.iter().any(|i| i.applied.is_some()) {
        let applied: Vec<&Item> = all.iter().copied().filter(|i| i.applied == Some(true)).collect();
        let not: Vec<&Item> = all.iter().copied().filter(|i| i.applied == Some(false)).collect();
        ledgers.extend(ledger("applied", &applied));
        ledgers.extend(ledger("not_applied", &not));
    }
    // AUC of the confidence for help (positive) vs hurt (negative).
    let pool: Vec<&Item> = match q.auc_population {
        AucPopulation::All => all.clone(),
        AucPopulation::Applied => all.iter().copied().filter(|i| i.applied == Some(true)).collect(),
    };
    let helps: Vec<f64> =
        pool.iter().filter(|i| !i.correct && i.with_memory == Some(true)).map(|i| i.confidence).collect();
    let hurts: Vec<f64> =
        pool.iter().filter(|i| i.correct && i.with_memory == Some(false)).map(|i| i.confidence).collect();
    let auc = auc_delong(&helps, &hurts, q.confidence_level);
    let auc_note = match (&auc, all.iter().any(|i| i.with_memory.is_some())) {
        (Some(_), _) => None,
        (None, false) => Some("no outcome with memory: state which column says whether memory was used".to_string()),
        (None, true) => Some(format!("{} helped and {} hurt items: the AUC needs both", helps.len(), hurts.len())),
    };
    let bins = accuracy_bins(&all, q.accuracy_bins, q.confidence_level);
    let sweep = sweep(&all, q.route);
    if sweep.is_empty() && !all.is_empty() {
        notes.push("no threshold sweep: it needs the outcome with memory on every item".into());
    }
    // Calibration: raw, then Platt fitted on the fit split and scored elsewhere.
    let mut calibration = Vec::new();
    let splits: Vec<String> = crate::distinct::first_seen(all.iter().filter_map(|i| i.split.as_deref()))
        .into_iter()
        .map(String::from)
        .collect();
    let y_of = |items: &[&Item]| items.iter().map(|i| i.correct).collect::<Vec<bool>>();
    let mut pooled: Option<String> = None;
    let mut groups: Vec<(String, Vec<&Item>)> = if splits.is_empty() {
        vec![("all".into(), all.clone())]
    } else {
        crate::distinct::groups_first_seen(all.iter().copied().filter(|i| i.split.is_some()), |i| {
            i.split.clone().unwrap_or_default()
        })
    };
    // The evaluation splits (those Platt scaling is not fitted on) pooled into one more row, as
    // TAG pools its seeds 1 and 2: scored once over their items together, not averaged.
    let evaluated: Vec<&(String, Vec<&Item>)> = groups.iter().filter(|(g, _)| !q.fit.contains(g)).collect();
    if !splits.is_empty() && evaluated.len() >= 2 {
        let names: Vec<&str> = evaluated.iter().map(|(g, _)| g.as_str()).collect();
        let items: Vec<&Item> = evaluated.iter().flat_map(|(_, items)| items.iter().copied()).collect();
        let name = pooled_name(&names);
        pooled = Some(name.clone());
        groups.push((name, items));
    }
    let is_pooled = |name: &str| pooled.as_deref() == Some(name);
    if q.scale != Scale::Score {
        for (name, items) in &groups {
            let outside = items
                .iter()
                .find_map(|i| probability(q.scale, i.confidence).filter(|p| !(0.0..=1.0).contains(p)).map(|p| (i, p)));
            if let Some((item, bad)) = outside {
                return Err(Error::Ingest(crate::error::IngestError::new(
                    item.confidence_at.clone(),
                    format!(
                        "the confidence `{}` gives the probability {bad} under {scale} {}, outside [0, 1]: use {scale} \
                         logprob for log-probabilities or {scale} score for other scores",
                        item.confidence,
                        q.scale.name(),
                        scale = crate::fields::mention("scale")
                    ),
                )));
            }
            let p: Vec<f64> = items.iter().filter_map(|i| probability(q.scale, i.confidence)).collect();
            calibration
                .push(CalibrationRow { pooled: is_pooled(name), ..scored("raw", name, &p, &y_of(items), q.ece_bins) });
        }
    }
    let mut platt = None;
    if !q.fit.is_empty() {
        if splits.is_empty() {
            return Err(Error::setting(
                "fit",
                format!(
                    "Platt scaling needs a split column ({}) to fit on one split and score the others",
                    crate::fields::mention("split")
                ),
            ));
        }
        if let Some(f) = q.fit.iter().find(|f| !splits.contains(f)) {
            return Err(Error::setting(
                "fit",
                format!("split `{f}` is not in the split column (its values: {})", splits.join(", ")),
            ));
        }
        let fit_items: Vec<&Item> =
            all.iter().copied().filter(|i| i.split.as_ref().is_some_and(|s| q.fit.contains(s))).collect();
        let s: Vec<f64> = fit_items.iter().map(|i| i.confidence).collect();
        let fit: Platt = platt_fit(&s, &y_of(&fit_items)).ok_or_else(|| {
            Error::setting(
                "fit",
                format!(
                    "Platt scaling cannot be fitted on split {}: it needs both outcomes, a score that varies, and \
                     outcomes the score does not separate perfectly",
                    q.fit.join(", ")
                ),
            )
        })?;
        let scored_on: Vec<&(String, Vec<&Item>)> = groups.iter().filter(|(g, _)| !q.fit.contains(g)).collect();
        if scored_on.is_empty() {
            return Err(Error::setting("fit", "every split is a fit split: leave at least one split to score on"));
        }
        for (name, items) in scored_on {
            let p: Vec<f64> = items.iter().map(|i| fit.probability(i.confidence)).collect();
            calibration.push(CalibrationRow {
                pooled: is_pooled(name),
                ..scored("platt", name, &p, &y_of(items), q.ece_bins)
            });
        }
        platt = Some(PlattFit {
            fit_on: q.fit.clone(),
            n: fit_items.len(),
            a: fit.a,
            b: fit.b,
            iterations: fit.iterations,
        });
    }
    Ok(CalibrationReport {
        settings: Settings {
            scale: q.scale,
            ece_bins: q.ece_bins,
            accuracy_bins: q.accuracy_bins,
            auc_population: q.auc_population,
            route: q.route,
            confidence_level: q.confidence_level,
            fit: q.fit.clone(),
            quantiles: "type 7 (linear interpolation), percentiles 0, 5, …, 100 of the confidence".into(),
            retire_delta: Some(q.retire_delta),
            retire_radius: Some(q.retire_radius),
            governance_splits: q.governance_splits.clone(),
        },
        items: all.len(),
        readings: r.readings.clone(),
        missing: r.missing.clone(),
        ledger: ledgers,
        auc,
        auc_note,
        bins,
        sweep,
        calibration,
        platt,
        notes,
        populations: r.cells.clone(),
        governance: super::governance::govern(&all, &q.governance_splits, q.retire_delta, q.retire_radius),
    })
}

#[cfg(test)]
mod tests {
    use super::pooled_name;

    #[test]
    fn a_pooled_row_names_its_splits_up_to_eight() {
        assert_eq!(pooled_name(&["1", "2"]), "pooled: 1, 2");
        let many: Vec<String> = (0..60_000).map(|i| i.to_string()).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        assert_eq!(pooled_name(&many), "pooled: 0, 1, 2, 3, 4, 5, 6, 7, … (60000 splits)");
    }
}
