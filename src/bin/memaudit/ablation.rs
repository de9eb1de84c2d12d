//! `memaudit ablation`: arguments → [`AblationRequest`] → the core's [`Ablation`] capability →
//! output.

use std::path::PathBuf;

use clap::Args;

use memaudit::ablation::{
    Ablation, AblationColumns, AblationRequest, AblationSettings, AblationTable, Gate, OutcomeScoring, Target,
};
use memaudit::answers::Profile;
use memaudit::capability::FileRole;

use crate::answers::parse_profile;
use crate::common::{Failure, Output, emit, inputs, run};

fn defaults() -> AblationRequest {
    AblationRequest::default()
}

/// Bootstrap settings of `ablation` and `claims` (seed-000's B = 10,000, seed 42).
#[derive(Args, Clone)]
pub(crate) struct BootArgs {
    /// Bootstrap resamples of every interval.
    #[arg(long, default_value_t = defaults().settings.bootstrap)]
    pub(crate) bootstrap: usize,
    /// Seed of the ChaCha8 stream behind every interval.
    #[arg(long, default_value_t = defaults().settings.seed)]
    pub(crate) seed: u64,
    /// Confidence level of the intervals.
    #[arg(long, default_value_t = defaults().settings.confidence)]
    pub(crate) confidence: f64,
}

#[derive(Args)]
pub(crate) struct AblationArgs {
    /// Ablation traces (CSV or JSON Lines): one row per (query, removed memory), or one record per query with an `items` array. Repeatable.
    #[arg(long, short = 'i', required = true, num_args = 1..)]
    pub(crate) input: Vec<PathBuf>,
    /// Profile that scores predictions when the trace has text instead of 0/1 outcomes.
    #[arg(long, default_value_t = defaults().scoring.profile, value_parser = parse_profile)]
    pub(crate) profile: Profile,
    #[arg(long, default_value_t = defaults().scoring.f1_threshold)]
    pub(crate) f1_threshold: f64,
    /// Correlate the retrieval score with u (three-valued) or y (binary).
    #[arg(long, value_enum, default_value_t = defaults().settings.target)]
    pub(crate) target: Target,
    /// Gate on ρ: `scale` (ρ in [-0.15, 0.15]), `pilot` (|ρ| < 0.5), `abs:T` or `within:LO,HI`.
    #[arg(long, default_value = "scale")]
    pub(crate) gate: Gate,
    #[command(flatten)]
    pub(crate) boot: BootArgs,
    /// Column of the retrieval score, when the aliases do not find it.
    #[arg(long)]
    pub(crate) score_column: Option<String>,
    #[arg(long)]
    pub(crate) subset_column: Option<String>,
    /// The same (run, query, removed memory) twice: refuse, or keep the first row and count the repeats.
    #[arg(long, value_enum, default_value_t = memaudit::cells::Repeats::Refuse)]
    pub(crate) repeats: memaudit::cells::Repeats,
    #[command(flatten)]
    pub(crate) output: Output<AblationTable>,
}

pub(crate) fn ablation_cmd(args: AblationArgs) -> Result<(), Failure> {
    let request = AblationRequest {
        settings: AblationSettings {
            target: args.target,
            gate: args.gate,
            bootstrap: args.boot.bootstrap,
            seed: args.boot.seed,
            confidence: args.boot.confidence,
        },
        scoring: OutcomeScoring { profile: args.profile, f1_threshold: args.f1_threshold },
        columns: AblationColumns {
            score: args.score_column.clone(),
            subset: args.subset_column.clone(),
            repeats: args.repeats,
            ..Default::default()
        },
    };
    let files = inputs::<Ablation>(args.input.iter().map(|p| (p.clone(), Some(FileRole::Traces))).collect())?;
    let (loaded, report) = run::<Ablation>(&files, &request)?;
    emit::<Ablation>(&report, &loaded, &args.output)
}
