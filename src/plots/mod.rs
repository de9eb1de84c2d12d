//! Plots of audit results, drawn with plotters and generic over any
//! [`plotters::prelude::DrawingBackend`]: the viewer draws them on a `<canvas>` (plotters-canvas)
//! and exports the very same drawing as SVG ([`plotters::prelude::SVGBackend`]); the CLI can use
//! the SVG path too. Nothing here depends on the web.

pub mod histogram;

pub use histogram::{HistogramPlot, PlotError, draw_histogram, histogram_svg};
