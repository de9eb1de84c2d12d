//! The tables, text and LaTeX of a [`Comparison`] (`memaudit compare --format csv --table NAME`,
//! `--format table`, `--format latex`): the same [`Table`]s feed the CLI and the viewer.

use super::engine::{
    ArmRow, Comparison, FriedmanRow, MeanRank, PairItem, PairRow, PairedTest, StratumComparison, UnpairedArms,
};
use super::unit::{ArmItem, ItemsView};
use crate::outcomes::{ArmCoverage, PairingReport};
use crate::report::{Column, Table, flag, num, opt, p_value, render_columns};

crate::choice! {
    /// Tables a comparison can be exported as (`--table NAME`).
    pub enum CompareTable {
        Arms,
        Pairs,
        Ranks,
        Friedman,
        /// The contrasts within each value of `--per` (empty without it).
        Strata,
        /// Each arm's mean cost per `--cost` column.
        Costs,
        /// Each `--matched` control's cost against its arm.
        Matched,
        /// How often each system's judgments agree (judge files with several verdicts per item).
        Judges,
    }
}

const ARMS: &[Column<ArmRow>] = &crate::columns![ArmRow;
    "arm" => |a| a.arm.clone(),
    /// Items with a value in this arm (paired: the items every arm has).
    "n" => |a| a.n.to_string(),
    /// The arm's mean.
    "mean" => |a| num(Some(a.mean)),
    /// Lower bound of the interval of the mean (ci_method, at the settings' level).
    "ci_low" => |a| num(Some(a.ci_low)),
    /// Upper bound of the interval of the mean.
    "ci_high" => |a| num(Some(a.ci_high)),
    /// How the interval of the mean was computed.
    "ci_method" => |a| a.ci_method.clone(),
    /// Wilson score interval of the proportion, lower bound (0/1 arms).
    "wilson_low" => |a| num(a.wilson_low),
    /// Wilson score interval, upper bound (0/1 arms).
    "wilson_high" => |a| num(a.wilson_high),
    /// Clopper–Pearson exact interval, lower bound (0/1 arms).
    "clopper_pearson_low" => |a| num(a.clopper_pearson_low),
    /// Clopper–Pearson exact interval, upper bound (0/1 arms).
    "clopper_pearson_high" => |a| num(a.clopper_pearson_high),
    /// Hoeffding's distribution-free half-width at the same level (values in [0, 1]).
    "hoeffding_half_width" => |a| num(a.hoeffding_half_width),
    /// The arm's mean rank over the paired items (1 = best; ties share their mean rank).
    "mean_rank" => |a| num(a.mean_rank),
    /// Why the interval is not the usual one, where it is not (e.g. too few values).
    "ci_note" => |a| opt(&a.ci_note),
    /// The share of items on which the arm does better than another (ties half), averaged over the other arms.
    "win_rate" => |a| num(a.win_rate),
    /// The arms it does better than on most items, minus those doing better than it.
    "copeland" => |a| opt(&a.copeland),
];

/// A contrast in the text tables: `a − b`.
fn contrast_text(p: &PairRow) -> String {
    format!("{} − {}", p.a, p.b)
}

/// A contrast's counts in the text tables: McNemar's discordant b/c for 0/1 outcomes, else
/// wins/ties/losses.
fn counts_text(p: &PairRow) -> String {
    match (p.b_count, p.c_count) {
        (Some(b), Some(cc)) => format!("{b}/{cc}"),
        _ => format!("{}/{}/{}", p.wins, p.ties, p.losses),
    }
}

