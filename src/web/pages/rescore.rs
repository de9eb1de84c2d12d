//! The rescoring page: the report's sections in order (reading summary, coverage, scores,
//! instability, instability per query category, aggregations and agreement filtering, winners,
//! recommendations, contested credits, |ΔnDCG| histogram, drill-down), on the tool page
//! ([`ToolPage`]). "Use this rescoring" sends the report's per-query rows to the comparison
//! page. Its element ids carry no page prefix (`#intake`, `#results`, `#k`): the founding page's
//! ids, which links and embeddings name.
//!
//! The page does no heavy work: files go to the worker as browser `Blob`s, results come back
//! as a [`Report`](crate::audit::Report). It renders user-provided text as text only.

use std::rc::Rc;

use yew::prelude::*;

use super::tool::{BatchOf, Tool, ToolPage, Ui};
use crate::audit::{DrilldownQuery, QueryInfo, Rescore};
use crate::conventions::Settings;
use crate::fields::Fields;
use crate::web::components::ReportRef;
use crate::web::components::drilldown::{DrillState, DrilldownView, Selection};
use crate::web::components::export::{report_json, text_download};
use crate::web::components::histogram::DeltaHistogram;
use crate::web::components::reading::ReadingSummary;
use crate::web::components::settings::{Draft, parse};
use crate::web::components::tables::{
    AggregationTables, ContestedTable, CoverageTable, CurveCard, InstabilityByCategoryTable, InstabilityTable,
    RecommendationsTable, ReportingCard, SummaryTable, WinnerGrid,
};

/// The rescoring page's tool.
pub struct RescorePage;

/// What the page keeps beside a result: the queries of the dataset (the drill-down's picker)
/// and the drill-down.
#[derive(Default)]
pub struct View {
    queries: Rc<Vec<QueryInfo>>,
    drill: DrillState,
}

/// The list a selection names, under the result's report.
fn question(b: &BatchOf<RescorePage>, queries: &[QueryInfo], sel: Selection) -> Option<DrilldownQuery> {
    let system = b.report.systems.get(sel.system)?;
    let query = queries.get(sel.query)?;
    Some(DrilldownQuery { system: system.clone(), query: query.id.clone() })
}

/// A first list worth looking at: the first query the first system scored under a target.
fn first_selection(b: &BatchOf<RescorePage>, queries: &[QueryInfo]) -> Option<Selection> {
    let system = b.report.systems.first()?;
    let qid =
        b.report.per_query.iter().find(|p| &p.system == system && p.eligible && p.has_run).map(|p| p.query_id.as_str());
    let query = qid.and_then(|id| queries.iter().position(|q| q.id == id)).unwrap_or(0);
    (!queries.is_empty()).then_some(Selection { system: 0, query })
}

/// Notes `sel` as the drill-down on screen and names its list.
fn select(view: &mut View, b: &BatchOf<RescorePage>, sel: Selection) -> Option<DrilldownQuery> {
    let q = question(b, &view.queries, sel)?;
    view.drill.selection = Some(sel);
    view.drill.loading = true;
    view.drill.error = None;
    Some(q)
}

impl Tool for RescorePage {
    // Off for the first module's size: see `Tool::PRINTED_CARD`.
    const PRINTED_CARD: bool = false;
    type Capability = Rescore;
    const INTAKE_TITLE: &'static str = "Your results";
    const BARE_IDS: bool = true;
    const CARDS: crate::web::components::headlines::Cards = &[
        ("winners", "winners"),
        ("recommendations", "recommendations"),
        ("instability", "instability"),
        ("coverage", "coverage"),
        ("card", "reporting-card"),
        ("contested_summary", "contested"),
        ("warnings", "reading-summary"),
    ];
    type Draft = Draft;
    type View = View;

    fn preload(startup: &crate::web::dom::StartupRequest) -> Option<crate::web::dom::Preload> {
        startup.bundle.clone().map(crate::web::dom::Preload::Bundle)
    }

    fn tagline() -> Html {
        html! { { "Rescore saved LLM-memory retrieval results under the Raw, Source and Canonical credit targets, and see \
        which conclusions survive." } }
    }

