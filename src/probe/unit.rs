//! The write-time probe as one capability ([`Probe`]): `memaudit probe` and the viewer's probe
//! page (a batch of notes, or one note in both modes).

use serde::{Deserialize, Serialize};

use super::read::{NotesFormat, SourceText};
use super::summary::{ProbeTable, probe_table, render_text};
use super::warnings::ProbeWarnings;
use super::{Highlight, ItemResult, Mode, NoteInput, NoteRow, ProbeKeys, ProbeReport, Span, Tag};
use crate::capability::nothing_loaded;
use crate::capability::prelude::*;
use crate::distinct::first_seen;
use crate::error::{IngestError, Location};
use crate::stats::bootstrap::check_confidence;

/// The write-time source-token probe on memory notes.
pub struct Probe;

crate::fields! {
    /// The probe's settings.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub struct ProbeRequest {
        mode: Mode = Mode::Itemized, label "mode",
            help "The mode of the notes rows and the headline summary (both modes are always reported).";
        confidence: f64 = 0.95, label "interval level", help "Level of the Wilson intervals.";
        arm: Option<String> = None, label "arm", help "Keep only notes of this arm (e.g. directed).";
        details: bool = false, label "details",
            help "Add details to the JSON report (per note: items, tokens, highlight spans).";
    }
}

impl Validate for ProbeRequest {
    fn validate(&self) -> Result<()> {
        check_confidence(self.confidence)
    }
}

/// The notes read, kept between runs.
#[derive(Debug, Clone, Default)]
pub struct LoadedNotes {
    pub notes: Vec<NoteInput>,
    pub notices: ProbeWarnings,
    pub files: Vec<FileSummary>,
}

/// What the probe page needs of the loaded notes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProbeOverview {
    pub files: Vec<FileSummary>,
    /// Distinct arms among the notes, first seen first (for the arm filter).
    pub arms: Vec<String>,
    /// Notes read (before the arm filter).
    pub notes_read: usize,
}

/// One note's details (`--details`): items, tokens and highlight spans.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NoteDetail {
    pub note_id: String,
    pub note: String,
    pub items: Vec<ItemResult>,
    pub stale_spans: Vec<Span>,
    pub tag: Option<Tag>,
    pub highlights: Vec<Highlight>,
}

/// One note as the probe shows it in one mode.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProbeView {
    pub note: String,
    pub row: NoteRow,
    pub items: Vec<ItemResult>,
    pub highlights: Vec<Highlight>,
}

/// One note in both modes (an error text when the note cannot be probed, e.g. no source).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LiveProbe {
    pub itemized: std::result::Result<ProbeView, String>,
    pub reference: std::result::Result<ProbeView, String>,
}

/// Which note to show in both modes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum NoteChoice {
    /// A loaded note: its index among the notes of the report (after the arm filter).
    Loaded(usize),
    /// A note given on its own (pasted on the page, `--note` on the command line).
    Given(Box<NoteInput>),
}

fn view(input: &NoteInput, mode: Mode) -> std::result::Result<ProbeView, String> {
    let p = super::probe_note(input, mode).map_err(|e| e.to_string())?;
    let highlights = super::highlights(&p);
    Ok(ProbeView { note: input.note.clone(), row: p.row, items: p.items, highlights })
}

/// One note in both modes.
pub fn explain_note(input: &NoteInput) -> LiveProbe {
    LiveProbe { itemized: view(input, Mode::Itemized), reference: view(input, Mode::Reference) }
}

/// Whether a file holds probe keys (`probe_keys_base16.json`: one JSON document, an object of
/// task → [{pid, source, …}] or an array of such keys) rather than JSONL records.
pub fn looks_like_probe_keys(file: &InputFile) -> bool {
    let Ok((text, _)) = file.text() else { return false };
    serde_json::from_str::<serde_json::Value>(&text).is_ok_and(|doc| is_probe_keys(&doc))
}

/// Whether a parsed JSON document holds probe keys ([`looks_like_probe_keys`]).
pub fn is_probe_keys(doc: &serde_json::Value) -> bool {
    use serde_json::Value;
    let is_key = |v: &Value| v.get("pid").is_some() && v.get("source").is_some();
    match doc {
        Value::Array(a) => !a.is_empty() && a.iter().all(is_key),
        Value::Object(m) => m.values().any(|v| v.as_array().is_some_and(|a| !a.is_empty() && a.iter().all(is_key))),
        _ => false,
    }
}

