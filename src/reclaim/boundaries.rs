//! Boundary evidence of a reclaim study (Reclaim Evaluation §6–9, App. B, C, G; seed-003-004
//! §A1.5, §A4 Tables 7, 11, 12, 14, 15, §A6 items 2, 6–10): where a memory policy stops
//! reclaiming and how it fails.
//!
//! * **Failure modes** per cell (Table 7): recovered, inherited (a wrong answer equal to the
//!   stale value), novel (any other wrong answer) and abstained, each over the cell's n; the
//!   inherited share of the emissions with its own denominator (Table 17's "attr.").
//! * **Stored buckets** per cell (Table 11's completeness buckets `flagged_partial`,
//!   `silent_missum`, `other_wrong`, …; Table 7's `recov` / `inherit` / …): counts over the trials
//!   that carry one.
//! * **Sweeps** (Fig. 2–3, Tables 14–15): the reclaim rate against the store size `n` (size sweep)
//!   or the decoys (noise sweep) per (model, task, policy, arm, g, other design values), with the
//!   cell intervals; the **crossover** is the largest swept value whose rate exceeds ½
//!   (reclaim-eval `analyze_sizesweep.crossover`), `None` when none does.
//! * **Recompute certificate** (`analyze_certificate.py`): a note passes when it kept every item
//!   the answer is recomputed from — `k_items = n` on the size sweep, `all_kept` on the noise
//!   sweep — and is flagged otherwise; the reclaim rate with its interval on each side
//!   (the paper's mechanism split, k = N 0.88 vs k < N 0.00).
//! * **Invented numbers** (`confab_audit.py`): per memory (one per (seed, pid, policy): both arms
//!   share the note), the number strings `\d+(?:\.\d+)?` of `memory_text` that are not among the
//!   session's `src_nums`, compared as strings (no numeric normalisation, as the script); the
//!   share of memories with at least one and the mean count, with a bootstrap interval.
//! * **Cascade** (Table 12, App. G): per (model, task, policy, H, planted) the mean blast radius
//!   (hops 1..H with a wrong answer, hop 1 included, as the code counts) with its interval, the
//!   final reclaim rate, the source-complete share and each hop's wrong share. A no-error control
//!   (`planted` false) whose blast is above 0 is flagged: the paper claims 0.0 at every H.
//!
//! Every interval is the cells' percentile bootstrap ([`super::bootstrap`]), clustered by problem
//! when the settings say so.

use std::collections::{BTreeSet, HashMap};

use serde::{Deserialize, Serialize};

use super::analysis::{Cell, ReclaimSettings, cluster_labels};
use super::bootstrap;
use super::key::CellKey;
use super::trials::Trial;
use crate::probe::numbers::invented_numbers;

/// Failure modes of one cell (Table 7).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FailureRow {
    /// The cell (model, task, policy, g, arm).
    #[serde(flatten)]
    pub key: CellKey,
    pub design: String,
    /// Denominator of every share but the last: trials with a known outcome.
    pub n: usize,
    pub recovered: usize,
    pub inherited: usize,
    pub novel: usize,
    pub abstained: usize,
    /// Trials whose answered/abstained status is unknown (neither novel nor abstained).
    pub unknown: usize,
    pub recovered_share: Option<f64>,
    pub inherited_share: Option<f64>,
    pub novel_share: Option<f64>,
    pub abstained_share: Option<f64>,
    /// inherited / emissions (Table 17's denominator).
    pub inherited_per_emission: Option<f64>,
    /// Whether the stale value is known (else inherited and novel are not told apart: `None`).
    pub stale_known: bool,
    /// Confident-wrong emissions not told inherited or novel (no stale value, no stored label):
    /// their own class, never counted as novel.
    #[serde(default)]
    pub emission_unknown: usize,
    #[serde(default)]
    pub emission_unknown_share: Option<f64>,
    /// Emissions told apart by the file's stored label because the stale value is unknown.
    #[serde(default)]
    pub from_stored_labels: usize,
    /// Trials with a stored failure label, and those whose recomputed class differs from it.
    #[serde(default)]
    pub stored_labels: usize,
    #[serde(default)]
    pub label_disagrees: usize,
}

