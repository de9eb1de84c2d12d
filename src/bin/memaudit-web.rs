//! Entry point of the viewer's first page module (built by trunk from `index.html`, loaded by
//! `www/start.js`): the rescoring, comparison, probe and reclaim pages
//! ([`memaudit::web::app::FoundingPages`]), mounted as the host on `<main id="app">` or as the
//! guest beside the tool pages' module ([`memaudit::web::bridge`]).

fn main() {
    memaudit::web::install_panic_hook();
    memaudit::web::app::mount::<memaudit::web::app::FoundingPages>();
}
