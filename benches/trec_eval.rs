//! `memaudit trec-eval` on an MS MARCO-size run: 7,000 queries × 1,000 retrieved documents
//! (7,000,000 TREC lines, about 250 MB) against 1–3 relevant documents per query, measures
//! `map P.10 recip_rank ndcg_cut.1000 recall.1000`. Run with `cargo bench --bench trec_eval`
//! (after `cargo build --release --bin memaudit`); results go in BENCHMARKS.md.
//!
//! Writes the files once under `target/bench-trec-eval/` (deterministic generator below), then
//! times, in the same run and through `/usr/bin/time -f '%e %M'` (wall seconds, peak resident
//! kilobytes):
//! - the release CLI: `memaudit trec-eval -m map -m P.10 … qrels run` (reading included);
//! - pytrec_eval (load the TREC files into dicts + evaluate), `benches/trec_eval_peers.py`;
//! - ranx (`Qrels.from_file`, `Run.from_file`, `evaluate`), with `--ranx` (about 90 s);
//! - with `--scale`: memaudit and the awk one-pass parse (`awk '{s+=$5}'`, the floor) at 1×, 2×,
//!   4× and 8× the run (the files copied with prefixed query ids, written once), wall and CPU
//!   time and peak memory.
//!
//! The summary values of memaudit and pytrec_eval are printed side by side (they must agree).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

const QUERIES: u64 = 7_000;
const DEPTH: u64 = 1_000;
const COLLECTION: u64 = 8_841_823; // MS MARCO passages; prime, so k·STEP mod COLLECTION is distinct for k < COLLECTION
const STEP: u64 = 104_729;

/// xorshift64*: a fixed, dependency-free stream (the files must be the same on every machine).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

fn generate(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let mut run = std::io::BufWriter::new(std::fs::File::create(dir.join("run.trec"))?);
    let mut qrels = std::io::BufWriter::new(std::fs::File::create(dir.join("qrels.txt"))?);
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for q in 0..QUERIES {
        let qid = 1_000_000 + q * 37;
        let base = rng.next() % COLLECTION;
        let doc = |k: u64| (base + k * STEP) % COLLECTION;
        let mut relevant: Vec<u64> = Vec::new();
        for j in 0..1 + rng.next() % 3 {
            // 60% of the relevant documents are retrieved somewhere in the top 1,000.
            let d =
                if rng.next() % 10 < 6 { doc(rng.next() % DEPTH) } else { (base + COLLECTION / 2 + j) % COLLECTION };
            if !relevant.contains(&d) {
                relevant.push(d);
                writeln!(qrels, "{qid} 0 {d} 1")?;
            }
        }
        for k in 0..DEPTH {
            let score = 100.0 - k as f64 * 0.05 + (rng.next() % 1000) as f64 * 1e-6;
            writeln!(run, "{qid} Q0 {} {} {score:.6} bm25", doc(k), k + 1)?;
        }
    }
    run.flush()?;
    qrels.flush()
}

/// Wall seconds and peak resident kilobytes of a command, and its standard output.
fn timed(program: &str, args: &[&str]) -> (f64, u64, String) {
    let (t, out) = measured(program, args);
    (t[0], t[3] as u64, out)
}

/// Wall seconds, CPU seconds (user + system) and peak resident kilobytes of a command.
fn timed_cpu(program: &str, args: &[&str]) -> (f64, f64, u64) {
    let (t, _) = measured(program, args);
    (t[0], t[1] + t[2], t[3] as u64)
}

