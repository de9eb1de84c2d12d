//! The hostile corpus (`tests/hostile/corpus/`, written by `tests/hostile/make_corpus.py`) and
//! large hostile inputs made here, run through every subcommand of the real binary: each run
//! must end, within a time limit, in a result (exit 0) or a refusal (exit 2) that names the file
//! it is about — never a panic, an abort, a hang or a raw control character on the terminal.
#![cfg(not(target_arch = "wasm32"))]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The binary under test: `MEMAUDIT_BIN` when set (`scripts/test.sh` points it at the release
/// build of the same checkout, the binary that ships: the same budgets and refusals, and the
/// large inputs take seconds instead of the minutes of a debug build), else the debug build
/// cargo made for this test.
fn bin() -> String {
    std::env::var("MEMAUDIT_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_memaudit").to_string())
}

/// Longer than any valid run here takes in a debug build, with room for a loaded 2-core CI
/// machine (`answers` on three 10 MB strings takes about 60 s unloaded, and ran past 90 s beside
/// a browser test); a run past it is a hang.
const HANG: Duration = Duration::from_secs(300);

fn corpus() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile/corpus");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert!(files.len() >= 50, "the corpus is written by tests/hostile/make_corpus.py");
    files
}

/// A scratch folder under the system's temporary folder, removed when dropped (the large cases
/// write about 90 MB; CI's disk is not ours to fill).
struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("memaudit-hostile-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

/// Valid companions for the subcommands that take several files.
struct Companions {
    scores: PathBuf,
    rules: PathBuf,
    values: PathBuf,
    qrels: PathBuf,
    run: PathBuf,
    out: PathBuf,
    _dir: Scratch,
}

impl Companions {
    fn new() -> Companions {
        let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference/paper_fixtures");
        let dir = scratch("companions");
        let write = |name: &str, text: &str| {
            let p = dir.join(name);
            std::fs::write(&p, text).unwrap();
            p
        };
        Companions {
            scores: fixtures.join("seed000_scores.csv"),
            rules: fixtures.join("seed000_rules.json"),
            values: fixtures.join("seed000_values.json"),
            qrels: write("valid.qrels", "1 0 d1 1\n1 0 d2 0\n2 0 d3 2\n"),
            run: write("valid.run", "1 Q0 d1 1 2.0 t\n1 Q0 d9 2 1.0 t\n2 Q0 d3 1 0.5 t\n"),
            out: dir.join("import-out"),
            _dir: dir,
        }
    }

    /// Every way a subcommand takes `f` as an input, with the cheapest settings that still
    /// exercise every reader and analysis.
    fn invocations(&self, f: &Path) -> Vec<Vec<String>> {
        let s = |p: &Path| p.display().to_string();
        let f = s(f);
        let v = |args: &[&str]| args.iter().map(|a| a.to_string()).collect::<Vec<String>>();
        vec![
            v(&["rescore", "-i", &f, "--bootstrap", "100"]),
            v(&["rescore", "--qrels", &f, "-r", &s(&self.run), "--bootstrap", "100"]),
            v(&["audit", &f]),
            v(&["compare", "--outcomes", &f, "--bootstrap", "200"]),
            v(&["probe", "--notes", &f]),
            v(&["reclaim", "--trials", &f, "--bootstrap", "200"]),
            v(&["answers", "--input", &f]),
            v(&["ablation", "--input", &f]),
            v(&["claims", "--data", &f, "--bootstrap", "200"]),
            v(&["claims", "--claims", &f, "--data", &s(&self.scores), "--bootstrap", "200"]),
            v(&["rules", "--rules", &f, "--values", &s(&self.values)]),
            v(&["rules", "--rules", &s(&self.rules), "--values", &f]),
            v(&["trec-eval", &f, &s(&self.run)]),
            v(&["trec-eval", &s(&self.qrels), &f]),
            v(&["labels", "--labels", &f, "--bootstrap", "200"]),
            v(&["calibration", "--input", &f]),
            v(&["alignment", "--input", &f, "--bootstrap", "200"]),
            v(&["compliance", "--input", &f, "--bootstrap", "200"]),
            v(&["import", "locomo", &f, "--out", &s(&self.out)]),
            v(&["import", "longmemeval", &f, "--out", &s(&self.out)]),
        ]
    }
}

/// One finished run.
struct Run {
    args: Vec<String>,
    code: Option<i32>,
    stdout: Vec<u8>,
    stderr: String,
    took: Duration,
}

/// Runs the binary with `args`, its output in files (a pipe could fill and block it), killed
/// past [`HANG`].
fn run(args: &[String], dir: &Path) -> Run {
    let (out, err) = (dir.join("stdout"), dir.join("stderr"));
    let start = Instant::now();
    let mut child = Command::new(bin())
        .args(args)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&err).unwrap())
        .spawn()
        .unwrap();
    let code = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status.code();
        }
        if start.elapsed() > HANG {
            let _ = child.kill();
            let _ = child.wait();
            panic!("hang: `memaudit {}` ran past {HANG:?}", args.join(" "));
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Run {
        args: args.to_vec(),
        code,
        stdout: std::fs::read(&out).unwrap(),
        stderr: String::from_utf8_lossy(&std::fs::read(&err).unwrap()).into_owned(),
        took: start.elapsed(),
    }
}

