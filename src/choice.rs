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

/// Defines a closed set of named choices:
///
/// ```
/// memaudit::choice! {
///     /// An example.
///     pub enum Fruit { Apple = "apple", BloodOrange = "blood_orange" }
/// }
/// use memaudit::choice::Choice;
/// assert_eq!(Fruit::parse("blood_orange"), Some(Fruit::BloodOrange));
/// assert_eq!(serde_json::to_string(&Fruit::Apple).unwrap(), "\"apple\"");
/// ```
#[macro_export]
macro_rules! choice {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal ),+ $(,)?
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
                match self { $( $name::$variant => $text ),+ }
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
}
