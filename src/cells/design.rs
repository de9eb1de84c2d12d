//! Design columns: which columns a capability does not read split its cells, and items
//! repeated within a cell.
//!
//! **With an identity** (rows name their item: `pid`, `seed`): a column is a design column of a
//! cell when it is *crossed* with the items that repeat there — every repeated item carries each
//! of its values the same number of times (within a tolerance of 5% of the (item, value)
//! combinations, so a missing trial does not hide a design) — reclaim-eval's `prompt` (four
//! prompts on every problem), `n` and `budget` of a size sweep, `H` and `planted` of a cascade.
//! Columns are taken one at a time, fewest values first, each within the cells the earlier ones
//! split, so a column that only follows another (`k_items` follows `budget`) is not taken. A
//! per-row measurement (a kept-items count, a flag) is not crossed and never splits a cell.
//! An item still repeated in one cell afterwards is refused, naming both lines and what differs.
//!
//! **Without an identity** (BriefBench's attempt rows): rows cannot be told apart, so a text
//! column with 2 to [`MAX_TEXT_VALUES`] values that varies within a cell is a design column
//! (`dataset`, `spec_variant`); numbers and flags are measurements. Exactly repeated rows are
//! counted and shown, never refused (two tasks may give the same values).
//!
//! A design column keys the cells (one cell per value, shown as a column) unless the settings
//! pool it; then it is listed as pooled and every result says so. Columns that vary but split
//! nothing are listed as unused, with why.

use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};

use serde::{Deserialize, Serialize};

use super::{CellSettings, EXAMPLES, some_of};
use crate::error::{Error, IngestError, Location, Result};

/// A design column has at most this many values (more is an id or a measurement).
pub const MAX_DESIGN_VALUES: usize = 50;
/// Without an identity, a text column with at most this many values can be a design column.
pub const MAX_TEXT_VALUES: usize = 20;
/// Pairs of columns are searched among at most this many candidate columns (in the order first
/// seen): 780 pairs.
const MAX_PAIR_COLUMNS: usize = 40;
/// Share of (item, value) combinations that must hold the commonest count for a crossed column.
const BALANCE: f64 = 0.95;
/// The value id of a row that has no value in a column.
const ABSENT: u32 = u32::MAX;

/// The rows of a capability as the cells mechanism sees them: where each was read, its identity,
/// its declared cell, and its values in the columns the capability does not read.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Frame {
    /// The names of the identity's columns (`pid`, `seed`), for messages; empty when the rows
    /// carry no identity.
    pub identity_columns: Vec<String>,
    files: Vec<String>,
    file_index: HashMap<String, u32>,
    columns: Vec<String>,
    column_index: HashMap<String, usize>,
    /// Per column: its distinct values by id, and the ids by value.
    values: Vec<Vec<String>>,
    value_index: Vec<HashMap<String, u32>>,
    rows: Vec<FrameRow>,
}

#[derive(Debug, Clone, PartialEq)]
struct FrameRow {
    file: u32,
    line: usize,
    identity: Option<String>,
    cell: String,
    /// Per column (by index; shorter when the column appeared later): the value id.
    cells: Vec<u32>,
    /// A hash of every field of the row (exact repeats).
    fingerprint: u64,
    /// The row's values of declared variables that vary within a cell (compliance's depth): a
    /// column that follows them is theirs, not a condition of its own.
    within: Option<String>,
}

/// A hash of a row's every field (name and value), for exact repeats; the order of the fields
/// does not matter.
pub fn fingerprint<'a>(fields: impl IntoIterator<Item = (&'a str, &'a str)>) -> u64 {
    let mut sorted: Vec<(&str, &str)> = fields.into_iter().collect();
    sorted.sort_unstable();
    let mut h = rustc_hash::FxHasher::default();
    sorted.hash(&mut h);
    h.finish()
}

impl Frame {
    /// A frame whose rows are identified by these columns (empty: rows without identity).
    pub fn new(identity_columns: &[&str]) -> Frame {
        Frame { identity_columns: identity_columns.iter().map(|s| s.to_string()).collect(), ..Frame::default() }
    }

