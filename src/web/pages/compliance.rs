//! The compliance page: drop per-task rows of memory arms (an arm, compliance, and optionally
//! recall, tokens and depth) and see the use factor κ = compliance / recall and return on tokens
//! with delta-method and bootstrap intervals, compliance against depth with each arm's slope,
//! where a focus arm overtakes the others, and the power of each comparison — the numbers of
//! `memaudit compliance --format json`. A power calculator (`memaudit power`) sits beside them.

use std::rc::Rc;

use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::tool::{BatchOf, Tool, ToolPage, Ui, file_notes};
use crate::compliance::analyse::{ArmRow, CrossoverRow, DepthRow, MarginRow, MediationRow, PowerRow, SlopeRow};
use crate::compliance::dominance::DominanceRow;
use crate::compliance::recall::{FailureRow, RecallBinRow};
use crate::compliance::{self, ComplianceRequest, ComplianceTable};
use crate::plots::LinesPlot;
use crate::plots::ecdf::EcdfPlot;
use crate::report::Table;
use crate::stats::power::{Design, PowerRequest, calculate};
use crate::web::components::Section;
use crate::web::components::export::{text_download, to_json};
use crate::web::components::fields::FieldDraft;
use crate::web::components::grid::{Kind, Look, RowAttrs, table_exports, table_grid};
use crate::web::components::plot::PlotCanvas;
use crate::web::format::{count, duration, fmt4};

type ComplianceBatch = BatchOf<Compliance>;

/// The settings as edited: the text of every declared field.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Draft {
    pub fields: FieldDraft<ComplianceRequest>,
}

impl Draft {
    /// The request (ranges are checked by the core's validate).
    pub fn parse(&self) -> Result<ComplianceRequest, String> {
        self.fields.parse(ComplianceRequest::default())
    }
}

fn number<T: std::str::FromStr>(what: &str, v: &str) -> Result<T, String> {
    v.trim().parse::<T>().map_err(|_| format!("{what}: `{}` is not a number", v.trim()))
}

pub enum Compliance {}

/// The compliance page.
pub type CompliancePage = ToolPage<Compliance>;

screen!(crate::compliance::Compliance => CompliancePage, Tools);

/// The settings as `memaudit compliance` options.
fn conventions(b: &ComplianceBatch) -> String {
    let s = &b.report.settings;
    format!(
        "bootstrap={} seed={} confidence={} resampling=within_arm_depth_cells intervals=percentile delta=normal power={} alpha={} claimed_effect={} focus={} against={} group={} rot_per={}",
        s.bootstrap.resamples,
        s.bootstrap.seed,
        s.bootstrap.confidence,
        s.target_power,
        fmt4(Some(s.alpha)),
        s.claimed_effect.map_or("none".into(), |e| e.to_string()),
        s.focus.as_deref().unwrap_or("none"),
        if s.against.is_empty() { "all".to_string() } else { s.against.join(",") },
        if s.group.is_empty() { "none".to_string() } else { s.group.join(",") },
        s.per_tokens
    ) + &{
        let cells = b.report.populations.settings.describe();
        if cells.is_empty() { String::new() } else { format!(" cells: {cells}") }
    } + &s
        .theory
        .parameters()
        .map(|(s0, rho, q)| format!(" theory_s0={s0} theory_rho={rho} theory_q={q}"))
        .unwrap_or_default()
}

