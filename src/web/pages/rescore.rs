//! The rescoring page: drop zone and file picker, demo button, progress, settings,
//! errors, and the report's sections in order (reading summary, coverage, scores, instability,
//! instability per query category, aggregations and agreement filtering, winners,
//! recommendations, contested credits, |ΔnDCG| histogram, drill-down). "Use this rescoring" sends the report's per-query rows to the
//! comparison page.
//!
//! The page does no heavy work: files go to the worker as browser `Blob`s, results come back
//! as a [`Report`](crate::audit::Report). It renders user-provided text as text only.

use std::rc::Rc;

use yew::prelude::*;

use super::{ErrorView, FileEdit, PageProps, PageState, error_box, file_list, file_picker, forward_drop, report_state};
use crate::audit::{DrilldownQuery, QueryInfo, Rescore};
use crate::conventions::Settings;
use crate::web::components::contents::Contents;
use crate::web::components::drilldown::{DrillState, DrilldownView, Selection};
use crate::web::components::headlines::{HeadlinesPanel, attach_buttons};
use crate::web::components::histogram::DeltaHistogram;
use crate::web::components::reading::ReadingSummary;
use crate::web::components::settings::SettingsPanel;
use crate::web::components::tables::{
    AggregationTables, ContestedTable, CoverageTable, CurveCard, InstabilityByCategoryTable, InstabilityTable,
    RecommendationsTable, SummaryTable, WinnerGrid,
};
use crate::web::components::{ReportRef, export::report_json};

/// Which card shows each table a rescoring headline points to.
const CARDS: crate::web::components::headlines::Cards = &[
    ("winners", "winners"),
    ("recommendations", "recommendations"),
    ("instability", "instability"),
    ("coverage", "coverage"),
    ("contested_summary", "contested"),
    ("warnings", "reading-summary"),
];
use crate::web::dom::{self, download_text};
use crate::web::job::{self, Job, JobEvent};
use crate::web::protocol::{Inputs, Response, SourceFile, Timing};

/// Where the current data came from.
#[derive(Debug, Clone, PartialEq)]
pub enum Source {
    None,
    Demo,
    Files,
    Bundle(String),
}

pub enum Msg {
    Files(FileEdit),
    Demo,
    BundleFetched(String, Result<Vec<SourceFile>, String>),
    Worker(Response),
    Cancel,
    Apply(Settings),
    Drill(Selection),
    DismissError,
    DownloadReport,
    UseRescoring,
}

/// The rescoring page.
pub struct RescorePage {
    job: Job<Rescore>,
    /// The running job reads new inputs (files, the demo, a bundle).
    loading: bool,
    files: Vec<SourceFile>,
    /// Source of the report on screen, and of the load in progress.
    source: Source,
    pending_source: Source,
    settings: Settings,
    report: Option<ReportRef>,
    /// The report's headlines (the CLI's `headlines`).
    headlines: Rc<Vec<crate::headline::Headline>>,
    /// The input files the report rests on (for the report to attach).
    inputs: Rc<Vec<crate::attach::InputInfo>>,
    queries: Rc<Vec<QueryInfo>>,
    timing: Option<Timing>,
    drill: DrillState,
    /// Fetching `?bundle=` (before the worker has anything).
    fetching: Option<String>,
    last_drop: Option<u32>,
    state: PageState,
}

impl RescorePage {
    fn load(&mut self, inputs: Inputs) {
        self.loading = true;
        self.job.run(Some(inputs), &self.settings, "starting");
    }

    fn load_files(&mut self) {
        if !self.files.is_empty() {
            self.load(job::files(&self.files));
        }
    }

    fn load_demo(&mut self) {
        self.files.clear();
        self.pending_source = Source::Demo;
        self.load(Inputs::Demo);
    }

    fn request_drill(&mut self, sel: Selection) {
        let Some(report) = self.report.as_ref() else {
            return;
        };
        let (Some(system), Some(query)) = (report.systems.get(sel.system), self.queries.get(sel.query)) else {
            return;
        };
        let question = DrilldownQuery { system: system.clone(), query: query.id.clone() };
        let settings = report.settings.clone();
        self.drill.selection = Some(sel);
        self.drill.loading = true;
        self.drill.error = None;
        self.job.detail(&settings, &question);
    }

    /// A first list worth looking at: the first query the first system scored under a target.
    fn default_selection(&self) -> Option<Selection> {
        let report = self.report.as_ref()?;
        let system = report.systems.first()?;
        let qid = report
            .per_query
            .iter()
            .find(|p| &p.system == system && p.eligible && p.has_run)
            .map(|p| p.query_id.as_str());
        let query = qid.and_then(|id| self.queries.iter().position(|q| q.id == id)).unwrap_or(0);
        (!self.queries.is_empty()).then_some(Selection { system: 0, query })
    }

