//! The printed-numbers reader on arbitrary bytes, and its entries checked against a report: an
//! entry is read or refused with the file named, never a panic.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| memaudit_fuzz::printed(data));
