//! Aggregation over the per-query nDCG triplet and agreement filtering (TIAP App. B, Table 8;
//! seed-001 §1.7 rows "Aggregation functions", "τ_d" and "Agreement filtering", §4.8).
//!
//! Per system, the **population** is the queries eligible under Raw that the system scored
//! (the paper's "Raw-covered full run", which each run keeps for itself). On each such query q
//! the triplet is (R_q, S_q, C_q) = (nDCG_Raw, nDCG_Source, nDCG_Canonical), where a target
//! under which q is not eligible (no Source or no Canonical target) **falls back to Raw**
//! (S_q = R_q, resp. C_q = R_q). The paper does not state this fallback; the notes find that it
//! reproduces Table 8 (the Canonical row and the ensembles, to 3 d.p.). It is reported with
//! every row as `fallback` = [`FALLBACK_RAW`], with the number of queries that used it.
//!
//! - [`aggregations`]: per system, the means over the population of R_q, S_q, C_q and of
//!   - arithmetic mean (R_q + S_q + C_q) / 3,
//!   - geometric mean ∛(R_q · S_q · C_q) (zeros kept: any zero gives 0),
//!   - minimum min(R_q, S_q, C_q);
//! - [`kendall_from_raw`]: for each of Source, Canonical, arith, geom and min, τ_d = the
//!   number of system pairs ordered one way by the Raw mean and the other way by that column
//!   (Kendall-τ distance, unnormalised, as in Table 8; the maximum is n(n − 1)/2). Ties: a pair
//!   whose means are exactly equal under either column is not discordant and is counted in
//!   `ties`; without ties τ_d equals [`crate::stats::correlation::kendall_tau_distance`] of
//!   the two orderings. Systems with an empty population are left out;
//! - [`agreement`]: per system, the population's queries on which the three targets agree on
//!   Hit@k (all hit or all miss, with the same fallback) are **kept**; `retention` =
//!   kept / n, and the mean per-query spread max(triplet) − min(triplet) over the kept
//!   queries (`spread_kept`) and over the kept all-hit queries (`spread_all_hit`). The paper's
//!   "mean per-query spreads between 0.16 and 0.30" does not say which sub-population; the
//!   notes find 0.12–0.20 on all kept and 0.17–0.28 on kept all-hit queries, so both are
//!   reported, labelled.
//!
//! Everything is computed when at least two targets are compared (with Raw only, the triplet
//! is Raw three times and the tables are empty, like `instability`).

use serde::{Deserialize, Serialize};

use super::mean;
use crate::dataset::Dataset;
use crate::metrics::ListScore;
use crate::model::Target;
use crate::rescore::Rescored;

/// The population label of every row: queries eligible under Raw that the system scored.
pub const POPULATION_RAW_ELIGIBLE: &str = "raw_eligible";
/// The fallback label: Source and Canonical take the Raw value on queries not eligible for
/// them (the paper's unstated convention behind Table 8, seed-001 §4.8).
pub const FALLBACK_RAW: &str = "raw";
/// The columns τ_d is computed for, in order.
pub const AGGREGATIONS: [&str; 5] = ["source", "canonical", "arith", "geom", "min"];

/// One row of `aggregations`: a system's means over its population.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AggregationRow {
    pub system: String,
    /// [`POPULATION_RAW_ELIGIBLE`].
    pub population: String,
    /// [`FALLBACK_RAW`].
    pub fallback: String,
    pub n: usize,
    /// Population queries not eligible under Source (their S_q is R_q).
    pub source_fallback: usize,
    /// Population queries not eligible under Canonical (their C_q is R_q).
    pub canonical_fallback: usize,
    pub raw: Option<f64>,
    pub source: Option<f64>,
    pub canonical: Option<f64>,
    pub arith: Option<f64>,
    pub geom: Option<f64>,
    pub min: Option<f64>,
}

