//! The exclusion ledger (seed-000 §4.3 item 5): what was dropped from an analysis, why, and
//! whether the decision came before or after the results it affects existed.
//!
//! A ledger is `{"exclusions": [{item, reason, excluded_at | commit, affects: [value or file]}]}`,
//! a JSON array of such objects, or a table (CSV/TSV, JSON Lines) with columns `item`, `reason`,
//! `excluded_at` (or `time`, `decided_at`), `commit`, `affects` (names separated by `;`).
//!
//! Each exclusion is checked against the rule registry's clock ([`super::registry`]): its
//! decision time is its commit's time in the `git log` export, else `excluded_at`; the data time
//! of what it affects is found as for a rule's inputs (a value's `created_at` or commit, its
//! source file's, or the first commit listing the file). Status:
//! `after_results` (the affected data existed when the exclusion was decided: a post-hoc
//! exclusion), `before_results`, `undated_data` (no affected data time), `undated` (no decision
//! time). The rules judging the affected data are listed, with whether the exclusion came after
//! their registration (their basis changed after they were fixed).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::expr::Env;
use super::registry::{EvalContext, Rule, RuleVerdict, data_time, judge};
use super::time::{format_time as fmt_time, parse_time};
use crate::error::{IngestError, Location};
use crate::ingest::InputFile;

/// One exclusion as written.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Exclusion {
    pub item: String,
    pub reason: String,
    pub excluded_at: Option<String>,
    pub commit: Option<String>,
    pub affects: Vec<String>,
    pub file: String,
    pub line: usize,
}

/// One exclusion checked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExclusionCheck {
    pub item: String,
    pub reason: String,
    pub affects: Vec<String>,
    /// When it was decided, and how that is known (`commit` or `excluded_at`).
    pub decided: Option<String>,
    pub decided_from: Option<String>,
    /// The earliest data time among what it affects, and where it comes from.
    pub data_time: Option<String>,
    pub data_time_from: Option<String>,
    /// `after_results`, `before_results`, `undated_data` or `undated`.
    pub status: String,
    /// Rules judging the affected data.
    pub rules: Vec<String>,
    /// Of those, the rules registered before the exclusion was decided.
    pub after_registration_of: Vec<String>,
    pub location: String,
}

impl ExclusionCheck {
    /// When it was decided and when its data existed, each with how that is known:
    /// `decided T (commit), data T (runs.csv)`, `-` for what is not known.
    pub fn timeline(&self) -> String {
        let known = |t: &Option<String>| t.as_deref().unwrap_or("-").to_string();
        format!(
            "decided {} ({}), data {} ({})",
            known(&self.decided),
            known(&self.decided_from),
            known(&self.data_time),
            known(&self.data_time_from)
        )
    }
}

/// A rule judged with the values an exclusion withdraws and without them (seed-000 §4.3 item
/// 5: "show results with and without each exclusion").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExclusionEffect {
    /// The exclusion's item, as written in the ledger.
    pub item: String,
    pub rule_id: String,
    /// The values of the exclusion this rule reads.
    pub withdraws: Vec<String>,
    /// The verdict on every value read (the exclusion not applied): the rule's verdict record.
    pub outcome_with: String,
    pub margin_with: Option<f64>,
    /// The verdict with the exclusion applied: a `count` leaves out the items that read a
    /// withdrawn value (its `at_least` as written); a predicate reading one elsewhere cannot be
    /// evaluated.
    pub outcome_without: String,
    pub margin_without: Option<f64>,
    /// Why the rule cannot be evaluated without the values.
    pub error_without: Option<String>,
    /// The outcome differs.
    pub changes: bool,
}

