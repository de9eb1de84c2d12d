//! The worker's logic with no browser API in it: one [`Engine`] per capability keeps the inputs
//! of the page's last successful run ([`Session`]) and runs the capability's own `run` on new
//! files, the demo or the kept inputs — the same call the CLI makes. [`Engines::run`] and
//! [`Engines::detail`] dispatch a packed request by page; [`Engines::run_unfinished`] leaves a
//! report's bootstrap intervals to compute ([`Pending`]), which the worker shares with a helper. The worker ([`super::worker`]) only
//! adds reading the browser's files and posting messages.

use serde::Serialize;

use super::protocol::Payload;
use crate::capability::{
    Analysis, Capability, FileRole, Outcome, Progress, RunError, Session, detect_roles, with_roles,
};
use crate::error::Error;
use crate::ingest::InputFile;
use crate::stats::bootstrap::Interval;
use crate::stats::deferred::MeanIntervals;

/// One file of a page's demo ([`crate::capability::Capability::DEMO`]) and where the worker
/// fetches it from (relative to the worker's script, so under `dist/`; index.html copies it
/// there).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DemoFile {
    pub name: &'static str,
    /// The committed file, relative to the repository's root.
    pub source: &'static str,
    /// Its path under `dist/`: a file of `static/demo/` at the same place under `demo/`, any
    /// other under `demo/<page>/`.
    pub url: String,
}

/// The page's demo ([`crate::capability::Capability::DEMO`]): the rescoring bundle
/// (`static/demo`, `memaudit synth --out static/demo`), the generated demos
/// (`static/demo/<page>`, `memaudit synth --page PAGE`), and the project's own reference
/// fixtures for claims, rules and the IR evaluation. The worker fetches the files when a demo
/// is asked for, so they are not in its module.
pub fn demo_sources(page: Analysis) -> Vec<DemoFile> {
    crate::registry::demo(page)
        .iter()
        .map(|d| DemoFile {
            name: d.name,
            source: d.source,
            url: match d.source.strip_prefix("static/") {
                Some(rest) if rest.starts_with("demo/") => rest.to_string(),
                _ => format!("demo/{}/{}", page.name(), d.name),
            },
        })
        .collect()
}

/// One capability's kept inputs.
pub struct Engine<C: Capability> {
    session: Session<C>,
}

impl<C: Capability> Default for Engine<C> {
    fn default() -> Self {
        Engine { session: Session::default() }
    }
}

impl<C: Capability> Engine<C> {
    /// Runs on new files (each with its stated role, else detected) or, with `None`, on the kept
    /// inputs.
    pub fn run(
        &mut self,
        files: Option<Vec<(InputFile, Option<FileRole>)>>,
        request: &C::Request,
        progress: Progress<'_>,
    ) -> crate::capability::UnfinishedResult<C> {
        match files {
            Some(files) => {
                let roles = detect_roles::<C>(&files).map_err(|e| belongs_elsewhere::<C>(e, &files))?;
                let files = with_roles(files, roles);
                self.session.run_unfinished(Some(&files), request, progress).map_err(|mut e| {
                    e.error = belongs_elsewhere_of::<C>(e.error, &files.iter().map(|f| &f.file).collect::<Vec<_>>());
                    e
                })
            }
            None => self.session.run_unfinished(None, request, progress),
        }
    }

    pub fn needs_files(&self, request: &C::Request) -> bool {
        self.session.needs_files(request)
    }

    pub fn has_data(&self) -> bool {
        self.session.has_data()
    }

    pub fn detail(&self, request: &C::Request, detail: &C::Detail) -> Result<C::DetailView, Error> {
        self.session.detail(request, detail)
    }
}

/// `Engines` and `by_page!` from the list of capabilities ([`crate::capabilities!`]).
macro_rules! engines {
    ($d:tt ; $($variant:ident $name:ident $unit:ty;)+) => {
        /// Every page's engine (a worker serves one page, but any page's request is answered).
        #[derive(Default)]
        pub struct Engines {
            $($name: Engine<$unit>,)+
        }

        /// Calls `$f::<C>(engine of page, args…)` for the page's capability.
        macro_rules! by_page {
            ($d self:ident, $d page:expr, $d f:ident, $d($d arg:expr),*) => {
                match $d page {
                    $(Analysis::$variant => $d f::<$unit>(&mut $d self.$name, $d($d arg),*),)+
                }
            };
        }
    };
}
crate::capabilities!(engines $);

