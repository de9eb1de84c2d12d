//! The gloo-worker [`Codec`] of the viewer: messages become plain JS values through
//! serde-wasm-bindgen, so a field marked `#[serde(with = "serde_wasm_bindgen::preserve")]`
//! (the user's `File`/`Blob` objects) passes to the worker by structured clone without being
//! copied into wasm memory on the page; bulky results travel as bincode bytes
//! ([`Packed`]), which arrive as one `Uint8Array`.
//!
//! gloo's `Codec::decode` cannot return an error, so a message that does not decode becomes a
//! value instead ([`undecodable`]): the `Undecodable` variant of [`super::protocol::Request`] or
//! [`super::protocol::Response`] carrying the decoder's message, delivered to the same bridge, so
//! the page shows it and keeps working.

use std::marker::PhantomData;

use gloo::worker::Codec;
use js_sys::{Array, Object, Reflect};
use serde::de::{DeserializeOwned, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use wasm_bindgen::JsValue;

/// serde-wasm-bindgen with 64-bit integers as `BigInt` (a seed may exceed 2^53).
#[derive(Debug)]
pub struct WebCodec;

fn serializer() -> serde_wasm_bindgen::Serializer {
    serde_wasm_bindgen::Serializer::new().serialize_large_number_types_as_bigints(true).serialize_maps_as_objects(true)
}

impl Codec for WebCodec {
    fn encode<I: Serialize>(input: I) -> JsValue {
        match input.serialize(&serializer()) {
            Ok(v) => v,
            Err(e) => {
                // Only this crate's own message types are encoded; report and send nothing
                // decodable rather than take the page down.
                gloo::console::error!(format!("memaudit: could not encode a message: {e}"));
                JsValue::UNDEFINED
            }
        }
    }

    fn decode<O: DeserializeOwned>(input: JsValue) -> O {
        match serde_wasm_bindgen::from_value(input.clone()) {
            Ok(v) => v,
            Err(e) => undecodable(&input, &e.to_string()),
        }
    }
}

/// gloo-worker's envelope variants that carry a payload, as `{Variant: [handler, payload]}`.
const CARRIERS: [&str; 2] = ["ProcessInput", "ProcessOutput"];

/// The value a message that does not decode becomes, tried in order: the same envelope (same
/// handler) with the payload replaced by `{Undecodable: {message}}`; that payload alone (a bare
/// `Request`/`Response`); an envelope that carries nothing (`WorkerLoaded` to the page, a
/// `Disconnected` the worker ignores). Only if none of these is a value of `O` (not one of this
/// crate's message types) is a JavaScript exception thrown — never a Rust panic.
pub fn undecodable<O: DeserializeOwned>(input: &JsValue, error: &str) -> O {
    let message = format!("a message between the page and the worker could not be read: {error}");
    for candidate in fallbacks(input, &message) {
        if let Ok(v) = serde_wasm_bindgen::from_value(candidate) {
            return v;
        }
    }
    wasm_bindgen::throw_str(&message)
}

fn object(key: &str, value: &JsValue) -> JsValue {
    let o = Object::new();
    // Setting a property on a fresh plain object cannot fail.
    let _ = Reflect::set(&o, &JsValue::from_str(key), value);
    o.into()
}

fn fallbacks(input: &JsValue, message: &str) -> Vec<JsValue> {
    let payload = object("Undecodable", &object("message", &JsValue::from_str(message)));
    let mut out = Vec::new();
    if input.is_object() {
        for key in CARRIERS {
            if let Ok(inner) = Reflect::get(input, &JsValue::from_str(key))
                && Array::is_array(&inner)
            {
                let handler = Array::from(&inner).get(0);
                out.push(object(key, &Array::of2(&handler, &payload)));
            }
        }
    }
    out.push(payload);
    out.push(JsValue::from_str("WorkerLoaded"));
    out.push(object("Disconnected", &JsValue::from_f64(0.0)));
    out
}

/// A value shipped as bincode bytes (one `Uint8Array` on the JS side): much cheaper than a
/// tree of JS objects for a [`crate::audit::Report`] with tens of thousands of rows.
#[derive(Debug, Clone, PartialEq)]
pub struct Packed<T> {
    bytes: Vec<u8>,
    _marker: PhantomData<T>,
}

impl<T: Serialize + DeserializeOwned> Packed<T> {
    pub fn pack(value: &T) -> Result<Packed<T>, String> {
        bincode::serialize(value)
            .map(|bytes| Packed { bytes, _marker: PhantomData })
            .map_err(|e| format!("could not encode the result: {e}"))
    }

    pub fn unpack(&self) -> Result<T, String> {
        bincode::deserialize(&self.bytes).map_err(|e| format!("could not decode the result: {e}"))
    }

    /// Size on the wire.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }
}

impl<T> Serialize for Packed<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(&self.bytes)
    }
}

impl<'de, T> Deserialize<'de> for Packed<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct BytesVisitor;
        impl<'de> Visitor<'de> for BytesVisitor {
            type Value = Vec<u8>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("bytes")
            }
            fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<Vec<u8>, E> {
                Ok(v.to_vec())
            }
            fn visit_byte_buf<E: serde::de::Error>(self, v: Vec<u8>) -> Result<Vec<u8>, E> {
                Ok(v)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<u8>, A::Error> {
                let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0));
                while let Some(b) = seq.next_element::<u8>()? {
                    out.push(b);
                }
                Ok(out)
            }
        }
        d.deserialize_byte_buf(BytesVisitor).map(|bytes| Packed { bytes, _marker: PhantomData })
    }
}
