//! Independent-reference test: memaudit's per-query metrics on TREC inputs against trec_eval.
//!
//! The inputs and the expected values in `tests/reference/trec/` were generated ONCE by
//! `tests/reference/trec/make_trec_reference.py` with pytrec-eval-terrier (trec_eval compiled as
//! a Python extension); see `tests/reference/README.md`. Python is not needed to run this test.
//!
//! Measure correspondence (trec_eval name ↔ memaudit `ListScore` field, at memaudit's `k`):
//!
//! | trec_eval      | memaudit                                   |
//! |----------------|--------------------------------------------|
//! | `ndcg_cut_60`  | `ndcg`, k = 60                             |
//! | `ndcg_cut_10`  | `ndcg`, k = 10                             |
//! | `ndcg`         | `ndcg`, k = 1000 (trec_eval's default depth) |
//! | `recall_60`    | `recall`, k = 60                           |
//! | `success_1`    | `top1` (k = 60) and `hit`, k = 1           |
//! | `success_10`   | `hit`, k = 10                              |
//! | `P_5`          | `groups_hit / 5`, k = 5                    |
//! | `recip_rank`   | `mrr`, k = 1000 (uncut); see [`mrr_at_60`] |
//! | `num_rel`      | `groups`                                   |
//! | `num_ret`      | length of the saved list                   |
//!
//! A query with judgments but no relevant document: trec_eval reports 0 for every measure
//! (num_rel = 0) and averages that 0 into its means; so does memaudit on TREC qrels.
//!
//! Documented convention difference, asserted explicitly below: trec_eval's `recip_rank` is not
//! cut at k; memaudit's `mrr` is MRR@k.

use std::collections::BTreeSet;
use std::path::PathBuf;

use memaudit::conventions::{Discount, Gain, MissingRun, RankOrder, Settings};
use memaudit::dataset::Dataset;
use memaudit::ingest::{InputFile, read_all};
use memaudit::metrics::ListScore;
use memaudit::model::Target;
use memaudit::rescore::{Rescored, rescore};
use serde_json::Value;

const TOL: f64 = 1e-9;

fn trec_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/reference/trec")
}

fn reference() -> Value {
    let text = std::fs::read_to_string(trec_dir().join("reference_values.json"))
        .expect("tests/reference/trec/reference_values.json");
    serde_json::from_str(&text).expect("reference_values.json is JSON")
}

fn dataset(qrels: &str, run: &str) -> Dataset {
    let file = |name: &str| {
        let bytes = std::fs::read(trec_dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        InputFile::new(name, bytes)
    };
    let loaded = read_all(&[file(qrels), file(run)]).expect("the TREC files are read");
    let ds = Dataset::build(loaded);
    assert!(ds.from_trec_qrels);
    assert_eq!(ds.targets, vec![Target::Raw], "TREC qrels: only the Raw target exists");
    ds
}

fn settings(k: usize, order: RankOrder) -> Settings {
    Settings { k, order, gain: Gain::Linear, discount: Discount::Log2, ..Settings::default() }
}

/// memaudit rescored at every k the trec_eval measures need, in one reading order.
struct Scored {
    k1: Rescored,
    k5: Rescored,
    k10: Rescored,
    k60: Rescored,
    k1000: Rescored,
}

impl Scored {
    fn new(ds: &Dataset, order: RankOrder) -> Scored {
        let at = |k| rescore(ds, &settings(k, order), &mut |_| {});
        Scored { k1: at(1), k5: at(5), k10: at(10), k60: at(60), k1000: at(1000) }
    }
}

fn score(r: &Rescored, s: usize, q: usize) -> Option<&ListScore> {
    r.cell(s, q, Target::Raw).score.as_ref()
}

/// memaudit's value for a trec_eval measure, or `None` when the query is not eligible.
fn memaudit_value(m: &str, sc: &Scored, ds: &Dataset, s: usize, q: usize) -> Option<f64> {
    let v = match m {
        "ndcg_cut_60" => score(&sc.k60, s, q)?.ndcg,
        "ndcg_cut_10" => score(&sc.k10, s, q)?.ndcg,
        "ndcg" => score(&sc.k1000, s, q)?.ndcg,
        "recall_60" => score(&sc.k60, s, q)?.recall,
        "success_1" => score(&sc.k60, s, q)?.top1,
        "success_10" => score(&sc.k10, s, q)?.hit,
        "P_5" => score(&sc.k5, s, q)?.groups_hit as f64 / 5.0,
        "recip_rank" => score(&sc.k1000, s, q)?.mrr,
        "num_rel" => score(&sc.k60, s, q)?.groups as f64,
        "num_ret" => ds.lists[s][q].as_ref()?.items.len() as f64,
        other => panic!("no memaudit counterpart for trec_eval measure {other}"),
    };
    Some(v)
}

/// MRR@60 as implied by trec_eval's uncut recip_rank: the same value when the first relevant
/// document is within the first 60, else 0.
fn mrr_at_60(recip_rank: f64) -> f64 {
    if recip_rank > 0.0 && (1.0 / recip_rank).round() <= 60.0 { recip_rank } else { 0.0 }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= TOL
}

fn case<'a>(reference: &'a Value, name: &str) -> &'a Value {
    &reference["cases"][name]
}

