//! The settings panel: every convention that changes a number. Applying re-runs the audit in
//! the worker on the kept dataset (files are not read again).

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::conventions::{CreditUnit, Discount, Gain, MissingRun, RankOrder, Settings};

/// The form's text, parsed on submit.
#[derive(Debug, Clone, PartialEq)]
pub struct Draft {
    pub k: String,
    pub unit: CreditUnit,
    pub discount: Discount,
    pub gain: Gain,
    pub order: RankOrder,
    pub missing: MissingRun,
    pub bootstrap: String,
    pub seed: String,
    pub confidence: String,
}

impl From<&Settings> for Draft {
    fn from(s: &Settings) -> Self {
        Draft {
            k: s.cutoffs().iter().map(|c| c.to_string()).collect::<Vec<_>>().join(","),
            unit: s.unit,
            discount: s.discount,
            gain: s.gain,
            order: s.order,
            missing: s.missing,
            bootstrap: s.bootstrap.to_string(),
            seed: s.seed.to_string(),
            confidence: s.confidence.to_string(),
        }
    }
}

impl Draft {
    /// The settings, or what is wrong with the form (naming the field).
    pub fn parse(&self) -> Result<Settings, String> {
        fn int<T: std::str::FromStr>(field: &str, v: &str) -> Result<T, String> {
            v.trim().parse().map_err(|_| format!("{field}: `{}` is not a whole number", v.trim()))
        }
        let confidence: f64 = self
            .confidence
            .trim()
            .parse()
            .map_err(|_| format!("confidence: `{}` is not a number", self.confidence.trim()))?;
        let cutoffs: Vec<usize> = self.k.split(',').map(|c| int("k", c)).collect::<Result<_, String>>()?;
        let s = Settings {
            k: 0,
            unit: self.unit,
            discount: self.discount,
            gain: self.gain,
            order: self.order,
            missing: self.missing,
            bootstrap: int("bootstrap resamples", &self.bootstrap)?,
            seed: int("seed", &self.seed)?,
            confidence,
            curve: Vec::new(),
        }
        .with_cutoffs(&cutoffs)
        .map_err(|e| e.to_string())?;
        s.validate().map_err(|e| e.to_string())?;
        Ok(s)
    }
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

fn select<T: Copy + PartialEq + 'static>(
    id: &'static str,
    label: &'static str,
    help: &'static str,
    value: T,
    options: &'static [(T, &'static str, &'static str)],
    on: Callback<T>,
) -> Html {
    let onchange = Callback::from(move |e: Event| {
        let sel: HtmlSelectElement = e.target_unchecked_into();
        if let Some((v, _, _)) = options.iter().find(|(_, key, _)| *key == sel.value()) {
            on.emit(*v);
        }
    });
    html! {
        <div class="field">
            <label for={id} title={help}>{ label }</label>
            <select id={id} name={id} {onchange} title={help}>
                { for options.iter().map(|(v, key, text)| html! {
                    <option value={*key} selected={*v == value}>{ *text }</option>
                }) }
            </select>
        </div>
    }
}

fn text_input(
    id: &'static str,
    label: &'static str,
    help: &'static str,
    kind: &'static str,
    value: &str,
    on: Callback<String>,
) -> Html {
    let oninput = Callback::from(move |e: InputEvent| {
        let input: HtmlInputElement = e.target_unchecked_into();
        on.emit(input.value());
    });
    html! {
        <div class="field">
            <label for={id} title={help}>{ label }</label>
            <input id={id} name={id} type={kind} value={value.to_string()} {oninput} title={help}
                inputmode={if kind == "number" { "decimal" } else { "text" }} />
        </div>
    }
}

const UNITS: &[(CreditUnit, &str, &str)] = &[
    (CreditUnit::Group, "group", "group (one per evidence anchor)"),
    (CreditUnit::Id, "id", "id (every eligible memory)"),
];
const DISCOUNTS: &[(Discount, &str, &str)] = &[
    (Discount::Log2, "log2", "log2(rank+1) (trec_eval 9)"),
    (Discount::Lme, "lme", "LongMemEval (ranks 1, 2 undiscounted)"),
];
const GAINS: &[(Gain, &str, &str)] =
    &[(Gain::Linear, "linear", "linear (rel)"), (Gain::Exponential, "exponential", "exponential (2^rel − 1)")];
const ORDERS: &[(RankOrder, &str, &str)] = &[
    (RankOrder::Saved, "saved", "saved order"),
    (RankOrder::TrecEval, "trec_eval", "trec_eval (score desc, id desc)"),
];
const MISSING: &[(MissingRun, &str, &str)] =
    &[(MissingRun::Skip, "skip", "skip (leave the query out)"), (MissingRun::Zero, "zero", "zero (score 0)")];

/// `#settings`.
#[function_component(SettingsPanel)]
pub fn settings_panel(props: &SettingsProps) -> Html {
    let draft = use_state(|| Draft::from(&props.applied));
    let error = use_state(|| None::<String>);
    {
        // New results arrived (or were replaced): show their settings.
        let draft = draft.clone();
        let error = error.clone();
        use_effect_with(props.applied.clone(), move |applied| {
            draft.set(Draft::from(applied));
            error.set(None);
        });
    }
    let update = |f: fn(&mut Draft, String)| {
        let draft = draft.clone();
        Callback::from(move |v: String| {
            let mut d = (*draft).clone();
            f(&mut d, v);
            draft.set(d);
        })
    };
    let onsubmit = {
        let draft = draft.clone();
        let error = error.clone();
        let on_apply = props.on_apply.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            match draft.parse() {
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
            draft.set(Draft::from(&Settings::default()));
            error.set(None);
        })
    };
    let changed = draft.parse().map(|s| s != props.applied).unwrap_or(true);
    let d = (*draft).clone();
    macro_rules! set_enum {
        ($field:ident, $ty:ty) => {{
            let draft = draft.clone();
            Callback::from(move |v: $ty| {
                let mut d = (*draft).clone();
                d.$field = v;
                draft.set(d);
            })
        }};
    }
    html! {
        <form id="settings" class="settings" {onsubmit} aria-labelledby="settings-title">
            <h2 id="settings-title">{ "Settings" }</h2>
            <div class="fields">
                { text_input("k", "cutoff k", "only the first k items of each list count; several (1,5,10,60): every table at the largest, the curve at each", "text", &d.k, update(|d, v| d.k = v)) }
                { select("unit", "credit unit", "what one unit of credit is", d.unit, UNITS, set_enum!(unit, CreditUnit)) }
                { select("discount", "discount", "rank discount in DCG", d.discount, DISCOUNTS, set_enum!(discount, Discount)) }
                { select("gain", "gain", "gain of a graded relevance level", d.gain, GAINS, set_enum!(gain, Gain)) }
                { select("order", "rank order", "in which order a saved list is read", d.order, ORDERS, set_enum!(order, RankOrder)) }
                { select("missing", "missing runs", "queries without a ranked list for a system", d.missing, MISSING, set_enum!(missing, MissingRun)) }
                { text_input("bootstrap", "bootstrap resamples", "paired bootstrap resamples per interval (0 = no intervals)", "number", &d.bootstrap, update(|d, v| d.bootstrap = v)) }
                { text_input("seed", "seed", "RNG seed of the bootstrap", "number", &d.seed, update(|d, v| d.seed = v)) }
                { text_input("confidence", "confidence", "two-sided confidence level of the intervals", "text", &d.confidence, update(|d, v| d.confidence = v)) }
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
