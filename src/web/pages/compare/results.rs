//! The comparison page's results: what was read, the arms and contrasts, the forest plot, the
//! critical-difference diagram, the posterior densities and the items behind a number.

use std::rc::Rc;

use web_sys::HtmlSelectElement;
use yew::prelude::*;

use super::{ComparePage, CompareResult, ForestOrder, Msg, PLOT_WIDTH};
use crate::compare::figures::{cd_plot, forest_plot, forest_row};
use crate::compare::{CompareReport, TableInfo, compare_latex};
use crate::plots::{CdPlot, ForestPlot, ForestRow, PosteriorArm, PosteriorPlot};
use crate::web::components::Section;
use crate::web::components::compare::{
    ArmLegend, ArmsTable, ComparisonRef, CostsView, FriedmanView, ItemTextView, ItemsTable, PairsTable, StrataTable,
    arm_labels,
};
use crate::web::components::explore::Explore;
use crate::web::components::export::{report_json, text_download};
use crate::web::components::headlines::attach_buttons;
use crate::web::components::plot::PlotCanvas;
use crate::web::components::warnings::warnings_list;
use crate::web::format::{count, duration};

impl ComparePage {
    pub(super) fn forest(&self, c: &ComparisonRef) -> (ForestPlot, Vec<usize>) {
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

    pub(super) fn cd(&self, c: &ComparisonRef) -> Option<CdPlot> {
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

    pub(super) fn posterior_plot(&self, c: &ComparisonRef) -> Option<PosteriorPlot> {
        let arm = |name: &Option<String>| {
            let a = c.arms.iter().find(|a| Some(&a.arm) == name.as_ref() && a.binary)?;
            let name = arm_labels(c).remove(&a.arm).unwrap_or_else(|| a.arm.clone());
            Some(PosteriorArm { name, successes: a.successes?, n: a.n as f64 })
        };
        Some(PosteriorPlot { a: arm(&self.posterior.0)?, b: arm(&self.posterior.1)?, width: PLOT_WIDTH, height: 380 })
    }

    pub(super) fn view_reading(&self, t: &TableInfo) -> Html {
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

    pub(super) fn view_results(&self, ctx: &Context<Self>, result: &CompareResult, c: &ComparisonRef) -> Html {
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
