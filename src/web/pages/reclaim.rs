//! The reclaim page: drop reclaim-eval trial rows (probe keys optional, recognised by
//! content), choose the resampler and its settings, and see the reclaim rate (RR) per cell
//! (model × task × policy × integrity × arm) with its interval, as a table and as a plot of RR
//! against integrity per policy, the "worse than empty" contrast and any RR contrasts — the
//! numbers of `memaudit reclaim --format json`. A [`Tool`] of [`ToolPage`].

use std::rc::Rc;

use yew::prelude::*;

use super::tool::{BatchOf, Tool, ToolPage, Ui, file_notes};
use crate::reclaim::ReclaimPlot;
use crate::reclaim::{Cell, Contrast, WorseThanEmpty};
use crate::reclaim::{ReclaimRequest, ReclaimTable, reclaim_table};
use crate::web::components::Section;
use crate::web::components::export::{lazy_exports, text_download, to_json};
use crate::web::components::fields::FieldDraft;
use crate::web::components::grid::{Kind, Look, RowAttrs, table_grid};
use crate::web::components::plot::PlotCanvas;
use crate::web::components::warnings::warnings_list;
use crate::web::format::{count, duration};

/// A reclaim analysis as the page keeps it: the overview (files, arms, trials read) and the
/// report, as `memaudit reclaim --format json` prints it (reading notices merged into
/// `warnings`).
type ReclaimBatch = BatchOf<Reclaim>;

/// The settings form as edited: the text of every declared field of [`ReclaimRequest`] (the
/// cells' among them).
#[derive(Debug, Clone, PartialEq)]
pub struct Draft {
    pub fields: FieldDraft<ReclaimRequest>,
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
        Draft { fields: FieldDraft::of(r) }
    }

    /// The run, or what is wrong (naming the field).
    pub fn parse(&self) -> Result<ReclaimRequest, String> {
        self.fields.parse(ReclaimRequest::default())
    }

    /// The arm chosen (empty: every trial).
    fn arm(&self) -> &str {
        self.fields.text("arm")
    }
}

/// The reclaim page.
pub type ReclaimPage = ToolPage<Reclaim>;

/// The reclaim page's [`Tool`].
pub struct Reclaim;

screen!(crate::reclaim::Reclaim => ReclaimPage, Tools);

fn opt_text(v: &Option<String>) -> String {
    v.clone().unwrap_or_default()
}

fn g_text(v: Option<f64>) -> String {
    v.map(|x| x.to_string()).unwrap_or_default()
}

impl Tool for Reclaim {
    type Capability = crate::reclaim::Reclaim;
    const INTAKE_TITLE: &'static str = "Trials";
    type Draft = Draft;
    type View = ();
    const CARDS: crate::web::components::headlines::Cards = &[
        ("cells", "reclaim-cells-card"),
        ("worse_than_empty", "reclaim-wte-card"),
        ("contrasts", "reclaim-contrasts-card"),
        ("failure_modes", "reclaim-failure-card"),
        ("buckets", "reclaim-buckets-card"),
        ("sweeps", "reclaim-sweeps-card"),
        ("certificate", "reclaim-certificate-card"),
        ("invented", "reclaim-invented-card"),
        ("cascade", "reclaim-cascade-card"),
        ("populations", "reclaim-populations-card"),
        ("cell_columns", "reclaim-populations-card"),
    ];

    fn tagline() -> Html {
        html! { { "Reclaim rates: how often a correction recovers the answer, per memory policy and integrity, with \
        reclaim-eval's intervals reproduced exactly, and whether a lossy memory is worse than an empty one." } }
    }

    fn intake() -> Html {
        html! {
            <p>{ "Drop trial rows (JSONL: " }<code>{ "pid, policy, integrity, arm, seed, reply, answer, correct, …" }</code>
                { "; reclaim-eval's fix_*, realworld_*, srcconcl_*, blank_strict_*, multiwoz_* files) anywhere on this page, \
                or choose them; add " }<code>{ "probe_keys_base16.json" }</code>{ " for the truth and stale values." }</p>
        }
    }

    fn request(draft: &Draft) -> Result<ReclaimRequest, String> {
        draft.parse()
    }

