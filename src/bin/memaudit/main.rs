//! `memaudit`: the command-line twin of the viewer. A thin layer over the core: each
//! subcommand is "arguments → request → the core capability's run → emit" (`common`), the
//! same `run` the viewer's worker calls. One module per group of subcommands.

mod ablation;
mod alignment;
mod answers;
mod audit;
mod bundle;
mod calibration;
mod claims;
mod common;
mod compare;
mod compliance;
mod fields;
mod labels;
mod probe;
mod reclaim;
mod rescore;
mod rules;
mod trec_eval;

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "memaudit",
    version,
    about = "Audit LLM-memory and retrieval benchmark results: credit-target rescoring and statistics"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// The most bytes read from one input file (after gzip is undone), e.g. 500M or 8G (powers
    /// of 1024). Default 4G; streamed TREC runs of trec-eval are not bounded by it.
    #[arg(long, global = true, value_parser = common::parse_bytes, value_name = "BYTES")]
    max_bytes: Option<u64>,
    /// The most rows read from one input file: its lines, or for a JSON document its objects.
    /// Default 5000000 (about 1.6 kB of memory per row for outcome tables).
    #[arg(long, global = true, value_name = "ROWS")]
    max_rows: Option<u64>,
}

impl Cli {
    fn limits(&self) -> memaudit::ingest::Limits {
        let default = memaudit::ingest::Limits::DEFAULT;
        memaudit::ingest::Limits {
            max_bytes: self.max_bytes.unwrap_or(default.max_bytes),
            max_rows: self.max_rows.unwrap_or(default.max_rows),
        }
    }
}

/// One subcommand per capability, from the core's list ([`memaudit::capabilities!`]): named by
/// its `Analysis` (`trec-eval`), described by its `Capability::ABOUT`.
macro_rules! analyses {
    (; $($variant:ident $name:ident $unit:ty;)+) => {
        #[derive(Subcommand)]
        enum Analyses {
            $(
                #[command(name = <$unit as memaudit::capability::Capability>::ANALYSIS.name(),
                    about = <$unit as memaudit::capability::Capability>::ABOUT.trim_end_matches('.'))]
                $variant(<$unit as common::Subcommand>::Args),
            )+
        }

        impl Analyses {
            fn run(self) -> Result<(), common::Failure> {
                match self {
                    $(Analyses::$variant(a) => <$unit as common::Subcommand>::run(a),)+
                }
            }
        }
    };
}
memaudit::capabilities!(analyses);

// Parsed once per process: the size of the largest variant does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
enum Command {
    #[command(flatten)]
    Analysis(Analyses),
    /// Show one system's ranked list for one query, each item marked by its credit.
    Drilldown(rescore::DrilldownArgs),
    /// Convert a benchmark's own files into a memaudit bundle (memories.jsonl, queries.jsonl).
    Import(bundle::ImportArgs),
    /// Write a synthetic bundle (the viewer's demo, benchmark inputs).
    Synth(bundle::SynthArgs),
    /// Power, sample size and minimum detectable effect of a comparison (two or paired
    /// proportions, two or paired means), with Hoeffding's half-width.
    Power(compliance::PowerArgs),
    /// The report to attach to a review: `memaudit report SUBCOMMAND ARGS…` prints one
    /// self-contained HTML file (headlines, every table, every plot, settings, input files with
    /// SHA-256); the same as `memaudit SUBCOMMAND ARGS… --html -`. `--html FILE`,
    /// `--markdown FILE` and `--plots DIR` among the ARGS write files instead.
    Report {
        /// An analysis subcommand (one of those listed first by `memaudit --help`) and its
        /// arguments.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, required = true, value_name = "SUBCOMMAND ARGS")]
        args: Vec<String>,
    },
    /// A paper's printed numbers checked against the data: `memaudit verify --printed FILE
    /// SUBCOMMAND ARGS…` runs the analysis as `memaudit SUBCOMMAND ARGS…` would and prints, for
    /// each number of FILE (its table, row and column of that analysis's report), the recomputed
    /// value and whether it matches, is within rounding, differs or cannot be computed.
    Verify {
        /// The printed numbers (CSV, JSON Lines or a JSON array: source, analysis, table, row,
        /// column, printed; docs/formats.md, "Printed numbers").
        #[arg(long, value_name = "FILE", required = true)]
        printed: std::path::PathBuf,
        /// An analysis subcommand and its arguments (its settings: those the paper used).
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, required = true, value_name = "SUBCOMMAND ARGS")]
        args: Vec<String>,
    },
}

