//! The comparison's plots from a comparison — the page draws them on canvas (with its own
//! order, grouping and short labels), the report to attach as SVG ([`figures`]): the forest plot
//! of the contrasts, the critical-difference diagram and the win-rate matrix.

use super::engine::{CiMethod, Comparison, FriedmanRow, PairRow};
use crate::attach::{Figure, figure};
use crate::plots::{CdArm, CdPlot, ForestPlot, ForestRow, MatrixPlot};

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

/// The matrix of the arms' win rates (row against column, ties half), for 2 to
/// [`MAX_ARMS`](crate::plots::heatmap::MAX_ARMS) arms.
pub fn win_rate_plot(c: &Comparison, name: impl Fn(&str) -> String) -> Option<MatrixPlot> {
    let k = c.arms.len();
    if !(2..=crate::plots::heatmap::MAX_ARMS).contains(&k) {
        return None;
    }
    let index = |a: &str| c.arms.iter().position(|r| r.arm == a);
    let mut cells = vec![vec![None; k]; k];
    for p in &c.pairs {
        if let (Some(i), Some(j), Some(w)) = (index(&p.a), index(&p.b), p.win_rate) {
            cells[i][j] = Some(w);
            cells[j][i] = Some(1.0 - w);
        }
    }
    let better = if c.settings.higher_is_better { "higher" } else { "lower" };
    Some(MatrixPlot {
        title: format!("Win rates: the row arm against the column arm on {} items", c.n_items),
        labels: c.arms.iter().map(|a| name(&a.arm)).collect(),
        cells,
        legend: format!(
            "share of items on which the row arm scores {better} (ties half); blue: better on most, red: worse"
        ),
        width: PLOT_WIDTH,
    })
}

/// The report's plots: the forest plot in the table's order, with three or more arms the
/// critical-difference diagram, and the win-rate matrix; full arm names.
pub fn figures(c: &Comparison, value: &str) -> Vec<Figure> {
    let mut out = Vec::new();
    if !c.pairs.is_empty() {
        let rows = c.pairs.iter().map(|p| forest_row(p, str::to_string, None)).collect();
        out.push(figure(&forest_plot(c, value, rows, None)));
    }
    if let Some(f) = &c.friedman {
        out.push(figure(&cd_plot(f, str::to_string, None)));
    }
    if let Some(m) = win_rate_plot(c, str::to_string) {
        out.push(figure(&m));
    }
    out
}