    /// Every declared field, the arm as a choice among the trials' arms.
    fn settings(page: &ReclaimPage, ui: &Ui<Self>) -> Html {
        let d = &page.draft;
        let arms = page.batch.as_ref().map(|b| b.overview.arms.clone()).unwrap_or_default();
        let arm_help = <ReclaimRequest as crate::fields::Fields>::field("arm").map(|f| f.help);
        html! {
            <>
                <div class="field">
                    <label for="reclaim-arm" title={arm_help}>{ "arm" }</label>
                    <select id="reclaim-arm" onchange={ui.on_select(|d: &mut Draft, v| d.fields.set("arm", v))} disabled={arms.is_empty()}>
                        <option value="" selected={d.arm().is_empty()}>{ "all trials" }</option>
                        { for arms.iter().map(|a| html! { <option value={a.clone()} selected={d.arm() == a.as_str()}>{ a.clone() }</option> }) }
                    </select>
                </div>
                { ui.fields_form_with("reclaim", &d.fields, |d| &mut d.fields, &["arm"], IDS) }
            </>
        }
    }

    /// The defaults, keeping the arm chosen among the trials'.
    fn defaults(old: &Draft) -> Draft {
        let mut d = Draft::default();
        d.fields.set("arm", old.arm().to_string());
        d
    }

    /// A new set of trials: the arm chosen among the old ones is forgotten.
    fn files_changed(draft: &mut Draft) {
        draft.fields.set("arm", String::new());
    }

    fn results(page: &ReclaimPage, b: &Rc<ReclaimBatch>, _ui: &Ui<Self>) -> Html {
        results(page.applied.as_ref(), b)
    }
}

