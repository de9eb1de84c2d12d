//! The viewer's page modules and what passes between them.
//!
//! The pages are split into two groups, each compiled into its own WebAssembly module, so the
//! first page a visitor opens downloads only its own group (BENCHMARKS.md, "Viewer size"):
//!
//! | group | module | pages |
//! |---|---|---|
//! | [`Group::Founding`] | `memaudit-web` | release, rescoring, paired comparison, probe, answers |
//! | [`Group::Tools`] | `memaudit-tools` | reclaim, ablation … compliance, IR evaluation |
//!
//! `www/start.js` loads the module of the page the URL names. That module is the **host**: it
//! draws the shell (title, navigation, input limits, drag and drop) and its own pages. When a
//! page of the other group is opened, the host asks `start.js` to load the other module
//! ([`load_group`]), which finds the container the host left for it (`#pages-<group>`) and
//! mounts only its pages there as the **guest**. Both modules are built from the same code
//! ([`super::app::App`] over a [`super::app::PageSet`]); nothing is shared in memory, so what
//! crosses between them are DOM events on `window`, defined here once for both sides:
//!
//! | event | from → to | detail |
//! |---|---|---|
//! | `memaudit:guest-ready` | guest → host | `{group}`: the guest listens from now on |
//! | `memaudit:drop` | host → guest | `{group, page, files: [{name, blob}]}`: files dropped on a guest page |
//! | `memaudit:state` | guest → host | `{page, state}`: a guest page's state, for `.app[data-state]` |
//! | `memaudit:open` | guest → host | `{page, files: [{name, blob}]}`: open a host page with these files (the release page's "Open on its page") |
//!
//! The input limits travel in the DOM itself (the header's panel, [`super::limits::current`]),
//! and so does the module that drew the shell (`<html data-memaudit-host>`, [`host_group`]):
//! `?demo` runs the demo of the page shown first, which is one of the host's pages.

use js_sys::{Array, Object, Reflect};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use super::dom::js_err;
use super::pages::{Page, PageInfo, PageState};
use super::protocol::SourceFile;

pub use super::pages::Group;

impl Group {
    /// The name `www/start.js` loads the group by (`memaudit-<name>.js`).
    pub fn module(self) -> &'static str {
        match self {
            Group::Founding => "web",
            Group::Tools => "tools",
        }
    }

    fn from_module(s: &str) -> Option<Group> {
        Group::ALL.into_iter().find(|g| g.module() == s)
    }

    /// The id of the container the host leaves for this group's pages.
    pub fn container_id(self) -> String {
        format!("pages-{}", self.module())
    }
}

/// The attribute of `<html>` naming the module that drew the shell.
const HOST_ATTRIBUTE: &str = "data-memaudit-host";

/// Host side: this group's module draws the shell (written before its pages are created).
pub fn mark_host(group: Group) {
    if let Some(html) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
        let _ = html.set_attribute(HOST_ATTRIBUTE, group.module());
    }
}

/// The group of the module that drew the shell; `None` with one module for every page.
pub fn host_group() -> Option<Group> {
    let html = web_sys::window()?.document()?.document_element()?;
    Group::from_module(&html.get_attribute(HOST_ATTRIBUTE)?)
}

const GUEST_READY: &str = "memaudit:guest-ready";
const DROP: &str = "memaudit:drop";
const STATE: &str = "memaudit:state";
const OPEN: &str = "memaudit:open";

fn object(fields: &[(&str, JsValue)]) -> JsValue {
    let o = Object::new();
    for (k, v) in fields {
        let _ = Reflect::set(&o, &JsValue::from_str(k), v);
    }
    o.into()
}

fn field(detail: &JsValue, name: &str) -> Option<String> {
    Reflect::get(detail, &JsValue::from_str(name)).ok()?.as_string()
}

fn dispatch(name: &str, detail: JsValue) {
    let Some(window) = web_sys::window() else { return };
    let init = web_sys::CustomEventInit::new();
    init.set_detail(&detail);
    if let Ok(event) = web_sys::CustomEvent::new_with_event_init_dict(name, &init) {
        let _ = window.dispatch_event(&event);
    }
}

/// A listener on `window`, removed when dropped.
pub struct Listener {
    name: &'static str,
    closure: Closure<dyn FnMut(web_sys::Event)>,
}

impl Listener {
    /// Listens for `name` on `window` (`None` without a window).
    pub fn on_window(name: &'static str, on: impl FnMut(web_sys::Event) + 'static) -> Option<Listener> {
        let window = web_sys::window()?;
        let closure = Closure::<dyn FnMut(web_sys::Event)>::new(on);
        window.add_event_listener_with_callback(name, closure.as_ref().unchecked_ref()).ok()?;
        Some(Listener { name, closure })
    }

    /// Listens for one of the bridge's events, given its detail.
    fn on_detail(name: &'static str, mut on: impl FnMut(JsValue) + 'static) -> Option<Listener> {
        Listener::on_window(name, move |e| {
            if let Some(e) = e.dyn_ref::<web_sys::CustomEvent>() {
                on(e.detail());
            }
        })
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        if let Some(w) = web_sys::window() {
            let _ = w.remove_event_listener_with_callback(self.name, self.closure.as_ref().unchecked_ref());
        }
    }
}

