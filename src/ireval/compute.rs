//! Each trec_eval measure of one query, from its [`JudgedRanking`].
//!
//! Ported line by line from trec_eval 10.0 (`m_*.c`; usnistgov/trec_eval, public domain
//! software of NIST), keeping its loop structure and the order of its floating-point
//! operations so that every printed digit agrees. Written by hand because no Rust crate
//! implements trec_eval's measures; the formulas, with the sources trec_eval cites:
//!
//! ```text
//! map        (1/R) Σ_{relevant retrieved d} P@rank(d)                   (0 when none retrieved)
//! gm_map     log(max(map, 1e-5)) per query, exp(mean) over queries
//! Rprec      (relevant in the first R) / R
//! bpref      (1/R) Σ_{rel d} 1 − min(nonrel above d, R) / min(N, R)     (Buckley & Voorhees 2004)
//! recip_rank 1 / rank of the first relevant document
//! iprec_at_recall_x  max precision at any rank with recall ≥ x          (cutoff round(x·R))
//! P_k        (relevant in the first k) / k
//! recall_k   (relevant in the first k) / R
//! infAP      Yilmaz & Aslam (2006), ε = 1e-5
//! Rprec_mult_x precision at rank ⌊x·R + 0.9⌋
//! utility    a·relret + b·(ret − relret) + c·(R − relret) + d·(N − R − ret + relret)
//! 11pt_avg   mean of iprec_at_recall over the given points
//! binG, G    Kekäläinen & Järvelin (2002) cumulated gain variants
//! ndcg       Σ g(rel_i)/log2(i+1) over the ideal ordering's; gains per level (default: level)
//! ndcg_cut_k the same at depth k with gain = level
//! Rndcg, ndcg_rel  nDCG averaged at the ideal gain boundaries / at the relevant documents
//! map_cut_k  AP truncated at k;  relative_P_k  relret@k / min(k, R);  success_k  1[relret@k > 0]
//! set_*      precision, relative precision, recall, P·R, F_β of the whole retrieved set
//! rbp        (1 − p) Σ_i g(rel_i) p^(i−1), gains scaled into [0, 1]      (Moffat & Zobel 2008)
//! rbp_resid  rbp's residual: the weight of unjudged documents and of the unseen tail
//! unj_k      unjudged documents in the first k / k
//! ```
//! `R` = relevant judgments (value ≥ `-l`), `N` = `-N` documents in the collection.

use super::judged::{JudgedRanking, NONPOOL, UNJUDGED};
use super::measure::{Kind, Measure, Params, TrecEvalVersion};

/// trec_eval's `MIN_GEO_MEAN`.
pub const MIN_GEO_MEAN: f64 = 0.00001;
/// trec_eval's `INFAP_EPSILON`.
const INFAP_EPSILON: f64 = 0.00001;

/// The evaluation options a measure reads.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Context {
    pub relevance_level: i64,
    pub num_docs_in_coll: i64,
    pub version: TrecEvalVersion,
}

/// A measure's per-query result: one number per value name, or a text (`relstring`, `runid`).
#[derive(Debug, Clone, PartialEq)]
pub enum Computed {
    Numbers(Vec<f64>),
    Text(String),
}

