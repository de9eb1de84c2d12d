//! The consistency linter: checks that hold for any table of estimates, intervals, n's, means
//! and deltas, whoever computed it — a paper's printed table, a claims file, or memaudit's own
//! tables. Each check is a named [`LintKind`] with its tolerance in `docs/claims.md`.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use super::number::{PrintedValue, half_unit, parse_interval, parse_printed};
use crate::error::{IngestError, Location};
use crate::stats::normal::z_two_sided;
use crate::stats::proportions::{clopper_pearson_interval, cohens_h, two_proportion_z, wilson_interval};

/// What a row estimates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum RowKind {
    /// A mean (a proportion when `binary`).
    #[default]
    Mean,
    /// A paired difference of two arms' means (a difference of proportions when `binary`).
    Delta,
}

/// One row of a table to check. Values are on the printed scale (`scale` 100 for percentage
/// points); `decimals` is how many decimals the table prints (`None`: exact values).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LintRow {
    pub table: Option<String>,
    pub id: String,
    pub kind: RowKind,
    pub estimate: Option<f64>,
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
    /// Items behind the estimate (shared items for a delta).
    pub n: Option<usize>,
    pub mean_a: Option<f64>,
    pub mean_b: Option<f64>,
    pub n_a: Option<usize>,
    pub n_b: Option<usize>,
    /// Printed delta next to the two means (for a delta row the estimate is used if absent).
    pub delta: Option<f64>,
    /// A printed help/hurt ledger of a paired binary delta: items only a got right, only b.
    pub help: Option<usize>,
    pub hurt: Option<usize>,
    /// Fingerprints (or id lists) of the two arms' query sets.
    pub queries_a: Option<String>,
    pub queries_b: Option<String>,
    /// Prompt fingerprints of the two arms (`prompt_hash_a`, `prompt_hash_b`): must be equal.
    #[serde(default)]
    pub prompt_hash_a: Option<String>,
    #[serde(default)]
    pub prompt_hash_b: Option<String>,
    /// 1 for fractions, 100 for percentages / percentage points.
    pub scale: f64,
    /// Outcomes are 0/1: estimates are proportions (or differences of proportions) of n.
    pub binary: bool,
    /// `wilson` or `clopper_pearson` when the interval claims one of these.
    pub ci_method: Option<String>,
    pub confidence: Option<f64>,
    pub planned_n: Option<usize>,
    /// A printed two-proportion z and Cohen's h of mean_a vs mean_b.
    pub z: Option<f64>,
    pub cohen_h: Option<f64>,
    pub run: Option<String>,
    /// Decimals printed for estimates, means and deltas; for the interval; for z and h.
    pub decimals: Option<u32>,
    pub ci_decimals: Option<u32>,
    pub stat_decimals: Option<u32>,
    /// Where the row was read (`file, line N`), when from a file.
    pub location: Option<String>,
    /// A printed p-value of the paired test on (help, hurt), and the test it claims
    /// (`mcnemar_exact` by default, `mcnemar_mid_p`, `mcnemar_chi2`, `mcnemar_chi2_cc`).
    #[serde(default)]
    pub p: Option<super::number::PrintedP>,
    #[serde(default)]
    pub p_test: Option<String>,
    /// BriefBench's identity columns: compliance, recall and the use factor κ; MAP and MRR with
    /// the gold items per query; a mean rank (the rows of one table are the k arms).
    #[serde(default)]
    pub compliance: Option<f64>,
    #[serde(default)]
    pub recall: Option<f64>,
    #[serde(default)]
    pub kappa: Option<f64>,
    #[serde(default)]
    pub map: Option<f64>,
    #[serde(default)]
    pub mrr: Option<f64>,
    #[serde(default)]
    pub gold: Option<usize>,
    #[serde(default)]
    pub mean_rank: Option<f64>,
}

/// Every check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LintKind {
    /// The point estimate lies outside its own interval.
    PointOutsideCi,
    /// The printed delta is not the difference of the printed means.
    DeltaNotDifference,
    /// A proportion (or paired difference of proportions) is not k/n for any whole k.
    OffGrid,
    /// The two arms were not measured on the same queries.
    DifferentQuerySets,
    /// The interval is narrower than any plausible interval for this n.
    CiTooNarrow,
    /// The interval is wider than possible for this n.
    CiTooWide,
    /// An interval labelled Wilson / Clopper–Pearson is not that interval.
    CiMethodMismatch,
    /// The printed z or Cohen's h does not follow from the printed proportions.
    StatisticInconsistent,
    /// Fewer items than planned.
    PartialRun,
    /// The same row id twice in one table.
    DuplicateRow,
    /// Claims from one source match different runs of the data.
    RunMixing,
    /// Two arms compared at equal K with different prompt fingerprints (`prompt_hash`), one
    /// arm with different fingerprints across K, or one cell mixing fingerprints (the
    /// banking77 −74pp artifact of seed-000).
    ConfigMismatch,
    /// A query id given twice for the same (run, dataset, target, arm, K) in per-query scores.
    DuplicateQueryId,
    /// A printed p-value is not the test's p on the printed discordant counts (help, hurt).
    PValueInconsistent,
    /// The same row (id) in two tables with different counts (help, hurt, n).
    CountMismatch,
    /// A printed identity does not hold: κ = compliance / recall, MAP = MRR with one gold item
    /// (MAP ≤ MRR with several), or a table's mean ranks summing to k(k + 1)/2.
    IdentityViolated,
}

