//! Post-hoc tests after Friedman (Demšar 2006, JMLR 7:1–30, §3.2.2): the Nemenyi critical
//! difference for all pairs, Bonferroni–Dunn against a control, and the cliques of arms not
//! significantly different, as drawn in a critical-difference diagram.

use serde::{Deserialize, Serialize};

use super::normal;
use super::studentized_range::range_quantile;

/// Nemenyi q_α = q_{1−α}(k, ∞) / √2 (studentized range with infinite df).
pub fn nemenyi_q(k: usize, alpha: f64) -> Option<f64> {
    range_quantile(1.0 - alpha, k).map(|q| q / std::f64::consts::SQRT_2)
}

/// CD = q_α · √(k(k + 1) / (6N)) for k arms on N blocks: mean ranks further apart than CD
/// differ significantly.
pub fn critical_difference(k: usize, n_blocks: usize, alpha: f64) -> Option<f64> {
    if n_blocks == 0 {
        return None;
    }
    let kf = k as f64;
    nemenyi_q(k, alpha).map(|q| q * (kf * (kf + 1.0) / (6.0 * n_blocks as f64)).sqrt())
}

/// Bonferroni–Dunn critical value against one control: q = Φ⁻¹(1 − α / (2(k − 1))).
pub fn bonferroni_dunn_q(k: usize, alpha: f64) -> Option<f64> {
    if k < 2 {
        return None;
    }
    Some(normal::quantile(1.0 - alpha / (2.0 * (k - 1) as f64)))
}

/// Bonferroni–Dunn CD = q · √(k(k + 1) / (6N)).
pub fn bonferroni_dunn_cd(k: usize, n_blocks: usize, alpha: f64) -> Option<f64> {
    if n_blocks == 0 {
        return None;
    }
    let kf = k as f64;
    bonferroni_dunn_q(k, alpha).map(|q| q * (kf * (kf + 1.0) / (6.0 * n_blocks as f64)).sqrt())
}

/// A group of arms whose mean ranks all lie within one CD: drawn as one bar.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Clique {
    /// Arm indices, best (lowest mean rank) first.
    pub arms: Vec<usize>,
    pub low_rank: f64,
    pub high_rank: f64,
}

/// Maximal cliques of arms not significantly different (Demšar's drawing rule): sort arms by
/// mean rank; for each arm, the run of arms within `cd` of it (|r_j − r_i| ≤ cd, Nemenyi's
/// "differ by at least CD" is significant); keep runs of two or more arms that no other run
/// contains. Because ranks are on a line, these runs are exactly the maximal cliques.
pub fn cliques(mean_ranks: &[f64], cd: f64) -> Vec<Clique> {
    let mut order: Vec<usize> = (0..mean_ranks.len()).collect();
    order.sort_by(|&a, &b| mean_ranks[a].total_cmp(&mean_ranks[b]).then(a.cmp(&b)));
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for i in 0..order.len() {
        let mut j = i;
        while j + 1 < order.len() && mean_ranks[order[j + 1]] - mean_ranks[order[i]] < cd {
            j += 1;
        }
        if j > i && !runs.iter().any(|&(a, b)| a <= i && j <= b) {
            runs.push((i, j));
        }
    }
    runs.into_iter()
        .map(|(i, j)| Clique {
            arms: order[i..=j].to_vec(),
            low_rank: mean_ranks[order[i]],
            high_rank: mean_ranks[order[j]],
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn csv() -> Vec<(usize, f64, f64, f64)> {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures/reference/nemenyi_qalpha.csv");
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        text.lines()
            .skip(1)
            .map(|l| {
                let f: Vec<f64> = l.split(',').map(|x| x.parse().unwrap()).collect();
                (f[0] as usize, f[1], f[2], f[3])
            })
            .collect()
    }

    // SciPy studentized_range.ppf(1 − α, k, inf)/√2 for k = 2..50 (shared/fixtures/reference)
    #[test]
    fn q_alpha_matches_scipy_for_every_k() {
        let rows = csv();
        assert_eq!(rows.len(), 49);
        for (k, q10, q05, q01) in rows {
            for (alpha, want) in [(0.10, q10), (0.05, q05), (0.01, q01)] {
                let got = nemenyi_q(k, alpha).unwrap();
                assert!((got - want).abs() < 2e-6, "k={k} α={alpha}: {got} vs {want}");
            }
        }
    }

    // Demšar (2006) Table 5 and §3.2 (conventions.md §3.2)
    #[test]
    fn demsar_critical_differences() {
        assert!((nemenyi_q(3, 0.05).unwrap() - 2.343).abs() < 1e-3);
        assert!((nemenyi_q(7, 0.05).unwrap() - 2.949).abs() < 1e-3);
        assert!((nemenyi_q(5, 0.10).unwrap() - 2.459).abs() < 1e-3);
        assert!((critical_difference(4, 14, 0.05).unwrap() - 1.25).abs() < 5e-3);
        assert!((critical_difference(4, 14, 0.10).unwrap() - 1.12).abs() < 5e-3);
        assert!((bonferroni_dunn_q(4, 0.05).unwrap() - 2.394).abs() < 1e-3);
        assert!((bonferroni_dunn_q(4, 0.10).unwrap() - 2.128).abs() < 1e-3);
        assert!((bonferroni_dunn_cd(4, 14, 0.05).unwrap() - 1.168).abs() < 1e-3);
        assert!((bonferroni_dunn_cd(4, 14, 0.10).unwrap() - 1.038).abs() < 1e-3);
        // BriefBench: k = 8, n = 120 → 0.9585; n = 40 → 1.660 (seed-002 §2.7)
        assert!((critical_difference(8, 120, 0.05).unwrap() - 0.9585).abs() < 5e-4);
        assert!((critical_difference(8, 40, 0.05).unwrap() - 1.660).abs() < 5e-4);
        // critical_difference.R: 6 blocks × 4 arms → 1.914843
        assert!((critical_difference(4, 6, 0.05).unwrap() - 1.914843).abs() < 5e-6);
    }

    #[test]
    fn cliques_follow_demsar() {
        // Demšar's example at α = 0.10 (CD 1.12): ranks C4.5 3.143, +m 2.000, +cf 2.893, +m+cf 1.964
        let ranks = [3.143, 2.000, 2.893, 1.964];
        let c = cliques(&ranks, 1.12);
        // groups: {m+cf, m, cf} and {cf, C4.5}; C4.5 differs from m and m+cf
        assert_eq!(c.len(), 2);
        assert_eq!(c[0].arms, vec![3, 1, 2]);
        assert_eq!(c[1].arms, vec![2, 0]);
        // at α = 0.05 (CD 1.25) no pair differs: one bar over all four
        let c = cliques(&ranks, 1.25);
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].arms.len(), 4);
        // everything significantly different: no bars
        assert!(cliques(&[1.0, 2.0, 3.0], 0.5).is_empty());
    }
}
