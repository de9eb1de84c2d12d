//! wasm-bindgen tests of the browser viewer, run in headless Chromium:
//! `cargo test --target wasm32-unknown-unknown --features web --test web`
//! (runner `wasm-bindgen-test-runner` from `.cargo/config.toml`; CHROMEDRIVER=/usr/bin/chromedriver).

#![cfg(all(target_arch = "wasm32", feature = "web"))]

use gloo::timers::future::TimeoutFuture;
use memaudit::ablation::{Ablation, AblationRequest};
use memaudit::ablation::{RhoPlot, RhoRow, UtilityGroup, UtilityPlot};
use memaudit::answers::{Answers, AnswersRequest};
use memaudit::audit::HistogramPlot;
use memaudit::audit::distribution::histogram;
use memaudit::audit::{DrilldownQuery, Rescore, RescoreTable};
use memaudit::capability::{Analysis, Capability, Outcome, quiet};
use memaudit::claims::{Claims, ClaimsRequest};
use memaudit::compare::{Compare, CompareRequest, CompareSettings, ItemSelection, ItemsView};
use memaudit::conventions::Settings;
use memaudit::error::Error;
use memaudit::ingest::InputFile;
use memaudit::ksweep::{DeltaForest, DeltaPoint, KSweepPlot};
use memaudit::plots::{
    CdArm, CdLayout, CdPlot, ForestLayout, ForestPlot, ForestRow, Plot, PosteriorArm, PosteriorPlot, VerdictBar,
    VerdictBars, VerdictGroup,
};
use memaudit::probe::{NoteChoice, NoteInput, Probe, ProbeRequest, Verdict, explain_note};
use memaudit::reclaim::Engine as Resampler;
use memaudit::reclaim::ReclaimPlot;
use memaudit::reclaim::{Reclaim, ReclaimRequest};
use memaudit::rules::{Rules, RulesRequest};
use memaudit::web::codec::{decode_request, decode_response, encode};
use memaudit::web::components::plot::draw_plot;
use memaudit::web::engine::{Engines, RunInputs};
use memaudit::web::protocol::{Inputs, JobFile, Payload, Request, Response, SourceFile, Timing};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// `memaudit rescore -m static/demo/memories.jsonl -q static/demo/queries.jsonl
/// -r static/demo/runs.jsonl --format csv --table summary` (native CLI, default settings).
/// Regenerate it with that command when the demo bundle changes.
const CLI_SUMMARY_CSV: &str = "\
system,target,subset,n,ndcg,ndcg_ci_low,ndcg_ci_high,recall,hit,mrr,top1\n\
bm25-turns,raw,all,119,0.2696293792651203,0.23292504970001687,0.3077252207000374,0.6330532212885153,0.7226890756302521,0.18671704970947317,0.06722689075630252\n\
bm25-turns,raw,shared,96,0.2673939613308901,0.2251514159457502,0.31022844703201324,0.6267361111111109,0.7291666666666666,0.18715325594187138,0.07291666666666667\n\
bm25-turns,source,all,119,0.40901406735179696,0.3675632149322751,0.4539080559962813,0.8557422969187676,0.8739495798319328,0.29246864839071707,0.13445378151260504\n\
bm25-turns,source,shared,96,0.42159322020840156,0.37206347958554825,0.46939772686320397,0.873263888888889,0.8958333333333334,0.30641416609881356,0.14583333333333334\n\
bm25-turns,canonical,all,96,0.21659094683529168,0.17234700867815675,0.2618157020725113,0.5572916666666666,0.6041666666666666,0.12887040772309252,0.041666666666666664\n\
bm25-turns,canonical,shared,96,0.21659094683529168,0.17234700867815675,0.2618157020725113,0.5572916666666666,0.6041666666666666,0.12887040772309252,0.041666666666666664\n\
dense-facts,raw,all,119,0.2439639112831714,0.2013241091139128,0.2888464465293733,0.5364145658263305,0.6470588235294118,0.17617400437742525,0.058823529411764705\n\
dense-facts,raw,shared,96,0.22961178367664506,0.180749245019023,0.2796460221848963,0.5000000000000001,0.625,0.1731397549752455,0.07291666666666667\n\
dense-facts,source,all,119,0.46193464278080243,0.4178344014983793,0.5065971945092606,0.9173669467787116,0.9495798319327731,0.3364927649381433,0.15126050420168066\n\
dense-facts,source,shared,96,0.4657247899707721,0.4166692181414415,0.5171409873739009,0.9253472222222223,0.9583333333333334,0.3428007582695083,0.16666666666666666\n\
dense-facts,canonical,all,96,0.3138259210595666,0.26813061671770033,0.3641442095171822,0.7256944444444443,0.8125,0.21836299963790906,0.08333333333333333\n\
dense-facts,canonical,shared,96,0.3138259210595666,0.26813061671770033,0.3641442095171822,0.7256944444444443,0.8125,0.21836299963790906,0.08333333333333333\n\
hybrid-rrf,raw,all,119,0.2735282036392083,0.23381887447900382,0.3168876015033377,0.6092436974789915,0.7058823529411765,0.19591312266982272,0.06722689075630252\n\
hybrid-rrf,raw,shared,96,0.2869908234686579,0.24117259007643102,0.3342489089869443,0.6284722222222221,0.7395833333333334,0.211090860710226,0.07291666666666667\n\
hybrid-rrf,source,all,119,0.4180435524457004,0.37470673059481635,0.4645481590856898,0.8599439775910365,0.8991596638655462,0.30071622759000516,0.11764705882352941\n\
hybrid-rrf,source,shared,96,0.44740570447004074,0.3968290707001362,0.49744574995870533,0.8836805555555555,0.9270833333333334,0.33311793741980755,0.13541666666666666\n\
hybrid-rrf,canonical,all,96,0.2719015319446369,0.22592883146835535,0.3188945427961692,0.6354166666666666,0.71875,0.17563467319370618,0.041666666666666664\n\
hybrid-rrf,canonical,shared,96,0.2719015319446369,0.22592883146835535,0.3188945427961692,0.6354166666666666,0.71875,0.17563467319370618,0.041666666666666664\n\
extractor-store,raw,all,119,0.2670294663781168,0.2267151689057734,0.30662779684772834,0.6526610644257703,0.7142857142857143,0.18829887145164365,0.08403361344537816\n\
extractor-store,raw,shared,70,0.24737718589901259,0.19965992170844007,0.29996361502775504,0.6023809523809524,0.6857142857142857,0.18092190229393018,0.08571428571428572\n\
extractor-store,source,all,119,0.35572324100461555,0.312204909621352,0.39671766742336617,0.7787114845938374,0.8403361344537815,0.265673965850789,0.12605042016806722\n\
extractor-store,source,shared,70,0.3981566027640604,0.3426144988269715,0.45324383604783597,0.8166666666666668,0.9,0.31245956277247744,0.15714285714285714\n\
extractor-store,canonical,all,70,0.2782136153100417,0.2224321281786051,0.33796282438806013,0.6428571428571429,0.7285714285714285,0.1874005655902207,0.07142857142857142\n\
extractor-store,canonical,shared,70,0.2782136153100417,0.2224321281786051,0.33796282438806013,0.6428571428571429,0.7285714285714285,0.1874005655902207,0.07142857142857142\n";

