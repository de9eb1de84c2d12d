//! A capability is one core unit with the same parts everywhere:
//!
//! * its **input roles** ([`FileRole`]), each file's role detected from its content
//!   ([`Capability::detect`]) unless the caller states it (a CLI option, a viewer override);
//! * a typed **request** with `Default` (the documented defaults) and one `validate`
//!   ([`Validate`]);
//! * **load** (read the files into what is kept between runs) and
//!   **run** (`run(&loaded, &request) -> Report`);
//! * a **table enum** whose columns are defined once ([`crate::report::Column`]) and **text
//!   rendering**.
//!
//! The CLI subcommand (`src/bin/memaudit/`) is "arguments → request → [`run_once`] → emit";
//! the viewer's worker keeps a [`Session`] per page ("kept inputs → run"). Neither assembles a
//! capability a second time, so a number on screen and its CLI twin come from one call, and an
//! invalid setting is refused with the same message by both.
//!
//! ```text
//! files + roles ──Capability::load(request)──► Loaded ──Capability::run(request)──► Report
//!                                                 │                                   │
//!                                   Capability::overview                 Capability::table(Table)
//!                                   Capability::detail(Detail)           Capability::render_text
//! ```

/// What every capability unit (`*/unit.rs`) names: the trait, its parts, errors and input files.
pub mod prelude {
    pub use super::{Analysis, Capability, Demo, FileRole, FileSummary, Phase, Progress, RoleFile, Validate};
    pub use crate::error::{Error, Result};
    pub use crate::ingest::InputFile;
}

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::choice::Choice;
use crate::error::{Error, IngestError, Location, Result};
pub use crate::file_role::FileRole;
use crate::headline::Headline;
use crate::ingest::InputFile;
use crate::report::Table;
use crate::stats::bootstrap::Interval;
use crate::stats::deferred::MeanIntervals;

/// The version every JSON output carries (`memaudit_version`).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

crate::choice! {
    /// The capabilities: one CLI subcommand and one viewer page each.
    pub enum Analysis {
        /// A whole release: every file triaged and routed to each analysis it feeds (the
        /// viewer's landing page, first in its navigation).
        Audit,
        Rescore,
        Compare,
        Probe,
        Reclaim,
        Answers,
        Ablation,
        Claims,
        Rules,
        TrecEval = "trec-eval",
        Labels,
        Calibration,
        Alignment,
        Compliance,
    }
}

crate::choice! {
    /// The stage a long job is in (shown with its progress).
    pub enum Phase {
        Reading,
        Building,
        Scoring,
        Tables,
        /// Pairing outcome rows into an item × arm matrix.
        Pairing,
        /// Bootstrap, tests and ranks of a comparison.
        Comparing,
        /// Probing notes, analysing trials, answers, ablations, claims or rules.
        Analysing,
    }
}

/// Progress callback: the phase, what runs now, and the share of the whole job done (0..=1).
pub type Progress<'a> = &'a mut dyn FnMut(Phase, &str, f64);

/// A progress callback that ignores everything (the CLI, tests).
pub fn quiet() -> impl FnMut(Phase, &str, f64) {
    |_, _, _| {}
}

/// A request's one check of its settings, shared by the CLI and the viewer.
pub trait Validate {
    fn validate(&self) -> Result<()>;
}

/// An input file with the role it plays.
#[derive(Debug, Clone)]
pub struct RoleFile {
    pub file: InputFile,
    /// The role it plays (stated by the caller, else detected).
    pub role: FileRole,
    /// What its content looks like (`role` unless the caller stated another).
    pub detected: FileRole,
}

/// What was read from one input file, for the reading summary of every capability.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FileSummary {
    pub name: String,
    pub role: FileRole,
    pub detected: FileRole,
    /// What the reader took it for, in words (`notes`, `reclaim-eval realworld rows`, …).
    pub kind: String,
    /// Records read (rows, notes, claims, rules, values, commits; bytes for fingerprinted data).
    pub records: usize,
    pub bytes: usize,
    pub sha256: String,
}

impl FileSummary {
    pub fn of(f: &RoleFile, kind: impl Into<String>, records: usize) -> Result<FileSummary> {
        Ok(FileSummary::hashed(f, kind, records, f.file.sha256()?))
    }

    /// With its SHA-256 computed elsewhere (see [`fingerprints_while`]).
    pub fn hashed(f: &RoleFile, kind: impl Into<String>, records: usize, sha256: String) -> FileSummary {
        FileSummary {
            name: f.file.name.clone(),
            role: f.role,
            detected: f.detected,
            kind: kind.into(),
            records,
            bytes: f.file.len(),
            sha256,
        }
    }
}

