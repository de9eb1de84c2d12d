//! The release page: drop a paper's released files, a folder of them or an archive (`.zip`,
//! `.tar`, `.tar.gz`) and see which analyses each file feeds, each analysis run under its
//! defaults, and what every one says — the numbers of `memaudit audit --format json`.

use std::rc::Rc;

use yew::prelude::*;

use super::tool::{BatchOf, Tool, ToolPage, Ui};
use crate::ingest::InputFile;
use crate::ingest::archive::ArchiveKind;
use crate::release::triage::PrintedRow;
use crate::release::{AnalysisRun, FileTriage, ReleaseRequest, ReleaseTable, RunStatus};
use crate::report::Table;
use crate::web::components::Section;
use crate::web::components::export::{text_download, to_json};
use crate::web::components::fields::FieldDraft;
use crate::web::components::grid::{Kind, Look, RowAttrs, table_exports, table_grid};
use crate::web::dom::js_err;
use crate::web::format::duration;
use crate::web::protocol::SourceFile;

type ReleaseBatch = BatchOf<Release>;

/// The settings as edited: the request's fields ([`crate::fields!`]).
pub type Draft = FieldDraft<ReleaseRequest>;

pub enum Release {}

/// The release page.
pub type ReleasePage = ToolPage<Release>;

screen!(crate::release::ReleaseAudit => ReleasePage, Founding);

fn look(col: &str) -> Look {
    match col {
        "bytes" | "headlines" => Look::named(col, Kind::Int),
        _ => Look::named(col, Kind::Text),
    }
}

/// What `memaudit audit --format json` prints.
pub fn report_json(b: &ReleaseBatch) -> Result<String, String> {
    crate::web::components::export::report_json::<crate::release::ReleaseAudit>(&b.report, &b.headlines)
}

fn table_of(b: &ReleaseBatch, t: ReleaseTable) -> crate::error::Result<Table> {
    Ok(crate::release::table::table(&b.report, t))
}

/// How the release page shows its results: an analysis whose files could not be handed to its
/// page (an archive that no longer unpacks), by id, with why.
#[derive(Default)]
pub struct ReleaseView {
    open_failed: Option<(String, String)>,
}

/// The files of `a` as the page can hand them over: those dropped as files, and those unpacked
/// from an archive dropped (named `archive/path`), by the archive's file; `None` when a file is
/// neither.
fn sources_of(page: &ToolPage<Release>, a: &AnalysisRun) -> Option<(Vec<SourceFile>, Vec<SourceFile>)> {
    let mut direct = Vec::new();
    let mut archives: Vec<SourceFile> = Vec::new();
    for f in &a.files {
        if let Some(s) = page.files.iter().find(|s| s.name == f.file) {
            direct.push(s.clone());
        } else {
            let archive = page.files.iter().find(|s| {
                ArchiveKind::of_name(&s.name).is_some()
                    && f.file.strip_prefix(&s.name).is_some_and(|r| r.starts_with('/'))
            })?;
            if !archives.iter().any(|x| x.name == archive.name) {
                archives.push(archive.clone());
            }
        }
    }
    Some((direct, archives))
}

/// The bytes of a file the page holds.
async fn blob_bytes(blob: &web_sys::Blob) -> Result<Vec<u8>, String> {
    let buffer = wasm_bindgen_futures::JsFuture::from(blob.array_buffer()).await.map_err(js_err)?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// `wanted`'s files unpacked from `archives` (under the page's input limits, as the audit read
/// them), then `direct`, in the order of `wanted`.
async fn unpack_for(
    wanted: &[String],
    direct: Vec<SourceFile>,
    archives: Vec<SourceFile>,
) -> Result<Vec<SourceFile>, String> {
    let mut found = direct;
    for archive in archives {
        let kind = ArchiveKind::of_name(&archive.name).ok_or_else(|| format!("{}: not an archive", archive.name))?;
        let bytes = blob_bytes(&archive.blob).await?;
        let file = InputFile::new(archive.name.clone(), bytes).with_limits(crate::web::limits::current());
        let opened = crate::ingest::archive::open(&file, kind).map_err(|e| e.to_string())?;
        for member in opened.files.into_iter().filter(|m| wanted.contains(&m.name)) {
            let bytes = member.bytes().map_err(|e| e.to_string())?;
            let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(&bytes[..]));
            let blob = web_sys::Blob::new_with_u8_array_sequence(&parts).map_err(js_err)?;
            found.push(SourceFile { name: member.name.clone(), blob });
        }
    }
    let mut ordered = Vec::with_capacity(wanted.len());
    for name in wanted {
        let at =
            found.iter().position(|s| &s.name == name).ok_or_else(|| format!("{name}: not found in its archive"))?;
        ordered.push(found.swap_remove(at));
    }
    Ok(ordered)
}

