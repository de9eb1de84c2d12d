//! The probe page: paste a note, its source and its stale value and see the note with
//! every found source token, stale token and completeness tag highlighted (as text nodes, never
//! HTML) and the verdict explained in one sentence, in either probe mode; or drop a notes file
//! (memaudit notes JSONL or reclaim-eval realworld rows, probe keys optional) and get the batch
//! table, verdict bars and the outcome cross-tab with per-verdict recovery (Wilson intervals)
//! for both modes side by side — the numbers of `memaudit probe --format json`. A tool page
//! ([`ToolPage`]): the one-note probe is its standalone card, a drill-down asked of the worker.

use std::rc::Rc;

use web_sys::HtmlSelectElement;
use yew::prelude::*;

use super::tool::{BatchOf, Tool, ToolPage, Ui, file_notes};
use crate::plots::VerdictBars;
use crate::probe::summary::{ModeReport, ProbeTable, notes_table, probe_table};
use crate::probe::{
    Highlight, HighlightRole, LiveProbe, Mode, NoteChoice, NoteInput, Probe, ProbeReport, ProbeRequest, ProbeView,
    SourceKind, Verdict,
};
use crate::web::components::Section;
use crate::web::components::explore::Explore;
use crate::web::components::export::{lazy_exports, text_download, to_json};
use crate::web::components::fields::FieldDraft;
use crate::web::components::grid::{Kind, Look, RowAttrs, TableTag, table_grid, table_view};
use crate::web::components::plot::PlotCanvas;
use crate::web::components::warnings::warnings_list;
use crate::web::format::{count, duration, int_cell, pct, text_cell};

/// The probe page's tool.
pub enum ProbeTool {}

/// The probe page.
pub type ProbePage = ToolPage<ProbeTool>;

screen!(crate::probe::Probe => ProbePage, Founding);

type ProbeBatch = BatchOf<ProbeTool>;

/// What the page's last drill-down asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Asked {
    /// The pasted note.
    Live,
    /// A note of the batch (its row).
    Batch(usize),
}

/// The one-note probe as edited, the notes table's page and the drill-downs' answers.
pub struct View {
    note: String,
    source: String,
    stale: String,
    source_kind: String,
    /// The mode the one-note probe is shown in.
    mode: Mode,
    live: Option<Rc<LiveProbe>>,
    asked: Option<Asked>,
    notes_page: usize,
    detail: Option<(usize, Rc<LiveProbe>)>,
}

impl Default for View {
    fn default() -> Self {
        View {
            note: String::new(),
            source: String::new(),
            stale: String::new(),
            source_kind: "auto".into(),
            mode: Mode::Itemized,
            live: None,
            asked: None,
            notes_page: 0,
            detail: None,
        }
    }
}

impl View {
    /// The pasted note as the worker's question (none while the note is empty).
    fn live_question(&mut self) -> Option<NoteChoice> {
        if self.note.trim().is_empty() {
            self.live = None;
            if self.asked == Some(Asked::Live) {
                self.asked = None;
            }
            return None;
        }
        let mut input = NoteInput::new("note", self.note.clone());
        input.source = (!self.source.trim().is_empty()).then(|| self.source.clone());
        input.stale = (!self.stale.trim().is_empty()).then(|| self.stale.clone());
        input.source_kind = SourceKind::parse(&self.source_kind).unwrap_or_default();
        self.asked = Some(Asked::Live);
        Some(NoteChoice::Given(Box::new(input)))
    }
}

/// One field of the one-note probe.
#[derive(Clone, Copy)]
enum LiveField {
    Note,
    Source,
    Stale,
    SourceKind,
}

/// The § A2.2 notebook example of reclaim-eval's notes.
const EXAMPLE: (&str, &str, &str) = (
    "(Memory of an earlier session.) You concluded the total before tax was $55.",
    "notebooks at $4 each (7 bought) and pens at $2 each (9 bought)",
    "$55",
);

/// Notes per page of the batch table.
pub const NOTES_PAGE: usize = 50;

/// One piece of a highlighted note: its text and the roles covering it.
#[derive(Debug, Clone, PartialEq)]
pub struct Segment {
    pub text: String,
    pub roles: Vec<HighlightRole>,
    /// Tokens covering it (for the tooltip).
    pub tokens: Vec<String>,
}

