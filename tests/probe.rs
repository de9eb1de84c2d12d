//! The write-time probe: reference mode against reclaim-eval's `classify_note` test vectors
//! (seed-003-004 notes § A2.2) and its cross-tab on real deployed memories (§ A2.4); itemized
//! mode's token rules, completeness tag and the measured bar on the shared llama realworld
//! file; property tests that the probe and its readers never panic.

use crate::common;

use memaudit::ingest::InputFile;
use memaudit::probe::reference::{Regime, classify_note};
use memaudit::probe::{self, Mode, NoteInput, ProbeKeys, Verdict, probe_note};
use proptest::prelude::*;

const NB_SOURCE: &str = "notebooks at $4 each (7 bought) and pens at $2 each (9 bought)";
const P: &str = "(Memory of an earlier session.) ";

fn reclaim_dir() -> std::path::PathBuf {
    common::shared().join("fixtures/external/reclaim-eval")
}

fn reclaim_file(name: &str) -> InputFile {
    let path = reclaim_dir().join(name);
    InputFile::new(name, std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

fn keys() -> ProbeKeys {
    probe::read_probe_keys(&reclaim_file("probe_keys_base16.json")).unwrap()
}

fn directed_arith_notes() -> Vec<NoteInput> {
    let k = keys();
    let read =
        probe::read_notes(&reclaim_file("realworld_meta-llama_llama-3.1-8b-instruct_arith_t0.7.jsonl"), Some(&k))
            .unwrap();
    read.notes.into_iter().filter(|n| n.arm.as_deref() == Some("directed")).collect()
}

// ---------------------------------------------------------------------------------------------
// reference mode: § A2.2 test vectors

#[test]
fn reference_test_vectors_canonical_notebooks_problem() {
    // (note, expected regime, expected length where the notes give one)
    let lossy_hi = format!(
        "{P}The facts were: {NB_SOURCE}. You concluded that a colleague already worked out that the pens come to $27, and that the total before tax was $55."
    );
    let lossy_03 = format!(
        "{P}You concluded that a colleague already worked out that the pens come to $27, and that the total before tax was $55."
    );
    let lossy_01 = format!("{P}You concluded the total before tax was $55.");
    let source_first = format!(
        "{P}The facts were: {NB_SOURCE}. You were determining the total before tax; the earlier answer may be off."
    );
    let padded = format!(
        "{lossy_01} (For the record, this entry was retained from an archived session log; no additional working was preserved with it.)"
    );
    let blank = format!(
        "{P}You were earlier determining the total before tax. No figures or details from that session were retained."
    );
    let both = format!("{P}The facts were: {NB_SOURCE}. You concluded the total before tax was $55.");
    let cases: Vec<(&str, Regime, Option<usize>)> = vec![
        // lossy g=1.0/0.6 keeps facts + premise + conclusion; the notes give its length (225)
        // but not its text: this reconstruction has the same parts (the verdict depends only on
        // the source prefix being there)
        (&lossy_hi, Regime::Correctable, None),
        (&lossy_03, Regime::UncorrectableSilent, Some(147)),
        (&lossy_01, Regime::UncorrectableSilent, Some(75)),
        (&source_first, Regime::Correctable, Some(185)),
        (&padded, Regime::UncorrectableSilent, Some(192)),
        (&blank, Regime::UncorrectableLoud, Some(137)),
        (&both, Regime::Correctable, Some(155)),
    ];
    for (note, regime, len) in cases {
        let v = classify_note(note, NB_SOURCE, "$55");
        assert_eq!(v.regime, regime, "{note}");
        assert_eq!(v.silent_failure, regime == Regime::UncorrectableSilent);
        assert_eq!(v.correctable, regime == Regime::Correctable);
        if let Some(l) = len {
            assert_eq!(note.chars().count(), l, "{note}");
        }
        // the same through the note API
        let row = probe_note(&NoteInput::new("v", note).with_source(NB_SOURCE).with_stale("$55"), Mode::Reference)
            .unwrap()
            .row;
        let want = match regime {
            Regime::Correctable => Verdict::Correctable,
            Regime::UncorrectableSilent => Verdict::UncorrectableSilent,
            Regime::UncorrectableLoud => Verdict::UncorrectableLoud,
        };
        assert_eq!(row.verdict, want);
    }
}

#[test]
fn reference_test_vectors_logic_and_test_probe_py() {
    let roles_source =
        "Ben is not the manager, and Cleo is the auditor (one each of manager, designer, auditor among Ana, Ben, Cleo)";
    assert_eq!(
        classify_note("(Memory of an earlier session.) You concluded the manager was Ben.", roles_source, "Ben").regime,
        Regime::UncorrectableSilent
    );
    // tests/test_probe.py
    let src = "7 notebooks at $4, 9 pens at $2";
    let v = classify_note("(Memory of an earlier session.) You concluded the total was $55.", src, "$55");
    assert_eq!((v.regime, v.silent_failure), (Regime::UncorrectableSilent, true));
    let v = classify_note(
        "(Memory.) The facts were: 7 notebooks at $4, 9 pens at $2. You were determining the total.",
        src,
        "$55",
    );
    assert_eq!(v.regime, Regime::Correctable);
    let v = classify_note("(Memory.) You were determining the total. No figures were retained.", src, "$55");
    assert_eq!(v.regime, Regime::UncorrectableLoud);
}

#[test]
fn reference_is_a_raw_lowercased_substring() {
    // bit-compatible quirks: no word boundaries, no number parsing, source beats conclusion
    assert_eq!(classify_note("the total was $550", NB_SOURCE, "$55").regime, Regime::UncorrectableSilent);
    assert_eq!(classify_note("a Benefit", "x", "Ben").regime, Regime::UncorrectableSilent);
    assert_eq!(classify_note("the total was $55.00", NB_SOURCE, "$55").regime, Regime::UncorrectableSilent);
    assert_eq!(classify_note("the total was 55 dollars", NB_SOURCE, "$55").regime, Regime::UncorrectableLoud);
    assert_eq!(classify_note("NOTEBOOKS AT $4 EACH, total $55", NB_SOURCE, "$55").regime, Regime::Correctable);
    assert_eq!(classify_note("notebooks  at $4 each", NB_SOURCE, "$55").regime, Regime::UncorrectableLoud);
    assert_eq!(classify_note("anything", "", "").regime, Regime::UncorrectableLoud, "empty source and conclusion");
    // Python str.lower() parity on accented and Greek text (final sigma included)
    assert_eq!(classify_note("ΟΔΟΣ ÉTÉ", "οδος", "").regime, Regime::Correctable);
    assert_eq!(classify_note("x", "x", "ÉTÉ").regime, Regime::Correctable);
    assert_eq!(classify_note("une ÉTÉ", "zz", "été").regime, Regime::UncorrectableSilent);
}

// ---------------------------------------------------------------------------------------------
// reference mode on real deployed memories: the § A2.4 cross-tab, exactly

#[test]
fn reference_cross_tab_on_llama_realworld_matches_the_notes() {
    let notes = directed_arith_notes();
    assert_eq!(notes.len(), 576);
    let r = probe::report(&notes, Mode::Reference, 0.95).unwrap();
    // (variant, verdict, n, RR to two decimals) from seed-003-004 § A2.4
    let want: [(&str, Verdict, usize, f64); 13] = [
        ("lossy@0.1", Verdict::UncorrectableSilent, 96, 0.00),
        ("source_first@0.1", Verdict::Correctable, 96, 1.00),
        ("source_first_auto", Verdict::Correctable, 7, 0.43),
        ("source_first_auto", Verdict::UncorrectableSilent, 61, 0.57),
        ("source_first_auto", Verdict::UncorrectableLoud, 28, 0.46),
        ("langchain_summary", Verdict::Correctable, 14, 0.57),
        ("langchain_summary", Verdict::UncorrectableSilent, 52, 0.21),
        ("langchain_summary", Verdict::UncorrectableLoud, 30, 0.50),
        ("mem0", Verdict::Correctable, 3, 0.33),
        ("mem0", Verdict::UncorrectableSilent, 28, 0.14),
        ("mem0", Verdict::UncorrectableLoud, 65, 0.06),
        ("vector_rag", Verdict::UncorrectableSilent, 28, 0.00),
        ("vector_rag", Verdict::UncorrectableLoud, 68, 0.06),
    ];
    for (policy, verdict, n, rr) in want {
        let row = r
            .by_policy
            .iter()
            .find(|p| p.policy == policy && p.verdict == verdict)
            .unwrap_or_else(|| panic!("no cell {policy} {verdict:?}"));
        assert_eq!(row.recovery.n, n, "{policy} {verdict:?}");
        assert_eq!(format!("{:.2}", row.recovery.rate.unwrap()), format!("{rr:.2}"), "{policy} {verdict:?}");
    }
    // no other cells exist (the notes' table has dashes elsewhere; lossy and source_first
    // have a single regime each)
    assert_eq!(r.by_policy.len(), 13);
    let counts = &r.summary.counts;
    assert_eq!(
        (counts[&Verdict::Correctable], counts[&Verdict::UncorrectableSilent], counts[&Verdict::UncorrectableLoud]),
        (120, 265, 191)
    );
}

// ---------------------------------------------------------------------------------------------
// itemized mode

fn itemized(note: &str, source: &str, stale: &str) -> probe::NoteRow {
    probe_note(&NoteInput::new("t", note).with_source(source).with_stale(stale), Mode::Itemized).unwrap().row
}

#[test]
fn itemized_numbers_and_words_are_tokens() {
    let s = NB_SOURCE;
    assert!(itemized("You concluded the total was $55.", s, "$55").stale_found);
    assert!(!itemized("You concluded the total was $550.", s, "$55").stale_found, "$55 is not in $550");
    assert!(itemized("You concluded the total was $55.00.", s, "$55").stale_found, "$55.00 = $55");
    assert!(itemized("You concluded the total was 55 dollars.", s, "$55").stale_found, "55 dollars = $55");
    assert!(itemized("The total: $1,055 or 55%.", s, "$55").stale_found.eq(&false), "1,055 and 55% are not $55");
    let logic = "Ben is not the manager, and Cleo is the auditor";
    assert!(itemized("You concluded the manager was Ben.", logic, "Ben").stale_found);
    assert!(!itemized("A Benefit was paid.", logic, "Ben").stale_found, "Ben is not in Benefit");
    assert!(itemized("Ben's role was manager.", logic, "Ben").stale_found, "possessive");
    // plurals: the note's singular/plural forms match the source's
    assert_eq!(itemized("1 notebook at $4; 9 pen at $2 — wait, 7 notebooks.", s, "$55").items_found, 2);
    assert_eq!(
        itemized(
            "7 boxes of screws at $2 each; 8 boards at $11",
            "boards at $11 each (8) and boxes of screws at $2 each (7)",
            "$113"
        )
        .items_found,
        2
    );
    assert_eq!(
        itemized(
            "7 box of screw at $2; 8 board at $11",
            "boards at $11 each (8) and boxes of screws at $2 each (7)",
            "$113"
        )
        .items_found,
        2
    );
    assert_eq!(itemized("strawberries: 3 at $2", "strawberry at $2 (3)", "$9").items_found, 1);
}

#[test]
fn itemized_tokenizers() {
    // line items: noun + price + quantity, in any layout
    let row = itemized("* Number of notebooks: 7\n* Price per notebook: $4.00\n* Pens: $2 x 9", NB_SOURCE, "$55");
    assert_eq!((row.verdict, row.items_found, row.items_total), (Verdict::Complete, 2, 2));
    let row = itemized("notebooks at $4 each (7 bought)", NB_SOURCE, "$55");
    assert_eq!(
        (row.verdict, row.missing.clone()),
        (Verdict::PartialSilent, vec!["pens at $2 each (9 bought)".to_string()])
    );
    // the lossy premise number ($27 for the pens) is not a source token
    let row = itemized("A colleague worked out that the pens come to $27; the total was $55.", NB_SOURCE, "$55");
    assert_eq!((row.verdict, row.items_found), (Verdict::Silent, 0));
    // times (MultiWOZ): the verbatim time, normalised
    let src = "I need a taxi to leave after 17:15.";
    assert_eq!(itemized("Taxi, leaving after 5:15 pm.", src, "18:00").verdict, Verdict::Complete);
    assert_eq!(itemized("Taxi booked; you confirmed 18:00.", src, "18:00").verdict, Verdict::Silent);
    assert_eq!(itemized("Taxi booked; you confirmed 6 pm.", src, "18:00").verdict, Verdict::Silent);
    // logic clause lists: order, sentence and polarity
    let roles =
        "Ben is not the manager, and Cleo is the auditor (one each of manager, designer, auditor among Ana, Ben, Cleo)";
    let row = itemized(
        "Given: Ana, Ben, Cleo; roles manager, designer, auditor.\n- Ben is NOT the manager.\n- Cleo is the auditor.\nThe answer Ben may be wrong.",
        roles,
        "Ben",
    );
    assert_eq!((row.verdict, row.items_found, row.items_total), (Verdict::Complete, 3, 3));
    let row = itemized("(Memory of an earlier session.) You concluded the manager was Ben.", roles, "Ben");
    assert_eq!((row.verdict, row.items_found), (Verdict::Silent, 0));
    let row = itemized("Cleo is the auditor. Ben is the manager.", roles, "Ben");
    assert_eq!((row.verdict, row.items_found), (Verdict::PartialSilent, 1), "the negated clause is not kept");
}

#[test]
fn completeness_tag_exact_and_loose() {
    let tag = |k: usize, n: usize| {
        format!(
            " [Note: this memory preserved only {k} of the original {n} line items; {} were dropped and are not shown.]",
            n - k
        )
    };
    let note = format!("{P}The facts were: notebooks at $4 each (7 bought).{}", tag(1, 2));
    let row = itemized(&note, NB_SOURCE, "$55");
    assert_eq!(row.verdict, Verdict::PartialTagged);
    assert_eq!(
        (row.tag_k, row.tag_n, row.tag_variant.as_deref(), row.tag_agrees),
        (Some(1), Some(2), Some("exact"), Some(true))
    );
    // a tag that disagrees with what is measurably there
    let note = format!("{P}The facts were: notebooks at $4 each (7 bought).{}", tag(1, 3));
    let row = itemized(&note, NB_SOURCE, "$55");
    assert_eq!((row.verdict, row.tag_agrees), (Verdict::PartialTagged, Some(false)));
    // looser variants
    for (text, variant) in [
        ("notebooks at $4 each (7 bought) — 1 of 2 items preserved", "k_of_n_items"),
        ("notebooks at $4 each (7 bought) [1/2 items kept]", "k_slash_n_items"),
        ("notebooks at $4 each (7 bought). Items kept: 1 of 2", "items_colon"),
    ] {
        let row = itemized(text, NB_SOURCE, "$55");
        assert_eq!((row.verdict, row.tag_variant.as_deref()), (Verdict::PartialTagged, Some(variant)), "{text}");
    }
    // a tag claiming completeness does not make a partial note loud
    let row = itemized("notebooks at $4 each (7 bought); all 2 items preserved", NB_SOURCE, "$55");
    assert_eq!((row.verdict, row.tag_agrees), (Verdict::PartialSilent, Some(false)));
    // no source item but a loss tag: loud, not silent
    let row = itemized("Total $55. 0 of 2 items preserved.", NB_SOURCE, "$55");
    assert_eq!(row.verdict, Verdict::Loud);
}

// ---------------------------------------------------------------------------------------------
// the measured bar: llama realworld arithmetic, directed arm, all variants

#[test]
fn measured_bar_itemized_separates_recovery() {
    let notes = directed_arith_notes();
    let r = probe::report(&notes, Mode::Itemized, 0.95).unwrap();
    let bv = r.by_verdict.as_ref().unwrap();
    let get = |v: Verdict| &bv.iter().find(|x| x.verdict == v).unwrap().recovery;
    let complete = get(Verdict::Complete);
    let silent = get(Verdict::Silent);
    eprintln!("itemized by verdict: {bv:#?}");
    assert_eq!(complete.n, 237);
    assert_eq!(silent.n, 167);
    assert!(complete.rate.unwrap() >= 0.70, "complete recovers {:?}", complete.rate);
    assert!(silent.rate.unwrap() <= 0.05, "silent recovers {:?}", silent.rate);
    assert_eq!((complete.recovered, silent.recovered), (180, 1));
    assert_eq!(get(Verdict::PartialSilent).n + get(Verdict::PartialTagged).n + get(Verdict::Loud).n, 576 - 237 - 167);
    // the side-by-side reference mode on the same notes is much weaker: its "silent" notes
    // recover far more often than itemized "silent" ones
    let rbv = r.side_by_side.reference.by_verdict.as_ref().unwrap();
    let rs = &rbv.iter().find(|x| x.verdict == Verdict::UncorrectableSilent).unwrap().recovery;
    assert_eq!(rs.n, 265);
    assert!(rs.rate.unwrap() > 0.15);
    // confusion of both modes
    let ci = r.side_by_side.itemized.confusion.as_ref().unwrap();
    let cr = r.side_by_side.reference.confusion.as_ref().unwrap();
    assert_eq!((ci.n, cr.n), (576, 576));
    assert!(ci.accuracy.unwrap() > cr.accuracy.unwrap());
    // the templated notes are classified exactly
    let by =
        |policy: &str, v: Verdict| r.by_policy.iter().find(|p| p.policy == policy && p.verdict == v).map(|p| p.notes);
    assert_eq!(by("source_first@0.1", Verdict::Complete), Some(96));
    assert_eq!(by("lossy@0.1", Verdict::Silent), Some(96));
}

#[test]
fn logic_realworld_file_reads_and_probes() {
    let k = keys();
    let read = probe::read_notes(
        &reclaim_file("realworld_meta-llama_llama-3.1-8b-instruct_logic_t0.7_sonnetwriter.jsonl"),
        Some(&k),
    )
    .unwrap();
    assert_eq!(read.notes.len(), 240);
    let notes: Vec<NoteInput> = read.notes.into_iter().filter(|n| n.arm.as_deref() == Some("directed")).collect();
    let r = probe::report(&notes, Mode::Itemized, 0.95).unwrap();
    let by =
        |policy: &str, v: Verdict| r.by_policy.iter().find(|p| p.policy == policy && p.verdict == v).map(|p| p.notes);
    assert_eq!(by("source_first@0.1", Verdict::Complete), Some(24), "{:#?}", r.by_policy);
    assert_eq!(by("lossy@0.1", Verdict::Silent), Some(24));
    let rr = &r.side_by_side.reference;
    assert_eq!(rr.summary.n, 120);
}

#[test]
fn highlight_spans_are_character_offsets() {
    let note = "Café receipt: 7 notebooks at $4 — total $55.";
    let input = NoteInput::new("h", note).with_source(NB_SOURCE).with_stale("$55");
    let e = probe::explain(&input, Mode::Itemized).unwrap();
    let chars: Vec<char> = note.chars().collect();
    for h in &e.highlights {
        let by_chars: String = chars[h.span.start..h.span.end].iter().collect();
        assert_eq!(by_chars, &note[h.span.byte_start..h.span.byte_end]);
    }
    assert!(e.highlights.iter().any(|h| h.role == probe::HighlightRole::Stale));
    assert!(!e.explanation.is_empty() && e.explanation.ends_with('.'));
}

// ---------------------------------------------------------------------------------------------
// properties: nothing panics on arbitrary input

const NOTE_CHARS: &str = r"[ -~\n\t$€£¥%:.,;()\[\]'’ΣσςİéÉ٣４0-9a-zA-Z−-]{0,120}";

proptest! {
    #![proptest_config(common::proptest_config(400))]

    #[test]
    fn probe_never_panics(note in NOTE_CHARS, source in NOTE_CHARS, stale in r"[ -~]{0,12}", kind in 0usize..4) {
        let mut input = NoteInput::new("p", note.clone()).with_source(source.clone()).with_stale(stale);
        input.source_kind = [probe::SourceKind::Auto, probe::SourceKind::LineItems, probe::SourceKind::Times, probe::SourceKind::Clauses][kind];
        for mode in [Mode::Itemized, Mode::Reference] {
            if let Ok(p) = probe_note(&input, mode) {
                prop_assert!(p.row.items_found <= p.row.items_total);
                for h in probe::highlights(&p) {
                    prop_assert!(h.span.start <= h.span.end && h.span.end <= note.chars().count());
                    prop_assert!(note.is_char_boundary(h.span.byte_start) && note.is_char_boundary(h.span.byte_end));
                }
            }
        }
        let _ = probe::text::tokenize(&source);
        let _ = probe::tag::parse_tag(&note);
    }

    #[test]
    fn notes_reader_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let _ = probe::read_notes(&InputFile::new("n.jsonl", bytes.clone()), None);
        let _ = probe::read_probe_keys(&InputFile::new("k.json", bytes));
    }

    #[test]
    fn mutated_note_lines_never_panic(ops in proptest::collection::vec((0u8..3, 0usize..200, any::<char>()), 0..6), which in 0usize..3) {
        let seeds = [
            r#"{"note_id":"a","note":"7 notebooks at $4","source":"notebooks at $4 each (7 bought)","stale":"$55","correct":true,"budget":200}"#,
            r#"{"note":"x","source_items":["pens at $2 (9)",{"label":"n","numbers":[4,"7"],"times":["5pm"]}],"stale":55}"#,
            r#"{"seed":0,"pid":"g","variant":"lossy@0.1","memory_text":"You concluded the total before tax was $41.","arm":"directed","answer":null,"correct":false}"#,
        ];
        let text = common::mutate(seeds[which], &ops);
        if let Ok(read) = probe::read_notes(&InputFile::new("m.jsonl", text.into_bytes()), None) {
            let _ = probe::report(&read.notes, Mode::Itemized, 0.95);
        }
    }
}

/// Plain-text notes, one per paragraph, with the source text in a file whose name says so: read
/// as the same notes as JSONL lines carrying that source, and probed identically. Without a
/// source they are refused with the fix; a second source file is refused by name.
#[test]
fn plain_text_notes_one_per_paragraph_with_a_source_file() {
    use memaudit::capability::{FileRole, assign_roles, quiet, run_once};
    use memaudit::probe::{Probe, ProbeRequest};
    let paragraphs = [
        "(Memory of an earlier session.) You concluded the total before tax was $55.",
        "Notebooks: 7 at $4 each.\nPens: 9 at $2 each. Total $46.",
        "The user bought pens at $2 each.",
    ];
    let text = format!("\u{feff}\n{}\n\n\n{}\n\n{}\n", paragraphs[0], paragraphs[1], paragraphs[2]);
    let notes = InputFile::new("session_notes.txt", text.into_bytes());
    let source = InputFile::new("source.txt", format!("{NB_SOURCE}\n").into_bytes());
    let roles = assign_roles::<Probe>(vec![(notes.clone(), None), (source.clone(), None)]).unwrap();
    assert_eq!(roles.iter().map(|f| f.role).collect::<Vec<_>>(), [FileRole::Notes, FileRole::Source]);
    let request = ProbeRequest { details: true, ..Default::default() };
    let (loaded, report) = run_once::<Probe>(&roles, &request, &mut quiet()).unwrap();
    assert_eq!(loaded.notes.len(), 3);
    assert_eq!(loaded.notes[1].note, paragraphs[1]);
    assert_eq!(loaded.notes[1].origin.as_ref().unwrap().line, Some(5), "the paragraph's first line");
    // The same notes as JSONL with the source on every line.
    let jsonl: String = paragraphs
        .iter()
        .enumerate()
        .map(|(i, p)| {
            format!(
                "{}\n",
                serde_json::json!({"note_id": format!("paragraph {}", i + 1), "note": p, "source": NB_SOURCE})
            )
        })
        .collect();
    let same =
        assign_roles::<Probe>(vec![(InputFile::new("n.jsonl", jsonl.into_bytes()), Some(FileRole::Notes))]).unwrap();
    let (_, want) = run_once::<Probe>(&same, &request, &mut quiet()).unwrap();
    assert_eq!(report.notes, want.notes);
    assert!(report.notes.iter().any(|n| n.items_found == 2), "{:?}", report.notes);
    // Refusals: no source; two sources.
    let alone = assign_roles::<Probe>(vec![(notes.clone(), None)]).unwrap();
    let e = run_once::<Probe>(&alone, &request, &mut quiet()).unwrap_err().to_string();
    let e = memaudit::fields::render_mentions(&e, memaudit::command_line::word);
    assert!(e.contains("session_notes.txt") && e.contains("--source-file"), "{e}");
    let two = assign_roles::<Probe>(vec![
        (notes, None),
        (source, None),
        (InputFile::new("other_source.txt", b"x at $1 (2)".to_vec()), None),
    ])
    .unwrap();
    let e = run_once::<Probe>(&two, &request, &mut quiet()).unwrap_err().to_string();
    assert!(e.contains("other_source.txt") && e.contains("second source"), "{e}");
}
