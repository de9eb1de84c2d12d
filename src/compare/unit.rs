//! Paired comparison as one capability ([`Compare`]): `memaudit compare` and the viewer's
//! comparison page.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::engine::{CompareSettings, PairItem, UnpairedArms, items_for_pair, unpaired_arms};
use super::run::{CompareError, CompareReport, RefusedComparison, compare_table, input_from_paired};
use super::table::{CompareTable, compare_latex, render_compare_text, table};
use crate::capability::nothing_loaded;
use crate::capability::prelude::*;
use crate::outcomes::instance::{ItemText, item_text};
use crate::outcomes::{
    ColumnInfo, JudgmentChoice, OutcomeFormat, OutcomeTable, OutcomeWarnings, PairingError, PairingOptions,
    ReadOptions, SourceFile, Spec, infer_spec, pair_for_test, read_outcome_files,
};
use crate::report::Table;
use crate::stats::ranks::average_ranks;

/// Paired statistics over per-item outcomes of several arms.
pub struct Compare;

/// The user's choices of the spec; whatever is `None` (or empty) is inferred from the table
/// ([`infer_spec`]) and shown with its reason.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SpecChoice {
    /// Pairing key columns.
    pub key: Option<Vec<String>>,
    /// Arm column(s), combined with `/`.
    pub arm: Option<Vec<String>>,
    /// Value column.
    pub value: Option<String>,
    /// Strata columns carried with each item.
    pub strata: Option<Vec<String>>,
    /// Judge files: the majority or the k-th judgment.
    pub judgment: Option<JudgmentChoice>,
    /// Keep only rows whose cell in each named column is one of the listed texts.
    pub filter: BTreeMap<String, Vec<String>>,
    /// Arms shown under another name (the arm as read → its name in every output).
    #[serde(default)]
    pub rename: BTreeMap<String, String>,
}

impl SpecChoice {
    /// Every field chosen: exactly `spec`.
    pub fn exactly(spec: &Spec) -> SpecChoice {
        SpecChoice {
            key: Some(spec.key.clone()),
            arm: Some(spec.arm.clone()),
            value: Some(spec.value.clone()),
            strata: Some(spec.strata.clone()),
            judgment: spec.judgment,
            filter: spec.filter.clone(),
            rename: spec.rename.clone(),
        }
    }

    /// The spec for `table`: inferred, then the choices applied over it.
    pub fn resolve(&self, table: &OutcomeTable) -> Spec {
        self.apply(&infer_spec(table))
    }

    /// The choices applied over an `inferred` spec: a chosen field replaces the inferred one,
    /// and its reason line says it was stated (the inferred reason, now wrong, is dropped).
    pub fn apply(&self, inferred: &Spec) -> Spec {
        let mut spec = inferred.clone();
        let restate = |spec: &mut Spec, field: &str, cols: &[String], extra_stale: &[&str]| {
            spec.reasons
                .retain(|r| !r.starts_with(&format!("{field} = ")) && !extra_stale.iter().any(|s| r.starts_with(s)));
            let shown = cols.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(" × ");
            spec.reasons
                .push(format!("{field} = {} (as stated)", if shown.is_empty() { "none".into() } else { shown }));
        };
        if let Some(k) = &self.key
            && (k != &inferred.key || inferred.reasons.iter().all(|r| !r.starts_with("key = ")))
        {
            spec.key = k.clone();
            restate(&mut spec, "key", k, &["no column identifies the item"]);
        }
        if let Some(a) = &self.arm
            && a != &inferred.arm
        {
            spec.arm = a.clone();
            restate(&mut spec, "arm", a, &[]);
        }
        if let Some(v) = &self.value
            && v != &inferred.value
        {
            spec.value = v.clone();
            restate(&mut spec, "value", std::slice::from_ref(v), &["no numeric or true/false column"]);
        }
        if let Some(s) = &self.strata
            && s != &inferred.strata
        {
            spec.strata = s.clone();
            restate(&mut spec, "strata", s, &[]);
        }
        if self.judgment.is_some() {
            spec.judgment = self.judgment;
        }
        for (col, vals) in &self.filter {
            spec.filter.insert(col.clone(), vals.clone());
        }
        if !self.rename.is_empty() && self.rename != inferred.rename {
            spec.reasons.retain(|r| !r.starts_with("arm `"));
            for (from, to) in &self.rename {
                spec.reasons.push(format!("arm `{from}` shown as `{to}` (as stated)"));
            }
            spec.rename = self.rename.clone();
        }
        spec
    }
}

