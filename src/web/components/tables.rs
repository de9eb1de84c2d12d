//! The report's tables: coverage, per-target means with nDCG intervals, instability between
//! targets (overall and per query category), aggregations over the target triplet with
//! agreement filtering, the winner grid, design recommendations and
//! contested credits. Every numeric cell carries its full-precision value in `data-value` and
//! its column (the CSV header) in `data-col`; rows carry their keys as `data-*` attributes.

use yew::prelude::*;

use crate::web::components::explore::Explore;

use crate::audit::RescoreTable;

use super::{Card, ReportRef};
use crate::audit::card::CardRow;
use crate::audit::table::table;
use crate::audit::{
    AggregationRow, AgreementRow, CategoryInstabilityRow, ContestedSummary, CoverageRow, CurveRow, InstabilityRow,
    KendallRow, Subset, SummaryRow,
};
use crate::model::Target;
use crate::web::components::grid::{Kind, Look, RowAttrs, table_grid, table_view};

#[derive(Properties, PartialEq)]
pub struct ReportProps {
    pub report: ReportRef,
}

/// Queries eligible per target and the shared subset.
#[function_component(CoverageTable)]
pub fn coverage_table(props: &ReportProps) -> Html {
    let r = &props.report;
    let intro = html! {
        <p class="intro">{ "How many queries each credit target can score. A query whose target set is empty is \
            left out of that target (not scored 0); \u{201c}shared\u{201d} counts the queries eligible under every compared target. \
            When memories name their system, each system's store has its own rows and memory kinds (its lineage fingerprint)." }</p>
    };
    let per_store = r.coverage.iter().any(|c| c.system.is_some());
    // Without stores of their own, the systems share one store: no store or memory kinds.
    let coverage = table(r, RescoreTable::Coverage);
    let coverage = if per_store { coverage } else { coverage.without(&["system", "kinds"]) };
    html! {
        <Card id="coverage" title="Coverage" report={props.report.clone()} exports={vec![RescoreTable::Coverage]} {intro}>
            { table_grid("coverage-table", &coverage, |c| match c {
                "target" | "system" | "kinds" => Look::named(c, Kind::Text),
                "group_sizes" => Look::new("group sizes 1/2/3/4/≥5", Kind::Text).titled("groups with 1, 2, 3, 4, ≥5 member memories"),
                _ => Look::named(c, Kind::Int),
            }, &r.coverage, &[], |c: &CoverageRow| {
                RowAttrs::data(vec![("data-target", c.target.clone()), ("data-system", c.system.clone().unwrap_or_default())])
            }) }
        </Card>
    }
}

/// TIAP's reporting card (App. H, Table 14) of each system: whether its memory transforms, what
/// it ranks, whether derived memories carry their lineage, and the credit rule.
#[function_component(ReportingCard)]
pub fn reporting_card(props: &ReportProps) -> Html {
    let r = &props.report;
    let Some(first) = r.card.first() else { return html! {} };
    let intro = html! {
        <p class="intro">{ format!("What a paper should state for these scores to be read (TIAP Table 14): whether each system's store transforms \
            what was said (derived memories beside the raw turns), what its lists rank (the kinds of the first k items), whether each derived \
            memory names the turns it came from (explicit, partial, none: Source and Canonical credit reach only those that do), and the credit \
            rule with the queries it leaves eligible. Credit: {}{}. The mapping export lists the ids each target credits per query; its JSON \
            reads back as a mapping.", first.credit,
            if first.queries_with_targets > 0 { format!("; {} queries state their targets outright", first.queries_with_targets) } else { String::new() }) }</p>
    };
    html! {
        <Card id="reporting-card" title="Reporting card" report={props.report.clone()} exports={vec![RescoreTable::Card, RescoreTable::Mapping]} {intro}>
            { table_grid("reporting-card-table", &table(r, RescoreTable::Card).without(&["credit"]), |c| match c {
                "system" | "ranked_kinds" | "mapping" | "transforms" => Look::named(c, Kind::Text),
                _ => Look::named(c, Kind::Int),
            }, &r.card, &[], |c: &CardRow| {
                RowAttrs::data(vec![("data-system", c.system.clone()), ("data-mapping", c.mapping.name().into())])
            }) }
        </Card>
    }
}

