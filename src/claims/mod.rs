//! The claims check: a claims file recomputed from the loaded per-query scores —
//! reported vs recomputed, the difference, and a verdict (matches / within rounding / differs /
//! cannot be computed, naming the missing input) — and the consistency linter that runs on
//! every table, loaded or computed: point outside its interval, delta not the difference of
//! the displayed means, proportions off the k/n grid, arms on different query sets, implausible
//! interval widths, mislabelled interval methods, z/h inconsistent with the displayed
//! proportions, partial runs, claims of one source matching different runs, arms compared
//! with different configuration or prompt fingerprints, and query ids given twice
//! (`docs/claims.md`).

pub mod check;
pub mod config;
pub mod headlines;
pub mod lint;
pub mod report;
pub mod role;
pub mod table;
pub mod text;
pub mod unit;

pub use crate::printed::lint::{Finding, FindingSide, LintKind, LintRow, LintSettings, RowKind, lint, on_grid};
pub use check::{
    Claim, ClaimKind, ClaimResult, ClaimSettings, RunCheck, Verdict, check_claims, read_claims, run_mixing,
};
pub use config::{config_findings, duplicate_findings};
pub use lint::read_lint_table;
pub use report::{ClaimsReport, VerdictCounts, claims_report, sweep_lint_rows};
pub use role::detect_file_role;
pub use table::{ClaimsTable, table};
pub use unit::{Claims, ClaimsOverview, ClaimsRequest};
