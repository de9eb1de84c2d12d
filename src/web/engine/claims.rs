//! The claims page's analysis: `memaudit claims` on the page's files, each taken as claims,
//! per-query scores or a printed table by its columns ([`detect_file_role`]; the page may
//! override a file's role).

use std::collections::BTreeSet;

use crate::claims::{ClaimSettings, LintSettings, claims_report, detect_file_role, read_claims, read_lint_table};
use crate::error::Error;
use crate::ingest::InputFile;
use crate::ksweep::{ScoreColumns, SweepSettings, read_scores, sweep};

use super::ProgressFn;
use super::tools::{nothing, role_files, roles};
use crate::web::protocol::{ClaimsBatch, ClaimsRun, FileRole, Phase};

/// Reads the files by role, runs the K-sweep (unless switched off) and checks and lints.
pub fn analyse(files: &[InputFile], run: &ClaimsRun, progress: ProgressFn<'_>) -> Result<ClaimsBatch, Error> {
    if files.is_empty() {
        return Err(nothing("claims, per-query scores or tables"));
    }
    let roles = roles(files, &run.roles, &FileRole::CLAIMS, |f| Ok(detect_file_role(f)?))?;
    let of = |r: FileRole| files.iter().zip(&roles).filter(move |(_, (role, _))| *role == r).map(|(f, _)| f);
    let score_files: Vec<&InputFile> = of(FileRole::Scores).collect();
    if score_files.len() > 1 {
        let names: Vec<&str> = score_files.iter().map(|f| f.name.as_str()).collect();
        return Err(Error::setting(
            "files",
            format!(
                "several per-query score files ({}): keep one, or mark the others as tables or claims",
                names.join(", ")
            ),
        ));
    }
    let scores = match score_files.first() {
        Some(f) => Some(read_scores(f, &ScoreColumns { metric: run.metric.clone(), ..Default::default() })?),
        None => None,
    };
    let mut claims = Vec::new();
    let mut tables = Vec::new();
    let mut records = Vec::with_capacity(files.len());
    for (f, (role, _)) in files.iter().zip(&roles) {
        records.push(match role {
            FileRole::Claims => {
                let c = read_claims(f)?;
                let n = c.len();
                claims.extend(c);
                n
            }
            FileRole::Table => {
                let rows = read_lint_table(f)?;
                let n = rows.len();
                tables.extend(rows);
                n
            }
            _ => scores.as_ref().map_or(0, |t| t.rows.len()),
        });
    }
    if !claims.is_empty() && scores.is_none() {
        return Err(Error::setting("files", "claims are recomputed from per-query scores: add a scores file"));
    }
    progress(Phase::Analysing, "K-sweep and intervals", 0.3);
    let sweep_out = match (&scores, run.sweep) {
        (Some(t), true) => {
            let mut s = SweepSettings::new(&t.default_metric);
            s.bootstrap = run.bootstrap;
            s.seed = run.seed;
            s.confidence = run.confidence;
            s.slack = run.slack;
            s.base_k = run.base_k;
            s.contrasts = run.contrasts.clone();
            Some(sweep(t, &s)?)
        }
        _ => None,
    };
    progress(Phase::Analysing, "claims and linting", 0.8);
    let settings = ClaimSettings { bootstrap: run.bootstrap, seed: run.seed, confidence: run.confidence };
    if !(settings.confidence > 0.5 && settings.confidence < 1.0) {
        return Err(Error::setting("confidence", "must be in (0.5, 1)"));
    }
    if settings.bootstrap == 0 || settings.bootstrap > 1_000_000 {
        return Err(Error::setting("bootstrap", "between 1 and 1,000,000 resamples"));
    }
    let report = claims_report(&claims, scores.as_ref(), &tables, sweep_out, &settings, &LintSettings::default());
    let mut arms: Vec<String> = Vec::new();
    let mut ks = BTreeSet::new();
    if let Some(t) = &scores {
        for r in &t.rows {
            if !arms.contains(&r.arm) {
                arms.push(r.arm.clone());
            }
            ks.extend(r.k);
        }
    }
    progress(Phase::Analysing, "done", 1.0);
    Ok(ClaimsBatch {
        files: role_files(files, &roles, records),
        metrics: scores.as_ref().map(|t| t.metrics.clone()).unwrap_or_default(),
        metric: scores.as_ref().map(|t| t.default_metric.clone()),
        arms,
        ks: ks.into_iter().collect(),
        report,
        total_ms: 0.0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claims::LintKind;
    use crate::ksweep::ScoreWarningKind;

    const SCORES: &str = "arm,dataset,k,query_id,sem\na,d,5,q1,1\na,d,5,q2,0\nb,d,5,q1,0\nb,d,5,q2,0\na,d,10,q1,1\na,d,10,q2,1\nb,d,10,q1,1\nb,d,10,q2,0\n";
    const CLAIMS: &str = "claim_id,kind,arms,dataset,k,metric,reported,scale\nc1,mean,a,d,5,sem,50.00,100\n";
    const TABLE: &str = "table,id,kind,estimate,ci,n,binary,scale\nT1,x,mean,0.59,\"[0.3, 0.8]\",16,true,1\n";

    fn files() -> Vec<InputFile> {
        vec![
            InputFile::new("claims.csv", CLAIMS.as_bytes()),
            InputFile::new("scores.csv", SCORES.as_bytes()),
            InputFile::new("tables.csv", TABLE.as_bytes()),
        ]
    }

    #[test]
    fn roles_by_content_and_the_cli_pipeline() {
        let f = files();
        let got: Vec<FileRole> = f.iter().map(|x| detect_file_role(x).unwrap()).collect();
        assert_eq!(got, [FileRole::Claims, FileRole::Scores, FileRole::Table]);
        let run = ClaimsRun { bootstrap: 200, ..ClaimsRun::default() };
        let b = analyse(&f, &run, &mut |_, _, _| {}).unwrap();
        assert_eq!(b.report.claims.len(), 1);
        assert_eq!(b.report.counts.matches, 1);
        assert!(b.report.findings.iter().any(|x| x.table.as_deref() == Some("T1")), "{:?}", b.report.findings);
        let s = b.report.sweep.as_ref().unwrap();
        assert_eq!(s.deltas.len(), 2);
        assert_eq!((b.arms.clone(), b.ks.clone()), (vec!["a".to_string(), "b".to_string()], vec![5, 10]));
        assert_eq!(b.files.iter().map(|x| x.records).collect::<Vec<_>>(), [1, 8, 1]);
        // The same as the core called directly, as the CLI does.
        let t = read_scores(&f[1], &ScoreColumns::default()).unwrap();
        let mut ss = SweepSettings::new(&t.default_metric);
        ss.bootstrap = 200;
        let direct = claims_report(
            &read_claims(&f[0]).unwrap(),
            Some(&t),
            &read_lint_table(&f[2]).unwrap(),
            Some(sweep(&t, &ss).unwrap()),
            &ClaimSettings { bootstrap: 200, seed: 42, confidence: 0.95 },
            &LintSettings::default(),
        );
        assert_eq!(b.report, direct);
        // Overrides: the table taken as scores makes two score files.
        let mut two = run.clone();
        two.roles.insert("tables.csv".into(), FileRole::Scores);
        assert!(matches!(analyse(&f, &two, &mut |_, _, _| {}), Err(Error::Setting { .. })));
        // Claims without scores.
        assert!(matches!(analyse(&f[..1], &run, &mut |_, _, _| {}), Err(Error::Setting { .. })));
        // A table alone lints.
        let b = analyse(&f[2..], &run, &mut |_, _, _| {}).unwrap();
        assert!(b.report.sweep.is_none() && !b.report.findings.is_empty());
    }

    #[test]
    fn fingerprint_and_duplicate_findings_reach_the_page() {
        // b ran with another prompt at K = 5; a's q1 at K = 5 is given twice (lines 2 and 4).
        let scores = "arm,dataset,k,query_id,sem,prompt_hash\na,d,5,q1,1,p\na,d,5,q2,0,p\na,d,5,q1,0,p\nb,d,5,q1,0,g\nb,d,5,q2,0,g\n";
        let f = vec![InputFile::new("scores.csv", scores.as_bytes())];
        let run = ClaimsRun { bootstrap: 200, ..ClaimsRun::default() };
        let b = analyse(&f, &run, &mut |_, _, _| {}).unwrap();
        let kinds: Vec<(LintKind, &str)> = b.report.findings.iter().map(|x| (x.kind, x.row.as_str())).collect();
        assert_eq!(kinds, [(LintKind::ConfigMismatch, "d/k=5/a-b"), (LintKind::DuplicateQueryId, "d/k=5/a/q1")]);
        assert_eq!(b.report.findings[0].sides.iter().map(|s| s.value.as_str()).collect::<Vec<_>>(), ["p", "g"]);
        assert_eq!(b.report.warnings.count(ScoreWarningKind::DuplicateQueryId), 1);
        assert_eq!(b.files[0].records, 4, "the duplicate row is not used");
        // the findings table (its CSV export) names arms, K and both values
        let t = crate::claims::table(&b.report, "findings").unwrap();
        assert_eq!(&t.rows[0][10..], ["a;b", "5;5", "p;g"]);
    }
}
