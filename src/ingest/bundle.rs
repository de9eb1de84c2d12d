//! Readers for the memaudit bundle v1 (`memories.jsonl`, `queries.jsonl`, `runs.jsonl`, or one
//! `.json` object holding the three arrays) and for the other run forms: flat per-hit rows and
//! LongMemEval retrieval logs. See `docs/formats.md`.

use rustc_hash::FxHashMap;
use serde::Deserialize;

use super::records::{self, Lines, RankedEntry, RunRecord};
use super::{Loaded, WarningKind};
use crate::error::{IngestError, Location};
use crate::model::{Memory, Query, RankedItem, Run};

pub fn read_memories(
    file: &str,
    lines: Lines<'_>,
    loaded: &mut Loaded,
    progress: &mut dyn FnMut(f64),
) -> Result<usize, IngestError> {
    read_checked(file, lines, progress, check_memory, |m| loaded.bundle.memories.push(m))
}

pub fn read_queries(
    file: &str,
    lines: Lines<'_>,
    loaded: &mut Loaded,
    progress: &mut dyn FnMut(f64),
) -> Result<usize, IngestError> {
    read_checked(file, lines, progress, check_query, |q| loaded.bundle.queries.push(q))
}

/// Every record of a bundle file, each checked at its line and then kept; how many were read.
fn read_checked<T: serde::de::DeserializeOwned + Send>(
    file: &str,
    lines: Lines<'_>,
    progress: &mut dyn FnMut(f64),
    check: fn(&str, usize, &T) -> Result<(), IngestError>,
    mut keep: impl FnMut(T),
) -> Result<usize, IngestError> {
    let mut n = 0;
    records::each_record(file, lines, progress, |line, record: T| {
        check(file, line, &record)?;
        keep(record);
        n += 1;
        Ok(())
    })?;
    Ok(n)
}

/// One line of an MTEL-Mem target-mapping file (`minimal_target_mappings.jsonl`).
#[derive(serde::Deserialize)]
struct MappingRecord {
    #[serde(deserialize_with = "crate::model::lenient::id")]
    query_id: String,
    #[serde(default, deserialize_with = "crate::model::lenient::ids")]
    raw_ids: Vec<String>,
    #[serde(default, deserialize_with = "crate::model::lenient::ids")]
    source_ids: Vec<String>,
    #[serde(default, deserialize_with = "crate::model::lenient::ids")]
    canonical_ids: Vec<String>,
    #[serde(default, deserialize_with = "crate::model::lenient::opt_text")]
    category: Option<String>,
    #[serde(default, deserialize_with = "crate::model::lenient::opt_text")]
    query_text: Option<String>,
    #[serde(default, deserialize_with = "crate::model::lenient::opt_text")]
    reference_answer: Option<String>,
    #[serde(flatten)]
    extra: serde_json::Map<String, serde_json::Value>,
}

/// MTEL-Mem target mappings: one query per line with the ids each target credits.
pub fn read_target_mappings(
    file: &str,
    lines: Lines<'_>,
    loaded: &mut Loaded,
    progress: &mut dyn FnMut(f64),
) -> Result<usize, IngestError> {
    let mut n = 0;
    records::each_record(file, lines, progress, |line, m: MappingRecord| {
        keep_mapping(m, &|field| Location::line(file, line).with_field(field), loaded)?;
        n += 1;
        Ok(())
    })?;
    Ok(n)
}

/// The same records in one JSON array (memaudit's mapping export); a fault is located at its
/// element (`[3].raw_ids[0]`).
pub fn read_target_mappings_json(file: &str, text: &str, loaded: &mut Loaded) -> Result<usize, IngestError> {
    let records: Vec<MappingRecord> = records::parse(file, 0, text)?;
    let n = records.len();
    for (i, m) in records.into_iter().enumerate() {
        keep_mapping(m, &|field| Location::file(file).with_field(format!("[{i}].{field}")), loaded)?;
    }
    Ok(n)
}

