//! Entry point of the viewer's tool pages' module (built by trunk from `index.html`, loaded by
//! `www/start.js`): answers, ablation, claims, rules, IR evaluation, labels, calibration,
//! alignment and compliance ([`memaudit::web::app::ToolPages`]), mounted as the host on
//! `<main id="app">` or as the guest beside the founding pages' module
//! ([`memaudit::web::bridge`]).

fn main() {
    memaudit::web::install_panic_hook();
    memaudit::web::app::mount::<memaudit::web::app::ToolPages>();
}
