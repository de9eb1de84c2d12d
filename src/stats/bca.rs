//! Bias-corrected and accelerated (BCa) bootstrap intervals (Efron 1987; Efron & Tibshirani
//! 1993, ch. 14, eq. 14.9–14.15), with explicit degenerate cases.
//!
//! ```text
//! ẑ₀ = Φ⁻¹( #{θ*_b < θ̂}/B + ½·#{θ*_b = θ̂}/B )            (mid-rank share: SciPy's rule)
//!      or Φ⁻¹( #{θ*_b < θ̂}/B )                          (strict share: R boot, BriefBench's text)
//! â  = Σᵢ (θ̄₍.₎ − θ₍ᵢ₎)³ / (6·[Σᵢ (θ̄₍.₎ − θ₍ᵢ₎)²]^{3/2})    (jackknife: θ₍ᵢ₎ leaves unit i out)
//! α₁ = Φ(ẑ₀ + (ẑ₀ + z_{α/2}) / (1 − â(ẑ₀ + z_{α/2})))
//! α₂ = Φ(ẑ₀ + (ẑ₀ + z_{1−α/2}) / (1 − â(ẑ₀ + z_{1−α/2})))
//! CI = the α₁ and α₂ quantiles of θ* (linear interpolation, Hyndman–Fan type 7)
//! ```
//!
//! The default z₀ share is the mid-rank one: with 0/1 data many resamples equal θ̂ exactly and
//! the strict share biases ẑ₀ downward (seed-002 §2.2). Degenerate cases are reported, never
//! printed as NaN: all resamples equal (the interval is that single value), θ̂ outside the
//! bootstrap distribution (ẑ₀ infinite) or no jackknife spread (â = 0/0) — in the last two the
//! percentile interval is used and the reason is returned with it.

use serde::{Deserialize, Serialize};

use super::normal;
use super::quantile::quantile_unsorted;

crate::choice! {
    /// How ẑ₀ counts resamples equal to the estimate.
    #[derive(Default)]
    pub enum Z0Rule {
        /// #{<} + ½#{=} (SciPy `stats.bootstrap(method="BCa")`).
        #[default]
        MidRank,
        /// #{<} only (R `boot::bca.ci`, the BriefBench paper's formula).
        Strict,
    }
}

/// Which interval was produced, and why when it is not the one asked for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CiOutcome {
    pub low: f64,
    pub high: f64,
    /// `bca`, `percentile`, or `degenerate` (all resamples equal).
    pub method: String,
    /// Why the method differs from the one requested.
    pub fallback: Option<String>,
    pub z0: Option<f64>,
    pub acceleration: Option<f64>,
}

/// Jackknife acceleration â; `None` when the jackknife values have no spread (0/0).
pub fn acceleration(jackknife: &[f64]) -> Option<f64> {
    if jackknife.is_empty() {
        return None;
    }
    let mean = jackknife.iter().sum::<f64>() / jackknife.len() as f64;
    let (mut s2, mut s3) = (0.0, 0.0);
    for &t in jackknife {
        let d = mean - t;
        s2 += d * d;
        s3 += d * d * d;
    }
    // relative threshold: spreads at rounding level count as none
    let scale = jackknife.iter().fold(0.0f64, |m, t| m.max(t.abs())).max(1e-300);
    if s2.sqrt() <= 1e-12 * scale * (jackknife.len() as f64).sqrt() {
        return None;
    }
    Some(s3 / (6.0 * s2.powf(1.5)))
}

/// Bias correction ẑ₀; `None` when infinite (θ̂ below or above every resample).
pub fn bias_correction(replicates: &[f64], estimate: f64, rule: Z0Rule) -> Option<f64> {
    if replicates.is_empty() {
        return None;
    }
    let below = replicates.iter().filter(|&&t| t < estimate).count() as f64;
    let equal = replicates.iter().filter(|&&t| t == estimate).count() as f64;
    let share = match rule {
        Z0Rule::MidRank => (below + 0.5 * equal) / replicates.len() as f64,
        Z0Rule::Strict => below / replicates.len() as f64,
    };
    let z = normal::quantile(share);
    if z.is_finite() { Some(z) } else { None }
}