/// The arms as a text table (arm, n, mean, CI, Wilson, and the mean rank when paired).
fn render_arm_rows(arms: &[ArmRow], paired: bool) -> String {
    let bounds = |l: Option<f64>, h: Option<f64>| match (l, h) {
        (Some(l), Some(h)) => format!("[{}, {}]", f3(l), f3(h)),
        _ => "—".into(),
    };
    let rows: Vec<Vec<String>> = arms
        .iter()
        .map(|a| {
            vec![
                a.label(),
                a.n.to_string(),
                f3(a.mean),
                format!("[{}, {}] {}", f3(a.ci_low), f3(a.ci_high), a.ci_method),
                bounds(a.wilson_low, a.wilson_high),
                if paired {
                    a.mean_rank.map(f3).unwrap_or_else(|| "—".into())
                } else {
                    bounds(a.clopper_pearson_low, a.clopper_pearson_high)
                },
            ]
        })
        .collect();
    let header = ["arm", "n", "mean", "CI", "Wilson", if paired { "mean rank" } else { "Clopper–Pearson" }];
    render_columns(&header, &rows)
}

const COVERAGE: &[Column<ArmCoverage>] = &crate::columns![ArmCoverage;
    "arm" => |a| a.arm.clone(),
    "rows" => |a| a.rows.to_string(),
    "items_present" => |a| a.items_present.to_string(),
    "items_without_row" => |a| a.items_without_row.to_string(),
    "items_without_value" => |a| a.items_without_value.to_string(),
];

/// What the pairing found per arm (`pairing.arms` in `memaudit compare --format json`): rows
/// read, items with a value, items without a row, items whose rows have no value.
pub fn coverage_table(r: &PairingReport) -> Table {
    Table::of("pairing", COVERAGE, &r.arms)
}

const PAIR_ITEMS: &[Column<PairItem>] = &crate::columns![PairItem;
    "item" => |i| i.item.clone(),
    "a" => |i| num(Some(i.a)),
    "b" => |i| num(Some(i.b)),
    "diff" => |i| num(Some(i.diff)),
    "group" => |i| opt(&i.group),
];

const ARM_ITEMS: &[Column<ArmItem>] = &crate::columns![ArmItem;
    "item" => |i| i.item.clone(),
    "value" => |i| num(Some(i.value)),
    "rank" => |i| num(Some(i.rank)),
    "group" => |i| opt(&i.group),
];

/// The items behind a selection as a table (`memaudit compare --items A,B --format csv`, and
/// `--show-item ITEM --format csv`): [`item_rows`] with the arms' values under the arms' names.
pub fn items_table(view: &ItemsView) -> Table {
    let mut t = item_rows(view);
    let names: Vec<(&str, &str)> = match view {
        ItemsView::Pair { a, b, .. } => vec![("a", a), ("b", b)],
        ItemsView::Arm { arm, .. } => vec![("value", arm)],
        ItemsView::Text(_) => Vec::new(),
    };
    for h in &mut t.headers {
        if let Some((_, to)) = names.iter().find(|(from, _)| from == h) {
            *h = (*to).to_string();
        }
    }
    t
}

/// A contrast's items (some of them: a page), as [`item_rows`] gives them.
pub fn pair_item_rows<'a>(items: impl IntoIterator<Item = &'a PairItem>) -> Table {
    Table::of("items", PAIR_ITEMS, items)
}

/// An arm's items (some of them: a page), as [`item_rows`] gives them.
pub fn arm_item_rows(items: &[ArmItem]) -> Table {
    Table::of("items", ARM_ITEMS, items)
}

/// The items behind a selection, one row each:
/// - a contrast: `item`, `a`, `b` (the two arms' values), `diff` (a − b), `group`;
/// - an arm: `item`, `value`, `rank` among the arms, `group`;
/// - one item's text: a row per cell, `arm` and `at` (`FILE:LINE`) empty for the shared cells.
pub fn item_rows(view: &ItemsView) -> Table {
    match view {
        ItemsView::Pair { items, .. } => pair_item_rows(items),
        ItemsView::Arm { items, .. } => arm_item_rows(items),
        ItemsView::Text(t) => crate::report::instance::table(t, "arm"),
    }
}

