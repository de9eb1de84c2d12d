//! Power, sample size and minimum detectable effect of two-sided z tests at level α, in the
//! four designs an evaluation compares arms with (BriefBench §2.10 and seed-002 §5.13: "a
//! power/MDE calculator … and an under-powered cell flag").
//!
//! With z = z_{1−α/2}, a difference Δ, a null standard error σ₀ and an alternative one σ₁, the
//! power of the two-sided test counts both rejection tails (as statsmodels does):
//!
//! ```text
//! power = Φ((|Δ| − z·σ₀)/σ₁) + Φ((−|Δ| − z·σ₀)/σ₁)
//! ```
//!
//! * **Two proportions, unpaired** (Fleiss, Levin & Paik 2003 §4.2; statsmodels
//!   `power_proportions_2indep`): σ₀ = √(p̄q̄(1/n₁ + 1/n₂)) with the pooled p̄ = (n₁p₁ + n₂p₂)/(n₁ + n₂),
//!   σ₁ = √(p₁q₁/n₁ + p₂q₂/n₂). Per-group n for equal groups:
//!   n = (z√(2p̄q̄) + z_β√(p₁q₁ + p₂q₂))² / Δ² (one tail; p̄ = (p₁ + p₂)/2).
//! * **Paired proportions** (McNemar; Connor 1987, Biometrics 43:207): with the discordant shares
//!   p₁₀, p₀₁, δ = p₁₀ − p₀₁ and ψ = p₁₀ + p₀₁: σ₀ = √(ψ/n), σ₁ = √((ψ − δ²)/n);
//!   n = (z√ψ + z_β√(ψ − δ²))² / δ².
//! * **Two means, unpaired** (normal approximation; statsmodels `NormalIndPower`): σ₀ = σ₁ =
//!   √(s₁²/n₁ + s₂²/n₂); n = (z + z_β)²(s₁² + s₂²)/Δ².
//! * **Paired means** (one-sample normal test of the differences; statsmodels `NormalIndPower`
//!   with `ratio = 0`): σ₀ = σ₁ = s_d/√n; n = (z + z_β)² s_d²/Δ².
//!
//! The minimum detectable effect is the smallest |Δ| whose power reaches the target, found by
//! bisection on the power (monotone in |Δ| for each design); for proportions Δ is bounded by the
//! baseline (p₁ = p₂ + Δ must stay in [0, 1]), so "none" can be the answer.
//!
//! Hoeffding's half-width (Hoeffding 1963) is the distribution-free bound beside them:
//! ε = √(ln(2/δ)/(2n)) for one mean of values in [0, 1]
//! ([`crate::stats::proportions::hoeffding_half_width`]).

use serde::{Deserialize, Serialize};

use super::normal::{cdf, quantile};

crate::choice! {
    /// The design of a power calculation.
    #[derive(Default)]
    pub enum Design {
        /// Two independent proportions (pooled z test).
        #[default]
        TwoProportions,
        /// Paired proportions (McNemar).
        PairedProportions,
        /// Two independent means (z test).
        TwoMeans,
        /// Paired means (z test of the differences).
        PairedMeans,
    }
}

/// Most items a calculation is asked about (the bisection and n search stay cheap).
pub const MAX_N: f64 = 1e12;

fn two_tailed(delta: f64, z: f64, s0: f64, s1: f64) -> Option<f64> {
    let d = delta.abs();
    if !(s0.is_finite() && s1.is_finite()) || s0 < 0.0 || s1 < 0.0 {
        return None;
    }
    if s1 == 0.0 {
        // No spread under the alternative: the statistic is fixed; it rejects or it does not.
        return Some(if d > z * s0 { 1.0 } else { 0.0 });
    }
    Some(cdf((d - z * s0) / s1) + cdf((-d - z * s0) / s1))
}

fn z_alpha(alpha: f64) -> f64 {
    quantile(1.0 - alpha / 2.0)
}

/// Power of the pooled two-proportion z test for p₁ vs p₂ with n₁ and n₂ items.
pub fn two_proportions_power(p1: f64, p2: f64, n1: f64, n2: f64, alpha: f64) -> Option<f64> {
    if !(0.0..=1.0).contains(&p1) || !(0.0..=1.0).contains(&p2) || n1 <= 0.0 || n2 <= 0.0 {
        return None;
    }
    let pbar = (n1 * p1 + n2 * p2) / (n1 + n2);
    let s0 = (pbar * (1.0 - pbar) * (1.0 / n1 + 1.0 / n2)).sqrt();
    let s1 = (p1 * (1.0 - p1) / n1 + p2 * (1.0 - p2) / n2).sqrt();
    two_tailed(p1 - p2, z_alpha(alpha), s0, s1)
}

