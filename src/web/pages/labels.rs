//! The labels page: drop label tables (long: item, rater, label; or wide: one column per rater)
//! and see how far the raters agree — Fleiss' κ over all raters, Cohen's κ and percent agreement
//! per pair (with bootstrap intervals over items), each rater's label distribution with Wilson
//! intervals, the majority label per item with its stated tie-break, and a stratified sample to
//! check by hand — the numbers of `memaudit labels --format json`.

use std::rc::Rc;

use yew::prelude::*;

use super::tool::{BatchOf, Tool, ToolPage, Ui, file_notes};
use crate::label_audit::{
    self, LabelsRequest, LabelsTable, PairItems, ShowItem, analyse::DistributionRow, analyse::ItemRow,
    analyse::OverallRow, analyse::PairRow, sample::SampleRow,
};
use crate::report::Table;
use crate::report::instance::ItemText;
use crate::web::components::Section;
use crate::web::components::export::{text_download, to_json};
use crate::web::components::fields::FieldDraft;
use crate::web::components::grid::{Kind, Look, RowAttrs, table_exports, table_grid};
use crate::web::components::instance::ItemShown;
use crate::web::format::{count, duration};

/// A labels analysis as the page keeps it.
type LabelsBatch = BatchOf<Labels>;

/// Items shown on screen (the CSV export has them all).
const ITEMS_SHOWN: usize = 500;

/// The settings as edited: every field of the request.
pub type Draft = FieldDraft<LabelsRequest>;

pub enum Labels {}

/// The labels page.
pub type LabelsPage = ToolPage<Labels>;

screen!(crate::label_audit::Labels => LabelsPage, Tools);

/// The settings as `memaudit labels` options.
fn conventions(b: &LabelsBatch) -> String {
    let s = &b.report.settings;
    let mut out = format!(
        "bootstrap={} seed={} confidence={} rng=chacha8 intervals=percentile shares=wilson tie_break={} pair_items={} repeats={}",
        s.bootstrap.resamples, s.bootstrap.seed, s.bootstrap.confidence, s.tie_break, s.pair_items, s.repeats
    );
    if let Some(t) = &s.tie_rater {
        out.push_str(&format!(" tie_rater={t}"));
    }
    if !s.collapse.is_empty() {
        out.push_str(&format!(" collapse={}", s.collapse.join(";")));
    }
    out.push_str(&format!(" classes={}", if s.classes_stated { "stated" } else { "first_seen" }));
    out
}

fn look(col: &str) -> Look {
    match col {
        "complete_items" => Look::new("items", Kind::Int).titled("items labelled by every rater"),
        "raters" | "n" | "agreements" | "count" | "unanimous" | "ties" | "undefined_resamples" => {
            Look::named(col, Kind::Int)
        }
        "fleiss_kappa" => Look::new("Fleiss κ", Kind::Signed),
        "kappa" => Look::new("Cohen κ", Kind::Signed),
        "low" | "high" => Look::named(col, Kind::Signed).titled("percentile bootstrap (κ) or Wilson (shares) interval"),
        "p_bar" => Look::new("P̄", Kind::Num).titled("Fleiss' observed agreement"),
        "p_e" => Look::new("p_e", Kind::Num).titled("chance agreement"),
        "mean_pair_agreement" => Look::new("mean pair agreement", Kind::Share),
        "percent_agreement" | "share" => Look::named(col, Kind::Share),
        _ => Look::named(col, Kind::Text),
    }
}

/// What `memaudit labels --format json` prints.
pub fn report_json(b: &LabelsBatch) -> Result<String, String> {
    crate::web::components::export::report_json::<crate::label_audit::Labels>(&b.report, &b.headlines)
}

fn table_of(b: &LabelsBatch, t: LabelsTable) -> crate::error::Result<Table> {
    label_audit::table(&b.report, t)
}

impl Tool for Labels {
    type Capability = crate::label_audit::Labels;
    const INTAKE_TITLE: &'static str = "Labels by raters";
    const CARDS: crate::web::components::headlines::Cards = &[
        ("overall", "labels-overall-card"),
        ("pairs", "labels-pairs-card"),
        ("distribution", "labels-distribution-card"),
        ("items", "labels-items-card"),
        ("sample", "labels-sample-card"),
        ("populations", "labels-populations-card"),
    ];
    type Draft = Draft;
    type View = ItemShown;

