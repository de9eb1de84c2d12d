//! The label workspace: agreement among raters (people or LLM judges) on categorical labels with
//! any label set — TIAP's semantic audit of contested credits (seed-001 §1.6, Tables 3, 6, 13:
//! `supports` / `partial` / `does_not_support` from five judges and a human).
//!
//! ```text
//! files ──read (long or wide, item key, classes)──► LabelSet (item × rater, class indices)
//!       ──analyse(request)──► LabelsReport
//!            distribution per rater and of the majority (Wilson intervals)
//!            Cohen's κ and percent agreement per rater pair, Fleiss' κ over all raters
//!            (on the k classes and on a stated collapse), with bootstrap intervals over items
//!            the majority label per item (tie-break stated), a stratified sample to check by hand
//! ```

pub mod analyse;
pub mod headlines;
pub mod instance;
pub mod read;
pub mod sample;
pub mod table;
pub mod text;
pub mod unit;

pub use analyse::{Collapse, DistributionRow, ItemRow, LabelsReport, OverallRow, PairRow, analyse};
pub use read::{LabelSet, Problems, Reading};
pub use sample::SampleReport;
pub use table::{LabelsTable, table};
pub use unit::{Labels, LabelsRequest, ShowItem};

crate::choice! {
    /// How a label file is laid out.
    #[derive(Default)]
    pub enum Layout {
        /// Long when a rater column and a label column are found, else wide.
        #[default]
        Auto,
        /// One row per (item, rater, label).
        Long,
        /// One row per item, one column per rater.
        Wide,
    }
}

/// What to do with a second label of one rater for one item: the one duplicates policy of
/// every reader ([`crate::cells::Repeats`]).
pub use crate::cells::Repeats;

crate::choice! {
    /// How the majority label of an item is chosen when classes tie for the most votes.
    #[derive(Default)]
    pub enum TieBreak {
        /// No majority: the item is counted as a tie.
        #[default]
        None,
        /// The tied class listed first in the classes.
        ClassOrder,
        /// The label of the rater named by `tie_rater`, when it is among the tied classes
        /// (else a tie).
        Rater,
    }
}

crate::choice! {
    /// Which items a rater pair's agreement is computed on.
    #[derive(Default)]
    pub enum PairItems {
        /// The items both raters labelled.
        #[default]
        Pairwise,
        /// The items every rater labelled (TIAP Table 13: "1,876 common-valid cases").
        Complete,
    }
}

crate::choice! {
    /// How the stratified sample picks items within a bucket.
    #[derive(Default)]
    pub enum SampleMode {
        /// Uniformly at random without replacement (ChaCha8 from the sample seed).
        #[default]
        Random,
        /// Evenly spaced in the items' order (TIAP: "evenly spaced by query index within each
        /// bucket").
        Even,
    }
}
