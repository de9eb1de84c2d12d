//! TREC run files (`qid Q0 docno rank score tag`) and qrels (`qid iter docno rel`), read as
//! trec_eval reads them ([`crate::ingest::trec_eval_files`]: `#` comment lines, fields after the sixth
//! ignored, docnos may hold `#`), and the ranx / pytrec_eval dict-of-dicts JSON
//! (`{"qid": {"docno": score}}` runs, `{"qid": {"docno": rel}}` qrels).
//!
//! With qrels the store is the set of judged documents, each a raw memory anchored to itself,
//! so only the Raw target exists; a relevant document (rel > 0) is one relevance group with
//! grade = rel. Ranked documents missing from the qrels are unjudged (no credit), as in
//! trec_eval, and counted once per run. A topic judged without any relevant document is
//! scored (0), as trec_eval does.

use rustc_hash::FxHashMap;

use super::bundle::HitCollector;
use super::records::{self, Lines};
use super::{Format, Loaded, WarningKind};
use crate::error::{IngestError, Location};
use crate::ingest::trec_eval_files::{self as files, IrFileKind};
use crate::model::{Evidence, Memory, Query, RankedItem};

/// The TREC or dict-of-dicts format of a file, `None` when it is neither.
pub fn detect(name: &str, text: &str) -> Option<Format> {
    match files::detect(text)? {
        IrFileKind::TrecQrels => Some(Format::TrecQrels),
        IrFileKind::TrecRun => Some(Format::TrecRun),
        IrFileKind::JsonRun => Some(Format::JsonRun),
        IrFileKind::JsonIntegers => {
            let base = name.rsplit(['/', '\\']).next().unwrap_or(name).to_ascii_lowercase();
            Some(if base.contains("qrel") || base.contains("judg") { Format::JsonQrels } else { Format::JsonRun })
        }
    }
}

/// The refusal of a text file that is neither TREC nor anything else memaudit reads.
pub fn not_trec(name: &str, text: &str) -> IngestError {
    let (line_no, line) = text
        .lines()
        .enumerate()
        .find(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| (i + 1, l))
        .unwrap_or((1, ""));
    let fields = line.split_ascii_whitespace().count();
    let hint = if line.contains(',') && (line.contains("query") || line.contains("run")) {
        " — a CSV of per-query or per-item results is an input of the paired comparison (`outcomes`)"
    } else {
        ""
    };
    IngestError::new(
        Location::line(name, line_no),
        format!(
            "not JSON and not TREC: a TREC run line has 6 fields (qid Q0 docno rank score tag), a qrels line 4 \
             (qid iter docno rel); this line has {fields}{hint}"
        ),
    )
}

/// A TREC run: one system per run tag, each (tag, query) list in rank order (see
/// [`HitCollector`]). Read one line at a time from a stream.
pub fn read_run(
    file: &str,
    lines: Lines<'_>,
    loaded: &mut Loaded,
    progress: &mut dyn FnMut(f64),
) -> Result<usize, IngestError> {
    let mut hits = HitCollector::default();
    let mut n = 0;
    records::each_line(file, lines, progress, |line_no, line| {
        if files::comment_or_blank(line).is_some() {
            return Ok(());
        }
        let l = files::run_line(file, line_no, line)?;
        let rank: f64 = l.rank.parse().map_err(|_| {
            IngestError::new(
                Location::line(file, l.line).with_field("rank"),
                format!(
                    "`{}` is not a number (or rescore in trec_eval's order: {} trec_eval ignores ranks)",
                    l.rank,
                    crate::fields::mention("order")
                ),
            )
        })?;
        hits.push(
            l.tag.to_string(),
            l.qid.to_string(),
            Some(rank),
            RankedItem { memory_id: l.docno.into(), score: Some(l.sim) },
            || Location::line(file, l.line).to_string(),
        );
        n += 1;
        Ok(())
    })?;
    hits.finish(loaded);
    Ok(n)
}

