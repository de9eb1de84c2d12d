//! `memaudit rules`: pre-registered rules evaluated into verdict records with margins, input
//! fingerprints and the temporal-integrity check.

use std::path::PathBuf;

use clap::Args;

use memaudit::file_role::FileRole;
use memaudit::ingest::InputFile;
use memaudit::rules::{
    EvalContext, GitLog, RulesReport, SourceInfo, TABLES, detect_file_role, evaluate, format_time, read_rules,
    read_values, sha256_hex, table,
};

use crate::answers::{Issue5Format, fail, table_csv};
use crate::common::{Failure, json, read_as, read_path};

#[derive(Args)]
pub(crate) struct RulesArgs {
    /// The rule registry (JSON, grammar in docs/rules.md).
    #[arg(long, required = true)]
    pub(crate) rules: PathBuf,
    /// Named values the rules judge (JSON). Repeatable.
    #[arg(long, required = true)]
    pub(crate) values: Vec<PathBuf>,
    /// A `git log --format='%H %cI' [--name-only]` export: commit times of rules and data.
    #[arg(long)]
    pub(crate) git_log: Option<PathBuf>,
    /// Data files to fingerprint (SHA-256) under the name they are given (match the values' `source`). Repeatable.
    #[arg(long)]
    pub(crate) data: Vec<PathBuf>,
    /// Evaluation time stamped on the verdicts (default: now, UTC).
    #[arg(long)]
    pub(crate) evaluated_at: Option<String>,
    #[arg(long, value_enum, default_value_t = Issue5Format::Table)]
    pub(crate) format: Issue5Format,
    #[arg(long)]
    pub(crate) pretty: bool,
}

pub(crate) fn rules_cmd(args: RulesArgs) -> Result<(), Failure> {
    let detect = |f: &InputFile| Some(detect_file_role(f));
    let rules = read_as(&read_path(&args.rules)?, FileRole::Rules, detect, read_rules)?;
    let mut ctx = EvalContext::default();
    for p in &args.values {
        let v = read_as(&read_path(p)?, FileRole::Values, detect, read_values)?;
        for (k, q) in v.values {
            if ctx.values.values.insert(k.clone(), q).is_some() {
                return Err(fail(format!("value `{k}` is defined in two values files")));
            }
        }
        ctx.values.sources.extend(v.sources);
    }
    for p in &args.data {
        let f = read_path(p)?;
        let e = ctx.values.sources.entry(f.name.clone()).or_insert_with(SourceInfo::default);
        e.sha256 = Some(sha256_hex(&f.bytes));
    }
    if let Some(p) = &args.git_log {
        let f = read_path(p)?;
        let text = String::from_utf8(f.bytes.clone()).map_err(|_| fail(format!("{}: not UTF-8 text", f.name)))?;
        ctx.git = read_as(&f, FileRole::GitLog, detect, |f| GitLog::parse(&f.name, &text))?;
    }
    ctx.evaluated_at = Some(args.evaluated_at.clone().unwrap_or_else(|| {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64);
        format_time(now)
    }));
    let report = evaluate(&rules, &ctx);
    match args.format {
        Issue5Format::Json => {
            #[derive(serde::Serialize)]
            struct Out<'a> {
                #[serde(flatten)]
                report: &'a RulesReport,
                memaudit_version: &'static str,
            }
            println!("{}", json(&Out { report: &report, memaudit_version: env!("CARGO_PKG_VERSION") }, args.pretty)?);
        }
        Issue5Format::Csv => print!("{}", table_csv(table(&report, "verdicts"), "verdicts", &TABLES)?),
        Issue5Format::Table => {
            for v in &report.verdicts {
                println!(
                    "{:<28} {:<10} {:<28} margin {:>10}  {}{}",
                    v.rule_id,
                    v.kind,
                    v.outcome,
                    v.margin.map_or("-".into(), |m| format!("{m:+.4}")),
                    v.temporal.status,
                    v.error.as_ref().map(|e| format!(" — {e}")).unwrap_or_default()
                );
            }
            println!(
                "{} fired, {} not fired, {} errors, {} registered after their data",
                report.fired, report.not_fired, report.errors, report.registered_after_data
            );
        }
    }
    Ok(())
}
