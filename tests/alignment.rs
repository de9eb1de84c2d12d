//! `memaudit alignment` on a worked example small enough to check by hand: classes, the mean of
//! per-run means against the pooled mean, the coverage confound over runs, run identity, and
//! refusals that name the file, line and column.

use memaudit::alignment::{Alignment, AlignmentReport, AlignmentRequest};
use memaudit::capability::{FileRole, assign_roles, quiet, run_once};
use memaudit::error::Error;
use memaudit::ingest::InputFile;

fn run_on(files: &[(&str, &str)], q: &AlignmentRequest) -> Result<AlignmentReport, Error> {
    let files = assign_roles::<Alignment>(
        files.iter().map(|(n, t)| (InputFile::new(*n, t.as_bytes().to_vec()), Some(FileRole::AlignmentRows))).collect(),
    )?;
    run_once::<Alignment>(&files, q, &mut quiet()).map(|(_, r)| r)
}

/// Run r1: q1 raw-only (F1 0.8), q2 canonical-only (0.0), q3 both (0.6), q4 raw only eligible.
/// Run r2: q1 raw-only (0.4), q2 raw-only (1.0), q3 neither (0.2), q4 raw only eligible.
const PER_QUERY: &str = "system,query_id,target,eligible,hit
r1,q1,raw,true,1
r1,q1,canonical,true,0
r1,q2,raw,true,0
r1,q2,canonical,true,1
r1,q3,raw,true,1
r1,q3,canonical,true,1
r1,q4,raw,true,0
r1,q4,canonical,false,
r2,q1,raw,true,1
r2,q1,canonical,true,0
r2,q2,raw,true,1
r2,q2,canonical,true,0
r2,q3,raw,true,0
r2,q3,canonical,true,0
r2,q4,raw,true,1
r2,q4,canonical,false,
";

const ANSWERS: &str = "system,query_id,f1
r1,q1,0.8
r1,q2,0.0
r1,q3,0.6
r2,q1,0.4
r2,q2,1.0
r2,q3,0.2
r9,q1,0.5
";

#[test]
fn classes_averaging_coverage_and_identity_by_hand() {
    let r = run_on(&[("pq.csv", PER_QUERY), ("answers.csv", ANSWERS)], &AlignmentRequest::default()).unwrap();
    assert_eq!(r.answers_unmatched, 1, "r9 has no retrieval row");
    let get = |run: &str, class: &str| r.alignment.iter().find(|a| a.run == run && a.class == class).unwrap();
    let a1 = get("r1", "a_only");
    assert_eq!((a1.n, a1.mean_score, a1.strong_share), (1, Some(0.8), Some(1.0)));
    let a2 = get("r2", "a_only");
    assert_eq!(a2.n, 2);
    assert!((a2.mean_score.unwrap() - 0.7).abs() < 1e-12 && a2.strong_share == Some(0.5));
    // Mean of per-run means (0.8 + 0.7)/2 = 0.75 vs pooled (0.8 + 0.4 + 1.0)/3 = 0.7333.
    assert!((get("mean_of_runs", "a_only").mean_score.unwrap() - 0.75).abs() < 1e-12);
    assert!((get("pooled", "a_only").mean_score.unwrap() - 2.2 / 3.0).abs() < 1e-12);
    let b1 = get("r1", "b_only");
    assert_eq!((b1.n, b1.positive_share), (1, Some(0.0)));
    assert_eq!(get("r2", "b_only").n, 0);
    assert_eq!(get("r2", "b_only").mean_score, None);
    assert_eq!(get("mean_of_runs", "b_only").mean_score, Some(0.0), "one run has b_only queries");
    // Coverage: raw on canonical-covered (q1..q3) vs uncovered (q4): r1 2/3 − 0, r2 2/3 − 1.
    let cov = |run: &str| r.coverage.iter().find(|c| c.run == run && c.target == "raw").unwrap();
    assert!((cov("r1").diff.unwrap() - 2.0 / 3.0).abs() < 1e-12);
    assert!((cov("r2").diff.unwrap() + 1.0 / 3.0).abs() < 1e-12);
    let summary = cov("mean_of_runs");
    assert!((summary.diff.unwrap() - 1.0 / 6.0).abs() < 1e-12);
    assert!(summary.low.unwrap() <= summary.diff.unwrap() && summary.diff.unwrap() <= summary.high.unwrap());
    // Identity: raw metrics agree on q1 only (q2, q3, q4 differ) → 1/4.
    let id = r.identity.iter().find(|i| i.target == "raw").unwrap();
    assert_eq!((id.common, id.identical, id.flagged), (4, 1, false));
}

