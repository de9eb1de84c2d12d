//! One component for the reclaim page and every tool page (answers … compliance): a drop zone for the page's
//! files, a settings form, the progress bar (with Cancel) and error box, and the page's
//! results. What differs per page is a [`Tool`]: its capability, its settings draft, how the
//! draft becomes the capability's request, and how its result is shown.
//!
//! Dropped files are added to the page's set (a file of the same name replaces the earlier
//! one) and the whole set is analysed again; "Re-analyse" analyses the files the worker kept
//! under the edited settings. A file that cannot be read is named with its line and field and
//! taken out of the set; earlier results stay on screen.

use std::collections::BTreeMap;
use std::rc::Rc;

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::html::Scope;
use yew::prelude::*;

use crate::web::components::contents::Contents;
use crate::web::components::explore::Explore;

use super::{
    ErrorView, FileEdit, PageInfo, PageProps, PageState, add_files, file_list, file_picker, forward_drop, report_state,
};
use crate::capability::{Capability, FileRole, FileSummary};
use crate::web::components::fields::{FieldDraft, field_id, field_input};
use crate::web::components::grid::{Column, RowAttrs, Val, grid};
use crate::web::components::headlines::{Cards, HeadlinesPanel, attach_buttons};
use crate::web::components::printed::PrintedCard;
use crate::web::format::count;
use crate::web::job::{Job, JobEvent, files_with_roles};
use crate::web::protocol::{Inputs, Response, SourceFile};

/// A result as a tool page keeps it: the overview of the files read (from the last load), the
/// report, and how long the job took.
#[derive(Debug, Clone, PartialEq)]
pub struct Batch<O, R> {
    pub overview: O,
    /// Shared, so that a card can hold it without a copy.
    pub report: Rc<R>,
    /// How long the job took, phase by phase.
    pub timing: crate::web::protocol::Timing,
    /// The report's headlines ([`crate::capability::headlines`]).
    pub headlines: Rc<Vec<crate::headline::Headline>>,
    /// The input files the report rests on (for the report to attach).
    pub inputs: Rc<Vec<crate::attach::InputInfo>>,
}

/// The batch of a tool's capability.
pub type BatchOf<T> =
    Batch<<<T as Tool>::Capability as Capability>::Overview, <<T as Tool>::Capability as Capability>::Report>;

/// What one tool page is.
pub trait Tool: Sized + 'static {
    /// The core capability the page runs.
    type Capability: Capability;
    /// The drop zone's heading.
    const INTAKE_TITLE: &'static str;
    /// Whether its intake offers a folder chooser too (files named by their path below it).
    const FOLDERS: bool = false;
    /// The settings form's heading.
    const SETTINGS_TITLE: &'static str = "Settings";
    /// The settings form's run button: its id within the page (`{prefix}{id}`), its label before
    /// a first result and once there is one.
    const RUN: (&'static str, &'static str, &'static str) = ("apply", "Use these settings", "Re-analyse");
    /// The founding page's element ids carry no page prefix (`#intake`, `#results`, `#apply`):
    /// kept for the links and embeddings that name them.
    const BARE_IDS: bool = false;
    /// What the page fetches at startup from the URL (the release page: `?release=`, the
    /// rescoring page: `?bundle=`), if any.
    fn preload(_startup: &crate::web::dom::StartupRequest) -> Option<crate::web::dom::Preload> {
        None
    }
    /// The settings as edited (text fields parsed on run).
    type Draft: Clone + PartialEq + Default + 'static;
    /// Page-local choices about how results are shown (plot pickers), kept across results.
    type View: Default + 'static;

    /// One sentence under the navigation.
    fn tagline() -> Html;
    /// What to drop, in the drop zone.
    fn intake() -> Html;
    /// The CLI twin, at the foot of the page: by default the command that gives the result on
    /// screen, generated from its files and settings ([`ToolPage::cli_twin`]).
    fn footer(page: &ToolPage<Self>) -> Html {
        page.cli_twin(true)
    }
    /// The request, or what cannot be parsed in the settings (naming the field); the range
    /// checks are the core's `validate`, run before anything is sent.
    fn request(draft: &Self::Draft) -> Result<<Self::Capability as Capability>::Request, String>;
    /// The settings fields.
    fn settings(page: &ToolPage<Self>, ui: &Ui<Self>) -> Html;
    /// What the settings form shows above its fields, full width (the comparison's spec: how
    /// the rows are read).
    fn settings_head(_page: &ToolPage<Self>, _ui: &Ui<Self>) -> Html {
        html! {}
    }
    /// Controls beside the file chooser (the comparison's input format).
    fn intake_actions(_page: &ToolPage<Self>, _ui: &Ui<Self>) -> Html {
        html! {}
    }
    /// A rescoring handed to the page ("Use this rescoring"), as the file the page reads, if
    /// the page takes one.
    fn handoff(_h: &super::Handoff) -> Option<Result<SourceFile, String>> {
        None
    }
    /// The report in the page's words (a setting the core mentions named by its label), before
    /// its headlines are drawn.
    fn in_page_words(_report: &mut <Self::Capability as Capability>::Report) {}
    /// New files were read: what the draft and the view take of them (choices among their
    /// columns), whether the run then succeeded or not.
    fn overview_read(
        _draft: &mut Self::Draft,
        _view: &mut Self::View,
        _overview: &<Self::Capability as Capability>::Overview,
    ) {
    }
    /// Which card shows each table a headline can point to.
    const CARDS: Cards;
    /// Whether the page offers the printed-numbers check of its result
    /// ([`crate::web::components::printed::PrintedCard`]). Off on the rescoring, comparison and
    /// probe pages, as before they were tools (the release page checks every analysis's): with
    /// it the first page module passed its 1.0 MB budget (`www/modules.test.mjs`) before the
    /// reclaim page moved to the second module; turning it on wants that size check again.
    const PRINTED_CARD: bool = true;
    /// The results.
    fn results(page: &ToolPage<Self>, batch: &Rc<BatchOf<Self>>, ui: &Ui<Self>) -> Html;
    /// The default settings (`old`: what the data-dependent fields keep).
    fn defaults(_old: &Self::Draft) -> Self::Draft {
        Self::Draft::default()
    }
    /// What the draft forgets when the page's files change (a choice among the old files'
    /// values).
    fn files_changed(_draft: &mut Self::Draft) {}
    /// A result arrived (`fresh`: of newly read inputs, else the same inputs under other
    /// settings): what the view keeps of it, and the drill-down to ask of it
    /// ([`Capability::Detail`]), if any (the page's selection, or a first one worth reading).
    /// The draft may take the result's settings as the core read them.
    fn after_result(
        _view: &mut Self::View,
        _draft: &mut Self::Draft,
        _batch: &BatchOf<Self>,
        _fresh: bool,
    ) -> Option<DetailOf<Self>> {
        None
    }
    /// A drill-down's answer, what went wrong, or `None` when it was cancelled; `true` when the
    /// view shows the error itself (the page's error box then stays closed).
    fn on_detail(_view: &mut Self::View, _answer: Option<Result<Rc<DetailViewOf<Self>>, String>>) -> bool {
        false
    }
    /// A part of the page that needs no files (the probe's one note, asked with [`Ui::ask`]):
    /// above the drop zone before a result, after the results and settings once there is one.
    fn standalone(_page: &ToolPage<Self>, _ui: &Ui<Self>) -> Html {
        html! {}
    }
    /// Whether the view shows a result of its own (the page is then ready without files).
    fn shows_result(_view: &Self::View) -> bool {
        false
    }
}

