//! `memaudit ablation`: utilities, labels, the u histogram, positive rates and the
//! non-circularity panel from counterfactual-ablation traces.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use memaudit::ablation::{
    AblationColumns, AblationReport, AblationSettings, Gate, OutcomeScoring, TABLES, Target, analyse, read_ablation,
    table,
};
use memaudit::answers::Profile;
use memaudit::error::Error;
use memaudit::report::opt;

use crate::answers::{BootArgs, Issue5Format, fail, table_csv};
use crate::common::{Failure, json, read_path};

#[derive(Copy, Clone, ValueEnum)]
pub(crate) enum TargetArg {
    U,
    Y,
}

#[derive(Args)]
pub(crate) struct AblationArgs {
    /// Ablation traces (CSV or JSON Lines): one row per (query, removed memory), or one record per query with an `items` array.
    #[arg(long, short = 'i', required = true)]
    pub(crate) input: PathBuf,
    /// Profile that scores predictions when the trace has text instead of 0/1 outcomes.
    #[arg(long, default_value = "mab_sem")]
    pub(crate) profile: String,
    #[arg(long, default_value_t = 0.5)]
    pub(crate) f1_threshold: f64,
    /// Correlate the retrieval score with u (three-valued) or y (binary).
    #[arg(long, value_enum, default_value_t = TargetArg::U)]
    pub(crate) target: TargetArg,
    /// Gate on ρ: `scale` (ρ in [-0.15, 0.15]), `pilot` (|ρ| < 0.5), `abs:T` or `within:LO,HI`.
    #[arg(long, default_value = "scale")]
    pub(crate) gate: String,
    #[command(flatten)]
    pub(crate) boot: BootArgs,
    /// Column of the retrieval score, when the aliases do not find it.
    #[arg(long)]
    pub(crate) score_column: Option<String>,
    #[arg(long)]
    pub(crate) subset_column: Option<String>,
    #[arg(long, value_enum, default_value_t = Issue5Format::Table)]
    pub(crate) format: Issue5Format,
    #[arg(long)]
    pub(crate) pretty: bool,
}

pub(crate) fn ablation_cmd(args: AblationArgs) -> Result<(), Failure> {
    let profile = Profile::parse(&args.profile).ok_or_else(|| fail(format!("unknown profile `{}`", args.profile)))?;
    let gate = Gate::parse(&args.gate)
        .ok_or_else(|| fail(format!("--gate `{}`: scale, pilot, abs:T or within:LO,HI", args.gate)))?;
    let file = read_path(&args.input)?;
    let cols =
        AblationColumns { score: args.score_column.clone(), subset: args.subset_column.clone(), ..Default::default() };
    let scoring = OutcomeScoring { profile, f1_threshold: args.f1_threshold };
    let (pairs, warnings) = read_ablation(&file, &cols, &scoring).map_err(|e| Failure::from(Error::from(e)))?;
    let settings = AblationSettings {
        target: match args.target {
            TargetArg::U => Target::U,
            TargetArg::Y => Target::Y,
        },
        gate,
        bootstrap: args.boot.bootstrap,
        seed: args.boot.seed,
        confidence: args.boot.confidence,
    };
    let report = analyse(&pairs, &settings, warnings, &mut |_, _| {})?;
    match args.format {
        Issue5Format::Json => {
            #[derive(serde::Serialize)]
            struct Out<'a> {
                #[serde(flatten)]
                report: &'a AblationReport,
                scoring: &'a OutcomeScoring,
                memaudit_version: &'static str,
            }
            println!(
                "{}",
                json(
                    &Out { report: &report, scoring: &scoring, memaudit_version: env!("CARGO_PKG_VERSION") },
                    args.pretty
                )?
            );
        }
        Issue5Format::Csv => print!("{}", table_csv(table(&report, "groups"), "groups", &TABLES)?),
        Issue5Format::Table => {
            println!("gate: {}   ({} resamples, seed {})", report.gate, settings.bootstrap, settings.seed);
            for g in report.groups() {
                let nc = &g.noncircularity;
                let ci = |c: &Option<memaudit::ablation::CiRecord>| {
                    c.as_ref().map_or("-".into(), |c| format!("[{:.3}, {:.3}]", c.low, c.high))
                };
                println!(
                    "{:<20} {:<16} pairs {:>6}  u=-1/0/+1 {}/{}/{}  positive {:.3}  rho {}  pair {}  query {}  {}",
                    g.run,
                    opt(&g.subset),
                    g.rates.pairs,
                    g.rates.histogram.harmful,
                    g.rates.histogram.neutral,
                    g.rates.histogram.helpful,
                    g.rates.positive_rate,
                    nc.rho.map_or("-".into(), |r| format!("{r:+.3}")),
                    ci(&nc.pair_ci),
                    ci(&nc.query_ci),
                    match nc.passes {
                        Some(true) => "pass",
                        Some(false) => "BREACH",
                        None => "-",
                    }
                );
            }
            for w in report.warnings.iter() {
                println!("warning: {} ({}): {}", w.message, w.count, w.examples.join("; "));
            }
        }
    }
    Ok(())
}
