//! The tables and text of a reclaim report (`memaudit reclaim --format csv --table NAME`,
//! `--format table`): the same [`Table`]s feed the CLI and the viewer's exports.

use super::analysis::{Cell, Contrast, ReclaimReport, WorseThanEmpty};
use crate::report::{Column, Table, num, opt};

crate::choice! {
    /// The tables of a reclaim report (`--table NAME`).
    pub enum ReclaimTable {
        Cells = "cells",
        WorseThanEmpty = "worse_than_empty",
        Contrasts = "contrasts",
    }
}

const CELLS: &[Column<Cell>] = &crate::columns![Cell;
    "model" => |c| opt(&c.model),
    "task" => |c| opt(&c.task),
    "policy" => |c| c.policy.clone(),
    "integrity" => |c| opt(&c.integrity),
    "arm" => |c| opt(&c.arm),
    "n" => |c| c.n.to_string(),
    "problems" => |c| c.problems.to_string(),
    "recovered" => |c| c.recovered.to_string(),
    "rr" => |c| num(c.rr),
    "rr_low" => |c| num(c.rr_low),
    "rr_high" => |c| num(c.rr_high),
    "rule_of_three_low" => |c| num(c.rule_of_three_low),
    "rule_of_three_high" => |c| num(c.rule_of_three_high),
    "answered_known" => |c| c.answered_known.to_string(),
    "abstain" => |c| c.abstain.to_string(),
    "abstain_rate" => |c| num(c.abstain_rate),
    "emit" => |c| c.emit.to_string(),
    "emit_rate" => |c| num(c.emit_rate),
    "attractor" => |c| c.attractor_per_n.count.to_string(),
    "attractor_per_n" => |c| num(c.attractor_per_n.rate),
    "attractor_per_emission" => |c| num(c.attractor_per_emission.rate),
    "stale_known" => |c| c.stale_known.to_string(),
    "rescored" => |c| c.rescored.to_string(),
    "rescore_disagrees" => |c| c.rescore_disagrees.to_string(),
    "abstain_rule" => |c| c.abstain_rule.clone(),
    "hedge_abstain" => |c| c.hedge_abstain.to_string(),
    "abstain_fallback" => |c| c.abstain_fallback.to_string(),
    "design" => |c| design_text(c),
];

/// A cell's sweep design values, `n=4 budget=300` (empty without any).
pub fn design_text(c: &Cell) -> String {
    c.design.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" ")
}

const WORSE_THAN_EMPTY: &[Column<WorseThanEmpty>] = &crate::columns![WorseThanEmpty;
    "model" => |w| opt(&w.model),
    "task" => |w| opt(&w.task),
    "integrity" => |w| opt(&w.integrity),
    "arm" => |w| opt(&w.arm),
    "lossy_policy" => |w| w.lossy_policy.clone(),
    "blank_policy" => |w| w.blank_policy.clone(),
    "n_lossy" => |w| w.n_lossy.to_string(),
    "n_blank" => |w| w.n_blank.to_string(),
    "emit_lossy" => |w| num(w.emit_lossy),
    "emit_blank" => |w| num(w.emit_blank),
    "delta" => |w| num(w.delta),
    "low" => |w| num(w.low),
    "high" => |w| num(w.high),
    "pairing" => |w| w.pairing.clone(),
    "pairs" => |w| w.pairs.to_string(),
    "reverses" => |w| w.reverses.to_string(),
    "abstain_rule" => |w| w.abstain_rule.clone(),
];

const CONTRASTS: &[Column<Contrast>] = &crate::columns![Contrast;
    "model" => |c| opt(&c.model),
    "task" => |c| opt(&c.task),
    "integrity" => |c| opt(&c.integrity),
    "arm" => |c| opt(&c.arm),
    "a" => |c| c.a.clone(),
    "b" => |c| c.b.clone(),
    "n_a" => |c| c.n_a.to_string(),
    "n_b" => |c| c.n_b.to_string(),
    "rr_a" => |c| num(c.rr_a),
    "rr_b" => |c| num(c.rr_b),
    "delta" => |c| num(c.delta),
    "low" => |c| num(c.low),
    "high" => |c| num(c.high),
    "pairing" => |c| c.pairing.clone(),
    "pairs" => |c| c.pairs.to_string(),
];

