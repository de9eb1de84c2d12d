//! The probe page: paste a note, its source and its stale value and see the note with
//! every found source token, stale token and completeness tag highlighted (as text nodes, never
//! HTML) and the verdict explained in one sentence, in either probe mode; or drop a notes file
//! (memaudit notes JSONL or reclaim-eval realworld rows, probe keys optional) and get the batch
//! table, verdict bars and the outcome cross-tab with per-verdict recovery (Wilson intervals)
//! for both modes side by side — the numbers of `memaudit probe --format json`.

use std::rc::Rc;

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::web::components::explore::Explore;

use super::{ErrorView, FileEdit, PageProps, PageState, file_list, file_picker, forward_drop, report_state};
use crate::capability::FileSummary;
use crate::plots::VerdictBars;
use crate::probe::summary::{ModeReport, ProbeTable, notes_table, probe_table};
use crate::probe::{
    Highlight, HighlightRole, LiveProbe, Mode, NoteChoice, NoteInput, Probe, ProbeReport, ProbeRequest, ProbeView,
    SourceKind, Verdict,
};
use crate::web::components::Section;
use crate::web::components::contents::Contents;
use crate::web::components::export::{lazy_exports, to_json};
use crate::web::components::grid::{Kind, Look, RowAttrs, TableTag, table_grid, table_view};
use crate::web::components::plot::PlotCanvas;
use crate::web::components::warnings::warnings_list;
use crate::web::format::{count, duration, int_cell, pct, text_cell};
use crate::web::job::{self, Job, JobEvent};
use crate::web::protocol::{Inputs, Response, SourceFile};

/// A probe batch as the page shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct ProbeBatch {
    pub files: Vec<FileSummary>,
    pub report: ProbeReport,
    /// Distinct arms among the kept notes (for the arm filter).
    pub arms: Vec<String>,
    /// Notes read (before the arm filter).
    pub notes_read: usize,
    pub total_ms: f64,
    /// The report's headlines (the CLI's `headlines`).
    pub headlines: Rc<Vec<crate::headline::Headline>>,
    /// The input files the report rests on (for the report to attach).
    pub inputs: Rc<Vec<crate::attach::InputInfo>>,
}

/// What the page's last drill-down asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Asked {
    /// The pasted note.
    Live,
    /// A note of the batch (its row).
    Batch(usize),
}

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

pub enum Msg {
    Note(String),
    Source(String),
    Stale(String),
    SourceKind(String),
    Mode(Mode),
    Example,
    /// Run the batch on the built-in demo notes.
    Demo,
    /// Files added, one taken off (the others read again), or all cleared.
    Files(FileEdit),
    BatchMode(Mode),
    Confidence(String),
    ApplyConfidence,
    Arm(String),
    NotesPage(usize),
    Detail(usize),
    Worker(Response),
    Cancel,
    DismissError,
}

/// The probe page.
pub struct ProbePage {
    job: Job<Probe>,
    asked: Option<Asked>,
    overview: Option<crate::probe::ProbeOverview>,
    note: String,
    source: String,
    stale: String,
    source_kind: String,
    mode: Mode,
    live: Option<Rc<LiveProbe>>,
    files: Vec<SourceFile>,
    run: ProbeRequest,
    confidence: String,
    batch: Option<Rc<ProbeBatch>>,
    notes_page: usize,
    detail: Option<(usize, Rc<LiveProbe>)>,
    last_drop: Option<u32>,
    state: PageState,
}

/// The § A2.2 notebook example of reclaim-eval's notes.
const EXAMPLE: (&str, &str, &str) = (
    "(Memory of an earlier session.) You concluded the total before tax was $55.",
    "notebooks at $4 each (7 bought) and pens at $2 each (9 bought)",
    "$55",
);

impl ProbePage {
    fn probe_live(&mut self) {
        if self.note.trim().is_empty() {
            self.live = None;
            if self.asked == Some(Asked::Live) {
                self.asked = None;
            }
            return;
        }
        let mut input = NoteInput::new("note", self.note.clone());
        input.source = (!self.source.trim().is_empty()).then(|| self.source.clone());
        input.stale = (!self.stale.trim().is_empty()).then(|| self.stale.clone());
        input.source_kind = SourceKind::parse(&self.source_kind).unwrap_or_default();
        // A pasted note needs no loaded notes and no batch settings.
        if self.job.detail(&ProbeRequest::default(), &NoteChoice::Given(Box::new(input))).is_some() {
            self.asked = Some(Asked::Live);
        }
    }

