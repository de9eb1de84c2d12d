//! Reading answer rows (CSV or JSON Lines / JSON) through the outcomes reader, and the column
//! helpers the other readers of tabular inputs share (ablation pairs, per-query scores, claims).

use serde::{Deserialize, Serialize};

use crate::error::{IngestError, Location};
use crate::ingest::InputFile;
use crate::ingest::warnings::{Kind, Severity, Warnings};
use crate::outcomes::{OutcomeFormat, OutcomeRow, OutcomeTable, ReadOptions, read_outcomes};

/// Reads a file as a long table: JSON (Lines, array, or `{"group": [records]}`) when its first
/// non-blank character is `{` or `[`, else CSV/TSV with a header row. Rows keep their 1-based
/// line; nested JSON objects are flattened with dotted keys, arrays kept as JSON text. CSV
/// cells are trimmed (use JSON for byte-exact raw outputs).
pub fn read_long_table(file: &InputFile) -> Result<OutcomeTable, IngestError> {
    let (text, _) = file.text()?;
    let json = matches!(text.trim_start().chars().next(), Some('{') | Some('['));
    let format = if json { OutcomeFormat::LongJson } else { OutcomeFormat::LongCsv };
    read_outcomes(file, &ReadOptions { format: Some(format) })
}

/// The column to read: `explicit` (must exist) or the first alias present.
pub fn pick_column(
    table: &OutcomeTable,
    explicit: Option<&str>,
    aliases: &[&str],
) -> Result<Option<String>, IngestError> {
    if let Some(c) = explicit {
        if table.column(c).is_some() {
            return Ok(Some(c.to_string()));
        }
        return Err(IngestError::new(
            Location::file(&table.name).with_field(c),
            format!("no column `{c}` (columns: {})", column_list(table)),
        ));
    }
    Ok(aliases.iter().find(|a| table.column(a).is_some()).map(|a| a.to_string()))
}

/// Like [`pick_column`], but the column must exist.
pub fn require_column(
    table: &OutcomeTable,
    explicit: Option<&str>,
    aliases: &[&str],
    what: &str,
) -> Result<String, IngestError> {
    pick_column(table, explicit, aliases)?.ok_or_else(|| {
        IngestError::new(
            Location::file(&table.name).with_field(aliases.first().copied().unwrap_or(what)),
            format!("no {what} column (looked for {}; columns: {})", aliases.join(", "), column_list(table)),
        )
    })
}

fn column_list(table: &OutcomeTable) -> String {
    table.columns.iter().map(|c| c.name.as_str()).collect::<Vec<_>>().join(", ")
}

/// The text of a cell, if present.
pub fn cell<'a>(row: &'a OutcomeRow, col: Option<&str>) -> Option<&'a str> {
    col.and_then(|c| row.fields.get(c)).map(String::as_str)
}

/// The number in a cell: `None` when the cell is missing, an error naming the line and field
/// when it is present but not a number.
pub fn number(table: &OutcomeTable, row: &OutcomeRow, col: Option<&str>) -> Result<Option<f64>, IngestError> {
    let Some(c) = col else { return Ok(None) };
    match (row.fields.get(c), row.values.get(c)) {
        (None, _) => Ok(None),
        (Some(_), Some(v)) => Ok(Some(*v)),
        (Some(t), None) => Err(IngestError::new(table.location(row).with_field(c), format!("`{t}` is not a number"))),
    }
}

/// An integer cell (a LoCoMo category, K, a rank).
pub fn integer(table: &OutcomeTable, row: &OutcomeRow, col: Option<&str>) -> Result<Option<i64>, IngestError> {
    match number(table, row, col)? {
        None => Ok(None),
        Some(v) if v.fract() == 0.0 && v.abs() < 1e15 => Ok(Some(v as i64)),
        Some(v) => Err(IngestError::new(
            table.location(row).with_field(col.unwrap_or_default()),
            format!("{v} is not a whole number"),
        )),
    }
}

