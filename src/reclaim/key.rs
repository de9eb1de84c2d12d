//! Which cell a reclaim row is of: the memory system (model, task, policy), the store's
//! integrity g and the arm. Every row of a reclaim report carries one key, flattened into its
//! JSON (`model`, `task`, `policy`, `integrity`, `arm`, in that order) and its CSV tables (the
//! key's columns first, declared once in [`CELL_KEY`] / [`CONTRAST_KEY`]).

use serde::{Deserialize, Serialize};

use super::trials::Trial;
use crate::report::{Column, opt};

/// The cell of a row: (model, task, policy, g, arm).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CellKey {
    pub model: Option<String>,
    pub task: Option<String>,
    pub policy: String,
    pub integrity: Option<f64>,
    pub arm: Option<String>,
}

/// The cells a contrast of two policies sets side by side: (model, task, g, arm).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ContrastKey {
    pub model: Option<String>,
    pub task: Option<String>,
    pub integrity: Option<f64>,
    pub arm: Option<String>,
}

/// The key's hashable form (g by its bits), for grouping trials.
pub type KeyBits = (Option<String>, Option<String>, String, Option<u64>, Option<String>);

impl CellKey {
    /// The cell of a trial.
    pub fn of(t: &Trial) -> CellKey {
        CellKey {
            model: t.model.clone(),
            task: t.task.clone(),
            policy: t.policy.clone(),
            integrity: t.integrity,
            arm: t.arm.clone(),
        }
    }

    /// A trial's cell in its hashable form.
    pub fn bits_of(t: &Trial) -> KeyBits {
        (t.model.clone(), t.task.clone(), t.policy.clone(), t.integrity.map(f64::to_bits), t.arm.clone())
    }

    /// The key of a hashable form.
    pub fn from_bits(k: KeyBits) -> CellKey {
        CellKey { model: k.0, task: k.1, policy: k.2, integrity: k.3.map(f64::from_bits), arm: k.4 }
    }
}

/// The key columns of a cell's row.
pub const CELL_KEY: &[Column<CellKey>] = &crate::columns![CellKey;
    "model" => |k| opt(&k.model),
    "task" => |k| opt(&k.task),
    "policy" => |k| k.policy.clone(),
    "integrity" => |k| opt(&k.integrity),
    "arm" => |k| opt(&k.arm),
];

/// The key columns of a contrast's row.
pub const CONTRAST_KEY: &[Column<ContrastKey>] = &crate::columns![ContrastKey;
    "model" => |k| opt(&k.model),
    "task" => |k| opt(&k.task),
    "integrity" => |k| opt(&k.integrity),
    "arm" => |k| opt(&k.arm),
];
