//! The tables and text of a reclaim report (`memaudit reclaim --format csv --table NAME`,
//! `--format table`): the same [`Table`]s feed the CLI and the viewer's exports.

use super::analysis::{Cell, Contrast, ReclaimReport, WorseThanEmpty};
use super::boundaries::{BucketRow, CascadeRow, CertificateRow, FailureRow, InventedRow};
use super::key::{CELL_KEY, CONTRAST_KEY};
use crate::report::{Column, Table, flag, num, opt};

const FAILURE_MODES: &[Column<FailureRow>] = &crate::columns![FailureRow;
    "design" => |c| c.design.clone(),
    "n" => |c| c.n.to_string(),
    "recovered" => |c| c.recovered.to_string(),
    "inherited" => |c| c.inherited.to_string(),
    "novel" => |c| c.novel.to_string(),
    "abstained" => |c| c.abstained.to_string(),
    "unknown" => |c| c.unknown.to_string(),
    "recovered_share" => |c| num(c.recovered_share),
    "inherited_share" => |c| num(c.inherited_share),
    "novel_share" => |c| num(c.novel_share),
    "abstained_share" => |c| num(c.abstained_share),
    "inherited_per_emission" => |c| num(c.inherited_per_emission),
    "stale_known" => |c| flag(c.stale_known),
    "emission_unknown" => |c| c.emission_unknown.to_string(),
    "emission_unknown_share" => |c| num(c.emission_unknown_share),
    "from_stored_labels" => |c| c.from_stored_labels.to_string(),
    "stored_labels" => |c| c.stored_labels.to_string(),
    "label_disagrees" => |c| c.label_disagrees.to_string(),
];

const BUCKETS: &[Column<BucketRow>] = &crate::columns![BucketRow;
    "design" => |c| c.design.clone(),
    "bucket" => |c| c.bucket.clone(),
    "count" => |c| c.count.to_string(),
    "with_bucket" => |c| c.with_bucket.to_string(),
    "share" => |c| num(Some(c.share)),
];

const CERTIFICATE: &[Column<CertificateRow>] = &crate::columns![CertificateRow;
    "basis" => |c| c.basis.clone(),
    "pass_n" => |c| c.pass_n.to_string(),
    "pass_rr" => |c| num(c.pass_rr),
    "pass_low" => |c| num(c.pass_low),
    "pass_high" => |c| num(c.pass_high),
    "flag_n" => |c| c.flag_n.to_string(),
    "flag_rr" => |c| num(c.flag_rr),
    "flag_low" => |c| num(c.flag_low),
    "flag_high" => |c| num(c.flag_high),
];

const INVENTED: &[Column<InventedRow>] = &crate::columns![InventedRow;
    "model" => |c| opt(&c.model),
    "task" => |c| opt(&c.task),
    "policy" => |c| c.policy.clone(),
    "memories" => |c| c.memories.to_string(),
    "with_invented" => |c| c.with_invented.to_string(),
    "share" => |c| num(Some(c.share)),
    "mean_invented" => |c| num(Some(c.mean_invented)),
    "mean_low" => |c| num(c.mean_low),
    "mean_high" => |c| num(c.mean_high),
    "max_invented" => |c| c.max_invented.to_string(),
    "example" => |c| c.example.clone(),
];

const CASCADE: &[Column<CascadeRow>] = &crate::columns![CascadeRow;
    "model" => |c| opt(&c.model),
    "task" => |c| opt(&c.task),
    "policy" => |c| c.policy.clone(),
    "hops" => |c| num(c.hops),
    "planted" => |c| c.planted.map_or(String::new(), flag),
    "chains" => |c| c.chains.to_string(),
    "blast" => |c| num(c.blast),
    "blast_low" => |c| num(c.blast_low),
    "blast_high" => |c| num(c.blast_high),
    "rr" => |c| num(c.rr),
    "rr_low" => |c| num(c.rr_low),
    "rr_high" => |c| num(c.rr_high),
    "source_complete" => |c| num(c.source_complete),
    "hop_wrong" => |c| c.hop_wrong.iter().map(|x| format!("{x}")).collect::<Vec<_>>().join(" "),
    "control_blast" => |c| flag(c.control_blast),
];

