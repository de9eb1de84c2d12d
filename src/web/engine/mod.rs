//! The worker's logic with no browser API in it: read files into a [`Dataset`], keep it,
//! audit it under any [`Settings`], and answer drill-downs from it ([`Engine`], the rescoring
//! page); compare arms on kept outcome rows ([`compare::CompareEngine`]); probe notes and
//! analyse reclaim trials ([`probe::ProbeEngine`], [`reclaim::ReclaimEngine`]); rescore answers,
//! audit ablations, check claims and evaluate rules on kept files ([`tools::ToolEngines`] with
//! [`answers`], [`ablation`], [`claims`], [`rules`]). The worker
//! ([`super::worker`]) only adds message plumbing and file reading around these.

pub mod ablation;
pub mod answers;
pub mod claims;
pub mod compare;
pub mod probe;
pub mod reclaim;
pub mod rules;
pub mod tools;

use crate::audit::{self, Drilldown, Report};
use crate::conventions::Settings;
use crate::dataset::Dataset;
use crate::error::Error;
use crate::ingest::{self, InputFile, Loaded, Role};

use super::protocol::{Phase, QueryInfo};

/// Share of a load's progress bar given to reading (parsing dominates the cost of a load).
const READ_SHARE: f64 = 0.5;
const BUILD_SHARE: f64 = 0.05;
/// Within an audit, the share of rescoring (the rest is tables and bootstrap intervals).
const SCORING_SHARE: f64 = 0.45;

/// The demo bundle (`static/demo`, written by `memaudit synth --out static/demo`), compiled
/// into the worker so the demo works offline and never fetches anything.
pub fn demo_files() -> Vec<InputFile> {
    vec![
        InputFile::new("memories.jsonl", include_str!("../../../static/demo/memories.jsonl").as_bytes()),
        InputFile::new("queries.jsonl", include_str!("../../../static/demo/queries.jsonl").as_bytes()),
        InputFile::new("runs.jsonl", include_str!("../../../static/demo/runs.jsonl").as_bytes()),
    ]
}

/// Progress callback: phase, what runs now, share of the whole job done (0..=1).
pub type ProgressFn<'a> = &'a mut dyn FnMut(Phase, &str, f64);

/// Reads `files` in the given order (formats detected from content, as the CLI's `--input`),
/// builds the dataset and audits it. The files are dropped as soon as they are read.
pub fn load_and_audit(
    files: Vec<InputFile>,
    settings: &Settings,
    progress: ProgressFn<'_>,
) -> Result<(Dataset, Report), Error> {
    settings.validate()?;
    if files.is_empty() {
        return Err(Error::Empty("no files were given".into()));
    }
    let total: f64 = files.iter().map(|f| f.bytes.len().max(1) as f64).sum();
    let mut done = 0.0;
    let mut loaded = Loaded::default();
    for f in files {
        let size = f.bytes.len().max(1) as f64;
        let start = done;
        ingest::read_into(&f, Role::Any, &mut loaded, &mut |p| {
            let overall = READ_SHARE * (start + p.fraction.clamp(0.0, 1.0) * size) / total;
            progress(Phase::Reading, &p.stage, overall);
        })?;
        done += size;
    }
    progress(Phase::Building, "checking and indexing", READ_SHARE);
    let ds = Dataset::build(loaded);
    if ds.queries.is_empty() {
        return Err(Error::Empty(
            "no queries were read: add a queries file (queries.jsonl), TREC qrels, or \
             LoCoMo / LongMemEval data"
                .into(),
        ));
    }
    let base = READ_SHARE + BUILD_SHARE;
    let report = audit_with_progress(&ds, settings, base, progress);
    Ok((ds, report))
}

/// Runs [`audit::run`], mapping its progress onto `[base, 1]`.
fn audit_with_progress(ds: &Dataset, settings: &Settings, base: f64, progress: ProgressFn<'_>) -> Report {
    let span = 1.0 - base;
    audit::run(ds, settings, &mut |stage, f| {
        let f = f.clamp(0.0, 1.0);
        if stage == "scoring" {
            progress(Phase::Scoring, "scoring ranked lists", base + span * SCORING_SHARE * f);
        } else {
            progress(Phase::Tables, stage, base + span * (SCORING_SHARE + (1.0 - SCORING_SHARE) * f));
        }
    })
}

/// The queries of a dataset, for the drill-down picker.
pub fn query_list(ds: &Dataset) -> Vec<QueryInfo> {
    ds.queries
        .iter()
        .map(|q| QueryInfo { id: q.query_id.clone(), text: q.text.clone(), category: q.category.clone() })
        .collect()
}