/// Runs `work` while the SHA-256 of every file is computed: on a second thread natively (a
/// 250 MB run takes 0.15 s to hash), one after the other in the browser (no threads). A file
/// hashed while read ([`InputFile::hashed_while_read`]: the CLI's streamed files, the browser's
/// worker) takes its digest from `work`'s own reading, asked after it; it is read a second time
/// only when `work` did not read it to the end.
pub fn fingerprints_while<R>(
    files: &[&RoleFile],
    work: impl FnOnce() -> R,
) -> (R, std::result::Result<Vec<String>, IngestError>) {
    let hash_all = || files.iter().map(|f| f.file.sha256()).collect::<std::result::Result<Vec<_>, _>>();
    #[cfg(not(target_arch = "wasm32"))]
    {
        let aside: Vec<usize> = (0..files.len()).filter(|&i| !files[i].file.hashes_while_read()).collect();
        if aside.is_empty() {
            let out = work();
            return (out, hash_all());
        }
        std::thread::scope(|s| {
            // The files not hashed while read are hashed beside the work; the others after it.
            let beside = s.spawn(|| aside.iter().map(|&i| (i, files[i].file.sha256())).collect::<Vec<_>>());
            let out = work();
            // A panic while hashing is a bug; hash again here rather than lose the result.
            let mut done: Vec<Option<std::result::Result<String, IngestError>>> = vec![None; files.len()];
            for (i, h) in beside.join().unwrap_or_default() {
                done[i] = Some(h);
            }
            let hashes = files.iter().zip(done).map(|(f, h)| h.unwrap_or_else(|| f.file.sha256())).collect();
            (out, hashes)
        })
    }
    #[cfg(target_arch = "wasm32")]
    {
        let out = work();
        (out, hash_all())
    }
}

/// One input file as the report names it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InputInfo {
    pub name: String,
    /// Its role (`runs`, `outcomes`, …).
    pub role: String,
    pub bytes: u64,
    /// Lower-case hex SHA-256 of the file as given (before gzip is undone).
    pub sha256: String,
}

impl From<&FileSummary> for InputInfo {
    fn from(f: &FileSummary) -> Self {
        InputInfo {
            name: f.name.clone(),
            role: f.role.name().to_string(),
            bytes: f.bytes as u64,
            sha256: f.sha256.clone(),
        }
    }
}

/// Refuses a file of several that holds no record, `(file, records read)`: it would drop out
/// unsaid, and with it what it stands for when the files are the arms or the raters (`what`:
/// `answer rows`, `label rows`). One file alone is left to the analysis, which says there is
/// nothing to score. `records` counts the rows as read, before any filter: a file whose rows a
/// filter leaves out is not empty.
pub fn refuse_files_without_records<'a>(files: impl IntoIterator<Item = (&'a str, usize)>, what: &str) -> Result<()> {
    let files: Vec<(&str, usize)> = files.into_iter().collect();
    if files.len() < 2 {
        return Ok(());
    }
    match files.iter().find(|(_, records)| *records == 0) {
        Some((name, _)) => Err(Error::Ingest(IngestError::new(
            Location::file(name),
            format!(
                "no {what} could be read from it (none below its header, or none with the cells the analysis \
                 reads): beside the other files it would drop out unsaid (with it, its system or rater, when each \
                 file is one); give its rows, or leave the file out"
            ),
        ))),
        None => Ok(()),
    }
}

/// The [`InputInfo`] of each file summary.
pub fn of_summaries(files: &[FileSummary]) -> Vec<InputInfo> {
    files.iter().map(InputInfo::from).collect()
}

/// The files an overview says were read ([`Capability::inputs`]'s default); an overview that
/// keeps none (its capability's `inputs` reads them from the report) keeps the default.
pub trait FilesRead {
    fn files_read(&self) -> &[FileSummary] {
        &[]
    }
}

impl FilesRead for Vec<FileSummary> {
    fn files_read(&self) -> &[FileSummary] {
        self
    }
}

/// [`FilesRead`] of overviews whose `files` are the files read.
#[macro_export]
macro_rules! files_read {
    ($($t:ty),+ $(,)?) => {
        $(impl $crate::capability::FilesRead for $t {
            fn files_read(&self) -> &[$crate::capability::FileSummary] {
                &self.files
            }
        })+
    };
}

/// A unit's associated types on one line inside its `impl Capability`:
/// `crate::capability_types!(request: R, loaded: L, overview: O, report: P, table: T);`, with
/// `detail: D => V` after `table` for a unit with a drill-down (without: `()` and `()`).
#[macro_export]
macro_rules! capability_types {
    (request: $r:ty, loaded: $l:ty, overview: $o:ty, report: $p:ty, table: $t:ty $(,)?) => {
        $crate::capability_types!(request: $r, loaded: $l, overview: $o, report: $p, table: $t, detail: () => ());
    };
    (request: $r:ty, loaded: $l:ty, overview: $o:ty, report: $p:ty, table: $t:ty, detail: $d:ty => $v:ty $(,)?) => {
        type Request = $r;
        type Loaded = $l;
        type Overview = $o;
        type Report = $p;
        type Table = $t;
        type Detail = $d;
        type DetailView = $v;
    };
}

