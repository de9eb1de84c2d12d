//! `memaudit compliance` and `memaudit power` against NumPy, SciPy and statsmodels
//! (`tests/reference/compliance`, made by `make_compliance_reference.py`): κ and return on
//! tokens with their delta-method errors, the conditional κ, Wilson intervals, OLS depth slopes,
//! the power table and the calculator, compliance by recall bin and the failure modes. Then BriefBench's released rows as shipped (Run A's
//! numbers), the margins' d*, and the refusals with their locations.

use std::path::PathBuf;

use memaudit::capability::{FileRole, Validate, assign_roles, quiet, run_once};
use memaudit::compliance::{Compliance, ComplianceReport, ComplianceRequest};
use memaudit::error::Error;
use memaudit::ingest::InputFile;
use memaudit::stats::bootstrap::Bootstrap;
use memaudit::stats::power::{Design, PowerRequest, calculate};
use serde_json::Value;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/reference/compliance")
}

fn run_on(files: Vec<InputFile>, q: &ComplianceRequest) -> Result<ComplianceReport, Error> {
    q.validate()?;
    let files = assign_roles::<Compliance>(files.into_iter().map(|f| (f, Some(FileRole::ComplianceRows))).collect())?;
    run_once::<Compliance>(&files, q, &mut quiet()).map(|(_, r)| r)
}

fn rows() -> InputFile {
    InputFile::new("rows.csv", std::fs::read(dir().join("rows.csv")).unwrap())
}

fn close(got: Option<f64>, want: &Value, tol: f64) -> bool {
    match (got, want.as_f64()) {
        (Some(g), Some(w)) => (g - w).abs() <= tol * w.abs().max(1.0),
        (None, None) => true,
        _ => false,
    }
}

fn reference() -> Value {
    serde_json::from_slice(&std::fs::read(dir().join("reference.json")).unwrap()).unwrap()
}

fn request() -> ComplianceRequest {
    ComplianceRequest {
        group: vec!["dataset".into()],
        focus: Some("x".into()),
        claimed_effect: Some(0.1),
        bootstrap: Bootstrap { resamples: 2000, seed: 7, confidence: 0.95 },
        ..ComplianceRequest::default()
    }
}

#[test]
fn arms_cells_and_slopes_equal_the_python_reference() {
    let want = reference();
    let r = run_on(vec![rows()], &request()).unwrap();
    let arms = want["arms"].as_array().unwrap();
    assert_eq!(r.arms.len(), arms.len());
    for w in arms {
        let g = r.arms.iter().find(|a| a.group == w["group"] && a.arm == w["arm"]).unwrap();
        assert_eq!((g.n as u64, g.binary), (w["n"].as_u64().unwrap(), w["binary"].as_bool().unwrap()));
        assert_eq!(g.kappa_conditional_n as u64, w["kappa_conditional_n"].as_u64().unwrap());
        for (got, key) in [
            (Some(g.compliance), "compliance"),
            (g.recall, "recall"),
            (g.kappa, "kappa"),
            (g.kappa_se, "kappa_se"),
            (g.kappa_se_independent, "kappa_se_independent"),
            (g.kappa_conditional, "kappa_conditional"),
            (g.rot, "rot"),
            (g.rot_se, "rot_se"),
            (g.rot_se_independent, "rot_se_independent"),
            (g.kappa_se_sample, "kappa_se_sample"),
            (g.kappa_se_independent_sample, "kappa_se_independent_sample"),
            (g.rot_se_sample, "rot_se_sample"),
            (g.rot_se_independent_sample, "rot_se_independent_sample"),
            (g.rot_mean_of_ratios, "rot_mean_of_ratios"),
            (g.hoeffding, "hoeffding"),
        ] {
            assert!(close(got, &w[key], 1e-12), "{} {} {key}: {got:?} vs {}", g.group, g.arm, w[key]);
        }
        if g.binary {
            for (got, key) in [
                (g.compliance_low, "compliance_low"),
                (g.compliance_high, "compliance_high"),
                (g.kappa_conditional_low, "kappa_conditional_low"),
                (g.kappa_conditional_high, "kappa_conditional_high"),
            ] {
                assert!(close(got, &w[key], 1e-9), "{} {} {key}: {got:?} vs {}", g.group, g.arm, w[key]);
            }
            assert_eq!(g.compliance_interval, "wilson");
        } else {
            assert_eq!(g.compliance_interval, "bootstrap");
        }
        // The delta-method interval is κ ± z·se; the bootstrap one is near it.
        let (k, se) = (g.kappa.unwrap(), g.kappa_se.unwrap());
        assert!((g.kappa_delta_low.unwrap() - (k - 1.959963984540054 * se)).abs() < 1e-12);
        let boot_half = (g.kappa_boot_high.unwrap() - g.kappa_boot_low.unwrap()) / 2.0;
        assert!((boot_half / (1.96 * se) - 1.0).abs() < 0.35, "{} {}: {boot_half} vs {se}", g.group, g.arm);
    }
    for w in want["cells"].as_array().unwrap() {
        let c = r
            .depth
            .iter()
            .find(|c| c.group == w["group"] && c.arm == w["arm"] && c.depth == w["depth"].as_f64().unwrap())
            .unwrap();
        assert_eq!(c.n as u64, w["n"].as_u64().unwrap());
        assert!(close(Some(c.compliance), &w["compliance"], 1e-12));
        if w.get("low").is_some() {
            assert!(close(c.low, &w["low"], 1e-9) && close(c.high, &w["high"], 1e-9), "{c:?}");
        }
    }
    for w in want["slopes"].as_array().unwrap() {
        let s = r.slopes.iter().find(|s| s.group == w["group"] && s.arm == w["arm"]).unwrap();
        for (got, key) in
            [(s.slope, "slope"), (s.intercept, "intercept"), (s.slope_se, "slope_se"), (s.endpoint, "endpoint")]
        {
            assert!(close(got, &w[key], 1e-10), "{} {} {key}: {got:?} vs {}", s.group, s.arm, w[key]);
        }
        assert!(s.slope_low.unwrap() <= s.slope.unwrap() && s.slope.unwrap() <= s.slope_high.unwrap());
    }
}