/// One table of a reclaim report.
pub fn reclaim_table(r: &ReclaimReport, which: ReclaimTable) -> Table {
    match which {
        ReclaimTable::Cells => Table::of(which.name(), CELLS, &r.cells),
        ReclaimTable::WorseThanEmpty => Table::of(which.name(), WORSE_THAN_EMPTY, &r.worse_than_empty),
        ReclaimTable::Contrasts => Table::of(which.name(), CONTRASTS, &r.contrasts),
    }
}

fn dash(v: Option<f64>) -> String {
    v.map(|x| format!("{x:.2}")).unwrap_or_else(|| "—".into())
}

/// The cells as the text report prints them (the paper's layout).
fn text_cell_columns() -> [Column<Cell>; 12] {
    crate::columns![Cell;
    "model" => |c| opt(&c.model),
    "policy" => |c| c.policy.clone(),
    "design" => |c| if c.design.is_empty() { "—".into() } else { design_text(c) },
    "g" => |c| opt(&c.integrity),
    "arm" => |c| opt(&c.arm),
    "n" => |c| c.n.to_string(),
    "RR [95% CI]" => |c| paper_cell(c.rr, c.rr_low, c.rr_high),
    "abstain" => |c| dash(c.abstain_rate),
    "emit" => |c| dash(c.emit_rate),
    "attr/n" => |c| dash(c.attractor_per_n.rate),
    "attr/emit" => |c| dash(c.attractor_per_emission.rate),
    "rescored" => |c| if c.rescored == 0 { "—".into() } else { format!("{} ({} differ)", c.rescored, c.rescore_disagrees) },
    ]
}

/// reclaim-eval's display of a CI bound (`_b`): `1` if ≥ 0.9995, `0` if ≤ 0.0005, otherwise
/// two decimals without the leading zero (`.52`). Rust's `{:.2}` rounds like Python's `:.2f`.
pub fn paper_bound(x: f64) -> String {
    if x >= 0.9995 {
        "1".into()
    } else if x <= 0.0005 {
        "0".into()
    } else {
        let s = format!("{x:.2}");
        match s.strip_prefix("0.") {
            Some(rest) => format!(".{rest}"),
            None => match s.strip_prefix("-0.") {
                Some(rest) => format!("-.{rest}"),
                None => s,
            },
        }
    }
}

/// A rate with its interval as the paper prints it: `0.61 [.52,.71]`.
pub fn paper_cell(rate: Option<f64>, low: Option<f64>, high: Option<f64>) -> String {
    match (rate, low, high) {
        (Some(m), Some(l), Some(h)) => format!("{m:.2} [{},{}]", paper_bound(l), paper_bound(h)),
        (Some(m), _, _) => format!("{m:.2}"),
        _ => "—".into(),
    }
}

/// The reclaim report as text.
pub fn render_text(r: &ReclaimReport) -> String {
    use crate::probe::summary::render_table;
    let cells = Table::of("cells", &text_cell_columns(), &r.cells);
    let mut out = render_table(&cells);
    out.push_str(&format!("intervals: {}\n", r.interval_method));
    out.push_str(&format!("abstention: {}\n", r.abstain_method));
    if !r.worse_than_empty.is_empty() {
        out.push_str("\nworse than empty: Δ = emit(lossy) − emit(blank)\n");
        for w in &r.worse_than_empty {
            out.push_str(&format!(
                "  {} g={} {}: {} − {} = {:+.2} [{}, {}] ({}, n={}/{}){}\n",
                opt(&w.model),
                opt(&w.integrity),
                opt(&w.arm),
                dash(w.emit_lossy),
                dash(w.emit_blank),
                w.delta.unwrap_or(f64::NAN),
                dash(w.low),
                dash(w.high),
                w.pairing,
                w.n_lossy,
                w.n_blank,
                if w.reverses { "  REVERSES" } else { "" }
            ));
        }
    }
    if !r.contrasts.is_empty() {
        out.push_str("\ncontrasts: RR(a) − RR(b)\n");
        for c in &r.contrasts {
            out.push_str(&format!(
                "  {} g={} {}: {} − {} = {:+.2} [{:+.2}, {:+.2}] ({}, n={}/{})\n",
                opt(&c.model),
                opt(&c.integrity),
                opt(&c.arm),
                c.a,
                c.b,
                c.delta.unwrap_or(f64::NAN),
                c.low.unwrap_or(f64::NAN),
                c.high.unwrap_or(f64::NAN),
                c.pairing,
                c.n_a,
                c.n_b
            ));
        }
    }
    for w in r.warnings.iter() {
        out.push_str(&format!("note: {} ({}): {}\n", w.message, w.count, w.examples.join("; ")));
    }
    out
}
