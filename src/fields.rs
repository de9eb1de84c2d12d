//! Settings declared once: [`fields!`](crate::fields!), the input twin of `columns!`.
//!
//! A capability's request lists each setting once — its name, type, default, label, help and,
//! for a column of the input, the column names looked for when it is not stated. From that one
//! list come the request struct and its `Default`, and [`Fields`]: the field descriptions
//! ([`Field`]) and setting a field from text / reading it back as text. The interfaces are
//! adapters over it: the CLI's arguments and help (`src/bin/memaudit/common.rs`,
//! `FieldArgs`), the page's settings form, its parsing and its restore from a result
//! (`src/web/components/fields.rs`), and the settings line of a report ([`settings_line`]).
//!
//! The core never spells an interface's word for a setting: a message that points at one says
//! [`mention`]`("with_memory")`, and each interface renders the mention in its own words
//! ([`render_mentions`]): `--with-memory` on the command line (`crate::command_line`), "outcome
//! with memory" on a page.
//!
//! **Invariant**: a setting's name, default, label, help and candidate columns are written in
//! one place, its `fields!` entry.

use crate::choice::Choice;

/// What kind of value a field holds (how an interface edits it).
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    /// Free text; empty means not stated when the field is optional.
    Text,
    /// A comma-separated list of names.
    List,
    /// Entries that may hold commas (`relevant=supports,partial`): repeated on the command line,
    /// one per line or `;`-separated as text.
    Entries,
    /// A whole number (empty means not stated when the field is optional).
    Whole,
    /// A number (empty means not stated when the field is optional).
    Number,
    /// On or off.
    Flag,
    /// One of a closed set of names.
    Choice(fn() -> Vec<&'static str>),
    /// Some of a closed set of names, comma-separated.
    Choices(fn() -> Vec<&'static str>),
    /// A list of item ids given as text (one per line or comma-separated, or JSON), or on the
    /// command line also as the name of a file holding them.
    Items,
    /// Off, or on with a list that may be left to the analysis: empty text is off, [`SWITCH_ON`]
    /// is on with the analysis's own list, any other text is on with that comma-separated list.
    Switch,
}

/// The text of a [`Kind::Switch`] turned on without a list of its own.
pub const SWITCH_ON: &str = "on";

/// One setting of a request, as every interface shows it.
#[derive(Debug, Clone, Copy)]
pub struct Field {
    /// The field's name in the request and in the report's settings (`ece_bins`).
    pub name: &'static str,
    /// Its label on a page ("ECE bins").
    pub label: &'static str,
    /// One sentence of help (the CLI's help, the page field's title).
    pub help: &'static str,
    pub kind: Kind,
    /// For a column of the input: the names looked for when none is stated, in order.
    pub candidates: &'static [&'static str],
    /// Whether an empty value means "not stated" (an `Option` or a list).
    pub optional: bool,
}

impl Field {
    /// A field that must hold a value, with no candidate columns (for requests whose fields are
    /// written out rather than declared by [`fields!`](crate::fields!)).
    pub const fn new(name: &'static str, label: &'static str, help: &'static str, kind: Kind) -> Field {
        Field { name, label, help, kind, candidates: &[], optional: false }
    }

    /// The same field, empty meaning "not stated".
    pub const fn optional(self) -> Field {
        Field { optional: true, ..self }
    }

    /// The field's help with the column names looked for, when it has any.
    pub fn help_with_candidates(&self) -> String {
        if self.candidates.is_empty() {
            self.help.to_string()
        } else {
            let help = self.help.strip_suffix('.').unwrap_or(self.help);
            format!("{help} (looked for: {}).", self.candidates.join(", "))
        }
    }

    /// The names of a choice field's choices (empty for other kinds).
    pub fn choices(&self) -> Vec<&'static str> {
        match self.kind {
            Kind::Choice(names) | Kind::Choices(names) => names(),
            _ => Vec::new(),
        }
    }
}

/// A request whose settings are declared by [`fields!`](crate::fields!).
pub trait Fields: Default {
    /// Its own fields, in the order declared (without its groups').
    const OWN: &'static [Field];
    /// Every setting: its own fields, then each group's, in the order declared.
    fn fields() -> Vec<&'static Field>;
    /// Sets the field `name` from its text (as typed on a page or given on the command line).
    /// `Err` says what is wrong with the text, without naming the field (the interface does);
    /// an unknown name is an error.
    fn set_text(&mut self, name: &str, text: &str) -> Result<(), String>;
    /// The field `name` as text (what [`Fields::set_text`] reads back), `None` for an unknown name.
    fn text(&self, name: &str) -> Option<String>;

