//! The settings panel: every convention that changes a number, drawn from the settings'
//! declaration ([`Settings`]'s fields). Applying re-runs the audit in the worker on the kept
//! dataset (files are not read again).

use yew::prelude::*;

use crate::conventions::Settings;
use crate::fields::Fields;
use crate::web::components::fields::{FieldDraft, field_input};

/// The form's text, parsed on submit.
pub type Draft = FieldDraft<Settings>;

/// The settings of a draft, or what is wrong with it (naming the field by its label).
pub fn parse(draft: &Draft) -> Result<Settings, String> {
    let s = draft.parse(Settings::default())?;
    s.validate().map_err(|e| e.to_string())?;
    Ok(s)
}

#[derive(Properties, PartialEq)]
pub struct SettingsProps {
    /// The settings of the results on screen.
    pub applied: Settings,
    /// Whether a dataset is loaded (otherwise the settings apply to the next load).
    pub has_data: bool,
    pub busy: bool,
    pub on_apply: Callback<Settings>,
}

/// `#settings`: each field's input has the field's name as its id (`#k`, `#order`).
#[function_component(SettingsPanel)]
pub fn settings_panel(props: &SettingsProps) -> Html {
    let draft = use_state(|| Draft::of(&props.applied));
    let error = use_state(|| None::<String>);
    {
        // New results arrived (or were replaced): show their settings.
        let draft = draft.clone();
        let error = error.clone();
        use_effect_with(props.applied.clone(), move |applied| {
            draft.set(Draft::of(applied));
            error.set(None);
        });
    }
    let onsubmit = {
        let draft = draft.clone();
        let error = error.clone();
        let on_apply = props.on_apply.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            match parse(&draft) {
                Ok(s) => {
                    error.set(None);
                    on_apply.emit(s);
                }
                Err(msg) => error.set(Some(msg)),
            }
        })
    };
    let reset = {
        let draft = draft.clone();
        let error = error.clone();
        Callback::from(move |_: MouseEvent| {
            draft.set(Draft::default());
            error.set(None);
        })
    };
    let changed = parse(&draft).map(|s| s != props.applied).unwrap_or(true);
    let input = |f: &'static crate::fields::Field| {
        let handle = draft.clone();
        let on_text = Callback::from(move |text: String| {
            let mut d = (*handle).clone();
            d.set(f.name, text);
            handle.set(d);
        });
        field_input(f.name.to_string(), f, draft.text(f.name), on_text)
    };
    html! {
        <form id="settings" class="settings" {onsubmit} aria-labelledby="settings-title">
            <h2 id="settings-title">{ "Settings" }</h2>
            <div class="fields">
                { for Settings::fields().into_iter().map(input) }
            </div>
            <div class="actions">
                <button type="submit" id="apply-settings" disabled={props.busy}>
                    { if props.has_data { "Re-score" } else { "Use these settings" } }
                </button>
                <button type="button" class="secondary" onclick={reset}>{ "Defaults" }</button>
                if changed && props.has_data {
                    <span class="pending" role="status">{ "Changed: press Re-score to apply." }</span>
                }
            </div>
            if let Some(e) = &*error {
                <p class="error" id="settings-error" role="alert">{ e.clone() }</p>
            }
        </form>
    }
}