/// Mean nDCG (with its bootstrap interval), recall, hit, MRR and top-1 per system × target ×
/// subset.
#[function_component(SummaryTable)]
pub fn summary_table(props: &ReportProps) -> Html {
    let r = &props.report;
    let conf = format!("{}%", r.settings.confidence * 100.0);
    let intro = html! {
        <p class="intro">{ format!("Means per system and credit target on all eligible queries (\u{201c}all\u{201d}) and on the \
            queries eligible under every compared target (\u{201c}shared\u{201d}); nDCG with a {conf} paired percentile bootstrap interval.") }</p>
    };
    html! {
        <Card id="summary" title="Scores per credit target" report={props.report.clone()} exports={vec![RescoreTable::Summary, RescoreTable::PerQuery]} {intro}>
            { table_grid("summary-table", &table(r, RescoreTable::Summary), |c| score_look(c, &conf), &r.summary, &[], |s: &SummaryRow| {
                RowAttrs::data(vec![("data-system", s.system.clone()), ("data-target", s.target.name().into()), ("data-subset", s.subset.name().into())])
                    .with_classes(classes!(format!("target-{}", s.target.name()), (s.subset == Subset::Shared).then_some("shared")))
            }) }
        </Card>
    }
}

/// Per-query changes between two targets for each system.
#[function_component(InstabilityTable)]
pub fn instability_table(props: &ReportProps) -> Html {
    let r = &props.report;
    let intro = html! {
        <p class="intro">{ "For each system and pair of targets (a, b), on the queries eligible under both: how many queries \
            change nDCG, flip Hit@k (gained = miss under a, hit under b) with the exact McNemar p, flip the credited top-1 item, \
            and the mean nDCG difference b \u{2212} a with its paired bootstrap interval." }</p>
    };
    html! {
        <Card id="instability" title="Instability between targets" report={props.report.clone()} exports={vec![RescoreTable::Instability]} {intro}>
            if r.instability.is_empty() {
                <p class="empty">{ "Needs at least two targets with eligible queries (TREC qrels give only Raw)." }</p>
            }
            { table_grid("instability-table", &table(r, RescoreTable::Instability), instability_look, &r.instability, &[], |s: &InstabilityRow| {
                RowAttrs::data(vec![("data-system", s.system.clone()), ("data-a", s.a.name().into()), ("data-b", s.b.name().into())])
            }) }
        </Card>
    }
}

/// The instability counts within each query category (TIAP §5.3), on the queries of the
/// category eligible under both targets; queries without a category are the category
/// `(none)`. Long tables start folded in a `<details>`.
#[function_component(InstabilityByCategoryTable)]
pub fn instability_by_category_table(props: &ReportProps) -> Html {
    let r = &props.report;
    let rows = &r.instability_by_category;
    let categories = {
        let mut c: Vec<&str> = Vec::new();
        for row in rows {
            if !c.contains(&row.category.as_str()) {
                c.push(row.category.as_str());
            }
        }
        c.len()
    };
    let intro = html! {
        <p class="intro">{ format!("The instability table split by query category (TIAP \u{a7}5.3): for each system, pair of \
            targets (a, b) and category, on the category's queries eligible under both targets, how many change nDCG, flip Hit@k \
            or the credited top-1 item, and the mean nDCG difference b \u{2212} a (no interval). Queries without a category are \
            counted under \u{201c}{}\u{201d}.", crate::audit::NO_CATEGORY) }</p>
    };
    html! {
        <Card id="instability-by-category" title="Instability per query category" report={props.report.clone()}
            exports={vec![RescoreTable::InstabilityByCategory]} {intro}>
            if rows.is_empty() {
                <p class="empty">{ "Needs at least two targets with eligible queries (TREC qrels give only Raw)." }</p>
            }
            <details open={rows.len() <= 40}>
            <summary>{ format!("{} rows ({categories} categories)", rows.len()) }</summary>
            { table_grid("instability-by-category-table", &table(r, RescoreTable::InstabilityByCategory), instability_look, rows, &[],
                |s: &CategoryInstabilityRow| RowAttrs::data(vec![("data-system", s.system.clone()), ("data-a", s.a.name().into()),
                    ("data-b", s.b.name().into()), ("data-category", s.category.clone())])) }
            </details>
        </Card>
    }
}

