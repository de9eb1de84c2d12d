//! What a label audit says, first: repeated labels that disagree, labels left out, the overall
//! agreement (Fleiss' κ with its interval, on the classes and the collapse), the weakest and the
//! strongest pair, and the majority's distribution.

use super::analyse::{ALL, CLASSES, LabelsReport, MAJORITY};
use super::table::LabelsTable;
use crate::headline::{Headline, count, estimate, percent, some_of};

/// Landis & Koch (1977)'s bands for κ: < 0 poor, ≤ 0.20 slight, ≤ 0.40 fair, ≤ 0.60 moderate,
/// ≤ 0.80 substantial, else almost perfect.
pub fn band(kappa: f64) -> &'static str {
    match kappa {
        k if k < 0.0 => "poor",
        k if k <= 0.20 => "slight",
        k if k <= 0.40 => "fair",
        k if k <= 0.60 => "moderate",
        k if k <= 0.80 => "substantial",
        _ => "almost perfect",
    }
}

/// The headlines of a labels report (unranked: see [`crate::headline::rank`]).
pub fn headlines(r: &LabelsReport) -> Vec<Headline> {
    // A wide file without an item column: its rows are the items, said first.
    let by_line = r.readings.iter().filter(|x| x.items_by_line).map(|x| {
        Headline::context(
            format!("No item column in {}: each of its {} rows is one item, named by its line", x.file, x.records),
            // Report text, shown by the CLI and the page alike: the setting in plain words.
            format!(
                "items `{}:2`, `{}:3`, …; raters {} (state the item column to name the items by it)",
                x.file,
                x.file,
                x.rater_columns.join(", ")
            ),
            LabelsTable::Items,
        )
    });
    let mut hs: Vec<Headline> = by_line.collect();
    // A blank form (a rater column empty in every row) is left out: said, with its columns.
    hs.extend(r.readings.iter().filter(|x| !x.blank_columns.is_empty()).map(|x| {
        let columns: Vec<String> = x.blank_columns.iter().map(|c| format!("`{c}`")).collect();
        Headline::finding(
            format!("{} is a blank form: left out, it labels nothing", x.file),
            format!(
                "{} {} no label in any of its {} rows: not a rater, and no label of it is counted missing",
                count(columns.len(), "column", "columns"),
                if columns.len() == 1 {
                    format!("{} holds", columns[0])
                } else {
                    format!("{} hold", columns.join(", "))
                },
                x.records
            ),
            LabelsTable::Items,
        )
    }));
    // Raters on different items: each pair's kappa is on the items both labelled (as stated).
    hs.extend(r.populations.mismatches.iter().take(3).map(|m| {
        Headline::finding(
            "Raters labelled different items: each pair's kappa is on the items both labelled, Fleiss' on the items all labelled",
            m.describe("items"),
            LabelsTable::Populations,
        )
    }));
    // A rater column of the same name in several wide files is read as one rater: said, since
    // one-file-per-rater releases often name every rater's column alike.
    for (rater, files) in shared_rater_columns(r) {
        hs.push(Headline::finding(
            format!("The rater column `{rater}` is in {} files, read as one rater", files.len()),
            format!(
                "{}: their labels are pooled as one rater's (a second label for an item is a repeat); rename the column \
                 in each file to keep them apart",
                files.join(", ")
            ),
            LabelsTable::Distribution,
        ));
    }
    // Classes that differ only in case (`yes`, `Yes`): kept apart, as read, and said with the
    // setting that would merge them.
    // Grouped by the lower-case label, each group in the classes' order (first seen first).
    let mut groups: std::collections::HashMap<String, Vec<&str>> = std::collections::HashMap::new();
    let mut order: Vec<String> = Vec::new();
    for c in &r.classes {
        let key = c.to_lowercase();
        let g = groups.entry(key.clone()).or_default();
        if g.is_empty() {
            order.push(key);
        }
        g.push(c);
    }
    let alike: Vec<&Vec<&str>> = order.iter().filter_map(|k| groups.get(k)).filter(|g| g.len() > 1).collect();
    if let Some(first) = alike.first() {
        let shown: Vec<String> = alike.iter().map(|g| g.join(" / ")).collect();
        let example: Vec<String> = first[1..].iter().map(|x| format!("{x}={}", first[0])).collect();
        hs.push(Headline::finding(
            format!("Labels that differ only in case are kept as distinct classes: {}", some_of(&shown, 2)),
            format!(
                "{} group(s) of labels alike but for case; to read them as one, give {} (e.g. {})",
                alike.len(),
                crate::fields::mention("recode"),
                example.join(";")
            ),
            LabelsTable::Distribution,
        ));
    }
    // Recoded labels: a stated merge of labels, said with what it changed.
    if !r.recoded.is_empty() {
        let changed: usize = r.recoded.iter().map(|x| x.labels).sum();
        let unused: Vec<&str> = r.recoded.iter().filter(|x| x.labels == 0).map(|x| x.from.as_str()).collect();
        hs.push(Headline::context(
            format!("{} recoded before the analysis", count(changed, "label was", "labels were")),
            format!(
                "{}{}",
                r.recoded
                    .iter()
                    .map(|x| format!("`{}` → `{}` ({})", x.from, x.to, x.labels))
                    .collect::<Vec<_>>()
                    .join(", "),
                if unused.is_empty() {
                    String::new()
                } else {
                    format!(
                        "; no label reads {}",
                        unused.iter().map(|u| format!("`{u}`")).collect::<Vec<_>>().join(", ")
                    )
                }
            ),
            LabelsTable::Distribution,
        ));
    }
    let level = format!("{}%", percent(r.settings.bootstrap.confidence));
    let p = &r.problems;
    if let Some(first) = p.conflicts.examples.first() {
        hs.push(Headline::alert(
            format!(
                "{} of one rater for one item disagree with the label kept: the first is used",
                count(p.conflicts.count, "repeated label", "repeated labels")
            ),
            format!(
                "{} repeats in all; first: item {} ({}): {}",
                p.repeats.count, first.item, first.rater, first.detail
            ),
            LabelsTable::Items,
        ));
    } else if p.repeats.count > 0 {
        hs.push(Headline::context(
            format!("{} agree with the label kept", count(p.repeats.count, "repeated label", "repeated labels")),
            "kept once: the effective sample is the distinct items".to_string(),
            LabelsTable::Items,
        ));
    }
    if let Some(first) = p.invalid.first_seen() {
        hs.push(Headline::finding(
            format!("{} outside the stated classes were left out", count(p.invalid.count, "label", "labels")),
            first,
            LabelsTable::Items,
        ));
    }
    if p.missing.count > 0 {
        let (missing, complete, items) = (count(p.missing.count, "label is", "labels are"), r.complete_items, r.items);
        hs.push(Headline::finding(
            format!("{missing} missing: {complete} of {items} items are labelled by every rater"),
            "Fleiss' kappa and the majority use those items only".to_string(),
            LabelsTable::Overall,
        ));
    }
    if r.raters.len() < 2 {
        hs.push(Headline::finding(
            "One rater: there is no agreement to measure, only its distribution".to_string(),
            format!("rater {}", r.raters.join(", ")),
            LabelsTable::Distribution,
        ));
    }
    for o in r.overall.iter().filter(|o| o.group == ALL) {
        if let Some(k) = o.fleiss_kappa {
            hs.push(Headline::finding(
                format!(
                    "Fleiss' kappa over {} raters on the {}: {} ({} agreement, Landis & Koch)",
                    o.raters,
                    if o.scale == CLASSES { "classes" } else { "collapse" },
                    estimate(k, o.low, o.high),
                    band(k)
                ),
                format!(
                    "{} items labelled by every rater, {level} bootstrap interval; mean pair agreement {:.3}; {} unanimous",
                    o.complete_items,
                    o.mean_pair_agreement.unwrap_or(f64::NAN),
                    o.unanimous
                ),
                LabelsTable::Overall,
            ));
        }
    }
    let pairs: Vec<_> = r.pairs.iter().filter(|q| q.group == ALL && q.scale == CLASSES && q.kappa.is_some()).collect();
    if pairs.len() >= 2 {
        let by = |q: &&crate::label_audit::PairRow| q.kappa.unwrap_or(f64::NAN);
        let weakest = pairs.iter().min_by(|a, b| by(a).total_cmp(&by(b)));
        let strongest = pairs.iter().max_by(|a, b| by(a).total_cmp(&by(b)));
        for (what, q) in [("Weakest", weakest), ("Strongest", strongest)] {
            if let Some(q) = q {
                hs.push(Headline::context(
                    format!(
                        "{what} pair: {} and {}, Cohen's kappa {} ({})",
                        q.rater_a,
                        q.rater_b,
                        estimate(by(q), q.low, q.high),
                        band(by(q))
                    ),
                    format!(
                        "{:.1}% agreement on {} items ({}), {level} bootstrap interval",
                        100.0 * q.percent_agreement.unwrap_or(f64::NAN),
                        q.n,
                        r.settings.pair_items
                    ),
                    LabelsTable::Pairs,
                ));
            }
        }
    }
    let majority: Vec<_> =
        r.distribution.iter().filter(|d| d.group == ALL && d.scale == CLASSES && d.rater == MAJORITY).collect();
    if let Some(first) = majority.first() {
        let ties = r.overall.iter().find(|o| o.group == ALL && o.scale == CLASSES).map_or(0, |o| o.ties);
        hs.push(Headline::context(
            format!(
                "Majority label: {}",
                majority
                    .iter()
                    .map(|d| format!("{} {:.1}%", d.label, 100.0 * d.share.unwrap_or(f64::NAN)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            format!(
                "{} items with a majority, {} ties (tie-break {}); Wilson intervals in the table",
                first.n, ties, r.settings.tie_break
            ),
            LabelsTable::Distribution,
        ));
    }
    hs
}

/// The wide files' rater columns named alike in several files: (column, files).
fn shared_rater_columns(r: &LabelsReport) -> Vec<(String, Vec<String>)> {
    let mut by: Vec<(String, Vec<String>)> = Vec::new();
    for reading in &r.readings {
        for c in &reading.rater_columns {
            match by.iter_mut().find(|(n, _)| n == c) {
                Some((_, files)) => {
                    if !files.contains(&reading.file) {
                        files.push(reading.file.clone());
                    }
                }
                None => by.push((c.clone(), vec![reading.file.clone()])),
            }
        }
    }
    by.retain(|(_, files)| files.len() > 1);
    by
}
