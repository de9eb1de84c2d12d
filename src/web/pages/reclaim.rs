//! The reclaim page: drop reclaim-eval trial rows (probe keys optional, recognised by
//! content), choose the resampler and its settings, and see the reclaim rate (RR) per cell
//! (model × task × policy × integrity × arm) with its interval, as a table and as a plot of RR
//! against integrity per policy, the "worse than empty" contrast and any RR contrasts — the
//! numbers of `memaudit reclaim --format json`.

use std::rc::Rc;

use web_sys::HtmlSelectElement;
use yew::prelude::*;

use super::{
    ErrorView, PageProps, PageState, add_files, file_list, file_picker, forward_drop, remove_file, report_state,
};
use crate::capability::FileSummary;
use crate::fields::Fields;
use crate::reclaim::ReclaimPlot;
use crate::reclaim::{Reclaim, ReclaimOverview, ReclaimReport, ReclaimRequest, ReclaimTable, reclaim_table};
use crate::web::components::Section;
use crate::web::components::export::{lazy_exports, text_download, to_json};
use crate::web::components::fields::{FieldDraft, field_id, field_input};
use crate::web::components::plot::PlotCanvas;
use crate::web::components::warnings::warnings_list;
use crate::web::format::{count, duration, int_cell, num_cell, signed_cell, text_cell};
use crate::web::job::{self, Job, JobEvent};
use crate::web::protocol::{Inputs, Response, SourceFile};

/// A reclaim analysis as the page shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct ReclaimBatch {
    pub files: Vec<FileSummary>,
    /// As `memaudit reclaim --format json` prints it (reading notices merged into `warnings`).
    pub report: ReclaimReport,
    /// Distinct arms among the kept trials (for the arm filter).
    pub arms: Vec<String>,
    /// Trials read (before the arm filter) and analysed.
    pub trials_read: usize,
    pub trials_used: usize,
    pub total_ms: f64,
    /// The report's headlines (the CLI's `headlines`).
    pub headlines: Rc<Vec<crate::headline::Headline>>,
    /// The input files the report rests on (for the report to attach).
    pub inputs: Rc<Vec<crate::attach::InputInfo>>,
}

/// The settings form as edited: the text of every declared field of [`ReclaimRequest`], and the
/// cells' form.
#[derive(Debug, Clone, PartialEq)]
pub struct Draft {
    pub fields: FieldDraft<ReclaimRequest>,
    /// How trials become cells (pooled and split columns, problem set, common problems).
    pub cells: crate::web::components::cells::CellDraft,
}

impl Default for Draft {
    fn default() -> Self {
        Draft::from_run(&ReclaimRequest::default())
    }
}

/// The page's ids of fields whose id is not `reclaim-{name}` (kept for links and tests).
const IDS: &[(&str, &str)] = &[
    ("bootstrap", "reclaim-resamples"),
    ("cluster_by_problem", "reclaim-cluster"),
    ("contrast", "reclaim-contrast-input"),
];

impl Draft {
    pub fn from_run(r: &ReclaimRequest) -> Draft {
        Draft { fields: FieldDraft::of(r), cells: crate::web::components::cells::CellDraft::of(&r.cells) }
    }

    /// The run, or what is wrong (naming the field).
    pub fn parse(&self) -> Result<ReclaimRequest, String> {
        Ok(ReclaimRequest { cells: self.cells.parse()?, ..self.fields.parse(ReclaimRequest::default())? })
    }

    /// The arm chosen (empty: every trial).
    fn arm(&self) -> &str {
        self.fields.text("arm")
    }

    fn clear_arm(&mut self) {
        self.fields.set("arm", String::new());
    }
}

type Edit = Box<dyn FnOnce(&mut Draft)>;

pub enum Msg {
    AddFiles(Vec<SourceFile>),
    /// Take one file off the list (and read the others again).
    RemoveFile(usize),
    ClearFiles,
    /// Run on the built-in demo.
    Demo,
    Edit(Edit),
    Apply,
    Defaults,
    Worker(Response),
    Cancel,
    DismissError,
}

