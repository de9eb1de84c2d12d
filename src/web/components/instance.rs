//! The instance view: one item as the files state it ([`ItemText`]), on every page whose items
//! carry text (the comparison's arms, the labels' raters). Every text is shown as text; a long
//! one is cut and its length said.

use std::rc::Rc;

use yew::prelude::*;

use super::Section;
use super::export::{lazy_exports, to_json};
use crate::report::instance::{ItemText, TextField, table};
use crate::web::format::count;

#[derive(Properties, PartialEq)]
pub struct ItemTextProps {
    pub text: Rc<ItemText>,
    /// The ids' prefix: `` on the comparison page (`#item-text`), `labels-` on the labels page
    /// (`#labels-item-text`).
    #[prop_or_default]
    pub prefix: AttrValue,
    /// Who a column of rows belongs to: `arm` or `rater` (the CSV's first header too).
    #[prop_or(AttrValue::Static("arm"))]
    pub who: AttrValue,
}

/// `#{prefix}item-text`: the cells the item's rows share (question, gold answer), then each
/// arm's (rater's) rows side by side with their file and line; exports as
/// `--show-item ITEM --format csv` gives it.
#[function_component(ItemTextView)]
pub fn item_text_view(props: &ItemTextProps) -> Html {
    let t = &props.text;
    let p = props.prefix.as_str();
    let who = props.who.to_string();
    let cell = |f: &TextField| {
        html! {
            <>
                <dt data-col={f.column.clone()}>{ f.column.clone() }</dt>
                <dd data-col={f.column.clone()} class="item-text">
                    { f.text.clone() }
                    if let Some(n) = f.chars {
                        <span class="muted">{ format!(" (cut: {} characters in all)", count(n)) }</span>
                    }
                </dd>
            </>
        }
    };
    let exports = {
        let (a, b, who) = (t.clone(), t.clone(), who.clone());
        lazy_exports(
            "item-text",
            "item_text",
            move || table(&a, &who).to_csv().map_err(|e| e.to_string()),
            move || to_json(&*b),
        )
    };
    let intro = html! {
        <p class="intro">{ format!("Item {} ({}), as the files state it: what every row of the item shares, then each {who}'s rows with their file and line.", t.item, t.key.join(" | ")) }</p>
    };
    html! {
        <Section id={format!("{p}item-text")} title={format!("Item {}", t.item)} {exports} {intro}>
            <div id={format!("{p}item-text-body")} data-item={t.item.clone()}>
                if !t.shared.is_empty() {
                    <dl class="item-shared" id={format!("{p}item-shared")}>{ for t.shared.iter().map(cell) }</dl>
                }
                <div class="item-arms">
                    { for t.arms.iter().map(|a| html! {
                        <section class="item-arm" data-arm={a.arm.clone()} aria-label={a.arm.clone()}>
                            <h3>{ a.arm.clone() }</h3>
                            if a.rows.is_empty() {
                                <p class="muted">{ "No row of this item." }</p>
                            }
                            { for a.rows.iter().map(|r| html! {
                                <div class="item-row" data-at={r.at.clone()}>
                                    <p class="muted"><code>{ r.at.clone() }</code></p>
                                    if r.fields.is_empty() {
                                        <p class="muted">{ "No other cell in this row: every one is shared or missing." }</p>
                                    }
                                    <dl>{ for r.fields.iter().map(cell) }</dl>
                                </div>
                            }) }
                            if a.more_rows > 0 {
                                <p class="muted">{ format!("{} more rows of this item and {who} are not shown.", count(a.more_rows)) }</p>
                            }
                        </section>
                    }) }
                </div>
            </div>
        </Section>
    }
}
