//! One query's answers as the files state them (`memaudit answers --show-item QUERY`, the
//! answers page's item view): the question and gold answers once, then each arm's rows at
//! their `FILE:LINE` with the raw prediction, its parse and its score under every profile.
//!
//! The rows are the rows read, before any pooling of design columns or filtering to a problem
//! set ([`crate::cells`]): every row of the query is shown, none merged. The cells are named by
//! what they hold: `gold` (several variants: `gold 1`, `gold 2`, …), `prediction`,
//! `parsed_prediction` (a parse the file gives), `parsed` (MemoryAgentBench's `parse_output` of
//! the prediction, as scored), `dataset`, `category`, then every other column of the file under
//! its own name (the question), then `score PROFILE` (`1 (correct)`, `0.4`, …) for each
//! profile scored, then `stated COLUMN` for each of the file's own scores (a judge's verdict).
//! The prediction, its parses and its scores are an arm's own: shown with its row even where
//! every arm's are the same.

use super::read::AnswerRow;
use super::rescore::{AnswerSettings, rescore_answers};
use crate::error::Result;
use crate::report::instance::{ArmText, ItemText, ROWS_PER_ARM, RowText, TextField, cell};

/// One row of the query: its arm, where it stands, its cells (column, text).
type Found = (String, String, Vec<(String, String)>);

/// The arm of rows without an arm column.
pub const NO_ARM: &str = "(no arm)";

/// One row's cells, in the order the module states.
fn cells(r: &AnswerRow, parsed: &str, scores: &[(String, String)]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    match r.gold.as_slice() {
        [one] => out.push(("gold".into(), one.clone())),
        many => out.extend(many.iter().enumerate().map(|(i, g)| (format!("gold {}", i + 1), g.clone()))),
    }
    out.push(("prediction".into(), r.prediction.clone()));
    out.extend(r.parsed_prediction.iter().map(|p| ("parsed_prediction".into(), p.clone())));
    out.push(("parsed".into(), parsed.to_string()));
    out.extend(r.dataset.iter().map(|d| ("dataset".into(), d.clone())));
    out.extend(r.category.iter().map(|c| ("category".into(), c.to_string())));
    out.extend(r.other.iter().filter(|(_, v)| !v.is_empty()).cloned());
    out.extend(scores.iter().cloned());
    out.extend(r.stated.iter().map(|s| (format!("{STATED} {}", s.column), crate::report::num(Some(s.value)))));
    out
}

/// The name of a file's own score among a row's cells: `stated llm_score`.
const STATED: &str = "stated";

