//! Reading per-item routing rows: a table (CSV/TSV, JSON Lines, JSON array) with a confidence
//! column, the outcome without memory, and optionally the outcome with memory, whether memory
//! was applied, and a split. Columns are found by name (stated, else the first alias present);
//! a row whose confidence or outcome is missing is counted and left out, never read as 0.

use serde::{Deserialize, Serialize};

use crate::error::{Error, IngestError, Location, Result};
use crate::fields::mention;
use crate::ingest::InputFile;
use crate::ingest::table::{Example, Tally, find_column, has_columns, is_missing, parse_bool, required_column, rows};
use crate::outcomes::parse_number;

/// Aliases of the confidence column, in order of preference.
pub const CONFIDENCE: &[&str] = &["confidence", "conf", "c", "score", "answer_logprob_mean", "logprob", "c_t"];
/// Aliases of the outcome without memory.
pub const CORRECT: &[&str] = &["correct", "baseline_correct", "is_correct", "base_correct"];
/// Aliases of the outcome with memory.
pub const WITH_MEMORY: &[&str] = &["with_memory", "memory_correct", "second_correct", "with_memory_correct"];
/// Aliases of "memory was applied".
pub const APPLIED: &[&str] = &["applied", "routed", "accepted", "injected", "route"];
/// Aliases of the memory entries a routed item retrieved (bank governance).
pub const ENTRIES: &[&str] = &["retrieved_ids", "entry_ids", "entries", "retrieved_entries", "memory_ids"];
/// Aliases of the item id.
pub const ITEM: &[&str] = &["item", "item_id", "id", "example_idx", "query_id", "question_id"];

/// One item.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    pub id: String,
    pub confidence: f64,
    pub correct: bool,
    pub with_memory: Option<bool>,
    pub applied: Option<bool>,
    pub split: Option<String>,
    /// The memory entries it retrieved (empty when not given).
    pub entries: Vec<String>,
    /// Where its confidence was read (file, line, column): a confidence the scale refuses is
    /// refused there.
    pub confidence_at: Location,
}

/// The columns a file was read with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reading {
    pub file: String,
    pub item: Option<String>,
    pub confidence: String,
    pub correct: String,
    pub with_memory: Option<String>,
    pub applied: Option<String>,
    pub split: Option<String>,
    #[serde(default)]
    pub entries: Option<String>,
    pub records: usize,
}

/// The stated column names (`None`: the first alias present).
#[derive(Debug, Clone, Default)]
pub struct ColumnNames<'a> {
    pub item: Option<&'a str>,
    pub confidence: Option<&'a str>,
    pub correct: Option<&'a str>,
    pub with_memory: Option<&'a str>,
    pub applied: Option<&'a str>,
    pub split: Option<&'a str>,
    pub entries: Option<&'a str>,
}

/// Every item read, the readings and what was left out.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Routed {
    pub items: Vec<Item>,
    pub readings: Vec<Reading>,
    /// Rows without a confidence or an outcome (left out).
    pub missing: Tally,
    /// The rows as the cells mechanism sees them ([`Routed::form_cells`]).
    pub frame: crate::cells::Frame,
    /// Whether the rows carry an item id.
    pub identified: bool,
    /// How the rows became cells ([`Routed::form_cells`]).
    pub cells: crate::cells::CellReport,
}

/// The entries of a cell: a JSON array (`["E3", "E23"]`, numbers as their text) or names
/// separated by `;`, `,`, `|` or spaces; empty for an empty cell.
fn entry_list(cell: &str) -> std::result::Result<Vec<String>, &'static str> {
    let t = cell.trim();
    if t.starts_with('[') {
        let Ok(serde_json::Value::Array(a)) = crate::ingest::json::from_str(t) else {
            return Err("a list of entries (a JSON array of ids, or ids separated by `;`)");
        };
        return a
            .iter()
            .map(|v| match v {
                serde_json::Value::String(s) if !s.trim().is_empty() => Ok(s.trim().to_string()),
                serde_json::Value::Number(n) => Ok(n.to_string()),
                _ => Err("a list of entries: each a non-empty id (a string or a number)"),
            })
            .collect();
    }
    Ok(t.split([';', ',', '|', ' ']).map(str::trim).filter(|s| !s.is_empty()).map(str::to_string).collect())
}

/// Whether a file looks like routing rows: a confidence and an outcome column.
pub fn looks_like_routing(file: &InputFile) -> bool {
    has_columns(file, &[CONFIDENCE, CORRECT])
}

