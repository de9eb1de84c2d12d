//! Messages between a page and its worker become plain JS values through serde-wasm-bindgen,
//! so a field marked `#[serde(with = "serde_wasm_bindgen::preserve")]` (the user's
//! `File`/`Blob` objects) passes to the worker by structured clone without being copied into
//! wasm memory; bulky values travel as [`super::protocol::Payload`] bytes (one `Uint8Array`).
//!
//! A message that does not decode becomes a value ([`decode_request`], [`decode_response`]):
//! the `Undecodable` variant carrying the decoder's message, so the page shows it and keeps
//! working — never a panic.

use serde::Serialize;
use wasm_bindgen::JsValue;

use super::protocol::{Request, Response};

/// serde-wasm-bindgen with 64-bit integers as `BigInt` (a seed may exceed 2^53).
fn serializer() -> serde_wasm_bindgen::Serializer {
    serde_wasm_bindgen::Serializer::new().serialize_large_number_types_as_bigints(true).serialize_maps_as_objects(true)
}

/// A message as a JS value (`Err`: only this crate's own types are encoded, so this is a
/// programming error; the caller reports it instead of sending).
pub fn encode<T: Serialize>(value: &T) -> Result<JsValue, String> {
    value.serialize(&serializer()).map_err(|e| format!("could not encode a message: {e}"))
}

fn undecodable(error: impl std::fmt::Display) -> String {
    format!("a message between the page and the worker could not be read: {error}")
}

/// A request as the worker receives it.
pub fn decode_request(value: JsValue) -> Request {
    serde_wasm_bindgen::from_value(value).unwrap_or_else(|e| Request::Undecodable { message: undecodable(e) })
}

/// A response as the page receives it.
pub fn decode_response(value: JsValue) -> Response {
    serde_wasm_bindgen::from_value(value).unwrap_or_else(|e| Response::Undecodable { message: undecodable(e) })
}
