//! Rescoring answer rows under several profiles: per-row scores, per (arm, dataset, profile)
//! summaries, and the diff between two profiles (the rows whose verdict changes).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::profile::{AnswerInput, Profile, ProfileInfo, score};
use super::read::{AnswerRow, AnswerWarningKind, AnswerWarnings};
use super::score::{LocomoRule, MabRoute, Output, parse_output};
use crate::error::{Error, Result};

crate::fields! {
    /// Settings of a rescoring, recorded with the result.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub struct AnswerSettings {
        profiles: Vec<Profile> = Profile::ALL.to_vec(), label "scoring profiles",
            help "The profiles to score under, comma-separated (at least one; default: all).";
        f1_threshold: f64 = 0.5, label "F1 threshold",
            help "A continuous (F1) score counts as correct when ≥ this (binary profiles: score = 1).";
    }
}

impl AnswerSettings {
    pub fn validate(&self) -> Result<()> {
        if self.profiles.is_empty() {
            return Err(Error::setting("profiles", "name at least one profile"));
        }
        if !(0.0..=1.0).contains(&self.f1_threshold) {
            return Err(Error::setting("f1_threshold", "must be in [0, 1]"));
        }
        Ok(())
    }

    /// Whether `score` counts as correct under `profile`.
    pub fn correct(&self, profile: Profile, score: f64) -> bool {
        if profile.binary() { score >= 1.0 } else { score >= self.f1_threshold }
    }
}

/// One row's score under one profile.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProfileScore {
    pub profile: Profile,
    pub score: f64,
    pub correct: bool,
    /// `raw` or `parsed`: the output that gave the score.
    pub output: Output,
    pub gold_index: Option<usize>,
}

/// One answer with its scores.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScoredAnswer {
    pub query_id: String,
    pub arm: Option<String>,
    pub dataset: Option<String>,
    pub category: Option<i64>,
    pub file: String,
    pub line: usize,
    /// MemoryAgentBench's `parse_output` of the raw prediction.
    pub parsed: String,
    pub scores: Vec<ProfileScore>,
    /// The file's own scores of the row, as read (never rescored).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stated: Vec<super::read::StatedScore>,
}

impl ScoredAnswer {
    pub fn get(&self, p: Profile) -> Option<&ProfileScore> {
        self.scores.iter().find(|s| s.profile == p)
    }
}

/// Mean score of one (arm, dataset, profile).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProfileSummary {
    pub profile: Profile,
    pub arm: Option<String>,
    pub dataset: Option<String>,
    pub n: usize,
    pub mean: f64,
    pub correct: usize,
    pub correct_rate: f64,
}

/// How two profiles disagree over all rows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Disagreement {
    pub a: Profile,
    pub b: Profile,
    pub n: usize,
    /// Rows whose verdict (correct or not) differs.
    pub verdict_changes: usize,
    /// Correct under `a` only.
    pub a_only: usize,
    /// Correct under `b` only.
    pub b_only: usize,
    /// Rows whose score differs at all.
    pub score_changes: usize,
}

/// A row whose verdict changes between two profiles.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DiffRow {
    pub query_id: String,
    pub arm: Option<String>,
    pub dataset: Option<String>,
    pub file: String,
    pub line: usize,
    pub a: Profile,
    pub b: Profile,
    pub score_a: f64,
    pub score_b: f64,
    pub correct_a: bool,
    pub correct_b: bool,
    pub prediction: String,
    pub gold: Vec<String>,
}

