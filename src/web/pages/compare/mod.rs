//! The paired-comparison page: drop outcome files of several arms run on the same
//! items (any format the core reads; the format can be forced) or take a rescoring's per-query
//! rows; see and edit the spec (pairing key, arm, value, strata, filters; the inferred choice
//! with its reasons), the pairing tolerances and the statistics' settings; read the pairing
//! report (or its refusal, verbatim); then the arms and contrasts tables, the Friedman test, a
//! forest plot, Demšar's critical-difference diagram and the posterior densities of two binary
//! arms. Clicking a forest row, a contrast, a CD-diagram arm or an arm row shows the items
//! behind it.
//!
//! All the work runs in the page's worker (the core's [`Compare`] capability), which keeps the
//! table so a change of settings re-runs without reading the files again.

use std::rc::Rc;

use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::web::components::contents::Contents;

use super::{ErrorView, FileEdit, Handoff, PageProps, PageState, file_list, file_picker, forward_drop, report_state};
use crate::compare::{
    Compare, CompareReport, CompareRequest, CompareSettings, ItemSelection, ItemsView, SpecChoice, TableInfo,
};
use crate::error::Error;
use crate::outcomes::instance::ItemText;
use crate::outcomes::{OutcomeFormat, PairingOptions, PairingReport, Spec};
use crate::plots::{CdLayout, ForestLayout};
use crate::web::components::Section;
use crate::web::components::compare::{ComparisonRef, PairingView, UnpairedTable};
use crate::web::components::headlines::HeadlinesPanel;
use crate::web::job::{self, Job, JobEvent};
use crate::web::protocol::{Inputs, JobFile, Response, SourceFile};

/// What the page shows of the last run.
#[derive(Debug, Clone, PartialEq)]
pub struct CompareResult {
    /// The spec used (inferred where not chosen).
    pub spec: Spec,
    pub options: PairingOptions,
    /// The core's report: the comparison, or its refusal (its message in this page's words).
    pub report: Rc<CompareReport>,
    /// Milliseconds: reading (loads only) and the whole job.
    pub read_ms: f64,
    pub total_ms: f64,
    /// What the data says (the CLI's `headlines`, a refusal's included).
    pub headlines: Rc<Vec<crate::headline::Headline>>,
}

/// Which card shows each table a comparison's headline points to.
const CARDS: crate::web::components::headlines::Cards =
    &[("arms", "arms"), ("pairs", "pairs"), ("friedman", "friedman"), ("judges", "judges")];

pub mod draft;
mod results;
mod spec;

pub use draft::{Draft, ForestOrder};

/// The ids of the statistics' settings that are not `cmp-{name}` (kept for links and tests).
const SETTING_IDS: &[(&str, &str)] = &[("resample", "cmp-resampling")];

/// Width of the comparison's plots in pixels.
pub use crate::compare::figures::PLOT_WIDTH;

type Edit = Box<dyn FnOnce(&mut Draft)>;

pub enum Msg {
    /// Files added, one taken off (the others compared again), or all cleared.
    Files(FileEdit),
    /// Run on the built-in demo.
    Demo,
    SetFormat(Option<OutcomeFormat>),
    UseRescoring(Handoff),
    Worker(Response),
    Cancel,
    Edit(Edit),
    Run,
    Reinfer,
    Defaults,
    FilterColumn(String),
    FilterValues(String),
    AddFilter,
    RemoveFilter(String),
    Select(String, Option<String>),
    ForestClick(f64, f64),
    CdClick(f64, f64),
    ForestOrder(ForestOrder),
    Posterior(bool, String),
    ItemsPage(usize),
    /// An item of the items table: show its text.
    ShowItem(String),
    DismissError,
}

/// The items panel.
#[derive(Debug, Clone, Default)]
struct Items {
    selection: Option<(String, Option<String>)>,
    loading: bool,
    view: Option<Rc<ItemsView>>,
    error: Option<String>,
    page: usize,
    /// The item whose text is asked for or shown, and its text once read.
    shown: Option<String>,
    text: Option<Rc<ItemText>>,
}