/// Each arm without pairing (after a refused pairing), as a table: the arms' columns with the
/// group of the arm's rows after the arm (empty for the arm as a whole); the rows of
/// `unpaired.arms` in `memaudit compare --format json`.
pub fn unpaired_table(u: &UnpairedArms) -> Table {
    let mut t = Table::of("unpaired", ARMS, &u.arms);
    t.headers.insert(1, "group".into());
    for (row, a) in t.rows.iter_mut().zip(&u.arms) {
        row.insert(1, a.group.clone().unwrap_or_default());
    }
    t
}

/// Each arm without pairing, as text after a refusal (empty when there is nothing to show).
pub fn render_unpaired(u: Option<&UnpairedArms>) -> String {
    let Some(u) = u.filter(|u| !u.arms.is_empty() || !u.too_few.is_empty()) else { return String::new() };
    let mut out = format!("\n\n== Each arm without pairing (value {}; {})\n", u.value, u.settings);
    out.push_str(&render_arm_rows(&u.arms, false));
    for (arm, n) in &u.too_few {
        out.push_str(&format!("{arm}: {n} value(s), too few for an interval\n"));
    }
    for (arm, n) in &u.missing {
        out.push_str(&format!("{arm}: {n} row(s) without a value, left out\n"));
    }
    out.push_str("No contrast without pairing: the arms are not observed item by item.");
    let judges = super::judges::render_judges(&u.judges);
    if !judges.is_empty() {
        out.push('\n');
        out.push_str(judges.trim_end());
    }
    out
}

/// The columns of a contrast (also of each stratum's contrasts).
pub const PAIRS: &[Column<PairRow>] = &crate::columns![PairRow;
    /// The first arm of the contrast.
    "a" => |p| p.a.clone(),
    /// The second arm of the contrast.
    "b" => |p| p.b.clone(),
    /// Items with a value in both arms (the contrast is over these).
    "n_pairs" => |p| p.n_pairs.to_string(),
    /// a's mean over the paired items.
    "mean_a" => |p| num(Some(p.mean_a)),
    /// b's mean over the paired items.
    "mean_b" => |p| num(Some(p.mean_b)),
    /// mean_a − mean_b.
    "diff" => |p| num(Some(p.diff)),
    /// Lower bound of the interval of diff (ci_method, at the settings' level).
    "ci_low" => |p| num(Some(p.ci_low)),
    /// Upper bound of the interval of diff.
    "ci_high" => |p| num(Some(p.ci_high)),
    /// How the interval of diff was computed (the bootstrap variant and resamples).
    "ci_method" => |p| p.ci_method.clone(),
    /// Items where a is right and b wrong (0/1 arms): McNemar's b, the helps.
    "b_count" => |p| opt(&p.b_count),
    /// Items where a is wrong and b right (0/1 arms): McNemar's c, the hurts.
    "c_count" => |p| opt(&p.c_count),
    /// Items where a does better than b (better: as the settings say).
    "wins" => |p| p.wins.to_string(),
    /// Items where a and b are equal.
    "ties" => |p| p.ties.to_string(),
    /// Items where a does worse than b.
    "losses" => |p| p.losses.to_string(),
    /// The test behind p_value: mcnemar_exact (0/1 arms) or wilcoxon_signed_rank.
    "test" => |p| p.test.name().into(),
    /// Two-sided p of that test, before any correction.
    "p_value" => |p| num(Some(p.p_value)),
    /// McNemar's exact two-sided p (binomial on b and c; 0/1 arms).
    "mcnemar_p" => |p| num(p.mcnemar_p),
    /// McNemar's mid-p: the exact p less P[X = min(b, c)] (0/1 arms).
    "mcnemar_mid_p" => |p| num(p.mcnemar_mid_p),
    /// Wilcoxon signed-rank two-sided p (zero differences dropped; SciPy's defaults).
    "wilcoxon_p" => |p| num(p.wilcoxon_p),
    /// Cohen's h = 2 asin √mean_a − 2 asin √mean_b (0/1 arms).
    "cohen_h" => |p| num(p.cohen_h),
    /// Cohen's size of h: negligible (< 0.2), small, medium (≥ 0.5) or large (≥ 0.8).
    "cohen_h_label" => |p| opt(&p.cohen_h_label),
    /// P(θa > θb) under Jeffreys Beta posteriors of each arm, the arms treated as independent (0/1 arms).
    "p_superiority" => |p| num(p.p_superiority),
    /// Pooled two-proportion z, an independent-samples cross-check of the paired test (0/1 arms).
    "z_two_proportion" => |p| num(p.z_two_proportion),
    /// Two-sided p of that z.
    "p_two_proportion" => |p| num(p.p_two_proportion),
    /// Spearman's ρ between the arms' per-item values.
    "spearman" => |p| num(p.spearman),
    /// Cohen's κ between the arms' per-item outcomes (0/1 arms).
    "kappa" => |p| num(p.kappa),
    /// p_value adjusted by Holm over all contrasts (family-wise error).
    "p_holm" => |p| num(Some(p.p_holm)),
    /// p_value adjusted by Benjamini–Hochberg over all contrasts (false discovery rate).
    "p_bh" => |p| num(Some(p.p_bh)),
    /// p_holm below the settings' alpha.
    "significant" => |p| flag(p.significant),
    /// Two-sided p of the paired sign-flip permutation test of Σ(a − b).
    "permutation_p" => |p| num(p.permutation_p),
    /// exact (every sign pattern) or monte_carlo with its resamples and seed.
    "permutation_method" => |p| opt(&p.permutation_method),
    /// Within a stratum (0/1 arms): E[S] of S = helps − hurts under random strata of the same size.
    "interaction_expected" => |p| num(p.interaction_expected),
    /// One-sided randomization p: P(S ≥ s), the stratum holds at least this many more helps than hurts.
    "interaction_p_greater" => |p| num(p.interaction_p_greater),
    /// One-sided randomization p: P(S ≤ s).
    "interaction_p_less" => |p| num(p.interaction_p_less),
    /// Whether those p-values were summed exactly (false: the normal approximation).
    "interaction_exact" => |p| opt(&p.interaction_exact),
    /// The share of items on which a does better than b, ties counted half.
    "win_rate" => |p| num(p.win_rate),
];