/// The reclaim page.
pub struct ReclaimPage {
    job: Job<Reclaim>,
    overview: Option<ReclaimOverview>,
    files: Vec<SourceFile>,
    draft: Draft,
    applied: Option<Draft>,
    batch: Option<Rc<ReclaimBatch>>,
    last_drop: Option<u32>,
    state: PageState,
}

fn opt_text(v: &Option<String>) -> String {
    v.clone().unwrap_or_default()
}

fn g_text(v: Option<f64>) -> String {
    v.map(|x| x.to_string()).unwrap_or_default()
}

impl ReclaimPage {
    /// Runs the draft's request on new files (`Some`) or the kept trials.
    fn start(&mut self, inputs: Option<crate::web::protocol::Inputs>, stage: &str) {
        match self.draft.parse() {
            Ok(request) => {
                self.job.run(inputs, &request, stage);
            }
            Err(e) => self.job.error = Some(ErrorView::plain("Invalid setting", e)),
        }
    }

    fn on_response(&mut self, r: Response) -> bool {
        match self.job.on_response(r, &mut self.files, self.batch.is_some(), "trials") {
            JobEvent::Ignored => false,
            JobEvent::Progress => true,
            JobEvent::Done { outcome, timing } => {
                let outcome = *outcome;
                if let Some(o) = outcome.overview {
                    self.overview = Some(o);
                }
                let o = self.overview.clone().unwrap_or(ReclaimOverview {
                    files: Vec::new(),
                    arms: Vec::new(),
                    trials_read: 0,
                });
                self.applied = Some(self.draft.clone());
                let headlines = Rc::new(crate::capability::headlines::<crate::reclaim::Reclaim>(&outcome.report));
                let inputs = Rc::new(crate::attach::of_summaries(&o.files));
                self.batch = Some(Rc::new(ReclaimBatch {
                    headlines,
                    inputs,
                    files: o.files,
                    trials_used: outcome.report.trials,
                    report: outcome.report,
                    arms: o.arms,
                    trials_read: o.trials_read,
                    total_ms: timing.total_ms,
                }));
                true
            }
            JobEvent::Detail(_) => false,
            JobEvent::Failed(_, overview) => {
                if let Some(o) = overview {
                    self.overview = Some(*o);
                }
                true
            }
        }
    }

    fn view_settings(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let d = &self.draft;
        let select = |f: fn(&mut Draft, &str)| {
            link.callback(move |e: Event| {
                let v = e.target_unchecked_into::<HtmlSelectElement>().value();
                Msg::Edit(Box::new(move |d: &mut Draft| f(d, &v)))
            })
        };
        // Every declared field but the arm (a choice among the trials' arms), drawn from its
        // declaration; text follows every keystroke (Yew keeps an input's value equal to the draft).
        let inputs = <ReclaimRequest as Fields>::fields().into_iter().filter(|f| f.name != "arm").map(|f| {
            let name = f.name;
            let on_text =
                link.callback(move |v: String| Msg::Edit(Box::new(move |d: &mut Draft| d.fields.set(name, v))));
            let id = field_id("reclaim", f, IDS);
            field_input(id, f, d.fields.text(name), on_text)
        });
        let apply = link.callback(|e: SubmitEvent| {
            e.prevent_default();
            Msg::Apply
        });
        let defaults = link.callback(|_: MouseEvent| Msg::Defaults);
        let arms = self.batch.as_ref().map(|b| b.arms.clone()).unwrap_or_default();
        let error = d.parse().err();
        let pending = self.applied.as_ref().is_some_and(|a| a != d);
        html! {
            <form id="reclaim-settings" class="settings" onsubmit={apply} aria-labelledby="reclaim-settings-title">
                <h2 id="reclaim-settings-title">{ "Settings" }</h2>
                <div class="fields">
                    <div class="field">
                        <label for="reclaim-arm" title={<ReclaimRequest as Fields>::field("arm").map(|f| f.help)}>{ "arm" }</label>
                        <select id="reclaim-arm" onchange={select(|d, v| d.fields.set("arm", v.to_string()))} disabled={arms.is_empty()}>
                            <option value="" selected={d.arm().is_empty()}>{ "all trials" }</option>
                            { for arms.iter().map(|a| html! { <option value={a.clone()} selected={d.arm() == a.as_str()}>{ a.clone() }</option> }) }
                        </select>
                    </div>
                    { for inputs }
                    <crate::web::components::cells::CellFields id="reclaim-cells" draft={d.cells.clone()}
                        on_change={link.callback(|c: crate::web::components::cells::CellDraft| Msg::Edit(Box::new(move |d: &mut Draft| d.cells = c)))} />
                </div>
                <div class="actions">
                    <button type="submit" id="reclaim-apply" disabled={self.job.is_busy()}>
                        { if self.batch.is_some() { "Re-analyse" } else { "Use these settings" } }</button>
                    <button type="button" class="secondary" onclick={defaults}>{ "Defaults" }</button>
                    if pending { <span class="pending" role="status">{ "Changed: press Re-analyse to apply." }</span> }
                </div>
                if let Some(e) = error { <p class="error" id="reclaim-settings-error" role="alert">{ e }</p> }
            </form>
        }
    }

