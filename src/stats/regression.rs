//! Ordinary least squares of y on one regressor x (Draper & Smith 1998, ch. 1):
//!
//! ```text
//! β̂ = Σ(xᵢ − x̄)(yᵢ − ȳ) / Σ(xᵢ − x̄)²,   α̂ = ȳ − β̂x̄
//! se(β̂) = √( Σ(yᵢ − α̂ − β̂xᵢ)² / (n − 2) / Σ(xᵢ − x̄)² )
//! ```
//!
//! (SciPy's `linregress` slope, intercept and `stderr`.) Weighted by integer counts, the same
//! sums give the slope of a bootstrap resample without copying it.

use serde::{Deserialize, Serialize};

/// A fitted line.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Line {
    pub slope: f64,
    pub intercept: f64,
    /// The classical standard error of the slope (`None` with n ≤ 2).
    pub slope_se: Option<f64>,
    pub n: usize,
}

/// OLS of y on x; `None` when fewer than two points or x is constant.
pub fn ols(x: &[f64], y: &[f64]) -> Option<Line> {
    let n = x.len();
    if n < 2 || y.len() != n {
        return None;
    }
    let nf = n as f64;
    let mx = x.iter().sum::<f64>() / nf;
    let my = y.iter().sum::<f64>() / nf;
    let (mut sxx, mut sxy) = (0.0, 0.0);
    for (a, b) in x.iter().zip(y) {
        sxx += (a - mx) * (a - mx);
        sxy += (a - mx) * (b - my);
    }
    if sxx == 0.0 {
        return None;
    }
    let slope = sxy / sxx;
    let intercept = my - slope * mx;
    let slope_se = (n > 2).then(|| {
        let sse: f64 = x.iter().zip(y).map(|(a, b)| (b - intercept - slope * a).powi(2)).sum();
        (sse / (nf - 2.0) / sxx).sqrt()
    });
    Some(Line { slope, intercept, slope_se, n })
}

/// The OLS slope and intercept from count-weighted sums (Σw, Σwx, Σwxx, Σwy, Σwxy); `None` when x
/// is constant under the weights.
pub fn weighted_line(sw: f64, swx: f64, swxx: f64, swy: f64, swxy: f64) -> Option<(f64, f64)> {
    let det = sw * swxx - swx * swx;
    if sw <= 0.0 || det.abs() <= 1e-12 * sw * swxx.abs().max(1.0) {
        return None;
    }
    let slope = (sw * swxy - swx * swy) / det;
    Some((slope, (swy - slope * swx) / sw))
}

#[cfg(test)]
mod tests {
    use super::*;

    // seed-002 A25: Table 7 counts 38/39/35 of 40 at depths 1/2/3 → β̂ = −0.0375.
    #[test]
    fn briefbench_table7_slope() {
        let (mut x, mut y) = (Vec::new(), Vec::new());
        for (d, k) in [(1.0, 38), (2.0, 39), (3.0, 35)] {
            for i in 0..40 {
                x.push(d);
                y.push(if i < k { 1.0 } else { 0.0 });
            }
        }
        let l = ols(&x, &y).unwrap();
        assert!((l.slope + 0.0375).abs() < 1e-12, "{}", l.slope);
        let (s, _) = weighted_line(120.0, 240.0, 560.0, 112.0, 2.0 * 0.0 + (38.0 + 78.0 + 105.0)).unwrap();
        assert!((s - l.slope).abs() < 1e-12);
    }
}