/// `memaudit compare [--input-format F] [--item …] [--arm …] … [--aggregate …] [--bootstrap …]`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CompareRequest {
    /// Force the input format instead of detecting it.
    pub format: Option<OutcomeFormat>,
    pub spec: SpecChoice,
    pub options: PairingOptions,
    pub settings: CompareSettings,
    /// Pair rows by their order within each arm (rows without an item id), after checking that
    /// these columns agree row by row across arms (empty: the text columns that are neither arm
    /// nor value). `None`: pair by the key.
    #[serde(default)]
    pub pair_by_position: Option<Vec<String>>,
    /// Inspect logs: the credit of a `P` (partial) grade in [0, 1]; `None`: Inspect's 0.5.
    #[serde(default)]
    pub partial_credit: Option<f64>,
}

impl CompareRequest {
    /// The table and spec as the request reads them, before pairing: Inspect's `P` grades
    /// rescored with a partial credit, judgments spread into arms with `--judgment each`.
    fn read_as<'a>(&self, table: &'a OutcomeTable) -> Result<(std::borrow::Cow<'a, OutcomeTable>, Spec)> {
        use std::borrow::Cow;
        let spec = self.spec.resolve(table);
        let (table, spec) = match self.partial_credit {
            None => (Cow::Borrowed(table), spec),
            Some(credit) => {
                let (t, s) = crate::outcomes::inspect::with_partial_credit(table, &spec, credit)
                    .map_err(|message| Error::setting("partial_credit", message))?;
                (Cow::Owned(t), s)
            }
        };
        if spec.judgment == Some(JudgmentChoice::Each) {
            let (t, s) = crate::outcomes::judgments::each_judgment_as_arm(&table, &spec)
                .map_err(|message| Error::setting("judgment", message))?;
            return Ok((Cow::Owned(t), s));
        }
        Ok((table, spec))
    }

    /// The table and spec to pair: [`Self::read_as`], then with positional pairing the rows
    /// numbered within their arm and the spec keyed by `position` (refused when the order
    /// columns disagree).
    fn prepared<'a>(&self, table: &'a OutcomeTable) -> Result<(std::borrow::Cow<'a, OutcomeTable>, Spec)> {
        use std::borrow::Cow;
        let (table, spec) = self.read_as(table)?;
        match &self.pair_by_position {
            None => Ok((table, spec)),
            Some(order) => {
                let (t, s) = crate::outcomes::position::by_position(&table, &spec, order)
                    .map_err(|message| Error::Unpaired { message })?;
                Ok((Cow::Owned(t), s))
            }
        }
    }
}

impl CompareRequest {
    /// Each arm without pairing under this request's spec (the key unused), when the arm and
    /// value columns fit the table.
    /// With `per`, each arm also group by group; a `per` column the rows do not have is said in
    /// the summary's settings, and the arms are given whole.
    pub fn unpaired(&self, table: &OutcomeTable) -> Option<UnpairedArms> {
        let (read, spec) = self.read_as(table).ok()?;
        let per = self.settings.per.as_deref();
        let (values, note) = match crate::outcomes::arm_values(&read, &spec, per) {
            Ok(v) => (v, None),
            Err(e) if per.is_some() => (crate::outcomes::arm_values(&read, &spec, None).ok()?, Some(e.to_string())),
            Err(_) => return None,
        };
        // One system's file (nothing to compare) with strata (LoCoMo's question categories):
        // its result is its summary, given whole and per stratum, as its paper prints it.
        let one_arm = values.arms.len() == 1;
        let stratum =
            spec.strata.iter().find(|c| *c == "category").or_else(|| spec.strata.iter().find(|c| *c != "group"));
        let by_stratum = match stratum {
            Some(c) if per.is_none() && note.is_none() && one_arm => {
                crate::outcomes::arm_values(&read, &spec, Some(c)).ok().map(|v| (v, c.clone()))
            }
            _ => None,
        };
        let (values, grouped) = match by_stratum {
            Some((v, c)) => (v, Some(c)),
            None => (values, None),
        };
        let mut u = unpaired_arms(&values, &self.settings).ok()?;
        if let Some(n) = note {
            u.settings = format!("{}; not grouped: {n}", u.settings);
        }
        if let Some(c) = grouped {
            u.settings =
                format!("{}; one arm: also per `{c}` (the data's strata; `per` sets another column)", u.settings);
        }
        u.judges = self.judges(table);
        Some(u)
    }

