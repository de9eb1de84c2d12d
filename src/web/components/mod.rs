//! The viewer's components, in the order the page shows them.

pub mod cells;
pub mod compare;
pub mod contents;
pub mod drilldown;
pub mod explore;
pub mod export;
pub mod fields;
pub mod grid;
pub mod headlines;
pub mod histogram;
pub mod instance;
pub mod plot;
pub mod printed;
pub mod reading;
pub mod settings;
pub mod tables;
pub mod warnings;

use std::ops::Deref;
use std::rc::Rc;

use yew::prelude::*;

use crate::audit::Report;

/// A shared report; equal when it is the same report (no deep comparison on every render).
#[derive(Debug, Clone)]
pub struct ReportRef(pub Rc<Report>);

impl PartialEq for ReportRef {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl Deref for ReportRef {
    type Target = Report;
    fn deref(&self) -> &Report {
        &self.0
    }
}

/// The settings of the report, shown under every result.
pub fn conventions_line(report: &Report) -> Html {
    html! {
        <p class="conventions">
            <span class="label">{ "Settings: " }</span>
            <code>{ report.conventions.clone() }</code>
        </p>
    }
}

#[derive(Properties, PartialEq)]
pub struct CardProps {
    /// The section's id (`<section id=...>`).
    pub id: AttrValue,
    pub title: AttrValue,
    pub report: ReportRef,
    /// Report tables offered for export (CSV and JSON) in this card.
    #[prop_or_default]
    pub exports: Vec<crate::audit::RescoreTable>,
    #[prop_or_default]
    pub intro: Html,
    #[prop_or_default]
    pub children: Html,
}

/// A titled result section with its export buttons and the settings line.
#[function_component(Card)]
pub fn card(props: &CardProps) -> Html {
    html! {
        <section class="card" id={props.id.clone()} aria-labelledby={format!("{}-title", props.id)}>
            <header class="card-head">
                <h2 id={format!("{}-title", props.id)}>{ props.title.clone() }</h2>
                <div class="exports">
                    { for props.exports.iter().map(|t| html! {
                        <export::ExportButtons report={props.report.clone()} table={*t} />
                    }) }
                </div>
            </header>
            { props.intro.clone() }
            { props.children.clone() }
            { conventions_line(&props.report) }
        </section>
    }
}

#[derive(Properties, PartialEq)]
pub struct SectionProps {
    /// The section's id (`<section id=...>`).
    pub id: AttrValue,
    pub title: AttrValue,
    /// Export buttons in the header.
    #[prop_or_default]
    pub exports: Html,
    #[prop_or_default]
    pub intro: Html,
    /// The settings line printed under the result (`None`: no line).
    #[prop_or_default]
    pub conventions: Option<AttrValue>,
    #[prop_or_default]
    pub children: Html,
}

/// A titled result section of the comparison, probe and reclaim pages: export buttons in the
/// header and the settings of the result under it.
#[function_component(Section)]
pub fn section(props: &SectionProps) -> Html {
    html! {
        <section class="card" id={props.id.clone()} aria-labelledby={format!("{}-title", props.id)}>
            <header class="card-head">
                <h2 id={format!("{}-title", props.id)}>{ props.title.clone() }</h2>
                <div class="exports">{ props.exports.clone() }</div>
            </header>
            { props.intro.clone() }
            { props.children.clone() }
            if let Some(c) = &props.conventions {
                <p class="conventions">
                    <span class="label">{ "Settings: " }</span>
                    <code>{ c.clone() }</code>
                </p>
            }
        </section>
    }
}
