//! A square matrix of shares between labelled arms (a tournament's win rates): cell (i, j) is
//! the share W_ij of the row arm against the column arm, written in the cell and coloured by
//! W_ij − W_ji = 2·W_ij − 1 on a diverging scale from −0.6 to 0.6 — blue where the row's arm
//! does better, red where it does worse, white at an even split (BriefBench's win-rate heatmap,
//! Fig. 51, drawn as "row − col" on RdBu over [−0.6, 0.6]). The diagonal and cells without a
//! value are grey. Rows are named in full (cut at 32 characters), columns by the rows' numbers.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::{Plot, PlotError, ellipsize, err, text, text_width};

/// The row's arm does better.
pub const BETTER: RGBColor = RGBColor(33, 102, 172);
/// The row's arm does worse.
pub const WORSE: RGBColor = RGBColor(178, 24, 43);
const BLANK: RGBColor = RGBColor(235, 235, 235);

/// |row − col| at which the colour is full.
const SATURATION: f64 = 0.6;

/// Arms drawn at most (a larger matrix is left to the table).
pub const MAX_ARMS: usize = 40;

/// The matrix, row-major: `cells[i][j]` is row i's share against column j.
#[derive(Debug, Clone, PartialEq)]
pub struct MatrixPlot {
    pub title: String,
    pub labels: Vec<String>,
    pub cells: Vec<Vec<Option<f64>>>,
    /// What a cell holds, under the matrix.
    pub legend: String,
    pub width: u32,
}

/// Where the parts go, in pixels.
struct Layout {
    left: i32,
    top: i32,
    cell: i32,
}

impl MatrixPlot {
    fn layout(&self) -> Layout {
        let k = self.labels.len().max(1) as i32;
        let longest = self.labels.iter().enumerate().map(|(i, l)| text_width(&row_label(i, l), 12.0)).max();
        let left = longest.unwrap_or(40).clamp(40, 260) + 12;
        let cell = ((self.width as i32 - left - 16) / k).clamp(8, 56);
        Layout { left, top: 64, cell }
    }

    /// The colour of a share: white at ½, deepening towards red below and blue above, full at
    /// 0.2 and 0.8 (row − col = ∓0.6, the paper's scale).
    pub fn color(share: f64) -> RGBColor {
        let v = ((2.0 * share - 1.0) / SATURATION).clamp(-1.0, 1.0);
        let base = if v >= 0.0 { BETTER } else { WORSE };
        let t = v.abs();
        let mix = |w: u8, c: u8| ((1.0 - t) * w as f64 + t * c as f64).round() as u8;
        RGBColor(mix(255, base.0), mix(255, base.1), mix(255, base.2))
    }
}

fn row_label(i: usize, label: &str) -> String {
    format!("{}. {}", i + 1, ellipsize(label, 32))
}

impl Plot for MatrixPlot {
    fn size(&self) -> (u32, u32) {
        let l = self.layout();
        let k = self.labels.len() as i32;
        (self.width, (l.top + k * l.cell + 40).max(120) as u32)
    }

    fn title(&self) -> String {
        self.title.clone()
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError> {
        root.fill(&WHITE).map_err(err)?;
        let Layout { left, top, cell } = self.layout();
        let (w, h) = self.size();
        root.draw(&Text::new(self.title.clone(), (w as i32 / 2, 10), text(16.0, BLACK, HPos::Center, VPos::Top)))
            .map_err(err)?;
        let small = 11.0_f64.min(cell as f64 * 0.4).max(7.0);
        for (j, _) in self.labels.iter().enumerate() {
            let x = left + j as i32 * cell + cell / 2;
            root.draw(&Text::new(format!("{}", j + 1), (x, top - 6), text(small, BLACK, HPos::Center, VPos::Bottom)))
                .map_err(err)?;
        }
        for (i, label) in self.labels.iter().enumerate() {
            let y = top + i as i32 * cell;
            root.draw(&Text::new(
                row_label(i, label),
                (left - 8, y + cell / 2),
                text(12.0, BLACK, HPos::Right, VPos::Center),
            ))
            .map_err(err)?;
            for j in 0..self.labels.len() {
                let x = left + j as i32 * cell;
                let value = if i == j { None } else { self.cells.get(i).and_then(|r| r.get(j)).copied().flatten() };
                let fill = value.map_or(BLANK, Self::color);
                root.draw(&Rectangle::new([(x, y), (x + cell, y + cell)], fill.filled())).map_err(err)?;
                root.draw(&Rectangle::new([(x, y), (x + cell, y + cell)], WHITE.stroke_width(1))).map_err(err)?;
                if let Some(v) = value.filter(|_| cell >= 26) {
                    let ink = if (2.0 * v - 1.0).abs() > 0.6 * SATURATION { WHITE } else { BLACK };
                    root.draw(&Text::new(
                        format!("{v:.2}"),
                        (x + cell / 2, y + cell / 2),
                        text(small, ink, HPos::Center, VPos::Center),
                    ))
                    .map_err(err)?;
                }
            }
        }
        root.draw(&Text::new(
            self.legend.clone(),
            (12, h as i32 - 12),
            text(12.0, RGBColor(80, 80, 80), HPos::Left, VPos::Bottom),
        ))
        .map_err(err)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plots::{hex, plot_svg, svg_texts};

    #[test]
    fn every_cell_is_drawn_with_its_value_and_colour() {
        let p = MatrixPlot {
            title: "Win rates".into(),
            labels: vec!["a".into(), "b".into(), "c".into()],
            cells: vec![vec![None, Some(0.75), Some(0.5)], vec![Some(0.25), None, None], vec![Some(0.5), None, None]],
            legend: "row against column".into(),
            width: 400,
        };
        let svg = plot_svg(&p).unwrap();
        let texts = svg_texts(&svg);
        for t in ["Win rates", "1. a", "2. b", "3. c", "0.75", "0.25", "0.50", "row against column"] {
            assert!(texts.iter().any(|x| x == t), "{t} in {texts:?}");
        }
        assert_eq!(MatrixPlot::color(0.5), WHITE);
        assert_eq!(MatrixPlot::color(1.0), BETTER);
        assert_eq!(MatrixPlot::color(0.0), WORSE);
        assert!(svg.contains(&hex(MatrixPlot::color(0.75))), "the 0.75 cell's colour");
        assert!(svg.contains(&hex(BLANK)), "the diagonal");
    }
}
