//! What an IR evaluation says, first: queries the runs leave out or the qrels do not judge,
//! retrieved documents without a judgment, each run's headline measure, and — with two or more
//! runs — the paired comparison of the compared measure ([`crate::compare::headlines`]).

use super::table::TrecEvalTable;
use super::unit::TrecEvalReport;
use crate::compare::headlines::{ComparisonTables, of_comparison};
use crate::headline::{Headline, finding_on};

/// The headlines of an IR evaluation (unranked: see [`crate::headline::rank`]).
pub fn headlines(r: &TrecEvalReport) -> Vec<Headline> {
    let mut hs = Vec::new();
    let q = &r.qrels;
    if q.queries_without_relevant > 0 {
        hs.push(Headline::context(
            format!("{} of {} judged queries have no relevant document", q.queries_without_relevant, q.queries),
            format!("{}: they are evaluated and score 0 in every mean, as in trec_eval", q.file),
            TrecEvalTable::Summary,
        ));
    }
    for run in &r.runs {
        let e = &run.evaluation;
        let counted =
            if r.settings.options.complete { "they count as 0 (-c)" } else { "they are left out of its means (no -c)" };
        hs.extend(finding_on(
            &e.missing_queries,
            5,
            |n| format!("{} answers no query for {n} of the judged queries: {counted}", run.file),
            TrecEvalTable::Summary,
        ));
        hs.extend(finding_on(
            &e.unjudged_queries,
            5,
            |n| format!("{} ranks {n} queries the qrels do not judge: never evaluated", run.file),
            TrecEvalTable::Summary,
        ));
        let main: Vec<String> = ["map", "ndcg", "P_10", "recip_rank", "ndcg_cut_10"]
            .iter()
            .filter_map(|m| {
                let i = e.names.iter().position(|n| n.name == *m)?;
                Some(format!("{m} {:.4}", e.summary.get(i)?.as_ref()?.number()?))
            })
            .take(3)
            .collect();
        if !main.is_empty() {
            hs.push(Headline::context(
                format!("{} ({}) over {} queries", run.file, e.runid, e.num_q),
                format!(
                    "{}; {} retrieved documents are not in the qrels (counted not relevant)",
                    main.join(", "),
                    e.unjudged_documents
                ),
                TrecEvalTable::Summary,
            ));
        }
    }
    if let Some(c) = &r.comparison {
        let tables = ComparisonTables {
            arms: TrecEvalTable::Arms.name(),
            pairs: TrecEvalTable::Pairs.name(),
            friedman: TrecEvalTable::Pairs.name(),
            strata: TrecEvalTable::Pairs.name(),
            matched: TrecEvalTable::Pairs.name(),
        };
        for mut h in of_comparison(&c.comparison, &tables) {
            h.text = format!("{} ({}, {} queries every run answers)", h.text, c.measure, c.queries);
            hs.push(h);
        }
    }
    hs
}
