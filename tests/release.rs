//! The release audit on the real released files (`../shared/fixtures/external`) as their
//! authors ship them: every file triaged right, and each analysis equal to the per-page route
//! (the same files dropped on that analysis's page, their roles detected there).

use memaudit::capability::{self, Analysis, Capability, FileRole, RoleFile, quiet};
use memaudit::ingest::InputFile;
use memaudit::registry::{ForCapability, with};
use memaudit::release::{FileStatus, ReleaseAudit, ReleaseReport, ReleaseRequest, RunStatus};

use crate::common::shared;

/// Every file below `folder` of the fixtures, named `external/<path>` (hidden files passed over),
/// in name order.
fn release(folders: &[&str]) -> Vec<InputFile> {
    let root = shared().join("fixtures");
    let mut out = Vec::new();
    for folder in folders {
        let mut stack = vec![root.join(folder)];
        let mut found = Vec::new();
        while let Some(p) = stack.pop() {
            if p.is_dir() {
                for e in std::fs::read_dir(&p).unwrap() {
                    let e = e.unwrap();
                    if !e.file_name().to_string_lossy().starts_with('.') {
                        stack.push(e.path());
                    }
                }
            } else {
                let name = p.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/");
                found.push(InputFile::new(name, std::fs::read(&p).unwrap()));
            }
        }
        found.sort_by(|a, b| a.name.cmp(&b.name));
        out.extend(found);
    }
    out
}

fn audit(files: Vec<InputFile>, request: &ReleaseRequest) -> ReleaseReport {
    let files: Vec<RoleFile> =
        files.into_iter().map(|file| RoleFile { file, role: FileRole::Release, detected: FileRole::Release }).collect();
    capability::run_once::<ReleaseAudit>(&files, request, &mut quiet()).unwrap_or_else(|e| panic!("{e}")).1
}

/// The analyses of a file, by status.
fn routed(r: &ReleaseReport, name: &str) -> (FileStatus, Vec<String>) {
    let f = r.files.iter().find(|f| f.file == name).unwrap_or_else(|| panic!("{name} is not listed"));
    (f.status, f.routed.clone())
}

#[test]
fn the_released_files_are_triaged_by_their_content() {
    let only: Vec<String> = ["rescore", "trec-eval", "compare", "compliance"].map(String::from).to_vec();
    let r = audit(
        release(&[
            "external/ranx",
            "external/ir_measures",
            "external/BriefBench",
            "external/inspect",
            "external/memobase",
            "external/longmemeval-judged",
        ]),
        &ReleaseRequest { only, ..ReleaseRequest::default() },
    );
    let expect: &[(&str, FileStatus, &[&str])] = &[
        ("external/ranx/run.json", FileStatus::Read, &["trec-eval 1"]),
        ("external/ranx/qrels.json", FileStatus::Read, &["trec-eval 1"]),
        ("external/ir_measures/compat.run", FileStatus::Read, &["trec-eval 2"]),
        ("external/ir_measures/compat.qrels", FileStatus::Read, &["trec-eval 2"]),
        ("external/BriefBench/all_rows_claude.jsonl", FileStatus::Read, &["compliance 1"]),
        ("external/BriefBench/all_rows_gpt.jsonl", FileStatus::Read, &["compliance 1"]),
        ("external/BriefBench/longmemeval_s_cleaned_snapshot.json", FileStatus::Read, &["rescore"]),
        ("external/BriefBench/LICENSE", FileStatus::NotRead, &[]),
        (
            "external/inspect/2025-02-11T15-17-00-05-00_popularity_dPiJifoWeEQBrfWsAopzWr.eval",
            FileStatus::Read,
            &["compare 1"],
        ),
        (
            "external/inspect/2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval",
            FileStatus::Read,
            &["compare 1"],
        ),
        ("external/memobase/memobase_eval_0503_3000.json", FileStatus::Read, &["compare 2"]),
        (
            "external/longmemeval-judged/longmemeval_s_cleaned.json_retrievallog_turn_flat-stella_testlog_top50context_jsonformat_useronlyfalse_20251212-0340.jsonl.eval-results-gpt-4o-mini",
            FileStatus::Read,
            &["compare 3"],
        ),
    ];
    for (name, status, analyses) in expect {
        let (s, a) = routed(&r, name);
        assert_eq!((s, a.iter().map(String::as_str).collect::<Vec<_>>()), (*status, analyses.to_vec()), "{name}");
    }
    // Every file has a status and a note: nothing is dropped without a word.
    assert!(r.files.iter().all(|f| !f.note.is_empty()), "{:?}", r.files);
    let licence = r.files.iter().find(|f| f.file == "external/ranx/LICENSE").unwrap();
    assert_eq!(licence.note, "not data: a licence or notice");
    // The TREC files of two folders are never evaluated together.
    let trec: Vec<_> = r.analyses.iter().filter(|a| a.analysis == Analysis::TrecEval).collect();
    assert_eq!(trec.len(), 2);
    assert!(trec.iter().all(|a| a.status == RunStatus::Ran && a.files.len() == 2), "{trec:?}");
    // The headlines name their analysis and its files.
    let hs = capability::headlines::<ReleaseAudit>(&r);
    assert!(hs[0].text.contains(": "), "{:?}", hs[0]);
    assert!(hs.iter().any(|h| h.text.starts_with("compliance 1 (all_rows_claude.jsonl and 1 more): ")), "{hs:?}");
}