/// For each exclusion whose `affects` names values, every rule reading one of them judged with
/// and without them. Exclusions naming only files or items withdraw nothing and give no row
/// (what to withdraw from a file is not said).
pub fn exclusion_effects(
    ex: &[Exclusion],
    rules: &[Rule],
    ctx: &EvalContext,
    verdicts: &[RuleVerdict],
) -> Vec<ExclusionEffect> {
    let mut out = Vec::new();
    for e in ex {
        let withdrawn: Vec<String> =
            e.affects.iter().filter(|a| ctx.values.values.contains_key(a.as_str())).cloned().collect();
        if withdrawn.is_empty() {
            continue;
        }
        for (rule, v) in rules.iter().zip(verdicts) {
            let reads: Vec<String> =
                withdrawn.iter().filter(|w| v.inputs.iter().any(|i| &i.name == *w)).cloned().collect();
            if reads.is_empty() {
                continue;
            }
            let mut env = Env { withdrawn: &withdrawn, ..Env::new(&ctx.values.values) };
            let (outcome_without, margin_without, error_without) =
                match judge(rule, &mut env, &mut Vec::new(), &mut None) {
                    Ok((_, o, m)) => (o, m, None),
                    Err(err) => ("cannot evaluate".to_string(), None, Some(err)),
                };
            out.push(ExclusionEffect {
                item: e.item.clone(),
                rule_id: rule.id.clone(),
                withdraws: reads,
                changes: outcome_without != v.outcome,
                outcome_with: v.outcome.clone(),
                margin_with: v.margin,
                outcome_without,
                margin_without,
                error_without,
            });
        }
    }
    out
}

fn is_ledger_table(headers: &[String]) -> bool {
    let has = |names: &[&str]| headers.iter().any(|h| names.contains(&h.as_str()));
    has(&["reason"]) && has(&["excluded_at", "time", "decided_at", "commit"]) && has(&["item", "excluded", "id"])
}

/// Whether a table (CSV/TSV, JSON Lines) is an exclusion ledger: a `reason`, a time or commit and
/// an item column. (JSON documents are recognised by [`super::role::detect_file_role`].)
pub fn looks_like_ledger_table(file: &InputFile) -> bool {
    crate::ingest::table::rows(file).is_ok_and(|r| is_ledger_table(&r.headers))
}

/// Reads a ledger (see the module docs); every exclusion needs an item and a reason.
pub fn read_exclusions(file: &InputFile) -> Result<Vec<Exclusion>, IngestError> {
    let name = file.name.as_str();
    let (text, _) = file.text()?;
    let doc = match crate::ingest::json::from_str(&text) {
        Ok(d) => Some(d),
        Err(e) if crate::ingest::json::is_repeated_key(&e) => return Err(crate::ingest::json::error_at(name, 0, &e)),
        Err(_) => None,
    };
    let (headers, records): (Vec<String>, Vec<(usize, Vec<String>)>) =
        match doc.as_ref().and_then(|d| d.get("exclusions")).and_then(Value::as_array) {
            Some(items) => {
                let headers = crate::ingest::table::keys_first_seen(items.iter().filter_map(Value::as_object));
                let text_of = |v: Option<&Value>| match v {
                    None | Some(Value::Null) => String::new(),
                    Some(Value::String(s)) => s.trim().to_string(),
                    Some(Value::Array(a)) => a
                        .iter()
                        .map(|x| x.as_str().map_or_else(|| x.to_string(), str::to_string))
                        .collect::<Vec<_>>()
                        .join(";"),
                    Some(other) => other.to_string(),
                };
                let mut recs = Vec::new();
                for (i, it) in items.iter().enumerate() {
                    let o = it.as_object().ok_or_else(|| {
                        IngestError::new(
                            Location::file(name).with_field(format!("exclusions[{i}]")),
                            "an exclusion is not an object",
                        )
                    })?;
                    recs.push((i + 1, headers.iter().map(|h| text_of(o.get(h))).collect()));
                }
                (headers, recs)
            }
            None => {
                let t = crate::ingest::table::rows(file)?;
                (t.headers, t.records)
            }
        };
    let col = |names: &[&str]| names.iter().find_map(|n| headers.iter().position(|h| h == n));
    let item = col(&["item", "excluded", "id"]);
    let reason = col(&["reason"]);
    let (Some(item), Some(reason)) = (item, reason) else {
        return Err(IngestError::new(
            Location::file(name).with_field("reason"),
            format!(
                "an exclusion ledger needs an item and a reason column (item, reason, excluded_at, commit, affects); the columns are: {}",
                headers.join(", ")
            ),
        ));
    };
    let time = col(&["excluded_at", "time", "decided_at"]);
    let commit = col(&["commit"]);
    let affects = col(&["affects", "affected", "keyed_to"]);
    let mut out = Vec::new();
    for (line, rec) in records {
        let get = |c: Option<usize>| c.map(|i| rec[i].trim().to_string()).filter(|s| !s.is_empty());
        let loc = |field: &str| Location::line(name, line).with_field(field);
        let it =
            get(Some(item)).ok_or_else(|| IngestError::new(loc(&headers[item]), "an exclusion without its item"))?;
        let why = get(Some(reason))
            .ok_or_else(|| IngestError::new(loc("reason"), format!("exclusion `{it}` gives no reason")))?;
        let at = get(time);
        if let Some(t) = &at
            && parse_time(t).is_none()
        {
            return Err(IngestError::new(
                loc(&headers[time.unwrap_or_default()]),
                format!("`{t}` is not an ISO 8601 time (e.g. 2026-05-30T14:02:11+02:00)"),
            ));
        }
        out.push(Exclusion {
            item: it,
            reason: why,
            excluded_at: at,
            commit: get(commit),
            affects: get(affects)
                .map(|a| a.split(';').map(str::trim).filter(|s| !s.is_empty()).map(str::to_string).collect())
                .unwrap_or_default(),
            file: name.to_string(),
            line,
        });
    }
    Ok(out)
}

