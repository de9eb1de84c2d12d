//! Which format a file is ([`Format`]), from its content, never from its name alone.

use serde::{Deserialize, Serialize};

use super::{bundle, records, trec};
use crate::error::{IngestError, Location};
use rustc_hash::FxHashMap;

/// Every format memaudit reads, as detected from the content.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// One JSON object `{"memories": [...], "queries": [...], "runs": [...]}`.
    BundleJson,
    /// memaudit `memories.jsonl`.
    MemoriesJsonl,
    /// memaudit `queries.jsonl`.
    QueriesJsonl,
    /// memaudit `runs.jsonl`, one ranked list per line.
    RunsJsonl,
    /// Flat per-hit rows `{system, query_id, retrieved_id, rank, score}`.
    HitsJsonl,
    /// LongMemEval retrieval log (`retrieval_results.ranked_items[].corpus_id`).
    LongMemEvalLog,
    /// TREC run `qid Q0 docno rank score tag`.
    TrecRun,
    /// TREC qrels `qid iter docno rel`.
    TrecQrels,
    /// ranx / pytrec_eval run `{"qid": {"docno": score}}`.
    JsonRun,
    /// MTEL-Mem target mappings: per query `raw_ids`, `source_ids`, `canonical_ids` (JSONL).
    TargetMappings,
    /// The same records in one JSON array (memaudit's mapping export).
    TargetMappingsJson,
    /// ranx / pytrec_eval qrels `{"qid": {"docno": rel}}`.
    JsonQrels,
    /// LoCoMo `locomo10.json`.
    Locomo,
    /// LongMemEval data, native parallel-array layout (`haystack_sessions`).
    LongMemEval,
    /// LongMemEval data, BriefBench snapshot layout (`{questions: [{sessions: [...]}]}`).
    LongMemEvalSnapshot,
}

impl Format {
    /// One record per line, each read on its own: JSON Lines and TREC text (a streamed file of
    /// these is never held whole).
    pub fn reads_line_by_line(self) -> bool {
        matches!(
            self,
            Format::MemoriesJsonl
                | Format::QueriesJsonl
                | Format::TargetMappings
                | Format::RunsJsonl
                | Format::HitsJsonl
                | Format::LongMemEvalLog
                | Format::TrecRun
                | Format::TrecQrels
        )
    }

