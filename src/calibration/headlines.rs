//! What a routing and calibration audit says, first: help vs hurt, how well the confidence
//! separates them (AUC with its DeLong interval), the best routing threshold of the sweep, and
//! what Platt scaling changes.

use super::analyse::{CalibrationReport, CalibrationRow};
use super::table::CalibrationTable;
use crate::headline::{Headline, count, estimate, percent};

/// Beyond this many splits scored after Platt scaling, one headline sums them up.
const MAX_SPLIT_HEADLINES: usize = 6;

/// The headlines of a calibration report (unranked).
pub fn headlines(r: &CalibrationReport) -> Vec<Headline> {
    let mut hs = r.populations.headlines(CalibrationTable::Populations, CalibrationTable::CellColumns);
    hs.extend(governance(r));
    let level = percent(r.settings.confidence_level);
    if let Some(first) = r.missing.first_seen() {
        hs.push(Headline::finding(
            format!("{} without a confidence or an outcome were left out", count(r.missing.count, "row", "rows")),
            first,
            CalibrationTable::Ledger,
        ));
    }
    if let Some(l) = r.ledger.first().filter(|l| l.n > 0) {
        hs.push(Headline::finding(
            format!(
                "Memory helps {} and hurts {} of {} items: {:+.4} accuracy",
                l.help,
                l.hurt,
                l.n,
                l.delta_accuracy.unwrap_or(0.0)
            ),
            format!(
                "accuracy without memory {:.4}, with memory on every item {:.4}",
                l.accuracy_without.unwrap_or(f64::NAN),
                l.accuracy_with.unwrap_or(f64::NAN)
            ),
            CalibrationTable::Ledger,
        ));
    }
    if let Some(a) = &r.auc {
        let (text, how) = if a.low.is_some_and(|l| l > 0.5) {
            ("Helped items have higher confidence than hurt ones", "interval above 0.5")
        } else if a.high.is_some_and(|h| h < 0.5) {
            (
                "Helped items have lower confidence than hurt ones",
                "interval below 0.5: the confidence separates them, inverted",
            )
        } else {
            (
                "The confidence does not clearly separate helped from hurt items",
                "interval includes 0.5, or none with one item in a class",
            )
        };
        hs.push(Headline::finding(
            format!("{text}: AUC {}", estimate(a.auc, a.low, a.high)),
            format!(
                "{} helps vs {} hurts ({} items), {level}% DeLong {how}",
                a.positives, a.negatives, r.settings.auc_population
            ),
            CalibrationTable::Ledger,
        ));
    }
    if let Some(best) = r
        .sweep
        .iter()
        .max_by(|a, b| a.accuracy.total_cmp(&b.accuracy).then(b.inject_fraction.total_cmp(&a.inject_fraction)))
    {
        hs.push(Headline::context(
            format!(
                "Best routing threshold: the {}th percentile (tau {:.4}) injects {:.1}% of items for {:+.4} accuracy",
                best.percentile,
                best.tau,
                100.0 * best.inject_fraction,
                best.delta
            ),
            format!(
                "chosen on these items: an in-sample optimum, not a held-out result ({} helps, {} hurts at that tau)",
                best.help, best.hurt
            ),
            CalibrationTable::Sweep,
        ));
    }
    let raw_of: std::collections::HashMap<&str, &CalibrationRow> =
        r.calibration.iter().filter(|x| x.method == "raw").map(|x| (x.split.as_str(), x)).collect();
    let (pooled, platt): (Vec<_>, Vec<_>) =
        r.calibration.iter().filter(|c| c.method == "platt").partition(|c| c.pooled);
    // The evaluation splits pooled: one headline, whatever their number.
    for c in pooled {
        if let Some(raw) = raw_of.get(c.split.as_str()) {
            let splits = c.split.trim_start_matches("pooled: ");
            hs.push(platt_headline(
                r,
                raw,
                c,
                "the evaluation splits pooled",
                &format!("{splits} ({} items together)", c.n),
            ));
        }
    }
    if platt.len() > MAX_SPLIT_HEADLINES {
        let lower = platt
            .iter()
            .filter(|c| raw_of.get(c.split.as_str()).is_some_and(|raw| c.ece.zip(raw.ece).is_some_and(|(p, w)| p < w)))
            .count();
        hs.push(Headline::context(
            format!("Platt scaling lowers the ECE on {lower} of {} splits scored", platt.len()),
            format!(
                "fitted on {}; each split's ECE and Brier, raw and Platt, are in the calibration table",
                r.settings.fit.join(", ")
            ),
            CalibrationTable::Calibration,
        ));
        return hs;
    }
    for c in platt {
        if let Some(raw) = raw_of.get(c.split.as_str()) {
            hs.push(platt_headline(r, raw, c, &format!("split {}", c.split), &format!("{} ({} items)", c.split, c.n)));
        }
    }
    hs
}

