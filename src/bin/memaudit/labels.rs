//! `memaudit labels`: arguments → [`LabelsRequest`] → the core's [`Labels`] capability → output.

use std::path::PathBuf;

use clap::Args;

use memaudit::capability::FileRole;
use memaudit::label_audit::{Labels, LabelsRequest, LabelsTable, Layout, PairItems, Repeats, SampleMode, TieBreak};
use memaudit::stats::bootstrap::Bootstrap;

use crate::common::{Failure, Output, emit, inputs, run};

fn defaults() -> LabelsRequest {
    LabelsRequest::default()
}

#[derive(Args)]
pub(crate) struct LabelsArgs {
    /// Label tables (CSV/TSV, JSON Lines, JSON array): long (item, rater, label) or wide (item, one column per rater). Repeatable.
    #[arg(long, short = 'i', required = true, num_args = 1..)]
    pub(crate) labels: Vec<PathBuf>,
    /// Long or wide (auto: long when a rater and a label column are found).
    #[arg(long, value_enum, default_value_t = Layout::Auto)]
    pub(crate) layout: Layout,
    /// The item column(s), comma-separated, joined with `/` (default: item, item_id, case_id, id, query_id, question_id, or run_label + query_index).
    #[arg(long, value_delimiter = ',')]
    pub(crate) item: Vec<String>,
    /// Long layout: the rater column (default: rater, judge, judge_model, annotator, model, labeler).
    #[arg(long)]
    pub(crate) rater: Option<String>,
    /// Long layout: the label column (default: label, judge_semantic_label, judgment, judgement, verdict, rating).
    #[arg(long)]
    pub(crate) label: Option<String>,
    /// The raters to keep, comma-separated, in this order (wide: their columns; default: every rater).
    #[arg(long, value_delimiter = ',')]
    pub(crate) raters: Vec<String>,
    /// A column splitting items into groups (e.g. dataset), each analysed apart too.
    #[arg(long)]
    pub(crate) group: Option<String>,
    /// A numeric column the stratified sample buckets (e.g. credited_rank).
    #[arg(long)]
    pub(crate) stratum: Option<String>,
    /// The classes, comma-separated, in order; other labels are invalid (default: as first seen).
    #[arg(long, value_delimiter = ',')]
    pub(crate) classes: Vec<String>,
    /// A second label of one rater for one item: refuse, or keep the first (and count conflicts).
    #[arg(long, value_enum, default_value_t = Repeats::Refuse)]
    pub(crate) repeats: Repeats,
    /// A collapsed scale: NAME=CLASS,CLASS (e.g. relevant=supports,partial). Repeatable for more groups.
    #[arg(long)]
    pub(crate) collapse: Vec<String>,
    /// How a tied majority is broken.
    #[arg(long, value_enum, default_value_t = TieBreak::None)]
    pub(crate) tie_break: TieBreak,
    /// The items a pair's agreement is on: those both raters labelled, or those every rater labelled.
    #[arg(long, value_enum, default_value_t = PairItems::Pairwise)]
    pub(crate) pair_items: PairItems,
    /// The rater whose label breaks a tie (--tie-break rater).
    #[arg(long)]
    pub(crate) tie_rater: Option<String>,
    /// Bootstrap resamples of the kappa intervals (0: none).
    #[arg(long, default_value_t = defaults().bootstrap.resamples)]
    pub(crate) bootstrap: usize,
    /// Bootstrap seed.
    #[arg(long, default_value_t = defaults().bootstrap.seed)]
    pub(crate) seed: u64,
    /// Two-sided confidence level of every interval.
    #[arg(long, default_value_t = defaults().bootstrap.confidence)]
    pub(crate) confidence: f64,
    /// Items per bucket of a stratified sample to check by hand (needs --stratum and --buckets).
    #[arg(long, default_value_t = 0)]
    pub(crate) sample: usize,
    /// The sample's buckets of the stratum, inclusive: 1-5,6-20,21-60 (61- has no upper end).
    #[arg(long, default_value = "")]
    pub(crate) buckets: String,
    /// Random or evenly spaced within each bucket.
    #[arg(long, value_enum, default_value_t = SampleMode::Random)]
    pub(crate) sample_mode: SampleMode,
    /// The sample's seed (random mode).
    #[arg(long, default_value_t = defaults().sample_seed)]
    pub(crate) sample_seed: u64,
    #[command(flatten)]
    pub(crate) output: Output<LabelsTable>,
}

pub(crate) fn labels_cmd(args: LabelsArgs) -> Result<(), Failure> {
    let request = LabelsRequest {
        layout: args.layout,
        item: args.item.clone(),
        rater: args.rater.clone(),
        label: args.label.clone(),
        raters: args.raters.clone(),
        group: args.group.clone(),
        stratum: args.stratum.clone(),
        classes: args.classes.clone(),
        repeats: args.repeats,
        collapse: args.collapse.clone(),
        tie_break: args.tie_break,
        pair_items: args.pair_items,
        tie_rater: args.tie_rater.clone(),
        bootstrap: Bootstrap { resamples: args.bootstrap, seed: args.seed, confidence: args.confidence },
        sample_per_bucket: args.sample,
        buckets: args.buckets.clone(),
        sample_mode: args.sample_mode,
        sample_seed: args.sample_seed,
    };
    let files = inputs::<Labels>(args.labels.iter().map(|p| (p.clone(), Some(FileRole::Labels))).collect())?;
    let (loaded, report) = run::<Labels>(&files, &request)?;
    emit::<Labels>(&report, &loaded, &args.output)
}