/// Gold variants from a cell: a JSON array (`["Paris", "paris, France"]`; nested arrays
/// flattened one level, like MemoryAgentBench; numbers as their text) or a single string.
pub fn gold_variants(text: &str) -> Vec<String> {
    let t = text.trim_start();
    if t.starts_with('[')
        && let Ok(serde_json::Value::Array(items)) = serde_json::from_str::<serde_json::Value>(t)
    {
        let mut out = Vec::new();
        for v in items {
            match v {
                serde_json::Value::Array(inner) => out.extend(inner.iter().filter_map(json_text)),
                other => out.extend(json_text(&other)),
            }
        }
        return out;
    }
    vec![text.to_string()]
}

fn json_text(v: &serde_json::Value) -> Option<String> {
    match v {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Number(n) => Some(n.to_string()),
        serde_json::Value::Bool(b) => Some(if *b { "True".into() } else { "False".into() }),
        _ => None,
    }
}

/// Every kind of warning of the answer reader and rescoring.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AnswerWarningKind {
    /// Rows without a prediction (the model returned nothing): left out, like the harness.
    MissingPrediction,
    /// Rows without a gold answer: not scored (their correctness is unknown, never 0), left out.
    NoGold,
    /// The same (arm, query) twice: the first row is kept (`repeats = first`; refused otherwise).
    DuplicateQuery,
    /// The same (arm, query) twice with another answer (prediction, gold or own scores): the first row
    /// is kept and the other answer not scored (`repeats = first`; refused otherwise).
    ConflictingRepeat,
    /// A given parsed output differs from `parse_output(raw)`; memaudit scores its own parse.
    ParsedDiffers,
    /// MemoryAgentBench datasets scored by recall in the harness (`ruler_niah*`, `recsys*`):
    /// scored here as default answer matching.
    UnsupportedMabDataset,
    /// LoCoMo F1 for rows without a category 1–5: plain F1.
    UncategorisedLocomo,
    /// LoCoMo answers grouped by conversation (mem0's `evals.py` shape: Memobase, …) carry no
    /// question id: each question is named `conversation/position`.
    PositionalIds,
    /// Several files without an arm column that answer the same questions: each file is its own
    /// system (a run), named by the part of its path that tells the files apart.
    ArmFromFile,
    /// LoCoMo answer files named by place that list the same questions in different orders:
    /// their questions are paired by text (question, gold answer, repeat), each named by its
    /// place in the first file that lists it.
    QuestionsAlignedByText,
    /// A file with `answer` and `golden_answer` and no prediction column (Zep's released
    /// LoCoMo files): `answer` is the model's answer, `golden_answer` the gold.
    AnswerBesideGoldenAnswer,
    /// A file that answers every question exactly as another file does (the same run saved
    /// twice, e.g. before and after judging): read once, from the file that states more (its
    /// own scores, the categories), else the earlier.
    SameAnswersAsFile,
    /// Answer files without gold answers completed by a file of gold answers only (LongMemEval's
    /// hypotheses and its dataset), by query id.
    GoldFromFile,
    /// A file of gold answers only beside answer files that all state their own gold: not used.
    GoldFileUnused,
    /// Columns holding the file's own scores or verdicts (a judge's `llm_score` or `grade`, its
    /// own `f1_score`): shown beside the rescoring and compared with each profile, never
    /// rescored.
    StatedScores,
}

