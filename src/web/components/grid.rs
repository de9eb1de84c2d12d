//! Tables on screen. A core [`Table`] (the CLI's CSV, e.g. [`crate::answers::table`]) is shown
//! by [`table_grid`]: every cell is its CSV text, shown as its column's [`Look`] says (four
//! decimals, signed, yes/no) with `data-col` = the CSV column and, for numbers, `data-value` =
//! the CSV text; screen-only [`Column`]s may follow. Tables the CLI does not print are
//! described once by their [`Column`]s ([`grid`], [`columns_exports`]). Used by the answers,
//! ablation, claims and rules pages, whose CSV exports are the core's tables
//! ([`table_exports`]).

use std::rc::Rc;

use serde::Serialize;
use yew::prelude::*;

use crate::choice::Choice;
use yew::virtual_dom::VTag;

use super::explore::Explore;
use super::export::{lazy_exports, to_json};
use crate::report::{Table, num};
use crate::web::format::{fmt4, on_enter, p_text, pct};

/// One cell: what the CSV prints and what the page shows.
#[derive(Debug, Clone, PartialEq)]
pub enum Val {
    Text(String),
    /// A number (4 decimals shown).
    Num(Option<f64>),
    /// A signed number (`+0.0521`).
    Signed(Option<f64>),
    /// A share shown as a percentage (the CSV keeps the fraction).
    Share(Option<f64>),
    /// A number, or this text when there is none (the CLI's `reported` column).
    NumOr(Option<f64>, String),
    Int(Option<i64>),
    Bool(Option<bool>),
    /// A p-value (`< 0.0001` notation shown).
    P(Option<f64>),
}

impl Val {
    pub fn text(s: impl Into<String>) -> Val {
        Val::Text(s.into())
    }

    pub fn opt(s: &Option<String>) -> Val {
        Val::Text(s.clone().unwrap_or_default())
    }

    pub fn count(n: usize) -> Val {
        Val::Int(Some(n as i64))
    }

    /// The value behind a CSV cell read as `kind` (its [`Val::csv`] is `text` again; text that
    /// is not of the kind stays text).
    pub fn parse(kind: Kind, text: &str) -> Val {
        let number = |wrap: fn(Option<f64>) -> Val| match text {
            "" => wrap(None),
            t => t.parse().map_or_else(|_| Val::NumOr(None, t.to_string()), |x| wrap(Some(x))),
        };
        match kind {
            Kind::Text => Val::text(text),
            Kind::Num => number(Val::Num),
            Kind::Signed => number(Val::Signed),
            Kind::Share => number(Val::Share),
            Kind::P => number(Val::P),
            Kind::NumOr => Val::NumOr(text.parse().ok(), text.to_string()),
            Kind::Int => match text {
                "" => Val::Int(None),
                t => t.parse().map_or_else(|_| Val::NumOr(None, t.to_string()), |x| Val::Int(Some(x))),
            },
            Kind::Bool => match text {
                "" => Val::Bool(None),
                "true" => Val::Bool(Some(true)),
                "false" => Val::Bool(Some(false)),
                t => Val::text(t),
            },
        }
    }

    /// The CSV text (the CLI's: shortest round-trip numbers, empty for none).
    pub fn csv(&self) -> String {
        match self {
            Val::Text(s) => s.clone(),
            Val::Num(v) | Val::Signed(v) | Val::Share(v) | Val::P(v) => num(*v),
            Val::NumOr(v, t) => v.map_or_else(|| t.clone(), |x| num(Some(x))),
            Val::Int(v) => v.map(|x| x.to_string()).unwrap_or_default(),
            Val::Bool(v) => v.map(|x| x.to_string()).unwrap_or_default(),
        }
    }

