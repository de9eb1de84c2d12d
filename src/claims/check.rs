//! The claims file and the recomputation of each claim from per-query scores.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::answers::read::{cell, read_long_table};
use crate::error::{IngestError, Location};
use crate::ingest::InputFile;
use crate::ksweep::{ScoreRow, ScoreTable, cell_stats, cell_values, paired_delta};
use crate::printed::lint::{Finding, LintKind, LintRow, RowKind};
use crate::printed::number::{PrintedValue, parse_interval, parse_printed};
use crate::stats::Resampler;
use crate::stats::ranks::average_ranks;

/// What a claim states.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ClaimKind {
    /// One arm's mean score.
    Mean,
    /// arms[0] − arms[1], paired on shared queries.
    Delta,
    /// The interval of a mean (one arm) or of a paired delta (two arms).
    Ci,
    /// How many queries arms[0] got right (sum of 0/1 scores).
    Count,
    /// arms[0]'s success rate (= its mean).
    Rate,
    /// arms[0]'s rank among all arms by mean (1 = best, ties averaged).
    Rank,
    /// The arm with the best mean (reported as its name).
    Winner,
}

impl ClaimKind {
    pub fn parse(s: &str) -> Option<ClaimKind> {
        Some(match s.trim().to_ascii_lowercase().as_str() {
            "mean" => ClaimKind::Mean,
            "delta" | "difference" => ClaimKind::Delta,
            "ci" | "interval" => ClaimKind::Ci,
            "count" => ClaimKind::Count,
            "rate" => ClaimKind::Rate,
            "rank" => ClaimKind::Rank,
            "winner" => ClaimKind::Winner,
            _ => return None,
        })
    }
}

/// One claim as read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Claim {
    pub claim_id: String,
    pub text: Option<String>,
    pub kind: ClaimKind,
    pub arms: Vec<String>,
    pub dataset: Option<String>,
    pub subset: Option<String>,
    pub target: Option<String>,
    pub metric: Option<String>,
    pub k: Option<i64>,
    pub run: Option<String>,
    /// Where the claim is printed (table, figure, section): claims of one source should come
    /// from one run.
    pub source: Option<String>,
    pub reported: Option<PrintedValue>,
    /// The reported value as text (for `winner`, the arm).
    pub reported_text: Option<String>,
    pub reported_ci: Option<(PrintedValue, PrintedValue)>,
    pub reported_n: Option<usize>,
    pub tolerance: Option<f64>,
    /// Printed values are the data's × scale (100 for percentages).
    pub scale: f64,
    pub file: String,
    pub line: usize,
}

