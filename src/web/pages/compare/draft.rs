//! The comparison page's settings as edited: the spec (pairing key, arm, value, strata,
//! filters), the pairing tolerances and the statistics' settings, parsed into the core's
//! [`crate::compare::CompareRequest`] on run; and the forest plot's row order.

use std::collections::BTreeMap;

use crate::compare::fields::{rename_from_text, rename_to_text};
use crate::compare::{CompareSettings, SpecChoice, TableInfo};
use crate::outcomes::{Duplicates, JudgmentChoice, OutcomeFormat, PairingOptions, Spec};
use crate::web::components::fields::FieldDraft;

/// How the forest plot orders its rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ForestOrder {
    /// As the contrasts table.
    #[default]
    Table,
    /// Largest difference first.
    Difference,
    /// Grouped under arm a.
    GroupedByA,
    /// The contrasts within each stratum of the `per` column, grouped by stratum.
    ByStratum,
}

impl ForestOrder {
    pub const ALL: [(ForestOrder, &'static str, &'static str); 4] = [
        (ForestOrder::Table, "table", "as the contrasts table"),
        (ForestOrder::Difference, "difference", "sorted by difference"),
        (ForestOrder::GroupedByA, "grouped", "grouped by arm a"),
        (ForestOrder::ByStratum, "stratum", "per stratum (contrasts per column)"),
    ];
}

/// The spec, pairing options and settings as edited (text fields parsed on run).
#[derive(Debug, Clone, PartialEq)]
pub struct Draft {
    pub key: Vec<String>,
    pub arm: Vec<String>,
    pub value: String,
    pub judgment: Option<JudgmentChoice>,
    pub strata: Vec<String>,
    pub filter: BTreeMap<String, Vec<String>>,
    /// Arms renamed, as typed (`OLD=NEW; …`, read by the core's `rename` field).
    pub rename: String,
    pub duplicates: Duplicates,
    pub allow_incomplete: bool,
    /// Pair rows by their order within each arm (rows without an item id).
    pub by_position: bool,
    /// Inspect logs: the credit of a `P` grade (empty: Inspect's 0.5).
    pub partial_credit: String,
    /// The statistics' settings as edited, field by field ([`CompareSettings`]'s declaration).
    pub settings: FieldDraft<CompareSettings>,
    /// The layout the files are read as (`None`: detected from their content).
    pub format: Option<OutcomeFormat>,
    /// The spec is inferred from the table (new files); else it is the spec as edited.
    pub infer: bool,
}

impl Default for Draft {
    fn default() -> Self {
        Draft {
            key: Vec::new(),
            arm: Vec::new(),
            value: String::new(),
            judgment: None,
            strata: Vec::new(),
            filter: BTreeMap::new(),
            rename: String::new(),
            duplicates: Duplicates::Refuse,
            allow_incomplete: false,
            by_position: false,
            partial_credit: String::new(),
            settings: FieldDraft::default(),
            format: None,
            infer: true,
        }
    }
}

impl Draft {
    /// Takes the spec's choices (key, arm, value, strata, judgment, filter).
    pub fn set_spec(&mut self, spec: &Spec) {
        self.key = spec.key.clone();
        self.arm = spec.arm.clone();
        self.value = spec.value.clone();
        self.judgment = spec.judgment;
        self.strata = spec.strata.clone();
        self.filter = spec.filter.clone();
        self.rename = rename_to_text(&spec.rename);
    }

    /// The renamed arms as typed, or what is wrong with them (the core's message).
    pub fn renamed(&self) -> Result<BTreeMap<String, String>, String> {
        rename_from_text(&self.rename)
    }

    /// The spec as the request's choice (every field chosen).
    pub fn spec_choice(&self) -> SpecChoice {
        SpecChoice::exactly(&self.spec(None))
    }

    /// The spec; `reasons` are kept when the choice is the inferred one.
    pub fn spec(&self, inferred: Option<&Spec>) -> Spec {
        let mut spec = Spec {
            key: self.key.clone(),
            arm: self.arm.clone(),
            value: self.value.clone(),
            strata: self.strata.clone(),
            judgment: self.judgment,
            filter: self.filter.clone(),
            reasons: Vec::new(),
            rename: self.renamed().unwrap_or_default(),
        };
        if let Some(i) = inferred {
            let mut bare = i.clone();
            bare.reasons.clear();
            if bare == spec {
                spec.reasons = i.reasons.clone();
            }
        }
        spec
    }

    pub fn options(&self) -> PairingOptions {
        PairingOptions { duplicates: self.duplicates, allow_incomplete: self.allow_incomplete }
    }

    /// The settings, or what cannot be read (naming the field by its label; ranges are checked
    /// by the core's validate when the comparison runs).
    pub fn settings(&self) -> Result<CompareSettings, String> {
        self.settings.parse(CompareSettings::default())
    }

    /// Takes the settings of a result.
    pub fn set_settings(&mut self, s: &CompareSettings) {
        self.settings = FieldDraft::of(s);
    }
}

/// Judge-file judgment columns by prefix: `llm_judgments` → 3 (for `llm_judgments.judgment_1..3`).
pub fn judgment_prefixes(table: &TableInfo) -> Vec<(String, usize)> {
    let mut out: Vec<(String, usize)> = Vec::new();
    for c in &table.columns {
        if let Some((prefix, last)) = c.info.name.rsplit_once('.')
            && last.starts_with("judgment")
        {
            match out.iter_mut().find(|(p, _)| p == prefix) {
                Some((_, n)) => *n += 1,
                None => out.push((prefix.to_string(), 1)),
            }
        }
    }
    out
}

/// The value select's option key for a choice.
pub fn value_key(value: &str, judgment: Option<JudgmentChoice>) -> String {
    match judgment {
        None => format!("col:{value}"),
        Some(JudgmentChoice::Majority) => format!("maj:{value}"),
        Some(JudgmentChoice::Judgment(k)) => format!("j:{k}:{value}"),
        Some(JudgmentChoice::Each) => format!("each:{value}"),
    }
}

pub fn parse_value_key(key: &str) -> Option<(String, Option<JudgmentChoice>)> {
    if let Some(c) = key.strip_prefix("col:") {
        return Some((c.to_string(), None));
    }
    if let Some(p) = key.strip_prefix("maj:") {
        return Some((p.to_string(), Some(JudgmentChoice::Majority)));
    }
    if let Some(p) = key.strip_prefix("each:") {
        return Some((p.to_string(), Some(JudgmentChoice::Each)));
    }
    let rest = key.strip_prefix("j:")?;
    let (k, p) = rest.split_once(':')?;
    Some((p.to_string(), Some(JudgmentChoice::Judgment(k.parse().ok()?))))
}

pub fn toggle(list: &mut Vec<String>, name: &str, on: bool) {
    list.retain(|x| x != name);
    if on {
        list.push(name.to_string());
    }
}
