//! A request's settings form, drawn from its [`fields!`](crate::fields!) declaration: one text
//! per field as edited ([`FieldDraft`]), parsed into the request on run (an error names the
//! field by its label), restored from a request, and the page's words for the core's mentions
//! of a setting ([`page_words`]).

use std::collections::BTreeMap;
use std::marker::PhantomData;

use yew::prelude::*;

use crate::fields::{Field, Fields, Kind};

/// The settings as edited: the text of every field of `R`.
#[derive(Debug)]
pub struct FieldDraft<R> {
    texts: BTreeMap<&'static str, String>,
    _request: PhantomData<fn() -> R>,
}

impl<R> Clone for FieldDraft<R> {
    fn clone(&self) -> Self {
        FieldDraft { texts: self.texts.clone(), _request: PhantomData }
    }
}

impl<R> PartialEq for FieldDraft<R> {
    fn eq(&self, other: &Self) -> bool {
        self.texts == other.texts
    }
}

impl<R: Fields> Default for FieldDraft<R> {
    fn default() -> Self {
        FieldDraft::of(&R::default())
    }
}

impl<R: Fields> FieldDraft<R> {
    /// The texts of a request's fields (restoring a form from a result).
    pub fn of(request: &R) -> Self {
        let texts = R::fields().into_iter().map(|f| (f.name, request.text(f.name).unwrap_or_default())).collect();
        FieldDraft { texts, _request: PhantomData }
    }

    /// The text of field `name` (empty for an unknown name).
    pub fn text(&self, name: &str) -> &str {
        self.texts.get(name).map_or("", String::as_str)
    }

    /// Sets the text of field `name` (an unknown name is ignored).
    pub fn set(&mut self, name: &str, text: String) {
        if let Some(f) = R::field(name) {
            self.texts.insert(f.name, text);
        }
    }

    /// `base` with every field set from its text, or what cannot be read, naming the field by
    /// its label (ranges are checked by the core's validate).
    pub fn parse(&self, mut base: R) -> Result<R, String> {
        for f in R::fields() {
            base.set_text(f.name, self.text(f.name)).map_err(|e| format!("{}: {e}", f.label))?;
        }
        Ok(base)
    }
}

/// The id of a field's input on a page: the page's own id for it in `ids` (kept for links and
/// tests), else `{prefix}-{name with dashes}` (`calibration-ece-bins`).
pub fn field_id(prefix: &str, f: &Field, ids: &[(&str, &str)]) -> String {
    match ids.iter().find(|(n, _)| *n == f.name) {
        Some((_, id)) => id.to_string(),
        None => format!("{prefix}-{}", f.name.replace('_', "-")),
    }
}

/// The field of `fields` a setting's name refers to (`ece-bins` and `ece_bins` alike).
pub fn declared<'a>(fields: &[&'a Field], name: &str) -> Option<&'a Field> {
    let key = name.replace('-', "_");
    fields.iter().copied().find(|f| f.name == key)
}

/// How a page names a setting a message mentions: its label in quotes when `fields` has it,
/// else its name in words.
pub fn page_word(fields: &[&Field], name: &str) -> String {
    match (declared(fields, name), name) {
        (Some(f), _) => format!("\u{201c}{}\u{201d}", f.label),
        (None, "max_rows") => "\u{201c}most rows per file\u{201d} under Input limits".to_string(),
        (None, "max_bytes") => "\u{201c}largest file\u{201d} under Input limits".to_string(),
        (None, "source_file") => {
            "a file whose name contains \u{201c}source\u{201d}, dropped with the notes".to_string()
        }
        (None, _) => format!("\u{201c}{}\u{201d}", name.replace(['-', '_'], " ")),
    }
}

/// The page's words for the mentions of settings in `text` ([`crate::fields::render_mentions`]).
pub fn page_words(fields: &[&Field], text: &str) -> String {
    crate::fields::render_mentions(text, |n| page_word(fields, n))
}

