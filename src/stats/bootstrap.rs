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

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rustc_hash::FxHashMap;

use super::quantile::quantile_unsorted;
use crate::error::{Error, Result};

/// An index drawn uniformly from `0..n` (n > 0), exactly as `rng.random_range(0..n)` draws it:
/// the same `SampleRange::sample_single`, kept in line in the resampling loops.
/// `random_range` carries `#[track_caller]` and no `#[inline]`, and a build left it out of line
/// (a fifth of a one-arm summary's time, BENCHMARKS.md "The index draw kept in line").
#[inline(always)]
pub(crate) fn draw_index(rng: &mut ChaCha8Rng, n: usize) -> usize {
    use rand::distr::uniform::SampleRange;
    (0..n).sample_single(rng).unwrap_or(0)
}

/// Most resamples any interval of any capability draws (time and memory stay bounded, also in
/// the browser).
pub const MAX_RESAMPLES: usize = 1_000_000;

crate::fields! {
    /// The settings behind every bootstrap interval — resamples B, the seed of the ChaCha8
    /// stream, and the two-sided confidence level — and their one validation, used by every
    /// capability (a group of its request's fields; its defaults are the request's).
    #[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
    pub struct Bootstrap {
        resamples as "bootstrap": usize = 2000, label "bootstrap resamples",
            help "Bootstrap resamples (B).";
        seed: u64 = 1337, label "seed", help "The seed of the resampling.";
        confidence: f64 = 0.95, label "interval level", help "Two-sided level of the intervals.";
    }
}

impl Bootstrap {
    /// Checks B in `min_resamples..=MAX_RESAMPLES` and the confidence in (0, 1).
    pub fn validate(&self, min_resamples: usize) -> Result<()> {
        check_resamples(self.resamples, min_resamples)?;
        check_confidence(self.confidence)
    }

    /// A resampler drawing B resamples from the seed.
    pub fn resampler(&self) -> Resampler {
        Resampler::new(self.resamples, self.seed)
    }
}

/// B must be in `min..=`[`MAX_RESAMPLES`] (`min` is 0 where B = 0 means "no intervals").
pub fn check_resamples(resamples: usize, min: usize) -> Result<()> {
    if resamples < min || resamples > MAX_RESAMPLES {
        return Err(Error::setting(
            "bootstrap",
            format!("must be between {min} and 1,000,000 resamples (got {resamples})"),
        ));
    }
    Ok(())
}

/// A two-sided confidence level must be strictly between 0 and 1.
pub fn check_confidence(confidence: f64) -> Result<()> {
    if !(confidence > 0.0 && confidence < 1.0) {
        return Err(Error::setting(
            "confidence",
            format!("must be strictly between 0 and 1, e.g. 0.95 (got {confidence})"),
        ));
    }
    Ok(())
}

/// A two-sided interval.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Interval {
    pub low: f64,
    pub high: f64,
}

/// Cached count vectors use at most this many u16 entries (64 MiB).
const CACHE_LIMIT: usize = 32 * 1024 * 1024;

/// Counts drawn at a time when they are not cached (8 M entries: 16 MiB of u16).
const CHUNK_ENTRIES: usize = 8 * 1024 * 1024;

/// How resamples are drawn from the items.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub enum Scheme {
    /// n items drawn uniformly with replacement (the ordinary and the paired bootstrap).
    #[default]
    Iid,
    /// Items drawn within each stratum, keeping every stratum's size (label per item).
    Stratified(Vec<u32>),
    /// Whole clusters drawn with replacement (label per item): the unit is the cluster, e.g.
    /// all seeds of one task; the mean is over the items of the drawn clusters.
    Cluster(Vec<u32>),
}

impl Scheme {
    /// A short name for outputs: `iid`, `stratified`, `cluster`.
    pub fn name(&self) -> &'static str {
        match self {
            Scheme::Iid => "iid",
            Scheme::Stratified(_) => "stratified",
            Scheme::Cluster(_) => "cluster",
        }
    }

    fn key(&self, n: usize) -> (u8, usize, u64) {
        let fp = |labels: &[u32]| {
            labels.iter().fold(0xcbf29ce484222325u64, |h, &l| (h ^ l as u64).wrapping_mul(0x100000001b3))
        };
        match self {
            Scheme::Iid => (0, n, 0),
            Scheme::Stratified(l) => (1, n, fp(l)),
            Scheme::Cluster(l) => (2, n, fp(l)),
        }
    }
}

/// Dense cluster ids (0..C in first-seen order) and each cluster's item count.
fn clusters_of(labels: &[u32]) -> (Vec<usize>, Vec<f64>) {
    let mut map: FxHashMap<u32, usize> = FxHashMap::default();
    let mut sizes = Vec::new();
    let ids = labels
        .iter()
        .map(|l| {
            *map.entry(*l).or_insert_with(|| {
                sizes.push(0.0);
                sizes.len() - 1
            })
        })
        .collect::<Vec<_>>();
    for &i in &ids {
        sizes[i] += 1.0;
    }
    (ids, sizes)
}