    fn tagline() -> Html {
        html! { { "How far raters — people or LLM judges — agree on categorical labels: Fleiss' and Cohen's κ with bootstrap \
        intervals, percent agreement, label distributions with Wilson intervals, the majority label, and a stratified sample to check by hand." } }
    }

    fn intake() -> Html {
        html! {
            <p>{ "Drop label tables (CSV/TSV, JSON Lines or a JSON array): long, one row per item, rater and label (" }
                <code>{ "item,rater,label" }</code>{ "; TIAP's " }<code>{ "run_label,query_index,judge_model,judge_semantic_label" }</code>
                { " is read as it is), or wide, one row per item and one column per rater. Any label set; labels are matched exactly." }</p>
        }
    }

    fn request(draft: &Draft) -> Result<LabelsRequest, String> {
        draft.parse(LabelsRequest::default())
    }

    fn settings(page: &ToolPage<Self>, ui: &Ui<Self>) -> Html {
        // `labels-sample` is the sample's table: the field keeps the id `labels-sample-per-bucket`.
        ui.fields_form_with("labels", &page.draft, |d: &mut Draft| d, &[], &[("sample", "labels-sample-per-bucket")])
    }

    fn after_result(view: &mut ItemShown, _draft: &mut Draft, _b: &LabelsBatch, fresh: bool) -> Option<ShowItem> {
        view.after_result(fresh).map(|item| ShowItem { item })
    }

    fn on_detail(view: &mut ItemShown, answer: Option<Result<Rc<ItemText>, String>>) -> bool {
        view.answered(answer)
    }

