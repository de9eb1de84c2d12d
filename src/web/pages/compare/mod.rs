//! The paired-comparison page: drop outcome files of several arms run on the same
//! items (any format the core reads; the format can be forced) or take a rescoring's per-query
//! rows; see and edit the spec (pairing key, arm, value, strata, filters; the inferred choice
//! with its reasons), the pairing tolerances and the statistics' settings; read the pairing
//! report (or its refusal, verbatim); then the arms and contrasts tables, the Friedman test, a
//! forest plot, Demšar's critical-difference diagram and the posterior densities of two binary
//! arms. Clicking a forest row, a contrast, a CD-diagram arm or an arm row shows the items
//! behind it.
//!
//! A tool page ([`ToolPage`]): its settings form holds the spec (`spec.rs`), its results are
//! drawn by `results.rs`, and the items behind a number are drill-downs asked of the worker (the
//! core's [`Compare`] capability), which keeps the table so a change of settings re-runs
//! without reading the files again.

use std::rc::Rc;

use web_sys::HtmlSelectElement;
use yew::prelude::*;

use super::Handoff;
use super::tool::{BatchOf, Tool, ToolPage, Ui};
use crate::compare::{Compare, CompareReport, CompareRequest, CompareSettings, ItemSelection, ItemsView, SpecChoice};
use crate::error::Error;
use crate::outcomes::instance::ItemText;
use crate::outcomes::{OutcomeFormat, PairingReport};
use crate::plots::{CdLayout, ForestLayout};
use crate::web::components::compare::ComparisonRef;
use crate::web::protocol::SourceFile;

pub mod draft;
mod results;
mod spec;

pub use draft::{Draft, ForestOrder};

/// The ids of the statistics' settings that are not `cmp-{name}` (kept for links and tests).
const SETTING_IDS: &[(&str, &str)] = &[("resample", "cmp-resampling")];

/// Width of the comparison's plots in pixels.
pub use crate::compare::figures::PLOT_WIDTH;

/// The comparison page's tool.
pub enum CompareTool {}

/// The comparison page.
pub type ComparePage = ToolPage<CompareTool>;

screen!(crate::compare::Compare => ComparePage, Founding);

type CompareBatch = BatchOf<CompareTool>;

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

/// What the page keeps beside a result: the comparison and pairing shown, the filter being
/// added, the plots' choices and the items behind a number.
#[derive(Default)]
pub struct View {
    comparison: Option<ComparisonRef>,
    pairing: Option<Rc<PairingReport>>,
    filter_column: String,
    filter_values: String,
    forest_order: ForestOrder,
    posterior: (Option<String>, Option<String>),
    items: Items,
}

/// A message of the core in the page's words (a setting named by its label).
fn page_words(text: &str) -> String {
    crate::web::components::fields::page_words(&<Compare as crate::capability::Capability>::fields(), text)
}

/// Notes the items behind arm `a` (against `b`) as asked and names the question.
fn select_items(view: &mut View, a: String, b: Option<String>) -> Option<ItemSelection> {
    view.comparison.as_ref()?;
    let question = match &b {
        Some(b) => ItemSelection::Pair { a: a.clone(), b: b.clone() },
        None => ItemSelection::Arm { arm: a.clone() },
    };
    view.items = Items { selection: Some((a, b)), loading: true, ..Items::default() };
    Some(question)
}

/// One item's text, in the arms of the items shown.
fn item_text(view: &mut View, item: String) -> Option<ItemSelection> {
    let (a, b) = view.items.selection.clone()?;
    let arms = std::iter::once(a).chain(b).collect();
    view.items.shown = Some(item.clone());
    view.items.text = None;
    view.items.loading = true;
    Some(ItemSelection::Text { item, arms })
}

/// The contrast of the forest plot's row at `(x, y)`.
fn forest_click(view: &mut View, (x, y): (f64, f64)) -> Option<ItemSelection> {
    let c = view.comparison.clone()?;
    let (plot, order) = results::forest(view, &c);
    let p = ForestLayout::new(&plot).row_at(x, y).and_then(|row| order.get(row)).and_then(|&i| c.pairs.get(i))?;
    select_items(view, p.a.clone(), Some(p.b.clone()))
}