/// The three views of a unit's report that only call its own modules — its tables
/// ([`Capability::table`]), its headlines and its text — written once inside its
/// `impl Capability`: `crate::report_views!(table: table, headlines: super::headlines::headlines,
/// text: text::render_text);` (`table?` for a table function that can refuse).
#[macro_export]
macro_rules! report_views {
    (table: $table:path, headlines: $headlines:path, text: $text:path $(,)?) => {
        fn table(report: &Self::Report, which: Self::Table) -> $crate::error::Result<$crate::report::Table> {
            Ok($table(report, which))
        }
        $crate::report_views!(@rest $headlines, $text);
    };
    (table? $table:path, headlines: $headlines:path, text: $text:path $(,)?) => {
        fn table(report: &Self::Report, which: Self::Table) -> $crate::error::Result<$crate::report::Table> {
            $table(report, which)
        }
        $crate::report_views!(@rest $headlines, $text);
    };
    (@rest $headlines:path, $text:path) => {
        fn headlines(report: &Self::Report) -> Vec<$crate::headline::Headline> {
            $headlines(report)
        }
        fn render_text(report: &Self::Report) -> String {
            $text(report)
        }
    };
}

/// One plot, drawn as SVG by the same plotters code as the viewer's canvas.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Figure {
    pub title: String,
    pub svg: String,
}

/// One file of a capability's demo ([`Capability::DEMO`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Demo {
    /// The file's name, as an input file.
    pub name: &'static str,
    /// The committed file, relative to the repository's root.
    pub source: &'static str,
}

impl Demo {
    pub const fn new(name: &'static str, source: &'static str) -> Demo {
        Demo { name, source }
    }
}

crate::choice! {
    /// How surely a capability recognises a file ([`Capability::recognise`]), which decides where
    /// a release's triage routes it.
    pub enum Fit {
        /// Its own format (compliance rows, a TREC run, an Inspect log): the file goes to it.
        Specific,
        /// A format it reads among others (any table as outcomes): the file goes to it when no
        /// capability recognises it specifically.
        Generic,
        /// A file that completes others (probe keys, a TREC run beside memories): it joins the
        /// capability's files when there are some, and is otherwise said to need them.
        Companion,
    }
}

crate::choice! {
    /// What keeps a capability's files together in a release ([`Recognised::group`]).
    pub enum Together {
        /// Every file of the release it reads.
        Release,
        /// The files of one folder.
        Folder,
        /// The files of one layout (an outcome format).
        Layout,
        /// The tables of the same columns (of one layout).
        Columns,
    }
}

/// A file a capability recognises ([`Capability::recognise`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Recognised {
    /// The role it would play.
    pub role: FileRole,
    pub fit: Fit,
    /// What was seen, in words (`LoCoMo answers`, `an arm and a compliance column`).
    pub evidence: String,
    /// Files recognised with different keys are analysed apart (tables of different columns:
    /// one analysis per layout); the same key, together. The key within [`Self::layout`]: the
    /// columns or the folder (empty: none).
    pub group: String,
    /// The layout the file is of (an outcome format; empty: any).
    pub layout: String,
    /// What the key is.
    pub together: Together,
}

impl Recognised {
    pub fn new(role: FileRole, fit: Fit, evidence: impl Into<String>) -> Recognised {
        Recognised {
            role,
            fit,
            evidence: evidence.into(),
            group: String::new(),
            layout: String::new(),
            together: Together::Release,
        }
    }

    /// Grouped with the tables of the same columns.
    pub fn by_columns(mut self, sniff: &crate::ingest::sniff::Sniff<'_>) -> Recognised {
        let mut cols: Vec<String> = sniff.columns().iter().map(|c| c.to_lowercase()).collect();
        cols.sort();
        self.group = cols.join(",");
        self.together = Together::Columns;
        self
    }

    /// Grouped with the files of its folder.
    pub fn by_folder(mut self, name: &str) -> Recognised {
        self.group = crate::ingest::folder_of(name).to_string();
        self.together = Together::Folder;
        self
    }

    /// Grouped with the files of layout `layout` (and, within it, by the key already set).
    pub fn by_layout(mut self, layout: &str) -> Recognised {
        self.layout = layout.to_string();
        if self.together == Together::Release {
            self.together = Together::Layout;
        }
        self
    }