    /// Adds a row: `identity` (`None` when the rows carry none), its declared `cell` (an opaque
    /// key), its values in the columns the capability does not read, and its
    /// [`fingerprint`].
    pub fn push<'a>(
        &mut self,
        file: &str,
        line: usize,
        identity: Option<String>,
        cell: String,
        undeclared: impl IntoIterator<Item = (&'a str, &'a str)>,
        fingerprint: u64,
    ) {
        let file = match self.file_index.get(file) {
            Some(&i) => i,
            None => {
                self.files.push(file.to_string());
                let i = (self.files.len() - 1) as u32;
                self.file_index.insert(file.to_string(), i);
                i
            }
        };
        let mut cells = vec![ABSENT; self.columns.len()];
        for (column, value) in undeclared {
            let c = match self.column_index.get(column) {
                Some(&c) => c,
                None => {
                    self.columns.push(column.to_string());
                    self.values.push(Vec::new());
                    self.value_index.push(HashMap::new());
                    self.column_index.insert(column.to_string(), self.columns.len() - 1);
                    cells.push(ABSENT);
                    self.columns.len() - 1
                }
            };
            let index = &mut self.value_index[c];
            let id = match index.get(value) {
                Some(&id) => id,
                None => {
                    self.values[c].push(value.to_string());
                    let id = (self.values[c].len() - 1) as u32;
                    index.insert(value.to_string(), id);
                    id
                }
            };
            if c >= cells.len() {
                cells.resize(c + 1, ABSENT);
            }
            cells[c] = id;
        }
        self.rows.push(FrameRow { file, line, identity, cell, cells, fingerprint, within: None });
    }

    /// Sets the last row's values of the declared variables that vary within a cell (compliance's
    /// depth): a text column that only follows them splits nothing.
    pub fn within(&mut self, values: String) {
        if let Some(r) = self.rows.last_mut() {
            r.within = Some(values);
        }
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The columns the capability does not read, in the order first seen.
    pub fn columns(&self) -> &[String] {
        &self.columns
    }

    fn value(&self, row: usize, column: usize) -> u32 {
        self.rows[row].cells.get(column).copied().unwrap_or(ABSENT)
    }

    fn text(&self, column: usize, id: u32) -> &str {
        if id == ABSENT { "" } else { &self.values[column][id as usize] }
    }

    fn at(&self, row: usize) -> String {
        format!("{}, line {}", self.files[self.rows[row].file as usize], self.rows[row].line)
    }

    fn has_identity(&self) -> bool {
        !self.identity_columns.is_empty()
    }
}

/// A column that keys (or, pooled, would key) the cells.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DesignColumn {
    pub column: String,
    /// Its values in the order first seen.
    pub values: Vec<String>,
    /// Why it is a design column, in words.
    pub reason: String,
}

/// A column the capability does not read that varies but splits no cell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UnusedColumn {
    pub column: String,
    pub distinct: usize,
    /// Why it splits nothing, in words.
    pub note: String,
}

/// Rows repeated exactly (rows without identity, where they cannot be refused).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RepeatedRows {
    pub count: usize,
    /// `file, line N repeats line M`, the first few.
    pub examples: Vec<String>,
}

/// What [`Design::detect`] found: the keyed, pooled and unused columns, and each row's values
/// in the keyed columns.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Design {
    pub keyed: Vec<DesignColumn>,
    pub pooled: Vec<DesignColumn>,
    pub unused: Vec<UnusedColumn>,
    pub repeated_rows: RepeatedRows,
    /// Per row of the frame: `(column, value)` of every keyed column.
    #[serde(skip)]
    pub row_keys: Vec<Vec<(String, String)>>,
}

