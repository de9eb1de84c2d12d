//! How to read an [`OutcomeTable`] as an item × arm matrix: the pairing key, the arm, the
//! value, optional strata and filter, and for judge files which judgment counts. The user picks
//! a [`Spec`], or [`infer_spec`] proposes one with the reasons shown in the UI.
//!
//! Heuristic of [`infer_spec`] (also in `docs/outcomes.md`):
//! 1. Known layouts first: wide CSV (item = first column, arm = the arm columns, value = the
//!    cells), MTEL-Mem records (arm = `run_id` × `target`, item = `dataset` × `query_index`,
//!    value = `ndcg`), memaudit rescoring rows (arm = `system` × `target`, item = `query_id`,
//!    value = `ndcg`), judge files (value = majority of `llm_judgments.*`).
//! 2. Arm: among columns named like an arm ([`ARM_NAMES`], compared on the lower-cased last
//!    dotted segment) with 2–50 distinct values, the one with the most values (ties: the order
//!    of [`ARM_NAMES`]). The others stay available as key parts. When none has 2–50 values, an
//!    arm-named column with 51–1,000 values each standing on several rows (a leaderboard of many
//!    systems), said so in the reasons.
//! 3. Value: the first numeric or binary column in the order of [`VALUE_NAMES`]; else the first
//!    binary column, else the first numeric one, that is not id-like.
//! 4. Key: id-like columns ([`ID_NAMES`], or names ending in `_id`, `_idx`, `_index`) in file
//!    order, each kept only if it distinguishes items the key so far does not, and does not
//!    split items across arms (the share of rows in items present in every arm drops by at
//!    most 5 points). Without any, a single column whose
//!    values occur once per arm and in every arm. Then, while (item, arm) cells still hold
//!    several rows, the low-cardinality column (2–50 values, short texts) that removes most
//!    repeated rows without splitting items across arms is added (a design factor such as
//!    `integrity` or a prompt `arm`); those become strata too.
//! 5. Strata: the added design factors and columns named like a stratum ([`STRATA_NAMES`]) with
//!    2–50 values that are constant within each item.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use rustc_hash::{FxHashMap, FxHashSet};

use super::{ColumnKind, OutcomeFormat, OutcomeTable, distinct_values};

/// Which judgment of a judge record is the value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JudgmentChoice {
    /// 1 when more than half of the record's present judgments are true, else 0. Exactly half
    /// (a tie, only possible with an even number of judges) is 0 and counted as a warning.
    Majority,
    /// The k-th judgment (1-based) in natural order of the judgment names
    /// (`judgment_1`, `judgment_2`, …, `judgment_10`).
    Judgment(usize),
    /// Every judgment a separate arm (`<arm>/judgment_k`), see [`super::judgments`].
    Each,
}

impl std::str::FromStr for JudgmentChoice {
    type Err = String;
    /// `majority` or the 1-based number of a judgment.
    fn from_str(s: &str) -> Result<JudgmentChoice, String> {
        match s.trim() {
            "majority" => Ok(JudgmentChoice::Majority),
            "each" => Ok(JudgmentChoice::Each),
            k => match k.parse::<usize>() {
                Ok(k) if k >= 1 => Ok(JudgmentChoice::Judgment(k)),
                _ => Err(format!("`{s}`: use `majority`, `each` or the number of a judgment (1, 2, …)")),
            },
        }
    }
}

/// How to read the rows: which columns make the item, the arm and the value.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Spec {
    /// Pairing key: the columns that together identify an item (joined with ` | `).
    pub key: Vec<String>,
    /// Arm column(s); several are combined with `/` (e.g. `bm25/raw`).
    pub arm: Vec<String>,
    /// Value column; with [`Spec::judgment`] set, the prefix of the judgment columns
    /// (`llm_judgments` for `llm_judgments.judgment_1`, …).
    pub value: String,
    /// Columns describing each item (constant within an item), carried to [`super::Paired`].
    pub strata: Vec<String>,
    /// For judge files: which judgment (or the majority) is the value.
    pub judgment: Option<JudgmentChoice>,
    /// Keep only rows whose cell in each named column is one of the listed texts.
    pub filter: BTreeMap<String, Vec<String>>,
    /// Why each choice was made (for the UI), filled by [`infer_spec`].
    pub reasons: Vec<String>,
    /// Arms shown under another name: the arm as read (its columns joined with `/`) → the name
    /// every table, plot and export uses. Checked by the pairing: each arm read is one the
    /// rows have, and no two arms end with one name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub rename: BTreeMap<String, String>,
}

impl Spec {
    /// Whether `row` passes the spec's filter (every filtered column holds a listed text).
    pub fn keeps(&self, row: &super::OutcomeRow) -> bool {
        self.filter.iter().all(|(c, allowed)| row.fields.get(c).is_some_and(|v| allowed.contains(v)))
    }

