//! Rank correlation and ordering distances.

use serde::{Deserialize, Serialize};

use super::Interval;
use super::normal;
use super::ranks::average_ranks;

/// Pearson's r; `None` when n < 2 or a variable is constant.
pub fn pearson(x: &[f64], y: &[f64]) -> Option<f64> {
    let n = x.len();
    if n < 2 || y.len() != n {
        return None;
    }
    let mx = x.iter().sum::<f64>() / n as f64;
    let my = y.iter().sum::<f64>() / n as f64;
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in x.iter().zip(y) {
        sxy += (a - mx) * (b - my);
        sxx += (a - mx).powi(2);
        syy += (b - my).powi(2);
    }
    if sxx <= 0.0 || syy <= 0.0 {
        return None;
    }
    Some((sxy / (sxx * syy).sqrt()).clamp(-1.0, 1.0))
}

/// Spearman's ρ: Pearson's r on average ranks (ties get mid-ranks: `scipy.stats.spearmanr`).
pub fn spearman(x: &[f64], y: &[f64]) -> Option<f64> {
    if x.len() != y.len() {
        return None;
    }
    pearson(&average_ranks(x), &average_ranks(y))
}

/// Fisher-z interval for a correlation: tanh(atanh(ρ) ± z_{1−α/2}/√(n − 3)) (Fisher 1921;
/// for Spearman's ρ this is the usual large-sample approximation). `None` for n ≤ 3 or |ρ| = 1.
pub fn fisher_z_interval(rho: f64, n: usize, confidence: f64) -> Option<Interval> {
    if n <= 3 || rho.abs() >= 1.0 {
        return None;
    }
    let z = rho.atanh();
    let h = normal::z_two_sided(confidence) / ((n - 3) as f64).sqrt();
    Some(Interval { low: (z - h).tanh(), high: (z + h).tanh() })
}

/// Kendall's τ distance between two orderings of the same items: the number of discordant
/// pairs (pairs ordered one way in `a` and the other in `b`), and that count normalised by
/// n(n − 1)/2. Items are ids; each ordering lists every item once, best first. Pairs tied in
/// either ordering do not exist here (orderings are strict). `None` when the item sets differ.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct KendallDistance {
    pub discordant: usize,
    pub pairs: usize,
    pub normalized: f64,
}

pub fn kendall_tau_distance<T: PartialEq>(a: &[T], b: &[T]) -> Option<KendallDistance> {
    if a.len() != b.len() {
        return None;
    }
    let pos_b: Vec<usize> = a.iter().map(|x| b.iter().position(|y| y == x)).collect::<Option<Vec<_>>>()?;
    let n = a.len();
    let mut discordant = 0;
    for i in 0..n {
        for j in i + 1..n {
            if pos_b[i] > pos_b[j] {
                discordant += 1;
            }
        }
    }
    let pairs = n * n.saturating_sub(1) / 2;
    Some(KendallDistance {
        discordant,
        pairs,
        normalized: if pairs > 0 { discordant as f64 / pairs as f64 } else { 0.0 },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // scipy.stats.spearmanr; Fisher-z by hand (tests/reference/stats has more cases)
    #[test]
    fn spearman_with_ties() {
        let x = [1.0, 2.0, 2.0, 3.0, 5.0, 5.0, 5.0, 8.0, 9.0, 10.0, 4.0, 4.0];
        let y = [2.0, 1.0, 3.0, 3.0, 4.0, 6.0, 5.0, 9.0, 7.0, 10.0, 4.0, 2.0];
        let r = spearman(&x, &y).unwrap();
        assert!((r - 0.9147554380040056).abs() < 1e-12);
        let ci = fisher_z_interval(r, 12, 0.95).unwrap();
        assert!((ci.low - 0.7175562122397099).abs() < 1e-9 && (ci.high - 0.9761816030662616).abs() < 1e-9);
        assert!(spearman(&[1.0, 1.0], &[1.0, 2.0]).is_none());
    }

    // TIAP Table 8: τ_d recomputes as discordant provider pairs (seed-001 §4.8)
    #[test]
    fn kendall_distance_table8() {
        let raw = ["bge", "allminilm", "mxbai", "lexical"];
        let can = ["allminilm", "mxbai", "bge", "lexical"];
        assert_eq!(kendall_tau_distance(&raw, &can).unwrap().discordant, 2);
        let lme_raw = ["allminilm", "bge", "lexical", "mxbai"];
        let lme_src = ["mxbai", "allminilm", "bge", "lexical"];
        let d = kendall_tau_distance(&lme_raw, &lme_src).unwrap();
        assert_eq!((d.discordant, d.pairs), (3, 6));
        assert!(kendall_tau_distance(&["a"], &["b"]).is_none());
    }
}
