//! The one job lifecycle of every page: start a run of the page's capability (settings checked
//! first by the core's own `validate`, so the page refuses them with the CLI's message),
//! follow its progress, take its result or its error, keep the previous result on screen when a
//! run fails, and cancel a running job (the page's worker is ended; the next run starts a new
//! one and sends the page's files again).

use std::marker::PhantomData;

use yew::prelude::*;

use super::channel::Channel;
use super::pages::{Busy, ErrorView, PageState, failure};
use super::protocol::{Inputs, JobFile, JobId, Payload, Request, Response, SourceFile, Timing};
use crate::capability::{Capability, FileRole, Outcome, Validate};
use crate::error::Error;

/// What a response means for the page.
pub enum JobEvent<C: Capability> {
    /// Not this page's current job (superseded), or nothing to show.
    Ignored,
    /// Progress of the running job (the status bar changed).
    Progress,
    /// A run finished.
    Done { outcome: Box<Outcome<C::Overview, C::Report>>, timing: Timing },
    /// A drill-down's answer.
    Detail(Box<C::DetailView>),
    /// The run or drill-down failed: the error box is set ([`Job::error`]); the error itself, for
    /// pages that show more of it (a comparison's pairing report), and the overview of new files
    /// that were read and kept though the run failed on its settings.
    Failed(Box<Error>, Option<Box<C::Overview>>),
}

/// A page's jobs: its worker, the running job and the error on screen.
pub struct Job<C: Capability> {
    channel: Channel,
    next: JobId,
    busy: Option<Busy>,
    detail_job: Option<JobId>,
    /// The error box.
    pub error: Option<ErrorView>,
    /// The files the last error took off the page's list (the file it names), kept to open on
    /// the page that reads them.
    pub refused: Vec<SourceFile>,
    /// The inputs of the last run the worker accepted, sent again after the worker was reset.
    last_inputs: Option<Inputs>,
    /// The inputs of the running job.
    running_inputs: Option<Inputs>,
    /// The worker holds the inputs of the last successful run.
    worker_has_inputs: bool,
    /// Runs that have ended, with results or an error (`data-finished` on the page: a test
    /// waits for the run it started, whatever the page showed before).
    finished: u32,
    _c: PhantomData<C>,
}

impl<C: Capability> Job<C> {
    /// Every response of the page's worker goes to `on_response` (then to [`Job::on_response`]).
    pub fn new(on_response: Callback<Response>) -> Self {
        Job {
            channel: Channel::new(on_response),
            next: 0,
            busy: None,
            detail_job: None,
            error: None,
            refused: Vec::new(),
            last_inputs: None,
            running_inputs: None,
            worker_has_inputs: false,
            finished: 0,
            _c: PhantomData,
        }
    }

    /// How many runs have ended (`data-finished`).
    pub fn finished(&self) -> String {
        self.finished.to_string()
    }

    /// Ends the running job, if any (counted in [`Self::finished`]); whether one was running.
    fn end_run(&mut self) -> bool {
        let was_running = self.busy.take().is_some();
        self.finished += u32::from(was_running);
        was_running
    }

    pub fn busy(&self) -> Option<&Busy> {
        self.busy.as_ref()
    }

    pub fn is_busy(&self) -> bool {
        self.busy.is_some()
    }

    /// Whether a run has succeeded whose inputs the next run may reuse.
    pub fn has_inputs(&self) -> bool {
        self.last_inputs.is_some()
    }

    fn next_job(&mut self) -> JobId {
        self.next = self.next.wrapping_add(1);
        self.next
    }

