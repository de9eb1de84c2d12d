//! The theory's curves beside the measured depth cells (BriefBench, seed-002 §1.12): the
//! similarity ceiling P_sim(d) = s₀^d·ρ^{d(d+1)/2} (Thm 7, Eq. 7), typed traversal
//! P_struct(d) = q^d (Thm 9) and the advantage g(d) = q^d − s₀^d·ρ^{d(d+1)/2} (Eq. 9), at stated
//! s₀, ρ, q (the paper calibrates 0.70, 0.67, 0.97: g(3) = 0.8816), each g(d) set beside the
//! measured margin Δ(d) of the focus arm with its interval.
//!
//! And both laws **fitted** to each arm's compliance by depth (the cells' means, unweighted, as
//! the paper's `model_selection.py` fits): least squares in log space without an intercept —
//! log c(d) = d·log q (one coefficient), log c(d) = d·log s₀ + d(d+1)/2·log ρ (two) — with the
//! Gaussian AIC and BIC of the log-space residuals as that script computes them
//! (log L = −n/2·(ln 2π + ln(RSS/n) + 1), RSS floored at 1e-12; k = coefficients + 1 for σ²;
//! AIC = 2k − 2 log L, BIC = k ln n − 2 log L). A fit with as many parameters as points is
//! saturated and refused (seed-002 §5 item 20: the paper's Table 37 fits three parameters to
//! three points), as is a cell of compliance 0 (no logarithm). The fits are in-sample: they
//! describe the cells, they test nothing.

use serde::{Deserialize, Serialize};

use super::analyse::{DepthRow, MarginRow};
use crate::error::{Error, Result};

crate::fields! {
    /// The theory's parameters (all three, or none: no theory curves).
    #[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
    #[serde(default)]
    pub struct TheorySettings {
        s0 as "theory_s0": Option<f64> = None, label "theory s₀",
            help "The theory's similarity at one hop s₀ (ceiling s₀^d·ρ^{d(d+1)/2}; BriefBench calibrates 0.70). With ρ and q, the theory's curves are set beside the depth cells and margins.";
        rho as "theory_rho": Option<f64> = None, label "theory ρ",
            help "The theory's per-hop decay ρ of similarity (BriefBench calibrates 0.67).";
        q as "theory_q": Option<f64> = None, label "theory q",
            help "The theory's per-hop success q of typed traversal, q^d (BriefBench calibrates 0.97).";
    }
}

impl TheorySettings {
    pub fn validate(&self) -> Result<()> {
        for (name, v) in [("theory_s0", self.s0), ("theory_rho", self.rho), ("theory_q", self.q)] {
            if let Some(v) = v
                && !(v > 0.0 && v <= 1.0)
            {
                return Err(Error::setting(name, format!("must be in (0, 1] (got {v})")));
            }
        }
        let given = [self.s0, self.rho, self.q].iter().filter(|v| v.is_some()).count();
        if given != 0 && given != 3 {
            return Err(Error::setting(
                if self.s0.is_none() {
                    "theory_s0"
                } else if self.rho.is_none() {
                    "theory_rho"
                } else {
                    "theory_q"
                },
                format!(
                    "the theory needs all three of {}, {} and {}",
                    crate::fields::mention("theory_s0"),
                    crate::fields::mention("theory_rho"),
                    crate::fields::mention("theory_q")
                ),
            ));
        }
        Ok(())
    }

    /// (s₀, ρ, q) when all three are given.
    pub fn parameters(&self) -> Option<(f64, f64, f64)> {
        Some((self.s0?, self.rho?, self.q?))
    }
}

/// The similarity ceiling s₀^d·ρ^{d(d+1)/2}.
pub fn similarity_ceiling(s0: f64, rho: f64, d: f64) -> f64 {
    s0.powf(d) * rho.powf(d * (d + 1.0) / 2.0)
}

/// Typed traversal q^d.
pub fn structured(q: f64, d: f64) -> f64 {
    q.powf(d)
}

/// The theory at one depth of one group, and the measured margin there when a focus arm is set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TheoryRow {
    pub group: String,
    pub depth: f64,
    pub similarity_ceiling: f64,
    pub structured: f64,
    /// g(d) = q^d − s₀^d·ρ^{d(d+1)/2}.
    pub advantage: f64,
    /// The focus arm and the arm it is measured against (the best of the others: `best`).
    pub focus: Option<String>,
    pub against: Option<String>,
    /// The measured Δ(d) and its interval.
    pub delta: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
    /// Whether g(d) lies inside the measured interval (`None`: no interval).
    pub inside: Option<bool>,
}

