//! Percentile intervals of means asked for while a report is built and computed after it, all
//! together: in one call ([`MeanIntervals::compute`], the CLI), or in two parts on two threads
//! ([`MeanIntervals::halves`], the viewer's worker and its helper: the browser gives a worker
//! no threads of its own, so the second core is reached through a second worker).
//!
//! Each interval is [`Resampler::mean_ci`]'s: it depends only on its vector, B, the seed and
//! the confidence (every population size draws from a fresh ChaCha8 stream seeded with the seed,
//! and each vector's resampled sums are computed alone), so the parts give the intervals of
//! the whole, bit for bit.

use serde::{Deserialize, Serialize};

use super::bootstrap::{Interval, Resampler, distinct_vectors};

/// Vectors whose mean intervals are still to be computed, with the settings they take.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MeanIntervals {
    pub resamples: usize,
    pub seed: u64,
    pub confidence: f64,
    /// In the order asked; [`Self::compute`] answers in the same order.
    pub vectors: Vec<Vec<f64>>,
}

impl MeanIntervals {
    /// Nothing asked yet.
    pub fn new(resamples: usize, seed: u64, confidence: f64) -> Self {
        MeanIntervals { resamples, seed, confidence, vectors: Vec::new() }
    }

    /// Asks for the interval of the mean of `values` (the answer's position is the number of
    /// vectors asked before).
    pub fn ask(&mut self, values: Vec<f64>) {
        self.vectors.push(values);
    }

    pub fn len(&self) -> usize {
        self.vectors.len()
    }

    pub fn is_empty(&self) -> bool {
        self.vectors.is_empty()
    }

    /// Multiply-adds the computation takes (values × resamples): what decides whether it is
    /// worth a second thread.
    pub fn work(&self) -> usize {
        self.vectors.iter().map(Vec::len).sum::<usize>().saturating_mul(self.resamples)
    }

    /// Each vector's interval, in the order asked (`None` for an empty vector or B = 0).
    pub fn compute(&self) -> Vec<Option<Interval>> {
        let refs: Vec<&[f64]> = self.vectors.iter().map(Vec::as_slice).collect();
        Resampler::new(self.resamples, self.seed).mean_ci_many(&refs, self.confidence)
    }

    /// The distinct vectors (bitwise) in two parts of about equal work, and for each vector
    /// asked the position of its interval in the first part's answers followed by the second's
    /// ([`Halves::join`]). Equal vectors (a mean on the shared subset that is the mean on all
    /// queries) are computed once, in one part.
    pub fn halves(&self) -> Halves {
        let refs: Vec<&[f64]> = self.vectors.iter().map(Vec::as_slice).collect();
        let (first, slot) = distinct_vectors(&refs);
        let total: usize = first.iter().map(|&i| self.vectors[i].len()).sum();
        // The first part takes vectors until it holds half of the values.
        let mut cut = 0;
        let mut held = 0;
        while cut < first.len() && 2 * held < total {
            held += self.vectors[first[cut]].len();
            cut += 1;
        }
        let part = |ids: &[usize]| MeanIntervals {
            resamples: self.resamples,
            seed: self.seed,
            confidence: self.confidence,
            vectors: ids.iter().map(|&i| self.vectors[i].clone()).collect(),
        };
        Halves { here: part(&first[..cut]), there: part(&first[cut..]), slot }
    }
}

/// [`MeanIntervals::halves`]: two parts to compute apart, and where each asked interval is.
#[derive(Debug, Clone, PartialEq)]
pub struct Halves {
    pub here: MeanIntervals,
    pub there: MeanIntervals,
    slot: Vec<usize>,
}

impl Halves {
    /// The intervals in the order asked, from the answers of [`Self::here`] and [`Self::there`].
    /// `None` when an answer has the wrong length (a part was not computed from these halves).
    pub fn join(&self, here: &[Option<Interval>], there: &[Option<Interval>]) -> Option<Vec<Option<Interval>>> {
        if here.len() != self.here.len() || there.len() != self.there.len() {
            return None;
        }
        Some(self.slot.iter().map(|&s| if s < here.len() { here[s] } else { there[s - here.len()] }).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Vectors of several lengths, dense and of whole numbers mostly zero, with repeats.
    fn asks() -> MeanIntervals {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut m = MeanIntervals::new(400, 1337, 0.95);
        for i in 0..23 {
            let n = [40, 40, 41, 7, 1][i % 5];
            let v: Vec<f64> = match i % 3 {
                0 => (0..n).map(|_| rng.random::<f64>()).collect(),
                1 => (0..n).map(|_| [0.0, 0.0, 0.0, 0.0, 1.0, -1.0][rng.random_range(0..6)]).collect(),
                _ => m.vectors.last().cloned().unwrap_or_default(),
            };
            m.ask(v);
        }
        m.ask(Vec::new());
        m
    }

    #[test]
    fn halves_give_the_intervals_of_the_whole_bit_for_bit() {
        let m = asks();
        let whole = m.compute();
        let h = m.halves();
        assert!(!h.here.is_empty() && !h.there.is_empty());
        assert!(h.here.len() + h.there.len() < m.len(), "repeated vectors are computed once");
        let joined = h.join(&h.here.compute(), &h.there.compute()).unwrap();
        assert_eq!(joined.len(), whole.len());
        for (a, b) in joined.iter().zip(&whole) {
            assert_eq!(a.map(|c| (c.low.to_bits(), c.high.to_bits())), b.map(|c| (c.low.to_bits(), c.high.to_bits())));
        }
        assert!(whole.last().unwrap().is_none(), "an empty vector has no interval");
        // The values are split evenly up to the vector at the cut (41 values at most).
        let values = |p: &MeanIntervals| p.vectors.iter().map(Vec::len).sum::<usize>() as f64;
        let (a, b) = (values(&h.here), values(&h.there));
        assert!(a >= b && a - b <= 2.0 * 41.0, "{a} vs {b}");
    }

    #[test]
    fn a_join_refuses_answers_of_other_parts() {
        let h = asks().halves();
        let (here, there) = (h.here.compute(), h.there.compute());
        assert!(h.join(&here[1..], &there).is_none());
        assert!(h.join(&here, &there[1..]).is_none());
        assert!(h.join(&here, &there).is_some());
    }

    #[test]
    fn nothing_asked_splits_into_nothing() {
        let h = MeanIntervals::new(100, 1, 0.9).halves();
        assert!(h.here.is_empty() && h.there.is_empty());
        assert_eq!(h.join(&[], &[]), Some(Vec::new()));
    }

    #[test]
    fn work_counts_values_times_resamples() {
        assert_eq!(asks().work(), asks().vectors.iter().map(Vec::len).sum::<usize>() * 400);
    }
}
