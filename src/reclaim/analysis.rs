//! Reclaim analysis: per-trial rows → cells → rates with intervals (Reclaim Evaluation, Kwon
//! 2026, §3.1, §5, §11, Tables 3, 5, 8, 17).
//!
//! * A **cell** is (model, task, policy, integrity g, arm), pooled over problems × seeds.
//! * **Reclaim rate** RR(π, g) = #correct / n (paper eq. 1), with a percentile bootstrap
//!   interval ([`super::bootstrap`]; Python-compatible by default) over the 0/1 outcomes in file
//!   order, and the rule-of-three bound when the cell is all 0 (upper 3/n) or all 1
//!   (lower 1 − 3/n) (paper §11).
//! * Each trial is **scored** from its raw reply when the reply and the truth are known
//!   ([`super::score`], strict ANSWER-line parsing), else from the stored `correct` (or from the
//!   stored answer against the truth, or `bucket`); `score = strict` / `stored` forces one.
//!   Cells report how many trials were re-scored and how many disagree with the stored
//!   `correct` (parser drift, the v2-erratum class of bug).
//! * **Abstain** = no committed answer; **confident-wrong emission** (`emit`) = an answer that
//!   is not correct (reclaim `bench_blank.classify`: abstain / true / emit). Rates per n. With
//!   [`AbstainRule::Hedge`] a non-recovered trial with a reply abstains by reclaim-eval's
//!   `_is_abstain` instead (no parsable answer or a hedge phrase anywhere in the raw reply;
//!   [`super::abstain`]); recovered trials and RR are the same under both rules, and the
//!   attractor counts and "worse than empty" follow the emissions of the chosen rule.
//! * **Attractor** = an emission equal to the stale value (|ans − y′| < 0.5; words ignoring
//!   case), with **both** denominators the paper uses: `attractor_per_n` = #attractor / n
//!   (Table 3) and `attractor_per_emission` = #attractor / #emit (Table 17; `None` when nothing
//!   was emitted).
//! * **Worse than empty**: Δ = emit(lossy) − emit(blank) per (model, task, g, arm) (Table 17;
//!   "no model reverses (Δ ≥ 0 everywhere)"). The interval is paired — bootstrap of the
//!   per-(seed, pid) differences in sorted key order, reclaim-eval's `auto_vs_summary_ci.py`
//!   convention — when both cells have the same unique (seed, pid) keys, and unpaired
//!   otherwise.
//! * **Contrasts** RR(a) − RR(b) between two policies in the same (model, task, g, arm), with the
//!   same paired/unpaired rule (e.g. source-first-auto − summary, Table 8's "+0.18 [+0.05,
//!   +0.30]").

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::abstain::{AbstainRule, hedge_parses, hedge_phrase};
use super::bootstrap::{self, BootstrapSettings};
use super::key::{CellKey, ContrastKey};
use super::score::{Answer, parse_reply, same_answer};
use super::trials::Trial;
use crate::cells::{CellItems, Populations};
use crate::probe::warnings::{ProbeWarningKind as W, ProbeWarnings};

crate::choice! {
    /// Where each trial's correctness comes from.
    #[derive(Default)]
    pub enum ScoreMode {
        /// Strict re-scoring where the reply and the truth are known, stored values elsewhere.
        #[default]
        Auto,
        /// Always the stored `correct` / `answer` / `bucket`.
        Stored,
        /// Strict re-scoring; trials that cannot be re-scored fall back to stored values (counted).
        Strict,
    }
}

crate::fields! {
    /// Analysis settings.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub struct ReclaimSettings {
        score: ScoreMode = ScoreMode::Auto, label "scoring",
            help "Where correctness comes from: strict re-scoring of replies where possible (auto), stored values, or strict.";
        loose_time: bool = false, label "MultiWOZ: any time in the reply",
            help "MultiWOZ: fall back to the last time anywhere in a reply without an ANSWER-line time.";
        lossy_policy as "lossy": String = "lossy".into(), label "lossy policy",
            help "The lossy policy of the worse-than-empty contrast.";
        blank_policy as "blank": String = "blank".into(), label "empty-memory policy",
            help "The empty-memory policy of the worse-than-empty contrast.";
        contrasts as "contrast": Vec<(String, String)> = Vec::new(), via crate::fields::Pairs, label "RR contrasts",
            help "An RR contrast A:B (RR(A) − RR(B) per model, g and arm). Repeatable.";
        #[serde(default)]
        abstain: AbstainRule = AbstainRule::Strict, label "abstention",
            help "Which non-recovered trials count as abstentions: strict (no ANSWER-line value, the paper's tables) or hedge (reclaim-eval's _is_abstain; needs replies).";
        #[serde(default)]
        pool_design: bool = false, label "pool every design column found",
            help "Pool trials across every design column found (prompt, n, budget, H, …) instead of one cell per combination (pooling one column is a cell setting).";
    }
    groups {
        bootstrap: BootstrapSettings = BootstrapSettings::default();
    }
}

/// A count over a labelled denominator.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Share {
    pub count: usize,
    pub denominator: usize,
    /// What the denominator counts, e.g. `trials (n)` or `confident-wrong emissions`.
    pub denominator_label: String,
    pub rate: Option<f64>,
}