fn look(col: &str) -> Look {
    match col {
        "group"
        | "arm"
        | "against"
        | "focus"
        | "best"
        | "compliance_interval"
        | "interval"
        | "design"
        | "verdict"
        | "binary"
        | "above_zero"
        | "crossing_in_range" => Look::named(col, Kind::Text),
        "n"
        | "n_against"
        | "depths"
        | "kappa_conditional_n"
        | "failures"
        | "not_retrieved"
        | "retrieved_not_used"
        | "partial"
        | "no_recall" => Look::named(col, Kind::Int),
        "fisher_p" | "p" | "p_a_greater" | "p_b_greater" => Look::named(col, Kind::P),
        "measure" | "arm_a" | "arm_b" | "order" | "method" | "tied" => Look::named(col, Kind::Text),
        "n_a" | "n_b" => Look::named(col, Kind::Int),
        "bin" => Look::named(col, Kind::Text),
        "not_retrieved_share" | "retrieved_not_used_share" => Look::named(col, Kind::Share),
        "delta" | "slope" | "endpoint" | "mde" | "total" | "direct" | "indirect" | "cliffs_delta" => {
            Look::named(col, Kind::Signed)
        }
        "unstable" | "law" | "refused" | "inside" => Look::named(col, Kind::Text),
        "points" | "parameters" => Look::named(col, Kind::Int),
        _ => Look::named(col, Kind::Num),
    }
}

/// What `memaudit compliance --format json` prints.
pub fn report_json(b: &ComplianceBatch) -> Result<String, String> {
    crate::web::components::export::report_json::<crate::compliance::Compliance>(&b.report, &b.headlines)
}

fn table_of(b: &ComplianceBatch, t: ComplianceTable) -> crate::error::Result<Table> {
    Ok(compliance::table(&b.report, t))
}

impl Tool for Compliance {
    type Capability = crate::compliance::Compliance;
    const INTAKE_TITLE: &'static str = "Per-task compliance rows";
    const CARDS: crate::web::components::headlines::Cards = &[
        ("arms", "compliance-arms-card"),
        ("depth", "compliance-depth-card"),
        ("slopes", "compliance-depth-card"),
        ("margins", "compliance-margins-card"),
        ("crossover", "compliance-margins-card"),
        ("power", "compliance-power-card"),
        ("mediation", "compliance-mediation-card"),
        ("recall_bins", "compliance-recall-card"),
        ("failures", "compliance-recall-card"),
        ("dominance", "compliance-dominance-card"),
        ("ecdf", "compliance-dominance-card"),
        ("populations", "compliance-populations-card"),
        ("cell_columns", "compliance-populations-card"),
        ("theory", "compliance-theory-card"),
        ("laws", "compliance-theory-card"),
    ];
    type Draft = Draft;
    type View = ();

    fn tagline() -> Html {
        html! { { "Whether a memory arm's decisions are honoured once retrieved (use factor \u{03ba} = compliance / recall), what each \
        compliant answer costs in tokens, how compliance falls with causal depth and where one arm overtakes the others, and whether the \
        comparisons are large enough to detect the effects claimed." } }
    }

    fn intake() -> Html {
        html! {
            <p>{ "Drop per-task rows (CSV/TSV, JSON Lines or a JSON array, e.g. BriefBench's " }<code>{ "all_rows_*.jsonl" }</code>
                { "): an arm (" }<code>{ "arm" }</code>{ "), compliance as 0/1 or a rate (" }<code>{ "compliance_rate" }</code>
                { ", " }<code>{ "comply" }</code>{ "), and optionally recall (" }<code>{ "recall" }</code>{ "), tokens (" }
                <code>{ "total_tokens" }</code>{ ") and the causal-hop depth (" }<code>{ "depth" }</code>{ ")." }</p>
        }
    }

    fn request(draft: &Draft) -> Result<ComplianceRequest, String> {
        draft.parse()
    }

    fn settings(page: &ToolPage<Self>, ui: &Ui<Self>) -> Html {
        let d = &page.draft;
        html! {
            <>
                { ui.fields_form_with("compliance", &d.fields, |d: &mut Draft| &mut d.fields, &[], &[("depth", "compliance-depth-column"), ("power", "compliance-target-power")]) }
            </>
        }
    }

