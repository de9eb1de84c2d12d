//! `memaudit compare`: arguments → [`CompareRequest`] → the core's [`Compare`] capability →
//! output.

use std::path::PathBuf;

use clap::Args;

use memaudit::capability::{FileRole, quiet, run_once};
use memaudit::compare::{
    CiMethod, Compare, CompareRequest, CompareSettings, CompareTable, ItemSelection, ItemsView, ResampleUnit,
    Resampling,
};
use memaudit::error::Error;
use memaudit::outcomes::{Duplicates, JudgmentChoice, OutcomeFormat, PairingOptions};
use memaudit::stats::bca::Z0Rule;

use crate::common::{Failure, OutFormat, Output, detail, emit, fail, inputs, json_report, print};

fn defaults() -> CompareSettings {
    CompareSettings::default()
}

#[derive(Args)]
pub(crate) struct CompareArgs {
    /// Outcome files: long or wide CSV, JSONL, reclaim-eval results, judge files, MTEL records,
    /// memaudit rescoring JSON (several files are concatenated with a `file` column).
    #[arg(long, required = true, num_args = 1..)]
    pub(crate) outcomes: Vec<PathBuf>,
    /// Pairing key: the column(s) identifying an item, comma-separated (inferred when absent).
    #[arg(long, alias = "key", value_delimiter = ',')]
    pub(crate) item: Vec<String>,
    /// Arm column(s), comma-separated (combined with `/`).
    #[arg(long, value_delimiter = ',')]
    pub(crate) arm: Vec<String>,
    /// Value column (0/1 or real).
    #[arg(long)]
    pub(crate) value: Option<String>,
    /// Strata columns carried with each item (for stratified or cluster resampling).
    #[arg(long, value_delimiter = ',')]
    pub(crate) strata: Vec<String>,
    /// Keep only rows whose COLUMN is one of the values: `--filter target=raw,source` (repeatable).
    #[arg(long)]
    pub(crate) filter: Vec<String>,
    /// Judge files: `majority`, the k-th judgment (1-based), or `each` (every judgment a separate
    /// arm, `<arm>/judgment_k`).
    #[arg(long)]
    pub(crate) judgment: Option<JudgmentChoice>,
    /// Force the input format (e.g. wide_csv) instead of detecting it.
    #[arg(long, value_parser = parse_format)]
    pub(crate) input_format: Option<OutcomeFormat>,
    /// Repeated (item, arm) rows: refuse (default) or average them.
    #[arg(long, value_enum, default_value_t = Duplicates::default())]
    pub(crate) aggregate: Duplicates,
    /// Compare on the items present in every arm instead of refusing incomplete pairing.
    #[arg(long)]
    pub(crate) allow_incomplete: bool,
    /// Rows without an item id: pair them by their order within each arm, after checking that
    /// these columns (comma-separated; default: the text columns that are neither arm nor value)
    /// agree row by row across arms.
    #[arg(long, num_args = 0..=1, default_missing_value = "", value_name = "COLS")]
    pub(crate) pair_by_position: Option<String>,
    /// Inspect logs: the credit of a `P` (partial) grade, in [0, 1] (default: Inspect's 0.5).
    #[arg(long, value_name = "CREDIT")]
    pub(crate) partial_credit: Option<f64>,
    /// Control arm for Bonferroni–Dunn comparisons.
    #[arg(long)]
    pub(crate) control: Option<String>,
    /// The plain baseline every method should beat (default: the one arm named like bm25): a method that does worse is an alert.
    #[arg(long)]
    pub(crate) baseline: Option<String>,
    /// Every contrast with this arm reads treatment − reference (tables and forest plot).
    #[arg(long)]
    pub(crate) reference: Option<String>,
    #[arg(long, default_value_t = defaults().alpha)]
    pub(crate) alpha: f64,
    #[arg(long, default_value_t = defaults().bootstrap)]
    pub(crate) bootstrap: usize,
    #[arg(long, default_value_t = defaults().seed)]
    pub(crate) seed: u64,
    /// Interval method.
    #[arg(long, value_enum, default_value_t = defaults().ci)]
    pub(crate) ci: CiMethod,
    /// BCa bias-correction share: mid-rank (SciPy) or strict (R boot).
    #[arg(long, value_enum, default_value_t = defaults().z0)]
    pub(crate) z0: Z0Rule,
    /// Resampling unit: items, items within strata, or whole clusters.
    #[arg(long, value_enum, default_value_t = ResampleUnit::Iid)]
    pub(crate) resample: ResampleUnit,
    /// The column defining strata or clusters (a key or strata column).
    #[arg(long)]
    pub(crate) by: Option<String>,
    /// Also compare within each value of this column (a key or strata column): contrasts per
    /// stratum, reported in `by_stratum`.
    #[arg(long)]
    pub(crate) per: Option<String>,
    /// Cost columns (calls, tokens), comma-separated: each arm's mean cost on the compared items.
    #[arg(long, value_delimiter = ',')]
    pub(crate) cost: Vec<String>,
    /// CONTROL:ARM — CONTROL is the compute-matched control of ARM: their costs are compared
    /// (needs --cost). Repeatable.
    #[arg(long)]
    pub(crate) matched: Vec<String>,
    /// Lower values are better (ranks and winners flip).
    #[arg(long)]
    pub(crate) lower_is_better: bool,
    /// Print the items behind one contrast: `--items A,B`.
    #[arg(long, value_delimiter = ',')]
    pub(crate) items: Vec<String>,
    #[command(flatten)]
    pub(crate) output: Output<CompareTable>,
}

