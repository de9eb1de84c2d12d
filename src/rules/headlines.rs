//! What a pre-registered-rules audit says, first: rules registered after the data they judge,
//! rules that could not be evaluated, each rule's outcome with its margin, and the counts.

use super::registry::{RuleVerdict, RulesReport};
use super::table::RulesTable;
use crate::headline::{Headline, count, finding_on, some_of};

/// The headlines of a rules audit (unranked: see [`crate::headline::rank`]).
pub fn headlines(r: &RulesReport) -> Vec<Headline> {
    let mut hs = Vec::new();
    for v in r.verdicts.iter().filter(|v| v.temporal.status == "registered_after_data") {
        hs.push(Headline::alert(
            format!("Rule {} was registered after the data it judges: it is not pre-registered", v.rule_id),
            v.temporal.detail.clone(),
            RulesTable::Verdicts,
        ));
    }
    let post_hoc: Vec<_> = r.exclusions.iter().filter(|e| e.status == "after_results").collect();
    if let Some(e) = post_hoc.first() {
        hs.push(Headline::alert(
            format!(
                "{} decided after the results {} affects existed",
                count(post_hoc.len(), "exclusion was", "exclusions were"),
                if post_hoc.len() == 1 { "it" } else { "they" }
            ),
            format!("e.g. `{}` ({}): {}; {}", e.item, e.reason, e.timeline(), e.location),
            RulesTable::Exclusions,
        ));
    }
    for e in r.exclusion_effects.iter().filter(|e| e.changes) {
        let post_hoc = r.exclusions.iter().any(|x| x.item == e.item && x.status == "after_results");
        let text = format!(
            "Excluding `{}` changes rule {}: `{}` with it, `{}` without",
            e.item, e.rule_id, e.outcome_with, e.outcome_without
        );
        let margin = |m: Option<f64>| m.map_or("no margin".to_string(), |m| format!("margin {m:+.4}"));
        let evidence = format!(
            "withdraws {}; with: {}; without: {}{}",
            e.withdraws.join(", "),
            margin(e.margin_with),
            e.error_without.clone().unwrap_or_else(|| margin(e.margin_without)),
            if post_hoc { "; the exclusion was decided after the results" } else { "" }
        );
        hs.push(if post_hoc {
            Headline::alert(text, evidence, RulesTable::ExclusionEffects)
        } else {
            Headline::finding(text, evidence, RulesTable::ExclusionEffects)
        });
    }
    let steady: Vec<String> =
        r.exclusion_effects.iter().filter(|e| !e.changes).map(|e| format!("`{}` on {}", e.item, e.rule_id)).collect();
    if !steady.is_empty() {
        hs.push(Headline::context(
            format!(
                "{} the same outcome with and without the exclusion's values",
                count(steady.len(), "rule keeps", "rules keep")
            ),
            some_of(&steady, 4),
            RulesTable::ExclusionEffects,
        ));
    }
    let undated: Vec<&str> = r
        .exclusions
        .iter()
        .filter(|e| e.status != "after_results" && e.status != "before_results")
        .map(|e| e.item.as_str())
        .collect();
    if !undated.is_empty() {
        hs.push(Headline::finding(
            format!("{} cannot be placed before or after the results", count(undated.len(), "exclusion", "exclusions")),
            format!("no decision time or no dated data: {}", some_of(&undated, 6)),
            RulesTable::Exclusions,
        ));
    }
    for v in r.verdicts.iter().filter(|v| v.error.is_some()) {
        hs.push(Headline::alert(
            format!("Rule {} could not be evaluated", v.rule_id),
            v.error.clone().unwrap_or_default(),
            RulesTable::Verdicts,
        ));
    }
    for v in r.verdicts.iter().filter(|v| v.error.is_none()) {
        hs.push(outcome(v));
    }
    let undated: Vec<&str> =
        r.verdicts.iter().filter(|v| v.temporal.status == "unknown").map(|v| v.rule_id.as_str()).collect();
    hs.extend(finding_on(
        &undated,
        6,
        |n| {
            format!(
                "{} no registration time: whether they preceded the data cannot be checked",
                count(n, "rule has", "rules have")
            )
        },
        RulesTable::Verdicts,
    ));
    hs.push(Headline::context(
        format!("{} evaluated", count(r.verdicts.len(), "rule", "rules")),
        format!(
            "{} fired, {} did not, {} could not be evaluated, {} registered after the data",
            r.fired, r.not_fired, r.errors, r.registered_after_data
        ),
        RulesTable::Verdicts,
    ));
    hs
}

fn outcome(v: &RuleVerdict) -> Headline {
    let margin = v.margin.map(|m| format!("margin {m:+.4}")).unwrap_or_else(|| "no margin".into());
    let inputs = v.inputs.iter().map(|i| i.name.as_str()).collect::<Vec<_>>();
    let evidence = format!(
        "{margin}; inputs: {}; {}",
        if inputs.is_empty() { "none".to_string() } else { some_of(&inputs, 4) },
        v.temporal.detail
    );
    // A rule that fires by a hair is worth a reader's look: the outcome rests on the margin.
    let thin = v.margin.is_some_and(|m| m.abs() < 1e-3);
    let text = format!("Rule {}: {}{}", v.rule_id, v.outcome, if thin { " — by a margin under 0.001" } else { "" });
    if thin {
        Headline::finding(text, evidence, RulesTable::Verdicts)
    } else {
        Headline::context(text, evidence, RulesTable::Verdicts)
    }
}
