//! Per-query scores of arms: one row per (arm, dataset, K, query) with one or more metric
//! columns (CSV or JSON, read like every issue-5 input).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::answers::read::{ID_ALIASES, cell, integer, pick_column, read_long_table, require_column};
use crate::error::{IngestError, Location};
use crate::ingest::InputFile;
use crate::outcomes::ColumnKind;

/// One per-query score row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScoreRow {
    pub arm: String,
    pub query_id: String,
    pub k: Option<i64>,
    pub dataset: Option<String>,
    pub subset: Option<String>,
    pub target: Option<String>,
    pub run: Option<String>,
    /// Every numeric metric cell of the row.
    pub values: BTreeMap<String, f64>,
    pub file: String,
    pub line: usize,
}

/// Per-query scores as read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScoreTable {
    pub name: String,
    pub rows: Vec<ScoreRow>,
    /// Numeric columns that can serve as the metric.
    pub metrics: Vec<String>,
    /// The metric used when none is named.
    pub default_metric: String,
}

impl ScoreTable {
    /// Whether every present value of `metric` is 0 or 1.
    pub fn binary(&self, metric: &str) -> bool {
        self.rows.iter().filter_map(|r| r.values.get(metric)).all(|v| *v == 0.0 || *v == 1.0)
    }
}

/// Which columns hold what (`None`: aliases).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ScoreColumns {
    pub arm: Option<String>,
    pub query_id: Option<String>,
    pub k: Option<String>,
    pub metric: Option<String>,
}

pub const ARM_ALIASES: [&str; 5] = ["arm", "system", "method", "config", "variant"];
pub const K_ALIASES: [&str; 4] = ["k", "K", "top_k", "cutoff"];
pub const METRIC_ALIASES: [&str; 8] = ["score", "value", "sem", "correct", "f1", "em", "accuracy", "compliance"];
const KEY_COLUMNS: [&str; 6] = ["dataset", "subset", "target", "run", "category", "line"];

/// Reads per-query scores (see `docs/claims.md` for the columns).
pub fn read_scores(file: &InputFile, cols: &ScoreColumns) -> Result<ScoreTable, IngestError> {
    let table = read_long_table(file)?;
    let arm = require_column(&table, cols.arm.as_deref(), &ARM_ALIASES, "arm")?;
    let id = require_column(&table, cols.query_id.as_deref(), &ID_ALIASES, "query id")?;
    let k = pick_column(&table, cols.k.as_deref(), &K_ALIASES)?;
    let dataset = pick_column(&table, None, &["dataset", "task", "sub_dataset"])?;
    let subset = pick_column(&table, None, &["subset", "category"])?;
    let target = pick_column(&table, None, &["target"])?;
    let run = pick_column(&table, None, &["run", "run_id", "phase"])?;
    let taken: Vec<&str> =
        [Some(&arm), Some(&id), k.as_ref(), dataset.as_ref(), subset.as_ref(), target.as_ref(), run.as_ref()]
            .into_iter()
            .flatten()
            .map(String::as_str)
            .collect();
    let metrics: Vec<String> = table
        .columns
        .iter()
        .filter(|c| matches!(c.kind, ColumnKind::Numeric | ColumnKind::Binary))
        .filter(|c| !taken.contains(&c.name.as_str()) && !KEY_COLUMNS.contains(&c.name.as_str()))
        .map(|c| c.name.clone())
        .collect();
    let default_metric = match &cols.metric {
        Some(m) => {
            if !metrics.contains(m) {
                return Err(IngestError::new(
                    Location::file(&table.name).with_field(m.clone()),
                    format!("no numeric column `{m}` (numeric columns: {})", metrics.join(", ")),
                ));
            }
            m.clone()
        }
        None => METRIC_ALIASES
            .iter()
            .find(|a| metrics.iter().any(|m| m == *a))
            .map(|a| a.to_string())
            .or_else(|| (metrics.len() == 1).then(|| metrics[0].clone()))
            .ok_or_else(|| {
                IngestError::new(
                    Location::file(&table.name),
                    format!(
                        "which column is the score? none of {} and {} numeric columns ({}); name one",
                        METRIC_ALIASES.join(", "),
                        metrics.len(),
                        metrics.join(", ")
                    ),
                )
            })?,
    };
    let mut rows = Vec::with_capacity(table.rows.len());
    for r in &table.rows {
        let loc = table.location(r);
        let (Some(a), Some(q)) = (cell(r, Some(&arm)), cell(r, Some(&id))) else {
            let f = if cell(r, Some(&arm)).is_none() { &arm } else { &id };
            return Err(IngestError::new(loc.with_field(f.clone()), format!("`{f}` is empty")));
        };
        let values = metrics.iter().filter_map(|m| r.values.get(m).map(|v| (m.clone(), *v))).collect();
        rows.push(ScoreRow {
            arm: a.to_string(),
            query_id: q.to_string(),
            k: integer(&table, r, k.as_deref())?,
            dataset: cell(r, dataset.as_deref()).map(str::to_string),
            subset: cell(r, subset.as_deref()).map(str::to_string),
            target: cell(r, target.as_deref()).map(str::to_string),
            run: cell(r, run.as_deref()).map(str::to_string),
            values,
            file: loc.file.clone(),
            line: r.line,
        });
    }
    Ok(ScoreTable { name: table.name.clone(), rows, metrics, default_metric })
}
