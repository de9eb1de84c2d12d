//! Statistics: resampling intervals and exact tests. One concept per module; each function's
//! doc comment states its formula and source, and each is tested against published or
//! SciPy-computed reference values.

pub mod agreement;
pub mod bca;
pub mod bootstrap;
pub mod calibration;
pub mod cliff;
pub mod correlation;
pub mod deferred;
pub mod fisher;
pub mod friedman;
pub mod ks;
pub mod mcnemar;
pub mod multiplicity;
pub mod nemenyi;
pub mod normal;
pub mod permutation;
pub mod posterior;
pub mod power;
pub mod proportions;
pub mod quantile;
pub mod ranks;
pub mod ratio;
pub mod regression;
pub mod resample;
pub mod roc;
pub mod studentized_range;
pub mod tournament;
pub mod weighted_spearman;
pub mod wilcoxon;

pub use bootstrap::{Interval, Resampler};