/// A dict-of-dicts run: one system named after the file, each query's documents in descending
/// score (ties by docno descending, as trec_eval ranks them).
pub fn read_json_run(file: &str, text: &str, loaded: &mut Loaded) -> Result<usize, IngestError> {
    let dict = files::read_dict_of_dicts(file, text, false)?;
    let system = super::file_stem(file);
    let mut n = 0;
    for (qid, mut docs) in dict {
        docs.sort_by(|a, b| b.1.partial_cmp(&a.1).unwrap_or(std::cmp::Ordering::Equal).then_with(|| b.0.cmp(&a.0)));
        n += docs.len();
        loaded.bundle.runs.push(crate::model::Run {
            system: system.clone(),
            query_id: qid,
            ranked: docs.into_iter().map(|(d, s)| RankedItem { memory_id: d.into(), score: Some(s) }).collect(),
        });
    }
    Ok(n)
}

/// The judgments of qrels, by query: (qid, [(docno, rel, line)]) in file order.
type Judged = Vec<(String, Vec<(String, i64, usize)>)>;

/// TREC qrels: each query's judgments in file order. Read one line at a time from a stream.
pub fn read_qrels(
    file: &str,
    lines: Lines<'_>,
    loaded: &mut Loaded,
    progress: &mut dyn FnMut(f64),
) -> Result<usize, IngestError> {
    let mut judged: Judged = Vec::new();
    let mut index: FxHashMap<String, usize> = FxHashMap::default();
    let mut n = 0;
    records::each_line(file, lines, progress, |line_no, line| {
        if files::comment_or_blank(line).is_some() {
            return Ok(());
        }
        let l = files::qrels_line(file, line_no, line)?;
        let qi = *index.entry(l.qid.to_string()).or_insert_with(|| {
            judged.push((l.qid.to_string(), Vec::new()));
            judged.len() - 1
        });
        judged[qi].1.push((l.docno.to_string(), l.rel, l.line));
        n += 1;
        Ok(())
    })?;
    store_qrels(file, judged, loaded);
    Ok(n)
}

pub fn read_json_qrels(file: &str, text: &str, loaded: &mut Loaded) -> Result<usize, IngestError> {
    let dict = files::read_dict_of_dicts(file, text, true)?;
    let judged: Judged =
        dict.into_iter().map(|(q, docs)| (q, docs.into_iter().map(|(d, r)| (d, r as i64, 0)).collect())).collect();
    let n = judged.iter().map(|(_, d)| d.len()).sum();
    store_qrels(file, judged, loaded);
    Ok(n)
}

fn store_qrels(file: &str, judged: Judged, loaded: &mut Loaded) {
    let mut docs: FxHashMap<String, ()> = FxHashMap::default();
    let mut doc_order: Vec<String> = Vec::new();
    for (qid, list) in judged {
        let mut evidence = Vec::new();
        for (docno, rel, line) in list {
            if docs.insert(docno.clone(), ()).is_none() {
                doc_order.push(docno.clone());
            }
            if rel > 0 {
                evidence.push(Evidence { anchor: docno, grade: rel as f64 });
            } else {
                loaded.warnings.add(WarningKind::NonRelevantJudgment, || {
                    if line > 0 {
                        Location::line(file, line).to_string()
                    } else {
                        format!("{file}: `{qid}` → `{docno}`")
                    }
                });
            }
        }
        loaded.bundle.queries.push(Query {
            query_id: qid,
            evidence,
            category: None,
            text: None,
            answer: None,
            targets: None,
            extra: Default::default(),
        });
    }
    loaded.bundle.memories.extend(doc_order.into_iter().map(|d| Memory {
        anchors: vec![d.clone()],
        memory_id: d,
        raw: true,
        canonical: false,
        kind: Some("judged_document".to_string()),
        text: None,
        systems: None,
        extra: Default::default(),
    }));
    loaded.from_trec_qrels = true;
}

#[cfg(test)]
mod tests {
    use crate::ingest::{Format, InputFile, WarningKind, read_all};

