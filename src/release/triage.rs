//! The triage of a release's files and the run of each group: see the module documentation of
//! [`crate::release`].

use serde::{Deserialize, Serialize};

use super::edits::Edits;
use crate::capability::{Analysis, Capability, Fit, Progress, Recognised, RoleFile, Together, quiet};
use crate::error::{Error, Result};
use crate::file_role::FileRole;
use crate::headline::Headline;
use crate::ingest::InputFile;
use crate::ingest::sniff::{Shape, Sniff};
use crate::registry::{ForCapability, LISTED, with};

crate::choice! {
    /// What became of a file of the release.
    pub enum FileStatus {
        /// Read by every analysis it went to.
        Read,
        /// An analysis it went to refused the files (the message says why).
        Refused,
        /// A companion (probe keys, answer scores) without the files it completes.
        Needs,
        /// No analysis reads it: what it looks like and what the analyses of its shape need.
        NotRead,
        /// An archive: its files are listed after it, each with its own status.
        Unpacked,
        /// Left out of every analysis by the setting `leave_out`.
        LeftOut,
        /// An entry of a folder that is not a file to read (a link to nothing, a link back up, a
        /// pipe): the note says which.
        PassedOver,
    }
}

crate::choice! {
    /// How an analysis of a group ended.
    pub enum RunStatus {
        Ran,
        /// It refused the files (not its input after all, or a setting it needs): the message.
        Refused,
    }
}

/// One analysis that recognised a file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Recognition {
    pub analysis: Analysis,
    pub role: FileRole,
    pub fit: Fit,
    pub evidence: String,
}

/// One file of the release and what became of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FileTriage {
    pub file: String,
    pub bytes: u64,
    /// Lower-case hex SHA-256 of the file as given (empty for an archive's own row when it
    /// could not be read).
    pub sha256: String,
    /// What it looks like (`a table with 13 columns: …`, `text`, `a zip archive`).
    pub shape: String,
    /// Every analysis that recognised it, as what and how surely.
    pub recognised: Vec<Recognition>,
    /// The analyses it went to (their ids, as in [`AnalysisRun::id`]).
    pub routed: Vec<String>,
    pub status: FileStatus,
    /// Why, in words.
    pub note: String,
}

/// One analysis run on one group of files.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AnalysisRun {
    /// `compliance`, or `compliance 2` when several groups go to one analysis.
    pub id: String,
    pub analysis: Analysis,
    /// The analysis's title (the page's name).
    pub title: String,
    /// The files, each with the role it played.
    pub files: Vec<GroupFile>,
    /// Why these files are together.
    pub grouping: String,
    pub status: RunStatus,
    /// The refusal (empty when it ran).
    pub message: String,
    /// Files of the group the analysis could not read, each with why: it ran on the others.
    #[serde(default)]
    pub left_out: Vec<LeftOut>,
    /// What it says, most severe first.
    pub headlines: Vec<Headline>,
    /// Its human-readable report (`memaudit <analysis> --format table`).
    pub text: String,
    /// Its JSON report (`memaudit <analysis> --format json`, without the envelope; `null` when
    /// refused, or when it would take the release's reports past [`EMBEDDED_REPORTS`]).
    pub report: serde_json::Value,
    /// Why its JSON report is not embedded (its size, and the command that gives it); absent
    /// when it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub report_omitted: Option<String>,
    /// The release's printed numbers checked against this run: those of its analysis, and those
    /// naming none whose table it has; summed up per number in [`ReleaseReport::printed`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub printed: Vec<PrintedRow>,
}

/// The most bytes of JSON the analyses' reports of one release take in all (each report
/// embedded in turn while the total stays within it): BERGEN's 33 IR evaluations hold 225 MB of
/// per-query values, which as JSON values took 1.7 GB. A report past it is left out, said in
/// [`AnalysisRun::report_omitted`] and a headline; its text, headlines and printed checks stay.
pub const EMBEDDED_REPORTS: usize = 16 << 20;

/// Counts the bytes written to it and keeps none (a report's size as JSON).
struct ByteCount(usize);

impl std::io::Write for ByteCount {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A file an analysis could not read, left out of its group (the analysis ran on the others).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LeftOut {
    pub file: String,
    /// The error that names it.
    pub message: String,
}

/// A file of a group and its role.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroupFile {
    pub file: String,
    pub role: FileRole,
}

/// The audit of a release.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReleaseReport {
    pub settings: super::ReleaseRequest,
    /// Every file given, archives first with their files after them.
    pub files: Vec<FileTriage>,
    /// Every group run, in the order of the analyses' list.
    pub analyses: Vec<AnalysisRun>,
    /// Each printed number of the release's printed-numbers files against the runs
    /// ([`printed_rows`]).
    #[serde(default)]
    pub printed: Vec<PrintedRow>,
    /// The release's printed numbers checked against each other
    /// ([`crate::printed::lint::lint_printed`]), each file on its own.
    #[serde(default)]
    pub printed_findings: Vec<crate::printed::lint::Finding>,
}

/// The release's printed numbers: each against the runs ([`printed_rows`]), and the findings of
/// their checks against each other.
pub type PrintedChecks = (Vec<PrintedRow>, Vec<crate::printed::lint::Finding>);

/// A printed number of the release against its runs: the check where one run has its row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PrintedRow {
    /// The printed-numbers file.
    pub file: String,
    /// The run whose report holds the row (`compare 2`), or the runs that agree on it.
    pub run: String,
    #[serde(flatten)]
    pub check: crate::printed::CheckRow,
}

/// Whether a file is a printed-numbers file (`memaudit verify --printed`): a table whose header
/// has a `table`, a `column` and a `printed` column (read from the sniffed header: the file is
/// not parsed for it).
pub fn is_printed_table(shape: &Shape) -> bool {
    matches!(shape, Shape::Table(columns) if ["table", "column", "printed"].iter().all(|n| columns.iter().any(|c| c == n)))
}

/// Each entry of each printed file, from the runs that checked it (those of its analysis that
/// have its table): the run whose report has its row, or the runs that agree on its value;
/// several runs with different values, or none, leave it not computed and say why. Never a row
/// guessed among runs.
pub fn printed_rows(printed: &[(String, Vec<crate::printed::Printed>)], runs: &[AnalysisRun]) -> Vec<PrintedRow> {
    use crate::printed::{CheckRow, Verdict};
    // Each run's checks by (file, line): one look-up per entry and run.
    let by_entry: Vec<std::collections::HashMap<(&str, usize), &PrintedRow>> =
        runs.iter().map(|r| r.printed.iter().map(|p| ((p.file.as_str(), p.check.line), p)).collect()).collect();
    let mut out = Vec::new();
    for (file, entries) in printed {
        for entry in entries {
            let checked: Vec<&PrintedRow> =
                by_entry.iter().filter_map(|m| m.get(&(file.as_str(), entry.line)).copied()).collect();
            let found: Vec<&PrintedRow> = checked.iter().copied().filter(|p| p.check.recomputed.is_some()).collect();
            let runs_of = |rows: &[&PrintedRow]| rows.iter().map(|p| p.run.as_str()).collect::<Vec<_>>().join("; ");
            let row = match found.as_slice() {
                // No run holds the row: the check of the one run that has the table, or why none.
                [] => {
                    let note = match (checked.as_slice(), entry.analysis) {
                        ([], Some(a)) => format!("no run of `{a}` in this release"),
                        ([], None) => {
                            format!("no run in this release has a table `{}` (name its analysis)", entry.table)
                        }
                        ([one], _) => format!("{}: {}", one.run, one.check.note),
                        (many, _) => format!(
                            "in none of the {} runs with the table `{}` ({})",
                            many.len(),
                            entry.table,
                            runs_of(many)
                        ),
                    };
                    let base = checked.first().map_or_else(|| CheckRow::unchecked(entry), |p| p.check.clone());
                    let check = CheckRow { verdict: Verdict::NotComputed, note, ..base };
                    PrintedRow { file: file.clone(), run: String::new(), check }
                }
                [first, ..] if found.iter().all(|p| p.check.recomputed == first.check.recomputed) => {
                    PrintedRow { run: runs_of(&found), ..(*first).clone() }
                }
                [first, ..] => {
                    let mut p = PrintedRow { run: runs_of(&found), ..(*first).clone() };
                    p.check.recomputed = None;
                    p.check.difference = None;
                    p.check.verdict = Verdict::NotComputed;
                    p.check.note = format!(
                        "{} runs have this row with different values ({}): name the analysis, or set the files of one apart",
                        found.len(),
                        found
                            .iter()
                            .map(|p| format!("{}: {}", p.run, crate::report::num(p.check.recomputed)))
                            .collect::<Vec<_>>()
                            .join(", ")
                    );
                    p
                }
            };
            out.push(row);
        }
    }
    out
}