/// Computes one measure of one query.
pub fn compute(m: &Measure, rr: &JudgedRanking, ctx: &Context, runid: &str) -> Computed {
    let lvl = ctx.relevance_level;
    let one = |v: f64| Computed::Numbers(vec![v]);
    match (m.kind, &m.params) {
        (Kind::Runid, _) => Computed::Text(runid.to_string()),
        (Kind::NumQ, _) => one(1.0),
        (Kind::NumRet, _) => one(rr.num_ret() as f64),
        (Kind::NumRel, _) => one(rr.num_rel as f64),
        (Kind::NumRelRet, _) => one(rr.num_rel_ret as f64),
        (Kind::Map, _) => one(average_precision(rr, lvl).unwrap_or(0.0)),
        (Kind::GmMap, _) => one(average_precision(rr, lvl).unwrap_or(0.0).max(MIN_GEO_MEAN).ln()),
        (Kind::Rprec, _) => one(rprec(rr, lvl)),
        (Kind::Bpref, _) => one(bpref(rr, lvl)),
        (Kind::GmBpref, _) => one(bpref(rr, lvl).max(MIN_GEO_MEAN).ln()),
        (Kind::RecipRank, _) => one(rr.rels.iter().position(|&r| r >= lvl).map_or(0.0, |i| 1.0 / (i as f64 + 1.0))),
        (Kind::IprecAtRecall, Params::Points(p)) => Computed::Numbers(interpolated_precision(rr, lvl, p, ctx.version)),
        (Kind::ElevenPtAvg, Params::Values(p)) => {
            let v = interpolated_precision(rr, lvl, p, ctx.version);
            let mut sum = 0.0;
            // trec_eval adds the points from the highest cutoff down.
            for x in v.iter().rev() {
                sum += x;
            }
            one(sum / p.len() as f64)
        }
        (Kind::P, Params::Cutoffs(c)) => Computed::Numbers(at_cutoffs(rr, lvl, c, |rel, k| rel as f64 / k as f64)),
        (Kind::Recall, Params::Cutoffs(c)) => {
            if rr.num_rel == 0 {
                return Computed::Numbers(vec![0.0; c.len()]);
            }
            let r = rr.num_rel as f64;
            Computed::Numbers(at_cutoffs(rr, lvl, c, |rel, _| rel as f64 / r))
        }
        (Kind::RelativeP, Params::Cutoffs(c)) => {
            if rr.num_rel == 0 {
                return Computed::Numbers(vec![0.0; c.len()]);
            }
            let r = rr.num_rel;
            Computed::Numbers(at_cutoffs(rr, lvl, c, |rel, k| rel as f64 / (if k > r { r } else { k }) as f64))
        }
        (Kind::Success, Params::Cutoffs(c)) => {
            Computed::Numbers(at_cutoffs(rr, lvl, c, |rel, _| if rel > 0 { 1.0 } else { 0.0 }))
        }
        (Kind::MapCut, Params::Cutoffs(c)) => Computed::Numbers(map_cut(rr, lvl, c)),
        (Kind::Unj, Params::Cutoffs(c)) => {
            let mut unj_so_far = 0i64;
            let mut out = vec![0.0; c.len()];
            let mut ci = 0;
            for (i, &r) in rr.rels.iter().enumerate() {
                if i as i64 == c[ci] {
                    out[ci] = unj_so_far as f64 / i as f64;
                    ci += 1;
                    if ci == c.len() {
                        return Computed::Numbers(out);
                    }
                }
                if r == NONPOOL || r == UNJUDGED {
                    unj_so_far += 1;
                }
            }
            while ci < c.len() {
                out[ci] = unj_so_far as f64 / c[ci] as f64;
                ci += 1;
            }
            Computed::Numbers(out)
        }
        (Kind::NdcgCut, Params::Cutoffs(c)) => Computed::Numbers(ndcg_cut(rr, c)),
        (Kind::Relstring, Params::Values(p)) => {
            let len = (p.first().copied().unwrap_or(10.0) as i64).min(rr.num_ret()).max(0) as usize;
            Computed::Text(
                rr.rels[..len]
                    .iter()
                    .map(|&rel| match rel {
                        r if r > 9 => '>',
                        r if r >= 0 => char::from(b'0' + r as u8),
                        NONPOOL => '-',
                        UNJUDGED => '.',
                        _ => '<',
                    })
                    .collect(),
            )
        }
        (Kind::InfAp, _) => one(inf_ap(rr, lvl)),
        (Kind::RprecMult, Params::Points(p)) => Computed::Numbers(rprec_mult(rr, lvl, p)),
        (Kind::Utility, Params::Values(p)) => {
            let (relret, ret, rel) = (rr.num_rel_ret as f64, rr.num_ret() as f64, rr.num_rel as f64);
            let p = |i: usize| p.get(i).copied().unwrap_or(0.0);
            one(p(0) * relret
                + p(1) * (ret - relret)
                + p(2) * (rel - relret)
                + p(3) * ((ctx.num_docs_in_coll + rr.num_rel_ret - rr.num_ret() - rr.num_rel) as f64))
        }
        (Kind::BinG, _) => {
            let mut rel_so_far = 0i64;
            let mut sum = 0.0;
            for (i, &r) in rr.rels.iter().enumerate() {
                if r >= lvl {
                    rel_so_far += 1;
                    sum += 1.0 / ((3 + i as i64 - rel_so_far) as f64).log2();
                }
            }
            one(if rel_so_far > 0 { sum / rr.num_rel as f64 } else { 0.0 })
        }
        (Kind::G, Params::Pairs(p)) => one(g(rr, &Gains::setup(p, rr))),
        (Kind::Ndcg | Kind::Dcg | Kind::IdealDcg, Params::Pairs(p)) => {
            let (dcg, ideal) = dcg_and_ideal(rr, &Gains::setup(p, rr));
            one(match m.kind {
                Kind::Dcg => dcg,
                Kind::IdealDcg => ideal,
                _ if ideal > 0.0 => dcg / ideal,
                _ => 0.0,
            })
        }
        (Kind::NdcgRel, Params::Pairs(p)) => one(ndcg_rel(rr, &Gains::setup(p, rr))),
        (Kind::Rndcg, Params::Pairs(p)) => {
            if rr.num_rel == 0 {
                return one(0.0);
            }
            one(rndcg(rr, &Gains::setup(p, rr)))
        }
        (Kind::SetP, _) => one(if rr.num_ret() > 0 { rr.num_rel_ret as f64 / rr.num_ret() as f64 } else { 0.0 }),
        (Kind::SetRelativeP, _) => one(if rr.num_ret() > 0 && rr.num_rel > 0 {
            rr.num_rel_ret as f64 / rr.num_ret().min(rr.num_rel) as f64
        } else {
            0.0
        }),
        (Kind::SetRecall, _) => one(if rr.num_rel > 0 { rr.num_rel_ret as f64 / rr.num_rel as f64 } else { 0.0 }),
        (Kind::SetMap, _) => one(if rr.num_ret() > 0 && rr.num_rel > 0 {
            (rr.num_rel_ret as f64 * rr.num_rel_ret as f64) / (rr.num_ret() as f64 * rr.num_rel as f64)
        } else {
            0.0
        }),
        (Kind::SetF, Params::Values(p)) => one(if rr.num_rel_ret > 0 {
            let precision = rr.num_rel_ret as f64 / rr.num_ret() as f64;
            let recall = rr.num_rel_ret as f64 / rr.num_rel as f64;
            let x = p.first().copied().unwrap_or(1.0);
            (x + 1.0) * precision * recall / (x * precision + recall)
        } else {
            0.0
        }),
        (Kind::NumNonrelJudgedRet, _) => {
            one((rr.num_ret() - rr.num_nonpool - rr.num_unjudged_in_pool - rr.num_rel_ret) as f64)
        }
        (Kind::Rbp, Params::Pairs(p)) => one(rbp(rr, p)),
        (Kind::RbpResid, Params::Pairs(p)) => {
            let persistence = rbp_persistence(p);
            let mut unj_so_far = 0;
            let mut sum = 0.0;
            let mut cur_p = 1.0;
            for &r in &rr.rels {
                if r < 0 {
                    unj_so_far += 1;
                    sum += cur_p;
                }
                cur_p *= persistence;
            }
            one(if unj_so_far > 0 { cur_p + (1.0 - persistence) * sum } else { 0.0 })
        }
        // A measure built with parameters of another shape cannot be made by `Measure`.
        (_, _) => Computed::Numbers(vec![0.0; m.names.len()]),
    }
}

