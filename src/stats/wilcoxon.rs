//! Wilcoxon signed-rank test for paired continuous outcomes (Wilcoxon 1945), following
//! `scipy.stats.wilcoxon` 1.17 defaults (`zero_method="wilcox"`, `correction=False`,
//! `method="auto"`):
//!
//! - zero differences are dropped; the remaining n differences are ranked by |d| with
//!   mid-ranks; T⁺ and T⁻ sum the ranks of positive and negative differences; the reported
//!   statistic is T = min(T⁺, T⁻);
//! - exact p when there are no ties and no zeros (SciPy: any n; here n ≤ 400, beyond which the
//!   normal approximation agrees to many digits), and also with ties or zeros when n ≤ 13
//!   (SciPy enumerates all 2ⁿ sign flips); computed by dynamic programming over the sign flips
//!   of the (doubled, hence integer) mid-ranks, two-sided p = min(1, 2·min(P[T⁺ ≤ t], P[T⁺ ≥ t]));
//! - otherwise the normal approximation z = (T − n(n+1)/4)/σ with
//!   σ² = n(n+1)(2n+1)/24 − Σ(t³ − t)/48 (tie correction), p = 2·(1 − Φ(|z|)).

use serde::{Deserialize, Serialize};

use super::normal;
use super::ranks::{average_ranks, tie_sizes};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Wilcoxon {
    /// min(T⁺, T⁻)
    pub statistic: f64,
    pub p: f64,
    /// Non-zero differences used.
    pub n: usize,
    /// `exact` or `normal`.
    pub method: String,
}

/// The test on paired differences; `None` when every difference is zero (nothing to test).
pub fn wilcoxon_signed_rank(diffs: &[f64]) -> Option<Wilcoxon> {
    let nz: Vec<f64> = diffs.iter().copied().filter(|d| *d != 0.0 && d.is_finite()).collect();
    let n = nz.len();
    if n == 0 {
        return None;
    }
    let abs: Vec<f64> = nz.iter().map(|d| d.abs()).collect();
    let ranks = average_ranks(&abs);
    let t_plus: f64 = nz.iter().zip(&ranks).filter(|(d, _)| **d > 0.0).map(|(_, r)| r).sum();
    let total = (n * (n + 1)) as f64 / 2.0;
    let t = t_plus.min(total - t_plus);
    let ties = tie_sizes(&abs);
    let zeros_dropped = nz.len() != diffs.len();
    // SciPy counts the zeros in its n ≤ 13 rule
    let exact = if ties.is_empty() && !zeros_dropped { n <= 400 } else { diffs.len() <= 13 };
    if exact {
        // doubled ranks are integers; counts[s] = sign assignments with 2·T⁺ = s
        let doubled: Vec<usize> = ranks.iter().map(|r| (2.0 * r).round() as usize).collect();
        let max: usize = doubled.iter().sum();
        // Without ties the ranks are 1..n: the counts depend on n only, and a comparison of many
        // arms asks for the same n again and again (kept for the last few n). Only while every
        // count is an integer below 2⁵³ (n ≤ 52): then the additions are exact in any order, and
        // the counts are those of this pair's own order to the bit.
        let counts = if ties.is_empty() && n <= EXACT_IN_ANY_ORDER {
            untied_counts(&doubled)
        } else {
            std::rc::Rc::new(sign_counts(&doubled))
        };
        let all = 2f64.powi(n as i32);
        let obs = (2.0 * t_plus).round() as usize;
        let le: f64 = counts[..=obs.min(max)].iter().sum::<f64>() / all;
        let ge: f64 = counts[obs.min(max)..].iter().sum::<f64>() / all;
        return Some(Wilcoxon { statistic: t, p: (2.0 * le.min(ge)).min(1.0), n, method: "exact".into() });
    }
    let nf = n as f64;
    let mean = nf * (nf + 1.0) / 4.0;
    let var =
        nf * (nf + 1.0) * (2.0 * nf + 1.0) / 24.0 - ties.iter().map(|&t| (t * t * t - t) as f64).sum::<f64>() / 48.0;
    if var <= 0.0 {
        return None;
    }
    let z = (t - mean) / var.sqrt();
    Some(Wilcoxon { statistic: t, p: (2.0 * normal::sf(z.abs())).min(1.0), n, method: "normal".into() })
}

/// The number of sign assignments giving each sum of `doubled` (index: the sum).
fn sign_counts(doubled: &[usize]) -> Vec<f64> {
    let max: usize = doubled.iter().sum();
    let mut counts = vec![0f64; max + 1];
    counts[0] = 1.0;
    for &r in doubled {
        for s in (r..=max).rev() {
            counts[s] += counts[s - r];
        }
    }
    counts
}

/// Up to this many differences every sign count (at most 2ⁿ) is an integer below 2⁵³.
const EXACT_IN_ANY_ORDER: usize = 52;

/// Untied doubled ranks seen, most recent last: at most this many distributions are kept.
const KEPT: usize = 4;

