//! `memaudit labels`: arguments → [`LabelsRequest`] → the core's [`Labels`] capability → output.

use std::path::PathBuf;

use clap::Args;

use memaudit::capability::FileRole;
use memaudit::label_audit::{Labels, LabelsRequest, LabelsTable};

use crate::common::{Failure, Output, emit, inputs, run};
use crate::fields::FieldArgs;

#[derive(Args)]
pub(crate) struct LabelsArgs {
    /// Label tables (CSV/TSV, JSON Lines, JSON array): long (item, rater, label) or wide (item, one column per rater). Repeatable.
    #[arg(long, short = 'i', required = true, num_args = 1..)]
    pub(crate) labels: Vec<PathBuf>,
    #[command(flatten)]
    pub(crate) settings: FieldArgs<LabelsRequest>,
    #[command(flatten)]
    pub(crate) output: Output<LabelsTable>,
}

impl crate::common::Subcommand for Labels {
    type Args = LabelsArgs;
    fn run(args: LabelsArgs) -> Result<(), Failure> {
        labels_cmd(args)
    }
}

pub(crate) fn labels_cmd(args: LabelsArgs) -> Result<(), Failure> {
    let files = inputs::<Labels>(args.labels.iter().map(|p| (p.clone(), Some(FileRole::Labels))).collect())?;
    let (loaded, report) = run::<Labels>(&files, &args.settings.0)?;
    emit::<Labels>(&report, &loaded, &args.output)
}