/// Draws and caches bootstrap resamples for a fixed (B, seed).
#[derive(Debug)]
pub struct Resampler {
    resamples: usize,
    seed: u64,
    cache: FxHashMap<(u8, usize, u64), Vec<u16>>,
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

    /// The B resampled means of each vector (iid). Vectors of the same length share the same
    /// resamples (the same seed gives the same draws for the same n), and are computed in one
    /// pass over the cached count vectors.
    pub fn resampled_means_many(&mut self, vectors: &[&[f64]]) -> Vec<Vec<f64>> {
        let mut by_n: FxHashMap<usize, Vec<usize>> = FxHashMap::default();
        for (i, v) in vectors.iter().enumerate() {
            if !v.is_empty() {
                by_n.entry(v.len()).or_default().push(i);
            }
        }
        let mut out: Vec<Vec<f64>> = vec![Vec::new(); vectors.len()];
        let mut sizes: Vec<usize> = by_n.keys().copied().collect();
        sizes.sort_unstable();
        for n in sizes {
            let members: Vec<&[f64]> = by_n[&n].iter().map(|&i| vectors[i]).collect();
            for (i, means) in by_n[&n].iter().zip(self.means_under(&members, &Scheme::Iid)) {
                out[*i] = means;
            }
        }
        out
    }

    /// The B resampled means of each vector under `scheme`; every vector has one value per
    /// item (the scheme's labels, for stratified and cluster). Empty results for empty
    /// vectors, B = 0, or vectors whose length does not match the scheme's labels.
    pub fn means_under(&mut self, vectors: &[&[f64]], scheme: &Scheme) -> Vec<Vec<f64>> {
        // Equal vectors (a metric on the shared subset when every system answers every query is
        // the metric on all of them) have equal resampled means: each is computed once.
        let (unique, slot) = distinct_vectors(vectors);
        if unique.len() < vectors.len() {
            let firsts: Vec<&[f64]> = unique.iter().map(|&i| vectors[i]).collect();
            let means = self.means_under(&firsts, scheme);
            return slot.into_iter().map(|u| means[u].clone()).collect();
        }
        let b = self.resamples;
        let n = vectors.first().map_or(0, |v| v.len());
        let labels_ok = match scheme {
            Scheme::Iid => true,
            Scheme::Stratified(l) | Scheme::Cluster(l) => l.len() == n,
        };
        if b == 0 || n == 0 || !labels_ok || vectors.iter().any(|v| v.len() != n) {
            return vec![Vec::new(); vectors.len()];
        }
        // Units: items, or clusters with their per-vector sums and sizes.
        let (units, sums, sizes): (usize, Vec<Vec<f64>>, Option<Vec<f64>>) = match scheme {
            Scheme::Cluster(labels) => {
                let (ids, sizes) = clusters_of(labels);
                let sums = vectors
                    .iter()
                    .map(|v| {
                        let mut s = vec![0.0; sizes.len()];
                        for (&c, &x) in ids.iter().zip(v.iter()) {
                            s[c] += x;
                        }
                        s
                    })
                    .collect();
                (sizes.len(), sums, Some(sizes))
            }
            _ => (n, vectors.iter().map(|v| v.to_vec()).collect(), None),
        };
        // Strata in the order of their labels, each with its items.
        let strata: Vec<Vec<usize>> = match scheme {
            Scheme::Stratified(labels) => {
                let mut by_label: std::collections::BTreeMap<u32, Vec<usize>> = Default::default();
                for (i, l) in labels.iter().enumerate() {
                    by_label.entry(*l).or_default().push(i);
                }
                by_label.into_values().collect()
            }
            _ => Vec::new(),
        };
        let draw = |rng: &mut ChaCha8Rng, row: &mut dyn FnMut(usize)| match scheme {
            Scheme::Iid | Scheme::Cluster(_) => {
                for _ in 0..units {
                    row(draw_index(rng, units));
                }
            }
            Scheme::Stratified(_) => {
                for members in &strata {
                    for _ in 0..members.len() {
                        row(members[draw_index(rng, members.len())]);
                    }
                }
            }
        };
        let key = scheme.key(units);
        let cacheable = units < u16::MAX as usize
            && (self.cache.contains_key(&key) || self.cached_entries + units * b <= CACHE_LIMIT);
        // Each resample's means: its weighted sums of the vectors over its count of each unit.
        let denom = |row: &[u16]| sizes.as_ref().map_or(n as f64, |sz| weighted_sum(row, sz));
        let rows = |counts: &[u16]| -> Vec<Vec<f64>> {
            let denoms: Vec<f64> = counts.chunks_exact(units).map(denom).collect();
            resampled_sums(counts, units, &sums)
                .into_iter()
                .map(|col| col.into_iter().zip(&denoms).map(|(s, d)| s / d).collect())
                .collect()
        };
        if cacheable {
            if !self.cache.contains_key(&key) {
                let mut counts = vec![0u16; units * b];
                let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
                for row in counts.chunks_exact_mut(units) {
                    draw(&mut rng, &mut |i| row[i] += 1);
                }
                self.cached_entries += units * b;
                self.cache.insert(key, counts);
            }
            return match self.cache.get(&key) {
                Some(counts) => in_row_blocks(counts, units, vectors.len(), rows),
                None => vec![Vec::new(); vectors.len()],
            };
        }
        // Too large to cache: the same stream of draws in chunks of whole resamples, each chunk
        // through the same arithmetic (and the same threads) as the cached counts, so the means
        // are bit for bit those of a cache large enough, at every size.
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        let mut out: Vec<Vec<f64>> = vec![Vec::with_capacity(b); vectors.len()];
        if units < u16::MAX as usize {
            in_chunks::<u16>(b, units, &mut |row| draw(&mut rng, row), &mut |chunk| {
                for (o, part) in out.iter_mut().zip(in_row_blocks(chunk, units, vectors.len(), rows)) {
                    o.extend(part);
                }
            });
        } else {
            // 65,535 units or more: a unit may be drawn more often than a u16 counts.
            let wide_rows = |counts: &[u32]| -> Vec<Vec<f64>> {
                counts
                    .chunks_exact(units)
                    .map(|row| {
                        let d = sizes.as_ref().map_or(n as f64, |sz| weighted_sum(row, sz));
                        sums.iter().map(|s| weighted_sum(row, s) / d).collect()
                    })
                    .collect()
            };
            in_chunks::<u32>(b, units, &mut |row| draw(&mut rng, row), &mut |chunk| {
                let per_thread = (chunk.len() / units).div_ceil(crate::parallel::threads()) * units;
                for means in crate::parallel::map_chunks(chunk, per_thread, wide_rows).into_iter().flatten() {
                    for (o, m) in out.iter_mut().zip(means) {
                        o.push(m);
                    }
                }
            });
        }
        out
    }

