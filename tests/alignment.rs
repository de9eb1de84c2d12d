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

/// The worked example with a continuous `ndcg` beside `hit`: each row's nDCG is a distinct value
/// (r1: 0.1 + query/10 + 0.05 per target; r2 the same plus 0.01).
fn with_ndcg(per_query: &str) -> String {
    let mut out = String::from("system,query_id,target,eligible,hit,ndcg\n");
    for l in per_query.lines().skip(1) {
        let f: Vec<&str> = l.split(',').collect();
        let q: f64 = f[1][1..].parse().unwrap();
        let bump = if f[0].starts_with("r2") { 0.01 } else { 0.0 } + if f[2] == "canonical" { 0.05 } else { 0.0 };
        let ndcg = if f[3] == "true" { format!("{}", 0.1 + q / 10.0 + bump) } else { String::new() };
        out.push_str(&format!("{l},{ndcg}\n"));
    }
    out
}

#[test]
fn a_renamed_copy_of_a_run_is_flagged() {
    let copy: String = PER_QUERY
        .lines()
        .skip(1)
        .filter(|l| l.starts_with("r1,"))
        .map(|l| format!("{}\n", l.replacen("r1,", "r1-copy,", 1)))
        .collect();
    // Run identity compares a continuous metric over every target together.
    let text = with_ndcg(&format!("{PER_QUERY}{copy}"));
    let r = run_on(&[("pq.csv", &text)], &AlignmentRequest::default()).unwrap();
    assert_eq!(r.settings.identity_metric, "ndcg");
    let id = r.identity.iter().find(|i| i.run_a == "r1" && i.run_b == "r1-copy" && i.target == "all").unwrap();
    assert!(id.flagged && id.share == Some(1.0) && id.common == 7, "{id:?}");
    let other = r.identity.iter().find(|i| i.run_a == "r1" && i.run_b == "r2" && i.target == "all").unwrap();
    assert!(!other.flagged && other.share == Some(0.0), "{other:?}");
    let hs = memaudit::capability::headlines::<Alignment>(&r);
    assert!(hs[0].text.starts_with("r1 and r1-copy have identical per-query ndcg"), "{hs:?}");
    // With the binary hit alone, runs that agree on every hit are not called one run: said why.
    let r = run_on(&[("pq.csv", &format!("{PER_QUERY}{copy}"))], &AlignmentRequest::default()).unwrap();
    assert!(r.identity.iter().all(|i| !i.flagged));
    assert!(r.notes.iter().any(|n| n.contains("`hit` is binary")), "{:?}", r.notes);
    // Two runs whose hits agree everywhere but whose nDCG differs on every query (TIAP's F5 and
    // F8) are not flagged.
    let same_hits: String = PER_QUERY
        .lines()
        .skip(1)
        .filter(|l| l.starts_with("r1,"))
        .map(|l| format!("{}\n", l.replacen("r1,", "r2b,", 1)))
        .collect();
    // r2b's nDCG differs from r1's on every eligible row (a digit appended to each).
    let text = with_ndcg(&format!("{PER_QUERY}{same_hits}"))
        .lines()
        .map(|l| if l.starts_with("r2b,") && !l.ends_with(',') { format!("{l}1\n") } else { format!("{l}\n") })
        .collect::<String>();
    let r = run_on(&[("pq.csv", &text)], &AlignmentRequest::default()).unwrap();
    let id = r.identity.iter().find(|i| i.run_a == "r1" && i.run_b == "r2b" && i.target == "all").unwrap();
    assert!(!id.flagged && id.share == Some(0.0), "{id:?}");
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
    // The reference rows have the binary hit only: identity is compared, never flagged, and said.
    assert!(r.identity.iter().any(|i| i.run_a == "hybrid" && i.run_b == "hybrid-copy" && i.share == Some(1.0)));
    assert!(r.identity.iter().all(|i| !i.flagged));
    assert!(r.settings.identity_method.starts_with("not flagged: `hit` is binary"), "{}", r.settings.identity_method);
}