/// AP: `Some` when a relevant document was retrieved.
fn average_precision(rr: &JudgedRanking, lvl: i64) -> Option<f64> {
    let mut rel_so_far = 0i64;
    let mut sum = 0.0;
    for (i, &r) in rr.rels.iter().enumerate() {
        if r >= lvl {
            rel_so_far += 1;
            sum += rel_so_far as f64 / (i + 1) as f64;
        }
    }
    (rel_so_far > 0).then(|| sum / rr.num_rel as f64)
}

fn rprec(rr: &JudgedRanking, lvl: i64) -> f64 {
    let n = rr.num_ret().min(rr.num_rel) as usize;
    if n == 0 {
        return 0.0;
    }
    let rel_so_far = rr.rels[..n].iter().filter(|&&r| r >= lvl).count();
    rel_so_far as f64 / rr.num_rel as f64
}

fn bpref(rr: &JudgedRanking, lvl: i64) -> f64 {
    let num_nonrel: i64 = rr.rel_levels.iter().take(lvl.max(0) as usize).sum();
    let mut nonrel_so_far = 0i64;
    let mut bpref = 0.0;
    for &r in &rr.rels {
        if r == NONPOOL || r == UNJUDGED {
            continue;
        }
        if r >= 0 && r < lvl {
            nonrel_so_far += 1;
        } else if nonrel_so_far > 0 {
            bpref += 1.0 - (nonrel_so_far.min(rr.num_rel) as f64 / num_nonrel.min(rr.num_rel) as f64);
        } else {
            bpref += 1.0;
        }
    }
    if rr.num_rel > 0 {
        bpref /= rr.num_rel as f64;
    }
    bpref
}