/// One mapping record checked (`at` locates a field) and kept as a query with explicit targets.
fn keep_mapping(m: MappingRecord, at: &dyn Fn(String) -> Location, loaded: &mut Loaded) -> Result<(), IngestError> {
    if m.query_id.is_empty() {
        return Err(IngestError::new(at("query_id".into()), "is empty"));
    }
    if m.extra.get("system").is_some_and(|v| !v.is_null()) {
        return Err(IngestError::new(
            at("system".into()),
            "names a system: a mapping of one system's store (exported with per-system stores) cannot be read back \
             as targets every system shares; give the records of one store without `system`",
        ));
    }
    for (field, ids) in [("raw_ids", &m.raw_ids), ("source_ids", &m.source_ids), ("canonical_ids", &m.canonical_ids)] {
        if let Some(i) = ids.iter().position(|x| x.is_empty()) {
            return Err(IngestError::new(at(format!("{field}[{i}]")), "is an empty string"));
        }
    }
    loaded.bundle.queries.push(Query {
        query_id: m.query_id,
        evidence: Vec::new(),
        category: m.category,
        text: m.query_text,
        answer: m.reference_answer,
        targets: Some(crate::model::ExplicitTargets {
            raw: m.raw_ids,
            source: m.source_ids,
            canonical: m.canonical_ids,
        }),
        extra: m.extra,
    });
    Ok(())
}

fn check_memory(file: &str, line: usize, m: &Memory) -> Result<(), IngestError> {
    if m.memory_id.is_empty() {
        return Err(IngestError::new(Location::line(file, line).with_field("memory_id"), "is empty"));
    }
    if let Some(i) = m.anchors.iter().position(|a| a.is_empty()) {
        return Err(IngestError::new(
            Location::line(file, line).with_field(format!("anchors[{i}]")),
            "is an empty string",
        ));
    }
    Ok(())
}

fn check_query(file: &str, line: usize, q: &Query) -> Result<(), IngestError> {
    if q.query_id.is_empty() {
        return Err(IngestError::new(Location::line(file, line).with_field("query_id"), "is empty"));
    }
    for (i, e) in q.evidence.iter().enumerate() {
        if e.anchor.is_empty() {
            return Err(IngestError::new(
                Location::line(file, line).with_field(format!("evidence[{i}]")),
                "is an empty string",
            ));
        }
        if !(e.grade.is_finite() && e.grade > 0.0) {
            return Err(IngestError::new(
                Location::line(file, line).with_field(format!("evidence[{i}].grade")),
                format!("must be a positive number (got {}); leave non-relevant anchors out", e.grade),
            ));
        }
    }
    Ok(())
}

/// The three line forms of a runs file; the first record decides, every record must follow it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunForm {
    /// `{system, query_id, ranked: [...], scores?}`
    Ranked,
    /// `{system, query_id, retrieved_id, rank?, score?}`
    Hits,
    /// `{question_id, retrieval_results: {ranked_items: [{corpus_id}]}}`
    LongMemEvalLog,
}

fn form_of(r: &RunRecord) -> Option<RunForm> {
    if r.ranked.is_some() {
        Some(RunForm::Ranked)
    } else if r.retrieval_results.is_some() {
        Some(RunForm::LongMemEvalLog)
    } else if r.retrieved_id.is_some() {
        Some(RunForm::Hits)
    } else {
        None
    }
}

/// (system, query, (rank, item) rows, where the first row was read)
type HitList = (String, String, Vec<(f64, RankedItem)>, String);

/// Collects per-hit rows into ranked lists: grouped by (system, query) in first-seen order,
/// items sorted by rank (stable, so equal ranks keep file order).
#[derive(Default)]
pub struct HitCollector {
    lists: Vec<HitList>,
    index: FxHashMap<(String, String), usize>,
}

impl HitCollector {
    pub fn push(
        &mut self,
        system: String,
        query: String,
        rank: Option<f64>,
        item: RankedItem,
        origin: impl FnOnce() -> String,
    ) {
        let key = (system, query);
        let idx = match self.index.get(&key) {
            Some(&i) => i,
            None => {
                let i = self.lists.len();
                self.lists.push((key.0.clone(), key.1.clone(), Vec::new(), origin()));
                self.index.insert(key, i);
                i
            }
        };
        let list = &mut self.lists[idx].2;
        let r = rank.unwrap_or((list.len() + 1) as f64);
        list.push((r, item));
    }

    /// Emits the runs, warning about rank gaps and repeats.
    pub fn finish(self, loaded: &mut Loaded) {
        for (system, query_id, mut items, origin) in self.lists {
            items.sort_by(|a, b| a.0.total_cmp(&b.0));
            let irregular = items.iter().enumerate().any(|(i, (r, _))| *r != (i + 1) as f64);
            if irregular {
                loaded
                    .warnings
                    .add(WarningKind::RankIrregular, || format!("{origin}: system `{system}`, query `{query_id}`"));
            }
            loaded.bundle.runs.push(Run { system, query_id, ranked: items.into_iter().map(|(_, it)| it).collect() });
        }
    }
}