/// The analyses a release is triaged for (every listed one but the release audit itself).
fn analyses() -> impl Iterator<Item = Analysis> {
    LISTED.iter().copied().filter(|a| *a != Analysis::Audit)
}

/// What each analysis recognises in `sniff`.
pub fn recognise(sniff: &Sniff<'_>) -> Vec<(Analysis, Recognised)> {
    struct Ask<'s, 'f>(&'s Sniff<'f>);
    impl ForCapability for Ask<'_, '_> {
        type Output = Option<Recognised>;
        fn call<C: Capability>(self) -> Option<Recognised> {
            C::recognise(self.0)
        }
    }
    analyses().filter_map(|a| with(a, Ask(sniff)).map(|r| (a, r))).collect()
}

/// The analyses that read `file` as their own format, when `here` does not recognise it at all
/// (a file dropped on another analysis's page, given to another subcommand): each interface says
/// where it belongs in its own words. Empty for a file over its budgets (refused for that).
pub fn elsewhere(file: &InputFile, here: Analysis) -> Vec<(Analysis, Recognised)> {
    if file.over_budget().is_some() || not_data(&file.name).is_some() {
        return Vec::new();
    }
    let recs = recognise(&Sniff::of(file));
    if recs.iter().any(|(a, _)| *a == here) {
        return Vec::new();
    }
    recs.into_iter().filter(|(_, r)| r.fit == Fit::Specific).collect()
}

/// What the analyses that read tables say they need, for a file none recognises.
/// First what declines a file of a shape it reads says, then what the others lack.
fn needs(file: &InputFile) -> Vec<String> {
    struct Declines<'s, 'f>(&'s Sniff<'f>);
    impl ForCapability for Declines<'_, '_> {
        type Output = Option<String>;
        fn call<C: Capability>(self) -> Option<String> {
            C::declines(self.0)
        }
    }
    struct Detect<'f>(&'f InputFile);
    impl ForCapability for Detect<'_> {
        type Output = Option<String>;
        fn call<C: Capability>(self) -> Option<String> {
            C::detect(self.0).err().map(|e| match e {
                crate::error::Error::Ingest(i) => i.message,
                other => other.to_string(),
            })
        }
    }
    // A large file is asked about by its head, as it was recognised: never read whole again.
    let sniff = Sniff::of(file);
    let mut out: Vec<String> = analyses().filter_map(|a| with(a, Declines(&sniff))).collect();
    out.extend(analyses().filter_map(|a| with(a, Detect(sniff.input()))));
    // Readers of one family say the same thing: each reason once.
    let mut seen = std::collections::HashSet::new();
    out.retain(|m| seen.insert(m.clone()));
    out
}

/// A file that is documentation, a licence, code or YAML by its name (never read as data), with
/// the note that says so.
fn not_data(name: &str) -> Option<&'static str> {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let upper = base.to_ascii_uppercase();
    let lower = base.to_ascii_lowercase();
    let named = |names: &[&str]| names.iter().any(|p| upper.starts_with(p));
    let ends = |exts: &[&str]| exts.iter().any(|e| lower.ends_with(e));
    if named(&["LICENSE", "LICENCE", "NOTICE", "COPYING", "THIRD-PARTY", "THIRD_PARTY"]) {
        return Some("not data: a licence or notice");
    }
    if named(&["README", "CHANGELOG", "AUTHORS", "CITATION", "CONTRIBUTING", "CODE_OF_CONDUCT"])
        || ends(&[".md", ".mdx", ".rst", ".pdf", ".tex", ".bib", ".cff", ".html"])
    {
        return Some("not data: documentation");
    }
    // YAML holds configuration and, as often, results (Letta's leaderboard): not read, and not
    // called code either.
    if ends(&[".yaml", ".yml"]) {
        return Some(
            "YAML: configuration, or data in a format no analysis reads (give a results table as CSV or JSON)",
        );
    }
    // A web project's manifests and settings (package.json, tsconfig.json) are JSON, and not data.
    let web_config = ["package.json", "package-lock.json", "tsconfig.json", "jsconfig.json", "vercel.json"]
        .contains(&lower.as_str())
        || (lower.starts_with("tsconfig.") && lower.ends_with(".json"));
    if web_config
        || named(&["MAKEFILE", "DOCKERFILE", "REQUIREMENTS", "MANIFEST.IN", ".ENV", "ENV.EXAMPLE", ".GITIGNORE"])
        || ends(&[
            ".py", ".pyi", ".rs", ".js", ".mjs", ".cjs", ".ts", ".tsx", ".jsx", ".vue", ".svelte", ".sh", ".ipynb",
            ".toml", ".cfg", ".ini", ".conf", ".lock", ".c", ".h", ".cc", ".cpp", ".cu", ".go", ".java", ".kt",
            ".swift", ".rb", ".php", ".cs", ".scala", ".r", ".jl", ".lua", ".css", ".scss", ".sql", ".proto", ".jinja",
            ".j2", ".mako",
        ])
    {
        return Some("not data: code or configuration");
    }
    if lower == "manifest.json" {
        return Some("not data: a release manifest (the viewer's `?release=` list)");
    }
    if ends(&[".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".ico"]) {
        return Some("not data: a figure");
    }
    // A spreadsheet is a zip of XML no analysis reads; Office leaves `~$` lock files beside it.
    if base.starts_with("~$") {
        return Some("not data: an office program's lock file");
    }
    if ends(&[".xlsx", ".xlsm", ".xls", ".ods", ".numbers"]) {
        return Some("a spreadsheet: no analysis reads one (save its sheet as CSV and add that file)");
    }
    None
}

/// One group before it runs.
struct Group {
    analysis: Analysis,
    layout: String,
    key: String,
    together: Together,
    /// Set apart by the user: no other file of its analysis joins it but companions.
    apart: bool,
    files: Vec<(usize, FileRole)>,
    /// Why its files are together, when its analysis split a larger group ([`split_groups`]).
    why: Option<String>,
}

/// Triage of `files` (an archive's own row is added by the caller): each file's recognitions
/// and the groups, in the analyses' order.
pub fn triage(
    files: &[InputFile],
    only: &[Analysis],
    edits: &Edits,
    progress: Progress<'_>,
) -> Result<(Vec<FileTriage>, Vec<AnalysisRun>, PrintedChecks)> {
    triage_within(files, only, edits, progress, EMBEDDED_REPORTS)
}

