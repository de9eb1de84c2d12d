//! Paired percentile bootstrap of a mean (Efron & Tibshirani 1993, ch. 13; TIAP §4.3:
//! "3,000 paired bootstrap resamples, percentile confidence intervals, and RNG seed 1337").
//!
//! For values x₁..xₙ (for a paired comparison, the per-query differences d_q = a_q − b_q, so
//! both arms are resampled on the same queries), draw B resamples of n indices uniformly with
//! replacement, take each resample's mean θ*_b, and report the α/2 and 1 − α/2 quantiles of
//! the θ*_b (linear interpolation, [`super::quantile::quantile_sorted`]). The point estimate is
//! the plain mean.
//!
//! Determinism: each interval draws from a fresh ChaCha8 stream seeded with the user's seed
//! (`rand_chacha::ChaCha8Rng::seed_from_u64`, indices by `rand::Rng::random_range`), so the
//! same data, seed and B give the same interval on every platform (CLI and browser alike) and
//! in any computation order. It does not reproduce NumPy's draws; compare CI bounds with a
//! tolerance of about ±0.003 (seed-001 §2.1).
//!
//! Each resample is kept as a count vector (how often each index was drawn), so the mean is a
//! dot product in index order; count vectors are cached per n, because most comparisons of a
//! rescoring share a population size and this makes the 100+ intervals of an audit cheap.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rustc_hash::FxHashMap;

use super::quantile::quantile_sorted;

/// A two-sided interval.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Interval {
    pub low: f64,
    pub high: f64,
}

/// Cached count vectors use at most this many u16 entries (64 MiB).
const CACHE_LIMIT: usize = 32 * 1024 * 1024;

/// Draws and caches bootstrap resamples for a fixed (B, seed).
#[derive(Debug)]
pub struct Resampler {
    resamples: usize,
    seed: u64,
    cache: FxHashMap<usize, Vec<u16>>,
    cached_entries: usize,
}

impl Resampler {
    pub fn new(resamples: usize, seed: u64) -> Self {
        Resampler { resamples, seed, cache: FxHashMap::default(), cached_entries: 0 }
    }

