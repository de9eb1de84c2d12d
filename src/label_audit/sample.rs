//! A stratified sample of items for a human to check: items bucketed by a numeric stratum (the
//! credited rank in TIAP: "stratified by credited rank bucket, using ranks 1 to 5, 6 to 20, and
//! 21 to 60, and evenly spaced by query index within each bucket", seed-001 §1.6), then k items
//! per bucket — at random (ChaCha8 from the stated seed, one stream, buckets in order, a partial
//! Fisher–Yates shuffle of each bucket's items) or evenly spaced in the items' order (item
//! ⌊i·m/k⌋ for i < k of a bucket's m items).

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::SampleMode;
use super::read::Item;
use crate::error::{Error, Result};

/// Most items a sample may take per bucket.
pub const MAX_PER_BUCKET: usize = 100_000;

/// An inclusive range of stratum values; `high = None`: no upper end (`61-`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Bucket {
    pub name: String,
    pub low: f64,
    pub high: Option<f64>,
}

impl Bucket {
    fn holds(&self, x: f64) -> bool {
        x >= self.low && self.high.is_none_or(|h| x <= h)
    }
}

/// Parses `1-5,6-20,21-60` (inclusive; `61-` has no upper end). Buckets must not overlap.
pub fn parse_buckets(text: &str) -> Result<Vec<Bucket>> {
    let bad = |part: &str, why: &str| Error::setting("buckets", format!("`{part}` {why} (e.g. 1-5,6-20,21-60 or 61-)"));
    let mut out: Vec<Bucket> = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (lo, hi) = part.split_once('-').ok_or_else(|| bad(part, "is not LOW-HIGH"))?;
        let low: f64 = lo
            .trim()
            .parse()
            .ok()
            .filter(|x: &f64| x.is_finite())
            .ok_or_else(|| bad(part, "has no number before `-`"))?;
        let high = match hi.trim() {
            "" => None,
            h => Some(
                h.parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite() && *x >= low)
                    .ok_or_else(|| bad(part, "needs a number after `-` at least as large as the one before"))?,
            ),
        };
        let b = Bucket { name: part.to_string(), low, high };
        if let Some(o) = out.iter().find(|o| {
            let (l1, h1) = (o.low, o.high.unwrap_or(f64::INFINITY));
            let (l2, h2) = (b.low, b.high.unwrap_or(f64::INFINITY));
            l1 <= h2 && l2 <= h1
        }) {
            return Err(bad(part, &format!("overlaps `{}`", o.name)));
        }
        out.push(b);
    }
    if out.is_empty() {
        return Err(Error::setting("buckets", "no bucket given (e.g. 1-5,6-20,21-60)"));
    }
    Ok(out)
}

/// One bucket of the sample.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BucketRow {
    pub bucket: String,
    /// Items whose stratum falls in the bucket.
    pub items: usize,
    pub drawn: usize,
}

/// One sampled item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SampleRow {
    pub bucket: String,
    pub item: String,
    pub stratum: String,
    pub group: Option<String>,
    /// Position of the item among all items (from 0), to find it again.
    pub index: usize,
}

/// The stratified sample and how it was drawn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SampleReport {
    pub stratum: String,
    pub per_bucket: usize,
    pub mode: SampleMode,
    pub seed: u64,
    pub buckets: Vec<BucketRow>,
    /// Items with no stratum value or in no bucket (never sampled).
    pub outside: usize,
    pub rows: Vec<SampleRow>,
}

/// Draws `per_bucket` items from each bucket.
pub fn sample(
    items: &[Item],
    stratum: &str,
    buckets: &[Bucket],
    per_bucket: usize,
    mode: SampleMode,
    seed: u64,
) -> SampleReport {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut rows = Vec::new();
    let mut bucket_rows = Vec::new();
    let mut inside = 0;
    for b in buckets {
        let members: Vec<usize> = (0..items.len()).filter(|&i| items[i].stratum.is_some_and(|x| b.holds(x))).collect();
        inside += members.len();
        let k = per_bucket.min(members.len());
        let mut chosen: Vec<usize> = match mode {
            SampleMode::Random => {
                let mut pool = members.clone();
                for i in 0..k {
                    let j = rng.random_range(i..pool.len());
                    pool.swap(i, j);
                }
                pool.truncate(k);
                pool
            }
            SampleMode::Even => (0..k).map(|i| members[i * members.len() / k]).collect(),
        };
        chosen.sort_unstable();
        bucket_rows.push(BucketRow { bucket: b.name.clone(), items: members.len(), drawn: chosen.len() });
        rows.extend(chosen.into_iter().map(|i| SampleRow {
            bucket: b.name.clone(),
            item: items[i].id.clone(),
            stratum: items[i].stratum_text.clone().unwrap_or_default(),
            group: items[i].group.clone(),
            index: i,
        }));
    }
    SampleReport {
        stratum: stratum.to_string(),
        per_bucket,
        mode,
        seed,
        buckets: bucket_rows,
        outside: items.len() - inside,
        rows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(id: usize, rank: Option<f64>) -> Item {
        Item {
            id: format!("q{id}"),
            group: None,
            stratum: rank,
            stratum_text: rank.map(|r| r.to_string()),
            labels: vec![],
            first_seen: (0, id),
        }
    }

    #[test]
    fn buckets_parse_and_refuse_overlaps() {
        let b = parse_buckets("1-5, 6-20,21-").unwrap();
        assert_eq!(b.len(), 3);
        assert!(b[2].holds(1e9) && !b[0].holds(5.5) && b[0].holds(5.0));
        assert!(parse_buckets("1-5,5-9").is_err());
        assert!(parse_buckets("5-1").is_err());
        assert!(parse_buckets("x-3").is_err());
        assert!(parse_buckets("").is_err());
    }

    #[test]
    fn even_and_random_samples_are_deterministic_and_within_buckets() {
        let items: Vec<Item> =
            (0..40).map(|i| item(i, if i == 7 { None } else { Some((i % 30) as f64 + 1.0) })).collect();
        let buckets = parse_buckets("1-5,6-20,21-60").unwrap();
        let even = sample(&items, "rank", &buckets, 3, SampleMode::Even, 0);
        assert_eq!(even.buckets.iter().map(|b| b.drawn).collect::<Vec<_>>(), vec![3, 3, 3]);
        assert_eq!(even.outside, 1);
        // Bucket 1-5 holds items 0-4 and 30-34 (ranks 1-5): evenly spaced picks 0, 3, 31.
        let first: Vec<&str> = even.rows.iter().filter(|r| r.bucket == "1-5").map(|r| r.item.as_str()).collect();
        assert_eq!(first, vec!["q0", "q3", "q31"]);
        let a = sample(&items, "rank", &buckets, 4, SampleMode::Random, 7);
        let b = sample(&items, "rank", &buckets, 4, SampleMode::Random, 7);
        assert_eq!(a, b);
        let c = sample(&items, "rank", &buckets, 4, SampleMode::Random, 8);
        assert_ne!(a.rows, c.rows);
        for r in &a.rows {
            let bucket = buckets.iter().find(|b| b.name == r.bucket).unwrap();
            assert!(bucket.holds(items[r.index].stratum.unwrap()));
        }
        let all = sample(&items, "rank", &buckets, 1000, SampleMode::Random, 1);
        assert_eq!(all.rows.len(), 39, "a bucket smaller than k is taken whole");
    }
}