    /// The `<td>`.
    pub fn cell(&self, col: &AttrValue) -> Html {
        let numeric = |value: String, shown: String| {
            html! { <td class="num" data-col={col.clone()} data-value={value}>{ shown }</td> }
        };
        match self {
            Val::Text(s) => html! { <td data-col={col.clone()}>{ s.clone() }</td> },
            Val::Num(v) => numeric(num(*v), fmt4(*v)),
            Val::Signed(v) => {
                numeric(num(*v), v.filter(|x| x.is_finite()).map(|x| format!("{x:+.4}")).unwrap_or_else(|| fmt4(*v)))
            }
            Val::Share(v) => numeric(num(*v), v.map_or_else(|| "—".into(), |_| pct(*v))),
            Val::P(v) => numeric(num(*v), p_text(*v)),
            Val::NumOr(Some(x), _) => numeric(num(Some(*x)), fmt4(Some(*x))),
            Val::NumOr(None, t) => numeric(String::new(), t.clone()),
            Val::Int(v) => numeric(self.csv(), v.map_or_else(|| "—".into(), |x| x.to_string())),
            Val::Bool(v) => html! {
                <td data-col={col.clone()} data-value={self.csv()} class={classes!(v.map(|b| if b { "yes" } else { "no" }))}>
                    { v.map_or("—", |b| if b { "yes" } else { "no" }) }
                </td>
            },
        }
    }
}

/// How a column's CSV text is shown (the [`Val`] it is read as).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Text,
    /// Four decimals.
    Num,
    /// Four decimals with a sign.
    Signed,
    /// A percentage.
    Share,
    /// A number when the text is one, else the text (the CLI's `reported`).
    NumOr,
    Int,
    /// yes / no.
    Bool,
    /// A p-value.
    P,
}

/// How a column of a core table is shown: its header, a tooltip and its [`Kind`], and whether
/// it is folded ([`Look::folded`]: shown only when the reader asks for every column).
#[derive(Debug, Clone, PartialEq)]
pub struct Look {
    pub header: AttrValue,
    pub title: Option<AttrValue>,
    pub kind: Kind,
    pub shown: bool,
}

impl Look {
    pub fn new(header: impl Into<AttrValue>, kind: Kind) -> Look {
        Look { header: header.into(), title: None, kind, shown: true }
    }

    /// A column folded on screen: shown only when the reader asks for every column ([`table_view`]).
    pub fn folded() -> Look {
        Look { shown: false, ..Look::new("", Kind::Text) }
    }

    /// Folded unless `shown` (e.g. the binomial intervals, shown for 0/1 arms).
    pub fn shown_if(self, shown: bool) -> Look {
        Look { shown, ..self }
    }

    /// A column whose header is its CSV name (`_` shown as a space).
    pub fn named(column: &str, kind: Kind) -> Look {
        Look::new(column.replace('_', " "), kind)
    }

    /// A tooltip on the header.
    pub fn titled(mut self, title: impl Into<AttrValue>) -> Look {
        self.title = Some(title.into());
        self
    }
}

type Getter<R> = Rc<dyn Fn(&R) -> Val>;

/// One column: its CSV name (also `data-col`), its header on screen, and its value.
#[derive(Clone)]
pub struct Column<R> {
    pub name: AttrValue,
    pub header: AttrValue,
    pub title: Option<AttrValue>,
    pub get: Getter<R>,
}

impl<R> Column<R> {
    pub fn new(name: impl Into<AttrValue>, header: impl Into<AttrValue>, get: impl Fn(&R) -> Val + 'static) -> Self {
        Column { name: name.into(), header: header.into(), title: None, get: Rc::new(get) }
    }

    /// A column whose header is its CSV name.
    pub fn named(name: &'static str, get: impl Fn(&R) -> Val + 'static) -> Self {
        Column::new(name, name.replace('_', " "), get)
    }

    /// A tooltip on the header.
    pub fn titled(mut self, title: impl Into<AttrValue>) -> Self {
        self.title = Some(title.into());
        self
    }
}

/// The CSV text of `rows`, one column per [`Column`].
pub fn csv_text<R>(name: &str, cols: &[Column<R>], rows: &[R]) -> Result<String, String> {
    let t = Table {
        name: name.to_string(),
        headers: cols.iter().map(|c| c.name.to_string()).collect(),
        rows: rows.iter().map(|r| cols.iter().map(|c| (c.get)(r).csv()).collect()).collect(),
        docs: Default::default(),
    };
    t.to_csv().map_err(|e| e.to_string())
}

