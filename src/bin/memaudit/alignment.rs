//! `memaudit alignment`: arguments → [`AlignmentRequest`] → the core's [`Alignment`] capability
//! → output.

use std::path::PathBuf;

use clap::Args;

use memaudit::alignment::{Alignment, AlignmentRequest, AlignmentTable};
use memaudit::capability::FileRole;
use memaudit::stats::bootstrap::Bootstrap;

use crate::common::{Failure, Output, emit, inputs, run};

fn defaults() -> AlignmentRequest {
    AlignmentRequest::default()
}

#[derive(Args)]
pub(crate) struct AlignmentArgs {
    /// Per-query metrics (`memaudit rescore --format csv --table per_query`: system, query_id, target, eligible, hit) and answer scores (run, query, f1 or correct). Repeatable.
    #[arg(long, short = 'i', required = true, num_args = 1..)]
    pub(crate) input: Vec<PathBuf>,
    /// Target A.
    #[arg(long, default_value_t = defaults().target_a)]
    pub(crate) target_a: String,
    /// Target B.
    #[arg(long, default_value_t = defaults().target_b)]
    pub(crate) target_b: String,
    /// The retrieval metric column (a query counts for a target when it is > 0).
    #[arg(long, default_value_t = defaults().metric)]
    pub(crate) metric: String,
    /// The run column (default: run, system, run_label, run_id, arm).
    #[arg(long)]
    pub(crate) run: Option<String>,
    /// The query column (default: query_id, query_index, query, question_id, qid).
    #[arg(long)]
    pub(crate) query: Option<String>,
    /// The answer score column, in [0, 1] (default: f1, answer_f1, token_f1, correct, answer_correct, score).
    #[arg(long)]
    pub(crate) answer: Option<String>,
    /// An answer is strong at ≥ this score.
    #[arg(long, default_value_t = defaults().strong)]
    pub(crate) strong: f64,
    /// Two runs are flagged as one at or above this share of identical per-query metrics.
    #[arg(long, default_value_t = defaults().identity_threshold)]
    pub(crate) identity_threshold: f64,
    /// Bootstrap resamples over runs (coverage confound).
    #[arg(long, default_value_t = defaults().bootstrap.resamples)]
    pub(crate) bootstrap: usize,
    #[arg(long, default_value_t = defaults().bootstrap.seed)]
    pub(crate) seed: u64,
    #[arg(long, default_value_t = defaults().bootstrap.confidence)]
    pub(crate) confidence: f64,
    #[command(flatten)]
    pub(crate) output: Output<AlignmentTable>,
}

pub(crate) fn alignment_cmd(args: AlignmentArgs) -> Result<(), Failure> {
    let request = AlignmentRequest {
        target_a: args.target_a.clone(),
        target_b: args.target_b.clone(),
        metric: args.metric.clone(),
        run: args.run.clone(),
        query: args.query.clone(),
        answer: args.answer.clone(),
        strong: args.strong,
        identity_threshold: args.identity_threshold,
        bootstrap: Bootstrap { resamples: args.bootstrap, seed: args.seed, confidence: args.confidence },
    };
    let files = inputs::<Alignment>(args.input.iter().map(|p| (p.clone(), Some(FileRole::AlignmentRows))).collect())?;
    let (loaded, report) = run::<Alignment>(&files, &request)?;
    emit::<Alignment>(&report, &loaded, &args.output)
}
