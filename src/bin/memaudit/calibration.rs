//! `memaudit calibration`: arguments → [`CalibrationRequest`] → the core's [`Calibration`]
//! capability → output.

use std::path::PathBuf;

use clap::Args;

use memaudit::calibration::{AucPopulation, Calibration, CalibrationRequest, CalibrationTable, Route, Scale};
use memaudit::capability::FileRole;

use crate::common::{CellArgs, Failure, Output, emit, inputs, run};

fn defaults() -> CalibrationRequest {
    CalibrationRequest::default()
}

#[derive(Args)]
pub(crate) struct CalibrationArgs {
    /// Per-item routing rows (CSV/TSV, JSON Lines, JSON array): confidence, outcome without memory [, with memory, applied, split]. Repeatable.
    #[arg(long, short = 'i', required = true, num_args = 1..)]
    pub(crate) input: Vec<PathBuf>,
    /// The item column (default: item, item_id, id, example_idx, query_id, question_id; else file:line).
    #[arg(long)]
    pub(crate) item: Option<String>,
    /// The confidence column (default: confidence, conf, c, score, answer_logprob_mean, logprob, c_t).
    #[arg(long)]
    pub(crate) confidence: Option<String>,
    /// The outcome without memory, 0/1 (default: correct, baseline_correct, is_correct, base_correct).
    #[arg(long)]
    pub(crate) correct: Option<String>,
    /// The outcome with memory, 0/1 (default: with_memory, memory_correct, second_correct, with_memory_correct).
    #[arg(long)]
    pub(crate) with_memory: Option<String>,
    /// Whether memory was applied, 0/1 (default: applied, routed, accepted, injected, route).
    #[arg(long)]
    pub(crate) applied: Option<String>,
    /// A split column (e.g. seed or split) for Platt scaling.
    #[arg(long)]
    pub(crate) split: Option<String>,
    /// Split values Platt scaling is fitted on, comma-separated; it is scored on every other split.
    #[arg(long, value_delimiter = ',')]
    pub(crate) fit: Vec<String>,
    /// What the confidence is: a probability, a log-probability (p = exp(c)), or any score (Platt only).
    #[arg(long, value_enum, default_value_t = Scale::Probability)]
    pub(crate) scale: Scale,
    /// Equal-width bins of the ECE and the reliability diagram.
    #[arg(long, default_value_t = defaults().ece_bins)]
    pub(crate) ece_bins: usize,
    /// Equal-count bins of the accuracy per confidence bin.
    #[arg(long, default_value_t = defaults().accuracy_bins)]
    pub(crate) accuracy_bins: usize,
    /// The items of the help-vs-hurt AUC.
    #[arg(long, value_enum, default_value_t = AucPopulation::All)]
    pub(crate) auc_population: AucPopulation,
    /// The sweep's routing rule: memory when the confidence is below tau, or at least tau.
    #[arg(long, value_enum, default_value_t = Route::Below)]
    pub(crate) route: Route,
    /// Two-sided level of the AUC and Wilson intervals.
    #[arg(long, default_value_t = defaults().confidence_level)]
    pub(crate) confidence_level: f64,
    #[command(flatten)]
    pub(crate) cells: CellArgs,
    #[command(flatten)]
    pub(crate) output: Output<CalibrationTable>,
}

pub(crate) fn calibration_cmd(args: CalibrationArgs) -> Result<(), Failure> {
    let request = CalibrationRequest {
        item: args.item.clone(),
        confidence: args.confidence.clone(),
        correct: args.correct.clone(),
        with_memory: args.with_memory.clone(),
        applied: args.applied.clone(),
        split: args.split.clone(),
        fit: args.fit.clone(),
        scale: args.scale,
        ece_bins: args.ece_bins,
        accuracy_bins: args.accuracy_bins,
        auc_population: args.auc_population,
        route: args.route,
        confidence_level: args.confidence_level,
        cells: args.cells.settings()?,
    };
    let files = inputs::<Calibration>(args.input.iter().map(|p| (p.clone(), Some(FileRole::Routing))).collect())?;
    let (loaded, report) = run::<Calibration>(&files, &request)?;
    emit::<Calibration>(&report, &loaded, &args.output)
}
