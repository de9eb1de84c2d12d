//! What every report with cells says of them, in one shape: the settings, the design columns
//! (keyed, pooled, unused), exact repeats, the populations and their mismatches, and the rows
//! left out — as JSON (`cells`), two tables (`populations`, `cell_columns`), a text section and
//! headlines.

use serde::{Deserialize, Serialize};

use super::design::{Design, DesignColumn, RepeatedRows, UnusedColumn};
use super::population::{Excluded, Exclusions, Mismatch, Population, Populations};
use super::{CellSettings, some_of};
use crate::choice::Choice;
use crate::headline::Headline;
use crate::report::{Column, Table};

/// The `cells` key of a report.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CellReport {
    pub settings: CellSettings,
    pub keyed: Vec<DesignColumn>,
    pub pooled: Vec<DesignColumn>,
    pub unused: Vec<UnusedColumn>,
    pub repeated_rows: RepeatedRows,
    /// What an item is (`problems`, `items`, `rows`).
    pub what: String,
    pub populations: Vec<Population>,
    pub mismatches: Vec<Mismatch>,
    pub excluded: Vec<Excluded>,
}

impl CellReport {
    pub fn new(settings: &CellSettings, design: Design, populations: Populations, excluded: Exclusions) -> CellReport {
        CellReport {
            settings: settings.clone(),
            keyed: design.keyed,
            pooled: design.pooled,
            unused: design.unused,
            repeated_rows: design.repeated_rows,
            what: populations.what,
            populations: populations.populations,
            mismatches: populations.mismatches,
            excluded: excluded.excluded,
        }
    }

    /// Only the populations of `cells` (items called `what`): for capabilities whose cells are
    /// formed by their own reader (alignment's targets, claims' (arm, K) cells, labels' raters).
    pub fn of_populations(cells: &[super::CellItems], what: &str) -> CellReport {
        CellReport::new(
            &CellSettings::default(),
            Design::default(),
            Populations::of(cells, what),
            Exclusions::default(),
        )
    }

    /// The headlines: cells side by side on different items (alert), rows left out, design
    /// columns pooled (findings), design columns keyed, exact repeats (findings), unused
    /// columns (context). `populations` and `columns` are the capability's table names.
    pub fn headlines(&self, populations: impl Choice, columns: impl Choice) -> Vec<Headline> {
        let mut out = Vec::new();
        for m in self.mismatches.iter().take(3) {
            let fix = if m.differing.is_empty() {
                "give each row an id (setting `item`) to find the rows that differ".to_string()
            } else {
                format!(
                    "restrict them with the problem set (setting `problems`) or to the common {} (setting `common_items`)",
                    self.what
                )
            };
            out.push(Headline::alert(
                format!(
                    "Cells set side by side hold different {}: their numbers are not on the same population",
                    self.what
                ),
                format!("{}; {fix}", m.describe(&self.what)),
                populations,
            ));
        }
        if self.mismatches.len() > 3 {
            out.push(Headline::alert(
                format!("{} more panels of cells hold different {}", self.mismatches.len() - 3, self.what),
                some_of(&self.mismatches.iter().skip(3).map(|m| m.panel.clone()).collect::<Vec<_>>()),
                populations,
            ));
        }
        for e in &self.excluded {
            out.push(Headline::finding(
                format!("{} row(s) of {} {} left out: {}", e.rows, e.items, self.what, e.reason),
                format!("e.g. {}", some_of(&e.examples)),
                populations,
            ));
        }
        for p in &self.pooled {
            out.push(Headline::finding(
                format!("Cells pool the values of `{}`, as asked", p.column),
                format!("{} value(s): {}", p.values.len(), some_of(&p.values)),
                columns,
            ));
        }
        if !self.keyed.is_empty() {
            out.push(Headline::context(
                format!(
                    "Cells are split by {} (one cell per value), never pooled unasked",
                    self.keyed.iter().map(|k| format!("`{}`", k.column)).collect::<Vec<_>>().join(", ")
                ),
                self.keyed
                    .iter()
                    .map(|k| format!("{}: {} ({})", k.column, some_of(&k.values), k.reason))
                    .collect::<Vec<_>>()
                    .join("; "),
                columns,
            ));
        }
        if self.repeated_rows.count > 0 {
            out.push(Headline::finding(
                format!(
                    "{} row(s) repeat another row exactly; the rows carry no id, so they are counted as separate rows",
                    self.repeated_rows.count
                ),
                format!(
                    "{}; if they are repeats, remove them, or give each row an id",
                    some_of(&self.repeated_rows.examples)
                ),
                columns,
            ));
        }
        if !self.unused.is_empty() {
            out.push(Headline::context(
                format!(
                    "Columns not used (they split no cell): {}",
                    some_of(&self.unused.iter().map(|u| format!("`{}`", u.column)).collect::<Vec<_>>())
                ),
                self.unused.iter().map(|u| format!("{}: {}", u.column, u.note)).collect::<Vec<_>>().join("; "),
                columns,
            ));
        }
        out
    }

