//! The comparison page's worker logic: read outcome files (or take a rescoring's per-query
//! rows), keep the table, and compare its arms under any spec and settings with the CLI's own
//! call ([`crate::compare::compare_table`]); answer click-throughs (the items behind a contrast
//! or an arm) from the last comparison.

use crate::audit::PerQueryRow;
use crate::compare::{CompareError, CompareInput, compare_table, input_from_paired, items_for_pair};
use crate::error::Error;
use crate::ingest::InputFile;
use crate::outcomes::{
    OutcomeFormat, OutcomeTable, PairingError, ReadOptions, from_per_query, infer_spec, read_outcome_files,
};
use crate::stats::ranks::average_ranks;

use super::ProgressFn;
use crate::web::protocol::{
    ArmItem, COLUMN_VALUES, ColumnView, CompareOutcome, CompareResult, CompareRun, ItemSelection, ItemsView,
    OutcomeFileView, Phase, TableInfo,
};

/// Share of a load's progress bar given to reading the files.
const READ_SHARE: f64 = 0.15;
/// Share given to pairing (the rest is the comparison).
const PAIR_SHARE: f64 = 0.05;

/// The last comparison's matrix, for click-throughs.
#[derive(Debug)]
struct Kept {
    input: CompareInput,
    higher_is_better: bool,
}

/// Holds the last loaded outcome table and the last comparison's matrix.
#[derive(Debug, Default)]
pub struct CompareEngine {
    table: Option<OutcomeTable>,
    from_rescoring: bool,
    last: Option<Kept>,
}

/// The page's view of a table: files, columns with their first distinct texts, warnings and
/// the inferred spec.
pub fn table_info(table: &OutcomeTable, from_rescoring: bool) -> TableInfo {
    let columns = table
        .columns
        .iter()
        .map(|c| {
            let mut values: Vec<String> = Vec::new();
            for r in &table.rows {
                if values.len() >= COLUMN_VALUES {
                    break;
                }
                if let Some(v) = r.fields.get(&c.name)
                    && !values.contains(v)
                {
                    values.push(v.clone());
                }
            }
            ColumnView { info: c.clone(), values }
        })
        .collect();
    TableInfo {
        name: table.name.clone(),
        files: table
            .files
            .iter()
            .map(|f| OutcomeFileView {
                name: f.name.clone(),
                format: f.format,
                gzip: f.gzip,
                bytes: f.bytes,
                rows: f.rows,
            })
            .collect(),
        columns,
        rows: table.rows.len(),
        warnings: table.warnings.clone(),
        inferred: infer_spec(table),
        from_rescoring,
    }
}

impl CompareEngine {
    pub fn new() -> Self {
        CompareEngine::default()
    }

    /// Whether a table is kept.
    pub fn has_table(&self) -> bool {
        self.table.is_some()
    }

    /// Reads outcome files (formats detected, or `format` forced; several files are
    /// concatenated with a `file` column, as the CLI does). On success the table replaces the
    /// kept one and is compared under `run`; a file that cannot be read leaves the kept table.
    pub fn load(
        &mut self,
        files: Vec<InputFile>,
        format: Option<OutcomeFormat>,
        run: &CompareRun,
        progress: ProgressFn<'_>,
    ) -> Result<CompareResult, Error> {
        if files.is_empty() {
            return Err(Error::Empty("no outcome files were given".into()));
        }
        progress(Phase::Reading, "reading outcome files", 0.0);
        let table = read_outcome_files(&files, &ReadOptions { format })?;
        drop(files);
        self.keep(table, false);
        self.compare(run, true, READ_SHARE, progress)
    }

    /// A rescoring's per-query rows as the table (system × target become arms).
    pub fn load_rescoring(
        &mut self,
        name: &str,
        rows: &[PerQueryRow],
        run: &CompareRun,
        progress: ProgressFn<'_>,
    ) -> Result<CompareResult, Error> {
        if rows.is_empty() {
            return Err(Error::Empty("the rescoring has no per-query rows".into()));
        }
        progress(Phase::Reading, "taking the rescoring's per-query rows", 0.0);
        self.keep(from_per_query(name, rows), true);
        self.compare(run, true, READ_SHARE, progress)
    }

    /// Compares the kept table again.
    pub fn run(&mut self, run: &CompareRun, progress: ProgressFn<'_>) -> Result<CompareResult, Error> {
        self.compare(run, false, 0.0, progress)
    }

    fn keep(&mut self, table: OutcomeTable, from_rescoring: bool) {
        self.table = Some(table);
        self.from_rescoring = from_rescoring;
        self.last = None;
    }