/// Cuts `note` at every highlight boundary; each piece lists the roles covering it. Spans that
/// do not fall on character boundaries are ignored (the note is then shown as is).
pub fn segments(note: &str, highlights: &[Highlight]) -> Vec<Segment> {
    let mut cuts: Vec<usize> = vec![0, note.len()];
    for h in highlights {
        for b in [h.span.byte_start, h.span.byte_end] {
            if b <= note.len() && note.is_char_boundary(b) {
                cuts.push(b);
            }
        }
    }
    cuts.sort_unstable();
    cuts.dedup();
    let mut out: Vec<Segment> = Vec::new();
    for w in cuts.windows(2) {
        let (a, b) = (w[0], w[1]);
        let Some(text) = note.get(a..b) else { continue };
        let covering: Vec<&Highlight> = highlights
            .iter()
            .filter(|h| h.span.byte_start <= a && h.span.byte_end >= b && h.span.byte_start < h.span.byte_end)
            .collect();
        let mut roles: Vec<HighlightRole> = Vec::new();
        let mut tokens: Vec<String> = Vec::new();
        for h in covering {
            if !roles.contains(&h.role) {
                roles.push(h.role);
            }
            if !tokens.contains(&h.token) {
                tokens.push(h.token.clone());
            }
        }
        match out.last_mut() {
            Some(last) if last.roles == roles && roles.is_empty() => last.text.push_str(text),
            _ => out.push(Segment { text: text.to_string(), roles, tokens }),
        }
    }
    out
}

fn role_name(r: HighlightRole) -> &'static str {
    match r {
        HighlightRole::Source => "source",
        HighlightRole::Stale => "stale",
        HighlightRole::Tag => "tag",
    }
}

/// The note with its highlights, as text nodes inside `<mark>` elements.
pub fn highlighted(id: &str, note: &str, highlights: &[Highlight]) -> Html {
    html! {
        <p class="highlighted" id={id.to_string()}>
            { for segments(note, highlights).into_iter().map(|s| {
                if s.roles.is_empty() {
                    html! { { s.text } }
                } else {
                    let names: Vec<&str> = s.roles.iter().map(|r| role_name(*r)).collect();
                    let classes: Vec<String> = names.iter().map(|n| format!("hl-{n}")).collect();
                    html! {
                        <mark class={classes!("hl", classes)} data-role={names.join(" ")}
                            title={format!("{}: {}", names.join(" + "), s.tokens.join(", "))}>{ s.text }</mark>
                    }
                }
            }) }
        </p>
    }
}

fn verdict_class(v: Verdict) -> &'static str {
    if v.predicts_recovery() {
        "v-ok"
    } else if v.is_silent_failure() {
        "v-silent"
    } else if v == Verdict::PartialSilent {
        "v-partial"
    } else {
        "v-loud"
    }
}

/// One note in one mode: verdict, explanation, highlighted note, items.
pub fn probe_view(prefix: &str, v: &ProbeView, other: Option<&Result<ProbeView, String>>) -> Html {
    let r = &v.row;
    html! {
        <div class="probe-view" id={format!("{prefix}view")} data-mode={r.mode.name()}>
            <p class="verdict-line">
                <span class={classes!("verdict", verdict_class(r.verdict))} id={format!("{prefix}verdict")} data-verdict={r.verdict.name()}>
                    { r.verdict.name() }
                </span>
                <span class="muted">{ format!(" {} mode: {} of {} source item(s) found; stale value {}{}.",
                    r.mode.name(), r.items_found, r.items_total, if r.stale_found { "found" } else { "not found" },
                    match (r.tag_k, r.tag_n) { (Some(k), Some(n)) => format!("; tag says {k} of {n}"), _ => String::new() }) }</span>
                if let Some(Ok(o)) = other {
                    <span class="muted other-verdict">{ format!(" The {} probe says ", o.row.mode.name()) }
                        <span class={classes!("verdict", "small", verdict_class(o.row.verdict))} id={format!("{prefix}other-verdict")}
                            data-verdict={o.row.verdict.name()}>{ o.row.verdict.name() }</span>{ "." }</span>
                }
            </p>
            <p class="explanation" id={format!("{prefix}explanation")}>{ r.explanation.clone() }</p>
            { highlighted(&format!("{prefix}highlighted"), &v.note, &v.highlights) }
            <p class="legend muted">
                <mark class="hl hl-source">{ "source token" }</mark>{ " " }
                <mark class="hl hl-stale">{ "stale value" }</mark>{ " " }
                <mark class="hl hl-tag">{ "completeness tag" }</mark>
            </p>
            <ul class="items" id={format!("{prefix}items")}>
                { for v.items.iter().map(|i| html! {
                    <li data-found={i.found.to_string()} class={classes!(if i.found { "found" } else { "missing" })}>
                        { if i.found { "\u{2713} " } else { "\u{2717} " } }<code>{ i.label.clone() }</code>
                        <span class="muted">{ format!(" ({})", i.tokens.iter().map(|t| format!("{}{}", t.token, if t.found { "" } else { " \u{2717}" })).collect::<Vec<_>>().join(", ")) }</span>
                    </li>
                }) }
            </ul>
        </div>
    }
}

