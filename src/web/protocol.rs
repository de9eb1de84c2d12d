//! The messages between a page and its worker (see `docs/viewer.md`).
//!
//! One envelope serves every page: [`Request::Run`] `{job, page, inputs, request}` runs the
//! page's capability ([`crate::capability::Capability`]) on new files, the demo or the inputs
//! the worker kept, with the capability's own request type packed in `request`;
//! [`Request::Detail`] asks a drill-down of the kept inputs. The answers are
//! [`Response::Progress`] (any number), then exactly one [`Response::Done`] /
//! [`Response::Detail`] or [`Response::Failed`]. Every response names its job, so a page ignores
//! answers to requests it has superseded.
//!
//! Each page has its own worker ([`super::channel::Channel`]): a job can be cancelled by ending
//! that worker, and a worker that dies (a WebAssembly trap, memory) is reported on its page as
//! [`Response::Died`] and started again on the next job; the other pages keep theirs.
//!
//! A message that does not decode arrives as [`Request::Undecodable`] /
//! [`Response::Undecodable`] with the decoder's message ([`super::codec`]), never a panic.

use std::marker::PhantomData;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::capability::{Analysis, FileRole, Phase};
use crate::error::Error;

/// Identifies one request of a page.
pub type JobId = u32;

/// A user file handed to the worker: the browser's `File` (or a `Blob` the page made or
/// fetched) itself, passed by structured clone and read inside the worker.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SourceFile {
    pub name: String,
    #[serde(with = "serde_wasm_bindgen::preserve")]
    pub blob: web_sys::Blob,
}

/// A file of a job, with the role the page states for it (`None`: detected from its content).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct JobFile {
    pub file: SourceFile,
    pub role: Option<FileRole>,
}

/// What a run reads.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Inputs {
    /// The inputs the worker kept from the page's last successful run.
    Kept,
    /// These files (kept by the worker when the run succeeds).
    Files(Vec<JobFile>),
    /// The page's demo, built into the worker.
    Demo,
}

/// Page → worker.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Request {
    /// Runs `page`'s capability on `inputs` under `request` (its `Capability::Request`, packed).
    /// Files are read under `limits` (the page's Input limits setting).
    Run { job: JobId, page: Analysis, inputs: Inputs, request: Payload, limits: crate::ingest::Limits },
    /// A drill-down (`Capability::Detail`, packed) on the kept inputs under `request`.
    Detail { job: JobId, page: Analysis, request: Payload, detail: Payload },
    /// A page's message that did not decode (the worker answers [`Response::Undecodable`]).
    Undecodable { message: String },
    /// From a worker to its helper ([`super::helper`], never from a page): the bootstrap
    /// intervals of a part of a run's vectors (`stats::deferred::MeanIntervals`, packed); the
    /// answer is [`Response::Intervals`].
    Intervals { job: JobId, intervals: Payload },
}

/// Milliseconds spent per phase of a job.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Timing {
    pub read_ms: f64,
    pub build_ms: f64,
    pub audit_ms: f64,
    pub total_ms: f64,
    /// Bootstrap intervals the worker's helper computed (on the second core; 0: none).
    #[serde(default)]
    pub helper_intervals: usize,
}

/// Worker → page.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Response {
    /// The worker has started and takes requests (sent once).
    Ready,
    /// `fraction` is the share of the whole job done (0..=1), `stage` says what runs now.
    Progress { job: JobId, phase: Phase, stage: String, fraction: f64 },
    /// A run's result: `Outcome<Overview, Report>` of the page's capability, packed.
    Done { job: JobId, outcome: Payload, timing: Timing },
    /// A drill-down's answer: the capability's `DetailView`, packed.
    Detail { job: JobId, view: Payload },
    /// The job failed; `kept_previous` tells whether the worker still holds the inputs of an
    /// earlier successful run (so earlier results remain valid); `overview` (the capability's
    /// `Overview`, packed) is set when new files were read and kept though the run failed on
    /// its settings.
    Failed { job: JobId, error: Error, kept_previous: bool, overview: Option<Payload> },
    /// A message that did not decode (on either side): whatever was running is lost.
    Undecodable { message: String },
    /// The page's worker stopped (made on the page by its channel, never sent by a worker):
    /// whatever was running is lost and the next job starts a new worker.
    Died { message: String },
    /// A helper's answer to [`Request::Intervals`] (to its worker, never to a page): the
    /// intervals (`Vec<Option<Interval>>`, packed) in the order asked.
    Intervals { job: JobId, intervals: Payload },
}

impl Response {
    /// The job the response belongs to (`None`: not a job's response).
    pub fn job(&self) -> Option<JobId> {
        match self {
            Response::Progress { job, .. }
            | Response::Done { job, .. }
            | Response::Detail { job, .. }
            | Response::Failed { job, .. }
            | Response::Intervals { job, .. } => Some(*job),
            Response::Ready | Response::Undecodable { .. } | Response::Died { .. } => None,
        }
    }
}

/// A value as MessagePack bytes with named fields (one `Uint8Array` on the JS side): far
/// cheaper than a tree of JS objects for a report with tens of thousands of rows, and
/// self-describing, so every report the CLI prints as JSON round-trips (flattened and
/// optional fields included).
#[derive(Debug, Clone, PartialEq)]
pub struct Payload {
    bytes: Vec<u8>,
}

impl Payload {
    pub fn pack<T: Serialize>(value: &T) -> Result<Payload, String> {
        rmp_serde::to_vec_named(value).map(|bytes| Payload { bytes }).map_err(|e| format!("could not encode: {e}"))
    }

    /// Decodes with the page's own MessagePack reader ([`super::msgpack`]), which compiles for
    /// each report type only the visits its fields ask for (BENCHMARKS.md, "Viewer size").
    pub fn unpack<T: DeserializeOwned>(&self) -> Result<T, String> {
        super::msgpack::from_slice(&self.bytes).map_err(|e| format!("could not decode: {e}"))
    }

    /// Size on the wire.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }
}

/// A typed [`Payload`] (for values the page keeps as they arrived).
#[derive(Debug, Clone, PartialEq)]
pub struct Packed<T> {
    payload: Payload,
    _marker: PhantomData<T>,
}

impl<T: Serialize + DeserializeOwned> Packed<T> {
    pub fn pack(value: &T) -> Result<Packed<T>, String> {
        Ok(Packed { payload: Payload::pack(value)?, _marker: PhantomData })
    }

    pub fn unpack(&self) -> Result<T, String> {
        self.payload.unpack()
    }
}

impl Serialize for Payload {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(&self.bytes)
    }
}

impl<'de> Deserialize<'de> for Payload {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct BytesVisitor;
        impl<'de> serde::de::Visitor<'de> for BytesVisitor {
            type Value = Vec<u8>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("bytes")
            }
            fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<Vec<u8>, E> {
                Ok(v.to_vec())
            }
            fn visit_byte_buf<E: serde::de::Error>(self, v: Vec<u8>) -> Result<Vec<u8>, E> {
                Ok(v)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<u8>, A::Error> {
                let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1 << 20));
                while let Some(b) = seq.next_element::<u8>()? {
                    out.push(b);
                }
                Ok(out)
            }
        }
        d.deserialize_byte_buf(BytesVisitor).map(|bytes| Payload { bytes })
    }
}
