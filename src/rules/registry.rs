//! Rule files, value files and `git log` exports; evaluation into verdict records with margins,
//! input fingerprints and the temporal-integrity check.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::expr::{Env, Eval, Pred, Quantity, parse_pred};
use super::time::{format_time as fmt_time, parse_time};
use crate::error::{IngestError, Location};
use crate::ingest::InputFile;

pub use crate::ingest::digest::{lower_hex, sha256_hex};

/// Where a rule came from (seed-000 §4.3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Provenance {
    PreRegistered,
    ClauseTriggered,
    ReviewerAdded,
}

/// A vote of one diagnostic: weight per option.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ballot {
    pub name: String,
    pub votes: BTreeMap<String, f64>,
}

/// What a rule computes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RuleBody {
    /// Fires when the predicate holds (`then` / `else` name the outcome).
    Predicate(Pred),
    /// The first tier whose predicate holds, else the fallback.
    Tiers { tiers: Vec<(String, Pred)>, fallback: Option<String> },
    /// The option with the largest total; ties go to `tie_break` when it is among them.
    Vote { options: Vec<String>, ballots: Vec<Ballot>, tie_break: Option<String> },
}

/// A registered rule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rule {
    pub id: String,
    pub text: Option<String>,
    pub registered_at: Option<String>,
    pub commit: Option<String>,
    pub provenance: Option<Provenance>,
    /// Values or files the rule judges: the temporal check covers these (when given) instead of
    /// every value the expression reads.
    pub keyed_to: Vec<String>,
    pub body: RuleBody,
    /// Outcome names when a predicate rule fires / does not.
    pub then: Option<String>,
    pub otherwise: Option<String>,
    /// SHA-256 of the rule's JSON as written (text, expression and registration).
    pub hash: String,
    pub line: usize,
}

fn text_line(text: &str, needle: &str) -> usize {
    text.find(needle).map_or(1, |i| text[..i].matches('\n').count() + 1)
}

fn ingest(file: &str, line: usize, field: &str, msg: impl Into<String>) -> IngestError {
    IngestError::new(Location::line(file, line).with_field(field), msg)
}

fn json_doc(file: &InputFile) -> Result<(String, Value), IngestError> {
    let (text, _) = file.text()?;
    let v: Value =
        crate::ingest::json::from_str(&text).map_err(|e| crate::ingest::json::error_at(&file.name, 0, &e))?;
    Ok((text.into_owned(), v))
}

