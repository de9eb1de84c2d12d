//! The |ΔnDCG| histogram on a `<canvas id="delta-histogram">`, drawn by
//! [`crate::plots::histogram`] through plotters-canvas ([`super::plot::draw_plot`]); "Export
//! SVG" runs the same drawing on plotters' SVG backend, "Export PNG" saves the canvas.

use web_sys::{HtmlCanvasElement, HtmlSelectElement};
use yew::prelude::*;

use crate::audit::RescoreTable;

use super::plot::{download_png, download_svg, draw_plot};
use super::{Card, ReportRef};
use crate::audit::DeltaDistribution;
use crate::audit::figures::histogram_plot;
use crate::model::Target;
use crate::plots::histogram::HISTOGRAM_SIZE;
use crate::web::format::{count, fmt4, pct};

/// The target pairs of a report's distributions, in report order.
pub fn pairs(dists: &[DeltaDistribution]) -> Vec<(Target, Target)> {
    let mut out: Vec<(Target, Target)> = Vec::new();
    for d in dists {
        if !out.contains(&(d.a, d.b)) {
            out.push((d.a, d.b));
        }
    }
    out
}

fn choose(dists: &[DeltaDistribution], pair: (Target, Target), system: &str) -> Option<DeltaDistribution> {
    dists.iter().find(|d| (d.a, d.b) == pair && d.system == system).cloned()
}

#[derive(Properties, PartialEq)]
pub struct HistogramProps {
    pub report: ReportRef,
}

/// `#histogram` section.
#[function_component(DeltaHistogram)]
pub fn delta_histogram(props: &HistogramProps) -> Html {
    let r = &props.report;
    let all_pairs = pairs(&r.delta_distribution);
    // Raw → canonical first when available (the paper's Fig. 3).
    let default_pair = all_pairs.iter().position(|p| *p == (Target::Raw, Target::Canonical)).unwrap_or(0);
    let pair_ix = use_state(|| default_pair);
    let system = use_state(|| "all".to_string());
    let canvas = use_node_ref();
    let draw_error = use_state(|| None::<String>);

    let pair = all_pairs.get(*pair_ix).or(all_pairs.first()).copied();
    // A system missing from a newer report falls back to the pooled distribution.
    let dist = pair
        .and_then(|p| choose(&r.delta_distribution, p, &system).or_else(|| choose(&r.delta_distribution, p, "all")));
    let plot = dist.as_ref().map(histogram_plot);

    {
        let canvas = canvas.clone();
        let draw_error = draw_error.clone();
        use_effect_with((props.report.clone(), plot.clone()), move |(_, plot)| {
            if let (Some(plot), Some(c)) = (plot, canvas.cast::<HtmlCanvasElement>()) {
                let result = draw_plot(c, plot).err().map(|e| e.to_string());
                if *draw_error != result {
                    draw_error.set(result);
                }
            }
        });
    }

    let on_pair = {
        let pair_ix = pair_ix.clone();
        Callback::from(move |e: Event| {
            let sel: HtmlSelectElement = e.target_unchecked_into();
            if let Ok(i) = sel.value().parse::<usize>() {
                pair_ix.set(i);
            }
        })
    };
    let on_system = {
        let system = system.clone();
        Callback::from(move |e: Event| {
            let sel: HtmlSelectElement = e.target_unchecked_into();
            system.set(sel.value());
        })
    };
    let export_svg = {
        let plot = plot.clone();
        Callback::from(move |_: MouseEvent| {
            let Some(plot) = &plot else { return };
            if let Err(e) = download_svg(plot, "memaudit-delta-histogram.svg") {
                gloo::console::error!(format!("memaudit: SVG export failed: {e}"));
            }
        })
    };
    let export_png = {
        let canvas = canvas.clone();
        Callback::from(move |_: MouseEvent| {
            let Some(c) = canvas.cast::<HtmlCanvasElement>() else { return };
            if let Err(e) = download_png(&c, "memaudit-delta-histogram.png") {
                gloo::console::error!(format!("memaudit: PNG export failed: {e}"));
            }
        })
    };

    let intro = html! {
        <p class="intro">{ "Per-query |\u{0394}nDCG| when the credit target changes, on the queries eligible under both \
            targets (20 bins of 0.05). Orange: the 0.1 shift threshold; red: the mean." }</p>
    };
    html! {
        <Card id="histogram" title="How much nDCG moves per query" report={props.report.clone()}
              exports={vec![RescoreTable::DeltaDistribution, RescoreTable::DeltaHistogram]} {intro}>
            if all_pairs.is_empty() {
                <p class="empty">{ "Needs at least two targets with eligible queries." }</p>
            } else {
                <div class="controls">
                    <div class="field">
                        <label for="hist-pair">{ "targets" }</label>
                        <select id="hist-pair" onchange={on_pair}>
                            { for all_pairs.iter().enumerate().map(|(i, (a, b))| html! {
                                <option value={i.to_string()} selected={Some(i) == all_pairs.iter().position(|p| Some(*p) == pair)}>
                                    { format!("{a} \u{2192} {b}") }
                                </option>
                            }) }
                        </select>
                    </div>
                    <div class="field">
                        <label for="hist-system">{ "system" }</label>
                        <select id="hist-system" onchange={on_system}>
                            <option value="all" selected={*system == "all"}>{ "all systems (pooled)" }</option>
                            { for r.systems.iter().map(|s| html! {
                                <option value={s.clone()} selected={*system == *s}>{ s.clone() }</option>
                            }) }
                        </select>
                    </div>
                    <div class="field buttons">
                        <button type="button" id="export-svg" class="small" onclick={export_svg}>{ "Export SVG" }</button>
                        <button type="button" id="export-png" class="small" onclick={export_png}>{ "Export PNG" }</button>
                    </div>
                </div>
                <canvas id="delta-histogram" ref={canvas} width={HISTOGRAM_SIZE.0.to_string()} height={HISTOGRAM_SIZE.1.to_string()}
                    role="img" aria-label={plot.as_ref().map(|p| p.title.clone()).unwrap_or_default()}></canvas>
                if let Some(d) = &dist {
                    <p class="hist-stats" id="hist-stats" data-n={d.n.to_string()}>
                        { format!("n = {} queries; mean |\u{0394}| = ", count(d.n)) }
                        <span class="num" data-col="mean_abs" data-value={crate::report::num(d.mean_abs)}>{ fmt4(d.mean_abs) }</span>
                        { "; median |\u{0394}| = " }
                        <span class="num" data-col="median_abs" data-value={crate::report::num(d.median_abs)}>{ fmt4(d.median_abs) }</span>
                        { "; |\u{0394}| \u{2265} 0.1 for " }
                        <span class="num" data-col="share_ge_0_1" data-value={crate::report::num(d.share_ge_0_1)}>{ pct(d.share_ge_0_1) }</span>
                        { " of them." }
                    </p>
                }
                if let Some(e) = &*draw_error {
                    <p class="error" role="alert">{ e.clone() }</p>
                }
            }
        </Card>
    }
}