impl Routed {
    /// Adds one file's rows.
    pub fn add(&mut self, file: &InputFile, names: &ColumnNames<'_>) -> Result<()> {
        let t = rows(file)?;
        let name = file.name.as_str();
        let h = &t.headers;
        let conf = required_column(name, h, names.confidence, CONFIDENCE, &mention("confidence"), "confidence")?;
        let corr = required_column(name, h, names.correct, CORRECT, &mention("correct"), "outcome")?;
        let mem = find_column(name, h, names.with_memory, WITH_MEMORY, &mention("with_memory"))?;
        let app = find_column(name, h, names.applied, APPLIED, &mention("applied"))?;
        let item = find_column(name, h, names.item, ITEM, &mention("item"))?;
        let entries = find_column(name, h, names.entries, ENTRIES, &mention("entries"))?;
        let split = match names.split {
            Some(s) => find_column(name, h, Some(s), &[], &mention("split"))?,
            None => None,
        };
        // A replicate (a seed) is part of an item's identity: TAG runs every problem at 3 seeds.
        let replicate =
            item.and_then(|_| crate::cells::REPLICATE_COLUMNS.iter().find_map(|c| h.iter().position(|x| x == c)));
        let read: Vec<usize> =
            [Some(conf), Some(corr), mem, app, item, split, replicate, entries].into_iter().flatten().collect();
        if self.frame.is_empty() {
            let ids: Vec<&str> = [item, replicate].into_iter().flatten().map(|i| h[i].as_str()).collect();
            self.frame = crate::cells::Frame::new(&ids);
            self.identified = item.is_some();
        }
        self.readings.push(Reading {
            file: name.into(),
            item: item.map(|i| h[i].clone()),
            confidence: h[conf].clone(),
            correct: h[corr].clone(),
            with_memory: mem.map(|i| h[i].clone()),
            applied: app.map(|i| h[i].clone()),
            split: split.map(|i| h[i].clone()),
            entries: entries.map(|i| h[i].clone()),
            records: t.records.len(),
        });
        for (line, rec) in &t.records {
            let id = item.map_or_else(|| format!("{name}:{line}"), |i| rec[i].clone());
            let identity = item.map(|i| match replicate {
                Some(r) => format!("{}\u{1f}{}", rec[i], rec[r]),
                None => rec[i].clone(),
            });
            let left_out = |col: usize, detail: &str, tally: &mut Tally| {
                tally.add(|| Example {
                    file: name.to_string(),
                    line: *line,
                    item: id.clone(),
                    rater: String::new(),
                    detail: format!("{}: {detail}", h[col]),
                });
            };
            if is_missing(&rec[conf]) {
                left_out(conf, "no confidence", &mut self.missing);
                continue;
            }
            if is_missing(&rec[corr]) {
                left_out(corr, "no outcome", &mut self.missing);
                continue;
            }
            let bad = |col: usize, what: &str| {
                Error::Ingest(IngestError::new(
                    Location::line(name, *line).with_field(h[col].clone()),
                    format!("`{}` is not {what}", rec[col]),
                ))
            };
            let confidence = parse_number(&rec[conf]).ok_or_else(|| bad(conf, "a number"))?;
            let correct = parse_bool(&rec[corr]).ok_or_else(|| bad(corr, "an outcome (0/1, true/false)"))?;
            let flag = |c: Option<usize>| -> Result<Option<bool>> {
                match c {
                    Some(i) if !is_missing(&rec[i]) => {
                        parse_bool(&rec[i]).map(Some).ok_or_else(|| bad(i, "0/1 or true/false"))
                    }
                    _ => Ok(None),
                }
            };
            let with_memory = flag(mem)?;
            let applied = flag(app)?;
            let undeclared =
                h.iter().enumerate().filter(|(i, _)| !read.contains(i)).map(|(i, c)| (c.as_str(), rec[i].as_str()));
            let print = crate::cells::fingerprint(h.iter().map(String::as_str).zip(rec.iter().map(String::as_str)));
            let cell = split.map(|i| rec[i].clone()).unwrap_or_default();
            self.frame.push(name, *line, if self.identified { identity } else { None }, cell, undeclared, print);
            self.items.push(Item {
                id,
                confidence,
                correct,
                with_memory,
                applied,
                split: split.map(|i| rec[i].clone()).filter(|s| !s.is_empty()),
                entries: match entries {
                    Some(i) => entry_list(&rec[i]).map_err(|e| bad(i, e))?,
                    None => Vec::new(),
                },
                confidence_at: Location::line(name, *line).with_field(h[conf].clone()),
            });
        }
        Ok(())
    }

    /// Forms the cells once every file is read ([`crate::cells`]): a cell is a split (all items
    /// without one). This analysis keeps no cell per design value, so a design column found in
    /// the data is refused unless pooled; an item repeated within a split is refused; without
    /// item ids exactly repeated rows are counted. The problem set keeps its items.
    pub fn form_cells(&mut self, settings: &crate::cells::CellSettings) -> Result<()> {
        let design = crate::cells::Design::detect(&self.frame, settings)?;
        design.refuse_keyed("or state it as the split (setting `split`) when its values are splits of the items")?;
        let restriction = crate::cells::Restriction::of(settings);
        let mut excluded = crate::cells::Exclusions::default();
        if !restriction.is_none() {
            if !self.identified {
                return Err(Error::setting(
                    if settings.problems.is_some() { "problems" } else { "common_items" },
                    format!("these rows carry no item id ({}): give the id column (setting `item`)", ITEM.join(", ")),
                ));
            }
            let splits: Vec<String> = self.items.iter().map(|i| i.split.clone().unwrap_or_default()).collect();
            let refs: Vec<crate::cells::RowRef> = self
                .items
                .iter()
                .zip(&splits)
                .map(|(i, s)| crate::cells::RowRef { item: &i.id, identity: &i.id, panel: s, cell: s })
                .collect();
            let (keep, out) = restriction.apply(&refs, "items");
            excluded = out;
            let mut keep = keep.into_iter();
            self.items.retain(|_| keep.next().unwrap_or(true));
        }
        let splits = crate::distinct::groups_first_seen(self.items.iter(), |i| i.split.clone());
        let cells: Vec<crate::cells::CellItems> = splits
            .iter()
            .map(|(s, in_split)| {
                let items: Vec<String> = in_split.iter().map(|i| i.id.clone()).collect();
                let name = s.clone().unwrap_or_else(|| "all".into());
                crate::cells::CellItems {
                    cell: name.clone(),
                    panel: name,
                    rows: items.len(),
                    items: self.identified.then_some(items),
                }
            })
            .collect();
        let what = if self.identified { "items" } else { "rows" };
        self.cells =
            crate::cells::CellReport::new(settings, design, crate::cells::Populations::of(&cells, what), excluded);
        Ok(())
    }
}
