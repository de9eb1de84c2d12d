//! The alignment page: drop a rescoring's per-query metrics (`memaudit rescore --format csv
//! --table per_query`) and per-query answer scores, and see whether the queries one credit
//! target credits and the other does not get better answers (TIAP Table 12), whether a target's
//! metric differs on the queries the other covers (the coverage confound), and which runs have
//! identical per-query metrics — the numbers of `memaudit alignment --format json`.

use std::rc::Rc;

use yew::prelude::*;

use super::tool::{BatchOf, Tool, ToolPage, Ui, file_notes};
use crate::alignment::aggregate::{AggregationRow, WinnerRow};
use crate::alignment::analyse::{AlignmentRow, CoverageRow, IdentityRow};
use crate::alignment::contrast::ContrastRow;
use crate::alignment::shift::ShiftRow;
use crate::alignment::{self, AlignmentRequest, AlignmentTable};
use crate::report::Table;
use crate::web::components::Section;
use crate::web::components::export::{text_download, to_json};
use crate::web::components::fields::FieldDraft;
use crate::web::components::grid::{Kind, Look, RowAttrs, table_exports, table_grid};
use crate::web::components::plot::PlotCanvas;
use crate::web::format::{duration, fmt4, pct};

type AlignmentBatch = BatchOf<Alignment>;

/// The settings as edited: the request's fields ([`crate::fields!`]).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Draft {
    pub fields: FieldDraft<AlignmentRequest>,
}

/// Local choices: the row of `shifts` whose histogram is shown (its index in the report).
#[derive(Debug, Default)]
pub struct View {
    pub histogram: String,
}

pub enum Alignment {}

/// The alignment page.
pub type AlignmentPage = ToolPage<Alignment>;

screen!(crate::alignment::Alignment => AlignmentPage, Tools);

/// The settings of the result, every field named as in the report's settings.
fn conventions(b: &AlignmentBatch) -> String {
    crate::fields::settings_line(&b.report.settings)
}

fn look(col: &str) -> Look {
    match col {
        "n" | "scored" | "covered_n" | "uncovered_n" | "common" | "identical" | "shared" | "hit_flips"
        | "top1_flips" | "changed" | "tau_d" | "count" => Look::named(col, Kind::Int),
        "diff" | "low" | "high" | "mean_shift" => Look::named(col, Kind::Signed),
        "mean_score" | "covered_mean" | "uncovered_mean" | "mean_abs_shift" | "mean" | "mean_a" | "mean_b" => {
            Look::named(col, Kind::Num)
        }
        "positive_share" | "strong_share" | "share" | "change_rate" | "large_share" => Look::named(col, Kind::Share),
        "flagged" => Look::named(col, Kind::Bool),
        _ => Look::named(col, Kind::Text),
    }
}

/// What `memaudit alignment --format json` prints.
pub fn report_json(b: &AlignmentBatch) -> Result<String, String> {
    crate::web::components::export::report_json::<crate::alignment::Alignment>(&b.report, &b.headlines)
}

fn table_of(b: &AlignmentBatch, t: AlignmentTable) -> crate::error::Result<Table> {
    Ok(alignment::table(&b.report, t))
}

impl Tool for Alignment {
    type Capability = crate::alignment::Alignment;
    const INTAKE_TITLE: &'static str = "Per-query metrics and answers";
    const CARDS: crate::web::components::headlines::Cards = &[
        ("alignment", "alignment-alignment-card"),
        ("coverage", "alignment-coverage-card"),
        ("identity", "alignment-identity-card"),
        ("populations", "alignment-populations-card"),
        ("shifts", "alignment-shifts-card"),
        ("shift_histogram", "alignment-histogram-card"),
        ("target_contrasts", "alignment-contrasts-card"),
        ("aggregations", "alignment-aggregations-card"),
        ("winners", "alignment-winners-card"),
    ];
    type Draft = Draft;
    type View = View;

