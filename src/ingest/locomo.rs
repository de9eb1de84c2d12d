//! LoCoMo's files: the dataset (`locomo10.json`, Maharana et al., ACL 2024) and the conversation
//! keys of the answer files memory vendors release (read as outcome rows by
//! [`crate::outcomes::locomo`]).
//!
//! The dataset:
//!
//! - every dialogue turn → a raw memory `"<sample_id>/<dia_id>"` anchored to itself;
//! - every observation (`observation.session_N_observation.<speaker>[i] = [fact, dia_id(s)]`) →
//!   a canonical memory `"<sample_id>/obs:S<N>:<j>"` anchored to the turns it cites;
//! - every QA item → a query `"<sample_id>/q<i>"` whose evidence is its normalised `evidence` ids.
//!
//! LoCoMo's own repository (snap-research/locomo, `data/locomo10.zip`) also ships each
//! conversation as a file of its own (`locomo10_v2/26.json`): one object whose top-level keys are
//! the conversation's (`speaker_a`, `session_N`, `session_N_date_time`), its observations
//! (`session_N_observation`) and `qa`, with no `sample_id`. Such a file is read the same way, its
//! sample id taken from the file name (`26.json` → `conv-26`, the id `locomo10.json` gives the
//! same conversation; any other name as it is), a note saying so. It is recognised by its
//! top-level keys `speaker_a`, `speaker_b` and `session_1` (not by words of its values).
//!
//! Quirks of the released file, each counted as a warning (none dropped silently): evidence
//! strings holding several ids (`"D8:6; D9:17"`, `"D9:1 D4:4 D4:6"`), zero padding (`"D30:05"`),
//! a stray colon (`"D:11:26"`), unparseable ids (`"D"`), ids that point at no turn
//! (`D10:19` in conv-42), repeated ids, empty evidence, category-5 (adversarial) questions with
//! `adversarial_answer` and no `answer`, and observation references that are lists or
//! comma-joined strings.

use rustc_hash::FxHashSet;
use serde::Deserialize;
use serde_json::{Map, Value};

use super::records;
use super::{Loaded, WarningKind};
use crate::error::{IngestError, Location};
use crate::model::{Evidence, Memory, Query, lenient};

#[derive(Deserialize)]
struct Conversation {
    #[serde(deserialize_with = "lenient::id")]
    sample_id: String,
    conversation: Map<String, Value>,
    #[serde(default)]
    observation: Option<Map<String, Value>>,
    #[serde(default)]
    qa: Vec<Qa>,
}

/// One conversation as a file of its own (`locomo10_v2/<n>.json`): the conversation's keys, its
/// observations and its questions side by side at the top level.
#[derive(Deserialize)]
struct FlatConversation {
    #[serde(default)]
    qa: Vec<Qa>,
    #[serde(flatten)]
    rest: Map<String, Value>,
}

/// The top-level keys of one LoCoMo conversation in a file of its own: recognised by these keys,
/// never by words of its values (an audit file's turns name `"session_1"`).
pub fn is_conversation(has: impl Fn(&str) -> bool) -> bool {
    ["speaker_a", "speaker_b", "session_1"].iter().all(|k| has(k))
}

/// The sample id of a conversation file without one: `conv-<n>` for a file named by its number
/// (LoCoMo's naming), the file's stem otherwise.
fn sample_from_name(file: &str) -> String {
    let stem = super::file_stem(file);
    if !stem.is_empty() && stem.bytes().all(|b| b.is_ascii_digit()) { format!("conv-{stem}") } else { stem }
}

/// The conversations of a file, each with the paths its fields have in the file: the released
/// array (`[i].conversation.…`), or one conversation object (`session_1[3]`, `qa[2]`).
fn conversations(file: &str, text: &str, loaded: &mut Loaded) -> Result<Vec<(Conversation, Paths)>, IngestError> {
    if !text.trim_start().starts_with('{') {
        let convs: Vec<Conversation> = records::parse(file, 0, text)?;
        return Ok(convs
            .into_iter()
            .enumerate()
            .map(|(ci, c)| {
                let root = format!("[{ci}].");
                let paths = Paths {
                    conversation: format!("{root}conversation."),
                    observation: format!("{root}observation."),
                    root,
                };
                (c, paths)
            })
            .collect());
    }
    let flat: FlatConversation = records::parse(file, 0, text)?;
    let (observation, conversation): (Map<String, Value>, Map<String, Value>) =
        flat.rest.into_iter().partition(|(k, _)| session_number(k, "session_", "_observation").is_some());
    let sample_id = sample_from_name(file);
    loaded.warnings.add(WarningKind::SampleFromFileName, || format!("{file}: `{sample_id}`"));
    let conv = Conversation {
        sample_id,
        conversation,
        observation: (!observation.is_empty()).then_some(observation),
        qa: flat.qa,
    };
    Ok(vec![(conv, Paths::default())])
}

