//! Fixed-output rescoring (TIAP Stage II): the same saved ranked lists scored against every
//! target. Retrieval is never rerun; only the credited memory ids change.

use rustc_hash::FxHashSet;

use crate::conventions::{MissingRun, RankOrder, Settings};
use crate::dataset::Dataset;
use crate::ingest::{WarningKind, Warnings};
use crate::metrics::{self, ListScore, Scratch};
use crate::model::Target;
use crate::targets::{QueryTargets, target_slot};

/// The result for one (system, query, target).
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    /// The pair is in the system's population (it has a run, or missing runs score 0).
    pub scored: bool,
    pub has_run: bool,
    /// `None` when the query is not eligible for the target (no non-empty group).
    pub score: Option<ListScore>,
}

impl Cell {
    const ABSENT: Cell = Cell { scored: false, has_run: false, score: None };

    /// Scored and eligible: the cell counts in the target's means.
    pub fn counted(&self) -> Option<&ListScore> {
        if self.scored { self.score.as_ref() } else { None }
    }
}

/// All cells of a rescoring, `[system][query][target]`.
#[derive(Debug, Clone)]
pub struct Rescored {
    pub settings: Settings,
    pub n_systems: usize,
    pub n_queries: usize,
    /// Targets that exist for this store.
    pub targets: Vec<Target>,
    cells: Vec<Cell>,
    /// Per (system, query), `[system * n_queries + query]`: eligible under each target (the
    /// same for every system unless systems have their own stores).
    eligible: Vec<[bool; 3]>,
    /// Problems met while scoring (e.g. trec_eval order without scores).
    pub warnings: Warnings,
}

impl Rescored {
    pub fn cell(&self, system: usize, query: usize, target: Target) -> &Cell {
        &self.cells[(system * self.n_queries + query) * 3 + target_slot(target)]
    }

    /// Whether `query` is eligible under `target` in `system`'s store.
    pub fn is_eligible(&self, system: usize, query: usize, target: Target) -> bool {
        self.eligible[system * self.n_queries + query][target_slot(target)]
    }

    /// Whether `query` is eligible under `target` for some system.
    pub fn eligible_for_any(&self, query: usize, target: Target) -> bool {
        (0..self.n_systems).any(|s| self.is_eligible(s, query, target))
    }
}

/// The order in which a list's items are read: saved order, or trec_eval's (descending score,
/// ties by id descending) when asked and scores exist.
pub fn reading_order(ds: &Dataset, list: &crate::dataset::RankedList, order: RankOrder) -> Option<Vec<usize>> {
    match (order, &list.scores) {
        (RankOrder::Saved, _) => Some((0..list.items.len()).collect()),
        (RankOrder::TrecEval, Some(scores)) => {
            let mut idx: Vec<usize> = (0..list.items.len()).collect();
            idx.sort_by(|&a, &b| {
                scores[b].total_cmp(&scores[a]).then_with(|| ds.item_id(list.items[b]).cmp(ds.item_id(list.items[a])))
            });
            Some(idx)
        }
        (RankOrder::TrecEval, None) => None,
    }
}