/// Reads a claims file (CSV or JSON; columns in `docs/claims.md`).
pub fn read_claims(file: &InputFile) -> Result<Vec<Claim>, IngestError> {
    let table = read_long_table(file)?;
    let mut out = Vec::new();
    for r in &table.rows {
        let loc = table.location(r);
        let get = |c: &str| cell(r, Some(c)).map(str::to_string);
        let bad = |c: &str, msg: String| IngestError::new(loc.clone().with_field(c), msg);
        let claim_id =
            get("claim_id").or_else(|| get("id")).ok_or_else(|| bad("claim_id", "the claim id is empty".into()))?;
        let kind_text = get("kind").ok_or_else(|| bad("kind", "the kind is empty".into()))?;
        let kind = ClaimKind::parse(&kind_text).ok_or_else(|| {
            bad("kind", format!("`{kind_text}` is not a kind (mean, delta, ci, count, rate, rank, winner)"))
        })?;
        let arms: Vec<String> = match get("arms").or_else(|| get("arm")) {
            None => Vec::new(),
            Some(t) if t.trim_start().starts_with('[') => serde_json::from_str::<Vec<String>>(&t)
                .map_err(|_| bad("arms", format!("`{t}` is not a JSON array of arm names")))?,
            Some(t) => t.split([';', '|', ',']).map(|a| a.trim().to_string()).filter(|a| !a.is_empty()).collect(),
        };
        let num = |c: &str| -> Result<Option<PrintedValue>, IngestError> {
            match get(c) {
                None => Ok(None),
                Some(t) => parse_printed(&t).map(Some).ok_or_else(|| bad(c, format!("`{t}` is not a number"))),
            }
        };
        let reported_text = get("reported").or_else(|| get("reported_value"));
        let reported = match (&reported_text, kind) {
            (Some(_), ClaimKind::Winner) | (None, _) => None,
            (Some(t), _) => Some(parse_printed(t).ok_or_else(|| bad("reported", format!("`{t}` is not a number")))?),
        };
        let reported_ci = match get("reported_ci") {
            Some(t) => Some(
                parse_interval(&t)
                    .ok_or_else(|| bad("reported_ci", format!("`{t}` is not an interval [low, high]")))?,
            ),
            None => match (num("reported_ci_low")?, num("reported_ci_high")?) {
                (Some(a), Some(b)) => Some((a, b)),
                _ => None,
            },
        };
        let whole = |p: Option<PrintedValue>, c: &str| -> Result<Option<usize>, IngestError> {
            match p {
                None => Ok(None),
                Some(p) if p.value >= 0.0 && p.value.fract() == 0.0 => Ok(Some(p.value as usize)),
                Some(p) => Err(bad(c, format!("{} is not a count", p.value))),
            }
        };
        let k = match num("k")? {
            None => None,
            Some(p) if p.value.fract() == 0.0 => Some(p.value as i64),
            Some(p) => return Err(bad("k", format!("{} is not a whole K", p.value))),
        };
        out.push(Claim {
            claim_id,
            text: get("text"),
            kind,
            arms,
            dataset: get("dataset"),
            subset: get("subset"),
            target: get("target"),
            metric: get("metric"),
            k,
            run: get("run"),
            source: get("source"),
            reported,
            reported_text,
            reported_ci,
            reported_n: whole(num("reported_n")?, "reported_n")?,
            tolerance: num("tolerance")?.map(|p| p.value),
            scale: num("scale")?.map_or(1.0, |p| p.value),
            file: loc.file.clone(),
            line: r.line,
        });
    }
    if out.is_empty() {
        return Err(IngestError::new(Location::file(&file.name), "the claims file holds no claims"));
    }
    Ok(out)
}

/// The verdict on one claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Equal (within the claim's tolerance).
    Matches,
    /// Equal after rounding to the printed decimals (intervals: or within the interval
    /// tolerance, one k/n grid step by default for 0/1 data).
    WithinRounding,
    Differs,
    /// Some input is missing (`missing` says which).
    CannotCompute,
}

/// What the data say about one claim in one run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunCheck {
    pub run: Option<String>,
    pub recomputed: Option<f64>,
    pub verdict: Verdict,
}

/// One claim checked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClaimResult {
    pub claim_id: String,
    pub text: Option<String>,
    pub kind: ClaimKind,
    pub arms: Vec<String>,
    pub dataset: Option<String>,
    pub k: Option<i64>,
    pub metric: String,
    pub source: Option<String>,
    /// The run the result is for (the claim's, or the best-matching one).
    pub run: Option<String>,
    pub reported: Option<f64>,
    pub reported_text: Option<String>,
    /// Recomputed on the printed scale (× `scale`).
    pub recomputed: Option<f64>,
    pub recomputed_text: Option<String>,
    /// reported − recomputed.
    pub difference: Option<f64>,
    pub reported_ci: Option<[f64; 2]>,
    pub recomputed_ci: Option<[f64; 2]>,
    pub ci_verdict: Option<Verdict>,
    pub reported_n: Option<usize>,
    pub n: Option<usize>,
    pub verdict: Verdict,
    /// Why (for `differs` and `cannot_compute`: which part, which input is missing).
    pub reason: String,
    /// Runs whose data match the claim (`matches` or `within_rounding`).
    pub matching_runs: Vec<String>,
    /// Every run tried, when the data hold several.
    pub runs: Vec<RunCheck>,
    pub file: String,
    pub line: usize,
}

