//! The instance view: one item as the files state it ([`ItemText`]), on every page whose items
//! carry text (the comparison's arms, the labels' raters). Every text is shown as text; a long
//! one is cut and its length said.

use std::rc::Rc;

use yew::prelude::*;

use super::Section;
use super::export::{lazy_exports, to_json};
use super::grid::RowAttrs;
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

/// A page's item view: the item asked for and its answer, kept in the page's view.
#[derive(Debug, Default)]
pub struct ItemShown {
    pub shown: Option<String>,
    pub text: Option<Rc<ItemText>>,
    pub loading: bool,
    pub error: Option<String>,
}

impl ItemShown {
    /// `item` asked for: the view waits for its rows.
    pub fn ask(&mut self, item: String) {
        *self = ItemShown { shown: Some(item), loading: true, ..ItemShown::default() };
    }

    /// A result arrived (`fresh`: of new files): the item shown is asked again under the new
    /// settings, or forgotten with the old files (it may be gone).
    pub fn after_result(&mut self, fresh: bool) -> Option<String> {
        match self.shown.clone() {
            Some(item) if !fresh => {
                self.ask(item.clone());
                Some(item)
            }
            _ => {
                *self = ItemShown::default();
                None
            }
        }
    }

    /// The answer to the question asked (`None`: cancelled); `true` when the view shows the
    /// error itself.
    pub fn answered(&mut self, answer: Option<Result<Rc<ItemText>, String>>) -> bool {
        self.loading = false;
        match answer {
            Some(Ok(t)) => self.text = Some(t),
            Some(Err(e)) => {
                self.error = Some(e);
                return true;
            }
            None => {}
        }
        false
    }

    /// A table row that opens `item`: click or Enter; the item shown is marked.
    pub fn row(&self, attrs: RowAttrs, item: &str, on_item: &Callback<String>) -> RowAttrs {
        let shown = self.shown.as_deref() == Some(item);
        let (on_item, item) = (on_item.clone(), item.to_string());
        let mut attrs = attrs
            .with_class(shown.then_some("selected"))
            .on_activate(Callback::from(move |_: ()| on_item.emit(item.clone())));
        if shown {
            attrs.data.push(("aria-current", "true".into()));
        }
        attrs
    }

    /// The view under the table: reading, the error, or the item (`#{prefix}item-text`).
    pub fn view(&self, prefix: &'static str, who: &'static str) -> Html {
        html! {
            <>
                if self.loading {
                    <p class="muted" id={format!("{prefix}item-loading")}>{ "Reading the item's rows\u{2026}" }</p>
                }
                if let Some(e) = &self.error {
                    <p class="error" id={format!("{prefix}item-error")} role="alert">{ e.clone() }</p>
                }
                if let Some(t) = &self.text {
                    <ItemTextView text={t.clone()} {prefix} {who} />
                }
            </>
        }
    }
}
