//! Linter checks on the per-query scores themselves (`docs/claims.md` §The linter):
//! configuration fingerprints of the arms compared (`config_mismatch`, seed-000's banking77
//! −74pp artifact: one arm run with another prompt) and query ids given twice for one cell
//! (`duplicate_query_id`).
//!
//! The rule, per (run, dataset), for each fingerprint column present (`prompt_hash`,
//! `config_hash`; empty cells are unknown and compared with nothing):
//! 1. one cell (arm, K) carries one value — a cell mixing values is a finding;
//! 2. one arm carries one value across K (K is the sweep variable, not part of either
//!    fingerprint; Δ-stability and the series compare an arm's K) — else a finding naming every
//!    K and its value;
//! 3. `prompt_hash` only: the two arms of a contrast (the K-sweep's contrasts, by default every
//!    pair of arms) at equal K carry the same value — else a finding naming both arms, K and
//!    both values. `config_hash` is the arm's own configuration and differs between arms by
//!    design, so it is never compared across arms.

use crate::distinct::first_seen;
use std::collections::BTreeMap;

use crate::ksweep::read::{CONFIG_HASH, PROMPT_HASH};
use crate::ksweep::{ScoreRow, ScoreTable};
use crate::printed::lint::{Finding, FindingSide, LintKind};

type Group = (Option<String>, Option<String>); // (run, dataset)

fn k_text(k: Option<i64>) -> String {
    k.map_or("-".into(), |k| k.to_string())
}

/// The row id of a finding on per-query scores, like the K-sweep's (`run/dataset/k=K/…`).
fn key(run: &Option<String>, dataset: &Option<String>, k: Option<Option<i64>>, rest: &str) -> String {
    format!(
        "{}{}{}{rest}",
        run.as_ref().map(|r| format!("{r}/")).unwrap_or_default(),
        dataset.as_ref().map(|d| format!("{d}/")).unwrap_or_default(),
        k.map(|k| format!("k={}/", k_text(k))).unwrap_or_default()
    )
}

fn where_(run: &Option<String>, dataset: &Option<String>) -> String {
    let mut s = dataset.as_ref().map_or_else(|| "the data".to_string(), |d| format!("dataset `{d}`"));
    if let Some(r) = run {
        s.push_str(&format!(" (run `{r}`)"));
    }
    s
}

fn locations(sides: &[FindingSide]) -> Option<String> {
    let l: Vec<&str> = sides.iter().filter_map(|s| s.location.as_deref()).collect();
    (!l.is_empty()).then(|| l.join("; "))
}

#[allow(clippy::too_many_arguments)]
fn push(
    out: &mut Vec<Finding>,
    kind: LintKind,
    table: &ScoreTable,
    group: &Group,
    field: &str,
    row: String,
    message: String,
    sides: Vec<FindingSide>,
) {
    let mut f = Finding::new(kind, Some(table.name.clone()), row, message, None, None, locations(&sides));
    f.run = group.0.clone();
    f.dataset = group.1.clone();
    f.field = Some(field.to_string());
    f.sides = sides;
    out.push(f);
}

/// The distinct values of one fingerprint in one cell, each with where it was first read.
type CellValues = Vec<(String, String)>; // (value, "file, line N")

fn fingerprint<'a>(field: &str, r: &'a ScoreRow) -> Option<&'a String> {
    if field == PROMPT_HASH { r.prompt_hash.as_ref() } else { r.config_hash.as_ref() }
}

