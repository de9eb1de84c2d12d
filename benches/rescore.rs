//! Rescoring speed on the reference size: 2,000 queries × 60 ranked items × 8 systems
//! (960,000 ranked rows), three targets. Run with `cargo bench --bench rescore`; results go in
//! BENCHMARKS.md. Prints the median of several repetitions of each stage, and writes the same
//! run's Raw target as TREC qrels/run under `target/bench-trec/` for the pytrec_eval comparison
//! (`python3 benches/pytrec_eval_time.py target/bench-trec`).

use std::time::{Duration, Instant};

use memaudit::audit;
use memaudit::conventions::Settings;
use memaudit::dataset::Dataset;
use memaudit::ingest::{InputFile, PathSource, read_all, share};
use memaudit::rescore::rescore;
use memaudit::synth::{SynthSpec, generate, to_jsonl};

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn time<T>(reps: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..reps {
        let t = Instant::now();
        let out = f();
        times.push(t.elapsed());
        last = Some(out);
    }
    (median(times), last.expect("reps > 0"))
}

fn main() {
    let spec = SynthSpec { queries: 2000, systems: 8, depth: 60, seed: 7, quirks: false, own_store: false };
    let bundle = generate(&spec);
    let rows: usize = bundle.runs.iter().map(|r| r.ranked.len()).sum();
    let (m, q, r) = to_jsonl(&bundle);
    let files = vec![
        InputFile::new("memories.jsonl", m.into_bytes()),
        InputFile::new("queries.jsonl", q.into_bytes()),
        InputFile::new("runs.jsonl", r.into_bytes()),
    ];
    let bytes: usize = files.iter().map(|f| f.len()).sum();
    println!(
        "input: {} queries × {} systems, {rows} ranked rows, {} memories, {:.1} MB of JSONL",
        spec.queries,
        spec.systems,
        bundle.memories.len(),
        bytes as f64 / 1e6
    );
    let reps = 7;
    let settings = Settings::default();

    let (t_parse, loaded) = time(reps, || read_all(&files).expect("synthetic input parses"));
    // The same files on disk, read as streams one line at a time, as `memaudit rescore` reads them.
    let disk = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-rescore");
    std::fs::create_dir_all(&disk).expect("create target/bench-rescore");
    let streamed: Vec<InputFile> = files
        .iter()
        .map(|f| {
            let path = disk.join(&f.name);
            std::fs::write(&path, f.bytes().expect("held")).expect("write the bundle");
            let source = PathSource { path, len: f.len() as u64 };
            InputFile::streamed(f.name.clone(), share(source))
        })
        .collect();
    let (t_stream, from_disk) = time(reps, || read_all(&streamed).expect("synthetic input parses"));
    assert_eq!(format!("{:?}", from_disk.bundle), format!("{:?}", loaded.bundle), "streamed = held");
    let (t_build, ds) = time(reps, || Dataset::build(loaded.clone()));
    let (t_rescore, r) = time(reps, || rescore(&ds, &settings, &mut |_| {}));
    let (t_e2e, _) = time(reps, || {
        let ds = Dataset::build(read_all(&files).expect("parses"));
        rescore(&ds, &settings, &mut |_| {})
    });
    let no_boot = Settings { bootstrap: 0, ..settings.clone() };
    let (t_audit_noboot, _) = time(3, || audit::audit(&ds, &rescore(&ds, &no_boot, &mut |_| {}), &mut |_, _| {}));
    let (t_audit, report) = time(3, || audit::audit(&ds, &r, &mut |_, _| {}));

    println!("parse (3 JSONL files)            {:>8.1} ms", t_parse.as_secs_f64() * 1e3);
    println!("parse, streamed from disk        {:>8.1} ms", t_stream.as_secs_f64() * 1e3);
    println!("validate + intern (Dataset)      {:>8.1} ms", t_build.as_secs_f64() * 1e3);
    println!("rescore (all cells, 3 targets)   {:>8.1} ms", t_rescore.as_secs_f64() * 1e3);
    println!("parse + build + rescore          {:>8.1} ms", t_e2e.as_secs_f64() * 1e3);
    println!("audit tables, no bootstrap       {:>8.1} ms", t_audit_noboot.as_secs_f64() * 1e3);
    println!(
        "audit tables, {} resamples ({} intervals) {:>8.1} ms",
        settings.bootstrap,
        report.summary.len() + report.instability.len() + report.winners.len(),
        t_audit.as_secs_f64() * 1e3
    );

    // The Raw target as TREC files, for pytrec_eval.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-trec");
    std::fs::create_dir_all(&dir).expect("create target/bench-trec");
    let mut qrels = String::new();
    for q in &ds.queries {
        for e in &q.evidence {
            for &mi in ds.anchor_members(&e.anchor) {
                let mem = &ds.memories[mi as usize];
                if mem.raw {
                    qrels.push_str(&format!("{} 0 {} 1\n", q.query_id, mem.memory_id));
                }
            }
        }
    }
    let mut run = String::new();
    for (s, sys) in ds.systems.iter().enumerate() {
        for (qi, q) in ds.queries.iter().enumerate() {
            if let Some(l) = &ds.lists[s][qi] {
                let n = l.items.len();
                for (i, &it) in l.items.iter().enumerate() {
                    run.push_str(&format!("{} Q0 {} {} {} {sys}\n", q.query_id, ds.item_id(it), i + 1, n - i));
                }
            }
        }
    }
    std::fs::write(dir.join("raw.qrels"), qrels).expect("write qrels");
    std::fs::write(dir.join("all.run"), run).expect("write run");
    let raw_means: Vec<String> = report
        .summary
        .iter()
        .filter(|s| s.target == memaudit::model::Target::Raw && s.subset == memaudit::audit::Subset::All)
        .map(|s| format!("{}={:.6}", s.system, s.ndcg.unwrap_or(f64::NAN)))
        .collect();
    println!("raw nDCG@60 means (to compare with pytrec_eval): {}", raw_means.join(" "));
    println!("TREC files for pytrec_eval: {}", dir.display());
}