/// A drill-down question of a tool's capability.
pub type DetailOf<T> = <<T as Tool>::Capability as Capability>::Detail;
/// A drill-down's answer.
pub type DetailViewOf<T> = <<T as Tool>::Capability as Capability>::DetailView;

/// Where the result on screen came from.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Source {
    #[default]
    None,
    /// The page's built-in demo.
    Demo,
    /// Files the user dropped or chose.
    Files,
    /// Files the URL named ([`Tool::preload`]).
    Preloaded(crate::web::dom::Preload),
    /// A rescoring handed over by the rescoring page ([`Tool::handoff`]), in words.
    Handoff(String),
}

impl Source {
    /// The source in words (`the demo`, `the bundle demo`, `3 file(s)`).
    pub fn describe(&self, files: usize) -> String {
        match self {
            Source::Demo => "the demo (synthetic data)".to_string(),
            Source::Preloaded(p) => format!("the {} {}", p.kind(), p.name()),
            Source::Handoff(label) => label.clone(),
            Source::Files | Source::None => format!("{files} file(s)"),
        }
    }
}

type Edit<D> = Box<dyn FnOnce(&mut D)>;
type ViewEdit<V> = Box<dyn FnOnce(&mut V)>;
type Ask<T> = Box<dyn FnOnce(&mut <T as Tool>::View, Option<&BatchOf<T>>) -> Option<DetailOf<T>>>;

pub enum Msg<T: Tool> {
    /// Files added, one taken off (the others analysed again), or all cleared.
    Files(FileEdit),
    /// A file taken as another role (the files table): analysed again at once.
    Role(String, FileRole),
    /// Change the draft.
    Edit(Edit<T::Draft>),
    /// Change the draft and analyse again at once (pickers next to a result).
    EditApply(Edit<T::Draft>),
    View(ViewEdit<T::View>),
    Apply,
    Defaults,
    Worker(Response),
    Cancel,
    DismissError,
    /// Run on the page's built-in demo.
    Demo,
    /// The files the URL asked for ([`Tool::preload`]) arrived, or could not be fetched.
    Preloaded(crate::web::dom::Preload, Result<crate::web::dom::Preloaded, String>),
    /// A drill-down of the result on screen ([`Ui::ask`]).
    Ask(Ask<T>),
}

/// `(value, label)` options of a select whose labels are the values.
pub fn options(all: &[&str]) -> Vec<(String, String)> {
    all.iter().map(|v| (v.to_string(), v.to_string())).collect()
}

/// A comma-separated list: trimmed, empty entries dropped.
pub fn comma_list(text: &str) -> Vec<String> {
    text.split(',').map(str::trim).filter(|x| !x.is_empty()).map(String::from).collect()
}