/// The comparison page.
pub struct ComparePage {
    job: Job<Compare>,
    /// The request of the result on screen (drill-downs ask under it).
    request: Option<CompareRequest>,
    /// The running job reads new files.
    loading: bool,
    files: Vec<SourceFile>,
    format: Option<OutcomeFormat>,
    /// What the kept table is, in words.
    source: String,
    table: Option<Rc<TableInfo>>,
    draft: Draft,
    /// The draft that produced the result on screen.
    applied: Option<Draft>,
    result: Option<Rc<CompareResult>>,
    comparison: Option<ComparisonRef>,
    pairing: Option<Rc<PairingReport>>,
    filter_column: String,
    filter_values: String,
    forest_order: ForestOrder,
    posterior: (Option<String>, Option<String>),
    items: Items,
    last_drop: Option<u32>,
    last_handoff: Option<u32>,
    state: PageState,
}

impl ComparePage {
    /// The request of the draft (`spec: None`: inferred from the table), or what is wrong.
    fn request(&mut self, spec: Option<SpecChoice>) -> Option<CompareRequest> {
        let credit = self.draft.partial_credit.trim();
        let partial_credit = if credit.is_empty() {
            None
        } else {
            match credit.parse::<f64>() {
                Ok(p) => Some(p),
                Err(_) => {
                    let e = Error::setting("partial_credit", format!("`{credit}` is not a number in [0, 1]"));
                    self.job.error = Some(ErrorView::plain("Invalid setting", e.to_string()));
                    return None;
                }
            }
        };
        match self.draft.settings() {
            Ok(settings) => Some(CompareRequest {
                partial_credit,
                format: self.format,
                spec: spec.unwrap_or_default(),
                options: self.draft.options(),
                settings,
                pair_by_position: self.draft.by_position.then(Vec::new),
            }),
            Err(e) => {
                self.job.error = Some(ErrorView::plain("Invalid setting", e));
                None
            }
        }
    }

    fn start(&mut self, inputs: Option<Inputs>, spec: Option<SpecChoice>, stage: &str) {
        let Some(request) = self.request(spec) else { return };
        self.loading = inputs.is_some();
        if self.job.run(inputs, &request, stage).is_some() {
            self.request = Some(request);
        }
    }

    /// The built-in demo ([`crate::demo`]): the dropped files are set aside.
    fn load_demo(&mut self) {
        self.files.clear();
        self.source = "the demo (synthetic outcomes)".to_string();
        self.start(Some(Inputs::Demo), None, "loading the demo");
    }

    fn load_files(&mut self) {
        if self.files.is_empty() {
            return;
        }
        self.source = match self.files.as_slice() {
            [only] => only.name.clone(),
            many => format!("{} files", many.len()),
        };
        self.start(Some(job::files(&self.files)), None, "reading outcome files");
    }

    fn run(&mut self) {
        if self.table.is_none() {
            self.load_files();
            return;
        }
        if let Err(e) = self.draft.renamed() {
            let fields = <Compare as crate::capability::Capability>::fields();
            let said = format!("{}: {e}", crate::fields::mention("rename"));
            let text = crate::web::components::fields::page_words(&fields, &said);
            self.job.error = Some(ErrorView::plain("Invalid setting", text));
            return;
        }
        let spec = self.draft.spec_choice();
        self.start(None, Some(spec), "comparing");
    }

