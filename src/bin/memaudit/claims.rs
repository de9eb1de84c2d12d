//! `memaudit claims`: the K-sweep over per-query scores, claims recomputed from them, and the
//! consistency linter over the claims, loaded tables and the computed tables.

use std::path::PathBuf;

use clap::Args;

use memaudit::claims::{
    ClaimSettings, ClaimsReport, LintRow, LintSettings, claims_report, read_claims, read_lint_table,
};
use memaudit::error::Error;
use memaudit::ksweep::{ScoreColumns, SweepSettings, read_scores, sweep};
use memaudit::report::num;

use crate::answers::{BootArgs, Issue5Format, csv, fail, opt};
use crate::common::{Failure, json, read_path};

#[derive(Args)]
pub(crate) struct ClaimsArgs {
    /// Claims to check (CSV or JSON): claim_id, text, kind, arms, dataset, k, metric, reported, reported_ci, reported_n, tolerance, scale, source, run.
    #[arg(long)]
    pub(crate) claims: Option<PathBuf>,
    /// Per-query scores (CSV or JSON): arm, query_id, score column(s) [, dataset, k, subset, target, run].
    #[arg(long)]
    pub(crate) data: Option<PathBuf>,
    /// Printed tables to lint (estimate, ci, n, mean_a, mean_b, n_a, n_b, delta, …). Repeatable.
    #[arg(long = "table")]
    pub(crate) tables: Vec<PathBuf>,
    /// The score column (default: score, value, sem, correct, f1, … or the only numeric column).
    #[arg(long)]
    pub(crate) metric: Option<String>,
    /// Contrasts of the K-sweep, `A:B` for A − B (repeatable; default: every pair of arms).
    #[arg(long)]
    pub(crate) contrast: Vec<String>,
    /// Δ-stability slack, in the data's units (0.02 = 2pp for 0/1 scores).
    #[arg(long, default_value_t = 0.02)]
    pub(crate) slack: f64,
    /// The K other Ks are compared with (default: the smallest).
    #[arg(long)]
    pub(crate) base_k: Option<i64>,
    #[command(flatten)]
    pub(crate) boot: BootArgs,
    /// Skip the K-sweep (claims and linting only).
    #[arg(long)]
    pub(crate) no_sweep: bool,
    #[arg(long, value_enum, default_value_t = Issue5Format::Table)]
    pub(crate) format: Issue5Format,
    /// With --format csv: claims, findings, cells, deltas or stability.
    #[arg(long, default_value = "claims")]
    pub(crate) csv_table: String,
    #[arg(long)]
    pub(crate) pretty: bool,
}

fn ingest<T>(r: Result<T, memaudit::error::IngestError>) -> Result<T, Failure> {
    r.map_err(|e| Failure::from(Error::from(e)))
}