    pub fn resamples(&self) -> usize {
        self.resamples
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The B resampled means of `values`, in draw order.
    pub fn resampled_means(&mut self, values: &[f64]) -> Vec<f64> {
        self.resampled_means_many(&[values]).pop().unwrap_or_default()
    }

    /// The B resampled means of each vector. Vectors of the same length share the same
    /// resamples (the same seed gives the same draws for the same n), and are computed in one
    /// pass over the cached count vectors.
    pub fn resampled_means_many(&mut self, vectors: &[&[f64]]) -> Vec<Vec<f64>> {
        let b = self.resamples;
        let mut out: Vec<Vec<f64>> = vec![Vec::new(); vectors.len()];
        if b == 0 {
            return out;
        }
        let mut by_n: FxHashMap<usize, Vec<usize>> = FxHashMap::default();
        for (i, v) in vectors.iter().enumerate() {
            if !v.is_empty() {
                by_n.entry(v.len()).or_default().push(i);
            }
        }
        let mut sizes: Vec<usize> = by_n.keys().copied().collect();
        sizes.sort_unstable();
        for n in sizes {
            let members = &by_n[&n];
            for &i in members {
                out[i].reserve_exact(b);
            }
            let inv_n = 1.0 / n as f64;
            let cacheable =
                n < u16::MAX as usize && (self.cache.contains_key(&n) || self.cached_entries + n * b <= CACHE_LIMIT);
            if cacheable {
                if !self.cache.contains_key(&n) {
                    let mut counts = vec![0u16; n * b];
                    let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
                    for row in counts.chunks_exact_mut(n) {
                        for _ in 0..n {
                            row[rng.random_range(0..n)] += 1;
                        }
                    }
                    self.cached_entries += n * b;
                    self.cache.insert(n, counts);
                }
                if let Some(counts) = self.cache.get(&n) {
                    for row in counts.chunks_exact(n) {
                        for &i in members {
                            out[i].push(weighted_sum(row, vectors[i]) * inv_n);
                        }
                    }
                }
            } else {
                // Too large to cache: the same draws and arithmetic, one resample at a time.
                let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
                let mut row = vec![0u32; n];
                for _ in 0..b {
                    row.iter_mut().for_each(|c| *c = 0);
                    for _ in 0..n {
                        row[rng.random_range(0..n)] += 1;
                    }
                    for &i in members {
                        out[i].push(weighted_sum(&row, vectors[i]) * inv_n);
                    }
                }
            }
        }
        out
    }

    /// Percentile interval for the mean of `values` at `confidence` (e.g. 0.95).
    /// `None` when there are no values or no resamples.
    pub fn mean_ci(&mut self, values: &[f64], confidence: f64) -> Option<Interval> {
        self.mean_ci_many(&[values], confidence).pop().flatten()
    }

    /// [`Self::mean_ci`] for several vectors at once (faster: one pass per population size).
    pub fn mean_ci_many(&mut self, vectors: &[&[f64]], confidence: f64) -> Vec<Option<Interval>> {
        let alpha = 1.0 - confidence;
        self.resampled_means_many(vectors)
            .into_iter()
            .map(|mut means| {
                if means.is_empty() {
                    return None;
                }
                means.sort_by(f64::total_cmp);
                Some(Interval {
                    low: quantile_sorted(&means, alpha / 2.0),
                    high: quantile_sorted(&means, 1.0 - alpha / 2.0),
                })
            })
            .collect()
    }
}

/// Σ counts[i]·values[i] with four interleaved accumulators (lets the compiler use SIMD);
/// the same order of operations on every path, so cached and uncached results are identical.
fn weighted_sum<C: Copy + Into<f64>>(counts: &[C], values: &[f64]) -> f64 {
    let mut acc = [0.0f64; 4];
    let chunks = counts.len() / 4;
    for (c4, v4) in counts[..chunks * 4].chunks_exact(4).zip(values.chunks_exact(4)) {
        for ((a, &c), &v) in acc.iter_mut().zip(c4).zip(v4) {
            *a += c.into() * v;
        }
    }
    for i in chunks * 4..counts.len() {
        acc[i % 4] += counts[i].into() * values[i];
    }
    (acc[0] + acc[1]) + (acc[2] + acc[3])
}

/// Arithmetic mean; `None` when empty.
pub fn mean(values: &[f64]) -> Option<f64> {
    if values.is_empty() { None } else { Some(values.iter().sum::<f64>() / values.len() as f64) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_cached_equals_uncached() {
        let v: Vec<f64> = (0..50).map(|i| ((i * 37) % 11) as f64 / 10.0).collect();
        let mut a = Resampler::new(500, 1337);
        let mut b = Resampler::new(500, 1337);
        let ia = a.mean_ci(&v, 0.95).unwrap();
        assert_eq!(ia, b.mean_ci(&v, 0.95).unwrap());
        // uncached path (cache full)
        let mut c = Resampler::new(500, 1337);
        c.cached_entries = CACHE_LIMIT;
        assert_eq!(ia, c.mean_ci(&v, 0.95).unwrap());
        let mut d = Resampler::new(500, 1338);
        assert_ne!(ia, d.mean_ci(&v, 0.95).unwrap());
    }

    #[test]
    fn interval_contains_mean_and_has_the_right_width() {
        // mean of 2,000 Bernoulli(0.3)-like values: percentile CI ≈ mean ± 1.96·sqrt(p(1−p)/n)
        let v: Vec<f64> = (0..2000).map(|i| if i % 10 < 3 { 1.0 } else { 0.0 }).collect();
        let m = mean(&v).unwrap();
        let ci = Resampler::new(3000, 1337).mean_ci(&v, 0.95).unwrap();
        assert!(ci.low < m && m < ci.high);
        let half = 1.959964 * (0.3f64 * 0.7 / 2000.0).sqrt();
        assert!(((ci.high - ci.low) / 2.0 - half).abs() < 0.002, "{ci:?} vs ±{half}");
    }

    #[test]
    fn degenerate_inputs() {
        let mut r = Resampler::new(100, 1);
        assert_eq!(r.mean_ci(&[], 0.95), None);
        assert_eq!(r.mean_ci(&[0.25; 7], 0.95), Some(Interval { low: 0.25, high: 0.25 }));
        assert_eq!(Resampler::new(0, 1).mean_ci(&[1.0], 0.95), None);
    }
}