/// A select's value as a choice, or what is wrong (naming the field).
pub fn parse_choice<C: crate::choice::Choice>(what: &str, value: &str) -> Result<C, String> {
    C::parse(value).ok_or_else(|| format!("{what}: `{value}` is not one of {}", C::names()))
}

/// The report of a tool page's result.
fn report_of<T: Tool>(b: &BatchOf<T>) -> &<T::Capability as Capability>::Report {
    &b.report
}

/// A tool page.
pub struct ToolPage<T: Tool> {
    job: Job<T::Capability>,
    /// The overview of the last load (a re-run on kept inputs sends none).
    overview: Option<<T::Capability as Capability>::Overview>,
    /// The roles the worker's inputs were read under.
    sent_roles: Option<BTreeMap<String, FileRole>>,
    pub files: Vec<SourceFile>,
    /// The roles stated for files by name in the files table ([`role_files`]); the others are
    /// detected. Kept when the settings are reset.
    pub roles: BTreeMap<String, FileRole>,
    pub draft: T::Draft,
    /// The draft behind the result on screen.
    pub applied: Option<T::Draft>,
    pub batch: Option<Rc<BatchOf<T>>>,
    pub view: T::View,
    /// Where the result on screen came from, and what the running load reads.
    pub source: Source,
    pending_source: Source,
    /// The files the URL named, while they download.
    fetching: Option<crate::web::dom::Preload>,
    /// A drill-down was asked and has not been answered.
    detail_pending: bool,
    /// The running job reads new inputs (files, the demo, the URL's files).
    fresh: bool,
    /// The last rescoring handed over ([`Tool::handoff`]).
    last_handoff: Option<u32>,
    last_drop: Option<u32>,
    state: PageState,
}

/// Builds the callbacks of a page's fields.
pub struct Ui<T: Tool> {
    link: Scope<ToolPage<T>>,
    open: Callback<(super::Page, Vec<SourceFile>)>,
    /// Hands a rescoring to the comparison page (`(report, label)`).
    pub use_rescoring: Callback<(crate::web::components::ReportRef, String)>,
}

impl<T: Tool> Ui<T> {
    /// Opens `page` with `files` (the shell switches to it and hands them over as a drop).
    pub fn open_on(&self, page: super::Page, files: Vec<SourceFile>) -> Callback<MouseEvent> {
        let open = self.open.clone();
        Callback::from(move |_: MouseEvent| open.emit((page, files.clone())))
    }

    fn edit<E: 'static, V: 'static>(
        &self,
        apply: bool,
        read: fn(&E) -> V,
        set: impl Fn(&mut T::Draft, V) + 'static,
    ) -> Callback<E> {
        let set = Rc::new(set);
        self.link.callback(move |e: E| {
            let v = read(&e);
            let set = set.clone();
            let edit: Edit<T::Draft> = Box::new(move |d| set(d, v));
            if apply { Msg::EditApply(edit) } else { Msg::Edit(edit) }
        })
    }

    /// A text field that follows every keystroke.
    pub fn on_text(&self, set: impl Fn(&mut T::Draft, String) + 'static) -> Callback<InputEvent> {
        self.edit(false, |e: &InputEvent| e.target_unchecked_into::<HtmlInputElement>().value(), set)
    }

    pub fn on_select(&self, set: impl Fn(&mut T::Draft, String) + 'static) -> Callback<Event> {
        self.edit(false, |e: &Event| e.target_unchecked_into::<HtmlSelectElement>().value(), set)
    }

    /// A select whose change re-runs the analysis at once.
    pub fn on_select_apply(&self, set: impl Fn(&mut T::Draft, String) + 'static) -> Callback<Event> {
        self.edit(true, |e: &Event| e.target_unchecked_into::<HtmlSelectElement>().value(), set)
    }

    pub fn on_check(&self, set: impl Fn(&mut T::Draft, bool) + 'static) -> Callback<Event> {
        self.edit(false, |e: &Event| e.target_unchecked_into::<HtmlInputElement>().checked(), set)
    }

    /// A callback that changes the draft with a field's text (no new analysis).
    pub fn on_value(&self, set: impl Fn(&mut T::Draft, String) + 'static) -> Callback<String> {
        self.edit(false, |v: &String| v.clone(), set)
    }

    /// A button that changes the draft (no new analysis).
    pub fn on_click(&self, set: impl Fn(&mut T::Draft) + 'static) -> Callback<MouseEvent> {
        let set = Rc::new(set);
        self.link.callback(move |_: MouseEvent| {
            let set = set.clone();
            Msg::Edit(Box::new(move |d| set(d)))
        })
    }

