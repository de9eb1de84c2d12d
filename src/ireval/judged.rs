//! One query's ranking with each document's judgment: trec_eval's `RES_RELS`
//! (`form_res_rels.c`), the input of every measure.
//!
//! 1. The retrieved documents are ranked by `sim` descending, ties broken by docno descending
//!    (`strcmp(p2, p1)`); the saved rank column is never used.
//! 2. Only the first `-M` are kept.
//! 3. Each gets its relevance: the qrels value when judged (≥ 0), [`UNJUDGED`] when the qrels
//!    list it with a negative value (a sampled pool), [`NONPOOL`] when the qrels do not list it.
//! 4. `rel_levels[l]` counts the query's judgments with value `l` ≥ 0; `num_rel` sums the
//!    levels ≥ the relevance level `-l`. A query judged with no relevant document has
//!    `num_rel = 0` and is still evaluated (its measures are 0).

use super::files::{QueryJudgments, Retrieved};

/// Not in the qrels (trec_eval `RELVALUE_NONPOOL`).
pub const NONPOOL: i64 = -1;
/// In the qrels with a negative value (trec_eval `RELVALUE_UNJUDGED`).
pub const UNJUDGED: i64 = -2;

/// The options that shape the ranking (trec_eval `-l`, `-M`, `-J`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RankingOptions {
    pub relevance_level: i64,
    pub max_per_topic: Option<usize>,
    pub judged_only: bool,
    /// trec_eval 9 compares scores as 32-bit floats.
    pub float_scores: bool,
}

/// trec_eval's `RES_RELS`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct JudgedRanking {
    /// The relevance of the document at each rank (index 0 = rank 1).
    pub rels: Vec<i64>,
    pub num_rel: i64,
    pub num_rel_ret: i64,
    pub num_nonpool: i64,
    pub num_unjudged_in_pool: i64,
    /// Judgments per relevance value 0, 1, … (trailing zero counts trimmed).
    pub rel_levels: Vec<i64>,
}

impl JudgedRanking {
    pub fn num_ret(&self) -> i64 {
        self.rels.len() as i64
    }

    /// trec_eval's `num_rel_levels`: one more than the highest value with a judgment.
    pub fn num_rel_levels(&self) -> usize {
        self.rel_levels.len()
    }
}

/// A document retrieved twice for one query within the evaluated depth (trec_eval refuses it).
#[derive(Debug, Clone, PartialEq)]
pub struct DuplicateDocument {
    pub docno: String,
    pub lines: (u32, u32),
}

