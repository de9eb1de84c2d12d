//! Answer rescoring as one capability ([`Answers`]): `memaudit answers` and the viewer's
//! answers page (several files: rows concatenated, warnings merged).

use serde::{Deserialize, Serialize};

use std::collections::HashMap;

use super::read::{
    AnswerColumns, AnswerFile, AnswerRow, AnswerWarningKind, AnswerWarnings, GoldFile, read_answer_file,
};
use super::rescore::{AnswerReport, AnswerSettings, diff, rescore_answers};
use super::table::{AnswersTable, table};
use super::{Profile, text};
use crate::capability::prelude::*;
use crate::report::instance::ItemText;

/// Rescoring raw answers under scoring profiles, and the diff of two.
pub struct Answers;

crate::fields! {
    /// The answer rescoring's settings.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(default)]
    pub struct AnswersRequest {
        diff: Option<(Profile, Profile)> = None, label "diff",
            help "List the rows whose verdict changes between two profiles: A:B (e.g. paper_sem:mab_sem; scored even when not chosen).";
        repeats: crate::cells::Repeats = crate::cells::Repeats::Refuse, label "repeated answers",
            help "An answer repeated within an arm (same query and seed): refuse, or keep the first row and count the repeats.";
    }
    groups {
        settings: AnswerSettings = AnswerSettings::default();
        columns: AnswerColumns = AnswerColumns::default();
        /// How answers become cells: design columns pooled or split by, the problem set, common
        /// queries only ([`crate::cells`]).
        cells: crate::cells::CellSettings = crate::cells::CellSettings::default();
    }
}

impl AnswersRequest {
    /// The profiles scored: the chosen ones, then the diff's two.
    pub fn scoring(&self) -> AnswerSettings {
        let mut profiles = self.settings.profiles.clone();
        for p in self.diff.iter().flat_map(|(a, b)| [*a, *b]) {
            if !profiles.contains(&p) {
                profiles.push(p);
            }
        }
        AnswerSettings { profiles, f1_threshold: self.settings.f1_threshold }
    }
}

impl Validate for AnswersRequest {
    fn validate(&self) -> Result<()> {
        self.cells.validate()?;
        self.scoring().validate()
    }
}

/// A question as an error quotes it: its first 80 characters.
fn quoted(q: &str) -> String {
    match q.char_indices().nth(80) {
        Some((i, _)) => format!("{}…", &q[..i]),
        None => q.to_string(),
    }
}

/// Files whose questions are named by their place match a question across files only where
/// the texts agree: a file that leaves out or reorders questions would otherwise pair one
/// question's answers with another's. Refused at the first place whose texts differ.
fn same_question_at_each_place(
    rows: &[AnswerRow],
    by_place: &mut HashMap<String, (String, String, usize)>,
) -> Result<()> {
    for r in rows {
        let Some(q) = r.other.iter().find(|(c, _)| c == "question").map(|(_, t)| t) else { continue };
        match by_place.get(&r.query_id) {
            Some((text, file, line)) if text != q && file != &r.file => {
                return Err(Error::Ingest(crate::error::IngestError::new(
                    crate::error::Location::line(&r.file, r.line).with_field("question"),
                    format!(
                        "question {} ({}) is `{}` here but `{}` in {file}, line {line}: the files do not list the \
                         same questions in the same order, so their answers cannot be matched by position; give \
                         files with a question id, or files of the same questions",
                        r.query_id,
                        super::read::POSITIONAL_ID,
                        quoted(q),
                        quoted(text),
                    ),
                )));
            }
            Some(_) => {}
            None => {
                by_place.insert(r.query_id.clone(), (q.clone(), r.file.clone(), r.line));
            }
        }
    }
    Ok(())
}

