//! Reads the MessagePack of a [`super::protocol::Payload`] into a typed value: the page's
//! decoder of every report, overview and drill-down the worker sends (and the worker's of the
//! page's requests).
//!
//! Written by hand for the page module's size. serde's derived `Deserialize` asks for what it
//! wants (`deserialize_struct`, `deserialize_seq`, `deserialize_u32`, …), but rmp-serde answers
//! most of those requests through one `deserialize_any` that can call every `visit_*` method,
//! so each of the page's ~630 visitor types compiled all ~28 of them; a type-erased layer
//! (`erased_serde`) moved that cost into one wrapper per method and type instead (BENCHMARKS.md,
//! "Viewer size"). This reader answers each request with only the visits that request can
//! produce (a struct: a map; a number: `visit_u64` / `visit_i64` / `visit_f64`; an option:
//! `visit_none` / `visit_some`), so a visitor type compiles only the methods it is asked for.
//! `deserialize_any` stays complete for the few visitors that need it (serde's buffered
//! content of flattened fields and untagged enums).
//!
//! It reads what rmp-serde writes with named fields (`rmp_serde::to_vec_named`, the only
//! encoder of payloads): structs as maps, unit variants as their name, other variants as a map
//! `{name: value}`, `None` and `()` as nil, unit structs as an empty array, newtype structs as
//! their value, `i128` / `u128` as 16 big-endian bytes. Its tests check every one of these
//! shapes against rmp-serde's own decoder. Anything malformed is an error value (a truncated
//! input, a wrong type, invalid UTF-8, nesting deeper than [`MAX_DEPTH`], trailing bytes).

use std::fmt;

use serde::de::{
    self, DeserializeOwned, DeserializeSeed, EnumAccess, MapAccess, SeqAccess, Unexpected, VariantAccess, Visitor,
};

/// MessagePack's nil (`None`, `()`).
const NIL: u8 = 0xc0;

/// Containers nested deeper than this are refused (the page's types nest about ten deep).
pub const MAX_DEPTH: usize = 128;

/// Decodes one value that fills `bytes` exactly.
pub fn from_slice<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, DecodeError> {
    let mut reader = Reader { input: bytes, depth: 0 };
    let value = T::deserialize(&mut reader)?;
    if reader.input.is_empty() {
        Ok(value)
    } else {
        Err(DecodeError(format!("{} bytes after the value", reader.input.len())))
    }
}

/// Why a payload did not decode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError(String);

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DecodeError {}

impl de::Error for DecodeError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        DecodeError(msg.to_string())
    }
}

/// One value's head: a scalar with its payload, or a container with its length.
#[derive(Debug, Clone, Copy)]
enum Head<'a> {
    Nil,
    Bool(bool),
    Uint(u64),
    Int(i64),
    F32(f32),
    F64(f64),
    Str(&'a str),
    Bin(&'a [u8]),
    Array(u32),
    Map(u32),
    Ext,
}

impl<'a> Head<'a> {
    fn unexpected(self) -> Unexpected<'a> {
        match self {
            Head::Nil => Unexpected::Unit,
            Head::Bool(b) => Unexpected::Bool(b),
            Head::Uint(u) => Unexpected::Unsigned(u),
            Head::Int(i) => Unexpected::Signed(i),
            Head::F32(x) => Unexpected::Float(x.into()),
            Head::F64(x) => Unexpected::Float(x),
            Head::Str(s) => Unexpected::Str(s),
            Head::Bin(b) => Unexpected::Bytes(b),
            Head::Array(_) => Unexpected::Seq,
            Head::Map(_) => Unexpected::Map,
            Head::Ext => Unexpected::Other("a MessagePack extension"),
        }
    }
}

/// The bytes still to read, and how deep in containers the reader is.
struct Reader<'a> {
    input: &'a [u8],
    depth: usize,
}

impl<'a> Reader<'a> {
    fn early(&self, n: usize) -> DecodeError {
        DecodeError(format!("the input ends {} bytes early", n - self.input.len()))
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], DecodeError> {
        match self.input.split_at_checked(n) {
            Some((head, rest)) => {
                self.input = rest;
                Ok(head)
            }
            None => Err(self.early(n)),
        }
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], DecodeError> {
        match self.input.split_first_chunk::<N>() {
            Some((head, rest)) => {
                self.input = rest;
                Ok(*head)
            }
            None => Err(self.early(N)),
        }
    }