/// Aggregations over the per-query nDCG triplet, τ_d from the Raw ordering and agreement
/// filtering (TIAP App. B, Table 8; see [`crate::audit::aggregation`]). The population and the
/// Raw fallback are shown with the results (the paper does not state the fallback).
#[function_component(AggregationTables)]
pub fn aggregation_tables(props: &ReportProps) -> Html {
    let r = &props.report;
    let fallback = r
        .aggregations
        .first()
        .map(|a| a.fallback.clone())
        .unwrap_or_else(|| crate::audit::aggregation::FALLBACK_RAW.into());
    let population = r
        .aggregations
        .first()
        .map(|a| a.population.clone())
        .unwrap_or_else(|| crate::audit::aggregation::POPULATION_RAW_ELIGIBLE.into());
    let intro = html! {
        <p class="intro">{ "Can one aggregate score absorb the choice of target? (TIAP App. B, Table 8.) Per system, over its \
            queries eligible under Raw, the per-query nDCG triplet (Raw, Source, Canonical) is averaged as the arithmetic mean, \
            the geometric mean (cube root of the product; any zero gives 0) and the minimum. Where a query has no Source or \
            Canonical target, that member falls back to the Raw value: the paper does not state this, but it reproduces \
            Table 8 (the counts are shown). \u{3c4}_d counts the system pairs ordered differently from the Raw means \
            (exact ties are never discordant). Agreement filtering keeps the queries where all three targets agree on Hit@k \
            and reports the mean nDCG spread (max \u{2212} min of the triplet) on the kept queries and on the kept all-hit \
            queries (the paper does not say which)." }</p>
    };
    html! {
        <Card id="aggregations" title="Aggregations and agreement filtering" report={props.report.clone()}
            exports={vec![RescoreTable::Aggregations, RescoreTable::KendallFromRaw, RescoreTable::Agreement]} {intro}>
            if r.aggregations.is_empty() {
                <p class="empty">{ "Needs Raw and at least one other target with eligible queries (TREC qrels give only Raw)." }</p>
            } else {
                <p id="aggregations-setting" data-population={population.clone()} data-fallback={fallback.clone()}>
                    { "population: " }<code>{ population }</code>{ " \u{b7} fallback for targetless queries: " }<code>{ fallback }</code>
                </p>
                <p class="table-caption">{ "Mean nDCG@k per system under each target and aggregation" }</p>
                { table_grid("aggregations-table", &table(r, RescoreTable::Aggregations).without(SAID_ONCE), aggregation_look, &r.aggregations, &[],
                    |a: &AggregationRow| RowAttrs::data(vec![("data-system", a.system.clone()),
                        ("data-population", a.population.clone()), ("data-fallback", a.fallback.clone())])) }
                <p class="table-caption">{ "\u{3c4}_d: system pairs ordered differently from the Raw means" }</p>
                { table_grid("kendall-from-raw-table", &table(r, RescoreTable::KendallFromRaw), aggregation_look, &r.kendall_from_raw, &[],
                    |k: &KendallRow| RowAttrs::data(vec![("data-aggregation", k.aggregation.clone())])) }
                <p class="table-caption">{ "Agreement filtering: queries where all three targets agree on Hit@k" }</p>
                { table_grid("agreement-table", &table(r, RescoreTable::Agreement).without(SAID_ONCE), aggregation_look, &r.agreement, &[],
                    |a: &AgreementRow| RowAttrs::data(vec![("data-system", a.system.clone()),
                        ("data-population", a.population.clone()), ("data-fallback", a.fallback.clone())])) }
            }
        </Card>
    }
}

