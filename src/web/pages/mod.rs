//! The viewer's pages. Each is a component with its own state and its own worker (through
//! [`crate::web::job::Job`], the one job lifecycle every page uses); the shell
//! ([`super::app::App`]) shows one at a time (the others stay mounted, hidden, so their results
//! survive switching), hands dropped files to the visible one, and carries a rescoring to the
//! comparison page.
//!
//! | page | URL | capability |
//! |---|---|---|
//! | [`rescore::RescorePage`] | `#rescore` (default) | credit-target rescoring ([`crate::audit::Rescore`]) |
//! | [`compare::ComparePage`] | `#compare` | paired comparison of arms ([`crate::compare::Compare`]) |
//! | [`probe::ProbePage`] | `#probe` | the write-time source-token probe ([`crate::probe::Probe`]) |
//! | [`reclaim::ReclaimPage`] | `#reclaim` | reclaim rates by policy × integrity ([`crate::reclaim::Reclaim`]) |
//! | [`answers::AnswersPage`] | `#answers` | answer rescoring under scoring profiles ([`crate::answers::Answers`]) |
//! | [`ablation::AblationPage`] | `#ablation` | counterfactual ablation ([`crate::ablation::Ablation`]) |
//! | [`claims::ClaimsPage`] | `#claims` | arms across K, the claims check and the linter ([`crate::claims::Claims`]) |
//! | [`rules::RulesPage`] | `#rules` | pre-registered rules ([`crate::rules::Rules`]) |
//! | [`trec_eval::IrEvalPage`] | `#trec-eval` | trec_eval's IR evaluation and runs compared ([`crate::ireval::TrecEval`]) |
//! | [`labels::LabelsPage`] | `#labels` | agreement among raters on labels ([`crate::label_audit::Labels`]) |
//! | [`calibration::CalibrationPage`] | `#calibration` | routing and calibration of a gated memory ([`crate::calibration::Calibration`]) |
//! | [`alignment::AlignmentPage`] | `#alignment` | answer alignment of two targets, coverage confound, run identity ([`crate::alignment::Alignment`]) |
//! | [`compliance::CompliancePage`] | `#compliance` | decision compliance: κ, return on tokens, depth, crossover, power ([`crate::compliance::Compliance`]) |
//!
//! Every page is one component, [`tool::ToolPage`], with the page's [`tool::Tool`]: what it reads,
//! its settings, its results and its drill-downs.
//!
//! Each page's file implements [`Screen`] for its capability (the page's component and the
//! module it is compiled into); the shell draws every capability of the list
//! ([`crate::capabilities!`]) through it.

/// A capability's page in one line, in the page's file: `screen!(crate::probe::Probe =>
/// ProbePage, Founding);` implements [`Screen`].
macro_rules! screen {
    ($unit:ty => $view:ty, $group:ident) => {
        impl $crate::web::pages::Screen for $unit {
            type View = $view;
            const GROUP: $crate::web::pages::Group = $crate::web::pages::Group::$group;
        }
    };
}

pub mod ablation;
pub mod alignment;
pub mod answers;
pub mod calibration;
pub mod claims;
pub mod compare;
pub mod compliance;
pub mod labels;
pub mod probe;
pub mod reclaim;
pub mod release;
pub mod rescore;
pub mod rules;
pub mod tool;
pub mod trec_eval;

use std::rc::Rc;

use yew::prelude::*;

use super::components::ReportRef;
use super::protocol::{JobId, SourceFile};
pub use crate::capability::Analysis as Page;
use crate::capability::{Capability, Phase};
use crate::error::{Error, Location};

/// A page's URL hash (`#compare`) and navigation label.
pub trait PageInfo: Sized {
    /// The URL hash / `?page=` value.
    fn slug(self) -> &'static str;
    /// The navigation label.
    fn label(self) -> &'static str;
    fn from_slug(s: &str) -> Option<Self>;
}

impl PageInfo for Page {
    fn slug(self) -> &'static str {
        self.name()
    }

    fn label(self) -> &'static str {
        crate::registry::title(self)
    }

    fn from_slug(s: &str) -> Option<Page> {
        let s = s.trim().trim_start_matches('#').trim_start_matches('/').to_ascii_lowercase();
        Page::ALL.iter().copied().find(|p| p.slug() == s)
    }
}

/// A group of pages compiled into one page module ([`super::bridge`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Group {
    /// The founding capabilities and the answers page (module `memaudit-web`).
    Founding,
    /// The tool pages (module `memaudit-tools`).
    Tools,
}