/// Settings of a claims check.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClaimSettings {
    pub bootstrap: usize,
    pub seed: u64,
    pub confidence: f64,
}

impl Default for ClaimSettings {
    fn default() -> Self {
        ClaimSettings { bootstrap: 10_000, seed: 42, confidence: 0.95 }
    }
}

/// A value recomputed for a claim.
struct Recomputed {
    value: Option<f64>,
    text: Option<String>,
    ci: Option<[f64; 2]>,
    n: Option<usize>,
    binary: bool,
    /// The row for the linter.
    lint: Option<LintRow>,
}

fn matches_filter(row: &ScoreRow, c: &Claim, run: Option<&str>) -> bool {
    let eq = |want: &Option<String>, have: &Option<String>| {
        want.as_ref().is_none_or(|w| have.as_deref() == Some(w.as_str()))
    };
    eq(&c.dataset, &row.dataset)
        && eq(&c.subset, &row.subset)
        && eq(&c.target, &row.target)
        && c.k.is_none_or(|k| row.k == Some(k))
        && run.is_none_or(|r| row.run.as_deref() == Some(r))
}

fn describe_cell(c: &Claim) -> String {
    let mut parts = Vec::new();
    if let Some(d) = &c.dataset {
        parts.push(format!("dataset `{d}`"));
    }
    if let Some(s) = &c.subset {
        parts.push(format!("subset `{s}`"));
    }
    if let Some(t) = &c.target {
        parts.push(format!("target `{t}`"));
    }
    if let Some(k) = c.k {
        parts.push(format!("K = {k}"));
    }
    if parts.is_empty() { "the data".into() } else { parts.join(", ") }
}

