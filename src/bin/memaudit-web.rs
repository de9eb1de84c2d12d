//! Entry point of the viewer page (built by trunk from `index.html`): mounts
//! [`memaudit::web::App`] on `<main id="app">` (or the body).

fn main() {
    memaudit::web::install_panic_hook();
    memaudit::web::app::mount();
}
