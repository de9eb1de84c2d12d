//! One report to attach to a review: a single self-contained HTML file — the headlines, every
//! table, every plot as inline SVG, the settings, the input files (name, role, size, SHA-256)
//! and the version — and its Markdown variant. `memaudit report …` writes it; the viewer's
//! "Report to attach" button writes the same file from the same [`Attachment`].
//!
//! The HTML has no script, no external reference (inline CSS, inline SVG, no fonts, no images
//! by URL) and a `Content-Security-Policy` meta tag forbidding every fetch, so it opens offline
//! and can make no request. Every user-provided string is escaped; plot SVG is plotters'
//! output, which escapes its text.

use serde::Serialize;

use crate::capability::{Analysis, Capability, VERSION, headlines};
use crate::choice::Choice;
use crate::headline::{Headline, Level};
use crate::report::Table;

/// Rows of one table written into the HTML and Markdown (the rest is counted, with the CLI
/// call that prints the whole table).
pub const MAX_TABLE_ROWS: usize = 2_000;

pub use crate::capability::{Figure, InputInfo, of_summaries};

/// Everything a report to attach shows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Attachment {
    pub analysis: Analysis,
    pub version: &'static str,
    /// How it was made: the CLI call, or "the memaudit viewer".
    pub made_by: String,
    pub inputs: Vec<InputInfo>,
    /// The report's settings: `(key, value as JSON)` for each of its settings keys.
    pub settings: Vec<(String, String)>,
    pub headlines: Vec<Headline>,
    pub tables: Vec<Table>,
    pub figures: Vec<Figure>,
    /// Sections of preformatted text after the tables, `(title, text)` ([`Capability::sections`]).
    pub sections: Vec<(String, String)>,
}

/// The report keys that hold settings (shown together, next to the results).
const SETTINGS_KEYS: &[&str] = &[
    "settings",
    "conventions",
    "multi_anchor_rule",
    "lint_settings",
    "interval_method",
    "abstain_method",
    "gate",
    "spec",
];

/// The attachment of `report`: its headlines, every table it has (in the table enum's order),
/// its figures and its settings.
pub fn attachment<C: Capability>(report: &C::Report, inputs: Vec<InputInfo>, made_by: impl Into<String>) -> Attachment {
    attachment_with::<C>(report, headlines::<C>(report), inputs, made_by)
}

/// [`attachment`] with the report's headlines as computed elsewhere (the viewer's worker).
pub fn attachment_with<C: Capability>(
    report: &C::Report,
    headlines: Vec<crate::headline::Headline>,
    inputs: Vec<InputInfo>,
    made_by: impl Into<String>,
) -> Attachment {
    let tables =
        C::Table::ALL.iter().filter_map(|&t| C::table(report, t).ok()).filter(|t| !t.rows.is_empty()).collect();
    let settings = match serde_json::to_value(report) {
        Ok(serde_json::Value::Object(map)) => SETTINGS_KEYS
            .iter()
            .filter_map(|k| {
                let v = map.get(*k)?;
                let text = match v {
                    serde_json::Value::String(s) => s.clone(),
                    other => serde_json::to_string(other).unwrap_or_default(),
                };
                Some((k.to_string(), text))
            })
            .collect(),
        _ => Vec::new(),
    };
    Attachment {
        analysis: C::ANALYSIS,
        version: VERSION,
        made_by: made_by.into(),
        inputs,
        settings,
        headlines,
        tables,
        figures: C::figures(report),
        sections: C::sections(report),
    }
}

/// A plot as a [`Figure`] (an SVG failure becomes a figure saying so: never silently missing).
pub fn figure<P: crate::plots::Plot>(plot: &P) -> Figure {
    let svg = crate::plots::plot_svg(plot).unwrap_or_else(|e| {
        format!("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"600\" height=\"40\"><text x=\"4\" y=\"24\">{}</text></svg>", escape(&e.to_string()))
    });
    Figure { title: plot.title(), svg }
}

