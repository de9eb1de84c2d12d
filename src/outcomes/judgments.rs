//! Several verdicts per item (`llm_judgments: {judgment_1, judgment_2, judgment_3}`, one per
//! judge run) read as separate arms: `--judgment each`. Every row with judgments becomes one row
//! per judgment column, its arm suffixed with the judgment's name (`evermemos/judgment_2`), so
//! the judges of one system can be compared with each other and with other systems, item by
//! item. A row without judgments (a file with one verdict per item) stays one row under its own
//! arm with its own value. The majority and a chosen judgment are [`super::JudgmentChoice`]'s
//! other readings.

use super::pairing::{ARM_SEP, judgment_columns};
use super::{OutcomeRow, OutcomeTable, Spec, column_infos};
use crate::fields::mention;

/// The arm column after spreading: `<arm>/<judgment>` (or `<arm>` for a row without judgments).
pub const ARM_COLUMN: &str = "arm_judgment";
/// The value column after spreading.
pub const VALUE_COLUMN: &str = "judgment_value";

/// The judgment prefix: `spec.value` when it has `value.*` columns, else the one prefix whose
/// columns are named `<prefix>.judgment_<n>` (LoCoMo answer files keep `verdict` = the majority
/// next to `llm_judgments.judgment_*`).
fn judgment_prefix(table: &OutcomeTable, spec: &Spec) -> Result<String, String> {
    if !judgment_columns(table, &spec.value).is_empty() {
        return Ok(spec.value.clone());
    }
    let mut prefixes: Vec<&str> = table
        .columns
        .iter()
        .filter_map(|c| {
            let (p, j) = c.name.rsplit_once('.')?;
            j.strip_prefix("judgment_").filter(|n| n.parse::<u32>().is_ok()).map(|_| p)
        })
        .collect();
    prefixes.dedup();
    match prefixes.as_slice() {
        [p] => Ok(p.to_string()),
        [] => Err(format!(
            "{} each: no judgment columns in {} (`{}.*` or `<name>.judgment_<n>`; judge files hold \
             `llm_judgments`: {{\"judgment_1\": true, …}})",
            mention("judgment"),
            table.name,
            spec.value
        )),
        many => Err(format!(
            "{} each: several judgment groups ({}): choose one with {}",
            mention("judgment"),
            many.iter().map(|p| format!("`{p}`")).collect::<Vec<_>>().join(", "),
            mention("value")
        )),
    }
}

/// The table with one row per (row, judgment) and the spec reading each judgment as an arm
/// (arm = [`ARM_COLUMN`], value = [`VALUE_COLUMN`]). A judgment a row lacks is a missing value
/// (the pairing names it). Refused when the table has no judgment columns or already has a
/// column of those names.
pub fn each_judgment_as_arm(table: &OutcomeTable, spec: &Spec) -> Result<(OutcomeTable, Spec), String> {
    let prefix = judgment_prefix(table, spec)?;
    let cols = judgment_columns(table, &prefix);
    if let Some(c) = [ARM_COLUMN, VALUE_COLUMN].into_iter().find(|c| table.column(c).is_some()) {
        return Err(format!(
            "{} each: the table already has a column `{c}`; it would be overwritten",
            mention("judgment")
        ));
    }
    let mut out = OutcomeTable { rows: Vec::with_capacity(table.rows.len() * cols.len()), ..table.clone() };
    let mut spread = 0usize;
    let mut single = 0usize;
    for row in &table.rows {
        let Some(base) = system_of(table, spec, row) else {
            // No arm: kept as is, the pairing names the row.
            out.rows.push(row.clone());
            continue;
        };
        let mut emit = |arm: String, value: Option<(&String, f64)>| {
            let mut r = row.clone();
            for c in &cols {
                r.fields.remove(c);
                r.values.remove(c);
            }
            r.fields.insert(ARM_COLUMN.into(), arm);
            if let Some((text, v)) = value {
                r.fields.insert(VALUE_COLUMN.into(), text.clone());
                r.values.insert(VALUE_COLUMN.into(), v);
            }
            out.rows.push(r);
        };
        if cols.iter().any(|c| row.fields.contains_key(c)) {
            spread += 1;
            for c in &cols {
                let value = row.fields.get(c).zip(row.values.get(c).copied());
                emit(format!("{base}{ARM_SEP}{}", &c[prefix.len() + 1..]), value);
            }
        } else {
            single += 1;
            let value = row.fields.get(&spec.value).zip(row.values.get(&spec.value).copied());
            emit(base, value);
        }
    }
    let mut order: Vec<String> =
        table.columns.iter().filter(|c| !cols.contains(&c.name)).map(|c| c.name.clone()).collect();
    order.push(ARM_COLUMN.into());
    order.push(VALUE_COLUMN.into());
    out.columns = column_infos(&order, &out.rows);
    let mut reason = format!(
        "each of the {} judgments `{prefix}.*` is a separate arm (`judgment` = each): {spread} rows spread into \
         `<arm>/<judgment>`",
        cols.len()
    );
    if spec.arm.is_empty() {
        reason.push_str(" (no arm column: each file is one system, named after the file)");
    }
    if single > 0 {
        reason.push_str(&format!("; {single} rows without judgments keep their arm and `{}`", spec.value));
    }
    let mut spec = spec.clone();
    spec.reasons.push(reason);
    spec.judgment = None;
    spec.arm = vec![ARM_COLUMN.into()];
    spec.value = VALUE_COLUMN.into();
    Ok((out, spec))
}

