//! No number changes silently: for every capability that aggregates rows into cells, a real
//! fixture (`../shared/fixtures/external`, or the page's demo where none exists) is mutated four
//! ways — (a) a row duplicated, (b) a column added whose values vary within cells, (c) one id
//! changed, (d) two values of a design column swapped between rows of different items — and each
//! mutation must either leave every number of the JSON report unchanged, or add a headline (an
//! alert or a finding) that names it, or be refused with a message naming the file and the line
//! or the column. (`docs/formats.md`, "Cells, populations, unknowns and duplicates".)
//!
//! A swap between two rows of one item is not detectable by any reader (it is the same as
//! swapping their outcomes), so the swap is between rows of different items.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_memaudit"))
}

fn demo(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("static/demo").join(rel)
}

fn external(rel: &str) -> PathBuf {
    common::shared().join("fixtures/external").join(rel)
}

fn fixtures(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/reference").join(rel)
}

/// A table as rows of (column, text) in the file's column order, and how to write it back.
#[derive(Clone)]
struct Rows {
    jsonl: bool,
    columns: Vec<String>,
    rows: Vec<Vec<(String, Value)>>,
}

impl Rows {
    fn read(path: &Path) -> Rows {
        let text = std::fs::read_to_string(path).unwrap();
        if path.extension().is_some_and(|e| e == "jsonl") {
            let rows: Vec<Vec<(String, Value)>> = text
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(|l| {
                    let o: serde_json::Map<String, Value> = serde_json::from_str(l).unwrap();
                    // The file's own key order, as written.
                    let mut keys: Vec<(usize, String)> =
                        o.keys().map(|k| (l.find(&format!("\"{k}\"")).unwrap_or(0), k.clone())).collect();
                    keys.sort();
                    keys.into_iter().map(|(_, k)| (k.clone(), o[&k].clone())).collect()
                })
                .collect();
            let mut columns = Vec::new();
            for r in &rows {
                for (k, _) in r {
                    if !columns.contains(k) {
                        columns.push(k.clone());
                    }
                }
            }
            return Rows { jsonl: true, columns, rows };
        }
        let mut rd = csv::Reader::from_reader(text.as_bytes());
        let columns: Vec<String> = rd.headers().unwrap().iter().map(str::to_string).collect();
        let rows = rd
            .records()
            .map(|r| {
                let r = r.unwrap();
                columns.iter().cloned().zip(r.iter().map(|c| Value::String(c.to_string()))).collect()
            })
            .collect();
        Rows { jsonl: false, columns, rows }
    }

    fn write(&self) -> String {
        if self.jsonl {
            self.rows
                .iter()
                .map(|r| {
                    let body: Vec<String> =
                        r.iter().map(|(k, v)| format!("{}: {}", Value::String(k.clone()), v)).collect();
                    format!("{{{}}}\n", body.join(", "))
                })
                .collect()
        } else {
            let mut w = csv::Writer::from_writer(Vec::new());
            w.write_record(&self.columns).unwrap();
            for r in &self.rows {
                w.write_record(self.columns.iter().map(|c| text(r, c))).unwrap();
            }
            String::from_utf8(w.into_inner().unwrap()).unwrap()
        }
    }

    fn get(&self, i: usize, col: &str) -> String {
        text(&self.rows[i], col)
    }

    fn set(&mut self, i: usize, col: &str, v: Value) {
        match self.rows[i].iter_mut().find(|(k, _)| k == col) {
            Some(slot) => slot.1 = v,
            None => self.rows[i].push((col.to_string(), v)),
        }
    }
}

fn text(row: &[(String, Value)], col: &str) -> String {
    match row.iter().find(|(k, _)| k == col).map(|(_, v)| v) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) | None => String::new(),
        Some(v) => v.to_string(),
    }
}

/// One capability's case: the fixture it reads, how its CLI call names the file, the identity
/// column, the design column to swap (and a column that must differ between the swapped rows).
struct Case {
    name: &'static str,
    file: PathBuf,
    /// The arguments, with `{}` standing for the (mutated) file.
    args: Vec<&'static str>,
    /// Other files of the call (unchanged).
    extra: Vec<(&'static str, PathBuf)>,
    id: &'static str,
    design: &'static str,
}

/// Every number of a JSON value, by its path (`cells[3].rr`), the headlines and bookkeeping left
/// out (file names, sizes and hashes, line numbers and examples).
fn numbers(v: &Value, path: &str, out: &mut Vec<(String, String)>) {
    const SKIP: &[&str] = &[
        "headlines",
        "memaudit_version",
        "files",
        "readings",
        "sha256",
        "bytes",
        "records",
        "line",
        "examples",
        "example",
        "first_seen",
        "warnings",
        "notices",
        "file",
        "kept",
        "inputs",
        "reasons",
        "populations",
    ];
    match v {
        Value::Number(n) => out.push((path.to_string(), n.to_string())),
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                numbers(x, &format!("{path}[{i}]"), out);
            }
        }
        Value::Object(o) => {
            for (k, x) in o {
                if !SKIP.contains(&k.as_str()) {
                    numbers(x, &format!("{path}.{k}"), out);
                }
            }
        }
        _ => {}
    }
}