    /// Jackknife (leave-one-unit-out) means of `values` under `scheme`: items for iid and
    /// stratified resampling, clusters for cluster resampling.
    pub fn jackknife(values: &[f64], scheme: &Scheme) -> Vec<f64> {
        match scheme {
            Scheme::Cluster(labels) if labels.len() == values.len() => {
                let (ids, sizes) = clusters_of(labels);
                if sizes.len() < 2 {
                    return Vec::new();
                }
                let mut sums = vec![0.0; sizes.len()];
                for (&c, &x) in ids.iter().zip(values) {
                    sums[c] += x;
                }
                let (s, n): (f64, f64) = (sums.iter().sum(), sizes.iter().sum());
                sums.iter().zip(&sizes).map(|(sc, nc)| (s - sc) / (n - nc)).collect()
            }
            _ => super::bca::jackknife_means(values),
        }
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
                // Selection, not a sort: the same two order statistics (912 sorts of 3,000
                // means were a fifth of an audit's intervals).
                Some(Interval {
                    low: quantile_unsorted(&mut means, alpha / 2.0),
                    high: quantile_unsorted(&mut means, 1.0 - alpha / 2.0),
                })
            })
            .collect()
    }
}

/// The first index of each distinct vector (bitwise equal values) and, for each vector, the
/// position of its first occurrence among them.
pub(crate) fn distinct_vectors(vectors: &[&[f64]]) -> (Vec<usize>, Vec<usize>) {
    use std::hash::{Hash, Hasher};
    let mut unique: Vec<usize> = Vec::new();
    let mut slot = Vec::with_capacity(vectors.len());
    let mut seen: FxHashMap<u64, Vec<usize>> = FxHashMap::default();
    let same = |a: &[f64], b: &[f64]| a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits());
    for (i, v) in vectors.iter().enumerate() {
        let mut h = rustc_hash::FxHasher::default();
        v.len().hash(&mut h);
        v.iter().for_each(|x| x.to_bits().hash(&mut h));
        let bucket = seen.entry(h.finish()).or_default();
        match bucket.iter().find(|&&u| same(vectors[unique[u]], v)) {
            Some(&u) => slot.push(u),
            None => {
                bucket.push(unique.len());
                slot.push(unique.len());
                unique.push(i);
            }
        }
    }
    (unique, slot)
}

/// Fills one resample's row: called with where to count each draw.
type DrawRow<'a> = dyn FnMut(&mut dyn FnMut(usize)) + 'a;

/// Draws `b` resamples of `units` counts in chunks of at most [`CHUNK_ENTRIES`] counts, each
/// resample's row filled by `draw` (given where to count a draw), and hands each chunk to `each`
/// in draw order.
fn in_chunks<C: Copy + Default + std::ops::AddAssign + From<u8>>(
    b: usize,
    units: usize,
    draw: &mut DrawRow<'_>,
    each: &mut dyn FnMut(&[C]),
) {
    let per_chunk = (CHUNK_ENTRIES / units.max(1)).clamp(1, b.max(1));
    let mut counts = vec![C::default(); units * per_chunk];
    let mut drawn = 0;
    while drawn < b {
        let here = per_chunk.min(b - drawn);
        let chunk = &mut counts[..units * here];
        chunk.fill(C::default());
        for row in chunk.chunks_exact_mut(units) {
            draw(&mut |i| row[i] += C::from(1));
        }
        each(chunk);
        drawn += here;
    }
}

