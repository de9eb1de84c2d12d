//! JSON Lines read as a stream (a file on disk, a browser `File`) give exactly what the same
//! bytes held in memory give: the same records, warnings and file report, or the same error —
//! on valid bundles, their gzip, every run line form, and valid bundles with random edits. The
//! budgets of a stream are counted as it is read.

use crate::common;

use memaudit::error::IngestError;
use memaudit::ingest::{self, ChunkedSource, InputFile, Limits, Loaded, Role};
use proptest::prelude::*;

fn held(name: &str, bytes: &[u8], limits: Limits) -> InputFile {
    InputFile::new(name, bytes.to_vec()).with_limits(limits)
}

fn streamed(name: &str, bytes: &[u8], step: usize, limits: Limits) -> InputFile {
    InputFile::streamed(name, ingest::share(ChunkedSource::new(bytes.to_vec(), step))).with_limits(limits)
}

/// What reading gives, comparable: the loaded records (their debug form) or the error.
fn read(files: &[InputFile]) -> Result<String, IngestError> {
    let mut loaded = Loaded::default();
    for f in files {
        ingest::read_into(f, Role::Any, &mut loaded, &mut |_| {})?;
    }
    Ok(format!("{loaded:?}"))
}

fn gzip(text: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(text).unwrap();
    enc.finish().unwrap()
}

