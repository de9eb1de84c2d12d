//! Entry point of the viewer's Web Worker (built by trunk from `index.html`,
//! `data-type="worker"`): registers [`memaudit::web::AuditWorker`].

use gloo::worker::Registrable;
use memaudit::web::{AuditWorker, codec::WebCodec, install_panic_hook};

fn main() {
    install_panic_hook();
    AuditWorker::registrar().encoding::<WebCodec>().register();
}
