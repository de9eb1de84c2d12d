//! The IR evaluation page: drop qrels and one or more runs (TREC text or ranx / pytrec_eval
//! JSON) and see trec_eval's measures per run and per query, trec_eval's own output, and the
//! runs compared on one measure with the paired statistics of `memaudit compare` — the numbers
//! of `memaudit trec-eval --format json`.

use std::collections::BTreeMap;
use std::rc::Rc;

use yew::prelude::*;

use crate::web::components::explore::Explore;

use super::tool::{BatchOf, Tool, ToolPage, Ui, role_files};
use crate::capability::{Capability, FileRole};
use crate::compare::figures::{forest_plot, forest_row};
use crate::ireval::evaluate::Value;
use crate::ireval::measure::ValueType;
use crate::ireval::table::{TrecEvalTable, cell};
use crate::ireval::{TrecEvalRequest, trec_eval_text};
use crate::plots::ForestPlot;
use crate::web::components::Section;
use crate::web::components::export::{report_json, text_download, to_json};
use crate::web::components::fields::FieldDraft;
use crate::web::components::grid::{Kind, Look, RowAttrs, table_exports, table_grid};
use crate::web::components::plot::PlotCanvas;
use crate::web::format::{count, duration};

type IrBatch = BatchOf<TrecEvalPage>;

/// The settings as edited: the request's fields
/// ([`TrecEvalRequest`]'s declaration).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Draft {
    pub fields: FieldDraft<TrecEvalRequest>,
}

/// The inputs' ids kept from before the form was drawn from the declaration (links, tests).
const IDS: &[(&str, &str)] = &[
    ("measure", "trec-eval-measures"),
    ("relevance_level", "trec-eval-level"),
    ("max_per_topic", "trec-eval-depth"),
    ("num_docs_in_coll", "trec-eval-num-docs"),
    ("judged_only", "trec-eval-judged"),
    // `#trec-eval-summary` is the summary table's.
    ("summary", "trec-eval-print-summary"),
];

/// How results are shown: the value listed per query.
#[derive(Default)]
pub struct View {
    pub per_query_measure: Option<String>,
}

pub enum TrecEvalPage {}

/// The IR evaluation page.
pub type IrEvalPage = ToolPage<TrecEvalPage>;

screen!(crate::ireval::TrecEval => IrEvalPage, Tools);

/// A value as trec_eval prints it (`%6.4f` without the padding, `%ld`, text).
fn shown(v: &Value, t: ValueType) -> String {
    match (v, t) {
        (Value::Text(s), _) => s.clone(),
        (Value::Number(x), ValueType::Long) => format!("{}", *x as i64),
        (Value::Number(x), _) if x.is_nan() => "-nan".into(),
        (Value::Number(x), _) => format!("{x:.4}"),
    }
}

/// The core's comparison tables as shown.
fn stats_look(col: &str) -> Look {
    let kind = match col {
        "arm" | "a" | "b" | "ci_method" | "ci_note" | "test" | "cohen_h_label" => Kind::Text,
        "n" | "n_pairs" | "wins" | "ties" | "losses" | "b_count" | "c_count" => Kind::Int,
        "significant" | "binary" => Kind::Bool,
        "diff" => Kind::Signed,
        _ => Kind::Num,
    };
    Look::named(col, kind)
}

fn summary_table(b: &IrBatch) -> Html {
    let r = &b.report;
    let Some(first) = r.runs.first() else { return html! {} };
    html! {
        <Explore>
            <table id="trec-eval-summary" class="compact">
                <thead><tr>
                    <th scope="col">{ "measure" }</th>
                    { for r.runs.iter().map(|run| html! {
                        <th scope="col" data-run={run.file.clone()} title={run.file.clone()}>{ run.evaluation.runid.clone() }</th>
                    }) }
                </tr></thead>
                <tbody>
                { for first.evaluation.names.iter().enumerate().filter(|(i, _)| first.evaluation.summary[*i].is_some()).map(|(i, name)| html! {
                    <tr data-measure={name.name.clone()}>
                        <th scope="row"><code>{ name.name.clone() }</code></th>
                        { for r.runs.iter().map(|run| match run.evaluation.summary.get(i).cloned().flatten() {
                            Some(v) => html! {
                                <td class="num" data-run={run.file.clone()} data-measure={name.name.clone()} data-value={cell(&v, name.value_type)}>
                                    { shown(&v, name.value_type) }</td>
                            },
                            None => html! { <td></td> },
                        }) }
                    </tr>
                }) }
                </tbody>
            </table>
        </Explore>
    }
}

