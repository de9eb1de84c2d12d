//! Pairing validation: turn long-form rows into an item × arm matrix under a [`Spec`], report
//! what is missing or repeated, and refuse a paired test on data that is not paired, with a
//! message saying how to fix it.
//!
//! - A row without a cell in a key or arm column is an error naming its file, line and field.
//! - A value cell that is not a number is an error naming its file, line and field; an empty
//!   value cell (e.g. a query not eligible for a target) is missing, never 0.
//! - The same (item, arm) twice is refused by default; [`Duplicates::Mean`] averages such rows
//!   (labelled in the report and counted as a warning) — common with several seeds per item.
//! - Items not present with a value in every arm are refused by default;
//!   [`PairingOptions::allow_incomplete`] compares on the items present in every arm.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use super::advice::{arm_candidate_list, arm_candidates, fix_message, no_key_message, varying_columns};
use super::spec::{JudgmentChoice, Spec, truncate};
use super::{ColumnKind, OutcomeRow, OutcomeTable, OutcomeWarningKind, OutcomeWarnings};
use crate::error::{IngestError, Location};

crate::choice! {
    /// What to do when several rows share an (item, arm).
    #[derive(Default)]
    pub enum Duplicates {
        /// Not paired: the key does not identify the item (the default).
        #[default]
        Refuse,
        /// Average the rows' values (rows without a value are left out of the mean).
        Mean,
    }
}

/// Tolerances of the pairing validator (CLI: `--aggregate mean`, `--allow-incomplete`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairingOptions {
    /// What to do with repeated (item, arm) rows.
    pub duplicates: Duplicates,
    /// Compare on the items that have a value in every arm instead of refusing.
    pub allow_incomplete: bool,
}

/// Coverage of one arm.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ArmCoverage {
    /// The arm (arm columns joined with `/`).
    pub arm: String,
    /// Rows read for this arm.
    pub rows: usize,
    /// Items with a value in this arm.
    pub items_present: usize,
    /// Items with no row at all in this arm.
    pub items_without_row: usize,
    /// Items whose rows in this arm have no value (e.g. not eligible).
    pub items_without_value: usize,
}

/// One (item, arm) cell holding several rows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DuplicateExample {
    /// The item (key joined with ` | `).
    pub item: String,
    /// The arm.
    pub arm: String,
    /// Where its rows are (file and line).
    pub rows: Vec<Location>,
}

/// Repeated (item, arm) cells.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DuplicatesSummary {
    /// Cells with more than one row.
    pub cells: usize,
    /// Rows beyond the first in those cells.
    pub surplus_rows: usize,
    /// The first few cells, in file order.
    pub examples: Vec<DuplicateExample>,
    /// Columns whose values differ within repeated cells (what could tell the rows apart).
    pub varying_columns: Vec<String>,
    /// The rows were averaged ([`Duplicates::Mean`]).
    pub aggregated: bool,
}

/// Everything the validator found, shown before any test.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairingReport {
    /// The pairing key columns.
    pub key: Vec<String>,
    /// The arm columns.
    pub arm: Vec<String>,
    /// The strata columns.
    pub strata: Vec<String>,
    /// What the value is, in words (e.g. "`correct`", "mean of `correct` over repeated rows").
    pub value: String,
    /// Rows in the table.
    pub rows: usize,
    /// Rows left out by the spec's filter.
    pub rows_filtered: usize,
    /// Rows placed in the matrix.
    pub rows_used: usize,
    /// Distinct items (before any restriction).
    pub n_items: usize,
    /// Distinct arms.
    pub n_arms: usize,
    /// Per arm: items present / missing.
    pub arms: Vec<ArmCoverage>,
    /// Repeated (item, arm) cells.
    pub duplicates: DuplicatesSummary,
    /// Arms whose items (with a value) are not all the items.
    pub arms_with_different_items: Vec<String>,
    /// Items with a value in every arm.
    pub complete_items: usize,
    /// Items in the returned matrix (all, or the complete ones after `allow_incomplete`).
    pub items_used: usize,
    /// The matrix was restricted to the complete items ([`PairingOptions::allow_incomplete`]).
    pub restricted_to_complete: bool,
    /// The data as read is paired: at least two arms, one row per (item, arm) (or averaged),
    /// and a value for every item in every arm.
    pub is_paired: bool,
    /// When not paired: what is wrong and how to fix it.
    pub message: Option<String>,
    /// Conventions applied while pairing, counted.
    pub warnings: OutcomeWarnings,
}

/// The validated item × arm matrix.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Paired {
    /// Arm names, in first-seen order.
    pub arms: Vec<String>,
    /// Items (key joined with ` | `), in first-seen order.
    pub items: Vec<String>,
    /// Items as key tuples (one text per key column).
    pub item_keys: Vec<Vec<String>>,
    /// `values[item][arm]`; `None` when missing (only possible without a test: [`pair`]).
    pub values: Vec<Vec<Option<f64>>>,
    /// Per item, its strata columns' texts.
    pub strata: Vec<BTreeMap<String, String>>,
    /// What was found.
    pub report: PairingReport,
}

impl Paired {
    /// The values of one arm, item by item.
    pub fn arm_values(&self, arm: usize) -> Vec<Option<f64>> {
        self.values.iter().map(|row| row.get(arm).copied().flatten()).collect()
    }

    /// Index of an arm by name.
    pub fn arm_index(&self, arm: &str) -> Option<usize> {
        self.arms.iter().position(|a| a == arm)
    }

