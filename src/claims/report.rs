//! Everything `memaudit claims` reports: the checked claims, the linter's findings on every
//! table (the claims, loaded tables, memaudit's own K-sweep), and the K-sweep itself.

use serde::{Deserialize, Serialize};

use super::check::{Claim, ClaimResult, ClaimSettings, Verdict, check_claims, run_mixing};
use super::config::{config_findings, duplicate_findings};
use crate::ksweep::{KSweep, ScoreTable, ScoreWarnings};
use crate::printed::lint::{Finding, LintRow, LintSettings, RowKind, lint};

/// How many claims got each verdict.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct VerdictCounts {
    pub matches: usize,
    pub within_rounding: usize,
    pub differs: usize,
    pub cannot_compute: usize,
}

/// The claims check and the linter's findings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClaimsReport {
    pub settings: ClaimSettings,
    pub lint_settings: LintSettings,
    pub claims: Vec<ClaimResult>,
    pub counts: VerdictCounts,
    /// Findings on the claims, on loaded tables and on memaudit's computed tables.
    pub findings: Vec<Finding>,
    pub sweep: Option<KSweep>,
    /// Reading warnings of the per-query scores (rows left out, naming file and lines).
    #[serde(default)]
    pub warnings: ScoreWarnings,
    /// The queries each (arm, K) cell of the per-query scores holds, and cells of one
    /// (run, dataset, subset, target) on different queries ([`crate::cells`]).
    #[serde(default)]
    pub populations: crate::cells::CellReport,
}

/// Per (run, dataset, subset, target): each (arm, K) cell's queries, cells side by side.
fn score_populations(t: &ScoreTable) -> crate::cells::CellReport {
    let mut order: Vec<(String, String)> = Vec::new();
    let mut items: std::collections::HashMap<(String, String), Vec<String>> = Default::default();
    let o = |s: &Option<String>| s.clone().unwrap_or_default();
    for r in &t.rows {
        let panel = [o(&r.run), o(&r.dataset), o(&r.subset), o(&r.target)]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(" · ");
        let cell = match r.k {
            Some(k) => format!("{} K={k}", r.arm),
            None => r.arm.clone(),
        };
        let key = (if panel.is_empty() { "all rows".to_string() } else { panel }, cell);
        items
            .entry(key.clone())
            .or_insert_with(|| {
                order.push(key.clone());
                Vec::new()
            })
            .push(r.query_id.clone());
    }
    let cells: Vec<crate::cells::CellItems> = order
        .iter()
        .map(|k| {
            let q = items.remove(k).unwrap_or_default();
            crate::cells::CellItems { cell: k.1.clone(), panel: k.0.clone(), rows: q.len(), items: Some(q) }
        })
        .collect();
    crate::cells::CellReport::of_populations(&cells, "queries")
}

/// The K-sweep's own tables as linter rows (a self-check: a computed delta on a partial cell
/// is flagged like a printed one). Cells are `sweep/cells`, deltas `sweep/deltas`.
pub fn sweep_lint_rows(s: &KSweep) -> Vec<LintRow> {
    let key = |run: &Option<String>, dataset: &Option<String>, k: Option<i64>| {
        format!(
            "{}{}k={}",
            run.as_ref().map(|r| format!("{r}/")).unwrap_or_default(),
            dataset.as_ref().map(|d| format!("{d}/")).unwrap_or_default(),
            k.map_or("-".into(), |k| k.to_string())
        )
    };
    let mut out = Vec::new();
    for c in &s.cells {
        out.push(LintRow {
            table: Some("sweep/cells".into()),
            id: format!("{}{}", key(&c.run, &c.dataset, c.k), format_args!("/{}", c.arm)),
            estimate: Some(c.stats.mean),
            ci_low: Some(c.stats.ci_low),
            ci_high: Some(c.stats.ci_high),
            n: Some(c.stats.n),
            scale: 1.0,
            binary: c.stats.binary,
            ..LintRow::default()
        });
    }
    for d in &s.deltas {
        out.push(LintRow {
            table: Some("sweep/deltas".into()),
            id: format!("{}/{}-{}", key(&d.run, &d.dataset, d.k), d.a, d.b),
            kind: RowKind::Delta,
            estimate: Some(d.stats.delta),
            ci_low: Some(d.stats.ci_low),
            ci_high: Some(d.stats.ci_high),
            n: Some(d.stats.n_shared),
            mean_a: Some(d.stats.mean_a),
            mean_b: Some(d.stats.mean_b),
            n_a: Some(d.stats.n_a),
            n_b: Some(d.stats.n_b),
            scale: 1.0,
            binary: d.stats.b_count.is_some(),
            ..LintRow::default()
        });
    }
    out
}

/// Checks the claims (if any) against the scores, and lints the claims, the loaded tables
/// and the sweep's tables.
pub fn claims_report(
    claims: &[Claim],
    scores: Option<&ScoreTable>,
    tables: &[LintRow],
    sweep: Option<KSweep>,
    settings: &ClaimSettings,
    lint_settings: &LintSettings,
) -> ClaimsReport {
    let (results, mut rows) = match scores {
        Some(t) => check_claims(claims, t, settings),
        None => (Vec::new(), Vec::new()),
    };
    rows.extend(tables.iter().cloned());
    if let Some(s) = &sweep {
        rows.extend(sweep_lint_rows(s));
    }
    let mut findings = lint(&rows, lint_settings);
    findings.extend(run_mixing(&results));
    if let Some(t) = scores {
        let contrasts = sweep.as_ref().map(|s| s.settings.contrasts.as_slice()).unwrap_or_default();
        findings.extend(config_findings(t, contrasts));
        findings.extend(duplicate_findings(t));
    }
    let mut counts = VerdictCounts::default();
    for r in &results {
        match r.verdict {
            Verdict::Matches => counts.matches += 1,
            Verdict::WithinRounding => counts.within_rounding += 1,
            Verdict::Differs => counts.differs += 1,
            Verdict::CannotCompute => counts.cannot_compute += 1,
        }
    }
    ClaimsReport {
        settings: settings.clone(),
        lint_settings: lint_settings.clone(),
        claims: results,
        counts,
        findings,
        sweep,
        warnings: scores.map(|t| t.warnings.clone()).unwrap_or_default(),
        populations: scores.map(score_populations).unwrap_or_default(),
    }
}