fn per_query_table(b: &IrBatch, measure: &str) -> Html {
    let r = &b.report;
    let Some(first) = r.runs.first() else { return html! {} };
    let Some(col) = first.evaluation.index_of(measure) else { return html! {} };
    let value_type = first.evaluation.names[col].value_type;
    let index: Vec<BTreeMap<&str, usize>> = r
        .runs
        .iter()
        .map(|run| run.evaluation.queries.iter().enumerate().map(|(i, q)| (q.qid.as_str(), i)).collect())
        .collect();
    let mut qids: Vec<&str> = index.iter().flat_map(|m| m.keys().copied()).collect();
    qids.sort_unstable();
    qids.dedup();
    html! {
        <Explore>
            <table id="trec-eval-per-query-table" class="compact" data-measure={measure.to_string()}>
                <thead><tr>
                    <th scope="col">{ "query" }</th>
                    { for r.runs.iter().map(|run| html! { <th scope="col" data-run={run.file.clone()}>{ run.evaluation.runid.clone() }</th> }) }
                </tr></thead>
                <tbody>
                { for qids.iter().map(|q| html! {
                    <tr data-query={q.to_string()}>
                        <th scope="row"><code>{ q.to_string() }</code></th>
                        { for r.runs.iter().zip(&index).map(|(run, idx)| match idx.get(q).map(|&i| &run.evaluation.queries[i]) {
                            Some(qv) => {
                                let v = &qv.values[col];
                                html! {
                                    <td class={classes!("num", qv.missing.then_some("missing"))} data-run={run.file.clone()}
                                        data-value={cell(v, value_type)} title={if qv.missing { "no ranking: scored 0 (-c)" } else { "" }}>
                                        { shown(v, value_type) }</td>
                                }
                            }
                            None => html! { <td class="muted" data-run={run.file.clone()} title="not evaluated: no ranking for this query">{ "—" }</td> },
                        }) }
                    </tr>
                }) }
                </tbody>
            </table>
        </Explore>
    }
}

impl Tool for TrecEvalPage {
    type Capability = crate::ireval::TrecEval;
    const INTAKE_TITLE: &'static str = "Qrels and runs";
    const CARDS: crate::web::components::headlines::Cards =
        &[("summary", "trec-eval-summary-card"), ("arms", "trec-eval-comparison"), ("pairs", "trec-eval-comparison")];
    type Draft = Draft;
    type View = View;

    fn tagline() -> Html {
        html! { { "trec_eval in the browser: the same measures, options and output, for TREC runs and ranx / pytrec_eval JSON, \
        with several runs compared query by query." } }
    }

    fn intake() -> Html {
        html! {
            <p>{ "Drop one qrels file (" }<code>{ "qid iter docno rel" }</code>{ " or " }<code>{ "{\"qid\": {\"docno\": rel}}" }</code>
            { ") and one or more runs (" }<code>{ "qid Q0 docno rank score tag" }</code>{ " or " }<code>{ "{\"qid\": {\"docno\": score}}" }</code>
            { "), in any order; each is recognised by its content (change it under \u{201c}What was read\u{201d})." }</p>
        }
    }

    fn footer(_page: &ToolPage<Self>) -> Html {
        html! { <>{ "The same numbers as " }<code>{ "memaudit trec-eval [options] QRELS RUN… --format json" }</code>
        { "; the trec_eval output equals " }<code>{ "memaudit trec-eval" }</code>{ "'s (and trec_eval's) text." }</> }
    }

    fn request(draft: &Draft) -> Result<TrecEvalRequest, String> {
        draft.fields.parse(TrecEvalRequest::default())
    }

    fn settings(page: &ToolPage<Self>, ui: &Ui<Self>) -> Html {
        ui.fields_form_with("trec-eval", &page.draft.fields, |d| &mut d.fields, &[], IDS)
    }