/// 30 items × 3 arms (made by a script; the expected numbers below are the native CLI's:
/// `memaudit compare --outcomes o.csv --bootstrap 2000 --format json`).
const OUTCOMES_CSV: &str = "\
item,arm,score\n\
q0,a,0.0000\n\
q0,b,0.8962\n\
q0,c,0.7923\n\
q1,a,0.5385\n\
q1,b,0.4346\n\
q1,c,0.3308\n\
q2,a,0.0769\n\
q2,b,0.9731\n\
q2,c,0.8692\n\
q3,a,0.6154\n\
q3,b,0.5115\n\
q3,c,0.4077\n\
q4,a,0.1538\n\
q4,b,0.0500\n\
q4,c,0.9462\n\
q5,a,0.6923\n\
q5,b,0.5885\n\
q5,c,0.4846\n\
q6,a,0.2308\n\
q6,b,0.1269\n\
q6,c,1.0231\n\
q7,a,0.7692\n\
q7,b,0.6654\n\
q7,c,0.5615\n\
q8,a,0.3077\n\
q8,b,0.2038\n\
q8,c,0.1000\n\
q9,a,0.8462\n\
q9,b,0.7423\n\
q9,c,0.6385\n\
q10,a,0.3846\n\
q10,b,0.2808\n\
q10,c,0.1769\n\
q11,a,0.9231\n\
q11,b,0.8192\n\
q11,c,0.7154\n\
q12,a,0.4615\n\
q12,b,0.3577\n\
q12,c,0.2538\n\
q13,a,0.0000\n\
q13,b,0.8962\n\
q13,c,0.7923\n\
q14,a,0.5385\n\
q14,b,0.4346\n\
q14,c,0.3308\n\
q15,a,0.0769\n\
q15,b,0.9731\n\
q15,c,0.8692\n\
q16,a,0.6154\n\
q16,b,0.5115\n\
q16,c,0.4077\n\
q17,a,0.1538\n\
q17,b,0.0500\n\
q17,c,0.9462\n\
q18,a,0.6923\n\
q18,b,0.5885\n\
q18,c,0.4846\n\
q19,a,0.2308\n\
q19,b,0.1269\n\
q19,c,1.0231\n\
q20,a,0.7692\n\
q20,b,0.6654\n\
q20,c,0.5615\n\
q21,a,0.3077\n\
q21,b,0.2038\n\
q21,c,0.1000\n\
q22,a,0.8462\n\
q22,b,0.7423\n\
q22,c,0.6385\n\
q23,a,0.3846\n\
q23,b,0.2808\n\
q23,c,0.1769\n\
q24,a,0.9231\n\
q24,b,0.8192\n\
q24,c,0.7154\n\
q25,a,0.4615\n\
q25,b,0.3577\n\
q25,c,0.2538\n\
q26,a,0.0000\n\
q26,b,0.8962\n\
q26,c,0.7923\n\
q27,a,0.5385\n\
q27,b,0.4346\n\
q27,c,0.3308\n\
q28,a,0.0769\n\
q28,b,0.9731\n\
q28,c,0.8692\n\
q29,a,0.6154\n\
q29,b,0.5115\n\
q29,c,0.4077\n";

