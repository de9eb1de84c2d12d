//! The Web Worker (`memaudit-worker` binary): a gloo-worker [`Worker`] around the engines of
//! [`super::engine`] (rescoring, comparison, probe, reclaim, and the answers, ablation, claims
//! and rules pages).
//!
//! All heavy work runs here so the page never freezes: the user's files (browser `Blob`s) are
//! read with `FileReaderSync`, parsed, built into a dataset and audited (or compared, probed,
//! analysed); progress goes back to the page while that runs (a worker may post messages in
//! the middle of a synchronous job). Each page uses its own fork of the bridge, so every
//! response goes back to the page that asked.

use gloo::worker::{HandlerId, Worker, WorkerScope};
use wasm_bindgen::JsValue;

use super::codec::Packed;
use super::engine::compare::CompareEngine;
use super::engine::probe::{ProbeEngine, explain_note};
use super::engine::reclaim::ReclaimEngine;
use super::engine::tools::ToolEngines;
use super::engine::{self, Engine};
use super::protocol::{Audited, JobId, Phase, Request, Response, SourceFile, Timing, ToolResult, ToolRun};
use crate::error::{Error, IngestError, Location};
use crate::ingest::InputFile;

/// Minimum time between two progress messages of one job (ms).
const PROGRESS_EVERY_MS: f64 = 40.0;

fn now_ms() -> f64 {
    js_sys::Date::now()
}

/// The worker's state: the kept rescoring dataset, outcome table, notes and trials.
#[derive(Debug)]
pub struct AuditWorker {
    engine: Engine,
    compare: CompareEngine,
    probe: ProbeEngine,
    reclaim: ReclaimEngine,
    tools: ToolEngines,
}

/// Sends throttled progress for one job and times its phases.
struct Reporter<'a> {
    scope: &'a WorkerScope<AuditWorker>,
    id: HandlerId,
    job: JobId,
    start: f64,
    last_sent: f64,
    phase: Option<Phase>,
    /// When each phase began.
    marks: Vec<(Phase, f64)>,
}

impl<'a> Reporter<'a> {
    fn new(scope: &'a WorkerScope<AuditWorker>, id: HandlerId, job: JobId) -> Self {
        let start = now_ms();
        Reporter { scope, id, job, start, last_sent: f64::NEG_INFINITY, phase: None, marks: Vec::new() }
    }

    fn report(&mut self, phase: Phase, stage: &str, fraction: f64) {
        let now = now_ms();
        let changed = self.phase != Some(phase);
        if changed {
            self.phase = Some(phase);
            self.marks.push((phase, now));
        }
        if changed || now - self.last_sent >= PROGRESS_EVERY_MS {
            self.last_sent = now;
            self.scope.respond(
                self.id,
                Response::Progress {
                    job: self.job,
                    phase,
                    stage: stage.to_string(),
                    fraction: fraction.clamp(0.0, 1.0),
                },
            );
        }
    }

    /// Milliseconds since the job began.
    fn elapsed(&self) -> f64 {
        now_ms() - self.start
    }

    /// Milliseconds from the job's start to the first message of `phase` (or the whole job).
    fn until(&self, phase: Phase) -> f64 {
        self.marks.iter().find(|m| m.0 == phase).map_or_else(|| self.elapsed(), |m| m.1 - self.start)
    }

    fn timing(&self) -> Timing {
        let end = now_ms();
        let begin = |p: Phase| self.marks.iter().find(|m| m.0 == p).map(|m| m.1);
        let audit_start = begin(Phase::Scoring).or(begin(Phase::Tables));
        let build_start = begin(Phase::Building);
        Timing {
            read_ms: build_start.map_or(0.0, |b| b - self.start),
            build_ms: match (build_start, audit_start) {
                (Some(b), Some(a)) => a - b,
                _ => 0.0,
            },
            audit_ms: audit_start.map_or(0.0, |a| end - a),
            total_ms: end - self.start,
        }
    }
}

fn js_message(e: &JsValue) -> String {
    e.as_string()
        .or_else(|| js_sys::Reflect::get(e, &JsValue::from_str("message")).ok().and_then(|m| m.as_string()))
        .unwrap_or_else(|| format!("{e:?}"))
}

/// Reads every file of a request.
fn read_blobs(files: &[SourceFile], rep: &mut Reporter<'_>) -> Result<Vec<InputFile>, Error> {
    let mut inputs = Vec::with_capacity(files.len());
    for f in files {
        rep.report(Phase::Reading, &format!("opening {}", f.name), 0.0);
        inputs.push(read_blob(f)?);
    }
    Ok(inputs)
}

