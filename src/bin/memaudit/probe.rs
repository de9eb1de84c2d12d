//! `memaudit probe`: arguments → [`ProbeRequest`] → the core's [`Probe`] capability → output.
//! One note given on the command line (`--note`) is read like a one-line notes file.

use std::path::PathBuf;

use clap::Args;

use memaudit::capability::{FileRole, assign_roles};
use memaudit::ingest::InputFile;
use memaudit::probe::{Probe, ProbeRequest, ProbeTable, SourceKind};

use crate::common::{Failure, Output, emit, fail, inputs, run};
use crate::fields::FieldArgs;

#[derive(Args)]
pub(crate) struct ProbeArgs {
    /// Notes: memaudit notes JSONL ({note_id, note, source | source_items, stale, correct?, ...}),
    /// reclaim-eval realworld rows (memory_text, ...), or plain text with one note per paragraph
    /// (with --source-file). Repeatable.
    #[arg(long, required_unless_present = "note")]
    pub(crate) notes: Vec<PathBuf>,
    /// Probe keys (reclaim-eval probe_keys_base16.json): source and stale value by pid.
    #[arg(long)]
    pub(crate) keys: Option<PathBuf>,
    /// One note's text, probed instead of a file (with --source and --stale).
    #[arg(long, conflicts_with = "notes", requires = "source")]
    pub(crate) note: Option<String>,
    /// The source the --note was written from.
    #[arg(long)]
    pub(crate) source: Option<String>,
    /// The source text (a plain-text file) that plain-text --notes were written from.
    #[arg(long, value_name = "FILE")]
    pub(crate) source_file: Option<PathBuf>,
    /// The stale value of the --note (e.g. "$55").
    #[arg(long)]
    pub(crate) stale: Option<String>,
    /// How --source is split into items: auto, line_items, times, clauses.
    #[arg(long, default_value = "auto", value_parser = parse_kind)]
    pub(crate) source_kind: SourceKind,
    #[command(flatten)]
    pub(crate) settings: FieldArgs<ProbeRequest>,
    #[command(flatten)]
    pub(crate) output: Output<ProbeTable>,
}

fn parse_kind(s: &str) -> Result<SourceKind, String> {
    SourceKind::parse(s).ok_or_else(|| format!("`{s}`: use auto, line_items, times or clauses"))
}

impl crate::common::Subcommand for Probe {
    type Args = ProbeArgs;
    fn run(args: ProbeArgs) -> Result<(), Failure> {
        probe(args)
    }
}

pub(crate) fn probe(args: ProbeArgs) -> Result<(), Failure> {
    let request = &args.settings.0;
    let mut given: Vec<(PathBuf, Option<FileRole>)> =
        args.keys.iter().map(|p| (p.clone(), Some(FileRole::Keys))).collect();
    given.extend(args.notes.iter().map(|p| (p.clone(), Some(FileRole::Notes))));
    given.extend(args.source_file.iter().map(|p| (p.clone(), Some(FileRole::Source))));
    let mut files = inputs::<Probe>(given)?;
    if let Some(text) = &args.note {
        let mut record = serde_json::json!({ "note_id": "note", "note": text, "source": args.source });
        if let Some(stale) = &args.stale {
            record["stale"] = stale.clone().into();
        }
        record["source_kind"] = serde_json::to_value(args.source_kind).map_err(fail)?;
        let line = format!("{record}\n");
        files.extend(assign_roles::<Probe>(vec![(InputFile::new("--note", line), Some(FileRole::Notes))])?);
    }
    let (loaded, report) = run::<Probe>(&files, request)?;
    emit::<Probe>(&report, &loaded, &args.output)
}