/// `01-the-title.svg`: the file name of the `i`-th figure under `--plots DIR`.
pub fn figure_file_name(i: usize, f: &Figure) -> String {
    let mut slug = String::new();
    for c in f.title.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            slug.push(c);
        } else if !slug.ends_with('-') && !slug.is_empty() {
            slug.push('-');
        }
        if slug.len() >= 60 {
            break;
        }
    }
    format!("{:02}-{}.svg", i + 1, slug.trim_end_matches('-'))
}

/// `s` with `& < > " '` escaped for HTML text and attributes.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;color:#1d232a;max-width:1200px;margin:2rem auto;padding:0 1rem;line-height:1.45}\
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid #d9dee3}\
table{border-collapse:collapse;font-size:.85rem;font-variant-numeric:tabular-nums}\
th,td{border:1px solid #d9dee3;padding:.2rem .45rem;text-align:left;vertical-align:top}th{background:#f1f3f5;position:sticky;top:0}\
.wrap{overflow:auto;max-height:36rem}code,.mono{font-family:ui-monospace,monospace;font-size:.85rem}\
.muted{color:#5f6b76}ol.headlines{padding-left:0;list-style:none}\
ol.headlines li{border-left:4px solid #5f6b76;background:#f7f8fa;padding:.4rem .6rem;margin:.3rem 0}\
ol.headlines li.alert{border-color:#a61b1b;background:#fdecec}ol.headlines li.finding{border-color:#b35900;background:#fff4e5}\
.level{font-size:.75rem;font-weight:600;text-transform:uppercase;margin-right:.5rem}.evidence{display:block;font-size:.85rem;color:#5f6b76}\
figure{margin:1rem 0}figure svg{max-width:100%;height:auto}td.num{text-align:right;white-space:nowrap}\
dl.columns{display:grid;grid-template-columns:max-content 1fr;gap:.1rem .8rem;font-size:.8rem;margin:.4rem 0 1rem}\
dl.columns dt{font-family:ui-monospace,monospace}dl.columns dd{margin:0;color:#5f6b76}\
@media print{@page{size:A4 landscape;margin:10mm}body{max-width:none;margin:0;font-size:9pt}\
.wrap{overflow:visible;max-height:none}table{font-size:6.5pt;width:100%}th{position:static}\
th,td{padding:.05rem .2rem;overflow-wrap:anywhere}td.num{white-space:normal}tr,figure{break-inside:avoid}h2,h3{break-after:avoid}}";

/// Whether a column holds identifiers (never read as numbers: an item `1.10` stays `1.10`).
fn id_column(header: &str) -> bool {
    let h = header.to_ascii_lowercase();
    matches!(h.as_str(), "id" | "item" | "query" | "qid" | "key" | "docno" | "doc" | "version" | "commit")
        || h.ends_with("_id")
        || h.ends_with("_key")
}

/// Whether a column holds p-values.
fn p_column(header: &str) -> bool {
    let h = header.to_ascii_lowercase();
    h == "p" || h.starts_with("p_") || h.ends_with("_p") || h.contains("p_value") || h.contains("pvalue")
}

/// Which columns of `t` are shown rounded: every cell blank or a finite number, and one at
/// least with a fraction or an exponent (counts stay as they are).
fn rounded_columns(t: &Table) -> Vec<bool> {
    (0..t.headers.len())
        .map(|j| {
            let cells = || t.rows.iter().take(MAX_TABLE_ROWS).filter_map(|r| r.get(j)).filter(|c| !c.is_empty());
            !id_column(&t.headers[j])
                && cells().all(|c| c.parse::<f64>().is_ok_and(f64::is_finite))
                && cells().any(|c| c.contains(['.', 'e', 'E']))
        })
        .collect()
}

/// A number of the report as the viewer shows it: four decimals, scientific notation below
/// 1e-4 and from 1e9; a p-value below 1e-16 as `< 1e-16` (no test has that resolution). The
/// exact value stays in the CSV exports and the JSON.
pub fn shown_number(header: &str, text: &str) -> String {
    let Ok(x) = text.parse::<f64>() else { return text.to_string() };
    let a = x.abs();
    if p_column(header) && x >= 0.0 {
        crate::report::p_value(x)
    } else if x == 0.0 {
        "0".into()
    } else if !(1e-4..1e9).contains(&a) {
        format!("{x:.3e}")
    } else {
        format!("{x:.4}")
    }
}

/// A table's cells as shown in the report: see [`shown_number`].
fn shown_rows(t: &Table) -> impl Iterator<Item = Vec<std::borrow::Cow<'_, str>>> {
    let rounded = rounded_columns(t);
    t.rows.iter().take(MAX_TABLE_ROWS).map(move |row| {
        row.iter()
            .enumerate()
            .map(|(j, c)| match rounded.get(j) {
                Some(true) if !c.is_empty() => std::borrow::Cow::Owned(shown_number(&t.headers[j], c)),
                _ => std::borrow::Cow::Borrowed(c.as_str()),
            })
            .collect()
    })
}

/// The settings as rows a reader can scan: a JSON object's keys one per row (`null` as "not
/// set", a list of texts joined by `; `), anything else as it is.
fn setting_rows(a: &Attachment) -> Vec<(String, String)> {
    use serde_json::Value;
    let readable = |v: &Value| match v {
        Value::Null => "(not set)".to_string(),
        Value::String(s) => s.clone(),
        Value::Array(xs) if xs.is_empty() => "(none)".to_string(),
        Value::Array(xs) if xs.iter().all(Value::is_string) => {
            xs.iter().filter_map(Value::as_str).collect::<Vec<_>>().join("; ")
        }
        other => other.to_string(),
    };
    let mut out = Vec::new();
    for (k, v) in &a.settings {
        match serde_json::from_str::<Value>(v) {
            Ok(Value::Object(m)) if !m.is_empty() => {
                for (sub, val) in &m {
                    let key = if k == "settings" { sub.clone() } else { format!("{k}.{sub}") };
                    out.push((key, readable(val)));
                }
            }
            Ok(Value::String(s)) => out.push((k.clone(), s)),
            _ => out.push((k.clone(), v.clone())),
        }
    }
    out
}

/// The attachment as one self-contained HTML document.
pub fn html(a: &Attachment) -> String {
    let mut o = String::new();
    let title = format!("memaudit {} report", a.analysis);
    o.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    o.push_str("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\n");
    o.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    o.push_str(&format!("<meta name=\"generator\" content=\"memaudit {}\">\n", escape(a.version)));
    o.push_str(&format!("<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n", escape(&title)));
    o.push_str(&format!("<h1>{}</h1>\n", escape(&title)));
    o.push_str(&format!(
        "<p class=\"muted\">memaudit {}; made by {}. Every number below is reproducible with the CLI on the same files and settings.</p>\n",
        escape(a.version),
        escape(&a.made_by)
    ));
    o.push_str("<section id=\"headlines\">\n<h2>What the data says</h2>\n");
    if a.headlines.is_empty() {
        o.push_str("<p class=\"muted\">Nothing stands out: the tables below have every number.</p>\n");
    } else {
        o.push_str("<ol class=\"headlines\">\n");
        for h in &a.headlines {
            o.push_str(&format!(
                "<li class=\"{}\"><span class=\"level\">{}</span>{}",
                h.level.name(),
                h.level.name(),
                escape(&h.text)
            ));
            if !h.evidence.is_empty() {
                o.push_str(&format!("<span class=\"evidence\">{}", escape(&h.evidence)));
                if let Some(t) = &h.table {
                    o.push_str(&format!(" (table <a href=\"#table-{}\">{}</a>)", escape(t), escape(t)));
                }
                o.push_str("</span>");
            }
            o.push_str("</li>\n");
        }
        o.push_str("</ol>\n");
    }
    o.push_str("</section>\n<section id=\"settings\">\n<h2>Settings</h2>\n<table>\n");
    for (k, v) in setting_rows(a) {
        o.push_str(&format!("<tr><th>{}</th><td class=\"mono\">{}</td></tr>\n", escape(&k), escape(&v)));
    }
    o.push_str("</table>\n</section>\n<section id=\"inputs\">\n<h2>Input files</h2>\n<table>\n<tr><th>file</th><th>role</th><th>bytes</th><th>SHA-256</th></tr>\n");
    for f in &a.inputs {
        o.push_str(&format!(
            "<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"mono\">{}</td></tr>\n",
            escape(&f.name),
            escape(&f.role),
            f.bytes,
            escape(&f.sha256)
        ));
    }
    o.push_str("</table>\n</section>\n");
    if !a.figures.is_empty() {
        o.push_str("<section id=\"figures\">\n<h2>Plots</h2>\n");
        for f in &a.figures {
            o.push_str(&format!(
                "<figure>\n{}\n<figcaption>{}</figcaption>\n</figure>\n",
                inline_svg(&f.svg),
                escape(&f.title)
            ));
        }
        o.push_str("</section>\n");
    }
    o.push_str("<section id=\"tables\">\n<h2>Tables</h2>\n");
    for t in &a.tables {
        o.push_str(&format!("<h3 id=\"table-{}\">{}</h3>\n", escape(&t.name), escape(&t.name)));
        o.push_str(&cut_note(a, t, |s| format!("<p class=\"muted\">{}</p>\n", escape(&s))));
        o.push_str("<div class=\"wrap\"><table>\n<tr>");
        for h in &t.headers {
            match t.doc(h) {
                Some(d) => o.push_str(&format!("<th title=\"{}\">{}</th>", escape(d), escape(h))),
                None => o.push_str(&format!("<th>{}</th>", escape(h))),
            }
        }
        o.push_str("</tr>\n");
        for (row, raw) in shown_rows(t).zip(&t.rows) {
            o.push_str("<tr>");
            for (c, r) in row.iter().zip(raw) {
                if c == r {
                    o.push_str(&format!("<td>{}</td>", escape(c)));
                } else {
                    o.push_str(&format!("<td class=\"num\" title=\"{}\">{}</td>", escape(r), escape(c)));
                }
            }
            o.push_str("</tr>\n");
        }
        o.push_str("</table></div>\n");
        let explained: Vec<_> = t.explained().collect();
        if !explained.is_empty() {
            o.push_str(&format!("<dl class=\"columns\" aria-label=\"the columns of {}\">\n", escape(&t.name)));
            for (h, d) in explained {
                o.push_str(&format!("<dt>{}</dt><dd>{}</dd>\n", escape(h), escape(d)));
            }
            o.push_str("</dl>\n");
        }
    }
    o.push_str("</section>\n");
    if !a.sections.is_empty() {
        o.push_str("<section id=\"sections\">\n<h2>Each analysis</h2>\n");
        for (title, text) in &a.sections {
            o.push_str(&format!("<h3>{}</h3>\n<pre>{}</pre>\n", escape(title), escape(text)));
        }
        o.push_str("</section>\n");
    }
    o.push_str("</body>\n</html>\n");
    o
}

/// An SVG document without its XML declaration, for inlining in HTML.
fn inline_svg(svg: &str) -> &str {
    match svg.find("<svg") {
        Some(i) => &svg[i..],
        None => svg,
    }
}

/// The note under a table cut at [`MAX_TABLE_ROWS`] (empty when it is whole).
fn cut_note(a: &Attachment, t: &Table, wrap: impl Fn(String) -> String) -> String {
    if t.rows.len() <= MAX_TABLE_ROWS {
        return String::new();
    }
    wrap(format!(
        "The first {MAX_TABLE_ROWS} of {} rows; the whole table is the CSV export of table `{}` ({})",
        t.rows.len(),
        t.name,
        a.analysis
    ))
}

/// User text (ids, names, file names, messages) as inert Markdown: raw HTML (`<`, `>`, `&`)
/// backslash-escaped, so the raw file reads `p \< 0.001` and renders `p < 0.001`; the
/// punctuation of links, images, emphasis, code and tables escaped, and bare URLs kept from
/// becoming links (GFM autolinks `http://…` and `www.…`), on one line.
fn md_cell(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' | '\r' => out.push(' '),
            '\\' | '|' | '[' | ']' | '!' | '*' | '_' | '`' | '~' | '<' | '>' | '&' => {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out.replace("://", "&#58;//").replace("www.", "&#119;ww.")
}

/// User text inside a code span (settings values): literal there, so only what would end the
/// span or the table cell is changed.
fn md_code(s: &str) -> String {
    s.replace('`', "'").replace('|', "\\|").replace(['\n', '\r'], " ")
}

/// The attachment as Markdown (plots are named, not drawn: use `--plots DIR` for their SVG).
pub fn markdown(a: &Attachment) -> String {
    let mut o = format!(
        "# memaudit {} report\n\nmemaudit {}; made by {}.\n\n## What the data says\n\n",
        a.analysis,
        a.version,
        md_cell(&a.made_by)
    );
    if a.headlines.is_empty() {
        o.push_str("Nothing stands out: the tables below have every number.\n");
    }
    for h in &a.headlines {
        let mark = match h.level {
            Level::Alert => "**Alert**",
            Level::Finding => "*Finding*",
            Level::Context => "Context",
        };
        o.push_str(&format!("- {mark}: {}", md_cell(&h.text)));
        if !h.evidence.is_empty() {
            o.push_str(&format!(" — {}", md_cell(&h.evidence)));
        }
        if let Some(t) = &h.table {
            o.push_str(&format!(" (table `{t}`)"));
        }
        o.push('\n');
    }
    o.push_str("\n## Settings\n\n| key | value |\n|---|---|\n");
    for (k, v) in setting_rows(a) {
        o.push_str(&format!("| {} | `{}` |\n", md_cell(&k), md_code(&v)));
    }
    o.push_str("\n## Input files\n\n| file | role | bytes | SHA-256 |\n|---|---|---:|---|\n");
    for f in &a.inputs {
        o.push_str(&format!("| {} | {} | {} | `{}` |\n", md_cell(&f.name), md_cell(&f.role), f.bytes, f.sha256));
    }
    if !a.figures.is_empty() {
        o.push_str("\n## Plots\n\n");
        for f in &a.figures {
            o.push_str(&format!("- {}\n", md_cell(&f.title)));
        }
    }
    o.push_str("\n## Tables\n");
    for t in &a.tables {
        o.push_str(&format!("\n### {}\n\n", t.name));
        o.push_str(&cut_note(a, t, |s| format!("{s}\n\n")));
        o.push_str(&format!("| {} |\n", t.headers.iter().map(|h| md_cell(h)).collect::<Vec<_>>().join(" | ")));
        o.push_str(&format!("|{}\n", "---|".repeat(t.headers.len())));
        for row in shown_rows(t) {
            o.push_str(&format!("| {} |\n", row.iter().map(|c| md_cell(c)).collect::<Vec<_>>().join(" | ")));
        }
        let explained: Vec<_> = t.explained().collect();
        if !explained.is_empty() {
            o.push_str("\nColumns:\n\n");
            for (h, d) in explained {
                o.push_str(&format!("- `{}`: {}\n", md_code(h), md_cell(d)));
            }
        }
    }
    if !a.sections.is_empty() {
        o.push_str("\n## Each analysis\n");
        for (title, text) in &a.sections {
            // A fence longer than any run of backticks in the text, so that nothing ends it early.
            let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
            let fence = "`".repeat(longest.max(2) + 1);
            o.push_str(&format!("\n### {}\n\n{fence}text\n{}\n{fence}\n", md_cell(title), text.trim_end()));
        }
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(rows: usize) -> Table {
        Table {
            name: "per_query".into(),
            headers: vec!["system".into(), "ndcg".into()],
            rows: (0..rows).map(|i| vec![format!("s<{i}>"), "0.5".into()]).collect(),
            docs: Default::default(),
        }
    }

    fn attachment(rows: usize) -> Attachment {
        Attachment {
            analysis: Analysis::Rescore,
            version: VERSION,
            made_by: "a test".into(),
            inputs: vec![InputInfo { name: "runs|x.jsonl".into(), role: "runs".into(), bytes: 3, sha256: "ab".into() }],
            settings: vec![("settings".into(), "{\"k\":10}".into())],
            headlines: vec![Headline {
                level: Level::Alert,
                text: "a <b> flips".into(),
                evidence: "+0.1".into(),
                table: Some("winners".into()),
            }],
            tables: vec![table(rows)],
            figures: Vec::new(),
            sections: vec![("compare <2>".into(), "a ``` fence and <script>x</script>".into())],
        }
    }

    #[test]
    fn html_escapes_user_text_and_cuts_long_tables_with_a_note() {
        let html = html(&attachment(MAX_TABLE_ROWS + 5));
        assert!(html.contains("a &lt;b&gt; flips") && !html.contains("<b>"));
        assert!(html.contains("<td>s&lt;0&gt;</td>"));
        assert_eq!(html.matches("<tr><td>s&lt;").count(), MAX_TABLE_ROWS);
        assert!(html.contains(&format!("The first {MAX_TABLE_ROWS} of {} rows", MAX_TABLE_ROWS + 5)));
        assert!(html.contains("the whole table is the CSV export of table `per_query`"));
        assert!(!html.contains("<script"));
        assert!(
            html.contains("<h3>compare &lt;2&gt;</h3>\n<pre>a ``` fence and &lt;script&gt;x&lt;/script&gt;</pre>"),
            "{html}"
        );
        let short = super::html(&attachment(3));
        assert!(!short.contains("The first"));
    }

    #[test]
    fn markdown_escapes_pipes_and_names_tables() {
        let md = markdown(&attachment(2));
        assert!(md.contains("| runs\\|x.jsonl | runs | 3 | `ab` |"), "{md}");
        assert!(md.contains("- **Alert**: a \\<b\\> flips — +0.1 (table `winners`)"), "{md}");
        assert!(md.contains("### per_query\n\n| system | ndcg |\n|---|---|\n| s\\<0\\> | 0.5000 |"), "{md}");
        // A section's text stays inside its fence: the fence is longer than any backtick run in it.
        assert!(md.contains("### compare \\<2\\>\n\n````text\na ``` fence and <script>x</script>\n````\n"), "{md}");
    }

    #[test]
    fn each_explained_column_is_explained_under_its_table_and_on_its_header() {
        let mut a = attachment(1);
        a.tables[0].docs.insert("ndcg".into(), "nDCG@k <mean> of the queries".into());
        let html = html(&a);
        assert!(html.contains("<th>system</th><th title=\"nDCG@k &lt;mean&gt; of the queries\">ndcg</th>"), "{html}");
        assert!(html.contains("<dt>ndcg</dt><dd>nDCG@k &lt;mean&gt; of the queries</dd>"), "{html}");
        assert!(!html.contains("<dt>system</dt>"));
        let md = markdown(&a);
        assert!(md.contains("\nColumns:\n\n- `ndcg`: nDCG@k \\<mean\\> of the queries\n"), "{md}");
        // A table that explains nothing has no list.
        assert!(!super::markdown(&attachment(1)).contains("Columns:"));
        assert!(!super::html(&attachment(1)).contains("<dl"));
    }

    #[test]
    fn markdown_makes_no_link_image_or_markup_of_user_text() {
        let hostile = "![pixel](http://x.test/p.png) [a](https://x.test) www.x.test <img src=x> *b* `c`";
        let mut a = attachment(1);
        a.inputs[0].name = hostile.into();
        a.headlines[0].text = hostile.into();
        a.tables[0].rows[0][0] = hostile.into();
        a.settings = vec![("settings".into(), "{\"p\":\"< 0.001\"}".into())];
        let md = markdown(&a);
        // What a renderer sees as syntax: the text without its backslash-escaped characters.
        let mut unescaped = String::new();
        let mut chars = md.chars();
        while let Some(c) = chars.next() {
            if c == '\\' {
                chars.next();
                unescaped.push('\u{fffd}');
            } else {
                unescaped.push(c);
            }
        }
        for live in ["![", "](", "http://", "https://", "www.", "<img", "*b*", "`c`"] {
            assert!(!unescaped.contains(live), "{live} in {md}");
        }
        assert!(md.contains("\\!\\[pixel\\](http&#58;//x.test/p.png)"), "{md}");
        // A setting's value sits in a code span, where text is literal: no entity there; the
        // settings object is read out key by key.
        assert!(md.contains("| p | `< 0.001` |"), "{md}");
    }

    #[test]
    fn numbers_show_as_on_screen_and_ids_and_counts_stay() {
        assert_eq!(shown_number("mean", "0.7435064935064936"), "0.7435");
        assert_eq!(shown_number("delta", "-0.05"), "-0.0500");
        assert_eq!(shown_number("mean", "0.00001234"), "1.234e-5");
        assert_eq!(shown_number("width", "123456789012.5"), "1.235e11");
        assert_eq!(shown_number("mean", "0"), "0");
        // A p-value printed with 60 zeros by the CSV's shortest round-trip text.
        let tiny = crate::report::num(Some(1e-60));
        assert!(tiny.starts_with("0.0000000000"), "{tiny}");
        assert_eq!(shown_number("p_value", &tiny), "< 1e-16");
        assert_eq!(shown_number("p_holm", "0.000012"), "1.2e-5");
        assert_eq!(shown_number("p", "0.0312"), "0.0312");
        let mut t = Table::new("t", &["item_id", "n", "mean", "p_value", "arm"]);
        t.rows = vec![
            vec!["1.10".into(), "12".into(), "0.5".into(), tiny.clone(), "a".into()],
            vec!["2.3".into(), "7".into(), "".into(), "0.2".into(), "1.5".into()],
        ];
        assert_eq!(rounded_columns(&t), [false, false, true, true, false]);
        let rows: Vec<Vec<String>> = shown_rows(&t).map(|r| r.into_iter().map(|c| c.into_owned()).collect()).collect();
        assert_eq!(rows[0], ["1.10", "12", "0.5000", "< 1e-16", "a"]);
        assert_eq!(rows[1], ["2.3", "7", "", "0.2000", "1.5"]);
        let html = html(&Attachment { tables: vec![t], ..attachment(1) });
        assert!(html.contains("<td class=\"num\" title=\"0.5\">0.5000</td>"), "the exact value in the title");
    }

    #[test]
    fn settings_are_read_out_key_by_key() {
        let mut a = attachment(1);
        a.settings = vec![
            (
                "settings".into(),
                r#"{"alpha":0.05,"baseline":null,"cost":[],"strata":["category","hop"],"resampling":{"kind":"iid"}}"#
                    .into(),
            ),
            ("conventions".into(), "\"alpha=0.05 seed=1\"".into()),
            ("spec".into(), r#"{"value":"correct"}"#.into()),
        ];
        let rows = setting_rows(&a);
        let want: Vec<(String, String)> = [
            ("alpha", "0.05"),
            ("baseline", "(not set)"),
            ("cost", "(none)"),
            ("resampling", r#"{"kind":"iid"}"#),
            ("strata", "category; hop"),
            ("conventions", "alpha=0.05 seed=1"),
            ("spec.value", "correct"),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        assert_eq!(rows, want);
    }

    #[test]
    fn figure_files_are_numbered_slugs() {
        let f = Figure { title: "|ΔnDCG| raw → canonical (all, n = 5)".into(), svg: String::new() };
        assert_eq!(figure_file_name(0, &f), "01-ndcg-raw-canonical-all-n-5.svg");
    }
}
