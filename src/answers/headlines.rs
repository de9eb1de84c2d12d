//! What an answer rescoring says, first: whether the best arm depends on the scoring rule, how
//! far one arm's accuracy moves between rules, which two rules disagree most, and what was
//! scored.

use super::rescore::{AnswerReport, ProfileSummary};
use super::stated::{StatedComparison, StatedKind};
use super::table::AnswersTable;
use crate::distinct::first_seen;
use crate::headline::{Headline, from_warnings, some_of};

/// The headlines of an answer rescoring (unranked: see [`crate::headline::rank`]).
pub fn headlines(r: &AnswerReport) -> Vec<Headline> {
    let mut hs = r.populations.headlines(AnswersTable::Populations, AnswersTable::CellColumns);
    // Rows per dataset (arms are compared within a dataset).
    let datasets = first_seen(r.summary.iter().map(|s| s.dataset.as_deref()));
    for ds in &datasets {
        let rows: Vec<&ProfileSummary> = r.summary.iter().filter(|s| s.dataset.as_deref() == *ds).collect();
        let scope = ds.map(|d| format!(" on {d}")).unwrap_or_default();
        // Best arm per profile.
        let mut bests: Vec<(String, String, f64)> = Vec::new();
        for p in &r.settings.profiles {
            let of_p: Vec<&&ProfileSummary> = rows.iter().filter(|s| s.profile == *p && s.arm.is_some()).collect();
            if of_p.len() < 2 {
                continue;
            }
            // The arm with the highest share, or `tie` when two share it.
            if let Some(best) = of_p.iter().max_by(|a, b| a.correct_rate.total_cmp(&b.correct_rate)) {
                let tied = of_p.iter().filter(|s| s.correct_rate == best.correct_rate).count() > 1;
                let arm = if tied { "tie".to_string() } else { best.arm.clone().unwrap_or_default() };
                bests.push((p.name().to_string(), arm, best.correct_rate));
            }
        }
        if !bests.is_empty() {
            let mut evidence = bests.iter().map(|(p, a, v)| format!("{p}: {a} {v:.3}")).collect::<Vec<_>>().join("; ");
            // Arms on different questions: their shares are not on one population, and the
            // headline says so beside the ranking (the populations alert names them).
            let apart = !r.populations.mismatches.is_empty();
            if apart {
                let first = r.settings.profiles.first();
                let ns: Vec<String> = rows
                    .iter()
                    .filter(|s| Some(&s.profile) == first)
                    .filter_map(|s| Some(format!("{} n = {}", s.arm.as_deref()?, s.n)))
                    .collect();
                evidence =
                    format!("{evidence}; the arms answer different questions ({}): not one population", ns.join(", "));
            }
            let scope = if apart { format!("{scope}, on different questions,") } else { scope.clone() };
            // Two rules with different sole winners: the ranking depends on the rule.
            let sole: Vec<&str> = bests.iter().map(|b| b.1.as_str()).filter(|a| *a != "tie").collect();
            if sole.iter().any(|a| *a != sole[0]) {
                hs.push(Headline::alert(
                    format!("The most accurate arm{scope} depends on the answer-scoring rule"),
                    format!("{evidence}; share of answers counted correct, no interval"),
                    AnswersTable::Summary,
                ));
            } else if sole.len() == bests.len() {
                hs.push(Headline::context(
                    format!("{} is the most accurate arm{scope} under every scoring rule", bests[0].1),
                    format!("{evidence}; share of answers counted correct, no interval"),
                    AnswersTable::Summary,
                ));
            }
        }
        // The widest spread of one arm's accuracy across profiles.
        let arms = first_seen(rows.iter().map(|s| s.arm.as_deref()));
        let spread = arms
            .iter()
            .filter_map(|a| {
                let of_arm: Vec<&&ProfileSummary> = rows.iter().filter(|s| s.arm.as_deref() == *a).collect();
                let lo = of_arm.iter().min_by(|x, y| x.correct_rate.total_cmp(&y.correct_rate))?;
                let hi = of_arm.iter().max_by(|x, y| x.correct_rate.total_cmp(&y.correct_rate))?;
                Some((*a, **lo, **hi))
            })
            .max_by(|x, y| (x.2.correct_rate - x.1.correct_rate).total_cmp(&(y.2.correct_rate - y.1.correct_rate)));
        if let Some((arm, lo, hi)) = spread
            && hi.correct_rate - lo.correct_rate > 0.0
        {
            let who = arm.map(|a| format!("{a}'s")).unwrap_or_else(|| "The".to_string());
            hs.push(Headline::finding(
                format!(
                    "{who} accuracy{scope} moves by {:.1} points with the scoring rule",
                    100.0 * (hi.correct_rate - lo.correct_rate)
                ),
                format!(
                    "{} {:.3} ({} of {}) vs {} {:.3} ({} of {})",
                    hi.profile.name(),
                    hi.correct_rate,
                    hi.correct,
                    hi.n,
                    lo.profile.name(),
                    lo.correct_rate,
                    lo.correct,
                    lo.n
                ),
                AnswersTable::Summary,
            ));
        }
    }
    if let Some(d) = r.disagreements.iter().max_by_key(|d| d.verdict_changes)
        && d.verdict_changes > 0
    {
        hs.push(Headline::finding(
            format!("{} and {} disagree on {} of {} answers", d.a.name(), d.b.name(), d.verdict_changes, d.n),
            format!("correct only under {}: {}; only under {}: {}", d.a.name(), d.a_only, d.b.name(), d.b_only),
            AnswersTable::Summary,
        ));
    }
    hs.extend(stated(r));
    let profiles: Vec<&str> = r.settings.profiles.iter().map(|p| p.name()).collect();
    hs.push(Headline::context(
        format!("{} answers scored under {} rule(s)", r.rows.len(), profiles.len()),
        format!("{}; F1 counts as correct from {}", some_of(&profiles, 8), r.settings.f1_threshold),
        AnswersTable::Rows,
    ));
    // Questions without an id, named by their place: said, since a reviewer pairs them by it.
    if let Some(w) = r.warnings.get(super::read::AnswerWarningKind::PositionalIds) {
        hs.push(Headline::context(
            format!("{} questions carry no id: each is named conversation/position", w.count),
            format!(
                "LoCoMo answers grouped by conversation; the position is the question's 1-based place among its \
                 conversation's questions in the file ({})",
                some_of(&w.examples, 3)
            ),
            AnswersTable::Rows,
        ));
    }
    hs.extend(from_warnings(r.warnings.iter(), AnswersTable::Rows));
    hs
}

