//! Reading ablation traces: one row per (query, removed memory), or one record per query with
//! an array of its retrieved memories (JSON). Outcomes are 0/1 scores, correctness flags, or
//! predictions scored by an answer profile.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::answers::read::{
    ID_ALIASES, cell, gold_variants, integer, number, pick_column, read_long_table, require_column,
};
use crate::answers::{AnswerInput, AnswerSettings, Profile, score};
use crate::error::{IngestError, Location};
use crate::ingest::InputFile;
use crate::ingest::warnings::{Kind, Severity, Warnings};
use crate::outcomes::{OutcomeRow, OutcomeTable, parse_number};

/// Every kind of warning of the ablation reader and analysis.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AblationWarningKind {
    /// The same (run, query, removed memory) twice: the first row is kept (`repeats = first`;
    /// refused otherwise).
    DuplicatePair,
    /// Rows of one query give different subsets: the first row's is used for all of them.
    SubsetDisagrees,
    /// A query's rows disagree on the base outcome: the first row's is used.
    BaseDisagrees,
    /// Pairs without a retrieval score: counted in u and y, left out of ρ(u, s).
    MissingRetrievalScore,
    /// Pairs of a run without the specialist's score its other pairs carry: left out of the
    /// specialist diagnostics.
    MissingSpecialistScore,
    /// Queries of one run have different numbers of removed memories (K).
    UnequalK,
    /// Ranks of a query are not 1..K.
    RankIrregular,
}

impl Kind for AblationWarningKind {
    /// Every one is a warning: queries with other removed memories than the rest are a
    /// population to weigh, not a note (a changed query id shows as one).
    fn severity(self) -> Severity {
        Severity::Warning
    }
    fn describe(self) -> &'static str {
        match self {
            AblationWarningKind::DuplicatePair => {
                "(run, query, removed memory) given twice: first row kept (repeats = first)"
            }
            AblationWarningKind::SubsetDisagrees => "rows of one query give different subsets: the first row's used",
            AblationWarningKind::BaseDisagrees => "rows of one query disagree on the base outcome: first row's used",
            AblationWarningKind::MissingRetrievalScore => "pairs without a retrieval score: in u/y, not in ρ(u, s)",
            AblationWarningKind::MissingSpecialistScore => {
                "pairs without the specialist score the run's others carry: not in the specialist diagnostics"
            }
            AblationWarningKind::UnequalK => "queries of a run have different numbers of removed memories (K)",
            AblationWarningKind::RankIrregular => "ranks of a query are not 1..K",
        }
    }
}

/// Warnings of the ablation reader (the shared counter).
pub type AblationWarnings = Warnings<AblationWarningKind>;

/// One (query, removed memory) pair as read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairRow {
    pub run: String,
    pub query_id: String,
    pub subset: Option<String>,
    /// 1-based rank of the removed memory in the base context.
    pub rank: Option<i64>,
    pub memory_id: Option<String>,
    /// Retrieval score of the removed memory (e.g. cosine similarity).
    pub retrieval_score: Option<f64>,
    /// A trained specialist's score of the pair (seed-000: z = logit("1") − logit("0")).
    #[serde(default)]
    pub specialist_score: Option<f64>,
    /// The split the pair belongs to (`train`, `val`), as given.
    #[serde(default)]
    pub split: Option<String>,
    /// Outcome with every memory (0/1).
    pub base: f64,
    /// Outcome with this memory removed (0/1).
    pub ablated: f64,
    pub file: String,
    pub line: usize,
}

crate::fields! {
    /// Which columns hold what (`None`: the aliases).
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub struct AblationColumns {
        score as "score_column": Option<String> = None, label "retrieval score column",
            help "Column of the retrieval score, when the aliases do not find it.", column &SCORE_ALIASES;
        subset as "subset_column": Option<String> = None, label "subset column",
            help "The subset column.", column &SUBSET_ALIASES;
        specialist as "specialist_column": Option<String> = None, label "specialist score column",
            help "Column of a trained specialist's score of the pair (z = logit 1 \u{2212} logit 0), when the aliases do not find it.",
            column &SPECIALIST_ALIASES;
        #[serde(default)]
        repeats: crate::cells::Repeats = crate::cells::Repeats::Refuse, label "repeated pairs",
            help "The same (run, query, removed memory) twice: refuse, or keep the first row and count the repeats.";
    }
    unlisted {
        query_id: Option<String> = None;
        run: Option<String> = None;
    }
}