    /// A callback that changes the draft with its value and analyses again at once.
    pub fn apply_with<V: 'static>(&self, set: impl Fn(&mut T::Draft, V) + 'static) -> Callback<V> {
        let set = Rc::new(set);
        self.link.callback(move |v: V| {
            let set = set.clone();
            Msg::EditApply(Box::new(move |d| set(d, v)))
        })
    }

    /// The files table's role switcher ([`role_files`]): the file is taken as the role chosen.
    pub fn on_role(&self) -> Callback<(String, FileRole)> {
        self.link.callback(|(name, role)| Msg::Role(name, role))
    }

    /// A select that changes how results are shown (no new analysis).
    pub fn on_view(&self, set: impl Fn(&mut T::View, String) + 'static) -> Callback<Event> {
        let set = Rc::new(set);
        self.link.callback(move |e: Event| {
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            let set = set.clone();
            Msg::View(Box::new(move |view| set(view, v)))
        })
    }

    /// A callback that changes how results are shown with its value (no new analysis).
    pub fn view_with<V: 'static>(&self, set: impl Fn(&mut T::View, V) + 'static) -> Callback<V> {
        let set = Rc::new(set);
        self.link.callback(move |v: V| {
            let set = set.clone();
            Msg::View(Box::new(move |view| set(view, v)))
        })
    }

    /// A callback that asks a drill-down of the result on screen (if any): `ask` notes the
    /// selection in the view and names the question (none: nothing to ask).
    pub fn ask<V: 'static>(
        &self,
        ask: impl Fn(&mut T::View, Option<&BatchOf<T>>, V) -> Option<DetailOf<T>> + 'static,
    ) -> Callback<V> {
        let ask = Rc::new(ask);
        self.link.callback(move |v: V| {
            let ask = ask.clone();
            Msg::Ask(Box::new(move |view, batch| ask(view, batch, v)))
        })
    }

    /// Opens a page with files found later (unpacked from an archive): the shell's callback.
    pub fn opener(&self) -> Callback<(super::Page, Vec<SourceFile>)> {
        self.open.clone()
    }

    /// A button that changes how results are shown.
    pub fn on_view_click(&self, set: impl Fn(&mut T::View) + 'static) -> Callback<MouseEvent> {
        let set = Rc::new(set);
        self.link.callback(move |_: MouseEvent| {
            let set = set.clone();
            Msg::View(Box::new(move |view| set(view)))
        })
    }

    /// Every field of a request declared by [`crate::fields!`], as the form's inputs
    /// (`#{prefix}-{field-name}`), editing the part of the draft `get` returns.
    pub fn fields_form<R: crate::fields::Fields + 'static>(
        &self,
        prefix: &str,
        draft: &FieldDraft<R>,
        get: fn(&mut T::Draft) -> &mut FieldDraft<R>,
    ) -> Html {
        self.fields_form_with(prefix, draft, get, &[], &[])
    }

    /// [`Ui::fields_form`] without the fields named in `drawn` (the page draws them itself),
    /// and with the input ids of `ids` (`(field, id)`) where the generated id is another
    /// element's. The fields of how rows become cells ([`crate::cells::CellSettings`]) are
    /// drawn last, in their own "Cells" fieldset (`#{prefix}-cells-{field-name}`).
    pub fn fields_form_with<R: crate::fields::Fields + 'static>(
        &self,
        prefix: &str,
        draft: &FieldDraft<R>,
        get: fn(&mut T::Draft) -> &mut FieldDraft<R>,
        drawn: &[&str],
        ids: &[(&str, &str)],
    ) -> Html {
        let input = |f: &'static crate::fields::Field, prefix: &str| {
            let name = f.name;
            let on_text = self.edit(false, |v: &String| v.clone(), move |d, v| get(d).set(name, v));
            field_input(field_id(prefix, f, ids), f, draft.text(f.name), on_text)
        };
        let is_cell = |f: &&'static crate::fields::Field| {
            <crate::cells::CellSettings as crate::fields::Fields>::OWN.iter().any(|c| c.name == f.name)
        };
        let (cells, own): (Vec<_>, Vec<_>) =
            R::fields().into_iter().filter(|f| !drawn.contains(&f.name)).partition(is_cell);
        let cells_prefix = format!("{prefix}-cells");
        html! {
            <>
                { for own.into_iter().map(|f| input(f, prefix)) }
                if !cells.is_empty() {
                    <fieldset class="cells-fields">
                        <legend title="how rows become cells: a column that varies within a cell is a key (one cell per value) unless pooled">{ "Cells" }</legend>
                        { for cells.into_iter().map(|f| input(f, &cells_prefix)) }
                    </fieldset>
                }
            </>
        }
    }

    /// `<div class="field">` with a label and a text input.
    pub fn text_field(
        &self,
        id: &str,
        label: &str,
        value: &str,
        title: &str,
        set: impl Fn(&mut T::Draft, String) + 'static,
    ) -> Html {
        let title = (!title.is_empty()).then(|| title.to_string());
        html! {
            <div class="field">
                <label for={id.to_string()} title={title.clone()}>{ label.to_string() }</label>
                <input id={id.to_string()} type="text" value={value.to_string()} oninput={self.on_text(set)} {title} />
            </div>
        }
    }

    /// `<div class="field">` with a label and a select of `(value, label)` options.
    pub fn select_field(
        &self,
        id: &str,
        label: &str,
        options: &[(String, String)],
        current: &str,
        onchange: Callback<Event>,
    ) -> Html {
        html! {
            <div class="field">
                <label for={id.to_string()}>{ label.to_string() }</label>
                <select id={id.to_string()} {onchange}>
                    { for options.iter().map(|(v, l)| html! { <option value={v.clone()} selected={v == current}>{ l.clone() }</option> }) }
                </select>
            </div>
        }
    }

    /// A labelled checkbox.
    pub fn check_field(
        &self,
        id: &str,
        label: &str,
        checked: bool,
        set: impl Fn(&mut T::Draft, bool) + 'static,
    ) -> Html {
        html! {
            <div class="field checkbox">
                <label for={id.to_string()}>
                    <input type="checkbox" id={id.to_string()} {checked} onchange={self.on_check(set)} />{ format!(" {label}") }
                </label>
            </div>
        }
    }
}