/// [`triage`] with `room_for_reports` bytes of JSON reports to embed.
fn triage_within(
    files: &[InputFile],
    only: &[Analysis],
    edits: &Edits,
    progress: Progress<'_>,
    mut room_for_reports: usize,
) -> Result<(Vec<FileTriage>, Vec<AnalysisRun>, PrintedChecks)> {
    let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
    edits.check_names(&names)?;
    let mut rows = Vec::with_capacity(files.len());
    let mut recognised: Vec<Vec<(Analysis, Recognised)>> = Vec::with_capacity(files.len());
    let mut shapes = Vec::with_capacity(files.len());
    for (i, f) in files.iter().enumerate() {
        progress(crate::capability::Phase::Reading, &f.name, 0.3 * i as f64 / files.len().max(1) as f64);
        let sniff = Sniff::of(f);
        let recs = if not_data(&f.name).is_some() { Vec::new() } else { recognise(&sniff) };
        rows.push(FileTriage {
            file: f.name.clone(),
            bytes: f.len() as u64,
            sha256: f.sha256().unwrap_or_default(),
            shape: sniff.shape.describe(),
            recognised: recs
                .iter()
                .map(|(a, r)| Recognition { analysis: *a, role: r.role, fit: r.fit, evidence: r.evidence.clone() })
                .collect(),
            routed: Vec::new(),
            status: FileStatus::NotRead,
            note: String::new(),
        });
        recognised.push(edited(recs, &f.name, edits)?);
        shapes.push(sniff.shape);
    }
    // Printed-numbers files are checked against the runs, never analysed as data.
    let mut printed: Vec<(String, Vec<crate::printed::Printed>)> = Vec::new();
    let mut printed_file = vec![false; files.len()];
    for (i, f) in files.iter().enumerate() {
        if edits.left_out(&f.name).is_some() || not_data(&f.name).is_some() || !is_printed_table(&shapes[i]) {
            continue;
        }
        recognised[i].clear();
        printed_file[i] = true;
        match crate::printed::read(f) {
            Ok(entries) => {
                rows[i].status = FileStatus::Read;
                rows[i].note = format!("{} printed numbers, checked against the runs (table `printed`)", entries.len());
                printed.push((f.name.clone(), entries));
            }
            Err(e) => {
                rows[i].status = FileStatus::Refused;
                rows[i].note = format!("printed numbers that cannot be read: {}", neutral(&e.to_string()));
            }
        }
    }
    let apart: Vec<bool> = files.iter().map(|f| edits.is_apart(&f.name)).collect();
    let mut groups = split_groups(join_complements(form_groups(&recognised, &apart), files), files);
    if !only.is_empty() {
        groups.retain(|g| only.contains(&g.analysis));
    }
    let mut runs = Vec::with_capacity(groups.len());
    let total = groups.len().max(1) as f64;
    for (g, group) in groups.iter().enumerate() {
        let several = groups.iter().filter(|o| o.analysis == group.analysis).count() > 1;
        let nth = groups[..g].iter().filter(|o| o.analysis == group.analysis).count() + 1;
        let id = if several { format!("{} {nth}", group.analysis) } else { group.analysis.to_string() };
        progress(crate::capability::Phase::Analysing, &id, 0.3 + 0.7 * g as f64 / total);
        // Each file's SHA-256, computed once above, goes with it: the analyses do not hash it again.
        let role_files: Vec<RoleFile> = group
            .files
            .iter()
            .map(|&(i, role)| {
                let file = match rows[i].sha256.as_str() {
                    "" => files[i].clone(),
                    hex => files[i].clone().with_sha256(hex.to_string()),
                };
                RoleFile { file, role, detected: role }
            })
            .collect();
        let mut run =
            with(group.analysis, RunGroup { files: &role_files, printed: &printed, room: &mut room_for_reports });
        run.id = id;
        for p in &mut run.printed {
            p.run = run.id.clone();
        }
        run.grouping = grouping(group);
        for &(i, _) in &group.files {
            rows[i].routed.push(run.id.clone());
        }
        runs.push(run);
    }
    for (i, row) in rows.iter_mut().enumerate() {
        match edits.left_out(&files[i].name) {
            Some(entry) => {
                row.status = FileStatus::LeftOut;
                row.note = neutral(&Edits::left_out_note(entry));
            }
            None if printed_file[i] => {}
            None => settle(row, &shapes[i], &recognised[i], &runs, &files[i]),
        }
    }
    let findings = printed.iter().flat_map(|(_, entries)| crate::printed::lint::lint_printed(entries)).collect();
    let checked = printed_rows(&printed, &runs);
    Ok((rows, runs, (checked, findings)))
}

/// The recognitions of `file` that route it, after the user's edits: none when it is left
/// out; only those of the analyses `route` sends it to (each must recognise it).
fn edited(recs: Vec<(Analysis, Recognised)>, file: &str, edits: &Edits) -> Result<Vec<(Analysis, Recognised)>> {
    if edits.left_out(file).is_some() {
        return Ok(Vec::new());
    }
    let to = edits.routes(file);
    if to.is_empty() {
        return Ok(recs);
    }
    if let Some(a) = to.iter().find(|a| !recs.iter().any(|(r, _)| r == *a)) {
        let who: Vec<String> = recs.iter().map(|(r, rec)| format!("{r} ({})", rec.role.describe())).collect();
        return Err(Error::setting(
            "route",
            format!(
                "`{file}` cannot go to {a}: {a} does not recognise it ({})",
                if who.is_empty() {
                    "no analysis recognises it".to_string()
                } else {
                    format!("recognised by {}", who.join(", "))
                }
            ),
        ));
    }
    Ok(recs.into_iter().filter(|(a, _)| to.contains(a)).collect())
}

/// The groups: specific recognitions first, generic ones for files nothing claims, companions
/// into the groups of their analysis.
fn form_groups(recognised: &[Vec<(Analysis, Recognised)>], apart: &[bool]) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    let join = |groups: &mut Vec<Group>, i: usize, a: Analysis, r: &Recognised| match groups
        .iter_mut()
        .find(|g| !g.apart && !apart[i] && g.analysis == a && r.same_key(&g.layout, &g.key))
    {
        Some(g) => g.files.push((i, r.role)),
        None => groups.push(Group {
            analysis: a,
            layout: r.layout.clone(),
            key: r.group.clone(),
            together: r.together,
            apart: apart[i],
            files: vec![(i, r.role)],
            why: None,
        }),
    };
    for (i, recs) in recognised.iter().enumerate() {
        let specific = recs.iter().any(|(_, r)| r.fit == Fit::Specific);
        let wanted = if specific { Fit::Specific } else { Fit::Generic };
        for (a, r) in recs.iter().filter(|(_, r)| r.fit == wanted) {
            join(&mut groups, i, *a, r);
        }
    }
    for (i, recs) in recognised.iter().enumerate() {
        for (a, r) in recs.iter().filter(|(_, r)| r.fit == Fit::Companion) {
            // A companion with no key of its own joins every group of its analysis.
            let fits =
                |g: &Group| (r.layout.is_empty() || g.layout == r.layout) && (r.group.is_empty() || g.key == r.group);
            for g in groups.iter_mut().filter(|g| g.analysis == *a && fits(g)) {
                if !g.files.iter().any(|(j, _)| *j == i) {
                    g.files.push((i, r.role));
                }
            }
        }
    }
    for g in &mut groups {
        g.files.sort_by_key(|(i, _)| *i);
    }
    groups.sort_by_key(|g| analyses().position(|a| a == g.analysis));
    groups
}

