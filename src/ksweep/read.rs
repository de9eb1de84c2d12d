//! Per-query scores of arms: one row per (arm, dataset, K, query) with one or more metric
//! columns (CSV or JSON, read like answers and ablation traces).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::answers::read::{ID_ALIASES, cell, integer, pick_column, read_long_table, require_column};
use crate::error::{IngestError, Location};
use crate::ingest::InputFile;
use crate::ingest::warnings::{Kind, Severity, Warnings};
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
    /// Fingerprint of the arm's configuration apart from K (`config_hash` column).
    #[serde(default)]
    pub config_hash: Option<String>,
    /// Fingerprint of the prompt template, common to the arms compared (`prompt_hash` column).
    #[serde(default)]
    pub prompt_hash: Option<String>,
}

/// Every kind of warning of the per-query score reader.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScoreWarningKind {
    /// The same query id twice for one (run, dataset, target, arm, K): the first row is kept.
    DuplicateQueryId,
}

impl Kind for ScoreWarningKind {
    fn severity(self) -> Severity {
        Severity::Warning
    }
    fn describe(self) -> &'static str {
        match self {
            ScoreWarningKind::DuplicateQueryId => {
                "query ids given twice for one (run, dataset, target, arm, K): first row kept, the later one not used"
            }
        }
    }
}

/// Warnings of the per-query score reader (the shared counter).
pub type ScoreWarnings = Warnings<ScoreWarningKind>;

/// A query id given a second time for the same (run, dataset, target, arm, K): where both rows
/// are. The second row is not used (the first is kept, as for every repeated id in memaudit).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DuplicateQueryId {
    pub run: Option<String>,
    pub dataset: Option<String>,
    pub target: Option<String>,
    pub arm: String,
    pub k: Option<i64>,
    pub query_id: String,
    pub file: String,
    /// The line of the row kept.
    pub first_line: usize,
    /// The line of the row left out.
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
    /// Rows left out because their query id was already given for the same cell.
    #[serde(default)]
    pub duplicates: Vec<DuplicateQueryId>,
    /// Counted reading warnings (every left-out row, naming file and both lines).
    #[serde(default)]
    pub warnings: ScoreWarnings,
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
/// The fingerprint columns (`docs/claims.md`): never metrics.
pub const CONFIG_HASH: &str = "config_hash";
pub const PROMPT_HASH: &str = "prompt_hash";

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
    let config_hash = pick_column(&table, None, &[CONFIG_HASH])?;
    let prompt_hash = pick_column(&table, None, &[PROMPT_HASH])?;
    let taken: Vec<&str> = [
        Some(&arm),
        Some(&id),
        k.as_ref(),
        dataset.as_ref(),
        subset.as_ref(),
        target.as_ref(),
        run.as_ref(),
        config_hash.as_ref(),
        prompt_hash.as_ref(),
    ]
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
    let mut rows: Vec<ScoreRow> = Vec::with_capacity(table.rows.len());
    let mut duplicates = Vec::new();
    let mut warnings = ScoreWarnings::default();
    type CellKey = (Option<String>, Option<String>, Option<String>, String, Option<i64>, String);
    let mut first: std::collections::HashMap<CellKey, usize> = std::collections::HashMap::new();
    for r in &table.rows {
        let loc = table.location(r);
        let (Some(a), Some(q)) = (cell(r, Some(&arm)), cell(r, Some(&id))) else {
            let f = if cell(r, Some(&arm)).is_none() { &arm } else { &id };
            return Err(IngestError::new(loc.with_field(f.clone()), format!("`{f}` is empty")));
        };
        let values = metrics.iter().filter_map(|m| r.values.get(m).map(|v| (m.clone(), *v))).collect();
        let row = ScoreRow {
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
            config_hash: cell(r, config_hash.as_deref()).map(str::to_string),
            prompt_hash: cell(r, prompt_hash.as_deref()).map(str::to_string),
        };
        let key =
            (row.run.clone(), row.dataset.clone(), row.target.clone(), row.arm.clone(), row.k, row.query_id.clone());
        if let Some(&first_line) = first.get(&key) {
            let d = DuplicateQueryId {
                run: row.run,
                dataset: row.dataset,
                target: row.target,
                arm: row.arm,
                k: row.k,
                query_id: row.query_id,
                file: row.file,
                first_line,
                line: row.line,
            };
            warnings.add(ScoreWarningKind::DuplicateQueryId, || {
                format!(
                    "{}, line {} and line {}: query `{}` of arm `{}`{}{}",
                    d.file,
                    d.first_line,
                    d.line,
                    d.query_id,
                    d.arm,
                    d.dataset.as_ref().map(|x| format!(", dataset `{x}`")).unwrap_or_default(),
                    d.k.map(|k| format!(", K = {k}")).unwrap_or_default()
                )
            });
            duplicates.push(d);
            continue;
        }
        first.insert(key, row.line);
        rows.push(row);
    }
    Ok(ScoreTable { name: table.name.clone(), rows, metrics, default_metric, duplicates, warnings })
}