    /// The matrix as plain numbers `[item][arm]`, when every cell has a value (always the case
    /// for a matrix returned by [`pair_for_test`]); `None` otherwise.
    pub fn dense_values(&self) -> Option<Vec<Vec<f64>>> {
        self.values.iter().map(|row| row.iter().copied().collect::<Option<Vec<f64>>>()).collect()
    }

    /// Per item, its strata texts joined with ` | ` in the spec's strata order (a label for
    /// stratified resampling); `None` when the spec has no strata.
    pub fn stratum_labels(&self) -> Option<Vec<String>> {
        if self.strata.iter().all(BTreeMap::is_empty) {
            return None;
        }
        let order = &self.report.strata;
        Some(
            self.strata
                .iter()
                .map(|m| order.iter().map(|s| m.get(s).map_or("", String::as_str)).collect::<Vec<_>>().join(ITEM_SEP))
                .collect(),
        )
    }

    /// The same matrix restricted to items with a value in every arm.
    pub fn complete_only(&self) -> Paired {
        let keep: Vec<usize> = (0..self.items.len()).filter(|&i| self.values[i].iter().all(Option::is_some)).collect();
        let mut report = self.report.clone();
        report.items_used = keep.len();
        report.restricted_to_complete = keep.len() < self.items.len();
        Paired {
            arms: self.arms.clone(),
            items: keep.iter().map(|&i| self.items[i].clone()).collect(),
            item_keys: keep.iter().map(|&i| self.item_keys[i].clone()).collect(),
            values: keep.iter().map(|&i| self.values[i].clone()).collect(),
            strata: keep.iter().map(|&i| self.strata[i].clone()).collect(),
            report,
        }
    }
}

/// Why a paired test cannot run.
#[derive(Debug, Clone, PartialEq, thiserror::Error, Serialize, Deserialize)]
pub enum PairingError {
    /// The spec does not fit the table (unknown column, no key, no arm, …); how to fix it.
    #[error("{0}")]
    Spec(String),
    /// A row cannot be placed (no key or arm cell, a text value): file, line and field.
    #[error(transparent)]
    Record(IngestError),
    /// The data is not paired under the spec; the message says how to fix it.
    #[error("{message}")]
    Unpaired {
        /// What is wrong and how to fix it.
        message: String,
        /// Everything the validator found.
        report: Box<PairingReport>,
    },
}

pub(super) const ITEM_SEP: &str = " | ";
pub(super) const ARM_SEP: &str = "/";
const MAX_EXAMPLES: usize = 5;
/// More arms than this is a wrong arm column, not an experiment.
const MAX_ARMS: usize = 1000;
/// Largest item × arm matrix built (memory stays bounded, also in the browser).
const MAX_CELLS: usize = 10_000_000;

/// The rows of one (item, arm) cell: (row index, value).
pub(super) type CellRows = Vec<(usize, Option<f64>)>;

/// A grouping column, its number of values, and rows per arm in each group.
pub(super) type Grouping<'a> = (&'a str, usize, Vec<(String, usize)>);

/// Where a row's value comes from.
pub(super) enum ValueSource {
    Column(String),
    Majority(Vec<String>),
    Judgment(String),
}

/// The judgment columns `prefix.*` of a table, in natural order (`judgment_2` before
/// `judgment_10`).
pub(super) fn judgment_columns(table: &OutcomeTable, prefix: &str) -> Vec<String> {
    let dotted = format!("{prefix}.");
    let mut cols: Vec<String> =
        table.columns.iter().filter(|c| c.name.starts_with(&dotted)).map(|c| c.name.clone()).collect();
    cols.sort_by_key(|c| natural_key(c));
    cols
}

/// `judgment_10` after `judgment_2`: the stem, then the trailing number.
fn natural_key(s: &str) -> (String, u64) {
    let digits: String =
        s.chars().rev().take_while(|c| c.is_ascii_digit()).collect::<Vec<_>>().into_iter().rev().collect();
    let stem = &s[..s.len() - digits.len()];
    (stem.to_string(), digits.parse().unwrap_or(0))
}