/// System pairs × targets: who wins each cell, on the shared subset first (the same queries
/// under every target) or on every eligible query, for the chosen metric; pairs whose winner
/// changes across targets are highlighted.
#[function_component(WinnerGrid)]
pub fn winner_grid(props: &ReportProps) -> Html {
    use crate::audit::{Metric, Subset};
    let r = &props.report;
    let subset = use_state(|| Subset::Shared);
    let metric = use_state(|| Metric::Ndcg);
    let targets: Vec<Target> = r.targets.clone();
    let rows: Vec<&crate::audit::WinnerRow> =
        r.winners.iter().filter(|w| w.subset == *subset && w.metric == *metric).collect();
    // Pairs in report order.
    let mut pairs: Vec<(String, String)> = Vec::new();
    for w in &rows {
        if !pairs.iter().any(|(a, b)| *a == w.a && *b == w.b) {
            pairs.push((w.a.clone(), w.b.clone()));
        }
    }
    let flips = rows.iter().filter(|w| w.flip).count() / targets.len().max(1);
    let on_subset = {
        let subset = subset.clone();
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
            subset.set(<Subset as crate::choice::Choice>::parse(&v).unwrap_or(Subset::Shared));
        })
    };
    let on_metric = {
        let metric = metric.clone();
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
            metric.set(Metric::ALL.into_iter().find(|m| m.name() == v).unwrap_or(Metric::Ndcg));
        })
    };
    let m = metric.name();
    let intro = html! {
        <p class="intro">
            { format!("\u{0394} = mean {m} of a \u{2212} mean {m} of b on the paired queries, with its paired bootstrap interval; \
               \u{2605} marks an interval that excludes 0. ") }
            { if *subset == Subset::Shared {
                "Shared subset: the queries eligible under every compared target for both systems — the same queries under every \
                 target, so a flip is the credit rule's doing. "
            } else {
                "All eligible: each target on its own eligible queries (populations differ across targets). "
            } }
            if *metric == Metric::Hit { { "Hit rows give McNemar's exact p on the queries one system hits and the other misses. " } }
            { "Highlighted rows: the winner flips across targets " }
            <strong>{ format!("({flips} of {} pairs)", pairs.len()) }</strong>{ "." }
        </p>
    };
    html! {
        <Card id="winners" title="Winners per target" report={props.report.clone()} exports={vec![RescoreTable::Winners]} {intro}>
            <div class="picker">
                <label for="winners-subset">{ "queries" }</label>
                <select id="winners-subset" onchange={on_subset}>
                    <option value="shared" selected={*subset == Subset::Shared}>{ "shared subset (same queries under every target)" }</option>
                    <option value="all" selected={*subset == Subset::All}>{ "all eligible (per target)" }</option>
                </select>
                <label for="winners-metric">{ "metric" }</label>
                <select id="winners-metric" onchange={on_metric}>
                    { for Metric::ALL.iter().map(|x| html! { <option value={x.name()} selected={*x == *metric}>{ x.name() }</option> }) }
                </select>
            </div>
            if pairs.is_empty() {
                <p class="empty">{ "Fewer than two systems: no pairs to compare." }</p>
            }
            <Explore>
            <table id="winner-grid" class="grid" data-subset={subset.name()} data-metric={metric.name()}>
                <thead><tr>
                    <th scope="col">{"a"}</th><th scope="col">{"b"}</th>
                    { for targets.iter().map(|t| html! { <th scope="col">{ t.name() }</th> }) }
                    <th scope="col">{"flip"}</th>
                </tr></thead>
                <tbody>
                { for pairs.iter().map(|(a, b)| {
                    let cells: Vec<_> = targets.iter().map(|t| rows.iter().find(|w| w.a == *a && w.b == *b && w.target == *t)).collect();
                    let flip = cells.iter().flatten().any(|w| w.flip);
                    html! {
                        <tr data-a={a.clone()} data-b={b.clone()} data-flip={flip.to_string()} class={classes!(flip.then_some("flip"))}>
                            <th scope="row" data-col="a">{ a.clone() }</th>
                            <td data-col="b">{ b.clone() }</td>
                            { for targets.iter().zip(cells).map(|(t, w)| match w {
                                Some(w) => {
                                    let winner = w.winner.clone().unwrap_or_else(|| "—".into());
                                    let side = if w.winner.as_deref() == Some(w.a.as_str()) { "win-a" }
                                        else if w.winner.as_deref() == Some(w.b.as_str()) { "win-b" } else { "win-none" };
                                    html! {
                                        <td class={classes!("winner-cell", side)} data-target={t.name()}
                                            data-winner={w.winner.clone().unwrap_or_default()}
                                            data-significant={w.significant.to_string()} data-n={w.n.to_string()}>
                                            <span class="winner" data-col="winner">{ winner }</span>
                                            if w.significant { <span class="star" title="interval excludes 0">{ " \u{2605}" }</span> }
                                            <br />
                                            <span class="delta">{ "\u{0394} " }<span class="num" data-col="delta" data-value={crate::report::num(w.delta)}>{ crate::web::format::fmt4(w.delta) }</span></span>
                                            <span class="ci">{ " [" }
                                                <span class="num" data-col="ci_low" data-value={crate::report::num(w.ci_low)}>{ crate::web::format::fmt4(w.ci_low) }</span>{ ", " }
                                                <span class="num" data-col="ci_high" data-value={crate::report::num(w.ci_high)}>{ crate::web::format::fmt4(w.ci_high) }</span>{ "]" }
                                            </span>
                                            <span class="means" title="means of a and b on the paired queries">
                                                { " n=" }<span data-col="n">{ w.n }</span>{ " (" }
                                                <span class="num" data-col="mean_a" data-value={crate::report::num(w.mean_a)}>{ crate::web::format::fmt4(w.mean_a) }</span>{ " vs " }
                                                <span class="num" data-col="mean_b" data-value={crate::report::num(w.mean_b)}>{ crate::web::format::fmt4(w.mean_b) }</span>{ ")" }
                                            </span>
                                            if let Some(p) = w.mcnemar_p {
                                                <span class="mcnemar" title="McNemar exact p on the hit flips (a only / b only)">
                                                    { format!(" hits {}/{} p=", w.hit_a_only.unwrap_or(0), w.hit_b_only.unwrap_or(0)) }
                                                    <span class="num" data-col="mcnemar_p" data-value={crate::report::num(Some(p))}>{ crate::web::format::p_text(Some(p)) }</span>
                                                </span>
                                            }
                                        </td>
                                    }
                                }
                                None => html! { <td data-target={t.name()} class="win-none">{ "—" }</td> },
                            }) }
                            <td data-col="flip">{ if flip { "FLIP" } else { "" } }</td>
                        </tr>
                    }
                }) }
                </tbody>
            </table>
            </Explore>
        </Card>
    }
}

