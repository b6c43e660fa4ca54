//! wasm bindings: AGAL assembly, disassembly and the TGSI → AGAL export (`docs/agal.md`).
//! Results are plain JS objects (serde-wasm-bindgen); failures are reported inside them as
//! diagnostics rather than thrown.

use crate::agal::{self, ShaderKind};
use crate::diag::{self, Diagnostic};
use crate::ir::{LineIndex, Span};
use serde::Serialize;
use wasm_bindgen::prelude::*;

fn to_js<T: Serialize>(v: &T) -> JsValue {
    serde_wasm_bindgen::to_value(v).unwrap_or(JsValue::NULL)
}

#[derive(Serialize)]
struct AssembleResult {
    bytes: Vec<u8>,
    diagnostics: Vec<Diagnostic>,
}

/// `agalAssemble(text, "vertex"|"fragment", version)` → `{ bytes, diagnostics }`. `bytes` is
/// empty when the text has assembler errors; validator findings are diagnostics too.
#[wasm_bindgen(js_name = agalAssemble)]
pub fn agal_assemble(text: &str, kind: &str, version: u32) -> JsValue {
    let Some(kind) = ShaderKind::from_word(kind) else {
        let d = Diagnostic::error("A0100", format!("program type must be 'vertex' or 'fragment', not '{}'", kind), Span::default());
        return to_js(&AssembleResult { bytes: Vec::new(), diagnostics: vec![d] });
    };
    let a = agal::assemble(text, kind, version);
    let mut diags = a.errors.clone();
    let bytes = if diags.is_empty() {
        let whole = Span::new(0, text.len());
        diags.extend(agal::validate(&a.program).iter().map(|f| f.to_diagnostic(&a.spans, whole)));
        agal::encode(&a.program)
    } else {
        Vec::new()
    };
    diag::locate(&mut diags, &LineIndex::new(text));
    to_js(&AssembleResult { bytes, diagnostics: diags })
}

#[derive(Serialize)]
struct DisassembleResult {
    ok: bool,
    version: u32,
    kind: Option<ShaderKind>,
    text: String,
    /// Decoder error: byte offset, code and message.
    error: Option<agal::DecodeError>,
    findings: Vec<agal::Finding>,
}

/// `agalDisassemble(bytes)` → `{ ok, version, kind, text, error, findings }`.
#[wasm_bindgen(js_name = agalDisassemble)]
pub fn agal_disassemble(bytes: &[u8]) -> JsValue {
    match agal::decode(bytes) {
        Ok(p) => to_js(&DisassembleResult {
            ok: true,
            version: p.version,
            kind: Some(p.kind),
            text: agal::disassemble(&p),
            error: None,
            findings: agal::validate(&p),
        }),
        Err(e) => to_js(&DisassembleResult { ok: false, version: 0, kind: None, text: String::new(), error: Some(e), findings: Vec::new() }),
    }
}