impl Share {
    /// A share whose rate is unknown (`None`) when `known` is false: the attractor share of
    /// trials whose stale value is unknown is unknown, not 0.
    fn known(count: usize, denominator: usize, label: &str, known: bool) -> Share {
        let mut s = Share::new(count, denominator, label);
        if !known {
            s.rate = None;
        }
        s
    }

    fn new(count: usize, denominator: usize, label: &str) -> Share {
        Share {
            count,
            denominator,
            denominator_label: label.to_string(),
            rate: if denominator == 0 { None } else { Some(count as f64 / denominator as f64) },
        }
    }
}

/// One cell's results.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Cell {
    /// The cell (model, task, policy, g, arm).
    #[serde(flatten)]
    pub key: CellKey,
    /// The sweep's design values of the cell (`n`, `budget`, `store`, `H`, …; empty when the
    /// rows have none or they were pooled).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub design: Vec<(String, String)>,
    /// Trials with a known outcome.
    pub n: usize,
    /// Distinct problems.
    pub problems: usize,
    pub recovered: usize,
    /// Reclaim rate = recovered / n.
    pub rr: Option<f64>,
    pub rr_low: Option<f64>,
    pub rr_high: Option<f64>,
    /// Rule of three: 3/n when nothing was recovered.
    pub rule_of_three_high: Option<f64>,
    /// Rule of three: 1 − 3/n when everything was recovered.
    pub rule_of_three_low: Option<f64>,
    /// Trials whose answered/abstained status is known.
    pub answered_known: usize,
    pub abstain: usize,
    pub abstain_rate: Option<f64>,
    /// Confident-wrong emissions: an answer that is not correct.
    pub emit: usize,
    pub emit_rate: Option<f64>,
    /// #attractor / n (paper Table 3).
    pub attractor_per_n: Share,
    /// #attractor / #emit (paper Table 17).
    pub attractor_per_emission: Share,
    /// Trials whose stale value is known (attractors are counted among these).
    pub stale_known: usize,
    /// Confident-wrong emissions that cannot be told inherited or novel: no stale value is
    /// known and no stored label says (counted as unknown, never as novel).
    #[serde(default)]
    pub emission_unknown: usize,
    /// Emissions told inherited or novel from the file's stored label (`bucket`, `attractor`)
    /// because the stale value is unknown.
    #[serde(default)]
    pub from_stored_labels: usize,
    /// Trials with a stored failure label (`bucket`: recov / inherit / novel / abst / emit …).
    #[serde(default)]
    pub stored_labels: usize,
    /// Of them, trials whose recomputed class differs from the stored label.
    #[serde(default)]
    pub label_disagrees: usize,
    /// Trials re-scored strictly from their reply.
    pub rescored: usize,
    /// Re-scored trials whose strict outcome differs from the stored `correct`.
    pub rescore_disagrees: usize,
    /// The abstention rule these counts follow (`strict` or `hedge`).
    pub abstain_rule: String,
    /// `hedge`: non-recovered trials that abstain only because their reply contains a hedge
    /// phrase (an answer parses from it); 0 under `strict`.
    pub hedge_abstain: usize,
    /// `hedge`: trials without reply text, whose abstention follows the strict rule; 0 under
    /// `strict`.
    pub abstain_fallback: usize,
    /// The population of problems the cell holds (`P1`, …; the `populations` table lists them).
    #[serde(default)]
    pub population: String,
    /// Trials whose row says whether the reply flagged its uncertainty in prose (`flagged`).
    #[serde(default)]
    pub flagged_known: usize,
    /// Of them, replies that flag it (reclaim-eval's Table 10: Opus 90 of 90).
    #[serde(default)]
    pub flagged: usize,
    /// Flagged replies that still emit a confident wrong value on the ANSWER line (the prose
    /// hedge a parser never sees: Opus 44 of 90).
    #[serde(default)]
    pub flagged_emit: usize,
}

/// Δ = emit(lossy) − emit(blank) for one (model, task, g, arm).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WorseThanEmpty {
    /// The cells contrasted (model, task, g, arm).
    #[serde(flatten)]
    pub key: ContrastKey,
    pub lossy_policy: String,
    pub blank_policy: String,
    pub n_lossy: usize,
    pub n_blank: usize,
    pub emit_lossy: Option<f64>,
    pub emit_blank: Option<f64>,
    /// Emit(lossy) − Emit(blank), its interval and how it was paired.
    #[serde(flatten)]
    pub difference: Difference,
    /// Δ < 0: the lossy memory emits less than the empty one.
    pub reverses: bool,
    /// The abstention rule the emissions follow (`strict` or `hedge`).
    pub abstain_rule: String,
}

/// RR(a) − RR(b) for one (model, task, g, arm).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Contrast {
    /// The cells contrasted (model, task, g, arm).
    #[serde(flatten)]
    pub key: ContrastKey,
    pub a: String,
    pub b: String,
    pub n_a: usize,
    pub n_b: usize,
    pub rr_a: Option<f64>,
    pub rr_b: Option<f64>,
    /// RR(a) − RR(b), its interval and how it was paired.
    #[serde(flatten)]
    pub difference: Difference,
}

/// A difference of two cells' means with its bootstrap interval (flattened into
/// [`WorseThanEmpty`] and [`Contrast`]: the keys `delta`, `low`, `high`, `pairing`, `pairs`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Difference {
    pub delta: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
    /// `paired` (same (seed, pid) keys on both sides) or `unpaired`.
    pub pairing: String,
    /// The (seed, pid) pairs compared; 0 when unpaired.
    pub pairs: usize,
}