/// The system a row is of: its arm, or without an arm column its file's name (one system per
/// file, as the per-arm summary names it); `None` for a row without an arm value.
fn system_of(table: &OutcomeTable, spec: &Spec, row: &OutcomeRow) -> Option<String> {
    if spec.arm.is_empty() {
        let name = table.files.get(row.file).map_or(table.name.as_str(), |f| f.name.as_str());
        return Some(spec.shown_arm(crate::ingest::file_stem(name)));
    }
    spec.arm_label(row).map(|a| spec.shown_arm(a))
}

/// One system's judgments item by item: for its items with every judgment present, how many
/// judgments say 1 ([`crate::compare::judges`] computes their agreement).
#[derive(Debug, Clone, PartialEq)]
pub struct JudgePanel {
    /// The system (its arm, or its file without an arm column).
    pub arm: String,
    /// The judgment columns' names after the prefix (`judgment_1`, …), in natural order.
    pub judgments: Vec<String>,
    /// Per item with every judgment: the judgments saying 1 (the others say 0).
    pub ones: Vec<u32>,
    /// Per judgment: its 1s over those items.
    pub positives: Vec<usize>,
    /// Items with some verdicts but not all (left out of the agreement, counted).
    pub incomplete: usize,
    /// Rows whose item (the spec's key) came before in the same system: only its first row
    /// counts, the others are counted here.
    pub repeated: usize,
}

/// The judge panels of `table` under `spec` (rows its filter keeps), one per system in
/// first-seen order: none when the table has no judgment columns or only one.
pub fn judge_panels(table: &OutcomeTable, spec: &Spec) -> Vec<JudgePanel> {
    let Ok(prefix) = judgment_prefix(table, spec) else { return Vec::new() };
    let cols = judgment_columns(table, &prefix);
    if cols.len() < 2 {
        return Vec::new();
    }
    let names: Vec<String> = cols.iter().map(|c| c[prefix.len() + 1..].to_string()).collect();
    let mut panels: Vec<JudgePanel> = Vec::new();
    let mut index: std::collections::HashMap<String, usize> = Default::default();
    let mut seen: std::collections::HashSet<(usize, Vec<String>)> = Default::default();
    for row in table.rows.iter().filter(|r| spec.keeps(r)) {
        let Some(arm) = system_of(table, spec, row) else { continue };
        let key: Option<Vec<String>> = (!spec.key.is_empty())
            .then(|| spec.key.iter().map(|c| row.fields.get(c).cloned()).collect::<Option<Vec<String>>>())
            .flatten();
        // A judgment is a verdict when it is 0 or 1 (true / false as read).
        let verdicts: Vec<Option<f64>> =
            cols.iter().map(|c| row.values.get(c).copied().filter(|v| *v == 0.0 || *v == 1.0)).collect();
        if verdicts.iter().all(Option::is_none) {
            continue;
        }
        let j = *index.entry(arm.clone()).or_insert_with(|| {
            panels.push(JudgePanel {
                arm,
                judgments: names.clone(),
                ones: Vec::new(),
                positives: vec![0; names.len()],
                incomplete: 0,
                repeated: 0,
            });
            panels.len() - 1
        });
        let panel = &mut panels[j];
        if let Some(k) = key
            && !seen.insert((j, k))
        {
            panel.repeated += 1;
            continue;
        }
        let Some(all) = verdicts.into_iter().collect::<Option<Vec<f64>>>() else {
            panel.incomplete += 1;
            continue;
        };
        let mut ones = 0u32;
        for (k, v) in all.iter().enumerate() {
            let yes = *v == 1.0;
            ones += u32::from(yes);
            panel.positives[k] += usize::from(yes);
        }
        panel.ones.push(ones);
    }
    panels
}

