//! wasm bindings: the language front end.
//!
//! * `parse(text)` → `{shader, diagnostics}`: the shader model as a plain object (`null` when
//!   the text has errors) and every diagnostic;
//! * `format(text, style)` → `{text, diagnostics}`: the shader printed in `"mesa"` or `"exact"`
//!   style (`text` is `null` when it does not parse);
//! * `opcodes()` → the opcode table, one object per row, for the reference page and hover help;
//! * `vocabulary()` → every word of the language (`text::vocabulary`), for highlighting and
//!   completion;
//! * `describe(text)` → what the text declares (`text::summary`): declarations with their lines,
//!   constant slots, sampler units (`null` when it does not parse);
//! * `builtinLayout()` → `{buffer, slots}`: the built-in uniform buffer and what each register
//!   holds (`render::uniforms::LAYOUT`);
//! * `findShaders(text)` → the shaders a pasted log holds (`text::log`), `[{processor,
//!   firstLine, lastLine, instructions, prefixed, text}]` (lines 1-based, `text` without the
//!   prefixes); `[]` when the text is one shader and nothing else, or holds none;
//! * `validateLog(text)` → `validate`'s diagnostics of every shader such a text holds, at its
//!   lines and columns (a plain shader: `validate`'s).
//!
//! Diagnostics are `{code, severity, message, line, column, endLine, endColumn, span: {start,
//! end}, related: [{message, line, column, span}]}`, the shape `validate` returns too.

use crate::diag::{Diagnostic, JsDiagnostic};
use crate::ir::Shader;
use crate::opcode::{self, OpInfo, OPCODES};
use crate::text::{self, Style};
use serde::Serialize;
use wasm_bindgen::prelude::*;

fn to_js(d: &Diagnostic) -> JsDiagnostic {
    JsDiagnostic::from(d)
}

fn serialize<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    let ser = serde_wasm_bindgen::Serializer::json_compatible();
    value.serialize(&ser).map_err(|e| JsValue::from_str(&e.to_string()))
}

#[derive(Serialize)]
struct JsParsed<'a> {
    shader: Option<&'a Shader>,
    diagnostics: Vec<JsDiagnostic>,
}

/// Parses TGSI text: `{shader, diagnostics}`.
#[wasm_bindgen]
pub fn parse(text: &str) -> Result<JsValue, JsValue> {
    let parsed = text::parse(text);
    serialize(&JsParsed {
        shader: parsed.shader.as_ref(),
        diagnostics: parsed.diagnostics.iter().map(to_js).collect(),
    })
}

#[derive(Serialize)]
struct JsFormatted {
    text: Option<String>,
    diagnostics: Vec<JsDiagnostic>,
}

/// Parses and prints in `style` (`"mesa"` or `"exact"`, default exact): `{text, diagnostics}`.
#[wasm_bindgen]
pub fn format(text: &str, style: &str) -> Result<JsValue, JsValue> {
    let style = if style.is_empty() {
        Style::Exact
    } else {
        Style::from_name(style).ok_or_else(|| {
            JsValue::from_str(&format!("unknown style '{}' (mesa or exact)", style))
        })?
    };
    let parsed = text::parse(text);
    let printed = parsed.shader.as_ref().map(|s| text::print(s, style));
    serialize(&JsFormatted {
        text: printed,
        diagnostics: parsed.diagnostics.iter().map(to_js).collect(),
    })
}

/// One row of the opcode table as the page receives it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsOpcode<'a> {
    name: &'a str,
    /// Mesa's opcode number; `null` for legacy opcodes.
    number: Option<u16>,
    num_dst: u8,
    num_src: u8,
    output: opcode::OutputMode,
    dst_type: opcode::ValType,
    src_types: &'a [opcode::ValType],
    category: opcode::Category,
    /// Stage names (`VERT`, `FRAG`, …) that may use it.
    stages: Vec<&'static str>,
    texture: bool,
    branch: bool,
    memory: bool,
    store: bool,
    legacy: bool,
    summary: &'a str,
    formula: &'a str,
    replacement: &'a str,
    agal: &'a str,
}

