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
//! eligible under every target but B. With the subset `shared` (TIAP Table 5's "fixed shared
//! subset", n = 453), every method of every run of a group is averaged over the same queries:
//! those eligible under every target in every run of the group (B_or_A is then B). `tau_d`: the Kendall-tau distance between the order of a
//! group's runs under the method and under A — the number of run pairs the two order oppositely
//! (a pair tied under either is not counted); none for A itself, or with fewer than two runs.
//! `winners` (TIAP Table 5): for each pair of a group's runs and each method, the run with the
//! higher mean (`tie` when equal to 12 significant digits, as for τ_d).
//! Reference: `tests/reference/alignment/make_shift_reference.py` (NumPy, SciPy's `gmean`).

use serde::{Deserialize, Serialize};

use super::read::Joined;
use crate::stats::bootstrap::mean;

crate::choice! {
    /// The queries a run's means are taken over.
    #[derive(Default)]
    pub enum Subset {
        /// Each target's own eligible queries (TIAP Table 8).
        #[default]
        Eligible,
        /// The queries eligible under every target in every run of the group (TIAP Table 5).
        Shared,
    }
}

/// The most runs of one group whose pairs get a winner per method (190 pairs).
pub const MAX_WINNER_RUNS: usize = 20;

/// The run with the higher mean of two runs of a group, under one method.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WinnerRow {
    pub group: String,
    pub run_a: String,
    pub run_b: String,
    pub method: String,
    pub mean_a: Option<f64>,
    pub mean_b: Option<f64>,
    /// `run_a`'s or `run_b`'s name, `tie`, or empty when a mean is missing.
    pub winner: String,
}

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
pub fn aggregations(j: &Joined, a: &str, b: &str, subset: Subset) -> Aggregated {
    let fallback = fallback_name(a, b);
    let mut methods: Vec<String> = j.targets.clone();
    methods.push(fallback.clone());
    methods.extend(METHODS.iter().map(|m| m.to_string()));
    let groups = j.groups();
    let group_index: Vec<usize> = {
        let mut g = vec![0; j.runs.len()];
        for (gi, (_, members)) in groups.iter().enumerate() {
            for &r in members {
                g[r] = gi;
            }
        }
        g
    };
    // With `shared`: per group, the queries every run of it has under every target.
    let shared: Option<Vec<std::collections::HashSet<&str>>> = (subset == Subset::Shared).then(|| {
        let mut count: Vec<std::collections::HashMap<&str, usize>> = vec![Default::default(); groups.len()];
        for (i, ((_, query), &r)) in j.keys.iter().zip(&j.key_run).enumerate() {
            if j.targets.iter().all(|t| j.identity[i].contains_key(t)) {
                *count[group_index[r]].entry(query.as_str()).or_default() += 1;
            }
        }
        count
            .into_iter()
            .zip(&groups)
            .map(|(c, (_, members))| c.into_iter().filter(|(_, n)| *n == members.len()).map(|(q, _)| q).collect())
            .collect()
    });
    // Per run, per method: the per-query values averaged.
    let mut values: Vec<Vec<Vec<f64>>> = vec![vec![Vec::new(); methods.len()]; j.runs.len()];
    let k = j.targets.len();
    for (i, ((_, query), &r)) in j.keys.iter().zip(&j.key_run).enumerate() {
        if let Some(sets) = &shared
            && !sets[group_index[r]].contains(query.as_str())
        {
            continue;
        }
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
    let mut winners = Vec::new();
    let mut unshared = Vec::new();
    for (g, members) in groups {
        let shares = (members.len() <= MAX_ORDERED_RUNS).then(|| sharing(j, &members));
        let share = |x: usize, y: usize| shares.as_ref().is_some_and(|s| s[x][y / 64] >> (y % 64) & 1 == 1);
        // The pairs that share no query (only where the group is small enough to order).
        let apart: Vec<(usize, usize)> = match shares {
            Some(_) => (0..members.len())
                .flat_map(|x| (x + 1..members.len()).map(move |y| (x, y)))
                .filter(|&(x, y)| !share(x, y))
                .collect(),
            None => Vec::new(),
        };
        if let Some(&(x, y)) = apart.first() {
            unshared.push(format!(
                "{}runs `{}` and `{}` share no query{}: they are not ordered or compared (no τ_d, no winner); group the runs \
                 by what tells their query sets apart (e.g. the dataset) with the setting `group`",
                if g.is_empty() { String::new() } else { format!("group `{g}`: ") },
                j.runs[members[x]],
                j.runs[members[y]],
                if apart.len() > 1 { format!(", and {} more pairs", apart.len() - 1) } else { String::new() },
            ));
        }
        for (mi, method) in methods.iter().enumerate() {
            let tau_d = match reference {
                Some(ref_i) if ref_i != mi && members.len() > 1 && shares.is_some() && apart.is_empty() => {
                    let order: Vec<(f64, f64)> =
                        members.iter().filter_map(|&r| means[r][ref_i].zip(means[r][mi])).collect();
                    (order.len() > 1).then(|| discordant(&order))
                }
                _ => None,
            };
            if members.len() <= MAX_WINNER_RUNS {
                for (x, &ra) in members.iter().enumerate() {
                    for (y, &rb) in members.iter().enumerate().skip(x + 1) {
                        let (ma, mb) = (means[ra][mi], means[rb][mi]);
                        let winner = match (ma, mb) {
                            _ if !share(x, y) => String::new(),
                            (Some(x), Some(y)) if tied(x, y) => "tie".into(),
                            (Some(x), Some(y)) if x > y => j.runs[ra].clone(),
                            (Some(_), Some(_)) => j.runs[rb].clone(),
                            _ => String::new(),
                        };
                        winners.push(WinnerRow {
                            group: g.into(),
                            run_a: j.runs[ra].clone(),
                            run_b: j.runs[rb].clone(),
                            method: method.clone(),
                            mean_a: ma,
                            mean_b: mb,
                            winner,
                        });
                    }
                }
            }
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
    Aggregated { rows, winners, unshared }
}

/// The aggregations of every run, the winners, and per group the runs that share no query.
#[derive(Debug, Clone, Default)]
pub struct Aggregated {
    pub rows: Vec<AggregationRow>,
    pub winners: Vec<WinnerRow>,
    /// One note per group with runs that share no query (never ordered or compared).
    pub unshared: Vec<String>,
}

/// For a group's runs (at most [`MAX_ORDERED_RUNS`]), which share at least one query: per run,
/// a bit set over the group's runs, built from each query's runs in one pass over the keys.
fn sharing(j: &Joined, members: &[usize]) -> Vec<Vec<u64>> {
    let words = members.len().div_ceil(64);
    let mut position = vec![usize::MAX; j.runs.len()];
    for (m, &r) in members.iter().enumerate() {
        position[r] = m;
    }
    let mut of_query: std::collections::HashMap<&str, Vec<u64>> = std::collections::HashMap::new();
    let mut queries_of: Vec<Vec<&str>> = vec![Vec::new(); members.len()];
    for ((_, query), &r) in j.keys.iter().zip(&j.key_run) {
        let m = position[r];
        if m == usize::MAX {
            continue;
        }
        of_query.entry(query.as_str()).or_insert_with(|| vec![0; words])[m / 64] |= 1 << (m % 64);
        queries_of[m].push(query.as_str());
    }
    queries_of
        .iter()
        .map(|qs| {
            let mut bits = vec![0u64; words];
            for q in qs {
                for (w, x) in bits.iter_mut().zip(&of_query[q]) {
                    *w |= x;
                }
            }
            bits
        })
        .collect()
}

/// Two means equal to 12 significant digits: a tie (means of the same values summed in another
/// order differ in the last bits).
fn tied(x: f64, y: f64) -> bool {
    (x - y).abs() <= 1e-12 * x.abs().max(y.abs()).max(1.0)
}

/// The pairs of (reference, method) values ordered oppositely (a tie under either is not a
/// discordance): the Kendall-tau distance.
fn discordant(x: &[(f64, f64)]) -> usize {
    let mut d = 0;
    for i in 0..x.len() {
        for j in i + 1..x.len() {
            let (a, b) = ((x[i].0, x[j].0), (x[i].1, x[j].1));
            if !tied(a.0, a.1) && !tied(b.0, b.1) && (a.0 > a.1) != (b.0 > b.1) {
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
