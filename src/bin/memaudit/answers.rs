//! `memaudit answers`: arguments → [`AnswersRequest`] → the core's [`Answers`] capability →
//! output.

use std::path::PathBuf;

use clap::Args;

use memaudit::answers::{Answers, AnswersRequest, AnswersTable, ShowItem};
use memaudit::capability::FileRole;

use crate::common::{Failure, Output, detail, emit, inputs, print_item_text, run};
use crate::fields::FieldArgs;

#[derive(Args)]
pub(crate) struct AnswersArgs {
    /// Answer rows (CSV or JSON Lines): query id, gold answer(s), raw prediction [, dataset, category, arm]; or a file of gold answers by query id (LongMemEval's dataset) completing answer files without gold (its hypothesis files). Repeatable.
    #[arg(long, short = 'i', required = true, num_args = 1..)]
    pub(crate) input: Vec<PathBuf>,
    #[command(flatten)]
    pub(crate) settings: FieldArgs<AnswersRequest>,
    /// Print one query's rows as the files state them (a `query_id` of `--table rows`): the
    /// cells its rows share (the question, the gold answers), then each arm's rows with their
    /// file and line: the raw prediction, its parse, every other column, and the score under
    /// each profile. JSON, or with `--format csv` a row per cell.
    #[arg(long, value_name = "QUERY")]
    pub(crate) show_item: Option<String>,
    #[command(flatten)]
    pub(crate) output: Output<AnswersTable>,
}

impl crate::common::Subcommand for Answers {
    type Args = AnswersArgs;
    fn run(args: AnswersArgs) -> Result<(), Failure> {
        answers_cmd(args)
    }
}

pub(crate) fn answers_cmd(args: AnswersArgs) -> Result<(), Failure> {
    let request = args.settings.0;
    let files = inputs::<Answers>(args.input.iter().map(|p| (p.clone(), Some(FileRole::Answers))).collect())?;
    if let Some(query_id) = &args.show_item {
        let text = detail::<Answers>(&files, &request, &ShowItem { item: query_id.clone() })?;
        return print_item_text(&text, "arm", args.output.format);
    }
    let (loaded, report) = run::<Answers>(&files, &request)?;
    emit::<Answers>(&report, &loaded, &args.output)
}