pub fn read_runs(
    file: &str,
    lines: Lines<'_>,
    loaded: &mut Loaded,
    progress: &mut dyn FnMut(f64),
) -> Result<usize, IngestError> {
    let mut form = None;
    let mut hits = HitCollector::default();
    let stem = super::file_stem(file);
    let mut n = 0;
    records::each_record(file, lines, progress, |line, rec: RunRecord| {
        let this = form_of(&rec).ok_or_else(|| {
            IngestError::new(
                Location::line(file, line).with_field("ranked"),
                "a run line needs `ranked` (a ranked list), `retrieved_id` (one hit) or \
                 `retrieval_results` (a LongMemEval log)",
            )
        })?;
        let form = *form.get_or_insert(this);
        if this != form {
            return Err(IngestError::new(
                Location::line(file, line),
                format!("mixes run forms: earlier lines are {form:?} rows, this one is {this:?}"),
            ));
        }
        let loc = || Location::line(file, line);
        add_run_record(rec, form, &stem, loc, &mut hits, loaded)?;
        n += 1;
        Ok(())
    })?;
    hits.finish(loaded);
    Ok(n)
}

/// Validates one run record of a known form and adds it to the bundle (or to the hit collector).
fn add_run_record(
    rec: RunRecord,
    form: RunForm,
    default_system: &str,
    loc: impl Fn() -> Location,
    hits: &mut HitCollector,
    loaded: &mut Loaded,
) -> Result<(), IngestError> {
    let need = |v: Option<String>, field: &str| -> Result<String, IngestError> {
        match v {
            Some(s) if !s.is_empty() => Ok(s),
            Some(_) => Err(IngestError::new(loc().with_field(field), "is empty")),
            None => Err(IngestError::new(loc().with_field(field), format!("required field `{field}` is missing"))),
        }
    };
    match form {
        RunForm::Ranked => {
            let system = need(rec.system, "system")?;
            let query_id = need(rec.query_id, "query_id")?;
            let entries = rec.ranked.unwrap_or_default();
            if let Some(scores) = rec.scores.as_ref().filter(|s| s.len() != entries.len()) {
                return Err(IngestError::new(
                    loc().with_field("scores"),
                    format!("has {} values but `ranked` has {} items", scores.len(), entries.len()),
                ));
            }
            let ranked = entries
                .into_iter()
                .enumerate()
                .map(|(i, RankedEntry { id, score })| RankedItem {
                    memory_id: id,
                    score: score.or_else(|| rec.scores.as_ref().and_then(|s| s[i])),
                })
                .collect::<Vec<_>>();
            if let Some(i) = ranked.iter().position(|r| r.memory_id.is_empty()) {
                return Err(IngestError::new(loc().with_field(format!("ranked[{i}]")), "is an empty id"));
            }
            loaded.bundle.runs.push(Run { system, query_id, ranked });
        }
        RunForm::Hits => {
            let system = need(rec.system, "system")?;
            let query_id = need(rec.query_id, "query_id")?;
            let id = need(rec.retrieved_id, "retrieved_id")?;
            if let Some(r) = rec.rank.filter(|r| !(r.is_finite() && *r >= 0.0)) {
                return Err(IngestError::new(
                    loc().with_field("rank"),
                    format!("must be a non-negative number, got {r}"),
                ));
            }
            hits.push(system, query_id, rec.rank, RankedItem { memory_id: id.into(), score: rec.score }, || {
                loc().to_string()
            });
        }
        RunForm::LongMemEvalLog => {
            let query_id = need(rec.question_id, "question_id")?;
            let system = rec.system.unwrap_or_else(|| default_system.to_string());
            let items = rec.retrieval_results.map(|r| r.ranked_items).unwrap_or_default();
            let mut ranked = Vec::with_capacity(items.len());
            for RankedEntry { id, score } in items {
                let id = match id.strip_prefix("noans_") {
                    Some(rest) => {
                        loaded.warnings.add(WarningKind::IdAliased, || format!("{}: `{id}`", loc()));
                        compact_str::format_compact!("answer_{rest}")
                    }
                    None => id,
                };
                ranked.push(RankedItem { memory_id: id, score });
            }
            loaded.bundle.runs.push(Run { system, query_id, ranked });
        }
    }
    Ok(())
}

#[derive(Deserialize)]
struct BundleDoc {
    #[serde(default)]
    memories: Vec<Memory>,
    #[serde(default)]
    queries: Vec<Query>,
    #[serde(default)]
    runs: Vec<serde_json::Value>,
}

