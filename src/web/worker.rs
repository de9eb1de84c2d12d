//! The Web Worker (`memaudit-worker` binary): receives [`Request`]s, reads the user's files
//! (browser `Blob`s, with `FileReaderSync`; a page's demo fetched from `dist/demo/`), runs the
//! page's capability through [`Engines`] and posts progress and the result back. All heavy work runs here so the page
//! never freezes; progress reaches the page while a job runs (a worker may post messages in
//! the middle of a synchronous job).

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, VecDeque};
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

use super::codec::{decode_request, encode};
use super::engine::{Engines, Pending, RunInputs, demo_sources};
use super::helper;
use super::protocol::{Inputs, JobFile, JobId, Payload, Request, Response, Timing};
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

    fn timing(&self, helper_intervals: usize) -> Timing {
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
            helper_intervals,
        }
    }
}

fn js_message(e: &JsValue) -> String {
    e.as_string()
        .or_else(|| js_sys::Reflect::get(e, &JsValue::from_str("message")).ok().and_then(|m| m.as_string()))
        .unwrap_or_else(|| format!("{e:?}"))
}

/// A file read whole, with the browser's SHA-256 of its bytes under way.
struct Held {
    file: InputFile,
    role: Option<FileRole>,
    digest: Option<js_sys::Promise>,
}

/// Reads a `Blob` into memory (synchronous reads are allowed, and cheapest, in a worker) and
/// starts the browser's digest of it.
fn read_blob(f: &JobFile, limits: Limits) -> Result<Held, Error> {
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
    // A copy of the file is held while the browser hashes it: only for files up to
    // NATIVE_DIGEST_MAX_BYTES, so a file near the byte budget does not need three copies at once.
    let digest = (f.file.blob.size() <= NATIVE_DIGEST_MAX_BYTES).then(|| native_sha256(&buffer)).flatten();
    let bytes = js_sys::Uint8Array::new(&buffer).to_vec();
    Ok(Held { file: InputFile::new(name.clone(), bytes).with_limits(limits), role: f.role, digest })
}

/// The largest file hashed by the browser (256 MiB): `crypto.subtle.digest` copies the bytes
/// first, and the worker already holds the file twice while reading it (the browser's buffer
/// and WebAssembly's copy). Larger files are hashed by the core in WebAssembly.
const NATIVE_DIGEST_MAX_BYTES: f64 = 256.0 * 1024.0 * 1024.0;

/// The browser's own SHA-256 of `buffer` (`crypto.subtle.digest`, which copies the bytes and
/// hashes them off this thread), or `None` where it has none: `crypto.subtle` exists only in
/// secure contexts (https, localhost), and the core then hashes in WebAssembly. For 58 MB the
/// worker's thread spends about 50 ms (the copy) instead of 270 ms hashing (BENCHMARKS.md,
/// "Hashing beside the reading").
fn native_sha256(buffer: &js_sys::ArrayBuffer) -> Option<js_sys::Promise> {
    let crypto = js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("crypto")).ok()?;
    let subtle = js_sys::Reflect::get(&crypto, &JsValue::from_str("subtle")).ok()?;
    let subtle: web_sys::SubtleCrypto = subtle.dyn_into().ok()?;
    subtle.digest_with_str_and_buffer_source("SHA-256", buffer).ok()
}

