// Starts the memaudit viewer's Web Worker (copied to dist/ by trunk; see docs/viewer.md).
// URLs are relative to this script, so dist/ works from any sub-path.
importScripts("./memaudit-worker.js");
wasm_bindgen({ module_or_path: "./memaudit-worker_bg.wasm" });