/// 40 trials, 2 policies × 2 integrities; expected numbers from `memaudit reclaim --trials t.jsonl
/// --format json` (native CLI, Python resampler, 5,000 resamples, seed 0).
const TRIALS: &str = "\
{\"pid\":\"p0\",\"policy\":\"lossy\",\"integrity\":1.0,\"correct\":false,\"seed\":0}\n\
{\"pid\":\"p1\",\"policy\":\"lossy\",\"integrity\":1.0,\"correct\":true,\"seed\":0}\n\
{\"pid\":\"p2\",\"policy\":\"lossy\",\"integrity\":1.0,\"correct\":true,\"seed\":0}\n\
{\"pid\":\"p3\",\"policy\":\"lossy\",\"integrity\":1.0,\"correct\":true,\"seed\":0}\n\
{\"pid\":\"p4\",\"policy\":\"lossy\",\"integrity\":1.0,\"correct\":false,\"seed\":0}\n\
{\"pid\":\"p0\",\"policy\":\"lossy\",\"integrity\":1.0,\"correct\":true,\"seed\":1}\n\
{\"pid\":\"p1\",\"policy\":\"lossy\",\"integrity\":1.0,\"correct\":true,\"seed\":1}\n\
{\"pid\":\"p2\",\"policy\":\"lossy\",\"integrity\":1.0,\"correct\":true,\"seed\":1}\n\
{\"pid\":\"p3\",\"policy\":\"lossy\",\"integrity\":1.0,\"correct\":false,\"seed\":1}\n\
{\"pid\":\"p4\",\"policy\":\"lossy\",\"integrity\":1.0,\"correct\":true,\"seed\":1}\n\
{\"pid\":\"p0\",\"policy\":\"lossy\",\"integrity\":0.3,\"correct\":true,\"seed\":0}\n\
{\"pid\":\"p1\",\"policy\":\"lossy\",\"integrity\":0.3,\"correct\":false,\"seed\":0}\n\
{\"pid\":\"p2\",\"policy\":\"lossy\",\"integrity\":0.3,\"correct\":false,\"seed\":0}\n\
{\"pid\":\"p3\",\"policy\":\"lossy\",\"integrity\":0.3,\"correct\":true,\"seed\":0}\n\
{\"pid\":\"p4\",\"policy\":\"lossy\",\"integrity\":0.3,\"correct\":false,\"seed\":0}\n\
{\"pid\":\"p0\",\"policy\":\"lossy\",\"integrity\":0.3,\"correct\":false,\"seed\":1}\n\
{\"pid\":\"p1\",\"policy\":\"lossy\",\"integrity\":0.3,\"correct\":true,\"seed\":1}\n\
{\"pid\":\"p2\",\"policy\":\"lossy\",\"integrity\":0.3,\"correct\":false,\"seed\":1}\n\
{\"pid\":\"p3\",\"policy\":\"lossy\",\"integrity\":0.3,\"correct\":false,\"seed\":1}\n\
{\"pid\":\"p4\",\"policy\":\"lossy\",\"integrity\":0.3,\"correct\":true,\"seed\":1}\n\
{\"pid\":\"p0\",\"policy\":\"source_first\",\"integrity\":1.0,\"correct\":true,\"seed\":0}\n\
{\"pid\":\"p1\",\"policy\":\"source_first\",\"integrity\":1.0,\"correct\":false,\"seed\":0}\n\
{\"pid\":\"p2\",\"policy\":\"source_first\",\"integrity\":1.0,\"correct\":true,\"seed\":0}\n\
{\"pid\":\"p3\",\"policy\":\"source_first\",\"integrity\":1.0,\"correct\":true,\"seed\":0}\n\
{\"pid\":\"p4\",\"policy\":\"source_first\",\"integrity\":1.0,\"correct\":true,\"seed\":0}\n\
{\"pid\":\"p0\",\"policy\":\"source_first\",\"integrity\":1.0,\"correct\":false,\"seed\":1}\n\
{\"pid\":\"p1\",\"policy\":\"source_first\",\"integrity\":1.0,\"correct\":true,\"seed\":1}\n\
{\"pid\":\"p2\",\"policy\":\"source_first\",\"integrity\":1.0,\"correct\":true,\"seed\":1}\n\
{\"pid\":\"p3\",\"policy\":\"source_first\",\"integrity\":1.0,\"correct\":true,\"seed\":1}\n\
{\"pid\":\"p4\",\"policy\":\"source_first\",\"integrity\":1.0,\"correct\":false,\"seed\":1}\n\
{\"pid\":\"p0\",\"policy\":\"source_first\",\"integrity\":0.3,\"correct\":false,\"seed\":0}\n\
{\"pid\":\"p1\",\"policy\":\"source_first\",\"integrity\":0.3,\"correct\":true,\"seed\":0}\n\
{\"pid\":\"p2\",\"policy\":\"source_first\",\"integrity\":0.3,\"correct\":true,\"seed\":0}\n\
{\"pid\":\"p3\",\"policy\":\"source_first\",\"integrity\":0.3,\"correct\":true,\"seed\":0}\n\
{\"pid\":\"p4\",\"policy\":\"source_first\",\"integrity\":0.3,\"correct\":true,\"seed\":0}\n\
{\"pid\":\"p0\",\"policy\":\"source_first\",\"integrity\":0.3,\"correct\":false,\"seed\":1}\n\
{\"pid\":\"p1\",\"policy\":\"source_first\",\"integrity\":0.3,\"correct\":true,\"seed\":1}\n\
{\"pid\":\"p2\",\"policy\":\"source_first\",\"integrity\":0.3,\"correct\":true,\"seed\":1}\n\
{\"pid\":\"p3\",\"policy\":\"source_first\",\"integrity\":0.3,\"correct\":true,\"seed\":1}\n\
{\"pid\":\"p4\",\"policy\":\"source_first\",\"integrity\":0.3,\"correct\":true,\"seed\":1}\n";

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

fn mount_point() -> web_sys::Element {
    let el = document().create_element("div").unwrap();
    document().body().unwrap().append_child(&el).unwrap();
    el
}

/// Cells equal as text, or as numbers within 1e-9.
fn assert_csv_close(got: &str, want: &str) {
    let got: Vec<&str> = got.lines().collect();
    let want: Vec<&str> = want.lines().filter(|l| !l.is_empty()).collect();
    assert_eq!(got.len(), want.len(), "row count");
    for (g, w) in got.iter().zip(&want) {
        let (gc, wc): (Vec<&str>, Vec<&str>) = (g.split(',').collect(), w.split(',').collect());
        assert_eq!(gc.len(), wc.len(), "{g} vs {w}");
        for (a, b) in gc.iter().zip(&wc) {
            match (a.parse::<f64>(), b.parse::<f64>()) {
                (Ok(x), Ok(y)) => assert!((x - y).abs() <= 1e-9, "{a} vs {b} in {g}"),
                _ => assert_eq!(a, b, "{g} vs {w}"),
            }
        }
    }
}

/// Runs `page`'s capability in the worker's engines on new files (roles detected) or, with
/// `None`, on the kept inputs; the outcome as the page receives it (MessagePack round trip).
fn run<C: Capability>(
    engines: &mut Engines,
    files: Option<Vec<InputFile>>,
    request: &C::Request,
) -> Result<Outcome<C::Overview, C::Report>, Error> {
    let inputs = match files {
        Some(f) => RunInputs::Files(f.into_iter().map(|f| (f, None)).collect()),
        None => RunInputs::Kept,
    };
    let packed =
        engines.run(C::ANALYSIS, inputs, &Payload::pack(request).unwrap(), &mut quiet()).map_err(|e| e.error)?;
    Ok(packed.unpack().unwrap())
}

/// A drill-down of the kept inputs, as the page receives it.
fn detail<C: Capability>(engines: &mut Engines, request: &C::Request, d: &C::Detail) -> Result<C::DetailView, Error> {
    let packed = engines.detail(C::ANALYSIS, &Payload::pack(request).unwrap(), &Payload::pack(d).unwrap())?;
    Ok(packed.unpack().unwrap())
}

