//! McNemar's test for paired binary outcomes: the help/hurt ledger (b, c) and four p-values.

use serde::{Deserialize, Serialize};
use statrs::distribution::{ChiSquared, ContinuousCDF};

/// All McNemar variants for one 2×2 paired table (conventions.md §3.5).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct McNemar {
    /// A right, B wrong.
    pub b: u64,
    /// A wrong, B right.
    pub c: u64,
    /// Exact two-sided p (binomial, ½): the default.
    pub exact_p: f64,
    /// Mid-p: exact p − P[X = min(b, c)] (Lancaster 1961; Fagerland et al. 2013).
    /// `None` with no discordant pairs.
    pub mid_p: Option<f64>,
    /// χ² with continuity correction, (|b − c| − 1)² / (b + c) (Edwards 1948).
    pub chi2_cc: Option<f64>,
    pub p_chi2_cc: Option<f64>,
    /// χ² without correction, (b − c)² / (b + c) (McNemar 1947).
    pub chi2: Option<f64>,
    pub p_chi2: Option<f64>,
}

/// Every variant for discordant counts `b` and `c`. With b + c = 0 the test has nothing to
/// say: exact p = 1 and the others are `None` (never a division by zero).
pub fn mcnemar(b: u64, c: u64) -> McNemar {
    let n = b + c;
    let exact_p = mcnemar_exact(b, c);
    if n == 0 {
        return McNemar { b, c, exact_p, mid_p: None, chi2_cc: None, p_chi2_cc: None, chi2: None, p_chi2: None };
    }
    let m = b.min(c);
    let pmf = libm::exp(ln_choose(n, m) - n as f64 * std::f64::consts::LN_2);
    // two-sided mid-p: 2·(P[X ≤ m] − ½P[X = m]) = exact − pmf (capped at 1 when b = c)
    let mid = if b == c { 1.0 - pmf } else { exact_p - pmf };
    let diff = (b as f64 - c as f64).abs();
    // statsmodels' form: no clamp at 0, so b = c gives 1/(b + c), as in conventions.md §3.5
    let chi2_cc = (diff - 1.0).powi(2) / n as f64;
    let chi2 = diff * diff / n as f64;
    let chi = ChiSquared::new(1.0).ok();
    let sf = |x: f64| chi.map(|d| d.sf(x));
    McNemar {
        b,
        c,
        exact_p,
        mid_p: Some(mid),
        chi2_cc: Some(chi2_cc),
        p_chi2_cc: sf(chi2_cc),
        chi2: Some(chi2),
        p_chi2: sf(chi2),
    }
}

/// ln C(n, k) = Σᵢ ln((n − k + i)/i), with libm so native and wasm builds agree bit for bit.
pub(crate) fn ln_choose(n: u64, k: u64) -> f64 {
    (1..=k).map(|i| libm::log((n - k + i) as f64) - libm::log(i as f64)).sum()
}

