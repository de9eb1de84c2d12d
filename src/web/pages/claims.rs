//! The K-sweep and claims page ( §3–4): drop per-query scores, claims and printed
//! tables (each recognised by its columns), and see arms across K — the K-sweep plot and
//! cells, the paired deltas at equal K labelled strict / boundary / directional / none, as a
//! table and a forest plot, Δ-stability and crossovers — the claims recomputed (reported vs
//! recomputed, the difference and a verdict naming any missing input), and the consistency
//! linter's findings on every table loaded or computed — the numbers of
//! `memaudit claims --format json`.

use std::rc::Rc;

use serde::Serialize;
use yew::prelude::*;

use super::tool::{Tool, ToolPage, Ui, role_files};
use crate::capability::FileRole;
use crate::claims::{self, ClaimResult};
use crate::claims::{ClaimsRequest, ClaimsTable};
use crate::ksweep::SweepTable;
use crate::ksweep::figures::{delta_forest, ksweep_plot, panel_key, panel_name};
use crate::ksweep::{self, Crossover, DeltaRow, KSweep};
use crate::ksweep::{DeltaForest, KSweepPlot};
use crate::report::{Table, serde_name};
use crate::web::components::Section;
use crate::web::components::export::{text_download, to_json};
use crate::web::components::fields::FieldDraft;
use crate::web::components::grid::{
    Column, Kind, Look, RowAttrs, Val, columns_exports, grid, table_exports, table_grid,
};
use crate::web::components::plot::PlotCanvas;
use crate::web::components::warnings::warnings_list;
use crate::web::format::{count, duration};

/// A claims check as the page keeps it.
type ClaimsBatch = super::tool::BatchOf<Claims>;

/// The settings as edited: the text of every declared field.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Draft {
    pub fields: FieldDraft<ClaimsRequest>,
}

impl Draft {
    /// The request, or what cannot be parsed (naming the field).
    pub fn parse(&self) -> Result<ClaimsRequest, String> {
        self.fields.parse(ClaimsRequest::default())
    }
}

/// Local choices: the K-sweep panel shown (`run/dataset`).
#[derive(Debug, Default)]
pub struct View {
    pub panel: String,
}

pub enum Claims {}

/// The K-sweep and claims page.
pub type ClaimsPage = ToolPage<Claims>;

screen!(crate::claims::Claims => ClaimsPage, Tools);

fn k_val(k: Option<i64>) -> Val {
    Val::Int(k)
}

fn conventions(b: &ClaimsBatch) -> String {
    let s = &b.report.settings;
    let l = &b.report.lint_settings;
    let mut out = format!(
        "bootstrap={} seed={} confidence={} rng=chacha8 narrow_factor={} wide_factor={}",
        s.bootstrap, s.seed, s.confidence, l.narrow_factor, l.wide_factor
    );
    if let Some(sw) = &b.report.sweep {
        let c = &sw.settings;
        let contrasts = if c.contrasts.is_empty() {
            "all pairs".to_string()
        } else {
            c.contrasts.iter().map(|(a, b)| format!("{a}:{b}")).collect::<Vec<_>>().join(",")
        };
        out.push_str(&format!(
            " metric={} slack={} base_k={} contrasts={contrasts}",
            c.metric,
            c.slack,
            c.base_k.map_or("smallest".into(), |k| k.to_string())
        ));
    }
    out
}

fn k_look(col: &str) -> Option<Look> {
    match col {
        "k" => Some(Look::new("K", Kind::Int)),
        "base_k" => Some(Look::new("base K", Kind::Int)),
        "run" | "dataset" | "arm" | "a" | "b" => Some(Look::named(col, Kind::Text)),
        _ => None,
    }
}

fn claim_look(col: &str) -> Look {
    let num = |h: &str| Look::new(h.to_string(), Kind::Num);
    k_look(col).unwrap_or_else(|| match col {
        "claim_id" => Look::new("claim", Kind::Text),
        "reported" | "recomputed" => Look::named(col, Kind::NumOr),
        "difference" => Look::new("reported − recomputed", Kind::Signed),
        "reported_ci_low" => num("reported CI low"),
        "reported_ci_high" => num("reported CI high"),
        "recomputed_ci_low" => num("recomputed CI low"),
        "recomputed_ci_high" => num("recomputed CI high"),
        "reported_n" => Look::new("reported n", Kind::Int),
        "n" => Look::named(col, Kind::Int),
        _ => Look::named(col, Kind::Text),
    })
}

