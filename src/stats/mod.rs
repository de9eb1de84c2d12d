//! Statistics: resampling intervals and exact tests. One concept per module; each function's
//! doc comment states its formula and source, and each is tested against published or
//! SciPy-computed reference values.

pub mod bootstrap;
pub mod mcnemar;
pub mod quantile;

pub use bootstrap::{Interval, Resampler};