fn inf_ap(rr: &JudgedRanking, lvl: i64) -> f64 {
    let (mut nonrel_so_far, mut rel_so_far, mut unjudged_so_far) = (0i64, 0i64, 0i64);
    let mut inf_ap = 0.0;
    for (j, &r) in rr.rels.iter().enumerate() {
        if r == NONPOOL {
            continue;
        }
        if r == UNJUDGED {
            unjudged_so_far += 1;
            continue;
        }
        if r >= 0 && r < lvl {
            nonrel_so_far += 1;
        } else {
            rel_so_far += 1;
            if j == 0 {
                inf_ap += 1.0;
            } else {
                let fj = j as f64;
                inf_ap += 1.0 / (fj + 1.0)
                    + (fj / (fj + 1.0))
                        * ((rel_so_far - 1 + nonrel_so_far + unjudged_so_far) as f64 / fj)
                        * (((rel_so_far - 1) as f64 + INFAP_EPSILON)
                            / ((rel_so_far - 1 + nonrel_so_far) as f64 + 2.0 * INFAP_EPSILON));
            }
        }
    }
    if rr.num_rel > 0 {
        inf_ap /= rr.num_rel as f64;
    }
    inf_ap
}

/// The loop shared by P, recall, relative_P and success: `value(relevant so far, k)` at each
/// cutoff `k` (taken before rank k + 1 is counted), then for the cutoffs beyond the list.
fn at_cutoffs(rr: &JudgedRanking, lvl: i64, cutoffs: &[i64], value: impl Fn(i64, i64) -> f64) -> Vec<f64> {
    let mut out = vec![0.0; cutoffs.len()];
    let mut ci = 0;
    let mut rel_so_far = 0i64;
    for (i, &r) in rr.rels.iter().enumerate() {
        if i as i64 == cutoffs[ci] {
            out[ci] = value(rel_so_far, i as i64);
            ci += 1;
            if ci == cutoffs.len() {
                return out;
            }
        }
        if r >= lvl {
            rel_so_far += 1;
        }
    }
    while ci < cutoffs.len() {
        out[ci] = value(rel_so_far, cutoffs[ci]);
        ci += 1;
    }
    out
}

fn map_cut(rr: &JudgedRanking, lvl: i64, cutoffs: &[i64]) -> Vec<f64> {
    let mut out = vec![0.0; cutoffs.len()];
    if rr.num_rel == 0 {
        return out;
    }
    let r = rr.num_rel as f64;
    let mut ci = 0;
    let mut rel_so_far = 0i64;
    let mut sum = 0.0;
    for (i, &rel) in rr.rels.iter().enumerate() {
        if i as i64 == cutoffs[ci] {
            out[ci] = sum / r;
            ci += 1;
            if ci == cutoffs.len() {
                return out;
            }
        }
        if rel >= lvl {
            rel_so_far += 1;
            sum += rel_so_far as f64 / (i + 1) as f64;
        }
    }
    while ci < cutoffs.len() {
        out[ci] = sum / r;
        ci += 1;
    }
    out
}

/// `iprec_at_recall` and `11pt_avg`: interpolated precision at recall points `points` (sorted
/// ascending for iprec_at_recall, as given for 11pt_avg).
fn interpolated_precision(rr: &JudgedRanking, lvl: i64, points: &[f64], version: TrecEvalVersion) -> Vec<f64> {
    let mut out = vec![0.0; points.len()];
    let cutoffs: Vec<i64> = points
        .iter()
        .map(|p| match version {
            // lround: halves away from zero, as f64::round.
            TrecEvalVersion::V10 => (p * rr.num_rel as f64).round() as i64,
            TrecEvalVersion::V9 => (p * rr.num_rel as f64 + 0.9) as i64,
        })
        .collect();
    let mut current = points.len() as i64 - 1;
    while current >= 0 && cutoffs[current as usize] > rr.num_rel_ret {
        current -= 1;
    }
    let mut int_precis = rr.num_rel_ret as f64 / rr.num_ret() as f64;
    let mut rel_so_far = rr.num_rel_ret;
    let mut i = rr.num_ret();
    while i > 0 && rel_so_far > 0 {
        let precis = rel_so_far as f64 / i as f64;
        if int_precis < precis {
            int_precis = precis;
        }
        if rr.rels[(i - 1) as usize] >= lvl {
            while current >= 0 && rel_so_far == cutoffs[current as usize] {
                out[current as usize] = int_precis;
                current -= 1;
            }
            rel_so_far -= 1;
        }
        i -= 1;
    }
    while current >= 0 {
        out[current as usize] = int_precis;
        current -= 1;
    }
    out
}

