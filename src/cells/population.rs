//! Populations: which items each cell holds, cells set side by side whose items differ, and the
//! restriction of cells to a stated problem set or to the items a panel's cells share.
//!
//! A **population** is one set of items; cells holding the same set share it (`P1`, `P2`, …,
//! numbered in the order first held). A **panel** is the cells one table or contrast sets side
//! by side (each capability says which: reclaim's policies, integrity levels and design values
//! of one model, task and arm; compliance's arms of one group). Cells of one panel on different
//! populations are a [`Mismatch`], named with the items that differ: a rate over 44 problems
//! next to one over 32 is not a comparison. Rows that carry no identity have positions for
//! items: their populations differ when their counts do.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

use super::{CellSettings, EXAMPLES, some_of};

/// One cell's items, as the capability formed it.
#[derive(Debug, Clone, PartialEq)]
pub struct CellItems {
    /// The cell in words (`claude-sonnet-4-6 logic directed source_first@0.1`).
    pub cell: String,
    /// The panel it is set in (cells of one panel are compared).
    pub panel: String,
    /// Its items (an item may repeat: a problem with several seeds is one item), or `None`
    /// when rows carry no identity (then `rows` stands for them).
    pub items: Option<Vec<String>>,
    /// Rows (trials) in the cell.
    pub rows: usize,
}

/// One set of items held by one or more cells.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Population {
    /// `P1`, `P2`, …
    pub id: String,
    /// Distinct items (without identity: rows).
    pub items: usize,
    /// Cells that hold exactly these items.
    pub cells: usize,
    /// The first items, for the table.
    pub examples: Vec<String>,
    /// Every item, sorted (empty without identity).
    pub list: Vec<String>,
    /// The cells that hold it (`panel: cell`), in the order given.
    #[serde(default)]
    pub held_by: Vec<String>,
}

/// Cells of one panel on different populations.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Mismatch {
    pub panel: String,
    /// Each cell of the panel with its population.
    pub cells: Vec<(String, String)>,
    /// Items every cell holds / any cell holds (without identity: the smallest and largest
    /// row counts).
    pub common: usize,
    pub union: usize,
    /// Items some cells hold and others do not, the first few.
    pub differing: Vec<String>,
    pub differing_count: usize,
}

impl Mismatch {
    /// One sentence: which cells hold how many items, and which items differ.
    pub fn describe(&self, what: &str) -> String {
        let mut by_population: Vec<(String, Vec<&str>)> = Vec::new();
        for (cell, p) in &self.cells {
            match by_population.iter_mut().find(|(q, _)| q == p) {
                Some((_, cells)) => cells.push(cell),
                None => by_population.push((p.clone(), vec![cell])),
            }
        }
        let parts: Vec<String> = by_population.iter().map(|(p, cells)| format!("{p}: {}", some_of(cells))).collect();
        if self.differing.is_empty() {
            format!(
                "{}: cells hold {} to {} rows ({}); the rows carry no id, so memaudit cannot tell which rows repeat or are missing",
                self.panel,
                self.common,
                self.union,
                parts.join("; ")
            )
        } else {
            format!(
                "{}: {} {what} held by only some cells ({}); {} held by all; {}",
                self.panel,
                self.differing_count,
                some_of(&self.differing),
                self.common,
                parts.join("; ")
            )
        }
    }
}

/// The populations of a report's cells.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Populations {
    /// What an item is (`problems`, `items`, `rows`).
    pub what: String,
    pub populations: Vec<Population>,
    /// Per cell, in the order given: its population's id.
    pub of_cell: Vec<String>,
    pub mismatches: Vec<Mismatch>,
}

