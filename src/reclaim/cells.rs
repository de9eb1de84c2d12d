//! Reclaim's cells as the cells mechanism ([`crate::cells`]) forms them: a trial's identity is
//! its problem and seed; its declared cell is (model, task, g, arm, policy); every column the
//! trials reader does not read is a candidate design column (`prompt`, `n`, `budget`, `H`, …).
//! A panel — the cells set side by side — is one (model, task, arm): its policies, integrity
//! levels and design values.

use super::trials::Trial;
use crate::cells::{CellSettings, Design, Exclusions, Frame, Restriction, RowRef, design::key_text};
use crate::error::Result;

/// The trials with their keyed design values, the design found, and the trials left out.
pub struct Formed {
    pub trials: Vec<Trial>,
    pub design: Design,
    pub excluded: Exclusions,
}

/// The declared cell of a trial, as an opaque key.
fn declared_cell(t: &Trial) -> String {
    format!(
        "{}\u{1f}{}\u{1f}{}\u{1f}{}\u{1f}{}",
        t.model.as_deref().unwrap_or(""),
        t.task.as_deref().unwrap_or(""),
        t.integrity.map(f64::to_bits).unwrap_or(u64::MAX),
        t.arm.as_deref().unwrap_or(""),
        t.policy
    )
}

/// A trial's identity: its problem and seed.
pub fn identity(t: &Trial) -> String {
    match t.seed {
        Some(s) => format!("{}\u{1f}{s}", t.pid),
        None => t.pid.clone(),
    }
}

/// The panel of a cell in words: `model · task · arm` (the parts there are).
pub fn panel_text(model: &Option<String>, task: &Option<String>, arm: &Option<String>) -> String {
    let parts: Vec<&str> = [model, task, arm].iter().filter_map(|p| p.as_deref()).collect();
    if parts.is_empty() { "all trials".into() } else { parts.join(" · ") }
}

/// A cell within its panel in words: `policy g=0.1 prompt=v0`.
pub fn cell_text(policy: &str, integrity: Option<f64>, design: &[(String, String)]) -> String {
    let mut out = policy.to_string();
    if let Some(g) = integrity {
        out.push_str(&format!(" g={g}"));
    }
    if !design.is_empty() {
        out.push(' ');
        out.push_str(&key_text(design));
    }
    out
}

/// Forms the cells of `trials`: finds the design columns (refusing a problem repeated within a
/// cell), keys each trial by them, and keeps the trials the problem set and the common-items
/// setting keep. `item` names the problem column when the trials read it from one (for messages).
pub fn form(trials: Vec<Trial>, settings: &CellSettings, pool_design: bool, item: Option<&str>) -> Result<Formed> {
    let problem = item.unwrap_or("pid");
    let seeded = trials.iter().any(|t| t.seed.is_some());
    let identity_columns: Vec<&str> = if seeded { vec![problem, "seed"] } else { vec![problem] };
    let mut frame = Frame::new(&identity_columns);
    for t in &trials {
        frame.push(
            &t.file,
            t.line,
            Some(identity(t)),
            declared_cell(t),
            t.other.iter().map(|(k, v)| (k.as_str(), v.as_str())),
            t.fingerprint,
        );
    }
    let mut design = Design::detect(&frame, settings)?;
    if pool_design && !design.keyed.is_empty() {
        let mut all = settings.clone();
        all.pool.extend(design.keyed.iter().map(|k| k.column.clone()));
        design = Design::detect(&frame, &all)?;
    }
    let mut trials = trials;
    for (t, keys) in trials.iter_mut().zip(&design.row_keys) {
        t.design = keys.clone();
    }
    let restriction = Restriction::of(settings);
    let mut excluded = Exclusions::default();
    if !restriction.is_none() {
        let identities: Vec<String> = trials.iter().map(identity).collect();
        let panels: Vec<String> = trials.iter().map(|t| panel_text(&t.model, &t.task, &t.arm)).collect();
        let cells: Vec<String> =
            trials.iter().map(|t| format!("{}\u{1f}{}", declared_cell(t), key_text(&t.design))).collect();
        let refs: Vec<RowRef> = (0..trials.len())
            .map(|i| RowRef { item: &trials[i].pid, identity: &identities[i], panel: &panels[i], cell: &cells[i] })
            .collect();
        let (keep, out) = restriction.apply(&refs, "problems");
        excluded = out;
        let mut keep = keep.into_iter();
        trials.retain(|_| keep.next().unwrap_or(true));
    }
    Ok(Formed { trials, design, excluded })
}