/// One law fitted to one arm's compliance by depth.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LawFit {
    pub group: String,
    pub arm: String,
    /// `structured` (q^d) or `similarity_ceiling` (s₀^d·ρ^{d(d+1)/2}).
    pub law: String,
    /// Depth cells fitted.
    pub points: usize,
    /// Parameters counted by the criteria (coefficients + σ²).
    pub parameters: usize,
    pub q: Option<f64>,
    pub s0: Option<f64>,
    pub rho: Option<f64>,
    /// Residual sum of squares in log space.
    pub rss: Option<f64>,
    pub aic: Option<f64>,
    pub bic: Option<f64>,
    /// Why the law was not fitted (saturated, a cell of compliance 0).
    pub refused: Option<String>,
}

/// The Gaussian log-likelihood of log-space residuals, as BriefBench's `model_selection.py`.
fn log_likelihood(rss: f64, n: f64) -> f64 {
    let rss = if rss <= 0.0 { 1e-12 } else { rss };
    -0.5 * n * ((2.0 * std::f64::consts::PI).ln() + (rss / n).ln() + 1.0)
}

/// AIC and BIC of a log-space fit with `k` parameters (σ² included) on `n` points.
pub fn information_criteria(rss: f64, n: usize, k: usize) -> (f64, f64) {
    let ll = log_likelihood(rss, n as f64);
    (2.0 * k as f64 - 2.0 * ll, k as f64 * (n as f64).ln() - 2.0 * ll)
}

/// Least squares without an intercept of `y` on the columns `x` (one or two): the coefficients
/// and the residual sum of squares; `None` when the design is singular.
fn least_squares(x: &[Vec<f64>], y: &[f64]) -> Option<(Vec<f64>, f64)> {
    let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(p, q)| p * q).sum::<f64>();
    let beta = match x {
        [a] => {
            let aa = dot(a, a);
            if aa == 0.0 {
                return None;
            }
            vec![dot(a, y) / aa]
        }
        [a, b] => {
            let (aa, ab, bb) = (dot(a, a), dot(a, b), dot(b, b));
            let det = aa * bb - ab * ab;
            if det.abs() <= 1e-12 * aa.max(bb).max(1.0) * aa.max(bb).max(1.0) {
                return None;
            }
            let (ay, by) = (dot(a, y), dot(b, y));
            vec![(bb * ay - ab * by) / det, (aa * by - ab * ay) / det]
        }
        _ => return None,
    };
    let rss = y
        .iter()
        .enumerate()
        .map(|(i, yi)| {
            let fit: f64 = x.iter().zip(&beta).map(|(col, b)| col[i] * b).sum();
            (yi - fit).powi(2)
        })
        .sum();
    Some((beta, rss))
}

/// Both laws fitted to one arm's (depth, compliance) cells.
pub fn fit_laws(group: &str, arm: &str, cells: &[(f64, f64)]) -> Vec<LawFit> {
    let n = cells.len();
    let mut out = Vec::new();
    for (law, coefficients) in [("structured", 1usize), ("similarity_ceiling", 2)] {
        let k = coefficients + 1;
        let mut fit = LawFit {
            group: group.to_string(),
            arm: arm.to_string(),
            law: law.to_string(),
            points: n,
            parameters: k,
            q: None,
            s0: None,
            rho: None,
            rss: None,
            aic: None,
            bic: None,
            refused: None,
        };
        if k >= n {
            fit.refused = Some(format!("saturated: {k} parameters (σ² included) on {n} depth cell(s)"));
        } else if let Some((d, _)) = cells.iter().find(|(_, c)| *c <= 0.0) {
            fit.refused = Some(format!("compliance 0 at depth {d}: no logarithm"));
        } else {
            let y: Vec<f64> = cells.iter().map(|(_, c)| c.ln()).collect();
            let d: Vec<f64> = cells.iter().map(|(d, _)| *d).collect();
            let x: Vec<Vec<f64>> = if coefficients == 1 {
                vec![d.clone()]
            } else {
                vec![d.clone(), d.iter().map(|d| d * (d + 1.0) / 2.0).collect()]
            };
            match least_squares(&x, &y) {
                Some((beta, rss)) => {
                    if coefficients == 1 {
                        fit.q = Some(beta[0].exp());
                    } else {
                        fit.s0 = Some(beta[0].exp());
                        fit.rho = Some(beta[1].exp());
                    }
                    let (aic, bic) = information_criteria(rss, n, k);
                    (fit.rss, fit.aic, fit.bic) = (Some(rss), Some(aic), Some(bic));
                }
                None => fit.refused = Some("the depths do not identify the law (singular design)".into()),
            }
        }
        out.push(fit);
    }
    out
}

