//! `memaudit probe`: the write-time source-token probe on one note or a file of notes.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use serde::Serialize;

use memaudit::error::Error;
use memaudit::probe::{self, Mode, NoteInput, ProbeKeys, SourceKind};

use crate::common::{Failure, OutFormat, json, read_path};

#[derive(Copy, Clone, ValueEnum)]
pub(crate) enum ModeArg {
    Itemized,
    Reference,
}

#[derive(Args)]
pub(crate) struct ProbeArgs {
    /// Notes: memaudit notes JSONL ({note_id, note, source | source_items, stale, correct?, ...})
    /// or reclaim-eval realworld rows (memory_text, ...).
    #[arg(long, required_unless_present = "note")]
    pub(crate) notes: Option<PathBuf>,
    /// Probe keys (reclaim-eval probe_keys_base16.json): source and stale value by pid.
    #[arg(long)]
    pub(crate) keys: Option<PathBuf>,
    /// One note's text, probed instead of a file (with --source and --stale).
    #[arg(long, conflicts_with = "notes", requires = "source")]
    pub(crate) note: Option<String>,
    /// The source the --note was written from.
    #[arg(long)]
    pub(crate) source: Option<String>,
    /// The stale value of the --note (e.g. "$55").
    #[arg(long)]
    pub(crate) stale: Option<String>,
    /// How --source is split into items: auto, line_items, times, clauses.
    #[arg(long, default_value = "auto")]
    pub(crate) source_kind: String,
    /// Probe mode.
    #[arg(long, value_enum, default_value_t = ModeArg::Itemized)]
    pub(crate) mode: ModeArg,
    /// Keep only notes of this arm (e.g. directed).
    #[arg(long)]
    pub(crate) arm: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutFormat::Table)]
    pub(crate) format: OutFormat,
    /// With --format csv: which table (notes, by_verdict, by_policy, agreement).
    #[arg(long, default_value = "notes", value_parser = clap::builder::PossibleValuesParser::new(probe::summary::TABLE_NAMES))]
    pub(crate) table: String,
    /// With --format json: add `details` (per note: items, tokens, highlight spans).
    #[arg(long)]
    pub(crate) details: bool,
    /// Confidence level of the Wilson intervals.
    #[arg(long, default_value_t = 0.95)]
    pub(crate) confidence: f64,
    /// Pretty-print JSON.
    #[arg(long)]
    pub(crate) pretty: bool,
}

/// One note's details for the viewer (`--details`).
#[derive(Serialize)]
struct Detail<'a> {
    note_id: &'a str,
    note: &'a str,
    items: Vec<probe::ItemResult>,
    stale_spans: Vec<probe::Span>,
    tag: Option<probe::Tag>,
    highlights: Vec<probe::Highlight>,
}

#[derive(Serialize)]
struct WithDetails<'a> {
    #[serde(flatten)]
    report: &'a probe::ProbeReport,
    details: Vec<Detail<'a>>,
}

pub(crate) fn probe(args: ProbeArgs) -> Result<(), Failure> {
    if !(args.confidence > 0.0 && args.confidence < 1.0) {
        return Err(Error::setting("confidence", "must be between 0 and 1 (e.g. 0.95)").into());
    }
    let mode = match args.mode {
        ModeArg::Itemized => Mode::Itemized,
        ModeArg::Reference => Mode::Reference,
    };
    let keys: Option<ProbeKeys> = match &args.keys {
        Some(p) => Some(probe::read_probe_keys(&read_path(p)?).map_err(|e| Failure::from(Error::from(e)))?),
        None => None,
    };
    let (mut notes, notices) = match (&args.notes, &args.note) {
        (Some(p), _) => {
            let read = probe::read_notes(&read_path(p)?, keys.as_ref()).map_err(|e| Failure::from(Error::from(e)))?;
            (read.notes, read.notices)
        }
        (None, Some(text)) => {
            let kind = SourceKind::parse(&args.source_kind).ok_or_else(|| {
                Failure::from(Error::setting("source-kind", "use auto, line_items, times or clauses"))
            })?;
            let mut n = NoteInput::new("note", text.clone());
            n.source = args.source.clone();
            n.stale = args.stale.clone();
            n.source_kind = kind;
            (vec![n], Default::default())
        }
        (None, None) => {
            return Err(Failure { message: "give --notes FILE or --note TEXT --source TEXT".into(), code: 2 });
        }
    };
    if let Some(arm) = &args.arm {
        notes.retain(|n| n.arm.as_deref() == Some(arm.as_str()));
    }
    if notes.is_empty() {
        return Err(Error::Empty("no notes to probe (check --arm)".into()).into());
    }
    let mut report = probe::report(&notes, mode, args.confidence).map_err(|e| Failure::from(Error::from(e)))?;
    report.warnings = notices;
    match args.format {
        OutFormat::Json => {
            if !args.details {
                println!("{}", json(&report, args.pretty)?);
                return Ok(());
            }
            let mut details = Vec::with_capacity(notes.len());
            for n in &notes {
                let p = probe::probe_note(n, mode).map_err(|e| Failure::from(Error::from(e)))?;
                let highlights = probe::highlights(&p);
                details.push(Detail {
                    note_id: &n.note_id,
                    note: &n.note,
                    items: p.items,
                    stale_spans: p.stale_spans,
                    tag: p.tag,
                    highlights,
                });
            }
            println!("{}", json(&WithDetails { report: &report, details }, args.pretty)?);
        }
        OutFormat::Csv => {
            let t = probe::summary::probe_table(&report, &args.table)
                .ok_or_else(|| Failure { message: format!("unknown table `{}`", args.table), code: 2 })?;
            print!("{}", t.to_csv()?);
        }
        OutFormat::Table => print!("{}", probe::summary::render_text(&report)),
    }
    Ok(())
}