/// The rescoring demo (`Capability::DEMO` of rescoring), compiled in: a test in the browser
/// reads no files.
fn rescore_demo() -> Option<Vec<InputFile>> {
    let files = [
        ("memories.jsonl", include_str!("../static/demo/memories.jsonl")),
        ("queries.jsonl", include_str!("../static/demo/queries.jsonl")),
        ("runs.jsonl", include_str!("../static/demo/runs.jsonl")),
    ];
    let demo = <Rescore as memaudit::capability::Capability>::DEMO;
    assert_eq!(demo.iter().map(|d| d.name).collect::<Vec<_>>(), files.map(|f| f.0), "the rescoring demo's files");
    Some(files.iter().map(|(name, text)| InputFile::new(*name, text.as_bytes())).collect())
}

#[wasm_bindgen_test]
async fn app_mounts() {
    let root = mount_point();
    yew::Renderer::<memaudit::web::App>::with_root(root.clone()).render();
    TimeoutFuture::new(50).await;
    for id in ["#file-input", "#demo-button", "#settings", "#k", "#bootstrap"] {
        assert!(root.query_selector(id).unwrap().is_some(), "{id} missing");
    }
    // Every page is mounted; only the rescoring page is visible.
    for id in [
        "#nav-rescore",
        "#nav-compare",
        "#nav-probe",
        "#nav-reclaim",
        "#compare-file-input",
        "#compare-format",
        "#probe-note",
        "#probe-source",
        "#probe-stale",
        "#probe-file-input",
        "#reclaim-file-input",
        "#reclaim-settings",
        "#reclaim-resampler",
        "#nav-answers",
        "#nav-ablation",
        "#nav-claims",
        "#nav-rules",
        "#page-answers",
        "#answers-file-input",
        "#answers-settings",
        "#answers-f1-threshold",
        "#page-ablation",
        "#ablation-file-input",
        "#ablation-gate",
        "#ablation-bootstrap",
        "#page-claims",
        "#claims-file-input",
        "#claims-slack",
        "#claims-contrasts",
        "#page-rules",
        "#rules-file-input",
        "#rules-evaluated-at",
    ] {
        assert!(root.query_selector(id).unwrap().is_some(), "{id} missing");
    }
    let input: web_sys::HtmlInputElement = root.query_selector("#file-input").unwrap().unwrap().dyn_into().unwrap();
    assert!(input.multiple());
    assert_eq!(input.type_(), "file");
}

#[wasm_bindgen_test]
fn histogram_draws_pixels() {
    let canvas: web_sys::HtmlCanvasElement = document().create_element("canvas").unwrap().dyn_into().unwrap();
    canvas.set_width(640);
    canvas.set_height(400);
    document().body().unwrap().append_child(&canvas).unwrap();
    let values: Vec<f64> = (0..200).map(|i| (i % 37) as f64 / 40.0).collect();
    let plot = HistogramPlot {
        title: "|ΔnDCG| raw → canonical".into(),
        x_label: "|ΔnDCG| per query".into(),
        bins: histogram(&values),
        n: values.len(),
        mean_abs: Some(0.45),
        threshold: Some(0.1),
    };
    draw_plot(canvas.clone(), &plot).unwrap();
    let ctx: web_sys::CanvasRenderingContext2d = canvas.get_context("2d").unwrap().unwrap().dyn_into().unwrap();
    let data = ctx.get_image_data(0.0, 0.0, 640.0, 400.0).unwrap().data();
    let (mut ink, mut bar) = (0usize, 0usize);
    for px in data.chunks(4) {
        if px[0] < 245 || px[1] < 245 || px[2] < 245 {
            ink += 1;
        }
        // The bar colour (52, 101, 164) at 85 % on white.
        if (px[0] as i32 - 83).abs() < 20 && (px[1] as i32 - 124).abs() < 20 && (px[2] as i32 - 178).abs() < 20 {
            bar += 1;
        }
    }
    assert!(ink > 5000, "{ink} drawn pixels");
    assert!(bar > 5000, "{bar} bar pixels");
}

#[wasm_bindgen_test]
fn worker_load_and_audit_matches_the_cli() {
    let mut e = Engines::new();
    let o = run::<Rescore>(&mut e, rescore_demo(), &Settings::default()).unwrap();
    let report = o.report;
    assert_eq!(report.reading.counts.memories, 1695);
    assert_eq!(o.overview.unwrap().queries.len(), 120);
    assert_eq!(report.systems, ["bm25-turns", "dense-facts", "hybrid-rrf", "extractor-store"]);
    let csv = memaudit::audit::table::table(&report, RescoreTable::Summary).to_csv().unwrap();
    assert_csv_close(&csv, CLI_SUMMARY_CSV);
}

#[wasm_bindgen_test]
fn engine_keeps_the_dataset_and_reports_bad_files() {
    let mut e = Engines::new();
    run::<Rescore>(&mut e, rescore_demo(), &Settings::default()).unwrap();
    let k5 = Settings { k: 5, bootstrap: 0, ..Settings::default() };
    let r = run::<Rescore>(&mut e, None, &k5).unwrap();
    assert!(r.report.conventions.starts_with("k=5 "));
    let q = DrilldownQuery { system: "bm25-turns".into(), query: "conv0/q1".into() };
    let d = detail::<Rescore>(&mut e, &k5, &q).unwrap();
    assert_eq!(d.items.iter().filter(|i| i.within_k).count(), 5);

    let bad =
        vec![InputFile::new("bad.jsonl", b"{\"memory_id\":\"a\",\"anchors\":[\"a\"]}\n{\"memory_id\": }\n".to_vec())];
    match run::<Rescore>(&mut e, Some(bad), &Settings::default()) {
        Err(Error::Ingest(e)) => {
            assert_eq!(e.location.file, "bad.jsonl");
            assert_eq!(e.location.line, Some(2));
        }
        other => panic!("expected an ingest error, got {:?}", other.map(|_| ())),
    }
    // The earlier dataset is kept.
    assert!(run::<Rescore>(&mut e, None, &k5).is_ok());
}