    /// The field called `name`.
    fn field(name: &str) -> Option<&'static Field> {
        Self::fields().into_iter().find(|f| f.name == name)
    }
}

/// A type a field can hold: how it reads from and writes to text.
pub trait FieldValue: Sized {
    const KIND: Kind;
    const OPTIONAL: bool = false;
    /// The value of a text, or what is wrong with it.
    fn from_text(text: &str) -> Result<Self, String>;
    fn to_text(&self) -> String;
}

impl FieldValue for String {
    const KIND: Kind = Kind::Text;
    fn from_text(text: &str) -> Result<Self, String> {
        Ok(text.trim().to_string())
    }
    fn to_text(&self) -> String {
        self.clone()
    }
}

impl FieldValue for Option<String> {
    const KIND: Kind = Kind::Text;
    const OPTIONAL: bool = true;
    fn from_text(text: &str) -> Result<Self, String> {
        let t = text.trim();
        Ok((!t.is_empty()).then(|| t.to_string()))
    }
    fn to_text(&self) -> String {
        self.clone().unwrap_or_default()
    }
}

impl FieldValue for Vec<String> {
    const KIND: Kind = Kind::List;
    const OPTIONAL: bool = true;
    fn from_text(text: &str) -> Result<Self, String> {
        Ok(text.split(',').map(str::trim).filter(|x| !x.is_empty()).map(String::from).collect())
    }
    fn to_text(&self) -> String {
        self.join(",")
    }
}

/// A list that may be left unstated: empty text is `None`.
impl FieldValue for Option<Vec<String>> {
    const KIND: Kind = Kind::List;
    const OPTIONAL: bool = true;
    fn from_text(text: &str) -> Result<Self, String> {
        let list = Vec::<String>::from_text(text)?;
        Ok((!list.is_empty()).then_some(list))
    }
    fn to_text(&self) -> String {
        self.as_ref().map(|l| l.join(",")).unwrap_or_default()
    }
}

impl FieldValue for bool {
    const KIND: Kind = Kind::Flag;
    fn from_text(text: &str) -> Result<Self, String> {
        match text.trim() {
            "true" | "yes" | "on" | "1" => Ok(true),
            "false" | "no" | "off" | "0" | "" => Ok(false),
            other => Err(format!("`{other}` is neither true nor false")),
        }
    }
    fn to_text(&self) -> String {
        self.to_string()
    }
}

macro_rules! whole_number_fields {
    ($($t:ty),*) => {$(
        impl FieldValue for $t {
            const KIND: Kind = Kind::Whole;
            fn from_text(text: &str) -> Result<Self, String> {
                let t = text.trim();
                t.parse().map_err(|_| format!("`{t}` is not a whole number"))
            }
            fn to_text(&self) -> String {
                self.to_string()
            }
        }

        impl FieldValue for Option<$t> {
            const KIND: Kind = Kind::Whole;
            const OPTIONAL: bool = true;
            fn from_text(text: &str) -> Result<Self, String> {
                if text.trim().is_empty() { Ok(None) } else { <$t>::from_text(text).map(Some) }
            }
            fn to_text(&self) -> String {
                self.map(|v| v.to_string()).unwrap_or_default()
            }
        }
    )*};
}

whole_number_fields!(usize, u64, u32, i64);

impl FieldValue for f64 {
    const KIND: Kind = Kind::Number;
    fn from_text(text: &str) -> Result<Self, String> {
        let t = text.trim();
        match t.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(v),
            _ => Err(format!("`{t}` is not a number")),
        }
    }
    fn to_text(&self) -> String {
        self.to_string()
    }
}

impl FieldValue for Option<f64> {
    const KIND: Kind = Kind::Number;
    const OPTIONAL: bool = true;
    fn from_text(text: &str) -> Result<Self, String> {
        if text.trim().is_empty() { Ok(None) } else { f64::from_text(text).map(Some) }
    }
    fn to_text(&self) -> String {
        self.map(|v| v.to_string()).unwrap_or_default()
    }
}

