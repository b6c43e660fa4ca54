//! Browser tests of the wasm API the playground page calls (`crate/src/wasm/`, reached through
//! `tgsi::wasm::page`): the shapes the page reads and the positions it underlines. Expected
//! positions are counted by hand in the test texts.
#![cfg(target_arch = "wasm32")]

use serde_json::Value;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// The JS value as JSON, the way the page sees it.
fn json(v: Result<JsValue, JsValue>) -> Value {
    let v = v.unwrap_or_else(|e| panic!("the call threw {:?}", e));
    let text: String = js_sys::JSON::stringify(&v).map(String::from).unwrap_or_default();
    serde_json::from_str(&text).unwrap_or(Value::Null)
}

const GOOD_FS: &str = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0]\n  1: END\n";

#[wasm_bindgen_test]
fn validate_accepts_a_correct_shader_with_no_diagnostic() {
    let v = json(tgsi::wasm::page::validate(GOOD_FS));
    assert_eq!(v, Value::Array(vec![]));
}

/// Line 4 is `  0: MOV OUT[0], TEMP[5]`; `TEMP[5]` starts after 2 spaces, `0: `, `MOV ` and
/// `OUT[0], `, i.e. at column 2 + 3 + 4 + 8 + 1 = 18. It is not declared: an error there.
#[wasm_bindgen_test]
fn validate_locates_an_undeclared_register() {
    let text = "FRAG\nDCL OUT[0], COLOR\nDCL TEMP[0]\n  0: MOV OUT[0], TEMP[5]\n  1: END\n";
    let v = json(tgsi::wasm::page::validate(text));
    let list = v.as_array().cloned().unwrap_or_default();
    let d = list.iter().find(|d| d["severity"] == "error").unwrap_or_else(|| panic!("no error in {}", v));
    assert_eq!((d["line"].as_u64(), d["column"].as_u64()), (Some(4), Some(18)), "{}", d);
    for key in ["code", "message", "endLine", "endColumn", "span", "related"] {
        assert!(d.get(key).is_some(), "diagnostic without `{}`: {}", key, d);
    }
}

/// A syntax error: line 3 is `DCL OUT[0], COLOUR`; the semantic name starts at column 13
/// (`DCL OUT[0], ` is 12 characters).
#[wasm_bindgen_test]
fn validate_reports_a_syntax_error_at_its_line_and_column() {
    let text = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOUR\n  0: END\n";
    let v = json(tgsi::wasm::page::validate(text));
    let list = v.as_array().cloned().unwrap_or_default();
    let d = list.iter().find(|d| d["severity"] == "error").unwrap_or_else(|| panic!("no error in {}", v));
    assert_eq!((d["line"].as_u64(), d["column"].as_u64()), (Some(3), Some(13)), "{}", d);
}

/// The vertex shader writes GENERIC[1] but the fragment shader reads GENERIC[0]: the link
/// reports something about the fragment input; each side's diagnostics are separate lists.
#[wasm_bindgen_test]
fn link_checks_both_shaders_and_their_varyings() {
    let vs = "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[1]\n  0: MOV OUT[0], IN[0]\n  1: MOV OUT[1], IN[0]\n  2: END\n";
    let v = json(tgsi::wasm::page::link(vs, GOOD_FS));
    assert!(v["vs"].is_array() && v["fs"].is_array(), "{}", v);
    let all: Vec<Value> = v["vs"].as_array().into_iter().chain(v["fs"].as_array()).flatten().cloned().collect();
    assert!(!all.is_empty(), "an unmatched GENERIC[0] input gave no diagnostic: {}", v);

    let matched = vs.replace("GENERIC[1]", "GENERIC[0]");
    let v = json(tgsi::wasm::page::link(&matched, GOOD_FS));
    let errors = v["vs"].as_array().into_iter().chain(v["fs"].as_array()).flatten().filter(|d| d["severity"] == "error").count();
    assert_eq!(errors, 0, "{}", v);
}

/// `parse` gives the shader model and located diagnostics: `DCL OUT[0], COLOUR` on line 3
/// has its error at column 13 (`DCL OUT[0], ` is 12 characters), and `shader` is null.
#[wasm_bindgen_test]
fn parse_reports_a_syntax_error_with_line_and_column() {
    let v = json(tgsi::wasm::page::parse("FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOUR\n  0: END\n"));
    assert!(v["shader"].is_null(), "{}", v);
    let d = &v["diagnostics"][0];
    assert_eq!((d["line"].as_u64(), d["column"].as_u64(), d["severity"].as_str()), (Some(3), Some(13), Some("error")), "{}", v);
    let ok = json(tgsi::wasm::page::parse(GOOD_FS));
    assert!(ok["shader"].is_object(), "{}", ok);
    assert_eq!(ok["diagnostics"], Value::Array(vec![]));
}

/// The opcode table carries the hover text: MAD is `src0 * src1 + src2` (tgsi.rst, MAD).
#[wasm_bindgen_test]
fn opcodes_carry_summary_and_formula() {
    let v = json(tgsi::wasm::page::opcodes());
    let rows = v.as_array().cloned().unwrap_or_default();
    let mad = rows.iter().find(|r| r["name"] == "MAD").unwrap_or_else(|| panic!("no MAD row"));
    let formula = mad["formula"].as_str().unwrap_or("");
    assert!(formula.contains("src0") && formula.contains('*') && formula.contains("src2"), "{}", mad);
    assert_eq!((mad["numDst"].as_u64(), mad["numSrc"].as_u64()), (Some(1), Some(3)));
}

/// The AGAL export the page shows: bytes start with the 0xa0 magic byte and the version
/// (agal.md, header: 0xa0, version as u32 little-endian, 0xa1, program type), and a shader with
/// integer bit operations (no AGAL equivalent) is refused with an error diagnostic.
#[wasm_bindgen_test]
fn agal_export_gives_bytes_or_reasons() {
    let v = json(Ok(tgsi::wasm::page::agal_export(GOOD_FS, 0)));
    assert_eq!(v["ok"], Value::Bool(true), "{}", v);
    let bytes: Vec<u64> = v["bytes"].as_array().into_iter().flatten().filter_map(Value::as_u64).collect();
    let version = v["version"].as_u64().unwrap_or(0);
    assert!(bytes.len() > 7, "{}", v);
    assert_eq!(bytes[..6], [0xa0, version, 0, 0, 0, 0xa1]);
    assert_eq!(bytes[6], 1, "program type 1 = fragment");
    assert!(v["assembly"].as_str().is_some_and(|s| !s.is_empty()), "{}", v);

    let ints = "FRAG\nDCL IN[0], POSITION, LINEAR\nDCL OUT[0], COLOR\nDCL TEMP[0]\n  0: F2U TEMP[0], IN[0]\n  1: XOR TEMP[0], TEMP[0], TEMP[0].yxzw\n  2: U2F OUT[0], TEMP[0]\n  3: END\n";
    let v = json(Ok(tgsi::wasm::page::agal_export(ints, 0)));
    assert_eq!(v["ok"], Value::Bool(false), "{}", v);
    assert!(v["diagnostics"].as_array().into_iter().flatten().any(|d| d["severity"] == "error"), "{}", v);
}
