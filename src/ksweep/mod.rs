//! Arms across K (seed-000 §4.2.2): per (arm, dataset, K) means with intervals, the
//! K-sweep series (plot-ready), paired deltas between arms at equal K labelled strict /
//! boundary / directional / none as seed-000 §1.9 defines them, the Δ-stability check with a
//! slack window, and crossovers (`docs/claims.md` §K-sweep).

pub mod figures;
pub mod plot;
pub mod read;
pub mod sweep;
pub mod table;

pub use plot::{DeltaForest, DeltaPoint, KSweepPlot};
pub use read::{DuplicateQueryId, ScoreColumns, ScoreRow, ScoreTable, ScoreWarningKind, ScoreWarnings, read_scores};
pub use sweep::{
    Cell, CellStats, Crossover, DeltaRow, DeltaStats, KSweep, Series, SeriesPoint, Significance, StabilityRow,
    StabilitySummary, SweepSettings, cell_stats, cell_values, paired_delta, sweep,
};
pub use table::{SweepTable, table};
