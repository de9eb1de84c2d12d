//! `memaudit alignment`: arguments → [`AlignmentRequest`] → the core's [`Alignment`] capability
//! → output.

use std::path::PathBuf;

use clap::Args;

use memaudit::alignment::{Alignment, AlignmentRequest, AlignmentTable};
use memaudit::capability::FileRole;

use crate::common::{Failure, Output, emit, inputs, run};
use crate::fields::FieldArgs;

#[derive(Args)]
pub(crate) struct AlignmentArgs {
    /// Per-query metrics (`memaudit rescore --format csv --table per_query`: system, query_id, target, eligible, hit; or TIAP's records with raw_eligible, raw_hit_at_k, … per target) and answer scores (run, query, f1 or correct; or the records' qa_f1_generated). Repeatable.
    #[arg(long, short = 'i', required = true, num_args = 1..)]
    pub(crate) input: Vec<PathBuf>,
    #[command(flatten)]
    pub(crate) settings: FieldArgs<AlignmentRequest>,
    #[command(flatten)]
    pub(crate) output: Output<AlignmentTable>,
}

impl crate::common::Subcommand for Alignment {
    type Args = AlignmentArgs;
    fn run(args: AlignmentArgs) -> Result<(), Failure> {
        alignment_cmd(args)
    }
}

pub(crate) fn alignment_cmd(args: AlignmentArgs) -> Result<(), Failure> {
    let request = args.settings.0;
    let files = inputs::<Alignment>(args.input.iter().map(|p| (p.clone(), Some(FileRole::AlignmentRows))).collect())?;
    let (loaded, report) = run::<Alignment>(&files, &request)?;
    emit::<Alignment>(&report, &loaded, &args.output)
}
