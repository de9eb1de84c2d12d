//! `memaudit reclaim`: arguments → [`ReclaimRequest`] → the core's [`Reclaim`] capability →
//! output.

use std::path::PathBuf;

use clap::Args;

use memaudit::capability::FileRole;
use memaudit::reclaim::{
    AbstainRule, BootstrapSettings, Engine, Reclaim, ReclaimRequest, ReclaimSettings, ReclaimTable, ScoreMode,
};

use crate::common::{CellArgs, Failure, Output, emit, inputs, pair, run};

fn defaults() -> ReclaimSettings {
    ReclaimSettings::default()
}

#[derive(Args)]
pub(crate) struct ReclaimArgs {
    /// Per-trial rows (JSONL): pid, policy|variant, integrity, arm, seed, reply, answer, correct, ... Repeatable.
    #[arg(long, required = true, num_args = 1..)]
    pub(crate) trials: Vec<PathBuf>,
    /// Probe keys (reclaim-eval probe_keys_base16.json): truth, stale value and options by pid.
    #[arg(long)]
    pub(crate) keys: Option<PathBuf>,
    /// Keep only trials of this arm (reclaim-eval's tables use `directed`).
    #[arg(long)]
    pub(crate) arm: Option<String>,
    /// Bootstrap resampler: python (CPython random.Random, reproduces reclaim-eval's intervals
    /// exactly) or chacha8 (memaudit's, not digit-compatible).
    #[arg(long, value_enum, default_value_t = defaults().bootstrap.engine)]
    pub(crate) resampler: Engine,
    /// Bootstrap resamples.
    #[arg(long, default_value_t = defaults().bootstrap.resamples)]
    pub(crate) bootstrap: usize,
    /// Bootstrap seed.
    #[arg(long, default_value_t = defaults().bootstrap.seed)]
    pub(crate) seed: u64,
    /// Confidence level.
    #[arg(long, default_value_t = defaults().bootstrap.confidence)]
    pub(crate) confidence: f64,
    /// Resample whole problems (every seed of a drawn problem) instead of trials.
    #[arg(long)]
    pub(crate) cluster_by_problem: bool,
    /// Where correctness comes from: strict re-scoring of replies where possible (auto), stored values, or strict.
    #[arg(long, value_enum, default_value_t = defaults().score)]
    pub(crate) score: ScoreMode,
    /// MultiWOZ: fall back to the last time anywhere in a reply without an ANSWER-line time.
    #[arg(long)]
    pub(crate) loose_time: bool,
    /// Which non-recovered trials count as abstentions: strict (no ANSWER-line value) or hedge (reclaim-eval's _is_abstain; needs replies).
    #[arg(long, value_enum, default_value_t = defaults().abstain)]
    pub(crate) abstain: AbstainRule,
    /// The lossy policy of the worse-than-empty contrast.
    #[arg(long, default_value_t = defaults().lossy_policy)]
    pub(crate) lossy: String,
    /// The empty-memory policy of the worse-than-empty contrast.
    #[arg(long, default_value_t = defaults().blank_policy)]
    pub(crate) blank: String,
    /// An RR contrast A:B (RR(A) − RR(B) per model, g and arm). Repeatable.
    #[arg(long)]
    pub(crate) contrast: Vec<String>,
    /// The column identifying the problem in rows without a `pid` (reclaim-eval's size/noise
    /// sweeps and cascade files: e.g. `store`).
    #[arg(long)]
    pub(crate) item: Option<String>,
    /// Pool trials across every design column found (prompt, n, budget, H, …) instead of one
    /// cell per combination (--pool COLUMN pools one).
    #[arg(long)]
    pub(crate) pool_design: bool,
    #[command(flatten)]
    pub(crate) cells: CellArgs,
    #[command(flatten)]
    pub(crate) output: Output<ReclaimTable>,
}

pub(crate) fn reclaim_cmd(args: ReclaimArgs) -> Result<(), Failure> {
    let settings = ReclaimSettings {
        bootstrap: BootstrapSettings {
            engine: args.resampler,
            resamples: args.bootstrap,
            seed: args.seed,
            confidence: args.confidence,
            cluster_by_problem: args.cluster_by_problem,
        },
        score: args.score,
        loose_time: args.loose_time,
        lossy_policy: args.lossy.clone(),
        blank_policy: args.blank.clone(),
        contrasts: args.contrast.iter().map(|c| pair(c, "--contrast")).collect::<Result<_, _>>()?,
        abstain: args.abstain,
        pool_design: args.pool_design,
    };
    let request =
        ReclaimRequest { settings, arm: args.arm.clone(), item: args.item.clone(), cells: args.cells.settings()? };
    let mut given: Vec<(PathBuf, Option<FileRole>)> =
        args.keys.iter().map(|p| (p.clone(), Some(FileRole::Keys))).collect();
    given.extend(args.trials.iter().map(|p| (p.clone(), Some(FileRole::Trials))));
    let files = inputs::<Reclaim>(given)?;
    let (loaded, report) = run::<Reclaim>(&files, &request)?;
    emit::<Reclaim>(&report, &loaded, &args.output)
}