    /// The row's arm: its arm columns joined with `/`; `None` when one of them is missing.
    pub fn arm_label(&self, row: &super::OutcomeRow) -> Option<String> {
        let parts = self.arm.iter().map(|c| row.fields.get(c).map(String::as_str)).collect::<Option<Vec<_>>>()?;
        Some(parts.join(super::pairing::ARM_SEP))
    }

    /// The name an arm as read is shown under ([`Spec::rename`]).
    pub fn shown_arm(&self, arm: String) -> String {
        match self.rename.get(&arm) {
            Some(to) => to.clone(),
            None => arm,
        }
    }

    /// A spec from column names.
    pub fn new(key: &[&str], arm: &[&str], value: &str) -> Spec {
        Spec {
            key: key.iter().map(|s| s.to_string()).collect(),
            arm: arm.iter().map(|s| s.to_string()).collect(),
            value: value.to_string(),
            ..Spec::default()
        }
    }

    /// The same spec with these strata columns.
    pub fn with_strata(mut self, strata: &[&str]) -> Spec {
        self.strata = strata.iter().map(|s| s.to_string()).collect();
        self
    }

    /// The same spec reading the value from judgments (`value` = their prefix).
    pub fn with_judgment(mut self, choice: JudgmentChoice) -> Spec {
        self.judgment = Some(choice);
        self
    }

    /// The same spec keeping only rows whose `column` is one of `values`.
    pub fn with_filter(mut self, column: &str, values: &[&str]) -> Spec {
        self.filter.insert(column.to_string(), values.iter().map(|s| s.to_string()).collect());
        self
    }

    /// One line: `key (pid, seed) · arm policy · value correct`.
    pub fn describe(&self) -> String {
        let list = |v: &[String]| if v.is_empty() { "(none)".to_string() } else { v.join(", ") };
        let value = match self.judgment {
            Some(JudgmentChoice::Majority) => format!("majority of {}.*", self.value),
            Some(JudgmentChoice::Judgment(k)) => format!("judgment {k} of {}.*", self.value),
            Some(JudgmentChoice::Each) => format!("each judgment of {}.* as an arm", self.value),
            None => self.value.clone(),
        };
        let mut s = format!("key ({}) · arm {} · value {}", list(&self.key), self.arm.join(" × "), value);
        if !self.strata.is_empty() {
            s.push_str(&format!(" · strata {}", self.strata.join(", ")));
        }
        s
    }
}

/// The most values of an arm column taken without a second look.
const MOST_ARM_VALUES: usize = 50;
/// The most values of a column named like an arm taken as the arm when no arm-named column has
/// 2–[`MOST_ARM_VALUES`] values and each of its values stands on several rows (a leaderboard of
/// many systems); pairing refuses more than its own limit of arms.
const MOST_ARMS_NAMED: usize = 1000;

/// Column names (lower-cased last dotted segment) taken as arm candidates, by preference.
pub const ARM_NAMES: [&str; 22] = [
    "arm",
    "policy",
    "variant",
    "system",
    "system_label",
    "system_name",
    "config",
    "configuration",
    "config_name",
    "method",
    "model",
    "model_name",
    "run",
    "run_id",
    "run_label",
    "condition",
    "treatment",
    "approach",
    "agent",
    "retriever",
    "pipeline",
    "file",
];

/// Column names taken as the value, by preference.
pub const VALUE_NAMES: [&str; 28] = [
    "correct",
    "is_correct",
    "passed",
    "pass",
    "success",
    "solved",
    "resolved",
    "accuracy",
    "acc",
    "exact_match",
    "em",
    "judgment",
    "label",
    "outcome",
    "result",
    "value",
    "score",
    "reward",
    "llm_score",
    "f1",
    "ndcg",
    "mrr",
    "hit",
    "hit_at_k",
    "top1",
    "recall",
    "precision",
    "metric",
];

/// Column names taken as (parts of) the item id.
pub const ID_NAMES: [&str; 32] = [
    "id",
    "item",
    "item_id",
    "question_id",
    "qid",
    "query_id",
    "query_index",
    "task",
    "task_id",
    "instance_id",
    "example_id",
    "sample_id",
    "problem",
    "problem_id",
    "pid",
    "seed",
    "case",
    "case_id",
    "conversation_id",
    "dialog_id",
    "dialogue_id",
    "uid",
    "idx",
    "index",
    "key",
    "prompt_id",
    "doc_id",
    "test_id",
    "trial",
    "repeat",
    "replicate",
    "rep",
];

/// Column names taken as strata when constant within items.
pub const STRATA_NAMES: [&str; 13] = [
    "dataset",
    "category",
    "category_label",
    "question_type",
    "type",
    "domain",
    "split",
    "difficulty",
    "level",
    "subset",
    "stratum",
    "group",
    "task_type",
];

fn norm(name: &str) -> String {
    name.rsplit('.').next().unwrap_or(name).trim().to_ascii_lowercase()
}