enum Outcome {
    Report(Value),
    Refused(String),
}

fn run(case: &Case, text: &str, dir: &Path) -> Outcome {
    let ext = case.file.extension().unwrap().to_str().unwrap();
    let path = dir.join(format!("{}.{ext}", case.name));
    std::fs::write(&path, text).unwrap();
    let mut cmd = bin();
    cmd.current_dir(dir);
    for a in &case.args {
        if *a == "{}" {
            cmd.arg(&path);
        } else {
            cmd.arg(a);
        }
    }
    for (flag, p) in &case.extra {
        cmd.arg(flag).arg(p);
    }
    cmd.args(["--format", "json"]);
    let out = cmd.output().unwrap();
    if out.status.success() {
        Outcome::Report(serde_json::from_slice(&out.stdout).unwrap())
    } else {
        Outcome::Refused(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

fn headline_texts(v: &Value) -> Vec<String> {
    v["headlines"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter(|h| h["level"] != "context" || h["text"].as_str().is_some_and(|t| t.contains("split")))
                .map(|h| format!("{} {}", h["text"].as_str().unwrap_or(""), h["evidence"].as_str().unwrap_or("")))
                .collect()
        })
        .unwrap_or_default()
}

/// Checks one mutation: numbers unchanged, or a new headline naming one of `names`, or a refusal
/// naming the file and one of `names` (or a line).
fn check(case: &Case, base: &Value, mutation: &str, mutated: &str, names: &[String], dir: &Path) {
    let mut before = Vec::new();
    numbers(base, "", &mut before);
    match run(case, mutated, dir) {
        Outcome::Refused(e) => {
            assert!(
                e.contains(case.name) && (names.iter().any(|n| e.contains(n.as_str())) || e.contains("line ")),
                "{} / {mutation}: a refusal must name the file and the line or what changed: {e}",
                case.name
            );
        }
        Outcome::Report(v) => {
            let mut after = Vec::new();
            numbers(&v, "", &mut after);
            if before == after {
                return;
            }
            let old = headline_texts(base);
            let new: Vec<String> = headline_texts(&v).into_iter().filter(|h| !old.contains(h)).collect();
            let named = new.iter().any(|h| names.iter().any(|n| h.contains(n.as_str())));
            let changed: Vec<_> = before.iter().zip(&after).filter(|(a, b)| a != b).take(3).collect();
            assert!(
                named,
                "{} / {mutation}: numbers changed ({changed:?}{}) without a headline naming {names:?}; new headlines: {new:#?}",
                case.name,
                if before.len() != after.len() {
                    format!(", {} vs {} numbers", before.len(), after.len())
                } else {
                    String::new()
                }
            );
        }
    }
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "reclaim",
            file: external("reclaim-eval/srcconcl_llama_arith.jsonl"),
            args: vec!["reclaim", "--bootstrap", "200", "--trials", "{}"],
            extra: vec![],
            id: "pid",
            design: "policy",
        },
        Case {
            name: "reclaim-fix",
            file: external("reclaim-eval/fix_x-ai_grok-4.3-20260430_arith.jsonl"),
            args: vec!["reclaim", "--bootstrap", "200", "--trials", "{}"],
            extra: vec![],
            id: "pid",
            design: "integrity",
        },
        Case {
            name: "compare",
            file: external("reclaim-eval/srcconcl_llama_arith.jsonl"),
            args: vec!["compare", "--bootstrap", "200", "--outcomes", "{}"],
            extra: vec![],
            id: "pid",
            design: "policy",
        },
        Case {
            name: "compliance",
            file: external("BriefBench/all_rows_gpt.jsonl"),
            args: vec!["compliance", "--bootstrap", "100", "--input", "{}"],
            extra: vec![],
            id: "",
            design: "depth",
        },
        Case {
            name: "calibration",
            file: demo("calibration/routing.csv"),
            args: vec!["calibration", "--input", "{}"],
            extra: vec![],
            id: "item",
            design: "seed",
        },
        Case {
            name: "labels",
            file: demo("labels/labels.csv"),
            args: vec!["labels", "--bootstrap", "100", "--labels", "{}"],
            extra: vec![],
            id: "item",
            design: "dataset",
        },
        Case {
            name: "alignment",
            file: demo("alignment/per_query.csv"),
            args: vec!["alignment", "--bootstrap", "100", "--input", "{}"],
            extra: vec![("--input", demo("alignment/answers.csv"))],
            id: "query_id",
            design: "target",
        },
        Case {
            name: "answers",
            file: demo("answers/answers.jsonl"),
            args: vec!["answers", "--input", "{}"],
            extra: vec![],
            id: "query_id",
            design: "dataset",
        },
        Case {
            name: "ablation",
            file: demo("ablation/ablation.csv"),
            args: vec!["ablation", "--bootstrap", "200", "--input", "{}"],
            extra: vec![],
            id: "query_id",
            design: "subset",
        },
        Case {
            name: "claims",
            file: fixtures("paper_fixtures/seed000_scores.csv"),
            args: vec!["claims", "--bootstrap", "200", "--data", "{}"],
            extra: vec![
                ("--claims", fixtures("paper_fixtures/seed000_claims.csv")),
                ("--printed-table", fixtures("paper_fixtures/seed000_tables.csv")),
            ],
            id: "query_id",
            design: "arm",
        },
    ]
}

