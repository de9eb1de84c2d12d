//! One user file ([`InputFile`]): its bytes held in memory or a source read on demand, gzip
//! inflated, hashed (SHA-256) while it is read, and the progress of a long read.

use std::borrow::Cow;
use std::io::Read;

use super::limits::{Limits, Refusal};
use super::{SharedSource, decode_refusing, decode_within, digest, utf8_error};
use crate::error::{IngestError, Location};

#[derive(Clone)]
pub(super) enum Content {
    /// Shared: a copy of the file (kept by an analysis to show its rows again) costs no bytes.
    Held(std::sync::Arc<Vec<u8>>),
    Source(SharedSource),
}

/// One user file: its bytes held in memory (the browser's dropped files, the CLI's inputs), or a
/// [`ByteSource`](super::ByteSource) read on demand by the readers that stream.
#[derive(Clone)]
pub struct InputFile {
    pub name: String,
    pub(super) content: Content,
    pub(super) limits: Limits,
    /// Its SHA-256, when the caller computed it from the same bytes (see [`InputFile::with_sha256`]).
    sha256: Option<String>,
    /// Where a streamed file's SHA-256 is left by the first reader that reads it to its end,
    /// when it is hashed while read (see [`InputFile::hashed_while_read`]); shared by its copies.
    read_digest: Option<std::sync::Arc<ReadDigest>>,
}

/// The SHA-256 of a streamed file as its readers read it ([`InputFile::hashed_while_read`]).
#[derive(Default)]
pub(super) struct ReadDigest {
    /// Left by the first reader that reads the file to its end.
    hex: std::sync::OnceLock<String>,
    /// Natively, the helper threads hashing what the readers read, each with whether its reader
    /// reached the end (then joining it gives `hex` at once; otherwise it is not waited for).
    #[cfg(not(target_arch = "wasm32"))]
    helpers: std::sync::Mutex<Vec<(std::sync::Arc<std::sync::atomic::AtomicBool>, std::thread::JoinHandle<()>)>>,
}

impl ReadDigest {
    /// The digest, once a reader read the file to its end (natively after its helper is done).
    fn get(&self) -> Option<String> {
        #[cfg(not(target_arch = "wasm32"))]
        {
            use std::sync::atomic::Ordering;
            let mut helpers = self.helpers.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            let (ended, running): (Vec<_>, Vec<_>) = helpers.drain(..).partition(|(e, _)| e.load(Ordering::Acquire));
            *helpers = running;
            drop(helpers);
            for (_, h) in ended {
                let _ = h.join();
            }
        }
        self.hex.get().cloned()
    }
}

impl std::fmt::Debug for InputFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let how = match self.content {
            Content::Held(_) => "held",
            Content::Source(_) => "streamed",
        };
        f.debug_struct("InputFile")
            .field("name", &self.name)
            .field("bytes", &self.len())
            .field("content", &how)
            .field("limits", &self.limits)
            .finish()
    }
}

/// Decompressed bytes a streamed file's format is detected from.
pub const HEAD_BYTES: usize = 64 * 1024;

impl InputFile {
    pub fn new(name: impl Into<String>, bytes: impl Into<Vec<u8>>) -> Self {
        InputFile::with_content(name, Content::Held(std::sync::Arc::new(bytes.into())))
    }

    /// A file read from `source` each time it is read.
    pub fn streamed(name: impl Into<String>, source: SharedSource) -> Self {
        InputFile::with_content(name, Content::Source(source))
    }

    fn with_content(name: impl Into<String>, content: Content) -> Self {
        InputFile { name: name.into(), content, limits: Limits::DEFAULT, sha256: None, read_digest: None }
    }

    /// The same streamed file, hashed by the first of its readers that reads it to its end, so
    /// that [`InputFile::sha256`] need not read it again: the CLI's streamed files (natively on
    /// a helper thread fed what the reader reads, so the file is read once and the reading does
    /// not wait) and the viewer's worker (in line: it reads a browser `File` again only by
    /// copying it again).
    pub fn hashed_while_read(mut self) -> Self {
        if matches!(self.content, Content::Source(_)) {
            self.read_digest = Some(std::sync::Arc::new(ReadDigest::default()));
        }
        self
    }

    /// Whether its SHA-256 is computed from the bytes its readers read ([`Self::hashed_while_read`]).
    pub fn hashes_while_read(&self) -> bool {
        self.read_digest.is_some()
    }

