//! Percentile bootstrap intervals for reclaim cells, with two resamplers:
//!
//! * [`Engine::Python`] (default, "digit-compatible"): reclaim-eval's recipe (paper §11 "percentile,
//!   5,000 resamples at a fixed seed"; code `integrity_table_ci.py`; seed-003-004 § A1.6, § C1):
//!   a fresh CPython `random.Random(seed)` ([`PyRandom`]) per interval; each of B resamples is
//!   the mean of k draws `xs[randrange(k)]` over the values **in file order** (summed left to
//!   right, divided by k); the B means are sorted and the interval is
//!   `means[int(q_lo·B)]`, `means[int(q_hi·B)]` with q_lo = (1 − confidence)/2 and
//!   q_hi = 1 − q_lo (both rounded to 12 decimals first, so 0.95 gives exactly reclaim-eval's
//!   `int(0.025*5000)` = 125 and `int(0.975*5000)` = 4875). Reproduces the paper's intervals
//!   with float equality.
//! * [`Engine::ChaCha8`]: memaudit's own [`crate::stats::bootstrap::Resampler`] (ChaCha8,
//!   quantiles by linear interpolation); deterministic for a seed, not digit-compatible.
//!
//! Both support the **problem-clustered** bootstrap (paper §11: "resampling the 32 problems …
//! the headline cells are essentially unchanged"; not in the released scripts): whole problems
//! are drawn with replacement (every seed of a drawn problem comes along) and the mean is over
//! the items of the drawn problems. With the Python engine, cluster j is drawn by
//! `randrange(C)` over clusters numbered in first-seen order.
//!
//! For a difference of two independent samples (unpaired), each iteration resamples a and b
//! separately (Python engine: a's k_a draws, then b's k_b draws from the same stream; ChaCha8:
//! two streams, seeds s and s + 1) and takes the percentile interval of mean(a*) − mean(b*).
//! A paired difference is the plain interval of the per-key differences.

use serde::{Deserialize, Serialize};

use super::pyrandom::PyRandom;
use crate::stats::bootstrap::{Interval, Resampler, Scheme};
use crate::stats::quantile::quantile_sorted;

crate::choice! {
    /// Which resampler draws the bootstrap.
    #[derive(Default)]
    pub enum Engine {
        /// CPython `random.Random(seed)`: reproduces reclaim-eval's intervals exactly.
        #[default]
        Python,
        /// memaudit's ChaCha8 resampler (not digit-compatible with the paper).
        ChaCha8 = "chacha8",
    }
}

crate::fields! {
    /// Bootstrap settings. The default is reclaim-eval's: Python engine, 5,000 resamples, seed
    /// 0, 95%, iid.
    #[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
    pub struct BootstrapSettings {
        engine as "resampler": Engine = Engine::Python, label "resampler",
            help "Bootstrap resampler: python (CPython random.Random, reproduces reclaim-eval's intervals exactly) or chacha8 (memaudit's, not digit-compatible).";
        resamples as "bootstrap": usize = 5000, label "resamples", help "Bootstrap resamples.";
        seed: u64 = 0, label "seed", help "Bootstrap seed.";
        confidence: f64 = 0.95, label "confidence", help "Confidence level.";
        cluster_by_problem: bool = false, label "resample whole problems",
            help "Resample whole problems (every seed of a drawn problem) instead of trials.";
    }
}

impl BootstrapSettings {
    /// `None` when the settings are out of range (B = 0 or confidence ∉ (0, 1)).
    pub fn validate(&self) -> crate::error::Result<()> {
        crate::stats::bootstrap::Bootstrap { resamples: self.resamples, seed: self.seed, confidence: self.confidence }
            .validate(1)
    }

    /// A short description for outputs, e.g. `python random.Random(0), B=5000, 95%, iid`.
    pub fn describe(&self) -> String {
        format!(
            "{} (seed {}), B={}, {}%, {}",
            match self.engine {
                Engine::Python => "percentile bootstrap, CPython random.Random",
                Engine::ChaCha8 => "percentile bootstrap, ChaCha8",
            },
            self.seed,
            self.resamples,
            self.confidence * 100.0,
            if self.cluster_by_problem { "problems resampled (cluster)" } else { "trials resampled (iid)" }
        )
    }
}

