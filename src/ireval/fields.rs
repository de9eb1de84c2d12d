//! The settings of an IR evaluation, declared once ([`TrecEvalRequest`] as [`Fields`]): the
//! page's form, its parsing and restoring, and the names the core's messages mention come from
//! here. The command line keeps trec_eval's own option letters (`-q`, `-c`, `-l 2`, `-m map`),
//! which trec_eval users type; each field's help names its letter.
//!
//! **Invariant**: an IR evaluation's setting is named, labelled and explained here only.

use super::measure::TrecEvalVersion;
use super::unit::TrecEvalRequest;
use crate::compare::CompareSettings;
use crate::fields::{Field, FieldValue, Fields, Kind};

/// The comparison's settings an IR evaluation uses (the rest keep their defaults).
const COMPARISON: [&str; 5] = ["alpha", "bootstrap", "seed", "ci", "reference"];

impl Fields for TrecEvalRequest {
    const OWN: &'static [Field] = &[
        Field::new(
            "measure",
            "measures",
            "trec_eval's -m: measures separated by spaces (map P.5,10 ndcg_cut.10), nicknames (official, all_trec, set) or ir-measures names (nDCG@10 P@5 AP RR); when not stated, official.",
            Kind::Text,
        )
        .optional(),
        Field::new(
            "relevance_level",
            "relevance level",
            "trec_eval's -l: the smallest judgment that counts as relevant.",
            Kind::Whole,
        ),
        Field::new(
            "max_per_topic",
            "depth",
            "trec_eval's -M: evaluate only the first N documents of each ranking (when not stated, all).",
            Kind::Whole,
        )
        .optional(),
        Field::new(
            "num_docs_in_coll",
            "documents in the collection",
            "trec_eval's -N: documents in the collection (utility's fourth coefficient).",
            Kind::Whole,
        ),
        Field::new(
            "complete",
            "score unanswered queries 0",
            "trec_eval's -c: average over every qrels query; a query the run does not answer scores 0.",
            Kind::Flag,
        ),
        Field::new(
            "judged_only",
            "judged documents only",
            "trec_eval's -J: evaluate only judged documents (unjudged ones are removed first).",
            Kind::Flag,
        ),
        Field::new(
            "per_query",
            "per-query lines in the trec_eval output",
            "trec_eval's -q: also print every query's values (before the summary).",
            Kind::Flag,
        ),
        Field::new(
            "summary",
            "summary over all queries",
            "trec_eval prints the summary over all queries unless -n.",
            Kind::Flag,
        ),
        Field::new(
            "version",
            "trec_eval version",
            "The trec_eval release reproduced: 10 (current) or 9 (9.0.8, inside pytrec_eval and ir_measures: 32-bit scores, ⌊x·R+0.9⌋ recall cutoffs, no unj/rbp).",
            <TrecEvalVersion as FieldValue>::KIND,
        ),
        Field::new(
            "compare_measure",
            "compare runs on",
            "With two or more runs: the value compared across runs (map, ndcg_cut_10; when not stated, map).",
            Kind::Text,
        )
        .optional(),
    ];

    fn fields() -> Vec<&'static Field> {
        let mut all: Vec<&'static Field> = Self::OWN.iter().collect();
        all.extend(CompareSettings::fields().into_iter().filter(|f| COMPARISON.contains(&f.name)));
        all
    }

    fn set_text(&mut self, name: &str, text: &str) -> Result<(), String> {
        let o = &mut self.options;
        match name {
            "measure" => self.measures = text.split_whitespace().map(str::to_string).collect(),
            "relevance_level" => o.relevance_level = FieldValue::from_text(text)?,
            "max_per_topic" => o.max_per_topic = FieldValue::from_text(text)?,
            "num_docs_in_coll" => o.num_docs_in_coll = FieldValue::from_text(text)?,
            "complete" => o.complete = FieldValue::from_text(text)?,
            "judged_only" => o.judged_only = FieldValue::from_text(text)?,
            "per_query" => self.per_query = FieldValue::from_text(text)?,
            "summary" => self.summary = FieldValue::from_text(text)?,
            "version" => o.version = FieldValue::from_text(text)?,
            "compare_measure" => self.compare_measure = FieldValue::from_text(text)?,
            n if COMPARISON.contains(&n) => self.compare.set_text(n, text)?,
            _ => return Err(format!("there is no setting `{name}`")),
        }
        Ok(())
    }

    fn text(&self, name: &str) -> Option<String> {
        let o = &self.options;
        Some(match name {
            "measure" => self.measures.join(" "),
            "relevance_level" => o.relevance_level.to_text(),
            "max_per_topic" => o.max_per_topic.to_text(),
            "num_docs_in_coll" => o.num_docs_in_coll.to_text(),
            "complete" => o.complete.to_text(),
            "judged_only" => o.judged_only.to_text(),
            "per_query" => self.per_query.to_text(),
            "summary" => self.summary.to_text(),
            "version" => o.version.to_text(),
            "compare_measure" => self.compare_measure.to_text(),
            n if COMPARISON.contains(&n) => return self.compare.text(n),
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_reads_back_what_it_writes() {
        let mut r = TrecEvalRequest::default();
        for (name, text) in [
            ("measure", "official  nDCG@10 P.3,7"),
            ("relevance_level", "2"),
            ("max_per_topic", "50"),
            ("num_docs_in_coll", "1000"),
            ("complete", "true"),
            ("judged_only", "true"),
            ("per_query", "true"),
            ("summary", "false"),
            ("version", "9"),
            ("compare_measure", "ndcg_cut_10"),
            ("bootstrap", "2000"),
            ("reference", "runA"),
        ] {
            r.set_text(name, text).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        assert_eq!(r.measures, ["official", "nDCG@10", "P.3,7"]);
        assert_eq!((r.options.relevance_level, r.options.max_per_topic), (2, Some(50)));
        assert_eq!(r.options.version, TrecEvalVersion::V9);
        assert_eq!((r.compare.bootstrap, r.compare.reference.as_deref()), (2000, Some("runA")));
        assert!(!r.summary && r.per_query && r.options.complete && r.options.judged_only);
        // The request rebuilt from every field's text is the request.
        let mut back = TrecEvalRequest::default();
        for f in TrecEvalRequest::fields() {
            back.set_text(f.name, &r.text(f.name).unwrap()).unwrap();
        }
        assert_eq!(back, r);
        assert!(r.set_text("lower_is_better", "true").is_err(), "not a setting of an IR evaluation");
        assert_eq!(TrecEvalRequest::fields().len(), 15);
    }
}