/// One analysis: its files, its headlines, its report as text, and a button that opens its page
/// with its files (those dropped as files, and those unpacked from an archive dropped).
fn analysis_card(page: &ToolPage<Release>, ui: &Ui<Release>, a: &AnalysisRun) -> Html {
    let id = format!("audit-analysis-{}", a.id.replace(' ', "-"));
    let files: Vec<String> = a.files.iter().map(|f| format!("{} ({})", f.file, f.role)).collect();
    let button_id = format!("audit-open-{}", a.id.replace(' ', "-"));
    let label = format!("Open on the {} page with these files", a.title);
    let open = match sources_of(page, a) {
        Some((direct, archives)) if archives.is_empty() => html! {
            <button type="button" class="secondary" id={button_id} onclick={ui.open_on(a.analysis, direct)}>{ label }</button>
        },
        Some((direct, archives)) => {
            let (opener, failed) = (ui.opener(), ui.view_with(|v: &mut ReleaseView, e| v.open_failed = Some(e)));
            let (analysis, run_id) = (a.analysis, a.id.clone());
            let wanted: Vec<String> = a.files.iter().map(|f| f.file.clone()).collect();
            let onclick = Callback::from(move |_: MouseEvent| {
                let (opener, failed, wanted, direct, archives, run_id) =
                    (opener.clone(), failed.clone(), wanted.clone(), direct.clone(), archives.clone(), run_id.clone());
                wasm_bindgen_futures::spawn_local(async move {
                    match unpack_for(&wanted, direct, archives).await {
                        Ok(files) => opener.emit((analysis, files)),
                        Err(e) => failed.emit((run_id, e)),
                    }
                });
            });
            html! { <button type="button" class="secondary" id={button_id} {onclick}>{ label }</button> }
        }
        None => html! {
            <p class="hint">{ format!("Some of these files are not the page's to hand over: open the {} page (#{}) and drop them there.", a.title, a.analysis) }</p>
        },
    };
    let failed = page.view.open_failed.as_ref().filter(|(run, _)| *run == a.id).map(|(_, e)| {
        html! { <p class="error-box" role="alert" id={format!("audit-open-error-{}", a.id.replace(' ', "-"))}>
        { format!("Could not hand these files over: {e}") }</p> }
    });
    let open = html! { <>{ open }{ for failed }</> };
    html! {
        <Section id={id} title={format!("{} \u{2014} {}", a.title, a.id)}
            intro={html! { <><p class="intro">{ format!("{}. Files: {}.", a.grouping, files.join(", ")) }</p>{ open }</> }}>
            if a.status == RunStatus::Refused {
                <p class="warning" data-status="refused">{ format!("Refused: {}", a.message) }</p>
            } else {
                <ul class="release-headlines" data-status="ran">
                    { for a.headlines.iter().map(|h| html! {
                        <li class={classes!("headline", h.level.name())}>{ h.text.clone() }
                            if !h.evidence.is_empty() { <span class="hint">{ format!(" \u{2014} {}", h.evidence) }</span> }</li>
                    }) }
                </ul>
                <details><summary>{ "Its report as text" }</summary><pre class="report-text">{ a.text.clone() }</pre></details>
                if let Some(why) = &a.report_omitted {
                    <p class="hint" data-report="omitted">{ format!("Not in the full report JSON: {why}.") }</p>
                }
            }
        </Section>
    }
}