/// Runs `C` on `files` as its page would: each file's role detected by the page's rule.
struct PageRoute<'a> {
    files: Vec<InputFile>,
    report: &'a serde_json::Value,
}

impl ForCapability for PageRoute<'_> {
    type Output = ();
    fn call<C: Capability>(self) {
        let names: Vec<String> = self.files.iter().map(|f| f.name.clone()).collect();
        let files = capability::assign_roles::<C>(self.files.into_iter().map(|f| (f, None)).collect())
            .unwrap_or_else(|e| panic!("{}: {e}", C::ANALYSIS));
        let (_, report) = capability::run_once::<C>(&files, &C::Request::default(), &mut quiet())
            .unwrap_or_else(|e| panic!("{}: {e}", C::ANALYSIS));
        assert_eq!(&serde_json::to_value(&report).unwrap(), self.report, "{} on {names:?}", C::ANALYSIS);
    }
}

#[test]
fn each_analysis_of_a_release_equals_the_page_route() {
    let files = release(&["external/ranx", "external/ir_measures", "external/BriefBench", "external/reclaim-eval"]);
    let r = audit(files.clone(), &ReleaseRequest::default());
    let ran: Vec<&str> = r.analyses.iter().filter(|a| a.status == RunStatus::Ran).map(|a| a.id.as_str()).collect();
    let want = [
        "rescore",
        "probe",
        "reclaim 1",
        "reclaim 2",
        "reclaim 3",
        "trec-eval 1",
        "trec-eval 2",
        "compliance 1",
        "compliance 2",
    ];
    assert_eq!(ran, want);
    // Trials without a `model` column name their model by the file alone: never pooled with
    // another file's; the probe keys complete every group of trials.
    let alone =
        r.analyses.iter().find(|a| a.files.iter().any(|f| f.file.ends_with("srcconcl_llama_arith.jsonl"))).unwrap();
    let names: Vec<&str> = alone.files.iter().map(|f| f.file.rsplit('/').next().unwrap()).collect();
    assert_eq!(names, ["probe_keys_base16.json", "srcconcl_llama_arith.jsonl"]);
    for a in &r.analyses {
        let group: Vec<InputFile> =
            a.files.iter().map(|g| files.iter().find(|f| f.name == g.file).unwrap().clone()).collect();
        with(a.analysis, PageRoute { files: group, report: &a.report });
    }
}

#[test]
fn an_archive_of_a_release_is_triaged_as_its_folder() {
    use std::io::Write;
    let files = release(&["external/ranx", "external/BriefBench"]);
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for f in &files {
        zip.start_file(f.name.as_str(), opts).unwrap();
        zip.write_all(&f.bytes().unwrap()).unwrap();
    }
    let bytes = zip.finish().unwrap().into_inner();
    let from_folder = audit(files, &ReleaseRequest::default());
    let from_zip = audit(vec![InputFile::new("release.zip", bytes)], &ReleaseRequest::default());
    assert_eq!(from_zip.files[0].status, FileStatus::Unpacked);
    assert_eq!(from_zip.files.len(), from_folder.files.len() + 1);
    for (z, f) in from_zip.files[1..].iter().zip(&from_folder.files) {
        assert_eq!(z.file, format!("release.zip/{}", f.file));
        assert_eq!((z.status, &z.routed, &z.sha256), (f.status, &f.routed, &f.sha256), "{}", f.file);
    }
    let ids =
        |r: &ReleaseReport| r.analyses.iter().map(|a| (a.id.clone(), a.status, a.headlines.len())).collect::<Vec<_>>();
    assert_eq!(ids(&from_zip), ids(&from_folder));
}