#[test]
fn run_identity_over_too_many_pairs_is_said_not_computed() {
    // 700 runs: 244,650 pairs, past the identity table's budget; the rest is computed.
    let mut text = String::from("system,query_id,target,ndcg\n");
    for r in 0..700 {
        for t in ["raw", "canonical"] {
            text.push_str(&format!("r{r},q{},{t},0.{}\n", r % 5, (r * 7 + 3) % 10));
        }
    }
    let q = AlignmentRequest { metric: "ndcg".into(), ..AlignmentRequest::default() };
    let r = run_on(&[("many.csv", &text)], &q).unwrap();
    assert!(r.identity.is_empty());
    assert!(
        r.notes
            .iter()
            .any(|n| n.starts_with("run identity not computed: 700 runs make 244650 pairs, more than 200000")),
        "{:?}",
        r.notes
    );
    assert_eq!(r.runs.len(), 700);
    assert!(r.alignment.iter().any(|a| a.run == "mean_of_runs"));
}

/// The worked example in TIAP's records shape (`query_target_alignment.records.csv`: one row per
/// run and query, `T_eligible` and `T_hit_at_k` / `T_ndcg` per target, the answer score
/// `qa_f1_generated` in the same row), with a third run of another dataset: read as it is, it
/// gives the long form's report; `--filter dataset=…` keeps one dataset.
const RECORDS: &str = "run_id,dataset,query_index,qa_f1_generated,raw_eligible,raw_hit_at_k,raw_ndcg,canonical_eligible,canonical_hit_at_k,canonical_ndcg
r1,A,q1,0.8,True,1.0,0.7,True,0.0,0.0
r1,A,q2,0.0,True,0.0,0.0,True,1.0,0.5
r1,A,q3,0.6,True,1.0,0.9,True,1.0,0.8
r1,A,q4,,True,0.0,0.0,False,,
r2,A,q1,0.4,True,1.0,0.6,True,0.0,0.0
r2,A,q2,1.0,True,1.0,0.3,True,0.0,0.0
r2,A,q3,0.2,True,0.0,0.0,True,0.0,0.0
r2,A,q4,,True,1.0,0.2,False,,
r3,B,q1,0.9,True,0.0,0.0,True,1.0,1.0
";