/// A capability's page: what the viewer needs of a capability besides the capability itself.
/// Each page's file implements it; the shell draws every listed capability's page
/// ([`crate::capabilities!`]) from it.
pub trait Screen: Capability {
    /// The page's component.
    type View: Component<Properties = PageProps>;
    /// The page module it is compiled into.
    const GROUP: Group;
}

macro_rules! groups {
    (; $($variant:ident $name:ident $unit:ty;)+) => {
        impl Group {
            pub const ALL: [Group; 2] = [Group::Founding, Group::Tools];

            /// The group a page is compiled into ([`Screen::GROUP`]).
            pub fn of(page: Page) -> Group {
                match page {
                    $(Page::$variant => <$unit as Screen>::GROUP,)+
                }
            }
        }
    };
}
crate::capabilities!(groups);

/// What a page is doing (`.app[data-state]` shows the visible page's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PageState {
    #[default]
    Idle,
    Busy,
    Ready,
    Error,
}

impl PageState {
    pub fn name(self) -> &'static str {
        match self {
            PageState::Idle => "idle",
            PageState::Busy => "busy",
            PageState::Ready => "ready",
            PageState::Error => "error",
        }
    }

    /// The state named `name` ([`PageState::name`]).
    pub fn from_name(name: &str) -> Option<PageState> {
        [PageState::Idle, PageState::Busy, PageState::Ready, PageState::Error].into_iter().find(|s| s.name() == name)
    }

    /// Busy while a job runs, ready when results are on screen, error when only an error is.
    pub fn of(busy: bool, ready: bool, error: bool) -> PageState {
        if busy {
            PageState::Busy
        } else if ready {
            PageState::Ready
        } else if error {
            PageState::Error
        } else {
            PageState::Idle
        }
    }
}

/// Files dropped on the page (or picked), for the visible page; a new `seq` is a new drop.
#[derive(Debug, Clone)]
pub struct Dropped {
    pub seq: u32,
    pub files: Rc<Vec<SourceFile>>,
}

impl PartialEq for Dropped {
    fn eq(&self, other: &Self) -> bool {
        self.seq == other.seq
    }
}

/// A rescoring sent to the comparison page ("Use this rescoring"); a new `seq` is a new one.
#[derive(Debug, Clone)]
pub struct Handoff {
    pub seq: u32,
    pub report: ReportRef,
    /// Where the rescoring came from, in words.
    pub label: String,
}

impl PartialEq for Handoff {
    fn eq(&self, other: &Self) -> bool {
        self.seq == other.seq
    }
}

/// What every page gets from the shell.
#[derive(Properties, PartialEq)]
pub struct PageProps {
    /// The page is the one on screen.
    pub active: bool,
    /// Files dropped while this page was on screen.
    #[prop_or_default]
    pub dropped: Option<Dropped>,
    /// The page's state, whenever it changes.
    pub on_state: Callback<PageState>,
    /// Rescoring page: "Use this rescoring".
    #[prop_or_default]
    pub on_use_rescoring: Callback<(ReportRef, String)>,
    /// Comparison page: a rescoring to compare.
    #[prop_or_default]
    pub rescoring: Option<Handoff>,
    /// Open another page with files (the release page's "Open on its page").
    #[prop_or_default]
    pub on_open: Callback<(Page, Vec<SourceFile>)>,
}

/// A running job.
#[derive(Debug, Clone, PartialEq)]
pub struct Busy {
    pub job: JobId,
    pub phase: Phase,
    pub stage: String,
    pub fraction: f64,
}

impl Busy {
    pub fn new(job: JobId, stage: impl Into<String>) -> Busy {
        Busy { job, phase: Phase::Reading, stage: stage.into(), fraction: 0.0 }
    }
}

/// The progress bar of a job: `#{prefix}status` with `<progress id="{prefix}progress">` and,
/// given `cancel`, a Cancel button `#{prefix}cancel`.
pub fn status_bar(prefix: &str, busy: Option<&Busy>, cancel: Option<Callback<MouseEvent>>) -> Html {
    let Some(b) = busy else {
        return html! {};
    };
    let pct = (b.fraction * 100.0).round();
    html! {
        <div class="status" role="status" aria-live="polite" id={format!("{prefix}status")}>
            <label for={format!("{prefix}progress")}>{ format!("{} — {pct:.0}%", b.stage) }</label>
            <progress id={format!("{prefix}progress")} class="progress" max="1" value={format!("{:.4}", b.fraction)}
                data-phase={format!("{:?}", b.phase).to_lowercase()}>
                { format!("{pct:.0}%") }
            </progress>
            if let Some(onclick) = cancel {
                <button type="button" class="small secondary" id={format!("{prefix}cancel")} {onclick}>{ "Cancel" }</button>
            }
        </div>
    }
}