/// A row's keys (`data-*` attributes), classes, tooltip, and what a click (or Enter) on it
/// does.
#[derive(Debug, Clone, Default)]
pub struct RowAttrs {
    pub data: Vec<(&'static str, String)>,
    pub class: Classes,
    pub title: Option<String>,
    pub activate: Option<Callback<()>>,
}

impl RowAttrs {
    pub fn data(data: Vec<(&'static str, String)>) -> RowAttrs {
        RowAttrs { data, ..RowAttrs::default() }
    }

    /// One more `data-*` attribute.
    pub fn with_data(mut self, key: &'static str, value: String) -> RowAttrs {
        self.data.push((key, value));
        self
    }

    /// A tooltip on the row (none when empty).
    pub fn titled(mut self, title: Option<String>) -> RowAttrs {
        self.title = title.filter(|t| !t.is_empty());
        self
    }

    /// Click and Enter on the row emit `on` (the row is focusable and marked `clickable`).
    pub fn on_activate(mut self, on: Callback<()>) -> RowAttrs {
        self.class.push("clickable");
        self.activate = Some(on);
        self
    }

    pub fn with_class(mut self, class: Option<&'static str>) -> RowAttrs {
        self.class.extend(class);
        self
    }

    /// More classes on the row.
    pub fn with_classes(mut self, classes: Classes) -> RowAttrs {
        self.class.extend(classes);
        self
    }
}

/// `<tr>` with a row's attributes and cells.
fn row(a: RowAttrs, cells: Vec<Html>) -> Html {
    let mut tr = VTag::new("tr");
    for (k, v) in a.data {
        tr.add_attribute(k, v);
    }
    if !a.class.is_empty() {
        tr.add_attribute("class", a.class.to_string());
    }
    if let Some(t) = a.title {
        tr.add_attribute("title", t);
    }
    if let Some(on) = a.activate {
        tr.add_attribute("tabindex", "0");
        tr.add_listener(Rc::new(yew::html::onclick::Wrapper::new(on.reform(|_: MouseEvent| ()))));
        tr.add_listener(Rc::new(yew::html::onkeydown::Wrapper::new(on_enter(on))));
    }
    tr.add_children(cells);
    Html::VTag(Rc::new(tr))
}

/// A `<table>`'s id and `data-*` attributes (what it shows: a selection, counts).
#[derive(Debug, Clone, Default)]
pub struct TableTag {
    pub id: String,
    pub data: Vec<(&'static str, String)>,
}

impl TableTag {
    pub fn new(id: &str) -> TableTag {
        TableTag { id: id.to_string(), data: Vec::new() }
    }