impl Kind for AnswerWarningKind {
    fn severity(self) -> Severity {
        match self {
            AnswerWarningKind::ParsedDiffers
            | AnswerWarningKind::UncategorisedLocomo
            | AnswerWarningKind::PositionalIds
            | AnswerWarningKind::ArmFromFile
            | AnswerWarningKind::AnswerBesideGoldenAnswer
            | AnswerWarningKind::StatedScores
            | AnswerWarningKind::GoldFromFile
            | AnswerWarningKind::GoldFileUnused => Severity::Note,
            _ => Severity::Warning,
        }
    }
    fn describe(self) -> &'static str {
        match self {
            AnswerWarningKind::MissingPrediction => "rows without a prediction: left out (the harness skips them)",
            AnswerWarningKind::NoGold => "rows without a gold answer: not scored (unknown, never 0), left out",
            AnswerWarningKind::DuplicateQuery => "(arm, query) given twice: first row kept (repeats = first)",
            AnswerWarningKind::ConflictingRepeat => "(arm, query) given twice, answered otherwise: first row kept",
            AnswerWarningKind::ParsedDiffers => {
                "given parsed outputs differ from parse_output(raw): memaudit's parse used"
            }
            AnswerWarningKind::UnsupportedMabDataset => {
                "ruler_niah/recsys datasets are recall-scored in the harness: scored here as answer matching"
            }
            AnswerWarningKind::UncategorisedLocomo => "LoCoMo F1 without a category 1-5: plain stemmed F1",
            AnswerWarningKind::PositionalIds => {
                "LoCoMo answers grouped by conversation carry no question id: each question is named \
                 conversation/position (its 1-based place among its conversation's questions in the file)"
            }
            AnswerWarningKind::QuestionsAlignedByText => {
                "LoCoMo answer files list the questions in different orders: paired by question text and gold \
                 answer, each named by its place in the first file that lists it"
            }
            AnswerWarningKind::SameAnswersAsFile => {
                "a file answers every question as another file does (the same run saved twice): read once"
            }
            AnswerWarningKind::GoldFromFile => "gold answers taken from a file of gold answers, by query id",
            AnswerWarningKind::GoldFileUnused => "a file of gold answers not used: every answer file states its gold",
            AnswerWarningKind::StatedScores => "the files' own scores: set beside the profiles, never rescored",
            AnswerWarningKind::AnswerBesideGoldenAnswer => {
                "`answer` beside `golden_answer` and no prediction column (Zep's files): `answer` is the \
                 prediction, `golden_answer` the gold"
            }
            AnswerWarningKind::ArmFromFile => {
                "files without an arm column answer the same questions: each file is its own system, named by \
                 the part of its path that tells the files apart"
            }
        }
    }
}

/// Warnings of the answer reader (the shared counter).
pub type AnswerWarnings = Warnings<AnswerWarningKind>;

/// One answer as read.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct AnswerRow {
    pub query_id: String,
    pub arm: Option<String>,
    pub dataset: Option<String>,
    pub category: Option<i64>,
    pub gold: Vec<String>,
    pub prediction: String,
    /// A parsed output given in the file (compared with memaudit's own parse, not scored).
    pub parsed_prediction: Option<String>,
    pub file: String,
    pub line: usize,
    /// The replicate of the query (a `seed` or `epoch` column), part of its identity.
    #[serde(default, skip_serializing)]
    pub replicate: Option<String>,
    /// Every column this reader does not read, as text (candidate design columns).
    #[serde(default, skip_serializing)]
    pub other: Vec<(String, String)>,
    /// A hash of every field of the row (exact repeats).
    #[serde(default, skip_serializing)]
    pub fingerprint: u64,
    /// The file's own scores of the row (a judge's verdict, its own F1), by column, in the
    /// order of [`AnswerColumns::stated`] or of the file: shown beside the rescoring.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stated: Vec<StatedScore>,
}

/// A score the file itself gives a row (a column of [`STATED_ALIASES`] or ending in `_score`,
/// or one named in [`AnswerColumns::stated`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StatedScore {
    pub column: String,
    pub value: f64,
}

crate::fields! {
    /// Which columns hold what; `None` uses the aliases (first present wins).
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub struct AnswerColumns {
        query_id as "id_column": Option<String> = None, label "query id column",
            help "The query id column.", column &ID_ALIASES;
        gold as "gold_column": Option<String> = None, label "gold column",
            help "The gold answer(s) column.", column &GOLD_ALIASES;
        prediction as "prediction_column": Option<String> = None, label "prediction column",
            help "The raw prediction column.", column &PREDICTION_ALIASES;
        stated as "stated_columns": Vec<String> = Vec::new(), label "the files' own scores",
            help "Columns of the files' own scores or verdicts (a judge's grade), comma-separated: set beside the profiles, never rescored (default: llm_score, grade, *_score, … when numeric).";
    }
    unlisted {
        arm: Option<String> = None;
        dataset: Option<String> = None;
        category: Option<String> = None;
    }
}

pub const ID_ALIASES: [&str; 9] =
    ["query_id", "question_id", "qid", "id", "item", "item_id", "task_id", "problem_id", "pid"];
pub const GOLD_ALIASES: [&str; 8] =
    ["gold", "gold_answers", "answers", "answer", "ground_truth", "ground_truths", "golds", "expected"];
pub const PREDICTION_ALIASES: [&str; 8] =
    ["prediction", "raw_prediction", "output", "raw_output", "response", "pred", "model_output", "hypothesis"];
