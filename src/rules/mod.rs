//! Pre-registered rules (seed-000 §4): a small declarative rule language in JSON —
//! thresholds with operators, interval membership, |x| comparisons, k-of-n over datasets,
//! slack windows, AND/OR/NOT, interval predicates, tier ladders, vote tables with a tie-break —
//! with registration metadata (time, commit, provenance, the data a rule is keyed to),
//! evaluated on named values into verdict records with margins and input fingerprints, and a
//! temporal-integrity check that flags rules registered after the data they judge
//! (`docs/rules.md`).

pub mod exclusions;
pub mod expr;
pub mod headlines;
pub mod registry;
pub mod role;
pub mod table;
pub mod text;
pub mod time;
pub mod unit;

pub use expr::{CiTest, Eval, Op, Operand, Pred, Quantity};
pub use registry::{
    Ballot, EvalContext, GitLog, InputUsed, Provenance, Rule, RuleBody, RuleVerdict, RulesReport, SourceInfo, Temporal,
    Values, evaluate, read_rules, read_values, sha256_hex,
};
pub use role::detect_file_role;
pub use table::{RulesTable, table};
pub use time::{format_time, parse_time};
pub use unit::{Rules, RulesRequest};
