//! The page: drop zone and file picker, demo button, progress, settings, errors, and the
//! report's sections in order (reading summary, coverage, scores, instability, winners,
//! recommendations, contested credits, |ΔnDCG| histogram, drill-down).
//!
//! The page does no heavy work: files go to the worker as browser `Blob`s, results come back
//! as a [`Report`](crate::audit::Report). It renders user-provided text as text only.

use std::rc::Rc;

use gloo::worker::{Spawnable, WorkerBridge};
use web_sys::{DragEvent, HtmlInputElement};
use yew::prelude::*;

use super::WORKER_LOADER;
use super::codec::WebCodec;
use super::components::drilldown::{DrillState, DrilldownView, Selection};
use super::components::histogram::DeltaHistogram;
use super::components::reading::ReadingSummary;
use super::components::settings::SettingsPanel;
use super::components::tables::{
    ContestedTable, CoverageTable, InstabilityTable, RecommendationsTable, SummaryTable, WinnerGrid,
};
use super::components::{ReportRef, export::table_json};
use super::dom::{self, download_text, source_files};
use super::format::count;
use super::protocol::{JobId, Phase, QueryInfo, Request, Response, SourceFile, Timing};
use super::worker::AuditWorker;
use crate::conventions::Settings;
use crate::error::{Error, Location};

/// Mounts the app on `#app` (or the body).
pub fn mount() {
    let root = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("app"));
    match root {
        Some(el) => {
            yew::Renderer::<App>::with_root(el).render();
        }
        None => {
            yew::Renderer::<App>::new().render();
        }
    }
}