/// The theory rows of a report (empty without parameters or depth cells): per (group, depth)
/// of the depth cells, and per margin of the focus against the best other arm.
pub fn theory_rows(settings: &TheorySettings, depth: &[DepthRow], margins: &[MarginRow]) -> Vec<TheoryRow> {
    let Some((s0, rho, q)) = settings.parameters() else { return Vec::new() };
    let mut keys: Vec<(&str, f64)> = Vec::new();
    for c in depth {
        if c.depth.is_finite() && !keys.iter().any(|(g, d)| *g == c.group && *d == c.depth) {
            keys.push((&c.group, c.depth));
        }
    }
    keys.iter()
        .map(|&(g, d)| {
            let (sim, st) = (similarity_ceiling(s0, rho, d), structured(q, d));
            let advantage = st - sim;
            // The focus's margin against the best of the others at this depth: the `max(…)` row,
            // or the only row when there is one other arm.
            let here: Vec<&MarginRow> = margins.iter().filter(|m| m.group == g && m.depth == d).collect();
            let m = match here.iter().find(|m| m.against.starts_with("max(")) {
                Some(m) => Some(*m),
                None if here.len() == 1 => Some(here[0]),
                None => None,
            };
            TheoryRow {
                group: g.to_string(),
                depth: d,
                similarity_ceiling: sim,
                structured: st,
                advantage,
                focus: m.map(|m| m.focus.clone()),
                against: m.map(|m| m.best.clone()),
                delta: m.map(|m| m.delta),
                low: m.and_then(|m| m.low),
                high: m.and_then(|m| m.high),
                inside: m.and_then(|m| Some(m.low? <= advantage && advantage <= m.high?)),
            }
        })
        .collect()
}

/// Both laws fitted to every (group, arm) with depth cells.
pub fn law_fits(depth: &[DepthRow]) -> Vec<LawFit> {
    let by = crate::distinct::groups_first_seen(depth.iter().filter(|c| c.depth.is_finite()), |c| {
        (c.group.clone(), c.arm.clone())
    });
    by.into_iter()
        .flat_map(|((g, a), cells)| {
            let points: Vec<(f64, f64)> = cells.iter().map(|c| (c.depth, c.compliance)).collect();
            fit_laws(&g, &a, &points)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The paper's calibrated values, recomputed in seed-002 §1.12: g(1) = 0.5010,
    /// g(2) = 0.7935, g(3) = 0.8816, g(4) = 0.8809; q³ = 0.9127, s₀³ρ⁶ = 0.03103 (the paper:
    /// "≈ 0.91", "≈ 0.031", "g(3) ≈ 0.882").
    #[test]
    fn the_papers_calibrated_curves() {
        let g = |d: f64| structured(0.97, d) - similarity_ceiling(0.70, 0.67, d);
        for (d, want) in [(1.0, 0.5010), (2.0, 0.7935), (3.0, 0.8816), (4.0, 0.8809)] {
            assert!((g(d) - want).abs() < 5e-5, "g({d}) = {}", g(d));
        }
        assert!((structured(0.97, 3.0) - 0.9127).abs() < 5e-5);
        assert!((similarity_ceiling(0.70, 0.67, 3.0) - 0.03103).abs() < 5e-6);
    }

    #[test]
    fn settings_all_or_none_in_range() {
        let ok = TheorySettings { s0: Some(0.7), rho: Some(0.67), q: Some(0.97) };
        assert!(ok.validate().is_ok() && TheorySettings::default().validate().is_ok());
        let e = TheorySettings { rho: None, ..ok }.validate().unwrap_err().to_string();
        assert!(e.contains("theory") && e.contains("all three"), "{e}");
        assert!(TheorySettings { q: Some(1.5), ..ok }.validate().is_err());
    }

    /// Saturated fits and compliance 0 are refused with their reason.
    #[test]
    fn saturated_and_zero_cells_are_refused() {
        let two = fit_laws("", "a", &[(1.0, 0.9), (2.0, 0.8)]);
        assert!(two[0].refused.as_deref().unwrap().starts_with("saturated: 2 parameters"), "{two:?}");
        let three = fit_laws("", "a", &[(1.0, 0.9), (2.0, 0.8), (3.0, 0.7)]);
        assert!(three[0].refused.is_none() && three[0].q.is_some(), "{three:?}");
        assert!(three[1].refused.as_deref().unwrap().starts_with("saturated: 3 parameters"), "{three:?}");
        let zero = fit_laws("", "a", &[(1.0, 0.9), (2.0, 0.0), (3.0, 0.5), (4.0, 0.4)]);
        assert!(zero.iter().all(|f| f.refused.as_deref() == Some("compliance 0 at depth 2: no logarithm")));
    }
}