/// Baron–Kenny through recall against statsmodels OLS (compliance ~ 1 + arm + recall).
#[test]
fn mediation_equals_statsmodels_ols() {
    let want = reference();
    let r = run_on(vec![rows()], &request()).unwrap();
    let ws = want["mediation"].as_array().unwrap();
    assert_eq!(r.mediation.len(), ws.len());
    for w in ws {
        let m = r.mediation.iter().find(|m| m.group == w["group"] && m.against == w["against"]).unwrap();
        assert_eq!(m.n as u64, w["n"].as_u64().unwrap());
        for (got, key) in [(m.total, "total"), (m.a, "a"), (m.direct, "direct"), (m.b, "b"), (m.indirect, "indirect")] {
            assert!(close(Some(got), &w[key], 1e-9), "{} {} {key}: {got} vs {}", m.group, m.against, w[key]);
        }
        // indirect = a·b (OLS algebra on the same rows)
        assert!((m.indirect - m.a * m.b).abs() < 1e-9, "{m:?}");
        assert!(m.indirect_low.unwrap() <= m.indirect && m.indirect <= m.indirect_high.unwrap());
    }
}

/// Compliance by recall bin and the failure modes (BriefBench Tables 45 and 34) against NumPy,
/// the bins' Wilson intervals against statsmodels: every bin of every (dataset, arm), empty ones
/// included, in the same order.
#[test]
fn recall_bins_and_failures_equal_numpy() {
    let want = reference();
    let r = run_on(vec![rows()], &request()).unwrap();
    let bins = want["recall_bins"].as_array().unwrap();
    assert_eq!(r.recall_bins.len(), bins.len());
    for (got, w) in r.recall_bins.iter().zip(bins) {
        let at = format!("{} {} {}", got.group, got.arm, got.bin);
        assert_eq!(
            (got.group.as_str(), got.arm.as_str(), got.bin.as_str()),
            (w["group"].as_str().unwrap(), w["arm"].as_str().unwrap(), w["bin"].as_str().unwrap())
        );
        assert_eq!(got.n as u64, w["n"].as_u64().unwrap(), "{at}");
        for (g, key) in [(got.compliance, "compliance"), (got.low, "low"), (got.high, "high")] {
            assert!(close(g, &w[key], 1e-9), "{at} {key}: {g:?} vs {}", w[key]);
        }
    }
    let failures = want["failures"].as_array().unwrap();
    assert_eq!(r.failures.len(), failures.len());
    for (got, w) in r.failures.iter().zip(failures) {
        assert_eq!((got.group.as_str(), got.arm.as_str()), (w["group"].as_str().unwrap(), w["arm"].as_str().unwrap()));
        let counts = [got.n, got.failures, got.not_retrieved, got.retrieved_not_used, got.partial];
        let keys = ["n", "failures", "not_retrieved", "retrieved_not_used", "partial"];
        for (c, k) in counts.iter().zip(keys) {
            assert_eq!(*c as u64, w[k].as_u64().unwrap(), "{} {} {k}", got.group, got.arm);
        }
        assert_eq!(got.no_recall, 0);
        if got.failures > 0 {
            let share = got.not_retrieved_share.unwrap() + got.retrieved_not_used_share.unwrap();
            assert!((share - 1.0).abs() < 1e-12);
        }
    }
}

