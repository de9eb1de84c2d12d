//! Scoring profiles: named, documented ways to turn (gold variants, raw prediction) into a
//! score, recorded with every result.

use serde::{Deserialize, Serialize};

use crate::choice::Choice;

use super::score::{LocomoRule, MabRoute, Output, Prediction, best_over_gold, parse_output};

crate::choice! {
    /// A scoring profile.
    pub enum Profile {
        /// Substring exact match as seed-000 states it: lower-case and white space folded, gold
        /// inside the prediction, best over gold variants, raw output only.
        PaperSem,
        /// MemoryAgentBench harness SEM: SQuAD normalisation, gold inside the prediction, best over
        /// gold variants and over the raw output and its `parse_output` (parse only for `icl*`).
        MabSem,
        /// MemoryAgentBench harness F1: SQuAD F1 with the yes/no/noanswer rule, same maxima.
        MabF1,
        /// SQuAD v1.1 exact match (normalised strings equal), best over gold variants.
        SquadEm,
        /// SQuAD v1.1 token F1, best over gold variants.
        SquadF1,
        /// LoCoMo official F1 (`task_eval/evaluation.py`): commas and "and" removed, Porter stems,
        /// multi-hop partial credit, category rules; best over gold variants.
        LocomoF1,
        /// A-Mem's token-set F1 (`utils.calculate_metrics`), the `f1_score` of mem0's `evals.py`
        /// and of the LoCoMo tables that follow it: lower-case, `.,!?` to spaces, sets of
        /// tokens; best over gold variants.
        AmemF1,
    }
}

/// A profile's name, kind and rules, shown next to its numbers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProfileInfo {
    pub profile: Profile,
    /// 0/1 scores (`true`) or a score in [0, 1] (`false`).
    pub binary: bool,
    /// The rules in one line.
    pub rules: String,
    /// Where the rules come from.
    pub source: String,
}

impl Profile {
    /// Parses a name as written by [`Choice::name`] (`-` may replace `_`).
    pub fn parse(s: &str) -> Option<Profile> {
        <Profile as Choice>::parse(&s.trim().to_ascii_lowercase().replace('-', "_"))
    }

    /// 0/1 scores.
    pub fn binary(self) -> bool {
        matches!(self, Profile::PaperSem | Profile::MabSem | Profile::SquadEm)
    }

    pub fn info(self) -> ProfileInfo {
        let (rules, source) = match self {
            Profile::PaperSem => (
                "' '.join(s.lower().split()) on both sides; 1 if normalised gold is a substring of the normalised \
                 raw prediction for some gold variant",
                "seed-000 §3.2 (\"after lowercasing and whitespace normalization\"); direction gold ⊂ prediction from \
                 the MemoryAgentBench harness",
            ),
            Profile::MabSem => (
                "SQuAD normalize_answer (lower, ASCII punctuation removed, a/an/the removed, white space folded); 1 if \
                 normalised gold ⊂ normalised prediction; max over gold variants (nested lists flattened) and over \
                 {raw, parse_output(raw)}; parse only for icl*/eventqa*; choice_eng: gold[1].lower() in raw.lower()",
                "MemoryAgentBench utils/eval_other_utils.py: substring_exact_match_score, \
                 drqa_metric_max_over_ground_truths, parse_output, default_post_process, post_process",
            ),
            Profile::MabF1 => (
                "SQuAD token F1 on normalize_answer tokens, 0 when either side normalises to yes/no/noanswer and they \
                 differ; max over gold variants and over {raw, parse_output(raw)} (parse only for icl*/eventqa*)",
                "MemoryAgentBench utils/eval_other_utils.py: f1_score, default_post_process",
            ),
            Profile::SquadEm => (
                "1 if normalize_answer(prediction) == normalize_answer(gold) for some gold variant",
                "SQuAD v1.1 evaluate-v1.1.py: exact_match_score, metric_max_over_ground_truths",
            ),
            Profile::SquadF1 => (
                "token F1 (Counter overlap; P = common/|pred|, R = common/|gold|, 2PR/(P+R), 0 without overlap) on \
                 normalize_answer(·).split(); max over gold variants",
                "SQuAD v1.1 evaluate-v1.1.py: f1_score, metric_max_over_ground_truths",
            ),
            Profile::LocomoF1 => (
                "commas deleted, lower, ASCII punctuation removed, a/an/the/and removed, white space folded; NLTK Porter \
                 stem per token; token F1. Category 1: gold and prediction split on ',', mean over gold parts of the best \
                 part F1; category 3: gold cut at the first ';'; category 5: 1 if the prediction contains 'no \
                 information available' or 'not mentioned'; no category: plain F1; max over gold variants",
                "LoCoMo task_eval/evaluation.py (snap-research/locomo): normalize_answer, f1_score, f1, \
                 eval_question_answering; NLTK 3.9 PorterStemmer",
            ),
            Profile::AmemF1 => (
                "lower, '.,!?' to spaces, split; F1 of the token sets; max over gold variants",
                "A-Mem utils.py calculate_metrics (mem0 evals.py f1_score)",
            ),
        };
        ProfileInfo { profile: self, binary: self.binary(), rules: rules.to_string(), source: source.to_string() }
    }
}

