//! CSV and JSON export buttons. CSV comes from [`crate::audit::table::table`] and
//! [`crate::report::Table::to_csv`], so a download is byte-identical to the CLI's
//! `memaudit rescore --format csv --table NAME` on the same files and settings.

use serde::Serialize;
use yew::prelude::*;

use super::ReportRef;
use crate::audit::{Report, RescoreTable};
use crate::web::dom::download_text;

fn pretty<T: Serialize + ?Sized>(v: &T) -> Result<String, String> {
    serde_json::to_string_pretty(v).map_err(|e| e.to_string())
}

/// The JSON export of a table: the report's own rows for it (same keys as the CLI's JSON).
pub fn table_json(r: &Report, table: RescoreTable) -> Result<String, String> {
    match table {
        RescoreTable::Summary => pretty(&r.summary),
        RescoreTable::PerQuery => pretty(&r.per_query),
        RescoreTable::Instability => pretty(&r.instability),
        RescoreTable::InstabilityByCategory => pretty(&r.instability_by_category),
        RescoreTable::Aggregations => pretty(&r.aggregations),
        RescoreTable::KendallFromRaw => pretty(&r.kendall_from_raw),
        RescoreTable::Agreement => pretty(&r.agreement),
        RescoreTable::Winners => pretty(&r.winners),
        RescoreTable::Recommendations => pretty(&r.recommendations),
        RescoreTable::Curve => pretty(&r.curve),
        RescoreTable::Contested => pretty(&r.contested),
        RescoreTable::ContestedSummary => pretty(&r.contested_summary),
        RescoreTable::DeltaDistribution | RescoreTable::DeltaHistogram => pretty(&r.delta_distribution),
        RescoreTable::Coverage => pretty(&r.coverage),
        RescoreTable::Warnings => pretty(&serde_json::json!({
            "reading": r.reading.warnings,
            "scoring": r.scoring_warnings,
        })),
        RescoreTable::Card => pretty(&r.card),
        RescoreTable::Mapping => pretty(&r.mapping),
    }
}

/// A whole report as the CLI's `--format json` prints it (the version envelope first).
/// `headlines` are the report's, as the worker computed them.
pub fn report_json<C: crate::capability::Capability>(
    report: &C::Report,
    headlines: &[crate::headline::Headline],
) -> Result<String, String> {
    pretty(&crate::capability::envelope_with(report, headlines.to_vec()))
}

/// The CSV export of a table (exactly the CLI's `--format csv --table NAME`).
pub fn table_csv(r: &Report, table: RescoreTable) -> Result<String, String> {
    crate::audit::table::table(r, table).to_csv().map_err(|e| e.to_string())
}

fn report_error(what: &str, e: String) {
    gloo::console::error!(format!("memaudit: could not export {what}: {e}"));
}

#[derive(Properties, PartialEq)]
pub struct ExportProps {
    pub report: ReportRef,
    pub table: RescoreTable,
}

/// "CSV" and "JSON" buttons for one report table.
#[function_component(ExportButtons)]
pub fn export_buttons(props: &ExportProps) -> Html {
    let which = props.table;
    let table = which.name();
    let csv = {
        let r = props.report.clone();
        Callback::from(move |_: MouseEvent| {
            match table_csv(&r, which).and_then(|t| download_text(&format!("memaudit-{table}.csv"), "text/csv", &t)) {
                Ok(()) => {}
                Err(e) => report_error(table, e),
            }
        })
    };
    let json = {
        let r = props.report.clone();
        Callback::from(move |_: MouseEvent| {
            match table_json(&r, which)
                .and_then(|t| download_text(&format!("memaudit-{table}.json"), "application/json", &t))
            {
                Ok(()) => {}
                Err(e) => report_error(table, e),
            }
        })
    };
    let label = table.replace('_', " ");
    html! {
        <span class="export" role="group" aria-label={format!("export {label}")}>
            <button type="button" class="small" data-export={table} data-kind="csv"
                title={format!("Download {label} as CSV (same bytes as memaudit rescore --format csv --table {table})")}
                onclick={csv}>{ format!("{label} CSV") }</button>
            <button type="button" class="small" data-export={table} data-kind="json"
                title={format!("Download {label} as JSON")}
                onclick={json}>{ format!("{label} JSON") }</button>
        </span>
    }
}

/// "CSV" and "JSON" buttons (`button[data-export={table}][data-kind=csv|json]`) whose contents
/// are made on click by `csv` and `json`.
pub fn lazy_exports(
    table: &'static str,
    label: &str,
    csv: impl Fn() -> Result<String, String> + 'static,
    json: impl Fn() -> Result<String, String> + 'static,
) -> Html {
    let on_csv = Callback::from(move |_: MouseEvent| {
        if let Err(e) = csv().and_then(|t| download_text(&format!("memaudit-{table}.csv"), "text/csv", &t)) {
            report_error(table, e);
        }
    });
    let on_json = Callback::from(move |_: MouseEvent| {
        if let Err(e) = json().and_then(|t| download_text(&format!("memaudit-{table}.json"), "application/json", &t)) {
            report_error(table, e);
        }
    });
    html! {
        <span class="export" role="group" aria-label={format!("export {label}")}>
            <button type="button" class="small" data-export={table} data-kind="csv"
                title={format!("Download {label} as CSV")} onclick={on_csv}>{ format!("{label} CSV") }</button>
            <button type="button" class="small" data-export={table} data-kind="json"
                title={format!("Download {label} as JSON")} onclick={on_json}>{ format!("{label} JSON") }</button>
        </span>
    }
}

/// Pretty JSON of any serialisable value.
pub fn to_json<T: Serialize + ?Sized>(v: &T) -> Result<String, String> {
    pretty(v)
}

/// A download button for ready-made text: `button#{id}`.
pub fn text_download(
    id: &'static str,
    label: &str,
    filename: &'static str,
    mime: &'static str,
    make: impl Fn() -> Result<String, String> + 'static,
) -> Html {
    let onclick = Callback::from(move |_: MouseEvent| {
        if let Err(e) = make().and_then(|t| download_text(filename, mime, &t)) {
            report_error(filename, e);
        }
    });
    html! {
        <button type="button" class="small" id={id} {onclick}>{ label.to_string() }</button>
    }
}
