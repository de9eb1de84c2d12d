//! The CSV tables of an answer rescoring (`memaudit answers --format csv --table NAME`): the
//! same [`Table`]s feed the CLI and the viewer's exports and tables.

use super::{AnswerReport, DiffRow, Profile, ScoredAnswer};
use crate::report::{Table, flag, num, opt};

/// The tables an answer rescoring can be exported as (`--table NAME`).
pub const TABLES: [&str; 3] = ["rows", "summary", "diff"];

/// One table by name; `diff` needs the rows of a profile diff (`None` without them, and for an
/// unknown name).
pub fn table(report: &AnswerReport, diff: Option<&[DiffRow]>, name: &str) -> Option<Table> {
    match name {
        "rows" => Some(rows_table(&report.settings.profiles, &report.rows)),
        "summary" => {
            let mut t = Table::new("summary", &["profile", "arm", "dataset", "n", "mean", "correct", "correct_rate"]);
            for s in &report.summary {
                t.rows.push(vec![
                    s.profile.name().into(),
                    opt(&s.arm),
                    opt(&s.dataset),
                    s.n.to_string(),
                    num(Some(s.mean)),
                    s.correct.to_string(),
                    num(Some(s.correct_rate)),
                ]);
            }
            Some(t)
        }
        "diff" => {
            let mut t = Table::new(
                "diff",
                &[
                    "query_id",
                    "arm",
                    "dataset",
                    "file",
                    "line",
                    "a",
                    "b",
                    "score_a",
                    "score_b",
                    "correct_a",
                    "correct_b",
                    "prediction",
                    "gold",
                ],
            );
            for r in diff? {
                t.rows.push(vec![
                    r.query_id.clone(),
                    opt(&r.arm),
                    opt(&r.dataset),
                    r.file.clone(),
                    r.line.to_string(),
                    r.a.name().into(),
                    r.b.name().into(),
                    num(Some(r.score_a)),
                    num(Some(r.score_b)),
                    flag(r.correct_a),
                    flag(r.correct_b),
                    r.prediction.clone(),
                    r.gold.join(" | "),
                ]);
            }
            Some(t)
        }
        _ => None,
    }
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