/// The source text of plain-text notes (one file at most).
pub fn read_source(files: &[RoleFile]) -> Result<Option<SourceText>> {
    let sources: Vec<&RoleFile> = files.iter().filter(|f| f.role == FileRole::Source).collect();
    match sources.as_slice() {
        [] => Ok(None),
        [f] => {
            let (text, _) = f.file.text()?;
            Ok(Some(SourceText { name: f.file.name.clone(), text: text.into_owned() }))
        }
        [_, second, ..] => Err(Error::Ingest(IngestError::new(
            Location::file(&second.file.name),
            "a second source file: plain-text notes take one source text (give notes JSONL with a `source` per note \
             for notes written from different sources)",
        ))),
    }
}

/// Reads every key file of `files` (several are merged), with their summaries.
pub fn read_keys(files: &[RoleFile]) -> Result<(Option<ProbeKeys>, Vec<FileSummary>)> {
    let mut keys: Option<ProbeKeys> = None;
    let mut summaries = Vec::new();
    for f in files.iter().filter(|f| f.role == FileRole::Keys) {
        let k = super::read_probe_keys(&f.file)?;
        summaries.push(FileSummary::of(f, "probe keys", k.keys.len())?);
        keys.get_or_insert_with(ProbeKeys::default).keys.extend(k.keys);
    }
    Ok((keys, summaries))
}

fn filtered<'a>(notes: &'a [NoteInput], arm: Option<&'a str>) -> impl Iterator<Item = &'a NoteInput> + 'a {
    notes.iter().filter(move |n| arm.is_none_or(|a| n.arm.as_deref() == Some(a)))
}

crate::files_read!(ProbeOverview);

impl Capability for Probe {
    const ANALYSIS: Analysis = Analysis::Probe;
    const TITLE: &'static str = "Probe";
    const ABOUT: &'static str = "Write-time probe: is a memory note still correctable (source kept) or silently stale?";
    const ROLES: &'static [FileRole] = &[FileRole::Notes, FileRole::Keys, FileRole::Source];
    const DEMO: &'static [Demo] = &[Demo::new("notes.jsonl", "static/demo/probe/notes.jsonl")];
    crate::capability_types!(
        request: ProbeRequest, loaded: LoadedNotes, overview: ProbeOverview,
        report: ProbeReport, table: ProbeTable, detail: NoteChoice => LiveProbe
    );

    /// Probe keys by their content; a plain-text file is a source text when its name says so
    /// (`source` in the file name: prose cannot tell a note from its source), else notes.
    fn detect(file: &InputFile) -> Result<FileRole> {
        if looks_like_probe_keys(file) {
            return Ok(FileRole::Keys);
        }
        let plain = file.text().is_ok_and(|(text, _)| super::read::is_plain_text(&text));
        let named_source = named_source(&crate::ingest::file_stem(&file.name));
        Ok(if plain && named_source { FileRole::Source } else { FileRole::Notes })
    }

    /// Memory notes (memaudit notes, reclaim-eval deployed-memory rows); probe keys and a
    /// plain-text source complete them.
    fn recognise(s: &crate::ingest::sniff::Sniff<'_>) -> Option<crate::capability::Recognised> {
        use crate::capability::{Fit, Recognised};
        use crate::ingest::sniff::Shape;
        s.text.as_ref()?;
        if s.doc.as_ref().is_some_and(is_probe_keys) {
            return Some(Recognised::new(FileRole::Keys, Fit::Companion, "probe keys (pid \u{2192} source, truth)"));
        }
        // Notes are JSON records (a CSV with a `note` column is something else).
        let json = s.text.as_deref().is_some_and(|t| t.trim_start().starts_with(['{', '[']));
        if json && s.has_column(&["memory_text"]) {
            return Some(Recognised::new(FileRole::Notes, Fit::Specific, "reclaim-eval deployed-memory rows"));
        }
        if json && s.has_column(&["note"]) {
            return Some(Recognised::new(FileRole::Notes, Fit::Specific, "memory notes"));
        }
        (s.shape == Shape::Text && named_source(&s.stem()))
            .then(|| Recognised::new(FileRole::Source, Fit::Companion, "a source text (named `source`)"))
    }

