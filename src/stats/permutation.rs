//! Randomization tests: the paired sign-flip permutation test, and the subset-sum
//! (multivariate hypergeometric) test of where paired changes fall.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use statrs::function::factorial::ln_binomial;

/// The exact sign-flip test enumerates 2^m sign patterns up to this many non-zero differences;
/// beyond, Monte Carlo.
pub const EXACT_MAX: usize = 16;

/// How a sign-flip p-value was computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum FlipMethod {
    /// Every sign pattern (or the binomial tail for one magnitude).
    Exact,
    /// Random sign patterns.
    MonteCarlo,
    /// The normal approximation of the randomization distribution (large m).
    Normal,
}

/// A paired sign-flip permutation test.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SignFlip {
    /// Two-sided p-value.
    pub p: f64,
    pub method: FlipMethod,
    /// Monte Carlo draws (0 otherwise).
    pub resamples: usize,
    pub seed: u64,
    /// Non-zero differences (zeros do not change under a sign flip).
    pub nonzero: usize,
}

impl SignFlip {
    /// `exact`, `monte_carlo R=… seed=…` or `normal_approximation m=…`.
    pub fn describe(&self) -> String {
        match self.method {
            FlipMethod::Exact => "exact".into(),
            FlipMethod::MonteCarlo => format!("monte_carlo R={} seed={}", self.resamples, self.seed),
            FlipMethod::Normal => format!("normal_approximation m={}", self.nonzero),
        }
    }
}

/// Most sign flips a Monte Carlo test draws (R × m); beyond, the normal approximation (at the
/// default R = 10,000: more than 200 non-zero differences). A comparison of 10 arms draws at most
/// 45 × 2·10⁶ flips.
pub const MONTE_CARLO_BUDGET: usize = 2_000_000;