/// What the page shows after the claims' CSV columns.
fn claim_extra() -> Vec<Column<ClaimResult>> {
    type C = ClaimResult;
    vec![
        Column::new("ci_verdict", "CI verdict", |c: &C| {
            Val::text(c.ci_verdict.map(|v| serde_name(&v)).unwrap_or_default())
        }),
        Column::new("matching_runs", "matching runs", |c: &C| Val::text(c.matching_runs.join(", "))),
        Column::named("text", |c: &C| Val::opt(&c.text)),
    ]
}

fn finding_look(col: &str) -> Look {
    match col {
        "expected" | "found" => Look::named(col, Kind::Num),
        _ => Look::named(col, Kind::Text),
    }
}

fn cell_look(col: &str) -> Look {
    k_look(col).unwrap_or_else(|| match col {
        "n" => Look::named(col, Kind::Int),
        "mean" => Look::named(col, Kind::Num),
        "ci_low" => Look::new("CI low", Kind::Num),
        "ci_high" => Look::new("CI high", Kind::Num),
        "wilson_low" => Look::new("Wilson low", Kind::Num),
        "wilson_high" => Look::new("Wilson high", Kind::Num),
        _ => Look::named(col, Kind::Text),
    })
}

fn delta_look(col: &str) -> Look {
    k_look(col).unwrap_or_else(|| match col {
        "n_a" | "n_b" => Look::named(col, Kind::Int),
        "n_shared" => Look::new("shared", Kind::Int).titled("queries both arms answered"),
        "mean_a" | "mean_b" => Look::named(col, Kind::Num),
        "delta" => Look::new("a − b", Kind::Signed).titled("mean of the paired differences on the shared queries"),
        "ci_low" => Look::new("CI low", Kind::Signed),
        "ci_high" => Look::new("CI high", Kind::Signed),
        "query_sets_differ" => Look::named(col, Kind::Bool),
        _ => Look::named(col, Kind::Text),
    })
}

/// What the page shows after the deltas' CSV columns.
fn delta_extra() -> Vec<Column<DeltaRow>> {
    type D = DeltaRow;
    vec![
        Column::new("mean_a_shared", "mean a (shared)", |d: &D| Val::Num(Some(d.stats.mean_a_shared))),
        Column::new("mean_b_shared", "mean b (shared)", |d: &D| Val::Num(Some(d.stats.mean_b_shared))),
        Column::new("b_count", "a only right", |d: &D| Val::Int(d.stats.b_count.map(|n| n as i64))),
        Column::new("c_count", "b only right", |d: &D| Val::Int(d.stats.c_count.map(|n| n as i64))),
    ]
}

fn stability_look(col: &str) -> Look {
    k_look(col).unwrap_or_else(|| match col {
        "delta_base" => Look::new("Δ at base K", Kind::Signed),
        "delta_k" => Look::new("Δ at K", Kind::Signed),
        "change" => Look::named(col, Kind::Signed),
        "slack" => Look::named(col, Kind::Num),
        "within" => Look::new("within slack", Kind::Bool),
        "partial" => Look::named(col, Kind::Bool),
        _ => Look::named(col, Kind::Text),
    })
}

fn crossover_cols(_: &ClaimsBatch) -> Vec<Column<Crossover>> {
    type X = Crossover;
    vec![
        Column::named("run", |x: &X| Val::opt(&x.run)),
        Column::named("dataset", |x: &X| Val::opt(&x.dataset)),
        Column::named("arm", |x: &X| Val::text(x.arm.clone())),
        Column::new("k", "K", |x: &X| k_val(x.k)),
        Column::named("mean", |x: &X| Val::Num(Some(x.mean))),
        Column::new("other", "below", |x: &X| Val::text(x.other.clone())),
        Column::new("other_k", "at K", |x: &X| k_val(x.other_k)),
        Column::new("other_mean", "its mean", |x: &X| Val::Num(Some(x.other_mean))),
    ]
}

fn table(b: &ClaimsBatch, which: ClaimsTable) -> crate::error::Result<Table> {
    claims::table(&b.report, which)
}
fn crossover_rows(b: &ClaimsBatch) -> &[Crossover] {
    b.report.sweep.as_ref().map_or(&[], |s| s.crossovers.as_slice())
}
/// The JSON rows of a K-sweep table.
fn sweep_json<T: Serialize>(b: &ClaimsBatch, rows: fn(&KSweep) -> &[T]) -> Result<String, String> {
    to_json(b.report.sweep.as_ref().map_or(&[][..], rows))
}