/// A file that answers every question exactly as another one does (Zep's
/// `zep_locomo_responses.json` and `zep_locomo_grades.json`: the run before and after judging)
/// is the same run: read once, and said — never two arms of one system. The file kept is the one
/// that states more (more columns of its own scores, then the LoCoMo categories: Zep's grades
/// file, which adds `grade` and `category`), else the earlier.
fn same_answers_read_once(out: &mut LoadedAnswers) {
    use std::collections::{BTreeMap, BTreeSet};
    use std::hash::{Hash, Hasher};
    type Answers<'a> = BTreeMap<&'a str, (&'a str, &'a [String])>;
    // Each file's answers, built in one pass over the rows, and a fingerprint of them: only
    // files with the same fingerprint are compared whole. Beside them, what the file states
    // besides its answers: its own scores' columns, and whether it gives categories.
    let mut of_file: HashMap<&str, Answers<'_>> = HashMap::new();
    let mut states: HashMap<&str, (BTreeSet<&str>, bool)> = HashMap::new();
    for r in &out.rows {
        of_file
            .entry(r.file.as_str())
            .or_default()
            .insert(r.query_id.as_str(), (r.prediction.as_str(), r.gold.as_slice()));
        let s = states.entry(r.file.as_str()).or_default();
        s.0.extend(r.stated.iter().map(|x| x.column.as_str()));
        s.1 |= r.category.is_some();
    }
    let more = |f: &str| states.get(f).map(|(c, cat)| (c.len(), *cat)).unwrap_or_default();
    let fingerprint = |a: &Answers<'_>| {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        a.hash(&mut h);
        h.finish()
    };
    // Per fingerprint, the files kept; each copy with the file it was read from.
    let mut kept: HashMap<u64, Vec<&str>> = HashMap::new();
    let mut copies: Vec<(&str, &str)> = Vec::new();
    for f in &out.files {
        let Some(answers) = of_file.get(f.name.as_str()) else { continue };
        let same = kept.entry(fingerprint(answers)).or_default();
        match same.iter_mut().find(|e| of_file.get(**e) == Some(answers)) {
            Some(e) if more(f.name.as_str()) > more(e) => {
                copies.push((*e, f.name.as_str()));
                *e = f.name.as_str();
            }
            Some(e) => copies.push((f.name.as_str(), *e)),
            None => same.push(f.name.as_str()),
        }
    }
    // A copy read from a file later replaced by a fuller one is read from that one.
    fn read_from<'a>(copies: &[(&'a str, &'a str)], mut f: &'a str) -> &'a str {
        while let Some((_, to)) = copies.iter().find(|(c, _)| *c == f) {
            f = to;
        }
        f
    }
    let said: Vec<(String, String, usize, String)> = copies
        .iter()
        .map(|(copy, _)| {
            let of = read_from(&copies, copy);
            let n = out.rows.iter().filter(|r| r.file == *copy).count();
            let (columns, category) = states.get(of).cloned().unwrap_or_default();
            let mut adds: Vec<String> = columns.iter().map(|c| format!("`{c}`")).collect();
            if category {
                adds.push("categories".into());
            }
            let why = if more(of) > more(copy) {
                format!(", which also states {}", adds.join(" and "))
            } else {
                String::new()
            };
            (copy.to_string(), of.to_string(), n, why)
        })
        .collect();
    for (copy, of, n, why) in &said {
        out.warnings.add(AnswerWarningKind::SameAnswersAsFile, || {
            format!("{copy} answers its {n} questions as {of} does: read once, from {of}{why}")
        });
    }
    let dropped: std::collections::HashSet<String> = said.into_iter().map(|(c, ..)| c).collect();
    out.rows.retain(|r| !dropped.contains(&r.file));
}

/// Files named by place that list the same questions in different orders pair by text
/// ([`crate::outcomes::locomo::align_by_text`]): each question is renamed
/// `conversation/position` after its place in the first file that lists it, and a warning says
/// so. Left as read when the files agree place by place or a record has no question text.
fn align_places(out: &mut LoadedAnswers, files: &[std::ops::Range<usize>]) {
    use crate::outcomes::locomo::{Placed, align_by_text};
    let golds: Vec<String> = out.rows.iter().map(|r| r.gold.join(" | ")).collect();
    fn question(r: &AnswerRow) -> Option<&str> {
        r.other.iter().find(|(c, _)| c == "question").map(|(_, t)| t.as_str())
    }
    let mut placed = Vec::new();
    for (file, range) in files.iter().enumerate() {
        for i in range.clone() {
            let r = &out.rows[i];
            let Some((conversation, position)) = r.query_id.split_once('/') else { return };
            let Ok(position) = position.parse() else { return };
            placed.push(Placed { file, conversation, position, question: question(r), gold: &golds[i] });
        }
    }
    let Some(a) = align_by_text(&placed) else { return };
    let indices: Vec<usize> = files.iter().flat_map(Clone::clone).collect();
    let (first, old) = a.first_moved;
    let example = {
        let r = &out.rows[indices[first]];
        let conversation = r.query_id.split_once('/').map_or("", |(c, _)| c);
        format!(
            "{}, line {}: question {conversation}/{old} → {conversation}/{} (\u{201c}{}\u{201d})",
            r.file,
            r.line,
            a.positions[first],
            question(r).unwrap_or_default()
        )
    };
    for (&i, p) in indices.iter().zip(&a.positions) {
        let r = &mut out.rows[i];
        if let Some((conversation, _)) = r.query_id.split_once('/') {
            r.query_id = format!("{conversation}/{p}");
        }
    }
    out.warnings.add_n(AnswerWarningKind::QuestionsAlignedByText, a.moved, || example);
}

