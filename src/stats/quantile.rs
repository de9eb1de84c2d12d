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
    let (lo, frac) = position(n, p);
    let hi = (lo + 1).min(n - 1);
    sorted[lo] + frac * (sorted[hi] - sorted[lo])
}

/// Definition 7's position for n > 1 values: the lower order statistic ⌊h⌋ and h − ⌊h⌋, with
/// h = (n − 1)·p and p clamped to [0, 1].
fn position(n: usize, p: f64) -> (usize, f64) {
    let h = (n - 1) as f64 * p.clamp(0.0, 1.0);
    let lo = h.floor() as usize;
    (lo, h - lo as f64)
}

/// [`quantile_sorted`] of unsorted data, without sorting it: the two order statistics are found
/// by selection (O(n) rather than O(n log n)), under the same total order as
/// `sort_by(f64::total_cmp)`, so the value is bit-identical to sorting first. `values` is
/// reordered; it must be non-empty.
pub fn quantile_unsorted(values: &mut [f64], p: f64) -> f64 {
    debug_assert!(!values.is_empty());
    let n = values.len();
    if n == 1 {
        return values[0];
    }
    let (lo, frac) = position(n, p);
    let (_, &mut x_lo, above) = values.select_nth_unstable_by(lo, f64::total_cmp);
    let x_hi = above.iter().copied().min_by(f64::total_cmp).unwrap_or(x_lo);
    x_lo + frac * (x_hi - x_lo)
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

    #[test]
    fn selection_equals_sorting_bit_for_bit() {
        // Ties, signed zeros and every position, at the bootstrap's quantiles and the extremes.
        let mut state = 12345u64;
        for n in [1usize, 2, 3, 7, 40, 1001] {
            let data: Vec<f64> = (0..n)
                .map(|_| {
                    state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    match state >> 61 {
                        0 => 0.0,
                        1 => -0.0,
                        2 => 0.5,
                        _ => (state >> 11) as f64 / (1u64 << 53) as f64 - 0.5,
                    }
                })
                .collect();
            let mut sorted = data.clone();
            sorted.sort_by(f64::total_cmp);
            for p in [0.0, 0.025, 0.05, 0.5, 0.95, 0.975, 0.999, 1.0] {
                let mut work = data.clone();
                assert_eq!(
                    quantile_unsorted(&mut work, p).to_bits(),
                    quantile_sorted(&sorted, p).to_bits(),
                    "n={n} p={p}"
                );
            }
        }
    }
}
