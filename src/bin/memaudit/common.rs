//! What every subcommand shares: reading the input files with their roles, running a core
//! capability, and one emitter (JSON in the version envelope, CSV by table enum, text, LaTeX),
//! plus the failure type that maps to exit codes (2: bad input or settings, 1: I/O).

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};

use memaudit::capability::{self, Capability, FileRole, RoleFile, envelope, quiet, report_envelope};
use memaudit::choice::Choice;
use memaudit::error::Error;
use memaudit::ingest::{InputFile, Limits};

/// A capability's subcommand: its arguments and what it does with them. `main` makes one
/// subcommand of each capability in the core's list ([`memaudit::capabilities!`]), named and
/// described by the capability (`Analysis`, `Capability::ABOUT`).
pub(crate) trait Subcommand: memaudit::capability::Capability {
    type Args: clap::Args + clap::FromArgMatches;
    fn run(args: Self::Args) -> Result<(), Failure>;
}

/// A failure with the exit code it maps to: 2 for bad input or settings, 1 for I/O.
pub(crate) struct Failure {
    pub(crate) message: String,
    pub(crate) code: u8,
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        let code = if matches!(e, Error::Output { .. }) { 1 } else { 2 };
        // A setting the core mentions is named as the command line spells it (`--item`).
        let message = memaudit::fields::render_mentions(&e.to_string(), memaudit::command_line::word);
        Failure { message, code }
    }
}

impl From<memaudit::error::IngestError> for Failure {
    fn from(e: memaudit::error::IngestError) -> Self {
        Failure::from(Error::from(e))
    }
}

/// A refusal of the arguments (exit code 2).
pub(crate) fn fail(e: impl std::fmt::Display) -> Failure {
    Failure { message: e.to_string(), code: 2 }
}

pub(crate) fn io_failure(what: &Path, e: std::io::Error) -> Failure {
    Failure { message: format!("{}: {e}", what.display()), code: 1 }
}

/// The budgets of every input file of this run (`--max-bytes`, `--max-rows`), set once by
/// `main` before any file is read.
static LIMITS: std::sync::OnceLock<Limits> = std::sync::OnceLock::new();

/// Sets the run's budgets (checked first: a budget of 0 or past the ceiling is refused).
pub(crate) fn set_limits(limits: Limits) -> Result<(), Failure> {
    limits.validate()?;
    let _ = LIMITS.set(limits);
    Ok(())
}

/// The run's budgets.
pub(crate) fn limits() -> Limits {
    LIMITS.get().copied().unwrap_or_default()
}

/// A byte count as given to `--max-bytes`: digits with an optional K, M, G or T (powers of
/// 1024; a trailing `B` or `iB` is allowed): `500M`, `2G`, `1073741824`.
pub(crate) fn parse_bytes(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let t = t.strip_suffix("iB").or_else(|| t.strip_suffix('B')).unwrap_or(t);
    let (digits, shift) = match t.chars().last().map(|c| c.to_ascii_uppercase()) {
        Some('K') => (&t[..t.len() - 1], 10),
        Some('M') => (&t[..t.len() - 1], 20),
        Some('G') => (&t[..t.len() - 1], 30),
        Some('T') => (&t[..t.len() - 1], 40),
        _ => (t, 0),
    };
    let n: u64 =
        digits.trim().parse().map_err(|_| format!("`{s}` is not a size: give bytes, or a number with K, M, G or T"))?;
    n.checked_mul(1u64 << shift).ok_or_else(|| format!("`{s}` is too large"))
}

/// Reads a file whole under the run's budgets: one stored larger than `--max-bytes` is refused
/// before it is read.
pub(crate) fn read_path(p: &Path) -> Result<InputFile, Failure> {
    open_path(p, false)
}