fn bundle(queries: usize, seed: u64) -> [(&'static str, String); 3] {
    let spec = memaudit::synth::SynthSpec { queries, systems: 3, depth: 12, seed, quirks: true, own_store: true };
    let (m, q, r) = memaudit::synth::to_jsonl(&memaudit::synth::generate(&spec));
    [("memories.jsonl", m), ("queries.jsonl", q), ("runs.jsonl", r)]
}

fn same_both_ways(files: &[(&str, Vec<u8>)], step: usize, limits: Limits) -> (Result<String, IngestError>, bool) {
    let h: Vec<InputFile> = files.iter().map(|(n, b)| held(n, b, limits)).collect();
    let s: Vec<InputFile> = files.iter().map(|(n, b)| streamed(n, b, step, limits)).collect();
    let want = read(&h);
    let got = read(&s);
    let same = got == want;
    (want, same)
}

#[test]
fn a_streamed_bundle_reads_as_held_plain_and_gzip() {
    // Large enough for several parallel batches of the streamed reader (4 MB each).
    let files = bundle(4_000, 7);
    assert!(files[2].1.len() > 8 << 20, "{} bytes", files[2].1.len());
    for gz in [false, true] {
        let files: Vec<(&str, Vec<u8>)> =
            files.iter().map(|(n, t)| (*n, if gz { gzip(t.as_bytes()) } else { t.as_bytes().to_vec() })).collect();
        let (want, same) = same_both_ways(&files, 1 << 16, Limits::DEFAULT);
        assert!(want.is_ok(), "{want:?}");
        assert!(same, "gzip {gz}");
    }
}

#[test]
fn every_run_line_form_and_awkward_lines_read_as_held() {
    let texts = [
        // Flat per-hit rows (collected per list), with a BOM, CRLF ends, blank lines and no last newline.
        "\u{feff}{\"system\": \"s\", \"query_id\": \"q1\", \"retrieved_id\": \"a\", \"rank\": 2}\r\n\r\n  \n\
         {\"system\": \"s\", \"query_id\": \"q1\", \"retrieved_id\": \"b\", \"rank\": 1}",
        // A LongMemEval retrieval log.
        "{\"question_id\": \"q1\", \"retrieval_results\": {\"ranked_items\": [{\"corpus_id\": \"noans_1\"}, {\"corpus_id\": \"x\"}]}}\n",
        // Target mappings.
        "{\"query_id\": \"q1\", \"raw_ids\": [\"a\"], \"source_ids\": [\"b\"], \"canonical_ids\": [1]}\n",
        // Errors: a bad line after good ones, mixed forms, a missing field, an empty id, not UTF-8.
        "{\"system\": \"s\", \"query_id\": \"q\", \"ranked\": [\"a\"]}\n{\"system\": \"s\", \"query_id\": \"q\", \"ranked\": [\"a\",}\n",
        "{\"system\": \"s\", \"query_id\": \"q\", \"ranked\": [\"a\"]}\n{\"system\": \"s\", \"query_id\": \"q\", \"retrieved_id\": \"a\"}\n",
        "{\"system\": \"s\", \"query_id\": \"q\", \"ranked\": [\"a\"]}\n\n{\"system\": \"s\", \"ranked\": [\"b\"]}\n",
        "{\"memory_id\": \"m\", \"anchors\": [\"a\"]}\n{\"memory_id\": \"\", \"anchors\": [\"a\"]}\n",
    ];
    // TREC text: a run and qrels with comments, blank lines, CRLF and out-of-order ranks; then
    // a run line with 4 fields, a score that is not a number, qrels with a bad grade.
    let trec = [
        "# run\nq1 Q0 d2 2 0.5 sys\r\n\nq1 Q0 d1 1 0.9 sys\nq2 Q0 d1 1 0.3 sys extra\n",
        "q1 0 d1 1\n# judged later\nq1 0 d2 0\r\nq2 0 d3 2",
        "q1 Q0 d1 1 0.9 sys\nq1 Q0 d2 2\n",
        "q1 Q0 d1 1 0.9 sys\nq1 Q0 d2 2 high sys\n",
        "q1 0 d1 1\nq1 0 d2 x\n",
    ];
    for (i, text) in trec.iter().enumerate() {
        for step in [1, 7, 4096] {
            let (want, same) = same_both_ways(&[("f.trec", text.as_bytes().to_vec())], step, Limits::DEFAULT);
            assert!(same, "TREC text {i}, step {step}: held gives {want:?}");
            assert_eq!(want.is_err(), i >= 2, "TREC text {i}: {want:?}");
        }
    }
    for (i, text) in texts.iter().enumerate() {
        for step in [1, 7, 4096] {
            let (want, same) = same_both_ways(&[("f.jsonl", text.as_bytes().to_vec())], step, Limits::DEFAULT);
            assert!(same, "text {i}, step {step}: held gives {want:?}");
            assert_eq!(want.is_err(), i >= 3, "text {i}: {want:?}");
        }
    }
    let mut bad = b"{\"memory_id\": \"m\", \"anchors\": [\"a\"]}\n{\"memory_id\": \"".to_vec();
    bad.extend_from_slice(b"\xff\"}\n");
    let (want, same) = same_both_ways(&[("m.jsonl", bad)], 5, Limits::DEFAULT);
    assert!(same && want.as_ref().is_err_and(|e| e.message.starts_with("not UTF-8")), "{want:?}");
}

#[test]
fn a_stream_is_counted_against_its_budgets_as_it_is_read() {
    let files = bundle(40, 3);
    let runs = files[2].1.as_bytes();
    let lines = runs.iter().filter(|&&b| b == b'\n').count() as u64;
    let rows = |max_rows| Limits { max_bytes: 1 << 30, max_rows };
    // Exactly at the budgets, read; one under, refused with the held file's message.
    for limits in [rows(lines), Limits { max_bytes: runs.len() as u64, max_rows: lines }] {
        assert!(read(&[streamed("runs.jsonl", runs, 4096, limits)]).is_ok());
    }
    let over = read(&[streamed("runs.jsonl", runs, 4096, rows(lines - 1))]).unwrap_err();
    assert_eq!(over, read(&[held("runs.jsonl", runs, rows(lines - 1))]).unwrap_err());
    assert!(over.message.starts_with(&format!("holds more than {} rows (lines)", lines - 1)), "{over}");
    // TREC text is counted alike (comment lines are rows, as in a file read whole).
    let run = trec_files(1)[1].1.clone();
    let n = run.lines().filter(|l| !l.trim().is_empty()).count() as u64;
    assert!(read(&[streamed("run.trec", run.as_bytes(), 64, rows(n))]).is_ok());
    let over = read(&[streamed("run.trec", run.as_bytes(), 64, rows(n - 1))]).unwrap_err();
    assert_eq!(over, read(&[held("run.trec", run.as_bytes(), rows(n - 1))]).unwrap_err());
    // Gzip: the inflated bytes are counted (the stored size is under the budget).
    let gz = gzip(runs);
    let limits = Limits { max_bytes: runs.len() as u64 - 1, max_rows: u64::MAX };
    assert!((gz.len() as u64) < limits.max_bytes);
    let over = read(&[streamed("runs.jsonl.gz", &gz, 4096, limits)]).unwrap_err();
    assert!(over.message.starts_with(&format!("decompresses to more than {}", limits.max_bytes)), "{over}");
    assert_eq!(over, read(&[held("runs.jsonl.gz", &gz, limits)]).unwrap_err());
    // A gzip bomb of one endless line is refused at the budget, never held whole.
    let first = "{\"system\": \"s\", \"query_id\": \"q\", \"ranked\": [\"a\"]}\n";
    let mut bomb_text = first.as_bytes().to_vec();
    bomb_text.extend(std::iter::repeat_n(b' ', 200 << 20));
    let bomb = gzip(&bomb_text);
    let limits = Limits { max_bytes: 1 << 20, max_rows: u64::MAX };
    let over = read(&[streamed("bomb.jsonl.gz", &bomb, 1 << 16, limits)]).unwrap_err();
    assert!(over.message.starts_with("decompresses to more than 1048576 bytes"), "{over}");
}

/// Hashed while read (the viewer's worker), a streamed file is read once for its records and
/// not again for its SHA-256: the digest is that of its stored bytes, plain or gzip. A read that
/// stops early leaves no digest, and the file is then read again to be hashed.
#[test]
fn a_file_hashed_while_read_is_not_read_again_for_its_fingerprint() {
    let runs = bundle(30, 5)[2].1.clone().into_bytes();
    for bytes in [runs.clone(), gzip(&runs)] {
        let want = InputFile::new("r", bytes.clone()).sha256().unwrap();
        for (limits, ok) in [(Limits::DEFAULT, true), (Limits { max_bytes: 1 << 30, max_rows: 3 }, false)] {
            let source = ChunkedSource::new(bytes.clone(), 1000);
            let opened = source.opened();
            let file = InputFile::streamed("runs.jsonl", ingest::share(source)).with_limits(limits).hashed_while_read();
            assert_eq!(read(std::slice::from_ref(&file)).is_ok(), ok);
            let reads = opened.load(std::sync::atomic::Ordering::SeqCst);
            assert_eq!(reads, 2, "its start (the format), then its records");
            assert_eq!(file.clone().sha256().unwrap(), want);
            let again = opened.load(std::sync::atomic::Ordering::SeqCst) - reads;
            assert_eq!(again, usize::from(!ok), "read again to be hashed only when the read stopped early");
        }
    }
}

/// Replaces the character at each position (modulo the length) with the edit's text.
fn edit_text(text: &mut String, edits: Vec<(usize, &'static str)>) {
    for (at, with) in edits {
        let mut at = at % (text.len() + 1);
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        let end = (at + 1..=text.len()).find(|&e| text.is_char_boundary(e)).unwrap_or(text.len());
        text.replace_range(at..end, with);
    }
}

/// Edits that keep the text UTF-8 (a file that is not is refused by both, but where the bad
/// byte and an earlier bad line are both present, the held file names the byte first).
fn edit() -> impl Strategy<Value = (usize, &'static str)> {
    (
        any::<usize>(),
        prop::sample::select(vec!["", "\"", "{", "}", ",", "\n", "\r\n", " ", "1", "-", "é", "[", "]", "x"]),
    )
}

/// A TREC run and qrels written from a bundle (the shapes `cargo bench --bench trec_eval`
/// writes), for the edited-files property.
fn trec_files(seed: u64) -> [(&'static str, String); 2] {
    let spec = memaudit::synth::SynthSpec { queries: 4, systems: 2, depth: 8, seed, quirks: false, own_store: false };
    let b = memaudit::synth::generate(&spec);
    let mut run = String::from("# a comment\n");
    for r in &b.runs {
        for (i, it) in r.ranked.iter().enumerate() {
            run.push_str(&format!(
                "{} Q0 {} {} {} {}\n",
                r.query_id,
                it.memory_id,
                i + 1,
                10.0 - i as f64 / 3.0,
                r.system
            ));
        }
    }
    let mut qrels = String::new();
    for q in &b.queries {
        for e in &q.evidence {
            qrels.push_str(&format!("{} 0 {} {}\n", q.query_id, e.anchor, e.grade));
        }
    }
    [("qrels.txt", qrels), ("run.trec", run)]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// A bundle's JSON Lines or a TREC run and qrels, edited.
    #[test]
    fn edited_files_read_the_same_streamed(
        seed in 0u64..1000,
        trec in any::<bool>(),
        edits in prop::collection::vec(edit(), 0..4),
        which in 0usize..3,
        step in prop::sample::select(vec![1usize, 3, 64, 4096]),
    ) {
        let mut files: Vec<(&str, String)> = if trec { trec_files(seed).into() } else { bundle(4, seed).into() };
        let n = files.len();
        edit_text(&mut files[which % n].1, edits);
        let files: Vec<(&str, Vec<u8>)> = files.iter().map(|(n, t)| (*n, t.as_bytes().to_vec())).collect();
        let (want, same) = same_both_ways(&files, step, Limits::DEFAULT);
        prop_assert!(same, "held gives {:?}", want);
    }
}

/// The released files of the rescoring families, as shipped, read as streams (the line formats
/// line by line, the documents whole) give what they give held in memory.
#[test]
fn released_files_read_the_same_streamed() {
    let shared = common::shared().join("fixtures/external");
    let sets: [&[&str]; 5] = [
        &["ir_measures/compat.qrels", "ir_measures/compat.run"],
        &["BriefBench/longmemeval_s_cleaned_snapshot.json"],
        &["ranx/qrels.json", "ranx/run.json"],
        &["locomo-audit/locomo10.json"],
        &["ir_measures/compat.run"],
    ];
    for set in sets {
        let files: Vec<(&str, Vec<u8>)> =
            set.iter().map(|rel| (*rel, std::fs::read(shared.join(rel)).expect("a released fixture"))).collect();
        let (want, same) = same_both_ways(&files, 4096, Limits::DEFAULT);
        assert!(want.is_ok(), "{set:?}: {want:?}");
        assert!(same, "{set:?}");
    }
}
