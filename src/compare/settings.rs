//! The statistics' settings of a comparison ([`CompareSettings`]): the interval, the resampling,
//! the multiplicity correction, the tests, the baseline and the cost and matched controls.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::stats::bca::Z0Rule;

crate::choice! {
    /// Which interval the bootstrap reports.
    #[derive(Default)]
    pub enum CiMethod {
        /// Bias-corrected and accelerated (Efron 1987), the default.
        #[default]
        Bca,
        /// Percentile.
        Percentile,
    }
}

/// How items are resampled.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", tag = "kind", content = "column")]
pub enum Resampling {
    #[default]
    Iid,
    /// Within the strata of this column.
    Stratified(String),
    /// Whole clusters given by this column (e.g. the task, with several seeds per task).
    Cluster(String),
}

crate::choice! {
    /// The unit a resampling draws (`--resample`); strata and clusters need a column.
    pub enum ResampleUnit {
        Iid,
        Stratified,
        Cluster,
    }
}

impl Resampling {
    /// The resampling of `unit` by column `by` (needed for strata and clusters, else ignored).
    pub fn of(unit: ResampleUnit, by: Option<String>) -> Result<Resampling> {
        match (unit, by) {
            (ResampleUnit::Iid, _) => Ok(Resampling::Iid),
            (ResampleUnit::Stratified, Some(c)) => Ok(Resampling::Stratified(c)),
            (ResampleUnit::Cluster, Some(c)) => Ok(Resampling::Cluster(c)),
            (u, None) => Err(Resampling::needs_column(u)),
        }
    }

    /// The refusal of a stratified or cluster resampling without its column.
    fn needs_column(unit: ResampleUnit) -> Error {
        use crate::fields::mention;
        Error::setting(
            "by",
            format!("{} {unit} needs {} COLUMN (the strata or clusters)", mention("resample"), mention("by")),
        )
    }

    /// The column of a stratified or cluster resampling.
    pub fn column(&self) -> Option<&str> {
        match self {
            Resampling::Iid => None,
            Resampling::Stratified(c) | Resampling::Cluster(c) => Some(c),
        }
    }

    pub fn unit(&self) -> ResampleUnit {
        match self {
            Resampling::Iid => ResampleUnit::Iid,
            Resampling::Stratified(_) => ResampleUnit::Stratified,
            Resampling::Cluster(_) => ResampleUnit::Cluster,
        }
    }
}

/// Settings of a comparison, shown next to every result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompareSettings {
    pub alpha: f64,
    pub bootstrap: usize,
    pub seed: u64,
    pub ci: CiMethod,
    pub z0: Z0Rule,
    pub resampling: Resampling,
    /// Arm for Bonferroni–Dunn comparisons against a control.
    pub control: Option<String>,
    /// Every contrast with this arm reads other − reference (also on the forest plot).
    #[serde(default)]
    pub reference: Option<String>,
    /// Higher values are better (ranks: 1 = best).
    pub higher_is_better: bool,
    /// Also compare within each value of this column (a key or strata column): contrasts per
    /// stratum, for a forest plot grouped by stratum. Holm and BH adjust within each stratum.
    #[serde(default)]
    pub per: Option<String>,
    /// Cost columns (calls, tokens): each arm's mean cost on the compared items.
    #[serde(default)]
    pub cost: Vec<String>,
    /// `CONTROL:ARM`: CONTROL is the compute-matched control of ARM (its cost is compared).
    #[serde(default)]
    pub matched: Vec<String>,
    /// The plain baseline every method should beat (seed-000's lesson: "BM25 minimum"); `None`:
    /// the one arm whose name contains `bm25`, if exactly one does.
    #[serde(default)]
    pub baseline: Option<String>,
    /// The values are quantities (a cost), not outcomes: a constant arm's interval is [c, c],
    /// never a proportion's (Wilson) interval. Set by the cost comparison, not a user setting.
    #[serde(skip)]
    pub quantities: bool,
}

impl CompareSettings {
    /// The baseline arm among `arms`: the stated one, else the only arm named like BM25.
    pub fn baseline_arm<'a>(&'a self, arms: &'a [String]) -> Option<&'a str> {
        match &self.baseline {
            Some(b) => arms.iter().find(|a| *a == b).map(String::as_str),
            None => {
                let bm25: Vec<&String> = arms.iter().filter(|a| a.to_ascii_lowercase().contains("bm25")).collect();
                (bm25.len() == 1).then(|| bm25[0].as_str())
            }
        }
    }
}

impl Default for CompareSettings {
    fn default() -> Self {
        CompareSettings {
            alpha: 0.05,
            bootstrap: 10_000,
            seed: 1337,
            ci: CiMethod::Bca,
            z0: Z0Rule::MidRank,
            resampling: Resampling::Iid,
            control: None,
            reference: None,
            higher_is_better: true,
            per: None,
            cost: Vec::new(),
            matched: Vec::new(),
            baseline: None,
            quantities: false,
        }
    }
}

impl CompareSettings {
    pub fn validate(&self) -> Result<()> {
        if !(self.alpha > 0.0 && self.alpha < 0.5) {
            return Err(Error::setting("alpha", "must be in (0, 0.5)"));
        }
        for m in &self.matched {
            if !m.split_once(':').is_some_and(|(c, a)| !c.trim().is_empty() && !a.trim().is_empty()) {
                return Err(Error::setting("matched", format!("`{m}` is not CONTROL:ARM (e.g. retry:gated)")));
            }
        }
        if !self.matched.is_empty() && self.cost.is_empty() {
            return Err(Error::setting(
                "matched",
                format!(
                    "a compute-matched control needs the cost column(s) to compare ({} calls)",
                    crate::fields::mention("cost")
                ),
            ));
        }
        if self.resampling.column().is_some_and(|c| c.trim().is_empty()) {
            return Err(Resampling::needs_column(self.resampling.unit()));
        }
        // The confidence of every interval is 1 − alpha.
        crate::stats::bootstrap::check_resamples(self.bootstrap, 100)
    }

    /// The settings in words, printed with every table.
    pub fn describe(&self) -> String {
        format!(
            "alpha={} bootstrap={} seed={} ci={} z0={} resampling={}{} higher_is_better={}{}",
            self.alpha,
            self.bootstrap,
            self.seed,
            match self.ci {
                CiMethod::Bca => "bca",
                CiMethod::Percentile => "percentile",
            },
            match self.z0 {
                Z0Rule::MidRank => "mid-rank",
                Z0Rule::Strict => "strict",
            },
            match &self.resampling {
                Resampling::Iid => "iid",
                Resampling::Stratified(_) => "stratified",
                Resampling::Cluster(_) => "cluster",
            },
            match &self.resampling {
                Resampling::Iid => String::new(),
                Resampling::Stratified(c) | Resampling::Cluster(c) => format!("({c})"),
            },
            self.higher_is_better,
            self.control.as_ref().map(|c| format!(" control={c}")).unwrap_or_default()
        ) + &self.per.as_ref().map(|b| format!(" per={b}")).unwrap_or_default()
            + &self.reference.as_ref().map(|r| format!(" reference={r}")).unwrap_or_default()
            + &if self.cost.is_empty() { String::new() } else { format!(" cost={}", self.cost.join(",")) }
            + &if self.matched.is_empty() { String::new() } else { format!(" matched={}", self.matched.join(",")) }
    }
}