fn measures(reference: &Value) -> Vec<String> {
    reference["measures"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_string()).collect()
}

/// Asserts memaudit equals pytrec_eval on every (system, query, measure) of a case and that
/// both tools score exactly the same (system, query) pairs. Returns the number of comparisons.
fn assert_case_agrees(case_name: &str, order: RankOrder) -> usize {
    let reference = reference();
    let c = case(&reference, case_name);
    let ds = dataset(c["qrels"].as_str().unwrap(), c["run"].as_str().unwrap());
    let sc = Scored::new(&ds, order);
    let names = measures(&reference);
    let values = c["values"].as_object().unwrap();
    let mut checked = 0;
    let mut failures = Vec::new();

    assert_eq!(ds.systems, ["sysA", "sysB"]);
    let ref_systems: Vec<&String> = values.keys().collect();
    assert_eq!(ref_systems, ["sysA", "sysB"]);

    for (system, per_query) in values {
        let s = ds.system_index(system).expect("system in memaudit");
        let per_query = per_query.as_object().unwrap();
        // The same (system, query) population: trec_eval (without -c) evaluates the queries of
        // the run that are in the qrels; memaudit scores the lists it has (MissingRun::Skip).
        let trec_queries: BTreeSet<&str> = per_query.keys().map(|q| q.as_str()).collect();
        let memaudit_queries: BTreeSet<&str> = (0..ds.queries.len())
            .filter(|&q| sc.k60.cell(s, q, Target::Raw).scored)
            .map(|q| ds.queries[q].query_id.as_str())
            .collect();
        assert_eq!(trec_queries, memaudit_queries, "{case_name}/{system}: evaluated queries");

        for (qid, vals) in per_query {
            let q = ds.query_index(qid).expect("query in memaudit") as usize;
            let rr = vals["recip_rank"].as_f64().unwrap();
            if vals["num_rel"].as_f64().unwrap() == 0.0 {
                // A topic judged without a relevant document: both score it 0 (checked below).
                assert!(sc.k60.is_eligible(s, q, Target::Raw));
            }
            for m in &names {
                let want = vals[m.as_str()].as_f64().unwrap();
                let got =
                    memaudit_value(m, &sc, &ds, s, q).unwrap_or_else(|| panic!("{case_name}/{system}/{qid}: eligible"));
                if !close(got, want) {
                    failures.push(format!("{case_name} {system} q{qid} {m}: memaudit {got} trec_eval {want}"));
                }
                checked += 1;
            }
            // Extra identities of the trec_eval values.
            let k60 = score(&sc.k60, s, q).unwrap();
            let extra = [
                ("MRR@60", k60.mrr, mrr_at_60(rr)),
                ("Hit@1", score(&sc.k1, s, q).unwrap().hit, vals["success_1"].as_f64().unwrap()),
                (
                    "first_rank",
                    score(&sc.k1000, s, q).unwrap().first_rank.map_or(0.0, |r| r as f64),
                    if rr > 0.0 { (1.0 / rr).round() } else { 0.0 },
                ),
            ];
            for (what, got, want) in extra {
                if !close(got, want) {
                    failures.push(format!("{case_name} {system} q{qid} {what}: memaudit {got} expected {want}"));
                }
                checked += 1;
            }
        }
    }
    assert!(failures.is_empty(), "{} disagreement(s) with trec_eval:\n{}", failures.len(), failures.join("\n"));
    checked
}

