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

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::web::components::contents::Contents;
use crate::web::components::explore::Explore;

use super::{ErrorView, FileEdit, Handoff, PageProps, PageState, file_list, file_picker, forward_drop, report_state};
use crate::compare::figures::{cd_plot, forest_plot, forest_row};
use crate::compare::{
    Compare, CompareReport, CompareRequest, CompareSettings, ItemSelection, ItemsView, SpecChoice, TableInfo,
    compare_latex,
};
use crate::error::Error;
use crate::fields::Fields;
use crate::outcomes::instance::ItemText;
use crate::outcomes::{ColumnKind, Duplicates, JudgmentChoice, OutcomeFormat, PairingOptions, PairingReport, Spec};
use crate::plots::{CdLayout, CdPlot, ForestLayout, ForestPlot, ForestRow, PosteriorArm, PosteriorPlot};
use crate::web::components::Section;
use crate::web::components::compare::{
    ArmLegend, ArmsTable, ComparisonRef, CostsView, FriedmanView, ItemTextView, ItemsTable, PairingView, PairsTable,
    StrataTable, UnpairedTable, arm_labels,
};
use crate::web::components::export::{report_json, text_download};
use crate::web::components::fields::{choose_from, field_id, field_input};
use crate::web::components::headlines::{HeadlinesPanel, attach_buttons};
use crate::web::components::plot::PlotCanvas;
use crate::web::components::warnings::warnings_list;
use crate::web::format::{count, duration};
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