/// `memaudit report SUB ARGS…` as the analysis subcommand with `--html -` (unless the ARGS
/// already write the report somewhere).
fn report_command(args: Vec<String>) -> Result<(Command, memaudit::ingest::Limits), common::Failure> {
    let writes =
        args.iter().any(|a| ["--html", "--markdown"].iter().any(|o| a == o || a.starts_with(&format!("{o}="))));
    let extra = if writes { vec![] } else { vec!["--html".to_string(), "-".to_string()] };
    analysis_command("report", args, extra)
}

/// `memaudit verify --printed FILE SUB ARGS…` as `memaudit SUB ARGS… --printed FILE`.
fn verify_command(
    printed: std::path::PathBuf,
    args: Vec<String>,
) -> Result<(Command, memaudit::ingest::Limits), common::Failure> {
    analysis_command("verify", args, vec!["--printed".to_string(), printed.to_string_lossy().into_owned()])
}

/// The analysis subcommand `args` names, with `extra` arguments after its own; `wrapper` (the
/// command that wraps it) names the mistake when `args` is not an analysis.
fn analysis_command(
    wrapper: &str,
    args: Vec<String>,
    extra: Vec<String>,
) -> Result<(Command, memaudit::ingest::Limits), common::Failure> {
    let names: Vec<&str> = memaudit::capability::Analysis::ALL.iter().map(|a| a.name()).collect();
    let (last, first) = names.split_last().unwrap_or((&"", &[]));
    let not_an_analysis =
        || common::fail(format!("`memaudit {wrapper}` takes an analysis: {} or {last}", first.join(", ")));
    if !args.first().is_some_and(|a| names.contains(&a.as_str())) {
        return Err(not_an_analysis());
    }
    let argv = std::iter::once("memaudit".to_string()).chain(args).chain(extra);
    let cli = Cli::try_parse_from(argv).map_err(|e| common::fail(e.to_string().trim_end()))?;
    let limits = cli.limits();
    match cli.command {
        c @ Command::Analysis(_) => Ok((c, limits)),
        _ => Err(not_an_analysis()),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let limits = cli.limits();
    let command = match cli.command {
        Command::Report { args } => report_command(args),
        Command::Verify { printed, args } => verify_command(printed, args),
        c => Ok((c, limits)),
    };
    let command = command.and_then(|(command, limits)| common::set_limits(limits).map(|()| command));
    let result = command.and_then(|command| match command {
        Command::Analysis(a) => a.run(),
        Command::Drilldown(a) => rescore::drill(a),
        Command::Import(a) => bundle::import(a),
        Command::Synth(a) => bundle::synth_cmd(a),
        Command::Power(a) => compliance::power_cmd(a),
        // `report_command` never returns a report: a nested one is refused there.
        Command::Report { .. } => Err(common::fail("`memaudit report` cannot report a report")),
        Command::Verify { .. } => Err(common::fail("`memaudit verify` cannot verify a verification")),
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            // A closed stderr must not turn a refusal into a panic.
            let message = memaudit::error::elide_long_words(&f.message);
            let _ = writeln!(std::io::stderr(), "memaudit: error: {}", memaudit::report::terminal_safe(&message));
            ExitCode::from(f.code)
        }
    }
}