/// Reads a rules file: `{"rules": [rule, …]}` or `[rule, …]` (grammar in `docs/rules.md`).
pub fn read_rules(file: &InputFile) -> Result<Vec<Rule>, IngestError> {
    let (text, doc) = json_doc(file)?;
    let name = &file.name;
    let list = match &doc {
        Value::Array(a) => a,
        Value::Object(m) => match m.get("rules") {
            Some(Value::Array(a)) => a,
            _ => return Err(ingest(name, 1, "rules", "expected {\"rules\": [ … ]}")),
        },
        _ => return Err(ingest(name, 1, "rules", "expected {\"rules\": [ … ]}")),
    };
    let mut out = Vec::new();
    for (i, r) in list.iter().enumerate() {
        let path = format!("rules[{i}]");
        let Some(m) = r.as_object() else { return Err(ingest(name, 1, &path, "expected a rule object")) };
        let s = |k: &str| m.get(k).and_then(Value::as_str).map(str::to_string);
        let id = s("id").ok_or_else(|| ingest(name, 1, &format!("{path}.id"), "every rule needs an \"id\""))?;
        let line = text_line(&text, &format!("\"{id}\""));
        let perr = |(p, msg): (String, String)| ingest(name, line, &p, msg);
        let body = if let Some(w) = m.get("when") {
            RuleBody::Predicate(parse_pred(w, &format!("{path}.when")).map_err(perr)?)
        } else if let Some(t) = m.get("tiers") {
            let Some(arr) = t.as_array() else {
                return Err(ingest(name, line, &format!("{path}.tiers"), "expected an array of tiers"));
            };
            let mut tiers = Vec::new();
            for (j, t) in arr.iter().enumerate() {
                let tp = format!("{path}.tiers[{j}]");
                let tn = t
                    .get("name")
                    .and_then(Value::as_str)
                    .ok_or_else(|| ingest(name, line, &format!("{tp}.name"), "every tier needs a name"))?;
                let w = parse_pred(t.get("when").unwrap_or(&Value::Null), &format!("{tp}.when")).map_err(perr)?;
                tiers.push((tn.to_string(), w));
            }
            RuleBody::Tiers { tiers, fallback: s("else") }
        } else if let Some(v) = m.get("vote") {
            let vp = format!("{path}.vote");
            let options: Vec<String> = v
                .get("options")
                .and_then(Value::as_array)
                .and_then(|a| a.iter().map(|o| o.as_str().map(str::to_string)).collect())
                .ok_or_else(|| ingest(name, line, &format!("{vp}.options"), "expected \"options\": [names]"))?;
            let mut ballots = Vec::new();
            for (j, b) in v.get("ballots").and_then(Value::as_array).map_or(&[][..], Vec::as_slice).iter().enumerate() {
                let bp = format!("{vp}.ballots[{j}]");
                let bn = b.get("name").and_then(Value::as_str).unwrap_or_default().to_string();
                let mut votes = BTreeMap::new();
                for (o, w) in b
                    .get("votes")
                    .and_then(Value::as_object)
                    .ok_or_else(|| ingest(name, line, &format!("{bp}.votes"), "expected {option: weight}"))?
                {
                    if !options.contains(o) {
                        return Err(ingest(name, line, &format!("{bp}.votes.{o}"), format!("`{o}` is not an option")));
                    }
                    votes.insert(
                        o.clone(),
                        w.as_f64()
                            .ok_or_else(|| ingest(name, line, &format!("{bp}.votes.{o}"), "expected a number"))?,
                    );
                }
                ballots.push(Ballot { name: bn, votes });
            }
            let tie_break = v.get("tie_break").and_then(Value::as_str).map(str::to_string);
            if let Some(t) = &tie_break
                && !options.contains(t)
            {
                return Err(ingest(name, line, &format!("{vp}.tie_break"), format!("`{t}` is not an option")));
            }
            RuleBody::Vote { options, ballots, tie_break }
        } else {
            return Err(ingest(name, line, &path, "a rule needs \"when\", \"tiers\" or \"vote\""));
        };
        let provenance = match s("provenance").as_deref() {
            None => None,
            Some("pre-registered") => Some(Provenance::PreRegistered),
            Some("clause-triggered") => Some(Provenance::ClauseTriggered),
            Some("reviewer-added") => Some(Provenance::ReviewerAdded),
            Some(p) => {
                return Err(ingest(
                    name,
                    line,
                    &format!("{path}.provenance"),
                    format!("`{p}` is not pre-registered, clause-triggered or reviewer-added"),
                ));
            }
        };
        if let Some(t) = s("registered_at")
            && parse_time(&t).is_none()
        {
            return Err(ingest(
                name,
                line,
                &format!("{path}.registered_at"),
                format!("`{t}` is not a timestamp (2026-05-30T14:02:11+02:00)"),
            ));
        }
        let keyed_to = m
            .get("keyed_to")
            .and_then(Value::as_array)
            .map_or_else(Vec::new, |a| a.iter().filter_map(|x| x.as_str().map(str::to_string)).collect());
        out.push(Rule {
            id,
            text: s("text"),
            registered_at: s("registered_at"),
            commit: s("commit"),
            provenance,
            keyed_to,
            body,
            then: s("then"),
            otherwise: s("else").filter(|_| !m.contains_key("tiers")),
            hash: sha256_hex(r.to_string().as_bytes()),
            line,
        });
    }
    Ok(out)
}

/// Provenance of a data file: when and by which commit it was produced, and its fingerprint.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SourceInfo {
    pub created_at: Option<String>,
    pub commit: Option<String>,
    pub sha256: Option<String>,
}

/// Named values and the sources behind them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Values {
    pub values: BTreeMap<String, Quantity>,
    pub sources: BTreeMap<String, SourceInfo>,
}

