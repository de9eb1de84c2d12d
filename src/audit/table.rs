//! The tables of a rescoring report (`memaudit rescore --format csv --table NAME`, `--out-dir`,
//! and the viewer's CSV exports): each column's name and value defined once.

use super::card::CardRow;
use super::mapping::MappingRow;
use super::{
    AggregationRow, AgreementRow, CategoryInstabilityRow, ContestedRow, ContestedSummary, CoverageRow, CurveRow,
    DeltaDistribution, InstabilityRow, KendallRow, PerQueryRow, RecommendationRow, Report, SummaryRow, WinnerRow,
};
use crate::ingest::Warning;
use crate::plots::histogram::{BinOf, bins_of};
use crate::report::{Column, Table, flag, num, opt, serde_name};

crate::choice! {
    /// The tables a rescoring report can be exported as (`--table NAME`).
    pub enum RescoreTable {
        Summary,
        PerQuery,
        Instability,
        InstabilityByCategory,
        Aggregations,
        KendallFromRaw,
        Agreement,
        Winners,
        Recommendations,
        /// Means at each cutoff of `--k 1,5,10,60`.
        Curve,
        Contested,
        ContestedSummary,
        DeltaDistribution,
        DeltaHistogram,
        Coverage,
        Warnings,
        /// TIAP's reporting card (App. H, Table 14) of each system: whether its memory
        /// transforms, its retrieval unit, its target mapping and the credit rule.
        Card,
        /// The target mapping: each query's credited ids under each target (MTEL-Mem's
        /// mapping shape; its JSON is read back as a mapping).
        Mapping,
    }
}

/// One warning with the stage that raised it (`reading` or `scoring`).
pub struct StageWarning<'a> {
    pub stage: &'static str,
    pub warning: &'a Warning,
}

const SUMMARY: &[Column<SummaryRow>] = &crate::columns![SummaryRow;
    "system" => |r| r.system.clone(),
    /// The credit target: raw, source or canonical.
    "target" => |r| r.target.name().into(),
    /// all (queries eligible under the target that the system scored) or shared (eligible under every compared target).
    "subset" => |r| r.subset.name().into(),
    /// Queries averaged over (a query with an empty target is left out, not scored 0).
    "n" => |r| r.n.to_string(),
    /// Mean nDCG@k.
    "ndcg" => |r| num(r.ndcg),
    /// Percentile bootstrap interval of the mean nDCG, lower bound.
    "ndcg_ci_low" => |r| num(r.ndcg_ci_low),
    /// Percentile bootstrap interval of the mean nDCG, upper bound.
    "ndcg_ci_high" => |r| num(r.ndcg_ci_high),
    /// Mean Recall@k.
    "recall" => |r| num(r.recall),
    /// Mean Hit@k: the share of queries with a credited memory in the top k.
    "hit" => |r| num(r.hit),
    /// Mean reciprocal rank of the first credited memory in the top k.
    "mrr" => |r| num(r.mrr),
    /// Share of queries whose first-ranked memory is credited.
    "top1" => |r| num(r.top1),
];

const PER_QUERY: &[Column<PerQueryRow>] = &crate::columns![PerQueryRow;
    /// The system whose ranked list is scored.
    "system" => |r| r.system.clone(),
    /// The query.
    "query_id" => |r| r.query_id.clone(),
    /// The credit target: raw, source or canonical.
    "target" => |r| r.target.name().into(),
    /// Whether the query has at least one relevance group under the target (else it is left out of the means, not scored 0).
    "eligible" => |r| flag(r.eligible),
    /// nDCG@k of the list under the target (empty when not eligible or not scored).
    "ndcg" => |r| num(r.ndcg),
    /// Recall@k: groups with a credited memory in the first k items, over the query's groups.
    "recall" => |r| num(r.recall),
    /// Hit@k: 1 when any credited memory is in the first k items.
    "hit" => |r| num(r.hit),
    /// Reciprocal rank of the first credited memory within k (0 when none).
    "mrr" => |r| num(r.mrr),
    /// 1 when the first-ranked memory is credited.
    "top1" => |r| num(r.top1),
    /// Whether the system saved a ranked list for the query.
    "has_run" => |r| flag(r.has_run),
    /// The query's relevance groups under the target (one per evidence anchor, or per memory under the id unit).
    "groups" => |r| r.groups.to_string(),
    /// Groups with a credited memory in the first k items.
    "groups_hit" => |r| r.groups_hit.to_string(),
    /// Rank of the first credited memory within k (empty: none).
    "first_rank" => |r| r.first_rank.map(|x| x.to_string()).unwrap_or_default(),
    /// The query's category as the files state it.
    "category" => |r| opt(&r.category),
];

