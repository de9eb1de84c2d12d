//! Ranking metrics of one saved list against one target's relevance groups.
//!
//! Definitions (reconstructed from the TIAP artifacts and verified on the paper's Table 11;
//! see `../shared/notes/seed-001-tiap.md` §1.8). For query q, target t, cutoff k:
//!
//! ```text
//! groups   G = [g(a) for evidence anchor a if g(a) non-empty], gain(g) = Gain(grade(a))
//! covered  = { g : some member of g is among the first k items }
//! Recall@k = |covered| / |G|            Hit@k = 1[|covered| > 0]
//! MRR@k    = 1 / (rank of the first item that belongs to any group), 0 if none within k
//! Top-1    = 1[the rank-1 item belongs to a group]
//! DCG@k    = Σ over matched (item at rank r, group g) of gain(g) · D(r)
//! IDCG@k   = Σ_{i=1}^{min(|G|, k)} gain_(i) · D(i)   (gains sorted in decreasing order)
//! nDCG@k   = DCG@k / IDCG@k
//! ```
//!
//! D is the discount (trec_eval 9: 1/log2(r+1), Järvelin & Kekäläinen 2002). Each group is
//! counted once, at its best rank (a group member ranked later earns nothing). When a memory
//! descends from several anchors, one retrieved item may belong to several groups; nDCG then
//! matches groups to *distinct* items: the items are taken in rank order and each is added to
//! the matching when an augmenting path exists (Kuhn's algorithm). This is the greedy
//! algorithm on a transversal matroid, so for binary gains it gives the largest DCG any
//! one-item-one-group assignment can reach, and by the rearrangement inequality DCG ≤ IDCG for
//! any gains, keeping nDCG in [0, 1]. When every memory has one anchor the matching is simply
//! "each group at its best rank", the paper's definition.

use crate::conventions::Discount;

/// The metrics of one (list, target) pair.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ListScore {
    pub ndcg: f64,
    pub recall: f64,
    pub hit: f64,
    pub mrr: f64,
    pub top1: f64,
    pub dcg: f64,
    pub idcg: f64,
    /// Number of relevance groups (the target's R).
    pub groups: usize,
    /// Groups with a member in the top k.
    pub groups_hit: usize,
    /// 1-based rank of the first credited item within k.
    pub first_rank: Option<usize>,
}

/// Reusable buffers for [`score_slots`] (avoids an allocation per list on the hot path).
#[derive(Debug, Default)]
pub struct Scratch {
    group_item: Vec<u32>,
    visit_stamp: Vec<u32>,
    stamp: u32,
    covered: Vec<bool>,
    sorted_gains: Vec<f64>,
}

const NONE: u32 = u32::MAX;

