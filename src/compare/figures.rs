//! The comparison's plots from a comparison — the page draws them on canvas (with its own
//! order, grouping and short labels), the report to attach as SVG ([`figures`]): the forest plot
//! of the contrasts and the critical-difference diagram.

use super::engine::{CiMethod, Comparison, FriedmanRow, PairRow};
use crate::attach::{Figure, figure};
use crate::plots::{CdArm, CdPlot, ForestPlot, ForestRow};

/// The width of the comparison's plots, in pixels.
pub const PLOT_WIDTH: u32 = 1000;

/// One contrast as a forest row, its arms named by `name` (`group`: a heading above it).
pub fn forest_row(p: &PairRow, name: impl Fn(&str) -> String, group: Option<String>) -> ForestRow {
    ForestRow {
        label: format!("{} \u{2212} {}", name(&p.a), name(&p.b)),
        estimate: p.diff,
        low: p.ci_low,
        high: p.ci_high,
        significant: p.significant,
        group,
    }
}

/// The forest plot of `rows` (the contrasts of `c`, in some order); `value` names what the
/// arms' values are.
pub fn forest_plot(c: &Comparison, value: &str, rows: Vec<ForestRow>, selected: Option<usize>) -> ForestPlot {
    let conf = (1.0 - c.settings.alpha) * 100.0;
    let method = match c.settings.ci {
        CiMethod::Bca => "BCa",
        CiMethod::Percentile => "percentile",
    };
    ForestPlot {
        title: format!("Contrasts a \u{2212} b, {conf}% {method} intervals (red *: significant after Holm)"),
        x_label: format!("difference a \u{2212} b ({value})"),
        rows,
        width: PLOT_WIDTH,
        selected,
    }
}

/// The critical-difference diagram of the Friedman test, arms named by `name`.
pub fn cd_plot(f: &FriedmanRow, name: impl Fn(&str) -> String, selected: Option<usize>) -> CdPlot {
    CdPlot {
        title: format!("Critical difference diagram (Nemenyi, \u{03b1} = {}; N = {} items)", f.alpha, f.n_blocks),
        arms: f.mean_ranks.iter().map(|r| CdArm { name: name(&r.arm), mean_rank: r.mean_rank }).collect(),
        cd: Some(f.cd),
        cliques: f.cliques.clone(),
        width: PLOT_WIDTH,
        selected,
    }
}

/// The report's plots: the forest plot in the table's order and, with three or more arms, the
/// critical-difference diagram; full arm names.
pub fn figures(c: &Comparison, value: &str) -> Vec<Figure> {
    let mut out = Vec::new();
    if !c.pairs.is_empty() {
        let rows = c.pairs.iter().map(|p| forest_row(p, str::to_string, None)).collect();
        out.push(figure(&forest_plot(c, value, rows, None)));
    }
    if let Some(f) = &c.friedman {
        out.push(figure(&cd_plot(f, str::to_string, None)));
    }
    out
}