/// The inputs of a run as the engine gets them.
pub enum RunInputs {
    Kept,
    Files(Vec<(InputFile, Option<FileRole>)>),
}

/// The words of an error that send the user to page `a`: `open it (#compliance)`.
fn open_there(a: Analysis) -> String {
    format!("{OPEN_THERE}{})", a.name())
}

const OPEN_THERE: &str = "open it (#";

/// The page an error message sends the user to ([`open_there`]), for the page to offer to open
/// it with the files.
pub fn page_named_in(message: &str) -> Option<Analysis> {
    let start = message.find(OPEN_THERE)? + OPEN_THERE.len();
    let end = message[start..].find(')')?;
    <Analysis as crate::choice::Choice>::parse(&message[start..start + end])
}

/// An input error about a file another page reads as its own says which page ([`crate::release::triage::elsewhere`]).
fn belongs_elsewhere<C: Capability>(e: Error, files: &[(InputFile, Option<FileRole>)]) -> Error {
    belongs_elsewhere_of::<C>(e, &files.iter().map(|(f, _)| f).collect::<Vec<_>>())
}

/// An input error about a file, or a refusal of the files as a whole, says which page reads a
/// file as its own when another does ([`crate::release::triage::elsewhere`]).
fn belongs_elsewhere_of<C: Capability>(e: Error, files: &[&InputFile]) -> Error {
    let words = |f: &InputFile, named: bool| {
        crate::release::triage::elsewhere(f, C::ANALYSIS).first().map(|(a, r)| {
            format!(
                " \u{2014} {}{} ({}), which the {} page reads: {} and drop the file there",
                if named { format!("{} is ", f.name) } else { "its content is ".to_string() },
                r.role.describe(),
                r.evidence,
                crate::registry::title(*a),
                open_there(*a)
            )
        })
    };
    match e {
        Error::Ingest(mut i) => {
            if let Some(h) = files.iter().find(|f| f.name == i.location.file).and_then(|f| words(f, false)) {
                i.message.push_str(&h);
            }
            Error::Ingest(i)
        }
        Error::Empty(m) => match files.iter().find_map(|f| words(f, true)) {
            Some(h) => Error::Empty(format!("{m}{h}")),
            None => Error::Empty(m),
        },
        other => other,
    }
}

fn undecodable(what: &str, message: String) -> Error {
    Error::Output { what: format!("the {what} from the page"), message }
}

fn pack<T: Serialize>(what: &str, value: &T) -> Result<Payload, Error> {
    Payload::pack(value).map_err(|message| Error::Output { what: what.into(), message })
}

/// Puts the intervals into a run's report and packs its `Outcome`.
type Finish = Box<dyn FnOnce(&[Option<Interval>]) -> Result<Payload, Error>>;

/// A run's result with its report's bootstrap intervals still to compute: here
/// ([`Self::compute`]) or elsewhere ([`Self::finish`] with the answers).
pub struct Pending {
    /// The intervals asked for (empty when the capability leaves none).
    pub intervals: MeanIntervals,
    finish: Finish,
}

impl Pending {
    /// The packed `Outcome` with `intervals` put in (in the order asked).
    pub fn finish(self, intervals: &[Option<Interval>]) -> Result<Payload, Error> {
        (self.finish)(intervals)
    }

    /// The packed `Outcome` with the intervals computed here.
    pub fn compute(self) -> Result<Payload, Error> {
        let intervals = self.intervals.compute();
        self.finish(&intervals)
    }
}

