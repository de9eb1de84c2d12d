//! Reading label files into one item × rater matrix ([`LabelSet`]).
//!
//! A file is a table: CSV/TSV with a header row, JSON Lines of flat objects, or a JSON array of
//! flat objects (`null` is a missing cell; numbers and booleans are read as their text). Two
//! layouts:
//!
//! * **long**: one row per (item, rater, label) — a rater column and a label column;
//! * **wide**: one row per item, one column per rater holding its label.
//!
//! The item is one column or several joined with `/` (`run_label/query_index` in TIAP's
//! `judged_cases.csv`). Every cell is trimmed; an empty cell or a missing marker (`NA`, `null`,
//! …) is a missing label. With stated classes, a label outside them is counted as invalid (a
//! missing label, with the file and line of its first examples), never guessed at. Two labels
//! of one rater for one item are refused unless `repeats = first` (the first is kept, and
//! repeats whose label differs are counted as conflicts).

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::{Layout, Repeats};
use crate::error::{Error, IngestError, Location, Result};
use crate::fields::mention;
use crate::ingest::InputFile;
use crate::ingest::table::{Example, Tally, is_missing, rows};

/// Column names taken for the item when none is stated, in order of preference.
pub const ITEM_COLUMNS: &[&str] = &["item", "item_id", "case_id", "id", "query_id", "question_id"];
/// Column names taken for the rater of a long file.
pub const RATER_COLUMNS: &[&str] = &["rater", "judge", "judge_model", "annotator", "model", "labeler"];
/// Column names taken for the label of a long file.
pub const LABEL_COLUMNS: &[&str] = &["label", "judge_semantic_label", "judgment", "judgement", "verdict", "rating"];

/// Whether the bytes look like a label table: a header (or keys) with an item column and
/// either a label column or at least two other columns.
pub fn looks_like_labels(file: &InputFile) -> bool {
    let Ok(rows) = rows(file) else { return false };
    let has = |names: &[&str]| rows.headers.iter().any(|h| names.contains(&h.as_str()));
    (has(ITEM_COLUMNS) || (has(&["run_label"]) && has(&["query_index"])))
        && (has(LABEL_COLUMNS) || rows.headers.len() >= 3)
}

/// How a file was read: the columns used and the layout.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reading {
    pub file: String,
    pub layout: Layout,
    pub item: Vec<String>,
    /// Long: the rater column.
    pub rater: Option<String>,
    /// Long: the label column.
    pub label: Option<String>,
    /// Wide: the rater columns.
    pub rater_columns: Vec<String>,
    pub group: Option<String>,
    pub stratum: Option<String>,
    pub records: usize,
    /// A wide file without an item column: each row is one item, named `FILE:LINE`.
    #[serde(default)]
    pub items_by_line: bool,
    /// Wide: rater columns with no label in any row (a blank form, such as an annotator's
    /// template): left out, no rater's labels and no missing ones.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub blank_columns: Vec<String>,
}

/// The blank forms among `readings`, each `FILE (COLUMN, …)`.
pub fn blank_forms(readings: &[Reading]) -> Vec<String> {
    readings
        .iter()
        .filter(|x| !x.blank_columns.is_empty())
        .map(|x| format!("{} ({})", x.file, x.blank_columns.join(", ")))
        .collect()
}

impl Reading {
    /// The item column(s) in words: `id`, `run_label+query_index`, or each row's line.
    pub fn item_text(&self) -> String {
        if self.items_by_line { "each row (by its line)".into() } else { self.item.join("+") }
    }
}

/// What reading left out or kept aside, counted.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Problems {
    /// Empty or missing-marker labels.
    pub missing: Tally,
    /// Labels outside the stated classes (read as missing).
    pub invalid: Tally,
    /// Second and later labels of one rater for one item (with `repeats = first`).
    pub repeats: Tally,
    /// Repeats whose label differs from the kept one.
    pub conflicts: Tally,
    /// Items whose rows give different group or stratum values (the first is kept).
    pub inconsistent: Tally,
}

