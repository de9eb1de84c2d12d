//! `memaudit compliance`: arguments → [`ComplianceRequest`] → the core's [`Compliance`]
//! capability → output.

use std::path::PathBuf;

use clap::Args;

use memaudit::capability::FileRole;
use memaudit::compliance::{Compliance, ComplianceRequest, ComplianceTable};
use memaudit::stats::power::{Design, PowerRequest, calculate};

use crate::common::{Failure, Output, emit, fail, inputs, json_report, print, run};
use crate::fields::FieldArgs;

#[derive(Args)]
pub(crate) struct ComplianceArgs {
    /// Per-task rows (CSV/TSV, JSON Lines, JSON array): arm and compliance [, recall, tokens, depth]. Repeatable.
    #[arg(long, short = 'i', required = true, num_args = 1..)]
    pub(crate) input: Vec<PathBuf>,
    #[command(flatten)]
    pub(crate) settings: FieldArgs<ComplianceRequest>,
    #[command(flatten)]
    pub(crate) output: Output<ComplianceTable>,
}

impl crate::common::Subcommand for Compliance {
    type Args = ComplianceArgs;
    fn run(args: ComplianceArgs) -> Result<(), Failure> {
        compliance_cmd(args)
    }
}

pub(crate) fn compliance_cmd(args: ComplianceArgs) -> Result<(), Failure> {
    let request = args.settings.0;
    let files = inputs::<Compliance>(args.input.iter().map(|p| (p.clone(), Some(FileRole::ComplianceRows))).collect())?;
    let (loaded, report) = run::<Compliance>(&files, &request)?;
    emit::<Compliance>(&report, &loaded, &args.output)
}

#[derive(Args)]
pub(crate) struct PowerArgs {
    /// The design: two_proportions, paired_proportions (McNemar), two_means, paired_means.
    #[arg(long, value_enum, default_value_t = Design::TwoProportions)]
    pub(crate) design: Design,
    /// Items per group (unpaired) or pairs (paired).
    #[arg(long)]
    pub(crate) n: f64,
    /// Items of the second group (unpaired; default n).
    #[arg(long)]
    pub(crate) n2: Option<f64>,
    /// The arm's proportion (two_proportions).
    #[arg(long, default_value_t = PowerRequest::default().p1)]
    pub(crate) p1: f64,
    /// The baseline's proportion (two_proportions).
    #[arg(long, default_value_t = PowerRequest::default().p2)]
    pub(crate) p2: f64,
    /// Share of pairs the arm gets right and the baseline wrong (paired_proportions).
    #[arg(long, default_value_t = PowerRequest::default().p10)]
    pub(crate) p10: f64,
    /// Share of pairs the baseline gets right and the arm wrong (paired_proportions).
    #[arg(long, default_value_t = PowerRequest::default().p01)]
    pub(crate) p01: f64,
    /// Difference of means (means designs).
    #[arg(long, default_value_t = PowerRequest::default().delta)]
    pub(crate) delta: f64,
    /// Standard deviation (of the first group, or of the paired differences).
    #[arg(long, default_value_t = PowerRequest::default().sd)]
    pub(crate) sd: f64,
    /// Standard deviation of the second group (two_means; default sd).
    #[arg(long)]
    pub(crate) sd2: Option<f64>,
    /// Two-sided level of the test.
    #[arg(long, default_value_t = PowerRequest::default().alpha)]
    pub(crate) alpha: f64,
    /// Target power.
    #[arg(long, default_value_t = PowerRequest::default().power)]
    pub(crate) power: f64,
    /// Output: json (the answer in the version envelope) or table (text).
    #[arg(long, default_value = "table")]
    pub(crate) format: String,
}

/// `memaudit power`: one calculation of [`memaudit::stats::power::calculate`].
pub(crate) fn power_cmd(a: PowerArgs) -> Result<(), Failure> {
    let q = PowerRequest {
        design: a.design,
        n: a.n,
        n2: a.n2,
        p1: a.p1,
        p2: a.p2,
        p10: a.p10,
        p01: a.p01,
        delta: a.delta,
        sd: a.sd,
        sd2: a.sd2,
        alpha: a.alpha,
        power: a.power,
    };
    q.validate().map_err(fail)?;
    let r = calculate(&q);
    match a.format.as_str() {
        "json" => print(&(json_report(&r, true)? + "\n")),
        "table" => print(&power_text(&r)),
        f => Err(fail(format!("--format `{f}`: expected json or table"))),
    }
}

fn power_text(r: &memaudit::stats::power::PowerReport) -> String {
    let f = |v: Option<f64>| v.map_or("none".to_string(), |x| format!("{x:.4}"));
    format!(
        "Power: {} ({})\n\
         n = {} (second group {}), effect {:+.4}, alpha {}, target power {}\n\
         power to detect the effect: {}\n\
         n needed per group (pairs): {} (rounded up: {})\n\
         minimum detectable effect at the target power: {}\n\
         Hoeffding half-width at delta = alpha: {}; Hoeffding bound at epsilon = |effect|: {}\n",
        r.design,
        r.method,
        r.n,
        r.n2,
        r.effect,
        r.alpha,
        r.target_power,
        f(r.power),
        f(r.n_needed),
        r.n_needed_ceil.map_or("none".into(), |n| n.to_string()),
        f(r.mde),
        f(r.hoeffding_half_width),
        f(r.hoeffding_bound),
    )
}