/// The stored bucket counts of one cell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BucketRow {
    /// The cell (model, task, policy, g, arm).
    #[serde(flatten)]
    pub key: CellKey,
    pub design: String,
    pub bucket: String,
    pub count: usize,
    /// Trials of the cell with a stored bucket.
    pub with_bucket: usize,
    pub share: f64,
}

/// One point of a sweep.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SweepPoint {
    pub x: f64,
    pub n: usize,
    pub rr: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
}

/// The reclaim rate along one swept design value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sweep {
    /// `n` (size sweep) or `decoys` (noise sweep).
    pub variable: String,
    /// The cell (model, task, policy, g, arm).
    #[serde(flatten)]
    pub key: CellKey,
    /// The other design values held fixed (e.g. `budget=300`).
    pub fixed: String,
    pub points: Vec<SweepPoint>,
    /// The largest swept value whose reclaim rate exceeds ½.
    pub crossover: Option<f64>,
}

/// The recompute certificate's split of one (model, task, policy, g, arm).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CertificateRow {
    /// The cell (model, task, policy, g, arm).
    #[serde(flatten)]
    pub key: CellKey,
    /// `k_items = n` or `all_kept`.
    pub basis: String,
    pub pass_n: usize,
    pub pass_rr: Option<f64>,
    pub pass_low: Option<f64>,
    pub pass_high: Option<f64>,
    pub flag_n: usize,
    pub flag_rr: Option<f64>,
    pub flag_low: Option<f64>,
    pub flag_high: Option<f64>,
}

/// Invented numbers of one memory system.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InventedRow {
    pub model: Option<String>,
    pub task: Option<String>,
    pub policy: String,
    /// Distinct memories (seed, pid).
    pub memories: usize,
    pub with_invented: usize,
    pub share: f64,
    pub mean_invented: f64,
    pub mean_low: Option<f64>,
    pub mean_high: Option<f64>,
    pub max_invented: usize,
    /// The memory with the most invented numbers: its file and line, and the numbers.
    pub example: String,
}

/// One cascade condition (Table 12).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CascadeRow {
    pub model: Option<String>,
    pub task: Option<String>,
    pub policy: String,
    pub hops: Option<f64>,
    pub planted: Option<bool>,
    pub chains: usize,
    pub blast: Option<f64>,
    pub blast_low: Option<f64>,
    pub blast_high: Option<f64>,
    pub rr: Option<f64>,
    pub rr_low: Option<f64>,
    pub rr_high: Option<f64>,
    pub source_complete: Option<f64>,
    /// Share of chains wrong at hop 1, 2, …
    pub hop_wrong: Vec<f64>,
    /// A no-error control whose mean blast is above 0.
    pub control_blast: bool,
}

/// Everything this module adds to a reclaim report.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Boundaries {
    pub failure_modes: Vec<FailureRow>,
    pub buckets: Vec<BucketRow>,
    pub sweeps: Vec<Sweep>,
    pub certificate: Vec<CertificateRow>,
    pub invented: Vec<InventedRow>,
    pub cascade: Vec<CascadeRow>,
}

/// Design values as `n=4 budget=300` (empty without any).
pub fn design_text(d: &[(String, String)]) -> String {
    d.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" ")
}

fn rate(x: usize, d: usize) -> Option<f64> {
    (d > 0).then(|| x as f64 / d as f64)
}

