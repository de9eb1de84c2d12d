//! Reclaim analysis: the CPython-compatible resampler against CPython 3.11 outputs and the
//! paper's intervals (float equality), strict re-scoring edge cases (seed-003-004 § A1.4),
//! cells, attractor denominators, worse-than-empty, and readers that never panic.

use crate::common;

use std::path::PathBuf;

use memaudit::ingest::InputFile;
use memaudit::probe::{self, ProbeKeys};
use memaudit::reclaim::bootstrap::{self, BootstrapSettings, Engine};
use memaudit::reclaim::score::{self, Answer, AnswerKind};
use memaudit::reclaim::table::paper_cell;
use memaudit::reclaim::{PyRandom, ReclaimSettings, ScoreMode, Trial, analyze, filter_arm, read_trials};
use proptest::prelude::*;
use serde_json::Value;

fn reference() -> Value {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/reference/python_random/python_random.json");
    serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
}

/// A float written by Python as its `repr()` string (parsed exactly by Rust).
fn f(v: &Value) -> f64 {
    v.as_str().unwrap_or_else(|| panic!("expected a repr string, got {v}")).parse().unwrap()
}

fn reclaim_file(name: &str) -> InputFile {
    let path = common::shared().join("fixtures/external/reclaim-eval").join(name);
    InputFile::new(name, std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

fn keys() -> ProbeKeys {
    probe::read_probe_keys(&reclaim_file("probe_keys_base16.json")).unwrap()
}

fn trials(name: &str) -> Vec<Trial> {
    read_trials(&reclaim_file(name), Some(&keys()), None).unwrap().trials
}

// ---------------------------------------------------------------------------------------------
// CPython random.Random

#[test]
fn cpython_random_streams_match_python_3_11() {
    let r = reference();
    assert!(r["python"].as_str().unwrap().starts_with("3.11"));
    // the anchors of the issue and of the notes
    assert_eq!(PyRandom::new(0).random(), 0.8444218515250481);
    for s in r["streams"].as_array().unwrap() {
        // seeds are strings in the JSON: 2^70 + 3 does not fit a JSON number reader
        let seed: i128 = s["seed"].as_str().unwrap().parse().unwrap();
        let mut g = PyRandom::new(seed);
        let bits: Vec<u64> = (0..5).map(|_| g.getrandbits(32)).collect();
        let want: Vec<u64> = s["getrandbits32"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
        assert_eq!(bits, want, "seed {seed}");
        let mut g = PyRandom::new(seed);
        for (i, v) in s["random"].as_array().unwrap().iter().enumerate() {
            assert_eq!(g.random(), f(v), "seed {seed} random #{i}");
        }
        for (n, vals) in s["randrange"].as_object().unwrap() {
            let n: u64 = n.parse().unwrap();
            let mut g = PyRandom::new(seed);
            let got: Vec<u64> = (0..vals.as_array().unwrap().len()).map(|_| g.randbelow(n)).collect();
            let want: Vec<u64> = vals.as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
            assert_eq!(got, want, "seed {seed} randrange({n})");
        }
        for (k, vals) in s["getrandbits"].as_object().unwrap() {
            let k: u32 = k.parse().unwrap();
            let mut g = PyRandom::new(seed);
            let got: Vec<u64> = (0..vals.as_array().unwrap().len()).map(|_| g.getrandbits(k)).collect();
            let want: Vec<u64> = vals.as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
            assert_eq!(got, want, "seed {seed} getrandbits({k})");
        }
    }
    // first randrange(96) values of Random(0), from the notes
    let mut g = PyRandom::new(0);
    assert_eq!((0..5).map(|_| g.randbelow(96)).collect::<Vec<_>>(), vec![49, 53, 5, 33, 65]);
}

#[test]
fn lowercasing_matches_python_str_lower() {
    for c in reference()["lower"].as_array().unwrap() {
        let (text, lower) = (c["text"].as_str().unwrap(), c["lower"].as_str().unwrap());
        assert_eq!(text.to_lowercase(), lower, "{text}");
    }
}

// ---------------------------------------------------------------------------------------------
// the paper's intervals, bit for bit

fn filtered(rows: &[Value], filter: &serde_json::Map<String, Value>) -> Vec<f64> {
    rows.iter()
        .filter(|r| filter.iter().all(|(k, v)| &r[k] == v))
        .map(|r| if r["correct"].as_bool().unwrap() { 1.0 } else { 0.0 })
        .collect()
}

#[test]
fn python_compatible_bootstrap_reproduces_every_reference_cell() {
    let r = reference();
    let s = BootstrapSettings::default();
    assert_eq!((s.engine, s.resamples, s.seed, s.confidence), (Engine::Python, 5000, 0, 0.95));
    for c in r["cells"].as_array().unwrap() {
        let text = String::from_utf8(reclaim_file(c["file"].as_str().unwrap()).bytes().unwrap().into_owned()).unwrap();
        let rows: Vec<Value> =
            text.lines().filter(|l| !l.trim().is_empty()).map(|l| serde_json::from_str(l).unwrap()).collect();
        let xs = filtered(&rows, c["filter"].as_object().unwrap());
        assert_eq!(xs.len() as u64, c["n"].as_u64().unwrap());
        let mean = xs.iter().sum::<f64>() / xs.len() as f64;
        let ci = bootstrap::interval(&xs, None, &s).unwrap();
        assert_eq!(mean, f(&c["mean"]), "{c}");
        assert_eq!(ci.low, f(&c["low"]), "{c}");
        assert_eq!(ci.high, f(&c["high"]), "{c}");
    }
}

#[test]
fn table_8_llama_arith_cells_as_printed_in_the_paper() {
    let t = filter_arm(trials("realworld_meta-llama_llama-3.1-8b-instruct_arith_t0.7.jsonl"), "directed");
    let s = ReclaimSettings {
        contrasts: vec![("source_first_auto".into(), "langchain_summary".into())],
        ..ReclaimSettings::default()
    };
    let rep = analyze(&t, &s);
    let cell = |p: &str| rep.cells.iter().find(|c| c.key.policy == p).unwrap();
    // Table 8, arith Llama column
    for (policy, printed) in [
        ("source_first@0.1", "1.00 [1,1]"),
        ("source_first_auto", "0.53 [.44,.64]"),
        ("langchain_summary", "0.35 [.26,.45]"),
        ("mem0", "0.09 [.04,.16]"),
        ("vector_rag", "0.04 [.01,.08]"),
        ("lossy@0.1", "0.00 [0,0]"),
    ] {
        let c = cell(policy);
        assert_eq!(c.n, 96);
        assert_eq!(paper_cell(c.rr, c.rr_low, c.rr_high), printed, "{policy}");
    }
    // paired auto − summary by sorted (seed, pid): the notes' verified anchor, exactly
    let d = &rep.contrasts[0].difference;
    assert_eq!((d.pairing.as_str(), d.pairs), ("paired", 96));
    assert_eq!(d.delta, Some(0.17708333333333334));
    assert_eq!(d.low, Some(0.052083333333333336));
    assert_eq!(d.high, Some(0.3020833333333333));
    let r = reference();
    let p = &r["paired"][0];
    assert_eq!((d.delta, d.low, d.high), (Some(f(&p["mean"])), Some(f(&p["low"])), Some(f(&p["high"]))));
}

#[test]
fn table_5_grok_cells_and_keep_both() {
    let rep =
        analyze(&filter_arm(trials("fix_x-ai_grok-4.3-20260430_arith.jsonl"), "directed"), &ReclaimSettings::default());
    assert_eq!(rep.cells.len(), 12);
    for c in &rep.cells {
        assert_eq!(c.n, 24);
        let g = c.key.integrity.unwrap();
        let want = if g >= 0.5 || c.key.policy == "source_first" { "1.00 [1,1]" } else { "0.00 [0,0]" };
        assert_eq!(paper_cell(c.rr, c.rr_low, c.rr_high), want, "{} g={g}", c.key.policy);
        // rule of three: ≤ 0.125 at n = 24 for the measured zeros
        if c.recovered == 0 {
            assert_eq!(c.rule_of_three_high, Some(0.125));
        }
    }
    // "keep both" 0.95 [.90,.99] (91/96), llama
    let rep = analyze(&trials("srcconcl_llama_arith.jsonl"), &ReclaimSettings::default());
    let both = rep.cells.iter().find(|c| c.key.policy == "source_plus_conclusion").unwrap();
    assert_eq!((both.n, both.recovered), (96, 91));
    assert_eq!(paper_cell(both.rr, both.rr_low, both.rr_high), "0.95 [.90,.99]");
    let zero = rep.cells.iter().find(|c| c.key.policy == "lossy").unwrap();
    assert_eq!(zero.rule_of_three_high, Some(0.03125), "3/96 ≤ 0.04");
}

#[test]
fn clustered_and_chacha8_intervals() {
    let t = filter_arm(trials("realworld_meta-llama_llama-3.1-8b-instruct_arith_t0.7.jsonl"), "directed");
    let clustered = analyze(
        &t,
        &ReclaimSettings {
            bootstrap: BootstrapSettings { cluster_by_problem: true, ..Default::default() },
            ..Default::default()
        },
    );
    let plain = analyze(&t, &ReclaimSettings::default());
    assert_eq!(clustered.cells.len(), plain.cells.len());
    assert!(!plain.cells.is_empty());
    for (c, p) in clustered.cells.iter().zip(&plain.cells) {
        assert_eq!((c.key.policy.as_str(), c.problems), (p.key.policy.as_str(), 32));
        assert_eq!(c.rr, p.rr);
        // the wall and the source-kept cells are unchanged; others widen or stay
        if p.recovered == 0 || p.recovered == p.n {
            assert_eq!((c.rr_low, c.rr_high), (p.rr_low, p.rr_high));
        }
    }
    // memaudit's ChaCha8 resampler: deterministic, close to the Python intervals
    let chacha = analyze(
        &t,
        &ReclaimSettings {
            bootstrap: BootstrapSettings { engine: Engine::ChaCha8, ..Default::default() },
            ..Default::default()
        },
    );
    assert_eq!(chacha.cells.len(), plain.cells.len());
    for (c, p) in chacha.cells.iter().zip(&plain.cells) {
        assert!((c.rr_low.unwrap() - p.rr_low.unwrap()).abs() <= 0.03, "{}", c.key.policy);
        assert!((c.rr_high.unwrap() - p.rr_high.unwrap()).abs() <= 0.03, "{}", c.key.policy);
    }
    assert!(chacha.interval_method.contains("ChaCha8"));
}

// ---------------------------------------------------------------------------------------------
// strict re-scoring (§ A1.4)

#[test]
fn rescoring_edge_cases() {
    use score::{extract_time, parse_answer, parse_answer_word};
    // numeric: last ANSWER match, wrap class, commas, no stray-number fallback, tolerance 0.5
    assert_eq!(parse_answer("ANSWER: 55\nOn reflection the pens are $18.\nANSWER: 46"), Some(46.0));
    assert_eq!(parse_answer("*ANSWER*: 46"), None, "the colon must follow ANSWER");
    assert_eq!(parse_answer("ANSWER: **$46**"), Some(46.0));
    assert_eq!(parse_answer("ANSWER: [46]"), Some(46.0));
    assert_eq!(parse_answer("ANSWER: $1,046"), Some(1046.0));
    assert_eq!(parse_answer("The total is $46."), None);
    assert_eq!(parse_answer("ANSWER: forty-six"), None);
    let y = Answer::Number(46.0);
    assert!(score::same_answer(&Answer::Number(46.49), &y, AnswerKind::Number));
    assert!(!score::same_answer(&Answer::Number(45.5), &y, AnswerKind::Number), "|d| < 0.5, strictly");
    // words: closed option set, canonical casing, last match validated
    let opts: Vec<String> = vec!["Ana".into(), "Ben".into(), "Cleo".into()];
    assert_eq!(parse_answer_word("ANSWER: CLEO", &opts).as_deref(), Some("Cleo"));
    assert_eq!(parse_answer_word("ANSWER: Dana", &opts), None);
    assert_eq!(parse_answer_word("ANSWER: Ana\nANSWER: unknown", &opts), None);
    // MultiWOZ times
    assert_eq!(extract_time("ANSWER: 7:45 pm", false).as_deref(), Some("19:45"));
    assert_eq!(extract_time("I'd say 7:45 pm.", false), None);
    assert_eq!(extract_time("I'd say 7:45 pm.", true).as_deref(), Some("19:45"));
}

#[test]
fn rescored_cells_report_parser_drift() {
    let text = r#"{"pid":"a","seed":0,"policy":"lossy","integrity":0.1,"arm":"directed","reply":"Sure.\nANSWER: $55","answer":55,"correct":false,"truth":46,"drift":55}
{"pid":"b","seed":0,"policy":"lossy","integrity":0.1,"arm":"directed","reply":"The total is 46.","answer":46,"correct":true,"truth":46,"drift":55}
{"pid":"a","seed":0,"policy":"blank","integrity":0.1,"arm":"directed","reply":"I cannot recompute it.","answer":null,"correct":false,"truth":46,"drift":55}
{"pid":"b","seed":0,"policy":"blank","integrity":0.1,"arm":"directed","reply":"ANSWER: 46","answer":46,"correct":true,"truth":46,"drift":55}"#;
    let t = read_trials(&InputFile::new("t.jsonl", text.as_bytes().to_vec()), None, None).unwrap().trials;
    let strict = analyze(&t, &ReclaimSettings::default());
    let lossy = &strict.cells[0];
    // the loose stored answer 46 for pid b has no ANSWER line: strictly an abstention
    assert_eq!((lossy.rescored, lossy.rescore_disagrees, lossy.recovered, lossy.abstain, lossy.emit), (2, 1, 0, 1, 1));
    assert_eq!((lossy.attractor_per_n.rate, lossy.attractor_per_emission.rate), (Some(0.5), Some(1.0)));
    assert_eq!(lossy.attractor_per_n.denominator_label, "trials (n)");
    let w = &strict.worse_than_empty[0];
    assert_eq!(
        (w.emit_lossy, w.emit_blank, w.difference.delta, w.difference.pairing.as_str()),
        (Some(0.5), Some(0.0), Some(0.5), "paired")
    );
    let stored = analyze(&t, &ReclaimSettings { score: ScoreMode::Stored, ..Default::default() });
    assert_eq!((stored.cells[0].recovered, stored.cells[0].rescored), (1, 0));
    // Keys that cover some trials only: the text says of how many.
    let mut partly = t.clone();
    partly[1].reply = None;
    let report = analyze(&partly, &ReclaimSettings::default());
    assert_eq!((report.cells[0].rescored, report.cells[0].n), (1, 2));
    let text = memaudit::reclaim::render_text(&report);
    assert!(text.contains("1 of 2 (0 differ)"), "{text}");
}

// ---------------------------------------------------------------------------------------------
// properties

proptest! {
    #![proptest_config(common::proptest_config(300))]

    #[test]
    fn parsers_never_panic(reply in r"[ -~\n٣４*_`'(\[$:,.-]{0,80}", opt in "[A-Za-z]{1,5}") {
        let _ = score::parse_answer(&reply);
        let _ = score::parse_answer_word(&reply, &[opt]);
        let _ = score::extract_time(&reply, true);
        let _ = score::parse_structured(&reply, true);
        let _ = score::normalise_time_text(&reply);
    }

    #[test]
    fn trial_reader_and_analysis_never_panic(ops in proptest::collection::vec((0u8..3, 0usize..220, any::<char>()), 0..6)) {
        let seed = r#"{"pid":"a","seed":0,"policy":"lossy","integrity":0.1,"arm":"directed","reply":"ANSWER: 55","answer":55,"correct":false,"truth":46,"drift":55,"options":["x"]}
{"pid":"b","seed":1,"policy":"blank","bucket":"abstain","attractor":false}"#;
        let text = common::mutate(seed, &ops);
        if let Ok(r) = read_trials(&InputFile::new("t.jsonl", text.into_bytes()), None, None) {
            let s = ReclaimSettings {
                bootstrap: BootstrapSettings { resamples: 50, cluster_by_problem: true, ..Default::default() },
                contrasts: vec![("lossy".into(), "blank".into())],
                ..Default::default()
            };
            let rep = analyze(&r.trials, &s);
            for c in rep.cells {
                if let (Some(l), Some(h)) = (c.rr_low, c.rr_high) {
                    prop_assert!((0.0..=1.0).contains(&l) && l <= h && h <= 1.0);
                }
            }
        }
    }

    #[test]
    fn bootstrap_intervals_bracket_nothing_outside_the_data(xs in proptest::collection::vec(0u8..2, 1..40), seed in 0u64..1000) {
        let v: Vec<f64> = xs.iter().map(|&x| x as f64).collect();
        for engine in [Engine::Python, Engine::ChaCha8] {
            let s = BootstrapSettings { engine, resamples: 200, seed, ..Default::default() };
            let ci = bootstrap::interval(&v, None, &s).unwrap();
            prop_assert!(0.0 <= ci.low && ci.low <= ci.high && ci.high <= 1.0);
        }
    }
}

/// reclaim-eval's size sweeps and cascade files (rows written here in their shapes): no `pid`,
/// cells defined by design columns. Refused without an item column; with `--item store` one
/// cell per design combination, never pooled unless asked; the cascade's outcome is `reclaim`.
#[test]
fn sweeps_are_cells_per_design_value() {
    let mut rows = String::new();
    for store in 0..4 {
        for (n, budget) in [(4, 300), (8, 300), (4, 600)] {
            for policy in ["source_first", "lossy_padded"] {
                // source_first recovers every store; lossy_padded only stores 0 and 1 at n = 4.
                let correct = policy == "source_first" || (n == 4 && store < 2);
                rows.push_str(&format!(
                    "{{\"store\": {store}, \"n\": {n}, \"budget\": {budget}, \"policy\": \"{policy}\", \"seed\": 0, \"arm\": \"directed\", \"model\": \"m\", \"answer\": 1.0, \"correct\": {correct}}}\n"
                ));
            }
        }
    }
    let file = InputFile::new("sizesweep_m.jsonl", rows.as_bytes().to_vec());
    let e = read_trials(&file, None, None).unwrap_err();
    // As the command line says it (the core mentions the setting; each interface spells it).
    let message = memaudit::fields::render_mentions(&e.message, memaudit::command_line::word);
    assert!(message.contains("--item") && message.contains("`n`") && message.contains("`budget`"), "{message}");
    let read = read_trials(&file, None, Some("store")).unwrap().trials;
    // The cells mechanism finds the design columns (n × budget, three of four combinations).
    let form = |pool_design: bool| {
        memaudit::reclaim::cells::form(read.clone(), &Default::default(), pool_design, Some("store")).unwrap().trials
    };
    let trials = form(false);
    assert_eq!(trials[0].pid, "0");
    assert_eq!(trials[0].design, [("n".to_string(), "4".to_string()), ("budget".to_string(), "300".to_string())]);
    let report = analyze(
        &trials,
        &ReclaimSettings {
            bootstrap: BootstrapSettings { resamples: 200, ..Default::default() },
            ..Default::default()
        },
    );
    assert_eq!(report.cells.len(), 6, "3 design combinations × 2 policies");
    let cell = |policy: &str, n: &str, budget: &str| {
        report
            .cells
            .iter()
            .find(|c| {
                c.key.policy == policy
                    && c.design == [("n".to_string(), n.to_string()), ("budget".to_string(), budget.to_string())]
            })
            .unwrap()
    };
    assert_eq!((cell("lossy_padded", "4", "300").recovered, cell("lossy_padded", "4", "300").n), (2, 4));
    assert_eq!(cell("lossy_padded", "8", "300").rr, Some(0.0));
    assert_eq!(cell("source_first", "4", "600").rr, Some(1.0));
    // Attractors cannot be counted without the stale value: unknown, not 0.
    assert_eq!(cell("lossy_padded", "8", "300").attractor_per_n.rate, None);
    // Pooled only when asked.
    let pooled = analyze(
        &form(true),
        &ReclaimSettings {
            pool_design: true,
            bootstrap: BootstrapSettings { resamples: 200, ..Default::default() },
            ..Default::default()
        },
    );
    assert_eq!(pooled.cells.len(), 2);
    assert_eq!(pooled.cells.iter().find(|c| c.key.policy == "lossy_padded").unwrap().recovered, 4);
    // The cascade: outcome `reclaim`, design `H`.
    let cascade = "{\"H\": 1, \"policy\": \"lossy\", \"planted\": true, \"store\": 0, \"reclaim\": false}\n\
                   {\"H\": 1, \"policy\": \"lossy\", \"planted\": true, \"store\": 1, \"reclaim\": true}\n\
                   {\"H\": 2, \"policy\": \"lossy\", \"planted\": true, \"store\": 0, \"reclaim\": true}\n";
    let t =
        read_trials(&InputFile::new("cascade.jsonl", cascade.as_bytes().to_vec()), None, Some("store")).unwrap().trials;
    let t = memaudit::reclaim::cells::form(t, &Default::default(), false, Some("store")).unwrap().trials;
    let r = analyze(
        &t,
        &ReclaimSettings {
            bootstrap: BootstrapSettings { resamples: 200, ..Default::default() },
            ..Default::default()
        },
    );
    assert_eq!(
        r.cells.iter().map(|c| (c.design[0].1.as_str(), c.recovered, c.n)).collect::<Vec<_>>(),
        [("1", 1, 2), ("2", 1, 1)]
    );
}

#[test]
fn prose_flag_channel_is_counted_beside_the_answer_line() {
    // reclaim-eval's MultiWOZ failure-mode rows (Table 10): `flagged` says the reply hedged in
    // prose; the stored `bucket` says what the ANSWER line did. A reply can do both.
    let rows = [
        r#"{"dialogue_id": "d1", "policy": "lossy", "seed": 0, "bucket": "inherit", "flagged": true, "reply": "unverified. ANSWER: 19:15"}"#,
        r#"{"dialogue_id": "d1", "policy": "lossy", "seed": 1, "bucket": "abstain", "flagged": true, "reply": "I cannot say."}"#,
        r#"{"dialogue_id": "d2", "policy": "lossy", "seed": 0, "bucket": "novel", "flagged": false, "reply": "ANSWER: 10:00"}"#,
        r#"{"dialogue_id": "d2", "policy": "lossy", "seed": 1, "bucket": "inherit", "flagged": true, "reply": "ANSWER: 19:15?"}"#,
        r#"{"dialogue_id": "d3", "policy": "lossy", "seed": 0, "bucket": "abstain", "flagged": false, "reply": "No."}"#,
        r#"{"dialogue_id": "d1", "policy": "blank", "seed": 0, "bucket": "abstain", "flagged": true, "reply": "No idea."}"#,
        r#"{"dialogue_id": "d2", "policy": "blank", "seed": 0, "bucket": "novel", "flagged": true, "reply": "ANSWER: 11:00"}"#,
        r#"{"dialogue_id": "d3", "policy": "blank", "seed": 0, "bucket": "abstain", "reply": "No."}"#,
    ];
    let file = InputFile::new("multiwoz_failmode_x.jsonl", rows.join("\n").into_bytes());
    let read = read_trials(&file, None, None).unwrap();
    let rep = analyze(&read.trials, &ReclaimSettings::default());
    let cell = |p: &str| rep.cells.iter().find(|c| c.key.policy == p).unwrap();
    // Counted by hand from the rows above: (with a flag, flagged, flagged and emitted).
    let lossy = cell("lossy");
    assert_eq!((lossy.flagged_known, lossy.flagged, lossy.flagged_emit), (5, 3, 2));
    assert_eq!(lossy.emit, 3, "inherit, novel, inherit");
    let blank = cell("blank");
    assert_eq!((blank.flagged_known, blank.flagged, blank.flagged_emit), (2, 2, 1));
    // In the cells table, and said as a finding: hedged in prose yet emitted on the answer line.
    let t = memaudit::reclaim::reclaim_table(&rep, memaudit::reclaim::ReclaimTable::Cells);
    let col = |name: &str| t.headers.iter().position(|h| h == name).unwrap();
    let row = t.rows.iter().find(|r| r[col("policy")] == "lossy").unwrap();
    assert_eq!(
        (row[col("flagged_known")].as_str(), row[col("flagged")].as_str(), row[col("flagged_emit")].as_str()),
        ("5", "3", "2")
    );
    let hs = memaudit::reclaim::headlines::headlines(&rep);
    let h = hs.iter().find(|h| h.text.contains("flags uncertainty in prose")).expect("a prose-flag headline");
    assert!(
        h.text.starts_with(
            "`lossy` flags uncertainty in prose in 3 of 5 trials yet emits a wrong value on the ANSWER line in 2"
        ),
        "{}",
        h.text
    );
    let text = memaudit::reclaim::render_text(&rep);
    assert!(text.contains("prose flag (`flagged`"), "{text}");
}
