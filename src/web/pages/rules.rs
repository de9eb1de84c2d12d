//! The rules page: drop a pre-registered rule registry, the named values it
//! judges, optionally a `git log --format='%H %cI' [--name-only]` export and the data files
//! behind the values (fingerprinted with SHA-256), and see every rule's verdict — fired or
//! not, the outcome, the margin to its threshold, the inputs used with their file hashes, the
//! predicate tree — and a clear flag on every rule registered after the data it judges — the
//! numbers of `memaudit rules --format json`.

use std::rc::Rc;

use yew::prelude::*;

use super::tool::{BatchOf, Tool, ToolPage, Ui, role_files};
use crate::capability::FileRole;
use crate::report::serde_name;
use crate::rules::expr::Eval;
use crate::rules::{self, InputUsed, RuleVerdict, RulesRequest, RulesTable, Temporal, format_time};
use crate::web::components::Section;
use crate::web::components::export::{text_download, to_json};
use crate::web::components::fields::FieldDraft;
use crate::web::components::grid::{Column, Kind, Look, RowAttrs, Val, grid, table_exports, table_grid};
use crate::web::format::{duration, fmt4};

/// A rules evaluation as the page keeps it.
type RulesBatch = BatchOf<Rules>;

/// The temporal status of a rule registered after its data.
pub const LATE: &str = "registered_after_data";

/// The settings as edited.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Draft {
    /// The declared fields (the time stamped on the verdicts; empty: the time of the request).
    pub fields: FieldDraft<RulesRequest>,
}

/// Now, as `memaudit rules` stamps it by default.
fn now() -> String {
    format_time((js_sys::Date::now() / 1000.0).floor() as i64)
}

impl Draft {
    /// The request (the time is checked by the core's validate).
    pub fn parse(&self) -> Result<RulesRequest, String> {
        let mut request = self.fields.parse(RulesRequest::default())?;
        request.evaluated_at = Some(request.evaluated_at.unwrap_or_else(now));
        Ok(request)
    }
}

pub enum Rules {}

/// The rules page.
pub type RulesPage = ToolPage<Rules>;

screen!(crate::rules::Rules => RulesPage, Tools);

fn conventions(b: &RulesBatch) -> String {
    let at = b.report.verdicts.first().and_then(|v| v.evaluated_at.clone()).unwrap_or_default();
    let git = b.overview.iter().find(|f| f.role == FileRole::GitLog).map_or("none".into(), |f| f.name.clone());
    let data = b.overview.iter().filter(|f| f.role == FileRole::Data).count();
    format!("evaluated_at={at} git_log={git} data_files={data} hash=sha256")
}

fn late(v: &RuleVerdict) -> bool {
    v.temporal.status == LATE
}

fn registered(t: &Temporal) -> String {
    t.registered.clone().unwrap_or_default()
}

/// The CLI's CSV columns (`memaudit rules --format csv`) as shown.
fn verdict_look(col: &str) -> Look {
    match col {
        "rule_id" => Look::new("rule", Kind::Text),
        "fired" => Look::named(col, Kind::Bool),
        "margin" => Look::named(col, Kind::Signed)
            .titled("distance to the threshold: positive = fired with room, negative = missed by"),
        "temporal" => Look::new("temporal check", Kind::Text),
        _ => Look::named(col, Kind::Text),
    }
}

/// What the page shows after the CSV columns.
fn verdict_extra() -> Vec<Column<RuleVerdict>> {
    type V = RuleVerdict;
    vec![
        Column::new("flag", "flag", |v: &V| Val::text(if late(v) { "\u{26a0} registered after its data" } else { "" })),
        Column::named("provenance", |v: &V| Val::text(serde_name(&v.provenance))),
    ]
}

fn input_cols(late_for: &[String]) -> Vec<Column<InputUsed>> {
    let late_for = late_for.to_vec();
    vec![
        Column::named("name", |i: &InputUsed| Val::text(i.name.clone())),
        Column::named("estimate", |i: &InputUsed| Val::Num(i.estimate)),
        Column::named("low", |i: &InputUsed| Val::Num(i.low)),
        Column::named("high", |i: &InputUsed| Val::Num(i.high)),
        Column::named("source", |i: &InputUsed| Val::opt(&i.source)),
        Column::new("sha256", "SHA-256", |i: &InputUsed| Val::opt(&i.sha256)),
        Column::new("data_time", "data time", |i: &InputUsed| Val::opt(&i.data_time)),
        Column::new("data_time_from", "dated by", |i: &InputUsed| Val::opt(&i.data_time_from)),
        Column::new("late", "older than the rule", move |i: &InputUsed| Val::Bool(Some(late_for.contains(&i.name)))),
    ]
}

