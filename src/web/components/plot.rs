//! Any [`Plot`] on a `<canvas>`, with "SVG" and "PNG" export buttons: the canvas is drawn by
//! the plot's own plotters code through plotters-canvas, the SVG export runs the very same
//! code on plotters' SVG backend, and the PNG export saves the canvas (`toDataURL`).
//! Clicks are reported in canvas pixels (the plot's own coordinates), so a page can hit-test
//! them against the plot's layout.

use plotters::prelude::IntoDrawingArea;
use plotters_canvas::CanvasBackend;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use crate::plots::{Plot, PlotError, plot_svg};
use crate::web::dom::{click_link, download_text};

/// Draws `plot` on `canvas` (resizing it to the plot's size first).
pub fn draw_plot<P: Plot>(canvas: HtmlCanvasElement, plot: &P) -> Result<(), PlotError> {
    let (w, h) = plot.size();
    if canvas.width() != w {
        canvas.set_width(w);
    }
    if canvas.height() != h {
        canvas.set_height(h);
    }
    let backend =
        CanvasBackend::with_canvas_object(canvas).ok_or_else(|| PlotError("the canvas has no 2d context".into()))?;
    let root = backend.into_drawing_area();
    plot.draw(&root)?;
    root.present().map_err(|e| PlotError(format!("{e:?}")))
}

/// The SVG export of a plot as a download.
pub fn download_svg<P: Plot>(plot: &P, filename: &str) -> Result<(), String> {
    let svg = plot_svg(plot).map_err(|e| e.to_string())?;
    download_text(filename, "image/svg+xml", &svg)
}

/// The PNG export of a canvas as a download.
pub fn download_png(canvas: &HtmlCanvasElement, filename: &str) -> Result<(), String> {
    let url = canvas.to_data_url_with_type("image/png").map_err(|e| format!("{e:?}"))?;
    click_link(filename, &url)
}

/// A click position in canvas pixels (CSS may scale the canvas on screen).
pub fn canvas_point(canvas: &HtmlCanvasElement, e: &MouseEvent) -> (f64, f64) {
    let sx = if canvas.client_width() > 0 { canvas.width() as f64 / canvas.client_width() as f64 } else { 1.0 };
    let sy = if canvas.client_height() > 0 { canvas.height() as f64 / canvas.client_height() as f64 } else { 1.0 };
    (e.offset_x() as f64 * sx, e.offset_y() as f64 * sy)
}

#[derive(Properties, PartialEq)]
pub struct PlotCanvasProps<P: PartialEq> {
    /// The canvas id; the export buttons are `{id}-svg` and `{id}-png`.
    pub id: AttrValue,
    pub plot: P,
    /// Download name without extension.
    pub filename: AttrValue,
    /// Clicks, in canvas pixels.
    #[prop_or_default]
    pub on_click: Option<Callback<(f64, f64)>>,
    /// Shown under the canvas (what a click does, etc.).
    #[prop_or_default]
    pub caption: Option<AttrValue>,
}

/// `<canvas id=…>` with its export buttons.
#[function_component(PlotCanvas)]
pub fn plot_canvas<P: Plot + PartialEq + Clone + 'static>(props: &PlotCanvasProps<P>) -> Html {
    let canvas = use_node_ref();
    let draw_error = use_state(|| None::<String>);
    {
        let canvas = canvas.clone();
        let draw_error = draw_error.clone();
        use_effect_with(props.plot.clone(), move |plot| {
            if let Some(c) = canvas.cast::<HtmlCanvasElement>() {
                let result = draw_plot(c, plot).err().map(|e| e.to_string());
                if *draw_error != result {
                    draw_error.set(result);
                }
            }
        });
    }
    let export_svg = {
        let plot = props.plot.clone();
        let name = format!("{}.svg", props.filename);
        Callback::from(move |_: MouseEvent| {
            if let Err(e) = download_svg(&plot, &name) {
                gloo::console::error!(format!("memaudit: SVG export failed: {e}"));
            }
        })
    };
    let export_png = {
        let canvas = canvas.clone();
        let name = format!("{}.png", props.filename);
        Callback::from(move |_: MouseEvent| {
            let Some(c) = canvas.cast::<HtmlCanvasElement>() else { return };
            if let Err(e) = download_png(&c, &name) {
                gloo::console::error!(format!("memaudit: PNG export failed: {e}"));
            }
        })
    };
    let onclick = props.on_click.clone().map(|cb| {
        let canvas = canvas.clone();
        Callback::from(move |e: MouseEvent| {
            if let Some(c) = canvas.cast::<HtmlCanvasElement>() {
                cb.emit(canvas_point(&c, &e));
            }
        })
    });
    let (w, h) = props.plot.size();
    html! {
        <div class="plot">
            <div class="plot-exports">
                <button type="button" class="small" id={format!("{}-svg", props.id)} onclick={export_svg}
                    title="the same drawing as SVG">{ "Export SVG" }</button>
                <button type="button" class="small" id={format!("{}-png", props.id)} onclick={export_png}
                    title="this canvas as PNG">{ "Export PNG" }</button>
            </div>
            <canvas id={props.id.clone()} ref={canvas} width={w.to_string()} height={h.to_string()} role="img"
                aria-label={props.plot.title()} class={classes!(props.on_click.is_some().then_some("clickable"))} {onclick}></canvas>
            if let Some(c) = &props.caption {
                <p class="plot-caption muted">{ c.clone() }</p>
            }
            if let Some(e) = &*draw_error {
                <p class="error" role="alert">{ e.clone() }</p>
            }
        </div>
    }
}