    fn view_results(&self, b: &Rc<ReclaimBatch>) -> Html {
        let r = &b.report;
        let cells = r.populations.settings.describe();
        let conv = Some(AttrValue::from(format!(
            "{}; scoring={}; abstain={}; arm={}{}",
            r.interval_method,
            serde_json::to_value(r.settings.score)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default(),
            r.settings.abstain.name(),
            self.applied
                .as_ref()
                .map(|d| d.arm().to_string())
                .filter(|a| !a.is_empty())
                .unwrap_or_else(|| "all".into()),
            if cells.is_empty() { String::new() } else { format!("; cells: {cells}") }
        )));
        let exp = |which: ReclaimTable| {
            let (x, y) = (b.clone(), b.clone());
            let name = which.name();
            lazy_exports(
                name,
                &name.replace('_', " "),
                move || reclaim_table(&x.report, which).to_csv().map_err(|e| e.to_string()),
                move || match which {
                    ReclaimTable::Cells => to_json(&y.report.cells),
                    ReclaimTable::WorseThanEmpty => to_json(&y.report.worse_than_empty),
                    ReclaimTable::Contrasts => to_json(&y.report.contrasts),
                    ReclaimTable::FailureModes => to_json(&y.report.boundaries.failure_modes),
                    ReclaimTable::Buckets => to_json(&y.report.boundaries.buckets),
                    ReclaimTable::Sweeps => to_json(&y.report.boundaries.sweeps),
                    ReclaimTable::Certificate => to_json(&y.report.boundaries.certificate),
                    ReclaimTable::Invented => to_json(&y.report.boundaries.invented),
                    ReclaimTable::Cascade => to_json(&y.report.boundaries.cascade),
                    ReclaimTable::Populations => to_json(&y.report.populations.populations),
                    ReclaimTable::CellColumns => to_json(&y.report.populations),
                },
            )
        };
        let full = {
            let b = b.clone();
            move || crate::web::components::export::report_json::<crate::reclaim::Reclaim>(&b.report)
        };
        let plot = ReclaimPlot::of_report(r);
        html! {
            <div id="reclaim-results">
                <crate::web::components::headlines::HeadlinesPanel id="reclaim-headlines" headlines={b.headlines.clone()}
                    cards={&[("cells", "reclaim-cells-card"), ("worse_than_empty", "reclaim-wte-card"), ("contrasts", "reclaim-contrasts-card"),
                        ("failure_modes", "reclaim-failure-card"), ("buckets", "reclaim-buckets-card"), ("sweeps", "reclaim-sweeps-card"),
                        ("certificate", "reclaim-certificate-card"), ("invented", "reclaim-invented-card"), ("cascade", "reclaim-cascade-card"),
                        ("populations", "reclaim-populations-card"), ("cell_columns", "reclaim-populations-card")][..]}
                    exports={crate::web::components::headlines::attach_buttons::<crate::reclaim::Reclaim, ReclaimBatch>(
                        "reclaim-", b.clone(), |b| &b.report, b.inputs.clone())} />
                <Section id="reclaim-reading" title="What was read"
                    exports={text_download("reclaim-report-json", "Full report JSON", "memaudit-reclaim.json", "application/json", full)}>
                    <div class="table-wrap" tabindex="0">
                    <table id="reclaim-files" class="compact">
                        <thead><tr><th scope="col">{"file"}</th><th scope="col">{"read as"}</th><th scope="col">{"records"}</th></tr></thead>
                        <tbody>
                        { for b.files.iter().map(|f| html! {
                            <tr data-file={f.name.clone()} data-kind={f.kind.clone()}>
                                <td>{ f.name.clone() }</td><td>{ f.kind.clone() }</td>
                                <td class="num" data-col="records" data-value={f.records.to_string()}>{ count(f.records) }</td>
                            </tr>
                        }) }
                        </tbody>
                    </table>
                    </div>
                    <p class="muted" id="reclaim-counts" data-trials={b.trials_used.to_string()}>
                        { format!("{} trials read, {} analysed, {} cells, in {}.", count(b.trials_read), count(b.trials_used), r.cells.len(), duration(b.total_ms)) }</p>
                    { warnings_list("reclaim-warnings", r.warnings.iter().map(|w| ("reading", w))) }
                </Section>
                <Section id="reclaim-plot-card" title="Reclaim rate vs integrity" conventions={conv.clone()}
                    intro={html! { <p class="intro">{ "RR = recovered / n per cell, with its bootstrap interval as a bar; one line per policy \
                        (split by arm, model and task where the cells differ in them)." }</p> }}>
                    <PlotCanvas<ReclaimPlot> id="reclaim-plot" plot={plot} filename="memaudit-reclaim-rr" />
                </Section>
                <Section id="reclaim-cells-card" title="Cells" exports={exp(ReclaimTable::Cells)} conventions={conv.clone()}
                    intro={html! { <><p class="intro">{ "One cell per model × task × policy × integrity g × arm (× the sweep's design values: n, budget, store, …): reclaim rate with its interval \
                        (rule of three when all 0 or all 1), abstentions and confident-wrong emissions under the chosen abstention rule, \
                        and the attractor share with both denominators the paper uses." }</p>
                        <p class="muted" id="reclaim-abstain-rule" data-rule={r.settings.abstain.name()}>{ format!("Abstention: {}", r.abstain_method) }</p></> }}>
                    <div class="table-wrap" tabindex="0">
                    <table id="reclaim-cells">
                        <thead><tr>
                            <th scope="col">{"model"}</th><th scope="col">{"task"}</th><th scope="col">{"policy"}</th><th scope="col">{"g"}</th>
                            <th scope="col">{"arm"}</th><th scope="col" title="the sweep's design values of the cell">{"design"}</th>
                            <th scope="col">{"n"}</th><th scope="col">{"problems"}</th><th scope="col">{"recovered"}</th>
                            <th scope="col">{"RR"}</th><th scope="col">{"low"}</th><th scope="col">{"high"}</th>
                            <th scope="col" title="rule of three">{"3/n bound"}</th>
                            <th scope="col">{"abstain"}</th><th scope="col">{"emit"}</th>
                            <th scope="col" title="attractors / n">{"attractor / n"}</th><th scope="col" title="attractors / emissions">{"attractor / emit"}</th>
                            <th scope="col">{"re-scored"}</th><th scope="col">{"disagree"}</th>
                            <th scope="col" title="abstain rule hedge: abstentions owed only to a hedge phrase">{"hedged"}</th>
                            <th scope="col" title="abstain rule hedge: trials without reply text, decided by the strict rule">{"no reply"}</th>
                            <th scope="col" title="the problems the cell holds (see Populations and cells)">{"population"}</th>
                        </tr></thead>
                        <tbody>
                        { for r.cells.iter().map(|c| html! {
                            <tr data-model={opt_text(&c.model)} data-task={opt_text(&c.task)} data-policy={c.policy.clone()}
                                data-integrity={g_text(c.integrity)} data-arm={opt_text(&c.arm)} data-design={crate::reclaim::table::design_text(c)}>
                                { text_cell("model", opt_text(&c.model)) }
                                { text_cell("task", opt_text(&c.task)) }
                                { text_cell("policy", c.policy.clone()) }
                                { text_cell("integrity", g_text(c.integrity)) }
                                { text_cell("arm", opt_text(&c.arm)) }
                                { text_cell("design", crate::reclaim::table::design_text(c)) }
                                { int_cell("n", c.n) }
                                { int_cell("problems", c.problems) }
                                { int_cell("recovered", c.recovered) }
                                { num_cell("rr", c.rr) }
                                { num_cell("rr_low", c.rr_low) }
                                { num_cell("rr_high", c.rr_high) }
                                <td class="num" data-col="rule_of_three" data-value={crate::report::num(c.rule_of_three_high.or(c.rule_of_three_low))}>
                                    { match (c.rule_of_three_low, c.rule_of_three_high) {
                                        (Some(l), _) => format!("\u{2265} {l:.4}"),
                                        (_, Some(h)) => format!("\u{2264} {h:.4}"),
                                        _ => String::new(),
                                    } }
                                </td>
                                { num_cell("abstain_rate", c.abstain_rate) }
                                { num_cell("emit_rate", c.emit_rate) }
                                { num_cell("attractor_per_n", c.attractor_per_n.rate) }
                                { num_cell("attractor_per_emission", c.attractor_per_emission.rate) }
                                { int_cell("rescored", c.rescored) }
                                { int_cell("rescore_disagrees", c.rescore_disagrees) }
                                { int_cell("hedge_abstain", c.hedge_abstain) }
                                { int_cell("abstain_fallback", c.abstain_fallback) }
                                { text_cell("population", c.population.clone()) }
                            </tr>
                        }) }
                        </tbody>
                    </table>
                    </div>
                </Section>
                <Section id="reclaim-wte-card" title="Worse than empty?" exports={exp(ReclaimTable::WorseThanEmpty)} conventions={conv.clone()}
                    intro={html! { <p class="intro">{ format!("\u{0394} = emit({}) \u{2212} emit({}): does the lossy memory make the model emit a \
                        confident wrong answer more often than no memory at all? A row \u{201c}reverses\u{201d} when \u{0394} < 0.",
                        r.settings.lossy_policy, r.settings.blank_policy) }</p> }}>
                    if r.worse_than_empty.is_empty() {
                        <p class="empty" id="reclaim-wte-empty">{ format!("No cell pairs a `{}` policy with a `{}` one in these trials.", r.settings.lossy_policy, r.settings.blank_policy) }</p>
                    } else {
                        <div class="table-wrap" tabindex="0">
                        <table id="reclaim-wte">
                            <thead><tr><th scope="col">{"model"}</th><th scope="col">{"task"}</th><th scope="col">{"g"}</th><th scope="col">{"arm"}</th>
                                <th scope="col">{"n lossy"}</th><th scope="col">{"n blank"}</th><th scope="col">{"emit lossy"}</th><th scope="col">{"emit blank"}</th>
                                <th scope="col">{"\u{0394}"}</th><th scope="col">{"low"}</th><th scope="col">{"high"}</th><th scope="col">{"pairing"}</th><th scope="col">{""}</th></tr></thead>
                            <tbody>
                            { for r.worse_than_empty.iter().map(|w| html! {
                                <tr data-model={opt_text(&w.model)} data-integrity={g_text(w.integrity)} data-arm={opt_text(&w.arm)}
                                    data-reverses={w.reverses.to_string()} class={classes!(w.reverses.then_some("flip"))}>
                                    { text_cell("model", opt_text(&w.model)) }
                                    { text_cell("task", opt_text(&w.task)) }
                                    { text_cell("integrity", g_text(w.integrity)) }
                                    { text_cell("arm", opt_text(&w.arm)) }
                                    { int_cell("n_lossy", w.n_lossy) }
                                    { int_cell("n_blank", w.n_blank) }
                                    { num_cell("emit_lossy", w.emit_lossy) }
                                    { num_cell("emit_blank", w.emit_blank) }
                                    { signed_cell("delta", w.delta) }
                                    { signed_cell("low", w.low) }
                                    { signed_cell("high", w.high) }
                                    { text_cell("pairing", format!("{} ({} pairs)", w.pairing, w.pairs)) }
                                    <td>{ if w.reverses { "reverses" } else { "" } }</td>
                                </tr>
                            }) }
                            </tbody>
                        </table>
                        </div>
                    }
                </Section>
                if !r.contrasts.is_empty() {
                    <Section id="reclaim-contrasts-card" title="RR contrasts" exports={exp(ReclaimTable::Contrasts)} conventions={conv.clone()}>
                        <div class="table-wrap" tabindex="0">
                        <table id="reclaim-contrasts">
                            <thead><tr><th scope="col">{"model"}</th><th scope="col">{"g"}</th><th scope="col">{"arm"}</th><th scope="col">{"a"}</th><th scope="col">{"b"}</th>
                                <th scope="col">{"RR a"}</th><th scope="col">{"RR b"}</th><th scope="col">{"\u{0394}"}</th><th scope="col">{"low"}</th><th scope="col">{"high"}</th><th scope="col">{"pairing"}</th></tr></thead>
                            <tbody>
                            { for r.contrasts.iter().map(|c| html! {
                                <tr data-a={c.a.clone()} data-b={c.b.clone()} data-integrity={g_text(c.integrity)} data-arm={opt_text(&c.arm)}>
                                    { text_cell("model", opt_text(&c.model)) }
                                    { text_cell("integrity", g_text(c.integrity)) }
                                    { text_cell("arm", opt_text(&c.arm)) }
                                    { text_cell("a", c.a.clone()) }
                                    { text_cell("b", c.b.clone()) }
                                    { num_cell("rr_a", c.rr_a) }
                                    { num_cell("rr_b", c.rr_b) }
                                    { signed_cell("delta", c.delta) }
                                    { signed_cell("low", c.low) }
                                    { signed_cell("high", c.high) }
                                    { text_cell("pairing", format!("{} ({} pairs)", c.pairing, c.pairs)) }
                                </tr>
                            }) }
                            </tbody>
                        </table>
                        </div>
                    </Section>
                }
                { crate::web::components::cells::populations_card("reclaim", &r.populations) }
                { boundaries_view(b, &exp, &conv) }
            </div>
        }
    }
}