/// The arm of the critical-difference diagram at `(x, y)`.
fn cd_click(view: &mut View, (x, y): (f64, f64)) -> Option<ItemSelection> {
    let c = view.comparison.clone()?;
    let plot = results::cd(view, &c)?;
    // The plot shows short labels: the arm is found by its index.
    let arm = CdLayout::new(&plot)
        .arm_at(x, y)
        .and_then(|i| c.friedman.as_ref().and_then(|f| f.mean_ranks.get(i)).map(|r| r.arm.clone()))?;
    select_items(view, arm, None)
}

impl Tool for CompareTool {
    // Off for the first module's size: see `Tool::PRINTED_CARD`.
    const PRINTED_CARD: bool = false;
    type Capability = Compare;
    const INTAKE_TITLE: &'static str = "Outcomes of several arms on the same items";
    const SETTINGS_TITLE: &'static str = "How the rows are read";
    const RUN: (&'static str, &'static str, &'static str) = ("run", "Compare", "Compare");
    const CARDS: crate::web::components::headlines::Cards =
        &[("arms", "arms"), ("pairs", "pairs"), ("friedman", "friedman"), ("judges", "judges")];
    type Draft = Draft;
    type View = View;

    fn tagline() -> Html {
        html! { { "Compare arms (systems, memory policies, configurations) run on the same items: each arm's score with an \
        interval, every contrast with an interval, an effect size and a multiplicity-corrected p-value, the omnibus test \
        with a critical-difference diagram, and a forest plot." } }
    }

    fn intake() -> Html {
        html! {
            <p>{ "Drop outcome files anywhere on this page, or choose them: long or wide CSV, JSON Lines, reclaim-eval results, \
                per-question LLM-judge files (one per configuration), MTEL-Mem records, or memaudit rescoring JSON (" }
                <code>{ ".gz" }</code>{ " accepted; several files are joined with a " }<code>{ "file" }</code>
                { " column). Or press \u{201c}Use this rescoring\u{201d} on the rescoring page: system \u{00d7} target become arms." }</p>
        }
    }

    fn intake_actions(page: &ToolPage<Self>, ui: &Ui<Self>) -> Html {
        // A new layout reads the files again, its spec inferred anew.
        let on_format = ui
            .apply_with(|d: &mut Draft, f: Option<OutcomeFormat>| {
                d.format = f;
                d.infer = true;
            })
            .reform(|e: Event| OutcomeFormat::parse(&e.target_unchecked_into::<HtmlSelectElement>().value()));
        let format = page.draft.format;
        html! {
            <div class="field inline">
                <label for="compare-format">{ "input format" }</label>
                <select id="compare-format" onchange={on_format} title="force a layout when detection guesses wrong">
                    <option value="" selected={format.is_none()}>{ "detect from content" }</option>
                    { for OutcomeFormat::ALL.iter().map(|f| html! {
                        <option value={f.name()} selected={format == Some(*f)}>{ f.describe() }</option>
                    }) }
                </select>
            </div>
        }
    }

    fn request(d: &Draft) -> Result<CompareRequest, String> {
        let credit = d.partial_credit.trim();
        let partial_credit = if credit.is_empty() {
            None
        } else {
            let bad = || {
                page_words(
                    &Error::setting("partial_credit", format!("`{credit}` is not a number in [0, 1]")).to_string(),
                )
            };
            Some(credit.parse::<f64>().map_err(|_| bad())?)
        };
        let settings = d.settings()?;
        let spec = if d.infer {
            SpecChoice::default()
        } else {
            d.renamed().map_err(|e| page_words(&format!("{}: {e}", crate::fields::mention("rename"))))?;
            d.spec_choice()
        };
        Ok(CompareRequest {
            partial_credit,
            format: d.format,
            spec,
            options: d.options(),
            settings,
            pair_by_position: d.by_position.then(Vec::new),
        })
    }

    fn settings_head(page: &ToolPage<Self>, ui: &Ui<Self>) -> Html {
        match page.overview() {
            Some(t) => spec::view_spec(page, t, ui),
            None => html! {},
        }
    }

    fn settings(page: &ToolPage<Self>, ui: &Ui<Self>) -> Html {
        spec::view_statistics(page, ui)
    }

    fn defaults(old: &Draft) -> Draft {
        // The statistics and the pairing tolerances; the spec stays.
        let d = Draft::default();
        let mut out = old.clone();
        out.set_settings(&CompareSettings::default());
        out.duplicates = d.duplicates;
        out.allow_incomplete = d.allow_incomplete;
        out.by_position = d.by_position;
        out.partial_credit = d.partial_credit;
        out
    }

    fn files_changed(draft: &mut Draft) {
        draft.infer = true;
    }

    /// The rescoring's per-query rows become an outcomes file (`{"per_query": [...]}`, read as
    /// the CLI reads `memaudit rescore --format json`).
    fn handoff(h: &Handoff) -> Option<Result<SourceFile, String>> {
        let blob = serde_json::to_string(&serde_json::json!({ "per_query": h.report.per_query }))
            .map_err(|e| e.to_string())
            .and_then(|text| crate::web::dom::text_blob(&text, "application/json"));
        Some(blob.map(|blob| SourceFile { name: h.label.clone(), blob }))
    }

    fn in_page_words(report: &mut CompareReport) {
        // A refusal of the pairing is a result: a setting it mentions is named by its label.
        if let CompareReport::Refused(refused) = report {
            refused.message = page_words(&refused.message);
        }
    }

    fn overview_read(draft: &mut Draft, view: &mut View, t: &crate::compare::TableInfo) {
        draft.set_spec(&t.inferred);
        draft.infer = false;
        view.filter_column.clear();
        view.filter_values.clear();
    }

    fn after_result(view: &mut View, draft: &mut Draft, b: &CompareBatch, fresh: bool) -> Option<ItemSelection> {
        match &*b.report {
            CompareReport::Compared(out) => {
                let comparison = &out.comparison;
                draft.set_settings(&comparison.settings);
                if fresh {
                    draft.set_spec(&out.spec);
                    draft.infer = false;
                }
                let binary: Vec<String> = comparison
                    .arms
                    .iter()
                    .filter(|a| a.binary && a.successes.is_some())
                    .map(|a| a.arm.clone())
                    .collect();
                let keep = |x: &Option<String>, i: usize| {
                    x.clone().filter(|a| binary.contains(a)).or_else(|| binary.get(i).cloned())
                };
                view.posterior = (keep(&view.posterior.0, 0), keep(&view.posterior.1, 1));
                let had_strata = view.comparison.as_ref().is_some_and(|c| !c.by_stratum.is_empty());
                if comparison.by_stratum.is_empty() {
                    if view.forest_order == ForestOrder::ByStratum {
                        view.forest_order = ForestOrder::Table;
                    }
                } else if !had_strata {
                    view.forest_order = ForestOrder::ByStratum;
                }
                view.comparison = Some(ComparisonRef(Rc::new(comparison.clone())));
                view.pairing = Some(Rc::new(out.pairing.clone()));
            }
            CompareReport::Refused(refused) => {
                view.comparison = None;
                view.pairing = refused.pairing.clone().map(Rc::new);
            }
        }
        view.items = Items::default();
        None
    }

    fn on_detail(view: &mut View, answer: Option<Result<Rc<ItemsView>, String>>) -> bool {
        view.items.loading = false;
        match answer {
            Some(Ok(v)) => match &*v {
                ItemsView::Text(text) => view.items.text = Some(Rc::new(text.clone())),
                _ => view.items.view = Some(v),
            },
            Some(Err(e)) => {
                view.items.error = Some(e);
                return true;
            }
            None => {}
        }
        false
    }

    fn results(page: &ToolPage<Self>, b: &Rc<CompareBatch>, ui: &Ui<Self>) -> Html {
        results::view(page, b, ui)
    }
}
