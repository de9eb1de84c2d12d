//! Scoring conventions: every choice that changes a number, selectable and printed with
//! every result (the reason users cannot tell why nDCG differs between tools is almost always
//! one of these; see `docs/conventions.md`).

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::fields::{Field, FieldValue, Fields, Kind};

crate::choice! {
    /// What one unit of credit is.
    #[derive(Default)]
    pub enum CreditUnit {
        #[default]
        /// One relevance group per evidence anchor, counted once at its best rank (TIAP's tables;
        /// reproduces Table 11 of Panthi & Abdelfattah exactly).
        Group,
        /// Every eligible memory id is its own relevant item (the MTEL-Mem package's `ndcg_at_k`).
        Id,
    }
}

crate::choice! {
    /// Rank discount in DCG.
    #[derive(Default)]
    pub enum Discount {
        #[default]
        /// trec_eval 9.x: gain / log2(rank + 1).
        Log2,
        /// LongMemEval `eval_utils.dcg` (old trec_eval 8 form): rank 1 undiscounted, then
        /// gain / log2(rank), so ranks 1 and 2 both count fully.
        Lme,
    }
}

impl Discount {
    /// The multiplier applied to the gain at 1-based `rank`.
    pub fn at(self, rank: usize) -> f64 {
        match self {
            // libm, not std: the same bits natively and in wasm (std uses the platform's libm)
            Discount::Log2 => 1.0 / libm::log2((rank + 1) as f64),
            Discount::Lme => {
                if rank <= 1 {
                    1.0
                } else {
                    1.0 / libm::log2(rank as f64)
                }
            }
        }
    }
}

crate::choice! {
    /// How a graded relevance level becomes a gain (identical for binary evidence).
    #[derive(Default)]
    pub enum Gain {
        #[default]
        /// gain = rel (trec_eval, pytrec_eval, ranx `ndcg`).
        Linear,
        /// gain = 2^rel − 1 (Burges et al. 2005; gdeval, ranx `ndcg_burges`).
        Exponential,
    }
}

impl Gain {
    pub fn of(self, grade: f64) -> f64 {
        match self {
            Gain::Linear => grade,
            Gain::Exponential => libm::exp2(grade) - 1.0,
        }
    }
}

crate::choice! {
    /// In which order the items of a saved list are read.
    #[derive(Default)]
    pub enum RankOrder {
        #[default]
        /// The saved order, never re-sorted (TIAP: "the ranked traces remain fixed").
        Saved,
        /// trec_eval: descending score, ties broken by memory id descending (`strcmp(p2, p1)`);
        /// the saved order is ignored.
        TrecEval,
    }
}

crate::choice! {
    /// What to do with a (system, query) pair that has no ranked list.
    #[derive(Default)]
    pub enum MissingRun {
        #[default]
        /// Leave the query out of that system's populations (TIAP, MTEL-Mem).
        Skip,
        /// Score the query 0 on every metric (trec_eval `-c`, ir-measures).
        Zero,
    }
}

/// All settings of a rescoring, shown next to every result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// Cutoff: only the first k items of each list count.
    pub k: usize,
    pub unit: CreditUnit,
    pub discount: Discount,
    pub gain: Gain,
    pub order: RankOrder,
    pub missing: MissingRun,
    /// Paired bootstrap resamples for every interval.
    pub bootstrap: usize,
    /// RNG seed; every interval draws from a fresh ChaCha8 stream seeded with it.
    pub seed: u64,
    /// Two-sided confidence level of the intervals.
    pub confidence: f64,
    /// More cutoffs for the Recall@k / nDCG@k curve (`--k 1,5,10,60`: every table at the
    /// largest, `k`, and the curve at each). Empty: no curve.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub curve: Vec<usize>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            k: 60,
            unit: CreditUnit::Group,
            discount: Discount::Log2,
            gain: Gain::Linear,
            order: RankOrder::Saved,
            missing: MissingRun::Skip,
            bootstrap: 3000,
            seed: 1337,
            confidence: 0.95,
            curve: Vec::new(),
        }
    }
}