/// One item: its labels per rater (class indices; `None`: no valid label).
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    pub id: String,
    pub group: Option<String>,
    /// The stratum value (a number, e.g. the credited rank), for the stratified sample.
    pub stratum: Option<f64>,
    pub stratum_text: Option<String>,
    pub labels: Vec<Option<u32>>,
    /// Where each label was read (file, line), for examples.
    pub first_seen: (usize, usize),
}

/// The item × rater matrix read from every file.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LabelSet {
    pub raters: Vec<String>,
    pub classes: Vec<String>,
    /// Whether the classes were stated (else: the labels in the order first seen).
    pub classes_stated: bool,
    pub items: Vec<Item>,
    pub readings: Vec<Reading>,
    pub problems: Problems,
    /// The recodes applied, each with the labels it changed (stated order).
    pub recoded: Vec<Recoded>,
    /// Each rater's position in `raters` (a lookup per label, not a scan: wide files can have
    /// many rater columns).
    rater_index: HashMap<String, usize>,
    /// Where each (item, rater) label was read, `(reading, line)`, kept across files so that a
    /// repeat names both places.
    label_at: HashMap<(usize, usize), (usize, usize)>,
}

/// More raters than this is a wrong column (or a table that is not a label file), not a panel:
/// every pair of raters gets a kappa with its interval.
pub const MAX_RATERS: usize = 1000;
/// More classes than this is free text or scores, not labels (kappas use class × class tables).
pub const MAX_CLASSES: usize = 1000;
/// The characters of a label quoted in an error at most (a text column read as labels).
const QUOTED_LABEL_CHARS: usize = 80;
/// Largest item × rater matrix built (memory stays bounded, also in the browser).
pub const MAX_CELLS: usize = 10_000_000;

/// The column options of a read.
#[derive(Debug, Clone, Default)]
pub struct ColumnOptions<'a> {
    pub layout: Layout,
    pub item: &'a [String],
    pub rater: Option<&'a str>,
    pub label: Option<&'a str>,
    pub raters: &'a [String],
    pub group: Option<&'a str>,
    pub stratum: Option<&'a str>,
    pub classes: &'a [String],
    pub repeats: Repeats,
    /// Labels read as another (`recode`: from, to), before the classes are looked up.
    pub recode: &'a [(String, String)],
}

/// One recode of the labels read: `from` read as `to`, in `labels` labels.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Recoded {
    pub from: String,
    pub to: String,
    pub labels: usize,
}

/// The recodes a `recode` setting states: `FROM=TO` entries, FROM one label or several
/// comma-separated (`suport_ok,supprt_ok=supports_ok`). A label recoded twice, an empty side
/// or a label recoded to itself is refused.
pub fn parse_recode(entries: &[String]) -> Result<Vec<(String, String)>> {
    let mut out: Vec<(String, String)> = Vec::new();
    for e in entries.iter().flat_map(|e| e.split(';')).map(str::trim).filter(|e| !e.is_empty()) {
        let Some((from, to)) = e.split_once('=') else {
            return Err(Error::setting("recode", format!("`{e}` is not FROM=TO (e.g. suport_ok=supports_ok)")));
        };
        let to = to.trim();
        if to.is_empty() {
            return Err(Error::setting("recode", format!("`{e}` names no label to read `{}` as", from.trim())));
        }
        for f in from.split(',').map(str::trim) {
            if f.is_empty() || f == to {
                return Err(Error::setting("recode", format!("`{e}`: each FROM is a label other than `{to}`")));
            }
            if out.iter().any(|(x, _)| x == f) {
                return Err(Error::setting("recode", format!("label `{f}` is recoded twice")));
            }
            out.push((f.to_string(), to.to_string()));
        }
    }
    Ok(out)
}

/// A label file too large to be one: `what` (raters, classes or labels) past its cap.
fn too_many(at: Location, what: String) -> Error {
    Error::Ingest(IngestError::new(
        at,
        format!(
            "{what}, the most read as a label set: is this a label file? The rater column (or, in a wide \
             file, each column besides the item) should name a rater and the label a class; state the \
             columns ({}, {}, {}, {}) or split the file",
            mention("item"),
            mention("rater"),
            mention("label"),
            mention("raters")
        ),
    ))
}

