//! The rules page's analysis: `memaudit rules` on the page's files, each taken as the rule
//! registry, named values, a `git log` export or a data file to fingerprint by its content
//! ([`detect_file_role`]; the page may override a file's role).
//!
//! Browsers give a dropped file its name without folders, so a data file also fingerprints
//! every source whose last path component is its name (`locomo-evaluation.json` →
//! `results/v7/locomo-evaluation.json`).

use crate::error::Error;
use crate::ingest::{InputFile, decode};
use crate::rules::{EvalContext, GitLog, SourceInfo, detect_file_role, evaluate, read_rules, read_values, sha256_hex};

use super::ProgressFn;
use super::tools::{nothing, role_files, roles};
use crate::web::protocol::{FileRole, Phase, RulesBatch, RulesRun};

fn basename(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// Reads the registry, values, git log and data files and evaluates every rule.
pub fn analyse(files: &[InputFile], run: &RulesRun, progress: ProgressFn<'_>) -> Result<RulesBatch, Error> {
    let roles = roles(files, &run.roles, &FileRole::RULES, |f| Ok(detect_file_role(f)))?;
    let of = |r: FileRole| files.iter().zip(&roles).filter(move |(_, (role, _))| *role == r).map(|(f, _)| f);
    let mut records = vec![0usize; files.len()];
    let mut rules = Vec::new();
    let mut ctx = EvalContext::default();
    let mut any_values = false;
    for (i, (f, (role, _))) in files.iter().zip(&roles).enumerate() {
        match role {
            FileRole::Rules => {
                let r = read_rules(f)?;
                records[i] = r.len();
                rules.extend(r);
            }
            FileRole::Values => {
                any_values = true;
                let v = read_values(f)?;
                records[i] = v.values.len();
                for (k, q) in v.values {
                    if ctx.values.values.insert(k.clone(), q).is_some() {
                        return Err(Error::setting("values", format!("value `{k}` is defined in two values files")));
                    }
                }
                ctx.values.sources.extend(v.sources);
            }
            _ => records[i] = f.bytes.len(),
        }
    }
    if rules.is_empty() {
        return Err(nothing("rule registry (JSON with \"rules\")"));
    }
    if !any_values {
        return Err(nothing("values file (JSON with \"values\")"));
    }
    let mut logs = of(FileRole::GitLog);
    if let Some(f) = logs.next() {
        if let Some(other) = logs.next() {
            return Err(Error::setting(
                "files",
                format!("two git log exports ({} and {}): keep one", f.name, other.name),
            ));
        }
        let (text, _) = decode(&f.name, &f.bytes)?;
        ctx.git = GitLog::parse(&f.name, &text)?;
    }
    let sources: Vec<String> =
        ctx.values.values.values().filter_map(|q| q.source.clone()).chain(ctx.values.sources.keys().cloned()).collect();
    for f in of(FileRole::Data) {
        let sha = sha256_hex(&f.bytes);
        let mut names: Vec<String> =
            sources.iter().filter(|s| *s != &f.name && basename(s) == f.name).cloned().collect();
        names.push(f.name.clone());
        names.dedup();
        for n in names {
            ctx.values.sources.entry(n).or_insert_with(SourceInfo::default).sha256 = Some(sha.clone());
        }
    }
    if let Some(i) = roles.iter().position(|(r, _)| *r == FileRole::GitLog) {
        records[i] = ctx.git.commits.len();
    }
    ctx.evaluated_at = run.evaluated_at.clone();
    progress(Phase::Analysing, "evaluating the rules", 0.5);
    let report = evaluate(&rules, &ctx);
    progress(Phase::Analysing, "done", 1.0);
    Ok(RulesBatch { files: role_files(files, &roles, records), report, total_ms: 0.0 })
}

#[cfg(test)]
mod tests {
    use super::*;

    const RULES: &str = r#"{"rules": [
  {"id": "early", "registered_at": "2026-05-01T09:00:00Z", "when": {"cmp": ["x", ">=", 1]}},
  {"id": "late", "registered_at": "2026-06-01T09:00:00Z", "when": {"cmp": ["x", "<", 1]}}
]}"#;
    const VALUES: &str = r#"{"values": {"x": {"estimate": 2, "source": "results/run/x.json"}}}"#;
    const LOG: &str = "c0ffee1111aa 2026-05-15T12:00:00+02:00\n\nresults/run/x.json\n";

    #[test]
    fn roles_by_content_fingerprints_by_base_name_and_flags_late_rules() {
        let files = vec![
            InputFile::new("rules.json", RULES.as_bytes()),
            InputFile::new("values.json", VALUES.as_bytes()),
            InputFile::new("log.txt", LOG.as_bytes()),
            InputFile::new("x.json", b"{\"anything\": 1}".to_vec()),
        ];
        let got: Vec<FileRole> = files.iter().map(detect_file_role).collect();
        assert_eq!(got, [FileRole::Rules, FileRole::Values, FileRole::GitLog, FileRole::Data]);
        let run = RulesRun { roles: Default::default(), evaluated_at: Some("2026-11-22T00:00:00Z".into()) };
        let b = analyse(&files, &run, &mut |_, _, _| {}).unwrap();
        assert_eq!(b.report.registered_after_data, 1);
        let late = b.report.verdicts.iter().find(|v| v.rule_id == "late").unwrap();
        assert_eq!(late.temporal.status, "registered_after_data");
        assert_eq!(late.inputs[0].sha256.as_deref(), Some(sha256_hex(b"{\"anything\": 1}").as_str()));
        assert_eq!(late.evaluated_at.as_deref(), Some("2026-11-22T00:00:00Z"));
        assert_eq!(b.files[2].records, 1);
        // Without values, or with a broken registry: errors as values.
        assert!(matches!(analyse(&files[..1], &run, &mut |_, _, _| {}), Err(Error::Empty(_))));
        let broken = vec![
            InputFile::new("r.json", br#"{"rules": [{"id": "r", "when": {"cmp": [1, "=>", 2]}}]}"#.to_vec()),
            files[1].clone(),
        ];
        match analyse(&broken, &run, &mut |_, _, _| {}) {
            Err(Error::Ingest(e)) => assert!(e.to_string().contains("rules[0].when.cmp[1]"), "{e}"),
            other => panic!("{other:?}"),
        }
    }
}