#[test]
fn graded_qrels_trec_order_agrees_with_trec_eval() {
    let n = assert_case_agrees("graded", RankOrder::TrecEval);
    // 2 systems, 40 + 39 queries (438 absent from sysB), 10 measures + 3 identities
    assert!(n > 900, "only {n} comparisons");
}

#[test]
fn binary_qrels_trec_order_agrees_with_trec_eval() {
    let n = assert_case_agrees("binary", RankOrder::TrecEval);
    assert!(n > 800, "only {n} comparisons");
}

/// The saved (rank-column) order, checked against trec_eval run on the same lists with
/// score := -rank.
#[test]
fn saved_order_agrees_with_trec_eval_on_rank_scores() {
    assert!(assert_case_agrees("graded_saved_order", RankOrder::Saved) > 900);
    assert!(assert_case_agrees("binary_saved_order", RankOrder::Saved) > 800);
}

/// On lists with tied scores (and the one list whose rank column is shuffled), the saved order
/// gives numbers that DIFFER from trec_eval's, and memaudit's TrecEval order does not: this
/// fails if memaudit ignored the score order or broke ties by docno ascending.
#[test]
fn saved_order_differs_from_trec_eval_on_tied_lists() {
    let reference = reference();
    for name in ["graded", "binary"] {
        let c = case(&reference, name);
        let ds = dataset(c["qrels"].as_str().unwrap(), c["run"].as_str().unwrap());
        let trec = Scored::new(&ds, RankOrder::TrecEval);
        let saved = Scored::new(&ds, RankOrder::Saved);
        let pairs = reference["tie_sensitive"][name].as_array().unwrap();
        let listed: BTreeSet<(&str, &str)> =
            pairs.iter().map(|p| (p["system"].as_str().unwrap(), p["query"].as_str().unwrap())).collect();
        // Every deliberately tied query, for both systems, and the shuffled rank column.
        for q in reference["deliberate_tie_queries"].as_array().unwrap() {
            for s in ["sysA", "sysB"] {
                assert!(listed.contains(&(s, q.as_str().unwrap())), "{name} {s} {q}");
            }
        }
        assert!(listed.contains(&("sysB", "407")));
        let mut differing = 0;
        for p in pairs {
            let system = p["system"].as_str().unwrap();
            let qid = p["query"].as_str().unwrap();
            let s = ds.system_index(system).unwrap();
            let q = ds.query_index(qid).unwrap() as usize;
            let want_trec = &c["values"][system][qid];
            let want_saved = &case(&reference, &format!("{name}_saved_order"))["values"][system][qid];
            for m in p["measures"].as_array().unwrap() {
                let m = m.as_str().unwrap();
                let t = want_trec[m].as_f64().unwrap();
                let sv = want_saved[m].as_f64().unwrap();
                assert!(!close(t, sv), "{name} {system} {qid} {m}: listed as differing");
                let got_trec = memaudit_value(m, &trec, &ds, s, q).unwrap();
                let got_saved = memaudit_value(m, &saved, &ds, s, q).unwrap();
                assert!(close(got_trec, t), "{name} {system} {qid} {m}: TrecEval order {got_trec}, trec_eval {t}");
                assert!(close(got_saved, sv), "{name} {system} {qid} {m}: Saved order {got_saved}, expected {sv}");
                assert!(!close(got_saved, t), "{name} {system} {qid} {m}: the saved order must differ from trec_eval");
                differing += 1;
            }
        }
        assert!(differing >= 30, "{name}: only {differing} differing values");
    }

    // The tie blocks at the top (401..403): trec_eval puts the grade-3 doc (D9 > D10 under
    // strcmp) first; the rank column lists the tie docno-ascending, so the saved order does not.
    let ds = dataset("graded.qrels", "runs.run");
    let trec = rescore(&ds, &settings(60, RankOrder::TrecEval), &mut |_| {});
    let saved = rescore(&ds, &settings(60, RankOrder::Saved), &mut |_| {});
    for (qid, rel) in [("401", "D9"), ("402", "D8"), ("403", "D7")] {
        let q = ds.query_index(qid).unwrap() as usize;
        for s in 0..2 {
            let t = score(&trec, s, q).unwrap();
            let sv = score(&saved, s, q).unwrap();
            assert_eq!((t.top1, t.first_rank), (1.0, Some(1)), "{qid} {rel}");
            assert_eq!(sv.top1, 0.0, "{qid}");
            assert!(sv.first_rank.unwrap() > 1);
            assert!(t.ndcg > sv.ndcg);
        }
    }
}

