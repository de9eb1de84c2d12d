//! Sample quantiles.

/// Quantile of sorted data by linear interpolation between order statistics: with
/// h = (n − 1)·p, Q(p) = x₍⌊h⌋₎ + (h − ⌊h⌋)(x₍⌊h⌋+1₎ − x₍⌊h⌋₎) (0-based order statistics).
/// Hyndman & Fan (1996) definition 7, the default of NumPy (`method="linear"`) and R.
///
/// `sorted` must be sorted ascending and non-empty; `p` is clamped to [0, 1].
pub fn quantile_sorted(sorted: &[f64], p: f64) -> f64 {
    debug_assert!(!sorted.is_empty());
    let n = sorted.len();
    if n == 1 {
        return sorted[0];
    }
    let h = (n - 1) as f64 * p.clamp(0.0, 1.0);
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(n - 1);
    sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
}

/// Median of unsorted data (NaN-free); `None` when empty.
pub fn median(values: &[f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    Some(quantile_sorted(&v, 0.5))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_numpy_linear() {
        // numpy.quantile([1, 2, 3, 4, 10], [0, .025, .25, .5, .975, 1]) =
        //   [1, 1.1, 2, 3, 9.4, 10]
        let x = [1.0, 2.0, 3.0, 4.0, 10.0];
        let want = [(0.0, 1.0), (0.025, 1.1), (0.25, 2.0), (0.5, 3.0), (0.975, 9.4), (1.0, 10.0)];
        for (p, q) in want {
            assert!((quantile_sorted(&x, p) - q).abs() < 1e-12, "p={p}");
        }
        assert_eq!(median(&[3.0, 1.0, 2.0, 10.0]), Some(2.5));
        assert_eq!(median(&[]), None);
        assert_eq!(quantile_sorted(&[7.0], 0.3), 7.0);
    }
}
