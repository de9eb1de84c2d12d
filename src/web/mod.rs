//! The browser viewer (feature `web`): a Yew single-page app ([`app`], the shell, and its
//! [`pages`], one per capability) and the Web Worker that does all heavy work ([`worker`]).
//! Every page runs its core capability ([`crate::capability::Capability`]) through one job
//! lifecycle ([`job`]) in its own worker ([`channel`]), with the messages of [`protocol`]
//! encoded by [`codec`]. [`engine`] is the worker's logic without any browser API, so it is
//! tested natively. See `docs/viewer.md`.

pub mod app;
pub mod bridge;
pub mod channel;
pub mod codec;
pub mod components;
pub mod dom;
pub mod dropped_folders;
pub mod engine;
pub mod format;
pub mod helper;
pub mod job;
pub mod limits;
pub mod msgpack;
pub mod pages;
pub mod protocol;
pub mod worker;

/// The app with every page in one module (the wasm tests); the viewer's page modules each
/// mount [`app::App`] over their own group ([`bridge`]).
pub type App = app::App<app::AllPages>;

/// The script that starts a worker (`www/worker-loader.js`, copied next to the page by trunk):
/// it loads `memaudit-worker.js` and `memaudit-worker_bg.wasm`, which trunk emits unhashed for
/// `data-type="worker"`.
pub const WORKER_LOADER: &str = "worker-loader.js";

/// Logs panics to the browser console (the default hook prints nowhere visible in wasm).
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        gloo::console::error!(format!("memaudit panicked: {info}"));
    }));
}