/// The files a page read (`#{prefix}files tr[data-file][data-kind]`).
pub fn file_notes(prefix: &str, files: &[FileSummary]) -> Html {
    let cols = vec![
        Column::new("name", "file", |f: &FileSummary| Val::text(f.name.clone())),
        Column::new("kind", "read as", |f: &FileSummary| Val::text(f.kind.clone())),
        Column::new("records", "records", |f: &FileSummary| Val::count(f.records)),
    ];
    grid(&format!("{prefix}files"), &cols, files, |f| {
        RowAttrs::data(vec![("data-file", f.name.clone()), ("data-kind", f.kind.clone())])
    })
}

/// The files of the claims or rules page with their roles (`#{prefix}files tr[data-file]
/// [data-role][data-detected]`), each with a select to take it as something else
/// (`select[data-file]`), and its SHA-256.
pub fn role_files(
    prefix: &str,
    files: &[FileSummary],
    allowed: &[FileRole],
    on_role: Callback<(String, FileRole)>,
) -> Html {
    html! {
        <Explore>
        <table id={format!("{prefix}files")} class="compact">
            <thead><tr>
                <th scope="col">{ "file" }</th><th scope="col">{ "taken as" }</th><th scope="col">{ "records" }</th>
                <th scope="col" title="SHA-256 of the file's bytes">{ "SHA-256" }</th>
            </tr></thead>
            <tbody>
            { for files.iter().map(|f| {
                let name = f.name.clone();
                let cb = on_role.clone();
                let onchange = Callback::from(move |e: Event| {
                    let v = e.target_unchecked_into::<HtmlSelectElement>().value();
                    if let Some(r) = <FileRole as crate::choice::Choice>::parse(&v) {
                        cb.emit((name.clone(), r));
                    }
                });
                html! {
                    <tr data-file={f.name.clone()} data-role={f.role.name()} data-detected={f.detected.name()}>
                        <td data-col="name"><code>{ f.name.clone() }</code></td>
                        <td data-col="role">
                            <select data-file={f.name.clone()} aria-label={format!("what {} is", f.name)} {onchange}>
                                { for allowed.iter().map(|r| html! {
                                    <option value={r.name()} selected={*r == f.role}>
                                        { r.describe() }{ if *r == f.detected && f.role != f.detected { " (detected)" } else { "" } }
                                    </option>
                                }) }
                            </select>
                        </td>
                        <td class="num" data-col="records" data-value={f.records.to_string()}>{ count(f.records) }</td>
                        <td data-col="sha256" class="hash" title={f.sha256.clone()}><code>{ f.sha256.chars().take(12).collect::<String>() }{ "…" }</code></td>
                    </tr>
                }
            }) }
            </tbody>
        </table>
        </Explore>
    }
}

impl<T: Tool> ToolPage<T> {
    /// "The same numbers as `memaudit … --format json`": the command of the result on screen,
    /// its files (when `files`; else the capability's first file option) and every setting
    /// that differs from its default ([`crate::command_line::twin`]), or, before a result, the
    /// command's shape (`#{prefix}cli-twin`).
    pub fn cli_twin(&self, files: bool) -> Html {
        let request = self.applied.as_ref().and_then(|d| T::request(d).ok());
        let command = match (&self.batch, request) {
            (Some(b), Some(r)) => {
                crate::command_line::twin::<T::Capability>(&r, if files { &b.inputs[..] } else { &[] })
            }
            _ => format!("{} \u{2026}", crate::command_line::twin::<T::Capability>(&Default::default(), &[])),
        };
        let tables = <<T::Capability as Capability>::Table as crate::choice::Choice>::names();
        html! { <>{ "The same numbers as " }<code id={format!("{}cli-twin", Self::prefix())}>{ format!("{command} --format json") }</code>
        { "; the CSV exports equal " }<code>{ "--format csv --table NAME" }</code>{ format!(" (NAME: {tables}).") }</> }
    }

    fn prefix() -> String {
        if T::BARE_IDS { String::new() } else { format!("{}-", <T::Capability as Capability>::ANALYSIS.slug()) }
    }

    /// The overview of the files read last (kept when a run on them failed).
    pub fn overview(&self) -> Option<&<T::Capability as Capability>::Overview> {
        self.overview.as_ref()
    }

