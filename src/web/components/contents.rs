//! "On this page": a table of contents of a page's result cards, so that a long page (some reach
//! ten thousand pixels) can be crossed in one click.
//!
//! The cards are read from the page as drawn — each `<section class="card">` with an id below
//! the root, named by its `<h2>` — once the results have been drawn (a zero-delay timer after
//! each new result), so no page states its cards twice and a card a result does not have is
//! not listed. A link brings its card into view and moves the focus to it; the URL's hash,
//! which names the page shown, does not change.

use wasm_bindgen::JsCast;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ContentsProps {
    /// The id of the element whose cards are listed (the page's results).
    pub root: AttrValue,
    /// The nav's id.
    pub id: AttrValue,
    /// Changes with every new result: the cards are read again.
    pub revision: usize,
    /// Places listed after the cards, as (element id, label): the settings form.
    #[prop_or_default]
    pub after: Vec<(AttrValue, AttrValue)>,
}

/// The cards below `root`: (id, title), in page order.
fn cards(root: &str) -> Vec<(String, String)> {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return Vec::new() };
    let Some(root) = doc.get_element_by_id(root) else { return Vec::new() };
    let Ok(list) = root.query_selector_all("section.card[id]") else { return Vec::new() };
    (0..list.length())
        .filter_map(|i| list.item(i)?.dyn_into::<web_sys::Element>().ok())
        .filter_map(|el| {
            let title = el.query_selector("h2").ok()??.text_content()?;
            let title = title.trim().to_string();
            (!title.is_empty()).then(|| (el.id(), title))
        })
        .collect()
}

#[function_component(Contents)]
pub fn contents(props: &ContentsProps) -> Html {
    let found = use_state(Vec::<(String, String)>::new);
    {
        let (found, root) = (found.clone(), props.root.to_string());
        use_effect_with(props.revision, move |_| {
            // After this render pass: the result's cards are drawn by then.
            let timer = gloo::timers::callback::Timeout::new(0, move || {
                let now = cards(&root);
                if *found != now {
                    found.set(now);
                }
            });
            move || drop(timer)
        });
    }
    let link = |id: String, label: String| {
        let target = id.clone();
        let onclick = Callback::from(move |e: MouseEvent| {
            e.prevent_default();
            crate::web::dom::bring_into_view(&target);
        });
        html! { <li><a href="#" data-card={id} {onclick}>{ label }</a></li> }
    };
    if found.is_empty() {
        return html! {};
    }
    html! {
        <nav class="contents" id={props.id.clone()} aria-label="on this page">
            <span class="muted">{ "On this page: " }</span>
            <ul>
                { for found.iter().map(|(id, title)| link(id.clone(), title.clone())) }
                { for props.after.iter().map(|(id, label)| link(id.to_string(), label.to_string())) }
            </ul>
        </nav>
    }
}
