//! Arguments and plumbing shared by the subcommands: input files, scoring settings, output
//! formats, and the failure type that maps to exit codes (2: bad input or settings, 1: I/O).

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};

use memaudit::conventions::{CreditUnit, Discount, Gain, MissingRun, RankOrder, Settings};
use memaudit::dataset::Dataset;
use memaudit::error::{Error, IngestError};
use memaudit::file_role::FileRole;
use memaudit::ingest::{self, InputFile, Loaded, Role};

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

#[derive(Args, Clone)]
pub(crate) struct SettingsArgs {
    /// Cutoff: only the first k items of each list count.
    #[arg(long, default_value_t = 60)]
    pub(crate) k: usize,
    /// Credit unit: one group per evidence anchor, or every memory id.
    #[arg(long, value_enum, default_value_t = UnitArg::Group)]
    pub(crate) unit: UnitArg,
    /// Rank discount: trec_eval 9 log2(rank+1), or LongMemEval's (ranks 1 and 2 undiscounted).
    #[arg(long, value_enum, default_value_t = DiscountArg::Log2)]
    pub(crate) discount: DiscountArg,
    /// Gain of graded relevance: linear or 2^rel-1.
    #[arg(long, value_enum, default_value_t = GainArg::Linear)]
    pub(crate) gain: GainArg,
    /// Rank order: the saved order, or trec_eval's (score descending, ties by id descending).
    #[arg(long, value_enum, default_value_t = OrderArg::Saved)]
    pub(crate) order: OrderArg,
    /// Queries without a run for a system: leave out (skip) or score 0 (zero).
    #[arg(long, value_enum, default_value_t = MissingArg::Skip)]
    pub(crate) missing: MissingArg,
    /// Paired bootstrap resamples for every interval.
    #[arg(long, default_value_t = 3000)]
    pub(crate) bootstrap: usize,
    /// RNG seed for the bootstrap.
    #[arg(long, default_value_t = 1337)]
    pub(crate) seed: u64,
    /// Confidence level of the intervals.
    #[arg(long, default_value_t = 0.95)]
    pub(crate) confidence: f64,
}

#[derive(Copy, Clone, ValueEnum)]
pub(crate) enum UnitArg {
    Group,
    Id,
}
#[derive(Copy, Clone, ValueEnum)]
pub(crate) enum DiscountArg {
    Log2,
    Lme,
}
#[derive(Copy, Clone, ValueEnum)]
pub(crate) enum GainArg {
    Linear,
    Exponential,
}
#[derive(Copy, Clone, ValueEnum)]
pub(crate) enum OrderArg {
    Saved,
    TrecEval,
}
#[derive(Copy, Clone, ValueEnum)]
pub(crate) enum MissingArg {
    Skip,
    Zero,
}
#[derive(Copy, Clone, ValueEnum, PartialEq)]
pub(crate) enum OutFormat {
    Json,
    Csv,
    Table,
}

impl SettingsArgs {
    pub(crate) fn settings(&self) -> Settings {
        Settings {
            k: self.k,
            unit: match self.unit {
                UnitArg::Group => CreditUnit::Group,
                UnitArg::Id => CreditUnit::Id,
            },
            discount: match self.discount {
                DiscountArg::Log2 => Discount::Log2,
                DiscountArg::Lme => Discount::Lme,
            },
            gain: match self.gain {
                GainArg::Linear => Gain::Linear,
                GainArg::Exponential => Gain::Exponential,
            },
            order: match self.order {
                OrderArg::Saved => RankOrder::Saved,
                OrderArg::TrecEval => RankOrder::TrecEval,
            },
            missing: match self.missing {
                MissingArg::Skip => MissingRun::Skip,
                MissingArg::Zero => MissingRun::Zero,
            },
            bootstrap: self.bootstrap,
            seed: self.seed,
            confidence: self.confidence,
        }
    }
}

/// A failure with the exit code it maps to: 2 for bad input or settings, 1 for I/O.
pub(crate) struct Failure {
    pub(crate) message: String,
    pub(crate) code: u8,
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        let code = if matches!(e, Error::Output { .. }) { 1 } else { 2 };
        Failure { message: e.to_string(), code }
    }
}

pub(crate) fn io_failure(what: &Path, e: std::io::Error) -> Failure {
    Failure { message: format!("{}: {e}", what.display()), code: 1 }
}

pub(crate) fn read_path(p: &Path) -> Result<InputFile, Failure> {
    let bytes = std::fs::read(p).map_err(|e| io_failure(p, e))?;
    Ok(InputFile::new(p.display().to_string(), bytes))
}

/// Reads `file`, given as a file of `role`, with `read`; when that fails and `detect` (the
/// core's detection by content) recognises another role, the error names its option. (A
/// rules file that is none of the others is data: that says nothing, so it is not named.)
pub(crate) fn read_as<T>(
    file: &InputFile,
    role: FileRole,
    detect: impl FnOnce(&InputFile) -> Option<FileRole>,
    read: impl FnOnce(&InputFile) -> Result<T, IngestError>,
) -> Result<T, Failure> {
    read(file).map_err(|e| {
        let mut f = Failure::from(Error::from(e));
        if let Some(seen) = detect(file).filter(|r| *r != role && *r != FileRole::Data) {
            f.message.push_str(&format!("; its content looks like a file for {}", seen.option()));
        }
        f
    })
}

pub(crate) fn load(input: &InputArgs) -> Result<Dataset, Failure> {
    let mut loaded = Loaded::default();
    let mut done: Vec<PathBuf> = Vec::new();
    let mut plan: Vec<(&PathBuf, Role)> = Vec::new();
    if let Some(m) = &input.memories {
        plan.push((m, Role::Memories));
    }
    if let Some(q) = &input.queries {
        plan.push((q, Role::Queries));
    }
    if let Some(q) = &input.qrels {
        plan.push((q, Role::Queries));
    }
    for r in &input.runs {
        plan.push((r, Role::Runs));
    }
    for i in &input.input {
        plan.push((i, Role::Any));
    }
    if plan.is_empty() {
        return Err(Failure {
            message: "no input files: give --memories, --queries and --runs (or --input)".into(),
            code: 2,
        });
    }
    for (path, role) in plan {
        if done.contains(path) {
            continue;
        }
        let file = read_path(path)?;
        ingest::read_into(&file, role, &mut loaded, &mut |_| {}).map_err(|e| Failure::from(Error::from(e)))?;
        done.push(path.clone());
    }
    Ok(Dataset::build(loaded))
}

pub(crate) fn write(path: &Path, text: &str) -> Result<(), Failure> {
    std::fs::write(path, text).map_err(|e| io_failure(path, e))
}

pub(crate) fn json<T: serde::Serialize>(v: &T, pretty: bool) -> Result<String, Failure> {
    let r = if pretty { serde_json::to_string_pretty(v) } else { serde_json::to_string(v) };
    r.map_err(|e| Failure { message: format!("could not serialise output: {e}"), code: 1 })
}