/// Runs `rows` on blocks of whole resamples (`units` counts each) and joins each vector's means
/// in resample order. Natively the blocks run on every core when the work is large: each mean is
/// computed alone, in the same order of operations, so the means are those of one core. In the
/// browser (no threads), one block.
fn in_row_blocks(
    counts: &[u16],
    units: usize,
    vectors: usize,
    rows: impl Fn(&[u16]) -> Vec<Vec<f64>> + Sync,
) -> Vec<Vec<f64>> {
    // Below about 10 M multiply-adds a thread costs more than it saves.
    let threads = crate::parallel::threads();
    let resamples = counts.len() / units.max(1);
    if threads == 1 || counts.len().saturating_mul(vectors) < 10_000_000 || resamples < threads {
        return rows(counts);
    }
    let parts = crate::parallel::map_chunks(counts, resamples.div_ceil(threads) * units, rows);
    let mut out: Vec<Vec<f64>> = vec![Vec::with_capacity(resamples); vectors];
    for part in parts {
        for (o, p) in out.iter_mut().zip(part) {
            o.extend(p);
        }
    }
    out
}

/// Vectors summed together by [`grouped_sums`]: four, so their 16 accumulators fit in eight
/// two-lane SIMD registers (SSE2, WebAssembly SIMD). Measured on the rescore benchmark: eight
/// (with AVX) was no faster, and eight without AVX ran out of registers (three times slower).
const GROUP: usize = 4;

/// For each vector of `sums`, its weighted sum under every count row of `counts` (`units`
/// counts each), in row order: `out[v][r]` = [`weighted_sum`]`(row r, sums[v])`, bit for bit.
/// Vectors of whole numbers that are mostly zeros (the audit's paired differences of hit and
/// top-1 indicators) are summed over their nonzero items in integers ([`WholeTerms`]); the
/// others by [`dense_resampled_sums`].
fn resampled_sums(counts: &[u16], units: usize, sums: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let rows = counts.len() / units.max(1);
    let mut out: Vec<Vec<f64>> = vec![Vec::new(); sums.len()];
    if units == 0 {
        return out;
    }
    let mut whole: Vec<(usize, WholeTerms)> = Vec::new();
    let mut dense: Vec<usize> = Vec::new();
    for (v, s) in sums.iter().enumerate() {
        match WholeTerms::sparse(s) {
            Some(t) => whole.push((v, t)),
            None => dense.push(v),
        }
    }
    // A block of vectors whose terms fit the core's L2 cache, every count row applied to it.
    let mut rest = whole.as_slice();
    while !rest.is_empty() {
        let mut bytes = 0;
        let take = rest
            .iter()
            .take_while(|(_, t)| {
                bytes += t.bytes();
                bytes <= BLOCK_BYTES
            })
            .count()
            .max(1);
        let (block, tail) = rest.split_at(take);
        let mut sums: Vec<Vec<f64>> = vec![Vec::with_capacity(rows); block.len()];
        for row in counts.chunks_exact(units) {
            for ((_, t), o) in block.iter().zip(&mut sums) {
                o.push(t.sum(row));
            }
        }
        for ((v, _), o) in block.iter().zip(sums) {
            out[*v] = o;
        }
        rest = tail;
    }
    let dense_sums: Vec<&[f64]> = dense.iter().map(|&v| sums[v].as_slice()).collect();
    for (v, o) in dense.into_iter().zip(dense_resampled_sums(counts, units, &dense_sums)) {
        out[v] = o;
    }
    out
}

/// The part of a core's L2 cache one block of vectors may take (see [`dense_resampled_sums`]).
const BLOCK_BYTES: usize = 768 * 1024;

/// A vector of whole numbers as its nonzero items `(index, value)`, in item order.
///
/// For such a vector, with values of at most 2³¹ in magnitude and counts below 2¹⁶ (cached count
/// rows are `u16`; a row's counts sum to the number of units, below 2¹⁶), every product and
/// every partial sum of [`weighted_sum`] is a whole number below 2⁴⁷, so each of its
/// floating-point operations is exact and its result is the exact integer Σ cᵢ·xᵢ, in any
/// order. Summing only the nonzero items in 64-bit integers therefore gives the same `f64`,
/// bit for bit (a zero sum is +0.0 both ways: the accumulators start at +0.0 and adding ±0.0 or
/// x and −x never gives −0.0).
struct WholeTerms(Vec<(u32, i32)>);

