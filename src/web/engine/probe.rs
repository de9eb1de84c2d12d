//! The probe page's worker logic: probe one pasted note in both modes, or read notes files
//! (and probe keys, recognised by their content), keep the notes and report them exactly as
//! `memaudit probe --format json` does.

use serde_json::Value;

use crate::error::Error;
use crate::ingest::{InputFile, decode};
use crate::probe::read::NotesFormat;
use crate::probe::warnings::ProbeWarnings;
use crate::probe::{self, Mode, NoteInput, ProbeKeys};

use super::ProgressFn;
use crate::web::protocol::{FileNote, LiveProbe, Phase, ProbeBatch, ProbeRun, ProbeView};

/// Whether a file holds probe keys (`probe_keys_base16.json`: one JSON document, an object of
/// task → [{pid, source, …}] or an array of such keys) rather than JSONL records.
pub fn looks_like_probe_keys(file: &InputFile) -> bool {
    let Ok((text, _)) = decode(&file.name, &file.bytes) else { return false };
    let Ok(doc) = serde_json::from_str::<Value>(&text) else { return false };
    let is_key = |v: &Value| v.get("pid").is_some() && v.get("source").is_some();
    match &doc {
        Value::Array(a) => !a.is_empty() && a.iter().all(is_key),
        Value::Object(m) => m.values().any(|v| v.as_array().is_some_and(|a| !a.is_empty() && a.iter().all(is_key))),
        _ => false,
    }
}

/// The files of a request, probe keys read and set apart.
#[derive(Debug, Default)]
pub struct Split {
    /// The other files (notes or trials).
    pub rest: Vec<InputFile>,
    /// Every key file's keys, merged.
    pub keys: Option<ProbeKeys>,
    /// The key files, for the reading summary.
    pub key_files: Vec<FileNote>,
}

/// Separates probe-key files from the others and reads them (several key files are merged).
pub fn split_keys(files: Vec<InputFile>) -> Result<Split, Error> {
    let mut rest = Vec::new();
    let mut keys: Option<ProbeKeys> = None;
    let mut notes = Vec::new();
    for f in files {
        if looks_like_probe_keys(&f) {
            let k = probe::read_probe_keys(&f)?;
            notes.push(FileNote { name: f.name.clone(), kind: "probe keys".into(), records: k.keys.len() });
            keys.get_or_insert_with(ProbeKeys::default).keys.extend(k.keys);
        } else {
            rest.push(f);
        }
    }
    Ok(Split { rest, keys, key_files: notes })
}

fn view(input: &NoteInput, mode: Mode) -> Result<ProbeView, String> {
    let p = probe::probe_note(input, mode).map_err(|e| e.to_string())?;
    let highlights = probe::highlights(&p);
    Ok(ProbeView { note: input.note.clone(), row: p.row, items: p.items, highlights })
}

/// One note in both modes.
pub fn explain_note(input: &NoteInput) -> LiveProbe {
    LiveProbe { itemized: view(input, Mode::Itemized), reference: view(input, Mode::Reference) }
}

fn check(run: &ProbeRun) -> Result<(), Error> {
    if run.confidence > 0.0 && run.confidence < 1.0 {
        Ok(())
    } else {
        Err(Error::setting("confidence", "must be between 0 and 1 (e.g. 0.95)"))
    }
}

/// Holds the notes of the last successful load.
#[derive(Debug, Default)]
pub struct ProbeEngine {
    notes: Option<Vec<NoteInput>>,
    files: Vec<FileNote>,
    notices: ProbeWarnings,
}

impl ProbeEngine {
    pub fn new() -> Self {
        ProbeEngine::default()
    }

    pub fn has_notes(&self) -> bool {
        self.notes.is_some()
    }

    /// Reads notes files (memaudit notes JSONL or reclaim-eval realworld rows; probe keys
    /// recognised by content and applied to every notes file), keeps them, and reports.
    pub fn load(
        &mut self,
        files: Vec<InputFile>,
        run: &ProbeRun,
        progress: ProgressFn<'_>,
    ) -> Result<ProbeBatch, Error> {
        check(run)?;
        progress(Phase::Reading, "reading notes", 0.0);
        let Split { rest: files, keys, key_files: mut notes_files } = split_keys(files)?;
        if files.is_empty() {
            return Err(Error::Empty("no notes file: drop a notes JSONL or reclaim-eval realworld rows".into()));
        }
        let mut notes = Vec::new();
        let mut notices = ProbeWarnings::default();
        for f in &files {
            let read = probe::read_notes(f, keys.as_ref())?;
            let kind = match read.format {
                Some(NotesFormat::ReclaimRealworld) => "reclaim-eval realworld rows",
                _ => "notes",
            };
            notes_files.push(FileNote { name: f.name.clone(), kind: kind.into(), records: read.notes.len() });
            notes.extend(read.notes);
            notices.extend(&read.notices);
        }
        // Check the new notes report before replacing the kept ones.
        let batch = report(&notes, &notices, &notes_files, run, progress)?;
        self.notes = Some(notes);
        self.files = notes_files;
        self.notices = notices;
        Ok(batch)
    }

