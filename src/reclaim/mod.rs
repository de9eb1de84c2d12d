//! Reclaim analysis (Reclaim Evaluation, Kwon 2026; reclaim-eval): per-trial rows → cells →
//! reclaim rate with percentile-bootstrap intervals (a CPython-compatible resampler that
//! reproduces the paper's intervals exactly, or memaudit's ChaCha8 one), strict re-scoring of
//! raw replies, abstention and confident-wrong rates, the attractor share with both of the
//! paper's denominators, and the "worse than empty" contrast. See `docs/probe.md`.
//!
//! ```text
//! bytes ──trials::read_trials (+ probe keys)──► [Trial] ──analysis::analyze(settings)──►
//!       ReclaimReport { cells, worse_than_empty, contrasts, warnings }
//! ```

pub mod abstain;
pub mod analysis;
pub mod bootstrap;
pub mod boundaries;
pub mod cells;
pub mod figures;
pub mod headlines;
pub mod key;
pub mod plot;
pub mod pyrandom;
pub mod score;
pub mod table;
pub mod trials;
pub mod unit;

pub use abstain::AbstainRule;
pub use analysis::{
    Cell, Contrast, ReclaimReport, ReclaimSettings, ScoreMode, Share, WorseThanEmpty, analyze, filter_arm,
};
pub use bootstrap::{BootstrapSettings, Engine};
pub use key::{CellKey, ContrastKey};
pub use plot::{ReclaimPlot, ReclaimSeries};
pub use pyrandom::PyRandom;
pub use score::{Answer, AnswerKind};
pub use table::{ReclaimTable, reclaim_table, render_text};
pub use trials::{Trial, TrialsRead, read_trials};
pub use unit::{Reclaim, ReclaimOverview, ReclaimRequest};
