//! The tables of a [`TrecEvalReport`] (`memaudit trec-eval --format csv --table NAME`, the
//! viewer's IR evaluation tables and exports).

use super::evaluate::{Value, ValueName};
use super::unit::TrecEvalReport;
use crate::compare::table::{CompareTable, table as compare_table};
use crate::error::{Error, Result};
use crate::ireval::measure::ValueType;
use crate::report::{Column, Table, num};

crate::choice! {
    /// Tables of an IR evaluation.
    pub enum TrecEvalTable {
        /// One row per run and value: the summary over all queries.
        Summary,
        /// One row per run, query and value (the values trec_eval prints with `-q`).
        PerQuery,
        /// Each run's mean of the compared measure with its interval (two or more runs).
        Arms,
        /// Every pair of runs compared on the compared measure (two or more runs).
        Pairs,
    }
}

/// One value of one run (a row of `summary` and `per_query`).
pub struct EvaluatedValue<'a> {
    pub file: &'a str,
    pub runid: &'a str,
    pub qid: &'a str,
    pub name: &'a ValueName,
    pub value: &'a Value,
}

/// A value as a table cell: integers for counts, full precision otherwise.
pub fn cell(v: &Value, value_type: ValueType) -> String {
    match (v, value_type) {
        (Value::Text(t), _) => t.clone(),
        (Value::Number(x), ValueType::Long) => format!("{}", *x as i64),
        (Value::Number(x), _) => num(Some(*x)),
    }
}

fn summary_columns<'a>() -> [Column<EvaluatedValue<'a>>; 4] {
    crate::columns![EvaluatedValue<'a>;
    "run" => |r| r.file.to_string(),
    "runid" => |r| r.runid.to_string(),
    "measure" => |r| r.name.name.clone(),
    "value" => |r| cell(r.value, r.name.value_type),
    ]
}

fn per_query_columns<'a>() -> [Column<EvaluatedValue<'a>>; 5] {
    crate::columns![EvaluatedValue<'a>;
    "run" => |r| r.file.to_string(),
    "runid" => |r| r.runid.to_string(),
    "query" => |r| r.qid.to_string(),
    "measure" => |r| r.name.name.clone(),
    "value" => |r| cell(r.value, r.name.value_type),
    ]
}

pub fn table(report: &TrecEvalReport, which: TrecEvalTable) -> Result<Table> {
    let name = which.name();
    let comparison = || {
        report
            .comparison
            .as_ref()
            .map(|c| &c.comparison)
            .ok_or_else(|| Error::setting("table", format!("`{name}` compares runs: give two or more runs")))
    };
    Ok(match which {
        TrecEvalTable::Summary => {
            let rows: Vec<EvaluatedValue<'_>> = report
                .runs
                .iter()
                .flat_map(|r| {
                    r.evaluation.names.iter().zip(&r.evaluation.summary).filter_map(move |(n, v)| {
                        v.as_ref().map(|value| EvaluatedValue {
                            file: &r.file,
                            runid: &r.evaluation.runid,
                            qid: "all",
                            name: n,
                            value,
                        })
                    })
                })
                .collect();
            Table::of(name, &summary_columns(), &rows)
        }
        TrecEvalTable::PerQuery => {
            let rows: Vec<EvaluatedValue<'_>> = report
                .runs
                .iter()
                .flat_map(|r| {
                    r.evaluation.queries.iter().flat_map(move |q| {
                        r.evaluation.names.iter().zip(&q.values).filter(|(n, _)| n.per_query).map(move |(n, value)| {
                            EvaluatedValue { file: &r.file, runid: &r.evaluation.runid, qid: &q.qid, name: n, value }
                        })
                    })
                })
                .collect();
            Table::of(name, &per_query_columns(), &rows)
        }
        TrecEvalTable::Arms => {
            let mut t = compare_table(comparison()?, CompareTable::Arms);
            t.name = name.to_string();
            t
        }
        TrecEvalTable::Pairs => {
            let mut t = compare_table(comparison()?, CompareTable::Pairs);
            t.name = name.to_string();
            t
        }
    })
}