impl WholeTerms {
    /// The terms of `values` when they are all whole numbers within ±(2³¹ − 1) and at most one
    /// in [`WholeTerms::SPARSE`] is nonzero (denser vectors go faster through the SIMD kernel).
    fn sparse(values: &[f64]) -> Option<WholeTerms> {
        let most = values.len() / Self::SPARSE;
        let mut terms = Vec::new();
        for (i, &x) in values.iter().enumerate() {
            // NaN and ±∞ have no whole fraction; −0.0 is a zero term.
            if x.fract() != 0.0 || x.abs() > f64::from(i32::MAX) {
                return None;
            }
            if x != 0.0 {
                if terms.len() == most {
                    return None;
                }
                terms.push((u32::try_from(i).ok()?, x as i32));
            }
        }
        Some(WholeTerms(terms))
    }

    /// One nonzero in four at most: the integer sums then beat the SIMD kernel. On the rescore
    /// benchmark one in two, four and eight gave the same audit time within the noise
    /// (BENCHMARKS.md, "The 960,000-row bundle in the browser under 1.5 s").
    const SPARSE: usize = 4;

    fn bytes(&self) -> usize {
        self.0.len() * std::mem::size_of::<(u32, i32)>()
    }

    /// Σ row[i]·x over the terms, exactly.
    fn sum(&self, row: &[u16]) -> f64 {
        let s: i64 = self.0.iter().map(|&(i, x)| i64::from(row[i as usize]) * i64::from(x)).sum();
        s as f64
    }
}

/// [`resampled_sums`] of any vectors of `units` values, with the same operations in the same
/// order as [`weighted_sum`], so the values are bit-identical to one vector at a time.
///
/// Written by hand rather than with a matrix-product crate because such crates split and
/// reorder the sums (the resampled means would change in their last bits). What makes it fast
/// is the loop order: the vectors are taken a block at a time (a block fits the core's L2
/// cache) and every count row is applied to the block, [`GROUP`] vectors per pass over the row, so
/// each vector is read from memory once per block instead of once per resample.
fn dense_resampled_sums(counts: &[u16], units: usize, sums: &[&[f64]]) -> Vec<Vec<f64>> {
    let rows = counts.len() / units.max(1);
    let mut out: Vec<Vec<f64>> = vec![Vec::with_capacity(rows); sums.len()];
    if units == 0 {
        return out;
    }
    // GROUP vectors interleaved item by item, so one pass over a row updates all of them.
    let groups: Vec<Vec<[f64; GROUP]>> =
        sums.chunks_exact(GROUP).map(|g| (0..units).map(|i| std::array::from_fn(|v| g[v][i])).collect()).collect();
    let groups_per_block = (BLOCK_BYTES / (units * 8 * GROUP)).max(1);
    let mut row_f64 = vec![0.0f64; units];
    let mut next_f64 = vec![0.0f64; units];
    let two_rows = two_rows_at_once();
    for (block, outs) in groups.chunks(groups_per_block).zip(out.chunks_mut(GROUP * groups_per_block)) {
        let mut rows = counts.chunks_exact(units);
        while let Some(row) = rows.next() {
            to_f64(row, &mut row_f64);
            // Two rows applied together read each vector's values once for both.
            let next = if two_rows { rows.next() } else { None };
            if let Some(next) = next {
                to_f64(next, &mut next_f64);
            }
            for (group, o) in block.iter().zip(outs.chunks_exact_mut(GROUP)) {
                match next {
                    Some(_) => {
                        let (first, second) = grouped_sums_two(&row_f64, &next_f64, group);
                        for ((o, a), b) in o.iter_mut().zip(first).zip(second) {
                            o.push(a);
                            o.push(b);
                        }
                    }
                    None => {
                        for (o, s) in o.iter_mut().zip(grouped_sums(&row_f64, group)) {
                            o.push(s);
                        }
                    }
                }
            }
        }
    }
    let done = groups.len() * GROUP;
    for (v, o) in sums[done..].iter().zip(&mut out[done..]) {
        o.extend(counts.chunks_exact(units).map(|row| weighted_sum(row, v)));
    }
    out
}

/// A row of counts as `f64`s (once per row, for every group of the block).
fn to_f64(row: &[u16], out: &mut [f64]) {
    #[cfg(target_arch = "wasm32")]
    {
        to_f64_simd128(row, out)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        to_f64_any(row, out)
    }
}

/// [`to_f64_any`] compiled with WebAssembly SIMD (a tenth of the worker's resampling time was
/// this widening before).
#[cfg(target_arch = "wasm32")]
#[target_feature(enable = "simd128")]
fn to_f64_simd128(row: &[u16], out: &mut [f64]) {
    to_f64_any(row, out)
}

#[inline(always)]
fn to_f64_any(row: &[u16], out: &mut [f64]) {
    out.iter_mut().zip(row).for_each(|(f, &c)| *f = f64::from(c));
}

/// [`weighted_sum`] of [`GROUP`] interleaved vectors (`group[i]` = their values of item i) over
/// one row of counts: each vector keeps its own four accumulators (item i goes to accumulator
/// i mod 4), updated in item order, so each sum is bit-identical to [`weighted_sum`]. The
/// layout lets the compiler keep accumulator l of the vectors in SIMD registers.
fn grouped_sums(counts: &[f64], group: &[[f64; GROUP]]) -> [f64; GROUP] {
    #[cfg(target_arch = "wasm32")]
    {
        grouped_sums_simd128(counts, group)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        grouped_sums_any(counts, group)
    }
}