fn parse_format(s: &str) -> Result<OutcomeFormat, String> {
    OutcomeFormat::parse(s).ok_or_else(|| {
        format!(
            "unknown format `{s}` (one of: {})",
            OutcomeFormat::ALL.iter().map(|f| f.name()).collect::<Vec<_>>().join(", ")
        )
    })
}

impl CompareArgs {
    fn request(&self) -> Result<CompareRequest, Failure> {
        let mut request = CompareRequest { format: self.input_format, ..CompareRequest::default() };
        let nonempty = |v: &Vec<String>| (!v.is_empty()).then(|| v.clone());
        request.spec.key = nonempty(&self.item);
        request.spec.arm = nonempty(&self.arm);
        request.spec.value = self.value.clone();
        request.spec.strata = nonempty(&self.strata);
        request.spec.judgment = self.judgment;
        request.spec.filter.extend(crate::common::filters(&self.filter)?);
        request.settings = CompareSettings {
            alpha: self.alpha,
            bootstrap: self.bootstrap,
            seed: self.seed,
            ci: self.ci,
            z0: self.z0,
            resampling: Resampling::of(self.resample, self.by.clone())?,
            control: self.control.clone(),
            reference: self.reference.clone(),
            higher_is_better: !self.lower_is_better,
            per: self.per.clone(),
            cost: self.cost.clone(),
            matched: self.matched.clone(),
            baseline: self.baseline.clone(),
            quantities: false,
        };
        request.options = PairingOptions { duplicates: self.aggregate, allow_incomplete: self.allow_incomplete };
        request.pair_by_position = self
            .pair_by_position
            .as_ref()
            .map(|cols| cols.split(',').map(str::trim).filter(|c| !c.is_empty()).map(str::to_string).collect());
        request.partial_credit = self.partial_credit;
        Ok(request)
    }
}

/// A refused comparison as JSON.
#[derive(serde::Serialize)]
struct Refusal<'a> {
    refused: &'a str,
    pairing: Option<&'a memaudit::outcomes::PairingReport>,
    unpaired: Option<&'a memaudit::compare::UnpairedArms>,
}

/// The items behind one contrast (`--items A,B`).
#[derive(serde::Serialize)]
struct PairItems {
    a: String,
    b: String,
    items: Vec<memaudit::compare::PairItem>,
}

pub(crate) fn compare(args: CompareArgs) -> Result<(), Failure> {
    let request = args.request()?;
    let files = inputs::<Compare>(args.outcomes.iter().map(|p| (p.clone(), Some(FileRole::Outcomes))).collect())?;
    if !args.items.is_empty() {
        let [a, b] = args.items.as_slice() else { return Err(fail("--items takes two arm names: A,B")) };
        let selection = ItemSelection::Pair { a: a.clone(), b: b.clone() };
        return match detail::<Compare>(&files, &request, &selection)? {
            ItemsView::Pair { a, b, items } => print(&format!("{}\n", json_report(&PairItems { a, b, items }, true)?)),
            ItemsView::Arm { .. } => Err(fail("--items takes two arm names: A,B")),
        };
    }
    let (loaded, report) = match run_once::<Compare>(&files, &request, &mut quiet()) {
        Ok(done) => done,
        Err(e) => {
            // A refused pairing is also a JSON document (its pairing report and each arm's
            // interval without pairing) when JSON was asked for; the exit code stays 2.
            if let (OutFormat::Json, Error::Unpaired { message, pairing, unpaired }) = (args.output.format, &e) {
                let refusal = Refusal { refused: message, pairing: pairing.as_deref(), unpaired: unpaired.as_deref() };
                let headlines = memaudit::compare::headlines::of_refusal(message, unpaired.as_deref());
                let json =
                    crate::common::json(&memaudit::capability::envelope_with(&refusal, headlines), args.output.pretty)?;
                print(&format!("{json}\n"))?;
            }
            return Err(e.into());
        }
    };
    emit::<Compare>(&report, &loaded, &args.output)
}