/// Raw against Platt on one scored row: `on` names it in the sentence, `scored` in the note.
fn platt_headline(r: &CalibrationReport, raw: &CalibrationRow, c: &CalibrationRow, on: &str, scored: &str) -> Headline {
    Headline::context(
        format!(
            "Platt scaling on {on}: ECE {:.4} → {:.4}, Brier {:.4} → {:.4}",
            raw.ece.unwrap_or(f64::NAN),
            c.ece.unwrap_or(f64::NAN),
            raw.brier.unwrap_or(f64::NAN),
            c.brier.unwrap_or(f64::NAN)
        ),
        format!(
            "fitted on {} and scored on {scored}; ECE with {} equal-width bins",
            r.settings.fit.join(", "),
            r.settings.ece_bins
        ),
        CalibrationTable::Calibration,
    )
}

/// Entries the retirement rule retires, whether the two radii disagree, and evidence drawn from
/// splits the paper keeps out of governance.
fn governance(r: &CalibrationReport) -> Vec<Headline> {
    let Some(g) = &r.governance else { return Vec::new() };
    let mut hs = Vec::new();
    let rule = format!("\u{3b4} = {}, {} radius", g.delta, g.radius.name());
    let retired: Vec<&str> = g.entries.iter().filter(|e| e.retired).map(|e| e.entry.as_str()).collect();
    let evidence = format!(
        "{rule}; {} of {} rows naming entries gave evidence; retired: {}",
        g.rows_used,
        g.rows_with_entries,
        if retired.is_empty() { "none".to_string() } else { crate::headline::some_of(&retired, 5) }
    );
    let text = format!(
        "Bank governance retires {} of {} retrieved entries (upper bound of the mean utility below 0)",
        g.retired,
        g.entries.len()
    );
    hs.push(if g.retired > 0 {
        Headline::finding(text, evidence, CalibrationTable::Governance)
    } else {
        Headline::context(text, evidence, CalibrationTable::Governance)
    });
    if g.retired != g.retired_other {
        let (published, textbook) = match g.radius {
            super::governance::Radius::Published => (g.retired, g.retired_other),
            super::governance::Radius::Textbook => (g.retired_other, g.retired),
        };
        hs.push(Headline::finding(
            format!(
                "The radius decides retirement: TAG's published radius retires {published} entries, Hoeffding's for utilities in [\u{2212}1, 1] retires {textbook}"
            ),
            format!(
                "\u{221a}(log(2/\u{3b4})/(2n)) is the range-1 form, half the textbook \u{221a}(2 log(2/\u{3b4})/n); {rule}"
            ),
            CalibrationTable::Governance,
        ));
    }
    if g.splits.is_empty() && g.evidence_splits.len() > 1 {
        hs.push(Headline::finding(
            format!(
                "Entry evidence is drawn from every split ({}): TAG attaches it on fit/dev only and freezes the bank before test",
                g.evidence_splits.join(", ")
            ),
            format!("name the splits that give evidence with {}", crate::fields::mention("governance_splits")),
            CalibrationTable::Governance,
        ));
    }
    let left: Vec<String> =
        [(g.rows_without_outcome, "without an outcome with memory"), (g.rows_other_splits, "in other splits")]
            .iter()
            .filter(|(n, _)| *n > 0)
            .map(|(n, why)| format!("{n} {why}"))
            .collect();
    if !left.is_empty() {
        hs.push(Headline::context(
            format!("{} naming entries gave no evidence", count(g.rows_with_entries - g.rows_used, "row", "rows")),
            left.join("; "),
            CalibrationTable::Governance,
        ));
    }
    hs
}
