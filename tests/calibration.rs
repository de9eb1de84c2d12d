//! `memaudit calibration` against scikit-learn, statsmodels and NumPy
//! (`tests/reference/calibration`, made by `make_calibration_reference.py`): the help/hurt
//! ledger, the AUC with its DeLong standard error, ECE / Brier / log loss raw and after Platt
//! scaling fitted on one split, Wilson intervals per confidence bin and the routing sweep. Then
//! the refusals: Platt on the split it is scored on, probabilities outside [0, 1], located errors.

use std::path::PathBuf;

use memaudit::calibration::{Calibration, CalibrationReport, CalibrationRequest, Scale};
use memaudit::capability::{FileRole, assign_roles, quiet, run_once};
use memaudit::error::Error;
use memaudit::ingest::InputFile;
use serde_json::Value;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/reference/calibration")
}

/// An error as the command line says it (settings it mentions spelt `--name`).
trait Said {
    fn said(&self) -> String;
}

impl Said for Error {
    fn said(&self) -> String {
        memaudit::fields::render_mentions(&self.to_string(), memaudit::command_line::word)
    }
}

fn run_on(file: InputFile, q: &CalibrationRequest) -> Result<CalibrationReport, Error> {
    let files = assign_roles::<Calibration>(vec![(file, Some(FileRole::Routing))])?;
    run_once::<Calibration>(&files, q, &mut quiet()).map(|(_, r)| r)
}

