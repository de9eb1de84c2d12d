//! The Web Worker (`memaudit-worker` binary): a gloo-worker [`Worker`] around [`Engine`].
//!
//! All heavy work runs here so the page never freezes: the user's files (browser `Blob`s) are
//! read with `FileReaderSync`, parsed, built into a dataset and audited; progress goes back to
//! the page while that runs (a worker may post messages in the middle of a synchronous job).

use gloo::worker::{HandlerId, Worker, WorkerScope};
use wasm_bindgen::JsValue;

use super::codec::Packed;
use super::engine::{self, Engine};
use super::protocol::{Audited, JobId, Phase, Request, Response, SourceFile, Timing};
use crate::error::{Error, IngestError, Location};
use crate::ingest::InputFile;

/// Minimum time between two progress messages of one job (ms).
const PROGRESS_EVERY_MS: f64 = 40.0;

fn now_ms() -> f64 {
    js_sys::Date::now()
}

/// The worker's state: the kept dataset.
#[derive(Debug)]
pub struct AuditWorker {
    engine: Engine,
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
        AuditWorker { engine: Engine::new() }
    }

    fn update(&mut self, _scope: &WorkerScope<Self>, _msg: Self::Message) {}

    fn received(&mut self, scope: &WorkerScope<Self>, msg: Self::Input, id: HandlerId) {
        let response = self.handle(scope, id, msg);
        scope.respond(id, response);
    }
}
