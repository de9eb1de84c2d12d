//! The CSV table of an ablation analysis (`memaudit ablation --format csv`): the same
//! [`Table`] feeds the CLI and the viewer's export and table.

use super::{AblationReport, CiRecord};
use crate::report::{Table, num, opt};

/// The tables an ablation analysis can be exported as.
pub const TABLES: [&str; 1] = ["groups"];

/// One table by name (`None` for an unknown name): `groups`, one row per run and per subset
/// ([`AblationReport::groups`]) with the u histogram, the positive rate, ρ with both intervals
/// and the gate.
pub fn table(report: &AblationReport, name: &str) -> Option<Table> {
    if name != "groups" {
        return None;
    }
    let mut t = Table::new(
        "groups",
        &[
            "run",
            "subset",
            "pairs",
            "queries",
            "u_harmful",
            "u_neutral",
            "u_helpful",
            "positive_rate",
            "positive_low",
            "positive_high",
            "base_correct_rate",
            "rho_n",
            "rho",
            "rho_pair_low",
            "rho_pair_high",
            "rho_query_low",
            "rho_query_high",
            "gate_passes",
            "gate_margin",
        ],
    );
    let low = |c: &Option<CiRecord>| num(c.as_ref().map(|c| c.low));
    let high = |c: &Option<CiRecord>| num(c.as_ref().map(|c| c.high));
    for g in report.groups() {
        let (r, nc) = (&g.rates, &g.noncircularity);
        t.rows.push(vec![
            g.run.clone(),
            opt(&g.subset),
            r.pairs.to_string(),
            r.queries.to_string(),
            r.histogram.harmful.to_string(),
            r.histogram.neutral.to_string(),
            r.histogram.helpful.to_string(),
            num(Some(r.positive_rate)),
            num(Some(r.positive_low)),
            num(Some(r.positive_high)),
            num(Some(r.base_correct_rate)),
            nc.n.to_string(),
            num(nc.rho),
            low(&nc.pair_ci),
            high(&nc.pair_ci),
            low(&nc.query_ci),
            high(&nc.query_ci),
            opt(&nc.passes),
            num(nc.margin),
        ]);
    }
    Some(t)
}