fn rprec_mult(rr: &JudgedRanking, lvl: i64, points: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; points.len()];
    let cutoffs: Vec<i64> = points.iter().map(|p| (p * rr.num_rel as f64 + 0.9) as i64).collect();
    let mut current = points.len() as i64 - 1;
    while current >= 0 && cutoffs[current as usize] > rr.num_ret() {
        out[current as usize] = rr.num_rel_ret as f64 / cutoffs[current as usize] as f64;
        current -= 1;
    }
    let mut rel_so_far = rr.num_rel_ret;
    let mut i = rr.num_ret();
    while i > 0 && rel_so_far > 0 {
        let precis = rel_so_far as f64 / i as f64;
        while current >= 0 && i == cutoffs[current as usize] {
            out[current as usize] = precis;
            current -= 1;
        }
        if rr.rels[(i - 1) as usize] >= lvl {
            rel_so_far -= 1;
        }
        i -= 1;
    }
    out
}

fn ndcg_cut(rr: &JudgedRanking, cutoffs: &[i64]) -> Vec<f64> {
    let mut out = vec![0.0; cutoffs.len()];
    let mut ci = 0;
    let mut sum = 0.0;
    let mut i = 0usize;
    while i < rr.rels.len() {
        if i as i64 == cutoffs[ci] {
            out[ci] = sum;
            ci += 1;
            if ci == cutoffs.len() {
                break;
            }
        }
        let gain = rr.rels[i] as f64;
        if gain > 0.0 {
            sum += gain / ((i + 2) as f64).log2();
        }
        i += 1;
    }
    while ci < cutoffs.len() {
        out[ci] = sum;
        ci += 1;
    }
    // The ideal ranking: every judgment at its level, highest level first.
    let levels = &rr.rel_levels;
    let mut ci = 0;
    let mut cur_lvl = levels.len() as i64 - 1;
    let mut lvl_count = 0i64;
    let mut ideal = 0.0;
    let mut i = 0i64;
    loop {
        lvl_count += 1;
        while cur_lvl > 0 && lvl_count > levels[cur_lvl as usize] {
            cur_lvl -= 1;
            lvl_count = 1;
        }
        // A query without judgments of a non-negative value has no ideal ranking.
        if cur_lvl <= 0 {
            break;
        }
        if i == cutoffs[ci] {
            if ideal > 0.0 {
                out[ci] /= ideal;
            }
            ci += 1;
            if ci == cutoffs.len() {
                break;
            }
        }
        ideal += cur_lvl as f64 / ((i + 2) as f64).log2();
        i += 1;
    }
    while ci < cutoffs.len() {
        if ideal > 0.0 {
            out[ci] /= ideal;
        }
        ci += 1;
    }
    out
}

/// trec_eval's `GAINS` (`gain_init.c`): one entry per relevance level, sorted by gain.
struct Gains {
    /// (level, gain, judgments at that level), ascending gain.
    levels: Vec<(i64, f64, i64)>,
}

impl Gains {
    /// Gains from `level=gain` pairs (pairs whose name is not an integer are skipped, e.g.
    /// rbp's `p`), every other level with a judgment gaining its own value.
    fn setup(pairs: &[(String, f64)], rr: &JudgedRanking) -> Gains {
        let mut levels: Vec<(i64, f64, i64)> = Vec::new();
        for (name, gain) in pairs {
            if let Some(level) = valid_int(name) {
                levels.push((level, *gain, 0));
            }
        }
        for (i, &count) in rr.rel_levels.iter().enumerate() {
            let i = i as i64;
            match levels.iter_mut().find(|l| l.0 == i) {
                Some(l) => l.2 = count,
                None => levels.push((i, i as f64, count)),
            }
        }
        glibc_merge_sort(&mut levels, &|a, b| (a.1 - b.1) as i32);
        Gains { levels }
    }