crate::choice! {
    /// The tables of a reclaim report (`--table NAME`).
    pub enum ReclaimTable {
        Cells,
        WorseThanEmpty,
        Contrasts,
        /// Recovered / inherited / novel / abstained per cell.
        FailureModes,
        /// Stored bucket counts per cell (completeness buckets, failure-mode labels).
        Buckets,
        /// Reclaim rate along the size or noise sweep, one row per point, with the crossover.
        Sweeps,
        /// The recompute certificate's pass / flag split.
        Certificate,
        /// Numbers in memory notes that appear in no source.
        Invented,
        /// Cascade blast radius, reclaim and per-hop wrong shares.
        Cascade,
        /// The populations of problems the cells hold (the cells' `population` column).
        Populations,
        /// The columns that key the cells, are pooled, or are not used.
        CellColumns,
    }
}

const CELLS: &[Column<Cell>] = &crate::columns![Cell;
    /// Trials with a known outcome.
    "n" => |c| c.n.to_string(),
    /// Distinct problems among them.
    "problems" => |c| c.problems.to_string(),
    /// Trials recovered (correct).
    "recovered" => |c| c.recovered.to_string(),
    /// Reclaim rate = recovered / n.
    "rr" => |c| num(c.rr),
    /// Bootstrap interval of rr, resampling problems (clusters), lower bound.
    "rr_low" => |c| num(c.rr_low),
    /// Bootstrap interval of rr, resampling problems (clusters), upper bound.
    "rr_high" => |c| num(c.rr_high),
    /// Rule of three: 1 − 3/n when every trial was recovered.
    "rule_of_three_low" => |c| num(c.rule_of_three_low),
    /// Rule of three: 3/n when no trial was recovered.
    "rule_of_three_high" => |c| num(c.rule_of_three_high),
    /// Trials whose answered or abstained status is known.
    "answered_known" => |c| c.answered_known.to_string(),
    /// Trials that abstained.
    "abstain" => |c| c.abstain.to_string(),
    /// abstain / answered_known.
    "abstain_rate" => |c| num(c.abstain_rate),
    /// Confident-wrong emissions: an answer that is not correct.
    "emit" => |c| c.emit.to_string(),
    /// emit / answered_known.
    "emit_rate" => |c| num(c.emit_rate),
    /// Emissions of the stale value (the attractor).
    "attractor" => |c| c.attractor_per_n.count.to_string(),
    /// attractor / n.
    "attractor_per_n" => |c| num(c.attractor_per_n.rate),
    /// attractor / emit.
    "attractor_per_emission" => |c| num(c.attractor_per_emission.rate),
    /// Trials whose stale value is known (attractors are counted among these).
    "stale_known" => |c| c.stale_known.to_string(),
    "rescored" => |c| c.rescored.to_string(),
    "rescore_disagrees" => |c| c.rescore_disagrees.to_string(),
    "abstain_rule" => |c| c.abstain_rule.clone(),
    "hedge_abstain" => |c| c.hedge_abstain.to_string(),
    "abstain_fallback" => |c| c.abstain_fallback.to_string(),
    /// The cell's sweep design values (n, budget, …); empty when the rows have none or they were pooled.
    "design" => |c| design_text(c),
    "population" => |c| c.population.clone(),
    /// Emissions that cannot be told inherited or novel (no stale value, no stored label): counted as unknown, never as novel.
    "emission_unknown" => |c| c.emission_unknown.to_string(),
    "from_stored_labels" => |c| c.from_stored_labels.to_string(),
    "stored_labels" => |c| c.stored_labels.to_string(),
    "label_disagrees" => |c| c.label_disagrees.to_string(),
    "flagged_known" => |c| c.flagged_known.to_string(),
    "flagged" => |c| c.flagged.to_string(),
    "flagged_emit" => |c| c.flagged_emit.to_string(),
];