/// Scores a ranked list given, for each position (rank = index + 1), the groups the item at
/// that position belongs to (empty for no credit; a repeated id must be given as empty).
///
/// `gains[g]` is the (already transformed) gain of group `g`; all must be > 0. Only the first
/// `k` positions count. Returns `None` when there are no groups (the query is not eligible).
pub fn score_slots(
    slots: &[&[u32]],
    gains: &[f64],
    k: usize,
    discount: Discount,
    scratch: &mut Scratch,
) -> Option<ListScore> {
    let n_groups = gains.len();
    if n_groups == 0 {
        return None;
    }
    let s = scratch;
    s.group_item.clear();
    s.group_item.resize(n_groups, NONE);
    s.covered.clear();
    s.covered.resize(n_groups, false);
    if s.visit_stamp.len() < n_groups {
        s.visit_stamp.resize(n_groups, 0);
    }

    let depth = slots.len().min(k);
    let mut first_rank = None;
    let mut groups_hit = 0usize;
    for (i, groups) in slots[..depth].iter().enumerate() {
        if groups.is_empty() {
            continue;
        }
        if first_rank.is_none() {
            first_rank = Some(i + 1);
        }
        for &g in groups.iter() {
            let g = g as usize;
            if !s.covered[g] {
                s.covered[g] = true;
                groups_hit += 1;
            }
        }
        s.stamp = s.stamp.wrapping_add(1);
        if s.stamp == 0 {
            s.visit_stamp.iter_mut().for_each(|v| *v = 0);
            s.stamp = 1;
        }
        augment(i as u32, slots, &mut s.group_item, &mut s.visit_stamp, s.stamp);
    }

    let mut dcg = 0.0;
    for (g, &item) in s.group_item.iter().enumerate() {
        if item != NONE {
            dcg += gains[g] * discount.at(item as usize + 1);
        }
    }
    s.sorted_gains.clear();
    s.sorted_gains.extend_from_slice(gains);
    s.sorted_gains.sort_by(|a, b| b.total_cmp(a));
    let idcg: f64 = s.sorted_gains.iter().take(k).enumerate().map(|(i, g)| g * discount.at(i + 1)).sum();
    let ndcg = if idcg > 0.0 { (dcg / idcg).clamp(0.0, 1.0) } else { 0.0 };
    let hit = if groups_hit > 0 { 1.0 } else { 0.0 };
    Some(ListScore {
        ndcg,
        recall: groups_hit as f64 / n_groups as f64,
        hit,
        mrr: first_rank.map_or(0.0, |r| 1.0 / r as f64),
        top1: if first_rank == Some(1) { 1.0 } else { 0.0 },
        dcg,
        idcg,
        groups: n_groups,
        groups_hit,
        first_rank,
    })
}

/// Kuhn's augmenting path from item `i`: tries the item's groups in the order given.
fn augment(i: u32, slots: &[&[u32]], group_item: &mut [u32], visit: &mut [u32], stamp: u32) -> bool {
    for &g in slots[i as usize].iter() {
        let g = g as usize;
        if visit[g] == stamp {
            continue;
        }
        visit[g] = stamp;
        let holder = group_item[g];
        if holder == NONE || augment(holder, slots, group_item, visit, stamp) {
            group_item[g] = i;
            return true;
        }
    }
    false
}