/// The best system per target and metric.
#[function_component(RecommendationsTable)]
pub fn recommendations_table(props: &ReportProps) -> Html {
    let r = &props.report;
    let intro = html! {
        <p class="intro">{ "The system that looks best under each credit target and metric, on the queries every system scored \
            for that target (all), and on the shared subset: the queries eligible under every compared target for every system. \
            Highlighted: the best system for this metric changes with the credit target, so the design choice depends on how \
            credit is assigned." }</p>
    };
    html! {
        <Card id="recommendations" title="Design recommendations" report={props.report.clone()} exports={vec![RescoreTable::Recommendations]} {intro}>
            { table_grid("recommendations-table", &table(r, RescoreTable::Recommendations), |c| match c {
                "n" => Look::named(c, Kind::Int),
                "value" | "runner_up_value" | "margin" => Look::named(c, Kind::Num),
                "tied" => Look::named(c, Kind::Bool).titled("the best value is shared by several systems"),
                "changes_across_targets" => Look::new("changes with the target", Kind::Bool),
                "subset" => Look::new("queries", Kind::Text),
                _ => Look::named(c, Kind::Text),
            }, &r.recommendations, &[], |x: &crate::audit::RecommendationRow| {
                RowAttrs::data(vec![("data-target", x.target.name().into()), ("data-metric", x.metric.name().into()),
                    ("data-subset", x.subset.name().into())])
                    .with_class(x.changes_across_targets.then_some("changes"))
            }) }
        </Card>
    }
}

/// Rows shown before "show all".
const CONTESTED_PREVIEW: usize = 20;