#[test]
fn power_rows_equal_statsmodels() {
    let want = reference();
    let r = run_on(vec![rows()], &request()).unwrap();
    for w in want["power_rows"].as_array().unwrap() {
        let p = r.power.iter().find(|p| p.group == w["group"] && p.against == w["against"]).unwrap();
        assert!(close(Some(p.delta), &w["delta"], 1e-12));
        assert!(close(p.power, &w["power"], 1e-9), "{p:?} vs {w}");
        assert!(close(p.mde, &w["mde"], 1e-8), "{p:?} vs {w}");
        assert!(close(p.n_needed, &w["n_needed"], 1e-9), "{p:?} vs {w}");
        assert!(close(p.power_at_claim, &w["power_at_claim"], 1e-9), "{p:?} vs {w}");
        // Fisher's exact test of the 0/1 arms (scipy.stats.fisher_exact); none for rates.
        assert!(close(p.fisher_p, w.get("fisher_p").unwrap_or(&Value::Null), 1e-9), "{p:?} vs {w}");
        assert!(close(p.odds_ratio, w.get("odds_ratio").unwrap_or(&Value::Null), 1e-12), "{p:?} vs {w}");
        // Cliff's δ: the mean sign of every pair of rows (NumPy, brute force).
        assert!(close(p.cliffs_delta, &w["cliffs_delta"], 1e-12), "{p:?} vs {w}");
        // MDE above the claimed 0.1: too small to detect it.
        assert_eq!(p.verdict, "claim_undetectable");
    }
    let binary = r.power.iter().find(|p| p.group == "dataset=binary").unwrap();
    assert_eq!(binary.design, Design::TwoProportions);
    let rates = r.power.iter().find(|p| p.group == "dataset=rates").unwrap();
    assert_eq!(rates.design, Design::TwoMeans);
}

#[test]
fn the_calculator_equals_statsmodels() {
    let want = reference();
    for w in want["calculations"].as_array().unwrap() {
        let design: Design = serde_json::from_value(w["design"].clone()).unwrap();
        let f = |k: &str| w.get(k).and_then(Value::as_f64).unwrap_or_default();
        let q = PowerRequest {
            design,
            n: f("n"),
            p1: f("p1"),
            p2: f("p2"),
            p10: f("p10"),
            p01: f("p01"),
            delta: f("delta"),
            sd: if w.get("sd").is_some() { f("sd") } else { 0.3 },
            ..PowerRequest::default()
        };
        q.validate().unwrap();
        let r = calculate(&q);
        assert!(close(r.power, &w["power"], 1e-9), "{w}: {r:?}");
        // statsmodels solves for n with both tails; the closed form drops the far one (< 1e-5).
        let want_n = w["n_needed"].as_f64().unwrap();
        assert!((r.n_needed.unwrap() / want_n - 1.0).abs() < 1e-5, "{w}: {r:?}");
        // The MDE is the effect whose power is the target.
        if let Some(m) = r.mde
            && design == Design::PairedMeans
        {
            let at = calculate(&PowerRequest { delta: m, ..q.clone() });
            assert!((at.power.unwrap() - 0.8).abs() < 1e-9);
        }
    }
    // seed-002 A21/A32: Hoeffding at n = 12 is vacuous (1.573); the 95% half-width at n = 40 is 0.2147.
    let r = calculate(&PowerRequest { n: 12.0, p1: 0.6, p2: 0.5, ..PowerRequest::default() });
    assert!((r.hoeffding_bound.unwrap() - 1.5733).abs() < 1e-4);
    let r = calculate(&PowerRequest { n: 40.0, ..PowerRequest::default() });
    assert!((r.hoeffding_half_width.unwrap() - 0.2147).abs() < 1e-4);
    assert!(PowerRequest { alpha: 1.5, ..PowerRequest::default() }.validate().is_err());
    assert!(
        PowerRequest { design: Design::PairedProportions, p10: 0.7, p01: 0.6, ..PowerRequest::default() }
            .validate()
            .is_err()
    );
}

