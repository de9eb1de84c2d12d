//! `memaudit audit PATH…`: a release's files, folders (walked, hidden entries passed over) and
//! archives → the core's [`ReleaseAudit`] capability → output.

use std::path::{Path, PathBuf};

use clap::Args;

use memaudit::capability::{FileRole, RoleFile};
use memaudit::ingest::archive::MAX_ENTRIES;
use memaudit::release::{ReleaseAudit, ReleaseRequest, ReleaseTable};

use crate::common::{Failure, Output, emit, fail, io_failure, open_path, run};
use crate::fields::FieldArgs;

#[derive(Args)]
pub(crate) struct AuditArgs {
    /// The release: files, folders (every file below them) and archives (.zip, .tar, .tar.gz).
    #[arg(required = true, num_args = 1.., value_name = "PATH")]
    pub(crate) paths: Vec<PathBuf>,
    #[command(flatten)]
    pub(crate) settings: FieldArgs<ReleaseRequest>,
    #[command(flatten)]
    pub(crate) output: Output<ReleaseTable>,
}

impl crate::common::Subcommand for ReleaseAudit {
    type Args = AuditArgs;
    fn run(args: AuditArgs) -> Result<(), Failure> {
        let mut found = Vec::new();
        for p in &args.paths {
            let base = if p.is_dir() { display_base(p) } else { p.display().to_string() };
            walk(p, &base, &mut found)?;
        }
        let mut files = Vec::with_capacity(found.len());
        for (path, name) in found {
            let mut file = open_path(&path, false)?;
            file.name = name;
            files.push(RoleFile { file, role: FileRole::Release, detected: FileRole::Release });
        }
        let (loaded, report) = run::<ReleaseAudit>(&files, &args.settings.0)?;
        emit::<ReleaseAudit>(&report, &loaded, &args.output)
    }
}

/// The name a folder's files are shown under: the folder's own name, then the path below it.
fn display_base(p: &Path) -> String {
    p.file_name().map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into_owned())
}

/// Every file at or below `p` (a folder's entries sorted by name, hidden ones passed over),
/// each with the name it is shown under.
fn walk(p: &Path, name: &str, out: &mut Vec<(PathBuf, String)>) -> Result<(), Failure> {
    let meta = std::fs::metadata(p).map_err(|e| io_failure(p, e))?;
    if !meta.is_dir() {
        if out.len() >= MAX_ENTRIES {
            return Err(fail(format!(
                "{}: more than {MAX_ENTRIES} files in the release, the most audited at once: give its folders one at a time",
                p.display()
            )));
        }
        out.push((p.to_path_buf(), if name.is_empty() { p.display().to_string() } else { name.to_string() }));
        return Ok(());
    }
    let mut entries: Vec<(String, PathBuf)> = std::fs::read_dir(p)
        .map_err(|e| io_failure(p, e))?
        .filter_map(|e| e.ok())
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
        .filter(|(n, _)| !n.starts_with('.'))
        .collect();
    entries.sort();
    for (n, path) in entries {
        walk(&path, &format!("{name}/{n}"), out)?;
    }
    Ok(())
}