/// The settings the result on screen was computed under.
fn applied(page: &ToolPage<ProbeTool>) -> ProbeRequest {
    page.applied.as_ref().and_then(|d| ProbeTool::request(d).ok()).unwrap_or_default()
}

/// The batch's arm in words (`all` without one).
fn arm_words(run: &ProbeRequest) -> String {
    run.arm.clone().unwrap_or_else(|| "all".into())
}

impl Tool for ProbeTool {
    // Off for the first module's size: see `Tool::PRINTED_CARD`.
    const PRINTED_CARD: bool = false;
    type Capability = Probe;
    const INTAKE_TITLE: &'static str = "A file of notes";
    const CARDS: crate::web::components::headlines::Cards =
        &[("notes", "probe-summary"), ("by_verdict", "probe-outcomes"), ("agreement", "probe-outcomes")];
    type Draft = FieldDraft<ProbeRequest>;
    type View = View;

    fn tagline() -> Html {
        html! { { "The write-time source-token probe: does a memory note keep the source a later correction needs, or only a \
        stale conclusion that can never be repaired (the silent-uncorrectable case)?" } }
    }

    fn intake() -> Html {
        html! {
            <p>{ "Drop a notes file anywhere on this page, or choose it: memaudit notes JSONL (" }<code>{ "note, source, stale, correct" }</code>
                { ") or reclaim-eval realworld rows (" }<code>{ "memory_text" }</code>{ "), with reclaim-eval's " }
                <code>{ "probe_keys_base16.json" }</code>{ " if you have it (recognised by its content); or plain text, one note per \
                paragraph, dropped together with the plain-text source they were written from (a file whose name contains " }
                <code>{ "source" }</code>{ ")." }</p>
        }
    }

    fn request(draft: &Self::Draft) -> Result<ProbeRequest, String> {
        draft.parse(ProbeRequest::default())
    }

    fn settings(page: &ToolPage<Self>, ui: &Ui<Self>) -> Html {
        // The arm is a choice among the arms of the notes read; `details` only adds to the JSON.
        let arms = page.batch.as_ref().map(|b| b.overview.arms.clone()).unwrap_or_default();
        let mut options = vec![(String::new(), "all notes".to_string())];
        options.extend(arms.iter().map(|a| (a.clone(), a.clone())));
        html! {
            <>
                { ui.fields_form_with("probe", &page.draft, |d: &mut Self::Draft| d, &["arm", "details"], &[]) }
                { ui.select_field("probe-arm", "arm", &options, page.draft.text("arm"), ui.on_select(|d: &mut Self::Draft, v| d.set("arm", v))) }
            </>
        }
    }

    fn files_changed(draft: &mut Self::Draft) {
        // The arms are those of the new notes.
        draft.set("arm", String::new());
    }

    fn after_result(view: &mut View, _draft: &mut Self::Draft, _b: &ProbeBatch, _fresh: bool) -> Option<NoteChoice> {
        view.detail = None;
        view.notes_page = 0;
        if view.asked.is_some_and(|a| a != Asked::Live) {
            view.asked = None;
        }
        None
    }