/// The adjusted quantile levels (α₁, α₂) for (ẑ₀, â) at `confidence`.
pub fn bca_levels(z0: f64, a: f64, confidence: f64) -> (f64, f64) {
    let alpha = 1.0 - confidence;
    let level = |zq: f64| {
        let num = z0 + zq;
        normal::cdf(z0 + num / (1.0 - a * num))
    };
    (level(normal::quantile(alpha / 2.0)), level(normal::quantile(1.0 - alpha / 2.0)))
}

/// Percentile interval from (unsorted) replicates.
pub fn percentile_interval(replicates: &[f64], confidence: f64) -> Option<(f64, f64)> {
    if replicates.is_empty() {
        return None;
    }
    // Two order statistics found by selection: the values sorting would give, in O(n).
    let mut s = replicates.to_vec();
    let alpha = 1.0 - confidence;
    Some((quantile_unsorted(&mut s, alpha / 2.0), quantile_unsorted(&mut s, 1.0 - alpha / 2.0)))
}

/// The BCa interval (or the reported fallback) from replicates and jackknife values.
/// `None` only when there are no replicates.
pub fn bca_interval(
    estimate: f64,
    replicates: &[f64],
    jackknife: &[f64],
    confidence: f64,
    rule: Z0Rule,
) -> Option<CiOutcome> {
    // The quantiles are found by selection (the values sorting would give, in O(n): a
    // comparison of many arms takes one interval per pair of arms).
    let mut scratch = replicates.to_vec();
    let first = *replicates.iter().min_by(|a, b| a.total_cmp(b))?;
    let last = *replicates.iter().max_by(|a, b| a.total_cmp(b))?;
    if first == last {
        return Some(CiOutcome {
            low: first,
            high: last,
            method: "degenerate".into(),
            fallback: Some("all bootstrap resamples are equal: the interval is a single value".into()),
            z0: None,
            acceleration: None,
        });
    }
    let mut percentile = |reason: String, z0: Option<f64>, a: Option<f64>| {
        let alpha = 1.0 - confidence;
        CiOutcome {
            low: quantile_unsorted(&mut scratch, alpha / 2.0),
            high: quantile_unsorted(&mut scratch, 1.0 - alpha / 2.0),
            method: "percentile".into(),
            fallback: Some(reason),
            z0,
            acceleration: a,
        }
    };
    let a = acceleration(jackknife);
    let Some(z0) = bias_correction(replicates, estimate, rule) else {
        return Some(percentile(
            "BCa bias correction not estimable (the estimate lies outside every resample): percentile interval".into(),
            None,
            a,
        ));
    };
    let Some(a) = a else {
        return Some(percentile(
            "BCa acceleration not estimable (jackknife values all equal): percentile interval".into(),
            Some(z0),
            None,
        ));
    };
    let (l1, l2) = bca_levels(z0, a, confidence);
    if !(l1.is_finite() && l2.is_finite()) {
        return Some(percentile("BCa levels not finite: percentile interval".into(), Some(z0), Some(a)));
    }
    Some(CiOutcome {
        low: quantile_unsorted(&mut scratch, l1),
        high: quantile_unsorted(&mut scratch, l2),
        method: "bca".into(),
        fallback: None,
        z0: Some(z0),
        acceleration: Some(a),
    })
}

