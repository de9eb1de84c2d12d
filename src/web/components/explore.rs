//! Tables made for exploring. Any `<table>` put in an [`Explore`] (in place of the
//! `<div class="table-wrap">` around it) sorts by any column and can be searched:
//!
//! - a click (or Enter) on a column's header sorts the rows by that column: ascending, then
//!   descending, then back to the order the result gave. Numbers sort as numbers, text by its
//!   lower case, empty cells (`—`, blank) last in both directions; the sort is stable, so ties
//!   keep the result's order. The sorted header carries `aria-sort`.
//! - the search box keeps the rows whose text contains what is typed (any case), and says how
//!   many of how many rows are shown.
//!
//! A cell's key is its `data-value` when it has one (the CSV text of a number, see
//! [`super::grid`]), else its text, read from the rendered cells: no table states its keys
//! twice. Rows are only reordered and hidden on screen; exports keep the result's order.

use std::cmp::Ordering;
use std::rc::Rc;

use yew::prelude::*;
use yew::virtual_dom::{VList, VNode, VTag};

#[derive(Properties, PartialEq)]
pub struct ExploreProps {
    /// The `<table>` (with its `<thead>` and `<tbody>`).
    pub children: Html,
}

/// Which way a column is sorted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    Ascending,
    Descending,
}

/// A cell's sort key.
#[derive(Debug, Clone, PartialEq)]
pub enum Key {
    Num(f64),
    Text(String),
    /// Blank, `—`, or not a number where numbers stand: sorted last either way.
    Missing,
}

impl Key {
    /// The key of a cell whose `data-value` is `value` and whose text is `text`.
    pub fn of(value: Option<&str>, text: &str) -> Key {
        let t = value.unwrap_or(text).trim();
        if t.is_empty() || t == "—" || t == "-" || t.eq_ignore_ascii_case("nan") {
            return Key::Missing;
        }
        let number = t.trim_end_matches('%').replace('\u{2212}', "-");
        match number.trim().parse::<f64>() {
            Ok(x) if x.is_nan() => Key::Missing,
            Ok(x) => Key::Num(x),
            Err(_) => Key::Text(t.to_lowercase()),
        }
    }
}

/// `a` against `b` in `order`: numbers before text (after it, descending), missing last
/// whichever the order.
pub fn compare(a: &Key, b: &Key, order: Order) -> Ordering {
    let rank = |k: &Key| match k {
        Key::Num(_) => 0,
        _ => 1,
    };
    let within = match (a, b) {
        (Key::Missing, Key::Missing) => return Ordering::Equal,
        (Key::Missing, _) => return Ordering::Greater,
        (_, Key::Missing) => return Ordering::Less,
        (Key::Num(x), Key::Num(y)) => x.total_cmp(y),
        (Key::Text(x), Key::Text(y)) => x.cmp(y),
        _ => rank(a).cmp(&rank(b)),
    };
    match order {
        Order::Ascending => within,
        Order::Descending => within.reverse(),
    }
}

/// The row indexes in the order shown: rows whose text contains `query` (any case), sorted
/// stably by column `sort` when there is one.
pub fn shown(keys: &[Vec<Key>], texts: &[String], query: &str, sort: Option<(usize, Order)>) -> Vec<usize> {
    let q = query.trim().to_lowercase();
    let mut rows: Vec<usize> = (0..keys.len()).filter(|&i| q.is_empty() || texts[i].contains(&q)).collect();
    if let Some((col, order)) = sort {
        let key = |i: usize| keys[i].get(col).unwrap_or(&Key::Missing);
        rows.sort_by(|&a, &b| compare(key(a), key(b), order));
    }
    rows
}

/// The text of a node: its text nodes, in order.
fn text_of(node: &VNode, out: &mut String) {
    match node {
        VNode::VText(t) => out.push_str(&t.text),
        VNode::VTag(tag) => {
            if let Some(children) = tag.children() {
                text_of(children, out);
            }
        }
        VNode::VList(list) => list.iter().for_each(|n| text_of(n, out)),
        _ => {}
    }
}

fn attribute<'a>(tag: &'a VTag, name: &str) -> Option<&'a str> {
    tag.attributes.iter().find(|(k, _)| *k == name).map(|(_, v)| v)
}

/// The element children of a node, lists flattened.
fn elements(node: &VNode, out: &mut Vec<VNode>) {
    match node {
        VNode::VList(list) => list.iter().for_each(|n| elements(n, out)),
        VNode::VText(t) if t.text.trim().is_empty() => {}
        other => out.push(other.clone()),
    }
}