impl AggregationRow {
    /// The mean under a column of [`AGGREGATIONS`] (or `raw`).
    pub fn value(&self, column: &str) -> Option<f64> {
        match column {
            "raw" => self.raw,
            "source" => self.source,
            "canonical" => self.canonical,
            "arith" => self.arith,
            "geom" => self.geom,
            "min" => self.min,
            _ => None,
        }
    }
}

/// One row of `kendall_from_raw`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KendallRow {
    /// A column of [`AGGREGATIONS`].
    pub aggregation: String,
    /// Systems ranked (those with a non-empty population).
    pub systems: usize,
    /// Discordant system pairs against the Raw ordering.
    pub tau_d: usize,
    /// n(n − 1)/2.
    pub max: usize,
    /// Pairs exactly tied under Raw or under this column (never discordant).
    pub ties: usize,
    /// The systems by this column, best first (ties in system order), joined by ` > `.
    pub order: String,
}

/// One row of `agreement`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AgreementRow {
    pub system: String,
    pub population: String,
    pub fallback: String,
    pub n: usize,
    /// Queries where Raw, Source and Canonical agree on Hit@k.
    pub kept: usize,
    /// kept / n.
    pub retention: Option<f64>,
    /// Mean of max − min of the nDCG triplet over the kept queries.
    pub spread_kept: Option<f64>,
    /// Kept queries that are a hit under all three targets.
    pub n_all_hit: usize,
    /// Mean spread over the kept all-hit queries.
    pub spread_all_hit: Option<f64>,
}

/// The per-query triplets of system `s` over its population, with the fallback counts
/// (source, canonical).
pub fn triplets(r: &Rescored, s: usize) -> (Vec<[&ListScore; 3]>, usize, usize) {
    let (mut src_fb, mut can_fb) = (0, 0);
    let mut out = Vec::new();
    for q in 0..r.n_queries {
        let Some(raw) = r.cell(s, q, Target::Raw).counted() else { continue };
        let src = r.cell(s, q, Target::Source).counted().unwrap_or_else(|| {
            src_fb += 1;
            raw
        });
        let can = r.cell(s, q, Target::Canonical).counted().unwrap_or_else(|| {
            can_fb += 1;
            raw
        });
        out.push([raw, src, can]);
    }
    (out, src_fb, can_fb)
}

/// Whether the tables are computed: at least two targets compared (see the module doc).
fn applies(compared: &[Target]) -> bool {
    compared.len() >= 2 && compared.contains(&Target::Raw)
}

fn ndcg3(t: &[&ListScore; 3]) -> [f64; 3] {
    [t[0].ndcg, t[1].ndcg, t[2].ndcg]
}

/// Per system: means of the triplet's members and of its arithmetic mean, geometric mean and
/// minimum over the population (see the module doc).
pub fn aggregations(ds: &Dataset, r: &Rescored, compared: &[Target]) -> Vec<AggregationRow> {
    if !applies(compared) {
        return Vec::new();
    }
    (0..r.n_systems)
        .map(|s| {
            let (ts, source_fallback, canonical_fallback) = triplets(r, s);
            let col = |f: &dyn Fn([f64; 3]) -> f64| mean(&ts.iter().map(|t| f(ndcg3(t))).collect::<Vec<_>>());
            AggregationRow {
                system: ds.systems[s].clone(),
                population: POPULATION_RAW_ELIGIBLE.to_string(),
                fallback: FALLBACK_RAW.to_string(),
                n: ts.len(),
                source_fallback,
                canonical_fallback,
                raw: col(&|x| x[0]),
                source: col(&|x| x[1]),
                canonical: col(&|x| x[2]),
                arith: col(&|x| (x[0] + x[1] + x[2]) / 3.0),
                geom: col(&|x| (x[0] * x[1] * x[2]).cbrt()),
                min: col(&|x| x[0].min(x[1]).min(x[2])),
            }
        })
        .collect()
}