#[wasm_bindgen_test]
fn messages_pass_blobs_through_the_codec() {
    let parts = js_sys::Array::of1(&"{\"query_id\":\"q\",\"evidence\":[\"a\"]}".into());
    let blob = web_sys::Blob::new_with_str_sequence(&parts).unwrap();
    let settings = Settings { seed: u64::MAX, ..Settings::default() };
    let req = Request::Run {
        job: 7,
        page: Analysis::Rescore,
        inputs: Inputs::Files(vec![JobFile {
            file: SourceFile { name: "q.jsonl".into(), blob: blob.clone() },
            role: None,
        }]),
        request: Payload::pack(&settings).unwrap(),
        limits: memaudit::ingest::Limits { max_bytes: 1 << 40, max_rows: 3 },
    };
    match decode_request(encode(&req).unwrap()) {
        Request::Run { job, page, inputs: Inputs::Files(files), request, limits } => {
            assert_eq!((job, page), (7, Analysis::Rescore));
            assert_eq!(limits, memaudit::ingest::Limits { max_bytes: 1 << 40, max_rows: 3 });
            assert_eq!(request.unpack::<Settings>().unwrap().seed, u64::MAX);
            assert_eq!(files[0].file.name, "q.jsonl");
            assert_eq!(files[0].file.blob.size(), blob.size());
        }
        other => panic!("{other:?}"),
    }
    // A result and its timing cross unchanged.
    let resp = Response::Done {
        job: 3,
        outcome: Payload::pack(&vec![1.5f64, f64::NAN]).unwrap(),
        timing: Timing { total_ms: 2.0, ..Timing::default() },
    };
    match decode_response(encode(&resp).unwrap()) {
        Response::Done { job, outcome, timing } => {
            assert_eq!((job, timing.total_ms), (3, 2.0));
            let v: Vec<f64> = outcome.unpack().unwrap();
            assert!(v[0] == 1.5 && v[1].is_nan(), "NaN survives MessagePack");
        }
        other => panic!("{other:?}"),
    }
}

fn hidden(root: &web_sys::Element, id: &str) -> bool {
    root.query_selector(id).unwrap().unwrap().has_attribute("hidden")
}

#[wasm_bindgen_test]
async fn navigation_switches_pages_and_keeps_them_mounted() {
    let root = mount_point();
    yew::Renderer::<memaudit::web::App>::with_root(root.clone()).render();
    TimeoutFuture::new(50).await;
    // No page named: the release page, which takes any file.
    assert!(!hidden(&root, "#page-audit"));
    for (nav, page) in [
        ("#nav-rescore", "#page-rescore"),
        ("#nav-compare", "#page-compare"),
        ("#nav-probe", "#page-probe"),
        ("#nav-answers", "#page-answers"),
        ("#nav-ablation", "#page-ablation"),
        ("#nav-claims", "#page-claims"),
        ("#nav-rules", "#page-rules"),
        ("#nav-reclaim", "#page-reclaim"),
    ] {
        let a: web_sys::HtmlElement = root.query_selector(nav).unwrap().unwrap().dyn_into().unwrap();
        a.click();
        // A loaded page shows within a few frames; wait up to 2 s (a busy CI machine), never less.
        for _ in 0..40 {
            TimeoutFuture::new(50).await;
            if !hidden(&root, page) {
                break;
            }
        }
        assert!(!hidden(&root, page), "{page} visible after {nav}");
        assert!(hidden(&root, "#page-audit"));
        assert_eq!(a.get_attribute("aria-current").as_deref(), Some("page"));
    }
    let app = root.query_selector(".app").unwrap().unwrap();
    assert_eq!(app.get_attribute("data-page").as_deref(), Some("reclaim"));
    let _ = web_sys::window().unwrap().location().set_hash("");
}

/// A canvas of the plot's size, drawn; returns its RGBA pixels.
fn draw<P: Plot>(plot: &P) -> Vec<u8> {
    let canvas: web_sys::HtmlCanvasElement = document().create_element("canvas").unwrap().dyn_into().unwrap();
    document().body().unwrap().append_child(&canvas).unwrap();
    draw_plot(canvas.clone(), plot).unwrap();
    let (w, h) = plot.size();
    assert_eq!((canvas.width(), canvas.height()), (w, h));
    let ctx: web_sys::CanvasRenderingContext2d = canvas.get_context("2d").unwrap().unwrap().dyn_into().unwrap();
    ctx.get_image_data(0.0, 0.0, w as f64, h as f64).unwrap().data().to_vec()
}

/// Pixels within 30 of a colour in each channel.
fn near(px: &[u8], c: plotters::style::RGBColor) -> usize {
    px.chunks(4)
        .filter(|p| {
            (p[0] as i32 - c.0 as i32).abs() < 30
                && (p[1] as i32 - c.1 as i32).abs() < 30
                && (p[2] as i32 - c.2 as i32).abs() < 30
        })
        .count()
}

#[wasm_bindgen_test]
fn forest_plot_draws_rows_and_hit_tests_them() {
    let rows: Vec<ForestRow> = (0..6)
        .map(|i| ForestRow {
            label: format!("arm{i} − arm{}", i + 1),
            estimate: i as f64 * 0.1 - 0.25,
            low: i as f64 * 0.1 - 0.35,
            high: i as f64 * 0.1 - 0.15,
            significant: i % 2 == 0,
            group: None,
        })
        .collect();
    let plot = ForestPlot { title: "Contrasts".into(), x_label: "a − b".into(), rows, width: 800, selected: None };
    let px = draw(&plot);
    assert!(near(&px, memaudit::plots::forest::SIGNIFICANT) > 100, "significant rows in red");
    assert!(near(&px, memaudit::plots::forest::NOT_SIGNIFICANT) > 100);
    let l = ForestLayout::new(&plot);
    for b in &l.rows {
        assert_eq!(l.row_at(400.0, b.y as f64), Some(b.index));
    }
}

#[wasm_bindgen_test]
fn cd_diagram_draws_clique_bars_and_hit_tests_arms() {
    let arms: Vec<CdArm> = (0..5).map(|i| CdArm { name: format!("arm{i}"), mean_rank: 1.3 + i as f64 * 0.8 }).collect();
    let plot = CdPlot {
        title: "CD".into(),
        arms,
        cd: Some(1.1),
        cliques: vec![vec!["arm0".into(), "arm1".into()], vec!["arm3".into(), "arm4".into()]],
        width: 800,
        selected: Some(2),
    };
    let px = draw(&plot);
    assert!(near(&px, memaudit::plots::cd_diagram::CLIQUE) > 300, "clique bars and axis");
    assert!(near(&px, memaudit::plots::cd_diagram::RULER) > 50, "CD ruler");
    assert!(near(&px, memaudit::plots::cd_diagram::SELECTED) > 50, "selected arm");
    let l = CdLayout::new(&plot);
    assert_eq!(l.cliques.len(), 2);
    for a in &l.arms {
        assert_eq!(l.arm_at(a.x_label as f64, a.y as f64), Some(a.index));
    }
}