/// One contrast within one stratum of `--per`.
pub struct StratumPair<'a> {
    pub stratum: &'a StratumComparison,
    pub pair: &'a PairRow,
}

/// The strata table: the stratum (`column`, `value`, `n_items`), then every column of
/// [`PAIRS`].
fn strata_table(c: &Comparison) -> Table {
    let rows: Vec<StratumPair<'_>> =
        c.by_stratum.iter().flat_map(|s| s.pairs.iter().map(move |pair| StratumPair { stratum: s, pair })).collect();
    let mut headers: Vec<String> = ["column", "value", "n_items"].map(String::from).to_vec();
    headers.extend(PAIRS.iter().map(|col| col.name.to_string()));
    Table {
        name: CompareTable::Strata.name().into(),
        headers,
        rows: rows
            .iter()
            .map(|r| {
                let mut row = vec![r.stratum.column.clone(), r.stratum.value.clone(), r.stratum.n_items.to_string()];
                row.extend(PAIRS.iter().map(|col| (col.value)(r.pair)));
                row
            })
            .collect(),
        docs: crate::report::docs_of(PAIRS).collect(),
    }
}

/// A mean rank with the cliques (1-based numbers) it belongs to.
pub struct RankRow<'a> {
    pub rank: &'a MeanRank,
    pub cliques: String,
}

fn rank_columns<'a>() -> [Column<RankRow<'a>>; 3] {
    crate::columns![RankRow<'a>;
        "arm" => |r| r.rank.arm.clone(),
        "mean_rank" => |r| num(Some(r.rank.mean_rank)),
        "clique" => |r| r.cliques.clone(),
    ]
}

