//! The shell of the viewer: the title, the navigation between pages (the URL hash, or
//! `?page=`, selects one: `#rescore`, `#compare`, `#probe`, `#reclaim`, `#answers`,
//! `#ablation`, `#claims`, `#rules`), and drag and drop anywhere on the page, handed to the
//! page on screen. Each page starts its own worker on its first job.
//!
//! The pages ([`super::pages`]) stay mounted when hidden, so switching keeps their results.

use std::collections::HashMap;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use web_sys::DragEvent;
use yew::prelude::*;

use super::components::ReportRef;
use super::dom::source_files;
use super::pages::ablation::AblationPage;
use super::pages::alignment::AlignmentPage;
use super::pages::answers::AnswersPage;
use super::pages::calibration::CalibrationPage;
use super::pages::claims::ClaimsPage;
use super::pages::compare::ComparePage;
use super::pages::compliance::CompliancePage;
use super::pages::labels::LabelsPage;
use super::pages::probe::ProbePage;
use super::pages::reclaim::ReclaimPage;
use super::pages::rescore::RescorePage;
use super::pages::rules::RulesPage;
use super::pages::trec_eval::IrEvalPage;
use super::pages::{Dropped, Handoff, Page, PageInfo, PageState};
use super::protocol::SourceFile;

pub use super::pages::ErrorView;

/// Mounts the app on `#app` (or the body).
pub fn mount() {
    let root = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("app"));
    match root {
        Some(el) => {
            yew::Renderer::<App>::with_root(el).render();
        }
        None => {
            yew::Renderer::<App>::new().render();
        }
    }
}

/// The page the URL asks for: the hash (`#compare`), else `?page=compare`, else rescoring.
pub fn page_from_url() -> Page {
    let Some(location) = web_sys::window().map(|w| w.location()) else {
        return Page::Rescore;
    };
    if let Some(p) = location.hash().ok().and_then(|h| Page::from_slug(&h)) {
        return p;
    }
    location
        .search()
        .ok()
        .and_then(|s| web_sys::UrlSearchParams::new_with_str(&s).ok())
        .and_then(|q| q.get("page"))
        .and_then(|p| Page::from_slug(&p))
        .unwrap_or(Page::Rescore)
}

pub enum Msg {
    Go(Page),
    HashChanged,
    State(Page, PageState),
    Dragging(bool),
    Drop(Vec<SourceFile>),
    UseRescoring(ReportRef, String),
}

/// The root component.
pub struct App {
    page: Page,
    states: HashMap<Page, PageState>,
    on_state: HashMap<Page, Callback<PageState>>,
    on_use_rescoring: Callback<(ReportRef, String)>,
    seq: u32,
    dropped: Option<(Page, Dropped)>,
    rescoring: Option<Handoff>,
    dragging: bool,
    _hash_listener: Option<Closure<dyn FnMut()>>,
}