fn recompute(c: &Claim, rows: &[&ScoreRow], metric: &str, settings: &ClaimSettings) -> Result<Recomputed, String> {
    let mut resampler = Resampler::new(settings.bootstrap, settings.seed);
    let arms_here: Vec<&str> = {
        let mut v: Vec<&str> = Vec::new();
        for r in rows {
            if !v.contains(&r.arm.as_str()) {
                v.push(&r.arm);
            }
        }
        v
    };
    if rows.is_empty() {
        return Err(format!("no rows for {}", describe_cell(c)));
    }
    let values = |arm: &str| -> Result<Vec<(String, f64)>, String> {
        let v = cell_values(&rows.iter().copied().filter(|r| r.arm == arm).collect::<Vec<_>>(), metric);
        if v.is_empty() {
            return Err(format!(
                "no `{metric}` scores for arm `{arm}` in {} (arms there: {})",
                describe_cell(c),
                arms_here.join(", ")
            ));
        }
        Ok(v)
    };
    let need = |n: usize| -> Result<(), String> {
        if c.arms.len() < n {
            Err(format!("a {:?} claim needs {n} arm(s) in `arms`", c.kind).to_lowercase())
        } else {
            Ok(())
        }
    };
    let s = c.scale;
    let single = !(c.kind == ClaimKind::Ci && c.arms.len() >= 2);
    match c.kind {
        ClaimKind::Mean | ClaimKind::Rate | ClaimKind::Count | ClaimKind::Ci if single => {
            need(1)?;
            let v: Vec<f64> = values(&c.arms[0])?.into_iter().map(|(_, x)| x).collect();
            let st = cell_stats(&v, &mut resampler, settings.confidence).ok_or("no resamples")?;
            let value = match c.kind {
                ClaimKind::Count => Some(v.iter().sum::<f64>()),
                _ => Some(st.mean * s),
            };
            let lint = LintRow {
                table: c.source.clone(),
                id: c.claim_id.clone(),
                kind: RowKind::Mean,
                estimate: c.reported.map(|p| p.value).filter(|_| c.kind != ClaimKind::Count),
                ci_low: c.reported_ci.map(|x| x.0.value),
                ci_high: c.reported_ci.map(|x| x.1.value),
                n: c.reported_n.or(Some(st.n)),
                scale: s,
                binary: st.binary,
                decimals: printed_decimals(c),
                ci_decimals: printed_ci_decimals(c),
                location: Some(format!("{}, line {}", c.file, c.line)),
                ..LintRow::default()
            };
            Ok(Recomputed {
                value,
                text: None,
                ci: Some([st.ci_low * s, st.ci_high * s]),
                n: Some(st.n),
                binary: st.binary,
                lint: Some(lint),
            })
        }
        ClaimKind::Mean | ClaimKind::Rate | ClaimKind::Count | ClaimKind::Delta | ClaimKind::Ci => {
            need(2)?;
            let (a, b) = (values(&c.arms[0])?, values(&c.arms[1])?);
            let d = paired_delta(&a, &b, &mut resampler, settings.confidence, 1e-9).ok_or_else(|| {
                format!("arms `{}` and `{}` share no query in {}", c.arms[0], c.arms[1], describe_cell(c))
            })?;
            let binary = d.b_count.is_some();
            let lint = LintRow {
                table: c.source.clone(),
                id: c.claim_id.clone(),
                kind: RowKind::Delta,
                estimate: c.reported.map(|p| p.value),
                ci_low: c.reported_ci.map(|x| x.0.value),
                ci_high: c.reported_ci.map(|x| x.1.value),
                n: c.reported_n.or(Some(d.n_shared)),
                scale: s,
                binary,
                decimals: printed_decimals(c),
                ci_decimals: printed_ci_decimals(c),
                location: Some(format!("{}, line {}", c.file, c.line)),
                ..LintRow::default()
            };
            Ok(Recomputed {
                value: Some(d.delta * s),
                text: None,
                ci: Some([d.ci_low * s, d.ci_high * s]),
                n: Some(d.n_shared),
                binary,
                lint: Some(lint),
            })
        }
        ClaimKind::Rank | ClaimKind::Winner => {
            let mut means: Vec<(String, f64)> = Vec::new();
            for arm in &arms_here {
                let v = values(arm)?;
                means.push((arm.to_string(), v.iter().map(|x| x.1).sum::<f64>() / v.len() as f64));
            }
            if c.kind == ClaimKind::Rank {
                need(1)?;
                let neg: Vec<f64> = means.iter().map(|m| -m.1).collect();
                let ranks = average_ranks(&neg);
                let i = means.iter().position(|m| m.0 == c.arms[0]).ok_or_else(|| {
                    format!(
                        "no scores for arm `{}` in {} (arms there: {})",
                        c.arms[0],
                        describe_cell(c),
                        arms_here.join(", ")
                    )
                })?;
                Ok(Recomputed {
                    value: Some(ranks[i]),
                    text: None,
                    ci: None,
                    n: Some(means.len()),
                    binary: false,
                    lint: None,
                })
            } else {
                let best = means.iter().map(|m| m.1).fold(f64::NEG_INFINITY, f64::max);
                let winners: Vec<String> = means.iter().filter(|m| m.1 == best).map(|m| m.0.clone()).collect();
                Ok(Recomputed {
                    value: None,
                    text: Some(winners.join(",")),
                    ci: None,
                    n: Some(means.len()),
                    binary: false,
                    lint: None,
                })
            }
        }
    }
}

fn printed_decimals(c: &Claim) -> Option<u32> {
    c.reported.map(|p| p.decimals)
}

fn printed_ci_decimals(c: &Claim) -> Option<u32> {
    c.reported_ci.map(|(a, b)| a.decimals.max(b.decimals))
}

/// Verdict on a printed value against a recomputed one.
fn value_verdict(reported: PrintedValue, recomputed: f64, tolerance: Option<f64>) -> Verdict {
    let diff = (reported.value - recomputed).abs();
    let eps = 1e-9 * recomputed.abs().max(1.0);
    if diff <= tolerance.unwrap_or(0.0) + eps {
        Verdict::Matches
    } else if diff <= reported.half_unit() + eps {
        Verdict::WithinRounding
    } else {
        Verdict::Differs
    }
}

