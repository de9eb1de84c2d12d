//! Randomization tests: the paired sign-flip permutation test, and the subset-sum
//! (multivariate hypergeometric) test of where paired changes fall.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use statrs::function::factorial::ln_binomial;

/// The exact sign-flip test enumerates 2^m sign patterns up to this many non-zero differences;
/// beyond, Monte Carlo.
pub const EXACT_MAX: usize = 16;

/// A paired sign-flip permutation test.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SignFlip {
    /// Two-sided p-value.
    pub p: f64,
    /// Exact (every sign pattern) or Monte Carlo.
    pub exact: bool,
    /// Monte Carlo draws (0 when exact).
    pub resamples: usize,
    pub seed: u64,
    /// Non-zero differences (zeros do not change under a sign flip).
    pub nonzero: usize,
}

/// Paired sign-flip permutation test of "the differences are symmetric about 0" (Fisher 1935,
/// §21; Good 2005, ch. 3): T = Σ d_i; under H₀ every d_i keeps or flips its sign with
/// probability ½, independently. Two-sided p = P(|T*| ≥ |T|) (the null distribution is
/// symmetric, so this is SciPy's `permutation_test(..., permutation_type='samples')`
/// 2·min(p_less, p_greater)). Exact for any m when the non-zero differences have one magnitude
/// (0/1 outcomes: a binomial tail, the exact McNemar); exact over the 2^m patterns of the m
/// non-zero differences when m ≤ [`EXACT_MAX`]; else Monte Carlo with `resamples` draws from ChaCha8(`seed`) and
/// p = (1 + #{|T*| ≥ |T|})/(R + 1) (Phipson & Smyth 2010: never 0). Ties within 1e-9 relative
/// count as ≥. `None` when there are no differences or (Monte Carlo) no resamples.
pub fn sign_flip_test(d: &[f64], resamples: usize, seed: u64) -> Option<SignFlip> {
    if d.is_empty() || d.iter().any(|x| !x.is_finite()) {
        return None;
    }
    let nz: Vec<f64> = d.iter().copied().filter(|x| *x != 0.0).collect();
    let m = nz.len();
    let observed: f64 = nz.iter().sum::<f64>().abs();
    let scale: f64 = nz.iter().map(|x| x.abs()).sum::<f64>().max(f64::MIN_POSITIVE);
    let at_least = |t: f64| t.abs() >= observed - 1e-9 * scale;
    // Equal magnitudes (0/1 outcomes: every non-zero difference is ±1): T = c·(2B − m) with
    // B ~ Binomial(m, ½), so the exact p is a binomial tail sum for any m (the exact McNemar).
    if m > 0 && nz.iter().all(|x| (x.abs() - nz[0].abs()).abs() <= 1e-12 * nz[0].abs()) {
        let plus = nz.iter().filter(|x| **x > 0.0).count() as i64;
        let t_obs = (2 * plus - m as i64).abs();
        let p: f64 = (0..=m as u64)
            .filter(|&b| (2 * b as i64 - m as i64).abs() >= t_obs)
            .map(|b| (ln_binomial(m as u64, b) - m as f64 * std::f64::consts::LN_2).exp())
            .sum();
        return Some(SignFlip { p: p.min(1.0), exact: true, resamples: 0, seed, nonzero: m });
    }
    if m <= EXACT_MAX {
        // Gray code: each step flips one sign, so each pattern's sum costs one addition.
        let mut sum: f64 = nz.iter().sum();
        let mut signs = vec![1.0f64; m];
        let mut hits = u64::from(at_least(sum));
        for step in 1u64..(1u64 << m) {
            let bit = step.trailing_zeros() as usize;
            sum -= 2.0 * signs[bit] * nz[bit];
            signs[bit] = -signs[bit];
            hits += u64::from(at_least(sum));
        }
        return Some(SignFlip { p: hits as f64 / (1u64 << m) as f64, exact: true, resamples: 0, seed, nonzero: m });
    }
    if resamples == 0 {
        return None;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut hits = 0usize;
    for _ in 0..resamples {
        // One random bit per difference, 64 from each draw.
        let mut t = 0.0f64;
        for chunk in nz.chunks(64) {
            let bits: u64 = rng.random();
            for (i, x) in chunk.iter().enumerate() {
                t += if bits >> i & 1 == 1 { *x } else { -*x };
            }
        }
        hits += usize::from(at_least(t));
    }
    Some(SignFlip { p: (1 + hits) as f64 / (resamples + 1) as f64, exact: false, resamples, seed, nonzero: m })
}

/// Monte Carlo draws of a sign-flip test on `m` non-zero differences within a work budget of
/// 5·10⁸ sign flips: `wanted`, or fewer (at least 1,000) on very large data. The number used is
/// reported with the p-value.
pub fn budgeted_resamples(wanted: usize, m: usize) -> usize {
    const BUDGET: usize = 500_000_000;
    BUDGET.checked_div(m).map_or(wanted, |per| wanted.min(per.max(1_000)))
}

/// Both tails of the subset-sum randomization test.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SubsetTails {
    /// P(S ≥ s).
    pub greater: f64,
    /// P(S ≤ s).
    pub less: f64,
    /// E[S] = h·(plus − minus)/n.
    pub expected: f64,
}

