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
        let d = Diagnostic::error(
            "A0100",
            format!("program type must be 'vertex' or 'fragment', not '{}'", kind),
            Span::default(),
        );
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
        Err(e) => to_js(&DisassembleResult {
            ok: false,
            version: 0,
            kind: None,
            text: String::new(),
            error: Some(e),
            findings: Vec::new(),
        }),
    }
}

#[derive(Serialize)]
struct ExportResult {
    ok: bool,
    version: u32,
    bytes: Vec<u8>,
    assembly: String,
    layout: agal::lower::Layout,
    layout_text: String,
    diagnostics: Vec<Diagnostic>,
}

fn export_result(
    text: &str,
    parse_diags: Vec<Diagnostic>,
    e: Option<agal::lower::Export>,
) -> ExportResult {
    let mut diagnostics = parse_diags;
    let Some(e) = e else {
        return ExportResult {
            ok: false,
            version: 0,
            bytes: Vec::new(),
            assembly: String::new(),
            layout: Default::default(),
            layout_text: String::new(),
            diagnostics,
        };
    };
    diagnostics.extend(e.diagnostics.iter().cloned());
    diag::locate(&mut diagnostics, &LineIndex::new(text));
    ExportResult {
        ok: e.program.is_some(),
        version: e.version,
        layout_text: e.layout.to_text(),
        bytes: e.bytes,
        assembly: e.assembly,
        layout: e.layout,
        diagnostics,
    }
}

fn export_options(version: u32) -> agal::lower::ExportOptions {
    agal::lower::ExportOptions {
        version: (1..=3).contains(&version).then_some(version),
        ..Default::default()
    }
}

/// `agalExport(tgsiText, version)` → `{ ok, version, bytes, assembly, layout, layout_text,
/// diagnostics }`; `version` 0 picks the lowest AGAL version that fits.
#[wasm_bindgen(js_name = agalExport)]
pub fn agal_export(text: &str, version: u32) -> JsValue {
    let parsed = crate::text::parse(text);
    let mut diags = parsed.diagnostics;
    let analysed = parsed.shader.as_ref().and_then(|s| validated(s, &mut diags));
    let e = analysed.map(|a| agal::lower::export(&a, &export_options(version)));
    to_js(&export_result(text, diags, e))
}

/// `agalExportPair(vsText, fsText, version)` → `[vertexResult, fragmentResult]`, with varyings
/// packed and one AGAL version for both.
#[wasm_bindgen(js_name = agalExportPair)]
pub fn agal_export_pair(vs_text: &str, fs_text: &str, version: u32) -> JsValue {
    let vs = crate::text::parse(vs_text);
    let fs = crate::text::parse(fs_text);
    let (mut vs_diags, mut fs_diags) = (vs.diagnostics, fs.diagnostics);
    let v = vs.shader.as_ref().and_then(|s| validated(s, &mut vs_diags));
    let f = fs.shader.as_ref().and_then(|s| validated(s, &mut fs_diags));
    let (a, b) = match (v, f) {
        (Some(v), Some(f)) => {
            let (a, b) = agal::lower::export_pair(&v, &f, &export_options(version));
            (Some(a), Some(b))
        }
        _ => (None, None),
    };
    to_js(&(export_result(vs_text, vs_diags, a), export_result(fs_text, fs_diags, b)))
}

/// The analysed shader, or `None` with the validator's diagnostics added: the export only
/// takes programs the validator accepted.
fn validated<'s>(
    shader: &'s crate::ir::Shader,
    diags: &mut Vec<Diagnostic>,
) -> Option<crate::valid::Analysed<'s>> {
    match crate::valid::analyse(shader, &crate::valid::Options::default()) {
        Ok(a) => Some(a),
        Err(all) => {
            diags.extend(all);
            None
        }
    }
}