    /// Takes a rescoring handed over by the shell, once.
    fn take_handoff(&mut self, h: Option<super::Handoff>) {
        let Some(h) = h.filter(|h| self.last_handoff != Some(h.seq)) else { return };
        self.last_handoff = Some(h.seq);
        match T::handoff(&h) {
            Some(Ok(file)) => {
                self.files = vec![file];
                T::files_changed(&mut self.draft);
                self.pending_source = Source::Handoff(h.label);
                self.start(true, "taking the rescoring's per-query rows");
            }
            Some(Err(e)) => self.job.error = Some(ErrorView::plain("Could not take the rescoring", e)),
            None => {}
        }
    }

    fn state_now(&self) -> PageState {
        let shown = self.batch.is_some() || T::shows_result(&self.view);
        PageState::of(self.job.is_busy() || self.fetching.is_some(), shown, self.job.error.is_some())
    }

    /// Asks the drill-down `question` under the settings of the result on screen (before one:
    /// the settings as edited, or the defaults).
    fn ask(&mut self, question: Option<DetailOf<T>>) {
        let Some(q) = question else { return };
        let request = self.applied.as_ref().or(Some(&self.draft)).and_then(|d| T::request(d).ok()).unwrap_or_default();
        self.detail_pending = self.job.detail(&request, &q).is_some();
    }

    /// Runs the draft's request on the page's files (`files`) or the kept inputs.
    fn start(&mut self, files: bool, stage: &str) {
        let request = match T::request(&self.draft) {
            Ok(r) => r,
            Err(e) => {
                self.job.error = Some(ErrorView::plain("Invalid setting", e));
                return;
            }
        };
        let roles = self.roles.clone();
        // Files stated under other roles are read again.
        let files = files || self.sent_roles.as_ref().is_some_and(|r| *r != roles);
        let inputs = files.then(|| files_with_roles(&self.files, |name| roles.get(name).copied()));
        if self.job.run(inputs, &request, stage).is_some() && files {
            self.sent_roles = Some(roles);
            self.fresh = true;
        }
    }

    /// Runs the draft's request on the page's built-in demo (the files dropped so far are set
    /// aside: the demo replaces them).
    fn load_demo(&mut self) {
        T::files_changed(&mut self.draft);
        let request = match T::request(&self.draft) {
            Ok(r) => r,
            Err(e) => {
                self.job.error = Some(ErrorView::plain("Invalid setting", e));
                return;
            }
        };
        self.files.clear();
        if self.job.run(Some(Inputs::Demo), &request, "loading the demo").is_some() {
            self.sent_roles = Some(self.roles.clone());
            self.pending_source = Source::Demo;
            self.fresh = true;
        }
    }

    fn analyse_files(&mut self) {
        if !self.files.is_empty() {
            self.start(true, "reading");
        }
    }

    fn apply(&mut self) {
        if self.batch.is_none() {
            self.analyse_files();
        } else {
            self.start(false, "analysing");
        }
    }

    fn on_response(&mut self, r: Response) -> bool {
        match self.job.on_response(r, &mut self.files, self.batch.is_some(), "files") {
            JobEvent::Ignored => false,
            JobEvent::Progress => true,
            JobEvent::Done { outcome, timing } => {
                let mut outcome = *outcome;
                let fresh = std::mem::take(&mut self.fresh);
                if fresh {
                    self.source = self.pending_source.clone();
                }
                if let Some(o) = outcome.overview {
                    T::overview_read(&mut self.draft, &mut self.view, &o);
                    self.overview = Some(o);
                }
                if let Some(overview) = self.overview.clone() {
                    T::in_page_words(&mut outcome.report);
                    // Computed by the worker with the report ([`crate::capability::Outcome::headlines`]);
                    // a setting they mention is named by its label on this page.
                    let fields = <T::Capability as Capability>::fields();
                    let word = |n: &str| crate::web::components::fields::page_word(&fields, n);
                    let headlines = Rc::new(
                        std::mem::take(&mut outcome.headlines).into_iter().map(|h| h.in_words(&word)).collect(),
                    );
                    let inputs = Rc::new(T::Capability::inputs(&overview, &outcome.report));
                    let batch = Rc::new(Batch { overview, report: Rc::new(outcome.report), timing, headlines, inputs });
                    let question = T::after_result(&mut self.view, &mut self.draft, &batch, fresh);
                    self.applied = Some(self.draft.clone());
                    self.batch = Some(batch);
                    self.ask(question);
                }
                true
            }
            JobEvent::Detail(d) => {
                self.detail_pending = false;
                T::on_detail(&mut self.view, Some(Ok(Rc::new(*d))));
                true
            }
            JobEvent::Failed(error, overview) => {
                if let Some(o) = overview {
                    T::overview_read(&mut self.draft, &mut self.view, &o);
                    self.overview = Some(*o);
                }
                if std::mem::take(&mut self.detail_pending)
                    && T::on_detail(&mut self.view, Some(Err(error.to_string())))
                {
                    self.job.error = None;
                }
                if !self.job.is_busy() {
                    self.fresh = false;
                }
                true
            }
        }
    }

