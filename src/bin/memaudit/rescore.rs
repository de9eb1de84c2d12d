//! `memaudit rescore` and `memaudit drilldown`: credit-target rescoring of saved ranked lists.

use std::path::PathBuf;

use clap::Args;

use memaudit::audit::{self, Report};
use memaudit::error::Error;
use memaudit::report;

use crate::common::{Failure, InputArgs, OutFormat, SettingsArgs, io_failure, json, load, write};

#[derive(Args)]
pub(crate) struct RescoreArgs {
    #[command(flatten)]
    pub(crate) input: InputArgs,
    #[command(flatten)]
    pub(crate) settings: SettingsArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutFormat::Table)]
    pub(crate) format: OutFormat,
    /// With --format csv: which table to print.
    #[arg(long, default_value = "summary", value_parser = clap::builder::PossibleValuesParser::new(report::TABLE_NAMES))]
    pub(crate) table: String,
    /// Also write report.json and every table as CSV into this directory.
    #[arg(long)]
    pub(crate) out_dir: Option<PathBuf>,
    /// Pretty-print JSON.
    #[arg(long)]
    pub(crate) pretty: bool,
}

#[derive(Args)]
pub(crate) struct DrilldownArgs {
    #[command(flatten)]
    pub(crate) input: InputArgs,
    #[command(flatten)]
    pub(crate) settings: SettingsArgs,
    /// System name.
    #[arg(long)]
    pub(crate) system: String,
    /// Query id.
    #[arg(long)]
    pub(crate) query: String,
    #[arg(long, value_enum, default_value_t = OutFormat::Table)]
    pub(crate) format: OutFormat,
}

pub(crate) fn rescore(args: RescoreArgs) -> Result<(), Failure> {
    let settings = args.settings.settings();
    settings.validate()?;
    let ds = load(&args.input)?;
    if ds.queries.is_empty() {
        return Err(Error::Empty("no queries were read (give a queries file, qrels, or benchmark data)".into()).into());
    }
    let report: Report = audit::run(&ds, &settings, &mut |_, _| {});
    if let Some(dir) = &args.out_dir {
        std::fs::create_dir_all(dir).map_err(|e| io_failure(dir, e))?;
        write(&dir.join("report.json"), &json(&report, true)?)?;
        for name in report::TABLE_NAMES {
            if let Some(t) = report::table(&report, name) {
                write(&dir.join(format!("{name}.csv")), &t.to_csv()?)?;
            }
        }
    }
    match args.format {
        OutFormat::Json => println!("{}", json(&report, args.pretty)?),
        OutFormat::Csv => {
            let t = report::table(&report, &args.table)
                .ok_or_else(|| Failure { message: format!("unknown table `{}`", args.table), code: 2 })?;
            print!("{}", t.to_csv()?);
            let n: usize = report.reading.warnings.iter().map(|w| w.count).sum();
            if n > 0 {
                eprintln!("memaudit: {} reading warning(s); see `--table warnings`", n);
            }
        }
        OutFormat::Table => print!("{}", report::render_text(&report)),
    }
    Ok(())
}

pub(crate) fn drill(args: DrilldownArgs) -> Result<(), Failure> {
    let settings = args.settings.settings();
    settings.validate()?;
    let ds = load(&args.input)?;
    let s = ds.system_index(&args.system).ok_or_else(|| Failure {
        message: format!("no system `{}` (have: {})", args.system, ds.systems.join(", ")),
        code: 2,
    })?;
    let q = ds
        .query_index(&args.query)
        .ok_or_else(|| Failure { message: format!("no query `{}`", args.query), code: 2 })?;
    let d = audit::drilldown(&ds, &settings, s, q as usize)
        .ok_or_else(|| Failure { message: "nothing to show".into(), code: 2 })?;
    if args.format == OutFormat::Json {
        println!("{}", json(&d, true)?);
        return Ok(());
    }
    println!("{} — {} ({})", d.system, d.query_id, settings.describe());
    if let Some(t) = &d.query_text {
        println!("query: {t}");
    }
    println!("evidence: {}", d.evidence.join(", "));
    for t in &d.targets {
        match &t.score {
            Some(s) => println!(
                "  {:<9} nDCG {:.4}  recall {:.4}  hit {}  MRR {:.4}  groups {}",
                t.target.name(),
                s.ndcg,
                s.recall,
                s.hit,
                s.mrr,
                t.groups.len()
            ),
            None => {
                println!("  {:<9} not eligible (no stored memory of the evidence is in this target)", t.target.name())
            }
        }
    }
    for it in &d.items {
        println!(
            "  {:>3}{} {:<40} {:<16} {:<10} {}",
            it.rank,
            if it.within_k { " " } else { "*" },
            it.memory_id,
            format!("{:?}", it.mark).to_lowercase(),
            it.kind.clone().unwrap_or_default(),
            it.evidence_anchors.join(", ")
        );
    }
    Ok(())
}
