//! The shell of the viewer: the title, the navigation between pages (the URL hash, or
//! `?page=`, selects one: `#rescore`, `#compare`, `#probe`, `#reclaim`, `#answers`,
//! `#ablation`, `#claims`, `#rules`, …), and drag and drop anywhere on the page, handed to the
//! page on screen. Each page starts its own worker on its first job.
//!
//! The pages ([`super::pages`]) stay mounted when hidden, so switching keeps their results.
//!
//! The app is generic over the [`PageSet`] its module carries: each page module of the viewer
//! (`memaudit-web`, `memaudit-tools`: [`super::bridge`]) mounts [`App`] over its own group of
//! pages, as the **host** (shell and its pages, on `#app`) when it is the first module loaded,
//! else as the **guest** (its pages only, in the container the host left for them).

use std::collections::HashMap;
use std::marker::PhantomData;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use web_sys::DragEvent;
use yew::prelude::*;

use super::bridge::{self, Group, Listener};
use super::components::ReportRef;
use super::dom::source_files;
use super::dropped_folders;
use super::pages::{Dropped, Handoff, Page, PageInfo, PageProps, PageState, Screen};
use super::protocol::SourceFile;

pub use super::pages::ErrorView;

/// The pages one module carries.
pub trait PageSet: 'static {
    /// The group of pages of this module; `None`: every page (one module, as in the wasm tests).
    const GROUP: Option<Group>;

    /// Whether this module carries the pages of `group`.
    fn carries(group: Group) -> bool {
        Self::GROUP.is_none_or(|g| g == group)
    }

    /// Whether this module carries `page`.
    fn owns(page: Page) -> bool {
        Self::carries(Group::of(page))
    }
}

/// The rescoring, comparison, probe and reclaim pages (module `memaudit-web`).
pub struct FoundingPages;
/// The tool pages (module `memaudit-tools`).
pub struct ToolPages;
/// Every page in one module.
pub struct AllPages;

impl PageSet for FoundingPages {
    const GROUP: Option<Group> = Some(Group::Founding);
}

impl PageSet for ToolPages {
    const GROUP: Option<Group> = Some(Group::Tools);
}

impl PageSet for AllPages {
    const GROUP: Option<Group> = None;
}

/// What a page's view needs from the app.
pub struct PageViews<'a> {
    page: Page,
    dropped: &'a Option<(Page, Dropped)>,
    on_state: &'a HashMap<Page, Callback<PageState>>,
    on_use_rescoring: &'a Callback<(ReportRef, String)>,
    rescoring: &'a Option<Handoff>,
    on_open: &'a Callback<(Page, Vec<SourceFile>)>,
}

impl PageViews<'_> {
    fn active(&self, p: Page) -> bool {
        self.page == p
    }

    fn dropped(&self, p: Page) -> Option<Dropped> {
        self.dropped.as_ref().filter(|(q, _)| *q == p).map(|(_, d)| d.clone())
    }

    fn on_state(&self, p: Page) -> Callback<PageState> {
        self.on_state.get(&p).cloned().unwrap_or_default()
    }
}

/// The pages `P` carries, in the list's order ([`crate::capabilities!`]), each told whether
/// it is on screen.
fn pages<P: PageSet>(v: &PageViews<'_>) -> Html {
    macro_rules! each {
        (; $($variant:ident $name:ident $unit:ty;)+) => {
            html! { <>$({ page::<P, $unit>(v) })+</> }
        };
    }
    crate::capabilities!(each)
}

/// The page of capability `C`, if `P` carries it (a constant: a module never links the
/// other module's pages).
fn page<P: PageSet, C: Screen>(v: &PageViews<'_>) -> Html {
    if !P::carries(C::GROUP) {
        return Html::default();
    }
    let p = C::ANALYSIS;
    let props = PageProps {
        active: v.active(p),
        dropped: v.dropped(p),
        on_state: v.on_state(p),
        on_use_rescoring: v.on_use_rescoring.clone(),
        rescoring: v.rescoring.clone(),
        on_open: v.on_open.clone(),
    };
    html! { <C::View ..props /> }
}

/// The id of the first screen `index.html` draws before any script runs.
pub const FIRST_SCREEN: &str = "first-screen";