/// Paired sign-flip permutation test of "the differences are symmetric about 0" (Fisher 1935,
/// §21; Good 2005, ch. 3): T = Σ d_i; under H₀ every d_i keeps or flips its sign with
/// probability ½, independently. Two-sided p = P(|T*| ≥ |T|) (the null distribution is
/// symmetric, so this is SciPy's `permutation_test(..., permutation_type='samples')`
/// 2·min(p_less, p_greater)). Computed:
/// * exactly for any m when the non-zero differences have one magnitude (0/1 outcomes: a
///   binomial tail, the exact McNemar), or over the 2^m patterns of the m non-zero differences
///   when m ≤ [`EXACT_MAX`];
/// * else by Monte Carlo with `resamples` draws from ChaCha8(`seed`),
///   p = (1 + #{|T*| ≥ |T|})/(R + 1) (Phipson & Smyth 2010: never 0), when R·m ≤
///   [`MONTE_CARLO_BUDGET`];
/// * else by the normal approximation of the randomization distribution (mean 0, variance
///   Σ d_i²; Lehmann & Romano 2005, §15.2): p = 2Φ(−|T|/√Σd²).
///
/// Ties within 1e-9 relative count as ≥. `None` when there are no differences, a difference is
/// not finite, or (Monte Carlo) no resamples.
pub fn sign_flip_test(d: &[f64], resamples: usize, seed: u64) -> Option<SignFlip> {
    if d.is_empty() || d.iter().any(|x| !x.is_finite()) {
        return None;
    }
    let nz: Vec<f64> = d.iter().copied().filter(|x| *x != 0.0).collect();
    let m = nz.len();
    let observed: f64 = nz.iter().sum::<f64>().abs();
    let scale: f64 = nz.iter().map(|x| x.abs()).sum::<f64>().max(f64::MIN_POSITIVE);
    let at_least = |t: f64| t.abs() >= observed - 1e-9 * scale;
    let done = |p: f64, method: FlipMethod, resamples: usize| {
        Some(SignFlip { p: p.min(1.0), method, resamples, seed, nonzero: m })
    };
    // Equal magnitudes (0/1 outcomes: every non-zero difference is ±1): T = c·(2B − m) with
    // B ~ Binomial(m, ½), so the exact p is a binomial tail sum for any m (the exact McNemar).
    if m > 0 && nz.iter().all(|x| (x.abs() - nz[0].abs()).abs() <= 1e-12 * nz[0].abs()) {
        let plus = nz.iter().filter(|x| **x > 0.0).count() as i64;
        let t_obs = (2 * plus - m as i64).abs();
        let p: f64 = (0..=m as u64)
            .filter(|&b| (2 * b as i64 - m as i64).abs() >= t_obs)
            .map(|b| (ln_binomial(m as u64, b) - m as f64 * std::f64::consts::LN_2).exp())
            .sum();
        return done(p, FlipMethod::Exact, 0);
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
        return done(hits as f64 / (1u64 << m) as f64, FlipMethod::Exact, 0);
    }
    if resamples.saturating_mul(m) > MONTE_CARLO_BUDGET {
        let sd = nz.iter().map(|x| x * x).sum::<f64>().sqrt();
        return done(2.0 * super::normal::cdf(-observed / sd), FlipMethod::Normal, 0);
    }
    if resamples == 0 {
        return None;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut hits = 0usize;
    // One random bit per difference, 64 from each draw, drawn resample after resample. Four
    // resamples are summed side by side (each in its own order, item after item, so each sum is
    // the one a resample alone gives) and the sign is set without a branch: random bits would
    // mispredict half the time.
    let chunks = m.div_ceil(64);
    let mut bits = vec![0u64; LANES * chunks];
    let mut left = resamples;
    while left > 0 {
        let lanes = left.min(LANES);
        for b in bits.iter_mut().take(lanes * chunks) {
            *b = rng.random();
        }
        let mut t = [0.0f64; LANES];
        for (c, chunk) in nz.chunks(64).enumerate() {
            for (i, x) in chunk.iter().enumerate() {
                let x = x.to_bits();
                for (lane, t) in t.iter_mut().enumerate() {
                    // Bit 1 keeps the sign, bit 0 flips it.
                    let flip = (!bits[lane * chunks + c] >> i & 1) << 63;
                    *t += f64::from_bits(x ^ flip);
                }
            }
        }
        hits += t[..lanes].iter().filter(|&&t| at_least(t)).count();
        left -= lanes;
    }
    done((1 + hits) as f64 / (resamples + 1) as f64, FlipMethod::MonteCarlo, resamples)
}

/// Monte Carlo resamples summed side by side.
const LANES: usize = 4;

/// The Monte Carlo loop as first written (one resample at a time, a branch per sign): the
/// reference the side-by-side loop must equal to the bit.
#[cfg(test)]
fn monte_carlo_one_at_a_time(nz: &[f64], resamples: usize, seed: u64, at_least: impl Fn(f64) -> bool) -> usize {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut hits = 0usize;
    for _ in 0..resamples {
        let mut t = 0.0f64;
        for chunk in nz.chunks(64) {
            let bits: u64 = rng.random();
            for (i, x) in chunk.iter().enumerate() {
                t += if bits >> i & 1 == 1 { *x } else { -*x };
            }
        }
        hits += usize::from(at_least(t));
    }
    hits
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
    /// Summed exactly (else the normal approximation, for very large counts).
    pub exact: bool,
}

/// Most terms the exact subset-sum test sums; beyond, the normal approximation.
pub const SUBSET_EXACT_TERMS: u64 = 4_000_000;

/// Where paired changes fall: of n rows, `plus` changed +1 and `minus` −1 (the rest 0); a subset
/// of h rows holds S = (+1s in it) − (−1s in it) = s. Under random assignment of the subset
/// label to rows, the counts (a, b, h − a − b) in the subset are multivariate hypergeometric:
/// P(a, b) = C(plus, a)·C(minus, b)·C(n − plus − minus, h − a − b) / C(n, h), and the
/// one-sided p-values are P(S ≥ s) and P(S ≤ s), summed exactly (log-binomials) while the sum
/// has at most [`SUBSET_EXACT_TERMS`] terms. TAG's "one-sided randomization interaction test"
/// of target-hit localization (seed-003 §B3: n = 800, 14 (+1), 8 (−1), h = 105, S = 6 →
/// p = 0.002232). Beyond, the normal approximation with a continuity correction:
/// E[S] = h(plus − minus)/n, Var[S] = h·f·(p₊(1 − p₊) + p₋(1 − p₋) + 2p₊p₋) with p± = plus/n,
/// minus/n and f = (n − h)/(n − 1). `None` for impossible counts.
pub fn subset_sum_test(n: u64, plus: u64, minus: u64, h: u64, s: i64) -> Option<SubsetTails> {
    if plus + minus > n || h > n {
        return None;
    }
    let zeros = n - plus - minus;
    let expected = h as f64 * (plus as f64 - minus as f64) / n.max(1) as f64;
    let terms = (plus.min(h) + 1).saturating_mul(minus.min(h) + 1);
    if terms > SUBSET_EXACT_TERMS {
        let (pp, pm) = (plus as f64 / n as f64, minus as f64 / n as f64);
        let f = if n > 1 { (n - h) as f64 / (n - 1) as f64 } else { 0.0 };
        let var = h as f64 * f * (pp * (1.0 - pp) + pm * (1.0 - pm) + 2.0 * pp * pm);
        let (greater, less) = if var > 0.0 {
            let sd = var.sqrt();
            (
                super::normal::cdf(-((s as f64 - 0.5 - expected) / sd)),
                super::normal::cdf((s as f64 + 0.5 - expected) / sd),
            )
        } else {
            (f64::from(u8::from(s as f64 <= expected)), f64::from(u8::from(s as f64 >= expected)))
        };
        return Some(SubsetTails { greater, less, expected, exact: false });
    }
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
    Some(SubsetTails { greater: greater.min(1.0), less: less.min(1.0), expected, exact: true })
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
        assert!(t.method == FlipMethod::Exact && (t.p - m.exact_p).abs() < 1e-12, "{t:?} {m:?}");
    }

    /// Four resamples side by side draw the same bits and sum each resample in the same order as
    /// one resample at a time: the same hits, at every count of resamples and differences
    /// (one draw per resample, several, a last batch of fewer than four).
    #[test]
    fn side_by_side_resamples_equal_one_at_a_time() {
        for (m, resamples) in [(17usize, 10_000usize), (40, 9_999), (64, 5), (65, 1_001), (150, 3)] {
            let d: Vec<f64> = (0..m).map(|i| ((i * 37 % 11) as f64 - 4.5) * 0.1 + i as f64 * 1e-3).collect();
            let observed = d.iter().sum::<f64>().abs();
            let scale = d.iter().map(|x| x.abs()).sum::<f64>();
            let at_least = |t: f64| t.abs() >= observed - 1e-9 * scale;
            let hits = monte_carlo_one_at_a_time(&d, resamples, 42, at_least);
            let f = sign_flip_test(&d, resamples, 42).unwrap();
            assert_eq!(f.method, FlipMethod::MonteCarlo);
            assert_eq!(f.p, (1 + hits) as f64 / (resamples + 1) as f64, "m = {m}, R = {resamples}");
        }
    }

    #[test]
    fn monte_carlo_is_deterministic_and_near_the_exact_value() {
        let d: Vec<f64> = (0..40).map(|i| ((i * 37 % 11) as f64 - 4.0) / 3.0).collect();
        let a = sign_flip_test(&d, 20_000, 7).unwrap();
        assert_eq!(a, sign_flip_test(&d, 20_000, 7).unwrap());
        assert!(a.method == FlipMethod::MonteCarlo && a.p > 0.0 && a.p <= 1.0);
        // A sign-flip test on a symmetric sample has p = 1 exactly.
        assert_eq!(sign_flip_test(&[1.0, -1.0, 2.0, -2.0], 0, 0).unwrap().p, 1.0);
        assert!(sign_flip_test(&[], 10, 0).is_none());
    }

    #[test]
    fn large_inputs_use_the_normal_approximation_and_stay_fast() {
        // 2 M differences: beyond the Monte Carlo budget at R = 10,000.
        let d: Vec<f64> = (0..2_000_000u64).map(|i| ((i * 7919 % 1000) as f64 - 480.0) / 100.0).collect();
        let t = sign_flip_test(&d, 10_000, 1).unwrap();
        assert_eq!(t.method, FlipMethod::Normal);
        assert!(t.p < 1e-6, "a mean of +0.195 over 2 M differences: {t:?}");
        // The subset-sum test on 1 M rows does not sum 10¹¹ terms.
        let big = subset_sum_test(1_000_000, 300_000, 250_000, 100_000, 6_000).unwrap();
        assert!(!big.exact && big.greater > 0.0 && big.less > 0.0 && (big.expected - 5_000.0).abs() < 1e-9);
        // Near the exact regime the approximation agrees with the exact sum.
        let exact = subset_sum_test(4_000, 1_500, 1_200, 1_000, 90).unwrap();
        assert!(exact.exact);
        let (pp, pm, n, h) = (1_500.0 / 4_000.0, 1_200.0 / 4_000.0, 4_000.0f64, 1_000.0f64);
        let var = h * (n - h) / (n - 1.0) * (pp * (1.0 - pp) + pm * (1.0 - pm) + 2.0 * pp * pm);
        let approx = crate::stats::normal::cdf(-((90.0 - 0.5 - exact.expected) / var.sqrt()));
        assert!((approx - exact.greater).abs() < 0.01, "{approx} vs {}", exact.greater);
    }
}