/// The results below the headlines.
fn results(applied: Option<&Draft>, b: &Rc<ReclaimBatch>) -> Html {
    let r = &b.report;
    let cells = r.populations.settings.describe();
    let conv = Some(AttrValue::from(format!(
        "{}; scoring={}; abstain={}; arm={}{}",
        r.interval_method,
        serde_json::to_value(r.settings.score).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default(),
        r.settings.abstain.name(),
        applied.map(|d| d.arm().to_string()).filter(|a| !a.is_empty()).unwrap_or_else(|| "all".into()),
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
        move || crate::web::components::export::report_json::<crate::reclaim::Reclaim>(&b.report, &b.headlines)
    };
    let plot = ReclaimPlot::of_report(r);
    let t = |which| reclaim_table(r, which);
    html! {
        <>
            <Section id="reclaim-reading" title="What was read"
                exports={text_download("reclaim-report-json", "Full report JSON", "memaudit-reclaim.json", "application/json", full)}>
                { file_notes("reclaim-", &b.overview.files) }
                <p class="muted" id="reclaim-counts" data-trials={r.trials.to_string()}>
                    { format!("{} trials read, {} analysed, {} cells, in {}.", count(b.overview.trials_read), count(r.trials), r.cells.len(), duration(b.timing.total_ms)) }</p>
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
                { table_grid("reclaim-cells", &t(ReclaimTable::Cells), look, &r.cells, &[], |c: &Cell| RowAttrs::data(vec![
                    ("data-model", opt_text(&c.key.model)), ("data-task", opt_text(&c.key.task)), ("data-policy", c.key.policy.clone()),
                    ("data-integrity", g_text(c.key.integrity)), ("data-arm", opt_text(&c.key.arm)),
                    ("data-design", crate::reclaim::table::design_text(c))])) }
            </Section>
            <Section id="reclaim-wte-card" title="Worse than empty?" exports={exp(ReclaimTable::WorseThanEmpty)} conventions={conv.clone()}
                intro={html! { <p class="intro">{ format!("\u{0394} = emit({}) \u{2212} emit({}): does the lossy memory make the model emit a \
                    confident wrong answer more often than no memory at all? A row \u{201c}reverses\u{201d} when \u{0394} < 0.",
                    r.settings.lossy_policy, r.settings.blank_policy) }</p> }}>
                if r.worse_than_empty.is_empty() {
                    <p class="empty" id="reclaim-wte-empty">{ format!("No cell pairs a `{}` policy with a `{}` one in these trials.", r.settings.lossy_policy, r.settings.blank_policy) }</p>
                } else {
                    { table_grid("reclaim-wte", &t(ReclaimTable::WorseThanEmpty), difference_look, &r.worse_than_empty, &[], |w: &WorseThanEmpty|
                        RowAttrs::data(vec![("data-model", opt_text(&w.key.model)), ("data-integrity", g_text(w.key.integrity)),
                            ("data-arm", opt_text(&w.key.arm)), ("data-reverses", w.reverses.to_string())])
                            .with_class(w.reverses.then_some("flip"))) }
                }
            </Section>
            if !r.contrasts.is_empty() {
                <Section id="reclaim-contrasts-card" title="RR contrasts" exports={exp(ReclaimTable::Contrasts)} conventions={conv.clone()}>
                    { table_grid("reclaim-contrasts", &t(ReclaimTable::Contrasts), difference_look, &r.contrasts, &[], |c: &Contrast|
                        RowAttrs::data(vec![("data-a", c.a.clone()), ("data-b", c.b.clone()),
                            ("data-integrity", g_text(c.key.integrity)), ("data-arm", opt_text(&c.key.arm))])) }
                </Section>
            }
            { crate::web::components::cells::populations_card("reclaim", &r.populations) }
            { boundaries_view(b, &exp, &conv) }
        </>
    }
}

/// How a column of the reclaim page's tables is shown: labels, counts, and numbers (signed for
/// the differences of two rates).
fn look(col: &str) -> Look {
    match col {
        "model" | "task" | "policy" | "arm" | "design" | "bucket" | "basis" | "example" | "variable" | "fixed"
        | "planted" | "stale_known" | "control_blast" | "hop_wrong" | "integrity" | "abstain_rule" | "population"
        | "lossy_policy" | "blank_policy" | "pairing" | "reverses" | "a" | "b" => Look::named(col, Kind::Text),
        "n" | "recovered" | "inherited" | "novel" | "abstained" | "unknown" | "count" | "with_bucket" | "pass_n"
        | "flag_n" | "memories" | "with_invented" | "max_invented" | "chains" | "problems" | "answered_known"
        | "abstain" | "emit" | "attractor" | "rescored" | "rescore_disagrees" | "hedge_abstain"
        | "abstain_fallback" | "emission_unknown" | "from_stored_labels" | "stored_labels" | "label_disagrees"
        | "n_lossy" | "n_blank" | "pairs" | "n_a" | "n_b" | "flagged_known" | "flagged" | "flagged_emit" => {
            Look::named(col, Kind::Int)
        }
        "delta" => Look::new("\u{0394}", Kind::Signed),
        "rule_of_three_low" | "rule_of_three_high" => {
            Look::named(col, Kind::Num).titled("rule of three: all 0 or all 1")
        }
        _ => Look::named(col, Kind::Num),
    }
}

/// [`look`] for a table of differences of two rates, whose interval is signed.
fn difference_look(col: &str) -> Look {
    match col {
        "low" | "high" => Look::named(col, Kind::Signed),
        _ => look(col),
    }
}

/// The boundary evidence: failure modes, stored buckets, sweeps with their crossover, the
/// recompute certificate, invented numbers and cascades — each card only when the data have it.
fn boundaries_view(b: &Rc<ReclaimBatch>, exp: &dyn Fn(ReclaimTable) -> Html, conv: &Option<AttrValue>) -> Html {
    use crate::reclaim::boundaries::{BucketRow, CascadeRow, CertificateRow, FailureRow, InventedRow};
    let r = &b.report;
    let bd = &r.boundaries;
    let t = |which| reclaim_table(r, which);
    let cell_attrs = |policy: &str, design: &str| {
        RowAttrs::data(vec![("data-policy", policy.to_string()), ("data-design", design.to_string())])
    };
    let points: Vec<(String, String, f64)> = bd
        .sweeps
        .iter()
        .flat_map(|s| s.points.iter().map(move |p| (s.variable.clone(), s.key.policy.clone(), p.x)))
        .collect();
    html! {
        <>
            <Section id="reclaim-failure-card" title="Failure modes" exports={exp(ReclaimTable::FailureModes)} conventions={conv.clone()}
                intro={html! { <p class="intro">{ "Per cell: recovered, inherited (a wrong answer equal to the stale value), novel (any other wrong answer) and abstained, each a share of n; \
                    inherited per emission has the confident-wrong emissions as its denominator (the paper's Table 17). Without a stale value inherited and novel are not told apart." }</p> }}>
                { table_grid("reclaim-failure", &t(ReclaimTable::FailureModes), look, &bd.failure_modes, &[],
                    |f: &FailureRow| cell_attrs(&f.key.policy, &f.design)) }
            </Section>
            if !bd.buckets.is_empty() {
                <Section id="reclaim-buckets-card" title="Stored buckets" exports={exp(ReclaimTable::Buckets)} conventions={conv.clone()}
                    intro={html! { <p class="intro">{ "The bucket each trial was stored with (completeness: flagged_partial, silent_missum, other_wrong, abstain, correct), counted per cell over the trials that carry one." }</p> }}>
                    { table_grid("reclaim-buckets", &t(ReclaimTable::Buckets), look, &bd.buckets, &[],
                        |x: &BucketRow| cell_attrs(&x.key.policy, &x.design)) }
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
                        |c: &CertificateRow| cell_attrs(&c.key.policy, &c.basis)) }
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