/// One JSON object `{"memories": [...], "queries": [...], "runs": [...]}`. Runs may use the
/// ranked-list or the per-hit form (not mixed).
pub fn read_bundle_json(file: &str, text: &str, loaded: &mut Loaded) -> Result<usize, IngestError> {
    let doc: BundleDoc = records::parse(file, 0, text)?;
    let n = doc.memories.len() + doc.queries.len() + doc.runs.len();
    for (i, m) in doc.memories.iter().enumerate() {
        check_memory(file, 0, m).map_err(|e| relocate(e, file, &format!("memories[{i}]")))?;
    }
    for (i, q) in doc.queries.iter().enumerate() {
        check_query(file, 0, q).map_err(|e| relocate(e, file, &format!("queries[{i}]")))?;
    }
    loaded.bundle.memories.extend(doc.memories);
    loaded.bundle.queries.extend(doc.queries);
    let mut form = None;
    let mut hits = HitCollector::default();
    let stem = super::file_stem(file);
    for (i, v) in doc.runs.into_iter().enumerate() {
        let path = format!("runs[{i}]");
        let rec: RunRecord = serde_json::from_value(v.clone()).map_err(|_| {
            let e = records::explain::<RunRecord>(file, 0, &v.to_string());
            relocate(e, file, &path)
        })?;
        let this = form_of(&rec).ok_or_else(|| {
            IngestError::new(Location::file(file).with_field(&path), "a run needs `ranked` or `retrieved_id`")
        })?;
        let form = *form.get_or_insert(this);
        if this != form {
            return Err(IngestError::new(Location::file(file).with_field(&path), "mixes run forms within `runs`"));
        }
        let loc = || Location::file(file).with_field(path.clone());
        add_run_record(rec, form, &stem, loc, &mut hits, loaded).map_err(|e| relocate(e, file, &path))?;
    }
    hits.finish(loaded);
    Ok(n)
}

/// Re-anchors an error raised on an element of a whole-file document to `path.field`.
fn relocate(e: IngestError, file: &str, path: &str) -> IngestError {
    let field = match e.location.field {
        Some(f) if f.starts_with(path) => f,
        Some(f) => format!("{path}.{f}"),
        None => path.to_string(),
    };
    IngestError::new(Location::file(file).with_field(field), e.message)
}

/// Whether a JSON object document (its start, `head`) is a bundle: `memories`, `queries` or
/// `runs` at its top level. A key of that name deeper down (a summary's per-target `queries`
/// count) is not one; when `head` ends before the object does and none was seen, the rest of
/// the start is searched.
pub(crate) fn is_bundle_object(head: &str) -> bool {
    const KEYS: [&str; 3] = ["memories", "queries", "runs"];
    let (keys, complete) = top_level_keys(head);
    if keys.iter().any(|k| KEYS.contains(&k.as_str())) {
        return true;
    }
    !complete && KEYS.iter().any(|k| head.contains(&format!("\"{k}\"")))
}

