//! The comparison's settings, declared once: the spec's choices ([`SpecChoice`]), the
//! statistics' settings ([`CompareSettings`]) and the request's own ([`CompareRequest`]) as
//! [`Fields`], from which the CLI's arguments, the page's forms and the report's settings are
//! drawn. Written out rather than by [`crate::fields!`] because their members are not one field
//! each: `resample` and `by` make one [`Resampling`], `lower_is_better` is the opposite of
//! `higher_is_better`, and the filter is a map.
//!
//! **Invariant**: a comparison's setting is named, labelled and explained here only.

use std::collections::BTreeMap;

use super::engine::{CiMethod, CompareSettings, ResampleUnit, Resampling};
use super::unit::{CompareRequest, SpecChoice};
use crate::fields::{Codec, Field, FieldValue, Fields, Kind, Switch};
use crate::outcomes::{Duplicates, JudgmentChoice, OutcomeFormat};
use crate::stats::bca::Z0Rule;

impl FieldValue for Option<JudgmentChoice> {
    const KIND: Kind = Kind::Text;
    const OPTIONAL: bool = true;
    fn from_text(text: &str) -> Result<Self, String> {
        if text.trim().is_empty() { Ok(None) } else { text.parse().map(Some) }
    }
    fn to_text(&self) -> String {
        match self {
            None => String::new(),
            Some(JudgmentChoice::Majority) => "majority".into(),
            Some(JudgmentChoice::Each) => "each".into(),
            Some(JudgmentChoice::Judgment(k)) => k.to_string(),
        }
    }
}

use crate::fields::{filter_from_text, filter_to_text};

/// `OLD=NEW` entries (`;`- or line-separated): the arm OLD shown as NEW. An arm renamed twice,
/// an empty side, or two arms given one name are refused.
pub fn rename_from_text(text: &str) -> Result<BTreeMap<String, String>, String> {
    let mut out = BTreeMap::new();
    for entry in text.split([';', '\n']).map(str::trim).filter(|e| !e.is_empty()) {
        let (from, to) =
            entry.split_once('=').ok_or_else(|| format!("`{entry}`: expected OLD=NEW (an arm and its new name)"))?;
        let (from, to) = (from.trim(), to.trim());
        if from.is_empty() || to.is_empty() {
            return Err(format!("`{entry}`: both the arm and its new name are needed (OLD=NEW)"));
        }
        if out.insert(from.to_string(), to.to_string()).is_some() {
            return Err(format!("arm `{from}` is renamed twice"));
        }
    }
    let mut names: Vec<&String> = out.values().collect();
    names.sort();
    if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
        return Err(format!("two arms are renamed `{}`: give each its own name", w[0]));
    }
    Ok(out)
}

/// The text [`rename_from_text`] reads back.
pub fn rename_to_text(rename: &BTreeMap<String, String>) -> String {
    rename.iter().map(|(a, b)| format!("{a}={b}")).collect::<Vec<_>>().join("; ")
}