/// trec_eval's recip_rank is uncut; memaudit's mrr is MRR@k. Query 411 (sysA) has its first
/// relevant document at rank 60, query 412 (sysA) at rank 61.
#[test]
fn recip_rank_is_uncut_mrr_is_cut_at_k() {
    let reference = reference();
    let vals = &case(&reference, "graded")["values"]["sysA"];
    let ds = dataset("graded.qrels", "runs.run");
    let s = ds.system_index("sysA").unwrap();
    let sc = Scored::new(&ds, RankOrder::TrecEval);
    for (qid, rank) in [("411", 60usize), ("412", 61)] {
        let q = ds.query_index(qid).unwrap() as usize;
        let rr = vals[qid]["recip_rank"].as_f64().unwrap();
        assert!(close(rr, 1.0 / rank as f64), "trec_eval recip_rank {qid}");
        assert!(close(score(&sc.k1000, s, q).unwrap().mrr, rr));
        assert_eq!(score(&sc.k1000, s, q).unwrap().first_rank, Some(rank));
        let at60 = score(&sc.k60, s, q).unwrap();
        if rank <= 60 {
            assert!(close(at60.mrr, rr));
            assert_eq!(at60.hit, 1.0);
        } else {
            assert_eq!((at60.mrr, at60.hit, at60.first_rank), (0.0, 0.0, None));
            assert!(rr > 0.0, "trec_eval still credits rank 61");
        }
        assert_eq!(vals[qid]["success_10"].as_f64().unwrap(), 0.0);
    }
}

/// Queries judged but without any relevant document: trec_eval scores them 0 and averages the
/// zeros in; so does memaudit for TREC qrels (its means then equal trec_eval's).
#[test]
fn queries_without_relevant_documents_score_zero_as_in_trec_eval() {
    let reference = reference();
    for (name, expect) in [("graded", vec!["440"]), ("binary", vec!["413", "414", "440"])] {
        let no_rel: Vec<&str> =
            reference["no_relevant_queries"][name].as_array().unwrap().iter().map(|q| q.as_str().unwrap()).collect();
        assert_eq!(no_rel, expect);
        let c = case(&reference, name);
        let ds = dataset(c["qrels"].as_str().unwrap(), c["run"].as_str().unwrap());
        let r = rescore(&ds, &settings(60, RankOrder::TrecEval), &mut |_| {});
        for qid in &no_rel {
            let q = ds.query_index(qid).unwrap() as usize;
            for (s, system) in ds.systems.iter().enumerate() {
                assert!(r.is_eligible(s, q, Target::Raw));
                let v = &c["values"][system][*qid];
                assert_eq!(v["num_rel"].as_f64(), Some(0.0));
                assert_eq!(v["ndcg_cut_60"].as_f64(), Some(0.0), "trec_eval scores it 0");
                let cell = r.cell(s, q, Target::Raw);
                assert!(cell.scored && cell.has_run, "the list exists");
                let sc = cell.score.as_ref().expect("memaudit scores it");
                assert_eq!((sc.ndcg, sc.recall, sc.mrr, sc.hit, sc.groups), (0.0, 0.0, 0.0, 0.0, 0));
            }
        }
        assert!(ds.warnings.count(memaudit::ingest::WarningKind::JudgedWithoutRelevant) == no_rel.len());
        // Means: the zeros are averaged in, as trec_eval does.
        for (s, system) in ds.systems.iter().enumerate() {
            let counted: Vec<&ListScore> =
                (0..ds.queries.len()).filter_map(|q| r.cell(s, q, Target::Raw).counted()).collect();
            let means = &reference["means"][name][system];
            for (m, field) in [
                ("ndcg_cut_60", (|x: &ListScore| x.ndcg) as fn(&ListScore) -> f64),
                ("recall_60", |x: &ListScore| x.recall),
            ] {
                let mean = counted.iter().map(|x| field(x)).sum::<f64>() / counted.len() as f64;
                let trec_all = means[m]["trec_eval_all"].as_f64().unwrap();
                assert!(close(mean, trec_all), "{name} {system} {m}: memaudit {mean}, trec_eval {trec_all}");
            }
        }
    }
}