/// The top-level keys of a JSON object document as far as `head` goes (each value skipped
/// unread), and whether the object ends within `head`.
fn top_level_keys(head: &str) -> (Vec<String>, bool) {
    struct Keys<'a>(&'a mut Vec<String>);
    impl<'de> serde::de::Visitor<'de> for Keys<'_> {
        type Value = ();
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a JSON object")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            while let Some(k) = map.next_key::<String>()? {
                self.0.push(k);
                map.next_value::<serde::de::IgnoredAny>()?;
            }
            Ok(())
        }
    }
    let mut keys = Vec::new();
    let mut de = serde_json::Deserializer::from_str(head);
    let complete = serde::Deserializer::deserialize_map(&mut de, Keys(&mut keys)).is_ok();
    (keys, complete)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::{InputFile, read_all};

    fn read(name: &str, text: &str) -> Result<Loaded, IngestError> {
        read_all(&[InputFile::new(name, text.as_bytes().to_vec())])
    }

    #[test]
    fn three_files() {
        let l = read_all(&[
            InputFile::new("m.jsonl", &b"{\"memory_id\":\"t1\",\"anchors\":[\"t1\"],\"raw\":true,\"tenant\":\"x\"}\n\n{\"memory_id\":\"f1\",\"anchors\":[\"t1\"],\"canonical\":1,\"kind\":\"fact\"}\n"[..]),
            InputFile::new("q.jsonl", &b"{\"query_id\":\"q1\",\"evidence\":[\"t1\"],\"category\":2}\n"[..]),
            InputFile::new("r.jsonl", &b"{\"system\":\"s\",\"query_id\":\"q1\",\"ranked\":[\"f1\",{\"memory_id\":\"t1\",\"score\":0.5}],\"scores\":[0.9,null]}\n"[..]),
        ])
        .unwrap();
        assert_eq!(l.bundle.memories.len(), 2);
        assert!(l.bundle.memories[1].canonical);
        assert_eq!(l.bundle.memories[0].extra["tenant"], "x");
        assert_eq!(l.bundle.queries[0].category.as_deref(), Some("2"));
        let r = &l.bundle.runs[0];
        assert_eq!(r.ranked[0].score, Some(0.9));
        assert_eq!(r.ranked[1].score, Some(0.5));
        assert_eq!(l.files.len(), 3);
        assert_eq!(l.files[0].memories, 2);
    }

    #[test]
    fn hits_are_grouped_and_sorted_by_rank() {
        let text = r#"{"system":"s","query_id":"q","retrieved_id":"b","rank":2,"score":1}
{"system":"s","query_id":"q","retrieved_id":"a","rank":1,"score":2}
{"system":"s","query_id":"q2","retrieved_id":"c","rank":1}
{"system":"s","query_id":"q2","retrieved_id":"d","rank":3}"#;
        let l = read("hits.jsonl", text).unwrap();
        assert_eq!(l.bundle.runs.len(), 2);
        let ids: Vec<&str> = l.bundle.runs[0].ranked.iter().map(|r| r.memory_id.as_str()).collect();
        assert_eq!(ids, ["a", "b"]);
        assert_eq!(l.warnings.count(WarningKind::RankIrregular), 1);
    }

    #[test]
    fn run_errors_name_the_field() {
        let e =
            read("r.jsonl", "{\"system\":\"s\",\"query_id\":\"q\",\"ranked\":[\"a\"],\"scores\":[1,2]}\n").unwrap_err();
        assert_eq!(e.location.field.as_deref(), Some("scores"));
        assert_eq!(e.location.line, Some(1));
        let e = read(
            "r.jsonl",
            "{\"system\":\"s\",\"query_id\":\"q\",\"ranked\":[]}\n{\"query_id\":\"q\",\"ranked\":[]}\n",
        )
        .unwrap_err();
        assert_eq!((e.location.line, e.location.field.as_deref()), (Some(2), Some("system")));
        let e = read("r.jsonl", "{\"system\":\"s\",\"query_id\":\"q\",\"ranked\":[]}\n{\"system\":\"s\",\"query_id\":\"q\",\"retrieved_id\":\"a\"}\n").unwrap_err();
        assert!(e.message.contains("mixes"), "{e}");
    }

    #[test]
    fn query_grades_must_be_positive() {
        let e = read("q.jsonl", "{\"query_id\":\"q\",\"evidence\":[{\"anchor\":\"a\",\"grade\":0}]}\n").unwrap_err();
        assert_eq!(e.location.field.as_deref(), Some("evidence[0].grade"));
    }

    #[test]
    fn bundle_object() {
        let text = r#"{"memories":[{"memory_id":"a","anchors":["a"],"raw":true}],
            "queries":[{"query_id":"q","evidence":["a"]}],
            "runs":[{"system":"s","query_id":"q","ranked":["a"]}]}"#;
        let l = read("b.json", text).unwrap();
        assert_eq!((l.bundle.memories.len(), l.bundle.queries.len(), l.bundle.runs.len()), (1, 1, 1));
        let bad = r#"{"memories":[],"queries":[],"runs":[{"system":"s","query_id":"q","ranked":["a", true]}]}"#;
        let e = read("b.json", bad).unwrap_err();
        assert_eq!(e.location.field.as_deref(), Some("runs[0].ranked[1]"), "{e}");
    }

    #[test]
    fn longmemeval_log_aliases_noans_ids() {
        let text = r#"{"question_id":"q1","retrieval_results":{"ranked_items":[{"corpus_id":"noans_x_1_2","text":"t"},{"corpus_id":"answer_x_1_4"}]}}"#;
        let l = read("bm25_turn.jsonl", text).unwrap();
        let r = &l.bundle.runs[0];
        assert_eq!(r.system, "bm25_turn");
        assert_eq!(r.ranked[0].memory_id, "answer_x_1_2");
        assert_eq!(l.warnings.count(WarningKind::IdAliased), 1);
    }
}
