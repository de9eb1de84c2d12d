//! `memaudit claims`: the K-sweep over per-query scores, claims recomputed from them, and the
//! consistency linter over the claims, loaded tables and the computed tables.

use std::path::{Path, PathBuf};

use clap::Args;

use memaudit::claims::{
    ClaimSettings, ClaimsReport, LintRow, LintSettings, claims_report, detect_file_role, read_claims, read_lint_table,
};
use memaudit::error::IngestError;
use memaudit::file_role::FileRole;
use memaudit::ingest::InputFile;
use memaudit::ksweep::{self, ScoreColumns, SweepSettings, read_scores, sweep};
use memaudit::report::opt;

use crate::answers::{BootArgs, Issue5Format, fail, table_csv};
use crate::common::{Failure, json, read_as, read_path};

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

/// Reads a file given as `role`; a failure names the role its columns suggest.
fn read<T>(path: &Path, role: FileRole, read: impl FnOnce(&InputFile) -> Result<T, IngestError>) -> Result<T, Failure> {
    read_as(&read_path(path)?, role, |f| detect_file_role(f).ok(), read)
}

pub(crate) fn claims_cmd(args: ClaimsArgs) -> Result<(), Failure> {
    if args.claims.is_none() && args.data.is_none() && args.tables.is_empty() {
        return Err(fail("nothing to check: give --claims with --data, --data alone (K-sweep), or --table"));
    }
    if args.claims.is_some() && args.data.is_none() {
        return Err(fail("--claims needs --data (the per-query scores the claims are recomputed from)"));
    }
    let scores = match &args.data {
        Some(p) => {
            let cols = ScoreColumns { metric: args.metric.clone(), ..Default::default() };
            Some(read(p, FileRole::Scores, |f| read_scores(f, &cols))?)
        }
        None => None,
    };
    let claims = match &args.claims {
        Some(p) => read(p, FileRole::Claims, read_claims)?,
        None => Vec::new(),
    };
    let mut tables: Vec<LintRow> = Vec::new();
    for p in &args.tables {
        tables.extend(read(p, FileRole::Table, read_lint_table)?);
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
        Issue5Format::Csv => {
            let name = &args.csv_table;
            if ksweep::TABLES.contains(&name.as_str()) && report.sweep.is_none() {
                return Err(fail("this table needs --data (and no --no-sweep)"));
            }
            print!("{}", table_csv(memaudit::claims::table(&report, name), name, &memaudit::claims::TABLES)?);
        }
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
            for w in report.warnings.iter() {
                println!("warning: {} ({}): {}", w.message, w.count, w.examples.join("; "));
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