/// The settings of a rescoring, declared once for every interface (the CLI's arguments, the
/// page's settings form, the report). Written out rather than by [`crate::fields!`] because one
/// field, `k`, sets two members: `1,5,10,60` is `k` (the largest) and the `curve` (each).
impl Fields for Settings {
    const OWN: &'static [Field] = &[
        Field {
            name: "k",
            label: "cutoff k",
            help: "Cutoff: only the first k items of each list count. Several (1,5,10,60): every table at the largest, and the `curve` table (Recall@k, nDCG@k, … per system and target) at each.",
            kind: Kind::List,
            candidates: &[],
            optional: false,
        },
        Field {
            name: "unit",
            label: "credit unit",
            help: "Credit unit: group (one per evidence anchor) or id (every eligible memory).",
            kind: <CreditUnit as FieldValue>::KIND,
            candidates: &[],
            optional: false,
        },
        Field {
            name: "discount",
            label: "discount",
            help: "Rank discount: log2 (trec_eval 9, log2(rank+1)) or lme (LongMemEval's: ranks 1 and 2 undiscounted).",
            kind: <Discount as FieldValue>::KIND,
            candidates: &[],
            optional: false,
        },
        Field {
            name: "gain",
            label: "gain",
            help: "Gain of a graded relevance level: linear (rel) or exponential (2^rel − 1).",
            kind: <Gain as FieldValue>::KIND,
            candidates: &[],
            optional: false,
        },
        Field {
            name: "order",
            label: "rank order",
            help: "Rank order: saved (the saved order) or trec_eval (score descending, ties by id descending).",
            kind: <RankOrder as FieldValue>::KIND,
            candidates: &[],
            optional: false,
        },
        Field {
            name: "missing",
            label: "missing runs",
            help: "Queries without a ranked list for a system: skip (leave them out) or zero (score 0).",
            kind: <MissingRun as FieldValue>::KIND,
            candidates: &[],
            optional: false,
        },
        Field {
            name: "bootstrap",
            label: "bootstrap resamples",
            help: "Paired bootstrap resamples for every interval (0: no intervals).",
            kind: Kind::Whole,
            candidates: &[],
            optional: false,
        },
        Field {
            name: "seed",
            label: "seed",
            help: "RNG seed of the bootstrap.",
            kind: Kind::Whole,
            candidates: &[],
            optional: false,
        },
        Field {
            name: "confidence",
            label: "confidence",
            help: "Two-sided confidence level of the intervals.",
            kind: Kind::Number,
            candidates: &[],
            optional: false,
        },
    ];

    fn fields() -> Vec<&'static Field> {
        Self::OWN.iter().collect()
    }

    fn set_text(&mut self, name: &str, text: &str) -> std::result::Result<(), String> {
        match name {
            "k" => {
                let cutoffs = text
                    .split(',')
                    .map(str::trim)
                    .filter(|c| !c.is_empty())
                    .map(usize::from_text)
                    .collect::<std::result::Result<Vec<_>, _>>()?;
                *self = self.clone().with_cutoffs(&cutoffs).map_err(|e| match e {
                    Error::Setting { message, .. } => message,
                    e => e.to_string(),
                })?;
            }
            "unit" => self.unit = FieldValue::from_text(text)?,
            "discount" => self.discount = FieldValue::from_text(text)?,
            "gain" => self.gain = FieldValue::from_text(text)?,
            "order" => self.order = FieldValue::from_text(text)?,
            "missing" => self.missing = FieldValue::from_text(text)?,
            "bootstrap" => self.bootstrap = FieldValue::from_text(text)?,
            "seed" => self.seed = FieldValue::from_text(text)?,
            "confidence" => self.confidence = FieldValue::from_text(text)?,
            _ => return Err(format!("there is no setting `{name}`")),
        }
        Ok(())
    }

    fn text(&self, name: &str) -> Option<String> {
        Some(match name {
            "k" => self.cutoffs().iter().map(|c| c.to_string()).collect::<Vec<_>>().join(","),
            "unit" => self.unit.to_text(),
            "discount" => self.discount.to_text(),
            "gain" => self.gain.to_text(),
            "order" => self.order.to_text(),
            "missing" => self.missing.to_text(),
            "bootstrap" => self.bootstrap.to_text(),
            "seed" => self.seed.to_text(),
            "confidence" => self.confidence.to_text(),
            _ => return None,
        })
    }
}

/// The rule for memories that descend from several anchors, stated in every output.
pub const MULTI_ANCHOR_RULE: &str = "a retrieved item credits at most one evidence group in nDCG \
(groups are matched to distinct retrieved items, in rank order, by maximum matching), so nDCG \
stays in [0, 1]; Recall, Hit and MRR count a group as hit when any of its memories is in the top k";

impl Settings {
    pub fn validate(&self) -> Result<()> {
        if self.k == 0 {
            return Err(Error::setting("k", "must be at least 1"));
        }
        if self.k > 1_000_000 {
            return Err(Error::setting("k", "must be at most 1,000,000"));
        }
        if self.curve.iter().any(|&c| c == 0 || c > self.k) {
            return Err(Error::setting(
                "k",
                format!("every cutoff of the curve must be in 1..={} (the largest cutoff)", self.k),
            ));
        }
        if self.curve.windows(2).any(|w| w[0] >= w[1]) {
            return Err(Error::setting("k", "the cutoffs of the curve must increase, each given once"));
        }
        self.bootstrap().validate(0)
    }