/// Opens a file for a capability: read whole, or when the capability streams
/// ([`memaudit::capability::Analysis::streams`]) and it is a regular file, opened as a
/// [`memaudit::ingest::PathSource`] that its readers read one line at a time (a 264 MB run is
/// never held whole). A pipe (`<(zcat runs.gz)`) is read whole: a stream is opened once per
/// pass (records, fingerprint), and a pipe gives its bytes once. Either way a file that cannot
/// be opened is refused here, and one stored larger than `--max-bytes` before it is read.
pub(crate) fn open_path(p: &Path, stream: bool) -> Result<InputFile, Failure> {
    let limits = limits();
    let name = p.display().to_string();
    let meta = std::fs::metadata(p).map_err(|e| io_failure(p, e))?;
    let len = meta.len();
    if len > limits.max_bytes {
        return Err(limits.too_many_bytes(&name, "holds").into());
    }
    if stream && meta.is_file() {
        std::fs::File::open(p).map_err(|e| io_failure(p, e))?;
        let source = memaudit::ingest::PathSource { path: p.to_path_buf(), len };
        // Its SHA-256 comes from the bytes its reader reads (one pass over the file, not two).
        return Ok(InputFile::streamed(name, memaudit::ingest::share(source)).with_limits(limits).hashed_while_read());
    }
    let bytes = if meta.is_file() {
        std::fs::read(p).map_err(|e| io_failure(p, e))?
    } else {
        // A pipe has no size up front: read no further than one byte past the budget.
        let file = std::fs::File::open(p).map_err(|e| io_failure(p, e))?;
        memaudit::ingest::read_at_most(file, limits.max_bytes)
            .map_err(|e| io_failure(p, e))?
            .ok_or_else(|| limits.too_many_bytes(&name, "holds"))?
    };
    Ok(InputFile::new(name, bytes).with_limits(limits))
}

/// The output format of a subcommand.
#[derive(Copy, Clone, ValueEnum, PartialEq, Default)]
pub(crate) enum OutFormat {
    Json,
    Csv,
    #[default]
    Table,
    /// LaTeX (`memaudit compare` only).
    Latex,
}

/// The output options every subcommand has; `T` is its capability's table enum.
#[derive(Args, Clone)]
pub(crate) struct Output<T: ValueEnum + Choice + Send + Sync + 'static> {
    /// Output format: json (the report in the version envelope), csv (one --table), table (text).
    #[arg(long, value_enum, default_value_t = OutFormat::Table)]
    pub(crate) format: OutFormat,
    /// With --format csv: which table (default: the first).
    #[arg(long, value_enum, alias = "csv-table")]
    pub(crate) table: Option<T>,
    /// Also write the JSON report, every table as CSV (and LaTeX where offered) into this directory.
    #[arg(long)]
    pub(crate) out_dir: Option<PathBuf>,
    /// Pretty-print JSON.
    #[arg(long)]
    pub(crate) pretty: bool,
    /// CSV cells exactly as they are: by default a text cell starting with = + - @, a tab or a
    /// carriage return gets a leading ' so that spreadsheets show it as text, not run it.
    #[arg(long)]
    pub(crate) csv_raw: bool,
    /// Also write the report to attach: one self-contained HTML file (headlines, every table,
    /// every plot as inline SVG, settings, input files with SHA-256, version; no script, no
    /// request). `-` prints it instead of the --format output.
    #[arg(long, value_name = "FILE")]
    pub(crate) html: Option<PathBuf>,
    /// Also write the report to attach as Markdown (`-`: print it instead).
    #[arg(long, value_name = "FILE")]
    pub(crate) markdown: Option<PathBuf>,
    /// Also write every plot of the report as an SVG file into this directory.
    #[arg(long, value_name = "DIR")]
    pub(crate) plots: Option<PathBuf>,
    /// Check a paper's printed numbers against this report's tables: FILE names each number's
    /// table, row and column (docs/formats.md, "Printed numbers"); prints the check (its verdicts,
    /// in --format table, json or csv) instead of the report. `memaudit verify --printed FILE
    /// SUBCOMMAND ARGS…` is the same.
    #[arg(long = "printed", id = "printed_numbers", value_name = "FILE")]
    pub(crate) printed: Option<PathBuf>,
}

impl<T: ValueEnum + Choice + Send + Sync + 'static> Output<T> {
    fn csv(&self, table: &memaudit::report::Table) -> Result<String, Failure> {
        Ok(if self.csv_raw { table.to_csv_raw()? } else { table.to_csv()? })
    }
}

/// A note on stderr, its control characters made visible; an unwritable stderr is ignored (a
/// note is never worth a failure).
pub(crate) fn note(text: &str) {
    let _ = writeln!(std::io::stderr(), "{}", memaudit::report::terminal_safe(text));
}

/// Writes to stdout; a closed pipe or a full disk is a failure with a message, never a panic.
pub(crate) fn print(text: &str) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|_| out.flush())
        .map_err(|e| Failure { message: format!("could not write the output: {e}"), code: 1 })
}

pub(crate) fn write(path: &Path, text: &str) -> Result<(), Failure> {
    std::fs::write(path, text).map_err(|e| io_failure(path, e))
}

/// A value as JSON (the capability reports go through [`json_report`]).
pub(crate) fn json<T: serde::Serialize>(v: &T, pretty: bool) -> Result<String, Failure> {
    let r = if pretty { serde_json::to_string_pretty(v) } else { serde_json::to_string(v) };
    r.map_err(|e| Failure { message: format!("could not serialise output: {e}"), code: 1 })
}

