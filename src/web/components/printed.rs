//! The printed-numbers check on a tool page (`#{prefix}printed-card`): choose a file naming a
//! paper's printed numbers (their table, row and column of this page's report;
//! `docs/formats.md` §14) and see each against the result on screen — the same check as
//! `memaudit verify --printed FILE SUBCOMMAND …` with the page's settings, drawn from the core's
//! table ([`crate::printed::table`]).

use std::rc::Rc;

use wasm_bindgen_futures::JsFuture;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::Section;
use super::export::lazy_exports;
use super::grid::{Kind, Look, RowAttrs, table_grid};
use crate::capability::Capability;
use crate::ingest::InputFile;
use crate::printed::{self, CheckRow, Printed};

#[derive(Properties)]
pub struct PrintedProps<B: 'static, C: Capability> {
    /// The page's id prefix (`alignment-`).
    pub prefix: AttrValue,
    /// The result on screen.
    pub batch: Rc<B>,
    /// Its report.
    pub report: fn(&B) -> &C::Report,
}

impl<B: 'static, C: Capability> PartialEq for PrintedProps<B, C> {
    fn eq(&self, other: &Self) -> bool {
        self.prefix == other.prefix && Rc::ptr_eq(&self.batch, &other.batch)
    }
}

/// How the check's columns show (the release page's printed table too).
pub fn look(col: &str) -> Look {
    match col {
        "line" => Look::named(col, Kind::Int),
        "recomputed" => Look::named(col, Kind::NumOr),
        "difference" => Look::named(col, Kind::Signed),
        _ => Look::named(col, Kind::Text),
    }
}

/// The file chosen, read: its name and its entries, or why they cannot be read.
type Chosen = Option<(String, Result<Rc<Vec<Printed>>, String>)>;

async fn read_chosen(file: web_sys::File) -> (String, Result<Rc<Vec<Printed>>, String>) {
    let name = file.name();
    let bytes = match JsFuture::from(file.array_buffer()).await {
        Ok(buffer) => js_sys::Uint8Array::new(&buffer).to_vec(),
        Err(e) => {
            let why = format!("could not read {name}: {e:?}");
            return (name, Err(why));
        }
    };
    let entries = printed::read(&InputFile::new(&name, bytes)).map(Rc::new).map_err(|e| e.to_string());
    (name, entries)
}

/// The printed numbers that contradict each other ([`printed::lint::lint_printed`]), one item
/// each with its file and line (`#{id} li[data-kind]`); nothing when there are none.
pub fn findings_list(id: &str, findings: &[printed::lint::Finding]) -> Html {
    if findings.is_empty() {
        return html! {};
    }
    html! {
        <>
            <p class="intro">{ "Printed numbers that contradict each other, whatever the data (\u{3ba} = compliance / recall, a delta and its two means, \
                an estimate inside its interval, MAP and MRR, a table's mean ranks):" }</p>
            <ul class="notes" id={id.to_string()}>
                { for findings.iter().map(|f| html! {
                    <li data-kind={crate::report::serde_name(&f.kind)}>
                        <strong>{ format!("{} [{}]", f.table.clone().unwrap_or_default(), f.row) }</strong>{ format!(": {}", f.message) }
                        { f.location.as_ref().map(|l| format!(" ({l})")).unwrap_or_default() }
                    </li>
                }) }
            </ul>
        </>
    }
}

/// The card.
#[function_component(PrintedCard)]
pub fn printed_card<B: 'static, C: Capability>(props: &PrintedProps<B, C>) -> Html {
    let chosen = use_state(|| None as Chosen);
    let p = props.prefix.to_string();
    let onchange = {
        let chosen = chosen.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            let Some(file) = input.files().and_then(|l| l.get(0)) else { return };
            let chosen = chosen.clone();
            wasm_bindgen_futures::spawn_local(async move { chosen.set(Some(read_chosen(file).await)) });
        })
    };
    let analysis = C::ANALYSIS;
    let body = match &*chosen {
        None => html! {},
        Some((name, Err(e))) => {
            html! { <p class="error" role="alert" id={format!("{p}printed-error")}>{ format!("{name}: {e}") }</p> }
        }
        Some((name, Ok(entries))) => {
            let check = Rc::new(printed::check::<C>((props.report)(&props.batch), entries));
            let headlines = printed::table::headlines(&check);
            let table = printed::table::table(&check);
            let (x, y) = (check.clone(), check.clone());
            let csv = move || printed::table::table(&x).to_csv().map_err(|e| e.to_string());
            let json = move || serde_json::to_string_pretty(&*y).map_err(|e| e.to_string());
            html! {
                <>
                    <p class="muted" id={format!("{p}printed-file")}>{ format!("{name}: {} printed numbers.", entries.len()) }</p>
                    <ul class="notes" id={format!("{p}printed-headlines")}>
                        { for headlines.iter().map(|h| html! {
                            <li data-level={h.level.name()}><strong>{ h.text.clone() }</strong>{ " \u{2014} " }{ h.evidence.clone() }</li>
                        }) }
                    </ul>
                    <div class="exports">{ lazy_exports("printed", "printed numbers", csv, json) }</div>
                    { findings_list(&format!("{p}printed-findings"), &check.findings) }
                    { table_grid(&format!("{p}printed"), &table, look, &check.rows, &[],
                        |r: &CheckRow| RowAttrs::data(vec![("data-line", r.line.to_string()), ("data-verdict", r.verdict.name().to_string())])) }
                </>
            }
        }
    };
    html! {
        <Section id={format!("{p}printed-card")} title="The paper's printed numbers"
            intro={html! { <p class="intro">{ "Choose a file naming each number a paper prints by its table, row and column of this report \
                (source, table, row, column, printed; docs/formats.md \u{a7}14): each is matched against the result above \u{2014} matches, \
                within rounding (one unit of the last printed digit), differs, or not computed, and why; for a number that does not match, \
                the conventions that would give it (\u{d7}100, truncated, 1 \u{2212} x, the sign, ddof, another column or a neighbouring row). The same as " }
                <code>{ format!("memaudit verify --printed FILE {analysis} \u{2026}") }</code>{ " with these settings." }</p> }}>
            <div class="field">
                <label for={format!("{p}printed-input")}>{ "printed numbers" }</label>
                <input type="file" id={format!("{p}printed-input")} accept=".csv,.tsv,.txt,.json,.jsonl" {onchange} />
            </div>
            { body }
        </Section>
    }
}