    fn tagline() -> Html {
        html! { { "Do the queries one credit target credits and the other does not get better answers? Is a target's metric different on \
        the queries the other covers? Are two runs the same run under two names?" } }
    }

    fn intake() -> Html {
        html! {
            <p>{ "Drop a rescoring's per-query rows (" }<code>{ "memaudit rescore --format csv --table per_query" }</code>
                { ": system, query_id, target, eligible, hit) and per-query answer scores (run, query, " }<code>{ "f1" }</code>
                { " or " }<code>{ "correct" }</code>{ "), joined on run and query; or TIAP's records as shipped (" }
                <code>{ "query_target_alignment.records.csv" }</code>{ ": " }<code>{ "raw_eligible, raw_hit_at_k, …" }</code>
                { " per target and the answer F1 in the same row)." }</p>
        }
    }

    fn request(draft: &Draft) -> Result<AlignmentRequest, String> {
        draft.fields.parse(AlignmentRequest::default())
    }

    fn settings(page: &ToolPage<Self>, ui: &Ui<Self>) -> Html {
        let d = &page.draft;
        html! {
            <>
                { ui.fields_form("alignment", &d.fields, |d: &mut Draft| &mut d.fields) }
            </>
        }
    }

    fn results(page: &ToolPage<Self>, b: &Rc<AlignmentBatch>, ui: &Ui<Self>) -> Html {
        let r = &b.report;
        let s = &r.settings;
        let conv = Some(AttrValue::from(conventions(b)));
        let json = {
            let b = b.clone();
            move || report_json(&b)
        };
        let t = |which| alignment::table(r, which);
        html! {
            <>
                <div class="results-head">
                    <p id="alignment-counts" data-runs={r.runs.len().to_string()} data-unmatched={r.answers_unmatched.to_string()}>
                        { format!("{} runs, targets {}; {} answer rows match no retrieval row ({}).", r.runs.len(), r.targets.join(", "),
                            r.answers_unmatched, duration(b.timing.total_ms)) }</p>
                    <div class="exports">{ text_download("alignment-report-json", "Full report JSON", "memaudit-alignment.json", "application/json", json) }</div>
                </div>
                <Section id="alignment-reading" title="What was read" conventions={conv.clone()}>
                    { file_notes("alignment-", &b.overview) }
                    if !r.notes.is_empty() { <ul class="notes">{ for r.notes.iter().map(|n| html! { <li>{ n.clone() }</li> }) }</ul> }
                </Section>
                { crate::web::components::cells::populations_card("alignment", &r.populations) }
                <Section id="alignment-alignment-card" title={format!("Answers of the queries {} and {} credit", s.target_a, s.target_b)} conventions={conv.clone()}
                    exports={table_exports(AlignmentTable::Alignment, b, table_of, |b| to_json(&b.report.alignment))}
                    intro={html! { <p class="intro">{ format!("On the queries eligible under both targets: a_only = {a} credits, {b} does not; b_only the reverse. \
                        Mean answer score, positive share (> 0) and strong share (\u{2265} {}). Per run, then the mean of the per-run values (TIAP's averaging) and pooled over every query.",
                        s.strong, a = s.target_a, b = s.target_b) }</p> }}>
                    { table_grid("alignment-alignment", &t(AlignmentTable::Alignment), look, &r.alignment, &[],
                        |x: &AlignmentRow| RowAttrs::data(vec![("data-run", x.run.clone()), ("data-class", x.class.clone())])) }
                </Section>
                <Section id="alignment-coverage-card" title="Coverage confound" conventions={conv.clone()}
                    exports={table_exports(AlignmentTable::Coverage, b, table_of, |b| to_json(&b.report.coverage))}
                    intro={html! { <p class="intro">{ format!("Each target's mean {} on its eligible queries that the other target also covers vs those it does not, per run; \
                        the mean difference over runs with a percentile bootstrap over runs.", s.metric) }</p> }}>
                    { table_grid("alignment-coverage", &t(AlignmentTable::Coverage), look, &r.coverage, &[],
                        |x: &CoverageRow| RowAttrs::data(vec![("data-run", x.run.clone()), ("data-target", x.target.clone())])) }
                </Section>
                <Section id="alignment-shifts-card" title="Target shifts" conventions={conv.clone()}
                    exports={table_exports(AlignmentTable::Shifts, b, table_of, |b| to_json(&b.report.shifts))}
                    intro={html! { <p class="intro">{ format!("Switching only the target, the ranked lists the same (TIAP Tables 4 and 15, Figure 3): per run and pair of targets, \
                        on the queries eligible under both, the {} flips, the queries whose `{}` changed, the mean shift and |shift|, and the share with |shift| \u{2265} {}; \
                        `pooled` over the runs of a group.", if s.flip_metrics.is_empty() { "(no hit or top-1 column:) no".to_string() } else { s.flip_metrics.join(" and ") },
                        s.shift_metric, s.shift_threshold) }</p> }}>
                    { table_grid("alignment-shifts", &t(AlignmentTable::Shifts), look, &r.shifts, &[],
                        |x: &ShiftRow| RowAttrs::data(vec![("data-run", x.run.clone()), ("data-pair", format!("{}~{}", x.target_a, x.target_b))])) }
                </Section>
                { shift_histogram(page, b, ui, conv.clone()) }
                <Section id="alignment-contrasts-card" title="Target contrasts on each run's shared subset" conventions={conv.clone()}
                    exports={table_exports(AlignmentTable::TargetContrasts, b, table_of, |b| to_json(&b.report.target_contrasts))}
                    intro={html! { <p class="intro">{ format!("Per run, on its queries with `{}` under every target (TIAP Table 2: the canonical-covered shared subset), \
                        each target's mean and the mean difference B \u{2212} A with a {}% percentile bootstrap interval over the queries ({} resamples, seed {}; \
                        TIAP used 3,000).", s.shift_metric, s.bootstrap.confidence * 100.0, s.bootstrap.resamples, s.bootstrap.seed) }</p> }}>
                    { table_grid("alignment-contrasts", &t(AlignmentTable::TargetContrasts), look, &r.target_contrasts, &[],
                        |x: &ContrastRow| RowAttrs::data(vec![("data-run", x.run.clone()), ("data-pair", format!("{}~{}", x.target_a, x.target_b))])) }
                </Section>
                <Section id="alignment-aggregations-card" title="Target aggregations" conventions={conv.clone()}
                    exports={table_exports(AlignmentTable::Aggregations, b, table_of, |b| to_json(&b.report.aggregations))}
                    intro={html! { <p class="intro">{ format!("Can one score absorb the choice of target (TIAP Table 8)? {}.", s.aggregation_method) }</p> }}>
                    { table_grid("alignment-aggregations", &t(AlignmentTable::Aggregations), look, &r.aggregations, &[],
                        |x: &AggregationRow| RowAttrs::data(vec![("data-run", x.run.clone()), ("data-method", x.method.clone())])) }
                </Section>
                <Section id="alignment-winners-card" title="Winners" conventions={conv.clone()}
                    exports={table_exports(AlignmentTable::Winners, b, table_of, |b| to_json(&b.report.winners))}
                    intro={html! { <p class="intro">{ "Per pair of a group's runs and per method, the run with the higher mean (TIAP Table 5, with \
                        \u{201c}aggregate on\u{201d} = shared: its fixed shared subset)." }</p> }}>
                    { table_grid("alignment-winners", &t(AlignmentTable::Winners), look, &r.winners, &[],
                        |x: &WinnerRow| RowAttrs::data(vec![("data-pair", format!("{}~{}", x.run_a, x.run_b)), ("data-method", x.method.clone())])) }
                </Section>
                <Section id="alignment-identity-card" title="Run identity" conventions={conv}
                    exports={table_exports(AlignmentTable::Identity, b, table_of, |b| to_json(&b.report.identity))}
                    intro={html! { <p class="intro">{ format!("For two runs and a target, the share of their common eligible queries with identical metrics; \
                        flagged at \u{2265} {}: the same run under two names?", s.identity_threshold) }</p> }}>
                    { table_grid("alignment-identity", &t(AlignmentTable::Identity), look, &r.identity, &[],
                        |x: &IdentityRow| RowAttrs::data(vec![("data-pair", format!("{}~{}", x.run_a, x.run_b)), ("data-target", x.target.clone())])
                            .with_class(x.flagged.then_some("late"))) }
                </Section>
            </>
        }
    }
}