/// The file with its SHA-256 from the browser, once the digest is done; as it was (hashed later
/// by the core) if the digest failed or is not 32 bytes.
async fn fingerprinted(held: Held) -> (InputFile, Option<FileRole>) {
    let Some(digest) = held.digest else { return (held.file, held.role) };
    let file = match wasm_bindgen_futures::JsFuture::from(digest).await {
        Ok(value) => {
            let sha = js_sys::Uint8Array::new(&value).to_vec();
            if sha.len() == 32 { held.file.with_sha256(crate::ingest::digest::lower_hex(&sha)) } else { held.file }
        }
        Err(_) => held.file,
    };
    (file, held.role)
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

/// Whether the page's capability reads `file` as a stream ([`crate::capability::Capability::STREAMS`]). Rescoring
/// streams only files larger than the browser hashes itself ([`NATIVE_DIGEST_MAX_BYTES`]):
/// below that, reading the file whole while the browser hashes it off this thread is faster
/// than hashing it in WebAssembly after the read (BENCHMARKS.md, "Hashing beside the reading").
fn streams(page: Analysis, file: &JobFile) -> bool {
    crate::registry::streams(page) && (page == Analysis::TrecEval || file.file.blob.size() > NATIVE_DIGEST_MAX_BYTES)
}

/// Reads every file: whole, with the browser hashing each one while the next is read, or as
/// a stream for the pages that stream.
async fn read_all(
    files: &[JobFile],
    page: Analysis,
    limits: Limits,
    rep: &mut Reporter,
) -> Result<Vec<(InputFile, Option<FileRole>)>, Error> {
    let mut held = Vec::with_capacity(files.len());
    for f in files {
        rep.report(Phase::Reading, &format!("opening {}", f.file.name), 0.0);
        if streams(page, f) {
            let source = crate::ingest::share(BlobSource(f.file.blob.clone()));
            let file = InputFile::streamed(f.file.name.clone(), source).with_limits(limits).hashed_while_read();
            held.push(Held { file, role: f.role, digest: None });
        } else {
            held.push(read_blob(f, limits)?);
        }
    }
    let mut out = Vec::with_capacity(held.len());
    for h in held {
        out.push(fingerprinted(h).await);
    }
    Ok(out)
}

/// Fetches the page's demo from `dist/demo/` (relative to this worker's script, so the viewer
/// works from any sub-path): the files are not compiled into the worker, which is then
/// smaller for everyone who never asks for a demo (BENCHMARKS.md, "Viewer size").
async fn fetch_demo(page: Analysis, rep: &mut Reporter) -> Result<Vec<(InputFile, Option<FileRole>)>, Error> {
    let mut out = Vec::new();
    for demo in demo_sources(page) {
        rep.report(Phase::Reading, &format!("fetching the demo's {}", demo.name), 0.0);
        let fail = |why: String| {
            Error::Ingest(IngestError::new(
                Location::file(demo.name),
                format!(
                    "the demo file could not be loaded from {}: {why} (the viewer's files must be served with \
                     their demo/ folder)",
                    demo.url
                ),
            ))
        };
        let response = wasm_bindgen_futures::JsFuture::from(scope().fetch_with_str(&demo.url))
            .await
            .map_err(|e| fail(js_message(&e)))?;
        let response: web_sys::Response = response.dyn_into().map_err(|e| fail(js_message(&e)))?;
        if !response.ok() {
            return Err(fail(format!("HTTP {} {}", response.status(), response.status_text())));
        }
        let buffer = response.array_buffer().map_err(|e| fail(js_message(&e)))?;
        let buffer = wasm_bindgen_futures::JsFuture::from(buffer).await.map_err(|e| fail(js_message(&e)))?;
        let bytes = js_sys::Uint8Array::new(&buffer).to_vec();
        // Read under the default budgets, as when the demo was compiled in.
        out.push((InputFile::new(demo.name, bytes), None));
    }
    Ok(out)
}

/// Handles one request. Only the wait for the browser's digests yields; the state is not
/// borrowed across it, and [`start`] handles requests one at a time, in the order they came.
async fn handle(state: &RefCell<AuditWorker>, request: Request) -> Response {
    match request {
        Request::Run { job, page, inputs, request, limits } => {
            let mut rep = Reporter::new(job);
            if crate::registry::splits_intervals(page) {
                helper::ensure_started();
                if helper::loading() {
                    // Lets the helper's start go on while the files are read (see
                    // `helper::ensure_started`).
                    gloo::timers::future::TimeoutFuture::new(0).await;
                }
            }
            let (files, keep) = match inputs {
                Inputs::Files(files) => match read_all(&files, page, limits, &mut rep).await {
                    Ok(read) => (RunInputs::Files(read), Some(files)),
                    Err(error) => return state.borrow_mut().failed(job, page, error),
                },
                Inputs::Demo => match fetch_demo(page, &mut rep).await {
                    Ok(demo) => (RunInputs::Files(demo), Some(Vec::new())),
                    Err(error) => return state.borrow_mut().failed(job, page, error),
                },
                Inputs::Kept => {
                    // New settings that change how the files are read: read the kept files
                    // again (the demo's, which are not kept, are fetched again).
                    let kept = {
                        let mut w = state.borrow_mut();
                        let again = w.engines.has_data(page) && w.engines.needs_files(page, &request);
                        if again { w.files.get(&page).cloned() } else { None }
                    };
                    match kept {
                        Some(files) if files.is_empty() => match fetch_demo(page, &mut rep).await {
                            Ok(demo) => (RunInputs::Files(demo), None),
                            Err(error) => return state.borrow_mut().failed(job, page, error),
                        },
                        Some(files) => match read_all(&files, page, limits, &mut rep).await {
                            Ok(read) => (RunInputs::Files(read), None),
                            Err(error) => return state.borrow_mut().failed(job, page, error),
                        },
                        None => (RunInputs::Kept, None),
                    }
                }
            };
            let pending = state.borrow_mut().run(job, page, files, keep, &request, &mut rep);
            match pending {
                Ok(pending) => finish(job, pending, rep).await,
                Err(response) => response,
            }
        }
        Request::Intervals { job, intervals } => match helper::answer(&intervals) {
            Ok(intervals) => Response::Intervals { job, intervals },
            Err(message) => Response::Undecodable { message },
        },
        Request::Detail { job, page, request, detail } => {
            let mut w = state.borrow_mut();
            match w.engines.detail(page, &request, &detail) {
                Ok(view) => Response::Detail { job, view },
                Err(error) => w.failed(job, page, error),
            }
        }
        Request::Undecodable { message } => Response::Undecodable { message },
    }
}

/// A run's result once its bootstrap intervals are computed, here and on the helper.
async fn finish(job: JobId, pending: Pending, rep: Reporter) -> Response {
    let (intervals, shared) = helper::compute_shared(job, &pending.intervals).await;
    match pending.finish(&intervals) {
        Ok(outcome) => Response::Done { job, outcome, timing: rep.timing(shared) },
        Err(error) => Response::Failed { job, error, kept_previous: true, overview: None },
    }
}

impl AuditWorker {
    /// Runs up to the bootstrap intervals ([`finish`] computes them); `Err` is the response of
    /// a failed run.
    fn run(
        &mut self,
        job: JobId,
        page: Analysis,
        files: RunInputs,
        keep: Option<Vec<JobFile>>,
        request: &Payload,
        rep: &mut Reporter,
    ) -> Result<Pending, Response> {
        match self.engines.run_unfinished(page, files, request, &mut |p, s, f| rep.report(p, s, f)) {
            Ok(pending) => {
                if let Some(files) = keep {
                    self.files.insert(page, files);
                }
                Ok(pending)
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
                Err(r)
            }
        }
    }

    fn failed(&mut self, job: JobId, page: Analysis, error: Error) -> Response {
        Response::Failed { job, error, kept_previous: self.engines.has_data(page), overview: None }
    }
}

/// Starts the worker: every message is queued and handled in turn, in the order it came (a
/// run may wait for the browser's digests); `Ready` tells the page it may send.
pub fn start() {
    if !helper::is_helper() {
        helper::ensure_started();
    }
    let state = Rc::new(RefCell::new(AuditWorker::default()));
    let queue: Rc<RefCell<VecDeque<Request>>> = Rc::default();
    let busy = Rc::new(Cell::new(false));
    let onmessage = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
        queue.borrow_mut().push_back(decode_request(e.data()));
        if busy.replace(true) {
            return;
        }
        let (state, queue, busy) = (state.clone(), queue.clone(), busy.clone());
        wasm_bindgen_futures::spawn_local(async move {
            loop {
                let next = queue.borrow_mut().pop_front();
                let Some(request) = next else { break };
                let response = handle(&state, request).await;
                post(&response);
            }
            busy.set(false);
        });
    });
    scope().set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    // The handler lives as long as the worker.
    onmessage.forget();
    post(&Response::Ready);
}