pub const PARSED_ALIASES: [&str; 3] = ["parsed_output", "parsed_prediction", "parsed"];
pub const ARM_ALIASES: [&str; 5] = ["arm", "system", "method", "config", "run"];
pub const DATASET_ALIASES: [&str; 4] = ["dataset", "sub_dataset", "task", "subset"];
/// Columns read as the file's own scores when every value is a number or true/false (with any
/// column whose name ends in `_score`), unless [`AnswerColumns::stated`] names them.
/// `autoeval_label.label` is LongMemEval's judge verdict (`evaluate_qa.py`).
pub const STATED_ALIASES: [&str; 18] = [
    "autoeval_label.label",
    "llm_score",
    "llm_judge",
    "judge_score",
    "judge",
    "judgment",
    "judgement",
    "grade",
    "correct",
    "is_correct",
    "score",
    "f1",
    "f1_score",
    "bleu_score",
    "em",
    "exact_match",
    "accuracy",
    "acc",
];

/// The columns of `table` holding its own scores: those `explicit` names (each must exist, and
/// every value present must be a number or true/false), else every column named in
/// [`STATED_ALIASES`] or ending in `_score` whose every present value is one, other than the
/// columns `read` for something else.
fn stated_columns(table: &OutcomeTable, explicit: &[String], read: &[&str]) -> Result<Vec<String>, IngestError> {
    let numeric = |c: &str| table.rows.iter().find(|r| r.fields.contains_key(c) && !r.values.contains_key(c));
    if !explicit.is_empty() {
        for c in explicit {
            if table.column(c).is_none() {
                return Err(IngestError::new(
                    Location::file(&table.name).with_field(c),
                    format!("no column `{c}` of the files' own scores (columns: {})", column_list(table)),
                ));
            }
            if let Some(r) = numeric(c) {
                return Err(IngestError::new(
                    table.location(r).with_field(c),
                    format!(
                        "`{}` is not a number or true/false: a column of the files' own scores holds scores",
                        r.fields[c.as_str()]
                    ),
                ));
            }
        }
        return Ok(explicit.to_vec());
    }
    Ok(table
        .columns
        .iter()
        .map(|c| c.name.as_str())
        .filter(|c| !read.contains(c))
        .filter(|c| STATED_ALIASES.contains(c) || c.ends_with("_score"))
        .filter(|c| numeric(c).is_none() && table.rows.iter().any(|r| r.values.contains_key(*c)))
        .map(str::to_string)
        .collect())
}

/// The query id of LoCoMo answers grouped by conversation: `conversation/position`.
pub const POSITIONAL_ID: &str = "conversation/position";

/// A JSON document of questions grouped by LoCoMo conversation (`{"0": [{question, …}], …}`)
/// without a question id: each row is named `conversation/position` (the conversation's
/// number, then the question's 1-based place among that conversation's questions in the file),
/// as `memaudit compare` pairs such files. `false` (the table as read) for anything else.
fn name_by_position(table: &mut OutcomeTable, file: &str) -> bool {
    let grouped = table.column("group").is_some()
        && table.column("question").is_some()
        && !table.rows.is_empty()
        && table
            .rows
            .iter()
            .all(|r| r.fields.get("group").is_some_and(|g| crate::outcomes::locomo::conversation_number(g).is_some()));
    if !grouped {
        return false;
    }
    let mut ignored = crate::outcomes::OutcomeWarnings::default();
    crate::outcomes::locomo::annotate(&mut table.rows, &mut ignored, file);
    for r in &mut table.rows {
        if let (Some(c), Some(p)) = (r.fields.get("conversation"), r.fields.get("position")) {
            let id = format!("{c}/{p}");
            r.fields.insert(POSITIONAL_ID.into(), id);
        }
    }
    let distinct = table.rows.len();
    table.columns.push(crate::outcomes::ColumnInfo {
        name: POSITIONAL_ID.into(),
        kind: crate::outcomes::ColumnKind::Text,
        distinct,
        missing: 0,
    });
    true
}

/// Gold answers by query id from a file without predictions (LongMemEval's dataset:
/// `question_id`, `question_type`, `question`, `answer`, …): they complete answer files that
/// state no gold (LongMemEval's hypothesis files, `question_id` and `hypothesis`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GoldFile {
    pub file: String,
    /// Per query id, in file order: its gold variants, dataset (or `question_type`), category,
    /// question text and line.
    pub answers: Vec<GoldEntry>,
}