thread_local! {
    static UNTIED: std::cell::RefCell<Vec<(usize, std::rc::Rc<Vec<f64>>)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// [`sign_counts`] of the doubled ranks 2, 4, …, 2n (no ties), computed once per n among the
/// last [`KEPT`] asked: the same values, as the same additions made them.
fn untied_counts(doubled: &[usize]) -> std::rc::Rc<Vec<f64>> {
    let n = doubled.len();
    UNTIED.with(|kept| {
        let mut kept = kept.borrow_mut();
        if let Some(i) = kept.iter().position(|(m, _)| *m == n) {
            let hit = kept.remove(i);
            kept.push(hit);
        } else {
            if kept.len() == KEPT {
                kept.remove(0);
            }
            kept.push((n, std::rc::Rc::new(sign_counts(doubled))));
        }
        std::rc::Rc::clone(&kept[kept.len() - 1].1)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The counts kept per n are those each order of the ranks gives, to the bit (n ≤ 52),
    /// and a larger n is computed in its own order.
    #[test]
    fn kept_counts_equal_each_orders_own() {
        for n in [1usize, 5, 20, 52, 53, 80] {
            let mut doubled: Vec<usize> = (1..=n).map(|r| 2 * r).collect();
            let forward = sign_counts(&doubled);
            doubled.reverse();
            let backward = sign_counts(&doubled);
            if n <= EXACT_IN_ANY_ORDER {
                assert_eq!(forward, backward, "n = {n}");
                assert_eq!(*untied_counts(&doubled), forward, "n = {n}");
            }
            // Through the test: p of a shuffled pair equals p computed without the cache.
            let d: Vec<f64> = (0..n).map(|i| if i % 3 == 0 { -(i as f64 + 1.0) } else { i as f64 + 1.5 }).collect();
            let w = wilcoxon_signed_rank(&d).unwrap();
            let ranks_doubled: Vec<usize> = average_ranks(&d.iter().map(|x| x.abs()).collect::<Vec<_>>())
                .iter()
                .map(|r| (2.0 * r).round() as usize)
                .collect();
            if n <= 400 {
                let c = sign_counts(&ranks_doubled);
                let max = c.len() - 1;
                let t_plus: f64 = d
                    .iter()
                    .zip(average_ranks(&d.iter().map(|x| x.abs()).collect::<Vec<_>>()))
                    .filter(|(x, _)| **x > 0.0)
                    .map(|(_, r)| r)
                    .sum();
                let obs = ((2.0 * t_plus).round() as usize).min(max);
                let all = 2f64.powi(n as i32);
                let (le, ge) = (c[..=obs].iter().sum::<f64>() / all, c[obs..].iter().sum::<f64>() / all);
                assert_eq!(w.p.to_bits(), (2.0 * le.min(ge)).min(1.0).to_bits(), "n = {n}");
            }
        }
    }

    // scipy.stats.wilcoxon 1.17.1
    #[test]
    fn scipy_reference() {
        // ties (|0.3|, |0.1|) with n = 12 ≤ 13: exact sign-flip enumeration, as SciPy
        let d1 = [0.3, -0.1, 0.25, 0.4, -0.05, 0.6, 0.15, 0.2, -0.3, 0.45, 0.1, 0.35];
        let w = wilcoxon_signed_rank(&d1).unwrap();
        assert_eq!((w.statistic, w.method.as_str()), (11.0, "exact"));
        assert!((w.p - 0.02587890625).abs() < 1e-12, "{w:?}");
        let d2 = [0.5, 0.5, -0.5, 0.25, 0.0, 0.75, 0.5, -0.25, 0.25, 0.5, 0.0, 1.0, 0.25, -0.5, 0.75];
        let w = wilcoxon_signed_rank(&d2).unwrap();
        assert_eq!((w.statistic, w.method.as_str()), (17.5, "normal"));
        assert!((w.p - 0.04715922913571247).abs() < 1e-9, "{w:?}");
        // same without the zeros: n = 13, exact enumeration with tied mid-ranks
        let d3: Vec<f64> = d2.iter().copied().filter(|d| *d != 0.0).collect();
        let w = wilcoxon_signed_rank(&d3).unwrap();
        assert_eq!((w.statistic, w.method.as_str()), (17.5, "exact"));
        assert!((w.p - 0.05224609375).abs() < 1e-12, "{w:?}");
        assert!(wilcoxon_signed_rank(&[0.0, 0.0]).is_none());
        // no ties, no zeros: the classical exact distribution
        let d4 = [1.0, 2.0, -3.0, 4.0, 5.0, 6.0, -7.0, 8.0];
        let w = wilcoxon_signed_rank(&d4).unwrap();
        assert_eq!((w.statistic, w.method.as_str()), (10.0, "exact"));
        assert!((w.p - 0.3125).abs() < 1e-12, "{w:?}"); // scipy.stats.wilcoxon(d4).pvalue
    }
}