fn column_error(file: &str, what: &str, option: &str, headers: &[String]) -> Error {
    Error::Ingest(IngestError::new(
        Location::file(file).with_field(what.to_string()),
        format!("no {what} column: state it with {option} (the columns are: {})", headers.join(", ")),
    ))
}

/// The stated column, else the first of `auto` present, else the first nested column whose
/// last key is one of `auto`, in `auto`'s order (LongMemEval's `autoeval_label.model` and
/// `autoeval_label.label`); the columns taken are recorded in the reading.
fn find(headers: &[String], stated: Option<&str>, auto: &[&str]) -> Option<usize> {
    match stated {
        Some(s) => headers.iter().position(|h| h == s),
        None => auto.iter().find_map(|a| headers.iter().position(|h| h == a)).or_else(|| {
            auto.iter()
                .find_map(|a| headers.iter().position(|h| h.rsplit_once('.').is_some_and(|(_, last)| last == *a)))
        }),
    }
}

fn stated_column(file: &str, headers: &[String], name: &str, option: &str) -> Result<usize> {
    headers.iter().position(|h| h == name).ok_or_else(|| {
        Error::Ingest(IngestError::new(
            Location::file(file).with_field(name.to_string()),
            format!(
                "{option} names the column `{name}`, which this file does not have (its columns: {})",
                headers.join(", ")
            ),
        ))
    })
}

impl LabelSet {
    /// A set with these stated classes (empty: classes as first seen).
    /// A set with these stated classes (empty: classes as first seen) and raters (empty:
    /// raters as first seen; stated, they come first and in this order).
    pub fn new(classes: &[String], raters: &[String]) -> LabelSet {
        let mut rater_index = HashMap::new();
        for (i, r) in raters.iter().enumerate() {
            rater_index.entry(r.clone()).or_insert(i);
        }
        LabelSet {
            classes: classes.to_vec(),
            classes_stated: !classes.is_empty(),
            raters: raters.to_vec(),
            rater_index,
            ..LabelSet::default()
        }
    }

    /// The rater called `name`, added when new (refused past [`MAX_RATERS`] or [`MAX_CELLS`],
    /// at `at`).
    fn rater(&mut self, name: &str, at: impl Fn() -> Location) -> Result<usize> {
        if let Some(&i) = self.rater_index.get(name) {
            return Ok(i);
        }
        if self.raters.len() >= MAX_RATERS {
            return Err(too_many(at(), format!("more than {MAX_RATERS} raters")));
        }
        self.check_cells(self.items.len(), self.raters.len() + 1, at)?;
        self.raters.push(name.to_string());
        self.rater_index.insert(name.to_string(), self.raters.len() - 1);
        for it in &mut self.items {
            it.labels.push(None);
        }
        Ok(self.raters.len() - 1)
    }

    /// Forgets where each label was read, once every file is read: the places serve only to
    /// name a repeat's first line, and the set is kept between runs.
    pub fn done_reading(&mut self) {
        self.label_at = HashMap::new();
    }

    fn check_cells(&self, items: usize, raters: usize, at: impl Fn() -> Location) -> Result<()> {
        if items.saturating_mul(raters) > MAX_CELLS {
            return Err(too_many(at(), format!("{items} items × {raters} raters, more than {MAX_CELLS} labels")));
        }
        Ok(())
    }