const FRIEDMAN: &[Column<FriedmanRow>] = &crate::columns![FriedmanRow;
    /// Arms ranked.
    "k" => |f| f.k.to_string(),
    /// Items (blocks) every arm has a value on.
    "n_blocks" => |f| f.n_blocks.to_string(),
    /// Friedman's χ² as Demšar (2006) writes it, without the tie correction.
    "chi2" => |f| num(Some(f.chi2)),
    /// Its p-value (χ² with k − 1 degrees of freedom).
    "p" => |f| num(Some(f.p)),
    /// χ² corrected for tied ranks within items (SciPy's friedmanchisquare, R's friedman.test).
    "chi2_tie_corrected" => |f| num(Some(f.chi2_tie_corrected)),
    /// Its p-value.
    "p_tie_corrected" => |f| num(Some(f.p_tie_corrected)),
    /// Iman and Davenport's F = (n − 1)χ² / (n(k − 1) − χ²).
    "iman_davenport_f" => |f| num(f.iman_davenport_f),
    /// Its p-value (F with k − 1 and (k − 1)(n − 1) degrees of freedom).
    "p_iman_davenport" => |f| num(f.p_iman_davenport),
    /// The level of the critical differences.
    "alpha" => |f| num(Some(f.alpha)),
    /// The studentized range quantile q_α(k, ∞) / √2 of the Nemenyi test.
    "q_alpha" => |f| num(Some(f.q_alpha)),
    /// Nemenyi's critical difference q_α·√(k(k + 1)/(6n)): mean ranks further apart differ.
    "cd" => |f| num(Some(f.cd)),
    /// Bonferroni–Dunn's critical difference against the control (empty without one).
    "bonferroni_dunn_cd" => |f| num(f.bonferroni_dunn_cd),
    /// Groups of arms whose mean ranks are all within one CD, | between groups (one bar each in the diagram).
    "cliques" => |f| f.cliques.iter().map(|c| c.join("+")).collect::<Vec<_>>().join(" | "),
];

/// One table of a comparison (`ranks` and `friedman` are empty without a Friedman test).
pub fn table(c: &Comparison, which: CompareTable) -> Table {
    let name = which.name();
    match which {
        CompareTable::Arms => Table::of(name, ARMS, &c.arms),
        CompareTable::Pairs => Table::of(name, PAIRS, &c.pairs),
        CompareTable::Ranks => {
            let rows: Vec<RankRow<'_>> = c
                .friedman
                .iter()
                .flat_map(|f| {
                    f.mean_ranks.iter().map(move |rank| RankRow {
                        rank,
                        cliques: f
                            .cliques
                            .iter()
                            .enumerate()
                            .filter(|(_, cl)| cl.contains(&rank.arm))
                            .map(|(i, _)| (i + 1).to_string())
                            .collect::<Vec<_>>()
                            .join(" "),
                    })
                })
                .collect();
            Table::of(name, &rank_columns(), &rows)
        }
        CompareTable::Friedman => Table::of(name, FRIEDMAN, &c.friedman),
        CompareTable::Strata => strata_table(c),
        CompareTable::Judges => Table::of(name, super::judges::JUDGES, &c.judges),
        CompareTable::Costs => {
            let mut t = Table::new(name, &["column", "arm", "n", "mean", "ci_low", "ci_high", "ci_method", "note"]);
            for k in &c.costs {
                if k.arms.is_empty() {
                    t.rows.push(vec![
                        k.column.clone(),
                        String::new(),
                        String::new(),
                        String::new(),
                        String::new(),
                        String::new(),
                        String::new(),
                        opt(&k.note),
                    ]);
                }
                for a in &k.arms {
                    t.rows.push(vec![
                        k.column.clone(),
                        a.arm.clone(),
                        a.n.to_string(),
                        num(Some(a.mean)),
                        num(Some(a.ci_low)),
                        num(Some(a.ci_high)),
                        a.ci_method.clone(),
                        String::new(),
                    ]);
                }
            }
            t
        }
        CompareTable::Matched => {
            let mut t = Table::new(
                name,
                &["column", "control", "arm", "control_mean", "arm_mean", "diff", "ci_low", "ci_high", "differs"],
            );
            for k in &c.costs {
                for m in &k.matched {
                    t.rows.push(vec![
                        k.column.clone(),
                        m.control.clone(),
                        m.arm.clone(),
                        num(Some(m.control_mean)),
                        num(Some(m.arm_mean)),
                        num(Some(m.diff)),
                        num(Some(m.ci_low)),
                        num(Some(m.ci_high)),
                        flag(m.differs),
                    ]);
                }
            }
            t
        }
    }
}

