//! The tables of a labels report (`memaudit labels --format csv --table NAME`): the same
//! [`Table`]s feed the CLI and the viewer's tables and exports.

use super::analyse::{DistributionRow, ItemRow, LabelsReport, OverallRow, PairRow};
use super::sample::SampleRow;
use crate::error::{Error, Result};
use crate::report::{Column, Table, flag, num, opt};

crate::choice! {
    /// The tables of a labels report.
    pub enum LabelsTable {
        /// Fleiss' κ over all raters, the mean pair agreement and the majority's ties, per group and scale.
        Overall,
        /// Cohen's κ and percent agreement per rater pair.
        Pairs,
        /// Each rater's (and the majority's) labels: count, share, Wilson interval.
        Distribution,
        /// One row per item: each rater's label and the majority.
        Items,
        /// The stratified sample to check by hand.
        Sample,
        /// The items each rater labelled ([`crate::cells`]).
        Populations,
    }
}

const OVERALL: &[Column<OverallRow>] = &crate::columns![OverallRow;
    "group" => |r| r.group.clone(),
    "scale" => |r| r.scale.clone(),
    "raters" => |r| r.raters.to_string(),
    "complete_items" => |r| r.complete_items.to_string(),
    "fleiss_kappa" => |r| num(r.fleiss_kappa),
    "low" => |r| num(r.low),
    "high" => |r| num(r.high),
    "p_bar" => |r| num(r.p_bar),
    "mean_pair_agreement" => |r| num(r.mean_pair_agreement),
    "unanimous" => |r| r.unanimous.to_string(),
    "ties" => |r| r.ties.to_string(),
    "undefined_resamples" => |r| r.undefined_resamples.to_string(),
];

const PAIRS: &[Column<PairRow>] = &crate::columns![PairRow;
    "group" => |r| r.group.clone(),
    "scale" => |r| r.scale.clone(),
    "rater_a" => |r| r.rater_a.clone(),
    "rater_b" => |r| r.rater_b.clone(),
    "n" => |r| r.n.to_string(),
    "agreements" => |r| r.agreements.to_string(),
    "percent_agreement" => |r| num(r.percent_agreement),
    "kappa" => |r| num(r.kappa),
    "low" => |r| num(r.low),
    "high" => |r| num(r.high),
    "p_e" => |r| num(r.p_e),
    "undefined_resamples" => |r| r.undefined_resamples.to_string(),
];

const DISTRIBUTION: &[Column<DistributionRow>] = &crate::columns![DistributionRow;
    "group" => |r| r.group.clone(),
    "scale" => |r| r.scale.clone(),
    "rater" => |r| r.rater.clone(),
    "label" => |r| r.label.clone(),
    "count" => |r| r.count.to_string(),
    "n" => |r| r.n.to_string(),
    "share" => |r| num(r.share),
    "low" => |r| num(r.low),
    "high" => |r| num(r.high),
];

const SAMPLE: &[Column<SampleRow>] = &crate::columns![SampleRow;
    "bucket" => |r| r.bucket.clone(),
    "item" => |r| r.item.clone(),
    "stratum" => |r| r.stratum.clone(),
    "group" => |r| opt(&r.group),
];

/// One table of a labels report (an error for the sample when none was drawn).
pub fn table(report: &LabelsReport, which: LabelsTable) -> Result<Table> {
    Ok(match which {
        LabelsTable::Overall => Table::of(which.name(), OVERALL, &report.overall),
        LabelsTable::Pairs => Table::of(which.name(), PAIRS, &report.pairs),
        LabelsTable::Distribution => Table::of(which.name(), DISTRIBUTION, &report.distribution),
        LabelsTable::Items => items(report),
        LabelsTable::Populations => report.populations.populations_table(which.name()),
        LabelsTable::Sample => {
            let s = report.sample.as_ref().ok_or_else(|| {
                Error::setting(
                    "table",
                    format!(
                        "no sample was drawn: give {} K with {} COLUMN and {}",
                        crate::fields::mention("sample"),
                        crate::fields::mention("stratum"),
                        crate::fields::mention("buckets")
                    ),
                )
            })?;
            Table::of(which.name(), SAMPLE, &s.rows)
        }
    })
}

/// Items: the item, group and stratum, one column per rater, the majority (and collapsed).
fn items(report: &LabelsReport) -> Table {
    let mut headers: Vec<String> = vec!["item".into(), "group".into(), "stratum".into()];
    headers.extend(report.raters.iter().cloned());
    headers.extend(["complete", "unanimous", "majority"].map(String::from));
    let collapsed = !report.collapsed_classes.is_empty();
    if collapsed {
        headers.push("majority_collapsed".into());
    }
    let rows = report
        .item_rows
        .iter()
        .map(|r: &ItemRow| {
            let mut row = vec![r.item.clone(), opt(&r.group), opt(&r.stratum)];
            row.extend(r.labels.iter().cloned());
            row.extend([flag(r.complete), flag(r.unanimous), opt(&r.majority)]);
            if collapsed {
                row.push(opt(&r.majority_collapsed));
            }
            row
        })
        .collect();
    Table { name: LabelsTable::Items.name().into(), headers, rows }
}
