//! `memaudit calibration`: arguments → [`CalibrationRequest`] → the core's [`Calibration`]
//! capability → output.

use std::path::PathBuf;

use clap::Args;

use memaudit::calibration::{Calibration, CalibrationRequest, CalibrationTable};
use memaudit::capability::FileRole;

use crate::common::{Failure, Output, emit, inputs, run};
use crate::fields::FieldArgs;

#[derive(Args)]
pub(crate) struct CalibrationArgs {
    /// Per-item routing rows (CSV/TSV, JSON Lines, JSON array): confidence, outcome without memory [, with memory, applied, split]. Repeatable.
    #[arg(long, short = 'i', required = true, num_args = 1..)]
    pub(crate) input: Vec<PathBuf>,
    #[command(flatten)]
    pub(crate) settings: FieldArgs<CalibrationRequest>,
    #[command(flatten)]
    pub(crate) output: Output<CalibrationTable>,
}

impl crate::common::Subcommand for Calibration {
    type Args = CalibrationArgs;
    fn run(args: CalibrationArgs) -> Result<(), Failure> {
        calibration_cmd(args)
    }
}

pub(crate) fn calibration_cmd(args: CalibrationArgs) -> Result<(), Failure> {
    let request = args.settings.0;
    let files = inputs::<Calibration>(args.input.iter().map(|p| (p.clone(), Some(FileRole::Routing))).collect())?;
    let (loaded, report) = run::<Calibration>(&files, &request)?;
    emit::<Calibration>(&report, &loaded, &args.output)
}
