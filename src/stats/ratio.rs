//! The ratio of two means R = ȳ/x̄ over the same n items, with its delta-method standard error
//! (Cochran 1977, *Sampling Techniques* §6.3; Casella & Berger 2002 §5.5.4):
//!
//! ```text
//! Var(R̂) ≈ R̂² · ( V(ȳ)/ȳ² + V(x̄)/x̄² − 2·C(ȳ, x̄)/(ȳ·x̄) )
//! V(ȳ) = (1/n)·Σ(yᵢ − ȳ)²/n,  C(ȳ, x̄) = (1/n)·Σ(yᵢ − ȳ)(xᵢ − x̄)/n
//! ```
//!
//! The variances are the plug-in (divisor n) ones, so for 0/1 values V(ȳ) = p̂(1 − p̂)/n as in
//! BriefBench's §7.1(d); BriefBench's code takes the sample variances (NumPy `ddof = 1`, divisor
//! n − 1), which multiply every term by n/(n − 1): both are returned, the sample ones as
//! `*_sample` (`None` below two items). BriefBench prints the formula without the covariance term (its κ and
//! return-on-tokens); that form is returned beside it, labelled, because the two differ when
//! numerator and denominator are measured on the same items (they are: compliance and recall of
//! one task).

use serde::{Deserialize, Serialize};

/// A ratio of means and its delta-method standard errors.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RatioOfMeans {
    pub ratio: f64,
    /// With the covariance term.
    pub se: f64,
    /// Without it (numerator and denominator treated as independent: BriefBench's formula).
    pub se_independent: f64,
    /// `se` with the sample variances (divisor n − 1).
    pub se_sample: Option<f64>,
    /// `se_independent` with the sample variances.
    pub se_independent_sample: Option<f64>,
}

impl RatioOfMeans {
    fn with_sample(ratio: f64, se: f64, se_independent: f64, n: usize) -> RatioOfMeans {
        let scale = (n > 1).then(|| (n as f64 / (n as f64 - 1.0)).sqrt());
        RatioOfMeans {
            ratio,
            se,
            se_independent,
            se_sample: scale.map(|s| se * s),
            se_independent_sample: scale.map(|s| se_independent * s),
        }
    }
}

/// ȳ/x̄ over paired values with the delta-method standard errors; `None` when empty, lengths
/// differ, or x̄ = 0. When ȳ = 0 the relative form is undefined; the standard error is then the
/// limit √V(ȳ)/|x̄| (both forms).
pub fn ratio_of_means(y: &[f64], x: &[f64]) -> Option<RatioOfMeans> {
    let n = y.len();
    if n == 0 || x.len() != n {
        return None;
    }
    let nf = n as f64;
    let my = y.iter().sum::<f64>() / nf;
    let mx = x.iter().sum::<f64>() / nf;
    if mx == 0.0 {
        return None;
    }
    let (mut vy, mut vx, mut c) = (0.0, 0.0, 0.0);
    for (a, b) in y.iter().zip(x) {
        vy += (a - my) * (a - my);
        vx += (b - mx) * (b - mx);
        c += (a - my) * (b - mx);
    }
    let (vy, vx, c) = (vy / nf / nf, vx / nf / nf, c / nf / nf);
    let r = my / mx;
    if my == 0.0 {
        let se = vy.sqrt() / mx.abs();
        return Some(RatioOfMeans::with_sample(r, se, se, n));
    }
    let rel = vy / (my * my) + vx / (mx * mx);
    Some(RatioOfMeans::with_sample(r, r.abs() * (rel - 2.0 * c / (my * mx)).max(0.0).sqrt(), r.abs() * rel.sqrt(), n))
}

/// BriefBench's κ standard error from the two rates alone (its §7.1(d) with the binomial
/// variances p(1 − p)/n and no covariance): κ·√((1 − p_c)/(n·p_c) + (1 − p_r)/(n·p_r)).
pub fn ratio_se_from_rates(pc: f64, pr: f64, n: f64) -> Option<f64> {
    (pc > 0.0 && pr > 0.0 && n > 0.0).then(|| (pc / pr) * ((1.0 - pc) / (n * pc) + (1.0 - pr) / (n * pr)).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    // seed-002 A26: κ = 0.469/0.667 at n = 96; textbook delta s.e. 0.0917.
    #[test]
    fn briefbench_kappa_se() {
        let se = ratio_se_from_rates(0.469, 0.667, 96.0).unwrap();
        assert!((se - 0.0917).abs() < 5e-4, "{se}");
    }

    #[test]
    fn zero_denominator_is_none() {
        assert!(ratio_of_means(&[1.0, 0.0], &[0.0, 0.0]).is_none());
        assert!(ratio_of_means(&[], &[]).is_none());
    }
}
