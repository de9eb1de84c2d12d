//! The calibration page: drop per-item routing rows (a confidence, the outcome without memory,
//! and optionally the outcome with memory, whether memory was applied and a split) and see the
//! help/hurt ledger, how well the confidence separates helped from hurt items (AUC with its
//! DeLong interval), accuracy per confidence bin, the routing-threshold sweep, and ECE / Brier /
//! log loss raw and after Platt scaling fitted on a named split — the numbers of
//! `memaudit calibration --format json`.

use std::rc::Rc;

use yew::prelude::*;

use super::tool::{BatchOf, Tool, ToolPage, Ui, file_notes};
use crate::calibration::analyse::{BinRow, CalibrationRow, LedgerRow, SweepRow};
use crate::calibration::{self, CalibrationRequest, CalibrationTable, Route};
use crate::plots::LinesPlot;
use crate::report::Table;
use crate::web::components::Section;
use crate::web::components::export::{text_download, to_json};
use crate::web::components::fields::FieldDraft;
use crate::web::components::grid::{Kind, Look, RowAttrs, table_exports, table_grid};
use crate::web::components::plot::PlotCanvas;
use crate::web::format::{count, duration, fmt4};

type CalibrationBatch = BatchOf<Calibration>;

/// The settings as edited: the request's fields ([`crate::fields!`]) and the cells.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Draft {
    pub fields: FieldDraft<CalibrationRequest>,
}

impl Draft {
    /// The request (ranges are checked by the core's validate).
    pub fn parse(&self) -> Result<CalibrationRequest, String> {
        self.fields.parse(CalibrationRequest::default())
    }
}

pub enum Calibration {}

/// The calibration page.
pub type CalibrationPage = ToolPage<Calibration>;

screen!(crate::calibration::Calibration => CalibrationPage, Tools);

/// The settings of the result, every field named as in the report's settings.
fn conventions(b: &CalibrationBatch) -> String {
    format!("{} auc=delong shares=wilson", crate::fields::settings_line(&b.report.settings))
}

fn look(col: &str) -> Look {
    match col {
        "population" | "method" | "split" => Look::named(col, Kind::Text),
        "n" | "help" | "hurt" | "both_right" | "both_wrong" | "bin" => Look::named(col, Kind::Int),
        "delta_accuracy" | "delta" => Look::named(col, Kind::Signed),
        _ => Look::named(col, Kind::Num),
    }
}

/// What `memaudit calibration --format json` prints.
pub fn report_json(b: &CalibrationBatch) -> Result<String, String> {
    crate::web::components::export::report_json::<crate::calibration::Calibration>(&b.report, &b.headlines)
}

fn table_of(b: &CalibrationBatch, t: CalibrationTable) -> crate::error::Result<Table> {
    Ok(calibration::table(&b.report, t))
}

impl Tool for Calibration {
    type Capability = crate::calibration::Calibration;
    const INTAKE_TITLE: &'static str = "Per-item routing rows";
    const CARDS: crate::web::components::headlines::Cards = &[
        ("ledger", "calibration-ledger-card"),
        ("bins", "calibration-bins-card"),
        ("sweep", "calibration-sweep-card"),
        ("calibration", "calibration-calibration-card"),
        ("reliability", "calibration-calibration-card"),
        ("populations", "calibration-populations-card"),
        ("cell_columns", "calibration-populations-card"),
        ("governance", "calibration-governance-card"),
    ];
    type Draft = Draft;
    type View = ();

    fn tagline() -> Html {
        html! { { "Whether gating and confidence, not retrieval, drive a memory system's gain: help and hurt, how well the confidence \
        separates them, accuracy per confidence bin, inject fraction and accuracy as the routing threshold moves, and calibration \
        before and after Platt scaling fitted on a held-out split." } }
    }