/// Reads a values file `{"values": {name: number | {estimate, low, high, source, created_at,
/// commit}}, "sources": {file: {created_at, commit, sha256}}}`. Values without a source get the
/// values file itself.
pub fn read_values(file: &InputFile) -> Result<Values, IngestError> {
    let (text, doc) = json_doc(file)?;
    let name = &file.name;
    let Some(vals) = doc.get("values").and_then(Value::as_object) else {
        return Err(ingest(name, 1, "values", "expected {\"values\": {name: number or {estimate, low, high}}}"));
    };
    let mut out = Values::default();
    for (k, v) in vals {
        let line = text_line(&text, &format!("\"{k}\""));
        let field = format!("values.{k}");
        let num =
            |x: Option<&Value>, f: &str| -> Result<Option<f64>, IngestError> {
                match x {
                    None | Some(Value::Null) => Ok(None),
                    Some(x) => x.as_f64().filter(|x| x.is_finite()).map(Some).ok_or_else(|| {
                        ingest(name, line, &format!("{field}{f}"), format!("expected a number, found {x}"))
                    }),
                }
            };
        let q = match v {
            Value::Number(_) => Quantity {
                estimate: num(Some(v), "")?.unwrap_or(f64::NAN),
                low: None,
                high: None,
                source: None,
                created_at: None,
                commit: None,
            },
            Value::Object(m) => {
                let est = num(m.get("estimate").or(m.get("value")), ".estimate")?.ok_or_else(|| {
                    ingest(name, line, &format!("{field}.estimate"), "every value needs an \"estimate\"")
                })?;
                let (low, high) = (num(m.get("low"), ".low")?, num(m.get("high"), ".high")?);
                if let (Some(l), Some(h)) = (low, high)
                    && l > h
                {
                    return Err(ingest(name, line, &field, "low > high"));
                }
                let s = |f: &str| m.get(f).and_then(Value::as_str).map(str::to_string);
                Quantity {
                    estimate: est,
                    low,
                    high,
                    source: s("source"),
                    created_at: s("created_at"),
                    commit: s("commit"),
                }
            }
            _ => return Err(ingest(name, line, &field, format!("expected a number or an object, found {v}"))),
        };
        let q = Quantity { source: q.source.clone().or_else(|| Some(name.clone())), ..q };
        out.values.insert(k.clone(), q);
    }
    if let Some(srcs) = doc.get("sources").and_then(Value::as_object) {
        for (f, v) in srcs {
            let s = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
            out.sources.insert(
                f.clone(),
                SourceInfo { created_at: s("created_at"), commit: s("commit"), sha256: s("sha256") },
            );
        }
    }
    let own = out.sources.entry(name.clone()).or_default();
    own.sha256 = Some(file.sha256()?);
    if own.created_at.is_none() {
        own.created_at = doc.get("created_at").and_then(Value::as_str).map(str::to_string);
    }
    Ok(out)
}

/// A `git log --format='%H %cI'` export (optionally with `--name-only`): commit times, and the
/// first commit that touched each file.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct GitLog {
    pub commits: Vec<(String, i64, String)>,
    /// file → (time, commit) of the earliest commit that lists it.
    pub files: BTreeMap<String, (i64, String)>,
}

/// A `git log --format='%H %cI'` commit line: `<hash> <ISO time>` (7 to 64 hex digits), as
/// its hash, its time as written and that time.
pub fn commit_line(line: &str) -> Option<(&str, &str, i64)> {
    let (hash, rest) = line.trim().split_once(' ')?;
    if hash.len() < 7 || hash.len() > 64 || !hash.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let rest = rest.trim();
    Some((hash, rest, parse_time(rest)?))
}

impl GitLog {
    /// Parses the export; lines that are neither a commit line nor a file name are errors.
    pub fn parse(name: &str, text: &str) -> Result<GitLog, IngestError> {
        let mut log = GitLog::default();
        let mut current: Option<(i64, String)> = None;
        for (i, l) in text.lines().enumerate() {
            let l = l.trim();
            if l.is_empty() {
                continue;
            }
            if let Some((hash, rest, t)) = commit_line(l) {
                log.commits.push((hash.to_ascii_lowercase(), t, rest.to_string()));
                current = Some((t, hash.to_ascii_lowercase()));
                continue;
            }
            match &current {
                Some((t, h)) => {
                    let e = log.files.entry(l.to_string()).or_insert((*t, h.clone()));
                    if *t < e.0 {
                        *e = (*t, h.clone());
                    }
                }
                None => {
                    return Err(IngestError::new(
                        Location::line(name, i + 1),
                        format!("`{l}` is not a commit line `<hash> <ISO time>` (git log --format='%H %cI')"),
                    ));
                }
            }
        }
        Ok(log)
    }