/// A value in the version envelope every JSON output has (a capability's report goes through
/// [`emit`], which adds its headlines).
pub(crate) fn json_report<R: serde::Serialize>(report: &R, pretty: bool) -> Result<String, Failure> {
    json(&envelope(report), pretty)
}

/// Reads each file given with a stated role (an option) or `None` (detected from the content),
/// and gives each its role.
pub(crate) fn inputs<C: Capability>(given: Vec<(PathBuf, Option<FileRole>)>) -> Result<Vec<RoleFile>, Failure> {
    let mut files = Vec::with_capacity(given.len());
    for (path, role) in given {
        files.push((open_path(&path, C::STREAMS)?, role));
    }
    let roles = capability::detect_roles::<C>(&files).map_err(|e| {
        let mut f = Failure::from(e.clone());
        if let Error::Ingest(i) = &e
            && let Some((file, _)) = files.iter().find(|(f, _)| f.name == i.location.file)
        {
            f.message.push_str(&elsewhere::<C>(file, false));
        }
        f
    })?;
    Ok(capability::with_roles(files, roles))
}

/// Where a file this subcommand cannot read belongs, when another one reads it as its own
/// (`; its content is per-task compliance rows (…), an input of memaudit compliance`; `named`:
/// the file's name instead of "its content", for a refusal of the files as a whole).
fn elsewhere<C: Capability>(file: &memaudit::ingest::InputFile, named: bool) -> String {
    match memaudit::release::triage::elsewhere(file, C::ANALYSIS).first() {
        Some((a, r)) => {
            let who = if named { format!("{} is", file.name) } else { "its content is".to_string() };
            format!("; {who} {} ({}), an input of `memaudit {a}`", r.role.describe(), r.evidence)
        }
        None => String::new(),
    }
}

/// A reading failure names the option the file's content suggests when it was given under
/// another one ("its content looks like a file for --claims").
fn hint<C: Capability>(e: Error, files: &[RoleFile]) -> Failure {
    let mut f = Failure::from(e.clone());
    if let Error::Ingest(i) = &e {
        // The same file may be given under two options: hint when one of them is not what it looks like.
        let named: Vec<&RoleFile> = files.iter().filter(|f| f.file.name == i.location.file).collect();
        if let Some(file) = named.first()
            && let Ok(seen) = C::detect(&file.file)
            && seen != FileRole::Data
            // Rescoring detects every retrieval format while reading: "retrieval" says nothing.
            && seen != FileRole::Retrieval
            && named.iter().any(|f| f.role != seen)
        {
            f.message.push_str(&format!(
                "; its content looks like a file for {}",
                memaudit::command_line::role_option(seen)
            ));
        } else if let Some(file) = named.first() {
            f.message.push_str(&elsewhere::<C>(&file.file, false));
        }
    } else if matches!(e, Error::Empty(_) | Error::Unpaired { .. }) {
        // Nothing to analyse: a file another subcommand reads as its own says so.
        if let Some(h) = files.iter().map(|r| elsewhere::<C>(&r.file, true)).find(|h| !h.is_empty()) {
            f.message.push_str(&h);
        }
    }
    f
}

/// Validates the request, reads the files and runs the capability.
pub(crate) fn run<C: Capability>(files: &[RoleFile], request: &C::Request) -> Result<(C::Loaded, C::Report), Failure> {
    capability::run_once::<C>(files, request, &mut quiet()).map_err(|e| hint::<C>(e, files))
}

/// A drill-down on freshly read files.
pub(crate) fn detail<C: Capability>(
    files: &[RoleFile],
    request: &C::Request,
    detail: &C::Detail,
) -> Result<C::DetailView, Failure> {
    use memaudit::capability::Validate;
    request.validate()?;
    let loaded = C::load(files, request, &mut quiet()).map_err(|e| hint::<C>(e, files))?;
    Ok(C::detail(Some(&loaded), request, detail)?)
}

/// One item as the files state it (`--show-item`): its JSON, or with `--format csv` a row per
/// cell whose first column is `who` (`rater`, `arm`).
pub(crate) fn print_item_text(
    text: &memaudit::report::instance::ItemText,
    who: &str,
    format: OutFormat,
) -> Result<(), Failure> {
    if format == OutFormat::Csv {
        print(&memaudit::report::instance::table(text, who).to_csv().map_err(fail)?)
    } else {
        print(&format!("{}\n", json_report(text, true)?))
    }
}