/// `config_mismatch` findings on the per-query scores (rules in the module docs). `contrasts`
/// are the K-sweep's (a, b); empty: every pair of arms in first-seen order.
pub fn config_findings(table: &ScoreTable, contrasts: &[(String, String)]) -> Vec<Finding> {
    let mut out = Vec::new();
    let arms: Vec<String> = first_seen(table.rows.iter().map(|r| r.arm.clone()));
    let pairs: Vec<(String, String)> = if contrasts.is_empty() {
        let mut c = Vec::new();
        for (i, a) in arms.iter().enumerate() {
            for b in &arms[i + 1..] {
                c.push((a.clone(), b.clone()));
            }
        }
        c
    } else {
        contrasts.to_vec()
    };
    let groups: Vec<Group> = first_seen(table.rows.iter().map(|r| (r.run.clone(), r.dataset.clone())));
    for field in [PROMPT_HASH, CONFIG_HASH] {
        let get = |r: &'_ ScoreRow| fingerprint(field, r).cloned();
        if !table.rows.iter().any(|r| get(r).is_some()) {
            continue;
        }
        for g in &groups {
            let rows: Vec<&ScoreRow> = table.rows.iter().filter(|r| r.run == g.0 && r.dataset == g.1).collect();
            let mut ks: Vec<Option<i64>> = first_seen(rows.iter().map(|r| r.k));
            ks.sort();
            let mut cells: BTreeMap<(String, Option<i64>), CellValues> = BTreeMap::new();
            for r in &rows {
                if let Some(h) = get(r) {
                    let c = cells.entry((r.arm.clone(), r.k)).or_default();
                    if !c.iter().any(|(v, _)| *v == h) {
                        c.push((h, format!("{}, line {}", r.file, r.line)));
                    }
                }
            }
            // the one value of a cell, if it has exactly one
            let single = |arm: &str, k: Option<i64>| -> Option<&(String, String)> {
                cells.get(&(arm.to_string(), k)).filter(|c| c.len() == 1).and_then(|c| c.first())
            };
            let side = |arm: &str, k: Option<i64>, (v, l): &(String, String)| FindingSide {
                arm: arm.to_string(),
                k,
                value: v.clone(),
                location: Some(l.clone()),
            };
            for arm in &arms {
                // 1. one cell mixing values
                for &k in &ks {
                    if let Some(c) = cells.get(&(arm.clone(), k)).filter(|c| c.len() > 1) {
                        let sides: Vec<FindingSide> = c.iter().map(|x| side(arm, k, x)).collect();
                        let values: Vec<String> = c.iter().map(|(v, l)| format!("`{v}` ({l})")).collect();
                        push(
                            &mut out,
                            LintKind::ConfigMismatch,
                            table,
                            g,
                            field,
                            key(&g.0, &g.1, Some(k), arm),
                            format!(
                                "arm `{arm}` on {} at K = {} mixes {field} values {}: its mean pools several configurations",
                                where_(&g.0, &g.1),
                                k_text(k),
                                values.join(", ")
                            ),
                            sides,
                        );
                    }
                }
                // 2. one arm across K
                let across: Vec<(Option<i64>, &(String, String))> =
                    ks.iter().filter_map(|&k| single(arm, k).map(|x| (k, x))).collect();
                if first_seen(across.iter().map(|(_, (v, _))| v)).len() > 1 {
                    let sides: Vec<FindingSide> = across.iter().map(|(k, x)| side(arm, *k, x)).collect();
                    let values: Vec<String> =
                        across.iter().map(|(k, (v, _))| format!("`{v}` at K = {}", k_text(*k))).collect();
                    push(
                        &mut out,
                        LintKind::ConfigMismatch,
                        table,
                        g,
                        field,
                        key(&g.0, &g.1, None, arm),
                        format!(
                            "arm `{arm}` on {} changes {field} across K: {} — its K-sweep and Δ-stability compare \
                             different configurations",
                            where_(&g.0, &g.1),
                            values.join(", ")
                        ),
                        sides,
                    );
                }
            }
            // 3. the two arms of a contrast at equal K (prompt only)
            if field != PROMPT_HASH {
                continue;
            }
            for (a, b) in &pairs {
                for &k in &ks {
                    if let (Some(x), Some(y)) = (single(a, k), single(b, k))
                        && x.0 != y.0
                    {
                        push(
                            &mut out,
                            LintKind::ConfigMismatch,
                            table,
                            g,
                            field,
                            key(&g.0, &g.1, Some(k), &format!("{a}-{b}")),
                            format!(
                                "arms `{a}` and `{b}` on {} at K = {} were run with different prompts: {field} `{}` vs \
                                 `{}` — their delta compares prompts, not arms",
                                where_(&g.0, &g.1),
                                k_text(k),
                                x.0,
                                y.0
                            ),
                            vec![side(a, k, x), side(b, k, y)],
                        );
                    }
                }
            }
        }
    }
    out
}

