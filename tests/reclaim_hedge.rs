//! `--abstain hedge` against an independent Python implementation of reclaim-eval's
//! behavioural `_is_abstain` (`tests/reference/reclaim_hedge/make_hedge_reference.py`, committed
//! output `hedge_reference.json`) on real replies: the first 54 rows of reclaim-eval's
//! `blank_strict_grok-4.3.jsonl`, plus the phrase and near-miss cases of the script.

use crate::common;

use std::path::PathBuf;

use memaudit::ingest::InputFile;
use memaudit::probe;
use memaudit::reclaim::abstain::{HEDGE_PHRASES, hedge_phrase, is_abstain_hedge};
use memaudit::reclaim::score::{AnswerKind, parse_answer, same_answer};
use memaudit::reclaim::{AbstainRule, ReclaimSettings, analyze, read_trials};
use serde_json::Value;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/reference/reclaim_hedge")
}

fn reference() -> Value {
    serde_json::from_slice(&std::fs::read(dir().join("hedge_reference.json")).unwrap()).unwrap()
}

fn fixture() -> Vec<memaudit::reclaim::Trial> {
    let name = "blank_strict_grok-4.3.head54.jsonl";
    let file = InputFile::new(name, std::fs::read(dir().join(name)).unwrap());
    let keys = probe::read_probe_keys(&common::fixture("reclaim-eval/probe_keys_base16.json")).unwrap();
    read_trials(&file, Some(&keys), None).unwrap().trials
}

#[test]
fn phrase_list_is_reclaim_evals() {
    let r = reference();
    let want: Vec<&str> = r["hedge"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    assert_eq!(HEDGE_PHRASES.to_vec(), want);
    assert!(r["rule"].as_str().unwrap().contains("ec5947fc33ef1748516621438eecb5b405975eb0"));
}

#[test]
fn phrases_and_near_misses_match_python() {
    let r = reference();
    let cases = r["cases"].as_array().unwrap();
    assert!(cases.len() >= 40);
    for c in cases {
        let text = c["text"].as_str().unwrap();
        assert_eq!(hedge_phrase(text), c["phrase"].as_str(), "{text:?}");
        assert_eq!(hedge_phrase(text).is_some(), c["hedge"].as_bool().unwrap(), "{text:?}");
        assert_eq!(
            is_abstain_hedge(text, AnswerKind::Number, false),
            c["abstain_number"].as_bool().unwrap(),
            "{text:?}"
        );
    }
}

#[test]
fn every_row_decides_as_python() {
    let r = reference();
    let rows = r["rows"].as_array().unwrap();
    let trials = fixture();
    assert_eq!(trials.len(), rows.len());
    let mut changed = 0;
    for (t, want) in trials.iter().zip(rows) {
        assert_eq!(t.line as u64, want["line"].as_u64().unwrap());
        let reply = t.reply.as_deref().unwrap();
        let answer = parse_answer(reply).map(memaudit::reclaim::Answer::Number);
        let correct = match (&answer, &t.truth) {
            (Some(a), Some(y)) => same_answer(a, y, t.kind),
            (_, Some(_)) => false,
            (_, None) => t.bucket.as_deref() == Some("true"),
        };
        assert_eq!(correct, want["correct"].as_bool().unwrap(), "line {}", t.line);
        let strict = !correct && answer.is_none();
        let hedge = !correct && is_abstain_hedge(reply, t.kind, false);
        assert_eq!(strict, want["strict_abstain"].as_bool().unwrap(), "line {}", t.line);
        assert_eq!(hedge, want["hedge_abstain"].as_bool().unwrap(), "line {}", t.line);
        assert_eq!(hedge_phrase(reply), want["hedge_phrase"].as_str(), "line {}", t.line);
        changed += usize::from(strict != hedge);
    }
    assert_eq!(changed, 5, "lines 14, 37, 44, 45, 51 hedge while committing the stale value");
}

#[test]
fn cells_match_python_under_both_rules() {
    let r = reference();
    let trials = fixture();
    let strict = analyze(&trials, &ReclaimSettings::default());
    let hedge = analyze(&trials, &ReclaimSettings { abstain: AbstainRule::Hedge, ..Default::default() });
    for want in r["cells"].as_array().unwrap() {
        let policy = want["policy"].as_str().unwrap();
        let s = strict.cells.iter().find(|c| c.key.policy == policy).unwrap();
        let h = hedge.cells.iter().find(|c| c.key.policy == policy).unwrap();
        let n = |k: &str| want[k].as_u64().unwrap() as usize;
        assert_eq!(
            (s.n, s.recovered, s.abstain, s.emit),
            (n("n"), n("recovered"), n("abstain_strict"), n("emit_strict"))
        );
        assert_eq!(
            (h.n, h.recovered, h.abstain, h.emit),
            (n("n"), n("recovered"), n("abstain_hedge"), n("emit_hedge"))
        );
        assert_eq!(h.abstain_rate, Some(n("abstain_hedge") as f64 / n("n") as f64), "abstain = declined / n");
        assert_eq!(h.rr, s.rr, "RR unchanged");
        assert_eq!(h.hedge_abstain, n("abstain_hedge") - n("abstain_strict"));
        assert_eq!(h.abstain_fallback, 0, "every row has a reply");
    }
    // lossy 27: strict 17 emit / 10 abstain; hedge 12 / 15 (grok hedges in prose on 5 stale commits)
    let lossy = hedge.cells.iter().find(|c| c.key.policy == "lossy").unwrap();
    assert_eq!((lossy.emit, lossy.abstain, lossy.attractor_per_n.count), (12, 15, 12));
    let w = &hedge.worse_than_empty[0];
    assert_eq!((w.emit_lossy, w.emit_blank, w.abstain_rule.as_str()), (Some(12.0 / 27.0), Some(0.0), "hedge"));
    assert!(hedge.warnings.iter().all(|w| w.count == 0 || !w.message.contains("hedge")), "no fallback here");
}