fn briefbench() -> InputFile {
    let p =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures/external/BriefBench/all_rows_claude.jsonl");
    InputFile::new("all_rows_claude.jsonl", std::fs::read(p).unwrap())
}

/// The released rows are BriefBench's Run A (seed-002 §0): synthetic d = 3 is Brief 40/40,
/// dense 27/40, bm25 28/40; return on tokens Brief 0.845, bm25 0.757, dense 0.699 (example (i),
/// the repo's metrics_matrix.csv 0.8451/0.7566/0.6989, the mean of per-task ratios).
#[test]
fn briefbench_rows_as_shipped_give_run_a() {
    let q = ComplianceRequest {
        group: vec!["dataset".into(), "spec_variant".into()],
        focus: Some("brief_graph_3hop".into()),
        claimed_effect: Some(0.1),
        bootstrap: Bootstrap { resamples: 1000, seed: 1, confidence: 0.95 },
        ..ComplianceRequest::default()
    };
    let r = run_on(vec![briefbench()], &q).unwrap();
    assert_eq!(r.rows, 1824);
    assert!(r.pooled.is_empty(), "{:?}", r.pooled);
    let g = "dataset=synthetic, spec_variant=stripped";
    let cell = |arm: &str, d: f64| r.depth.iter().find(|c| c.group == g && c.arm == arm && c.depth == d).unwrap();
    assert_eq!((cell("brief_graph_3hop", 3.0).compliance * 40.0).round(), 40.0);
    assert_eq!((cell("dense", 3.0).compliance * 40.0).round(), 27.0);
    assert_eq!((cell("bm25", 3.0).compliance * 40.0).round(), 28.0);
    let arm = |a: &str| r.arms.iter().find(|x| x.group == g && x.arm == a).unwrap();
    for (a, rot) in [("brief_graph_3hop", 0.8451), ("bm25", 0.7566), ("dense", 0.6989)] {
        assert!((arm(a).rot_mean_of_ratios.unwrap() - rot).abs() < 5e-5, "{a}: {:?}", arm(a).rot_mean_of_ratios);
    }
    // Brief's synthetic compliance 0.9917 (119/120), recall 1.00.
    assert!((arm("brief_graph_3hop").compliance - 119.0 / 120.0).abs() < 1e-12);
    assert_eq!(arm("brief_graph_3hop").recall, Some(1.0));
    // 40/40 vs 27/40 at d = 3: the focus leads the best similarity arm only at depth 3.
    let max = r.crossover.iter().find(|c| c.group == g && c.against.starts_with("max(")).unwrap();
    assert_eq!(max.d_star, Some(3.0));
    // Without the spec_variant group the cells are split by it anyway (a design column found in
    // the data), never pooled unasked; pooled when asked, and that is said.
    let unasked = ComplianceRequest {
        group: vec!["dataset".into()],
        bootstrap: Bootstrap { resamples: 0, seed: 1, confidence: 0.95 },
        ..ComplianceRequest::default()
    };
    let split = run_on(vec![briefbench()], &unasked).unwrap();
    assert!(split.pooled.is_empty());
    assert_eq!(split.populations.keyed.iter().map(|k| k.column.as_str()).collect::<Vec<_>>(), ["spec_variant"]);
    assert!(split.groups.contains(&g.to_string()), "{:?}", split.groups);
    let pooled = run_on(
        vec![briefbench()],
        &ComplianceRequest {
            cells: memaudit::cells::CellSettings { pool: vec!["spec_variant".into()], ..Default::default() },
            ..unasked
        },
    )
    .unwrap();
    assert_eq!(pooled.pooled.len(), 1);
    assert_eq!(pooled.pooled[0].column, "spec_variant");
    let hs = memaudit::compliance::headlines::headlines(&pooled);
    assert!(hs.iter().any(|h| h.text.contains("pool the values of `spec_variant`")), "{hs:?}");
}

