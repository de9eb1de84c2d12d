//! `memaudit trec-eval`: trec_eval's command line (`[-q] [-c] [-n] [-J] [-l N] [-M N] [-N N]
//! [-m MEASURE]… QRELS RUN…`) → [`TrecEvalRequest`] → the core's [`TrecEval`] capability →
//! output. With one run and the default `--format table` the output is trec_eval's, byte for
//! byte; what trec_eval would not print (queries skipped, unjudged documents) goes to stderr.

use std::path::PathBuf;

use clap::Args;

use memaudit::capability::{self, FileRole};
use memaudit::compare::{CiMethod, CompareSettings};
use memaudit::ingest::InputFile;
use memaudit::ireval::measure::TrecEvalVersion;
use memaudit::ireval::{EvalOptions, TrecEval, TrecEvalRequest, TrecEvalTable};

use crate::common::{Failure, OutFormat, Output, emit, fail, io_failure, note, run};

fn defaults() -> CompareSettings {
    CompareSettings::default()
}

#[derive(Args)]
pub(crate) struct TrecEvalArgs {
    /// Also print every query's values (before the summary).
    #[arg(short = 'q', long = "query_eval_wanted")]
    pub(crate) per_query: bool,
    /// Average over every qrels query: a query the run does not answer scores 0.
    #[arg(short = 'c', long = "complete_rel_info_wanted")]
    pub(crate) complete: bool,
    /// No summary over all queries.
    #[arg(short = 'n', long = "nosummary")]
    pub(crate) no_summary: bool,
    /// Evaluate only judged documents (unjudged ones are removed first).
    #[arg(short = 'J', long = "Judged_docs_only")]
    pub(crate) judged_only: bool,
    /// The smallest relevance value that counts as relevant.
    #[arg(short = 'l', long = "level_for_rel", default_value_t = 1, allow_negative_numbers = true)]
    pub(crate) level: i64,
    /// Evaluate only the first N documents of each ranking (after sorting by score).
    #[arg(short = 'M', long = "Max_retrieved_per_topic")]
    pub(crate) max_per_topic: Option<u64>,
    /// Documents in the collection (utility's fourth coefficient).
    #[arg(short = 'N', long = "Number_docs_in_coll", default_value_t = 0)]
    pub(crate) num_docs_in_coll: i64,
    /// A measure (`map`, `P.5,10`, `ndcg_cut.10`, `ndcg.1=3,2=9`), a nickname (`official`,
    /// `all_trec`, `set`) or an ir-measures name (`nDCG@10`, `P@5`, `AP`, `RR`). Repeatable;
    /// default `official`.
    #[arg(short = 'm', long = "measure")]
    pub(crate) measures: Vec<String>,
    /// Relevance file format: only `qrels` (TREC qrels or dict-of-dicts JSON).
    #[arg(short = 'R', long = "Rel_info_format")]
    pub(crate) rel_format: Option<String>,
    /// Results file format: only `trec_results` (TREC run or dict-of-dicts JSON).
    #[arg(short = 'T', long = "Results_format")]
    pub(crate) results_format: Option<String>,
    /// trec_eval's `-Z FILE` (z-scores), `-D LEVEL` (debug output) and `-o` (the old output
    /// format): not supported, refused by name rather than as unknown arguments.
    #[arg(short = 'Z', long = "Zscore", hide = true)]
    pub(crate) zscore: Option<String>,
    #[arg(short = 'D', long = "Debug_level", hide = true)]
    pub(crate) debug_level: Option<String>,
    #[arg(short = 'o', long = "output_old_results_format", hide = true)]
    pub(crate) old_format: bool,
    /// The trec_eval release to reproduce: 10 (current) or 9 (9.0.8, inside pytrec_eval and
    /// ir_measures: 32-bit scores, ⌊x·R+0.9⌋ recall cutoffs, no unj/rbp).
    #[arg(long, value_enum, default_value_t = TrecEvalVersion::V10)]
    pub(crate) trec_eval_version: TrecEvalVersion,
    /// With two or more runs: the value compared across runs (default `map`).
    #[arg(long)]
    pub(crate) compare_measure: Option<String>,
    #[arg(long, default_value_t = defaults().alpha)]
    pub(crate) alpha: f64,
    #[arg(long, default_value_t = defaults().bootstrap)]
    pub(crate) bootstrap: usize,
    #[arg(long, default_value_t = defaults().seed)]
    pub(crate) seed: u64,
    /// Interval method of the comparison.
    #[arg(long, value_enum, default_value_t = defaults().ci)]
    pub(crate) ci: CiMethod,
    /// Every contrast with this run (its run id) reads other − reference.
    #[arg(long)]
    pub(crate) reference: Option<String>,
    /// The qrels (TREC `qid iter docno rel`, or `{"qid": {"docno": rel}}` JSON).
    pub(crate) qrels: PathBuf,
    /// One or more runs (TREC `qid Q0 docno rank sim runid`, or `{"qid": {"docno": score}}`
    /// JSON); `-` reads one from standard input.
    #[arg(required = true, num_args = 1..)]
    pub(crate) runs: Vec<PathBuf>,
    #[command(flatten)]
    pub(crate) output: Output<TrecEvalTable>,
}

