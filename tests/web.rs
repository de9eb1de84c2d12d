//! wasm-bindgen tests of the browser viewer, run in headless Chromium:
//! `cargo test --target wasm32-unknown-unknown --features web --test web`
//! (runner `wasm-bindgen-test-runner` from `.cargo/config.toml`; CHROMEDRIVER=/usr/bin/chromedriver).

#![cfg(all(target_arch = "wasm32", feature = "web"))]

use gloo::timers::future::TimeoutFuture;
use memaudit::audit::distribution::histogram;
use memaudit::conventions::Settings;
use memaudit::error::Error;
use memaudit::ingest::InputFile;
use memaudit::plots::HistogramPlot;
use memaudit::report;
use memaudit::web::codec::{Packed, WebCodec};
use memaudit::web::components::histogram::draw_on_canvas;
use memaudit::web::engine::{self, Engine};
use memaudit::web::protocol::{Audited, Request, SourceFile, Timing};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// `memaudit rescore -m static/demo/memories.jsonl -q static/demo/queries.jsonl
/// -r static/demo/runs.jsonl --format csv --table summary` (native CLI, default settings).
/// Regenerate it with that command when the demo bundle changes.
const CLI_SUMMARY_CSV: &str = "\
system,target,subset,n,ndcg,ndcg_ci_low,ndcg_ci_high,recall,hit,mrr,top1\n\
bm25-turns,raw,all,119,0.2696293792651203,0.2329250497000169,0.3077252207000374,0.6330532212885153,0.7226890756302521,0.18671704970947317,0.06722689075630252\n\
bm25-turns,raw,shared,96,0.2673939613308901,0.22515141594575014,0.3102284470320132,0.6267361111111109,0.7291666666666666,0.18715325594187138,0.07291666666666667\n\
bm25-turns,source,all,119,0.40901406735179696,0.36756321493227506,0.45390805599628137,0.8557422969187676,0.8739495798319328,0.29246864839071707,0.13445378151260504\n\
bm25-turns,source,shared,96,0.42159322020840156,0.37206347958554825,0.469397726863204,0.873263888888889,0.8958333333333334,0.30641416609881356,0.14583333333333334\n\
bm25-turns,canonical,all,96,0.21659094683529168,0.17234700867815678,0.2618157020725113,0.5572916666666666,0.6041666666666666,0.12887040772309252,0.041666666666666664\n\
bm25-turns,canonical,shared,96,0.21659094683529168,0.17234700867815678,0.2618157020725113,0.5572916666666666,0.6041666666666666,0.12887040772309252,0.041666666666666664\n\
dense-facts,raw,all,119,0.2439639112831714,0.20132410911391285,0.2888464465293733,0.5364145658263305,0.6470588235294118,0.17617400437742525,0.058823529411764705\n\
dense-facts,raw,shared,96,0.22961178367664506,0.180749245019023,0.2796460221848963,0.5000000000000001,0.625,0.1731397549752455,0.07291666666666667\n\
dense-facts,source,all,119,0.46193464278080243,0.4178344014983792,0.5065971945092606,0.9173669467787116,0.9495798319327731,0.3364927649381433,0.15126050420168066\n\
dense-facts,source,shared,96,0.4657247899707721,0.41666921814144126,0.5171409873739007,0.9253472222222223,0.9583333333333334,0.3428007582695083,0.16666666666666666\n\
dense-facts,canonical,all,96,0.3138259210595666,0.2681306167177004,0.3641442095171821,0.7256944444444443,0.8125,0.21836299963790906,0.08333333333333333\n\
dense-facts,canonical,shared,96,0.3138259210595666,0.2681306167177004,0.3641442095171821,0.7256944444444443,0.8125,0.21836299963790906,0.08333333333333333\n\
hybrid-rrf,raw,all,119,0.2735282036392083,0.23381887447900385,0.31688760150333767,0.6092436974789915,0.7058823529411765,0.19591312266982272,0.06722689075630252\n\
hybrid-rrf,raw,shared,96,0.2869908234686579,0.24117259007643096,0.33424890898694426,0.6284722222222221,0.7395833333333334,0.211090860710226,0.07291666666666667\n\
hybrid-rrf,source,all,119,0.4180435524457004,0.37470673059481635,0.46454815908568975,0.8599439775910365,0.8991596638655462,0.30071622759000516,0.11764705882352941\n\
hybrid-rrf,source,shared,96,0.44740570447004074,0.39682907070013623,0.4974457499587052,0.8836805555555555,0.9270833333333334,0.33311793741980755,0.13541666666666666\n\
hybrid-rrf,canonical,all,96,0.2719015319446369,0.22592883146835538,0.3188945427961692,0.6354166666666666,0.71875,0.17563467319370618,0.041666666666666664\n\
hybrid-rrf,canonical,shared,96,0.2719015319446369,0.22592883146835538,0.3188945427961692,0.6354166666666666,0.71875,0.17563467319370618,0.041666666666666664\n\
";

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