    /// How often each system's judgments agree, where its items hold several verdicts (read
    /// under the spec before `judgment = each` spreads them into arms).
    pub fn judges(&self, table: &OutcomeTable) -> Vec<super::judges::JudgeAgreement> {
        let spec = self.spec.resolve(table);
        super::judges::judges_agreement(&crate::outcomes::judgments::judge_panels(table, &spec), &self.settings)
    }
}

impl Validate for CompareRequest {
    fn validate(&self) -> Result<()> {
        if let Some(p) = self.partial_credit
            && !(0.0..=1.0).contains(&p)
        {
            return Err(Error::setting("partial_credit", format!("{p}: the credit of a `P` grade must lie in [0, 1]")));
        }
        self.settings.validate()
    }
}

/// One column of the loaded table, with its first distinct texts (for filters).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ColumnView {
    pub info: ColumnInfo,
    /// Up to [`COLUMN_VALUES`] distinct texts, in first-seen order.
    pub values: Vec<String>,
}

/// How many distinct texts of a column the overview lists.
pub const COLUMN_VALUES: usize = 60;

/// The loaded outcome table as the comparison page shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableInfo {
    pub name: String,
    /// The files read, as the table holds them.
    pub files: Vec<SourceFile>,
    pub columns: Vec<ColumnView>,
    pub rows: usize,
    pub warnings: OutcomeWarnings,
    /// What `infer_spec` proposes, with its reasons.
    pub inferred: Spec,
    /// The table is a rescoring's per-query rows.
    pub from_rescoring: bool,
}

/// What the items table shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ItemSelection {
    /// The contrast a − b (a forest-plot row; `memaudit compare --items A,B`).
    Pair { a: String, b: String },
    /// One arm's values (a CD-diagram arm).
    Arm { arm: String },
    /// One item's text as the files state it, in these arms (every arm when empty): an item
    /// of the items table (`memaudit compare --show-item ITEM [--items A,B]`).
    Text { item: String, arms: Vec<String> },
}

/// One item of an arm: its value and its rank among the arms on that item (1 = best, ties
/// averaged).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ArmItem {
    pub item: String,
    pub value: f64,
    pub rank: f64,
    pub group: Option<String>,
}

/// The items behind a selection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ItemsView {
    /// [`items_for_pair`]: largest |a − b| first.
    Pair { a: String, b: String, items: Vec<PairItem> },
    /// The arm's value on every item, in item order.
    Arm { arm: String, items: Vec<ArmItem> },
    /// [`item_text`]: the item's shared cells, then each arm's rows.
    Text(ItemText),
}

/// The overview of a loaded table: files, columns with their first distinct texts, warnings
/// and the inferred spec.
pub fn table_info(table: &OutcomeTable) -> TableInfo {
    let columns = table
        .columns
        .iter()
        .map(|c| {
            let mut values: Vec<String> = Vec::new();
            for r in &table.rows {
                if values.len() >= COLUMN_VALUES {
                    break;
                }
                if let Some(v) = r.fields.get(&c.name)
                    && !values.contains(v)
                {
                    values.push(v.clone());
                }
            }
            ColumnView { info: c.clone(), values }
        })
        .collect();
    TableInfo {
        name: table.name.clone(),
        files: table.files.clone(),
        columns,
        rows: table.rows.len(),
        warnings: table.warnings.clone(),
        inferred: infer_spec(table),
        from_rescoring: table.format == OutcomeFormat::RescorePerQuery,
    }
}