/// One query's gold answers as a gold file states them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GoldEntry {
    pub query_id: String,
    pub gold: Vec<String>,
    pub dataset: Option<String>,
    pub category: Option<i64>,
    pub question: Option<String>,
    pub line: usize,
}

/// What one answer file holds: answer rows (those of a file without a gold column keep an empty
/// gold, to be completed by a [`GoldFile`]), or gold answers only.
#[derive(Debug, Clone)]
pub enum AnswerFile {
    Answers { rows: Vec<AnswerRow>, warnings: AnswerWarnings, gold_column: bool },
    Gold(GoldFile),
}

/// Reads answer rows from one file (CSV or JSON; see [`read_long_table`]); rows without a gold
/// answer are left out and counted (`no_gold`), and a file of gold answers only is refused for
/// its missing prediction column (see [`read_answer_file`], which reads it).
pub fn read_answers(file: &InputFile, cols: &AnswerColumns) -> Result<(Vec<AnswerRow>, AnswerWarnings), IngestError> {
    match read_answer_file(file, cols, false)? {
        AnswerFile::Answers { mut rows, mut warnings, .. } => {
            drop_without_gold(&mut rows, &mut warnings);
            Ok((rows, warnings))
        }
        AnswerFile::Gold(g) => Err(IngestError::new(Location::file(&g.file), "no prediction column")),
    }
}

/// Leaves out the rows without a gold answer, each counted (`no_gold`): unknown, never 0.
pub fn drop_without_gold(rows: &mut Vec<AnswerRow>, warnings: &mut AnswerWarnings) {
    rows.retain(|r| {
        if r.gold.is_empty() {
            warnings.add(AnswerWarningKind::NoGold, || format!("{}, line {}: {}", r.file, r.line, r.query_id));
        }
        !r.gold.is_empty()
    });
}