/// Per-group n for equal groups to detect p₁ vs p₂ with the given power (Fleiss' formula,
/// not rounded up). `None` when p₁ = p₂.
pub fn two_proportions_n(p1: f64, p2: f64, alpha: f64, power: f64) -> Option<f64> {
    let d = (p1 - p2).abs();
    if d == 0.0 || !(0.0..=1.0).contains(&p1) || !(0.0..=1.0).contains(&p2) {
        return None;
    }
    let pbar = (p1 + p2) / 2.0;
    let a = z_alpha(alpha) * (2.0 * pbar * (1.0 - pbar)).sqrt();
    let b = quantile(power) * (p1 * (1.0 - p1) + p2 * (1.0 - p2)).sqrt();
    Some((a + b).powi(2) / (d * d))
}

/// Power of McNemar's test (Connor 1987) for discordant shares p₁₀, p₀₁ over n pairs.
pub fn paired_proportions_power(p10: f64, p01: f64, n: f64, alpha: f64) -> Option<f64> {
    let psi = p10 + p01;
    if p10 < 0.0 || p01 < 0.0 || psi > 1.0 || n <= 0.0 || psi == 0.0 {
        return None;
    }
    let d = p10 - p01;
    two_tailed(d, z_alpha(alpha), (psi / n).sqrt(), ((psi - d * d).max(0.0) / n).sqrt())
}

/// Pairs McNemar's test needs (Connor 1987, not rounded up). `None` when p₁₀ = p₀₁.
pub fn paired_proportions_n(p10: f64, p01: f64, alpha: f64, power: f64) -> Option<f64> {
    let psi = p10 + p01;
    let d = p10 - p01;
    if d == 0.0 || p10 < 0.0 || p01 < 0.0 || psi > 1.0 {
        return None;
    }
    Some((z_alpha(alpha) * psi.sqrt() + quantile(power) * (psi - d * d).max(0.0).sqrt()).powi(2) / (d * d))
}

/// Power of the two-sample z test of means: difference Δ, standard deviations s₁, s₂.
pub fn two_means_power(delta: f64, s1: f64, s2: f64, n1: f64, n2: f64, alpha: f64) -> Option<f64> {
    if n1 <= 0.0 || n2 <= 0.0 || s1 < 0.0 || s2 < 0.0 {
        return None;
    }
    let se = (s1 * s1 / n1 + s2 * s2 / n2).sqrt();
    two_tailed(delta, z_alpha(alpha), se, se)
}

/// Per-group n (equal groups) of the two-sample z test.
pub fn two_means_n(delta: f64, s1: f64, s2: f64, alpha: f64, power: f64) -> Option<f64> {
    (delta != 0.0).then(|| (z_alpha(alpha) + quantile(power)).powi(2) * (s1 * s1 + s2 * s2) / (delta * delta))
}

/// Power of the paired z test: mean difference Δ, standard deviation of the differences s_d.
pub fn paired_means_power(delta: f64, sd: f64, n: f64, alpha: f64) -> Option<f64> {
    if n <= 0.0 || sd < 0.0 {
        return None;
    }
    let se = sd / n.sqrt();
    two_tailed(delta, z_alpha(alpha), se, se)
}

/// Pairs the paired z test needs.
pub fn paired_means_n(delta: f64, sd: f64, alpha: f64, power: f64) -> Option<f64> {
    (delta != 0.0).then(|| (z_alpha(alpha) + quantile(power)).powi(2) * sd * sd / (delta * delta))
}