#[test]
fn tiaps_records_read_as_shipped_equal_the_long_rows() {
    let long = run_on(&[("pq.csv", PER_QUERY), ("answers.csv", ANSWERS)], &AlignmentRequest::default()).unwrap();
    let mut one = AlignmentRequest::default();
    one.filter.insert("dataset".into(), vec!["A".into()]);
    let wide = run_on(&[("records.csv", RECORDS)], &one).unwrap();
    assert_eq!(wide.runs, long.runs);
    assert_eq!(wide.alignment, long.alignment, "the same classes, scores and averages");
    assert_eq!(wide.coverage, long.coverage);
    // The same populations, each query named with its dataset (the records number each
    // dataset's queries anew).
    let named =
        serde_json::to_string(&long.populations).unwrap().replace("\"q", "\"A | q").replace("A | queries", "queries");
    assert_eq!(serde_json::to_string(&wide.populations).unwrap(), named);
    assert_eq!(wide.readings[0].query, "dataset × query_index");
    // Without the filter the other dataset's run is there too; its q1 is not A's q1. Each run is
    // on one dataset: the runs are grouped by it, said, and the means over runs are per dataset.
    let all = run_on(&[("records.csv", RECORDS)], &AlignmentRequest::default()).unwrap();
    assert_eq!(all.runs, ["r1", "r2", "r3"]);
    assert_eq!(all.settings.group.as_deref(), Some("dataset"));
    assert!(
        all.notes.iter().any(|n| n.contains("grouped by their `dataset` (A: 2 runs, B: 1 runs)")),
        "{:?}",
        all.notes
    );
    assert!(all.identity.iter().filter(|i| i.run_b == "r3").all(|i| i.common == 0), "{:?}", all.identity);
    assert!(all.winners.iter().all(|w| w.run_b != "r3" && w.run_a != "r3"), "r3 is compared with no run of A");
    assert!(!all.notes.iter().any(|n| n.contains("share no query")), "{:?}", all.notes);
    // Dataset A's means over runs are those of A alone (the filter), and B's are r3's own.
    let group_a: Vec<_> = all
        .alignment
        .iter()
        .filter(|a| a.group == "A")
        .cloned()
        .map(|mut a| {
            a.group.clear();
            a
        })
        .collect();
    assert_eq!(group_a, wide.alignment, "the classes, scores and averages of dataset A");
    let b_mean =
        all.alignment.iter().find(|a| a.group == "B" && a.run == "mean_of_runs" && a.class == "b_only").unwrap();
    let r3 = all.alignment.iter().find(|a| a.run == "r3" && a.class == "b_only").unwrap();
    assert_eq!((b_mean.n, b_mean.mean_score), (r3.n, r3.mean_score));
    let cov_a: Vec<_> = all
        .coverage
        .iter()
        .filter(|c| c.group == "A")
        .cloned()
        .map(|mut c| {
            c.group.clear();
            c
        })
        .collect();
    assert_eq!(cov_a, wide.coverage, "the coverage confound of dataset A, its interval over A's runs");
    // Over every run (each run's gap is within the run): the mean of the three runs' gaps.
    for t in ["raw", "canonical"] {
        let gaps: Vec<f64> =
            all.coverage.iter().filter(|c| c.target == t && c.run.starts_with('r')).filter_map(|c| c.diff).collect();
        let every = all.coverage.iter().find(|c| c.target == t && c.run == "mean_of_all_runs").unwrap();
        assert!(every.group.is_empty());
        let want = (!gaps.is_empty()).then(|| gaps.iter().sum::<f64>() / gaps.len() as f64);
        assert_eq!(every.diff.map(|d| (d * 1e12).round()), want.map(|d| (d * 1e12).round()), "{t}");
    }
    // Without a `dataset` column (here renamed; r3's query named apart) nothing groups the runs:
    // r3 shares no query with r1 and r2, so it is neither ordered nor compared with them, and said.
    let renamed = RECORDS.replacen("run_id,dataset,", "run_id,corpus,", 1).replacen("r3,B,q1,", "r3,B,q9,", 1);
    let all = run_on(&[("records.csv", &renamed)], &AlignmentRequest::default()).unwrap();
    assert_eq!(all.settings.group, None);
    assert!(all.winners.iter().filter(|w| w.run_b == "r3").all(|w| w.winner.is_empty()));
    assert!(all.aggregations.iter().all(|a| a.tau_d.is_none()));
    assert!(all.notes.iter().any(|n| n.contains("runs `r1` and `r3` share no query")), "{:?}", all.notes);
    // Grouped by the column stated, r1 and r2 are ordered again.
    let grouped = AlignmentRequest { group: Some("corpus".into()), ..AlignmentRequest::default() };
    let g = run_on(&[("records.csv", &renamed)], &grouped).unwrap();
    assert!(g.aggregations.iter().any(|a| a.group == "A" && a.tau_d.is_some()));
    assert!(!g.notes.iter().any(|n| n.contains("share no query")), "{:?}", g.notes);
    assert!(!g.notes.iter().any(|n| n.contains("grouped by their `dataset`")), "a stated group is not said again");
    // The metric names the column under each target: `ndcg` reads `raw_ndcg`, `canonical_ndcg`.
    let ndcg = AlignmentRequest { metric: "ndcg".into(), ..one.clone() };
    let r = run_on(&[("records.csv", RECORDS)], &ndcg).unwrap();
    let raw_only = r.alignment.iter().find(|a| a.run == "r1" && a.class == "a_only").unwrap();
    assert_eq!(raw_only.n, 1, "r1 q1: raw nDCG 0.7 > 0, canonical 0");
    // A filter value no row holds is refused with the values there are; a metric with no
    // column under a target names the column it looked for.
    let mut typo = AlignmentRequest::default();
    typo.filter.insert("dataset".into(), vec!["C".into()]);
    let e = run_on(&[("records.csv", RECORDS)], &typo).unwrap_err().to_string();
    assert!(e.contains("no retrieval row has `C` in column `dataset`") && e.contains("`A`, `B`"), "{e}");
    let e =
        run_on(&[("records.csv", RECORDS)], &AlignmentRequest { metric: "mrr".into(), ..one }).unwrap_err().to_string();
    assert!(e.contains("records.csv") && e.contains("raw_mrr"), "{e}");
}

