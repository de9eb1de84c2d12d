//! `memaudit labels`: arguments → [`LabelsRequest`] → the core's [`Labels`] capability → output.

use std::path::PathBuf;

use clap::Args;

use memaudit::capability::FileRole;
use memaudit::label_audit::{Labels, LabelsRequest, LabelsTable, ShowItem};

use crate::common::{Failure, Output, detail, emit, inputs, print_item_text, run};
use crate::fields::FieldArgs;

#[derive(Args)]
pub(crate) struct LabelsArgs {
    /// Label tables (CSV/TSV, JSON Lines, JSON array): long (item, rater, label) or wide (item, one column per rater). Repeatable.
    #[arg(long, short = 'i', required = true, num_args = 1..)]
    pub(crate) labels: Vec<PathBuf>,
    #[command(flatten)]
    pub(crate) settings: FieldArgs<LabelsRequest>,
    /// Print one item as the label files state it (an item of `--table items`, e.g. `r1/0`):
    /// the cells its rows share (the question, the passage labelled), then each rater's rows
    /// with their file and line, the label first (as written, before any recode), then the
    /// cells that differ (a judge's reason). JSON, or with `--format csv` a row per cell.
    #[arg(long, value_name = "ITEM")]
    pub(crate) show_item: Option<String>,
    #[command(flatten)]
    pub(crate) output: Output<LabelsTable>,
}

impl crate::common::Subcommand for Labels {
    type Args = LabelsArgs;
    fn run(args: LabelsArgs) -> Result<(), Failure> {
        labels_cmd(args)
    }
}

pub(crate) fn labels_cmd(args: LabelsArgs) -> Result<(), Failure> {
    let files = inputs::<Labels>(args.labels.iter().map(|p| (p.clone(), Some(FileRole::Labels))).collect())?;
    if let Some(item) = &args.show_item {
        let text = detail::<Labels>(&files, &args.settings.0, &ShowItem { item: item.clone() })?;
        return print_item_text(&text, "rater", args.output.format);
    }
    let (loaded, report) = run::<Labels>(&files, &args.settings.0)?;
    emit::<Labels>(&report, &loaded, &args.output)
}
