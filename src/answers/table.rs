//! The CSV tables of an answer rescoring (`memaudit answers --format csv --table NAME`): the
//! same [`Table`]s feed the CLI and the viewer's exports and tables.

use super::{AnswerReport, DiffRow, Profile, ProfileSummary, ScoredAnswer};
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
    }
}

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
    })
}

/// The `rows` table of some scored answers: their keys, then a score and a verdict per profile
/// (`{profile}`, `{profile}_correct`). The viewer shows a page of rows at a time.
pub fn rows_table(profiles: &[Profile], rows: &[ScoredAnswer]) -> Table {
    let names: Vec<&str> = profiles.iter().map(|p| p.name()).collect();
    let correct: Vec<String> = names.iter().map(|n| format!("{n}_correct")).collect();
    let mut headers = vec!["query_id", "arm", "dataset", "category", "file", "line"];
    for (n, c) in names.iter().zip(&correct) {
        headers.push(n);
        headers.push(c);
    }
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
        t.rows.push(v);
    }
    t
}