pub(crate) fn claims_cmd(args: ClaimsArgs) -> Result<(), Failure> {
    if args.claims.is_none() && args.data.is_none() && args.tables.is_empty() {
        return Err(fail("nothing to check: give --claims with --data, --data alone (K-sweep), or --table"));
    }
    if args.claims.is_some() && args.data.is_none() {
        return Err(fail("--claims needs --data (the per-query scores the claims are recomputed from)"));
    }
    let scores = match &args.data {
        Some(p) => Some(ingest(read_scores(
            &read_path(p)?,
            &ScoreColumns { metric: args.metric.clone(), ..Default::default() },
        ))?),
        None => None,
    };
    let claims = match &args.claims {
        Some(p) => ingest(read_claims(&read_path(p)?))?,
        None => Vec::new(),
    };
    let mut tables: Vec<LintRow> = Vec::new();
    for p in &args.tables {
        tables.extend(ingest(read_lint_table(&read_path(p)?))?);
    }
    let sweep_out = match (&scores, args.no_sweep) {
        (Some(t), false) => {
            let mut s = SweepSettings::new(&t.default_metric);
            s.bootstrap = args.boot.bootstrap;
            s.seed = args.boot.seed;
            s.confidence = args.boot.confidence;
            s.slack = args.slack;
            s.base_k = args.base_k;
            for c in &args.contrast {
                let (a, b) = c.split_once(':').ok_or_else(|| fail(format!("--contrast `{c}`: expected A:B")))?;
                s.contrasts.push((a.to_string(), b.to_string()));
            }
            Some(sweep(t, &s)?)
        }
        _ => None,
    };
    let settings =
        ClaimSettings { bootstrap: args.boot.bootstrap, seed: args.boot.seed, confidence: args.boot.confidence };
    let report = claims_report(&claims, scores.as_ref(), &tables, sweep_out, &settings, &LintSettings::default());
    match args.format {
        Issue5Format::Json => {
            #[derive(serde::Serialize)]
            struct Out<'a> {
                #[serde(flatten)]
                report: &'a ClaimsReport,
                memaudit_version: &'static str,
            }
            println!("{}", json(&Out { report: &report, memaudit_version: env!("CARGO_PKG_VERSION") }, args.pretty)?);
        }
        Issue5Format::Csv => print!("{}", claims_csv(&report, &args.csv_table)?),
        Issue5Format::Table => {
            for c in &report.claims {
                println!(
                    "{:<24} {:<16} reported {:>10} recomputed {:>10}  {:?}{}",
                    c.claim_id,
                    format!("{:?}", c.kind).to_lowercase(),
                    c.reported.map_or_else(|| opt(&c.reported_text), |v| v.to_string()),
                    c.recomputed.map_or_else(|| opt(&c.recomputed_text), |v| format!("{v:.4}")),
                    c.verdict,
                    if c.reason.is_empty() { String::new() } else { format!(" — {}", c.reason) }
                );
            }
            let n = &report.counts;
            if !report.claims.is_empty() {
                println!(
                    "{} matches, {} within rounding, {} differ, {} cannot be computed",
                    n.matches, n.within_rounding, n.differs, n.cannot_compute
                );
            }
            for f in &report.findings {
                println!("{:?} [{}] {}: {}", f.kind, opt(&f.table), f.row, f.message);
            }
            if let Some(s) = &report.sweep {
                for d in &s.deltas {
                    println!(
                        "delta {}−{} {} k={}: {:+.4} [{:+.4}, {:+.4}] n={} {:?}",
                        d.a,
                        d.b,
                        opt(&d.dataset),
                        d.k.map_or("-".into(), |k| k.to_string()),
                        d.stats.delta,
                        d.stats.ci_low,
                        d.stats.ci_high,
                        d.stats.n_shared,
                        d.stats.label
                    );
                }
            }
        }
    }
    Ok(())
}

