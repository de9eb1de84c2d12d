//! CSV readers: long CSV, wide CSV, MTEL-Mem per-query records and memaudit's `per_query`
//! table. Cells are trimmed; an empty cell or a [`super::MISSING_MARKERS`] cell is missing.

use std::collections::HashSet;

use super::{Builder, MISSING_MARKERS, OutcomeFormat, OutcomeRow, OutcomeWarningKind, parse_number, spec};
use crate::error::{IngestError, Location};
use crate::ingest::Limits;
use crate::ingest::delimited::{CsvData, parse};
use crate::ingest::table::{is_missing, parse_bool};
use crate::model::Target;

/// Detects the CSV layout (MTEL records, memaudit per-query table, wide or long).
pub(super) fn detect(name: &str, text: &str, limits: Limits) -> Result<OutcomeFormat, IngestError> {
    let data = parse(name, text, limits)?;
    Ok(classify(&data))
}

fn classify(data: &CsvData) -> OutcomeFormat {
    let has = |c: &str| data.headers.iter().any(|h| h == c);
    if has("query_index")
        && (has("run_id") || has("system_label"))
        && data.headers.iter().any(|h| mtel_split(h).is_some())
    {
        return OutcomeFormat::MtelRecords;
    }
    if has("system") && has("query_id") && has("target") && has("eligible") {
        return OutcomeFormat::RescorePerQuery;
    }
    if looks_wide(data) { OutcomeFormat::WideCsv } else { OutcomeFormat::LongCsv }
}

/// Wide when: at least three columns; no column is named like an arm; no non-first column is
/// named like a value or an id; every non-first column holds numbers (or booleans) only, at
/// least one each; and the first column names each item once.
fn looks_wide(data: &CsvData) -> bool {
    let h = &data.headers;
    if h.len() < 3 || data.records.is_empty() {
        return false;
    }
    if h.iter().any(|c| spec::is_arm_name(c)) || h[1..].iter().any(|c| spec::is_value_name(c) || spec::is_id_name(c)) {
        return false;
    }
    for j in 1..h.len() {
        let mut present = 0;
        for (_, r) in &data.records {
            let c = r[j].as_str();
            if is_missing(c) {
                continue;
            }
            if parse_number(c).is_none() {
                return false;
            }
            present += 1;
        }
        if present == 0 {
            return false;
        }
    }
    let mut seen = HashSet::new();
    data.records.iter().all(|(_, r)| !is_missing(&r[0]) && seen.insert(r[0].as_str()))
}

/// Reads a CSV text in `format` (detecting the layout between the CSV formats when the format
/// is forced to one of them, it is used as is).
pub(super) fn read(name: &str, text: &str, format: OutcomeFormat, b: &mut Builder) -> Result<(), IngestError> {
    let data = parse(name, text, b.limits)?;
    match format {
        OutcomeFormat::WideCsv => read_wide(name, &data, b),
        OutcomeFormat::MtelRecords => read_mtel(name, &data, b),
        OutcomeFormat::RescorePerQuery => read_per_query(name, &data, b),
        _ => read_long(name, &data, b),
    }
}

/// Sets a generic cell: missing when empty or a marker (counted), else text and number.
fn generic_cell(name: &str, line: usize, col: &str, cell: &str, row: &mut OutcomeRow, b: &mut Builder) {
    if cell.is_empty() {
        b.missing(col);
    } else if MISSING_MARKERS.contains(&cell) {
        b.missing(col);
        b.warnings.add(OutcomeWarningKind::MissingMarker, || format!("{name}, line {line}, field `{col}`: {cell}"));
    } else {
        b.set(row, col, cell.to_string(), parse_number(cell));
    }
}

fn read_long(name: &str, data: &CsvData, b: &mut Builder) -> Result<(), IngestError> {
    for h in &data.headers {
        b.missing(h);
    }
    for (line, rec) in &data.records {
        let mut row = Builder::row(*line);
        for (h, cell) in data.headers.iter().zip(rec) {
            generic_cell(name, *line, h, cell, &mut row, b);
        }
        b.push(row)?;
    }
    Ok(())
}

