//! What a paired comparison says, first: arms that could not be paired as given, how many
//! contrasts differ after the Holm correction (and which), the Friedman test, and the best arm.

use super::engine::{Comparison, UnpairedArms};
use super::run::CompareOutput;
use super::table::CompareTable;
use crate::headline::{Headline, Level, count, difference, p_value, percent, some_of};

/// The headlines of a comparison (unranked: see [`crate::headline::rank`]).
pub fn headlines(out: &CompareOutput) -> Vec<Headline> {
    let c = &out.comparison;
    let mut hs = Vec::new();
    let p = &out.pairing;
    if p.restricted_to_complete && p.items_used < p.n_items {
        let missing: Vec<String> = p
            .arms
            .iter()
            .filter(|a| a.items_without_row + a.items_without_value > 0)
            .map(|a| format!("{}: {} missing", a.arm, a.items_without_row + a.items_without_value))
            .collect();
        hs.push(Headline::alert(
            format!(
                "Not every arm has every item: the comparison uses only the {} of {} items that all arms have",
                p.items_used, p.n_items
            ),
            some_of(&missing, 4),
            CompareTable::Arms,
        ));
    }
    if p.duplicates.cells > 0 {
        hs.push(Headline::finding(
            format!(
                "{} had repeated rows; {}",
                count(p.duplicates.cells, "(item, arm) cell", "(item, arm) cells"),
                if p.duplicates.aggregated { "their values were averaged" } else { "see the pairing report" }
            ),
            format!("{} surplus row(s); the value is {}", p.duplicates.surplus_rows, p.value),
            CompareTable::Arms,
        ));
    }
    hs.extend(of_comparison(c, &ComparisonTables::of_compare()));
    hs.extend(super::judges::judges_headlines(&c.judges));
    hs
}

/// The tables a comparison's headlines point to.
pub struct ComparisonTables {
    pub arms: &'static str,
    pub pairs: &'static str,
    pub friedman: &'static str,
    pub strata: &'static str,
    pub matched: &'static str,
}

impl ComparisonTables {
    fn of_compare() -> Self {
        ComparisonTables {
            arms: CompareTable::Arms.name(),
            pairs: CompareTable::Pairs.name(),
            friedman: CompareTable::Friedman.name(),
            strata: CompareTable::Strata.name(),
            matched: CompareTable::Matched.name(),
        }
    }
}

