//! wasm bindings: validation. `validate(text)` parses and checks one shader; `link(vs, fs)`
//! checks both and their linkage. Each returns plain JS objects
//! `{code, severity, message, line, column, endLine, endColumn, span: {start, end}, related}`
//! (for `link`, `{vs: [...], fs: [...]}`); the data is built by `valid::report`.

use serde::Serialize;
use wasm_bindgen::prelude::*;

fn serialize<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    let ser = serde_wasm_bindgen::Serializer::json_compatible();
    value.serialize(&ser).map_err(|e| JsValue::from_str(&e.to_string()))
}

/// Validates one TGSI shader text.
#[wasm_bindgen]
pub fn validate(text: &str) -> Result<JsValue, JsValue> {
    serialize(&crate::valid::report::validate(text))
}

/// Validates a vertex and a fragment shader and the linkage between them.
#[wasm_bindgen]
pub fn link(vs_text: &str, fs_text: &str) -> Result<JsValue, JsValue> {
    serialize(&crate::valid::report::link(vs_text, fs_text))
}
