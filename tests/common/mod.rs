//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

use memaudit::dataset::Dataset;
use memaudit::ingest::{InputFile, read_all};

/// `../shared` next to the repository (override with MEMAUDIT_SHARED). The real-data fixtures
/// are part of the project's test inputs: a missing folder is a failure, not a skip.
pub fn shared() -> PathBuf {
    let p = std::env::var_os("MEMAUDIT_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    assert!(
        p.join("fixtures/external").is_dir(),
        "the shared fixtures are missing at {} (set MEMAUDIT_SHARED)",
        p.display()
    );
    p
}

pub fn fixture(rel: &str) -> InputFile {
    let path = shared().join("fixtures/external").join(rel);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    InputFile::new(rel, bytes)
}

pub fn file(name: &str, text: &str) -> InputFile {
    InputFile::new(name, text.as_bytes().to_vec())
}

pub fn dataset(files: &[InputFile]) -> Dataset {
    Dataset::build(read_all(files).unwrap_or_else(|e| panic!("{e}")))
}

pub fn demo_files() -> Vec<InputFile> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("static/demo");
    ["memories.jsonl", "queries.jsonl", "runs.jsonl"]
        .iter()
        .map(|n| InputFile::new(format!("static/demo/{n}"), std::fs::read(dir.join(n)).unwrap()))
        .collect()
}

/// Applies byte-level edits to a seed text (for fuzz-style property tests): each op deletes,
/// inserts, replaces or swaps a character at `pos` (taken modulo the length).
pub fn mutate(seed: &str, ops: &[(u8, usize, char)]) -> String {
    let mut chars: Vec<char> = seed.chars().collect();
    for &(op, pos, c) in ops {
        if chars.is_empty() {
            chars.push(c);
            continue;
        }
        let i = pos % chars.len();
        match op % 4 {
            0 => {
                chars.remove(i);
            }
            1 => chars.insert(i, c),
            2 => chars[i] = c,
            _ => {
                let j = (pos / 7) % chars.len();
                chars.swap(i, j);
            }
        }
    }
    chars.into_iter().collect()
}

/// Property-test settings: a fixed seed keeps CI deterministic; set PROPTEST_RNG_SEED=random
/// (or another number) locally to explore further.
pub fn proptest_config(cases: u32) -> proptest::test_runner::Config {
    use proptest::test_runner::{Config, RngSeed};
    let seed = match std::env::var("PROPTEST_RNG_SEED").ok().as_deref() {
        Some("random") => RngSeed::Random,
        Some(n) => RngSeed::Fixed(n.parse().unwrap_or(20261122)),
        None => RngSeed::Fixed(20261122),
    };
    Config { cases, rng_seed: seed, failure_persistence: None, ..Config::default() }
}
