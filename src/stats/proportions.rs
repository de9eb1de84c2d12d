//! Intervals, tests and effect sizes for proportions.

use serde::{Deserialize, Serialize};
use statrs::distribution::{Beta, ContinuousCDF};

use super::Interval;
use super::normal;

/// Wilson score interval without continuity correction (Wilson 1927; Newcombe 1998, method 3):
///
/// ```text
/// centre = (p̂ + z²/2n) / (1 + z²/n)
/// half   = z / (1 + z²/n) · √(p̂(1 − p̂)/n + z²/4n²)
/// ```
///
/// with p̂ = x/n and z = z_{1−α/2}. `x` may be fractional (a rate × n read from a table); the
/// caller should flag that. `None` when n ≤ 0 or x ∉ [0, n].
pub fn wilson_interval(x: f64, n: f64, confidence: f64) -> Option<Interval> {
    if n.is_nan() || n <= 0.0 || !(0.0..=n).contains(&x) {
        return None;
    }
    let z = normal::z_two_sided(confidence);
    let p = x / n;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Some(Interval { low: (centre - half).max(0.0), high: (centre + half).min(1.0) })
}

/// Clopper–Pearson exact interval (Clopper & Pearson 1934):
/// L = B⁻¹(α/2; x, n − x + 1), U = B⁻¹(1 − α/2; x + 1, n − x), with L = 0 at x = 0 and U = 1
/// at x = n (closed forms there: U = 1 − (α/2)^{1/n} at x = 0, L = (α/2)^{1/n} at x = n).
pub fn clopper_pearson_interval(x: u64, n: u64, confidence: f64) -> Option<Interval> {
    if n == 0 || x > n {
        return None;
    }
    let alpha = 1.0 - confidence;
    let nf = n as f64;
    let low = if x == 0 {
        0.0
    } else if x == n {
        (alpha / 2.0).powf(1.0 / nf)
    } else {
        Beta::new(x as f64, (n - x + 1) as f64).ok()?.inverse_cdf(alpha / 2.0)
    };
    let high = if x == n {
        1.0
    } else if x == 0 {
        1.0 - (alpha / 2.0).powf(1.0 / nf)
    } else {
        Beta::new((x + 1) as f64, (n - x) as f64).ok()?.inverse_cdf(1.0 - alpha / 2.0)
    };
    Some(Interval { low, high })
}

/// Pooled two-proportion z-test (independent samples):
/// z = (p̂₁ − p̂₂) / √(p̂(1 − p̂)(1/n₁ + 1/n₂)), p̂ = (x₁ + x₂)/(n₁ + n₂), two-sided p = 2(1 − Φ(|z|)).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TwoProportionZ {
    pub z: f64,
    pub p: f64,
    pub pooled: f64,
    pub se: f64,
}

/// `None` when a sample is empty or the pooled proportion is 0 or 1 (no variance: the test
/// is undefined; report the proportions instead).
pub fn two_proportion_z(x1: f64, n1: f64, x2: f64, n2: f64) -> Option<TwoProportionZ> {
    if !(n1 > 0.0 && n2 > 0.0) {
        return None;
    }
    let pooled = (x1 + x2) / (n1 + n2);
    let se = (pooled * (1.0 - pooled) * (1.0 / n1 + 1.0 / n2)).sqrt();
    if se.is_nan() || se <= 0.0 {
        return None;
    }
    let z = (x1 / n1 - x2 / n2) / se;
    Some(TwoProportionZ { z, p: (2.0 * normal::sf(z.abs())).min(1.0), pooled, se })
}

/// Cohen's h = 2·asin√p₁ − 2·asin√p₂ (Cohen 1988, §6.2), signed.
pub fn cohens_h(p1: f64, p2: f64) -> f64 {
    2.0 * p1.clamp(0.0, 1.0).sqrt().asin() - 2.0 * p2.clamp(0.0, 1.0).sqrt().asin()
}

/// Cohen's conventional labels for |h|: < 0.2 negligible, 0.2 small, 0.5 medium, 0.8 large.
pub fn cohens_h_label(h: f64) -> &'static str {
    let a = h.abs();
    if a < 0.2 {
        "negligible"
    } else if a < 0.5 {
        "small"
    } else if a < 0.8 {
        "medium"
    } else {
        "large"
    }
}

/// Hoeffding (1963): P(|p̂ − p| ≥ ε) ≤ 2·exp(−2nε²). The bound itself (may exceed 1: vacuous).
pub fn hoeffding_bound(n: f64, eps: f64) -> f64 {
    2.0 * (-2.0 * n * eps * eps).exp()
}