    fn rerun(&mut self) {
        if self.batch.is_none() {
            return;
        }
        self.job.run(None, &self.run, "probing notes");
    }

    fn on_response(&mut self, r: Response) -> bool {
        match self.job.on_response(r, &mut self.files, self.batch.is_some(), "notes") {
            JobEvent::Ignored => false,
            JobEvent::Progress => true,
            JobEvent::Done { outcome, timing } => {
                let outcome = *outcome;
                if let Some(o) = outcome.overview {
                    self.overview = Some(o);
                }
                let o = self.overview.clone().unwrap_or(crate::probe::ProbeOverview {
                    files: Vec::new(),
                    arms: Vec::new(),
                    notes_read: 0,
                });
                let headlines = Rc::new(crate::capability::headlines::<crate::probe::Probe>(&outcome.report));
                let inputs = Rc::new(crate::attach::of_summaries(&o.files));
                self.batch = Some(Rc::new(ProbeBatch {
                    headlines,
                    inputs,
                    files: o.files,
                    report: outcome.report,
                    arms: o.arms,
                    notes_read: o.notes_read,
                    total_ms: timing.total_ms,
                }));
                self.detail = None;
                self.notes_page = 0;
                true
            }
            JobEvent::Detail(view) => {
                match self.asked.take() {
                    Some(Asked::Live) => self.live = Some(Rc::new(*view)),
                    Some(Asked::Batch(i)) => self.detail = Some((i, Rc::new(*view))),
                    None => return false,
                }
                true
            }
            JobEvent::Failed(_, overview) => {
                if let Some(o) = overview {
                    self.overview = Some(*o);
                }
                self.asked = None;
                true
            }
        }
    }