/// [`grouped_sums_any`] compiled with WebAssembly SIMD (two f64 lanes, as SSE2 natively). The
/// viewer's worker then needs a browser with WebAssembly SIMD (every current one).
#[cfg(target_arch = "wasm32")]
#[target_feature(enable = "simd128")]
fn grouped_sums_simd128(counts: &[f64], group: &[[f64; GROUP]]) -> [f64; GROUP] {
    grouped_sums_any(counts, group)
}

/// Whether [`grouped_sums_two`] is used: where the CPU has AVX2 (its 16 accumulators then fit in
/// eight registers; with two-lane SIMD they would not).
fn two_rows_at_once() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// [`grouped_sums`] of two rows of counts at once: each value of the group is read once for both
/// rows, and the two rows' accumulators are independent chains, which the four-lane registers of
/// AVX2 then keep busy (one row at a time waits on the latency of its own four chains). Each
/// row's sums take the same operations in the same order as [`grouped_sums_any`] (Rust never
/// fuses a multiplication and an addition), so they are bit-identical to one row at a time.
/// Without AVX2, each row alone.
fn grouped_sums_two(first: &[f64], second: &[f64], group: &[[f64; GROUP]]) -> ([f64; GROUP], [f64; GROUP]) {
    #[cfg(target_arch = "x86_64")]
    if two_rows_at_once() {
        // SAFETY: the CPU has AVX2 (checked just above), all `grouped_sums_two_avx2` needs.
        return unsafe { grouped_sums_two_avx2(first, second, group) };
    }
    (grouped_sums(first, group), grouped_sums(second, group))
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn grouped_sums_two_avx2(first: &[f64], second: &[f64], group: &[[f64; GROUP]]) -> ([f64; GROUP], [f64; GROUP]) {
    let n = first.len().min(second.len()).min(group.len());
    let (a4, _) = first[..n].as_chunks::<4>();
    let (b4, _) = second[..n].as_chunks::<4>();
    let (x4, _) = group[..n].as_chunks::<4>();
    let mut acc_a = [[0.0f64; GROUP]; 4];
    let mut acc_b = [[0.0f64; GROUP]; 4];
    for ((a, b), x) in a4.iter().zip(b4).zip(x4) {
        for l in 0..4 {
            for v in 0..GROUP {
                acc_a[l][v] += a[l] * x[l][v];
                acc_b[l][v] += b[l] * x[l][v];
            }
        }
    }
    for i in a4.len() * 4..n {
        for v in 0..GROUP {
            acc_a[i % 4][v] += first[i] * group[i][v];
            acc_b[i % 4][v] += second[i] * group[i][v];
        }
    }
    let total = |acc: &[[f64; GROUP]; 4]| std::array::from_fn(|v| (acc[0][v] + acc[1][v]) + (acc[2][v] + acc[3][v]));
    (total(&acc_a), total(&acc_b))
}

#[inline(always)]
fn grouped_sums_any(counts: &[f64], group: &[[f64; GROUP]]) -> [f64; GROUP] {
    let n = counts.len().min(group.len());
    let (c4, _) = counts[..n].as_chunks::<4>();
    let (x4, _) = group[..n].as_chunks::<4>();
    let mut acc = [[0.0f64; GROUP]; 4];
    for (c, x) in c4.iter().zip(x4) {
        for l in 0..4 {
            for v in 0..GROUP {
                acc[l][v] += c[l] * x[l][v];
            }
        }
    }
    for i in c4.len() * 4..n {
        for v in 0..GROUP {
            acc[i % 4][v] += counts[i] * group[i][v];
        }
    }
    std::array::from_fn(|v| (acc[0][v] + acc[1][v]) + (acc[2][v] + acc[3][v]))
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

    /// The B resampled means of `values` drawn and summed one resample at a time, as the
    /// module's header defines them: the reference every faster path must equal bit for bit.
    fn one_at_a_time(values: &[f64], scheme: &Scheme, b: usize, seed: u64) -> Vec<f64> {
        let n = values.len();
        let (units, sums, sizes) = match scheme {
            Scheme::Cluster(labels) => {
                let (ids, sizes) = clusters_of(labels);
                let mut sums = vec![0.0; sizes.len()];
                for (&c, &x) in ids.iter().zip(values) {
                    sums[c] += x;
                }
                (sizes.len(), sums, Some(sizes))
            }
            _ => (n, values.to_vec(), None),
        };
        // Strata by label, smallest label first (none: one stratum of every unit).
        let strata: Vec<Vec<usize>> = match scheme {
            Scheme::Stratified(labels) => {
                let mut keys: Vec<u32> = labels.clone();
                keys.sort_unstable();
                keys.dedup();
                keys.iter().map(|&k| (0..n).filter(|&i| labels[i] == k).collect()).collect()
            }
            _ => vec![(0..units).collect()],
        };
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut row = vec![0u32; units];
        (0..b)
            .map(|_| {
                row.fill(0);
                for members in &strata {
                    for _ in 0..members.len() {
                        row[members[rand::RngExt::random_range(&mut rng, 0..members.len())]] += 1;
                    }
                }
                let denom = sizes.as_ref().map_or(n as f64, |sz| weighted_sum(&row, sz));
                weighted_sum(&row, &sums) / denom
            })
            .collect()
    }

    #[test]
    fn two_rows_at_once_are_each_row_alone_bit_for_bit() {
        if !two_rows_at_once() {
            return;
        }
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let specials = [0.0, -0.0, 1e308, -1e308, 1e-310, f64::INFINITY, f64::NAN, 0.1, 1.0 / 3.0];
        for n in [0, 1, 3, 4, 5, 17, 64, 1001] {
            let mut row = || -> Vec<f64> { (0..n).map(|_| f64::from(rng.random_range(0u16..7))).collect() };
            let (first, second) = (row(), row());
            let group: Vec<[f64; GROUP]> = (0..n)
                .map(|_| {
                    std::array::from_fn(|_| {
                        if rng.random_range(0..10) == 0 {
                            specials[rng.random_range(0..specials.len())]
                        } else {
                            rng.random_range(-1e6..1e6)
                        }
                    })
                })
                .collect();
            let (a, b) = grouped_sums_two(&first, &second, &group);
            assert_eq!(a.map(f64::to_bits), grouped_sums_any(&first, &group).map(f64::to_bits), "n = {n}");
            assert_eq!(b.map(f64::to_bits), grouped_sums_any(&second, &group).map(f64::to_bits), "n = {n}");
        }
    }

    #[test]
    fn past_the_cache_the_means_are_those_of_one_resample_at_a_time() {
        // With the cache full, 3,000 items × 2,900 resamples are drawn in two chunks (2,796 and
        // 104 resamples) through the threaded path; 70,000 items are past what a u16 counts (the
        // wide path); 300 items, every scheme in one chunk.
        for (n, b, every_scheme) in [(3_000usize, 2_900usize, false), (70_000, 3, true), (300, 50, true)] {
            let v: Vec<f64> = (0..n).map(|i| ((i * 7919) % 101) as f64 / 7.0 - 3.0).collect();
            let labels: Vec<u32> = (0..n as u32).map(|i| i % 13).collect();
            let schemes = [Scheme::Iid, Scheme::Stratified(labels.clone()), Scheme::Cluster(labels)];
            for scheme in schemes.into_iter().take(if every_scheme { 3 } else { 1 }) {
                let mut full = Resampler::new(b, 5);
                full.cached_entries = CACHE_LIMIT;
                let got = full.means_under(&[&v], &scheme).pop().unwrap();
                let want = one_at_a_time(&v, &scheme, b, 5);
                assert_eq!(got.len(), b);
                assert!(got.iter().zip(&want).all(|(a, w)| a.to_bits() == w.to_bits()), "{n} {}", scheme.name());
            }
        }
    }

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
    fn blocked_means_equal_one_vector_at_a_time() {
        // 70 distinct vectors (several cache blocks of 24 at n = 4001, and not a multiple of the
        // group of 4) with values whose sums depend on the order of operations.
        let n = 4001;
        let vectors: Vec<Vec<f64>> =
            (0..70).map(|k| (0..n).map(|i| ((i * (k + 3)) as f64).sin() / ((k + 1) as f64).sqrt()).collect()).collect();
        let refs: Vec<&[f64]> = vectors.iter().map(Vec::as_slice).collect();
        for scheme in [Scheme::Iid, Scheme::Cluster((0..n as u32).map(|i| i / 3).collect())] {
            let together = Resampler::new(50, 7).means_under(&refs, &scheme);
            for (vector, means) in vectors.iter().zip(&together) {
                let want = one_at_a_time(vector, &scheme, 50, 7);
                assert_eq!(means.len(), 50);
                assert!(means.iter().zip(&want).all(|(a, b)| a.to_bits() == b.to_bits()), "{}", scheme.name());
            }
        }
    }

    #[test]
    fn whole_number_vectors_summed_in_integers_equal_one_vector_at_a_time() {
        // Mostly-zero whole-number vectors (paired differences of indicators, large values near
        // the ±(2³¹ − 1) bound, −0.0 as a zero) go through the integer sums; denser ones, and
        // those with a fraction or a value past the bound, through the SIMD kernel. Every mean
        // must be bit-identical to the one-resample-at-a-time path.
        let n = 3001;
        let big = f64::from(i32::MAX);
        let vectors: Vec<Vec<f64>> = (0..23)
            .map(|k: usize| {
                (0..n)
                    .map(|i: usize| match (i * (k + 5) + k) % (3 + k % 7) {
                        0 if k.is_multiple_of(3) => -1.0,
                        0 => 1.0,
                        1 if k % 4 == 1 => [2.0, -3.0, big, -big][i % 4],
                        2 if k == 7 => 0.5,
                        2 if k == 8 => big * 2.0,
                        _ if k % 5 == 2 => -0.0,
                        _ => 0.0,
                    })
                    .collect()
            })
            .collect();
        let sparse = vectors.iter().filter(|v| WholeTerms::sparse(v).is_some()).count();
        assert!(sparse >= 8 && sparse < vectors.len(), "both paths are taken ({sparse} of {})", vectors.len());
        let refs: Vec<&[f64]> = vectors.iter().map(Vec::as_slice).collect();
        for scheme in [Scheme::Iid, Scheme::Cluster((0..n as u32).map(|i| i / 2).collect())] {
            let together = Resampler::new(40, 11).means_under(&refs, &scheme);
            for (vector, means) in vectors.iter().zip(&together) {
                let want = one_at_a_time(vector, &scheme, 40, 11);
                assert_eq!(means.len(), 40);
                assert!(means.iter().zip(&want).all(|(a, b)| a.to_bits() == b.to_bits()), "{}", scheme.name());
            }
        }
    }

    #[test]
    fn only_sparse_whole_numbers_within_the_bound_are_summed_in_integers() {
        let mostly_zero = |x: f64| {
            let mut v = vec![0.0; 40];
            v[3] = x;
            v
        };
        assert_eq!(WholeTerms::sparse(&mostly_zero(-7.0)).map(|t| t.0), Some(vec![(3, -7)]));
        assert_eq!(WholeTerms::sparse(&mostly_zero(-0.0)).map(|t| t.0), Some(vec![]));
        assert!(WholeTerms::sparse(&mostly_zero(f64::from(i32::MAX))).is_some());
        for x in [0.25, f64::NAN, f64::INFINITY, f64::from(i32::MAX) + 1.0, -f64::from(i32::MAX) - 1.0] {
            assert!(WholeTerms::sparse(&mostly_zero(x)).is_none(), "{x}");
        }
        // One nonzero in four at most.
        let quarter: Vec<f64> = (0..40).map(|i| f64::from(u8::from(i % 4 == 0))).collect();
        assert!(WholeTerms::sparse(&quarter).is_some());
        let denser: Vec<f64> = (0..40).map(|i| f64::from(u8::from(i % 3 == 0))).collect();
        assert!(WholeTerms::sparse(&denser).is_none());
    }

    #[test]
    fn shared_and_parallel_means_equal_one_vector_at_a_time() {
        // Large enough for the blocks to run on threads natively, with repeated vectors.
        let v = |k: usize| (0..1000).map(|i| ((i * (7 + k)) % 13) as f64 / 7.0).collect::<Vec<f64>>();
        let vectors = [v(0), v(1), v(0), v(2), v(1), v(3)];
        let refs: Vec<&[f64]> = vectors.iter().map(Vec::as_slice).collect();
        let together = Resampler::new(2000, 42).resampled_means_many(&refs);
        for (vector, means) in vectors.iter().zip(&together) {
            let want = one_at_a_time(vector, &Scheme::Iid, 2000, 42);
            assert_eq!(means.len(), 2000);
            assert!(means.iter().zip(&want).all(|(a, b)| a.to_bits() == b.to_bits()));
        }
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
    fn stratified_keeps_strata_sizes_and_cluster_resamples_whole_clusters() {
        // stratum 0 all zeros, stratum 1 all ones: every stratified resample has mean 0.5
        let v = [0.0, 0.0, 0.0, 1.0, 1.0, 1.0];
        let strata = Scheme::Stratified(vec![0, 0, 0, 1, 1, 1]);
        let m = Resampler::new(200, 3).means_under(&[&v], &strata);
        assert!(m[0].iter().all(|&x| (x - 0.5).abs() < 1e-15));
        // clusters {0,0,0} and {1,1,1} drawn whole: means are 0, 0.5 or 1 only
        let clusters = Scheme::Cluster(vec![7, 7, 7, 9, 9, 9]);
        let m = Resampler::new(500, 3).means_under(&[&v], &clusters);
        assert!(m[0].iter().all(|&x| x == 0.0 || x == 0.5 || x == 1.0));
        assert!(m[0].contains(&0.0) && m[0].contains(&1.0));
        // unequal cluster sizes: the mean is over items, not over cluster means
        let v = [1.0, 0.0, 0.0, 0.0];
        let jk = Resampler::jackknife(&v, &Scheme::Cluster(vec![1, 2, 2, 2]));
        assert_eq!(jk, vec![0.0, 1.0]);
        // mismatched labels give nothing rather than a wrong answer
        assert!(Resampler::new(10, 1).means_under(&[&v], &Scheme::Cluster(vec![1, 2]))[0].is_empty());
    }

    #[test]
    fn degenerate_inputs() {
        let mut r = Resampler::new(100, 1);
        assert_eq!(r.mean_ci(&[], 0.95), None);
        assert_eq!(r.mean_ci(&[0.25; 7], 0.95), Some(Interval { low: 0.25, high: 0.25 }));
        assert_eq!(Resampler::new(0, 1).mean_ci(&[1.0], 0.95), None);
    }
}