    /// When the error sends the user to another page (a file it reads as its own), a button
    /// that opens that page with the page's files.
    fn view_elsewhere(&self, p: &str, ui: &Ui<T>) -> Html {
        let Some(there) = self.job.error.as_ref().and_then(|e| crate::web::engine::page_named_in(&e.message)) else {
            return html! {};
        };
        let files: Vec<SourceFile> = self.job.refused.iter().chain(&self.files).cloned().collect();
        if files.is_empty() || there == <T::Capability as Capability>::ANALYSIS {
            return html! {};
        }
        let label = format!(
            "Open the {} page with {}",
            crate::registry::title(there),
            if files.len() == 1 { "this file" } else { "these files" }
        );
        html! {
            <button type="button" class="secondary" id={format!("{p}open-elsewhere")} data-page={there.name()}
                onclick={ui.open_on(there, files)}>{ label }</button>
        }
    }

    fn view_intake(&self, ctx: &Context<Self>, ui: &Ui<T>) -> Html {
        let p = Self::prefix();
        let link = ctx.link();
        html! {
            <section id={format!("{p}intake")} class="card drop-zone" aria-labelledby={format!("{p}intake-title")}>
                <h2 id={format!("{p}intake-title")}>{ T::INTAKE_TITLE }</h2>
                { T::intake() }
                <div class="intake-actions">
                    { file_picker(&format!("{p}file-input"), "Choose files…", &format!("{p}privacy"), link.callback(|f| Msg::Files(FileEdit::Add(f)))) }
                    if T::FOLDERS {
                        { super::folder_picker(&format!("{p}folder-input"), "Choose a folder…", &format!("{p}privacy"), link.callback(|f| Msg::Files(FileEdit::Add(f)))) }
                    }
                    <button type="button" class="secondary" id={format!("{p}demo-button")} onclick={link.callback(|_: MouseEvent| Msg::Demo)}
                        title="synthetic example inputs built into the page: nothing is fetched">{ "Try the demo" }</button>
                    { T::intake_actions(self, ui) }
                </div>
                { file_list(&p, &self.files, link.callback(Msg::Files)) }
                <p class="muted" id={format!("{p}privacy")}>{ "Everything runs in this browser tab: your files are never uploaded." }</p>
            </section>
        }
    }

    fn view_settings(&self, ctx: &Context<Self>, ui: &Ui<T>) -> Html {
        let p = Self::prefix();
        let link = ctx.link();
        let apply = link.callback(|e: SubmitEvent| {
            e.prevent_default();
            Msg::Apply
        });
        let defaults = link.callback(|_: MouseEvent| Msg::Defaults);
        let error = T::request(&self.draft).err();
        let pending = self.applied.as_ref().is_some_and(|a| *a != self.draft);
        let (run_id, first, again) = T::RUN;
        let run = if self.batch.is_some() { again } else { first };
        html! {
            <form id={format!("{p}settings")} class="settings" onsubmit={apply} aria-labelledby={format!("{p}settings-title")}>
                <h2 id={format!("{p}settings-title")}>{ T::SETTINGS_TITLE }</h2>
                { T::settings_head(self, ui) }
                <div class="fields">{ T::settings(self, ui) }</div>
                <div class="actions">
                    <button type="submit" id={format!("{p}{run_id}")} disabled={self.job.is_busy()}>{ run }</button>
                    <button type="button" class="secondary" id={format!("{p}defaults")} onclick={defaults}>{ "Defaults" }</button>
                    if pending { <span class="pending" role="status">{ format!("Changed: press {again} to apply.") }</span> }
                </div>
                if let Some(e) = error { <p class="error" id={format!("{p}settings-error")} role="alert">{ e }</p> }
            </form>
        }
    }
}

impl<T: Tool> Component for ToolPage<T> {
    type Message = Msg<T>;
    type Properties = PageProps;

    fn create(ctx: &Context<Self>) -> Self {
        let mut page = ToolPage {
            job: Job::new(ctx.link().callback(Msg::Worker)),
            overview: None,
            sent_roles: None,
            files: Vec::new(),
            roles: BTreeMap::new(),
            draft: T::Draft::default(),
            applied: None,
            batch: None,
            view: T::View::default(),
            source: Source::None,
            pending_source: Source::None,
            fetching: None,
            detail_pending: false,
            fresh: false,
            last_handoff: None,
            last_drop: ctx.props().dropped.as_ref().map(|d| d.seq),
            state: PageState::Idle,
        };
        // `?demo#<page>`: the page opened first runs its demo.
        let startup = crate::web::dom::startup_request(<T::Capability as Capability>::ANALYSIS);
        if ctx.props().rescoring.is_some() {
            page.take_handoff(ctx.props().rescoring.clone());
        } else if ctx.props().active && startup.demo {
            page.load_demo();
        } else if let Some(x) = T::preload(&startup) {
            // A run follows the download: the worker starts loading while the files download.
            crate::web::channel::warm();
            page.fetching = Some(x.clone());
            let link = ctx.link().clone();
            wasm_bindgen_futures::spawn_local(async move {
                let fetched = x.clone().fetch().await;
                link.send_message(Msg::Preloaded(x, fetched));
            });
        }
        page
    }

