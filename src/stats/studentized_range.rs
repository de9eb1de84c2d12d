//! The studentized range distribution with infinite degrees of freedom, for Nemenyi critical
//! values at any number of arms (not a table that stops at k = 10 or 20).
//!
//! For k independent standard normals, the range R = max − min has
//!
//! ```text
//! P(R ≤ q) = k ∫ φ(z) [Φ(z) − Φ(z − q)]^{k−1} dz
//! ```
//!
//! (Hartley 1942; the df → ∞ limit of Tukey's studentized range, `qtukey(p, k, Inf)` in R,
//! `scipy.stats.studentized_range(k, inf)`). The integral is taken over z ∈ [−12, 12 + q] by
//! composite Gauss–Legendre; the quantile by bisection on the CDF. Hand-written: statrs has no
//! studentized range. Verified against SciPy for k = 2..50 (`../shared/fixtures/reference/
//! nemenyi_qalpha.csv`, |Δ| < 1e-6).

use super::normal;

/// 20-point Gauss–Legendre nodes and weights on [−1, 1] (positive half).
#[allow(clippy::excessive_precision)] // published 16-digit tables, kept verbatim
const GL_X: [f64; 10] = [
    0.0765265211334973,
    0.2277858511416451,
    0.3737060887154195,
    0.5108670019508271,
    0.6360536807265150,
    0.7463319064601508,
    0.8391169718222188,
    0.9122344282513259,
    0.9639719272779138,
    0.9931285991850949,
];
#[allow(clippy::excessive_precision)]
const GL_W: [f64; 10] = [
    0.1527533871307258,
    0.1491729864726037,
    0.1420961093183820,
    0.1316886384491766,
    0.1181945319615184,
    0.1019301198172404,
    0.0832767415767048,
    0.0626720483341091,
    0.0406014298003869,
    0.0176140071391521,
];

/// P(R ≤ q) for the range of `k` standard normals (k ≥ 2).
pub fn range_cdf(q: f64, k: usize) -> f64 {
    if q <= 0.0 || k < 2 {
        return 0.0;
    }
    let km1 = (k - 1) as i32;
    let f = |z: f64| normal::pdf(z) * (normal::cdf(z) - normal::cdf(z - q)).max(0.0).powi(km1);
    // φ(z) < 1e-16 beyond |z| = 8.5
    let (lo, hi) = (-8.5, 8.5);
    let panels = 40;
    let h = (hi - lo) / panels as f64;
    let mut total = 0.0;
    for p in 0..panels {
        let c = lo + (p as f64 + 0.5) * h;
        let half = h / 2.0;
        let mut s = 0.0;
        for (x, w) in GL_X.iter().zip(GL_W.iter()) {
            s += w * (f(c - half * x) + f(c + half * x));
        }
        total += s * half;
    }
    (k as f64 * total).clamp(0.0, 1.0)
}

/// The p-quantile of the range of `k` standard normals; `None` for p ∉ (0, 1) or k < 2.
pub fn range_quantile(p: f64, k: usize) -> Option<f64> {
    if !(p > 0.0 && p < 1.0) || k < 2 {
        return None;
    }
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    while range_cdf(hi, k) < p {
        hi *= 2.0;
        if hi > 1e3 {
            return None;
        }
    }
    // Illinois (modified regula falsi): bracketing like bisection, superlinear like secant.
    let (mut flo, mut fhi) = (range_cdf(lo, k) - p, range_cdf(hi, k) - p);
    let mut side = 0i8;
    for _ in 0..100 {
        let x = (lo * fhi - hi * flo) / (fhi - flo);
        let fx = range_cdf(x, k) - p;
        if fx.abs() < 1e-13 || (hi - lo) < 1e-12 {
            return Some(x);
        }
        if fx * fhi > 0.0 {
            hi = x;
            fhi = fx;
            if side == 1 {
                flo /= 2.0;
            }
            side = 1;
        } else {
            lo = x;
            flo = fx;
            if side == -1 {
                fhi /= 2.0;
            }
            side = -1;
        }
    }
    Some(0.5 * (lo + hi))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_arms_is_a_scaled_normal() {
        // k = 2: R = |Z1 − Z2| ~ √2·|N(0,1)|, so q_{0.95} = √2 · 1.959964
        let q = range_quantile(0.95, 2).unwrap();
        assert!((q / 2f64.sqrt() - 1.959964).abs() < 1e-6, "{q}");
        assert!((range_cdf(q, 2) - 0.95).abs() < 1e-9);
    }
}