/// Checks one claim against the rows of one run (`None`: all rows).
fn check_in(
    c: &Claim,
    table: &ScoreTable,
    run: Option<&str>,
    settings: &ClaimSettings,
) -> (ClaimResult, Option<LintRow>) {
    let metric = c.metric.clone().unwrap_or_else(|| table.default_metric.clone());
    let mut res = ClaimResult {
        claim_id: c.claim_id.clone(),
        text: c.text.clone(),
        kind: c.kind,
        arms: c.arms.clone(),
        dataset: c.dataset.clone(),
        k: c.k,
        metric: metric.clone(),
        source: c.source.clone(),
        run: run.map(str::to_string),
        reported: c.reported.map(|p| p.value),
        reported_text: c.reported_text.clone(),
        recomputed: None,
        recomputed_text: None,
        difference: None,
        reported_ci: c.reported_ci.map(|(a, b)| [a.value, b.value]),
        recomputed_ci: None,
        ci_verdict: None,
        reported_n: c.reported_n,
        n: None,
        verdict: Verdict::CannotCompute,
        reason: String::new(),
        matching_runs: Vec::new(),
        runs: Vec::new(),
        file: c.file.clone(),
        line: c.line,
    };
    if !table.metrics.contains(&metric) {
        res.reason = format!(
            "missing input: no numeric column `{metric}` in {} (columns: {})",
            table.name,
            table.metrics.join(", ")
        );
        return (res, None);
    }
    let rows: Vec<&ScoreRow> = table.rows.iter().filter(|r| matches_filter(r, c, run)).collect();
    let rec = match recompute(c, &rows, &metric, settings) {
        Ok(r) => r,
        Err(why) => {
            res.reason = format!("missing input: {why}");
            return (res, None);
        }
    };
    res.recomputed = rec.value;
    res.recomputed_text = rec.text.clone();
    res.recomputed_ci =
        rec.ci.filter(|_| matches!(c.kind, ClaimKind::Mean | ClaimKind::Rate | ClaimKind::Delta | ClaimKind::Ci));
    res.n = rec.n;
    let mut verdicts = Vec::new();
    let mut reasons = Vec::new();
    match (c.kind, &c.reported_text, c.reported, rec.value) {
        (ClaimKind::Winner, Some(t), _, _) => {
            let winners: Vec<&str> = rec.text.as_deref().unwrap_or_default().split(',').collect();
            let v = if winners.contains(&t.trim()) { Verdict::Matches } else { Verdict::Differs };
            if v == Verdict::Differs {
                reasons.push(format!("the best mean belongs to {}", winners.join(", ")));
            }
            verdicts.push(v);
        }
        (_, _, Some(p), Some(x)) => {
            res.difference = Some(p.value - x);
            let v = value_verdict(p, x, c.tolerance);
            if v == Verdict::Differs {
                reasons.push(format!("value: reported {} vs recomputed {x}", p.value));
            }
            verdicts.push(v);
        }
        _ => {}
    }
    if let (Some((lo, hi)), Some([rl, rh])) = (c.reported_ci, res.recomputed_ci) {
        // default interval tolerance: one k/n grid step for 0/1 data (another RNG draws other
        // resamples), else the printed rounding
        let step = match (rec.binary, rec.n) {
            (true, Some(n)) if n > 0 => c.scale / n as f64,
            _ => 0.0,
        };
        let tol = c.tolerance.unwrap_or(0.0).max(step);
        let v = value_verdict(lo, rl, Some(tol)).max(value_verdict(hi, rh, Some(tol)));
        // within the tolerance (not the exact rounding) is "within rounding" for intervals
        let exact = value_verdict(lo, rl, None).max(value_verdict(hi, rh, None));
        let v = if v == Verdict::Matches && exact != Verdict::Matches { Verdict::WithinRounding.min(exact) } else { v };
        if v == Verdict::Differs {
            reasons.push(format!("interval: reported [{}, {}] vs recomputed [{rl:.4}, {rh:.4}]", lo.value, hi.value));
        }
        res.ci_verdict = Some(v);
        verdicts.push(v);
    }
    if let (Some(rn), Some(n)) = (c.reported_n, rec.n)
        && rn != n
        && matches!(c.kind, ClaimKind::Mean | ClaimKind::Rate | ClaimKind::Count | ClaimKind::Delta | ClaimKind::Ci)
    {
        reasons.push(format!("n: reported {rn} vs {n} in the data"));
        verdicts.push(Verdict::Differs);
    }
    match verdicts.iter().max() {
        Some(v) => res.verdict = *v,
        None => {
            res.reason = "missing input: the claim reports no value or interval to compare".into();
            return (res, rec.lint);
        }
    }
    res.reason = reasons.join("; ");
    (res, rec.lint)
}