#[test]
fn the_report_to_attach_has_every_input_the_triage_and_a_section_per_analysis() {
    let r = audit(release(&["external/ranx", "external/BriefBench"]), &ReleaseRequest::default());
    let inputs = ReleaseAudit::inputs(&Vec::new(), &r);
    assert_eq!(inputs.len(), r.files.len());
    let a = memaudit::attach::attachment::<ReleaseAudit>(&r, inputs, "a test");
    let titles: Vec<&str> = a.sections.iter().map(|(t, _)| t.as_str()).collect();
    let want: Vec<String> = r.analyses.iter().map(|x| format!("{} \u{2014} {}", x.id, x.title)).collect();
    assert_eq!(titles, want);
    assert!(a.sections[0].1.starts_with("Files: "), "{}", a.sections[0].1);
    assert!(a.tables.iter().any(|t| t.name == "files"), "the triage table");
    let html = memaudit::attach::html(&a);
    assert!(html.contains("<h2>Each analysis</h2>"));
    for f in &r.files {
        assert_eq!(f.sha256.len(), 64, "{}", f.file);
        assert!(html.contains(&f.sha256), "{} with its SHA-256", f.file);
    }
}

/// A result file with a header and no row beside two with rows: the comparison runs on the two
/// and the file is listed as a table with no row, its columns named, never silently absent.
#[test]
fn a_table_with_a_header_and_no_row_is_listed_as_such() {
    let files = vec![
        InputFile::new("rel/sysA.csv", b"query_id,correct\nq1,1\nq2,0\nq3,1\n".to_vec()),
        InputFile::new("rel/sysB.csv", b"query_id,correct\n".to_vec()),
        InputFile::new("rel/sysC.csv", b"query_id,correct\nq1,1\nq2,1\nq3,0\n".to_vec()),
    ];
    let r = audit(files, &ReleaseRequest::default());
    let b = r.files.iter().find(|f| f.file == "rel/sysB.csv").unwrap();
    assert_eq!(b.status, FileStatus::NotRead);
    assert_eq!(b.note, "a table with a header (query_id, correct) and no row below it: nothing to read");
    assert_eq!(routed(&r, "rel/sysA.csv"), (FileStatus::Read, vec!["compare".to_string()]));
}

/// Memobase's LoCoMo answers (mem0's `evals.py` shape) feed two analyses: the comparison (its
/// `llm_score` verdicts) and the answers' rescoring (its `response` under every profile).
#[test]
fn locomo_answers_grouped_by_conversation_go_to_compare_and_answers() {
    let r = audit(release(&["external/memobase"]), &ReleaseRequest::default());
    let (status, mut analyses) = routed(&r, "external/memobase/memobase_eval_0503_3000.json");
    analyses.sort();
    assert_eq!((status, analyses), (FileStatus::Read, vec!["answers".to_string(), "compare".to_string()]));
    let answers = r.analyses.iter().find(|x| x.id == "answers").unwrap();
    assert_eq!(answers.status, RunStatus::Ran, "{}", answers.message);
}