#[wasm_bindgen_test]
async fn app_mounts() {
    let root = mount_point();
    yew::Renderer::<memaudit::web::App>::with_root(root.clone()).render();
    TimeoutFuture::new(50).await;
    for id in ["#file-input", "#demo-button", "#settings", "#k", "#bootstrap"] {
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
        bins: histogram(&values),
        n: values.len(),
        mean_abs: Some(0.45),
        threshold: Some(0.1),
    };
    draw_on_canvas(canvas.clone(), &plot).unwrap();
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
    let (ds, report) = engine::load_and_audit(engine::demo_files(), &Settings::default(), &mut |_, _, _| {}).unwrap();
    assert_eq!(ds.memories.len(), 1429);
    assert_eq!(ds.queries.len(), 120);
    assert_eq!(report.systems, ["bm25-turns", "dense-facts", "hybrid-rrf"]);
    let csv = report::table(&report, "summary").unwrap().to_csv().unwrap();
    assert_csv_close(&csv, CLI_SUMMARY_CSV);

    // What the worker sends back decodes to the same report.
    let audited = Audited { report: report.clone(), queries: Some(engine::query_list(&ds)), timing: Timing::default() };
    let packed = Packed::pack(&audited).unwrap();
    assert_eq!(packed.unpack().unwrap(), audited);
}

#[wasm_bindgen_test]
fn engine_keeps_the_dataset_and_reports_bad_files() {
    let mut engine = Engine::new();
    engine.load(engine::demo_files(), &Settings::default(), &mut |_, _, _| {}).unwrap();
    let k5 = Settings { k: 5, bootstrap: 0, ..Settings::default() };
    let r = engine.rescore(&k5, &mut |_, _, _| {}).unwrap();
    assert!(r.conventions.starts_with("k=5 "));
    let d = engine.drilldown(&k5, 0, 1).unwrap();
    assert_eq!(d.items.iter().filter(|i| i.within_k).count(), 5);

    let bad =
        vec![InputFile::new("bad.jsonl", b"{\"memory_id\":\"a\",\"anchors\":[\"a\"]}\n{\"memory_id\": }\n".to_vec())];
    match engine.load(bad, &Settings::default(), &mut |_, _, _| {}) {
        Err(Error::Ingest(e)) => {
            assert_eq!(e.location.file, "bad.jsonl");
            assert_eq!(e.location.line, Some(2));
        }
        other => panic!("expected an ingest error, got {other:?}"),
    }
    // The earlier dataset is kept.
    assert!(engine.rescore(&k5, &mut |_, _, _| {}).is_ok());
}

#[wasm_bindgen_test]
fn messages_pass_blobs_through_the_codec() {
    use gloo::worker::Codec;
    let parts = js_sys::Array::of1(&"{\"query_id\":\"q\",\"evidence\":[\"a\"]}".into());
    let blob = web_sys::Blob::new_with_str_sequence(&parts).unwrap();
    let req = Request::Load {
        job: 7,
        files: vec![SourceFile { name: "q.jsonl".into(), blob: blob.clone() }],
        settings: Settings { seed: u64::MAX, ..Settings::default() },
    };
    let js = WebCodec::encode(&req);
    let back: Request = WebCodec::decode(js);
    match back {
        Request::Load { job, files, settings } => {
            assert_eq!(job, 7);
            assert_eq!(settings.seed, u64::MAX);
            assert_eq!(files[0].name, "q.jsonl");
            assert_eq!(files[0].blob.size(), blob.size());
        }
        other => panic!("{other:?}"),
    }
}