/// Failure modes from the cells' counts.
pub fn failure_modes(cells: &[Cell]) -> Vec<FailureRow> {
    cells
        .iter()
        .map(|c| {
            // Inherited and novel are told apart for the emissions whose stale value (or stored
            // label) is known; the rest are their own class.
            let known = c.stale_known > 0 || c.from_stored_labels > 0;
            let inherited = c.attractor_per_n.count;
            let novel = c.emit.saturating_sub(inherited + c.emission_unknown);
            let unknown = c.n - c.answered_known.min(c.n);
            FailureRow {
                key: c.key.clone(),
                design: design_text(&c.design),
                n: c.n,
                recovered: c.recovered,
                inherited,
                novel,
                abstained: c.abstain,
                unknown,
                recovered_share: rate(c.recovered, c.n),
                inherited_share: rate(inherited, c.n).filter(|_| known),
                novel_share: rate(novel, c.n).filter(|_| known),
                abstained_share: rate(c.abstain, c.n),
                inherited_per_emission: rate(inherited, c.emit).filter(|_| known && c.emission_unknown == 0),
                stale_known: known,
                emission_unknown: c.emission_unknown,
                emission_unknown_share: rate(c.emission_unknown, c.n),
                from_stored_labels: c.from_stored_labels,
                stored_labels: c.stored_labels,
                label_disagrees: c.label_disagrees,
            }
        })
        .collect()
}

/// Trials with their scored outcome.
type Scored<'a> = Vec<(&'a Trial, Option<bool>)>;

/// One memory: (model, task, policy, seed, pid).
type MemoryKey = (Option<String>, Option<String>, String, Option<i64>, String);

/// A sweep column's value on a trial ([`super::trials::SWEEP_COLUMNS`]).
fn design_value(t: &Trial, name: &str) -> Option<String> {
    t.sweep.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
}

fn mean_interval(values: &[f64], trials: &[&Trial], s: &ReclaimSettings) -> (Option<f64>, Option<f64>, Option<f64>) {
    if values.is_empty() {
        return (None, None, None);
    }
    let m = values.iter().sum::<f64>() / values.len() as f64;
    let ci = bootstrap::interval(values, Some(&cluster_labels(trials)), &s.bootstrap);
    (Some(m), ci.map(|c| c.low), ci.map(|c| c.high))
}

/// Groups in first-seen order.
fn grouped<'a, K: Eq + std::hash::Hash + Clone>(
    items: impl Iterator<Item = (K, &'a Trial, Option<bool>)>,
) -> Vec<(K, Scored<'a>)> {
    let mut order: Vec<K> = Vec::new();
    let mut map: HashMap<K, Scored<'a>> = HashMap::new();
    for (k, t, c) in items {
        map.entry(k.clone())
            .or_insert_with(|| {
                order.push(k.clone());
                Vec::new()
            })
            .push((t, c));
    }
    order
        .into_iter()
        .map(|k| {
            let v = map.remove(&k).unwrap_or_default();
            (k, v)
        })
        .collect()
}

fn outcome_values<'a>(rows: &[(&'a Trial, Option<bool>)]) -> (Vec<f64>, Vec<&'a Trial>) {
    rows.iter().filter_map(|(t, c)| c.map(|c| (if c { 1.0 } else { 0.0 }, *t))).unzip()
}