fn js_opcode(o: &OpInfo) -> JsOpcode<'_> {
    JsOpcode {
        name: o.name,
        number: o.mesa,
        num_dst: o.num_dst,
        num_src: o.num_src,
        output: o.output,
        dst_type: o.dst_type,
        src_types: o.src_types,
        category: o.category,
        stages: crate::ir::Processor::ALL
            .iter()
            .filter(|p| o.stages & (1 << p.index()) != 0)
            .map(|p| p.name())
            .collect(),
        texture: o.has(opcode::F_TEX),
        branch: o.has(opcode::F_BRANCH),
        memory: o.has(opcode::F_MEMORY),
        store: o.has(opcode::F_STORE),
        legacy: o.is_legacy(),
        summary: o.summary,
        formula: o.formula,
        replacement: o.replacement,
        agal: o.agal,
    }
}

/// The opcode table (gaps left out): an array of
/// `{name, number, numDst, numSrc, output, dstType, srcTypes, category, stages, texture, branch,
/// memory, store, legacy, summary, formula, replacement, agal}`.
#[wasm_bindgen]
pub fn opcodes() -> Result<JsValue, JsValue> {
    let rows: Vec<JsOpcode> = OPCODES.iter().map(js_opcode).collect();
    serialize(&rows)
}

/// Every word of the language: `{opcodes, processors, files, semantics, textureTargets, …}`.
#[wasm_bindgen]
pub fn vocabulary() -> Result<JsValue, JsValue> {
    serialize(&text::vocabulary::vocabulary())
}

/// What `text` declares (`text::summary::Summary`), or `null` when it does not parse.
#[wasm_bindgen]
pub fn describe(text: &str) -> Result<JsValue, JsValue> {
    let parsed = text::parse(text);
    serialize(&parsed.shader.as_ref().map(|s| crate::text::summary::summarize(s, text)))
}

#[derive(Serialize)]
struct JsBuiltinLayout {
    buffer: usize,
    slots: &'static [crate::render::uniforms::BuiltinSlot],
}

/// The built-in uniforms: `{buffer: 15, slots: [{index, name, channels}]}`.
#[wasm_bindgen(js_name = builtinLayout)]
pub fn builtin_layout() -> Result<JsValue, JsValue> {
    use crate::render::uniforms::{BUILTIN_BUFFER, LAYOUT};
    serialize(&JsBuiltinLayout { buffer: BUILTIN_BUFFER, slots: &LAYOUT })
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct FoundShader {
    processor: &'static str,
    first_line: usize,
    last_line: usize,
    instructions: usize,
    prefixed: bool,
    text: String,
}

/// `validate` for a text that may be a pasted log: every shader it holds checked, at the
/// paste's lines (`valid::report::validate_log`; the page's problems list).
#[wasm_bindgen(js_name = validateLog)]
pub fn validate_log(text: &str) -> Result<JsValue, JsValue> {
    serialize(&crate::valid::report::validate_log(text))
}

/// The shaders of a pasted log (see the module comment).
#[wasm_bindgen(js_name = findShaders)]
pub fn find_shaders(text: &str) -> Result<JsValue, JsValue> {
    if crate::limits::check_input(text).is_err() {
        return serialize(&Vec::<FoundShader>::new());
    }
    let found = text::log::find(text);
    if text::log::is_plain(text, &found) {
        return serialize(&Vec::<FoundShader>::new());
    }
    let list: Vec<FoundShader> = found
        .iter()
        .map(|f| FoundShader {
            processor: f.processor.name(),
            first_line: f.first_line + 1,
            last_line: f.last_line + 1,
            instructions: f.instructions,
            prefixed: f.prefixed(),
            text: text::log::shader_text(text, f),
        })
        .collect();
    serialize(&list)
}