const INSTABILITY: &[Column<InstabilityRow>] = &crate::columns![InstabilityRow;
    "system" => |r| r.system.clone(),
    /// The first target.
    "a" => |r| r.a.name().into(),
    /// The second target.
    "b" => |r| r.b.name().into(),
    /// Queries eligible under both targets.
    "n" => |r| r.n.to_string(),
    /// Queries whose nDCG differs between the two targets.
    "ndcg_changed" => |r| r.ndcg_changed.to_string(),
    /// ndcg_changed / n.
    "change_rate" => |r| num(r.change_rate),
    /// Queries whose Hit@k differs between the two targets.
    "hit_flips" => |r| r.hit_flips.to_string(),
    /// Queries missed under a and hit under b.
    "hit_gained" => |r| r.hit_gained.to_string(),
    /// Queries hit under a and missed under b.
    "hit_lost" => |r| r.hit_lost.to_string(),
    /// McNemar's exact two-sided p on (hit_lost, hit_gained).
    "mcnemar_p" => |r| num(Some(r.mcnemar_p)),
    /// Queries whose top-1 credit differs.
    "top1_flips" => |r| r.top1_flips.to_string(),
    /// Queries whose Recall@k differs.
    "recall_changed" => |r| r.recall_changed.to_string(),
    /// Queries whose reciprocal rank differs.
    "mrr_changed" => |r| r.mrr_changed.to_string(),
    /// Mean nDCG under a.
    "mean_a" => |r| num(r.mean_a),
    /// Mean nDCG under b.
    "mean_b" => |r| num(r.mean_b),
    /// Mean of nDCG_b − nDCG_a over the queries.
    "mean_diff_ndcg" => |r| num(r.mean_diff_ndcg),
    /// Paired percentile bootstrap interval of mean_diff_ndcg, lower bound.
    "ci_low" => |r| num(r.ci_low),
    /// Paired percentile bootstrap interval of mean_diff_ndcg, upper bound.
    "ci_high" => |r| num(r.ci_high),
];

const INSTABILITY_BY_CATEGORY: &[Column<CategoryInstabilityRow>] = &crate::columns![CategoryInstabilityRow;
    /// The system.
    "system" => |r| r.system.clone(),
    /// The first target.
    "a" => |r| r.a.name().into(),
    /// The second target.
    "b" => |r| r.b.name().into(),
    /// The query category (queries without one are grouped apart).
    "category" => |r| r.category.clone(),
    /// Queries of the category eligible under both targets.
    "n" => |r| r.n.to_string(),
    /// Queries whose nDCG differs between the two targets.
    "ndcg_changed" => |r| r.ndcg_changed.to_string(),
    /// ndcg_changed / n.
    "change_rate" => |r| num(r.change_rate),
    /// Queries whose Hit@k differs between the two targets.
    "hit_flips" => |r| r.hit_flips.to_string(),
    /// Queries whose top-1 credit differs.
    "top1_flips" => |r| r.top1_flips.to_string(),
    /// Mean of nDCG_b − nDCG_a over the category's queries.
    "mean_diff_ndcg" => |r| num(r.mean_diff_ndcg),
];