    fn compare(
        &mut self,
        run: &CompareRun,
        with_table: bool,
        base: f64,
        progress: ProgressFn<'_>,
    ) -> Result<CompareResult, Error> {
        let table = self
            .table
            .as_ref()
            .ok_or_else(|| Error::Empty("no outcomes loaded yet: drop outcome files first".into()))?;
        let spec = run.spec.clone().unwrap_or_else(|| infer_spec(table));
        let info = with_table.then(|| table_info(table, self.from_rescoring));
        progress(Phase::Pairing, "pairing items across arms", base);
        let start = base + PAIR_SHARE;
        let span = 1.0 - start;
        let result = compare_table(table, &spec, &run.options, &run.settings, &mut |stage, f| {
            progress(Phase::Comparing, stage, start + span * f.clamp(0.0, 1.0));
        });
        let outcome = match result {
            Ok((out, paired)) => {
                let input = input_from_paired(&paired, &run.settings.resampling)?;
                self.last = Some(Kept { input, higher_is_better: run.settings.higher_is_better });
                CompareOutcome::Compared { comparison: Box::new(out.comparison), pairing: Box::new(out.pairing) }
            }
            Err(CompareError::Pairing(PairingError::Record(e))) => {
                self.last = None;
                return Err(Error::Ingest(e));
            }
            Err(CompareError::Pairing(PairingError::Spec(message))) => {
                self.last = None;
                CompareOutcome::Refused { message, pairing: None }
            }
            Err(CompareError::Pairing(PairingError::Unpaired { message, report })) => {
                self.last = None;
                CompareOutcome::Refused { message, pairing: Some(report) }
            }
            Err(CompareError::Compare(e)) => {
                self.last = None;
                return Err(e);
            }
        };
        Ok(CompareResult { table: info, spec, options: run.options, outcome, read_ms: 0.0, total_ms: 0.0 })
    }