/// The draft with `entry` added to the list setting `field` (`leave_out`, `apart`, `route`).
fn add_entry(d: &mut Draft, field: &str, entry: &str) {
    let now = d.text(field).trim().to_string();
    let text = if now.is_empty() { entry.to_string() } else { format!("{now}; {entry}") };
    d.set(field, text);
}

/// The triage, editable file by file: leave a file out, set it apart in a group of its own, or
/// send it to one of the analyses that recognise it. Each button adds an entry to the settings
/// `leave_out`, `apart` or `route` (shown in the form, where an entry can be taken back) and
/// analyses again.
fn grouping_editor(r: &crate::release::ReleaseReport, ui: &Ui<Release>) -> Html {
    let edit = |field: &'static str| ui.apply_with(move |d: &mut Draft, entry: String| add_entry(d, field, &entry));
    let (leave, apart, route) = (edit("leave_out"), edit("apart"), edit("route"));
    let button = |id: String, label: String, cb: &Callback<String>, entry: String| {
        let cb = cb.clone();
        html! { <button type="button" class="secondary small" id={id} onclick={Callback::from(move |_| cb.emit(entry.clone()))}>{ label }</button> }
    };
    let rows = r.files.iter().enumerate().filter(|(_, f)| {
        f.status != crate::release::FileStatus::Unpacked
            && f.status != crate::release::FileStatus::LeftOut
            && !f.recognised.is_empty()
    });
    html! {
        <details id="audit-edit" class="grouping-editor">
            <summary>{ "Edit the grouping" }</summary>
            <p class="hint">{ "Each button adds an entry to the settings above (files left out, files apart, routes) and runs the audit again; \
                take an entry back there. The command line takes the same entries: --leave-out, --apart, --route ANALYSIS:FILE." }</p>
            <ul class="plain">
                { for rows.map(|(i, f)| {
                    // (One recognition per analysis: each "Only to" once.)
                    let sends = f.recognised.iter().map(|rec| rec.analysis).filter(|a| {
                        f.routed.len() != 1 || f.routed[0].split(' ').next() != Some(a.name())
                    });
                    html! {
                        <li data-file={f.file.clone()}>
                            <code>{ f.file.clone() }</code>{ " " }
                            { button(format!("audit-leave-{i}"), "Leave out".into(), &leave, f.file.clone()) }
                            { button(format!("audit-apart-{i}"), "Set apart".into(), &apart, f.file.clone()) }
                            { for sends.map(|a| button(
                                format!("audit-route-{i}-{a}"), format!("Only to {a}"), &route, format!("{a}:{}", f.file))) }
                        </li>
                    }
                }) }
            </ul>
        </details>
    }
}

impl Tool for Release {
    type Capability = crate::release::ReleaseAudit;
    const INTAKE_TITLE: &'static str = "A release: files, a folder or an archive";
    const FOLDERS: bool = true;

    /// `?release=<folder or archive>`: a companion site's release, preloaded.
    fn preload(startup: &crate::web::dom::StartupRequest) -> Option<crate::web::dom::Preload> {
        startup.release.clone().map(crate::web::dom::Preload::Release)
    }
    const CARDS: crate::web::components::headlines::Cards = &[
        ("files", "audit-files-card"),
        ("analyses", "audit-analyses-card"),
        ("headlines", "audit-analyses-card"),
        ("printed", "audit-printed-card"),
    ];
    /// The release checks the printed-numbers files it holds against its runs (`audit-printed-card`).
    const PRINTED_CARD: bool = false;
    type Draft = Draft;
    type View = ReleaseView;

    fn tagline() -> Html {
        html! { { "Drop what a paper released — its result files, a folder of them, or an archive — and see which analysis reads each file, \
        every analysis run at once, and what they say, most severe first. Nothing is dropped without a word: a file no analysis reads \
        is listed with what it looks like and what it lacks." } }
    }