/// Exact two-sided McNemar p-value from the discordant counts `b` (A right, B wrong) and `c`
/// (A wrong, B right): p = min(1, 2·P[X ≤ min(b, c)]) with X ~ Binomial(b + c, ½)
/// (McNemar 1947; equals `scipy.stats.binomtest(b, b + c).pvalue` and statsmodels
/// `mcnemar(exact=True)`). With no discordant pairs the test has nothing to say: p = 1.
pub fn mcnemar_exact(b: u64, c: u64) -> f64 {
    let n = b + c;
    if n == 0 {
        return 1.0;
    }
    let m = b.min(c);
    // P[X <= m] summed in log space: C(n, i) / 2^n, stable for n in the millions.
    let ln_half_n = -(n as f64) * std::f64::consts::LN_2;
    let mut ln_c = 0.0f64; // ln C(n, 0)
    let mut terms = Vec::with_capacity(m as usize + 1);
    for i in 0..=m {
        if i > 0 {
            ln_c += libm::log((n - i + 1) as f64) - libm::log(i as f64);
        }
        terms.push(ln_c + ln_half_n);
    }
    let max = terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    // libm rather than std: identical results natively and in the browser
    let cdf = libm::exp(max) * terms.iter().map(|t| libm::exp(t - max)).sum::<f64>();
    (2.0 * cdf).min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    // conventions.md §3.5 (SciPy binomtest / statsmodels mcnemar exact)
    #[test]
    fn reference_table() {
        let cases = [
            (0, 0, 1.0),
            (0, 1, 1.0),
            (1, 1, 1.0),
            (0, 5, 0.0625),
            (1, 6, 0.125),
            (2, 10, 0.0385742188),
            (3, 12, 0.03515625),
            (5, 5, 1.0),
            (10, 25, 0.0166738478),
            (12, 2, 0.0129394531),
            (59, 36, 0.0234880028),
        ];
        for (b, c, p) in cases {
            let got = mcnemar_exact(b, c);
            assert!((got - p).abs() < 1e-9, "b={b} c={c}: {got} vs {p}");
        }
    }

    #[test]
    fn all_variants_reference_table() {
        // (b, c, mid-p, chi2 cc, p cc, chi2, p) from conventions.md §3.5
        let cases = [
            (0, 1, 0.5, 0.0, 1.0, 1.0, 0.317311),
            (1, 1, 0.5, 0.5, 0.479500, 0.0, 1.0),
            (0, 5, 0.03125, 3.2, 0.073638, 5.0, 0.025347),
            (1, 6, 0.0703125, 2.285714, 0.130570, 3.571429, 0.058782),
            (2, 10, 0.0224609375, 4.083333, 0.043308, 5.333333, 0.020921),
            (3, 12, 0.0212707520, 4.266667, 0.038867, 5.4, 0.020137),
            (5, 5, 0.75390625, 0.1, 0.751830, 0.0, 1.0),
            (10, 25, 0.0113309842, 5.6, 0.017960, 6.428571, 0.011230),
            (12, 2, 0.0073852539, 5.785714, 0.016157, 7.142857, 0.007526),
            (59, 36, 0.0184333529, 5.094737, 0.023999, 5.568421, 0.018287),
        ];
        for (b, c, mid, x2cc, pcc, x2, p) in cases {
            let m = mcnemar(b, c);
            assert!((m.mid_p.unwrap() - mid).abs() < 1e-9, "{b},{c} mid {:?}", m.mid_p);
            assert!((m.chi2_cc.unwrap() - x2cc).abs() < 5e-7, "{b},{c}");
            assert!((m.p_chi2_cc.unwrap() - pcc).abs() < 5e-7, "{b},{c} {:?}", m.p_chi2_cc);
            assert!((m.chi2.unwrap() - x2).abs() < 5e-7, "{b},{c}");
            assert!((m.p_chi2.unwrap() - p).abs() < 5e-7, "{b},{c} {:?}", m.p_chi2);
        }
        let none = mcnemar(0, 0);
        assert_eq!((none.exact_p, none.mid_p, none.chi2), (1.0, None, None));
        // Agresti's presidential approval table: z² = (150 − 86)²/236
        assert!((mcnemar(150, 86).chi2.unwrap() - 17.3559).abs() < 5e-5);
        // seed-002 §2.6: forced b = 13, c = 0 → p = 2^-12
        assert!((mcnemar(13, 0).exact_p - 2f64.powi(-12)).abs() < 1e-15);
    }

    // seed-003-004 B3: exact two-sided binomial on (help, hurt) for the TAG ledgers
    #[test]
    fn tag_ledger_p_values() {
        for (b, c, p) in [(58, 16, 9.67e-07), (50, 4, 3.8e-11), (12, 4, 0.0768)] {
            let got = mcnemar_exact(b, c);
            assert!((got - p).abs() / p < 5e-3, "{b}/{c}: {got}");
        }
    }

    #[test]
    fn symmetric_and_stable_for_large_counts() {
        assert_eq!(mcnemar_exact(36, 59), mcnemar_exact(59, 36));
        let p = mcnemar_exact(100_000, 100_500);
        assert!(p > 0.0 && p < 1.0, "{p}");
    }
}