/// How a field's value is read from and written as text: the value type's own
/// [`FieldValue`] ([`Plain`]), or another reading of the same type (`via Entries`).
pub trait Codec<T> {
    const KIND: Kind;
    const OPTIONAL: bool;
    fn from_text(text: &str) -> Result<T, String>;
    fn to_text(value: &T) -> String;
}

/// A field read as its type's [`FieldValue`] says (the default).
pub struct Plain;

impl<T: FieldValue> Codec<T> for Plain {
    const KIND: Kind = T::KIND;
    const OPTIONAL: bool = T::OPTIONAL;
    fn from_text(text: &str) -> Result<T, String> {
        T::from_text(text)
    }
    fn to_text(value: &T) -> String {
        value.to_text()
    }
}

/// A list whose entries may hold commas ([`Kind::Entries`]): `;`- or line-separated as text.
pub struct Entries;

impl Codec<Vec<String>> for Entries {
    const KIND: Kind = Kind::Entries;
    const OPTIONAL: bool = true;
    fn from_text(text: &str) -> Result<Vec<String>, String> {
        Ok(text.split([';', '\n']).map(str::trim).filter(|x| !x.is_empty()).map(String::from).collect())
    }
    fn to_text(value: &Vec<String>) -> String {
        value.join("; ")
    }
}

/// Pairs `A:B` ([`Kind::Entries`]): repeated on the command line, `,`-, `;`- or
/// line-separated as text (`a:b, c:d`).
pub struct Pairs;

impl Codec<Vec<(String, String)>> for Pairs {
    const KIND: Kind = Kind::Entries;
    const OPTIONAL: bool = true;
    fn from_text(text: &str) -> Result<Vec<(String, String)>, String> {
        text.split([',', ';', '\n'])
            .map(str::trim)
            .filter(|x| !x.is_empty())
            .map(|p| match p.split_once(':') {
                Some((a, b)) if !a.trim().is_empty() && !b.trim().is_empty() => {
                    Ok((a.trim().to_string(), b.trim().to_string()))
                }
                _ => Err(format!("`{p}`: expected A:B")),
            })
            .collect()
    }
    fn to_text(value: &Vec<(String, String)>) -> String {
        value.iter().map(|(a, b)| format!("{a}:{b}")).collect::<Vec<_>>().join(", ")
    }
}

/// A row filter ([`Kind::Entries`]): `COLUMN=v1,v2` entries ([`filter_from_text`]), written
/// back `;`-separated.
pub struct Filter;

impl Codec<std::collections::BTreeMap<String, Vec<String>>> for Filter {
    const KIND: Kind = Kind::Entries;
    const OPTIONAL: bool = true;
    fn from_text(text: &str) -> Result<std::collections::BTreeMap<String, Vec<String>>, String> {
        filter_from_text(text)
    }
    fn to_text(value: &std::collections::BTreeMap<String, Vec<String>>) -> String {
        value.iter().map(|(c, v)| format!("{c}={}", v.join(","))).collect::<Vec<_>>().join("; ")
    }
}

/// An on/off setting stated by its opposite: the field `no_sweep` ("skip the K-sweep") sets
/// `sweep = false` when on.
pub struct Negated;

impl Codec<bool> for Negated {
    const KIND: Kind = Kind::Flag;
    const OPTIONAL: bool = false;
    fn from_text(text: &str) -> Result<bool, String> {
        bool::from_text(text).map(|on| !on)
    }
    fn to_text(value: &bool) -> String {
        (!value).to_string()
    }
}

fn choice_names<C: Choice>() -> Vec<&'static str> {
    C::ALL.iter().map(|c| c.name()).collect()
}

impl<C: Choice> FieldValue for C {
    const KIND: Kind = Kind::Choice(choice_names::<C>);
    fn from_text(text: &str) -> Result<Self, String> {
        let t = text.trim();
        C::parse(t).ok_or_else(|| format!("`{t}` is not one of {}", C::names()))
    }
    fn to_text(&self) -> String {
        self.name().to_string()
    }
}

/// One of the choices, or none stated (empty text).
impl<C: Choice> FieldValue for Option<C> {
    const KIND: Kind = Kind::Choice(choice_names::<C>);
    const OPTIONAL: bool = true;
    fn from_text(text: &str) -> Result<Self, String> {
        if text.trim().is_empty() { Ok(None) } else { C::from_text(text).map(Some) }
    }
    fn to_text(&self) -> String {
        self.map(|c| c.name().to_string()).unwrap_or_default()
    }
}