    fn on_detail(view: &mut View, answer: Option<Result<Rc<LiveProbe>, String>>) -> bool {
        let asked = view.asked.take();
        if let Some(Ok(d)) = answer {
            match asked {
                Some(Asked::Live) => view.live = Some(d),
                Some(Asked::Batch(i)) => view.detail = Some((i, d)),
                None => {}
            }
        }
        false
    }

    fn shows_result(view: &View) -> bool {
        view.live.is_some()
    }

    fn standalone(page: &ToolPage<Self>, ui: &Ui<Self>) -> Html {
        view_live(&page.view, ui)
    }

    fn results(page: &ToolPage<Self>, b: &Rc<ProbeBatch>, ui: &Ui<Self>) -> Html {
        view_batch(page, b, ui)
    }
}

/// The one-note probe: its fields and, once asked, the note highlighted in the chosen mode.
fn view_live(view: &View, ui: &Ui<ProbeTool>) -> Html {
    let text = |field: LiveField| {
        ui.ask(move |view: &mut View, _: Option<&ProbeBatch>, v: String| {
            match field {
                LiveField::Note => view.note = v,
                LiveField::Source => view.source = v,
                LiveField::Stale => view.stale = v,
                LiveField::SourceKind => view.source_kind = v,
            }
            view.live_question()
        })
    };
    let value_of = |e: &web_sys::Event| {
        e.target()
            .and_then(|t| js_sys::Reflect::get(&t, &"value".into()).ok())
            .and_then(|v| v.as_string())
            .unwrap_or_default()
    };
    let on_input = |field: LiveField| text(field).reform(move |e: InputEvent| value_of(&e));
    let on_kind = text(LiveField::SourceKind).reform(|e: Event| e.target_unchecked_into::<HtmlSelectElement>().value());
    let mode_radio = |m: Mode| {
        let onchange = ui.view_with(|view: &mut View, m: Mode| view.mode = m).reform(move |_: Event| m);
        html! {
            <label class="radio">
                <input type="radio" name="probe-mode" id={format!("probe-mode-{}", m.name())} value={m.name()}
                    checked={view.mode == m} {onchange} />{ format!(" {}", m.name()) }
            </label>
        }
    };
    let example = ui.ask(|view: &mut View, _: Option<&ProbeBatch>, _: MouseEvent| {
        view.note = EXAMPLE.0.into();
        view.source = EXAMPLE.1.into();
        view.stale = EXAMPLE.2.into();
        view.source_kind = "auto".into();
        view.live_question()
    });
    let live = view.live.as_ref().map(|l| {
        let (this, other) = match view.mode {
            Mode::Itemized => (&l.itemized, &l.reference),
            Mode::Reference => (&l.reference, &l.itemized),
        };
        match this {
            Ok(v) => probe_view("probe-", v, Some(other)),
            Err(e) => html! { <p class="error" id="probe-live-error" role="alert">{ e.clone() }</p> },
        }
    });
    html! {
        <section class="card" id="probe-live" aria-labelledby="probe-live-title">
            <header class="card-head">
                <h2 id="probe-live-title">{ "One note" }</h2>
                <button type="button" class="small secondary" id="probe-example" onclick={example}>{ "Load the notebook example" }</button>
            </header>
            <p class="intro">{ "Paste a candidate memory note, the source it was written from and the stale value it must not assert \
                on its own. The probe says, without any model call, whether a later correction can still repair the note." }</p>
            <div class="probe-inputs">
                <div class="field grow">
                    <label for="probe-note">{ "note" }</label>
                    <textarea id="probe-note" rows="4" value={view.note.clone()} oninput={on_input(LiveField::Note)}
                        placeholder="(Memory of an earlier session.) You concluded …" />
                </div>
                <div class="field grow">
                    <label for="probe-source">{ "source" }</label>
                    <textarea id="probe-source" rows="3" value={view.source.clone()} oninput={on_input(LiveField::Source)}
                        placeholder="notebooks at $4 each (7 bought) and pens at $2 each (9 bought)" />
                </div>
                <div class="fields">
                    <div class="field">
                        <label for="probe-stale">{ "stale value" }</label>
                        <input id="probe-stale" type="text" value={view.stale.clone()} oninput={on_input(LiveField::Stale)} placeholder="$55" />
                    </div>
                    <div class="field">
                        <label for="probe-source-kind">{ "source kind" }</label>
                        <select id="probe-source-kind" onchange={on_kind}>
                            { for [("auto", "auto"), ("line_items", "line items"), ("times", "clock times"), ("clauses", "clauses")].iter().map(|(k, l)| html! {
                                <option value={*k} selected={view.source_kind == *k}>{ *l }</option>
                            }) }
                        </select>
                    </div>
                    <div class="field mode-switch" role="radiogroup" aria-label="probe mode">
                        <span class="label-like">{ "mode" }</span>
                        <div>{ mode_radio(Mode::Itemized) }{ mode_radio(Mode::Reference) }</div>
                    </div>
                </div>
            </div>
            // Exactly one child, result or not: `{ for live }` spliced 0 or 1 nodes into this
            // list, and Yew's unkeyed diff aligns lists at their end, so the first result
            // re-created the textareas above it, dropping focus and a fill in flight.
            { live.unwrap_or_default() }
        </section>
    }
}

