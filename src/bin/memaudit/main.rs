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
}

/// `memaudit report SUB ARGS…` as the analysis subcommand with `--html -` (unless the ARGS
/// already write the report somewhere).
fn report_command(args: Vec<String>) -> Result<(Command, memaudit::ingest::Limits), common::Failure> {
    let mut argv = vec!["memaudit".to_string()];
    let writes =
        args.iter().any(|a| ["--html", "--markdown"].iter().any(|o| a == o || a.starts_with(&format!("{o}="))));
    argv.extend(args);
    if !writes {
        argv.extend(["--html".to_string(), "-".to_string()]);
    }
    let cli = Cli::try_parse_from(argv).map_err(|e| common::fail(e.to_string().trim_end()))?;
    let limits = cli.limits();
    match cli.command {
        c @ Command::Analysis(_) => Ok((c, limits)),
        _ => {
            let names: Vec<&str> = memaudit::capability::Analysis::ALL.iter().map(|a| a.name()).collect();
            let (last, first) = names.split_last().unwrap_or((&"", &[]));
            Err(common::fail(format!("`memaudit report` takes an analysis: {} or {last}", first.join(", "))))
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let limits = cli.limits();
    let command = match cli.command {
        Command::Report { args } => report_command(args),
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
