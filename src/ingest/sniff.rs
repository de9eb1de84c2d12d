//! What a file looks like, read once for triage ([`Sniff`]): the start of its text (or all of it
//! when it is small), whether it is an archive, and the columns of its first records. Each
//! capability recognises its own inputs from a sniff (`Capability::recognise`); a file no
//! capability recognises is described by [`Sniff::shape`], so that a release's triage can say what
//! a file is and what it lacks.

use std::borrow::Cow;

use crate::ingest::{InputFile, file_stem};

/// Files whose text (gzip undone) is up to this size are sniffed whole (a JSON document must be
/// whole to be parsed); larger ones by their first [`crate::ingest::HEAD_BYTES`], cut after a
/// whole line.
pub const WHOLE_BYTES: usize = 16 << 20;

/// The shape of a file in words, for a file nothing recognises.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shape {
    /// A zip archive (an Inspect `.eval` log, or an archive the release packs).
    Zip,
    /// Binary content (not UTF-8 text, not gzip of text).
    Binary,
    Empty,
    /// A table: its columns (CSV/TSV header, or the keys of JSON records).
    Table(Vec<String>),
    /// One JSON document that is not a table: its top-level keys (an object) or nothing (other).
    Json(Vec<String>),
    /// One JSON object whose every value is a number, a text, a flag, `null` or a list of them: a
    /// configuration or a summary (its keys), never per-item records.
    Scalars(Vec<String>),
    /// A table's header with no row below it: its columns.
    HeaderOnly(Vec<String>),
    /// Text that is none of the above (prose, code, a licence, TREC lines).
    Text,
}

impl Shape {
    pub fn describe(&self) -> String {
        let list = |v: &[String]| {
            let shown: Vec<&str> = v.iter().take(12).map(String::as_str).collect();
            let more = v.len().saturating_sub(shown.len());
            if more > 0 { format!("{} and {more} more", shown.join(", ")) } else { shown.join(", ") }
        };
        match self {
            Shape::Zip => "a zip archive".into(),
            Shape::Binary => "binary content".into(),
            Shape::Empty => "an empty file".into(),
            // A first row with a fraction in it is data, not names (MS MARCO's `idf.norm.tsv`:
            // `is\t0.0389…`): said so, never called the columns' names. Whole numbers are left
            // alone: a header may name cutoffs or years (`k,1,5,10`).
            Shape::Table(c)
                if c.iter().any(|h| {
                    let h = h.trim();
                    h.parse::<i64>().is_err() && h.parse::<f64>().is_ok_and(f64::is_finite)
                }) =>
            {
                format!("a table with {} columns and no header row (its first row: {})", c.len(), list(c))
            }
            Shape::Table(c) => format!("a table with {} columns: {}", c.len(), list(c)),
            Shape::Json(k) if k.is_empty() => "a JSON document".into(),
            Shape::Json(k) => format!("a JSON object with keys {}", list(k)),
            Shape::Scalars(k) => {
                format!("a JSON object of {} single values (a configuration or a summary): {}", k.len(), list(k))
            }
            Shape::HeaderOnly(c) => format!("a table header with no row: {}", list(c)),
            Shape::Text => "text".into(),
        }
    }
}

/// One file as triage reads it.
#[derive(Debug, Clone)]
pub struct Sniff<'a> {
    /// The file as given.
    pub file: &'a InputFile,
    /// The first [`crate::ingest::HEAD_BYTES`] of a file larger than [`WHOLE_BYTES`] (text, gzip
    /// undone, cut after a whole line); `None` when the file is read whole ([`Self::input`]).
    head: Option<InputFile>,
    /// The text recognisers read: the whole file's, or its head's (`None`: binary, a zip, or
    /// unreadable).
    pub text: Option<Cow<'a, str>>,
    pub shape: Shape,
    /// The text as one JSON document, when it parses as one: parsed once here, so that
    /// recognisers asking "is this document X?" do not parse it again.
    pub doc: Option<serde_json::Value>,
}