/// Whether a column name reads like an arm ([`ARM_NAMES`]).
pub fn is_arm_name(name: &str) -> bool {
    ARM_NAMES.contains(&norm(name).as_str())
}

/// Whether a column name reads like a value ([`VALUE_NAMES`]).
pub fn is_value_name(name: &str) -> bool {
    VALUE_NAMES.contains(&norm(name).as_str())
}

/// Whether a column name reads like an item id ([`ID_NAMES`] or `*_id`, `*_idx`, `*_index`),
/// and not like an arm.
pub fn is_id_name(name: &str) -> bool {
    let n = norm(name);
    !ARM_NAMES.contains(&n.as_str())
        && (ID_NAMES.contains(&n.as_str()) || n.ends_with("_id") || n.ends_with("_idx") || n.ends_with("_index"))
}

fn is_strata_name(name: &str) -> bool {
    STRATA_NAMES.contains(&norm(name).as_str())
}

/// How a candidate key splits the rows: items, (item, arm) cells, repeated rows, and the rows
/// that belong to items present in every arm.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct KeyStats {
    pub rows: usize,
    pub items: usize,
    pub arms: usize,
    pub cells: usize,
    /// Rows beyond the first in each (item, arm) cell.
    pub surplus: usize,
    pub complete_items: usize,
    /// Rows of items present in every arm.
    pub complete_rows: usize,
}

impl KeyStats {
    pub fn complete_share(&self) -> f64 {
        if self.rows == 0 { 0.0 } else { self.complete_rows as f64 / self.rows as f64 }
    }
}

fn joined(fields: &BTreeMap<String, String>, cols: &[&str]) -> String {
    let mut s = String::new();
    for c in cols {
        s.push_str(fields.get(*c).map_or("\u{0}", String::as_str));
        s.push('\u{1f}');
    }
    s
}

/// Every column of a table interned to integer codes (a missing cell is its own code), so that
/// candidate keys can be evaluated without building strings.
pub(crate) struct KeyIndex<'a> {
    rows: usize,
    codes: HashMap<&'a str, Vec<u32>>,
}

impl<'a> KeyIndex<'a> {
    pub fn new(table: &'a OutcomeTable) -> KeyIndex<'a> {
        let mut codes = HashMap::new();
        for c in &table.columns {
            let mut m: FxHashMap<&str, u32> = FxHashMap::default();
            let v = table
                .rows
                .iter()
                .map(|r| match r.fields.get(&c.name) {
                    None => u32::MAX,
                    Some(t) => {
                        let next = m.len() as u32;
                        *m.entry(t.as_str()).or_insert(next)
                    }
                })
                .collect();
            codes.insert(c.name.as_str(), v);
        }
        KeyIndex { rows: table.rows.len(), codes }
    }

    /// A group id per row for the combination of `cols`, and the number of groups.
    fn group(&self, cols: &[&str]) -> (Vec<u32>, usize) {
        let mut ids = vec![0u32; self.rows];
        let mut count = usize::from(self.rows > 0);
        for c in cols {
            let codes = self.codes.get(c);
            let mut m: FxHashMap<(u32, u32), u32> = FxHashMap::default();
            for (r, id) in ids.iter_mut().enumerate() {
                let code = codes.and_then(|v| v.get(r).copied()).unwrap_or(u32::MAX);
                let next = m.len() as u32;
                *id = *m.entry((*id, code)).or_insert(next);
            }
            count = m.len();
        }
        (ids, count)
    }

    /// Structure of (key, arm) over the rows (values not looked at).
    pub fn stats(&self, key: &[&str], arm: &[&str]) -> KeyStats {
        let (items, n_items) = self.group(key);
        let (arms, n_arms) = self.group(arm);
        let mut cells: FxHashSet<(u32, u32)> = FxHashSet::default();
        let mut item_rows = vec![0usize; n_items];
        let mut item_arms = vec![0usize; n_items];
        for (i, a) in items.iter().zip(&arms) {
            let i = *i as usize;
            if let Some(n) = item_rows.get_mut(i) {
                *n += 1;
            }
            if cells.insert((i as u32, *a))
                && let Some(n) = item_arms.get_mut(i)
            {
                *n += 1;
            }
        }
        let complete: Vec<usize> = (0..n_items).filter(|&i| item_arms[i] == n_arms).collect();
        KeyStats {
            rows: self.rows,
            items: n_items,
            arms: n_arms,
            cells: cells.len(),
            surplus: self.rows - cells.len(),
            complete_items: complete.len(),
            complete_rows: complete.iter().map(|&i| item_rows[i]).sum(),
        }
    }
}

/// A short list of a column's values: `lossy, source_first, …`.
pub(crate) fn preview(table: &OutcomeTable, col: &str, n: usize) -> String {
    let vals = distinct_values(&table.rows, col);
    let mut s: Vec<String> = vals.iter().take(n).map(|(v, _)| truncate(v, 24)).collect();
    if vals.len() > n {
        s.push("…".into());
    }
    s.join(", ")
}

pub(crate) fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n { s.to_string() } else { format!("{}…", s.chars().take(n).collect::<String>()) }
}