    /// The time of a commit given by a prefix of its hash.
    pub fn commit_time(&self, prefix: &str) -> Option<i64> {
        let p = prefix.trim().to_ascii_lowercase();
        if p.len() < 4 {
            return None;
        }
        self.commits.iter().find(|(h, _, _)| h.starts_with(&p)).map(|(_, t, _)| *t)
    }
}

/// Everything a rule evaluation reads.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EvalContext {
    pub values: Values,
    pub git: GitLog,
    /// Stamped on every verdict (the CLI uses the current time).
    pub evaluated_at: Option<String>,
}

/// One input behind a verdict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InputUsed {
    pub name: String,
    pub estimate: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
    pub source: Option<String>,
    pub sha256: Option<String>,
    /// When the data were produced, and how that is known.
    pub data_time: Option<String>,
    pub data_time_from: Option<String>,
}

/// The temporal-integrity result of one rule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Temporal {
    /// `ok`, `registered_after_data`, `incomplete` (some inputs undated) or `unknown` (no
    /// registration time).
    pub status: String,
    pub registered: Option<String>,
    /// How the registration time is known: `commit` (from the git log) or `registered_at`.
    pub registered_from: Option<String>,
    /// Inputs produced before the rule was registered.
    pub late_for: Vec<String>,
    pub detail: String,
}

/// One verdict record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RuleVerdict {
    pub rule_id: String,
    pub text: Option<String>,
    pub provenance: Option<Provenance>,
    pub registered_at: Option<String>,
    pub commit: Option<String>,
    pub rule_hash: String,
    /// `predicate`, `tiers` or `vote`.
    pub kind: String,
    /// Whether the rule fired (tiers: some tier held; vote: always).
    pub fired: Option<bool>,
    /// `fired` / `not fired`, the `then`/`else` label, the tier, or the vote's winner.
    pub outcome: String,
    pub margin: Option<f64>,
    /// Vote totals per option.
    pub totals: Option<BTreeMap<String, f64>>,
    pub tree: Vec<Eval>,
    pub inputs: Vec<InputUsed>,
    pub temporal: Temporal,
    pub evaluated_at: Option<String>,
    /// Why the rule could not be evaluated (a missing value), if so.
    pub error: Option<String>,
}

/// All verdicts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RulesReport {
    pub verdicts: Vec<RuleVerdict>,
    pub fired: usize,
    pub not_fired: usize,
    pub errors: usize,
    pub registered_after_data: usize,
    /// The exclusion ledger checked against the same clock ([`super::exclusions`]).
    #[serde(default)]
    pub exclusions: Vec<super::exclusions::ExclusionCheck>,
    #[serde(default)]
    pub exclusions_after_results: usize,
    /// Rules judged with and without the values each exclusion withdraws.
    #[serde(default)]
    pub exclusion_effects: Vec<super::exclusions::ExclusionEffect>,
}

/// The data time of a value or file name, and where it comes from.
pub fn data_time(name: &str, ctx: &EvalContext) -> Option<(i64, String)> {
    let v = &ctx.values;
    let from_source = |file: &str| -> Option<(i64, String)> {
        let s = v.sources.get(file);
        s.and_then(|s| s.created_at.as_deref())
            .and_then(parse_time)
            .map(|t| (t, format!("{file}: created_at")))
            .or_else(|| {
                s.and_then(|s| s.commit.as_deref())
                    .and_then(|c| ctx.git.commit_time(c))
                    .map(|t| (t, format!("{file}: commit")))
            })
            .or_else(|| {
                ctx.git.files.get(file).map(|(t, h)| (*t, format!("{file}: first commit {}", &h[..h.len().min(7)])))
            })
    };
    match v.values.get(name) {
        Some(q) => q
            .created_at
            .as_deref()
            .and_then(parse_time)
            .map(|t| (t, "value: created_at".to_string()))
            .or_else(|| {
                q.commit.as_deref().and_then(|c| ctx.git.commit_time(c)).map(|t| (t, "value: commit".to_string()))
            })
            .or_else(|| q.source.as_deref().and_then(from_source)),
        None => from_source(name),
    }
}

