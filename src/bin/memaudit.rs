//! `memaudit`: the command-line twin of the viewer. A thin layer over the core: parse
//! arguments, read files, call the same functions the viewer calls, print.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

use memaudit::audit::{self, Report};
use memaudit::conventions::{CreditUnit, Discount, Gain, MissingRun, RankOrder, Settings};
use memaudit::dataset::Dataset;
use memaudit::error::Error;
use memaudit::ingest::{self, Format, InputFile, Loaded, Role};
use memaudit::report;
use memaudit::synth;

#[derive(Parser)]
#[command(
    name = "memaudit",
    version,
    about = "Audit LLM-memory and retrieval benchmark results: credit-target rescoring and statistics"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Rescore saved ranked outputs under the Raw, Source and Canonical credit targets.
    Rescore(RescoreArgs),
    /// Show one system's ranked list for one query, each item marked by its credit.
    Drilldown(DrilldownArgs),
    /// Convert a benchmark's own files into a memaudit bundle (memories.jsonl, queries.jsonl).
    Import(ImportArgs),
    /// Write a synthetic bundle (the viewer's demo, benchmark inputs).
    Synth(SynthArgs),
}

#[derive(Args, Clone)]
struct InputArgs {
    /// Stored memories with their lineage (memories.jsonl[.gz], a bundle .json, LoCoMo or LongMemEval data).
    #[arg(long, short = 'm')]
    memories: Option<PathBuf>,
    /// Queries with gold evidence (queries.jsonl[.gz]; may be the same file as --memories).
    #[arg(long, short = 'q')]
    queries: Option<PathBuf>,
    /// Saved ranked outputs (runs.jsonl, per-hit rows, LongMemEval retrieval logs, TREC runs). Repeatable.
    #[arg(long, short = 'r')]
    runs: Vec<PathBuf>,
    /// TREC qrels (then only the Raw target exists).
    #[arg(long)]
    qrels: Option<PathBuf>,
    /// Any other input file, format detected from its content. Repeatable.
    #[arg(long, short = 'i')]
    input: Vec<PathBuf>,
}

#[derive(Args, Clone)]
struct SettingsArgs {
    /// Cutoff: only the first k items of each list count.
    #[arg(long, default_value_t = 60)]
    k: usize,
    /// Credit unit: one group per evidence anchor, or every memory id.
    #[arg(long, value_enum, default_value_t = UnitArg::Group)]
    unit: UnitArg,
    /// Rank discount: trec_eval 9 log2(rank+1), or LongMemEval's (ranks 1 and 2 undiscounted).
    #[arg(long, value_enum, default_value_t = DiscountArg::Log2)]
    discount: DiscountArg,
    /// Gain of graded relevance: linear or 2^rel-1.
    #[arg(long, value_enum, default_value_t = GainArg::Linear)]
    gain: GainArg,
    /// Rank order: the saved order, or trec_eval's (score descending, ties by id descending).
    #[arg(long, value_enum, default_value_t = OrderArg::Saved)]
    order: OrderArg,
    /// Queries without a run for a system: leave out (skip) or score 0 (zero).
    #[arg(long, value_enum, default_value_t = MissingArg::Skip)]
    missing: MissingArg,
    /// Paired bootstrap resamples for every interval.
    #[arg(long, default_value_t = 3000)]
    bootstrap: usize,
    /// RNG seed for the bootstrap.
    #[arg(long, default_value_t = 1337)]
    seed: u64,
    /// Confidence level of the intervals.
    #[arg(long, default_value_t = 0.95)]
    confidence: f64,
}

#[derive(Copy, Clone, ValueEnum)]
enum UnitArg {
    Group,
    Id,
}
#[derive(Copy, Clone, ValueEnum)]
enum DiscountArg {
    Log2,
    Lme,
}
#[derive(Copy, Clone, ValueEnum)]
enum GainArg {
    Linear,
    Exponential,
}
#[derive(Copy, Clone, ValueEnum)]
enum OrderArg {
    Saved,
    TrecEval,
}
#[derive(Copy, Clone, ValueEnum)]
enum MissingArg {
    Skip,
    Zero,
}
#[derive(Copy, Clone, ValueEnum, PartialEq)]
enum OutFormat {
    Json,
    Csv,
    Table,
}