fn routing() -> InputFile {
    InputFile::new("routing.csv", std::fs::read(dir().join("routing.csv")).unwrap())
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn every_statistic_equals_the_python_reference() {
    let want: Value = serde_json::from_slice(&std::fs::read(dir().join("reference.json")).unwrap()).unwrap();
    let q = CalibrationRequest { split: Some("split".into()), fit: vec!["0".into()], ..CalibrationRequest::default() };
    let r = run_on(routing(), &q).unwrap();
    let l = &r.ledger[0];
    assert_eq!(
        (l.n as u64, l.help as u64, l.hurt as u64),
        (450, want["ledger"]["help"].as_u64().unwrap(), want["ledger"]["hurt"].as_u64().unwrap())
    );
    let auc = r.auc.as_ref().unwrap();
    assert!(close(auc.auc, want["auc"].as_f64().unwrap(), 1e-12), "{auc:?}");
    assert!(close(auc.se.unwrap(), want["auc_se"].as_f64().unwrap(), 1e-12), "{auc:?}");
    let p = r.platt.as_ref().unwrap();
    assert!(
        close(p.a, want["platt"]["a"].as_f64().unwrap(), 1e-7)
            && close(p.b, want["platt"]["b"].as_f64().unwrap(), 1e-7),
        "{p:?}"
    );
    let rows = want["calibration"].as_array().unwrap();
    assert_eq!(r.calibration.len(), rows.len());
    for (got, w) in r.calibration.iter().zip(rows) {
        assert_eq!(
            (got.method.as_str(), got.split.as_str()),
            (w["method"].as_str().unwrap(), w["split"].as_str().unwrap())
        );
        for (g, key) in [(got.ece, "ece"), (got.brier, "brier"), (got.log_loss, "log_loss")] {
            assert!(
                close(g.unwrap(), w[key].as_f64().unwrap(), 1e-9),
                "{} {} {key}: {g:?} vs {}",
                got.method,
                got.split,
                w[key]
            );
        }
    }
    let bins = want["bins"].as_array().unwrap();
    assert_eq!(r.bins.len(), bins.len());
    for (got, w) in r.bins.iter().zip(bins) {
        assert_eq!(got.n as u64, w["n"].as_u64().unwrap());
        assert!(close(got.accuracy_without, w["accuracy_without"].as_f64().unwrap(), 1e-12));
        assert!(close(got.without_low.unwrap(), w["without_low"].as_f64().unwrap(), 1e-12));
        assert!(close(got.without_high.unwrap(), w["without_high"].as_f64().unwrap(), 1e-12));
    }
    for (got, w) in r.sweep.iter().zip(want["sweep"].as_array().unwrap()) {
        for (g, key) in [
            (got.tau, "tau"),
            (got.inject_fraction, "inject_fraction"),
            (got.accuracy, "accuracy"),
            (got.delta, "delta"),
        ] {
            assert!(close(g, w[key].as_f64().unwrap(), 1e-12), "p{} {key}", got.percentile);
        }
    }
    // A log-probability column gives the same raw calibration with --scale logprob.
    let q = CalibrationRequest {
        confidence: Some("logprob".into()),
        scale: Scale::Logprob,
        split: Some("split".into()),
        ..CalibrationRequest::default()
    };
    let lp = run_on(routing(), &q).unwrap();
    assert!(close(lp.calibration[0].brier.unwrap(), rows[0]["brier"].as_f64().unwrap(), 1e-9));
}

fn text(body: &str) -> InputFile {
    InputFile::new("rows.csv", body.as_bytes().to_vec())
}

#[test]
fn platt_is_never_scored_on_its_fit_split_and_bad_settings_are_refused() {
    let all = CalibrationRequest {
        split: Some("split".into()),
        fit: vec!["0".into(), "1".into(), "2".into()],
        ..CalibrationRequest::default()
    };
    let e = run_on(routing(), &all).unwrap_err().said();
    assert!(e.contains("leave at least one split"), "{e}");
    let absent =
        CalibrationRequest { split: Some("split".into()), fit: vec!["9".into()], ..CalibrationRequest::default() };
    assert!(run_on(routing(), &absent).unwrap_err().said().contains("split `9`"));
    let no_split = CalibrationRequest { fit: vec!["0".into()], ..CalibrationRequest::default() };
    assert!(run_on(routing(), &no_split).unwrap_err().said().contains("--split"));
    // Log-probabilities read as probabilities: refused with the fix.
    let lp = CalibrationRequest { confidence: Some("logprob".into()), ..CalibrationRequest::default() };
    assert!(run_on(routing(), &lp).unwrap_err().said().contains("--scale logprob"));
}

#[test]
fn rows_without_values_are_counted_and_bad_cells_located() {
    let r = run_on(text("item,confidence,correct\na,0.4,1\nb,,0\nc,0.9,NA\nd,0.7,0\n"), &CalibrationRequest::default())
        .unwrap();
    assert_eq!((r.items, r.missing.count), (2, 2));
    assert_eq!(r.missing.examples[0].line, 3);
    let e = run_on(text("item,confidence,correct\na,0.4,1\nb,high,0\n"), &CalibrationRequest::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("rows.csv") && e.contains("line 3") && e.contains("confidence"), "{e}");
    let e = run_on(text("item,confidence,correct\na,0.4,maybe\n"), &CalibrationRequest::default()).unwrap_err().said();
    assert!(e.contains("line 2") && e.contains("correct"), "{e}");
    let e = run_on(text("item,p,y\na,0.4,1\n"), &CalibrationRequest::default()).unwrap_err().said();
    assert!(e.contains("--confidence"), "{e}");
}

/// A file whose rows all lack a confidence or an outcome is refused naming the first row left
/// out (file, line, column); a file with a header and no row says so.
#[test]
fn nothing_to_score_names_the_first_row_left_out() {
    let q = CalibrationRequest::default();
    let blank = InputFile::new("r.csv", b"item,confidence,correct\nq1,0.4,\nq2,,1\nq3,NA,0\n".to_vec());
    let e = run_on(blank, &q).unwrap_err().said();
    assert!(e.contains("3 rows left out, the first at r.csv, line 2: correct: no outcome"), "{e}");
    let header = InputFile::new("h.csv", b"item,confidence,correct\n".to_vec());
    let e = run_on(header, &q).unwrap_err().said();
    assert!(e.contains("no rows below their header") && e.contains("h.csv"), "{e}");
}

/// TAG's bank governance against NumPy (`tests/reference/calibration/governance.py`): routing
/// rows naming the entries each item retrieved, evidence from the fit and dev splits, the mean
/// utility, both Hoeffding radii and the retirements they give, at two δ. The published radius
/// retires entries the textbook one keeps, and a headline says so.
#[test]
fn bank_governance_equals_the_numpy_reference() {
    use memaudit::calibration::governance::Radius;
    let want: Value = serde_json::from_slice(&std::fs::read(dir().join("governance_reference.json")).unwrap()).unwrap();
    let file = || InputFile::new("governance.csv", std::fs::read(dir().join("governance.csv")).unwrap());
    for (delta, radius) in [(0.05, Radius::Published), (0.2, Radius::Textbook)] {
        let q = CalibrationRequest {
            split: Some("split".into()),
            governance_splits: vec!["fit".into(), "dev".into()],
            retire_delta: delta,
            retire_radius: radius,
            ..CalibrationRequest::default()
        };
        let r = run_on(file(), &q).unwrap();
        let g = r.governance.as_ref().unwrap();
        let entries = want["deltas"][delta.to_string()].as_object().unwrap();
        assert_eq!(g.entries.len(), entries.len());
        for e in &g.entries {
            let w = &entries[&e.entry];
            assert_eq!(
                (e.n as u64, e.helps as u64, e.hurts as u64),
                (w["n"].as_u64().unwrap(), w["helps"].as_u64().unwrap(), w["hurts"].as_u64().unwrap())
            );
            for (got, key) in
                [(e.mean, "mean"), (e.radius_published, "radius_published"), (e.radius_textbook, "radius_textbook")]
            {
                assert!(close(got, w[key].as_f64().unwrap(), 1e-12), "{} {key}: {got} vs {}", e.entry, w[key]);
            }
            let (p, t) = (w["retired_published"].as_bool().unwrap(), w["retired_textbook"].as_bool().unwrap());
            let (chosen, other) = if radius == Radius::Published { (p, t) } else { (t, p) };
            assert_eq!((e.retired, e.retired_other), (chosen, other), "{}", e.entry);
        }
        assert!(g.entries.windows(2).all(|w| w[0].ucb <= w[1].ucb), "lowest upper bound first");
        let mut seen = g.evidence_splits.clone();
        seen.sort();
        assert_eq!(seen, ["dev", "fit"]);
        let hs = memaudit::capability::headlines::<Calibration>(&r);
        assert!(hs.iter().any(|h| h.text.starts_with("The radius decides retirement")), "{hs:#?}");
        let t = memaudit::calibration::table(&r, memaudit::calibration::CalibrationTable::Governance);
        assert_eq!(t.rows.len(), g.entries.len());
    }
    // Without governance splits every row gives evidence, the test split's too: said.
    let q = CalibrationRequest { split: Some("split".into()), ..CalibrationRequest::default() };
    let r = run_on(file(), &q).unwrap();
    let g = r.governance.as_ref().unwrap();
    let mut seen = g.evidence_splits.clone();
    seen.sort();
    assert_eq!(seen, ["dev", "fit", "test"]);
    let hs = memaudit::capability::headlines::<Calibration>(&r);
    assert!(hs.iter().any(|h| h.text.starts_with("Entry evidence is drawn from every split")), "{hs:#?}");
    // Governance splits without the split column are refused, naming the setting.
    let q = CalibrationRequest { governance_splits: vec!["fit".into()], ..CalibrationRequest::default() };
    let e = run_on(file(), &q).unwrap_err().said();
    assert!(e.contains("governance_splits") && e.contains("(--split)"), "{e}");
    // A routing file without entries has no governance.
    assert!(run_on(routing(), &CalibrationRequest::default()).unwrap().governance.is_none());
}