/// The value source of `spec` on `table`, or why the spec does not fit (`need_key`: a pairing
/// key is required; the unpaired per-arm summary needs none).
pub(super) fn check_spec(table: &OutcomeTable, spec: &Spec, need_key: bool) -> Result<ValueSource, PairingError> {
    let names: Vec<&str> = table.columns.iter().map(|c| c.name.as_str()).collect();
    let known = |c: &str| names.contains(&c);
    let unknown = |role: &str, c: &str| {
        PairingError::Spec(format!(
            "{role} column `{c}` is not in {} (columns: {})",
            table.name,
            names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
        ))
    };
    for c in &spec.key {
        if !known(c) {
            return Err(unknown("key", c));
        }
    }
    for c in &spec.arm {
        if !known(c) {
            return Err(unknown("arm", c));
        }
    }
    for c in &spec.strata {
        if !known(c) {
            return Err(unknown("stratum", c));
        }
    }
    for (c, allowed) in &spec.filter {
        if !known(c) {
            return Err(unknown("filter", c));
        }
        // A listed value no row holds is a typo, never a silently smaller selection.
        let missing: Vec<&String> =
            allowed.iter().filter(|v| !table.rows.iter().any(|r| r.fields.get(c) == Some(*v))).collect();
        if !missing.is_empty() {
            let mut values: Vec<&str> = table.rows.iter().filter_map(|r| r.fields.get(c).map(String::as_str)).collect();
            values.sort_unstable();
            values.dedup();
            return Err(PairingError::Spec(format!(
                "filter: no row of {} has {} in column `{c}` (its values: {})",
                table.name,
                missing.iter().map(|v| format!("`{v}`")).collect::<Vec<_>>().join(", "),
                crate::cells::some_of(&values.iter().map(|v| format!("`{v}`")).collect::<Vec<_>>())
            )));
        }
    }
    if !spec.rename.is_empty() && !spec.arm.is_empty() {
        check_rename(table, spec)?;
    }
    // Without a key (each arm on its own), no arm column means one arm: the file's.
    if spec.arm.is_empty() && need_key {
        // Not the item's own columns: the key, the strata and, in LoCoMo answer files (whose
        // records hold the conversation as `group`, the question, its answers and verdicts),
        // any column not named like an arm.
        let mut cands: Vec<&str> = spec.key.iter().chain(&spec.strata).map(String::as_str).collect();
        if table.format == super::OutcomeFormat::LocomoAnswers {
            cands.extend(table.columns.iter().map(|c| c.name.as_str()).filter(|c| !super::spec::is_arm_name(c)));
        }
        let candidates = arm_candidate_list(table, &cands);
        let one = if candidates.is_empty() {
            format!(
                "; the rows seem to be one system's ({}), summarised below on their own: \
                 give a file per system, or the column that names them, to compare",
                table.name
            )
        } else {
            String::new()
        };
        return Err(PairingError::Spec(format!(
            "no arm column chosen: choose the column that names the systems/arms (candidates: {}){one}",
            if candidates.is_empty() { "none".to_string() } else { candidates.join(", ") }
        )));
    }
    if let Some(c) = spec.key.iter().find(|k| spec.arm.contains(k)) {
        return Err(PairingError::Spec(format!(
            "`{c}` is both in the pairing key and the arm: each item would occur in one arm only; \
             the key names the item, the arm names the system"
        )));
    }
    if need_key && spec.key.is_empty() {
        return Err(PairingError::Spec(no_key_message(table, spec)));
    }
    let value = spec.value.as_str();
    if value.is_empty() {
        let numeric: Vec<String> =
            table.columns.iter().filter(|c| c.kind != ColumnKind::Text).map(|c| format!("`{}`", c.name)).collect();
        let names: Vec<&str> = table.files.iter().map(|f| f.name.as_str()).collect();
        return Err(PairingError::Spec(format!(
            "no value column chosen in {} (numeric or true/false columns: {})",
            if names.is_empty() { table.name.clone() } else { names.join(", ") },
            if numeric.is_empty() {
                match nearly_numeric(table) {
                    Some(why) => format!("none: {why}"),
                    None => "none: every column holds text — is the file's header or delimiter what you expect?".into(),
                }
            } else {
                numeric.join(", ")
            }
        )));
    }
    match spec.judgment {
        None => {
            if !known(value) {
                return Err(unknown("value", value));
            }
            if spec.key.iter().any(|k| k == value) || spec.arm.iter().any(|a| a == value) {
                return Err(PairingError::Spec(format!("`{value}` cannot be both the value and a key or arm column")));
            }
            Ok(ValueSource::Column(value.to_string()))
        }
        Some(choice) => {
            let prefix = format!("{value}.");
            let cols = judgment_columns(table, value);
            if cols.is_empty() {
                return Err(PairingError::Spec(format!(
                    "no judgment columns `{prefix}*` in {} (judge files hold `llm_judgments`: {{\"judgment_1\": true, …}})",
                    table.name
                )));
            }
            match choice {
                JudgmentChoice::Majority => Ok(ValueSource::Majority(cols)),
                JudgmentChoice::Judgment(k) => match k.checked_sub(1).and_then(|i| cols.get(i)) {
                    Some(c) => Ok(ValueSource::Judgment(c.clone())),
                    None => Err(PairingError::Spec(format!(
                        "judgment {k} chosen but there are {} ({})",
                        cols.len(),
                        cols.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", ")
                    ))),
                },
                // Spread into arms before pairing (`judgments::each_judgment_as_arm`).
                JudgmentChoice::Each => Err(PairingError::Spec(format!(
                    "each judgment `{prefix}*` as an arm: the table must be spread first (memaudit compare does this)"
                ))),
            }
        }
    }
}

/// The spec's `rename` fits the rows: every arm it names is one the (filtered) rows have, and
/// no two arms end with one name (that would merge them unsaid).
fn check_rename(table: &OutcomeTable, spec: &Spec) -> Result<(), PairingError> {
    let mut arms: Vec<String> = Vec::new();
    let mut seen: std::collections::HashSet<String> = Default::default();
    for row in table.rows.iter().filter(|r| spec.keeps(r)) {
        if let Some(a) = spec.arm_label(row)
            && seen.insert(a.clone())
        {
            arms.push(a);
        }
    }
    let quoted = |v: &[String]| crate::cells::some_of(&v.iter().map(|a| format!("`{a}`")).collect::<Vec<_>>());
    let missing: Vec<String> = spec.rename.keys().filter(|from| !seen.contains(*from)).cloned().collect();
    if !missing.is_empty() {
        return Err(PairingError::Spec(format!(
            "{}: no arm {} in {} (its arms: {})",
            crate::fields::mention("rename"),
            missing.iter().map(|a| format!("`{a}`")).collect::<Vec<_>>().join(", "),
            table.name,
            quoted(&arms)
        )));
    }
    let mut by_name: std::collections::HashMap<String, &str> = Default::default();
    for a in &arms {
        let shown = spec.shown_arm(a.clone());
        if let Some(other) = by_name.insert(shown.clone(), a) {
            return Err(PairingError::Spec(format!(
                "{}: arms `{other}` and `{a}` would both be called `{shown}`: give each arm its own name",
                crate::fields::mention("rename")
            )));
        }
    }
    Ok(())
}