/// A pairing failure as a refusal of the data (what is wrong, with the pairing report when the
/// rows could be placed), or as the error of the files or settings it is.
fn refused(e: CompareError) -> Result<(String, Option<crate::outcomes::PairingReport>), Error> {
    match e {
        CompareError::Compare(Error::Unpaired { message }) | CompareError::Pairing(PairingError::Spec(message)) => {
            Ok((message, None))
        }
        CompareError::Pairing(PairingError::Unpaired { message, report }) => Ok((message, Some(*report))),
        CompareError::Compare(e) => Err(e),
        CompareError::Pairing(PairingError::Record(e)) => Err(Error::Ingest(e)),
    }
}

/// A pairing failure as an error value (the items behind a contrast have no report to show).
fn refusal(e: CompareError) -> Error {
    refused(e).map_or_else(|e| e, |(message, _)| Error::Unpaired { message })
}

/// Share of a run given to pairing (the rest is the comparison).
const PAIR_SHARE: f64 = 0.05;

/// A comparison's inputs carry their role from the table's files.
impl crate::capability::FilesRead for TableInfo {}

impl Capability for Compare {
    const ANALYSIS: Analysis = Analysis::Compare;
    const TITLE: &'static str = "Paired comparison";
    const ABOUT: &'static str =
        "Paired statistics over per-item outcomes of several arms (intervals, contrasts, Friedman/Nemenyi).";
    const ROLES: &'static [FileRole] = &[FileRole::Outcomes];
    const DEMO: &'static [Demo] = &[Demo::new("outcomes.csv", "static/demo/compare/outcomes.csv")];

    crate::capability_types!(
        request: CompareRequest, loaded: OutcomeTable, overview: TableInfo,
        report: CompareReport, table: CompareTable, detail: ItemSelection => ItemsView
    );

    /// The outcome files of one benchmark's own layouts (Inspect logs, judge files, LoCoMo
    /// answer files, MTEL-Mem records, memaudit per-query rows); any other table of outcomes is
    /// generic. Files of one layout (and, for tables, the same columns) are compared together.
    fn recognise(s: &crate::ingest::sniff::Sniff<'_>) -> Option<crate::capability::Recognised> {
        use crate::capability::{Fit, Recognised};
        use crate::ingest::sniff::Shape;
        use crate::outcomes::OutcomeFormat;
        if s.shape == Shape::Zip {
            let bytes = s.file.bytes().ok()?;
            let inspect = memchr::memmem::find(&bytes, b"header.json").is_some()
                || memchr::memmem::find(&bytes, b"_journal/start.json").is_some();
            return inspect.then(|| {
                let task = crate::outcomes::inspect::task_of_archive(&bytes, s.file.limits());
                Recognised::new(FileRole::Outcomes, Fit::Specific, OutcomeFormat::InspectLog.describe())
                    .by_layout(OutcomeFormat::InspectLog.name())
                    .by_task(task)
            });
        }
        let format = crate::outcomes::detect_outcome_format(&s.file.name, s.text.as_deref()?, s.file.limits()).ok()?;
        // Inspect logs of different tasks are different benchmarks: one comparison per task.
        let task = match format {
            OutcomeFormat::InspectLog => match &s.doc {
                Some(doc) => crate::outcomes::inspect::task_of_log(doc),
                None => s.text.as_deref().and_then(crate::outcomes::inspect::task_in_head),
            },
            _ => None,
        };
        let fit = match format {
            OutcomeFormat::InspectLog
            | OutcomeFormat::JudgeFile
            | OutcomeFormat::LocomoAnswers
            | OutcomeFormat::MtelRecords
            | OutcomeFormat::MtelTrace
            | OutcomeFormat::RescorePerQuery => Fit::Specific,
            OutcomeFormat::ReclaimEval | OutcomeFormat::WideCsv | OutcomeFormat::LongCsv | OutcomeFormat::LongJson => {
                // A table with a column named like a value (or one column per arm).
                let named = s.columns().iter().any(|c| crate::outcomes::spec::is_value_name(c));
                if !named && !matches!(format, OutcomeFormat::WideCsv | OutcomeFormat::ReclaimEval) {
                    return None;
                }
                if not_outcomes(s, format).is_err() {
                    return None;
                }
                Fit::Generic
            }
        };
        let r = Recognised::new(FileRole::Outcomes, fit, format.describe());
        Some(if fit == Fit::Generic { r.by_columns(s) } else { r }.by_layout(format.name()).by_task(task))
    }