#[wasm_bindgen_test]
fn posterior_reclaim_and_verdict_plots_draw_pixels() {
    let p = PosteriorPlot {
        a: PosteriorArm { name: "a".into(), successes: 80.0, n: 96.0 },
        b: PosteriorArm { name: "b".into(), successes: 60.0, n: 96.0 },
        width: 700,
        height: 360,
    };
    let px = draw(&p);
    assert!(near(&px, memaudit::plots::posterior::COLOR_A) > 200);
    assert!(near(&px, memaudit::plots::posterior::COLOR_B) > 200);

    let mut e = Engines::new();
    let b =
        run::<Reclaim>(&mut e, Some(vec![InputFile::new("t.jsonl", TRIALS.as_bytes())]), &ReclaimRequest::default())
            .unwrap();
    let plot = ReclaimPlot::from_cells("RR", &b.report.cells, 760, 420);
    let px = draw(&plot);
    assert!(near(&px, memaudit::reclaim::plot::PALETTE[0]) > 50 && near(&px, memaudit::reclaim::plot::PALETTE[1]) > 50);

    let v = VerdictBars {
        title: "verdicts".into(),
        groups: vec![VerdictGroup {
            name: "itemized".into(),
            bars: vec![
                VerdictBar { verdict: "complete".into(), count: 10 },
                VerdictBar { verdict: "silent".into(), count: 4 },
            ],
        }],
        width: 600,
        height: 320,
    };
    let px = draw(&v);
    assert!(near(&px, memaudit::plots::verdicts::verdict_color("complete")) > 2000);
    assert!(near(&px, memaudit::plots::verdicts::verdict_color("silent")) > 800);
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9
}

#[wasm_bindgen_test]
fn compare_engine_in_wasm_matches_the_cli() {
    let mut e = Engines::new();
    let request = CompareRequest {
        settings: CompareSettings { bootstrap: 2000, ..CompareSettings::default() },
        ..Default::default()
    };
    let r = run::<Compare>(&mut e, Some(vec![InputFile::new("o.csv", OUTCOMES_CSV.as_bytes())]), &request).unwrap();
    let c = &r.report.as_compared().expect("a comparison, not a refusal").comparison;
    // memaudit compare --outcomes o.csv --bootstrap 2000 --format json (native)
    let arms = [
        ("a", 0.4410266666666666, 0.3285740380127419, 0.5410333333333333, 1.5333333333333334),
        ("b", 0.53718, 0.42948333333333333, 0.6346200000000001, 1.9333333333333333),
        ("c", 0.5666666666666665, 0.4640933333333333, 0.66667, 2.533333333333333),
    ];
    assert_eq!(c.arms.len(), arms.len());
    for (row, (arm, mean, lo, hi, rank)) in c.arms.iter().zip(arms) {
        assert_eq!(row.arm, arm);
        assert!(close(row.mean, mean) && close(row.ci_low, lo) && close(row.ci_high, hi), "{row:?}");
        assert!(close(row.mean_rank.unwrap(), rank));
    }
    let pairs = [
        (-0.09615333333333337, -0.26283666666666666, 0.03717668846616833, 0.3209061647536561),
        (-0.12563999999999992, -0.3256348442273801, 0.04103000000000001, 0.6398920131199),
        (-0.02948666666666655, -0.19616666666666674, 0.07051333333333332, 0.04117188137078798),
    ];
    assert_eq!(c.pairs.len(), pairs.len());
    for (p, (diff, lo, hi, holm)) in c.pairs.iter().zip(pairs) {
        assert!(close(p.diff, diff) && close(p.ci_low, lo) && close(p.ci_high, hi) && close(p.p_holm, holm), "{p:?}");
    }
    let f = c.friedman.as_ref().unwrap();
    assert!(close(f.chi2, 15.199999999999994));
    assert_eq!(f.cliques, vec![vec!["a".to_string(), "b".into()], vec!["b".into(), "c".into()]]);
    match detail::<Compare>(&mut e, &request, &ItemSelection::Pair { a: "a".into(), b: "c".into() }).unwrap() {
        ItemsView::Pair { items, .. } => assert_eq!(items.len(), 30),
        other => panic!("{other:?}"),
    }
}

#[wasm_bindgen_test]
fn probe_engine_explains_the_notebook_note_in_both_modes() {
    let input = NoteInput::new("note", "(Memory of an earlier session.) You concluded the total before tax was $55.")
        .with_source("notebooks at $4 each (7 bought) and pens at $2 each (9 bought)")
        .with_stale("$55");
    let live = explain_note(&input);
    assert_eq!(live.itemized.as_ref().unwrap().row.verdict, Verdict::Silent);
    assert_eq!(live.reference.as_ref().unwrap().row.verdict, Verdict::UncorrectableSilent);
    // The same through the worker, before any notes file is loaded.
    let mut e = Engines::new();
    let via_worker = detail::<Probe>(&mut e, &ProbeRequest::default(), &NoteChoice::Given(Box::new(input))).unwrap();
    assert_eq!(via_worker, live);
    let notes = "{\"note_id\": \"n1\", \"note\": \"7 notebooks at $4 and 9 pens at $2\", \"source\": \"notebooks at $4 each (7 bought) and pens at $2 each (9 bought)\", \"stale\": \"$55\", \"correct\": true}\n";
    let b = run::<Probe>(&mut e, Some(vec![InputFile::new("n.jsonl", notes.as_bytes())]), &ProbeRequest::default())
        .unwrap();
    assert_eq!(b.report.notes[0].verdict, Verdict::Complete);
    assert_eq!(b.report.side_by_side.reference.summary.n, 1);
}

