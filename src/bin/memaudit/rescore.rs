//! `memaudit rescore` and `memaudit drilldown`: arguments → [`Settings`] → the core's
//! [`Rescore`] capability → output.

use std::path::PathBuf;

use clap::Args;

use memaudit::audit::{DrilldownQuery, Rescore, RescoreTable};
use memaudit::capability::FileRole;
use memaudit::conventions::Settings;

use crate::common::{Failure, OutFormat, Output, detail, emit, inputs, json_report, note, print, run};
use crate::fields::FieldArgs;

#[derive(Args, Clone)]
pub(crate) struct InputArgs {
    /// Stored memories with their lineage (memories.jsonl[.gz], a bundle .json, LoCoMo or LongMemEval data).
    #[arg(long, short = 'm')]
    pub(crate) memories: Option<PathBuf>,
    /// Queries with gold evidence (queries.jsonl[.gz]; may be the same file as --memories).
    #[arg(long, short = 'q')]
    pub(crate) queries: Option<PathBuf>,
    /// Saved ranked outputs (runs.jsonl, per-hit rows, LongMemEval retrieval logs, TREC runs). Repeatable.
    #[arg(long, short = 'r')]
    pub(crate) runs: Vec<PathBuf>,
    /// TREC qrels (then only the Raw target exists).
    #[arg(long)]
    pub(crate) qrels: Option<PathBuf>,
    /// Any other input file, format detected from its content. Repeatable.
    #[arg(long, short = 'i')]
    pub(crate) input: Vec<PathBuf>,
}

impl InputArgs {
    /// Every file with the role of its option.
    fn files(&self) -> Vec<(PathBuf, Option<FileRole>)> {
        let mut out = Vec::new();
        out.extend(self.memories.iter().map(|p| (p.clone(), Some(FileRole::Memories))));
        out.extend(self.queries.iter().map(|p| (p.clone(), Some(FileRole::Queries))));
        out.extend(self.qrels.iter().map(|p| (p.clone(), Some(FileRole::Qrels))));
        out.extend(self.runs.iter().map(|p| (p.clone(), Some(FileRole::Runs))));
        out.extend(self.input.iter().map(|p| (p.clone(), Some(FileRole::Retrieval))));
        out
    }
}

#[derive(Args)]
pub(crate) struct RescoreArgs {
    #[command(flatten)]
    pub(crate) input: InputArgs,
    /// Every scoring convention ([`Settings`], declared once in the core).
    #[command(flatten)]
    pub(crate) settings: FieldArgs<Settings>,
    #[command(flatten)]
    pub(crate) output: Output<RescoreTable>,
}

#[derive(Args)]
pub(crate) struct DrilldownArgs {
    #[command(flatten)]
    pub(crate) input: InputArgs,
    /// Every scoring convention ([`Settings`], declared once in the core).
    #[command(flatten)]
    pub(crate) settings: FieldArgs<Settings>,
    /// System name.
    #[arg(long)]
    pub(crate) system: String,
    /// Query id.
    #[arg(long)]
    pub(crate) query: String,
    /// Output format: json or table (text).
    #[arg(long, value_enum, default_value_t = OutFormat::Table)]
    pub(crate) format: OutFormat,
}

impl crate::common::Subcommand for Rescore {
    type Args = RescoreArgs;
    fn run(args: RescoreArgs) -> Result<(), Failure> {
        rescore(args)
    }
}

pub(crate) fn rescore(args: RescoreArgs) -> Result<(), Failure> {
    let files = inputs::<Rescore>(args.input.files())?;
    let (loaded, report) = run::<Rescore>(&files, &args.settings.0)?;
    emit::<Rescore>(&report, &loaded, &args.output)?;
    let n: usize = report.reading.warnings.iter().map(|w| w.count).sum();
    if args.output.format == OutFormat::Csv && n > 0 {
        note(&format!("memaudit: {n} reading warning(s); see `--table warnings`"));
    }
    Ok(())
}

pub(crate) fn drill(args: DrilldownArgs) -> Result<(), Failure> {
    let settings = args.settings.0;
    let files = inputs::<Rescore>(args.input.files())?;
    let d = detail::<Rescore>(&files, &settings, &DrilldownQuery { system: args.system, query: args.query })?;
    if args.format == OutFormat::Json {
        return print(&format!("{}\n", json_report(&d, true)?));
    }
    print(&memaudit::report::terminal_safe(&memaudit::audit::drilldown::render_text(&d, &settings)))
}
