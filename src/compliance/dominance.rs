//! Stochastic dominance between arms (BriefBench Figs. 2, 4 and 7, §14): the ECDF of each arm's
//! per-task compliance, recall and return on tokens, and the two-sample Kolmogorov–Smirnov test
//! of every pair of arms ([`crate::stats::ks`]).
//!
//! ```text
//! measures      compliance (every row), recall (rows with one), rot = compliance·per / tokens
//!               (rows with tokens; `per` the setting per_tokens)
//! per group, measure and pair (a, b) of arms (first-seen order, a before b):
//!   d             sup |F_a − F_b|, two-sided p
//!   d_a_greater   sup (F_b − F_a): how far a's ECDF lies below (right of) b's; one-sided p
//!   d_b_greater   sup (F_a − F_b); one-sided p
//!   order         a    a's ECDF never above b's and below somewhere (a dominates: "no crossing")
//!                 b    the reverse
//!                 crossing   each lies below the other somewhere
//!                 equal      the same ECDF
//! ecdf          per group, measure and arm: each distinct value and F at it
//! ```
//!
//! The paper backs its "no crossing" reading of Fig. 2 with a one-sided test on cluster-resampled
//! ECDFs; here the rows are the tasks, the test is the plain two-sample one, and the p-values are
//! not adjusted for the number of pairs. Exact p-values stop at [`EXACT_BUDGET`] lattice steps
//! per analysis (then asymptotic; the `method` column says which).

use serde::{Deserialize, Serialize};

use super::read::Row;
use crate::stats::ks::{EXACT_MAX_CELLS, KsMethod, ks_two_sample_sorted};

/// The most pairs of arms compared per group and measure when no focus arm is named (every
/// pair); past it, none are and a note says how to name one.
pub const MAX_DOMINANCE_PAIRS: usize = 20_000;

/// The most values the pairs of one group and measure read (both arms' of each pair); past
/// it, none are compared and a note says so.
pub const MAX_DOMINANCE_WORK: usize = 50_000_000;

/// The most lattice steps of exact p-values in one analysis (each pair costs up to 3·m·n);
/// pairs after it get asymptotic ones.
pub const EXACT_BUDGET: u64 = 300_000_000;

crate::choice! {
    /// A per-task measure whose distributions are compared.
    pub enum DominanceMeasure {
        Compliance,
        Recall,
        /// Return on tokens, compliance · per_tokens / tokens.
        Rot,
    }
}

crate::choice! {
    /// How two arms' ECDFs lie.
    pub enum Order {
        /// a's ECDF is never above b's, and below it somewhere: a dominates.
        A,
        /// b's ECDF is never above a's, and below it somewhere.
        B,
        /// Each lies below the other somewhere.
        Crossing,
        /// The same ECDF.
        Equal,
    }
}

/// One pair of arms on one measure of one group.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DominanceRow {
    pub group: String,
    pub measure: DominanceMeasure,
    pub arm_a: String,
    pub arm_b: String,
    pub n_a: usize,
    pub n_b: usize,
    pub mean_a: f64,
    pub mean_b: f64,
    pub d: f64,
    pub p: f64,
    pub d_a_greater: f64,
    pub p_a_greater: f64,
    pub d_b_greater: f64,
    pub p_b_greater: f64,
    pub order: Order,
    pub method: KsMethod,
    /// A value repeats: the p-values (continuous null) are conservative.
    pub tied: bool,
}

/// One step of one arm's ECDF.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EcdfRow {
    pub group: String,
    pub measure: DominanceMeasure,
    pub arm: String,
    pub value: f64,
    /// The arm's values at or below `value`, and their share.
    pub at_or_below: usize,
    pub cdf: f64,
    pub n: usize,
}

/// A row's value of `measure` (`None` when the row has none).
fn value(r: &Row, measure: DominanceMeasure, per_tokens: f64) -> Option<f64> {
    match measure {
        DominanceMeasure::Compliance => Some(r.compliance),
        DominanceMeasure::Recall => r.recall,
        DominanceMeasure::Rot => r.tokens.map(|t| r.compliance * per_tokens / t),
    }
}

/// The steps of the ECDF of `sorted` (ascending): each distinct value with the count at or
/// below it.
pub fn steps(sorted: &[f64]) -> Vec<(f64, usize)> {
    let mut out: Vec<(f64, usize)> = Vec::new();
    for (i, &v) in sorted.iter().enumerate() {
        match out.last_mut() {
            Some(last) if last.0 == v => last.1 = i + 1,
            _ => out.push((v, i + 1)),
        }
    }
    out
}

