//! The answers page: drop per-query rows with gold answer variants and the raw
//! prediction, choose scoring profiles (each documented: its rules and source), and see the
//! scores per profile, arm and dataset, how often two profiles disagree, the queries whose
//! verdict changes between two chosen profiles, and every row's scores — the numbers of
//! `memaudit answers --format json`.

use std::rc::Rc;

use yew::prelude::*;

use crate::web::components::explore::Explore;

use super::tool::{BatchOf, Tool, ToolPage, Ui, file_notes};
use crate::answers::{self, AnswersRequest, AnswersTable, Disagreement, Profile, ShowItem, rows_table};
use crate::fields::FieldValue;
use crate::report::Table;
use crate::report::instance::ItemText;
use crate::web::components::Section;
use crate::web::components::export::text_download;
use crate::web::components::export::to_json;
use crate::web::components::fields::FieldDraft;
use crate::web::components::grid::{
    Column, Kind, Look, RowAttrs, Val, columns_exports, grid, table_exports, table_grid,
};
use crate::web::components::instance::ItemShown;
use crate::web::components::warnings::warnings_list;
use crate::web::format::{count, duration};

/// An answer rescoring as the page keeps it.
type AnswersBatch = BatchOf<Answers>;

/// Rows of the per-row table shown at once.
const ROWS_PAGE: usize = 100;

/// The settings as edited: the request's fields, the diff's two profiles (picked above the
/// diff table) and the cells.
#[derive(Debug, Clone, PartialEq)]
pub struct Draft {
    pub fields: FieldDraft<AnswersRequest>,
    /// The diff's two profiles (names; empty: no diff).
    pub diff_a: String,
    pub diff_b: String,
}

impl Default for Draft {
    fn default() -> Self {
        Draft {
            fields: FieldDraft::default(),
            diff_a: Profile::PaperSem.name().into(),
            diff_b: Profile::MabSem.name().into(),
        }
    }
}

impl Draft {
    fn diff(&self) -> Option<(Profile, Profile)> {
        match (Profile::parse(&self.diff_a), Profile::parse(&self.diff_b)) {
            (Some(a), Some(b)) if a != b => Some((a, b)),
            _ => None,
        }
    }

    /// The profiles ticked (the field's own reading of its text; only the boxes write it).
    fn profiles(&self) -> Vec<Profile> {
        Vec::<Profile>::from_text(self.fields.text("profiles")).unwrap_or_default()
    }

    /// The request, or what cannot be parsed (naming the field).
    pub fn parse(&self) -> Result<AnswersRequest, String> {
        let request = self.fields.parse(AnswersRequest::default())?;
        Ok(AnswersRequest { diff: self.diff(), ..request })
    }
}

/// Local choices: the page of the per-row table, and the query whose rows are shown.
#[derive(Debug, Default)]
pub struct View {
    pub rows_page: usize,
    pub item: ItemShown,
}

pub enum Answers {}

/// The answers page.
pub type AnswersPage = ToolPage<Answers>;

screen!(crate::answers::Answers => AnswersPage, Founding);

/// The settings of a result in one line (shown under every result).
fn conventions(b: &AnswersBatch) -> String {
    let s = &b.report.settings;
    let names: Vec<&str> = s.profiles.iter().map(|p| p.name()).collect();
    let diff = b.report.diff.as_ref().and_then(|d| d.first()).map(|d| format!(" diff={}:{}", d.a.name(), d.b.name()));
    format!("profiles={} f1_threshold={}{}", names.join(","), s.f1_threshold, diff.unwrap_or_default())
}

fn summary_look(col: &str) -> Look {
    match col {
        "n" | "correct" => Look::named(col, Kind::Int),
        "mean" => Look::named(col, Kind::Num),
        "correct_rate" => Look::new("correct rate", Kind::Num),
        _ => Look::named(col, Kind::Text),
    }
}

fn disagreement_cols(_: &AnswersBatch) -> Vec<Column<Disagreement>> {
    vec![
        Column::named("a", |d: &Disagreement| Val::text(d.a.name())),
        Column::named("b", |d: &Disagreement| Val::text(d.b.name())),
        Column::named("n", |d: &Disagreement| Val::count(d.n)),
        Column::new("verdict_changes", "verdict changes", |d: &Disagreement| Val::count(d.verdict_changes))
            .titled("rows correct under one profile only"),
        Column::new("a_only", "correct under a only", |d: &Disagreement| Val::count(d.a_only)),
        Column::new("b_only", "correct under b only", |d: &Disagreement| Val::count(d.b_only)),
        Column::new("score_changes", "score changes", |d: &Disagreement| Val::count(d.score_changes)),
    ]
}

