//! Any bytes, read as any format, must give a value or an error — never a panic (a panic in
//! wasm kills the viewer). What reads is also built into a dataset and rescored. The same
//! files read as streams (one line at a time, as the CLI and the viewer's worker read them)
//! must give the same records or the same error when they are UTF-8 text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use memaudit::conventions::Settings;
use memaudit::dataset::Dataset;
use memaudit::ingest::{read_all, share, ChunkedSource, InputFile};

fuzz_target!(|data: &[u8]| {
    // Split the input into up to three files on 0xFF bytes, so cross-file logic is exercised.
    let parts: Vec<&[u8]> = data.split(|&b| b == 0xff).take(3).collect();
    let files: Vec<InputFile> =
        parts.iter().enumerate().map(|(i, b)| InputFile::new(format!("f{i}"), b.to_vec())).collect();
    let held = read_all(&files);
    let streamed: Vec<InputFile> = parts
        .iter()
        .enumerate()
        .map(|(i, b)| InputFile::streamed(format!("f{i}"), share(ChunkedSource::new(b.to_vec(), 7))))
        .collect();
    let from_stream = read_all(&streamed);
    // Where a file is not UTF-8, a file read whole names the bad byte before any bad line; a
    // stream names whichever comes first.
    if parts.iter().all(|p| std::str::from_utf8(p).is_ok()) {
        match (&held, &from_stream) {
            (Ok(h), Ok(s)) => assert_eq!(format!("{h:?}"), format!("{s:?}")),
            (Err(h), Err(s)) => assert_eq!(h, s),
            _ => panic!("held {:?} but streamed {:?}", held.as_ref().err(), from_stream.as_ref().err()),
        }
    }
    if let Ok(loaded) = held {
        let ds = Dataset::build(loaded);
        let settings = Settings { bootstrap: 10, ..Settings::default() };
        let _ = memaudit::audit::run(&ds, &settings, &mut |_, _| {});
    }
});