/// Mounts this module's app: as the guest in the container the host left for its group, else
/// as the host on `#app` (or the body).
pub fn mount<P: PageSet>() {
    let document = web_sys::window().and_then(|w| w.document());
    let by_id = |id: &str| document.as_ref().and_then(|d| d.get_element_by_id(id));
    if let Some(container) = P::GROUP.and_then(|g| by_id(&g.container_id())) {
        skip_the_hosts_subtree_ids(&container);
        yew::Renderer::<App<P>>::with_root_and_props(container, AppProps { guest: true }).render();
        return;
    }
    if let Some(group) = P::GROUP {
        bridge::mark_host(group);
    }
    // index.html's first screen stood in until now: the app takes its place.
    if let Some(first) = by_id(FIRST_SCREEN) {
        first.remove();
    }
    match by_id("app") {
        Some(el) => {
            yew::Renderer::<App<P>>::with_root(el).render();
        }
        None => {
            yew::Renderer::<App<P>>::new().render();
        }
    }
}

/// The property yew brands the element an app is mounted on with: the id of its subtree.
const SUBTREE_ID: &str = "__yew_subtree_id";

/// A guest's subtree id made different from its host's. Each module carries its own copy of yew,
/// and each copy numbers the apps it mounts from 1: the guest, mounted inside the host's app,
/// would carry the host's id, and the host's event handlers (they capture every event under the
/// host's element) would take the guest's events for their own and run the host's handler of
/// the same listener number — a file chosen on a guest page was handed to a host page.
/// Mounting throwaway apps on detached elements advances this copy's numbering past the host's
/// id (read off the closest branded ancestor of the guest's container).
fn skip_the_hosts_subtree_ids(container: &web_sys::Element) {
    #[function_component]
    fn Nothing() -> Html {
        Html::default()
    }
    let id_of = |el: &web_sys::Element| js_sys::Reflect::get(el, &SUBTREE_ID.into()).ok().and_then(|v| v.as_f64());
    let ancestors = std::iter::successors(container.parent_element(), |el| el.parent_element());
    let Some(host) = ancestors.map(|el| id_of(&el)).find_map(|id| id) else { return };
    let Some(document) = container.owner_document() else { return };
    // Bounded: the host mounts one app (no portals), so one throwaway app is usually enough.
    for _ in 0..64 {
        let Ok(scratch) = document.create_element("div") else { return };
        let app = yew::Renderer::<Nothing>::with_root(scratch.clone()).render();
        let taken = id_of(&scratch);
        app.destroy();
        if taken.is_none_or(|t| t >= host) {
            return;
        }
    }
}

/// The page the URL asks for: the hash (`#compare`), else `?page=compare`, else the rescoring
/// when a bundle is preloaded (`?bundle=`, `?demo`), else the release page.
pub fn page_from_url() -> Page {
    let Some(location) = web_sys::window().map(|w| w.location()) else {
        return Page::Audit;
    };
    if let Some(p) = location.hash().ok().and_then(|h| Page::from_slug(&h)) {
        return p;
    }
    let query = location.search().ok().and_then(|s| web_sys::UrlSearchParams::new_with_str(&s).ok());
    if let Some(p) = query.as_ref().and_then(|q| q.get("page")).and_then(|p| Page::from_slug(&p)) {
        return p;
    }
    // A bundle to preload (`?bundle=`, `?demo`) is the rescoring's; else the release page,
    // which takes any file.
    match query {
        Some(q) if q.has("release") => Page::Audit,
        Some(q) if q.has("bundle") || q.has("demo") => Page::Rescore,
        _ => Page::Audit,
    }
}

pub enum Msg {
    Go(Page),
    HashChanged,
    State(Page, PageState),
    Dragging(bool),
    Drop(Vec<SourceFile>),
    /// A dropped folder is being read (its files follow as `Drop`).
    ReadingFolder,
    /// A dropped folder could not be read, in words.
    FolderFailed(String),
    /// Guest: files the host handed over for one of this module's pages.
    DropOn(Page, Vec<SourceFile>),
    UseRescoring(ReportRef, String),
    /// Open a page with files (the release page's "Open on its page", or the guest's request).
    Open(Page, Vec<SourceFile>),
    /// Host: the guest module of a group listens now.
    GuestReady(Group),
    /// Host: a group's module could not be loaded.
    GuestFailed(Group, String),
}

/// How the app is mounted.
#[derive(Properties, PartialEq, Default)]
pub struct AppProps {
    /// As the guest: only this module's pages, in the container the host left for them.
    #[prop_or_default]
    pub guest: bool,
}

