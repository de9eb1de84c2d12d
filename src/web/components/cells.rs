//! How rows become cells, on every page whose capability forms cells ([`crate::cells`]): the
//! "Populations" card (the items each cell holds, cells side by side on different items, the
//! columns that split, pool or were not used), drawn from the core's `CellReport` and its
//! tables, so they equal the CLI's `--table populations` and `--table cell_columns`.

use yew::prelude::*;

use super::Section;
use super::grid::{Kind, Look, RowAttrs, table_grid};
use crate::cells::{CellReport, some_of};

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