impl Fields for SpecChoice {
    const OWN: &'static [Field] = &[
        Field::new(
            "key",
            "key",
            "Pairing key: the column(s) identifying an item, comma-separated (inferred when not stated).",
            Kind::List,
        )
        .optional(),
        Field::new("arm", "arm", "Arm column(s), comma-separated (combined with `/`).", Kind::List).optional(),
        Field::new("value", "value", "Value column (0/1 or real).", Kind::Text).optional(),
        Field::new(
            "strata",
            "strata",
            "Strata columns carried with each item (for stratified or cluster resampling).",
            Kind::List,
        )
        .optional(),
        Field::new(
            "filter",
            "filter",
            "Keep only rows whose COLUMN is one of the values: COLUMN=v1,v2 (one entry per column).",
            Kind::Entries,
        )
        .optional(),
        Field::new(
            "rename",
            "rename arms",
            "Arms shown under another name in every table, plot and export: OLD=NEW (OLD the arm as read, e.g. `bm25/raw`; one entry per arm). The spec lists each renaming.",
            Kind::Entries,
        )
        .optional(),
        Field::new(
            "judgment",
            "judgment",
            "Judge files: `majority`, the k-th judgment (1-based), or `each` (every judgment a separate arm, `<arm>/judgment_k`).",
            Kind::Text,
        )
        .optional(),
    ];

    fn fields() -> Vec<&'static Field> {
        Self::OWN.iter().collect()
    }

    fn set_text(&mut self, name: &str, text: &str) -> Result<(), String> {
        match name {
            "key" => self.key = FieldValue::from_text(text)?,
            "arm" => self.arm = FieldValue::from_text(text)?,
            "value" => self.value = FieldValue::from_text(text)?,
            "strata" => self.strata = FieldValue::from_text(text)?,
            "filter" => self.filter = filter_from_text(text)?,
            "rename" => self.rename = rename_from_text(text)?,
            "judgment" => self.judgment = FieldValue::from_text(text)?,
            _ => return Err(format!("there is no setting `{name}`")),
        }
        Ok(())
    }

    fn text(&self, name: &str) -> Option<String> {
        Some(match name {
            "key" => self.key.to_text(),
            "arm" => self.arm.to_text(),
            "value" => self.value.to_text(),
            "strata" => self.strata.to_text(),
            "filter" => filter_to_text(&self.filter),
            "rename" => rename_to_text(&self.rename),
            "judgment" => self.judgment.to_text(),
            _ => return None,
        })
    }
}

