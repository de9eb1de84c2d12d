//! The check as a table (`memaudit verify … --format csv`), as text, and its headlines.

use super::check::{CheckRow, PrintedCheck, Verdict};
use crate::headline::{Headline, Level};
use crate::report::{Column, Table, num};

const CHECK: &[Column<CheckRow>] = &crate::columns![CheckRow;
    "line" => |r| r.line.to_string(),
    "source" => |r| r.source.clone(),
    "analysis" => |r| r.analysis.clone(),
    "table" => |r| r.table.clone(),
    "row" => |r| r.row.clone(),
    "column" => |r| r.column.clone(),
    "printed" => |r| r.printed.clone(),
    "recomputed" => |r| num(r.recomputed),
    "verdict" => |r| r.verdict.name().into(),
    "difference" => |r| num(r.difference),
    "note" => |r| r.note.clone(),
    "convention" => |r| r.convention.clone(),
];

/// The check's one table, `printed`.
pub fn table(c: &PrintedCheck) -> Table {
    Table::of("printed", CHECK, &c.rows)
}

fn named(r: &CheckRow) -> String {
    let source = if r.source.is_empty() { String::new() } else { format!("{}: ", r.source) };
    let row = if r.row.is_empty() { String::new() } else { format!(" [{}]", r.row) };
    format!("{source}{}{row} {}", r.table, r.column)
}

/// What the check says: printed numbers that differ (an alert), those within rounding and those
/// not computed (findings), and how many match.
pub fn headlines(c: &PrintedCheck) -> Vec<Headline> {
    let n = c.rows.len();
    let mut out = Vec::new();
    let some = |v: Verdict| c.rows.iter().filter(move |r| r.verdict == v);
    let list = |v: Verdict, f: &dyn Fn(&CheckRow) -> String| some(v).take(3).map(f).collect::<Vec<_>>().join("; ");
    let differs = c.count(Verdict::Differs);
    if differs > 0 {
        out.push(Headline::new(
            Level::Alert,
            format!("{differs} of {n} printed numbers differ from the data"),
            list(Verdict::Differs, &|r| {
                let given =
                    if r.convention.is_empty() { String::new() } else { format!(" (given by {})", r.convention) };
                format!("{} printed {}, recomputed {}{given}", named(r), r.printed, num(r.recomputed))
            }),
            Some("printed"),
        ));
    }
    if !c.findings.is_empty() {
        out.push(Headline::new(
            Level::Alert,
            format!(
                "{} of the printed numbers contradict each other, whatever the data",
                if c.findings.len() == 1 { "a row".to_string() } else { format!("{} rows", c.findings.len()) }
            ),
            c.findings
                .iter()
                .take(3)
                .map(|f| format!("{} [{}]: {}", f.table.as_deref().unwrap_or(""), f.row, f.message))
                .collect::<Vec<_>>()
                .join("; "),
            Some("printed"),
        ));
    }
    let near = c.count(Verdict::WithinRounding);
    if near > 0 {
        out.push(Headline::new(
            Level::Finding,
            format!("{near} of {n} printed numbers are one unit off in their last digit (rounded twice, or a tie rounded the other way)"),
            list(Verdict::WithinRounding, &|r| format!("{} printed {}, recomputed {}", named(r), r.printed, num(r.recomputed))),
            Some("printed"),
        ));
    }
    let missing = c.count(Verdict::NotComputed);
    if missing > 0 {
        out.push(Headline::new(
            Level::Finding,
            format!("{missing} of {n} printed numbers could not be found in the report"),
            list(Verdict::NotComputed, &|r| format!("{} (line {}): {}", named(r), r.line, r.note)),
            Some("printed"),
        ));
    }
    out.push(Headline::new(
        Level::Context,
        format!(
            "{} of {n} printed numbers match {}",
            c.count(Verdict::Matches),
            if c.analysis == crate::capability::Analysis::Audit {
                "the release's data".to_string()
            } else {
                format!("the data of `{}`", c.analysis)
            }
        ),
        format!("{} for other analyses, not checked here", c.count(Verdict::OtherAnalysis)),
        Some("printed"),
    ));
    out
}

/// The check as text: its headlines, then the table.
pub fn render_text(c: &PrintedCheck) -> String {
    let mut out = crate::headline::render_text(&crate::headline::rank(headlines(c)));
    out.push_str(&format!("\n== Printed numbers against `{}`\n", c.analysis));
    out.push_str(&crate::text_table!(&c.rows, |r| {
        "line" => r.line.to_string(),
        "printed as" => named(r),
        "printed" => r.printed.clone(),
        "recomputed" => r.recomputed.map(|x| format!("{x:.6}")).unwrap_or_else(|| "-".into()),
        "verdict" => r.verdict.name().to_string(),
        "note" => r.note.clone(),
        "given by" => r.convention.clone(),
    }));
    if !c.findings.is_empty() {
        out.push_str("\n== The printed numbers against each other\n");
        for f in &c.findings {
            let at = f.location.as_deref().map(|l| format!(" ({l})")).unwrap_or_default();
            out.push_str(&format!("- {} [{}]: {}{at}\n", f.table.as_deref().unwrap_or(""), f.row, f.message));
        }
    }
    out
}