fn round12(x: f64) -> f64 {
    (x * 1e12).round() / 1e12
}

/// reclaim-eval's order-statistic indices `int(q·B)` for the two tails.
pub fn python_indices(resamples: usize, confidence: f64) -> (usize, usize) {
    let lo_q = round12((1.0 - confidence) / 2.0);
    let hi_q = round12(1.0 - lo_q);
    let b = resamples as f64;
    let last = resamples.saturating_sub(1);
    (((lo_q * b) as usize).min(last), ((hi_q * b) as usize).min(last))
}

/// Dense cluster ids in first-seen order.
fn dense(labels: &[u32]) -> (Vec<usize>, usize) {
    let mut seen: Vec<u32> = Vec::new();
    let ids = labels
        .iter()
        .map(|l| match seen.iter().position(|s| s == l) {
            Some(i) => i,
            None => {
                seen.push(*l);
                seen.len() - 1
            }
        })
        .collect();
    (ids, seen.len())
}

/// Units to resample: (sum of values, item count) per unit; iid = one unit per value.
fn units(values: &[f64], clusters: Option<&[u32]>) -> Vec<(f64, f64)> {
    match clusters {
        Some(labels) if labels.len() == values.len() => {
            let (ids, c) = dense(labels);
            let mut u = vec![(0.0, 0.0); c];
            for (&id, &v) in ids.iter().zip(values) {
                u[id].0 += v;
                u[id].1 += 1.0;
            }
            u
        }
        _ => values.iter().map(|&v| (v, 1.0)).collect(),
    }
}

/// One Python-engine resample mean of `u` (k = number of units draws).
fn py_mean(r: &mut PyRandom, u: &[(f64, f64)], iid: bool) -> f64 {
    let k = u.len() as u64;
    let mut sum = 0.0;
    let mut size = 0.0;
    for _ in 0..k {
        let (s, n) = u[r.randbelow(k) as usize];
        sum += s;
        size += n;
    }
    if iid { sum / k as f64 } else { sum / size }
}

fn py_interval(means: &mut [f64], s: &BootstrapSettings) -> Option<Interval> {
    if means.is_empty() {
        return None;
    }
    means.sort_by(f64::total_cmp);
    let (lo, hi) = python_indices(means.len(), s.confidence);
    Some(Interval { low: means[lo], high: means[hi] })
}

fn linear_interval(means: &mut [f64], confidence: f64) -> Option<Interval> {
    if means.is_empty() {
        return None;
    }
    means.sort_by(f64::total_cmp);
    let alpha = 1.0 - confidence;
    Some(Interval { low: quantile_sorted(means, alpha / 2.0), high: quantile_sorted(means, 1.0 - alpha / 2.0) })
}

fn scheme(values: &[f64], clusters: Option<&[u32]>) -> Scheme {
    match clusters {
        Some(l) if l.len() == values.len() => Scheme::Cluster(l.to_vec()),
        _ => Scheme::Iid,
    }
}

/// The B resampled means of `values` (cluster labels per value when clustered).
pub fn resampled_means(values: &[f64], clusters: Option<&[u32]>, s: &BootstrapSettings) -> Vec<f64> {
    if values.is_empty() || s.resamples == 0 {
        return Vec::new();
    }
    let clusters = if s.cluster_by_problem { clusters } else { None };
    match s.engine {
        Engine::Python => {
            let u = units(values, clusters);
            let iid = clusters.is_none();
            let mut r = PyRandom::new(i128::from(s.seed));
            (0..s.resamples).map(|_| py_mean(&mut r, &u, iid)).collect()
        }
        Engine::ChaCha8 => Resampler::new(s.resamples, s.seed)
            .means_under(&[values], &scheme(values, clusters))
            .pop()
            .unwrap_or_default(),
    }
}

/// Percentile interval of the mean of `values` (`None` when empty).
pub fn interval(values: &[f64], clusters: Option<&[u32]>, s: &BootstrapSettings) -> Option<Interval> {
    let mut means = resampled_means(values, clusters, s);
    match s.engine {
        Engine::Python => py_interval(&mut means, s),
        Engine::ChaCha8 => linear_interval(&mut means, s.confidence),
    }
}

