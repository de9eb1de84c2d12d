//! The two-sample Kolmogorov–Smirnov test (Smirnov 1939; Hodges 1958), two-sided and one-sided:
//!
//! ```text
//! F, G          the ECDFs of samples x (size m) and y (size n)
//! D  = sup |F − G|          two-sided
//! D+ = sup (F − G)          x stochastically smaller (x's ECDF above)
//! D− = sup (G − F)          x stochastically greater (x's ECDF below: x dominates)
//! ```
//!
//! The statistics are counted in whole units of 1/(m·n) (`m·#y≤t` against `n·#x≤t` at each
//! value t of either sample), so they are exact and ties are handled as SciPy's `ks_2samp` does
//! (ECDFs right-continuous, evaluated at every observed value).
//!
//! **p-values** (as `scipy.stats.ks_2samp`, `method='auto'`, where the work allows):
//! - *exact* while m·n ≤ [`EXACT_MAX_CELLS`]: the share of the C(m+n, m) equally likely
//!   orderings of the two samples whose ECDF difference reaches the observed one (Hodges 1958,
//!   §2: a lattice path from (0, 0) to (m, n) that touches the line `n·x − m·y = h·g`, with
//!   `g = gcd(m, n)` and `h = D·lcm(m, n)`; two-sided: either line ±). The probability mass of
//!   the paths is carried step by step (a step right has probability (m−x)/(m−x+n−y)), and the
//!   mass that touches a line is summed, so small p-values keep their relative precision. D+
//!   and D− have the same null distribution (reverse the order of the values).
//! - *asymptotic* above that: two-sided, Kolmogorov's limiting distribution at √(mn/(m+n))·D
//!   (`scipy.special.kolmogorov`; SciPy's `method='asymp'` instead evaluates the finite-n
//!   one-sample distribution at round(mn/(m+n)), which differs in the third digit at most for
//!   such sizes); one-sided, Hodges' eq. 5.3 with m the larger sample, as SciPy.
//!
//! With tied values (common for compliance, a share of a few rubric checks) the p-values are
//! those of the continuous null and so conservative; [`KsTest::tied`] says so.
//!
//! Reference: `tests/reference/stats/make_ks_reference.py` (SciPy's `ks_2samp`, exact and
//! asymptotic, and `scipy.special.kolmogorov`).

use serde::{Deserialize, Serialize};

/// The largest m·n for which the p-values are exact (the work is at most that many steps per
/// p-value); above, asymptotic.
pub const EXACT_MAX_CELLS: u64 = 4_000_000;

crate::choice! {
    /// How a KS p-value was computed.
    pub enum KsMethod {
        /// Lattice paths (Hodges 1958), as SciPy's `method='exact'`.
        Exact,
        /// Kolmogorov's limit (two-sided) and Hodges' eq. 5.3 (one-sided).
        Asymptotic,
    }
}

/// The test of two samples.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct KsTest {
    pub m: usize,
    pub n: usize,
    /// sup |F − G|, and its p-value.
    pub d: f64,
    pub p: f64,
    /// sup (G − F): how far x's ECDF lies below y's (x stochastically greater), and the
    /// one-sided p-value of "x greater" (SciPy: `ks_2samp(x, y, alternative='less')`).
    pub d_x_greater: f64,
    pub p_x_greater: f64,
    /// sup (F − G): how far x's ECDF lies above y's, and the one-sided p-value of "y greater"
    /// (SciPy: `alternative='greater'`).
    pub d_y_greater: f64,
    pub p_y_greater: f64,
    pub method: KsMethod,
    /// Whether a value occurs more than once in the two samples together.
    pub tied: bool,
}

/// The statistics in units of 1/(m·n): (sup (F − G), sup (G − F)), each ≥ 0, and whether a
/// value repeats. Both samples sorted ascending, without NaN.
fn statistics(x: &[f64], y: &[f64]) -> (u64, u64, bool) {
    let (m, n) = (x.len() as i128, y.len() as i128);
    let (mut i, mut j) = (0usize, 0usize);
    let (mut above, mut below) = (0i128, 0i128);
    let mut tied = false;
    while i < x.len() || j < y.len() {
        let t = match (x.get(i), y.get(j)) {
            (Some(&a), Some(&b)) => a.min(b),
            (Some(&a), None) => a,
            (None, Some(&b)) => b,
            (None, None) => break,
        };
        let (i0, j0) = (i, j);
        while i < x.len() && x[i] <= t {
            i += 1;
        }
        while j < y.len() && y[j] <= t {
            j += 1;
        }
        if (i, j) == (i0, j0) {
            // Only a NaN compares false with itself; the callers remove them (this stops the
            // scan rather than loop).
            debug_assert!(false, "a NaN in a KS sample");
            break;
        }
        tied |= (i - i0) + (j - j0) > 1;
        // F(t) − G(t) = i/m − j/n = (n·i − m·j) / (m·n)
        let diff = n * i as i128 - m * j as i128;
        above = above.max(diff);
        below = below.max(-diff);
    }
    (above as u64, below as u64, tied)
}

