//! `memaudit compare`: paired statistics over per-item outcomes of several arms.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use memaudit::compare::{
    CiMethod, CompareError, CompareSettings, Resampling, compare_table, input_from_paired, items_for_pair,
};
use memaudit::error::Error;
use memaudit::outcomes::{
    Duplicates, JudgmentChoice, OutcomeFormat, PairingOptions, ReadOptions, infer_spec, read_outcome_files,
};
use memaudit::report::compare::{COMPARE_TABLES, compare_latex, compare_table as table_of, render_compare_text};
use memaudit::stats::bca::Z0Rule;

use crate::common::{Failure, io_failure, json, read_path, write};

#[derive(Copy, Clone, ValueEnum, PartialEq)]
pub(crate) enum CompareFormat {
    Json,
    Csv,
    Table,
    Latex,
}

#[derive(Copy, Clone, ValueEnum)]
pub(crate) enum CiArg {
    Bca,
    Percentile,
}

#[derive(Copy, Clone, ValueEnum)]
pub(crate) enum Z0Arg {
    MidRank,
    Strict,
}

#[derive(Copy, Clone, ValueEnum)]
pub(crate) enum ResampleArg {
    Iid,
    Stratified,
    Cluster,
}

#[derive(Copy, Clone, ValueEnum)]
pub(crate) enum AggregateArg {
    Refuse,
    Mean,
}

#[derive(Args)]
pub(crate) struct CompareArgs {
    /// Outcome files: long or wide CSV, JSONL, reclaim-eval results, judge files, MTEL records,
    /// memaudit rescoring JSON (repeatable; several files are concatenated with a `file` column).
    #[arg(long, required = true)]
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
    /// Judge files: `majority` or the k-th judgment (1-based).
    #[arg(long)]
    pub(crate) judgment: Option<String>,
    /// Force the input format (e.g. wide_csv) instead of detecting it.
    #[arg(long)]
    pub(crate) input_format: Option<String>,
    /// Repeated (item, arm) rows: refuse (default) or average them.
    #[arg(long, value_enum, default_value_t = AggregateArg::Refuse)]
    pub(crate) aggregate: AggregateArg,
    /// Compare on the items present in every arm instead of refusing incomplete pairing.
    #[arg(long)]
    pub(crate) allow_incomplete: bool,
    /// Control arm for Bonferroni–Dunn comparisons.
    #[arg(long)]
    pub(crate) control: Option<String>,
    #[arg(long, default_value_t = 0.05)]
    pub(crate) alpha: f64,
    #[arg(long, default_value_t = 10_000)]
    pub(crate) bootstrap: usize,
    #[arg(long, default_value_t = 1337)]
    pub(crate) seed: u64,
    /// Interval method.
    #[arg(long, value_enum, default_value_t = CiArg::Bca)]
    pub(crate) ci: CiArg,
    /// BCa bias-correction share: mid-rank (SciPy) or strict (R boot).
    #[arg(long, value_enum, default_value_t = Z0Arg::MidRank)]
    pub(crate) z0: Z0Arg,
    /// Resampling unit: items, items within strata, or whole clusters.
    #[arg(long, value_enum, default_value_t = ResampleArg::Iid)]
    pub(crate) resample: ResampleArg,
    /// The column defining strata or clusters (a key or strata column).
    #[arg(long)]
    pub(crate) by: Option<String>,
    /// Also compare within each value of this column (a key or strata column): contrasts per
    /// stratum, reported in `by_stratum`.
    #[arg(long)]
    pub(crate) per: Option<String>,
    /// Lower values are better (ranks and winners flip).
    #[arg(long)]
    pub(crate) lower_is_better: bool,
    #[arg(long, value_enum, default_value_t = CompareFormat::Table)]
    pub(crate) format: CompareFormat,
    /// With --format csv: which table.
    #[arg(long, default_value = "pairs", value_parser = clap::builder::PossibleValuesParser::new(COMPARE_TABLES))]
    pub(crate) table: String,
    /// Also write comparison.json, every table as CSV and comparison.tex into this directory.
    #[arg(long)]
    pub(crate) out_dir: Option<PathBuf>,
    /// Print the items behind one contrast: `--items A,B`.
    #[arg(long, value_delimiter = ',')]
    pub(crate) items: Vec<String>,
    #[arg(long)]
    pub(crate) pretty: bool,
}

fn fail(e: impl std::fmt::Display) -> Failure {
    Failure { message: e.to_string(), code: 2 }
}