    fn intake() -> Html {
        html! {
            <p>{ "Drop per-item rows (CSV/TSV, JSON Lines or a JSON array): a confidence (" }<code>{ "confidence" }</code>
                { ", " }<code>{ "answer_logprob_mean" }</code>{ ", …), the outcome without memory (" }<code>{ "correct" }</code>
                { ", " }<code>{ "baseline_correct" }</code>{ "), and optionally the outcome with memory (" }<code>{ "with_memory" }</code>
                { ", " }<code>{ "second_correct" }</code>{ "), whether memory was applied (" }<code>{ "applied" }</code>{ ", " }
                <code>{ "routed" }</code>{ ") and a split (e.g. the seed)." }</p>
        }
    }

    fn request(draft: &Draft) -> Result<CalibrationRequest, String> {
        draft.parse()
    }

    fn settings(page: &ToolPage<Self>, ui: &Ui<Self>) -> Html {
        let d = &page.draft;
        html! {
            <>
                { ui.fields_form("calibration", &d.fields, |d: &mut Draft| &mut d.fields) }
            </>
        }
    }

    fn results(_page: &ToolPage<Self>, b: &Rc<CalibrationBatch>, _ui: &Ui<Self>) -> Html {
        let r = &b.report;
        let conv = Some(AttrValue::from(conventions(b)));
        let json = {
            let b = b.clone();
            move || report_json(&b)
        };
        let t = |which| calibration::table(r, which);
        html! {
            <>
                <div class="results-head">
                    <p id="calibration-counts" data-items={r.items.to_string()} data-missing={r.missing.count.to_string()}>
                        { format!("{} items ({} rows left out without a confidence or an outcome) ({}).", count(r.items), r.missing.count, duration(b.timing.total_ms)) }</p>
                    <div class="exports">{ text_download("calibration-report-json", "Full report JSON", "memaudit-calibration.json", "application/json", json) }</div>
                </div>
                <Section id="calibration-reading" title="What was read" conventions={conv.clone()}>
                    { file_notes("calibration-", &b.overview) }
                    <p class="intro">{ format!("Columns: {}.", r.readings.iter().map(|x| format!("{}: confidence {}, outcome {}, with memory {}, applied {}, split {}",
                        x.file, x.confidence, x.correct, x.with_memory.clone().unwrap_or_else(|| "none".into()),
                        x.applied.clone().unwrap_or_else(|| "none".into()), x.split.clone().unwrap_or_else(|| "none".into()))).collect::<Vec<_>>().join("; ")) }</p>
                </Section>
                { crate::web::components::cells::populations_card("calibration", &r.populations) }
                <Section id="calibration-ledger-card" title="Help and hurt" conventions={conv.clone()}
                    exports={table_exports(CalibrationTable::Ledger, b, table_of, |b| to_json(&b.report.ledger))}
                    intro={html! { <p class="intro">{ "Help: wrong without memory, right with it; hurt: the reverse; \u{0394} accuracy = (help \u{2212} hurt)/n." }</p> }}>
                    { table_grid("calibration-ledger", &t(CalibrationTable::Ledger), look, &r.ledger, &[],
                        |l: &LedgerRow| RowAttrs::data(vec![("data-population", l.population.clone())])) }
                    <p id="calibration-auc" data-auc={crate::report::num(r.auc.as_ref().map(|a| a.auc))}
                        data-low={crate::report::num(r.auc.as_ref().and_then(|a| a.low))} data-high={crate::report::num(r.auc.as_ref().and_then(|a| a.high))}>
                        { match (&r.auc, &r.auc_note) {
                            (Some(a), _) => format!("AUC of the confidence, helped vs hurt items: {} [{}, {}] ({}% DeLong), {} helps, {} hurts, {} items.",
                                fmt4(Some(a.auc)), fmt4(a.low), fmt4(a.high), r.settings.confidence_level * 100.0, a.positives, a.negatives, r.settings.auc_population),
                            (None, Some(n)) => format!("No AUC: {n}."),
                            _ => String::new(),
                        } }
                    </p>
                </Section>
                <Section id="calibration-bins-card" title="Accuracy per confidence bin" conventions={conv.clone()}
                    exports={table_exports(CalibrationTable::Bins, b, table_of, |b| to_json(&b.report.bins))}
                    intro={html! { <p class="intro">{ format!("{} equal-count bins of the confidence (equal confidences stay in one bin): accuracy without and with memory, Wilson intervals, and the share of items memory was applied to.", r.settings.accuracy_bins) }</p> }}>
                    if let Some(plot) = crate::calibration::figures::bins_plot(r) {
                        <PlotCanvas<LinesPlot> id="calibration-bins-plot" {plot} filename="memaudit-accuracy-per-confidence-bin" />
                    }
                    { table_grid("calibration-bins", &t(CalibrationTable::Bins), look, &r.bins, &[], |x: &BinRow| RowAttrs::data(vec![("data-bin", x.bin.to_string())])) }
                </Section>
                <Section id="calibration-sweep-card" title="Routing threshold sweep" conventions={conv.clone()}
                    exports={table_exports(CalibrationTable::Sweep, b, table_of, |b| to_json(&b.report.sweep))}
                    intro={html! { <p class="intro">{ if r.sweep.is_empty() { "No sweep: it needs the outcome with memory on every item.".to_string() } else {
                        format!("\u{03c4} at each 5th percentile of the confidence; memory used when the confidence is {} \u{03c4}; accuracy of memory's outcome where used, the baseline's elsewhere. The best row is an in-sample optimum.",
                            if r.settings.route == Route::Below { "below" } else { "at least" }) } }</p> }}>
                    { table_grid("calibration-sweep", &t(CalibrationTable::Sweep), look, &r.sweep, &[], |x: &SweepRow| RowAttrs::data(vec![("data-percentile", x.percentile.to_string())])) }
                </Section>
                <Section id="calibration-calibration-card" title="Calibration: raw and Platt" conventions={conv.clone()}
                    exports={table_exports(CalibrationTable::Calibration, b, table_of, |b| to_json(&b.report.calibration))}
                    intro={html! { <p class="intro">{ match &r.platt {
                        Some(p) => format!("ECE ({} equal-width bins), Brier and log loss per split; Platt scaling p = 1/(1 + exp(\u{2212}({:.4}\u{00b7}c + {:.4}))) fitted on {} ({} items) and scored on the other splits only.",
                            r.settings.ece_bins, p.a, p.b, p.fit_on.join(", "), p.n),
                        None => format!("ECE ({} equal-width bins), Brier and log loss per split of the confidence as a probability. Name a split column and a fit split for Platt scaling.", r.settings.ece_bins),
                    } }</p> }}>
                    if let Some(plot) = crate::calibration::figures::reliability_plot(r) {
                        <PlotCanvas<LinesPlot> id="calibration-reliability-plot" {plot} filename="memaudit-reliability-diagram" />
                    }
                    { table_grid("calibration-calibration", &t(CalibrationTable::Calibration), look, &r.calibration, &[],
                        |c: &CalibrationRow| RowAttrs::data(vec![("data-method", c.method.clone()), ("data-split", c.split.clone())])) }
                </Section>
                if let Some(g) = &r.governance {
                    <Section id="calibration-governance-card" title="Bank governance" conventions={conv}
                        exports={table_exports(CalibrationTable::Governance, b, table_of, |b| to_json(&b.report.governance))}
                        intro={html! { <p class="intro">{ format!("Each routed item naming the entries it retrieved gives each of them its utility \
                            X = outcome with memory \u{2212} without; an entry is retired when \u{00b5} + radius < 0 (\u{03b4} = {}, {} radius; \
                            evidence from {}; {} of {} rows naming entries used).", g.delta, g.radius.name(),
                            if g.splits.is_empty() { "every row".to_string() } else { g.splits.join(", ") }, g.rows_used, g.rows_with_entries) }</p> }}>
                        { table_grid("calibration-governance", &t(CalibrationTable::Governance),
                            |col| Look::named(col, match col {
                                "entry" | "retired" | "retired_other" => Kind::Text,
                                "n" | "helps" | "hurts" => Kind::Int,
                                _ => Kind::Signed,
                            }), &g.entries, &[],
                            |e: &crate::calibration::governance::EntryUtility| RowAttrs::data(vec![("data-entry", e.entry.clone())])
                                .with_class(e.retired.then_some("late"))) }
                    </Section>
                }
            </>
        }
    }
}
