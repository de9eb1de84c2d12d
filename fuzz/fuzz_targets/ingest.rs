//! Any bytes, read as any format, must give a value or an error — never a panic (a panic in
//! wasm kills the viewer). What reads is also built into a dataset and rescored.
#![no_main]

use libfuzzer_sys::fuzz_target;
use memaudit::conventions::Settings;
use memaudit::dataset::Dataset;
use memaudit::ingest::{read_all, InputFile};

fuzz_target!(|data: &[u8]| {
    // Split the input into up to three files on 0xFF bytes, so cross-file logic is exercised.
    let files: Vec<InputFile> =
        data.split(|&b| b == 0xff).take(3).enumerate().map(|(i, b)| InputFile::new(format!("f{i}"), b.to_vec())).collect();
    if let Ok(loaded) = read_all(&files) {
        let ds = Dataset::build(loaded);
        let settings = Settings { bootstrap: 10, ..Settings::default() };
        let _ = memaudit::audit::run(&ds, &settings, &mut |_, _| {});
    }
});