/// Reads a `Blob` into memory (synchronous reads are allowed, and cheapest, in a worker).
fn read_blob(f: &SourceFile) -> Result<InputFile, Error> {
    let fail = |e: JsValue| {
        Error::Ingest(IngestError::new(
            Location::file(&f.name),
            format!("the browser could not read the file: {}", js_message(&e)),
        ))
    };
    let reader = web_sys::FileReaderSync::new().map_err(fail)?;
    let buffer = reader.read_as_array_buffer(&f.blob).map_err(fail)?;
    let bytes = js_sys::Uint8Array::new(&buffer).to_vec();
    Ok(InputFile::new(f.name.clone(), bytes))
}

impl AuditWorker {
    fn handle(&mut self, scope: &WorkerScope<Self>, id: HandlerId, msg: Request) -> Response {
        match msg {
            Request::Load { job, files, settings } => {
                let mut rep = Reporter::new(scope, id, job);
                let mut inputs = Vec::with_capacity(files.len());
                for f in &files {
                    rep.report(Phase::Reading, &format!("opening {}", f.name), 0.0);
                    match read_blob(f) {
                        Ok(i) => inputs.push(i),
                        Err(error) => return self.failed(job, error),
                    }
                }
                drop(files);
                self.load(job, inputs, &settings, &mut rep)
            }
            Request::LoadDemo { job, settings } => {
                let mut rep = Reporter::new(scope, id, job);
                self.load(job, engine::demo_files(), &settings, &mut rep)
            }
            Request::Rescore { job, settings } => {
                let mut rep = Reporter::new(scope, id, job);
                let result = self.engine.rescore(&settings, &mut |p, s, f| rep.report(p, s, f));
                match result {
                    Ok(report) => self.audited(job, Audited { report, queries: None, timing: rep.timing() }),
                    Err(error) => self.failed(job, error),
                }
            }
            Request::Drilldown { job, settings, system, query } => {
                match self.engine.drilldown(&settings, system, query) {
                    Ok(d) => Response::Drilldown { job, drilldown: Box::new(d) },
                    Err(error) => self.failed(job, error),
                }
            }
            Request::CompareLoad { job, files, format, run } => {
                let mut rep = Reporter::new(scope, id, job);
                let result = read_blobs(&files, &mut rep).and_then(|inputs| {
                    drop(files);
                    self.compare.load(inputs, format, &run, &mut |p, s, f| rep.report(p, s, f))
                });
                self.compared(job, result, &rep)
            }
            Request::CompareRescoring { job, name, rows, run } => {
                let mut rep = Reporter::new(scope, id, job);
                let result = rows
                    .unpack()
                    .map_err(|message| Error::Output { what: "the rescoring rows".into(), message })
                    .and_then(|rows| {
                        self.compare.load_rescoring(&name, &rows, &run, &mut |p, s, f| rep.report(p, s, f))
                    });
                self.compared(job, result, &rep)
            }
            Request::CompareRun { job, run } => {
                let mut rep = Reporter::new(scope, id, job);
                let result = self.compare.run(&run, &mut |p, s, f| rep.report(p, s, f));
                self.compared(job, result, &rep)
            }
            Request::CompareItems { job, selection } => match self.compare.items(&selection) {
                Ok(items) => Response::CompareItems { job, items: Box::new(items) },
                Err(error) => Response::Failed { job, error, kept_previous: self.compare.has_table() },
            },
            Request::ProbeNote { job, input } => {
                Response::ProbeExplained { job, result: Box::new(explain_note(&input)) }
            }
            Request::ProbeLoad { job, files, run } => {
                let mut rep = Reporter::new(scope, id, job);
                let result = read_blobs(&files, &mut rep).and_then(|inputs| {
                    drop(files);
                    self.probe.load(inputs, &run, &mut |p, s, f| rep.report(p, s, f))
                });
                self.probed(job, result, &rep)
            }
            Request::ProbeRun { job, run } => {
                let mut rep = Reporter::new(scope, id, job);
                let result = self.probe.run(&run, &mut |p, s, f| rep.report(p, s, f));
                self.probed(job, result, &rep)
            }
            Request::ProbeDetail { job, run, index } => match self.probe.detail(&run, index) {
                Ok(live) => Response::ProbeExplained { job, result: Box::new(live) },
                Err(error) => Response::Failed { job, error, kept_previous: self.probe.has_notes() },
            },
            Request::ReclaimLoad { job, files, run } => {
                let mut rep = Reporter::new(scope, id, job);
                let result = read_blobs(&files, &mut rep).and_then(|inputs| {
                    drop(files);
                    self.reclaim.load(inputs, &run, &mut |p, s, f| rep.report(p, s, f))
                });
                self.reclaimed(job, result, &rep)
            }
            Request::ReclaimRun { job, run } => {
                let mut rep = Reporter::new(scope, id, job);
                let result = self.reclaim.run(&run, &mut |p, s, f| rep.report(p, s, f));
                self.reclaimed(job, result, &rep)
            }
            Request::Analyse { job, files, run } => {
                let mut rep = Reporter::new(scope, id, job);
                let inputs = match files {
                    Some(files) => match read_blobs(&files, &mut rep) {
                        Ok(inputs) => Some(inputs),
                        Err(error) => return self.tool_failed(job, error, &run),
                    },
                    None => None,
                };
                match self.tools.analyse(inputs, &run, &mut |p, s, f| rep.report(p, s, f)) {
                    Ok(mut result) => {
                        let ms = rep.elapsed();
                        match &mut result {
                            ToolResult::Answers(b) => b.total_ms = ms,
                            ToolResult::Ablation(b) => b.total_ms = ms,
                            ToolResult::Claims(b) => b.total_ms = ms,
                            ToolResult::Rules(b) => b.total_ms = ms,
                        }
                        Response::Analysed { job, result: Box::new(result) }
                    }
                    Err(error) => self.tool_failed(job, error, &run),
                }
            }
            Request::Undecodable { message } => Response::Undecodable { message },
        }
    }