/// Off (`None`), or on with a list that may be empty ([`Kind::Switch`]): `""` is off,
/// [`SWITCH_ON`] is `Some([])`, `a,b` is `Some([a, b])`.
pub struct Switch;

impl Codec<Option<Vec<String>>> for Switch {
    const KIND: Kind = Kind::Switch;
    const OPTIONAL: bool = true;
    fn from_text(text: &str) -> Result<Option<Vec<String>>, String> {
        match text.trim() {
            "" => Ok(None),
            SWITCH_ON => Ok(Some(Vec::new())),
            list => Vec::<String>::from_text(list).map(Some),
        }
    }
    fn to_text(value: &Option<Vec<String>>) -> String {
        match value {
            None => String::new(),
            Some(list) if list.is_empty() => SWITCH_ON.to_string(),
            Some(list) => list.join(","),
        }
    }
}

/// Some of the choices, comma-separated (`paper_sem,mab_f1`), in the order given.
impl<C: Choice> FieldValue for Vec<C> {
    const KIND: Kind = Kind::Choices(choice_names::<C>);
    const OPTIONAL: bool = true;
    fn from_text(text: &str) -> Result<Self, String> {
        text.split(',').map(str::trim).filter(|x| !x.is_empty()).map(C::from_text).collect()
    }
    fn to_text(&self) -> String {
        self.iter().map(|c| c.name()).collect::<Vec<_>>().join(",")
    }
}

/// Two of the choices, `a:b` (empty: none).
impl<C: Choice> FieldValue for Option<(C, C)> {
    const KIND: Kind = Kind::Text;
    const OPTIONAL: bool = true;
    fn from_text(text: &str) -> Result<Self, String> {
        let t = text.trim();
        if t.is_empty() {
            return Ok(None);
        }
        match t.split_once(':') {
            Some((a, b)) => Ok(Some((C::from_text(a)?, C::from_text(b)?))),
            None => Err(format!("`{t}` is not two names as A:B")),
        }
    }
    fn to_text(&self) -> String {
        self.as_ref().map(|(a, b)| format!("{}:{}", a.name(), b.name())).unwrap_or_default()
    }
}