    /// A long table whose columns named like a value hold text, a wide one whose columns name
    /// statistics ([`not_outcomes`]).
    fn declines(s: &crate::ingest::sniff::Sniff<'_>) -> Option<String> {
        let format = crate::outcomes::detect_outcome_format(&s.file.name, s.text.as_deref()?, s.file.limits()).ok()?;
        not_outcomes(s, format).err().flatten()
    }

    /// Several files are concatenated with a `file` column.
    fn load(files: &[RoleFile], request: &CompareRequest, progress: Progress<'_>) -> Result<OutcomeTable> {
        if files.is_empty() {
            return Err(Error::Empty("no outcome files were given".into()));
        }
        progress(Phase::Reading, "reading outcome files", 0.0);
        let inputs: Vec<InputFile> = files.iter().map(|f| f.file.clone()).collect();
        let refs: Vec<&RoleFile> = files.iter().collect();
        let (table, hashes) = crate::capability::fingerprints_while(&refs, || {
            read_outcome_files(&inputs, &ReadOptions { format: request.format })
        });
        let mut table = table?;
        for (f, sha256) in files.iter().zip(hashes?) {
            if let Some(s) = table.files.iter_mut().find(|s| s.name == f.file.name) {
                s.sha256 = sha256;
            }
        }
        Ok(table)
    }

    fn reload(old: &CompareRequest, new: &CompareRequest) -> bool {
        old.format != new.format
    }

    fn overview(table: &OutcomeTable) -> TableInfo {
        table_info(table)
    }

    /// A refused pairing is a report: what is wrong (citing the files read), the pairing report
    /// when the rows could be placed, and each arm's interval without pairing.
    fn run(table: &OutcomeTable, request: &CompareRequest, progress: Progress<'_>) -> Result<CompareReport> {
        let compared = (|| -> Result<_, CompareError> {
            let (prepared, spec) = request.prepared(table)?;
            progress(Phase::Pairing, "pairing items across arms", 0.0);
            let (out, _) = compare_table(&prepared, &spec, &request.options, &request.settings, &mut |stage, f| {
                progress(Phase::Comparing, stage, PAIR_SHARE + (1.0 - PAIR_SHARE) * f.clamp(0.0, 1.0));
            })?;
            Ok(out)
        })();
        let (message, pairing) = match compared {
            Ok(mut out) => {
                out.comparison.judges = request.judges(table);
                return Ok(CompareReport::Compared(Box::new(out)));
            }
            Err(e) => refused(e)?,
        };
        let names: Vec<String> = table.files.iter().map(|f| f.name.clone()).collect();
        Ok(CompareReport::Refused(Box::new(RefusedComparison {
            message: crate::capability::cite_files(&message, &names),
            pairing,
            unpaired: request.unpaired(table),
        })))
    }