#[cfg(test)]
mod tests {
    use super::super::{JudgmentChoice, ReadOptions, read_outcomes};
    use super::*;
    use crate::ingest::InputFile;

    #[test]
    fn judgments_become_arms_and_single_verdicts_stay() {
        let jsonl = concat!(
            r#"{"question_id": "q1", "arm": "m", "llm_judgments": {"judgment_1": true, "judgment_2": false}}"#,
            "\n",
            r#"{"question_id": "q2", "arm": "m", "llm_judgments": {"judgment_1": false, "judgment_2": true}}"#,
            "\n",
            r#"{"question_id": "q1", "arm": "z", "verdict": 1}"#,
            "\n",
        );
        let table =
            read_outcomes(&InputFile::new("j.jsonl", jsonl.as_bytes().to_vec()), &ReadOptions::default()).unwrap();
        let spec = Spec::new(&["question_id"], &["arm"], "llm_judgments").with_judgment(JudgmentChoice::Each);
        let (t, s) = each_judgment_as_arm(&table, &spec).unwrap();
        assert_eq!(
            (s.arm.as_slice(), s.value.as_str(), s.judgment),
            ([ARM_COLUMN.to_string()].as_slice(), VALUE_COLUMN, None)
        );
        let cells: Vec<(String, Option<f64>)> =
            t.rows.iter().map(|r| (r.fields[ARM_COLUMN].clone(), r.values.get(VALUE_COLUMN).copied())).collect();
        assert_eq!(
            cells,
            [
                ("m/judgment_1".into(), Some(1.0)),
                ("m/judgment_2".into(), Some(0.0)),
                ("m/judgment_1".into(), Some(0.0)),
                ("m/judgment_2".into(), Some(1.0)),
                ("z".into(), None),
            ]
        );
        let none = Spec::new(&["question_id"], &["arm"], "verdict");
        let plain = read_outcomes(
            &InputFile::new("p.csv", b"question_id,arm,verdict\nq1,a,1\nq2,a,0\nq1,b,1\nq2,b,1\n".to_vec()),
            &ReadOptions::default(),
        )
        .unwrap();
        assert!(each_judgment_as_arm(&plain, &none).unwrap_err().contains("no judgment columns"));
    }

    #[test]
    fn a_repeated_item_counts_once_in_the_judge_panel_and_is_said() {
        let jsonl = concat!(
            r#"{"question_id": "q1", "llm_judgments": {"judgment_1": true, "judgment_2": false}}"#,
            "\n",
            r#"{"question_id": "q2", "llm_judgments": {"judgment_1": true, "judgment_2": true}}"#,
            "\n",
            r#"{"question_id": "q1", "llm_judgments": {"judgment_1": true, "judgment_2": false}}"#,
            "\n",
        );
        let table =
            read_outcomes(&InputFile::new("j.jsonl", jsonl.as_bytes().to_vec()), &ReadOptions::default()).unwrap();
        let spec = super::super::infer_spec(&table);
        assert_eq!(spec.key, ["question_id"]);
        let panels = judge_panels(&table, &spec);
        assert_eq!((panels[0].ones.as_slice(), panels[0].repeated), (&[1u32, 2][..], 1));
    }
}