    fn results(_page: &ToolPage<Self>, b: &Rc<ComplianceBatch>, _ui: &Ui<Self>) -> Html {
        let r = &b.report;
        let conv = Some(AttrValue::from(conventions(b)));
        let json = {
            let b = b.clone();
            move || report_json(&b)
        };
        let t = |which| compliance::table(r, which);
        let level = r.settings.bootstrap.confidence * 100.0;
        html! {
            <>
                <div class="results-head">
                    <p id="compliance-counts" data-rows={r.rows.to_string()} data-missing={r.missing.count.to_string()}
                        data-filtered={r.filtered_out.to_string()} data-groups={r.groups.len().to_string()}>
                        { format!("{} rows in {} group(s) ({} left out with a missing value, {} not kept by the filter) ({}).",
                            count(r.rows), r.groups.len(), r.missing.count, r.filtered_out, duration(b.timing.total_ms)) }</p>
                    <div class="exports">{ text_download("compliance-report-json", "Full report JSON", "memaudit-compliance.json", "application/json", json) }</div>
                </div>
                <Section id="compliance-reading" title="What was read" conventions={conv.clone()}>
                    { file_notes("compliance-", &b.overview) }
                    <p class="intro">{ format!("Columns: {}.", r.readings.iter().map(|x| format!("{}: arm {}, compliance {}, recall {}, tokens {}, depth {} ({} of {} rows kept)",
                        x.file, x.arm, x.compliance, x.recall.clone().unwrap_or_else(|| "none".into()), x.tokens.clone().unwrap_or_else(|| "none".into()),
                        x.depth.clone().unwrap_or_else(|| "none".into()), x.kept, x.records)).collect::<Vec<_>>().join("; ")) }</p>
                    { for r.pooled.iter().map(|p| html! { <p class="note" data-pooled={p.column.clone()}>{ format!("Rows are pooled over {} ({}), as asked.", p.column, p.values.join(", ")) }</p> }) }
                    { for r.notes.iter().map(|n| html! { <p class="intro">{ n.clone() }</p> }) }
                </Section>
                { crate::web::components::cells::populations_card("compliance", &r.populations) }
                <Section id="compliance-arms-card" title="Use factor and return on tokens" conventions={conv.clone()}
                    exports={table_exports(ComplianceTable::Arms, b, table_of, |b| to_json(&b.report.arms))}
                    intro={html! { <p class="intro">{ format!("\u{03ba} = mean compliance / mean recall, with its delta-method s.e. (with the covariance of compliance and recall; \
                        _independent: without it, as BriefBench prints it) and {level}% intervals (delta: normal; boot: percentile bootstrap); \u{03ba} | recall = 1 is the compliance on the rows \
                        that retrieved everything. Return on tokens = mean compliance / (mean tokens / 1000), and the mean of per-task ratios, both labelled. Compliance intervals: Wilson for 0/1 values, else bootstrap.") }</p> }}>
                    { table_grid("compliance-arms", &t(ComplianceTable::Arms), look, &r.arms, &[],
                        |a: &ArmRow| RowAttrs::data(vec![("data-group", a.group.clone()), ("data-arm", a.arm.clone())])) }
                </Section>
                <Section id="compliance-depth-card" title="Compliance against depth" conventions={conv.clone()}
                    exports={html! { <>
                        { table_exports(ComplianceTable::Slopes, b, table_of, |b| to_json(&b.report.slopes)) }
                        { table_exports(ComplianceTable::Depth, b, table_of, |b| to_json(&b.report.depth)) }
                    </> }}
                    intro={html! { <p class="intro">{ if r.depth.is_empty() { "No depth column: no depth cells or slopes.".to_string() } else {
                        format!("Per (arm, depth) cell the compliance with its {level}% interval and Hoeffding half-width; per arm the OLS slope per hop with its classical s.e. and a bootstrap interval (rows resampled within depth strata), and the endpoint slope P(d max) \u{2212} P(d min).") } }</p> }}>
                    { for r.groups.iter().enumerate().filter_map(|(i, g)| crate::compliance::figures::depth_plot(r, g).map(|plot| html! {
                        <PlotCanvas<LinesPlot> id={format!("compliance-depth-plot-{i}")} {plot} filename={format!("memaudit-compliance-by-depth-{i}")} />
                    })) }
                    { table_grid("compliance-slopes", &t(ComplianceTable::Slopes), look, &r.slopes, &[],
                        |s: &SlopeRow| RowAttrs::data(vec![("data-group", s.group.clone()), ("data-arm", s.arm.clone())])) }
                    { table_grid("compliance-depth", &t(ComplianceTable::Depth), look, &r.depth, &[],
                        |c: &DepthRow| RowAttrs::data(vec![("data-group", c.group.clone()), ("data-arm", c.arm.clone()), ("data-depth", c.depth.to_string())])) }
                </Section>
                <Section id="compliance-margins-card" title="Margins and crossover" conventions={conv.clone()}
                    exports={html! { <>
                        { table_exports(ComplianceTable::Margins, b, table_of, |b| to_json(&b.report.margins)) }
                        { table_exports(ComplianceTable::Crossover, b, table_of, |b| to_json(&b.report.crossover)) }
                    </> }}
                    intro={html! { <p class="intro">{ match &r.settings.focus {
                        None => "Name a focus arm to see its margins \u{0394}(d) and where it overtakes the others.".to_string(),
                        Some(f) => format!("\u{0394}(d) = {f} \u{2212} each arm, and \u{2212} the best of them, per depth with {level}% bootstrap intervals; d* is the smallest depth whose interval lies above 0 \
                            (an integer: its own interval would be degenerate). Where the fitted lines cross is given with its interval and the share of resamples in which it falls inside the observed depths."),
                    } }</p> }}>
                    { table_grid("compliance-crossover", &t(ComplianceTable::Crossover), look, &r.crossover, &[],
                        |c: &CrossoverRow| RowAttrs::data(vec![("data-group", c.group.clone()), ("data-against", c.against.clone()), ("data-d-star", crate::report::num(c.d_star))])) }
                    { table_grid("compliance-margins", &t(ComplianceTable::Margins), look, &r.margins, &[],
                        |m: &MarginRow| RowAttrs::data(vec![("data-group", m.group.clone()), ("data-against", m.against.clone()), ("data-depth", m.depth.to_string())])) }
                </Section>
                if !r.laws.is_empty() {
                    <Section id="compliance-theory-card" title="The theory beside the data" conventions={conv.clone()}
                        exports={html! { <>
                            { table_exports(ComplianceTable::Theory, b, table_of, |b| to_json(&b.report.theory)) }
                            { table_exports(ComplianceTable::Laws, b, table_of, |b| to_json(&b.report.laws)) }
                        </> }}
                        intro={html! { <p class="intro">{ "At the theory's s\u{2080}, \u{3c1}, q (settings; BriefBench calibrates 0.70, 0.67, 0.97): the similarity ceiling s\u{2080}^d\u{b7}\u{3c1}^{d(d+1)/2}, typed traversal q^d and their difference g(d) per depth, beside the focus arm's measured margin over the best other arm. Below, both laws fitted to each arm's compliance by depth (log space, no intercept; AIC and BIC as BriefBench's model_selection.py; a fit with as many parameters as points refused): in-sample, they describe the cells and test nothing." }</p> }}>
                        if !r.theory.is_empty() {
                            { table_grid("compliance-theory", &t(ComplianceTable::Theory), look, &r.theory, &[],
                                |x: &crate::compliance::theory::TheoryRow| RowAttrs::data(vec![("data-group", x.group.clone()), ("data-depth", x.depth.to_string())])) }
                        }
                        { table_grid("compliance-laws", &t(ComplianceTable::Laws), look, &r.laws, &[],
                            |x: &crate::compliance::theory::LawFit| RowAttrs::data(vec![("data-group", x.group.clone()), ("data-arm", x.arm.clone()), ("data-law", x.law.clone())])) }
                    </Section>
                }
                if !r.dominance.is_empty() {
                    <Section id="compliance-dominance-card" title="Stochastic dominance: each arm's ECDF" conventions={conv.clone()}
                        exports={html! { <>
                            { table_exports(ComplianceTable::Dominance, b, table_of, |b| to_json(&b.report.dominance)) }
                            { table_exports(ComplianceTable::Ecdf, b, table_of, |b| to_json(&b.report.ecdf)) }
                        </> }}
                        intro={html! { <p class="intro">{ "Per-task compliance, recall and return on tokens of each pair of arms, compared as distributions (BriefBench Figs. 2, 4, 7): \
                            the two-sample Kolmogorov\u{2013}Smirnov D = sup |F_a \u{2212} F_b| with its two-sided p, and each one-sided D (how far one arm's ECDF lies right of the other's) with its p \
                            (exact while n_a\u{00b7}n_b \u{2264} 4,000,000, else asymptotic; not adjusted for the number of pairs; conservative with tied values, as compliance shares have). \
                            order: a or b, the arm whose ECDF is never above the other's (it dominates: no crossing); crossing; equal." }</p> }}>
                        { for r.groups.iter().enumerate().filter_map(|(i, g)| crate::compliance::figures::ecdf_plot(r, g).map(|plot| html! {
                            <PlotCanvas<EcdfPlot> id={format!("compliance-ecdf-plot-{i}")} {plot} filename={format!("memaudit-compliance-ecdf-{i}")} />
                        })) }
                        { table_grid("compliance-dominance", &t(ComplianceTable::Dominance), look, &r.dominance, &[],
                            |d: &DominanceRow| RowAttrs::data(vec![("data-group", d.group.clone()), ("data-measure", d.measure.name().into()),
                                ("data-arm-a", d.arm_a.clone()), ("data-arm-b", d.arm_b.clone()), ("data-order", d.order.name().into())])) }
                    </Section>
                }
                <Section id="compliance-power-card" title="Power of each comparison" conventions={conv.clone()}
                    exports={table_exports(ComplianceTable::Power, b, table_of, |b| to_json(&b.report.power))}
                    intro={html! { <p class="intro">{ format!("Two-sided tests at \u{03b1} = {}: pooled two-proportion z for 0/1 compliance, two-sample z of means for rates. Power to detect the observed \u{0394}, \
                        the minimum detectable effect (MDE) at power {}, and the n per arm the observed \u{0394} would need; for 0/1 compliance Fisher's exact test (two-sided p) and the sample odds ratio; Cliff's \u{3b4} = P(X > Y) \u{2212} P(X < Y) of the two arms' rows. Verdicts: claim_undetectable (MDE above the claimed effect), below_mde, detectable.",
                        fmt4(Some(r.settings.alpha)), r.settings.target_power) }</p> }}>
                    { table_grid("compliance-power", &t(ComplianceTable::Power), look, &r.power, &[],
                        |p: &PowerRow| RowAttrs::data(vec![("data-group", p.group.clone()), ("data-against", p.against.clone()), ("data-verdict", p.verdict.clone())])) }
                </Section>
                if !r.mediation.is_empty() {
                    <Section id="compliance-mediation-card" title="Mediation through recall" conventions={conv.clone()}
                        exports={table_exports(ComplianceTable::Mediation, b, table_of, |b| to_json(&b.report.mediation))}
                        intro={html! { <p class="intro">{ format!("Baron\u{2013}Kenny on the focus arm and each other arm: total \u{03c4} = the compliance difference; a = the recall difference; \
                            OLS of compliance on the arm and recall gives the direct effect \u{03c4}\u{2032} and b; indirect = \u{03c4} \u{2212} \u{03c4}\u{2032} = a\u{00b7}b and the proportion mediated, with {level}% bootstrap intervals. \
                            unstable: the interval of \u{03c4} includes 0, so the proportion is a ratio of noise.") }</p> }}>
                        { table_grid("compliance-mediation", &t(ComplianceTable::Mediation), look, &r.mediation, &[],
                            |m: &MediationRow| RowAttrs::data(vec![("data-group", m.group.clone()), ("data-against", m.against.clone())])) }
                    </Section>
                }
                if !r.recall_bins.is_empty() {
                    <Section id="compliance-recall-card" title="Compliance by recall, and why tasks failed" conventions={conv}
                        exports={html! { <>
                            { table_exports(ComplianceTable::RecallBins, b, table_of, |b| to_json(&b.report.recall_bins)) }
                            { table_exports(ComplianceTable::Failures, b, table_of, |b| to_json(&b.report.failures)) }
                        </> }}
                        intro={html! { <p class="intro">{ format!("Mean compliance of the rows in each recall bin (r = 0, 0 < r \u{2264} 0.5, 0.5 < r < 1, r = 1), over every arm and per arm, \
                            with {level}% Wilson intervals where the bin's compliance is 0/1 (BriefBench Table 45). A failure is a row whose compliance is below 1: \
                            not retrieved when its recall is 0, retrieved but not used otherwise (Table 34); partial counts the failures partly honoured.") }</p> }}>
                        { table_grid("compliance-recall-bins", &t(ComplianceTable::RecallBins), look, &r.recall_bins, &[],
                            |x: &RecallBinRow| RowAttrs::data(vec![("data-group", x.group.clone()), ("data-arm", x.arm.clone()), ("data-bin", x.bin.clone())])) }
                        { table_grid("compliance-failures", &t(ComplianceTable::Failures), look, &r.failures, &[],
                            |x: &FailureRow| RowAttrs::data(vec![("data-group", x.group.clone()), ("data-arm", x.arm.clone())])) }
                    </Section>
                }
                <Section id="compliance-calculator-card" title="Power calculator">
                    <PowerCalculator />
                </Section>
            </>
        }
    }
}

