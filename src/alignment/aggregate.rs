//! Target aggregations (TIAP Appendix B, Table 8): can one score absorb the choice of target?
//!
//! Per run, the mean of the continuous metric m (nDCG@60) under each method:
//!
//! ```text
//! T (each target)    mean m_T(q) over T's eligible queries
//! B_or_A             mean over A's eligible queries of m_B(q) where q is B-eligible, else m_A(q)
//!                    (TIAP's "Canonical" of Table 8: canonical, Raw where no canonical target)
//! arithmetic_mean    mean over q of (1/k) Σ_T x_T(q)
//! geometric_mean     mean over q of (Π_T x_T(q))^(1/k)
//! minimum            mean over q of min_T x_T(q)
//! ```
//!
//! where x(q) is the vector of every target's m(q) with B's replaced by B_or_A's, over the queries
//! eligible under every target but B. `tau_d`: the Kendall-tau distance between the order of a
//! group's runs under the method and under A — the number of run pairs the two order oppositely
//! (a pair tied under either is not counted); none for A itself, or with fewer than two runs.
//! Reference: `tests/reference/alignment/make_shift_reference.py` (NumPy, SciPy's `gmean`).

use serde::{Deserialize, Serialize};

use super::read::Joined;
use crate::stats::bootstrap::mean;

/// The aggregation methods after the targets, in the order of the table.
pub const METHODS: [&str; 3] = ["arithmetic_mean", "geometric_mean", "minimum"];

/// One run's mean under one method.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AggregationRow {
    pub group: String,
    pub run: String,
    /// A target, `B_or_A` (e.g. `canonical_or_raw`), or an aggregation of every target.
    pub method: String,
    /// Queries averaged.
    pub n: usize,
    pub mean: Option<f64>,
    /// Run pairs ordered opposite to the reference target's order, within the group.
    pub tau_d: Option<usize>,
}

/// The most runs of one group whose order is compared (τ_d counts every pair of runs: about
/// 200,000 pairs, as the run-identity table); a larger group's τ_d is left empty and said.
pub const MAX_ORDERED_RUNS: usize = 632;

/// The name of B with A as its fallback.
pub fn fallback_name(a: &str, b: &str) -> String {
    format!("{b}_or_{a}")
}

/// Every run's mean under each target, B with A as fallback, and the aggregations; then each
/// method's τ_d from A's order within each group.
pub fn aggregations(j: &Joined, a: &str, b: &str) -> Vec<AggregationRow> {
    let fallback = fallback_name(a, b);
    let mut methods: Vec<String> = j.targets.clone();
    methods.push(fallback.clone());
    methods.extend(METHODS.iter().map(|m| m.to_string()));
    let run_index: std::collections::HashMap<&str, usize> =
        j.runs.iter().enumerate().map(|(i, r)| (r.as_str(), i)).collect();
    // Per run, per method: the per-query values averaged.
    let mut values: Vec<Vec<Vec<f64>>> = vec![vec![Vec::new(); methods.len()]; j.runs.len()];
    let k = j.targets.len();
    for (i, (run, _)) in j.keys.iter().enumerate() {
        let Some(&r) = run_index.get(run.as_str()) else { continue };
        let m = &j.identity[i];
        for (t, target) in j.targets.iter().enumerate() {
            if let Some(&v) = m.get(target) {
                values[r][t].push(v);
            }
        }
        let Some(&va) = m.get(a) else { continue };
        let vb = m.get(b).copied().unwrap_or(va);
        values[r][k].push(vb);
        let x: Option<Vec<f64>> = j.targets.iter().map(|t| if t == b { Some(vb) } else { m.get(t).copied() }).collect();
        if let Some(x) = x {
            let n = x.len() as f64;
            values[r][k + 1].push(x.iter().sum::<f64>() / n);
            values[r][k + 2].push(x.iter().product::<f64>().powf(1.0 / n));
            values[r][k + 3].push(x.iter().copied().fold(f64::INFINITY, f64::min));
        }
    }
    let means: Vec<Vec<Option<f64>>> = values.iter().map(|per| per.iter().map(|v| mean(v)).collect()).collect();
    let reference = j.targets.iter().position(|t| t == a);
    let mut rows = Vec::new();
    for (g, members) in j.groups() {
        for (mi, method) in methods.iter().enumerate() {
            let tau_d = match reference {
                Some(ref_i) if ref_i != mi && members.len() > 1 && members.len() <= MAX_ORDERED_RUNS => {
                    let order: Vec<(f64, f64)> =
                        members.iter().filter_map(|&r| means[r][ref_i].zip(means[r][mi])).collect();
                    (order.len() > 1).then(|| discordant(&order))
                }
                _ => None,
            };
            for &r in &members {
                rows.push(AggregationRow {
                    group: g.into(),
                    run: j.runs[r].clone(),
                    method: method.clone(),
                    n: values[r][mi].len(),
                    mean: means[r][mi],
                    tau_d,
                });
            }
        }
    }
    rows
}

/// The pairs of (reference, method) values ordered oppositely (a tie under either is not a
/// discordance): the Kendall-tau distance.
fn discordant(x: &[(f64, f64)]) -> usize {
    let mut d = 0;
    for i in 0..x.len() {
        for j in i + 1..x.len() {
            if (x[i].0 - x[j].0) * (x[i].1 - x[j].1) < 0.0 {
                d += 1;
            }
        }
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    /// TIAP Table 8, LongMemEval-S, from its printed means: Raw orders the providers
    /// all-MiniLM > BGE-M3 > lexical > mxbai; Source puts mxbai first (τ_d = 3), the geometric
    /// mean keeps Raw's order (τ_d = 0).
    #[test]
    fn kendall_tau_distance_of_table_8() {
        let raw = [0.154, 0.157, 0.155, 0.134];
        let source = [0.307, 0.338, 0.333, 0.361];
        let geom = [0.215, 0.228, 0.226, 0.187];
        let pair = |m: &[f64; 4]| raw.iter().copied().zip(m.iter().copied()).collect::<Vec<_>>();
        assert_eq!(discordant(&pair(&source)), 3);
        assert_eq!(discordant(&pair(&geom)), 0);
        assert_eq!(discordant(&[(1.0, 1.0), (1.0, 2.0)]), 0, "a tie is not a discordance");
    }
}