fn diff_look(col: &str) -> Look {
    match col {
        "query_id" => Look::new("query", Kind::Text),
        "line" => Look::named(col, Kind::Int),
        "score_a" | "score_b" => Look::named(col, Kind::Num),
        "correct_a" | "correct_b" => Look::named(col, Kind::Bool),
        _ => Look::named(col, Kind::Text),
    }
}

/// The per-row table: its keys, then a score and a verdict (✓) per profile.
fn row_look(col: &str) -> Look {
    match col {
        "query_id" => Look::new("query", Kind::Text),
        "category" | "line" => Look::named(col, Kind::Int),
        "arm" | "dataset" | "file" => Look::named(col, Kind::Text),
        c if c.ends_with("_correct") => Look::new("✓", Kind::Bool),
        c => Look::new(c.to_string(), Kind::Num),
    }
}

fn stated_look(col: &str) -> Look {
    match col {
        "n" | "agree" | "stated_only" | "profile_only" => Look::named(col, Kind::Int),
        "column" | "arm" | "kind" | "profile" => Look::named(col, Kind::Text),
        "stated_mean" => Look::new("file's mean", Kind::Num),
        "profile_mean" => Look::new("profile's mean", Kind::Num),
        "profile_correct_rate" => Look::new("profile's correct rate", Kind::Num),
        "kappa" => Look::new("κ", Kind::Num),
        "mean_abs_difference" => Look::new("mean |Δ|", Kind::Num),
        "max_abs_difference" => Look::new("max |Δ|", Kind::Num),
        _ => Look::named(col, Kind::Num),
    }
}

fn table(b: &AnswersBatch, which: AnswersTable) -> crate::error::Result<Table> {
    answers::table(&b.report, which)
}
fn disagreement_rows(b: &AnswersBatch) -> &[Disagreement] {
    &b.report.disagreements
}

/// What `memaudit answers --format json` prints.
pub fn report_json(b: &AnswersBatch) -> Result<String, String> {
    crate::web::components::export::report_json::<crate::answers::Answers>(&b.report, &b.headlines)
}

fn profile_options() -> Vec<(String, String)> {
    Profile::ALL.iter().map(|p| (p.name().to_string(), p.name().to_string())).collect()
}

impl Tool for Answers {
    type Capability = crate::answers::Answers;
    const INTAKE_TITLE: &'static str = "Answer rows";
    const CARDS: crate::web::components::headlines::Cards = &[
        ("summary", "answers-summary-card"),
        ("rows", "answers-rows-card"),
        ("populations", "answers-populations-card"),
        ("cell_columns", "answers-populations-card"),
        ("stated", "answers-stated-card"),
    ];
    type Draft = Draft;
    type View = View;

    fn tagline() -> Html {
        html! { { "Rescore raw model answers against gold answers under the scoring profiles behind published numbers \
        (paper SEM, MemoryAgentBench SEM and F1, SQuAD EM and F1, LoCoMo F1), and see which queries change verdict \
        between two profiles." } }
    }

    fn intake() -> Html {
        html! {
            <p>{ "Drop answer rows anywhere on this page, or choose them: CSV or JSON Lines with a query id, the gold answer \
                variants (a JSON array or one string) and the raw prediction; optional " }<code>{ "dataset" }</code>{ ", " }
                <code>{ "category" }</code>{ " (LoCoMo 1–5), " }<code>{ "arm" }</code>{ " and " }<code>{ "parsed_output" }</code>
                { ". Several files are scored together; files without gold take it from a gold file by id (LongMemEval)." }</p>
        }
    }

    fn request(draft: &Draft) -> Result<AnswersRequest, String> {
        draft.parse()
    }

    fn defaults(old: &Draft) -> Draft {
        Draft { diff_a: old.diff_a.clone(), diff_b: old.diff_b.clone(), ..Draft::default() }
    }