/// One query's rows as the answer files state them (`memaudit answers --show-item QUERY`): the
/// item is the query id, as the rows table names it.
pub use crate::report::instance::ShowItem;

/// The answer rows read, kept between runs.
#[derive(Debug, Clone, Default)]
pub struct LoadedAnswers {
    pub rows: Vec<AnswerRow>,
    pub warnings: AnswerWarnings,
    pub files: Vec<FileSummary>,
}

impl Capability for Answers {
    const ANALYSIS: Analysis = Analysis::Answers;
    const TITLE: &'static str = "Answers";
    const ABOUT: &'static str =
        "Rescore raw answers under scoring profiles (paper SEM, MemoryAgentBench, SQuAD, LoCoMo) and diff two.";
    const ROLES: &'static [FileRole] = &[FileRole::Answers];
    const DEMO: &'static [Demo] = &[Demo::new("answers.jsonl", "static/demo/answers/answers.jsonl")];
    crate::capability_types!(
        request: AnswersRequest, loaded: LoadedAnswers, overview: Vec<FileSummary>,
        report: AnswerReport, table: AnswersTable, detail: ShowItem => ItemText
    );

    /// Answer rows: a query id and a prediction column — but not LongMemEval's judge logs
    /// without gold (`autoeval_label`: per-question outcomes, `compare`'s; `memaudit answers`
    /// reads them with the dataset's gold when given both).
    fn recognise(s: &crate::ingest::sniff::Sniff<'_>) -> Option<crate::capability::Recognised> {
        use super::read::{GOLD_ALIASES, ID_ALIASES, PREDICTION_ALIASES};
        use crate::capability::{Fit, Recognised};
        let judge_log = s.has_column(&["autoeval_label.label", "autoeval_label"]) && !s.has_column(&GOLD_ALIASES);
        if s.has_column(&ID_ALIASES) && s.has_column(&PREDICTION_ALIASES) && !judge_log {
            return Some(
                Recognised::new(FileRole::Answers, Fit::Specific, "a query id and a prediction column").by_columns(s),
            );
        }
        // LongMemEval's dataset (`question_id`, `question_type`, `question`, `answer`, the
        // haystack): gold answers that complete hypothesis files (`question_id`, `hypothesis`).
        if s.has_column(&["question_id"])
            && s.has_column(&["answer"])
            && s.has_column(&["question"])
            && s.has_column(&["question_type", "haystack_sessions", "sessions"])
            && !s.has_column(&PREDICTION_ALIASES)
        {
            return Some(Recognised::new(
                FileRole::Answers,
                Fit::Companion,
                "gold answers by question id (LongMemEval's dataset): completes answer files without gold",
            ));
        }
        // LoCoMo answers grouped by conversation whose records hold a prediction (mem0's
        // `evals.py`: `response`): read with each question named by its place.
        let groups = s.doc.as_ref()?.as_object()?;
        let firsts: Vec<(&str, &serde_json::Map<String, serde_json::Value>)> =
            groups.iter().filter_map(|(g, v)| Some((g.as_str(), v.as_array()?.first()?.as_object()?))).collect();
        (firsts.len() == groups.len()
            && crate::outcomes::locomo::looks_like_answers(&firsts)
            && firsts.iter().all(|(_, o)| {
                PREDICTION_ALIASES.iter().any(|p| o.contains_key(*p))
                    || (o.contains_key("answer") && o.contains_key("golden_answer"))
            }))
        .then(|| {
            Recognised::new(
                FileRole::Answers,
                Fit::Specific,
                "LoCoMo answers grouped by conversation, with a prediction (questions named by their place)",
            )
        })
    }