/// The boundary evidence: failure modes, stored buckets, sweeps with their crossover, the
/// recompute certificate, invented numbers and cascades — each card only when the data have it.
fn boundaries_view(b: &Rc<ReclaimBatch>, exp: &dyn Fn(ReclaimTable) -> Html, conv: &Option<AttrValue>) -> Html {
    use crate::reclaim::boundaries::{BucketRow, CascadeRow, CertificateRow, FailureRow, InventedRow};
    use crate::web::components::grid::{Kind, Look, RowAttrs, table_grid};
    let r = &b.report;
    let bd = &r.boundaries;
    let t = |which| reclaim_table(r, which);
    let look = |col: &str| match col {
        "model" | "task" | "policy" | "arm" | "design" | "bucket" | "basis" | "example" | "variable" | "fixed"
        | "planted" | "stale_known" | "control_blast" | "hop_wrong" | "integrity" => Look::named(col, Kind::Text),
        "n" | "recovered" | "inherited" | "novel" | "abstained" | "unknown" | "count" | "with_bucket" | "pass_n"
        | "flag_n" | "memories" | "with_invented" | "max_invented" | "chains" => Look::named(col, Kind::Int),
        _ => Look::named(col, Kind::Num),
    };
    let cell_attrs = |policy: &str, design: &str| {
        RowAttrs::data(vec![("data-policy", policy.to_string()), ("data-design", design.to_string())])
    };
    let points: Vec<(String, String, f64)> = bd
        .sweeps
        .iter()
        .flat_map(|s| s.points.iter().map(move |p| (s.variable.clone(), s.policy.clone(), p.x)))
        .collect();
    html! {
        <>
            <Section id="reclaim-failure-card" title="Failure modes" exports={exp(ReclaimTable::FailureModes)} conventions={conv.clone()}
                intro={html! { <p class="intro">{ "Per cell: recovered, inherited (a wrong answer equal to the stale value), novel (any other wrong answer) and abstained, each a share of n; \
                    inherited per emission has the confident-wrong emissions as its denominator (the paper's Table 17). Without a stale value inherited and novel are not told apart." }</p> }}>
                { table_grid("reclaim-failure", &t(ReclaimTable::FailureModes), look, &bd.failure_modes, &[],
                    |f: &FailureRow| cell_attrs(&f.policy, &f.design)) }
            </Section>
            if !bd.buckets.is_empty() {
                <Section id="reclaim-buckets-card" title="Stored buckets" exports={exp(ReclaimTable::Buckets)} conventions={conv.clone()}
                    intro={html! { <p class="intro">{ "The bucket each trial was stored with (completeness: flagged_partial, silent_missum, other_wrong, abstain, correct), counted per cell over the trials that carry one." }</p> }}>
                    { table_grid("reclaim-buckets", &t(ReclaimTable::Buckets), look, &bd.buckets, &[],
                        |x: &BucketRow| cell_attrs(&x.policy, &x.design)) }
                </Section>
            }
            if !bd.sweeps.is_empty() {
                <Section id="reclaim-sweeps-card" title="Size and noise sweeps" exports={exp(ReclaimTable::Sweeps)} conventions={conv.clone()}
                    intro={html! { <p class="intro">{ "Reclaim rate along the store size n or the decoys, per policy and the other design values (k_items and the item pooled); the crossover is the largest value whose rate exceeds \u{00bd}." }</p> }}>
                    { for ["n", "decoys"].iter().filter_map(|v| crate::reclaim::figures::sweep_plot(r, v).map(|plot| html! {
                        <crate::web::components::plot::PlotCanvas<crate::plots::LinesPlot> id={format!("reclaim-sweep-plot-{v}")} {plot} filename={format!("memaudit-reclaim-sweep-{v}")} />
                    })) }
                    { table_grid("reclaim-sweeps", &t(ReclaimTable::Sweeps), look, &points, &[],
                        |p: &(String, String, f64)| RowAttrs::data(vec![("data-variable", p.0.clone()), ("data-policy", p.1.clone()), ("data-x", p.2.to_string())])) }
                </Section>
            }
            if !bd.certificate.is_empty() {
                <Section id="reclaim-certificate-card" title="Recompute certificate" exports={exp(ReclaimTable::Certificate)} conventions={conv.clone()}
                    intro={html! { <p class="intro">{ "A note passes when it kept every item the answer is recomputed from (k_items = n on the size sweep, all_kept on the noise sweep); the reclaim rate with its interval on each side." }</p> }}>
                    { table_grid("reclaim-certificate", &t(ReclaimTable::Certificate), look, &bd.certificate, &[],
                        |c: &CertificateRow| cell_attrs(&c.policy, &c.basis)) }
                </Section>
            }
            if !bd.invented.is_empty() {
                <Section id="reclaim-invented-card" title="Invented numbers" exports={exp(ReclaimTable::Invented)} conventions={conv.clone()}
                    intro={html! { <p class="intro">{ "Per memory (one per seed and problem), the numbers of the carried note that are not among the session's source numbers (src_nums), compared as strings; the share of memories with one or more and the mean count with its interval." }</p> }}>
                    { table_grid("reclaim-invented", &t(ReclaimTable::Invented), look, &bd.invented, &[],
                        |i: &InventedRow| cell_attrs(&i.policy, "")) }
                </Section>
            }
            if !bd.cascade.is_empty() {
                <Section id="reclaim-cascade-card" title="Cascade" exports={exp(ReclaimTable::Cascade)} conventions={conv.clone()}
                    intro={html! { <p class="intro">{ "Per policy, chain length H and planted error (or its no-error control): the mean blast radius (hops with a wrong answer, hop 1 included), the final reclaim rate, the source-complete share and each hop's wrong share. A control with blast above 0 is marked." }</p> }}>
                    { table_grid("reclaim-cascade", &t(ReclaimTable::Cascade), look, &bd.cascade, &[],
                        |c: &CascadeRow| RowAttrs::data(vec![("data-policy", c.policy.clone()),
                            ("data-hops", crate::report::num(c.hops)), ("data-planted", c.planted.map_or(String::new(), |p| p.to_string()))])
                            .with_class(c.control_blast.then_some("warn"))) }
                </Section>
            }
        </>
    }
}