    pub fn describe(self) -> &'static str {
        match self {
            Format::BundleJson => "memaudit bundle (one JSON object)",
            Format::MemoriesJsonl => "memaudit memories (JSONL)",
            Format::QueriesJsonl => "memaudit queries (JSONL)",
            Format::RunsJsonl => "memaudit runs, ranked lists (JSONL)",
            Format::HitsJsonl => "memaudit runs, per-hit rows (JSONL)",
            Format::LongMemEvalLog => "LongMemEval retrieval log (JSONL)",
            Format::TrecRun => "TREC run",
            Format::TrecQrels => "TREC qrels",
            Format::JsonRun => "run as {qid: {docno: score}} JSON (ranx, pytrec_eval)",
            Format::TargetMappings => "MTEL-Mem target mappings (raw_ids, source_ids, canonical_ids; JSONL)",
            Format::TargetMappingsJson => "target mappings (raw_ids, source_ids, canonical_ids; a JSON array)",
            Format::JsonQrels => "qrels as {qid: {docno: rel}} JSON (ranx, pytrec_eval)",
            Format::Locomo => "LoCoMo data (locomo10.json, or one conversation per file)",
            Format::LongMemEval => "LongMemEval data (native layout)",
            Format::LongMemEvalSnapshot => "LongMemEval data (snapshot layout)",
        }
    }

    /// What the file provides.
    pub fn provides(self) -> Provides {
        match self {
            Format::BundleJson => Provides { memories: true, queries: true, runs: true },
            Format::MemoriesJsonl => Provides { memories: true, queries: false, runs: false },
            Format::QueriesJsonl | Format::TargetMappings | Format::TargetMappingsJson => {
                Provides { memories: false, queries: true, runs: false }
            }
            Format::RunsJsonl | Format::HitsJsonl | Format::LongMemEvalLog | Format::TrecRun | Format::JsonRun => {
                Provides { memories: false, queries: false, runs: true }
            }
            Format::TrecQrels
            | Format::JsonQrels
            | Format::Locomo
            | Format::LongMemEval
            | Format::LongMemEvalSnapshot => Provides { memories: true, queries: true, runs: false },
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Provides {
    pub memories: bool,
    pub queries: bool,
    pub runs: bool,
}

/// Detects a file's format from its content (never from its name alone).
pub fn detect(name: &str, text: &str) -> Result<Format, IngestError> {
    let trimmed = text.trim_start();
    let Some(first) = trimmed.chars().next() else {
        return Err(IngestError::new(Location::file(name), "the file is empty"));
    };
    match first {
        '[' => detect_json_array(name, trimmed),
        '{' => match trec::detect(name, text) {
            Some(f) => Ok(f),
            None => detect_json_object(name, text),
        },
        _ => trec::detect(name, text).ok_or_else(|| trec::not_trec(name, text)),
    }
}

/// Looks at the keys near the start of a document (a bounded prefix, so detection stays cheap
/// on large files).
pub(crate) fn prefix(text: &str, n: usize) -> &str {
    if text.len() <= n {
        return text;
    }
    let mut end = n;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

pub(super) fn detect_json_array(name: &str, text: &str) -> Result<Format, IngestError> {
    let head = prefix(text, 256 * 1024);
    // LongMemEval's questions by their keys: a `haystack_sessions` alone may be another
    // benchmark's metadata (MemoryAgentBench's data sets it to null beside `question_ids`).
    if (head.contains("\"haystack_sessions\"") || head.contains("\"haystack_session_ids\""))
        && head.contains("\"question_id\"")
    {
        return Ok(Format::LongMemEval);
    }
    if head.contains("\"conversation\"") && (head.contains("\"qa\"") || head.contains("\"sample_id\"")) {
        return Ok(Format::Locomo);
    }
    if head.contains("\"qa\"") && head.contains("\"evidence\"") {
        return Ok(Format::Locomo);
    }
    if head.contains("\"query_id\"")
        && ["\"raw_ids\"", "\"source_ids\"", "\"canonical_ids\""].iter().any(|k| head.contains(k))
    {
        return Ok(Format::TargetMappingsJson);
    }
    Err(IngestError::new(
        Location::file(name),
        "a JSON array, but neither LoCoMo (`conversation`, `qa`) nor LongMemEval \
         (`haystack_sessions`) data nor target mappings (`query_id`, `raw_ids`…); memaudit records go one per line (JSONL) or in \
         {\"memories\", \"queries\", \"runs\"}",
    ))
}

pub(super) fn detect_json_object(name: &str, text: &str) -> Result<Format, IngestError> {
    // JSONL when the first non-blank line is a complete JSON object.
    let (line_no, first_line) =
        text.lines().enumerate().find(|(_, l)| !l.trim().is_empty()).map(|(i, l)| (i + 1, l)).unwrap_or((1, ""));
    match serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(first_line) {
        Ok(obj) => classify_object_keys(name, line_no, &obj, text),
        Err(_) => {
            // A multi-line JSON document: decide from the keys near the start.
            let head = prefix(text, 256 * 1024);
            if head.contains("\"questions\"") && head.contains("\"sessions\"") {
                Ok(Format::LongMemEvalSnapshot)
            } else if bundle::is_bundle_object(head) {
                Ok(Format::BundleJson)
            } else if let Ok(keys) = serde_json::from_str::<FxHashMap<String, serde::de::IgnoredAny>>(text) {
                // One LoCoMo conversation (`locomo10_v2/26.json`), by its keys in any order.
                if super::locomo::is_conversation(|k| keys.contains_key(k)) {
                    return Ok(Format::Locomo);
                }
                Err(IngestError::new(
                    Location::file(name),
                    "a JSON object without `memories`, `queries` or `runs` (nor LongMemEval `questions`)",
                ))
            } else {
                let e = serde_json::from_str::<serde::de::IgnoredAny>(first_line).err();
                Err(IngestError::new(
                    Location::line(name, line_no),
                    format!(
                        "not valid JSON{}",
                        e.map(|e| format!(": {}", records::strip_position(&e))).unwrap_or_default()
                    ),
                ))
            }
        }
    }
}

pub(super) fn classify_object_keys(
    name: &str,
    line: usize,
    obj: &serde_json::Map<String, serde_json::Value>,
    _text: &str,
) -> Result<Format, IngestError> {
    let has = |k: &str| obj.contains_key(k);
    if has("memories") || has("queries") || has("runs") {
        return Ok(Format::BundleJson);
    }
    if has("questions") && obj.get("questions").is_some_and(|q| q.is_array()) {
        return Ok(Format::LongMemEvalSnapshot);
    }
    if has("retrieval_results") {
        return Ok(Format::LongMemEvalLog);
    }
    if super::locomo::is_conversation(has) {
        return Ok(Format::Locomo);
    }
    if has("haystack_sessions") {
        return Err(IngestError::new(
            Location::line(name, line),
            "LongMemEval data must be one JSON array (the released layout), not one question per line",
        ));
    }
    if has("memory_id") && has("anchors") {
        return Ok(Format::MemoriesJsonl);
    }
    if has("query_id") && (has("raw_ids") || has("source_ids") || has("canonical_ids")) {
        return Ok(Format::TargetMappings);
    }
    if has("returned_ids_full") || has("returned_ids_topk") {
        return Err(IngestError::new(
            Location::line(name, line),
            "an MTEL-Mem per-query pipeline trace: it holds the ids the pipeline returned and the ids it expected \
             (`expected_memory_ids`, its own Source-family credit), not the memory catalog that says which ids are \
             Raw turns and which are Canonical facts, so it cannot be rescored under the three targets. Its \
             per-query hit, top-1, reciprocal rank and answer F1 are read as outcomes. To rescore, ask the authors for this run's `minimal_target_mappings.jsonl` \
             (`raw_ids`, `source_ids`, `canonical_ids` per query) with the per-hit trace (`{system, query_id, \
             retrieved_id, rank, score}` lines), or its `run.sqlite` catalog",
        ));
    }
    if has("raw_eligible") || has("raw_ndcg") || has("raw_hit_at_k") {
        return Err(IngestError::new(
            Location::line(name, line),
            "per-query scores under each target (a records file), not ranked lists: they are the outcomes of a \
             paired comparison (`outcomes`)",
        ));
    }
    if has("query_id") && has("evidence") {
        return Ok(Format::QueriesJsonl);
    }
    if has("ranked") {
        return Ok(Format::RunsJsonl);
    }
    if has("retrieved_id") {
        return Ok(Format::HitsJsonl);
    }
    let keys: Vec<&str> = obj.keys().map(String::as_str).take(12).collect();
    let hint = if has("memory_id") {
        " (a memory line needs `anchors`)"
    } else if has("query_id") && !has("system") {
        " (a query line needs `evidence`)"
    } else if has("system") {
        " (a run line needs `ranked` or `retrieved_id`)"
    } else {
        ""
    };
    Err(IngestError::new(
        Location::line(name, line),
        format!("unrecognised record with keys [{}]{hint}", keys.join(", ")),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A LoCoMo conversation of its own is recognised by its top-level keys in any order; a file
    /// that only names `"session_1"` in its values (locomo-audit's per-conversation audit files)
    /// is not one.
    #[test]
    fn a_locomo_conversation_by_its_keys_never_by_its_values() {
        let conversation = "{\n \"qa\": [],\n \"session_1\": [{\"dia_id\": \"D1:1\", \"text\": \"hi\"}],\n \
                            \"speaker_a\": \"A\",\n \"speaker_b\": \"B\"\n}";
        assert_eq!(detect("26.json", conversation).unwrap(), Format::Locomo);
        let one_line = r#"{"speaker_a": "A", "speaker_b": "B", "session_1": [], "qa": []}"#;
        assert_eq!(detect("26.json", one_line).unwrap(), Format::Locomo);
        let audit = "{\n \"conv_id\": \"locomo_0\",\n \"sample_id\": \"conv-26\",\n \"speaker_a\": \"A\",\n \
                     \"speaker_b\": \"B\",\n \"dialog_index\": {\"D1:1\": {\"dia_id\": \"D1:1\", \"session\": \
                     \"session_1\"}}\n}";
        assert!(detect("conv_0.json", audit).is_err());
    }

    /// MemoryAgentBench's data sets `haystack_sessions` to null in each record's metadata: not
    /// LongMemEval questions, which carry a `question_id` each.
    #[test]
    fn longmemeval_by_its_question_ids_not_a_haystack_key_alone() {
        let memory_agent_bench = r#"[{"context": "facts", "questions": ["q?"], "answers": [["a"]],
            "metadata": {"haystack_sessions": null, "question_ids": null}}]"#;
        assert!(detect("Conflict_Resolution.json", memory_agent_bench).is_err());
        let longmemeval = r#"[{"question_id": "q1", "question": "?", "answer": "a",
            "haystack_session_ids": ["s1"], "haystack_sessions": [[]]}]"#;
        assert_eq!(detect("longmemeval_s.json", longmemeval).unwrap(), Format::LongMemEval);
    }

    /// A JSON array of mapping records (the `mapping` table's JSON export).
    #[test]
    fn a_json_array_of_mapping_records() {
        let text = "[\n  {\n    \"query_id\": \"q1\",\n    \"raw_ids\": [\"t1\"],\n    \"source_ids\": [],\n    \
                    \"canonical_ids\": []\n  }\n]";
        assert_eq!(detect("mapping.json", text).unwrap(), Format::TargetMappingsJson);
    }
}