    fn length(&mut self, bytes: usize) -> Result<usize, DecodeError> {
        Ok(match bytes {
            1 => usize::from(self.array::<1>()?[0]),
            2 => usize::from(u16::from_be_bytes(self.array()?)),
            _ => u32::from_be_bytes(self.array()?) as usize,
        })
    }

    /// Reads a value's first byte and what follows it for a scalar, by the MessagePack
    /// specification's table of first bytes. One match on the byte, the shapes of nearly every
    /// value of a report first (a field's name, a small count, a struct, a number): the marker
    /// enum of the `rmp` crate was a second dispatch on this hot path.
    fn head(&mut self) -> Result<Head<'a>, DecodeError> {
        let [byte] = self.array::<1>()?;
        Ok(match byte {
            0xa0..=0xbf => self.str(usize::from(byte & 0x1f))?,
            0x00..=0x7f => Head::Uint(byte.into()),
            0x80..=0x8f => Head::Map((byte & 0x0f).into()),
            0xcb => Head::F64(f64::from_be_bytes(self.array()?)),
            0x90..=0x9f => Head::Array((byte & 0x0f).into()),
            0xe0..=0xff => Head::Int(i64::from(byte as i8)),
            NIL => Head::Nil,
            0xc2 => Head::Bool(false),
            0xc3 => Head::Bool(true),
            0xc4 => self.sized(1, Reader::bin)?,
            0xc5 => self.sized(2, Reader::bin)?,
            0xc6 => self.sized(4, Reader::bin)?,
            0xc7 => self.sized(1, Reader::ext)?,
            0xc8 => self.sized(2, Reader::ext)?,
            0xc9 => self.sized(4, Reader::ext)?,
            0xca => Head::F32(f32::from_be_bytes(self.array()?)),
            0xcc => Head::Uint(self.array::<1>()?[0].into()),
            0xcd => Head::Uint(u16::from_be_bytes(self.array()?).into()),
            0xce => Head::Uint(u32::from_be_bytes(self.array()?).into()),
            0xcf => Head::Uint(u64::from_be_bytes(self.array()?)),
            0xd0 => Head::Int(i8::from_be_bytes(self.array()?).into()),
            0xd1 => Head::Int(i16::from_be_bytes(self.array()?).into()),
            0xd2 => Head::Int(i32::from_be_bytes(self.array()?).into()),
            0xd3 => Head::Int(i64::from_be_bytes(self.array()?)),
            0xd4 => self.ext(1)?,
            0xd5 => self.ext(2)?,
            0xd6 => self.ext(4)?,
            0xd7 => self.ext(8)?,
            0xd8 => self.ext(16)?,
            0xd9 => self.sized(1, Reader::str)?,
            0xda => self.sized(2, Reader::str)?,
            0xdb => self.sized(4, Reader::str)?,
            0xdc => Head::Array(u16::from_be_bytes(self.array()?).into()),
            0xdd => Head::Array(u32::from_be_bytes(self.array()?)),
            0xde => Head::Map(u16::from_be_bytes(self.array()?).into()),
            0xdf => Head::Map(u32::from_be_bytes(self.array()?)),
            0xc1 => return Err(DecodeError(format!("the reserved byte {byte:#04x}"))),
        })
    }

    fn sized(
        &mut self,
        bytes: usize,
        read: fn(&mut Self, usize) -> Result<Head<'a>, DecodeError>,
    ) -> Result<Head<'a>, DecodeError> {
        let n = self.length(bytes)?;
        read(self, n)
    }

    fn str(&mut self, n: usize) -> Result<Head<'a>, DecodeError> {
        let bytes = self.take(n)?;
        std::str::from_utf8(bytes).map(Head::Str).map_err(|e| DecodeError(format!("a string that is not UTF-8: {e}")))
    }

    fn bin(&mut self, n: usize) -> Result<Head<'a>, DecodeError> {
        self.take(n).map(Head::Bin)
    }

    /// An extension's type byte and data (read past: no payload carries one).
    fn ext(&mut self, n: usize) -> Result<Head<'a>, DecodeError> {
        self.take(n + 1).map(|_| Head::Ext)
    }

    fn next_is_nil(&self) -> bool {
        self.input.first() == Some(&NIL)
    }

    /// Reads past one whole value (containers without recursion).
    fn skip(&mut self) -> Result<(), DecodeError> {
        let mut pending: u64 = 1;
        while pending > 0 {
            pending -= 1;
            match self.head()? {
                Head::Array(n) => pending += u64::from(n),
                Head::Map(n) => pending += 2 * u64::from(n),
                _ => {}
            }
        }
        Ok(())
    }

    /// Visits a container's `len` items through `visit`, then checks the visitor read them all.
    fn within<T>(
        &mut self,
        len: u32,
        visit: impl FnOnce(&mut Self, &mut u32) -> Result<T, DecodeError>,
    ) -> Result<T, DecodeError> {
        if self.depth >= MAX_DEPTH {
            return Err(DecodeError(format!("containers nested more than {MAX_DEPTH} deep")));
        }
        self.depth += 1;
        let mut left = len;
        let value = visit(self, &mut left)?;
        self.depth -= 1;
        if left == 0 { Ok(value) } else { Err(DecodeError(format!("{left} of {len} items were not read"))) }
    }

    fn visit_seq<V: Visitor<'a>>(&mut self, len: u32, visitor: V) -> Result<V::Value, DecodeError> {
        self.within(len, |reader, left| visitor.visit_seq(Items { reader, left }))
    }

    fn visit_map<V: Visitor<'a>>(&mut self, len: u32, visitor: V) -> Result<V::Value, DecodeError> {
        self.within(len, |reader, left| visitor.visit_map(Items { reader, left }))
    }

    fn integer<V: Visitor<'a>>(&mut self, visitor: V) -> Result<V::Value, DecodeError> {
        match self.head()? {
            Head::Uint(u) => visitor.visit_u64(u),
            Head::Int(i) => visitor.visit_i64(i),
            other => Err(de::Error::invalid_type(other.unexpected(), &visitor)),
        }
    }

    fn float<V: Visitor<'a>>(&mut self, visitor: V) -> Result<V::Value, DecodeError> {
        match self.head()? {
            Head::F64(x) => visitor.visit_f64(x),
            Head::F32(x) => visitor.visit_f64(x.into()),
            Head::Uint(u) => visitor.visit_u64(u),
            Head::Int(i) => visitor.visit_i64(i),
            other => Err(de::Error::invalid_type(other.unexpected(), &visitor)),
        }
    }

    fn text<V: Visitor<'a>>(&mut self, visitor: V) -> Result<V::Value, DecodeError> {
        match self.head()? {
            Head::Str(s) => visitor.visit_borrowed_str(s),
            Head::Bin(b) => visitor.visit_borrowed_bytes(b),
            other => Err(de::Error::invalid_type(other.unexpected(), &visitor)),
        }
    }

    fn wide<V: Visitor<'a>>(&mut self, visitor: V, signed: bool) -> Result<V::Value, DecodeError> {
        match self.head()? {
            Head::Bin(b) if b.len() == 16 => {
                let mut be = [0; 16];
                be.copy_from_slice(b);
                if signed {
                    visitor.visit_i128(i128::from_be_bytes(be))
                } else {
                    visitor.visit_u128(u128::from_be_bytes(be))
                }
            }
            Head::Uint(u) => visitor.visit_u64(u),
            Head::Int(i) => visitor.visit_i64(i),
            other => Err(de::Error::invalid_type(other.unexpected(), &visitor)),
        }
    }

    fn sequence<V: Visitor<'a>>(&mut self, visitor: V) -> Result<V::Value, DecodeError> {
        match self.head()? {
            Head::Array(n) => self.visit_seq(n, visitor),
            other => Err(de::Error::invalid_type(other.unexpected(), &visitor)),
        }
    }

    fn mapping<V: Visitor<'a>>(&mut self, visitor: V) -> Result<V::Value, DecodeError> {
        match self.head()? {
            Head::Map(n) => self.visit_map(n, visitor),
            other => Err(de::Error::invalid_type(other.unexpected(), &visitor)),
        }
    }
}