/// Where the current data came from.
#[derive(Debug, Clone, PartialEq)]
pub enum Source {
    None,
    Demo,
    Files,
    Bundle(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum JobKind {
    Load,
    Rescore,
}

/// A running load or rescore.
#[derive(Debug, Clone, PartialEq)]
struct Busy {
    job: JobId,
    kind: JobKind,
    phase: Phase,
    stage: String,
    fraction: f64,
}

/// An error as shown: what failed, where (file, line, field), and what it means for the page.
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorView {
    pub title: String,
    pub location: Option<Location>,
    pub message: String,
    pub note: Option<String>,
}

impl ErrorView {
    pub fn from_error(e: &Error) -> ErrorView {
        match e {
            Error::Ingest(i) => ErrorView {
                title: format!("Could not read {}", i.location.file),
                location: Some(i.location.clone()),
                message: i.message.clone(),
                note: None,
            },
            Error::Setting { setting, message } => ErrorView {
                title: format!("Invalid setting `{setting}`"),
                location: None,
                message: message.clone(),
                note: None,
            },
            Error::Empty(m) => {
                ErrorView { title: "Nothing to score yet".into(), location: None, message: m.clone(), note: None }
            }
            Error::Output { what, message } => ErrorView {
                title: format!("Could not produce {what}"),
                location: None,
                message: message.clone(),
                note: None,
            },
        }
    }

    pub fn plain(title: &str, message: impl Into<String>) -> ErrorView {
        ErrorView { title: title.into(), location: None, message: message.into(), note: None }
    }
}

pub enum Msg {
    AddFiles(Vec<SourceFile>),
    RemoveFile(usize),
    ClearFiles,
    Demo,
    BundleFetched(String, Result<Vec<SourceFile>, String>),
    Worker(Response),
    Apply(Settings),
    Dragging(bool),
    Drill(Selection),
    DismissError,
    DownloadReport,
}

/// The root component.
pub struct App {
    bridge: WorkerBridge<AuditWorker>,
    next_job: JobId,
    busy: Option<Busy>,
    files: Vec<SourceFile>,
    /// Source of the report on screen, and of the load in progress.
    source: Source,
    pending_source: Source,
    settings: Settings,
    report: Option<ReportRef>,
    queries: Rc<Vec<QueryInfo>>,
    timing: Option<Timing>,
    error: Option<ErrorView>,
    drill: DrillState,
    drill_job: Option<JobId>,
    dragging: bool,
}

impl App {
    fn job(&mut self) -> JobId {
        self.next_job = self.next_job.wrapping_add(1);
        self.next_job
    }

    fn start(&mut self, kind: JobKind) -> JobId {
        let job = self.job();
        self.busy = Some(Busy {
            job,
            kind,
            phase: Phase::Reading,
            stage: match kind {
                JobKind::Load => "starting".into(),
                JobKind::Rescore => "re-scoring".into(),
            },
            fraction: 0.0,
        });
        self.error = None;
        job
    }

    fn load_files(&mut self) {
        if self.files.is_empty() {
            return;
        }
        let job = self.start(JobKind::Load);
        self.bridge.send(Request::Load { job, files: self.files.clone(), settings: self.settings.clone() });
    }

    fn load_demo(&mut self) {
        self.files.clear();
        self.pending_source = Source::Demo;
        let job = self.start(JobKind::Load);
        self.bridge.send(Request::LoadDemo { job, settings: self.settings.clone() });
    }

    fn request_drill(&mut self, sel: Selection) {
        let Some(settings) = self.report.as_ref().map(|r| r.settings.clone()) else {
            return;
        };
        let job = self.job();
        self.drill_job = Some(job);
        self.drill.selection = Some(sel);
        self.drill.loading = true;
        self.drill.error = None;
        self.bridge.send(Request::Drilldown { job, settings, system: sel.system, query: sel.query });
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
        let job = r.job();
        if self.drill_job == Some(job) {
            self.drill.loading = false;
            match r {
                Response::Drilldown { drilldown, .. } => {
                    self.drill.result = Some(Rc::new(*drilldown));
                    self.drill.error = None;
                }
                Response::Failed { error, .. } => {
                    self.drill.result = None;
                    self.drill.error = Some(error.to_string());
                }
                _ => self.drill.loading = true,
            }
            return true;
        }
        let Some(busy) = self.busy.as_mut().filter(|b| b.job == job) else {
            return false; // a superseded job
        };
        match r {
            Response::Progress { phase, stage, fraction, .. } => {
                busy.phase = phase;
                busy.stage = stage;
                busy.fraction = fraction;
                true
            }
            Response::Audited { result, .. } => {
                let kind = busy.kind;
                self.busy = None;
                match result.unpack() {
                    Ok(a) => {
                        self.settings = a.report.settings.clone();
                        self.report = Some(ReportRef(Rc::new(a.report)));
                        self.timing = Some(a.timing);
                        if let Some(q) = a.queries {
                            self.queries = Rc::new(q);
                        }
                        self.error = None;
                        if kind == JobKind::Load {
                            self.source = self.pending_source.clone();
                            self.drill = DrillState::default();
                            if let Some(sel) = self.default_selection() {
                                self.request_drill(sel);
                            }
                        } else if let Some(sel) = self.drill.selection {
                            self.request_drill(sel);
                        }
                    }
                    Err(e) => self.error = Some(ErrorView::plain("Internal error", e)),
                }
                true
            }
            Response::Failed { error, kept_previous, .. } => {
                let kind = busy.kind;
                self.busy = None;
                let mut view = ErrorView::from_error(&error);
                if kind == JobKind::Load {
                    // Take a file that cannot be read out of the set, so the rest stays usable.
                    if let Error::Ingest(e) = &error {
                        let before = self.files.len();
                        self.files.retain(|f| f.name != e.location.file);
                        if self.files.len() < before {
                            view.note = Some(format!("{} was removed from the file list.", e.location.file));
                        }
                    }
                }
                if kept_previous && self.report.is_some() {
                    let note = "The results below are from the previous data and settings.";
                    view.note = Some(match view.note {
                        Some(n) => format!("{n} {note}"),
                        None => note.to_string(),
                    });
                }
                self.error = Some(view);
                true
            }
            Response::Drilldown { .. } => false,
        }
    }

    fn view_intake(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let onchange = link.batch_callback(|e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            let files = source_files(input.files());
            input.set_value("");
            (!files.is_empty()).then_some(Msg::AddFiles(files))
        });
        let demo = link.callback(|_: MouseEvent| Msg::Demo);
        let clear = link.callback(|_: MouseEvent| Msg::ClearFiles);
        html! {
            <section id="intake" class={classes!("card", "drop-zone", self.dragging.then_some("dragging"))} aria-labelledby="intake-title">
                <h2 id="intake-title">{ "Your results" }</h2>
                <p>{ "Drop files anywhere on this page, or choose them: stored memories, queries with gold evidence, and saved ranked \
                      outputs, in any order (memaudit JSONL bundles, per-hit rows, LongMemEval retrieval logs, TREC runs and qrels, \
                      LoCoMo and LongMemEval data; " }<code>{ ".gz" }</code>{ " accepted). Formats are detected from the content." }</p>
                <div class="intake-actions">
                    <input id="file-input" class="visually-hidden" type="file" multiple=true {onchange}
                        aria-describedby="privacy-note" />
                    <label for="file-input" class="file-label">{ "Choose files…" }</label>
                    <span class="or">{ "or" }</span>
                    <button type="button" id="demo-button" onclick={demo}>{ "Try the demo" }</button>
                </div>
                if !self.files.is_empty() {
                    <ul class="file-list" id="file-list" aria-label="files to read">
                        { for self.files.iter().enumerate().map(|(i, f)| {
                            let remove = link.callback(move |_: MouseEvent| Msg::RemoveFile(i));
                            html! {
                                <li>
                                    <code>{ f.name.clone() }</code>
                                    <span class="muted">{ format!(" {} bytes ", count(f.blob.size() as usize)) }</span>
                                    <button type="button" class="link" onclick={remove} aria-label={format!("remove {}", f.name)}>{ "remove" }</button>
                                </li>
                            }
                        }) }
                        <li><button type="button" class="link" id="clear-files" onclick={clear}>{ "clear all" }</button></li>
                    </ul>
                }
                <p class="muted" id="privacy-note">{ "Everything runs in this browser tab: your files are never uploaded." }</p>
            </section>
        }
    }

    fn view_status(&self) -> Html {
        let Some(b) = &self.busy else {
            return html! {};
        };
        let pct = (b.fraction * 100.0).round();
        html! {
            <div class="status" role="status" aria-live="polite" id="status">
                <label for="progress">{ format!("{} — {pct:.0}%", b.stage) }</label>
                <progress id="progress" max="1" value={format!("{:.4}", b.fraction)} data-phase={format!("{:?}", b.phase).to_lowercase()}>
                    { format!("{pct:.0}%") }
                </progress>
            </div>
        }
    }

    fn view_error(&self, ctx: &Context<Self>) -> Html {
        let Some(e) = &self.error else {
            return html! {};
        };
        let dismiss = ctx.link().callback(|_: MouseEvent| Msg::DismissError);
        html! {
            <div class="error-box" id="error" role="alert">
                <h2>{ e.title.clone() }</h2>
                if let Some(loc) = &e.location {
                    <dl class="where">
                        <dt>{ "file" }</dt><dd id="error-file">{ loc.file.clone() }</dd>
                        if let Some(line) = loc.line { <dt>{ "line" }</dt><dd id="error-line">{ line }</dd> }
                        if let Some(field) = &loc.field { <dt>{ "field" }</dt><dd id="error-field"><code>{ field.clone() }</code></dd> }
                    </dl>
                }
                <p id="error-message">{ e.message.clone() }</p>
                if let Some(n) = &e.note { <p class="muted">{ n.clone() }</p> }
                <button type="button" class="small secondary" onclick={dismiss}>{ "Dismiss" }</button>
            </div>
        }
    }

    fn view_results(&self, ctx: &Context<Self>, report: &ReportRef) -> Html {
        let download = ctx.link().callback(|_: MouseEvent| Msg::DownloadReport);
        let on_select = ctx.link().callback(Msg::Drill);
        let source = match &self.source {
            Source::Demo => "the demo bundle (synthetic data)".to_string(),
            Source::Bundle(d) => format!("the bundle {d}"),
            Source::Files | Source::None => format!("{} file(s)", report.reading.files.len()),
        };
        html! {
            <div id="results">
                <div class="results-head">
                    <p>{ format!("Results for {source}, memaudit {}.", report.memaudit_version) }</p>
                    <button type="button" class="small" id="download-report" onclick={download}
                        title="the whole report, as memaudit rescore --format json prints it">{ "Full report JSON" }</button>
                </div>
                <ReadingSummary report={report.clone()} timing={self.timing.clone()} />
                <CoverageTable report={report.clone()} />
                if !report.systems.is_empty() {
                    <SummaryTable report={report.clone()} />
                    <InstabilityTable report={report.clone()} />
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

impl Component for App {
    type Message = Msg;
    type Properties = ();

    fn create(ctx: &Context<Self>) -> Self {
        let link = ctx.link().clone();
        let bridge = AuditWorker::spawner()
            .callback(move |r| link.send_message(Msg::Worker(r)))
            .encoding::<WebCodec>()
            .spawn_with_loader(WORKER_LOADER);
        let startup = dom::startup_request();
        let mut app = App {
            bridge,
            next_job: 0,
            busy: None,
            files: Vec::new(),
            source: Source::None,
            pending_source: Source::None,
            settings: Settings::default(),
            report: None,
            queries: Rc::new(Vec::new()),
            timing: None,
            error: None,
            drill: DrillState::default(),
            drill_job: None,
            dragging: false,
        };
        if let Some(dir) = startup.bundle {
            app.busy = Some(Busy {
                job: 0,
                kind: JobKind::Load,
                phase: Phase::Reading,
                stage: format!("fetching the bundle {dir}"),
                fraction: 0.0,
            });
            let link = ctx.link().clone();
            wasm_bindgen_futures::spawn_local(async move {
                let result = dom::fetch_bundle(dir.clone()).await;
                link.send_message(Msg::BundleFetched(dir, result));
            });
        } else if startup.demo {
            app.load_demo();
        }
        app
    }

    fn update(&mut self, _ctx: &Context<Self>, msg: Self::Message) -> bool {
        match msg {
            Msg::AddFiles(files) => {
                if self.source != Source::Files {
                    // Files replace the demo or a bundle; later drops add to the user's files.
                    self.files.clear();
                }
                for f in files {
                    self.files.retain(|g| g.name != f.name);
                    self.files.push(f);
                }
                self.pending_source = Source::Files;
                self.source = Source::Files;
                self.load_files();
                true
            }
            Msg::RemoveFile(i) => {
                if i < self.files.len() {
                    self.files.remove(i);
                }
                self.load_files();
                true
            }
            Msg::ClearFiles => {
                self.files.clear();
                true
            }
            Msg::Demo => {
                self.load_demo();
                true
            }
            Msg::BundleFetched(dir, result) => {
                match result {
                    Ok(files) => {
                        self.files = files;
                        self.pending_source = Source::Bundle(dir);
                        self.load_files();
                    }
                    Err(e) => {
                        self.busy = None;
                        self.error = Some(ErrorView::plain("Could not load the bundle", e));
                    }
                }
                true
            }
            Msg::Worker(r) => self.on_response(r),
            Msg::Apply(settings) => {
                self.settings = settings.clone();
                if self.report.is_some() {
                    let job = self.start(JobKind::Rescore);
                    self.bridge.send(Request::Rescore { job, settings });
                }
                true
            }
            Msg::Dragging(d) => {
                let changed = self.dragging != d;
                self.dragging = d;
                changed
            }
            Msg::Drill(sel) => {
                self.request_drill(sel);
                true
            }
            Msg::DismissError => {
                self.error = None;
                true
            }
            Msg::DownloadReport => {
                if let Some(r) = &self.report {
                    let result = table_json(r, "report")
                        .and_then(|t| download_text("memaudit-report.json", "application/json", &t));
                    if let Err(e) = result {
                        self.error = Some(ErrorView::plain("Could not export the report", e));
                        return true;
                    }
                }
                false
            }
        }
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let ondragover = link.callback(|e: DragEvent| {
            e.prevent_default();
            Msg::Dragging(true)
        });
        let ondragleave = link.batch_callback(|e: DragEvent| {
            e.prevent_default();
            // Moving between child elements also fires dragleave; only leaving the page counts.
            e.related_target().is_none().then_some(Msg::Dragging(false))
        });
        let ondrop = link.callback(|e: DragEvent| {
            e.prevent_default();
            let files = source_files(e.data_transfer().and_then(|d| d.files()));
            if files.is_empty() { Msg::Dragging(false) } else { Msg::AddFiles(files) }
        });
        let state = if self.busy.is_some() {
            "busy"
        } else if self.report.is_some() {
            "ready"
        } else if self.error.is_some() {
            "error"
        } else {
            "idle"
        };
        let on_apply = link.callback(Msg::Apply);
        html! {
            <div class="app" data-state={state} {ondragover} {ondragleave} {ondrop}>
                <header class="page-head">
                    <h1>{ "memaudit" }</h1>
                    <p class="tagline">{ "Rescore saved LLM-memory retrieval results under the Raw, Source and Canonical credit \
                        targets, and see which conclusions survive." }</p>
                </header>
                { self.view_intake(ctx) }
                <SettingsPanel applied={self.settings.clone()} has_data={self.report.is_some()}
                    busy={self.busy.is_some()} {on_apply} />
                { self.view_status() }
                { self.view_error(ctx) }
                if let Some(report) = &self.report {
                    { self.view_results(ctx, report) }
                }
                <footer class="page-foot muted">
                    { "memaudit viewer — the same core as the memaudit CLI; every CSV export equals " }
                    <code>{ "memaudit rescore --format csv --table NAME" }</code>{ "." }
                </footer>
            </div>
        }
    }
}
