//! Tables of a [`Comparison`]: the same [`Table`]s feed the CLI's CSV and text output, the
//! LaTeX export and the viewer.

use super::{Table, flag, num, opt};
use crate::compare::Comparison;

/// Tables a comparison can be exported as (`--table NAME`).
pub const COMPARE_TABLES: [&str; 4] = ["arms", "pairs", "ranks", "friedman"];

/// One table of a comparison by name.
pub fn compare_table(c: &Comparison, name: &str) -> Option<Table> {
    Some(match name {
        "arms" => {
            let mut tb = Table::new(
                name,
                &[
                    "arm",
                    "n",
                    "mean",
                    "ci_low",
                    "ci_high",
                    "ci_method",
                    "wilson_low",
                    "wilson_high",
                    "clopper_pearson_low",
                    "clopper_pearson_high",
                    "hoeffding_half_width",
                    "mean_rank",
                    "ci_note",
                ],
            );
            for a in &c.arms {
                tb.rows.push(vec![
                    a.arm.clone(),
                    a.n.to_string(),
                    num(Some(a.mean)),
                    num(Some(a.ci_low)),
                    num(Some(a.ci_high)),
                    a.ci_method.clone(),
                    num(a.wilson_low),
                    num(a.wilson_high),
                    num(a.clopper_pearson_low),
                    num(a.clopper_pearson_high),
                    num(a.hoeffding_half_width),
                    num(a.mean_rank),
                    opt(&a.ci_note),
                ]);
            }
            tb
        }
        "pairs" => {
            let mut tb = Table::new(
                name,
                &[
                    "a",
                    "b",
                    "n_pairs",
                    "mean_a",
                    "mean_b",
                    "diff",
                    "ci_low",
                    "ci_high",
                    "ci_method",
                    "b_count",
                    "c_count",
                    "wins",
                    "ties",
                    "losses",
                    "test",
                    "p_value",
                    "mcnemar_p",
                    "mcnemar_mid_p",
                    "wilcoxon_p",
                    "cohen_h",
                    "cohen_h_label",
                    "p_superiority",
                    "z_two_proportion",
                    "p_two_proportion",
                    "spearman",
                    "kappa",
                    "p_holm",
                    "p_bh",
                    "significant",
                ],
            );
            for p in &c.pairs {
                tb.rows.push(vec![
                    p.a.clone(),
                    p.b.clone(),
                    p.n_pairs.to_string(),
                    num(Some(p.mean_a)),
                    num(Some(p.mean_b)),
                    num(Some(p.diff)),
                    num(Some(p.ci_low)),
                    num(Some(p.ci_high)),
                    p.ci_method.clone(),
                    opt(&p.b_count),
                    opt(&p.c_count),
                    p.wins.to_string(),
                    p.ties.to_string(),
                    p.losses.to_string(),
                    p.test.clone(),
                    num(Some(p.p_value)),
                    num(p.mcnemar_p),
                    num(p.mcnemar_mid_p),
                    num(p.wilcoxon_p),
                    num(p.cohen_h),
                    opt(&p.cohen_h_label),
                    num(p.p_superiority),
                    num(p.z_two_proportion),
                    num(p.p_two_proportion),
                    num(p.spearman),
                    num(p.kappa),
                    num(Some(p.p_holm)),
                    num(Some(p.p_bh)),
                    flag(p.significant),
                ]);
            }
            tb
        }
        "ranks" => {
            let mut tb = Table::new(name, &["arm", "mean_rank", "clique"]);
            if let Some(f) = &c.friedman {
                for r in &f.mean_ranks {
                    let cliques: Vec<String> = f
                        .cliques
                        .iter()
                        .enumerate()
                        .filter(|(_, cl)| cl.contains(&r.arm))
                        .map(|(i, _)| (i + 1).to_string())
                        .collect();
                    tb.rows.push(vec![r.arm.clone(), num(Some(r.mean_rank)), cliques.join(" ")]);
                }
            }
            tb
        }
        "friedman" => {
            let mut tb = Table::new(
                name,
                &[
                    "k",
                    "n_blocks",
                    "chi2",
                    "p",
                    "chi2_tie_corrected",
                    "p_tie_corrected",
                    "iman_davenport_f",
                    "p_iman_davenport",
                    "alpha",
                    "q_alpha",
                    "cd",
                    "bonferroni_dunn_cd",
                    "cliques",
                ],
            );
            if let Some(f) = &c.friedman {
                tb.rows.push(vec![
                    f.k.to_string(),
                    f.n_blocks.to_string(),
                    num(Some(f.chi2)),
                    num(Some(f.p)),
                    num(Some(f.chi2_tie_corrected)),
                    num(Some(f.p_tie_corrected)),
                    num(f.iman_davenport_f),
                    num(f.p_iman_davenport),
                    num(Some(f.alpha)),
                    num(Some(f.q_alpha)),
                    num(Some(f.cd)),
                    num(f.bonferroni_dunn_cd),
                    f.cliques.iter().map(|c| c.join("+")).collect::<Vec<_>>().join(" | "),
                ]);
            }
            tb
        }
        _ => return None,
    })
}

