//! IR evaluation exactly as trec_eval defines it: qrels and runs read as trec_eval reads them
//! (plus ranx / pytrec_eval JSON), every measure of trec_eval's `all_trec`, its options
//! (`-q -c -n -J -l -M -N -m`) and its output format, so `memaudit trec-eval` prints what
//! `trec_eval` prints. See `docs/trec_eval.md`.
//!
//! ```text
//! files ─► Qrels, Run ─► judge (per query: ranking by sim, relevance per rank) ─► compute (per
//! measure) ─► evaluate (queries, -c, averages) ─► trec_eval text / tables / paired comparison
//! ```

pub mod compute;
pub mod evaluate;
pub mod fields;
pub use crate::ingest::trec_eval_files as files;
pub mod headlines;
pub mod judged;
pub mod measure;
pub mod table;
pub mod unit;

pub use evaluate::{EvalOptions, RunEvaluation, evaluate, trec_eval_text};
pub use files::{Qrels, Run, read_qrels, read_run};
pub use measure::Selection;
pub use table::TrecEvalTable;
pub use unit::{TrecEval, TrecEvalReport, TrecEvalRequest};