#[test]
fn a_renamed_copy_of_a_run_is_flagged() {
    let copy: String = PER_QUERY
        .lines()
        .skip(1)
        .filter(|l| l.starts_with("r1,"))
        .map(|l| format!("{}\n", l.replacen("r1,", "r1-copy,", 1)))
        .collect();
    let r = run_on(&[("pq.csv", &format!("{PER_QUERY}{copy}"))], &AlignmentRequest::default()).unwrap();
    let id = r.identity.iter().find(|i| i.run_a == "r1" && i.run_b == "r1-copy" && i.target == "raw").unwrap();
    assert!(id.flagged && id.share == Some(1.0));
    let hs = memaudit::capability::headlines::<Alignment>(&r);
    assert!(hs[0].text.starts_with("r1 and r1-copy have identical per-query metrics"), "{hs:?}");
}

#[test]
fn bad_rows_are_located() {
    let e =
        run_on(&[("pq.csv", "system,query_id,target,eligible,hit\nr1,q1,raw,maybe,1\n")], &AlignmentRequest::default())
            .unwrap_err()
            .to_string();
    assert!(e.contains("pq.csv") && e.contains("line 2") && e.contains("eligible"), "{e}");
    let e = run_on(
        &[
            ("pq.csv", "system,query_id,target,eligible,hit\nr1,q1,raw,true,1\n"),
            ("a.csv", "system,query_id,f1\nr1,q1,1.5\n"),
        ],
        &AlignmentRequest::default(),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("a.csv") && e.contains("line 2") && e.contains("[0, 1]"), "{e}");
    let e = run_on(
        &[("pq.csv", "system,query_id,target,eligible,hit\nr1,q1,raw,true,1\nr1,q1,raw,true,0\n")],
        &AlignmentRequest::default(),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("line 3") && e.contains("twice"), "{e}");
    let q = AlignmentRequest { target_b: "raw".into(), ..AlignmentRequest::default() };
    assert!(run_on(&[("pq.csv", PER_QUERY)], &q).unwrap_err().to_string().contains("two different targets"));
}

/// Every number against an independent NumPy computation (`tests/reference/alignment`, made by
/// `make_alignment_reference.py`): classes per run, the mean of per-run values and the pooled
/// values, the coverage differences and the identity shares (a renamed copy is flagged).
#[test]
fn every_number_equals_the_numpy_reference() {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/reference/alignment");
    let read = |n: &str| std::fs::read_to_string(dir.join(n)).unwrap();
    let (pq, answers) = (read("per_query.csv"), read("answers.csv"));
    let r = run_on(&[("per_query.csv", &pq), ("answers.csv", &answers)], &AlignmentRequest::default()).unwrap();
    let want: serde_json::Value = serde_json::from_str(&read("reference.json")).unwrap();
    let close = |got: Option<f64>, w: &serde_json::Value, what: &str| match (got, w.as_f64()) {
        (Some(g), Some(x)) => assert!((g - x).abs() < 1e-12, "{what}: {g} vs {x}"),
        (None, None) => {}
        (g, _) => panic!("{what}: {g:?} vs {w}"),
    };
    let rows = want["alignment"].as_array().unwrap();
    assert_eq!(rows.len(), r.alignment.len());
    for w in rows {
        let got = r.alignment.iter().find(|a| a.run == w["run"] && a.class == w["class"]).unwrap();
        let what = format!("{} {}", got.run, got.class);
        assert_eq!(got.n as u64, w["n"].as_u64().unwrap(), "{what} n");
        close(got.mean_score, &w["mean_score"], &what);
        close(got.positive_share, &w["positive_share"], &what);
        close(got.strong_share, &w["strong_share"], &what);
    }
    for w in want["coverage"].as_array().unwrap() {
        let got = r.coverage.iter().find(|c| c.run == w["run"] && c.target == "raw").unwrap();
        close(got.covered_mean, &w["covered_mean"], "covered");
        close(got.uncovered_mean, &w["uncovered_mean"], "uncovered");
        close(got.diff, &w["diff"], "diff");
    }
    for w in want["identity"].as_array().unwrap() {
        let got = r
            .identity
            .iter()
            .find(|i| i.run_a == w["run_a"] && i.run_b == w["run_b"] && i.target == w["target"])
            .unwrap();
        close(got.share, &w["share"], "identity");
    }
    assert!(r.identity.iter().any(|i| i.run_a == "hybrid" && i.run_b == "hybrid-copy" && i.flagged));
}