/// BriefBench Table 7 (Run B) counts as per-task rows: β̂ = −0.0375 (Brief), −0.100 (rerank_ce)
/// (seed-002 A25); Δ(Brief − best sim) = +0.025/+0.025/+0.075, never clearly above 0 at n = 40.
#[test]
fn briefbench_table7_counts_give_the_papers_slopes() {
    let counts = [
        ("brief", [38, 39, 35]),
        ("bm25", [37, 37, 31]),
        ("tfidf", [37, 37, 32]),
        ("dense", [37, 36, 30]),
        ("hybrid_rrf", [37, 38, 31]),
        ("rerank_ce", [37, 36, 29]),
    ];
    let mut csv = String::from("arm,depth,cell,comply\n");
    for (arm, ks) in counts {
        for (d, k) in ks.iter().enumerate() {
            for i in 0..40 {
                csv.push_str(&format!("{arm},{},d{},{}\n", d + 1, d + 1, u8::from(i < *k)));
            }
        }
    }
    let q = ComplianceRequest { focus: Some("brief".into()), ..ComplianceRequest::default() };
    let r = run_on(vec![InputFile::new("table7.csv", csv.into_bytes())], &q).unwrap();
    let slope = |a: &str| r.slopes.iter().find(|s| s.arm == a).unwrap().slope.unwrap();
    assert!((slope("brief") + 0.0375).abs() < 1e-12);
    assert!((slope("rerank_ce") + 0.100).abs() < 1e-12);
    let margins: Vec<f64> = r.margins.iter().filter(|m| m.against.starts_with("max(")).map(|m| m.delta).collect();
    for (got, want) in margins.iter().zip([0.025, 0.025, 0.075]) {
        assert!((got - want).abs() < 1e-12, "{margins:?}");
    }
    let max = r.crossover.iter().find(|c| c.against.starts_with("max(")).unwrap();
    assert_eq!(max.d_star, None);
    // No recall or tokens column: no κ and no return on tokens, never zeros.
    assert!(r.arms.iter().all(|a| a.kappa.is_none() && a.rot.is_none()));
    // n = 40 per cell cannot detect ±0.10 (seed-002 §2.10: the paper's power claim fails).
    let q = ComplianceRequest { claimed_effect: Some(0.1), group: vec!["cell".into()], ..q };
    let r = run_on(vec![InputFile::new("table7.csv", csv_of(&counts).into_bytes())], &q).unwrap();
    assert_eq!(r.power.len(), 15);
    assert!(r.power.iter().all(|p| p.verdict == "claim_undetectable"), "{:?}", r.power);
}

fn csv_of(counts: &[(&str, [usize; 3])]) -> String {
    let mut csv = String::from("arm,depth,cell,comply\n");
    for (arm, ks) in counts {
        for (d, k) in ks.iter().enumerate() {
            for i in 0..40 {
                csv.push_str(&format!("{arm},{},d{},{}\n", d + 1, d + 1, u8::from(i < *k)));
            }
        }
    }
    csv
}

#[test]
fn refusals_name_the_file_line_and_column() {
    let bad = InputFile::new("bad.csv", b"arm,compliance,recall\nx,1,1\ny,1.5,1\n".to_vec());
    let e = run_on(vec![bad], &ComplianceRequest::default()).unwrap_err().to_string();
    assert!(e.contains("bad.csv") && e.contains("line 3") && e.contains("compliance"), "{e}");
    let bad = InputFile::new("tok.csv", b"arm,compliance,tokens\nx,1,0\n".to_vec());
    let e = run_on(vec![bad], &ComplianceRequest::default()).unwrap_err().to_string();
    assert!(e.contains("tok.csv") && e.contains("line 2") && e.contains("tokens"), "{e}");
    let none = InputFile::new("none.csv", b"arm,score\nx,1\n".to_vec());
    let e = run_on(vec![none], &ComplianceRequest::default()).unwrap_err().to_string();
    assert!(e.contains("none.csv") && e.contains("compliance"), "{e}");
    let ok = || InputFile::new("ok.csv", b"arm,compliance,recall\nx,1,1\ny,,1\ny,0,1\n".to_vec());
    let r = run_on(
        vec![ok()],
        &ComplianceRequest {
            bootstrap: Bootstrap { resamples: 0, seed: 1, confidence: 0.95 },
            ..ComplianceRequest::default()
        },
    )
    .unwrap();
    assert_eq!((r.rows, r.missing.count), (2, 1));
    assert_eq!(r.missing.examples[0].line, 3);
    let e = run_on(vec![ok()], &ComplianceRequest { focus: Some("w".into()), ..ComplianceRequest::default() })
        .unwrap_err()
        .to_string();
    assert!(e.contains("focus") && e.contains("x, y"), "{e}");
    let e = ComplianceRequest {
        bootstrap: Bootstrap { resamples: 50_000, seed: 1, confidence: 0.95 },
        ..ComplianceRequest::default()
    }
    .validate()
    .unwrap_err()
    .to_string();
    assert!(e.contains("20000"), "{e}");
    let e = run_on(
        vec![ok()],
        &ComplianceRequest {
            filter: [("arm".to_string(), vec!["q".to_string()])].into(),
            ..ComplianceRequest::default()
        },
    )
    .unwrap_err()
    .to_string();
    // As the command line says it (the core mentions the setting; each interface spells it).
    let e = memaudit::fields::render_mentions(&e, memaudit::command_line::word);
    assert!(e.contains("--filter kept none"), "{e}");
}