/// The batch's cards: verdicts, outcomes, the note asked of the batch, the notes, what was read.
fn view_batch(page: &ToolPage<ProbeTool>, b: &Rc<ProbeBatch>, ui: &Ui<ProbeTool>) -> Html {
    let r = &b.report;
    let run = applied(page);
    let side = &r.side_by_side;
    let modes: [(&str, &ModeReport); 2] = [("itemized", &side.itemized), ("reference", &side.reference)];
    let chart = crate::probe::figures::verdict_bars(r);
    let conf = format!("{}%", r.summary.confidence * 100.0);
    let conv = Some(AttrValue::from(format!(
        "mode={} confidence={} arm={} notes={}",
        r.mode.name(),
        r.summary.confidence,
        arm_words(&run),
        r.notes.len()
    )));
    let exp = |which: ProbeTable| {
        let (a, c) = (b.clone(), b.clone());
        let name = which.name();
        lazy_exports(
            name,
            &name.replace('_', " "),
            move || probe_table(&a.report, which).to_csv().map_err(|e| e.to_string()),
            move || match which {
                ProbeTable::Notes => to_json(&c.report.notes),
                ProbeTable::ByVerdict => {
                    to_json(&[&c.report.side_by_side.itemized.by_verdict, &c.report.side_by_side.reference.by_verdict])
                }
                ProbeTable::ByPolicy => {
                    to_json(&[&c.report.side_by_side.itemized.by_policy, &c.report.side_by_side.reference.by_policy])
                }
                ProbeTable::Agreement => to_json(&c.report.side_by_side.agreement),
                ProbeTable::Summary => {
                    to_json(&[&c.report.side_by_side.itemized.summary, &c.report.side_by_side.reference.summary])
                }
                ProbeTable::Confusion => {
                    to_json(&[&c.report.side_by_side.itemized.confusion, &c.report.side_by_side.reference.confusion])
                }
            },
        )
    };
    let report_json = {
        let b = b.clone();
        move || crate::web::components::export::report_json::<Probe>(&b.report, &b.headlines)
    };
    let summary = probe_table(r, ProbeTable::Summary);
    let by_verdict = probe_table(r, ProbeTable::ByVerdict);
    let confusion = probe_table(r, ProbeTable::Confusion);
    html! {
        <>
            <Section id="probe-summary" title="Verdicts, both modes side by side" conventions={conv.clone()} exports={exp(ProbeTable::Summary)}
                intro={html! { <p class="intro">{ format!("Counts per verdict; the silent-uncorrectable rate (silent / uncorrectable_silent) and the \
                    unflagged-failure rate (also silently partial notes) with {conf} Wilson intervals.") }</p> }}>
                { table_grid("probe-rates", &summary, summary_look, &summary.rows, &[], |row: &Vec<String>| mode_attrs(row)) }
                <Explore>
                <table id="probe-counts" class="compact">
                    <thead><tr><th scope="col">{"mode"}</th><th scope="col">{"verdict"}</th><th scope="col">{"notes"}</th><th scope="col">{"share"}</th></tr></thead>
                    <tbody>
                    { for modes.iter().flat_map(|(name, m)| m.summary.counts.iter().map(move |(v, c)| {
                        let share = if m.summary.n > 0 { Some(*c as f64 / m.summary.n as f64) } else { None };
                        html! {
                            <tr data-mode={*name} data-verdict={v.name()}>
                                { text_cell("mode", *name) }
                                <td data-col="verdict"><span class={classes!("verdict", "small", verdict_class(*v))}>{ v.name() }</span></td>
                                { int_cell("count", *c) }
                                <td class="num">{ pct(share) }</td>
                            </tr>
                        }
                    })) }
                    </tbody>
                </table>
                </Explore>
                <PlotCanvas<VerdictBars> id="probe-verdict-chart" plot={chart} filename="memaudit-probe-verdicts" />
            </Section>
            if side.itemized.by_verdict.is_some() || side.reference.by_verdict.is_some() {
                <Section id="probe-outcomes" title="Verdicts against outcomes" conventions={conv.clone()}
                    exports={html! { <>{ exp(ProbeTable::ByVerdict) }{ exp(ProbeTable::Confusion) }{ exp(ProbeTable::Agreement) }{ exp(ProbeTable::ByPolicy) }</> }}
                    intro={html! { <p class="intro">{ format!("How often a correction recovered the answer, per verdict, with {conf} Wilson \
                        intervals; the probe as a predictor (complete / correctable = predicts recovery); and the two modes' verdicts crossed.") }</p> }}>
                    { table_view("probe-by-verdict", &by_verdict, by_verdict_look, &by_verdict.rows, &[], |row: &Vec<String>| {
                        mode_attrs(row).with_data("data-verdict", row.get(1).cloned().unwrap_or_default())
                    }, |_: &Vec<String>, col: &str, text: &str| (col == "verdict").then(|| verdict_cell(text))) }
                    { table_grid("probe-confusion", &confusion, confusion_look, &confusion.rows, &[], |row: &Vec<String>| mode_attrs(row)) }
                    { crosstab(r) }
                </Section>
            }
            if let Some((i, d)) = &page.view.detail {
                <Section id="probe-detail" title={format!("Note {} of the batch", i + 1)}>
                    { {
                        let (this, other) = match r.mode {
                            Mode::Itemized => (&d.itemized, &d.reference),
                            Mode::Reference => (&d.reference, &d.itemized),
                        };
                        match this {
                            Ok(v) => probe_view("probe-detail-", v, Some(other)),
                            Err(e) => html! { <p class="error">{ e.clone() }</p> },
                        }
                    } }
                </Section>
            }
            { view_notes(&page.view, b, exp(ProbeTable::Notes), ui) }
            // What was read follows the results.
            <Section id="probe-reading" title="What was read"
                exports={text_download("probe-report-json", "Full report JSON", "memaudit-probe.json", "application/json", report_json)}>
                { file_notes("probe-", &b.overview.files) }
                <p class="muted">{ format!("{} notes read, {} probed (arm: {}), in {}.", count(b.overview.notes_read), count(r.notes.len()),
                    arm_words(&run), duration(b.timing.total_ms)) }</p>
                { warnings_list("probe-warnings", r.warnings.iter().map(|w| ("reading", w))) }
            </Section>
        </>
    }
}

