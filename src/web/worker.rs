//! The Web Worker (`memaudit-worker` binary): receives [`Request`]s, reads the user's files
//! (browser `Blob`s, with `FileReaderSync`), runs the page's capability through
//! [`Engines`] and posts progress and the result back. All heavy work runs here so the page
//! never freezes; progress reaches the page while a job runs (a worker may post messages in
//! the middle of a synchronous job).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

use super::codec::{decode_request, encode};
use super::engine::{Engines, RunInputs, demo_files};
use super::protocol::{Inputs, JobFile, JobId, Request, Response, Timing};
use crate::capability::{Analysis, FileRole, Phase};
use crate::error::{Error, IngestError, Location};
use crate::ingest::{InputFile, Limits};

/// Minimum time between two progress messages of one job (ms).
const PROGRESS_EVERY_MS: f64 = 40.0;

fn now_ms() -> f64 {
    js_sys::Date::now()
}

fn scope() -> web_sys::DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

fn post(response: &Response) {
    match encode(response) {
        Ok(v) => {
            let _ = scope().post_message(&v);
        }
        Err(e) => gloo::console::error!(format!("memaudit worker: {e}")),
    }
}

/// The worker's state: every page's engine, and the files of each page's last successful run
/// (read again when new settings change how they are read).
#[derive(Default)]
pub struct AuditWorker {
    engines: Engines,
    files: HashMap<Analysis, Vec<JobFile>>,
}

/// Sends throttled progress for one job and times its phases.
struct Reporter {
    job: JobId,
    start: f64,
    last_sent: f64,
    phase: Option<Phase>,
    /// When each phase began.
    marks: Vec<(Phase, f64)>,
}

