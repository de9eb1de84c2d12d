//! Compliance against retrieval recall (BriefBench Tables 45 and 34): how compliance rises with
//! the share of the governing decisions retrieved, and why a task failed.
//!
//! ```text
//! recall bins   r = 0 | 0 < r ≤ 0.5 | 0.5 < r < 1 | r = 1     (rows with a recall)
//!               n, mean compliance; a Wilson interval when the bin's compliance is 0/1
//! failures      a failure is a row whose compliance is below 1 (the decision not fully
//!               honoured; BriefBench's definition: it gives Table 34 to the printed percent
//!               from the released rows):
//!               not retrieved      recall = 0
//!               retrieved, unused  recall > 0
//!               `partial` counts the failures with 0 < compliance < 1 (partly honoured)
//! ```
//!
//! Each per group: over every arm (`arm` = `all arms`, the paper's pooled table) and per arm.
//! Rows without a recall are counted (`no_recall`), never binned.

use serde::{Deserialize, Serialize};

use super::read::Row;
use crate::stats::proportions::wilson_interval;

/// Whether a recall falls in a bin.
pub type InBin = fn(f64) -> bool;

/// The bins of recall, by name and membership.
pub const RECALL_BINS: [(&str, InBin); 4] = [
    ("r = 0", |r| r == 0.0),
    ("0 < r \u{2264} 0.5", |r| r > 0.0 && r <= 0.5),
    ("0.5 < r < 1", |r| r > 0.5 && r < 1.0),
    ("r = 1", |r| r == 1.0),
];

/// The arm name of a group's rows over every arm.
pub const ALL_ARMS: &str = "all arms";

/// Compliance in one recall bin of one (group, arm).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecallBinRow {
    pub group: String,
    pub arm: String,
    pub bin: String,
    pub n: usize,
    /// Mean compliance of the bin's rows (`None` when empty).
    pub compliance: Option<f64>,
    /// Wilson interval, when the bin's compliance is 0/1.
    pub low: Option<f64>,
    pub high: Option<f64>,
}

/// Why the tasks of one (group, arm) failed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FailureRow {
    pub group: String,
    pub arm: String,
    /// Rows with a recall.
    pub n: usize,
    /// Rows whose compliance is below 1.
    pub failures: usize,
    /// Failures whose recall is 0: the decision was never retrieved.
    pub not_retrieved: usize,
    /// Failures whose recall is above 0: retrieved, not used.
    pub retrieved_not_used: usize,
    /// not_retrieved / failures (`None` without a failure).
    pub not_retrieved_share: Option<f64>,
    pub retrieved_not_used_share: Option<f64>,
    /// Failures with 0 < compliance < 1: partly honoured.
    pub partial: usize,
    /// Rows without a recall, not classified.
    pub no_recall: usize,
}

/// The recall bins and failure modes of each group, over every arm and per arm, in the order
/// the groups and arms are first seen.
pub fn recall_tables(rows: &[Row], confidence: f64) -> (Vec<RecallBinRow>, Vec<FailureRow>) {
    let mut bins = Vec::new();
    let mut failures = Vec::new();
    for (g, in_group) in crate::distinct::groups_first_seen(rows.iter(), |r| r.group.clone()) {
        if !in_group.iter().any(|r| r.recall.is_some()) {
            continue;
        }
        let mut sets: Vec<(String, Vec<&Row>)> = vec![(ALL_ARMS.to_string(), in_group.clone())];
        sets.extend(crate::distinct::groups_first_seen(in_group.iter().copied(), |r| r.arm.clone()));
        for (arm, set) in sets {
            for (bin, member) in RECALL_BINS {
                let c: Vec<f64> = set.iter().filter(|r| r.recall.is_some_and(member)).map(|r| r.compliance).collect();
                let n = c.len();
                let mean = (n > 0).then(|| c.iter().sum::<f64>() / n as f64);
                let binary = c.iter().all(|&x| x == 0.0 || x == 1.0);
                let ci = if n > 0 && binary { wilson_interval(c.iter().sum(), n as f64, confidence) } else { None };
                bins.push(RecallBinRow {
                    group: g.clone(),
                    arm: arm.clone(),
                    bin: bin.to_string(),
                    n,
                    compliance: mean,
                    low: ci.map(|i| i.low),
                    high: ci.map(|i| i.high),
                });
            }
            let with: Vec<&&Row> = set.iter().filter(|r| r.recall.is_some()).collect();
            let failed: Vec<&&&Row> = with.iter().filter(|r| r.compliance < 1.0).collect();
            let not_retrieved = failed.iter().filter(|r| r.recall == Some(0.0)).count();
            let share = |k: usize| (!failed.is_empty()).then(|| k as f64 / failed.len() as f64);
            failures.push(FailureRow {
                group: g.clone(),
                arm,
                n: with.len(),
                failures: failed.len(),
                not_retrieved,
                retrieved_not_used: failed.len() - not_retrieved,
                not_retrieved_share: share(not_retrieved),
                retrieved_not_used_share: share(failed.len() - not_retrieved),
                partial: failed.iter().filter(|r| r.compliance > 0.0).count(),
                no_recall: set.len() - with.len(),
            });
        }
    }
    (bins, failures)
}