/// What `memaudit claims --format json` prints.
pub fn report_json(b: &ClaimsBatch) -> Result<String, String> {
    crate::web::components::export::report_json::<crate::claims::Claims>(&b.report, &b.headlines)
}

impl Claims {
    fn view_sweep(
        page: &ToolPage<Self>,
        b: &Rc<ClaimsBatch>,
        s: &KSweep,
        ui: &Ui<Self>,
        conv: &Option<AttrValue>,
    ) -> Html {
        let mut panels: Vec<(String, String)> = Vec::new();
        for x in &s.series {
            let k = panel_key(&x.run, &x.dataset);
            if !panels.iter().any(|(p, _)| *p == k) {
                panels.push((k, panel_name(&x.run, &x.dataset)));
            }
        }
        let current = if panels.iter().any(|(p, _)| *p == page.view.panel) {
            page.view.panel.clone()
        } else {
            panels.first().map(|p| p.0.clone()).unwrap_or_default()
        };
        let labels = |l: &str| s.deltas.iter().filter(|d| d.stats.label.name() == l).count();
        html! {
            <>
                <Section id="ksweep-card" title="Arms across K" conventions={conv.clone()}
                    exports={table_exports(ClaimsTable::Cells, b, table, |b| sweep_json(b, |s| &s.cells))}
                    intro={html! { <p class="intro">{ "Each arm's mean score at each K with its percentile bootstrap interval (and Wilson's for 0/1 scores), \
                        one panel per run and dataset." }</p> }}>
                    <div class="controls">
                        { ui.select_field("ksweep-panel", "panel", &panels, &current, ui.on_view(|v: &mut View, p| v.panel = p)) }
                    </div>
                    if let Some(plot) = ksweep_plot(s, &current) {
                        <PlotCanvas<KSweepPlot> id="ksweep-plot" plot={plot} filename="memaudit-ksweep" />
                    }
                    { table_grid("ksweep-cells", &ksweep::table(s, SweepTable::Cells), cell_look, &s.cells, &[], |c| RowAttrs::data(vec![
                        ("data-run", c.run.clone().unwrap_or_default()), ("data-dataset", c.dataset.clone().unwrap_or_default()),
                        ("data-arm", c.arm.clone()), ("data-k", c.k.map(|k| k.to_string()).unwrap_or_default()),
                    ])) }
                </Section>
                <Section id="ksweep-deltas-card" title="Paired deltas at equal K" conventions={conv.clone()}
                    exports={table_exports(ClaimsTable::Deltas, b, table, |b| sweep_json(b, |s| &s.deltas))}
                    intro={html! { <p class="intro">{ "a \u{2212} b on the queries both arms answered, with a paired bootstrap interval, labelled as seed-000 \
                        does: strict (the interval excludes 0), boundary (a bound at 0), directional (0 inside), none (point estimate 0)." }</p> }}>
                    <p class="muted" id="ksweep-labels" data-strict={labels("strict").to_string()} data-boundary={labels("boundary").to_string()}
                        data-directional={labels("directional").to_string()} data-none={labels("none").to_string()}>
                        { format!("{} strict, {} boundary, {} directional, {} none.", labels("strict"), labels("boundary"), labels("directional"), labels("none")) }</p>
                    <PlotCanvas<DeltaForest> id="ksweep-deltas-plot" plot={delta_forest(s)} filename="memaudit-ksweep-deltas" />
                    { table_grid("ksweep-deltas", &ksweep::table(s, SweepTable::Deltas), delta_look, &s.deltas, &delta_extra(), |d| RowAttrs::data(vec![
                        ("data-run", d.run.clone().unwrap_or_default()), ("data-dataset", d.dataset.clone().unwrap_or_default()),
                        ("data-k", d.k.map(|k| k.to_string()).unwrap_or_default()), ("data-a", d.a.clone()), ("data-b", d.b.clone()),
                        ("data-label", d.stats.label.name().to_string()),
                    ]).with_class(Some(match d.stats.label.name() { "strict" => "label-strict", "boundary" => "label-boundary",
                        "directional" => "label-directional", _ => "label-none" }))) }
                </Section>
                <Section id="ksweep-stability-card" title="\u{0394}-stability across K" conventions={conv.clone()}
                    exports={table_exports(ClaimsTable::Stability, b, table, |b| sweep_json(b, |s| &s.stability))}
                    intro={html! { <p class="intro">{ format!("|\u{0394}_K \u{2212} \u{0394}_base| \u{2264} slack ({}) per contrast and dataset; \
                        partial marks deltas on arms with different query sets.", s.settings.slack) }</p> }}>
                    <ul id="ksweep-stability-summary">
                        { for s.stability_summary.iter().map(|x| html! {
                            <li data-a={x.a.clone()} data-b={x.b.clone()} data-k={x.k.map(|k| k.to_string()).unwrap_or_default()}
                                data-within={x.within.to_string()} data-datasets={x.datasets.to_string()}>
                                { format!("{} \u{2212} {}, K = {} vs {}: {} of {} datasets within slack{}", x.a, x.b,
                                    x.k.map_or("—".into(), |k| k.to_string()), x.base_k.map_or("—".into(), |k| k.to_string()),
                                    x.within, x.datasets, if x.within_datasets.is_empty() { String::new() } else { format!(" ({})", x.within_datasets.join(", ")) }) }
                            </li>
                        }) }
                    </ul>
                    { table_grid("ksweep-stability", &ksweep::table(s, SweepTable::Stability), stability_look, &s.stability, &[], |x| RowAttrs::data(vec![
                        ("data-dataset", x.dataset.clone().unwrap_or_default()), ("data-a", x.a.clone()), ("data-b", x.b.clone()),
                        ("data-k", x.k.map(|k| k.to_string()).unwrap_or_default()),
                    ]).with_class((!x.within).then_some("flip"))) }
                </Section>
                if !s.crossovers.is_empty() {
                    <Section id="ksweep-crossovers-card" title="Crossovers" conventions={conv.clone()}
                        exports={columns_exports("crossovers", b, crossover_rows, crossover_cols)}
                        intro={html! { <p class="intro">{ "An arm ahead of another at K whose score is below the other's at the next K." }</p> }}>
                        { grid("ksweep-crossovers", &crossover_cols(b), &s.crossovers, |x| RowAttrs::data(vec![
                            ("data-dataset", x.dataset.clone().unwrap_or_default()), ("data-arm", x.arm.clone()),
                        ])) }
                    </Section>
                }
            </>
        }
    }
}

