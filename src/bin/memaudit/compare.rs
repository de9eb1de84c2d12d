//! `memaudit compare`: arguments → [`CompareRequest`] → the core's [`Compare`] capability →
//! output.

use std::path::PathBuf;

use clap::Args;

use memaudit::capability::{FileRole, quiet, run_once};
use memaudit::command_line::word as command_line_word;
use memaudit::compare::{
    Compare, CompareReport, CompareRequest, CompareTable, ItemSelection, ItemsView, RefusedComparison,
};
use memaudit::fields::render_mentions;
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
    /// Print one item's text as the files state it (an item of `--items`, e.g. `0 | 1`): the
    /// cells its rows share (question, gold answer), then each arm's rows with their file and
    /// line (answer, verdicts, score); with `--items A,B`, only those two arms.
    #[arg(long, value_name = "ITEM")]
    pub(crate) show_item: Option<String>,
    #[command(flatten)]
    pub(crate) output: Output<CompareTable>,
}

/// The items behind one contrast (`--items A,B`).
#[derive(serde::Serialize)]
struct PairItems {
    a: String,
    b: String,
    items: Vec<memaudit::compare::PairItem>,
}

impl crate::common::Subcommand for Compare {
    type Args = CompareArgs;
    fn run(args: CompareArgs) -> Result<(), Failure> {
        compare(args)
    }
}

/// The items of `--items` or `--show-item` as CSV (`--format csv`: the page's export).
fn print_items_csv(view: &ItemsView) -> Result<(), Failure> {
    let csv = memaudit::compare::table::items_table(view).to_csv().map_err(|e| fail(e.to_string()))?;
    print(&csv)
}

pub(crate) fn compare(args: CompareArgs) -> Result<(), Failure> {
    let request = args.request.0.clone();
    let files = inputs::<Compare>(args.outcomes.iter().map(|p| (p.clone(), Some(FileRole::Outcomes))).collect())?;
    if let Some(item) = &args.show_item {
        let selection = ItemSelection::Text { item: item.clone(), arms: args.items.clone() };
        let view = detail::<Compare>(&files, &request, &selection)?;
        return match view.clone() {
            ItemsView::Text(_) if args.output.format == OutFormat::Csv => print_items_csv(&view),
            ItemsView::Text(text) => print(&format!("{}\n", json_report(&text, true)?)),
            _ => Err(fail("--show-item takes one item")),
        };
    }
    if !args.items.is_empty() {
        let [a, b] = args.items.as_slice() else { return Err(fail("--items takes two arm names: A,B")) };
        let selection = ItemSelection::Pair { a: a.clone(), b: b.clone() };
        let view = detail::<Compare>(&files, &request, &selection)?;
        return match view.clone() {
            ItemsView::Pair { .. } if args.output.format == OutFormat::Csv => print_items_csv(&view),
            ItemsView::Pair { a, b, items } => print(&format!("{}\n", json_report(&PairItems { a, b, items }, true)?)),
            _ => Err(fail("--items takes two arm names: A,B")),
        };
    }
    let (loaded, report) = run_once::<Compare>(&files, &request, &mut quiet())?;
    let CompareReport::Refused(refused) = &report else { return emit::<Compare>(&report, &loaded, &args.output) };
    // A refused pairing is also a JSON document (its pairing report and each arm's interval
    // without pairing) when JSON was asked for; the exit code stays 2 unless the rows are one
    // arm's, whose summary on its own is then the result. A setting the message
    // mentions is named as the command line spells it.
    let words = |m: &str| render_mentions(m, command_line_word);
    let refused = RefusedComparison {
        message: words(&refused.message),
        pairing: refused.pairing.clone().map(|p| PairingReport { message: p.message.as_deref().map(words), ..p }),
        unpaired: refused.unpaired.clone(),
    };
    let one_arm = refused.unpaired.as_ref().and_then(|u| u.one_arm()).is_some();
    // One system's judges agree or not without pairing: their table is there to export.
    if one_arm && args.output.format == OutFormat::Csv && args.output.table == Some(CompareTable::Judges) {
        return emit::<Compare>(&report, &loaded, &args.output);
    }
    if args.output.format == OutFormat::Json {
        let report = CompareReport::Refused(Box::new(refused.clone()));
        let json = crate::common::json(&memaudit::capability::report_envelope::<Compare>(&report), args.output.pretty)?;
        print(&format!("{json}\n"))?;
    } else if one_arm {
        print(&format!("{}\n", refused.to_error()))?;
    }
    // One system's rows: its summary is the result (exit 0); any other refusal exits 2.
    if one_arm { Ok(()) } else { Err(refused.to_error().into()) }
}
