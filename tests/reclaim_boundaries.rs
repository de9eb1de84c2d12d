//! The boundary evidence of `memaudit reclaim` against an independent plain-Python computation
//! (`tests/reference/reclaim_boundaries/make_boundaries_reference.py`): size and noise sweeps
//! with reclaim-eval's own bootstrap recipe and the crossover, the recompute certificate, the
//! cascade's blast radius, the completeness buckets — on rows generated in the shapes of
//! reclaim-eval's released files — and, on its released files as shipped, the invented-number
//! audit (mem0: every memory invents, 38.1 on average; the paper's figure) and the failure modes.

use std::path::PathBuf;

use memaudit::capability::{FileRole, assign_roles, quiet, run_once};
use memaudit::ingest::InputFile;
use memaudit::reclaim::{Reclaim, ReclaimReport, ReclaimRequest};
use serde_json::Value;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/reference/reclaim_boundaries")
}

fn external(name: &str) -> InputFile {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures/external/reclaim-eval").join(name);
    InputFile::new(name, std::fs::read(p).unwrap())
}

fn local(name: &str) -> InputFile {
    InputFile::new(name, std::fs::read(dir().join(name)).unwrap())
}

fn run(files: Vec<(InputFile, FileRole)>, item: Option<&str>) -> ReclaimReport {
    let q = ReclaimRequest { item: item.map(str::to_string), ..ReclaimRequest::default() };
    let files = assign_roles::<Reclaim>(files.into_iter().map(|(f, r)| (f, Some(r))).collect()).unwrap();
    run_once::<Reclaim>(&files, &q, &mut quiet()).unwrap().1
}

fn reference() -> Value {
    serde_json::from_slice(&std::fs::read(dir().join("reference.json")).unwrap()).unwrap()
}

fn f(v: &Value) -> Option<f64> {
    v.as_f64()
}

fn close(got: Option<f64>, want: &Value) -> bool {
    match (got, want.as_f64()) {
        (Some(g), Some(w)) => (g - w).abs() < 1e-12,
        (None, None) => true,
        _ => false,
    }
}

#[test]
fn sweeps_crossovers_and_certificates_equal_the_reference() {
    let want = reference();
    for (file, key, variable, cert) in [
        ("sizesweep.jsonl", "size", "n", "size_certificate"),
        ("noisysweep.jsonl", "noise", "decoys", "noise_certificate"),
    ] {
        let r = run(vec![(local(file), FileRole::Trials)], Some("store"));
        let sweeps: Vec<_> = r.boundaries.sweeps.iter().filter(|s| s.variable == variable).collect();
        let ws = want[key].as_array().unwrap();
        assert_eq!(sweeps.len(), ws.len(), "{file}");
        for w in ws {
            let s = sweeps.iter().find(|s| s.key.policy == w["policy"] && s.fixed == w["fixed"]).unwrap();
            assert_eq!(s.crossover, f(&w["crossover"]), "{file} {}", s.key.policy);
            let pts = w["points"].as_array().unwrap();
            assert_eq!(s.points.len(), pts.len());
            for (p, wp) in s.points.iter().zip(pts) {
                assert_eq!((p.x, p.n as u64), (f(&wp["x"]).unwrap(), wp["n"].as_u64().unwrap()));
                // reclaim-eval's recipe reproduces the interval to float equality (the mean to the
                // last bit: Python's sum is compensated).
                assert!((p.rr.unwrap() - f(&wp["rr"]).unwrap()).abs() < 1e-12);
                assert_eq!((p.low, p.high), (f(&wp["low"]), f(&wp["high"])), "{file} {} x={}", s.key.policy, p.x);
            }
        }
        for w in want[cert].as_array().unwrap() {
            let c = r.boundaries.certificate.iter().find(|c| c.key.policy == w["policy"]).unwrap();
            assert_eq!(
                (c.pass_n as u64, c.flag_n as u64),
                (w["pass_n"].as_u64().unwrap(), w["flag_n"].as_u64().unwrap())
            );
            assert!(close(c.pass_rr, &w["pass_rr"]) && close(c.flag_rr, &w["flag_rr"]), "{c:?}");
            assert_eq!((c.pass_low, c.pass_high), (f(&w["pass_low"]), f(&w["pass_high"])));
            assert_eq!((c.flag_low, c.flag_high), (f(&w["flag_low"]), f(&w["flag_high"])));
        }
    }
}

