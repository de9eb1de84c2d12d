//! What a compliance audit says first: rows left out or pooled, per group the focus arm's use
//! factor and slope, where it overtakes the others, and the comparisons too small to detect the
//! effect they claim.

use super::analyse::ComplianceReport;
use super::table::ComplianceTable;
use crate::headline::{Headline, count, estimate, percent};

fn in_group(g: &str) -> String {
    if g.is_empty() { String::new() } else { format!(" ({g})") }
}

/// The arm a group's headlines are about: the focus arm, else the highest compliance.
fn lead<'a>(
    mut arms: impl Iterator<Item = &'a super::analyse::ArmRow>,
    focus: Option<&str>,
) -> Option<&'a super::analyse::ArmRow> {
    match focus {
        Some(f) => arms.find(|a| a.arm == f),
        None => arms.max_by(|a, b| a.compliance.total_cmp(&b.compliance)),
    }
}

/// The headlines of a compliance report (unranked).
pub fn headlines(r: &ComplianceReport) -> Vec<Headline> {
    let mut hs = Vec::new();
    let level = percent(r.settings.bootstrap.confidence);
    if !r.arms.is_empty() && r.arms.iter().all(|a| a.n == 1) {
        // A paper's table of aggregates read as rows: each "interval" is one value.
        hs.push(Headline::alert(
            "Every arm has a single row: these look like aggregates (one row per arm), not per-task rows",
            format!(
                "{}, each of n = 1: the intervals have width zero and measure no uncertainty; give the per-task rows \
                 behind them",
                count(r.arms.len(), "arm", "arms")
            ),
            ComplianceTable::Arms,
        ));
    }
    if let Some(first) = r.missing.first_seen() {
        hs.push(Headline::finding(
            format!("{} with a missing value were left out", count(r.missing.count, "row", "rows")),
            first,
            ComplianceTable::Arms,
        ));
    }
    hs.extend(r.populations.headlines(ComplianceTable::Populations, ComplianceTable::CellColumns));
    // Why tasks failed, over every arm of each group (BriefBench Table 34).
    for f in r.failures.iter().filter(|f| f.arm == super::recall::ALL_ARMS && f.failures > 0) {
        let share = |x: Option<f64>| x.map_or("-".into(), |v| format!("{:.0}%", 100.0 * v));
        hs.push(Headline::context(
            format!(
                "{} of {} rows fell short of full compliance{}: {} never retrieved the decision, {} retrieved it and did not use it",
                f.failures,
                f.n,
                in_group(&f.group),
                share(f.not_retrieved_share),
                share(f.retrieved_not_used_share)
            ),
            format!(
                "not retrieved: recall 0 ({}); retrieved, not used: recall above 0 ({}); {} of the failures partly honoured",
                f.not_retrieved, f.retrieved_not_used, f.partial
            ),
            ComplianceTable::Failures,
        ));
    }
    let focus = r.settings.focus.clone();
    let arms_of = crate::distinct::groups_first_seen(r.arms.iter(), |a| a.group.as_str());
    let arms_of: std::collections::HashMap<&str, Vec<&super::analyse::ArmRow>> = arms_of.into_iter().collect();
    let slope_of: std::collections::HashMap<(&str, &str), &super::analyse::SlopeRow> =
        r.slopes.iter().map(|s| ((s.group.as_str(), s.arm.as_str()), s)).rev().collect();
    let last_crossover: std::collections::HashMap<&str, &super::analyse::CrossoverRow> =
        r.crossover.iter().map(|c| (c.group.as_str(), c)).collect();
    for g in &r.groups {
        let arms: &[&super::analyse::ArmRow] = arms_of.get(g.as_str()).map(Vec::as_slice).unwrap_or_default();
        let lead = lead(arms.iter().copied(), focus.as_deref());
        let Some(a) = lead else { continue };
        let kappa = match a.kappa {
            Some(k) => format!(
                "; κ = compliance/recall {} (bootstrap), delta s.e. {:.3} ({:.3} without the covariance term)",
                estimate(k, a.kappa_boot_low, a.kappa_boot_high),
                a.kappa_se.unwrap_or(f64::NAN),
                a.kappa_se_independent.unwrap_or(f64::NAN)
            ),
            None => String::new(),
        };
        hs.push(Headline::finding(
            format!(
                "{}{}: compliance {}{}",
                a.arm,
                in_group(g),
                estimate(a.compliance, a.compliance_low, a.compliance_high),
                if focus.is_none() { " (highest)" } else { "" }
            ),
            format!("n = {}, {level}% {} interval{kappa}", a.n, a.compliance_interval),
            ComplianceTable::Arms,
        ));
        if let Some(s) = slope_of.get(&(g.as_str(), a.arm.as_str()))
            && let Some(b) = s.slope
        {
            let how = match (s.slope_low, s.slope_high) {
                (_, Some(h)) if h < 0.0 => "falls with depth",
                (Some(l), _) if l > 0.0 => "rises with depth",
                _ => "shows no clear trend with depth",
            };
            hs.push(Headline::finding(
                format!("{}{}: compliance {how}, {} per hop", a.arm, in_group(g), estimate(b, s.slope_low, s.slope_high)),
                format!(
                    "OLS slope over {} depths, {level}% bootstrap within depth strata; endpoint P(d max) − P(d min) = {}",
                    s.depths,
                    s.endpoint.map_or("-".into(), |e| format!("{e:+.3}"))
                ),
                ComplianceTable::Slopes,
            ));
        }
        if let Some(c) = last_crossover.get(g.as_str()) {
            let text = match c.d_star {
                Some(d) => format!("{} leads {} from depth {d}{}", c.focus, c.against, in_group(g)),
                None => {
                    format!("{} never clearly leads {}{}: no crossover depth in range", c.focus, c.against, in_group(g))
                }
            };
            hs.push(Headline::finding(
                text,
                format!("d* = the smallest depth whose {level}% interval of Δ(d) lies above 0"),
                ComplianceTable::Margins,
            ));
        }
    }
    let small: Vec<_> = r.power.iter().filter(|p| p.verdict == "claim_undetectable").collect();
    if let (Some(e), Some(p)) = (r.settings.claimed_effect, small.first()) {
        hs.push(Headline::alert(
            format!(
                "{} too small to detect the claimed effect {e}",
                count(small.len(), "comparison is", "comparisons are")
            ),
            format!(
                "e.g. {} vs {}{}: n = {}/{}, smallest detectable difference {} at power {}",
                p.arm,
                p.against,
                in_group(&p.group),
                p.n,
                p.n_against,
                p.mde.map_or("none in range".into(), |m| format!("{:.3}", m.abs())),
                r.settings.target_power
            ),
            ComplianceTable::Power,
        ));
    }
    let below = r.power.iter().filter(|p| p.verdict == "below_mde").count();
    if below > 0 {
        hs.push(Headline::context(
            format!("{} below the minimum detectable effect", count(below, "observed gap is", "observed gaps are")),
            format!("of {} comparisons at power {} (see the power table)", r.power.len(), r.settings.target_power),
            ComplianceTable::Power,
        ));
    }
    hs.extend(dominance(r));
    hs.extend(theory(r));
    hs
}