fn run_one<C: Capability>(
    engine: &mut Engine<C>,
    inputs: RunInputs,
    request: &Payload,
    progress: Progress<'_>,
) -> Result<Pending, RunError<Payload>> {
    let request: C::Request = request.unpack().map_err(|m| undecodable("settings", m))?;
    let files = match inputs {
        RunInputs::Kept => None,
        RunInputs::Files(f) => Some(f),
    };
    match engine.run(files, &request, progress) {
        Ok(Outcome { overview, report: mut unfinished, .. }) => Ok(Pending {
            intervals: unfinished.take_intervals(),
            finish: Box::new(move |intervals: &[Option<Interval>]| {
                let report = unfinished.finish(intervals);
                // Headlines are computed here, in the worker: the page names the settings they
                // mention in its words and shows them.
                let headlines = crate::capability::headlines_marked::<C>(&report);
                pack("the result", &Outcome { overview, report, headlines })
            }),
        }),
        Err(RunError { error, overview }) => {
            Err(RunError { error, overview: overview.and_then(|o| pack("the overview", &o).ok()) })
        }
    }
}

fn detail_one<C: Capability>(engine: &Engine<C>, request: &Payload, detail: &Payload) -> Result<Payload, Error> {
    let request: C::Request = request.unpack().map_err(|m| undecodable("settings", m))?;
    let detail: C::Detail = detail.unpack().map_err(|m| undecodable("question", m))?;
    pack("the answer", &engine.detail(&request, &detail)?)
}

fn needs_files<C: Capability>(engine: &Engine<C>, request: &Payload) -> bool {
    request.unpack::<C::Request>().is_ok_and(|r| engine.needs_files(&r))
}

fn has_data<C: Capability>(engine: &mut Engine<C>) -> bool {
    engine.has_data()
}

fn needs<C: Capability>(engine: &mut Engine<C>, request: &Payload) -> bool {
    needs_files(engine, request)
}

fn detail_mut<C: Capability>(engine: &mut Engine<C>, request: &Payload, detail: &Payload) -> Result<Payload, Error> {
    detail_one(engine, request, detail)
}

impl Engines {
    pub fn new() -> Self {
        Engines::default()
    }

    /// Runs `page`'s capability; the result is its `Outcome`, packed (a failure carries the
    /// packed overview of new files that were read and kept).
    pub fn run(
        &mut self,
        page: Analysis,
        inputs: RunInputs,
        request: &Payload,
        progress: Progress<'_>,
    ) -> Result<Payload, RunError<Payload>> {
        Ok(self.run_unfinished(page, inputs, request, progress)?.compute()?)
    }

    /// [`Self::run`] with the report's bootstrap intervals left to compute.
    pub fn run_unfinished(
        &mut self,
        page: Analysis,
        inputs: RunInputs,
        request: &Payload,
        progress: Progress<'_>,
    ) -> Result<Pending, RunError<Payload>> {
        by_page!(self, page, run_one, inputs, request, progress)
    }

    /// A drill-down of `page`'s kept inputs; the answer is its `DetailView`, packed.
    pub fn detail(&mut self, page: Analysis, request: &Payload, detail: &Payload) -> Result<Payload, Error> {
        by_page!(self, page, detail_mut, request, detail)
    }

    /// Whether `page` keeps inputs from a successful run.
    pub fn has_data(&mut self, page: Analysis) -> bool {
        by_page!(self, page, has_data,)
    }

    /// Whether running `request` needs `page`'s files again (nothing kept, or a reading option
    /// changed): the worker then reads the files it kept again.
    pub fn needs_files(&mut self, page: Analysis, request: &Payload) -> bool {
        by_page!(self, page, needs, request)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ablation::Ablation;
    use crate::answers::Answers;
    use crate::audit::Rescore;
    use crate::capability::{Outcome, assign_roles, quiet};
    use crate::claims::Claims;
    use crate::compare::Compare;
    use crate::conventions::Settings;
    use crate::ireval::TrecEval;
    use crate::probe::Probe;
    use crate::reclaim::Reclaim;
    use crate::rules::Rules;

    fn outcome<C: Capability>(payload: Payload) -> Outcome<C::Overview, C::Report> {
        payload.unpack().unwrap()
    }

    /// The page's demo as input files, read from the repository.
    fn demo_files(page: Analysis) -> Option<Vec<InputFile>> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let read = |d: &crate::capability::Demo| std::fs::read(root.join(d.source)).map(|b| InputFile::new(d.name, b));
        crate::registry::demo(page).iter().map(read).collect::<Result<_, _>>().ok()
    }