impl Design {
    /// Finds the design columns of `frame` under `settings` (see the module documentation), or
    /// refuses an item repeated in one cell.
    pub fn detect(frame: &Frame, settings: &CellSettings) -> Result<Design> {
        for (setting, list) in [("split_by", &settings.split), ("pool", &settings.pool)] {
            if let Some(c) = list.iter().find(|c| !frame.column_index.contains_key(c.as_str())) {
                return Err(Error::setting(
                    setting,
                    format!(
                        "there is no column `{c}` among the columns this analysis does not already read{}",
                        if frame.columns.is_empty() {
                            " (there are none)".to_string()
                        } else {
                            format!(" ({})", frame.columns.join(", "))
                        }
                    ),
                ));
            }
        }
        let stated: Vec<usize> = settings.split.iter().map(|c| frame.column_index[c.as_str()]).collect();
        let (mut chosen, reasons) =
            if frame.has_identity() { crossed_columns(frame, &stated) } else { text_columns(frame, &stated) };
        let mut reasons = reasons;
        if frame.has_identity() && !chosen.is_empty() {
            for (c, why) in aliases(frame, &chosen) {
                chosen.push(c);
                reasons.insert(c, why);
            }
        }
        // Shown in the files' column order.
        chosen.sort_unstable();
        let describe = |c: usize| DesignColumn {
            column: frame.columns[c].clone(),
            values: frame.values[c].clone(),
            reason: reasons.get(&c).cloned().unwrap_or_else(|| "split by, as asked".into()),
        };
        let pooled_set: HashSet<usize> = settings.pool.iter().map(|c| frame.column_index[c.as_str()]).collect();
        let keyed: Vec<usize> = chosen.iter().copied().filter(|c| !pooled_set.contains(c)).collect();
        let mut design = Design {
            keyed: keyed.iter().map(|&c| describe(c)).collect(),
            pooled: settings
                .pool
                .iter()
                .map(|name| {
                    let c = frame.column_index[name.as_str()];
                    let mut d = describe(c);
                    if !chosen.contains(&c) {
                        d.reason = "pooled as asked (it split no cell)".into();
                    }
                    d
                })
                .collect(),
            ..Design::default()
        };
        if frame.has_identity() {
            refuse_repeats(frame, &chosen)?;
        } else {
            design.repeated_rows = exact_repeats(frame);
        }
        design.unused = unused_columns(frame, &chosen, &pooled_set);
        design.row_keys = (0..frame.len())
            .map(|r| {
                keyed
                    .iter()
                    .map(|&c| (frame.columns[c].clone(), frame.text(c, frame.value(r, c)).to_string()))
                    .collect()
            })
            .collect();
        Ok(design)
    }

    /// For an analysis that cannot show one cell per value: refuses the design columns found,
    /// naming each with its values, and says to pool them (the setting `pool`) or `otherwise`.
    pub fn refuse_keyed(&self, otherwise: &str) -> Result<()> {
        let Some(first) = self.keyed.first() else { return Ok(()) };
        let named: Vec<String> =
            self.keyed.iter().map(|k| format!("`{}` ({})", k.column, some_of(&k.values))).collect();
        Err(Error::setting(
            "pool",
            format!(
                "the rows vary in {} within one cell ({}): this analysis keeps no cell per value, and never pools \
                 them unasked: pool them ({}: {}), {otherwise}",
                named.join(", "),
                crate::fields::mention("pool"),
                first.reason,
                self.keyed.iter().map(|k| k.column.as_str()).collect::<Vec<_>>().join(",")
            ),
        ))
    }

    /// The keyed values of row `row` as `prompt=v0 n=4` (empty without keyed columns).
    pub fn key_text(&self, row: usize) -> String {
        self.row_keys.get(row).map(|k| key_text(k)).unwrap_or_default()
    }
}

/// `(column, value)` pairs as `prompt=v0 n=4`.
pub fn key_text(keys: &[(String, String)]) -> String {
    keys.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" ")
}

/// Groups the rows by their cell refined by the values of `columns`.
fn refined_cells(frame: &Frame, columns: &[usize]) -> HashMap<(String, Vec<u32>), Vec<usize>> {
    let mut out: HashMap<(String, Vec<u32>), Vec<usize>> = HashMap::new();
    for (r, row) in frame.rows.iter().enumerate() {
        let key: Vec<u32> = columns.iter().map(|&c| frame.value(r, c)).collect();
        out.entry((row.cell.clone(), key)).or_default().push(r);
    }
    out
}