    fn gain(&self, level: i64) -> f64 {
        self.levels.iter().find(|l| l.0 == level).map_or(0.0, |l| l.1)
    }
}

/// trec_eval's `valid_int`: an optional sign and at least one digit, nothing else.
fn valid_int(s: &str) -> Option<i64> {
    let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// The merge sort of glibc's `qsort` (`msort.c`): stable, left half first. trec_eval compares
/// gains with `(int)(g1 − g2)`, which is not a total order for gains less than 1 apart, so the
/// result depends on the algorithm; written by hand (the standard library's sorts may panic on
/// such a comparison).
fn glibc_merge_sort<T: Clone>(v: &mut [T], cmp: &dyn Fn(&T, &T) -> i32) {
    let n = v.len();
    if n <= 1 {
        return;
    }
    let n1 = n / 2;
    glibc_merge_sort(&mut v[..n1], cmp);
    glibc_merge_sort(&mut v[n1..], cmp);
    let (left, right) = (v[..n1].to_vec(), v[n1..].to_vec());
    let (mut i, mut j, mut k) = (0, 0, 0);
    while i < left.len() && j < right.len() {
        if cmp(&left[i], &right[j]) <= 0 {
            v[k] = left[i].clone();
            i += 1;
        } else {
            v[k] = right[j].clone();
            j += 1;
        }
        k += 1;
    }
    for x in left[i..].iter().chain(&right[j..]) {
        v[k] = x.clone();
        k += 1;
    }
}

/// Walks the ideal ranking: the gain of the next ideal position (highest gain level first).
struct Ideal<'a> {
    gains: &'a Gains,
    cur_level: i64,
    num_at_level: i64,
    gain: f64,
}

impl<'a> Ideal<'a> {
    fn new(gains: &'a Gains) -> Self {
        let cur_level = gains.levels.len() as i64 - 1;
        let gain = if cur_level >= 0 { gains.levels[cur_level as usize].1 } else { 0.0 };
        Ideal { gains, cur_level, num_at_level: 0, gain }
    }

    fn advance(&mut self) {
        self.num_at_level += 1;
        while self.cur_level >= 0 && self.num_at_level > self.gains.levels[self.cur_level as usize].2 {
            self.num_at_level = 1;
            self.cur_level -= 1;
            self.gain = if self.cur_level >= 0 { self.gains.levels[self.cur_level as usize].1 } else { 0.0 };
        }
    }
}

fn discount(i: usize) -> f64 {
    ((i + 2) as f64).log2()
}

fn dcg_and_ideal(rr: &JudgedRanking, gains: &Gains) -> (f64, f64) {
    let mut dcg = 0.0;
    let mut ideal_dcg = 0.0;
    let mut ideal = Ideal::new(gains);
    // Down the ranking and down the ideal ranking together, each to its own end; the sums are
    // taken in trec_eval's order (the ideal stops for good at its first zero gain).
    let mut i = 0;
    while i < rr.rels.len() || ideal.gain > 0.0 {
        if let Some(&rel) = rr.rels.get(i) {
            let g = gains.gain(rel);
            if g != 0.0 {
                dcg += g / discount(i);
            }
        }
        if ideal.gain > 0.0 {
            ideal.advance();
            if ideal.gain > 0.0 {
                ideal_dcg += ideal.gain / discount(i);
            }
        }
        i += 1;
    }
    (dcg, ideal_dcg)
}

fn ndcg_rel(rr: &JudgedRanking, gains: &Gains) -> f64 {
    let (mut dcg, mut ideal_dcg, mut sum) = (0.0, 0.0, 0.0);
    let (mut num_rel_ret, mut num_rel) = (0i64, 0i64);
    let mut ideal = Ideal::new(gains);
    let mut i = 0;
    while i < rr.rels.len() && ideal.gain > 0.0 {
        let g = gains.gain(rr.rels[i]);
        if g != 0.0 {
            dcg += g / discount(i);
        }
        ideal.advance();
        if ideal.gain > 0.0 {
            num_rel += 1;
            ideal_dcg += ideal.gain / discount(i);
        }
        if g > 0.0 {
            sum += dcg / ideal_dcg;
            num_rel_ret += 1;
        }
        i += 1;
    }
    while i < rr.rels.len() {
        let g = gains.gain(rr.rels[i]);
        if g != 0.0 {
            dcg += g / discount(i);
        }
        if g > 0.0 {
            sum += dcg / ideal_dcg;
            num_rel_ret += 1;
        }
        i += 1;
    }
    while ideal.gain > 0.0 {
        ideal.advance();
        if ideal.gain > 0.0 {
            num_rel += 1;
            ideal_dcg += ideal.gain / discount(i);
        }
        i += 1;
    }
    sum += (num_rel - num_rel_ret) as f64 * dcg / ideal_dcg;
    if sum > 0.0 { sum / num_rel as f64 } else { 0.0 }
}