    fn results(page: &ToolPage<Self>, b: &Rc<IrBatch>, ui: &Ui<Self>) -> Html {
        let r = &b.report;
        let conv = Some(AttrValue::from(command_line(&r.settings)));
        let on_role = ui.on_role();
        let json = {
            let b = b.clone();
            move || report_json::<crate::ireval::TrecEval>(&b.report, &b.headlines)
        };
        let text = {
            let b = b.clone();
            move || Ok(<Self::Capability as Capability>::render_text(&b.report))
        };
        let per_query_names: Vec<(String, String)> = r
            .runs
            .first()
            .map(|run| {
                run.evaluation
                    .names
                    .iter()
                    .filter(|n| n.per_query && n.value_type != ValueType::Text)
                    .map(|n| (n.name.clone(), n.name.clone()))
                    .collect()
            })
            .unwrap_or_default();
        let default_measure =
            r.comparison.as_ref().map(|c| c.measure.clone()).or_else(|| per_query_names.first().map(|n| n.0.clone()));
        let measure = page
            .view
            .per_query_measure
            .clone()
            .filter(|m| per_query_names.iter().any(|(n, _)| n == m))
            .or(default_measure)
            .unwrap_or_default();
        let on_measure = ui.on_view(|v: &mut View, m| v.per_query_measure = Some(m));
        let q = &r.qrels;
        html! {
            <>
                <div class="results-head">
                    <p id="trec-eval-counts" data-runs={r.runs.len().to_string()} data-queries={q.queries.to_string()}>
                        { format!("{} run{} evaluated against {} ({} queries, {} judgments, {} relevant) in {}.",
                            r.runs.len(), if r.runs.len() == 1 { "" } else { "s" }, q.file, count(q.queries), count(q.judgments),
                            count(q.relevant), duration(b.timing.total_ms)) }</p>
                    <div class="exports">
                        { text_download("trec-eval-report-json", "Full report JSON", "memaudit-trec-eval.json", "application/json", json) }
                        { text_download("trec-eval-text-download", "trec_eval output", "trec_eval.txt", "text/plain", text) }
                    </div>
                </div>
                <Section id="trec-eval-reading" title="What was read" conventions={conv.clone()}>
                    { role_files("trec-eval-", &b.overview.files, &[FileRole::Qrels, FileRole::Runs], on_role) }
                    <ul id="trec-eval-notes" class="notes">
                        { for r.notes.iter().map(|n| html! { <li>{ n.clone() }</li> }) }
                    </ul>
                </Section>
                <Section id="trec-eval-summary-card" title="Measures over all queries" conventions={conv.clone()}
                    exports={table_exports(TrecEvalTable::Summary, b, |b, t| crate::ireval::table::table(&b.report, t), |b| to_json(&b.report.runs))}
                    intro={html! { <p class="intro">{ "One column per run, the values trec_eval prints under \u{201c}all\u{201d} (4 decimals shown; \
                        the exact value is in the CSV)." }</p> }}>
                    { summary_table(b) }
                </Section>
                <Section id="trec-eval-per-query-card" title="Per query" conventions={conv.clone()}
                    exports={table_exports(TrecEvalTable::PerQuery, b, |b, t| crate::ireval::table::table(&b.report, t), |b| to_json(&b.report.runs))}>
                    { ui.select_field("trec-eval-per-query-measure", "value", &per_query_names, &measure, on_measure) }
                    { per_query_table(b, &measure) }
                </Section>
                if let Some(c) = &r.comparison {
                    <Section id="trec-eval-comparison" title={format!("Runs compared on {}", c.measure)} conventions={Some(AttrValue::from(c.comparison.conventions.clone()))}
                        exports={html! { <>
                            { table_exports(TrecEvalTable::Arms, b, |b, t| crate::ireval::table::table(&b.report, t), |b| to_json(&b.report.comparison)) }
                            { table_exports(TrecEvalTable::Pairs, b, |b, t| crate::ireval::table::table(&b.report, t), |b| to_json(&b.report.comparison)) }
                        </> }}
                        intro={html! { <p class="intro" id="trec-eval-comparison-line" data-measure={c.measure.clone()} data-queries={c.queries.to_string()}>
                            { format!("Each run's mean {} over the {} queries evaluated in every run, with bootstrap intervals, and every pair of runs \
                                with the paired difference, its interval, the Wilcoxon signed-rank test and Holm / BH adjusted p-values.",
                                c.measure, count(c.queries)) }</p> }}>
                        { table_grid("trec-eval-arms", &crate::compare::table::table(&c.comparison, crate::compare::CompareTable::Arms),
                            stats_look, &c.comparison.arms, &[], |a| RowAttrs::data(vec![("data-arm", a.arm.clone())])) }
                        { table_grid("trec-eval-pairs", &crate::compare::table::table(&c.comparison, crate::compare::CompareTable::Pairs),
                            stats_look, &c.comparison.pairs, &[], |p| RowAttrs::data(vec![("data-a", p.a.clone()), ("data-b", p.b.clone())])) }
                        // The contrasts as the report draws them: one plot, on canvas here and as SVG there.
                        <PlotCanvas<ForestPlot> id="trec-eval-forest" filename="memaudit-trec-eval-forest"
                            plot={forest_plot(&c.comparison, &c.measure,
                                c.comparison.pairs.iter().map(|p| forest_row(p, str::to_string, None)).collect(), None)} />
                    </Section>
                }
                <Section id="trec-eval-output" title="trec_eval output" conventions={conv}>
                    { for r.runs.iter().enumerate().map(|(i, run)| html! {
                        <details open={i == 0} data-run={run.file.clone()}>
                            <summary><code>{ run.file.clone() }</code>{ format!(" (run id {})", run.evaluation.runid) }</summary>
                            <pre class="trec-eval-text" id={format!("trec-eval-text-{i}")}>{ trec_eval_text(&run.evaluation, r.settings.per_query, r.settings.summary) }</pre>
                        </details>
                    }) }
                </Section>
            </>
        }
    }
}