/// The design columns of rows with an identity: the stated keys, then each crossed column,
/// fewest values first, within the cells the earlier ones split; when no single column is
/// crossed, a crossed pair (an incomplete factorial: `n` × `budget` run at three of four
/// combinations).
fn crossed_columns(frame: &Frame, stated: &[usize]) -> (Vec<usize>, HashMap<usize, String>) {
    let mut chosen: Vec<usize> = stated.to_vec();
    let mut reasons = HashMap::new();
    loop {
        let cells = refined_cells(frame, &chosen);
        let repeated_cells: Vec<Vec<Vec<usize>>> =
            cells.values().filter_map(|rows| repeated_items(frame, rows)).collect();
        if repeated_cells.is_empty() {
            return (chosen, reasons);
        }
        let free: Vec<usize> = (0..frame.columns.len())
            .filter(|c| !chosen.contains(c) && (2..=MAX_DESIGN_VALUES).contains(&frame.values[*c].len()))
            .collect();
        // The set with the fewest values in any cell it is crossed in (then the first columns):
        // the same whatever order the cells come in.
        let consider = |best: &mut Option<(Vec<usize>, usize)>, set: Vec<usize>| {
            for repeated in &repeated_cells {
                if let Some(c) = crossed(frame, repeated, &set)
                    && best.as_ref().is_none_or(|(b, bd)| (c.values, &set) < (*bd, b))
                {
                    *best = Some((set.clone(), c.values));
                }
            }
        };
        let mut best: Option<(Vec<usize>, usize)> = None;
        for &c in &free {
            consider(&mut best, vec![c]);
        }
        if best.is_none() {
            // Pairs among the first MAX_PAIR_COLUMNS candidates (a bounded search).
            let free = &free[..free.len().min(MAX_PAIR_COLUMNS)];
            for (i, &a) in free.iter().enumerate() {
                for &b in &free[i + 1..] {
                    consider(&mut best, vec![a, b]);
                }
            }
        }
        match best {
            Some((set, _)) => {
                // The reason over every cell the set is crossed in.
                let (mut cells_crossed, mut held, mut total) = (0, 0, 0);
                for repeated in &repeated_cells {
                    if let Some(c) = crossed(frame, repeated, &set) {
                        cells_crossed += 1;
                        held += c.held;
                        total += c.combinations;
                    }
                }
                let names: Vec<&str> = set.iter().map(|&c| frame.columns[c].as_str()).collect();
                let why = format!(
                    "each {} repeated in a cell carries every value of {} ({} value(s); {held} of {total} item × value combinations in {cells_crossed} cell(s))",
                    frame.identity_columns.join(" × "),
                    names.join(" × "),
                    (0..frame.len())
                        .map(|r| set.iter().map(|&c| frame.value(r, c)).collect::<Vec<_>>())
                        .collect::<HashSet<_>>()
                        .len(),
                );
                for c in set {
                    chosen.push(c);
                    reasons.insert(c, why.clone());
                }
            }
            None => return (chosen, reasons),
        }
    }
}

/// How a set of columns is crossed with the repeated items of one cell.
struct Crossing {
    /// Joint values in the cell.
    values: usize,
    /// (item, value) combinations holding the commonest count, of `combinations`.
    held: usize,
    combinations: usize,
}

/// Columns that follow the design columns found: a function of their values over every row
/// (each combination of design values, held by at least two rows, carries one value of it),
/// and not constant within the declared cells alone (`n` and `k` of a completeness file move
/// with `budget`). They split nothing further; they are shown with the design.
fn aliases(frame: &Frame, chosen: &[usize]) -> Vec<(usize, String)> {
    let mut by_design: HashMap<Vec<u32>, Vec<usize>> = HashMap::new();
    for r in 0..frame.len() {
        by_design.entry(chosen.iter().map(|&c| frame.value(r, c)).collect()).or_default().push(r);
    }
    if by_design.values().any(|rows| rows.len() < 2) {
        return Vec::new();
    }
    let declared = refined_cells(frame, &[]);
    let follows =
        |c: usize| by_design.values().all(|rows| rows.iter().all(|&r| frame.value(r, c) == frame.value(rows[0], c)));
    let constant_in_declared =
        |c: usize| declared.values().all(|rows| rows.iter().all(|&r| frame.value(r, c) == frame.value(rows[0], c)));
    (0..frame.columns.len())
        .filter(|c| !chosen.contains(c) && (2..=MAX_DESIGN_VALUES).contains(&frame.values[*c].len()))
        .filter(|&c| follows(c) && !constant_in_declared(c))
        .map(|c| {
            let names: Vec<&str> = chosen.iter().map(|&k| frame.columns[k].as_str()).collect();
            (c, format!("follows {}: constant within each of its cells", names.join(" × ")))
        })
        .collect()
}