/// What every run must satisfy; `about` are the files a refusal may name.
fn check(r: &Run, about: &[&Path]) -> Result<(), String> {
    let cmd = format!("memaudit {}", r.args.join(" "));
    if r.stderr.contains("panicked") || r.stderr.contains("memory allocation") || r.code.is_none() {
        return Err(format!("{cmd}: crashed (exit {:?}): {}", r.code, r.stderr));
    }
    // Control characters from the input never reach the terminal (tab and newline aside).
    let raw_control = |b: &u8| *b == 0x1b || *b == 0x07 || *b == 0 || *b == 0x9b;
    if r.stderr.bytes().any(|b| raw_control(&b)) {
        return Err(format!("{cmd}: a raw control character in the error: {:?}", r.stderr));
    }
    if r.stdout.iter().any(raw_control) {
        return Err(format!("{cmd}: a raw control character in the output"));
    }
    match r.code {
        Some(0) => Ok(()),
        Some(2) => {
            let message = r.stderr.trim();
            if !message.starts_with("memaudit: error: ") {
                return Err(format!("{cmd}: a refusal without its message: {message}"));
            }
            let names = about.iter().any(|p| {
                let full = p.display().to_string();
                let base = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                message.contains(&full) || message.contains(&base)
            });
            if names { Ok(()) } else { Err(format!("{cmd}: the refusal names no file: {message}")) }
        }
        other => Err(format!("{cmd}: exit {other:?}: {}", r.stderr)),
    }
}

