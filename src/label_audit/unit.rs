//! The label workspace as one capability ([`Labels`]): `memaudit labels` and the viewer's labels
//! page. Every file is a label table (long or wide, detected by its columns).

use serde::{Deserialize, Serialize};

use super::analyse::{Collapse, LabelsReport, analyse};
use super::read::{ColumnOptions, ITEM_COLUMNS, LABEL_COLUMNS, LabelSet, RATER_COLUMNS, looks_like_labels};
use super::sample::{MAX_PER_BUCKET, parse_buckets, sample};
use super::table::{LabelsTable, table};
use super::{Layout, PairItems, Repeats, SampleMode, TieBreak, text};
use crate::capability::prelude::*;
use crate::error::{IngestError, Location};
use crate::fields::Entries;
use crate::report::instance::ItemText;
use crate::stats::bootstrap::Bootstrap;

/// Agreement among raters on categorical labels.
pub struct Labels;

crate::fields! {
    /// The labels settings. Column settings (`layout` … `repeats`) decide how files are read;
    /// the rest how they are analysed.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(default)]
    pub struct LabelsRequest {
        layout: Layout = Layout::Auto, label "layout",
            help "Long (item, rater, label) or wide (one column per rater); auto: long when a rater and a label column are found.";
        item: Vec<String> = Vec::new(), label "item column(s)",
            help "The item column(s), comma-separated, joined with / (else run_label + query_index when both are there).", column ITEM_COLUMNS;
        rater: Option<String> = None, label "rater column",
            help "Long layout: the rater column.", column RATER_COLUMNS;
        label: Option<String> = None, label "label column",
            help "Long layout: the label column.", column LABEL_COLUMNS;
        raters: Vec<String> = Vec::new(), label "raters",
            help "The raters to keep, comma-separated, in this order (wide: their columns; empty: every rater).";
        group: Option<String> = None, label "group column",
            help "A column splitting the items into groups (e.g. dataset), each analysed apart too.";
        classes: Vec<String> = Vec::new(), label "classes",
            help "The classes, comma-separated, in order; a label outside them is invalid (empty: the labels as first seen).";
        recode: Vec<String> = Vec::new(), via Entries, label "recode",
            help "Labels read as another before anything else: FROM=TO (e.g. suport_ok=supports_ok; FROM may list several, comma-separated); more repeated or separated by ;. Each recode is reported with the labels it changed.";
        repeats: Repeats = Repeats::Refuse, label "repeated labels",
            help "A second label of one rater for one item: refuse, or keep the first (and count conflicts).";
        collapse: Vec<String> = Vec::new(), via Entries, label "collapse",
            help "A collapsed scale: NAME=CLASS,CLASS (e.g. relevant=supports,partial); more groups repeated or separated by ;.";
        tie_break: TieBreak = TieBreak::None, label "majority tie-break",
            help "How a tied majority is broken.";
        tie_rater: Option<String> = None, label "tie rater",
            help "The rater whose label breaks a tie (majority tie-break: rater).";
        pair_items: PairItems = PairItems::Pairwise, label "pairs on",
            help "The items a pair's agreement is on: those both raters labelled, or those every rater labelled.";
        stratum: Option<String> = None, label "sample stratum",
            help "A numeric column the stratified sample buckets (e.g. credited_rank).";
        sample_per_bucket as "sample": usize = 0, label "sample per bucket",
            help "Items per bucket of a stratified sample to check by hand (0: none; needs the stratum and the buckets).";
        buckets: String = String::new(), label "buckets",
            help "The sample's buckets of the stratum, inclusive: 1-5,6-20,21-60 (61- has no upper end).";
        sample_mode: SampleMode = SampleMode::Random, label "sample mode",
            help "Random or evenly spaced within each bucket.";
        sample_seed: u64 = 1337, label "sample seed", help "The sample's seed (random mode).";
    }
    groups {
        /// The resampling of the κ intervals (0 resamples: none).
        bootstrap: Bootstrap = Bootstrap::default();
    }
}

impl Validate for LabelsRequest {
    fn validate(&self) -> Result<()> {
        self.bootstrap.validate(0)?;
        Collapse::parse(&self.collapse)?;
        super::read::parse_recode(&self.recode)?;
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
            || self.recode != other.recode
    }
}

/// The labels read and the files' summaries.
#[derive(Debug, Clone, Default)]
pub struct LoadedLabels {
    pub set: LabelSet,
    pub files: Vec<FileSummary>,
    /// The files read (shared, not copied), to show an item's rows again ([`ShowItem`]).
    pub inputs: Vec<InputFile>,
}

/// One item's rows as the label files state them (`memaudit labels --show-item ITEM`).
pub use crate::report::instance::ShowItem;

/// How much of a file's start is read to recognise one rater's labels.
const SNIFFED_LABEL_BYTES: usize = 64 * 1024;

/// The most classes a rater's file is taken to have when recognised by its content.
const MAX_SNIFFED_CLASSES: usize = 20;