/// The rows of each item repeated in a cell, when a design could explain them: at least half
/// the cell's items repeat (a few repeated items among many are repeats or an edited id, never
/// a design).
fn repeated_items(frame: &Frame, rows: &[usize]) -> Option<Vec<Vec<usize>>> {
    let mut by_item: HashMap<&str, Vec<usize>> = HashMap::new();
    for &r in rows {
        by_item.entry(frame.rows[r].identity.as_deref().unwrap_or("")).or_default().push(r);
    }
    let items = by_item.len();
    let repeated: Vec<Vec<usize>> = by_item.into_values().filter(|v| v.len() > 1).collect();
    (!repeated.is_empty() && 2 * repeated.len() >= items).then_some(repeated)
}

/// Whether the joint values of `columns` are crossed with the repeated items of one cell: each
/// item carries each combination the same number of times (within [`BALANCE`]).
fn crossed(frame: &Frame, repeated: &[Vec<usize>], columns: &[usize]) -> Option<Crossing> {
    let joint = |r: usize| -> Vec<u32> { columns.iter().map(|&c| frame.value(r, c)).collect() };
    let values: HashSet<Vec<u32>> = repeated.iter().flatten().map(|&r| joint(r)).collect();
    if values.len() < 2 || values.len() > MAX_DESIGN_VALUES || values.iter().any(|v| v.contains(&ABSENT)) {
        return None;
    }
    // A pair is only a design when each of its columns varies within an item.
    if columns.len() > 1
        && columns
            .iter()
            .any(|&c| repeated.iter().all(|rows| rows.iter().all(|&r| frame.value(r, c) == frame.value(rows[0], c))))
    {
        return None;
    }
    // Each repeated item × each combination: how many rows.
    let mut counts: Vec<usize> = Vec::with_capacity(repeated.len() * values.len());
    for item_rows in repeated {
        let mut per: HashMap<Vec<u32>, usize> = HashMap::new();
        for &r in item_rows {
            *per.entry(joint(r)).or_default() += 1;
        }
        counts.extend(values.iter().map(|v| per.get(v).copied().unwrap_or(0)));
    }
    let mut freq: HashMap<usize, usize> = HashMap::new();
    for &n in &counts {
        *freq.entry(n).or_default() += 1;
    }
    let (&mode, &held) = freq.iter().max_by_key(|(n, k)| (**k, **n))?;
    if mode == 0 || (held as f64) < BALANCE * counts.len() as f64 {
        return None;
    }
    Some(Crossing { values: values.len(), held, combinations: counts.len() })
}

/// Whether a value reads as a number or a flag (a measurement without an identity).
fn is_number_like(s: &str) -> bool {
    let t = s.trim();
    t.is_empty() || t.parse::<f64>().is_ok() || matches!(t.to_ascii_lowercase().as_str(), "true" | "false")
}

/// The design columns of rows without an identity: the stated keys, then every text column with
/// 2 to [`MAX_TEXT_VALUES`] values that varies within a cell, where two of its values each recur
/// (a task id never does).
fn text_columns(frame: &Frame, stated: &[usize]) -> (Vec<usize>, HashMap<usize, String>) {
    let mut chosen: Vec<usize> = stated.to_vec();
    let mut reasons = HashMap::new();
    let cells = refined_cells(frame, &[]);
    for c in 0..frame.columns.len() {
        if chosen.contains(&c) {
            continue;
        }
        let vals = &frame.values[c];
        if vals.len() < 2 || vals.len() > MAX_TEXT_VALUES || vals.iter().all(|v| is_number_like(v)) {
            continue;
        }
        let varies = cells.values().any(|rows| {
            let first = frame.value(rows[0], c);
            rows.iter().any(|&r| frame.value(r, c) != first)
        });
        // A condition recurs: two of its values each come back within one cell (ids never do).
        let recurs = cells.values().any(|rows| {
            let mut seen: HashMap<u32, usize> = HashMap::new();
            for &r in rows {
                *seen.entry(frame.value(r, c)).or_default() += 1;
            }
            seen.values().filter(|n| **n >= 2).count() >= 2
        });
        // A column that only relabels a declared within-cell variable (a `cell` label `d1`, `d2`
        // of each depth: one label per depth and one depth per label) is that variable's, not a
        // condition; one that coarsens it (`full` at depth 1, `stripped` at 2 and 3) is a
        // condition confounded with it, and splits the cells.
        let follows_declared = frame.rows.iter().any(|r| r.within.is_some()) && {
            let mut value_of: HashMap<(&str, &str), u32> = HashMap::new();
            let mut within_of: HashMap<(&str, u32), &str> = HashMap::new();
            frame.rows.iter().enumerate().all(|(r, row)| {
                let v = frame.value(r, c);
                let w = row.within.as_deref().unwrap_or("");
                *value_of.entry((row.cell.as_str(), w)).or_insert(v) == v
                    && *within_of.entry((row.cell.as_str(), v)).or_insert(w) == w
            })
        };
        if varies && recurs && !follows_declared {
            chosen.push(c);
            reasons.insert(
                c,
                format!(
                    "a text column with {} values that varies within a cell (rows carry no id, so its values are conditions)",
                    vals.len()
                ),
            );
        }
    }
    (chosen, reasons)
}

