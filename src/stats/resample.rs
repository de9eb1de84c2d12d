//! The bootstrap of an arbitrary statistic: B resamples of the items, each given to the
//! statistic as a count vector (how often each item was drawn), so statistics that are not
//! means — a rank correlation, a ratio — get the same resampling schemes as
//! [`super::Resampler`] (Efron & Tibshirani 1993, ch. 6 and 13).
//!
//! The draws are exactly those of [`super::Resampler`] for the same (n, scheme, B, seed): a
//! fresh ChaCha8 stream seeded with the seed, `random_range(0..units)` per draw; iid draws n
//! items, cluster draws C clusters (dense ids in first-seen order; an item's count is its
//! cluster's), stratified draws within each stratum (strata in ascending label order) as many
//! items as it holds. So the mean as a statistic reproduces `Resampler::means_under`
//! (tested), and a query-clustered interval of ρ resamples whole queries.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rustc_hash::FxHashMap;

use super::bootstrap::{Scheme, draw_index};

/// The replicates of a statistic; resamples where it is undefined (e.g. a constant variable
/// for a correlation) are counted, not replaced.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Replicates {
    /// Defined replicates, in draw order.
    pub values: Vec<f64>,
    /// Resamples where the statistic was undefined.
    pub undefined: usize,
}

/// Draws `resamples` count vectors over `n` items under `scheme` and applies `statistic` to
/// each. Empty when n = 0, B = 0, or the scheme's labels do not have n entries.
pub fn bootstrap_counts(
    n: usize,
    scheme: &Scheme,
    resamples: usize,
    seed: u64,
    mut statistic: impl FnMut(&[u32]) -> Option<f64>,
) -> Replicates {
    let mut out = Replicates { values: Vec::with_capacity(resamples), undefined: 0 };
    let labels_ok = match scheme {
        Scheme::Iid => true,
        Scheme::Stratified(l) | Scheme::Cluster(l) => l.len() == n,
    };
    if n == 0 || resamples == 0 || !labels_ok {
        return out;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut counts = vec![0u32; n];
    match scheme {
        Scheme::Iid => {
            for _ in 0..resamples {
                counts.iter_mut().for_each(|c| *c = 0);
                for _ in 0..n {
                    counts[draw_index(&mut rng, n)] += 1;
                }
                push(&mut out, statistic(&counts));
            }
        }
        Scheme::Cluster(labels) => {
            let mut dense: FxHashMap<u32, usize> = FxHashMap::default();
            let ids: Vec<usize> = labels
                .iter()
                .map(|l| {
                    let next = dense.len();
                    *dense.entry(*l).or_insert(next)
                })
                .collect();
            let units = dense.len();
            let mut drawn = vec![0u32; units];
            for _ in 0..resamples {
                drawn.iter_mut().for_each(|c| *c = 0);
                for _ in 0..units {
                    drawn[draw_index(&mut rng, units)] += 1;
                }
                for (c, &id) in counts.iter_mut().zip(&ids) {
                    *c = drawn[id];
                }
                push(&mut out, statistic(&counts));
            }
        }
        Scheme::Stratified(labels) => {
            let mut strata: std::collections::BTreeMap<u32, Vec<usize>> = Default::default();
            for (i, l) in labels.iter().enumerate() {
                strata.entry(*l).or_default().push(i);
            }
            for _ in 0..resamples {
                counts.iter_mut().for_each(|c| *c = 0);
                for members in strata.values() {
                    for _ in 0..members.len() {
                        counts[members[draw_index(&mut rng, members.len())]] += 1;
                    }
                }
                push(&mut out, statistic(&counts));
            }
        }
    }
    out
}

fn push(out: &mut Replicates, v: Option<f64>) {
    match v {
        Some(x) if x.is_finite() => out.values.push(x),
        _ => out.undefined += 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Resampler;

    fn weighted_mean(values: &[f64]) -> impl FnMut(&[u32]) -> Option<f64> + '_ {
        move |c: &[u32]| {
            let (s, w) = c.iter().zip(values).fold((0.0, 0.0), |(s, w), (&c, &x)| (s + c as f64 * x, w + c as f64));
            (w > 0.0).then(|| s / w)
        }
    }

    // The same draws as the Resampler: the mean as a statistic gives its resampled means.
    #[test]
    fn same_draws_as_the_resampler() {
        let v: Vec<f64> = (0..23).map(|i| ((i * 7) % 5) as f64 / 4.0).collect();
        let labels: Vec<u32> = (0..23).map(|i| (i % 6) as u32 * 3).collect();
        for scheme in [Scheme::Iid, Scheme::Cluster(labels.clone()), Scheme::Stratified(labels.clone())] {
            let want = Resampler::new(300, 42).means_under(&[&v], &scheme).remove(0);
            let got = bootstrap_counts(v.len(), &scheme, 300, 42, weighted_mean(&v));
            assert_eq!((got.values.len(), got.undefined, want.len()), (300, 0, 300), "{}", scheme.name());
            for (a, b) in got.values.iter().zip(&want) {
                assert!((a - b).abs() < 1e-12, "{} {a} {b}", scheme.name());
            }
        }
    }

    #[test]
    fn cluster_counts_are_whole_clusters_and_undefined_is_counted() {
        let labels = vec![5, 5, 9, 9, 9];
        let mut seen = Vec::new();
        let r = bootstrap_counts(5, &Scheme::Cluster(labels), 50, 1, |c| {
            seen.push(c.to_vec());
            if c[0] == 0 { None } else { Some(1.0) }
        });
        assert!(seen.iter().all(|c| c[0] == c[1] && c[2] == c[3] && c[3] == c[4] && c[0] + c[2] == 2));
        assert_eq!(r.values.len() + r.undefined, 50);
        assert!(r.undefined > 0);
        assert!(bootstrap_counts(3, &Scheme::Cluster(vec![1]), 10, 1, |_| Some(0.0)).values.is_empty());
        assert!(bootstrap_counts(0, &Scheme::Iid, 10, 1, |_| Some(0.0)).values.is_empty());
    }
}