/// Per group, whether the theory's advantage g(d) at the stated s₀, ρ, q lies inside the
/// measured margin's interval at each depth (a finding where it does not somewhere, context
/// where it does everywhere); without a focus arm, the theory's curves only (context).
fn theory(r: &ComplianceReport) -> Vec<Headline> {
    let mut hs = Vec::new();
    let Some((s0, rho, q)) = r.settings.theory.parameters() else { return hs };
    let params = format!("s₀ = {s0}, ρ = {rho}, q = {q}");
    for g in &r.groups {
        let rows: Vec<&super::theory::TheoryRow> = r.theory.iter().filter(|t| t.group == *g).collect();
        if rows.is_empty() {
            continue;
        }
        let show = |t: &super::theory::TheoryRow| match (t.delta, t.low, t.high) {
            (Some(d), Some(l), Some(h)) => {
                format!("d = {}: g {:.3} vs Δ {d:.3} [{l:.3}, {h:.3}]", t.depth, t.advantage)
            }
            _ => format!("d = {}: g {:.3}", t.depth, t.advantage),
        };
        let measured: Vec<&super::theory::TheoryRow> = rows.iter().copied().filter(|t| t.inside.is_some()).collect();
        if measured.is_empty() {
            hs.push(Headline::context(
                format!("The theory's advantage g(d){}", in_group(g)),
                format!(
                    "{}; {params}; name a focus arm to set the measured margins beside it",
                    rows.iter().map(|t| show(t)).collect::<Vec<_>>().join("; ")
                ),
                ComplianceTable::Theory,
            ));
            continue;
        }
        let evidence = format!("{}; {params}", measured.iter().map(|t| show(t)).collect::<Vec<_>>().join("; "));
        let outside = measured.iter().filter(|t| t.inside == Some(false)).count();
        let focus = measured[0].focus.clone().unwrap_or_default();
        hs.push(if outside > 0 {
            Headline::finding(
                format!(
                    "The theory's advantage g(d) lies outside {focus}'s measured margin at {outside} of {} depths{}",
                    measured.len(),
                    in_group(g)
                ),
                evidence,
                ComplianceTable::Theory,
            )
        } else {
            Headline::context(
                format!(
                    "The theory's advantage g(d) lies inside {focus}'s measured margin at every depth{}",
                    in_group(g)
                ),
                evidence,
                ComplianceTable::Theory,
            )
        });
    }
    hs
}

