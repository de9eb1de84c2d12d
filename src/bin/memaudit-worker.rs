//! Entry point of the viewer's Web Worker (built by trunk from `index.html`,
//! `data-type="worker"`): handles the page's requests ([`memaudit::web::worker::start`]).

fn main() {
    memaudit::web::install_panic_hook();
    memaudit::web::worker::start();
}
