//! The one-drop audit (`memaudit audit`) on arbitrary bytes kept whole as one dropped file, so
//! that archives (zip, tar, gzip) reach their readers intact (see `fuzz/src/lib.rs`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| memaudit_fuzz::release(data));
