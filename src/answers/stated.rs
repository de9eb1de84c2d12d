//! The files' own scores beside the rescoring: a column in which a file states its own verdict
//! or score for each answer (mem0's `llm_score`, `f1_score` and `bleu_score`, Zep's `grade`) is
//! read as it is ([`super::read::StatedScore`]), never rescored, and compared with every
//! profile on the same rows, per arm.
//!
//! A column whose every value is 0 or 1 is a **verdict**: compared with each profile's verdict
//! (correct or not) — the rows on which they agree, those correct under one only, and Cohen's κ
//! (Cohen 1960, [`crate::stats::agreement::cohens_kappa`]). Any other column is a **score**:
//! compared with each profile's score — the rows on which they are equal (|Δ| ≤
//! [`STATED_TOLERANCE`]), the mean and largest |Δ|. A score column reproduced on every row by a
//! profile is that profile's number; one no profile reproduces was computed by another rule.

use serde::{Deserialize, Serialize};

use super::profile::Profile;
use super::rescore::ScoredAnswer;
use crate::distinct::first_seen;

/// Two scores are equal when they differ by at most this (files print full-precision floats;
/// a file that rounds its scores shows as differing by the rounding).
pub const STATED_TOLERANCE: f64 = 1e-6;

/// What a column of the files' own scores holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StatedKind {
    /// Every value 0 or 1 (or true/false): a verdict, compared with the profiles' verdicts.
    Verdict,
    /// Any other number: a score, compared with the profiles' scores.
    Score,
}

impl StatedKind {
    pub fn name(self) -> &'static str {
        match self {
            StatedKind::Verdict => "verdict",
            StatedKind::Score => "score",
        }
    }
}

/// One column of the files' own scores against one profile, over one arm's rows that state it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StatedComparison {
    pub column: String,
    pub arm: Option<String>,
    pub kind: StatedKind,
    pub profile: Profile,
    /// The arm's rows that state the column.
    pub n: usize,
    /// The mean of the stated values (a verdict's: the share the file counts correct).
    pub stated_mean: f64,
    /// The profile's mean score on the same rows.
    pub profile_mean: f64,
    /// The share of the same rows the profile counts correct.
    pub profile_correct_rate: f64,
    /// Rows on which they agree: the same verdict (verdicts), equal scores (scores).
    pub agree: usize,
    /// Verdicts: rows the file counts correct and the profile does not.
    pub stated_only: Option<usize>,
    /// Verdicts: rows the profile counts correct and the file does not.
    pub profile_only: Option<usize>,
    /// Verdicts: Cohen's κ between the file's verdicts and the profile's (`None`: undefined,
    /// both constant).
    pub kappa: Option<f64>,
    /// Scores: the mean |stated − profile score|.
    pub mean_abs_difference: Option<f64>,
    /// Scores: the largest |stated − profile score|.
    pub max_abs_difference: Option<f64>,
}

impl StatedComparison {
    /// The share of the rows on which the file and the profile agree.
    pub fn agreement(&self) -> f64 {
        self.agree as f64 / self.n.max(1) as f64
    }
}