/// Declares a request's settings once (see the module's header):
///
/// ```
/// memaudit::fields! {
///     /// A group of settings, named by its fields (`resamples` is set as `bootstrap`).
///     #[derive(Debug, Clone, PartialEq)]
///     pub struct Resampling {
///         resamples as "bootstrap": usize = 2000, label "resamples", help "Resamples.";
///     }
/// }
/// memaudit::fields! {
///     /// An example request.
///     #[derive(Debug, Clone, PartialEq)]
///     pub struct Example {
///         item: Option<String> = None, label "item column", help "The item column.", column &["item", "id"];
///         bins: usize = 10, label "bins", help "Equal-width bins.";
///     }
///     groups {
///         resampling: Resampling = Resampling { resamples: 500 };
///     }
///     unlisted {
///         /// Not a field of its own (edited elsewhere).
///         extra: Vec<u8> = Vec::new();
///     }
/// }
/// use memaudit::fields::Fields;
/// let mut e = Example::default();
/// e.set_text("bins", "12").unwrap();
/// assert_eq!(e.bins, 12);
/// assert_eq!(Example::field("item").unwrap().candidates, &["item", "id"]);
/// assert!(e.set_text("bins", "twelve").unwrap_err().contains("not a whole number"));
/// assert_eq!(e.text("bootstrap").as_deref(), Some("500"));
/// e.set_text("bootstrap", "9").unwrap();
/// assert_eq!(e.resampling.resamples, 9);
/// let names: Vec<_> = Example::fields().iter().map(|f| f.name).collect();
/// assert_eq!(names, ["item", "bins", "bootstrap"]);
/// ```
#[macro_export]
macro_rules! fields {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $(
                $(#[$fmeta:meta])*
                $field:ident $(as $public:literal)? : $ty:ty = $default:expr, $(via $codec:ty,)? label $label:literal, help $help:literal
                $(, column $candidates:expr)? ;
            )*
        }
        $( groups {
            $(
                $(#[$gmeta:meta])*
                $gfield:ident : $gty:ty = $gdefault:expr ;
            )*
        } )?
        $( unlisted {
            $(
                $(#[$umeta:meta])*
                $ufield:ident : $uty:ty = $udefault:expr ;
            )*
        } )?
    ) => {
        $(#[$meta])*
        $vis struct $name {
            $(
                #[doc = $help]
                $(#[$fmeta])*
                pub $field: $ty,
            )*
            $($(
                $(#[$gmeta])*
                pub $gfield: $gty,
            )*)?
            $($(
                $(#[$umeta])*
                pub $ufield: $uty,
            )*)?
        }

        impl ::std::default::Default for $name {
            fn default() -> Self {
                $name {
                    $( $field: $default, )*
                    $($( $gfield: $gdefault, )*)?
                    $($( $ufield: $udefault, )*)?
                }
            }
        }

        impl $crate::fields::Fields for $name {
            const OWN: &'static [$crate::fields::Field] = &[
                $(
                    $crate::fields::Field {
                        name: $crate::fields!(@name $field $($public)?),
                        label: $label,
                        help: $help,
                        kind: <$crate::fields!(@codec $($codec)?) as $crate::fields::Codec<$ty>>::KIND,
                        candidates: $crate::fields!(@candidates $($candidates)?),
                        optional: <$crate::fields!(@codec $($codec)?) as $crate::fields::Codec<$ty>>::OPTIONAL,
                    },
                )*
            ];

            fn fields() -> Vec<&'static $crate::fields::Field> {
                #[allow(unused_mut)]
                let mut all: Vec<&'static $crate::fields::Field> = Self::OWN.iter().collect();
                $($( all.extend(<$gty as $crate::fields::Fields>::fields()); )*)?
                all
            }

            fn set_text(&mut self, name: &str, text: &str) -> ::std::result::Result<(), String> {
                $(
                    if name == $crate::fields!(@name $field $($public)?) {
                        self.$field = <$crate::fields!(@codec $($codec)?) as $crate::fields::Codec<$ty>>::from_text(text)?;
                        return Ok(());
                    }
                )*
                $($(
                    if <$gty as $crate::fields::Fields>::field(name).is_some() {
                        return self.$gfield.set_text(name, text);
                    }
                )*)?
                Err(format!("there is no setting `{name}`"))
            }

            fn text(&self, name: &str) -> Option<String> {
                $(
                    if name == $crate::fields!(@name $field $($public)?) {
                        return Some(<$crate::fields!(@codec $($codec)?) as $crate::fields::Codec<$ty>>::to_text(&self.$field));
                    }
                )*
                $($(
                    if let Some(t) = self.$gfield.text(name) {
                        return Some(t);
                    }
                )*)?
                None
            }
        }
    };
    (@codec) => { $crate::fields::Plain };
    (@codec $c:ty) => { $c };
    (@candidates) => { &[] };
    (@candidates $c:expr) => { $c };
    (@name $field:ident) => { stringify!($field) };
    (@name $field:ident $public:literal) => { $public };
}

/// `name=value` for every member of a result's settings (any serializable struct), by name:
/// a list as `a,b` (`none` when empty), an absent value as `auto`, a group's members by their
/// own names. The settings line shown
/// next to every result, drawn from the settings the report carries.
pub fn settings_line<S: serde::Serialize>(settings: &S) -> String {
    use serde_json::Value;
    fn text(v: &Value) -> String {
        match v {
            Value::Null => "auto".into(),
            Value::String(s) => s.clone(),
            Value::Array(a) if a.is_empty() => "none".into(),
            Value::Array(a) => a.iter().map(text).collect::<Vec<_>>().join(","),
            other => other.to_string(),
        }
    }
    fn pairs(map: &serde_json::Map<String, Value>, out: &mut Vec<String>) {
        for (k, v) in map {
            match v {
                // A group of settings (the bootstrap's) is shown by its members' names.
                Value::Object(inner) => pairs(inner, out),
                v => out.push(format!("{k}={}", text(v))),
            }
        }
    }
    match serde_json::to_value(settings) {
        Ok(Value::Object(map)) => {
            let mut out = Vec::new();
            pairs(&map, &mut out);
            out.join(" ")
        }
        Ok(other) => text(&other),
        Err(e) => format!("(settings not shown: {e})"),
    }
}

/// `name=text` for every field of a request (or a group of its fields), in the order declared:
/// the settings line of a result whose settings are the request's own fields.
pub fn fields_line<R: Fields>(request: &R) -> String {
    R::fields()
        .into_iter()
        .map(|f| {
            let v = request.text(f.name).unwrap_or_default();
            format!("{}={}", f.name, if v.is_empty() && f.optional { "auto" } else { v.as_str() })
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The marks around a setting's name in a message ([`mention`]).
const OPEN: char = '\u{2983}';
const CLOSE: char = '\u{2984}';

/// A setting named in a message, to be rendered by the interface in its own words
/// ([`render_mentions`]). `name` is the field's name (`with_memory`).
pub fn mention(name: &str) -> String {
    format!("{OPEN}{name}{CLOSE}")
}

/// `text` with every [`mention`] replaced by `word(name)`; text without mentions is returned
/// as is.
pub fn render_mentions(text: &str, word: impl Fn(&str) -> String) -> String {
    if !text.contains(OPEN) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find(OPEN) {
        out.push_str(&rest[..start]);
        let after = &rest[start + OPEN.len_utf8()..];
        match after.find(CLOSE) {
            Some(end) => {
                out.push_str(&word(&after[..end]));
                rest = &after[end + CLOSE.len_utf8()..];
            }
            None => {
                out.push_str(&rest[start..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// A row filter as text: `COLUMN=v1,v2` entries separated by `;` or new lines (keep only rows
/// whose cell in COLUMN is one of the values); the CLI's `--filter` and the pages' "keep only".
pub fn filter_from_text(text: &str) -> Result<std::collections::BTreeMap<String, Vec<String>>, String> {
    let mut out = std::collections::BTreeMap::new();
    for entry in text.split([';', '\n']).map(str::trim).filter(|e| !e.is_empty()) {
        let (column, values) = entry.split_once('=').ok_or_else(|| format!("`{entry}`: expected COLUMN=v1,v2"))?;
        let values: Vec<String> = values.split(',').map(|v| v.trim().to_string()).collect();
        out.insert(column.trim().to_string(), values);
    }
    Ok(out)
}

/// A row filter as [`filter_from_text`] reads it.
pub fn filter_to_text(filter: &std::collections::BTreeMap<String, Vec<String>>) -> String {
    filter.iter().map(|(c, v)| format!("{c}={}", v.join(","))).collect::<Vec<_>>().join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::choice! {
        enum Shade { Light, Dark }
    }

    crate::fields! {
        #[derive(Debug, Clone, PartialEq)]
        struct Sample {
            column: Option<String> = None, label "a column", help "The column.", column &["a", "b"];
            bins: usize = 10, label "bins", help "Bins.";
            level: f64 = 0.95, label "level", help "Level.";
            shade: Shade = Shade::Light, label "shade", help "Shade.";
            fit: Vec<String> = Vec::new(), label "fit on", help "Values.";
            strict: bool = false, label "strict", help "Strict.";
            limit: Option<usize> = None, label "limit", help "Limit.";
            groups: Vec<String> = Vec::new(), via Entries, label "groups", help "Groups.";
            shades: Vec<Shade> = vec![Shade::Light, Shade::Dark], label "shades", help "Shades.";
            pair: Option<(Shade, Shade)> = None, label "pair", help "Two shades.";
            contrasts: Vec<(String, String)> = Vec::new(), via Pairs, label "contrasts", help "A:B.";
            run as "skip": bool = true, via Negated, label "skip", help "Skip it.";
        }
        unlisted {
            other: u8 = 7;
        }
    }

    #[test]
    fn every_field_round_trips_through_its_text() {
        let mut s = Sample::default();
        for (name, text) in [
            ("column", "x"),
            ("bins", "3"),
            ("level", "0.9"),
            ("shade", "dark"),
            ("fit", "a,b"),
            ("strict", "true"),
            ("limit", "4"),
            ("groups", "a=x,y; b=z"),
            ("shades", "dark"),
            ("pair", "dark:light"),
            ("contrasts", "a:b, c:d"),
            ("skip", "true"),
        ] {
            s.set_text(name, text).unwrap();
            assert_eq!(s.text(name).as_deref(), Some(text), "{name}");
        }
        assert_eq!(
            s,
            Sample {
                column: Some("x".into()),
                bins: 3,
                level: 0.9,
                shade: Shade::Dark,
                fit: vec!["a".into(), "b".into()],
                strict: true,
                limit: Some(4),
                groups: vec!["a=x,y".into(), "b=z".into()],
                shades: vec![Shade::Dark],
                pair: Some((Shade::Dark, Shade::Light)),
                contrasts: vec![("a".into(), "b".into()), ("c".into(), "d".into())],
                run: false,
                other: 7
            }
        );
    }

    #[test]
    fn bad_text_is_refused_with_what_is_wrong() {
        let mut s = Sample::default();
        assert_eq!(s.set_text("bins", " x ").unwrap_err(), "`x` is not a whole number");
        assert_eq!(s.set_text("level", "nan").unwrap_err(), "`nan` is not a number");
        assert_eq!(s.set_text("shade", "grey").unwrap_err(), "`grey` is not one of light, dark");
        assert_eq!(s.set_text("nothing", "1").unwrap_err(), "there is no setting `nothing`");
        assert_eq!(s.set_text("shades", "light,grey").unwrap_err(), "`grey` is not one of light, dark");
        assert_eq!(s.set_text("pair", "light").unwrap_err(), "`light` is not two names as A:B");
        assert_eq!(s.set_text("contrasts", "a:b; c:").unwrap_err(), "`c:`: expected A:B");
        s.set_text("contrasts", "a : b\nc:d").unwrap();
        assert_eq!(s.contrasts, [("a".to_string(), "b".to_string()), ("c".to_string(), "d".to_string())]);
        s.contrasts.clear();
        assert_eq!(s, Sample::default(), "a refused text changes nothing");
        s.set_text("column", "  ").unwrap();
        assert_eq!(s.column, None);
    }

    #[test]
    fn fields_describe_themselves() {
        let f = Sample::field("column").unwrap();
        assert!(matches!(f.kind, Kind::Text));
        assert_eq!((f.optional, f.candidates), (true, &["a", "b"][..]));
        assert_eq!(f.help_with_candidates(), "The column (looked for: a, b).");
        assert_eq!(Sample::field("shade").unwrap().choices(), ["light", "dark"]);
        assert!(matches!(Sample::field("groups").unwrap().kind, Kind::Entries));
        assert_eq!(Sample::field("shades").unwrap().choices(), ["light", "dark"]);
        assert!(matches!(Sample::field("contrasts").unwrap().kind, Kind::Entries));
        assert!(matches!(Sample::field("skip").unwrap().kind, Kind::Flag));
        assert_eq!(Sample::default().text("skip").as_deref(), Some("false"), "run = true: skip is off");
        assert_eq!(Sample::fields().len(), 12, "the unlisted member is not a field");
        assert_eq!(
            fields_line(&Sample::default()),
            "column=auto bins=10 level=0.95 shade=light fit=auto strict=false limit=auto groups=auto \
             shades=light,dark pair=auto contrasts=auto skip=false"
        );
    }

    #[test]
    fn a_settings_line_names_every_member() {
        #[derive(serde::Serialize)]
        struct Shown {
            column: Option<String>,
            bins: usize,
            level: f64,
            shade: Shade,
            fit: Vec<String>,
            split: Vec<String>,
            bootstrap: crate::stats::bootstrap::Bootstrap,
        }
        let s = Shown {
            column: None,
            bins: 10,
            level: 0.95,
            shade: Shade::Dark,
            fit: vec![],
            split: vec!["0".into(), "1".into()],
            bootstrap: crate::stats::bootstrap::Bootstrap::default(),
        };
        assert_eq!(
            settings_line(&s),
            "bins=10 confidence=0.95 resamples=2000 seed=1337 column=auto fit=none level=0.95 shade=dark split=0,1"
        );
    }

    #[test]
    fn mentions_are_rendered_by_each_interface() {
        let command_line_word = |n: &str| format!("--{}", n.replace('_', "-"));
        let text = format!("state it with {} or {}", mention("with_memory"), mention("item"));
        assert_eq!(render_mentions(&text, command_line_word), "state it with --with-memory or --item");
        assert_eq!(render_mentions(&text, |n| format!("“{n}”")), "state it with “with_memory” or “item”");
        assert_eq!(render_mentions("plain", command_line_word), "plain");
        let open = format!("{OPEN}unclosed");
        assert_eq!(render_mentions(&open, command_line_word), open);
    }
}