    /// The bootstrap settings of every interval (B = 0: no intervals).
    pub fn bootstrap(&self) -> crate::stats::bootstrap::Bootstrap {
        crate::stats::bootstrap::Bootstrap { resamples: self.bootstrap, seed: self.seed, confidence: self.confidence }
    }

    /// The cutoffs `1,5,10,60` as given to `--k`: the curve's, else `k` alone.
    pub fn cutoffs(&self) -> Vec<usize> {
        if self.curve.is_empty() { vec![self.k] } else { self.curve.clone() }
    }

    /// `--k 1,5,10,60`: every table at the largest cutoff, the curve at each (when there are
    /// several). An error names what is wrong with the list.
    pub fn with_cutoffs(mut self, cutoffs: &[usize]) -> Result<Settings> {
        let mut ks = cutoffs.to_vec();
        ks.sort_unstable();
        ks.dedup();
        if ks.len() != cutoffs.len() {
            return Err(Error::setting("k", "a cutoff is given twice"));
        }
        let Some(&k) = ks.last() else {
            return Err(Error::setting("k", "give at least one cutoff"));
        };
        self.k = k;
        self.curve = if ks.len() > 1 { ks } else { Vec::new() };
        Ok(self)
    }

    /// One line describing every convention, for table and CSV headers.
    pub fn describe(&self) -> String {
        let k = if self.curve.is_empty() {
            self.k.to_string()
        } else {
            self.curve.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(",")
        };
        format!(
            "k={} unit={} discount={} gain={} order={} missing={} bootstrap={} seed={} confidence={}",
            k,
            self.unit,
            match self.discount {
                Discount::Log2 => "log2(rank+1)",
                Discount::Lme => "lme(rank1,2 undiscounted)",
            },
            match self.gain {
                Gain::Linear => "linear",
                Gain::Exponential => "2^rel-1",
            },
            match self.order {
                RankOrder::Saved => "saved",
                RankOrder::TrecEval => "trec_eval(score desc, id desc)",
            },
            self.missing,
            self.bootstrap,
            self.seed,
            self.confidence
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discounts() {
        assert_eq!(Discount::Log2.at(1), 1.0);
        assert!((Discount::Log2.at(2) - 1.0 / 3f64.log2()).abs() < 1e-15);
        assert_eq!(Discount::Lme.at(1), 1.0);
        assert_eq!(Discount::Lme.at(2), 1.0);
        assert!((Discount::Lme.at(3) - 1.0 / 3f64.log2()).abs() < 1e-15);
    }

    #[test]
    fn gains() {
        assert_eq!(Gain::Linear.of(3.0), 3.0);
        assert_eq!(Gain::Exponential.of(3.0), 7.0);
        assert_eq!(Gain::Exponential.of(1.0), Gain::Linear.of(1.0));
    }

    #[test]
    fn the_settings_read_and_write_their_fields_as_text() {
        let mut s = Settings::default();
        assert_eq!(s.text("k").as_deref(), Some("60"));
        s.set_text("k", "10, 1,5").unwrap();
        assert_eq!((s.k, s.curve.clone()), (10, vec![1, 5, 10]));
        assert_eq!(s.text("k").as_deref(), Some("1,5,10"));
        s.set_text("k", "30").unwrap();
        assert_eq!((s.k, s.curve.is_empty()), (30, true));
        assert_eq!(s.set_text("k", "5,5").unwrap_err(), "a cutoff is given twice");
        assert_eq!(s.set_text("k", "").unwrap_err(), "give at least one cutoff");
        assert!(s.set_text("k", "ten").unwrap_err().contains("not a whole number"));
        s.set_text("order", "trec_eval").unwrap();
        assert_eq!(s.order, RankOrder::TrecEval);
        assert!(s.set_text("order", "random").unwrap_err().contains("saved, trec_eval"));
        for f in Settings::fields() {
            let text = Settings::default().text(f.name).unwrap();
            let mut back = Settings { bootstrap: 7, ..Settings::default() };
            back.set_text(f.name, &text).unwrap();
            assert_eq!(back.text(f.name).unwrap(), text, "{}", f.name);
        }
        assert_eq!(Settings::fields().len(), 9);
    }

    #[test]
    fn validation_names_the_setting() {
        let s = Settings { k: 0, ..Settings::default() };
        assert!(matches!(s.validate(), Err(Error::Setting { setting, .. }) if setting == "k"));
        assert!(Settings::default().validate().is_ok());
    }
}