/// Holds the last successfully loaded dataset.
#[derive(Debug, Default)]
pub struct Engine {
    dataset: Option<Dataset>,
}

impl Engine {
    pub fn new() -> Self {
        Engine::default()
    }

    pub fn dataset(&self) -> Option<&Dataset> {
        self.dataset.as_ref()
    }

    /// Reads, builds and audits; on success the new dataset replaces the kept one, on failure
    /// the kept one stays.
    pub fn load(
        &mut self,
        files: Vec<InputFile>,
        settings: &Settings,
        progress: ProgressFn<'_>,
    ) -> Result<(Report, Vec<QueryInfo>), Error> {
        let (ds, report) = load_and_audit(files, settings, progress)?;
        let queries = query_list(&ds);
        self.dataset = Some(ds);
        Ok((report, queries))
    }

    /// Audits the kept dataset under new settings.
    pub fn rescore(&self, settings: &Settings, progress: ProgressFn<'_>) -> Result<Report, Error> {
        settings.validate()?;
        let ds = self
            .dataset
            .as_ref()
            .ok_or_else(|| Error::Empty("no data loaded yet: drop files or try the demo first".into()))?;
        Ok(audit_with_progress(ds, settings, 0.0, progress))
    }

    /// One drill-down from the kept dataset.
    pub fn drilldown(&self, settings: &Settings, system: usize, query: usize) -> Result<Drilldown, Error> {
        settings.validate()?;
        let ds = self.dataset.as_ref().ok_or_else(|| Error::Empty("no data loaded yet".into()))?;
        audit::drilldown(ds, settings, system, query)
            .ok_or_else(|| Error::Empty(format!("no ranked list to show for system #{system}, query #{query}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::read_all;
    use crate::report::table;

    fn csv(r: &Report, name: &str) -> String {
        table(r, name).and_then(|t| t.to_csv().ok()).unwrap_or_default()
    }

    #[test]
    fn demo_load_equals_the_core_pipeline_in_any_file_order() {
        let settings = Settings { bootstrap: 200, ..Settings::default() };
        let direct = {
            let ds = Dataset::build(read_all(&demo_files()).unwrap());
            audit::run(&ds, &settings, &mut |_, _| {})
        };
        let mut fractions = Vec::new();
        let mut reversed = demo_files();
        reversed.reverse();
        let (_, report) = load_and_audit(reversed, &settings, &mut |_, _, f| fractions.push(f)).unwrap();
        for name in [
            "summary",
            "instability",
            "instability_by_category",
            "aggregations",
            "kendall_from_raw",
            "agreement",
            "winners",
            "coverage",
        ] {
            assert_eq!(csv(&report, name), csv(&direct, name), "{name}");
        }
        assert!(fractions.windows(2).all(|w| w[1] >= w[0] - 1e-12), "progress never goes back");
        assert!(fractions.last().is_some_and(|f| (*f - 1.0).abs() < 1e-9));
    }

    #[test]
    fn errors_are_values_and_keep_the_dataset() {
        let mut e = Engine::new();
        assert!(matches!(e.rescore(&Settings::default(), &mut |_, _, _| {}), Err(Error::Empty(_))));
        assert!(matches!(e.load(Vec::new(), &Settings::default(), &mut |_, _, _| {}), Err(Error::Empty(_))));
        let bad_k = Settings { k: 0, ..Settings::default() };
        assert!(matches!(e.load(demo_files(), &bad_k, &mut |_, _, _| {}), Err(Error::Setting { .. })));
        let only_memories = vec![demo_files().remove(0)];
        assert!(matches!(e.load(only_memories, &Settings::default(), &mut |_, _, _| {}), Err(Error::Empty(_))));
        let fast = Settings { bootstrap: 0, ..Settings::default() };
        let (report, queries) = e.load(demo_files(), &fast, &mut |_, _, _| {}).unwrap();
        assert_eq!(queries.len(), report.reading.counts.queries);
        let bad = vec![InputFile::new("x.jsonl", b"{\"foo\": 1}\n".to_vec())];
        match e.load(bad, &fast, &mut |_, _, _| {}) {
            Err(Error::Ingest(i)) => assert_eq!((i.location.file.as_str(), i.location.line), ("x.jsonl", Some(1))),
            other => panic!("{other:?}"),
        }
        assert!(e.dataset().is_some());
        assert!(e.drilldown(&fast, 99, 0).is_err());
        assert!(e.drilldown(&fast, 0, 1).is_ok());
    }
}