/// The settings as `memaudit trec-eval` takes them, shown next to every result (the numbers
/// can be reproduced from the command line).
fn command_line(r: &TrecEvalRequest) -> String {
    let o = &r.options;
    let mut parts = vec!["memaudit trec-eval".to_string()];
    if o.version != crate::ireval::measure::TrecEvalVersion::V10 {
        parts.push(format!("--trec-eval-version {}", o.version));
    }
    if r.per_query {
        parts.push("-q".into());
    }
    if !r.summary {
        parts.push("-n".into());
    }
    if o.complete {
        parts.push("-c".into());
    }
    if o.judged_only {
        parts.push("-J".into());
    }
    if o.relevance_level != 1 {
        parts.push(format!("-l {}", o.relevance_level));
    }
    if let Some(m) = o.max_per_topic {
        parts.push(format!("-M {m}"));
    }
    if o.num_docs_in_coll != 0 {
        parts.push(format!("-N {}", o.num_docs_in_coll));
    }
    for m in &r.measures {
        parts.push(format!("-m {m}"));
    }
    if let Some(m) = &r.compare_measure {
        parts.push(format!("--compare-measure {m}"));
    }
    let d = crate::compare::CompareSettings::default();
    let c = &r.compare;
    if c.alpha != d.alpha {
        parts.push(format!("--alpha {}", c.alpha));
    }
    if c.bootstrap != d.bootstrap {
        parts.push(format!("--bootstrap {}", c.bootstrap));
    }
    if c.seed != d.seed {
        parts.push(format!("--seed {}", c.seed));
    }
    if c.ci != d.ci {
        parts.push(format!("--ci {}", crate::report::serde_name(&c.ci)));
    }
    if let Some(r) = &c.reference {
        parts.push(format!("--reference {r}"));
    }
    parts.push("QRELS RUN…".into());
    parts.join(" ")
}

#[cfg(test)]
mod command_line_tests {
    use super::*;

    #[test]
    fn the_cli_twin_names_the_settings_that_differ_from_the_defaults() {
        let r = TrecEvalRequest { measures: vec!["map".into()], per_query: true, ..Default::default() };
        assert_eq!(command_line(&r), "memaudit trec-eval -q -m map QRELS RUN…");
        assert_eq!(command_line(&TrecEvalRequest::default()), "memaudit trec-eval QRELS RUN…");
    }
}