/// A cell's sweep design values, `n=4 budget=300` (empty without any).
pub fn design_text(c: &Cell) -> String {
    super::boundaries::design_text(&c.design)
}

const WORSE_THAN_EMPTY: &[Column<WorseThanEmpty>] = &crate::columns![WorseThanEmpty;
    /// The memory policy that keeps a lossy memory.
    "lossy_policy" => |w| w.lossy_policy.clone(),
    /// The policy with an empty memory.
    "blank_policy" => |w| w.blank_policy.clone(),
    /// Trials of the lossy policy whose emission is known.
    "n_lossy" => |w| w.n_lossy.to_string(),
    /// Trials of the empty policy whose emission is known.
    "n_blank" => |w| w.n_blank.to_string(),
    /// Confident-wrong emission rate of the lossy policy.
    "emit_lossy" => |w| num(w.emit_lossy),
    /// Confident-wrong emission rate of the empty policy.
    "emit_blank" => |w| num(w.emit_blank),
    /// emit_lossy − emit_blank.
    "delta" => |w| num(w.difference.delta),
    /// Bootstrap interval of delta, lower bound.
    "low" => |w| num(w.difference.low),
    /// Bootstrap interval of delta, upper bound.
    "high" => |w| num(w.difference.high),
    /// paired (the same seed and problem on both sides) or unpaired.
    "pairing" => |w| w.difference.pairing.clone(),
    /// The (seed, problem) pairs compared; 0 when unpaired.
    "pairs" => |w| w.difference.pairs.to_string(),
    /// delta < 0: the lossy memory emits less than the empty one.
    "reverses" => |w| w.reverses.to_string(),
    "abstain_rule" => |w| w.abstain_rule.clone(),
];

const CONTRASTS: &[Column<Contrast>] = &crate::columns![Contrast;
    "a" => |c| c.a.clone(),
    "b" => |c| c.b.clone(),
    /// Trials of a with a known outcome.
    "n_a" => |c| c.n_a.to_string(),
    /// Trials of b with a known outcome.
    "n_b" => |c| c.n_b.to_string(),
    /// Reclaim rate of a.
    "rr_a" => |c| num(c.rr_a),
    /// Reclaim rate of b.
    "rr_b" => |c| num(c.rr_b),
    /// rr_a − rr_b.
    "delta" => |c| num(c.difference.delta),
    /// Bootstrap interval of delta, lower bound.
    "low" => |c| num(c.difference.low),
    /// Bootstrap interval of delta, upper bound.
    "high" => |c| num(c.difference.high),
    /// paired (the same seed and problem on both sides) or unpaired.
    "pairing" => |c| c.difference.pairing.clone(),
    /// The (seed, problem) pairs compared; 0 when unpaired.
    "pairs" => |c| c.difference.pairs.to_string(),
];

