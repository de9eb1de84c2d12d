//! Fisher's exact test of a 2×2 table, and its sample odds ratio (Fisher 1935).
//!
//! The table `[[a, b], [c, d]]` (rows: two arms; columns: success, failure). With its margins
//! fixed (r₁ = a + b, r₂ = c + d, c₁ = a + c, N), the top-left cell X is hypergeometric:
//!
//! ```text
//! P(X = x) = C(r₁, x) · C(r₂, c₁ − x) / C(N, c₁),   max(0, c₁ − r₂) ≤ x ≤ min(r₁, c₁)
//! p (two-sided) = Σ P(X = x) over the x with P(X = x) ≤ P(X = a) · (1 + 10⁻⁷)
//! odds ratio = (a·d) / (b·c)
//! ```
//!
//! The two-sided rule (tables no more probable than the observed one, with a relative
//! tolerance of 10⁻⁷) is SciPy's `scipy.stats.fisher_exact(…, alternative="two-sided")` and R's
//! `fisher.test`. The odds ratio is SciPy's `statistic` (the sample odds ratio, not R's
//! conditional MLE); it is `None` when b·c = 0 (infinite, or 0/0). The probabilities are
//! walked from the lowest x by the ratio P(x+1)/P(x) = (r₁ − x)(c₁ − x) / ((x + 1)(r₂ − c₁ + x + 1))
//! in log space: the work is the support's size, at most min(r₁, c₁) + 1.
//! Reference: `tests/reference/stats/make_fisher_reference.py` (SciPy).

use serde::{Deserialize, Serialize};

use super::mcnemar::ln_choose;

/// Fisher's exact test of one 2×2 table.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Fisher {
    /// Two-sided p.
    pub p: f64,
    /// (a·d)/(b·c); `None` when b·c = 0.
    pub odds_ratio: Option<f64>,
}

/// Fisher's exact test of `[[a, b], [c, d]]`.
pub fn fisher_exact(a: u64, b: u64, c: u64, d: u64) -> Fisher {
    let odds_ratio = (b > 0 && c > 0).then(|| (a as f64 * d as f64) / (b as f64 * c as f64));
    let (r1, r2, c1) = (a + b, c + d, a + c);
    let n = r1 + r2;
    if r1 == 0 || r2 == 0 || c1 == 0 || c1 == n {
        // A margin of zero: every table with these margins is the observed one.
        return Fisher { p: 1.0, odds_ratio };
    }
    let low = c1.saturating_sub(r2);
    let high = r1.min(c1);
    let mut lp = ln_choose(r1, low) + ln_choose(r2, c1 - low) - ln_choose(n, c1);
    let mut logs = Vec::with_capacity((high - low + 1) as usize);
    for x in low..=high {
        logs.push(lp);
        if x < high {
            lp += libm::log((r1 - x) as f64 * (c1 - x) as f64) - libm::log((x + 1) as f64 * (r2 + x + 1 - c1) as f64);
        }
    }
    let observed = logs[(a - low) as usize];
    let bound = observed + libm::log1p(1e-7);
    let p: f64 = logs.iter().filter(|&&l| l <= bound).map(|&l| libm::exp(l)).sum();
    Fisher { p: p.min(1.0), odds_ratio }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SciPy's values (`tests/reference/stats/fisher.json`, made by `make_fisher_reference.py`):
    /// small, unbalanced, symmetric, empty-margin and large tables.
    #[test]
    fn fisher_exact_equals_scipy() {
        let cases: serde_json::Value =
            serde_json::from_str(include_str!("../../tests/reference/stats/fisher.json")).unwrap();
        for case in cases.as_array().unwrap() {
            let t: Vec<u64> = case["table"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).collect();
            let f = fisher_exact(t[0], t[1], t[2], t[3]);
            let p = case["p"].as_f64().unwrap();
            assert!((f.p - p).abs() <= 1e-9 * p.max(1e-300) + 1e-15, "{t:?}: p {} vs SciPy {p}", f.p);
            match case["odds_ratio"].as_f64() {
                Some(or) => assert!((f.odds_ratio.unwrap() - or).abs() <= 1e-12 * or.max(1.0), "{t:?}"),
                None => assert_eq!(f.odds_ratio, None, "{t:?}"),
            }
        }
    }
}