#[wasm_bindgen_test]
fn reclaim_engine_in_wasm_matches_the_cli() {
    let mut e = Engines::new();
    let request = ReclaimRequest::default();
    let b = run::<Reclaim>(&mut e, Some(vec![InputFile::new("t.jsonl", TRIALS.as_bytes())]), &request).unwrap();
    // memaudit reclaim --trials t.jsonl --format json (native; CPython resampler, seed 0)
    let want = [
        ("lossy", 1.0, 7, 0.4, 1.0),
        ("lossy", 0.3, 4, 0.1, 0.7),
        ("source_first", 1.0, 7, 0.4, 1.0),
        ("source_first", 0.3, 8, 0.5, 1.0),
    ];
    assert_eq!(b.report.cells.len(), want.len());
    for (c, (policy, g, rec, lo, hi)) in b.report.cells.iter().zip(want) {
        assert_eq!((c.key.policy.as_str(), c.key.integrity, c.recovered), (policy, Some(g), rec));
        assert!(close(c.rr_low.unwrap(), lo) && close(c.rr_high.unwrap(), hi), "{c:?}");
    }
    let mut chacha = request.clone();
    chacha.settings.bootstrap.engine = Resampler::ChaCha8;
    chacha.settings.bootstrap.cluster_by_problem = true;
    let b = run::<Reclaim>(&mut e, None, &chacha).unwrap();
    // --resampler chacha8 --cluster-by-problem
    let want = [(0.5, 0.9), (0.2, 0.5), (0.5, 0.9), (0.4, 1.0)];
    assert_eq!(b.report.cells.len(), want.len());
    for (c, (lo, hi)) in b.report.cells.iter().zip(want) {
        assert!(close(c.rr_low.unwrap(), lo) && close(c.rr_high.unwrap(), hi), "{c:?}");
    }
}

/// `memaudit ablation --input abl.csv --bootstrap 500 --format json` (native) on this trace.
const ABLATION_CSV: &str = "\
run,query_id,subset,rank,cosine,base_score,ablated_score\n\
r1,q00,multi,1,0.8311,0,1\nr1,q00,multi,2,0.7398,0,1\nr1,q00,multi,3,0.637,0,1\n\
r1,q01,single,1,0.8015,1,1\nr1,q01,single,2,0.7472,1,1\nr1,q01,single,3,0.645,1,1\n\
r1,q02,multi,1,0.8235,1,1\nr1,q02,multi,2,0.7272,1,1\nr1,q02,multi,3,0.6007,1,1\n\
r1,q03,single,1,0.814,0,1\nr1,q03,single,2,0.7383,0,0\nr1,q03,single,3,0.6399,0,0\n\
r1,q04,multi,1,0.8309,1,1\nr1,q04,multi,2,0.7001,1,0\nr1,q04,multi,3,0.6105,1,1\n\
r1,q05,single,1,0.8491,1,0\nr1,q05,single,2,0.7145,1,0\nr1,q05,single,3,0.627,1,1\n\
r1,q06,multi,1,0.8102,0,1\nr1,q06,multi,2,0.7345,0,1\nr1,q06,multi,3,0.6447,0,0\n\
r1,q07,single,1,0.8181,1,1\nr1,q07,single,2,0.7073,1,1\nr1,q07,single,3,0.6151,1,1\n\
r1,q08,multi,1,0.8002,1,1\nr1,q08,multi,2,0.7169,1,1\nr1,q08,multi,3,0.6409,1,1\n\
r1,q09,single,1,0.8158,0,0\nr1,q09,single,2,0.7352,0,0\nr1,q09,single,3,0.6488,0,0\n\
r1,q10,multi,1,0.8375,1,0\nr1,q10,multi,2,0.7009,1,0\nr1,q10,multi,3,0.6183,1,1\n\
r1,q11,single,1,0.8005,1,1\nr1,q11,single,2,0.709,1,0\nr1,q11,single,3,0.6098,1,0\n";

fn fixture(name: &str) -> InputFile {
    let bytes: &[u8] = match name {
        "seed000_scores.csv" => include_bytes!("reference/paper_fixtures/seed000_scores.csv"),
        "seed000_claims.csv" => include_bytes!("reference/paper_fixtures/seed000_claims.csv"),
        "seed000_tables.csv" => include_bytes!("reference/paper_fixtures/seed000_tables.csv"),
        "seed000_rules.json" => include_bytes!("reference/paper_fixtures/seed000_rules.json"),
        "seed000_values.json" => include_bytes!("reference/paper_fixtures/seed000_values.json"),
        "seed000_gitlog.txt" => include_bytes!("reference/paper_fixtures/seed000_gitlog.txt"),
        other => panic!("no fixture {other}"),
    };
    InputFile::new(name, bytes)
}

