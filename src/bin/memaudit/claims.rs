//! `memaudit claims`: arguments → [`ClaimsRequest`] → the core's [`Claims`] capability →
//! output.

use std::path::PathBuf;

use clap::Args;

use memaudit::capability::FileRole;
use memaudit::claims::{Claims, ClaimsRequest, ClaimsTable};

use crate::ablation::BootArgs;
use crate::common::{Failure, Output, emit, fail, inputs, pair, run};

fn defaults() -> ClaimsRequest {
    ClaimsRequest::default()
}

#[derive(Args)]
pub(crate) struct ClaimsArgs {
    /// Claims to check (CSV or JSON): claim_id, text, kind, arms, dataset, k, metric, reported, reported_ci, reported_n, tolerance, scale, source, run.
    #[arg(long)]
    pub(crate) claims: Option<PathBuf>,
    /// Per-query scores (CSV or JSON): arm, query_id, score column(s) [, dataset, k, subset, target, run].
    #[arg(long)]
    pub(crate) data: Option<PathBuf>,
    /// Printed tables to lint (estimate, ci, n, mean_a, mean_b, n_a, n_b, delta, …). Repeatable.
    #[arg(long = "printed-table")]
    pub(crate) printed: Vec<PathBuf>,
    /// The score column (default: score, value, sem, correct, f1, … or the only numeric column).
    #[arg(long)]
    pub(crate) metric: Option<String>,
    /// Contrasts of the K-sweep, `A:B` for A − B (repeatable; default: every pair of arms).
    #[arg(long)]
    pub(crate) contrast: Vec<String>,
    /// Δ-stability slack, in the data's units (0.02 = 2pp for 0/1 scores).
    #[arg(long, default_value_t = defaults().slack)]
    pub(crate) slack: f64,
    /// The K other Ks are compared with (default: the smallest).
    #[arg(long)]
    pub(crate) base_k: Option<i64>,
    #[command(flatten)]
    pub(crate) boot: BootArgs,
    /// Skip the K-sweep (claims and linting only).
    #[arg(long)]
    pub(crate) no_sweep: bool,
    #[command(flatten)]
    pub(crate) output: Output<ClaimsTable>,
}

pub(crate) fn claims_cmd(args: ClaimsArgs) -> Result<(), Failure> {
    if args.claims.is_some() && args.data.is_none() {
        return Err(fail("--claims needs --data (the per-query scores the claims are recomputed from)"));
    }
    let request = ClaimsRequest {
        metric: args.metric.clone(),
        contrasts: args.contrast.iter().map(|c| pair(c, "--contrast")).collect::<Result<_, _>>()?,
        slack: args.slack,
        base_k: args.base_k,
        bootstrap: args.boot.bootstrap,
        seed: args.boot.seed,
        confidence: args.boot.confidence,
        sweep: !args.no_sweep,
    };
    let mut given: Vec<(PathBuf, Option<FileRole>)> = Vec::new();
    given.extend(args.data.iter().map(|p| (p.clone(), Some(FileRole::Scores))));
    given.extend(args.claims.iter().map(|p| (p.clone(), Some(FileRole::Claims))));
    given.extend(args.printed.iter().map(|p| (p.clone(), Some(FileRole::Table))));
    let files = inputs::<Claims>(given)?;
    let (loaded, report) = run::<Claims>(&files, &request)?;
    emit::<Claims>(&report, &loaded, &args.output)
}