/// Analyses the boundary evidence of the trials and their scored outcomes (`outcomes[i]` is
/// trial i's correctness after scoring).
pub fn analyse(trials: &[Trial], outcomes: &[Option<bool>], cells: &[Cell], s: &ReclaimSettings) -> Boundaries {
    let mut b = Boundaries { failure_modes: failure_modes(cells), ..Boundaries::default() };
    // Stored buckets per cell.
    let cell_key = |t: &Trial| (CellKey::bits_of(t), design_text(&t.design));
    for (k, rows) in
        grouped(trials.iter().zip(outcomes).filter(|(t, _)| t.bucket.is_some()).map(|(t, c)| (cell_key(t), t, *c)))
    {
        let mut counts: Vec<(String, usize)> = Vec::new();
        for (t, _) in &rows {
            let name = t.bucket.clone().unwrap_or_default();
            match counts.iter_mut().find(|(n, _)| *n == name) {
                Some(c) => c.1 += 1,
                None => counts.push((name, 1)),
            }
        }
        let first = rows[0].0;
        for (bucket, count) in counts {
            b.buckets.push(BucketRow {
                key: CellKey::of(first),
                design: k.1.clone(),
                bucket,
                count,
                with_bucket: rows.len(),
                share: count as f64 / rows.len() as f64,
            });
        }
    }
    // Sweeps: along `n` (holding budget and the other design values but k_items) and `decoys`.
    for variable in ["n", "decoys"] {
        let swept = trials.iter().zip(outcomes).filter(|(t, _)| design_value(t, variable).is_some());
        // Held fixed: the other sweep columns (but the kept-items count and the store) and any
        // other column the cells are split by.
        let fixed_of = |t: &Trial| {
            let mut fixed: Vec<(String, String)> =
                t.sweep.iter().filter(|(k, _)| k != variable && k != "k_items" && k != "store").cloned().collect();
            fixed.extend(t.design.iter().filter(|(k, _)| !t.sweep.iter().any(|(s, _)| s == k)).cloned());
            fixed
        };
        for ((k, fixed), rows) in grouped(swept.map(|(t, c)| ((CellKey::bits_of(t), design_text(&fixed_of(t))), t, *c)))
        {
            let mut xs: Vec<(f64, Scored<'_>)> = Vec::new();
            for (t, c) in rows {
                let x = design_value(t, variable).and_then(|v| v.parse::<f64>().ok());
                let Some(x) = x else { continue };
                match xs.iter_mut().find(|(v, _)| *v == x) {
                    Some(p) => p.1.push((t, c)),
                    None => xs.push((x, vec![(t, c)])),
                }
            }
            if xs.len() < 2 {
                continue;
            }
            xs.sort_by(|a, b| a.0.total_cmp(&b.0));
            let points: Vec<SweepPoint> = xs
                .iter()
                .map(|(x, rows)| {
                    let (values, ts) = outcome_values(rows);
                    let (rr, low, high) = mean_interval(&values, &ts, s);
                    SweepPoint { x: *x, n: values.len(), rr, low, high }
                })
                .collect();
            let crossover = points.iter().filter(|p| p.rr.is_some_and(|r| r > 0.5)).map(|p| p.x).reduce(f64::max);
            b.sweeps.push(Sweep { variable: variable.into(), key: CellKey::from_bits(k), fixed, points, crossover });
        }
    }
    // Recompute certificate.
    let passes = |t: &Trial| -> Option<(bool, &'static str)> {
        if let (Some(k), Some(n)) = (design_value(t, "k_items"), design_value(t, "n")) {
            return Some((k == n, "k_items = n"));
        }
        t.all_kept.map(|a| (a, "all_kept"))
    };
    let certified =
        trials.iter().zip(outcomes).filter_map(|(t, c)| passes(t).map(|p| ((CellKey::bits_of(t), p.1), t, *c)));
    for ((k, basis), rows) in grouped(certified) {
        let split = |want: bool| -> Vec<(&Trial, Option<bool>)> {
            rows.iter().filter(|(t, _)| passes(t).is_some_and(|p| p.0 == want)).copied().collect()
        };
        let side = |want: bool| {
            let (values, ts) = outcome_values(&split(want));
            let (rr, low, high) = mean_interval(&values, &ts, s);
            (values.len(), rr, low, high)
        };
        let (pn, pr, pl, ph) = side(true);
        let (fnn, fr, fl, fh) = side(false);
        b.certificate.push(CertificateRow {
            key: CellKey::from_bits(k),
            basis: basis.into(),
            pass_n: pn,
            pass_rr: pr,
            pass_low: pl,
            pass_high: ph,
            flag_n: fnn,
            flag_rr: fr,
            flag_low: fl,
            flag_high: fh,
        });
    }
    // Invented numbers: one memory per (seed, pid, policy) within (model, task).
    let mut seen: BTreeSet<MemoryKey> = BTreeSet::new();
    let memories = trials
        .iter()
        .filter(|t| t.memory_text.is_some() && t.src_nums.is_some())
        .filter(|t| seen.insert((t.model.clone(), t.task.clone(), t.policy.clone(), t.seed, t.pid.clone())));
    for ((model, task, policy), rows) in
        grouped(memories.map(|t| ((t.model.clone(), t.task.clone(), t.policy.clone()), t, None)))
    {
        let counts: Vec<(usize, Vec<String>, &Trial)> = rows
            .iter()
            .map(|(t, _)| {
                let invented =
                    invented_numbers(t.memory_text.as_deref().unwrap_or(""), t.src_nums.as_deref().unwrap_or(&[]));
                (invented.len(), invented, *t)
            })
            .collect();
        let values: Vec<f64> = counts.iter().map(|c| c.0 as f64).collect();
        let ts: Vec<&Trial> = counts.iter().map(|c| c.2).collect();
        let (mean, low, high) = mean_interval(&values, &ts, s);
        let worst = counts.iter().max_by_key(|c| c.0);
        b.invented.push(InventedRow {
            model,
            task,
            policy,
            memories: counts.len(),
            with_invented: counts.iter().filter(|c| c.0 > 0).count(),
            share: counts.iter().filter(|c| c.0 > 0).count() as f64 / counts.len() as f64,
            mean_invented: mean.unwrap_or_default(),
            mean_low: low,
            mean_high: high,
            max_invented: worst.map_or(0, |w| w.0),
            example: worst
                .filter(|w| w.0 > 0)
                .map(|w| {
                    format!(
                        "{} line {}: {}",
                        w.2.file,
                        w.2.line,
                        w.1.iter().take(8).cloned().collect::<Vec<_>>().join(", ")
                    )
                })
                .unwrap_or_default(),
        });
    }
    // Cascade chains.
    let chains = trials.iter().zip(outcomes).filter(|(t, _)| !t.per_hop.is_empty() || t.blast.is_some());
    let cascade_key = |t: &Trial| (t.model.clone(), t.task.clone(), t.policy.clone(), design_value(t, "H"), t.planted);
    for ((model, task, policy, h, planted), rows) in grouped(chains.map(|(t, c)| (cascade_key(t), t, *c))) {
        let ts: Vec<&Trial> = rows.iter().map(|(t, _)| *t).collect();
        let blasts: Vec<f64> =
            ts.iter().map(|t| t.blast.unwrap_or_else(|| t.per_hop.iter().filter(|ok| !**ok).count() as f64)).collect();
        let (blast, bl, bh) = mean_interval(&blasts, &ts, s);
        let (values, vts) = outcome_values(&rows);
        let (rr, rl, rh) = mean_interval(&values, &vts, s);
        let complete: Vec<f64> =
            ts.iter().filter_map(|t| t.source_complete.map(|c| if c { 1.0 } else { 0.0 })).collect();
        let hops = ts.iter().map(|t| t.per_hop.len()).max().unwrap_or(0);
        let hop_wrong = (0..hops)
            .map(|i| {
                let at: Vec<bool> = ts.iter().filter_map(|t| t.per_hop.get(i).copied()).collect();
                at.iter().filter(|ok| !**ok).count() as f64 / at.len().max(1) as f64
            })
            .collect();
        b.cascade.push(CascadeRow {
            model,
            task,
            policy,
            hops: h.and_then(|v| v.parse().ok()),
            planted,
            chains: ts.len(),
            blast,
            blast_low: bl,
            blast_high: bh,
            rr,
            rr_low: rl,
            rr_high: rh,
            source_complete: (!complete.is_empty()).then(|| complete.iter().sum::<f64>() / complete.len() as f64),
            hop_wrong,
            control_blast: planted == Some(false) && blast.is_some_and(|x| x > 0.0),
        });
    }
    b
}
