//! What a reclaim analysis says, first: stored outcomes that strict re-scoring contradicts,
//! whether a lossy memory is worse than an empty one, contrasts between policies whose interval
//! excludes 0 (and those that could not be paired), and the cells read.

use super::analysis::{Contrast, ReclaimReport, WorseThanEmpty};
use super::table::ReclaimTable;
use crate::headline::{Headline, count, difference, finding_on, from_warnings};

/// Contrasts named one by one.
const NAMED: usize = 3;

/// The headlines of a reclaim report (unranked: see [`crate::headline::rank`]).
pub fn headlines(r: &ReclaimReport) -> Vec<Headline> {
    let mut hs = r.populations.headlines(ReclaimTable::Populations, ReclaimTable::CellColumns);
    boundary_headlines(r, &mut hs);
    let disagree_labels: usize = r.cells.iter().map(|c| c.label_disagrees).sum();
    if disagree_labels > 0 {
        let stored: usize = r.cells.iter().map(|c| c.stored_labels).sum();
        hs.push(Headline::alert(
            format!("{disagree_labels} of {stored} trials' stored labels disagree with the class recomputed from their answer"),
            "the stored `bucket` against recovered / inherited / novel / abstained recomputed from the reply, the truth and the stale value",
            ReclaimTable::FailureModes,
        ));
    }
    let unknown: usize = r.cells.iter().map(|c| c.emission_unknown).sum();
    if unknown > 0 {
        let emits: usize = r.cells.iter().map(|c| c.emit).sum();
        hs.push(Headline::finding(
            format!("{unknown} of {emits} confident-wrong emissions cannot be told inherited or novel: counted as unknown"),
            "no stale value is known for their problem (give probe keys with the stale value) and the row stores no label",
            ReclaimTable::FailureModes,
        ));
    }
    hs.extend(r.cells.iter().filter(|c| c.flagged_emit > 0).map(|c| {
        Headline::finding(
            format!(
                "`{}` flags uncertainty in prose in {} of {} trials yet emits a wrong value on the ANSWER line in {}",
                super::cells::cell_text(&c.key.policy, c.key.integrity, &c.design),
                c.flagged,
                c.flagged_known,
                c.flagged_emit
            ),
            format!(
                "{}: the hedge sits in the prose a parser ignores, the wrong value in the answer field (the file's `flagged`; {})",
                super::cells::panel_text(&c.key.model, &c.key.task, &c.key.arm),
                r.abstain_method
            ),
            ReclaimTable::Cells,
        )
    }));
    let rescored: usize = r.cells.iter().map(|c| c.rescored).sum();
    let disagree: usize = r.cells.iter().map(|c| c.rescore_disagrees).sum();
    if disagree > 0 {
        hs.push(Headline::alert(
            format!("{disagree} of {rescored} re-scored trials disagree with their stored `correct`"),
            "strict ANSWER-line re-scoring of the raw reply against the truth; the rates use the re-scored outcome",
            ReclaimTable::Cells,
        ));
    }
    let method = format!("{}; {}", r.interval_method, r.abstain_method);
    let worse: Vec<&WorseThanEmpty> =
        r.worse_than_empty.iter().filter(|w| w.difference.low.is_some_and(|l| l > 0.0)).collect();
    if !r.worse_than_empty.is_empty() {
        let reverses = r.worse_than_empty.iter().filter(|w| w.reverses).count();
        let worst = r
            .worse_than_empty
            .iter()
            .filter(|w| w.difference.delta.is_some())
            .max_by(|a, b| a.difference.delta.unwrap_or(0.0).total_cmp(&b.difference.delta.unwrap_or(0.0)));
        let text = format!(
            "A lossy memory emits confident wrong answers more often than an empty one in {} of {} cells (interval above 0); {} reverse",
            worse.len(),
            r.worse_than_empty.len(),
            reverses
        );
        let evidence = worst
            .map(|w| {
                format!(
                    "largest: {} {} vs {}: Δ emit {} ({}); {method}",
                    place(w.key.model.as_deref(), w.key.task.as_deref(), w.key.integrity, w.key.arm.as_deref()),
                    w.lossy_policy,
                    w.blank_policy,
                    difference(
                        w.difference.delta.unwrap_or(0.0),
                        w.difference.low,
                        w.difference.high,
                        compared(&w.difference.pairing, w.difference.pairs, w.n_lossy, w.n_blank)
                    ),
                    w.difference.pairing
                )
            })
            .unwrap_or_default();
        hs.push(if worse.is_empty() {
            Headline::context(text, evidence, ReclaimTable::WorseThanEmpty)
        } else {
            Headline::finding(text, evidence, ReclaimTable::WorseThanEmpty)
        });
    }
    let excluding: Vec<&Contrast> = r
        .contrasts
        .iter()
        .filter(|c| c.difference.low.is_some_and(|l| l > 0.0) || c.difference.high.is_some_and(|h| h < 0.0))
        .collect();
    for c in excluding.iter().take(NAMED) {
        let d = c.difference.delta.unwrap_or(0.0);
        let (better, worse) = if d > 0.0 { (&c.a, &c.b) } else { (&c.b, &c.a) };
        hs.push(Headline::finding(
            format!(
                "{better} recovers more often than {worse} ({})",
                place(c.key.model.as_deref(), c.key.task.as_deref(), c.key.integrity, c.key.arm.as_deref())
            ),
            format!(
                "RR {} − {}: {} ({}); {method}, no correction for the {} contrast(s)",
                c.a,
                c.b,
                difference(
                    d,
                    c.difference.low,
                    c.difference.high,
                    compared(&c.difference.pairing, c.difference.pairs, c.n_a, c.n_b)
                ),
                c.difference.pairing,
                r.contrasts.len()
            ),
            ReclaimTable::Contrasts,
        ));
    }
    if !r.contrasts.is_empty() {
        hs.push(Headline::context(
            format!("{} of {} policy contrasts have an interval that excludes 0", excluding.len(), r.contrasts.len()),
            format!("{method}; uncorrected for multiplicity"),
            ReclaimTable::Contrasts,
        ));
    }
    let unpaired: Vec<String> = r
        .contrasts
        .iter()
        .filter(|c| c.difference.pairing != "paired")
        .map(|c| {
            format!(
                "{} vs {} ({})",
                c.a,
                c.b,
                place(c.key.model.as_deref(), c.key.task.as_deref(), c.key.integrity, c.key.arm.as_deref())
            )
        })
        .collect();
    hs.extend(finding_on(
        &unpaired,
        3,
        |n| {
            format!(
                "{} could not be paired by (seed, problem): their intervals are unpaired",
                count(n, "contrast", "contrasts")
            )
        },
        ReclaimTable::Contrasts,
    ));
    let trials: usize = r.cells.iter().map(|c| c.n).sum();
    if !r.cells.is_empty() {
        hs.push(Headline::context(
            format!("{} trials in {} cells", trials, r.cells.len()),
            r.abstain_method.clone(),
            ReclaimTable::Cells,
        ));
    }
    hs.extend(from_warnings(r.warnings.iter(), ReclaimTable::Cells));
    hs
}