    /// Every page has a demo, each of its files is committed, and index.html copies each of
    /// them to where the worker fetches it.
    #[test]
    fn every_demo_file_is_copied_to_dist_where_the_worker_fetches_it() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let index = std::fs::read_to_string(root.join("index.html")).unwrap();
        let whole_dir =
            index.contains(r#"<link data-trunk rel="copy-dir" href="static/demo" data-target-path="demo" />"#);
        assert!(whole_dir, "index.html copies static/demo to dist/demo");
        let mut urls = std::collections::HashMap::new();
        for &page in Analysis::ALL {
            let sources = demo_sources(page);
            assert!(!sources.is_empty(), "{page} has a demo");
            for d in &sources {
                assert!(root.join(d.source).is_file(), "{page}: {} is committed", d.source);
                // A URL names one committed file (the release page's demo reuses the others').
                let first = urls.entry(d.url.clone()).or_insert(d.source);
                assert_eq!(*first, d.source, "{} names two files", d.url);
                let (dir, name) = d.url.rsplit_once('/').unwrap();
                assert_eq!(name, d.name, "{page}: the file keeps its name");
                if let Some(rest) = d.source.strip_prefix("static/demo/") {
                    assert_eq!(d.url, format!("demo/{rest}"), "{page}: under dist/demo as in static/demo");
                } else {
                    let copy =
                        format!(r#"<link data-trunk rel="copy-file" href="{}" data-target-path="{dir}" />"#, d.source);
                    assert!(index.contains(&copy), "index.html lacks {copy}");
                }
            }
        }
    }

    #[test]
    fn the_demo_runs_kept_inputs_rerun_and_results_round_trip() {
        let mut e = Engines::new();
        let fast = Settings { bootstrap: 200, ..Settings::default() };
        let files = demo_files(Analysis::Rescore).unwrap().into_iter().map(|f| (f, None)).collect();
        let mut fractions = Vec::new();
        let mut stages = Vec::new();
        let first = e
            .run(Analysis::Rescore, RunInputs::Files(files), &Payload::pack(&fast).unwrap(), &mut |_, s, f| {
                fractions.push(f);
                stages.push(s.to_string());
            })
            .unwrap();
        assert!(fractions.windows(2).all(|w| w[1] >= w[0] - 1e-12), "progress never goes back");
        // The last stage names the intervals the worker then computes (the result ends the job).
        assert!(stages.last().is_some_and(|s| s.ends_with(" bootstrap intervals")), "{stages:?}");
        assert!(fractions.last().is_some_and(|f| *f > 0.5 && *f < 1.0));
        let first = outcome::<Rescore>(first);
        let overview = first.overview.unwrap();
        assert_eq!(overview.queries.len(), first.report.reading.counts.queries);
        // The same report as the CLI's call, after the MessagePack round trip.
        let direct = crate::capability::run_once::<Rescore>(
            &assign_roles::<Rescore>(demo_files(Analysis::Rescore).unwrap().into_iter().map(|f| (f, None)).collect())
                .unwrap(),
            &fast,
            &mut quiet(),
        )
        .unwrap()
        .1;
        assert_eq!(first.report, direct);
        // Kept inputs, other settings: no overview, other numbers.
        let k5 = Settings { k: 5, ..fast.clone() };
        let again = outcome::<Rescore>(
            e.run(Analysis::Rescore, RunInputs::Kept, &Payload::pack(&k5).unwrap(), &mut quiet()).unwrap(),
        );
        assert!(again.overview.is_none());
        assert_eq!(again.report.settings.k, 5);
        assert!(e.has_data(Analysis::Rescore) && !e.has_data(Analysis::Compare));
    }

    /// Every page's demo runs in the worker's engine under the page's default settings and
    /// says something in its headlines; and the worker's way (intervals left to compute, half of
    /// them on its helper) packs the same bytes as the CLI's (`run`, every interval here). Only
    /// rescoring leaves intervals, and its demo leaves enough that the viewer's demo (and its e2e
    /// tests) go through the helper. Each demo runs once for both checks, one test per capability.
    fn demo_runs_and_in_halves_gives_the_same_result<C: Capability>() {
        let files = || demo_files(C::ANALYSIS).unwrap().into_iter().map(|f| (f, None)).collect();
        let request = Payload::pack(&C::Request::default()).unwrap();
        let whole = Engines::new()
            .run(C::ANALYSIS, RunInputs::Files(files()), &request, &mut quiet())
            .unwrap_or_else(|err| panic!("{} demo: {}", C::ANALYSIS, err.error));
        let report = outcome::<C>(whole.clone()).report;
        assert!(!crate::capability::headlines::<C>(&report).is_empty(), "{} demo has headlines", C::ANALYSIS);
        let pending = Engines::new()
            .run_unfinished(C::ANALYSIS, RunInputs::Files(files()), &request, &mut quiet())
            .unwrap_or_else(|e| panic!("{}: {}", C::ANALYSIS, e.error));
        assert_eq!(!pending.intervals.is_empty(), C::SPLITS_INTERVALS, "{}", C::ANALYSIS);
        if C::SPLITS_INTERVALS {
            assert!(pending.intervals.work() >= crate::web::helper::MIN_SHARED_WORK, "{}", C::ANALYSIS);
        }
        let halves = pending.intervals.halves();
        let joined = halves.join(&halves.here.compute(), &halves.there.compute()).unwrap();
        let split = pending.finish(&joined).unwrap();
        assert!(split.len() == whole.len() && split == whole, "{}: the same packed result", C::ANALYSIS);
    }

    /// One test per capability (from the list, [`crate::capabilities!`]), so the test threads
    /// share the demos.
    macro_rules! demo_tests {
        (; $($variant:ident $name:ident $unit:ty;)+) => {
            mod every_demo_runs_with_its_defaults_and_in_halves_gives_the_same_result {
                use super::*;
                $( #[test] fn $name() { demo_runs_and_in_halves_gives_the_same_result::<$unit>() } )+
            }
        };
    }
    crate::capabilities!(demo_tests);

    #[test]
    fn invalid_settings_are_the_cores_refusal_and_keep_the_inputs() {
        let mut e = Engines::new();
        let bad = Settings { confidence: 1.5, ..Settings::default() };
        let err =
            e.run(Analysis::Rescore, RunInputs::Kept, &Payload::pack(&bad).unwrap(), &mut quiet()).unwrap_err().error;
        // Exactly what the CLI prints for --confidence 1.5 (both call the request's validate).
        assert_eq!(err, bad.validate().unwrap_err());
        assert!(err.to_string().contains("confidence"), "{err}");
        // Nothing kept: the kept-inputs run says so.
        let ok = Settings { bootstrap: 0, ..Settings::default() };
        assert!(matches!(
            e.run(Analysis::Rescore, RunInputs::Kept, &Payload::pack(&ok).unwrap(), &mut quiet()).map_err(|e| e.error),
            Err(Error::Empty(_))
        ));
        // A bad file is an error naming it; the good inputs stay kept.
        let demo = demo_files(Analysis::Rescore).unwrap().into_iter().map(|f| (f, None)).collect();
        e.run(Analysis::Rescore, RunInputs::Files(demo), &Payload::pack(&ok).unwrap(), &mut quiet()).unwrap();
        let bad_file = vec![(InputFile::new("x.jsonl", b"{\"foo\": 1}\n".to_vec()), None)];
        match e
            .run(Analysis::Rescore, RunInputs::Files(bad_file), &Payload::pack(&ok).unwrap(), &mut quiet())
            .map_err(|e| e.error)
        {
            Err(Error::Ingest(i)) => assert_eq!((i.location.file.as_str(), i.location.line), ("x.jsonl", Some(1))),
            other => panic!("{other:?}"),
        }
        assert!(e.has_data(Analysis::Rescore));
        // A request of another type is an error value, not a panic.
        assert!(matches!(
            e.run(Analysis::Rescore, RunInputs::Kept, &Payload::pack(&"x").unwrap(), &mut quiet()).map_err(|e| e.error),
            Err(Error::Output { .. })
        ));
    }

    #[test]
    fn reading_options_read_the_files_again() {
        use crate::compare::CompareRequest;
        use crate::outcomes::OutcomeFormat;
        let mut e = Engines::new();
        let csv = "item,arm,correct\nq1,a,1\nq1,b,0\nq2,a,1\nq2,b,1\nq3,a,0\nq3,b,0\n";
        let r = CompareRequest {
            settings: crate::compare::CompareSettings { bootstrap: 200, ..Default::default() },
            ..Default::default()
        };
        let files = vec![(InputFile::new("o.csv", csv.as_bytes()), None)];
        e.run(Analysis::Compare, RunInputs::Files(files), &Payload::pack(&r).unwrap(), &mut quiet()).unwrap();
        assert!(!e.needs_files(Analysis::Compare, &Payload::pack(&r).unwrap()));
        let forced = CompareRequest { format: Some(OutcomeFormat::LongCsv), ..r.clone() };
        assert!(e.needs_files(Analysis::Compare, &Payload::pack(&forced).unwrap()));
        assert!(matches!(
            e.run(Analysis::Compare, RunInputs::Kept, &Payload::pack(&forced).unwrap(), &mut quiet())
                .map_err(|e| e.error),
            Err(Error::Setting { .. })
        ));
    }

    /// Runs `page` on `files` (roles detected) and checks its outcome survives the trip to the
    /// page: equal after MessagePack, and equal to the CLI's call.
    fn round_trip<C: Capability>(page: Analysis, files: &[(&str, &str)], request: C::Request) -> C::Report {
        let mut e = Engines::new();
        let inputs =
            |f: &[(&str, &str)]| f.iter().map(|(n, t)| (InputFile::new(*n, t.as_bytes()), None)).collect::<Vec<_>>();
        let packed =
            e.run(page, RunInputs::Files(inputs(files)), &Payload::pack(&request).unwrap(), &mut quiet()).unwrap();
        let got: Outcome<C::Overview, C::Report> = packed.unpack().unwrap();
        let direct =
            crate::capability::run_once::<C>(&assign_roles::<C>(inputs(files)).unwrap(), &request, &mut quiet())
                .unwrap()
                .1;
        assert_eq!(got.report, direct, "{page}");
        assert!(got.overview.is_some(), "{page}: an overview after a load");
        got.report
    }

    #[test]
    fn every_capabilitys_result_round_trips_to_the_page() {
        use crate::ablation::{AblationRequest, AblationSettings, Gate};
        use crate::answers::AnswersRequest;
        use crate::claims::ClaimsRequest;
        use crate::compare::{CompareRequest, CompareSettings};
        use crate::probe::ProbeRequest;
        use crate::reclaim::ReclaimRequest;
        use crate::rules::RulesRequest;

        let outcomes = "item,arm,correct\nq1,a,1\nq1,b,0\nq1,c,1\nq2,a,1\nq2,b,1\nq2,c,0\nq3,a,0\nq3,b,0\nq3,c,1\n";
        let r = round_trip::<Compare>(
            Analysis::Compare,
            &[("o.csv", outcomes)],
            CompareRequest { settings: CompareSettings { bootstrap: 200, ..Default::default() }, ..Default::default() },
        );
        assert_eq!(r.as_compared().map(|c| c.comparison.arms.len()), Some(3));
        // A refused pairing is a report too, and reaches the page as one (no tag: its own keys).
        let unpaired = "item,arm,correct\nq1,a,1\nq2,a,0\nq3,a,1\nq1,b,1\nq2,b,1\n";
        let keyed = CompareRequest {
            spec: crate::compare::SpecChoice { key: Some(vec!["item".into()]), ..Default::default() },
            ..Default::default()
        };
        let r = round_trip::<Compare>(Analysis::Compare, &[("u.csv", unpaired)], keyed);
        let crate::compare::CompareReport::Refused(refused) = r else { panic!("not refused: {r:?}") };
        assert!(refused.pairing.is_some() && refused.unpaired.is_some(), "{refused:?}");

        let notes = "{\"note_id\": \"n1\", \"note\": \"You concluded $55.\", \"source\": \"notebooks at $4 each (7 bought)\", \"stale\": \"$55\", \"correct\": false}\n";
        let r = round_trip::<Probe>(
            Analysis::Probe,
            &[("n.jsonl", notes)],
            ProbeRequest { details: true, ..Default::default() },
        );
        assert!(r.details.is_some(), "optional fields survive");

        let mut trials = String::new();
        for (i, ans) in ["55", "46", "null"].iter().enumerate() {
            trials.push_str(&format!("{{\"pid\":\"p{i}\",\"seed\":0,\"policy\":\"lossy\",\"answer\":{ans},\"correct\":{},\"drift\":55,\"truth\":46}}\n", *ans == "46"));
        }
        let mut request = ReclaimRequest::default();
        request.settings.bootstrap.resamples = 200;
        round_trip::<Reclaim>(Analysis::Reclaim, &[("t.jsonl", &trials)], request);

        let answers = "{\"query_id\":\"q1\",\"gold\":[\"Paris\"],\"output\":\"paris\"}\n{\"query_id\":\"q2\",\"gold\":[\"Rome\"],\"output\":\"Answer: Rome\"}\n";
        let r = round_trip::<Answers>(
            Analysis::Answers,
            &[("a.jsonl", answers)],
            AnswersRequest {
                diff: Some((crate::answers::Profile::PaperSem, crate::answers::Profile::SquadEm)),
                ..Default::default()
            },
        );
        assert!(r.diff.is_some());

        let traces = "run,query_id,subset,rank,cosine,base_score,ablated_score\nr,q1,a,1,0.9,1,0\nr,q1,a,2,0.5,1,1\nr,q2,b,1,0.8,0,1\nr,q2,b,2,0.1,0,0\nr,q3,a,1,0.7,1,0\nr,q3,a,2,0.2,1,1\n";
        let r = round_trip::<Ablation>(
            Analysis::Ablation,
            &[("t.csv", traces)],
            AblationRequest {
                settings: AblationSettings { bootstrap: 200, gate: Gate::PILOT, ..Default::default() },
                ..Default::default()
            },
        );
        assert!(r.scoring.is_some());

        let scores = "arm,dataset,k,query_id,sem\na,d,5,q1,1\na,d,5,q2,0\nb,d,5,q1,0\nb,d,5,q2,0\na,d,10,q1,1\na,d,10,q2,1\nb,d,10,q1,1\nb,d,10,q2,0\n";
        let claims = "claim_id,kind,arms,dataset,k,metric,reported,scale\nc1,mean,a,d,5,sem,50.00,100\n";
        let r = round_trip::<Claims>(
            Analysis::Claims,
            &[("claims.csv", claims), ("scores.csv", scores)],
            ClaimsRequest { bootstrap: 200, ..Default::default() },
        );
        assert!(r.sweep.is_some(), "the K-sweep's flattened cells survive");

        let rules =
            r#"{"rules": [{"id": "early", "registered_at": "2026-05-01T09:00:00Z", "when": {"cmp": ["x", ">=", 1]}}]}"#;
        let values = r#"{"values": {"x": {"estimate": 2, "source": "results/run/x.json"}}}"#;
        round_trip::<Rules>(
            Analysis::Rules,
            &[("rules.json", rules), ("values.json", values)],
            RulesRequest { evaluated_at: Some("2026-11-22T00:00:00Z".into()) },
        );

        let qrels = "# judged\n1 0 a 2\n1 0 b 0\n2 0 c 1\n3 0 d 1\n";
        let run_a = "1 Q0 a 1 2.0 A extra\n1 Q0 b 2 1.0 A\n2 Q0 x 1 1.0 A\n3 Q0 d 1 1.0 A\n";
        let run_b = r#"{"1": {"b": 2.0, "a": 1.0}, "2": {"c": 0.5}, "3": {"d": 0.1}}"#;
        let r = round_trip::<TrecEval>(
            Analysis::TrecEval,
            &[("q.qrels", qrels), ("a.run", run_a), ("b.json", run_b)],
            crate::ireval::TrecEvalRequest {
                compare: crate::compare::CompareSettings { bootstrap: 200, ..Default::default() },
                ..Default::default()
            },
        );
        assert_eq!(r.runs.len(), 2);
        assert!(r.comparison.is_some(), "the comparison survives");
    }
}