#[test]
fn cascades_and_completeness_buckets_equal_the_reference() {
    let want = reference();
    let r = run(vec![(local("cascade.jsonl"), FileRole::Trials)], Some("store"));
    let rows = want["cascade"].as_array().unwrap();
    assert_eq!(r.boundaries.cascade.len(), rows.len());
    for w in rows {
        let c = r
            .boundaries
            .cascade
            .iter()
            .find(|c| c.policy == w["policy"] && c.hops == f(&w["hops"]) && c.planted == w["planted"].as_bool())
            .unwrap();
        assert_eq!(c.chains as u64, w["chains"].as_u64().unwrap());
        assert!(
            close(c.blast, &w["blast"]) && close(c.rr, &w["rr"]) && close(c.source_complete, &w["source_complete"]),
            "{c:?}"
        );
        assert_eq!((c.blast_low, c.blast_high), (f(&w["blast_ci"][0]), f(&w["blast_ci"][1])));
        assert_eq!((c.rr_low, c.rr_high), (f(&w["rr_ci"][0]), f(&w["rr_ci"][1])));
        let hops: Vec<f64> = w["hop_wrong"].as_array().unwrap().iter().filter_map(Value::as_f64).collect();
        assert_eq!(c.hop_wrong, hops);
        // The generated controls have no error, so their blast is 0 and nothing is flagged.
        assert!(!c.control_blast);
    }
    // Planted and control chains stay apart (a design column), never pooled.
    assert!(r.cells.iter().all(|c| c.design.iter().any(|(k, _)| k == "planted")));

    let r = run(vec![(local("completeness.jsonl"), FileRole::Trials)], Some("store"));
    for (design, counts) in want["completeness"].as_object().unwrap() {
        // The design values in any order (the cells show them in the file's column order).
        let pairs: Vec<&str> = design.split(' ').collect();
        for (bucket, n) in counts.as_object().unwrap() {
            let got: usize = r
                .boundaries
                .buckets
                .iter()
                .filter(|b| pairs.iter().all(|p| b.design.split(' ').any(|q| q == *p)) && &b.bucket == bucket)
                .map(|b| b.count)
                .sum();
            assert_eq!(got as u64, n.as_u64().unwrap(), "{design} {bucket}");
        }
    }
}

#[test]
fn a_control_with_blast_is_flagged() {
    let text = "{\"H\": 2, \"policy\": \"source_first\", \"planted\": false, \"store\": 0, \"per_hop\": [true, false], \"blast\": 1, \"reclaim\": true}\n\
                {\"H\": 2, \"policy\": \"source_first\", \"planted\": false, \"store\": 1, \"per_hop\": [true, true], \"blast\": 0, \"reclaim\": true}\n";
    let r = run(vec![(InputFile::new("c.jsonl", text.as_bytes().to_vec()), FileRole::Trials)], Some("store"));
    assert!(r.boundaries.cascade[0].control_blast);
    let hs = memaudit::reclaim::headlines::headlines(&r);
    assert!(hs.iter().any(|h| h.text.contains("no-error control")), "{hs:?}");
}

#[test]
fn released_files_give_the_papers_invented_numbers_and_failure_modes() {
    let want = reference();
    let r =
        run(vec![(external("realworld_meta-llama_llama-3.1-8b-instruct_arith_t0.7.jsonl"), FileRole::Trials)], None);
    for (policy, w) in want["invented"].as_object().unwrap() {
        let i = r.boundaries.invented.iter().find(|i| &i.policy == policy).unwrap();
        assert_eq!(
            (i.memories as u64, i.with_invented as u64),
            (w["memories"].as_u64().unwrap(), w["with_invented"].as_u64().unwrap())
        );
        assert!((i.mean_invented - w["mean"].as_f64().unwrap()).abs() < 1e-12, "{policy}");
    }
    // Reclaim Evaluation Table 8 notes: mem0, 100% of 72 memories invent, 38.1 on average.
    let mem0 = r.boundaries.invented.iter().find(|i| i.policy == "mem0").unwrap();
    assert_eq!((mem0.memories, mem0.with_invented), (72, 72));
    assert_eq!(format!("{:.1}", mem0.mean_invented), "38.1");
    let hs = memaudit::reclaim::headlines::headlines(&r);
    assert!(hs.iter().any(|h| h.text.contains("mem0") && h.text.contains("invent")), "{hs:?}");

    let r = run(
        vec![
            (external("fix_x-ai_grok-4.3-20260430_arith.jsonl"), FileRole::Trials),
            (external("probe_keys_base16.json"), FileRole::Keys),
        ],
        None,
    );
    for w in want["failure"].as_array().unwrap() {
        let m = r
            .boundaries
            .failure_modes
            .iter()
            .find(|m| {
                m.key.policy == w["policy"]
                    && m.key.integrity == f(&w["integrity"])
                    && m.key.arm.as_deref() == w["arm"].as_str()
            })
            .unwrap();
        let n = |k: &str| w.get(k).and_then(Value::as_u64).unwrap_or(0) as usize;
        assert_eq!(
            (m.n, m.recovered, m.inherited, m.novel, m.abstained),
            (n("n"), n("recovered"), n("inherited"), n("novel"), n("abstained")),
            "{w}"
        );
        assert!(m.stale_known);
    }
}
