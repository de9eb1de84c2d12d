//! The audit outputs of a rescoring (TIAP Stage III): per-target means on all eligible
//! queries and on the shared subset, per-query instability between targets, winners and flips
//! between systems (also per query category), aggregations over the per-query target triplet
//! with agreement filtering (TIAP App. B), design recommendations, contested credits, and the
//! |ΔnDCG| distribution.
//! [`audit`] assembles them into one [`Report`], the object the CLI prints as JSON and the
//! viewer shows.

pub mod aggregation;
pub mod card;
pub mod contested;
pub mod coverage;
pub mod curve;
pub mod distribution;
pub mod drilldown;
pub mod figures;
pub mod headlines;
pub mod instability;
pub mod mapping;
pub mod recommend;
pub mod summary;
pub mod table;
pub mod text;
pub mod unit;
pub mod winners;

use serde::{Deserialize, Serialize};

use crate::capability::Unfinished;
use crate::conventions::{MULTI_ANCHOR_RULE, Settings};
use crate::dataset::{Counts, Dataset};
use crate::ingest::{FileReport, Warning};
use crate::metrics::ListScore;
use crate::model::Target;
use crate::rescore::{Rescored, rescore};
use crate::stats::bootstrap::Interval;
use crate::stats::deferred::MeanIntervals;

pub use crate::plots::histogram::HistogramPlot;
pub use aggregation::{AggregationRow, AgreementRow, KendallRow};
pub use contested::{ContestedRow, ContestedSummary};
pub use coverage::CoverageRow;
pub use curve::CurveRow;
pub use distribution::{DeltaDistribution, HistogramBin};
pub use drilldown::{Drilldown, drilldown};
pub use instability::{CategoryInstabilityRow, InstabilityRow, NO_CATEGORY};
pub use recommend::RecommendationRow;
pub use summary::{Subset, SummaryRow};
pub use table::RescoreTable;
pub use text::render_text;
pub use unit::{DrilldownQuery, QueryInfo, Rescore, RescoreOverview};
pub use winners::WinnerRow;

/// A ranking metric.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Metric {
    Ndcg,
    Recall,
    Hit,
    Mrr,
    Top1,
}

impl Metric {
    pub const ALL: [Metric; 5] = [Metric::Ndcg, Metric::Recall, Metric::Hit, Metric::Mrr, Metric::Top1];

    pub fn of(self, s: &ListScore) -> f64 {
        match self {
            Metric::Ndcg => s.ndcg,
            Metric::Recall => s.recall,
            Metric::Hit => s.hit,
            Metric::Mrr => s.mrr,
            Metric::Top1 => s.top1,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Metric::Ndcg => "ndcg",
            Metric::Recall => "recall",
            Metric::Hit => "hit",
            Metric::Mrr => "mrr",
            Metric::Top1 => "top1",
        }
    }
}

/// One row of `per_query`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PerQueryRow {
    pub system: String,
    pub query_id: String,
    pub target: Target,
    pub eligible: bool,
    pub ndcg: Option<f64>,
    pub recall: Option<f64>,
    pub hit: Option<f64>,
    pub mrr: Option<f64>,
    pub top1: Option<f64>,
    pub has_run: bool,
    pub groups: usize,
    pub groups_hit: usize,
    pub first_rank: Option<usize>,
    pub category: Option<String>,
}

/// What was read, shown before any number.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reading {
    pub files: Vec<FileReport>,
    pub counts: Counts,
    pub warnings: Vec<Warning>,
}