fn temporal(rule: &Rule, names: &[String], ctx: &EvalContext) -> Temporal {
    let reg = rule
        .commit
        .as_deref()
        .and_then(|c| ctx.git.commit_time(c))
        .map(|t| (t, "commit"))
        .or_else(|| rule.registered_at.as_deref().and_then(parse_time).map(|t| (t, "registered_at")));
    let times: Vec<(String, Option<(i64, String)>)> = names.iter().map(|n| (n.clone(), data_time(n, ctx))).collect();
    let Some((rt, from)) = reg else {
        return Temporal {
            status: "unknown".into(),
            registered: None,
            registered_from: None,
            late_for: Vec::new(),
            detail: "no registration time (registered_at or a commit in the git log)".into(),
        };
    };
    let late: Vec<String> =
        times.iter().filter(|(_, t)| t.as_ref().is_some_and(|(t, _)| *t < rt)).map(|(n, _)| n.clone()).collect();
    let undated = times.iter().filter(|(_, t)| t.is_none()).count();
    let status = if !late.is_empty() {
        "registered_after_data"
    } else if undated > 0 || times.is_empty() {
        "incomplete"
    } else {
        "ok"
    };
    let detail = if late.is_empty() {
        format!("registered {}; {} of {} inputs dated, none earlier", fmt_time(rt), times.len() - undated, times.len())
    } else {
        format!("registered {} after its data: {}", fmt_time(rt), late.join(", "))
    };
    Temporal {
        status: status.into(),
        registered: Some(fmt_time(rt)),
        registered_from: Some(from.into()),
        late_for: late,
        detail,
    }
}

/// What a rule's outcome is (fired, outcome name, margin): its evaluated predicates go to
/// `tree`, a vote's totals to `totals`.
pub(super) fn judge(
    rule: &Rule,
    env: &mut Env,
    tree: &mut Vec<Eval>,
    totals: &mut Option<BTreeMap<String, f64>>,
) -> Result<(Option<bool>, String, Option<f64>), String> {
    match &rule.body {
        RuleBody::Predicate(p) => {
            let e = env.eval(p, None)?;
            let outcome = if e.fired {
                rule.then.clone().unwrap_or_else(|| "fired".into())
            } else {
                rule.otherwise.clone().unwrap_or_else(|| "not fired".into())
            };
            let r = (Some(e.fired), outcome, e.margin);
            tree.push(e);
            Ok(r)
        }
        RuleBody::Tiers { tiers, fallback } => {
            let mut chosen: Option<(String, Option<f64>)> = None;
            for (name, p) in tiers {
                let mut e = env.eval(p, None)?;
                e.detail = format!("{name}: {}", e.detail);
                if chosen.is_none() && e.fired {
                    chosen = Some((name.clone(), e.margin));
                }
                tree.push(e);
            }
            Ok(match chosen {
                Some((n, m)) => (Some(true), n, m),
                None => (
                    Some(false),
                    fallback.clone().unwrap_or_else(|| "no tier".into()),
                    tree.first().and_then(|e| e.margin),
                ),
            })
        }
        RuleBody::Vote { options, ballots, tie_break } => {
            let mut t: BTreeMap<String, f64> = options.iter().map(|o| (o.clone(), 0.0)).collect();
            for b in ballots {
                for (o, w) in &b.votes {
                    *t.entry(o.clone()).or_default() += w;
                }
            }
            let best = t.values().copied().fold(f64::NEG_INFINITY, f64::max);
            let tied: Vec<&String> = options.iter().filter(|o| t.get(*o) == Some(&best)).collect();
            let winner = match tie_break {
                Some(tb) if tied.len() > 1 && tied.contains(&tb) => tb.clone(),
                _ => tied.first().map(|s| s.to_string()).unwrap_or_default(),
            };
            let second = options
                .iter()
                .filter(|o| **o != winner)
                .filter_map(|o| t.get(o))
                .copied()
                .fold(f64::NEG_INFINITY, f64::max);
            let margin = second.is_finite().then_some(best - second);
            *totals = Some(t);
            Ok((Some(true), winner, margin))
        }
    }
}

