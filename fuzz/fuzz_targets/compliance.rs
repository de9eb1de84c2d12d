//! `memaudit compliance`'s readers on arbitrary bytes (see `fuzz/src/lib.rs`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| memaudit_fuzz::run::<memaudit::compliance::Compliance>(data));