/// Percentile interval of mean(a) − mean(b) for independent samples (see the module docs).
pub fn unpaired_difference(
    a: &[f64],
    a_clusters: Option<&[u32]>,
    b: &[f64],
    b_clusters: Option<&[u32]>,
    s: &BootstrapSettings,
) -> Option<Interval> {
    if a.is_empty() || b.is_empty() || s.resamples == 0 {
        return None;
    }
    let (ac, bc) = if s.cluster_by_problem { (a_clusters, b_clusters) } else { (None, None) };
    match s.engine {
        Engine::Python => {
            let (ua, ub) = (units(a, ac), units(b, bc));
            let mut r = PyRandom::new(i128::from(s.seed));
            let mut d: Vec<f64> = (0..s.resamples)
                .map(|_| {
                    let ma = py_mean(&mut r, &ua, ac.is_none());
                    let mb = py_mean(&mut r, &ub, bc.is_none());
                    ma - mb
                })
                .collect();
            py_interval(&mut d, s)
        }
        Engine::ChaCha8 => {
            let ma = Resampler::new(s.resamples, s.seed).means_under(&[a], &scheme(a, ac)).pop().unwrap_or_default();
            let mb = Resampler::new(s.resamples, s.seed.wrapping_add(1))
                .means_under(&[b], &scheme(b, bc))
                .pop()
                .unwrap_or_default();
            let mut d: Vec<f64> = ma.iter().zip(&mb).map(|(x, y)| x - y).collect();
            linear_interval(&mut d, s.confidence)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_indices_match_reclaim_eval() {
        assert_eq!(python_indices(5000, 0.95), (125, 4875));
        assert_eq!(python_indices(1000, 0.90), (50, 950));
        assert_eq!(python_indices(1, 0.95), (0, 0));
    }

    #[test]
    fn degenerate_and_constant() {
        let s = BootstrapSettings::default();
        assert_eq!(interval(&[], None, &s), None);
        assert_eq!(interval(&[1.0; 24], None, &s), Some(Interval { low: 1.0, high: 1.0 }));
        let c = BootstrapSettings { engine: Engine::ChaCha8, ..s };
        assert_eq!(interval(&[0.0; 5], None, &c), Some(Interval { low: 0.0, high: 0.0 }));
        assert!(BootstrapSettings { resamples: 0, ..s }.validate().is_err());
        assert!(BootstrapSettings { confidence: 1.0, ..s }.validate().is_err());
    }

    #[test]
    fn clustered_draws_whole_problems() {
        // problem 1: all ones (3 seeds); problem 2: all zeros (3 seeds)
        let v = [1.0, 1.0, 1.0, 0.0, 0.0, 0.0];
        let labels = [1, 1, 1, 2, 2, 2];
        for engine in [Engine::Python, Engine::ChaCha8] {
            let s = BootstrapSettings { engine, cluster_by_problem: true, resamples: 400, ..Default::default() };
            let m = resampled_means(&v, Some(&labels), &s);
            assert!(m.iter().all(|&x| x == 0.0 || x == 0.5 || x == 1.0), "{engine:?}");
            // without the flag the labels are ignored
            let iid = resampled_means(&v, Some(&labels), &BootstrapSettings { cluster_by_problem: false, ..s });
            assert!(iid.iter().any(|&x| x != 0.0 && x != 0.5 && x != 1.0));
        }
    }

    #[test]
    fn unpaired_difference_is_centred() {
        let a: Vec<f64> = (0..96).map(|i| if i % 6 == 0 { 1.0 } else { 0.0 }).collect();
        let b = vec![0.0; 96];
        for engine in [Engine::Python, Engine::ChaCha8] {
            let s = BootstrapSettings { engine, ..Default::default() };
            let ci = unpaired_difference(&a, None, &b, None, &s).unwrap();
            let d = 16.0 / 96.0;
            assert!(ci.low < d && d < ci.high && ci.low > 0.05, "{engine:?} {ci:?}");
        }
    }
}