/// One table of a reclaim report.
pub fn reclaim_table(r: &ReclaimReport, which: ReclaimTable) -> Table {
    match which {
        ReclaimTable::Cells => Table::keyed(which.name(), CELL_KEY, |c| &c.key, CELLS, &r.cells),
        ReclaimTable::WorseThanEmpty => {
            Table::keyed(which.name(), CONTRAST_KEY, |w| &w.key, WORSE_THAN_EMPTY, &r.worse_than_empty)
        }
        ReclaimTable::Contrasts => Table::keyed(which.name(), CONTRAST_KEY, |c| &c.key, CONTRASTS, &r.contrasts),
        ReclaimTable::FailureModes => {
            Table::keyed(which.name(), CELL_KEY, |f| &f.key, FAILURE_MODES, &r.boundaries.failure_modes)
        }
        ReclaimTable::Buckets => Table::keyed(which.name(), CELL_KEY, |b| &b.key, BUCKETS, &r.boundaries.buckets),
        ReclaimTable::Certificate => {
            Table::keyed(which.name(), CELL_KEY, |c| &c.key, CERTIFICATE, &r.boundaries.certificate)
        }
        ReclaimTable::Invented => Table::of(which.name(), INVENTED, &r.boundaries.invented),
        ReclaimTable::Cascade => Table::of(which.name(), CASCADE, &r.boundaries.cascade),
        ReclaimTable::Populations => r.populations.populations_table(which.name()),
        ReclaimTable::CellColumns => r.populations.columns_table(which.name()),
        ReclaimTable::Sweeps => {
            let mut headers = vec!["variable"];
            headers.extend(CELL_KEY.iter().map(|c| c.name));
            headers.extend(["fixed", "x", "n", "rr", "low", "high", "crossover"]);
            let mut t = Table::new(which.name(), &headers);
            for s in &r.boundaries.sweeps {
                for p in &s.points {
                    let mut row = vec![s.variable.clone()];
                    row.extend(CELL_KEY.iter().map(|c| (c.value)(&s.key)));
                    row.extend([s.fixed.clone(), num(Some(p.x)), p.n.to_string(), num(p.rr), num(p.low), num(p.high)]);
                    row.push(num(s.crossover));
                    t.rows.push(row);
                }
            }
            t
        }
    }
}

fn dash(v: Option<f64>) -> String {
    v.map(|x| format!("{x:.2}")).unwrap_or_else(|| "—".into())
}

/// The cells as the text report prints them (the paper's layout).
fn text_cell_columns() -> [Column<Cell>; 14] {
    crate::columns![Cell;
    "model" => |c| opt(&c.key.model),
    "task" => |c| opt(&c.key.task),
    "policy" => |c| c.key.policy.clone(),
    "design" => |c| if c.design.is_empty() { "—".into() } else { design_text(c) },
    "g" => |c| opt(&c.key.integrity),
    "arm" => |c| opt(&c.key.arm),
    "n" => |c| c.n.to_string(),
    "RR [95% CI]" => |c| paper_cell(c.rr, c.rr_low, c.rr_high),
    "abstain" => |c| dash(c.abstain_rate),
    "emit" => |c| dash(c.emit_rate),
    "attr/n" => |c| dash(c.attractor_per_n.rate),
    "attr/emit" => |c| dash(c.attractor_per_emission.rate),
    "rescored" => |c| match c.rescored {
        0 => "—".into(),
        // The keys may cover only some trials: said, never a bare count.
        r if r < c.n => format!("{r} of {} ({} differ)", c.n, c.rescore_disagrees),
        r => format!("{r} ({} differ)", c.rescore_disagrees),
    },
    "pop." => |c| c.population.clone(),
    ]
}

/// reclaim-eval's display of a CI bound (`_b`): `1` if ≥ 0.9995, `0` if ≤ 0.0005, otherwise
/// two decimals without the leading zero (`.52`). Rust's `{:.2}` rounds like Python's `:.2f`.
pub fn paper_bound(x: f64) -> String {
    if x >= 0.9995 {
        "1".into()
    } else if x <= 0.0005 {
        "0".into()
    } else {
        let s = format!("{x:.2}");
        match s.strip_prefix("0.") {
            Some(rest) => format!(".{rest}"),
            None => match s.strip_prefix("-0.") {
                Some(rest) => format!("-.{rest}"),
                None => s,
            },
        }
    }
}

/// A rate with its interval as the paper prints it: `0.61 [.52,.71]`.
pub fn paper_cell(rate: Option<f64>, low: Option<f64>, high: Option<f64>) -> String {
    match (rate, low, high) {
        (Some(m), Some(l), Some(h)) => format!("{m:.2} [{},{}]", paper_bound(l), paper_bound(h)),
        (Some(m), _, _) => format!("{m:.2}"),
        _ => "—".into(),
    }
}