/// The pairs and ECDF steps of every group and measure, in the order the groups and arms are
/// first seen: every pair of arms, or with a `focus` arm that arm against each other (it
/// first). A measure no row of a group has is left out of that group; an arm without a value
/// of it is not paired on it. Pairs past [`MAX_DOMINANCE_PAIRS`] or [`MAX_DOMINANCE_WORK`] are
/// not compared; `notes` says so.
pub fn dominance_tables(
    rows: &[Row],
    per_tokens: f64,
    focus: Option<&str>,
    notes: &mut Vec<String>,
) -> (Vec<DominanceRow>, Vec<EcdfRow>) {
    let mut pairs = Vec::new();
    let mut ecdf = Vec::new();
    let mut budget = EXACT_BUDGET;
    for (group, in_group) in crate::distinct::groups_first_seen(rows.iter(), |r| r.group.clone()) {
        for &measure in DominanceMeasure::ALL {
            // Each arm's values of the measure, sorted, with their mean.
            let arms: Vec<(String, Vec<f64>, f64)> =
                crate::distinct::groups_first_seen(in_group.iter().copied(), |r| r.arm.clone())
                    .into_iter()
                    .filter_map(|(arm, set)| {
                        let mut v: Vec<f64> = set.iter().filter_map(|r| value(r, measure, per_tokens)).collect();
                        v.retain(|x| x.is_finite());
                        v.sort_by(f64::total_cmp);
                        let mean = v.iter().sum::<f64>() / v.len() as f64;
                        (!v.is_empty()).then_some((arm, v, mean))
                    })
                    .collect();
            for (arm, v, _) in &arms {
                let n = v.len();
                ecdf.extend(steps(v).into_iter().map(|(value, at_or_below)| EcdfRow {
                    group: group.clone(),
                    measure,
                    arm: arm.clone(),
                    value,
                    at_or_below,
                    cdf: at_or_below as f64 / n as f64,
                    n,
                }));
            }
            let not_compared = |why: String| {
                format!(
                    "{}{why}: their {measure} ECDFs are not compared; name the arm compared with the others ({})",
                    if group.is_empty() { String::new() } else { format!("group `{group}`: ") },
                    crate::fields::mention("focus")
                )
            };
            let focus = focus.and_then(|f| arms.iter().position(|(a, _, _)| a == f));
            let Some(compared) = super::analyse::arm_pairs(arms.len(), focus, MAX_DOMINANCE_PAIRS) else {
                notes.push(not_compared(format!("{} arms make more than {MAX_DOMINANCE_PAIRS} pairs", arms.len())));
                continue;
            };
            let work: usize = compared.iter().map(|&(a, b)| arms[a].1.len() + arms[b].1.len()).sum();
            if work > MAX_DOMINANCE_WORK {
                notes.push(not_compared(format!(
                    "the pairs of arms read {work} {measure} values, more than {MAX_DOMINANCE_WORK}"
                )));
                continue;
            }
            for (i, j) in compared {
                let ((arm_a, a, mean_a), (arm_b, b, mean_b)) = (&arms[i], &arms[j]);
                let cells = (a.len() as u64).saturating_mul(b.len() as u64);
                let exact = cells <= EXACT_MAX_CELLS && 3 * cells <= budget;
                if exact {
                    budget -= 3 * cells;
                }
                let Some(t) = ks_two_sample_sorted(a, b, exact) else { continue };
                let order = match (t.d_x_greater > 0.0, t.d_y_greater > 0.0) {
                    (true, false) => Order::A,
                    (false, true) => Order::B,
                    (true, true) => Order::Crossing,
                    (false, false) => Order::Equal,
                };
                pairs.push(DominanceRow {
                    group: group.clone(),
                    measure,
                    arm_a: arm_a.clone(),
                    arm_b: arm_b.clone(),
                    n_a: t.m,
                    n_b: t.n,
                    mean_a: *mean_a,
                    mean_b: *mean_b,
                    d: t.d,
                    p: t.p,
                    d_a_greater: t.d_x_greater,
                    p_a_greater: t.p_x_greater,
                    d_b_greater: t.d_y_greater,
                    p_b_greater: t.p_y_greater,
                    order,
                    method: t.method,
                    tied: t.tied,
                });
            }
        }
    }
    (pairs, ecdf)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(group: &str, arm: &str, compliance: f64, recall: Option<f64>, tokens: Option<f64>) -> Row {
        Row { group: group.into(), item: None, arm: arm.into(), compliance, recall, tokens, depth: None }
    }

    #[test]
    fn pairs_orders_and_steps() {
        let mut rows = Vec::new();
        for c in [1.0, 1.0, 2.0 / 3.0, 1.0] {
            rows.push(row("g", "typed", c, Some(1.0), Some(1000.0)));
        }
        for c in [0.0, 1.0, 1.0 / 3.0, 2.0 / 3.0] {
            rows.push(row("g", "bm25", c, None, Some(500.0)));
        }
        for c in [1.0, 0.0, 1.0, 1.0] {
            rows.push(row("g", "dense", c, Some(0.5), None));
        }
        let (pairs, ecdf) = dominance_tables(&rows, 1000.0, None, &mut Vec::new());
        let find = |m: DominanceMeasure, a: &str, b: &str| {
            pairs.iter().find(|p| p.measure == m && p.arm_a == a && p.arm_b == b).unwrap()
        };
        // typed's compliance ECDF is never above bm25's: typed dominates.
        let p = find(DominanceMeasure::Compliance, "typed", "bm25");
        assert_eq!((p.order, p.d_b_greater), (Order::A, 0.0));
        assert!((p.d_a_greater - 0.5).abs() < 1e-15, "{}", p.d_a_greater);
        // typed {2/3, 1, 1, 1} vs dense {0, 1, 1, 1}: dense is above at 0, typed at 2/3 never above.
        assert_eq!(find(DominanceMeasure::Compliance, "typed", "dense").order, Order::A);
        // Recall: bm25 has none, so only typed vs dense.
        let recall: Vec<_> = pairs.iter().filter(|p| p.measure == DominanceMeasure::Recall).collect();
        assert_eq!(recall.len(), 1);
        assert_eq!((recall[0].arm_a.as_str(), recall[0].arm_b.as_str(), recall[0].order), ("typed", "dense", Order::A));
        // RoT: typed 1000 tokens, bm25 500: bm25's RoT is twice its compliance.
        let rot = find(DominanceMeasure::Rot, "typed", "bm25");
        assert!((rot.mean_b - 2.0 * (0.0 + 1.0 + 1.0 / 3.0 + 2.0 / 3.0) / 4.0).abs() < 1e-12);
        assert_eq!(rot.order, Order::Crossing);
        // Steps of typed's compliance: 2/3 (1 of 4), 1 (4 of 4).
        let typed: Vec<(f64, usize)> = ecdf
            .iter()
            .filter(|e| e.measure == DominanceMeasure::Compliance && e.arm == "typed")
            .map(|e| (e.value, e.at_or_below))
            .collect();
        assert_eq!(typed, [(2.0 / 3.0, 1), (1.0, 4)]);
    }

    /// The table's p-values are SciPy's on the same samples (the KS reference's compliance-like
    /// case, split into two arms).
    #[test]
    fn a_pair_is_the_two_sample_test_of_its_arms() {
        let cases: serde_json::Value =
            serde_json::from_str(include_str!("../../tests/reference/stats/ks.json")).unwrap();
        let case =
            cases["tests"].as_array().unwrap().iter().find(|c| c["name"] == "compliance thirds, 40 vs 40").unwrap();
        let v = |k: &str| -> Vec<f64> { case[k].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect() };
        let mut rows: Vec<Row> = v("x").into_iter().map(|c| row("", "x", c, None, None)).collect();
        rows.extend(v("y").into_iter().map(|c| row("", "y", c, None, None)));
        let (pairs, _) = dominance_tables(&rows, 1000.0, None, &mut Vec::new());
        let p = &pairs[0];
        assert_eq!((p.measure, p.arm_a.as_str(), p.method), (DominanceMeasure::Compliance, "x", KsMethod::Exact));
        let close = |a: f64, k: &str| (a - case[k].as_f64().unwrap()).abs() < 1e-12;
        assert!(close(p.p, "p") && close(p.p_a_greater, "p_less") && close(p.p_b_greater, "p_greater"), "{p:?}");
        assert!(close(p.d_a_greater, "d_less") && close(p.d_b_greater, "d_greater"));
        assert!(p.tied);
    }

    /// Too many arms: no pair is compared unless a focus arm is named, and a note says so.
    #[test]
    fn every_pair_is_bounded_and_a_focus_arm_lifts_the_bound() {
        let rows: Vec<Row> = (0..201).map(|i| row("", &format!("arm{i}"), (i % 3) as f64 / 2.0, None, None)).collect();
        let mut notes = Vec::new();
        let (pairs, ecdf) = dominance_tables(&rows, 1000.0, None, &mut notes);
        assert!(pairs.is_empty());
        assert_eq!(ecdf.len(), 201, "the ECDF steps are still given");
        assert!(notes.len() == 1 && notes[0].contains("201 arms make more than 20000 pairs"), "{notes:?}");
        let mut notes = Vec::new();
        let (pairs, _) = dominance_tables(&rows, 1000.0, Some("arm7"), &mut notes);
        assert_eq!(pairs.len(), 200);
        assert!(pairs.iter().all(|p| p.arm_a == "arm7") && notes.is_empty());
    }
}