impl Populations {
    /// The populations of `cells` (items called `what`).
    pub fn of(cells: &[CellItems], what: &str) -> Populations {
        let mut ids: HashMap<Vec<String>, usize> = HashMap::new();
        let mut out = Populations { what: what.into(), ..Populations::default() };
        let mut sets: Vec<Vec<String>> = Vec::with_capacity(cells.len());
        for c in cells {
            let set: Vec<String> = match &c.items {
                Some(items) => {
                    let mut s = items.clone();
                    s.sort_unstable();
                    s.dedup();
                    s
                }
                None => vec![format!("\u{0}{}", c.rows)],
            };
            let next = ids.len();
            let id = *ids.entry(set.clone()).or_insert_with(|| {
                out.populations.push(Population {
                    id: format!("P{}", next + 1),
                    items: if c.items.is_some() { set.len() } else { c.rows },
                    cells: 0,
                    examples: if c.items.is_some() { set.iter().take(EXAMPLES).cloned().collect() } else { Vec::new() },
                    list: if c.items.is_some() { set.clone() } else { Vec::new() },
                    held_by: Vec::new(),
                });
                next
            });
            out.populations[id].cells += 1;
            out.populations[id].held_by.push(format!("{}: {}", c.panel, c.cell));
            out.of_cell.push(out.populations[id].id.clone());
            sets.push(set);
        }
        // Panels in first-seen order.
        let mut panels: Vec<&str> = Vec::new();
        let mut members: HashMap<&str, Vec<usize>> = HashMap::new();
        for (i, c) in cells.iter().enumerate() {
            let m = members.entry(c.panel.as_str()).or_default();
            if m.is_empty() {
                panels.push(c.panel.as_str());
            }
            m.push(i);
        }
        for panel in panels {
            let m = &members[panel];
            let first = &out.of_cell[m[0]];
            if m.iter().all(|&i| &out.of_cell[i] == first) {
                continue;
            }
            let cells_of = m.iter().map(|&i| (cells[i].cell.clone(), out.of_cell[i].clone())).collect();
            if m.iter().any(|&i| cells[i].items.is_none()) {
                let rows: Vec<usize> = m.iter().map(|&i| cells[i].rows).collect();
                out.mismatches.push(Mismatch {
                    panel: panel.to_string(),
                    cells: cells_of,
                    common: rows.iter().copied().min().unwrap_or(0),
                    union: rows.iter().copied().max().unwrap_or(0),
                    differing: Vec::new(),
                    differing_count: 0,
                });
                continue;
            }
            let mut count: HashMap<&str, usize> = HashMap::new();
            for &i in m {
                for item in &sets[i] {
                    *count.entry(item.as_str()).or_default() += 1;
                }
            }
            let mut differing: Vec<&str> = count.iter().filter(|(_, n)| **n < m.len()).map(|(k, _)| *k).collect();
            differing.sort_unstable_by(|a, b| natural(a, b));
            out.mismatches.push(Mismatch {
                panel: panel.to_string(),
                cells: cells_of,
                common: count.values().filter(|n| **n == m.len()).count(),
                union: count.len(),
                differing_count: differing.len(),
                differing: differing.iter().take(EXAMPLES).map(|s| s.to_string()).collect(),
            });
        }
        out
    }
}

/// Orders ids with numbers by their numbers (`gen_l2` before `gen_l12`).
fn natural(a: &str, b: &str) -> std::cmp::Ordering {
    let split = |s: &str| {
        let digits = s.trim_end_matches(|c: char| c.is_ascii_digit());
        (digits.to_string(), s[digits.len()..].parse::<u64>().ok())
    };
    split(a).cmp(&split(b)).then_with(|| a.cmp(b))
}

/// Rows left out of the cells, by reason.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Excluded {
    pub reason: String,
    pub rows: usize,
    pub items: usize,
    /// The first items left out.
    pub examples: Vec<String>,
}

/// Every reason rows were left out.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Exclusions {
    pub excluded: Vec<Excluded>,
}

impl Exclusions {
    /// Counts one row of `item` left out for `reason`.
    pub fn add(&mut self, reason: &str, item: &str, seen: &mut HashSet<(String, String)>) {
        let at = match self.excluded.iter().position(|e| e.reason == reason) {
            Some(i) => i,
            None => {
                self.excluded.push(Excluded { reason: reason.into(), rows: 0, items: 0, examples: Vec::new() });
                self.excluded.len() - 1
            }
        };
        let e = &mut self.excluded[at];
        e.rows += 1;
        if seen.insert((reason.to_string(), item.to_string())) {
            e.items += 1;
            if e.examples.len() < EXAMPLES {
                e.examples.push(item.to_string());
            }
        }
    }

    pub fn rows(&self) -> usize {
        self.excluded.iter().map(|e| e.rows).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.excluded.is_empty()
    }
}

/// A row as the restriction sees it.
#[derive(Debug, Clone, Copy)]
pub struct RowRef<'a> {
    /// The problem (for the problem set).
    pub item: &'a str,
    /// The full identity (problem and replicate), for the items a panel shares.
    pub identity: &'a str,
    pub panel: &'a str,
    pub cell: &'a str,
}

/// A stated problem set, and whether each panel keeps only the items all its cells hold.
#[derive(Debug, Clone, Default)]
pub struct Restriction {
    problems: Option<HashSet<String>>,
    common: bool,
}

impl Restriction {
    pub fn of(settings: &CellSettings) -> Restriction {
        Restriction {
            problems: settings.problems.as_ref().map(|p| p.iter().cloned().collect()),
            common: settings.common_items,
        }
    }

    pub fn is_none(&self) -> bool {
        self.problems.is_none() && !self.common
    }