#[derive(Args)]
struct RescoreArgs {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    settings: SettingsArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutFormat::Table)]
    format: OutFormat,
    /// With --format csv: which table to print.
    #[arg(long, default_value = "summary", value_parser = clap::builder::PossibleValuesParser::new(report::TABLE_NAMES))]
    table: String,
    /// Also write report.json and every table as CSV into this directory.
    #[arg(long)]
    out_dir: Option<PathBuf>,
    /// Pretty-print JSON.
    #[arg(long)]
    pretty: bool,
}

#[derive(Args)]
struct DrilldownArgs {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    settings: SettingsArgs,
    /// System name.
    #[arg(long)]
    system: String,
    /// Query id.
    #[arg(long)]
    query: String,
    #[arg(long, value_enum, default_value_t = OutFormat::Table)]
    format: OutFormat,
}

#[derive(Copy, Clone, ValueEnum)]
enum Benchmark {
    Locomo,
    Longmemeval,
}

#[derive(Args)]
struct ImportArgs {
    /// Which benchmark the file comes from (checked against its content).
    benchmark: Benchmark,
    /// The benchmark's data file (locomo10.json; longmemeval_s.json or the snapshot layout).
    file: PathBuf,
    /// Output directory for memories.jsonl and queries.jsonl.
    #[arg(long)]
    out: PathBuf,
}

#[derive(Args)]
struct SynthArgs {
    #[arg(long, default_value_t = 120)]
    queries: usize,
    #[arg(long, default_value_t = 3)]
    systems: usize,
    #[arg(long, default_value_t = 30)]
    depth: usize,
    #[arg(long, default_value_t = 20261122)]
    seed: u64,
    /// Leave out the deliberate problems that make the demo's reading summary interesting.
    #[arg(long)]
    no_quirks: bool,
    #[arg(long)]
    out: PathBuf,
}

