//! Decision compliance of memory arms (BriefBench, seed-002 §1.4–1.5, §1.8, §2.10): the use
//! factor κ = compliance / recall and return on tokens with delta-method and bootstrap
//! intervals, compliance against causal-hop depth with its slope, the depth at which a focus
//! arm overtakes the others, and the power of each comparison.
//!
//! ```text
//! files ──read (columns by name, --filter, --group)──► rows {group, arm, compliance, recall?, tokens?, depth?}
//!       ──analyse (per group; one stratified bootstrap per group)──►
//!         arms (κ, RoT), depth cells, slopes, margins Δ(d), crossover d* / d×, power,
//!         compliance by recall bin and the failure modes (`recall`),
//!         each pair of arms' ECDFs and their KS tests (`dominance`),
//!         the theory's curves at stated s₀, ρ, q and both laws fitted per arm (`theory`)
//! ```

pub mod analyse;
pub mod dominance;
pub mod figures;
pub mod headlines;
pub mod read;
pub mod recall;
pub mod table;
pub mod text;
pub mod theory;
pub mod unit;

pub use analyse::{ComplianceReport, analyse};
pub use table::{ComplianceTable, table};
pub use unit::{Compliance, ComplianceRequest};