/// The host's view of another group's module.
enum Guest {
    /// Requested (and shown as loading until it says it is ready); drops for its pages wait
    /// here, in order.
    Loading(Vec<(Page, Vec<SourceFile>)>),
    Ready,
    Failed(String),
}

/// The root component of one page module.
pub struct App<P: PageSet> {
    page: Page,
    states: HashMap<Page, PageState>,
    on_state: HashMap<Page, Callback<PageState>>,
    on_use_rescoring: Callback<(ReportRef, String)>,
    on_open: Callback<(Page, Vec<SourceFile>)>,
    seq: u32,
    dropped: Option<(Page, Dropped)>,
    rescoring: Option<Handoff>,
    dragging: bool,
    /// A dropped folder being read, or why it could not be.
    folder: Option<Result<(), String>>,
    guests: HashMap<Group, Guest>,
    /// What a companion site says of its results (`?title=`, `?about=`).
    companion: Option<super::dom::Companion>,
    _listeners: Vec<Listener>,
    _pages: PhantomData<P>,
}

impl<P: PageSet> App<P> {
    fn next_seq(&mut self) -> u32 {
        self.seq = self.seq.wrapping_add(1);
        self.seq
    }

    /// Files for one of this module's pages (dropped on the shell, or handed over by the host).
    fn drop_on(&mut self, page: Page, files: Vec<SourceFile>) {
        let seq = self.next_seq();
        self.dropped = Some((page, Dropped { seq, files: Rc::new(files) }));
    }

    /// Host: the module of `page`'s group is requested once; a failure is shown in its place.
    fn request_guest(&mut self, ctx: &Context<Self>, page: Page) {
        let group = Group::of(page);
        if P::owns(page) || self.guests.contains_key(&group) {
            return;
        }
        self.guests.insert(group, Guest::Loading(Vec::new()));
        let link = ctx.link().clone();
        wasm_bindgen_futures::spawn_local(async move {
            if let Err(e) = bridge::load_group(group).await {
                link.send_message(Msg::GuestFailed(group, e));
            }
        });
    }
}

fn set_hash(page: Page) {
    if let Some(w) = web_sys::window() {
        let want = format!("#{}", page.slug());
        if w.location().hash().ok().as_deref() != Some(want.as_str()) {
            let _ = w.location().set_hash(page.slug());
        }
    }
}

impl<P: PageSet> Component for App<P> {
    type Message = Msg;
    type Properties = AppProps;