impl SettingsArgs {
    fn settings(&self) -> Settings {
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
struct Failure {
    message: String,
    code: u8,
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        let code = if matches!(e, Error::Output { .. }) { 1 } else { 2 };
        Failure { message: e.to_string(), code }
    }
}

fn io_failure(what: &Path, e: std::io::Error) -> Failure {
    Failure { message: format!("{}: {e}", what.display()), code: 1 }
}

fn read_path(p: &Path) -> Result<InputFile, Failure> {
    let bytes = std::fs::read(p).map_err(|e| io_failure(p, e))?;
    Ok(InputFile::new(p.display().to_string(), bytes))
}

fn load(input: &InputArgs) -> Result<Dataset, Failure> {
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

fn write(path: &Path, text: &str) -> Result<(), Failure> {
    std::fs::write(path, text).map_err(|e| io_failure(path, e))
}

fn json<T: serde::Serialize>(v: &T, pretty: bool) -> Result<String, Failure> {
    let r = if pretty { serde_json::to_string_pretty(v) } else { serde_json::to_string(v) };
    r.map_err(|e| Failure { message: format!("could not serialise output: {e}"), code: 1 })
}

fn rescore(args: RescoreArgs) -> Result<(), Failure> {
    let settings = args.settings.settings();
    settings.validate()?;
    let ds = load(&args.input)?;
    if ds.queries.is_empty() {
        return Err(Error::Empty("no queries were read (give a queries file, qrels, or benchmark data)".into()).into());
    }
    let report: Report = audit::run(&ds, &settings, &mut |_, _| {});
    if let Some(dir) = &args.out_dir {
        std::fs::create_dir_all(dir).map_err(|e| io_failure(dir, e))?;
        write(&dir.join("report.json"), &json(&report, true)?)?;
        for name in report::TABLE_NAMES {
            if let Some(t) = report::table(&report, name) {
                write(&dir.join(format!("{name}.csv")), &t.to_csv()?)?;
            }
        }
    }
    match args.format {
        OutFormat::Json => println!("{}", json(&report, args.pretty)?),
        OutFormat::Csv => {
            let t = report::table(&report, &args.table)
                .ok_or_else(|| Failure { message: format!("unknown table `{}`", args.table), code: 2 })?;
            print!("{}", t.to_csv()?);
            let n: usize = report.reading.warnings.iter().map(|w| w.count).sum();
            if n > 0 {
                eprintln!("memaudit: {} reading warning(s); see `--table warnings`", n);
            }
        }
        OutFormat::Table => print!("{}", report::render_text(&report)),
    }
    Ok(())
}

fn drill(args: DrilldownArgs) -> Result<(), Failure> {
    let settings = args.settings.settings();
    settings.validate()?;
    let ds = load(&args.input)?;
    let s = ds.system_index(&args.system).ok_or_else(|| Failure {
        message: format!("no system `{}` (have: {})", args.system, ds.systems.join(", ")),
        code: 2,
    })?;
    let q = ds
        .query_index(&args.query)
        .ok_or_else(|| Failure { message: format!("no query `{}`", args.query), code: 2 })?;
    let d = audit::drilldown(&ds, &settings, s, q as usize)
        .ok_or_else(|| Failure { message: "nothing to show".into(), code: 2 })?;
    if args.format == OutFormat::Json {
        println!("{}", json(&d, true)?);
        return Ok(());
    }
    println!("{} — {} ({})", d.system, d.query_id, settings.describe());
    if let Some(t) = &d.query_text {
        println!("query: {t}");
    }
    println!("evidence: {}", d.evidence.join(", "));
    for t in &d.targets {
        match &t.score {
            Some(s) => println!(
                "  {:<9} nDCG {:.4}  recall {:.4}  hit {}  MRR {:.4}  groups {}",
                t.target.name(),
                s.ndcg,
                s.recall,
                s.hit,
                s.mrr,
                t.groups.len()
            ),
            None => {
                println!("  {:<9} not eligible (no stored memory of the evidence is in this target)", t.target.name())
            }
        }
    }
    for it in &d.items {
        println!(
            "  {:>3}{} {:<40} {:<16} {:<10} {}",
            it.rank,
            if it.within_k { " " } else { "*" },
            it.memory_id,
            format!("{:?}", it.mark).to_lowercase(),
            it.kind.clone().unwrap_or_default(),
            it.evidence_anchors.join(", ")
        );
    }
    Ok(())
}

fn import(args: ImportArgs) -> Result<(), Failure> {
    let file = read_path(&args.file)?;
    let (text, _) = ingest::decode(&file.name, &file.bytes).map_err(|e| Failure::from(Error::from(e)))?;
    let format = ingest::detect(&file.name, &text).map_err(|e| Failure::from(Error::from(e)))?;
    let ok = match args.benchmark {
        Benchmark::Locomo => format == Format::Locomo,
        Benchmark::Longmemeval => {
            matches!(format, Format::LongMemEval | Format::LongMemEvalSnapshot)
        }
    };
    if !ok {
        return Err(Failure { message: format!("{}: the content is {}", file.name, format.describe()), code: 2 });
    }
    let mut loaded = Loaded::default();
    ingest::read_into(&file, Role::Any, &mut loaded, &mut |_| {}).map_err(|e| Failure::from(Error::from(e)))?;
    std::fs::create_dir_all(&args.out).map_err(|e| io_failure(&args.out, e))?;
    let (m, q, _) = synth::to_jsonl(&loaded.bundle);
    write(&args.out.join("memories.jsonl"), &m)?;
    write(&args.out.join("queries.jsonl"), &q)?;
    eprintln!(
        "memaudit: wrote {} memories and {} queries to {}",
        loaded.bundle.memories.len(),
        loaded.bundle.queries.len(),
        args.out.display()
    );
    // The dataset checks (queries without evidence, anchors without memories, ...) as well.
    let ds = Dataset::build(loaded);
    for w in ds.warnings.iter() {
        eprintln!(
            "  [{}] {} × {}{}",
            format!("{:?}", w.severity).to_lowercase(),
            w.count,
            w.message,
            w.examples.first().map(|e| format!(" (e.g. {e})")).unwrap_or_default()
        );
    }
    Ok(())
}

fn synth_cmd(args: SynthArgs) -> Result<(), Failure> {
    let spec = synth::SynthSpec {
        queries: args.queries,
        systems: args.systems,
        depth: args.depth,
        seed: args.seed,
        quirks: !args.no_quirks,
    };
    let b = synth::generate(&spec);
    std::fs::create_dir_all(&args.out).map_err(|e| io_failure(&args.out, e))?;
    let (m, q, r) = synth::to_jsonl(&b);
    write(&args.out.join("memories.jsonl"), &m)?;
    write(&args.out.join("queries.jsonl"), &q)?;
    write(&args.out.join("runs.jsonl"), &r)?;
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Rescore(a) => rescore(a),
        Command::Drilldown(a) => drill(a),
        Command::Import(a) => import(a),
        Command::Synth(a) => synth_cmd(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            eprintln!("memaudit: error: {}", f.message);
            ExitCode::from(f.code)
        }
    }
}