#[test]
fn every_subcommand_survives_the_hostile_corpus() {
    let companions = Companions::new();
    let jobs: Vec<(PathBuf, Vec<String>)> = corpus()
        .into_iter()
        .flat_map(|f| companions.invocations(&f).into_iter().map(move |a| (f.clone(), a)))
        .collect();
    let failures = std::sync::Mutex::new(Vec::new());
    let slowest = std::sync::Mutex::new((Duration::ZERO, String::new()));
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for worker in 0..2 {
            let (jobs, failures, slowest, next) = (&jobs, &failures, &slowest, &next);
            scope.spawn(move || {
                let dir = scratch(&format!("w{worker}"));
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some((file, args)) = jobs.get(i) else { break };
                    let r = run(args, &dir);
                    let mut s = slowest.lock().unwrap();
                    if r.took > s.0 {
                        *s = (r.took, args.join(" "));
                    }
                    drop(s);
                    if let Err(e) = check(&r, &[file.as_path()]) {
                        failures.lock().unwrap().push(e);
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    let (took, cmd) = slowest.into_inner().unwrap();
    eprintln!("{} runs; the slowest took {took:?}: memaudit {cmd}", jobs.len());
    assert!(failures.is_empty(), "{} of {} runs failed:\n{}", failures.len(), jobs.len(), failures.join("\n"));
}

/// A gzip stream of `line` repeated until `bytes` are reached (1 GiB of lines is about 1 MB).
fn gzip_bomb(header: &str, line: &str, bytes: usize) -> Vec<u8> {
    use std::io::Write;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(header.as_bytes()).unwrap();
    let block = line.repeat((1 << 20) / line.len());
    let mut written = header.len();
    while written < bytes {
        gz.write_all(block.as_bytes()).unwrap();
        written += block.len();
    }
    gz.finish().unwrap()
}

#[test]
fn large_inputs_are_refused_by_their_budgets_or_read() {
    let dir = scratch("large");
    let put = |name: &str, bytes: &[u8]| {
        let p = dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        p
    };
    let s = |p: &Path| p.display().to_string();
    let args = |a: &[&str]| a.iter().map(|x| x.to_string()).collect::<Vec<String>>();
    let expect_refusal = |a: Vec<String>, file: &Path, says: &str| {
        let r = run(&a, &dir);
        check(&r, &[file]).unwrap();
        assert_eq!(r.code, Some(2), "memaudit {}: {}", a.join(" "), r.stderr);
        assert!(r.stderr.contains(says), "memaudit {}: {}", a.join(" "), r.stderr);
    };

    // A gzip bomb of valid rows, 1 GiB inflated: refused by the row budget (5,000,000 by
    // default; counted while inflating, so after 64 MiB), and by a lowered byte budget.
    let bomb = put("bomb.csv.gz", &gzip_bomb("item_id,arm,correct\n", "q1,a,1\nq1,b,0\n", 1 << 30));
    assert!(std::fs::metadata(&bomb).unwrap().len() < 8 << 20);
    for sub in
        [&["compare", "--outcomes"][..], &["reclaim", "--trials"], &["answers", "--input"], &["labels", "--labels"]]
    {
        let mut a = args(sub);
        a.push(s(&bomb));
        expect_refusal(a.clone(), &bomb, "rows (lines)");
        a.extend(args(&["--max-bytes", "16M"]));
        expect_refusal(a, &bomb, "decompresses to more than 16777216 bytes");
    }
    // Rescoring reads JSON Lines as a stream: the same budgets, counted as the lines are read.
    let run_bomb = put(
        "runs.jsonl.gz",
        &gzip_bomb("", "{\"system\": \"s\", \"query_id\": \"q\", \"ranked\": [\"a\"]}\n", 1 << 28),
    );
    let mut a = args(&["--max-rows", "100000", "rescore", "-r"]);
    a.push(s(&run_bomb));
    expect_refusal(a.clone(), &run_bomb, "holds more than 100000 rows (lines)");
    a.extend(args(&["--max-bytes", "4M"]));
    expect_refusal(a.clone(), &run_bomb, "decompresses to more than 4194304 bytes");
    let r = run(&a, &dir);
    assert!(!r.stderr.contains("looks like a file for"), "a runs file given as runs: {}", r.stderr);

    // The same rows as a plain file over a lowered row budget; then read under a raised one.
    let rows = put(
        "rows.csv",
        format!("item_id,arm,correct\n{}", "q1,a,1\nq2,a,0\nq1,b,0\nq2,b,1\n".repeat(50_000)).as_bytes(),
    );
    expect_refusal(args(&["compare", "--outcomes", &s(&rows), "--max-rows", "100000"]), &rows, "more than 100000 rows");
    expect_refusal(args(&["--max-bytes", "1K", "claims", "--data", &s(&rows)]), &rows, "holds more than 1024 bytes");

    // 10 MB ids and a 10 MB line without a newline: read or refused, in time, never echoed whole.
    let id = "x".repeat(10 << 20);
    let long_ids =
        put("long_ids.csv", format!("item_id,arm,correct\n{id}a,a,1\n{id}a,b,0\n{id}b,a,1\n{id}b,b,1\n").as_bytes());
    let long_line = put("long_line.txt", id.as_bytes());
    let long_query = put(
        "long_query.jsonl",
        format!("{{\"query_id\": \"{id}\", \"gold\": \"{id}\", \"prediction\": \"{id}\", \"evidence\": [\"m1\"]}}\n")
            .as_bytes(),
    );
    for f in [&long_ids, &long_line, &long_query] {
        for a in [
            args(&["compare", "--outcomes", &s(f), "--bootstrap", "200"]),
            args(&["answers", "--input", &s(f)]),
            args(&["probe", "--notes", &s(f)]),
            args(&["rescore", "-i", &s(f), "--bootstrap", "100"]),
            args(&["reclaim", "--trials", &s(f), "--bootstrap", "200"]),
        ] {
            let r = run(&a, &dir);
            check(&r, &[f.as_path()]).unwrap();
            assert!(r.stderr.len() < 1 << 20, "memaudit {}: echoes {} bytes of error", a.join(" "), r.stderr.len());
        }
    }

    // Wide records: 300,000 distinct keys over three JSON lines (4.4 MB), and 2,000 rater
    // columns. Reading columns was quadratic in their number (past 100 s for the keys), and so
    // was recognising the file's columns (190 s for each of these two runs, now 8 s); the label
    // reader now refuses more raters than it can pair.
    let keys: String = (0..3)
        .map(|r| {
            let cells: Vec<String> = (0..100_000).map(|i| format!("\"k{r}_{i}\": 1")).collect();
            format!("{{\"item\": \"q1\", \"rater\": \"a\", \"label\": \"x\", {}}}\n", cells.join(", "))
        })
        .collect();
    let wide_keys = put("wide_keys.jsonl", keys.as_bytes());
    for sub in [&["labels", "--labels"][..], &["calibration", "--input"]] {
        let mut a = args(sub);
        a.push(s(&wide_keys));
        check(&run(&a, &dir), &[&wide_keys]).unwrap();
    }
    let raters: Vec<String> = (0..2000).map(|i| format!("r{i}")).collect();
    let wide_raters = put(
        "wide_raters.csv",
        format!("item,{}\nq1,{}\n", raters.join(","), vec!["yes"; raters.len()].join(",")).as_bytes(),
    );
    expect_refusal(args(&["labels", "--labels", &s(&wide_raters)]), &wide_raters, "more than 1000 raters");

    // Cells: 600 rows × 1,000 columns is 600,000 cells, past the 500,000 (5 per row) of a row
    // budget of 100,000 that its 600 rows are far under; as CSV and as JSON Lines.
    let header: Vec<String> = (0..1000).map(|i| format!("c{i}")).collect();
    let line = vec!["1"; 1000].join(",");
    let wide_csv = put("wide.csv", format!("{}\n{}", header.join(","), format!("{line}\n").repeat(600)).as_bytes());
    let object = format!("{{{}}}\n", header.iter().map(|h| format!("\"{h}\": 1")).collect::<Vec<_>>().join(", "));
    let wide_jsonl = put("wide.jsonl", object.repeat(600).as_bytes());
    for (f, sub) in [
        (&wide_csv, &["compare", "--outcomes"][..]),
        (&wide_csv, &["labels", "--labels"]),
        (&wide_csv, &["calibration", "--input"]),
        (&wide_jsonl, &["compare", "--outcomes"]),
        (&wide_jsonl, &["labels", "--labels"]),
    ] {
        let mut a = args(&["--max-rows", "100000"]);
        a.extend(args(sub));
        a.push(s(f));
        expect_refusal(a, f, "holds more than 500000 cells (rows × columns");
    }
}

#[test]
fn many_groups_and_many_arms_are_linear_or_refused_by_a_work_budget() {
    // Each shape once took minutes: a linear search per group or arm (quadratic in the rows), a
    // power table of every pair of arms, every gold variant searched in turn. Now each is read
    // in one pass, or refused before any work by a stated budget that says what to lower.
    let dir = scratch("many");
    let put = |name: &str, text: String| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    let s = |p: &Path| p.display().to_string();
    let args = |a: &[&str]| a.iter().map(|x| x.to_string()).collect::<Vec<String>>();
    let bit = |i: usize, salt: usize| (i.wrapping_mul(2654435761).wrapping_add(salt) >> 7) & 1;
    let expect = |a: Vec<String>, file: &Path, code: i32, says: &str| {
        let r = run(&a, &dir);
        if code == 0 {
            check(&r, &[file]).unwrap();
        } else {
            // A setting refused: its message names the setting, not a file.
            assert!(
                r.stderr.starts_with("memaudit: error: invalid setting"),
                "memaudit {}: exit {:?}: {}",
                a.join(" "),
                r.code,
                r.stderr
            );
        }
        let out = String::from_utf8_lossy(&r.stdout);
        assert_eq!(r.code, Some(code), "memaudit {}: {}", a.join(" "), r.stderr);
        assert!(r.stderr.contains(says) || out.contains(says), "memaudit {}: {} {out:.400}", a.join(" "), r.stderr);
    };

    // Calibration: 60,000 rows, each its own split, Platt fitted on one of them.
    let rows: String = (0..60_000)
        .map(|i| format!("p{i},{i},0.{:04},{},{},{}\n", (i * 7919) % 10_000, bit(i, 1), bit(i, 2), bit(i, 3)))
        .collect();
    let routing = put("routing.csv", format!("item,seed,confidence,correct,applied,with_memory\n{rows}"));
    expect(
        args(&["calibration", "--input", &s(&routing), "--split", "seed", "--fit", "0,1,2,3,4,5,6,7"]),
        &routing,
        0,
        "Platt scaling lowers the ECE on",
    );

    // Labels: 40,000 items, each its own group: refused by the pairwise budget at the default
    // resamples (naming the groups), computed at 100.
    let labels: String = (0..40_000)
        .flat_map(|i| {
            ["a", "b", "c"].map(|r| format!("c{i},g{i},{r},{}\n", ["s", "n", "p"][(i + r.len() * bit(i, 4)) % 3]))
        })
        .collect();
    let labels = put("labels.csv", format!("item,dataset,rater,label\n{labels}"));
    let grouped = args(&["labels", "--labels", &s(&labels), "--group", "dataset"]);
    expect(grouped.clone(), &labels, 2, "40000 items in 40000 group(s)");
    let mut fewer = grouped;
    fewer.extend(args(&["--bootstrap", "100"]));
    expect(fewer, &labels, 0, "Fleiss' kappa over 3 raters");

    // Compliance: 20,000 arms of two rows: no power table of 2 × 10⁸ pairs, said in a note.
    let arms: String = (0..40_000)
        .map(|i| format!("t{},arm{},1,{},{},{}\n", i % 2, i / 2, bit(i, 5), bit(i, 6), 500 + i % 999))
        .collect();
    let compliance = put("compliance.csv", format!("task,arm,depth,compliance,recall,total_tokens\n{arms}"));
    expect(
        args(&["compliance", "--input", &s(&compliance), "--bootstrap", "50"]),
        &compliance,
        0,
        "20000 arms make 199990000 pairs, more than the 200000 power rows",
    );

    // Answers: one 4 MiB prediction against 10,000 gold variants, under the containment rules.
    let words = |n: usize, salt: usize| -> String {
        (0..n).map(|i| format!("w{}", (i * 7919 + salt * 104_729) % 100_000)).collect::<Vec<_>>().join(" ")
    };
    let golds: Vec<String> = (0..10_000).map(|g| format!("\"x{g} y{g}\"")).collect();
    let answers = put(
        "answers.jsonl",
        format!(
            "{{\"query_id\": \"q1\", \"gold\": [{}], \"prediction\": \"{} x9999 y9999\"}}\n",
            golds.join(", "),
            words(600_000, 1)
        ),
    );
    expect(
        args(&["answers", "--input", &s(&answers), "--profiles", "paper_sem,mab_sem"]),
        &answers,
        0,
        "1 answers scored under 2 rule(s)",
    );

    // Compare: 1,000 arms × 40 items make 499,500 contrasts: refused before resampling.
    let outcomes: String =
        (0..1000).flat_map(|a| (0..40).map(move |i| format!("q{i},arm{a},{}\n", bit(a * 40 + i, 7)))).collect();
    let outcomes = put("outcomes.csv", format!("item,arm,correct\n{outcomes}"));
    expect(
        args(&["compare", "--outcomes", &s(&outcomes), "--arm", "arm"]),
        &outcomes,
        2,
        "1000 arms make 499500 contrasts",
    );
    // 120 systems named in an `arm` column over 30 items, scores not 0/1, no --arm: the column is
    // the arm (past 50 values, said in the spec), and the 7,140 contrasts are computed.
    let board: String =
        (0..120).flat_map(|a| (0..30).map(move |i| format!("q{i},s{a},{}\n", (a * 7 + i * 13) % 17))).collect();
    let board = put("board.csv", format!("item,arm,score\n{board}"));
    expect(
        args(&["compare", "--outcomes", &s(&board), "--bootstrap", "200"]),
        &board,
        0,
        "paired comparison of 120 arms on 30 items",
    );
}

#[test]
fn absurd_settings_are_refused_before_any_work() {
    let dir = scratch("settings");
    let outcomes = dir.join("o.csv");
    std::fs::write(&outcomes, "item_id,arm,correct\nq1,a,1\nq1,b,0\nq2,a,1\nq2,b,1\n").unwrap();
    let o = outcomes.display().to_string();
    for a in [
        vec!["compare", "--outcomes", &o, "--bootstrap", "1000000000000"],
        vec!["reclaim", "--trials", &o, "--bootstrap", "1000000000000"],
        vec!["labels", "--labels", &o, "--bootstrap", "1000000000000"],
        vec!["compliance", "--input", &o, "--bootstrap", "1000000000000"],
        vec!["alignment", "--input", &o, "--bootstrap", "1000000000000"],
        vec!["claims", "--data", &o, "--bootstrap", "1000000000000"],
        vec!["rescore", "-i", &o, "--bootstrap", "1000000000000"],
        vec!["compare", "--outcomes", &o, "--confidence", "1.5"],
        vec!["--max-rows", "0", "compare", "--outcomes", &o],
        vec!["--max-bytes", "1Q", "compare", "--outcomes", &o],
        vec!["power", "--n", "1000000000000000"],
    ] {
        let a: Vec<String> = a.into_iter().map(String::from).collect();
        let start = Instant::now();
        let r = run(&a, &dir);
        assert_eq!(r.code, Some(2), "memaudit {}: {}", a.join(" "), r.stderr);
        assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
        assert!(start.elapsed() < Duration::from_secs(10), "memaudit {} worked before refusing", a.join(" "));
    }
}

#[test]
fn an_unwritable_output_is_an_error_not_a_panic() {
    let dir = scratch("output");
    let outcomes = dir.join("o.csv");
    std::fs::write(&outcomes, "item_id,arm,correct\nq1,a,1\nq1,b,0\nq2,a,1\nq2,b,1\nq3,a,0\nq3,b,1\n").unwrap();
    let o = outcomes.display().to_string();
    let subcommands: Vec<Vec<&str>> = vec![
        vec!["compare", "--outcomes", &o, "--bootstrap", "200"],
        vec!["compare", "--outcomes", &o, "--bootstrap", "200", "--format", "csv"],
        vec!["power", "--n", "100"],
    ];
    for a in subcommands {
        // A full disk.
        if let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") {
            let out = Command::new(bin()).args(&a).stdout(full).stderr(Stdio::piped()).output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "memaudit {} > /dev/full: {err}", a.join(" "));
            assert!(err.contains("could not write") && !err.contains("panicked"), "{err}");
        }
        // A closed pipe (`| head -c 0`).
        let mut child = Command::new(bin()).args(&a).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "memaudit {} | closed: {err}", a.join(" "));
        assert!(matches!(out.status.code(), Some(0 | 1)), "memaudit {} | closed: {:?} {err}", a.join(" "), out.status);
    }
}

/// A bad-line case: the subcommand and its options before the file, the file's name and text,
/// options after it, and what the error must say.
type BadLine<'a> = (&'a [&'a str], &'a str, String, &'a [&'a str], &'a str);

/// Every reader names the file, the line and (where there is one) the field of a bad record,
/// in the words `memaudit` prints: one bad line per reader, after good ones.
#[test]
fn every_reader_locates_a_bad_line() {
    let dir = scratch("located");
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference/paper_fixtures");
    let ablation = std::fs::read_to_string(fixtures.join("noncircularity.csv")).unwrap();
    let ablation: String = ablation.lines().take(3).map(|l| format!("{l}\n")).collect();
    let claims = "claim_id,text,kind,arms,dataset,k,metric,reported,reported_ci,reported_n,scale,source\n\
                  t1,T,mean,vanilla,ruler_qa1,5,sem,35.00,,100,100,Table 1\nt2,T,mean,vanilla,ruler_qa1,5,sem,abc,,100,100,Table 1\n";
    let scores = fixtures.join("seed000_scores.csv").display().to_string();
    let values = fixtures.join("seed000_values.json").display().to_string();
    let with_scores = ["--data", scores.as_str()];
    let with_values = ["--values", values.as_str()];
    let cases: Vec<BadLine> = vec![
        (&["compare", "--key", "item_id", "--arm", "arm", "--value", "correct", "--outcomes"], "o.csv",
            "item_id,arm,correct\nq1,a,1\nq1,b,zzz\nq2,a,1\n".into(), &[], "o.csv, line 3, field `correct`"),
        (&["probe", "--notes"], "n.jsonl",
            "{\"note_id\": \"n1\", \"note\": \"a\", \"source\": \"b\"}\n{\"note_id\": \"n2\", \"note\": \"a\"}\n".into(), &[],
            "n.jsonl, line 2, field `source`"),
        (&["reclaim", "--trials"], "t.jsonl",
            "{\"pid\": \"p1\", \"policy\": \"full\", \"correct\": true}\n{\"pid\": \"p3\", \"policy\": \"full\", \"correct\": \"maybe\"}\n".into(),
            &[], "t.jsonl, line 2, field `correct`"),
        (&["answers", "--input"], "a.jsonl",
            "{\"query_id\": \"q1\", \"gold\": \"a\", \"prediction\": \"a\"}\n{\"query_id\": \"q3\", \"gold\": \n".into(), &[],
            "a.jsonl, line 2: not valid JSON"),
        (&["ablation", "--input"], "ab.csv", format!("{ablation}phase6_pilot,q00000,ruler_qa1,3,m00000_3,abc,1,1\n"), &[],
            "ab.csv, line 4, field `cosine`"),
        (&["claims", "--claims"], "cl.csv", claims.into(), &with_scores, "cl.csv, line 3, field `reported`"),
        (&["rules", "--rules"], "ru.json",
            "{\"rules\": [{\"id\": \"r1\", \"claim\": \"x\", \"predicate\": {\"metric\": \"m\"}}]}".into(), &with_values,
            "ru.json, line 1, field `rules[0]`"),
        (&["labels", "--labels"], "l.csv", "item,rater,label\nc1,a,x\nc1,b\n".into(), &[], "l.csv, line 3, field `label`"),
        (&["calibration", "--input"], "c.csv",
            "item,confidence,correct,with_memory,applied\nq1,0.9,1,1,0\nq2,1.7,0,1,1\n".into(), &[],
            "c.csv, line 3, field `confidence`"),
        (&["alignment", "--input"], "al.csv",
            "system,query_id,target,eligible,hit\nr1,q1,raw,true,1\nr1,q1,canonical,maybe,0\n".into(), &[],
            "al.csv, line 3, field `eligible`"),
        (&["compliance", "--input"], "co.jsonl",
            "{\"arm\":\"a\",\"depth\":1,\"compliance_rate\":1,\"recall\":1,\"total_tokens\":900}\n{\"arm\":\"a\",\"depth\":2,\"compliance_rate\":1.5,\"recall\":0.5,\"total_tokens\":1200}\n".into(),
            &[], "co.jsonl, line 2, field `compliance_rate`"),
        (&["trec-eval"], "q.qrels", "1 0 d1 1\n1 0 d2 x\n".into(), &[], "q.qrels, line 2, field `rel`"),
        (&["rescore", "-i"], "queries.jsonl",
            "{\"query_id\": \"q1\", \"evidence\": [\"m1\"]}\n{\"query_id\": \"q2\", \"evidence\": 7}\n".into(), &[],
            "queries.jsonl, line 2, field `evidence`"),
    ];
    let run_file = dir.join("r.run");
    std::fs::write(&run_file, "1 Q0 d1 1 2.0 t\n").unwrap();
    for (before, name, text, after, says) in cases {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let mut a: Vec<String> = before.iter().map(|s| s.to_string()).collect();
        a.push(path.display().to_string());
        if before == ["trec-eval"] {
            a.push(run_file.display().to_string());
        }
        a.extend(after.iter().map(|s| s.to_string()));
        let r = run(&a, &dir);
        assert_eq!(r.code, Some(2), "memaudit {}: {}", a.join(" "), r.stderr);
        assert!(r.stderr.contains(says), "memaudit {}: wanted `{says}` in: {}", a.join(" "), r.stderr);
    }
}