    fn settings(page: &ToolPage<Self>, ui: &Ui<Self>) -> Html {
        let d = &page.draft;
        let ticked = d.profiles();
        html! {
            <>
                <fieldset class="field grow profiles" id="answers-profiles-picker">
                    <legend>{ "scoring profiles" }</legend>
                    { for Profile::ALL.iter().map(|p| {
                        let p = *p;
                        let info = p.info();
                        html! {
                            <label title={format!("{} — {}", info.rules, info.source)}>
                                <input type="checkbox" data-profile={p.name()} checked={ticked.contains(&p)}
                                    onchange={ui.on_check(move |d: &mut Draft, on| {
                                        let mut profiles = d.profiles();
                                        profiles.retain(|x| *x != p);
                                        if on {
                                            profiles.push(p);
                                            profiles.sort_by_key(|x| Profile::ALL.iter().position(|y| y == x));
                                        }
                                        d.fields.set("profiles", profiles.to_text());
                                    })} />
                                { format!(" {} ", p.name()) }
                            </label>
                        }
                    }) }
                </fieldset>
                // The profiles are ticked above; the diff's two are picked above the diff table.
                { ui.fields_form_with("answers", &d.fields, |d: &mut Draft| &mut d.fields, &["profiles", "diff"], &[]) }
            </>
        }
    }

    fn after_result(view: &mut View, _draft: &mut Draft, _b: &AnswersBatch, fresh: bool) -> Option<ShowItem> {
        view.item.after_result(fresh).map(|item| ShowItem { item })
    }

    fn on_detail(view: &mut View, answer: Option<Result<Rc<ItemText>, String>>) -> bool {
        view.item.answered(answer)
    }

