//! Reading per-task compliance rows: a table (CSV/TSV, JSON Lines, JSON array) with an arm
//! column and a compliance column (0/1 or a rate in [0, 1]), and optionally retrieval recall,
//! tokens and the causal-hop depth (BriefBench's `all_rows_*.jsonl` as released). Columns are
//! found by name (stated, else the first alias present). A row whose value is missing in a
//! column the analysis uses is counted and left out, never read as 0; a value out of range is
//! an error naming the file, line and column.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::error::{Error, IngestError, Location, Result};
use crate::fields::mention;
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

/// Aliases of a task id column (rows without one are told apart by position only).
pub const ITEM: &[&str] = &["task_id", "item_id", "instance_id", "example_id", "question_id"];

/// One task (or attempt) of one arm.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The group (`--group` columns and the design columns found, `dataset=synthetic, …`).
    pub group: String,
    /// The task id, when the rows carry one.
    pub item: Option<String>,
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

/// A column whose values were pooled into one cell, as asked (`pool`).
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
    pub item: Option<&'a str>,
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
    /// Columns pooled as asked (`pool`).
    pub pooled: Vec<Pooled>,
    /// The rows as the cells mechanism sees them: their undeclared columns ([`Tasks::form_cells`]).
    pub frame: crate::cells::Frame,
    /// How the rows became cells ([`Tasks::form_cells`]).
    pub cells: crate::cells::CellReport,
    /// Every value each filtered column holds (a listed value none holds is refused).
    pub filter_values: BTreeMap<String, std::collections::BTreeSet<String>>,
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
        let arm = required_column(name, h, names.arm, ARM, &mention("arm"), "arm")?;
        let comp = required_column(name, h, names.compliance, COMPLIANCE, &mention("compliance"), "compliance")?;
        let recall = find_column(name, h, names.recall, RECALL, &mention("recall"))?;
        let tokens = find_column(name, h, names.tokens, TOKENS, &mention("tokens"))?;
        let depth = find_column(name, h, names.depth, DEPTH, &mention("depth"))?;
        let item = find_column(name, h, names.item, ITEM, &mention("item"))?;
        let group: Vec<usize> = names
            .group
            .iter()
            .map(|g| find_column(name, h, Some(g), &[], &mention("group")).map(|c| c.unwrap_or_default()))
            .collect::<Result<_>>()?;
        let filter: Vec<(usize, &Vec<String>)> = names
            .filter
            .iter()
            .map(|(c, vals)| {
                find_column(name, h, Some(c), &[], &mention("filter")).map(|i| (i.unwrap_or_default(), vals))
            })
            .collect::<Result<_>>()?;
        let used: Vec<usize> = [Some(arm), Some(comp), recall, tokens, depth, item]
            .into_iter()
            .flatten()
            .chain(group.iter().copied())
            .chain(filter.iter().map(|(c, _)| *c))
            .collect();
        if item.is_some() && self.frame.is_empty() && self.rows.is_empty() {
            self.frame = crate::cells::Frame::new(&[h[item.unwrap_or_default()].as_str()]);
        }
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
        for (line, rec) in &t.records {
            for (c, _) in &filter {
                self.filter_values.entry(h[*c].clone()).or_default().insert(rec[*c].clone());
            }
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
            let group_text = group.iter().map(|&g| format!("{}={}", h[g], rec[g])).collect::<Vec<_>>().join(", ");
            let item_id = item.map(|c| rec[c].clone());
            let undeclared =
                rec.iter().enumerate().filter(|(i, _)| !used.contains(i)).map(|(i, v)| (h[i].as_str(), v.as_str()));
            let print = crate::cells::fingerprint(h.iter().map(String::as_str).zip(rec.iter().map(String::as_str)));
            self.frame.push(name, *line, item_id.clone(), format!("{group_text}\u{1f}{arm_id}"), undeclared, print);
            if let Some(d) = depth {
                self.frame.within(rec[d].clone());
            }
            self.rows.push(Row {
                group: group_text,
                item: item_id,
                arm: arm_id,
                compliance,
                recall: recall_v,
                tokens: tokens_v,
                depth: depth_v,
            });
        }
        self.readings.push(reading);
        Ok(())
    }

    /// Forms the cells once every file is read ([`crate::cells`]): the design columns found are
    /// added to each row's group (one group per value, never pooled unless `settings` pools
    /// them); pooled columns are listed; an item repeated within a cell is refused. Each cell is
    /// a (group, arm); a panel is a group, whose arms are set side by side.
    pub fn form_cells(&mut self, settings: &crate::cells::CellSettings) -> Result<()> {
        let design = crate::cells::Design::detect(&self.frame, settings)?;
        for (row, keys) in self.rows.iter_mut().zip(&design.row_keys) {
            for (k, v) in keys {
                if !row.group.is_empty() {
                    row.group.push_str(", ");
                }
                row.group.push_str(&format!("{k}={v}"));
            }
        }
        self.pooled =
            design.pooled.iter().map(|d| Pooled { column: d.column.clone(), values: d.values.clone() }).collect();
        let has_items = self.rows.iter().all(|r| r.item.is_some());
        let restriction = crate::cells::Restriction::of(settings);
        let mut excluded = crate::cells::Exclusions::default();
        if !restriction.is_none() {
            if !has_items {
                return Err(crate::error::Error::setting(
                    if settings.problems.is_some() { "problems" } else { "common_items" },
                    format!(
                        "these rows carry no task id ({}), so no task can be kept or left out: give the id column ({})",
                        ITEM.join(", "),
                        crate::fields::mention("item")
                    ),
                ));
            }
            let cells: Vec<String> = self.rows.iter().map(|r| format!("{}\u{1f}{}", r.group, r.arm)).collect();
            let refs: Vec<crate::cells::RowRef> = self
                .rows
                .iter()
                .zip(&cells)
                .map(|(r, c)| {
                    let item = r.item.as_deref().unwrap_or("");
                    crate::cells::RowRef { item, identity: item, panel: &r.group, cell: c }
                })
                .collect();
            let (keep, out) = restriction.apply(&refs, "tasks");
            excluded = out;
            let mut keep = keep.into_iter();
            self.rows.retain(|_| keep.next().unwrap_or(true));
        }
        // Populations: per (group, arm) its tasks (or, without ids, its row count).
        let mut order: Vec<(String, String)> = Vec::new();
        let mut members: std::collections::HashMap<(String, String), (Vec<String>, usize)> = Default::default();
        for r in &self.rows {
            let key = (r.group.clone(), r.arm.clone());
            let e = members.entry(key.clone()).or_insert_with(|| {
                order.push(key);
                (Vec::new(), 0)
            });
            if let Some(i) = &r.item {
                e.0.push(i.clone());
            }
            e.1 += 1;
        }
        let cells: Vec<crate::cells::CellItems> = order
            .iter()
            .map(|k| {
                let (items, rows) = &members[k];
                crate::cells::CellItems {
                    cell: k.1.clone(),
                    panel: if k.0.is_empty() { "all rows".into() } else { k.0.clone() },
                    items: has_items.then(|| items.clone()),
                    rows: *rows,
                }
            })
            .collect();
        let what = if has_items { "tasks" } else { "rows" };
        self.cells =
            crate::cells::CellReport::new(settings, design, crate::cells::Populations::of(&cells, what), excluded);
        Ok(())
    }
}
