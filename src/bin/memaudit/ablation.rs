//! `memaudit ablation`: arguments → [`AblationRequest`] → the core's [`Ablation`] capability →
//! output.

use std::path::PathBuf;

use clap::Args;

use memaudit::ablation::{Ablation, AblationRequest, AblationSettings, AblationTable};
use memaudit::capability::FileRole;

use crate::common::{Failure, Output, emit, inputs, run};
use crate::fields::FieldArgs;

fn defaults() -> AblationSettings {
    AblationSettings::default()
}

/// Bootstrap settings of `claims` (seed-000's B = 10,000, seed 42): the defaults of ablation's fields.
#[derive(Args, Clone)]
pub(crate) struct BootArgs {
    /// Bootstrap resamples of every interval.
    #[arg(long, default_value_t = defaults().bootstrap)]
    pub(crate) bootstrap: usize,
    /// Seed of the ChaCha8 stream behind every interval.
    #[arg(long, default_value_t = defaults().seed)]
    pub(crate) seed: u64,
    /// Confidence level of the intervals.
    #[arg(long, default_value_t = defaults().confidence)]
    pub(crate) confidence: f64,
}

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

pub(crate) fn ablation_cmd(args: AblationArgs) -> Result<(), Failure> {
    let request = args.settings.0;
    let files = inputs::<Ablation>(args.input.iter().map(|p| (p.clone(), Some(FileRole::Traces))).collect())?;
    let (loaded, report) = run::<Ablation>(&files, &request)?;
    emit::<Ablation>(&report, &loaded, &args.output)
}
