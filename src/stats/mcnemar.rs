//! McNemar's test for paired binary outcomes.

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
            ln_c += ((n - i + 1) as f64).ln() - (i as f64).ln();
        }
        terms.push(ln_c + ln_half_n);
    }
    let max = terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let cdf = max.exp() * terms.iter().map(|t| (t - max).exp()).sum::<f64>();
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
    fn symmetric_and_stable_for_large_counts() {
        assert_eq!(mcnemar_exact(36, 59), mcnemar_exact(59, 36));
        let p = mcnemar_exact(100_000, 100_500);
        assert!(p > 0.0 && p < 1.0, "{p}");
    }
}
