//! IR evaluation as one capability ([`TrecEval`]): `memaudit trec-eval` and the viewer's IR
//! evaluation page. One qrels file and one or more runs (TREC text or dict-of-dicts JSON, each
//! file's role detected from its content); every run evaluated as trec_eval does, and with two
//! or more runs a paired comparison of one measure over the queries every run was evaluated
//! on, by the statistics engine of `memaudit compare`.

use serde::{Deserialize, Serialize};

use super::evaluate::{EvalOptions, Evaluator, RunEvaluation, Value, evaluate, trec_eval_text};
use super::files::{Flow, IrFileKind, Qrels, Run, detect, read_qrels_from, read_run_blocks, read_run_from};
use super::measure::{Selection, ValueType};
use super::table::{TrecEvalTable, table};
use crate::capability::prelude::*;
use crate::capability::{fingerprints_while, of_role};
use crate::compare::engine::{CompareInput, CompareSettings, Comparison, compare};
use crate::error::{IngestError, Location};
use crate::report::Table;

/// trec_eval's evaluation of runs against qrels, with paired statistics across runs.
pub struct TrecEval;

/// `memaudit trec-eval [-q] [-c] [-n] [-J] [-l N] [-M N] [-N N] [-m MEASURE]… QRELS RUN…`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrecEvalRequest {
    /// `-m`: trec_eval measure names with parameters (`P.5,10`), nicknames (`official`,
    /// `all_trec`, `set`) or ir-measures names (`nDCG@10`); none means `official`.
    pub measures: Vec<String>,
    /// `-q`: print every query's values before the summary.
    pub per_query: bool,
    /// `-n` turns it off: print the summary over all queries.
    pub summary: bool,
    pub options: EvalOptions,
    /// The measure value compared across runs (`map`, `ndcg_cut_10`; default: `map` when
    /// selected, else the first per-query value).
    pub compare_measure: Option<String>,
    pub compare: CompareSettings,
}

impl Default for TrecEvalRequest {
    fn default() -> Self {
        TrecEvalRequest {
            measures: Vec::new(),
            per_query: false,
            summary: true,
            options: EvalOptions::default(),
            compare_measure: None,
            compare: CompareSettings::default(),
        }
    }
}

impl TrecEvalRequest {
    /// The measures selected.
    pub fn selection(&self) -> Result<Selection> {
        Selection::parse(&self.measures, self.options.version)
    }

    /// The value compared across runs.
    pub fn compared_value(&self, selection: &Selection) -> Result<String> {
        let names: Vec<(&str, bool)> = selection
            .measures
            .iter()
            .flat_map(|m| {
                m.names
                    .iter()
                    .map(move |n| (n.as_str(), m.kind.per_query() && m.kind.value_type() == ValueType::Double))
            })
            .collect();
        match &self.compare_measure {
            Some(want) => match names.iter().find(|(n, _)| n == want) {
                Some((_, true)) => Ok(want.clone()),
                Some((_, false)) => {
                    Err(Error::setting("compare-measure", format!("`{want}` has no per-query value to compare")))
                }
                None => Err(Error::setting(
                    "compare-measure",
                    format!(
                        "`{want}` is not among the values computed ({}); add it with -m",
                        names.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
                    ),
                )),
            },
            None => names
                .iter()
                .find(|(n, ok)| *ok && *n == "map")
                .or_else(|| names.iter().find(|(_, ok)| *ok))
                .map(|(n, _)| n.to_string())
                .ok_or_else(|| {
                    Error::setting("compare-measure", "no selected measure has per-query values to compare")
                }),
        }
    }
}

impl Validate for TrecEvalRequest {
    fn validate(&self) -> Result<()> {
        let selection = self.selection()?;
        if self.options.max_per_topic == Some(0) {
            return Err(Error::setting("M", "the evaluation depth must be at least 1"));
        }
        self.compare.validate()?;
        self.compared_value(&selection).map(|_| ())
    }
}

/// The qrels read, and each run evaluated as it was read: a run's rankings are never kept, so
/// memory follows its largest query, not its size ([`Evaluator`]). The measures and options are
/// reading settings ([`Capability::reload`]).
#[derive(Debug, Clone)]
pub struct LoadedIr {
    pub qrels: Qrels,
    pub runs: Vec<LoadedRun>,
    pub files: Vec<FileSummary>,
}

/// One run as read: what it holds, and its evaluation (or why it could not be evaluated: the
/// files are still shown).
#[derive(Debug, Clone)]
pub struct LoadedRun {
    pub summary: RunSummary,
    pub lines: usize,
    pub evaluation: Result<RunEvaluation>,
    /// How it was read, when not one query at a time (its queries are not together in the file).
    pub read_whole: Option<String>,
}

