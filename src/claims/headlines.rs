//! What a claims check says, first: each claim whose reported number the data does not give
//! (reported vs recomputed), claims that could not be computed, the linter's findings, and how
//! many claims hold.

use super::check::{ClaimResult, Verdict};
use super::report::ClaimsReport;
use super::table::ClaimsTable;
use crate::headline::{Headline, count, from_warnings, some_of};

/// Claims named one by one before the rest are counted.
const NAMED: usize = 4;

/// The headlines of a claims check (unranked: see [`crate::headline::rank`]).
pub fn headlines(r: &ClaimsReport) -> Vec<Headline> {
    let mut hs = Vec::new();
    let differs: Vec<&ClaimResult> = r.claims.iter().filter(|c| c.verdict == Verdict::Differs).collect();
    for c in differs.iter().take(NAMED) {
        hs.push(Headline::alert(
            format!(
                "Claim {} differs from the data: {} reported, {} recomputed",
                c.claim_id,
                value(c.reported_text.as_deref(), c.reported),
                value(c.recomputed_text.as_deref(), c.recomputed)
            ),
            evidence(c),
            ClaimsTable::Claims,
        ));
    }
    if differs.len() > NAMED {
        let ids: Vec<&str> = differs[NAMED..].iter().map(|c| c.claim_id.as_str()).collect();
        hs.push(Headline::alert(
            format!("{} more claim(s) differ from the data", differs.len() - NAMED),
            some_of(&ids, 8),
            ClaimsTable::Claims,
        ));
    }
    let cannot: Vec<&ClaimResult> = r.claims.iter().filter(|c| c.verdict == Verdict::CannotCompute).collect();
    if !cannot.is_empty() {
        let ids: Vec<String> = cannot.iter().map(|c| format!("{} ({})", c.claim_id, c.reason)).collect();
        hs.push(Headline::finding(
            format!("{} could not be checked against the data", count(cannot.len(), "claim", "claims")),
            some_of(&ids, 3),
            ClaimsTable::Claims,
        ));
    }
    if !r.findings.is_empty() {
        let msgs: Vec<&str> = r.findings.iter().map(|f| f.message.as_str()).collect();
        hs.push(Headline::finding(
            format!(
                "The linter found {} in the paper's tables",
                count(r.findings.len(), "inconsistency", "inconsistencies")
            ),
            some_of(&msgs, 2),
            ClaimsTable::Findings,
        ));
    }
    let n = &r.counts;
    let total = n.matches + n.within_rounding + n.differs + n.cannot_compute;
    if total > 0 {
        hs.push(Headline::context(
            format!("{} of {} claims hold against the data", n.matches + n.within_rounding, total),
            format!(
                "{} match, {} within rounding, {} differ, {} cannot be computed",
                n.matches, n.within_rounding, n.differs, n.cannot_compute
            ),
            ClaimsTable::Claims,
        ));
    }
    hs.extend(from_warnings(r.warnings.iter(), ClaimsTable::Claims));
    // Cells on different queries after the claims: the claims that differ come first.
    hs.extend(r.populations.headlines(ClaimsTable::Populations, ClaimsTable::Populations));
    hs
}

fn value(text: Option<&str>, v: Option<f64>) -> String {
    match (text, v) {
        (Some(t), _) if !t.is_empty() => t.to_string(),
        (_, Some(v)) => format!("{v:.3}"),
        _ => "nothing".to_string(),
    }
}

fn evidence(c: &ClaimResult) -> String {
    let mut parts = vec![format!("{} {}", c.metric, c.arms.join(" vs "))];
    if let Some(k) = c.k {
        parts.push(format!("k = {k}"));
    }
    if let Some(d) = &c.dataset {
        parts.push(d.clone());
    }
    if let Some(d) = c.difference {
        parts.push(format!("difference {d:+.3}"));
    }
    if let Some(n) = c.n {
        parts.push(format!("n = {n}"));
    }
    parts.push(format!("{} line {}", c.file, c.line));
    if !c.reason.is_empty() {
        parts.push(c.reason.clone());
    }
    parts.join("; ")
}