/// Everything `memaudit reclaim` prints.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReclaimReport {
    pub cells: Vec<Cell>,
    pub worse_than_empty: Vec<WorseThanEmpty>,
    pub contrasts: Vec<Contrast>,
    pub settings: ReclaimSettings,
    /// The interval method in words.
    pub interval_method: String,
    /// The abstention rule in words.
    #[serde(default)]
    pub abstain_method: String,
    pub warnings: ProbeWarnings,
    /// Trials analysed (after the arm filter).
    #[serde(default)]
    pub trials: usize,
    /// Failure modes, stored buckets, sweeps, the recompute certificate, invented numbers and
    /// cascades ([`super::boundaries`]).
    #[serde(default)]
    pub boundaries: super::boundaries::Boundaries,
    /// How the trials became cells: design columns keyed or pooled, the populations of problems
    /// and cells side by side on different problems, trials left out ([`crate::cells`]).
    #[serde(default)]
    pub populations: crate::cells::CellReport,
}

/// One trial, scored.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Scored {
    correct: Option<bool>,
    /// Some(true) answered, Some(false) abstained, None unknown.
    answered: Option<bool>,
    answer: Option<Answer>,
    rescored: bool,
    disagrees: bool,
    /// `hedge`: abstains only because of a hedge phrase.
    hedged: bool,
    /// `hedge`: no reply text, the strict rule decided.
    fallback: bool,
}

/// How a trial failed (or did not): Table 7's classes; `Emission` is a confident-wrong answer
/// not told inherited or novel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum FailClass {
    Recovered,
    Inherited,
    Novel,
    Emission,
    Abstained,
}

/// A stored label (`bucket`) as a failure class, when it is one.
fn stored_class(bucket: &str) -> Option<FailClass> {
    match bucket.to_ascii_lowercase().as_str() {
        "true" | "recov" => Some(FailClass::Recovered),
        "abstain" | "abst" | "noans" => Some(FailClass::Abstained),
        "inherit" | "inherited" | "drift" | "attractor" => Some(FailClass::Inherited),
        "novel" => Some(FailClass::Novel),
        "emit" => Some(FailClass::Emission),
        _ => None,
    }
}

/// A trial's class recomputed from its outcome, answer and stale value, and the class its stored
/// label says.
pub(super) struct Classes {
    /// `None`: the outcome or the answered status is unknown.
    pub recomputed: Option<FailClass>,
    pub stored: Option<FailClass>,
}

impl Classes {
    /// The class counted: the recomputed one, or for an emission the recomputation cannot tell
    /// inherited from novel, the stored label when it tells.
    pub fn used(&self) -> Option<FailClass> {
        match (self.recomputed, self.stored) {
            (Some(FailClass::Emission), Some(s @ (FailClass::Inherited | FailClass::Novel))) => Some(s),
            (r, _) => r,
        }
    }

    pub fn told_by_stored_label(&self) -> bool {
        self.used() != self.recomputed
    }

    /// The recomputed class contradicts the stored label (an undecided emission agrees with any
    /// emission label).
    pub fn disagree(&self) -> bool {
        use FailClass::*;
        match (self.recomputed, self.stored) {
            (Some(r), Some(s)) => {
                !(r == s
                    || r == Emission && matches!(s, Inherited | Novel)
                    || s == Emission && matches!(r, Inherited | Novel))
            }
            _ => false,
        }
    }
}

pub(super) fn failure_classes(t: &Trial, sc: &Scored) -> Classes {
    let stored = t.bucket.as_deref().and_then(stored_class);
    let recomputed = match (sc.correct, sc.answered) {
        (Some(true), _) => Some(FailClass::Recovered),
        (Some(false), Some(false)) => Some(FailClass::Abstained),
        (Some(false), Some(true)) => Some(match (&sc.answer, &t.stale) {
            (Some(a), Some(y)) => {
                if same_answer(a, y, t.kind) {
                    FailClass::Inherited
                } else {
                    FailClass::Novel
                }
            }
            // The row's own `attractor` flag decides when the stale value is unknown.
            _ => match t.attractor {
                Some(true) => FailClass::Inherited,
                Some(false) => FailClass::Novel,
                None => FailClass::Emission,
            },
        }),
        _ => None,
    };
    Classes { recomputed, stored }
}

fn bucket_says(b: &str) -> (Option<bool>, Option<bool>) {
    // (correct, answered)
    match b.to_ascii_lowercase().as_str() {
        "true" | "recov" | "correct" => (Some(true), Some(true)),
        "abstain" | "abst" | "noans" => (Some(false), Some(false)),
        "emit" | "inherit" | "novel" | "drift" | "other" | "silent_missum" | "other_wrong" => (Some(false), Some(true)),
        _ => (None, None),
    }
}

fn score(t: &Trial, s: &ReclaimSettings, notices: &mut ProbeWarnings) -> Scored {
    let mut sc = score_outcome(t, s, notices);
    if s.abstain == AbstainRule::Hedge {
        apply_hedge(t, s, &mut sc, notices);
    }
    sc
}