/// The |shift| histogram of a row of `shifts` (TIAP Figure 3), a group's pooled row first.
fn shift_histogram(
    page: &ToolPage<Alignment>,
    b: &Rc<AlignmentBatch>,
    ui: &Ui<Alignment>,
    conv: Option<AttrValue>,
) -> Html {
    let r = &b.report;
    let s = &r.settings;
    let summary = alignment::figures::summary_rows(&r.shifts);
    let label = |x: &ShiftRow| {
        let group = if x.group.is_empty() { String::new() } else { format!("{} · ", x.group) };
        format!("{group}{} · {} \u{2192} {}", x.run, x.target_a, x.target_b)
    };
    // The summary rows first, then every run's; the default: the first summary row of the
    // settings' pair (TIAP Figure 3: raw → canonical, pooled per dataset).
    let mut order: Vec<usize> = (0..r.shifts.len()).filter(|&i| summary[i]).collect();
    order.extend((0..r.shifts.len()).filter(|&i| !summary[i]));
    let options: Vec<(String, String)> = order.iter().map(|&i| (i.to_string(), label(&r.shifts[i]))).collect();
    let fallback = order
        .iter()
        .copied()
        .find(|&i| {
            (r.shifts[i].target_a.as_str(), r.shifts[i].target_b.as_str()) == (s.target_a.as_str(), s.target_b.as_str())
        })
        .or(order.first().copied());
    let chosen = page.view.histogram.parse::<usize>().ok().filter(|i| *i < r.shifts.len()).or(fallback);
    let exports = table_exports(AlignmentTable::ShiftHistogram, b, table_of, |b| to_json(&b.report.shifts));
    html! {
        <Section id="alignment-histogram-card" title="Distribution of target shifts" conventions={conv} {exports}
            intro={html! { <p class="intro">{ format!("Per query, |\u{0394}{}| between two targets on the queries eligible under both (TIAP Figure 3: raw \u{2192} canonical, \
                pooled over a dataset's runs); 20 equal bins from 0. Orange: the {} threshold; red: the mean.", s.shift_metric, s.shift_threshold) }</p> }}>
            if let Some(i) = chosen {
                <div class="controls">
                    { ui.select_field("alignment-histogram-row", "shifts of", &options, &i.to_string(), ui.on_view(|v: &mut View, x| v.histogram = x)) }
                </div>
                <PlotCanvas<crate::plots::histogram::HistogramPlot> id="alignment-histogram"
                    plot={alignment::figures::shift_plot(&r.shifts[i], &s.shift_metric, s.shift_threshold)} filename="memaudit-alignment-shift-histogram" />
                <p class="hist-stats" id="alignment-histogram-stats" data-n={r.shifts[i].shared.to_string()}>
                    { format!("n = {} queries; mean |\u{0394}| = {}; |\u{0394}| \u{2265} {} for {} of them.", r.shifts[i].shared,
                        fmt4(r.shifts[i].mean_abs_shift), s.shift_threshold, pct(r.shifts[i].large_share)) }</p>
            } else {
                <p class="empty">{ "Needs two targets with queries eligible under both." }</p>
            }
        </Section>
    }
}