impl Fields for CompareSettings {
    const OWN: &'static [Field] = &[
        Field::new("alpha", "alpha", "Two-sided level of every interval and test (intervals at 1 − alpha).", Kind::Number),
        Field::new("bootstrap", "resamples", "Bootstrap resamples of every interval.", Kind::Whole),
        Field::new("seed", "seed", "RNG seed of the bootstrap.", Kind::Whole),
        Field::new("ci", "interval", "Interval method: bca (bias-corrected and accelerated) or percentile.", <CiMethod as FieldValue>::KIND),
        Field::new(
            "z0",
            "z0 rule",
            "BCa bias-correction share: mid_rank (#{<} + ½#{=}, SciPy) or strict (#{<}, R boot).",
            <Z0Rule as FieldValue>::KIND,
        ),
        Field::new(
            "resample",
            "resampling",
            "Resampling unit: items (iid), items within strata (stratified), or whole clusters (cluster); strata and clusters need `by`.",
            <ResampleUnit as FieldValue>::KIND,
        ),
        Field::new("by", "by column", "The column defining strata or clusters (a key or strata column).", Kind::Text).optional(),
        Field::new(
            "per",
            "contrasts per",
            "Also compare within each value of this column (a key or strata column): contrasts per stratum, reported in `by_stratum`.",
            Kind::Text,
        )
        .optional(),
        Field::new("control", "control arm", "Control arm for Bonferroni–Dunn comparisons.", Kind::Text).optional(),
        Field::new(
            "reference",
            "reference arm",
            "Every contrast with this arm reads treatment − reference (tables and forest plot).",
            Kind::Text,
        )
        .optional(),
        Field::new(
            "baseline",
            "baseline arm",
            "The plain baseline every method should beat (default: the one arm named like bm25): a method that does worse is an alert.",
            Kind::Text,
        )
        .optional(),
        Field::new(
            "cost",
            "cost columns",
            "Cost columns (calls, tokens), comma-separated: each arm's mean cost on the compared items.",
            Kind::List,
        )
        .optional(),
        Field::new(
            "matched",
            "compute-matched controls",
            "CONTROL:ARM — CONTROL is the compute-matched control of ARM: their costs are compared (needs cost columns).",
            Kind::Entries,
        )
        .optional(),
        Field::new("lower_is_better", "lower is better", "Lower values are better (ranks and winners flip).", Kind::Flag),
    ];

    fn fields() -> Vec<&'static Field> {
        Self::OWN.iter().collect()
    }

    fn set_text(&mut self, name: &str, text: &str) -> Result<(), String> {
        match name {
            "alpha" => self.alpha = FieldValue::from_text(text)?,
            "bootstrap" => self.bootstrap = FieldValue::from_text(text)?,
            "seed" => self.seed = FieldValue::from_text(text)?,
            "ci" => self.ci = FieldValue::from_text(text)?,
            "z0" => self.z0 = FieldValue::from_text(text)?,
            // A stratified or cluster resampling keeps the column it has until `by` names one
            // (empty until then: refused by validate, naming `by`).
            "resample" => {
                let column = self.resampling.column().unwrap_or_default().to_string();
                self.resampling = match ResampleUnit::from_text(text)? {
                    ResampleUnit::Iid => Resampling::Iid,
                    ResampleUnit::Stratified => Resampling::Stratified(column),
                    ResampleUnit::Cluster => Resampling::Cluster(column),
                };
            }
            // Ignored for iid resampling, as before.
            "by" => {
                let column = Option::<String>::from_text(text)?.unwrap_or_default();
                match &mut self.resampling {
                    Resampling::Iid => {}
                    Resampling::Stratified(c) | Resampling::Cluster(c) => *c = column,
                }
            }
            "per" => self.per = FieldValue::from_text(text)?,
            "control" => self.control = FieldValue::from_text(text)?,
            "reference" => self.reference = FieldValue::from_text(text)?,
            "baseline" => self.baseline = FieldValue::from_text(text)?,
            "cost" => self.cost = FieldValue::from_text(text)?,
            // Each entry is checked to be CONTROL:ARM by validate.
            "matched" => {
                self.matched =
                    text.split([',', ';', '\n']).map(str::trim).filter(|m| !m.is_empty()).map(String::from).collect()
            }
            "lower_is_better" => self.higher_is_better = !bool::from_text(text)?,
            _ => return Err(format!("there is no setting `{name}`")),
        }
        Ok(())
    }

    fn text(&self, name: &str) -> Option<String> {
        Some(match name {
            "alpha" => self.alpha.to_text(),
            "bootstrap" => self.bootstrap.to_text(),
            "seed" => self.seed.to_text(),
            "ci" => self.ci.to_text(),
            "z0" => self.z0.to_text(),
            "resample" => self.resampling.unit().to_text(),
            "by" => self.resampling.column().unwrap_or_default().to_string(),
            "per" => self.per.to_text(),
            "control" => self.control.to_text(),
            "reference" => self.reference.to_text(),
            "baseline" => self.baseline.to_text(),
            "cost" => self.cost.to_text(),
            "matched" => self.matched.join(", "),
            "lower_is_better" => (!self.higher_is_better).to_text(),
            _ => return None,
        })
    }
}