/// Where a conversation's parts sit in its file, as field-path prefixes.
#[derive(Default)]
struct Paths {
    root: String,
    conversation: String,
    observation: String,
}

#[derive(Deserialize)]
struct Qa {
    #[serde(default, deserialize_with = "lenient::opt_text")]
    question: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt_text")]
    answer: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt_text")]
    adversarial_answer: Option<String>,
    #[serde(default)]
    evidence: Vec<Value>,
    #[serde(default, deserialize_with = "lenient::opt_text")]
    category: Option<String>,
}

/// Parses one LoCoMo dialogue id token into canonical `D<session>:<turn>` (no zero padding).
/// Accepts `D1:3`, `D30:05`, `D:11:26`; returns `None` for anything else (`D`, `S2`, ...).
pub fn canonical_dia_id(token: &str) -> Option<String> {
    let t = token.trim().trim_matches(|c: char| c == ',' || c == ';' || c == '"' || c == '\'');
    let rest = t.strip_prefix('D').or_else(|| t.strip_prefix('d'))?;
    let rest = rest.strip_prefix(':').unwrap_or(rest);
    let (s, n) = rest.split_once(':')?;
    if s.is_empty() || n.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) || !n.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let s: u64 = s.parse().ok()?;
    let n: u64 = n.parse().ok()?;
    Some(format!("D{s}:{n}"))
}

/// Splits an evidence/reference string that may hold several ids separated by `;`, `,` or
/// spaces. Returns the canonical ids, the unparseable tokens, and whether anything was rewritten.
pub fn split_dia_ids(s: &str) -> (Vec<String>, Vec<String>, bool) {
    let tokens: Vec<&str> =
        s.split(|c: char| c == ';' || c == ',' || c.is_whitespace()).filter(|t| !t.is_empty()).collect();
    let mut ok = Vec::new();
    let mut bad = Vec::new();
    let mut changed = tokens.len() != 1;
    for t in tokens {
        match canonical_dia_id(t) {
            Some(c) => {
                if c != t {
                    changed = true;
                }
                ok.push(c)
            }
            None => bad.push(t.to_string()),
        }
    }
    if ok.is_empty() && bad.is_empty() {
        bad.push(s.to_string());
    }
    (ok, bad, changed)
}

fn session_number(key: &str, prefix: &str, suffix: &str) -> Option<u32> {
    key.strip_prefix(prefix)?.strip_suffix(suffix)?.parse().ok()
}

