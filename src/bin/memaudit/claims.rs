//! `memaudit claims`: arguments → [`ClaimsRequest`] → the core's [`Claims`] capability →
//! output.

use std::path::PathBuf;

use clap::Args;

use memaudit::capability::FileRole;
use memaudit::claims::{Claims, ClaimsRequest, ClaimsTable};

use crate::common::{Failure, Output, emit, fail, inputs, run};
use crate::fields::FieldArgs;

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
    #[command(flatten)]
    pub(crate) settings: FieldArgs<ClaimsRequest>,
    #[command(flatten)]
    pub(crate) output: Output<ClaimsTable>,
}

impl crate::common::Subcommand for Claims {
    type Args = ClaimsArgs;
    fn run(args: ClaimsArgs) -> Result<(), Failure> {
        claims_cmd(args)
    }
}

pub(crate) fn claims_cmd(args: ClaimsArgs) -> Result<(), Failure> {
    if args.claims.is_some() && args.data.is_none() {
        return Err(fail("--claims needs --data (the per-query scores the claims are recomputed from)"));
    }
    let request = args.settings.0;
    let mut given: Vec<(PathBuf, Option<FileRole>)> = Vec::new();
    given.extend(args.data.iter().map(|p| (p.clone(), Some(FileRole::Scores))));
    given.extend(args.claims.iter().map(|p| (p.clone(), Some(FileRole::Claims))));
    given.extend(args.printed.iter().map(|p| (p.clone(), Some(FileRole::Table))));
    let files = inputs::<Claims>(given)?;
    let (loaded, report) = run::<Claims>(&files, &request)?;
    emit::<Claims>(&report, &loaded, &args.output)
}