/// The target shifts (TIAP Tables 4, 15, Figure 3) and aggregations (Table 8) against an
/// independent NumPy/SciPy computation (`tests/reference/alignment/make_shift_reference.py`) on
/// records in TIAP's shape: two datasets of three runs, runs compared within their dataset.
#[test]
fn target_shifts_and_aggregations_equal_the_numpy_reference() {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/reference/alignment");
    let read = |n: &str| std::fs::read_to_string(dir.join(n)).unwrap();
    let records = read("records.csv");
    let q = AlignmentRequest { metric: "ndcg".into(), group: Some("dataset".into()), ..AlignmentRequest::default() };
    let r = run_on(&[("records.csv", &records)], &q).unwrap();
    let want: serde_json::Value = serde_json::from_str(&read("shift_reference.json")).unwrap();
    let close = |got: Option<f64>, w: &serde_json::Value, what: &str| match (got, w.as_f64()) {
        (Some(g), Some(x)) => assert!((g - x).abs() < 1e-12, "{what}: {g} vs {x}"),
        (None, None) => {}
        (g, _) => panic!("{what}: {g:?} vs {w}"),
    };
    assert_eq!(r.settings.shift_metric, "ndcg");
    assert_eq!(r.settings.flip_metrics, ["hit_at_k", "top1"]);
    let rows = want["shifts"].as_array().unwrap();
    assert_eq!(rows.len(), r.shifts.len(), "3 pairs × (3 runs + pooled) × 2 datasets");
    for w in rows {
        let got = r
            .shifts
            .iter()
            .find(|x| {
                x.group == w["group"] && x.run == w["run"] && x.target_a == w["target_a"] && x.target_b == w["target_b"]
            })
            .unwrap_or_else(|| panic!("no shift row {w}"));
        let what = format!("{} {} {}~{}", got.group, got.run, got.target_a, got.target_b);
        assert_eq!(got.shared as u64, w["shared"].as_u64().unwrap(), "{what} shared");
        assert_eq!(got.hit_flips.map(|x| x as u64), w["hit_flips"].as_u64(), "{what} hit flips");
        assert_eq!(got.top1_flips.map(|x| x as u64), w["top1_flips"].as_u64(), "{what} top-1 flips");
        assert_eq!(got.changed as u64, w["changed"].as_u64().unwrap(), "{what} changed");
        close(got.change_rate, &w["change_rate"], &what);
        close(got.mean_shift, &w["mean_shift"], &what);
        close(got.mean_abs_shift, &w["mean_abs_shift"], &what);
        close(got.large_share, &w["large_share"], &what);
        let counts: Vec<u64> = got.bins.iter().map(|b| b.count as u64).collect();
        let want_counts: Vec<u64> = w["bins"].as_array().unwrap().iter().map(|c| c.as_u64().unwrap()).collect();
        assert_eq!(counts, want_counts, "{what} histogram (np.histogram, 20 bins on [0, 1])");
    }
    // Target contrasts (TIAP Table 2): n, means and B − A exact; the percentile interval within
    // Monte-Carlo error of NumPy's (20,000 resamples each side; the resampling differs).
    let many = AlignmentRequest {
        bootstrap: memaudit::stats::bootstrap::Bootstrap { resamples: 20_000, ..q.bootstrap },
        ..q.clone()
    };
    let r20k = run_on(&[("records.csv", &records)], &many).unwrap();
    let rows = want["target_contrasts"].as_array().unwrap();
    assert_eq!(rows.len(), r20k.target_contrasts.len(), "3 pairs × 6 runs");
    for w in rows {
        let got = r20k
            .target_contrasts
            .iter()
            .find(|x| x.run == w["run"] && x.target_a == w["target_a"] && x.target_b == w["target_b"])
            .unwrap_or_else(|| panic!("no contrast row {w}"));
        let what = format!("{} {}~{}", got.run, got.target_a, got.target_b);
        assert_eq!(
            (got.group.as_str(), got.n as u64),
            (w["group"].as_str().unwrap(), w["n"].as_u64().unwrap()),
            "{what}"
        );
        close(got.mean_a, &w["mean_a"], &what);
        close(got.mean_b, &w["mean_b"], &what);
        close(got.diff, &w["diff"], &what);
        for end in ["low", "high"] {
            let g = if end == "low" { got.low } else { got.high }.unwrap();
            let x = w[end].as_f64().unwrap();
            assert!((g - x).abs() < 0.01, "{what} {end}: {g} vs NumPy {x}");
        }
    }
    // The histogram table: a row per bin of each shift row, the counts of the rows.
    let t = memaudit::alignment::table(&r, memaudit::alignment::AlignmentTable::ShiftHistogram);
    assert_eq!(t.rows.len(), 20 * r.shifts.len());
    assert_eq!(t.headers, ["group", "run", "target_a", "target_b", "low", "high", "count", "share"]);
    let check_aggregations = |r: &AlignmentReport, rows: &serde_json::Value, winners: &serde_json::Value| {
        let rows = rows.as_array().unwrap();
        assert_eq!(rows.len(), r.aggregations.len(), "7 methods × 6 runs");
        for w in rows {
            let got = r
                .aggregations
                .iter()
                .find(|x| x.group == w["group"] && x.run == w["run"] && x.method == w["method"])
                .unwrap_or_else(|| panic!("no aggregation row {w}"));
            let what = format!("{:?} {} {} {}", r.settings.aggregate_on, got.group, got.run, got.method);
            assert_eq!(got.n as u64, w["n"].as_u64().unwrap(), "{what} n");
            close(got.mean, &w["mean"], &what);
            assert_eq!(got.tau_d.map(|x| x as u64), w["tau_d"].as_u64(), "{what} tau_d");
        }
        let winners = winners.as_array().unwrap();
        assert_eq!(winners.len(), r.winners.len(), "3 pairs × 7 methods × 2 datasets");
        for w in winners {
            let got = r
                .winners
                .iter()
                .find(|x| {
                    x.group == w["group"] && x.run_a == w["run_a"] && x.run_b == w["run_b"] && x.method == w["method"]
                })
                .unwrap_or_else(|| panic!("no winner row {w}"));
            assert_eq!(got.winner, w["winner"].as_str().unwrap(), "{w}");
            close(got.mean_a, &w["mean_a"], "winner mean a");
        }
    };
    check_aggregations(&r, &want["aggregations"], &want["winners"]);
    assert!(r.aggregations.iter().any(|a| a.tau_d.is_some_and(|t| t > 0)), "the reference reorders some runs");
    // TIAP Table 5's fixed shared subset: every method of a dataset's runs on the same queries.
    let shared = AlignmentRequest { aggregate_on: memaudit::alignment::aggregate::Subset::Shared, ..q.clone() };
    let rs = run_on(&[("records.csv", &records)], &shared).unwrap();
    check_aggregations(&rs, &want["aggregations_shared"], &want["winners_shared"]);
    assert!(rs.winners.iter().any(|w| w.winner == "tie"), "a tie is said, not broken");
    // The same in the CSV export, under the documented column names.
    let csv = memaudit::alignment::table(&r, memaudit::alignment::AlignmentTable::Shifts).to_csv().unwrap();
    assert!(csv.starts_with("group,run,target_a,target_b,shared,hit_flips,top1_flips,changed,change_rate,"), "{csv}");
}