/// An error as shown: what failed, where (file, line, field), and what it means for the page.
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorView {
    pub title: String,
    pub location: Option<Location>,
    pub message: String,
    pub note: Option<String>,
}

impl ErrorView {
    pub fn from_error(e: &Error) -> ErrorView {
        Self::from_error_in(e, &[])
    }

    /// The error box of a page whose request has `fields`: a setting the message mentions is
    /// named by its label on the page ([`crate::web::components::fields::page_words`]).
    pub fn from_error_in(e: &Error, fields: &[&crate::fields::Field]) -> ErrorView {
        let mut view = Self::of_error(e);
        if let Error::Setting { setting, .. } = e
            && let Some(f) = crate::web::components::fields::declared(fields, setting)
        {
            view.title = format!("Invalid setting \u{201c}{}\u{201d}", f.label);
        }
        let message = crate::web::components::fields::page_words(fields, &view.message);
        view.message = crate::error::elide_long_words(&message).into_owned();
        view
    }

    fn of_error(e: &Error) -> ErrorView {
        match e {
            Error::Ingest(i) => ErrorView {
                title: format!("Could not read {}", i.location.file),
                location: Some(i.location.clone()),
                message: i.message.clone(),
                note: None,
            },
            Error::Setting { setting, message } => ErrorView {
                title: format!("Invalid setting `{setting}`"),
                location: None,
                message: message.clone(),
                note: None,
            },
            Error::Empty(m) => {
                ErrorView { title: "Nothing to show yet".into(), location: None, message: m.clone(), note: None }
            }
            Error::Unpaired { message, .. } => ErrorView {
                title: "Cannot run a paired comparison".into(),
                location: None,
                message: message.clone(),
                note: None,
            },
            Error::Output { what, message } => ErrorView {
                title: format!("Could not produce {what}"),
                location: None,
                message: message.clone(),
                note: None,
            },
        }
    }

    pub fn plain(title: &str, message: impl Into<String>) -> ErrorView {
        ErrorView { title: title.into(), location: None, message: message.into(), note: None }
    }

    /// Adds a sentence to the note.
    pub fn with_note(mut self, note: &str) -> ErrorView {
        self.note = Some(match self.note {
            Some(n) => format!("{n} {note}"),
            None => note.to_string(),
        });
        self
    }
}

/// Tells the shell when a page's state changes (`.app[data-state]` shows the visible page's).
pub fn report_state(props: &PageProps, last: &mut PageState, now: PageState) {
    if now != *last {
        *last = now;
        props.on_state.emit(now);
    }
}

/// `Component::changed` of a page: a drop it has not seen yet becomes `msg(files)`.
pub fn forward_drop<C: Component<Properties = PageProps>>(
    ctx: &Context<C>,
    last: &mut Option<u32>,
    msg: fn(FileEdit) -> C::Message,
) -> bool {
    if let Some(files) = new_drop(ctx.props(), last) {
        ctx.link().send_message(msg(FileEdit::Add(files)));
    }
    true
}

/// The files of a drop the page has not seen yet (`last` remembers the last drop taken).
pub fn new_drop(props: &PageProps, last: &mut Option<u32>) -> Option<Vec<SourceFile>> {
    let d = props.dropped.as_ref()?;
    if *last == Some(d.seq) {
        return None;
    }
    *last = Some(d.seq);
    Some(d.files.to_vec())
}

/// What a page's file list is told: files chosen or dropped, one taken off, all cleared.
/// Every page's `update` hands it to [`FileEdit::apply`], so the list behaves alike everywhere.
pub enum FileEdit {
    /// Files to add; a file with the name of an earlier one replaces it.
    Add(Vec<SourceFile>),
    /// Take off the file at this place in the list.
    Remove(usize),
    /// Take off every file.
    Clear,
}

impl FileEdit {
    /// Applies the edit to a page's set. True when the page reads its files again: after an
    /// add or a removal (a clear leaves nothing to read; removing a file that is not there is
    /// nothing).
    pub fn apply(self, set: &mut Vec<SourceFile>) -> bool {
        match self {
            FileEdit::Add(files) => {
                add_files(set, files);
                true
            }
            FileEdit::Remove(i) if i < set.len() => {
                set.remove(i);
                true
            }
            FileEdit::Remove(_) => false,
            FileEdit::Clear => {
                set.clear();
                false
            }
        }
    }
}

/// Adds files to a page's set; a file with the name of an earlier one replaces it.
pub fn add_files(set: &mut Vec<SourceFile>, files: Vec<SourceFile>) {
    for f in files {
        set.retain(|g| g.name != f.name);
        set.push(f);
    }
}