/// What the page shows of the files read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IrOverview {
    pub files: Vec<FileSummary>,
    pub qrels: QrelsSummary,
    pub runs: Vec<RunSummary>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QrelsSummary {
    pub file: String,
    pub queries: usize,
    pub judgments: usize,
    /// Judgments with a value > 0.
    pub relevant: usize,
    /// Queries judged without a relevant document (evaluated, scoring 0).
    pub queries_without_relevant: usize,
    pub comment_lines: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunSummary {
    pub file: String,
    pub runid: String,
    pub queries: usize,
    pub retrieved: usize,
    pub comment_lines: usize,
    /// Lines with fields after the sixth (ignored, as trec_eval does).
    pub lines_with_extra_fields: usize,
}

/// One run's evaluation with the file it came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvaluatedRun {
    pub file: String,
    #[serde(flatten)]
    pub evaluation: RunEvaluation,
}

/// Runs compared on one measure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunComparison {
    /// The value compared (`map`, `ndcg_cut_10`).
    pub measure: String,
    /// Queries evaluated in every run.
    pub queries: usize,
    pub comparison: Comparison,
}

/// The report of `memaudit trec-eval` (`--format json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrecEvalReport {
    pub settings: TrecEvalRequest,
    pub qrels: QrelsSummary,
    pub runs: Vec<EvaluatedRun>,
    pub comparison: Option<RunComparison>,
    /// What the reader and the evaluation noticed (queries skipped, unjudged documents, …).
    pub notes: Vec<String>,
}

fn summarize_qrels(q: &Qrels) -> QrelsSummary {
    QrelsSummary {
        file: q.name.clone(),
        queries: q.queries.len(),
        judgments: q.judgments(),
        relevant: q.queries.iter().map(|q| q.docs.iter().filter(|d| d.rel > 0).count()).sum(),
        queries_without_relevant: q.queries.iter().filter(|q| q.docs.iter().all(|d| d.rel <= 0)).count(),
        comment_lines: q.comments,
    }
}

fn summarize_run(r: &Run) -> RunSummary {
    RunSummary {
        file: r.name.clone(),
        runid: r.runid.clone(),
        queries: r.queries.len(),
        retrieved: r.retrieved(),
        comment_lines: r.comments,
        lines_with_extra_fields: r.lines_with_extra_fields,
    }
}

/// Reads one run and evaluates each query as its lines end. A run whose queries are not together
/// in the file is read a second time, whole, and evaluated as [`evaluate`] does (the same values).
/// An evaluation refused (a document retrieved twice) leaves the reading to its end, so that the
/// files read are still shown beside the refusal.
fn read_and_evaluate(
    f: &RoleFile,
    qrels: &Qrels,
    selection: &Selection,
    opts: &EvalOptions,
    report: &mut dyn FnMut(f64),
) -> Result<LoadedRun> {
    let name = &f.file.name;
    let max_bytes = f.file.limits().max_bytes;
    let mut evaluator = Evaluator::new(qrels, selection, opts, name);
    let (mut queries, mut refused, mut again) = (0usize, None::<IngestError>, None::<String>);
    let facts = read_run_blocks(name, &mut f.file.reader_reporting(&mut *report)?.0, max_bytes, &mut |qid, docs| {
        if refused.is_some() {
            queries += 1;
            return Ok(Flow::Go);
        }
        match evaluator.query(qid, docs) {
            Ok(true) => queries += 1,
            Ok(false) => {
                again = Some(qid.to_string());
                return Ok(Flow::Stop);
            }
            Err(e) => {
                refused = Some(e);
                queries += 1;
            }
        }
        Ok(Flow::Go)
    })?;
    match (facts, again) {
        (Some(facts), None) => Ok(LoadedRun {
            summary: RunSummary {
                file: facts.name.clone(),
                runid: facts.runid.clone(),
                queries,
                retrieved: facts.lines,
                comment_lines: facts.comments,
                lines_with_extra_fields: facts.lines_with_extra_fields,
            },
            lines: facts.lines,
            evaluation: match refused {
                Some(e) => Err(e.into()),
                None => evaluator.finish(&facts.runid),
            },
            read_whole: None,
        }),
        (_, qid) => {
            let run = read_run_from(name, &mut f.file.reader_reporting(report)?.0, max_bytes)?;
            Ok(LoadedRun {
                summary: summarize_run(&run),
                lines: run.lines,
                evaluation: evaluate(qrels, &run, selection, opts),
                read_whole: Some(format!(
                    "{name} (run id {}): query `{}` is ranked in more than one place of the file, so the run was \
                     held whole to evaluate it (its values are the same; memory grows with the run)",
                    run.runid,
                    qid.unwrap_or_default()
                )),
            })
        }
    }
}