/// Refuses an item repeated in one cell after the design columns split the cells.
fn refuse_repeats(frame: &Frame, chosen: &[usize]) -> Result<()> {
    let mut seen: HashMap<(&str, Vec<u32>, &str), usize> = HashMap::new();
    for (r, row) in frame.rows.iter().enumerate() {
        let key: Vec<u32> = chosen.iter().map(|&c| frame.value(r, c)).collect();
        let identity = row.identity.as_deref().unwrap_or("");
        if let Some(&first) = seen.get(&(row.cell.as_str(), key.clone(), identity)) {
            return Err(Error::Ingest(repeat_error(frame, first, r, chosen)));
        }
        seen.insert((row.cell.as_str(), key, identity), r);
    }
    Ok(())
}

fn repeat_error(frame: &Frame, first: usize, again: usize, chosen: &[usize]) -> IngestError {
    let row = &frame.rows[again];
    let same_file = frame.rows[first].file == row.file;
    let first_at = if same_file { format!("line {}", frame.rows[first].line) } else { frame.at(first) };
    let identity = row.identity.as_deref().unwrap_or("").replace('\u{1f}', ", ");
    let location =
        Location::line(&frame.files[row.file as usize], row.line).with_field(frame.identity_columns.join(", "));
    if row.fingerprint == frame.rows[first].fingerprint {
        return IngestError::new(
            location,
            format!(
                "this row repeats {first_at} exactly ({} {identity}): a repeated row would be counted twice; remove it",
                frame.identity_columns.join(", ")
            ),
        );
    }
    let differ: Vec<String> = (0..frame.columns.len())
        .filter(|c| !chosen.contains(c) && frame.value(first, *c) != frame.value(again, *c))
        .map(|c| format!("`{}`", frame.columns[c]))
        .collect();
    let hint = if differ.is_empty() {
        "the rows differ only in the columns this analysis reads (outcome, answer, …): one of them is a repeat; remove it"
            .to_string()
    } else {
        format!(
            "they differ in {}: if one of these is a condition of the design, split the cells by it ({}), or pool it \
             ({}); otherwise one row is a repeat",
            some_of(&differ),
            crate::fields::mention("split_by"),
            crate::fields::mention("pool")
        )
    };
    IngestError::new(
        location,
        format!(
            "{} {identity} appears again in the same cell (first at {first_at}): {hint}",
            frame.identity_columns.join(", ")
        ),
    )
}

/// Exactly repeated rows of a frame without identity.
fn exact_repeats(frame: &Frame) -> RepeatedRows {
    let mut seen: HashMap<(u64, &str), usize> = HashMap::new();
    let mut out = RepeatedRows::default();
    for (r, row) in frame.rows.iter().enumerate() {
        match seen.get(&(row.fingerprint, row.cell.as_str())) {
            Some(&first) => {
                out.count += 1;
                if out.examples.len() < EXAMPLES {
                    out.examples.push(format!("{} repeats line {}", frame.at(r), frame.rows[first].line));
                }
            }
            None => {
                seen.insert((row.fingerprint, row.cell.as_str()), r);
            }
        }
    }
    out
}

