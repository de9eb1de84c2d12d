//! The standard normal distribution (statrs), in the small set of calls the statistics need.

use statrs::distribution::{ContinuousCDF, Normal};

fn standard() -> Normal {
    // Normal::new(0, 1) cannot fail: σ = 1 > 0.
    Normal::standard()
}

/// Φ(x), the standard normal CDF.
pub fn cdf(x: f64) -> f64 {
    standard().cdf(x)
}

/// Upper tail 1 − Φ(x), computed without cancellation.
pub fn sf(x: f64) -> f64 {
    standard().sf(x)
}

/// Φ⁻¹(p) for p in (0, 1); ±∞ at 0 and 1.
pub fn quantile(p: f64) -> f64 {
    if p <= 0.0 {
        f64::NEG_INFINITY
    } else if p >= 1.0 {
        f64::INFINITY
    } else {
        standard().inverse_cdf(p)
    }
}

/// The two-sided critical value z_{1−α/2} for a confidence level (0.95 → 1.959963984540054).
pub fn z_two_sided(confidence: f64) -> f64 {
    quantile(1.0 - (1.0 - confidence) / 2.0)
}

/// Standard normal density φ(x).
pub fn pdf(x: f64) -> f64 {
    (-0.5 * x * x).exp() / (2.0 * std::f64::consts::PI).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_values() {
        assert!((z_two_sided(0.95) - 1.959963984540054).abs() < 1e-9);
        // statrs' erf is accurate to about 1e-11
        assert!((cdf(1.0) - 0.8413447460685429).abs() < 1e-10);
        assert!((quantile(0.025) + 1.959963984540054).abs() < 1e-9);
        assert!((sf(5.0) - 2.866515718791939e-7).abs() < 1e-15);
        assert_eq!(quantile(0.0), f64::NEG_INFINITY);
    }
}
