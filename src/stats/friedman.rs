//! The Friedman test on a blocks × arms score matrix (Friedman 1937; Demšar 2006 §3.2.2).
//!
//! Within each block the arms are ranked with mid-ranks, rank 1 = best (the highest score when
//! higher is better). With mean ranks R̄_j over N blocks and k arms:
//!
//! ```text
//! χ²_F = 12N / (k(k + 1)) · Σ_j (R̄_j − (k + 1)/2)²            (Demšar's form, no tie correction)
//! χ²_F,ties = χ²_F / (1 − Σ_blocks Σ_ties (t³ − t) / (N k (k² − 1)))   (scipy, R friedman.test)
//! F_F = (N − 1) χ²_F / (N(k − 1) − χ²_F)                        (Iman & Davenport 1980)
//! ```
//!
//! χ² p-values with k − 1 df; F_F with (k − 1, (k − 1)(N − 1)) df. Both χ² variants are
//! reported and labelled, because the tools disagree (Demšar's worked example uses the
//! uncorrected form; SciPy and R correct for ties).

use serde::{Deserialize, Serialize};
use statrs::distribution::{ChiSquared, ContinuousCDF, FisherSnedecor};

use super::ranks::{average_ranks, tie_sizes};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Friedman {
    pub k: usize,
    pub n_blocks: usize,
    /// Mean rank per arm, 1 = best.
    pub mean_ranks: Vec<f64>,
    pub chi2: f64,
    pub p: f64,
    pub chi2_tie_corrected: f64,
    pub p_tie_corrected: f64,
    pub iman_davenport_f: Option<f64>,
    pub p_iman_davenport: Option<f64>,
}

/// Ranks of one block, 1 = best.
pub fn block_ranks(scores: &[f64], higher_is_better: bool) -> Vec<f64> {
    if higher_is_better {
        let neg: Vec<f64> = scores.iter().map(|x| -x).collect();
        average_ranks(&neg)
    } else {
        average_ranks(scores)
    }
}

