//! wasm bindings: validation. `validate(text)` parses and checks one shader; `link(vs, fs)`
//! checks both and their linkage. Each returns an array of plain objects
//! `{code, severity, message, line, column, endLine, endColumn, span: {start, end}, related: [...]}`
//! (for `link`, an object `{vs: [...], fs: [...]}`).

use crate::diag::{self, Diagnostic};
use crate::ir::{LineIndex, Shader};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// One related place, as the page receives it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsRelated {
    message: String,
    line: u32,
    column: u32,
    span: JsSpan,
}

#[derive(Serialize)]
struct JsSpan {
    start: u32,
    end: u32,
}

/// One diagnostic, as the page receives it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsDiagnostic {
    code: &'static str,
    severity: &'static str,
    message: String,
    line: u32,
    column: u32,
    end_line: u32,
    end_column: u32,
    span: JsSpan,
    related: Vec<JsRelated>,
}

#[derive(Serialize)]
struct JsLink {
    vs: Vec<JsDiagnostic>,
    fs: Vec<JsDiagnostic>,
}

fn to_js(d: &Diagnostic) -> JsDiagnostic {
    JsDiagnostic {
        code: d.code,
        severity: d.severity.word(),
        message: d.message.clone(),
        line: d.line,
        column: d.column,
        end_line: d.end_line,
        end_column: d.end_column,
        span: JsSpan { start: d.span.start, end: d.span.end },
        related: d
            .related
            .iter()
            .map(|r| JsRelated { message: r.message.clone(), line: r.line, column: r.column, span: JsSpan { start: r.span.start, end: r.span.end } })
            .collect(),
    }
}

/// Parses and validates; parse diagnostics first, then the validator's, all located.
fn check_text(text: &str) -> (Option<Shader>, Vec<Diagnostic>) {
    let parsed = crate::text::parse(text);
    let mut diags = parsed.diagnostics;
    if let Some(shader) = &parsed.shader {
        let mut v = crate::valid::check(shader, &crate::valid::Options::default());
        diag::locate(&mut v, &LineIndex::new(text));
        diags.extend(v);
    }
    (parsed.shader, diags)
}

fn serialize<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    let ser = serde_wasm_bindgen::Serializer::json_compatible();
    value.serialize(&ser).map_err(|e| JsValue::from_str(&e.to_string()))
}

/// Validates one TGSI shader text.
#[wasm_bindgen]
pub fn validate(text: &str) -> Result<JsValue, JsValue> {
    let (_, diags) = check_text(text);
    serialize(&diags.iter().map(to_js).collect::<Vec<_>>())
}

/// Validates a vertex and a fragment shader and the linkage between them.
#[wasm_bindgen]
pub fn link(vs_text: &str, fs_text: &str) -> Result<JsValue, JsValue> {
    let (vs, mut vd) = check_text(vs_text);
    let (fs, mut fd) = check_text(fs_text);
    if let (Some(vs), Some(fs)) = (&vs, &fs) {
        let (mut lv, mut lf) = crate::valid::link(vs, fs);
        diag::locate(&mut lv, &LineIndex::new(vs_text));
        diag::locate(&mut lf, &LineIndex::new(fs_text));
        vd.extend(lv);
        fd.extend(lf);
    }
    serialize(&JsLink { vs: vd.iter().map(to_js).collect(), fs: fd.iter().map(to_js).collect() })
}
