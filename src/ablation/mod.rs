//! Counterfactual-ablation audit (seed-000 §3.2–3.4): from traces of a base answer
//! and one answer per removed memory, the utility u = score(base) − score(without i) ∈
//! {−1, 0, +1} and label y = [u = +1] of every (query, memory) pair, the three-way u histogram
//! (harmful memories included), positive rates per run and subset, and the non-circularity
//! panel — tie-aware Spearman ρ(u, s) with pair-level and query-clustered bootstrap intervals,
//! a configurable gate on the point estimate, and the per-subset breach audit
//! (`docs/ablation.md`).

pub mod analyse;
pub mod figures;
pub mod headlines;
pub mod read;
pub mod rho_plot;
pub mod specialist;
pub mod table;
pub mod text;
pub mod unit;
pub mod utility_plot;

pub use analyse::{
    AblationReport, AblationSettings, CiRecord, Gate, GroupAblation, NonCircularity, Rates, RunAblation, Target,
    UHistogram, analyse, label, noncircularity, utility,
};
pub use read::{AblationColumns, AblationWarningKind, AblationWarnings, OutcomeScoring, PairRow, read_ablation};
pub use rho_plot::{RhoPlot, RhoRow};
pub use specialist::SpecialistDiagnostics;
pub use table::{AblationTable, table};
pub use unit::{Ablation, AblationRequest};
pub use utility_plot::{UtilityGroup, UtilityPlot};