pub(crate) fn compare(args: CompareArgs) -> Result<(), Failure> {
    let files = args.outcomes.iter().map(|p| read_path(p)).collect::<Result<Vec<_>, _>>()?;
    let format = match &args.input_format {
        Some(f) => Some(OutcomeFormat::parse(f).ok_or_else(|| {
            fail(format!(
                "unknown --input-format `{f}` (one of: {})",
                OutcomeFormat::ALL.iter().map(|f| f.name()).collect::<Vec<_>>().join(", ")
            ))
        })?),
        None => None,
    };
    let table = read_outcome_files(&files, &ReadOptions { format }).map_err(|e| Failure::from(Error::from(e)))?;

    // The spec: what the user gave, the rest inferred (and shown).
    let mut spec = infer_spec(&table);
    if !args.item.is_empty() {
        spec.key = args.item.clone();
    }
    if !args.arm.is_empty() {
        spec.arm = args.arm.clone();
    }
    if let Some(v) = &args.value {
        spec.value = v.clone();
    }
    if !args.strata.is_empty() {
        spec.strata = args.strata.clone();
    }
    if let Some(j) = &args.judgment {
        spec.judgment = Some(match j.as_str() {
            "majority" => JudgmentChoice::Majority,
            k => JudgmentChoice::Judgment(k.parse().map_err(|_| fail("--judgment is `majority` or a number"))?),
        });
    }
    for f in &args.filter {
        let (col, vals) = f.split_once('=').ok_or_else(|| fail(format!("--filter `{f}`: expected COLUMN=v1,v2")))?;
        spec.filter.insert(col.to_string(), vals.split(',').map(str::to_string).collect());
    }
    let resampling = match (args.resample, &args.by) {
        (ResampleArg::Iid, _) => Resampling::Iid,
        (ResampleArg::Stratified, Some(c)) => Resampling::Stratified(c.clone()),
        (ResampleArg::Cluster, Some(c)) => Resampling::Cluster(c.clone()),
        (_, None) => return Err(fail("--resample stratified|cluster needs --by COLUMN")),
    };
    let settings = CompareSettings {
        alpha: args.alpha,
        bootstrap: args.bootstrap,
        seed: args.seed,
        ci: match args.ci {
            CiArg::Bca => CiMethod::Bca,
            CiArg::Percentile => CiMethod::Percentile,
        },
        z0: match args.z0 {
            Z0Arg::MidRank => Z0Rule::MidRank,
            Z0Arg::Strict => Z0Rule::Strict,
        },
        resampling,
        control: args.control.clone(),
        higher_is_better: !args.lower_is_better,
        per: args.per.clone(),
    };
    let options = PairingOptions {
        duplicates: match args.aggregate {
            AggregateArg::Refuse => Duplicates::Refuse,
            AggregateArg::Mean => Duplicates::Mean,
        },
        allow_incomplete: args.allow_incomplete,
    };
    let (out, paired) = compare_table(&table, &spec, &options, &settings, &mut |_, _| {}).map_err(|e| match e {
        CompareError::Compare(e) => Failure::from(e),
        CompareError::Pairing(p) => fail(format!("cannot run a paired comparison: {p}")),
    })?;

    if let Some(dir) = &args.out_dir {
        std::fs::create_dir_all(dir).map_err(|e| io_failure(dir, e))?;
        write(&dir.join("comparison.json"), &json(&out, true)?)?;
        for name in COMPARE_TABLES {
            if let Some(t) = table_of(&out.comparison, name) {
                write(&dir.join(format!("{name}.csv")), &t.to_csv()?)?;
            }
        }
        write(&dir.join("comparison.tex"), &compare_latex(&out.comparison))?;
    }
    if !args.items.is_empty() {
        let [a, b] = args.items.as_slice() else { return Err(fail("--items takes two arm names: A,B")) };
        let ia = paired.arm_index(a).ok_or_else(|| fail(format!("no arm `{a}`")))?;
        let ib = paired.arm_index(b).ok_or_else(|| fail(format!("no arm `{b}`")))?;
        let input = input_from_paired(&paired, &settings.resampling).map_err(Failure::from)?;
        println!("{}", json(&items_for_pair(&input, ia, ib), true)?);
        return Ok(());
    }
    match args.format {
        CompareFormat::Json => println!("{}", json(&out, args.pretty)?),
        CompareFormat::Csv => {
            let t = table_of(&out.comparison, &args.table)
                .ok_or_else(|| fail(format!("unknown table `{}`", args.table)))?;
            print!("{}", t.to_csv()?);
        }
        CompareFormat::Latex => print!("{}", compare_latex(&out.comparison)),
        CompareFormat::Table => {
            println!("spec: {}", out.spec.describe());
            for r in &out.spec.reasons {
                println!("  {r}");
            }
            if out.pairing.restricted_to_complete {
                println!(
                    "pairing: restricted to the {} items present in every arm (of {})",
                    out.pairing.items_used, out.pairing.n_items
                );
            }
            print!("{}", render_compare_text(&out.comparison));
        }
    }
    Ok(())
}