/// Raw misses where Source and Canonical both hit, with the credited memories to judge.
#[function_component(ContestedTable)]
pub fn contested_table(props: &ReportProps) -> Html {
    let r = &props.report;
    let show_all = use_state(|| false);
    let toggle = {
        let show_all = show_all.clone();
        Callback::from(move |_: MouseEvent| show_all.set(!*show_all))
    };
    let shown = if *show_all { r.contested.len() } else { r.contested.len().min(CONTESTED_PREVIEW) };
    let intro = html! {
        <p class="intro">{ "Queries where Raw misses (no raw source turn within k) while both Source and Canonical credit \
            the list: the credited memories below are what a semantic audit must judge (export as CSV to label them)." }</p>
    };
    html! {
        <Card id="contested" title="Contested credits" report={props.report.clone()} exports={vec![RescoreTable::ContestedSummary, RescoreTable::Contested]} {intro}>
            if r.contested_summary.is_empty() {
                <p class="empty">{ "Needs all three targets (not available for TREC qrels)." }</p>
            } else {
                { table_grid("contested-summary-table", &table(r, RescoreTable::ContestedSummary), |c| match c {
                    "raw_covered" => Look::new("queries with a Raw target", Kind::Int),
                    "system" => Look::named(c, Kind::Text),
                    _ => Look::named(c, Kind::Int),
                }, &r.contested_summary, &[], |c: &ContestedSummary| RowAttrs::data(vec![("data-system", c.system.clone())])) }
                { {
                    let mut contested = table(r, RescoreTable::Contested);
                    contested.rows.truncate(shown);
                    let look = |c: &str| match c {
                        "rank" => Look::named(c, Kind::Int),
                        "source" | "canonical" => Look::named(c, Kind::Bool),
                        "query_id" => Look::new("query", Kind::Text),
                        "memory_id" => Look::new("memory", Kind::Text),
                        "query_text" | "answer" => Look::folded(),
                        _ => Look::named(c, Kind::Text),
                    };
                    let cell = |c: &crate::audit::ContestedRow, col: &str, _: &str| match col {
                        "query_id" => Some(html! { <td data-col="query_id" title={c.query_text.clone().unwrap_or_default()}>{ c.query_id.clone() }</td> }),
                        "text" => Some(html! { <td data-col="text" class="text">{ c.text.clone().unwrap_or_default() }</td> }),
                        _ => None,
                    };
                    table_view("contested-table", &contested, look, &r.contested[..shown], &[], |_| RowAttrs::default(), cell)
                } }
                if r.contested.len() > CONTESTED_PREVIEW {
                    <p>
                        { format!("Showing {} of {} rows. ", shown, r.contested.len()) }
                        <button type="button" class="small" onclick={toggle}>
                            { if *show_all { "Show fewer" } else { "Show all" } }
                        </button>
                    </p>
                }
            }
        </Card>
    }
}

/// Metrics against the cutoff k (`--k 1,5,10,60`): the curve per system for one target and
/// metric, and its table.
#[function_component(CurveCard)]
pub fn curve_card(props: &ReportProps) -> Html {
    use crate::audit::Metric;
    use crate::plots::CutoffPlot;
    use crate::web::components::plot::PlotCanvas;
    let r = &props.report;
    let target = use_state(|| r.targets.last().copied().unwrap_or(Target::Raw));
    let metric = use_state(|| Metric::Recall);
    if r.curve.is_empty() {
        return html! {};
    }
    let target_now = if r.targets.contains(&*target) { *target } else { r.targets[0] };
    let Some(plot) = crate::audit::figures::cutoff_plot(r, target_now, *metric) else {
        return html! {};
    };
    let mut ks: Vec<usize> = r.curve.iter().map(|c| c.k).collect();
    ks.sort_unstable();
    ks.dedup();
    let on_target = {
        let target = target.clone();
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
            if let Some(t) = Target::parse(&v) {
                target.set(t);
            }
        })
    };
    let on_metric = {
        let metric = metric.clone();
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
            metric.set(Metric::ALL.into_iter().find(|m| m.name() == v).unwrap_or(Metric::Recall));
        })
    };
    let intro = html! {
        <p class="intro">{ format!("The same saved lists scored at each cutoff ({}); every other table is at k = {}.",
            ks.iter().map(|k| k.to_string()).collect::<Vec<_>>().join(", "), r.settings.k) }</p>
    };
    html! {
        <Card id="curve" title="Metrics by cutoff" report={props.report.clone()} exports={vec![RescoreTable::Curve]} {intro}>
            <div class="picker">
                <label for="curve-target">{ "target" }</label>
                <select id="curve-target" onchange={on_target}>
                    { for r.targets.iter().map(|t| html! { <option value={t.name()} selected={*t == target_now}>{ t.name() }</option> }) }
                </select>
                <label for="curve-metric">{ "metric" }</label>
                <select id="curve-metric" onchange={on_metric}>
                    { for Metric::ALL.iter().map(|m| html! { <option value={m.name()} selected={*m == *metric}>{ m.name() }</option> }) }
                </select>
            </div>
            <PlotCanvas<CutoffPlot> id="curve-plot" {plot} filename="memaudit-cutoff-curve" />
            { table_grid("curve-table", &table(r, RescoreTable::Curve), |c| score_look(c, ""), &r.curve, &[], |c: &CurveRow| {
                RowAttrs::data(vec![("data-system", c.system.clone()), ("data-target", c.target.name().into()),
                    ("data-subset", c.subset.name().into()), ("data-k", c.k.to_string())])
            }) }
        </Card>
    }
}