    fn intake() -> Html {
        html! {
            <p>{ "Any files: retrieval records, TREC runs and qrels, outcome tables, Inspect logs, judge files, LoCoMo answer files, \
                reclaim-eval rows, probe keys, compliance rows, label tables, routing rows, claims, rules… and archives (" }
                <code>{ ".zip" }</code>{ ", " }<code>{ ".tar" }</code>{ ", " }<code>{ ".tar.gz" }</code>
                { ") of them. Each file is routed by its content; files of one folder or one layout are analysed together." }</p>
        }
    }

    fn footer(page: &ToolPage<Self>) -> Html {
        // A release is given as its folder or archive, not file by file.
        page.cli_twin(false)
    }

    fn request(draft: &Draft) -> Result<ReleaseRequest, String> {
        draft.parse(ReleaseRequest::default())
    }

    fn settings(page: &ToolPage<Self>, ui: &Ui<Self>) -> Html {
        ui.fields_form("audit", &page.draft, |d: &mut Draft| d)
    }

    fn results(page: &ToolPage<Self>, b: &Rc<ReleaseBatch>, ui: &Ui<Self>) -> Html {
        let r = &b.report;
        let json = {
            let b = b.clone();
            move || report_json(&b)
        };
        let t = |which| crate::release::table::table(r, which);
        let ran = r.analyses.iter().filter(|a| a.status == RunStatus::Ran).count();
        html! {
            <>
                <div class="results-head">
                    <p id="audit-counts" data-files={r.files.len().to_string()} data-analyses={r.analyses.len().to_string()}>
                        { format!("{} files, {} analyses ({} ran, {} refused) ({}).", r.files.len(), r.analyses.len(), ran,
                            r.analyses.len() - ran, duration(b.timing.total_ms)) }</p>
                    <div class="exports">{ text_download("audit-report-json", "Full report JSON", "memaudit-audit.json", "application/json", json) }</div>
                </div>
                <Section id="audit-files-card" title="Every file and where it went"
                    exports={table_exports(ReleaseTable::Files, b, table_of, |b| to_json(&b.report.files))}
                    intro={html! { <p class="intro">{ "Each file: what it looks like, which analyses recognise it (as their own format, among others, \
                        or as a companion of other files), where it went and what became of it." }</p> }}>
                    { table_grid("audit-files", &t(ReleaseTable::Files).without(&["sha256"]), look, &r.files, &[],
                        |f: &FileTriage| RowAttrs::data(vec![("data-file", f.file.clone()), ("data-status", f.status.name().to_string())])) }
                    { grouping_editor(r, ui) }
                </Section>
                <Section id="audit-analyses-card" title="Every analysis"
                    exports={table_exports(ReleaseTable::Analyses, b, table_of, |b| to_json(&b.report.analyses))}
                    intro={html! { <p class="intro">{ "Each group of files, the analysis that ran on it under its defaults, and why the files are together." }</p> }}>
                    { table_grid("audit-analyses", &t(ReleaseTable::Analyses), look, &r.analyses, &[],
                        |a: &AnalysisRun| RowAttrs::data(vec![("data-analysis", a.id.clone()), ("data-status", a.status.name().to_string())])) }
                </Section>
                if !r.printed.is_empty() || !r.printed_findings.is_empty() {
                    <Section id="audit-printed-card" title="The paper's printed numbers"
                        exports={table_exports(ReleaseTable::Printed, b, table_of, |b| to_json(&b.report.printed))}
                        intro={html! { <p class="intro">{ "Each number of the release's printed-numbers files (a table with table, column and printed columns) \
                            against the run whose report holds its row: matches, within rounding, differs, or not computed, and why \
                            (a number two runs hold with different values is never guessed between them)." }</p> }}>
                        { table_grid("audit-printed", &t(ReleaseTable::Printed), crate::web::components::printed::look, &r.printed, &[],
                            |p: &PrintedRow| RowAttrs::data(vec![("data-line", p.check.line.to_string()), ("data-verdict", p.check.verdict.name().to_string())])) }
                        { crate::web::components::printed::findings_list("audit-printed-findings", &r.printed_findings) }
                    </Section>
                }
                { for r.analyses.iter().map(|a| analysis_card(page, ui, a)) }
            </>
        }
    }
}
