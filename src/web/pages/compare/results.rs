//! The comparison page's results: what was read, the arms and contrasts, the forest plot, the
//! critical-difference diagram, the posterior densities and the items behind a number.

use std::rc::Rc;

use yew::prelude::*;

use super::{CompareBatch, CompareTool, ForestOrder, PLOT_WIDTH, View};
use crate::compare::figures::{cd_plot, forest_plot, forest_row, win_rate_plot};
use crate::compare::{CompareReport, TableInfo, compare_latex};
use crate::plots::{CdPlot, ForestPlot, ForestRow, MatrixPlot, PosteriorArm, PosteriorPlot};
use crate::web::components::Section;
use crate::web::components::compare::{
    ArmLegend, ArmsTable, ComparisonRef, CostsView, FriedmanView, ItemsTable, PairingView, PairsTable, StrataTable,
    UnpairedTable, arm_labels,
};
use crate::web::components::explore::Explore;
use crate::web::components::export::{report_json, text_download};
use crate::web::components::instance::ItemTextView;
use crate::web::components::plot::PlotCanvas;
use crate::web::components::warnings::warnings_list;
use crate::web::format::{count, duration};
use crate::web::pages::tool::{ToolPage, Ui};

/// The results: the comparison (when the pairing held), what was read, the pairing report or its
/// refusal, and each arm without pairing.
pub(super) fn view(page: &ToolPage<CompareTool>, b: &Rc<CompareBatch>, ui: &Ui<CompareTool>) -> Html {
    let refused = match &*b.report {
        CompareReport::Refused(refused) => Some(refused),
        CompareReport::Compared(_) => None,
    };
    let refusal = refused.map(|r| r.message.clone());
    let unpaired = refused.and_then(|r| r.unpaired.clone()).map(Rc::new);
    html! {
        <>
            if let Some(c) = &page.view.comparison {
                { view_results(page, b, c, ui) }
            }
            { view_reading(page, b) }
            if let Some(p) = &page.view.pairing {
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
        </>
    }
}

/// The forest plot and, per row, the index of its contrast in `c.pairs` (for clicks).
pub(super) fn forest(view: &View, c: &ComparisonRef) -> (ForestPlot, Vec<usize>) {
    let labels = arm_labels(c);
    let short = |a: &str| labels.get(a).cloned().unwrap_or_else(|| a.to_string());
    let row = |p: &crate::compare::PairRow, group: Option<String>| forest_row(p, short, group);
    let pair_ix = |a: &str, b: &str| c.pairs.iter().position(|p| p.a == a && p.b == b).unwrap_or(usize::MAX);
    let (rows, order): (Vec<ForestRow>, Vec<usize>) = if view.forest_order == ForestOrder::ByStratum
        && !c.by_stratum.is_empty()
    {
        c.by_stratum
            .iter()
            .flat_map(|s| {
                let group = format!("{} = {} ({} items)", s.column, s.value, s.n_items);
                s.pairs.iter().map(move |p| (row(p, Some(group.clone())), pair_ix(&p.a, &p.b)))
            })
            .unzip()
    } else {
        let mut order: Vec<usize> = (0..c.pairs.len()).collect();
        match view.forest_order {
            ForestOrder::Difference => order.sort_by(|&x, &y| c.pairs[y].diff.total_cmp(&c.pairs[x].diff)),
            ForestOrder::GroupedByA => {
                let arm_ix = |a: &str| c.arms.iter().position(|r| r.arm == a).unwrap_or(usize::MAX);
                order.sort_by(|&x, &y| {
                    arm_ix(&c.pairs[x].a).cmp(&arm_ix(&c.pairs[y].a)).then(c.pairs[y].diff.total_cmp(&c.pairs[x].diff))
                });
            }
            ForestOrder::Table | ForestOrder::ByStratum => {}
        }
        let grouped = view.forest_order == ForestOrder::GroupedByA;
        order
            .iter()
            .map(|&i| {
                let p = &c.pairs[i];
                (row(p, grouped.then(|| format!("a = {}", short(&p.a)))), i)
            })
            .unzip()
    };
    let selected = view.items.selection.as_ref().and_then(|(a, b)| {
        let b = b.as_ref()?;
        order.iter().position(|&i| c.pairs.get(i).is_some_and(|p| p.a == *a && p.b == *b))
    });
    let value = view.pairing.as_ref().map(|p| p.value.clone()).unwrap_or_default();
    (forest_plot(c, &value, rows, selected), order)
}

pub(super) fn cd(view: &View, c: &ComparisonRef) -> Option<CdPlot> {
    let f = c.friedman.as_ref()?;
    let labels = arm_labels(c);
    let name = |a: &str| labels.get(a).cloned().unwrap_or_else(|| a.to_string());
    let selected = view
        .items
        .selection
        .as_ref()
        .filter(|(_, b)| b.is_none())
        .and_then(|(a, _)| f.mean_ranks.iter().position(|x| x.arm == *a));
    Some(cd_plot(f, name, selected))
}

fn posterior_plot(view: &View, c: &ComparisonRef) -> Option<PosteriorPlot> {
    let arm = |name: &Option<String>| {
        let a = c.arms.iter().find(|a| Some(&a.arm) == name.as_ref() && a.binary)?;
        let name = arm_labels(c).remove(&a.arm).unwrap_or_else(|| a.arm.clone());
        Some(PosteriorArm { name, successes: a.successes?, n: a.n as f64 })
    };
    Some(PosteriorPlot { a: arm(&view.posterior.0)?, b: arm(&view.posterior.1)?, width: PLOT_WIDTH, height: 380 })
}

fn view_reading(page: &ToolPage<CompareTool>, b: &CompareBatch) -> Html {
    let t: &TableInfo = &b.overview;
    let r = &b.timing;
    let timing = Some(if r.read_ms > 0.0 {
        format!(
            "Read in {}; paired and compared in {} (total {}).",
            duration(r.read_ms),
            duration(r.total_ms - r.read_ms),
            duration(r.total_ms)
        )
    } else {
        format!("Paired and compared in {}.", duration(r.total_ms))
    });
    let source = page.source.describe(t.files.len());
    html! {
        <Section id="compare-reading" title="What was read">
            if t.from_rescoring {
                <p id="compare-source">{ format!("The per-query rows of {}: {} rows.", source, count(t.rows)) }</p>
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
                data-read-ms={format!("{:.1}", r.read_ms)}
                data-total-ms={format!("{:.1}", r.total_ms)}>
                { format!("{} rows, {} columns.", count(t.rows), t.columns.len()) }
                if let Some(tm) = timing { { format!(" {tm}") } }</p>
            { warnings_list("compare-warnings", t.warnings.iter().map(|w| ("reading", w))) }
        </Section>
    }
}

fn view_results(page: &ToolPage<CompareTool>, b: &CompareBatch, c: &ComparisonRef, ui: &Ui<CompareTool>) -> Html {
    let view = &page.view;
    let on_select =
        ui.ask(|v: &mut View, _: Option<&CompareBatch>, (a, b): (String, Option<String>)| super::select_items(v, a, b));
    let selected = view.items.selection.as_ref().map(|(a, b)| match b {
        Some(b) => format!("{a}\u{2212}{b}"),
        None => a.clone(),
    });
    let (forest, _) = forest(view, c);
    let cd = cd(view, c);
    let win_rates = {
        let labels = arm_labels(c);
        win_rate_plot(c, |a| labels.get(a).cloned().unwrap_or_else(|| a.to_string()))
    };
    let on_forest = ui.ask(|v: &mut View, _: Option<&CompareBatch>, at: (f64, f64)| super::forest_click(v, at));
    let on_cd = ui.ask(|v: &mut View, _: Option<&CompareBatch>, at: (f64, f64)| super::cd_click(v, at));
    let on_order = ui.on_view(|v: &mut View, k: String| {
        v.forest_order = ForestOrder::ALL.iter().find(|(_, key, _)| *key == k).map(|x| x.0).unwrap_or_default()
    });
    let binary: Vec<String> =
        c.arms.iter().filter(|a| a.binary && a.successes.is_some()).map(|a| a.arm.clone()).collect();
    let posterior = posterior_plot(view, c);
    let post_select = |which: bool, current: &Option<String>| {
        let onchange = ui.on_view(move |v: &mut View, arm: String| {
            if which {
                v.posterior.0 = Some(arm);
            } else {
                v.posterior.1 = Some(arm);
            }
        });
        html! {
            <select id={if which { "posterior-a" } else { "posterior-b" }} {onchange}>
                { for binary.iter().map(|a| html! { <option value={a.clone()} selected={current.as_deref() == Some(a.as_str())}>{ a.clone() }</option> }) }
            </select>
        }
    };
    let json = {
        let (o, h) = (b.report.clone(), b.headlines.clone());
        move || report_json::<crate::compare::Compare>(&o, &h)
    };
    let latex = {
        let c = c.clone();
        move || Ok(compare_latex(&c))
    };
    let conv = Some(AttrValue::from(c.conventions.clone()));
    let items_page = ui.view_with(|v: &mut View, p: usize| v.items.page = p);
    let on_item = ui.ask(|v: &mut View, _: Option<&CompareBatch>, item: String| super::item_text(v, item));
    let source = page.source.describe(b.overview.files.len());
    html! {
        <>
            <div class="results-head">
                <p id="compare-summary" data-arms={c.arms.len().to_string()} data-items={c.n_items.to_string()}>
                    { format!("{} arms compared on {} paired items ({}), memaudit {}.", c.arms.len(), count(c.n_items), source, crate::VERSION) }
                </p>
                <div class="exports">
                    { text_download("export-latex", "LaTeX table", "memaudit-comparison.tex", "application/x-tex", latex) }
                    { text_download("export-compare-json", "Full comparison JSON", "memaudit-comparison.json", "application/json", json) }
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
                                <option value={*k} selected={*o == view.forest_order}>{ *label }</option>
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
                if let Some(m) = win_rates {
                    <Section id="win-rates" title="Win rates" conventions={conv.clone()}
                        intro={html! { <p class="intro">{ "The arms as a round-robin tournament over the items: each cell is the share of items on \
                            which the row's arm does better than the column's (ties half), blue where it does better on most. The arms table gives \
                            each arm's mean win rate and Copeland score, the contrasts table each pair's." }</p> }}>
                        <PlotCanvas<MatrixPlot> id="win-rate-plot" plot={m} filename="memaudit-win-rates" />
                    </Section>
                }
            if binary.len() >= 2 {
                <Section id="posterior" title="Posterior densities" conventions={conv.clone()}
                    intro={html! { <p class="intro">{ "Jeffreys Beta posteriors of two 0/1 arms (independent arms: on paired data an approximation), \
                        with the posterior probability that a's rate exceeds b's." }</p> }}>
                    <div class="controls">
                        <div class="field"><label for="posterior-a">{ "arm a" }</label>{ post_select(true, &view.posterior.0) }</div>
                        <div class="field"><label for="posterior-b">{ "arm b" }</label>{ post_select(false, &view.posterior.1) }</div>
                    </div>
                    if let Some(p) = posterior {
                        <PlotCanvas<PosteriorPlot> id="posterior-plot" plot={p} filename="memaudit-posterior" />
                    }
                </Section>
            }
            if let Some(e) = &view.items.error {
                <p class="error" role="alert" id="items-error">{ e.clone() }</p>
            }
            if view.items.loading {
                <p class="muted" id="items-loading">{ "Loading the items\u{2026}" }</p>
            }
            if let Some(v) = &view.items.view {
                <ItemsTable view={v.clone()} page={view.items.page} on_page={items_page}
                    {on_item} shown={view.items.shown.clone()} />
            }
            if let Some(t) = &view.items.text {
                <ItemTextView text={t.clone()} />
            }
        </>
    }
}