fn f3(x: f64) -> String {
    format!("{x:.3}")
}

fn p_fmt(p: f64) -> String {
    if p < 1e-4 { format!("{p:.1e}") } else { format!("{p:.4}") }
}

/// The human-readable comparison (`--format table`).
pub fn render_compare_text(c: &Comparison) -> String {
    let mut out = format!(
        "memaudit {} — paired comparison of {} arms on {} items\n",
        c.memaudit_version,
        c.arms.len(),
        c.n_items
    );
    out.push_str(&format!("settings: {}\n", c.conventions));
    for n in &c.notes {
        out.push_str(&format!("note: {n}\n"));
    }
    let conf = (1.0 - c.settings.alpha) * 100.0;
    out.push_str(&format!("\n== Arms (mean, {conf}% CI)\n"));
    let rows: Vec<Vec<String>> = c
        .arms
        .iter()
        .map(|a| {
            vec![
                a.arm.clone(),
                a.n.to_string(),
                f3(a.mean),
                format!("[{}, {}] {}", f3(a.ci_low), f3(a.ci_high), a.ci_method),
                match (a.wilson_low, a.wilson_high) {
                    (Some(l), Some(h)) => format!("[{}, {}]", f3(l), f3(h)),
                    _ => "—".into(),
                },
                a.mean_rank.map(f3).unwrap_or_else(|| "—".into()),
            ]
        })
        .collect();
    out.push_str(&super::render_columns(&["arm", "n", "mean", "CI", "Wilson", "mean rank"], &rows));
    out.push_str("\n== Contrasts (diff = a − b; p adjusted by Holm over all contrasts)\n");
    let rows: Vec<Vec<String>> = c
        .pairs
        .iter()
        .map(|p| {
            vec![
                format!("{} − {}", p.a, p.b),
                format!("{:+.3}", p.diff),
                format!("[{:+.3}, {:+.3}]", p.ci_low, p.ci_high),
                match (p.b_count, p.c_count) {
                    (Some(b), Some(cc)) => format!("{b}/{cc}"),
                    _ => format!("{}/{}/{}", p.wins, p.ties, p.losses),
                },
                format!("{} {}", p_fmt(p.p_value), if p.test == "mcnemar_exact" { "McNemar" } else { "Wilcoxon" }),
                p_fmt(p.p_holm),
                p.cohen_h
                    .map(|h| format!("{h:+.2} {}", p.cohen_h_label.clone().unwrap_or_default()))
                    .unwrap_or_default(),
                p.p_superiority.map(f3).unwrap_or_default(),
                if p.significant { "*".into() } else { String::new() },
            ]
        })
        .collect();
    out.push_str(&super::render_columns(
        &["contrast", "diff", "CI", "b/c or W/T/L", "p", "p Holm", "Cohen's h", "P(a>b)", ""],
        &rows,
    ));
    if let Some(f) = &c.friedman {
        out.push_str(&format!(
            "\n== Friedman (k = {}, N = {}): χ²_F = {:.3} (p = {}), tie-corrected {:.3} (p = {}); Nemenyi CD = {:.3} (q_α = {:.4}, α = {})\n",
            f.k,
            f.n_blocks,
            f.chi2,
            p_fmt(f.p),
            f.chi2_tie_corrected,
            p_fmt(f.p_tie_corrected),
            f.cd,
            f.q_alpha,
            f.alpha
        ));
        let mut ranks = f.mean_ranks.clone();
        ranks.sort_by(|a, b| a.mean_rank.total_cmp(&b.mean_rank));
        let rows: Vec<Vec<String>> = ranks.iter().map(|r| vec![r.arm.clone(), f3(r.mean_rank)]).collect();
        out.push_str(&super::render_columns(&["arm", "mean rank (1 = best)"], &rows));
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