impl Tool for Claims {
    type Capability = crate::claims::Claims;
    const INTAKE_TITLE: &'static str = "Scores, claims and tables";
    const CARDS: crate::web::components::headlines::Cards =
        &[("claims", "claims-card"), ("findings", "claims-findings-card"), ("populations", "claims-populations-card")];
    type Draft = Draft;
    type View = View;

    fn tagline() -> Html {
        html! { { "Arms across K with intervals and labelled paired deltas; every reported number recomputed from the per-query \
        scores; and a consistency linter over every table, loaded or computed." } }
    }

    fn intake() -> Html {
        html! {
            <p>{ "Drop files anywhere on this page, or choose them, in any order; each is recognised by its columns: per-query scores (" }
                <code>{ "arm, query_id, score [, dataset, k, run]" }</code>{ "), claims to check (" }<code>{ "claim_id, kind, arms, reported, …" }</code>
                { ") and printed tables to lint (" }<code>{ "table, id, estimate, ci, n, mean_a, mean_b, delta, …" }</code>
                { "). A file taken for the wrong thing can be switched in the files table." }</p>
        }
    }

    fn request(draft: &Draft) -> Result<ClaimsRequest, String> {
        draft.parse()
    }

    fn settings(page: &ToolPage<Self>, ui: &Ui<Self>) -> Html {
        let d = &page.draft;
        let b = page.batch.as_ref();
        let mut metrics = vec![(String::new(), "(the data's default)".to_string())];
        metrics.extend(b.iter().flat_map(|b| b.overview.metrics.iter().map(|m| (m.clone(), m.clone()))));
        let mut ks = vec![(String::new(), "(the smallest)".to_string())];
        ks.extend(b.iter().flat_map(|b| b.overview.ks.iter().map(|k| (k.to_string(), k.to_string()))));
        let arms = b.map(|b| b.overview.arms.join(", ")).unwrap_or_default();
        html! {
            <>
                { ui.select_field("claims-metric", "score column", &metrics, d.fields.text("metric"), ui.on_select(|d: &mut Draft, v| d.fields.set("metric", v))) }
                { ui.select_field("claims-base-k", "base K", &ks, d.fields.text("base_k"), ui.on_select(|d: &mut Draft, v| d.fields.set("base_k", v))) }
                { ui.fields_form_with("claims", &d.fields, |d: &mut Draft| &mut d.fields, &["metric", "base_k"], &[("contrast", "claims-contrasts")]) }
                if !arms.is_empty() {
                    <p class="muted" id="claims-arms">{ format!("Contrasts are a − b at equal K; empty: every pair of arms ({arms}).") }</p>
                }
            </>
        }
    }