/// `true` when a file name says qrels (`qrels.json`, `2024.qrels`, `trec_qrels`).
fn named_like_qrels(name: &str) -> bool {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name).to_ascii_lowercase();
    base.contains("qrel") || base.contains("judg")
}

crate::files_read!(IrOverview);

/// Whether a run and a qrels file are of the same queries: they share at least half the queries
/// of the smaller set (a run of the 200 queries of which 43 are judged; a run of 10 of 250). A
/// query id two collections happen to share (BERGEN's FEVER run and TREC DL 19's qrels share
/// one of thousands) does not make them one evaluation.
fn same_queries(a: &std::collections::HashSet<String>, b: &std::collections::HashSet<String>) -> bool {
    let (small, large) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    let shared = small.iter().filter(|q| large.contains(*q)).count();
    shared > 0 && 2 * shared >= small.len()
}

impl Capability for TrecEval {
    const ANALYSIS: Analysis = Analysis::TrecEval;
    const TITLE: &'static str = "IR evaluation";
    const ABOUT: &'static str = "trec_eval, same options, measures and output: evaluate TREC or ranx runs against qrels (several runs are also compared with paired statistics).";
    /// Its TREC (and, for rescoring, JSON Lines) readers take a file one line at a time.
    const STREAMS: bool = true;
    const ROLES: &'static [FileRole] = &[FileRole::Runs, FileRole::Qrels];
    const DEMO: &'static [Demo] = &[
        Demo::new("test.qrels", "tests/reference/trec_eval/test.qrels"),
        Demo::new("run_a.run", "tests/reference/trec_eval/run_a.run"),
        Demo::new("run_b.run", "tests/reference/trec_eval/run_b.run"),
    ];

    crate::capability_types!(
        request: TrecEvalRequest, loaded: LoadedIr, overview: IrOverview,
        report: TrecEvalReport, table: TrecEvalTable
    );

    /// TREC text by its fields; dict-of-dicts JSON with a non-integer value is a run, with only
    /// integers qrels when the name says so (`qrels`, `judgments`), else a run.
    fn detect(file: &InputFile) -> Result<FileRole> {
        let text = file.head_text()?;
        match detect(&text) {
            Some(IrFileKind::TrecQrels) => Ok(FileRole::Qrels),
            Some(IrFileKind::TrecRun | IrFileKind::JsonRun) => Ok(FileRole::Runs),
            Some(IrFileKind::JsonIntegers) => {
                Ok(if named_like_qrels(&file.name) { FileRole::Qrels } else { FileRole::Runs })
            }
            None => Err(Error::Ingest(IngestError::new(
                Location::file(&file.name),
                "neither a TREC qrels/run file (`qid iter docno rel` / `qid Q0 docno rank sim runid`) \
                 nor a {\"qid\": {\"docno\": value}} JSON run or qrels",
            ))),
        }
    }

    /// TREC runs and qrels (text or dict-of-dicts JSON), analysed by folder: a folder's runs
    /// against its qrels.
    fn recognise(s: &crate::ingest::sniff::Sniff<'_>) -> Option<crate::capability::Recognised> {
        use crate::capability::{Fit, Recognised};
        // A {"key": {"key": number}} JSON document is a run or qrels only beside TREC files: alone
        // it may be any summary of numbers (a companion); qrels by name are the evaluation's own.
        let (role, fit) = match crate::ingest::trec_eval_files::detect_routed(s.text.as_deref()?)? {
            IrFileKind::TrecQrels => (FileRole::Qrels, Fit::Specific),
            IrFileKind::TrecRun => (FileRole::Runs, Fit::Specific),
            IrFileKind::JsonRun | IrFileKind::JsonIntegers if named_like_qrels(&s.file.name) => {
                (FileRole::Qrels, Fit::Specific)
            }
            IrFileKind::JsonRun | IrFileKind::JsonIntegers => (FileRole::Runs, Fit::Companion),
        };
        Some(Recognised::new(role, fit, role.describe()).by_folder(&s.file.name))
    }

    /// Runs without qrels in their folder take the qrels of a folder nearby (trectools'
    /// `robust03/runs` beside `robust03/qrel`, BERGEN's `runs/` beside `qrels/`) when that
    /// folder holds qrels and no run, and a run is of their queries ([`same_queries`]; [`Self::split`]
    /// then gives each qrels the runs of its queries).
    fn completes(files: &[(&InputFile, FileRole)], donor: &[(&InputFile, FileRole)]) -> Option<String> {
        let only = |fs: &[(&InputFile, FileRole)], qrels: bool| {
            !fs.is_empty() && fs.iter().all(|(_, r)| (*r == FileRole::Qrels) == qrels)
        };
        if !only(files, false) || !only(donor, true) {
            return None;
        }
        let ids = |f: &InputFile| f.text().ok().and_then(|(t, _)| crate::ingest::trec_eval_files::query_ids(&t));
        // The group's runs read once; the donor's qrels one at a time, stopping at the first
        // that judges a run's queries (a folder of hundreds of qrels is rarely read whole).
        let runs: Vec<std::collections::HashSet<String>> = files.iter().filter_map(|(f, _)| ids(f)).collect();
        let a_run_shares =
            donor.iter().any(|(f, _)| ids(f).is_some_and(|judged| runs.iter().any(|run| same_queries(run, &judged))));
        a_run_shares.then(|| {
            let names: Vec<String> = donor.iter().map(|(f, _)| f.name.clone()).collect();
            format!(
                "the runs with the qrels {} of a folder nearby (no qrels in their own folder; they share queries)",
                crate::cells::some_of(&names)
            )
        })
    }

    /// A folder of several qrels (trec_eval's own `test/`, a collection's topic sets) is one
    /// evaluation per qrels file, each with the runs of its queries ([`same_queries`]; a run may
    /// go to several); runs of none are a run of their own, refused for want of qrels. Nothing is
    /// matched on names.
    fn split(files: &[(&InputFile, FileRole)]) -> Option<Vec<(Vec<usize>, String)>> {
        let qrels: Vec<usize> = (0..files.len()).filter(|&i| files[i].1 == FileRole::Qrels).collect();
        if qrels.is_empty() {
            return None;
        }
        // One qrels with the runs of its own folder is one evaluation, as trec_eval would make
        // it; with runs of another folder (joined by [`Self::completes`]), the runs that share no
        // query with it are said apart.
        let first = crate::ingest::folder_of(&files[0].0.name);
        if qrels.len() == 1 && files.iter().all(|(f, _)| crate::ingest::folder_of(&f.name) == first) {
            return None;
        }
        if qrels.len() == files.len() && qrels.len() > 1 {
            // A collection's qrels without any run (anserini-tools' 250): one run that says so
            // once, not one refusal per qrels file.
            return Some(vec![(qrels, format!("{} qrels files and no run", files.len()))]);
        }
        let ids: Vec<Option<std::collections::HashSet<String>>> = files
            .iter()
            .map(|(f, _)| f.text().ok().and_then(|(t, _)| crate::ingest::trec_eval_files::query_ids(&t)))
            .collect();
        let shares = |a: usize, b: usize| match (&ids[a], &ids[b]) {
            (Some(x), Some(y)) => same_queries(x, y),
            _ => false,
        };
        let runs: Vec<usize> = (0..files.len()).filter(|&i| files[i].1 != FileRole::Qrels).collect();
        let alone: Vec<usize> = runs.iter().copied().filter(|&r| !qrels.iter().any(|&q| shares(q, r))).collect();
        if qrels.len() == 1 {
            if alone.is_empty() || alone.len() == runs.len() {
                return None;
            }
            let with: Vec<usize> = (0..files.len()).filter(|i| !alone.contains(i)).collect();
            return Some(vec![
                (with, format!("the qrels `{}` with the runs of its queries", files[qrels[0]].0.name)),
                (alone, "the runs not of the qrels file's queries (they share less than half)".to_string()),
            ]);
        }
        let mut out: Vec<(Vec<usize>, String)> = qrels
            .iter()
            .map(|&q| {
                let mut members = vec![q];
                members.extend(runs.iter().copied().filter(|&r| shares(q, r)));
                members.sort_unstable();
                let why = format!(
                    "the qrels `{}` with the runs of its queries ({} qrels files here: one evaluation each)",
                    files[q].0.name,
                    qrels.len()
                );
                (members, why)
            })
            .collect();
        if !alone.is_empty() {
            out.push((alone, "the runs of no qrels file's queries here (each shares less than half)".to_string()));
        }
        Some(out)
    }

    fn load(files: &[RoleFile], request: &TrecEvalRequest, progress: Progress<'_>) -> Result<LoadedIr> {
        let qrels_files: Vec<&RoleFile> = of_role(files, FileRole::Qrels).collect();
        let run_files: Vec<&RoleFile> = of_role(files, FileRole::Runs).collect();
        if run_files.is_empty() && !qrels_files.is_empty() {
            return Err(Error::Empty(format!(
                "no run file among the files: add the runs (lines `qid Q0 docno rank score tag`) to evaluate against the \
                 qrels ({} given)",
                crate::cells::some_of(&qrels_files.iter().map(|f| f.file.name.clone()).collect::<Vec<_>>())
            )));
        }
        let qrels_file = match qrels_files.as_slice() {
            [one] => *one,
            [] => {
                return Err(Error::Empty(
                    "no qrels file among the files: add the relevance judgments (lines `qid iter docno rel`) the runs are evaluated against".into(),
                ));
            }
            [a, b, ..] => {
                return Err(Error::setting(
                    "files",
                    format!("two qrels files ({} and {}): evaluate against one at a time", a.file.name, b.file.name),
                ));
            }
        };
        let all: Vec<&RoleFile> = std::iter::once(qrels_file).chain(run_files.iter().copied()).collect();
        let selection = request.selection()?;
        let (read, hashes) = fingerprints_while(&all, || -> Result<(Qrels, Vec<LoadedRun>)> {
            let parts = (run_files.len() + 1) as f64;
            let stage = format!("reading {}", qrels_file.file.name);
            progress(Phase::Reading, &stage, 0.0);
            let mut report = |f: f64| progress(Phase::Reading, &stage, f / parts);
            let qrels = read_qrels_from(
                &qrels_file.file.name,
                &mut qrels_file.file.reader_reporting(&mut report)?.0,
                qrels_file.file.limits().max_bytes,
            )?;
            let mut runs = Vec::with_capacity(run_files.len());
            for (i, f) in run_files.iter().enumerate() {
                let stage = format!("reading {}", f.file.name);
                let mut report = |done: f64| progress(Phase::Reading, &stage, (i as f64 + 1.0 + done) / parts);
                runs.push(read_and_evaluate(f, &qrels, &selection, &request.options, &mut report)?);
            }
            Ok((qrels, runs))
        });
        let (qrels, runs) = read?;
        let mut hashes = hashes?.into_iter();
        let mut hash = || hashes.next().unwrap_or_default();
        let mut file_summaries = vec![FileSummary::hashed(qrels_file, "qrels", qrels.lines, hash())];
        for (f, run) in run_files.iter().zip(&runs) {
            file_summaries.push(FileSummary::hashed(f, "run", run.lines, hash()));
        }
        // Two runs under one id would be indistinguishable in every table.
        for (i, r) in runs.iter().enumerate() {
            let r = &r.summary;
            if let Some(o) = runs[..i].iter().map(|o| &o.summary).find(|o| o.runid == r.runid && o.file == r.file) {
                return Err(Error::setting("files", format!("the run file {} is given twice", o.file)));
            }
        }
        Ok(LoadedIr { qrels, runs, files: file_summaries })
    }

    /// The runs are evaluated as they are read: other measures or options read them again.
    fn reload(old: &TrecEvalRequest, new: &TrecEvalRequest) -> bool {
        old.measures != new.measures || old.options != new.options
    }

    fn overview(loaded: &LoadedIr) -> IrOverview {
        IrOverview {
            files: loaded.files.clone(),
            qrels: summarize_qrels(&loaded.qrels),
            runs: loaded.runs.iter().map(|r| r.summary.clone()).collect(),
        }
    }

    fn run(loaded: &LoadedIr, request: &TrecEvalRequest, progress: Progress<'_>) -> Result<TrecEvalReport> {
        let selection = request.selection()?;
        let mut runs = Vec::with_capacity(loaded.runs.len());
        let mut notes = Vec::new();
        let qrels = summarize_qrels(&loaded.qrels);
        if qrels.queries_without_relevant > 0 {
            notes.push(format!(
                "{} of {} qrels queries have no relevant judgment: they are evaluated and score 0 (trec_eval)",
                qrels.queries_without_relevant, qrels.queries
            ));
        }
        for (i, run) in loaded.runs.iter().enumerate() {
            progress(Phase::Scoring, &format!("evaluating {}", run.summary.file), i as f64 / loaded.runs.len() as f64);
            let e = run.evaluation.clone()?;
            run_notes(run, &e, &request.options, &mut notes);
            runs.push(EvaluatedRun { file: run.summary.file.clone(), evaluation: e });
        }
        let comparison = if runs.len() >= 2 {
            progress(Phase::Comparing, "comparing runs", 0.9);
            match compare_runs(&runs, &request.compared_value(&selection)?, &request.compare)? {
                Ok(c) => Some(c),
                // Each run is still evaluated as trec_eval does; only the comparison is not drawn.
                Err(shared) => {
                    notes.push(format!(
                        "no paired comparison of the runs: they share {shared} evaluated {}, and a paired comparison \
                         needs at least 2; each run is evaluated on its own",
                        if shared == 1 { "query" } else { "queries" }
                    ));
                    None
                }
            }
        } else {
            None
        };
        Ok(TrecEvalReport { settings: request.clone(), qrels, runs, comparison, notes })
    }

    fn table(report: &TrecEvalReport, which: TrecEvalTable) -> Result<Table> {
        table(report, which)
    }

    /// One run: exactly what trec_eval prints. Several: each run's block in turn, then the
    /// paired comparison.
    /// The text is trec_eval's, byte for byte: the headlines are in the JSON and on the page.
    const HEADLINES_IN_TEXT: bool = false;

    /// With two or more runs: the comparison's forest plot and CD diagram on the compared measure.
    fn figures(report: &TrecEvalReport) -> Vec<crate::attach::Figure> {
        report
            .comparison
            .as_ref()
            .map(|c| crate::compare::figures::figures(&c.comparison, &c.measure))
            .unwrap_or_default()
    }

    fn headlines(report: &TrecEvalReport) -> Vec<crate::headline::Headline> {
        super::headlines::headlines(report)
    }

    fn render_text(report: &TrecEvalReport) -> String {
        let mut out = String::new();
        for r in &report.runs {
            out.push_str(&trec_eval_text(&r.evaluation, report.settings.per_query, report.settings.summary));
        }
        if let Some(c) = &report.comparison {
            out.push_str(&format!(
                "\n# paired comparison of `{}` over the {} queries evaluated in every run\n",
                c.measure, c.queries
            ));
            out.push_str(&crate::compare::table::render_compare_text(&c.comparison));
        }
        out
    }
}