/// A row without a value in column `c` of the spec. When only other files have the column (it
/// was chosen from them), the error names them: files compared together share their columns.
fn missing_cell(table: &OutcomeTable, row: &super::OutcomeRow, c: &str, what: &str, or: &str) -> PairingError {
    let mut others: Vec<usize> = Vec::new();
    if !table.rows.iter().any(|r| r.file == row.file && r.fields.contains_key(c)) {
        for r in &table.rows {
            if r.file != row.file && r.fields.contains_key(c) && !others.contains(&r.file) {
                others.push(r.file);
            }
        }
    }
    let message = if others.is_empty() {
        format!("no value for {what} `{c}`: every row needs one ({or})")
    } else {
        let names: Vec<&str> = others.iter().filter_map(|&f| table.files.get(f)).map(|f| f.name.as_str()).collect();
        format!(
            "no value for {what} `{c}`, a column of {} only: files compared together need the same columns \
             (compare them separately, {or} that every file has)",
            names.join(", ")
        )
    };
    PairingError::Record(IngestError::new(table.location(row).with_field(c.to_string()), message))
}

/// Builds the item × arm matrix and the report. Fails only when the spec does not fit the table
/// or a row cannot be placed; unpaired data gives `report.is_paired == false` with a message.
/// With [`Duplicates::Refuse`] a repeated cell shows its first row's value.
pub fn pair(table: &OutcomeTable, spec: &Spec, opts: &PairingOptions) -> Result<Paired, PairingError> {
    let source = check_spec(table, spec, true)?;
    let mut warnings = OutcomeWarnings::default();
    let mut item_index: HashMap<Vec<String>, usize> = HashMap::new();
    let mut item_keys: Vec<Vec<String>> = Vec::new();
    let mut arm_index: HashMap<String, usize> = HashMap::new();
    let mut arms: Vec<String> = Vec::new();
    let mut strata: Vec<BTreeMap<String, String>> = Vec::new();
    let mut strata_line: Vec<usize> = Vec::new();
    let mut cells: HashMap<(usize, usize), CellRows> = HashMap::new();
    let mut rows_filtered = 0;
    let mut rows_used = 0;
    let mut arm_rows: Vec<usize> = Vec::new();

    for (ri, row) in table.rows.iter().enumerate() {
        if !spec.keeps(row) {
            rows_filtered += 1;
            continue;
        }
        let loc = || table.location(row);
        let mut key = Vec::with_capacity(spec.key.len());
        for c in &spec.key {
            match row.fields.get(c) {
                Some(v) => key.push(v.clone()),
                None => return Err(missing_cell(table, row, c, "the pairing-key column", "or choose another key")),
            }
        }
        let mut arm_parts = Vec::with_capacity(spec.arm.len());
        for c in &spec.arm {
            match row.fields.get(c) {
                Some(v) => arm_parts.push(v.as_str()),
                None => return Err(missing_cell(table, row, c, "the arm column", "or choose another arm")),
            }
        }
        let arm = spec.shown_arm(arm_parts.join(ARM_SEP));
        let value = row_value(table, row, &source, &mut warnings)?;
        rows_used += 1;
        let a = match arm_index.get(&arm) {
            Some(&a) => a,
            None => {
                arm_index.insert(arm.clone(), arms.len());
                arms.push(arm);
                arm_rows.push(0);
                arms.len() - 1
            }
        };
        arm_rows[a] += 1;
        let i = match item_index.get(&key) {
            Some(&i) => {
                for s in &spec.strata {
                    let v = row.fields.get(s).cloned().unwrap_or_default();
                    let prev = strata[i].get(s).cloned().unwrap_or_default();
                    if v != prev {
                        return Err(PairingError::Spec(format!(
                            "stratum `{s}` is not constant within item `{}` (`{prev}` at line {}, `{v}` at {}): add it \
                             to the pairing key, or leave it out of the strata",
                            key.join(ITEM_SEP),
                            strata_line[i],
                            loc()
                        )));
                    }
                }
                i
            }
            None => {
                let i = item_keys.len();
                item_index.insert(key.clone(), i);
                item_keys.push(key);
                strata.push(
                    spec.strata.iter().map(|s| (s.clone(), row.fields.get(s).cloned().unwrap_or_default())).collect(),
                );
                strata_line.push(row.line);
                i
            }
        };
        cells.entry((i, a)).or_default().push((ri, value));
    }

    let n_items = item_keys.len();
    let n_arms = arms.len();
    if n_arms > MAX_ARMS || n_items.saturating_mul(n_arms) > MAX_CELLS {
        let skip: Vec<&str> = spec.key.iter().map(String::as_str).collect();
        return Err(PairingError::Spec(format!(
            "arm = {} gives {n_arms} arms over {n_items} items: too many to pair (at most {MAX_ARMS} arms and \
             {MAX_CELLS} item × arm cells); the arm should name the systems or configurations (candidates: {})",
            spec.arm.iter().map(|a| format!("`{a}`")).collect::<Vec<_>>().join(" × "),
            arm_candidates(table, &skip)
        )));
    }
    let mut values = vec![vec![None; n_arms]; n_items];
    let mut has_row = vec![vec![false; n_arms]; n_items];
    let mut cell_list: Vec<((usize, usize), CellRows)> = cells.into_iter().collect();
    cell_list.sort_by_key(|(_, rows)| rows.first().map_or(0, |r| r.0));
    let mut dups = DuplicatesSummary { aggregated: opts.duplicates == Duplicates::Mean, ..Default::default() };
    let mut dup_cells: Vec<&CellRows> = Vec::new();
    for ((i, a), rows) in &cell_list {
        has_row[*i][*a] = true;
        let v = if rows.len() > 1 {
            dups.cells += 1;
            dups.surplus_rows += rows.len() - 1;
            if dups.examples.len() < MAX_EXAMPLES {
                dups.examples.push(DuplicateExample {
                    item: item_keys[*i].join(ITEM_SEP),
                    arm: arms[*a].clone(),
                    rows: rows.iter().map(|(ri, _)| table.location(&table.rows[*ri])).collect(),
                });
            }
            dup_cells.push(rows);
            match opts.duplicates {
                Duplicates::Refuse => rows[0].1,
                Duplicates::Mean => {
                    let present: Vec<f64> = rows.iter().filter_map(|r| r.1).collect();
                    let mean = if present.is_empty() {
                        None
                    } else {
                        Some(present.iter().sum::<f64>() / present.len() as f64)
                    };
                    warnings.add(OutcomeWarningKind::DuplicatesAveraged, || {
                        format!(
                            "item `{}`, arm `{}`: mean of {} rows ({})",
                            item_keys[*i].join(ITEM_SEP),
                            arms[*a],
                            rows.len(),
                            table.location(&table.rows[rows[0].0])
                        )
                    });
                    mean
                }
            }
        } else {
            rows[0].1
        };
        values[*i][*a] = v;
    }
    if dups.cells > 0 {
        dups.varying_columns = varying_columns(table, spec, &dup_cells);
    }

    let mut coverage: Vec<ArmCoverage> = Vec::with_capacity(n_arms);
    for (a, name) in arms.iter().enumerate() {
        let present = (0..n_items).filter(|&i| values[i][a].is_some()).count();
        let without_row = (0..n_items).filter(|&i| !has_row[i][a]).count();
        coverage.push(ArmCoverage {
            arm: name.clone(),
            rows: arm_rows[a],
            items_present: present,
            items_without_row: without_row,
            items_without_value: n_items - present - without_row,
        });
    }
    let complete_items = values.iter().filter(|row| row.iter().all(Option::is_some)).count();
    let arms_with_different_items: Vec<String> =
        coverage.iter().filter(|c| c.items_present < n_items).map(|c| c.arm.clone()).collect();
    if rows_filtered > 0 {
        let filter =
            spec.filter.iter().map(|(c, v)| format!("{c} ∈ {{{}}}", v.join(", "))).collect::<Vec<_>>().join(", ");
        warnings.add_n(OutcomeWarningKind::FilteredRows, rows_filtered, || format!("filter {filter}"));
    }
    let dup_ok = dups.cells == 0 || opts.duplicates == Duplicates::Mean;
    let is_paired = n_arms >= 2 && n_items >= 1 && dup_ok && complete_items == n_items;
    let value_label = value_label(spec, &source, dups.cells > 0 && opts.duplicates == Duplicates::Mean);
    let mut report = PairingReport {
        key: spec.key.clone(),
        arm: spec.arm.clone(),
        strata: spec.strata.clone(),
        value: value_label,
        rows: table.rows.len(),
        rows_filtered,
        rows_used,
        n_items,
        n_arms,
        arms: coverage,
        duplicates: dups,
        arms_with_different_items,
        complete_items,
        items_used: n_items,
        restricted_to_complete: false,
        is_paired,
        message: None,
        warnings,
    };
    if !is_paired {
        report.message = Some(fix_message(table, spec, &report, opts, &values, &has_row, &item_keys));
    }
    let items = item_keys.iter().map(|k| k.join(ITEM_SEP)).collect();
    Ok(Paired { arms, items, item_keys, values, strata, report })
}

