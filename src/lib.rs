//! memaudit core: reading benchmark traces, rescoring them under credit targets, and the
//! statistics behind every number the viewer and the CLI show. Knows nothing of the web; the
//! `web` feature adds the wasm API and the Yew viewer on top (see `ARCHITECTURE.md`).

pub mod ablation;
pub mod alignment;
pub mod answers;
pub mod attach;
pub mod audit;
pub mod calibration;
pub mod capability;
pub mod cells;
pub mod choice;
pub mod claims;
pub mod command_line;
pub mod compare;
pub mod compliance;
pub mod conventions;
pub mod dataset;
pub mod demo;
pub mod distinct;
pub mod error;
pub mod fields;
pub mod file_role;
pub mod headline;
pub mod ingest;
pub mod ireval;
pub mod ksweep;
pub mod label_audit;
pub mod labels;
pub mod metrics;
pub mod model;
pub mod outcomes;
pub mod parallel;
pub mod plots;
pub mod printed;
pub mod probe;
pub mod reclaim;
pub mod registry;
pub mod release;
pub mod report;
pub mod rescore;
pub mod rules;
pub mod stats;
pub mod synth;
pub mod targets;
#[cfg(feature = "web")]
pub mod web;

pub use capability::VERSION;
