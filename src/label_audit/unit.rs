//! The label workspace as one capability ([`Labels`]): `memaudit labels` and the viewer's labels
//! page. Every file is a label table (long or wide, detected by its columns).

use serde::{Deserialize, Serialize};

use super::analyse::{Collapse, LabelsReport, analyse};
use super::read::{ColumnOptions, LabelSet, looks_like_labels};
use super::sample::{MAX_PER_BUCKET, parse_buckets, sample};
use super::table::{LabelsTable, table};
use super::{Layout, PairItems, Repeats, SampleMode, TieBreak, text};
use crate::capability::{Analysis, Capability, FileRole, FileSummary, Phase, Progress, RoleFile, Validate, no_detail};
use crate::error::{Error, IngestError, Location, Result};
use crate::ingest::InputFile;
use crate::report::Table;
use crate::stats::bootstrap::Bootstrap;

/// Agreement among raters on categorical labels.
pub struct Labels;

/// `memaudit labels` settings. Column options (`layout` … `repeats`) decide how files are read;
/// the rest how they are analysed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct LabelsRequest {
    pub layout: Layout,
    /// The item column(s), joined with `/` (empty: `item`, `item_id`, `case_id`, `id`,
    /// `query_id`, `question_id`, or `run_label` + `query_index`).
    pub item: Vec<String>,
    /// Long layout: the rater column (default: `rater`, `judge`, `judge_model`, …).
    pub rater: Option<String>,
    /// Long layout: the label column (default: `label`, `judge_semantic_label`, …).
    pub label: Option<String>,
    /// The raters to keep, in this order (wide: their columns; empty: every rater).
    pub raters: Vec<String>,
    /// A column splitting the items into groups (e.g. the dataset), each analysed apart too.
    pub group: Option<String>,
    /// A numeric column the stratified sample buckets (e.g. the credited rank).
    pub stratum: Option<String>,
    /// The classes in order; a label outside them is invalid (empty: the labels as first seen).
    pub classes: Vec<String>,
    pub repeats: Repeats,
    /// `NAME=CLASS,CLASS` groups of a collapsed scale (`relevant=supports,partial`).
    pub collapse: Vec<String>,
    pub tie_break: TieBreak,
    /// The items a pair's agreement is computed on.
    pub pair_items: PairItems,
    /// The rater whose label breaks a tie (`tie_break = rater`).
    pub tie_rater: Option<String>,
    pub bootstrap: Bootstrap,
    /// Items per bucket of the stratified sample (0: no sample).
    pub sample_per_bucket: usize,
    /// The sample's buckets of the stratum (`1-5,6-20,21-60`).
    pub buckets: String,
    pub sample_mode: SampleMode,
    pub sample_seed: u64,
}

impl Default for LabelsRequest {
    fn default() -> Self {
        LabelsRequest {
            layout: Layout::Auto,
            item: Vec::new(),
            rater: None,
            label: None,
            raters: Vec::new(),
            group: None,
            stratum: None,
            classes: Vec::new(),
            repeats: Repeats::Refuse,
            collapse: Vec::new(),
            tie_break: TieBreak::None,
            pair_items: PairItems::Pairwise,
            tie_rater: None,
            bootstrap: Bootstrap { resamples: 2000, seed: 1337, confidence: 0.95 },
            sample_per_bucket: 0,
            buckets: String::new(),
            sample_mode: SampleMode::Random,
            sample_seed: 1337,
        }
    }
}

impl Validate for LabelsRequest {
    fn validate(&self) -> Result<()> {
        self.bootstrap.validate(0)?;
        Collapse::parse(&self.collapse)?;
        let mut seen = std::collections::HashSet::new();
        if let Some(c) = self.classes.iter().find(|c| !seen.insert(c.as_str())) {
            return Err(Error::setting("classes", format!("`{c}` is listed twice")));
        }
        if self.tie_break == TieBreak::Rater && self.tie_rater.is_none() {
            return Err(Error::setting("tie-rater", "tie-break `rater` needs the rater whose label breaks a tie"));
        }
        if self.sample_per_bucket > MAX_PER_BUCKET {
            return Err(Error::setting("sample", format!("at most {MAX_PER_BUCKET} items per bucket")));
        }
        if self.sample_per_bucket > 0 {
            if self.stratum.is_none() {
                return Err(Error::setting(
                    "stratum",
                    "a stratified sample needs the stratum column (e.g. credited_rank)",
                ));
            }
            parse_buckets(&self.buckets)?;
        }
        Ok(())
    }
}

