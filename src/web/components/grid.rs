//! Tables described once by their columns: the same [`Column`]s give the CSV export (the
//! columns marked for it, in order, with the CLI's number text) and the table on screen (every
//! cell with `data-col` = the CSV column and, for numbers, `data-value` = the full-precision
//! text). Used by the answers, ablation, claims and rules pages, whose CSV exports equal
//! `memaudit answers|ablation|claims|rules --format csv` column for column.

use std::rc::Rc;

use serde::Serialize;
use yew::prelude::*;
use yew::virtual_dom::VTag;

use super::export::{lazy_exports, to_json};
use crate::report::{Table, num};
use crate::web::format::{fmt4, pct};

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

    /// The CSV text (the CLI's: shortest round-trip numbers, empty for none).
    pub fn csv(&self) -> String {
        match self {
            Val::Text(s) => s.clone(),
            Val::Num(v) | Val::Signed(v) | Val::Share(v) => num(*v),
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

type Getter<R> = Rc<dyn Fn(&R) -> Val>;

/// One column: its CSV name (also `data-col`), its header on screen, and its value.
#[derive(Clone)]
pub struct Column<R> {
    pub name: AttrValue,
    pub header: AttrValue,
    pub title: Option<AttrValue>,
    /// Part of the CSV export (else on screen only).
    pub csv: bool,
    pub get: Getter<R>,
}

impl<R> Column<R> {
    pub fn new(name: impl Into<AttrValue>, header: impl Into<AttrValue>, get: impl Fn(&R) -> Val + 'static) -> Self {
        Column { name: name.into(), header: header.into(), title: None, csv: true, get: Rc::new(get) }
    }

    /// A column whose header is its CSV name.
    pub fn named(name: &'static str, get: impl Fn(&R) -> Val + 'static) -> Self {
        Column::new(name, name.replace('_', " "), get)
    }

    /// Shown, not exported.
    pub fn screen_only(mut self) -> Self {
        self.csv = false;
        self
    }

    /// A tooltip on the header.
    pub fn titled(mut self, title: impl Into<AttrValue>) -> Self {
        self.title = Some(title.into());
        self
    }
}

/// The CSV table of `rows` (the columns marked for it).
pub fn csv_table<R>(name: &str, cols: &[Column<R>], rows: &[R]) -> Table {
    let cols: Vec<&Column<R>> = cols.iter().filter(|c| c.csv).collect();
    Table {
        name: name.to_string(),
        headers: cols.iter().map(|c| c.name.to_string()).collect(),
        rows: rows.iter().map(|r| cols.iter().map(|c| (c.get)(r).csv()).collect()).collect(),
    }
}

/// The CSV text of `rows`.
pub fn csv_text<R>(name: &str, cols: &[Column<R>], rows: &[R]) -> Result<String, String> {
    csv_table(name, cols, rows).to_csv().map_err(|e| e.to_string())
}

/// A row's keys (`data-*` attributes) and classes.
#[derive(Debug, Clone, Default)]
pub struct RowAttrs {
    pub data: Vec<(&'static str, String)>,
    pub class: Classes,
}

impl RowAttrs {
    pub fn data(data: Vec<(&'static str, String)>) -> RowAttrs {
        RowAttrs { data, class: Classes::new() }
    }

    pub fn with_class(mut self, class: Option<&'static str>) -> RowAttrs {
        self.class.extend(class);
        self
    }
}

/// `<div class="table-wrap"><table id={id}>` with a header row and one row per item.
pub fn grid<'a, R: 'a>(
    id: &str,
    cols: &[Column<R>],
    rows: impl IntoIterator<Item = &'a R>,
    attrs: impl Fn(&R) -> RowAttrs,
) -> Html {
    let body: Vec<Html> = rows
        .into_iter()
        .map(|r| {
            let a = attrs(r);
            let mut tr = VTag::new("tr");
            for (k, v) in a.data {
                tr.add_attribute(k, v);
            }
            if !a.class.is_empty() {
                tr.add_attribute("class", a.class.to_string());
            }
            tr.add_children(cols.iter().map(|c| (c.get)(r).cell(&c.name)));
            Html::VTag(Rc::new(tr))
        })
        .collect();
    html! {
        <div class="table-wrap">
            <table id={id.to_string()}>
                <thead><tr>
                    { for cols.iter().map(|c| html! { <th scope="col" title={c.title.clone()}>{ c.header.clone() }</th> }) }
                </tr></thead>
                <tbody>{ for body }</tbody>
            </table>
        </div>
    }
}

/// CSV and JSON buttons for a table of a shared result `b`: the CSV from `cols`, the JSON the
/// rows themselves (the CLI's JSON keys).
pub fn table_exports<B: 'static, R: Serialize + 'static>(
    name: &'static str,
    b: &Rc<B>,
    rows: fn(&B) -> &[R],
    cols: fn(&B) -> Vec<Column<R>>,
) -> Html {
    let (x, y) = (b.clone(), b.clone());
    lazy_exports(name, &name.replace('_', " "), move || csv_text(name, &cols(&x), rows(&x)), move || to_json(rows(&y)))
}