const AGGREGATIONS: &[Column<AggregationRow>] = &crate::columns![AggregationRow;
    "system" => |r| r.system.clone(),
    /// The queries averaged over: those eligible under Raw that the system scored.
    "population" => |r| r.population.clone(),
    /// What a query not eligible under Source or Canonical takes for it (Raw's nDCG).
    "fallback" => |r| r.fallback.clone(),
    /// Queries in the population.
    "n" => |r| r.n.to_string(),
    /// Queries not eligible under Source (their Source nDCG is Raw's).
    "source_fallback" => |r| r.source_fallback.to_string(),
    /// Queries not eligible under Canonical (their Canonical nDCG is Raw's).
    "canonical_fallback" => |r| r.canonical_fallback.to_string(),
    /// Mean nDCG under Raw.
    "raw" => |r| num(r.raw),
    /// Mean nDCG under Source.
    "source" => |r| num(r.source),
    /// Mean nDCG under Canonical.
    "canonical" => |r| num(r.canonical),
    /// Mean of the per-query arithmetic mean (R + S + C) / 3.
    "arith" => |r| num(r.arith),
    /// Mean of the per-query geometric mean ∛(R · S · C) (any zero gives 0).
    "geom" => |r| num(r.geom),
    /// Mean of the per-query minimum min(R, S, C).
    "min" => |r| num(r.min),
];

const KENDALL_FROM_RAW: &[Column<KendallRow>] = &crate::columns![KendallRow;
    /// A column of the aggregations table.
    "aggregation" => |r| r.aggregation.clone(),
    /// Systems ranked (those with a non-empty population).
    "systems" => |r| r.systems.to_string(),
    /// Kendall-τ distance: system pairs ordered one way by the Raw mean and the other way by this column.
    "tau_d" => |r| r.tau_d.to_string(),
    /// n(n − 1)/2, the most τ_d can be.
    "max" => |r| r.max.to_string(),
    /// Pairs exactly tied under Raw or under this column (never discordant).
    "ties" => |r| r.ties.to_string(),
    /// The systems by this column, best first.
    "order" => |r| r.order.clone(),
];

const AGREEMENT: &[Column<AgreementRow>] = &crate::columns![AgreementRow;
    "system" => |r| r.system.clone(),
    "population" => |r| r.population.clone(),
    "fallback" => |r| r.fallback.clone(),
    /// Queries in the population (eligible under Raw, scored by the system).
    "n" => |r| r.n.to_string(),
    /// Queries where Raw, Source and Canonical agree on Hit@k (all hit or all miss).
    "kept" => |r| r.kept.to_string(),
    /// kept / n.
    "retention" => |r| num(r.retention),
    /// Mean of max − min of the nDCG triplet over the kept queries.
    "spread_kept" => |r| num(r.spread_kept),
    /// Kept queries that are a hit under all three targets.
    "n_all_hit" => |r| r.n_all_hit.to_string(),
    /// Mean spread over the kept all-hit queries.
    "spread_all_hit" => |r| num(r.spread_all_hit),
];

const WINNERS: &[Column<WinnerRow>] = &crate::columns![WinnerRow;
    /// The credit target the two systems are compared under.
    "target" => |r| r.target.name().into(),
    "a" => |r| r.a.clone(),
    "b" => |r| r.b.clone(),
    /// Queries paired (scored by both systems under the target).
    "n" => |r| r.n.to_string(),
    /// a's mean of the metric on the paired queries.
    "mean_a" => |r| num(r.mean_a),
    /// b's mean of the metric on the paired queries.
    "mean_b" => |r| num(r.mean_b),
    /// mean nDCG of a − mean nDCG of b (nDCG rows only).
    "delta_ndcg" => |r| num(r.delta_ndcg),
    /// Paired bootstrap interval of the difference, lower bound.
    "ci_low" => |r| num(r.ci_low),
    /// Paired bootstrap interval of the difference, upper bound.
    "ci_high" => |r| num(r.ci_high),
    /// The system with the higher mean, or tie (empty: no query paired).
    "winner" => |r| opt(&r.winner),
    /// Whether the interval excludes 0.
    "significant" => |r| flag(r.significant),
    /// Whether the winner of this pair, metric and subset differs across targets.
    "flip" => |r| flag(r.flip),
    /// all (eligible under this target) or shared (eligible under every compared target for both systems).
    "subset" => |r| r.subset.name().into(),
    /// The metric compared.
    "metric" => |r| r.metric.name().into(),
    /// mean a − mean b of the metric.
    "delta" => |r| num(r.delta),
    /// Hit rows: paired queries a hits and b misses.
    "hit_a_only" => |r| opt(&r.hit_a_only),
    /// Hit rows: paired queries b hits and a misses.
    "hit_b_only" => |r| opt(&r.hit_b_only),
    /// Hit rows: McNemar's exact two-sided p on those discordant queries.
    "mcnemar_p" => |r| num(r.mcnemar_p),
];

