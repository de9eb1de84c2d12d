//! Paired statistics speed on the reference size: 10 arms × 2,000 paired items,
//! 45 contrasts, 10,000 resamples each, BCa intervals, Friedman + Nemenyi; then the scaling of
//! two arms from 1,250 to 10,000 items (past the resample cache at 3,356) and 20 arms × 10,000
//! items. Run with `cargo bench --bench compare`; results go in BENCHMARKS.md.

use std::time::Instant;

use memaudit::compare::{CompareInput, CompareSettings, compare};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn main() {
    reference_size();
    scaling();
}

/// Median wall time of five runs, in ms, and the last result.
fn timed(input: &CompareInput, settings: &CompareSettings) -> (f64, f64, memaudit::compare::Comparison) {
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..5 {
        let t = Instant::now();
        last = Some(compare(input, settings, &mut |_, _| {}).expect("valid input"));
        times.push(t.elapsed());
    }
    times.sort();
    (times[times.len() / 2].as_secs_f64() * 1e3, times[0].as_secs_f64() * 1e3, last.expect("ran"))
}

/// k arms of 0/1 values on n items.
fn binary_input(k: usize, n: usize, seed: u64) -> CompareInput {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    CompareInput {
        arms: (0..k).map(|j| format!("arm{j}")).collect(),
        items: (0..n).map(|i| format!("item{i}")).collect(),
        values: (0..n)
            .map(|_| (0..k).map(|j| f64::from(u8::from(rng.random::<f64>() < 0.5 + 0.01 * j as f64))).collect())
            .collect(),
        groups: None,
        per: None,
    }
}

fn scaling() {
    let settings = CompareSettings::default();
    let mut first = None;
    for (k, n) in [(2, 1250), (2, 2500), (2, 3300), (2, 3400), (2, 5000), (2, 10_000), (20, 10_000)] {
        let (median, min, _) = timed(&binary_input(k, n, 5), &settings);
        let per_item = median / n as f64;
        let base = *first.get_or_insert(per_item);
        println!(
            "scaling: {k} arms × {n} items, {} resamples: median {median:.0} ms (min {min:.0} ms), {:.2}× the time per item of 1,250",
            settings.bootstrap,
            per_item / base
        );
    }
}

fn reference_size() {
    let (k, n) = (10, 2000);
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for binary in [true, false] {
        let values: Vec<Vec<f64>> = (0..n)
            .map(|_| {
                let difficulty: f64 = rng.random();
                (0..k)
                    .map(|j| {
                        let p = (0.35 + 0.03 * j as f64 + 0.3 * (difficulty - 0.5)).clamp(0.0, 1.0);
                        if binary {
                            f64::from(u8::from(rng.random::<f64>() < p))
                        } else {
                            (p + 0.2 * (rng.random::<f64>() - 0.5)).clamp(0.0, 1.0)
                        }
                    })
                    .collect()
            })
            .collect();
        let input = CompareInput {
            arms: (0..k).map(|j| format!("arm{j}")).collect(),
            items: (0..n).map(|i| format!("item{i}")).collect(),
            values,
            groups: None,
            per: None,
        };
        let settings = CompareSettings::default();
        let (median, min, c) = timed(&input, &settings);
        println!(
            "{} values: {k} arms × {n} items, {} contrasts, {} resamples, BCa: median {median:.0} ms (min {min:.0} ms); Friedman χ² = {:.2}",
            if binary { "binary" } else { "continuous" },
            c.pairs.len(),
            settings.bootstrap,
            c.friedman.as_ref().map_or(f64::NAN, |f| f.chi2)
        );
    }
}