macro_rules! answer {
    ($($method:ident => $how:ident;)*) => {
        $(fn $method<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DecodeError> {
            self.$how(visitor)
        })*
    };
}

impl<'a> de::Deserializer<'a> for &mut Reader<'a> {
    type Error = DecodeError;

    fn deserialize_any<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        match self.head()? {
            Head::Nil => visitor.visit_unit(),
            Head::Bool(b) => visitor.visit_bool(b),
            Head::Uint(u) => visitor.visit_u64(u),
            Head::Int(i) => visitor.visit_i64(i),
            Head::F32(x) => visitor.visit_f32(x),
            Head::F64(x) => visitor.visit_f64(x),
            Head::Str(s) => visitor.visit_borrowed_str(s),
            Head::Bin(b) => visitor.visit_borrowed_bytes(b),
            Head::Array(n) => self.visit_seq(n, visitor),
            Head::Map(n) => self.visit_map(n, visitor),
            other @ Head::Ext => Err(de::Error::invalid_type(other.unexpected(), &visitor)),
        }
    }

    answer! {
        deserialize_i8 => integer; deserialize_i16 => integer; deserialize_i32 => integer;
        deserialize_i64 => integer; deserialize_u8 => integer; deserialize_u16 => integer;
        deserialize_u32 => integer; deserialize_u64 => integer;
        deserialize_f32 => float; deserialize_f64 => float;
        deserialize_char => text; deserialize_str => text; deserialize_string => text;
        deserialize_bytes => text; deserialize_byte_buf => text; deserialize_identifier => text_or_index;
        deserialize_seq => sequence; deserialize_map => mapping;
    }

    fn deserialize_i128<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        self.wide(visitor, true)
    }

    fn deserialize_u128<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        self.wide(visitor, false)
    }

    fn deserialize_bool<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        match self.head()? {
            Head::Bool(b) => visitor.visit_bool(b),
            other => Err(de::Error::invalid_type(other.unexpected(), &visitor)),
        }
    }

    fn deserialize_option<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        if self.next_is_nil() {
            self.head()?;
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_unit<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        match self.head()? {
            Head::Nil => visitor.visit_unit(),
            other => Err(de::Error::invalid_type(other.unexpected(), &visitor)),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'a>>(self, _: &'static str, visitor: V) -> Result<V::Value, DecodeError> {
        match self.head()? {
            Head::Nil | Head::Array(0) => visitor.visit_unit(),
            other => Err(de::Error::invalid_type(other.unexpected(), &visitor)),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'a>>(self, _: &'static str, visitor: V) -> Result<V::Value, DecodeError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_tuple<V: Visitor<'a>>(self, _: usize, visitor: V) -> Result<V::Value, DecodeError> {
        self.sequence(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'a>>(
        self,
        _: &'static str,
        _: usize,
        visitor: V,
    ) -> Result<V::Value, DecodeError> {
        self.sequence(visitor)
    }

    /// Structs arrive as maps of named fields (`to_vec_named`); an array is refused.
    fn deserialize_struct<V: Visitor<'a>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DecodeError> {
        self.mapping(visitor)
    }

    fn deserialize_enum<V: Visitor<'a>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DecodeError> {
        match self.head()? {
            Head::Str(name) => visitor.visit_enum(UnitVariant(name)),
            // One entry, read by the variant access (its name, then its value).
            Head::Map(1) => self.within(1, |reader, left| {
                *left = 0;
                visitor.visit_enum(Variant(reader))
            }),
            other => Err(de::Error::invalid_type(other.unexpected(), &visitor)),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        self.skip()?;
        visitor.visit_unit()
    }

    fn is_human_readable(&self) -> bool {
        false
    }
}