    /// Within its layout, grouped with the files of the same task (an Inspect log's
    /// `eval.task`), when it names one.
    pub fn by_task(mut self, task: Option<String>) -> Recognised {
        if let Some(t) = task {
            self.group = format!("task `{t}`");
        }
        self
    }

    /// Whether a file recognised as `self` goes with a group of `layout` and key `group`.
    pub fn same_key(&self, layout: &str, group: &str) -> bool {
        self.layout == layout && self.group == group
    }
}

/// One core unit: see the module documentation.
pub trait Capability: Sized + 'static {
    /// Its subcommand and page.
    const ANALYSIS: Analysis;
    /// The roles its files can play (the first is the default for an undetected file).
    const ROLES: &'static [FileRole];
    /// Its title (the page's name in the navigation, the report's heading).
    const TITLE: &'static str;
    /// What it does, in one sentence (the CLI subcommand's help, the page list).
    const ABOUT: &'static str;
    /// Whether its readers take a file as a stream (an [`crate::ingest::InputFile::streamed`]):
    /// `trec-eval` reads TREC runs and qrels one line at a time, rescoring reads JSON Lines and
    /// TREC text one line at a time ([`crate::ingest::read_into`]); neither then holds the
    /// file's text. The CLI opens such a capability's files as [`crate::ingest::PathSource`]s,
    /// the viewer's worker as slices of the browser's `File`.
    const STREAMS: bool = false;
    /// Whether its run leaves bootstrap intervals to compute ([`Capability::run_unfinished`]),
    /// which the viewer's worker shares with a helper worker (the browser's second core).
    const SPLITS_INTERVALS: bool = false;
    /// Its demo: committed files it runs on as they are, under its default settings (the
    /// viewer's "Run the demo"; a test runs each one and asserts it says something).
    const DEMO: &'static [Demo] = &[];
    /// Its request's settings, declared once ([`crate::fields::Fields`]): each interface draws
    /// its form or arguments from them and names a setting the core mentions by them.
    fn fields() -> Vec<&'static crate::fields::Field> {
        <Self::Request as crate::fields::Fields>::fields()
    }

    /// The settings of one run.
    type Request: Validate
        + crate::fields::Fields
        + Clone
        + Default
        + PartialEq
        + std::fmt::Debug
        + Serialize
        + DeserializeOwned;
    /// What reading keeps between runs.
    type Loaded;
    /// What the page needs to know of the loaded inputs (files read, arms, columns, …).
    type Overview: Clone + PartialEq + std::fmt::Debug + Serialize + DeserializeOwned + FilesRead;
    /// The result (the CLI's JSON, inside the version envelope).
    type Report: Clone + PartialEq + std::fmt::Debug + Serialize + DeserializeOwned;
    /// The tables of a report.
    type Table: Choice + Serialize + DeserializeOwned;
    /// A question about one part of the loaded inputs (a drill-down; `()` when there is none).
    type Detail: Clone + PartialEq + std::fmt::Debug + Serialize + DeserializeOwned;
    type DetailView: Clone + PartialEq + std::fmt::Debug + Serialize + DeserializeOwned;

    /// The role a file's content suggests (an error when it fits none of [`Self::ROLES`]). The
    /// default, for a unit whose reader tells its formats apart itself: the first of
    /// [`Self::ROLES`] for every file.
    fn detect(file: &InputFile) -> Result<FileRole> {
        Self::ROLES.first().copied().ok_or_else(|| {
            Error::Ingest(IngestError::new(Location::file(&file.name), format!("{} reads no file", Self::TITLE)))
        })
    }

    /// Whether this capability reads `sniff`'s file, and as what (`None`: not its input). A
    /// release's triage asks every capability ([`crate::release`]); unlike [`Self::detect`],
    /// which picks a role among a page's files, this says no to a file of another family.
    fn recognise(_sniff: &crate::ingest::sniff::Sniff<'_>) -> Option<Recognised> {
        None
    }

    /// Why this capability does not read `sniff`'s file although it is of a shape it reads (a
    /// table whose columns named like its inputs hold something else), in words for a release's
    /// list of files; `None` (the default) when it has nothing to say.
    fn declines(_sniff: &crate::ingest::sniff::Sniff<'_>) -> Option<String> {
        None
    }

    /// Whether a release's group of this capability's files from another folder (`donor`)
    /// completes `files`, which cannot run alone (runs without their qrels in a folder beside
    /// the qrels'): what the donor brings, in words, or `None` (the default: groups stay apart).
    /// The triage asks only the groups of the nearest folders and joins one only when exactly
    /// one completes.
    fn completes(_files: &[(&InputFile, FileRole)], _donor: &[(&InputFile, FileRole)]) -> Option<String> {
        None
    }

    /// How a release's group of this capability's files (each with its role) splits into runs
    /// when one run cannot read them all: each run's files (indices into `files`) and why they
    /// are together, in words. `None` (the default): the group is one run.
    fn split(_files: &[(&InputFile, FileRole)]) -> Option<Vec<(Vec<usize>, String)>> {
        None
    }

    /// Reads the files (already validated `request`: only its reading options matter here).
    fn load(files: &[RoleFile], request: &Self::Request, progress: Progress<'_>) -> Result<Self::Loaded>;

    /// Whether going from `old` to `new` needs the files read again (a reading option changed).
    fn reload(_old: &Self::Request, _new: &Self::Request) -> bool {
        false
    }

    fn overview(loaded: &Self::Loaded) -> Self::Overview;

    fn run(loaded: &Self::Loaded, request: &Self::Request, progress: Progress<'_>) -> Result<Self::Report>;

    /// [`Self::run`] with its bootstrap intervals left to compute ([`Unfinished`]), so that the
    /// viewer can compute them on two workers. A capability that leaves none keeps this
    /// default; one that overrides it has `run` = `run_unfinished` + [`Unfinished::compute`].
    fn run_unfinished(
        loaded: &Self::Loaded,
        request: &Self::Request,
        progress: Progress<'_>,
    ) -> Result<Unfinished<Self::Report>> {
        Self::run(loaded, request, progress).map(Unfinished::done)
    }

    /// Answers a [`Self::Detail`] question from the loaded inputs under `request` (`None`:
    /// nothing loaded; some questions, like a pasted note, need no inputs).
    /// The default: no drill-down ([`no_detail`]).
    fn detail(
        _loaded: Option<&Self::Loaded>,
        _request: &Self::Request,
        _detail: &Self::Detail,
    ) -> Result<Self::DetailView> {
        no_detail::<Self>()
    }

    /// One table of a report; an error when the report cannot have it (say why and what to add).
    fn table(report: &Self::Report, table: Self::Table) -> Result<Table>;

    /// The human-readable report (`--format table`), without its headlines (see
    /// [`report_text`]).
    fn render_text(report: &Self::Report) -> String;

    /// What the data says ([`crate::headline`]), in any order: [`headlines`] ranks them.
    fn headlines(report: &Self::Report) -> Vec<Headline>;

    /// The input files a result rests on (name, role, size, SHA-256), from what the page keeps
    /// of a run: its overview and its report. The default: the overview's files read.
    fn inputs(overview: &Self::Overview, _report: &Self::Report) -> Vec<InputInfo> {
        of_summaries(overview.files_read())
    }

    /// The report's plots as SVG, for the report to attach (`--html`, `--plots`), drawn by the
    /// same plotters code as the viewer's canvas.
    fn figures(_report: &Self::Report) -> Vec<Figure> {
        Vec::new()
    }

    /// Sections of text the report to attach adds after its tables, `(title, text)` (the release
    /// audit: each analysis's own report). The default: none.
    fn sections(_report: &Self::Report) -> Vec<(String, String)> {
        Vec::new()
    }

    /// Whether the text report starts with the headlines (`false` where the text is another
    /// tool's exact format, as trec_eval's).
    const HEADLINES_IN_TEXT: bool = true;

    /// The report as LaTeX, for capabilities that offer it.
    fn latex(_report: &Self::Report) -> Option<String> {
        None
    }
}

/// A report whose bootstrap intervals are still to compute ([`MeanIntervals`]), and the one
/// function that puts them in their rows.
pub struct Unfinished<R> {
    pub report: R,
    pub intervals: MeanIntervals,
    put: fn(&mut R, &[Option<Interval>]),
}

impl<R> Unfinished<R> {
    /// `put` takes the intervals in the order `intervals` asked for them.
    pub fn new(report: R, intervals: MeanIntervals, put: fn(&mut R, &[Option<Interval>])) -> Self {
        Unfinished { report, intervals, put }
    }

    /// A finished report: nothing left to compute.
    pub fn done(report: R) -> Self {
        Unfinished::new(report, MeanIntervals::new(0, 0, 0.95), |_, _| {})
    }

    /// The report with its intervals computed here, on this thread (and natively on every core).
    pub fn compute(self) -> R {
        let intervals = self.intervals.compute();
        self.finish(&intervals)
    }

    /// The report with `intervals` computed elsewhere, in the order asked
    /// ([`MeanIntervals::halves`] and [`crate::stats::deferred::Halves::join`]).
    pub fn finish(mut self, intervals: &[Option<Interval>]) -> R {
        (self.put)(&mut self.report, intervals);
        self.report
    }

    /// The intervals asked for, leaving none here (to send them elsewhere and [`Self::finish`]
    /// with the answers).
    pub fn take_intervals(&mut self) -> MeanIntervals {
        let empty = MeanIntervals::new(self.intervals.resamples, self.intervals.seed, self.intervals.confidence);
        std::mem::replace(&mut self.intervals, empty)
    }
}

/// `detail` of a capability without drill-downs.
pub fn no_detail<C: Capability>() -> Result<C::DetailView> {
    Err(Error::setting("detail", format!("`{}` has no drill-down", C::ANALYSIS)))
}

/// Each file with its role: `stated` when given (a CLI option, a viewer override; it must be
/// one of `C::ROLES`), else detected from the content.
pub fn assign_roles<C: Capability>(files: Vec<(InputFile, Option<FileRole>)>) -> Result<Vec<RoleFile>> {
    let roles = detect_roles::<C>(&files)?;
    Ok(with_roles(files, roles))
}

/// Each file with its role and detected role ([`detect_roles`]'s, in the same order).
pub fn with_roles(files: Vec<(InputFile, Option<FileRole>)>, roles: Vec<(FileRole, FileRole)>) -> Vec<RoleFile> {
    files.into_iter().zip(roles).map(|((file, _), (role, detected))| RoleFile { file, role, detected }).collect()
}

/// The role and the detected role of each file ([`assign_roles`] without taking the files, so
/// that a caller can still look at a file it refused).
pub fn detect_roles<C: Capability>(files: &[(InputFile, Option<FileRole>)]) -> Result<Vec<(FileRole, FileRole)>> {
    files
        .iter()
        .map(|(file, stated)| {
            let stated = *stated;
            if let Some(r) = stated
                && !C::ROLES.contains(&r)
            {
                return Err(Error::Ingest(IngestError::new(
                    Location::file(&file.name),
                    format!(
                        "a `{}` file is not an input of `{}` (its inputs: {})",
                        r.name(),
                        C::ANALYSIS,
                        C::ROLES.iter().map(|r| r.name()).collect::<Vec<_>>().join(", ")
                    ),
                )));
            }
            let detected = match C::detect(file) {
                Ok(d) => d,
                Err(e) => match stated {
                    Some(s) => s,
                    // A file over its budgets is refused for that, not for its content, which
                    // detection could not read.
                    None => return Err(file.over_budget().map_or(e, Error::Ingest)),
                },
            };
            Ok((stated.unwrap_or(detected), detected))
        })
        .collect()
}

/// The files of `role`.
pub fn of_role(files: &[RoleFile], role: FileRole) -> impl Iterator<Item = &RoleFile> {
    files.iter().filter(move |f| f.role == role)
}

/// Validate, load and run once (the CLI).
pub fn run_once<C: Capability>(
    files: &[RoleFile],
    request: &C::Request,
    progress: Progress<'_>,
) -> Result<(C::Loaded, C::Report)> {
    request.validate()?;
    let names = file_names(files);
    let loaded = load_scaled::<C>(files, request, progress).map_err(|e| located(e, &names))?;
    let report = run_scaled::<C>(&loaded, request, LOAD_SHARE, progress).map_err(|e| located(e, &names))?;
    Ok((loaded, report.compute()))
}

/// The names of `files`, as [`located`] cites them.
fn file_names(files: &[RoleFile]) -> Vec<String> {
    files.iter().map(|f| f.file.name.clone()).collect()
}

/// `e` with the files it is about: a refusal of the data as a whole ("nothing to score", a
/// pairing refused) names the files it was read from, as every input error names its file.
/// Errors that already name a file, and refusals of settings, are unchanged.
pub fn located(e: Error, names: &[String]) -> Error {
    match e {
        Error::Empty(m) => Error::Empty(cite_files(&m, names)),
        Error::Unpaired { message } => Error::Unpaired { message: cite_files(&message, names) },
        other => other,
    }
}

/// `message` with the files it was read from, unless it names one already (or there are none).
pub fn cite_files(message: &str, names: &[String]) -> String {
    if names.is_empty() || names.iter().any(|n| message.contains(n.as_str())) {
        message.to_string()
    } else {
        format!("{message} (read from {})", names.join(", "))
    }
}

/// Share of a job's progress bar given to loading when a job loads and runs.
const LOAD_SHARE: f64 = 0.5;

fn load_scaled<C: Capability>(files: &[RoleFile], request: &C::Request, progress: Progress<'_>) -> Result<C::Loaded> {
    C::load(files, request, &mut |p, s, f| progress(p, s, LOAD_SHARE * f.clamp(0.0, 1.0)))
}

fn run_scaled<C: Capability>(
    loaded: &C::Loaded,
    request: &C::Request,
    base: f64,
    progress: Progress<'_>,
) -> Result<Unfinished<C::Report>> {
    C::run_unfinished(loaded, request, &mut |p, s, f| progress(p, s, base + (1.0 - base) * f.clamp(0.0, 1.0)))
}

/// A report inside the version envelope every JSON output has: `memaudit_version` first,
/// then a capability report's `headlines`, then the report's keys in their order (serialise it
/// with `serde_json`; the report must be a JSON object).
#[derive(Serialize)]
pub struct Envelope<'a, R: Serialize> {
    pub memaudit_version: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub headlines: Option<Vec<Headline>>,
    #[serde(flatten)]
    pub report: &'a R,
}

