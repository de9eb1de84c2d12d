//! The comparison page's spec card: how the rows are read (key, arm, value, strata, filters,
//! the inferred choice and its reasons), the pairing tolerances and the statistics' settings.

use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::draft::{judgment_prefixes, parse_value_key, toggle, value_key};
use super::{CompareTool, Draft, SETTING_IDS};
use crate::compare::{CompareRequest, CompareSettings, TableInfo};
use crate::fields::Fields;
use crate::outcomes::{ColumnKind, Duplicates, JudgmentChoice, OutcomeFormat, Spec};
use crate::web::components::explore::Explore;
use crate::web::components::fields::{choose_from, field_id, field_input};
use crate::web::format::count;
use crate::web::pages::tool::{ToolPage, Ui};

/// How the rows are read: the spec line, the inference's reasons, the columns and their roles,
/// the value, the pairing tolerances, renames and filters; then the statistics' heading.
pub(super) fn view_spec(page: &ToolPage<CompareTool>, t: &TableInfo, ui: &Ui<CompareTool>) -> Html {
    let d = &page.draft;
    let view = &page.view;
    let on_value = ui.on_select(|d: &mut Draft, key: String| {
        if let Some((v, j)) = parse_value_key(&key) {
            d.value = v;
            d.judgment = j;
        }
    });
    let role_box = |name: &str, role: &'static str, checked: bool| {
        let name = name.to_string();
        let onchange = ui.on_check(move |d: &mut Draft, on| match role {
            "key" => toggle(&mut d.key, &name, on),
            "arm" => toggle(&mut d.arm, &name, on),
            _ => toggle(&mut d.strata, &name, on),
        });
        html! { <input type="checkbox" data-role={role} checked={checked} {onchange} aria-label={role} /> }
    };
    let current_value = value_key(&d.value, d.judgment);
    let mut value_options: Vec<(String, String)> = Vec::new();
    for c in &t.columns {
        if matches!(c.info.kind, ColumnKind::Numeric | ColumnKind::Binary) {
            value_options
                .push((value_key(&c.info.name, None), format!("{} ({})", c.info.name, kind_name(c.info.kind))));
        }
    }
    for (prefix, n) in judgment_prefixes(t) {
        value_options.push((
            value_key(&prefix, Some(JudgmentChoice::Majority)),
            format!("majority of {prefix}.* ({n} judgments)"),
        ));
        for k in 1..=n {
            value_options
                .push((value_key(&prefix, Some(JudgmentChoice::Judgment(k))), format!("judgment {k} of {prefix}.*")));
        }
        value_options
            .push((value_key(&prefix, Some(JudgmentChoice::Each)), format!("each judgment of {prefix}.* as an arm")));
    }
    if !d.value.is_empty() && !value_options.iter().any(|(k, _)| *k == current_value) {
        value_options.push((current_value.clone(), d.value.clone()));
    }
    let filter_col = ui.on_view(|v: &mut super::View, c| v.filter_column = c);
    let filter_vals = ui
        .view_with(|v: &mut super::View, text: String| v.filter_values = text)
        .reform(|e: InputEvent| e.target_unchecked_into::<HtmlInputElement>().value());
    let add_filter = {
        let column = view.filter_column.clone();
        let values: Vec<String> =
            view.filter_values.split(',').map(|v| v.trim().to_string()).filter(|v| !v.is_empty()).collect();
        let add = ui.on_click(move |d: &mut Draft| {
            if !column.is_empty() && !values.is_empty() {
                d.filter.insert(column.clone(), values.clone());
            }
        });
        let clear = ui.on_view_click(|v: &mut super::View| v.filter_values.clear());
        Callback::from(move |e: MouseEvent| {
            add.emit(e.clone());
            clear.emit(e);
        })
    };
    let datalist =
        t.columns.iter().find(|c| c.info.name == view.filter_column).map(|c| c.values.clone()).unwrap_or_default();
    let on_dup =
        ui.on_select(|d: &mut Draft, v| d.duplicates = if v == "mean" { Duplicates::Mean } else { Duplicates::Refuse });
    let on_incomplete = ui.on_check(|d: &mut Draft, on| d.allow_incomplete = on);
    let on_position = ui.on_check(|d: &mut Draft, on| d.by_position = on);
    let on_rename = ui.on_text(|d: &mut Draft, v| d.rename = v);
    let on_credit = ui.on_text(|d: &mut Draft, v| d.partial_credit = v);
    let inspect = t.files.iter().any(|f| f.format == OutcomeFormat::InspectLog);
    let reinfer = {
        let inferred = t.inferred.clone();
        ui.on_click(move |d: &mut Draft| d.set_spec(&inferred))
    };
    let inferred_now = {
        let mut a = d.spec(None);
        let mut b = t.inferred.clone();
        a.reasons.clear();
        b.reasons.clear();
        a == b
    };
    // The request's own settings drawn here are named and explained as declared.
    let label = |name: &str| CompareRequest::field(name).map_or_else(|| name.to_string(), |f| f.label.to_string());
    let help = |name: &str| CompareRequest::field(name).map(|f| f.help.to_string());
    let list = |v: &[String]| if v.is_empty() { "(none)".to_string() } else { v.join(" × ") };
    html! {
        <div id="spec">
            <div class="actions">
                <button type="button" class="small secondary" id="spec-reinfer" onclick={reinfer} disabled={inferred_now}>{ "Use the inferred spec" }</button>
            </div>
            <p class="spec-line" id="spec-line">
                { "key " }<code id="spec-key">{ list(&d.key) }</code>
                { " \u{00b7} arm " }<code id="spec-arm">{ list(&d.arm) }</code>
                { " \u{00b7} value " }<code id="spec-value-name">{ Spec { judgment: d.judgment, value: d.value.clone(), ..Spec::default() }.describe().rsplit(" \u{00b7} value ").next().unwrap_or_default().to_string() }</code>
                if !d.strata.is_empty() { { " \u{00b7} strata " }<code id="spec-strata">{ list(&d.strata) }</code> }
                if let Ok(renamed) = d.renamed().map(|r| r.iter().map(|(a, b)| format!("{a} \u{2192} {b}")).collect::<Vec<_>>()).map(|v| v.join("; ")) {
                    if !renamed.is_empty() { { " \u{00b7} renamed " }<code id="spec-renamed">{ renamed }</code> }
                }
                if inferred_now { <span class="badge note">{ "inferred" }</span> } else { <span class="badge warn">{ "edited" }</span> }
            </p>
            <details open={true} class="reasons">
                <summary>{ "Why (the inference's reasons)" }</summary>
                <ul id="spec-reasons">
                    { for t.inferred.reasons.iter().map(|r| html! { <li>{ r.clone() }</li> }) }
                </ul>
            </details>
            <Explore>
            <table id="spec-columns" class="compact">
                <thead><tr>
                    <th scope="col">{"column"}</th><th scope="col">{"kind"}</th><th scope="col">{"distinct"}</th><th scope="col">{"missing"}</th>
                    <th scope="col" title="the columns that together identify an item (the pairing key)">{"key"}</th>
                    <th scope="col" title="the arm column(s), combined with /">{"arm"}</th>
                    <th scope="col" title="per-item columns carried along (for stratified or cluster resampling)">{"strata"}</th>
                    <th scope="col">{"first values"}</th>
                </tr></thead>
                <tbody>
                { for t.columns.iter().map(|c| {
                    let n = &c.info.name;
                    html! {
                        <tr data-column={n.clone()} data-kind={kind_name(c.info.kind)}>
                            <td><code>{ n.clone() }</code></td>
                            <td>{ kind_name(c.info.kind) }</td>
                            <td class="num">{ count(c.info.distinct) }</td>
                            <td class="num">{ count(c.info.missing) }</td>
                            <td class="role">{ role_box(n, "key", d.key.contains(n)) }</td>
                            <td class="role">{ role_box(n, "arm", d.arm.contains(n)) }</td>
                            <td class="role">{ role_box(n, "strata", d.strata.contains(n)) }</td>
                            <td class="values muted">{ preview(&c.values) }</td>
                        </tr>
                    }
                }) }
                </tbody>
            </table>
            </Explore>
            <div class="fields">
                <div class="field grow">
                    <label for="spec-value">{ "value" }</label>
                    <select id="spec-value" onchange={on_value}>
                        if d.value.is_empty() { <option value="" selected=true>{ "(choose a value column)" }</option> }
                        { for value_options.iter().map(|(k, label)| html! {
                            <option value={k.clone()} selected={*k == current_value}>{ label.clone() }</option>
                        }) }
                    </select>
                </div>
                <div class="field">
                    <label for="dup-policy" title={help("aggregate")}>{ label("aggregate") }</label>
                    <select id="dup-policy" onchange={on_dup}>
                        <option value="refuse" selected={d.duplicates == Duplicates::Refuse}>{ "refuse (not paired)" }</option>
                        <option value="mean" selected={d.duplicates == Duplicates::Mean}>{ "average them (mean)" }</option>
                    </select>
                </div>
                <div class="field checkbox">
                    <label for="allow-incomplete">
                        <input type="checkbox" id="allow-incomplete" checked={d.allow_incomplete} onchange={on_incomplete} />
                        { format!(" {}", label("allow_incomplete")) }
                    </label>
                </div>
                <div class="field checkbox">
                    <label for="pair-by-position" title={help("pair_by_position")}>
                        <input type="checkbox" id="pair-by-position" checked={d.by_position} onchange={on_position} />
                        { format!(" {}", label("pair_by_position")) }
                    </label>
                </div>
                <div class="field grow">
                    <label for="spec-rename" title={help("rename")}>{ label("rename") }</label>
                    <input id="spec-rename" type="text" value={d.rename.clone()} oninput={on_rename}
                        placeholder={view.comparison.as_ref().and_then(|c| c.arms.first()).map(|a| format!("{}=a shorter name", a.arm)).unwrap_or_else(|| "OLD=NEW; …".into())} />
                </div>
                if inspect {
                    <div class="field">
                        <label for="partial-credit" title={help("partial_credit")}>{ label("partial_credit") }</label>
                        <input id="partial-credit" type="text" inputmode="decimal" size="5" placeholder="0.5"
                            value={d.partial_credit.clone()} oninput={on_credit} />
                    </div>
                }
            </div>
            <div class="fields filters">
                <div class="field">
                    <label for="filter-column">{ "keep only rows where" }</label>
                    <select id="filter-column" onchange={filter_col}>
                        <option value="" selected={view.filter_column.is_empty()}>{ "(column)" }</option>
                        { for t.columns.iter().map(|c| html! {
                            <option value={c.info.name.clone()} selected={view.filter_column == c.info.name}>{ c.info.name.clone() }</option>
                        }) }
                    </select>
                </div>
                <div class="field grow">
                    <label for="filter-values">{ "is one of (comma-separated)" }</label>
                    <input id="filter-values" type="text" list="filter-values-list" value={view.filter_values.clone()} oninput={filter_vals}
                        placeholder={datalist.first().cloned().unwrap_or_default()} />
                    <datalist id="filter-values-list">
                        { for datalist.iter().map(|v| html! { <option value={v.clone()} /> }) }
                    </datalist>
                </div>
                <div class="field buttons">
                    <button type="button" class="small" id="filter-add" onclick={add_filter}
                        disabled={view.filter_column.is_empty() || view.filter_values.trim().is_empty()}>{ "Add filter" }</button>
                </div>
            </div>
            if !d.filter.is_empty() {
                <ul class="chips" id="spec-filters">
                    { for d.filter.iter().map(|(c, vals)| {
                        let col = c.clone();
                        let remove = ui.on_click(move |d: &mut Draft| {
                            d.filter.remove(&col);
                        });
                        html! {
                            <li data-column={c.clone()}>
                                <code>{ format!("{c} \u{2208} {{{}}}", vals.join(", ")) }</code>
                                <button type="button" class="link" onclick={remove} aria-label={format!("remove the filter on {c}")}>{ "remove" }</button>
                            </li>
                        }
                    }) }
                </ul>
            }
            <h3>{ "Statistics" }</h3>
        </div>
    }
}

