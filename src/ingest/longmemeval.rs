//! LongMemEval importer (Wu et al., ICLR 2025): the released parallel-array layout
//! (`haystack_session_ids`, `haystack_dates`, `haystack_sessions`) and the BriefBench snapshot
//! layout (`{questions: [{sessions: [{session_id, date, turns}]}]}`).
//!
//! - every turn → a raw memory `"<session_id>_<t>"` (t = 1-based position in the session, all
//!   roles counted: LongMemEval's own turn corpus ids, so its retrieval logs score as-is);
//! - every session → a memory `"<session_id>"` of kind `session`, neither raw nor canonical,
//!   anchored to all of its turns (a session-level retrieval log therefore earns Source credit);
//! - every question → a query whose evidence is its `has_answer` turns. When a question marks
//!   none, every turn of its `answer_session_ids` is evidence (counted warning; the TIAP
//!   artifacts' fallback). Abstention questions (`_abs`) have no evidence and are not imported.
//!
//! Sessions shared by several haystacks are stored once; `has_answer` is per question, so it
//! goes into that question's evidence, never into the memory.

use rustc_hash::FxHashMap;
use serde::Deserialize;
use serde_json::{Map, Value};

use super::records;
use super::{Format, Loaded, WarningKind};
use crate::error::{IngestError, Location};
use crate::model::{Evidence, Memory, Query, lenient};

#[derive(Deserialize, Clone)]
struct Turn {
    #[serde(default, deserialize_with = "lenient::opt_text")]
    role: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt_text")]
    content: Option<String>,
    #[serde(default)]
    has_answer: Option<bool>,
}

/// A question of either layout: the native one's parallel `haystack_*` arrays, or the
/// snapshot's `depth` and `sessions` (each layout reads its own fields and ignores the other's).
#[derive(Deserialize)]
struct RawQuestion {
    #[serde(deserialize_with = "lenient::id")]
    question_id: String,
    #[serde(default, deserialize_with = "lenient::opt_text")]
    question_type: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt_text")]
    question: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt_text")]
    answer: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt_text")]
    question_date: Option<String>,
    #[serde(default)]
    answer_session_ids: Vec<String>,
    #[serde(default)]
    haystack_session_ids: Vec<String>,
    #[serde(default)]
    haystack_dates: Vec<Option<String>>,
    #[serde(default)]
    haystack_sessions: Vec<Vec<Turn>>,
    #[serde(default)]
    depth: Option<Value>,
    #[serde(default)]
    sessions: Vec<SnapshotSession>,
}

#[derive(Deserialize)]
struct Snapshot {
    questions: Vec<RawQuestion>,
}

#[derive(Deserialize)]
struct SnapshotSession {
    #[serde(deserialize_with = "lenient::id")]
    session_id: String,
    #[serde(default, deserialize_with = "lenient::opt_text")]
    date: Option<String>,
    #[serde(default)]
    turns: Vec<Turn>,
}

/// Both layouts, normalised.
struct Question {
    id: String,
    qtype: Option<String>,
    question: Option<String>,
    answer: Option<String>,
    date: Option<String>,
    answer_sessions: Vec<String>,
    depth: Option<Value>,
    sessions: Vec<(String, Option<String>, Vec<Turn>)>,
}

