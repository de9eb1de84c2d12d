//! The memaudit bundle: stored memories with their lineage, benchmark queries with their gold
//! evidence, and saved ranked outputs. These are the records exactly as read or imported
//! (strings, optional fields kept for display); [`crate::dataset::Dataset`] is the validated,
//! interned form the scorers use.
//!
//! Lineage contract (TIAP, Panthi & Abdelfattah, §3.1): every stored memory `m` has source
//! anchors ℓ(m) (the evidence ids it descends from; a raw turn anchors to itself), a flag
//! raw(m) (it is the raw source turn) and a flag can(m) (a transformed memory intended for
//! serving). The two flags are independent, as in the paper's notation.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// A credit target: which stored memories of an evidence anchor may earn credit.
///
/// For an evidence anchor `a` (TIAP Eqs. 1–3):
/// - `Raw`:       { m : a ∈ ℓ(m) ∧ raw(m) }
/// - `Source`:    { m : a ∈ ℓ(m) }
/// - `Canonical`: { m : a ∈ ℓ(m) ∧ can(m) }
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Target {
    Raw,
    Source,
    Canonical,
}

impl Target {
    pub const ALL: [Target; 3] = [Target::Raw, Target::Source, Target::Canonical];

    /// The name used in every output (`raw`, `source`, `canonical`).
    pub fn name(self) -> &'static str {
        match self {
            Target::Raw => "raw",
            Target::Source => "source",
            Target::Canonical => "canonical",
        }
    }

    /// Whether a memory with these flags belongs to the target set of an anchor it descends from.
    pub fn admits(self, raw: bool, canonical: bool) -> bool {
        match self {
            Target::Raw => raw,
            Target::Source => true,
            Target::Canonical => canonical,
        }
    }

    pub fn parse(s: &str) -> Option<Target> {
        match s.trim().to_ascii_lowercase().as_str() {
            "raw" | "raw_turn" => Some(Target::Raw),
            "source" | "src" | "source_family" => Some(Target::Source),
            "canonical" | "can" => Some(Target::Canonical),
            _ => None,
        }
    }
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One stored memory (`memories.jsonl` line).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Memory {
    #[serde(deserialize_with = "lenient::id")]
    pub memory_id: String,
    /// Source evidence ids this memory descends from (a raw turn anchors to itself).
    #[serde(deserialize_with = "lenient::ids")]
    pub anchors: Vec<String>,
    #[serde(default, deserialize_with = "lenient::flag")]
    pub raw: bool,
    #[serde(default, deserialize_with = "lenient::flag")]
    pub canonical: bool,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_text")]
    pub kind: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_text")]
    pub text: Option<String>,
    /// The systems whose store holds this memory (`"system": "mem0"` or a list): each memory
    /// system has its own store and TIAP defines the targets per store. Absent: in every store.
    #[serde(
        default,
        rename = "system",
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt_ids"
    )]
    pub systems: Option<Vec<String>>,
    /// Any other fields (`tenant`, `session`, ...), kept for display.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One gold evidence anchor of a query: one relevance group.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Evidence {
    pub anchor: String,
    /// Relevance grade (1 for binary evidence; TREC qrels levels otherwise). Must be > 0.
    pub grade: f64,
}

/// One benchmark query (`queries.jsonl` line).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Query {
    #[serde(deserialize_with = "lenient::id")]
    pub query_id: String,
    #[serde(with = "evidence_serde")]
    pub evidence: Vec<Evidence>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_text")]
    pub category: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_text")]
    pub text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_text")]
    pub answer: Option<String>,
    /// Explicit target sets (the MTEL-Mem target mappings' `raw_ids` / `source_ids` /
    /// `canonical_ids`): the ids each target credits for this query, each id its own group.
    /// When present they replace the targets derived from `evidence` and the lineage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub targets: Option<ExplicitTargets>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The ids each target credits for one query, given explicitly.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ExplicitTargets {
    #[serde(default, deserialize_with = "lenient::ids")]
    pub raw: Vec<String>,
    #[serde(default, deserialize_with = "lenient::ids")]
    pub source: Vec<String>,
    #[serde(default, deserialize_with = "lenient::ids")]
    pub canonical: Vec<String>,
}

impl ExplicitTargets {
    pub fn of(&self, t: Target) -> &[String] {
        match t {
            Target::Raw => &self.raw,
            Target::Source => &self.source,
            Target::Canonical => &self.canonical,
        }
    }
}

/// One item of a saved ranked list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RankedItem {
    /// Inline up to 24 bytes: a bundle holds one per ranked row, and short ids then cost no
    /// allocation when read or freed.
    pub memory_id: compact_str::CompactString,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
}

/// One saved ranked list (`runs.jsonl` line): the output of `system` for `query_id`, in saved
/// rank order (rank 1 first).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Run {
    pub system: String,
    pub query_id: String,
    pub ranked: Vec<RankedItem>,
}

/// A whole bundle as read from one or more files.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Bundle {
    pub memories: Vec<Memory>,
    pub queries: Vec<Query>,
    pub runs: Vec<Run>,
}