/// [`pair`], then refuses unless the matrix is paired: at least two arms, one row (or an
/// averaged cell, with [`Duplicates::Mean`]) per (item, arm), and a value for every item in
/// every arm — or, with [`PairingOptions::allow_incomplete`], restricted to the items that have
/// one (at least one such item). The error says what is wrong and how to fix it.
pub fn pair_for_test(table: &OutcomeTable, spec: &Spec, opts: &PairingOptions) -> Result<Paired, PairingError> {
    let p = pair(table, spec, opts)?;
    if p.report.is_paired {
        return Ok(p);
    }
    let r = &p.report;
    let dup_blocking = r.duplicates.cells > 0 && opts.duplicates == Duplicates::Refuse;
    if opts.allow_incomplete && !dup_blocking && r.n_arms >= 2 && r.complete_items > 0 {
        let dropped = r.n_items - r.complete_items;
        let mut q = p.complete_only();
        q.report.warnings.add_n(OutcomeWarningKind::IncompleteItemsDropped, dropped, || {
            format!("{dropped} of {} items left out; compared on {}", r.n_items, r.complete_items)
        });
        return Ok(q);
    }
    let message = r.message.clone().unwrap_or_else(|| "the data is not paired".to_string());
    Err(PairingError::Unpaired { message, report: Box::new(p.report) })
}