impl<'a> Sniff<'a> {
    pub fn of(file: &'a InputFile) -> Sniff<'a> {
        let zip = file.bytes().is_ok_and(|b| b.starts_with(b"PK\x03\x04"));
        // Whole when its text is small: a small gzip may inflate to far more than it stores.
        let whole = file.len() <= WHOLE_BYTES && (zip || !file.inflates_beyond(WHOLE_BYTES));
        let text = if zip {
            None
        } else if whole {
            file.text().ok().map(|(t, _)| t)
        } else {
            file.head_text().ok()
        };
        let head = match (&text, whole) {
            (Some(t), false) => {
                Some(InputFile::new(file.name.clone(), t.as_bytes().to_vec()).with_limits(file.limits()))
            }
            _ => None,
        };
        let mut sniff = Sniff { file, head, text: None, shape: Shape::Binary, doc: None };
        if zip {
            sniff.shape = Shape::Zip;
        } else if let Some(t) = &text {
            if t.trim().is_empty() {
                sniff.shape = Shape::Empty;
            } else {
                (sniff.shape, sniff.doc) = shape_of(sniff.input(), t);
            }
        }
        sniff.text = text;
        sniff
    }

    /// The first whole lines of the text within `n` bytes (all of it when shorter): a bounded
    /// look for recognisers that parse rows.
    pub fn head_lines(&self, n: usize) -> Option<&str> {
        let text = self.text.as_deref()?;
        let head = super::prefix(text, n);
        Some(match head.rfind('\n') {
            Some(i) if head.len() < text.len() => &head[..=i],
            _ => head,
        })
    }

    /// What recognisers read as a file: the file itself, or its head when it is too large to be
    /// read whole.
    pub fn input(&self) -> &InputFile {
        self.head.as_ref().unwrap_or(self.file)
    }

    /// The file's name without folders and extensions, lower case (`probe_keys_base16`).
    pub fn stem(&self) -> String {
        file_stem(&self.file.name).to_lowercase()
    }

    /// Whether the table has a column named one of `names` (any case).
    pub fn has_column(&self, names: &[&str]) -> bool {
        match &self.shape {
            Shape::Table(c) => c.iter().any(|c| names.iter().any(|n| c.eq_ignore_ascii_case(n))),
            _ => false,
        }
    }

    /// The table's columns (empty when it is not one).
    pub fn columns(&self) -> &[String] {
        match &self.shape {
            Shape::Table(c) => c,
            _ => &[],
        }
    }
}

/// A table's columns when the text reads as one (a JSON record's nested objects add their keys,
/// `outer.inner`), and the parsed document when the text is one JSON document (the first 200 records), a JSON document's keys,
/// else text.
fn shape_of(input: &InputFile, text: &str) -> (Shape, Option<serde_json::Value>) {
    let first = text.trim_start().chars().next();
    if first == Some('{') || first == Some('[') {
        // One JSON document (an object of keys, or an array that is not of flat records).
        if let Ok(doc) = serde_json::from_str::<serde_json::Value>(text) {
            let shape = match &doc {
                serde_json::Value::Object(m) if !m.is_empty() && m.values().all(setting) => {
                    Shape::Scalars(m.keys().cloned().collect())
                }
                serde_json::Value::Object(m) => Shape::Json(m.keys().cloned().collect()),
                serde_json::Value::Array(a) if a.iter().all(|v| v.is_object()) && !a.is_empty() => {
                    Shape::Table(keys_of(a.iter().take(200).filter_map(|v| v.as_object())))
                }
                _ => Shape::Json(Vec::new()),
            };
            return (shape, Some(doc));
        }
        // JSON Lines: the keys of the first records.
        let objects: Vec<serde_json::Map<String, serde_json::Value>> = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .take(200)
            .map_while(|l| serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(l).ok())
            .collect();
        let shape = if objects.is_empty() { Shape::Text } else { Shape::Table(keys_of(objects.iter())) };
        return (shape, None);
    }
    let shape = match crate::ingest::table::rows(input) {
        Ok(t) if t.headers.len() > 1 && !t.records.is_empty() => Shape::Table(t.headers),
        Ok(t) if t.headers.len() > 1 => Shape::HeaderOnly(t.headers),
        _ => Shape::Text,
    };
    (shape, None)
}

/// A value a configuration holds: a scalar, or a list of scalars.
fn setting(v: &serde_json::Value) -> bool {
    use serde_json::Value;
    match v {
        Value::Object(_) => false,
        Value::Array(a) => a.iter().all(|x| !x.is_object() && !x.is_array()),
        _ => true,
    }
}

fn keys_of<'m>(objects: impl Iterator<Item = &'m serde_json::Map<String, serde_json::Value>>) -> Vec<String> {
    // In first-seen order; the set keeps this linear in the keys (a record may hold 10⁵).
    let mut out: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut add = |k: String| {
        if seen.insert(k.clone()) {
            out.push(k);
        }
    };
    for o in objects {
        for (k, v) in o {
            add(k.clone());
            // A nested object's keys as the outcome reader flattens them (`autoeval_label.label`).
            if let serde_json::Value::Object(inner) = v {
                for sub in inner.keys().take(50) {
                    add(format!("{k}.{sub}"));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(name: &str, text: &str) -> Shape {
        Sniff::of(&InputFile::new(name, text.as_bytes())).shape
    }

    #[test]
    fn a_small_gzip_of_a_large_text_is_sniffed_by_its_head() {
        use std::io::Write;
        // 20 MB of one long TSV row per line (a SPLADE topics file's shape) in a few kB of gzip.
        let line = format!("1\t{}\n", "s ".repeat(100_000));
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        for _ in 0..100 {
            gz.write_all(line.as_bytes()).unwrap();
        }
        let bytes = gz.finish().unwrap();
        assert!(bytes.len() < WHOLE_BYTES / 100, "{}", bytes.len());
        let file = InputFile::new("topics.tsv.gz", bytes);
        assert!(file.inflates_beyond(WHOLE_BYTES));
        let sniff = Sniff::of(&file);
        let text = sniff.text.as_deref().unwrap();
        assert!(text.len() <= crate::ingest::HEAD_BYTES, "sniffed by its head: {}", text.len());
        assert!(std::ptr::eq(sniff.input(), sniff.input()) && sniff.input().len() == text.len());
        assert!(!InputFile::new("a.csv", b"a,b\n1,2\n".to_vec()).inflates_beyond(4));
    }

    #[test]
    fn tables_documents_and_text_are_told_apart() {
        assert_eq!(
            shape("a.csv", "item,arm,correct\nq1,a,1\n"),
            Shape::Table(vec!["item".into(), "arm".into(), "correct".into()])
        );
        assert_eq!(shape("a.jsonl", "{\"a\":1}\n{\"a\":2,\"b\":3}\n"), Shape::Table(vec!["a".into(), "b".into()]));
        let nested = shape("j.jsonl", "{\"id\":1,\"judge\":{\"label\":true,\"model\":\"m\"}}\n{\"id\":2}\n");
        assert_eq!(nested, Shape::Table(["id", "judge", "judge.label", "judge.model"].map(String::from).to_vec()));
        assert_eq!(shape("a.json", "[{\"x\":1},{\"y\":2}]"), Shape::Table(vec!["x".into(), "y".into()]));
        assert_eq!(shape("a.json", "{\"q1\": {\"d1\": 1}}"), Shape::Json(vec!["q1".into()]));
        let config = shape("config.json", "{\"top_k\": 10, \"model\": \"m\", \"stops\": [\"a\"], \"x\": null}");
        assert_eq!(config, Shape::Scalars(["model", "stops", "top_k", "x"].map(String::from).to_vec()));
        assert_eq!(
            config.describe(),
            "a JSON object of 4 single values (a configuration or a summary): model, stops, top_k, x"
        );
        assert_eq!(shape("LICENSE", "Apache License\nVersion 2.0, January 2004\n"), Shape::Text);
        assert_eq!(shape("e", "  \n"), Shape::Empty);
        assert_eq!(Sniff::of(&InputFile::new("x.eval", b"PK\x03\x04rest".to_vec())).shape, Shape::Zip);
        assert_eq!(Sniff::of(&InputFile::new("x.bin", vec![0xff, 0xfe, 0x00, 0x01])).shape, Shape::Binary);
        assert!(shape("a.csv", "a,b\n1,2\n").describe().contains("2 columns: a, b"));
        // A first row holding a number is data: the table has no header row, and says so.
        assert_eq!(
            shape("idf.norm.tsv", "is\t0.0389\nthe\t0.0012\n").describe(),
            "a table with 2 columns and no header row (its first row: is, 0.0389)"
        );
    }
}