impl Component for ReclaimPage {
    type Message = Msg;
    type Properties = PageProps;

    fn create(ctx: &Context<Self>) -> Self {
        let mut page = ReclaimPage {
            job: Job::new(ctx.link().callback(Msg::Worker)),
            overview: None,
            files: Vec::new(),
            draft: Draft::default(),
            applied: None,
            batch: None,
            last_drop: ctx.props().dropped.as_ref().map(|d| d.seq),
            state: PageState::Idle,
        };
        if ctx.props().active && crate::web::dom::startup_request(crate::web::pages::Page::Reclaim).demo {
            page.start(Some(Inputs::Demo), "loading the demo");
        }
        page
    }

    fn changed(&mut self, ctx: &Context<Self>, _old: &Self::Properties) -> bool {
        forward_drop(ctx, &mut self.last_drop, Msg::AddFiles)
    }

    fn update(&mut self, _ctx: &Context<Self>, msg: Self::Message) -> bool {
        match msg {
            Msg::Demo => {
                self.files.clear();
                self.draft.clear_arm();
                self.start(Some(Inputs::Demo), "loading the demo");
                true
            }
            Msg::AddFiles(files) => {
                add_files(&mut self.files, files);
                self.draft.clear_arm();
                self.start(Some(job::files(&self.files)), "reading trials");
                true
            }
            Msg::RemoveFile(i) => {
                if remove_file(&mut self.files, i) && !self.files.is_empty() {
                    self.draft.clear_arm();
                    self.start(Some(job::files(&self.files)), "reading trials");
                }
                true
            }
            Msg::ClearFiles => {
                self.files.clear();
                true
            }
            Msg::Edit(f) => {
                f(&mut self.draft);
                true
            }
            Msg::Apply => {
                if self.batch.is_some() {
                    self.start(None, "analysing");
                }
                true
            }
            Msg::Defaults => {
                let arm = self.draft.arm().to_string();
                self.draft = Draft::default();
                self.draft.fields.set("arm", arm);
                true
            }
            Msg::Worker(r) => self.on_response(r),
            Msg::Cancel => {
                self.job.cancel();
                true
            }
            Msg::DismissError => {
                self.job.error = None;
                true
            }
        }
    }