/// Mean length of a column's distinct texts (long free text is never a key part).
fn mean_len(table: &OutcomeTable, col: &str) -> f64 {
    let vals = distinct_values(&table.rows, col);
    if vals.is_empty() {
        return 0.0;
    }
    vals.iter().map(|(v, _)| v.chars().count()).sum::<usize>() as f64 / vals.len() as f64
}

fn values_word(n: usize) -> &'static str {
    if n == 1 { "value" } else { "values" }
}

/// Proposes a [`Spec`] for a table, with the reasons for each choice (see the module docs for
/// the heuristic). Never fails: what it cannot find is left empty and said in the reasons; the
/// pairing validator then refuses with a message saying how to fix it.
pub fn infer_spec(table: &OutcomeTable) -> Spec {
    let mut spec = Spec::default();
    let col = |n: &str| table.column(n);
    match table.format {
        OutcomeFormat::WideCsv if table.columns.len() >= 3 => {
            let item = table.columns[0].name.clone();
            spec.reasons.push(format!("wide CSV: item = first column `{item}`, arm = the other columns"));
            spec.key = vec![item];
            spec.arm = vec!["arm".into()];
            spec.value = "value".into();
            spec.reasons.push(format!("arm = `arm` ({} arms: {})", count(table, "arm"), preview(table, "arm", 6)));
            finish_strata(table, &mut spec, &[]);
            return spec;
        }
        OutcomeFormat::MtelRecords if col("target").is_some() => {
            let run = if col("run_id").is_some() { "run_id" } else { "system_label" };
            spec.arm = vec![run.into(), "target".into()];
            spec.reasons.push(format!(
                "arm = `{run}` × `target` ({} runs × {} targets){}",
                count(table, run),
                count(table, "target"),
                if run == "run_id" && col("system_label").is_some() {
                    " — use `system_label` instead for readable names when it is unique per run"
                } else {
                    ""
                }
            ));
            spec.key = ["dataset", "query_index"].iter().filter(|c| col(c).is_some()).map(|c| c.to_string()).collect();
            spec.reasons.push(format!("key = {}: MTEL-Mem items are queries of a dataset", ticks(&spec.key)));
            spec.value = pick_present(table, &["ndcg", "hit_at_k", "mrr", "top1", "recall"]);
            spec.reasons
                .push(format!("value = `{}` (empty metric cells mean not eligible: missing, never 0)", spec.value));
            finish_strata(table, &mut spec, &[]);
            return spec;
        }
        OutcomeFormat::RescorePerQuery if col("system").is_some() && col("target").is_some() => {
            spec.arm = vec!["system".into(), "target".into()];
            spec.reasons.push(format!(
                "arm = `system` × `target` ({} systems × {} targets, e.g. {}/{})",
                count(table, "system"),
                count(table, "target"),
                first_value(table, "system"),
                first_value(table, "target")
            ));
            spec.key = vec!["query_id".into()];
            spec.reasons.push("key = `query_id`".into());
            spec.value = pick_present(table, &["ndcg", "recall", "hit", "mrr", "top1"]);
            spec.reasons
                .push(format!("value = `{}` (queries not eligible for a target are missing, never 0)", spec.value));
            finish_strata(table, &mut spec, &[]);
            return spec;
        }
        OutcomeFormat::MtelTrace => {
            spec.key =
                ["tenant_id", "query_index"].iter().filter(|c| col(c).is_some()).map(|c| c.to_string()).collect();
            spec.reasons.push(format!("key = {}: a pipeline trace has one line per query", ticks(&spec.key)));
            if count(table, "file") > 1 {
                spec.arm = vec!["file".into()];
                spec.reasons.push(format!("arm = `file`: one run per trace ({})", preview(table, "file", 6)));
            }
            spec.value = pick_present(table, &["f1_generated", "hit", "reciprocal_rank"]);
            spec.reasons.push(format!(
                "value = `{}`; also there: `hit`, `top1`, `reciprocal_rank`, `first_rank` from `hit_ranks` (the pipeline's \
                 expected ids, its Source-family credit), `bleu1_generated`",
                spec.value
            ));
            finish_strata(table, &mut spec, &[]);
            return spec;
        }
        OutcomeFormat::LocomoAnswers => {
            spec.key = vec!["conversation".into(), "position".into()];
            spec.reasons.push(
                "key = `conversation` × `position`: LoCoMo answer files share no question id; questions are \
                 matched by their place in each conversation, and their texts are checked equal"
                    .into(),
            );
            if count(table, "file") > 1 {
                spec.arm = vec!["file".into()];
                spec.reasons.push(format!("arm = `file` ({})", preview(table, "file", 6)));
            }
            spec.value = "verdict".into();
            spec.reasons.push(
                "value = `verdict`: each file's own verdict field (llm_score, grade, is_correct, correct, score, \
                 or the majority of llm_judgments) as 0/1"
                    .into(),
            );
            finish_strata(table, &mut spec, &[]);
            return spec;
        }
        OutcomeFormat::InspectLog => {
            spec.key = vec!["sample_id".into(), "epoch".into()];
            spec.reasons.push("key = `sample_id` × `epoch` (Inspect samples)".into());
            // The arm is what tells the logs apart: the model (or the task) when each log has its
            // own, else the file; one log is one arm, its model's.
            let logs = count(table, "file").max(1);
            let arm = if logs == 1 {
                ["model", "task"].into_iter().find(|c| count(table, c) > 0).unwrap_or("file")
            } else {
                ["model", "task"].into_iter().find(|c| count(table, c) == logs).unwrap_or("file")
            };
            spec.arm = vec![arm.into()];
            if count(table, "scorer") > 1 {
                spec.arm.push("scorer".into());
            }
            spec.reasons.push(format!("arm = {} ({} arms)", ticks(&spec.arm), preview(table, arm, 6)));
            spec.value = "score".into();
            spec.reasons.push(
                "value = `score`: Inspect's grades as numbers, C = 1, I = 0, P = 0.5, N = 0 (its value_to_float; \
                 P's credit is a setting, partial credit); unscored samples are missing"
                    .into(),
            );
            finish_strata(table, &mut spec, &[]);
            return spec;
        }
        _ => {}
    }

    // Arm.
    let judge = table.format == OutcomeFormat::JudgeFile;
    let min_arm_values = if judge { 1 } else { 2 };
    let arm_named = |most: usize| -> Vec<(usize, usize, &str)> {
        let mut cands: Vec<(usize, usize, &str)> = table
            .columns
            .iter()
            .filter(|c| is_arm_name(&c.name) && c.distinct >= min_arm_values && c.distinct <= most)
            .filter(|c| c.missing * 2 < table.rows.len().max(1))
            .map(|c| {
                (c.distinct, ARM_NAMES.iter().position(|a| *a == norm(&c.name)).unwrap_or(usize::MAX), c.name.as_str())
            })
            .collect();
        cands.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        cands
    };
    let mut arm_cands = arm_named(MOST_ARM_VALUES);
    // A leaderboard of more systems: a column named like an arm whose every value stands on
    // several rows (not an id of each row), taken only when no arm-named column has 2–50 values.
    let mut many = false;
    if arm_cands.is_empty() {
        arm_cands = arm_named(MOST_ARMS_NAMED);
        arm_cands.retain(|&(n, _, _)| n > MOST_ARM_VALUES && n.saturating_mul(2) <= table.rows.len());
        many = !arm_cands.is_empty();
    }
    if let Some(&(n, _, name)) = arm_cands.first() {
        spec.arm = vec![name.to_string()];
        let others: Vec<String> =
            arm_cands[1..].iter().map(|(n, _, c)| format!("`{c}` ({n} {})", values_word(*n))).collect();
        spec.reasons.push(format!(
            "arm = `{name}` ({n} {}: {}){}{}",
            values_word(n),
            preview(table, name, 6),
            if many {
                format!(
                    " — more than {MOST_ARM_VALUES} values, taken because it is named like an arm and each value \
                     stands on several rows"
                )
            } else {
                String::new()
            },
            if others.is_empty() {
                String::new()
            } else {
                format!("; also arm-like: {} (kept available as key parts)", others.join(", "))
            }
        ));
    } else {
        spec.reasons.push(format!(
            "no arm column found (none named {} with 2–50 values): choose one",
            ARM_NAMES[..6].iter().map(|a| format!("`{a}`")).collect::<Vec<_>>().join(", ")
        ));
    }
    let arm_cols: Vec<&str> = spec.arm.iter().map(String::as_str).collect();

    // Value.
    let judgment_cols: Vec<&str> = table
        .columns
        .iter()
        .filter(|c| c.name.starts_with("llm_judgments.") && c.kind != ColumnKind::Text)
        .map(|c| c.name.as_str())
        .collect();
    if judge && !judgment_cols.is_empty() {
        spec.value = "llm_judgments".into();
        spec.judgment = Some(JudgmentChoice::Majority);
        spec.reasons.push(format!(
            "value = majority of the {} judgments `llm_judgments.*` (more than half true → 1; a tie → 0, counted)",
            judgment_cols.len()
        ));
    } else {
        let usable = |c: &&super::ColumnInfo| {
            c.kind != ColumnKind::Text && c.missing < table.rows.len() && !arm_cols.contains(&c.name.as_str())
        };
        let by_name =
            VALUE_NAMES.iter().find_map(|v| table.columns.iter().filter(usable).find(|c| norm(&c.name) == *v));
        let fallback = || {
            let plain = |c: &&super::ColumnInfo| usable(c) && !is_id_name(&c.name);
            table
                .columns
                .iter()
                .filter(plain)
                .find(|c| c.kind == ColumnKind::Binary)
                .or_else(|| table.columns.iter().filter(plain).find(|c| c.kind == ColumnKind::Numeric))
        };
        match by_name.or_else(fallback) {
            Some(c) => {
                spec.value = c.name.clone();
                let kind = match c.kind {
                    ColumnKind::Binary => {
                        let ones = table.rows.iter().filter(|r| r.values.get(&c.name) == Some(&1.0)).count();
                        format!("binary: {ones} of {} are 1", table.rows.len() - c.missing)
                    }
                    _ => "numeric".to_string(),
                };
                spec.reasons.push(format!("value = `{}` ({kind})", c.name));
            }
            None => spec.reasons.push("no numeric or true/false column to use as the value: choose one".into()),
        }
    }
    let value_col = spec.value.clone();
    let is_value = |n: &str| n == value_col || (spec.judgment.is_some() && n.starts_with(&format!("{value_col}.")));

    // Key, phase 1: id-like names that do not split items across arms.
    let index = KeyIndex::new(table);
    let mut key: Vec<&str> = Vec::new();
    let mut stats = index.stats(&key, &arm_cols);
    for c in &table.columns {
        let name = c.name.as_str();
        if !is_id_name(name) || arm_cols.contains(&name) || is_value(name) || c.distinct == 0 {
            continue;
        }
        let mut trial = key.clone();
        trial.push(name);
        let s = index.stats(&trial, &arm_cols);
        if !key.is_empty() && s.items == stats.items {
            // Determined by the key so far (e.g. `conversation_id` after `question_id`).
            continue;
        }
        if s.complete_share() + 0.05 >= stats.complete_share() {
            key = trial;
            stats = s;
        } else {
            spec.reasons.push(format!(
                "`{name}` looks like an id but its values differ between arms (only {:.0}% of rows would be in items \
                 present in every arm): not used as a key",
                s.complete_share() * 100.0
            ));
        }
    }
    if !key.is_empty() {
        let parts: Vec<String> = key.iter().map(|k| format!("`{k}` ({} values)", count(table, k))).collect();
        spec.reasons.push(format!("key = {}: id-like names", parts.join(" × ")));
    } else {
        // Phase 2: a column whose values occur once per arm, in every arm.
        let found = table.columns.iter().find(|c| {
            let name = c.name.as_str();
            c.distinct >= 2 && c.missing == 0 && !arm_cols.contains(&name) && !is_value(name) && {
                let s = index.stats(&[name], &arm_cols);
                s.surplus == 0 && s.complete_share() >= 0.95 && s.arms >= 2
            }
        });
        match found {
            Some(c) => {
                key.push(c.name.as_str());
                stats = index.stats(&key, &arm_cols);
                spec.reasons.push(format!(
                    "key = `{}`: its values occur once per arm, in every arm ({} items)",
                    c.name, stats.items
                ));
            }
            None => spec.reasons.push(
                "no column identifies the item (no id-like name such as item, id, question_id, task_id, pid; no \
                 column whose values occur once per arm): add an item id to the rows or choose a key"
                    .into(),
            ),
        }
    }

    // Phase 3: design factors that separate repeated rows without splitting items.
    let mut design: Vec<String> = Vec::new();
    if !key.is_empty() && stats.surplus > 0 {
        let mut exclude: Vec<&str> = arm_cols.clone();
        exclude.extend(table.columns.iter().map(|c| c.name.as_str()).filter(|n| is_value(n)));
        for (name, n, before, s) in extend_key(table, &index, &key, &arm_cols, &exclude) {
            spec.reasons
                .push(format!("key + `{name}` ({n} values): without it {before} rows repeat an (item, arm) cell"));
            key.push(name);
            design.push(name.to_string());
            stats = s;
        }
    }
    if !key.is_empty() && stats.surplus > 0 {
        spec.reasons.push(format!(
            "the key still leaves {} repeated rows in (item, arm) cells: pairing refuses them unless duplicates are \
             averaged (`aggregate` = mean)",
            stats.surplus
        ));
    }
    if !key.is_empty() && stats.arms >= 2 && stats.complete_items < stats.items {
        spec.reasons.push(format!("{} of {} items are present in every arm", stats.complete_items, stats.items));
    }
    spec.key = key.iter().map(|s| s.to_string()).collect();
    finish_strata(table, &mut spec, &design);
    spec
}

