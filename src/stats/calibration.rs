//! Calibration of probabilities against 0/1 outcomes: expected calibration error, Brier score,
//! log loss, and Platt scaling.

use serde::{Deserialize, Serialize};

/// Probabilities are clipped to [ε, 1 − ε] in the log loss (scikit-learn's `log_loss` clips to
/// the float's machine epsilon; memaudit states 1e-15).
pub const LOG_LOSS_EPS: f64 = 1e-15;

/// One bin of a reliability diagram.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReliabilityBin {
    pub low: f64,
    pub high: f64,
    pub n: usize,
    /// Mean predicted probability in the bin.
    pub mean_probability: Option<f64>,
    /// Share of outcomes = 1 in the bin.
    pub accuracy: Option<f64>,
}

/// The reliability bins and the ECE.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ece {
    pub ece: f64,
    pub bins: Vec<ReliabilityBin>,
}

/// Expected calibration error with `bins` equal-width bins on [0, 1] (Naeini, Cooper &
/// Hauskrecht 2015; Guo et al. 2017): bin b holds p ∈ (b/B, (b + 1)/B] (the first also p = 0);
/// ECE = Σ_b (n_b/N)·|acc_b − conf_b|. `None` when empty, with B = 0, or a probability
/// outside [0, 1].
pub fn expected_calibration_error(p: &[f64], y: &[bool], bins: usize) -> Option<Ece> {
    if p.is_empty() || p.len() != y.len() || bins == 0 || p.iter().any(|x| !(0.0..=1.0).contains(x)) {
        return None;
    }
    let mut n = vec![0usize; bins];
    let mut sp = vec![0.0f64; bins];
    let mut sy = vec![0.0f64; bins];
    for (&pi, &yi) in p.iter().zip(y) {
        let b = ((pi * bins as f64).ceil() as usize).clamp(1, bins) - 1;
        n[b] += 1;
        sp[b] += pi;
        sy[b] += f64::from(u8::from(yi));
    }
    let total = p.len() as f64;
    let ece = (0..bins)
        .filter(|&b| n[b] > 0)
        .map(|b| n[b] as f64 / total * (sy[b] / n[b] as f64 - sp[b] / n[b] as f64).abs())
        .sum();
    let out = (0..bins)
        .map(|b| ReliabilityBin {
            low: b as f64 / bins as f64,
            high: (b + 1) as f64 / bins as f64,
            n: n[b],
            mean_probability: (n[b] > 0).then(|| sp[b] / n[b] as f64),
            accuracy: (n[b] > 0).then(|| sy[b] / n[b] as f64),
        })
        .collect();
    Some(Ece { ece, bins: out })
}

/// Brier score: mean (p − y)² (Brier 1950). `None` when empty.
pub fn brier_score(p: &[f64], y: &[bool]) -> Option<f64> {
    (!p.is_empty() && p.len() == y.len())
        .then(|| p.iter().zip(y).map(|(&pi, &yi)| (pi - f64::from(u8::from(yi))).powi(2)).sum::<f64>() / p.len() as f64)
}

/// Log loss (negative log-likelihood per item): −mean(y ln p + (1 − y) ln(1 − p)), p clipped to
/// [`LOG_LOSS_EPS`], 1 − [`LOG_LOSS_EPS`]. `None` when empty.
pub fn log_loss(p: &[f64], y: &[bool]) -> Option<f64> {
    (!p.is_empty() && p.len() == y.len()).then(|| {
        -p.iter()
            .zip(y)
            .map(|(&pi, &yi)| {
                let q = pi.clamp(LOG_LOSS_EPS, 1.0 - LOG_LOSS_EPS);
                if yi { q.ln() } else { (1.0 - q).ln() }
            })
            .sum::<f64>()
            / p.len() as f64
    })
}

/// A fitted Platt scaling p = 1/(1 + exp(−(a·s + b))).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Platt {
    pub a: f64,
    pub b: f64,
    pub iterations: usize,
}

impl Platt {
    pub fn probability(&self, s: f64) -> f64 {
        1.0 / (1.0 + (-(self.a * s + self.b)).exp())
    }
}

/// Platt scaling (Platt 1999) fitted by maximum likelihood: the logistic regression of y on the
/// score s, without Platt's smoothed targets (plain MLE, as statsmodels' `Logit`), by Newton's
/// method from (0, logit(ȳ)) until the step is below 1e-10 (at most 100 iterations). `None`
/// when the fit does not exist: fewer than two items, one outcome only, a constant score, or
/// separable data (the coefficients diverge).
pub fn platt_fit(s: &[f64], y: &[bool]) -> Option<Platt> {
    let n = s.len();
    if n < 2 || n != y.len() || s.iter().any(|x| !x.is_finite()) {
        return None;
    }
    let ones = y.iter().filter(|v| **v).count();
    if ones == 0 || ones == n || s.iter().all(|x| *x == s[0]) {
        return None;
    }
    let ybar = ones as f64 / n as f64;
    let (mut a, mut b) = (0.0f64, (ybar / (1.0 - ybar)).ln());
    for it in 1..=100 {
        // Gradient and Hessian of the log-likelihood.
        let (mut ga, mut gb, mut haa, mut hab, mut hbb) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for (&x, &yi) in s.iter().zip(y) {
            let p = 1.0 / (1.0 + (-(a * x + b)).exp());
            let r = f64::from(u8::from(yi)) - p;
            let w = p * (1.0 - p);
            ga += r * x;
            gb += r;
            haa += w * x * x;
            hab += w * x;
            hbb += w;
        }
        let det = haa * hbb - hab * hab;
        if det.abs() < 1e-300 || !det.is_finite() {
            return None;
        }
        let da = (hbb * ga - hab * gb) / det;
        let db = (haa * gb - hab * ga) / det;
        a += da;
        b += db;
        if !a.is_finite() || !b.is_finite() || a.abs() > 1e8 {
            return None;
        }
        if da.abs().max(db.abs()) < 1e-10 {
            return Some(Platt { a, b, iterations: it });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ece_brier_and_log_loss_by_hand() {
        let p = [0.1, 0.4, 0.35, 0.8, 1.0, 0.0];
        let y = [false, true, false, true, true, false];
        let e = expected_calibration_error(&p, &y, 2).unwrap();
        // Bin 1: p ≤ 0.5 → {0.1, 0.4, 0.35, 0.0}, acc 0.25, conf 0.2125; bin 2: {0.8, 1.0}, acc 1, conf 0.9.
        assert!((e.ece - (4.0 / 6.0 * 0.0375 + 2.0 / 6.0 * 0.1)).abs() < 1e-12, "{e:?}");
        assert!((brier_score(&p, &y).unwrap() - (0.01 + 0.36 + 0.1225 + 0.04) / 6.0).abs() < 1e-12);
        assert!(log_loss(&p, &y).unwrap() > 0.0);
        assert!(expected_calibration_error(&[1.2], &[true], 10).is_none());
    }

    #[test]
    fn platt_refuses_separable_data() {
        assert!(platt_fit(&[0.0, 1.0, 2.0, 3.0], &[false, false, true, true]).is_none());
        let f = platt_fit(&[0.0, 1.0, 2.0, 3.0, 1.5], &[false, true, false, true, true]).unwrap();
        assert!(f.a > 0.0);
    }
}