impl<'a> Reader<'a> {
    /// A field's or variant's name (or its index, which rmp-serde writes without names).
    fn text_or_index<V: Visitor<'a>>(&mut self, visitor: V) -> Result<V::Value, DecodeError> {
        match self.head()? {
            Head::Str(s) => visitor.visit_borrowed_str(s),
            Head::Uint(u) => visitor.visit_u64(u),
            Head::Bin(b) => visitor.visit_borrowed_bytes(b),
            other => Err(de::Error::invalid_type(other.unexpected(), &visitor)),
        }
    }
}

/// The items of an array (values) or a map (keys then values) still to read.
struct Items<'r, 'a> {
    reader: &'r mut Reader<'a>,
    left: &'r mut u32,
}

impl<'a> Items<'_, 'a> {
    /// The next element of an array, or the next key of a map (`None` after the last).
    fn next<S: DeserializeSeed<'a>>(&mut self, seed: S) -> Result<Option<S::Value>, DecodeError> {
        if *self.left == 0 {
            return Ok(None);
        }
        *self.left -= 1;
        seed.deserialize(&mut *self.reader).map(Some)
    }
}

impl<'a> SeqAccess<'a> for Items<'_, 'a> {
    type Error = DecodeError;

    fn next_element_seed<T: DeserializeSeed<'a>>(&mut self, seed: T) -> Result<Option<T::Value>, DecodeError> {
        self.next(seed)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(*self.left as usize)
    }
}