    /// The rescoring's per-query rows become an outcomes file (`{"per_query": [...]}`, read as
    /// the CLI reads `memaudit rescore --format json`).
    fn use_rescoring(&mut self, h: Handoff) {
        self.last_handoff = Some(h.seq);
        let blob = serde_json::to_string(&serde_json::json!({ "per_query": h.report.per_query }))
            .map_err(|e| e.to_string())
            .and_then(|text| crate::web::dom::text_blob(&text, "application/json"));
        let blob = match blob {
            Ok(b) => b,
            Err(e) => {
                self.job.error = Some(ErrorView::plain("Could not take the rescoring", e));
                return;
            }
        };
        self.files.clear();
        self.source = h.label.clone();
        let file = JobFile { file: SourceFile { name: h.label, blob }, role: None };
        self.start(Some(Inputs::Files(vec![file])), None, "taking the rescoring's per-query rows");
    }

    fn request_items(&mut self, arm: String, other: Option<String>) {
        let Some(request) = self.request.clone().filter(|_| self.comparison.is_some()) else {
            return;
        };
        let selection = match &other {
            Some(b) => ItemSelection::Pair { a: arm.clone(), b: b.clone() },
            None => ItemSelection::Arm { arm: arm.clone() },
        };
        self.items = Items { selection: Some((arm, other)), loading: true, ..Items::default() };
        self.job.detail(&request, &selection);
    }

    /// One item's text, in the arms of the items shown.
    fn request_item_text(&mut self, item: String) {
        let (Some(request), Some((a, b))) = (self.request.clone(), self.items.selection.clone()) else {
            return;
        };
        let arms = std::iter::once(a).chain(b).collect();
        self.items.shown = Some(item.clone());
        self.items.text = None;
        self.items.loading = true;
        self.job.detail(&request, &ItemSelection::Text { item, arms });
    }

    fn take_outcome(&mut self, report: CompareReport, spec: Spec, read_ms: f64, total_ms: f64) {
        match &report {
            CompareReport::Compared(out) => {
                let comparison = &out.comparison;
                self.draft.set_settings(&comparison.settings);
                let binary: Vec<String> = comparison
                    .arms
                    .iter()
                    .filter(|a| a.binary && a.successes.is_some())
                    .map(|a| a.arm.clone())
                    .collect();
                let keep = |x: &Option<String>, i: usize| {
                    x.clone().filter(|a| binary.contains(a)).or_else(|| binary.get(i).cloned())
                };
                self.posterior = (keep(&self.posterior.0, 0), keep(&self.posterior.1, 1));
                let had_strata = self.comparison.as_ref().is_some_and(|c| !c.by_stratum.is_empty());
                if comparison.by_stratum.is_empty() {
                    if self.forest_order == ForestOrder::ByStratum {
                        self.forest_order = ForestOrder::Table;
                    }
                } else if !had_strata {
                    self.forest_order = ForestOrder::ByStratum;
                }
                self.comparison = Some(ComparisonRef(Rc::new(comparison.clone())));
                self.pairing = Some(Rc::new(out.pairing.clone()));
            }
            CompareReport::Refused(refused) => {
                self.comparison = None;
                self.pairing = refused.pairing.clone().map(Rc::new);
            }
        }
        self.applied = Some(self.draft.clone());
        self.items = Items::default();
        let options = self.draft.options();
        let headlines = Rc::new(crate::capability::headlines::<Compare>(&report));
        self.result =
            Some(Rc::new(CompareResult { spec, options, report: Rc::new(report), read_ms, total_ms, headlines }));
    }