fn rndcg(rr: &JudgedRanking, gains: &Gains) -> f64 {
    let (mut dcg, mut ideal_dcg) = (0.0, 0.0);
    // The nDCG at each place the ideal gain steps down: their sum and how many.
    let (mut sum, mut changes) = (0.0, 0i64);
    let mut close = |dcg: f64, ideal_dcg: f64| {
        if ideal_dcg > 0.0 {
            sum += dcg / ideal_dcg;
            changes += 1;
        }
    };
    let mut ideal = Ideal::new(gains);
    let mut old_gain = ideal.gain;
    let mut i = 0;
    while i < rr.rels.len() && ideal.gain > 0.0 {
        let g = gains.gain(rr.rels[i]);
        ideal.advance();
        if old_gain != ideal.gain {
            close(dcg, ideal_dcg);
            old_gain = ideal.gain;
        }
        if g != 0.0 {
            dcg += g / discount(i);
        }
        if ideal.gain > 0.0 {
            ideal_dcg += ideal.gain / discount(i);
        }
        i += 1;
    }
    if i < rr.rels.len() {
        while i < rr.rels.len() {
            let g = gains.gain(rr.rels[i]);
            if g != 0.0 {
                dcg += g / discount(i);
            }
            i += 1;
        }
        close(dcg, ideal_dcg);
    }
    while ideal.gain > 0.0 {
        ideal.advance();
        if old_gain != ideal.gain {
            close(dcg, ideal_dcg);
            old_gain = ideal.gain;
        }
        if ideal.gain > 0.0 {
            ideal_dcg += ideal.gain / discount(i);
        }
        i += 1;
    }
    sum / changes as f64
}

fn g(rr: &JudgedRanking, gains: &Gains) -> f64 {
    let (mut results_g, mut sum_results, mut sum_ideal, mut sum_cost) = (0.0, 0.0, 0.0, 0.0);
    let min_cost = 1.0;
    let mut ideal = Ideal::new(gains);
    let mut i = 0;
    while i < rr.rels.len() && ideal.gain > 0.0 {
        let g = gains.gain(rr.rels[i]);
        sum_results += g;
        ideal.advance();
        if ideal.gain > 0.0 {
            sum_ideal += ideal.gain;
        }
        if ideal.gain >= min_cost {
            sum_cost += ideal.gain;
        } else {
            sum_cost += min_cost;
        }
        if g != 0.0 {
            results_g += g / (2.0 + sum_cost - sum_results).log2();
        }
        i += 1;
    }
    while i < rr.rels.len() {
        let g = gains.gain(rr.rels[i]);
        sum_results += g;
        sum_cost += min_cost;
        if g != 0.0 {
            results_g += g / (2.0 + sum_cost - sum_results).log2();
        }
        i += 1;
    }
    while ideal.gain > 0.0 {
        ideal.advance();
        if ideal.gain > 0.0 {
            sum_ideal += ideal.gain;
        }
    }
    if sum_ideal > 0.0 { results_g / sum_ideal } else { 0.0 }
}

/// rbp's persistence `p` (pair `p=…`, default 0.9).
fn rbp_persistence(pairs: &[(String, f64)]) -> f64 {
    pairs.iter().rev().find(|(n, _)| n == "p").map_or(0.9, |(_, v)| *v)
}