    fn create(ctx: &Context<Self>) -> Self {
        let link = ctx.link();
        let on_state =
            Page::ALL.iter().copied().map(|p| (p, link.callback(move |s: PageState| Msg::State(p, s)))).collect();
        let hash = link.clone();
        let mut listeners: Vec<Listener> =
            Listener::on_window("hashchange", move |_| hash.send_message(Msg::HashChanged)).into_iter().collect();
        // The user is about to choose files or a demo: a worker of the module whose page is on
        // screen starts loading now (not for a press on the navigation: it leads elsewhere).
        for event in ["pointerdown", "keydown", "dragover"] {
            listeners.extend(Listener::on_window(event, |e| {
                let on_nav = e
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                    .is_some_and(|el| el.closest("#nav").ok().flatten().is_some());
                if !on_nav && P::owns(page_from_url()) {
                    super::channel::warm();
                }
            }));
        }
        if ctx.props().guest {
            if let Some(group) = P::GROUP {
                let drop = link.clone();
                listeners.extend(bridge::on_drop(group, move |p, files| drop.send_message(Msg::DropOn(p, files))));
                bridge::announce_guest(group);
            }
        } else {
            let ready = link.clone();
            listeners.extend(bridge::on_guest_ready(move |g| ready.send_message(Msg::GuestReady(g))));
            let open = link.clone();
            listeners.extend(bridge::on_open(move |p, files| open.send_message(Msg::Open(p, files))));
            let state = link.clone();
            listeners.extend(bridge::on_state(move |p, s| {
                if !P::owns(p) {
                    state.send_message(Msg::State(p, s));
                }
            }));
        }
        // A companion site's title names the tab too (the host's: a guest draws no shell).
        let companion = if ctx.props().guest { None } else { super::dom::companion() };
        if let (Some(c), Some(doc)) = (&companion, web_sys::window().and_then(|w| w.document())) {
            doc.set_title(&format!("{} \u{2014} memaudit", c.title));
        }
        App {
            page: page_from_url(),
            states: HashMap::new(),
            on_state,
            on_use_rescoring: link.callback(|(r, label): (ReportRef, String)| Msg::UseRescoring(r, label)),
            on_open: link.callback(|(p, files): (Page, Vec<SourceFile>)| Msg::Open(p, files)),
            seq: 0,
            dropped: None,
            rescoring: None,
            dragging: false,
            folder: None,
            guests: HashMap::new(),
            companion,
            _listeners: listeners,
            _pages: PhantomData,
        }
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Self::Message) -> bool {
        let guest = ctx.props().guest;
        match msg {
            Msg::Go(p) => {
                set_hash(p);
                let changed = self.page != p;
                self.page = p;
                changed
            }
            Msg::HashChanged => {
                let p = page_from_url();
                let changed = self.page != p;
                self.page = p;
                changed
            }
            Msg::State(p, s) if guest => {
                bridge::send_state(p, s);
                false
            }
            Msg::State(p, s) => {
                let before = self.states.insert(p, s);
                before != Some(s) && p == self.page
            }
            Msg::Dragging(d) => {
                let changed = self.dragging != d;
                self.dragging = d;
                changed
            }
            Msg::ReadingFolder => {
                self.dragging = false;
                self.folder = Some(Ok(()));
                true
            }
            Msg::FolderFailed(e) => {
                self.folder = Some(Err(e));
                true
            }
            Msg::Drop(files) => {
                self.dragging = false;
                self.folder = None;
                if P::owns(self.page) {
                    self.drop_on(self.page, files);
                    return true;
                }
                self.request_guest(ctx, self.page);
                match self.guests.get_mut(&Group::of(self.page)) {
                    Some(Guest::Ready) => bridge::send_drop(self.page, &files),
                    Some(Guest::Loading(waiting)) => waiting.push((self.page, files)),
                    Some(Guest::Failed(_)) | None => {}
                }
                true
            }
            Msg::DropOn(p, files) => {
                self.drop_on(p, files);
                true
            }
            Msg::Open(p, files) => {
                set_hash(p);
                self.page = p;
                if P::owns(p) {
                    self.drop_on(p, files);
                } else if guest {
                    // The host draws that page: it opens it with the files.
                    bridge::send_open(p, &files);
                } else {
                    self.request_guest(ctx, p);
                    match self.guests.get_mut(&Group::of(p)) {
                        Some(Guest::Ready) => bridge::send_drop(p, &files),
                        Some(Guest::Loading(waiting)) => waiting.push((p, files)),
                        Some(Guest::Failed(_)) | None => {}
                    }
                }
                true
            }
            Msg::UseRescoring(report, label) => {
                let seq = self.next_seq();
                self.rescoring = Some(Handoff { seq, report, label });
                self.page = Page::Compare;
                set_hash(Page::Compare);
                true
            }
            Msg::GuestReady(g) => {
                if let Some(Guest::Loading(waiting)) = self.guests.insert(g, Guest::Ready) {
                    for (p, files) in waiting {
                        bridge::send_drop(p, &files);
                    }
                }
                true
            }
            Msg::GuestFailed(g, e) => {
                self.guests.insert(g, Guest::Failed(e));
                true
            }
        }
    }