/// One side of a finding that compares cells of per-query scores: an arm at a K, with the
/// value found there (a fingerprint for `config_mismatch`, the query id for
/// `duplicate_query_id`) and where it was read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FindingSide {
    pub arm: String,
    pub k: Option<i64>,
    pub value: String,
    pub location: Option<String>,
}

/// One problem found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    pub kind: LintKind,
    pub table: Option<String>,
    pub row: String,
    pub message: String,
    /// What consistency requires, and what is printed.
    pub expected: Option<f64>,
    pub found: Option<f64>,
    pub location: Option<String>,
    /// The run and dataset of a finding on per-query scores (`config_mismatch`,
    /// `duplicate_query_id`); `null` otherwise.
    #[serde(default)]
    pub run: Option<String>,
    #[serde(default)]
    pub dataset: Option<String>,
    /// The column the finding is about (`prompt_hash`, `config_hash`, `query_id`).
    #[serde(default)]
    pub field: Option<String>,
    /// The cells compared (arm, K, value, location); empty for the table checks.
    #[serde(default)]
    pub sides: Vec<FindingSide>,
}

impl Finding {
    /// A finding with no per-query-score detail (run, dataset, field, sides empty).
    pub fn new(
        kind: LintKind,
        table: Option<String>,
        row: String,
        message: String,
        expected: Option<f64>,
        found: Option<f64>,
        location: Option<String>,
    ) -> Finding {
        Finding {
            kind,
            table,
            row,
            message,
            expected,
            found,
            location,
            run: None,
            dataset: None,
            field: None,
            sides: Vec::new(),
        }
    }
}

/// Tolerances of the interval-width checks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LintSettings {
    /// Too narrow: width < narrow_factor × the narrowest plausible width − 2 grid steps.
    pub narrow_factor: f64,
    /// Too wide: width > wide_factor × the widest possible width + 2 grid steps.
    pub wide_factor: f64,
    /// Confidence of intervals whose row does not say.
    pub confidence: f64,
}

impl Default for LintSettings {
    fn default() -> Self {
        LintSettings { narrow_factor: 0.6, wide_factor: 1.25, confidence: 0.95 }
    }
}

impl LintRow {
    /// Half a printed unit (0 for exact rows, plus a float allowance).
    fn half(&self) -> f64 {
        half_of(self.decimals, self.scale)
    }
    fn half_ci(&self) -> f64 {
        half_of(self.ci_decimals.or(self.decimals), self.scale)
    }
}

fn half_of(decimals: Option<u32>, scale: f64) -> f64 {
    decimals.map_or(0.0, half_unit) + 1e-9 * scale.max(1.0)
}

/// Whether `est` (printed, on `scale`) is k/n·scale for some whole k in `range`, within `half`.
pub fn on_grid(est: f64, n: usize, scale: f64, half: f64, signed: bool) -> bool {
    if n == 0 {
        return false;
    }
    let k = (est / scale * n as f64).round() as i64;
    let lo = if signed { -(n as i64) } else { 0 };
    (k - 1..=k + 1).filter(|k| *k >= lo && *k <= n as i64).any(|k| (k as f64 / n as f64 * scale - est).abs() <= half)
}

fn finding(row: &LintRow, kind: LintKind, message: String, expected: Option<f64>, found: Option<f64>) -> Finding {
    Finding::new(kind, row.table.clone(), row.id.clone(), message, expected, found, row.location.clone())
}

/// Runs every check on every row.
pub fn lint(rows: &[LintRow], settings: &LintSettings) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for r in rows {
        if !seen.insert((r.table.clone(), r.id.clone())) {
            out.push(finding(r, LintKind::DuplicateRow, format!("row `{}` appears twice", r.id), None, None));
        }
        check_row(r, settings, &mut out);
        check_p(r, &mut out);
        check_identities(r, &mut out);
    }
    check_counts_across_tables(rows, &mut out);
    check_rank_sums(rows, &mut out);
    out
}

