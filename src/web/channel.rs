//! A page's own worker: started on the page's first job (so pages never used cost nothing),
//! requests queued until the worker says [`Response::Ready`], ended to cancel a job
//! ([`Channel::reset`]), and reported as [`Response::Died`] when it stops by itself (a
//! WebAssembly trap, memory exhausted), to be started again by the next job.
//!
//! A worker takes about 0.1 s to load and compile its module. So the first sign that the user is
//! about to run something (a pointer or key press, files dragged over the page: [`warm`]) starts
//! one spare worker, and the next page to need a worker takes it instead of starting its own
//! (BENCHMARKS.md, "Hashing beside the reading").
//!
//! Hand-written on `web_sys::Worker` rather than a worker crate because a busy worker must be
//! ended from the page: gloo-worker's bridge can only queue a message the busy worker would
//! read after its job.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use yew::Callback;

use super::WORKER_LOADER;
use super::codec::{decode_response, encode};
use super::protocol::{Request, Response};

struct Live {
    worker: web_sys::Worker,
    ready: bool,
    /// Requests sent before the worker was ready.
    queue: Vec<wasm_bindgen::JsValue>,
    handlers: Option<Handlers>,
}

struct Handlers {
    _onmessage: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _onerror: Closure<dyn FnMut(web_sys::ErrorEvent)>,
}

impl Drop for Live {
    fn drop(&mut self) {
        LIVE.with(|n| n.set(n.get().saturating_sub(1)));
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.terminate();
        // A worker may be ended from inside one of its handlers (a page cancelling while it
        // handles a response, a death): a closure must not be freed while it runs, so the
        // handlers are freed on the next turn of the event loop.
        if let Some(h) = self.handlers.take() {
            gloo::timers::callback::Timeout::new(0, move || drop(h)).forget();
        }
    }
}

/// The channel of one page to its worker.
pub struct Channel {
    live: Rc<RefCell<Option<Live>>>,
    on_response: Callback<Response>,
}

impl Channel {
    /// Every response of the worker (and [`Response::Died`]) goes to `on_response`.
    pub fn new(on_response: Callback<Response>) -> Channel {
        Channel { live: Rc::new(RefCell::new(None)), on_response }
    }

    /// Whether a worker is running (started and not ended).
    pub fn is_live(&self) -> bool {
        self.live.borrow().is_some()
    }

    /// Sends a request, starting the worker first when none runs.
    pub fn send(&self, request: &Request) {
        let value = match encode(request) {
            Ok(v) => v,
            Err(message) => {
                self.on_response.emit(Response::Undecodable { message });
                return;
            }
        };
        if self.live.borrow().is_none()
            && let Err(message) = self.spawn()
        {
            self.on_response.emit(Response::Died { message });
            return;
        }
        let mut live = self.live.borrow_mut();
        let Some(l) = live.as_mut() else { return };
        if l.ready {
            if let Err(e) = l.worker.post_message(&value) {
                drop(live);
                self.on_response.emit(Response::Undecodable { message: format!("could not send a message: {e:?}") });
            }
        } else {
            l.queue.push(value);
        }
    }

    /// Ends the worker (and whatever it runs); the next request starts a new one.
    pub fn reset(&self) {
        self.live.borrow_mut().take();
    }