/// A varying column splits the cells only when it is a condition (its values recur within an
/// arm), never an id that differs on every row.
#[test]
fn ids_are_not_conditions() {
    let csv = "task,arm,variant,comply\nt1,a,full,1\nt2,a,full,0\nt3,a,stripped,1\nt4,a,stripped,1\nt1,b,full,0\nt2,b,full,0\nt3,b,stripped,1\nt4,b,stripped,0\n";
    let q = ComplianceRequest {
        bootstrap: Bootstrap { resamples: 0, seed: 1, confidence: 0.95 },
        ..ComplianceRequest::default()
    };
    let r = run_on(vec![InputFile::new("v.csv", csv.as_bytes().to_vec())], &q).unwrap();
    assert_eq!(r.populations.keyed.iter().map(|p| p.column.as_str()).collect::<Vec<_>>(), vec!["variant"]);
    assert!(r.pooled.is_empty());
    assert!(r.populations.unused.iter().any(|u| u.column == "task"), "{:?}", r.populations.unused);
}

#[test]
fn a_table_of_aggregates_one_row_per_arm_is_said_to_be_one() {
    // BriefBench's `paper_realcode_pooled.csv` as shipped: the paper's pooled numbers, one row
    // per arm. Read as rows, every interval is one value: the first headline says so.
    let pooled = std::fs::read(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../shared/fixtures/external/BriefBench/paper_realcode_pooled.csv"),
    )
    .unwrap();
    let r = run_on(vec![InputFile::new("paper_realcode_pooled.csv", pooled)], &ComplianceRequest::default()).unwrap();
    assert!(r.arms.iter().all(|a| a.n == 1));
    let hs = memaudit::capability::headlines::<Compliance>(&r);
    assert_eq!(
        hs[0].text,
        "Every arm has a single row: these look like aggregates (one row per arm), not per-task rows"
    );
    assert!(hs[0].evidence.starts_with("8 arms, each of n = 1"), "{}", hs[0].evidence);
    // Per-task rows are not: the released rows have many rows per arm.
    let per_task = run_on(vec![rows()], &request()).unwrap();
    let hs = memaudit::capability::headlines::<Compliance>(&per_task);
    assert!(!hs.iter().any(|h| h.text.starts_with("Every arm has a single row")));
}

#[test]
fn a_bootstrap_too_large_to_keep_is_refused_before_it_starts() {
    // 60 arms × 200 depths, one row each: 12,000 cells to resample 10,000 times.
    let mut text = String::from("arm,depth,compliance_rate,recall,total_tokens\n");
    for a in 0..60 {
        for d in 0..200 {
            text.push_str(&format!("a{a},{d},{},{},{}\n", (a + d) % 7 == 0, 0.5 + 0.001 * f64::from(d), 100 + d));
        }
    }
    let file = || InputFile::new("wide.csv", text.clone().into_bytes());
    let e = run_on(vec![file()], &ComplianceRequest::default()).unwrap_err().to_string();
    assert!(e.starts_with("invalid setting `bootstrap`: the bootstrap would keep "), "{e}");
    assert!(e.contains("60 arms, 12000 arm × depth cells), more than 40000000, the most kept here: lower "), "{e}");
    // As many resamples as it says fit run.
    let fits: usize = e.split("to ").last().unwrap().split(' ').next().unwrap().parse().unwrap();
    assert!(fits > 0 && fits < 10_000, "{fits}");
    let mut q = ComplianceRequest::default();
    q.bootstrap.resamples = 200;
    let r = run_on(vec![file()], &q).unwrap();
    assert_eq!(r.arms.len(), 60);
}

