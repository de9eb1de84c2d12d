//! The command line's adapter over a request declared by [`memaudit::fields!`]: one argument
//! per field (`--ece-bins`), its help and default from the field, its value set through the
//! field's own parsing. A subcommand flattens [`FieldArgs`] of its request.

use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::error::ErrorKind;
use clap::parser::ValueSource;
use clap::{Arg, ArgAction, ArgMatches, Command};

use memaudit::command_line::word as command_line_word;
use memaudit::fields::{Field, Fields, Kind, SWITCH_ON};

/// A request read from the command line, field by field.
pub(crate) struct FieldArgs<R>(pub(crate) R);

/// A choice's names as the command line takes them: each as written (`trec_eval`), and with
/// dashes (`trec-eval`) as a hidden alias, the way the command line spells names.
fn possible(names: Vec<&'static str>) -> Vec<PossibleValue> {
    names
        .into_iter()
        .map(|n| {
            let v = PossibleValue::new(n);
            if n.contains('_') { v.alias(n.replace('_', "-")) } else { v }
        })
        .collect()
}

/// A choice typed with dashes (`trec-eval`) as its name (`trec_eval`).
fn choice_name(f: &Field, text: &str) -> String {
    let names = f.choices();
    text.split(',')
        .map(|t| {
            let t = t.trim();
            names.iter().find(|n| n.replace('_', "-") == t).map_or(t, |n| *n).to_string()
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// The argument of one field.
fn argument(f: &'static Field, default: Option<String>) -> Arg {
    let arg = Arg::new(f.name).long(f.name.replace('_', "-")).help(f.help_with_candidates());
    match f.kind {
        Kind::Flag => arg.action(ArgAction::SetTrue),
        Kind::List => {
            let arg = arg.action(ArgAction::Append).value_delimiter(',').value_name("LIST");
            match default.filter(|d| !d.is_empty() && !f.optional) {
                Some(d) => arg.default_value(d),
                None => arg,
            }
        }
        Kind::Entries => arg.action(ArgAction::Append).value_name("ENTRY"),
        Kind::Items => arg.action(ArgAction::Set).value_name("FILE|LIST"),
        // `--pair-by-position` alone is on; `--pair-by-position a,b` is on with that list.
        Kind::Switch => arg.action(ArgAction::Set).num_args(0..=1).default_missing_value(SWITCH_ON).value_name("LIST"),
        Kind::Choices(names) => arg
            .action(ArgAction::Append)
            .value_delimiter(',')
            .value_name("LIST")
            .value_parser(PossibleValuesParser::new(possible(names()))),
        kind => {
            let arg = arg.action(ArgAction::Set).value_name(f.name.to_uppercase());
            let arg = match kind {
                Kind::Choice(names) => arg.value_parser(PossibleValuesParser::new(possible(names()))),
                _ => arg,
            };
            let arg = if matches!(kind, Kind::Whole | Kind::Number) { arg.allow_negative_numbers(true) } else { arg };
            match default.filter(|d| !d.is_empty() && !f.optional) {
                Some(d) => arg.default_value(d),
                None => arg,
            }
        }
    }
}

impl<R: Fields + 'static> clap::FromArgMatches for FieldArgs<R> {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let mut request = R::default();
        for f in R::fields() {
            if m.value_source(f.name) != Some(ValueSource::CommandLine) {
                continue;
            }
            let text = match f.kind {
                Kind::Flag => m.get_flag(f.name).to_string(),
                Kind::List | Kind::Choices(_) | Kind::Entries => {
                    let join = if matches!(f.kind, Kind::Entries) { "\n" } else { "," };
                    m.get_many::<String>(f.name).map(|v| v.cloned().collect::<Vec<_>>().join(join)).unwrap_or_default()
                }
                _ => m.get_one::<String>(f.name).cloned().unwrap_or_default(),
            };
            let text = if f.choices().is_empty() { text } else { choice_name(f, &text) };
            let invalid = |e: String| {
                clap::Error::raw(
                    ErrorKind::ValueValidation,
                    format!("invalid value '{text}' for '{}': {e}\n", command_line_word(f.name)),
                )
            };
            // Item ids may be given as the name of a file that holds them.
            let value = match f.kind {
                Kind::Items if std::path::Path::new(&text).is_file() => {
                    crate::common::read_path(std::path::Path::new(&text))
                        .and_then(|file| Ok(file.text().map(|(t, _)| t.into_owned())?))
                        .map_err(|e| invalid(e.message))?
                }
                _ => text.clone(),
            };
            request.set_text(f.name, &value).map_err(invalid)?;
        }
        Ok(FieldArgs(request))
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

impl<R: Fields + 'static> clap::Args for FieldArgs<R> {
    fn augment_args(cmd: Command) -> Command {
        let defaults = R::default();
        R::fields().into_iter().fold(cmd, |cmd, f| cmd.arg(argument(f, defaults.text(f.name))))
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}