    /// The items behind a contrast (largest |a − b| first) or an arm (item order, with the
    /// arm's rank on each item) under `request`.
    fn detail(table: Option<&OutcomeTable>, request: &CompareRequest, selection: &ItemSelection) -> Result<ItemsView> {
        let table = table.ok_or_else(nothing_loaded)?;
        let (table, spec) = request.prepared(table)?;
        let paired = pair_for_test(&table, &spec, &request.options).map_err(|e| refusal(CompareError::Pairing(e)))?;
        let input = input_from_paired(&paired, &request.settings.resampling)?;
        let arm = |name: &str| {
            input.arms.iter().position(|a| a == name).ok_or_else(|| {
                Error::setting("items", format!("the comparison has no arm `{name}` (arms: {})", input.arms.join(", ")))
            })
        };
        Ok(match selection {
            ItemSelection::Pair { a, b } => {
                ItemsView::Pair { a: a.clone(), b: b.clone(), items: items_for_pair(&input, arm(a)?, arm(b)?) }
            }
            ItemSelection::Arm { arm: name } => {
                let j = arm(name)?;
                let sign = if request.settings.higher_is_better { -1.0 } else { 1.0 };
                let items = input
                    .items
                    .iter()
                    .enumerate()
                    .filter_map(|(i, item)| {
                        let row = input.values.get(i)?;
                        let keyed: Vec<f64> = row.iter().map(|v| sign * v).collect();
                        let rank = *average_ranks(&keyed).get(j)?;
                        Some(ArmItem {
                            item: item.clone(),
                            value: *row.get(j)?,
                            rank,
                            group: input.groups.as_ref().and_then(|g| g.get(i).cloned()),
                        })
                    })
                    .collect();
                ItemsView::Arm { arm: name.clone(), items }
            }
            ItemSelection::Text { item, arms } => {
                for a in arms {
                    arm(a)?;
                }
                let text = item_text(&table, &spec, item, arms).ok_or_else(|| {
                    let known = input.items.len();
                    let key = spec.key.join(", ");
                    Error::setting("show_item", format!("the comparison has no item `{item}` (its {known} items are named by {key}, joined with ` | `)"))
                })?;
                ItemsView::Text(text)
            }
        })
    }

    /// A refused comparison has no tables: asked for one, it is the refusal.
    fn table(report: &CompareReport, which: CompareTable) -> Result<Table> {
        match report {
            CompareReport::Compared(out) => Ok(table(&out.comparison, which)),
            // One system's file: its judges agree or not without any pairing.
            CompareReport::Refused(r)
                if which == CompareTable::Judges
                    && let Some(u) = &r.unpaired =>
            {
                Ok(Table::of(which.name(), super::judges::JUDGES, &u.judges))
            }
            CompareReport::Refused(r) => Err(r.to_error()),
        }
    }

    fn figures(report: &CompareReport) -> Vec<crate::attach::Figure> {
        match report {
            CompareReport::Compared(out) => super::figures::figures(&out.comparison, &out.pairing.value),
            CompareReport::Refused(_) => Vec::new(),
        }
    }

    fn inputs(overview: &TableInfo, _report: &CompareReport) -> Vec<crate::attach::InputInfo> {
        overview
            .files
            .iter()
            .map(|f| crate::attach::InputInfo {
                name: f.name.clone(),
                role: FileRole::Outcomes.name().to_string(),
                bytes: f.bytes as u64,
                sha256: f.sha256.clone(),
            })
            .collect()
    }

    fn headlines(report: &CompareReport) -> Vec<crate::headline::Headline> {
        match report {
            CompareReport::Compared(out) => super::headlines::headlines(out),
            CompareReport::Refused(r) => super::headlines::of_refusal(&r.message, r.unpaired.as_ref()),
        }
    }

    fn render_text(report: &CompareReport) -> String {
        let report = match report {
            CompareReport::Compared(out) => out,
            CompareReport::Refused(r) => return format!("{}\n", r.to_error()),
        };
        let mut out = format!("spec: {}\n", report.spec.describe());
        for r in &report.spec.reasons {
            out.push_str(&format!("  {r}\n"));
        }
        if report.pairing.restricted_to_complete {
            out.push_str(&format!(
                "pairing: restricted to the {} items present in every arm (of {})\n",
                report.pairing.items_used, report.pairing.n_items
            ));
        }
        out.push_str(&render_compare_text(&report.comparison));
        out.push_str(&super::judges::render_judges(&report.comparison.judges));
        out
    }