/// The fields of the calculator, as typed.
#[derive(Debug, Clone, PartialEq)]
struct CalcDraft {
    design: String,
    n: String,
    p1: String,
    p2: String,
    p10: String,
    p01: String,
    delta: String,
    sd: String,
    alpha: String,
    power: String,
}

impl Default for CalcDraft {
    fn default() -> Self {
        let q = PowerRequest::default();
        CalcDraft {
            design: q.design.name().into(),
            n: q.n.to_string(),
            p1: q.p1.to_string(),
            p2: q.p2.to_string(),
            p10: q.p10.to_string(),
            p01: q.p01.to_string(),
            delta: q.delta.to_string(),
            sd: q.sd.to_string(),
            alpha: q.alpha.to_string(),
            power: q.power.to_string(),
        }
    }
}

impl CalcDraft {
    fn request(&self) -> Result<PowerRequest, String> {
        let design = super::tool::parse_choice::<Design>("design", &self.design)?;
        let q = PowerRequest {
            design,
            n: number("n", &self.n)?,
            n2: None,
            p1: number("p1", &self.p1)?,
            p2: number("p2", &self.p2)?,
            p10: number("p10", &self.p10)?,
            p01: number("p01", &self.p01)?,
            delta: number("delta", &self.delta)?,
            sd: number("sd", &self.sd)?,
            sd2: None,
            alpha: number("alpha", &self.alpha)?,
            power: number("power", &self.power)?,
        };
        q.validate().map_err(|e| e.to_string())?;
        Ok(q)
    }