fn read_wide(name: &str, data: &CsvData, b: &mut Builder) -> Result<(), IngestError> {
    let first = data.headers[0].as_str();
    let item_col = if first.is_empty() || first == "arm" || first == "value" { "item" } else { first };
    b.missing(item_col);
    b.missing("arm");
    b.missing("value");
    for (line, rec) in &data.records {
        let item = rec[0].as_str();
        if is_missing(item) {
            return Err(IngestError::new(
                Location::line(name, *line).with_field(first),
                "the item cell (first column) is empty",
            ));
        }
        for (arm, cell) in data.headers.iter().zip(rec).skip(1) {
            let mut row = Builder::row(*line);
            b.set(&mut row, item_col, item.to_string(), None);
            b.set(&mut row, "arm", arm.clone(), None);
            if is_missing(cell) {
                if !cell.is_empty() {
                    b.warnings.add(OutcomeWarningKind::MissingMarker, || {
                        format!("{name}, line {line}, field `{arm}`: {cell}")
                    });
                }
            } else {
                let v = parse_number(cell).ok_or_else(|| {
                    IngestError::new(
                        Location::line(name, *line).with_field(arm.clone()),
                        format!("`{cell}` is not a number (a wide CSV holds one value per arm column)"),
                    )
                })?;
                b.set(&mut row, "value", cell.clone(), Some(v));
            }
            b.push(row)?;
        }
    }
    Ok(())
}

const TARGET_PREFIXES: [(&str, &str); 3] = [("raw_", "raw"), ("source_", "source"), ("canonical_", "canonical")];

/// `raw_ndcg` → (`raw`, `ndcg`).
fn mtel_split(h: &str) -> Option<(&'static str, &str)> {
    TARGET_PREFIXES.iter().find_map(|(p, t)| h.strip_prefix(p).filter(|m| !m.is_empty()).map(|m| (*t, m)))
}