/// `duplicate_query_id` findings: one per row left out by the reader (a query id already given
/// for the same (run, dataset, target, arm, K)), naming both lines.
pub fn duplicate_findings(table: &ScoreTable) -> Vec<Finding> {
    let mut out = Vec::new();
    for d in &table.duplicates {
        let g = (d.run.clone(), d.dataset.clone());
        let at = |line: usize| FindingSide {
            arm: d.arm.clone(),
            k: d.k,
            value: d.query_id.clone(),
            location: Some(format!("{}, line {line}", d.file)),
        };
        push(
            &mut out,
            LintKind::DuplicateQueryId,
            table,
            &g,
            "query_id",
            key(&d.run, &d.dataset, Some(d.k), &format!("{}/{}", d.arm, d.query_id)),
            format!(
                "query `{}` of arm `{}` on {}{} at K = {} is given twice ({}, line {} and line {}): the row at line {} is \
                 not used",
                d.query_id,
                d.arm,
                where_(&d.run, &d.dataset),
                d.target.as_ref().map(|t| format!(", target `{t}`")).unwrap_or_default(),
                k_text(d.k),
                d.file,
                d.first_line,
                d.line,
                d.line
            ),
            vec![at(d.first_line), at(d.line)],
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::InputFile;
    use crate::ksweep::{ScoreColumns, read_scores};

    fn read(csv: &str) -> ScoreTable {
        read_scores(&InputFile::new("s.csv", csv.as_bytes()), &ScoreColumns::default()).unwrap()
    }

    #[test]
    fn a_mixed_cell_and_an_arm_across_k() {
        let t = read(
            "arm,dataset,k,query_id,sem,config_hash\na,d,5,q1,1,c1\na,d,5,q2,0,c2\na,d,10,q1,1,c1\na,d,10,q2,1,c1\n\
             a,d,20,q1,1,c3\na,d,20,q2,1,c3\nb,d,5,q1,1,x\nb,d,5,q2,1,x\n",
        );
        let f = config_findings(&t, &[]);
        // K = 5 mixes c1/c2; across K: c1 at 10, c3 at 20 (K = 5 is not single); b's x ≠ a's
        // config is by design (config_hash is never compared across arms).
        assert_eq!(f.len(), 2, "{f:#?}");
        assert_eq!(f[0].row, "d/k=5/a");
        assert_eq!(f[0].sides.iter().map(|s| s.value.as_str()).collect::<Vec<_>>(), ["c1", "c2"]);
        assert_eq!(f[0].location.as_deref(), Some("s.csv, line 2; s.csv, line 3"));
        assert_eq!(f[1].row, "d/a");
        assert_eq!(
            f[1].sides.iter().map(|s| (s.k, s.value.as_str())).collect::<Vec<_>>(),
            [(Some(10), "c1"), (Some(20), "c3")]
        );
        assert!(f.iter().all(|x| x.field.as_deref() == Some("config_hash") && x.dataset.as_deref() == Some("d")));
    }

    #[test]
    fn contrasts_limit_the_pairs_and_empty_cells_are_unknown() {
        let csv = "arm,k,query_id,sem,prompt_hash\na,5,q1,1,p\nb,5,q1,1,g\nc,5,q1,0,\n";
        let t = read(csv);
        assert_eq!(config_findings(&t, &[]).len(), 1);
        assert!(config_findings(&t, &[("a".into(), "c".into())]).is_empty());
        let f = config_findings(&t, &[("b".into(), "a".into())]);
        assert_eq!((f[0].row.as_str(), f[0].sides[0].value.as_str()), ("k=5/b-a", "g"));
    }
}
