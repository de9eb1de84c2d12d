//! Closed sets of named choices (table names, interval methods, subsets, stages, …) as enums
//! rather than strings: a typo is a compile error in the code and a listed refusal on the
//! command line, never an empty table.
//!
//! [`choice!`](crate::choice!) defines the enum with its text names once; the names serve serde
//! (JSON, and bincode between the viewer's page and worker), clap (feature `cli`: the CLI
//! parses these enums directly, listing the names in `--help`), [`std::fmt::Display`] and
//! [`Choice::parse`].

/// A closed set of named choices (implemented by [`choice!`](crate::choice!)).
pub trait Choice: Copy + Eq + std::fmt::Debug + 'static {
    /// Every choice, in display order.
    const ALL: &'static [Self];
    /// The text name (`per_query`, `bca`).
    fn name(self) -> &'static str;
    /// The choice named `text` (exact match).
    fn parse(text: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|c| c.name() == text)
    }
    /// Every name, comma-separated, for messages.
    fn names() -> String {
        Self::ALL.iter().map(|c| c.name()).collect::<Vec<_>>().join(", ")
    }
}

/// The text name a choice takes when none is written: its variant name in snake case
/// (`BloodOrange` → `blood_orange`, `P10` → `p10`): an underscore before each capital letter
/// but the first, every capital lowered. Its length is [`snake_len`]; [`choice!`](crate::choice!)
/// evaluates both at compile time.
pub const fn snake_case<const N: usize>(camel: &str) -> [u8; N] {
    let bytes = camel.as_bytes();
    let mut out = [0u8; N];
    let (mut i, mut o) = (0, 0);
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii_uppercase() {
            if i > 0 {
                out[o] = b'_';
                o += 1;
            }
            out[o] = b.to_ascii_lowercase();
        } else {
            out[o] = b;
        }
        o += 1;
        i += 1;
    }
    out
}

/// The length of [`snake_case`]'s name for `camel`.
pub const fn snake_len(camel: &str) -> usize {
    let bytes = camel.as_bytes();
    let mut n = bytes.len();
    let mut i = 1;
    while i < bytes.len() {
        if bytes[i].is_ascii_uppercase() {
            n += 1;
        }
        i += 1;
    }
    n
}

/// The text name of one variant of a [`choice!`](crate::choice!): the literal written after it,
/// or else its name in snake case ([`snake_case`]), computed at compile time.
#[doc(hidden)]
#[macro_export]
macro_rules! choice_text {
    ($variant:ident, $text:literal) => {
        $text
    };
    ($variant:ident) => {{
        const CAMEL: &str = stringify!($variant);
        const BYTES: [u8; $crate::choice::snake_len(CAMEL)] = $crate::choice::snake_case(CAMEL);
        const TEXT: &str = match ::core::str::from_utf8(&BYTES) {
            Ok(text) => text,
            Err(_) => panic!("a variant name is ASCII"),
        };
        TEXT
    }};
}

/// Defines a closed set of named choices. A variant's text name is the literal written after
/// it, or else its name in snake case:
///
/// ```
/// memaudit::choice! {
///     /// An example.
///     pub enum Fruit { Apple, BloodOrange, Kiwi = "kiwi-fruit" }
/// }
/// use memaudit::choice::Choice;
/// assert_eq!(Fruit::parse("blood_orange"), Some(Fruit::BloodOrange));
/// assert_eq!(Fruit::Kiwi.name(), "kiwi-fruit");
/// assert_eq!(serde_json::to_string(&Fruit::Apple).unwrap(), "\"apple\"");
/// ```
#[macro_export]
macro_rules! choice {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident $(= $text:literal)? ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        $vis enum $name {
            $( $(#[$vmeta])* $variant ),+
        }

        impl $name {
            /// Every choice, in display order.
            pub const ALL: &'static [$name] = &[ $( $name::$variant ),+ ];
            /// The text name.
            pub fn name(self) -> &'static str {
                match self { $( $name::$variant => $crate::choice_text!($variant $(, $text)?) ),+ }
            }
        }

        impl $crate::choice::Choice for $name {
            const ALL: &'static [$name] = $name::ALL;
            fn name(self) -> &'static str {
                $name::name(self)
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str($crate::choice::Choice::name(*self))
            }
        }

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, s: S) -> ::std::result::Result<S::Ok, S::Error> {
                s.serialize_str($crate::choice::Choice::name(*self))
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> ::std::result::Result<Self, D::Error> {
                let text = <::std::borrow::Cow<'de, str> as ::serde::Deserialize>::deserialize(d)?;
                <$name as $crate::choice::Choice>::parse(&text).ok_or_else(|| {
                    ::serde::de::Error::custom(format!(
                        "unknown {} `{}` (one of: {})",
                        stringify!($name),
                        text,
                        <$name as $crate::choice::Choice>::names()
                    ))
                })
            }
        }

        #[cfg(feature = "cli")]
        impl ::clap::ValueEnum for $name {
            fn value_variants<'a>() -> &'a [Self] {
                <$name as $crate::choice::Choice>::ALL
            }
            fn to_possible_value(&self) -> Option<::clap::builder::PossibleValue> {
                Some(::clap::builder::PossibleValue::new($crate::choice::Choice::name(*self)))
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::Choice;

    crate::choice! {
        /// A test set.
        pub enum Colour { Red = "red", DarkBlue = "dark_blue" }
    }

    #[test]
    fn names_round_trip_through_serde_and_parse() {
        for c in Colour::ALL {
            assert_eq!(Colour::parse(c.name()), Some(*c));
            let json = serde_json::to_string(c).unwrap();
            assert_eq!(serde_json::from_str::<Colour>(&json).unwrap(), *c);
        }
        assert_eq!(Colour::names(), "red, dark_blue");
        let e = serde_json::from_str::<Colour>("\"green\"").unwrap_err().to_string();
        assert!(e.contains("unknown Colour `green` (one of: red, dark_blue)"), "{e}");
        assert_eq!(Colour::DarkBlue.to_string(), "dark_blue");
    }

    crate::choice! {
        /// Names derived and written, mixed.
        enum Derived { Red, DarkBlue, P10, AtK = "at-k", Ndcg10At }
    }

    #[test]
    fn a_name_not_written_is_the_variant_in_snake_case() {
        let names: Vec<_> = Derived::ALL.iter().map(|d| d.name()).collect();
        assert_eq!(names, ["red", "dark_blue", "p10", "at-k", "ndcg10_at"]);
        assert_eq!(Derived::parse("dark_blue"), Some(Derived::DarkBlue));
        assert_eq!(serde_json::to_string(&Derived::P10).unwrap(), "\"p10\"");
    }

    fn snake(camel: &str) -> String {
        let mut out = String::new();
        for (i, c) in camel.chars().enumerate() {
            if c.is_ascii_uppercase() && i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        }
        out
    }

    proptest::proptest! {
        #[test]
        fn snake_case_at_compile_time_is_the_rule_run_by_hand(camel in "[A-Z][A-Za-z0-9]{0,24}") {
            proptest::prop_assert_eq!(super::snake_len(&camel), snake(&camel).len());
            // Run at a larger N than needed: the name fills the first snake_len bytes.
            let n = super::snake_len(&camel);
            let full: [u8; 64] = super::snake_case(&camel);
            let by_hand = snake(&camel);
            proptest::prop_assert_eq!(&full[..n], by_hand.as_bytes());
            proptest::prop_assert!(full[n..].iter().all(|&b| b == 0));
        }
    }
}