    /// One more `data-*` attribute.
    pub fn data(mut self, key: &'static str, value: impl ToString) -> TableTag {
        self.data.push((key, value.to_string()));
        self
    }
}

impl From<&str> for TableTag {
    fn from(id: &str) -> TableTag {
        TableTag::new(id)
    }
}

impl From<&String> for TableTag {
    fn from(id: &String) -> TableTag {
        TableTag::new(id)
    }
}

/// A column's header: its text, a tooltip, and whether the column is folded.
struct Head {
    text: AttrValue,
    title: Option<AttrValue>,
    folded: bool,
}

impl Head {
    fn new(text: impl Into<AttrValue>, title: Option<AttrValue>) -> Head {
        Head { text: text.into(), title, folded: false }
    }
}

/// `<table id={id}>` with a header row and `body`, made for exploring ([`Explore`]: sorted by
/// any column, searched, folded columns shown on request).
fn wrap(tag: TableTag, heads: Vec<Head>, body: Vec<Html>) -> Html {
    let head = html! {
        <thead><tr>
            { for heads.into_iter().map(|h| {
                let th = html! { <th scope="col" title={h.title}>{ h.text }</th> };
                if h.folded { fold(th) } else { th }
            }) }
        </tr></thead>
    };
    let mut table = VTag::new("table");
    table.add_attribute("id", tag.id);
    for (k, v) in tag.data {
        table.add_attribute(k, v);
    }
    table.add_child(head);
    table.add_child(html! { <tbody>{ for body }</tbody> });
    html! { <Explore>{ Html::VTag(Rc::new(table)) }</Explore> }
}

/// A table (made for exploring) with a header row and one row per item.
pub fn grid<'a, R: 'a>(
    id: impl Into<TableTag>,
    cols: &[Column<R>],
    rows: impl IntoIterator<Item = &'a R>,
    attrs: impl Fn(&R) -> RowAttrs,
) -> Html {
    let body =
        rows.into_iter().map(|r| row(attrs(r), cols.iter().map(|c| (c.get)(r).cell(&c.name)).collect())).collect();
    wrap(id.into(), cols.iter().map(|c| Head::new(c.header.clone(), c.title.clone())).collect(), body)
}

/// A core table on screen: its columns as `look` shows them, then the screen-only `extra`
/// columns. `rows` are the records behind the table's rows, in the same order (their keys
/// become the rows' attributes, and `extra` reads them).
pub fn table_grid<R>(
    id: impl Into<TableTag>,
    table: &Table,
    look: impl Fn(&str) -> Look,
    rows: &[R],
    extra: &[Column<R>],
    attrs: impl Fn(&R) -> RowAttrs,
) -> Html {
    table_view(id, table, look, rows, extra, attrs, |_, _, _| None)
}

/// [`table_grid`] where a cell may be drawn otherwise: `cell(record, column, csv_text)` gives
/// the `<td>` of a cell it draws itself (a shortened name with its full one, a count with its
/// neighbours), `None` for the column's [`Look`].
///
/// Columns whose look is not shown are folded, not dropped: they follow the shown ones (and the
/// screen-only columns), under their CSV names, with their CSV text (integers as such, other
/// numbers to four decimals), and [`Explore`] shows them on request ("all N columns"), so the
/// essentials come first and nothing of the export is out of reach on screen.
pub fn table_view<R>(
    id: impl Into<TableTag>,
    table: &Table,
    look: impl Fn(&str) -> Look,
    rows: &[R],
    extra: &[Column<R>],
    attrs: impl Fn(&R) -> RowAttrs,
    cell: impl Fn(&R, &str, &str) -> Option<Html>,
) -> Html {
    // The records are read here (per row: its attributes and its screen-only cells); the table
    // is laid out once, by code that is not generic ([`lay_out`]), so each table on a page
    // costs the module its closures, not a copy of the layout.
    let n = table.rows.len().min(rows.len());
    let row_attrs: Vec<RowAttrs> = rows[..n].iter().map(&attrs).collect();
    let extra_cells: Vec<Vec<Html>> =
        rows[..n].iter().map(|r| extra.iter().map(|c| (c.get)(r).cell(&c.name)).collect()).collect();
    let extra_heads: Vec<Head> = extra.iter().map(|c| Head::new(c.header.clone(), c.title.clone())).collect();
    let own = |i: usize, col: &str, text: &str| cell(&rows[i], col, text);
    lay_out(id.into(), table, &look, row_attrs, extra_heads, extra_cells, &own)
}

/// The layout of [`table_view`] once its records are read: `row_attrs` and `extra_cells` per row
/// of `table` (in order), `cell(row, column, csv_text)` a cell drawn otherwise.
fn lay_out(
    mut tag: TableTag,
    table: &Table,
    look: &dyn Fn(&str) -> Look,
    row_attrs: Vec<RowAttrs>,
    extra_heads: Vec<Head>,
    extra_cells: Vec<Vec<Html>>,
    cell: &dyn Fn(usize, &str, &str) -> Option<Html>,
) -> Html {
    // A column the page does not explain itself shows the core's explanation on its header.
    let looks: Vec<(usize, AttrValue, Look)> = table
        .headers
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let mut l = look(h);
            if l.title.is_none() {
                l.title = table.doc(h).map(|d| AttrValue::from(d.to_string()));
            }
            (i, AttrValue::from(h.clone()), l)
        })
        .collect();
    let (shown, folded): (Vec<_>, Vec<_>) = looks.iter().partition(|(_, _, l)| l.shown);
    let body = table
        .rows
        .iter()
        .zip(row_attrs.into_iter().zip(extra_cells))
        .enumerate()
        .map(|(r, (cells, (attrs, more)))| {
            let text = |i: usize| cells.get(i).map_or("", String::as_str);
            let main = shown
                .iter()
                .map(|(i, col, l)| cell(r, col, text(*i)).unwrap_or_else(|| Val::parse(l.kind, text(*i)).cell(col)));
            let rest = folded.iter().map(|(i, col, l)| {
                let kind = if l.header.is_empty() { folded_kind(text(*i)) } else { l.kind };
                fold(Val::parse(kind, text(*i)).cell(col))
            });
            row(attrs, main.chain(more).chain(rest).collect())
        })
        .collect();
    if !folded.is_empty() {
        tag = tag.data("data-folded", folded.len());
    }
    let heads = shown
        .iter()
        .map(|(_, _, l)| Head::new(l.header.clone(), l.title.clone()))
        .chain(extra_heads)
        .chain(folded.iter().map(|(_, col, l)| {
            let text = if l.header.is_empty() { AttrValue::from(col.replace('_', " ")) } else { l.header.clone() };
            Head { folded: true, ..Head::new(text, l.title.clone()) }
        }))
        .collect();
    wrap(tag, heads, body)
}

/// How a folded column's cell is read: an integer, another number, or text.
fn folded_kind(text: &str) -> Kind {
    if text.parse::<i64>().is_ok() {
        Kind::Int
    } else if text.parse::<f64>().is_ok() {
        Kind::Num
    } else {
        Kind::Text
    }
}

/// `node` (a `<td>` or `<th>`) marked as a folded column's.
fn fold(node: Html) -> Html {
    let Html::VTag(mut tag) = node else { return node };
    let t = Rc::make_mut(&mut tag);
    let class = t.attributes.iter().find(|(k, _)| *k == "class").map(|(_, v)| format!("{v} folded"));
    t.add_attribute("class", class.unwrap_or_else(|| "folded".into()));
    Html::VTag(tag)
}

/// CSV and JSON buttons for a core table of a shared result `b`: the CSV is `table(b, which)`
/// (what the CLI prints for `--table NAME`), the JSON `json(b)` (the rows with the CLI's JSON
/// keys).
pub fn table_exports<B: 'static, T: Choice>(
    which: T,
    b: &Rc<B>,
    table: fn(&B, T) -> crate::error::Result<Table>,
    json: fn(&B) -> Result<String, String>,
) -> Html {
    let (x, y) = (b.clone(), b.clone());
    let name = which.name();
    let csv = move || table(&x, which).and_then(|t| t.to_csv()).map_err(|e| e.to_string());
    lazy_exports(name, &name.replace('_', " "), csv, move || json(&y))
}