/// A table of two columns, an item and a label column (any name), whose labels are words, not
/// numbers (a column of numbers is read as outcomes, never as labels).
fn one_raters_labels(s: &crate::ingest::sniff::Sniff<'_>) -> bool {
    use super::read::ITEM_COLUMNS;
    let cols = s.columns();
    if cols.len() != 2 {
        return false;
    }
    let Some(item) = cols.iter().position(|c| ITEM_COLUMNS.iter().any(|n| c.eq_ignore_ascii_case(n))) else {
        return false;
    };
    // The first rows are enough to tell (a bounded look, whatever the file's size).
    let Some(head) = s.head_lines(SNIFFED_LABEL_BYTES) else {
        return false;
    };
    let sample = InputFile::new(s.file.name.clone(), head.as_bytes().to_vec());
    let Ok(rows) = crate::ingest::table::rows(&sample) else {
        return false;
    };
    let labels: Vec<&str> =
        rows.records.iter().map(|(_, r)| r[1 - item].trim()).filter(|v| !crate::ingest::table::is_missing(v)).collect();
    // Labels are a few short classes (a column of texts, e.g. queries, is not); a blank template,
    // every label missing, is routed with its folder too: the reader leaves it out and says so.
    let mut classes: Vec<&str> = labels.clone();
    classes.sort_unstable();
    classes.dedup();
    !rows.records.is_empty()
        && classes.len() <= MAX_SNIFFED_CLASSES
        && (labels.len() < 2 || classes.len() < labels.len())
        && labels.iter().all(|v| {
            v.len() <= 40 && v.parse::<f64>().is_err() && !matches!(v.to_ascii_lowercase().as_str(), "true" | "false")
        })
}

impl Capability for Labels {
    const ANALYSIS: Analysis = Analysis::Labels;
    const TITLE: &'static str = "Labels";
    const ABOUT: &'static str = "Agreement among raters on categorical labels: Cohen's and Fleiss' kappa with bootstrap intervals, percent agreement, label distributions, the majority, a stratified sample.";
    const ROLES: &'static [FileRole] = &[FileRole::Labels];
    const DEMO: &'static [Demo] = &[Demo::new("labels.csv", "static/demo/labels/labels.csv")];
    crate::capability_types!(
        request: LabelsRequest, loaded: LoadedLabels, overview: Vec<FileSummary>,
        report: LabelsReport, table: LabelsTable, detail: ShowItem => ItemText
    );

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

    /// A long label table (an item, a rater and a label column); a wide one (an item and rater
    /// columns) is generic.
    fn recognise(s: &crate::ingest::sniff::Sniff<'_>) -> Option<crate::capability::Recognised> {
        use super::read::{ITEM_COLUMNS, LABEL_COLUMNS, RATER_COLUMNS};
        use crate::capability::{Fit, Recognised};
        if !s.has_column(ITEM_COLUMNS) {
            return None;
        }
        if s.has_column(RATER_COLUMNS) && s.has_column(LABEL_COLUMNS) {
            Some(Recognised::new(FileRole::Labels, Fit::Specific, "an item, a rater and a label column").by_columns(s))
        } else if one_raters_labels(s) {
            // One rater's file of a release with one file per rater: read with the other raters'
            // files of its folder (wide tables, each file's label column one rater).
            Some(
                Recognised::new(
                    FileRole::Labels,
                    Fit::Specific,
                    "an item and one column of text labels (one rater's file)",
                )
                .by_folder(&s.file.name),
            )
        } else {
            None
        }
    }

    fn load(files: &[RoleFile], request: &LabelsRequest, progress: Progress<'_>) -> Result<LoadedLabels> {
        progress(Phase::Reading, "reading labels", 0.0);
        let mut set = LabelSet::new(&request.classes, &request.raters);
        let recode = super::read::parse_recode(&request.recode)?;
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
            recode: &recode,
        };
        let mut summaries = Vec::new();
        for (i, f) in files.iter().enumerate() {
            let before = set.readings.len();
            set.add(i, &f.file, &options)?;
            let records = set.readings.get(before).map_or(0, |r| r.records);
            summaries.push(FileSummary::of(f, format!("{} label table", set.readings[before].layout), records)?);
            progress(Phase::Reading, &f.file.name, (i + 1) as f64 / files.len() as f64);
        }
        set.done_reading();
        crate::capability::refuse_files_without_records(
            summaries.iter().map(|f| (f.name.as_str(), f.records)),
            "label rows",
        )?;
        // Every stated recode is reported, in the stated order, those that changed no label too.
        set.recoded = recode
            .iter()
            .map(|(from, to)| {
                let labels = set.recoded.iter().find(|r| r.from == *from).map_or(0, |r| r.labels);
                super::read::Recoded { from: from.clone(), to: to.clone(), labels }
            })
            .collect();
        if set.items.is_empty() {
            let p = &set.problems;
            let why = p
                .missing
                .located("label", "labels")
                .or_else(|| p.invalid.located("label outside the stated classes", "labels outside the stated classes"))
                .or_else(|| {
                    let blank = super::read::blank_forms(&set.readings);
                    (!blank.is_empty()).then(|| format!("blank forms only, no label in any row: {}", blank.join(", ")))
                })
                .unwrap_or_else(|| "the files hold no rows below their header".into());
            return Err(Error::Empty(format!("no labels: give a label table with at least one labelled item ({why})")));
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
        Ok(LoadedLabels { set, files: summaries, inputs: files.iter().map(|f| f.file.clone()).collect() })
    }

    /// The item's rows, read again from the files ([`super::instance::item_text`]).
    fn detail(l: Option<&LoadedLabels>, request: &LabelsRequest, d: &ShowItem) -> Result<ItemText> {
        let l = l.ok_or_else(crate::capability::nothing_loaded)?;
        let set = &l.set;
        super::instance::item_text(&l.inputs, &set.readings, &set.raters, &request.raters, &d.item)?.ok_or_else(|| {
            let mut named: Vec<String> = set.readings.iter().map(|r| format!("`{}`", r.item_text())).collect();
            named.dedup();
            let joined = if set.readings.iter().any(|r| r.item.len() > 1) {
                ", the columns' texts joined with / (e.g. run0/3)"
            } else {
                ""
            };
            Error::setting(
                "show_item",
                format!(
                    "the labels have no item `{}` ({} items, named by {}{joined})",
                    d.item,
                    set.items.len(),
                    named.join("; ")
                ),
            )
        })
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

    crate::report_views!(table? table, headlines: super::headlines::headlines, text: text::render_text);
}