/// `report` in the version envelope (a drill-down, a refusal: no headlines).
pub fn envelope<R: Serialize>(report: &R) -> Envelope<'_, R> {
    Envelope { memaudit_version: VERSION, headlines: None, report }
}

/// A capability's report in the version envelope, with its headlines.
pub fn report_envelope<C: Capability>(report: &C::Report) -> Envelope<'_, C::Report> {
    envelope_with(report, C::headlines(report))
}

/// `report` in the version envelope with `headlines` (ranked here; settings they mention named
/// by their keys, [`crate::headline::settings_key`]).
pub fn envelope_with<R: Serialize>(report: &R, headlines: Vec<Headline>) -> Envelope<'_, R> {
    let named = headlines.into_iter().map(|h| h.in_words(&crate::headline::settings_key)).collect();
    Envelope { memaudit_version: VERSION, headlines: Some(crate::headline::rank(named)), report }
}

/// A report's headlines, most severe first ([`crate::headline::rank`]), settings they mention
/// named by their keys ([`crate::headline::settings_key`]).
pub fn headlines<C: Capability>(report: &C::Report) -> Vec<Headline> {
    headlines_in::<C>(report, &crate::headline::settings_key)
}

/// A report's headlines, most severe first, with the settings they mention still marked
/// ([`crate::fields::mention`]): for an interface that names them itself ([`Headline::in_words`]),
/// as the viewer's page does with the worker's headlines.
pub fn headlines_marked<C: Capability>(report: &C::Report) -> Vec<Headline> {
    crate::headline::rank(C::headlines(report))
}