fn claims_csv(report: &ClaimsReport, table: &str) -> Result<String, Failure> {
    let k = |k: Option<i64>| k.map(|k| k.to_string()).unwrap_or_default();
    match table {
        "claims" => csv(
            "claims",
            &[
                "claim_id",
                "kind",
                "arms",
                "dataset",
                "k",
                "metric",
                "run",
                "reported",
                "recomputed",
                "difference",
                "reported_ci_low",
                "reported_ci_high",
                "recomputed_ci_low",
                "recomputed_ci_high",
                "reported_n",
                "n",
                "verdict",
                "reason",
            ],
            report
                .claims
                .iter()
                .map(|c| {
                    vec![
                        c.claim_id.clone(),
                        format!("{:?}", c.kind).to_lowercase(),
                        c.arms.join(";"),
                        opt(&c.dataset),
                        k(c.k),
                        c.metric.clone(),
                        opt(&c.run),
                        c.reported.map_or_else(|| opt(&c.reported_text), |v| num(Some(v))),
                        c.recomputed.map_or_else(|| opt(&c.recomputed_text), |v| num(Some(v))),
                        num(c.difference),
                        num(c.reported_ci.map(|x| x[0])),
                        num(c.reported_ci.map(|x| x[1])),
                        num(c.recomputed_ci.map(|x| x[0])),
                        num(c.recomputed_ci.map(|x| x[1])),
                        c.reported_n.map(|n| n.to_string()).unwrap_or_default(),
                        c.n.map(|n| n.to_string()).unwrap_or_default(),
                        serde_json::to_value(c.verdict)
                            .ok()
                            .and_then(|v| v.as_str().map(str::to_string))
                            .unwrap_or_default(),
                        c.reason.clone(),
                    ]
                })
                .collect(),
        ),
        "findings" => csv(
            "findings",
            &["kind", "table", "row", "message", "expected", "found", "location"],
            report
                .findings
                .iter()
                .map(|f| {
                    vec![
                        serde_json::to_value(f.kind)
                            .ok()
                            .and_then(|v| v.as_str().map(str::to_string))
                            .unwrap_or_default(),
                        opt(&f.table),
                        f.row.clone(),
                        f.message.clone(),
                        num(f.expected),
                        num(f.found),
                        opt(&f.location),
                    ]
                })
                .collect(),
        ),
        "cells" | "deltas" | "stability" => {
            let s = report.sweep.as_ref().ok_or_else(|| fail("this table needs --data (and no --no-sweep)"))?;
            match table {
                "cells" => csv(
                    "cells",
                    &["run", "dataset", "arm", "k", "n", "mean", "ci_low", "ci_high", "wilson_low", "wilson_high"],
                    s.cells
                        .iter()
                        .map(|c| {
                            vec![
                                opt(&c.run),
                                opt(&c.dataset),
                                c.arm.clone(),
                                k(c.k),
                                c.stats.n.to_string(),
                                num(Some(c.stats.mean)),
                                num(Some(c.stats.ci_low)),
                                num(Some(c.stats.ci_high)),
                                num(c.stats.wilson_low),
                                num(c.stats.wilson_high),
                            ]
                        })
                        .collect(),
                ),
                "deltas" => csv(
                    "deltas",
                    &[
                        "run",
                        "dataset",
                        "k",
                        "a",
                        "b",
                        "n_a",
                        "n_b",
                        "n_shared",
                        "mean_a",
                        "mean_b",
                        "delta",
                        "ci_low",
                        "ci_high",
                        "label",
                        "query_sets_differ",
                    ],
                    s.deltas
                        .iter()
                        .map(|d| {
                            vec![
                                opt(&d.run),
                                opt(&d.dataset),
                                k(d.k),
                                d.a.clone(),
                                d.b.clone(),
                                d.stats.n_a.to_string(),
                                d.stats.n_b.to_string(),
                                d.stats.n_shared.to_string(),
                                num(Some(d.stats.mean_a)),
                                num(Some(d.stats.mean_b)),
                                num(Some(d.stats.delta)),
                                num(Some(d.stats.ci_low)),
                                num(Some(d.stats.ci_high)),
                                format!("{:?}", d.stats.label).to_lowercase(),
                                d.stats.query_sets_differ.to_string(),
                            ]
                        })
                        .collect(),
                ),
                _ => csv(
                    "stability",
                    &[
                        "run",
                        "dataset",
                        "a",
                        "b",
                        "base_k",
                        "k",
                        "delta_base",
                        "delta_k",
                        "change",
                        "slack",
                        "within",
                        "partial",
                    ],
                    s.stability
                        .iter()
                        .map(|r| {
                            vec![
                                opt(&r.run),
                                opt(&r.dataset),
                                r.a.clone(),
                                r.b.clone(),
                                k(r.base_k),
                                k(r.k),
                                num(Some(r.delta_base)),
                                num(Some(r.delta_k)),
                                num(Some(r.change)),
                                num(Some(r.slack)),
                                r.within.to_string(),
                                r.partial.to_string(),
                            ]
                        })
                        .collect(),
                ),
            }
        }
        t => Err(fail(format!("unknown table `{t}` (claims, findings, cells, deltas, stability)"))),
    }
}