    /// Notes files are memaudit notes JSONL or reclaim-eval realworld rows; probe keys are
    /// applied to every notes file.
    fn load(files: &[RoleFile], _request: &ProbeRequest, progress: Progress<'_>) -> Result<LoadedNotes> {
        progress(Phase::Reading, "reading notes", 0.0);
        let (keys, mut summaries) = read_keys(files)?;
        let source = read_source(files)?;
        for f in files.iter().filter(|f| f.role == FileRole::Source) {
            summaries.push(FileSummary::of(f, "source text", 1)?);
        }
        let mut notes = Vec::new();
        let mut notices = ProbeWarnings::default();
        let mut counts = Vec::new();
        for f in files.iter().filter(|f| f.role == FileRole::Notes) {
            let read = super::read::read_notes_with_source(&f.file, keys.as_ref(), source.as_ref())?;
            let kind = match read.format {
                Some(NotesFormat::ReclaimRealworld) => "reclaim-eval realworld rows",
                Some(NotesFormat::PlainText) => "plain-text notes (one per paragraph)",
                _ => "notes",
            };
            summaries.push(FileSummary::of(f, kind, read.notes.len())?);
            counts.push((f.file.name.as_str(), read.notes.len()));
            notes.extend(read.notes);
            notices.extend(&read.notices);
        }
        crate::capability::refuse_files_without_records(counts.iter().copied(), "notes")?;
        if counts.is_empty() {
            return Err(Error::Empty(
                "no notes file: give one (memaudit notes JSONL or reclaim-eval realworld rows)".into(),
            ));
        }
        progress(Phase::Reading, "notes read", 1.0);
        Ok(LoadedNotes { notes, notices, files: summaries })
    }

    fn overview(l: &LoadedNotes) -> ProbeOverview {
        ProbeOverview {
            files: l.files.clone(),
            arms: first_seen(l.notes.iter().filter_map(|n| n.arm.clone())),
            notes_read: l.notes.len(),
        }
    }

    fn run(l: &LoadedNotes, request: &ProbeRequest, progress: Progress<'_>) -> Result<ProbeReport> {
        progress(Phase::Analysing, "probing notes", 0.0);
        let chosen: Vec<NoteInput> = filtered(&l.notes, request.arm.as_deref()).cloned().collect();
        if chosen.is_empty() {
            let arms = first_seen(l.notes.iter().filter_map(|n| n.arm.clone()));
            return Err(Error::Empty(match &request.arm {
                Some(a) if arms.is_empty() => {
                    format!("no notes to probe: there is no arm column in these notes: `{a}` cannot be kept")
                }
                Some(a) => format!("no notes to probe: no note has arm `{a}` (arms: {})", arms.join(", ")),
                None => "no notes to probe: the notes files hold no note".into(),
            }));
        }
        let mut report = super::report(&chosen, request.mode, request.confidence)?;
        report.warnings = l.notices.clone();
        if request.details {
            let mut details = Vec::with_capacity(chosen.len());
            for n in &chosen {
                let p = super::probe_note(n, request.mode)?;
                let highlights = super::highlights(&p);
                details.push(NoteDetail {
                    note_id: n.note_id.clone(),
                    note: n.note.clone(),
                    items: p.items,
                    stale_spans: p.stale_spans,
                    tag: p.tag,
                    highlights,
                });
            }
            report.details = Some(details);
        }
        progress(Phase::Analysing, "done", 1.0);
        Ok(report)
    }

    fn detail(l: Option<&LoadedNotes>, request: &ProbeRequest, choice: &NoteChoice) -> Result<LiveProbe> {
        match choice {
            NoteChoice::Given(n) => Ok(explain_note(n)),
            NoteChoice::Loaded(index) => {
                let l = l.ok_or_else(nothing_loaded)?;
                let note = filtered(&l.notes, request.arm.as_deref())
                    .nth(*index)
                    .ok_or_else(|| Error::Empty(format!("no note #{} in the batch", index + 1)))?;
                Ok(explain_note(note))
            }
        }
    }

    crate::report_views!(table: probe_table, headlines: super::headlines::headlines, text: render_text);

    fn figures(report: &ProbeReport) -> Vec<crate::attach::Figure> {
        super::figures::figures(report)
    }
}

/// Whether a file's stem names a source text: `source` (or `sources`) as a word of it
/// (`source.txt`, `arith_source`, `source-2`), never inside another word (`resource_agent`).
fn named_source(stem: &str) -> bool {
    stem.split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| w.eq_ignore_ascii_case("source") || w.eq_ignore_ascii_case("sources"))
}
