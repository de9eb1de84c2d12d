//! The ablation page ( §2): drop counterfactual-ablation traces, and see the utility u
//! and label y of every (query, memory) pair summarised — the u histogram with harmful (−1)
//! memories, the positive rate per run and subset — and the non-circularity panel: Spearman's
//! ρ(u, retrieval score) with its pair-level and query-clustered bootstrap intervals, ρ², the
//! pre-set gate (configurable) and the per-subset breach audit — the numbers of
//! `memaudit ablation --format json`.

use std::rc::Rc;

use yew::prelude::*;

use super::tool::{BatchOf, Tool, ToolPage, Ui, file_notes};
use crate::ablation::{
    self, AblationRequest, AblationTable, CiRecord, GroupAblation, OutcomeScoring, SpecialistDiagnostics,
};
use crate::ablation::{RhoPlot, UtilityPlot};
use crate::web::components::Section;
use crate::web::components::export::{text_download, to_json};
use crate::web::components::fields::FieldDraft;
use crate::web::components::grid::{Column, Kind, Look, RowAttrs, Val, grid, table_exports, table_grid};
use crate::web::components::plot::PlotCanvas;
use crate::web::components::warnings::warnings_list;
use crate::web::format::{count, duration, fmt4};

/// An ablation analysis as the page keeps it.
type AblationBatch = BatchOf<Ablation>;

/// The settings as edited: the request's fields ([`crate::fields!`]), the gate drawn by the
/// page as a choice of presets and its bounds.
#[derive(Debug, Clone, PartialEq)]
pub struct Draft {
    pub fields: FieldDraft<AblationRequest>,
    /// `scale`, `pilot`, `abs` or `within`.
    pub gate: String,
    /// The bound of `abs` (`T`) or `within` (`LO,HI`).
    pub gate_bounds: String,
}

impl Default for Draft {
    fn default() -> Self {
        Draft { fields: FieldDraft::default(), gate: "scale".into(), gate_bounds: String::new() }
    }
}

impl Draft {
    /// The gate as its field's text (`abs:T`, `within:LO,HI`, `scale`, `pilot`).
    pub fn gate_arg(&self) -> String {
        match self.gate.as_str() {
            "abs" => format!("abs:{}", self.gate_bounds.trim()),
            "within" => format!("within:{}", self.gate_bounds.trim()),
            g => g.to_string(),
        }
    }

    /// The run, or what is wrong (naming the field).
    pub fn parse(&self) -> Result<AblationRequest, String> {
        let mut fields = self.fields.clone();
        fields.set("gate", self.gate_arg());
        fields.parse(AblationRequest::default())
    }
}

/// Local choices: which groups the u histogram shows (`runs`, `subsets`, `pooled`).
#[derive(Debug, Default)]
pub struct View {
    pub histogram: String,
}

pub enum Ablation {}

/// The ablation page.
pub type AblationPage = ToolPage<Ablation>;

screen!(crate::ablation::Ablation => AblationPage, Tools);

/// How texts became outcomes (always set by the capability).
fn scoring(b: &AblationBatch) -> OutcomeScoring {
    b.report.scoring.clone().unwrap_or_default()
}

fn conventions(b: &AblationBatch) -> String {
    let o = scoring(b);
    format!(
        "{} rng=chacha8 intervals=percentile profile={} f1_threshold={}",
        crate::fields::fields_line(&b.report.settings),
        o.profile.name(),
        o.f1_threshold
    )
}

fn ci(c: &Option<CiRecord>, low: bool) -> Val {
    Val::Signed(c.as_ref().map(|c| if low { c.low } else { c.high }))
}

/// The CLI's CSV columns (`memaudit ablation --format csv`) as shown.
fn group_look(col: &str) -> Look {
    match col {
        "run" | "subset" => Look::named(col, Kind::Text),
        "pairs" | "queries" => Look::named(col, Kind::Int),
        "u_harmful" => Look::new("u = −1", Kind::Int).titled("harmful: correct only without the memory"),
        "u_neutral" => Look::new("u = 0", Kind::Int),
        "u_helpful" => Look::new("u = +1", Kind::Int).titled("helpful: y = 1"),
        "positive_rate" => Look::new("positive rate", Kind::Num),
        "positive_low" => Look::new("low", Kind::Num).titled("Wilson interval"),
        "positive_high" => Look::new("high", Kind::Num),
        "base_correct_rate" => Look::new("base correct", Kind::Num),
        "rho_n" => Look::new("ρ n", Kind::Int).titled("pairs with a retrieval score"),
        "rho" => Look::new("ρ", Kind::Signed),
        "rho_pair_low" => Look::new("pair low", Kind::Signed),
        "rho_pair_high" => Look::new("pair high", Kind::Signed),
        "rho_query_low" => Look::new("query low", Kind::Signed),
        "rho_query_high" => Look::new("query high", Kind::Signed),
        "gate_passes" => Look::new("passes gate", Kind::Bool),
        "gate_margin" => {
            Look::new("margin", Kind::Signed).titled("distance to the nearest gate bound, positive inside")
        }
        _ => Look::named(col, Kind::Text),
    }
}