/// CSV and JSON buttons for a table described by its columns, of a shared result `b`: the CSV
/// from `cols`, the JSON the rows themselves.
pub fn columns_exports<B: 'static, R: Serialize + 'static>(
    name: &'static str,
    b: &Rc<B>,
    rows: fn(&B) -> &[R],
    cols: fn(&B) -> Vec<Column<R>>,
) -> Html {
    let (x, y) = (b.clone(), b.clone());
    lazy_exports(name, &name.replace('_', " "), move || csv_text(name, &cols(&x), rows(&x)), move || to_json(rows(&y)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_text_read_back_as_a_kind_is_the_same_text() {
        let cases = [
            (Kind::Num, "0.1"),
            (Kind::Num, "-0"),
            (Kind::Num, "0.0000001"),
            (Kind::Num, "NaN"),
            (Kind::Num, "inf"),
            (Kind::Num, ""),
            (Kind::Signed, "-0.052"),
            (Kind::Share, "0.25"),
            (Kind::Int, "12"),
            (Kind::Int, ""),
            (Kind::Bool, "true"),
            (Kind::Bool, "false"),
            (Kind::Bool, ""),
            (Kind::NumOr, "24.5"),
            (Kind::NumOr, "vanilla"),
            (Kind::NumOr, ""),
            (Kind::Text, "a, \"b\""),
        ];
        for (kind, text) in cases {
            assert_eq!(Val::parse(kind, text).csv(), text, "{kind:?} {text}");
        }
        assert_eq!(Val::parse(Kind::Num, "0.1"), Val::Num(Some(0.1)));
        assert_eq!(Val::parse(Kind::Signed, ""), Val::Signed(None));
        assert_eq!(Val::parse(Kind::Bool, "true"), Val::Bool(Some(true)));
        assert_eq!(Val::parse(Kind::NumOr, "x"), Val::NumOr(None, "x".into()));
        assert_eq!(Val::parse(Kind::Num, "n/a"), Val::NumOr(None, "n/a".into()));
        for x in [0.1 + 0.2, 1e-300, -123456.789, f64::MIN_POSITIVE, 1.0 / 3.0] {
            assert_eq!(Val::parse(Kind::Num, &num(Some(x))), Val::Num(Some(x)));
        }
    }
}