/// Per group, whether the lead arm's compliance ECDF (the focus arm's, else the highest mean's)
/// lies right of every other arm's, as BriefBench reads its Fig. 2; a finding where it does not.
fn dominance(r: &ComplianceReport) -> Vec<Headline> {
    use super::dominance::{DominanceMeasure, Order};
    let mut hs = Vec::new();
    for g in &r.groups {
        let pairs: Vec<_> =
            r.dominance.iter().filter(|d| &d.group == g && d.measure == DominanceMeasure::Compliance).collect();
        let arms = r.arms.iter().filter(|a| &a.group == g);
        let Some(lead) = lead(arms, r.settings.focus.as_deref()).map(|a| a.arm.as_str()) else { continue };
        // (other arm, how the lead lies against it, the lead's one-sided D and p, the other's D)
        let mut right_of = Vec::new();
        let mut not = Vec::new();
        for d in pairs.iter().filter(|d| d.arm_a == lead || d.arm_b == lead) {
            let lead_is_a = d.arm_a == lead;
            let (other, lead_d, lead_p, other_d) = if lead_is_a {
                (&d.arm_b, d.d_a_greater, d.p_a_greater, d.d_b_greater)
            } else {
                (&d.arm_a, d.d_b_greater, d.p_b_greater, d.d_a_greater)
            };
            let lead_right = matches!((d.order, lead_is_a), (Order::A, true) | (Order::B, false));
            if lead_right {
                right_of.push(lead_p);
            } else {
                not.push(format!(
                    "{other} ({}: {lead} below by up to {lead_d:.3}, above by up to {other_d:.3})",
                    d.order
                ));
            }
        }
        if right_of.is_empty() && not.is_empty() {
            continue;
        }
        if not.is_empty() {
            let lo = right_of.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = right_of.iter().copied().fold(0.0, f64::max);
            hs.push(Headline::context(
                format!("{lead}'s compliance ECDF lies right of every other arm's{}: no crossing", in_group(g)),
                format!(
                    "one-sided two-sample KS ({lead} greater) against each of {}: p from {} to {}, not adjusted{}",
                    count(right_of.len(), "arm", "arms"),
                    crate::report::p_value(lo),
                    crate::report::p_value(hi),
                    if pairs.iter().any(|d| d.tied) { "; tied values make the p-values conservative" } else { "" }
                ),
                ComplianceTable::Dominance,
            ));
        } else {
            hs.push(Headline::finding(
                format!(
                    "{lead}'s compliance ECDF is not right-most everywhere{}: it crosses or lies left of {}",
                    in_group(g),
                    count(not.len(), "arm's", "arms'")
                ),
                crate::headline::some_of(&not, 4),
                ComplianceTable::Dominance,
            ));
        }
    }
    hs
}
