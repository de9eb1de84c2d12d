//! The built-in demo of every viewer page: small synthetic inputs that show what the page does
//! before the user has files of their own ("Try the demo", `?demo`).
//!
//! Each demo is written by [`generate`] (`memaudit synth --page PAGE --out DIR`),
//! deterministically (a fixed ChaCha8 seed), and committed under `static/demo/<page>/`; the
//! worker compiles the committed files in, and a test checks they equal the generator's output.
//! The rescoring demo is [`crate::synth`]'s bundle (`static/demo/`); the claims, rules and IR
//! evaluation demos are the project's own reference fixtures (`tests/reference/paper_fixtures`,
//! `tests/reference/trec_eval`), each written by the committed script beside it. No demo holds
//! released data.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::capability::Analysis;

/// The seed of every generated demo.
pub const DEMO_SEED: u64 = 20261124;

/// One file of a demo: its name and its text.
pub type DemoFile = (&'static str, String);

/// The generated demo files of `page` (`None` for the pages whose demo is the rescoring bundle
/// or a committed reference fixture).
pub fn generate(page: Analysis) -> Option<Vec<DemoFile>> {
    let mut rng = ChaCha8Rng::seed_from_u64(DEMO_SEED);
    Some(match page {
        Analysis::Compare => vec![("outcomes.csv", compare(&mut rng))],
        Analysis::Probe => vec![("notes.jsonl", probe(&mut rng))],
        Analysis::Reclaim => vec![("trials.jsonl", reclaim(&mut rng))],
        Analysis::Answers => vec![("answers.jsonl", answers(&mut rng))],
        Analysis::Ablation => vec![("ablation.csv", ablation(&mut rng))],
        Analysis::Labels => vec![("labels.csv", labels(&mut rng))],
        Analysis::Calibration => vec![("routing.csv", routing(&mut rng))],
        Analysis::Alignment => {
            let (per_query, answers) = alignment(&mut rng);
            vec![("per_query.csv", per_query), ("answers.csv", answers)]
        }
        Analysis::Compliance => vec![("compliance.csv", compliance(&mut rng))],
        Analysis::Rescore | Analysis::Claims | Analysis::Rules | Analysis::TrecEval | Analysis::Audit => return None,
    })
}

/// Four retrieval configurations answering the same 150 questions (three categories): a
/// long CSV with one row per (item, arm). Each item has a difficulty shared by every arm, so
/// the arms are correlated as paired data are.
fn compare(rng: &mut ChaCha8Rng) -> String {
    const ARMS: [(&str, f64); 4] =
        [("no-memory", -0.9), ("bm25-memory", 0.0), ("dense-memory", 0.35), ("hybrid-memory", 0.45)];
    const CATEGORIES: [&str; 3] = ["single-hop", "multi-hop", "temporal"];
    let mut out = String::from("item_id,category,arm,correct\n");
    for i in 0..150 {
        let category = CATEGORIES[i % 3];
        let difficulty: f64 = normal(rng) + if category == "multi-hop" { 0.6 } else { 0.0 };
        for (arm, skill) in ARMS {
            let p = logistic(skill - difficulty + 0.3);
            let correct = u8::from(rng.random_bool(p));
            out.push_str(&format!("q{i:03},{category},{arm},{correct}\n"));
        }
    }
    out
}

/// Memory notes written from two-item shopping sources under three policies, with the outcome
/// of a later correction: `source_first` keeps both items, `summary` keeps one (sometimes
/// saying so), `lossy` keeps only the stale total.
fn probe(rng: &mut ChaCha8Rng) -> String {
    const GOODS: [(&str, &str); 6] = [
        ("notebooks", "pens"),
        ("apples", "pears"),
        ("tickets", "programmes"),
        ("mugs", "plates"),
        ("batteries", "bulbs"),
        ("stamps", "envelopes"),
    ];
    let mut out = String::new();
    for i in 0..60 {
        let (a, b) = GOODS[i % GOODS.len()];
        let (pa, qa, pb, qb) =
            (rng.random_range(2..9), rng.random_range(2..12), rng.random_range(1..6), rng.random_range(2..12));
        let total = pa * qa + pb * qb;
        let stale = total + rng.random_range(3..15);
        let source = format!("{a} at ${pa} each ({qa} bought) and {b} at ${pb} each ({qb} bought)");
        let policy = ["source_first", "summary", "lossy"][i % 3];
        let (note, p_recover) = match policy {
            "source_first" => {
                (format!("Bought {qa} {a} at ${pa} and {qb} {b} at ${pb}; the total came to ${stale}."), 0.9)
            }
            "summary" if rng.random_bool(0.4) => (
                format!(
                    "Bought {qa} {a} at ${pa}. [Note: this memory preserved only 1 of the original 2 line items; 1 were dropped and are not shown.]"
                ),
                0.35,
            ),
            "summary" => (format!("Bought {qa} {a} at ${pa}; the total was ${stale}."), 0.2),
            _ if rng.random_bool(0.25) => ("The shopping details were not kept.".to_string(), 0.1),
            _ => (format!("You concluded the total before tax was ${stale}."), 0.05),
        };
        let correct = rng.random_bool(p_recover);
        out.push_str(&format!(
            "{{\"note_id\":\"n{i:02}\",\"note\":{},\"source\":{},\"stale\":\"${stale}\",\"answer\":{total},\"correct\":{correct},\"policy\":\"{policy}\",\"budget\":160}}\n",
            json_string(&note),
            json_string(&source)
        ));
    }
    out
}

/// Trials of four memory policies at two source-integrity levels, 16 problems × 3 seeds each:
/// `source_first` recovers, `summary` mostly, `lossy` rarely and often emits the stale value,
/// `blank` (an empty memory) mostly abstains — so a lossy memory is worse than an empty one.
fn reclaim(rng: &mut ChaCha8Rng) -> String {
    let mut out = String::new();
    for integrity in [1.0, 0.5] {
        for pid in 0..16 {
            let truth = 20 + 3 * pid;
            let stale = truth + 7;
            for seed in 0..3 {
                for (policy, p) in [("source_first", 0.95), ("summary", 0.7), ("lossy", 0.12), ("blank", 0.05)] {
                    let p = if integrity < 1.0 { p * 0.8 } else { p };
                    let answer = if rng.random_bool(p) {
                        Some(truth)
                    } else if policy == "blank" {
                        // An empty memory: mostly no answer, sometimes a guess; never the stale value.
                        rng.random_bool(0.25).then(|| truth + rng.random_range(1..5))
                    } else if rng.random_bool(if policy == "lossy" { 0.6 } else { 0.3 }) {
                        Some(stale)
                    } else if rng.random_bool(0.5) {
                        Some(truth + rng.random_range(1..5))
                    } else {
                        None
                    };
                    let correct = answer == Some(truth);
                    let answer = answer.map(|a| a.to_string()).unwrap_or_else(|| "null".into());
                    out.push_str(&format!(
                        "{{\"pid\":\"p{pid:02}\",\"seed\":{seed},\"policy\":\"{policy}\",\"integrity\":{integrity:.1},\"model\":\"demo-model\",\"answer\":{answer},\"correct\":{correct},\"truth\":{truth},\"stale\":{stale}}}\n"
                    ));
                }
            }
        }
    }
    out
}

/// Raw answers of two systems to 40 questions, written in the ways that make scoring rules
/// disagree: extra words, different case, articles, a number spelled out.
fn answers(rng: &mut ChaCha8Rng) -> String {
    const QA: [(&str, &str); 10] = [
        ("Where did Maria move in 2021?", "Lisbon"),
        ("What instrument does Ben play?", "the cello"),
        ("How many cats does Ana have?", "3"),
        ("Which museum did they visit?", "The Louvre"),
        ("What is Cleo's job?", "auditor"),
        ("When is the dentist appointment?", "Tuesday"),
        ("What did Sam cook on Friday?", "paella"),
        ("Which team does Lee support?", "Benfica"),
        ("What colour is the new car?", "dark blue"),
        ("Who gave the keynote?", "Dr. Okafor"),
    ];
    let mut out = String::new();
    for i in 0..40 {
        let (question, gold) = QA[i % QA.len()];
        for arm in ["system-a", "system-b"] {
            let skill = if arm == "system-a" { 0.75 } else { 0.6 };
            let output = if rng.random_bool(skill) {
                match rng.random_range(0..5) {
                    0 => gold.to_string(),
                    1 => gold.to_lowercase(),
                    2 => format!("The answer is {gold}."),
                    3 => format!("I think it is {gold}, according to the earlier session"),
                    _ => {
                        if gold == "3" {
                            "three".to_string()
                        } else {
                            format!("{gold}!")
                        }
                    }
                }
            } else {
                ["I don't know.", "Porto", "the piano", "Monday", "not mentioned"][rng.random_range(0..5)].to_string()
            };
            out.push_str(&format!(
                "{{\"query_id\":\"q{i:02}\",\"arm\":\"{arm}\",\"dataset\":\"demo-qa\",\"question\":{},\"gold\":[{}],\"output\":{}}}\n",
                json_string(question),
                json_string(gold),
                json_string(&output)
            ));
        }
    }
    out
}

/// Counterfactual ablation traces of two runs: per query, the top memories with their
/// retrieval score (cosine) and the answer's score with all memories (`base_score`) and without
/// this one (`ablated_score`). In `circular` the memories that matter are the best-scored ones
/// (the label tracks the score); in `independent` they are not.
fn ablation(rng: &mut ChaCha8Rng) -> String {
    let mut out = String::from("run,query_id,subset,rank,memory_id,cosine,base_score,ablated_score\n");
    for run in ["independent", "circular"] {
        for q in 0..60 {
            let subset = ["single-hop", "multi-hop"][q % 2];
            let base = u8::from(rng.random_bool(0.7));
            for rank in 1..=5 {
                let cosine = 0.85 - 0.06 * rank as f64 + 0.05 * rng.random::<f64>();
                let needed = match run {
                    "circular" => rank == 1 && rng.random_bool(0.6),
                    _ => rng.random_bool(0.12),
                };
                let harmful = base == 0 && rng.random_bool(0.05);
                let ablated = if base == 1 && needed {
                    0
                } else if harmful {
                    1
                } else {
                    base
                };
                out.push_str(&format!(
                    "{run},{run}-q{q:02},{subset},{rank},m{q:02}_{rank},{cosine:.4},{base},{ablated}\n"
                ));
            }
        }
    }
    out
}

/// Three-class judgments (`supports` / `partial` / `does_not_support`) of 120 contested credits
/// by a human and four judges, in TIAP's long shape (one row per item and rater) with the
/// dataset and the credited rank: each item has a true class; the human errs least, `judge-d`
/// most and leaves four items unlabelled; errors fall on a neighbouring class more often.
fn labels(rng: &mut ChaCha8Rng) -> String {
    const CLASSES: [&str; 3] = ["supports", "partial", "does_not_support"];
    const RATERS: [(&str, f64); 5] =
        [("human", 0.9), ("judge-a", 0.85), ("judge-b", 0.82), ("judge-c", 0.75), ("judge-d", 0.65)];
    let mut out = String::from("item,dataset,credited_rank,rater,label\n");
    for i in 0..120 {
        let dataset = if i % 3 == 2 { "longmemeval-s" } else { "locomo" };
        let rank = 1 + (rng.random::<f64>().powi(2) * 60.0) as usize;
        let truth = if rng.random_bool(0.3) {
            0
        } else if rng.random_bool(0.55) {
            1
        } else {
            2
        };
        for (rater, accuracy) in RATERS {
            if rater == "judge-d" && i % 30 == 7 {
                out.push_str(&format!("c{i:03},{dataset},{rank},{rater},\n"));
                continue;
            }
            let label = if rng.random_bool(accuracy) {
                truth
            } else if truth == 1 || rng.random_bool(0.7) {
                if truth == 1 { if rng.random_bool(0.5) { 0 } else { 2 } } else { 1 }
            } else {
                2 - truth
            };
            out.push_str(&format!("c{i:03},{dataset},{rank},{rater},{}\n", CLASSES[label]));
        }
    }
    out
}

/// A gated memory system's per-item rows in TAG's shape: 200 problems × 3 seeds, the
/// baseline's confidence (a probability, overconfident), whether it was right, whether memory
/// was applied (confidence below the 35th percentile of a fit run) and the outcome with memory
/// (which helps mostly where the baseline is unsure and sometimes hurts where it was right).
fn routing(rng: &mut ChaCha8Rng) -> String {
    let mut out = String::from("item,seed,confidence,correct,applied,with_memory\n");
    for seed in 0..3 {
        for i in 0..200 {
            let skill = normal(rng);
            let confidence = logistic(1.6 * skill + 1.2).clamp(0.001, 0.999);
            let correct = rng.random_bool(logistic(1.2 * skill + 0.6));
            let applied = confidence < 0.62;
            let with_memory = if correct {
                !rng.random_bool(0.04 + 0.06 * (1.0 - confidence))
            } else {
                rng.random_bool(0.5 * (1.0 - confidence))
            };
            out.push_str(&format!(
                "p{i:03},{seed},{confidence:.4},{},{},{}\n",
                u8::from(correct),
                u8::from(applied),
                u8::from(with_memory)
            ));
        }
    }
    out
}

/// Four memory arms on 40 coding tasks at each causal-hop depth 1–3 (BriefBench's design): a
/// typed graph store keeps its recall as depth grows while similarity arms lose theirs, so the
/// graph overtakes them at depth; compliance needs the decision retrieved, and then is honoured
/// with the arm's use factor. Tokens grow with what was retrieved.
fn compliance(rng: &mut ChaCha8Rng) -> String {
    const ARMS: [(&str, f64, f64, f64); 4] = [
        // arm, recall at depth 1, recall lost per hop, use factor
        ("none", 0.0, 0.0, 0.0),
        ("bm25", 0.96, 0.3, 0.86),
        ("dense", 0.98, 0.25, 0.88),
        ("graph", 0.97, 0.0, 0.9),
    ];
    let mut out = String::from("task,arm,depth,compliance,recall,total_tokens\n");
    for (arm, r1, loss, use_factor) in ARMS {
        for depth in 1..=3 {
            for t in 0..40 {
                let p_ret = (r1 - loss * (depth - 1) as f64).max(0.0);
                let retrieved = rng.random_bool(p_ret);
                let recall = if retrieved {
                    1.0
                } else if arm == "none" {
                    0.0
                } else {
                    [0.0, 0.5][rng.random_range(0..2)]
                };
                let comply = u8::from(if retrieved { rng.random_bool(use_factor) } else { rng.random_bool(0.05) });
                let tokens = 900 + rng.random_range(0..200) + if arm == "none" { 0 } else { 400 + 150 * depth };
                out.push_str(&format!("d{depth}-t{t:02},{arm},{depth},{comply},{recall},{tokens}\n"));
            }
        }
    }
    out
}

/// Per-query hit@k of three runs under the raw, source and canonical targets (the columns of
/// `memaudit rescore --format csv --table per_query`) and each query's answer F1: canonical
/// credit reaches more queries, the raw-only queries answer better, and `dense-rerun` is `dense`
/// again under another name (identical metrics).
fn alignment(rng: &mut ChaCha8Rng) -> (String, String) {
    let mut per_query = String::from("system,query_id,target,eligible,hit\n");
    let mut answers = String::from("system,query_id,f1\n");
    let mut dense: Vec<(String, String, bool, Option<u8>, f64)> = Vec::new();
    for run in ["bm25", "dense", "dense-rerun"] {
        for q in 0..80 {
            let (canon_eligible, rows) = if run == "dense-rerun" {
                let rows: Vec<_> = dense.iter().filter(|r| r.0 == format!("q{q:03}")).cloned().collect();
                (true, rows)
            } else {
                let skill = if run == "dense" { 0.55 } else { 0.4 };
                let raw = u8::from(rng.random_bool(skill));
                let canon_eligible = q % 7 != 0;
                let canon = if raw == 1 { u8::from(rng.random_bool(0.8)) } else { u8::from(rng.random_bool(0.35)) };
                let source = raw.max(canon);
                let f1 = match (raw, canon) {
                    (1, 0) => rng.random_range(0.2..0.9),
                    (0, 1) => rng.random_range(0.0..0.4),
                    (1, 1) => rng.random_range(0.3..1.0),
                    _ if rng.random_bool(0.6) => 0.0,
                    _ => rng.random_range(0.0..0.2),
                };
                let f1 = (f1 * 100.0f64).round() / 100.0;
                let mut rows = vec![
                    (format!("q{q:03}"), "raw".to_string(), true, Some(raw), f1),
                    (format!("q{q:03}"), "source".to_string(), true, Some(source), f1),
                ];
                rows.push((
                    format!("q{q:03}"),
                    "canonical".to_string(),
                    canon_eligible,
                    canon_eligible.then_some(canon),
                    f1,
                ));
                if run == "dense" {
                    dense.extend(rows.iter().cloned());
                }
                (canon_eligible, rows)
            };
            let _ = canon_eligible;
            for (query, target, eligible, hit, _) in &rows {
                per_query.push_str(&format!(
                    "{run},{query},{target},{eligible},{}\n",
                    hit.map(|h| h.to_string()).unwrap_or_default()
                ));
            }
            if let Some(r) = rows.first() {
                answers.push_str(&format!("{run},{},{}\n", r.0, r.4));
            }
        }
    }
    (per_query, answers)
}

/// A standard normal draw (Box–Muller).
fn normal(rng: &mut ChaCha8Rng) -> f64 {
    let u1: f64 = rng.random::<f64>().max(1e-12);
    let u2: f64 = rng.random();
    (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
}

fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn json_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn demos_are_deterministic_and_named() {
        for page in Analysis::ALL {
            let a = generate(*page);
            assert_eq!(a, generate(*page), "{page}");
            if let Some(files) = a {
                assert!(files.iter().all(|(_, text)| !text.is_empty() && text.ends_with('\n')), "{page}");
            }
        }
    }
}