    /// Starts a run on `inputs` (`None`: the inputs of the last run). Invalid settings are
    /// refused here with the core's message and nothing is sent. Returns the job, if started.
    pub fn run(&mut self, inputs: Option<Inputs>, request: &C::Request, stage: &str) -> Option<JobId> {
        if let Err(e) = request.validate() {
            self.error = Some(ErrorView::from_error_in(&e, &C::fields()));
            return None;
        }
        let inputs = match inputs {
            Some(i) => i,
            None if self.worker_has_inputs => Inputs::Kept,
            None => match &self.last_inputs {
                Some(i) => i.clone(),
                None => {
                    self.error = Some(ErrorView::from_error(&Error::Empty(
                        "no data loaded yet: drop files or try the demo first".into(),
                    )));
                    return None;
                }
            },
        };
        let payload = match Payload::pack(request) {
            Ok(p) => p,
            Err(message) => {
                self.error = Some(ErrorView::plain("Could not send the settings", message));
                return None;
            }
        };
        let job = self.next_job();
        self.busy = Some(Busy::new(job, stage));
        self.error = None;
        self.running_inputs = Some(inputs.clone());
        self.channel.send(&Request::Run {
            job,
            page: C::ANALYSIS,
            inputs,
            request: payload,
            limits: super::limits::current(),
        });
        Some(job)
    }

    /// Asks a drill-down of the kept inputs (needs a successful run first, except for questions
    /// that need no inputs).
    pub fn detail(&mut self, request: &C::Request, detail: &C::Detail) -> Option<JobId> {
        if let Err(e) = request.validate() {
            self.error = Some(ErrorView::from_error_in(&e, &C::fields()));
            return None;
        }
        let (Ok(request), Ok(detail)) = (Payload::pack(request), Payload::pack(detail)) else {
            return None;
        };
        let job = self.next_job();
        self.detail_job = Some(job);
        self.channel.send(&Request::Detail { job, page: C::ANALYSIS, request, detail });
        Some(job)
    }

    /// Cancels the running job: its worker is ended (the results on screen stay; the next run
    /// sends the page's inputs to a new worker).
    pub fn cancel(&mut self) {
        if self.busy.take().is_none() && self.detail_job.is_none() {
            return;
        }
        self.detail_job = None;
        self.running_inputs = None;
        self.channel.reset();
        self.worker_has_inputs = false;
        self.error = Some(ErrorView::plain("Cancelled", "The job was stopped; the results on screen are from before."));
    }

