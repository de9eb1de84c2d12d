//! The comparison page's result views: the pairing report (coverage per arm, duplicates with
//! examples, the refusal message verbatim), the arms and contrasts tables, the Friedman test
//! with mean ranks and cliques, and the items behind a click. Numeric cells carry `data-col`
//! (the CSV column of `memaudit compare --format csv --table NAME`) and `data-value` (full
//! precision); rows carry their keys (`data-arm`, `data-a`, `data-b`, `data-item`).

use std::rc::Rc;

use yew::prelude::*;

use crate::web::components::grid::{Column as GridColumn, Kind, Look, RowAttrs, TableTag, Val, table_grid, table_view};

use super::Section;
use super::export::{lazy_exports, to_json};
use super::warnings::warnings_list;
use crate::compare::CompareTable;
use crate::compare::table::table as compare_table;
use crate::compare::unit::{ArmItem, ItemsView};
use crate::compare::{ArmRow, Comparison, PairItem, PairRow, UnpairedArms};
use crate::outcomes::PairingReport;
use crate::report::Table;
use crate::web::format::{count, fmt4, text_cell};

/// A comparison shared by the views; equal when it is the same one.
#[derive(Debug, Clone)]
pub struct ComparisonRef(pub Rc<Comparison>);

impl PartialEq for ComparisonRef {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl std::ops::Deref for ComparisonRef {
    type Target = Comparison;
    fn deref(&self) -> &Comparison {
        &self.0
    }
}

/// The CSV of one comparison table (`memaudit compare --format csv --table NAME`).
pub fn compare_csv(c: &Comparison, which: CompareTable) -> Result<String, String> {
    compare_table(c, which).to_csv().map_err(|e| e.to_string())
}

fn exports(c: &ComparisonRef, which: CompareTable) -> Html {
    let (a, b) = (c.clone(), c.clone());
    lazy_exports(
        which.name(),
        which.name(),
        move || compare_csv(&a, which),
        move || match which {
            CompareTable::Arms => to_json(&b.arms),
            CompareTable::Pairs => to_json(&b.pairs),
            CompareTable::Friedman | CompareTable::Ranks => to_json(&b.friedman),
            CompareTable::Strata => to_json(&b.by_stratum),
            CompareTable::Costs | CompareTable::Matched => to_json(&b.costs),
            CompareTable::Judges => to_json(&b.judges),
        },
    )
}

#[derive(Properties, PartialEq)]
pub struct PairingProps {
    pub report: Rc<PairingReport>,
    /// The refusal message, verbatim, when the pairing refused a paired test.
    #[prop_or_default]
    pub refusal: Option<AttrValue>,
}

/// `#pairing`: what the validator found, shown before any test.
#[function_component(PairingView)]
pub fn pairing_view(props: &PairingProps) -> Html {
    let r = &props.report;
    let d = &r.duplicates;
    let list = |v: &[String]| if v.is_empty() { "(none)".to_string() } else { v.join(" × ") };
    let coverage_look = |col: &str| match col {
        "arm" => Look::named(col, Kind::Text),
        "items_present" => Look::new("items with a value", Kind::Int),
        _ => Look::named(col, Kind::Int),
    };
    let intro = html! {
        <p class="intro">{ "Before any paired test: which items each arm has, and whether every (item, arm) holds exactly \
            one value. A paired test runs only on paired data." }</p>
    };
    html! {
        <Section id="pairing" title="Pairing" {intro}>
            if let Some(m) = &props.refusal {
                <div class="refusal" id="compare-refusal" role="alert">
                    <h3>{ "No paired test: the data is not paired under this spec" }</h3>
                    <p id="refusal-message" class="message">{ m.clone() }</p>
                </div>
            } else if r.is_paired || r.restricted_to_complete {
                <p class="ok" id="pairing-ok" data-items={r.items_used.to_string()} data-arms={r.n_arms.to_string()}>
                    { format!("Paired: {} items × {} arms{}.", count(r.items_used), r.n_arms,
                        if r.restricted_to_complete { format!(" (restricted to the items present in every arm, of {})", count(r.n_items)) } else { String::new() }) }
                </p>
            }
            <dl class="pairing-facts" id="pairing-facts">
                <dt>{ "key" }</dt><dd data-key="key"><code>{ list(&r.key) }</code></dd>
                <dt>{ "arm" }</dt><dd data-key="arm"><code>{ list(&r.arm) }</code></dd>
                <dt>{ "value" }</dt><dd data-key="value">{ r.value.clone() }</dd>
                <dt>{ "strata" }</dt><dd data-key="strata"><code>{ list(&r.strata) }</code></dd>
                <dt>{ "rows" }</dt>
                <dd data-key="rows">{ format!("{} read, {} filtered out, {} used", count(r.rows), count(r.rows_filtered), count(r.rows_used)) }</dd>
                <dt>{ "items" }</dt>
                <dd data-key="items" data-value={r.n_items.to_string()}>
                    { format!("{} ({} with a value in every arm; {} used)", count(r.n_items), count(r.complete_items), count(r.items_used)) }
                </dd>
            </dl>
            { table_grid("pairing-arms", &crate::compare::table::coverage_table(r), coverage_look, &r.arms, &[], |a: &crate::outcomes::ArmCoverage| {
                RowAttrs::data(vec![("data-arm", a.arm.clone())])
                    .with_class((a.items_without_row + a.items_without_value > 0).then_some("incomplete"))
            }) }
            if d.cells > 0 {
                <div class="duplicates" id="pairing-duplicates" data-cells={d.cells.to_string()}>
                    <p>
                        { format!("{} (item, arm) cells hold several rows ({} extra rows){}.", count(d.cells), count(d.surplus_rows),
                            if d.aggregated { "; they were averaged as asked" } else { "" }) }
                        if !d.varying_columns.is_empty() {
                            { " Columns that differ within them: " }<code>{ d.varying_columns.join(", ") }</code>{ "." }
                        }
                    </p>
                    <ul class="examples">
                        { for d.examples.iter().map(|e| html! {
                            <li>
                                { "item " }<code>{ e.item.clone() }</code>{ ", arm " }<code>{ e.arm.clone() }</code>{ ": " }
                                { e.rows.iter().map(|l| l.to_string()).collect::<Vec<_>>().join("; ") }
                            </li>
                        }) }
                    </ul>
                </div>
            }
            if !r.arms_with_different_items.is_empty() {
                <p class="notice">{ format!("Arms whose items differ from the others: {}.", r.arms_with_different_items.join(", ")) }</p>
            }
            { warnings_list("pairing-warnings", r.warnings.iter().map(|w| ("pairing", w))) }
        </Section>
    }
}

#[derive(Properties, PartialEq)]
pub struct CompareTableProps {
    pub comparison: ComparisonRef,
    /// The selected arm or contrast (highlighted).
    #[prop_or_default]
    pub selected: Option<AttrValue>,
    #[prop_or_default]
    pub on_select: Callback<(String, Option<String>)>,
}

/// What a click (or Enter) on a row selects: an arm (`b: None`) or a contrast a − b.
fn select_on(on_select: &Callback<(String, Option<String>)>, a: &str, b: Option<&str>) -> Callback<()> {
    let on_select = on_select.clone();
    let (a, b) = (a.to_string(), b.map(str::to_string));
    Callback::from(move |_: ()| on_select.emit((a.clone(), b.clone())))
}

/// The `*` of a contrast significant after Holm.
fn sig_cell(significant: bool) -> Html {
    html! {
        <td class="sig" data-col="significant" data-value={significant.to_string()}>{ if significant { "*" } else { "" } }</td>
    }
}

/// The arms a given arm beats significantly (Holm-adjusted), as in the LaTeX export.
fn beats(c: &Comparison, arm: &str) -> Vec<String> {
    c.pairs
        .iter()
        .filter(|p| p.significant)
        .filter_map(|p| {
            let better_a = if c.settings.higher_is_better { p.diff > 0.0 } else { p.diff < 0.0 };
            let (winner, loser) = if better_a { (&p.a, &p.b) } else { (&p.b, &p.a) };
            (winner == arm).then(|| loser.clone())
        })
        .collect()
}

/// `#arms`: each arm's mean with its interval, exact binomial intervals and mean rank: the
/// core's `arms` table (`--table arms`), with the arms each one beats.
#[function_component(ArmsTable)]
pub fn arms_table(props: &CompareTableProps) -> Html {
    let c = &props.comparison;
    let labels = arm_labels(c);
    let conf = format!("{}%", (1.0 - c.settings.alpha) * 100.0);
    let binary = c.arms.iter().any(|a| a.binary);
    let intro = html! {
        <p class="intro">{ format!("Each arm's mean over the {} paired items with a {conf} bootstrap interval ({} unless noted), \
            Wilson and Clopper–Pearson intervals for 0/1 outcomes, and the mean rank (1 = best). \u{201c}Better than\u{201d} lists \
            the arms it beats significantly after Holm correction. Click a row for the arm's items.",
            count(c.n_items), c.arms.first().map(|a| a.ci_method.clone()).unwrap_or_default()) }</p>
    };
    let look = |col: &str| {
        arm_look(col, &format!("{conf} CI"), binary).unwrap_or_else(|| match col {
            "mean_rank" => Look::named(col, Kind::Num),
            "win_rate" => Look::new("win rate", Kind::Num),
            "copeland" => Look::new("Copeland", Kind::Int),
            _ => Look::folded(),
        })
    };
    let beaten = {
        let c = c.clone();
        GridColumn::new("beats", "better than (Holm)", move |a: &ArmRow| Val::text(beats(&c, &a.arm).join(", ")))
    };
    let attrs = |a: &ArmRow| {
        let selected = props.selected.as_deref() == Some(a.arm.as_str());
        RowAttrs::data(vec![("data-arm", a.arm.clone())])
            .with_class(selected.then_some("selected"))
            .titled(a.ci_note.clone())
            .on_activate(select_on(&props.on_select, &a.arm, None))
    };
    let cell = |a: &ArmRow, col: &str, text: &str| arm_row_cell(&labels, a, col, text);
    html! {
        <Section id="arms" title="Arms" exports={exports(c, CompareTable::Arms)} {intro} conventions={Some(AttrValue::from(c.conventions.clone()))}>
            { table_view("arms-table", &compare_table(c, CompareTable::Arms), look, &c.arms, &[beaten], attrs, cell) }
            if c.arms.iter().any(|a| a.ci_note.is_some()) {
                <ul class="notes">
                    { for c.arms.iter().filter_map(|a| a.ci_note.as_ref().map(|n| html! {
                        <li>{ "\u{2020} " }<code>{ a.arm.clone() }</code>{ format!(": {n}") }</li>
                    })) }
                </ul>
            }
            if !c.notes.is_empty() {
                <ul class="notes" id="compare-notes">{ for c.notes.iter().map(|n| html! { <li>{ n.clone() }</li> }) }</ul>
            }
        </Section>
    }
}

/// How the arms' columns (of the paired arms and of each arm without pairing) are shown; `None`
/// for a column that is not an arm's own. `ci`: the interval columns' header before `low` /
/// `high` (`95% CI`).
fn arm_look(col: &str, ci: &str, binary: bool) -> Option<Look> {
    Some(match col {
        "arm" => Look::named(col, Kind::Text),
        "n" => Look::named(col, Kind::Int),
        "mean" => Look::named(col, Kind::Num),
        "ci_low" => Look::new(format!("{ci} low"), Kind::Num),
        "ci_high" => Look::new(format!("{ci} high"), Kind::Num),
        "ci_method" => Look::new("CI", Kind::Text),
        "wilson_low" => Look::new("Wilson low", Kind::Num).shown_if(binary),
        "wilson_high" => Look::new("Wilson high", Kind::Num).shown_if(binary),
        "clopper_pearson_low" => Look::new("Clopper–Pearson low", Kind::Num).shown_if(binary),
        "clopper_pearson_high" => Look::new("Clopper–Pearson high", Kind::Num).shown_if(binary),
        _ => return None,
    })
}

/// An arm's cells drawn otherwise: its (possibly shortened) name, and a dagger on an interval
/// with a note.
fn arm_row_cell(
    labels: &std::collections::BTreeMap<String, String>,
    a: &ArmRow,
    col: &str,
    text: &str,
) -> Option<Html> {
    match col {
        "arm" => Some(arm_cell("arm", labels, &a.arm)),
        "ci_method" if a.ci_note.is_some() => {
            Some(html! { <td data-col="ci_method">{ format!("{text} \u{2020}") }</td> })
        }
        _ => None,
    }
}

/// Longest arm name shown in full on screen; longer ones get a short label and a legend.
pub const ARM_LABEL_MAX: usize = 24;

/// Every arm's label on screen (its name when short enough, see [`crate::labels`]).
pub fn arm_labels(c: &Comparison) -> std::collections::BTreeMap<String, String> {
    let names: Vec<String> = c.arms.iter().map(|a| a.arm.clone()).collect();
    let labels = crate::labels::short_labels(&names, ARM_LABEL_MAX);
    names.into_iter().zip(labels).collect()
}

/// An arm's cell: its label, the full name as a tooltip when abbreviated (the row's `data-arm`
/// keeps the full name).
fn arm_cell(col: &'static str, labels: &std::collections::BTreeMap<String, String>, arm: &str) -> Html {
    match labels.get(arm).filter(|l| l.as_str() != arm) {
        Some(short) => {
            html! { <td data-col={col} data-full={arm.to_string()} title={arm.to_string()}>{ short.clone() }</td> }
        }
        None => text_cell(col, arm.to_string()),
    }
}

#[derive(Properties, PartialEq)]
pub struct LegendProps {
    pub comparison: ComparisonRef,
}

/// `#arm-legend`: the short labels of long arm names with the full names (only when some name
/// is abbreviated); the exports keep the full names.
#[function_component(ArmLegend)]
pub fn arm_legend(props: &LegendProps) -> Html {
    let labels = arm_labels(&props.comparison);
    let short: Vec<(&String, &String)> = labels.iter().filter(|(n, l)| n != l).collect();
    if short.is_empty() {
        return html! {};
    }
    let order: Vec<&String> =
        props.comparison.arms.iter().map(|a| &a.arm).filter(|a| labels.get(*a) != Some(*a)).collect();
    html! {
        <div class="legend" id="arm-legend" aria-label="arm names">
            <p class="muted">{ format!("Arm names longer than {ARM_LABEL_MAX} characters are shortened on screen and in the plots;                 the exports keep the full names.") }</p>
            <table class="compact">
                <thead><tr><th scope="col">{"on screen"}</th><th scope="col">{"arm"}</th></tr></thead>
                <tbody>
                { for order.into_iter().map(|full| html! {
                    <tr data-arm={full.clone()}>
                        <td data-col="label">{ labels.get(full).cloned().unwrap_or_default() }</td>
                        <td data-col="arm"><code>{ full.clone() }</code></td>
                    </tr>
                }) }
                </tbody>
            </table>
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct UnpairedProps {
    pub unpaired: Rc<UnpairedArms>,
}

/// `#unpaired`: each arm on its own after a refused pairing (every row one observation): the
/// core's `unpaired` table, the same rows as `memaudit compare --format json` gives under
/// `unpaired.arms`.
#[function_component(UnpairedTable)]
pub fn unpaired_table(props: &UnpairedProps) -> Html {
    let u = &props.unpaired;
    let binary = u.arms.iter().any(|a| a.binary);
    let grouped = u.arms.iter().any(|a| a.group.is_some());
    let intro = html! {
        <p class="intro">{ format!("No paired test was run, but each arm can still be described on its own: value {}; {}. \
            No contrast is drawn: the arms are not observed item by item.", u.value, u.settings) }</p>
    };
    let look = |col: &str| {
        arm_look(col, "CI", binary).unwrap_or_else(|| match col {
            "group" => Look::named(col, Kind::Text).shown_if(grouped),
            _ => Look::folded(),
        })
    };
    let attrs = |a: &ArmRow| {
        let mut data = vec![("data-arm", a.arm.clone())];
        data.extend(a.group.clone().map(|g| ("data-group", g)));
        RowAttrs::data(data).titled(a.ci_note.clone())
    };
    let cell = |a: &ArmRow, col: &str, text: &str| match col {
        "group" if text.is_empty() => Some(text_cell("group", String::from("(all rows)"))),
        "arm" => Some(text_cell("arm", a.arm.clone())),
        _ => None,
    };
    html! {
        <Section id="unpaired" title="Each arm without pairing" {intro}>
            { table_view("unpaired-table", &crate::compare::table::unpaired_table(u), look, &u.arms, &[], attrs, cell) }
            if !u.too_few.is_empty() || !u.missing.is_empty() {
                <ul class="notes">
                    { for u.too_few.iter().map(|(arm, n)| html! {
                        <li><code>{ arm.clone() }</code>{ format!(": {n} value(s), too few for an interval") }</li>
                    }) }
                    { for u.missing.iter().map(|(arm, n)| html! {
                        <li><code>{ arm.clone() }</code>{ format!(": {n} row(s) without a value, left out") }</li>
                    }) }
                </ul>
            }
        </Section>
    }
}

/// How a contrast's columns are shown: in `#pairs` (`strata: false`) the tests, effect sizes
/// and the permutation p; in `#strata` the randomization test of the stratum. Columns the
/// screen leaves out are in the exports.
fn pair_look(col: &str, binary: bool, strata: bool, perm_title: &str) -> Look {
    let overall = !strata;
    match col {
        "a" | "b" => Look::named(col, Kind::Text),
        "n_pairs" => Look::new("n", Kind::Int).shown_if(overall),
        "mean_a" | "mean_b" => Look::named(col, Kind::Num),
        "diff" => Look::new("a \u{2212} b", Kind::Signed),
        "ci_low" => Look::new("CI low", Kind::Signed),
        "ci_high" => Look::new("CI high", Kind::Signed),
        "wins" => Look::new("W / T / L", Kind::Int).titled("items where a is better / equal / worse").shown_if(overall),
        "win_rate" => Look::new("a's win rate", Kind::Num).shown_if(overall),
        "test" => Look::named(col, Kind::Text).shown_if(overall),
        "p_value" => Look::new("p", Kind::P),
        "p_holm" => Look::new("p Holm", Kind::P),
        "p_bh" => Look::new("p BH", Kind::P),
        "permutation_p" => Look::new("p perm.", Kind::P).titled(perm_title.to_string()).shown_if(overall),
        "cohen_h" => Look::new("Cohen's h", Kind::Num).shown_if(overall && binary),
        "p_superiority" => Look::new("P(a > b)", Kind::Num).shown_if(overall && binary),
        "interaction_expected" => Look::new("E[S]", Kind::Signed).shown_if(strata),
        "interaction_p_greater" => Look::new("P(S \u{2265} s)", Kind::P).shown_if(strata),
        "interaction_p_less" => Look::new("P(S \u{2264} s)", Kind::P).shown_if(strata),
        "significant" => Look::new("", Kind::Bool),
        _ => Look::folded(),
    }
}

/// A contrast's cells drawn otherwise: the arms' (possibly shortened) names, W / T / L in one
/// cell, the test's name, Cohen's h with its label, the permutation p with its method when the
/// rows' methods differ, and the `*` of significance.
fn pair_cell(labels: &std::collections::BTreeMap<String, String>, p: &PairRow, col: &str, mixed: bool) -> Option<Html> {
    Some(match col {
        "a" => arm_cell("a", labels, &p.a),
        "b" => arm_cell("b", labels, &p.b),
        "wins" => html! {
            <td class="num wtl" data-col="wins" data-value={p.wins.to_string()}
                data-ties={p.ties.to_string()} data-losses={p.losses.to_string()}>
                { format!("{} / {} / {}", p.wins, p.ties, p.losses) }
            </td>
        },
        "test" => html! {
            <td data-col="test">{ if p.test == crate::compare::engine::PairedTest::McNemarExact { "McNemar (exact)" } else { "Wilcoxon" } }</td>
        },
        "cohen_h" => html! {
            <td class="num" data-col="cohen_h" data-value={crate::report::num(p.cohen_h)}>
                { p.cohen_h.map(|h| format!("{h:+.2} {}", p.cohen_h_label.clone().unwrap_or_default())).unwrap_or_else(|| "—".into()) }
            </td>
        },
        "permutation_p" if mixed => html! {
            <td class="num" data-col="permutation_p" data-value={crate::report::num(p.permutation_p)}
                data-method={p.permutation_method.clone().unwrap_or_default()}
                title={p.permutation_method.clone().unwrap_or_default()}>
                { format!("{} {}", crate::web::format::p_text(p.permutation_p),
                    p.permutation_method.as_deref().map(crate::compare::table::permutation_mark).unwrap_or_default()) }
            </td>
        },
        "significant" => sig_cell(p.significant),
        _ => return None,
    })
}

/// A contrast's row: its arms, its significance, and a click selecting it.
fn pair_attrs(on_select: &Callback<(String, Option<String>)>, p: &PairRow, selected: bool) -> RowAttrs {
    RowAttrs::data(vec![
        ("data-a", p.a.clone()),
        ("data-b", p.b.clone()),
        ("data-significant", p.significant.to_string()),
    ])
    .with_class(p.significant.then_some("significant"))
    .with_class(selected.then_some("selected"))
    .titled(p.ci_note.clone())
    .on_activate(select_on(on_select, &p.a, Some(&p.b)))
}

/// `#pairs`: every contrast a − b with its interval, W/T/L (or McNemar's b/c), the test's
/// p-value, Holm and BH adjusted p-values, Cohen's h and the posterior P(a > b): the core's
/// `pairs` table (`--table pairs`).
#[function_component(PairsTable)]
pub fn pairs_table(props: &CompareTableProps) -> Html {
    let c = &props.comparison;
    let labels = arm_labels(c);
    let conf = format!("{}%", (1.0 - c.settings.alpha) * 100.0);
    let binary = c.pairs.iter().any(|p| p.cohen_h.is_some() || p.p_superiority.is_some());
    let methods = || c.pairs.iter().filter_map(|p| p.permutation_method.as_deref());
    let mixed = crate::compare::table::permutation_methods_differ(methods());
    let perm = crate::compare::table::permutation_footnote(methods())
        .map(|f| {
            f.trim_start_matches("paired sign-flip permutation test, two-sided")
                .trim_start_matches([' ', ';', '('])
                .trim_end_matches(')')
                .to_string()
        })
        .unwrap_or_else(|| "none".into());
    let perm_title = format!("paired sign-flip permutation test of the summed differences, two-sided ({perm})");
    let intro = html! {
        <p class="intro">{ format!("Every contrast a \u{2212} b on the same items: the mean difference with a {conf} paired bootstrap \
            interval, wins/ties/losses, the paired test (exact McNemar for 0/1 outcomes, Wilcoxon signed-rank otherwise), p-values \
            adjusted over all {} contrasts (Holm; Benjamini–Hochberg alongside), the paired sign-flip permutation test ({perm}), \
            Cohen's h and the posterior P(a > b). * = significant after Holm at \u{03b1} = {}. Click a row for the items behind it.",
            c.pairs.len(), c.settings.alpha) }</p>
    };
    let look = |col: &str| pair_look(col, binary, false, &perm_title);
    let attrs = |p: &PairRow| {
        let key = format!("{}\u{2212}{}", p.a, p.b);
        pair_attrs(&props.on_select, p, props.selected.as_deref() == Some(key.as_str()))
    };
    let cell = |p: &PairRow, col: &str, _: &str| pair_cell(&labels, p, col, mixed);
    html! {
        <Section id="pairs" title="Contrasts" exports={exports(c, CompareTable::Pairs)} {intro} conventions={Some(AttrValue::from(c.conventions.clone()))}>
            { table_view("pairs-table", &compare_table(c, CompareTable::Pairs), look, &c.pairs, &[], attrs, cell) }
        </Section>
    }
}

/// The CSV of the contrasts per stratum: `memaudit compare --per C --format csv --table strata`.
pub fn strata_csv(c: &Comparison) -> Result<String, String> {
    if c.by_stratum.is_empty() {
        return Err("no strata".to_string());
    }
    compare_table(c, CompareTable::Strata).to_csv().map_err(|e| e.to_string())
}

/// `#strata`: the contrasts within each value of the `per` column (Holm and BH adjusted within
/// each stratum), one row per stratum and contrast: the core's `strata` table.
#[function_component(StrataTable)]
pub fn strata_table(props: &CompareTableProps) -> Html {
    let c = &props.comparison;
    let labels = arm_labels(c);
    let column = c.by_stratum.first().map(|s| s.column.clone()).unwrap_or_default();
    let exports = {
        let (a, b) = (c.clone(), c.clone());
        lazy_exports("strata", "strata", move || strata_csv(&a), move || to_json(&b.by_stratum))
    };
    let intro = html! {
        <p class="intro">{ format!("The contrasts again on the items of each value of {column} (p-values adjusted within each stratum). \
            For 0/1 arms, S = helps \u{2212} hurts in the stratum against random strata of the same size (multivariate hypergeometric, \
            exact): does this stratum hold more, or fewer, of the changes than chance? Click a row for the items behind the contrast (all strata).") }</p>
    };
    let look = |col: &str| match col {
        "column" => Look::folded(),
        "value" => Look::new(column.clone(), Kind::Text),
        "n_items" => Look::new("items", Kind::Int),
        _ => pair_look(col, false, true, ""),
    };
    let rows: Vec<(&crate::compare::engine::StratumComparison, &PairRow)> =
        c.by_stratum.iter().flat_map(|s| s.pairs.iter().map(move |p| (s, p))).collect();
    let attrs = |(s, p): &(&crate::compare::engine::StratumComparison, &PairRow)| {
        let mut a = pair_attrs(&props.on_select, p, false);
        a.data.insert(0, ("data-stratum", s.value.clone()));
        a.title = None;
        a
    };
    let cell = |(_, p): &(&crate::compare::engine::StratumComparison, &PairRow), col: &str, _: &str| {
        pair_cell(&labels, p, col, false)
    };
    html! {
        <Section id="strata" title={format!("Contrasts per {column}")} {exports} {intro} conventions={Some(AttrValue::from(c.conventions.clone()))}>
            { table_view("strata-table", &compare_table(c, CompareTable::Strata), look, &rows, &[], attrs, cell) }
        </Section>
    }
}

/// `#friedman`: the omnibus test, the Nemenyi critical difference and the mean ranks with
/// their cliques (the numbers the CD diagram draws).
#[function_component(FriedmanView)]
pub fn friedman_view(props: &CompareTableProps) -> Html {
    let c = &props.comparison;
    let Some(f) = &c.friedman else {
        return html! {};
    };
    let ranks = &f.mean_ranks;
    let rank_look = |col: &str| match col {
        "mean_rank" => Look::new("mean rank (1 = best)", Kind::Num),
        "clique" => Look::new("not significantly different from (bar)", Kind::Text),
        _ => Look::named(col, Kind::Text),
    };
    let p = |v: f64| crate::web::format::p_text(Some(v));
    let exports = html! { <>{ exports(c, CompareTable::Friedman) }{ exports(c, CompareTable::Ranks) }</> };
    html! {
        <Section id="friedman" title="Omnibus test and mean ranks" {exports} conventions={Some(AttrValue::from(c.conventions.clone()))}>
            <p class="friedman-line" id="friedman-line" data-chi2={crate::report::num(Some(f.chi2))} data-p={crate::report::num(Some(f.p))}
                data-cd={crate::report::num(Some(f.cd))}>
                { format!("Friedman (k = {}, N = {}): \u{03c7}\u{00b2}_F = {:.3}, p = {}; tie-corrected {:.3}, p = {}{}. \
                    Nemenyi critical difference CD = {:.3} (q_\u{03b1} = {:.4}, \u{03b1} = {}).",
                    f.k, f.n_blocks, f.chi2, p(f.p), f.chi2_tie_corrected, p(f.p_tie_corrected),
                    match (f.iman_davenport_f, f.p_iman_davenport) {
                        (Some(x), Some(q)) => format!("; Iman–Davenport F = {x:.3}, p = {}", p(q)),
                        _ => String::new(),
                    },
                    f.cd, f.q_alpha, f.alpha) }
                if let (Some(bd), Some(ctl)) = (f.bonferroni_dunn_cd, &f.control) {
                    { format!(" Bonferroni–Dunn against {ctl}: CD = {bd:.3}.") }
                }
            </p>
            { table_grid("ranks-table", &compare_table(c, CompareTable::Ranks), rank_look, ranks, &[], |r: &crate::compare::engine::MeanRank| {
                RowAttrs::data(vec![("data-arm", r.arm.clone())])
            }) }
            <ul class="cliques" id="cliques" data-count={f.cliques.len().to_string()}>
                { for f.cliques.iter().enumerate().map(|(i, cl)| html! {
                    <li>{ format!("bar {}: ", i + 1) }<code>{ cl.join(", ") }</code></li>
                }) }
            </ul>
            if !f.vs_control.is_empty() {
                <ul class="vs-control">
                    { for f.vs_control.iter().map(|v| html! {
                        <li>{ format!("{}: rank difference to the control {:+.3}{}", v.arm, v.rank_diff, if v.significant { " (significant)" } else { "" }) }</li>
                    }) }
                </ul>
            }
        </Section>
    }
}

/// Rows shown per page of the items table.
pub const ITEMS_PAGE: usize = 100;

fn items_csv(view: &ItemsView) -> Result<String, String> {
    crate::compare::table::items_table(view).to_csv().map_err(|e| e.to_string())
}

#[derive(Properties, PartialEq)]
pub struct ItemsProps {
    pub view: Rc<ItemsView>,
    pub page: usize,
    pub on_page: Callback<usize>,
    /// An item's row clicked (or Enter on it): show its text.
    pub on_item: Callback<String>,
    /// The item whose text is shown, if any (its row is marked).
    #[prop_or_default]
    pub shown: Option<String>,
}

crate::choice! {
    /// Which items of a contrast the items table keeps (`#items-pattern`): by how the two arms'
    /// values compare (for 0/1 outcomes, "a right, b wrong" is `AHigher`).
    enum Pattern {
        All,
        AHigher,
        BHigher,
        Equal,
    }
}

impl Pattern {
    fn label(self, a: &str, b: &str) -> String {
        match self {
            Pattern::All => "every item".into(),
            Pattern::AHigher => format!("{a} higher (0/1: {a} right, {b} wrong)"),
            Pattern::BHigher => format!("{b} higher (0/1: {b} right, {a} wrong)"),
            Pattern::Equal => "the same value in both".into(),
        }
    }

    fn keeps(self, i: &PairItem) -> bool {
        match self {
            Pattern::All => true,
            Pattern::AHigher => i.diff > 0.0,
            Pattern::BHigher => i.diff < 0.0,
            Pattern::Equal => i.diff == 0.0,
        }
    }
}

/// `#compare-items`: the items behind a contrast (largest |a − b| first) or an arm.
#[function_component(ItemsTable)]
pub fn items_table(props: &ItemsProps) -> Html {
    let v = &props.view;
    let pattern = use_state(|| Pattern::All);
    // A contrast's items kept by the pattern chosen (`#items-pattern`); pages count these.
    let kept: Vec<&PairItem> = match &**v {
        ItemsView::Pair { items, .. } => items.iter().filter(|i| pattern.keeps(i)).collect(),
        _ => Vec::new(),
    };
    let total = match &**v {
        ItemsView::Pair { .. } => kept.len(),
        ItemsView::Arm { items, .. } => items.len(),
        ItemsView::Text(_) => 0,
    };
    let all = match &**v {
        ItemsView::Pair { items, .. } => items.len(),
        _ => total,
    };
    let pattern_select = match &**v {
        ItemsView::Pair { a, b, .. } => {
            let onchange = {
                let (pattern, on_page) = (pattern.clone(), props.on_page.clone());
                Callback::from(move |e: Event| {
                    let value = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
                    if let Some(p) = <Pattern as crate::choice::Choice>::parse(&value) {
                        pattern.set(p);
                        on_page.emit(0);
                    }
                })
            };
            html! {
                <div class="field">
                    <label for="items-pattern">{ "show" }</label>
                    <select id="items-pattern" {onchange}>
                        { for Pattern::ALL.iter().copied().map(|p| html! {
                            <option value={p.name()} selected={p == *pattern}>{ p.label(a, b) }</option>
                        }) }
                    </select>
                    <span class="muted" id="items-pattern-count">{ format!(" {} of {} items", count(total), count(all)) }</span>
                </div>
            }
        }
        _ => html! {},
    };
    // A row opens its item's text: click or Enter; the row shown is marked.
    let row_attrs = |item: &str| {
        let shown = props.shown.as_deref() == Some(item);
        let on_item = props.on_item.clone();
        let item_s = item.to_string();
        let mut attrs = RowAttrs::data(vec![("data-item", item.to_string())])
            .with_class(shown.then_some("selected"))
            .on_activate(Callback::from(move |_: ()| on_item.emit(item_s.clone())));
        if shown {
            attrs.data.push(("aria-current", "true".into()));
        }
        attrs
    };
    let pages = total.div_ceil(ITEMS_PAGE).max(1);
    let page = props.page.min(pages - 1);
    let range = page * ITEMS_PAGE..((page + 1) * ITEMS_PAGE).min(total);
    let (title, selection) = match &**v {
        ItemsView::Pair { a, b, .. } => (format!("Items behind {a} \u{2212} {b}"), format!("{a}\u{2212}{b}")),
        ItemsView::Arm { arm, .. } => (format!("Items of {arm}"), arm.clone()),
        ItemsView::Text(t) => (format!("Item {}", t.item), t.item.clone()),
    };
    let tag = TableTag::new("items-table")
        .data("data-selection", &selection)
        .data("data-total", all)
        .data("data-shown", total);
    let csv = {
        let v = v.clone();
        move || items_csv(&v)
    };
    let json = {
        let v = v.clone();
        move || to_json(&*v)
    };
    let exports = lazy_exports("items", "items", csv, json);
    let prev = {
        let on_page = props.on_page.clone();
        Callback::from(move |_: MouseEvent| on_page.emit(page.saturating_sub(1)))
    };
    let next = {
        let on_page = props.on_page.clone();
        Callback::from(move |_: MouseEvent| on_page.emit(page + 1))
    };
    let intro = match &**v {
        ItemsView::Pair { .. } => {
            html! { <p class="intro">{ "Each paired item's values in both arms, largest |a \u{2212} b| first. Click an item (or press Enter on it) for its text: the question, the gold answer, each arm's answer and verdicts, as the files state them." }</p> }
        }
        ItemsView::Arm { .. } => {
            html! { <p class="intro">{ "The arm's value on every item, and its rank among the arms on that item (1 = best, ties averaged). Click an item for its text as the files state it." }</p> }
        }
        ItemsView::Text(_) => html! {},
    };
    html! {
        <Section id="compare-items" title={title} {exports} {intro}>
            { pattern_select }
            { match &**v {
                ItemsView::Pair { a, b, .. } => {
                    let items = &kept[range.clone()];
                    let look = |col: &str| match col {
                        "a" => Look::new(a.clone(), Kind::Num),
                        "b" => Look::new(b.clone(), Kind::Num),
                        "diff" => Look::new("a \u{2212} b", Kind::Signed),
                        _ => Look::named(col, Kind::Text),
                    };
                    table_grid(tag, &crate::compare::table::pair_item_rows(items.iter().copied()), look, items, &[], |i: &&PairItem| row_attrs(&i.item))
                }
                ItemsView::Arm { arm, items } => {
                    let page_items = &items[range.clone()];
                    let look = |col: &str| match col {
                        "value" => Look::new(arm.clone(), Kind::Num),
                        "rank" => Look::named(col, Kind::Num),
                        _ => Look::named(col, Kind::Text),
                    };
                    let cell = |i: &ArmItem, col: &str, text: &str| (col == "rank").then(|| html! {
                        <td class="num" data-col="rank" data-value={text.to_string()}>{ format!("{:.1}", i.rank) }</td>
                    });
                    table_view(tag, &crate::compare::table::arm_item_rows(page_items), look, page_items, &[], |i: &ArmItem| row_attrs(&i.item), cell)
                }
                ItemsView::Text(_) => html! {},
            } }
            if pages > 1 {
                <div class="pager">
                    <button type="button" class="small secondary" id="items-prev" onclick={prev} disabled={page == 0}>{ "\u{2190} previous" }</button>
                    <span class="muted">{ format!(" rows {}\u{2013}{} of {} ", range.start + 1, range.end, count(total)) }</span>
                    <button type="button" class="small secondary" id="items-next" onclick={next} disabled={page + 1 >= pages}>{ "next \u{2192}" }</button>
                </div>
            }
            if total == 0 {
                <p class="empty">{ "No items." }</p>
            }
            { if let ItemsView::Pair { items, .. } = &**v {
                let mean = if items.is_empty() { None } else { Some(items.iter().map(|i| i.diff).sum::<f64>() / items.len() as f64) };
                html! { <p class="muted">{ format!("Mean difference over all {} items of the contrast: {}.", count(items.len()), fmt4(mean)) }</p> }
            } else { html! {} } }
        </Section>
    }
}

/// `#costs`: each arm's mean cost per `--cost` column, and each compute-matched control against
/// its arm: the core's `costs` and `matched` tables (`memaudit compare --cost C --matched
/// CONTROL:ARM --table costs|matched`), row for row.
#[function_component(CostsView)]
pub fn costs_view(props: &CompareTableProps) -> Html {
    let c = &props.comparison;
    if c.costs.is_empty() {
        return html! {};
    }
    let conf = format!("{}%", (1.0 - c.settings.alpha) * 100.0);
    let intro = html! {
        <p class="intro">{ format!("Each arm's mean cost per item on the compared items with a {conf} bootstrap interval; a compute-matched \
            control against the arm it controls (control \u{2212} arm, paired bootstrap): an interval that excludes 0 means the control \
            does not match the arm's compute.") }</p>
    };
    let look = |col: &str| match col {
        "column" => Look::new("cost", Kind::Text),
        "arm" | "control" | "ci_method" | "note" => Look::named(col, Kind::Text),
        "n" => Look::named(col, Kind::Int),
        "control_mean" => Look::new("control mean", Kind::Num),
        "arm_mean" => Look::new("arm mean", Kind::Num),
        "diff" => Look::new("control \u{2212} arm", Kind::Signed),
        "differs" => Look::new("costs differ", Kind::Bool)
            .titled("the interval excludes 0: the control does not match the arm's compute"),
        _ => Look::named(col, Kind::Num),
    };
    let matched_look = |col: &str| match col {
        "ci_low" | "ci_high" => Look::named(col, Kind::Signed),
        _ => look(col),
    };
    // The records behind the core's rows, in its order: a cost that could not be compared is
    // one row (its note), else one row per arm.
    let cost_rows: Vec<(String, String)> = c
        .costs
        .iter()
        .flat_map(|k| {
            let arms: Vec<String> =
                if k.arms.is_empty() { vec![String::new()] } else { k.arms.iter().map(|a| a.arm.clone()).collect() };
            arms.into_iter().map(move |a| (k.column.clone(), a))
        })
        .collect();
    let matched: Vec<(String, &crate::compare::engine::MatchedControl)> =
        c.costs.iter().flat_map(|k| k.matched.iter().map(move |m| (k.column.clone(), m))).collect();
    html! {
        <Section id="costs" title="Cost per arm and compute-matched controls" exports={exports(c, CompareTable::Costs)} {intro}
            conventions={Some(AttrValue::from(c.conventions.clone()))}>
            { table_grid("costs-table", &compare_table(c, CompareTable::Costs), look, &cost_rows, &[], |(cost, arm): &(String, String)| {
                RowAttrs::data(vec![("data-cost", cost.clone()), ("data-arm", arm.clone())])
            }) }
            if !matched.is_empty() {
                <div class="exports">{ exports(c, CompareTable::Matched) }</div>
                { table_grid("matched-table", &compare_table(c, CompareTable::Matched), matched_look, &matched, &[],
                    |(cost, m): &(String, &crate::compare::engine::MatchedControl)| {
                        RowAttrs::data(vec![
                            ("data-cost", cost.clone()),
                            ("data-control", m.control.clone()),
                            ("data-arm", m.arm.clone()),
                            ("data-differs", m.differs.to_string()),
                        ])
                        .with_class(m.differs.then_some("significant"))
                    }) }
            }
        </Section>
    }
}

/// `#judges`: how often each system's judgments agree, for judge files with several verdicts
/// per item: the core's `judges` table (`memaudit compare --format csv --table judges`).
pub fn judges_card(judges: &[crate::compare::JudgeAgreement]) -> Html {
    let Some(first) = judges.first() else { return html! {} };
    let t = Table::of(CompareTable::Judges.name(), crate::compare::judges::JUDGES, judges);
    let look = |c: &str| match c {
        "arm" | "judgments" | "interval" | "shares" => Look::named(c, Kind::Text),
        "items" | "incomplete" | "unanimous" => Look::named(c, Kind::Int),
        "fleiss_kappa" => Look::new("Fleiss' \u{03ba}", Kind::Num),
        _ => Look::named(c, Kind::Num),
    };
    let exports = {
        let (a, b) = (t.clone(), judges.to_vec());
        lazy_exports("judges", "judges", move || a.to_csv().map_err(|e| e.to_string()), move || to_json(&b))
    };
    let intro = html! {
        <p class="intro">{ format!("Each item holds several verdicts of the same system (one per judge run): Fleiss' \u{03ba} over \
            the items with every verdict ({}), the unanimous items, and each judgment's share of 1s (in the order of the judgments). \
            Items missing a verdict are counted, not guessed.", first.interval) }</p>
    };
    html! {
        <Section id="judges" title="Judges' agreement" {exports} {intro}>
            { table_grid("judges-table", &t, look, judges, &[], |j: &crate::compare::JudgeAgreement| {
                RowAttrs::data(vec![("data-arm", j.arm.clone())])
            }) }
        </Section>
    }
}