    fn on_response(&mut self, r: Response) -> bool {
        let loading = self.loading;
        match self.job.on_response(r, &mut self.files, self.report.is_some(), "data") {
            JobEvent::Ignored => false,
            JobEvent::Progress => true,
            JobEvent::Done { outcome, timing } => {
                self.loading = false;
                let report = outcome.report;
                self.settings = report.settings.clone();
                self.headlines = Rc::new(crate::capability::headlines::<crate::audit::Rescore>(&report));
                self.inputs = Rc::new(crate::audit::unit::input_files(&report));
                self.report = Some(ReportRef(Rc::new(report)));
                self.timing = Some(timing);
                if let Some(o) = outcome.overview {
                    self.queries = Rc::new(o.queries);
                }
                if loading {
                    self.source = self.pending_source.clone();
                    self.drill = DrillState::default();
                    if let Some(sel) = self.default_selection() {
                        self.request_drill(sel);
                    }
                } else if let Some(sel) = self.drill.selection {
                    self.request_drill(sel);
                }
                true
            }
            JobEvent::Detail(d) => {
                self.drill.loading = false;
                self.drill.result = Some(Rc::new(*d));
                self.drill.error = None;
                true
            }
            JobEvent::Failed(error, overview) => {
                if let Some(o) = overview {
                    self.queries = Rc::new(o.queries);
                }
                if self.drill.loading {
                    self.drill.loading = false;
                    self.drill.result = None;
                    self.drill.error = Some(error.to_string());
                }
                if !self.job.is_busy() {
                    self.loading = false;
                }
                true
            }
        }
    }

    fn view_intake(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let on_files = link.callback(|f| Msg::Files(FileEdit::Add(f)));
        let demo = link.callback(|_: MouseEvent| Msg::Demo);
        html! {
            <section id="intake" class="card drop-zone" aria-labelledby="intake-title">
                <h2 id="intake-title">{ "Your results" }</h2>
                <p>{ "Drop files anywhere on this page, or choose them: stored memories, queries with gold evidence, and saved ranked \
                      outputs, in any order (memaudit JSONL bundles, per-hit rows, LongMemEval retrieval logs, TREC runs and qrels, \
                      LoCoMo and LongMemEval data; " }<code>{ ".gz" }</code>{ " accepted). Formats are detected from the content." }</p>
                <div class="intake-actions">
                    { file_picker("file-input", "Choose files…", "privacy-note", on_files) }
                    <span class="or">{ "or" }</span>
                    <button type="button" id="demo-button" onclick={demo}>{ "Try the demo" }</button>
                </div>
                { file_list("", &self.files, link.callback(Msg::Files)) }
                <p class="muted" id="privacy-note">{ "Everything runs in this browser tab: your files are never uploaded." }</p>
            </section>
        }
    }

    fn view_results(&self, ctx: &Context<Self>, report: &ReportRef) -> Html {
        let download = ctx.link().callback(|_: MouseEvent| Msg::DownloadReport);
        let use_rescoring = ctx.link().callback(|_: MouseEvent| Msg::UseRescoring);
        let on_select = ctx.link().callback(Msg::Drill);
        let source = match &self.source {
            Source::Demo => "the demo bundle (synthetic data)".to_string(),
            Source::Bundle(d) => format!("the bundle {d}"),
            Source::Files | Source::None => format!("{} file(s)", report.reading.files.len()),
        };
        html! {
            <div id="results">
                <div class="results-head">
                    <p>{ format!("Results for {source}, memaudit {}.", crate::VERSION) }</p>
                    <div class="exports">
                        if !report.per_query.is_empty() {
                            <button type="button" class="small" id="use-rescoring" onclick={use_rescoring} disabled={self.job.is_busy()}
                                title="compare system × target as arms on the paired-comparison page (per-query rows)">
                                { "Use this rescoring \u{2192} paired comparison" }</button>
                        }
                        <button type="button" class="small" id="download-report" onclick={download}
                            title="the whole report, as memaudit rescore --format json prints it">{ "Full report JSON" }</button>
                    </div>
                </div>
                <HeadlinesPanel id="headlines" headlines={self.headlines.clone()} cards={CARDS}
                    exports={attach_buttons::<crate::audit::Rescore, crate::audit::Report>("", report.0.clone(), |r| r, self.inputs.clone())} />
                <Contents id="contents" root="results" revision={Rc::as_ptr(&report.0) as usize}
                    after={vec![(AttrValue::from("settings"), AttrValue::from("Settings"))]} />
                <ReadingSummary report={report.clone()} timing={self.timing.clone()} />
                <CoverageTable report={report.clone()} />
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
                    <DrilldownView report={report.clone()} queries={self.queries.clone()}
                        state={self.drill.clone()} {on_select} />
                }
            </div>
        }
    }
}

impl RescorePage {
    fn busy(&self) -> bool {
        self.job.is_busy() || self.fetching.is_some()
    }
}

screen!(crate::audit::Rescore => RescorePage, Founding);

impl Component for RescorePage {
    type Message = Msg;
    type Properties = PageProps;

