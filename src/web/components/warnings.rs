//! Counted warnings of any reader (outcomes, probe, reclaim), as the rescoring page's reading
//! summary shows them: one line per kind with its count, examples on opening.

use serde::Serialize;
use yew::prelude::*;

use crate::ingest::Severity;
use crate::ingest::warnings::Warning;
use crate::web::format::count;

fn kind_name<K: Serialize>(k: &K) -> String {
    serde_json::to_value(k).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

/// One counted warning: `li.warning[data-kind][data-count][data-stage]`, its severity, count and
/// message, its examples on opening.
pub fn warning_item<K: Serialize>(stage: &'static str, w: &Warning<K>) -> Html {
    let sev = match w.severity {
        Severity::Note => "note",
        Severity::Warning => "warning",
    };
    let kind = kind_name(&w.kind);
    html! {
        <li class={classes!("warning", sev)} data-kind={kind.clone()} data-count={w.count.to_string()} data-stage={stage}>
            <details>
                <summary>
                    <span class={classes!("badge", sev)}>{ sev }</span>
                    <strong>{ format!(" {} \u{00d7} ", count(w.count)) }</strong>
                    { w.message.clone() }
                    <span class="muted">{ format!(" ({stage}: {kind})") }</span>
                </summary>
                <ul class="examples">
                    { for w.examples.iter().map(|e| html! { <li>{ e.clone() }</li> }) }
                </ul>
            </details>
        </li>
    }
}

/// `<ul class="warnings" id={id}>` with `li.warning[data-kind][data-count][data-stage]`;
/// "No warnings" when empty.
pub fn warnings_list<'a, K: Serialize + 'a>(
    id: &str,
    groups: impl IntoIterator<Item = (&'static str, &'a Warning<K>)>,
) -> Html {
    let items: Vec<Html> = groups.into_iter().map(|(stage, w)| warning_item(stage, w)).collect();
    if items.is_empty() {
        return html! { <p class="ok" id={id.to_string()}>{ "No warnings: everything read was used as is." }</p> };
    }
    html! {
        <ul class="warnings" id={id.to_string()}>{ for items }</ul>
    }
}
