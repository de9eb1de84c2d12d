//! Reading per-task compliance rows: a table (CSV/TSV, JSON Lines, JSON array) with an arm
//! column and a compliance column (0/1 or a rate in [0, 1]), and optionally retrieval recall,
//! tokens and the causal-hop depth (BriefBench's `all_rows_*.jsonl` as released). Columns are
//! found by name (stated, else the first alias present). A row whose value is missing in a
//! column the analysis uses is counted and left out, never read as 0; a value out of range is
//! an error naming the file, line and column.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::error::{Error, IngestError, Location, Result};
use crate::ingest::InputFile;
use crate::ingest::table::{Example, Tally, find_column, has_columns, is_missing, parse_bool, required_column, rows};
use crate::outcomes::parse_number;

/// Aliases of the arm column, in order of preference.
pub const ARM: &[&str] = &["arm", "system", "method", "condition"];
/// Aliases of the compliance column.
pub const COMPLIANCE: &[&str] = &["compliance_rate", "compliance", "comply", "compliant", "honored"];
/// Aliases of the retrieval recall column.
pub const RECALL: &[&str] = &["recall", "retrieval_recall", "p_ret"];
/// Aliases of the tokens column.
pub const TOKENS: &[&str] = &["total_tokens", "tokens", "session_tokens", "n_tokens"];
/// Aliases of the depth column.
pub const DEPTH: &[&str] = &["depth", "hops", "hop_depth"];

/// Columns that vary but were neither used nor grouped by are reported (at most this many values).
const POOLED_MAX_VALUES: usize = 20;

/// One task (or attempt) of one arm.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub group: String,
    pub arm: String,
    /// In [0, 1].
    pub compliance: f64,
    /// In [0, 1].
    pub recall: Option<f64>,
    /// > 0.
    pub tokens: Option<f64>,
    pub depth: Option<f64>,
}

/// The columns a file was read with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reading {
    pub file: String,
    pub arm: String,
    pub compliance: String,
    pub recall: Option<String>,
    pub tokens: Option<String>,
    pub depth: Option<String>,
    pub group: Vec<String>,
    pub records: usize,
    /// Rows kept by `--filter` (all rows without one).
    pub kept: usize,
}

/// A column that varies across the rows read but was not grouped by: its values are pooled.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Pooled {
    pub column: String,
    pub values: Vec<String>,
}

/// The stated column names (`None`: the first alias present).
#[derive(Debug, Clone)]
pub struct ColumnNames<'a> {
    pub arm: Option<&'a str>,
    pub compliance: Option<&'a str>,
    pub recall: Option<&'a str>,
    pub tokens: Option<&'a str>,
    pub depth: Option<&'a str>,
    pub group: &'a [String],
    pub filter: &'a BTreeMap<String, Vec<String>>,
}

/// Every row read, the readings and what was left out.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tasks {
    pub rows: Vec<Row>,
    pub readings: Vec<Reading>,
    /// Rows without a value in a column the analysis uses (left out).
    pub missing: Tally,
    /// Rows `--filter` did not keep.
    pub filtered_out: usize,
    /// Text columns (≤ 20 values) that vary and were pooled.
    pub pooled: Vec<Pooled>,
}

/// Whether a file looks like compliance rows: an arm and a compliance column.
pub fn looks_like_compliance(file: &InputFile) -> bool {
    has_columns(file, &[ARM, COMPLIANCE])
}