/// What a comparison says (also the IR evaluation's comparison of runs): the contrasts that
/// differ after Holm, the Friedman test, the best arm.
pub fn of_comparison(c: &Comparison, tables: &ComparisonTables) -> Vec<Headline> {
    let s = &c.settings;
    let mut hs = Vec::new();
    let correction = format!("Holm correction over {} contrast(s), α = {}", c.pairs.len(), s.alpha);
    let significant: Vec<_> = c.pairs.iter().filter(|r| r.significant).collect();
    if !c.pairs.is_empty() {
        let text = if significant.is_empty() {
            format!("No contrast differs after the {correction}")
        } else {
            format!("{} of {} contrasts differ after the {correction}", significant.len(), c.pairs.len())
        };
        let smallest = c.pairs.iter().map(|r| r.p_holm).fold(f64::INFINITY, f64::min);
        hs.push(Headline::new(
            if significant.is_empty() { Level::Context } else { Level::Finding },
            text,
            format!("smallest Holm-adjusted p {}; tests: {}", p_value(smallest), tests(c)),
            Some(tables.pairs),
        ));
    }
    let method = format!("{}% {} bootstrap, B = {}, seed {}", percent(1.0 - s.alpha), ci_name(s), s.bootstrap, s.seed);
    for r in significant.iter().take(3) {
        let (winner, loser) = if (r.diff > 0.0) == s.higher_is_better { (&r.a, &r.b) } else { (&r.b, &r.a) };
        hs.push(Headline::new(
            Level::Finding,
            format!("{winner} does better than {loser}"),
            format!(
                "{} − {}: {}; Holm p {} ({}); {method}",
                r.a,
                r.b,
                difference(r.diff, Some(r.ci_low), Some(r.ci_high), r.n_pairs),
                p_value(r.p_holm),
                r.test.name()
            ),
            Some(tables.pairs),
        ));
    }
    hs.extend(baseline_ladder(c, tables));
    hs.extend(localization(c, tables));
    for k in &c.costs {
        if let Some(n) = &k.note {
            hs.push(Headline::new(
                Level::Finding,
                format!("The cost `{}` could not be compared", k.column),
                n.clone(),
                Some(tables.matched),
            ));
        }
        for m in &k.matched {
            let evidence = format!(
                "mean {} per item {:.4} vs {:.4}: {} − {} = {}; paired {}% bootstrap",
                k.column,
                m.control_mean,
                m.arm_mean,
                m.control,
                m.arm,
                difference(m.diff, Some(m.ci_low), Some(m.ci_high), c.n_items),
                percent(1.0 - s.alpha)
            );
            hs.push(if m.differs {
                Headline::new(
                    Level::Alert,
                    format!("{} is not compute-matched to {}: its {} differ", m.control, m.arm, k.column),
                    evidence,
                    Some(tables.matched),
                )
            } else {
                Headline::new(
                    Level::Context,
                    format!("{} is compute-matched to {} in {} (the interval includes 0)", m.control, m.arm, k.column),
                    evidence,
                    Some(tables.matched),
                )
            });
        }
    }
    for r in c.pairs.iter().filter(|r| r.wins == 0 && r.losses == 0 && r.n_pairs > 0).take(3) {
        hs.push(Headline::new(
            Level::Finding,
            format!("{} and {} give the same outcome on every item: a contrast between them is degenerate", r.a, r.b),
            format!(
                "0 items differ of {} (mean {:.3} both): the contrast has nothing to test; when one is a \
                 compute-matched control of the other, it separates no compute effect",
                r.n_pairs, r.mean_a
            ),
            Some(tables.pairs),
        ));
    }
    // With two arms Friedman's test is the sign test of the one contrast headlined above: no
    // second headline for it (its numbers stay in the `friedman` table and the JSON).
    if let Some(f) = c.friedman.as_ref().filter(|f| f.k >= 3) {
        let differ = f.p_tie_corrected < f.alpha;
        hs.push(Headline::new(
            if differ { Level::Finding } else { Level::Context },
            if differ {
                format!("The {} arms' ranks differ (Friedman test)", f.k)
            } else {
                format!("The Friedman test finds no difference among the {} arms' ranks", f.k)
            },
            format!(
                "χ² = {:.3}, p {} (ties corrected), {} blocks; Nemenyi CD = {:.3} at α = {}; groups not told apart: {}",
                f.chi2_tie_corrected,
                p_value(f.p_tie_corrected),
                f.n_blocks,
                f.cd,
                f.alpha,
                if f.cliques.is_empty() {
                    "none".to_string()
                } else {
                    // Many arms make long groups: a few names of each, the rest in the table.
                    let groups: Vec<String> =
                        f.cliques.iter().take(SHOWN).map(|g| format!("{{{}}}", some_of(g, SHOWN))).collect();
                    let more = f.cliques.len().saturating_sub(SHOWN);
                    if more > 0 { format!("{} and {more} more", groups.join(" ")) } else { groups.join(" ") }
                }
            ),
            Some(tables.friedman),
        ));
    }
    let best = c.arms.iter().max_by(|x, y| {
        let o = x.mean.total_cmp(&y.mean);
        if s.higher_is_better { o } else { o.reverse() }
    });
    if let Some(best) = best
        && c.arms.len() > 1
    {
        // Arms tied for the best mean are named together, never one of them picked.
        let tied: Vec<&str> = c.arms.iter().filter(|a| a.mean == best.mean).map(|a| a.arm.as_str()).collect();
        let word = if s.higher_is_better { "highest" } else { "lowest" };
        let text = match tied.as_slice() {
            [_] => format!("{} has the {word} mean over {} items", best.arm, c.n_items),
            [a, b] => format!("{a} and {b} share the {word} mean over {} items", c.n_items),
            many => {
                format!("{} arms share the {word} mean over {} items: {}", many.len(), c.n_items, some_of(many, SHOWN))
            }
        };
        // Every arm's mean when they are few; with many, the best few (the rest in the table).
        let means = if c.arms.len() <= SHOWN {
            format!(
                "means: {}",
                c.arms.iter().map(|a| format!("{} {:.3}", a.arm, a.mean)).collect::<Vec<_>>().join(", ")
            )
        } else {
            let mut ranked: Vec<&super::engine::ArmRow> = c.arms.iter().collect();
            ranked.sort_by(|x, y| {
                let o = y.mean.total_cmp(&x.mean);
                if s.higher_is_better { o } else { o.reverse() }
            });
            format!(
                "means of the {SHOWN} best of {} arms: {}",
                c.arms.len(),
                ranked.iter().take(SHOWN).map(|a| format!("{} {:.3}", a.arm, a.mean)).collect::<Vec<_>>().join(", ")
            )
        };
        hs.push(Headline::new(
            Level::Context,
            text,
            format!("{means}; each arm's {} interval is in the arms table", best.ci_method),
            Some(tables.arms),
        ));
    }
    hs
}

/// The most arms (or groups of arms) a headline names; the rest are in its table.
const SHOWN: usize = 12;

