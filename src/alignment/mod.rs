//! Answer-level alignment of credit targets and the checks beside it (TIAP §4.11 Table 12,
//! §5.1; seed-001 §5 items 12, 13): do the queries one target credits and the other does not
//! get better answers? Is a target's metric different on the queries the other target covers
//! (a coverage confound)? Are two runs the same run under two names (identical per-query
//! metrics)?
//!
//! ```text
//! files ──read──► per (run, query): target metrics (rescore's per_query rows) and an answer score
//!       ──analyse──► alignment classes per run (A-only, B-only, both, neither) with mean F1,
//!                    positive share (> 0), strong share (≥ 0.5); mean of runs and pooled
//!                    coverage confound per run and target, bootstrap over runs
//!                    run identity: the share of identical per-query metrics per pair of runs
//!                    target shifts per run and pair of targets (flips, changes, |Δ| and its histogram)
//!                    target contrasts per run on its shared subset (means, B − A with an interval)
//!                    target aggregations per run (B with A as fallback, mean, geometric, min; τ_d)
//! ```

pub mod aggregate;
pub mod analyse;
pub mod contrast;
pub mod figures;
pub mod headlines;
pub mod read;
pub mod shift;
pub mod table;
pub mod text;
pub mod unit;

pub use analyse::{AlignmentReport, analyse};
pub use table::{AlignmentTable, table};
pub use unit::{Alignment, AlignmentRequest};
