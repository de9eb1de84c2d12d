//! The area under the ROC curve of a score for two classes, with DeLong's interval.

use serde::{Deserialize, Serialize};

use super::normal;

/// An AUC with its DeLong standard error and interval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Auc {
    pub auc: f64,
    pub positives: usize,
    pub negatives: usize,
    /// DeLong standard error (`None` with one score per class or less).
    pub se: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
}

/// ψ(x, y) = 1 if x > y, ½ if equal, 0 else (the definition the sorted counts compute).
#[cfg(test)]
fn psi(x: f64, y: f64) -> f64 {
    if x > y {
        1.0
    } else if x == y {
        0.5
    } else {
        0.0
    }
}

/// AUC = P(X > Y) + ½P(X = Y) for a positive's score X and a negative's Y — the Mann–Whitney
/// statistic U/(mn) (Hanley & McNeil 1982), so ties count ½. DeLong, DeLong & Clarke-Pearson
/// (1988): structural components V₁₀(xᵢ) = mean_j ψ(xᵢ, yⱼ), V₀₁(yⱼ) = mean_i ψ(xᵢ, yⱼ);
/// Var = S₁₀/m + S₀₁/n with S the sample variances (n − 1 divisor) of the components; the
/// interval AUC ± z·SE, clipped to [0, 1]. Components are computed from sorted scores
/// (O((m + n) log(m + n))). `None` without a score in each class or with a non-finite score.
pub fn auc_delong(positives: &[f64], negatives: &[f64], confidence: f64) -> Option<Auc> {
    let (m, n) = (positives.len(), negatives.len());
    if m == 0 || n == 0 || positives.iter().chain(negatives).any(|x| !x.is_finite()) {
        return None;
    }
    let mut neg = negatives.to_vec();
    neg.sort_by(f64::total_cmp);
    let mut pos = positives.to_vec();
    pos.sort_by(f64::total_cmp);
    // For a value v: (#sorted < v) + ½(#sorted == v).
    let below = |sorted: &[f64], v: f64| {
        let lt = sorted.partition_point(|x| *x < v);
        let le = sorted.partition_point(|x| *x <= v);
        lt as f64 + 0.5 * (le - lt) as f64
    };
    let v10: Vec<f64> = positives.iter().map(|&x| below(&neg, x) / n as f64).collect();
    let v01: Vec<f64> = negatives
        .iter()
        .map(|&y| {
            let lt = pos.partition_point(|x| *x < y);
            let le = pos.partition_point(|x| *x <= y);
            ((m - le) as f64 + 0.5 * (le - lt) as f64) / m as f64
        })
        .collect();
    let auc = v10.iter().sum::<f64>() / m as f64;
    let var = |v: &[f64]| {
        let mean = v.iter().sum::<f64>() / v.len() as f64;
        v.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (v.len() as f64 - 1.0)
    };
    let se = (m > 1 && n > 1).then(|| (var(&v10) / m as f64 + var(&v01) / n as f64).sqrt());
    let z = normal::z_two_sided(confidence);
    Some(Auc {
        auc,
        positives: m,
        negatives: n,
        se,
        low: se.map(|s| (auc - z * s).max(0.0)),
        high: se.map(|s| (auc + z * s).min(1.0)),
    })
}

/// ψ summed by brute force (tests).
#[cfg(test)]
fn auc_brute(p: &[f64], n: &[f64]) -> f64 {
    p.iter().map(|&x| n.iter().map(|&y| psi(x, y)).sum::<f64>()).sum::<f64>() / (p.len() * n.len()) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equals_the_pairwise_definition_with_ties() {
        let p = [0.9, 0.8, 0.8, 0.4, 0.3];
        let n = [0.8, 0.5, 0.3, 0.3, 0.1, 0.05];
        let a = auc_delong(&p, &n, 0.95).unwrap();
        assert!((a.auc - auc_brute(&p, &n)).abs() < 1e-12);
        assert!(a.low.unwrap() < a.auc && a.auc < a.high.unwrap());
        assert!(auc_delong(&[], &n, 0.95).is_none());
    }
}