    /// The `memaudit power` command giving the same answer.
    fn command(&self, q: &PowerRequest) -> String {
        let what = match q.design {
            Design::TwoProportions => format!("--p1 {} --p2 {}", q.p1, q.p2),
            Design::PairedProportions => format!("--p10 {} --p01 {}", q.p10, q.p01),
            Design::TwoMeans | Design::PairedMeans => format!("--delta {} --sd {}", q.delta, q.sd),
        };
        format!("memaudit power --design {} --n {} {what} --alpha {} --power {}", q.design, q.n, q.alpha, q.power)
    }
}

/// A power / sample-size / MDE calculator: the core's [`calculate`], computed as the fields change.
#[function_component(PowerCalculator)]
fn power_calculator() -> Html {
    let draft = use_state(CalcDraft::default);
    let field = |id: &'static str, label: &'static str, value: &str, set: fn(&mut CalcDraft, String)| {
        let draft = draft.clone();
        let oninput = Callback::from(move |e: InputEvent| {
            let v = e.target_unchecked_into::<HtmlInputElement>().value();
            let mut d = (*draft).clone();
            set(&mut d, v);
            draft.set(d);
        });
        html! {
            <div class="field">
                <label for={id}>{ label }</label>
                <input id={id} type="text" value={value.to_string()} {oninput} />
            </div>
        }
    };
    let onchange = {
        let draft = draft.clone();
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
            let mut d = (*draft).clone();
            d.design = v;
            draft.set(d);
        })
    };
    let d = (*draft).clone();
    let design = super::tool::parse_choice::<Design>("design", &d.design).unwrap_or_default();
    let answer = match d.request() {
        Ok(q) => {
            let r = calculate(&q);
            let f = |v: Option<f64>| v.map_or("none".to_string(), |x| format!("{x:.4}"));
            html! {
                <>
                    <dl id="power-answer" class="power-answer" data-power={crate::report::num(r.power)} data-n-needed={crate::report::num(r.n_needed)}
                        data-mde={crate::report::num(r.mde)}>
                        <dt>{ "power to detect the effect" }</dt><dd>{ f(r.power) }</dd>
                        <dt>{ "n needed per group (pairs)" }</dt><dd>{ format!("{} (rounded up: {})", f(r.n_needed), r.n_needed_ceil.map_or("none".into(), |n| n.to_string())) }</dd>
                        <dt>{ "minimum detectable effect" }</dt><dd>{ f(r.mde) }</dd>
                        <dt>{ "Hoeffding half-width (\u{03b4} = \u{03b1})" }</dt><dd>{ f(r.hoeffding_half_width) }</dd>
                        <dt>{ "Hoeffding bound at \u{03b5} = |effect|" }</dt><dd>{ f(r.hoeffding_bound) }</dd>
                    </dl>
                    <p class="intro">{ r.method.clone() }</p>
                    <p class="cli-twin"><code id="power-command">{ d.command(&q) }</code></p>
                </>
            }
        }
        Err(e) => html! { <p class="warning" id="power-error">{ e }</p> },
    };
    html! {
        <div class="power-calculator">
            <div class="settings-grid">
                <div class="field">
                    <label for="power-design">{ "design" }</label>
                    <select id="power-design" {onchange}>
                        { for Design::ALL.iter().map(|x| html! { <option value={x.name()} selected={*x == design}>{ x.name() }</option> }) }
                    </select>
                </div>
                { field("power-n", "n per group (pairs)", &d.n, |d, v| d.n = v) }
                if design == Design::TwoProportions {
                    { field("power-p1", "p1 (arm)", &d.p1, |d, v| d.p1 = v) }
                    { field("power-p2", "p2 (baseline)", &d.p2, |d, v| d.p2 = v) }
                }
                if design == Design::PairedProportions {
                    { field("power-p10", "p10 (arm only right)", &d.p10, |d, v| d.p10 = v) }
                    { field("power-p01", "p01 (baseline only right)", &d.p01, |d, v| d.p01 = v) }
                }
                if matches!(design, Design::TwoMeans | Design::PairedMeans) {
                    { field("power-delta", "difference of means", &d.delta, |d, v| d.delta = v) }
                    { field("power-sd", "standard deviation", &d.sd, |d, v| d.sd = v) }
                }
                { field("power-alpha", "alpha", &d.alpha, |d, v| d.alpha = v) }
                { field("power-target", "target power", &d.power, |d, v| d.power = v) }
            </div>
            { answer }
        </div>
    }
}
