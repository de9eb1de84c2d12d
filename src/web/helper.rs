//! A worker's helper: a second worker, started by the page's worker from the same script, that
//! computes part of a run's bootstrap intervals on the browser's second core. WebAssembly in
//! the browser gets no threads without cross-origin isolation (headers static hosting cannot
//! set), so the second core is reached through a second worker; the split is
//! [`MeanIntervals::halves`], whose parts give the intervals of the whole, bit for bit.
//!
//! The helper is started when its worker starts ([`ensure_started`]), so that it has loaded its
//! module when the intervals come; a page whose runs leave none
//! ([`crate::capability::Analysis::splits_intervals`]) never sends it anything. When it is not
//! ready, when the work is small, or when it fails or
//! dies, the worker computes every interval itself: the helper changes the time, never a
//! result. Ending the worker (a cancel) ends its helper with it.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

use super::WORKER_LOADER;
use super::codec::{decode_response, encode};
use super::protocol::{JobId, Payload, Request, Response};
use crate::stats::bootstrap::Interval;
use crate::stats::deferred::MeanIntervals;

/// Below this many multiply-adds (about 20 ms of work) the intervals are computed here: the
/// trip to the helper would cost more than it saves.
pub const MIN_SHARED_WORK: usize = 20_000_000;

/// The longest wait for a helper still loading when the intervals come (measured on the
/// 960,000-row bundle, the worker started as the files arrive: 2–4 ms in five runs of six, 54 ms
/// in one; without the wait, two runs in six found the helper loading and computed alone).
const MAX_WAIT_MS: f64 = 150.0;

/// The resolve of the answer awaited (one at a time: the worker awaits each), and where the
/// answer is put before it is called.
struct Waiting {
    resolve: Option<js_sys::Function>,
    answer: Option<Result<(JobId, Payload), String>>,
}

pub struct Helper {
    worker: web_sys::Worker,
    ready: Rc<Cell<bool>>,
    dead: Rc<Cell<bool>>,
    waiting: Rc<RefCell<Waiting>>,
    _onmessage: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _onerror: Closure<dyn FnMut(web_sys::ErrorEvent)>,
}

impl Drop for Helper {
    fn drop(&mut self) {
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.terminate();
    }
}

thread_local! {
    static HELPER: RefCell<Option<Helper>> = const { RefCell::new(None) };
}

/// The helper's worker name (`DedicatedWorkerGlobalScope.name`): a helper starts no helper.
const NAME: &str = "memaudit-helper";

/// Whether this worker is a helper.
pub fn is_helper() -> bool {
    js_sys::global().unchecked_into::<web_sys::DedicatedWorkerGlobalScope>().name() == NAME
}

/// Starts the helper unless one runs (a dead one is replaced).
///
/// A worker started by a worker gets going only when its parent's event loop turns (measured
/// in Chromium: a worker that reads and scores from the moment it receives its run, without
/// yielding, found its helper still loading at the intervals in five runs of six). So the
/// worker starts its helper when it starts itself, yields once before reading when the helper
/// is still [`loading`], and waits for it a while at the intervals ([`MAX_WAIT_MS`]).
pub fn ensure_started() {
    HELPER.with(|h| {
        let mut h = h.borrow_mut();
        if h.as_ref().is_some_and(|h| !h.dead.get()) {
            return;
        }
        *h = Helper::start().map_err(|e| gloo::console::warn!(format!("memaudit: no helper worker: {e}"))).ok();
    })
}

/// Whether a helper runs but has not said `Ready` yet.
pub fn loading() -> bool {
    HELPER.with(|h| h.borrow().as_ref().is_some_and(|h| !h.ready.get() && !h.dead.get()))
}

