//! The target mapping a rescoring exports (TIAP App. H: "release target mappings alongside
//! retrieval traces") read back as a mapping: the same scores under the id unit, every query,
//! system and target; a mapping of per-system stores refused at its field.

use crate::common::{demo_files, file};
use memaudit::audit::{self, Report};
use memaudit::conventions::{CreditUnit, Settings};
use memaudit::dataset::Dataset;
use memaudit::ingest::{Format, InputFile, read_all};

fn report(files: &[InputFile], settings: &Settings) -> (Dataset, Report) {
    let ds = Dataset::build(read_all(files).unwrap_or_else(|e| panic!("{e}")));
    let r = audit::run(&ds, settings, &mut |_, _| {});
    (ds, r)
}

/// Each (system, query, target) with its eligibility and scores.
fn scores(r: &Report) -> Vec<String> {
    let mut v: Vec<String> = r
        .per_query
        .iter()
        .map(|p| {
            format!(
                "{} {} {} {} {:?} {:?} {:?} {:?} {:?}",
                p.system,
                p.query_id,
                p.target.name(),
                p.eligible,
                p.ndcg,
                p.recall,
                p.hit,
                p.mrr,
                p.top1
            )
        })
        .collect();
    v.sort();
    v
}

/// The demo has a store per system: each system's rows, read back as the mapping (without
/// `system`), give that system the same scores on every query and target.
#[test]
fn the_exported_mapping_read_back_gives_the_same_scores_under_the_id_unit() {
    let settings = Settings { unit: CreditUnit::Id, bootstrap: 0, ..Settings::default() };
    let demo = demo_files();
    let (ds, first) = report(&demo, &settings);
    assert!(ds.per_system_stores());
    assert_eq!(first.mapping.len(), 120 * ds.systems.len(), "one row per system and query");
    let memories = demo.iter().find(|f| f.name.ends_with("memories.jsonl")).unwrap().clone();
    let runs = demo.iter().find(|f| f.name.ends_with("runs.jsonl")).unwrap().clone();
    let mut compared = 0;
    for system in &ds.systems {
        let rows: Vec<_> = first
            .mapping
            .iter()
            .filter(|m| m.system.as_ref() == Some(system))
            .map(|m| memaudit::audit::mapping::MappingRow { system: None, ..m.clone() })
            .collect();
        assert_eq!(rows.len(), 120);
        assert!(rows.iter().any(|m| !m.source_ids.is_empty()));
        // The page's JSON export of the table: the rows as a JSON array.
        let mapping = InputFile::new("mapping.json", serde_json::to_vec_pretty(&rows).unwrap());
        let (read, again) = report(&[memories.clone(), mapping, runs.clone()], &settings);
        assert_eq!(read.files[1].format, Format::TargetMappingsJson);
        let of = |r: &Report| -> Vec<String> {
            scores(r).into_iter().filter(|l| l.split(' ').next() == Some(system.as_str())).collect()
        };
        let (a, b) = (of(&first), of(&again));
        assert_eq!(a.len(), 120 * 3, "{system}");
        assert_eq!(a, b, "{system}");
        compared += a.len();
    }
    assert_eq!(compared, 120 * 3 * ds.systems.len());
    // The group unit credits the same ids (the same mapping), scored per evidence group.
    let (_, grouped) = report(&demo, &Settings { unit: CreditUnit::Group, bootstrap: 0, ..Settings::default() });
    assert_eq!(grouped.mapping, first.mapping);
}

#[test]
fn a_mapping_that_names_a_system_or_an_empty_id_is_refused_at_its_field() {
    let memories = file("m.jsonl", r#"{"memory_id":"t1","anchors":["t1"],"raw":true}"#);
    let with_system =
        file("map.json", r#"[{"query_id":"q1","raw_ids":["t1"]},{"system":"a","query_id":"q2","raw_ids":["t1"]}]"#);
    let e = read_all(&[memories.clone(), with_system]).err().unwrap().to_string();
    assert!(e.contains("map.json") && e.contains("[1].system") && e.contains("one system's store"), "{e}");
    let empty = file("map.json", r#"[{"query_id":"q1","raw_ids":["t1",""]}]"#);
    let e = read_all(&[memories.clone(), empty]).err().unwrap().to_string();
    assert!(e.contains("[0].raw_ids[1]") && e.contains("empty string"), "{e}");
    // JSON Lines with `system`: refused at its line.
    let lines = file(
        "map.jsonl",
        "{\"query_id\":\"q1\",\"raw_ids\":[\"t1\"]}\n{\"query_id\":\"q2\",\"system\":\"a\",\"raw_ids\":[]}\n",
    );
    let e = read_all(&[memories, lines]).err().unwrap().to_string();
    assert!(e.contains("map.jsonl") && e.contains("line 2") && e.contains("system"), "{e}");
}
