//! The human-readable compliance report (`memaudit compliance --format table`).

use super::analyse::ComplianceReport;
use crate::report::render_columns;

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
        "Decision compliance: {} rows in {} group(s) ({} left out: a value missing; {} not kept by --filter)\n\
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
    let rows: Vec<Vec<String>> = r
        .arms
        .iter()
        .map(|a| {
            vec![
                a.group.clone(),
                a.arm.clone(),
                a.n.to_string(),
                format!("{:.4} {}", a.compliance, ci(a.compliance_low, a.compliance_high)),
                f4(a.recall),
                f4(a.kappa),
                f4(a.kappa_se),
                ci(a.kappa_boot_low, a.kappa_boot_high),
                format!("{} (n={})", f4(a.kappa_conditional), a.kappa_conditional_n),
                f4(a.rot),
                ci(a.rot_boot_low, a.rot_boot_high),
                f4(a.rot_mean_of_ratios),
            ]
        })
        .collect();
    out.push_str(&render_columns(
        &[
            "group",
            "arm",
            "n",
            "compliance",
            "recall",
            "kappa",
            "kappa se",
            "kappa boot",
            "kappa | recall=1",
            "RoT",
            "RoT boot",
            "RoT mean of ratios",
        ],
        &rows,
    ));
    if !r.slopes.is_empty() {
        out.push_str("\n== Compliance against depth (OLS slope per hop, endpoint = P(d max) - P(d min))\n");
        let rows: Vec<Vec<String>> = r
            .slopes
            .iter()
            .map(|s| {
                let cells: Vec<String> = r
                    .depth
                    .iter()
                    .filter(|d| d.group == s.group && d.arm == s.arm)
                    .map(|d| format!("d{}: {:.3} ({})", d.depth, d.compliance, d.n))
                    .collect();
                vec![
                    s.group.clone(),
                    s.arm.clone(),
                    cells.join("  "),
                    f4(s.slope),
                    ci(s.slope_low, s.slope_high),
                    f4(s.endpoint),
                ]
            })
            .collect();
        out.push_str(&render_columns(&["group", "arm", "per depth (n)", "slope", "slope boot", "endpoint"], &rows));
    }
    if !r.margins.is_empty() {
        out.push_str("\n== Margins of the focus arm, delta(d) = focus - against\n");
        let rows: Vec<Vec<String>> = r
            .margins
            .iter()
            .map(|m| {
                vec![
                    m.group.clone(),
                    m.against.clone(),
                    format!("{}", m.depth),
                    format!("{:+.4}", m.delta),
                    ci(m.low, m.high),
                    if m.above_zero { "above 0".into() } else { String::new() },
                ]
            })
            .collect();
        out.push_str(&render_columns(&["group", "against", "depth", "delta", "interval", ""], &rows));
        out.push_str("\n== Crossover (d* = smallest depth with the interval of delta above 0)\n");
        let rows: Vec<Vec<String>> = r
            .crossover
            .iter()
            .map(|c| {
                vec![
                    c.group.clone(),
                    c.against.clone(),
                    c.d_star.map_or("none in range".into(), |d| format!("{d}")),
                    match c.crossing {
                        Some(x) if c.crossing_in_range => format!("{x:.3} {}", ci(c.crossing_low, c.crossing_high)),
                        Some(x) => format!("none in range ({x:.3})"),
                        None => "-".into(),
                    },
                    f4(c.share_in_range),
                ]
            })
            .collect();
        out.push_str(&render_columns(
            &["group", "against", "d*", "lines cross at", "share of resamples in range"],
            &rows,
        ));
    }
    if !r.mediation.is_empty() {
        out.push_str("\n== Mediation through recall (Baron-Kenny: indirect = total - direct = a*b)\n");
        let rows: Vec<Vec<String>> = r
            .mediation
            .iter()
            .map(|m| {
                vec![
                    m.group.clone(),
                    format!("{} vs {}", m.focus, m.against),
                    format!("{:+.4} {}", m.total, ci(m.total_low, m.total_high)),
                    format!("{:+.4}", m.direct),
                    format!("{:+.4} {}", m.indirect, ci(m.indirect_low, m.indirect_high)),
                    match m.proportion {
                        Some(p) => format!(
                            "{p:.3} {}{}",
                            ci(m.proportion_low, m.proportion_high),
                            if m.unstable { " (unstable: total ~ 0)" } else { "" }
                        ),
                        None => "-".into(),
                    },
                ]
            })
            .collect();
        out.push_str(&render_columns(
            &["group", "comparison", "total", "direct", "indirect", "proportion mediated"],
            &rows,
        ));
    }
    if !r.power.is_empty() {
        out.push_str("\n== Power of each comparison\n");
        let rows: Vec<Vec<String>> = r
            .power
            .iter()
            .map(|p| {
                vec![
                    p.group.clone(),
                    format!("{} vs {}", p.arm, p.against),
                    format!("{}/{}", p.n, p.n_against),
                    format!("{:+.4}", p.delta),
                    p.design.to_string(),
                    f4(p.power),
                    f4(p.mde),
                    p.n_needed.map_or("-".into(), |n| format!("{}", n.ceil())),
                    f4(p.power_at_claim),
                    p.verdict.clone(),
                ]
            })
            .collect();
        out.push_str(&render_columns(
            &["group", "comparison", "n", "delta", "design", "power", "MDE", "n needed", "power at claim", "verdict"],
            &rows,
        ));
    }
    out
}