    /// The same file with its SHA-256 (lower-case hex) already computed by the caller from the
    /// very bytes it holds: the viewer's worker has the browser's native `crypto.subtle.digest`
    /// hash each file on another thread while it reads the next one, instead of hashing in
    /// WebAssembly on its only thread (BENCHMARKS.md, "Hashing beside the reading").
    /// [`InputFile::sha256`] then returns it as given.
    pub fn with_sha256(mut self, hex: String) -> Self {
        self.sha256 = Some(hex);
        self
    }

    /// The same file under other budgets.
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Its budgets.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// The refusal of a file read whole that is over its budgets, if it is (never for a streamed
    /// file: `trec-eval`'s readers hold one query at a time, and the line-by-line readers of
    /// [`read_into`] count its budgets as they read it).
    pub fn over_budget(&self) -> Option<IngestError> {
        match (&self.content, self.budgeted_text()) {
            (Content::Held(_), Err(Refusal::Budget(e))) => Some(e),
            _ => None,
        }
    }

    /// Refused when its stored size is over the byte budget.
    pub(super) fn check_stored_size(&self) -> Result<(), IngestError> {
        if self.len() as u64 > self.limits.max_bytes {
            return Err(self.limits.too_many_bytes(&self.name, "holds"));
        }
        Ok(())
    }

    /// Its size in bytes as stored.
    pub fn len(&self) -> usize {
        match &self.content {
            Content::Held(b) => b.len(),
            Content::Source(s) => usize::try_from(s.len()).unwrap_or(usize::MAX),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn read_error(&self, e: std::io::Error) -> IngestError {
        IngestError::new(Location::file(&self.name), format!("could not be read: {e}"))
    }

    /// Its bytes as stored (a streamed file is read whole: readers that can, stream instead).
    pub fn bytes(&self) -> Result<Cow<'_, [u8]>, IngestError> {
        self.check_stored_size()?;
        match &self.content {
            Content::Held(b) => Ok(Cow::Borrowed(b)),
            Content::Source(s) => {
                let mut out = Vec::with_capacity(usize::try_from(s.len()).unwrap_or(0).min(1 << 30));
                s.open().and_then(|mut r| r.read_to_end(&mut out)).map_err(|e| self.read_error(e))?;
                Ok(Cow::Owned(out))
            }
        }
    }

    /// Its text: gzip undone, UTF-8 checked, a BOM dropped; and whether it was gzip.
    /// Its budgets ([`Limits`]) are checked here: the bytes before and after gzip, then the rows.
    pub fn text(&self) -> Result<(Cow<'_, str>, bool), IngestError> {
        Ok(self.budgeted_text()?)
    }

    /// [`Self::text`], telling a refusal for the budgets from one for the content.
    fn budgeted_text(&self) -> Result<(Cow<'_, str>, bool), Refusal> {
        self.check_stored_size().map_err(Refusal::Budget)?;
        let (text, gzip) = match &self.content {
            Content::Held(b) => decode_refusing(&self.name, b, self.limits)?,
            Content::Source(_) => {
                let bytes = self.bytes().map_err(Refusal::Content)?.into_owned();
                if bytes.starts_with(&[0x1f, 0x8b]) {
                    // Inflated into a text of its own: `into_owned` moves it.
                    let (text, gzip) = decode_refusing(&self.name, &bytes, self.limits)?;
                    (Cow::Owned(text.into_owned()), gzip)
                } else {
                    // The bytes read become the text, without a copy.
                    let mut text = String::from_utf8(bytes).map_err(|e| {
                        let err = e.utf8_error();
                        Refusal::Content(utf8_error(&self.name, e.as_bytes(), err))
                    })?;
                    if text.starts_with('\u{feff}') {
                        text.drain(..'\u{feff}'.len_utf8());
                    }
                    (Cow::Owned(text), false)
                }
            }
        };
        self.limits.check_rows(&self.name, text.as_bytes()).map_err(Refusal::Budget)?;
        Ok((text, gzip))
    }

    /// The start of its text, for detection: the whole text when it is held as plain text, else
    /// about [`HEAD_BYTES`] of it, cut after the last whole line.
    pub fn head_text(&self) -> Result<Cow<'_, str>, IngestError> {
        if let Content::Held(b) = &self.content
            && !b.starts_with(&[0x1f, 0x8b])
        {
            return Ok(decode_within(&self.name, b, self.limits.max_bytes)?.0);
        }
        let mut head = Vec::with_capacity(HEAD_BYTES);
        let (reader, _) = self.reader()?;
        if let Err(e) = reader.take(HEAD_BYTES as u64).read_to_end(&mut head) {
            return Err(super::unreadable(&self.name, &head, &e));
        }
        if head.len() == HEAD_BYTES
            && let Some(end) = head.iter().rposition(|&b| b == b'\n')
        {
            head.truncate(end + 1);
        }
        let head = match String::from_utf8(head) {
            Ok(s) => s,
            Err(e) => {
                let err = e.utf8_error();
                // A character cut by the limit is not an error; a bad byte before it is.
                if err.error_len().is_some() {
                    return Err(utf8_error(&self.name, e.as_bytes(), err));
                }
                let mut b = e.into_bytes();
                b.truncate(err.valid_up_to());
                String::from_utf8(b).unwrap_or_default()
            }
        };
        Ok(Cow::Owned(head.strip_prefix('\u{feff}').map(str::to_string).unwrap_or(head)))
    }

