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
    /// classes (the labels as read) or collapsed (after the stated collapse).
    "scale" => |r| r.scale.clone(),
    /// Raters (m).
    "raters" => |r| r.raters.to_string(),
    /// Items labelled by every rater: the population of this row.
    "complete_items" => |r| r.complete_items.to_string(),
    /// Fleiss' κ = (P̄ − P̄e)/(1 − P̄e) over the complete items.
    "fleiss_kappa" => |r| num(r.fleiss_kappa),
    /// Percentile bootstrap interval of κ over items, lower bound.
    "low" => |r| num(r.low),
    /// Percentile bootstrap interval of κ over items, upper bound.
    "high" => |r| num(r.high),
    /// Observed agreement P̄ of Fleiss' κ.
    "p_bar" => |r| num(r.p_bar),
    /// The mean of the rater pairs' percent agreement.
    "mean_pair_agreement" => |r| num(r.mean_pair_agreement),
    /// Complete items where every rater gave the same label.
    "unanimous" => |r| r.unanimous.to_string(),
    /// Complete items whose majority is a tie (after the tie-break).
    "ties" => |r| r.ties.to_string(),
    /// Resamples where κ was undefined (left out of the interval).
    "undefined_resamples" => |r| r.undefined_resamples.to_string(),
];

const PAIRS: &[Column<PairRow>] = &crate::columns![PairRow;
    "group" => |r| r.group.clone(),
    /// classes (the labels as read) or collapsed (after the stated collapse).
    "scale" => |r| r.scale.clone(),
    "rater_a" => |r| r.rater_a.clone(),
    "rater_b" => |r| r.rater_b.clone(),
    /// Items both raters labelled (or every rater, as the settings say).
    "n" => |r| r.n.to_string(),
    /// Items where the two gave the same label.
    "agreements" => |r| r.agreements.to_string(),
    /// agreements / n.
    "percent_agreement" => |r| num(r.percent_agreement),
    /// Cohen's κ = (p_o − p_e)/(1 − p_e) (empty when p_e = 1).
    "kappa" => |r| num(r.kappa),
    /// Percentile bootstrap interval of κ over items, lower bound.
    "low" => |r| num(r.low),
    /// Percentile bootstrap interval of κ over items, upper bound.
    "high" => |r| num(r.high),
    /// Chance agreement p_e = Σ_c p_a(c)·p_b(c).
    "p_e" => |r| num(r.p_e),
    /// Resamples where κ was undefined (left out of the interval).
    "undefined_resamples" => |r| r.undefined_resamples.to_string(),
];

const DISTRIBUTION: &[Column<DistributionRow>] = &crate::columns![DistributionRow;
    "group" => |r| r.group.clone(),
    /// classes (the labels as read) or collapsed (after the stated collapse).
    "scale" => |r| r.scale.clone(),
    /// The rater (or the majority).
    "rater" => |r| r.rater.clone(),
    "label" => |r| r.label.clone(),
    /// Items the rater gave this label.
    "count" => |r| r.count.to_string(),
    /// The rater's labelled items in the group (the majority: complete items without a tie).
    "n" => |r| r.n.to_string(),
    /// count / n.
    "share" => |r| num(r.share),
    /// Wilson interval of the share, lower bound.
    "low" => |r| num(r.low),
    /// Wilson interval of the share, upper bound.
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
    Table { name: LabelsTable::Items.name().into(), headers, rows, docs: Default::default() }
}
