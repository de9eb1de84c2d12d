//! Answers' cells as the cells mechanism ([`crate::cells`]) forms them: an answer's identity is
//! its query (and replicate: a `seed` or `epoch` column); its cell is its arm. A design column
//! found in the data (a `prompt` crossed with the queries) splits the arm — shown in the arm's
//! name, `system-a · prompt=v1` — unless pooled. An answer repeated in one arm is refused, or
//! with `repeats = first` the first row is kept and the repeats counted.

use std::collections::HashMap;

use super::read::{AnswerRow, AnswerWarningKind, AnswerWarnings, StatedScore};
use crate::cells::{
    CellItems, CellReport, CellSettings, Design, Frame, Populations, Repeats, Restriction, RowRef, design::key_text,
};
use crate::error::Result;

/// The rows as their cells hold them, and how the cells were formed.
pub struct Formed {
    pub rows: Vec<AnswerRow>,
    pub cells: CellReport,
}

fn identity(r: &AnswerRow) -> String {
    match &r.replicate {
        Some(s) => format!("{}\u{1f}{s}", r.query_id),
        None => r.query_id.clone(),
    }
}

/// Forms the cells of `rows` (see the module documentation).
pub fn form(
    rows: &[AnswerRow],
    settings: &CellSettings,
    repeats: Repeats,
    warnings: &mut AnswerWarnings,
) -> Result<Formed> {
    let mut rows: Vec<AnswerRow> = rows.to_vec();
    if repeats == Repeats::First {
        // Per kept row's key, where it is and what it answered: a repeat that answers otherwise
        // (another prediction, gold or own scores) is counted apart, naming the line it differs
        // from.
        type Key = (Option<String>, String, Vec<(String, String)>);
        type Answer<'a> = (usize, &'a str, &'a [String], &'a [StatedScore]);
        let mut seen: HashMap<Key, Answer<'_>> = HashMap::new();
        let mut keep = Vec::with_capacity(rows.len());
        for r in &rows {
            match seen.get(&(r.arm.clone(), identity(r), r.other.clone())) {
                None => {
                    seen.insert(
                        (r.arm.clone(), identity(r), r.other.clone()),
                        (r.line, &r.prediction, &r.gold, &r.stated),
                    );
                    keep.push(true);
                }
                Some((line, prediction, gold, stated))
                    if (*prediction, *gold, *stated)
                        != (r.prediction.as_str(), r.gold.as_slice(), r.stated.as_slice()) =>
                {
                    warnings.add(AnswerWarningKind::ConflictingRepeat, || {
                        format!("{}, line {}: {} answers otherwise than line {line}", r.file, r.line, r.query_id)
                    });
                    keep.push(false);
                }
                Some(_) => {
                    warnings.add(AnswerWarningKind::DuplicateQuery, || {
                        format!("{}, line {}: {}", r.file, r.line, r.query_id)
                    });
                    keep.push(false);
                }
            }
        }
        let mut keep = keep.into_iter();
        rows.retain(|_| keep.next().unwrap_or(true));
    }
    let replicated = rows.iter().any(|r| r.replicate.is_some());
    let mut frame = Frame::new(if replicated { &["query", "seed"] } else { &["query"] });
    for r in &rows {
        frame.push(
            &r.file,
            r.line,
            Some(identity(r)),
            r.arm.clone().unwrap_or_default(),
            r.other.iter().map(|(k, v)| (k.as_str(), v.as_str())),
            r.fingerprint,
        );
    }
    let design = Design::detect(&frame, settings)?;
    for (r, keys) in rows.iter_mut().zip(&design.row_keys) {
        if !keys.is_empty() {
            r.arm = Some(match &r.arm {
                Some(a) => format!("{a} · {}", key_text(keys)),
                None => key_text(keys),
            });
        }
    }
    let restriction = Restriction::of(settings);
    let mut excluded = Default::default();
    if !restriction.is_none() {
        let ids: Vec<String> = rows.iter().map(identity).collect();
        let arms: Vec<String> = rows.iter().map(|r| r.arm.clone().unwrap_or_default()).collect();
        let refs: Vec<RowRef> = (0..rows.len())
            .map(|i| RowRef { item: &rows[i].query_id, identity: &ids[i], panel: "all arms", cell: &arms[i] })
            .collect();
        let (keep, out) = restriction.apply(&refs, "queries");
        excluded = out;
        let mut keep = keep.into_iter();
        rows.retain(|_| keep.next().unwrap_or(true));
    }
    // Populations: the queries each arm holds; arms are set side by side.
    let arms = crate::distinct::first_seen(rows.iter().map(|r| r.arm.clone().unwrap_or_default()));
    let cells: Vec<CellItems> = arms
        .iter()
        .map(|a| {
            let items: Vec<String> =
                rows.iter().filter(|r| r.arm.as_deref().unwrap_or("") == a).map(|r| r.query_id.clone()).collect();
            CellItems {
                cell: if a.is_empty() { "all rows".into() } else { a.clone() },
                panel: "arms".into(),
                rows: items.len(),
                items: Some(items),
            }
        })
        .collect();
    let cells = CellReport::new(settings, design, Populations::of(&cells, "queries"), excluded);
    Ok(Formed { rows, cells })
}