/// Asks `www/start.js` to load a group's module; it resolves once the module has started (and
/// mounted itself in its container). The error says what failed to load.
pub async fn load_group(group: Group) -> Result<(), String> {
    let window = web_sys::window().ok_or("no window")?;
    let load = Reflect::get(&window, &JsValue::from_str("memauditLoadGroup"))
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .ok_or("the viewer was not started by its start script (start.js), which loads the page modules")?;
    let promise = load.call1(&window, &JsValue::from_str(group.module())).map_err(js_err)?;
    let promise = promise.dyn_into::<js_sys::Promise>().map_err(|_| "start.js did not return a promise".to_string())?;
    JsFuture::from(promise).await.map(|_| ()).map_err(js_err)
}

/// Guest → host: this group listens for drops from now on.
pub fn announce_guest(group: Group) {
    dispatch(GUEST_READY, object(&[("group", JsValue::from_str(group.module()))]));
}

/// Host side: `on(group)` when a guest has started.
pub fn on_guest_ready(on: impl Fn(Group) + 'static) -> Option<Listener> {
    Listener::on_detail(GUEST_READY, move |d| {
        if let Some(g) = field(&d, "group").as_deref().and_then(Group::from_module) {
            on(g);
        }
    })
}

/// `{group, page, files: [{name, blob}]}`, the detail of a drop or an open.
fn files_detail(page: Page, files: &[SourceFile]) -> JsValue {
    let list: Array = files
        .iter()
        .map(|f| object(&[("name", JsValue::from_str(&f.name)), ("blob", f.blob.clone().into())]))
        .collect();
    object(&[
        ("group", JsValue::from_str(Group::of(page).module())),
        ("page", JsValue::from_str(page.slug())),
        ("files", list.into()),
    ])
}

/// The page and files of a [`files_detail`].
fn read_files_detail(d: &JsValue) -> Option<(Page, Vec<SourceFile>)> {
    let page = field(d, "page").as_deref().and_then(Page::from_slug)?;
    let files = Reflect::get(d, &JsValue::from_str("files")).ok().map(|f| Array::from(&f)).unwrap_or_default();
    let files = files
        .iter()
        .filter_map(|f| {
            let name = field(&f, "name")?;
            let blob = Reflect::get(&f, &JsValue::from_str("blob")).ok()?.dyn_into::<web_sys::Blob>().ok()?;
            Some(SourceFile { name, blob })
        })
        .collect();
    Some((page, files))
}

/// Host → guest: files dropped while `page` (of the guest's group) was on screen.
pub fn send_drop(page: Page, files: &[SourceFile]) {
    dispatch(DROP, files_detail(page, files));
}

/// Guest side: `on(page, files)` for the drops on this group's pages.
pub fn on_drop(group: Group, on: impl Fn(Page, Vec<SourceFile>) + 'static) -> Option<Listener> {
    Listener::on_detail(DROP, move |d| {
        if let Some((page, files)) = read_files_detail(&d)
            && Group::of(page) == group
        {
            on(page, files);
        }
    })
}

/// Guest → host: open the host's `page` with `files`.
pub fn send_open(page: Page, files: &[SourceFile]) {
    dispatch(OPEN, files_detail(page, files));
}

/// Host side: `on(page, files)` for the guest's requests to open a page with files.
pub fn on_open(on: impl Fn(Page, Vec<SourceFile>) + 'static) -> Option<Listener> {
    Listener::on_detail(OPEN, move |d| {
        if let Some((page, files)) = read_files_detail(&d) {
            on(page, files);
        }
    })
}

/// Guest → host: a page's state changed.
pub fn send_state(page: Page, state: PageState) {
    dispatch(STATE, object(&[("page", JsValue::from_str(page.slug())), ("state", JsValue::from_str(state.name()))]));
}

/// Host side: `on(page, state)` for the guest pages' states.
pub fn on_state(on: impl Fn(Page, PageState) + 'static) -> Option<Listener> {
    Listener::on_detail(STATE, move |d| {
        let page = field(&d, "page").as_deref().and_then(Page::from_slug);
        let state = field(&d, "state").as_deref().and_then(PageState::from_name);
        if let (Some(p), Some(s)) = (page, state) {
            on(p, s);
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_page_has_one_group_and_the_start_script_agrees() {
        // www/start.js decides which module to load first from the URL, before any
        // WebAssembly runs: its lists of pages must be these.
        let script = include_str!("../../www/start.js");
        for g in Group::ALL {
            let key = format!("  {}: [", g.module());
            let line = script.lines().find(|l| l.starts_with(&key)).unwrap_or_else(|| panic!("`{key}` in start.js"));
            let listed: Vec<&str> = line.split('\'').skip(1).step_by(2).collect();
            let pages: Vec<&str> = Page::ALL.iter().copied().filter(|p| Group::of(*p) == g).map(|p| p.slug()).collect();
            assert_eq!(listed, pages, "start.js, module {}", g.module());
            assert_eq!(Group::from_module(g.module()), Some(g));
        }
    }
}
