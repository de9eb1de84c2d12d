//! The per-query drill-down: pick a system and a query (with a filter box); the worker
//! answers with the ranked list, each item marked by how it relates to the query's evidence
//! (raw source turn, canonical memory, other descendant, no credit), its evidence anchors,
//! whether it earned credit under each target, items beyond k greyed, and the per-target
//! scores side by side.

use std::rc::Rc;

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::web::components::explore::Explore;

use super::{ReportRef, conventions_line};
use crate::audit::Drilldown;
use crate::audit::QueryInfo;
use crate::audit::drilldown::{DrillItem, Mark, PerTarget};
use crate::model::Target;
use crate::web::dom::download_text;
use crate::web::format::{fmt4, num_cell};

/// Matching queries listed in the picker at most.
pub const MAX_OPTIONS: usize = 300;

/// Which list is asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Selection {
    pub system: usize,
    pub query: usize,
}

/// The drill-down as the page holds it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DrillState {
    pub selection: Option<Selection>,
    pub result: Option<Rc<Drilldown>>,
    pub loading: bool,
    pub error: Option<String>,
}

#[derive(Properties, PartialEq)]
pub struct DrillProps {
    pub report: ReportRef,
    pub queries: Rc<Vec<QueryInfo>>,
    pub state: DrillState,
    pub on_select: Callback<Selection>,
}

fn mark_label(m: Mark) -> (&'static str, &'static str) {
    match m {
        Mark::Raw => ("raw", "raw source turn of an evidence anchor"),
        Mark::Canonical => ("canonical", "canonical serving memory of an evidence anchor"),
        Mark::RawAndCanonical => ("raw + canonical", "flagged both raw and canonical"),
        Mark::Descendant => ("other descendant", "another stored descendant of an evidence anchor (Source only)"),
        Mark::None => ("no credit", "not descended from any evidence anchor"),
    }
}

fn mark_key(m: Mark) -> &'static str {
    match m {
        Mark::Raw => "raw",
        Mark::Canonical => "canonical",
        Mark::RawAndCanonical => "raw_and_canonical",
        Mark::Descendant => "descendant",
        Mark::None => "none",
    }
}

fn get(p: &PerTarget, t: Target) -> bool {
    match t {
        Target::Raw => p.raw,
        Target::Source => p.source,
        Target::Canonical => p.canonical,
    }
}

fn credit_cell(item: &DrillItem, t: Target) -> Html {
    let credited = get(&item.credited, t);
    let eligible = get(&item.eligible, t);
    let (text, title, class) = if credited {
        ("✓", "credited", "credited")
    } else if eligible {
        (
            "·",
            "in the target, but earns no credit here (beyond k, a repeat, or its group was already credited)",
            "eligible",
        )
    } else {
        ("", "not in the target", "")
    };
    html! {
        <td class={classes!("credit", class)} data-col={t.name()} data-credited={credited.to_string()} title={title}>
            { text }
        </td>
    }
}

fn matches(q: &QueryInfo, needle: &str) -> bool {
    needle.is_empty()
        || q.id.to_lowercase().contains(needle)
        || q.text.as_ref().is_some_and(|t| t.to_lowercase().contains(needle))
        || q.category.as_ref().is_some_and(|c| c.to_lowercase().contains(needle))
}