impl Fields for CompareRequest {
    const OWN: &'static [Field] = &[
        Field::new(
            "input_format",
            "input format",
            "Read the files as this format instead of detecting it.",
            <Option<OutcomeFormat> as FieldValue>::KIND,
        )
        .optional(),
        Field::new(
            "aggregate",
            "repeated rows",
            "Repeated (item, arm) rows: refuse (the default) or average them (mean).",
            <Duplicates as FieldValue>::KIND,
        ),
        Field::new(
            "allow_incomplete",
            "compare on the common items",
            "Compare on the items present in every arm instead of refusing an incomplete pairing.",
            Kind::Flag,
        ),
        Field::new(
            "pair_by_position",
            "pair by position",
            "Rows without an item id: pair them by their order within each arm, after checking that these columns (comma-separated; when not listed, the text columns that are neither arm nor value) agree row by row across arms.",
            Kind::Switch,
        )
        .optional(),
        Field::new(
            "partial_credit",
            "partial credit",
            "Inspect logs: the credit of a `P` (partial) grade, in [0, 1] (when not stated: Inspect's 0.5).",
            Kind::Number,
        )
        .optional(),
    ];

    fn fields() -> Vec<&'static Field> {
        let mut all: Vec<&'static Field> = SpecChoice::fields();
        all.extend(Self::OWN.iter());
        all.extend(CompareSettings::fields());
        all
    }

    fn set_text(&mut self, name: &str, text: &str) -> Result<(), String> {
        match name {
            "input_format" => self.format = FieldValue::from_text(text)?,
            "aggregate" => self.options.duplicates = FieldValue::from_text(text)?,
            "allow_incomplete" => self.options.allow_incomplete = FieldValue::from_text(text)?,
            "pair_by_position" => self.pair_by_position = Switch::from_text(text)?,
            "partial_credit" => self.partial_credit = FieldValue::from_text(text)?,
            _ if SpecChoice::field(name).is_some() => self.spec.set_text(name, text)?,
            _ => self.settings.set_text(name, text)?,
        }
        Ok(())
    }

    fn text(&self, name: &str) -> Option<String> {
        match name {
            "input_format" => Some(self.format.to_text()),
            "aggregate" => Some(self.options.duplicates.to_text()),
            "allow_incomplete" => Some(self.options.allow_incomplete.to_text()),
            "pair_by_position" => Some(Switch::to_text(&self.pair_by_position)),
            "partial_credit" => Some(self.partial_credit.to_text()),
            _ => self.spec.text(name).or_else(|| self.settings.text(name)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_reads_back_what_it_writes() {
        let mut r = CompareRequest::default();
        for (name, text) in [
            ("key", "task,seed"),
            ("arm", "model"),
            ("value", "correct"),
            ("filter", "target=raw,source; split=test"),
            ("judgment", "2"),
            ("input_format", "wide_csv"),
            ("aggregate", "mean"),
            ("allow_incomplete", "true"),
            ("pair_by_position", "question"),
            ("partial_credit", "0.25"),
            ("resample", "cluster"),
            ("by", "task"),
            ("ci", "percentile"),
            ("z0", "strict"),
            ("matched", "retry:gated, a:b"),
            ("lower_is_better", "true"),
        ] {
            r.set_text(name, text).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        assert_eq!(r.spec.key, Some(vec!["task".to_string(), "seed".to_string()]));
        assert_eq!(r.spec.filter.get("target"), Some(&vec!["raw".to_string(), "source".to_string()]));
        assert_eq!(r.spec.judgment, Some(JudgmentChoice::Judgment(2)));
        assert_eq!(r.format, OutcomeFormat::parse("wide_csv"));
        assert_eq!(r.settings.resampling, Resampling::Cluster("task".into()));
        assert_eq!(r.settings.matched, ["retry:gated", "a:b"]);
        assert!(!r.settings.higher_is_better && r.options.allow_incomplete);
        assert_eq!(r.pair_by_position, Some(vec!["question".to_string()]));
        for f in CompareRequest::fields() {
            let text = r.text(f.name).unwrap();
            let mut back = r.clone();
            back.set_text(f.name, &text).unwrap();
            assert_eq!(back, r, "{}: `{text}`", f.name);
        }
        r.set_text("pair_by_position", crate::fields::SWITCH_ON).unwrap();
        assert_eq!(r.pair_by_position, Some(Vec::new()));
        r.set_text("pair_by_position", "").unwrap();
        assert_eq!(r.pair_by_position, None);
    }

    #[test]
    fn a_resampling_without_its_column_is_refused_naming_by() {
        let mut r = CompareRequest::default();
        r.set_text("resample", "stratified").unwrap();
        let e = crate::capability::Validate::validate(&r).unwrap_err();
        assert!(matches!(&e, crate::error::Error::Setting { setting, .. } if setting == "by"), "{e}");
        // `by` alone keeps iid resampling (as it always did).
        let mut r = CompareRequest::default();
        r.set_text("by", "task").unwrap();
        assert_eq!(r.settings.resampling, Resampling::Iid);
    }

    #[test]
    fn names_are_unique_across_the_groups() {
        let names: Vec<&str> = CompareRequest::fields().iter().map(|f| f.name).collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len(), "{names:?}");
    }
}