/// Itemized (rows) × reference (columns) verdicts.
fn crosstab(r: &ProbeReport) -> Html {
    let refs = Mode::Reference.verdicts();
    html! {
        <Explore>
        <table id="probe-agreement" class="compact crosstab">
            <caption>{ "Itemized (rows) × reference (columns): notes, and recovered / with outcome" }</caption>
            <thead><tr><th scope="col">{"itemized \\ reference"}</th>
                { for refs.iter().map(|v| html! { <th scope="col">{ v.name() }</th> }) }</tr></thead>
            <tbody>
            { for Mode::Itemized.verdicts().iter().map(|iv| html! {
                <tr data-itemized={iv.name()}>
                    <th scope="row">{ iv.name() }</th>
                    { for refs.iter().map(|rv| {
                        match r.side_by_side.agreement.iter().find(|c| c.itemized == *iv && c.reference == *rv) {
                            Some(c) => html! {
                                <td class="num" data-reference={rv.name()} data-notes={c.notes.to_string()} data-n={c.n.to_string()}
                                    data-recovered={c.recovered.to_string()}>
                                    { format!("{} ({}/{})", c.notes, c.recovered, c.n) }
                                </td>
                            },
                            None => html! { <td class="num muted" data-reference={rv.name()} data-notes="0">{ "0" }</td> },
                        }
                    }) }
                </tr>
            }) }
            </tbody>
        </table>
        </Explore>
    }
}