/// Checks each exclusion against the clock of `ctx` and the rules' verdicts.
pub fn check_exclusions(ex: &[Exclusion], ctx: &EvalContext, verdicts: &[RuleVerdict]) -> Vec<ExclusionCheck> {
    ex.iter()
        .map(|e| {
            let decided = e
                .commit
                .as_deref()
                .and_then(|c| ctx.git.commit_time(c))
                .map(|t| (t, "commit"))
                .or_else(|| e.excluded_at.as_deref().and_then(parse_time).map(|t| (t, "excluded_at")));
            let data = e.affects.iter().filter_map(|a| data_time(a, ctx)).min_by_key(|(t, _)| *t);
            let judges = |v: &RuleVerdict| {
                e.affects.iter().any(|a| {
                    v.inputs.iter().any(|i| &i.name == a || i.source.as_deref() == Some(a.as_str()))
                        || v.temporal.late_for.contains(a)
                })
            };
            let rules: Vec<&RuleVerdict> = verdicts.iter().filter(|v| judges(v)).collect();
            let after_registration_of = rules
                .iter()
                .filter(|v| {
                    matches!((decided, v.temporal.registered.as_deref().and_then(parse_time)), (Some((d, _)), Some(r)) if d > r)
                })
                .map(|v| v.rule_id.clone())
                .collect();
            let status = match (decided, &data) {
                (None, _) => "undated",
                (Some(_), None) => "undated_data",
                (Some((d, _)), Some((t, _))) if d >= *t => "after_results",
                _ => "before_results",
            };
            ExclusionCheck {
                item: e.item.clone(),
                reason: e.reason.clone(),
                affects: e.affects.clone(),
                decided: decided.map(|(t, _)| fmt_time(t)),
                decided_from: decided.map(|(_, f)| f.to_string()),
                data_time: data.as_ref().map(|(t, _)| fmt_time(*t)),
                data_time_from: data.map(|(_, f)| f),
                status: status.into(),
                rules: rules.iter().map(|v| v.rule_id.clone()).collect(),
                after_registration_of,
                location: format!("{} line {}", e.file, e.line),
            }
        })
        .collect()
}