/// Checks every claim; with several runs in the data, a claim without a run is tried in each
/// and reported for the best-matching one.
pub fn check_claims(
    claims: &[Claim],
    table: &ScoreTable,
    settings: &ClaimSettings,
) -> (Vec<ClaimResult>, Vec<LintRow>) {
    let runs: Vec<String> =
        table.rows.iter().filter_map(|r| r.run.clone()).collect::<BTreeSet<_>>().into_iter().collect();
    let mut results = Vec::new();
    let mut lint_rows = Vec::new();
    for c in claims {
        if c.run.is_some() || runs.len() <= 1 {
            let (mut r, l) = check_in(c, table, c.run.as_deref(), settings);
            if matches!(r.verdict, Verdict::Matches | Verdict::WithinRounding) {
                r.matching_runs = c.run.iter().chain(runs.first().filter(|_| c.run.is_none())).cloned().collect();
            }
            results.push(r);
            lint_rows.extend(l);
            continue;
        }
        let tried: Vec<(ClaimResult, Option<LintRow>)> =
            runs.iter().map(|run| check_in(c, table, Some(run), settings)).collect();
        let per_run: Vec<RunCheck> = tried
            .iter()
            .map(|(r, _)| RunCheck { run: r.run.clone(), recomputed: r.recomputed, verdict: r.verdict })
            .collect();
        let matching: Vec<String> = tried
            .iter()
            .filter(|(r, _)| matches!(r.verdict, Verdict::Matches | Verdict::WithinRounding))
            .filter_map(|(r, _)| r.run.clone())
            .collect();
        let best = tried.iter().enumerate().min_by_key(|(_, (r, _))| r.verdict).map_or(0, |(i, _)| i);
        let (mut r, l) = tried.into_iter().nth(best).unwrap_or_else(|| check_in(c, table, None, settings));
        r.runs = per_run;
        r.matching_runs = matching;
        results.push(r);
        lint_rows.extend(l);
    }
    (results, lint_rows)
}

/// Claims of one source that match disjoint runs: the source mixes results of different runs
/// (seed-002 §0 / §4.3: a caption from run A next to a table from run B).
pub fn run_mixing(results: &[ClaimResult]) -> Vec<Finding> {
    let mut by_source: BTreeMap<String, Vec<&ClaimResult>> = BTreeMap::new();
    for r in results.iter().filter(|r| !r.runs.is_empty() && !r.matching_runs.is_empty()) {
        by_source.entry(r.source.clone().unwrap_or_else(|| "(all claims)".into())).or_default().push(r);
    }
    let mut out = Vec::new();
    for (source, claims) in by_source {
        let mut common: Option<BTreeSet<&String>> = None;
        for c in &claims {
            let s: BTreeSet<&String> = c.matching_runs.iter().collect();
            common = Some(match common {
                None => s,
                Some(prev) => prev.intersection(&s).copied().collect(),
            });
        }
        if common.is_some_and(|c| c.is_empty()) {
            let detail: Vec<String> =
                claims.iter().map(|c| format!("{} → {}", c.claim_id, c.matching_runs.join("/"))).collect();
            out.push(Finding::new(
                LintKind::RunMixing,
                Some(source.clone()),
                source.clone(),
                format!("no single run matches every claim of `{source}`: {}", detail.join("; ")),
                None,
                None,
                None,
            ));
        }
    }
    out
}