/// reclaim-eval's behavioural confirm: `if not ok: declined += _is_abstain(reply, p)` — only
/// trials that were not recovered are asked, from their whole raw reply.
fn apply_hedge(t: &Trial, s: &ReclaimSettings, sc: &mut Scored, notices: &mut ProbeWarnings) {
    let Some(reply) = &t.reply else {
        sc.fallback = true;
        notices.add(W::HedgeNoReply, || format!("{}, line {}", t.file, t.line));
        return;
    };
    if sc.correct != Some(false) {
        return;
    }
    let parses = hedge_parses(reply, t.kind, s.loose_time);
    let hedges = hedge_phrase(reply).is_some();
    let answered = parses && !hedges;
    if answered && sc.answered == Some(false) {
        notices.add(W::HedgeCountsAnswer, || format!("{}, line {}", t.file, t.line));
    }
    sc.hedged = parses && hedges;
    sc.answered = Some(answered);
}

fn score_outcome(t: &Trial, s: &ReclaimSettings, notices: &mut ProbeWarnings) -> Scored {
    let stored = {
        let (bc, ba) = t.bucket.as_deref().map_or((None, None), bucket_says);
        let answered = if t.answer_given { Some(t.answer.is_some()) } else { ba };
        let correct = t.correct.or(bc).or_else(|| match (&t.answer, &t.truth) {
            (Some(a), Some(y)) => Some(same_answer(a, y, t.kind)),
            (None, Some(_)) if t.answer_given => Some(false),
            _ => None,
        });
        Scored {
            correct,
            answered,
            answer: t.answer.clone(),
            rescored: false,
            disagrees: false,
            hedged: false,
            fallback: false,
        }
    };
    let can_rescore = t.reply.is_some() && t.truth.is_some();
    let strict = match s.score {
        ScoreMode::Stored => false,
        ScoreMode::Auto => can_rescore,
        ScoreMode::Strict => {
            if !can_rescore {
                notices.add(W::StrictUnavailable, || format!("{}, line {}", t.file, t.line));
            }
            can_rescore
        }
    };
    if !strict {
        return stored;
    }
    let (Some(reply), Some(truth)) = (&t.reply, &t.truth) else { return stored };
    let answer = parse_reply(reply, t.kind, &t.options, s.loose_time);
    let correct = answer.as_ref().is_some_and(|a| same_answer(a, truth, t.kind));
    let disagrees = stored.correct.is_some_and(|c| c != correct);
    if disagrees {
        notices.add(W::RescoreDisagrees, || format!("{}, line {}", t.file, t.line));
    }
    Scored {
        correct: Some(correct),
        answered: Some(answer.is_some()),
        answer,
        rescored: true,
        disagrees,
        hedged: false,
        fallback: false,
    }
}

type GroupKey = (Option<String>, Option<String>, Option<u64>, Option<String>, Vec<(String, String)>);

/// A cell is one (model, task, integrity, arm, design values) and policy; the design values are
/// those the cells mechanism keyed ([`super::cells`]: pooled ones are not among them).
fn group_key(t: &Trial) -> GroupKey {
    (t.model.clone(), t.task.clone(), t.integrity.map(f64::to_bits), t.arm.clone(), t.design.clone())
}

/// The cells a group's contrasts set side by side.
fn contrast_key(g: &GroupKey) -> ContrastKey {
    ContrastKey { model: g.0.clone(), task: g.1.clone(), integrity: g.2.map(f64::from_bits), arm: g.3.clone() }
}

struct CellData<'a> {
    trials: Vec<(&'a Trial, Scored)>,
}

/// Dense problem ids for the clustered bootstrap.
pub(super) fn cluster_labels(trials: &[&Trial]) -> Vec<u32> {
    let mut ids: HashMap<&str, u32> = HashMap::new();
    trials
        .iter()
        .map(|t| {
            let next = ids.len() as u32;
            *ids.entry(t.pid.as_str()).or_insert(next)
        })
        .collect()
}