    #[test]
    fn qrels_and_run() {
        let l = read_all(&[
            InputFile::new("q.qrels", &b"1 0 A 3\n1 0 B 2\n1 0 C 1\n1 0 D 0\n"[..]),
            InputFile::new("r.run", &b"1 Q0 C 1 4.0 sys\n1 Q0 X 2 3.0 sys\n1 Q0 A 3 2.0 sys\n1 Q0 B 4 1.0 sys\n"[..]),
        ])
        .unwrap();
        assert!(l.from_trec_qrels);
        assert_eq!(l.bundle.memories.len(), 4);
        assert_eq!(l.bundle.queries[0].evidence.len(), 3);
        assert_eq!(l.bundle.queries[0].evidence[0].grade, 3.0);
        assert_eq!(l.warnings.count(WarningKind::NonRelevantJudgment), 1);
        assert_eq!(l.bundle.runs[0].system, "sys");
        assert_eq!(l.bundle.runs[0].ranked.len(), 4);
    }

    #[test]
    fn trec_eval_test_suite_shapes_are_read() {
        // Comment lines, extra trailing fields, docnos holding `#`.
        let l = read_all(&[
            InputFile::new(
                "q.qrels",
                &b"# comment here\n2024-1 0 msmarco_doc_50#13_308 1\n# and here\n2024-1 0 d2 0\n"[..],
            ),
            InputFile::new(
                "r.run",
                &b"# run\n2024-1 Q0 msmarco_doc_50#13_308 1 0.7 comment.test extra\n2024-1 Q0 d9 2 0.6 comment.test\n"
                    [..],
            ),
        ])
        .unwrap();
        assert_eq!(l.files.iter().map(|f| f.format).collect::<Vec<_>>(), [Format::TrecQrels, Format::TrecRun]);
        assert_eq!(l.bundle.queries[0].evidence[0].anchor, "msmarco_doc_50#13_308");
        assert_eq!(l.bundle.runs[0].ranked[0].memory_id, "msmarco_doc_50#13_308");
    }

    #[test]
    fn dict_of_dicts_json() {
        let l = read_all(&[
            InputFile::new("qrels.json", &br#"{"q1": {"d1": 1, "d2": 2, "d3": 0}}"#[..]),
            InputFile::new("bm25.json", &br#"{"q1": {"d3": 0.3, "d1": 0.9, "d2": 0.9}}"#[..]),
        ])
        .unwrap();
        assert_eq!(l.files.iter().map(|f| f.format).collect::<Vec<_>>(), [Format::JsonQrels, Format::JsonRun]);
        let r = &l.bundle.runs[0];
        assert_eq!(r.system, "bm25");
        // Score descending, ties by docno descending.
        assert_eq!(r.ranked.iter().map(|i| i.memory_id.as_str()).collect::<Vec<_>>(), ["d2", "d1", "d3"]);
        assert_eq!(l.bundle.queries[0].evidence.len(), 2);
    }

    #[test]
    fn bad_numbers_name_the_field() {
        let e = read_all(&[InputFile::new("r.run", &b"1 Q0 C 1 4.0 sys\n1 Q0 X 2 abc sys\n"[..])]).unwrap_err();
        assert_eq!((e.location.line, e.location.field.as_deref()), (Some(2), Some("sim")));
        let e = read_all(&[InputFile::new("r.run", &b"1 Q0 C 1 4.0 sys\n1 Q0 X 2\n"[..])]).unwrap_err();
        assert_eq!(e.location.line, Some(2));
    }

    #[test]
    fn a_per_query_records_csv_points_to_compare() {
        let csv = "run_id,dataset,query_index,raw_eligible,raw_hit_at_k\nr1,LoCoMo,1,True,1.0\n";
        let e = read_all(&[InputFile::new("records.csv", csv.as_bytes().to_vec())]).unwrap_err();
        assert!(e.message.contains("paired comparison (`outcomes`)"), "{}", e.message);
    }
}