/// For the drill-down: which group each position was matched to in the nDCG computation.
/// Same algorithm as [`score_slots`]; returns `matched[position] = Some(group)`.
pub fn matched_groups(slots: &[&[u32]], n_groups: usize, k: usize) -> Vec<Option<u32>> {
    let mut group_item = vec![NONE; n_groups];
    let mut visit = vec![0u32; n_groups];
    let depth = slots.len().min(k);
    for i in 0..depth {
        if !slots[i].is_empty() {
            augment(i as u32, slots, &mut group_item, &mut visit, i as u32 + 1);
        }
    }
    let mut out = vec![None; slots.len()];
    for (g, &item) in group_item.iter().enumerate() {
        if item != NONE {
            out[item as usize] = Some(g as u32);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score(slots: &[Vec<u32>], n_groups: usize, k: usize) -> ListScore {
        let refs: Vec<&[u32]> = slots.iter().map(|v| v.as_slice()).collect();
        score_slots(&refs, &vec![1.0; n_groups], k, Discount::Log2, &mut Scratch::default()).unwrap()
    }

    /// Builds slots of length `len` with group `g` at 1-based ranks.
    fn slots_at(len: usize, hits: &[(usize, u32)]) -> Vec<Vec<u32>> {
        let mut s = vec![Vec::new(); len];
        for &(rank, g) in hits {
            s[rank - 1].push(g);
        }
        s
    }

    // TIAP Table 11 (LME all-MiniLM), reconstructed in seed-001-tiap.md §4.10.
    #[test]
    fn table11_degree() {
        // anchors a1 {r1, c1}, a2 {r2}; list [c1, ...], no raw retrieved.
        // Source: groups a1 (hit at 1) and a2 (missed) -> 1 / (1 + 1/log2 3).
        let src = score(&slots_at(60, &[(1, 0)]), 2, 60);
        assert!((src.ndcg - 0.6131471927654584).abs() < 1e-15);
        // Raw: both groups exist (r1, r2), none retrieved.
        assert_eq!(score(&slots_at(60, &[]), 2, 60).ndcg, 0.0);
        // Canonical: only a1 has a canonical memory -> one group, hit at rank 1.
        assert_eq!(score(&slots_at(60, &[(1, 0)]), 1, 60).ndcg, 1.0);
    }

    #[test]
    fn table11_commute() {
        // one anchor {r, c}: c at rank 1, r at rank 54.
        let raw = score(&slots_at(60, &[(54, 0)]), 1, 60);
        assert!((raw.ndcg - 0.1729696904450771).abs() < 1e-15);
        assert!((raw.mrr - 1.0 / 54.0).abs() < 1e-15);
        let src = score(&slots_at(60, &[(1, 0), (54, 0)]), 1, 60);
        assert_eq!(src.ndcg, 1.0, "the group counts once, at its best rank");
        assert_eq!(score(&slots_at(60, &[(1, 0)]), 1, 60).ndcg, 1.0);
    }

    #[test]
    fn table11_theater_and_asylum() {
        assert_eq!(score(&slots_at(60, &[(3, 0)]), 1, 60).ndcg, 0.5);
        let asylum = score(&slots_at(60, &[(56, 0)]), 1, 60);
        assert!((asylum.ndcg - 0.17144160057391347).abs() < 1e-15);
        assert_eq!(score(&slots_at(60, &[]), 1, 60).ndcg, 0.0);
    }

    // Density-subset examples (seed-001 §1.8).
    #[test]
    fn density_examples() {
        // query 1: one group {canonical, raw} at ranks 1 and 4 -> 1.0 (no double counting)
        assert_eq!(score(&slots_at(60, &[(1, 0), (4, 0)]), 1, 60).ndcg, 1.0);
        // query 39: two groups hit at ranks 2 and 11
        let q39 = score(&slots_at(60, &[(2, 0), (11, 1)]), 2, 60);
        let expect = (1.0 / 3f64.log2() + 1.0 / 12f64.log2()) / (1.0 + 1.0 / 3f64.log2());
        assert!((q39.ndcg - expect).abs() < 1e-15);
        assert!((q39.ndcg - 0.5579).abs() < 5e-5);
        // query 32: four groups, eligible ranks {3, 13, 32, 56}, rank 56 repeats a hit group
        let q32 = score(&slots_at(60, &[(3, 0), (13, 1), (32, 2), (56, 0)]), 4, 60);
        assert!((q32.ndcg - 0.37511).abs() < 5e-6, "{}", q32.ndcg);
        assert_eq!(q32.groups_hit, 3);
        assert_eq!(q32.recall, 0.75);
    }

    // conventions.md §3.3 credit-target toy: list [sum7 (from D1:3), D1:2, D1:3, obs (from D1:3)]
    #[test]
    fn credit_target_toy() {
        // Raw: relevant at rank 3
        let raw = score(&slots_at(4, &[(3, 0)]), 1, 10);
        assert!((raw.mrr - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(raw.ndcg, 0.5);
        assert_eq!(score(&slots_at(4, &[(3, 0)]), 1, 1).hit, 0.0, "Hit@1");
        assert_eq!(score(&slots_at(4, &[(3, 0)]), 1, 3).hit, 1.0, "Hit@3");
        // Source, per-item credit: three relevant ids at ranks 1, 3, 4 (id unit: three groups)
        let per_item = score(&slots_at(4, &[(1, 0), (3, 1), (4, 2)]), 3, 10);
        assert!((per_item.ndcg - 0.906025).abs() < 5e-7, "{}", per_item.ndcg);
        // Source deduplicated per source unit: one group -> 1.0
        assert_eq!(score(&slots_at(4, &[(1, 0), (3, 0), (4, 0)]), 1, 10).ndcg, 1.0);
        // Canonical per item (sum7 and obs at ranks 1 and 4, ideal 2)
        let can = score(&slots_at(4, &[(1, 0), (4, 1)]), 2, 10);
        assert!((can.ndcg - 0.877215).abs() < 5e-7, "{}", can.ndcg);
    }

    // conventions.md §3.3 worked example: qrels {A:3, B:2, C:1, D:0}; ranking [C, X, A, B]
    #[test]
    fn graded_worked_example() {
        use crate::conventions::Gain;
        // groups: 0 = A (3), 1 = B (2), 2 = C (1)
        let slots = slots_at(4, &[(1, 2), (3, 0), (4, 1)]);
        let refs: Vec<&[u32]> = slots.iter().map(|v| v.as_slice()).collect();
        let cases = [
            (Gain::Linear, Discount::Log2, 3.361353, 4.761860, 0.705891),
            (Gain::Exponential, Discount::Log2, 5.792030, 9.392789, 0.616646),
            (Gain::Linear, Discount::Lme, 3.892789, 5.630930, 0.691323),
        ];
        for (gain, disc, dcg, idcg, ndcg) in cases {
            let gains: Vec<f64> = [3.0, 2.0, 1.0].iter().map(|&g| gain.of(g)).collect();
            let s = score_slots(&refs, &gains, 10, disc, &mut Scratch::default()).unwrap();
            assert!((s.dcg - dcg).abs() < 5e-7, "{gain:?} {disc:?} dcg {}", s.dcg);
            assert!((s.idcg - idcg).abs() < 5e-7, "{gain:?} {disc:?} idcg {}", s.idcg);
            assert!((s.ndcg - ndcg).abs() < 5e-7, "{gain:?} {disc:?} ndcg {}", s.ndcg);
        }
        // trec_eval ndcg_cut.k (ideal truncated to k)
        let gains = [3.0, 2.0, 1.0];
        for (k, expect) in [(1, 0.333333), (2, 0.234639), (3, 0.525005), (10, 0.705891)] {
            let s = score_slots(&refs, &gains, k, Discount::Log2, &mut Scratch::default()).unwrap();
            assert!((s.ndcg - expect).abs() < 5e-7, "k={k}: {}", s.ndcg);
        }
        // RR(rel>=1) = 1 ; R@2 = 1/3
        let s = score_slots(&refs, &gains, 2, Discount::Log2, &mut Scratch::default()).unwrap();
        assert_eq!(s.mrr, 1.0);
        assert!((s.recall - 1.0 / 3.0).abs() < 1e-15);
    }

    #[test]
    fn multi_anchor_item_credits_one_group_and_keeps_ndcg_bounded() {
        // one item at rank 1 belongs to both groups (a session holding two evidence turns)
        let s = score(&[vec![0, 1]], 2, 60);
        assert!((s.ndcg - 1.0 / (1.0 + 1.0 / 3f64.log2())).abs() < 1e-15);
        assert_eq!(s.recall, 1.0, "both groups are covered");
        // item 1 belongs to {0, 1}, item 2 only to {0}: the matching reroutes item 1 to group 1
        let s = score(&[vec![0, 1], vec![0]], 2, 60);
        assert!((s.ndcg - 1.0).abs() < 1e-15, "{}", s.ndcg);
        assert_eq!(matched_groups(&[&[0, 1], &[0]], 2, 60), vec![Some(1), Some(0)]);
    }

    #[test]
    fn cutoff_and_empty() {
        let s = score(&slots_at(10, &[(5, 0)]), 1, 4);
        assert_eq!((s.ndcg, s.hit, s.mrr, s.first_rank), (0.0, 0.0, 0.0, None));
        assert!(score_slots(&[], &[], 10, Discount::Log2, &mut Scratch::default()).is_none());
        // an empty list against a non-empty target scores 0 everywhere
        let s = score(&[], 2, 10);
        assert_eq!((s.ndcg, s.recall, s.hit, s.mrr, s.top1), (0.0, 0.0, 0.0, 0.0, 0.0));
    }
}