impl Reporter {
    fn new(job: JobId) -> Self {
        Reporter { job, start: now_ms(), last_sent: f64::NEG_INFINITY, phase: None, marks: Vec::new() }
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
            post(&Response::Progress {
                job: self.job,
                phase,
                stage: stage.to_string(),
                fraction: fraction.clamp(0.0, 1.0),
            });
        }
    }

    fn timing(&self) -> Timing {
        let end = now_ms();
        let begin = |p: Phase| self.marks.iter().find(|m| m.0 == p).map(|m| m.1);
        let work_start = [Phase::Scoring, Phase::Tables, Phase::Pairing, Phase::Comparing, Phase::Analysing]
            .into_iter()
            .filter_map(begin)
            .reduce(f64::min);
        let build_start = begin(Phase::Building);
        let read_end = build_start.or(work_start);
        Timing {
            read_ms: read_end.map_or(0.0, |b| b - self.start),
            build_ms: match (build_start, work_start) {
                (Some(b), Some(a)) => a - b,
                _ => 0.0,
            },
            audit_ms: work_start.map_or(0.0, |a| end - a),
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
fn read_blob(f: &JobFile, limits: Limits) -> Result<(InputFile, Option<FileRole>), Error> {
    let name = &f.file.name;
    let fail = |e: JsValue| {
        Error::Ingest(IngestError::new(
            Location::file(name),
            format!("the browser could not read the file: {}", js_message(&e)),
        ))
    };
    if f.file.blob.size() > limits.max_bytes as f64 {
        return Err(Error::Ingest(limits.too_many_bytes(name, "holds")));
    }
    let reader = web_sys::FileReaderSync::new().map_err(fail)?;
    let buffer = reader.read_as_array_buffer(&f.file.blob).map_err(fail)?;
    let bytes = js_sys::Uint8Array::new(&buffer).to_vec();
    Ok((InputFile::new(name.clone(), bytes).with_limits(limits), f.role))
}

/// A `Blob` read in slices of [`BlobSource::SLICE`] bytes with `FileReaderSync`: a streaming
/// reader (the `trec-eval` page) never holds the file whole, so a run larger than the tab's
/// memory can still be read.
struct BlobSource(web_sys::Blob);

impl BlobSource {
    const SLICE: f64 = 4.0 * 1024.0 * 1024.0;
}

struct BlobReader<'a> {
    blob: &'a web_sys::Blob,
    reader: web_sys::FileReaderSync,
    at: f64,
    chunk: Vec<u8>,
    pos: usize,
}

impl std::io::Read for BlobReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.pos == self.chunk.len() {
            let size = self.blob.size();
            if self.at >= size {
                return Ok(0);
            }
            let end = (self.at + BlobSource::SLICE).min(size);
            let io = |e: JsValue| std::io::Error::other(js_message(&e));
            let slice = self.blob.slice_with_f64_and_f64(self.at, end).map_err(io)?;
            let buffer = self.reader.read_as_array_buffer(&slice).map_err(io)?;
            let array = js_sys::Uint8Array::new(&buffer);
            self.chunk.resize(array.length() as usize, 0);
            array.copy_to(&mut self.chunk);
            self.pos = 0;
            self.at = end;
            if self.chunk.is_empty() {
                return Ok(0);
            }
        }
        let n = buf.len().min(self.chunk.len() - self.pos);
        buf[..n].copy_from_slice(&self.chunk[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

impl crate::ingest::ByteSource for BlobSource {
    fn len(&self) -> u64 {
        self.0.size() as u64
    }
    fn open(&self) -> std::io::Result<Box<dyn std::io::Read + '_>> {
        let reader = web_sys::FileReaderSync::new().map_err(|e| std::io::Error::other(js_message(&e)))?;
        Ok(Box::new(BlobReader { blob: &self.0, reader, at: 0.0, chunk: Vec::new(), pos: 0 }))
    }
}

/// The pages whose capability reads its files as streams (see [`crate::ingest::ByteSource`]).
fn streams(page: Analysis) -> bool {
    page == Analysis::TrecEval
}

fn read_all(
    files: &[JobFile],
    page: Analysis,
    limits: Limits,
    rep: &mut Reporter,
) -> Result<Vec<(InputFile, Option<FileRole>)>, Error> {
    let mut out = Vec::with_capacity(files.len());
    for f in files {
        rep.report(Phase::Reading, &format!("opening {}", f.file.name), 0.0);
        if streams(page) {
            let source = crate::ingest::share(BlobSource(f.file.blob.clone()));
            out.push((InputFile::streamed(f.file.name.clone(), source).with_limits(limits), f.role));
        } else {
            out.push(read_blob(f, limits)?);
        }
    }
    Ok(out)
}

impl AuditWorker {
    fn handle(&mut self, request: Request) -> Response {
        match request {
            Request::Run { job, page, inputs, request, limits } => {
                let mut rep = Reporter::new(job);
                let (files, keep) = match inputs {
                    Inputs::Files(files) => match read_all(&files, page, limits, &mut rep) {
                        Ok(read) => (RunInputs::Files(read), Some(files)),
                        Err(error) => return self.failed(job, page, error),
                    },
                    Inputs::Demo => match demo_files(page) {
                        Some(demo) => {
                            (RunInputs::Files(demo.into_iter().map(|f| (f, None)).collect()), Some(Vec::new()))
                        }
                        None => {
                            return self.failed(
                                job,
                                page,
                                Error::Empty(format!("the {page} page has no built-in demo")),
                            );
                        }
                    },
                    Inputs::Kept => {
                        // New settings that change how the files are read: read the kept files again.
                        let kept = self.files.get(&page).filter(|f| !f.is_empty()).cloned();
                        match kept {
                            Some(files) if self.engines.needs_files(page, &request) => {
                                match read_all(&files, page, limits, &mut rep) {
                                    Ok(read) => (RunInputs::Files(read), None),
                                    Err(error) => return self.failed(job, page, error),
                                }
                            }
                            _ => (RunInputs::Kept, None),
                        }
                    }
                };
                match self.engines.run(page, files, &request, &mut |p, s, f| rep.report(p, s, f)) {
                    Ok(outcome) => {
                        if let Some(files) = keep {
                            self.files.insert(page, files);
                        }
                        Response::Done { job, outcome, timing: rep.timing() }
                    }
                    Err(e) => {
                        // Files that were read are kept even when the run failed on its settings.
                        if e.overview.is_some()
                            && let Some(files) = keep
                        {
                            self.files.insert(page, files);
                        }
                        let mut r = self.failed(job, page, e.error);
                        if let Response::Failed { overview, .. } = &mut r {
                            *overview = e.overview;
                        }
                        r
                    }
                }
            }
            Request::Detail { job, page, request, detail } => match self.engines.detail(page, &request, &detail) {
                Ok(view) => Response::Detail { job, view },
                Err(error) => self.failed(job, page, error),
            },
            Request::Undecodable { message } => Response::Undecodable { message },
        }
    }

    fn failed(&mut self, job: JobId, page: Analysis, error: Error) -> Response {
        Response::Failed { job, error, kept_previous: self.engines.has_data(page), overview: None }
    }
}

/// Starts the worker: every message is handled in turn; `Ready` tells the page it may send.
pub fn start() {
    let state = Rc::new(RefCell::new(AuditWorker::default()));
    let onmessage = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
        let request = decode_request(e.data());
        let response = state.borrow_mut().handle(request);
        post(&response);
    });
    scope().set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    // The handler lives as long as the worker.
    onmessage.forget();
    post(&Response::Ready);
}