    /// Which rows are kept, and what was left out by reason (`what` names the items).
    pub fn apply(&self, rows: &[RowRef<'_>], what: &str) -> (Vec<bool>, Exclusions) {
        let mut keep = vec![true; rows.len()];
        let mut out = Exclusions::default();
        let mut seen = HashSet::new();
        if let Some(set) = &self.problems {
            let reason = format!("not in the problem set ({} {what})", set.len());
            for (k, r) in keep.iter_mut().zip(rows) {
                if !set.contains(r.item) {
                    *k = false;
                    out.add(&reason, r.item, &mut seen);
                }
            }
        }
        if self.common {
            // Per panel: the identities every cell of the panel holds (among kept rows).
            let mut cells_of_panel: HashMap<&str, HashSet<&str>> = HashMap::new();
            let mut holders: HashMap<(&str, &str), HashSet<&str>> = HashMap::new();
            for (r, k) in rows.iter().zip(&keep) {
                if *k {
                    cells_of_panel.entry(r.panel).or_default().insert(r.cell);
                    holders.entry((r.panel, r.identity)).or_default().insert(r.cell);
                }
            }
            let reason = format!("held by only some cells set side by side (common {what} only)");
            for (k, r) in keep.iter_mut().zip(rows) {
                if *k && holders[&(r.panel, r.identity)].len() < cells_of_panel[r.panel].len() {
                    *k = false;
                    out.add(&reason, r.item, &mut seen);
                }
            }
        }
        (keep, out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(cell: &str, panel: &str, items: &[&str]) -> CellItems {
        CellItems {
            cell: cell.into(),
            panel: panel.into(),
            items: Some(items.iter().map(|s| s.to_string()).collect()),
            rows: items.len(),
        }
    }

    #[test]
    fn cells_on_different_items_in_one_panel_are_named() {
        let cells = [
            cell("source_first", "logic directed", &["a", "b", "gen_l12", "gen_l2"]),
            cell("langchain", "logic directed", &["b", "a", "gen_l2", "gen_l12", "a"]),
            cell("auto", "logic directed", &["a", "b"]),
            cell("auto", "arith directed", &["x"]),
            cell("lossy", "arith directed", &["x"]),
        ];
        let p = Populations::of(&cells, "problems");
        assert_eq!(p.of_cell, ["P1", "P1", "P2", "P3", "P3"]);
        assert_eq!((p.populations[0].items, p.populations[0].cells), (4, 2));
        assert_eq!(p.mismatches.len(), 1);
        let m = &p.mismatches[0];
        assert_eq!((m.common, m.union, m.differing_count), (2, 4, 2));
        assert_eq!(m.differing, ["gen_l2", "gen_l12"], "numbers ordered as numbers");
        let text = m.describe("problems");
        assert!(text.contains("2 problems held by only some cells (gen_l2, gen_l12)"), "{text}");
        assert!(text.contains("P1: source_first, langchain; P2: auto"), "{text}");
    }

    #[test]
    fn rows_without_ids_differ_by_their_counts() {
        let c = |name: &str, rows| CellItems { cell: name.into(), panel: "synthetic".into(), items: None, rows };
        let p = Populations::of(&[c("none", 121), c("bm25", 120), c("dense", 120)], "rows");
        assert_eq!(p.of_cell, ["P1", "P2", "P2"]);
        assert!(p.mismatches[0].describe("rows").contains("cells hold 120 to 121 rows"));
    }

    #[test]
    fn a_problem_set_and_common_items_restrict_with_reasons() {
        let rows = [
            ("a", "a#0", "p", "x"),
            ("b", "b#0", "p", "x"),
            ("old", "old#0", "p", "x"),
            ("a", "a#0", "p", "y"),
            ("c", "c#0", "p", "y"),
        ];
        let refs: Vec<RowRef> =
            rows.iter().map(|&(item, identity, panel, cell)| RowRef { item, identity, panel, cell }).collect();
        let s = CellSettings { problems: Some(vec!["a".into(), "b".into(), "c".into()]), ..Default::default() };
        let (keep, ex) = Restriction::of(&s).apply(&refs, "problems");
        assert_eq!(keep, [true, true, false, true, true]);
        assert_eq!(ex.excluded[0].reason, "not in the problem set (3 problems)");
        assert_eq!((ex.excluded[0].rows, ex.excluded[0].examples.clone()), (1, vec!["old".to_string()]));
        let s = CellSettings { common_items: true, ..s };
        let (keep, ex) = Restriction::of(&s).apply(&refs, "problems");
        assert_eq!(keep, [true, false, false, true, false]);
        assert_eq!(ex.rows(), 3);
        assert_eq!(ex.excluded[1].items, 2);
        assert!(Restriction::of(&CellSettings::default()).is_none());
    }
}
