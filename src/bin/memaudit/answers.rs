//! `memaudit answers`: arguments → [`AnswersRequest`] → the core's [`Answers`] capability →
//! output.

use std::path::PathBuf;

use clap::Args;

use memaudit::answers::{Answers, AnswersRequest, AnswersTable};
use memaudit::capability::FileRole;

use crate::common::{Failure, Output, emit, inputs, run};
use crate::fields::FieldArgs;

#[derive(Args)]
pub(crate) struct AnswersArgs {
    /// Answer rows (CSV or JSON Lines): query id, gold answer(s), raw prediction [, dataset, category, arm]. Repeatable.
    #[arg(long, short = 'i', required = true, num_args = 1..)]
    pub(crate) input: Vec<PathBuf>,
    #[command(flatten)]
    pub(crate) settings: FieldArgs<AnswersRequest>,
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
    let (loaded, report) = run::<Answers>(&files, &request)?;
    emit::<Answers>(&report, &loaded, &args.output)
}