    fn load(files: &[RoleFile], request: &AnswersRequest, progress: Progress<'_>) -> Result<LoadedAnswers> {
        if files.is_empty() {
            return Err(Error::Empty("no answer files: give answer rows (CSV or JSONL)".into()));
        }
        progress(Phase::Reading, "reading answer rows", 0.0);
        let mut out = LoadedAnswers::default();
        // Questions named by their place (LoCoMo answers grouped by conversation), per name:
        // the question's text and where it was first read.
        let mut by_place: HashMap<String, (String, String, usize)> = HashMap::new();
        let mut placed_files = Vec::new();
        let mut gold_files: Vec<GoldFile> = Vec::new();
        // Answer files without a gold column: their rows wait for a gold file's answers.
        let mut without_gold: Vec<String> = Vec::new();
        for f in files {
            let (rows, warnings) = match read_answer_file(&f.file, &request.columns, true)? {
                AnswerFile::Gold(g) => {
                    out.files.push(FileSummary::of(f, "gold answers", g.answers.len())?);
                    gold_files.push(g);
                    continue;
                }
                AnswerFile::Answers { rows, warnings, gold_column } => {
                    if !gold_column {
                        without_gold.push(f.file.name.clone());
                    }
                    (rows, warnings)
                }
            };
            if warnings.count(AnswerWarningKind::PositionalIds) > 0 {
                placed_files.push(out.rows.len()..out.rows.len() + rows.len());
            }
            out.files.push(FileSummary::of(f, "answers", rows.len())?);
            out.rows.extend(rows);
            out.warnings.extend(&warnings);
        }
        // Gold answers only, and no answers to score: refused, naming the file and what it lacks.
        if let Some(g) = gold_files.first()
            && out.files.iter().all(|f| f.kind == "gold answers")
        {
            return Err(Error::Ingest(crate::error::IngestError::new(
                crate::error::Location::file(&g.file),
                format!(
                    "no prediction column (looked for {}): a file of gold answers by query id completes answer \
                     files without gold; give the answer files with it, or name its prediction column ({})",
                    super::read::PREDICTION_ALIASES.join(", "),
                    crate::fields::mention("prediction_column")
                ),
            )));
        }
        gold_from_files(&mut out, &gold_files, &without_gold)?;
        if placed_files.len() > 1 {
            align_places(&mut out, &placed_files);
        }
        for range in placed_files {
            same_question_at_each_place(&out.rows[range], &mut by_place)?;
        }
        crate::capability::refuse_files_without_records(
            out.files.iter().map(|f| (f.name.as_str(), f.records)),
            "answer rows",
        )?;
        arms_from_files(&mut out);
        Ok(out)
    }

    /// The query's rows as read, scored under the request's profiles
    /// ([`super::instance::item_text`]).
    fn detail(l: Option<&LoadedAnswers>, request: &AnswersRequest, d: &ShowItem) -> Result<ItemText> {
        let l = l.ok_or_else(crate::capability::nothing_loaded)?;
        super::instance::item_text(&l.rows, &request.scoring(), &d.item)?.ok_or_else(|| {
            let queries: std::collections::HashSet<&str> = l.rows.iter().map(|r| r.query_id.as_str()).collect();
            Error::setting(
                "show_item",
                format!("the answers have no query `{}` ({} queries, named by their query id)", d.item, queries.len()),
            )
        })
    }

    fn reload(old: &AnswersRequest, new: &AnswersRequest) -> bool {
        old.columns != new.columns
    }

    fn overview(l: &LoadedAnswers) -> Vec<FileSummary> {
        l.files.clone()
    }

    fn run(l: &LoadedAnswers, request: &AnswersRequest, progress: Progress<'_>) -> Result<AnswerReport> {
        progress(Phase::Analysing, "scoring under every profile", 0.0);
        let mut warnings = l.warnings.clone();
        let formed = super::cells::form(&l.rows, &request.cells, request.repeats, &mut warnings)?;
        let mut report = rescore_answers(&formed.rows, &request.scoring(), warnings)?;
        report.diff = request.diff.map(|(a, b)| diff(&report, &formed.rows, a, b)).transpose()?;
        report.populations = formed.cells;
        progress(Phase::Analysing, "done", 1.0);
        Ok(report)
    }

    crate::report_views!(table? table, headlines: super::headlines::headlines, text: text::render_text);
}