    fn create(ctx: &Context<Self>) -> Self {
        let startup = dom::startup_request(super::Page::Rescore);
        let mut page = RescorePage {
            job: Job::new(ctx.link().callback(Msg::Worker)),
            loading: false,
            files: Vec::new(),
            source: Source::None,
            pending_source: Source::None,
            settings: Settings::default(),
            report: None,
            headlines: Rc::default(),
            inputs: Rc::default(),
            queries: Rc::new(Vec::new()),
            timing: None,
            drill: DrillState::default(),
            fetching: None,
            last_drop: ctx.props().dropped.as_ref().map(|d| d.seq),
            state: PageState::Idle,
        };
        if let Some(dir) = startup.bundle {
            page.fetching = Some(dir.clone());
            // A run follows the download: the worker starts loading while the bundle downloads.
            crate::web::channel::warm();
            let link = ctx.link().clone();
            wasm_bindgen_futures::spawn_local(async move {
                let result = dom::fetch_bundle(dir.clone()).await;
                link.send_message(Msg::BundleFetched(dir, result));
            });
        } else if startup.demo && ctx.props().active {
            page.load_demo();
        }
        page
    }

    fn changed(&mut self, ctx: &Context<Self>, _old: &Self::Properties) -> bool {
        forward_drop(ctx, &mut self.last_drop, Msg::Files)
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Self::Message) -> bool {
        match msg {
            Msg::Files(edit) => {
                if matches!(edit, FileEdit::Add(_)) {
                    if self.source != Source::Files {
                        // Files replace the demo or a bundle; later drops add to the user's files.
                        self.files.clear();
                    }
                    self.pending_source = Source::Files;
                    self.source = Source::Files;
                }
                if edit.apply(&mut self.files) {
                    self.load_files();
                }
                true
            }
            Msg::Demo => {
                self.load_demo();
                true
            }
            Msg::BundleFetched(dir, result) => {
                self.fetching = None;
                match result {
                    Ok(files) => {
                        self.files = files;
                        self.pending_source = Source::Bundle(dir);
                        self.load_files();
                    }
                    Err(e) => self.job.error = Some(ErrorView::plain("Could not load the bundle", e)),
                }
                true
            }
            Msg::Worker(r) => self.on_response(r),
            Msg::Cancel => {
                self.job.cancel();
                self.loading = false;
                self.drill.loading = false;
                true
            }
            Msg::Apply(settings) => {
                self.settings = settings;
                if self.report.is_some() {
                    self.loading = false;
                    self.job.run(None, &self.settings, "re-scoring");
                }
                true
            }
            Msg::Drill(sel) => {
                self.request_drill(sel);
                true
            }
            Msg::DismissError => {
                self.job.error = None;
                true
            }
            Msg::DownloadReport => {
                if let Some(r) = &self.report {
                    let result = report_json::<crate::audit::unit::Rescore>(&**r)
                        .and_then(|t| download_text("memaudit-report.json", "application/json", &t));
                    if let Err(e) = result {
                        self.job.error = Some(ErrorView::plain("Could not export the report", e));
                        return true;
                    }
                }
                false
            }
            Msg::UseRescoring => {
                if let Some(r) = &self.report {
                    let label = match &self.source {
                        Source::Demo => "the rescoring of the demo bundle".to_string(),
                        Source::Bundle(d) => format!("the rescoring of the bundle {d}"),
                        Source::Files | Source::None => format!("the rescoring of {} file(s)", r.reading.files.len()),
                    };
                    ctx.props().on_use_rescoring.emit((r.clone(), label));
                }
                false
            }
        }
    }

    fn rendered(&mut self, ctx: &Context<Self>, _first: bool) {
        let now = PageState::of(self.busy(), self.report.is_some(), self.job.error.is_some());
        report_state(ctx.props(), &mut self.state, now);
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let state = PageState::of(self.busy(), self.report.is_some(), self.job.error.is_some());
        let on_apply = link.callback(Msg::Apply);
        let settings = html! {
            <SettingsPanel applied={self.settings.clone()} has_data={self.report.is_some()} busy={self.busy()} {on_apply} />
        };
        let fetching = self.fetching.as_ref().map(|dir| super::Busy::new(0, format!("fetching the bundle {dir}")));
        html! {
            <section class="page" id="page-rescore" data-page="rescore" data-state={state.name()} data-finished={self.job.finished()}
                hidden={!ctx.props().active} aria-label="Rescoring">
                <p class="tagline">{ "Rescore saved LLM-memory retrieval results under the Raw, Source and Canonical credit \
                    targets, and see which conclusions survive." }</p>
                { self.view_intake(ctx) }
                // The settings come before a first run, and after the results once there are some.
                if self.report.is_none() {
                    { settings.clone() }
                }
                { super::status_bar("", fetching.as_ref(), None) }
                { self.job.status_bar("", link.callback(|_: MouseEvent| Msg::Cancel)) }
                { error_box("", self.job.error.as_ref(), link.callback(|_: MouseEvent| Msg::DismissError)) }
                if let Some(report) = &self.report {
                    { self.view_results(ctx, report) }
                    { settings }
                }
                <footer class="page-foot muted">
                    { "memaudit viewer — the same core as the memaudit CLI; every CSV export equals " }
                    <code>{ "memaudit rescore --format csv --table NAME" }</code>{ "." }
                </footer>
            </section>
        }
    }
}