    /// Whether it is gzip whose text is longer than `n` bytes (inflating at most `n + 1` of them):
    /// a few MB of gzip may hold a GB of text, and a look at its start must not inflate it all.
    pub fn inflates_beyond(&self, n: usize) -> bool {
        let Ok((reader, gzip)) = self.reader() else { return false };
        gzip && std::io::copy(&mut reader.take(n as u64 + 1), &mut std::io::sink()).is_ok_and(|c| c > n as u64)
    }

    /// Its bytes as a buffered stream, gzip undone (detected by its magic bytes); and whether it
    /// was gzip. Lines are read with [`for_each_line`].
    pub fn reader(&self) -> Result<(Box<dyn std::io::BufRead + '_>, bool), IngestError> {
        self.open_reader(None)
    }

    /// [`Self::reader`], calling `report` with the fraction of the stored bytes read so far.
    pub fn reader_reporting<'a>(
        &'a self,
        report: &'a mut dyn FnMut(f64),
    ) -> Result<(Box<dyn std::io::BufRead + 'a>, bool), IngestError> {
        self.open_reader(Some(report))
    }

    fn open_reader<'a>(
        &'a self,
        report: Option<&'a mut dyn FnMut(f64)>,
    ) -> Result<(Box<dyn std::io::BufRead + 'a>, bool), IngestError> {
        use std::io::BufRead;
        let raw: Box<dyn Read + 'a> = match &self.content {
            Content::Held(b) => Box::new(b.as_slice()),
            Content::Source(s) => {
                let raw = s.open().map_err(|e| self.read_error(e))?;
                match &self.read_digest {
                    Some(out) if out.hex.get().is_none() => Box::new(Hashing::new(raw, out)),
                    _ => raw,
                }
            }
        };
        let raw = Counted { inner: raw, read: 0, len: self.len().max(1) as f64, report };
        let mut raw = std::io::BufReader::with_capacity(1 << 16, raw);
        let gzip = raw.fill_buf().map_err(|e| self.read_error(e))?.starts_with(&[0x1f, 0x8b]);
        if gzip {
            let inflated = flate2::bufread::MultiGzDecoder::new(raw);
            Ok((Box::new(std::io::BufReader::with_capacity(1 << 16, GzipErrors(inflated))), true))
        } else {
            Ok((Box::new(raw), false))
        }
    }

    /// SHA-256 of its bytes as stored (lower-case hex), streamed for a streamed file.
    pub fn sha256(&self) -> Result<String, IngestError> {
        use sha2::Digest;
        if let Some(hex) = self.sha256.clone().or_else(|| self.read_digest.as_ref().and_then(|d| d.get())) {
            return Ok(hex);
        }
        match &self.content {
            Content::Held(b) => Ok(digest::sha256_hex(b)),
            Content::Source(s) => {
                let mut hasher = sha2::Sha256::new();
                let mut r = s.open().map_err(|e| self.read_error(e))?;
                let mut buf = vec![0u8; 1 << 16];
                loop {
                    let n = r.read(&mut buf).map_err(|e| self.read_error(e))?;
                    if n == 0 {
                        break;
                    }
                    hasher.update(&buf[..n]);
                }
                Ok(digest::lower_hex(&hasher.finalize()))
            }
        }
    }
}