/// How a column of the tables of scores is shown (`conf`: the interval's level, for its
/// headers).
fn score_look(col: &str, conf: &str) -> Look {
    match col {
        "system" | "target" | "subset" => Look::named(col, Kind::Text),
        "n" | "k" => Look::named(col, Kind::Int),
        "ndcg" => Look::new("nDCG", Kind::Num),
        "ndcg_ci_low" => Look::new(format!("{conf} CI low"), Kind::Num),
        "ndcg_ci_high" => Look::new(format!("{conf} CI high"), Kind::Num),
        "mrr" => Look::new("MRR", Kind::Num),
        "top1" => Look::new("top-1", Kind::Num),
        _ => Look::named(col, Kind::Num),
    }
}

/// How a column of the instability table is shown.
fn instability_look(col: &str) -> Look {
    match col {
        "system" | "a" | "b" | "category" => Look::named(col, Kind::Text),
        "change_rate" => Look::new("change rate", Kind::Share),
        "mcnemar_p" => Look::new("McNemar p", Kind::Num),
        "top1_flips" => Look::new("top-1 flips", Kind::Int),
        "mrr_changed" => Look::new("MRR changed", Kind::Int),
        "mean_diff_ndcg" => Look::new("mean diff", Kind::Num),
        "ci_low" => Look::new("CI low", Kind::Num),
        "ci_high" => Look::new("CI high", Kind::Num),
        "mean_a" | "mean_b" => Look::named(col, Kind::Num),
        _ => Look::named(col, Kind::Int),
    }
}

/// Columns of the aggregation and agreement tables that hold one value for every row, stated
/// once above them (`#aggregations-setting`) and kept on each row as `data-*`.
const SAID_ONCE: &[&str] = &["population", "fallback"];

/// How a column of the aggregation, τ_d and agreement tables is shown.
fn aggregation_look(col: &str) -> Look {
    match col {
        "system" | "aggregation" => Look::named(col, Kind::Text),
        "order" => Look::new("order (best first)", Kind::Text),
        "n" | "kept" | "n_all_hit" | "systems" | "max" | "ties" => Look::named(col, Kind::Int),
        "tau_d" => Look::new("\u{3c4}_d", Kind::Int),
        "source_fallback" => {
            Look::new("Source fallback", Kind::Int).titled("queries whose Source value is the Raw value")
        }
        "canonical_fallback" => {
            Look::new("Canonical fallback", Kind::Int).titled("queries whose Canonical value is the Raw value")
        }
        "raw" => Look::new("Raw", Kind::Num),
        "source" => Look::new("Source", Kind::Num),
        "canonical" => Look::new("Canonical", Kind::Num),
        "arith" => Look::new("arith. mean", Kind::Num),
        "geom" => Look::new("geom. mean", Kind::Num),
        "retention" => Look::named(col, Kind::Share),
        _ => Look::named(col, Kind::Num),
    }
}