    fn results(page: &ToolPage<Self>, b: &Rc<ClaimsBatch>, ui: &Ui<Self>) -> Html {
        let r = &b.report;
        let conv = Some(AttrValue::from(conventions(b)));
        let json = {
            let b = b.clone();
            move || report_json(&b)
        };
        let n = &r.counts;
        let on_role = ui.on_role();
        html! {
            <>
                <div class="results-head">
                    <p id="claims-summary-line">{ format!("{} files checked in {}, memaudit {}.", b.overview.files.len(), duration(b.timing.total_ms), env!("CARGO_PKG_VERSION")) }</p>
                    <div class="exports">{ text_download("claims-report-json", "Full report JSON", "memaudit-claims.json", "application/json", json) }</div>
                </div>
                <Section id="claims-reading" title="What was read" conventions={conv.clone()}>
                    { role_files("claims-", &b.overview.files, &FileRole::CLAIMS, on_role) }
                    { warnings_list("claims-warnings", r.warnings.iter().map(|w| ("reading", w))) }
                </Section>
                if !r.claims.is_empty() {
                    <Section id="claims-card" title="Claims: reported vs recomputed" conventions={conv.clone()}
                        exports={table_exports(ClaimsTable::Claims, b, table, |b| to_json(&b.report.claims))}
                        intro={html! { <p class="intro">{ "Each claim recomputed from the per-query scores on the printed scale: matches (within its \
                            tolerance), within rounding (half a unit of the last printed decimal), differs, or cannot be computed (the reason names \
                            the missing input)." }</p> }}>
                        <p class="verdict-counts" id="claims-counts" data-matches={n.matches.to_string()} data-within-rounding={n.within_rounding.to_string()}
                            data-differs={n.differs.to_string()} data-cannot-compute={n.cannot_compute.to_string()}>
                            <span class="badge ok">{ format!("{} match", n.matches) }</span>{ " " }
                            <span class="badge note">{ format!("{} within rounding", n.within_rounding) }</span>{ " " }
                            <span class="badge warning">{ format!("{} differ", n.differs) }</span>{ " " }
                            <span class="badge">{ format!("{} cannot be computed", n.cannot_compute) }</span>
                        </p>
                        { table_grid("claims-table", &table(b, ClaimsTable::Claims).unwrap_or_default(), claim_look, &r.claims, &claim_extra(), |c| RowAttrs::data(vec![
                            ("data-claim", c.claim_id.clone()), ("data-verdict", serde_name(&c.verdict)),
                        ]).with_class(Some(match c.verdict {
                            crate::claims::Verdict::Matches => "verdict-matches",
                            crate::claims::Verdict::WithinRounding => "verdict-rounding",
                            crate::claims::Verdict::Differs => "verdict-differs",
                            crate::claims::Verdict::CannotCompute => "verdict-missing",
                        }))) }
                    </Section>
                }
                { crate::web::components::cells::populations_card("claims", &b.report.populations) }
                <Section id="claims-findings-card" title="Consistency checks" conventions={conv.clone()}
                    exports={table_exports(ClaimsTable::Findings, b, table, |b| to_json(&b.report.findings))}
                    intro={html! { <p class="intro">{ "The linter on every table — the claims, the printed tables and memaudit's own K-sweep cells and deltas \
                        (sweep/cells, sweep/deltas): points outside their interval, deltas that are not the difference of the means, proportions off \
                        the k/n grid, different query sets, implausible widths, mislabelled interval methods, partial runs, run mixing; and on the \
                        per-query scores, arms compared with different prompt or configuration fingerprints (config_mismatch) and query ids \
                        given twice (duplicate_query_id)." }</p> }}>
                    if r.findings.is_empty() {
                        <p class="ok" id="claims-findings-empty">{ "No inconsistency found." }</p>
                    } else {
                        <p class="muted" id="claims-findings-count" data-count={r.findings.len().to_string()}>{ format!("{} findings.", count(r.findings.len())) }</p>
                        { table_grid("claims-findings", &table(b, ClaimsTable::Findings).unwrap_or_default(), finding_look, &r.findings, &[], |f| RowAttrs::data(vec![
                            ("data-kind", serde_name(&f.kind)), ("data-table", f.table.clone().unwrap_or_default()), ("data-row", f.row.clone()),
                        ])) }
                    }
                </Section>
                if let Some(s) = &r.sweep {
                    { Claims::view_sweep(page, b, s, ui, &conv) }
                }
            </>
        }
    }
}
