//! Multiplicity adjustment across a family of p-values.

/// Holm's step-down adjusted p-values (Holm 1979): with p sorted ascending p₍₁₎ ≤ … ≤ p₍ₘ₎,
/// p̃₍ᵢ₎ = max_{j ≤ i} min(1, (m − j + 1)·p₍ⱼ₎). Returned in the input order
/// (= `statsmodels.stats.multitest.multipletests(method="holm")`).
pub fn holm(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut idx: Vec<usize> = (0..m).collect();
    idx.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    let mut out = vec![0.0; m];
    let mut running: f64 = 0.0;
    for (i, &j) in idx.iter().enumerate() {
        running = running.max(((m - i) as f64 * p[j]).min(1.0));
        out[j] = running;
    }
    out
}

/// Benjamini–Hochberg adjusted p-values (step-up FDR, Benjamini & Hochberg 1995):
/// p̃₍ᵢ₎ = min_{j ≥ i} min(1, m·p₍ⱼ₎ / j), in the input order (= `method="fdr_bh"`).
pub fn benjamini_hochberg(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut idx: Vec<usize> = (0..m).collect();
    idx.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    let mut out = vec![0.0; m];
    let mut running: f64 = 1.0;
    for (rank, &j) in idx.iter().enumerate().rev() {
        running = running.min((m as f64 * p[j] / (rank + 1) as f64).min(1.0));
        out[j] = running;
    }
    out
}

/// Bonferroni: min(1, m·p).
pub fn bonferroni(p: &[f64]) -> Vec<f64> {
    let m = p.len() as f64;
    p.iter().map(|x| (x * m).min(1.0)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    // statsmodels multipletests on [0.01, 0.04, 0.03, 0.005, 0.2, 0.04]
    #[test]
    fn statsmodels_reference() {
        let p = [0.01, 0.04, 0.03, 0.005, 0.2, 0.04];
        let want_holm = [0.05, 0.12, 0.12, 0.03, 0.2, 0.12];
        let want_bh = [0.03, 0.048, 0.048, 0.03, 0.2, 0.048];
        assert_eq!((holm(&p).len(), benjamini_hochberg(&p).len()), (p.len(), p.len()));
        for (g, w) in holm(&p).iter().zip(want_holm) {
            assert!((g - w).abs() < 1e-12);
        }
        for (g, w) in benjamini_hochberg(&p).iter().zip(want_bh) {
            assert!((g - w).abs() < 1e-12);
        }
        assert!(holm(&[]).is_empty());
        assert_eq!(bonferroni(&[0.3, 0.01]), vec![0.6, 0.02]);
    }
}
