//! Property tests: the readers never panic on arbitrary input (a panic in wasm kills the page),
//! and rescoring keeps its invariants on arbitrary valid bundles.

use crate::common;

use memaudit::audit;
use memaudit::conventions::{CreditUnit, Discount, Settings};
use memaudit::dataset::Dataset;
use memaudit::ingest::{InputFile, decode, detect, read_all};
use memaudit::model::Target;
use memaudit::rescore::rescore;
use proptest::prelude::*;

/// Valid lines of every format, used as seeds for mutation.
const SEEDS: [&str; 11] = [
    r#"{"memory_id":"a","anchors":["a"],"raw":true,"canonical":false,"kind":"turn","text":"x"}"#,
    r#"{"query_id":"q","evidence":["a",{"anchor":"b","grade":2}],"category":3,"answer":7}"#,
    r#"{"system":"s","query_id":"q","ranked":["a",{"memory_id":"b","score":1.5}],"scores":[2,null]}"#,
    r#"{"system":"s","query_id":"q","retrieved_id":"a","rank":1,"score":0.5}"#,
    r#"{"question_id":"q","retrieval_results":{"ranked_items":[{"corpus_id":"noans_x_1"}]}}"#,
    "q1 Q0 d1 1 2.5 run",
    "q1 0 d1 2",
    r#"[{"sample_id":"c","conversation":{"session_1":[{"dia_id":"D1:1","text":"t"}]},"observation":{"session_1_observation":{"A":[["f","D1:1"]]}},"qa":[{"question":"?","evidence":["D1:1; D:2:3"],"category":5}]}]"#,
    r#"[{"question_id":"q","haystack_session_ids":["answer_s"],"haystack_sessions":[[{"role":"user","content":"c","has_answer":true}]],"answer_session_ids":["answer_s"]}]"#,
    r#"{"speaker_a":"A","speaker_b":"B","session_1":[{"dia_id":"D1:1","text":"t"}],"session_1_observation":{"A":[["f","D1:1"]]},"qa":[{"question":"?","evidence":["D1:1"],"category":2}]}"#,
    r#"[{"query_id":"q","raw_ids":["a"],"source_ids":["a","b"],"canonical_ids":[],"category":"c"}]"#,
];

fn check_no_panic(files: &[InputFile]) {
    match read_all(files) {
        Ok(loaded) => {
            // whatever was read must build and score without panicking
            let ds = Dataset::build(loaded);
            let r = rescore(&ds, &Settings { bootstrap: 20, ..Settings::default() }, &mut |_| {});
            let _ = audit::audit(&ds, &r, &mut |_, _| {});
        }
        Err(e) => {
            assert!(!e.location.file.is_empty());
            assert!(!e.message.is_empty());
        }
    }
}

proptest! {
    #![proptest_config(common::proptest_config(400))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let _ = decode("f", &bytes).map(|(t, _)| detect("f", &t));
        check_no_panic(&[InputFile::new("f", bytes.clone())]);
        let mut gz = vec![0x1f, 0x8b];
        gz.extend_from_slice(&bytes);
        check_no_panic(&[InputFile::new("g", gz)]);
    }

    #[test]
    fn mutated_records_never_panic(
        seed in 0usize..SEEDS.len(),
        repeat in 1usize..4,
        ops in proptest::collection::vec((any::<u8>(), any::<usize>(), prop::sample::select(vec!['{', '}', '[', ']', '"', ',', ':', '1', '-', 'e', ' ', '\n', 'n', 'é', '\u{0}'])), 0..8),
    ) {
        let line = common::mutate(SEEDS[seed], &ops);
        let text = vec![line; repeat].join("\n");
        check_no_panic(&[InputFile::new("m.jsonl", text.into_bytes())]);
    }
}