/// `#drilldown`.
#[function_component(DrilldownView)]
pub fn drilldown_view(props: &DrillProps) -> Html {
    let r = &props.report;
    let filter = use_state(String::new);
    let sel = props.state.selection;

    let on_system = {
        let on_select = props.on_select.clone();
        Callback::from(move |e: Event| {
            let s: HtmlSelectElement = e.target_unchecked_into();
            if let (Ok(system), Some(cur)) = (s.value().parse::<usize>(), sel) {
                on_select.emit(Selection { system, query: cur.query });
            }
        })
    };
    let on_query = {
        let on_select = props.on_select.clone();
        Callback::from(move |e: Event| {
            let s: HtmlSelectElement = e.target_unchecked_into();
            if let Ok(query) = s.value().parse::<usize>() {
                on_select.emit(Selection { system: sel.map_or(0, |c| c.system), query });
            }
        })
    };
    let on_filter = {
        let filter = filter.clone();
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            filter.set(input.value());
        })
    };
    let needle = filter.trim().to_lowercase();
    let matching: Vec<(usize, &QueryInfo)> =
        props.queries.iter().enumerate().filter(|(_, q)| matches(q, &needle)).collect();
    let shown: Vec<(usize, &QueryInfo)> = matching.iter().take(MAX_OPTIONS).copied().collect();
    let selected_shown = sel.is_some_and(|s| shown.iter().any(|(i, _)| *i == s.query));

    let export = {
        let result = props.state.result.clone();
        Callback::from(move |_: MouseEvent| {
            let Some(d) = &result else { return };
            let res = serde_json::to_string_pretty(&**d)
                .map_err(|e| e.to_string())
                .and_then(|t| download_text("memaudit-drilldown.json", "application/json", &t));
            if let Err(e) = res {
                gloo::console::error!(format!("memaudit: export failed: {e}"));
            }
        })
    };

    html! {
        <section class="card" id="drilldown" aria-labelledby="drilldown-title"
            data-loading={props.state.loading.to_string()}>
            <header class="card-head">
                <h2 id="drilldown-title">{ "Per-query drill-down" }</h2>
                <div class="exports">
                    <button type="button" class="small" id="drill-export" onclick={export}
                        disabled={props.state.result.is_none()}>{ "drill-down JSON" }</button>
                </div>
            </header>
            <div class="controls">
                <div class="field">
                    <label for="drill-system">{ "system" }</label>
                    <select id="drill-system" onchange={on_system}>
                        { for r.systems.iter().enumerate().map(|(i, s)| html! {
                            <option value={i.to_string()} selected={sel.is_some_and(|c| c.system == i)}>{ s.clone() }</option>
                        }) }
                    </select>
                </div>
                <div class="field grow">
                    <label for="drill-filter">{ "filter queries" }</label>
                    <input id="drill-filter" type="search" placeholder="query id, text or category"
                        value={(*filter).clone()} oninput={on_filter} />
                </div>
                <div class="field grow">
                    <label for="drill-query">
                        { "query " }
                        <span class="muted">{
                            if matching.len() > shown.len() {
                                format!("(first {} of {} matches)", shown.len(), matching.len())
                            } else {
                                format!("({} matches)", matching.len())
                            }
                        }</span>
                    </label>
                    <select id="drill-query" onchange={on_query}>
                        if !selected_shown {
                            <option value="" selected=true disabled=true>{ "choose a query" }</option>
                        }
                        { for shown.iter().map(|(i, q)| html! {
                            <option value={i.to_string()} selected={sel.is_some_and(|c| c.query == *i)}>
                                { format!("{}{}", q.id, q.text.as_ref().map(|t| format!(" — {}", truncate(t, 90))).unwrap_or_default()) }
                            </option>
                        }) }
                    </select>
                </div>
            </div>
            if props.state.loading {
                <p class="muted" role="status">{ "Loading the ranked list…" }</p>
            }
            if let Some(e) = &props.state.error {
                <p class="error" role="alert">{ e.clone() }</p>
            }
            if let Some(d) = &props.state.result {
                { view_result(d, r.settings.k) }
            }
            <p class="rule" id="multi-anchor-rule"><span class="label">{ "Multi-anchor rule: " }</span>{ r.multi_anchor_rule.clone() }</p>
            { conventions_line(r) }
        </section>
    }
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(n).collect();
        t.push('…');
        t
    }
}