/// Every (column, arm, profile) of the files' own scores in `rows`: columns in the order first
/// stated, arms in the order first read, profiles in the order scored.
pub fn compare_stated(rows: &[ScoredAnswer], profiles: &[Profile]) -> Vec<StatedComparison> {
    let columns = first_seen(rows.iter().flat_map(|r| r.stated.iter().map(|s| s.column.as_str())));
    let arms = first_seen(rows.iter().map(|r| r.arm.as_deref()));
    let mut out = Vec::new();
    for column in &columns {
        // A column is one kind across every arm (its values over all rows).
        let all = rows.iter().flat_map(|r| r.stated.iter().filter(|s| s.column == *column));
        let kind =
            if all.clone().all(|s| s.value == 0.0 || s.value == 1.0) { StatedKind::Verdict } else { StatedKind::Score };
        for arm in &arms {
            // (stated value, the row) of the arm's rows that state the column.
            let of: Vec<(f64, &ScoredAnswer)> = rows
                .iter()
                .filter(|r| r.arm.as_deref() == *arm)
                .filter_map(|r| Some((r.stated.iter().find(|s| s.column == *column)?.value, r)))
                .collect();
            if of.is_empty() {
                continue;
            }
            let n = of.len();
            let stated_mean = of.iter().map(|(v, _)| v).sum::<f64>() / n as f64;
            for &p in profiles {
                let pairs: Vec<(f64, f64, bool)> =
                    of.iter().filter_map(|(v, r)| r.get(p).map(|s| (*v, s.score, s.correct))).collect();
                if pairs.len() != n {
                    continue;
                }
                let profile_mean = pairs.iter().map(|x| x.1).sum::<f64>() / n as f64;
                let profile_correct_rate = pairs.iter().filter(|x| x.2).count() as f64 / n as f64;
                let mut c = StatedComparison {
                    column: column.to_string(),
                    arm: arm.map(str::to_string),
                    kind,
                    profile: p,
                    n,
                    stated_mean,
                    profile_mean,
                    profile_correct_rate,
                    agree: 0,
                    stated_only: None,
                    profile_only: None,
                    kappa: None,
                    mean_abs_difference: None,
                    max_abs_difference: None,
                };
                match kind {
                    StatedKind::Verdict => {
                        let file: Vec<bool> = pairs.iter().map(|x| x.0 == 1.0).collect();
                        let rule: Vec<bool> = pairs.iter().map(|x| x.2).collect();
                        c.agree = file.iter().zip(&rule).filter(|(a, b)| a == b).count();
                        c.stated_only = Some(file.iter().zip(&rule).filter(|(a, b)| **a && !**b).count());
                        c.profile_only = Some(file.iter().zip(&rule).filter(|(a, b)| !**a && **b).count());
                        c.kappa = crate::stats::agreement::cohens_kappa(&file, &rule).map(|k| k.kappa);
                    }
                    StatedKind::Score => {
                        let d: Vec<f64> = pairs.iter().map(|x| (x.0 - x.1).abs()).collect();
                        c.agree = d.iter().filter(|d| **d <= STATED_TOLERANCE).count();
                        c.mean_abs_difference = Some(d.iter().sum::<f64>() / n as f64);
                        c.max_abs_difference = d.iter().copied().reduce(f64::max);
                    }
                }
                out.push(c);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answers::read::StatedScore;
    use crate::answers::rescore::ProfileScore;
    use crate::answers::score::Output;

    fn row(arm: &str, stated: &[(&str, f64)], scores: &[(Profile, f64, bool)]) -> ScoredAnswer {
        ScoredAnswer {
            query_id: "q".into(),
            arm: Some(arm.into()),
            dataset: None,
            category: None,
            file: "f".into(),
            line: 1,
            parsed: String::new(),
            scores: scores
                .iter()
                .map(|&(profile, score, correct)| ProfileScore {
                    profile,
                    score,
                    correct,
                    output: Output::Raw,
                    gold_index: None,
                })
                .collect(),
            stated: stated.iter().map(|&(c, v)| StatedScore { column: c.into(), value: v }).collect(),
        }
    }

    /// A verdict column against a profile: the 2×2 counts and Cohen's κ. The κ of the ten
    /// pairs below is scikit-learn's `cohen_kappa_score(file, rule)` = 0.4 (file
    /// [1,1,1,1,1,1,0,0,0,0], rule [1,1,1,1,0,0,1,0,0,0]: p_o = 0.7, p_e = 0.5).
    #[test]
    fn verdicts_agree_and_kappa() {
        let file = [1, 1, 1, 1, 1, 1, 0, 0, 0, 0];
        let rule = [1, 1, 1, 1, 0, 0, 1, 0, 0, 0];
        let rows: Vec<ScoredAnswer> = file
            .iter()
            .zip(&rule)
            .map(|(&f, &r)| row("a", &[("llm_score", f as f64)], &[(Profile::SquadEm, r as f64, r == 1)]))
            .collect();
        let c = compare_stated(&rows, &[Profile::SquadEm]);
        assert_eq!(c.len(), 1);
        let c = &c[0];
        assert_eq!(
            (c.kind, c.n, c.agree, c.stated_only, c.profile_only),
            (StatedKind::Verdict, 10, 7, Some(2), Some(1))
        );
        assert!((c.stated_mean - 0.6).abs() < 1e-12 && (c.profile_correct_rate - 0.5).abs() < 1e-12);
        assert!((c.kappa.unwrap() - 0.4).abs() < 1e-12, "{:?}", c.kappa);
        assert_eq!(c.mean_abs_difference, None);
    }

    /// A score column against a profile: equal within the tolerance, mean and largest |Δ|; per
    /// arm; rows without the column left out of its n.
    #[test]
    fn scores_equal_within_tolerance_per_arm() {
        let rows = vec![
            row("a", &[("f1_score", 0.5)], &[(Profile::SquadF1, 0.5 + 1e-9, true)]),
            row("a", &[("f1_score", 0.25)], &[(Profile::SquadF1, 0.75, true)]),
            row("a", &[], &[(Profile::SquadF1, 1.0, true)]),
            row("b", &[("f1_score", 1.0)], &[(Profile::SquadF1, 1.0, true)]),
        ];
        let c = compare_stated(&rows, &[Profile::SquadF1]);
        assert_eq!(c.len(), 2);
        assert_eq!((c[0].arm.as_deref(), c[0].kind, c[0].n, c[0].agree), (Some("a"), StatedKind::Score, 2, 1));
        assert!((c[0].mean_abs_difference.unwrap() - 0.25).abs() < 1e-6);
        assert!((c[0].max_abs_difference.unwrap() - 0.5).abs() < 1e-12);
        assert!((c[0].stated_mean - 0.375).abs() < 1e-12 && (c[0].profile_mean - 0.625).abs() < 1e-6);
        // Arm b's only value is 1, but the column holds scores: a score in every arm.
        assert_eq!((c[1].arm.as_deref(), c[1].kind, c[1].agree, c[1].kappa), (Some("b"), StatedKind::Score, 1, None));
    }
}