    fn latex(report: &CompareReport) -> Option<String> {
        report.as_compared().map(|out| compare_latex(&out.comparison))
    }
}

/// Whether a generic table is one of outcomes for compare: `Err` when it is not, with why in
/// words when there is something to say beyond what compare needs ([`values_by_name`],
/// [`statistic_columns`]).
fn not_outcomes(
    s: &crate::ingest::sniff::Sniff<'_>,
    format: crate::outcomes::OutcomeFormat,
) -> Result<(), Option<String>> {
    use crate::outcomes::OutcomeFormat;
    match format {
        OutcomeFormat::LongCsv | OutcomeFormat::LongJson => values_by_name(s, format),
        OutcomeFormat::WideCsv => statistic_columns(s.columns()),
        _ => Ok(()),
    }
}

/// The words that name a summary statistic, not a system.
const STATISTICS: &[&str] =
    &["avg", "average", "mean", "var", "variance", "std", "stdev", "stddev", "sd", "median", "count"];

/// A wide table whose columns past the first name summary statistics (MemSim's data card:
/// `Index, Trajectories, Messages, Questions, TPM (avg.), TPM (var.)`) holds one summary per
/// row, not one outcome per item and system: its columns are not arms.
fn statistic_columns(columns: &[String]) -> Result<(), Option<String>> {
    let named: Vec<&String> = columns
        .iter()
        .skip(1)
        .filter(|c| {
            c.split(|ch: char| !ch.is_alphanumeric()).any(|w| STATISTICS.contains(&w.to_ascii_lowercase().as_str()))
        })
        .collect();
    if named.is_empty() {
        return Ok(());
    }
    let shown: Vec<String> = named.iter().take(3).map(|c| format!("`{c}`")).collect();
    Err(Some(format!(
        "not a table of outcomes for compare: its column{} {} name{} a statistic, not a system (a table of \
         summaries; compare reads one outcome per item and system)",
        if named.len() == 1 { "" } else { "s" },
        shown.join(", "),
        if named.len() == 1 { "s" } else { "" },
    )))
}

/// Whether a long table's first rows (up to 1 MiB of whole lines) give a column named like a value
/// numbers or true/false, as [`crate::outcomes::spec::infer_spec`] takes a value by its name: a
/// log whose `result` holds text and whose only flag is `isReplay` is no table of outcomes. The
/// error says which value-named columns hold text (`None`: no value-named column, nothing to
/// say beyond what compare needs). A head that does not parse alone (a JSON document cut short)
/// leaves the choice to the reader.
fn values_by_name(
    s: &crate::ingest::sniff::Sniff<'_>,
    format: crate::outcomes::OutcomeFormat,
) -> Result<(), Option<String>> {
    use crate::outcomes::{ColumnKind, ReadOptions, read_outcomes};
    let Some(head) = s.head_lines(1 << 20) else { return Err(None) };
    let head = InputFile::new(s.file.name.clone(), head.as_bytes().to_vec()).with_limits(s.file.limits());
    let Ok(t) = read_outcomes(&head, &ReadOptions { format: Some(format) }) else { return Ok(()) };
    let named: Vec<&crate::outcomes::ColumnInfo> = t
        .columns
        .iter()
        .filter(|c| crate::outcomes::spec::is_value_name(&c.name) && c.missing < t.rows.len())
        .collect();
    if named.iter().any(|c| c.kind != ColumnKind::Text) {
        return Ok(());
    }
    if named.is_empty() {
        // No value-named column in the first rows: nothing to say beyond what compare needs.
        return Err(None);
    }
    let texts: Vec<String> = named
        .iter()
        .take(3)
        .map(|c| format!("`{}` holds text: {}", c.name, crate::outcomes::spec::preview(&t, &c.name, 4)))
        .collect();
    Err(Some(format!(
        "not a table of outcomes for compare: no column named like a value holds numbers or true/false ({}); \
         give compare the value column by hand",
        texts.join("; ")
    )))
}