/// `/usr/bin/time -f '%e %U %S %M'` of a command (wall, user, system seconds, peak kilobytes),
/// and its standard output.
fn measured(program: &str, args: &[&str]) -> (Vec<f64>, String) {
    let out = Command::new("/usr/bin/time")
        .arg("-f")
        .arg("TIME %e %U %S %M")
        .arg(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("/usr/bin/time {program}: {e}"));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{program} {args:?} failed: {err}");
    let line = err.lines().rev().find(|l| l.starts_with("TIME ")).expect("time's report");
    let t: Vec<f64> = line.split_whitespace().skip(1).map(|s| s.parse().expect("a number")).collect();
    (t, String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The 1× files copied `k` times, each copy's query ids prefixed (`c2_1000000`): `k` times the
/// queries, the same queries each time (so the cost per query is the same at every size).
fn scaled(dir: &Path, k: usize) -> std::io::Result<(PathBuf, PathBuf)> {
    let (run, qrels) = (dir.join(format!("run_x{k}.trec")), dir.join(format!("qrels_x{k}.txt")));
    if k == 1 {
        return Ok((dir.join("run.trec"), dir.join("qrels.txt")));
    }
    if run.exists() && qrels.exists() {
        return Ok((run, qrels));
    }
    for (from, to) in [("run.trec", &run), ("qrels.txt", &qrels)] {
        let text = std::fs::read_to_string(dir.join(from))?;
        let mut out = std::io::BufWriter::new(std::fs::File::create(to)?);
        for c in 0..k {
            for line in text.lines() {
                writeln!(out, "c{c}_{line}")?;
            }
        }
        out.flush()?;
    }
    Ok((run, qrels))
}

/// `--scale`: memaudit trec-eval and the awk one-pass parse at 1×, 2×, 4× and 8× the run,
/// median of 3 each, with the CPU cost relative to 1×, per line and per byte (the copies' query
/// ids are longer, so k× the lines is more than k× the bytes).
fn scaling(dir: &Path, bin: &str, measures: &[&str]) {
    println!("\nscaling (median of 3; CPU = user + system):");
    println!(
        "| size | lines | bytes | memaudit wall | memaudit CPU | CPU / 1× | CPU / 1× per byte | peak | awk parse wall | awk CPU |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    let mut base = None;
    let mut base_bytes = None;
    for k in [1usize, 2, 4, 8] {
        let (run, qrels) = scaled(dir, k).expect("write the scaled files");
        let (run, qrels) = (run.to_str().expect("utf-8 path"), qrels.to_str().expect("utf-8 path"));
        let mut args = vec!["trec-eval"];
        args.extend(measures);
        args.extend([qrels, run]);
        let ours: Vec<(f64, f64, u64)> = (0..3).map(|_| timed_cpu(bin, &args)).collect();
        let awk: Vec<(f64, f64, u64)> = (0..3).map(|_| timed_cpu("awk", &["{s+=$5} END {print s}", run])).collect();
        let wall = median(ours.iter().map(|t| t.0).collect());
        let cpu = median(ours.iter().map(|t| t.1).collect());
        let peak = ours.iter().map(|t| t.2).max().unwrap_or(0);
        let base_cpu = *base.get_or_insert(cpu);
        let bytes = std::fs::metadata(run).map(|m| m.len()).unwrap_or(0) as f64;
        let base_bytes = *base_bytes.get_or_insert(bytes);
        println!(
            "| {k}× | {} | {:.0} MB | {wall:.2} s | {cpu:.2} s | {:.2} | {:.2} | {:.0} MB | {:.2} s | {:.2} s |",
            7_000_000 * k,
            bytes / 1e6,
            cpu / base_cpu,
            (cpu / base_cpu) / (bytes / base_bytes),
            peak as f64 / 1024.0,
            median(awk.iter().map(|t| t.0).collect()),
            median(awk.iter().map(|t| t.1).collect()),
        );
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("target/bench-trec-eval");
    if !dir.join("run.trec").exists() || !dir.join("qrels.txt").exists() {
        println!("writing {} …", dir.display());
        generate(&dir).expect("write the benchmark files");
    }
    let (qrels, run) = (dir.join("qrels.txt"), dir.join("run.trec"));
    let (qrels, run) = (qrels.to_str().expect("utf-8 path"), run.to_str().expect("utf-8 path"));
    let bin =
        std::env::var("MEMAUDIT_BIN").unwrap_or_else(|_| root.join("target/release/memaudit").display().to_string());
    let measures = ["-m", "map", "-m", "P.10", "-m", "recip_rank", "-m", "ndcg_cut.1000", "-m", "recall.1000"];
    let mut args: Vec<&str> = vec!["trec-eval"];
    args.extend(measures);
    args.extend([qrels, run]);

    let reps = 3;
    let mut ours = Vec::new();
    let mut our_kb = 0;
    let mut our_out = String::new();
    for _ in 0..reps {
        let (s, kb, out) = timed(&bin, &args);
        ours.push(s);
        our_kb = our_kb.max(kb);
        our_out = out;
    }
    let peers = root.join("benches/trec_eval_peers.py");
    let peers = peers.to_str().expect("utf-8 path");
    let mut py = Vec::new();
    let mut py_kb = 0;
    let mut py_out = String::new();
    for _ in 0..reps {
        let (s, kb, out) = timed("python3", &[peers, "pytrec_eval", qrels, run]);
        py.push(s);
        py_kb = py_kb.max(kb);
        py_out = out;
    }
    let (m, p) = (median(ours), median(py));
    println!("7,000 queries × 1,000 documents (7,000,000 lines), median of {reps}:");
    println!("memaudit trec-eval   {m:7.2} s   peak {:6.0} MB", our_kb as f64 / 1024.0);
    println!("pytrec_eval          {p:7.2} s   peak {:6.0} MB", py_kb as f64 / 1024.0);
    println!(
        "ratio memaudit / pytrec_eval: {:.3} (target < 0.1); memaudit peak < 64 MB: {}",
        m / p,
        our_kb < 64 * 1024
    );
    if std::env::args().any(|a| a == "--ranx") {
        let (s, kb, out) = timed("python3", &[peers, "ranx", qrels, run]);
        println!("ranx                 {s:7.2} s   peak {:6.0} MB   ({})", kb as f64 / 1024.0, out.trim());
    }
    println!("\nmemaudit:\n{our_out}pytrec_eval:\n{py_out}");
    if std::env::args().any(|a| a == "--scale") {
        scaling(&dir, &bin, &measures);
    }
}
