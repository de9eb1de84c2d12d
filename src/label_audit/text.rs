//! The human-readable labels report (`memaudit labels --format table`).

use super::analyse::LabelsReport;

fn f3(v: Option<f64>) -> String {
    v.map_or("-".into(), |x| format!("{x:.3}"))
}

fn ci(low: Option<f64>, high: Option<f64>) -> String {
    match (low, high) {
        (Some(l), Some(h)) => format!("[{l:.3}, {h:.3}]"),
        _ => "-".into(),
    }
}

/// The settings, what was read, Fleiss' κ, each pair, each distribution and the sample.
pub fn render_text(r: &LabelsReport) -> String {
    let s = &r.settings;
    let mut out = String::new();
    out.push_str(&format!(
        "Labels: {} items ({} labelled by every rater), {} raters ({}), classes {}{}\n",
        r.items,
        r.complete_items,
        r.raters.len(),
        r.raters.join(", "),
        r.classes.join(" / "),
        if s.classes_stated { " (stated)" } else { " (as first seen)" }
    ));
    if !r.recoded.is_empty() {
        let each: Vec<String> =
            r.recoded.iter().map(|x| format!("{} -> {} ({} labels)", x.from, x.to, x.labels)).collect();
        out.push_str(&format!("Recoded: {}\n", each.join("; ")));
    }
    if !r.collapsed_classes.is_empty() {
        out.push_str(&format!("Collapsed: {} ({})\n", r.collapsed_classes.join(" / "), s.collapse.join("; ")));
    }
    out.push_str(&format!(
        "Settings: bootstrap {} resamples, seed {}, confidence {}; shares with Wilson intervals; tie-break {}{}; repeats {}\n",
        s.bootstrap.resamples,
        s.bootstrap.seed,
        s.bootstrap.confidence,
        s.tie_break,
        s.tie_rater.as_ref().map(|t| format!(" ({t})")).unwrap_or_default(),
        s.repeats
    ));
    out.push_str(&format!("Populations: {}\n", s.populations));
    let p = &r.problems;
    let blank = super::read::blank_forms(&r.readings);
    let blank = if blank.is_empty() { String::new() } else { format!("; blank forms left out: {}", blank.join(", ")) };
    out.push_str(&format!(
        "Read: {} missing labels, {} invalid, {} repeats ({} conflicting), {} items with inconsistent group/stratum{blank}\n\n",
        p.missing.count, p.invalid.count, p.repeats.count, p.conflicts.count, p.inconsistent.count
    ));
    out.push_str(&crate::text_table!(&r.overall, |o| {
        "group" => o.group.clone(),
        "scale" => o.scale.clone(),
        "items" => o.complete_items.to_string(),
        "fleiss" => f3(o.fleiss_kappa),
        "interval" => ci(o.low, o.high),
        "mean agree" => f3(o.mean_pair_agreement),
        "unanimous" => o.unanimous.to_string(),
        "ties" => o.ties.to_string(),
    }));
    out.push('\n');
    out.push_str(&crate::text_table!(&r.pairs, |q| {
        "group" => q.group.clone(),
        "scale" => q.scale.clone(),
        "pair" => format!("{} ~ {}", q.rater_a, q.rater_b),
        "n" => q.n.to_string(),
        "agree" => f3(q.percent_agreement),
        "kappa" => f3(q.kappa),
        "interval" => ci(q.low, q.high),
    }));
    out.push('\n');
    out.push_str(&crate::text_table!(&r.distribution, |d| {
        "group" => d.group.clone(),
        "scale" => d.scale.clone(),
        "rater" => d.rater.clone(),
        "label" => d.label.clone(),
        "count" => d.count.to_string(),
        "n" => d.n.to_string(),
        "share" => f3(d.share),
        "Wilson" => ci(d.low, d.high),
    }));
    if let Some(sm) = &r.sample {
        out.push_str(&format!(
            "\nSample: {} per bucket of `{}` ({}, seed {}); {} items in no bucket\n",
            sm.per_bucket, sm.stratum, sm.mode, sm.seed, sm.outside
        ));
        for b in &sm.buckets {
            out.push_str(&format!("  bucket {:<10} {} items, {} drawn\n", b.bucket, b.items, b.drawn));
        }
        for row in &sm.rows {
            out.push_str(&format!("  {:<10} {:<32} {}\n", row.bucket, row.item, row.stratum));
        }
    }
    out
}
