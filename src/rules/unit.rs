//! Pre-registered rules as one capability ([`Rules`]): `memaudit rules` and the viewer's rules
//! page. Each file is the rule registry, named values, a `git log` export or a data file to
//! fingerprint by its content ([`detect_file_role`]) unless the caller states it.

use serde::{Deserialize, Serialize};

use super::registry::{EvalContext, GitLog, Rule, RulesReport, SourceInfo, evaluate, read_rules, read_values};
use super::role::detect_file_role;
use super::table::{RulesTable, table};
use super::text;
use super::time::parse_time;
use crate::capability::of_role;
use crate::capability::prelude::*;

/// Pre-registered rules evaluated into verdicts with margins and a temporal-integrity check.
pub struct Rules;

crate::fields! {
    /// The rules' settings.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub struct RulesRequest {
        evaluated_at: Option<String> = None, label "evaluated at",
            help "The time stamped on every verdict, ISO 8601 (e.g. 2026-11-22T00:00:00Z; empty: now, UTC).";
    }
}

impl Validate for RulesRequest {
    fn validate(&self) -> Result<()> {
        match &self.evaluated_at {
            Some(t) if parse_time(t).is_none() => Err(Error::setting(
                "evaluated-at",
                format!("`{t}` is not an ISO 8601 time (e.g. 2026-11-22T00:00:00Z)"),
            )),
            _ => Ok(()),
        }
    }
}

/// The registry, values, commits and fingerprints read.
#[derive(Debug, Clone, Default)]
pub struct LoadedRules {
    pub rules: Vec<Rule>,
    pub context: EvalContext,
    pub exclusions: Vec<super::exclusions::Exclusion>,
    pub files: Vec<FileSummary>,
}