impl LabelsRequest {
    /// Whether `other` reads the files differently (a column option changed).
    fn reads_differently(&self, other: &LabelsRequest) -> bool {
        self.layout != other.layout
            || self.item != other.item
            || self.rater != other.rater
            || self.label != other.label
            || self.raters != other.raters
            || self.group != other.group
            || self.stratum != other.stratum
            || self.classes != other.classes
            || self.repeats != other.repeats
    }
}

/// The labels read and the files' summaries.
#[derive(Debug, Clone, Default)]
pub struct LoadedLabels {
    pub set: LabelSet,
    pub files: Vec<FileSummary>,
}

impl Capability for Labels {
    const ANALYSIS: Analysis = Analysis::Labels;
    const ROLES: &'static [FileRole] = &[FileRole::Labels];

    type Request = LabelsRequest;
    type Loaded = LoadedLabels;
    type Overview = Vec<FileSummary>;
    type Report = LabelsReport;
    type Table = LabelsTable;
    type Detail = ();
    type DetailView = ();

    fn detect(file: &InputFile) -> Result<FileRole> {
        if looks_like_labels(file) {
            Ok(FileRole::Labels)
        } else {
            Err(Error::Ingest(IngestError::new(
                Location::file(&file.name),
                "not a label table: a CSV/TSV, JSON Lines or JSON array with an item column (item, id, …) \
                 and either a rater and a label column or one column per rater",
            )))
        }
    }

    fn load(files: &[RoleFile], request: &LabelsRequest, progress: Progress<'_>) -> Result<LoadedLabels> {
        progress(Phase::Reading, "reading labels", 0.0);
        let mut set = LabelSet::new(&request.classes, &request.raters);
        let options = ColumnOptions {
            layout: request.layout,
            item: &request.item,
            rater: request.rater.as_deref(),
            label: request.label.as_deref(),
            raters: &request.raters,
            group: request.group.as_deref(),
            stratum: request.stratum.as_deref(),
            classes: &request.classes,
            repeats: request.repeats,
        };
        let mut summaries = Vec::new();
        for (i, f) in files.iter().enumerate() {
            let before = set.readings.len();
            set.add(i, &f.file, &options)?;
            let records = set.readings.get(before).map_or(0, |r| r.records);
            summaries.push(FileSummary::of(f, format!("{} label table", set.readings[before].layout), records)?);
            progress(Phase::Reading, &f.file.name, (i + 1) as f64 / files.len() as f64);
        }
        if set.items.is_empty() {
            return Err(Error::Empty("no labels: give --labels with at least one labelled item".into()));
        }
        if let Some(r) = set.raters.iter().enumerate().find(|(r, _)| set.items.iter().all(|it| it.labels[*r].is_none()))
        {
            return Err(Error::setting(
                "raters",
                format!(
                    "rater `{}` has no valid label in any file (check {} and {})",
                    r.1,
                    crate::fields::mention("raters"),
                    crate::fields::mention("classes")
                ),
            ));
        }
        Ok(LoadedLabels { set, files: summaries })
    }

    fn reload(old: &LabelsRequest, new: &LabelsRequest) -> bool {
        old.reads_differently(new)
    }

    fn overview(l: &LoadedLabels) -> Vec<FileSummary> {
        l.files.clone()
    }

    fn run(l: &LoadedLabels, request: &LabelsRequest, progress: Progress<'_>) -> Result<LabelsReport> {
        progress(Phase::Analysing, "agreement", 0.0);
        let drawn = match (&request.stratum, request.sample_per_bucket) {
            (Some(s), k) if k > 0 => Some(sample(
                &l.set.items,
                s,
                &parse_buckets(&request.buckets)?,
                k,
                request.sample_mode,
                request.sample_seed,
            )),
            _ => None,
        };
        let report = analyse(&l.set, request, drawn)?;
        progress(Phase::Analysing, "done", 1.0);
        Ok(report)
    }

    fn detail(_: Option<&LoadedLabels>, _: &LabelsRequest, _: &()) -> Result<()> {
        no_detail::<Self>()
    }

    fn table(report: &LabelsReport, which: LabelsTable) -> Result<Table> {
        table(report, which)
    }

    fn inputs(overview: &Vec<FileSummary>, _report: &LabelsReport) -> Vec<crate::attach::InputInfo> {
        crate::attach::of_summaries(overview)
    }

    fn headlines(report: &LabelsReport) -> Vec<crate::headline::Headline> {
        super::headlines::headlines(report)
    }

    fn render_text(report: &LabelsReport) -> String {
        text::render_text(report)
    }
}