    fn rendered(&mut self, ctx: &Context<Self>, _first_render: bool) {
        // The container of the page's module is on screen now: the module can mount there.
        if !ctx.props().guest {
            self.request_guest(ctx, self.page);
        }
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let views = PageViews {
            page: self.page,
            dropped: &self.dropped,
            on_state: &self.on_state,
            on_use_rescoring: &self.on_use_rescoring,
            rescoring: &self.rescoring,
            on_open: &self.on_open,
        };
        if ctx.props().guest {
            return pages::<P>(&views);
        }
        let link = ctx.link();
        let ondragover = link.callback(|e: DragEvent| {
            e.prevent_default();
            Msg::Dragging(true)
        });
        let ondragleave = link.batch_callback(|e: DragEvent| {
            e.prevent_default();
            // Moving between child elements also fires dragleave; only leaving the page counts.
            e.related_target().is_none().then_some(Msg::Dragging(false))
        });
        let folder_link = link.clone();
        let ondrop = link.callback(move |e: DragEvent| {
            e.prevent_default();
            let Some(dt) = e.data_transfer() else {
                return Msg::Dragging(false);
            };
            // A folder is walked after the event (its entries are taken now, while they last).
            if let Some(entries) = dropped_folders::entries_with_folders(&dt) {
                let link = folder_link.clone();
                wasm_bindgen_futures::spawn_local(async move {
                    link.send_message(match dropped_folders::files_below(entries).await {
                        Ok(files) if files.is_empty() => Msg::FolderFailed("the folder dropped holds no files".into()),
                        Ok(files) => Msg::Drop(files),
                        Err(e) => Msg::FolderFailed(e),
                    });
                });
                return Msg::ReadingFolder;
            }
            let files = source_files(dt.files());
            if files.is_empty() { Msg::Dragging(false) } else { Msg::Drop(files) }
        });
        let folder_note = match &self.folder {
            None => html! {},
            Some(Ok(())) => html! {
                <p id="folder-reading" class="hint" role="status">{ "Reading the folder dropped…" }</p>
            },
            Some(Err(e)) => html! {
                <p id="folder-error" class="error-box" role="alert">{ format!("Could not read the folder dropped: {e}") }</p>
            },
        };
        let state = self.states.get(&self.page).copied().unwrap_or_default();
        html! {
            <div class={classes!("app", self.dragging.then_some("dragging"))} data-state={state.name()}
                data-page={self.page.slug()} {ondragover} {ondragleave} {ondrop}>
                <a href="#" id="skip-link" class="skip-link" onclick={skip_to_page()}>{ "Skip to the page" }</a>
                <header class="page-head">
                    <h1>{ "memaudit" }</h1>
                    <nav id="nav" class="nav" aria-label="pages">
                        { for Page::ALL.iter().copied().map(|p| {
                            let onclick = link.callback(move |e: MouseEvent| {
                                e.prevent_default();
                                Msg::Go(p)
                            });
                            html! {
                                <a id={format!("nav-{}", p.slug())} href={format!("#{}", p.slug())} {onclick}
                                    class={classes!("nav-link", (p == self.page).then_some("active"))}
                                    aria-current={(p == self.page).then_some("page")}>{ p.label() }</a>
                            }
                        }) }
                    </nav>
                    <super::limits::InputLimits />
                    { folder_note }
                </header>
                if let Some(c) = &self.companion {
                    <section id="companion" class="companion" aria-label="about these results">
                        <h2 id="companion-title">{ c.title.clone() }</h2>
                        if let Some(about) = &c.about {
                            <p id="companion-about">{ about.clone() }</p>
                        }
                    </section>
                }
                <div id={PAGE_CONTENT} tabindex="-1">
                    { pages::<P>(&views) }
                    { for Group::ALL.into_iter().filter(|g| P::GROUP.is_some_and(|own| own != *g)).map(|g| self.guest_view(g)) }
                </div>
            </div>
        }
    }
}

/// The id of the element that holds the pages (past the navigation): the skip link's target.
const PAGE_CONTENT: &str = "page-content";

/// The skip link's click: focus moves past the navigation to the page. The URL's hash names
/// the page shown, so the link does not follow its `href`.
fn skip_to_page() -> Callback<MouseEvent> {
    Callback::from(|e: MouseEvent| {
        e.prevent_default();
        super::dom::bring_into_view(PAGE_CONTENT);
    })
}

impl<P: PageSet> App<P> {
    /// The container another group's module mounts its pages in (never given children by
    /// this app), with what is known of that module while one of its pages is on screen.
    fn guest_view(&self, group: Group) -> Html {
        let id = group.container_id();
        let on_screen = Group::of(self.page) == group;
        let notice = match self.guests.get(&group) {
            Some(Guest::Loading(_)) | None if on_screen => html! {
                <p class="hint" id={format!("{id}-loading")} role="status">{ "Loading this page…" }</p>
            },
            Some(Guest::Failed(e)) if on_screen => html! {
                <div class="error-box" id={format!("{id}-error")} role="alert">
                    <h2>{ "Could not load this page" }</h2>
                    <p>{ format!("memaudit-{}.js / memaudit-{}_bg.wasm: {e}", group.module(), group.module()) }</p>
                    <p class="muted">{ "Reload the page to try again; the other pages keep working." }</p>
                </div>
            },
            _ => Html::default(),
        };
        html! {
            <div class="module-pages">
                { notice }
                <div {id}></div>
            </div>
        }
    }
}