impl<'a> MapAccess<'a> for Items<'_, 'a> {
    type Error = DecodeError;

    fn next_key_seed<K: DeserializeSeed<'a>>(&mut self, seed: K) -> Result<Option<K::Value>, DecodeError> {
        self.next(seed)
    }

    fn next_value_seed<V: DeserializeSeed<'a>>(&mut self, seed: V) -> Result<V::Value, DecodeError> {
        seed.deserialize(&mut *self.reader)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(*self.left as usize)
    }
}

/// A unit variant, written as its name alone.
struct UnitVariant<'a>(&'a str);

impl<'a> EnumAccess<'a> for UnitVariant<'a> {
    type Error = DecodeError;
    type Variant = Self;

    fn variant_seed<S: DeserializeSeed<'a>>(self, seed: S) -> Result<(S::Value, Self), DecodeError> {
        let name = de::value::BorrowedStrDeserializer::<DecodeError>::new(self.0);
        Ok((seed.deserialize(name)?, self))
    }
}

impl<'a> VariantAccess<'a> for UnitVariant<'a> {
    type Error = DecodeError;

    fn unit_variant(self) -> Result<(), DecodeError> {
        Ok(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'a>>(self, _: T) -> Result<T::Value, DecodeError> {
        Err(de::Error::invalid_type(Unexpected::UnitVariant, &"a newtype variant"))
    }

    fn tuple_variant<V: Visitor<'a>>(self, _: usize, _: V) -> Result<V::Value, DecodeError> {
        Err(de::Error::invalid_type(Unexpected::UnitVariant, &"a tuple variant"))
    }

    fn struct_variant<V: Visitor<'a>>(self, _: &'static [&'static str], _: V) -> Result<V::Value, DecodeError> {
        Err(de::Error::invalid_type(Unexpected::UnitVariant, &"a struct variant"))
    }
}

/// A variant with data, written as a map of one entry `{name: value}`.
struct Variant<'r, 'a>(&'r mut Reader<'a>);

impl<'r, 'a> EnumAccess<'a> for Variant<'r, 'a> {
    type Error = DecodeError;
    type Variant = Self;

    fn variant_seed<S: DeserializeSeed<'a>>(self, seed: S) -> Result<(S::Value, Self), DecodeError> {
        let name = seed.deserialize(&mut *self.0)?;
        Ok((name, self))
    }
}

impl<'a> VariantAccess<'a> for Variant<'_, 'a> {
    type Error = DecodeError;

    fn unit_variant(self) -> Result<(), DecodeError> {
        de::Deserialize::deserialize(self.0)
    }