/// A random valid bundle: `n_mem` memories with 1–2 anchors among `n_anchor` ids and random
/// flags, queries with 0–3 evidence anchors, 2 systems with random lists (repeats and unknown
/// ids included).
fn bundle() -> impl Strategy<Value = (String, String, String)> {
    (2usize..12, 1usize..8, 1usize..6).prop_flat_map(|(n_mem, n_anchor, n_q)| {
        let mems = proptest::collection::vec(
            (proptest::collection::vec(0..n_anchor, 1..3), any::<bool>(), any::<bool>()),
            n_mem,
        );
        let queries = proptest::collection::vec(proptest::collection::vec(0..n_anchor + 1, 0..4), n_q);
        let lists = proptest::collection::vec(proptest::collection::vec(0..n_mem + 2, 0..10), n_q * 2);
        (mems, queries, lists).prop_map(move |(mems, queries, lists)| {
            let mut m = String::new();
            for (i, (anchors, raw, can)) in mems.iter().enumerate() {
                let a: Vec<String> = anchors.iter().map(|a| format!("\"a{a}\"")).collect();
                m += &format!(
                    "{{\"memory_id\":\"m{i}\",\"anchors\":[{}],\"raw\":{raw},\"canonical\":{can}}}\n",
                    a.join(",")
                );
            }
            let mut q = String::new();
            for (i, ev) in queries.iter().enumerate() {
                let e: Vec<String> = ev.iter().map(|a| format!("\"a{a}\"")).collect();
                q += &format!("{{\"query_id\":\"q{i}\",\"evidence\":[{}]}}\n", e.join(","));
            }
            let mut r = String::new();
            for (j, l) in lists.iter().enumerate() {
                let items: Vec<String> = l.iter().map(|x| format!("\"m{x}\"")).collect();
                r += &format!(
                    "{{\"system\":\"s{}\",\"query_id\":\"q{}\",\"ranked\":[{}]}}\n",
                    j % 2,
                    j / 2,
                    items.join(",")
                );
            }
            (m, q, r)
        })
    })
}

proptest! {
    #![proptest_config(common::proptest_config(300))]

    #[test]
    fn rescoring_invariants((m, q, r) in bundle(), k in 1usize..12, id_unit in any::<bool>(), lme in any::<bool>()) {
        let ds = common::dataset(&[common::file("m.jsonl", &m), common::file("q.jsonl", &q), common::file("r.jsonl", &r)]);
        let settings = Settings {
            k,
            unit: if id_unit { CreditUnit::Id } else { CreditUnit::Group },
            discount: if lme { Discount::Lme } else { Discount::Log2 },
            bootstrap: 50,
            ..Settings::default()
        };
        let res = rescore(&ds, &settings, &mut |_| {});
        for s in 0..res.n_systems {
            for qi in 0..res.n_queries {
                for t in Target::ALL {
                    if let Some(c) = res.cell(s, qi, t).counted() {
                        for v in [c.ndcg, c.recall, c.hit, c.mrr, c.top1] {
                            prop_assert!((0.0..=1.0).contains(&v), "{t:?} {c:?}");
                        }
                        prop_assert!(c.hit >= c.top1);
                        prop_assert!((c.hit == 0.0) == (c.ndcg == 0.0));
                        prop_assert!((c.hit == 0.0) == (c.recall == 0.0));
                    }
                }
                // T_raw ⊆ T_src and T_can ⊆ T_src: Source hits whenever Raw or Canonical hits,
                // and its first credited rank is never later.
                let src = res.cell(s, qi, Target::Source).counted();
                for t in [Target::Raw, Target::Canonical] {
                    if let Some(c) = res.cell(s, qi, t).counted() {
                        let src = src.expect("eligible under a sub-target implies eligible under Source");
                        prop_assert!(src.hit >= c.hit);
                        prop_assert!(src.mrr >= c.mrr);
                        prop_assert!(src.top1 >= c.top1);
                    }
                }
            }
        }
        let report = audit::audit(&ds, &res, &mut |_, _| {});
        for w in &report.winners {
            if let (Some(d), Some(lo), Some(hi)) = (w.delta_ndcg, w.ci_low, w.ci_high) {
                // resampled means of per-query differences stay within [-1, 1] and in order
                prop_assert!((-1.0..=1.0).contains(&lo) && lo <= hi && (-1.0..=1.0).contains(&hi), "{w:?}");
                prop_assert!((d - (w.mean_a.unwrap() - w.mean_b.unwrap())).abs() < 1e-12);
                prop_assert_eq!(w.significant, lo > 0.0 || hi < 0.0);
            }
        }
        for row in &report.instability {
            prop_assert_eq!(row.hit_flips, row.hit_gained + row.hit_lost);
            prop_assert!(row.ndcg_changed <= row.n);
        }
    }
}
