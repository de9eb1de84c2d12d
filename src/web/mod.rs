//! The browser viewer (feature `web`): a Yew single-page app ([`app`], the shell, and its
//! [`pages`]: rescoring, paired comparison, probe, reclaim) and the Web Worker that does all
//! heavy work ([`worker`]: reading files, [`crate::dataset::Dataset::build`],
//! [`crate::audit::run`], drill-downs, [`crate::compare::compare_table`], the probe and the
//! reclaim analysis). The page and the worker talk through gloo-worker with
//! the messages of [`protocol`], encoded by [`codec::WebCodec`]. [`engine`] is the worker's
//! logic without any browser API, so it can be tested directly. See `docs/viewer.md`.

pub mod app;
pub mod codec;
pub mod components;
pub mod dom;
pub mod engine;
pub mod format;
pub mod pages;
pub mod protocol;
pub mod worker;

pub use app::App;
pub use worker::AuditWorker;

/// The script that starts the worker (`www/worker-loader.js`, copied next to the page by
/// trunk): it loads `memaudit-worker.js` and `memaudit-worker_bg.wasm`, which trunk emits
/// unhashed for `data-type="worker"`.
pub const WORKER_LOADER: &str = "worker-loader.js";

/// Logs panics to the browser console (the default hook prints nowhere visible in wasm).
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        gloo::console::error!(format!("memaudit panicked: {info}"));
    }));
}