/// One answer to score.
#[derive(Debug, Clone, Copy)]
pub struct AnswerInput<'a> {
    /// Gold variants (any of them counts).
    pub gold: &'a [String],
    /// The raw model output.
    pub prediction: &'a str,
    /// Dataset name (MemoryAgentBench routing).
    pub dataset: Option<&'a str>,
    /// LoCoMo category (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial).
    pub category: Option<i64>,
}

/// A score under one profile, with what produced it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Scored {
    pub score: f64,
    /// The output that gave the score (raw or parsed).
    pub output: Output,
    /// Index of the gold variant that gave the score (`None`: no gold, or a rule that uses none).
    pub gold_index: Option<usize>,
}

/// The best of the raw and parsed scores (raw wins ties, like `max(original, parsed)`).
fn raw_or_parsed(raw: (f64, Option<usize>), parsed: (f64, Option<usize>)) -> Scored {
    if parsed.0 > raw.0 {
        Scored { score: parsed.0, output: Output::Parsed, gold_index: parsed.1 }
    } else {
        Scored { score: raw.0, output: Output::Raw, gold_index: raw.1 }
    }
}

fn raw(s: (f64, Option<usize>)) -> Scored {
    Scored { score: s.0, output: Output::Raw, gold_index: s.1 }
}