/// What `memaudit rules --format json` prints.
pub fn report_json(b: &RulesBatch) -> Result<String, String> {
    crate::web::components::export::report_json::<crate::rules::Rules>(&b.report, &b.headlines)
}

/// A predicate node and its children: fired or not, margin, the numbers.
fn tree(nodes: &[Eval]) -> Html {
    html! {
        <ul class="tree">
            { for nodes.iter().map(|e| html! {
                <li data-fired={e.fired.to_string()} data-margin={crate::report::num(e.margin)} class={classes!(if e.fired { "fired" } else { "not-fired" })}>
                    <span class="badge">{ if e.fired { "holds" } else { "fails" } }</span>
                    { format!(" {} ", e.detail) }
                    if e.margin.is_some() { <span class="muted">{ format!("(margin {})", fmt4(e.margin)) }</span> }
                    if !e.children.is_empty() { { tree(&e.children) } }
                </li>
            }) }
        </ul>
    }
}

fn detail(i: usize, v: &RuleVerdict) -> Html {
    let t = &v.temporal;
    html! {
        <details class={classes!("rule-detail", late(v).then_some("late"))} id={format!("rules-detail-{i}")} data-rule={v.rule_id.clone()}
            open={late(v)}>
            <summary>
                <code>{ v.rule_id.clone() }</code>{ format!(" \u{2192} {}", v.outcome) }
                if late(v) { <span class="badge warning late-flag">{ "registered after its data" }</span> }
            </summary>
            if let Some(text) = &v.text { <p class="rule-text">{ text.clone() }</p> }
            <dl class="rule-facts">
                <dt>{ "registered" }</dt>
                <dd data-key="registered">{ format!("{} (from {})", registered(t), t.registered_from.clone().unwrap_or_else(|| "—".into())) }</dd>
                <dt>{ "temporal check" }</dt><dd data-key="temporal" data-status={t.status.clone()}>{ t.detail.clone() }</dd>
                <dt>{ "rule hash" }</dt><dd data-key="rule_hash"><code>{ v.rule_hash.clone() }</code></dd>
                <dt>{ "evaluated at" }</dt><dd data-key="evaluated_at">{ v.evaluated_at.clone().unwrap_or_default() }</dd>
                if let Some(e) = &v.error { <dt>{ "error" }</dt><dd data-key="error" class="error">{ e.clone() }</dd> }
            </dl>
            if let Some(totals) = &v.totals {
                <p class="totals" data-key="totals">{ "Vote totals: " }
                    { totals.iter().map(|(k, x)| format!("{k} = {x}")).collect::<Vec<_>>().join(", ") }</p>
            }
            { tree(&v.tree) }
            { grid(&format!("rules-inputs-{i}"), &input_cols(&t.late_for), &v.inputs, |x| {
                RowAttrs::data(vec![("data-input", x.name.clone())]).with_class(t.late_for.contains(&x.name).then_some("late"))
            }) }
        </details>
    }
}

impl Tool for Rules {
    type Capability = crate::rules::Rules;
    const INTAKE_TITLE: &'static str = "Rules, values and their history";
    const CARDS: crate::web::components::headlines::Cards = &[
        ("verdicts", "rules-verdicts-card"),
        ("exclusions", "rules-exclusions-card"),
        ("exclusion_effects", "rules-effects-card"),
    ];
    type Draft = Draft;
    type View = ();

    fn tagline() -> Html {
        html! { { "Pre-registered decision rules evaluated on the numbers they judge: fired or not, by how much, on which inputs \
        (with file hashes), and whether each rule was registered before its data." } }
    }

    fn intake() -> Html {
        html! {
            <p>{ "Drop files anywhere on this page, or choose them, in any order; each is recognised by its content: the rule registry (" }
                <code>{ "{\"rules\": […]}" }</code>{ "), named values (" }<code>{ "{\"values\": {…}}" }</code>{ "), a " }
                <code>{ "git log --format='%H %cI' --name-only" }</code>{ " export (commit times of rules and data), and any other file as data \
                to fingerprint (SHA-256; matched to the values' sources by name)." }</p>
        }
    }

    fn request(draft: &Draft) -> Result<RulesRequest, String> {
        draft.parse()
    }

    fn settings(page: &ToolPage<Self>, ui: &Ui<Self>) -> Html {
        ui.fields_form_with("rules", &page.draft.fields, |d: &mut Draft| &mut d.fields, &[], &[])
    }