/// Everything an audit computes. JSON keys are a public contract (`docs/formats.md`): add
/// keys, never rename them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub settings: Settings,
    /// The conventions in words, as printed with every table.
    pub conventions: String,
    pub multi_anchor_rule: String,
    pub targets: Vec<Target>,
    /// Targets compared in the shared subset (those with at least one eligible query).
    pub compared_targets: Vec<Target>,
    pub systems: Vec<String>,
    pub reading: Reading,
    pub coverage: Vec<CoverageRow>,
    pub per_query: Vec<PerQueryRow>,
    pub summary: Vec<SummaryRow>,
    pub instability: Vec<InstabilityRow>,
    /// `instability` per query category (TIAP §5.3); see
    /// [`instability::instability_by_category`]. Defaults to empty when reading a report
    /// written before this key existed.
    #[serde(default)]
    pub instability_by_category: Vec<CategoryInstabilityRow>,
    /// Means of the per-query nDCG triplet and its arithmetic mean, geometric mean and
    /// minimum over each system's Raw-eligible queries, Source/Canonical falling back to Raw
    /// (TIAP App. B, Table 8); see [`aggregation`]. Keys added later default to empty.
    #[serde(default)]
    pub aggregations: Vec<AggregationRow>,
    /// τ_d of each aggregation from the Raw system ordering (Table 8).
    #[serde(default)]
    pub kendall_from_raw: Vec<KendallRow>,
    /// Agreement filtering on Hit@k across the triplet, with nDCG spreads (TIAP App. B).
    #[serde(default)]
    pub agreement: Vec<AgreementRow>,
    pub winners: Vec<WinnerRow>,
    pub recommendations: Vec<RecommendationRow>,
    pub contested_summary: Vec<ContestedSummary>,
    pub contested: Vec<ContestedRow>,
    pub delta_distribution: Vec<DeltaDistribution>,
    /// Warnings raised while scoring (e.g. trec_eval order requested without scores).
    pub scoring_warnings: Vec<Warning>,
    /// Means at each cutoff of `--k 1,5,10,60` (empty with one cutoff).
    #[serde(default)]
    pub curve: Vec<CurveRow>,
    /// TIAP's reporting card (App. H, Table 14) of each system: transforms, retrieval unit,
    /// target mapping, credit ([`card`]).
    #[serde(default)]
    pub card: Vec<card::CardRow>,
    /// The target mapping: each query's credited ids under each target, in MTEL-Mem's mapping
    /// shape ([`mapping`]).
    #[serde(default)]
    pub mapping: Vec<mapping::MappingRow>,
}

/// Targets with at least one eligible query: the ones compared on the shared subset.
pub fn compared_targets(r: &Rescored) -> Vec<Target> {
    r.targets.iter().copied().filter(|&t| (0..r.n_queries).any(|q| r.eligible_for_any(q, t))).collect()
}

/// Ordered pairs of compared targets: (raw, source), (raw, canonical), (source, canonical).
pub fn target_pairs(compared: &[Target]) -> Vec<(Target, Target)> {
    let mut out = Vec::new();
    for (i, &a) in compared.iter().enumerate() {
        for &b in &compared[i + 1..] {
            out.push((a, b));
        }
    }
    out
}

/// Rescores and audits in one go. `progress(stage, fraction)` is called along the way.
pub fn run(ds: &Dataset, settings: &Settings, progress: &mut dyn FnMut(&str, f64)) -> Report {
    let r = rescore(ds, settings, &mut |f| progress("scoring", f));
    audit(ds, &r, progress)
}

/// All audit tables of a rescoring, with their intervals.
pub fn audit(ds: &Dataset, r: &Rescored, progress: &mut dyn FnMut(&str, f64)) -> Report {
    let unfinished = audit_unfinished(ds, r, &mut |stage, f| progress(stage, 0.2 * f));
    progress("intervals", 0.2);
    let report = unfinished.compute();
    progress("done", 1.0);
    report
}

