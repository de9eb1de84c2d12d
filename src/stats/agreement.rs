//! Agreement between raters on categorical labels.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Kappa {
    pub kappa: f64,
    /// Observed agreement.
    pub p_o: f64,
    /// Agreement expected by chance.
    pub p_e: f64,
    pub n: usize,
}

/// Cohen's κ for two raters (Cohen 1960): κ = (p_o − p_e)/(1 − p_e), p_e = Σ_c p_A(c)·p_B(c).
/// `None` when the lists differ in length or are empty; κ is undefined (p_e = 1, both raters
/// used one and the same category throughout) → `None` as well.
pub fn cohens_kappa<T: Ord + Clone>(a: &[T], b: &[T]) -> Option<Kappa> {
    if a.len() != b.len() {
        return None;
    }
    let mut codes: BTreeMap<&T, u32> = BTreeMap::new();
    for x in a.iter().chain(b) {
        let next = codes.len() as u32;
        codes.entry(x).or_insert(next);
    }
    let pairs: Vec<(u32, u32)> = a.iter().zip(b).map(|(x, y)| (codes[x], codes[y])).collect();
    cohens_kappa_weighted(&pairs, codes.len(), None)
}

/// Cohen's κ of coded pairs (category indices below `classes`), each pair counted `weights[i]`
/// times (a bootstrap resample's count vector; `None`: once each). With N = Σ w_i,
/// p_o = Σ w_i [a_i = b_i] / N and p_e = Σ_c (Σ w_i [a_i = c] / N)(Σ w_i [b_i = c] / N).
/// `n` in the result is the number of pairs with a positive weight. `None` as for
/// [`cohens_kappa`] (and when a code is not below `classes`).
pub fn cohens_kappa_weighted(pairs: &[(u32, u32)], classes: usize, weights: Option<&[u32]>) -> Option<Kappa> {
    if weights.is_some_and(|w| w.len() != pairs.len()) {
        return None;
    }
    let mut ca = vec![0.0f64; classes];
    let mut cb = vec![0.0f64; classes];
    let (mut agree, mut total, mut n) = (0.0f64, 0.0f64, 0usize);
    for (i, &(x, y)) in pairs.iter().enumerate() {
        let w = weights.map_or(1.0, |w| w[i] as f64);
        if w == 0.0 {
            continue;
        }
        *ca.get_mut(x as usize)? += w;
        *cb.get_mut(y as usize)? += w;
        agree += if x == y { w } else { 0.0 };
        total += w;
        n += 1;
    }
    if total == 0.0 {
        return None;
    }
    let p_o = agree / total;
    let p_e: f64 = ca.iter().zip(&cb).map(|(a, b)| a / total * b / total).sum();
    if (1.0 - p_e).abs() < 1e-15 {
        return None;
    }
    Some(Kappa { kappa: (p_o - p_e) / (1.0 - p_e), p_o, p_e, n })
}

/// Fleiss' κ for a fixed number of raters per item (Fleiss 1971): `counts[i][c]` = raters who
/// put item i in category c (every row sums to the same n ≥ 2).
/// P_i = (Σ_c n_ic² − n)/(n(n − 1)), P̄ = mean P_i, p_c = Σ_i n_ic/(N n), P̄_e = Σ_c p_c²,
/// κ = (P̄ − P̄_e)/(1 − P̄_e).
pub fn fleiss_kappa(counts: &[Vec<f64>]) -> Option<Kappa> {
    fleiss_kappa_weighted(counts, None)
}

/// [`fleiss_kappa`] with item i counted `weights[i]` times (a bootstrap resample): the means
/// P̄ and p_c are weighted means over the items. `n` is the number of items with a positive
/// weight.
pub fn fleiss_kappa_weighted(counts: &[Vec<f64>], weights: Option<&[u32]>) -> Option<Kappa> {
    let first = counts.first()?;
    let raters: f64 = first.iter().sum();
    if raters < 2.0
        || weights.is_some_and(|w| w.len() != counts.len())
        || counts.iter().any(|r| r.len() != first.len() || (r.iter().sum::<f64>() - raters).abs() > 1e-9)
    {
        return None;
    }
    let w = |i: usize| weights.map_or(1.0, |w| w[i] as f64);
    let total: f64 = (0..counts.len()).map(w).sum();
    if total == 0.0 {
        return None;
    }
    let p_bar = counts
        .iter()
        .enumerate()
        .map(|(i, r)| w(i) * (r.iter().map(|x| x * x).sum::<f64>() - raters) / (raters * (raters - 1.0)))
        .sum::<f64>()
        / total;
    let p_e: f64 = (0..first.len())
        .map(|c| {
            let pc = counts.iter().enumerate().map(|(i, r)| w(i) * r[c]).sum::<f64>() / (total * raters);
            pc * pc
        })
        .sum();
    if (1.0 - p_e).abs() < 1e-15 {
        return None;
    }
    let n = (0..counts.len()).filter(|&i| w(i) > 0.0).count();
    Some(Kappa { kappa: (p_bar - p_e) / (1.0 - p_e), p_o: p_bar, p_e, n })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fleiss_1971_worked_example() {
        // 10 subjects, 14 raters, 5 categories (the classic worked example): κ = 0.20993
        let t = vec![
            vec![0.0, 0.0, 0.0, 0.0, 14.0],
            vec![0.0, 2.0, 6.0, 4.0, 2.0],
            vec![0.0, 0.0, 3.0, 5.0, 6.0],
            vec![0.0, 3.0, 9.0, 2.0, 0.0],
            vec![2.0, 2.0, 8.0, 1.0, 1.0],
            vec![7.0, 7.0, 0.0, 0.0, 0.0],
            vec![3.0, 2.0, 6.0, 3.0, 0.0],
            vec![2.0, 5.0, 3.0, 2.0, 2.0],
            vec![6.0, 5.0, 2.0, 1.0, 0.0],
            vec![0.0, 2.0, 2.0, 3.0, 7.0],
        ];
        let k = fleiss_kappa(&t).unwrap();
        assert!((k.kappa - 0.20993070442195522).abs() < 1e-12, "{k:?}");
        assert!(fleiss_kappa(&[vec![1.0, 0.0], vec![2.0, 0.0]]).is_none(), "unequal raters per item");
    }

    #[test]
    fn cohen_statsmodels_reference() {
        let a = ["s", "p", "n", "s", "s", "p", "n", "n", "p", "s", "p", "s"];
        let b = ["s", "p", "p", "s", "n", "p", "n", "n", "s", "s", "p", "p"];
        let k = cohens_kappa(&a, &b).unwrap();
        assert!((k.kappa - 0.4947368421052631).abs() < 1e-12);
        assert!((k.p_o - 2.0 / 3.0).abs() < 1e-12 && (k.p_e - 0.3402777777777778).abs() < 1e-12);
        assert!(cohens_kappa(&["x", "x"], &["x", "x"]).is_none());
        assert!(cohens_kappa(&["x"], &["x", "y"]).is_none());
    }
}
