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

/// `s` with its white space collapsed (question texts are compared so).
fn collapsed(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Every (conversation, position) whose question texts differ between files: refused (the files
/// do not list the same questions in the same order). Texts are compared after trimming and
/// collapsing white space.
pub fn check_questions(table: &OutcomeTable) -> Result<(), String> {
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
                first.insert(key, (file, collapsed(q)));
            }
            Some((f0, q0)) if *q0 != collapsed(q) => {
                count += 1;
                if mismatches.len() < 5 {
                    mismatches.push(format!(
                        "conversation {} question {}: {f0} asks \u{201c}{}\u{201d}, {file} asks \u{201c}{}\u{201d}",
                        key.0,
                        key.1,
                        q0,
                        collapsed(q)
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

/// The field holding a record's gold answer: `golden_answer` (Zep, whose `answer` is the
/// prediction), else `answer` beside a separate prediction (`response`: mem0's `evals.py`).
fn gold_field(fields: &BTreeMap<String, String>) -> Option<&'static str> {
    if fields.contains_key("golden_answer") {
        Some("golden_answer")
    } else if fields.contains_key("response") && fields.contains_key("answer") {
        Some("answer")
    } else {
        None
    }
}

/// Re-numbers the questions of LoCoMo answer files that list them in different orders
/// ([`align_by_text`]): `position` of every row, and a warning naming the first that moved.
pub fn align_table(table: &mut OutcomeTable) {
    // The gold answer tells repeated questions apart only when every record states it alike
    // (the families name it differently).
    let gold = table.rows.first().and_then(|r| gold_field(&r.fields));
    let gold = gold.filter(|g| table.rows.iter().all(|r| gold_field(&r.fields) == Some(*g)));
    let placed: Vec<Placed<'_>> = table
        .rows
        .iter()
        .filter_map(|r| {
            Some(Placed {
                file: r.file,
                conversation: r.fields.get("conversation")?,
                position: r.values.get("position").map(|p| *p as usize)?,
                question: r.fields.get("question").map(String::as_str),
                gold: gold.and_then(|g| r.fields.get(g)).map_or("", String::as_str),
            })
        })
        .collect();
    if placed.len() != table.rows.len() {
        return;
    }
    let Some(a) = align_by_text(&placed) else { return };
    let (i, old) = a.first_moved;
    let example = {
        let r = &table.rows[i];
        format!(
            "{}, line {}: conversation {} question {old} → {} (\u{201c}{}\u{201d})",
            table.files.get(r.file).map_or("", |f| f.name.as_str()),
            r.line,
            r.fields.get("conversation").map_or("", String::as_str),
            a.positions[i],
            r.fields.get("question").map_or("", String::as_str)
        )
    };
    for (r, p) in table.rows.iter_mut().zip(&a.positions) {
        r.fields.insert("position".into(), p.to_string());
        r.values.insert("position".into(), *p as f64);
    }
    table.warnings.add_n(OutcomeWarningKind::QuestionsAlignedByText, a.moved, || example);
}

/// One question as a LoCoMo answer file places it (for [`align_by_text`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placed<'a> {
    /// The file's index (rows of one file share it).
    pub file: usize,
    pub conversation: &'a str,
    /// 1-based, among the conversation's questions in its file.
    pub position: usize,
    /// The question's text (`None`: the record has none).
    pub question: Option<&'a str>,
    /// The gold answer's text (empty when the record has none).
    pub gold: &'a str,
}

/// Questions re-numbered by their text ([`align_by_text`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Alignment {
    /// Each question's new position, in the order given.
    pub positions: Vec<usize>,
    /// How many questions moved.
    pub moved: usize,
    /// The first question that moved: its index in the order given, and its old position.
    pub first_moved: (usize, usize),
}

/// Files of LoCoMo answers that list the same questions in different orders (mem0's
/// `evals.py` writes them as its workers finish; one file keeps category-5 questions, another
/// drops them) pair by text, not by place. Each question keeps the number the first file that
/// lists it gives it: a question at the same place with the same text (and gold answer) keeps
/// its place; any other is matched to the first place of that conversation with the same text
/// and gold answer that its file has not matched yet; a question no earlier file lists gets the
/// conversation's next free number, so it stays its own item (never merged with another). Texts
/// are compared after collapsing white space.
///
/// `None` when nothing moves (every file agrees place by place) or when some record has no
/// question text (it cannot be matched: [`check_questions`] then says which places differ).
pub fn align_by_text(placed: &[Placed<'_>]) -> Option<Alignment> {
    use std::collections::{HashMap, HashSet};
    if placed.iter().any(|p| p.question.is_none()) {
        return None;
    }
    let texts: Vec<(String, String)> =
        placed.iter().map(|p| (collapsed(p.question.unwrap_or_default()), collapsed(p.gold))).collect();
    // The numbering so far: each (conversation, number)'s text, each text's numbers in order.
    let mut at: HashMap<(&str, usize), usize> = HashMap::new();
    let mut by_text: HashMap<(&str, &(String, String)), Vec<usize>> = HashMap::new();
    let mut next: HashMap<&str, usize> = HashMap::new();
    let mut positions = vec![0; placed.len()];
    let mut start = 0;
    while start < placed.len() {
        let file = placed[start].file;
        let end = placed[start..].iter().position(|p| p.file != file).map_or(placed.len(), |n| start + n);
        let mut used: HashSet<(&str, usize)> = HashSet::new();
        // Same place, same text: kept.
        for i in start..end {
            let p = &placed[i];
            if at.get(&(p.conversation, p.position)).is_some_and(|&j| texts[j] == texts[i]) {
                positions[i] = p.position;
                used.insert((p.conversation, p.position));
            }
        }
        // Otherwise the first free place with that text, else a new number.
        for i in start..end {
            let p = &placed[i];
            if positions[i] != 0 {
                continue;
            }
            let free = by_text
                .get(&(p.conversation, &texts[i]))
                .and_then(|places| places.iter().copied().find(|n| !used.contains(&(p.conversation, *n))));
            let n = free.unwrap_or_else(|| {
                let n = next.entry(p.conversation).or_insert(0);
                *n += 1;
                *n
            });
            positions[i] = n;
            used.insert((p.conversation, n));
        }
        for i in start..end {
            let p = &placed[i];
            at.entry((p.conversation, positions[i])).or_insert(i);
            let places = by_text.entry((p.conversation, &texts[i])).or_default();
            if !places.contains(&positions[i]) {
                places.push(positions[i]);
            }
            let n = next.entry(p.conversation).or_insert(0);
            *n = (*n).max(positions[i]);
        }
        start = end;
    }
    let moved: Vec<usize> = (0..placed.len()).filter(|&i| positions[i] != placed[i].position).collect();
    let first = *moved.first()?;
    Some(Alignment { positions, moved: moved.len(), first_moved: (first, placed[first].position) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn placed<'a>(file: usize, rows: &[(&'a str, Option<&'a str>, &'a str)]) -> Vec<Placed<'a>> {
        let mut pos: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        rows.iter()
            .map(|&(conversation, question, gold)| {
                let p = pos.entry(conversation).or_insert(0);
                *p += 1;
                Placed { file, conversation, position: *p, question, gold }
            })
            .collect()
    }

    #[test]
    fn files_in_the_same_order_are_left_as_they_are() {
        let mut all = placed(0, &[("0", Some("a?"), "x"), ("0", Some("b?"), "y")]);
        all.extend(placed(1, &[("0", Some("a?"), "x"), ("0", Some(" b? "), "y")]));
        assert_eq!(align_by_text(&all), None);
    }

    #[test]
    fn reordered_files_pair_by_text_and_new_questions_stay_apart() {
        // File 1 lists conversation 0's questions in another order, drops `b?` and adds `d?`.
        let mut all = placed(0, &[("0", Some("a?"), "x"), ("0", Some("b?"), "y"), ("0", Some("c?"), "z")]);
        all.extend(placed(1, &[("0", Some("c?"), "z"), ("0", Some("d?"), "w"), ("0", Some("a?"), "x")]));
        let a = align_by_text(&all).expect("reordered");
        assert_eq!(a.positions, [1, 2, 3, 3, 4, 1]);
        assert_eq!(a.moved, 3);
        assert_eq!(a.first_moved, (3, 1));
    }

    #[test]
    fn repeated_questions_pair_in_their_order_and_by_gold() {
        // The same question twice in a conversation (LoCoMo has such), once with another gold.
        let mut all = placed(0, &[("7", Some("q"), "g1"), ("7", Some("q"), "g1"), ("7", Some("q"), "g2")]);
        all.extend(placed(1, &[("7", Some("q"), "g2"), ("7", Some("q"), "g1"), ("7", Some("q"), "g1")]));
        // The second keeps its place (same text there); the others go to the free places of
        // their text and gold.
        assert_eq!(align_by_text(&all).expect("reordered").positions, [1, 2, 3, 3, 2, 1]);
    }

    #[test]
    fn a_repeat_replaced_leaves_the_other_repeats_in_place() {
        let mut all =
            placed(0, &[("3", Some("p?"), ""), ("3", Some("b?"), ""), ("3", Some("p?"), ""), ("3", Some("p?"), "")]);
        all.extend(placed(
            1,
            &[("3", Some("p?"), ""), ("3", Some("b?"), ""), ("3", Some("new?"), ""), ("3", Some("p?"), "")],
        ));
        let a = align_by_text(&all).expect("one question differs");
        assert_eq!(a.positions, [1, 2, 3, 4, 1, 2, 5, 4]);
        assert_eq!((a.moved, a.first_moved), (1, (6, 3)));
    }

    #[test]
    fn a_record_without_its_question_cannot_be_matched() {
        let mut all = placed(0, &[("0", Some("a?"), "x"), ("0", Some("b?"), "y")]);
        all.extend(placed(1, &[("0", Some("b?"), "y"), ("0", None, "x")]));
        assert_eq!(align_by_text(&all), None);
    }
}