    /// What `r` means for the page. `files` are the page's files (one that cannot be read is
    /// taken out), `has_results` whether results are on screen, `what` the page's inputs in
    /// words (for "the results below are from the previous …").
    pub fn on_response(
        &mut self,
        r: Response,
        files: &mut Vec<SourceFile>,
        has_results: bool,
        what: &str,
    ) -> JobEvent<C> {
        match r {
            Response::Ready => JobEvent::Ignored,
            Response::Undecodable { message } => {
                self.end_run();
                self.detail_job = None;
                self.error = Some(
                    ErrorView::plain("A message between the page and the worker could not be read", message).with_note(
                        "Whatever was running was stopped; results on screen are from before. Please try again.",
                    ),
                );
                JobEvent::Failed(Box::new(Error::Empty("undecodable message".into())), None)
            }
            Response::Died { message } => {
                let was_running = self.end_run() | self.detail_job.take().is_some();
                self.worker_has_inputs = false;
                self.running_inputs = None;
                self.error = Some(
                    ErrorView::plain("The page's worker stopped", message).with_note(if was_running {
                        "The job it ran is lost (it may have run out of memory). The next job starts a new worker; results on screen are from before."
                    } else {
                        "The next job starts a new worker."
                    }),
                );
                JobEvent::Failed(Box::new(Error::Empty("the worker stopped".into())), None)
            }
            Response::Progress { job, phase, stage, fraction } => match self.busy.as_mut() {
                Some(b) if b.job == job => {
                    b.phase = phase;
                    b.stage = stage;
                    b.fraction = fraction;
                    JobEvent::Progress
                }
                _ => JobEvent::Ignored,
            },
            Response::Done { job, outcome, timing } => {
                if self.busy.as_ref().is_none_or(|b| b.job != job) {
                    return JobEvent::Ignored;
                }
                self.end_run();
                match outcome.unpack::<Outcome<C::Overview, C::Report>>() {
                    Ok(o) => {
                        self.error = None;
                        self.worker_has_inputs = true;
                        if let Some(i) = self.running_inputs.take()
                            && !matches!(i, Inputs::Kept)
                        {
                            self.last_inputs = Some(i);
                        }
                        JobEvent::Done { outcome: Box::new(o), timing }
                    }
                    Err(message) => {
                        self.error = Some(ErrorView::plain("Could not read the result", message));
                        JobEvent::Failed(
                            Box::new(Error::Output { what: "the result".into(), message: String::new() }),
                            None,
                        )
                    }
                }
            }
            // A helper's answer goes to its worker, never to a page.
            Response::Intervals { .. } => JobEvent::Ignored,
            Response::Detail { job, view } => {
                if self.detail_job != Some(job) {
                    return JobEvent::Ignored;
                }
                self.detail_job = None;
                match view.unpack::<C::DetailView>() {
                    Ok(v) => JobEvent::Detail(Box::new(v)),
                    Err(message) => {
                        self.error = Some(ErrorView::plain("Could not read the answer", message));
                        JobEvent::Failed(
                            Box::new(Error::Output { what: "the answer".into(), message: String::new() }),
                            None,
                        )
                    }
                }
            }
            Response::Failed { job, error, kept_previous, overview } => {
                let is_run = self.busy.as_ref().is_some_and(|b| b.job == job);
                let is_detail = self.detail_job == Some(job);
                if !is_run && !is_detail {
                    return JobEvent::Ignored;
                }
                let overview = overview.and_then(|o| o.unpack::<C::Overview>().ok()).map(Box::new);
                if is_run {
                    self.end_run();
                    let inputs = self.running_inputs.take();
                    self.worker_has_inputs = kept_previous;
                    // The worker kept the new files: a later run may use them.
                    if overview.is_some()
                        && let Some(i) = inputs.filter(|i| !matches!(i, Inputs::Kept))
                    {
                        self.last_inputs = Some(i);
                    }
                } else {
                    self.detail_job = None;
                }
                let (view, refused) = failure(&error, kept_previous, has_results, files, what, &C::fields());
                (self.error, self.refused) = (Some(view), refused);
                JobEvent::Failed(Box::new(error), overview)
            }
        }
    }

    /// The progress bar of the running job (`#{prefix}status`), with its Cancel button
    /// (`#{prefix}cancel`).
    pub fn status_bar(&self, prefix: &str, cancel: Callback<MouseEvent>) -> Html {
        super::pages::status_bar(prefix, self.busy.as_ref(), Some(cancel))
    }

    /// The progress bar (with Cancel) and the error box (`#{prefix}error`, with Dismiss).
    pub fn view(&self, prefix: &str, cancel: Callback<MouseEvent>, dismiss: Callback<MouseEvent>) -> Html {
        html! {
            <>
                { self.status_bar(prefix, cancel) }
                { super::pages::error_box(prefix, self.error.as_ref(), dismiss) }
            </>
        }
    }

    /// The page's state (`data-state`): busy while a job runs, ready with results on screen,
    /// error when only an error is.
    pub fn state(&self, has_results: bool) -> PageState {
        PageState::of(self.is_busy(), has_results, self.error.is_some())
    }
}

/// The page's files as a run's inputs, each with the role the page states for it.
pub fn files_with_roles(files: &[SourceFile], role: impl Fn(&str) -> Option<FileRole>) -> Inputs {
    Inputs::Files(files.iter().map(|f| JobFile { file: f.clone(), role: role(&f.name) }).collect())
}

/// The page's files as a run's inputs, roles detected by the worker.
pub fn files(files: &[SourceFile]) -> Inputs {
    files_with_roles(files, |_| None)
}
