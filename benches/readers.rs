//! Reading speed of every capability's reader on a large valid input: rows per second of
//! `Capability::load` (roles detected, the file decoded, parsed and checked — what every run
//! pays before its analysis), on 200,000 generated rows per reader (the TREC reader: 1,000,000
//! run lines). Generated here, deterministic. Run with `cargo bench --bench readers`; the
//! results are in BENCHMARKS.md ("Readers").

use std::time::Instant;

use memaudit::capability::{Capability, assign_roles, quiet};
use memaudit::ingest::InputFile;

const ROWS: usize = 200_000;

/// `n` lines from `line(i)` after `header`.
fn lines(header: &str, n: usize, line: impl Fn(usize) -> String) -> Vec<u8> {
    let mut out = String::with_capacity(n * 64);
    out.push_str(header);
    for i in 0..n {
        out.push_str(&line(i));
        out.push('\n');
    }
    out.into_bytes()
}

/// Loads `files` as `C` five times: (median seconds, rows).
fn time<C: Capability>(files: &[(&str, Vec<u8>)], rows: usize) -> f64 {
    let mut secs = Vec::new();
    for _ in 0..5 {
        let inputs = files.iter().map(|(n, b)| (InputFile::new(*n, b.clone()), None)).collect();
        let t = Instant::now();
        let roles = assign_roles::<C>(inputs).unwrap_or_else(|e| panic!("{}: {e}", C::ANALYSIS));
        C::load(&roles, &C::Request::default(), &mut quiet()).unwrap_or_else(|e| panic!("{}: {e}", C::ANALYSIS));
        secs.push(t.elapsed().as_secs_f64());
    }
    secs.sort_by(f64::total_cmp);
    let bytes: usize = files.iter().map(|(_, b)| b.len()).sum();
    println!(
        "| {} | {} | {:.1} MB | {:.0} ms | **{:.2} M rows/s** |",
        C::ANALYSIS,
        rows,
        bytes as f64 / 1e6,
        secs[2] * 1000.0,
        rows as f64 / secs[2] / 1e6
    );
    secs[2]
}

fn main() {
    use memaudit::{
        ablation, alignment, answers, calibration, claims, compare, compliance, ireval, label_audit, probe, reclaim,
    };
    let n = ROWS;
    println!("| reader | rows | bytes | load (median of 5) | rows/s |\n|---|---:|---:|---:|---:|");
    time::<compare::Compare>(
        &[(
            "outcomes.csv",
            lines("item_id,arm,correct\n", n, |i| format!("q{},{},{}", i / 2, ["a", "b"][i % 2], i % 3 % 2)),
        )],
        n,
    );
    time::<probe::Probe>(
        &[(
            "notes.jsonl",
            lines("", n, |i| {
                format!(
                    r#"{{"note_id": "n{i}", "note": "You concluded the total was ${}.", "source": "notebooks at $4 each ({} bought) and pens at $2 each (9 bought)", "stale": "${}", "correct": {}}}"#,
                    4 * (i % 50) + 18,
                    i % 50,
                    4 * (i % 50) + 18,
                    i % 2 == 0
                )
            }),
        )],
        n,
    );
    time::<reclaim::Reclaim>(
        &[(
            "trials.jsonl",
            lines("", n, |i| {
                format!(
                    r#"{{"pid": "p{}", "seed": {}, "policy": "{}", "reply": "{}", "correct": {}, "truth": "46", "stale": "55"}}"#,
                    i / 4,
                    i % 2,
                    ["full", "lossy"][i / 2 % 2],
                    [46, 55][i % 2],
                    i % 2 == 0
                )
            }),
        )],
        n,
    );
    time::<answers::Answers>(
        &[(
            "answers.jsonl",
            lines("", n, |i| {
                format!(
                    r#"{{"query_id": "q{i}", "gold": ["Paris", "the city of Paris"], "prediction": "Answer: Paris, in {} May", "category": {}}}"#,
                    i % 28 + 1,
                    i % 5 + 1
                )
            }),
        )],
        n,
    );
    time::<ablation::Ablation>(
        &[(
            "traces.csv",
            lines("run,query_id,subset,rank,memory_id,cosine,base_score,ablated_score\n", n, |i| {
                format!("r1,q{},ruler_qa1,{},m{i},0.{},{},{}", i / 10, i % 10 + 1, 5000 + i % 4999, i % 2, i / 3 % 2)
            }),
        )],
        n,
    );
    time::<claims::Claims>(
        &[(
            "scores.csv",
            lines("arm,dataset,k,query_id,sem\n", n, |i| {
                format!("{},ruler_qa1,5,q{},{}", ["vanilla", "specialist"][i % 2], i / 2, i % 3 % 2)
            }),
        )],
        n,
    );
    time::<label_audit::Labels>(
        &[(
            "labels.csv",
            lines("item,rater,label\n", n, |i| {
                format!("c{},{},{}", i / 2, ["a", "b"][i % 2], ["supports", "partial", "does_not_support"][i % 3])
            }),
        )],
        n,
    );
    time::<calibration::Calibration>(
        &[(
            "routing.csv",
            lines("item,confidence,correct,with_memory,applied\n", n, |i| {
                format!("q{i},0.{},{},{},{}", i % 97 + 1, i % 2, i / 2 % 2, i / 3 % 2)
            }),
        )],
        n,
    );
    time::<alignment::Alignment>(
        &[(
            "per_query.csv",
            lines("system,query_id,target,eligible,hit\n", n, |i| {
                format!("r{},q{},{},true,{}", i % 2, i / 4, ["raw", "canonical"][i / 2 % 2], i % 3 % 2)
            }),
        )],
        n,
    );
    time::<compliance::Compliance>(
        &[(
            "rows.jsonl",
            lines("", n, |i| {
                format!(
                    r#"{{"arm":"{}","depth":{},"compliance_rate":{},"recall":1,"total_tokens":{}}}"#,
                    ["a", "b", "c"][i % 3],
                    i % 3 + 1,
                    i % 2,
                    800 + i % 500
                )
            }),
        )],
        n,
    );
    let qrels = lines("", 10_000, |i| format!("{} 0 d{}_{} 1", i / 10, i / 10, i % 10 * 7));
    let run = lines("", 1_000_000, |i| {
        format!("{} Q0 d{}_{} {} {} t", i / 1000, i / 1000, i % 1000, i % 1000 + 1, 1000 - i % 1000)
    });
    time::<ireval::TrecEval>(&[("test.qrels", qrels), ("run.txt", run)], 1_010_000);
}