/// The smallest d in (0, max] with power(d) ≥ target, by bisection (60 halvings: far below any
/// printed digit). `None` when even `max` does not reach it.
pub fn minimum_detectable(max: f64, target: f64, power: impl Fn(f64) -> Option<f64>) -> Option<f64> {
    if max.is_nan() || max <= 0.0 || power(max).is_none_or(|p| p < target) {
        return None;
    }
    let (mut lo, mut hi) = (0.0, max);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if power(mid).is_some_and(|p| p >= target) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

/// MDE of the two-proportion test: the smallest Δ > 0 with p₁ = p₂ + Δ (upward when `up`, else
/// p₁ = p₂ − Δ) detectable with n₁, n₂ at the target power.
pub fn two_proportions_mde(p2: f64, n1: f64, n2: f64, alpha: f64, power: f64, up: bool) -> Option<f64> {
    let room = if up { 1.0 - p2 } else { p2 };
    minimum_detectable(room, power, |d| two_proportions_power(if up { p2 + d } else { p2 - d }, p2, n1, n2, alpha))
}

/// The questions of one calculation and their answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PowerRequest {
    pub design: Design,
    /// Items per group (unpaired) or pairs (paired).
    pub n: f64,
    /// Items of the second group (unpaired; default n).
    pub n2: Option<f64>,
    /// Proportions (two_proportions): p₁ the arm, p₂ the baseline.
    pub p1: f64,
    pub p2: f64,
    /// Discordant shares (paired_proportions): arm right & baseline wrong, and the reverse.
    pub p10: f64,
    pub p01: f64,
    /// The difference of means and the standard deviation(s) (means designs).
    pub delta: f64,
    pub sd: f64,
    pub sd2: Option<f64>,
    pub alpha: f64,
    pub power: f64,
}

impl Default for PowerRequest {
    fn default() -> Self {
        PowerRequest {
            design: Design::TwoProportions,
            n: 40.0,
            n2: None,
            p1: 0.9,
            p2: 0.8,
            p10: 0.15,
            p01: 0.05,
            delta: 0.1,
            sd: 0.3,
            sd2: None,
            alpha: 0.05,
            power: 0.8,
        }
    }
}

/// What a calculation answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PowerReport {
    pub design: Design,
    pub n: f64,
    pub n2: f64,
    /// The effect asked about: p₁ − p₂, p₁₀ − p₀₁ or Δ.
    pub effect: f64,
    pub alpha: f64,
    pub target_power: f64,
    /// Power to detect the effect with n (and n₂).
    pub power: Option<f64>,
    /// Items per group (pairs) to reach the target power, not rounded, and rounded up.
    pub n_needed: Option<f64>,
    pub n_needed_ceil: Option<u64>,
    /// The smallest effect detectable with n at the target power, in the effect's direction.
    pub mde: Option<f64>,
    /// Hoeffding half-width at δ = α for one mean of n values in [0, 1] (proportion designs).
    pub hoeffding_half_width: Option<f64>,
    /// Hoeffding's bound 2·exp(−2nε²) at ε = |effect| (may exceed 1: vacuous).
    pub hoeffding_bound: Option<f64>,
    /// The formula used, in words.
    pub method: String,
}

impl PowerRequest {
    /// Checks every number is in its range.
    pub fn validate(&self) -> crate::error::Result<()> {
        use crate::error::Error;
        let open01 = |what: &str, v: f64| {
            if v > 0.0 && v < 1.0 { Ok(()) } else { Err(Error::setting(what, format!("must be in (0, 1) (got {v})"))) }
        };
        let closed01 = |what: &str, v: f64| {
            if (0.0..=1.0).contains(&v) {
                Ok(())
            } else {
                Err(Error::setting(what, format!("must be in [0, 1] (got {v})")))
            }
        };
        open01("alpha", self.alpha)?;
        open01("power", self.power)?;
        for (what, n) in [("n", Some(self.n)), ("n2", self.n2)] {
            if let Some(n) = n
                && !(1.0..=MAX_N).contains(&n)
            {
                return Err(Error::setting(what, format!("must be between 1 and 10^12 (got {n})")));
            }
        }
        match self.design {
            Design::TwoProportions => {
                closed01("p1", self.p1)?;
                closed01("p2", self.p2)?;
            }
            Design::PairedProportions => {
                closed01("p10", self.p10)?;
                closed01("p01", self.p01)?;
                if self.p10 + self.p01 > 1.0 || self.p10 + self.p01 == 0.0 {
                    return Err(Error::setting(
                        "p10",
                        format!("p10 + p01 must be in (0, 1] (got {})", self.p10 + self.p01),
                    ));
                }
            }
            Design::TwoMeans | Design::PairedMeans => {
                for (what, v) in [("sd", Some(self.sd)), ("sd2", self.sd2)] {
                    if let Some(v) = v
                        && !(v > 0.0 && v.is_finite())
                    {
                        return Err(Error::setting(what, format!("must be a positive number (got {v})")));
                    }
                }
                if !self.delta.is_finite() {
                    return Err(Error::setting("delta", "must be a number"));
                }
            }
        }
        Ok(())
    }
}