fn cell_of(data: &CellData, s: &ReclaimSettings) -> Cell {
    let first = data.trials[0].0;
    let known: Vec<&(&Trial, Scored)> = data.trials.iter().filter(|(_, sc)| sc.correct.is_some()).collect();
    let values: Vec<f64> = known.iter().map(|(_, sc)| if sc.correct == Some(true) { 1.0 } else { 0.0 }).collect();
    let labels = cluster_labels(&known.iter().map(|(t, _)| *t).collect::<Vec<_>>());
    let n = values.len();
    let recovered = values.iter().filter(|&&v| v == 1.0).count();
    let ci = bootstrap::interval(&values, Some(&labels), &s.bootstrap);
    let answered_known: Vec<&(&Trial, Scored)> =
        data.trials.iter().filter(|(_, sc)| sc.answered.is_some() && sc.correct.is_some()).collect();
    let abstain = answered_known.iter().filter(|(_, sc)| sc.answered == Some(false)).count();
    let emits: Vec<&&(&Trial, Scored)> =
        answered_known.iter().filter(|(_, sc)| sc.answered == Some(true) && sc.correct == Some(false)).collect();
    let flagged_emit = emits.iter().filter(|(t, _)| t.flagged == Some(true)).count();
    let mut attractor = 0usize;
    let mut stale_known = 0usize;
    let (mut emission_unknown, mut from_stored, mut stored_labels, mut label_disagrees) = (0, 0, 0, 0);
    // Stored labels are failure modes only where every label of the cell is one (a file of
    // completeness buckets — `silent_missum`, `flagged_partial`, … — labels something else).
    let failure_labels = data.trials.iter().all(|(t, _)| t.bucket.as_deref().is_none_or(|b| stored_class(b).is_some()));
    for (t, sc) in &data.trials {
        if t.stale.is_some() || t.attractor.is_some() {
            stale_known += 1;
        }
        let mut classes = failure_classes(t, sc);
        if !failure_labels {
            classes.stored = None;
        }
        if classes.stored.is_some() {
            stored_labels += 1;
            // The hedge rule reclassifies on purpose: that is the rule, not a disagreement.
            if classes.disagree() && !sc.hedged {
                label_disagrees += 1;
            }
        }
        match classes.used() {
            Some(FailClass::Inherited) => attractor += 1,
            Some(FailClass::Emission) => emission_unknown += 1,
            _ => {}
        }
        if classes.told_by_stored_label() {
            from_stored += 1;
        }
    }
    let problems = {
        let mut p: Vec<&str> = data.trials.iter().map(|(t, _)| t.pid.as_str()).collect();
        p.sort_unstable();
        p.dedup();
        p.len()
    };
    let rate = |x: usize, d: usize| if d == 0 { None } else { Some(x as f64 / d as f64) };
    Cell {
        key: CellKey::of(first),
        design: first.design.clone(),
        n,
        problems,
        recovered,
        rr: rate(recovered, n),
        rr_low: ci.map(|c| c.low),
        rr_high: ci.map(|c| c.high),
        rule_of_three_high: if n > 0 && recovered == 0 { Some((3.0 / n as f64).min(1.0)) } else { None },
        rule_of_three_low: if n > 0 && recovered == n { Some((1.0 - 3.0 / n as f64).max(0.0)) } else { None },
        answered_known: answered_known.len(),
        abstain,
        abstain_rate: rate(abstain, answered_known.len()),
        emit: emits.len(),
        emit_rate: rate(emits.len(), answered_known.len()),
        attractor_per_n: Share::known(
            attractor,
            n,
            "trials (n)",
            emission_unknown == 0 && stale_known + from_stored > 0,
        ),
        attractor_per_emission: Share::known(
            attractor,
            emits.len(),
            "confident-wrong emissions (emit)",
            emission_unknown == 0 && stale_known + from_stored > 0,
        ),
        stale_known,
        emission_unknown,
        from_stored_labels: from_stored,
        stored_labels,
        label_disagrees,
        rescored: data.trials.iter().filter(|(_, sc)| sc.rescored).count(),
        rescore_disagrees: data.trials.iter().filter(|(_, sc)| sc.disagrees).count(),
        abstain_rule: s.abstain.name().to_string(),
        hedge_abstain: data.trials.iter().filter(|(_, sc)| sc.hedged).count(),
        abstain_fallback: data.trials.iter().filter(|(_, sc)| sc.fallback).count(),
        population: String::new(),
        flagged_known: data.trials.iter().filter(|(t, _)| t.flagged.is_some()).count(),
        flagged: data.trials.iter().filter(|(t, _)| t.flagged == Some(true)).count(),
        flagged_emit,
    }
}

/// The populations of the cells: problems per cell; where a panel's cells hold the same
/// problems but not the same (problem, seed) trials, those differences.
fn populations(order: &[(GroupKey, String)], cells: &HashMap<(GroupKey, String), CellData>) -> Populations {
    let datas: Vec<&CellData> = order.iter().filter_map(|k| cells.get(k)).collect();
    let of = |items: &dyn Fn(&Trial) -> String| -> Vec<CellItems> {
        datas
            .iter()
            .map(|d| {
                let t = d.trials[0].0;
                CellItems {
                    cell: super::cells::cell_text(&t.policy, t.integrity, &t.design),
                    panel: super::cells::panel_text(&t.model, &t.task, &t.arm),
                    items: Some(d.trials.iter().map(|(t, _)| items(t)).collect()),
                    rows: d.trials.len(),
                }
            })
            .collect()
    };
    let mut p = Populations::of(&of(&|t: &Trial| t.pid.clone()), "problems");
    let by_trial = Populations::of(
        &of(&|t: &Trial| match t.seed {
            Some(s) => format!("{} (seed {s})", t.pid),
            None => t.pid.clone(),
        }),
        "trials",
    );
    for m in by_trial.mismatches {
        if !p.mismatches.iter().any(|q| q.panel == m.panel) {
            p.mismatches.push(m);
        }
    }
    p
}