    fn intake() -> Html {
        html! {
            <p>{ "Drop files anywhere on this page, or choose them: stored memories, queries with gold evidence, and saved ranked \
                  outputs, in any order (memaudit JSONL bundles, per-hit rows, LongMemEval retrieval logs, TREC runs and qrels, \
                  LoCoMo and LongMemEval data; " }<code>{ ".gz" }</code>{ " accepted). Formats are detected from the content." }</p>
        }
    }

    fn request(draft: &Draft) -> Result<Settings, String> {
        parse(draft)
    }

    fn settings(page: &ToolPage<Self>, ui: &Ui<Self>) -> Html {
        // Each input's id is its field's name (`#k`, `#order`).
        let ids: Vec<(&str, &str)> = Settings::fields().into_iter().map(|f| (f.name, f.name)).collect();
        ui.fields_form_with("", &page.draft, |d: &mut Draft| d, &[], &ids)
    }

    fn after_result(view: &mut View, _draft: &mut Draft, b: &BatchOf<Self>, fresh: bool) -> Option<DrilldownQuery> {
        if fresh {
            view.queries = Rc::new(b.overview.queries.clone());
            view.drill = DrillState::default();
            let sel = first_selection(b, &view.queries)?;
            select(view, b, sel)
        } else {
            let sel = view.drill.selection?;
            select(view, b, sel)
        }
    }

    fn on_detail(view: &mut View, answer: Option<Result<Rc<crate::audit::Drilldown>, String>>) -> bool {
        view.drill.loading = false;
        match answer {
            Some(Ok(d)) => {
                view.drill.result = Some(d);
                view.drill.error = None;
            }
            Some(Err(e)) => {
                view.drill.result = None;
                view.drill.error = Some(e);
            }
            None => {}
        }
        false
    }

    fn results(page: &ToolPage<Self>, b: &Rc<BatchOf<Self>>, ui: &Ui<Self>) -> Html {
        let report = ReportRef(b.report.clone());
        let source = page.source.describe(report.reading.files.len());
        let use_rescoring = {
            let (report, label, cb) = (report.clone(), format!("the rescoring of {source}"), ui.use_rescoring.clone());
            Callback::from(move |_: MouseEvent| cb.emit((report.clone(), label.clone())))
        };
        let json = {
            let b = b.clone();
            move || report_json::<Rescore>(&b.report, &b.headlines)
        };
        let timing = Some(b.timing.clone());
        let on_select = ui.ask(|view: &mut View, b: Option<&BatchOf<Self>>, sel: Selection| select(view, b?, sel));
        html! {
            <>
                <div class="results-head">
                    <p>{ format!("Results for {source}, memaudit {}.", crate::VERSION) }</p>
                    <div class="exports">
                        if !report.per_query.is_empty() {
                            <button type="button" class="small" id="use-rescoring" onclick={use_rescoring}
                                title="compare system × target as arms on the paired-comparison page (per-query rows)">
                                { "Use this rescoring \u{2192} paired comparison" }</button>
                        }
                        { text_download("download-report", "Full report JSON", "memaudit-report.json", "application/json", json) }
                    </div>
                </div>
                <ReadingSummary report={report.clone()} {timing} />
                <CoverageTable report={report.clone()} />
                <ReportingCard report={report.clone()} />
                if !report.systems.is_empty() {
                    <SummaryTable report={report.clone()} />
                    <CurveCard report={report.clone()} />
                    <InstabilityTable report={report.clone()} />
                    <InstabilityByCategoryTable report={report.clone()} />
                    <AggregationTables report={report.clone()} />
                    <WinnerGrid report={report.clone()} />
                    <RecommendationsTable report={report.clone()} />
                    <ContestedTable report={report.clone()} />
                    <DeltaHistogram report={report.clone()} />
                    <DrilldownView report={report.clone()} queries={page.view.queries.clone()}
                        state={page.view.drill.clone()} {on_select} />
                }
            </>
        }
    }
}

screen!(crate::audit::Rescore => ToolPage<RescorePage>, Founding);