fn view_result(d: &Drilldown, k: usize) -> Html {
    let targets: Vec<Target> = d.targets.iter().map(|t| t.target).collect();
    html! {
        <div class="drill-result" data-system={d.system.clone()} data-query={d.query_id.clone()}>
            <dl class="query-info">
                <dt>{ "query" }</dt><dd><code>{ d.query_id.clone() }</code>
                    { d.category.as_ref().map(|c| html! { <span class="badge">{ c.clone() }</span> }).unwrap_or_default() }</dd>
                if let Some(t) = &d.query_text { <dt>{ "text" }</dt><dd>{ t.clone() }</dd> }
                if let Some(a) = &d.answer { <dt>{ "answer" }</dt><dd>{ a.clone() }</dd> }
                <dt>{ "evidence" }</dt>
                <dd>{ if d.evidence.is_empty() { "none (eligible for no target)".to_string() } else { d.evidence.join(", ") } }</dd>
                <dt>{ "system" }</dt><dd>{ d.system.clone() }{ if d.has_run { "" } else { " — no ranked list for this query" } }</dd>
            </dl>
            <Explore>
            <table id="drill-scores" class="compact">
                <thead><tr>
                    <th scope="col">{"target"}</th><th scope="col">{"groups"}</th><th scope="col">{"nDCG"}</th>
                    <th scope="col">{"recall"}</th><th scope="col">{"hit"}</th><th scope="col">{"MRR"}</th>
                    <th scope="col">{"groups hit"}</th><th scope="col">{"first credited rank"}</th>
                </tr></thead>
                <tbody>
                { for d.targets.iter().map(|t| {
                    let s = t.score.as_ref();
                    html! {
                        <tr data-target={t.target.name()} data-eligible={t.eligible.to_string()}>
                            <th scope="row">{ t.target.name() }</th>
                            <td data-col="groups" title={t.groups.join(", ")}>{ t.groups.len() }</td>
                            if t.eligible && s.is_some() {
                                { num_cell("ndcg", s.map(|s| s.ndcg)) }
                                { num_cell("recall", s.map(|s| s.recall)) }
                                { num_cell("hit", s.map(|s| s.hit)) }
                                { num_cell("mrr", s.map(|s| s.mrr)) }
                                <td class="num">{ s.map(|s| s.groups_hit).unwrap_or(0) }</td>
                                <td class="num">{ s.and_then(|s| s.first_rank).map(|x| x.to_string()).unwrap_or_else(|| "—".into()) }</td>
                            } else {
                                <td colspan="6" class="muted">{
                                    if t.eligible { "not scored (no ranked list)" } else { "not eligible: no stored memory of the evidence is in this target" }
                                }</td>
                            }
                        </tr>
                    }
                }) }
                </tbody>
            </table>
            </Explore>
            <p class="legend muted">
                { format!("✓ credited; · in the target but no credit (a repeat, beyond k = {k}, or its group already credited). Greyed rows are beyond k.") }
            </p>
            <Explore>
            <table id="drill-items">
                <thead><tr>
                    <th scope="col">{"rank"}</th><th scope="col">{"memory"}</th><th scope="col">{"mark"}</th>
                    <th scope="col">{"kind"}</th><th scope="col">{"anchor group(s)"}</th>
                    { for targets.iter().map(|t| html! { <th scope="col">{ t.name() }</th> }) }
                    <th scope="col">{"score"}</th><th scope="col">{"text"}</th>
                </tr></thead>
                <tbody>
                if d.items.is_empty() {
                    <tr><td colspan="10" class="muted">{ "No ranked items." }</td></tr>
                }
                { for d.items.iter().map(|it| {
                    let (label, help) = mark_label(it.mark);
                    html! {
                        <tr data-rank={it.rank.to_string()} data-mark={mark_key(it.mark)} data-within-k={it.within_k.to_string()}
                            class={classes!((!it.within_k).then_some("beyond-k"), it.repeated.then_some("repeated"), format!("mark-{}", mark_key(it.mark)))}>
                            <td class="num">{ it.rank }</td>
                            <td class="id"><code>{ it.memory_id.clone() }</code>
                                if !it.stored { <span class="badge warn" title="not a stored memory">{ "not stored" }</span> }
                                if it.repeated { <span class="badge warn" title="an id ranked earlier: earns nothing">{ "repeat" }</span> }
                            </td>
                            <td><span class={classes!("mark", format!("mark-{}", mark_key(it.mark)))} title={help}>{ label }</span></td>
                            <td>{ it.kind.clone().unwrap_or_default() }</td>
                            <td class="anchors">{ it.evidence_anchors.join(", ") }</td>
                            { for targets.iter().map(|t| credit_cell(it, *t)) }
                            <td class="num">{ fmt4(it.score) }</td>
                            <td class="text" title={it.text.clone().unwrap_or_default()}>{ it.text.clone().unwrap_or_default() }</td>
                        </tr>
                    }
                }) }
                </tbody>
            </table>
            </Explore>
        </div>
    }
}