/// Rank-biased precision. trec_eval 10.0 reads its gain range from uninitialised variables;
/// here it is the range of the gains, and gains are rescaled into [0, 1] when they leave it.
fn rbp(rr: &JudgedRanking, pairs: &[(String, f64)]) -> f64 {
    let p = rbp_persistence(pairs);
    let mut gains = Gains::setup(pairs, rr);
    let min = gains.levels.iter().map(|l| l.1).fold(f64::INFINITY, f64::min);
    let max = gains.levels.iter().map(|l| l.1).fold(f64::NEG_INFINITY, f64::max);
    if min < 0.0 || max > 1.0 {
        for l in &mut gains.levels {
            l.1 = (l.1 - min) / (max - min);
        }
    }
    let mut sum = 0.0;
    let mut cur_p = 1.0;
    for &r in &rr.rels {
        let g = gains.gain(r);
        if g != 0.0 {
            sum += g * cur_p;
        }
        cur_p *= p;
    }
    (1.0 - p) * sum
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ireval::measure::Selection;

    fn ranking(rels: &[i64], levels: &[i64], num_rel: i64) -> JudgedRanking {
        JudgedRanking {
            rels: rels.to_vec(),
            num_rel,
            num_rel_ret: rels.iter().filter(|&&r| r >= 1).count() as i64,
            num_nonpool: rels.iter().filter(|&&r| r == NONPOOL).count() as i64,
            num_unjudged_in_pool: rels.iter().filter(|&&r| r == UNJUDGED).count() as i64,
            rel_levels: levels.to_vec(),
        }
    }

    fn value(spec: &str, rr: &JudgedRanking) -> Vec<f64> {
        let s = Selection::parse(&[spec.to_string()], TrecEvalVersion::V10).unwrap();
        let ctx = Context { relevance_level: 1, num_docs_in_coll: 0, version: TrecEvalVersion::V10 };
        match compute(&s.measures[0], rr, &ctx, "r") {
            Computed::Numbers(v) => v,
            Computed::Text(t) => panic!("{t}"),
        }
    }

    /// Hand-computed: ranking [rel, non, rel, nonpool, rel], 4 relevant judged, 3 nonrelevant.
    #[test]
    fn hand_computed_binary_ranking() {
        let rr = ranking(&[1, 0, 1, NONPOOL, 1], &[3, 4], 4);
        let ap = (1.0 + 2.0 / 3.0 + 3.0 / 5.0) / 4.0;
        assert!((value("map", &rr)[0] - ap).abs() < 1e-15);
        assert_eq!(value("P.1,2,5,10", &rr), vec![1.0, 0.5, 0.6, 0.3]);
        assert_eq!(value("recip_rank", &rr), vec![1.0]);
        assert_eq!(value("Rprec", &rr), vec![0.5]); // 2 relevant in the first 4
        assert_eq!(value("recall.1,5", &rr), vec![0.25, 0.75]);
        assert_eq!(value("success.1", &rr), vec![1.0]);
        // bpref: relevant at 1 (no nonrel above) 1; at 3 (1 nonrel above) 1 − 1/3; at 5 the same.
        assert!((value("bpref", &rr)[0] - (1.0 + 2.0 * (2.0 / 3.0)) / 4.0).abs() < 1e-15);
        assert_eq!(value("unj.1,4,5", &rr), vec![0.0, 0.25, 0.2]);
        let dcg = 1.0 + 1.0 / 4f64.log2() + 1.0 / 6f64.log2();
        let idcg = 1.0 + 1.0 / 3f64.log2() + 1.0 / 4f64.log2() + 1.0 / 5f64.log2();
        assert!((value("ndcg", &rr)[0] - dcg / idcg).abs() < 1e-15);
        // rbp, p = 0.5, binary gains: 0.5 · (1 + 0.25 + 0.0625).
        assert!((value("rbp.p=0.5", &rr)[0] - 0.5 * 1.3125).abs() < 1e-15);
        // rbp_resid: the nonpool document at rank 4 (weight p³) plus the tail p⁵.
        assert!((value("rbp_resid.p=0.5", &rr)[0] - (0.5f64.powi(5) + 0.5 * 0.125)).abs() < 1e-15);
    }

    #[test]
    fn judged_query_without_relevant_documents_scores_zero() {
        let rr = ranking(&[0, 0, NONPOOL], &[2], 0);
        for spec in ["map", "P.5", "recip_rank", "ndcg", "ndcg_cut.10", "bpref", "Rprec", "recall.5", "map_cut.5"] {
            assert!(value(spec, &rr).iter().all(|&v| v == 0.0), "{spec}");
        }
    }

    #[test]
    fn gains_sort_like_glibc() {
        let mut v = vec![(0, 0.0, 1), (1, 3.0, 1), (2, 9.0, 1), (4, 4.5, 0)];
        glibc_merge_sort(&mut v, &|a: &(i64, f64, i64), b| (a.1 - b.1) as i32);
        assert_eq!(v.iter().map(|l| l.0).collect::<Vec<_>>(), [0, 1, 4, 2]);
    }
}
