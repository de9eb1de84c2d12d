//! Beta–Binomial posterior superiority (BriefBench §5.4; seed-002 §2.9).
//!
//! With a Jeffreys prior Beta(½, ½), arm i with s_i successes in n_i trials has posterior
//! Beta(a_i, b_i) = Beta(s_i + ½, n_i − s_i + ½), and for independent arms
//!
//! ```text
//! P(θ₁ > θ₂) = ∫₀¹ f₁(t) · I_t(a₂, b₂) dt
//! ```
//!
//! (f₁ the density of arm 1, I the regularised incomplete beta function = the CDF of arm 2).
//! The densities of Jeffreys posteriors are unbounded at 0 or 1 when a or b < 1 (e.g.
//! Beta(40.5, 0.5) at t = 1). The substitution t = sin²φ, dt = 2 sinφ cosφ dφ cancels the
//! t^{−½}(1 − t)^{−½} factor, so the integrand in φ ∈ [0, π/2] is bounded; it is integrated by
//! adaptive Gauss–Kronrod (7–15) to 1e-10. Hand-written because no well-kept Rust crate offers
//! adaptive quadrature on wasm without pulling a large dependency. The arms are treated as
//! independent: on paired data this is an approximation (an upper bound on certainty, as the
//! BriefBench paper says).

use statrs::distribution::{Beta, Continuous, ContinuousCDF};

/// P(θ₁ > θ₂) for independent Beta(a1, b1) and Beta(a2, b2); `None` for invalid parameters.
pub fn prob_beta_greater(a1: f64, b1: f64, a2: f64, b2: f64) -> Option<f64> {
    Beta::new(a1, b1).ok()?;
    let d2 = Beta::new(a2, b2).ok()?;
    let ln_b1 = statrs::function::beta::ln_beta(a1, b1);
    // f₁(sin²φ)·2 sinφ cosφ = 2·sin^{2a−1}φ·cos^{2b−1}φ / B(a, b), in logs; with sin and cos
    // taken separately, 1 − t = cos²φ keeps full precision near t = 1.
    let f = |phi: f64| {
        let s = phi.sin();
        let c = phi.cos();
        let term = |x: f64, e: f64| {
            if x > 0.0 {
                e * x.ln()
            } else if e == 0.0 {
                0.0
            } else {
                f64::NEG_INFINITY
            }
        };
        let ln_dens = term(s, 2.0 * a1 - 1.0) + term(c, 2.0 * b1 - 1.0) - ln_b1;
        2.0 * ln_dens.exp() * d2.cdf(s * s)
    };
    let v = adaptive_gk(&f, 0.0, std::f64::consts::FRAC_PI_2, 1e-10, 24);
    Some(v.clamp(0.0, 1.0))
}

/// Posterior superiority of arm 1 over arm 2 with Jeffreys priors.
pub fn posterior_superiority(s1: f64, n1: f64, s2: f64, n2: f64) -> Option<f64> {
    if !(n1 > 0.0 && n2 > 0.0 && (0.0..=n1).contains(&s1) && (0.0..=n2).contains(&s2)) {
        return None;
    }
    prob_beta_greater(s1 + 0.5, n1 - s1 + 0.5, s2 + 0.5, n2 - s2 + 0.5)
}

/// Density of the Jeffreys posterior for plotting (0 outside (0, 1)).
pub fn jeffreys_density(s: f64, n: f64, t: f64) -> f64 {
    match Beta::new(s + 0.5, n - s + 0.5) {
        Ok(d) if t > 0.0 && t < 1.0 => d.pdf(t),
        _ => 0.0,
    }
}

#[allow(clippy::excessive_precision)] // published 30-digit tables, kept verbatim
const GK_NODES: [f64; 8] = [
    0.991455371120812639206854697526329,
    0.949107912342758524526189684047851,
    0.864864423359769072789712788640926,
    0.741531185599394439863864773280788,
    0.586087235467691130294144845693013,
    0.405845151377397166906606412076961,
    0.207784955007898467600689403773245,
    0.000000000000000000000000000000000,
];
#[allow(clippy::excessive_precision)]
const GK_WEIGHTS: [f64; 8] = [
    0.022935322010529224963732008058970,
    0.063092092629978553290700663189204,
    0.104790010322250183839876322541518,
    0.140653259715525918745189590510238,
    0.169004726639267902826583426598550,
    0.190350578064785409913256402421014,
    0.204432940075298892414161999234649,
    0.209482141084727828012999174891714,
];
#[allow(clippy::excessive_precision)]
const G_WEIGHTS: [f64; 4] = [
    0.129484966168869693270611432679082,
    0.279705391489276667901467771423780,
    0.381830050505118944950369775488975,
    0.417959183673469387755102040816327,
];

/// One 15-point Gauss–Kronrod panel: (Kronrod estimate, |Kronrod − Gauss| error estimate).
fn gk15(f: &dyn Fn(f64) -> f64, a: f64, b: f64) -> (f64, f64) {
    let c = 0.5 * (a + b);
    let h = 0.5 * (b - a);
    let fc = f(c);
    let mut k = fc * GK_WEIGHTS[7];
    let mut g = fc * G_WEIGHTS[3];
    for i in 0..7 {
        let x = h * GK_NODES[i];
        let s = f(c - x) + f(c + x);
        k += GK_WEIGHTS[i] * s;
        if i % 2 == 1 {
            g += G_WEIGHTS[i / 2] * s;
        }
    }
    (k * h, ((k - g) * h).abs())
}

fn adaptive_gk(f: &dyn Fn(f64) -> f64, a: f64, b: f64, tol: f64, depth: u32) -> f64 {
    let (v, err) = gk15(f, a, b);
    if err <= tol || depth == 0 || (b - a).abs() < 1e-15 {
        return v;
    }
    let m = 0.5 * (a + b);
    adaptive_gk(f, a, m, tol / 2.0, depth - 1) + adaptive_gk(f, m, b, tol / 2.0, depth - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    // seed-002 §2.9 (adaptive quadrature confirmed by 2M-draw Monte Carlo)
    #[test]
    fn briefbench_anchors() {
        let p = prob_beta_greater(35.5, 5.5, 32.5, 8.5).unwrap();
        assert!((p - 0.8180).abs() < 5e-5, "{p}");
        assert!((posterior_superiority(35.0, 40.0, 32.0, 40.0).unwrap() - p).abs() < 1e-12);
        let p = prob_beta_greater(40.5, 0.5, 27.5, 13.5).unwrap();
        assert!((p - 1.0).abs() < 5e-6, "{p} (singular density at t = 1)");
        let p = posterior_superiority(112.0, 120.0, 103.0, 120.0).unwrap();
        assert!((p - 0.9723).abs() < 5e-5, "{p}");
    }

    #[test]
    fn symmetry_and_equal_arms() {
        let p = posterior_superiority(7.0, 20.0, 11.0, 20.0).unwrap();
        let q = posterior_superiority(11.0, 20.0, 7.0, 20.0).unwrap();
        assert!((p + q - 1.0).abs() < 1e-9, "{p} + {q}");
        let e = posterior_superiority(0.0, 5.0, 0.0, 5.0).unwrap();
        assert!((e - 0.5).abs() < 1e-9, "{e}");
        assert!(posterior_superiority(6.0, 5.0, 0.0, 5.0).is_none());
    }
}
