//! Archives of a release (`.zip`, `.tar`, `.tar.gz`, `.tgz`) opened into their files, each named
//! `archive/path/in/it`. An Inspect `.eval` log is a zip too, but it is one file (a log), never
//! opened here: only the names above are archives.
//!
//! Bounded before it is spent: each entry is inflated through [`read_at_most`] under the
//! file budget ([`Limits::max_bytes`], counted while inflating, so a zip bomb stops at the
//! budget), the entries together under [`MAX_TOTAL_FACTOR`] budgets, and at most
//! [`MAX_ENTRIES`] files are taken. Folders, links and empty entries are not files; names with
//! `..` or an absolute path are kept as text (nothing is written to disk).
//!
//! The `zip` crate reads zip archives (Inspect already needs it); the `tar` crate reads tar
//! streams, through `flate2` for gzip.

use std::io::Read;

use crate::error::{IngestError, Location};
use crate::ingest::{InputFile, Limits, read_at_most, too_large};

/// The most files taken from one archive.
pub const MAX_ENTRIES: usize = 20_000;
/// The entries of one archive together: at most this many file budgets.
pub const MAX_TOTAL_FACTOR: u64 = 4;

/// The kind of archive a name announces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArchiveKind {
    Zip,
    Tar,
    TarGz,
}

impl ArchiveKind {
    /// In words (the release's files table).
    pub fn describe(self) -> &'static str {
        match self {
            ArchiveKind::Zip => "a zip archive",
            ArchiveKind::Tar => "a tar archive",
            ArchiveKind::TarGz => "a gzipped tar archive",
        }
    }

    /// The kind a file's name announces (`None`: not an archive, e.g. an Inspect `.eval` log).
    pub fn of_name(name: &str) -> Option<ArchiveKind> {
        let lower = name.to_ascii_lowercase();
        if lower.ends_with(".zip") {
            Some(ArchiveKind::Zip)
        } else if lower.ends_with(".tar.gz") || lower.ends_with(".tgz") {
            Some(ArchiveKind::TarGz)
        } else if lower.ends_with(".tar") {
            Some(ArchiveKind::Tar)
        } else {
            None
        }
    }
}

/// What an archive held: its files, and the entries passed over (folders are not counted).
#[derive(Debug, Default)]
pub struct Opened {
    pub files: Vec<InputFile>,
    /// Entries that are not regular files (links, devices), by name.
    pub skipped: Vec<String>,
}

/// The files of `archive` (its kind from its name), under its budgets.
pub fn open(archive: &InputFile, kind: ArchiveKind) -> Result<Opened, IngestError> {
    let limits = archive.limits();
    let bytes = archive.bytes()?;
    let mut out = Opened::default();
    let mut total = 0u64;
    let total_limit = limits.max_bytes.saturating_mul(MAX_TOTAL_FACTOR);
    let mut take = |out: &mut Opened, path: String, data: Vec<u8>| -> Result<(), IngestError> {
        total += data.len() as u64;
        if total > total_limit {
            return Err(too_large(&archive.name, "unpacks to", total_limit));
        }
        if out.files.len() >= MAX_ENTRIES {
            return Err(IngestError::new(
                Location::file(&archive.name),
                format!(
                    "holds more than {MAX_ENTRIES} files, the most taken from one archive: unpack it and give its folders"
                ),
            ));
        }
        out.files.push(InputFile::new(format!("{}/{}", archive.name, path), data).with_limits(limits));
        Ok(())
    };
    let broken = |e: String| IngestError::new(Location::file(&archive.name), format!("not a readable archive: {e}"));
    match kind {
        ArchiveKind::Zip => {
            let mut zip = zip::ZipArchive::new(std::io::Cursor::new(&bytes[..])).map_err(|e| broken(e.to_string()))?;
            for i in 0..zip.len() {
                let mut entry = zip.by_index(i).map_err(|e| broken(e.to_string()))?;
                if entry.is_dir() {
                    continue;
                }
                if !entry.is_file() {
                    out.skipped.push(entry.name().to_string());
                    continue;
                }
                let path = entry.name().to_string();
                let data = entry_bytes(&archive.name, &path, &mut entry, limits)?;
                take(&mut out, path, data)?;
            }
        }
        ArchiveKind::Tar | ArchiveKind::TarGz => {
            let reader: Box<dyn Read + '_> = if kind == ArchiveKind::TarGz {
                Box::new(flate2::read::MultiGzDecoder::new(&bytes[..]))
            } else {
                Box::new(&bytes[..])
            };
            let mut tar = tar::Archive::new(reader);
            for entry in tar.entries().map_err(|e| broken(e.to_string()))? {
                let mut entry = entry.map_err(|e| broken(e.to_string()))?;
                let path = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
                let kind = entry.header().entry_type();
                if kind.is_dir() || kind.is_pax_global_extensions() || kind.is_pax_local_extensions() {
                    continue;
                }
                if !kind.is_file() {
                    out.skipped.push(path);
                    continue;
                }
                let data = entry_bytes(&archive.name, &path, &mut entry, limits)?;
                take(&mut out, path, data)?;
            }
        }
    }
    Ok(out)
}