/// Query 438 is absent from sysB's run (trec_eval without -c skips it); query 999 is in the run
/// but not in the qrels (both tools ignore it).
#[test]
fn absent_and_unjudged_queries() {
    let reference = reference();
    let c = case(&reference, "graded");
    assert!(c["values"]["sysB"].get("438").is_none());
    assert!(c["values"]["sysA"].get("438").is_some());
    assert!(c["values"]["sysA"].get("999").is_none());
    let ds = dataset("graded.qrels", "runs.run");
    assert_eq!(ds.queries.len(), 40);
    assert!(ds.query_index("999").is_none());
    let q = ds.query_index("438").unwrap() as usize;
    let b = ds.system_index("sysB").unwrap();
    let skip = rescore(&ds, &settings(60, RankOrder::TrecEval), &mut |_| {});
    assert!(!skip.cell(b, q, Target::Raw).scored);
    assert!(skip.cell(b, q, Target::Raw).counted().is_none());
    // MissingRun::Zero is trec_eval -c: the missing query scores 0.
    let zero = rescore(&ds, &Settings { missing: MissingRun::Zero, ..settings(60, RankOrder::TrecEval) }, &mut |_| {});
    let cell = zero.cell(b, q, Target::Raw);
    assert!(cell.scored && !cell.has_run);
    let z = cell.score.as_ref().unwrap();
    assert_eq!((z.ndcg, z.recall, z.mrr, z.hit), (0.0, 0.0, 0.0, 0.0));
}

/// conventions.md §3.3: qrels {A:3, B:2, C:1, D:0}, ranking [C, X (unjudged), A, B].
#[test]
fn conventions_md_worked_example() {
    let reference = reference();
    let c = case(&reference, "conventions_example");
    let v = &c["values"]["example"]["1"];
    let ds = dataset("conventions_example.qrels", "conventions_example.run");
    let at =
        |k| rescore(&ds, &settings(k, RankOrder::TrecEval), &mut |_| {}).cell(0, 0, Target::Raw).score.clone().unwrap();
    let want = |m: &str| v[m].as_f64().unwrap_or_else(|| panic!("{m}"));
    let checks = [
        ("ndcg", at(1000).ndcg),
        ("ndcg_cut_1", at(1).ndcg),
        ("ndcg_cut_2", at(2).ndcg),
        ("ndcg_cut_3", at(3).ndcg),
        ("ndcg_cut_10", at(10).ndcg),
        ("recip_rank", at(1000).mrr),
        ("P_2", at(2).groups_hit as f64 / 2.0),
        ("recall_2", at(2).recall),
    ];
    for (m, got) in checks {
        assert!(close(got, want(m)), "{m}: memaudit {got}, trec_eval {}", want(m));
    }
    // The numbers printed in conventions.md (6 decimals) are trec_eval's.
    for (m, printed) in [
        ("ndcg", 0.705891),
        ("ndcg_cut_1", 0.333333),
        ("ndcg_cut_2", 0.234639),
        ("ndcg_cut_3", 0.525005),
        ("ndcg_cut_10", 0.705891),
        ("recip_rank", 1.0),
        ("P_2", 0.5),
        ("recall_2", 1.0 / 3.0),
    ] {
        assert!((want(m) - printed).abs() < 5e-7, "{m}");
    }
    let s = at(10);
    assert!((s.dcg - 3.361353).abs() < 5e-7 && (s.idcg - 4.761860).abs() < 5e-7);
}