/// The specialist table's columns as shown (the rest under their CSV names, as numbers).
fn specialist_look(col: &str) -> Look {
    match col {
        "run" | "split" => Look::named(col, Kind::Text),
        "pairs" | "positives" | "negatives" | "rho_retrieval_n" => Look::named(col, Kind::Int),
        "median_delta" | "mean_delta" | "rho_retrieval" | "rho_retrieval_low" | "rho_retrieval_high"
        | "positive_median" | "negative_median" | "positive_mean" | "negative_mean" | "threshold" => {
            Look::named(col, Kind::Signed)
        }
        _ => Look::named(col, Kind::Num),
    }
}

fn specialist_attrs(d: &SpecialistDiagnostics) -> RowAttrs {
    RowAttrs::data(vec![("data-run", d.run.clone()), ("data-split", d.split.clone().unwrap_or_default())])
}

/// What the page shows after the CSV columns.
fn group_extra() -> Vec<Column<GroupAblation>> {
    type G = GroupAblation;
    vec![
        Column::new("harmful_rate", "harmful rate", |g: &G| Val::Num(Some(g.rates.harmful_rate))),
        Column::new("answerer_calls", "answerer calls", |g: &G| Val::count(g.rates.answerer_calls)),
    ]
}

/// The non-circularity panel: ρ, ρ², 1 − ρ², both bootstrap intervals and Fisher's z.
fn rho_cols() -> Vec<Column<GroupAblation>> {
    type G = GroupAblation;
    vec![
        Column::named("run", |g: &G| Val::text(g.run.clone())),
        Column::named("subset", |g: &G| Val::opt(&g.subset)),
        Column::new("n", "pairs", |g: &G| Val::count(g.noncircularity.n)),
        Column::new("n_queries", "queries", |g: &G| Val::count(g.noncircularity.n_queries)),
        Column::new("rho", "ρ", |g: &G| Val::Signed(g.noncircularity.rho)),
        Column::new("rho2", "ρ²", |g: &G| Val::Num(g.noncircularity.rho2)),
        Column::new("unexplained", "1 − ρ²", |g: &G| Val::Num(g.noncircularity.unexplained)),
        Column::new("pair_low", "pair CI low", |g: &G| ci(&g.noncircularity.pair_ci, true))
            .titled("pairs drawn i.i.d. (what the paper's intervals match)"),
        Column::new("pair_high", "pair CI high", |g: &G| ci(&g.noncircularity.pair_ci, false)),
        Column::new("query_low", "query CI low", |g: &G| ci(&g.noncircularity.query_ci, true))
            .titled("whole queries drawn with all their pairs"),
        Column::new("query_high", "query CI high", |g: &G| ci(&g.noncircularity.query_ci, false)),
        Column::new("fisher_low", "Fisher z low", |g: &G| Val::Signed(g.noncircularity.fisher_z.map(|f| f.low))),
        Column::new("fisher_high", "Fisher z high", |g: &G| Val::Signed(g.noncircularity.fisher_z.map(|f| f.high))),
        Column::new("nonzero", "excludes 0", |g: &G| Val::Bool(g.noncircularity.nonzero))
            .titled("the pair interval excludes 0"),
        Column::new("passes", "passes gate", |g: &G| Val::Bool(g.noncircularity.passes)),
        Column::new("margin", "margin", |g: &G| Val::Signed(g.noncircularity.margin)),
    ]
}

fn group_attrs(g: &GroupAblation) -> RowAttrs {
    RowAttrs::data(vec![("data-run", g.run.clone()), ("data-subset", g.subset.clone().unwrap_or_default())]).with_class(
        match g.noncircularity.passes {
            Some(false) => Some("breach"),
            _ if g.subset.is_none() => Some("overall"),
            _ => None,
        },
    )
}