fn run_notes(loaded: &LoadedRun, e: &RunEvaluation, opts: &EvalOptions, notes: &mut Vec<String>) {
    let run = &loaded.summary;
    let who = format!("{} (run id {})", run.file, run.runid);
    notes.extend(loaded.read_whole.clone());
    if !e.missing_queries.is_empty() {
        notes.push(format!(
            "{who}: {} qrels queries have no ranking: {} ({})",
            e.missing_queries.len(),
            if opts.complete { "they score 0 (-c)" } else { "they are skipped; -c scores them 0" },
            preview(&e.missing_queries)
        ));
    }
    if !e.unjudged_queries.is_empty() {
        notes.push(format!(
            "{who}: {} ranked queries are not in the qrels and are not evaluated ({})",
            e.unjudged_queries.len(),
            preview(&e.unjudged_queries)
        ));
    }
    if e.unjudged_documents > 0 {
        notes.push(format!(
            "{who}: {} retrieved documents are not in the qrels (counted as not relevant)",
            e.unjudged_documents
        ));
    }
    if run.lines_with_extra_fields > 0 {
        notes.push(format!(
            "{who}: {} lines have fields after the sixth; they are ignored, as trec_eval does",
            run.lines_with_extra_fields
        ));
    }
}

fn preview(ids: &[String]) -> String {
    let head: Vec<&str> = ids.iter().take(5).map(String::as_str).collect();
    if ids.len() > 5 { format!("{}, …", head.join(", ")) } else { head.join(", ") }
}