/// Reads one answer file: answer rows, or — with `gold_files` and no prediction column stated or
/// found, but a query id and a gold column — the file's gold answers ([`GoldFile`]).
pub fn read_answer_file(file: &InputFile, cols: &AnswerColumns, gold_files: bool) -> Result<AnswerFile, IngestError> {
    let mut table = read_long_table(file)?;
    if gold_files
        && cols.prediction.is_none()
        && pick_column(&table, None, &PREDICTION_ALIASES)?.is_none()
        && table.column("golden_answer").is_none()
        && let (Some(id), Some(gold)) = (
            pick_column(&table, cols.query_id.as_deref(), &ID_ALIASES)?,
            pick_column(&table, cols.gold.as_deref(), &GOLD_ALIASES)?,
        )
    {
        return read_gold(&table, &id, &gold, cols).map(AnswerFile::Gold);
    }
    let mut warnings = AnswerWarnings::default();
    let stated_or_found = cols.query_id.is_some() || pick_column(&table, None, &ID_ALIASES)?.is_some();
    let id = if !stated_or_found && name_by_position(&mut table, &file.name) {
        let conversations: std::collections::HashSet<&str> =
            table.rows.iter().filter_map(|r| r.fields.get("conversation").map(String::as_str)).collect();
        warnings.add_n(AnswerWarningKind::PositionalIds, table.rows.len(), || {
            format!("{}: {} questions in {} conversations", file.name, table.rows.len(), conversations.len())
        });
        POSITIONAL_ID.to_string()
    } else {
        require_column(&table, cols.query_id.as_deref(), &ID_ALIASES, "query id")?
    };
    // Zep's released LoCoMo files (`{question, answer, golden_answer, …}`) name the model's
    // answer `answer` and the gold `golden_answer`: read so when no prediction column is stated
    // or found, and said.
    let zep = cols.prediction.is_none()
        && cols.gold.is_none()
        && pick_column(&table, None, &PREDICTION_ALIASES)?.is_none()
        && table.column("answer").is_some()
        && table.column("golden_answer").is_some();
    let (pred, gold) = if zep {
        warnings.add(AnswerWarningKind::AnswerBesideGoldenAnswer, || {
            format!("{}: prediction `answer`, gold `golden_answer`", file.name)
        });
        ("answer".to_string(), Some("golden_answer".to_string()))
    } else {
        (
            require_column(&table, cols.prediction.as_deref(), &PREDICTION_ALIASES, "prediction")?,
            pick_column(&table, cols.gold.as_deref(), &GOLD_ALIASES)?,
        )
    };
    let parsed = pick_column(&table, None, &PARSED_ALIASES)?;
    let arm = pick_column(&table, cols.arm.as_deref(), &ARM_ALIASES)?;
    let dataset = pick_column(&table, cols.dataset.as_deref(), &DATASET_ALIASES)?;
    let category = pick_column(&table, cols.category.as_deref(), &["category"])?;
    let replicate = pick_column(&table, None, crate::cells::REPLICATE_COLUMNS)?;
    let read: Vec<&str> = [
        Some(&id),
        Some(&pred),
        gold.as_ref(),
        parsed.as_ref(),
        arm.as_ref(),
        dataset.as_ref(),
        category.as_ref(),
        replicate.as_ref(),
    ]
    .into_iter()
    .flatten()
    .map(String::as_str)
    .collect();
    let stated = stated_columns(&table, &cols.stated, &read)?;
    if !stated.is_empty() {
        let described: Vec<String> = stated
            .iter()
            .map(|c| {
                let values = table.rows.iter().filter_map(|r| r.values.get(c));
                let verdicts = values.clone().all(|v| *v == 0.0 || *v == 1.0);
                format!("{c} ({}, {} rows)", if verdicts { "0/1" } else { "scores" }, values.count())
            })
            .collect();
        warnings.add(AnswerWarningKind::StatedScores, || format!("{}: {}", file.name, described.join(", ")));
    }
    let read: Vec<&str> = read.into_iter().chain(stated.iter().map(String::as_str)).collect();
    let mut rows: Vec<AnswerRow> = Vec::new();
    for r in &table.rows {
        let loc = table.location(r);
        let Some(qid) = cell(r, Some(&id)) else {
            return Err(IngestError::new(loc.with_field(id.clone()), "the query id is empty"));
        };
        let Some(prediction) = cell(r, Some(&pred)) else {
            warnings.add(AnswerWarningKind::MissingPrediction, || format!("{loc}"));
            continue;
        };
        let arm_v = cell(r, arm.as_deref()).map(str::to_string);
        let gold_v = cell(r, gold.as_deref()).map(gold_variants).unwrap_or_default();
        // Without a gold column the gold may come from a gold file; an empty gold cell is unknown.
        if gold_v.is_empty() && gold.is_some() {
            warnings.add(AnswerWarningKind::NoGold, || format!("{loc}: {qid}"));
            continue;
        }
        rows.push(AnswerRow {
            query_id: qid.to_string(),
            arm: arm_v,
            dataset: cell(r, dataset.as_deref()).map(str::to_string),
            category: integer(&table, r, category.as_deref())?,
            gold: gold_v,
            prediction: prediction.to_string(),
            parsed_prediction: cell(r, parsed.as_deref()).map(str::to_string),
            file: loc.file.clone(),
            line: r.line,
            replicate: cell(r, replicate.as_deref()).map(str::to_string),
            other: table
                .columns
                .iter()
                .filter(|c| !read.contains(&c.name.as_str()))
                .filter_map(|c| r.fields.get(&c.name).map(|v| (c.name.clone(), v.clone())))
                .collect(),
            fingerprint: crate::cells::fingerprint(r.fields.iter().map(|(k, v)| (k.as_str(), v.as_str()))),
            stated: stated
                .iter()
                .filter_map(|c| Some(StatedScore { column: c.clone(), value: *r.values.get(c)? }))
                .collect(),
        });
    }
    Ok(AnswerFile::Answers { rows, warnings, gold_column: gold.is_some() })
}