/// Writes `text` to `path`, or prints it when `path` is `-`.
fn write_or_print(path: &Path, text: &str) -> Result<(), Failure> {
    if path == Path::new("-") { print(text) } else { write(path, text) }
}

/// The report to attach (`--html`, `--markdown`) and the plots (`--plots`); `true` when one of
/// them was printed, replacing the `--format` output.
fn attach<C: Capability>(report: &C::Report, loaded: &C::Loaded, out: &Output<C::Table>) -> Result<bool, Failure>
where
    C::Table: ValueEnum + Send + Sync,
{
    if out.html.is_none() && out.markdown.is_none() && out.plots.is_none() {
        return Ok(false);
    }
    let made_by = format!("memaudit {} (CLI)", C::ANALYSIS);
    // The same list of input files as the viewer's (`Capability::inputs`).
    let inputs = C::inputs(&C::overview(loaded), report);
    let a = memaudit::attach::attachment::<C>(report, inputs, made_by);
    let mut printed = false;
    if let Some(p) = &out.html {
        write_or_print(p, &memaudit::attach::html(&a))?;
        printed |= p == Path::new("-");
    }
    if let Some(p) = &out.markdown {
        write_or_print(p, &memaudit::attach::markdown(&a))?;
        printed |= p == Path::new("-");
    }
    if let Some(dir) = &out.plots {
        std::fs::create_dir_all(dir).map_err(|e| io_failure(dir, e))?;
        for (i, f) in a.figures.iter().enumerate() {
            write(&dir.join(memaudit::attach::figure_file_name(i, f)), &f.svg)?;
        }
        if a.figures.is_empty() {
            note(&format!("memaudit: note: `{}` draws no plot for this report; no SVG written", C::ANALYSIS));
        }
    }
    Ok(printed)
}

/// Prints a report in the chosen format (and writes `--out-dir`, the report to attach and the
/// plots when asked).
/// The check of the printed numbers of `path` against `report`, in the output's format.
fn emit_printed<C: Capability>(report: &C::Report, path: &Path, out: &Output<C::Table>) -> Result<(), Failure>
where
    C::Table: ValueEnum + Send + Sync,
{
    let printed = memaudit::printed::read(&read_path(path)?).map_err(fail)?;
    let check = memaudit::printed::check::<C>(report, &printed);
    match out.format {
        OutFormat::Json => {
            let headlines = memaudit::printed::table::headlines(&check);
            print(&format!("{}\n", json(&memaudit::capability::envelope_with(&check, headlines), out.pretty)?))
        }
        OutFormat::Csv => print(&out.csv(&memaudit::printed::table::table(&check))?),
        OutFormat::Table => print(&memaudit::report::terminal_safe(&memaudit::printed::table::render_text(&check))),
        OutFormat::Latex => Err(fail("the printed-numbers check has no LaTeX output: use json, csv or table")),
    }
}

pub(crate) fn emit<C: Capability>(report: &C::Report, loaded: &C::Loaded, out: &Output<C::Table>) -> Result<(), Failure>
where
    C::Table: ValueEnum + Send + Sync,
{
    if let Some(path) = &out.printed {
        return emit_printed::<C>(report, path, out);
    }
    if attach::<C>(report, loaded, out)? {
        return Ok(());
    }
    if let Some(dir) = &out.out_dir {
        std::fs::create_dir_all(dir).map_err(|e| io_failure(dir, e))?;
        let stem = if C::ANALYSIS == memaudit::capability::Analysis::Compare { "comparison" } else { "report" };
        write(&dir.join(format!("{stem}.json")), &json(&report_envelope::<C>(report), true)?)?;
        for &t in C::Table::ALL {
            // A table the report cannot have (e.g. a diff without --diff) is not written.
            if let Ok(table) = C::table(report, t) {
                write(&dir.join(format!("{}.csv", t.name())), &out.csv(&table)?)?;
            }
        }
        if let Some(tex) = C::latex(report) {
            write(&dir.join(format!("{stem}.tex")), &tex)?;
        }
    }
    match out.format {
        OutFormat::Json => print(&format!("{}\n", json(&report_envelope::<C>(report), out.pretty)?)),
        OutFormat::Csv => {
            let which = out.table.unwrap_or(C::Table::ALL[0]);
            print(&out.csv(&C::table(report, which)?)?)
        }
        OutFormat::Table => print(&memaudit::report::terminal_safe(&capability::report_text_in::<C>(
            report,
            &memaudit::command_line::word,
        ))),
        OutFormat::Latex => match C::latex(report) {
            Some(tex) => print(&tex),
            None => Err(fail(format!("`memaudit {}` has no LaTeX output: use json, csv or table", C::ANALYSIS))),
        },
    }
}
