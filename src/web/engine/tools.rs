//! The worker side of the answers, ablation, claims and rules pages: each keeps the files of
//! its last successful analysis ([`Kept`]) and analyses them again under new settings (they
//! are small: reading them again costs less than keeping every parsed form), exactly as the
//! CLI's `memaudit answers|ablation|claims|rules` does.

use crate::error::Error;
use crate::ingest::InputFile;

use super::ProgressFn;
use super::{ablation, answers, claims, rules};
use crate::rules::sha256_hex;
use crate::web::protocol::{FileRole, Phase, RoleFile, ToolResult, ToolRun};

/// The files of a page's last successful analysis.
#[derive(Debug, Default)]
pub struct Kept {
    files: Option<Vec<InputFile>>,
}

impl Kept {
    pub fn has_files(&self) -> bool {
        self.files.is_some()
    }

    /// Analyses `files` (`None`: the kept ones) with `f`; new files are kept only when `f`
    /// succeeds, so a bad file never replaces good ones.
    pub fn analyse<B>(
        &mut self,
        files: Option<Vec<InputFile>>,
        f: impl FnOnce(&[InputFile]) -> Result<B, Error>,
    ) -> Result<B, Error> {
        match files {
            Some(new) => {
                let out = f(&new)?;
                self.files = Some(new);
                Ok(out)
            }
            None => match self.files.as_deref() {
                Some(kept) => f(kept),
                None => Err(Error::Empty("no files loaded yet: drop them on the page first".into())),
            },
        }
    }
}

/// The four pages' kept files.
#[derive(Debug, Default)]
pub struct ToolEngines {
    pub answers: Kept,
    pub ablation: Kept,
    pub claims: Kept,
    pub rules: Kept,
}

impl ToolEngines {
    pub fn new() -> Self {
        ToolEngines::default()
    }

    fn kept(&mut self, run: &ToolRun) -> &mut Kept {
        match run {
            ToolRun::Answers(_) => &mut self.answers,
            ToolRun::Ablation(_) => &mut self.ablation,
            ToolRun::Claims(_) => &mut self.claims,
            ToolRun::Rules(_) => &mut self.rules,
        }
    }

    /// Whether the page of `run` has kept files (its earlier results stay valid after a failure).
    pub fn has_files(&mut self, run: &ToolRun) -> bool {
        self.kept(run).has_files()
    }

    /// Analyses new files (or the kept ones) for the page of `run`.
    pub fn analyse(
        &mut self,
        files: Option<Vec<InputFile>>,
        run: &ToolRun,
        progress: ProgressFn<'_>,
    ) -> Result<ToolResult, Error> {
        progress(Phase::Reading, "reading", 0.0);
        let kept = self.kept(run);
        kept.analyse(files, |files| match run {
            ToolRun::Answers(r) => answers::analyse(files, r, progress).map(ToolResult::Answers),
            ToolRun::Ablation(r) => ablation::analyse(files, r, progress).map(ToolResult::Ablation),
            ToolRun::Claims(r) => claims::analyse(files, r, progress).map(|b| ToolResult::Claims(Box::new(b))),
            ToolRun::Rules(r) => rules::analyse(files, r, progress).map(ToolResult::Rules),
        })
    }
}

/// The error for a page with no files of the kind it needs.
pub fn nothing(what: &str) -> Error {
    Error::Empty(format!("no {what}: drop them anywhere on this page, or choose them"))
}

/// The role of each file: the run's override, else what its content looks like.
pub fn roles(
    files: &[InputFile],
    run_roles: &std::collections::BTreeMap<String, FileRole>,
    allowed: &[FileRole],
    detect: impl Fn(&InputFile) -> Result<FileRole, Error>,
) -> Result<Vec<(FileRole, FileRole)>, Error> {
    files
        .iter()
        .map(|f| {
            let detected = detect(f)?;
            let role = run_roles.get(&f.name).copied().filter(|r| allowed.contains(r)).unwrap_or(detected);
            Ok((role, detected))
        })
        .collect()
}

/// The files with their roles, record counts and SHA-256.
pub fn role_files(files: &[InputFile], roles: &[(FileRole, FileRole)], records: Vec<usize>) -> Vec<RoleFile> {
    files
        .iter()
        .zip(roles)
        .zip(records)
        .map(|((f, (role, detected)), records)| RoleFile {
            name: f.name.clone(),
            role: *role,
            detected: *detected,
            records,
            sha256: sha256_hex(&f.bytes),
        })
        .collect()
}