/// Leave-one-out means: θ₍ᵢ₎ = (Σx − xᵢ)/(n − 1). Empty for n < 2.
pub fn jackknife_means(values: &[f64]) -> Vec<f64> {
    let n = values.len();
    if n < 2 {
        return Vec::new();
    }
    let total: f64 = values.iter().sum();
    values.iter().map(|x| (total - x) / (n - 1) as f64).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const X: [f64; 10] = [0.0, 0.5, 1.0, 1.0, 0.25, 1.0, 0.0, 1.0, 0.75, 1.0];

    // conventions.md §3.6, deterministic components
    #[test]
    fn components() {
        let a = acceleration(&jackknife_means(&X)).unwrap();
        assert!((a + 0.0315527981).abs() < 1e-10, "{a}");
        let theta = [0.5, 0.55, 0.6, 0.6, 0.65, 0.7, 0.7, 0.75, 0.8, 0.85];
        let z_mid = bias_correction(&theta, 0.65, Z0Rule::MidRank).unwrap();
        assert!((z_mid + 0.1256613469).abs() < 1e-9, "{z_mid}");
        let z_strict = bias_correction(&theta, 0.65, Z0Rule::Strict).unwrap();
        assert!((z_strict + 0.2533471031).abs() < 1e-9, "{z_strict}");
        let cases = [
            (0.0, 0.0, 0.025, 0.975),
            (0.1, 0.0, 0.0392069566, 0.9846122711),
            (0.1, 0.05, 0.0546100769, 0.9917237369),
            (-0.2, -0.03, 0.0060429681, 0.9294490501),
            (0.25, 0.1, 0.1130887871, 0.9989887597),
        ];
        for (z0, a, l1, l2) in cases {
            let (g1, g2) = bca_levels(z0, a, 0.95);
            assert!((g1 - l1).abs() < 1e-9 && (g2 - l2).abs() < 1e-9, "({z0}, {a}): {g1} {g2}");
        }
    }

    // conventions.md §3.6 Monte-Carlo sanity (SciPy, B = 20 000): BCa ≈ (0.375, 0.875),
    // percentile ≈ (0.40, 0.875); paired A − B: Δ = 0.25, BCa ≈ (0.0, 0.5). Different RNG,
    // so compared with a tolerance of one grid step of the data.
    #[test]
    fn monte_carlo_agrees_with_scipy() {
        use crate::stats::bootstrap::{Resampler, Scheme};
        let mut r = Resampler::new(20_000, 0);
        let reps = r.means_under(&[&X], &Scheme::Iid).remove(0);
        let est = X.iter().sum::<f64>() / 10.0;
        let bca = bca_interval(est, &reps, &jackknife_means(&X), 0.95, Z0Rule::MidRank).unwrap();
        assert_eq!(bca.method, "bca");
        assert!((bca.low - 0.375).abs() <= 0.026 && (bca.high - 0.875).abs() <= 0.026, "{bca:?}");
        let (pl, ph) = percentile_interval(&reps, 0.95).unwrap();
        assert!((pl - 0.40).abs() <= 0.026 && (ph - 0.875).abs() <= 0.026, "{pl} {ph}");

        let a = [1.0, 1.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0];
        let b = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0];
        let d: Vec<f64> = a.iter().zip(&b).map(|(x, y)| x - y).collect();
        let reps = r.means_under(&[&d], &Scheme::Iid).remove(0);
        let ci = bca_interval(0.25, &reps, &jackknife_means(&d), 0.95, Z0Rule::MidRank).unwrap();
        assert!(ci.low.abs() <= 1.0 / 12.0 + 1e-9 && (ci.high - 0.5).abs() <= 1.0 / 12.0 + 1e-9, "{ci:?}");
    }

    #[test]
    fn degenerate_cases_are_named() {
        let d = bca_interval(1.0, &[1.0; 50], &[1.0; 10], 0.95, Z0Rule::MidRank).unwrap();
        assert_eq!((d.method.as_str(), d.low, d.high), ("degenerate", 1.0, 1.0));
        // estimate below every replicate: z0 = -inf
        let p = bca_interval(0.0, &[0.1, 0.2, 0.3, 0.4], &[0.0, 0.1], 0.95, Z0Rule::Strict).unwrap();
        assert_eq!(p.method, "percentile");
        assert!(p.fallback.unwrap().contains("bias correction"));
        // no jackknife spread
        let p = bca_interval(0.25, &[0.1, 0.2, 0.3, 0.4], &[0.5, 0.5, 0.5], 0.95, Z0Rule::MidRank).unwrap();
        assert!(p.fallback.unwrap().contains("acceleration"));
        assert!(bca_interval(0.0, &[], &[], 0.95, Z0Rule::MidRank).is_none());
    }
}