/// The probability that a uniformly random ordering of m x's and n y's has a lattice path
/// (x's counted right, y's up) that touches `n·x − m·y ≥ bound` (and, `two_sided`, also
/// `n·x − m·y ≤ −bound`). `bound` > 0, in units of 1/(m·n).
fn exact_tail(m: u64, n: u64, bound: i128, two_sided: bool) -> f64 {
    let (mi, ni) = (m as i128, n as i128);
    let crosses = |x: u64, y: u64| {
        let v = ni * x as i128 - mi * y as i128;
        v >= bound || (two_sided && -v >= bound)
    };
    // mass[y] at column x: the probability of reaching (x, y) without having touched a line.
    let mut mass = vec![0.0f64; n as usize + 1];
    let mut touched = 0.0;
    for x in 0..=m {
        for y in 0..=n {
            let here = if x == 0 && y == 0 {
                1.0
            } else {
                // Arrivals: from (x−1, y) by a step right, from (x, y−1) by a step up.
                let left = if x > 0 { mass[y as usize] * (m - x + 1) as f64 / (m - x + 1 + n - y) as f64 } else { 0.0 };
                let down =
                    if y > 0 { mass[y as usize - 1] * (n - y + 1) as f64 / (m - x + n - y + 1) as f64 } else { 0.0 };
                left + down
            };
            // `mass[y]` still holds column x − 1 for the step right above; `mass[y − 1]` was
            // already replaced by column x, as the step up needs.
            if crosses(x, y) {
                touched += here;
                mass[y as usize] = 0.0;
            } else {
                mass[y as usize] = here;
            }
        }
    }
    touched.min(1.0)
}

/// Kolmogorov's limiting survival function P(K > λ) (`scipy.special.kolmogorov`).
pub fn kolmogorov_sf(lambda: f64) -> f64 {
    if lambda.is_nan() {
        return f64::NAN;
    }
    if lambda <= 0.0 {
        return 1.0;
    }
    if lambda < 1.0 {
        // 1 − √(2π)/λ · Σ exp(−(2k−1)²π²/(8λ²)): fast for small λ.
        let c = -std::f64::consts::PI.powi(2) / (8.0 * lambda * lambda);
        let s: f64 = (1..=12).map(|k| (((2 * k - 1) * (2 * k - 1)) as f64 * c).exp()).sum();
        (1.0 - (2.0 * std::f64::consts::PI).sqrt() / lambda * s).clamp(0.0, 1.0)
    } else {
        // 2 Σ (−1)^(k−1) exp(−2k²λ²)
        let s: f64 = (1..=100)
            .map(|k: i32| {
                let sign = if k % 2 == 1 { 1.0 } else { -1.0 };
                sign * (-2.0 * (k * k) as f64 * lambda * lambda).exp()
            })
            .sum();
        (2.0 * s).clamp(0.0, 1.0)
    }
}

/// The two-sample KS test of `x` against `y` (any order; NaNs are the caller's to remove).
/// `None` when either sample is empty.
pub fn ks_two_sample(x: &[f64], y: &[f64]) -> Option<KsTest> {
    let sorted = |v: &[f64]| {
        let mut s = v.to_vec();
        s.sort_by(f64::total_cmp);
        s
    };
    ks_two_sample_sorted(&sorted(x), &sorted(y), true)
}