/// The notes table, a page of [`NOTES_PAGE`] at a time; a row's click asks for its note.
fn view_notes(view: &View, b: &ProbeBatch, exports: Html, ui: &Ui<ProbeTool>) -> Html {
    let notes = &b.report.notes;
    let pages = notes.len().div_ceil(NOTES_PAGE).max(1);
    let page = view.notes_page.min(pages - 1);
    let range = page * NOTES_PAGE..((page + 1) * NOTES_PAGE).min(notes.len());
    let shown = &notes[range.clone()];
    let rows: Vec<(usize, &crate::probe::NoteRow)> =
        shown.iter().enumerate().map(|(j, n)| (range.start + j, n)).collect();
    let prev = ui.on_view_click(move |v: &mut View| v.notes_page = page.saturating_sub(1));
    let next = ui.on_view_click(move |v: &mut View| v.notes_page = page + 1);
    let ask = ui.ask(|view: &mut View, _: Option<&ProbeBatch>, i: usize| {
        view.asked = Some(Asked::Batch(i));
        Some(NoteChoice::Loaded(i))
    });
    html! {
        <Section id="probe-notes" title="Notes" {exports}
            intro={html! { <p class="intro">{ format!("Every note in {} mode. Click a row to see the note highlighted.", b.report.mode.name()) }</p> }}>
            { table_view(TableTag::new("probe-notes-table").data("data-total", notes.len()), &notes_table(shown), note_look, &rows, &[],
                |(i, n): &(usize, &crate::probe::NoteRow)| {
                    let i = *i;
                    let selected = view.detail.as_ref().is_some_and(|(d, _)| *d == i);
                    RowAttrs::data(vec![
                        ("data-note-id", n.note_id.clone()),
                        ("data-verdict", n.verdict.name().to_string()),
                        ("data-index", i.to_string()),
                    ])
                    .with_class(selected.then_some("selected"))
                    .on_activate(ask.reform(move |_: ()| i))
                },
                |(_, n): &(usize, &crate::probe::NoteRow), col: &str, _: &str| note_cell(n, col)) }
            if pages > 1 {
                <div class="pager">
                    <button type="button" class="small secondary" id="probe-page-prev" onclick={prev} disabled={page == 0}>{ "\u{2190} previous" }</button>
                    <span class="muted" id="probe-page-info">{ format!(" notes {}\u{2013}{} of {} ", range.start + 1, range.end, count(notes.len())) }</span>
                    <button type="button" class="small secondary" id="probe-page-next" onclick={next} disabled={page + 1 >= pages}>{ "next \u{2192}" }</button>
                </div>
            }
        </Section>
    }
}

/// A verdict's cell, from a table's text: its name on its colour.
fn verdict_cell(name: &str) -> Html {
    let v = Mode::Itemized.verdicts().iter().chain(Mode::Reference.verdicts()).copied().find(|v| v.name() == name);
    verdict_td(v, name)
}

fn verdict_td(v: Option<Verdict>, name: &str) -> Html {
    html! {
        <td data-col="verdict"><span class={classes!("verdict", "small", v.map(verdict_class))}>{ name.to_string() }</span></td>
    }
}

/// A row of a table with a row per mode: its mode (the first column).
fn mode_attrs(row: &[String]) -> RowAttrs {
    RowAttrs::data(vec![("data-mode", row.first().cloned().unwrap_or_default())])
}

/// The `summary` table on screen (the confidence is in the settings line).
fn summary_look(col: &str) -> Look {
    match col {
        "mode" => Look::named(col, Kind::Text),
        "n" => Look::new("notes", Kind::Int),
        "silent_n" => Look::new("silent", Kind::Int),
        "unflagged_n" => Look::new("unflagged", Kind::Int),
        "with_outcome" => Look::new("with an outcome", Kind::Int),
        "modal_verdict" => Look::new("most common", Kind::Text),
        "confidence" => Look::folded(),
        _ => Look::named(col, Kind::Num),
    }
}