    fn results(page: &ToolPage<Self>, b: &Rc<AnswersBatch>, ui: &Ui<Self>) -> Html {
        let item = &page.view.item;
        let on_item = ui.ask(|v: &mut View, _: Option<&AnswersBatch>, query_id: String| {
            v.item.ask(query_id.clone());
            Some(ShowItem { item: query_id })
        });
        let r = &b.report;
        let conv = Some(AttrValue::from(conventions(b)));
        let json = {
            let b = b.clone();
            move || report_json(&b)
        };
        let d = &page.draft;
        let pick = |id: &'static str, current: &str, set: fn(&mut Draft, String)| {
            let mut options = vec![(String::new(), "(none)".to_string())];
            options.extend(profile_options());
            ui.select_field(
                id,
                if id.ends_with('a') { "profile a" } else { "profile b" },
                &options,
                current,
                ui.on_select_apply(set),
            )
        };
        let row_count = r.rows.len();
        let pages = row_count.div_ceil(ROWS_PAGE).max(1);
        let current = page.view.rows_page.min(pages - 1);
        let shown = &r.rows[(current * ROWS_PAGE).min(row_count)..((current + 1) * ROWS_PAGE).min(row_count)];
        let pager = |to: usize, id: &'static str, label: &'static str, enabled: bool| {
            let onclick = ui.on_view_click(move |v: &mut View| v.rows_page = to);
            html! { <button type="button" class="small secondary" id={id} disabled={!enabled} {onclick}>{ label }</button> }
        };
        html! {
            <>
                <div class="results-head">
                    <p id="answers-summary-line" data-rows={row_count.to_string()}>
                        { format!("{} answers scored under {} profiles in {}, memaudit {}.", count(row_count), r.settings.profiles.len(),
                            duration(b.timing.total_ms), env!("CARGO_PKG_VERSION")) }</p>
                    <div class="exports">{ text_download("answers-report-json", "Full report JSON", "memaudit-answers.json", "application/json", json) }</div>
                </div>
                <Section id="answers-reading" title="What was read" conventions={conv.clone()}>
                    { file_notes("answers-", &b.overview) }
                    { warnings_list("answers-warnings", r.warnings.iter().map(|w| ("reading", w))) }
                </Section>
                <Section id="answers-profiles-card" title="Scoring profiles" conventions={conv.clone()}
                    intro={html! { <p class="intro">{ "Each profile is a port of the script behind published numbers; its rules and source are recorded with every result." }</p> }}>
                    <Explore>
                    <table id="answers-profiles">
                        <thead><tr><th scope="col">{"profile"}</th><th scope="col">{"scores"}</th><th scope="col">{"rules"}</th><th scope="col">{"source"}</th></tr></thead>
                        <tbody>
                        { for r.profiles.iter().map(|p| html! {
                            <tr data-profile={p.profile.name()}>
                                <td data-col="profile"><code>{ p.profile.name() }</code></td>
                                <td data-col="binary">{ if p.binary { "0/1".to_string() } else { format!("F1 (correct at \u{2265} {})", r.settings.f1_threshold) } }</td>
                                <td data-col="rules" class="text">{ p.rules.clone() }</td>
                                <td data-col="source" class="text muted">{ p.source.clone() }</td>
                            </tr>
                        }) }
                        </tbody>
                    </table>
                    </Explore>
                </Section>
                { crate::web::components::cells::populations_card("answers", &r.populations) }
                <Section id="answers-summary-card" title="Scores per profile" conventions={conv.clone()}
                    exports={table_exports(AnswersTable::Summary, b, table, |b| to_json(&b.report.summary))}
                    intro={html! { <p class="intro">{ "Mean score and the share counted correct per profile, arm and dataset (an empty dataset row: all datasets)." }</p> }}>
                    { table_grid("answers-summary", &table(b, AnswersTable::Summary).unwrap_or_default(), summary_look, &r.summary, &[], |s| RowAttrs::data(vec![
                        ("data-profile", s.profile.name().to_string()),
                        ("data-arm", s.arm.clone().unwrap_or_default()),
                        ("data-dataset", s.dataset.clone().unwrap_or_default()),
                    ])) }
                </Section>
                if !r.stated.is_empty() {
                    <Section id="answers-stated-card" title="The files' own scores beside the profiles" conventions={conv.clone()}
                        exports={table_exports(AnswersTable::Stated, b, table, |b| to_json(&b.report.stated))}
                        intro={html! { <p class="intro">{ "The files' own verdicts (0/1: agreement, κ) and scores (rows equal within 1e-6, |Δ|), never rescored." }</p> }}>
                        { table_grid("answers-stated", &table(b, AnswersTable::Stated).unwrap_or_default(), stated_look, &r.stated, &[], |c| RowAttrs::data(vec![
                            ("data-column", c.column.clone()),
                            ("data-arm", c.arm.clone().unwrap_or_default()),
                            ("data-profile", c.profile.name().to_string()),
                        ])) }
                    </Section>
                }
                <Section id="answers-disagreements-card" title="How the profiles disagree" conventions={conv.clone()}
                    exports={columns_exports("disagreements", b, disagreement_rows, disagreement_cols)}>
                    { grid("answers-disagreements", &disagreement_cols(b), &r.disagreements, |x| RowAttrs::data(vec![
                        ("data-a", x.a.name().to_string()), ("data-b", x.b.name().to_string()),
                    ]).with_class((x.verdict_changes > 0).then_some("changes"))) }
                </Section>
                <Section id="answers-diff-card" title="Queries whose verdict changes" conventions={conv.clone()}
                    exports={table_exports(AnswersTable::Diff, b, table, |b| to_json(b.report.diff.as_deref().unwrap_or_default()))}
                    intro={html! { <p class="intro">{ "The rows correct under one of two profiles and not under the other, with the raw prediction and the gold answers (shown as text)." }</p> }}>
                    <div class="controls">
                        { pick("answers-diff-a", &d.diff_a, |d, v| d.diff_a = v) }
                        { pick("answers-diff-b", &d.diff_b, |d, v| d.diff_b = v) }
                    </div>
                    if let Some(rows) = &b.report.diff {
                        <p class="muted" id="answers-diff-count" data-count={rows.len().to_string()}>
                            { format!("{} of {} rows change verdict.", count(rows.len()), count(row_count)) }</p>
                        { table_grid("answers-diff", &table(b, AnswersTable::Diff).unwrap_or_default(), diff_look, rows, &[], |x| item.row(RowAttrs::data(vec![
                            ("data-query", x.query_id.clone()), ("data-arm", x.arm.clone().unwrap_or_default()),
                        ]), &x.query_id, &on_item)) }
                    } else {
                        <p class="empty" id="answers-diff-empty">{ "Choose two different profiles." }</p>
                    }
                </Section>
                <Section id="answers-rows-card" title="Every answer" conventions={conv}
                    exports={table_exports(AnswersTable::Rows, b, table, |b| to_json(&b.report.rows))}
                    intro={html! { <p class="intro">{ "Click a row (or press Enter on it) to read its query as the files state it: the question and gold answers, then each arm's prediction, its parse and its scores." }</p> }}>
                    { table_grid("answers-rows", &rows_table(&r.settings.profiles, shown), row_look, shown, &[], |x| item.row(RowAttrs::data(vec![
                        ("data-query", x.query_id.clone()), ("data-arm", x.arm.clone().unwrap_or_default()),
                    ]), &x.query_id, &on_item)) }
                    if pages > 1 {
                        <div class="pager">
                            { pager(current.saturating_sub(1), "answers-rows-prev", "Previous", current > 0) }
                            <span class="muted">{ format!("rows {}–{} of {}", current * ROWS_PAGE + 1, current * ROWS_PAGE + shown.len(), count(row_count)) }</span>
                            { pager(current + 1, "answers-rows-next", "Next", current + 1 < pages) }
                        </div>
                    }
                </Section>
                { item.view("answers-", "arm") }
            </>
        }
    }
}
