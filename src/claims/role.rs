//! What a file of `memaudit claims` is, from its columns: claims (`--claims`), per-query scores
//! (`--data`) or a printed table to lint (`--table`). The viewer takes files in any order and
//! asks this.

use crate::answers::read::{ARM_ALIASES, ID_ALIASES, read_long_table};
use crate::error::IngestError;
use crate::file_role::FileRole;
use crate::ingest::InputFile;

/// Columns only a printed table (lint rows) has.
const TABLE_COLUMNS: [&str; 8] = ["estimate", "ci", "ci_low", "ci_high", "mean_a", "mean_b", "delta", "help"];

/// The role of a file by its columns: [`FileRole::Claims`] with a `claim_id` or `reported`
/// column; [`FileRole::Table`] with estimates, intervals or means of a and b and no arm and
/// query id together; else [`FileRole::Scores`]. A file that is not a table is an error.
pub fn detect_file_role(f: &InputFile) -> Result<FileRole, IngestError> {
    let t = read_long_table(f)?;
    let has = |c: &str| t.column(c).is_some();
    if has("claim_id") || has("reported") {
        return Ok(FileRole::Claims);
    }
    let per_query = ARM_ALIASES.iter().any(|c| has(c)) && ID_ALIASES.iter().any(|c| has(c));
    if !per_query && TABLE_COLUMNS.iter().any(|c| has(c)) {
        return Ok(FileRole::Table);
    }
    Ok(FileRole::Scores)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn role(name: &str, text: &str) -> Result<FileRole, IngestError> {
        detect_file_role(&InputFile::new(name, text.as_bytes()))
    }

    #[test]
    fn claims_scores_and_tables_by_their_columns() {
        let claims = "claim_id,kind,arms,dataset,k,metric,reported,scale\nc1,mean,a,d,5,sem,50.00,100\n";
        assert_eq!(role("c.csv", claims).unwrap(), FileRole::Claims);
        // `reported` alone makes a claims file, JSON as well as CSV.
        assert_eq!(role("c.json", r#"[{"kind": "mean", "arms": "a", "reported": 0.5}]"#).unwrap(), FileRole::Claims);
        let scores = "arm,dataset,k,query_id,sem\na,d,5,q1,1\nb,d,5,q1,0\n";
        assert_eq!(role("s.csv", scores).unwrap(), FileRole::Scores);
        let table = "table,id,kind,estimate,ci,n,binary,scale\nT1,x,mean,0.59,\"[0.3, 0.8]\",16,true,1\n";
        assert_eq!(role("t.csv", table).unwrap(), FileRole::Table);
        assert_eq!(role("t.csv", "table,row,mean_a,mean_b,delta\nT2,r,0.5,0.4,0.1\n").unwrap(), FileRole::Table);
        // Per-query rows with a delta column are scores (an arm and a query id win).
        assert_eq!(role("s.csv", "system,qid,delta\na,q1,0.1\n").unwrap(), FileRole::Scores);
        // No table-only column: scores, the CLI's default for data.
        assert_eq!(role("s.csv", "x,y\n1,2\n").unwrap(), FileRole::Scores);
    }

    #[test]
    fn a_file_that_is_not_a_table_is_an_error_naming_it() {
        let e = role("broken.json", "{\"not\": ").unwrap_err();
        assert_eq!(e.location.file, "broken.json");
    }
}