/// The rows of query `item` among `rows`, per arm in the order first read, scored under
/// `settings`. `Ok(None)` when no row is that query.
pub fn item_text(rows: &[AnswerRow], settings: &AnswerSettings, item: &str) -> Result<Option<ItemText>> {
    let mine: Vec<AnswerRow> = rows.iter().filter(|r| r.query_id == item).cloned().collect();
    if mine.is_empty() {
        return Ok(None);
    }
    let scored = rescore_answers(&mine, settings, Default::default())?;
    let mut found: Vec<Found> = Vec::new();
    for (r, s) in mine.iter().zip(&scored.rows) {
        let scores: Vec<(String, String)> = s
            .scores
            .iter()
            .map(|p| {
                let verdict = if p.correct { " (correct)" } else { "" };
                (format!("score {}", p.profile.name()), format!("{}{verdict}", crate::report::num(Some(p.score))))
            })
            .collect();
        let arm = r.arm.clone().unwrap_or_else(|| NO_ARM.to_string());
        found.push((arm, format!("{}:{}", r.file, r.line), cells(r, &s.parsed, &scores)));
    }
    // Shared: a cell of the query every row holds with one text (the question, the gold); an
    // arm's answer, its parse and its scores stay with the arm, even where arms agree.
    let own = |c: &str| {
        ["prediction", "parsed_prediction", "parsed"].contains(&c)
            || c.starts_with("score ")
            || c.starts_with(&format!("{STATED} "))
    };
    let first = &found[0].2;
    let shared: Vec<&(String, String)> =
        first.iter().filter(|c| !own(&c.0) && found.iter().all(|(_, _, cs)| cs.contains(c))).collect();
    let mut out =
        ItemText { item: item.to_string(), key: vec!["query_id".into()], shared: Vec::new(), arms: Vec::new() };
    out.shared = shared.iter().map(|(c, t)| cell(c, t)).collect();
    for (arm, at, cs) in &found {
        let slot = match out.arms.iter().position(|a| a.arm == *arm) {
            Some(i) => i,
            None => {
                out.arms.push(ArmText { arm: arm.clone(), rows: Vec::new(), more_rows: 0 });
                out.arms.len() - 1
            }
        };
        let a = &mut out.arms[slot];
        if a.rows.len() >= ROWS_PER_ARM {
            a.more_rows += 1;
            continue;
        }
        let fields: Vec<TextField> = cs.iter().filter(|c| !shared.contains(c)).map(|(c, t)| cell(c, t)).collect();
        a.rows.push(RowText { at: at.clone(), fields });
    }
    Ok(Some(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answers::{AnswerColumns, Profile, read_answers};
    use crate::ingest::InputFile;

    const ROWS: &str = "{\"query_id\":\"q0\",\"arm\":\"a\",\"question\":\"Where?\",\"gold\":[\"Lisbon\"],\"output\":\"Lisbon, Portugal\"}\n\
        {\"query_id\":\"q0\",\"arm\":\"b\",\"question\":\"Where?\",\"gold\":[\"Lisbon\"],\"output\":\"Porto\"}\n\
        {\"query_id\":\"q1\",\"arm\":\"a\",\"question\":\"Who?\",\"gold\":[\"Ben\",\"Benjamin\"],\"output\":\"Ben\"}\n";

    fn show(item: &str, profiles: &[Profile]) -> Option<ItemText> {
        let (rows, _) = read_answers(&InputFile::new("answers.jsonl", ROWS), &AnswerColumns::default()).unwrap();
        let settings = AnswerSettings { profiles: profiles.to_vec(), ..AnswerSettings::default() };
        item_text(&rows, &settings, item).unwrap()
    }

    fn texts(f: &[TextField]) -> Vec<(&str, &str)> {
        f.iter().map(|f| (f.column.as_str(), f.text.as_str())).collect()
    }

    #[test]
    fn the_question_and_gold_once_then_each_arms_prediction_parse_and_scores() {
        let x = show("q0", &[Profile::SquadEm, Profile::SquadF1]).unwrap();
        assert_eq!(texts(&x.shared), [("gold", "Lisbon"), ("question", "Where?")]);
        assert_eq!(x.arms.iter().map(|a| a.arm.as_str()).collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(x.arms[0].rows[0].at, "answers.jsonl:1");
        // SQuAD F1 of "Lisbon, Portugal" against "Lisbon": precision 1/2, recall 1, F1 2/3.
        assert_eq!(
            texts(&x.arms[0].rows[0].fields),
            [
                ("prediction", "Lisbon, Portugal"),
                ("parsed", "Lisbon, Portugal"),
                ("score squad_em", "0"),
                ("score squad_f1", &*format!("{} (correct)", 2.0_f64 / 3.0)),
            ]
        );
        assert_eq!(texts(&x.arms[1].rows[0].fields)[2], ("score squad_em", "0"));
    }

    #[test]
    fn several_gold_variants_are_numbered_and_an_unknown_query_is_none() {
        let x = show("q1", &[Profile::SquadEm]).unwrap();
        assert_eq!(texts(&x.shared), [("gold 1", "Ben"), ("gold 2", "Benjamin"), ("question", "Who?")]);
        assert_eq!(
            texts(&x.arms[0].rows[0].fields).last(),
            Some(&("score squad_em", "1 (correct)")),
            "the verdict stays with the arm"
        );
        assert!(show("q2", &[Profile::SquadEm]).is_none());
    }
}
