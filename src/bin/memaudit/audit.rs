//! `memaudit audit PATH…`: a release's files, folders (walked, hidden entries passed over) and
//! archives → the core's [`ReleaseAudit`] capability → output.

use std::path::{Path, PathBuf};

use clap::Args;

use memaudit::capability::{FileRole, RoleFile};
use memaudit::ingest::archive::MAX_ENTRIES;
use memaudit::release::{PassedOver, ReleaseAudit, ReleaseRequest, ReleaseTable};

use crate::common::{Failure, Output, emit, fail, io_failure, note, open_path, run};
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
        let mut walked = Walked::default();
        for p in &args.paths {
            let base = if p.is_dir() { display_base(p) } else { p.display().to_string() };
            walk(p, &base, &mut found, &mut walked, true)?;
        }
        for passed in &walked.passed_over {
            note(&format!("memaudit: note: {}: passed over, {}", passed.file, passed.why));
        }
        let mut files = Vec::with_capacity(found.len());
        for (path, name) in found {
            let mut file = open_path(&path, false)?;
            file.name = name;
            files.push(RoleFile { file, role: FileRole::Release, detected: FileRole::Release });
        }
        let request = ReleaseRequest { passed_over: walked.passed_over, ..args.settings.0 };
        let (loaded, report) = run::<ReleaseAudit>(&files, &request)?;
        emit::<ReleaseAudit>(&report, &loaded, &args.output)
    }
}

/// The name a folder's files are shown under: the folder's own name, then the path below it.
fn display_base(p: &Path) -> String {
    p.file_name().map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into_owned())
}

/// What a walk passed over, and the folders it entered (a link back up is not walked twice).
#[derive(Default)]
struct Walked {
    passed_over: Vec<PassedOver>,
    folders: std::collections::HashSet<PathBuf>,
}

/// Every file at or below `p` (a folder's entries sorted by name, hidden ones passed over),
/// each with the name it is shown under. Inside a folder, a link to nothing, a link to a folder
/// already walked (a loop), and what is neither a file nor a folder (a pipe would wait forever)
/// are passed over, each said in a note; a path given by name is read whatever it is.
fn walk(
    p: &Path,
    name: &str,
    out: &mut Vec<(PathBuf, String)>,
    walked: &mut Walked,
    given: bool,
) -> Result<(), Failure> {
    let meta = match std::fs::metadata(p) {
        Ok(meta) => meta,
        Err(e) if !given => {
            walked
                .passed_over
                .push(PassedOver { file: name.into(), why: format!("it cannot be read ({e}; a link to nothing?)") });
            return Ok(());
        }
        Err(e) => return Err(io_failure(p, e)),
    };
    if meta.is_dir() {
        let real = std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
        if !walked.folders.insert(real) {
            walked
                .passed_over
                .push(PassedOver { file: name.into(), why: "a link to a folder already read (a loop)".into() });
            return Ok(());
        }
    } else if !meta.is_file() && !given {
        walked
            .passed_over
            .push(PassedOver { file: name.into(), why: "neither a file nor a folder (a pipe or a device)".into() });
        return Ok(());
    }
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
        walk(&path, &format!("{name}/{n}"), out, walked, false)?;
    }
    Ok(())
}
