//! Where a streamed file's bytes come from ([`ByteSource`]): a file on disk, a browser `File`
//! read in slices, bytes in memory handed out in chunks (tests and fuzzing).

use std::io::Read;

/// Where a file's bytes come from when they are not held in memory: a file on disk, a browser
/// `File` read in slices. Every [`ByteSource::open`] reads it again from its first byte, so a
/// reader that streams (`trec-eval`, JSON Lines in [`super::read_into`]) never holds the file whole.
pub trait ByteSource: SourceBounds {
    /// Its size in bytes (as stored: compressed when it is gzip).
    fn len(&self) -> u64;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    fn open(&self) -> std::io::Result<Box<dyn Read + '_>>;
}

/// Natively a source is shared with the hashing thread; the browser has no threads.
#[cfg(not(target_arch = "wasm32"))]
pub trait SourceBounds: Send + Sync {}
#[cfg(not(target_arch = "wasm32"))]
impl<T: Send + Sync> SourceBounds for T {}
#[cfg(target_arch = "wasm32")]
pub trait SourceBounds {}
#[cfg(target_arch = "wasm32")]
impl<T> SourceBounds for T {}

/// A source shared by the copies of one file (and natively with the hashing thread).
#[cfg(not(target_arch = "wasm32"))]
pub type SharedSource = std::sync::Arc<dyn ByteSource>;
#[cfg(target_arch = "wasm32")]
pub type SharedSource = std::rc::Rc<dyn ByteSource>;

/// Shares a source.
pub fn share(source: impl ByteSource + 'static) -> SharedSource {
    #[cfg(not(target_arch = "wasm32"))]
    return std::sync::Arc::new(source);
    #[cfg(target_arch = "wasm32")]
    return std::rc::Rc::new(source);
}

/// A file on disk, opened again for each pass.
#[cfg(not(target_arch = "wasm32"))]
pub struct PathSource {
    pub path: std::path::PathBuf,
    pub len: u64,
}

#[cfg(not(target_arch = "wasm32"))]
impl ByteSource for PathSource {
    fn len(&self) -> u64 {
        self.len
    }
    fn open(&self) -> std::io::Result<Box<dyn Read + '_>> {
        Ok(Box::new(std::fs::File::open(&self.path)?))
    }
}

/// Bytes in memory handed out at most `step` at a time, as a disk or a browser `File` hands
/// out a file (a read may end anywhere, mid-line or mid-character): the source the tests and
/// the fuzz targets read streams from. It counts how often it is opened.
pub struct ChunkedSource {
    bytes: Vec<u8>,
    step: usize,
    opened: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl ChunkedSource {
    pub fn new(bytes: Vec<u8>, step: usize) -> Self {
        ChunkedSource { bytes, step: step.max(1), opened: Default::default() }
    }

    /// How often it has been opened, counted on after it is shared.
    pub fn opened(&self) -> std::sync::Arc<std::sync::atomic::AtomicUsize> {
        self.opened.clone()
    }
}

impl ByteSource for ChunkedSource {
    fn len(&self) -> u64 {
        self.bytes.len() as u64
    }
    fn open(&self) -> std::io::Result<Box<dyn Read + '_>> {
        struct Chunks<'a>(&'a [u8], usize);
        impl Read for Chunks<'_> {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                let n = buf.len().min(self.1).min(self.0.len());
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        self.opened.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Ok(Box::new(Chunks(&self.bytes, self.step)))
    }
}
