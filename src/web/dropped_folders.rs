//! Folders dropped on the page (the File and Directory Entries API): every file below them,
//! named by its path from the folder dropped (`release/data/runs.jsonl`), as
//! `memaudit audit release` names the files of the same folder.
//!
//! **Invariant**: the files are those the CLI walks, in its order — a folder's entries sorted by
//! name, depth first, hidden entries (`.git`, `.DS_Store`) passed over below a dropped folder —
//! and never more than [`MAX_ENTRIES`]: a larger drop is refused whole, never cut.
//!
//! Written here, not taken from a crate: no crate walks `FileSystemDirectoryEntry`s; the walk
//! is a loop over `readEntries` (which gives a folder's entries in batches until an empty one).

use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use super::dom::js_err;
use super::protocol::SourceFile;
use crate::ingest::archive::MAX_ENTRIES;

/// The entries of a drop when it holds a folder, taken while the drop event lasts (the
/// browser empties its `DataTransfer` afterwards); `None` when it holds only files, which
/// its `files` list says in full.
pub fn entries_with_folders(dt: &web_sys::DataTransfer) -> Option<Vec<web_sys::FileSystemEntry>> {
    let items = dt.items();
    let entries: Vec<web_sys::FileSystemEntry> = (0..items.length())
        .filter_map(|i| items.get(i))
        .filter_map(|item| item.webkit_get_as_entry().ok().flatten())
        .collect();
    entries.iter().any(|e| e.is_directory()).then_some(entries)
}

/// Every file at or below `entries`, in the CLI's order ([module invariant](self)).
pub async fn files_below(entries: Vec<web_sys::FileSystemEntry>) -> Result<Vec<SourceFile>, String> {
    // (path components, entry): walked depth first, each folder's entries in name order.
    let mut found: Vec<(Vec<String>, web_sys::File)> = Vec::new();
    let mut pending: Vec<(Vec<String>, web_sys::FileSystemEntry)> =
        entries.into_iter().map(|e| (vec![e.name()], e)).collect();
    while let Some((path, entry)) = pending.pop() {
        if entry.is_directory() {
            let dir: web_sys::FileSystemDirectoryEntry = entry.unchecked_into();
            let reader = dir.create_reader();
            let mut below: Vec<web_sys::FileSystemEntry> = Vec::new();
            loop {
                let batch = read_batch(&reader).await.map_err(|e| format!("{}: {e}", path.join("/")))?;
                if batch.length() == 0 {
                    break;
                }
                below.extend(batch.iter().map(|e| e.unchecked_into::<web_sys::FileSystemEntry>()));
            }
            for e in below.into_iter().filter(|e| !e.name().starts_with('.')) {
                let mut p = path.clone();
                p.push(e.name());
                pending.push((p, e));
            }
        } else if entry.is_file() {
            if found.len() >= MAX_ENTRIES {
                return Err(format!(
                    "{}: more than {MAX_ENTRIES} files in the drop, the most audited at once: drop its folders one at a time",
                    path.join("/")
                ));
            }
            let file = file_of(entry.unchecked_ref()).await.map_err(|e| format!("{}: {e}", path.join("/")))?;
            found.push((path, file));
        }
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(found.into_iter().map(|(path, file)| SourceFile { name: path.join("/"), blob: file.into() }).collect())
}

/// One batch of a folder's entries (empty when all have been given).
async fn read_batch(reader: &web_sys::FileSystemDirectoryReader) -> Result<js_sys::Array, String> {
    let promise = js_sys::Promise::new(&mut |resolve, reject| {
        if let Err(e) = reader.read_entries_with_callback_and_callback(&resolve, &reject) {
            let _ = reject.call1(&JsValue::NULL, &e);
        }
    });
    let value = JsFuture::from(promise).await.map_err(js_err)?;
    value.dyn_into().map_err(|_| "the browser gave no list of the folder's entries".to_string())
}

/// The `File` of a file entry.
async fn file_of(entry: &web_sys::FileSystemFileEntry) -> Result<web_sys::File, String> {
    let promise = js_sys::Promise::new(&mut |resolve, reject| {
        entry.file_with_callback_and_callback(&resolve, &reject);
    });
    let value = JsFuture::from(promise).await.map_err(js_err)?;
    value.dyn_into().map_err(|_| "the browser gave no file for this entry".to_string())
}