/// Evidence is written as plain anchor strings when every grade is 1 (the bundle's usual form)
/// and as `{"anchor", "grade"}` objects otherwise.
mod evidence_serde {
    use super::Evidence;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum In {
        Plain(String),
        Number(u64),
        Graded {
            anchor: String,
            #[serde(default = "one")]
            grade: f64,
        },
    }
    fn one() -> f64 {
        1.0
    }

    #[derive(Serialize)]
    struct Graded<'a> {
        anchor: &'a str,
        grade: f64,
    }

    pub fn serialize<S: Serializer>(ev: &[Evidence], s: S) -> Result<S::Ok, S::Error> {
        if ev.iter().all(|e| e.grade == 1.0) {
            s.collect_seq(ev.iter().map(|e| e.anchor.as_str()))
        } else {
            s.collect_seq(ev.iter().map(|e| Graded { anchor: &e.anchor, grade: e.grade }))
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Evidence>, D::Error> {
        let items = Vec::<In>::deserialize(d)?;
        Ok(items
            .into_iter()
            .map(|i| match i {
                In::Plain(anchor) => Evidence { anchor, grade: 1.0 },
                In::Number(n) => Evidence { anchor: n.to_string(), grade: 1.0 },
                In::Graded { anchor, grade } => Evidence { anchor, grade },
            })
            .collect())
    }
}

/// Field readers that accept the spellings real files use: ids as strings or integers, flags as
/// booleans or 0/1, display text as strings, numbers or null.
pub(crate) mod lenient {
    use serde::de::{self, Deserializer, SeqAccess, Visitor};
    use std::fmt;

    /// An id as `T` (`String`, or `CompactString` for the ids of ranked rows).
    struct IdVisitor<T>(std::marker::PhantomData<T>);
    impl<'de, T: for<'a> From<&'a str> + From<String>> Visitor<'de> for IdVisitor<T> {
        type Value = T;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a string or integer id")
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
            Ok(T::from(v))
        }
        fn visit_string<E: de::Error>(self, v: String) -> Result<T, E> {
            Ok(T::from(v))
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<T, E> {
            Ok(T::from(v.to_string()))
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<T, E> {
            Ok(T::from(v.to_string()))
        }
    }

    pub fn id<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
        d.deserialize_any(IdVisitor(std::marker::PhantomData))
    }

    /// [`id`], inline when it is at most 24 bytes (no allocation).
    pub fn compact_id<'de, D: Deserializer<'de>>(d: D) -> Result<compact_str::CompactString, D::Error> {
        d.deserialize_any(IdVisitor(std::marker::PhantomData))
    }

    pub fn opt_id<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
        d.deserialize_option(OptVisitor::<false>)
    }

    pub fn ids<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Vec<String>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a list of string ids (or one id)")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(1));
                while let Some(s) = seq.next_element::<IdOf>()? {
                    out.push(s.0);
                }
                Ok(out)
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(vec![v.to_string()])
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
                Ok(vec![v.to_string()])
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
                Ok(vec![v.to_string()])
            }
        }
        d.deserialize_any(V)
    }

    /// `"system": "a"`, `["a", "b"]` or null (every store); an empty list is refused.
    pub fn opt_ids<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<String>>, D::Error> {
        let v: Option<Vec<String>> = d.deserialize_option(OptIds)?;
        match v {
            Some(list) if list.is_empty() => Err(de::Error::custom(
                "an empty list of systems: omit `system` to put the memory in every store, or name its systems",
            )),
            other => Ok(other),
        }
    }

    struct OptIds;
    impl<'de> Visitor<'de> for OptIds {
        type Value = Option<Vec<String>>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a system name, a list of system names, or null")
        }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            ids(d).map(Some)
        }
    }

    struct IdOf(String);
    impl<'de> serde::Deserialize<'de> for IdOf {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            id(d).map(IdOf)
        }
    }

    pub fn flag<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = bool;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("true/false (or 0/1)")
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<bool, E> {
                Ok(v)
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<bool, E> {
                match v {
                    0 => Ok(false),
                    1 => Ok(true),
                    _ => Err(E::custom(format!("expected true/false or 0/1, found {v}"))),
                }
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<bool, E> {
                self.visit_u64(v.max(2) as u64)
            }
            fn visit_unit<E: de::Error>(self) -> Result<bool, E> {
                Ok(false)
            }
        }
        d.deserialize_any(V)
    }

    pub fn opt_text<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
        d.deserialize_option(OptVisitor::<true>)
    }

    /// An optional id (a string or an integer) or, with `TEXT`, display text (also a float or a
    /// boolean, as written); null is none.
    struct OptVisitor<const TEXT: bool>;
    impl<'de, const TEXT: bool> Visitor<'de> for OptVisitor<TEXT> {
        type Value = Option<String>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str(if TEXT { "a string, number or null" } else { "a string or integer id" })
        }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            d.deserialize_any(self)
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
            Ok(Some(v.to_string()))
        }
        fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
            Ok(Some(v))
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
            Ok(Some(v.to_string()))
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
            Ok(Some(v.to_string()))
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
            if TEXT { Ok(Some(v.to_string())) } else { Err(E::invalid_type(de::Unexpected::Float(v), &self)) }
        }
        fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
            if TEXT { Ok(Some(v.to_string())) } else { Err(E::invalid_type(de::Unexpected::Bool(v), &self)) }
        }
    }
}