/// The short mark of a sign-flip method (`exact`, `MC` for Monte Carlo, `normal` for the normal
/// approximation), shown next to its p-value when a table's rows use different methods.
pub fn permutation_mark(method: &str) -> &'static str {
    match method.split_whitespace().next().unwrap_or(method) {
        "exact" => "exact",
        "monte_carlo" => "MC",
        "normal_approximation" => "normal",
        _ => "?",
    }
}

/// Whether the rows' sign-flip p-values come from more than one method (then each row names
/// its own: a 4.5e-41 from the normal approximation next to a Monte Carlo floor of 1/(R + 1)
/// must say so).
pub fn permutation_methods_differ<'a>(methods: impl IntoIterator<Item = &'a str>) -> bool {
    let mut kinds = methods.into_iter().map(permutation_mark);
    match kinds.next() {
        Some(first) => kinds.any(|k| k != first),
        None => false,
    }
}

/// The footnote of a table's sign-flip p-values: one method, or each method with its mark.
pub fn permutation_footnote<'a>(methods: impl IntoIterator<Item = &'a str> + Clone) -> Option<String> {
    let all: Vec<&str> = methods.clone().into_iter().collect();
    let first = all.first()?;
    if !permutation_methods_differ(all.iter().copied()) {
        return Some(format!("paired sign-flip permutation test, two-sided ({first})"));
    }
    let mut seen: Vec<&str> = Vec::new();
    let mut parts = Vec::new();
    for m in &all {
        let mark = permutation_mark(m);
        if seen.contains(&mark) {
            continue;
        }
        seen.push(mark);
        parts.push(match mark {
            "exact" => "exact = every sign pattern (or the binomial tail)".to_string(),
            "MC" => format!("MC = Monte Carlo ({}; its smallest p is 1/(R + 1))", m.trim_start_matches("monte_carlo ")),
            "normal" => "normal = the normal approximation of the randomization distribution (too many differences for Monte Carlo; each row's m in the CSV's permutation_method)".to_string(),
            _ => (*m).to_string(),
        });
    }
    Some(format!("paired sign-flip permutation test, two-sided; the method differs by row: {}", parts.join("; ")))
}

fn f3(x: f64) -> String {
    format!("{x:.3}")
}

