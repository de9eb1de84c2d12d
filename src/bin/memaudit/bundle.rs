//! `memaudit import` and `memaudit synth`: writing bundles.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use memaudit::dataset::Dataset;
use memaudit::error::Error;
use memaudit::ingest::{self, Format, Loaded, Role};
use memaudit::synth;

use crate::common::{Failure, io_failure, note, read_path, write};

#[derive(Copy, Clone, ValueEnum)]
pub(crate) enum Benchmark {
    Locomo,
    Longmemeval,
}

#[derive(Args)]
pub(crate) struct ImportArgs {
    /// Which benchmark the file comes from (checked against its content).
    pub(crate) benchmark: Benchmark,
    /// The benchmark's data file (locomo10.json; longmemeval_s.json or the snapshot layout).
    pub(crate) file: PathBuf,
    /// Output directory for memories.jsonl and queries.jsonl.
    #[arg(long)]
    pub(crate) out: PathBuf,
}

#[derive(Args)]
pub(crate) struct SynthArgs {
    #[arg(long, default_value_t = 120)]
    pub(crate) queries: usize,
    #[arg(long, default_value_t = 3)]
    pub(crate) systems: usize,
    #[arg(long, default_value_t = 30)]
    pub(crate) depth: usize,
    #[arg(long, default_value_t = 20261122)]
    pub(crate) seed: u64,
    /// Leave out the deliberate problems that make the demo's reading summary interesting.
    #[arg(long)]
    pub(crate) no_quirks: bool,
    /// Leave out the demo's system with a store of its own (`extractor-store`).
    #[arg(long)]
    pub(crate) no_own_store: bool,
    /// Write this page's built-in demo instead of a bundle (compare, probe, reclaim, answers,
    /// ablation; the rescoring demo is the default bundle).
    #[arg(long)]
    pub(crate) page: Option<memaudit::capability::Analysis>,
    #[arg(long)]
    pub(crate) out: PathBuf,
}

pub(crate) fn import(args: ImportArgs) -> Result<(), Failure> {
    let file = read_path(&args.file)?;
    let (text, _) = file.text().map_err(|e| Failure::from(Error::from(e)))?;
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
    note(&format!(
        "memaudit: wrote {} memories and {} queries to {}",
        loaded.bundle.memories.len(),
        loaded.bundle.queries.len(),
        args.out.display()
    ));
    // The dataset checks (queries without evidence, anchors without memories, ...) as well.
    let ds = Dataset::build(loaded);
    for w in ds.warnings.iter() {
        note(&format!(
            "  [{}] {} × {}{}",
            format!("{:?}", w.severity).to_lowercase(),
            w.count,
            w.message,
            w.examples.first().map(|e| format!(" (e.g. {e})")).unwrap_or_default()
        ));
    }
    Ok(())
}

pub(crate) fn synth_cmd(args: SynthArgs) -> Result<(), Failure> {
    if let Some(page) = args.page {
        let files = memaudit::demo::generate(page).ok_or_else(|| {
            crate::common::fail(format!(
                "the {page} page's demo is not generated here: it is the default bundle (rescore) or a committed reference fixture (claims, rules, trec-eval)"
            ))
        })?;
        std::fs::create_dir_all(&args.out).map_err(|e| io_failure(&args.out, e))?;
        for (name, text) in files {
            write(&args.out.join(name), &text)?;
        }
        return Ok(());
    }
    let spec = synth::SynthSpec {
        queries: args.queries,
        systems: args.systems,
        depth: args.depth,
        seed: args.seed,
        quirks: !args.no_quirks,
        own_store: !args.no_own_store,
    };
    let b = synth::generate(&spec);
    std::fs::create_dir_all(&args.out).map_err(|e| io_failure(&args.out, e))?;
    let (m, q, r) = synth::to_jsonl(&b);
    write(&args.out.join("memories.jsonl"), &m)?;
    write(&args.out.join("queries.jsonl"), &q)?;
    write(&args.out.join("runs.jsonl"), &r)?;
    Ok(())
}
