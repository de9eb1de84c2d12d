//! The claims' `--printed-table` file read as rows to lint: a table (CSV or JSON) whose columns
//! (`docs/claims.md`) are the linter's ([`crate::printed::lint::lint_row`]). The checks are the
//! linter's own, below the units ([`crate::printed::lint`]).

use crate::answers::read::{cell, read_long_table};
use crate::error::IngestError;
use crate::ingest::InputFile;
use crate::printed::lint::{LintRow, lint_row};

/// Reads a table to lint, a row per line.
pub fn read_lint_table(file: &InputFile) -> Result<Vec<LintRow>, IngestError> {
    let table = read_long_table(file)?;
    table.rows.iter().enumerate().map(|(i, r)| lint_row(&|c| cell(r, Some(c)), i, &table.location(r))).collect()
}
