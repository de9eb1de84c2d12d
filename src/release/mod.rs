//! A release audited as one (`memaudit audit`, the viewer's landing page): every file of a
//! paper's release (files, folders, archives) is triaged by its content — which analyses
//! recognise it, as what, and how surely (`Capability::recognise`) — grouped with the files it
//! belongs with, and each group is run by its analysis under that analysis's defaults. What
//! every analysis says is gathered in one list, most severe first.
//!
//! ```text
//! files ──archives opened (ingest::archive)──► files ──Sniff + every recognise──► triage
//!   ──groups (analysis, key)──► run_once::<C> per group ──► each analysis's headlines, text, JSON
//! ```
//!
//! Routing, in order: a file goes to every analysis that recognises it as its own format
//! (`Fit::Specific`); a file no analysis claims as its own goes to each that reads it among other
//! formats (`Fit::Generic`); a companion (probe keys, a TREC run beside memories, answer scores
//! beside per-query metrics) joins the groups of its analysis when there are some. Files of one
//! analysis with different keys (tables of different columns, TREC files of different folders)
//! are analysed apart. A file routed nowhere is listed with what it looks like and what the
//! analyses of its shape need; nothing is dropped without a word.
//!
//! The triage is the user's to edit ([`edits`]): files left out, set apart in a group of their
//! own, or sent to one analysis of those that recognise them — each stated in the report's
//! settings and in the file's note.
//!
//! This unit stands above the others: it names them only through the list of capabilities
//! (`crate::registry`).

pub mod edits;
pub mod headlines;
pub mod table;
pub mod text;
pub mod triage;
pub mod unit;

pub use table::ReleaseTable;
pub use triage::{AnalysisRun, FileStatus, FileTriage, LeftOut, Recognition, ReleaseReport, RunStatus};
pub use unit::{LoadedRelease, PassedOver, ReleaseAudit, ReleaseRequest};
