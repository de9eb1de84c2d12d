//! What a file given to `memaudit claims` or `memaudit rules` is: the option it belongs to.
//! The CLI knows it from the option; the viewer, which takes files in any order, detects it
//! from the content ([`crate::claims::detect_file_role`], [`crate::rules::detect_file_role`])
//! and lets the user override it.

use serde::{Deserialize, Serialize};

/// The role of an input file of `memaudit claims` or `memaudit rules`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FileRole {
    /// Claims to check (`--claims`).
    Claims,
    /// Per-query scores (`--data` of `memaudit claims`).
    Scores,
    /// A printed table to lint (`--table`).
    Table,
    /// A rule registry (`--rules`).
    Rules,
    /// Named values (`--values`).
    Values,
    /// A `git log --format='%H %cI' [--name-only]` export (`--git-log`).
    GitLog,
    /// A data file to fingerprint (`--data` of `memaudit rules`).
    Data,
}

impl FileRole {
    /// The roles of `memaudit claims`' files.
    pub const CLAIMS: [FileRole; 3] = [FileRole::Claims, FileRole::Scores, FileRole::Table];
    /// The roles of `memaudit rules`' files.
    pub const RULES: [FileRole; 4] = [FileRole::Rules, FileRole::Values, FileRole::GitLog, FileRole::Data];

    /// The snake_case name (`git_log`).
    pub fn name(self) -> &'static str {
        match self {
            FileRole::Claims => "claims",
            FileRole::Scores => "scores",
            FileRole::Table => "table",
            FileRole::Rules => "rules",
            FileRole::Values => "values",
            FileRole::GitLog => "git_log",
            FileRole::Data => "data",
        }
    }

    /// The role of a [`FileRole::name`].
    pub fn parse(s: &str) -> Option<FileRole> {
        FileRole::CLAIMS.into_iter().chain(FileRole::RULES).find(|r| r.name() == s)
    }

    /// The CLI option of a file of this role.
    pub fn option(self) -> &'static str {
        match self {
            FileRole::Claims => "--claims",
            FileRole::Scores | FileRole::Data => "--data",
            FileRole::Table => "--table",
            FileRole::Rules => "--rules",
            FileRole::Values => "--values",
            FileRole::GitLog => "--git-log",
        }
    }

    /// In words, with the CLI option it stands for.
    pub fn describe(self) -> &'static str {
        match self {
            FileRole::Claims => "claims to check (--claims)",
            FileRole::Scores => "per-query scores (--data)",
            FileRole::Table => "printed table to lint (--table)",
            FileRole::Rules => "rule registry (--rules)",
            FileRole::Values => "named values (--values)",
            FileRole::GitLog => "git log export (--git-log)",
            FileRole::Data => "data file to fingerprint (--data)",
        }
    }
}