/// Ranks `docs` and judges them against `judged` (see the module documentation).
pub fn judge(
    judged: &QueryJudgments,
    docs: &[Retrieved],
    opts: &RankingOptions,
) -> Result<JudgedRanking, DuplicateDocument> {
    let mut order: Vec<&Retrieved> = docs.iter().collect();
    // C's `>`/`<` comparison: -0.0 and 0.0 tie (sims are finite).
    let sim = |d: &Retrieved| if opts.float_scores { d.sim as f32 as f64 } else { d.sim };
    order.sort_by(|a, b| {
        sim(b).partial_cmp(&sim(a)).unwrap_or(std::cmp::Ordering::Equal).then_with(|| b.docno.cmp(&a.docno))
    });
    if let Some(m) = opts.max_per_topic {
        order.truncate(m);
    }
    // A repeated docno within the evaluated depth: the first repeat in rank order (a hash map,
    // not a sort by docno: 1,000 documents per query, 7,000 queries). The map also finds the
    // query's judged documents among the ranked ones (a few lookups instead of one search of the
    // judgments per ranked document).
    let mut seen: rustc_hash::FxHashMap<&str, usize> = rustc_hash::FxHashMap::default();
    seen.reserve(order.len());
    for (rank, d) in order.iter().enumerate() {
        if let Some(&other) = seen.get(d.docno.as_str()) {
            let other = order[other].line;
            let (a, b) = (other.min(d.line), other.max(d.line));
            return Err(DuplicateDocument { docno: d.docno.to_string(), lines: (a, b) });
        }
        seen.insert(d.docno.as_str(), rank);
    }
    let mut rels = vec![NONPOOL; order.len()];
    for j in &judged.docs {
        if let Some(&rank) = seen.get(j.docno.as_str()) {
            rels[rank] = if j.rel < 0 { UNJUDGED } else { j.rel };
        }
    }
    let mut levels: Vec<i64> = Vec::new();
    for j in &judged.docs {
        if j.rel >= 0 {
            let l = j.rel as usize;
            if levels.len() <= l {
                levels.resize(l + 1, 0);
            }
            levels[l] += 1;
        }
    }
    while levels.last() == Some(&0) {
        levels.pop();
    }
    let mut out = JudgedRanking { rel_levels: levels, ..Default::default() };
    let level = opts.relevance_level;
    if opts.judged_only {
        rels.retain(|&r| r >= 0);
    }
    out.rels = rels;
    for &r in &out.rels {
        match r {
            NONPOOL => out.num_nonpool += 1,
            UNJUDGED => out.num_unjudged_in_pool += 1,
            r if r >= level => out.num_rel_ret += 1,
            _ => {}
        }
    }
    out.num_rel = out.rel_levels.iter().enumerate().filter(|&(l, _)| l as i64 >= level).map(|(_, &c)| c).sum();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::trec_eval_files::{Judgment, QueryJudgments, Retrieved};

    fn q(docs: &[(&str, i64)]) -> QueryJudgments {
        let mut docs: Vec<Judgment> = docs.iter().map(|&(d, rel)| Judgment { docno: d.into(), rel, line: 0 }).collect();
        docs.sort_by(|a, b| a.docno.cmp(&b.docno));
        QueryJudgments { qid: "1".into(), docs }
    }
    fn r(docs: &[(&str, f64)]) -> Vec<Retrieved> {
        docs.iter().enumerate().map(|(i, &(d, sim))| Retrieved { docno: d.into(), sim, line: i as u32 + 1 }).collect()
    }
    const OPTS: RankingOptions =
        RankingOptions { relevance_level: 1, max_per_topic: None, judged_only: false, float_scores: false };

    #[test]
    fn ranks_by_sim_then_docno_descending() {
        let j = judge(
            &q(&[("a", 1), ("b", 2), ("c", 0), ("x", -1)]),
            &r(&[("a", 1.0), ("b", 1.0), ("z", 3.0), ("x", 0.5), ("c", 0.1)]),
            &OPTS,
        )
        .unwrap();
        // z (3.0), then the tie b > a by docno descending, then x, c.
        assert_eq!(j.rels, vec![NONPOOL, 2, 1, UNJUDGED, 0]);
        assert_eq!((j.num_rel, j.num_rel_ret, j.num_nonpool, j.num_unjudged_in_pool), (2, 2, 1, 1));
        assert_eq!(j.rel_levels, vec![1, 1, 1]);
        let l2 = judge(&q(&[("a", 1), ("b", 2)]), &r(&[("a", 1.0)]), &RankingOptions { relevance_level: 2, ..OPTS })
            .unwrap();
        assert_eq!((l2.num_rel, l2.num_rel_ret), (1, 0));
    }

    #[test]
    fn truncation_judged_only_and_duplicates() {
        let qq = q(&[("a", 1)]);
        let run = r(&[("a", 1.0), ("b", 2.0), ("c", 3.0)]);
        assert_eq!(
            judge(&qq, &run, &RankingOptions { max_per_topic: Some(2), ..OPTS }).unwrap().rels,
            vec![NONPOOL, NONPOOL]
        );
        assert_eq!(judge(&qq, &run, &RankingOptions { judged_only: true, ..OPTS }).unwrap().rels, vec![1]);
        let dup = r(&[("a", 1.0), ("b", 2.0), ("a", 0.5)]);
        assert_eq!(judge(&qq, &dup, &OPTS).unwrap_err(), DuplicateDocument { docno: "a".into(), lines: (1, 3) });
        // trec_eval 9's 32-bit scores tie 0.1 and 0.1 + 1e-12: docno descending decides.
        let close = r(&[("a", 0.1 + 1e-12), ("b", 0.1)]);
        assert_eq!(judge(&qq, &close, &OPTS).unwrap().rels, vec![1, NONPOOL]);
        assert_eq!(judge(&qq, &close, &RankingOptions { float_scores: true, ..OPTS }).unwrap().rels, vec![NONPOOL, 1]);
        // Beyond the evaluated depth a duplicate is not seen (as in trec_eval).
        assert!(judge(&qq, &dup, &RankingOptions { max_per_topic: Some(2), ..OPTS }).is_ok());
    }
}
