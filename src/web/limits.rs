//! The viewer's input budgets ([`crate::ingest::Limits`]): one setting for the whole page, in
//! the header's "Input limits" panel, sent with every run to the worker, which checks them as it
//! reads (the CLI's `--max-bytes` and `--max-rows`).
//!
//! The budgets in force are written on the panel itself (`#limits[data-max-bytes]`,
//! `[data-max-rows]`), where every page module reads them ([`current`]): the panel is drawn by
//! the module that was loaded first, and the other module's pages share the document, not its
//! memory ([`super::bridge`]).

use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::ingest::Limits;

/// The budgets the next run is sent with: those in force on the panel (the defaults without
/// one).
pub fn current() -> Limits {
    let panel = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("limits"));
    let read = |name: &str| panel.as_ref()?.get_attribute(name)?.parse::<u64>().ok();
    match (read("data-max-bytes"), read("data-max-rows")) {
        (Some(max_bytes), Some(max_rows)) => Limits { max_bytes, max_rows },
        _ => Limits::DEFAULT,
    }
}

const MIB: u64 = 1 << 20;

/// Parses the panel's two fields (MiB, rows) into budgets, or says which field is wrong.
pub fn parse(mib: &str, rows: &str) -> Result<Limits, String> {
    let whole = |field: &str, v: &str| -> Result<u64, String> {
        v.trim().replace([',', '_'], "").parse().map_err(|_| format!("{field}: `{}` is not a whole number", v.trim()))
    };
    let limits = Limits {
        max_bytes: whole("largest file (MiB)", mib)?.saturating_mul(MIB),
        max_rows: whole("most rows per file", rows)?,
    };
    limits.validate().map_err(|e| e.to_string())?;
    Ok(limits)
}

pub enum Msg {
    Apply,
    Reset,
}

/// The header's panel: the two budgets, applied to the next run.
pub struct InputLimits {
    mib: NodeRef,
    rows: NodeRef,
    /// In force (written on the panel for [`current`]).
    now: Limits,
    error: Option<String>,
}

impl Component for InputLimits {
    type Message = Msg;
    type Properties = ();

    fn create(_ctx: &Context<Self>) -> Self {
        InputLimits { mib: NodeRef::default(), rows: NodeRef::default(), now: Limits::DEFAULT, error: None }
    }

    fn update(&mut self, _ctx: &Context<Self>, msg: Msg) -> bool {
        let value = |r: &NodeRef| r.cast::<HtmlInputElement>().map(|i| i.value()).unwrap_or_default();
        match msg {
            Msg::Apply => match parse(&value(&self.mib), &value(&self.rows)) {
                Ok(l) => {
                    self.now = l;
                    self.error = None;
                }
                Err(e) => self.error = Some(e),
            },
            Msg::Reset => {
                self.now = Limits::DEFAULT;
                for (r, v) in [(&self.mib, Limits::DEFAULT.max_bytes / MIB), (&self.rows, Limits::DEFAULT.max_rows)] {
                    if let Some(i) = r.cast::<HtmlInputElement>() {
                        i.set_value(&v.to_string());
                    }
                }
                self.error = None;
            }
        }
        true
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let now = self.now;
        let onsubmit = ctx.link().callback(|e: SubmitEvent| {
            e.prevent_default();
            Msg::Apply
        });
        let reset = ctx.link().callback(|_| Msg::Reset);
        html! {
            <details id="limits" class="limits" data-max-bytes={now.max_bytes.to_string()}
                data-max-rows={now.max_rows.to_string()}>
                <summary>{ "Input limits" }</summary>
                <form id="limits-form" novalidate=true {onsubmit}>
                    <p class="hint">{ "Files over a limit are refused with their name instead of the tab running out \
                        of memory (the CLI's --max-bytes and --max-rows). Streamed TREC runs (trec-eval) are \
                        not bounded by them." }</p>
                    <label>{ "largest file (MiB, after gzip is undone) " }
                        <input id="limits-max-mib" ref={self.mib.clone()} type="number" min="1"
                            value={(now.max_bytes / MIB).to_string()} /></label>
                    <label>{ "most rows per file (lines; objects of a JSON document) " }
                        <input id="limits-max-rows" ref={self.rows.clone()} type="number" min="1"
                            value={now.max_rows.to_string()} /></label>
                    <button id="limits-apply" type="submit">{ "Apply" }</button>
                    <button id="limits-reset" type="button" onclick={reset}>{ "Defaults" }</button>
                    <span id="limits-now" class="hint">{ format!("in force: {} MiB, {} rows", now.max_bytes / MIB, now.max_rows) }</span>
                    if let Some(e) = &self.error {
                        <p id="limits-error" class="error" role="alert">{ e.clone() }</p>
                    }
                </form>
            </details>
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fields_parse_into_budgets_or_name_the_field() {
        assert_eq!(parse("512", "1,000,000"), Ok(Limits { max_bytes: 512 << 20, max_rows: 1_000_000 }));
        assert!(parse("x", "5").unwrap_err().starts_with("largest file (MiB)"));
        assert!(parse("5", "").unwrap_err().starts_with("most rows per file"));
        assert!(parse("0", "5").unwrap_err().contains("max_bytes"));
        assert!(parse("5", "0").unwrap_err().contains("max_rows"));
    }
}
