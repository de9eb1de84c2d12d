//! The command line's words, for the interfaces that speak them: the CLI (its errors name
//! `--ece-bins`) and the pages (the CLI twin under every result). A setting's option is its
//! field's name with dashes ([`word`]); a file's option follows its role ([`role_option`]);
//! [`twin`] writes the whole command that gives a result on screen: the files it read under
//! their options and every setting that differs from its default, each quoted for a POSIX
//! shell.
//!
//! **Invariant**: an adapter's module. The core never imports it (`scripts/floors.sh`): the
//! core names settings ([`crate::fields::mention`]), never options.

use std::borrow::Cow;

use crate::capability::{Capability, FileRole, InputInfo};
use crate::choice::Choice;
use crate::fields::{Fields, Kind, SWITCH_ON};

/// A setting's option: `with_memory` is `--with-memory`.
pub fn word(name: &str) -> String {
    format!("--{}", name.replace('_', "-"))
}

/// The command line's option for a file of `role`; `PATH` for the release, given as it is.
pub fn role_option(role: FileRole) -> &'static str {
    match role {
        FileRole::Retrieval | FileRole::Answers | FileRole::Traces => "--input",
        FileRole::Memories => "--memories",
        FileRole::Queries => "--queries",
        FileRole::Runs => "--runs",
        FileRole::Qrels => "--qrels",
        FileRole::Outcomes => "--outcomes",
        FileRole::Notes => "--notes",
        FileRole::Keys => "--keys",
        FileRole::Source => "--source-file",
        FileRole::Trials => "--trials",
        FileRole::Claims => "--claims",
        FileRole::Scores | FileRole::Data => "--data",
        FileRole::Table => "--printed-table",
        FileRole::Rules => "--rules",
        FileRole::Values => "--values",
        FileRole::GitLog => "--git-log",
        FileRole::Exclusions => "--exclusions",
        FileRole::Labels => "--labels",
        FileRole::Routing | FileRole::AlignmentRows | FileRole::ComplianceRows => "--input",
        FileRole::Release => "PATH",
    }
}

/// `text` as one word of a POSIX shell: as it is when it holds only characters no shell
/// reads specially, else in single quotes (a `'` inside written `'\''`). Written by hand: the
/// rule is this one line, and no quoting crate is in the offline registry.
pub fn quote(text: &str) -> Cow<'_, str> {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-.,:/=@%+".contains(c);
    if !text.is_empty() && text.chars().all(plain) {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(format!("'{}'", text.replace('\'', r"'\''")))
    }
}

/// The words of every setting of `request` that differs from its default, in the order
/// declared: `--ece-bins 15`, `--common-items`, `--pool prompt,seed`. Entries are given in
/// one word (`--filter 'a=x; b=y'`, read back the same way); a problem set as its ids,
/// comma-separated.
pub fn settings_words<R: Fields>(request: &R) -> Vec<String> {
    let defaults = R::default();
    let mut out = Vec::new();
    for f in R::fields() {
        let (Some(text), default) = (request.text(f.name), defaults.text(f.name)) else { continue };
        if Some(&text) == default.as_ref() {
            continue;
        }
        let option = word(f.name);
        match f.kind {
            Kind::Flag if text == "true" => out.push(option),
            // An option that is off by default cannot be turned off by naming it.
            Kind::Flag => {}
            Kind::Switch if text.is_empty() => {}
            Kind::Switch if text == SWITCH_ON => out.push(option),
            Kind::Items => {
                out.push(format!("{option} {}", quote(&text.lines().map(str::trim).collect::<Vec<_>>().join(","))))
            }
            _ => out.push(format!("{option} {}", quote(&text))),
        }
    }
    out
}

/// The command that gives the result of `request` on `files`: `memaudit calibration --input
/// routing.csv --ece-bins 15` (without an output format: the caller adds the one it means).
/// Files whose role is not known are given as `--input`.
pub fn twin<C: Capability>(request: &C::Request, files: &[InputInfo]) -> String
where
    C::Request: Fields,
{
    let mut words = vec!["memaudit".to_string(), C::ANALYSIS.name().to_string()];
    for f in files {
        let option = FileRole::parse(&f.role).map_or("--input", role_option);
        if option.starts_with("--") {
            words.push(option.to_string());
        }
        words.push(quote(&f.name).into_owned());
    }
    if files.is_empty()
        && let Some(&role) = C::ROLES.first()
    {
        let option = role_option(role);
        words.push(if option.starts_with("--") { format!("{option} FILE") } else { option.to_string() });
    }
    words.extend(settings_words(request));
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calibration::{Calibration, CalibrationRequest};

    #[test]
    fn words_are_quoted_only_where_a_shell_would_read_them() {
        assert_eq!(quote("runs/a_1.csv"), "runs/a_1.csv");
        assert_eq!(quote("my runs.csv"), "'my runs.csv'");
        assert_eq!(quote("it's"), r"'it'\''s'");
        assert_eq!(quote(""), "''");
        assert_eq!(quote("a;b$(x)"), "'a;b$(x)'");
    }

    #[test]
    fn the_twin_names_the_files_and_the_settings_that_differ() {
        let files =
            [InputInfo { name: "routing rows.csv".into(), role: "routing".into(), bytes: 1, sha256: String::new() }];
        let mut r = CalibrationRequest::default();
        assert_eq!(twin::<Calibration>(&r, &files), "memaudit calibration --input 'routing rows.csv'");
        r.ece_bins = 15;
        r.cells.common_items = true;
        r.cells.pool = vec!["prompt".into(), "seed".into()];
        r.cells.problems = Some(vec!["p1".into(), "p 2".into()]);
        assert_eq!(
            twin::<Calibration>(&r, &files),
            "memaudit calibration --input 'routing rows.csv' --ece-bins 15 --pool prompt,seed --problems 'p1,p 2' --common-items"
        );
        assert_eq!(twin::<Calibration>(&CalibrationRequest::default(), &[]), "memaudit calibration --input FILE");
    }

    #[test]
    fn a_filter_is_one_word_read_back_the_same() {
        let mut r = crate::compliance::ComplianceRequest::default();
        r.filter.insert("dataset".into(), vec!["dcbench".into(), "swebench".into()]);
        r.filter.insert("model".into(), vec!["m".into()]);
        let words = settings_words(&r);
        assert_eq!(words, ["--filter 'dataset=dcbench,swebench; model=m'"]);
        let mut back = crate::compliance::ComplianceRequest::default();
        back.set_text("filter", "dataset=dcbench,swebench; model=m").unwrap();
        assert_eq!(back.filter, r.filter);
    }
}