/// The error box of a failed job: a file that could not be read is taken out of `files`
/// (and the box says so); when the worker kept the earlier data and results are on screen,
/// the box says they are from the previous `what` and settings.
pub fn failure(
    error: &Error,
    kept_previous: bool,
    has_results: bool,
    files: &mut Vec<SourceFile>,
    what: &str,
    fields: &[&crate::fields::Field],
) -> (ErrorView, Vec<SourceFile>) {
    let mut view = ErrorView::from_error_in(error, fields);
    let mut removed = Vec::new();
    if let Error::Ingest(e) = error {
        (removed, *files) = std::mem::take(files).into_iter().partition(|f| f.name == e.location.file);
        if !removed.is_empty() {
            view = view.with_note(&format!("{} was removed from the file list.", e.location.file));
        }
    }
    if kept_previous && has_results {
        view = view.with_note(&format!("The results below are from the previous {what} and settings."));
    }
    (view, removed)
}

/// The error box: `#{prefix}error` with `#{prefix}error-file`, `-line`, `-field`, `-message`.
pub fn error_box(prefix: &str, e: Option<&ErrorView>, dismiss: Callback<MouseEvent>) -> Html {
    let Some(e) = e else {
        return html! {};
    };
    html! {
        <div class="error-box" id={format!("{prefix}error")} role="alert">
            <h2>{ e.title.clone() }</h2>
            if let Some(loc) = &e.location {
                <dl class="where">
                    <dt>{ "file" }</dt><dd id={format!("{prefix}error-file")}>{ loc.file.clone() }</dd>
                    if let Some(line) = loc.line { <dt>{ "line" }</dt><dd id={format!("{prefix}error-line")}>{ line }</dd> }
                    if let Some(field) = &loc.field { <dt>{ "field" }</dt><dd id={format!("{prefix}error-field")}><code>{ field.clone() }</code></dd> }
                </dl>
            }
            <p id={format!("{prefix}error-message")}>{ e.message.clone() }</p>
            if let Some(n) = &e.note { <p class="muted">{ n.clone() }</p> }
            <button type="button" class="small secondary" onclick={dismiss}>{ "Dismiss" }</button>
        </div>
    }
}

/// The page's files (`#{prefix}file-list`): each with its size and a "remove" button, then
/// "clear" (`#{prefix}clear-files`). Nothing when there are none. One list for every page, so
/// a file that spoils every run can always be taken off.
pub fn file_list(prefix: &str, files: &[SourceFile], edit: Callback<FileEdit>) -> Html {
    if files.is_empty() {
        return html! {};
    }
    let clear = edit.reform(|_: MouseEvent| FileEdit::Clear);
    html! {
        <ul class="file-list" id={format!("{prefix}file-list")} aria-label="files to read">
            { for files.iter().enumerate().map(|(i, f)| {
                let remove = edit.reform(move |_: MouseEvent| FileEdit::Remove(i));
                html! {
                    <li>
                        <code>{ f.name.clone() }</code>
                        <span class="muted">{ format!(" {} bytes ", super::format::count(f.blob.size() as usize)) }</span>
                        <button type="button" class="link" onclick={remove} aria-label={format!("remove {}", f.name)}>{ "remove" }</button>
                    </li>
                }
            }) }
            <li><button type="button" class="link" id={format!("{prefix}clear-files")} onclick={clear}>{ "clear all" }</button></li>
        </ul>
    }
}

/// A file picker styled as a button: `<input id={id} type=file multiple>` + its label.
pub fn file_picker(id: &str, label: &str, described_by: &str, on_files: Callback<Vec<SourceFile>>) -> Html {
    picker(id, label, described_by, on_files, false)
}

/// A folder chooser: every file below the folder chosen, each named by its path below it
/// (`release/results/a.jsonl`).
pub fn folder_picker(id: &str, label: &str, described_by: &str, on_files: Callback<Vec<SourceFile>>) -> Html {
    picker(id, label, described_by, on_files, true)
}

fn picker(id: &str, label: &str, described_by: &str, on_files: Callback<Vec<SourceFile>>, folder: bool) -> Html {
    let onchange = Callback::from(move |e: Event| {
        let input: web_sys::HtmlInputElement = e.target_unchecked_into();
        let files = super::dom::source_files(input.files());
        input.set_value("");
        if !files.is_empty() {
            on_files.emit(files);
        }
    });
    html! {
        <>
            if folder {
                <input id={id.to_string()} class="visually-hidden" type="file" multiple=true {onchange}
                    webkitdirectory=true aria-describedby={described_by.to_string()} />
            } else {
                <input id={id.to_string()} class="visually-hidden" type="file" multiple=true {onchange}
                    aria-describedby={described_by.to_string()} />
            }
            <label for={id.to_string()} class="file-label">{ label.to_string() }</label>
        </>
    }
}