const RECOMMENDATIONS: &[Column<RecommendationRow>] = &crate::columns![RecommendationRow;
    /// The credit target the systems are ranked under.
    "target" => |r| r.target.name().into(),
    /// The metric ranked.
    "metric" => |r| r.metric.name().into(),
    /// Queries the means are taken over.
    "n" => |r| r.n.to_string(),
    /// The system with the highest mean (empty: no system scored).
    "best" => |r| opt(&r.best),
    /// The best system's mean.
    "value" => |r| num(r.value),
    /// The system with the second highest mean.
    "runner_up" => |r| opt(&r.runner_up),
    /// The runner-up's mean.
    "runner_up_value" => |r| num(r.runner_up_value),
    /// value − runner_up_value.
    "margin" => |r| num(r.margin),
    /// The best and the runner-up have the same mean (|margin| ≤ 1e-12): no single best.
    "tied" => |r| flag(r.tied),
    /// All systems, best first (ties keep input order).
    "ranking" => |r| r.ranking.join(" > "),
    /// Whether the best system of this metric and subset differs between targets.
    "changes_across_targets" => |r| flag(r.changes_across_targets),
    /// all (queries every system scored under the target) or shared (eligible under every compared target for every system).
    "subset" => |r| r.subset.name().into(),
];

const CURVE: &[Column<CurveRow>] = &crate::columns![CurveRow;
    /// The system.
    "system" => |r| r.system.clone(),
    /// The credit target.
    "target" => |r| r.target.name().into(),
    /// all (eligible under the target) or shared (eligible under every compared target).
    "subset" => |r| r.subset.name().into(),
    /// The cutoff: only the first k items of each list count.
    "k" => |r| r.k.to_string(),
    /// Queries averaged over.
    "n" => |r| r.n.to_string(),
    /// Mean nDCG@k.
    "ndcg" => |r| num(r.ndcg),
    /// Mean Recall@k.
    "recall" => |r| num(r.recall),
    /// Mean Hit@k.
    "hit" => |r| num(r.hit),
    /// Mean reciprocal rank within k.
    "mrr" => |r| num(r.mrr),
    /// Share of queries whose first-ranked memory is credited.
    "top1" => |r| num(r.top1),
];

const CONTESTED: &[Column<ContestedRow>] = &crate::columns![ContestedRow;
    /// The system whose list ranks the memory.
    "system" => |r| r.system.clone(),
    /// A query Raw misses and Source and Canonical hit.
    "query_id" => |r| r.query_id.clone(),
    /// The memory's rank in the list.
    "rank" => |r| r.rank.to_string(),
    /// The derived memory that earns Source and Canonical credit.
    "memory_id" => |r| r.memory_id.clone(),
    /// Its kind as stored.
    "kind" => |r| opt(&r.kind),
    /// Credited under Source.
    "source" => |r| flag(r.source),
    /// Credited under Canonical.
    "canonical" => |r| flag(r.canonical),
    /// The evidence anchors it descends from, joined with "; ".
    "anchors" => |r| r.anchors.clone(),
    /// The memory's text, for a semantic audit of the credit.
    "text" => |r| opt(&r.text),
    /// The query's text.
    "query_text" => |r| opt(&r.query_text),
    /// The query's gold answer.
    "answer" => |r| opt(&r.answer),
];

