//! The human-readable compliance report (`memaudit compliance --format table`).

use super::analyse::ComplianceReport;

fn f4(v: Option<f64>) -> String {
    v.map_or("-".into(), |x| format!("{x:.4}"))
}

fn ci(l: Option<f64>, h: Option<f64>) -> String {
    match (l, h) {
        (Some(l), Some(h)) => format!("[{l:.4}, {h:.4}]"),
        _ => "-".into(),
    }
}

/// Settings, then per table its rows.
pub fn render_text(r: &ComplianceReport) -> String {
    let s = &r.settings;
    let b = &s.bootstrap;
    let mut out = format!(
        "Decision compliance: {} rows in {} group(s) ({} left out: a value missing; {} not kept by the `filter` setting)\n\
         Settings: {}% intervals; bootstrap B={} seed={} ({}); delta-method intervals normal; power target {} at alpha {}; \
         claimed effect {}; focus {}; against {}; return on tokens per {} tokens; groups {}\n",
        r.rows,
        r.groups.len(),
        r.missing.count,
        r.filtered_out,
        b.confidence * 100.0,
        b.resamples,
        b.seed,
        s.resampling,
        s.target_power,
        f4(Some(s.alpha)),
        s.claimed_effect.map_or("none".into(), |e| format!("{e}")),
        s.focus.as_deref().unwrap_or("none"),
        if s.against.is_empty() { "every other arm".to_string() } else { s.against.join(", ") },
        s.per_tokens,
        if s.group.is_empty() { "none".to_string() } else { s.group.join(", ") },
    );
    out.push_str(&r.populations.text());
    for n in &r.notes {
        out.push_str(&format!("note: {n}\n"));
    }
    out.push_str("\n== Arms: compliance, use factor kappa = compliance / recall, return on tokens\n");
    out.push_str(&crate::text_table!(&r.arms, |a| {
        "group" => a.group.clone(),
        "arm" => a.arm.clone(),
        "n" => a.n.to_string(),
        "compliance" => format!("{:.4} {}", a.compliance, ci(a.compliance_low, a.compliance_high)),
        "recall" => f4(a.recall),
        "kappa" => f4(a.kappa),
        "kappa se" => f4(a.kappa_se),
        "kappa boot" => ci(a.kappa_boot_low, a.kappa_boot_high),
        "kappa | recall=1" => format!("{} (n={})", f4(a.kappa_conditional), a.kappa_conditional_n),
        "RoT" => f4(a.rot),
        "RoT boot" => ci(a.rot_boot_low, a.rot_boot_high),
        "RoT mean of ratios" => f4(a.rot_mean_of_ratios),
    }));
    if !r.slopes.is_empty() {
        out.push_str("\n== Compliance against depth (OLS slope per hop, endpoint = P(d max) - P(d min))\n");
        // Each arm's depth rows, found by one index (linear at any number of arms).
        let mut of_arm: std::collections::HashMap<(&str, &str), Vec<&super::analyse::DepthRow>> =
            std::collections::HashMap::new();
        for d in &r.depth {
            of_arm.entry((d.group.as_str(), d.arm.as_str())).or_default().push(d);
        }
        let per_depth = |s: &super::analyse::SlopeRow| {
            let cells = of_arm.get(&(s.group.as_str(), s.arm.as_str())).map(Vec::as_slice).unwrap_or_default();
            cells.iter().map(|d| format!("d{}: {:.3} ({})", d.depth, d.compliance, d.n)).collect::<Vec<_>>().join("  ")
        };
        out.push_str(&crate::text_table!(&r.slopes, |s| {
            "group" => s.group.clone(),
            "arm" => s.arm.clone(),
            "per depth (n)" => per_depth(s),
            "slope" => f4(s.slope),
            "slope boot" => ci(s.slope_low, s.slope_high),
            "endpoint" => f4(s.endpoint),
        }));
    }
    if !r.margins.is_empty() {
        out.push_str("\n== Margins of the focus arm, delta(d) = focus - against\n");
        out.push_str(&crate::text_table!(&r.margins, |m| {
            "group" => m.group.clone(),
            "against" => m.against.clone(),
            "depth" => format!("{}", m.depth),
            "delta" => format!("{:+.4}", m.delta),
            "interval" => ci(m.low, m.high),
            "" => if m.above_zero { "above 0".into() } else { String::new() },
        }));
        out.push_str("\n== Crossover (d* = smallest depth with the interval of delta above 0)\n");
        out.push_str(&crate::text_table!(&r.crossover, |c| {
            "group" => c.group.clone(),
            "against" => c.against.clone(),
            "d*" => c.d_star.map_or("none in range".into(), |d| format!("{d}")),
            "lines cross at" => match c.crossing {
                Some(x) if c.crossing_in_range => format!("{x:.3} {}", ci(c.crossing_low, c.crossing_high)),
                Some(x) => format!("none in range ({x:.3})"),
                None => "-".into(),
            },
            "share of resamples in range" => f4(c.share_in_range),
        }));
    }
    if !r.mediation.is_empty() {
        out.push_str("\n== Mediation through recall (Baron-Kenny: indirect = total - direct = a*b)\n");
        out.push_str(&crate::text_table!(&r.mediation, |m| {
            "group" => m.group.clone(),
            "comparison" => format!("{} vs {}", m.focus, m.against),
            "total" => format!("{:+.4} {}", m.total, ci(m.total_low, m.total_high)),
            "direct" => format!("{:+.4}", m.direct),
            "indirect" => format!("{:+.4} {}", m.indirect, ci(m.indirect_low, m.indirect_high)),
            "proportion mediated" => match m.proportion {
                Some(p) => format!(
                    "{p:.3} {}{}",
                    ci(m.proportion_low, m.proportion_high),
                    if m.unstable { " (unstable: total ~ 0)" } else { "" }
                ),
                None => "-".into(),
            },
        }));
    }
    if !r.recall_bins.is_empty() {
        out.push_str("\n== Compliance by recall bin\n");
        out.push_str(&crate::text_table!(&r.recall_bins, |b| {
            "group" => b.group.clone(),
            "arm" => b.arm.clone(),
            "recall" => b.bin.clone(),
            "n" => b.n.to_string(),
            "compliance" => match b.compliance {
                Some(c) => format!("{c:.3} {}", ci(b.low, b.high)),
                None => "-".into(),
            },
        }));
        out.push_str("\n== Failures (compliance below 1): not retrieved, or retrieved and not used\n");
        out.push_str(&crate::text_table!(&r.failures, |f| {
            "group" => f.group.clone(),
            "arm" => f.arm.clone(),
            "n" => f.n.to_string(),
            "failures" => f.failures.to_string(),
            "not retrieved" => format!("{} ({})", f.not_retrieved, pct(f.not_retrieved_share)),
            "retrieved, not used" => format!("{} ({})", f.retrieved_not_used, pct(f.retrieved_not_used_share)),
            "partial" => f.partial.to_string(),
            "no recall" => f.no_recall.to_string(),
        }));
    }
    if !r.dominance.is_empty() {
        out.push_str("\n== Stochastic dominance: each pair of arms' ECDFs (two-sample KS, p not adjusted)\n");
        out.push_str(&crate::text_table!(&r.dominance, |d| {
            "group" => d.group.clone(),
            "measure" => d.measure.name().into(),
            "a vs b" => format!("{} vs {}", d.arm_a, d.arm_b),
            "n" => format!("{}/{}", d.n_a, d.n_b),
            "D" => format!("{:.4}", d.d),
            "p" => crate::report::p_value(d.p),
            "a greater: D, p" => format!("{:.4}, {}", d.d_a_greater, crate::report::p_value(d.p_a_greater)),
            "b greater: D, p" => format!("{:.4}, {}", d.d_b_greater, crate::report::p_value(d.p_b_greater)),
            "order" => d.order.name().into(),
            "method" => format!("{}{}", d.method, if d.tied { ", ties" } else { "" }),
        }));
    }
    if !r.power.is_empty() {
        out.push_str("\n== Power of each comparison\n");
        out.push_str(&crate::text_table!(&r.power, |p| {
            "group" => p.group.clone(),
            "comparison" => format!("{} vs {}", p.arm, p.against),
            "n" => format!("{}/{}", p.n, p.n_against),
            "delta" => format!("{:+.4}", p.delta),
            "design" => p.design.to_string(),
            "power" => f4(p.power),
            "MDE" => f4(p.mde),
            "n needed" => p.n_needed.map_or("-".into(), |n| format!("{}", n.ceil())),
            "power at claim" => f4(p.power_at_claim),
            "Fisher p" => p.fisher_p.map_or("-".into(), crate::report::p_value),
            "odds ratio" => f4(p.odds_ratio),
            "Cliff's delta" => f4(p.cliffs_delta),
            "verdict" => p.verdict.clone(),
        }));
    }
    if let Some((s0, rho, q)) = r.settings.theory.parameters()
        && !r.theory.is_empty()
    {
        out.push_str(&format!(
            "\n== The theory at s0 = {s0}, rho = {rho}, q = {q}: ceiling s0^d rho^(d(d+1)/2), q^d, advantage g(d), beside the measured margin\n"
        ));
        out.push_str(&crate::text_table!(&r.theory, |t| {
            "group" => t.group.clone(),
            "depth" => format!("{}", t.depth),
            "ceiling" => format!("{:.4}", t.similarity_ceiling),
            "q^d" => format!("{:.4}", t.structured),
            "g(d)" => format!("{:.4}", t.advantage),
            "measured" => match (&t.focus, &t.against) {
                (Some(f), Some(a)) => format!("{f} - {a} {} {}", f4(t.delta), ci(t.low, t.high)),
                _ => "-".into(),
            },
            "inside" => t.inside.map_or("-".into(), |b| if b { "yes".into() } else { "no".into() }),
        }));
    }
    if !r.laws.is_empty() {
        out.push_str("\n== Laws fitted to each arm's compliance by depth (log space, no intercept; in-sample)\n");
        out.push_str(&crate::text_table!(&r.laws, |l| {
            "group" => l.group.clone(),
            "arm" => l.arm.clone(),
            "law" => l.law.clone(),
            "points" => l.points.to_string(),
            "k" => l.parameters.to_string(),
            "fitted" => match (l.q, l.s0, l.rho) {
                (Some(q), _, _) => format!("q = {q:.4}"),
                (_, Some(s0), Some(rho)) => format!("s0 = {s0:.4}, rho = {rho:.4}"),
                _ => l.refused.clone().unwrap_or_default(),
            },
            "AIC" => f4(l.aic),
            "BIC" => f4(l.bic),
        }));
    }
    out
}

/// A share as a percentage (`-` when there is none).
fn pct(x: Option<f64>) -> String {
    x.map_or("-".into(), |v| format!("{:.0}%", 100.0 * v))
}