/// One entry's bytes, inflated under the file budget.
/// One entry of `archive` (named `archive/path`), read under the file budget: refused, counted
/// while inflating, once it passes `limits.max_bytes`.
pub fn entry_bytes(archive: &str, path: &str, entry: &mut impl Read, limits: Limits) -> Result<Vec<u8>, IngestError> {
    let name = format!("{archive}/{path}");
    match read_at_most(entry, limits.max_bytes) {
        Ok(Some(b)) => Ok(b),
        Ok(None) => Err(too_large(&name, "unpacks to", limits.max_bytes)),
        Err(e) if e.kind() == std::io::ErrorKind::OutOfMemory => Err(IngestError::new(
            Location::file(&name),
            format!(
                "could not be unpacked: it unpacks to more than this machine can hold, under the budget of {} \
                 bytes per file: unpack the archive and give its files, or lower the budget ({}) so that such \
                 an entry is refused",
                limits.max_bytes,
                crate::fields::mention("max_bytes")
            ),
        )),
        Err(e) => Err(IngestError::new(Location::file(&name), format!("could not be unpacked: {e}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
        let mut buf = std::io::Cursor::new(Vec::new());
        {
            let mut z = zip::ZipWriter::new(&mut buf);
            let opts = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
            z.add_directory("release/", opts).unwrap();
            for (name, data) in entries {
                z.start_file(*name, opts).unwrap();
                z.write_all(data).unwrap();
            }
            z.finish().unwrap();
        }
        buf.into_inner()
    }

    fn tar_gz_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
        let mut builder = tar::Builder::new(flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast()));
        for (name, data) in entries {
            let mut h = tar::Header::new_gnu();
            h.set_size(data.len() as u64);
            h.set_mode(0o644);
            h.set_cksum();
            builder.append_data(&mut h, name, *data).unwrap();
        }
        builder.into_inner().unwrap().finish().unwrap()
    }

    #[test]
    fn zip_and_tar_gz_give_their_files_named_inside_the_archive() {
        let entries: [(&str, &[u8]); 2] =
            [("release/a.csv", b"item,arm,correct\nq1,a,1\n"), ("release/b/run.txt", b"1 Q0 d 1 2.0 r\n")];
        for (name, bytes, kind) in
            [("r.zip", zip_of(&entries), ArchiveKind::Zip), ("r.tar.gz", tar_gz_of(&entries), ArchiveKind::TarGz)]
        {
            assert_eq!(ArchiveKind::of_name(name), Some(kind));
            let opened = open(&InputFile::new(name, bytes), kind).unwrap();
            let names: Vec<&str> = opened.files.iter().map(|f| f.name.as_str()).collect();
            assert_eq!(names, [format!("{name}/release/a.csv"), format!("{name}/release/b/run.txt")]);
            assert_eq!(&opened.files[1].bytes().unwrap()[..], b"1 Q0 d 1 2.0 r\n");
        }
        assert_eq!(ArchiveKind::of_name("log.eval"), None);
    }

    /// An entry this machine cannot hold under the budget is refused with its name and what to
    /// do, in the words of the interface (a mention of the byte budget).
    #[test]
    fn an_entry_that_does_not_fit_in_memory_says_what_to_do() {
        struct Exhausted;
        impl Read for Exhausted {
            fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
                Err(std::io::ErrorKind::OutOfMemory.into())
            }
        }
        let e = entry_bytes("r.zip", "big.csv", &mut Exhausted, Limits::DEFAULT).unwrap_err();
        assert_eq!(e.location.file, "r.zip/big.csv");
        assert!(e.message.contains("more than this machine can hold"), "{}", e.message);
        assert!(e.message.contains(&crate::fields::mention("max_bytes")), "{}", e.message);
    }

    #[test]
    fn an_entry_over_the_budget_is_refused_while_it_inflates() {
        let big = vec![b'a'; 10_000];
        let z = zip_of(&[("big.txt", &big)]);
        let archive = InputFile::new("r.zip", z).with_limits(Limits { max_bytes: 1000, max_rows: 10 });
        let e = open(&archive, ArchiveKind::Zip).unwrap_err();
        assert_eq!(e.location.file, "r.zip/big.txt");
        assert!(e.message.contains("unpacks to more than 1000 bytes"), "{}", e.message);
        let e = open(&InputFile::new("bad.zip", b"PK\x03\x04 not really".to_vec()), ArchiveKind::Zip).unwrap_err();
        assert!(e.message.starts_with("not a readable archive"), "{}", e.message);
    }
}