/// Friedman on `blocks[i][j]` = score of arm j on block i (every block complete). `None` when
/// there are fewer than 2 arms or no blocks, or blocks of different lengths.
pub fn friedman(blocks: &[Vec<f64>], higher_is_better: bool) -> Option<Friedman> {
    let n = blocks.len();
    let k = blocks.first()?.len();
    if k < 2 || blocks.iter().any(|b| b.len() != k) {
        return None;
    }
    let kf = k as f64;
    let nf = n as f64;
    let mut sums = vec![0.0; k];
    let mut tie_term = 0.0;
    for b in blocks {
        for (s, r) in sums.iter_mut().zip(block_ranks(b, higher_is_better)) {
            *s += r;
        }
        tie_term += tie_sizes(b).iter().map(|&t| (t * t * t - t) as f64).sum::<f64>();
    }
    let mean_ranks: Vec<f64> = sums.iter().map(|s| s / nf).collect();
    let centre = (kf + 1.0) / 2.0;
    let chi2 = 12.0 * nf / (kf * (kf + 1.0)) * mean_ranks.iter().map(|r| (r - centre).powi(2)).sum::<f64>();
    let correction = 1.0 - tie_term / (nf * kf * (kf * kf - 1.0));
    let chi2_tie_corrected = if correction > 0.0 { chi2 / correction } else { chi2 };
    let dist = ChiSquared::new(kf - 1.0).ok()?;
    let (f, pf) = if nf * (kf - 1.0) - chi2 > 0.0 && n > 1 {
        let f = (nf - 1.0) * chi2 / (nf * (kf - 1.0) - chi2);
        let p = FisherSnedecor::new(kf - 1.0, (kf - 1.0) * (nf - 1.0)).ok().map(|d| d.sf(f));
        (Some(f), p)
    } else {
        (None, None)
    };
    Some(Friedman {
        k,
        n_blocks: n,
        mean_ranks,
        chi2,
        p: dist.sf(chi2),
        chi2_tie_corrected,
        p_tie_corrected: dist.sf(chi2_tie_corrected),
        iman_davenport_f: f,
        p_iman_davenport: pf,
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Demšar (2006) Table 6: AUC of C4.5, C4.5+m, C4.5+cf, C4.5+m+cf on 14 data sets.
    pub(crate) fn demsar_table6() -> Vec<Vec<f64>> {
        let flat = [
            0.763, 0.768, 0.771, 0.798, 0.599, 0.591, 0.590, 0.569, 0.954, 0.971, 0.968, 0.967, 0.628, 0.661, 0.654,
            0.657, 0.882, 0.888, 0.886, 0.898, 0.936, 0.931, 0.916, 0.931, 0.661, 0.668, 0.609, 0.685, 0.583, 0.583,
            0.563, 0.625, 0.775, 0.838, 0.866, 0.875, 1.000, 1.000, 1.000, 1.000, 0.940, 0.962, 0.965, 0.962, 0.619,
            0.666, 0.614, 0.669, 0.972, 0.981, 0.975, 0.975, 0.957, 0.978, 0.946, 0.970,
        ];
        flat.chunks(4).map(|c| c.to_vec()).collect()
    }

    // conventions.md §3.2: the printed table (voting ties cf and m+cf at 0.975)
    #[test]
    fn demsar_printed_table() {
        let f = friedman(&demsar_table6(), true).unwrap();
        let want = [3.143, 2.000, 2.929, 1.929];
        assert_eq!(f.mean_ranks.len(), 4);
        for (r, w) in f.mean_ranks.iter().zip(want) {
            assert!((r - w).abs() < 5e-4, "{:?}", f.mean_ranks);
        }
        assert!((f.chi2 - 9.8571).abs() < 5e-5, "{}", f.chi2);
        assert!((f.iman_davenport_f.unwrap() - 3.9867).abs() < 5e-5);
        assert!((f.p_iman_davenport.unwrap() - 0.01435).abs() < 5e-6);
        // scipy.stats.friedmanchisquare (tie-corrected): 10.9524, p = 0.011986
        assert!((f.chi2_tie_corrected - 10.9524).abs() < 5e-5, "{}", f.chi2_tie_corrected);
        assert!((f.p_tie_corrected - 0.011986).abs() < 5e-6);
    }

    // The paper's own numbers need cf > m+cf on voting (0.97501)
    #[test]
    fn demsar_paper_variant() {
        let mut t = demsar_table6();
        t[12][2] = 0.97501;
        let f = friedman(&t, true).unwrap();
        let want = [3.143, 2.000, 2.893, 1.964];
        assert_eq!(f.mean_ranks.len(), 4);
        for (r, w) in f.mean_ranks.iter().zip(want) {
            assert!((r - w).abs() < 5e-4, "{:?}", f.mean_ranks);
        }
        assert!((f.chi2 - 9.2786).abs() < 5e-5, "{}", f.chi2);
        assert!((f.p - 0.02581).abs() < 5e-6, "{}", f.p);
        assert!((f.iman_davenport_f.unwrap() - 3.6863).abs() < 5e-5);
        assert!((f.p_iman_davenport.unwrap() - 0.01982).abs() < 5e-6);
    }

    // BriefBench reference/r/critical_difference.R (conventions.md §3.2)
    #[test]
    fn briefbench_six_blocks() {
        let blocks = vec![
            vec![0.0, 0.7, 0.7, 1.0],
            vec![0.0, 0.6, 0.65, 1.0],
            vec![0.0, 0.5, 0.55, 1.0],
            vec![0.0, 0.75, 0.8, 0.95],
            vec![0.0, 0.4, 0.5, 1.0],
            vec![0.0, 0.6, 0.7, 0.98],
        ];
        let f = friedman(&blocks, true).unwrap();
        assert_eq!(f.mean_ranks.len(), 4);
        for (r, w) in f.mean_ranks.iter().zip([4.0, 2.9167, 2.0833, 1.0]) {
            assert!((r - w).abs() < 5e-5);
        }
        assert!((f.chi2 - 17.45).abs() < 1e-9 && (f.p - 5.71e-4).abs() < 5e-6, "{} {}", f.chi2, f.p);
        assert!((f.chi2_tie_corrected - 17.7458).abs() < 5e-5 && (f.p_tie_corrected - 4.96e-4).abs() < 5e-6);
    }

    #[test]
    fn degenerate_inputs() {
        assert!(friedman(&[], true).is_none());
        assert!(friedman(&[vec![1.0]], true).is_none());
        assert!(friedman(&[vec![1.0, 2.0], vec![1.0]], true).is_none());
        // all arms tied in every block: χ² = 0, tie-corrected undefined → reported as 0
        let f = friedman(&[vec![1.0, 1.0], vec![0.0, 0.0]], true).unwrap();
        assert_eq!(f.chi2, 0.0);
    }
}