fn basename(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

impl Capability for Rules {
    const ANALYSIS: Analysis = Analysis::Rules;
    const TITLE: &'static str = "Rules";
    const ABOUT: &'static str =
        "Pre-registered rules evaluated into verdicts with margins and a temporal-integrity check.";
    const ROLES: &'static [FileRole] = &FileRole::RULES;
    const DEMO: &'static [Demo] = &[
        Demo::new("seed000_rules.json", "tests/reference/paper_fixtures/seed000_rules.json"),
        Demo::new("seed000_values.json", "tests/reference/paper_fixtures/seed000_values.json"),
        Demo::new("seed000_gitlog.txt", "tests/reference/paper_fixtures/seed000_gitlog.txt"),
    ];

    crate::capability_types!(
        request: RulesRequest, loaded: LoadedRules, overview: Vec<FileSummary>,
        report: RulesReport, table: RulesTable
    );

    fn detect(file: &InputFile) -> Result<FileRole> {
        Ok(detect_file_role(file))
    }

    /// A rule registry, named values, a `git log` export or an exclusion ledger (a data file
    /// to fingerprint is any file: not recognised).
    fn recognise(s: &crate::ingest::sniff::Sniff<'_>) -> Option<crate::capability::Recognised> {
        use crate::capability::{Fit, Recognised};
        let role = detect_file_role(s.input());
        (role != FileRole::Data).then(|| Recognised::new(role, Fit::Specific, role.describe()))
    }

    /// A data file fingerprints the sources named like it; a file given without folders (the
    /// browser's drop) also every source whose last path component is its name
    /// (`locomo-evaluation.json` → `results/v7/locomo-evaluation.json`).
    fn load(files: &[RoleFile], _request: &RulesRequest, progress: Progress<'_>) -> Result<LoadedRules> {
        progress(Phase::Reading, "reading rules, values and fingerprints", 0.0);
        let mut rules = Vec::new();
        let mut ctx = EvalContext::default();
        let mut records = vec![0usize; files.len()];
        let mut any_values = false;
        let mut exclusions = Vec::new();
        for (i, f) in files.iter().enumerate() {
            match f.role {
                FileRole::Exclusions => {
                    let e = super::exclusions::read_exclusions(&f.file)?;
                    records[i] = e.len();
                    exclusions.extend(e);
                }
                FileRole::Rules => {
                    let r = read_rules(&f.file)?;
                    records[i] = r.len();
                    rules.extend(r);
                }
                FileRole::Values => {
                    any_values = true;
                    let v = read_values(&f.file)?;
                    records[i] = v.values.len();
                    for (k, q) in v.values {
                        if ctx.values.values.insert(k.clone(), q).is_some() {
                            return Err(Error::setting(
                                "values",
                                format!("value `{k}` is defined in two values files (the second: {})", f.file.name),
                            ));
                        }
                    }
                    ctx.values.sources.extend(v.sources);
                }
                _ => records[i] = f.file.len(),
            }
        }
        // A rules or values file with none beside the others: its rules would go unchecked, or
        // its values missing, unsaid (an exclusion ledger may list none).
        crate::capability::refuse_files_without_records(
            files
                .iter()
                .zip(&records)
                .filter(|(f, _)| matches!(f.role, FileRole::Rules | FileRole::Values))
                .map(|(f, n)| (f.file.name.as_str(), *n)),
            "rules or values",
        )?;
        if rules.is_empty() {
            return Err(Error::Empty("no rule registry: give one (JSON with \"rules\")".into()));
        }
        if !any_values {
            return Err(Error::Empty("no values: give a values file (JSON with \"values\")".into()));
        }
        let logs: Vec<&RoleFile> = of_role(files, FileRole::GitLog).collect();
        match logs.as_slice() {
            [] => {}
            [f] => {
                let (text, _) = f.file.text()?;
                ctx.git = GitLog::parse(&f.file.name, &text)?;
            }
            [a, b, ..] => {
                return Err(Error::setting(
                    "files",
                    format!("two git log exports ({} and {}): keep one", a.file.name, b.file.name),
                ));
            }
        }
        let sources: Vec<String> = ctx
            .values
            .values
            .values()
            .filter_map(|q| q.source.clone())
            .chain(ctx.values.sources.keys().cloned())
            .collect();
        for f in of_role(files, FileRole::Data) {
            let name = f.file.name.as_str();
            let sha = f.file.sha256()?;
            let mut names: Vec<String> = if basename(name) == name {
                sources.iter().filter(|s| s.as_str() != name && basename(s) == name).cloned().collect()
            } else {
                Vec::new()
            };
            names.push(name.to_string());
            names.dedup();
            for n in names {
                ctx.values.sources.entry(n).or_insert_with(SourceInfo::default).sha256 = Some(sha.clone());
            }
        }
        let summaries = files
            .iter()
            .zip(records)
            .map(|(f, n)| {
                let n = if f.role == FileRole::GitLog { ctx.git.commits.len() } else { n };
                FileSummary::of(f, f.role.describe(), n)
            })
            .collect::<std::result::Result<_, _>>()?;
        Ok(LoadedRules { rules, context: ctx, exclusions, files: summaries })
    }

    fn overview(l: &LoadedRules) -> Vec<FileSummary> {
        l.files.clone()
    }

    fn run(l: &LoadedRules, request: &RulesRequest, progress: Progress<'_>) -> Result<RulesReport> {
        progress(Phase::Analysing, "evaluating the rules", 0.0);
        let mut ctx = l.context.clone();
        ctx.evaluated_at = request.evaluated_at.clone();
        let mut report = evaluate(&l.rules, &ctx);
        report.exclusions = super::exclusions::check_exclusions(&l.exclusions, &ctx, &report.verdicts);
        report.exclusions_after_results = report.exclusions.iter().filter(|e| e.status == "after_results").count();
        report.exclusion_effects =
            super::exclusions::exclusion_effects(&l.exclusions, &l.rules, &ctx, &report.verdicts);
        progress(Phase::Analysing, "done", 1.0);
        Ok(report)
    }

    crate::report_views!(table: table, headlines: super::headlines::headlines, text: text::render_text);
}