    /// The text section (empty when there is nothing to say).
    pub fn text(&self) -> String {
        let mut out = String::new();
        let settings = self.settings.describe();
        if !settings.is_empty() {
            out.push_str(&format!("cells: {settings}\n"));
        }
        for k in &self.keyed {
            out.push_str(&format!("cells split by `{}`: {} ({})\n", k.column, some_of(&k.values), k.reason));
        }
        for p in &self.pooled {
            out.push_str(&format!("cells pool `{}`, as asked: {}\n", p.column, some_of(&p.values)));
        }
        if self.populations.len() > 1 || !self.mismatches.is_empty() {
            out.push_str(&format!("populations ({}):\n", self.what));
            for p in &self.populations {
                out.push_str(&format!(
                    "  {}: {} {} in {} cell(s){}\n",
                    p.id,
                    p.items,
                    self.what,
                    p.cells,
                    if p.examples.is_empty() { String::new() } else { format!(" ({})", some_of(&p.list)) }
                ));
            }
        }
        for m in &self.mismatches {
            out.push_str(&format!("! different {} side by side: {}\n", self.what, m.describe(&self.what)));
        }
        for e in &self.excluded {
            out.push_str(&format!(
                "left out: {} row(s) of {} {}: {} (e.g. {})\n",
                e.rows,
                e.items,
                self.what,
                e.reason,
                some_of(&e.examples)
            ));
        }
        if self.repeated_rows.count > 0 {
            out.push_str(&format!(
                "rows repeated exactly: {} ({})\n",
                self.repeated_rows.count,
                some_of(&self.repeated_rows.examples)
            ));
        }
        for u in &self.unused {
            out.push_str(&format!("column not used: `{}` ({} values): {}\n", u.column, u.distinct, u.note));
        }
        out
    }

    /// The `populations` table: one row per population.
    pub fn populations_table(&self, name: &str) -> Table {
        let rows: Vec<PopulationRow> =
            self.populations.iter().map(|p| PopulationRow { population: p.clone(), what: self.what.clone() }).collect();
        Table::of(name, POPULATIONS, &rows)
    }

    /// The `cell_columns` table: one row per column that is keyed, pooled or unused.
    pub fn columns_table(&self, name: &str) -> Table {
        let mut rows: Vec<ColumnRow> = Vec::new();
        for (role, list) in [("keyed", &self.keyed), ("pooled", &self.pooled)] {
            rows.extend(list.iter().map(|d| ColumnRow {
                column: d.column.clone(),
                role,
                values: d.values.len(),
                detail: d.values.join("|"),
                note: d.reason.clone(),
            }));
        }
        rows.extend(self.unused.iter().map(|u| ColumnRow {
            column: u.column.clone(),
            role: "unused",
            values: u.distinct,
            detail: String::new(),
            note: u.note.clone(),
        }));
        Table::of(name, COLUMNS, &rows)
    }
}

struct PopulationRow {
    population: Population,
    what: String,
}

const POPULATIONS: &[Column<PopulationRow>] = &crate::columns![PopulationRow;
    "population" => |r| r.population.id.clone(),
    "what" => |r| r.what.clone(),
    "items" => |r| r.population.items.to_string(),
    "cells" => |r| r.population.cells.to_string(),
    "item_list" => |r| r.population.list.join("|"),
    "cell_list" => |r| r.population.held_by.join("|"),
];

struct ColumnRow {
    column: String,
    role: &'static str,
    values: usize,
    detail: String,
    note: String,
}

const COLUMNS: &[Column<ColumnRow>] = &crate::columns![ColumnRow;
    "column" => |r| r.column.clone(),
    "role" => |r| r.role.to_string(),
    "values" => |r| r.values.to_string(),
    "value_list" => |r| r.detail.clone(),
    "note" => |r| r.note.clone(),
];