/// [`headlines`] with the settings they mention named by `word` (an interface's words).
pub fn headlines_in<C: Capability>(report: &C::Report, word: &dyn Fn(&str) -> String) -> Vec<Headline> {
    crate::headline::rank(C::headlines(report)).into_iter().map(|h| h.in_words(word)).collect()
}

/// The text report: "What the data says" first, then [`Capability::render_text`].
pub fn report_text<C: Capability>(report: &C::Report) -> String {
    report_text_in::<C>(report, &crate::headline::settings_key)
}

/// [`report_text`] with the settings its headlines mention named by `word`.
pub fn report_text_in<C: Capability>(report: &C::Report, word: &dyn Fn(&str) -> String) -> String {
    if !C::HEADLINES_IN_TEXT {
        return C::render_text(report);
    }
    format!("{}{}", crate::headline::render_text(&headlines_in::<C>(report, word)), C::render_text(report))
}

/// The kept state of one capability between runs (a viewer page's data in the worker): the
/// loaded inputs and the request they were loaded under.
pub struct Session<C: Capability> {
    kept: Option<(C::Loaded, C::Request)>,
    /// The names of the kept inputs' files (cited by [`located`] errors).
    names: Vec<String>,
}

impl<C: Capability> Default for Session<C> {
    fn default() -> Self {
        Session { kept: None, names: Vec::new() }
    }
}