/// All audit tables of a rescoring, with the bootstrap intervals of the summary, instability
/// and winner rows still to compute (in that order, one per row: [`put_intervals`]).
pub fn audit_unfinished(ds: &Dataset, r: &Rescored, progress: &mut dyn FnMut(&str, f64)) -> Unfinished<Report> {
    let settings = &r.settings;
    let compared = compared_targets(r);
    let mut intervals = MeanIntervals::new(settings.bootstrap, settings.seed, settings.confidence);

    progress("tables", 0.0);
    let per_query = per_query_rows(ds, r);
    let coverage = coverage::coverage(ds, r, &compared);
    let summary = summary::summary(ds, r, &compared, &mut intervals);
    let instability = instability::instability(ds, r, &compared, &mut intervals);
    let instability_by_category = instability::instability_by_category(ds, r, &compared);
    progress("aggregations", 0.3);
    let aggregations = aggregation::aggregations(ds, r, &compared);
    let kendall_from_raw = aggregation::kendall_from_raw(&aggregations);
    let agreement = aggregation::agreement(ds, r, &compared);
    progress("winners", 0.5);
    let winners = winners::winners(ds, r, &compared, &mut intervals);
    progress("recommendations", 0.6);
    let recommendations = recommend::recommendations(ds, r, &compared);
    let (contested_summary, contested) = contested::contested(ds, r);
    let delta_distribution = distribution::delta_distribution(ds, r, &compared);
    let curve = curve::curve(ds, settings, &compared, &mut |f| progress("cutoffs", 0.7 + 0.3 * f));
    let card = card::cards(ds, r);
    let mapping = mapping::mapping(ds, r);
    progress("tables done", 1.0);

    let report = Report {
        settings: settings.clone(),
        conventions: settings.describe(),
        multi_anchor_rule: MULTI_ANCHOR_RULE.to_string(),
        targets: r.targets.clone(),
        compared_targets: compared,
        systems: ds.systems.clone(),
        reading: Reading {
            files: ds.files.clone(),
            counts: ds.counts(),
            warnings: ds.warnings.iter().cloned().collect(),
        },
        coverage,
        per_query,
        summary,
        instability,
        instability_by_category,
        aggregations,
        kendall_from_raw,
        agreement,
        winners,
        recommendations,
        contested_summary,
        contested,
        delta_distribution,
        scoring_warnings: r.warnings.iter().cloned().collect(),
        curve,
        card,
        mapping,
    };
    Unfinished::new(report, intervals, put_intervals)
}

/// The intervals [`audit_unfinished`] asked for, in its order: the summary rows', then the
/// instability rows', then the winner rows'.
fn put_intervals(report: &mut Report, intervals: &[Option<Interval>]) {
    let (summary, rest) = intervals.split_at(report.summary.len().min(intervals.len()));
    let (instability, winners) = rest.split_at(report.instability.len().min(rest.len()));
    summary::with_intervals(&mut report.summary, summary);
    instability::with_intervals(&mut report.instability, instability);
    winners::with_intervals(&mut report.winners, winners);
}

fn per_query_rows(ds: &Dataset, r: &Rescored) -> Vec<PerQueryRow> {
    let mut rows = Vec::new();
    for s in 0..r.n_systems {
        for q in 0..r.n_queries {
            for &t in &r.targets {
                let c = r.cell(s, q, t);
                if !c.scored {
                    continue;
                }
                let m = |f: fn(&ListScore) -> f64| c.score.as_ref().map(f);
                rows.push(PerQueryRow {
                    system: ds.systems[s].clone(),
                    query_id: ds.queries[q].query_id.clone(),
                    target: t,
                    eligible: c.score.is_some(),
                    ndcg: m(|s| s.ndcg),
                    recall: m(|s| s.recall),
                    hit: m(|s| s.hit),
                    mrr: m(|s| s.mrr),
                    top1: m(|s| s.top1),
                    has_run: c.has_run,
                    groups: c.score.as_ref().map_or(0, |s| s.groups),
                    groups_hit: c.score.as_ref().map_or(0, |s| s.groups_hit),
                    first_rank: c.score.as_ref().and_then(|s| s.first_rank),
                    category: ds.queries[q].category.clone(),
                });
            }
        }
    }
    rows
}

/// Plain mean (`None` when empty).
pub(crate) fn mean(v: &[f64]) -> Option<f64> {
    crate::stats::bootstrap::mean(v)
}