    fn on_response(&mut self, r: Response) -> bool {
        let loading = self.loading;
        match self.job.on_response(r, &mut self.files, self.result.is_some(), "data") {
            JobEvent::Ignored => false,
            JobEvent::Progress => true,
            JobEvent::Done { outcome, timing } => {
                self.loading = false;
                let outcome = *outcome;
                let report = outcome.report;
                if let Some(t) = outcome.overview {
                    self.draft.set_spec(match &report {
                        CompareReport::Compared(out) => &out.spec,
                        CompareReport::Refused(_) => &t.inferred,
                    });
                    self.table = Some(Rc::new(t));
                    self.filter_column.clear();
                    self.filter_values.clear();
                }
                let read_ms = if loading { timing.read_ms } else { 0.0 };
                let (report, spec) = match report {
                    CompareReport::Compared(out) => {
                        let spec = out.spec.clone();
                        (CompareReport::Compared(out), spec)
                    }
                    // A refusal of the pairing is a result: shown with its report, the spec it
                    // refused, and a setting it mentions named by its label on this page.
                    CompareReport::Refused(mut refused) => {
                        refused.message = crate::web::components::fields::page_words(
                            &<Compare as crate::capability::Capability>::fields(),
                            &refused.message,
                        );
                        let spec = match (&self.table, &self.request) {
                            (Some(t), Some(r)) => r.spec.apply(&t.inferred),
                            _ => self.draft.spec(None),
                        };
                        (CompareReport::Refused(refused), spec)
                    }
                };
                self.take_outcome(report, spec, read_ms, timing.total_ms);
                true
            }
            JobEvent::Detail(view) => {
                self.items.loading = false;
                match *view {
                    ItemsView::Text(text) => self.items.text = Some(Rc::new(text)),
                    view => self.items.view = Some(Rc::new(view)),
                }
                true
            }
            JobEvent::Failed(error, overview) => {
                if let Some(t) = overview {
                    let t = *t;
                    self.draft.set_spec(&t.inferred);
                    self.filter_column.clear();
                    self.filter_values.clear();
                    self.table = Some(Rc::new(t));
                }
                if self.items.loading {
                    self.items.loading = false;
                    self.items.error = Some(error.to_string());
                    self.job.error = None;
                    return true;
                }
                self.loading = false;
                true
            }
        }
    }

    /// The forest plot and, per row, the index of its contrast in `c.pairs` (for clicks).
    fn view_intake(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let on_files = link.callback(|f| Msg::Files(FileEdit::Add(f)));
        let on_format = link.callback(|e: Event| {
            let sel: HtmlSelectElement = e.target_unchecked_into();
            Msg::SetFormat(OutcomeFormat::parse(&sel.value()))
        });
        html! {
            <section id="compare-intake" class="card drop-zone" aria-labelledby="compare-intake-title">
                <h2 id="compare-intake-title">{ "Outcomes of several arms on the same items" }</h2>
                <p>{ "Drop outcome files anywhere on this page, or choose them: long or wide CSV, JSON Lines, reclaim-eval results, \
                    per-question LLM-judge files (one per configuration), MTEL-Mem records, or memaudit rescoring JSON (" }
                    <code>{ ".gz" }</code>{ " accepted; several files are joined with a " }<code>{ "file" }</code>
                    { " column). Or press \u{201c}Use this rescoring\u{201d} on the rescoring page: system \u{00d7} target become arms." }</p>
                <div class="intake-actions">
                    { file_picker("compare-file-input", "Choose outcome files…", "compare-privacy", on_files) }
                    <button type="button" class="secondary" id="compare-demo-button" onclick={link.callback(|_: MouseEvent| Msg::Demo)}
                        title="synthetic outcomes of four arms built into the page: nothing is fetched">{ "Try the demo" }</button>
                    <div class="field inline">
                        <label for="compare-format">{ "input format" }</label>
                        <select id="compare-format" onchange={on_format} title="force a layout when detection guesses wrong">
                            <option value="" selected={self.format.is_none()}>{ "detect from content" }</option>
                            { for OutcomeFormat::ALL.iter().map(|f| html! {
                                <option value={f.name()} selected={self.format == Some(*f)}>{ f.describe() }</option>
                            }) }
                        </select>
                    </div>
                </div>
                { file_list("compare-", &self.files, link.callback(Msg::Files)) }
                <p class="muted" id="compare-privacy">{ "Everything runs in this browser tab: your files are never uploaded." }</p>
            </section>
        }
    }
}

screen!(crate::compare::Compare => ComparePage, Founding);

impl Component for ComparePage {
    type Message = Msg;
    type Properties = PageProps;

