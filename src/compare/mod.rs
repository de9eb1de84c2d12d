//! Paired comparison of arms: each arm's score with an interval, every contrast with
//! an interval, an effect size and a multiplicity-corrected p-value, and the Friedman omnibus
//! test with Nemenyi critical differences — the comparison a careful reviewer would write.
//!
//! Input is a complete item × arm matrix (every arm observed on every item; pairing is
//! validated before, in [`crate::outcomes`]). All intervals share one resampling of the items
//! (or of strata / clusters), drawn once per arm from a fresh ChaCha8 stream seeded with the
//! user's seed, so a contrast's bootstrap replicates are exactly the difference of its two arms'
//! replicates on the same resampled items (the paired bootstrap).

pub mod engine;
pub mod fields;
pub mod figures;
pub mod headlines;
pub mod judges;
pub mod run;
pub mod settings;
pub mod table;
pub mod unit;

pub use engine::{
    ArmRow, CiMethod, CompareInput, CompareSettings, Comparison, FriedmanRow, PairItem, PairRow, ResampleUnit,
    Resampling, UnpairedArms, compare, items_for_pair, unpaired_arms,
};
pub use judges::{JudgeAgreement, judges_agreement};
pub use run::{CompareError, CompareOutput, CompareReport, RefusedComparison, compare_table, input_from_paired};
pub use table::{CompareTable, compare_latex, render_compare_text, render_unpaired};
pub use unit::{Compare, CompareRequest, ItemSelection, ItemsView, SpecChoice, TableInfo};