pub use draft::{Draft, ForestOrder};
use draft::{judgment_prefixes, parse_value_key, toggle, value_key};

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
    fn forest(&self, c: &ComparisonRef) -> (ForestPlot, Vec<usize>) {
        let labels = arm_labels(c);
        let short = |a: &str| labels.get(a).cloned().unwrap_or_else(|| a.to_string());
        let row = |p: &crate::compare::PairRow, group: Option<String>| forest_row(p, short, group);
        let pair_ix = |a: &str, b: &str| c.pairs.iter().position(|p| p.a == a && p.b == b).unwrap_or(usize::MAX);
        let (rows, order): (Vec<ForestRow>, Vec<usize>) =
            if self.forest_order == ForestOrder::ByStratum && !c.by_stratum.is_empty() {
                c.by_stratum
                    .iter()
                    .flat_map(|s| {
                        let group = format!("{} = {} ({} items)", s.column, s.value, s.n_items);
                        s.pairs.iter().map(move |p| (row(p, Some(group.clone())), pair_ix(&p.a, &p.b)))
                    })
                    .unzip()
            } else {
                let mut order: Vec<usize> = (0..c.pairs.len()).collect();
                match self.forest_order {
                    ForestOrder::Difference => order.sort_by(|&x, &y| c.pairs[y].diff.total_cmp(&c.pairs[x].diff)),
                    ForestOrder::GroupedByA => {
                        let arm_ix = |a: &str| c.arms.iter().position(|r| r.arm == a).unwrap_or(usize::MAX);
                        order.sort_by(|&x, &y| {
                            arm_ix(&c.pairs[x].a)
                                .cmp(&arm_ix(&c.pairs[y].a))
                                .then(c.pairs[y].diff.total_cmp(&c.pairs[x].diff))
                        });
                    }
                    ForestOrder::Table | ForestOrder::ByStratum => {}
                }
                let grouped = self.forest_order == ForestOrder::GroupedByA;
                order
                    .iter()
                    .map(|&i| {
                        let p = &c.pairs[i];
                        (row(p, grouped.then(|| format!("a = {}", short(&p.a)))), i)
                    })
                    .unzip()
            };
        let selected = self.items.selection.as_ref().and_then(|(a, b)| {
            let b = b.as_ref()?;
            order.iter().position(|&i| c.pairs.get(i).is_some_and(|p| p.a == *a && p.b == *b))
        });
        let value = self.pairing.as_ref().map(|p| p.value.clone()).unwrap_or_default();
        (forest_plot(c, &value, rows, selected), order)
    }

    fn cd(&self, c: &ComparisonRef) -> Option<CdPlot> {
        let f = c.friedman.as_ref()?;
        let labels = arm_labels(c);
        let name = |a: &str| labels.get(a).cloned().unwrap_or_else(|| a.to_string());
        let selected = self
            .items
            .selection
            .as_ref()
            .filter(|(_, b)| b.is_none())
            .and_then(|(a, _)| f.mean_ranks.iter().position(|x| x.arm == *a));
        Some(cd_plot(f, name, selected))
    }

    fn posterior_plot(&self, c: &ComparisonRef) -> Option<PosteriorPlot> {
        let arm = |name: &Option<String>| {
            let a = c.arms.iter().find(|a| Some(&a.arm) == name.as_ref() && a.binary)?;
            let name = arm_labels(c).remove(&a.arm).unwrap_or_else(|| a.arm.clone());
            Some(PosteriorArm { name, successes: a.successes?, n: a.n as f64 })
        };
        Some(PosteriorPlot { a: arm(&self.posterior.0)?, b: arm(&self.posterior.1)?, width: PLOT_WIDTH, height: 380 })
    }

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

    fn view_reading(&self, t: &TableInfo) -> Html {
        let timing = self.result.as_ref().map(|r| {
            if r.read_ms > 0.0 {
                format!(
                    "Read in {}; paired and compared in {} (total {}).",
                    duration(r.read_ms),
                    duration(r.total_ms - r.read_ms),
                    duration(r.total_ms)
                )
            } else {
                format!("Paired and compared in {}.", duration(r.total_ms))
            }
        });
        html! {
            <Section id="compare-reading" title="What was read">
                if t.from_rescoring {
                    <p id="compare-source">{ format!("The per-query rows of {}: {} rows.", self.source, count(t.rows)) }</p>
                } else {
                    <Explore>
                    <table id="compare-files" class="compact">
                        <thead><tr><th scope="col">{"file"}</th><th scope="col">{"detected format"}</th><th scope="col">{"rows"}</th></tr></thead>
                        <tbody>
                        { for t.files.iter().map(|f| html! {
                            <tr data-file={f.name.clone()}>
                                <td data-col="name">{ f.name.clone() }</td>
                                <td data-col="format" data-format={f.format.name()}>{ f.format.describe() }{ if f.gzip { " (gzip)" } else { "" } }</td>
                                <td class="num" data-col="rows" data-value={f.rows.to_string()}>{ count(f.rows) }</td>
                            </tr>
                        }) }
                        </tbody>
                    </table>
                    </Explore>
                }
                <p class="muted" id="compare-timing"
                    data-read-ms={self.result.as_ref().map(|r| format!("{:.1}", r.read_ms)).unwrap_or_default()}
                    data-total-ms={self.result.as_ref().map(|r| format!("{:.1}", r.total_ms)).unwrap_or_default()}>
                    { format!("{} rows, {} columns.", count(t.rows), t.columns.len()) }
                    if let Some(tm) = timing { { format!(" {tm}") } }</p>
                { warnings_list("compare-warnings", t.warnings.iter().map(|w| ("reading", w))) }
            </Section>
        }
    }

    fn view_spec(&self, ctx: &Context<Self>, t: &TableInfo) -> Html {
        let link = ctx.link();
        let d = &self.draft;
        let on_value = link.batch_callback(|e: Event| {
            let sel: HtmlSelectElement = e.target_unchecked_into();
            parse_value_key(&sel.value()).map(|(v, j)| {
                Msg::Edit(Box::new(move |d: &mut Draft| {
                    d.value = v;
                    d.judgment = j;
                }))
            })
        });
        let role_box = |name: &str, role: &'static str, checked: bool| {
            let name = name.to_string();
            let onchange = link.callback(move |e: Event| {
                let on = e.target_unchecked_into::<HtmlInputElement>().checked();
                let name = name.clone();
                Msg::Edit(Box::new(move |d: &mut Draft| match role {
                    "key" => toggle(&mut d.key, &name, on),
                    "arm" => toggle(&mut d.arm, &name, on),
                    _ => toggle(&mut d.strata, &name, on),
                }))
            });
            html! { <input type="checkbox" data-role={role} checked={checked} {onchange} aria-label={role} /> }
        };
        let current_value = value_key(&d.value, d.judgment);
        let mut value_options: Vec<(String, String)> = Vec::new();
        for c in &t.columns {
            if matches!(c.info.kind, ColumnKind::Numeric | ColumnKind::Binary) {
                value_options
                    .push((value_key(&c.info.name, None), format!("{} ({})", c.info.name, kind_name(c.info.kind))));
            }
        }
        for (prefix, n) in judgment_prefixes(t) {
            value_options.push((
                value_key(&prefix, Some(JudgmentChoice::Majority)),
                format!("majority of {prefix}.* ({n} judgments)"),
            ));
            for k in 1..=n {
                value_options.push((
                    value_key(&prefix, Some(JudgmentChoice::Judgment(k))),
                    format!("judgment {k} of {prefix}.*"),
                ));
            }
            value_options.push((
                value_key(&prefix, Some(JudgmentChoice::Each)),
                format!("each judgment of {prefix}.* as an arm"),
            ));
        }
        if !d.value.is_empty() && !value_options.iter().any(|(k, _)| *k == current_value) {
            value_options.push((current_value.clone(), d.value.clone()));
        }
        let filter_col =
            link.callback(|e: Event| Msg::FilterColumn(e.target_unchecked_into::<HtmlSelectElement>().value()));
        let filter_vals =
            link.callback(|e: InputEvent| Msg::FilterValues(e.target_unchecked_into::<HtmlInputElement>().value()));
        let add_filter = link.callback(|_: MouseEvent| Msg::AddFilter);
        let datalist =
            t.columns.iter().find(|c| c.info.name == self.filter_column).map(|c| c.values.clone()).unwrap_or_default();
        let on_dup = link.callback(|e: Event| {
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            Msg::Edit(Box::new(move |d: &mut Draft| {
                d.duplicates = if v == "mean" { Duplicates::Mean } else { Duplicates::Refuse }
            }))
        });
        let on_incomplete = link.callback(|e: Event| {
            let on = e.target_unchecked_into::<HtmlInputElement>().checked();
            Msg::Edit(Box::new(move |d: &mut Draft| d.allow_incomplete = on))
        });
        let on_position = link.callback(|e: Event| {
            let on = e.target_unchecked_into::<HtmlInputElement>().checked();
            Msg::Edit(Box::new(move |d: &mut Draft| d.by_position = on))
        });
        let on_rename = link.callback(|e: InputEvent| {
            let v = e.target_unchecked_into::<HtmlInputElement>().value();
            Msg::Edit(Box::new(move |d: &mut Draft| d.rename = v))
        });
        let on_credit = link.callback(|e: InputEvent| {
            let v = e.target_unchecked_into::<HtmlInputElement>().value();
            Msg::Edit(Box::new(move |d: &mut Draft| d.partial_credit = v))
        });
        let inspect = t.files.iter().any(|f| f.format == OutcomeFormat::InspectLog);
        let reinfer = link.callback(|_: MouseEvent| Msg::Reinfer);
        let inferred_now = {
            let mut a = d.spec(None);
            let mut b = t.inferred.clone();
            a.reasons.clear();
            b.reasons.clear();
            a == b
        };
        // The request's own settings drawn here are named and explained as declared.
        let label = |name: &str| CompareRequest::field(name).map_or_else(|| name.to_string(), |f| f.label.to_string());
        let help = |name: &str| CompareRequest::field(name).map(|f| f.help.to_string());
        let list = |v: &[String]| if v.is_empty() { "(none)".to_string() } else { v.join(" × ") };
        html! {
            <section class="card" id="spec" aria-labelledby="spec-title">
                <header class="card-head">
                    <h2 id="spec-title">{ "How the rows are read" }</h2>
                    <button type="button" class="small secondary" id="spec-reinfer" onclick={reinfer} disabled={inferred_now}>{ "Use the inferred spec" }</button>
                </header>
                <p class="spec-line" id="spec-line">
                    { "key " }<code id="spec-key">{ list(&d.key) }</code>
                    { " \u{00b7} arm " }<code id="spec-arm">{ list(&d.arm) }</code>
                    { " \u{00b7} value " }<code id="spec-value-name">{ Spec { judgment: d.judgment, value: d.value.clone(), ..Spec::default() }.describe().rsplit(" \u{00b7} value ").next().unwrap_or_default().to_string() }</code>
                    if !d.strata.is_empty() { { " \u{00b7} strata " }<code id="spec-strata">{ list(&d.strata) }</code> }
                    if let Ok(renamed) = d.renamed().map(|r| r.iter().map(|(a, b)| format!("{a} \u{2192} {b}")).collect::<Vec<_>>()).map(|v| v.join("; ")) {
                        if !renamed.is_empty() { { " \u{00b7} renamed " }<code id="spec-renamed">{ renamed }</code> }
                    }
                    if inferred_now { <span class="badge note">{ "inferred" }</span> } else { <span class="badge warn">{ "edited" }</span> }
                </p>
                <details open={true} class="reasons">
                    <summary>{ "Why (the inference's reasons)" }</summary>
                    <ul id="spec-reasons">
                        { for t.inferred.reasons.iter().map(|r| html! { <li>{ r.clone() }</li> }) }
                    </ul>
                </details>
                <Explore>
                <table id="spec-columns" class="compact">
                    <thead><tr>
                        <th scope="col">{"column"}</th><th scope="col">{"kind"}</th><th scope="col">{"distinct"}</th><th scope="col">{"missing"}</th>
                        <th scope="col" title="the columns that together identify an item (the pairing key)">{"key"}</th>
                        <th scope="col" title="the arm column(s), combined with /">{"arm"}</th>
                        <th scope="col" title="per-item columns carried along (for stratified or cluster resampling)">{"strata"}</th>
                        <th scope="col">{"first values"}</th>
                    </tr></thead>
                    <tbody>
                    { for t.columns.iter().map(|c| {
                        let n = &c.info.name;
                        html! {
                            <tr data-column={n.clone()} data-kind={kind_name(c.info.kind)}>
                                <td><code>{ n.clone() }</code></td>
                                <td>{ kind_name(c.info.kind) }</td>
                                <td class="num">{ count(c.info.distinct) }</td>
                                <td class="num">{ count(c.info.missing) }</td>
                                <td class="role">{ role_box(n, "key", d.key.contains(n)) }</td>
                                <td class="role">{ role_box(n, "arm", d.arm.contains(n)) }</td>
                                <td class="role">{ role_box(n, "strata", d.strata.contains(n)) }</td>
                                <td class="values muted">{ preview(&c.values) }</td>
                            </tr>
                        }
                    }) }
                    </tbody>
                </table>
                </Explore>
                <div class="fields">
                    <div class="field grow">
                        <label for="spec-value">{ "value" }</label>
                        <select id="spec-value" onchange={on_value}>
                            if d.value.is_empty() { <option value="" selected=true>{ "(choose a value column)" }</option> }
                            { for value_options.iter().map(|(k, label)| html! {
                                <option value={k.clone()} selected={*k == current_value}>{ label.clone() }</option>
                            }) }
                        </select>
                    </div>
                    <div class="field">
                        <label for="dup-policy" title={help("aggregate")}>{ label("aggregate") }</label>
                        <select id="dup-policy" onchange={on_dup}>
                            <option value="refuse" selected={d.duplicates == Duplicates::Refuse}>{ "refuse (not paired)" }</option>
                            <option value="mean" selected={d.duplicates == Duplicates::Mean}>{ "average them (mean)" }</option>
                        </select>
                    </div>
                    <div class="field checkbox">
                        <label for="allow-incomplete">
                            <input type="checkbox" id="allow-incomplete" checked={d.allow_incomplete} onchange={on_incomplete} />
                            { format!(" {}", label("allow_incomplete")) }
                        </label>
                    </div>
                    <div class="field checkbox">
                        <label for="pair-by-position" title={help("pair_by_position")}>
                            <input type="checkbox" id="pair-by-position" checked={d.by_position} onchange={on_position} />
                            { format!(" {}", label("pair_by_position")) }
                        </label>
                    </div>
                    <div class="field grow">
                        <label for="spec-rename" title={help("rename")}>{ label("rename") }</label>
                        <input id="spec-rename" type="text" value={d.rename.clone()} oninput={on_rename}
                            placeholder={self.comparison.as_ref().and_then(|c| c.arms.first()).map(|a| format!("{}=a shorter name", a.arm)).unwrap_or_else(|| "OLD=NEW; …".into())} />
                    </div>
                    if inspect {
                        <div class="field">
                            <label for="partial-credit" title={help("partial_credit")}>{ label("partial_credit") }</label>
                            <input id="partial-credit" type="text" inputmode="decimal" size="5" placeholder="0.5"
                                value={d.partial_credit.clone()} oninput={on_credit} />
                        </div>
                    }
                </div>
                <div class="fields filters">
                    <div class="field">
                        <label for="filter-column">{ "keep only rows where" }</label>
                        <select id="filter-column" onchange={filter_col}>
                            <option value="" selected={self.filter_column.is_empty()}>{ "(column)" }</option>
                            { for t.columns.iter().map(|c| html! {
                                <option value={c.info.name.clone()} selected={self.filter_column == c.info.name}>{ c.info.name.clone() }</option>
                            }) }
                        </select>
                    </div>
                    <div class="field grow">
                        <label for="filter-values">{ "is one of (comma-separated)" }</label>
                        <input id="filter-values" type="text" list="filter-values-list" value={self.filter_values.clone()} oninput={filter_vals}
                            placeholder={datalist.first().cloned().unwrap_or_default()} />
                        <datalist id="filter-values-list">
                            { for datalist.iter().map(|v| html! { <option value={v.clone()} /> }) }
                        </datalist>
                    </div>
                    <div class="field buttons">
                        <button type="button" class="small" id="filter-add" onclick={add_filter}
                            disabled={self.filter_column.is_empty() || self.filter_values.trim().is_empty()}>{ "Add filter" }</button>
                    </div>
                </div>
                if !d.filter.is_empty() {
                    <ul class="chips" id="spec-filters">
                        { for d.filter.iter().map(|(c, vals)| {
                            let col = c.clone();
                            let remove = link.callback(move |_: MouseEvent| Msg::RemoveFilter(col.clone()));
                            html! {
                                <li data-column={c.clone()}>
                                    <code>{ format!("{c} \u{2208} {{{}}}", vals.join(", ")) }</code>
                                    <button type="button" class="link" onclick={remove} aria-label={format!("remove the filter on {c}")}>{ "remove" }</button>
                                </li>
                            }
                        }) }
                    </ul>
                }
                { self.view_settings(ctx) }
            </section>
        }
    }

    fn view_settings(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let d = &self.draft;
        let run = link.callback(|e: SubmitEvent| {
            e.prevent_default();
            Msg::Run
        });
        let defaults = link.callback(|_: MouseEvent| Msg::Defaults);
        let by_options: Vec<String> = d.key.iter().chain(&d.strata).cloned().collect();
        let arms: Vec<String> =
            self.pairing.as_ref().map(|p| p.arms.iter().map(|a| a.arm.clone()).collect()).unwrap_or_default();
        let settings_error = d.settings().err();
        let pending = self.applied.as_ref().is_some_and(|a| a != d);
        html! {
            <form id="compare-settings" class="compare-settings" onsubmit={run}>
                <h3>{ "Statistics" }</h3>
                <div class="fields">
                    { for CompareSettings::fields().into_iter().map(|f| {
                        let text = d.settings.text(f.name);
                        let id = field_id("cmp", f, SETTING_IDS);
                        let name = f.name;
                        let on = link.callback(move |v: String| Msg::Edit(Box::new(move |d: &mut Draft| d.settings.set(name, v))));
                        match name {
                            "by" if d.settings.text("resample") == "iid" => html! {},
                            "by" => choose_from(id, f, text, &by_options, "(choose)", on),
                            "per" => choose_from(id, f, text, &by_options, "(all items only)", on),
                            "baseline" => choose_from(id, f, text, &arms, "(auto: bm25)", on),
                            "control" => choose_from(id, f, text, &arms, "(none)", on),
                            "reference" => choose_from(id, f, text, &arms, "(arm order)", on),
                            _ => field_input(id, f, text, on),
                        }
                    }) }
                </div>
                <div class="actions">
                    <button type="submit" id="compare-run" disabled={self.job.is_busy()}>{ "Compare" }</button>
                    <button type="button" class="secondary" id="compare-defaults" onclick={defaults}>{ "Default settings" }</button>
                    if pending {
                        <span class="pending" role="status">{ "Changed: press Compare to apply." }</span>
                    }
                </div>
                if let Some(e) = settings_error {
                    <p class="error" id="compare-settings-error" role="alert">{ e }</p>
                }
            </form>
        }
    }

    fn view_results(&self, ctx: &Context<Self>, result: &CompareResult, c: &ComparisonRef) -> Html {
        let link = ctx.link();
        let on_select = link.callback(|(a, b): (String, Option<String>)| Msg::Select(a, b));
        let selected = self.items.selection.as_ref().map(|(a, b)| match b {
            Some(b) => format!("{a}\u{2212}{b}"),
            None => a.clone(),
        });
        let (forest, _) = self.forest(c);
        let cd = self.cd(c);
        let on_forest = link.callback(|(x, y): (f64, f64)| Msg::ForestClick(x, y));
        let on_cd = link.callback(|(x, y): (f64, f64)| Msg::CdClick(x, y));
        let on_order = link.callback(|e: Event| {
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            Msg::ForestOrder(ForestOrder::ALL.iter().find(|(_, k, _)| *k == v).map(|x| x.0).unwrap_or_default())
        });
        let binary: Vec<String> =
            c.arms.iter().filter(|a| a.binary && a.successes.is_some()).map(|a| a.arm.clone()).collect();
        let posterior = self.posterior_plot(c);
        let post_select = |which: bool, current: &Option<String>| {
            let onchange = link.callback(move |e: Event| {
                Msg::Posterior(which, e.target_unchecked_into::<HtmlSelectElement>().value())
            });
            html! {
                <select id={if which { "posterior-a" } else { "posterior-b" }} {onchange}>
                    { for binary.iter().map(|a| html! { <option value={a.clone()} selected={current.as_deref() == Some(a.as_str())}>{ a.clone() }</option> }) }
                </select>
            }
        };
        let output = result.report.clone();
        let json = {
            let o = output.clone();
            move || report_json::<crate::compare::Compare>(&o)
        };
        let inputs = Rc::new(match &self.table {
            Some(t) => <crate::compare::Compare as crate::capability::Capability>::inputs(t, &output),
            None => Vec::new(),
        });
        let latex = {
            let c = c.clone();
            move || Ok(compare_latex(&c))
        };
        let conv = Some(AttrValue::from(c.conventions.clone()));
        let items_page = link.callback(Msg::ItemsPage);
        html! {
            <div id="compare-results">
                <div class="results-head">
                    <p id="compare-summary" data-arms={c.arms.len().to_string()} data-items={c.n_items.to_string()}>
                        { format!("{} arms compared on {} paired items ({}), memaudit {}.", c.arms.len(), count(c.n_items), self.source, crate::VERSION) }
                    </p>
                    <div class="exports">
                        { text_download("export-latex", "LaTeX table", "memaudit-comparison.tex", "application/x-tex", latex) }
                        { text_download("export-compare-json", "Full comparison JSON", "memaudit-comparison.json", "application/json", json) }
                        { attach_buttons::<crate::compare::Compare, CompareReport>("compare-", output.clone(), |o| o, inputs) }
                    </div>
                </div>
                <ArmLegend comparison={c.clone()} />
                <ArmsTable comparison={c.clone()} selected={selected.clone().map(AttrValue::from)} on_select={on_select.clone()} />
                <PairsTable comparison={c.clone()} selected={selected.clone().map(AttrValue::from)} on_select={on_select.clone()} />
                { crate::web::components::compare::judges_card(&c.judges) }
                <Section id="forest" title="Forest plot" conventions={conv.clone()}
                    intro={html! { <p class="intro">{ "One row per contrast: the difference a \u{2212} b and its interval; the grey line is no difference. Click a row for the items behind it." }</p> }}>
                    <div class="controls">
                        <div class="field">
                            <label for="forest-order">{ "rows" }</label>
                            <select id="forest-order" onchange={on_order}>
                                { for ForestOrder::ALL.iter().filter(|(o, _, _)| *o != ForestOrder::ByStratum || !c.by_stratum.is_empty()).map(|(o, k, label)| html! {
                                    <option value={*k} selected={*o == self.forest_order}>{ *label }</option>
                                }) }
                            </select>
                        </div>
                    </div>
                    <PlotCanvas<ForestPlot> id="forest-plot" plot={forest} filename="memaudit-forest" on_click={Some(on_forest)} />
                </Section>
                if !c.by_stratum.is_empty() {
                    <StrataTable comparison={c.clone()} selected={selected.clone().map(AttrValue::from)} on_select={on_select.clone()} />
                }
                <CostsView comparison={c.clone()} />
                <FriedmanView comparison={c.clone()} />
                if let Some(cd) = cd {
                    <Section id="cd" title="Critical-difference diagram" conventions={conv.clone()}
                        intro={html! { <p class="intro">{ "Demšar's diagram: each arm at its mean rank (1 = best); arms joined by a thick bar are not \
                            significantly different (Nemenyi); the ruler is the critical difference. Click an arm for its items." }</p> }}>
                        <PlotCanvas<CdPlot> id="cd-diagram" plot={cd} filename="memaudit-cd-diagram" on_click={Some(on_cd)} />
                    </Section>
                }
                if binary.len() >= 2 {
                    <Section id="posterior" title="Posterior densities" conventions={conv.clone()}
                        intro={html! { <p class="intro">{ "Jeffreys Beta posteriors of two 0/1 arms (independent arms: on paired data an approximation), \
                            with the posterior probability that a's rate exceeds b's." }</p> }}>
                        <div class="controls">
                            <div class="field"><label for="posterior-a">{ "arm a" }</label>{ post_select(true, &self.posterior.0) }</div>
                            <div class="field"><label for="posterior-b">{ "arm b" }</label>{ post_select(false, &self.posterior.1) }</div>
                        </div>
                        if let Some(p) = posterior {
                            <PlotCanvas<PosteriorPlot> id="posterior-plot" plot={p} filename="memaudit-posterior" />
                        }
                    </Section>
                }
                if let Some(e) = &self.items.error {
                    <p class="error" role="alert" id="items-error">{ e.clone() }</p>
                }
                if self.items.loading {
                    <p class="muted" id="items-loading">{ "Loading the items\u{2026}" }</p>
                }
                if let Some(v) = &self.items.view {
                    <ItemsTable view={v.clone()} page={self.items.page} on_page={items_page}
                        on_item={link.callback(Msg::ShowItem)} shown={self.items.shown.clone()} />
                }
                if let Some(t) = &self.items.text {
                    <ItemTextView text={t.clone()} />
                }
            </div>
        }
    }
}

fn kind_name(k: ColumnKind) -> &'static str {
    match k {
        ColumnKind::Numeric => "numeric",
        ColumnKind::Binary => "binary",
        ColumnKind::Text => "text",
    }
}

fn preview(values: &[String]) -> String {
    let shown: Vec<String> = values.iter().take(4).map(|v| crate::plots::ellipsize(v, 24)).collect();
    let more = if values.len() > 4 { ", …" } else { "" };
    format!("{}{more}", shown.join(", "))
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