/// Everything a rescoring produces.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AnswerReport {
    pub settings: AnswerSettings,
    pub profiles: Vec<ProfileInfo>,
    pub rows: Vec<ScoredAnswer>,
    pub summary: Vec<ProfileSummary>,
    /// Every pair of the chosen profiles.
    pub disagreements: Vec<Disagreement>,
    pub warnings: AnswerWarnings,
    /// The rows whose verdict changes between the two profiles of a diff (`None`: no diff asked).
    #[serde(default)]
    pub diff: Option<Vec<DiffRow>>,
    /// How the answers became cells: design columns split by or pooled, the queries each arm
    /// holds and arms on different queries, rows left out ([`crate::cells`]).
    #[serde(default)]
    pub populations: crate::cells::CellReport,
    /// The files' own scores (a judge's verdict, their own F1) against every profile, per arm
    /// ([`super::stated`]); empty when no file states any.
    #[serde(default)]
    pub stated: Vec<super::stated::StatedComparison>,
}

/// Scores every row under every profile of `settings`.
pub fn rescore_answers(
    rows: &[AnswerRow],
    settings: &AnswerSettings,
    mut warnings: AnswerWarnings,
) -> Result<AnswerReport> {
    settings.validate()?;
    let mut scored = Vec::with_capacity(rows.len());
    for r in rows {
        let input = AnswerInput {
            gold: &r.gold,
            prediction: &r.prediction,
            dataset: r.dataset.as_deref(),
            category: r.category,
        };
        let parsed = parse_output(&r.prediction);
        if let Some(p) = &r.parsed_prediction
            && p.trim() != parsed
        {
            warnings
                .add(AnswerWarningKind::ParsedDiffers, || format!("{}, line {}: `{p}` vs `{parsed}`", r.file, r.line));
        }
        let uses = |p: Profile| settings.profiles.contains(&p);
        if (uses(Profile::MabSem) || uses(Profile::MabF1))
            && MabRoute::of(r.dataset.as_deref()) == MabRoute::Unsupported
        {
            warnings.add(AnswerWarningKind::UnsupportedMabDataset, || format!("{}, line {}", r.file, r.line));
        }
        if uses(Profile::LocomoF1) && LocomoRule::of(r.category) == LocomoRule::Uncategorised {
            warnings.add(AnswerWarningKind::UncategorisedLocomo, || format!("{}, line {}", r.file, r.line));
        }
        let scores = settings
            .profiles
            .iter()
            .map(|&p| {
                let s = score(p, &input);
                ProfileScore {
                    profile: p,
                    score: s.score,
                    correct: settings.correct(p, s.score),
                    output: s.output,
                    gold_index: s.gold_index,
                }
            })
            .collect();
        scored.push(ScoredAnswer {
            query_id: r.query_id.clone(),
            arm: r.arm.clone(),
            dataset: r.dataset.clone(),
            category: r.category,
            file: r.file.clone(),
            line: r.line,
            parsed,
            scores,
            stated: r.stated.clone(),
        });
    }
    let summary = summarise(&scored, &settings.profiles);
    let mut disagreements = Vec::new();
    for (i, &a) in settings.profiles.iter().enumerate() {
        for &b in &settings.profiles[i + 1..] {
            disagreements.push(disagreement(&scored, a, b));
        }
    }
    Ok(AnswerReport {
        settings: settings.clone(),
        profiles: settings.profiles.iter().map(|p| p.info()).collect(),
        summary,
        disagreements,
        warnings,
        diff: None,
        populations: Default::default(),
        stated: super::stated::compare_stated(&scored, &settings.profiles),
        rows: scored,
    })
}

fn summarise(rows: &[ScoredAnswer], profiles: &[Profile]) -> Vec<ProfileSummary> {
    type Key = (Profile, Option<String>, Option<String>);
    // With several datasets, each arm also gets an all-datasets row (dataset `None`).
    let datasets = rows.iter().filter_map(|r| r.dataset.as_ref()).collect::<std::collections::BTreeSet<_>>().len();
    let mut acc: BTreeMap<Key, (usize, f64, usize)> = BTreeMap::new();
    for r in rows {
        for s in &r.scores {
            let mut keys = vec![(s.profile, r.arm.clone(), r.dataset.clone())];
            if r.dataset.is_some() && datasets > 1 {
                keys.push((s.profile, r.arm.clone(), None));
            }
            for key in keys {
                let e = acc.entry(key).or_default();
                e.0 += 1;
                e.1 += s.score;
                e.2 += s.correct as usize;
            }
        }
    }
    let mut out = Vec::new();
    for p in profiles {
        for ((profile, arm, dataset), (n, sum, correct)) in acc.iter().filter(|((q, _, _), _)| q == p) {
            out.push(ProfileSummary {
                profile: *profile,
                arm: arm.clone(),
                dataset: dataset.clone(),
                n: *n,
                mean: sum / *n as f64,
                correct: *correct,
                correct_rate: *correct as f64 / *n as f64,
            });
        }
    }
    out
}