    fn tool_failed(&mut self, job: JobId, error: Error, run: &ToolRun) -> Response {
        Response::Failed { job, error, kept_previous: self.tools.has_files(run) }
    }

    fn compared(
        &self,
        job: JobId,
        result: Result<super::protocol::CompareResult, Error>,
        rep: &Reporter<'_>,
    ) -> Response {
        match result {
            Ok(mut r) => {
                r.read_ms = if r.table.is_some() { rep.until(Phase::Pairing) } else { 0.0 };
                r.total_ms = rep.elapsed();
                Response::Compared { job, result: Box::new(r) }
            }
            Err(error) => Response::Failed { job, error, kept_previous: self.compare.has_table() },
        }
    }

    fn probed(&self, job: JobId, result: Result<super::protocol::ProbeBatch, Error>, rep: &Reporter<'_>) -> Response {
        match result {
            Ok(mut b) => {
                b.total_ms = rep.elapsed();
                Response::Probed { job, result: Box::new(b) }
            }
            Err(error) => Response::Failed { job, error, kept_previous: self.probe.has_notes() },
        }
    }

    fn reclaimed(
        &self,
        job: JobId,
        result: Result<super::protocol::ReclaimBatch, Error>,
        rep: &Reporter<'_>,
    ) -> Response {
        match result {
            Ok(mut b) => {
                b.total_ms = rep.elapsed();
                Response::Reclaimed { job, result: Box::new(b) }
            }
            Err(error) => Response::Failed { job, error, kept_previous: self.reclaim.has_trials() },
        }
    }

    fn load(
        &mut self,
        job: JobId,
        inputs: Vec<InputFile>,
        settings: &crate::conventions::Settings,
        rep: &mut Reporter<'_>,
    ) -> Response {
        let result = self.engine.load(inputs, settings, &mut |p, s, f| rep.report(p, s, f));
        match result {
            Ok((report, queries)) => {
                self.audited(job, Audited { report, queries: Some(queries), timing: rep.timing() })
            }
            Err(error) => self.failed(job, error),
        }
    }

    fn audited(&self, job: JobId, a: Audited) -> Response {
        match Packed::pack(&a) {
            Ok(result) => Response::Audited { job, result },
            Err(message) => self.failed(job, Error::Output { what: "the report".into(), message }),
        }
    }

    fn failed(&self, job: JobId, error: Error) -> Response {
        Response::Failed { job, error, kept_previous: self.engine.dataset().is_some() }
    }
}

impl Worker for AuditWorker {
    type Message = ();
    type Input = Request;
    type Output = Response;

    fn create(_scope: &WorkerScope<Self>) -> Self {
        AuditWorker {
            engine: Engine::new(),
            compare: CompareEngine::new(),
            probe: ProbeEngine::new(),
            reclaim: ReclaimEngine::new(),
            tools: ToolEngines::new(),
        }
    }

    fn update(&mut self, _scope: &WorkerScope<Self>, _msg: Self::Message) {}

    fn received(&mut self, scope: &WorkerScope<Self>, msg: Self::Input, id: HandlerId) {
        let response = self.handle(scope, id, msg);
        scope.respond(id, response);
    }
}