/// LongMemEval's dataset beside a hypothesis file: recognised as the hypotheses' companion
/// (gold answers by question id), both read by one `answers` analysis; alone, no answers
/// analysis runs.
#[test]
fn longmemeval_dataset_completes_the_hypotheses() {
    let dataset = serde_json::json!([
        {"question_id": "q1", "question_type": "temporal-reasoning", "question": "When did I move?", "answer": "2021",
         "haystack_sessions": []},
        {"question_id": "q2", "question_type": "knowledge-update", "question": "Which city?", "answer": "Lisbon",
         "haystack_sessions": []}
    ]);
    let data = InputFile::new("lme/longmemeval_oracle.json", serde_json::to_vec(&dataset).unwrap());
    let hyp = InputFile::new(
        "lme/hyp.jsonl",
        b"{\"question_id\":\"q1\",\"hypothesis\":\"2021\"}\n{\"question_id\":\"q2\",\"hypothesis\":\"Porto\"}\n"
            .to_vec(),
    );
    let r = audit(vec![hyp, data.clone()], &ReleaseRequest::default());
    assert_eq!(routed(&r, "lme/hyp.jsonl"), (FileStatus::Read, vec!["answers".to_string()]));
    // The dataset also goes to rescore (LongMemEval's haystack, as before).
    let (status, to) = routed(&r, "lme/longmemeval_oracle.json");
    assert_eq!(status, FileStatus::Read);
    assert!(to.contains(&"answers".to_string()), "{to:?}");
    let answers = r.analyses.iter().find(|x| x.id == "answers").unwrap();
    assert_eq!(answers.status, RunStatus::Ran, "{}", answers.message);
    // Alone it completes nothing: no answers analysis (rescore still reads its haystack).
    let r = audit(vec![data], &ReleaseRequest::default());
    assert!(r.analyses.iter().all(|x| x.id != "answers"), "{:?}", r.analyses.iter().map(|x| &x.id).collect::<Vec<_>>());
}

/// Two byte-identical copies of a file in two folders (EverMemOS ships `locomo10.json` twice):
/// each is analysed on its own, and a headline says they are copies, so the repeated results are
/// not read as two systems.
#[test]
fn byte_identical_copies_are_named_as_such() {
    let bytes = b"query_id,correct\nq1,1\nq2,0\nq3,1\n".to_vec();
    let files = vec![
        InputFile::new("rel/a/sysA.csv", bytes.clone()),
        InputFile::new("rel/b/sysA.csv", bytes),
        InputFile::new("rel/b/sysB.csv", b"query_id,correct\nq1,1\nq2,1\nq3,0\n".to_vec()),
    ];
    let r = audit(files, &ReleaseRequest::default());
    let hs = capability::headlines::<ReleaseAudit>(&r);
    let copy = hs.iter().find(|h| h.text.contains("byte-for-byte copies")).unwrap_or_else(|| panic!("{hs:#?}"));
    assert!(copy.text.starts_with("1 file(s)"), "{}", copy.text);
    assert_eq!(copy.level, memaudit::headline::Level::Finding, "shown before the repeated headlines");
    assert_eq!(copy.evidence, "same SHA-256: rel/a/sysA.csv = rel/b/sysA.csv");
    // Distinct files only: no such headline.
    let r = audit(
        vec![
            InputFile::new("rel/sysA.csv", b"query_id,correct\nq1,1\nq2,0\nq3,1\n".to_vec()),
            InputFile::new("rel/sysB.csv", b"query_id,correct\nq1,1\nq2,1\nq3,0\n".to_vec()),
        ],
        &ReleaseRequest::default(),
    );
    assert!(capability::headlines::<ReleaseAudit>(&r).iter().all(|h| !h.text.contains("copies")));
    // Same name and size, other bytes (EverMemOS's two locomo10.json differ in one URL): said
    // apart from the copies.
    let r = audit(
        vec![
            InputFile::new("rel/a/sysA.csv", b"query_id,correct\nq1,1\nq2,0\nq3,1\n".to_vec()),
            InputFile::new("rel/b/sysA.csv", b"query_id,correct\nq1,1\nq2,1\nq3,1\n".to_vec()),
        ],
        &ReleaseRequest::default(),
    );
    let hs = capability::headlines::<ReleaseAudit>(&r);
    assert!(hs.iter().all(|h| !h.text.contains("copies")), "{hs:#?}");
    let h =
        hs.iter().find(|h| h.text.contains("same name and size but other bytes")).unwrap_or_else(|| panic!("{hs:#?}"));
    assert_eq!(h.evidence, "same name and size, another SHA-256: rel/a/sysA.csv ~ rel/b/sysA.csv");
    // Copies no analysis reads repeat no result (MemOS ships three empty `__init__.py`).
    let r = audit(
        vec![
            InputFile::new("rel/sysA.csv", b"query_id,correct\nq1,1\nq2,0\nq3,1\n".to_vec()),
            InputFile::new("rel/evaluation/__init__.py", Vec::new()),
            InputFile::new("rel/evaluation/scripts/__init__.py", Vec::new()),
        ],
        &ReleaseRequest::default(),
    );
    assert!(capability::headlines::<ReleaseAudit>(&r).iter().all(|h| !h.text.contains("copies")));
}