crate::fields! {
    /// How predictions become 0/1 outcomes when a trace carries text instead of scores.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub struct OutcomeScoring {
        profile: Profile = Profile::MabSem, label "profile (text traces)",
            help "Profile that scores predictions when the trace has text instead of 0/1 outcomes.";
        f1_threshold: f64 = 0.5, label "F1 threshold", help "For F1 profiles: correct when F1 \u{2265} this.";
    }
}

pub const RUN_ALIASES: [&str; 3] = ["run", "run_id", "phase"];
pub const SUBSET_ALIASES: [&str; 4] = ["subset", "category", "dataset", "substrate"];
pub const RANK_ALIASES: [&str; 4] = ["rank", "i", "position", "removed_rank"];
pub const MEMORY_ALIASES: [&str; 4] = ["memory_id", "removed_memory", "chunk_id", "removed_id"];
pub const SCORE_ALIASES: [&str; 5] = ["retrieval_score", "cosine", "score", "similarity", "s"];
pub const SPECIALIST_ALIASES: [&str; 5] = ["specialist_score", "score_z", "specialist_z", "z", "specialist"];
pub const SPLIT_ALIASES: [&str; 3] = ["split", "fold", "partition"];
pub const BASE_ALIASES: [&str; 4] = ["base_score", "base_correct", "base_sem", "base"];
pub const ABLATED_ALIASES: [&str; 5] = ["ablated_score", "ablated_correct", "ablated_sem", "ablated", "without_score"];
pub const BASE_PRED_ALIASES: [&str; 3] = ["base_prediction", "base_output", "base_answer"];
pub const ABLATED_PRED_ALIASES: [&str; 3] = ["ablated_prediction", "ablated_output", "ablated_answer"];
pub const ITEMS_ALIASES: [&str; 4] = ["items", "retrieved", "ablations", "memories"];
const GOLD_ALIASES: [&str; 5] = ["gold", "answers", "answer", "gold_answers", "ground_truth"];

/// A row to read pairs from: a flat row, or one element of a query's items array merged over
/// its query's fields (the element's own fields win).
struct Source<'a> {
    row: OutcomeRow,
    /// Field prefix for messages (`items[2].`).
    prefix: String,
    table: &'a OutcomeTable,
}

impl Source<'_> {
    fn loc(&self, field: &str) -> Location {
        self.table.location(&self.row).with_field(format!("{}{field}", self.prefix))
    }
}

/// Expands a nested items array into one row per element.
fn expand<'a>(
    table: &'a OutcomeTable,
    row: &OutcomeRow,
    items_col: Option<&str>,
) -> Result<Vec<Source<'a>>, IngestError> {
    let Some(text) = cell(row, items_col) else {
        return Ok(vec![Source { row: row.clone(), prefix: String::new(), table }]);
    };
    let col = items_col.unwrap_or_default();
    let loc = || table.location(row).with_field(col);
    let Ok(Value::Array(items)) = crate::ingest::json::from_str(text) else {
        return Err(IngestError::new(
            loc(),
            "expected an array of retrieved memories [{\"memory_id\": …, \"score\": …}, …]",
        ));
    };
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let Value::Object(m) = item else {
            return Err(IngestError::new(loc(), format!("element {i} is not an object")));
        };
        let mut r = row.clone();
        r.fields.remove(col);
        if !m.contains_key("rank") {
            r.fields.insert("rank".into(), (i + 1).to_string());
            r.values.insert("rank".into(), (i + 1) as f64);
        }
        for (k, v) in m {
            let text = match v {
                Value::Null => {
                    r.fields.remove(k);
                    r.values.remove(k);
                    continue;
                }
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            let value = match v {
                Value::Bool(b) => Some(if *b { 1.0 } else { 0.0 }),
                Value::Number(n) => n.as_f64(),
                Value::String(s) => parse_number(s),
                _ => None,
            };
            match value {
                Some(x) => r.values.insert(k.clone(), x),
                None => r.values.remove(k),
            };
            r.fields.insert(k.clone(), text);
        }
        out.push(Source { row: r, prefix: format!("{col}[{i}]."), table });
    }
    Ok(out)
}