    fn newtype_variant_seed<T: DeserializeSeed<'a>>(self, seed: T) -> Result<T::Value, DecodeError> {
        seed.deserialize(self.0)
    }

    fn tuple_variant<V: Visitor<'a>>(self, _: usize, visitor: V) -> Result<V::Value, DecodeError> {
        self.0.sequence(visitor)
    }

    fn struct_variant<V: Visitor<'a>>(self, _: &'static [&'static str], visitor: V) -> Result<V::Value, DecodeError> {
        self.0.mapping(visitor)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, HashMap};

    use serde::{Deserialize, Serialize};

    use super::*;

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    enum Shape {
        Unit,
        Newtype(f64),
        Tuple(u8, String),
        Struct { a: i32, b: Option<Box<Shape>> },
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(untagged)]
    enum Loose {
        Number(f64),
        Text(String),
        List(Vec<u16>),
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(tag = "kind")]
    enum Tagged {
        First { x: u32 },
        Second { y: String, z: Vec<i64> },
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    struct Inner {
        label: String,
        #[serde(skip_serializing_if = "Option::is_none", default)]
        note: Option<String>,
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    struct Unit;

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    struct Id(u64);

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    struct Pair(i8, char);

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    struct Everything {
        b: bool,
        small: u8,
        neg: i16,
        big: u64,
        min: i64,
        wide: i128,
        uwide: u128,
        x32: f32,
        x64: f64,
        nan: f64,
        c: char,
        s: String,
        empty: String,
        unicode: String,
        bytes: Payloadish,
        opt_none: Option<u32>,
        opt_some: Option<Option<String>>,
        unit: (),
        unit_struct: Unit,
        id: Id,
        pair: Pair,
        tuple: (u8, f64, String),
        list: Vec<Inner>,
        nested: Vec<Vec<f64>>,
        shapes: Vec<Shape>,
        loose: Vec<Loose>,
        tagged: Vec<Tagged>,
        by_name: BTreeMap<String, Vec<u32>>,
        by_number: HashMap<u32, String>,
        #[serde(flatten)]
        extra: Flattened,
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    struct Flattened {
        flat_a: u32,
        flat_b: Option<Inner>,
    }

    /// Bytes serialised as MessagePack bin, as `Payload` does.
    #[derive(Debug, Clone, PartialEq)]
    struct Payloadish(Vec<u8>);

    impl Serialize for Payloadish {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_bytes(&self.0)
        }
    }

    impl<'de> Deserialize<'de> for Payloadish {
        fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl<'de> Visitor<'de> for V {
                type Value = Payloadish;
                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("bytes")
                }
                fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Payloadish, E> {
                    Ok(Payloadish(v.to_vec()))
                }
            }
            d.deserialize_byte_buf(V)
        }
    }

    fn everything() -> Everything {
        Everything {
            b: true,
            small: 200,
            neg: -300,
            big: u64::MAX,
            min: i64::MIN,
            wide: -(1i128 << 100),
            uwide: u128::MAX - 7,
            x32: 0.1,
            x64: -1.0e-300,
            nan: f64::NAN,
            c: 'é',
            s: "x".repeat(300),
            empty: String::new(),
            unicode: "κ = 0.61 — ✓".into(),
            bytes: Payloadish((0..=255).collect()),
            opt_none: None,
            opt_some: Some(Some("y".into())),
            unit: (),
            unit_struct: Unit,
            id: Id(1 << 40),
            pair: Pair(-5, '✓'),
            tuple: (7, 2.5, "t".into()),
            list: (0..40).map(|i| Inner { label: format!("l{i}"), note: (i % 3 == 0).then(|| "n".into()) }).collect(),
            nested: vec![vec![], vec![1.0, f64::INFINITY], vec![-0.0; 20]],
            shapes: vec![
                Shape::Unit,
                Shape::Newtype(3.5),
                Shape::Tuple(1, "two".into()),
                Shape::Struct { a: -1, b: Some(Box::new(Shape::Struct { a: 2, b: None })) },
            ],
            loose: vec![Loose::Number(1.5), Loose::Text("t".into()), Loose::List(vec![1, 2, u16::MAX])],
            tagged: vec![Tagged::First { x: 9 }, Tagged::Second { y: "why".into(), z: vec![-1, 1 << 50] }],
            by_name: (0..20).map(|i| (format!("k{i}"), vec![i; i as usize])).collect(),
            by_number: (0..5).map(|i| (i * 1000, format!("v{i}"))).collect(),
            extra: Flattened { flat_a: 17, flat_b: Some(Inner { label: "f".into(), note: None }) },
        }
    }

    /// Equality with NaN compared by bits.
    fn same(a: &Everything, b: &Everything) -> bool {
        let mut a = a.clone();
        let mut b = b.clone();
        assert_eq!(a.nan.to_bits(), b.nan.to_bits());
        a.nan = 0.0;
        b.nan = 0.0;
        a == b
    }

    /// rmp-serde's own decoder is the reference for every shape its encoder writes.
    #[test]
    fn every_shape_reads_as_rmp_serde_reads_it() {
        let value = everything();
        let bytes = rmp_serde::to_vec_named(&value).unwrap();
        let ours: Everything = from_slice(&bytes).unwrap();
        let theirs: Everything = rmp_serde::from_slice(&bytes).unwrap();
        assert!(same(&ours, &theirs), "{ours:?}\n{theirs:?}");
        assert!(same(&ours, &value));
        // Top-level scalars and containers too.
        for v in [Shape::Unit, Shape::Newtype(-0.5), Shape::Tuple(0, String::new())] {
            assert_eq!(from_slice::<Shape>(&rmp_serde::to_vec_named(&v).unwrap()).unwrap(), v);
        }
        let long = "y".repeat(70_000);
        assert_eq!(from_slice::<String>(&rmp_serde::to_vec_named(&long).unwrap()).unwrap(), long);
        let list = vec![Some(1u32), None, Some(u32::MAX)];
        assert_eq!(from_slice::<Vec<Option<u32>>>(&rmp_serde::to_vec_named(&list).unwrap()).unwrap(), list);
    }

    #[test]
    fn a_value_of_another_type_is_an_error_naming_both() {
        let bytes = rmp_serde::to_vec_named(&Inner { label: "a".into(), note: None }).unwrap();
        let err = from_slice::<Vec<u32>>(&bytes).unwrap_err().to_string();
        assert!(err.contains("invalid type: map") && err.contains("a sequence"), "{err}");
        let err = from_slice::<u8>(&rmp_serde::to_vec_named(&300u32).unwrap()).unwrap_err().to_string();
        assert!(err.contains("300"), "{err}");
        let err = from_slice::<Inner>(&rmp_serde::to_vec_named(&("a", 1)).unwrap()).unwrap_err().to_string();
        assert!(err.contains("invalid type: sequence"), "{err}");
        let err = from_slice::<Inner>(&rmp_serde::to_vec_named(&BTreeMap::from([("x", 1)])).unwrap());
        assert!(err.unwrap_err().to_string().contains("missing field `label`"));
    }

    #[test]
    fn malformed_input_is_an_error_never_a_panic() {
        let bytes = rmp_serde::to_vec_named(&everything()).unwrap();
        // Every truncation, and every single-byte change, of a payload with every shape.
        for cut in 0..bytes.len() {
            assert!(from_slice::<Everything>(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        let mut changed = bytes.clone();
        for i in (0..bytes.len()).step_by(7) {
            for b in [0x00, 0x7f, 0x90, 0xc1, 0xc4, 0xd9, 0xdd, 0xdf, 0xff] {
                changed[i] = b;
                let _ = from_slice::<Everything>(&changed);
            }
            changed[i] = bytes[i];
        }
        let mut trailing = bytes.clone();
        trailing.push(0xc0);
        assert_eq!(from_slice::<Everything>(&trailing).unwrap_err().to_string(), "1 bytes after the value");
        // Invalid UTF-8 in a string, a huge declared length, nesting too deep.
        assert!(from_slice::<String>(&[0xa2, 0xff, 0xfe]).unwrap_err().to_string().contains("UTF-8"));
        assert!(from_slice::<Vec<u8>>(&[0xdd, 0xff, 0xff, 0xff, 0xff]).is_err());
        assert!(from_slice::<de::IgnoredAny>(&[0xdf, 0xff, 0xff, 0xff, 0xff]).is_err());
        let deep = vec![0x91; MAX_DEPTH + 1];
        let err = from_slice::<de::IgnoredAny>(&deep).unwrap_err();
        assert!(err.to_string().contains("ends"), "ignored values are skipped without recursion: {err}");
        #[derive(Debug, Deserialize)]
        #[allow(dead_code)]
        struct Nest(Vec<Nest>);
        let mut deep = vec![0x91; MAX_DEPTH + 1];
        deep.push(0x90);
        assert!(from_slice::<Nest>(&deep).unwrap_err().to_string().contains("nested"));
    }

    /// Random bytes never panic (the decoder's answer is a value either way).
    #[test]
    fn random_bytes_never_panic() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for _ in 0..20_000 {
            let len = rng.random_range(0..64);
            let bytes: Vec<u8> = (0..len).map(|_| rng.random()).collect();
            let _ = from_slice::<Everything>(&bytes);
            let _ = from_slice::<Vec<Shape>>(&bytes);
            let _ = from_slice::<Loose>(&bytes);
        }
    }
}