/// One row per (line, target): the per-query columns, `target`, `eligible` and the metrics
/// without their target prefix. Empty metric cells are missing (not eligible), never 0.
fn read_mtel(name: &str, data: &CsvData, b: &mut Builder) -> Result<(), IngestError> {
    let mut per_query = Vec::new();
    let mut targets: Vec<(&'static str, Vec<(usize, &str)>)> = Vec::new();
    for (j, h) in data.headers.iter().enumerate() {
        match mtel_split(h) {
            Some((t, m)) => match targets.iter_mut().find(|(tt, _)| *tt == t) {
                Some((_, ms)) => ms.push((j, m)),
                None => targets.push((t, vec![(j, m)])),
            },
            None => per_query.push(j),
        }
    }
    for &j in &per_query {
        b.missing(&data.headers[j]);
    }
    b.missing("target");
    b.missing("eligible");
    for (line, rec) in &data.records {
        let line = *line;
        if let Some(j) = data.headers.iter().position(|h| h == "query_index")
            && is_missing(&rec[j])
        {
            return Err(IngestError::new(
                Location::line(name, line).with_field("query_index"),
                "the query index is empty",
            ));
        }
        for (t, metrics) in &targets {
            let mut row = Builder::row(line);
            for &j in &per_query {
                generic_cell(name, line, &data.headers[j], &rec[j], &mut row, b);
            }
            b.set(&mut row, "target", t.to_string(), None);
            let mut eligible = None;
            if let Some(&(j, _)) = metrics.iter().find(|(_, m)| *m == "eligible") {
                let cell = rec[j].as_str();
                if !is_missing(cell) {
                    eligible = Some(parse_bool(cell).ok_or_else(|| {
                        IngestError::new(
                            Location::line(name, line).with_field(data.headers[j].clone()),
                            format!("`{cell}` is not true/false"),
                        )
                    })?);
                }
            }
            if let Some(e) = eligible {
                b.set(&mut row, "eligible", e.to_string(), Some(if e { 1.0 } else { 0.0 }));
            }
            for &(j, m) in metrics.iter().filter(|(_, m)| *m != "eligible") {
                let cell = rec[j].as_str();
                let col = &data.headers[j];
                b.missing(m);
                if is_missing(cell) {
                    if eligible == Some(true) {
                        b.warnings.add(OutcomeWarningKind::EligibleWithoutMetric, || {
                            format!("{name}, line {line}, field `{col}`")
                        });
                    }
                    continue;
                }
                let v = parse_number(cell).ok_or_else(|| {
                    IngestError::new(
                        Location::line(name, line).with_field(col.clone()),
                        format!("`{cell}` is not a number"),
                    )
                })?;
                if eligible == Some(false) {
                    b.warnings.add(OutcomeWarningKind::IneligibleMetricIgnored, || {
                        format!("{name}, line {line}, field `{col}`")
                    });
                    continue;
                }
                b.set(&mut row, m, cell.to_string(), Some(v));
            }
            b.push(row)?;
        }
    }
    Ok(())
}

const PER_QUERY_METRICS: [&str; 5] = ["ndcg", "recall", "hit", "mrr", "top1"];

/// memaudit's `per_query` CSV table: a long CSV whose `target`, `eligible` and metric cells are
/// checked; metrics of non-eligible rows are missing.
fn read_per_query(name: &str, data: &CsvData, b: &mut Builder) -> Result<(), IngestError> {
    let col = |c: &str| data.headers.iter().position(|h| h == c);
    let (Some(target_j), Some(eligible_j)) = (col("target"), col("eligible")) else {
        return Err(IngestError::new(
            Location::line(name, 1),
            "a memaudit per_query table needs `system`, `query_id`, `target` and `eligible` columns",
        ));
    };
    for h in &data.headers {
        b.missing(h);
    }
    for (line, rec) in &data.records {
        let line = *line;
        let target = Target::parse(&rec[target_j]).ok_or_else(|| {
            IngestError::new(
                Location::line(name, line).with_field("target"),
                format!("`{}` is not a target (raw, source or canonical)", rec[target_j]),
            )
        })?;
        let eligible = parse_bool(&rec[eligible_j]).ok_or_else(|| {
            IngestError::new(
                Location::line(name, line).with_field("eligible"),
                format!("`{}` is not true/false", rec[eligible_j]),
            )
        })?;
        let mut row = Builder::row(line);
        for (j, (h, cell)) in data.headers.iter().zip(rec).enumerate() {
            if j == target_j {
                b.set(&mut row, h, target.name().to_string(), None);
            } else if j == eligible_j {
                b.set(&mut row, h, eligible.to_string(), Some(if eligible { 1.0 } else { 0.0 }));
            } else if PER_QUERY_METRICS.contains(&h.as_str()) {
                if is_missing(cell) {
                    continue;
                }
                let v = parse_number(cell).ok_or_else(|| {
                    IngestError::new(
                        Location::line(name, line).with_field(h.clone()),
                        format!("`{cell}` is not a number"),
                    )
                })?;
                if !eligible {
                    b.warnings.add(OutcomeWarningKind::IneligibleMetricIgnored, || {
                        format!("{name}, line {line}, field `{h}`")
                    });
                    continue;
                }
                b.set(&mut row, h, cell.clone(), Some(v));
            } else {
                generic_cell(name, line, h, cell, &mut row, b);
            }
        }
        b.push(row)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::{OutcomeTable, ReadOptions, read_outcomes};
    use super::*;
    use crate::ingest::InputFile;

    fn read(name: &str, text: &str, format: Option<OutcomeFormat>) -> Result<OutcomeTable, IngestError> {
        read_outcomes(&InputFile::new(name, text.as_bytes().to_vec()), &ReadOptions { format })
    }

    /// The line of a record is its first line, however the file ends its lines, with a BOM, a
    /// quoted newline, or gzip — in rows read and in refusals.
    #[test]
    fn lines_are_located_for_crlf_bom_quoted_newlines_and_gzip() {
        let lf = "item,arm,correct\nq1,a,1\n\"q\n2\",a,0\nq3,a,1\nq4,a\n";
        let crlf = lf.replace('\n', "\r\n");
        let bom = format!("\u{feff}{crlf}");
        let gz = {
            use std::io::Write;
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(crlf.as_bytes()).unwrap();
            e.finish().unwrap()
        };
        for (what, bytes) in [
            ("lf", lf.as_bytes().to_vec()),
            ("crlf", crlf.as_bytes().to_vec()),
            ("bom", bom.into_bytes()),
            ("gzip", gz),
        ] {
            let file = InputFile::new("l.csv", bytes);
            let e = read_outcomes(&file, &ReadOptions { format: Some(OutcomeFormat::LongCsv) }).unwrap_err();
            assert_eq!(e.location.line, Some(6), "{what}: the short row is on line 6: {e}");
            let ok = InputFile::new("l.csv", file.text().unwrap().0.replace("q4,a\r\n", "").replace("q4,a\n", ""));
            let t = read_outcomes(&ok, &ReadOptions { format: Some(OutcomeFormat::LongCsv) }).unwrap();
            let lines: Vec<usize> = t.rows.iter().map(|r| r.line).collect();
            assert_eq!(lines, [2, 3, 5], "{what}");
        }
        // JSON Lines with CRLF: the same lines.
        let jl = "{\"item\":\"q1\",\"arm\":\"a\"}\r\n\r\n{\"item\":\"q2\",\"arm\":}\r\n";
        let e = read("l.jsonl", jl, None).unwrap_err();
        assert_eq!(e.location.line, Some(3), "{e}");
    }

    #[test]
    fn long_csv_keeps_every_column() {
        let t = read("l.csv", "item,arm,dataset,correct\nq1,bm25,locomo,1\nq1,dense,locomo,0\n", None).unwrap();
        assert_eq!(t.format, OutcomeFormat::LongCsv);
        assert_eq!(t.rows.len(), 2);
        assert_eq!(t.rows[1].fields["arm"], "dense");
        assert_eq!(t.rows[1].values["correct"], 0.0);
        assert!(!t.rows[1].values.contains_key("arm"));
        assert_eq!(t.rows[1].line, 3);
    }

    #[test]
    fn tsv_and_semicolons() {
        let t = read("l.tsv", "item\tarm\tcorrect\nq1\tx\t1\n", None).unwrap();
        assert_eq!(t.rows[0].fields["arm"], "x");
        let t = read("l.csv", "item;arm;correct\nq1;x;1\n", None).unwrap();
        assert_eq!(t.rows[0].values["correct"], 1.0);
    }

    #[test]
    fn wide_csv_is_detected_and_reshaped() {
        let text = "question,bm25,dense,hybrid\nq1,1,0,1\nq2,0.5,,NA\n";
        let t = read("w.csv", text, None).unwrap();
        assert_eq!(t.format, OutcomeFormat::WideCsv);
        assert_eq!(t.rows.len(), 6);
        let r = &t.rows[4];
        assert_eq!((r.fields["question"].as_str(), r.fields["arm"].as_str(), r.line), ("q2", "dense", 3));
        assert!(!r.values.contains_key("value"));
        assert_eq!(t.rows[3].values["value"], 0.5);
        assert_eq!(t.warnings.count(OutcomeWarningKind::MissingMarker), 1);
        // Not wide: an arm column, a value-named column, a repeated item, or text cells.
        for text in [
            "item,system,correct\nq1,a,1\n",
            "item,bm25,score\nq1,1,2\n",
            "item,bm25,dense\nq1,1,0\nq1,0,1\n",
            "item,bm25,dense\nq1,1,x\n",
            "item,seed,dense\nq1,1,0\n",
        ] {
            assert_eq!(read("x.csv", text, None).unwrap().format, OutcomeFormat::LongCsv, "{text}");
        }
    }

    #[test]
    fn layout_can_be_forced() {
        let text = "item,bm25,dense\nq1,1,0\nq1,0,1\n";
        let t = read("w.csv", text, Some(OutcomeFormat::WideCsv)).unwrap();
        assert_eq!(t.rows.len(), 4);
        let t = read("w.csv", "question,bm25,dense\nq1,1,0\n", Some(OutcomeFormat::LongCsv)).unwrap();
        assert_eq!(t.rows.len(), 1);
        let e = read("w.csv", "item,bm25,dense\nq1,1,zero\n", Some(OutcomeFormat::WideCsv)).unwrap_err();
        assert_eq!((e.location.line, e.location.field.as_deref()), (Some(2), Some("dense")));
        let e = read("w.csv", "item,bm25,dense\n,1,0\n", Some(OutcomeFormat::WideCsv)).unwrap_err();
        assert_eq!((e.location.line, e.location.field.as_deref()), (Some(2), Some("item")));
    }

    #[test]
    fn malformed_csv_names_line_and_field() {
        let e = read("m.csv", "item,arm,correct\nq1,x,1\nq2,x\n", None).unwrap_err();
        assert_eq!(
            (e.location.file.as_str(), e.location.line, e.location.field.as_deref()),
            ("m.csv", Some(3), Some("correct"))
        );
        let e = read("m.csv", "item,arm,correct\nq1,x,1,extra\n", None).unwrap_err();
        assert_eq!((e.location.line, e.location.field.as_deref()), (Some(2), Some("column 4")));
        let e = read("m.csv", "item,arm,item\n", None).unwrap_err();
        assert_eq!((e.location.line, e.location.field.as_deref()), (Some(1), Some("item")));
        let e = read("m.csv", "item,,correct\n", None).unwrap_err();
        assert_eq!(e.location.field.as_deref(), Some("column 2"));
        let e = read("m.csv", "justone\na\n", None).unwrap_err();
        assert!(e.message.contains("only one column"), "{e}");
    }

    const MTEL: &str = "run_id,dataset,system_label,query_index,category,raw_eligible,raw_hit_at_k,raw_ndcg,\
canonical_eligible,canonical_hit_at_k,canonical_ndcg\n\
r1,locomo,bm25,0,2,True,True,0.5,False,,\n\
r1,locomo,bm25,1,1,True,False,0.0,True,True,1.0\n";

    #[test]
    fn mtel_records_one_row_per_target() {
        let t = read("records.csv", MTEL, None).unwrap();
        assert_eq!(t.format, OutcomeFormat::MtelRecords);
        assert_eq!(t.rows.len(), 4);
        let r = &t.rows[1];
        assert_eq!((r.fields["target"].as_str(), r.fields["eligible"].as_str()), ("canonical", "false"));
        assert!(!r.values.contains_key("ndcg"), "not eligible → missing, not 0");
        let r = &t.rows[2];
        assert_eq!((r.values["ndcg"], r.values["hit_at_k"], r.line), (0.0, 0.0, 3));
        assert_eq!(r.fields["query_index"], "1");
        assert_eq!(t.column("ndcg").unwrap().missing, 1);
    }

    #[test]
    fn mtel_errors_and_warnings() {
        let bad = MTEL.replace("True,True,0.5", "True,True,high");
        let e = read("records.csv", &bad, None).unwrap_err();
        assert_eq!((e.location.line, e.location.field.as_deref()), (Some(2), Some("raw_ndcg")));
        let bad = MTEL.replace("True,True,0.5", "maybe,True,0.5");
        let e = read("records.csv", &bad, None).unwrap_err();
        assert_eq!(e.location.field.as_deref(), Some("raw_eligible"));
        let bad = MTEL.replace("locomo,bm25,0,", "locomo,bm25,,");
        let e = read("records.csv", &bad, None).unwrap_err();
        assert_eq!(e.location.field.as_deref(), Some("query_index"));
        let odd = MTEL.replace("False,,", "False,False,0.2").replace("True,True,0.5", "True,True,");
        let t = read("records.csv", &odd, None).unwrap();
        assert_eq!(t.warnings.count(OutcomeWarningKind::IneligibleMetricIgnored), 2);
        assert_eq!(t.warnings.count(OutcomeWarningKind::EligibleWithoutMetric), 1);
        assert!(!t.rows[1].values.contains_key("ndcg"));
    }

    #[test]
    fn per_query_table() {
        let text = "system,query_id,target,eligible,ndcg,recall,hit,mrr,top1,has_run,groups,groups_hit,first_rank,category\n\
bm25,q1,raw,true,0.5,1,1,0.5,0,true,1,1,2,single\n\
bm25,q1,canonical,false,,,,,,true,0,0,,single\n";
        let t = read("per_query.csv", text, None).unwrap();
        assert_eq!(t.format, OutcomeFormat::RescorePerQuery);
        assert_eq!(t.rows[0].values["ndcg"], 0.5);
        assert!(!t.rows[1].values.contains_key("ndcg"));
        let e = read("per_query.csv", &text.replace(",raw,", ",rawish,"), None).unwrap_err();
        assert_eq!((e.location.line, e.location.field.as_deref()), (Some(2), Some("target")));
        let e = read("per_query.csv", &text.replace("true,0.5", "yes please,0.5"), None).unwrap_err();
        assert_eq!(e.location.field.as_deref(), Some("eligible"));
        let e = read("per_query.csv", &text.replace("0.5,1,1", "x,1,1"), None).unwrap_err();
        assert_eq!(e.location.field.as_deref(), Some("ndcg"));
    }
}