/// The human-readable comparison (`--format table`).
pub fn render_compare_text(c: &Comparison) -> String {
    let mut out =
        format!("memaudit {} — paired comparison of {} arms on {} items\n", crate::VERSION, c.arms.len(), c.n_items);
    out.push_str(&format!("settings: {}\n", c.conventions));
    for n in &c.notes {
        out.push_str(&format!("note: {n}\n"));
    }
    let conf = (1.0 - c.settings.alpha) * 100.0;
    out.push_str(&format!("\n== Arms (mean, {conf}% CI)\n"));
    out.push_str(&render_arm_rows(&c.arms, true));
    out.push_str("\n== Contrasts (diff = a − b; p adjusted by Holm over all contrasts)\n");
    let mixed = permutation_methods_differ(c.pairs.iter().filter_map(|p| p.permutation_method.as_deref()));
    let perm_cell = |p: Option<f64>, m: Option<&str>| match (p, m) {
        (Some(p), Some(m)) if mixed => format!("{} {}", p_value(p), permutation_mark(m)),
        (p, _) => p.map(p_value).unwrap_or_default(),
    };
    out.push_str(&crate::text_table!(&c.pairs, |p| {
        "contrast" => contrast_text(p),
        "diff" => format!("{:+.3}", p.diff),
        "CI" => format!("[{:+.3}, {:+.3}]", p.ci_low, p.ci_high),
        "b/c or W/T/L" => counts_text(p),
        "p" => format!(
            "{} {}",
            p_value(p.p_value),
            if p.test == PairedTest::McNemarExact { "McNemar" } else { "Wilcoxon" }
        ),
        "p Holm" => p_value(p.p_holm),
        "p perm." => perm_cell(p.permutation_p, p.permutation_method.as_deref()),
        "Cohen's h" => {
            p.cohen_h.map(|h| format!("{h:+.2} {}", p.cohen_h_label.clone().unwrap_or_default())).unwrap_or_default()
        },
        "P(a>b)" => p.p_superiority.map(f3).unwrap_or_default(),
        "" => if p.significant { "*".into() } else { String::new() },
    }));
    if let Some(note) = permutation_footnote(c.pairs.iter().filter_map(|p| p.permutation_method.as_deref())) {
        out.push_str(&format!("p perm.: {note}\n"));
    }
    if let Some(first) = c.by_stratum.first() {
        out.push_str(&format!(
            "\n== Contrasts per {} (p adjusted by Holm within each stratum; S = b − c in the stratum against random strata of its size)\n",
            first.column
        ));
        let strata = c.by_stratum.iter().flat_map(|s| s.pairs.iter().map(move |p| (s, p)));
        out.push_str(&crate::text_table!(strata, |(s, p)| {
            first.column.as_str() => s.value.clone(),
            "n" => s.n_items.to_string(),
            "contrast" => contrast_text(p),
            "diff" => format!("{:+.3}", p.diff),
            "CI" => format!("[{:+.3}, {:+.3}]", p.ci_low, p.ci_high),
            "b/c or W/T/L" => counts_text(p),
            "p Holm" => p_value(p.p_holm),
            "E[S]" => p.interaction_expected.map(|e| format!("{e:+.2}")).unwrap_or_default(),
            "P(S≥s)" => p.interaction_p_greater.map(p_value).unwrap_or_default(),
            "P(S≤s)" => p.interaction_p_less.map(p_value).unwrap_or_default(),
        }));
    }
    for k in &c.costs {
        out.push_str(&format!(
            "\n== Cost: {} (mean per item, {}% interval)\n",
            k.column,
            (1.0 - c.settings.alpha) * 100.0
        ));
        if let Some(n) = &k.note {
            out.push_str(&format!("not compared: {n}\n"));
        }
        if !k.arms.is_empty() {
            out.push_str(&crate::text_table!(&k.arms, |a| {
                "arm" => a.arm.clone(),
                "n" => a.n.to_string(),
                "mean" => format!("{:.4}", a.mean),
                "CI" => format!("[{:.4}, {:.4}]", a.ci_low, a.ci_high),
            }));
        }
        for m in &k.matched {
            let (means, diff) = ((m.control_mean, m.arm_mean), (m.diff, m.ci_low, m.ci_high));
            let unmatched = if m.differs { " — not compute-matched" } else { "" };
            out.push_str(&format!(
                "matched control {} vs {}: {:.4} vs {:.4}, diff {:+.4} [{:+.4}, {:+.4}]{unmatched}\n",
                m.control, m.arm, means.0, means.1, diff.0, diff.1, diff.2
            ));
        }
    }
    if let Some(f) = &c.friedman {
        out.push_str(&format!(
            "\n== Friedman (k = {}, N = {}): χ²_F = {:.3} (p = {}), tie-corrected {:.3} (p = {}); Nemenyi CD = {:.3} (q_α = {:.4}, α = {})\n",
            f.k,
            f.n_blocks,
            f.chi2,
            p_value(f.p),
            f.chi2_tie_corrected,
            p_value(f.p_tie_corrected),
            f.cd,
            f.q_alpha,
            f.alpha
        ));
        let mut ranks = f.mean_ranks.clone();
        ranks.sort_by(|a, b| a.mean_rank.total_cmp(&b.mean_rank));
        out.push_str(&crate::text_table!(&ranks, |r| {
            "arm" => r.arm.clone(),
            "mean rank (1 = best)" => f3(r.mean_rank),
        }));
        for (i, cl) in f.cliques.iter().enumerate() {
            out.push_str(&format!("not significantly different (bar {}): {}\n", i + 1, cl.join(", ")));
        }
        if let Some(bd) = f.bonferroni_dunn_cd {
            out.push_str(&format!("Bonferroni–Dunn vs {}: CD = {:.3}\n", f.control.clone().unwrap_or_default(), bd));
        }
    }
    out
}

