//! `memaudit reclaim`: arguments → [`ReclaimRequest`] → the core's [`Reclaim`] capability →
//! output.

use std::path::PathBuf;

use clap::Args;

use memaudit::capability::FileRole;
use memaudit::reclaim::{Reclaim, ReclaimRequest, ReclaimTable};

use crate::common::{Failure, Output, emit, inputs, run};
use crate::fields::FieldArgs;

#[derive(Args)]
pub(crate) struct ReclaimArgs {
    /// Per-trial rows (JSONL): pid, policy|variant, integrity, arm, seed, reply, answer, correct, ... Repeatable.
    #[arg(long, required = true, num_args = 1..)]
    pub(crate) trials: Vec<PathBuf>,
    /// Probe keys (reclaim-eval probe_keys_base16.json): truth, stale value and options by pid.
    #[arg(long)]
    pub(crate) keys: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) settings: FieldArgs<ReclaimRequest>,
    #[command(flatten)]
    pub(crate) output: Output<ReclaimTable>,
}

impl crate::common::Subcommand for Reclaim {
    type Args = ReclaimArgs;
    fn run(args: ReclaimArgs) -> Result<(), Failure> {
        reclaim_cmd(args)
    }
}

pub(crate) fn reclaim_cmd(args: ReclaimArgs) -> Result<(), Failure> {
    let request = args.settings.0;
    let mut given: Vec<(PathBuf, Option<FileRole>)> =
        args.keys.iter().map(|p| (p.clone(), Some(FileRole::Keys))).collect();
    given.extend(args.trials.iter().map(|p| (p.clone(), Some(FileRole::Trials))));
    let files = inputs::<Reclaim>(given)?;
    let (loaded, report) = run::<Reclaim>(&files, &request)?;
    emit::<Reclaim>(&report, &loaded, &args.output)
}