fn unused_columns(frame: &Frame, chosen: &[usize], pooled: &HashSet<usize>) -> Vec<UnusedColumn> {
    (0..frame.columns.len())
        .filter(|c| !chosen.contains(c) && !pooled.contains(c) && frame.values[*c].len() >= 2)
        .map(|c| {
            let note = if frame.has_identity() {
                let mut per_item: HashMap<&str, u32> = HashMap::new();
                let constant = frame.rows.iter().enumerate().all(|(r, row)| {
                    let v = frame.value(r, c);
                    *per_item.entry(row.identity.as_deref().unwrap_or("")).or_insert(v) == v
                });
                if constant {
                    "constant within each item: an attribute of the item".to_string()
                } else {
                    "varies within items but is not crossed with them: read as a per-row value, not a condition"
                        .to_string()
                }
            } else if frame.values[c].iter().all(|v| is_number_like(v)) {
                "numbers or flags: read as a per-row value, not a condition".to_string()
            } else if frame.values[c].len() > MAX_TEXT_VALUES {
                format!("more than {MAX_TEXT_VALUES} values: read as a per-row value, not a condition")
            } else {
                "its values do not recur within a cell, or it follows a variable this analysis reads (the depth): not a condition"
                    .to_string()
            };
            UnusedColumn { column: frame.columns[c].clone(), distinct: frame.values[c].len(), note }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A row `(pid, seed, cell, [(column, value)])`.
    type TestRow<'a> = (&'a str, u32, &'a str, Vec<(&'a str, &'a str)>);

    fn frame(rows: &[TestRow<'_>]) -> Frame {
        let mut f = Frame::new(&["pid", "seed"]);
        for (i, (pid, seed, cell, cols)) in rows.iter().enumerate() {
            let print = fingerprint(
                cols.iter().copied().chain([("pid", *pid), ("cell", *cell)]).chain(std::iter::once(("i", "")).take(0)),
            );
            f.push(
                "t.jsonl",
                i + 1,
                Some(format!("{pid}\u{1f}{seed}")),
                cell.to_string(),
                cols.iter().copied(),
                print ^ u64::from(*seed),
            );
        }
        f
    }

    #[test]
    fn a_crossed_column_keys_the_cells_and_a_measurement_does_not() {
        // Four prompts on each of two problems; `kept` is a per-row measurement.
        let mut rows = Vec::new();
        for pid in ["a", "b"] {
            for (i, p) in ["v0", "v1", "v2", "v3"].iter().enumerate() {
                let kept = if (i + usize::from(pid == "b")) % 3 == 0 { "1" } else { "2" };
                rows.push((pid, 0, "all", vec![("prompt", *p), ("kept", kept)]));
            }
        }
        let f = frame(&rows);
        let d = Design::detect(&f, &CellSettings::default()).unwrap();
        assert_eq!(d.keyed.iter().map(|c| c.column.as_str()).collect::<Vec<_>>(), ["prompt"]);
        assert_eq!(d.keyed[0].values, ["v0", "v1", "v2", "v3"]);
        assert_eq!(d.key_text(1), "prompt=v1");
        assert_eq!(d.unused.len(), 1);
        assert_eq!(d.unused[0].column, "kept");
        // Pooled as asked: the repeats are allowed, and stated.
        let pooled = Design::detect(&f, &CellSettings { pool: vec!["prompt".into()], ..Default::default() }).unwrap();
        assert!(pooled.keyed.is_empty());
        assert_eq!(pooled.pooled[0].column, "prompt");
        assert_eq!(pooled.key_text(1), "");
    }

    #[test]
    fn two_design_columns_are_taken_one_at_a_time() {
        // n × budget on every store; k_items follows budget.
        let mut rows = Vec::new();
        for store in ["s0", "s1", "s2"] {
            for n in ["2", "4", "8"] {
                for (budget, k) in [("300", "3"), ("600", "6")] {
                    rows.push((store, 0, "lossy", vec![("n", n), ("budget", budget), ("k_items", k)]));
                }
            }
        }
        let d = Design::detect(&frame(&rows), &CellSettings::default()).unwrap();
        // In the files' order; k_items follows budget and is shown with it.
        let keyed: Vec<&str> = d.keyed.iter().map(|c| c.column.as_str()).collect();
        assert_eq!(keyed, ["n", "budget", "k_items"]);
        assert!(d.keyed[2].reason.starts_with("follows budget × n"), "{}", d.keyed[2].reason);
        // A per-row count that does not follow the design is not used.
        for (i, r) in rows.iter_mut().enumerate() {
            r.3[2].1 = if i % 4 == 0 { "1" } else { "2" };
        }
        let d = Design::detect(&frame(&rows), &CellSettings::default()).unwrap();
        assert_eq!(d.keyed.iter().map(|c| c.column.as_str()).collect::<Vec<_>>(), ["n", "budget"]);
        assert!(d.unused.iter().any(|u| u.column == "k_items"));
    }

    #[test]
    fn an_item_repeated_in_a_cell_is_refused_with_both_lines() {
        let rows = vec![
            ("a", 0, "lossy", vec![("note", "x")]),
            ("b", 0, "lossy", vec![("note", "x")]),
            ("c", 0, "lossy", vec![("note", "x")]),
            ("a", 0, "lossy", vec![("note", "x")]),
        ];
        let e = Design::detect(&frame(&rows), &CellSettings::default()).unwrap_err();
        let Error::Ingest(e) = e else { panic!("{e:?}") };
        assert_eq!(e.location.line, Some(4));
        assert_eq!(e.location.field.as_deref(), Some("pid, seed"));
        assert!(e.message.contains("repeats line 1 exactly"), "{}", e.message);
        // Not exact: the columns that differ are named.
        let rows = vec![
            ("a", 0, "lossy", vec![("note", "x")]),
            ("b", 0, "lossy", vec![("note", "x")]),
            ("c", 0, "lossy", vec![("note", "x")]),
            ("a", 0, "lossy", vec![("note", "y")]),
        ];
        let Error::Ingest(e) = Design::detect(&frame(&rows), &CellSettings::default()).unwrap_err() else { panic!() };
        assert!(e.message.contains("first at line 1") && e.message.contains("`note`"), "{}", e.message);
        // The same item in two cells is not a repeat.
        let rows = vec![("a", 0, "lossy", vec![]), ("a", 0, "blank", vec![])];
        assert!(Design::detect(&frame(&rows), &CellSettings::default()).is_ok());
    }

    #[test]
    fn an_incomplete_factorial_is_a_crossed_pair() {
        let mut rows = Vec::new();
        for store in ["0", "1", "2", "3"] {
            for (n, budget) in [("4", "300"), ("8", "300"), ("4", "600")] {
                rows.push((store, 0, "lossy", vec![("n", n), ("budget", budget)]));
            }
        }
        let d = Design::detect(&frame(&rows), &CellSettings::default()).unwrap();
        let keyed: Vec<&str> = d.keyed.iter().map(|c| c.column.as_str()).collect();
        assert_eq!(keyed, ["n", "budget"]);
        assert!(d.keyed[0].reason.contains("n × budget"), "{}", d.keyed[0].reason);
    }

    #[test]
    fn stated_keys_and_pools_must_name_a_column() {
        let f = frame(&[("a", 0, "x", vec![("prompt", "v0")])]);
        let e = Design::detect(&f, &CellSettings { pool: vec!["nope".into()], ..Default::default() }).unwrap_err();
        assert!(e.to_string().contains("no column `nope`") && e.to_string().contains("prompt"), "{e}");
        let d = Design::detect(&f, &CellSettings { split: vec!["prompt".into()], ..Default::default() }).unwrap();
        assert_eq!(d.keyed[0].reason, "split by, as asked");
    }

    #[test]
    fn rows_without_identity_key_text_columns_and_count_repeats() {
        let mut f = Frame::new(&[]);
        let rows = [
            ("none", "synthetic", "0.5", "1"),
            ("none", "synthetic", "0.5", "1"),
            ("none", "dcbench", "1.0", "2"),
            ("none", "dcbench", "0.0", "5"),
            ("bm25", "synthetic", "0.5", "3"),
            ("bm25", "dcbench", "0.0", "4"),
        ];
        for (i, (arm, dataset, rot, tokens)) in rows.iter().enumerate() {
            let cols = [("dataset", *dataset), ("rot", *rot), ("total", *tokens)];
            f.push(
                "rows.jsonl",
                i + 1,
                None,
                arm.to_string(),
                cols,
                fingerprint(cols.into_iter().chain([("arm", *arm)])),
            );
        }
        let d = Design::detect(&f, &CellSettings::default()).unwrap();
        assert_eq!(d.keyed.iter().map(|c| c.column.as_str()).collect::<Vec<_>>(), ["dataset"]);
        assert_eq!(d.repeated_rows.count, 1);
        assert_eq!(d.repeated_rows.examples, ["rows.jsonl, line 2 repeats line 1"]);
        assert!(d.unused.iter().all(|u| u.note.starts_with("numbers or flags")));
    }
}
