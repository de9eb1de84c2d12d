//! The CSV tables of an answer rescoring (`memaudit answers --format csv --table NAME`): the
//! same [`Table`]s feed the CLI and the viewer's exports and tables.

use super::{AnswerReport, DiffRow, Profile, ProfileSummary, ScoredAnswer, StatedComparison};
use crate::error::{Error, Result};
use crate::fields::mention;
use crate::report::{Column, Table, flag, num, opt};

crate::choice! {
    /// The tables an answer rescoring can be exported as (`--table NAME`).
    pub enum AnswersTable {
        Rows,
        Summary,
        /// The rows whose verdict changes between the two profiles of `--diff A:B`.
        Diff,
        /// The queries each arm holds ([`crate::cells`]).
        Populations,
        /// The columns that split the arms, are pooled, or are not used.
        CellColumns,
        /// The files' own scores (a judge's verdict, their own F1) against every profile, per arm.
        Stated,
    }
}

const STATED: &[Column<StatedComparison>] = &crate::columns![StatedComparison;
    /// The file's column of its own scores.
    "column" => |c| c.column.clone(),
    "arm" => |c| opt(&c.arm),
    /// `verdict` (every value 0 or 1) or `score`.
    "kind" => |c| c.kind.name().into(),
    "profile" => |c| c.profile.name().into(),
    /// The arm's rows that state the column.
    "n" => |c| c.n.to_string(),
    /// The mean of the file's values (a verdict's: the share it counts correct).
    "stated_mean" => |c| num(Some(c.stated_mean)),
    /// The profile's mean score on the same rows.
    "profile_mean" => |c| num(Some(c.profile_mean)),
    /// The share of the same rows the profile counts correct.
    "profile_correct_rate" => |c| num(Some(c.profile_correct_rate)),
    /// Rows with the same verdict (verdicts) or equal scores within 1e-6 (scores).
    "agree" => |c| c.agree.to_string(),
    "agreement" => |c| num(Some(c.agreement())),
    /// Verdicts: correct for the file only.
    "stated_only" => |c| opt(&c.stated_only),
    /// Verdicts: correct under the profile only.
    "profile_only" => |c| opt(&c.profile_only),
    /// Verdicts: Cohen's κ of the file's verdicts and the profile's.
    "kappa" => |c| num(c.kappa),
    /// Scores: mean |stated − profile score|.
    "mean_abs_difference" => |c| num(c.mean_abs_difference),
    /// Scores: largest |stated − profile score|.
    "max_abs_difference" => |c| num(c.max_abs_difference),
];

const SUMMARY: &[Column<ProfileSummary>] = &crate::columns![ProfileSummary;
    "profile" => |s| s.profile.name().into(),
    "arm" => |s| opt(&s.arm),
    "dataset" => |s| opt(&s.dataset),
    "n" => |s| s.n.to_string(),
    "mean" => |s| num(Some(s.mean)),
    "correct" => |s| s.correct.to_string(),
    "correct_rate" => |s| num(Some(s.correct_rate)),
];

const DIFF: &[Column<DiffRow>] = &crate::columns![DiffRow;
    "query_id" => |r| r.query_id.clone(),
    "arm" => |r| opt(&r.arm),
    "dataset" => |r| opt(&r.dataset),
    "file" => |r| r.file.clone(),
    "line" => |r| r.line.to_string(),
    "a" => |r| r.a.name().into(),
    "b" => |r| r.b.name().into(),
    "score_a" => |r| num(Some(r.score_a)),
    "score_b" => |r| num(Some(r.score_b)),
    "correct_a" => |r| flag(r.correct_a),
    "correct_b" => |r| flag(r.correct_b),
    "prediction" => |r| r.prediction.clone(),
    "gold" => |r| r.gold.join(" | "),
];

/// The prefix of a file's own score in the `rows` table (`stated_llm_score`).
pub const STATED_PREFIX: &str = "stated_";

/// One table of an answer rescoring; `diff` needs a report made with a profile diff.
pub fn table(report: &AnswerReport, which: AnswersTable) -> Result<Table> {
    let name = which.name();
    Ok(match which {
        AnswersTable::Rows => rows_table(&report.settings.profiles, &report.rows),
        AnswersTable::Summary => Table::of(name, SUMMARY, &report.summary),
        AnswersTable::Diff => {
            let rows = report.diff.as_ref().ok_or_else(|| {
                Error::setting("table", format!("the diff table needs a profile diff: state {} (A:B)", mention("diff")))
            })?;
            Table::of(name, DIFF, rows)
        }
        AnswersTable::Populations => report.populations.populations_table(name),
        AnswersTable::CellColumns => report.populations.columns_table(name),
        AnswersTable::Stated => Table::of(name, STATED, &report.stated),
    })
}

/// The `rows` table of some scored answers: their keys, then a score and a verdict per profile
/// (`{profile}`, `{profile}_correct`), then the files' own scores (`stated_{column}`, empty
/// where a row does not state it). The viewer shows a page of rows at a time.
pub fn rows_table(profiles: &[Profile], rows: &[ScoredAnswer]) -> Table {
    let names: Vec<&str> = profiles.iter().map(|p| p.name()).collect();
    let correct: Vec<String> = names.iter().map(|n| format!("{n}_correct")).collect();
    let stated = crate::distinct::first_seen(rows.iter().flat_map(|r| r.stated.iter().map(|s| s.column.as_str())));
    let stated_headers: Vec<String> = stated.iter().map(|c| format!("{STATED_PREFIX}{c}")).collect();
    let mut headers = vec!["query_id", "arm", "dataset", "category", "file", "line"];
    for (n, c) in names.iter().zip(&correct) {
        headers.push(n);
        headers.push(c);
    }
    headers.extend(stated_headers.iter().map(String::as_str));
    let mut t = Table::new("rows", &headers);
    for r in rows {
        let mut v = vec![
            r.query_id.clone(),
            opt(&r.arm),
            opt(&r.dataset),
            opt(&r.category),
            r.file.clone(),
            r.line.to_string(),
        ];
        for s in &r.scores {
            v.push(num(Some(s.score)));
            v.push(flag(s.correct));
        }
        for c in &stated {
            v.push(num(r.stated.iter().find(|s| s.column == *c).map(|s| s.value)));
        }
        t.rows.push(v);
    }
    t
}