/// Counts the bytes read from a stream and reports the fraction read (once per buffer fill).
pub(super) struct Counted<'a, R> {
    inner: R,
    read: u64,
    len: f64,
    report: Option<&'a mut dyn FnMut(f64)>,
}

impl<R: Read> Read for Counted<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n as u64;
        if let Some(report) = self.report.as_mut() {
            report(self.read as f64 / self.len);
        }
        Ok(n)
    }
}

/// Hashes the bytes read from a stream; at its end, leaves their SHA-256 in `out` (see
/// [`InputFile::hashed_while_read`]). A reader dropped before the end leaves nothing.
/// Natively the bytes are hashed on a helper thread, fed copies of what is read through a
/// bounded channel (at most [`HASH_QUEUE`] buffers wait), so the reading does not wait for the
/// hash and the file is read once; in the browser's worker, in line.
pub(super) struct Hashing<'a, R> {
    inner: R,
    #[cfg(not(target_arch = "wasm32"))]
    feed: Option<(std::sync::mpsc::SyncSender<Vec<u8>>, std::sync::Arc<std::sync::atomic::AtomicBool>)>,
    /// Buffers the helper has hashed, back for reuse (so the copies allocate once).
    #[cfg(not(target_arch = "wasm32"))]
    spare: Option<std::sync::mpsc::Receiver<Vec<u8>>>,
    #[cfg(target_arch = "wasm32")]
    hasher: Option<sha2::Sha256>,
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    out: &'a ReadDigest,
}

/// Buffers read but not yet hashed, at most (64 KiB each).
#[cfg(not(target_arch = "wasm32"))]
pub(super) const HASH_QUEUE: usize = 64;

impl<'a, R> Hashing<'a, R> {
    fn new(inner: R, out: &'a std::sync::Arc<ReadDigest>) -> Self {
        #[cfg(not(target_arch = "wasm32"))]
        {
            use sha2::Digest;
            let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<u8>>(HASH_QUEUE);
            let (back, spare) = std::sync::mpsc::channel::<Vec<u8>>();
            let ended = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
            let (digest, done) = (std::sync::Arc::clone(out), std::sync::Arc::clone(&ended));
            let helper = std::thread::spawn(move || {
                let mut hasher = sha2::Sha256::new();
                // An empty buffer marks the end; a closed channel without it, a reader dropped early.
                while let Ok(chunk) = rx.recv() {
                    if chunk.is_empty() {
                        let _ = digest.hex.set(digest::lower_hex(&hasher.finalize()));
                        return;
                    }
                    hasher.update(&chunk);
                    let _ = back.send(chunk);
                }
            });
            out.helpers.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push((done, helper));
            Hashing { inner, feed: Some((tx, ended)), spare: Some(spare), out }
        }
        #[cfg(target_arch = "wasm32")]
        {
            Hashing { inner, hasher: Some(sha2::Digest::new()), out }
        }
    }
}

impl<R: Read> Read for Hashing<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        let end = n == 0 && !buf.is_empty();
        #[cfg(not(target_arch = "wasm32"))]
        if n > 0 || end {
            if let Some((tx, _)) = &self.feed {
                let mut copy = self.spare.as_ref().and_then(|s| s.try_recv().ok()).unwrap_or_default();
                copy.clear();
                copy.extend_from_slice(&buf[..n]);
                if tx.send(copy).is_err() {
                    self.feed = None;
                }
            }
            if end && let Some((_, ended)) = self.feed.take() {
                ended.store(true, std::sync::atomic::Ordering::Release);
            }
        }
        #[cfg(target_arch = "wasm32")]
        {
            use sha2::Digest;
            if n > 0 {
                if let Some(h) = self.hasher.as_mut() {
                    h.update(&buf[..n]);
                }
            } else if end && let Some(h) = self.hasher.take() {
                let _ = self.out.hex.set(digest::lower_hex(&h.finalize()));
            }
        }
        Ok(n)
    }
}

/// What to do about a gzip stream that cannot be inflated.
pub(super) const GZIP_ADVICE: &str =
    "the file may be cut short or damaged; compress it again, or give the file uncompressed";

/// Names a gzip stream's errors as such (the reader's callers only see `io::Error`).
pub(super) struct GzipErrors<R>(R);

impl<R: Read> Read for GzipErrors<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.0.read(buf).map_err(|e| std::io::Error::new(e.kind(), format!("gzip data is corrupt: {e}: {GZIP_ADVICE}")))
    }
}
