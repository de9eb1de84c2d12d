//! `memaudit compare`: arguments → [`CompareRequest`] → the core's [`Compare`] capability →
//! output.

use std::path::PathBuf;

use clap::Args;

use memaudit::capability::{FileRole, quiet, run_once};
use memaudit::compare::{Compare, CompareRequest, CompareTable, ItemSelection, ItemsView};
use memaudit::error::Error;
use memaudit::fields::{command_line_word, render_mentions};
use memaudit::outcomes::PairingReport;

use crate::common::{Failure, OutFormat, Output, detail, emit, fail, inputs, json_report, print};
use crate::fields::FieldArgs;

#[derive(Args)]
#[command(mut_arg("key", |a| a.visible_alias("item")))]
pub(crate) struct CompareArgs {
    /// Outcome files: long or wide CSV, JSONL, reclaim-eval results, judge files, MTEL records,
    /// memaudit rescoring JSON (several files are concatenated with a `file` column).
    #[arg(long, required = true, num_args = 1..)]
    pub(crate) outcomes: Vec<PathBuf>,
    /// The comparison's settings ([`CompareRequest`], declared once in the core).
    #[command(flatten)]
    pub(crate) request: FieldArgs<CompareRequest>,
    /// Print the items behind one contrast: `--items A,B`.
    #[arg(long, value_delimiter = ',')]
    pub(crate) items: Vec<String>,
    #[command(flatten)]
    pub(crate) output: Output<CompareTable>,
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
    let request = args.request.0.clone();
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
                // A setting the message mentions is named as the command line spells it.
                let words = |m: &str| render_mentions(m, command_line_word);
                let message = words(message);
                let pairing =
                    pairing.as_deref().map(|p| PairingReport { message: p.message.as_deref().map(words), ..p.clone() });
                let refusal = Refusal { refused: &message, pairing: pairing.as_ref(), unpaired: unpaired.as_deref() };
                let headlines = memaudit::compare::headlines::of_refusal(&message, unpaired.as_deref());
                let json =
                    crate::common::json(&memaudit::capability::envelope_with(&refusal, headlines), args.output.pretty)?;
                print(&format!("{json}\n"))?;
            }
            return Err(e.into());
        }
    };
    emit::<Compare>(&report, &loaded, &args.output)
}