/// Evaluates every rule into a verdict record.
pub fn evaluate(rules: &[Rule], ctx: &EvalContext) -> RulesReport {
    let mut verdicts = Vec::new();
    for rule in rules {
        let mut env = Env::new(&ctx.values.values);
        let mut tree = Vec::new();
        let mut totals = None;
        let result = judge(rule, &mut env, &mut tree, &mut totals);
        let mut names = env.used.clone();
        for k in &rule.keyed_to {
            if !names.contains(k) {
                names.push(k.clone());
            }
        }
        // the temporal check covers the data the rule is keyed to (when named), else every
        // value it read: a rule may read reference values that predate it (a baseline delta)
        let judged = if rule.keyed_to.is_empty() { names.clone() } else { rule.keyed_to.clone() };
        let temp = temporal(rule, &judged, ctx);
        let inputs = names
            .iter()
            .map(|n| (n.clone(), data_time(n, ctx)))
            .map(|(n, t)| {
                let q = ctx.values.values.get(&n);
                let source = q
                    .and_then(|q| q.source.clone())
                    .or_else(|| (!ctx.values.values.contains_key(&n)).then(|| n.clone()));
                InputUsed {
                    estimate: q.map(|q| q.estimate),
                    low: q.and_then(|q| q.low),
                    high: q.and_then(|q| q.high),
                    sha256: source.as_ref().and_then(|s| ctx.values.sources.get(s)).and_then(|s| s.sha256.clone()),
                    source,
                    data_time: t.as_ref().map(|(t, _)| fmt_time(*t)),
                    data_time_from: t.map(|(_, f)| f),
                    name: n,
                }
            })
            .collect();
        let kind = match rule.body {
            RuleBody::Predicate(_) => "predicate",
            RuleBody::Tiers { .. } => "tiers",
            RuleBody::Vote { .. } => "vote",
        };
        let (fired, outcome, margin, error) = match result {
            Ok((f, o, m)) => (f, o, m, None),
            Err(e) => (None, "cannot evaluate".into(), None, Some(e)),
        };
        verdicts.push(RuleVerdict {
            rule_id: rule.id.clone(),
            text: rule.text.clone(),
            provenance: rule.provenance.clone(),
            registered_at: rule.registered_at.clone(),
            commit: rule.commit.clone(),
            rule_hash: rule.hash.clone(),
            kind: kind.into(),
            fired,
            outcome,
            margin,
            totals,
            tree,
            inputs,
            temporal: temp,
            evaluated_at: ctx.evaluated_at.clone(),
            error,
        });
    }
    RulesReport {
        fired: verdicts.iter().filter(|v| v.fired == Some(true)).count(),
        not_fired: verdicts.iter().filter(|v| v.fired == Some(false)).count(),
        errors: verdicts.iter().filter(|v| v.error.is_some()).count(),
        registered_after_data: verdicts.iter().filter(|v| v.temporal.status == "registered_after_data").count(),
        verdicts,
        exclusions: Vec::new(),
        exclusions_after_results: 0,
        exclusion_effects: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_formatted_in_utc() {
        assert_eq!(fmt_time(1_780_142_531), "2026-05-30T12:02:11Z");
        assert_eq!(fmt_time(0), "1970-01-01T00:00:00Z");
    }

    #[test]
    fn git_log_export() {
        let text = "a1b2c3d4e5 2026-05-30T14:02:11+02:00\n\nresults/v7/bm25.json\nprogress/v7/decisions.md\n\
9f8e7d6c5b 2026-05-20T09:00:00+02:00\nresults/v7/bm25.json\n";
        let g = GitLog::parse("log.txt", text).unwrap();
        assert_eq!(g.commits.len(), 2);
        assert_eq!(g.commit_time("a1b2c3d"), Some(1_780_142_531));
        assert_eq!(g.files["results/v7/bm25.json"].1, "9f8e7d6c5b");
        let e = GitLog::parse("log.txt", "not a commit\n").unwrap_err();
        assert_eq!(e.location.line, Some(1));
    }
}