fn load(file: &str, text: &str, format: Format) -> Result<Vec<Question>, IngestError> {
    let snapshot = format == Format::LongMemEvalSnapshot;
    let raw = if snapshot {
        records::parse::<Snapshot>(file, 0, text)?.questions
    } else {
        records::parse::<Vec<RawQuestion>>(file, 0, text)?
    };
    let mut out = Vec::with_capacity(raw.len());
    for (i, q) in raw.into_iter().enumerate() {
        let sessions = if snapshot {
            q.sessions.into_iter().map(|s| (s.session_id, s.date, s.turns)).collect()
        } else {
            if q.haystack_session_ids.len() != q.haystack_sessions.len() {
                return Err(IngestError::new(
                    Location::file(file).with_field(format!("[{i}].haystack_session_ids")),
                    format!(
                        "has {} ids for {} haystack_sessions",
                        q.haystack_session_ids.len(),
                        q.haystack_sessions.len()
                    ),
                ));
            }
            let dates = q.haystack_dates;
            q.haystack_session_ids
                .into_iter()
                .zip(q.haystack_sessions)
                .enumerate()
                .map(|(j, (id, turns))| (id, dates.get(j).cloned().flatten(), turns))
                .collect()
        };
        out.push(Question {
            id: q.question_id,
            qtype: q.question_type,
            question: q.question,
            answer: q.answer,
            date: q.question_date,
            answer_sessions: q.answer_session_ids,
            depth: if snapshot { q.depth } else { None },
            sessions,
        });
    }
    Ok(out)
}

pub fn read(file: &str, text: &str, format: Format, loaded: &mut Loaded) -> Result<usize, IngestError> {
    let questions = load(file, text, format)?;
    // session id -> (turn count, fingerprint of content) of the stored copy
    let mut stored: FxHashMap<String, (usize, u64)> = FxHashMap::default();
    let mut seen_q: FxHashMap<String, ()> = FxHashMap::default();
    for (qi, q) in questions.iter().enumerate() {
        let at = |field: &str| Location::file(file).with_field(format!("questions[{qi}].{field}"));
        if seen_q.insert(q.id.clone(), ()).is_some() {
            loaded.warnings.add(WarningKind::DuplicateQuery, || format!("{}: `{}`", at("question_id"), q.id));
            continue;
        }
        for (sid, date, turns) in &q.sessions {
            let fp = fingerprint(turns);
            match stored.get(sid) {
                Some(&(n, f)) => {
                    loaded.warnings.add(WarningKind::SharedSession, || {
                        format!(
                            "session `{sid}` again in question `{}`{}",
                            q.id,
                            if (n, f) == (turns.len(), fp) { "" } else { " with different content (first copy kept)" }
                        )
                    });
                    continue;
                }
                None => {
                    stored.insert(sid.clone(), (turns.len(), fp));
                }
            }
            let mut turn_ids = Vec::with_capacity(turns.len());
            for (ti, t) in turns.iter().enumerate() {
                let id = format!("{sid}_{}", ti + 1);
                let mut extra = Map::new();
                if let Some(r) = &t.role {
                    extra.insert("role".into(), Value::from(r.as_str()));
                }
                extra.insert("session".into(), Value::from(sid.as_str()));
                if let Some(d) = date {
                    extra.insert("date".into(), Value::from(d.as_str()));
                }
                loaded.bundle.memories.push(Memory {
                    anchors: vec![id.clone()],
                    memory_id: id.clone(),
                    raw: true,
                    canonical: false,
                    kind: Some("turn".into()),
                    text: t.content.clone(),
                    systems: None,
                    extra,
                });
                turn_ids.push(id);
            }
            let mut extra = Map::new();
            if let Some(d) = date {
                extra.insert("date".into(), Value::from(d.as_str()));
            }
            loaded.bundle.memories.push(Memory {
                memory_id: sid.clone(),
                anchors: turn_ids,
                raw: false,
                canonical: false,
                kind: Some("session".into()),
                text: None,
                systems: None,
                extra,
            });
        }

        if q.id.ends_with("_abs") {
            loaded.warnings.add(WarningKind::AbstentionQuestion, || format!("`{}`", q.id));
            continue;
        }
        let mut evidence: Vec<Evidence> = Vec::new();
        for (sid, _, turns) in &q.sessions {
            for (ti, t) in turns.iter().enumerate() {
                if t.has_answer == Some(true) {
                    evidence.push(Evidence { anchor: format!("{sid}_{}", ti + 1), grade: 1.0 });
                }
            }
        }
        if evidence.is_empty() && !q.answer_sessions.is_empty() {
            loaded.warnings.add(WarningKind::EvidenceFallback, || format!("`{}`", q.id));
            for (sid, _, turns) in q.sessions.iter().filter(|(s, _, _)| q.answer_sessions.contains(s)) {
                for ti in 0..turns.len() {
                    evidence.push(Evidence { anchor: format!("{sid}_{}", ti + 1), grade: 1.0 });
                }
            }
        }
        let missing: Vec<&String> =
            q.answer_sessions.iter().filter(|s| !q.sessions.iter().any(|(id, _, _)| id == *s)).collect();
        for s in missing {
            loaded.warnings.add(WarningKind::EvidenceDangling, || {
                format!("{}: answer session `{s}` of `{}` is not in its haystack", at("answer_session_ids"), q.id)
            });
        }
        let mut extra = Map::new();
        if let Some(d) = &q.date {
            extra.insert("question_date".into(), Value::from(d.as_str()));
        }
        extra.insert(
            "answer_session_ids".into(),
            Value::Array(q.answer_sessions.iter().map(|s| Value::from(s.as_str())).collect()),
        );
        if let Some(d) = &q.depth {
            extra.insert("depth".into(), d.clone());
        }
        loaded.bundle.queries.push(Query {
            query_id: q.id.clone(),
            evidence,
            category: q.qtype.clone(),
            text: q.question.clone(),
            answer: q.answer.clone(),
            targets: None,
            extra,
        });
    }
    Ok(questions.len())
}