pub fn read(file: &str, text: &str, loaded: &mut Loaded) -> Result<usize, IngestError> {
    let convs = conversations(file, text, loaded)?;
    let mut seen_samples = FxHashSet::default();
    for (conv, paths) in &convs {
        let sample = &conv.sample_id;
        let at = |field: String| Location::file(file).with_field(field);
        if !seen_samples.insert(sample.clone()) {
            return Err(IngestError::new(
                at(format!("{}sample_id", paths.root)),
                format!("sample_id `{sample}` appears twice"),
            ));
        }
        // Turns, in session order.
        let mut sessions: Vec<(u32, &Vec<Value>)> = conv
            .conversation
            .iter()
            .filter_map(|(k, v)| Some((session_number(k, "session_", "")?, v.as_array()?)))
            .collect();
        sessions.sort_by_key(|(n, _)| *n);
        let mut turns: FxHashSet<String> = FxHashSet::default();
        for (sn, session) in sessions {
            let date = conv.conversation.get(&format!("session_{sn}_date_time")).and_then(Value::as_str);
            for (ti, turn) in session.iter().enumerate() {
                let field = || format!("{}session_{sn}[{ti}]", paths.conversation);
                let obj = turn.as_object().ok_or_else(|| IngestError::new(at(field()), "a turn must be an object"))?;
                let raw_id = obj
                    .get("dia_id")
                    .and_then(Value::as_str)
                    .ok_or_else(|| IngestError::new(at(format!("{}.dia_id", field())), "missing or not a string"))?;
                let dia = canonical_dia_id(raw_id).ok_or_else(|| {
                    IngestError::new(
                        at(format!("{}.dia_id", field())),
                        format!("`{raw_id}` is not a D<session>:<turn> id"),
                    )
                })?;
                let id = format!("{sample}/{dia}");
                if !turns.insert(id.clone()) {
                    loaded.warnings.add(WarningKind::DuplicateMemory, || format!("{}: `{id}`", at(field())));
                    continue;
                }
                let mut extra = Map::new();
                for key in ["speaker", "blip_caption", "img_url"] {
                    if let Some(v) = obj.get(key) {
                        extra.insert(key.to_string(), v.clone());
                    }
                }
                extra.insert("session".into(), Value::from(sn));
                if let Some(d) = date {
                    extra.insert("date".into(), Value::from(d));
                }
                extra.insert("tenant".into(), Value::from(sample.as_str()));
                loaded.bundle.memories.push(Memory {
                    anchors: vec![id.clone()],
                    memory_id: id,
                    raw: true,
                    canonical: false,
                    kind: Some("turn".into()),
                    text: obj.get("text").and_then(Value::as_str).map(str::to_string),
                    systems: None,
                    extra,
                });
            }
        }

        // Observations → canonical memories.
        if let Some(obs) = &conv.observation {
            let mut blocks: Vec<(u32, &String, &Value)> =
                obs.iter().filter_map(|(k, v)| Some((session_number(k, "session_", "_observation")?, k, v))).collect();
            blocks.sort_by_key(|(n, _, _)| *n);
            for (sn, key, block) in blocks {
                let Some(by_speaker) = block.as_object() else {
                    continue;
                };
                let mut j = 0;
                for (speaker, facts) in by_speaker {
                    let Some(facts) = facts.as_array() else {
                        continue;
                    };
                    for (fi, fact) in facts.iter().enumerate() {
                        let field = format!("{}{key}.{speaker}[{fi}]", paths.observation);
                        let pair = fact.as_array().filter(|p| !p.is_empty()).ok_or_else(|| {
                            IngestError::new(at(field.clone()), "an observation must be [fact, dia_id]")
                        })?;
                        let text = pair[0].as_str().map(str::to_string);
                        let refs: Vec<String> = match pair.get(1) {
                            Some(Value::String(s)) => vec![s.clone()],
                            Some(Value::Array(a)) => a.iter().filter_map(|v| v.as_str().map(str::to_string)).collect(),
                            _ => Vec::new(),
                        };
                        let listed = matches!(pair.get(1), Some(Value::Array(_)));
                        let mut anchors = Vec::new();
                        let mut rewritten = listed && refs.len() > 1;
                        for r in &refs {
                            let (ok, bad, changed) = split_dia_ids(r);
                            rewritten |= changed || !bad.is_empty();
                            for d in ok {
                                let id = format!("{sample}/{d}");
                                if !turns.contains(&id) {
                                    loaded.warnings.add(WarningKind::LineageDangling, || {
                                        format!("{}: `{d}` points at no turn", at(field.clone()))
                                    });
                                }
                                if !anchors.contains(&id) {
                                    anchors.push(id);
                                }
                            }
                        }
                        if rewritten {
                            loaded.warnings.add(WarningKind::LineageNormalized, || {
                                format!("{}: {:?} → {:?}", at(field.clone()), refs, anchors)
                            });
                        }
                        j += 1;
                        let mut extra = Map::new();
                        extra.insert("speaker".into(), Value::from(speaker.as_str()));
                        extra.insert("session".into(), Value::from(sn));
                        extra.insert("tenant".into(), Value::from(sample.as_str()));
                        loaded.bundle.memories.push(Memory {
                            memory_id: format!("{sample}/obs:S{sn}:{j}"),
                            anchors,
                            raw: false,
                            canonical: true,
                            kind: Some("observation".into()),
                            text,
                            systems: None,
                            extra,
                        });
                    }
                }
            }
        }

        // QA → queries.
        for (qi, qa) in conv.qa.iter().enumerate() {
            let qid = format!("{sample}/q{qi}");
            let field = format!("{}qa[{qi}].evidence", paths.root);
            let mut evidence: Vec<Evidence> = Vec::new();
            for (ei, ev) in qa.evidence.iter().enumerate() {
                let Some(s) = ev.as_str() else {
                    loaded
                        .warnings
                        .add(WarningKind::EvidenceUnparseable, || format!("{}: {ev}", at(format!("{field}[{ei}]"))));
                    continue;
                };
                let (ok, bad, changed) = split_dia_ids(s);
                if changed && !ok.is_empty() {
                    loaded.warnings.add(WarningKind::EvidenceNormalized, || {
                        format!("{} (`{qid}`): `{s}` → {}", at(format!("{field}[{ei}]")), ok.join(", "))
                    });
                }
                for b in bad {
                    loaded.warnings.add(WarningKind::EvidenceUnparseable, || {
                        format!("{} (`{qid}`): `{b}` in `{s}`", at(format!("{field}[{ei}]")))
                    });
                }
                for d in ok {
                    let anchor = format!("{sample}/{d}");
                    if evidence.iter().any(|e| e.anchor == anchor) {
                        loaded
                            .warnings
                            .add(WarningKind::DuplicateEvidence, || format!("{} (`{qid}`): `{d}`", at(field.clone())));
                        continue;
                    }
                    if !turns.contains(&anchor) {
                        loaded
                            .warnings
                            .add(WarningKind::EvidenceDangling, || format!("{} (`{qid}`): `{d}`", at(field.clone())));
                    }
                    evidence.push(Evidence { anchor, grade: 1.0 });
                }
            }
            let adversarial = qa.category.as_deref() == Some("5");
            let answer = if adversarial {
                loaded.warnings.add(WarningKind::AdversarialQuestion, || format!("`{qid}`"));
                qa.answer.clone().or_else(|| qa.adversarial_answer.clone())
            } else {
                qa.answer.clone()
            };
            let mut extra = Map::new();
            extra.insert("tenant".into(), Value::from(sample.as_str()));
            if adversarial {
                extra.insert("adversarial".into(), Value::Bool(true));
            }
            loaded.bundle.queries.push(Query {
                query_id: qid,
                evidence,
                category: qa.category.clone(),
                text: qa.question.clone(),
                answer,
                targets: None,
                extra,
            });
        }
    }
    Ok(convs.len())
}