/// A difference a − b of per-trial indicators with the paired/unpaired rule; returns
/// (delta, interval, pairing, pairs).
fn difference(a: &[(&Trial, f64)], b: &[(&Trial, f64)], s: &BootstrapSettings) -> Difference {
    let of = |delta: Option<f64>, ci: Option<crate::stats::Interval>, pairing: &str, pairs: usize| Difference {
        delta,
        low: ci.map(|c| c.low),
        high: ci.map(|c| c.high),
        pairing: pairing.into(),
        pairs,
    };
    if a.is_empty() || b.is_empty() {
        return of(None, None, "unpaired", 0);
    }
    let mean = |v: &[(&Trial, f64)]| v.iter().map(|x| x.1).sum::<f64>() / v.len() as f64;
    let key = |t: &Trial| (t.seed, t.pid.clone());
    let keys_of = |v: &[(&Trial, f64)]| {
        let mut k: Vec<(Option<i64>, String)> = v.iter().map(|(t, _)| key(t)).collect();
        k.sort();
        k
    };
    let (ka, kb) = (keys_of(a), keys_of(b));
    let unique = |k: &[(Option<i64>, String)]| k.windows(2).all(|w| w[0] != w[1]);
    if ka == kb && unique(&ka) && ka.iter().all(|(s, _)| s.is_some()) {
        let ma: HashMap<(Option<i64>, String), f64> = a.iter().map(|(t, v)| (key(t), *v)).collect();
        let mb: HashMap<(Option<i64>, String), f64> = b.iter().map(|(t, v)| (key(t), *v)).collect();
        let d: Vec<f64> =
            ka.iter().map(|k| ma.get(k).copied().unwrap_or(0.0) - mb.get(k).copied().unwrap_or(0.0)).collect();
        let mut ids: HashMap<&str, u32> = HashMap::new();
        let labels: Vec<u32> = ka
            .iter()
            .map(|(_, p)| {
                let next = ids.len() as u32;
                *ids.entry(p.as_str()).or_insert(next)
            })
            .collect();
        let ci = bootstrap::interval(&d, Some(&labels), s);
        let delta = d.iter().sum::<f64>() / d.len() as f64;
        of(Some(delta), ci, "paired", d.len())
    } else {
        let va: Vec<f64> = a.iter().map(|x| x.1).collect();
        let vb: Vec<f64> = b.iter().map(|x| x.1).collect();
        let la = cluster_labels(&a.iter().map(|x| x.0).collect::<Vec<_>>());
        let lb = cluster_labels(&b.iter().map(|x| x.0).collect::<Vec<_>>());
        let ci = bootstrap::unpaired_difference(&va, Some(&la), &vb, Some(&lb), s);
        of(Some(mean(a) - mean(b)), ci, "unpaired", 0)
    }
}

/// The mean of a cell's 0/1 values (it is never empty where this is called).
fn cell_mean(v: &[(&Trial, f64)]) -> Option<f64> {
    Some(v.iter().map(|x| x.1).sum::<f64>() / v.len() as f64)
}

/// Analyses trial rows (in file order; cells in first-seen order).
pub fn analyze(trials: &[Trial], s: &ReclaimSettings) -> ReclaimReport {
    let mut notices = ProbeWarnings::default();
    let mut order: Vec<(GroupKey, String)> = Vec::new();
    let mut cells: HashMap<(GroupKey, String), CellData> = HashMap::new();
    let mut outcomes: Vec<Option<bool>> = Vec::with_capacity(trials.len());
    for t in trials {
        let sc = score(t, s, &mut notices);
        outcomes.push(sc.correct);
        let k = (group_key(t), t.policy.clone());
        cells
            .entry(k.clone())
            .or_insert_with(|| {
                order.push(k);
                CellData { trials: Vec::new() }
            })
            .trials
            .push((t, sc));
    }
    let mut out_cells: Vec<Cell> = order.iter().filter_map(|k| cells.get(k)).map(|d| cell_of(d, s)).collect();
    let populations = populations(&order, &cells);
    for (c, p) in out_cells.iter_mut().zip(&populations.of_cell) {
        c.population = p.clone();
    }
    // groups in first-seen order
    let mut groups: Vec<GroupKey> = Vec::new();
    for (g, _) in &order {
        if !groups.contains(g) {
            groups.push(g.clone());
        }
    }
    let indicator = |g: &GroupKey, policy: &str, f: &dyn Fn(&Scored) -> Option<f64>| -> Vec<(&Trial, f64)> {
        cells
            .get(&(g.clone(), policy.to_string()))
            .map(|d| d.trials.iter().filter_map(|(t, sc)| f(sc).map(|v| (*t, v))).collect())
            .unwrap_or_default()
    };
    let emit = |sc: &Scored| match (sc.answered, sc.correct) {
        (Some(a), Some(c)) => Some(if a && !c { 1.0 } else { 0.0 }),
        _ => None,
    };
    let correct = |sc: &Scored| sc.correct.map(|c| if c { 1.0 } else { 0.0 });
    let mut wte = Vec::new();
    let mut contrasts = Vec::new();
    for g in &groups {
        let (lossy, blank) = (indicator(g, &s.lossy_policy, &emit), indicator(g, &s.blank_policy, &emit));
        if !lossy.is_empty() && !blank.is_empty() {
            let difference = difference(&lossy, &blank, &s.bootstrap);
            wte.push(WorseThanEmpty {
                key: contrast_key(g),
                lossy_policy: s.lossy_policy.clone(),
                blank_policy: s.blank_policy.clone(),
                n_lossy: lossy.len(),
                n_blank: blank.len(),
                emit_lossy: cell_mean(&lossy),
                emit_blank: cell_mean(&blank),
                reverses: difference.delta.is_some_and(|d| d < 0.0),
                difference,
                abstain_rule: s.abstain.name().to_string(),
            });
        }
        for (a, b) in &s.contrasts {
            let (va, vb) = (indicator(g, a, &correct), indicator(g, b, &correct));
            if va.is_empty() || vb.is_empty() {
                continue;
            }
            contrasts.push(Contrast {
                key: contrast_key(g),
                a: a.clone(),
                b: b.clone(),
                n_a: va.len(),
                n_b: vb.len(),
                rr_a: cell_mean(&va),
                rr_b: cell_mean(&vb),
                difference: difference(&va, &vb, &s.bootstrap),
            });
        }
    }
    let boundaries = super::boundaries::analyse(trials, &outcomes, &out_cells, s);
    ReclaimReport {
        boundaries,
        cells: out_cells,
        worse_than_empty: wte,
        contrasts,
        settings: s.clone(),
        interval_method: s.bootstrap.describe(),
        abstain_method: format!("{}: {}", s.abstain.name(), s.abstain.describe()),
        warnings: notices,
        trials: trials.len(),
        populations: crate::cells::CellReport {
            what: populations.what,
            populations: populations.populations,
            mismatches: populations.mismatches,
            ..Default::default()
        },
    }
}