impl<C: Capability> std::fmt::Debug for Session<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Session<{}>({})", C::ANALYSIS, if self.kept.is_some() { "loaded" } else { "empty" })
    }
}

/// A failed [`Session::run_unfinished`]: the error and, when new files were read but the run failed on
/// its settings (a pairing refused, an arm that does not exist), the overview of those files,
/// which are kept: the user fixes the settings, not the files.
#[derive(Debug, Clone, PartialEq)]
pub struct RunError<O> {
    pub error: Error,
    pub overview: Option<O>,
}

impl<O> From<Error> for RunError<O> {
    fn from(error: Error) -> Self {
        RunError { error, overview: None }
    }
}

/// What [`Session::run_unfinished`] returns: the report's intervals still to compute.
pub type UnfinishedResult<C> = std::result::Result<
    Outcome<<C as Capability>::Overview, Unfinished<<C as Capability>::Report>>,
    RunError<<C as Capability>::Overview>,
>;

/// The result of a [`Session::run_unfinished`]: the report, and the overview after a (re)load.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Outcome<O, R> {
    pub overview: Option<O>,
    pub report: R,
    /// The report's headlines when the worker computed them ([`headlines`]; empty from
    /// [`Session::run_unfinished`]): the page shows and exports these, so it carries no
    /// capability's headline code.
    #[serde(default)]
    pub headlines: Vec<Headline>,
}