/// Greedily adds low-cardinality columns (2–50 values, short texts, never missing, not in
/// `exclude`) to `key` while (item, arm) cells hold several rows: each step takes the column
/// that removes most repeated rows without lowering the share of rows in items present in every
/// arm by more than 5 points. Returns (column, its distinct values, repeated rows before, stats
/// after) per added column.
pub(crate) fn extend_key<'a>(
    table: &'a OutcomeTable,
    index: &KeyIndex,
    key: &[&'a str],
    arm: &[&str],
    exclude: &[&str],
) -> Vec<(&'a str, usize, usize, KeyStats)> {
    let mut key: Vec<&'a str> = key.to_vec();
    let mut stats = index.stats(&key, arm);
    let mut out = Vec::new();
    if stats.surplus == 0 {
        return out;
    }
    let candidates: Vec<&'a super::ColumnInfo> = table
        .columns
        .iter()
        .filter(|c| {
            let name = c.name.as_str();
            !(key.contains(&name)
                || arm.contains(&name)
                || exclude.contains(&name)
                || c.distinct < 2
                || c.distinct > 50
                || c.missing > 0
                || mean_len(table, name) > 40.0)
        })
        .collect();
    while stats.surplus > 0 {
        let mut best: Option<(KeyStats, &'a str, usize)> = None;
        for c in &candidates {
            let name = c.name.as_str();
            if key.contains(&name) {
                continue;
            }
            let mut trial = key.clone();
            trial.push(name);
            let s = index.stats(&trial, arm);
            if s.surplus >= stats.surplus || s.complete_share() + 0.05 < stats.complete_share() {
                continue;
            }
            let better = match &best {
                None => true,
                Some((b, _, bd)) => {
                    (s.surplus, std::cmp::Reverse(ordered(s.complete_share())), c.distinct)
                        < (b.surplus, std::cmp::Reverse(ordered(b.complete_share())), *bd)
                }
            };
            if better {
                best = Some((s, name, c.distinct));
            }
        }
        let Some((s, name, n)) = best else { break };
        out.push((name, n, stats.surplus, s));
        key.push(name);
        stats = s;
    }
    out
}

/// f64 → orderable integer (shares in [0, 1]).
fn ordered(x: f64) -> u64 {
    (x * 1e9).round() as u64
}

fn count(table: &OutcomeTable, col: &str) -> usize {
    table.column(col).map_or(0, |c| c.distinct)
}

fn first_value(table: &OutcomeTable, col: &str) -> String {
    table.rows.iter().find_map(|r| r.fields.get(col).cloned()).unwrap_or_default()
}

fn ticks(cols: &[String]) -> String {
    cols.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(" × ")
}

fn pick_present(table: &OutcomeTable, names: &[&str]) -> String {
    names.iter().find(|n| table.column(n).is_some()).map(|s| s.to_string()).unwrap_or_default()
}

/// Strata = design factors added to the key, key columns named like a stratum with 2+ values,
/// and other stratum-named columns with 2–50 values constant within each item.
fn finish_strata(table: &OutcomeTable, spec: &mut Spec, design: &[String]) {
    let mut strata: Vec<String> = design.to_vec();
    for c in &table.columns {
        let name = &c.name;
        if strata.contains(name) || !is_strata_name(name) || c.distinct < 2 || c.distinct > 50 {
            continue;
        }
        if spec.arm.contains(name) || *name == spec.value {
            continue;
        }
        if spec.key.contains(name) || (!spec.key.is_empty() && constant_within_items(table, &spec.key, name)) {
            strata.push(name.clone());
        }
    }
    if !strata.is_empty() {
        spec.reasons.push(format!("strata = {}", ticks(&strata)));
    }
    spec.strata = strata;
}

fn constant_within_items(table: &OutcomeTable, key: &[String], col: &str) -> bool {
    let key: Vec<&str> = key.iter().map(String::as_str).collect();
    let mut seen: HashMap<String, Option<&str>> = HashMap::new();
    for r in &table.rows {
        let k = joined(&r.fields, &key);
        let v = r.fields.get(col).map(String::as_str);
        match seen.get(&k) {
            Some(prev) if *prev != v => return false,
            Some(_) => {}
            None => {
                seen.insert(k, v);
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::super::{ReadOptions, read_outcomes};
    use super::*;
    use crate::ingest::InputFile;

    fn table(name: &str, text: &str) -> OutcomeTable {
        read_outcomes(&InputFile::new(name, text.as_bytes().to_vec()), &ReadOptions::default()).unwrap()
    }

    #[test]
    fn names() {
        assert!(is_arm_name("Policy"));
        assert!(is_arm_name("meta.system"));
        assert!(is_id_name("question_id"));
        assert!(is_id_name("conv_idx"));
        assert!(!is_id_name("run_id"), "run_id names an arm");
        assert!(is_value_name("correct"));
        assert!(!is_value_name("pid"));
    }

    #[test]
    fn long_csv_with_repetitions_and_a_design_factor() {
        let mut text = String::from("pid,seed,level,policy,correct,answer\n");
        for pid in ["a", "b"] {
            for seed in 0..2 {
                for level in ["hi", "lo"] {
                    for (i, policy) in ["lossy", "source_first", "mixed"].iter().enumerate() {
                        text.push_str(&format!("{pid},{seed},{level},{policy},{},{}\n", (i + seed) % 2, i * 10 + seed));
                    }
                }
            }
        }
        let t = table("r.csv", &text);
        let s = infer_spec(&t);
        assert_eq!(s.arm, ["policy"]);
        assert_eq!(s.value, "correct");
        assert_eq!(s.key, ["pid", "seed", "level"], "{:#?}", s.reasons);
        assert_eq!(s.strata, ["level"]);
        assert!(s.reasons.iter().any(|r| r.contains("arm = `policy` (3 values")), "{:#?}", s.reasons);
        assert!(s.describe().starts_with("key (pid, seed, level) · arm policy · value correct"));
    }

    /// A leaderboard of 120 systems on 30 items: the `system` column is the arm, said to be
    /// taken past 50 values; a run id on each row is never an arm.
    #[test]
    fn many_systems_named_like_arms_are_the_arms() {
        let mut text = String::from("item_id,system,score\n");
        for i in 0..30 {
            for a in 0..120 {
                text.push_str(&format!("q{i},s{a},{}\n", (i * 7 + a * 3) % 10));
            }
        }
        let s = infer_spec(&table("board.csv", &text));
        assert_eq!(
            (s.arm.as_slice(), s.key.as_slice(), s.value.as_str()),
            (&["system".to_string()][..], &["item_id".to_string()][..], "score")
        );
        assert!(
            s.reasons.iter().any(|r| r.contains("arm = `system` (120 values") && r.contains("more than 50")),
            "{:#?}",
            s.reasons
        );
        // One value per row: an id, not an arm.
        let mut text = String::from("item_id,run_id,score\n");
        for i in 0..200 {
            text.push_str(&format!("q{},r{i},1\n", i % 2));
        }
        assert!(infer_spec(&table("ids.csv", &text)).arm.is_empty());
    }

    #[test]
    fn redundant_ids_are_left_out() {
        let text = "question_id,conversation_id,system,correct\nq1,c1,a,1\nq1,c1,b,0\nq2,c1,a,1\nq2,c1,b,1\nq3,c2,a,0\nq3,c2,b,1\n";
        let s = infer_spec(&table("x.csv", text));
        assert_eq!(s.key, ["question_id"]);
    }

    #[test]
    fn id_that_splits_items_is_not_a_key() {
        let text = "question_id,response_id,system,correct\nq1,r1,a,1\nq1,r2,b,0\nq2,r3,a,1\nq2,r4,b,1\n";
        let s = infer_spec(&table("x.csv", text));
        assert_eq!(s.key, ["question_id"]);
        assert!(s.reasons.iter().any(|r| r.contains("`response_id` looks like an id")), "{:#?}", s.reasons);
    }

    #[test]
    fn structural_key_without_id_names() {
        let text = "prompt,system,score\nhello,a,0.5\nhello,b,0.7\nbye,a,0.1\nbye,b,0.2\n";
        let s = infer_spec(&table("x.csv", text));
        assert_eq!(
            (s.key.as_slice(), s.arm.as_slice(), s.value.as_str()),
            (&["prompt".to_string()][..], &["system".to_string()][..], "score")
        );
    }

    #[test]
    fn no_key_is_said() {
        let text = "system,depth,correct\na,1,1\na,1,0\nb,1,1\nb,1,1\n";
        let s = infer_spec(&table("x.csv", text));
        assert!(s.key.is_empty());
        assert!(s.reasons.iter().any(|r| r.contains("no column identifies the item")), "{:#?}", s.reasons);
    }

    #[test]
    fn wide_mtel_rescore_and_judge_layouts() {
        let s = infer_spec(&table("w.csv", "question,bm25,dense\nq1,1,0\nq2,0,1\n"));
        assert_eq!(
            (s.key.as_slice(), s.arm.as_slice(), s.value.as_str()),
            (&["question".to_string()][..], &["arm".to_string()][..], "value")
        );
        let s = infer_spec(&table(
            "m.csv",
            "run_id,dataset,system_label,query_index,category,raw_eligible,raw_ndcg\nr1,locomo,bm25,0,2,True,0.5\nr1,locomo,bm25,1,1,True,0.1\n",
        ));
        assert_eq!(s.arm, ["run_id", "target"]);
        assert_eq!(s.key, ["dataset", "query_index"]);
        assert_eq!(s.value, "ndcg");
        assert_eq!(s.strata, ["category"]);
        let s = infer_spec(&table(
            "j.jsonl",
            "{\"question_id\":\"q1\",\"llm_judgments\":{\"judgment_1\":true,\"judgment_2\":false}}\n\
             {\"question_id\":\"q2\",\"llm_judgments\":{\"judgment_1\":true,\"judgment_2\":true}}\n",
        ));
        assert_eq!(s.arm, ["arm"]);
        assert_eq!(s.key, ["question_id"]);
        assert_eq!((s.value.as_str(), s.judgment), ("llm_judgments", Some(JudgmentChoice::Majority)));
    }
}