fn read_input(p: &std::path::Path) -> Result<InputFile, Failure> {
    let limits = super::common::limits();
    if p.as_os_str() == "-" {
        let bytes = memaudit::ingest::read_at_most(std::io::stdin(), limits.max_bytes)
            .map_err(|e| io_failure(p, e))?
            .ok_or_else(|| limits.too_many_bytes("-", "holds"))?;
        return Ok(InputFile::new("-", bytes).with_limits(limits));
    }
    super::common::open_path(p, <TrecEval as capability::Capability>::STREAMS)
}

impl crate::common::Subcommand for TrecEval {
    type Args = TrecEvalArgs;
    fn run(args: TrecEvalArgs) -> Result<(), Failure> {
        trec_eval_cmd(args)
    }
}

pub(crate) fn trec_eval_cmd(args: TrecEvalArgs) -> Result<(), Failure> {
    for (given, what) in [
        (args.zscore.is_some(), "-Z: z-scores against a file of per-query means"),
        (args.debug_level.is_some(), "-D: trec_eval's debug output"),
        (args.old_format, "-o: trec_eval's old output format"),
    ] {
        if given {
            return Err(fail(format!("{what} is not supported (docs/trec_eval.md); leave it out")));
        }
    }
    if let Some(f) = args.rel_format.as_deref().filter(|f| *f != "qrels") {
        return Err(fail(format!(
            "-R {f}: only the `qrels` relevance format is supported (prefs and qrels_jg are not)"
        )));
    }
    if let Some(f) = args.results_format.as_deref().filter(|f| *f != "trec_results") {
        return Err(fail(format!("-T {f}: only the `trec_results` format is supported")));
    }
    let request = TrecEvalRequest {
        measures: args.measures.clone(),
        per_query: args.per_query,
        summary: !args.no_summary,
        options: EvalOptions {
            relevance_level: args.level,
            max_per_topic: args.max_per_topic.map(|m| m as usize),
            judged_only: args.judged_only,
            complete: args.complete,
            num_docs_in_coll: args.num_docs_in_coll,
            version: args.trec_eval_version,
        },
        compare_measure: args.compare_measure.clone(),
        compare: CompareSettings {
            alpha: args.alpha,
            bootstrap: args.bootstrap,
            seed: args.seed,
            ci: args.ci,
            reference: args.reference.clone(),
            ..defaults()
        },
    };
    // Positions give the roles, as in trec_eval: the qrels first, then the runs.
    let mut given = vec![(read_input(&args.qrels)?, Some(FileRole::Qrels))];
    for r in &args.runs {
        given.push((read_input(r)?, Some(FileRole::Runs)));
    }
    let files = capability::assign_roles::<TrecEval>(given)?;
    let (loaded, report) = run::<TrecEval>(&files, &request)?;
    if args.output.format == OutFormat::Table {
        for n in &report.notes {
            note(&format!("memaudit: note: {n}"));
        }
    }
    emit::<TrecEval>(&report, &loaded, &args.output)
}
