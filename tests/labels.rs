//! `memaudit labels` against scikit-learn and statsmodels (`tests/reference/labels`, made by
//! `make_labels_reference.py`): Cohen's kappa and percent agreement per pair, Fleiss' kappa, and
//! Wilson intervals of each rater's shares, on the classes and on a collapse, for a long CSV, a
//! wide CSV and JSON Lines in TIAP's `judged_cases` shape. Then the reading rules: repeats,
//! invalid labels, tie-breaks, errors that name the file, line and column.

use std::path::PathBuf;

use memaudit::capability::{FileRole, assign_roles, quiet, run_once};
use memaudit::command_line::word as command_line_word;
use memaudit::error::Error;
use memaudit::fields::render_mentions;
use memaudit::ingest::InputFile;
use memaudit::label_audit::{Labels, LabelsReport, LabelsRequest, Repeats, TieBreak};
use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/reference/labels")
}

fn run_on(files: Vec<InputFile>, request: &LabelsRequest) -> Result<LabelsReport, Error> {
    let files = assign_roles::<Labels>(files.into_iter().map(|f| (f, Some(FileRole::Labels))).collect())?;
    run_once::<Labels>(&files, request, &mut quiet()).map(|(_, r)| r)
}

fn file(name: &str) -> InputFile {
    InputFile::new(name, std::fs::read(root().join(name)).unwrap())
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn kappas_agreement_and_wilson_shares_equal_sklearn_and_statsmodels() {
    let reference: Value = serde_json::from_slice(&std::fs::read(root().join("reference.json")).unwrap()).unwrap();
    let cases = reference["cases"].as_object().unwrap();
    assert_eq!(cases.len(), 3);
    for (name, case) in cases {
        let request = LabelsRequest {
            collapse: vec![reference["collapse"].as_str().unwrap().to_string()],
            bootstrap: memaudit::stats::bootstrap::Bootstrap { resamples: 200, seed: 7, confidence: 0.95 },
            ..LabelsRequest::default()
        };
        let r = run_on(vec![file(name)], &request).unwrap_or_else(|e| panic!("{name}: {e}"));
        let raters: Vec<String> =
            case["raters"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().into()).collect();
        assert_eq!(r.raters, raters, "{name}");
        for scale in ["classes", "collapsed"] {
            let want = &case[scale];
            let o = r.overall.iter().find(|o| o.group == "all" && o.scale == scale).unwrap();
            assert_eq!(o.complete_items as u64, want["complete_items"].as_u64().unwrap(), "{name} {scale}");
            let fk = o.fleiss_kappa.unwrap();
            assert!(close(fk, want["fleiss_kappa"].as_f64().unwrap(), 1e-12), "{name} {scale} fleiss {fk}");
            let (lo, hi) = (o.low.unwrap(), o.high.unwrap());
            assert!(lo <= fk && fk <= hi, "{name} {scale}: the interval holds the estimate");
            for p in want["pairs"].as_array().unwrap() {
                let got = r
                    .pairs
                    .iter()
                    .find(|q| {
                        q.group == "all" && q.scale == scale && q.rater_a == p["rater_a"] && q.rater_b == p["rater_b"]
                    })
                    .unwrap_or_else(|| panic!("{name} {scale}: pair {p}"));
                assert_eq!(got.n as u64, p["n"].as_u64().unwrap(), "{name} {scale} {p}");
                assert!(close(got.percent_agreement.unwrap(), p["percent_agreement"].as_f64().unwrap(), 1e-12));
                assert!(close(got.kappa.unwrap(), p["kappa"].as_f64().unwrap(), 1e-12), "{name} {scale} {p} {got:?}");
            }
            for s in want["shares"].as_array().unwrap() {
                let got = r
                    .distribution
                    .iter()
                    .find(|d| d.group == "all" && d.scale == scale && d.rater == s["rater"] && d.label == s["label"])
                    .unwrap_or_else(|| panic!("{name} {scale}: share {s}"));
                assert_eq!((got.count as u64, got.n as u64), (s["count"].as_u64().unwrap(), s["n"].as_u64().unwrap()));
                assert!(close(got.low.unwrap(), s["low"].as_f64().unwrap(), 1e-12), "{name} {s} {got:?}");
                assert!(close(got.high.unwrap(), s["high"].as_f64().unwrap(), 1e-12), "{name} {s} {got:?}");
            }
        }
    }
}

#[test]
fn tiap_shape_is_read_by_its_own_column_names() {
    let r = run_on(vec![file("judged.jsonl")], &LabelsRequest::default()).unwrap();
    let reading = &r.readings[0];
    assert_eq!(reading.item, vec!["run_label", "query_index"]);
    assert_eq!(reading.rater.as_deref(), Some("judge_model"));
    assert_eq!(reading.label.as_deref(), Some("judge_semantic_label"));
    assert!(r.item_rows[0].item.starts_with("run0/0"));
}

fn text(name: &str, body: &str) -> InputFile {
    InputFile::new(name, body.as_bytes().to_vec())
}

#[test]
fn repeats_are_refused_with_both_lines_or_kept_first_and_counted() {
    let body = "case,audit_target,rater,label\nq1,source,a,supports\nq1,canonical,a,partial\nq1,source,b,supports\nq1,canonical,b,supports\nq2,source,a,partial\nq2,source,b,partial\n";
    let req = LabelsRequest { item: vec!["case".into()], ..LabelsRequest::default() };
    let e = run_on(vec![text("dup.csv", body)], &req).unwrap_err().to_string();
    // As the command line says it (the core mentions the setting; each interface spells it).
    let e = memaudit::fields::render_mentions(&e, memaudit::command_line::word);
    assert!(
        e.contains("dup.csv") && e.contains("line 3") && e.contains("line 2") && e.contains("--repeats first"),
        "{e}"
    );
    let req = LabelsRequest { repeats: Repeats::First, ..req };
    let r = run_on(vec![text("dup.csv", body)], &req).unwrap();
    assert_eq!((r.items, r.problems.repeats.count, r.problems.conflicts.count), (2, 2, 1));
    assert_eq!(r.problems.conflicts.examples[0].line, 3);
    // Adding the column that tells them apart makes four items, no repeats.
    let req = LabelsRequest { item: vec!["case".into(), "audit_target".into()], repeats: Repeats::Refuse, ..req };
    assert_eq!(run_on(vec![text("dup.csv", body)], &req).unwrap().items, 3);
}

/// One file per rater, each naming its label column alike: the same rater twice. The refusal
/// names the first label's file and line (it was lost across files) and says how to keep the
/// raters apart; with `repeats first` they are pooled, as the headline says.
#[test]
fn the_same_rater_column_in_two_files_is_refused_naming_both_files() {
    let a = text("ann_a.csv", "item,label\ni1,yes\ni2,no\n");
    let b = text("ann_b.csv", "item,label\ni1,yes\ni2,yes\n");
    let e = run_on(vec![a.clone(), b.clone()], &LabelsRequest::default()).unwrap_err().to_string();
    let e = memaudit::fields::render_mentions(&e, memaudit::command_line::word);
    assert!(e.starts_with("ann_b.csv, line 2, field `label`: item `i1` already has a label"), "{e}");
    assert!(e.contains("(ann_a.csv, line 2)"), "{e}");
    assert!(e.contains("ann_a.csv and ann_b.csv both have the rater column `label`"), "{e}");
    assert!(e.contains("name the column after the rater in each file"), "{e}");
    // Named after their raters, the two files are two raters.
    let b_named = text("ann_b.csv", "item,bob\ni1,yes\ni2,yes\n");
    let a_named = text("ann_a.csv", "item,alice\ni1,yes\ni2,no\n");
    let r = run_on(vec![a_named, b_named], &LabelsRequest::default()).unwrap();
    assert_eq!(r.raters, vec!["alice".to_string(), "bob".to_string()]);
}

#[test]
fn invalid_labels_are_counted_and_left_out_never_guessed() {
    let body = "item,a,b\n1,yes,yes\n2,no,Yes\n3,no,no\n4,NA,no\n";
    let req = LabelsRequest { classes: vec!["yes".into(), "no".into()], ..LabelsRequest::default() };
    let r = run_on(vec![text("w.csv", body)], &req).unwrap();
    assert_eq!((r.problems.invalid.count, r.problems.missing.count, r.complete_items), (1, 1, 2));
    assert_eq!(r.problems.invalid.examples[0].line, 3);
    let pair = &r.pairs[0];
    assert_eq!((pair.n, pair.agreements), (2, 2));
}

#[test]
fn ties_follow_the_stated_rule() {
    let body = "item,a,b,c,d\n1,x,x,y,y\n2,x,x,x,y\n";
    let get = |tie: TieBreak, rater: Option<&str>| {
        let req = LabelsRequest { tie_break: tie, tie_rater: rater.map(Into::into), ..LabelsRequest::default() };
        let r = run_on(vec![text("t.csv", body)], &req).unwrap();
        (r.item_rows[0].majority.clone(), r.overall[0].ties)
    };
    assert_eq!(get(TieBreak::None, None), (Some(String::new()), 1));
    assert_eq!(get(TieBreak::ClassOrder, None), (Some("x".into()), 0));
    assert_eq!(get(TieBreak::Rater, Some("c")), (Some("y".into()), 0));
    let req = LabelsRequest { tie_break: TieBreak::Rater, tie_rater: Some("zz".into()), ..LabelsRequest::default() };
    assert!(run_on(vec![text("t.csv", body)], &req).unwrap_err().to_string().contains("zz"));
}

#[test]
fn errors_name_the_file_line_and_column() {
    let cases = [
        ("no_item.csv", "who,label\na,x\n", LabelsRequest::default(), "--item"),
        ("short.csv", "item,a,b\n1,x\n", LabelsRequest::default(), "line 2"),
        ("empty_id.csv", "item,a,b\n,x,y\n", LabelsRequest::default(), "line 2"),
        ("bad.jsonl", "{\"item\": 1, \"a\": \"x\", \"b\": \"y\"}\n{oops\n", LabelsRequest::default(), "line 2"),
        (
            "stated.csv",
            "item,a,b\n1,x,y\n",
            LabelsRequest { group: Some("dataset".into()), ..LabelsRequest::default() },
            "dataset",
        ),
        (
            "stratum.csv",
            "item,rank,a,b\n1,first,x,y\n",
            LabelsRequest {
                stratum: Some("rank".into()),
                raters: vec!["a".into(), "b".into()],
                ..LabelsRequest::default()
            },
            "line 2",
        ),
    ];
    for (name, body, req, want) in cases {
        let e = render_mentions(&run_on(vec![text(name, body)], &req).unwrap_err().to_string(), command_line_word);
        assert!(e.contains(name) && e.contains(want), "{name}: {e}");
    }
}

#[test]
fn the_text_and_json_print_the_settings() {
    let req = LabelsRequest { collapse: vec!["relevant=supports,partial".into()], ..LabelsRequest::default() };
    let r = run_on(vec![file("long.csv")], &req).unwrap();
    let t = memaudit::capability::report_text::<Labels>(&r);
    assert!(
        t.contains("What the data says")
            && t.contains("bootstrap 2000 resamples, seed 1337")
            && t.contains("tie-break none")
    );
    let j = serde_json::to_value(memaudit::capability::report_envelope::<Labels>(&r)).unwrap();
    assert_eq!(j["settings"]["bootstrap"]["resamples"], 2000);
    assert!(j["headlines"].as_array().is_some_and(|h| !h.is_empty()));
}

#[test]
fn recoded_labels_are_read_as_stated_and_reported_with_their_counts() {
    // Two raters with typos: recoded, the labels are those of the worked example below.
    let body = "item,a,b\n1,supports,suports\n2,supports,supports\n3,does_not_suipport,does_not_support\n\
                4,partial,partial\n5,supports,partial\n6,does_not_support,does_not_suipport\n";
    let recode = vec!["suports=supports".to_string(), "does_not_suipport, dns_typo = does_not_support".to_string()];
    let req = LabelsRequest {
        recode,
        bootstrap: memaudit::stats::bootstrap::Bootstrap { resamples: 0, ..Default::default() },
        ..LabelsRequest::default()
    };
    let r = run_on(vec![text("typos.csv", body)], &req).unwrap();
    assert_eq!(r.classes, ["supports", "does_not_support", "partial"]);
    let counts: Vec<(&str, &str, usize)> =
        r.recoded.iter().map(|x| (x.from.as_str(), x.to.as_str(), x.labels)).collect();
    assert_eq!(
        counts,
        [("suports", "supports", 1), ("does_not_suipport", "does_not_support", 2), ("dns_typo", "does_not_support", 0)]
    );
    // Cohen's kappa by hand: agreement 5/6; margins a (3, 2, 1), b (2, 2, 2) of 6, so
    // p_e = (3·2 + 2·2 + 1·2)/36 = 1/3 and kappa = (5/6 − 1/3)/(1 − 1/3) = 0.75.
    let pair = &r.pairs.iter().find(|p| p.scale == "classes").unwrap();
    assert_eq!((pair.n, pair.agreements), (6, 5));
    assert!(close(pair.kappa.unwrap(), 0.75, 1e-12), "{:?}", pair.kappa);
    let h = memaudit::capability::report_text::<Labels>(&r);
    assert!(h.contains("3 labels were recoded before the analysis") && h.contains("no label reads `dns_typo`"), "{h}");
    // Refused: an entry that is not FROM=TO, and a label recoded twice.
    for (bad, says) in [("suports", "is not FROM=TO"), ("a=b;a=c", "label `a` is recoded twice")] {
        let req = LabelsRequest { recode: vec![bad.into()], ..LabelsRequest::default() };
        let e = run_on(vec![text("typos.csv", body)], &req).unwrap_err().to_string();
        assert!(e.contains("recode") && e.contains(says), "{e}");
    }
}

#[test]
fn wide_file_without_an_item_column_takes_each_row_as_an_item() {
    // The reference wide file with its item column left out, the layout stated wide: each row
    // is one item, so Fleiss' kappa is statsmodels' on the same rows; said in the reading and a
    // headline. Not stated, the file is refused with the way to state it (a file of other
    // columns — compliance rows — is never taken for a label table).
    let reference: Value = serde_json::from_slice(&std::fs::read(root().join("reference.json")).unwrap()).unwrap();
    let want = &reference["cases"]["wide.csv"]["classes"];
    let text = String::from_utf8(std::fs::read(root().join("wide.csv")).unwrap()).unwrap();
    let no_ids: String = text.lines().map(|l| l.split_once(',').unwrap().1.to_string() + "\n").collect();
    let auto = LabelsRequest {
        bootstrap: memaudit::stats::bootstrap::Bootstrap { resamples: 200, seed: 7, confidence: 0.95 },
        ..LabelsRequest::default()
    };
    let e = run_on(vec![InputFile::new("no_ids.csv", no_ids.clone().into_bytes())], &auto).unwrap_err();
    let e = render_mentions(&e.to_string(), command_line_word);
    assert!(e.contains("no item column") && e.contains("state --layout wide to take each row as one item"), "{e}");
    let request = LabelsRequest { layout: memaudit::label_audit::Layout::Wide, ..auto.clone() };
    let r = run_on(vec![InputFile::new("no_ids.csv", no_ids.into_bytes())], &request).unwrap();
    let o = r.overall.iter().find(|o| o.group == "all" && o.scale == "classes").unwrap();
    assert_eq!(o.complete_items as u64, want["complete_items"].as_u64().unwrap());
    assert!(close(o.fleiss_kappa.unwrap(), want["fleiss_kappa"].as_f64().unwrap(), 1e-12), "{o:?}");
    assert!(r.readings[0].items_by_line && r.readings[0].item_text().contains("by its line"));
    let hs = memaudit::label_audit::headlines::headlines(&r);
    let h = hs.iter().find(|h| h.text.starts_with("No item column in no_ids.csv")).expect("said as a headline");
    assert!(h.evidence.contains("`no_ids.csv:2`"), "{}", h.evidence);
    // A long file still needs its item column: its rows are labels, not items.
    let long = "rater,label\nr1,supports\nr2,partial\n";
    let e = run_on(vec![InputFile::new("long.csv", long.as_bytes().to_vec())], &auto).unwrap_err();
    assert!(e.to_string().contains("no item column"), "{e}");
}

/// `memaudit labels --show-item`: an item as the label files state it, checked against the
/// file read directly here (TIAP's `judged_cases` shape, with what was judged and why): the
/// passage all rows share once, each judge's label as written and its reason at its line.
#[test]
fn show_item_gives_each_judges_label_and_reason_as_the_file_states_them() {
    let dir = std::env::temp_dir().join(format!("memaudit-labels-show-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("judged_cases.jsonl");
    let judges = ["sonnet", "opus", "human"];
    let labels = ["supports", "partial", "does_not_support"];
    let mut lines = Vec::new();
    for run in ["run0", "run1"] {
        for q in 0..3 {
            for (j, judge) in judges.iter().enumerate() {
                lines.push(serde_json::json!({
                    "run_label": run, "query_index": q, "judge_model": judge,
                    "judge_semantic_label": labels[(j + q) % 3],
                    "passage": format!("passage of {run} query {q}, with \"quotes\" and <b>markup</b>"),
                    "reason": if *judge == "human" { String::new() } else { format!("{judge} on {run}/{q}") },
                }));
            }
        }
    }
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&path, &text).unwrap();
    let run = |extra: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_memaudit"))
            .args(["labels", "--labels"])
            .arg(&path)
            .args(["--show-item", "run1/2"])
            .args(extra)
            .output()
            .unwrap()
    };
    let out = run(&[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["item"], "run1/2");
    assert_eq!(v["key"], serde_json::json!(["run_label", "query_index"]));
    // The file read directly: the item's rows and their lines.
    let rows: Vec<(usize, Value)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, serde_json::from_str::<Value>(l).unwrap()))
        .filter(|(_, r)| r["run_label"] == "run1" && r["query_index"] == 2)
        .collect();
    assert_eq!(rows.len(), 3);
    assert_eq!(v["shared"], serde_json::json!([{"column": "passage", "text": rows[0].1["passage"]}]));
    let arms = v["arms"].as_array().unwrap();
    assert_eq!(arms.iter().map(|a| a["arm"].as_str().unwrap()).collect::<Vec<_>>(), judges);
    for (arm, (line, row)) in arms.iter().zip(&rows) {
        assert_eq!(arm["arm"], row["judge_model"]);
        let r = &arm["rows"][0];
        assert_eq!(r["at"], format!("{}:{line}", path.display()));
        let mut want = vec![serde_json::json!({"column": "judge_semantic_label", "text": row["judge_semantic_label"]})];
        if row["reason"] != "" {
            want.push(serde_json::json!({"column": "reason", "text": row["reason"]}));
        }
        assert_eq!(r["fields"], Value::Array(want), "{arm}");
    }
    // As CSV: a row per cell, the shared ones first with no rater.
    let out = run(&["--format", "csv"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let csv = String::from_utf8(out.stdout).unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("rater,at,column,text"));
    assert!(lines.next().unwrap().starts_with(",,passage,"));
    assert_eq!(lines.count(), 5, "3 labels and 2 reasons");
    // The raters setting applies as in the analysis; an unknown item is refused, saying how
    // items are named.
    let out = run(&["--raters", "human,sonnet"]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        v["arms"].as_array().unwrap().iter().map(|a| a["arm"].as_str().unwrap()).collect::<Vec<_>>(),
        ["human", "sonnet"]
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_memaudit"))
        .args(["labels", "--labels"])
        .arg(&path)
        .args(["--show-item", "run1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no item `run1`") && err.contains("`run_label+query_index`, the columns' texts joined with /"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// `yes` and `Yes` are two classes as read (never merged unsaid), and a headline says so with
/// the recode that would merge them, in each interface's words.
#[test]
fn labels_alike_but_for_case_are_kept_apart_and_said() {
    let f = text("case.csv", "item,alice,bob\ni1,yes,Yes\ni2,no,no\ni3,yes,yes\n");
    let r = run_on(vec![f], &LabelsRequest::default()).unwrap();
    assert_eq!(r.classes, vec!["yes", "Yes", "no"]);
    let said = memaudit::capability::headlines_in::<Labels>(&r, &command_line_word);
    let h = said.iter().find(|h| h.text.starts_with("Labels that differ only in case")).expect("said");
    assert_eq!(h.text, "Labels that differ only in case are kept as distinct classes: yes / Yes");
    assert_eq!(
        h.evidence,
        "1 group(s) of labels alike but for case; to read them as one, give --recode (e.g. Yes=yes)"
    );
    // The JSON (and the viewer, whose JSON equals the CLI's) names the setting by its key; no
    // marker of a mention is left in any output.
    let json = serde_json::to_string(&memaudit::capability::report_envelope::<Labels>(&r)).unwrap();
    assert!(json.contains("give `recode` (e.g. Yes=yes)"), "{json}");
    let text = memaudit::capability::report_text_in::<Labels>(&r, &command_line_word);
    assert!(text.contains("give --recode") && !text.contains('\u{2983}'), "{text}");
}

/// reclaim-eval's `annotation/` folder: a blank `annotator_template.csv` (`item,label`, every
/// label empty) beside `rater2.csv` (`item,label`) and `key.csv` (`item,author_label`). The
/// template is a form nobody filled: left out and said, never a rater whose labels are all
/// missing pooled with `rater2`'s namesake column. Its κ is that of the two raters alone
/// (Cohen's κ on these 4 items, labels a,b,a,b vs a,b,b,b: p_o = 0.75, p_e = 0.5·0.25 + 0.5·0.75
/// = 0.5, κ = (0.75 − 0.5)/(1 − 0.5) = 0.5).
#[test]
fn a_blank_form_is_left_out_and_said() {
    let template = text("annotation/annotator_template.csv", "item,label\n0,\n1,\n2,\n3,\n");
    let rater2 = text("annotation/rater2.csv", "item,label\n0,a\n1,b\n2,a\n3,b\n");
    let key = text("annotation/key.csv", "item,author_label\n0,a\n1,b\n2,b\n3,b\n");
    let r = run_on(vec![template.clone(), rater2, key], &LabelsRequest::default()).unwrap();
    assert_eq!(r.raters, ["label", "author_label"]);
    assert_eq!(r.problems.missing.count, 0, "a blank form's cells are not missing labels");
    assert_eq!(r.readings[0].blank_columns, ["label"]);
    assert!(r.readings[0].rater_columns.is_empty());
    let pair = &r.pairs[0];
    assert!(close(pair.kappa.unwrap(), 0.5, 1e-12), "{pair:?}");
    let said = memaudit::capability::headlines::<Labels>(&r);
    let h = said.iter().find(|h| h.text.contains("is a blank form")).expect("said");
    assert_eq!(h.text, "annotation/annotator_template.csv is a blank form: left out, it labels nothing");
    assert!(h.evidence.starts_with("1 column `label` holds no label in any of its 4 rows"), "{h:?}");
    assert!(!said.iter().any(|h| h.text.contains("read as one rater")), "{said:?}");
    // The form alone: nothing to measure, and the refusal says why.
    let e = run_on(vec![template], &LabelsRequest::default()).unwrap_err().to_string();
    assert!(e.contains("blank forms only, no label in any row: annotation/annotator_template.csv (label)"), "{e}");
}