/// Picks the first alias present in the row (nested items may add columns the table lacks).
fn first_present<'r>(row: &'r OutcomeRow, explicit: Option<&'r str>, aliases: &[&'r str]) -> Option<&'r str> {
    explicit.or_else(|| aliases.iter().copied().find(|a| row.fields.contains_key(*a)))
}

/// A 0/1 outcome from a numeric cell (error when it is not 0/1), or from a prediction scored by
/// the profile.
fn outcome(
    src: &Source,
    num_aliases: &[&str],
    pred_aliases: &[&str],
    gold: &[String],
    scoring: &OutcomeScoring,
) -> Result<Option<f64>, IngestError> {
    if let Some(c) = first_present(&src.row, None, num_aliases) {
        return match number(src.table, &src.row, Some(c)) {
            Ok(Some(v)) if v == 0.0 || v == 1.0 => Ok(Some(v)),
            Ok(Some(v)) => Err(IngestError::new(src.loc(c), format!("{v} is not an outcome 0/1 (or true/false)"))),
            Ok(None) => Ok(None),
            Err(e) => Err(IngestError::new(src.loc(c), e.message)),
        };
    }
    let Some(c) = first_present(&src.row, None, pred_aliases) else { return Ok(None) };
    let Some(pred) = src.row.fields.get(c) else { return Ok(None) };
    let dataset = first_present(&src.row, None, &["dataset", "sub_dataset"]).and_then(|d| src.row.fields.get(d));
    let category = integer(src.table, &src.row, first_present(&src.row, None, &["category"]))?;
    let input = AnswerInput { gold, prediction: pred, dataset: dataset.map(String::as_str), category };
    let s = score(scoring.profile, &input).score;
    let settings = AnswerSettings { profiles: vec![scoring.profile], f1_threshold: scoring.f1_threshold };
    Ok(Some(if settings.correct(scoring.profile, s) { 1.0 } else { 0.0 }))
}