/// Scores every (system, query, target). `progress` receives the fraction of queries done.
pub fn rescore(ds: &Dataset, settings: &Settings, progress: &mut dyn FnMut(f64)) -> Rescored {
    let n_s = ds.systems.len();
    let n_q = ds.queries.len();
    let mut cells = vec![Cell::ABSENT; n_s * n_q * 3];
    let mut eligible = vec![[false; 3]; n_s * n_q];
    let mut warnings = Warnings::default();
    let mut scratch = Scratch::default();
    let mut seen: FxHashSet<u32> = FxHashSet::default();
    let mut positions: Vec<u32> = Vec::new();
    let mut first: Vec<bool> = Vec::new();
    let k = settings.k;
    let per_system = ds.per_system_stores();
    let build = |q: usize, s: Option<usize>| QueryTargets::build(ds, q as u32, settings.unit, settings.gain, s);
    let gains_of = |qt: &QueryTargets| -> [Vec<f64>; 3] { Target::ALL.map(|t| qt.gains(t)) };
    // A TREC topic judged without a relevant document scores 0, as in trec_eval.
    let zero = ListScore {
        ndcg: 0.0,
        recall: 0.0,
        hit: 0.0,
        mrr: 0.0,
        top1: 0.0,
        dcg: 0.0,
        idcg: 0.0,
        groups: 0,
        groups_hit: 0,
        first_rank: None,
    };

    for q in 0..n_q {
        if q % 256 == 0 {
            progress(q as f64 / n_q.max(1) as f64);
        }
        let judged_empty = ds.judged_without_relevant(q);
        let shared = (!per_system).then(|| build(q, None));
        for s in 0..n_s {
            let mut slots: Vec<&[u32]> = Vec::with_capacity(k.min(1024));
            let own;
            let qt = match &shared {
                Some(qt) => qt,
                None => {
                    own = build(q, Some(s));
                    &own
                }
            };
            let gains = gains_of(qt);
            let base = (s * n_q + q) * 3;
            for t in &ds.targets {
                eligible[s * n_q + q][target_slot(*t)] = qt.eligible(*t) || (judged_empty && *t == Target::Raw);
            }
            let score_of = |score: Option<ListScore>, t: Target| {
                if score.is_none() && judged_empty && t == Target::Raw { Some(zero.clone()) } else { score }
            };
            match &ds.lists[s][q] {
                Some(list) => {
                    let order = match reading_order(ds, list, settings.order) {
                        Some(o) => o,
                        None => {
                            warnings.add(WarningKind::OrderWithoutScores, || {
                                format!("system `{}`, query `{}`", ds.systems[s], ds.queries[q].query_id)
                            });
                            (0..list.items.len()).collect()
                        }
                    };
                    positions.clear();
                    first.clear();
                    seen.clear();
                    for &i in order.iter().take(k) {
                        let item = list.items[i];
                        positions.push(item);
                        first.push(seen.insert(item));
                    }
                    for t in &ds.targets {
                        let ti = target_slot(*t);
                        slots.clear();
                        slots.extend(
                            positions
                                .iter()
                                .zip(&first)
                                .map(|(&it, &f)| if f { qt.groups_of(it, *t) } else { &[][..] }),
                        );
                        let score = metrics::score_slots(&slots, &gains[ti], k, settings.discount, &mut scratch);
                        cells[base + ti] = Cell { scored: true, has_run: true, score: score_of(score, *t) };
                    }
                }
                None if settings.missing == MissingRun::Zero => {
                    for t in &ds.targets {
                        let ti = target_slot(*t);
                        let score = metrics::score_slots(&[], &gains[ti], k, settings.discount, &mut scratch);
                        cells[base + ti] = Cell { scored: true, has_run: false, score: score_of(score, *t) };
                    }
                }
                None => {}
            }
        }
    }
    progress(1.0);
    Rescored {
        settings: settings.clone(),
        n_systems: n_s,
        n_queries: n_q,
        targets: ds.targets.clone(),
        cells,
        eligible,
        warnings,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::{InputFile, read_all};

    /// The TIAP Table 11 "degree" and "commute" queries as a bundle, scored end to end.
    fn table11() -> Dataset {
        let mut m = String::new();
        for id in ["r1", "r2", "r3"] {
            m += &format!("{{\"memory_id\":\"{id}\",\"anchors\":[\"{id}\"],\"raw\":true}}\n");
        }
        m += "{\"memory_id\":\"c1\",\"anchors\":[\"r1\"],\"canonical\":true}\n";
        m += "{\"memory_id\":\"c3\",\"anchors\":[\"r3\"],\"canonical\":true}\n";
        let q = "{\"query_id\":\"degree\",\"evidence\":[\"r1\",\"r2\"]}\n{\"query_id\":\"commute\",\"evidence\":[\"r3\"]}\n";
        let filler: Vec<String> = (0..70).map(|i| format!("\"f{i}\"")).collect();
        let mut commute = filler.clone();
        commute.insert(0, "\"c3\"".into());
        commute.insert(53, "\"r3\"".into());
        let mut degree = filler;
        degree.insert(0, "\"c1\"".into());
        let r = format!(
            "{{\"system\":\"s\",\"query_id\":\"degree\",\"ranked\":[{}]}}\n{{\"system\":\"s\",\"query_id\":\"commute\",\"ranked\":[{}]}}\n",
            degree.join(","),
            commute.join(",")
        );
        Dataset::from_jsonl(&m, q, &r)
    }

    #[test]
    fn table11_end_to_end() {
        let ds = table11();
        let r = rescore(&ds, &Settings::default(), &mut |_| {});
        let nd = |q, t| r.cell(0, q, t).score.as_ref().unwrap().ndcg;
        assert_eq!(nd(0, Target::Raw), 0.0);
        assert!((nd(0, Target::Source) - 0.6131471927654584).abs() < 1e-15);
        assert_eq!(nd(0, Target::Canonical), 1.0);
        assert!((nd(1, Target::Raw) - 0.1729696904450771).abs() < 1e-15);
        assert_eq!(nd(1, Target::Source), 1.0);
        assert_eq!(nd(1, Target::Canonical), 1.0);
    }

    #[test]
    fn missing_runs_skip_or_zero() {
        let mut ds = table11();
        ds.lists[0][1] = None;
        let skip = rescore(&ds, &Settings::default(), &mut |_| {});
        assert!(!skip.cell(0, 1, Target::Raw).scored);
        let zero = rescore(&ds, &Settings { missing: MissingRun::Zero, ..Settings::default() }, &mut |_| {});
        let c = zero.cell(0, 1, Target::Raw);
        assert!(c.scored && !c.has_run);
        assert_eq!(c.score.as_ref().unwrap().ndcg, 0.0);
    }

    #[test]
    fn trec_order_sorts_by_score_then_id_descending() {
        let ds = Dataset::build(
            read_all(&[
                InputFile::new("q.qrels", b"1 0 A 1\n".to_vec()),
                InputFile::new("r.run", b"1 Q0 B 1 2.0 s\n1 Q0 A 2 2.0 s\n1 Q0 C 3 3.0 s\n".to_vec()),
            ])
            .unwrap(),
        );
        let list = ds.lists[0][0].as_ref().unwrap();
        let order = reading_order(&ds, list, RankOrder::TrecEval).unwrap();
        let ids: Vec<&str> = order.iter().map(|&i| ds.item_id(list.items[i])).collect();
        assert_eq!(ids, ["C", "B", "A"]);
        let r = rescore(&ds, &Settings { order: RankOrder::TrecEval, ..Settings::default() }, &mut |_| {});
        assert_eq!(r.cell(0, 0, Target::Raw).score.as_ref().unwrap().first_rank, Some(3));
        let saved = rescore(&ds, &Settings::default(), &mut |_| {});
        assert_eq!(saved.cell(0, 0, Target::Raw).score.as_ref().unwrap().first_rank, Some(2));
    }
}