/// What `memaudit ablation --format json` prints.
pub fn report_json(b: &AblationBatch) -> Result<String, String> {
    crate::web::components::export::report_json::<crate::ablation::Ablation>(&b.report, &b.headlines)
}

impl Tool for Ablation {
    type Capability = crate::ablation::Ablation;
    const INTAKE_TITLE: &'static str = "Ablation traces";
    const CARDS: crate::web::components::headlines::Cards =
        &[("groups", "ablation-noncircularity-card"), ("specialist", "ablation-specialist-card")];
    type Draft = Draft;
    type View = View;

    fn tagline() -> Html {
        html! { { "Counterfactual ablation: the utility u = score(all memories) − score(without one) of every retrieved memory, \
        harmful memories included, and whether u is circular in the retrieval score (Spearman \u{03c1} with pair and query \
        bootstrap intervals against a pre-set gate, audited per subset)." } }
    }

    fn intake() -> Html {
        html! {
            <p>{ "Drop ablation traces anywhere on this page, or choose them: CSV or JSON, one row per (query, removed memory) \
                with " }<code>{ "query_id, rank, retrieval_score, base_score, ablated_score" }</code>{ " (optional " }
                <code>{ "run" }</code>{ ", " }<code>{ "subset" }</code>{ ", " }<code>{ "split" }</code>{ ", a specialist's " }<code>{ "score_z" }</code>{ "), or one record per query with an " }<code>{ "items" }</code>
                { " array; predictions instead of 0/1 outcomes are scored by the chosen profile." }</p>
        }
    }

    fn request(draft: &Draft) -> Result<AblationRequest, String> {
        draft.parse()
    }

    fn settings(page: &ToolPage<Self>, ui: &Ui<Self>) -> Html {
        let d = &page.draft;
        let opts = |v: &[(&str, &str)]| v.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect::<Vec<_>>();
        html! {
            <>
                { ui.select_field("ablation-gate", "gate on \u{03c1}", &opts(&[
                    ("scale", "at scale: \u{03c1} \u{2208} [\u{2212}0.15, 0.15]"), ("pilot", "pilot: |\u{03c1}| < 0.5"),
                    ("abs", "|\u{03c1}| < T"), ("within", "\u{03c1} \u{2208} [LO, HI]")]), &d.gate, ui.on_select(|d: &mut Draft, v| d.gate = v)) }
                if d.gate == "abs" || d.gate == "within" {
                    { ui.text_field("ablation-gate-bounds", if d.gate == "abs" { "T" } else { "LO,HI" }, &d.gate_bounds,
                        "the gate's bound(s)", |d, v| d.gate_bounds = v) }
                }
                { ui.fields_form_with("ablation", &d.fields, |d: &mut Draft| &mut d.fields, &["gate"], &[]) }
            </>
        }
    }