/// Without a group every run is compared with every other (one pooled row per pair); a run with
/// two values of the group column is refused at the line of the second; the rescoring's long
/// rows without a top-1 column leave the top-1 flips empty, not 0.
#[test]
fn shifts_without_groups_a_run_in_two_groups_and_missing_flip_columns() {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/reference/alignment");
    let records = std::fs::read_to_string(dir.join("records.csv")).unwrap();
    let q = AlignmentRequest { metric: "ndcg".into(), ..AlignmentRequest::default() };
    // Without a `dataset` column (renamed here: with it, runs each on one dataset are grouped by it).
    let ungrouped = records.replacen(",dataset,", ",corpus,", 1);
    let r = run_on(&[("records.csv", &ungrouped)], &q).unwrap();
    assert_eq!(r.settings.group, None);
    let pooled: Vec<_> = r.shifts.iter().filter(|x| x.run == "pooled").collect();
    assert_eq!(pooled.len(), 3, "one pooled row per pair over all six runs");
    for p in pooled {
        let of_runs: usize = r
            .shifts
            .iter()
            .filter(|x| x.run != "pooled" && x.target_a == p.target_a && x.target_b == p.target_b)
            .map(|x| x.shared)
            .sum();
        assert_eq!(p.shared, of_runs);
    }
    // A run whose rows carry two datasets.
    let mixed = records.replacen("lex,LoCoMo,2,", "lex,LME,2,", 1);
    let e = run_on(&[("records.csv", &mixed)], &AlignmentRequest { group: Some("dataset".into()), ..q.clone() })
        .unwrap_err();
    let m = e.to_string();
    assert!(
        m.contains("records.csv") && m.contains("line 3") && m.contains("dataset") && m.contains("two groups"),
        "{m}"
    );
    // A group column the file lacks.
    let e = run_on(&[("records.csv", &records)], &AlignmentRequest { group: Some("split".into()), ..q }).unwrap_err();
    assert!(e.to_string().contains("split"), "{e}");
    // The long rows of the hand example: hit only.
    let r = run_on(&[("pq.csv", PER_QUERY)], &AlignmentRequest::default()).unwrap();
    assert_eq!(r.settings.flip_metrics, ["hit"]);
    let r1 = r.shifts.iter().find(|x| x.run == "r1").unwrap();
    // r1's shared queries q1..q3: hit 1/0, 0/1, 1/1 → 2 flips, 2 changed.
    assert_eq!((r1.shared, r1.hit_flips, r1.top1_flips, r1.changed), (3, Some(2), None, 2));
}

/// A retrieval or answer file with a header and no row beside others is refused by name: its
/// run would drop out unsaid.
#[test]
fn a_file_without_rows_beside_others_is_refused_by_name() {
    let header = PER_QUERY.lines().next().unwrap().to_string() + "\n";
    let e = run_on(&[("pq.csv", PER_QUERY), ("pq2.csv", &header)], &AlignmentRequest::default()).unwrap_err();
    assert!(e.to_string().starts_with("pq2.csv: no retrieval or answer rows could be read from it"), "{e}");
    let answers_header = ANSWERS.lines().next().unwrap().to_string() + "\n";
    let e =
        run_on(&[("pq.csv", PER_QUERY), ("answers.csv", &answers_header)], &AlignmentRequest::default()).unwrap_err();
    assert!(e.to_string().starts_with("answers.csv: no retrieval or answer rows"), "{e}");
}