    fn view_live(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let text = |f: fn(String) -> Msg| {
            link.callback(move |e: InputEvent| {
                let target = e.target();
                let v = target
                    .and_then(|t| js_sys::Reflect::get(&t, &"value".into()).ok())
                    .and_then(|v| v.as_string())
                    .unwrap_or_default();
                f(v)
            })
        };
        let on_kind = link.callback(|e: Event| Msg::SourceKind(e.target_unchecked_into::<HtmlSelectElement>().value()));
        let mode_radio = |m: Mode| {
            let onchange = link.callback(move |_: Event| Msg::Mode(m));
            html! {
                <label class="radio">
                    <input type="radio" name="probe-mode" id={format!("probe-mode-{}", m.name())} value={m.name()}
                        checked={self.mode == m} {onchange} />{ format!(" {}", m.name()) }
                </label>
            }
        };
        let example = link.callback(|_: MouseEvent| Msg::Example);
        let live = self.live.as_ref().map(|l| {
            let (this, other) = match self.mode {
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
                        <textarea id="probe-note" rows="4" value={self.note.clone()} oninput={text(Msg::Note)}
                            placeholder="(Memory of an earlier session.) You concluded …" />
                    </div>
                    <div class="field grow">
                        <label for="probe-source">{ "source" }</label>
                        <textarea id="probe-source" rows="3" value={self.source.clone()} oninput={text(Msg::Source)}
                            placeholder="notebooks at $4 each (7 bought) and pens at $2 each (9 bought)" />
                    </div>
                    <div class="fields">
                        <div class="field">
                            <label for="probe-stale">{ "stale value" }</label>
                            <input id="probe-stale" type="text" value={self.stale.clone()} oninput={text(Msg::Stale)} placeholder="$55" />
                        </div>
                        <div class="field">
                            <label for="probe-source-kind">{ "source kind" }</label>
                            <select id="probe-source-kind" onchange={on_kind}>
                                { for [("auto", "auto"), ("line_items", "line items"), ("times", "clock times"), ("clauses", "clauses")].iter().map(|(k, l)| html! {
                                    <option value={*k} selected={self.source_kind == *k}>{ *l }</option>
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

    fn view_batch(&self, ctx: &Context<Self>, b: &Rc<ProbeBatch>) -> Html {
        let r = &b.report;
        let side = &r.side_by_side;
        let modes: [(&str, &ModeReport); 2] = [("itemized", &side.itemized), ("reference", &side.reference)];
        let chart = crate::probe::figures::verdict_bars(r);
        let conf = format!("{}%", r.summary.confidence * 100.0);
        let conv = Some(AttrValue::from(format!(
            "mode={} confidence={} arm={} notes={}",
            r.mode.name(),
            r.summary.confidence,
            self.run.arm.clone().unwrap_or_else(|| "all".into()),
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
                    ProbeTable::ByVerdict => to_json(&[
                        &c.report.side_by_side.itemized.by_verdict,
                        &c.report.side_by_side.reference.by_verdict,
                    ]),
                    ProbeTable::ByPolicy => to_json(&[
                        &c.report.side_by_side.itemized.by_policy,
                        &c.report.side_by_side.reference.by_policy,
                    ]),
                    ProbeTable::Agreement => to_json(&c.report.side_by_side.agreement),
                    ProbeTable::Summary => {
                        to_json(&[&c.report.side_by_side.itemized.summary, &c.report.side_by_side.reference.summary])
                    }
                    ProbeTable::Confusion => to_json(&[
                        &c.report.side_by_side.itemized.confusion,
                        &c.report.side_by_side.reference.confusion,
                    ]),
                },
            )
        };
        let report_json = {
            let b = b.clone();
            move || crate::web::components::export::report_json::<crate::probe::Probe>(&b.report)
        };
        let summary = probe_table(r, ProbeTable::Summary);
        let by_verdict = probe_table(r, ProbeTable::ByVerdict);
        let confusion = probe_table(r, ProbeTable::Confusion);
        html! {
            <div id="probe-results">
                <crate::web::components::headlines::HeadlinesPanel id="probe-headlines" headlines={b.headlines.clone()}
                    cards={&[("notes", "probe-summary"), ("by_verdict", "probe-outcomes"), ("agreement", "probe-outcomes")][..]}
                    exports={crate::web::components::headlines::attach_buttons::<crate::probe::Probe, ProbeBatch>(
                        "probe-", b.clone(), |b| &b.report, b.inputs.clone())} />
                <Contents id="probe-contents" root="probe-results" revision={Rc::as_ptr(b) as usize} />
                <Section id="probe-summary" title="Verdicts, both modes side by side" conventions={conv.clone()} exports={exp(ProbeTable::Summary)}
                    intro={html! { <p class="intro">{ format!("Counts per verdict; the silent-uncorrectable rate (silent / uncorrectable_silent) and the \
                        unflagged-failure rate (also silently partial notes) with {conf} Wilson intervals.") }</p> }}>
                    { table_grid("probe-rates", &probe_table(r, ProbeTable::Summary), summary_look, &summary.rows, &[], |row: &Vec<String>| mode_attrs(row)) }
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
                        { table_grid("probe-confusion", &probe_table(r, ProbeTable::Confusion), confusion_look, &confusion.rows, &[], |row: &Vec<String>| mode_attrs(row)) }
                        { self.crosstab(r) }
                    </Section>
                }
                if let Some((i, d)) = &self.detail {
                    <Section id="probe-detail" title={format!("Note {} of the batch", i + 1)}>
                        { {
                            let (this, other) = match self.run.mode {
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
                { self.view_notes(ctx, b, exp(ProbeTable::Notes)) }
                // What was read follows the results.
                <Section id="probe-reading" title="What was read"
                    exports={crate::web::components::export::text_download("probe-report-json", "Full report JSON", "memaudit-probe.json", "application/json", report_json)}>
                    { super::tool::file_notes("probe-", &b.files) }
                    <p class="muted">{ format!("{} notes read, {} probed (arm: {}), in {}.", count(b.notes_read), count(r.notes.len()),
                        self.run.arm.clone().unwrap_or_else(|| "all".into()), duration(b.total_ms)) }</p>
                    { warnings_list("probe-warnings", r.warnings.iter().map(|w| ("reading", w))) }
                </Section>
            </div>
        }
    }

    fn crosstab(&self, r: &ProbeReport) -> Html {
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

    fn view_notes(&self, ctx: &Context<Self>, b: &ProbeBatch, exports: Html) -> Html {
        let link = ctx.link();
        let notes = &b.report.notes;
        let pages = notes.len().div_ceil(NOTES_PAGE).max(1);
        let page = self.notes_page.min(pages - 1);
        let range = page * NOTES_PAGE..((page + 1) * NOTES_PAGE).min(notes.len());
        let shown = &notes[range.clone()];
        let rows: Vec<(usize, &crate::probe::NoteRow)> =
            shown.iter().enumerate().map(|(j, n)| (range.start + j, n)).collect();
        let prev = link.callback(move |_: MouseEvent| Msg::NotesPage(page.saturating_sub(1)));
        let next = link.callback(move |_: MouseEvent| Msg::NotesPage(page + 1));
        html! {
            <Section id="probe-notes" title="Notes" {exports}
                intro={html! { <p class="intro">{ format!("Every note in {} mode. Click a row to see the note highlighted.", b.report.mode.name()) }</p> }}>
                { table_view(TableTag::new("probe-notes-table").data("data-total", notes.len()), &notes_table(shown), note_look, &rows, &[],
                    |(i, n): &(usize, &crate::probe::NoteRow)| {
                        let i = *i;
                        let selected = self.detail.as_ref().is_some_and(|(d, _)| *d == i);
                        RowAttrs::data(vec![
                            ("data-note-id", n.note_id.clone()),
                            ("data-verdict", n.verdict.name().to_string()),
                            ("data-index", i.to_string()),
                        ])
                        .with_class(selected.then_some("selected"))
                        .on_activate(link.callback(move |_: ()| Msg::Detail(i)))
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

screen!(crate::probe::Probe => ProbePage, Founding);

impl Component for ProbePage {
    type Message = Msg;
    type Properties = PageProps;

    fn create(ctx: &Context<Self>) -> Self {
        let mut page = ProbePage {
            job: Job::new(ctx.link().callback(Msg::Worker)),
            asked: None,
            overview: None,
            note: String::new(),
            source: String::new(),
            stale: String::new(),
            source_kind: "auto".into(),
            mode: Mode::Itemized,
            live: None,
            files: Vec::new(),
            run: ProbeRequest::default(),
            confidence: ProbeRequest::default().confidence.to_string(),
            batch: None,
            notes_page: 0,
            detail: None,
            last_drop: ctx.props().dropped.as_ref().map(|d| d.seq),
            state: PageState::Idle,
        };
        if ctx.props().active && crate::web::dom::startup_request(crate::web::pages::Page::Probe).demo {
            page.job.run(Some(Inputs::Demo), &page.run, "loading the demo");
        }
        page
    }

    fn changed(&mut self, ctx: &Context<Self>, _old: &Self::Properties) -> bool {
        forward_drop(ctx, &mut self.last_drop, Msg::Files)
    }

    fn update(&mut self, _ctx: &Context<Self>, msg: Self::Message) -> bool {
        match msg {
            Msg::Note(v) => {
                self.note = v;
                self.probe_live();
                true
            }
            Msg::Source(v) => {
                self.source = v;
                self.probe_live();
                true
            }
            Msg::Stale(v) => {
                self.stale = v;
                self.probe_live();
                true
            }
            Msg::SourceKind(v) => {
                self.source_kind = v;
                self.probe_live();
                true
            }
            Msg::Mode(m) => {
                self.mode = m;
                true
            }
            Msg::Example => {
                self.note = EXAMPLE.0.into();
                self.source = EXAMPLE.1.into();
                self.stale = EXAMPLE.2.into();
                self.source_kind = "auto".into();
                self.probe_live();
                true
            }
            Msg::Demo => {
                self.files.clear();
                self.run.arm = None;
                self.job.run(Some(Inputs::Demo), &self.run, "loading the demo");
                true
            }
            Msg::Files(edit) => {
                // A probe-keys file dropped alone joins the notes already chosen.
                if edit.apply(&mut self.files) && !self.files.is_empty() {
                    self.run.arm = None;
                    self.job.run(Some(job::files(&self.files)), &self.run, "reading notes");
                }
                true
            }
            Msg::BatchMode(m) => {
                self.run.mode = m;
                self.rerun();
                true
            }
            Msg::Confidence(v) => {
                self.confidence = v;
                true
            }
            Msg::ApplyConfidence => {
                match self.confidence.trim().parse::<f64>() {
                    Ok(c) => {
                        // Checked by the core's validate (the CLI's message) before it is sent.
                        let mut run = self.run.clone();
                        run.confidence = c;
                        if self.batch.is_none() || self.job.run(None, &run, "probing notes").is_some() {
                            self.run = run;
                        }
                    }
                    Err(_) => {
                        self.job.error = Some(ErrorView::plain(
                            "Invalid setting `confidence`",
                            format!("`{}` is not a number", self.confidence.trim()),
                        ))
                    }
                }
                true
            }
            Msg::Arm(a) => {
                self.run.arm = (!a.is_empty()).then_some(a);
                self.rerun();
                true
            }
            Msg::NotesPage(p) => {
                self.notes_page = p;
                true
            }
            Msg::Detail(i) => {
                if self.job.detail(&self.run, &NoteChoice::Loaded(i)).is_some() {
                    self.asked = Some(Asked::Batch(i));
                }
                false
            }
            Msg::Worker(r) => self.on_response(r),
            Msg::Cancel => {
                self.job.cancel();
                self.asked = None;
                true
            }
            Msg::DismissError => {
                self.job.error = None;
                true
            }
        }
    }

    fn rendered(&mut self, ctx: &Context<Self>, _first: bool) {
        report_state(ctx.props(), &mut self.state, self.job.state(self.batch.is_some() || self.live.is_some()));
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let state = self.job.state(self.batch.is_some() || self.live.is_some());
        let on_files = link.callback(|f| Msg::Files(FileEdit::Add(f)));
        let on_mode = link.callback(|e: Event| {
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            Msg::BatchMode(Mode::parse(&v).unwrap_or_default())
        });
        let on_conf =
            link.callback(|e: InputEvent| Msg::Confidence(e.target_unchecked_into::<HtmlInputElement>().value()));
        let apply_conf = link.callback(|_: Event| Msg::ApplyConfidence);
        let on_arm = link.callback(|e: Event| Msg::Arm(e.target_unchecked_into::<HtmlSelectElement>().value()));
        let arms = self.batch.as_ref().map(|b| b.arms.clone()).unwrap_or_default();
        html! {
            <section class="page" id="page-probe" data-page="probe" data-state={state.name()} data-finished={self.job.finished()}
                hidden={!ctx.props().active} aria-label="Probe">
                <p class="tagline">{ "The write-time source-token probe: does a memory note keep the source a later correction needs, or only a \
                    stale conclusion that can never be repaired (the silent-uncorrectable case)?" }</p>
                // Once a batch has results, the single-note probe follows them.
                if self.batch.is_none() {
                    { self.view_live(ctx) }
                }
                <section id="probe-intake" class="card drop-zone" aria-labelledby="probe-intake-title">
                    <h2 id="probe-intake-title">{ "A file of notes" }</h2>
                    <p>{ "Drop a notes file anywhere on this page, or choose it: memaudit notes JSONL (" }<code>{ "note, source, stale, correct" }</code>
                        { ") or reclaim-eval realworld rows (" }<code>{ "memory_text" }</code>{ "), with reclaim-eval's " }
                        <code>{ "probe_keys_base16.json" }</code>{ " if you have it (recognised by its content); or plain text, one note per \
                        paragraph, dropped together with the plain-text source they were written from (a file whose name contains " }
                        <code>{ "source" }</code>{ ")." }</p>
                    <div class="intake-actions">
                        { file_picker("probe-file-input", "Choose notes files…", "probe-privacy", on_files) }
                        <button type="button" class="secondary" id="probe-demo-button" onclick={link.callback(|_: MouseEvent| Msg::Demo)}
                            title="synthetic notes of three memory policies built into the page: nothing is fetched">{ "Try the demo" }</button>
                    </div>
                    { file_list("probe-", &self.files, link.callback(Msg::Files)) }
                    <div class="fields">
                        <div class="field">
                            <label for="probe-batch-mode">{ "table mode" }</label>
                            <select id="probe-batch-mode" onchange={on_mode}>
                                <option value="itemized" selected={self.run.mode == Mode::Itemized}>{ "itemized (default)" }</option>
                                <option value="reference" selected={self.run.mode == Mode::Reference}>{ "reference (reclaim-eval)" }</option>
                            </select>
                        </div>
                        <div class="field">
                            <label for="probe-confidence">{ "confidence" }</label>
                            <input id="probe-confidence" type="text" value={self.confidence.clone()} oninput={on_conf} onchange={apply_conf} />
                        </div>
                        <div class="field">
                            <label for="probe-arm">{ "arm" }</label>
                            <select id="probe-arm" onchange={on_arm} disabled={arms.is_empty()}>
                                <option value="" selected={self.run.arm.is_none()}>{ "all notes" }</option>
                                { for arms.iter().map(|a| html! { <option value={a.clone()} selected={self.run.arm.as_deref() == Some(a.as_str())}>{ a.clone() }</option> }) }
                            </select>
                        </div>
                    </div>
                    <p class="muted" id="probe-privacy">{ "Everything runs in this browser tab: your files are never uploaded." }</p>
                </section>
                { self.job.view("probe-", link.callback(|_: MouseEvent| Msg::Cancel), link.callback(|_: MouseEvent| Msg::DismissError)) }
                if let Some(b) = &self.batch {
                    { self.view_batch(ctx, b) }
                    { self.view_live(ctx) }
                }
                <footer class="page-foot muted">
                    { "The same numbers as " }<code>{ "memaudit probe --notes FILE --format json" }</code>{ "; CSV exports equal " }
                    <code>{ "--format csv --table NAME" }</code>{ "." }
                </footer>
            </section>
        }
    }
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