impl App {
    fn next_seq(&mut self) -> u32 {
        self.seq = self.seq.wrapping_add(1);
        self.seq
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

impl Component for App {
    type Message = Msg;
    type Properties = ();

    fn create(ctx: &Context<Self>) -> Self {
        let on_state =
            Page::ALL.iter().copied().map(|p| (p, ctx.link().callback(move |s: PageState| Msg::State(p, s)))).collect();
        let listener = {
            let link = ctx.link().clone();
            let closure = Closure::<dyn FnMut()>::new(move || link.send_message(Msg::HashChanged));
            web_sys::window().map(|w| {
                w.set_onhashchange(Some(closure.as_ref().unchecked_ref()));
                closure
            })
        };
        App {
            page: page_from_url(),
            states: HashMap::new(),
            on_state,
            on_use_rescoring: ctx.link().callback(|(r, label): (ReportRef, String)| Msg::UseRescoring(r, label)),
            seq: 0,
            dropped: None,
            rescoring: None,
            dragging: false,
            _hash_listener: listener,
        }
    }

    fn update(&mut self, _ctx: &Context<Self>, msg: Self::Message) -> bool {
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
            Msg::State(p, s) => {
                let before = self.states.insert(p, s);
                before != Some(s) && p == self.page
            }
            Msg::Dragging(d) => {
                let changed = self.dragging != d;
                self.dragging = d;
                changed
            }
            Msg::Drop(files) => {
                self.dragging = false;
                let seq = self.next_seq();
                self.dropped = Some((self.page, Dropped { seq, files: Rc::new(files) }));
                true
            }
            Msg::UseRescoring(report, label) => {
                let seq = self.next_seq();
                self.rescoring = Some(Handoff { seq, report, label });
                self.page = Page::Compare;
                set_hash(Page::Compare);
                true
            }
        }
    }

    fn destroy(&mut self, _ctx: &Context<Self>) {
        // The listener's closure is dropped with the app: unhook it first.
        if let Some(w) = web_sys::window() {
            w.set_onhashchange(None);
        }
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let ondragover = link.callback(|e: DragEvent| {
            e.prevent_default();
            super::channel::warm();
            Msg::Dragging(true)
        });
        // The user is about to choose files or a demo: a worker starts loading now.
        let onpointerdown = Callback::from(|_: PointerEvent| super::channel::warm());
        let onkeydown = Callback::from(|_: KeyboardEvent| super::channel::warm());
        let ondragleave = link.batch_callback(|e: DragEvent| {
            e.prevent_default();
            // Moving between child elements also fires dragleave; only leaving the page counts.
            e.related_target().is_none().then_some(Msg::Dragging(false))
        });
        let ondrop = link.callback(|e: DragEvent| {
            e.prevent_default();
            let files = source_files(e.data_transfer().and_then(|d| d.files()));
            if files.is_empty() { Msg::Dragging(false) } else { Msg::Drop(files) }
        });
        let state = self.states.get(&self.page).copied().unwrap_or_default();
        let dropped = |p: Page| self.dropped.as_ref().filter(|(q, _)| *q == p).map(|(_, d)| d.clone());
        let on_state = |p: Page| self.on_state.get(&p).cloned().unwrap_or_default();
        html! {
            <div class={classes!("app", self.dragging.then_some("dragging"))} data-state={state.name()}
                data-page={self.page.slug()} {ondragover} {ondragleave} {ondrop} {onpointerdown} {onkeydown}>
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
                </header>
                <RescorePage active={self.page == Page::Rescore}
                    dropped={dropped(Page::Rescore)} on_state={on_state(Page::Rescore)}
                    on_use_rescoring={self.on_use_rescoring.clone()} />
                <ComparePage active={self.page == Page::Compare}
                    dropped={dropped(Page::Compare)} on_state={on_state(Page::Compare)}
                    rescoring={self.rescoring.clone()} />
                <ProbePage active={self.page == Page::Probe}
                    dropped={dropped(Page::Probe)} on_state={on_state(Page::Probe)} />
                <ReclaimPage active={self.page == Page::Reclaim}
                    dropped={dropped(Page::Reclaim)} on_state={on_state(Page::Reclaim)} />
                <AnswersPage active={self.page == Page::Answers}
                    dropped={dropped(Page::Answers)} on_state={on_state(Page::Answers)} />
                <AblationPage active={self.page == Page::Ablation}
                    dropped={dropped(Page::Ablation)} on_state={on_state(Page::Ablation)} />
                <ClaimsPage active={self.page == Page::Claims}
                    dropped={dropped(Page::Claims)} on_state={on_state(Page::Claims)} />
                <RulesPage active={self.page == Page::Rules}
                    dropped={dropped(Page::Rules)} on_state={on_state(Page::Rules)} />
                <IrEvalPage active={self.page == Page::TrecEval}
                    dropped={dropped(Page::TrecEval)} on_state={on_state(Page::TrecEval)} />
                <LabelsPage active={self.page == Page::Labels}
                    dropped={dropped(Page::Labels)} on_state={on_state(Page::Labels)} />
                <CalibrationPage active={self.page == Page::Calibration}
                    dropped={dropped(Page::Calibration)} on_state={on_state(Page::Calibration)} />
                <AlignmentPage active={self.page == Page::Alignment}
                    dropped={dropped(Page::Alignment)} on_state={on_state(Page::Alignment)} />
                <CompliancePage active={self.page == Page::Compliance}
                    dropped={dropped(Page::Compliance)} on_state={on_state(Page::Compliance)} />
            </div>
        }
    }
}
