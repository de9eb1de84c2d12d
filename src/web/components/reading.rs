//! The reading summary, shown before any number: every file with its detected format and
//! counts, what the dataset holds, and every counted warning with examples.

use yew::prelude::*;

use crate::web::components::explore::Explore;

use crate::audit::RescoreTable;

use super::warnings::warning_item;
use super::{Card, ReportRef};
use crate::ingest::Severity;
use crate::web::format::{count, duration};
use crate::web::protocol::Timing;

#[derive(Properties, PartialEq)]
pub struct ReadingProps {
    pub report: ReportRef,
    pub timing: Option<Timing>,
}

fn size(bytes: usize) -> String {
    if bytes >= 1 << 20 {
        format!("{:.1} MB", bytes as f64 / (1 << 20) as f64)
    } else if bytes >= 1 << 10 {
        format!("{:.1} kB", bytes as f64 / (1 << 10) as f64)
    } else {
        format!("{bytes} B")
    }
}

/// `#reading-summary`.
#[function_component(ReadingSummary)]
pub fn reading_summary(props: &ReadingProps) -> Html {
    let r = &props.report;
    let c = &r.reading.counts;
    let n_warn: usize = r
        .reading
        .warnings
        .iter()
        .chain(&r.scoring_warnings)
        .filter(|w| w.severity == Severity::Warning)
        .map(|w| w.count)
        .sum();
    let timing = props.timing.as_ref().map(|t| {
        html! {
            <p class="timing" id="timing" data-total-ms={format!("{:.0}", t.total_ms)}>
                { format!("Read in {}, checked in {}, scored and audited in {} (total {}){}.",
                    duration(t.read_ms), duration(t.build_ms), duration(t.audit_ms), duration(t.total_ms),
                    if t.helper_intervals > 0 {
                        format!("; {} of the bootstrap intervals computed by a second worker", t.helper_intervals)
                    } else {
                        String::new()
                    }) }
            </p>
        }
    });
    html! {
        <Card id="reading-summary" title="What was read" report={props.report.clone()} exports={vec![RescoreTable::Warnings]}>
            <Explore>
            <table id="files-table" class="compact">
                <thead><tr>
                    <th scope="col">{"file"}</th><th scope="col">{"detected format"}</th><th scope="col">{"size"}</th>
                    <th scope="col">{"records"}</th><th scope="col">{"memories"}</th><th scope="col">{"queries"}</th><th scope="col">{"ranked lists"}</th>
                </tr></thead>
                <tbody>
                { for r.reading.files.iter().map(|f| html! {
                    <tr data-file={f.name.clone()}>
                        <td data-col="name">{ f.name.clone() }</td>
                        <td data-col="format" data-format={serde_json::to_value(f.format).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()}>
                            { f.format_description.clone() }{ if f.gzip { " (gzip)" } else { "" } }
                        </td>
                        <td class="num">{ size(f.bytes) }</td>
                        <td class="num" data-col="records">{ count(f.records) }</td>
                        <td class="num" data-col="memories">{ count(f.memories) }</td>
                        <td class="num" data-col="queries">{ count(f.queries) }</td>
                        <td class="num" data-col="runs">{ count(f.runs) }</td>
                    </tr>
                }) }
                </tbody>
            </table>
            </Explore>
            <p class="counts" id="counts">
                { format!("{} memories ({} raw, {} canonical, {} multi-anchor) from {} anchors; {} queries ({} with evidence); \
                    {} systems, {} ranked lists, {} ranked items.",
                    count(c.memories), count(c.raw_memories), count(c.canonical_memories), count(c.multi_anchor_memories),
                    count(c.anchors), count(c.queries), count(c.queries_with_evidence), count(c.systems),
                    count(c.ranked_lists), count(c.ranked_items)) }
            </p>
            if !c.kinds.is_empty() {
                <p class="kinds muted">{ "Memory kinds: " }{ c.kinds.iter().map(|(k, n)| format!("{k} {}", count(*n))).collect::<Vec<_>>().join(", ") }</p>
            }
            // One node, line or not (ARCHITECTURE.md, invariants: optional view children).
            { timing.unwrap_or_default() }
            if r.reading.warnings.is_empty() && r.scoring_warnings.is_empty() {
                <p class="ok">{ "No warnings: everything read was used as is." }</p>
            } else {
                <p>{ format!("{} problem(s) counted; nothing was dropped or changed silently. Open a line for examples.", count(n_warn)) }</p>
                <ul class="warnings" id="warnings">
                    { for r.reading.warnings.iter().map(|w| warning_item("reading", w)) }
                    { for r.scoring_warnings.iter().map(|w| warning_item("scoring", w)) }
                </ul>
            }
            if r.systems.is_empty() {
                <p class="notice" role="status">{ "No ranked lists were read: add a runs file (runs.jsonl, per-hit rows, a LongMemEval retrieval log or a TREC run) to score systems." }</p>
            }
        </Card>
    }
}