    fn create(ctx: &Context<Self>) -> Self {
        if let Some(h) = ctx.props().rescoring.clone() {
            ctx.link().send_message(Msg::UseRescoring(h));
        }
        let mut page = ComparePage {
            job: Job::new(ctx.link().callback(Msg::Worker)),
            request: None,
            loading: false,
            files: Vec::new(),
            format: None,
            source: String::new(),
            table: None,
            draft: Draft::default(),
            applied: None,
            result: None,
            comparison: None,
            pairing: None,
            filter_column: String::new(),
            filter_values: String::new(),
            forest_order: ForestOrder::default(),
            posterior: (None, None),
            items: Items::default(),
            last_drop: ctx.props().dropped.as_ref().map(|d| d.seq),
            last_handoff: None,
            state: PageState::Idle,
        };
        if ctx.props().active
            && ctx.props().rescoring.is_none()
            && crate::web::dom::startup_request(crate::web::pages::Page::Compare).demo
        {
            page.load_demo();
        }
        page
    }

    fn changed(&mut self, ctx: &Context<Self>, _old: &Self::Properties) -> bool {
        forward_drop(ctx, &mut self.last_drop, Msg::Files);
        if let Some(h) = ctx.props().rescoring.clone()
            && self.last_handoff != Some(h.seq)
        {
            ctx.link().send_message(Msg::UseRescoring(h));
        }
        true
    }