/// The statistics' settings (a choice among the table's columns or the arms where it names one).
pub(super) fn view_statistics(page: &ToolPage<CompareTool>, ui: &Ui<CompareTool>) -> Html {
    let d = &page.draft;
    let by_options: Vec<String> = d.key.iter().chain(&d.strata).cloned().collect();
    let arms: Vec<String> =
        page.view.pairing.as_ref().map(|p| p.arms.iter().map(|a| a.arm.clone()).collect()).unwrap_or_default();
    html! {
        <>
                { for CompareSettings::fields().into_iter().map(|f| {
                    let text = d.settings.text(f.name);
                    let id = field_id("cmp", f, SETTING_IDS);
                    let name = f.name;
                    let on = ui.on_value(move |d: &mut Draft, v: String| d.settings.set(name, v));
                    match name {
                        "by" if d.settings.text("resample") == "iid" => html! {},
                        "by" => choose_from(id, f, text, &by_options, "(choose)", on),
                        "per" => choose_from(id, f, text, &by_options, "(all items only)", on),
                        "baseline" => choose_from(id, f, text, &arms, "(auto: bm25)", on),
                        "control" => choose_from(id, f, text, &arms, "(none)", on),
                        "reference" => choose_from(id, f, text, &arms, "(arm order)", on),
                        _ => field_input(id, f, text, on),
                    }
                }) }
        </>
    }
}

pub(super) fn kind_name(k: ColumnKind) -> &'static str {
    match k {
        ColumnKind::Numeric => "numeric",
        ColumnKind::Binary => "binary",
        ColumnKind::Text => "text",
    }
}

fn preview(values: &[String]) -> String {
    let shown: Vec<String> = values.iter().take(4).map(|v| crate::plots::ellipsize(v, 24)).collect();
    let more = if values.len() > 4 { ", …" } else { "" };
    format!("{}{more}", shown.join(", "))
}