/// Scores one answer under `profile`.
pub fn score(profile: Profile, a: &AnswerInput) -> Scored {
    let pred = a.prediction;
    // Each normal form of the prediction is computed once, whatever the number of gold variants.
    let p = Prediction::new(pred);
    match profile {
        Profile::PaperSem => raw(p.literal_sem_over(a.gold)),
        Profile::SquadEm => raw(best_over_gold(a.gold, |g| p.squad_em(g))),
        Profile::SquadF1 => raw(best_over_gold(a.gold, |g| p.squad_f1(g))),
        Profile::AmemF1 => raw(best_over_gold(a.gold, |g| super::score::amem_f1(pred, g))),
        Profile::LocomoF1 => {
            let rule = LocomoRule::of(a.category);
            if rule == LocomoRule::Adversarial {
                return Scored { score: rule.score(pred, ""), output: Output::Raw, gold_index: None };
            }
            raw(best_over_gold(a.gold, |g| p.locomo(rule, g)))
        }
        Profile::MabSem | Profile::MabF1 => {
            let parsed = parse_output(pred);
            let q = Prediction::new(&parsed);
            let over = |x: &Prediction<'_>| {
                if profile == Profile::MabSem {
                    x.mab_sem_over(a.gold)
                } else {
                    best_over_gold(a.gold, |g| x.mab_f1(g))
                }
            };
            let route = MabRoute::of(a.dataset);
            match route {
                MabRoute::ParsedOnly => {
                    let s = over(&q);
                    Scored { score: s.0, output: Output::Parsed, gold_index: s.1 }
                }
                MabRoute::ChoiceEng if profile == Profile::MabSem && a.gold.len() >= 2 => {
                    let hit = pred.to_lowercase().contains(&a.gold[1].to_lowercase());
                    Scored { score: if hit { 1.0 } else { 0.0 }, output: Output::Raw, gold_index: Some(1) }
                }
                _ => raw_or_parsed(over(&p), over(&q)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_prediction_against_many_golds_scores_as_each_alone() {
        use super::super::score::{literal_sem, locomo_f1_score, locomo_multi_f1, mab_f1, mab_sem, squad_em, squad_f1};
        let gold: Vec<String> =
            ["Paris", "the city of Paris", "yes", "Paris, France", "cats and dogs", "running dogs; cats", "7 May 2023"]
                .iter()
                .map(|g| g.to_string())
                .collect();
        let preds =
            ["I think it is Paris, France.", "yes", "Dogs were running, cats too", "Answer: 7 May 2023\nmore", ""];
        type Pair = (Profile, fn(&str, &str) -> f64);
        let alone: [Pair; 5] = [
            (Profile::PaperSem, literal_sem),
            (Profile::SquadEm, squad_em),
            (Profile::SquadF1, squad_f1),
            (Profile::MabSem, mab_sem),
            (Profile::MabF1, mab_f1),
        ];
        for pred in preds {
            let a = AnswerInput { gold: &gold, prediction: pred, dataset: Some("icl_x"), category: None };
            for (profile, f) in alone {
                // icl routes MAB to the parsed output only.
                let text = if matches!(profile, Profile::MabSem | Profile::MabF1) {
                    parse_output(pred)
                } else {
                    pred.to_string()
                };
                assert_eq!(score(profile, &a).score, best_over_gold(&gold, |g| f(&text, g)).0, "{profile:?} {pred}");
            }
            for (category, f) in [(Some(2), locomo_f1_score as fn(&str, &str) -> f64), (Some(1), locomo_multi_f1)] {
                let a = AnswerInput { category, ..a };
                assert_eq!(
                    score(Profile::LocomoF1, &a).score,
                    best_over_gold(&gold, |g| f(pred, g)).0,
                    "{category:?} {pred}"
                );
            }
        }
    }

    #[test]
    fn names_round_trip() {
        for &p in Profile::ALL {
            assert_eq!(Profile::parse(p.name()), Some(p));
            assert!(!p.info().rules.is_empty());
        }
        assert_eq!(Profile::parse("mab-sem"), Some(Profile::MabSem));
        assert_eq!(Profile::parse("nope"), None);
    }

    #[test]
    fn profiles_differ_where_they_should() {
        let gold = vec!["The Eiffel Tower".to_string()];
        let a = AnswerInput {
            gold: &gold,
            prediction: "I think: eiffel tower!\nAnswer: Eiffel Tower",
            dataset: None,
            category: None,
        };
        assert_eq!(score(Profile::PaperSem, &a).score, 0.0, "'the eiffel tower' is not in the lower-cased output");
        assert_eq!(score(Profile::MabSem, &a), Scored { score: 1.0, output: Output::Raw, gold_index: Some(0) });
        assert_eq!(score(Profile::SquadEm, &a).score, 0.0);
        let parsed = score(Profile::MabF1, &a);
        assert_eq!((parsed.score, parsed.output), (1.0, Output::Parsed));
        let icl = AnswerInput { dataset: Some("icl_banking77"), ..a };
        assert_eq!(score(Profile::MabSem, &icl).output, Output::Parsed);
        let adv = AnswerInput { gold: &[], prediction: "Not mentioned.", dataset: None, category: Some(5) };
        assert_eq!(score(Profile::LocomoF1, &adv).score, 1.0);
    }
}