    /// The items behind a contrast (largest |a − b| first) or an arm (item order, with the
    /// arm's rank on each item) of the last comparison.
    pub fn items(&self, selection: &ItemSelection) -> Result<ItemsView, Error> {
        let kept = self.last.as_ref().ok_or_else(|| Error::Empty("no comparison on screen".into()))?;
        let arm = |name: &str| {
            kept.input
                .arms
                .iter()
                .position(|a| a == name)
                .ok_or_else(|| Error::Empty(format!("the comparison has no arm `{name}`")))
        };
        Ok(match selection {
            ItemSelection::Pair { a, b } => {
                let items = items_for_pair(&kept.input, arm(a)?, arm(b)?);
                ItemsView::Pair { a: a.clone(), b: b.clone(), items }
            }
            ItemSelection::Arm { arm: name } => {
                let j = arm(name)?;
                let sign = if kept.higher_is_better { -1.0 } else { 1.0 };
                let items = kept
                    .input
                    .items
                    .iter()
                    .enumerate()
                    .filter_map(|(i, item)| {
                        let row = kept.input.values.get(i)?;
                        let keyed: Vec<f64> = row.iter().map(|v| sign * v).collect();
                        let rank = *average_ranks(&keyed).get(j)?;
                        Some(ArmItem {
                            item: item.clone(),
                            value: *row.get(j)?,
                            rank,
                            group: kept.input.groups.as_ref().and_then(|g| g.get(i).cloned()),
                        })
                    })
                    .collect();
                ItemsView::Arm { arm: name.clone(), items }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::CompareSettings;
    use crate::outcomes::{PairingOptions, Spec};

    const LONG: &str = "item,arm,correct\n\
        q1,a,1\nq1,b,0\nq1,c,1\n\
        q2,a,1\nq2,b,1\nq2,c,0\n\
        q3,a,0\nq3,b,0\nq3,c,1\n\
        q4,a,1\nq4,b,0\nq4,c,1\n\
        q5,a,1\nq5,b,0\nq5,c,0\n\
        q6,a,1\nq6,b,1\nq6,c,1\n";

    fn run(spec: Option<Spec>) -> CompareRun {
        CompareRun {
            spec,
            options: PairingOptions::default(),
            settings: CompareSettings { bootstrap: 200, ..CompareSettings::default() },
        }
    }

    #[test]
    fn load_infers_compares_and_answers_click_throughs() {
        let mut e = CompareEngine::new();
        let mut last = 0.0;
        let r = e
            .load(vec![InputFile::new("o.csv", LONG.as_bytes())], None, &run(None), &mut |_, _, f| {
                assert!(f >= last - 1e-12, "progress goes forward");
                last = f;
            })
            .unwrap();
        assert!((last - 1.0).abs() < 1e-9);
        let info = r.table.as_ref().unwrap();
        assert_eq!(info.rows, 18);
        assert_eq!(info.inferred.arm, vec!["arm"]);
        assert_eq!(r.spec, info.inferred);
        let arm_col = info.columns.iter().find(|c| c.info.name == "arm").unwrap();
        assert_eq!(arm_col.values, vec!["a", "b", "c"]);
        let CompareOutcome::Compared { comparison, pairing } = &r.outcome else { panic!("{:?}", r.outcome) };
        assert_eq!(comparison.arms.len(), 3);
        assert_eq!(pairing.n_items, 6);

        // The same numbers as the core call the CLI makes.
        let table = read_outcome_files(&[InputFile::new("o.csv", LONG.as_bytes())], &ReadOptions::default()).unwrap();
        let direct =
            compare_table(&table, &infer_spec(&table), &PairingOptions::default(), &run(None).settings, &mut |_, _| {})
                .unwrap()
                .0;
        assert_eq!(**comparison, direct.comparison);

        match e.items(&ItemSelection::Pair { a: "a".into(), b: "b".into() }).unwrap() {
            ItemsView::Pair { items, .. } => {
                assert_eq!(items.len(), 6);
                assert!(items[0].diff.abs() >= items[5].diff.abs());
            }
            other => panic!("{other:?}"),
        }
        match e.items(&ItemSelection::Arm { arm: "c".into() }).unwrap() {
            ItemsView::Arm { items, .. } => {
                assert_eq!(items.len(), 6);
                // q1: a = 1, b = 0, c = 1 → c shares the best rank with a.
                assert_eq!((items[0].value, items[0].rank), (1.0, 1.5));
            }
            other => panic!("{other:?}"),
        }
        assert!(e.items(&ItemSelection::Arm { arm: "zzz".into() }).is_err());
    }

    #[test]
    fn refusals_are_results_and_bad_files_keep_the_table() {
        let mut e = CompareEngine::new();
        assert!(matches!(e.run(&run(None), &mut |_, _, _| {}), Err(Error::Empty(_))));
        e.load(vec![InputFile::new("o.csv", LONG.as_bytes())], None, &run(None), &mut |_, _, _| {}).unwrap();
        // Key `arm` alone does not identify items: refused, with the report.
        let bad = Spec::new(&["correct"], &["arm"], "correct");
        let r = e.run(&run(Some(bad)), &mut |_, _, _| {}).unwrap();
        assert!(matches!(r.outcome, CompareOutcome::Refused { .. }), "{:?}", r.outcome);
        assert!(e.items(&ItemSelection::Arm { arm: "a".into() }).is_err(), "no comparison kept after a refusal");
        let unknown = Spec::new(&["nope"], &["arm"], "correct");
        match e.run(&run(Some(unknown)), &mut |_, _, _| {}).unwrap().outcome {
            CompareOutcome::Refused { message, pairing } => {
                assert!(message.contains("nope"), "{message}");
                assert!(pairing.is_none());
            }
            other => panic!("{other:?}"),
        }
        let broken =
            InputFile::new("b.jsonl", b"{\"item\": 1, \"arm\": \"a\", \"correct\": 1}\n{\"item\": \n".to_vec());
        assert!(matches!(e.load(vec![broken], None, &run(None), &mut |_, _, _| {}), Err(Error::Ingest(_))));
        assert!(e.has_table());
        assert!(e.run(&run(None), &mut |_, _, _| {}).is_ok());
    }

    #[test]
    fn rescoring_rows_become_arms() {
        let settings = crate::conventions::Settings { bootstrap: 0, ..Default::default() };
        let (_, report) =
            super::super::load_and_audit(super::super::demo_files(), &settings, &mut |_, _, _| {}).unwrap();
        let mut e = CompareEngine::new();
        let mut r = run(None);
        r.options.allow_incomplete = true;
        let out = e.load_rescoring("rescoring", &report.per_query, &r, &mut |_, _, _| {}).unwrap();
        let info = out.table.unwrap();
        assert!(info.from_rescoring);
        assert_eq!(out.spec.arm, vec!["system", "target"]);
        match out.outcome {
            CompareOutcome::Compared { comparison, pairing } => {
                assert_eq!(comparison.arms.len(), 9);
                assert!(pairing.restricted_to_complete);
            }
            other => panic!("{other:?}"),
        }
    }
}