impl Helper {
    fn start() -> Result<Helper, String> {
        let options = web_sys::WorkerOptions::new();
        options.set_name(NAME);
        let worker = web_sys::Worker::new_with_options(WORKER_LOADER, &options).map_err(|e| format!("{e:?}"))?;
        let ready = Rc::new(Cell::new(false));
        let dead = Rc::new(Cell::new(false));
        let waiting = Rc::new(RefCell::new(Waiting { resolve: None, answer: None }));
        let settle = |waiting: &RefCell<Waiting>, answer: Result<(JobId, Payload), String>| {
            let resolve = {
                let mut w = waiting.borrow_mut();
                w.answer = Some(answer);
                w.resolve.take()
            };
            if let Some(resolve) = resolve {
                let _ = resolve.call0(&JsValue::NULL);
            }
        };
        let onmessage = {
            let (ready, waiting) = (ready.clone(), waiting.clone());
            Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
                match decode_response(e.data()) {
                    Response::Ready => ready.set(true),
                    Response::Intervals { job, intervals } => settle(&waiting, Ok((job, intervals))),
                    Response::Failed { error, .. } => settle(&waiting, Err(error.to_string())),
                    Response::Undecodable { message } => settle(&waiting, Err(message)),
                    _ => {}
                }
            })
        };
        let onerror = {
            let (dead, waiting) = (dead.clone(), waiting.clone());
            Closure::<dyn FnMut(web_sys::ErrorEvent)>::new(move |e: web_sys::ErrorEvent| {
                e.prevent_default();
                dead.set(true);
                settle(&waiting, Err(format!("it stopped: {}", e.message())));
            })
        };
        worker.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
        worker.set_onerror(Some(onerror.as_ref().unchecked_ref()));
        Ok(Helper { worker, ready, dead, waiting, _onmessage: onmessage, _onerror: onerror })
    }

    /// Sends `part` and returns the answer to await (`None` when it could not be sent).
    fn ask(&self, job: JobId, part: &MeanIntervals) -> Option<js_sys::Promise> {
        let intervals = Payload::pack(part).ok()?;
        let message = encode(&Request::Intervals { job, intervals }).ok()?;
        let waiting = self.waiting.clone();
        waiting.borrow_mut().answer = None;
        let promise = js_sys::Promise::new(&mut |resolve, _reject| {
            waiting.borrow_mut().resolve = Some(resolve);
        });
        self.worker.post_message(&message).ok()?;
        Some(promise)
    }

    fn take_answer(&self) -> Option<Result<(JobId, Payload), String>> {
        self.waiting.borrow_mut().answer.take()
    }
}

/// The answer of a [`Request::Intervals`]: `part`'s intervals, in its order.
pub fn answer(intervals: &Payload) -> Result<Payload, String> {
    let part: MeanIntervals = intervals.unpack()?;
    Payload::pack(&part.compute())
}

/// Every interval of `asks`, in the order asked, and how many (distinct) the helper computed:
/// half of the work is sent to the helper when it is ready and the work large, the rest is
/// computed here meanwhile.
pub async fn compute_shared(job: JobId, asks: &MeanIntervals) -> (Vec<Option<Interval>>, usize) {
    if asks.work() < MIN_SHARED_WORK {
        return (asks.compute(), 0);
    }
    // A helper still loading goes on only while this worker's event loop turns: wait for it
    // a while (its `Ready` may also just wait among this worker's messages).
    let start = js_sys::Date::now();
    while loading() && js_sys::Date::now() - start < MAX_WAIT_MS {
        gloo::timers::future::TimeoutFuture::new(0).await;
    }
    let halves = asks.halves();
    let sent = HELPER.with(|h| {
        h.borrow().as_ref().filter(|h| h.ready.get() && !h.dead.get()).and_then(|h| h.ask(job, &halves.there))
    });
    let Some(promise) = sent else { return (asks.compute(), 0) };
    let here = halves.here.compute();
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
    let answer = HELPER.with(|h| h.borrow().as_ref().and_then(Helper::take_answer));
    let there = match answer {
        Some(Ok((answered, p))) if answered == job => p.unpack::<Vec<Option<Interval>>>().ok(),
        Some(Err(e)) => {
            gloo::console::warn!(format!("memaudit: the helper worker failed ({e}); computing its part here"));
            None
        }
        _ => None,
    };
    let shared = there.as_ref().map_or(0, Vec::len);
    let there = there.unwrap_or_else(|| halves.there.compute());
    match halves.join(&here, &there) {
        Some(all) => (all, shared),
        None => (asks.compute(), 0),
    }
}
