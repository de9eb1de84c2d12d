//! `memaudit rescore` and `memaudit drilldown`: arguments → [`Settings`] → the core's
//! [`Rescore`] capability → output.

use std::path::PathBuf;

use clap::Args;

use memaudit::audit::{DrilldownQuery, Rescore, RescoreTable};
use memaudit::capability::FileRole;
use memaudit::conventions::{CreditUnit, Discount, Gain, MissingRun, RankOrder, Settings};

use crate::common::{Failure, OutFormat, Output, detail, emit, inputs, json_report, note, print, run};

fn defaults() -> Settings {
    Settings::default()
}

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

/// Every scoring convention; the defaults are the core's ([`Settings::default`]).
#[derive(Args, Clone)]
pub(crate) struct SettingsArgs {
    /// Cutoff: only the first k items of each list count. Several (`--k 1,5,10,60`): every table
    /// at the largest, and the `curve` table (Recall@k, nDCG@k, … per system and target) at each.
    #[arg(long, value_delimiter = ',', default_value = "60")]
    pub(crate) k: Vec<usize>,
    /// Credit unit: one group per evidence anchor, or every memory id.
    #[arg(long, value_enum, default_value_t = defaults().unit)]
    pub(crate) unit: CreditUnit,
    /// Rank discount: trec_eval 9 log2(rank+1), or LongMemEval's (ranks 1 and 2 undiscounted).
    #[arg(long, value_enum, default_value_t = defaults().discount)]
    pub(crate) discount: Discount,
    /// Gain of graded relevance: linear or 2^rel-1.
    #[arg(long, value_enum, default_value_t = defaults().gain)]
    pub(crate) gain: Gain,
    /// Rank order: the saved order, or trec_eval's (score descending, ties by id descending).
    #[arg(long, value_enum, default_value_t = defaults().order)]
    pub(crate) order: RankOrder,
    /// Queries without a run for a system: leave out (skip) or score 0 (zero).
    #[arg(long, value_enum, default_value_t = defaults().missing)]
    pub(crate) missing: MissingRun,
    /// Paired bootstrap resamples for every interval (0: no intervals).
    #[arg(long, default_value_t = defaults().bootstrap)]
    pub(crate) bootstrap: usize,
    /// RNG seed for the bootstrap.
    #[arg(long, default_value_t = defaults().seed)]
    pub(crate) seed: u64,
    /// Confidence level of the intervals.
    #[arg(long, default_value_t = defaults().confidence)]
    pub(crate) confidence: f64,
}

impl SettingsArgs {
    pub(crate) fn settings(&self) -> Result<Settings, Failure> {
        Settings {
            k: 0,
            unit: self.unit,
            discount: self.discount,
            gain: self.gain,
            order: self.order,
            missing: self.missing,
            bootstrap: self.bootstrap,
            seed: self.seed,
            confidence: self.confidence,
            curve: Vec::new(),
        }
        .with_cutoffs(&self.k)
        .map_err(Failure::from)
    }
}

#[derive(Args)]
pub(crate) struct RescoreArgs {
    #[command(flatten)]
    pub(crate) input: InputArgs,
    #[command(flatten)]
    pub(crate) settings: SettingsArgs,
    #[command(flatten)]
    pub(crate) output: Output<RescoreTable>,
}

#[derive(Args)]
pub(crate) struct DrilldownArgs {
    #[command(flatten)]
    pub(crate) input: InputArgs,
    #[command(flatten)]
    pub(crate) settings: SettingsArgs,
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

pub(crate) fn rescore(args: RescoreArgs) -> Result<(), Failure> {
    let files = inputs::<Rescore>(args.input.files())?;
    let (loaded, report) = run::<Rescore>(&files, &args.settings.settings()?)?;
    emit::<Rescore>(&report, &loaded, &args.output)?;
    let n: usize = report.reading.warnings.iter().map(|w| w.count).sum();
    if args.output.format == OutFormat::Csv && n > 0 {
        note(&format!("memaudit: {n} reading warning(s); see `--table warnings`"));
    }
    Ok(())
}

pub(crate) fn drill(args: DrilldownArgs) -> Result<(), Failure> {
    let settings = args.settings.settings()?;
    let files = inputs::<Rescore>(args.input.files())?;
    let d = detail::<Rescore>(&files, &settings, &DrilldownQuery { system: args.system, query: args.query })?;
    if args.format == OutFormat::Json {
        return print(&format!("{}\n", json_report(&d, true)?));
    }
    print(&memaudit::report::terminal_safe(&memaudit::audit::drilldown::render_text(&d, &settings)))
}
