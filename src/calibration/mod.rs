//! Routing and calibration diagnostics of a gated memory system (TAG, seed-003 §B1, §B3,
//! Tables 8–11): per item a confidence, whether memory was applied, and the outcome without
//! and with memory.
//!
//! ```text
//! files ──read (columns by name)──► items {confidence, correct, with_memory?, applied?, split?}
//!       ──analyse──► help/hurt ledger, AUC of the confidence for help vs hurt (DeLong),
//!                    accuracy per confidence bin (Wilson), inject fraction and accuracy as the
//!                    routing threshold τ varies, ECE / Brier / log loss raw and after Platt
//!                    scaling fitted on a named split and scored on the others
//! ```

pub mod analyse;
pub mod figures;
pub mod governance;
pub mod headlines;
pub mod read;
pub mod table;
pub mod text;
pub mod unit;

pub use analyse::{CalibrationReport, analyse};
pub use table::{CalibrationTable, table};
pub use unit::{Calibration, CalibrationRequest};

crate::choice! {
    /// What the confidence is, for the calibration metrics.
    #[derive(Default)]
    pub enum Scale {
        /// A probability in [0, 1].
        #[default]
        Probability,
        /// A (mean) log-probability ≤ 0: p = exp(c).
        Logprob,
        /// Any score: no raw calibration, only after Platt scaling.
        Score,
    }
}

crate::choice! {
    /// The items the AUC of help vs hurt is computed on.
    #[derive(Default)]
    pub enum AucPopulation {
        /// Every item that a memory helped or hurt.
        #[default]
        All,
        /// Only the items memory was applied to.
        Applied,
    }
}

crate::choice! {
    /// The routing rule of the threshold sweep.
    #[derive(Default)]
    pub enum Route {
        /// Memory is used when the confidence is below τ (TAG: route_t = 1[c_t < τ]).
        #[default]
        Below,
        /// Memory is used when the confidence is at least τ.
        AtLeast,
    }
}
