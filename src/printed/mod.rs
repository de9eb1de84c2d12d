//! The paper's printed numbers checked against the data (seed notes §5; every paper): a small
//! file names, for each number a paper prints, the table and row of a capability's report it
//! comes from; each is matched against the recomputed report.
//!
//! ```text
//! printed file ──read──► entries (source, analysis, table, row keys, column, printed text)
//! report of the analysis run ──check──► per entry: the recomputed value and a verdict
//! ```
//!
//! A printed text `p` (`0.176`, `.176`, `+0.168`, `−0.025`, `34.3%`, `1,533`) has d decimals
//! (a percentage is read on its own scale: the recomputed value is multiplied by 100). For the
//! recomputed value x (on the printed scale):
//!
//! ```text
//! matches          x rounded to d decimals (as `format!("{:.d$}")`, Python's `f"{x:.{d}f}"`:
//!                  the exact binary value rounded, ties to even) equals p
//! within_rounding  otherwise |x − p| ≤ 10^−d: one unit in the last printed place (a value
//!                  rounded twice, 0.28749 → 0.2875 → .288, or a tie rounded the other way)
//! differs          otherwise; `difference` = x − p
//! not_computed     the table, the column or the row is not in the report, several rows match,
//!                  or the cell is empty or not a number: the note says which
//! other_analysis   the entry names another analysis: it is checked with that one's run
//! ```

pub mod check;
pub mod lint;
pub mod number;
pub mod read;
pub mod table;

pub use check::{CheckRow, PrintedCheck, Verdict, check};
pub use number::{PrintedValue, parse_printed};
pub use read::{Printed, read};