/// κ = compliance / recall within the printed rounding (each of the three printed to `half`:
/// |κ − c/r| ≤ half·(1 + 1/r + c/r²)); MAP = MRR within rounding with one gold item, MAP ≤ MRR
/// with several (seed-002 §5.4).
fn check_identities(r: &LintRow, out: &mut Vec<Finding>) {
    let half = r.half();
    if let (Some(c), Some(rec), Some(k)) = (r.compliance, r.recall, r.kappa)
        && rec > 0.0
    {
        let want = c / rec;
        let allow = half * (1.0 + 1.0 / rec + c / (rec * rec)) * (1.0 + 1e-9);
        if (k - want).abs() > allow {
            out.push(finding(
                r,
                LintKind::IdentityViolated,
                format!("kappa {k} is not compliance / recall = {c} / {rec} = {want:.4}"),
                Some(want),
                Some(k),
            ));
        }
    }
    if let (Some(map), Some(mrr), Some(g)) = (r.map, r.mrr, r.gold) {
        let bad = if g == 1 { (map - mrr).abs() > 2.0 * half } else { map > mrr + 2.0 * half };
        if bad {
            out.push(finding(
                r,
                LintKind::IdentityViolated,
                if g == 1 {
                    format!("MAP {map} is not MRR {mrr}: with one gold item per query AP = 1/rank, so MAP = MRR")
                } else {
                    format!("MAP {map} exceeds MRR {mrr}: with {g} gold items AP ≤ RR per query, so MAP ≤ MRR")
                },
                Some(mrr),
                Some(map),
            ));
        }
    }
}

/// The mean ranks of one table's k rows sum to k(k + 1)/2 (each block ranks 1..k, ties by
/// midranks), within k printed roundings.
fn check_rank_sums(rows: &[LintRow], out: &mut Vec<Finding>) {
    // The tables in the order first seen, found by a map (linear in the rows).
    let mut tables: Vec<(Option<String>, Vec<&LintRow>)> = Vec::new();
    let mut at: std::collections::HashMap<Option<&str>, usize> = std::collections::HashMap::new();
    for r in rows.iter().filter(|r| r.mean_rank.is_some()) {
        let i = *at.entry(r.table.as_deref()).or_insert_with(|| {
            tables.push((r.table.clone(), Vec::new()));
            tables.len() - 1
        });
        tables[i].1.push(r);
    }
    for (_, rs) in tables {
        let k = rs.len() as f64;
        if rs.len() < 2 {
            continue;
        }
        let sum: f64 = rs.iter().filter_map(|r| r.mean_rank).sum();
        let want = k * (k + 1.0) / 2.0;
        let allow = rs.iter().map(|r| r.half()).sum::<f64>() * (1.0 + 1e-9);
        if (sum - want).abs() > allow {
            let last = rs[rs.len() - 1];
            out.push(finding(
                last,
                LintKind::IdentityViolated,
                format!("the {} mean ranks sum to {sum:.4}, not k(k + 1)/2 = {want} for k = {}", rs.len(), rs.len()),
                Some(want),
                Some(sum),
            ));
        }
    }
}

/// The printed p against the claimed test on the printed (help, hurt): equal within half a unit
/// of its last significant digit, or, for a bound `< t`, below t. When another McNemar variant
/// gives the printed value, the message names it.
fn check_p(r: &LintRow, out: &mut Vec<Finding>) {
    let (Some(p), Some(b), Some(c)) = (r.p, r.help, r.hurt) else { return };
    let m = crate::stats::mcnemar::mcnemar(b as u64, c as u64);
    let variants = [
        ("mcnemar_exact", Some(m.exact_p)),
        ("mcnemar_mid_p", m.mid_p),
        ("mcnemar_chi2_cc", m.p_chi2_cc),
        ("mcnemar_chi2", m.p_chi2),
    ];
    let test = r.p_test.as_deref().unwrap_or("mcnemar_exact");
    let Some(want) = variants.iter().find(|(n, _)| *n == test).and_then(|v| v.1) else { return };
    let agrees = |x: f64| if p.below { x < p.value } else { (x - p.value).abs() <= p.half_unit * (1.0 + 1e-9) };
    if agrees(want) {
        return;
    }
    let other = variants.iter().find(|(n, v)| *n != test && v.is_some_and(agrees)).map(|(n, _)| *n);
    out.push(finding(
        r,
        LintKind::PValueInconsistent,
        format!(
            "printed p {}{} is not the {test} p of (help, hurt) = ({b}, {c}): {want:.4e}{}",
            if p.below { "< " } else { "" },
            p.value,
            other.map_or(String::new(), |o| format!(" (it is the {o} p)"))
        ),
        Some(want),
        Some(p.value),
    ));
}