/// Reads ablation pairs from one file (CSV or JSON; see `docs/ablation.md` for the columns).
pub fn read_ablation(
    file: &InputFile,
    cols: &AblationColumns,
    scoring: &OutcomeScoring,
) -> Result<(Vec<PairRow>, AblationWarnings), IngestError> {
    let table = read_long_table(file)?;
    let id = require_column(&table, cols.query_id.as_deref(), &ID_ALIASES, "query id")?;
    let run_col = pick_column(&table, cols.run.as_deref(), &RUN_ALIASES)?;
    let items_col = pick_column(&table, None, &ITEMS_ALIASES)?;
    for c in [cols.subset.as_deref(), cols.score.as_deref(), cols.specialist.as_deref()].into_iter().flatten() {
        if items_col.is_none() {
            pick_column(&table, Some(c), &[])?;
        }
    }
    let mut warnings = AblationWarnings::default();
    let mut out: Vec<PairRow> = Vec::new();
    let mut seen: HashMap<(String, String, String), usize> = HashMap::new();
    let mut base_of: HashMap<(String, String), f64> = HashMap::new();
    let mut subset_of: HashMap<(String, String), (Option<String>, usize)> = HashMap::new();
    for r in &table.rows {
        for src in expand(&table, r, items_col.as_deref())? {
            let row = &src.row;
            let Some(qid) = cell(row, Some(&id)) else {
                return Err(IngestError::new(src.loc(&id), "the query id is empty"));
            };
            let run = cell(row, run_col.as_deref()).unwrap_or("all").to_string();
            let gold = first_present(row, None, &GOLD_ALIASES)
                .and_then(|g| row.fields.get(g))
                .map(|g| gold_variants(g))
                .unwrap_or_default();
            let base = outcome(&src, &BASE_ALIASES, &BASE_PRED_ALIASES, &gold, scoring)?;
            let ablated = outcome(&src, &ABLATED_ALIASES, &ABLATED_PRED_ALIASES, &gold, scoring)?;
            let (Some(base), Some(ablated)) = (base, ablated) else {
                let which = if base.is_none() { "base" } else { "ablated" };
                return Err(IngestError::new(
                    src.loc(if base.is_none() { BASE_ALIASES[0] } else { ABLATED_ALIASES[0] }),
                    format!(
                        "no {which} outcome: give `{which}_score` (0/1) or `{which}_prediction` with `gold` (see docs/ablation.md)"
                    ),
                ));
            };
            let rank_col = first_present(row, None, &RANK_ALIASES);
            let rank = integer(src.table, row, rank_col)
                .map_err(|e| IngestError::new(src.loc(rank_col.unwrap_or("rank")), e.message))?;
            let memory_id = first_present(row, None, &MEMORY_ALIASES).and_then(|c| row.fields.get(c)).cloned();
            let score_col = first_present(row, cols.score.as_deref(), &SCORE_ALIASES);
            let retrieval_score = number(src.table, row, score_col)
                .map_err(|e| IngestError::new(src.loc(score_col.unwrap_or("score")), e.message))?;
            let specialist_col = first_present(row, cols.specialist.as_deref(), &SPECIALIST_ALIASES);
            let specialist_score = number(src.table, row, specialist_col)
                .map_err(|e| IngestError::new(src.loc(specialist_col.unwrap_or("specialist_score")), e.message))?;
            let split = first_present(row, None, &SPLIT_ALIASES).and_then(|c| row.fields.get(c)).cloned();
            let key_item = memory_id
                .clone()
                .or_else(|| rank.map(|k| format!("#{k}")))
                .unwrap_or_else(|| format!("line {}", row.line));
            let loc = src.table.location(row);
            if let Some(first) = seen.insert((run.clone(), qid.to_string(), key_item.clone()), row.line) {
                if cols.repeats == crate::cells::Repeats::Refuse {
                    return Err(IngestError::new(
                        loc.with_field(id.clone()),
                        format!(
                            "run `{run}`, query `{qid}`, removed memory `{key_item}` appears again (first at line {first}): \
                             a repeated pair would be counted twice; remove it, or keep the first of each (repeats = first)"
                        ),
                    ));
                }
                seen.insert((run.clone(), qid.to_string(), key_item.clone()), first);
                warnings.add(AblationWarningKind::DuplicatePair, || format!("{loc}: {qid} / {key_item}"));
                continue;
            }
            let subset =
                first_present(row, cols.subset.as_deref(), &SUBSET_ALIASES).and_then(|c| row.fields.get(c)).cloned();
            let subset = match subset_of.get(&(run.clone(), qid.to_string())) {
                Some((s, first)) if *s != subset => {
                    let (s, first) = (s.clone(), *first);
                    warnings.add(AblationWarningKind::SubsetDisagrees, || {
                        format!(
                            "{loc}: query {qid} is `{}` here, `{}` at line {first}",
                            subset.clone().unwrap_or_default(),
                            s.clone().unwrap_or_default()
                        )
                    });
                    s
                }
                Some((s, _)) => s.clone(),
                None => {
                    subset_of.insert((run.clone(), qid.to_string()), (subset.clone(), row.line));
                    subset
                }
            };
            let base = match base_of.get(&(run.clone(), qid.to_string())) {
                Some(&b) if b != base => {
                    warnings.add(AblationWarningKind::BaseDisagrees, || format!("{loc}: {qid}"));
                    b
                }
                Some(&b) => b,
                None => {
                    base_of.insert((run.clone(), qid.to_string()), base);
                    base
                }
            };
            if retrieval_score.is_none() {
                warnings.add(AblationWarningKind::MissingRetrievalScore, || format!("{loc}: {qid} / {key_item}"));
            }
            out.push(PairRow {
                run,
                query_id: qid.to_string(),
                subset,
                rank,
                memory_id,
                retrieval_score,
                specialist_score,
                split,
                base,
                ablated,
                file: loc.file.clone(),
                line: row.line,
            });
        }
    }
    Ok((out, warnings))
}