pub(super) fn value_label(spec: &Spec, source: &ValueSource, averaged: bool) -> String {
    let base = match source {
        ValueSource::Column(c) => format!("`{c}`"),
        ValueSource::Judgment(c) => format!("judgment `{c}`"),
        ValueSource::Majority(cols) => {
            format!("majority of {} judgments `{}.*` (more than half true → 1, a tie → 0)", cols.len(), spec.value)
        }
    };
    if averaged { format!("mean of {base} over repeated rows of an (item, arm)") } else { base }
}

pub(super) fn row_value(
    table: &OutcomeTable,
    row: &OutcomeRow,
    source: &ValueSource,
    warnings: &mut OutcomeWarnings,
) -> Result<Option<f64>, PairingError> {
    let loc = || table.location(row);
    match source {
        ValueSource::Column(c) => match (row.values.get(c), row.fields.get(c)) {
            (Some(v), _) => Ok(Some(*v)),
            (None, Some(text)) => Err(PairingError::Record(IngestError::new(
                loc().with_field(c.clone()),
                format!("`{}` is not a number: the value column must hold numbers or true/false", truncate(text, 40)),
            ))),
            (None, None) => {
                warnings.add(OutcomeWarningKind::MissingValue, || format!("{}, field `{c}`", loc()));
                Ok(None)
            }
        },
        ValueSource::Judgment(c) => match row.values.get(c) {
            Some(v) => Ok(Some(*v)),
            None => {
                warnings.add(OutcomeWarningKind::JudgmentMissing, || format!("{}, field `{c}`", loc()));
                Ok(None)
            }
        },
        ValueSource::Majority(cols) => {
            let present: Vec<f64> = cols.iter().filter_map(|c| row.values.get(c).copied()).collect();
            let n = present.len();
            let yes = present.iter().filter(|v| **v >= 0.5).count();
            if n == 0 {
                warnings.add(OutcomeWarningKind::JudgmentMissing, || format!("{}: no judgment", loc()));
                Ok(None)
            } else if 2 * yes > n {
                Ok(Some(1.0))
            } else {
                if 2 * yes == n {
                    warnings.add(OutcomeWarningKind::JudgmentTie, || format!("{}: {yes} of {n} true", loc()));
                }
                Ok(Some(0.0))
            }
        }
    }
}