/// τ_d of each column of [`AGGREGATIONS`] from the Raw ordering (see the module doc).
pub fn kendall_from_raw(rows: &[AggregationRow]) -> Vec<KendallRow> {
    if rows.is_empty() {
        return Vec::new();
    }
    let ranked: Vec<&AggregationRow> = rows.iter().filter(|r| r.raw.is_some()).collect();
    let n = ranked.len();
    AGGREGATIONS
        .iter()
        .map(|&agg| {
            let (mut tau_d, mut ties) = (0, 0);
            for i in 0..n {
                for j in i + 1..n {
                    let (ri, rj) = (ranked[i].raw.unwrap_or(0.0), ranked[j].raw.unwrap_or(0.0));
                    let (ai, aj) = (ranked[i].value(agg).unwrap_or(0.0), ranked[j].value(agg).unwrap_or(0.0));
                    if ri == rj || ai == aj {
                        ties += 1;
                    } else if (ri > rj) != (ai > aj) {
                        tau_d += 1;
                    }
                }
            }
            let mut order: Vec<&AggregationRow> = ranked.clone();
            // Stable: ties keep system order.
            order.sort_by(|a, b| b.value(agg).unwrap_or(0.0).total_cmp(&a.value(agg).unwrap_or(0.0)));
            KendallRow {
                aggregation: agg.to_string(),
                systems: n,
                tau_d,
                max: n * n.saturating_sub(1) / 2,
                ties,
                order: order.iter().map(|r| r.system.as_str()).collect::<Vec<_>>().join(" > "),
            }
        })
        .collect()
}