    fn spawn(&self) -> Result<(), String> {
        // The spare (with its handlers) is dropped at the end, once this channel's handlers
        // have replaced its own.
        let mut spare = SPARE.with(|s| s.borrow_mut().take());
        let (worker, ready) = match spare.as_mut().and_then(Spare::take) {
            Some(taken) => taken,
            None => (new_worker()?, false),
        };
        let weak = Rc::downgrade(&self.live);
        let on_response = self.on_response.clone();
        let onmessage = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
            let response = decode_response(e.data());
            if matches!(response, Response::Ready) {
                if let Some(live) = weak.upgrade()
                    && let Some(l) = live.borrow_mut().as_mut()
                {
                    l.ready = true;
                    for v in l.queue.drain(..) {
                        let _ = l.worker.post_message(&v);
                    }
                }
                return;
            }
            // No borrow is held here: the page may send again while handling the response.
            on_response.emit(response);
        });
        let weak = Rc::downgrade(&self.live);
        let on_response = self.on_response.clone();
        let onerror = Closure::<dyn FnMut(web_sys::ErrorEvent)>::new(move |e: web_sys::ErrorEvent| {
            e.prevent_default();
            let message = match e.message() {
                m if m.is_empty() => "the worker stopped".to_string(),
                m => m,
            };
            // Drop (and end) the dead worker before telling the page.
            if let Some(live) = weak.upgrade() {
                let dead = live.borrow_mut().take();
                drop(dead);
            }
            on_response.emit(Response::Died { message });
        });
        worker.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
        worker.set_onerror(Some(onerror.as_ref().unchecked_ref()));
        *self.live.borrow_mut() = Some(Live {
            worker,
            ready,
            queue: Vec::new(),
            handlers: Some(Handlers { _onmessage: onmessage, _onerror: onerror }),
        });
        LIVE.with(|n| n.set(n.get() + 1));
        drop(spare);
        Ok(())
    }
}

fn new_worker() -> Result<web_sys::Worker, String> {
    web_sys::Worker::new(WORKER_LOADER).map_err(|e| format!("the worker could not start: {e:?}"))
}

/// A worker started before any page needed one, and whether it said [`Response::Ready`] yet.
/// A spare that fails to start is ended (the page then starts its own and reports why).
struct Spare {
    /// `None` once a channel took it.
    worker: Option<web_sys::Worker>,
    ready: Rc<std::cell::Cell<bool>>,
    _onmessage: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _onerror: Closure<dyn FnMut(web_sys::ErrorEvent)>,
}

impl Spare {
    /// The worker and whether it is ready; the caller sets its own handlers before dropping
    /// the spare (with the closures its handlers call).
    fn take(&mut self) -> Option<(web_sys::Worker, bool)> {
        self.worker.take().map(|w| (w, self.ready.get()))
    }
}

impl Drop for Spare {
    fn drop(&mut self) {
        if let Some(w) = self.worker.take() {
            w.set_onmessage(None);
            w.set_onerror(None);
            w.terminate();
        }
    }
}

thread_local! {
    static SPARE: RefCell<Option<Spare>> = const { RefCell::new(None) };
    /// Workers of channels, running.
    static LIVE: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Starts the spare worker when no worker runs at all (no page's and no spare): called on the
/// user's pointer and key presses and on files dragged over the page, so a worker is loading
/// while the user picks files. Once a page has its worker, no spare is started (it would only
/// hold memory).
pub fn warm() {
    if LIVE.with(|n| n.get()) > 0 || SPARE.with(|s| s.borrow().is_some()) {
        return;
    }
    let Ok(worker) = new_worker() else { return };
    let ready = Rc::new(std::cell::Cell::new(false));
    let flag = ready.clone();
    let onmessage = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
        if matches!(decode_response(e.data()), Response::Ready) {
            flag.set(true);
        }
    });
    let onerror = Closure::<dyn FnMut(web_sys::ErrorEvent)>::new(move |e: web_sys::ErrorEvent| {
        e.prevent_default();
        // Freed on the next turn of the event loop, not inside its own handler.
        if let Some(spare) = SPARE.with(|s| s.borrow_mut().take()) {
            gloo::timers::callback::Timeout::new(0, move || drop(spare)).forget();
        }
    });
    worker.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    worker.set_onerror(Some(onerror.as_ref().unchecked_ref()));
    let spare = Spare { worker: Some(worker), ready, _onmessage: onmessage, _onerror: onerror };
    SPARE.with(|s| *s.borrow_mut() = Some(spare));
}

impl Drop for Channel {
    fn drop(&mut self) {
        self.reset();
    }
}