fn children_of(node: &VNode) -> Vec<VNode> {
    let mut out = Vec::new();
    if let VNode::VTag(tag) = node
        && let Some(c) = tag.children()
    {
        elements(c, &mut out);
    }
    out
}

fn tag_name(node: &VNode) -> Option<&str> {
    match node {
        VNode::VTag(t) => Some(t.tag()),
        _ => None,
    }
}

/// A row's cells' keys and its lower-case text.
fn row_keys(row: &VNode) -> (Vec<Key>, String) {
    let mut keys = Vec::new();
    let mut all = String::new();
    for cell in children_of(row) {
        let VNode::VTag(tag) = &cell else { continue };
        if !matches!(tag.tag(), "td" | "th") {
            continue;
        }
        let mut text = String::new();
        text_of(&cell, &mut text);
        keys.push(Key::of(attribute(tag, "data-value"), &text));
        all.push_str(&text.to_lowercase());
        all.push('\t');
    }
    (keys, all)
}

fn with_children(tag: &VTag, children: Vec<VNode>) -> VNode {
    let mut t = tag.clone();
    if let Some(c) = t.children_mut() {
        *c = VNode::VList(Rc::new(VList::with_children(children, None)));
    }
    VNode::VTag(Rc::new(t))
}

/// The table's `<thead>` and `<tbody>` (inside lists from conditionals).
fn parts(node: &VNode, heads: &mut Vec<VNode>, bodies: &mut Vec<VNode>) {
    match node {
        VNode::VList(list) => list.iter().for_each(|n| parts(n, heads, bodies)),
        VNode::VTag(t) if t.tag() == "thead" => heads.push(node.clone()),
        VNode::VTag(t) if t.tag() == "tbody" => bodies.push(node.clone()),
        _ => {}
    }
}

#[function_component(Explore)]
pub fn explore(props: &ExploreProps) -> Html {
    let sort = use_state(|| None::<(usize, Order)>);
    let query = use_state(String::new);
    let unfolded = use_state(|| false);
    let mut found = Vec::new();
    elements(&props.children, &mut found);
    let Some(VNode::VTag(table)) = found.into_iter().find(|n| tag_name(n) == Some("table")) else {
        return html! { <div class="table-wrap" tabindex="0">{ props.children.clone() }</div> };
    };
    let (mut heads, mut bodies) = (Vec::new(), Vec::new());
    if let Some(c) = table.children() {
        parts(c, &mut heads, &mut bodies);
    }
    let rows: Vec<VNode> = bodies.iter().flat_map(children_of).collect();
    let (keys, texts): (Vec<_>, Vec<_>) = rows.iter().map(row_keys).unzip();
    let order = shown(&keys, &texts, &query, *sort);
    let header_row = |head: &VNode| -> VNode {
        let VNode::VTag(thead) = head else { return head.clone() };
        let trs = children_of(head);
        let last = trs.len().saturating_sub(1);
        let trs = trs.into_iter().enumerate().map(|(r, tr)| match (&tr, r == last) {
            (VNode::VTag(t), true) => {
                let cells =
                    children_of(&tr).into_iter().enumerate().map(|(i, cell)| sortable(&cell, i, &sort)).collect();
                with_children(t, cells)
            }
            _ => tr,
        });
        with_children(thead, trs.collect())
    };
    let mut children: Vec<VNode> = heads.iter().map(header_row).collect();
    let body = match bodies.first() {
        Some(VNode::VTag(t)) => (**t).clone(),
        _ => VTag::new("tbody"),
    };
    children.push(with_children(&body, order.iter().map(|&i| rows[i].clone()).collect()));
    let rebuilt = with_children(&table, children);
    let oninput = {
        let query = query.clone();
        Callback::from(move |e: InputEvent| query.set(e.target_unchecked_into::<web_sys::HtmlInputElement>().value()))
    };
    let name = attribute(&table, "id").unwrap_or("table").replace(['-', '_'], " ");
    let (columns, folded) = header_counts(&heads);
    let fold_button = (folded > 0).then(|| {
        let onclick = {
            let unfolded = unfolded.clone();
            Callback::from(move |_: MouseEvent| unfolded.set(!*unfolded))
        };
        let label = if *unfolded {
            format!("the {} essential columns", columns - folded)
        } else {
            format!("all {columns} columns ({folded} more)")
        };
        html! {
            <button type="button" class="small secondary table-fold" aria-pressed={unfolded.to_string()} {onclick}
                title="columns folded on screen are in the CSV and JSON exports too">{ label }</button>
        }
    });
    html! {
        <div class={classes!("explore", unfolded.then_some("unfolded"))}>
            <div class="table-tools">
                <input type="search" class="table-search" placeholder="Search rows" aria-label={format!("Search the rows of {name}")}
                    value={(*query).clone()} {oninput} />
                if !query.trim().is_empty() {
                    <span class="table-count" role="status">{ format!("{} of {} rows", order.len(), rows.len()) }</span>
                }
                { for fold_button }
            </div>
            <div class="table-wrap" tabindex="0">{ rebuilt }</div>
        </div>
    }
}