/// Every pair of arms' two-sample KS test, per dataset and measure, equals SciPy's `ks_2samp`
/// (`dominance.json`, made by `make_dominance_reference.py`), and the ECDF steps end at 1.
#[test]
fn dominance_equals_scipy_ks_2samp() {
    let want: Value = serde_json::from_slice(&std::fs::read(dir().join("dominance.json")).unwrap()).unwrap();
    // Every pair: no focus arm (with one, the focus against each other arm, as below).
    let r = run_on(vec![rows()], &ComplianceRequest { focus: None, ..request() }).unwrap();
    let want = want.as_array().unwrap();
    assert_eq!(r.dominance.len(), want.len());
    for (got, w) in r.dominance.iter().zip(want) {
        let at = format!("{} {} {} vs {}", got.group, got.measure, got.arm_a, got.arm_b);
        assert_eq!(
            (got.group.as_str(), got.measure.name(), got.arm_a.as_str(), got.arm_b.as_str()),
            (
                w["group"].as_str().unwrap(),
                w["measure"].as_str().unwrap(),
                w["arm_a"].as_str().unwrap(),
                w["arm_b"].as_str().unwrap()
            ),
        );
        assert_eq!((got.n_a as u64, got.n_b as u64), (w["n_a"].as_u64().unwrap(), w["n_b"].as_u64().unwrap()), "{at}");
        for (value, key) in [
            (got.mean_a, "mean_a"),
            (got.mean_b, "mean_b"),
            (got.d, "d"),
            (got.p, "p"),
            (got.d_a_greater, "d_a_greater"),
            (got.p_a_greater, "p_a_greater"),
            (got.d_b_greater, "d_b_greater"),
            (got.p_b_greater, "p_b_greater"),
        ] {
            assert!(close(Some(value), &w[key], 1e-9), "{at} {key}: {value} vs {}", w[key]);
        }
    }
    for e in r.ecdf.iter().filter(|e| e.at_or_below == e.n) {
        assert_eq!(e.cdf, 1.0);
    }
    assert!(r.ecdf.iter().any(|e| e.cdf < 1.0));
}

/// The dominance headline names the focus arm and says, per dataset, whether its compliance
/// ECDF lies right of every other arm's, as the table's orders say.
#[test]
fn the_dominance_headline_follows_the_orders() {
    use memaudit::compliance::dominance::{DominanceMeasure, Order};
    let r = run_on(vec![rows()], &request()).unwrap();
    let hs = memaudit::compliance::headlines::headlines(&r);
    // With a focus arm, the pairs are that arm against each other, the focus first.
    assert!(r.dominance.iter().all(|d| d.arm_a == "x"), "focus pairs");
    for g in &r.groups {
        let right_of_all = r
            .dominance
            .iter()
            .filter(|d| &d.group == g && d.measure == DominanceMeasure::Compliance)
            .filter(|d| d.arm_a == "x" || d.arm_b == "x")
            .all(|d| matches!((d.order, d.arm_a == "x"), (Order::A, true) | (Order::B, false)));
        let h = hs.iter().find(|h| h.text.starts_with("x's compliance ECDF") && h.text.contains(g.as_str())).unwrap();
        assert_eq!(h.text.contains("lies right of every other arm's"), right_of_all, "{}", h.text);
        assert_eq!(h.table.as_deref(), Some("dominance"));
    }
}

/// A compliance or routing file with a header and no row beside others is refused by name; a
/// file whose rows a filter leaves out is not empty and is read.
#[test]
fn a_file_without_rows_beside_others_is_refused_by_name() {
    let a = InputFile::new("a.csv", b"arm,compliance,dataset\nx,1,d1\nx,0,d1\ny,1,d1\ny,1,d1\n".to_vec());
    let empty = InputFile::new("b.csv", b"arm,compliance,dataset\n".to_vec());
    let e = run_on(vec![a.clone(), empty], &ComplianceRequest::default()).map(|_| ()).unwrap_err().to_string();
    assert!(e.starts_with("b.csv: no compliance rows could be read from it"), "{e}");
    let other = InputFile::new("c.csv", b"arm,compliance,dataset\nx,1,d2\ny,0,d2\n".to_vec());
    let q = ComplianceRequest {
        filter: [("dataset".to_string(), vec!["d1".to_string()])].into_iter().collect(),
        ..ComplianceRequest::default()
    };
    assert!(run_on(vec![a, other], &q).is_ok(), "a file the filter empties is read");

    use memaudit::calibration::{Calibration, CalibrationRequest};
    let r = InputFile::new("r.csv", b"confidence,correct\n0.9,1\n0.2,0\n0.7,1\n0.4,0\n".to_vec());
    let empty = InputFile::new("s.csv", b"confidence,correct\n".to_vec());
    let files =
        assign_roles::<Calibration>(vec![(r, Some(FileRole::Routing)), (empty, Some(FileRole::Routing))]).unwrap();
    let e = run_once::<Calibration>(&files, &CalibrationRequest::default(), &mut quiet()).map(|_| ()).unwrap_err();
    assert!(e.to_string().starts_with("s.csv: no routing rows could be read from it"), "{e}");
}