impl Tasks {
    /// Adds one file's rows.
    pub fn add(&mut self, file: &InputFile, names: &ColumnNames<'_>) -> Result<()> {
        let t = rows(file)?;
        let name = file.name.as_str();
        let h = &t.headers;
        let arm = required_column(name, h, names.arm, ARM, "--arm", "arm")?;
        let comp = required_column(name, h, names.compliance, COMPLIANCE, "--compliance", "compliance")?;
        let recall = find_column(name, h, names.recall, RECALL, "--recall")?;
        let tokens = find_column(name, h, names.tokens, TOKENS, "--tokens")?;
        let depth = find_column(name, h, names.depth, DEPTH, "--depth")?;
        let group: Vec<usize> = names
            .group
            .iter()
            .map(|g| find_column(name, h, Some(g), &[], "--group").map(|c| c.unwrap_or_default()))
            .collect::<Result<_>>()?;
        let filter: Vec<(usize, &Vec<String>)> = names
            .filter
            .iter()
            .map(|(c, vals)| find_column(name, h, Some(c), &[], "--filter").map(|i| (i.unwrap_or_default(), vals)))
            .collect::<Result<_>>()?;
        let used: Vec<usize> =
            [Some(arm), Some(comp), recall, tokens, depth].into_iter().flatten().chain(group.iter().copied()).collect();
        let mut reading = Reading {
            file: name.into(),
            arm: h[arm].clone(),
            compliance: h[comp].clone(),
            recall: recall.map(|i| h[i].clone()),
            tokens: tokens.map(|i| h[i].clone()),
            depth: depth.map(|i| h[i].clone()),
            group: group.iter().map(|&i| h[i].clone()).collect(),
            records: t.records.len(),
            kept: 0,
        };
        // Per unused column: its distinct values (at most POOLED_MAX_VALUES + 1 kept) and how
        // often each (arm, value) occurs — a condition repeats within an arm, an id does not.
        let mut seen: BTreeMap<usize, Vec<String>> = BTreeMap::new();
        let mut repeats: BTreeMap<usize, BTreeMap<(String, String), usize>> = BTreeMap::new();
        for (line, rec) in &t.records {
            if !filter.iter().all(|(c, vals)| vals.iter().any(|v| v == &rec[*c])) {
                self.filtered_out += 1;
                continue;
            }
            reading.kept += 1;
            let arm_id = rec[arm].clone();
            let mut skip = None;
            for c in [Some(arm), Some(comp), recall, tokens, depth].into_iter().flatten().chain(group.iter().copied()) {
                if is_missing(&rec[c]) {
                    skip = Some(c);
                    break;
                }
            }
            if let Some(c) = skip {
                self.missing.add(|| Example {
                    file: name.to_string(),
                    line: *line,
                    item: arm_id.clone(),
                    rater: String::new(),
                    detail: format!("{}: no value", h[c]),
                });
                continue;
            }
            let bad = |col: usize, what: &str| {
                Error::Ingest(IngestError::new(
                    Location::line(name, *line).with_field(h[col].clone()),
                    format!("`{}` is not {what}", rec[col]),
                ))
            };
            let unit = |col: usize| -> Result<f64> {
                let v = parse_bool(&rec[col])
                    .map(|b| if b { 1.0 } else { 0.0 })
                    .or_else(|| parse_number(&rec[col]))
                    .ok_or_else(|| bad(col, "a number in [0, 1] or true/false"))?;
                if (0.0..=1.0).contains(&v) { Ok(v) } else { Err(bad(col, "in [0, 1]")) }
            };
            let compliance = unit(comp)?;
            let recall_v = recall.map(unit).transpose()?;
            let tokens_v = tokens
                .map(|c| {
                    parse_number(&rec[c])
                        .filter(|v| v.is_finite() && *v > 0.0)
                        .ok_or_else(|| bad(c, "a positive number of tokens"))
                })
                .transpose()?;
            let depth_v = depth
                .map(|c| parse_number(&rec[c]).filter(|v| v.is_finite()).ok_or_else(|| bad(c, "a number (the depth)")))
                .transpose()?;
            for (i, v) in rec.iter().enumerate() {
                if !used.contains(&i) && !filter.iter().any(|(c, _)| *c == i) {
                    let vals = seen.entry(i).or_default();
                    if vals.len() <= POOLED_MAX_VALUES && !vals.contains(v) {
                        vals.push(v.clone());
                    }
                    if vals.len() <= POOLED_MAX_VALUES {
                        *repeats.entry(i).or_default().entry((rec[arm].clone(), v.clone())).or_default() += 1;
                    }
                }
            }
            self.rows.push(Row {
                group: group.iter().map(|&g| format!("{}={}", h[g], rec[g])).collect::<Vec<_>>().join(", "),
                arm: arm_id,
                compliance,
                recall: recall_v,
                tokens: tokens_v,
                depth: depth_v,
            });
        }
        for (i, vals) in seen {
            let text = vals.iter().all(|v| !v.is_empty() && parse_number(v).is_none() && parse_bool(v).is_none());
            // A condition: two of its values each recur within one arm (task ids never do).
            let recurring: Vec<&String> = repeats
                .get(&i)
                .map(|m| m.iter().filter(|(_, n)| **n >= 2).map(|((_, v), _)| v).collect())
                .unwrap_or_default();
            let condition = vals.iter().filter(|v| recurring.contains(v)).count() >= 2;
            if text && condition && vals.len() > 1 && vals.len() <= POOLED_MAX_VALUES {
                match self.pooled.iter_mut().find(|p| p.column == h[i]) {
                    Some(p) => {
                        for v in vals {
                            if !p.values.contains(&v) {
                                p.values.push(v);
                            }
                        }
                    }
                    None => self.pooled.push(Pooled { column: h[i].clone(), values: vals }),
                }
            }
        }
        self.readings.push(reading);
        Ok(())
    }
}