/// The per-query values of `measure` of every run over the queries all runs were evaluated on
/// (`Err(shared)`: they share fewer than the 2 queries a paired comparison needs).
fn compare_runs(
    runs: &[EvaluatedRun],
    measure: &str,
    settings: &CompareSettings,
) -> Result<std::result::Result<RunComparison, usize>> {
    let columns: Vec<usize> = runs
        .iter()
        .map(|r| {
            r.evaluation
                .index_of(measure)
                .ok_or_else(|| Error::setting("compare-measure", format!("`{measure}` was not computed")))
        })
        .collect::<Result<_>>()?;
    let index: Vec<rustc_hash::FxHashMap<&str, usize>> = runs
        .iter()
        .map(|r| r.evaluation.queries.iter().enumerate().map(|(i, q)| (q.qid.as_str(), i)).collect())
        .collect();
    let first = &runs[0].evaluation;
    let mut items = Vec::new();
    let mut values = Vec::new();
    for q in &first.queries {
        let row: Option<Vec<f64>> = runs
            .iter()
            .zip(&columns)
            .zip(&index)
            .map(|((r, &c), idx)| {
                idx.get(q.qid.as_str()).and_then(|&i| r.evaluation.queries[i].values.get(c)).and_then(Value::number)
            })
            .collect();
        if let Some(row) = row {
            items.push(q.qid.clone());
            values.push(row);
        }
    }
    // Arms are named by run id; files sharing one are told apart by their file name (every one
    // of them, counted on the ids as read).
    let ids: Vec<&str> = runs.iter().map(|r| r.evaluation.runid.as_str()).collect();
    let arms: Vec<String> = runs
        .iter()
        .map(|r| match ids.iter().filter(|id| **id == r.evaluation.runid).count() {
            1 => r.evaluation.runid.clone(),
            _ => format!("{} ({})", r.evaluation.runid, r.file),
        })
        .collect();
    if items.len() < 2 {
        return Ok(Err(items.len()));
    }
    let input = CompareInput { arms, items, values, groups: None, per: None };
    let n = input.items.len();
    let comparison = compare(&input, settings, &mut |_, _| {})?;
    Ok(Ok(RunComparison { measure: measure.to_string(), queries: n, comparison }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capability::{assign_roles, quiet, run_once};

    fn files(list: &[(&str, &str)]) -> Vec<RoleFile> {
        assign_roles::<TrecEval>(list.iter().map(|(n, t)| (InputFile::new(*n, t.as_bytes().to_vec()), None)).collect())
            .unwrap()
    }

    #[test]
    fn roles_are_detected_and_runs_compared() {
        let f = files(&[
            ("a.run", "1 Q0 a 1 2 A\n1 Q0 b 2 1 A\n2 Q0 c 1 1 A\n3 Q0 e 1 1 A\n"),
            ("judgments.json", r#"{"1": {"a": 1, "b": 0}, "2": {"c": 0, "d": 2}, "3": {"e": 1}}"#),
            ("b.json", r#"{"1": {"b": 2.5, "a": 1.5}, "2": {"d": 1.0}, "3": {"f": 0.5}}"#),
        ]);
        assert_eq!(f.iter().map(|f| f.role).collect::<Vec<_>>(), [FileRole::Runs, FileRole::Qrels, FileRole::Runs]);
        let request = TrecEvalRequest { measures: vec!["map".into(), "P.1".into()], ..Default::default() };
        let (_, report) = run_once::<TrecEval>(&f, &request, &mut quiet()).unwrap();
        assert_eq!(report.runs.len(), 2);
        let c = report.comparison.as_ref().unwrap();
        assert_eq!((c.measure.as_str(), c.queries), ("map", 3));
        assert_eq!(c.comparison.arms.iter().map(|a| a.arm.as_str()).collect::<Vec<_>>(), ["A", "b"]);
        // A: AP 1, 0 (query 2 judged, nothing relevant retrieved), 1 → mean 2/3; b: 0.5, 1, 0.
        assert!((c.comparison.arms[0].mean - 2.0 / 3.0).abs() < 1e-12);
        assert!((c.comparison.arms[1].mean - 0.5).abs() < 1e-12);
        let text = TrecEval::render_text(&report);
        assert!(
            text.starts_with("map                   \tall\t0.6667\nP_1                   \tall\t0.6667\nmap"),
            "{text}"
        );
        assert!(TrecEval::table(&report, TrecEvalTable::Pairs).unwrap().rows.len() == 1);
        // Two files under one run id (ranx writes `None`): each is named with its file.
        let f = files(&[
            ("judgments.json", r#"{"1": {"a": 1, "b": 0}, "2": {"c": 0, "d": 2}, "3": {"e": 1}}"#),
            ("a.run", "1 Q0 a 1 2 None\n2 Q0 c 1 1 None\n3 Q0 e 1 1 None\n"),
            ("b.run", "1 Q0 b 1 2 None\n2 Q0 d 1 1 None\n3 Q0 f 1 1 None\n"),
        ]);
        let (_, report) = run_once::<TrecEval>(&f, &request, &mut quiet()).unwrap();
        let arms: Vec<&str> =
            report.comparison.as_ref().unwrap().comparison.arms.iter().map(|a| a.arm.as_str()).collect();
        assert_eq!(arms, ["None (a.run)", "None (b.run)"]);
    }

    /// Runs that share fewer than 2 evaluated queries are each evaluated, as trec_eval does;
    /// only their comparison is left out, and said.
    #[test]
    fn runs_on_different_queries_are_evaluated_without_a_comparison() {
        let f = files(&[
            ("qrels", "1 0 a 1\n2 0 c 1\n3 0 e 1\n"),
            ("x.run", "1 Q0 a 1 2 X\n2 Q0 c 1 1 X\n"),
            ("y.run", "2 Q0 c 1 2 Y\n3 Q0 e 1 1 Y\n"),
        ]);
        let (_, report) = run_once::<TrecEval>(&f, &TrecEvalRequest::default(), &mut quiet()).unwrap();
        assert_eq!(report.runs.len(), 2);
        assert!(report.comparison.is_none());
        assert!(
            report.notes.iter().any(|n| n.contains("no paired comparison of the runs: they share 1 evaluated query,")),
            "{:?}",
            report.notes
        );
        // Each run's numbers are those it has alone.
        let alone = run_once::<TrecEval>(&f[..2], &TrecEvalRequest::default(), &mut quiet()).unwrap().1;
        let s = &report.settings;
        assert_eq!(TrecEval::render_text(&alone), trec_eval_text(&report.runs[0].evaluation, s.per_query, s.summary));
    }

    #[test]
    fn settings_are_validated_before_reading() {
        let bad = [
            TrecEvalRequest { measures: vec!["P.0".into()], ..Default::default() },
            TrecEvalRequest { compare_measure: Some("ndcg".into()), ..Default::default() },
            TrecEvalRequest { compare_measure: Some("num_ret".into()), ..Default::default() },
            TrecEvalRequest {
                options: EvalOptions { max_per_topic: Some(0), ..Default::default() },
                ..Default::default()
            },
        ];
        for r in bad {
            assert!(r.validate().is_err(), "{r:?}");
        }
        assert!(TrecEvalRequest::default().validate().is_ok());
    }

    /// The runs are evaluated one query at a time as they are read; a run whose queries are
    /// scattered (the reference run is) is read again whole. Both give what the held run gives.
    #[test]
    fn runs_are_evaluated_as_read_with_the_held_runs_values() {
        let qrels = include_str!("../../tests/reference/trec_eval/test.qrels");
        let scattered = include_str!("../../tests/reference/trec_eval/run_a.run");
        // The same lines grouped by query (a stable sort keeps each query's lines in order).
        let mut lines: Vec<&str> = scattered.lines().filter(|l| !l.starts_with('#')).collect();
        lines.sort_by_key(|l| l.split_ascii_whitespace().next().unwrap_or(""));
        let grouped = lines.join("\n") + "\n";
        for options in [
            EvalOptions::default(),
            EvalOptions { complete: true, ..Default::default() },
            EvalOptions { complete: true, version: super::super::measure::TrecEvalVersion::V9, ..Default::default() },
            EvalOptions { max_per_topic: Some(5), judged_only: true, relevance_level: 2, ..Default::default() },
        ] {
            let request = TrecEvalRequest { measures: vec!["all_trec".into()], options, ..Default::default() };
            let selection = request.selection().unwrap();
            let held = evaluate(
                &super::super::read_qrels("test.qrels", qrels).unwrap(),
                &super::super::read_run("run_a.run", scattered).unwrap(),
                &selection,
                &options,
            )
            .unwrap();
            for (text, read_whole) in [(grouped.as_str(), false), (scattered, true)] {
                let f = files(&[("test.qrels", qrels), ("run_a.run", text)]);
                let (loaded, report) = run_once::<TrecEval>(&f, &request, &mut quiet()).unwrap();
                // Debug text: a NaN (trec_eval's `-nan`) equals itself, every other value is
                // printed to its last bit.
                let (got, want) = (format!("{:?}", report.runs[0].evaluation), format!("{held:?}"));
                assert!(got == want, "{options:?}, read whole: {read_whole}");
                assert_eq!(loaded.runs[0].read_whole.is_some(), read_whole);
                assert_eq!(report.notes.iter().any(|n| n.contains("held whole")), read_whole, "{:?}", report.notes);
                assert_eq!((loaded.runs[0].summary.queries, loaded.runs[0].summary.retrieved), (30, 962));
            }
        }
    }

    /// A document retrieved twice is refused when the run is evaluated, with its line, after the
    /// files are read (the reading is shown beside the refusal).
    #[test]
    fn a_repeated_document_is_refused_with_its_line() {
        let f = files(&[("q.qrels", "1 0 a 1\n2 0 b 1\n"), ("r.run", "1 Q0 a 1 2 R\n1 Q0 a 2 1 R\n2 Q0 b 1 1 R\n")]);
        let request = TrecEvalRequest::default();
        let loaded = TrecEval::load(&f, &request, &mut quiet()).unwrap();
        assert_eq!(TrecEval::overview(&loaded).runs[0].queries, 2);
        let Err(Error::Ingest(e)) = TrecEval::run(&loaded, &request, &mut quiet()) else { panic!("refused") };
        assert_eq!((e.location.line, e.location.field.as_deref()), (Some(2), Some("docno")));
        assert!(e.message.contains("twice") && e.message.contains("line 1"), "{}", e.message);
    }

    #[test]
    fn other_measures_or_options_read_the_runs_again() {
        let base = TrecEvalRequest::default();
        let compare_only = TrecEvalRequest { compare_measure: Some("P_5".into()), ..Default::default() };
        let measures = TrecEvalRequest { measures: vec!["P.5".into()], ..Default::default() };
        let options = TrecEvalRequest { options: EvalOptions { complete: true, ..Default::default() }, ..base.clone() };
        assert!(!TrecEval::reload(&base, &compare_only));
        assert!(TrecEval::reload(&base, &measures) && TrecEval::reload(&base, &options));
    }
}