fn disagreement(rows: &[ScoredAnswer], a: Profile, b: Profile) -> Disagreement {
    let mut d = Disagreement { a, b, n: 0, verdict_changes: 0, a_only: 0, b_only: 0, score_changes: 0 };
    for r in rows {
        if let (Some(x), Some(y)) = (r.get(a), r.get(b)) {
            d.n += 1;
            d.score_changes += (x.score != y.score) as usize;
            d.verdict_changes += (x.correct != y.correct) as usize;
            d.a_only += (x.correct && !y.correct) as usize;
            d.b_only += (!x.correct && y.correct) as usize;
        }
    }
    d
}

/// The rows whose verdict changes between profiles `a` and `b` (both must have been scored).
pub fn diff(report: &AnswerReport, rows: &[AnswerRow], a: Profile, b: Profile) -> Result<Vec<DiffRow>> {
    for p in [a, b] {
        if !report.settings.profiles.contains(&p) {
            return Err(Error::setting("diff", format!("profile `{}` was not scored", p.name())));
        }
    }
    let mut out = Vec::new();
    for (s, r) in report.rows.iter().zip(rows) {
        let (Some(x), Some(y)) = (s.get(a), s.get(b)) else { continue };
        if x.correct != y.correct {
            out.push(DiffRow {
                query_id: s.query_id.clone(),
                arm: s.arm.clone(),
                dataset: s.dataset.clone(),
                file: s.file.clone(),
                line: s.line,
                a,
                b,
                score_a: x.score,
                score_b: y.score,
                correct_a: x.correct,
                correct_b: y.correct,
                prediction: r.prediction.clone(),
                gold: r.gold.clone(),
            });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(q: &str, gold: &str, pred: &str) -> AnswerRow {
        AnswerRow {
            query_id: q.into(),
            arm: None,
            dataset: None,
            category: None,
            gold: vec![gold.into()],
            prediction: pred.into(),
            parsed_prediction: None,
            file: "f".into(),
            line: 1,
            ..AnswerRow::default()
        }
    }

    #[test]
    fn summary_and_diff() {
        let rows = vec![row("q1", "The Louvre", "louvre"), row("q2", "Paris", "Paris."), row("q3", "x", "y")];
        let s = AnswerSettings { profiles: vec![Profile::PaperSem, Profile::MabSem], f1_threshold: 0.5 };
        let rep = rescore_answers(&rows, &s, AnswerWarnings::default()).unwrap();
        let means: Vec<(Profile, f64)> = rep.summary.iter().map(|x| (x.profile, x.mean)).collect();
        assert_eq!(means, vec![(Profile::PaperSem, 1.0 / 3.0), (Profile::MabSem, 2.0 / 3.0)]);
        let d = &rep.disagreements[0];
        assert_eq!((d.n, d.verdict_changes, d.a_only, d.b_only), (3, 1, 0, 1));
        let rows_changed = diff(&rep, &rows, Profile::PaperSem, Profile::MabSem).unwrap();
        assert_eq!(rows_changed.len(), 1);
        assert_eq!(rows_changed[0].query_id, "q1");
        assert!(diff(&rep, &rows, Profile::PaperSem, Profile::LocomoF1).is_err());
        assert!(
            rescore_answers(&rows, &AnswerSettings { profiles: vec![], f1_threshold: 0.5 }, AnswerWarnings::default())
                .is_err()
        );
    }
}
