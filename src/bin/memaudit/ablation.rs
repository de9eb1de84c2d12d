//! `memaudit ablation`: arguments → [`AblationRequest`] → the core's [`Ablation`] capability →
//! output.

use std::path::PathBuf;

use clap::Args;

use memaudit::ablation::{Ablation, AblationRequest, AblationTable};
use memaudit::capability::FileRole;

use crate::common::{Failure, Output, emit, inputs, run};
use crate::fields::FieldArgs;

#[derive(Args)]
pub(crate) struct AblationArgs {
    /// Ablation traces (CSV or JSON Lines): one row per (query, removed memory), or one record per query with an `items` array. Repeatable.
    #[arg(long, short = 'i', required = true, num_args = 1..)]
    pub(crate) input: Vec<PathBuf>,
    #[command(flatten)]
    pub(crate) settings: FieldArgs<AblationRequest>,
    #[command(flatten)]
    pub(crate) output: Output<AblationTable>,
}

impl crate::common::Subcommand for Ablation {
    type Args = AblationArgs;
    fn run(args: AblationArgs) -> Result<(), Failure> {
        ablation_cmd(args)
    }
}

pub(crate) fn ablation_cmd(args: AblationArgs) -> Result<(), Failure> {
    let request = args.settings.0;
    let files = inputs::<Ablation>(args.input.iter().map(|p| (p.clone(), Some(FileRole::Traces))).collect())?;
    let (loaded, report) = run::<Ablation>(&files, &request)?;
    emit::<Ablation>(&report, &loaded, &args.output)
}
