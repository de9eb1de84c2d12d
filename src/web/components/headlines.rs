//! "What the data says": a report's headlines ([`crate::headline`], computed by the core as the
//! CLI prints them), most severe first, each with its evidence and a button that brings the
//! card showing it into view. Shown at the top of every page's results.

use std::rc::Rc;

use yew::prelude::*;

use crate::headline::{Headline, Level};
use crate::web::dom::bring_into_view;

/// Which card shows which table: `(table name, card element id)`.
pub type Cards = &'static [(&'static str, &'static str)];

#[derive(Properties, PartialEq)]
pub struct HeadlinesProps {
    /// The panel's id (`headlines` on the rescoring page, `{slug}-headlines` elsewhere).
    pub id: AttrValue,
    pub headlines: Rc<Vec<Headline>>,
    pub cards: Cards,
    /// Buttons shown with the panel (the report to attach: [`attach_buttons`]).
    #[prop_or_default]
    pub exports: Html,
}

/// "Report to attach" (one self-contained HTML file) and its Markdown variant: the same
/// [`crate::attach::Attachment`] as `memaudit report`, from the report on screen and the input
/// files it rests on ([`crate::capability::Capability::inputs`]).
pub fn attach_buttons<C: crate::capability::Capability, B: 'static>(
    prefix: &str,
    holder: Rc<B>,
    report_of: fn(&B) -> &C::Report,
    headlines: Rc<Vec<Headline>>,
    inputs: Rc<Vec<crate::attach::InputInfo>>,
) -> Html {
    let slug = crate::web::pages::PageInfo::slug(C::ANALYSIS);
    let button = |kind: &'static str, label: &'static str, ext: &'static str, mime: &'static str| {
        let (holder, inputs, headlines) = (holder.clone(), inputs.clone(), headlines.clone());
        let filename = format!("memaudit-{slug}-report.{ext}");
        let onclick = Callback::from(move |_: MouseEvent| {
            let a = crate::attach::attachment_with::<C>(
                report_of(&holder),
                (*headlines).clone(),
                (*inputs).clone(),
                "the memaudit viewer",
            );
            let text = if kind == "html" { crate::attach::html(&a) } else { crate::attach::markdown(&a) };
            if let Err(e) = crate::web::dom::download_text(&filename, mime, &text) {
                gloo::console::error!(format!("memaudit: could not export {filename}: {e}"));
            }
        });
        html! {
            <button type="button" class="small" id={format!("{prefix}report-{kind}")} data-export="report" data-kind={kind} {onclick}
                title="headlines, every table, every plot, the settings and the input files with SHA-256, in one file that opens offline">
                { label }</button>
        }
    };
    html! {
        <>
            { button("html", "Report to attach (HTML)", "html", "text/html") }
            { button("md", "Markdown", "md", "text/markdown") }
        </>
    }
}

fn level_label(level: Level) -> &'static str {
    match level {
        Level::Alert => "Alert",
        Level::Finding => "Finding",
        Level::Context => "Context",
    }
}

/// Brings `el` into view when its top is not on screen (above the window, or in its lowest
/// fifth): a new result's headlines are what its reader looks for first.
fn reveal(el: &web_sys::Element) {
    let Some(window) = web_sys::window() else { return };
    let height = window.inner_height().ok().and_then(|v| v.as_f64()).unwrap_or(0.0);
    let top = el.get_bounding_client_rect().top();
    if top < 0.0 || top > height * 0.8 {
        el.scroll_into_view();
    }
}

#[function_component(HeadlinesPanel)]
pub fn headlines_panel(props: &HeadlinesProps) -> Html {
    let id = props.id.to_string();
    // Each new result (a new list of headlines: "Try the demo", a drop, a run) brings the panel
    // into view once.
    let panel = use_node_ref();
    {
        let panel = panel.clone();
        use_effect_with(Rc::as_ptr(&props.headlines) as usize, move |_| {
            if let Some(el) = panel.cast::<web_sys::Element>() {
                reveal(&el);
            }
        });
    }
    let items = props.headlines.iter().enumerate().map(|(i, h)| {
        let card = h.table.as_deref().and_then(|t| props.cards.iter().find(|(name, _)| *name == t)).map(|(_, c)| *c);
        let link = card.map(|c| {
            let onclick = Callback::from(move |_: MouseEvent| bring_into_view(c));
            html! {
                <button type="button" class="link headline-link" data-card={c} {onclick}
                    title={format!("scroll to the card with the evidence of headline {}", i + 1)}>
                    { "show the table \u{2193}" }</button>
            }
        });
        html! {
            <li class="headline" data-level={h.level.name()} data-table={h.table.clone().unwrap_or_default()}>
                <span class="headline-level">{ level_label(h.level) }</span>
                <span class="headline-text">{ h.text.clone() }</span>
                if !h.evidence.is_empty() {
                    <span class="headline-evidence">{ h.evidence.clone() }</span>
                }
                { for link }
            </li>
        }
    });
    html! {
        <section class="card headlines" id={id.clone()} aria-labelledby={format!("{id}-title")} ref={panel}>
            <div class="card-head">
                <h2 id={format!("{id}-title")}>{ "What the data says" }</h2>
                <div class="exports">{ props.exports.clone() }</div>
            </div>
            if props.headlines.is_empty() {
                <p class="muted">{ "Nothing stands out: the tables below have every number." }</p>
            } else {
                <ol class="headline-list">{ for items }</ol>
            }
            <p class="muted small">{ "The same list is the first section of the CLI's text output and the headlines array of its JSON output." }</p>
        </section>
    }
}