    fn results(_page: &ToolPage<Self>, b: &Rc<RulesBatch>, ui: &Ui<Self>) -> Html {
        let r = &b.report;
        let conv = Some(AttrValue::from(conventions(b)));
        let json = {
            let b = b.clone();
            move || report_json(&b)
        };
        let on_role = ui.on_role();
        let late_rules: Vec<&RuleVerdict> = r.verdicts.iter().filter(|v| late(v)).collect();
        html! {
            <>
                <div class="results-head">
                    <p id="rules-counts" data-fired={r.fired.to_string()} data-not-fired={r.not_fired.to_string()}
                        data-errors={r.errors.to_string()} data-late={r.registered_after_data.to_string()}>
                        { format!("{} rules: {} fired, {} not fired, {} errors, {} registered after their data ({}).", r.verdicts.len(),
                            r.fired, r.not_fired, r.errors, r.registered_after_data, duration(b.timing.total_ms)) }</p>
                    <div class="exports">{ text_download("rules-report-json", "Full report JSON", "memaudit-rules.json", "application/json", json) }</div>
                </div>
                if !late_rules.is_empty() {
                    <div class="late-alert" id="rules-late" role="alert" data-count={late_rules.len().to_string()}>
                        <h3>{ "\u{26a0} Registered after the data they judge" }</h3>
                        <ul>
                            { for late_rules.iter().map(|v| html! {
                                <li data-rule={v.rule_id.clone()}><code>{ v.rule_id.clone() }</code>{ format!(": {}", v.temporal.detail) }</li>
                            }) }
                        </ul>
                    </div>
                }
                <Section id="rules-reading" title="What was read" conventions={conv.clone()}>
                    { role_files("rules-", &b.overview, &FileRole::RULES, on_role) }
                </Section>
                <Section id="rules-verdicts-card" title="Verdicts" conventions={conv.clone()}
                    exports={table_exports(RulesTable::Verdicts, b, |b, t| Ok(rules::table(&b.report, t)), |b| to_json(&b.report.verdicts))}
                    intro={html! { <p class="intro">{ "One row per rule: fired or not, the outcome, the margin to the threshold (positive: fired with room; \
                        negative: missed by), the temporal check (registration time from the rule's commit in the git log, else its registered_at, \
                        against the time of every input it judges) and the inputs used." }</p> }}>
                    { table_grid("rules-verdicts", &rules::table(r, RulesTable::Verdicts), verdict_look, &r.verdicts, &verdict_extra(), |v| RowAttrs::data(vec![
                        ("data-rule", v.rule_id.clone()),
                        ("data-fired", v.fired.map(|f| f.to_string()).unwrap_or_default()),
                        ("data-temporal", v.temporal.status.clone()),
                    ]).with_class(late(v).then_some("late"))) }
                </Section>
                if !r.exclusions.is_empty() {
                    <Section id="rules-exclusions-card" title="Exclusion ledger" conventions={conv.clone()}
                        exports={table_exports(RulesTable::Exclusions, b, |b, t| Ok(rules::table(&b.report, t)), |b| to_json(&b.report.exclusions))}
                        intro={html! { <p class="intro">{ "What was dropped and why, placed on the same clock as the rules: the decision time (its commit in the git log, else excluded_at)                             against the earliest time of the data it affects. after_results: the data existed when the exclusion was decided (post hoc). The rules judging that data are listed,                             and those registered before the decision." }</p> }}>
                        { table_grid("rules-exclusions", &rules::table(r, RulesTable::Exclusions),
                            |col| Look::named(col, Kind::Text), &r.exclusions, &[], |e: &crate::rules::exclusions::ExclusionCheck| RowAttrs::data(vec![
                                ("data-item", e.item.clone()), ("data-status", e.status.clone()),
                            ]).with_class((e.status == "after_results").then_some("late"))) }
                    </Section>
                }
                if !r.exclusion_effects.is_empty() {
                    <Section id="rules-effects-card" title="Verdicts with and without each exclusion" conventions={conv.clone()}
                        exports={table_exports(RulesTable::ExclusionEffects, b, |b, t| Ok(rules::table(&b.report, t)), |b| to_json(&b.report.exclusion_effects))}
                        intro={html! { <p class="intro">{ "Each rule reading a value an exclusion names, judged on every value (with) and with those \
                            values withdrawn (without): a count leaves out their items and keeps its at-least as written." }</p> }}>
                        { table_grid("rules-effects", &rules::table(r, RulesTable::ExclusionEffects),
                            |col| Look::named(col, if col.starts_with("margin") { Kind::Signed } else { Kind::Text }), &r.exclusion_effects, &[],
                            |e: &crate::rules::exclusions::ExclusionEffect| RowAttrs::data(vec![
                                ("data-item", e.item.clone()), ("data-rule", e.rule_id.clone()),
                            ]).with_class(e.changes.then_some("late"))) }
                    </Section>
                }
                <Section id="rules-details-card" title="Each rule: predicates, inputs and hashes" conventions={conv}>
                    { for r.verdicts.iter().enumerate().map(|(i, v)| detail(i, v)) }
                </Section>
            </>
        }
    }
}