    fn changed(&mut self, ctx: &Context<Self>, _old: &Self::Properties) -> bool {
        self.take_handoff(ctx.props().rescoring.clone());
        forward_drop(ctx, &mut self.last_drop, Msg::Files)
    }

    fn update(&mut self, _ctx: &Context<Self>, msg: Self::Message) -> bool {
        match msg {
            Msg::Files(edit) => {
                if matches!(edit, FileEdit::Add(_)) {
                    // Files replace a rescoring handed over; later drops add to the user's files.
                    if matches!(self.pending_source, Source::Handoff(_)) {
                        self.files.clear();
                    }
                    self.pending_source = Source::Files;
                }
                if edit.apply(&mut self.files) {
                    T::files_changed(&mut self.draft);
                    self.analyse_files();
                }
            }
            Msg::Preloaded(x, Ok(release)) => {
                self.fetching = None;
                self.pending_source = Source::Preloaded(x);
                // The manifest's title names the tab, unless the URL gave one (`?title=`).
                if let Some(title) = release.title.as_ref().filter(|_| crate::web::dom::companion().is_none())
                    && let Some(doc) = web_sys::window().and_then(|w| w.document())
                {
                    doc.set_title(&format!("{title} \u{2014} memaudit"));
                }
                add_files(&mut self.files, release.files);
                T::files_changed(&mut self.draft);
                self.analyse_files();
            }
            Msg::Preloaded(x, Err(e)) => {
                self.fetching = None;
                self.job.error = Some(ErrorView::plain(&format!("Could not load the {}", x.kind()), e));
            }
            Msg::Ask(ask) => {
                let batch = self.batch.clone();
                let question = ask(&mut self.view, batch.as_deref());
                self.ask(question);
            }
            Msg::Role(name, role) => {
                self.roles.insert(name, role);
                self.apply();
            }
            Msg::Edit(f) => f(&mut self.draft),
            Msg::EditApply(f) => {
                f(&mut self.draft);
                self.apply();
            }
            Msg::View(f) => f(&mut self.view),
            Msg::Apply => self.apply(),
            Msg::Defaults => self.draft = T::defaults(&self.draft),
            Msg::Worker(r) => return self.on_response(r),
            Msg::Cancel => {
                self.job.cancel();
                self.fresh = false;
                if std::mem::take(&mut self.detail_pending) {
                    T::on_detail(&mut self.view, None);
                }
            }
            Msg::DismissError => self.job.error = None,
            Msg::Demo => self.load_demo(),
        }
        true
    }

    fn rendered(&mut self, ctx: &Context<Self>, _first: bool) {
        let now = self.state_now();
        report_state(ctx.props(), &mut self.state, now);
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let page = <T::Capability as Capability>::ANALYSIS;
        let slug = page.slug();
        let p = Self::prefix();
        let state = self.state_now();
        let ui = Ui {
            link: ctx.link().clone(),
            open: ctx.props().on_open.clone(),
            use_rescoring: ctx.props().on_use_rescoring.clone(),
        };
        let fetching =
            self.fetching.as_ref().map(|x| super::Busy::new(0, format!("fetching the {} {}", x.kind(), x.name())));
        html! {
            <section class="page" id={format!("page-{slug}")} data-page={slug} data-state={state.name()} data-finished={self.job.finished()}
                hidden={!ctx.props().active} aria-label={page.label()}>
                <p class="tagline">{ T::tagline() }</p>
                if self.batch.is_none() {
                    { T::standalone(self, &ui) }
                }
                { self.view_intake(ctx, &ui) }
                // The settings come before a first run, and after the results once there are some.
                if self.batch.is_none() {
                    { self.view_settings(ctx, &ui) }
                }
                { super::status_bar(&p, fetching.as_ref(), None) }
                { self.job.view(&p, ctx.link().callback(|_: MouseEvent| Msg::Cancel), ctx.link().callback(|_: MouseEvent| Msg::DismissError)) }
                { self.view_elsewhere(&p, &ui) }
                if let Some(b) = &self.batch {
                    <div id={format!("{p}results")}>
                        <HeadlinesPanel id={format!("{p}headlines")} headlines={b.headlines.clone()} cards={T::CARDS}
                            exports={attach_buttons::<T::Capability, BatchOf<T>>(&p, b.clone(), |b| &b.report, b.headlines.clone(), b.inputs.clone())} />
                        <Contents id={format!("{p}contents")} root={format!("{p}results")} revision={Rc::as_ptr(b) as usize}
                            after={vec![(AttrValue::from(format!("{p}settings")), AttrValue::from("Settings"))]} />
                        { T::results(self, b, &ui) }
                        if T::PRINTED_CARD {
                            <PrintedCard<BatchOf<T>, T::Capability> prefix={p.clone()} batch={b.clone()} report={report_of::<T> as fn(&BatchOf<T>) -> &<T::Capability as Capability>::Report} />
                        }
                    </div>
                    { self.view_settings(ctx, &ui) }
                    { T::standalone(self, &ui) }
                }
                <footer class="page-foot muted">{ T::footer(self) }</footer>
            </section>
        }
    }
}