    /// Adds one file's rows.
    pub fn add(&mut self, file_index: usize, file: &InputFile, o: &ColumnOptions<'_>) -> Result<()> {
        let rows = rows(file)?;
        let name = file.name.as_str();
        let h = &rows.headers;
        let rater_col = match o.rater {
            Some(r) => Some(stated_column(name, h, r, &mention("rater"))?),
            None => find(h, None, RATER_COLUMNS),
        };
        let label_col = match o.label {
            Some(l) => Some(stated_column(name, h, l, &mention("label"))?),
            None => find(h, None, LABEL_COLUMNS),
        };
        let layout = match o.layout {
            Layout::Auto if rater_col.is_some() && label_col.is_some() => Layout::Long,
            Layout::Auto => Layout::Wide,
            l => l,
        };
        // A wide file without an item column: each row is one item, named by its line (said
        // in the reading and a headline) — only when the layout is stated wide: a file of
        // other columns (compliance rows, a long file missing its rater column) is not taken
        // for one. A long file needs the column: its rows are labels.
        let mut items_by_line = false;
        let item_cols: Vec<usize> = if o.item.is_empty() {
            match find(h, None, ITEM_COLUMNS) {
                Some(i) => vec![i],
                None => match (find(h, Some("run_label"), &[]), find(h, Some("query_index"), &[])) {
                    (Some(a), Some(b)) => vec![a, b],
                    _ if o.layout == Layout::Wide => {
                        items_by_line = true;
                        Vec::new()
                    }
                    _ => {
                        let hint = format!(
                            "; or, for a wide file whose rows are the items, state {} wide to take each row as one item",
                            mention("layout")
                        );
                        return Err(column_error(name, "item", &format!("{}{hint}", mention("item")), h));
                    }
                },
            }
        } else {
            o.item.iter().map(|c| stated_column(name, h, c, &mention("item"))).collect::<Result<_>>()?
        };
        let group = o.group.map(|g| stated_column(name, h, g, &mention("group"))).transpose()?;
        let stratum = o.stratum.map(|s| stated_column(name, h, s, &mention("stratum"))).transpose()?;
        let used: Vec<usize> = item_cols.iter().copied().chain(group).chain(stratum).collect();
        let mut wide_cols: Vec<usize> = match layout {
            Layout::Wide if !o.raters.is_empty() => {
                o.raters.iter().map(|c| stated_column(name, h, c, &mention("raters"))).collect::<Result<_>>()?
            }
            Layout::Wide => (0..h.len()).filter(|i| !used.contains(i)).collect(),
            _ => Vec::new(),
        };
        // A rater column blank in every row is a form nobody filled (reclaim-eval's
        // `annotator_template.csv` beside `rater2.csv`, both with a column `label`): left out and
        // said, never a rater whose every label is missing, nor pooled with a namesake.
        let blank: Vec<usize> = if rows.records.is_empty() {
            Vec::new()
        } else {
            wide_cols.iter().copied().filter(|&c| rows.records.iter().all(|(_, r)| is_missing(&r[c]))).collect()
        };
        wide_cols.retain(|c| !blank.contains(c));
        if layout == Layout::Long && (rater_col.is_none() || label_col.is_none()) {
            let what = if rater_col.is_none() { "rater" } else { "label" };
            return Err(column_error(name, what, &mention(what), h));
        }
        if wide_cols.len() > MAX_RATERS {
            return Err(too_many(
                Location::line(name, 1),
                format!(
                    "{} rater columns (every column besides the item), more than {MAX_RATERS} raters",
                    wide_cols.len()
                ),
            ));
        }
        if layout == Layout::Wide && wide_cols.is_empty() && blank.is_empty() {
            return Err(Error::Ingest(IngestError::new(
                Location::file(name),
                format!(
                    "a wide label file needs one column per rater besides the item column(s): none is left \
                     (for one row per label, give {} long with {} and {})",
                    mention("layout"),
                    mention("rater"),
                    mention("label")
                ),
            )));
        }
        self.readings.push(Reading {
            file: name.to_string(),
            layout,
            item: item_cols.iter().map(|&i| h[i].clone()).collect(),
            rater: rater_col.filter(|_| layout == Layout::Long).map(|i| h[i].clone()),
            label: label_col.filter(|_| layout == Layout::Long).map(|i| h[i].clone()),
            rater_columns: wide_cols.iter().map(|&i| h[i].clone()).collect(),
            group: group.map(|i| h[i].clone()),
            stratum: stratum.map(|i| h[i].clone()),
            records: rows.records.len(),
            items_by_line,
            blank_columns: blank.iter().map(|&i| h[i].clone()).collect(),
        });
        if layout == Layout::Wide && wide_cols.is_empty() {
            // Nothing but blank columns: no item of this file is labelled, none is added.
            return Ok(());
        }
        let mut index: HashMap<String, usize> =
            self.items.iter().enumerate().map(|(i, it)| (it.id.clone(), i)).collect();
        let reading = self.readings.len() - 1;
        let allowed: Vec<String> = o.raters.to_vec();
        for (line, rec) in &rows.records {
            let parts: Vec<&str> = item_cols.iter().map(|&i| rec[i].as_str()).collect();
            if parts.iter().any(|p| p.is_empty()) {
                let col = item_cols.iter().find(|&&i| rec[i].is_empty()).map_or(String::new(), |&i| h[i].clone());
                return Err(Error::Ingest(IngestError::new(
                    Location::line(name, *line).with_field(col),
                    "the item id is empty: every row needs one",
                )));
            }
            let id = if items_by_line { format!("{name}:{line}") } else { parts.join("/") };
            let g = group.map(|i| rec[i].clone()).filter(|s| !s.is_empty());
            let st_text = stratum.map(|i| rec[i].clone()).filter(|s| !is_missing(s));
            let st = match &st_text {
                Some(t) => Some(t.parse::<f64>().ok().filter(|x| x.is_finite()).ok_or_else(|| {
                    Error::Ingest(IngestError::new(
                        Location::line(name, *line).with_field(h[stratum.unwrap_or_default()].clone()),
                        format!(
                            "the stratum `{t}` is not a number (the stratified sample buckets numbers, e.g. a rank)"
                        ),
                    ))
                })?),
                None => None,
            };
            let at = match index.get(&id) {
                Some(&i) => {
                    let it = &self.items[i];
                    if (g.is_some() && it.group.is_some() && it.group != g)
                        || (st.is_some() && it.stratum.is_some() && it.stratum != st)
                    {
                        let detail = format!(
                            "group/stratum {}/{} here, {}/{} first",
                            g.clone().unwrap_or_default(),
                            st_text.clone().unwrap_or_default(),
                            it.group.clone().unwrap_or_default(),
                            it.stratum_text.clone().unwrap_or_default()
                        );
                        self.problems.inconsistent.add(|| Example {
                            file: name.into(),
                            line: *line,
                            item: id.clone(),
                            rater: String::new(),
                            detail,
                        });
                    }
                    let it = &mut self.items[i];
                    if it.group.is_none() {
                        it.group = g;
                    }
                    if it.stratum.is_none() {
                        it.stratum = st;
                        it.stratum_text = st_text;
                    }
                    i
                }
                None => {
                    self.check_cells(self.items.len() + 1, self.raters.len(), || Location::line(name, *line))?;
                    self.items.push(Item {
                        id: id.clone(),
                        group: g,
                        stratum: st,
                        stratum_text: st_text,
                        labels: vec![None; self.raters.len()],
                        first_seen: (file_index, *line),
                    });
                    index.insert(id.clone(), self.items.len() - 1);
                    self.items.len() - 1
                }
            };
            let cells: Vec<(String, String)> = match layout {
                Layout::Long => {
                    let r = rec[rater_col.unwrap_or_default()].clone();
                    if r.is_empty() {
                        return Err(Error::Ingest(IngestError::new(
                            Location::line(name, *line).with_field(h[rater_col.unwrap_or_default()].clone()),
                            "the rater is empty: every row of a long label file names its rater",
                        )));
                    }
                    if !allowed.is_empty() && !allowed.contains(&r) {
                        continue;
                    }
                    vec![(r, rec[label_col.unwrap_or_default()].clone())]
                }
                _ => wide_cols.iter().map(|&c| (h[c].clone(), rec[c].clone())).collect(),
            };
            for (rater, label) in cells {
                // Where a cell's rater or label sits: its column in a long file; in a wide file,
                // the rater's column holds both.
                let cell_at = |long_col: Option<usize>| {
                    let field =
                        if layout == Layout::Long { h[long_col.unwrap_or_default()].clone() } else { rater.clone() };
                    Location::line(name, *line).with_field(field)
                };
                let r = self.rater(&rater, || cell_at(rater_col))?;
                if is_missing(&label) {
                    self.problems.missing.add(|| Example {
                        file: name.into(),
                        line: *line,
                        item: id.clone(),
                        rater: rater.clone(),
                        detail: "no label".into(),
                    });
                    continue;
                }
                let label = match o.recode.iter().position(|(from, _)| *from == label) {
                    Some(i) => {
                        let (from, to) = &o.recode[i];
                        match self.recoded.iter_mut().find(|r| r.from == *from) {
                            Some(r) => r.labels += 1,
                            None => self.recoded.push(Recoded { from: from.clone(), to: to.clone(), labels: 1 }),
                        }
                        to.clone()
                    }
                    None => label,
                };
                let class = match self.classes.iter().position(|c| *c == label) {
                    Some(c) => c,
                    None if self.classes_stated => {
                        self.problems.invalid.add(|| Example {
                            file: name.into(),
                            line: *line,
                            item: id.clone(),
                            rater: rater.clone(),
                            detail: format!("`{label}` is not one of the classes {}", self.classes.join(", ")),
                        });
                        continue;
                    }
                    None if self.classes.len() >= MAX_CLASSES => {
                        // A column of texts (an answer, a reason) read as labels: its first
                        // words say which, the whole text would bury the message.
                        let mut shown: String = label.chars().take(QUOTED_LABEL_CHARS).collect();
                        if label.chars().nth(QUOTED_LABEL_CHARS).is_some() {
                            shown = format!("{}… ({} characters)", shown.trim_end(), label.chars().count());
                        }
                        return Err(too_many(
                            cell_at(label_col),
                            format!("more than {MAX_CLASSES} classes (labels such as `{shown}`)"),
                        ));
                    }
                    None => {
                        self.classes.push(label.clone());
                        self.classes.len() - 1
                    }
                } as u32;
                match self.items[at].labels[r] {
                    None => {
                        self.items[at].labels[r] = Some(class);
                        self.label_at.insert((at, r), (reading, *line));
                    }
                    Some(kept) => {
                        let (first_file, first_line) = self
                            .label_at
                            .get(&(at, r))
                            .map(|&(ri, l)| (self.readings[ri].file.clone(), l))
                            .unwrap_or_default();
                        if o.repeats == Repeats::Refuse {
                            // The same rater column in two wide files: most often one file per
                            // rater, each naming its column alike.
                            let other_file = if first_file != name && layout == Layout::Wide {
                                format!(
                                    "; {first_file} and {name} both have the rater column `{rater}`, read as one \
                                     rater: if each file is one rater's, name the column after the rater in each file"
                                )
                            } else {
                                String::new()
                            };
                            return Err(Error::Ingest(IngestError::new(
                                Location::line(name, *line).with_field(rater.clone()),
                                format!(
                                    "item `{id}` already has a label from rater `{rater}` ({first_file}, line {first_line}): \
                                     give {} first to keep the first label of each (item, rater) and count the \
                                     repeats, or add the column that tells them apart to {}{other_file}",
                                    mention("repeats"),
                                    mention("item")
                                ),
                            )));
                        }
                        let detail = format!(
                            "`{label}` here, `{}` kept from {first_file}, line {first_line}",
                            self.classes[kept as usize]
                        );
                        if kept != class {
                            self.problems.conflicts.add(|| Example {
                                file: name.into(),
                                line: *line,
                                item: id.clone(),
                                rater: rater.clone(),
                                detail: detail.clone(),
                            });
                        }
                        self.problems.repeats.add(|| Example {
                            file: name.into(),
                            line: *line,
                            item: id.clone(),
                            rater: rater.clone(),
                            detail,
                        });
                    }
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(name: &str, text: String) -> Result<LabelSet> {
        let mut set = LabelSet::new(&[], &[]);
        set.add(0, &InputFile::new(name, text), &ColumnOptions::default())?;
        Ok(set)
    }

    fn refusal(r: Result<LabelSet>) -> IngestError {
        match r {
            Err(Error::Ingest(e)) => e,
            other => panic!("expected an input error, got {other:?}"),
        }
    }

    #[test]
    fn a_wide_file_with_more_rater_columns_than_the_cap_is_refused_at_its_header() {
        let cols: Vec<String> = (0..=MAX_RATERS).map(|i| format!("r{i}")).collect();
        let text = format!("item,{}\nq1,{}\n", cols.join(","), vec!["yes"; cols.len()].join(","));
        let e = refusal(read("w.csv", text));
        assert_eq!(e.location, Location::line("w.csv", 1));
        assert!(
            e.message.starts_with("1001 rater columns (every column besides the item), more than 1000 raters"),
            "{}",
            e.message
        );
        // At the cap, the file is read.
        let cols = &cols[..MAX_RATERS];
        let text = format!("item,{}\nq1,{}\n", cols.join(","), vec!["yes"; cols.len()].join(","));
        assert_eq!(read("w.csv", text).unwrap().raters.len(), MAX_RATERS);
    }

    #[test]
    fn a_long_file_past_the_rater_or_class_cap_is_refused_at_the_line() {
        let rows: String = (0..=MAX_RATERS).map(|i| format!("q1,r{i},yes\n")).collect();
        let e = refusal(read("l.csv", format!("item,rater,label\n{rows}")));
        assert_eq!(e.location, Location::line("l.csv", MAX_RATERS + 2).with_field("rater".to_string()));
        assert!(e.message.starts_with("more than 1000 raters"), "{}", e.message);
        let rows: String = (0..=MAX_CLASSES).map(|i| format!("q{i},a,{i}\n")).collect();
        let e = refusal(read("c.csv", format!("item,rater,label\n{rows}")));
        assert_eq!(e.location, Location::line("c.csv", MAX_CLASSES + 2).with_field("label".to_string()));
        assert!(e.message.starts_with("more than 1000 classes (labels such as `1000`)"), "{}", e.message);
        // A column of long texts read as labels: the label quoted is cut, its length said.
        let rows: String = (0..=MAX_CLASSES).map(|i| format!("q{i},a,{i} {}\n", "word ".repeat(40))).collect();
        let e = refusal(read("t.csv", format!("item,rater,label\n{rows}")));
        let want = format!(
            "more than 1000 classes (labels such as `1000 {}… (204 characters)`)",
            "word ".repeat(15).trim_end()
        );
        assert!(e.message.starts_with(&want), "{}", e.message);
    }

    #[test]
    fn a_nested_rater_and_label_are_found_by_their_last_key() {
        // LongMemEval's judged answers, one judge per file: two files, two raters.
        let judged = |model: &str, labels: [bool; 3]| {
            labels
                .iter()
                .enumerate()
                .map(|(i, l)| format!("{{\"question_id\": \"q{i}\", \"hypothesis\": \"an answer, long\", \"autoeval_label\": {{\"model\": \"{model}\", \"label\": {l}}}}}\n"))
                .collect::<String>()
        };
        let mut set = LabelSet::new(&[], &[]);
        let o = ColumnOptions::default();
        set.add(0, &InputFile::new("a.jsonl", judged("gpt-4o-mini", [true, false, true])), &o).unwrap();
        set.add(1, &InputFile::new("b.jsonl", judged("gpt-4o", [true, true, true])), &o).unwrap();
        let r = &set.readings[0];
        assert_eq!(
            (r.layout, r.rater.as_deref(), r.label.as_deref()),
            (Layout::Long, Some("autoeval_label.model"), Some("autoeval_label.label"))
        );
        assert_eq!(r.item, ["question_id"]);
        assert_eq!(set.raters, ["gpt-4o-mini", "gpt-4o"]);
        assert_eq!(set.classes, ["true", "false"]);
        assert_eq!(set.items[1].labels, [Some(1), Some(0)]);
    }

    #[test]
    fn raters_are_found_by_name_in_the_order_first_seen() {
        let set = read("l.csv", "item,rater,label\nq1,b,x\nq1,a,y\nq2,b,y\nq2,a,x\n".to_string()).unwrap();
        assert_eq!(set.raters, ["b", "a"]);
        assert_eq!(set.items[0].labels, [Some(0), Some(1)]);
        assert_eq!(set.items[1].labels, [Some(1), Some(0)]);
    }
}