    /// Reports the kept notes under other settings.
    pub fn run(&self, run: &ProbeRun, progress: ProgressFn<'_>) -> Result<ProbeBatch, Error> {
        check(run)?;
        let notes = self.notes.as_ref().ok_or_else(|| Error::Empty("no notes loaded yet".into()))?;
        report(notes, &self.notices, &self.files, run, progress)
    }

    /// One kept note in both modes: `index` into the report's `notes` (after the arm filter).
    pub fn detail(&self, run: &ProbeRun, index: usize) -> Result<LiveProbe, Error> {
        let notes = self.notes.as_ref().ok_or_else(|| Error::Empty("no notes loaded yet".into()))?;
        let note = filtered(notes, run.arm.as_deref())
            .nth(index)
            .ok_or_else(|| Error::Empty(format!("no note #{} in the batch", index + 1)))?;
        Ok(explain_note(note))
    }
}

fn filtered<'a>(notes: &'a [NoteInput], arm: Option<&'a str>) -> impl Iterator<Item = &'a NoteInput> + 'a {
    notes.iter().filter(move |n| arm.is_none_or(|a| n.arm.as_deref() == Some(a)))
}

fn report(
    notes: &[NoteInput],
    notices: &ProbeWarnings,
    files: &[FileNote],
    run: &ProbeRun,
    progress: ProgressFn<'_>,
) -> Result<ProbeBatch, Error> {
    progress(Phase::Analysing, "probing notes", 0.5);
    let mut arms: Vec<String> = Vec::new();
    for n in notes {
        if let Some(a) = &n.arm
            && !arms.contains(a)
        {
            arms.push(a.clone());
        }
    }
    let chosen: Vec<NoteInput> = filtered(notes, run.arm.as_deref()).cloned().collect();
    if chosen.is_empty() {
        return Err(Error::Empty("no notes to probe (check the arm filter)".into()));
    }
    let mut report = probe::report(&chosen, run.mode, run.confidence)?;
    report.warnings = notices.clone();
    progress(Phase::Analysing, "done", 1.0);
    Ok(ProbeBatch { files: files.to_vec(), report, arms, notes_read: notes.len(), total_ms: 0.0 })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::probe::Verdict;

    const SRC: &str = "notebooks at $4 each (7 bought) and pens at $2 each (9 bought)";
    const NOTE: &str = "(Memory of an earlier session.) You concluded the total before tax was $55.";

    #[test]
    fn a_pasted_note_in_both_modes() {
        let input = NoteInput::new("note", NOTE).with_source(SRC).with_stale("$55");
        let live = explain_note(&input);
        let (i, r) = (live.itemized.unwrap(), live.reference.unwrap());
        assert_eq!(i.row.verdict, Verdict::Silent);
        assert_eq!(r.row.verdict, Verdict::UncorrectableSilent);
        let stale = &i.highlights[0];
        assert_eq!(&i.note[stale.span.byte_start..stale.span.byte_end], "$55");
        let no_source = explain_note(&NoteInput::new("n", "x"));
        assert!(no_source.itemized.is_err() && no_source.reference.is_err());
    }

    #[test]
    fn batch_with_keys_by_content_and_arm_filter() {
        let notes = format!(
            "{{\"note_id\": \"n1\", \"note\": \"{NOTE}\", \"source\": \"{SRC}\", \"stale\": \"$55\", \"correct\": false, \"arm\": \"x\"}}\n\
             {{\"note_id\": \"n2\", \"note\": \"7 notebooks at $4 and 9 pens at $2\", \"source\": \"{SRC}\", \"correct\": true, \"arm\": \"y\"}}\n"
        );
        let keys = r#"{"arith": [{"pid": "p", "source": "a", "conclusion": "$1"}]}"#;
        let files = vec![InputFile::new("keys.json", keys.as_bytes()), InputFile::new("notes.jsonl", notes.as_bytes())];
        assert!(looks_like_probe_keys(&files[0]) && !looks_like_probe_keys(&files[1]));
        let mut e = ProbeEngine::new();
        let run = ProbeRun { mode: Mode::Itemized, confidence: 0.95, arm: None };
        let b = e.load(files, &run, &mut |_, _, _| {}).unwrap();
        assert_eq!(b.files.iter().map(|f| f.kind.as_str()).collect::<Vec<_>>(), ["probe keys", "notes"]);
        assert_eq!(b.report.notes.len(), 2);
        assert_eq!(b.arms, ["x", "y"]);
        assert_eq!(b.report.summary.counts.get(&Verdict::Silent), Some(&1));
        let only_y = ProbeRun { arm: Some("y".into()), ..run.clone() };
        let b = e.run(&only_y, &mut |_, _, _| {}).unwrap();
        assert_eq!(b.report.notes.len(), 1);
        assert_eq!(e.detail(&only_y, 0).unwrap().itemized.unwrap().row.verdict, Verdict::Complete);
        assert!(e.detail(&only_y, 1).is_err());
        assert!(e.run(&ProbeRun { arm: Some("z".into()), ..run.clone() }, &mut |_, _, _| {}).is_err());
        assert!(e.run(&ProbeRun { confidence: 1.5, ..run }, &mut |_, _, _| {}).is_err());
    }
}
