//! `memaudit answers`: rescoring raw answers under the scoring profiles, and the diff of two.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use memaudit::answers::{AnswerColumns, AnswerReport, AnswerSettings, Profile, diff, read_answers, rescore_answers};
use memaudit::error::Error;
use memaudit::report::{Table, opt};

use crate::common::{Failure, json, read_path};

#[derive(Copy, Clone, ValueEnum, PartialEq)]
pub(crate) enum Issue5Format {
    Json,
    Csv,
    Table,
}

#[derive(Args)]
pub(crate) struct AnswersArgs {
    /// Answer rows (CSV or JSON Lines): query id, gold answer(s), raw prediction [, dataset, category, arm].
    #[arg(long, short = 'i', required = true)]
    pub(crate) input: PathBuf,
    /// Profiles, comma-separated: paper_sem, mab_sem, mab_f1, squad_em, squad_f1, locomo_f1 (default: all).
    #[arg(long, value_delimiter = ',')]
    pub(crate) profiles: Vec<String>,
    /// List the rows whose verdict changes between two profiles: `--diff paper_sem:mab_sem`.
    #[arg(long)]
    pub(crate) diff: Option<String>,
    /// An F1 score counts as correct when ≥ this.
    #[arg(long, default_value_t = 0.5)]
    pub(crate) f1_threshold: f64,
    /// Column names, when the aliases do not find them.
    #[arg(long)]
    pub(crate) id_column: Option<String>,
    #[arg(long)]
    pub(crate) gold_column: Option<String>,
    #[arg(long)]
    pub(crate) prediction_column: Option<String>,
    #[arg(long, value_enum, default_value_t = Issue5Format::Table)]
    pub(crate) format: Issue5Format,
    /// With --format csv: rows, summary or diff.
    #[arg(long, default_value = "summary")]
    pub(crate) table: String,
    #[arg(long)]
    pub(crate) pretty: bool,
}

/// Bootstrap settings shared by `ablation` and `claims` (seed-000's B = 10,000, seed 42).
#[derive(Args, Clone)]
pub(crate) struct BootArgs {
    /// Bootstrap resamples of every interval.
    #[arg(long, default_value_t = 10_000)]
    pub(crate) bootstrap: usize,
    /// Seed of the ChaCha8 stream behind every interval.
    #[arg(long, default_value_t = 42)]
    pub(crate) seed: u64,
    /// Confidence level of the intervals.
    #[arg(long, default_value_t = 0.95)]
    pub(crate) confidence: f64,
}

pub(crate) fn fail(e: impl std::fmt::Display) -> Failure {
    Failure { message: e.to_string(), code: 2 }
}

/// The CSV of a core table, or the error for an unknown table name (listing `names`).
pub(crate) fn table_csv(table: Option<Table>, name: &str, names: &[&str]) -> Result<String, Failure> {
    let t = table.ok_or_else(|| fail(format!("unknown table `{name}` ({})", names.join(", "))))?;
    Ok(t.to_csv()?)
}

pub(crate) fn answers_cmd(args: AnswersArgs) -> Result<(), Failure> {
    let profiles = if args.profiles.is_empty() {
        Profile::ALL.to_vec()
    } else {
        args.profiles
            .iter()
            .map(|p| Profile::parse(p).ok_or_else(|| fail(format!("unknown profile `{p}` (one of: {})", names()))))
            .collect::<Result<Vec<_>, _>>()?
    };
    let pair = match &args.diff {
        None => None,
        Some(d) => {
            let (a, b) = d.split_once(':').ok_or_else(|| fail("--diff takes two profiles: A:B"))?;
            let p =
                |x: &str| Profile::parse(x).ok_or_else(|| fail(format!("unknown profile `{x}` (one of: {})", names())));
            Some((p(a)?, p(b)?))
        }
    };
    let mut profiles = profiles;
    for p in pair.iter().flat_map(|(a, b)| [*a, *b]) {
        if !profiles.contains(&p) {
            profiles.push(p);
        }
    }
    let cols = AnswerColumns {
        query_id: args.id_column.clone(),
        gold: args.gold_column.clone(),
        prediction: args.prediction_column.clone(),
        ..Default::default()
    };
    let file = read_path(&args.input)?;
    let (rows, warnings) = read_answers(&file, &cols).map_err(|e| Failure::from(Error::from(e)))?;
    let settings = AnswerSettings { profiles, f1_threshold: args.f1_threshold };
    let report = rescore_answers(&rows, &settings, warnings)?;
    let diff_rows = match pair {
        Some((a, b)) => Some(diff(&report, &rows, a, b)?),
        None => None,
    };
    match args.format {
        Issue5Format::Json => {
            #[derive(serde::Serialize)]
            struct Out<'a> {
                #[serde(flatten)]
                report: &'a AnswerReport,
                diff: &'a Option<Vec<memaudit::answers::DiffRow>>,
                memaudit_version: &'static str,
            }
            let out = Out { report: &report, diff: &diff_rows, memaudit_version: env!("CARGO_PKG_VERSION") };
            println!("{}", json(&out, args.pretty)?);
        }
        Issue5Format::Csv => {
            if args.table == "diff" && diff_rows.is_none() {
                return Err(fail("--table diff needs --diff A:B"));
            }
            let t = memaudit::answers::table(&report, diff_rows.as_deref(), &args.table);
            print!("{}", table_csv(t, &args.table, &memaudit::answers::TABLES)?);
        }
        Issue5Format::Table => {
            println!("{:<10} {:<20} {:<24} {:>6} {:>8} {:>8}", "profile", "arm", "dataset", "n", "mean", "correct");
            for s in &report.summary {
                println!(
                    "{:<10} {:<20} {:<24} {:>6} {:>8.4} {:>8}",
                    s.profile.name(),
                    opt(&s.arm),
                    s.dataset.clone().unwrap_or_else(|| "(all)".into()),
                    s.n,
                    s.mean,
                    s.correct
                );
            }
            for d in &report.disagreements {
                println!("{} vs {}: {} of {} verdicts differ", d.a.name(), d.b.name(), d.verdict_changes, d.n);
            }
            if let Some(rows) = &diff_rows {
                for r in rows {
                    println!(
                        "  {} ({}, line {}): {} {} vs {}",
                        r.query_id,
                        r.file,
                        r.line,
                        r.a.name(),
                        r.score_a,
                        r.score_b
                    );
                }
            }
            for w in report.warnings.iter() {
                println!("warning: {} ({}): {}", w.message, w.count, w.examples.join("; "));
            }
        }
    }
    Ok(())
}

fn names() -> String {
    Profile::ALL.iter().map(|p| p.name()).collect::<Vec<_>>().join(", ")
}