    fn results(page: &ToolPage<Self>, b: &Rc<AblationBatch>, ui: &Ui<Self>) -> Html {
        let r = &b.report;
        let conv = Some(AttrValue::from(conventions(b)));
        let json = {
            let b = b.clone();
            move || report_json(&b)
        };
        let all: Vec<GroupAblation> = r.groups().cloned().collect();
        let mode = if page.view.histogram.is_empty() { "runs" } else { page.view.histogram.as_str() };
        let modes: Vec<(String, String)> =
            [("runs", "one group per run"), ("subsets", "per subset"), ("pooled", "all pairs pooled")]
                .iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect();
        let pairs: usize = r.runs.iter().map(|x| x.overall.rates.pairs).sum();
        html! {
            <>
                <div class="results-head">
                    <p id="ablation-summary-line" data-pairs={pairs.to_string()} data-runs={r.runs.len().to_string()}>
                        { format!("{} pairs in {} runs analysed in {}, memaudit {}.", count(pairs), r.runs.len(), duration(b.timing.total_ms), env!("CARGO_PKG_VERSION")) }</p>
                    <div class="exports">{ text_download("ablation-report-json", "Full report JSON", "memaudit-ablation.json", "application/json", json) }</div>
                </div>
                <Section id="ablation-reading" title="What was read" conventions={conv.clone()}>
                    { file_notes("ablation-", &b.overview) }
                    { warnings_list("ablation-warnings", r.warnings.iter().map(|w| ("reading", w))) }
                </Section>
                <Section id="ablation-noncircularity-card" title="Non-circularity: is u explained by the retrieval score?" conventions={conv.clone()}
                    intro={html! { <p class="intro">{ "Spearman's \u{03c1} between u and the memory's retrieval score (mid-ranks for ties), its square \
                        (the share of u's rank variance the score explains), two percentile bootstrap intervals — pairs drawn i.i.d., and whole \
                        queries drawn with all their pairs (pairs of a query share the base answer) — and the pre-set gate on the point estimate." }</p> }}>
                    <p class="gate-line" id="ablation-gate-line" data-gate={r.gate.clone()}>
                        <span class="label">{ "Gate (set before the data): " }</span><code>{ r.gate.clone() }</code></p>
                    { grid("ablation-noncircularity", &rho_cols(), &all, group_attrs) }
                    <PlotCanvas<RhoPlot> id="ablation-rho-plot" plot={crate::ablation::figures::rho_plot(&b.report)} filename="memaudit-ablation-rho" />
                    <h3>{ "Breach audit" }</h3>
                    <ul class="breach-audit" id="ablation-breaches">
                        { for r.runs.iter().map(|run| {
                            let nc = &run.overall.noncircularity;
                            let verdict = match nc.passes {
                                Some(true) => format!("passes (\u{03c1} = {}, margin {})", fmt4(nc.rho), fmt4(nc.margin)),
                                Some(false) => format!("breaches the gate (\u{03c1} = {}, margin {})", fmt4(nc.rho), fmt4(nc.margin)),
                                None => "no \u{03c1} (a constant variable)".into(),
                            };
                            let subsets = if run.subsets.is_empty() {
                                "no subsets to audit".to_string()
                            } else if run.breaching_subsets.is_empty() {
                                format!("no subset breaches (of {})", run.subsets.len())
                            } else {
                                format!("breaching subsets: {}", run.breaching_subsets.join(", "))
                            };
                            html! {
                                <li data-run={run.overall.run.clone()} data-breach={run.breach.to_string()}
                                    data-breaching={run.breaching_subsets.join(",")} class={classes!(run.breach.then_some("breach"))}>
                                    <strong>{ run.overall.run.clone() }</strong>{ format!(": {verdict}; {subsets}.") }
                                </li>
                            }
                        }) }
                    </ul>
                </Section>
                <Section id="ablation-histogram-card" title="The u histogram" conventions={conv.clone()}
                    intro={html! { <p class="intro">{ "u = \u{2212}1: the answer is correct only without the memory (harmful); 0: no change; +1: the memory \
                        is needed for the correct answer (the label y = 1). Harmful memories fold into y's negatives, so they are counted here." }</p> }}>
                    <div class="controls">
                        { ui.select_field("ablation-hist-mode", "bars", &modes, mode, ui.on_view(|v: &mut View, m| v.histogram = m)) }
                    </div>
                    <PlotCanvas<UtilityPlot> id="ablation-u-histogram" plot={crate::ablation::figures::utility_plot(&b.report, mode)} filename="memaudit-u-histogram" />
                </Section>
                <Section id="ablation-groups-card" title="Rates per run and subset" conventions={conv.clone()}
                    exports={table_exports(AblationTable::Groups, b, |b, t| Ok(ablation::table(&b.report, t)), |b| to_json(&b.report.groups().collect::<Vec<_>>()))}
                    intro={html! { <p class="intro">{ "Pairs, the u histogram, the positive rate #{y = 1}/pairs with its Wilson interval, the base answer's \
                        accuracy per query, and \u{03c1} with the gate — the columns of the CSV export." }</p> }}>
                    { table_grid("ablation-groups", &ablation::table(r, AblationTable::Groups), group_look, &all, &group_extra(), group_attrs) }
                </Section>
                if !r.specialist.is_empty() {
                    <Section id="ablation-specialist-card" title="Specialist diagnostics" conventions={conv}
                        exports={table_exports(AblationTable::Specialist, b, |b, t| Ok(ablation::table(&b.report, t)), |b| to_json(&b.report.specialist))}
                        intro={html! { <p class="intro">{ "Where the pairs carry a trained specialist's score: the class balance and pos_weight, \
                            the scores of y = 1 and y = 0 pairs, AUROC with DeLong's interval, the specialist's F1 at the threshold beside \
                            the F1 of calling every pair positive, and \u{03c1}(specialist score, retrieval score) — per run and split." }</p> }}>
                        { table_grid("ablation-specialist", &ablation::table(r, AblationTable::Specialist), specialist_look, &r.specialist, &[], specialist_attrs) }
                    </Section>
                }
            </>
        }
    }
}
