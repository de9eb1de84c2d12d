//! Every native integration test in one binary: one link instead of one per file, and the tests
//! of every file share the test threads (cargo runs test binaries one after another, so one
//! file's slow tests used to leave the other core idle). Each file stays a module of its own
//! (`cargo test NAME` still selects by file: `cargo test cli::`). `tests/hostile.rs` (run last
//! through the release CLI) and `tests/web.rs` (wasm) are their own binaries. The files share
//! `tests/common/` (`use crate::common;`).

mod common;

mod ablation;
mod aggregation_reference;
mod alignment;
mod answers;
mod benchmark_fixtures;
mod calibration;
mod claims;
mod cli;
mod cli_compare;
mod cli_probe;
mod cli_tools;
mod compliance;
mod corruption;
mod cutoffs;
mod files_without_rows;
mod headlines;
mod instability_by_category;
mod labels;
mod outcome_families;
mod outcomes;
mod permutation_reference;
mod printed;
mod probe;
mod properties;
mod reader_properties;
mod reclaim;
mod reclaim_boundaries;
mod reclaim_hedge;
mod release;
mod released_formats;
mod rules;
mod stats_reference;
mod streamed_readers;
mod system_stores;
mod target_mapping;
mod trec_eval_agreement;
mod trec_eval_measures;