/// [`ks_two_sample`] of samples sorted ascending; exact p-values only when `exact` allows and
/// m·n ≤ [`EXACT_MAX_CELLS`] (a caller with many pairs spends its own budget).
pub fn ks_two_sample_sorted(xs: &[f64], ys: &[f64], exact: bool) -> Option<KsTest> {
    if xs.is_empty() || ys.is_empty() {
        return None;
    }
    let (m, n) = (xs.len() as u64, ys.len() as u64);
    let (above, below, tied) = statistics(xs, ys);
    let mn = (m as f64) * (n as f64);
    let two = above.max(below);
    let method = if exact && m.saturating_mul(n) <= EXACT_MAX_CELLS { KsMethod::Exact } else { KsMethod::Asymptotic };
    let p = |units: u64, two_sided: bool| -> f64 {
        if units == 0 {
            return 1.0;
        }
        match method {
            KsMethod::Exact => exact_tail(m, n, units as i128, two_sided),
            KsMethod::Asymptotic => {
                let d = units as f64 / mn;
                let (big, small) = if m >= n { (m as f64, n as f64) } else { (n as f64, m as f64) };
                let en = big * small / (big + small);
                if two_sided {
                    kolmogorov_sf(en.sqrt() * d)
                } else {
                    let z = en.sqrt() * d;
                    let expt =
                        -2.0 * z * z - 2.0 * z * (big + 2.0 * small) / (big * small * (big + small)).sqrt() / 3.0;
                    expt.exp().clamp(0.0, 1.0)
                }
            }
        }
    };
    // The bounds are counted in units of 1/(m·n) (n·i − m·j): the lattice walk of the exact
    // p-values uses them as they are, with no rounding of D·lcm(m, n).
    Some(KsTest {
        m: m as usize,
        n: n as usize,
        d: two as f64 / mn,
        p: p(two, true),
        d_x_greater: below as f64 / mn,
        p_x_greater: p(below, false),
        d_y_greater: above as f64 / mn,
        p_y_greater: p(above, false),
        method,
        tied,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SciPy's values (`tests/reference/stats/ks.json`, made by `make_ks_reference.py`):
    /// `ks_2samp` two-sided, `less` and `greater`, exact and asymptotic, with and without ties.
    #[test]
    fn ks_two_sample_equals_scipy() {
        let cases: serde_json::Value =
            serde_json::from_str(include_str!("../../tests/reference/stats/ks.json")).unwrap();
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * b.abs() + 1e-14;
        let mut asymptotic = 0;
        for case in cases["tests"].as_array().unwrap() {
            let v = |k: &str| -> Vec<f64> { case[k].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect() };
            let f = |k: &str| case[k].as_f64().unwrap();
            let t = ks_two_sample(&v("x"), &v("y")).unwrap();
            let name = case["name"].as_str().unwrap();
            assert_eq!(t.method.name(), case["method"].as_str().unwrap(), "{name}");
            asymptotic += (t.method == KsMethod::Asymptotic) as usize;
            assert!(close(t.d, f("d")), "{name}: D {} vs {}", t.d, f("d"));
            assert!(close(t.d_x_greater, f("d_less")), "{name}: D− {} vs {}", t.d_x_greater, f("d_less"));
            assert!(close(t.d_y_greater, f("d_greater")), "{name}: D+ {} vs {}", t.d_y_greater, f("d_greater"));
            assert!(close(t.p_x_greater, f("p_less")), "{name}: p less {} vs {}", t.p_x_greater, f("p_less"));
            assert!(close(t.p_y_greater, f("p_greater")), "{name}: p greater {} vs {}", t.p_y_greater, f("p_greater"));
            // Two-sided asymptotic: the Kolmogorov limit (SciPy's kolmogorov), not kstwo.
            let p = if t.method == KsMethod::Exact { f("p") } else { f("p_kolmogorov") };
            assert!(close(t.p, p), "{name}: p {} vs {p}", t.p);
            assert_eq!(t.tied, case["tied"].as_bool().unwrap(), "{name}");
        }
        assert!(asymptotic > 0, "the reference has an asymptotic case");
    }

    #[test]
    fn kolmogorov_sf_equals_scipy() {
        let cases: serde_json::Value =
            serde_json::from_str(include_str!("../../tests/reference/stats/ks.json")).unwrap();
        for c in cases["kolmogorov"].as_array().unwrap() {
            let (l, q) = (c[0].as_f64().unwrap(), c[1].as_f64().unwrap());
            assert!((kolmogorov_sf(l) - q).abs() <= 1e-12 + 1e-10 * q, "λ = {l}: {} vs {q}", kolmogorov_sf(l));
        }
    }

    /// The exact tail against counting every ordering by brute force (small samples).
    #[test]
    fn the_exact_tail_counts_the_orderings() {
        for (m, n) in [(1u64, 1u64), (2, 3), (3, 3), (4, 2), (5, 3), (4, 6)] {
            let total = m + n;
            let (mut all, mut hits_two, mut hits_one) = (0u64, vec![0u64; 64], vec![0u64; 64]);
            for mask in 0u64..(1 << total) {
                if mask.count_ones() as u64 != m {
                    continue;
                }
                all += 1;
                let (mut x, mut y, mut hi, mut lo) = (0i128, 0i128, 0i128, 0i128);
                for b in 0..total {
                    if mask >> b & 1 == 1 {
                        x += 1
                    } else {
                        y += 1
                    }
                    let v = n as i128 * x - m as i128 * y;
                    hi = hi.max(v);
                    lo = lo.max(-v);
                }
                for bound in 1..64i128 {
                    hits_two[bound as usize] += (hi.max(lo) >= bound) as u64;
                    hits_one[bound as usize] += (hi >= bound) as u64;
                }
            }
            for bound in 1..=(m * n) as i128 {
                let two = hits_two[bound as usize] as f64 / all as f64;
                let one = hits_one[bound as usize] as f64 / all as f64;
                assert!((exact_tail(m, n, bound, true) - two).abs() < 1e-12, "{m}, {n}, {bound}");
                assert!((exact_tail(m, n, bound, false) - one).abs() < 1e-12, "{m}, {n}, {bound}");
            }
        }
    }

    #[test]
    fn identical_samples_and_empty_ones() {
        let t = ks_two_sample(&[0.0, 1.0, 1.0], &[1.0, 0.0, 1.0]).unwrap();
        assert_eq!((t.d, t.p, t.p_x_greater, t.p_y_greater), (0.0, 1.0, 1.0, 1.0));
        assert!(t.tied);
        assert_eq!(ks_two_sample(&[], &[1.0]), None);
        // Complete separation: x all above y.
        let t = ks_two_sample(&[5.0, 6.0, 7.0], &[1.0, 2.0]).unwrap();
        assert_eq!((t.d, t.d_x_greater, t.d_y_greater), (1.0, 1.0, 0.0));
        assert!(!t.tied);
    }
}