/// Strata of `--per` that hold more (or fewer) of a contrast's helps − hurts than random strata
/// of their size: the one-sided randomization p in the observed direction, Holm-adjusted over
/// every (stratum, contrast) tested.
fn localization(c: &Comparison, tables: &ComparisonTables) -> Vec<Headline> {
    let rows: Vec<(&super::engine::StratumComparison, &super::PairRow, f64)> = c
        .by_stratum
        .iter()
        .flat_map(|s| s.pairs.iter().map(move |p| (s, p)))
        .filter_map(|(s, p)| {
            let (e, g, l) = (p.interaction_expected?, p.interaction_p_greater?, p.interaction_p_less?);
            let observed = p.b_count? as f64 - p.c_count? as f64;
            Some((s, p, if observed >= e { g } else { l }))
        })
        .collect();
    let adjusted = crate::stats::multiplicity::holm(&rows.iter().map(|r| r.2).collect::<Vec<_>>());
    rows.iter()
        .zip(adjusted)
        .filter(|(_, h)| *h < c.settings.alpha)
        .take(3)
        .map(|((s, p, raw), h)| {
            let observed = p.b_count.unwrap_or(0) as i64 - p.c_count.unwrap_or(0) as i64;
            let e = p.interaction_expected.unwrap_or(0.0);
            Headline::new(
                Level::Finding,
                format!(
                    "{} − {}: {} of the helps − hurts than chance fall where {} = {}",
                    p.a,
                    p.b,
                    if observed as f64 >= e { "more" } else { "fewer" },
                    s.column,
                    s.value
                ),
                format!(
                    "S = {observed} in {} items vs E[S] = {e:+.2}; one-sided randomization p {}, Holm p {} over {} stratum contrasts",
                    s.n_items,
                    p_value(*raw),
                    p_value(h),
                    rows.len()
                ),
                Some(tables.strata),
            )
        })
        .collect()
}

fn tests(c: &super::Comparison) -> String {
    crate::distinct::first_seen(c.pairs.iter().map(|r| r.test.name())).join(", ")
}

fn ci_name(s: &super::CompareSettings) -> &'static str {
    match s.ci {
        super::CiMethod::Bca => "BCa",
        super::CiMethod::Percentile => "percentile",
    }
}

/// What a refused pairing says: that no contrast was drawn and why (the reason is the
/// refusal's own message: a missing arm column, missing items, …), and each arm on its own.
pub fn of_refusal(message: &str, unpaired: Option<&UnpairedArms>) -> Vec<Headline> {
    // Rows of one arm (one system's file): nothing to compare, said as such.
    let one_arm = unpaired.and_then(UnpairedArms::one_arm);
    let (level, first) = match one_arm {
        Some(arm) => (
            Level::Context,
            format!("One arm only (`{arm}`): nothing to compare, its values are summarised on their own"),
        ),
        None => {
            (Level::Alert, "No paired comparison was drawn: the rows do not give each arm's value per item".to_string())
        }
    };
    let mut hs = vec![Headline::new(level, first, message.to_string(), None)];
    if let Some(u) = unpaired {
        if !u.arms.is_empty() {
            hs.push(Headline::new(
                Level::Context,
                "Each arm on its own, without pairing",
                format!(
                    "{}; {}",
                    u.arms
                        .iter()
                        .map(|a| format!(
                            "{} {}",
                            a.label(),
                            difference(a.mean, Some(a.ci_low), Some(a.ci_high), a.n).trim_start_matches('+')
                        ))
                        .collect::<Vec<_>>()
                        .join("; "),
                    u.settings
                ),
                None,
            ));
        }
        for (arm, n) in &u.too_few {
            hs.push(Headline::new(
                Level::Finding,
                format!("{arm} has {} too few for an interval", count(*n, "value:", "values:")),
                String::new(),
                None,
            ));
        }
        hs.extend(super::judges::judges_headlines(&u.judges));
    }
    hs
}

/// The baseline ladder (seed-000 §5 item 7): a method that does worse than the plain baseline
/// arm (BM25), with the pair's interval excluding 0, is an alert — the comparison's other wins
/// are then over weaker baselines.
fn baseline_ladder(c: &Comparison, tables: &ComparisonTables) -> Vec<Headline> {
    let s = &c.settings;
    let arms: Vec<String> = c.arms.iter().map(|a| a.arm.clone()).collect();
    let Some(base) = s.baseline_arm(&arms) else { return Vec::new() };
    let losers: Vec<&super::engine::PairRow> = c
        .pairs
        .iter()
        .filter(|r| r.a == base || r.b == base)
        .filter(|r| {
            // the baseline's advantage: positive when the baseline is better
            let sign = if r.a == base { 1.0 } else { -1.0 } * if s.higher_is_better { 1.0 } else { -1.0 };
            let (lo, hi) = (sign * r.ci_low, sign * r.ci_high);
            lo.min(hi) > 0.0
        })
        .collect();
    losers
        .iter()
        .map(|r| {
            let other = if r.a == base { &r.b } else { &r.a };
            Headline::new(
                Level::Alert,
                format!("{other} does worse than the plain baseline {base}"),
                format!(
                    "{} − {}: {} ({}% {} interval excludes 0); a method should at least beat {base} (the baseline ladder)",
                    r.a,
                    r.b,
                    difference(r.diff, Some(r.ci_low), Some(r.ci_high), r.n_pairs),
                    percent(1.0 - s.alpha),
                    ci_name(s)
                ),
                Some(tables.pairs),
            )
        })
        .collect()
}
