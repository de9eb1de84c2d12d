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
    /// An error at `location`; values quoted in `message` are shortened by [`elide_long_words`]
    /// (a 10 MB id from a hostile file is never echoed whole).
    pub fn new(location: Location, message: impl Into<String>) -> Self {
        let message = message.into();
        let message = match elide_long_words(&message) {
            std::borrow::Cow::Borrowed(_) => message,
            std::borrow::Cow::Owned(short) => short,
        };
        IngestError { location, message }
    }
}

/// The longest run of non-blank characters an error message shows whole.
pub const LONGEST_WORD: usize = 200;

/// `text` with every run of more than [`LONGEST_WORD`] non-blank characters (an id, a cell, a
/// line quoted from a file) cut to its first 120 and last 20 characters around
/// `…[N more characters]…`.
pub fn elide_long_words(text: &str) -> std::borrow::Cow<'_, str> {
    let too_long = |w: &str| w.chars().nth(LONGEST_WORD).is_some();
    if !text.split_whitespace().any(too_long) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(4 * LONGEST_WORD);
    let mut rest = text;
    while !rest.is_empty() {
        let start = rest.find(|c: char| !c.is_whitespace()).unwrap_or(rest.len());
        out.push_str(&rest[..start]);
        rest = &rest[start..];
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let word = &rest[..end];
        if too_long(word) {
            let chars = word.chars().count();
            let head: String = word.chars().take(120).collect();
            let tail: String = word.chars().skip(chars - 20).collect();
            out.push_str(&format!("{head}…[{} more characters]…{tail}", chars - 140));
        } else {
            out.push_str(word);
        }
        rest = &rest[end..];
    }
    std::borrow::Cow::Owned(out)
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
    /// A paired comparison was refused: what is wrong and how to fix it. A comparison's run
    /// gives its refusal as a report (with the pairing report and each arm without pairing);
    /// this is the refusal where no report is drawn, or that report as an error value.
    #[error("cannot run a paired comparison: {message}")]
    Unpaired { message: String },
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

#[cfg(test)]
mod elide_tests {
    use super::*;

    #[test]
    fn long_words_are_cut_and_the_rest_kept() {
        assert_eq!(elide_long_words("item `q1` twice"), "item `q1` twice");
        let id = format!("`{}`", "x".repeat(10_000));
        let short = elide_long_words(&format!("item {id} is  repeated")).into_owned();
        assert!(short.starts_with("item `xxxx"), "{short}");
        assert!(short.contains("…[9862 more characters]…"), "{short}");
        assert!(short.ends_with("xxx` is  repeated"), "{short}");
        assert!(short.len() < 300);
        let e = IngestError::new(Location::line("f.csv", 2), format!("id {id}"));
        assert!(e.message.len() < 300 && e.message.starts_with("id `x"));
    }
}