const CONTESTED_SUMMARY: &[Column<ContestedSummary>] = &crate::columns![ContestedSummary;
    /// The system.
    "system" => |r| r.system.clone(),
    /// Queries scored with a Raw target.
    "raw_covered" => |r| r.raw_covered.to_string(),
    /// Of those, Raw miss, Source hit and Canonical hit: credit that rests on derived memories only.
    "contested" => |r| r.contested.to_string(),
];

const DELTA_DISTRIBUTION: &[Column<DeltaDistribution>] = &crate::columns![DeltaDistribution;
    /// A system, or all for the queries of every system pooled.
    "system" => |r| r.system.clone(),
    /// The first target.
    "a" => |r| r.a.name().into(),
    /// The second target.
    "b" => |r| r.b.name().into(),
    /// Queries eligible under both targets.
    "n" => |r| r.n.to_string(),
    /// Mean |nDCG_b − nDCG_a|.
    "mean_abs" => |r| num(r.mean_abs),
    /// Median |nDCG_b − nDCG_a|.
    "median_abs" => |r| num(r.median_abs),
    /// Share of queries with |Δ| ≥ 0.1.
    "share_ge_0_1" => |r| num(r.share_ge_0_1),
];

const COVERAGE: &[Column<CoverageRow>] = &crate::columns![CoverageRow;
    /// raw, source, canonical, or shared (eligible under every compared target).
    "target" => |r| r.target.clone(),
    /// Queries read.
    "queries" => |r| r.queries.to_string(),
    /// Queries with at least one relevance group under the target.
    "eligible" => |r| r.eligible.to_string(),
    /// Queries with none: left out of the target's means, never scored 0.
    "zero_target" => |r| r.zero_target.to_string(),
    /// Relevance groups over all queries.
    "groups" => |r| r.groups.to_string(),
    /// Groups by their number of memories: 1, 2, 3, 4, ≥ 5.
    "group_sizes" => |r| r.group_sizes.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" "),
    /// The system whose store the row describes (per-system stores only).
    "system" => |r| opt(&r.system),
    /// The memory kinds of that store with their counts (kind:n).
    "kinds" => |r| r.kinds.iter().map(|(k, n)| format!("{k}:{n}")).collect::<Vec<_>>().join(" "),
];

const CARD: &[Column<CardRow>] = &crate::columns![CardRow;
    /// The system.
    "system" => |r| r.system.clone(),
    /// Memories in its store (all memories without per-system stores).
    "memories" => |r| r.memories.to_string(),
    /// Raw turns in the store.
    "raw" => |r| r.raw.to_string(),
    /// Derived memories (not raw): facts, summaries, observations.
    "derived" => |r| r.derived.to_string(),
    /// Canonical memories in the store.
    "canonical" => |r| r.canonical.to_string(),
    /// Whether the store holds derived memories.
    "transforms" => |r| flag(r.transforms),
    /// The kinds of the first k items of its lists, most frequent first (kind:n; (not stored) for ids that are not stored memories).
    "ranked_kinds" => |r| r.ranked_kinds.iter().map(|(k, n)| format!("{k}:{n}")).collect::<Vec<_>>().join(" "),
    /// Derived memories that name the turns they came from.
    "derived_with_lineage" => |r| r.derived_with_lineage.to_string(),
    /// explicit (every derived memory names its anchors), partial, none, or not_needed (no derived memory).
    "mapping" => |r| r.mapping.name().into(),
    /// Queries stating their targets outright (a mapping file).
    "queries_with_targets" => |r| r.queries_with_targets.to_string(),
    /// The targets scored and the conventions.
    "credit" => |r| r.credit.clone(),
    /// Queries eligible for the system under Raw (empty: not scored).
    "eligible_raw" => |r| opt(&r.eligible_raw),
    /// Queries eligible for the system under Source.
    "eligible_source" => |r| opt(&r.eligible_source),
    /// Queries eligible for the system under Canonical.
    "eligible_canonical" => |r| opt(&r.eligible_canonical),
];

