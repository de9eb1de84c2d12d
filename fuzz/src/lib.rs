//! The fuzz targets' one harness: arbitrary bytes split into up to three files (on `0xFF`, a
//! byte no UTF-8 text holds), their roles detected from the content as each capability detects
//! them, then loaded and run with the capability's default request. Every outcome must be a
//! value or an error — never a panic, an abort or a hang (a panic in wasm kills the viewer's
//! worker). An input error must name its file.

use memaudit::capability::{Capability, assign_roles, quiet, run_once};
use memaudit::error::Error;
use memaudit::ingest::InputFile;

/// Names given to the pieces: no extension, so roles and formats come from the content alone.
const NAMES: [&str; 3] = ["f1", "f2", "f3"];

/// Splits `data` into files and runs them as capability `C` would.
pub fn run<C: Capability>(data: &[u8]) {
    let inputs = data
        .split(|&b| b == 0xff)
        .take(NAMES.len())
        .zip(NAMES)
        .map(|(bytes, name)| (InputFile::new(name, bytes.to_vec()), None))
        .collect();
    let outcome = assign_roles::<C>(inputs).and_then(|f| run_once::<C>(&f, &C::Request::default(), &mut quiet()));
    if let Err(Error::Ingest(e)) = outcome {
        assert!(!e.location.file.is_empty(), "{}: an input error names no file: {}", C::ANALYSIS, e.message);
    }
}

/// A printed-numbers file of arbitrary bytes: read, then checked against the report of a small
/// comparison (every table and row lookup exercised on whatever was read).
pub fn printed(data: &[u8]) {
    let file = InputFile::new("printed.csv", data.to_vec());
    match memaudit::printed::read(&file) {
        Ok(entries) => {
            let outcomes = InputFile::new("o.csv", b"item_id,arm,correct\nq1,a,1\nq1,b,0\nq2,a,1\nq2,b,1\n".to_vec());
            let files = assign_roles::<memaudit::compare::Compare>(vec![(outcomes, None)]).expect("the outcomes read");
            let (_, report) = run_once::<memaudit::compare::Compare>(&files, &Default::default(), &mut quiet()).expect("it runs");
            let _ = memaudit::printed::check::<memaudit::compare::Compare>(&report, &entries);
        }
        Err(Error::Ingest(e)) => assert_eq!(e.location.file, "printed.csv", "{}", e.message),
        Err(_) => {}
    }
}

/// A dropped release of arbitrary bytes, kept whole as one file (an archive is not split on
/// `0xFF`, which its bytes hold): triaged by content, every archive opened under the budgets,
/// each analysis it feeds run with its default settings. Never a panic, an abort or a hang;
/// an input error names its file.
pub fn release(data: &[u8]) {
    use memaudit::capability::{FileRole, RoleFile};
    use memaudit::release::ReleaseAudit;
    let file = InputFile::new("release", data.to_vec());
    let files = [RoleFile { file, role: FileRole::Release, detected: FileRole::Release }];
    if let Err(Error::Ingest(e)) = run_once::<ReleaseAudit>(&files, &Default::default(), &mut quiet()) {
        assert!(!e.location.file.is_empty(), "release: an input error names no file: {}", e.message);
    }
}