/// The Hoeffding half-width at confidence 1 − δ: ε = √(ln(2/δ) / (2n)).
pub fn hoeffding_half_width(n: f64, delta: f64) -> Option<f64> {
    if n > 0.0 && delta > 0.0 && delta < 1.0 { Some(((2.0 / delta).ln() / (2.0 * n)).sqrt()) } else { None }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Newcombe (1998) Table I, method 3 (conventions.md §3.4)
    #[test]
    fn wilson_newcombe_table() {
        let cases = [
            (81.0, 263.0, 0.255289, 0.366210),
            (15.0, 148.0, 0.062386, 0.160487),
            (0.0, 20.0, 0.0, 0.161125),
            (1.0, 29.0, 0.006113, 0.171755),
            (0.0, 10.0, 0.0, 0.277533),
            (5.0, 10.0, 0.236593, 0.763407),
            (10.0, 10.0, 0.722467, 1.0),
            (0.0, 1.0, 0.0, 0.793451),
            (1.0, 1.0, 0.206549, 1.0),
            (29.0, 30.0, 0.833296, 0.994091),
        ];
        for (x, n, lo, hi) in cases {
            let ci = wilson_interval(x, n, 0.95).unwrap();
            assert!((ci.low - lo).abs() < 5e-7 && (ci.high - hi).abs() < 5e-7, "{x}/{n}: {ci:?}");
        }
        assert!(wilson_interval(3.0, 2.0, 0.95).is_none());
        assert!(wilson_interval(0.0, 0.0, 0.95).is_none());
    }

    // seed-002 §2.12 (a), (k): 112/120 → [0.8739, 0.9658]; 103/120 → [0.7848, 0.9096]; 117/120 → [0.9291, 0.9915]
    #[test]
    fn wilson_briefbench_anchors() {
        for (x, lo, hi) in [(112.0, 0.8739, 0.9658), (103.0, 0.7848, 0.9096), (117.0, 0.9291, 0.9915)] {
            let ci = wilson_interval(x, 120.0, 0.95).unwrap();
            assert!((ci.low - lo).abs() < 5e-5 && (ci.high - hi).abs() < 5e-5, "{x}: {ci:?}");
        }
    }

    // seed-002 §2.4 / example (j): 40/40 → [0.91190, 1]; 28/40 → (0.53468, 0.83437)
    #[test]
    fn clopper_pearson_anchors() {
        let ci = clopper_pearson_interval(40, 40, 0.95).unwrap();
        assert!((ci.low - 0.025f64.powf(1.0 / 40.0)).abs() < 1e-12 && ci.high == 1.0);
        assert!((ci.low - 0.91190).abs() < 5e-6);
        let ci = clopper_pearson_interval(28, 40, 0.95).unwrap();
        assert!((ci.low - 0.53468).abs() < 5e-6 && (ci.high - 0.83437).abs() < 5e-6, "{ci:?}");
        let ci = clopper_pearson_interval(0, 20, 0.95).unwrap();
        assert!(ci.low == 0.0 && (ci.high - 0.16843).abs() < 5e-5, "{ci:?}"); // scipy binomtest(0,20).proportion_ci
        assert!(clopper_pearson_interval(3, 2, 0.95).is_none());
    }

    // seed-002 §2.12 (b), (e)
    #[test]
    fn two_proportion_anchors() {
        let t = two_proportion_z(35.0, 40.0, 32.0, 40.0).unwrap();
        assert!((t.z - 0.9092).abs() < 5e-5 && (t.p - 0.363).abs() < 5e-4 && (t.pooled - 0.8375).abs() < 1e-12);
        assert!((t.se - 0.0825).abs() < 5e-5);
        let t = two_proportion_z(3.0, 12.0, 6.0, 12.0).unwrap();
        assert!((t.z + 1.2649).abs() < 5e-5 && (t.p - 0.206).abs() < 5e-4, "{t:?}");
        assert!(two_proportion_z(40.0, 40.0, 40.0, 40.0).is_none(), "no variance");
    }

    // seed-002 §2.8
    #[test]
    fn cohens_h_anchors() {
        for (p1, p2, h) in [(0.875, 0.800, 0.2046), (1.0, 0.675, 1.2132), (1.0, 0.70, 1.1593), (0.158, 0.090, 0.2082)] {
            assert!((cohens_h(p1, p2) - h).abs() < 5e-5, "{p1} {p2}");
        }
        assert_eq!(cohens_h(0.8, 0.875), -cohens_h(0.875, 0.8));
        assert_eq!(cohens_h_label(0.2046), "small");
        assert_eq!(cohens_h_label(-1.2), "large");
        assert_eq!(cohens_h_label(0.1), "negligible");
        assert_eq!(cohens_h_label(0.5), "medium");
    }

    // seed-002 §2.10
    #[test]
    fn hoeffding_anchors() {
        assert!((hoeffding_bound(40.0, 0.1) - 0.899).abs() < 5e-4);
        assert!((hoeffding_bound(12.0, 0.1) - 1.573).abs() < 5e-4);
        assert!((hoeffding_bound(120.0, 0.1) - 0.181).abs() < 5e-4);
        for (n, eps) in [(40.0, 0.215), (12.0, 0.392), (120.0, 0.124)] {
            assert!((hoeffding_half_width(n, 0.05).unwrap() - eps).abs() < 5e-4, "{n}");
        }
    }
}
