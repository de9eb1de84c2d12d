//! `memaudit reclaim`: reclaim rates per cell with percentile-bootstrap intervals, strict
//! re-scoring, abstention / confident-wrong / attractor rates and the worse-than-empty contrast.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use memaudit::error::Error;
use memaudit::probe::{self, ProbeKeys};
use memaudit::reclaim::{self, AbstainRule, BootstrapSettings, Engine, ReclaimSettings, ScoreMode};

use crate::common::{Failure, OutFormat, json, read_path};

#[derive(Copy, Clone, ValueEnum)]
pub(crate) enum ResamplerArg {
    /// CPython random.Random(seed): reproduces reclaim-eval's intervals exactly.
    Python,
    /// memaudit's ChaCha8 resampler (not digit-compatible).
    Chacha8,
}

#[derive(Copy, Clone, ValueEnum)]
pub(crate) enum ScoreArg {
    Auto,
    Stored,
    Strict,
}

#[derive(Copy, Clone, ValueEnum)]
pub(crate) enum AbstainArg {
    /// No committed value on the ANSWER line (the paper's tables).
    Strict,
    /// reclaim-eval's behavioural _is_abstain: not recovered and no parsable answer or a hedge phrase in the raw reply.
    Hedge,
}

#[derive(Args)]
pub(crate) struct ReclaimArgs {
    /// Per-trial rows (JSONL): pid, policy|variant, integrity, arm, seed, reply, answer, correct, ... Repeatable.
    #[arg(long, required = true)]
    pub(crate) trials: Vec<PathBuf>,
    /// Probe keys (reclaim-eval probe_keys_base16.json): truth, stale value and options by pid.
    #[arg(long)]
    pub(crate) keys: Option<PathBuf>,
    /// Keep only trials of this arm (reclaim-eval's tables use `directed`).
    #[arg(long)]
    pub(crate) arm: Option<String>,
    /// Bootstrap resampler.
    #[arg(long, value_enum, default_value_t = ResamplerArg::Python)]
    pub(crate) resampler: ResamplerArg,
    /// Bootstrap resamples.
    #[arg(long, default_value_t = 5000)]
    pub(crate) bootstrap: usize,
    /// Bootstrap seed.
    #[arg(long, default_value_t = 0)]
    pub(crate) seed: u64,
    /// Confidence level.
    #[arg(long, default_value_t = 0.95)]
    pub(crate) confidence: f64,
    /// Resample whole problems (every seed of a drawn problem) instead of trials.
    #[arg(long)]
    pub(crate) cluster_by_problem: bool,
    /// Where correctness comes from: strict re-scoring of replies where possible (auto), stored values, or strict.
    #[arg(long, value_enum, default_value_t = ScoreArg::Auto)]
    pub(crate) score: ScoreArg,
    /// MultiWOZ: fall back to the last time anywhere in a reply without an ANSWER-line time.
    #[arg(long)]
    pub(crate) loose_time: bool,
    /// Which non-recovered trials count as abstentions: strict (no ANSWER-line value) or hedge (reclaim-eval's _is_abstain; needs replies).
    #[arg(long, value_enum, default_value_t = AbstainArg::Strict)]
    pub(crate) abstain: AbstainArg,
    /// The lossy policy of the worse-than-empty contrast.
    #[arg(long, default_value = "lossy")]
    pub(crate) lossy: String,
    /// The empty-memory policy of the worse-than-empty contrast.
    #[arg(long, default_value = "blank")]
    pub(crate) blank: String,
    /// An RR contrast A:B (RR(A) − RR(B) per model, g and arm). Repeatable.
    #[arg(long)]
    pub(crate) contrast: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutFormat::Table)]
    pub(crate) format: OutFormat,
    /// With --format csv: which table (cells, worse_than_empty, contrasts).
    #[arg(long, default_value = "cells", value_parser = clap::builder::PossibleValuesParser::new(reclaim::analysis::TABLE_NAMES))]
    pub(crate) table: String,
    /// Pretty-print JSON.
    #[arg(long)]
    pub(crate) pretty: bool,
}

pub(crate) fn reclaim_cmd(args: ReclaimArgs) -> Result<(), Failure> {
    let bootstrap = BootstrapSettings {
        engine: match args.resampler {
            ResamplerArg::Python => Engine::Python,
            ResamplerArg::Chacha8 => Engine::ChaCha8,
        },
        resamples: args.bootstrap,
        seed: args.seed,
        confidence: args.confidence,
        cluster_by_problem: args.cluster_by_problem,
    };
    bootstrap.check().map_err(|m| Failure::from(Error::setting("bootstrap", m)))?;
    let mut contrasts = Vec::new();
    for c in &args.contrast {
        match c.split_once(':') {
            Some((a, b)) if !a.is_empty() && !b.is_empty() => contrasts.push((a.to_string(), b.to_string())),
            _ => return Err(Error::setting("contrast", format!("`{c}`: use POLICY_A:POLICY_B")).into()),
        }
    }
    let keys: Option<ProbeKeys> = match &args.keys {
        Some(p) => Some(probe::read_probe_keys(&read_path(p)?).map_err(|e| Failure::from(Error::from(e)))?),
        None => None,
    };
    let mut trials = Vec::new();
    let mut notices = probe::warnings::ProbeWarnings::default();
    for p in &args.trials {
        let read = reclaim::read_trials(&read_path(p)?, keys.as_ref()).map_err(|e| Failure::from(Error::from(e)))?;
        trials.extend(read.trials);
        notices.extend(&read.notices);
    }
    if let Some(arm) = &args.arm {
        trials = reclaim::filter_arm(trials, arm);
    }
    if trials.is_empty() {
        return Err(Error::Empty("no trials to analyse (check --arm)".into()).into());
    }
    let settings = ReclaimSettings {
        bootstrap,
        score: match args.score {
            ScoreArg::Auto => ScoreMode::Auto,
            ScoreArg::Stored => ScoreMode::Stored,
            ScoreArg::Strict => ScoreMode::Strict,
        },
        loose_time: args.loose_time,
        lossy_policy: args.lossy.clone(),
        blank_policy: args.blank.clone(),
        contrasts,
        abstain: match args.abstain {
            AbstainArg::Strict => AbstainRule::Strict,
            AbstainArg::Hedge => AbstainRule::Hedge,
        },
    };
    let mut report = reclaim::analyze(&trials, &settings);
    notices.extend(&report.warnings);
    report.warnings = notices;
    match args.format {
        OutFormat::Json => println!("{}", json(&report, args.pretty)?),
        OutFormat::Csv => {
            let t = reclaim::analysis::reclaim_table(&report, &args.table)
                .ok_or_else(|| Failure { message: format!("unknown table `{}`", args.table), code: 2 })?;
            print!("{}", t.to_csv()?);
        }
        OutFormat::Table => print!("{}", reclaim::analysis::render_text(&report)),
    }
    Ok(())
}
