//! Error values for everything that reads user files or settings.
//!
//! Every error that comes from a file names the file, the line (1-based, when the format is
//! line-oriented or the JSON parser reports one) and the field. Nothing in the core panics on
//! user input: a panic in WebAssembly kills the page.

use std::fmt;

/// Where in a user file something happened.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Location {
    pub file: String,
    /// 1-based line number, when known.
    pub line: Option<usize>,
    /// Field name or JSON path (`ranked[3].memory_id`), when known.
    pub field: Option<String>,
}

impl Location {
    pub fn file(file: &str) -> Self {
        Location { file: file.to_string(), line: None, field: None }
    }
    pub fn line(file: &str, line: usize) -> Self {
        Location { file: file.to_string(), line: Some(line), field: None }
    }
    pub fn with_field(mut self, field: impl Into<String>) -> Self {
        self.field = Some(field.into());
        self
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(line) = self.line {
            write!(f, ", line {line}")?;
        }
        if let Some(field) = &self.field {
            write!(f, ", field `{field}`")?;
        }
        Ok(())
    }
}

/// A file could not be read as any supported format, or a record in it is malformed.
#[derive(Debug, Clone, PartialEq, thiserror::Error, serde::Serialize, serde::Deserialize)]
#[error("{location}: {message}")]
pub struct IngestError {
    pub location: Location,
    pub message: String,
}

impl IngestError {
    pub fn new(location: Location, message: impl Into<String>) -> Self {
        IngestError { location, message: message.into() }
    }
}

/// Everything that can go wrong in the core, as a value.
#[derive(Debug, Clone, PartialEq, thiserror::Error, serde::Serialize, serde::Deserialize)]
pub enum Error {
    #[error(transparent)]
    Ingest(#[from] IngestError),
    /// A setting is out of range or inconsistent with the data (e.g. `k = 0`).
    #[error("invalid setting `{setting}`: {message}")]
    Setting { setting: String, message: String },
    /// The loaded files do not make a scorable dataset (e.g. no queries at all).
    #[error("nothing to score: {0}")]
    Empty(String),
    /// A paired comparison was refused: what is wrong and how to fix it, with the pairing
    /// report when the rows could be placed (the viewer shows it under the message) and each
    /// arm's interval without pairing when the arm and value columns are known.
    #[error("cannot run a paired comparison: {message}{}", crate::compare::render_unpaired(.unpaired.as_deref()))]
    Unpaired {
        message: String,
        pairing: Option<Box<crate::outcomes::PairingReport>>,
        #[serde(default)]
        unpaired: Option<Box<crate::compare::UnpairedArms>>,
    },
    /// Writing an output table failed.
    #[error("could not write {what}: {message}")]
    Output { what: String, message: String },
}

impl Error {
    pub fn setting(setting: &str, message: impl Into<String>) -> Self {
        Error::Setting { setting: setting.to_string(), message: message.into() }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
