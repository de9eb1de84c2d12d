//! JSON read strictly: an object that repeats a key is refused, at every depth, by every reader
//! of JSON values (`docs/formats.md`, "Duplicates"). serde_json keeps the last of two equal keys
//! without a word; a repeated `policy` or `date` would then change a number silently.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

/// A JSON value whose objects never repeat a key.
#[derive(Debug, Clone, PartialEq)]
pub struct StrictValue(pub Value);

/// Whether a parse error is a repeated key (its message says which).
/// The longest dotted key a nested object is flattened to, in bytes. Past it the record is
/// refused: every leaf of a deep object repeats its whole path, so a few kilobytes of long keys
/// nested a hundred deep would otherwise become gigabytes of column names.
pub const MAX_KEY_PATH: usize = 1_000;

/// `prefix.key`, the column of `key` nested under `prefix`; an error (for the caller to
/// locate) past [`MAX_KEY_PATH`] bytes.
pub fn key_path(prefix: &str, key: &str) -> Result<String, String> {
    if prefix.len() + 1 + key.len() > MAX_KEY_PATH {
        let shown: String = prefix.chars().take(60).collect();
        return Err(format!(
            "a nested key `{shown}.{}…` is longer than {MAX_KEY_PATH} bytes once flattened (nested objects are read \
             as dotted columns): flatten the record or shorten its keys",
            key.chars().take(40).collect::<String>()
        ));
    }
    Ok(format!("{prefix}.{key}"))
}

/// A key-path bomb, for the readers' tests: 100 levels of 2,000-byte keys over 1,000 leaves
/// (0.2 MB), 200 MB of dotted column names if flattened.
#[cfg(test)]
pub fn key_path_bomb() -> String {
    let key = "k".repeat(2_000);
    let leaves: Vec<String> = (0..1_000).map(|i| format!("\"l{i}\": 1")).collect();
    let mut obj = format!("{{{}}}", leaves.join(","));
    for _ in 0..100 {
        obj = format!("{{\"{key}\": {obj}}}");
    }
    obj
}

pub fn is_repeated_key(e: &serde_json::Error) -> bool {
    repeated_key(e).is_some()
}

/// The key a parse error found repeated, if that is what it is.
pub fn repeated_key(e: &serde_json::Error) -> Option<String> {
    if !e.is_data() {
        return None;
    }
    let text = e.to_string();
    let rest = text.strip_prefix("the key `")?;
    let end = rest.find("` appears twice in one object")?;
    Some(rest[..end].to_string())
}

/// A parse error as an [`IngestError`] at `line` of `file` (0: the parser's own line): a
/// repeated key names its field; any other error says where in the line it is.
pub fn error_at(file: &str, line: usize, e: &serde_json::Error) -> crate::error::IngestError {
    let line = if line == 0 { e.line().max(1) } else { line };
    let location = crate::error::Location::line(file, line);
    match repeated_key(e) {
        Some(key) => crate::error::IngestError::new(
            location.with_field(key),
            format!("{} (column {})", crate::ingest::records::strip_position(e), e.column()),
        ),
        None => crate::error::IngestError::new(
            location,
            format!("not valid JSON: {} (column {})", crate::ingest::records::strip_position(e), e.column()),
        ),
    }
}

/// The error message of a repeated key (the parser adds its line and column).
pub fn repeated_key_message(key: &str) -> String {
    format!("the key `{key}` appears twice in one object (which value is meant? keep one)")
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        StrictValue::deserialize(d).map(|v| v.0)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::new();
        while let Some(StrictValue(v)) = seq.next_element()? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if out.contains_key(&key) {
                return Err(de::Error::custom(repeated_key_message(&key)));
            }
            let StrictValue(v) = map.next_value()?;
            out.insert(key, v);
        }
        Ok(Value::Object(out))
    }
}

impl<'de> Deserialize<'de> for StrictValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(StrictVisitor).map(StrictValue)
    }
}

/// Parses `text` as one JSON value, refusing a repeated key anywhere in it.
pub fn from_str(text: &str) -> serde_json::Result<Value> {
    serde_json::from_str::<StrictValue>(text).map(|v| v.0)
}

/// The members of a JSON object in document order, refusing a repeated key (and, inside the
/// values, repeated keys at any depth).
#[derive(Debug, Clone, PartialEq)]
pub struct OrderedObject(pub Vec<(String, Value)>);

impl<'de> Deserialize<'de> for OrderedObject {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = OrderedObject;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<OrderedObject, A::Error> {
                let mut out: Vec<(String, Value)> = Vec::new();
                let mut seen = std::collections::HashSet::new();
                while let Some(key) = map.next_key::<String>()? {
                    if !seen.insert(key.clone()) {
                        return Err(de::Error::custom(repeated_key_message(&key)));
                    }
                    let StrictValue(v) = map.next_value()?;
                    out.push((key, v));
                }
                Ok(OrderedObject(out))
            }
        }
        d.deserialize_map(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeated_key_is_refused_at_any_depth() {
        assert_eq!(from_str(r#"{"a": 1, "b": [1, {"c": null}]}"#).unwrap()["b"][1]["c"], Value::Null);
        let e = from_str(r#"{"policy": "lossy", "seed": 0, "policy": "blank"}"#).unwrap_err();
        assert!(e.to_string().contains("the key `policy` appears twice"), "{e}");
        assert_eq!(e.line(), 1);
        let e = from_str("[{\"x\": 1},\n {\"y\": {\"z\": 1, \"z\": 2}}]").unwrap_err();
        assert!(e.to_string().contains("`z` appears twice") && e.line() == 2, "{e}");
        let e = serde_json::from_str::<OrderedObject>(r#"{"b": 1, "a": 2, "b": 3}"#).unwrap_err();
        assert!(e.is_data() && e.to_string().contains("`b`"), "{e}");
        let o = serde_json::from_str::<OrderedObject>(r#"{"b": 1, "a": 2}"#).unwrap();
        assert_eq!(o.0.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>(), ["b", "a"]);
    }

    #[test]
    fn values_read_as_serde_json_reads_them() {
        let text = r#"{"n": -3, "u": 18446744073709551615, "f": 0.1, "s": "é", "t": true, "v": [], "o": {}}"#;
        assert_eq!(from_str(text).unwrap(), serde_json::from_str::<Value>(text).unwrap());
    }
}