/// Answers one calculation (validate first).
pub fn calculate(q: &PowerRequest) -> PowerReport {
    let (a, pw) = (q.alpha, q.power);
    let n2 = q.n2.unwrap_or(q.n);
    let (effect, power, n_needed, mde, method) = match q.design {
        Design::TwoProportions => (
            q.p1 - q.p2,
            two_proportions_power(q.p1, q.p2, q.n, n2, a),
            two_proportions_n(q.p1, q.p2, a, pw),
            two_proportions_mde(q.p2, q.n, n2, a, pw, q.p1 >= q.p2),
            "pooled two-proportion z test (Fleiss); n per group from Fleiss' formula".to_string(),
        ),
        Design::PairedProportions => (
            q.p10 - q.p01,
            paired_proportions_power(q.p10, q.p01, q.n, a),
            paired_proportions_n(q.p10, q.p01, a, pw),
            // MDE at the same discordant share ψ: δ ≤ ψ.
            minimum_detectable(q.p10 + q.p01, pw, |d| {
                let psi = q.p10 + q.p01;
                paired_proportions_power((psi + d) / 2.0, (psi - d) / 2.0, q.n, a)
            }),
            "McNemar's test, Connor (1987); the MDE keeps the discordant share p10 + p01".to_string(),
        ),
        Design::TwoMeans => {
            let s2 = q.sd2.unwrap_or(q.sd);
            (
                q.delta,
                two_means_power(q.delta, q.sd, s2, q.n, n2, a),
                two_means_n(q.delta, q.sd, s2, a, pw),
                minimum_detectable(1e6 * q.sd.max(s2), pw, |d| two_means_power(d, q.sd, s2, q.n, n2, a)),
                "two-sample z test of means (normal approximation)".to_string(),
            )
        }
        Design::PairedMeans => (
            q.delta,
            paired_means_power(q.delta, q.sd, q.n, a),
            paired_means_n(q.delta, q.sd, a, pw),
            minimum_detectable(1e6 * q.sd, pw, |d| paired_means_power(d, q.sd, q.n, a)),
            "paired z test of the mean difference (normal approximation)".to_string(),
        ),
    };
    let proportion = matches!(q.design, Design::TwoProportions | Design::PairedProportions);
    PowerReport {
        design: q.design,
        n: q.n,
        n2,
        effect,
        alpha: a,
        target_power: pw,
        power,
        n_needed,
        n_needed_ceil: n_needed.filter(|n| n.is_finite() && *n <= MAX_N).map(|n| n.ceil() as u64),
        mde: mde.map(|m| if effect < 0.0 { -m } else { m }),
        hoeffding_half_width: proportion.then(|| super::proportions::hoeffding_half_width(q.n.min(n2), a)).flatten(),
        hoeffding_bound: proportion.then(|| super::proportions::hoeffding_bound(q.n.min(n2), effect.abs())),
        method,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // seed-002 §2.10 / A31 (Fleiss' formula): 73.4, 199.0, 387.3 per group; power at n = 40.
    #[test]
    fn briefbench_power_claims() {
        let n = two_proportions_n(1.0, 0.9, 0.05, 0.8).unwrap();
        assert!((n - 73.38).abs() < 0.01, "{n}");
        assert!((two_proportions_n(0.9, 0.8, 0.05, 0.8).unwrap() - 198.97).abs() < 0.01);
        assert!((two_proportions_n(0.6, 0.5, 0.05, 0.8).unwrap() - 387.3).abs() < 0.05);
        let p = two_proportions_power(1.0, 0.9, 40.0, 40.0, 0.05).unwrap();
        assert!((p - 0.54).abs() < 0.005, "{p}");
    }

    #[test]
    fn mde_reaches_target_power() {
        let m = two_proportions_mde(0.8, 40.0, 40.0, 0.05, 0.8, true).unwrap();
        let p = two_proportions_power(0.8 + m, 0.8, 40.0, 40.0, 0.05).unwrap();
        assert!((p - 0.8).abs() < 1e-9, "{m} {p}");
        assert!(two_proportions_mde(0.99, 5.0, 5.0, 0.05, 0.8, true).is_none());
    }
}