    fn rendered(&mut self, ctx: &Context<Self>, _first: bool) {
        report_state(ctx.props(), &mut self.state, self.job.state(self.batch.is_some()));
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let state = self.job.state(self.batch.is_some());
        let on_files = link.callback(Msg::AddFiles);
        html! {
            <section class="page" id="page-reclaim" data-page="reclaim" data-state={state.name()} data-finished={self.job.finished()}
                hidden={!ctx.props().active} aria-label="Reclaim">
                <p class="tagline">{ "Reclaim rates: how often a correction recovers the answer, per memory policy and integrity, with \
                    reclaim-eval's intervals reproduced exactly, and whether a lossy memory is worse than an empty one." }</p>
                <section id="reclaim-intake" class="card drop-zone" aria-labelledby="reclaim-intake-title">
                    <h2 id="reclaim-intake-title">{ "Trials" }</h2>
                    <p>{ "Drop trial rows (JSONL: " }<code>{ "pid, policy, integrity, arm, seed, reply, answer, correct, …" }</code>
                        { "; reclaim-eval's fix_*, realworld_*, srcconcl_*, blank_strict_*, multiwoz_* files) anywhere on this page, \
                        or choose them; add " }<code>{ "probe_keys_base16.json" }</code>{ " for the truth and stale values." }</p>
                    <div class="intake-actions">
                        { file_picker("reclaim-file-input", "Choose trial files…", "reclaim-privacy", on_files) }
                        <button type="button" class="secondary" id="reclaim-demo-button" onclick={link.callback(|_: MouseEvent| Msg::Demo)}
                            title="synthetic trials of four memory policies built into the page: nothing is fetched">{ "Try the demo" }</button>
                    </div>
                    { file_list("reclaim-", &self.files, link.callback(Msg::RemoveFile), link.callback(|_: MouseEvent| Msg::ClearFiles)) }
                    <p class="muted" id="reclaim-privacy">{ "Everything runs in this browser tab: your files are never uploaded." }</p>
                </section>
                { self.view_settings(ctx) }
                { self.job.view("reclaim-", link.callback(|_: MouseEvent| Msg::Cancel), link.callback(|_: MouseEvent| Msg::DismissError)) }
                if let Some(b) = &self.batch {
                    { self.view_results(b) }
                }
                <footer class="page-foot muted">
                    { "The same numbers as " }<code>{ "memaudit reclaim --trials FILE --format json" }</code>{ "; CSV exports equal " }
                    <code>{ "--format csv --table NAME" }</code>{ "." }
                </footer>
            </section>
        }
    }
}