/// Each folder's group that cannot run alone joined by the group of a folder nearby that
/// completes it ([`Capability::completes`]): of the groups of its analysis whose folders are
/// nearest to its own (the longest common ancestor), exactly one must complete it, or it stays
/// as it is. A group joined into at least one other is not run alone.
fn join_complements(mut groups: Vec<Group>, files: &[InputFile]) -> Vec<Group> {
    struct Completes<'a>(&'a [(&'a InputFile, FileRole)], &'a [(&'a InputFile, FileRole)]);
    impl ForCapability for Completes<'_> {
        type Output = Option<String>;
        fn call<C: Capability>(self) -> Self::Output {
            C::completes(self.0, self.1)
        }
    }
    let of = |g: &Group| -> Vec<(&InputFile, FileRole)> { g.files.iter().map(|&(i, r)| (&files[i], r)).collect() };
    let by_folder = |g: &Group| g.together == Together::Folder && !g.apart;
    let common = |a: &str, b: &str| a.split('/').zip(b.split('/')).take_while(|(x, y)| x == y && !x.is_empty()).count();
    let mut joins: Vec<(usize, usize, String)> = Vec::new();
    for (g, group) in groups.iter().enumerate().filter(|(_, g)| by_folder(g)) {
        let donors: Vec<usize> = (0..groups.len())
            .filter(|&d| d != g && groups[d].analysis == group.analysis && by_folder(&groups[d]))
            .collect();
        let nearness: Vec<(usize, usize)> = donors.iter().map(|&d| (d, common(&group.key, &groups[d].key))).collect();
        let Some(nearest) = nearness.iter().map(|&(_, n)| n).max() else { continue };
        let mine = of(group);
        let fitting: Vec<(usize, String)> = nearness
            .iter()
            .filter(|&&(_, n)| n == nearest)
            .filter_map(|&(d, _)| with(group.analysis, Completes(&mine, &of(&groups[d]))).map(|why| (d, why)))
            .collect();
        if let [(d, why)] = fitting.as_slice() {
            joins.push((g, *d, format!("{why}: the folders `{}` and `{}`", group.key, groups[*d].key)));
        }
    }
    // A group given to another is not also completed itself (its files would leave with it).
    let given: Vec<usize> = joins.iter().map(|(_, d, _)| *d).collect();
    joins.retain(|(g, _, _)| !given.contains(g));
    let donors: Vec<usize> = joins.iter().map(|(_, d, _)| *d).collect();
    for (g, d, why) in joins {
        // A companion may already be in both (it joins every group of its analysis): once.
        let extra: Vec<(usize, FileRole)> =
            groups[d].files.iter().copied().filter(|(i, _)| !groups[g].files.iter().any(|(j, _)| j == i)).collect();
        groups[g].files.extend(extra);
        groups[g].files.sort_by_key(|(i, _)| *i);
        groups[g].why = Some(why);
    }
    groups.into_iter().enumerate().filter(|(i, _)| !donors.contains(i)).map(|(_, g)| g).collect()
}

/// Each group split into the runs its analysis makes of it ([`Capability::split`]): a
/// folder of several qrels is one evaluation per qrels.
fn split_groups(groups: Vec<Group>, files: &[InputFile]) -> Vec<Group> {
    struct Split<'a>(&'a [(&'a InputFile, FileRole)]);
    impl ForCapability for Split<'_> {
        type Output = Option<Vec<(Vec<usize>, String)>>;
        fn call<C: Capability>(self) -> Self::Output {
            C::split(self.0)
        }
    }
    let mut out = Vec::with_capacity(groups.len());
    for g in groups {
        let of: Vec<(&InputFile, FileRole)> = g.files.iter().map(|&(i, role)| (&files[i], role)).collect();
        match with(g.analysis, Split(&of)) {
            Some(parts) => out.extend(parts.into_iter().map(|(members, why)| Group {
                analysis: g.analysis,
                layout: g.layout.clone(),
                key: g.key.clone(),
                together: g.together,
                apart: g.apart,
                files: members.into_iter().map(|m| g.files[m]).collect(),
                why: Some(match &g.why {
                    Some(joined) => format!("{joined}; {why}"),
                    None => why,
                }),
            })),
            None => out.push(g),
        }
    }
    out
}

/// Why a group's files are together.
fn grouping(g: &Group) -> String {
    let n = g.files.len();
    let what = if n == 1 { "its one file".to_string() } else { format!("its {n} files") };
    if let Some(why) = &g.why {
        return format!("{what}: {why}");
    }
    if g.apart {
        return neutral(&format!("{what}: set apart by {}", crate::fields::mention("apart")));
    }
    match g.together {
        Together::Release => format!("{what}: every file of the release this analysis reads"),
        Together::Folder if g.key.is_empty() => format!("{what}: the files outside any folder this analysis reads"),
        Together::Folder => format!("{what}: the files of folder `{}` this analysis reads", g.key),
        Together::Layout if g.key.is_empty() => format!("{what}: the files of layout `{}`", g.layout),
        Together::Layout => format!("{what}: the files of layout `{}` of {}", g.layout, g.key),
        Together::Columns => {
            let of = if g.layout.is_empty() { String::new() } else { format!(" `{}`", g.layout) };
            format!("{what}: the tables{of} with the columns {}", g.key)
        }
    }
}

/// A file's status and note from the runs it went to.
fn settle(
    row: &mut FileTriage,
    shape: &Shape,
    recs: &[(Analysis, Recognised)],
    runs: &[AnalysisRun],
    file: &InputFile,
) {
    let mine: Vec<&AnalysisRun> = runs.iter().filter(|r| row.routed.contains(&r.id)).collect();
    let left_out = mine.iter().find_map(|r| r.left_out.iter().find(|l| l.file == row.file).map(|l| (r, l)));
    if let Some((run, l)) = left_out {
        row.status = FileStatus::Refused;
        row.note = format!("{} could not read it and ran on the group's other files: {}", run.id, l.message);
    } else if let Some(refused) = mine.iter().find(|r| r.status == RunStatus::Refused) {
        row.status = FileStatus::Refused;
        row.note = format!("{} refused its files: {}", refused.id, refused.message);
    } else if !mine.is_empty() {
        row.status = FileStatus::Read;
        let ids: Vec<&str> = mine.iter().map(|r| r.id.as_str()).collect();
        row.note = format!("read by {}", ids.join(", "));
    } else if let Some(kind) = not_data(&file.name) {
        row.status = FileStatus::NotRead;
        row.note = kind.to_string();
    } else if let Some((a, r)) = recs.iter().find(|(_, r)| r.fit != Fit::Companion) {
        row.status = FileStatus::NotRead;
        row.note = format!("{} for {a}, not among the analyses asked for", r.evidence);
    } else if !recs.is_empty() {
        row.status = FileStatus::Needs;
        let (a, r) = &recs[0];
        row.note = format!("{} ({}) for {a}, which has no files here to complete", r.evidence, r.role.describe());
    } else {
        row.status = FileStatus::NotRead;
        row.note = match shape {
            // A table's header with no row below it is said as such: its columns name what it
            // would hold, and nothing is left out of an analysis unsaid.
            Shape::HeaderOnly(h) => {
                format!("a table with a header ({}) and no row below it: nothing to read", crate::cells::some_of(h))
            }
            Shape::Text => "text that no analysis reads (not a table, a JSON document or TREC lines)".to_string(),
            // Every reader reads text or a zip archive it knows: what each would need of text
            // says nothing of a binary file (an index, a compressed stream of another kind).
            Shape::Empty | Shape::Binary => format!("{}: no analysis reads it", row.shape),
            Shape::Scalars(_) => format!(
                "{}: no analysis reads one (an analysis reads results one record per item: JSON Lines, a JSON \
                 array of records, or a table)",
                row.shape
            ),
            _ => {
                // What the readers of its shape say they need: a table is told what the readers
                // of tables need (their columns).
                let mut lacks = needs(file);
                if matches!(shape, Shape::Table(_)) {
                    lacks.retain(|m| m.contains("column") || m.contains("named like"));
                } else {
                    lacks.truncate(3);
                }
                if lacks.is_empty() {
                    format!("{}: no analysis reads it", row.shape)
                } else {
                    format!("{}: no analysis reads it ({})", row.shape, lacks.join("; "))
                }
            }
        };
    }
}

/// `text` with each setting it mentions named as the report's settings name it (`allow_incomplete`).
fn neutral(text: &str) -> String {
    crate::fields::render_mentions(text, |n| format!("`{n}`"))
}

/// Runs one group under its analysis's defaults, and checks the printed numbers that apply to
/// it: those of its analysis, and those naming none whose table it has.
struct RunGroup<'a> {
    files: &'a [RoleFile],
    printed: &'a [(String, Vec<crate::printed::Printed>)],
    /// The bytes of JSON reports the release may still embed ([`EMBEDDED_REPORTS`]).
    room: &'a mut usize,
}

impl ForCapability for RunGroup<'_> {
    type Output = AnalysisRun;
    fn call<C: Capability>(self) -> AnalysisRun {
        // A file the analysis cannot read is left out and said so, and the others run: one
        // unreadable file does not silence a group (at most one run per file of the group).
        let mut files: Vec<RoleFile> = self.files.to_vec();
        let mut left_out = Vec::new();
        let outcome = loop {
            match crate::capability::run_once::<C>(&files, &C::Request::default(), &mut quiet()) {
                Err(crate::error::Error::Ingest(i))
                    if files.len() > 1 && files.iter().any(|f| f.file.name == i.location.file) =>
                {
                    files.retain(|f| f.file.name != i.location.file);
                    left_out.push(LeftOut { file: i.location.file.clone(), message: neutral(&i.to_string()) });
                }
                other => break other,
            }
        };
        let files = files.iter().map(|f| GroupFile { file: f.file.name.clone(), role: f.role }).collect();
        let mut run = AnalysisRun {
            id: C::ANALYSIS.to_string(),
            analysis: C::ANALYSIS,
            title: C::TITLE.to_string(),
            files,
            grouping: String::new(),
            status: RunStatus::Ran,
            message: String::new(),
            left_out,
            headlines: Vec::new(),
            text: String::new(),
            report: serde_json::Value::Null,
            report_omitted: None,
            printed: Vec::new(),
        };
        match outcome {
            Ok((_, report)) => {
                for (file, entries) in self.printed {
                    let applies: Vec<crate::printed::Printed> = entries
                        .iter()
                        .filter(|e| match e.analysis {
                            Some(a) => a == C::ANALYSIS,
                            None => <C::Table as crate::choice::Choice>::parse(&e.table).is_some(),
                        })
                        .cloned()
                        .collect();
                    let check = crate::printed::check::<C>(&report, &applies);
                    run.printed.extend(check.rows.into_iter().map(|check| PrintedRow {
                        file: file.clone(),
                        run: String::new(),
                        check,
                    }));
                }
                run.headlines = crate::capability::headlines::<C>(&report);
                for h in &mut run.headlines {
                    h.text = neutral(&h.text);
                    h.evidence = neutral(&h.evidence);
                }
                run.text = neutral(&C::render_text(&report));
                // Measured as JSON text (counted, not kept) before it becomes a tree of values
                // (several times larger); the tree is built from the report itself, so every
                // number stays the exact f64 the analysis gave.
                let mut size = ByteCount(0);
                let measured = serde_json::to_writer(&mut size, &report).is_ok();
                if measured && size.0 <= *self.room {
                    *self.room -= size.0;
                    run.report = serde_json::to_value(&report).unwrap_or(serde_json::Value::Null);
                } else {
                    run.report_omitted = Some(format!(
                        "its JSON report ({}) is not embedded: the release's reports may take {} in all; `memaudit {}` \
                         on its files gives it as JSON",
                        crate::report::bytes(size.0 as u64),
                        crate::report::bytes(EMBEDDED_REPORTS as u64),
                        C::ANALYSIS
                    ));
                }
            }
            Err(e) => {
                run.status = RunStatus::Refused;
                run.message = neutral(&e.to_string());
                // Refused on what was left: the files left out before are named with it (a
                // run's qrels that could not be read is why it has none).
                if !run.left_out.is_empty() {
                    let names: Vec<&str> = run.left_out.iter().map(|l| l.file.as_str()).collect();
                    run.message.push_str(&format!(
                        " — after leaving out {} it could not read ({})",
                        crate::cells::some_of(&names),
                        run.left_out[0].message
                    ));
                }
            }
        }
        run
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, text: &str) -> InputFile {
        InputFile::new(name, text.as_bytes().to_vec())
    }

    fn triaged(files: &[InputFile]) -> (Vec<FileTriage>, Vec<AnalysisRun>) {
        let (rows, runs, _) = triage(files, &[], &Edits::default(), &mut quiet()).unwrap();
        (rows, runs)
    }

    fn row<'a>(rows: &'a [FileTriage], name: &str) -> &'a FileTriage {
        rows.iter().find(|r| r.file == name).unwrap_or_else(|| panic!("no row {name}"))
    }

    /// Letta's leaderboard is a YAML list of per-model scores: not read, and not called code.
    #[test]
    fn yaml_is_not_read_and_not_called_code() {
        let yaml = "- model: claude-3-5-haiku\n  average: 70.5\n";
        let (rows, _) = triaged(&[file("data/letta_memory_leaderboard.yaml", yaml), file("run.py", "print(1)\n")]);
        let y = row(&rows, "data/letta_memory_leaderboard.yaml");
        assert_eq!(y.status, FileStatus::NotRead);
        assert!(y.note.starts_with("YAML: configuration, or data") && !y.note.contains("code"), "{}", y.note);
        assert_eq!(row(&rows, "run.py").note, "not data: code or configuration");
    }

    const COMPLIANCE: &str =
        "arm,compliance_rate,task_id,correct\na,1,t1,1\nb,0,t1,0\na,1,t2,1\nb,1,t2,0\na,0,t3,0\nb,0,t3,1\n";

    #[test]
    fn inspect_logs_of_different_tasks_are_never_one_comparison() {
        let log = |task: &str, model: &str, verdicts: &[&str]| {
            let samples: Vec<String> = verdicts
                .iter()
                .enumerate()
                .map(|(i, v)| format!(r#"{{"id": {}, "epoch": 1, "scores": {{"match": {{"value": "{v}"}}}}}}"#, i + 1))
                .collect();
            format!(
                r#"{{"version": 2, "status": "success", "eval": {{"task": "{task}", "model": "{model}", "run_id": "r"}}, "samples": [{}]}}"#,
                samples.join(", ")
            )
        };
        let files = [
            file("logs/a1.json", &log("arith", "m1", &["C", "I", "C"])),
            file("logs/a2.json", &log("arith", "m2", &["C", "C", "I"])),
            file("logs/b1.json", &log("trivia", "m1", &["I", "I", "C"])),
        ];
        let (_, runs) = triaged(&files);
        let names = |r: &AnalysisRun| r.files.iter().map(|f| f.file.clone()).collect::<Vec<_>>();
        assert_eq!(runs.len(), 2, "{runs:?}");
        assert_eq!(names(&runs[0]), ["logs/a1.json", "logs/a2.json"]);
        assert_eq!(names(&runs[1]), ["logs/b1.json"]);
        assert!(runs[0].grouping.contains("the files of layout `inspect_log` of task `arith`"), "{}", runs[0].grouping);
    }

    #[test]
    fn a_folder_of_qrels_without_runs_is_said_once() {
        let qrels = |q: &str| format!("{q} 0 d1 1\n{q} 0 d2 0\n");
        let files: Vec<InputFile> =
            (1..=5).map(|i| file(&format!("qrels/qrels.{i}.txt"), &qrels(&i.to_string()))).collect();
        let (rows, runs) = triaged(&files);
        assert_eq!(runs.len(), 1, "{runs:?}");
        assert_eq!(runs[0].status, RunStatus::Refused);
        assert!(runs[0].grouping.contains("5 qrels files and no run"), "{}", runs[0].grouping);
        assert!(runs[0].message.starts_with("nothing to score: no run file among the files"), "{}", runs[0].message);
        assert!(runs[0].message.contains("qrels/qrels.1.txt"), "{}", runs[0].message);
        assert!(rows.iter().all(|r| r.status == FileStatus::Refused && r.routed == ["trec-eval"]), "{rows:?}");
    }

    #[test]
    fn a_folder_of_several_qrels_is_one_evaluation_per_qrels_with_the_runs_of_its_queries() {
        let qrels_a = "1 0 d1 1\n1 0 d2 0\n2 0 d3 1\n";
        let qrels_b = "3 0 d7 1\n4 0 d8 2\n";
        let run = |q: &[&str], tag: &str| {
            q.iter().map(|q| format!("{q} Q0 d1 1 0.9 {tag}\n{q} Q0 d7 2 0.5 {tag}\n")).collect::<String>()
        };
        let files = [
            file("ir/qrels.a", qrels_a),
            file("ir/qrels.b", qrels_b),
            file("ir/run.a", &run(&["1", "2"], "ra")),
            file("ir/run.both", &run(&["1", "2", "3"], "rb")),
            file("ir/run.other", &run(&["9"], "rc")),
        ];
        let (rows, runs) = triaged(&files);
        let of = |id: &str| runs.iter().find(|r| r.id == id).unwrap_or_else(|| panic!("no run {id}: {runs:?}"));
        let names = |id: &str| of(id).files.iter().map(|f| f.file.as_str()).collect::<Vec<_>>();
        assert_eq!(names("trec-eval 1"), ["ir/qrels.a", "ir/run.a", "ir/run.both"]);
        assert_eq!(names("trec-eval 2"), ["ir/qrels.b", "ir/run.both"]);
        assert_eq!(names("trec-eval 3"), ["ir/run.other"]);
        assert_eq!(
            (of("trec-eval 1").status, of("trec-eval 2").status),
            (RunStatus::Ran, RunStatus::Ran),
            "{}",
            of("trec-eval 1").message
        );
        assert!(of("trec-eval 1").grouping.contains("the qrels `ir/qrels.a` with the runs of its queries"));
        // The run that shares no query with any qrels is refused for want of qrels, and said.
        assert_eq!(of("trec-eval 3").status, RunStatus::Refused);
        assert!(of("trec-eval 3").grouping.contains("the runs of no qrels file's queries here"));
        assert_eq!(row(&rows, "ir/run.other").status, FileStatus::Refused);
        assert_eq!(row(&rows, "ir/run.both").routed, ["trec-eval 1", "trec-eval 2"]);
    }

    #[test]
    fn a_file_goes_to_the_analyses_that_claim_it_and_tables_of_other_columns_apart() {
        let other = "arm,compliance,task_id,extra\na,1,t1,x\nb,0,t1,y\n";
        let later = COMPLIANCE.replace(",t1,", ",u1,").replace(",t2,", ",u2,").replace(",t3,", ",u3,");
        let files = [file("r/a.csv", COMPLIANCE), file("r/b.csv", &later), file("r/c.csv", other)];
        let (rows, runs) = triaged(&files);
        let ids: Vec<&str> = runs.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids, ["compliance 1", "compliance 2"]);
        assert_eq!(runs[0].files.len(), 2);
        assert!(
            runs[0].grouping.contains("the tables with the columns arm,compliance_rate,correct,task_id"),
            "{}",
            runs[0].grouping
        );
        assert_eq!(row(&rows, "r/c.csv").routed, ["compliance 2"]);
        // A compliance table is also a table of outcomes, but nothing pools it there: a file
        // claimed specifically goes where it is claimed, the generic reading is listed.
        let a = row(&rows, "r/a.csv");
        assert!(a.recognised.iter().any(|r| r.analysis == Analysis::Compare && r.fit == Fit::Generic), "{a:?}");
        assert!(!a.routed.iter().any(|r| r.starts_with("compare")));
        assert_eq!(a.status, FileStatus::Read);
    }

    #[test]
    fn a_table_nothing_claims_goes_to_the_generic_readers() {
        let outcomes = "item,arm,correct\nq1,a,1\nq1,b,0\nq2,a,1\nq2,b,1\n";
        let (rows, runs) = triaged(&[file("o.csv", outcomes)]);
        assert_eq!(runs.len(), 1);
        assert_eq!(runs[0].analysis, Analysis::Compare);
        assert_eq!(runs[0].status, RunStatus::Ran);
        assert!(!runs[0].headlines.is_empty());
        assert_eq!(rows[0].status, FileStatus::Read);
        assert_eq!(rows[0].note, "read by compare");
    }

    #[test]
    fn logs_and_configurations_are_not_taken_for_results() {
        // A session log with a `result` of text and one `isReplay` flag (memU's audit fixture's
        // shape), a four-column experiment list ending in a count (MemoryAgentBench's configs),
        // a flat configuration object (nemori's config.json).
        let log = "{\"type\":\"user\",\"uuid\":\"u1\",\"message\":{\"role\":\"user\",\"content\":\"plan\"}}\n\
                   {\"type\":\"user\",\"uuid\":\"u1\",\"isReplay\":true,\"message\":{\"role\":\"user\",\"content\":\"plan\"}}\n\
                   {\"type\":\"result\",\"uuid\":\"r1\",\"result\":\"ignored\"}\n";
        let configs = "###### agent dataset backbone n\n\nrag_a.yaml qa/event.yaml gpt-4.1-mini 100\n\
                       rag_b.yaml qa/recsys.yaml gpt-4.1-mini 200\n";
        let settings = r#"{"llm_model": "gpt-4o-mini", "search_top_k": 20, "enable_semantic_memory": true}"#;
        let files = [file("audit.jsonl", log), file("configs/ablation.txt", configs), file("config.json", settings)];
        let (rows, runs) = triaged(&files);
        assert!(runs.is_empty(), "{runs:?}");
        assert!(rows.iter().all(|r| r.status == FileStatus::NotRead && r.routed.is_empty()), "{rows:?}");
        assert!(row(&rows, "configs/ablation.txt").note.starts_with("text that no analysis reads"));
        let c = &row(&rows, "config.json").note;
        assert!(c.starts_with("a JSON object of 3 single values (a configuration or a summary)"), "{c}");
        // With a value-named column of numbers the same log is a table of outcomes.
        let judged = log.replace("\"ignored\"", "1");
        let (rows, _) = triaged(&[file("audit.jsonl", &judged)]);
        assert!(rows[0].recognised.iter().any(|r| r.analysis == Analysis::Compare), "{rows:?}");
        // Said why compare did not take it.
        let (rows, _) = triaged(&[file("audit.jsonl", log)]);
        assert!(
            rows[0].note.contains(
                "not a table of outcomes for compare: no column named like a value holds numbers or \
                                   true/false (`result` holds text: ignored)"
            ),
            "{}",
            rows[0].note
        );
    }

    #[test]
    fn code_and_prompts_are_not_taken_for_data() {
        // MIRIX ships prompts named `resource_memory_agent.txt` and a web dashboard: neither is
        // a probe's source text (`source` must be a word of the name) nor data.
        let files = [
            file("prompts/resource_memory_agent.txt", "You are the resource memory agent.\nKeep files.\n"),
            file("dashboard/package.json", r#"{"name": "d", "dependencies": {"react": "18"}}"#),
            file("dashboard/tsconfig.node.json", r#"{"compilerOptions": {"strict": true}, "include": ["x"]}"#),
            file("dashboard/src/App.tsx", "export const App = () => null;\n"),
            file("schema.sql", "create table t (a int);\n"),
            file("MANIFEST.in", "include README.md\n"),
            file("prompt.jinja", "{{ question }}\n"),
        ];
        let (rows, runs) = triaged(&files);
        assert!(runs.is_empty(), "{runs:?}");
        assert!(rows.iter().all(|r| r.status == FileStatus::NotRead && r.recognised.is_empty()), "{rows:?}");
        for f in &files[1..] {
            assert_eq!(row(&rows, &f.name).note, "not data: code or configuration", "{}", f.name);
        }
        let (rows, _) = triaged(&[file("docs/missing-data-source-tip.mdx", "Add a data source.\n")]);
        assert_eq!(rows[0].note, "not data: documentation");
        // Named `source` as a word, a plain text is still the probe's source.
        let (rows, _) = triaged(&[file("arith_source.txt", "Ann has 3 apples.\n")]);
        assert!(rows[0].recognised.iter().any(|r| r.analysis == Analysis::Probe), "{rows:?}");
    }

    #[test]
    fn companions_join_their_analysis_or_say_what_they_need() {
        let keys = r#"{"arith": [{"pid": "p1", "source": "Ann has 3 apples", "truth": "3"}]}"#;
        let (rows, runs) = triaged(&[file("keys.json", keys)]);
        assert!(runs.is_empty());
        assert_eq!(rows[0].status, FileStatus::Needs);
        assert!(rows[0].note.contains("which has no files here to complete"), "{}", rows[0].note);
    }

    #[test]
    fn files_nothing_reads_are_explained_never_dropped() {
        let files = [
            file("LICENSE", "Apache License\nVersion 2.0\n"),
            file("notes.md", "# Results\n"),
            file("x.csv", "alpha,beta\n1,2\n"),
        ];
        let (rows, runs) = triaged(&files);
        assert!(runs.is_empty());
        assert_eq!(rows.len(), 3);
        assert!(rows.iter().all(|r| r.status == FileStatus::NotRead));
        assert_eq!(row(&rows, "LICENSE").note, "not data: a licence or notice");
        assert_eq!(row(&rows, "notes.md").note, "not data: documentation");
        let x = &row(&rows, "x.csv").note;
        assert!(x.starts_with("a table with 2 columns: alpha, beta: no analysis reads it ("), "{x}");
        assert!(x.contains("a compliance column"), "says what compliance rows need: {x}");
    }

    #[test]
    fn a_refusal_is_the_files_status_and_a_finding() {
        // TREC qrels without a run: the IR evaluation refuses, and says why.
        let (rows, runs) = triaged(&[file("q/qrels.txt", "1 0 d1 1\n1 0 d2 0\n")]);
        assert_eq!(runs.len(), 1);
        assert_eq!(runs[0].status, RunStatus::Refused);
        assert_eq!(rows[0].status, FileStatus::Refused);
        assert!(rows[0].note.starts_with("trec-eval refused its files: "), "{}", rows[0].note);
    }

    #[test]
    fn a_run_refused_after_its_qrels_was_left_out_names_it() {
        // trec_eval's own `qrels.123` judges a document twice: left out, its runs have no qrels.
        let files = [
            file("t/qrels.123", "301 0 d1 0\n301 1 d1 1\n"),
            file("t/qrels.test", "302 0 d2 1\n"),
            file("t/results.test", "301 Q0 d1 1 2.5 r\n"),
        ];
        let (_, runs) = triaged(&files);
        let r = runs.iter().find(|r| r.files.iter().any(|f| f.file == "t/results.test")).unwrap();
        assert_eq!(r.status, RunStatus::Refused, "{runs:?}");
        assert!(r.message.starts_with("nothing to score: no qrels file among the files"), "{}", r.message);
        assert!(
            r.message.contains("after leaving out t/qrels.123 it could not read (t/qrels.123, line 2"),
            "{}",
            r.message
        );
    }

    /// trectools ships `robust03/runs/` beside `robust03/qrel/`: the runs are evaluated against
    /// the qrels nearby, one evaluation per qrels, and said so; a run folder whose queries no
    /// qrels nearby judges stays refused.
    #[test]
    fn runs_take_the_qrels_of_a_folder_beside_theirs() {
        let run = |q: &str, tag: &str| format!("{q} Q0 d1 1 2.5 {tag}\n{q} Q0 d2 2 1.5 {tag}\n");
        let files = [
            file("robust03/qrel/qrels.txt", "303 0 d1 1\n303 0 d2 0\n"),
            file("robust03/qrel/mod_qrels.txt", "303 0 d1 0\n303 0 d2 1\n"),
            file("robust03/runs/input.a", &run("303", "a")),
            file("robust03/runs/input.b", &run("303", "b")),
            file("other/runs/input.zz", &run("999", "c")),
        ];
        let (rows, runs) = triaged(&files);
        let names = |r: &AnalysisRun| r.files.iter().map(|f| f.file.clone()).collect::<Vec<_>>();
        let ran: Vec<&AnalysisRun> = runs.iter().filter(|r| r.status == RunStatus::Ran).collect();
        assert_eq!(ran.len(), 2, "{runs:#?}");
        assert_eq!(names(ran[0]), ["robust03/qrel/qrels.txt", "robust03/runs/input.a", "robust03/runs/input.b"]);
        assert_eq!(names(ran[1]), ["robust03/qrel/mod_qrels.txt", "robust03/runs/input.a", "robust03/runs/input.b"]);
        for r in &ran {
            assert!(r.grouping.contains("of a folder nearby"), "{}", r.grouping);
            assert!(r.grouping.contains("`robust03/runs` and `robust03/qrel`"), "{}", r.grouping);
            assert!(r.grouping.contains("one evaluation each"), "{}", r.grouping);
        }
        // The qrels folder is not refused on its own for want of runs.
        assert_eq!(row(&rows, "robust03/qrel/qrels.txt").status, FileStatus::Read);
        // The run of queries no qrels judges is not joined to them.
        let c = row(&rows, "other/runs/input.zz");
        assert_eq!(c.status, FileStatus::Refused, "{c:?}");
        assert!(c.note.contains("no qrels file"), "{}", c.note);
    }

    /// BERGEN ships `runs/` and `qrels/` at its root, with another folder of qrels elsewhere: the
    /// runs go with the qrels they share queries with; a run none judges is said apart.
    #[test]
    fn runs_go_with_the_one_nearby_qrels_folder_that_judges_their_queries() {
        let run = |qs: &[&str]| {
            qs.iter().map(|q| format!("{q}\tq0\td1\t0\t100\trun\n{q}\tq0\td2\t1\t99\trun\n")).collect::<String>()
        };
        let files = [
            file("bergen/qrels/qrel.nq.dev.txt", "nq1 0 d1 1\nnq2 0 d2 1\nnq3 0 d1 1\nnq4 0 d2 1\n"),
            file("bergen/runs/run.oracle.nq.dev.trec", &run(&["nq1", "nq2", "nq3", "nq4"])),
            file("bergen/runs/run.oracle.bioasq.dev.trec", &run(&["b77"])),
            // One query id in common with the NQ run, by chance: not the NQ run's qrels.
            file("bergen/scripts/data/qrel_trecdl19.txt", "19335 0 d9 1\n47923 0 d9 1\nnq4 0 d9 1\n"),
        ];
        let (rows, runs) = triaged(&files);
        let names = |r: &AnalysisRun| r.files.iter().map(|f| f.file.clone()).collect::<Vec<_>>();
        let ran: Vec<&AnalysisRun> = runs.iter().filter(|r| r.status == RunStatus::Ran).collect();
        assert_eq!(ran.len(), 1, "{runs:#?}");
        assert_eq!(names(ran[0]), ["bergen/qrels/qrel.nq.dev.txt", "bergen/runs/run.oracle.nq.dev.trec"]);
        assert!(ran[0].grouping.contains("`bergen/runs` and `bergen/qrels`"), "{}", ran[0].grouping);
        let alone = row(&rows, "bergen/runs/run.oracle.bioasq.dev.trec");
        assert_eq!(alone.status, FileStatus::Refused, "{alone:?}");
        let group = runs.iter().find(|r| alone.routed.contains(&r.id)).unwrap();
        assert!(group.grouping.contains("the runs not of the qrels file's queries"), "{}", group.grouping);
        // The qrels of no run's queries stays refused on its own, said once.
        assert_eq!(row(&rows, "bergen/scripts/data/qrel_trecdl19.txt").status, FileStatus::Refused);
    }

    /// The reports embedded stop at the release's room for them: the one past it is left out
    /// and said, with its text and headlines kept.
    #[test]
    fn reports_past_the_room_for_them_are_left_out_and_said() {
        let files = [file("a/r.csv", COMPLIANCE), file("b/r.csv", COMPLIANCE)];
        let edits = Edits { apart: vec!["a/r.csv".into(), "b/r.csv".into()], ..Edits::default() };
        let (_, full, _) = triage(&files, &[], &edits, &mut quiet()).unwrap();
        let one = serde_json::to_vec(&full[0].report).unwrap().len();
        let (_, runs, _) = triage_within(&files, &[], &edits, &mut quiet(), one + one / 2).unwrap();
        assert_eq!(runs.len(), 2);
        assert_eq!(runs[0].report, full[0].report);
        assert!(runs[0].report_omitted.is_none());
        assert_eq!(runs[1].report, serde_json::Value::Null);
        let why = runs[1].report_omitted.as_deref().unwrap();
        assert!(why.contains("is not embedded") && why.contains("`memaudit compliance`"), "{why}");
        assert!(!runs[1].text.is_empty() && !runs[1].headlines.is_empty());
        let report = ReleaseReport {
            settings: Default::default(),
            files: Vec::new(),
            analyses: runs,
            printed: Vec::new(),
            printed_findings: Vec::new(),
        };
        let said = super::super::headlines::headlines(&report);
        assert!(said.iter().any(|h| h.text.starts_with("1 analyses' JSON reports are not embedded")), "{said:#?}");
    }

    /// Two qrels folders equally near: which one the runs go with is not guessed.
    #[test]
    fn runs_between_two_qrels_folders_are_not_joined_to_either() {
        let files = [
            file("x/qrels_a/q.txt", "1 0 d1 1\n"),
            file("x/qrels_b/q.txt", "1 0 d1 0\n"),
            file("x/runs/r.run", "1 Q0 d1 1 2.0 r\n"),
        ];
        let (rows, _) = triaged(&files);
        let r = row(&rows, "x/runs/r.run");
        assert_eq!(r.status, FileStatus::Refused, "{r:?}");
        assert!(r.note.contains("no qrels file"), "{}", r.note);
    }

    /// A spreadsheet and Office's lock file beside it are named for what they are; binary content
    /// is said to be binary.
    #[test]
    fn a_spreadsheet_is_named_and_not_read() {
        let xlsx = b"PK\x03\x04\x14\x00\x06\x00\x08\x00\x00\x00!\x00\xff\xfe".to_vec();
        let files = [
            InputFile::new("full_results/benchmark.xlsx", xlsx.clone()),
            InputFile::new("full_results/~$benchmark.xlsx", xlsx),
            InputFile::new("index/data.direct.bf", vec![0xff, 0x00, 0x12, 0x9c]),
        ];
        let (rows, _) = triaged(&files);
        let x = row(&rows, "full_results/benchmark.xlsx");
        assert_eq!(x.status, FileStatus::NotRead);
        assert!(x.note.starts_with("a spreadsheet: no analysis reads one (save its sheet as CSV"), "{}", x.note);
        assert_eq!(row(&rows, "full_results/~$benchmark.xlsx").note, "not data: an office program's lock file");
        // A binary file is not told what the readers of text need.
        assert_eq!(row(&rows, "index/data.direct.bf").note, "binary content: no analysis reads it");
    }

    /// MemSim's data card: counts and averages per dataset, not outcomes per item and system.
    #[test]
    fn a_table_of_summaries_is_not_compared() {
        let card = "Index,Trajectories,Messages,Questions,TPM (avg.),TPM (var.)\n01,500,4215,500,15.48,11.58\n\
                    02,500,4195,500,15.49,11.85\n03,492,3144,492,14.66,2.13\n04,462,5536,462,14.65,4.20\n";
        let (rows, runs) = triaged(&[file("final_dataset/data_card_raw.csv", card)]);
        assert!(runs.is_empty(), "{runs:#?}");
        let r = row(&rows, "final_dataset/data_card_raw.csv");
        assert_eq!(r.status, FileStatus::NotRead);
        assert!(r.note.contains("`TPM (avg.)`, `TPM (var.)` name a statistic, not a system"), "{}", r.note);
    }

    #[test]
    fn a_file_its_analysis_cannot_read_is_left_out_and_the_others_run() {
        let broken = "arm,compliance_rate,task_id,correct\na,2.5,t9,1\nb,0,t9,0\n";
        let (rows, runs) = triaged(&[file("r/a.csv", COMPLIANCE), file("r/b.csv", broken)]);
        assert_eq!(runs.len(), 1);
        assert_eq!(runs[0].status, RunStatus::Ran);
        assert_eq!(runs[0].files.iter().map(|f| f.file.as_str()).collect::<Vec<_>>(), ["r/a.csv"]);
        assert_eq!(runs[0].left_out.len(), 1);
        assert!(runs[0].left_out[0].message.starts_with("r/b.csv, line 2"), "{:?}", runs[0].left_out);
        let b = row(&rows, "r/b.csv");
        assert_eq!(b.status, FileStatus::Refused);
        assert!(
            b.note.starts_with("compliance could not read it and ran on the group's other files: r/b.csv, line 2"),
            "{}",
            b.note
        );
        assert_eq!(row(&rows, "r/a.csv").status, FileStatus::Read);
    }

    #[test]
    fn a_file_another_analysis_reads_as_its_own_says_which() {
        let rows = file("c.csv", COMPLIANCE);
        let there = elsewhere(&rows, Analysis::Labels);
        assert_eq!(there.iter().map(|(a, _)| *a).collect::<Vec<_>>(), [Analysis::Compliance]);
        assert_eq!(there[0].1.evidence, "an arm and a compliance column");
        // Not for the analysis that reads it, nor for documentation.
        assert!(elsewhere(&rows, Analysis::Compliance).is_empty());
        assert!(elsewhere(&file("README.md", COMPLIANCE), Analysis::Labels).is_empty());
    }

    /// A printed-numbers file in a release is checked against the runs, never analysed: a number
    /// found in one run takes its verdict, one in two runs that disagree is not guessed, one of an
    /// analysis that did not run says so.
    #[test]
    fn printed_numbers_in_a_release_are_checked_against_the_run_that_holds_them() {
        // Two comparisons (tables of different columns): arm a's mean is 2/3 in the first, 1/3 in
        // the second; arm c is only in the second (mean 1).
        let one = "item,arm,correct\nq1,a,1\nq1,b,0\nq2,a,1\nq2,b,1\nq3,a,0\nq3,b,0\n";
        let two = "task,arm,score\nt1,a,1\nt1,c,1\nt2,a,0\nt2,c,1\nt3,a,0\nt3,c,1\n";
        let printed = "source,analysis,table,row,column,printed\n\
            T1,compare,arms,arm=c,mean,1.00\n\
            T1,,arms,arm=a,mean,0.67\n\
            T1,compare,arms,arm=b,mean,0.25\n\
            T3,labels,labels,,kappa,0.8\n";
        let (rows, runs, (checked, findings)) = triage(
            &[file("r/one.csv", one), file("r/two.csv", two), file("r/printed.csv", printed)],
            &[],
            &Edits::default(),
            &mut quiet(),
        )
        .unwrap();
        let p = row(&rows, "r/printed.csv");
        assert_eq!(p.status, FileStatus::Read);
        assert!(p.routed.is_empty() && p.note.starts_with("4 printed numbers"), "{p:?}");
        assert_eq!(runs.iter().filter(|r| r.analysis == Analysis::Compare).count(), 2);
        let v: Vec<(&str, crate::printed::Verdict)> =
            checked.iter().map(|c| (c.run.as_str(), c.check.verdict)).collect();
        use crate::printed::Verdict::*;
        assert_eq!(
            v,
            [("compare 2", Matches), ("compare 1; compare 2", NotComputed), ("compare 1", Differs), ("", NotComputed)]
        );
        assert!(
            checked[1].check.note.contains("2 runs have this row with different values"),
            "{}",
            checked[1].check.note
        );
        assert_eq!(checked[3].check.note, "no run of `labels` in this release");
        // The release's headlines say it.
        let r = ReleaseReport {
            settings: Default::default(),
            files: rows,
            analyses: runs,
            printed: checked,
            printed_findings: findings,
        };
        let hs = super::super::headlines::headlines(&r);
        assert!(hs.iter().any(|h| h.text == "1 of 4 printed numbers differ from the data"), "{hs:?}");
        assert!(hs.iter().any(|h| h.text == "1 of 4 printed numbers match the release's data"), "{hs:?}");
    }

    #[test]
    fn only_the_analyses_asked_for_run() {
        let outcomes = "item,arm,correct\nq1,a,1\nq1,b,0\n";
        let (rows, runs, _) = triage(
            &[file("o.csv", outcomes), file("c.csv", COMPLIANCE)],
            &[Analysis::Compliance],
            &Edits::default(),
            &mut quiet(),
        )
        .unwrap();
        assert_eq!(runs.iter().map(|r| r.analysis).collect::<Vec<_>>(), [Analysis::Compliance]);
        let o = row(&rows, "o.csv");
        assert_eq!(o.status, FileStatus::NotRead);
        assert!(o.note.ends_with("for compare, not among the analyses asked for"), "{}", o.note);
    }

    fn edited_triage(files: &[InputFile], edits: Edits) -> Result<(Vec<FileTriage>, Vec<AnalysisRun>)> {
        triage(files, &[], &edits, &mut quiet()).map(|(rows, runs, _)| (rows, runs))
    }

    #[test]
    fn the_user_leaves_files_out_sets_them_apart_and_routes_them() {
        let later = COMPLIANCE.replace(",t1,", ",u1,").replace(",t2,", ",u2,").replace(",t3,", ",u3,");
        let third = COMPLIANCE.replace(",t1,", ",v1,").replace(",t2,", ",v2,").replace(",t3,", ",v3,");
        let files = [file("r/a.csv", COMPLIANCE), file("r/b.csv", &later), file("s/c.csv", &third)];
        // As found: the three tables of one layout are one comparison of compliance.
        let (_, runs) = triaged(&files);
        assert_eq!(runs.len(), 1);
        assert_eq!(runs[0].files.len(), 3);
        // Left out: a folder names every file below it; the rest run.
        let edits = Edits { leave_out: vec!["r".into()], ..Edits::default() };
        let (rows, runs) = edited_triage(&files, edits).unwrap();
        assert_eq!(runs.len(), 1);
        assert_eq!(runs[0].files.iter().map(|f| f.file.as_str()).collect::<Vec<_>>(), ["s/c.csv"]);
        let a = row(&rows, "r/a.csv");
        assert_eq!(a.status, FileStatus::LeftOut);
        assert_eq!(a.note, "left out by `leave_out` (`r`)");
        assert!(a.routed.is_empty());
        assert!(!a.recognised.is_empty(), "what it is stays listed");
        // Apart: a group of its own.
        let edits = Edits { apart: vec!["s/c.csv".into()], ..Edits::default() };
        let (_, runs) = edited_triage(&files, edits).unwrap();
        assert_eq!(runs.iter().map(|r| r.files.len()).collect::<Vec<_>>(), [2, 1]);
        assert_eq!(runs[1].grouping, "its one file: set apart by `apart`");
        assert_eq!(runs[1].status, RunStatus::Ran);
        // Routed: a compliance table also reads as outcomes; sent to the comparison, it goes
        // there and not to the compliance analysis.
        let edits = Edits { route: vec![(Analysis::Compare, "s/c.csv".into())], ..Edits::default() };
        let (rows, runs) = edited_triage(&files, edits).unwrap();
        assert_eq!(row(&rows, "s/c.csv").routed, ["compare"]);
        assert_eq!(runs.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(), ["compare", "compliance"]);
        // Never to an analysis that does not recognise it, never a name that is not a file.
        let edits = Edits { route: vec![(Analysis::Labels, "s/c.csv".into())], ..Edits::default() };
        let e = edited_triage(&files, edits).unwrap_err().to_string();
        assert!(e.contains("`s/c.csv` cannot go to labels: labels does not recognise it (recognised by "), "{e}");
        let e =
            edited_triage(&files, Edits { apart: vec!["s/d.csv".into()], ..Edits::default() }).unwrap_err().to_string();
        assert!(e.starts_with("invalid setting `apart`: `s/d.csv` names no file of the release"), "{e}");
    }

    #[test]
    fn one_file_per_rater_goes_to_labels_with_its_folder_and_texts_do_not() {
        let rater = "item,label\n0,NONE\n1,COMPACT\n2,COMPACT\n3,DIFFUSE\n";
        let key = "item,author_label\n0,NONE\n1,COMPACT\n2,DIFFUSE\n3,DIFFUSE\n";
        let blank = "item,label\n0,\n1,\n2,\n3,\n";
        let queries = "id,text\n0,where did she go\n1,what did he buy\n2,when was it\n";
        let files = [
            file("a/template.csv", blank),
            file("a/rater2.csv", rater),
            file("a/key.csv", key),
            file("a/queries.csv", queries),
        ];
        let (rows, runs) = triaged(&files);
        let labels: Vec<&AnalysisRun> = runs.iter().filter(|r| r.analysis == Analysis::Labels).collect();
        assert_eq!(labels.len(), 1, "{runs:?}");
        let names: Vec<&str> = labels[0].files.iter().map(|f| f.file.as_str()).collect();
        assert_eq!(names, ["a/template.csv", "a/rater2.csv", "a/key.csv"]);
        assert_eq!(labels[0].status, RunStatus::Ran, "{}", labels[0].message);
        // The blank template is left out (not a rater pooled with `rater2.csv`'s `label`), said.
        assert!(
            labels[0].headlines.iter().any(|h| h.text == "a/template.csv is a blank form: left out, it labels nothing"),
            "{:?}",
            labels[0].headlines
        );
        assert!(!labels[0].headlines.iter().any(|h| h.text.contains("read as one rater")), "{:?}", labels[0].headlines);
        assert!(!row(&rows, "a/queries.csv").recognised.iter().any(|r| r.analysis == Analysis::Labels));
    }
}
