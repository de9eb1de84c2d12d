//! How rows become cells, on every page whose capability forms cells ([`crate::cells`]): the
//! "Cells" settings (columns pooled or split by, the problem set, common items only) and the
//! "Populations" card (the items each cell holds, cells side by side on different items, the
//! columns that split, pool or were not used), both drawn from the core's `CellReport` and its
//! tables, so they equal the CLI's `--table populations` and `--table cell_columns`.

use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::Section;
use super::grid::{Kind, Look, RowAttrs, table_grid};
use crate::cells::{CellReport, CellSettings, parse_item_list, some_of};

/// The "Cells" settings as edited.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CellDraft {
    /// Comma-separated columns to pool.
    pub pool: String,
    /// Comma-separated columns to split by.
    pub split: String,
    /// The problem set: ids, one per line or comma-separated (empty: none).
    pub problems: String,
    pub common_items: bool,
}

fn list(text: &str) -> Vec<String> {
    text.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_string).collect()
}

impl CellDraft {
    /// The draft of a run's settings.
    pub fn of(s: &CellSettings) -> CellDraft {
        CellDraft {
            pool: s.pool.join(", "),
            split: s.split.join(", "),
            problems: s.problems.as_ref().map(|p| p.join("\n")).unwrap_or_default(),
            common_items: s.common_items,
        }
    }

    /// The settings, or what is wrong (naming the field by its label).
    pub fn parse(&self) -> Result<CellSettings, String> {
        let problems = if self.problems.trim().is_empty() {
            None
        } else {
            Some(parse_item_list(&self.problems).map_err(|e| format!("problem set: {e}"))?)
        };
        Ok(CellSettings { pool: list(&self.pool), split: list(&self.split), problems, common_items: self.common_items })
    }
}

#[derive(Properties, PartialEq)]
pub struct CellFieldsProps {
    /// The page's id prefix (`reclaim` gives `#reclaim-pool`, …).
    pub id: AttrValue,
    pub draft: CellDraft,
    pub on_change: Callback<CellDraft>,
}

/// The "Cells" fields: pool, split by, problem set, common items only.
#[function_component(CellFields)]
pub fn cell_fields(props: &CellFieldsProps) -> Html {
    let id = |f: &str| format!("{}-{f}", props.id);
    let edit = |f: fn(&mut CellDraft, String)| {
        let (draft, cb) = (props.draft.clone(), props.on_change.clone());
        Callback::from(move |e: InputEvent| {
            let mut d = draft.clone();
            f(&mut d, e.target_unchecked_into::<HtmlInputElement>().value());
            cb.emit(d);
        })
    };
    let common = {
        let (draft, cb) = (props.draft.clone(), props.on_change.clone());
        Callback::from(move |e: Event| {
            let mut d = draft.clone();
            d.common_items = e.target_unchecked_into::<HtmlInputElement>().checked();
            cb.emit(d);
        })
    };
    let d = &props.draft;
    html! {
        <fieldset class="cells-fields">
            <legend title="how rows become cells: a column that varies within a cell is a key (one cell per value) unless pooled">{ "Cells" }</legend>
            <div class="field">
                <label for={id("pool")} title="pool the values of these columns into one cell (said on every result)">{ "pool columns" }</label>
                <input id={id("pool")} type="text" value={d.pool.clone()} oninput={edit(|d, v| d.pool = v)} placeholder="none" />
            </div>
            <div class="field">
                <label for={id("split")} title="one cell per value of these columns, even when not found as design columns">{ "split by columns" }</label>
                <input id={id("split")} type="text" value={d.split.clone()} oninput={edit(|d, v| d.split = v)} placeholder="found in the data" />
            </div>
            <div class="field grow">
                <label for={id("problems")} title="keep only these items (ids, one per line or comma-separated); the others are left out and counted">{ "problem set" }</label>
                <textarea id={id("problems")} rows="1" value={d.problems.clone()} oninput={edit(|d, v| d.problems = v)} placeholder="every item" />
            </div>
            <div class="field checkbox">
                <label for={id("common-items")}><input type="checkbox" id={id("common-items")} checked={d.common_items} onchange={common} />
                    { " common items only (cells side by side keep the items they all hold)" }</label>
            </div>
        </fieldset>
    }
}

/// The "Populations" card: what each cell holds and the columns that split, pooled or were not
/// used; empty when there is nothing to say (one population, no design column, nothing left
/// out).
pub fn populations_card(id: &str, report: &CellReport) -> Html {
    let quiet = report.populations.len() <= 1
        && report.mismatches.is_empty()
        && report.keyed.is_empty()
        && report.pooled.is_empty()
        && report.unused.is_empty()
        && report.excluded.is_empty()
        && report.repeated_rows.count == 0;
    if quiet {
        return Html::default();
    }
    let populations = report.populations_table("populations");
    let columns = report.columns_table("cell_columns");
    let look = |col: &str| match col {
        "items" | "cells" | "values" => Look::named(col, Kind::Int),
        _ => Look::named(col, Kind::Text),
    };
    let none = |_: &Vec<String>| RowAttrs::default();
    html! {
        <Section id={format!("{id}-populations-card")} title="Populations and cells"
            intro={html! { <p class="intro">{ format!(
                "Which {} each cell holds (the cells' population column), the columns that split the cells, are pooled or were not used, and what was left out. Cells set side by side on different {} are not on the same population.",
                report.what, report.what) }</p> }}>
            { for report.mismatches.iter().map(|m| html! {
                <p class="warning" data-mismatch={m.panel.clone()}>{ m.describe(&report.what) }</p>
            }) }
            { for report.excluded.iter().map(|e| html! {
                <p class="note" data-excluded={e.reason.clone()}>{ format!("Left out: {} row(s) of {} {} — {} (e.g. {}).", e.rows, e.items, report.what, e.reason, some_of(&e.examples)) }</p>
            }) }
            if report.repeated_rows.count > 0 {
                <p class="note" data-repeated={report.repeated_rows.count.to_string()}>{ format!(
                    "{} row(s) repeat another row exactly (the rows carry no id): {}.", report.repeated_rows.count, some_of(&report.repeated_rows.examples)) }</p>
            }
            { table_grid(&format!("{id}-populations"), &populations, look, &populations.rows, &[], none) }
            if !columns.rows.is_empty() {
                { table_grid(&format!("{id}-cell-columns"), &columns, look, &columns.rows, &[], none) }
            }
        </Section>
    }
}
