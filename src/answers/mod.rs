//! Answer rescoring from raw text: scoring profiles ported from the scripts that
//! produced published numbers — seed-000's paper-literal substring match, the
//! MemoryAgentBench harness (SEM and F1, raw and parsed outputs), SQuAD v1.1 exact match and
//! token F1, and LoCoMo's official stemmed F1 with multi-hop partial credit — each selectable
//! and recorded with every result, plus the diff of two profiles (`docs/answers.md`).
//!
//! ```text
//! file ──read_answers──► AnswerRow (gold variants, raw prediction, dataset, category, line)
//!      ──rescore_answers(profiles)──► AnswerReport (per-row scores, summaries, disagreements)
//!      ──diff(a, b)──► rows whose verdict changes
//! ```

pub mod cells;
pub mod headlines;
pub mod instance;
pub mod normalize;
pub mod porter;
pub mod profile;
pub mod read;
pub mod rescore;
pub mod score;
pub mod stated;
pub mod table;
pub mod text;
pub mod unit;

pub use profile::{AnswerInput, Profile, ProfileInfo, Scored, score};
pub use read::{AnswerColumns, AnswerRow, AnswerWarningKind, AnswerWarnings, StatedScore, read_answers};
pub use rescore::{
    AnswerReport, AnswerSettings, DiffRow, Disagreement, ProfileScore, ProfileSummary, ScoredAnswer, diff,
    rescore_answers,
};
pub use stated::{StatedComparison, StatedKind};
pub use table::{AnswersTable, rows_table, table};
pub use unit::{Answers, AnswersRequest, ShowItem};
