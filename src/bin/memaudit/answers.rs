//! `memaudit answers`: arguments → [`AnswersRequest`] → the core's [`Answers`] capability →
//! output.

use std::path::PathBuf;

use clap::Args;

use memaudit::answers::{AnswerColumns, AnswerSettings, Answers, AnswersRequest, AnswersTable, Profile};
use memaudit::capability::FileRole;

use crate::common::{CellArgs, Failure, Output, emit, fail, inputs, pair, run};

fn defaults() -> AnswerSettings {
    AnswerSettings::default()
}

#[derive(Args)]
pub(crate) struct AnswersArgs {
    /// Answer rows (CSV or JSON Lines): query id, gold answer(s), raw prediction [, dataset, category, arm]. Repeatable.
    #[arg(long, short = 'i', required = true, num_args = 1..)]
    pub(crate) input: Vec<PathBuf>,
    /// Profiles, comma-separated: paper_sem, mab_sem, mab_f1, squad_em, squad_f1, locomo_f1 (default: all).
    #[arg(long, value_delimiter = ',', value_parser = parse_profile)]
    pub(crate) profiles: Vec<Profile>,
    /// List the rows whose verdict changes between two profiles: `--diff paper_sem:mab_sem`.
    #[arg(long)]
    pub(crate) diff: Option<String>,
    /// An F1 score counts as correct when ≥ this.
    #[arg(long, default_value_t = defaults().f1_threshold)]
    pub(crate) f1_threshold: f64,
    /// Column names, when the aliases do not find them.
    #[arg(long)]
    pub(crate) id_column: Option<String>,
    #[arg(long)]
    pub(crate) gold_column: Option<String>,
    #[arg(long)]
    pub(crate) prediction_column: Option<String>,
    /// An answer repeated within an arm (same query and seed): refuse, or keep the first row and count the repeats.
    #[arg(long, value_enum, default_value_t = memaudit::cells::Repeats::Refuse)]
    pub(crate) repeats: memaudit::cells::Repeats,
    #[command(flatten)]
    pub(crate) cells: CellArgs,
    #[command(flatten)]
    pub(crate) output: Output<AnswersTable>,
}

pub(crate) fn parse_profile(s: &str) -> Result<Profile, String> {
    Profile::parse(s).ok_or_else(|| {
        format!(
            "unknown profile `{s}` (one of: {})",
            Profile::ALL.iter().map(|p| p.name()).collect::<Vec<_>>().join(", ")
        )
    })
}

pub(crate) fn answers_cmd(args: AnswersArgs) -> Result<(), Failure> {
    let diff = match &args.diff {
        None => None,
        Some(d) => {
            let (a, b) = pair(d, "--diff")?;
            Some((parse_profile(&a).map_err(fail)?, parse_profile(&b).map_err(fail)?))
        }
    };
    let request = AnswersRequest {
        settings: AnswerSettings {
            profiles: if args.profiles.is_empty() { defaults().profiles } else { args.profiles.clone() },
            f1_threshold: args.f1_threshold,
        },
        diff,
        columns: AnswerColumns {
            query_id: args.id_column.clone(),
            gold: args.gold_column.clone(),
            prediction: args.prediction_column.clone(),
            ..Default::default()
        },
        cells: args.cells.settings()?,
        repeats: args.repeats,
    };
    let files = inputs::<Answers>(args.input.iter().map(|p| (p.clone(), Some(FileRole::Answers))).collect())?;
    let (loaded, report) = run::<Answers>(&files, &request)?;
    emit::<Answers>(&report, &loaded, &args.output)
}