    fn update(&mut self, _ctx: &Context<Self>, msg: Self::Message) -> bool {
        match msg {
            Msg::Files(edit) => {
                if matches!(edit, FileEdit::Add(_)) && self.table.as_ref().is_some_and(|t| t.from_rescoring) {
                    self.files.clear();
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
            Msg::SetFormat(f) => {
                self.format = f;
                if !self.files.is_empty() {
                    self.load_files();
                }
                true
            }
            Msg::UseRescoring(h) => {
                self.use_rescoring(h);
                true
            }
            Msg::Worker(r) => self.on_response(r),
            Msg::Cancel => {
                self.job.cancel();
                self.loading = false;
                self.items.loading = false;
                true
            }
            Msg::Edit(f) => {
                f(&mut self.draft);
                true
            }
            Msg::Run => {
                self.run();
                true
            }
            Msg::Reinfer => {
                if let Some(t) = &self.table {
                    let spec = t.inferred.clone();
                    self.draft.set_spec(&spec);
                }
                true
            }
            Msg::Defaults => {
                let d = Draft::default();
                self.draft.set_settings(&CompareSettings::default());
                self.draft.duplicates = d.duplicates;
                self.draft.allow_incomplete = d.allow_incomplete;
                self.draft.by_position = d.by_position;
                self.draft.partial_credit = d.partial_credit;
                true
            }
            Msg::FilterColumn(c) => {
                self.filter_column = c;
                true
            }
            Msg::FilterValues(v) => {
                self.filter_values = v;
                true
            }
            Msg::AddFilter => {
                let values: Vec<String> =
                    self.filter_values.split(',').map(|v| v.trim().to_string()).filter(|v| !v.is_empty()).collect();
                if !self.filter_column.is_empty() && !values.is_empty() {
                    self.draft.filter.insert(self.filter_column.clone(), values);
                    self.filter_values.clear();
                }
                true
            }
            Msg::RemoveFilter(c) => {
                self.draft.filter.remove(&c);
                true
            }
            Msg::Select(a, b) => {
                self.request_items(a, b);
                true
            }
            Msg::ForestClick(x, y) => {
                let Some(c) = self.comparison.clone() else { return false };
                let (plot, order) = self.forest(&c);
                let hit =
                    ForestLayout::new(&plot).row_at(x, y).and_then(|row| order.get(row)).and_then(|&i| c.pairs.get(i));
                match hit {
                    Some(p) => {
                        let (a, b) = (p.a.clone(), p.b.clone());
                        self.request_items(a, Some(b));
                        true
                    }
                    None => false,
                }
            }
            Msg::CdClick(x, y) => {
                let Some(c) = self.comparison.clone() else { return false };
                let Some(plot) = self.cd(&c) else { return false };
                // The plot shows short labels: the arm is found by its index.
                let arm = CdLayout::new(&plot)
                    .arm_at(x, y)
                    .and_then(|i| c.friedman.as_ref().and_then(|f| f.mean_ranks.get(i)).map(|r| r.arm.clone()));
                match arm {
                    Some(name) => {
                        self.request_items(name, None);
                        true
                    }
                    None => false,
                }
            }
            Msg::ForestOrder(o) => {
                self.forest_order = o;
                true
            }
            Msg::Posterior(which, arm) => {
                if which {
                    self.posterior.0 = Some(arm);
                } else {
                    self.posterior.1 = Some(arm);
                }
                true
            }
            Msg::ShowItem(item) => {
                self.request_item_text(item);
                true
            }
            Msg::ItemsPage(p) => {
                self.items.page = p;
                true
            }
            Msg::DismissError => {
                self.job.error = None;
                true
            }
        }
    }

    fn rendered(&mut self, ctx: &Context<Self>, _first: bool) {
        report_state(ctx.props(), &mut self.state, self.job.state(self.result.is_some()));
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let state = self.job.state(self.result.is_some());
        let refused = self.result.as_ref().and_then(|r| match &*r.report {
            CompareReport::Refused(refused) => Some(refused),
            CompareReport::Compared(_) => None,
        });
        let refusal = refused.map(|r| r.message.clone());
        let unpaired = refused.and_then(|r| r.unpaired.clone()).map(Rc::new);
        html! {
            <section class="page" id="page-compare" data-page="compare" data-state={state.name()} data-finished={self.job.finished()}
                hidden={!ctx.props().active} aria-label="Paired comparison">
                <p class="tagline">{ "Compare arms (systems, memory policies, configurations) run on the same items: each arm's score \
                    with an interval, every contrast with an interval, an effect size and a multiplicity-corrected p-value, the omnibus \
                    test with a critical-difference diagram, and a forest plot." }</p>
                { self.view_intake(ctx) }
                { self.job.view("compare-", link.callback(|_: MouseEvent| Msg::Cancel), link.callback(|_: MouseEvent| Msg::DismissError)) }
                if let Some(r) = &self.result {
                    <HeadlinesPanel id="compare-headlines" headlines={r.headlines.clone()} cards={CARDS} />
                    <Contents id="compare-contents" root="page-compare" revision={Rc::as_ptr(r) as usize} />
                }
                // The results come first once there are some; the reading and the spec follow.
                if let (Some(r), Some(c)) = (&self.result, &self.comparison) {
                    { self.view_results(ctx, r, c) }
                }
                if let Some(t) = &self.table {
                    { self.view_reading(t) }
                    { self.view_spec(ctx, t) }
                }
                if let Some(p) = &self.pairing {
                    <PairingView report={p.clone()} refusal={refusal.clone().map(AttrValue::from)} />
                } else if let Some(m) = &refusal {
                    <Section id="pairing" title="Pairing">
                        <div class="refusal" id="compare-refusal" role="alert">
                            <h3>{ "No paired test: the spec does not fit the table" }</h3>
                            <p id="refusal-message" class="message">{ m.clone() }</p>
                        </div>
                    </Section>
                }
                if let Some(u) = unpaired {
                    <UnpairedTable unpaired={u.clone()} />
                    { crate::web::components::compare::judges_card(&u.judges) }
                }
                <footer class="page-foot muted">
                    { "The same numbers as " }<code>{ "memaudit compare --outcomes FILE … --format json" }</code>
                    { " with the same spec and settings; CSV exports equal " }<code>{ "--format csv --table NAME" }</code>{ "." }
                </footer>
            </section>
        }
    }
}