const MAPPING: &[Column<MappingRow>] = &crate::columns![MappingRow;
    /// The system whose store the ids are in (per-system stores only).
    "system" => |r| opt(&r.system),
    "query_id" => |r| r.query_id.clone(),
    "category" => |r| opt(&r.category),
    /// The stored memories Raw credits for the query, `;`-separated (empty: not eligible).
    "raw_ids" => |r| r.raw_ids.join(";"),
    /// The stored memories Source credits: every memory descending from an evidence turn.
    "source_ids" => |r| r.source_ids.join(";"),
    /// The stored memories Canonical credits.
    "canonical_ids" => |r| r.canonical_ids.join(";"),
];

/// A bin of the |ΔnDCG| histogram of a (system, target pair).
fn histogram_columns<'a>() -> [Column<BinOf<'a, DeltaDistribution>>; 6] {
    crate::columns![BinOf<'a, DeltaDistribution>;
        "system" => |r| r.of.system.clone(),
        "a" => |r| r.of.a.name().into(),
        "b" => |r| r.of.b.name().into(),
        "low" => |r| num(Some(r.bin.low)),
        "high" => |r| num(Some(r.bin.high)),
        "count" => |r| r.bin.count.to_string(),
    ]
}

fn warning_columns<'a>() -> [Column<StageWarning<'a>>; 6] {
    crate::columns![StageWarning<'a>;
        "stage" => |r| r.stage.into(),
        "kind" => |r| serde_name(&r.warning.kind),
        "severity" => |r| format!("{:?}", r.warning.severity).to_lowercase(),
        "count" => |r| r.warning.count.to_string(),
        "message" => |r| r.warning.message.clone(),
        "examples" => |r| r.warning.examples.join(" | "),
    ]
}

/// One table of the report.
pub fn table(report: &Report, which: RescoreTable) -> Table {
    let name = which.name();
    match which {
        RescoreTable::Summary => Table::of(name, SUMMARY, &report.summary),
        RescoreTable::PerQuery => Table::of(name, PER_QUERY, &report.per_query),
        RescoreTable::Instability => Table::of(name, INSTABILITY, &report.instability),
        RescoreTable::InstabilityByCategory => {
            Table::of(name, INSTABILITY_BY_CATEGORY, &report.instability_by_category)
        }
        RescoreTable::Aggregations => Table::of(name, AGGREGATIONS, &report.aggregations),
        RescoreTable::KendallFromRaw => Table::of(name, KENDALL_FROM_RAW, &report.kendall_from_raw),
        RescoreTable::Agreement => Table::of(name, AGREEMENT, &report.agreement),
        RescoreTable::Winners => Table::of(name, WINNERS, &report.winners),
        RescoreTable::Recommendations => Table::of(name, RECOMMENDATIONS, &report.recommendations),
        RescoreTable::Curve => Table::of(name, CURVE, &report.curve),
        RescoreTable::Contested => Table::of(name, CONTESTED, &report.contested),
        RescoreTable::ContestedSummary => Table::of(name, CONTESTED_SUMMARY, &report.contested_summary),
        RescoreTable::DeltaDistribution => Table::of(name, DELTA_DISTRIBUTION, &report.delta_distribution),
        RescoreTable::DeltaHistogram => {
            Table::of(name, &histogram_columns(), &bins_of(&report.delta_distribution, |d| &d.bins))
        }
        RescoreTable::Coverage => Table::of(name, COVERAGE, &report.coverage),
        RescoreTable::Warnings => {
            let rows: Vec<StageWarning<'_>> =
                [("reading", &report.reading.warnings), ("scoring", &report.scoring_warnings)]
                    .into_iter()
                    .flat_map(|(stage, ws)| ws.iter().map(move |warning| StageWarning { stage, warning }))
                    .collect();
            Table::of(name, &warning_columns(), &rows)
        }
        RescoreTable::Card => Table::of(name, CARD, &report.card),
        RescoreTable::Mapping => Table::of(name, MAPPING, &report.mapping),
    }
}