/// The n a contrast rests on: its pairs when paired, else the smaller side.
fn compared(pairing: &str, pairs: usize, n_a: usize, n_b: usize) -> usize {
    if pairing == "paired" { pairs } else { n_a.min(n_b) }
}

/// `model/task g=0.5 arm` with the parts that are known.
fn place(model: Option<&str>, task: Option<&str>, integrity: Option<f64>, arm: Option<&str>) -> String {
    let mut parts: Vec<String> = Vec::new();
    if let Some(m) = model {
        parts.push(m.to_string());
    }
    if let Some(t) = task {
        parts.push(t.to_string());
    }
    if let Some(g) = integrity {
        parts.push(format!("g = {g}"));
    }
    if let Some(a) = arm {
        parts.push(a.to_string());
    }
    if parts.is_empty() { "all trials".to_string() } else { parts.join(", ") }
}

/// Headlines of the boundary evidence: invented numbers, a no-error control with blast, where a
/// sweep crosses ½, and how the recompute certificate separates reclaim.
fn boundary_headlines(r: &ReclaimReport, hs: &mut Vec<Headline>) {
    let b = &r.boundaries;
    if let Some(worst) =
        b.invented.iter().filter(|i| i.with_invented > 0).max_by(|a, c| a.mean_invented.total_cmp(&c.mean_invented))
    {
        hs.push(Headline::alert(
            format!(
                "{} invents numbers: {} of {} memories hold a number that is in no source, {:.1} on average",
                worst.policy, worst.with_invented, worst.memories, worst.mean_invented
            ),
            format!(
                "numbers of memory_text not among src_nums (confab_audit's rule); e.g. {}",
                if worst.example.is_empty() { "-".to_string() } else { worst.example.clone() }
            ),
            ReclaimTable::Invented,
        ));
    }
    for c in b.cascade.iter().filter(|c| c.control_blast) {
        hs.push(Headline::alert(
            format!(
                "A no-error control has blast {:.2} ({} at H = {})",
                c.blast.unwrap_or(0.0),
                c.policy,
                c.hops.map_or("-".into(), |h| h.to_string())
            ),
            format!("{} chains with nothing planted still answer wrong at some hop: the blast radius is not all the planted error's", c.chains),
            ReclaimTable::Cascade,
        ));
    }
    for s in b.sweeps.iter().take(NAMED) {
        hs.push(Headline::finding(
            format!(
                "{} reclaims above ½ up to {} = {} ({})",
                s.key.policy,
                s.variable,
                s.crossover.map_or("none".into(), |x| format!("{x}")),
                if s.fixed.is_empty() { "all" } else { s.fixed.as_str() }
            ),
            format!("crossover = the largest {} whose reclaim rate exceeds 0.5; {}", s.variable, r.interval_method),
            ReclaimTable::Sweeps,
        ));
    }
    for c in b.certificate.iter().filter(|c| c.pass_n > 0 && c.flag_n > 0).take(NAMED) {
        hs.push(Headline::finding(
            format!(
                "{}: notes that keep every item reclaim {:.2}, truncated notes {:.2}",
                c.key.policy,
                c.pass_rr.unwrap_or(f64::NAN),
                c.flag_rr.unwrap_or(f64::NAN)
            ),
            format!("recompute certificate ({}): pass n = {}, flag n = {}", c.basis, c.pass_n, c.flag_n),
            ReclaimTable::Certificate,
        ));
    }
}