/// Where paired changes fall: of n rows, `plus` changed +1 and `minus` −1 (the rest 0); a subset
/// of h rows holds S = (+1s in it) − (−1s in it) = s. Under random assignment of the subset
/// label to rows, the counts (a, b, h − a − b) in the subset are multivariate hypergeometric:
/// P(a, b) = C(plus, a)·C(minus, b)·C(n − plus − minus, h − a − b) / C(n, h), and the
/// one-sided p-values are P(S ≥ s) and P(S ≤ s), summed exactly (log-binomials). TAG's
/// "one-sided randomization interaction test" of target-hit localization (seed-003 §B3:
/// n = 800, 14 (+1), 8 (−1), h = 105, S = 6 → p = 0.002232). `None` for impossible counts.
pub fn subset_sum_test(n: u64, plus: u64, minus: u64, h: u64, s: i64) -> Option<SubsetTails> {
    if plus + minus > n || h > n {
        return None;
    }
    let zeros = n - plus - minus;
    let ln_total = ln_binomial(n, h);
    let (mut greater, mut less) = (0.0f64, 0.0f64);
    for a in 0..=plus.min(h) {
        for b in 0..=minus.min(h - a) {
            let rest = h - a - b;
            if rest > zeros {
                continue;
            }
            let p = (ln_binomial(plus, a) + ln_binomial(minus, b) + ln_binomial(zeros, rest) - ln_total).exp();
            let sum = a as i64 - b as i64;
            if sum >= s {
                greater += p;
            }
            if sum <= s {
                less += p;
            }
        }
    }
    Some(SubsetTails {
        greater: greater.min(1.0),
        less: less.min(1.0),
        expected: h as f64 * (plus as f64 - minus as f64) / n.max(1) as f64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tag_target_hit_localization() {
        // seed-003 §B3: 800 rows, 14 helps, 8 hurts, 105 hit rows holding all of them.
        let t = subset_sum_test(800, 14, 8, 105, 6).unwrap();
        assert!((t.greater - 0.002232).abs() < 5e-7, "{t:?}");
    }

    #[test]
    fn binary_sign_flip_is_the_exact_mcnemar() {
        // 29 (+1) and 13 (−1), too many to enumerate: the exact McNemar p of (29, 13).
        let mut d = vec![1.0; 29];
        d.extend([-1.0; 13]);
        d.extend([0.0; 20]);
        let t = sign_flip_test(&d, 0, 1).unwrap();
        let m = crate::stats::mcnemar::mcnemar(29, 13);
        assert!(t.exact && (t.p - m.exact_p).abs() < 1e-12, "{t:?} {m:?}");
    }

    #[test]
    fn monte_carlo_is_deterministic_and_near_the_exact_value() {
        let d: Vec<f64> = (0..40).map(|i| ((i * 37 % 11) as f64 - 4.0) / 3.0).collect();
        let a = sign_flip_test(&d, 20_000, 7).unwrap();
        assert_eq!(a, sign_flip_test(&d, 20_000, 7).unwrap());
        assert!(!a.exact && a.p > 0.0 && a.p <= 1.0);
        // A sign-flip test on a symmetric sample has p = 1 exactly.
        assert_eq!(sign_flip_test(&[1.0, -1.0, 2.0, -2.0], 0, 0).unwrap().p, 1.0);
        assert!(sign_flip_test(&[], 10, 0).is_none());
    }
}