/// The reclaim report as text.
pub fn render_text(r: &ReclaimReport) -> String {
    use crate::probe::summary::render_table;
    let mut cells = Table::of("cells", &text_cell_columns(), &r.cells);
    // Columns with nothing in any row (no task, one population) are left out of the text.
    let keep: Vec<bool> = (0..cells.headers.len())
        .map(|i| match cells.headers[i].as_str() {
            "task" => r.cells.iter().any(|c| c.key.task.is_some()),
            "pop." => r.populations.populations.len() > 1,
            _ => true,
        })
        .collect();
    let filter = |row: &Vec<String>| -> Vec<String> {
        row.iter().zip(&keep).filter(|(_, k)| **k).map(|(c, _)| c.clone()).collect()
    };
    let headers = filter(&cells.headers);
    cells.rows = cells.rows.iter().map(filter).collect();
    cells.headers = headers;
    let mut out = render_table(&cells);
    out.push_str(&format!("intervals: {}\n", r.interval_method));
    out.push_str(&format!("abstention: {}\n", r.abstain_method));
    out.push_str(&flag_text(&r.cells));
    if !r.worse_than_empty.is_empty() {
        out.push_str("\nworse than empty: Δ = emit(lossy) − emit(blank)\n");
        for w in &r.worse_than_empty {
            out.push_str(&format!(
                "  {} g={} {}: {} − {} = {:+.2} [{}, {}] ({}, n={}/{}){}\n",
                opt(&w.key.model),
                opt(&w.key.integrity),
                opt(&w.key.arm),
                dash(w.emit_lossy),
                dash(w.emit_blank),
                w.difference.delta.unwrap_or(f64::NAN),
                dash(w.difference.low),
                dash(w.difference.high),
                w.difference.pairing,
                w.n_lossy,
                w.n_blank,
                if w.reverses { "  REVERSES" } else { "" }
            ));
        }
    }
    if !r.contrasts.is_empty() {
        out.push_str("\ncontrasts: RR(a) − RR(b)\n");
        for c in &r.contrasts {
            out.push_str(&format!(
                "  {} g={} {}: {} − {} = {:+.2} [{:+.2}, {:+.2}] ({}, n={}/{})\n",
                opt(&c.key.model),
                opt(&c.key.integrity),
                opt(&c.key.arm),
                c.a,
                c.b,
                c.difference.delta.unwrap_or(f64::NAN),
                c.difference.low.unwrap_or(f64::NAN),
                c.difference.high.unwrap_or(f64::NAN),
                c.difference.pairing,
                c.n_a,
                c.n_b
            ));
        }
    }
    let cells_text = r.populations.text();
    if !cells_text.is_empty() {
        out.push('\n');
        out.push_str(&cells_text);
    }
    out.push_str(&boundaries_text(&r.boundaries));
    for w in r.warnings.iter() {
        out.push_str(&format!("note: {} ({}): {}\n", w.message, w.count, w.examples.join("; ")));
    }
    out
}

/// The prose channel beside the ANSWER line, per cell whose rows say (empty when none do).
fn flag_text(cells: &[Cell]) -> String {
    let flagged: Vec<&Cell> = cells.iter().filter(|c| c.flagged_known > 0).collect();
    if flagged.is_empty() {
        return String::new();
    }
    let mut out = "prose flag (`flagged`: the reply hedges in prose, whatever its ANSWER line says)\n".to_string();
    for c in flagged {
        out.push_str(&format!(
            "  {}: {} of {} flagged, {} of them emit a wrong value on the ANSWER line\n",
            super::cells::cell_text(&c.key.policy, c.key.integrity, &c.design),
            c.flagged,
            c.flagged_known,
            c.flagged_emit
        ));
    }
    out
}

