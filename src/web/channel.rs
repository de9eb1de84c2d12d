//! A page's own worker: started on the page's first job (so pages never used cost nothing),
//! requests queued until the worker says [`Response::Ready`], ended to cancel a job
//! ([`Channel::reset`]), and reported as [`Response::Died`] when it stops by itself (a
//! WebAssembly trap, memory exhausted), to be started again by the next job.
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
        let worker = web_sys::Worker::new(WORKER_LOADER).map_err(|e| format!("the worker could not start: {e:?}"))?;
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
            ready: false,
            queue: Vec::new(),
            handlers: Some(Handlers { _onmessage: onmessage, _onerror: onerror }),
        });
        Ok(())
    }
}

impl Drop for Channel {
    fn drop(&mut self) {
        self.reset();
    }
}
