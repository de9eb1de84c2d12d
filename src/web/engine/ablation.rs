//! The ablation page's analysis: `memaudit ablation` on the page's files (several files: pairs
//! concatenated, warnings merged). Traces with texts instead of outcomes are scored by the
//! run's profile, so the files are read again for every run.

use crate::ablation::{AblationWarnings, analyse as analyse_pairs, read_ablation};
use crate::error::Error;
use crate::ingest::InputFile;

use super::ProgressFn;
use super::tools::nothing;
use crate::web::protocol::{AblationBatch, AblationRun, FileNote, Phase};

/// Share of the progress bar given to reading the traces (the bootstraps take the rest).
const READ_SHARE: f64 = 0.2;

/// Reads the traces and analyses every run and subset, reporting every bootstrap.
pub fn analyse(files: &[InputFile], run: &AblationRun, progress: ProgressFn<'_>) -> Result<AblationBatch, Error> {
    if files.is_empty() {
        return Err(nothing("ablation traces"));
    }
    run.settings.validate()?;
    let mut pairs = Vec::new();
    let mut warnings = AblationWarnings::default();
    let mut notes = Vec::new();
    for f in files {
        let (p, w) = read_ablation(f, &run.columns, &run.scoring)?;
        notes.push(FileNote { name: f.name.clone(), kind: "ablation traces".into(), records: p.len() });
        pairs.extend(p);
        warnings.extend(&w);
    }
    progress(Phase::Analysing, "utilities, rates and bootstrap intervals of ρ", READ_SHARE);
    let report = analyse_pairs(&pairs, &run.settings, warnings, &mut |stage, f| {
        progress(Phase::Analysing, stage, READ_SHARE + (1.0 - READ_SHARE) * f.clamp(0.0, 1.0))
    })?;
    Ok(AblationBatch { files: notes, report, scoring: run.scoring.clone(), total_ms: 0.0 })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ablation::{AblationColumns, AblationSettings, Gate, OutcomeScoring};

    #[test]
    fn equals_the_core_and_names_bad_cells() {
        let text = "run,query_id,subset,rank,cosine,base_score,ablated_score\n\
r,q1,a,1,0.9,1,0\nr,q1,a,2,0.5,1,1\nr,q2,b,1,0.8,0,1\nr,q2,b,2,0.1,0,0\nr,q3,a,1,0.7,1,0\nr,q3,a,2,0.2,1,1\n";
        let f = vec![InputFile::new("t.csv", text.as_bytes())];
        let run = AblationRun {
            settings: AblationSettings { bootstrap: 200, gate: Gate::PILOT, ..AblationSettings::default() },
            scoring: OutcomeScoring::default(),
            columns: AblationColumns::default(),
        };
        let mut seen: Vec<(Phase, String, f64)> = Vec::new();
        let b = analyse(&f, &run, &mut |p, s, x| seen.push((p, s.to_string(), x))).unwrap();
        let (pairs, w) = read_ablation(&f[0], &run.columns, &run.scoring).unwrap();
        assert_eq!(b.report, analyse_pairs(&pairs, &run.settings, w, &mut |_, _| {}).unwrap());
        // One step per bootstrap (run and two subsets, two each), forward, ending at 1.
        assert_eq!(seen.iter().filter(|(_, s, _)| s.ends_with("bootstrap")).count(), 6);
        assert!(seen.windows(2).all(|w| w[1].2 >= w[0].2), "{seen:?}");
        assert_eq!(seen.last().map(|x| (x.1.as_str(), x.2)), Some(("done", 1.0)));
        assert_eq!(b.report.runs[0].subsets.len(), 2);
        assert_eq!(b.files[0].records, 6);
        let bad = vec![InputFile::new("abl.csv", "query_id,base_score,ablated_score\nq1,1,5\n".as_bytes())];
        match analyse(&bad, &run, &mut |_, _, _| {}) {
            Err(Error::Ingest(e)) => assert_eq!(e.location.field.as_deref(), Some("ablated_score")),
            other => panic!("{other:?}"),
        }
    }
}
