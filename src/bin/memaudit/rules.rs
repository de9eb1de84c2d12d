//! `memaudit rules`: arguments → [`RulesRequest`] → the core's [`Rules`] capability → output.

use std::path::PathBuf;

use clap::Args;

use memaudit::capability::FileRole;
use memaudit::rules::{Rules, RulesRequest, RulesTable, format_time};

use crate::common::{Failure, Output, emit, inputs, run};
use crate::fields::FieldArgs;

#[derive(Args)]
pub(crate) struct RulesArgs {
    /// The rule registry (JSON, grammar in docs/rules.md).
    #[arg(long, required = true)]
    pub(crate) rules: PathBuf,
    /// Named values the rules judge (JSON). Repeatable.
    #[arg(long, required = true, num_args = 1..)]
    pub(crate) values: Vec<PathBuf>,
    /// A `git log --format='%H %cI' [--name-only]` export: commit times of rules and data.
    #[arg(long)]
    pub(crate) git_log: Option<PathBuf>,
    /// Data files to fingerprint (SHA-256) under the name they are given (match the values' `source`). Repeatable.
    #[arg(long)]
    pub(crate) data: Vec<PathBuf>,
    /// An exclusion ledger (item, reason, excluded_at or commit, affects): each exclusion is placed before or after the results it affects. Repeatable.
    #[arg(long)]
    pub(crate) exclusions: Vec<PathBuf>,
    #[command(flatten)]
    pub(crate) settings: FieldArgs<RulesRequest>,
    #[command(flatten)]
    pub(crate) output: Output<RulesTable>,
}

impl crate::common::Subcommand for Rules {
    type Args = RulesArgs;
    fn run(args: RulesArgs) -> Result<(), Failure> {
        rules_cmd(args)
    }
}

pub(crate) fn rules_cmd(args: RulesArgs) -> Result<(), Failure> {
    let now = || {
        let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64);
        format_time(secs)
    };
    let mut request = args.settings.0;
    request.evaluated_at = Some(request.evaluated_at.unwrap_or_else(now));
    let mut given: Vec<(PathBuf, Option<FileRole>)> = vec![(args.rules.clone(), Some(FileRole::Rules))];
    given.extend(args.values.iter().map(|p| (p.clone(), Some(FileRole::Values))));
    given.extend(args.git_log.iter().map(|p| (p.clone(), Some(FileRole::GitLog))));
    given.extend(args.data.iter().map(|p| (p.clone(), Some(FileRole::Data))));
    given.extend(args.exclusions.iter().map(|p| (p.clone(), Some(FileRole::Exclusions))));
    let files = inputs::<Rules>(given)?;
    let (loaded, report) = run::<Rules>(&files, &request)?;
    emit::<Rules>(&report, &loaded, &args.output)
}
