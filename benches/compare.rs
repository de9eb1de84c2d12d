//! Paired statistics speed on the reference size: 10 arms × 2,000 paired items,
//! 45 contrasts, 10,000 resamples each, BCa intervals, Friedman + Nemenyi. Run with
//! `cargo bench --bench compare`; results go in BENCHMARKS.md.

use std::time::Instant;

use memaudit::compare::{CompareInput, CompareSettings, compare};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn main() {
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
        let mut times = Vec::new();
        let mut last = None;
        for _ in 0..5 {
            let t = Instant::now();
            last = Some(compare(&input, &settings, &mut |_, _| {}).expect("valid input"));
            times.push(t.elapsed());
        }
        times.sort();
        let c = last.expect("ran");
        println!(
            "{} values: {k} arms × {n} items, {} contrasts, {} resamples, BCa: median {:.0} ms (min {:.0} ms); Friedman χ² = {:.2}",
            if binary { "binary" } else { "continuous" },
            c.pairs.len(),
            settings.bootstrap,
            times[times.len() / 2].as_secs_f64() * 1e3,
            times[0].as_secs_f64() * 1e3,
            c.friedman.as_ref().map_or(f64::NAN, |f| f.chi2)
        );
    }
}