/// The same row id in two tables must carry the same counts (help, hurt, n).
fn check_counts_across_tables(rows: &[LintRow], out: &mut Vec<Finding>) {
    let mut first: std::collections::HashMap<&str, &LintRow> = std::collections::HashMap::new();
    for r in rows {
        let Some(prev) = first.get(r.id.as_str()).copied() else {
            first.insert(&r.id, r);
            continue;
        };
        if prev.table == r.table {
            continue;
        }
        for (what, x, y) in [("help", prev.help, r.help), ("hurt", prev.hurt, r.hurt), ("n", prev.n, r.n)] {
            if let (Some(x), Some(y)) = (x, y)
                && x != y
            {
                out.push(finding(
                    r,
                    LintKind::CountMismatch,
                    format!(
                        "`{}` reports {what} = {y} here and {x} in {} ({})",
                        r.id,
                        prev.table.as_deref().unwrap_or("another table"),
                        prev.location.as_deref().unwrap_or("-")
                    ),
                    Some(x as f64),
                    Some(y as f64),
                ));
            }
        }
    }
}

fn check_row(r: &LintRow, settings: &LintSettings, out: &mut Vec<Finding>) {
    let half = r.half();
    let scale = if r.scale > 0.0 { r.scale } else { 1.0 };
    let est = r.estimate.or(if r.kind == RowKind::Delta { r.delta } else { None });
    let conf = r.confidence.unwrap_or(settings.confidence);
    // point outside its interval
    if let (Some(e), Some(lo), Some(hi)) = (est, r.ci_low, r.ci_high)
        && (e < lo - half.max(r.half_ci()) || e > hi + half.max(r.half_ci()))
    {
        out.push(finding(
            r,
            LintKind::PointOutsideCi,
            format!("estimate {e} lies outside its interval [{lo}, {hi}]"),
            None,
            Some(e),
        ));
    }
    // delta vs difference of the displayed means (three printed roundings)
    let delta = r.delta.or(if r.kind == RowKind::Delta { r.estimate } else { None });
    if let (Some(d), Some(a), Some(b)) = (delta, r.mean_a, r.mean_b)
        && (d - (a - b)).abs() > 3.0 * half
    {
        out.push(finding(
            r,
            LintKind::DeltaNotDifference,
            format!("delta {d} is not mean_a − mean_b = {a} − {b} = {}", a - b),
            Some(a - b),
            Some(d),
        ));
    }
    // delta vs the help/hurt ledger: (help − hurt)/n
    if let (Some(d), Some(h), Some(u), Some(n)) = (delta, r.help, r.hurt, r.n)
        && n > 0
    {
        let want = (h as f64 - u as f64) / n as f64 * scale;
        if (d - want).abs() > half {
            out.push(finding(
                r,
                LintKind::DeltaNotDifference,
                format!("delta {d} is not (help − hurt)/n = ({h} − {u})/{n} = {want:.4}"),
                Some(want),
                Some(d),
            ));
        }
    }
    // different query sets
    let sets_differ = match (&r.queries_a, &r.queries_b) {
        (Some(x), Some(y)) => x != y,
        _ => matches!((r.n_a, r.n_b), (Some(x), Some(y)) if x != y),
    };
    if sets_differ {
        out.push(finding(
            r,
            LintKind::DifferentQuerySets,
            format!(
                "the arms were measured on different query sets (n_a = {}, n_b = {})",
                r.n_a.map_or("?".into(), |n| n.to_string()),
                r.n_b.map_or("?".into(), |n| n.to_string())
            ),
            None,
            None,
        ));
    }
    // the two arms' prompt fingerprints
    if let (Some(x), Some(y)) = (&r.prompt_hash_a, &r.prompt_hash_b)
        && x != y
    {
        out.push(finding(
            r,
            LintKind::ConfigMismatch,
            format!("the arms were run with different prompts: prompt_hash_a `{x}` ≠ prompt_hash_b `{y}`"),
            None,
            None,
        ));
    }
    // partial runs
    if let Some(p) = r.planned_n {
        for n in [r.n, r.n_a, r.n_b].into_iter().flatten() {
            if n < p {
                out.push(finding(
                    r,
                    LintKind::PartialRun,
                    format!("{n} items of {p} planned"),
                    Some(p as f64),
                    Some(n as f64),
                ));
                break;
            }
        }
    }
    if !r.binary {
        if let (Some(n), Some(lo), Some(hi)) = (r.n, r.ci_low, r.ci_high)
            && n > 0
            && r.kind == RowKind::Mean
        {
            // a mean of values in [0, scale] has SD ≤ scale/2
            let widest = 2.0 * z_two_sided(conf) * 0.5 / (n as f64).sqrt() * scale;
            if hi - lo > settings.wide_factor * widest + half * 2.0 {
                out.push(finding(
                    r,
                    LintKind::CiTooWide,
                    format!("width {} exceeds {widest:.4} possible for n = {n}", hi - lo),
                    Some(widest),
                    Some(hi - lo),
                ));
            }
        }
        return;
    }
    // proportions on the k/n grid
    let signed = r.kind == RowKind::Delta;
    let n_est = r.n.or(if r.kind == RowKind::Mean { None } else { r.n_a.filter(|a| Some(*a) == r.n_b) });
    if let (Some(e), Some(n)) = (est, n_est)
        && !on_grid(e, n, scale, half, signed)
    {
        out.push(finding(r, LintKind::OffGrid, format!("{e} is not k/{n} for any whole k"), None, Some(e)));
    }
    for (m, n, side) in [(r.mean_a, r.n_a, "a"), (r.mean_b, r.n_b, "b")] {
        if let (Some(m), Some(n)) = (m, n)
            && !on_grid(m, n, scale, half, false)
        {
            out.push(finding(
                r,
                LintKind::OffGrid,
                format!("mean_{side} {m} is not k/{n} for any whole k"),
                None,
                Some(m),
            ));
        }
    }
    // interval width and method
    if let (Some(e), Some(n), Some(lo), Some(hi)) = (est, n_est, r.ci_low, r.ci_high)
        && n > 0
    {
        check_width(r, e, n, lo, hi, conf, scale, half, r.half_ci(), settings, out);
    }
    // z and h from the displayed proportions
    if let (Some(a), Some(b), Some(na), Some(nb)) = (r.mean_a, r.mean_b, r.n_a, r.n_b) {
        let (xa, xb) = ((a / scale * na as f64).round(), (b / scale * nb as f64).round());
        let tol = r.stat_decimals.map_or(1e-6, |d| half_unit(d) + 1e-9);
        if let (Some(z), Some(t)) = (r.z, two_proportion_z(xa, na as f64, xb, nb as f64))
            && (z - t.z).abs() > tol
        {
            out.push(finding(
                r,
                LintKind::StatisticInconsistent,
                format!("z = {z} but the displayed {xa}/{na} vs {xb}/{nb} give z = {:.4}", t.z),
                Some(t.z),
                Some(z),
            ));
        }
        let h = cohens_h(xa / na as f64, xb / nb as f64);
        if let Some(hp) = r.cohen_h
            && (hp - h).abs() > tol
        {
            out.push(finding(
                r,
                LintKind::StatisticInconsistent,
                format!("Cohen's h = {hp} but the displayed proportions give {h:.4}"),
                Some(h),
                Some(hp),
            ));
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn check_width(
    r: &LintRow,
    e: f64,
    n: usize,
    lo: f64,
    hi: f64,
    conf: f64,
    scale: f64,
    half: f64,
    half_ci: f64,
    settings: &LintSettings,
    out: &mut Vec<Finding>,
) {
    let nf = n as f64;
    let step = scale / nf;
    let width = hi - lo;
    let z = z_two_sided(conf);
    let (narrowest, widest) = match r.kind {
        RowKind::Mean => {
            // Wilson widths of the whole k that print as the estimate (the most favourable one)
            let k0 = (e / scale * nf).round() as i64;
            let ks: Vec<f64> = (k0 - 1..=k0 + 1)
                .filter(|k| *k >= 0 && *k <= n as i64)
                .map(|k| k as f64)
                .filter(|k| (k / nf * scale - e).abs() <= half)
                .collect();
            let ks = if ks.is_empty() { vec![(e / scale * nf).clamp(0.0, nf)] } else { ks };
            let w = |k: f64| wilson_interval(k, nf, conf).map_or(0.0, |i| (i.high - i.low) * scale);
            let narrowest = if ks.iter().any(|k| *k == 0.0 || *k == nf) {
                0.0
            } else {
                ks.iter().map(|k| w(*k)).fold(f64::INFINITY, f64::min)
            };
            (narrowest, w(nf / 2.0))
        }
        RowKind::Delta => {
            let d = (e / scale).clamp(-1.0, 1.0);
            let sd_min = (d.abs() - d * d).max(0.0).sqrt();
            let sd_max = (1.0 - d * d).max(0.0).sqrt();
            (2.0 * z * sd_min / nf.sqrt() * scale, 2.0 * z * sd_max / nf.sqrt() * scale)
        }
    };
    if narrowest > 0.0 && width < settings.narrow_factor * narrowest - 2.0 * step {
        out.push(finding(
            r,
            LintKind::CiTooNarrow,
            format!(
                "width {width} is below {:.4} (×{} of the narrowest plausible {narrowest:.4} for n = {n})",
                settings.narrow_factor * narrowest,
                settings.narrow_factor
            ),
            Some(narrowest),
            Some(width),
        ));
    }
    let bound = if r.kind == RowKind::Delta { -scale } else { 0.0 };
    if width > settings.wide_factor * widest + 2.0 * step || lo < bound - half_ci || hi > scale + half_ci {
        out.push(finding(
            r,
            LintKind::CiTooWide,
            format!(
                "width {width} exceeds what n = {n} allows ({widest:.4}, or the interval leaves [{bound}, {scale}])"
            ),
            Some(widest),
            Some(width),
        ));
    }
    if let Some(m) = r.ci_method.as_deref() {
        let k = (e / scale * nf).round();
        let want = match m {
            "wilson" => wilson_interval(k, nf, conf),
            "clopper_pearson" | "clopper-pearson" | "exact" => clopper_pearson_interval(k as u64, n as u64, conf),
            _ => None,
        };
        if let Some(w) = want
            && ((w.low * scale - lo).abs() > half_ci || (w.high * scale - hi).abs() > half_ci)
        {
            out.push(finding(
                r,
                LintKind::CiMethodMismatch,
                format!("a {m} interval of {k}/{n} is [{:.4}, {:.4}], not [{lo}, {hi}]", w.low * scale, w.high * scale),
                None,
                None,
            ));
        }
    }
}

/// One row to lint from its named cells (`cell(column)`: the text of a column, `None` when
/// absent or empty; the columns in `docs/claims.md`), the `i`-th of its table, read at `loc`.
/// Numbers may be printed with signs, `−` and `%`; the largest number of printed decimals sets
/// the rounding allowance of the row.
pub fn lint_row<'a>(cell: &dyn Fn(&str) -> Option<&'a str>, i: usize, loc: &Location) -> Result<LintRow, IngestError> {
    let printed = |col: &str| -> Result<Option<PrintedValue>, IngestError> {
        match cell(col) {
            None => Ok(None),
            Some(t) => parse_printed(t)
                .map(Some)
                .ok_or_else(|| IngestError::new(loc.clone().with_field(col), format!("`{t}` is not a number"))),
        }
    };
    // printed decimals per group of fields: values, interval, statistics
    let mut dec: [Option<u32>; 3] = [None; 3];
    let mut num = |col: &str| -> Result<Option<f64>, IngestError> {
        let p = printed(col)?;
        let group = match col {
            "ci_low" | "ci_high" => Some(1),
            "z" | "cohen_h" => Some(2),
            "scale" | "confidence" | "n" | "n_a" | "n_b" | "planned_n" | "help" | "hurt" | "b" | "c" | "gold" => None,
            _ => Some(0),
        };
        if let (Some(p), Some(g)) = (p, group) {
            dec[g] = Some(dec[g].map_or(p.decimals, |d| d.max(p.decimals)));
        }
        Ok(p.map(|p| p.value))
    };
    let whole = |v: Option<f64>, col: &str| -> Result<Option<usize>, IngestError> {
        match v {
            Some(x) if x >= 0.0 && x.fract() == 0.0 => Ok(Some(x as usize)),
            Some(x) => Err(IngestError::new(loc.clone().with_field(col), format!("{x} is not a count"))),
            None => Ok(None),
        }
    };
    let estimate = match num("estimate")? {
        Some(v) => Some(v),
        None => num("value")?,
    };
    let (mut ci_low, mut ci_high) = (num("ci_low")?, num("ci_high")?);
    let mut ci_decimals = 0;
    if let Some(t) = cell("ci") {
        let (a, b) = parse_interval(t).ok_or_else(|| {
            IngestError::new(loc.clone().with_field("ci"), format!("`{t}` is not an interval [low, high]"))
        })?;
        ci_decimals = a.decimals.max(b.decimals);
        (ci_low, ci_high) = (Some(a.value), Some(b.value));
    }
    let n = num("n")?;
    let n_a = num("n_a")?;
    let n_b = num("n_b")?;
    let planned = num("planned_n")?;
    let kind = match cell("kind").map(|k| k.trim().to_ascii_lowercase()) {
        None => RowKind::Mean,
        Some(k) if k == "delta" || k == "difference" => RowKind::Delta,
        Some(k) if k == "mean" || k == "rate" || k == "proportion" => RowKind::Mean,
        Some(k) => {
            return Err(IngestError::new(loc.clone().with_field("kind"), format!("`{k}` is not mean or delta")));
        }
    };
    let binary = match cell("binary").map(|b| b.trim().to_ascii_lowercase()) {
        None => false,
        Some(b) if matches!(b.as_str(), "true" | "1" | "yes") => true,
        Some(b) if matches!(b.as_str(), "false" | "0" | "no") => false,
        Some(b) => {
            return Err(IngestError::new(loc.clone().with_field("binary"), format!("`{b}` is not true/false")));
        }
    };
    let row = LintRow {
        table: cell("table").map(str::to_string),
        id: cell("id").or(cell("row")).or(cell("arm")).map_or_else(|| format!("row {}", i + 1), str::to_string),
        kind,
        estimate,
        ci_low,
        ci_high,
        n: whole(n, "n")?,
        mean_a: num("mean_a")?,
        mean_b: num("mean_b")?,
        n_a: whole(n_a, "n_a")?,
        n_b: whole(n_b, "n_b")?,
        delta: num("delta")?,
        help: match whole(num("help")?, "help")? {
            Some(h) => Some(h),
            None => whole(num("b")?, "b")?,
        },
        hurt: match whole(num("hurt")?, "hurt")? {
            Some(h) => Some(h),
            None => whole(num("c")?, "c")?,
        },
        queries_a: cell("queries_a").map(str::to_string),
        queries_b: cell("queries_b").map(str::to_string),
        prompt_hash_a: cell("prompt_hash_a").map(str::to_string),
        prompt_hash_b: cell("prompt_hash_b").map(str::to_string),
        scale: num("scale")?.unwrap_or(1.0),
        binary,
        ci_method: cell("ci_method").map(|m| m.trim().to_ascii_lowercase()),
        confidence: num("confidence")?,
        planned_n: whole(planned, "planned_n")?,
        z: num("z")?,
        cohen_h: num("cohen_h")?,
        run: cell("run").map(str::to_string),
        decimals: None,
        ci_decimals: None,
        stat_decimals: None,
        location: Some(loc.to_string()),
        p: match cell("p").or(cell("p_value")).or(cell("mcnemar_p")) {
            None => None,
            Some(t) => Some(super::number::parse_p(t).ok_or_else(|| {
                IngestError::new(
                    loc.clone().with_field("p"),
                    format!("`{t}` is not a p-value (0.0768, 9.67e-07, 3.8×10⁻¹¹, < 0.001)"),
                )
            })?),
        },
        p_test: cell("p_test").map(|t| t.trim().to_ascii_lowercase()),
        compliance: num("compliance")?,
        recall: num("recall")?,
        kappa: num("kappa")?,
        map: num("map")?,
        mrr: num("mrr")?,
        gold: whole(num("gold")?, "gold")?,
        mean_rank: num("mean_rank")?,
    };
    if let Some(t) = &row.p_test
        && !["mcnemar_exact", "mcnemar_mid_p", "mcnemar_chi2", "mcnemar_chi2_cc"].contains(&t.as_str())
    {
        return Err(IngestError::new(
            loc.clone().with_field("p_test"),
            format!("`{t}` is not a test (mcnemar_exact, mcnemar_mid_p, mcnemar_chi2, mcnemar_chi2_cc)"),
        ));
    }
    let ci_dec = if cell("ci").is_some() { Some(ci_decimals) } else { dec[1] };
    Ok(LintRow { decimals: dec[0], ci_decimals: ci_dec, stat_decimals: dec[2], ..row })
}

/// The linter's column that a report column printed in a paper stands for (`low` is the
/// interval's `ci_low`, `diff` a delta), or `None` for a column the checks do not read.
fn lint_column(column: &str) -> Option<&'static str> {
    Some(match column {
        "low" | "ci_low" | "lower" => "ci_low",
        "high" | "ci_high" | "upper" => "ci_high",
        "diff" | "delta" | "difference" => "delta",
        "mean" | "estimate" | "value" | "rate" => "estimate",
        "mean_a" => "mean_a",
        "mean_b" => "mean_b",
        "n" => "n",
        "n_a" => "n_a",
        "n_b" => "n_b",
        "help" => "help",
        "hurt" => "hurt",
        "cohen_h" => "cohen_h",
        "compliance" => "compliance",
        "recall" => "recall",
        "kappa" => "kappa",
        "map" => "map",
        "mrr" => "mrr",
        "gold" => "gold",
        "mean_rank" => "mean_rank",
        _ => return None,
    })
}

/// The printed numbers checked against each other, before any data: the entries of one row
/// of one printed table (same file, source, analysis, table and row keys) become one row to
/// lint, their columns read as the linter's ([`lint_column`]: `diff` with `low`/`high` is a
/// delta and its interval; `compliance`, `recall` and `kappa`; `map`, `mrr` and `gold`; a
/// table's `mean_rank`s), and every check of [`lint`] runs on them (a delta's direction, A − B
/// or B − A, is the one its sign gives; the coarsest printed decimals of a row's values set
/// its rounding allowance). A row printed as
/// percentages is on the scale 100. Rows whose entries name other columns only are not
/// checked; an entry whose text the linter refuses is left out of its row.
pub fn lint_printed(entries: &[super::Printed]) -> Vec<Finding> {
    // The columns whose printed decimals set a row's rounding allowance.
    const VALUES: [&str; 10] =
        ["estimate", "delta", "mean_a", "mean_b", "compliance", "recall", "kappa", "map", "mrr", "mean_rank"];
    let rows = crate::distinct::groups_first_seen(
        entries.iter().filter_map(|p| lint_column(&p.column).map(|c| (c, p))),
        |(_, p)| (p.file.clone(), p.source.clone(), p.analysis, p.table.clone(), p.row.clone()),
    );
    let mut lint_rows = Vec::new();
    for (i, ((file, source, _, table, keys), group)) in rows.into_iter().enumerate() {
        let mut cells: std::collections::BTreeMap<&'static str, String> = std::collections::BTreeMap::new();
        let mut values: std::collections::BTreeMap<&'static str, f64> = std::collections::BTreeMap::new();
        // Values printed with different decimals (means to 4, their delta to 3): the coarsest
        // sets the allowance, so that a delta rounded on its own is not a finding.
        let mut decimals: Option<u32> = None;
        for &(c, p) in &group {
            cells.insert(c, p.printed.clone());
            values.insert(c, p.value.value);
            if VALUES.contains(&c) {
                decimals = Some(decimals.map_or(p.value.decimals, |d| d.min(p.value.decimals)));
            }
        }
        if cells.contains_key("delta") {
            cells.insert("kind", "delta".into());
        }
        // A report's delta may be B − A (the alignment's contrasts) or A − B (the linter's):
        // the printed delta's sign says which, so only its size is checked against the means.
        if let (Some(d), Some(a), Some(b)) = (values.get("delta"), values.get("mean_a"), values.get("mean_b"))
            && (d - (b - a)).abs() < (d - (a - b)).abs()
        {
            let (a, b) = (cells["mean_a"].clone(), cells["mean_b"].clone());
            cells.insert("mean_a", b);
            cells.insert("mean_b", a);
        }
        if group.iter().any(|(_, p)| p.value.percent) {
            cells.insert("scale", "100".into());
        }
        let id = keys.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("; ");
        cells.insert("table", if source.is_empty() { table.clone() } else { format!("{source}: {table}") });
        cells.insert("id", if id.is_empty() { table } else { id });
        let loc = Location::line(&file, group[0].1.line);
        if let Ok(row) = lint_row(&|c: &str| cells.get(c).map(String::as_str), i, &loc) {
            lint_rows.push(LintRow { decimals: decimals.or(row.decimals), ..row });
        }
    }
    lint(&lint_rows, &LintSettings::default())
}

#[cfg(test)]
mod printed_tests {
    use super::*;

    /// The identities by hand: κ = compliance / recall (0.50 / 0.80 = 0.625, not 0.70; 0.40 /
    /// 0.80 = 0.50 holds), B − A of two printed means (0.3870 − 0.2120 = 0.175 holds, 0.190 does
    /// not), a delta inside its own interval, three mean ranks summing to 3·4/2 = 6.
    #[test]
    fn printed_numbers_are_checked_against_each_other() {
        let text = "source,analysis,table,row,column,printed\n\
            T45,compliance,arms,arm=brief,compliance,0.50\n\
            T45,compliance,arms,arm=brief,recall,0.80\n\
            T45,compliance,arms,arm=brief,kappa,0.70\n\
            T45,compliance,arms,arm=full,compliance,0.40\n\
            T45,compliance,arms,arm=full,recall,0.80\n\
            T45,compliance,arms,arm=full,kappa,0.50\n\
            T2,alignment,target_contrasts,run=mx,mean_a,0.2120\n\
            T2,alignment,target_contrasts,run=mx,mean_b,0.3870\n\
            T2,alignment,target_contrasts,run=mx,diff,+0.175\n\
            T2,alignment,target_contrasts,run=bge,mean_a,0.2000\n\
            T2,alignment,target_contrasts,run=bge,mean_b,0.3700\n\
            T2,alignment,target_contrasts,run=bge,diff,+0.190\n\
            T2,alignment,target_contrasts,run=lex,diff,+0.175\n\
            T2,alignment,target_contrasts,run=lex,low,0.180\n\
            T2,alignment,target_contrasts,run=lex,high,0.250\n\
            T7,compare,ranks,arm=a,mean_rank,1.5\n\
            T7,compare,ranks,arm=b,mean_rank,2.0\n\
            T7,compare,ranks,arm=c,mean_rank,2.0\n\
            T7,compare,ranks,arm=c,wins,3\n";
        let entries =
            crate::printed::read(&crate::ingest::InputFile::new("printed.csv", text.as_bytes().to_vec())).unwrap();
        let findings = lint_printed(&entries);
        let got: Vec<(LintKind, &str)> = findings.iter().map(|f| (f.kind, f.row.as_str())).collect();
        assert_eq!(
            got,
            [
                (LintKind::IdentityViolated, "arm=brief"),
                (LintKind::DeltaNotDifference, "run=bge"),
                (LintKind::PointOutsideCi, "run=lex"),
                (LintKind::IdentityViolated, "arm=c"),
            ],
            "{findings:#?}"
        );
        let kappa = &findings[0];
        assert!((kappa.expected.unwrap() - 0.625).abs() < 1e-12 && kappa.found == Some(0.7), "{kappa:?}");
        assert_eq!(kappa.location.as_deref(), Some("printed.csv, line 2"));
        assert_eq!(kappa.table.as_deref(), Some("T45: arms"));
        assert_eq!(findings[3].expected, Some(6.0));
    }
}