/// A text column most of whose cells are numbers: the first cell that is not one, where it
/// stands (a stray `inf`, `n/a!` or `—` makes a column of outcomes text).
fn nearly_numeric(table: &OutcomeTable) -> Option<String> {
    for c in table.columns.iter().filter(|c| c.kind == ColumnKind::Text) {
        let present: Vec<&OutcomeRow> = table.rows.iter().filter(|r| r.fields.contains_key(&c.name)).collect();
        let numbers = present.iter().filter(|r| r.values.contains_key(&c.name)).count();
        if numbers * 2 < present.len() || numbers == 0 {
            continue;
        }
        let odd = present.iter().find(|r| !r.values.contains_key(&c.name))?;
        return Some(format!(
            "column `{}` holds numbers in {numbers} of its {} cells, but not `{}` ({}): a value must be a finite \
             number or true/false; fix the cell, or leave it empty (or NA) to count it missing",
            c.name,
            present.len(),
            odd.fields.get(&c.name).map_or("", String::as_str),
            table.location(odd)
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::spec::preview;
    use super::super::{ReadOptions, read_outcomes};
    use super::*;
    use crate::ingest::InputFile;

    fn table(name: &str, text: &str) -> OutcomeTable {
        read_outcomes(&InputFile::new(name, text.as_bytes().to_vec()), &ReadOptions::default()).unwrap()
    }

    const LONG: &str = "item,arm,correct,seed\nq1,a,1,0\nq1,b,0,0\nq2,a,1,0\nq2,b,1,0\nq3,a,0,0\nq3,b,1,0\n";

    #[test]
    fn paired_matrix() {
        let t = table("l.csv", LONG);
        let p = pair_for_test(&t, &Spec::new(&["item"], &["arm"], "correct"), &PairingOptions::default()).unwrap();
        assert_eq!(p.arms, ["a", "b"]);
        assert_eq!(p.items, ["q1", "q2", "q3"]);
        assert_eq!(p.values[0], [Some(1.0), Some(0.0)]);
        assert_eq!(p.arm_values(1), [Some(0.0), Some(1.0), Some(1.0)]);
        assert_eq!(p.arm_index("b"), Some(1));
        assert!(p.report.is_paired);
        assert_eq!(p.report.complete_items, 3);
        assert!(p.report.message.is_none());
    }

    #[test]
    fn missing_items_are_refused_with_a_fix() {
        let text = format!("{LONG}q4,a,1,0\nq5,a,0,0\n");
        let t = table("l.csv", &text);
        let spec = Spec::new(&["item"], &["arm"], "correct");
        let e = pair_for_test(&t, &spec, &PairingOptions::default()).unwrap_err();
        let PairingError::Unpaired { message, report } = &e else { panic!("{e:?}") };
        assert!(message.contains("arm `b` has no rows for 2 items (first: `q4`)"), "{message}");
        let message = crate::fields::render_mentions(message, crate::command_line::word);
        assert!(message.contains("--allow-incomplete to compare on the 3 items"), "{message}");
        assert_eq!(report.arms_with_different_items, ["b"]);
        assert_eq!(report.arms[1].items_without_row, 2);
        let opts = PairingOptions { allow_incomplete: true, ..Default::default() };
        let p = pair_for_test(&t, &spec, &opts).unwrap();
        assert_eq!(p.items.len(), 3);
        assert!(p.report.restricted_to_complete);
        assert_eq!(p.report.warnings.count(OutcomeWarningKind::IncompleteItemsDropped), 2);
    }

    #[test]
    fn duplicates_refused_or_averaged() {
        let text =
            "item,arm,correct,seed\nq1,a,1,0\nq1,a,0,1\nq1,b,0,0\nq1,b,0,1\nq2,a,1,0\nq2,a,1,1\nq2,b,1,0\nq2,b,0,1\n";
        let t = table("d.csv", text);
        let spec = Spec::new(&["item"], &["arm"], "correct");
        let e = pair_for_test(&t, &spec, &PairingOptions::default()).unwrap_err();
        let PairingError::Unpaired { message, report } = &e else { panic!("{e:?}") };
        assert_eq!((report.duplicates.cells, report.duplicates.surplus_rows), (4, 4));
        assert_eq!(report.duplicates.examples[0].rows.iter().map(|l| l.line).collect::<Vec<_>>(), [Some(2), Some(3)]);
        assert_eq!(report.duplicates.varying_columns, ["seed"]);
        let message = crate::fields::render_mentions(message, crate::command_line::word);
        assert!(message.contains("adding `seed` (--key item,seed)"), "{message}");
        assert!(message.contains("--aggregate to `mean`"), "{message}");
        let opts = PairingOptions { duplicates: Duplicates::Mean, ..Default::default() };
        let p = pair_for_test(&t, &spec, &opts).unwrap();
        assert_eq!(p.values, [[Some(0.5), Some(0.0)], [Some(1.0), Some(0.5)]]);
        assert!(p.report.duplicates.aggregated);
        assert!(p.report.value.starts_with("mean of `correct`"));
        assert_eq!(p.report.warnings.count(OutcomeWarningKind::DuplicatesAveraged), 4);
    }

    #[test]
    fn spec_and_record_errors() {
        let t = table("l.csv", LONG);
        let opts = PairingOptions::default();
        let e = pair(&t, &Spec::new(&["nope"], &["arm"], "correct"), &opts).unwrap_err();
        assert!(e.to_string().contains("key column `nope` is not in l.csv"), "{e}");
        let e = pair(&t, &Spec::new(&["item"], &[], "correct"), &opts).unwrap_err();
        assert!(e.to_string().contains("no arm column chosen"), "{e}");
        let e = pair(&t, &Spec::new(&["item", "arm"], &["arm"], "correct"), &opts).unwrap_err();
        assert!(e.to_string().contains("both in the pairing key and the arm"), "{e}");
        let e = pair(&t, &Spec::new(&["item"], &["arm"], ""), &opts).unwrap_err();
        assert!(e.to_string().contains("`correct`"), "{e}");
        let e = pair_for_test(&t, &Spec::new(&["item"], &["seed"], "correct"), &opts).unwrap_err();
        assert!(e.to_string().contains("only one arm (`0`)"), "{e}");
        let t = table("l.csv", "item,arm,answer\nq1,a,12\nq1,b,Ana\n");
        let e = pair(&t, &Spec::new(&["item"], &["arm"], "answer"), &opts).unwrap_err();
        let PairingError::Record(e) = e else { panic!() };
        assert_eq!((e.location.line, e.location.field.as_deref()), (Some(3), Some("answer")));
        let t = table("l.csv", "item,arm,correct\nq1,a,1\n,b,0\n");
        let PairingError::Record(e) = pair(&t, &Spec::new(&["item"], &["arm"], "correct"), &opts).unwrap_err() else {
            panic!()
        };
        assert_eq!((e.location.line, e.location.field.as_deref()), (Some(3), Some("item")));
    }

    #[test]
    fn absurd_arm_columns_are_refused() {
        let mut text = String::from("item,arm,correct\n");
        for i in 0..1100 {
            text.push_str(&format!("q{i},a{i},1\n"));
        }
        let t = table("many.csv", &text);
        let e = pair(&t, &Spec::new(&["item"], &["arm"], "correct"), &PairingOptions::default()).unwrap_err();
        assert!(e.to_string().contains("1100 arms over 1100 items: too many to pair"), "{e}");
    }

    #[test]
    fn missing_values_are_not_zero() {
        let t = table("l.csv", "item,arm,ndcg\nq1,a,0.5\nq1,b,\nq2,a,1\nq2,b,0.25\n");
        let spec = Spec::new(&["item"], &["arm"], "ndcg");
        let p = pair(&t, &spec, &PairingOptions::default()).unwrap();
        assert_eq!(p.values[0], [Some(0.5), None]);
        assert_eq!(p.dense_values(), None);
        assert_eq!(p.complete_only().dense_values(), Some(vec![vec![1.0, 0.25]]));
        assert_eq!(p.report.arms[1].items_without_value, 1);
        assert!(p.report.message.as_deref().unwrap().contains("no value for 1 items"), "{:?}", p.report.message);
        assert_eq!(p.report.warnings.count(OutcomeWarningKind::MissingValue), 1);
    }

    #[test]
    fn strata_and_filter() {
        let text = "item,arm,correct,cat,split\nq1,a,1,x,dev\nq1,b,0,x,dev\nq2,a,1,y,test\nq2,b,1,y,test\n";
        let t = table("s.csv", text);
        let spec = Spec::new(&["item"], &["arm"], "correct").with_strata(&["cat"]);
        let p = pair_for_test(&t, &spec, &PairingOptions::default()).unwrap();
        assert_eq!(p.strata[1]["cat"], "y");
        assert_eq!(p.stratum_labels(), Some(vec!["x".to_string(), "y".to_string()]));
        assert_eq!(p.dense_values(), Some(vec![vec![1.0, 0.0], vec![1.0, 1.0]]));
        let plain = pair(&t, &Spec::new(&["item"], &["arm"], "correct"), &PairingOptions::default()).unwrap();
        assert_eq!(plain.stratum_labels(), None);
        let p = pair_for_test(&t, &spec.clone().with_filter("split", &["test"]), &PairingOptions::default()).unwrap();
        assert_eq!((p.items.len(), p.report.rows_filtered), (1, 2));
        let bad = table("s.csv", "item,arm,correct,cat\nq1,a,1,x\nq1,b,0,z\n");
        let e = pair(&bad, &spec, &PairingOptions::default()).unwrap_err();
        assert!(e.to_string().contains("stratum `cat` is not constant within item `q1`"), "{e}");
    }

    #[test]
    fn judgments_majority_and_choice() {
        let text = "{\"question_id\":\"q1\",\"llm_judgments\":{\"judgment_1\":true,\"judgment_2\":false,\"judgment_10\":true}}\n\
{\"question_id\":\"q2\",\"llm_judgments\":{\"judgment_1\":true,\"judgment_2\":false}}\n\
{\"question_id\":\"q3\",\"llm_judgments\":{}}\n";
        let mut a = table("sysA.jsonl", text);
        let b = table("sysB.jsonl", &text.replace("true", "false"));
        a = OutcomeTable::concat(vec![a, b]);
        let spec = Spec::new(&["question_id"], &["arm"], "llm_judgments").with_judgment(JudgmentChoice::Majority);
        let p = pair(&a, &spec, &PairingOptions::default()).unwrap();
        assert_eq!(p.arms, ["sysA", "sysB"]);
        assert_eq!(p.values, [[Some(1.0), Some(0.0)], [Some(0.0), Some(0.0)], [None, None]]);
        assert_eq!(p.report.warnings.count(OutcomeWarningKind::JudgmentTie), 1);
        assert_eq!(p.report.warnings.count(OutcomeWarningKind::JudgmentMissing), 2);
        let third = spec.clone().with_judgment(JudgmentChoice::Judgment(3));
        let p = pair(&a, &third, &PairingOptions::default()).unwrap();
        assert_eq!(p.values[0], [Some(1.0), Some(0.0)], "judgment_10 is the third in natural order");
        let e = pair(&a, &spec.with_judgment(JudgmentChoice::Judgment(4)), &PairingOptions::default()).unwrap_err();
        assert!(e.to_string().contains("judgment 4 chosen but there are 3"), "{e}");
    }

    #[test]
    fn a_key_column_of_another_file_only_is_named_with_that_file() {
        let a = table("a.csv", "item,arm,correct\nq1,a,1\nq2,a,0\n");
        let b = table("b.jsonl", "{\"query_id\": \"q1\", \"arm\": \"b\", \"correct\": 1}\n");
        let t = OutcomeTable::concat(vec![a, b]);
        let e = pair(&t, &Spec::new(&["query_id"], &["arm"], "correct"), &PairingOptions::default()).unwrap_err();
        let PairingError::Record(e) = e else { panic!("{e:?}") };
        assert_eq!(e.location, Location::line("a.csv", 2).with_field("query_id".to_string()));
        assert!(e.message.contains("`query_id`, a column of b.jsonl only"), "{}", e.message);
        // A column the row's own file has elsewhere is a gap in that file: no other file named.
        let c = table("c.csv", "item,arm,correct\nq1,a,1\n,b,0\n");
        let e = pair(&c, &Spec::new(&["item"], &["arm"], "correct"), &PairingOptions::default()).unwrap_err();
        assert!(e.to_string().contains("every row needs one (or choose another key)"), "{e}");
    }

    #[test]
    fn position_only_rows_are_refused() {
        let text = "dataset,arm,correct\nd1,a,1\nd1,a,0\nd1,b,1\nd1,b,1\nd2,a,0\nd2,a,0\nd2,b,1\nd2,b,0\n";
        let t = table("p.csv", text);
        let spec = super::super::spec::infer_spec(&t);
        assert!(spec.key.is_empty());
        let e = pair_for_test(&t, &spec, &PairingOptions::default()).unwrap_err();
        let m = e.to_string();
        assert!(m.contains("no pairing key"), "{m}");
        assert!(m.contains("order within each (`dataset`, arm) group"), "{m}");
        let e =
            pair_for_test(&t, &Spec::new(&["dataset"], &["arm"], "correct"), &PairingOptions::default()).unwrap_err();
        assert!(e.to_string().contains("memaudit does not pair rows by position"), "{e}");
    }

    #[test]
    fn report_serialises() {
        let t = table("l.csv", LONG);
        let p = pair(&t, &Spec::new(&["item"], &["arm"], "correct"), &PairingOptions::default()).unwrap();
        let json = serde_json::to_string(&p).unwrap();
        assert!(json.contains("\"is_paired\":true"));
        let back: Paired = serde_json::from_str(&json).unwrap();
        assert_eq!(back, p);
        let _ = preview(&t, "arm", 2);
    }
}
