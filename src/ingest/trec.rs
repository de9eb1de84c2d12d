//! TREC run files (`qid Q0 docno rank score tag`) and qrels (`qid iter docno rel`).
//!
//! With qrels the store is the set of judged documents, each a raw memory anchored to itself,
//! so only the Raw target exists; a relevant document (rel > 0) is one relevance group with
//! grade = rel. Ranked documents missing from the qrels are unjudged (no credit), as in
//! trec_eval.

use rustc_hash::FxHashMap;

use super::bundle::HitCollector;
use super::{Format, Loaded, WarningKind};
use crate::error::{IngestError, Location};
use crate::model::{Evidence, Memory, Query, RankedItem};

pub fn detect(name: &str, text: &str) -> Result<Format, IngestError> {
    let (line_no, line) =
        text.lines().enumerate().find(|(_, l)| !l.trim().is_empty()).map(|(i, l)| (i + 1, l)).unwrap_or((1, ""));
    let fields: Vec<&str> = line.split_whitespace().collect();
    match fields.len() {
        6 => Ok(Format::TrecRun),
        4 if fields[3].parse::<f64>().is_ok() => Ok(Format::TrecQrels),
        _ => Err(IngestError::new(
            Location::line(name, line_no),
            format!(
                "not JSON and not TREC: a TREC run line has 6 fields (qid Q0 docno rank score tag), \
                 a qrels line 4 (qid iter docno rel); this line has {}",
                fields.len()
            ),
        )),
    }
}

pub fn read_run(file: &str, text: &str, loaded: &mut Loaded) -> Result<usize, IngestError> {
    let mut hits = HitCollector::default();
    let mut n = 0;
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() != 6 {
            return Err(IngestError::new(
                Location::line(file, line_no),
                format!("a TREC run line has 6 fields (qid Q0 docno rank score tag), found {}", f.len()),
            ));
        }
        let rank: f64 = f[3].parse().map_err(|_| {
            IngestError::new(Location::line(file, line_no).with_field("rank"), format!("`{}` is not a number", f[3]))
        })?;
        let score: f64 = f[4].parse().map_err(|_| {
            IngestError::new(Location::line(file, line_no).with_field("score"), format!("`{}` is not a number", f[4]))
        })?;
        if !score.is_finite() {
            return Err(IngestError::new(Location::line(file, line_no).with_field("score"), "is not finite"));
        }
        hits.push(
            f[5].to_string(),
            f[0].to_string(),
            Some(rank),
            RankedItem { memory_id: f[2].to_string(), score: Some(score) },
            || Location::line(file, line_no).to_string(),
        );
        n += 1;
    }
    hits.finish(loaded);
    Ok(n)
}

pub fn read_qrels(file: &str, text: &str, loaded: &mut Loaded) -> Result<usize, IngestError> {
    let mut queries: Vec<Query> = Vec::new();
    let mut query_index: FxHashMap<String, usize> = FxHashMap::default();
    let mut docs: FxHashMap<String, ()> = FxHashMap::default();
    let mut doc_order: Vec<String> = Vec::new();
    let mut n = 0;
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() != 4 {
            return Err(IngestError::new(
                Location::line(file, line_no),
                format!("a qrels line has 4 fields (qid iter docno rel), found {}", f.len()),
            ));
        }
        let rel: f64 = f[3].parse().map_err(|_| {
            IngestError::new(Location::line(file, line_no).with_field("rel"), format!("`{}` is not a number", f[3]))
        })?;
        if !rel.is_finite() {
            return Err(IngestError::new(Location::line(file, line_no).with_field("rel"), "is not finite"));
        }
        let qi = *query_index.entry(f[0].to_string()).or_insert_with(|| {
            queries.push(Query {
                query_id: f[0].to_string(),
                evidence: Vec::new(),
                category: None,
                text: None,
                answer: None,
                extra: Default::default(),
            });
            queries.len() - 1
        });
        if docs.insert(f[2].to_string(), ()).is_none() {
            doc_order.push(f[2].to_string());
        }
        if rel > 0.0 {
            queries[qi].evidence.push(Evidence { anchor: f[2].to_string(), grade: rel });
        } else {
            loaded.warnings.add(WarningKind::NonRelevantJudgment, || Location::line(file, line_no).to_string());
        }
        n += 1;
    }
    loaded.bundle.memories.extend(doc_order.into_iter().map(|d| Memory {
        anchors: vec![d.clone()],
        memory_id: d,
        raw: true,
        canonical: false,
        kind: Some("judged_document".to_string()),
        text: None,
        extra: Default::default(),
    }));
    loaded.bundle.queries.extend(queries);
    loaded.from_trec_qrels = true;
    Ok(n)
}

#[cfg(test)]
mod tests {
    use crate::ingest::{InputFile, WarningKind, read_all};

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
    fn bad_numbers_name_the_field() {
        let e = read_all(&[InputFile::new("r.run", &b"1 Q0 C 1 4.0 sys\n1 Q0 X 2 abc sys\n"[..])]).unwrap_err();
        assert_eq!((e.location.line, e.location.field.as_deref()), (Some(2), Some("score")));
        let e = read_all(&[InputFile::new("r.run", &b"1 Q0 C 1 4.0 sys\n1 Q0 X 2\n"[..])]).unwrap_err();
        assert_eq!(e.location.line, Some(2));
    }
}
