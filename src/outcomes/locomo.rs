//! LoCoMo answer files as memory vendors release them, as outcome rows (the file shapes and
//! the conversation keys are the LoCoMo reader's, [`crate::ingest::locomo`]): one JSON document of per-question
//! records grouped by conversation, with no question id shared between vendors.
//!
//! | family | shape | verdict |
//! |---|---|---|
//! | mem0 `evals.py` (Memobase, …) | `{"0": [{question, answer, response, category, llm_score, …}]}` | `llm_score` |
//! | MemOS / EverMemOS | `{"locomo_exp_user_0": [{question, …, llm_judgments: {judgment_1: …}}]}` (also under `detailed_results`) | majority of `llm_judgments` (or `judgments`) |
//! | Zep | `{"locomo_experiment_user_0": [{question, answer, golden_answer, grade}]}` | `grade` |
//! | locomo-audit and others | the same, with `question_id`, `is_correct` or `correct` | `is_correct` / `correct` / `score` |
//!
//! Every record becomes a row keyed by `conversation` (the conversation's number: `"0"`,
//! `locomo_exp_user_0`, `locomo_experiment_user_0` and LoCoMo's own `conv-26` all name
//! conversation 0) and `position` (1-based, among that conversation's questions in the file);
//! `verdict` is the file's own verdict field as 0/1. Pairing on (conversation, position) is
//! checked: at every key the question texts of all files must be equal ([`check_questions`]),
//! so distinct questions are never merged (question texts repeat inside a conversation: they
//! stay distinct items).

use std::collections::BTreeMap;

use super::{OutcomeRow, OutcomeTable, OutcomeWarningKind, OutcomeWarnings};
pub use crate::ingest::locomo::{SAMPLE_IDS, conversation_number, looks_like_answers};

/// Verdict fields, in the order they are looked for.
const VERDICT_FIELDS: [&str; 6] = ["llm_score", "grade", "is_correct", "correct", "judge.correct", "score"];

/// The majority of `judgment_*` values (more than half true): 1, 0, or `None` without any.
fn majority(row: &OutcomeRow, prefix: &str) -> Option<(f64, usize, usize)> {
    let votes: Vec<f64> = row.values.iter().filter(|(k, _)| k.starts_with(prefix)).map(|(_, v)| *v).collect();
    if votes.is_empty() {
        return None;
    }
    let yes = votes.iter().filter(|&&v| v >= 0.5).count();
    Some((if yes * 2 > votes.len() { 1.0 } else { 0.0 }, yes, votes.len()))
}

/// Adds `conversation`, `position` and `verdict` to the rows of one file (rows carry the
/// conversation key in `group`, in file order). Returns the verdict field used.
pub fn annotate(rows: &mut [OutcomeRow], warnings: &mut OutcomeWarnings, file: &str) -> Option<String> {
    let mut position: BTreeMap<String, usize> = BTreeMap::new();
    let mut used: Option<String> = None;
    for r in rows.iter_mut() {
        let Some(group) = r.fields.get("group").cloned() else { continue };
        let Some(conv) = conversation_number(&group) else { continue };
        let p = position.entry(group).or_insert(0);
        *p += 1;
        r.fields.insert("conversation".into(), conv.to_string());
        r.values.insert("conversation".into(), conv as f64);
        r.fields.insert("position".into(), p.to_string());
        r.values.insert("position".into(), *p as f64);
        let verdict = VERDICT_FIELDS.iter().find_map(|f| r.values.get(*f).map(|v| (f.to_string(), *v))).or_else(|| {
            ["llm_judgments.", "judgments."].iter().find_map(|prefix| {
                majority(r, prefix).map(|(v, yes, n)| {
                    if yes * 2 == n {
                        warnings.add(OutcomeWarningKind::JudgmentTie, || {
                            format!("{file}, line {}: {yes} of {n} true", r.line)
                        });
                    }
                    (format!("majority of {}*", prefix), v)
                })
            })
        });
        if let Some((field, v)) = verdict {
            r.fields.insert("verdict".into(), v.to_string());
            r.values.insert("verdict".into(), v);
            used.get_or_insert(field);
        }
    }
    used
}

/// Every (conversation, position) whose question texts differ between files: refused (the files
/// do not list the same questions in the same order). Texts are compared after trimming and
/// collapsing white space.
pub fn check_questions(table: &OutcomeTable) -> Result<(), String> {
    let norm = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut first: BTreeMap<(usize, usize), (&str, String)> = BTreeMap::new();
    let mut mismatches = Vec::new();
    let mut count = 0;
    for r in &table.rows {
        let (Some(c), Some(p), Some(q)) =
            (r.values.get("conversation"), r.values.get("position"), r.fields.get("question"))
        else {
            continue;
        };
        let key = (*c as usize, *p as usize);
        let file = table.files.get(r.file).map_or("", |f| f.name.as_str());
        match first.get(&key) {
            None => {
                first.insert(key, (file, norm(q)));
            }
            Some((f0, q0)) if *q0 != norm(q) => {
                count += 1;
                if mismatches.len() < 5 {
                    mismatches.push(format!(
                        "conversation {} question {}: {f0} asks \u{201c}{}\u{201d}, {file} asks \u{201c}{}\u{201d}",
                        key.0,
                        key.1,
                        q0,
                        norm(q)
                    ));
                }
            }
            _ => {}
        }
    }
    if count == 0 {
        return Ok(());
    }
    Err(format!(
        "LoCoMo answer files are paired by (conversation, position), but {count} position(s) hold different \
         questions in different files, so the files do not list the same questions in the same order \
         (e.g. one keeps category-5 questions, another drops them). Not paired, never merged: {}. Give files \
         of the same question set, or compare each file's accuracy on its own (per-arm intervals need no pairing)",
        mismatches.join("; ")
    ))
}