/// Files without an arm column that answer the same questions are different systems (two runs
/// of one harness, mem0's `evals.py` files): each file is its own arm, named by the part of its
/// path that tells the files apart, and said. Files that share no question (one system's
/// shards) stay one arm.
fn arms_from_files(out: &mut LoadedAnswers) {
    if out.files.len() < 2 || out.rows.iter().any(|r| r.arm.is_some()) {
        return;
    }
    let mut file_of: HashMap<&str, &str> = HashMap::new();
    let shared = out.rows.iter().any(|r| *file_of.entry(r.query_id.as_str()).or_insert(r.file.as_str()) != r.file);
    if !shared {
        return;
    }
    same_answers_read_once(out);
    // The files whose rows are kept (a copy of an earlier file is listed, its rows not kept).
    let with_rows: std::collections::HashSet<&str> = out.rows.iter().map(|r| r.file.as_str()).collect();
    let names: Vec<String> =
        out.files.iter().filter(|f| with_rows.contains(f.name.as_str())).map(|f| f.name.clone()).collect();
    if names.len() < 2 {
        return;
    }
    let short = crate::outcomes::distinguishing_names(&names);
    let arm_of: HashMap<&str, &str> = names.iter().map(String::as_str).zip(short.iter().map(String::as_str)).collect();
    for r in &mut out.rows {
        r.arm = arm_of.get(r.file.as_str()).map(|a| (*a).to_string());
    }
    for (name, arm) in names.iter().zip(&short) {
        out.warnings.add(AnswerWarningKind::ArmFromFile, || format!("{name} → `{arm}`"));
    }
}

/// Answer files without a gold column (LongMemEval's hypothesis files) take each query's gold
/// answers — and its dataset (`question_type`), category and question where they state none —
/// from the files of gold answers only (LongMemEval's dataset), by query id, and a note says
/// which file completed which. A query no gold file gives is left out and counted (`no_gold`:
/// unknown, never 0). Gold files that complete nothing (every answer file states its gold) are
/// said, never silently used or dropped; the first gold file giving a query wins, and another
/// giving it other gold answers is refused.
fn gold_from_files(out: &mut LoadedAnswers, gold_files: &[GoldFile], without_gold: &[String]) -> Result<()> {
    use super::read::GoldEntry;
    let mut by_id: HashMap<&str, (&GoldEntry, &str)> = HashMap::new();
    for g in gold_files {
        for e in &g.answers {
            match by_id.get(e.query_id.as_str()) {
                Some((first, file)) if first.gold != e.gold => {
                    return Err(Error::Ingest(crate::error::IngestError::new(
                        crate::error::Location::line(&g.file, e.line).with_field("gold"),
                        format!(
                            "query {} has other gold answers than in {file}, line {}: give one file of gold answers",
                            e.query_id, first.line
                        ),
                    )));
                }
                Some(_) => {}
                None => {
                    by_id.insert(e.query_id.as_str(), (e, g.file.as_str()));
                }
            }
        }
    }
    if gold_files.is_empty() {
        // No gold file: rows without gold are unknown, as a gold column's empty cells are.
        super::read::drop_without_gold(&mut out.rows, &mut out.warnings);
        return Ok(());
    }
    if without_gold.is_empty() {
        for g in gold_files {
            out.warnings.add(AnswerWarningKind::GoldFileUnused, || {
                format!(
                    "{}: every answer file states its own gold answers; its {} are not used",
                    g.file,
                    g.answers.len()
                )
            });
        }
        return Ok(());
    }
    // Per (answer file, gold file): the rows completed.
    let mut completed: Vec<((String, String), usize)> = Vec::new();
    let mut kept = Vec::with_capacity(out.rows.len());
    for mut r in std::mem::take(&mut out.rows) {
        if !r.gold.is_empty() {
            kept.push(r);
            continue;
        }
        let Some((e, file)) = by_id.get(r.query_id.as_str()) else {
            out.warnings.add(AnswerWarningKind::NoGold, || {
                format!("{}, line {}: {} (in no file of gold answers)", r.file, r.line, r.query_id)
            });
            continue;
        };
        if e.gold.is_empty() {
            out.warnings.add(AnswerWarningKind::NoGold, || format!("{file}, line {}: {}", e.line, e.query_id));
            continue;
        }
        r.gold = e.gold.clone();
        if r.dataset.is_none() {
            r.dataset = e.dataset.clone();
        }
        if r.category.is_none() {
            r.category = e.category;
        }
        if let Some(q) = &e.question
            && !r.other.iter().any(|(c, _)| c == "question")
        {
            r.other.push(("question".into(), q.clone()));
        }
        let key = (r.file.clone(), file.to_string());
        match completed.iter_mut().find(|(k, _)| *k == key) {
            Some((_, n)) => *n += 1,
            None => completed.push((key, 1)),
        }
        kept.push(r);
    }
    out.rows = kept;
    for ((answers, gold), n) in &completed {
        out.warnings.add(AnswerWarningKind::GoldFromFile, || {
            format!("{answers}: the gold answers of its {n} questions from {gold}, by query id")
        });
    }
    Ok(())
}