/// One field's input, labelled, with its help (and the columns looked for) as its title.
pub fn field_input(id: String, f: &'static Field, value: &str, on_text: Callback<String>) -> Html {
    let title = f.help_with_candidates();
    match f.kind {
        Kind::Choice(names) => {
            let onchange = on_text.reform(|e: Event| e.target_unchecked_into::<web_sys::HtmlSelectElement>().value());
            html! {
                <div class="field">
                    <label for={id.clone()} title={title.clone()}>{ f.label }</label>
                    <select id={id} {onchange} {title}>
                        if f.optional {
                            <option value="" selected={value.is_empty()}>{ "(not stated)" }</option>
                        }
                        { for names().into_iter().map(|v| html! { <option value={v} selected={v == value}>{ v }</option> }) }
                    </select>
                </div>
            }
        }
        Kind::Flag => {
            let onchange =
                on_text.reform(|e: Event| e.target_unchecked_into::<web_sys::HtmlInputElement>().checked().to_string());
            html! {
                <div class="field checkbox">
                    <label for={id.clone()} {title}>
                        <input type="checkbox" id={id} checked={value == "true"} {onchange} />{ format!(" {}", f.label) }
                    </label>
                </div>
            }
        }
        Kind::Items => {
            let oninput =
                on_text.reform(|e: InputEvent| e.target_unchecked_into::<web_sys::HtmlTextAreaElement>().value());
            html! {
                <div class="field grow">
                    <label for={id.clone()} title={title.clone()}>{ f.label }</label>
                    <textarea id={id} rows="1" value={value.to_string()} {oninput} {title} placeholder="every item" />
                </div>
            }
        }
        Kind::Text | Kind::List | Kind::Choices(_) | Kind::Entries | Kind::Whole | Kind::Number | Kind::Switch => {
            let oninput =
                on_text.reform(|e: InputEvent| e.target_unchecked_into::<web_sys::HtmlInputElement>().value());
            html! {
                <div class="field">
                    <label for={id.clone()} title={title.clone()}>{ f.label }</label>
                    <input id={id} type="text" value={value.to_string()} {oninput} {title} />
                </div>
            }
        }
    }
}

/// A field whose value is one of the loaded data's names (a column, an arm): a select of
/// `options`, with `none` for "not stated".
pub fn choose_from(
    id: String,
    f: &'static Field,
    value: &str,
    options: &[String],
    none: &'static str,
    on_text: Callback<String>,
) -> Html {
    let onchange = on_text.reform(|e: Event| e.target_unchecked_into::<web_sys::HtmlSelectElement>().value());
    let title = f.help_with_candidates();
    html! {
        <div class="field">
            <label for={id.clone()} title={title.clone()}>{ f.label }</label>
            <select id={id} {onchange} {title}>
                <option value="" selected={value.is_empty()}>{ none }</option>
                { for options.iter().map(|o| html! { <option value={o.clone()} selected={o == value}>{ o.clone() }</option> }) }
            </select>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calibration::{CalibrationRequest, Route};

    #[test]
    fn a_draft_parses_to_the_request_and_restores_from_it() {
        let mut d = FieldDraft::<CalibrationRequest>::default();
        assert_eq!(d.parse(CalibrationRequest::default()).unwrap(), CalibrationRequest::default());
        d.set("ece_bins", "15".into());
        d.set("route", "at_least".into());
        d.set("fit", " 0, 1 ".into());
        let r = d.parse(CalibrationRequest::default()).unwrap();
        assert_eq!((r.ece_bins, r.route, r.fit.clone()), (15, Route::AtLeast, vec!["0".to_string(), "1".to_string()]));
        assert_eq!(FieldDraft::of(&r).text("fit"), "0,1");
        d.set("ece_bins", "many".into());
        assert_eq!(d.parse(CalibrationRequest::default()).unwrap_err(), "ECE bins: `many` is not a whole number");
    }

    #[test]
    fn mentions_read_as_the_pages_labels() {
        let text = format!("state it with {}", crate::fields::mention("with_memory"));
        let fields = <CalibrationRequest as Fields>::fields();
        assert_eq!(page_words(&fields, &text), "state it with \u{201c}outcome with memory\u{201d}");
        assert_eq!(page_word(&fields, "ece-bins"), "\u{201c}ECE bins\u{201d}");
        // The cells' settings are fields of the request like the others.
        assert_eq!(page_word(&fields, "common_items"), "\u{201c}common items only\u{201d}");
        assert_eq!(page_word(&fields, "held_out"), "\u{201c}held out\u{201d}", "a name no field has, in words");
    }
}