/// The gold answers of a file of gold answers only, by query id (`id`), from column `gold`; the
/// dataset from a dataset column or LongMemEval's `question_type`, the category and the
/// question as stated. A query given twice with other gold answers is refused at its line.
fn read_gold(table: &OutcomeTable, id: &str, gold: &str, cols: &AnswerColumns) -> Result<GoldFile, IngestError> {
    let dataset = match pick_column(table, cols.dataset.as_deref(), &DATASET_ALIASES)? {
        Some(d) => Some(d),
        None => pick_column(table, None, &["question_type"])?,
    };
    let category = pick_column(table, cols.category.as_deref(), &["category"])?;
    let mut out = GoldFile { file: table.name.clone(), answers: Vec::new() };
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for r in &table.rows {
        let loc = table.location(r);
        let Some(qid) = cell(r, Some(id)) else {
            return Err(IngestError::new(loc.with_field(id), "the query id is empty"));
        };
        let entry = GoldEntry {
            query_id: qid.to_string(),
            gold: cell(r, Some(gold)).map(gold_variants).unwrap_or_default(),
            dataset: cell(r, dataset.as_deref()).map(str::to_string),
            category: integer(table, r, category.as_deref())?,
            question: cell(r, Some("question")).map(str::to_string),
            line: r.line,
        };
        match seen.get(qid) {
            Some(&i) if out.answers[i].gold != entry.gold => {
                return Err(IngestError::new(
                    loc.with_field(gold),
                    format!(
                        "query {qid} has other gold answers than at line {}: a file of gold answers gives each query once",
                        out.answers[i].line
                    ),
                ));
            }
            Some(_) => {}
            None => {
                seen.insert(qid.to_string(), out.answers.len());
                out.answers.push(entry);
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(name: &str, text: &str) -> Result<(Vec<AnswerRow>, AnswerWarnings), IngestError> {
        read_answers(&InputFile::new(name, text.as_bytes().to_vec()), &AnswerColumns::default())
    }

    #[test]
    fn csv_and_jsonl() {
        let (rows, w) = read("a.csv", "query_id,gold,prediction,dataset\nq1,\"[\"\"Paris\"\", \"\"paris\"\"]\",It is Paris,x\nq2,Rome,,x\nq1,a,b,x\nq3,,c,x\n").unwrap();
        // The repeated q1 is read; the cells refuse it (or keep the first: answers::cells). A row
        // without gold is left out and counted: unknown, never scored 0.
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].gold, vec!["Paris", "paris"]);
        assert_eq!((w.count(AnswerWarningKind::MissingPrediction), w.count(AnswerWarningKind::NoGold)), (1, 1));
        let mut w = AnswerWarnings::default();
        let e = crate::answers::cells::form(&rows, &Default::default(), crate::cells::Repeats::Refuse, &mut w)
            .err()
            .unwrap();
        assert!(e.to_string().contains("a.csv, line 4") && e.to_string().contains("first at line 2"), "{e}");
        let kept =
            crate::answers::cells::form(&rows, &Default::default(), crate::cells::Repeats::First, &mut w).ok().unwrap();
        // The repeat answers otherwise (`b` for gold `a`): counted apart, naming the first line.
        assert_eq!((kept.rows.len(), w.count(AnswerWarningKind::ConflictingRepeat)), (1, 1));
        assert_eq!(
            w.get(AnswerWarningKind::ConflictingRepeat).unwrap().examples,
            ["a.csv, line 4: q1 answers otherwise than line 2"]
        );
        let (rows, _) =
            read("a.jsonl", "{\"question_id\":\"q\",\"answer\":2022,\"output\":\"In 2022\",\"category\":2}\n").unwrap();
        assert_eq!((rows[0].gold[0].as_str(), rows[0].category, rows[0].line), ("2022", Some(2), 1));
        let (rows, _) =
            read("a.jsonl", "{\"id\":\"q\",\"answers\":[[\"a\",\"b\"],[\"c\"]],\"output\":\"x\"}\n").unwrap();
        assert_eq!(rows[0].gold, vec!["a", "b", "c"]);
    }

    #[test]
    fn errors_name_file_line_and_field() {
        let e = read("a.csv", "query_id,gold,prediction,category\nq1,a,b,one\n").unwrap_err();
        assert_eq!((e.location.line, e.location.field.as_deref()), (Some(2), Some("category")));
        let e = read("a.csv", "query_id,gold\nq1,a\n").unwrap_err();
        assert!(e.message.contains("no prediction column"), "{e}");
        let e = read("a.csv", "query_id,gold,prediction\n,a,b\n").unwrap_err();
        assert_eq!((e.location.line, e.location.field.as_deref()), (Some(2), Some("query_id")));
    }
}