/// Per system: agreement on Hit@k across the triplet and the nDCG spread (see the module doc).
pub fn agreement(ds: &Dataset, r: &Rescored, compared: &[Target]) -> Vec<AgreementRow> {
    if !applies(compared) {
        return Vec::new();
    }
    (0..r.n_systems)
        .map(|s| {
            let (ts, _, _) = triplets(r, s);
            let n = ts.len();
            let spread = |t: &[&ListScore; 3]| {
                let x = ndcg3(t);
                x[0].max(x[1]).max(x[2]) - x[0].min(x[1]).min(x[2])
            };
            let kept: Vec<&[&ListScore; 3]> =
                ts.iter().filter(|t| t[0].hit == t[1].hit && t[1].hit == t[2].hit).collect();
            let all_hit: Vec<f64> = kept.iter().filter(|t| t[0].hit == 1.0).map(|t| spread(t)).collect();
            AgreementRow {
                system: ds.systems[s].clone(),
                population: POPULATION_RAW_ELIGIBLE.to_string(),
                fallback: FALLBACK_RAW.to_string(),
                n,
                kept: kept.len(),
                retention: if n > 0 { Some(kept.len() as f64 / n as f64) } else { None },
                spread_kept: mean(&kept.iter().map(|t| spread(t)).collect::<Vec<_>>()),
                n_all_hit: all_hit.len(),
                spread_all_hit: mean(&all_hit),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::compared_targets;
    use crate::conventions::Settings;
    use crate::rescore::rescore;
    use crate::stats::correlation::kendall_tau_distance;

    /// Single-anchor queries, credit at ranks 1–2 only, so every nDCG is 1, 0 or
    /// L = 1/log2(3). Raw turns r1…r4 and x; canonical c1, c2, c3 descend from r1, r2, r3 (r4
    /// has none: q4 falls back to Raw under Canonical); q5 has no evidence (in no population).
    /// Triplets (R, S, C):
    /// - a: q1 [c1, r1] (L, 1, 1); q2 [r2, c2] (1, 1, L); q3 [x] (0, 0, 0); q4 [r4] (1, 1, 1*)
    /// - b: q1 [c1] (0, 1, 1); q2 [x, r2] (L, L, 0); q3 [c3] (0, 1, 1); q4 [x] (0, 0, 0*)
    /// - c: q1 [c1] (0, 1, 1); q2 [c2] (0, 1, 1); q3 [c3] (0, 1, 1); q4 [r4] (1, 1, 1*)
    fn bundle() -> Dataset {
        let mut m = String::new();
        for id in ["r1", "r2", "r3", "r4", "x"] {
            m += &format!("{{\"memory_id\":\"{id}\",\"anchors\":[\"{id}\"],\"raw\":true}}\n");
        }
        for i in [1, 2, 3] {
            m += &format!("{{\"memory_id\":\"c{i}\",\"anchors\":[\"r{i}\"],\"canonical\":true}}\n");
        }
        let mut q = String::new();
        for i in 1..=4 {
            q += &format!("{{\"query_id\":\"q{i}\",\"evidence\":[\"r{i}\"]}}\n");
        }
        q += "{\"query_id\":\"q5\",\"evidence\":[]}\n";
        let lists: [(&str, [&str; 5]); 3] = [
            ("a", ["\"c1\",\"r1\"", "\"r2\",\"c2\"", "\"x\"", "\"r4\"", "\"x\""]),
            ("b", ["\"c1\"", "\"x\",\"r2\"", "\"c3\"", "\"x\"", "\"x\""]),
            ("c", ["\"c1\"", "\"c2\"", "\"c3\"", "\"r4\"", "\"x\""]),
        ];
        let mut runs = String::new();
        for (s, ranked) in lists {
            for (i, list) in ranked.iter().enumerate() {
                runs += &format!("{{\"system\":\"{s}\",\"query_id\":\"q{}\",\"ranked\":[{list}]}}\n", i + 1);
            }
        }
        Dataset::from_jsonl(&m, &q, &runs)
    }

    fn close(x: Option<f64>, y: Option<f64>) -> bool {
        match (x, y) {
            (Some(x), Some(y)) => (x - y).abs() < 1e-12,
            (None, None) => true,
            _ => false,
        }
    }

    #[test]
    fn aggregations_kendall_and_agreement_by_hand() {
        let ds = bundle();
        let settings = Settings { bootstrap: 0, ..Settings::default() };
        let r = rescore(&ds, &settings, &mut |_| {});
        let compared = compared_targets(&r);
        assert_eq!(compared, [Target::Raw, Target::Source, Target::Canonical]);
        let l = 1.0 / 3f64.log2();
        let g = l.cbrt();

        let rows = aggregations(&ds, &r, &compared);
        // (system, n, source_fallback, canonical_fallback, raw, source, canonical, arith, geom, min)
        type Want = (&'static str, usize, usize, usize, [f64; 6]);
        #[rustfmt::skip]
        let want: [Want; 3] = [
            ("a", 4, 0, 1, [(2.0 + l) / 4.0, 0.75, (2.0 + l) / 4.0, (7.0 + 2.0 * l) / 12.0, (2.0 * g + 1.0) / 4.0, (2.0 * l + 1.0) / 4.0]),
            ("b", 4, 0, 1, [l / 4.0, (2.0 + l) / 4.0, 0.5, (4.0 + 2.0 * l) / 12.0, 0.0, 0.0]),
            ("c", 4, 0, 1, [0.25, 1.0, 1.0, 0.75, 0.25, 0.25]),
        ];
        assert_eq!(rows.len(), 3);
        for (row, w) in rows.iter().zip(want) {
            assert_eq!((row.system.as_str(), row.n, row.source_fallback, row.canonical_fallback), (w.0, w.1, w.2, w.3));
            assert_eq!((row.population.as_str(), row.fallback.as_str()), ("raw_eligible", "raw"));
            for (col, v) in ["raw", "source", "canonical", "arith", "geom", "min"].iter().zip(w.4) {
                assert!(close(row.value(col), Some(v)), "{} {col}: {:?} vs {v}", w.0, row.value(col));
            }
        }

        // Raw: a > c > b. Source, Canonical, arith: c > a > b (one discordant pair, a–c);
        // geom and min: a > c > b.
        let k = kendall_from_raw(&rows);
        let got: Vec<(&str, usize, usize, usize, usize, &str)> =
            k.iter().map(|k| (k.aggregation.as_str(), k.systems, k.tau_d, k.max, k.ties, k.order.as_str())).collect();
        assert_eq!(
            got,
            [
                ("source", 3, 1, 3, 0, "c > a > b"),
                ("canonical", 3, 1, 3, 0, "c > a > b"),
                ("arith", 3, 1, 3, 0, "c > a > b"),
                ("geom", 3, 0, 3, 0, "a > c > b"),
                ("min", 3, 0, 3, 0, "a > c > b"),
            ]
        );
        // Without ties τ_d is the stats crate's Kendall distance of the two orderings.
        let raw_order = ["a", "c", "b"];
        for k in &k {
            let order: Vec<&str> = k.order.split(" > ").collect();
            assert_eq!(kendall_tau_distance(&raw_order, &order).unwrap().discordant, k.tau_d, "{}", k.aggregation);
        }

        // a: all four agree (3 all-hit: q1, q2 spread 1 − L, q4 spread 0; q3 all-miss);
        // b: only q4 (all-miss); c: only q4 (all-hit, spread 0).
        let ag = agreement(&ds, &r, &compared);
        type WantAg = (&'static str, usize, usize, Option<f64>, Option<f64>, usize, Option<f64>);
        let want: [WantAg; 3] = [
            ("a", 4, 4, Some(1.0), Some((2.0 - 2.0 * l) / 4.0), 3, Some((2.0 - 2.0 * l) / 3.0)),
            ("b", 4, 1, Some(0.25), Some(0.0), 0, None),
            ("c", 4, 1, Some(0.25), Some(0.0), 1, Some(0.0)),
        ];
        for (row, w) in ag.iter().zip(want) {
            assert_eq!((row.system.as_str(), row.n, row.kept, row.n_all_hit), (w.0, w.1, w.2, w.5));
            assert!(close(row.retention, w.3), "{} retention", w.0);
            assert!(close(row.spread_kept, w.4), "{} spread_kept {:?}", w.0, row.spread_kept);
            assert!(close(row.spread_all_hit, w.6), "{} spread_all_hit", w.0);
        }
    }

    #[test]
    fn exact_ties_are_never_discordant() {
        let row = |system: &str, raw: f64, geom: f64| AggregationRow {
            system: system.into(),
            population: POPULATION_RAW_ELIGIBLE.into(),
            fallback: FALLBACK_RAW.into(),
            n: 1,
            source_fallback: 0,
            canonical_fallback: 0,
            raw: Some(raw),
            source: Some(raw),
            canonical: Some(raw),
            arith: Some(raw),
            geom: Some(geom),
            min: Some(raw),
        };
        let mut rows = vec![row("a", 0.5, 0.1), row("b", 0.4, 0.1), row("c", 0.3, 0.2)];
        rows.push(AggregationRow { n: 0, raw: None, geom: None, ..row("empty", 0.0, 0.0) });
        let k = kendall_from_raw(&rows);
        let geom = k.iter().find(|k| k.aggregation == "geom").unwrap();
        // a–b tied under geom; a–c and b–c discordant; `empty` is not ranked.
        assert_eq!((geom.systems, geom.tau_d, geom.ties, geom.max), (3, 2, 1, 3));
        assert_eq!(geom.order, "c > a > b");
        let src = k.iter().find(|k| k.aggregation == "source").unwrap();
        assert_eq!((src.tau_d, src.ties), (0, 0));
    }

    #[test]
    fn raw_only_gives_empty_tables() {
        let ds = bundle();
        let r = rescore(&ds, &Settings { bootstrap: 0, ..Settings::default() }, &mut |_| {});
        assert!(aggregations(&ds, &r, &[Target::Raw]).is_empty());
        assert!(agreement(&ds, &r, &[Target::Raw]).is_empty());
        assert!(kendall_from_raw(&[]).is_empty());
    }
}
