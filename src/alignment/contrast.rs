//! Target contrasts on a run's shared subset (TIAP §5.1 Table 2): with the ranked lists fixed,
//! how much higher does a run score under one credit target than under another, with an
//! interval — on one population of queries for every target.
//!
//! For a run, its shared subset S is the queries with the continuous metric m (nDCG) under every
//! target of the files (TIAP: "canonical-covered shared subsets", n = 899 for the lexical LoCoMo
//! run). For each pair of targets (A, B), in the files' order:
//!
//! ```text
//! n       = |S|
//! mean_a  = mean over S of m_A(q),   mean_b = mean over S of m_B(q)
//! diff    = mean over S of (m_B(q) − m_A(q))            (TIAP: Canonical − Raw, Canonical − Source)
//! low, high: percentile bootstrap of the mean paired difference over S — resamples, seed and
//!            level of the request's bootstrap (TIAP: 3,000 paired resamples, percentile, seed
//!            1337), a fresh resampler per row, so a row does not depend on the others
//! ```
//!
//! The work, Σ n × resamples over the rows, is bounded ([`MAX_CONTRAST_WORK`]): past it the
//! intervals are left empty and a note says so.
//! Reference: `tests/reference/alignment/make_shift_reference.py` (NumPy; the intervals through
//! the resampling of [`crate::stats::bootstrap`], checked there against its own reference).

use serde::{Deserialize, Serialize};

use super::read::Joined;
use crate::stats::bootstrap::{Bootstrap, mean};

/// The most resampled values the contrasts' intervals may draw (Σ n × resamples): 2·10⁹, a few
/// seconds.
pub const MAX_CONTRAST_WORK: u64 = 2_000_000_000;

/// One run's contrast of two targets on its shared subset.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ContrastRow {
    /// The run's value of the group column (`""` without one).
    pub group: String,
    pub run: String,
    pub target_a: String,
    pub target_b: String,
    /// Queries with the metric under every target.
    pub n: usize,
    pub mean_a: Option<f64>,
    pub mean_b: Option<f64>,
    /// The mean of m_B − m_A.
    pub diff: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
}

/// The contrasts of every run and pair of targets, in the runs' order, and a note when the
/// intervals were left out.
pub fn contrasts(j: &Joined, bootstrap: &Bootstrap) -> (Vec<ContrastRow>, Option<String>) {
    let k = j.targets.len();
    let pairs: Vec<(usize, usize)> = (0..k).flat_map(|a| (a + 1..k).map(move |b| (a, b))).collect();
    // Per run: each shared query's metric under every target, in the targets' order.
    let mut shared: Vec<Vec<Vec<f64>>> = vec![Vec::new(); j.runs.len()];
    for (i, &r) in j.key_run.iter().enumerate() {
        let values: Option<Vec<f64>> = j.targets.iter().map(|t| j.identity[i].get(t).copied()).collect();
        if let Some(v) = values {
            shared[r].push(v);
        }
    }
    let work: u64 = shared.iter().map(|s| (s.len() * pairs.len()) as u64).sum::<u64>() * bootstrap.resamples as u64;
    let intervals = work <= MAX_CONTRAST_WORK;
    let mut rows = Vec::with_capacity(j.runs.len() * pairs.len());
    for (r, queries) in shared.iter().enumerate() {
        for &(a, b) in &pairs {
            let column = |t: usize| queries.iter().map(|v| v[t]).collect::<Vec<f64>>();
            let diffs: Vec<f64> = queries.iter().map(|v| v[b] - v[a]).collect();
            let ci = if intervals && diffs.len() >= 2 {
                bootstrap.resampler().mean_ci(&diffs, bootstrap.confidence)
            } else {
                None
            };
            rows.push(ContrastRow {
                group: j.group_of[r].clone(),
                run: j.runs[r].clone(),
                target_a: j.targets[a].clone(),
                target_b: j.targets[b].clone(),
                n: queries.len(),
                mean_a: mean(&column(a)),
                mean_b: mean(&column(b)),
                diff: mean(&diffs),
                low: ci.map(|c| c.low),
                high: ci.map(|c| c.high),
            });
        }
    }
    let note = (!intervals).then(|| {
        format!(
            "the target contrasts' intervals are not computed: {work} resampled values (queries × pairs × resamples), more than \
             {MAX_CONTRAST_WORK}; filter the runs or lower the resamples"
        )
    });
    (rows, note)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three queries of one run: two under both targets, by hand.
    #[test]
    fn the_shared_subset_and_its_difference_by_hand() {
        let j = Joined::by_hand(&[(0.5, Some(0.5)), (0.2, Some(0.9)), (0.3, None)]);
        let b = Bootstrap { resamples: 1000, seed: 1, confidence: 0.95 };
        let (rows, note) = contrasts(&j, &b);
        assert_eq!((rows.len(), note), (1, None));
        let r = &rows[0];
        assert_eq!(r.n, 2, "q3 has no canonical metric");
        assert!((r.mean_a.unwrap() - 0.35).abs() < 1e-15 && (r.mean_b.unwrap() - 0.7).abs() < 1e-15);
        assert!((r.diff.unwrap() - 0.35).abs() < 1e-15);
        // Two paired differences, 0 and 0.7: every resampled mean is 0, 0.35 or 0.7.
        let (lo, hi) = (r.low.unwrap(), r.high.unwrap());
        assert!(lo >= 0.0 && hi <= 0.7 + 1e-12 && lo < hi, "[{lo}, {hi}]");
        // Past the bound, no intervals and a note.
        let b = Bootstrap { resamples: (MAX_CONTRAST_WORK / 2 + 1) as usize, ..b };
        let (rows, note) = contrasts(&j, &b);
        assert_eq!((rows[0].low, rows[0].diff.is_some()), (None, true));
        assert!(note.unwrap().contains("not computed"));
    }
}