#[wasm_bindgen_test]
fn tool_engines_in_wasm_match_the_cli() {
    let mut e = Engines::new();
    // memaudit claims --data … --claims … --printed-table … --bootstrap 2000 --format json (native)
    let mut claims = ClaimsRequest { bootstrap: 2000, ..ClaimsRequest::default() };
    let files = ["seed000_claims.csv", "seed000_scores.csv", "seed000_tables.csv"].into_iter().map(fixture).collect();
    let b = run::<Claims>(&mut e, Some(files), &claims).unwrap();
    let n = &b.report.counts;
    assert_eq!((n.matches, n.within_rounding, n.differs, n.cannot_compute), (7, 3, 4, 1));
    assert_eq!(b.report.findings.len(), 20);
    let d = &b.report.sweep.as_ref().unwrap().deltas;
    assert!(close(d[1].stats.delta, 0.07894736842105263) && close(d[1].stats.ci_high, 0.15789473684210525));
    assert_eq!(d[1].stats.label, memaudit::ksweep::Significance::Boundary);
    // A re-run on the kept files under another seed.
    claims.seed = 7;
    let b = run::<Claims>(&mut e, None, &claims).unwrap();
    assert_eq!(b.report.settings.seed, 7);

    // memaudit rules --rules … --values … --git-log …
    let files = ["seed000_rules.json", "seed000_values.json", "seed000_gitlog.txt"].into_iter().map(fixture).collect();
    let request = RulesRequest { evaluated_at: Some("2026-11-22T00:00:00Z".into()) };
    let b = run::<Rules>(&mut e, Some(files), &request).unwrap();
    assert_eq!((b.report.fired, b.report.registered_after_data), (7, 1));
    let locomo = b.report.verdicts.iter().find(|v| v.rule_id == "noncircularity_scale_locomo").unwrap();
    assert!(close(locomo.margin.unwrap(), -0.01100000000000001));

    // memaudit ablation --input abl.csv --bootstrap 500 --format json
    let request = AblationRequest {
        settings: memaudit::ablation::AblationSettings { bootstrap: 500, ..Default::default() },
        ..Default::default()
    };
    let b = run::<Ablation>(&mut e, Some(vec![InputFile::new("abl.csv", ABLATION_CSV.as_bytes())]), &request).unwrap();
    let o = &b.report.runs[0].overall.noncircularity;
    assert!(close(o.rho.unwrap(), -0.11540765621062823) && close(o.margin.unwrap(), 0.03459234378937176));
    let (p, q) = (o.pair_ci.as_ref().unwrap(), o.query_ci.as_ref().unwrap());
    assert!(close(p.low, -0.4424611461792109) && close(p.high, 0.24017333859347562), "{p:?}");
    assert!(close(q.low, -0.40255329163296766) && close(q.high, 0.21015874345990754), "{q:?}");
    let single = &b.report.runs[0].subsets[1];
    assert_eq!(single.subset.as_deref(), Some("single"));
    assert!(close(single.noncircularity.pair_ci.as_ref().unwrap().low, -0.6384696222193861));

    // answers: the diff of paper_sem and mab_sem
    let text = "{\"query_id\":\"q1\",\"dataset\":\"ruler_qa1\",\"gold\":[\"The Louvre\"],\"output\":\"louvre\"}\n\
{\"query_id\":\"q2\",\"dataset\":\"ruler_qa1\",\"gold\":[\"Paris\"],\"output\":\"Paris.\"}\n";
    let request = AnswersRequest {
        diff: Some((memaudit::answers::Profile::PaperSem, memaudit::answers::Profile::MabSem)),
        ..Default::default()
    };
    let b = run::<Answers>(&mut e, Some(vec![InputFile::new("answers.jsonl", text.as_bytes())]), &request).unwrap();
    assert_eq!(b.report.diff.as_ref().unwrap().iter().map(|d| d.query_id.as_str()).collect::<Vec<_>>(), ["q1"]);
    // A bad file keeps the earlier files of that page.
    let bad = vec![InputFile::new("bad.csv", b"query_id,gold,prediction,category\nq1,a,b,one\n".to_vec())];
    assert!(matches!(run::<Answers>(&mut e, Some(bad), &request), Err(Error::Ingest(_))));
    assert!(e.has_data(Analysis::Answers));
}

#[wasm_bindgen_test]
fn a_malformed_message_becomes_an_error_value_not_a_panic() {
    // A response that is not one.
    let bad = js_sys::JSON::parse(r#"{"Bogus": {"job": 1}}"#).unwrap();
    match decode_response(bad) {
        Response::Undecodable { message } => assert!(message.contains("could not be read"), "{message}"),
        other => panic!("{other:?}"),
    }
    // A request that is not one.
    match decode_request(wasm_bindgen::JsValue::from_f64(42.0)) {
        Request::Undecodable { message } => assert!(!message.is_empty()),
        other => panic!("{other:?}"),
    }
    // Undecodable responses and deaths have no job.
    assert_eq!(Response::Undecodable { message: "x".into() }.job(), None);
    assert_eq!(Response::Died { message: "x".into() }.job(), None);
}

#[wasm_bindgen_test]
fn tool_plots_draw_pixels() {
    use memaudit::ablation::{Gate, UHistogram};
    use memaudit::ksweep::{Series, SeriesPoint, Significance};
    let u = UtilityPlot {
        title: "u".into(),
        groups: vec![
            UtilityGroup { name: "mab".into(), histogram: UHistogram { harmful: 141, neutral: 500, helpful: 573 } },
            UtilityGroup { name: "locomo".into(), histogram: UHistogram { harmful: 26, neutral: 300, helpful: 366 } },
        ],
        width: 800,
        height: 360,
    };
    let px = draw(&u);
    assert!(near(&px, memaudit::ablation::utility_plot::HARMFUL) > 300, "harmful bars");
    assert!(near(&px, memaudit::ablation::utility_plot::HELPFUL) > 3000, "helpful bars");

    let series = |arm: &str, m: f64| Series {
        run: None,
        dataset: Some("d".into()),
        arm: arm.into(),
        points: [5, 10, 20]
            .iter()
            .enumerate()
            .map(|(i, k)| SeriesPoint { k: Some(*k), mean: m + i as f64 * 0.05, low: m - 0.05, high: m + 0.15, n: 100 })
            .collect(),
    };
    let k = KSweepPlot {
        title: "K".into(),
        y_label: "mean".into(),
        series: vec![series("a", 0.4), series("b", 0.3)],
        width: 800,
        height: 400,
    };
    let px = draw(&k);
    assert!(near(&px, memaudit::plots::series::series_color(0)) > 100);
    assert!(near(&px, memaudit::plots::series::series_color(1)) > 100);

    let labels = [Significance::Strict, Significance::Boundary, Significance::Directional, Significance::None];
    let deltas = DeltaForest {
        title: "deltas".into(),
        x_label: "a − b".into(),
        rows: labels
            .iter()
            .enumerate()
            .map(|(i, s)| DeltaPoint {
                label: format!("a − b · K={}", 5 * (i + 1)),
                group: Some("d".into()),
                delta: 0.05 * i as f64,
                low: -0.05,
                high: 0.2,
                significance: *s,
            })
            .collect(),
        width: 800,
        selected: None,
    };
    let px = draw(&deltas);
    for s in labels {
        assert!(near(&px, memaudit::ksweep::plot::label_color(s)) > 30, "{s:?}");
    }
    let l = deltas.layout();
    for b in &l.rows {
        assert_eq!(l.row_at(400.0, b.y as f64), Some(b.index));
    }

    let rho = RhoPlot {
        title: "rho".into(),
        x_label: "rho".into(),
        rows: vec![
            RhoRow {
                label: "mab".into(),
                group: None,
                rho: Some(0.05),
                pair: Some((0.02, 0.08)),
                query: Some((0.02, 0.08)),
                passes: Some(true),
            },
            RhoRow {
                label: "locomo".into(),
                group: None,
                rho: Some(0.17),
                pair: Some((0.13, 0.22)),
                query: Some((0.12, 0.22)),
                passes: Some(false),
            },
        ],
        gate: Gate::SCALE,
        width: 800,
    };
    let px = draw(&rho);
    assert!(near(&px, memaudit::ablation::rho_plot::GATE) > 50, "gate lines");
    assert!(near(&px, memaudit::plots::forest::SIGNIFICANT) > 50, "the breaching row");
}
