//! The user's edits of the triage: files left out, files set apart in a group of their own, and
//! files sent to one analysis of those that recognise them (settings `leave_out`, `apart`,
//! `route` of [`super::ReleaseRequest`]).
//!
//! **Invariant**: every entry names at least one file of the release (a file, or a folder: every
//! file below it) — an entry that names none is refused with the files' names, never ignored —
//! and an edit only narrows what triage found: a file is sent only to an analysis that
//! recognises it.

use crate::capability::Analysis;
use crate::choice::Choice;
use crate::error::{Error, Result};
use crate::fields::mention;

/// The edits of one request, parsed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Edits {
    pub leave_out: Vec<String>,
    pub apart: Vec<String>,
    /// (analysis, file or folder).
    pub route: Vec<(Analysis, String)>,
}

impl Edits {
    /// The edits stated by `leave_out`, `apart` and `route` (`ANALYSIS:FILE` entries).
    pub fn parse(leave_out: &[String], apart: &[String], route: &[String]) -> Result<Edits> {
        let route = route
            .iter()
            .map(|entry| {
                let (analysis, file) = entry.split_once(':').ok_or_else(|| {
                    Error::setting("route", format!("`{entry}`: expected ANALYSIS:FILE (e.g. `compare:results/a.csv`)"))
                })?;
                let a = Analysis::parse(analysis.trim()).filter(|a| *a != Analysis::Audit).ok_or_else(|| {
                    Error::setting("route", format!("`{entry}`: `{}` is not an analysis", analysis.trim()))
                })?;
                Ok((a, file.trim().to_string()))
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Edits { leave_out: leave_out.to_vec(), apart: apart.to_vec(), route })
    }

    pub fn is_empty(&self) -> bool {
        self.leave_out.is_empty() && self.apart.is_empty() && self.route.is_empty()
    }

    /// Refuses an entry that names no file of `names` ([module invariant](self)).
    pub fn check_names(&self, names: &[&str]) -> Result<()> {
        let entries = self.leave_out.iter().map(|e| ("leave_out", e)).chain(self.apart.iter().map(|e| ("apart", e)));
        let routed = self.route.iter().map(|(_, e)| ("route", e));
        for (setting, entry) in entries.chain(routed) {
            if !names.iter().any(|n| names_file(entry, n)) {
                let shown: Vec<&str> = names.iter().copied().take(8).collect();
                let more = names.len().saturating_sub(shown.len());
                return Err(Error::setting(
                    setting,
                    format!(
                        "`{entry}` names no file of the release: give a file's name as the files table shows it, or a \
                         folder of them (the files: {}{})",
                        shown.join(", "),
                        if more > 0 { format!(" and {more} more") } else { String::new() }
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The entry of `leave_out` that names `file`.
    pub fn left_out(&self, file: &str) -> Option<&str> {
        self.leave_out.iter().find(|e| names_file(e, file)).map(String::as_str)
    }

    /// Whether `file` runs in a group of its own.
    pub fn is_apart(&self, file: &str) -> bool {
        self.apart.iter().any(|e| names_file(e, file))
    }

    /// The analyses `file` is sent to by `route` (empty: wherever triage sends it).
    pub fn routes(&self, file: &str) -> Vec<Analysis> {
        self.route.iter().filter(|(_, e)| names_file(e, file)).map(|(a, _)| *a).collect()
    }

    /// Why a file is where it is, when an edit put it there (for its note).
    pub fn left_out_note(entry: &str) -> String {
        format!("left out by {} (`{entry}`)", mention("leave_out"))
    }
}

/// Whether `entry` names `file`: the file's name, or a folder above it.
fn names_file(entry: &str, file: &str) -> bool {
    let entry = entry.trim().trim_end_matches('/');
    !entry.is_empty() && (file == entry || file.strip_prefix(entry).is_some_and(|rest| rest.starts_with('/')))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_names_a_file_or_every_file_below_a_folder() {
        assert!(names_file("r/a.csv", "r/a.csv"));
        assert!(names_file("r", "r/a.csv"));
        assert!(names_file("r/", "r/sub/a.csv"));
        assert!(!names_file("r/a", "r/a.csv"), "a prefix of a name is not a folder");
        assert!(!names_file("", "r/a.csv"));
    }

    #[test]
    fn routes_name_an_analysis_and_a_file() {
        let e = Edits::parse(&[], &[], &["compare: r/a.csv".into()]).unwrap();
        assert_eq!(e.routes("r/a.csv"), [Analysis::Compare]);
        assert!(e.routes("r/b.csv").is_empty());
        let bad = Edits::parse(&[], &[], &["r/a.csv".into()]).unwrap_err().to_string();
        assert!(bad.contains("expected ANALYSIS:FILE"), "{bad}");
        let bad = Edits::parse(&[], &[], &["nothing:r/a.csv".into()]).unwrap_err().to_string();
        assert!(bad.contains("`nothing` is not an analysis"), "{bad}");
        let bad = Edits::parse(&[], &[], &["audit:r/a.csv".into()]).unwrap_err().to_string();
        assert!(bad.contains("`audit` is not an analysis"), "{bad}");
    }

    #[test]
    fn an_entry_that_names_no_file_is_refused_with_the_files() {
        let e = Edits::parse(&["r/typo.csv".into()], &[], &[]).unwrap();
        let err = e.check_names(&["r/a.csv", "r/b.csv"]).unwrap_err().to_string();
        assert!(err.contains("`r/typo.csv` names no file of the release"), "{err}");
        assert!(err.contains("r/a.csv, r/b.csv"), "{err}");
        assert!(Edits::parse(&["r".into()], &[], &[]).unwrap().check_names(&["r/a.csv"]).is_ok());
    }
}