/// Keeps only the trials of `arm` (reclaim-eval reports the directed arm unless stated).
pub fn filter_arm(trials: Vec<Trial>, arm: &str) -> Vec<Trial> {
    trials.into_iter().filter(|t| t.arm.as_deref() == Some(arm)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::InputFile;
    use crate::reclaim::table::{ReclaimTable, paper_bound, paper_cell, reclaim_table, render_text};
    use crate::reclaim::trials::read_trials;

    fn trials(text: &str) -> Vec<Trial> {
        read_trials(&InputFile::new("t.jsonl", text.as_bytes().to_vec()), None, None).unwrap().trials
    }

    #[test]
    fn rates_attractor_and_worse_than_empty() {
        // 4 problems × 1 seed; lossy: 2 emit the stale 55, 1 emits 50, 1 abstains; blank: all abstain
        let mut rows = String::new();
        for (i, ans) in ["55", "55", "50", "null"].iter().enumerate() {
            rows.push_str(&format!(
                "{{\"pid\":\"p{i}\",\"seed\":0,\"policy\":\"lossy\",\"answer\":{ans},\"correct\":false,\"drift\":55,\"truth\":46}}\n"
            ));
        }
        for i in 0..4 {
            rows.push_str(&format!(
                "{{\"pid\":\"p{i}\",\"seed\":0,\"policy\":\"blank\",\"answer\":null,\"correct\":false,\"drift\":55}}\n"
            ));
        }
        let r = analyze(&trials(&rows), &ReclaimSettings::default());
        let lossy = &r.cells[0];
        assert_eq!((lossy.n, lossy.recovered, lossy.emit, lossy.abstain), (4, 0, 3, 1));
        assert_eq!(lossy.emit_rate, Some(0.75));
        assert_eq!(lossy.attractor_per_n.rate, Some(0.5));
        assert_eq!(lossy.attractor_per_emission.rate, Some(2.0 / 3.0));
        assert_eq!(lossy.attractor_per_emission.denominator_label, "confident-wrong emissions (emit)");
        assert_eq!(lossy.rule_of_three_high, Some(0.75));
        assert_eq!((lossy.rr, lossy.rr_low, lossy.rr_high), (Some(0.0), Some(0.0), Some(0.0)));
        let blank = &r.cells[1];
        assert_eq!(blank.attractor_per_emission.rate, None, "no emissions: undefined");
        let w = &r.worse_than_empty[0];
        let d = &w.difference;
        assert_eq!((d.delta, d.pairing.as_str(), d.pairs, w.reverses), (Some(0.75), "paired", 4, false));
        assert!(d.low.unwrap() <= 0.75 && d.high.unwrap() >= 0.75);
    }

    #[test]
    fn strict_rescoring_from_replies() {
        let rows = r#"{"pid":"a","seed":0,"policy":"lossy","reply":"ANSWER: $55","correct":true,"truth":46,"drift":55}
{"pid":"b","seed":0,"policy":"lossy","reply":"The total is 46.","truth":46,"drift":55}
{"pid":"c","seed":0,"policy":"lossy","reply":"**ANSWER:** 46","truth":46,"drift":55}"#;
        let r = analyze(&trials(rows), &ReclaimSettings::default());
        let c = &r.cells[0];
        assert_eq!((c.rescored, c.rescore_disagrees, c.recovered, c.emit, c.abstain), (3, 1, 1, 1, 1));
        assert_eq!(c.attractor_per_n.count, 1);
        assert_eq!(r.warnings.count(W::RescoreDisagrees), 1);
        let stored = analyze(&trials(rows), &ReclaimSettings { score: ScoreMode::Stored, ..Default::default() });
        assert_eq!(stored.cells[0].n, 1, "only the stored `correct` counts");
    }

    #[test]
    fn hedge_rule_counts_hedged_commits_as_abstentions() {
        let rows = r#"{"pid":"a","seed":0,"policy":"lossy","reply":"I cannot recompute this.\nANSWER: 55","truth":46,"drift":55}
{"pid":"b","seed":0,"policy":"lossy","reply":"ANSWER: 55","truth":46,"drift":55}
{"pid":"c","seed":0,"policy":"lossy","reply":"Not sure, but ANSWER: 46","truth":46,"drift":55}
{"pid":"d","seed":0,"policy":"lossy","reply":"No idea.","truth":46,"drift":55}
{"pid":"e","seed":0,"policy":"lossy","answer":55,"correct":false,"drift":55}
{"pid":"a","seed":0,"policy":"blank","reply":"I don't have the figures.","truth":46}
{"pid":"b","seed":0,"policy":"blank","reply":"Insufficient. ANSWER: 50","truth":46}
{"pid":"c","seed":0,"policy":"blank","reply":"ANSWER: unknown","truth":46}
{"pid":"d","seed":0,"policy":"blank","reply":"ANSWER: 46","truth":46}
{"pid":"e","seed":0,"policy":"blank","answer":null,"correct":false}"#;
        let strict = analyze(&trials(rows), &ReclaimSettings::default());
        let hedge = analyze(&trials(rows), &ReclaimSettings { abstain: AbstainRule::Hedge, ..Default::default() });
        let (sl, hl) = (&strict.cells[0], &hedge.cells[0]);
        // strict: a, b, e emit 55; d abstains; c recovered
        assert_eq!((sl.n, sl.recovered, sl.emit, sl.abstain, sl.attractor_per_n.count), (5, 1, 3, 1, 3));
        assert_eq!((sl.abstain_rule.as_str(), sl.hedge_abstain, sl.abstain_fallback), ("strict", 0, 0));
        // hedge: a hedges → abstain; c hedges but is correct → still recovered; e has no reply → strict
        assert_eq!((hl.n, hl.recovered, hl.emit, hl.abstain, hl.attractor_per_n.count), (5, 1, 2, 2, 2));
        assert_eq!((hl.abstain_rule.as_str(), hl.hedge_abstain, hl.abstain_fallback), ("hedge", 1, 1));
        assert_eq!((hl.rr, hl.rr_low, hl.rr_high), (sl.rr, sl.rr_low, sl.rr_high), "RR is the same under both rules");
        assert_eq!(hl.attractor_per_emission.rate, Some(1.0));
        let (sb, hb) = (&strict.cells[1], &hedge.cells[1]);
        assert_eq!((sb.emit, sb.abstain), (1, 3));
        assert_eq!((hb.emit, hb.abstain, hb.hedge_abstain, hb.abstain_fallback), (0, 4, 1, 1));
        assert_eq!(hedge.worse_than_empty[0].emit_lossy, Some(0.4));
        assert_eq!(hedge.worse_than_empty[0].emit_blank, Some(0.0));
        assert_eq!(hedge.worse_than_empty[0].abstain_rule, "hedge");
        assert_eq!(strict.worse_than_empty[0].emit_blank, Some(0.2));
        // the fallback is counted and named, never silent
        assert_eq!(hedge.warnings.count(W::HedgeNoReply), 2);
        assert_eq!(strict.warnings.count(W::HedgeNoReply), 0);
        assert!(hedge.abstain_method.starts_with("hedge: "), "{}", hedge.abstain_method);
        assert!(render_text(&hedge).contains("abstention: hedge"));
        let csv = reclaim_table(&hedge, ReclaimTable::Cells).to_csv().unwrap();
        assert!(csv.lines().next().unwrap().contains(",abstain_rule,hedge_abstain,abstain_fallback,design,"), "{csv}");
        assert!(csv.lines().nth(1).unwrap().contains(",hedge,1,1,,"), "{csv}");
    }

    #[test]
    fn hedge_rule_words_parse_without_options() {
        let rows = r#"{"pid":"r","seed":0,"policy":"lossy","reply":"ANSWER: Zed","truth":"Ana","options":["Ana","Ben"]}
{"pid":"s","seed":0,"policy":"lossy","reply":"ANSWER: unknown","truth":"Ana","options":["Ana","Ben"]}
{"pid":"t","seed":0,"policy":"lossy","reply":"ANSWER: Ben","truth":"Ana","options":["Ana","Ben"]}"#;
        let strict = analyze(&trials(rows), &ReclaimSettings::default());
        assert_eq!((strict.cells[0].emit, strict.cells[0].abstain), (1, 2));
        let hedge = analyze(&trials(rows), &ReclaimSettings { abstain: AbstainRule::Hedge, ..Default::default() });
        assert_eq!((hedge.cells[0].emit, hedge.cells[0].abstain), (2, 1), "Zed is an answer to _is_abstain");
        assert_eq!(hedge.warnings.count(W::HedgeCountsAnswer), 1);
    }

    #[test]
    fn settings_without_abstain_read_as_strict() {
        let mut v = serde_json::to_value(ReclaimSettings::default()).unwrap();
        assert_eq!(v["abstain"], "strict");
        v.as_object_mut().unwrap().remove("abstain");
        let s: ReclaimSettings = serde_json::from_value(v).unwrap();
        assert_eq!(s.abstain, AbstainRule::Strict);
    }

    #[test]
    fn unpaired_when_keys_differ() {
        let rows = "{\"pid\":\"a\",\"seed\":0,\"policy\":\"x\",\"correct\":true}\n{\"pid\":\"b\",\"seed\":0,\"policy\":\"x\",\"correct\":true}\n{\"pid\":\"a\",\"seed\":1,\"policy\":\"y\",\"correct\":false}";
        let s = ReclaimSettings { contrasts: vec![("x".into(), "y".into())], ..Default::default() };
        let r = analyze(&trials(rows), &s);
        assert_eq!(r.contrasts[0].difference.pairing, "unpaired");
        assert_eq!(r.contrasts[0].difference.delta, Some(1.0));
    }

    #[test]
    fn paper_display() {
        assert_eq!(paper_bound(0.5208333333333334), ".52");
        assert_eq!(paper_bound(1.0), "1");
        assert_eq!(paper_bound(0.0), "0");
        assert_eq!(
            paper_cell(Some(0.6145833333333334), Some(0.5208333333333334), Some(0.7083333333333334)),
            "0.61 [.52,.71]"
        );
        assert_eq!(format!("{:.2}", 0.625), "0.62", "half-even on exact ties, as Python");
        assert_eq!(format!("{:.2}", 0.875), "0.88");
    }
}
