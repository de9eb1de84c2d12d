//! Cliff's δ, the dominance statistic of two independent samples (Cliff 1993):
//!
//! ```text
//! δ = (#{(i, j): xᵢ > yⱼ} − #{(i, j): xᵢ < yⱼ}) / (n·m)      in [−1, 1]
//! ```
//!
//! = 2·U/(n·m) − 1 with U the Mann–Whitney count (ties ½). For 0/1 samples δ = p̂ₓ − p̂ᵧ.
//! Both samples sorted, each xᵢ is placed among the y by two pointers: the work is n + m after
//! the sorts. Reference: the brute-force mean of sign(xᵢ − yⱼ) over all pairs (NumPy,
//! `tests/reference/compliance/make_compliance_reference.py`).

/// Cliff's δ of `x` against `y`, both sorted ascending (`total_cmp`); `None` when either is
/// empty.
pub fn cliffs_delta_sorted(x: &[f64], y: &[f64]) -> Option<f64> {
    if x.is_empty() || y.is_empty() {
        return None;
    }
    // For each x (ascending): `below` = #y < x, `not_above` = #y ≤ x; both only move forward.
    let (mut below, mut not_above) = (0usize, 0usize);
    let mut dominance: i128 = 0;
    for &xi in x {
        while below < y.len() && y[below] < xi {
            below += 1;
        }
        while not_above < y.len() && y[not_above] <= xi {
            not_above += 1;
        }
        let above = y.len() - not_above;
        dominance += below as i128 - above as i128;
    }
    Some(dominance as f64 / (x.len() as f64 * y.len() as f64))
}

/// Cliff's δ of `x` against `y` in any order.
pub fn cliffs_delta(x: &[f64], y: &[f64]) -> Option<f64> {
    let sorted = |v: &[f64]| {
        let mut s = v.to_vec();
        s.sort_by(f64::total_cmp);
        s
    };
    cliffs_delta_sorted(&sorted(x), &sorted(y))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against the definition, pair by pair, on samples with ties.
    #[test]
    fn cliffs_delta_counts_every_pair() {
        let brute = |x: &[f64], y: &[f64]| {
            let s: f64 = x.iter().flat_map(|a| y.iter().map(move |b| (a - b).signum() * ((a != b) as u8 as f64))).sum();
            s / (x.len() * y.len()) as f64
        };
        let x = [0.0, 1.0 / 3.0, 1.0, 1.0, 2.0 / 3.0, 0.0];
        let y = [1.0 / 3.0, 1.0 / 3.0, 0.0, 1.0, 2.0 / 3.0];
        assert!((cliffs_delta(&x, &y).unwrap() - brute(&x, &y)).abs() < 1e-15);
        assert!((cliffs_delta(&y, &x).unwrap() + brute(&x, &y)).abs() < 1e-15);
        // 0/1 samples: δ = p_x − p_y.
        let (a, b) = ([1.0, 1.0, 0.0, 1.0], [0.0, 1.0, 0.0]);
        assert!((cliffs_delta(&a, &b).unwrap() - (0.75 - 1.0 / 3.0)).abs() < 1e-15);
        assert_eq!(cliffs_delta(&[], &b), None);
        assert_eq!(cliffs_delta(&[2.0], &[1.0]), Some(1.0));
    }
}