/// The files' own scores beside the rules, per (column, arm): a verdict column's share correct
/// against the rules' range, with each rule's agreement and κ; a score column reproduced by a
/// rule on every row, or by none (the file used another rule): context.
fn stated(r: &AnswerReport) -> Vec<Headline> {
    let mut hs = Vec::new();
    let keys = first_seen(r.stated.iter().map(|c| (c.column.as_str(), c.arm.as_deref())));
    for (column, arm) in keys {
        let of: Vec<&StatedComparison> =
            r.stated.iter().filter(|c| c.column == column && c.arm.as_deref() == arm).collect();
        let Some(first) = of.first() else { continue };
        let whose = arm.map(|a| format!("{a}: the")).unwrap_or_else(|| "The".into());
        let n = first.n;
        match first.kind {
            StatedKind::Verdict => {
                let lo = of.iter().map(|c| c.profile_correct_rate).fold(f64::INFINITY, f64::min);
                let hi = of.iter().map(|c| c.profile_correct_rate).fold(f64::NEG_INFINITY, f64::max);
                let rules = if (hi - lo).abs() < 5e-4 {
                    format!("{:.1}%", 100.0 * lo)
                } else {
                    format!("{:.1}–{:.1}%", 100.0 * lo, 100.0 * hi)
                };
                let evidence = of
                    .iter()
                    .map(|c| {
                        let kappa = c.kappa.map(|k| format!(", κ {k:.2}")).unwrap_or_default();
                        format!(
                            "{} {:.1}% (agrees on {:.1}%{kappa})",
                            c.profile.name(),
                            100.0 * c.profile_correct_rate,
                            100.0 * c.agreement()
                        )
                    })
                    .collect::<Vec<_>>()
                    .join("; ");
                hs.push(Headline::finding(
                    format!(
                        "{whose} files' own {column} counts {:.1}% of {n} answers correct; the answer rules {rules}",
                        100.0 * first.stated_mean
                    ),
                    format!("{evidence}; the file's verdicts as stated, never rescored"),
                    AnswersTable::Stated,
                ));
            }
            StatedKind::Score => {
                // A score reproduced by a rule on every answer, or by none (the file used another
                // rule, BLEU): context either way; the judge's verdicts above are the finding.
                let Some(best) = of.iter().max_by_key(|c| c.agree) else { continue };
                let text = if best.agree == n {
                    format!("{whose} files' own {column} is {} on every answer", best.profile.name())
                } else {
                    format!("{whose} files' own {column} is not reproduced by any answer rule")
                };
                hs.push(Headline::context(
                    text,
                    format!(
                        "closest {}: equal on {} of {n} (within 1e-6); means {:.4} stated vs {:.4}",
                        best.profile.name(),
                        best.agree,
                        best.stated_mean,
                        best.profile_mean
                    ),
                    AnswersTable::Stated,
                ));
            }
        }
    }
    hs
}