/// Two rows of different items whose design values differ (the swap's pair).
fn swap_pair(rows: &Rows, id: &str, design: &str) -> Option<(usize, usize)> {
    let n = rows.rows.len();
    let a = n / 3;
    (a + 1..n)
        .find(|&b| rows.get(a, design) != rows.get(b, design) && (id.is_empty() || rows.get(a, id) != rows.get(b, id)))
        .map(|b| (a, b))
}

#[test]
fn no_mutation_changes_a_number_silently() {
    let dir = std::env::temp_dir().join(format!("memaudit-corruption-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // The cases write files of their own names: two at a time, one per core of CI's machine.
    let cases = cases();
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..2)
            .map(|_| {
                scope.spawn(|| {
                    while let Some(case) = cases.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed)) {
                        mutate_and_check(case, &dir);
                    }
                })
            })
            .collect();
        for w in workers {
            if let Err(panic) = w.join() {
                std::panic::resume_unwind(panic);
            }
        }
    });
    let _ = std::fs::remove_dir_all(&dir);
}

/// The four mutations of one case, each checked against the case's unmutated report.
fn mutate_and_check(case: &Case, dir: &Path) {
    {
        let rows = Rows::read(&case.file);
        let original = rows.write();
        let base = match run(case, &original, dir) {
            Outcome::Report(v) => v,
            Outcome::Refused(e) => panic!("{}: the fixture itself is refused: {e}", case.name),
        };
        let k = rows.rows.len() / 2;
        // The line of a row: JSONL rows sit on lines 1…, CSV rows after the header.
        let line = |i: usize| if rows.jsonl { i + 1 } else { i + 2 };
        // (a) a row duplicated (right after itself).
        let mut dup = rows.clone();
        dup.rows.insert(k + 1, rows.rows[k].clone());
        check(
            case,
            &base,
            "duplicated row",
            &dup.write(),
            &[format!("line {}", line(k + 1)), "repeat".into(), "twice".into(), "different".into(), "again".into()],
            dir,
        );
        // (b) a column whose values vary within cells.
        let mut col = rows.clone();
        col.columns.push("zz_extra".into());
        for i in 0..col.rows.len() {
            let v = if i % 2 == 0 { "x" } else { "y" };
            col.set(i, "zz_extra", Value::String(v.into()));
        }
        check(case, &base, "added column", &col.write(), &["zz_extra".to_string()], dir);
        // (c) one id changed.
        if !case.id.is_empty() {
            let mut ids = rows.clone();
            let old = rows.get(k, case.id);
            ids.set(k, case.id, Value::String("zz_new_id".into()));
            check(
                case,
                &base,
                "changed id",
                &ids.write(),
                &["zz_new_id".to_string(), old.clone(), format!("line {}", line(k))],
                dir,
            );
        }
        // (d) two design values swapped between rows of different items.
        if let Some((a, b)) = swap_pair(&rows, case.id, case.design) {
            let mut sw = rows.clone();
            let (va, vb) = (
                rows.rows[a].iter().find(|(c, _)| c == case.design).unwrap().1.clone(),
                rows.rows[b].iter().find(|(c, _)| c == case.design).unwrap().1.clone(),
            );
            sw.set(a, case.design, vb);
            sw.set(b, case.design, va);
            let names = [
                case.design.to_string(),
                rows.get(a, case.design),
                rows.get(b, case.design),
                rows.get(a, case.id),
                rows.get(b, case.id),
                format!("line {}", line(a)),
                format!("line {}", line(b)),
                "different".into(),
            ];
            check(case, &base, "swapped design values", &sw.write(), &names, dir);
        }
    }
}