/// Where the stored labels were used or disagree, in words (empty when the file has none).
fn stored_note(f: &FailureRow) -> String {
    if f.stored_labels == 0 {
        return String::new();
    }
    format!(
        "; stored labels on {} trial(s), {} used where the stale value is unknown, {} disagree with the recomputed class",
        f.stored_labels, f.from_stored_labels, f.label_disagrees
    )
}

/// The boundary evidence as text: failure modes where a cell failed, sweeps with their
/// crossover, the certificate, invented numbers and cascades.
fn boundaries_text(b: &super::boundaries::Boundaries) -> String {
    let mut out = String::new();
    let failed: Vec<_> = b.failure_modes.iter().filter(|f| f.recovered < f.n).collect();
    if !failed.is_empty() {
        out.push_str("\nfailure modes (shares of n; inherited/emit is of the confident-wrong emissions)\n");
        for f in failed {
            out.push_str(&format!(
                "  {} {} {} g={} {} {}: n={} recovered {} inherited {} novel {} unknown {} abstained {} (inherited/emit {}){}\n",
                opt(&f.key.model),
                opt(&f.key.task),
                f.key.policy,
                opt(&f.key.integrity),
                opt(&f.key.arm),
                f.design,
                f.n,
                dash(f.recovered_share),
                dash(f.inherited_share),
                dash(f.novel_share),
                dash(f.emission_unknown_share),
                dash(f.abstained_share),
                dash(f.inherited_per_emission),
                stored_note(f)
            ));
        }
    }
    for s in &b.sweeps {
        out.push_str(&format!(
            "\nsweep over {} ({} {} {} {}): crossover (largest {} with RR > 0.5) = {}\n",
            s.variable,
            opt(&s.key.model),
            s.key.policy,
            opt(&s.key.arm),
            s.fixed,
            s.variable,
            s.crossover.map_or("none".into(), |x| format!("{x}"))
        ));
        for p in &s.points {
            out.push_str(&format!("  {}={}: {} (n={})\n", s.variable, p.x, paper_cell(p.rr, p.low, p.high), p.n));
        }
    }
    if !b.certificate.is_empty() {
        out.push_str("\nrecompute certificate (pass: the note kept every item the answer needs)\n");
        for c in &b.certificate {
            out.push_str(&format!(
                "  {} {} {} [{}]: pass {} (n={}), flag {} (n={})\n",
                opt(&c.key.model),
                c.key.policy,
                opt(&c.key.arm),
                c.basis,
                paper_cell(c.pass_rr, c.pass_low, c.pass_high),
                c.pass_n,
                paper_cell(c.flag_rr, c.flag_low, c.flag_high),
                c.flag_n
            ));
        }
    }
    if !b.invented.is_empty() {
        out.push_str("\ninvented numbers (in the memory, in no session-1 source)\n");
        for i in &b.invented {
            out.push_str(&format!(
                "  {} {}: {} of {} memories ({:.0}%), mean {:.1} [{}, {}]\n",
                opt(&i.model),
                i.policy,
                i.with_invented,
                i.memories,
                i.share * 100.0,
                i.mean_invented,
                dash(i.mean_low),
                dash(i.mean_high)
            ));
        }
    }
    if !b.cascade.is_empty() {
        out.push_str("\ncascade (blast = hops with a wrong answer, hop 1 included)\n");
        for c in &b.cascade {
            out.push_str(&format!(
                "  {} {} H={} planted={}: {} chains, blast {} [{}, {}], RR {}, source complete {}{}\n",
                opt(&c.model),
                c.policy,
                num(c.hops),
                c.planted.map_or("-".into(), |p| p.to_string()),
                c.chains,
                dash(c.blast),
                dash(c.blast_low),
                dash(c.blast_high),
                paper_cell(c.rr, c.rr_low, c.rr_high),
                dash(c.source_complete),
                if c.control_blast { "  CONTROL HAS BLAST" } else { "" }
            ));
        }
    }
    out
}