/// The `by_verdict` table on screen.
fn by_verdict_look(col: &str) -> Look {
    match col {
        "mode" | "verdict" => Look::named(col, Kind::Text),
        "notes" => Look::new("notes", Kind::Int),
        "n" => Look::new("notes with outcome", Kind::Int),
        "recovered" => Look::named(col, Kind::Int),
        _ => Look::named(col, Kind::Num),
    }
}

/// The `confusion` table on screen: the four counts as TP / FP / FN / TN.
fn confusion_look(col: &str) -> Look {
    match col {
        "mode" => Look::named(col, Kind::Text),
        "n" => Look::named(col, Kind::Int),
        "predicted_recover_recovered" => Look::new("TP", Kind::Int).titled("predicted recovery, recovered"),
        "predicted_recover_failed" => Look::new("FP", Kind::Int).titled("predicted recovery, failed"),
        "predicted_fail_recovered" => Look::new("FN", Kind::Int).titled("predicted failure, recovered"),
        "predicted_fail_failed" => Look::new("TN", Kind::Int).titled("predicted failure, failed"),
        "npv" => Look::new("NPV", Kind::Num),
        _ => Look::named(col, Kind::Num),
    }
}

/// The `notes` table on screen: the columns a reader scans (the exports keep every column).
fn note_look(col: &str) -> Look {
    match col {
        "note_id" => Look::new("note", Kind::Text),
        "verdict" | "policy" | "arm" => Look::named(col, Kind::Text),
        "items_found" => Look::new("k / N", Kind::Int).titled("source items found in the note / source items"),
        "stale_found" => Look::new("stale", Kind::Bool).titled("the stale value is in the note"),
        "tag_k" => Look::new("tag", Kind::Text).titled("the note's completeness tag: k of N"),
        "missing" => Look::named(col, Kind::Text),
        "correct" => Look::new("recovered", Kind::Bool),
        "explanation" => Look::new("why", Kind::Text),
        _ => Look::folded(),
    }
}

/// A note's cells drawn otherwise: its id as code, its verdict's colour, k / N, its tag, and
/// the explanation as wrapping text.
fn note_cell(n: &crate::probe::NoteRow, col: &str) -> Option<Html> {
    Some(match col {
        "note_id" => html! { <td data-col="note_id"><code>{ n.note_id.clone() }</code></td> },
        "verdict" => verdict_td(Some(n.verdict), n.verdict.name()),
        "items_found" => html! {
            <td class="num" data-col="items_found" data-value={n.items_found.to_string()}>{ format!("{} / {}", n.items_found, n.items_total) }</td>
        },
        "tag_k" => html! {
            <td data-col="tag">{ match (n.tag_k, n.tag_n) { (Some(k), Some(t)) => format!("{k} of {t}"), _ => "—".into() } }</td>
        },
        "explanation" => html! { <td data-col="explanation" class="text">{ n.explanation.clone() }</td> },
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::probe::text::Span;

    fn hl(start: usize, end: usize, role: HighlightRole) -> Highlight {
        Highlight {
            span: Span { start, end, byte_start: start, byte_end: end },
            role,
            item: None,
            item_found: None,
            token: "t".into(),
        }
    }

    #[test]
    fn segments_cover_the_note_once_with_overlaps_split() {
        let note = "total $55 and 7 pens";
        let s = segments(
            note,
            &[hl(6, 9, HighlightRole::Stale), hl(0, 9, HighlightRole::Tag), hl(14, 15, HighlightRole::Source)],
        );
        assert_eq!(s.iter().map(|x| x.text.as_str()).collect::<String>(), note);
        let roles: Vec<(&str, Vec<HighlightRole>)> = s.iter().map(|x| (x.text.as_str(), x.roles.clone())).collect();
        assert_eq!(roles[0], ("total ", vec![HighlightRole::Tag]));
        assert_eq!(roles[1].0, "$55");
        assert!(roles[1].1.contains(&HighlightRole::Stale) && roles[1].1.contains(&HighlightRole::Tag));
        assert_eq!(roles[3], ("7", vec![HighlightRole::Source]));
        // Out-of-range or mid-character spans are ignored.
        let s = segments("é$", &[hl(1, 3, HighlightRole::Stale)]);
        assert_eq!(s.iter().map(|x| x.text.as_str()).collect::<String>(), "é$");
    }
}