/// The columns of the header's last row, and how many of them are folded (class `folded`,
/// shown on request).
fn header_counts(heads: &[VNode]) -> (usize, usize) {
    let Some(last) = heads.iter().flat_map(children_of).last() else { return (0, 0) };
    let cells: Vec<VNode> = children_of(&last);
    let folded = cells
        .iter()
        .filter(|c| match c {
            VNode::VTag(t) => attribute(t, "class").is_some_and(|v| v.split_whitespace().any(|x| x == "folded")),
            _ => false,
        })
        .count();
    (cells.len(), folded)
}

/// A header cell whose content is a button sorting by column `i`.
fn sortable(cell: &VNode, i: usize, sort: &UseStateHandle<Option<(usize, Order)>>) -> VNode {
    let VNode::VTag(th) = cell else { return cell.clone() };
    if th.tag() != "th" {
        return cell.clone();
    }
    let now = match **sort {
        Some((c, o)) if c == i => Some(o),
        _ => None,
    };
    let onclick = {
        let sort = sort.clone();
        Callback::from(move |_: MouseEvent| {
            sort.set(match now {
                None => Some((i, Order::Ascending)),
                Some(Order::Ascending) => Some((i, Order::Descending)),
                Some(Order::Descending) => None,
            })
        })
    };
    let mut t = (**th).clone();
    if let Some(o) = now {
        t.add_attribute("aria-sort", if o == Order::Ascending { "ascending" } else { "descending" });
    }
    let inner = t.children().cloned().unwrap_or_default();
    let mut text = String::new();
    text_of(&inner, &mut text);
    // A header without text (a column of marks) is still named for who cannot see it.
    let label = text.trim().is_empty().then(|| AttrValue::from(format!("column {}", i + 1)));
    if let Some(c) = t.children_mut() {
        *c = html! { <button type="button" class="sort" aria-label={label} {onclick}>{ inner }</button> };
    }
    VNode::VTag(Rc::new(t))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(texts: &[&str]) -> Vec<Vec<Key>> {
        texts.iter().map(|t| vec![Key::of(None, t)]).collect()
    }

    #[test]
    fn numbers_sort_as_numbers_stably_with_blanks_last() {
        let cells = ["10", "9", "—", "-2", "9", "abc", "1e-3", "", "12.5%"];
        let k = keys(&cells);
        let texts: Vec<String> = cells.iter().map(|t| t.to_lowercase()).collect();
        let up = shown(&k, &texts, "", Some((0, Order::Ascending)));
        assert_eq!(
            up.iter().map(|&i| cells[i]).collect::<Vec<_>>(),
            ["-2", "1e-3", "9", "9", "10", "12.5%", "abc", "—", ""]
        );
        // Ties keep their order (rows 1 and 4 are both 9), in either direction.
        assert_eq!(up[2..4], [1, 4]);
        let down = shown(&k, &texts, "", Some((0, Order::Descending)));
        assert_eq!(
            down.iter().map(|&i| cells[i]).collect::<Vec<_>>(),
            ["abc", "12.5%", "10", "9", "9", "1e-3", "-2", "—", ""]
        );
        assert_eq!(down[3..5], [1, 4]);
        assert_eq!(shown(&k, &texts, "", None), (0..cells.len()).collect::<Vec<_>>());
    }

    #[test]
    fn data_value_is_the_key_and_text_matches_any_case() {
        assert_eq!(Key::of(Some("0.7435064935064936"), "0.7435"), Key::Num(0.7435064935064936));
        assert_eq!(Key::of(Some(""), "—"), Key::Missing);
        assert_eq!(Key::of(None, "NaN"), Key::Missing);
        assert_eq!(Key::of(None, "\u{2212}0.05"), Key::Num(-0.05));
        assert_eq!(Key::of(None, "Oracle"), Key::Text("oracle".into()));
        let k = keys(&["a", "b", "c"]);
        let texts = vec!["mem0\t0.5\t".to_string(), "zep\t0.4\t".into(), "MemGPT\t0.3\t".to_lowercase()];
        assert_eq!(shown(&k, &texts, " MEM ", None), [0, 2]);
        assert_eq!(shown(&k, &texts, "0.4", None), [1]);
        assert_eq!(shown(&k, &texts, "nothing", None), Vec::<usize>::new());
    }
}