/// Both laws fitted to each arm's compliance by depth equal NumPy's `lstsq` in log space with
/// BriefBench's AIC/BIC (`theory.json`, made by `make_theory_reference.py`); saturated fits and
/// cells of compliance 0 are refused; the theory's curves at the paper's s₀, ρ, q are set beside
/// the focus arm's measured margin, with a headline, and a partial theory is refused by name.
#[test]
fn law_fits_equal_numpy_and_the_theory_is_set_beside_the_margins() {
    use memaudit::compliance::theory::TheorySettings;
    let want: Value = serde_json::from_slice(&std::fs::read(dir().join("theory.json")).unwrap()).unwrap();
    let file = || InputFile::new("theory_rows.csv", std::fs::read(dir().join("theory_rows.csv")).unwrap());
    let theory = TheorySettings { s0: Some(0.70), rho: Some(0.67), q: Some(0.97) };
    let q = ComplianceRequest {
        focus: Some("graph".into()),
        bootstrap: Bootstrap { resamples: 500, seed: 7, confidence: 0.95 },
        theory,
        ..ComplianceRequest::default()
    };
    let r = run_on(vec![file()], &q).unwrap();
    let laws = want["laws"].as_array().unwrap();
    assert_eq!(r.laws.len(), laws.len());
    for (got, w) in r.laws.iter().zip(laws) {
        let at = format!("{} {}", got.arm, got.law);
        assert_eq!((got.arm.as_str(), got.law.as_str()), (w["arm"].as_str().unwrap(), w["law"].as_str().unwrap()));
        assert_eq!(
            (got.points as u64, got.parameters as u64),
            (w["points"].as_u64().unwrap(), w["parameters"].as_u64().unwrap()),
            "{at}"
        );
        assert_eq!(got.refused.is_some(), w["refused"].as_bool().unwrap_or(false), "{at}: {:?}", got.refused);
        for (value, key) in
            [(got.rss, "rss"), (got.aic, "aic"), (got.bic, "bic"), (got.q, "q"), (got.s0, "s0"), (got.rho, "rho")]
        {
            assert!(close(value, &w[key], 1e-9), "{at} {key}: {value:?} vs NumPy {}", w[key]);
        }
    }
    let none = r.laws.iter().find(|l| l.arm == "none").unwrap();
    assert_eq!(none.refused.as_deref(), Some("compliance 0 at depth 3: no logarithm"));
    // The theory per depth, with the measured margin of graph over the best other arm.
    let curves = want["theory"].as_array().unwrap();
    assert_eq!(r.theory.len(), curves.len());
    for (got, w) in r.theory.iter().zip(curves) {
        assert_eq!(got.depth, w["depth"].as_f64().unwrap());
        for (value, key) in [
            (got.similarity_ceiling, "similarity_ceiling"),
            (got.structured, "structured"),
            (got.advantage, "advantage"),
        ] {
            assert!(close(Some(value), &w[key], 1e-12), "d {} {key}", got.depth);
        }
        let m = r.margins.iter().find(|m| m.depth == got.depth && m.against == "max(vector, none)").unwrap();
        assert_eq!(got.against.as_deref(), Some(m.best.as_str()));
        assert_eq!((got.delta, got.low, got.high), (Some(m.delta), m.low, m.high));
        assert_eq!(got.inside, Some(m.low.unwrap() <= got.advantage && got.advantage <= m.high.unwrap()));
    }
    let hs = memaudit::capability::headlines::<Compliance>(&r);
    assert!(
        hs.iter().any(|h| h.text.starts_with("The theory's advantage g(d) lies ")
            && h.evidence.contains("s₀ = 0.7, ρ = 0.67, q = 0.97")),
        "{hs:?}"
    );
    // Without the theory's parameters: the fits, no theory rows.
    let plain = run_on(vec![file()], &ComplianceRequest { theory: TheorySettings::default(), ..q.clone() }).unwrap();
    assert!(plain.theory.is_empty() && plain.laws.len() == 6);
    // The released-shape rows of three depths: q^d fitted, the ceiling's 3 parameters on 3 points refused.
    let three = run_on(vec![rows()], &request()).unwrap();
    assert!(
        three
            .laws
            .iter()
            .filter(|l| l.law == "similarity_ceiling")
            .all(|l| l.refused.as_deref().is_some_and(|m| m.starts_with("saturated: 3 parameters")))
    );
    let e = run_on(vec![file()], &ComplianceRequest { theory: TheorySettings { q: None, ..theory }, ..q })
        .unwrap_err()
        .to_string();
    assert!(e.contains("theory_q") && e.contains("all three"), "{e}");
}