impl<C: Capability> Session<C> {
    pub fn has_data(&self) -> bool {
        self.kept.is_some()
    }

    /// Whether running `request` needs the files again (nothing kept, or a reading option changed).
    pub fn needs_files(&self, request: &C::Request) -> bool {
        match &self.kept {
            None => true,
            Some((_, old)) => C::reload(old, request),
        }
    }

    /// Runs `request` on new `files` or, with `None`, on the kept inputs, with the report's
    /// bootstrap intervals left to compute ([`Capability::run_unfinished`]; the viewer's worker
    /// shares them with a helper). New files replace the kept ones only when they are read
    /// without error (a bad file never replaces good data); when they read but the run fails on
    /// its settings they are kept, and the error carries their overview ([`RunError`]).
    pub fn run_unfinished(
        &mut self,
        files: Option<&[RoleFile]>,
        request: &C::Request,
        progress: Progress<'_>,
    ) -> UnfinishedResult<C> {
        request.validate()?;
        match files {
            Some(files) => {
                let names = file_names(files);
                let loaded = load_scaled::<C>(files, request, progress).map_err(|e| located(e, &names))?;
                let overview = C::overview(&loaded);
                let result = run_scaled::<C>(&loaded, request, LOAD_SHARE, progress);
                self.kept = Some((loaded, request.clone()));
                self.names = names;
                match result {
                    Ok(report) => Ok(Outcome { overview: Some(overview), report, headlines: Vec::new() }),
                    Err(error) => Err(RunError { error: located(error, &self.names), overview: Some(overview) }),
                }
            }
            None => {
                if self.needs_files(request) && self.kept.is_some() {
                    return Err(Error::setting(
                        "files",
                        "these settings change how the files are read: send the files again",
                    )
                    .into());
                }
                let (loaded, kept_request) = self.kept.as_mut().ok_or_else(nothing_loaded)?;
                let report = run_scaled::<C>(loaded, request, 0.0, progress).map_err(|e| located(e, &self.names))?;
                *kept_request = request.clone();
                Ok(Outcome { overview: None, report, headlines: Vec::new() })
            }
        }
    }

    /// A drill-down on the kept inputs.
    pub fn detail(&self, request: &C::Request, detail: &C::Detail) -> Result<C::DetailView> {
        request.validate()?;
        C::detail(self.kept.as_ref().map(|(loaded, _)| loaded), request, detail)
    }

    /// Forgets the kept inputs.
    pub fn clear(&mut self) {
        self.kept = None;
        self.names.clear();
    }
}

/// The error of a question that needs loaded inputs when there are none.
pub fn nothing_loaded() -> Error {
    Error::Empty("no data loaded yet: drop files or try the demo first".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::{ChunkedSource, share};

    /// Files hashed while read take their digest from the work's own reading, the others are
    /// hashed beside it; every digest is the file's, in the files' order, and a file the work
    /// does not read to its end is read again to be hashed.
    #[test]
    fn fingerprints_come_from_the_reading_or_beside_it_in_order() {
        let bytes = |n: usize| (0..n).map(|i| (i % 251) as u8).collect::<Vec<u8>>();
        let role = |file: InputFile| RoleFile { file, role: FileRole::Runs, detected: FileRole::Runs };
        let (a, b, c) = (bytes(300_000), bytes(1000), bytes(200_000));
        let want: Vec<String> = [&a, &b, &c].iter().map(|x| crate::ingest::digest::sha256_hex(x)).collect();
        let streamed = |x: &Vec<u8>| {
            let source = ChunkedSource::new(x.clone(), 4096);
            let opened = source.opened();
            (InputFile::streamed("s", share(source)).hashed_while_read(), opened)
        };
        let (fa, opened_a) = streamed(&a);
        let (fc, opened_c) = streamed(&c);
        let files = [role(fa), role(InputFile::new("held", b.clone())), role(fc)];
        let refs: Vec<&RoleFile> = files.iter().collect();
        let (read, hashes) = fingerprints_while(&refs, || {
            // The first file read to its end, the third only in part.
            let mut all = Vec::new();
            files[0].file.reader().unwrap().0.read_to_end(&mut all).unwrap();
            let mut part = [0u8; 10];
            files[2].file.reader().unwrap().0.read_exact(&mut part).unwrap();
            all.len()
        });
        assert_eq!(read, a.len());
        assert_eq!(hashes.unwrap(), want);
        let load = |o: &std::sync::Arc<std::sync::atomic::AtomicUsize>| o.load(std::sync::atomic::Ordering::SeqCst);
        assert_eq!((load(&opened_a), load(&opened_c)), (1, 2), "read once; read again to be hashed");
    }
}
