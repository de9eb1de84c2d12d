//! `memaudit`: the command-line twin of the viewer. A thin layer over the core: each
//! subcommand is "arguments → request → the core capability's run → emit" (`common`), the
//! same `run` the viewer's worker calls. One module per group of subcommands.

mod ablation;
mod answers;
mod bundle;
mod claims;
mod common;
mod compare;
mod probe;
mod reclaim;
mod rescore;
mod rules;
mod trec_eval;

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "memaudit",
    version,
    about = "Audit LLM-memory and retrieval benchmark results: credit-target rescoring and statistics"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Rescore saved ranked outputs under the Raw, Source and Canonical credit targets.
    Rescore(rescore::RescoreArgs),
    /// Show one system's ranked list for one query, each item marked by its credit.
    Drilldown(rescore::DrilldownArgs),
    /// Convert a benchmark's own files into a memaudit bundle (memories.jsonl, queries.jsonl).
    Import(bundle::ImportArgs),
    /// Write a synthetic bundle (the viewer's demo, benchmark inputs).
    Synth(bundle::SynthArgs),
    /// Paired statistics over per-item outcomes of several arms (intervals, contrasts, Friedman/Nemenyi).
    Compare(compare::CompareArgs),
    /// Write-time probe: is a memory note still correctable (source kept) or silently stale?
    Probe(probe::ProbeArgs),
    /// Reclaim rates per cell with bootstrap intervals, strict re-scoring, worse-than-empty.
    Reclaim(reclaim::ReclaimArgs),
    /// Rescore raw answers under scoring profiles (paper SEM, MemoryAgentBench, SQuAD, LoCoMo) and diff two.
    Answers(answers::AnswersArgs),
    /// Counterfactual ablation: utilities, labels, u histogram, positive rates, non-circularity ρ(u, s).
    Ablation(ablation::AblationArgs),
    /// K-sweep of arms, claims recomputed from per-query scores, and the consistency linter.
    Claims(claims::ClaimsArgs),
    /// Pre-registered rules evaluated into verdicts with margins and a temporal-integrity check.
    Rules(rules::RulesArgs),
    /// trec_eval, same options, measures and output: evaluate TREC or ranx runs against qrels
    /// (several runs are also compared with paired statistics).
    #[command(name = "trec-eval")]
    TrecEval(trec_eval::TrecEvalArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Rescore(a) => rescore::rescore(a),
        Command::Drilldown(a) => rescore::drill(a),
        Command::Import(a) => bundle::import(a),
        Command::Synth(a) => bundle::synth_cmd(a),
        Command::Compare(a) => compare::compare(a),
        Command::Probe(a) => probe::probe(a),
        Command::Reclaim(a) => reclaim::reclaim_cmd(a),
        Command::Answers(a) => answers::answers_cmd(a),
        Command::Ablation(a) => ablation::ablation_cmd(a),
        Command::Claims(a) => claims::claims_cmd(a),
        Command::Rules(a) => rules::rules_cmd(a),
        Command::TrecEval(a) => trec_eval::trec_eval_cmd(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            // A closed stderr must not turn a refusal into a panic.
            let _ = writeln!(std::io::stderr(), "memaudit: error: {}", memaudit::report::terminal_safe(&f.message));
            ExitCode::from(f.code)
        }
    }
}