fn tex(s: &str) -> String {
    let mut o = String::new();
    for ch in s.chars() {
        match ch {
            '\\' => o.push_str("\\textbackslash{}"),
            '&' | '%' | '$' | '#' | '_' | '{' | '}' => {
                o.push('\\');
                o.push(ch);
            }
            '~' => o.push_str("\\textasciitilde{}"),
            '^' => o.push_str("\\textasciicircum{}"),
            _ => o.push(ch),
        }
    }
    o
}

/// The arms table as LaTeX (booktabs), with a superscript letter per arm marking the arms it
/// beats significantly (Holm-adjusted), as ranx does, and the settings in the caption.
pub fn compare_latex(c: &Comparison) -> String {
    let letters: Vec<char> = (0..c.arms.len()).map(|i| (b'a' + (i % 26) as u8) as char).collect();
    let mut s = String::from("\\begin{table}[t]\n\\centering\n\\begin{tabular}{llrrr}\n\\toprule\n");
    s.push_str(" & Arm & Mean & CI & Mean rank \\\\\n\\midrule\n");
    for (i, a) in c.arms.iter().enumerate() {
        let beats: String = c
            .pairs
            .iter()
            .filter(|p| p.significant)
            .filter_map(|p| {
                let (winner, loser) = if p.diff > 0.0 { (&p.a, &p.b) } else { (&p.b, &p.a) };
                if *winner == a.arm { c.arms.iter().position(|x| x.arm == *loser).map(|j| letters[j]) } else { None }
            })
            .collect();
        s.push_str(&format!(
            "({}) & {} & {:.3}{} & [{:.3}, {:.3}] & {} \\\\\n",
            letters[i],
            tex(&a.arm),
            a.mean,
            if beats.is_empty() { String::new() } else { format!("$^{{{beats}}}$") },
            a.ci_low,
            a.ci_high,
            a.mean_rank.map(|r| format!("{r:.2}")).unwrap_or_else(|| "--".into())
        ));
    }
    s.push_str("\\bottomrule\n\\end{tabular}\n");
    s.push_str(&format!(
        "\\caption{{Means with {:.0}\\% {} intervals over {} paired items; a superscript lists the arms a mean is significantly better than (paired test, Holm-adjusted, $\\alpha = {}$). {}}}\n",
        (1.0 - c.settings.alpha) * 100.0,
        match c.settings.ci {
            crate::compare::CiMethod::Bca => "BCa bootstrap",
            crate::compare::CiMethod::Percentile => "percentile bootstrap",
        },
        c.n_items,
        c.settings.alpha,
        tex(&c.conventions)
    ));
    s.push_str("\\end{table}\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The contrasts and the arms are what a reviewer reads first: every column but the arm's
    /// name says what it holds (the report lists it under the table, the page on its header).
    #[test]
    fn every_column_of_the_contrasts_and_arms_is_explained() {
        let bare: Vec<&str> = PAIRS.iter().filter(|c| c.doc.trim().is_empty()).map(|c| c.name).collect();
        assert!(bare.is_empty(), "pairs columns without an explanation: {bare:?}");
        let bare: Vec<&str> =
            ARMS.iter().filter(|c| c.doc.trim().is_empty() && c.name != "arm").map(|c| c.name).collect();
        assert!(bare.is_empty(), "arms columns without an explanation: {bare:?}");
    }
}
