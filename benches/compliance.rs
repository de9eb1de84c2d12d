//! Decision-compliance speed on BriefBench's released rows (`all_rows_claude.jsonl`, 1,824
//! rows): per dataset (3 groups), 9 arms × 3 depths, the focus arm against every other, 10,000
//! resamples — κ, return on tokens, slopes, margins, crossings and power. Run with
//! `cargo bench --bench compliance`; the peer is `benches/compliance_peer.py` (NumPy, the same
//! statistics on the same resampling scheme). Results go in BENCHMARKS.md.

use std::path::PathBuf;
use std::time::Instant;

use memaudit::capability::{FileRole, assign_roles, quiet, run_once};
use memaudit::compliance::{Compliance, ComplianceRequest};
use memaudit::ingest::InputFile;

fn main() {
    let p =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures/external/BriefBench/all_rows_claude.jsonl");
    let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    let q = ComplianceRequest {
        group: vec!["dataset".into()],
        focus: Some("brief_graph_3hop".into()),
        claimed_effect: Some(0.1),
        ..ComplianceRequest::default()
    };
    let mut times = Vec::new();
    let mut rows = 0;
    for _ in 0..5 {
        let files = assign_roles::<Compliance>(vec![(
            InputFile::new("all_rows_claude.jsonl", bytes.clone()),
            Some(FileRole::ComplianceRows),
        )])
        .unwrap();
        let t = Instant::now();
        let (_, r) = run_once::<Compliance>(&files, &q, &mut quiet()).unwrap();
        times.push(t.elapsed().as_secs_f64() * 1000.0);
        rows = r.rows;
    }
    times.sort_by(f64::total_cmp);
    println!(
        "compliance: {rows} rows, 3 groups, B = {}: read + analyse median {:.0} ms (min {:.0}, max {:.0})",
        q.bootstrap.resamples, times[2], times[0], times[4]
    );
}