/// FNV-1a over roles and contents: tells whether two copies of a session are identical.
/// (Hand-written: a hash of a few fields needs no crate.)
fn fingerprint(turns: &[Turn]) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for t in turns {
        for part in [t.role.as_deref().unwrap_or(""), "\u{1}", t.content.as_deref().unwrap_or(""), "\u{2}"] {
            for b in part.bytes() {
                h ^= b as u64;
                h = h.wrapping_mul(0x100000001b3);
            }
        }
    }
    h
}

#[cfg(test)]
mod tests {
    use crate::ingest::{InputFile, WarningKind, read_all};

    #[test]
    fn native_layout() {
        let text = r#"[{"question_id":"q1","question_type":"single-session-user","question":"Where?","answer":"Paris",
          "haystack_session_ids":["answer_a_1","s2"],"haystack_dates":["d1","d2"],
          "haystack_sessions":[[{"role":"user","content":"I moved to Paris","has_answer":true},{"role":"assistant","content":"ok"}],
                                [{"role":"user","content":"hi"}]],
          "answer_session_ids":["answer_a_1"]},
          {"question_id":"q2_abs","question":"?","answer":"x","haystack_session_ids":["s2"],"haystack_sessions":[[{"role":"user","content":"hi"}]],"answer_session_ids":[]}]"#;
        let l = read_all(&[InputFile::new("lme.json", text.as_bytes().to_vec())]).unwrap();
        let ids: Vec<&str> = l.bundle.memories.iter().map(|m| m.memory_id.as_str()).collect();
        assert_eq!(ids, ["answer_a_1_1", "answer_a_1_2", "answer_a_1", "s2_1", "s2"]);
        assert_eq!(l.bundle.memories[2].anchors, ["answer_a_1_1", "answer_a_1_2"]);
        assert_eq!(l.bundle.queries.len(), 1);
        assert_eq!(l.bundle.queries[0].evidence[0].anchor, "answer_a_1_1");
        assert_eq!(l.warnings.count(WarningKind::AbstentionQuestion), 1);
        assert_eq!(l.warnings.count(WarningKind::SharedSession), 1);
    }

    #[test]
    fn mismatched_arrays_name_the_field() {
        let text = r#"[{"question_id":"q1","haystack_session_ids":["a","b"],"haystack_sessions":[[]]}]"#;
        let e = read_all(&[InputFile::new("lme.json", text.as_bytes().to_vec())]).unwrap_err();
        assert_eq!(e.location.field.as_deref(), Some("[0].haystack_session_ids"));
    }
}