// ---- LoCoMo answer files as memory vendors release them (read as outcome rows by
// `crate::outcomes::locomo`): per-question records grouped by conversation keys.

/// LoCoMo-10's sample ids, in the order of `locomo10.json` (conversation numbers 0–9).
pub const SAMPLE_IDS: [&str; 10] =
    ["conv-26", "conv-30", "conv-41", "conv-42", "conv-43", "conv-44", "conv-47", "conv-48", "conv-49", "conv-50"];

/// The conversation number a group key names: a plain number, a trailing number
/// (`locomo_exp_user_3`), or a LoCoMo sample id (`conv-42` → 3).
pub fn conversation_number(key: &str) -> Option<usize> {
    let k = key.trim();
    if let Some(i) = SAMPLE_IDS.iter().position(|s| *s == k) {
        return Some(i);
    }
    let digits: String = k.chars().rev().take_while(|c| c.is_ascii_digit()).collect::<String>().chars().rev().collect();
    if digits.is_empty() || digits.len() > 6 {
        return None;
    }
    let rest = &k[..k.len() - digits.len()];
    // `conv-26` style keys that are not LoCoMo-10 ids are not conversation numbers.
    if rest.ends_with("conv-") {
        return None;
    }
    digits.parse().ok()
}

/// Whether the records of a document look like LoCoMo answers: grouped by conversation keys,
/// each with a `question`.
pub fn looks_like_answers(groups: &[(&str, &serde_json::Map<String, serde_json::Value>)]) -> bool {
    !groups.is_empty() && groups.iter().all(|(g, o)| conversation_number(g).is_some() && o.contains_key("question"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dia_ids() {
        assert_eq!(canonical_dia_id("D1:3").as_deref(), Some("D1:3"));
        assert_eq!(canonical_dia_id("D30:05").as_deref(), Some("D30:5"));
        assert_eq!(canonical_dia_id("D:11:26").as_deref(), Some("D11:26"));
        assert_eq!(canonical_dia_id("D"), None);
        assert_eq!(canonical_dia_id("D1:x"), None);
        let (ok, bad, changed) = split_dia_ids("D8:6; D9:17");
        assert_eq!((ok, bad, changed), (vec!["D8:6".to_string(), "D9:17".to_string()], vec![], true));
        let (ok, _, _) = split_dia_ids("D9:1 D4:4 D4:6");
        assert_eq!(ok.len(), 3);
        let (ok, bad, _) = split_dia_ids("D");
        assert!(ok.is_empty());
        assert_eq!(bad, vec!["D"]);
        let (ok, _, changed) = split_dia_ids("D22:21, D22:23");
        assert_eq!((ok.len(), changed), (2, true));
        let (_, _, changed) = split_dia_ids("D1:3");
        assert!(!changed);
    }

    #[test]
    fn conversation_keys_are_normalised() {
        for (k, n) in [
            ("0", 0),
            ("7", 7),
            ("locomo_exp_user_3", 3),
            ("locomo_experiment_user_9", 9),
            ("conv-42", 3),
            ("conv-26", 0),
        ] {
            assert_eq!(conversation_number(k), Some(n), "{k}");
        }
        for k in ["conv-99", "user", "", "abc-"] {
            assert_eq!(conversation_number(k), None, "{k}");
        }
    }
}