    fn results(page: &ToolPage<Self>, b: &Rc<LabelsBatch>, ui: &Ui<Self>) -> Html {
        let r = &b.report;
        let view = &page.view;
        let on_item = ui.ask(|v: &mut ItemShown, _: Option<&LabelsBatch>, item: String| {
            v.ask(item.clone());
            Some(ShowItem { item })
        });
        let conv = Some(AttrValue::from(conventions(b)));
        let json = {
            let b = b.clone();
            move || report_json(&b)
        };
        let p = &r.problems;
        let items_table = {
            let mut t = label_audit::table(r, LabelsTable::Items).unwrap_or_default();
            t.rows.truncate(ITEMS_SHOWN);
            t
        };
        let item_rows: Vec<ItemRow> = r.item_rows.iter().take(ITEMS_SHOWN).cloned().collect();
        html! {
            <>
                <div class="results-head">
                    <p id="labels-counts" data-items={r.items.to_string()} data-complete={r.complete_items.to_string()}
                        data-raters={r.raters.len().to_string()}>
                        { format!("{} items ({} labelled by every rater), {} raters, classes {} ({}).",
                            count(r.items), count(r.complete_items), r.raters.len(), r.classes.join(" / "), duration(b.timing.total_ms)) }</p>
                    <div class="exports">{ text_download("labels-report-json", "Full report JSON", "memaudit-labels.json", "application/json", json) }</div>
                </div>
                <Section id="labels-reading" title="What was read" conventions={conv.clone()}>
                    { file_notes("labels-", &b.overview) }
                    <p class="intro" id="labels-problems" data-missing={p.missing.count.to_string()} data-invalid={p.invalid.count.to_string()}
                        data-repeats={p.repeats.count.to_string()} data-conflicts={p.conflicts.count.to_string()}>
                        { format!("Columns: {}. {} missing labels, {} outside the classes, {} repeats ({} conflicting), {} items with inconsistent group or stratum.",
                            r.readings.iter().map(|x| format!("{}: {} item {}{}", x.file, x.layout, x.item_text(),
                                match (&x.rater, &x.label) {
                                    (Some(a), Some(l)) => format!(", rater {a}, label {l}"),
                                    _ => format!(", raters {}", x.rater_columns.join(", ")),
                                })).collect::<Vec<_>>().join("; "),
                            p.missing.count, p.invalid.count, p.repeats.count, p.conflicts.count, p.inconsistent.count) }
                    </p>
                </Section>
                { crate::web::components::cells::populations_card("labels", &r.populations) }
                <Section id="labels-overall-card" title="All raters: Fleiss' κ" conventions={conv.clone()}
                    exports={table_exports(LabelsTable::Overall, b, table_of, |b| to_json(&b.report.overall))}
                    intro={html! { <p class="intro">{ "Fleiss' κ over every rater on the items every rater labelled, with its percentile bootstrap \
                        interval over items; the mean of the pairs' percent agreement; unanimous items; ties of the majority after the tie-break. \
                        One row per group and scale (the classes, and the collapse when one is set)." }</p> }}>
                    { table_grid("labels-overall", &label_audit::table(r, LabelsTable::Overall).unwrap_or_default(), look, &r.overall, &[],
                        |o: &OverallRow| RowAttrs::data(vec![("data-group", o.group.clone()), ("data-scale", o.scale.clone())])) }
                </Section>
                <Section id="labels-pairs-card" title="Each pair: Cohen's κ and agreement" conventions={conv.clone()}
                    exports={table_exports(LabelsTable::Pairs, b, table_of, |b| to_json(&b.report.pairs))}
                    intro={html! { <p class="intro">{ format!("Cohen's κ and percent agreement of each pair of raters on {}, with a percentile \
                        bootstrap interval over those items.", if r.settings.pair_items == PairItems::Complete { "the items every rater labelled" } else { "the items both labelled" }) }</p> }}>
                    { table_grid("labels-pairs", &label_audit::table(r, LabelsTable::Pairs).unwrap_or_default(), look, &r.pairs, &[],
                        |q: &PairRow| RowAttrs::data(vec![("data-group", q.group.clone()), ("data-scale", q.scale.clone()),
                            ("data-pair", format!("{}~{}", q.rater_a, q.rater_b))])) }
                </Section>
                <Section id="labels-distribution-card" title="Label distributions" conventions={conv.clone()}
                    exports={table_exports(LabelsTable::Distribution, b, table_of, |b| to_json(&b.report.distribution))}
                    intro={html! { <p class="intro">{ "Each rater's labels over the items it labelled, and the majority's over the items every rater \
                        labelled without a tie: count, share and Wilson interval." }</p> }}>
                    { table_grid("labels-distribution", &label_audit::table(r, LabelsTable::Distribution).unwrap_or_default(), look, &r.distribution, &[],
                        |d: &DistributionRow| RowAttrs::data(vec![("data-group", d.group.clone()), ("data-scale", d.scale.clone()),
                            ("data-rater", d.rater.clone()), ("data-label", d.label.clone())])) }
                </Section>
                <Section id="labels-items-card" title="Items" conventions={conv.clone()}
                    exports={table_exports(LabelsTable::Items, b, table_of, |b| to_json(&b.report.item_rows))}
                    intro={html! { <p class="intro">{ if r.item_rows.len() > ITEMS_SHOWN {
                        format!("The first {ITEMS_SHOWN} of {} items (the CSV export has them all): each rater's label and the majority.", r.item_rows.len())
                    } else { "Each item: each rater's label (empty: none) and the majority on the items every rater labelled.".to_string() } }
                        { " Click an item (or press Enter on it) to read it as the files state it: the text its rows share, then each rater's label and cells." }</p> }}>
                    { table_grid("labels-items", &items_table, |c| Look::named(c, Kind::Text), &item_rows, &[],
                        |i: &ItemRow| view.row(RowAttrs::data(vec![("data-item", i.item.clone())]).with_class((i.complete && !i.unanimous).then_some("disagree")), &i.item, &on_item)) }
                </Section>
                { view.view("labels-", "rater") }
                if let Some(s) = &r.sample {
                    <Section id="labels-sample-card" title="Stratified sample to check by hand" conventions={Some(AttrValue::from(format!(
                        "stratum={} per_bucket={} mode={} seed={}", s.stratum, s.per_bucket, s.mode, s.seed)))}
                        exports={table_exports(LabelsTable::Sample, b, table_of, |b| to_json(&b.report.sample))}
                        intro={html! { <p class="intro">{ format!("{} per bucket of `{}` ({}); buckets: {}; {} items in no bucket.",
                            s.per_bucket, s.stratum, s.mode,
                            s.buckets.iter().map(|x| format!("{} ({} drawn of {})", x.bucket, x.drawn, x.items)).collect::<Vec<_>>().join(", "),
                            s.outside) }</p> }}>
                        { table_grid("labels-sample", &label_audit::table(r, LabelsTable::Sample).unwrap_or_default(), |c| Look::named(c, Kind::Text), &s.rows, &[],
                            |x: &SampleRow| view.row(RowAttrs::data(vec![("data-item", x.item.clone()), ("data-bucket", x.bucket.clone())]), &x.item, &on_item)) }
                    </Section>
                }
            </>
        }
    }
}
