//! The validator's answer as plain data for the page: what `validate(text)` and
//! `link(vsText, fsText)` of the wasm API return (`wasm/valid.rs` only serializes it).
//! Kept outside the wasm-only code so native tests cover the exact shape the page receives.

use crate::diag::{self, Diagnostic};
use crate::ir::{LineIndex, Shader};
use serde::Serialize;

pub use crate::diag::{JsDiagnostic, JsRelated, JsSpan};

/// The answer of `link`: each shader's diagnostics (parser, validator, linkage).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct JsLink {
    pub vs: Vec<JsDiagnostic>,
    pub fs: Vec<JsDiagnostic>,
}

/// Parses and validates; parse diagnostics first, then the validator's, all located.
fn check_text(text: &str) -> (Option<Shader>, Vec<Diagnostic>) {
    let parsed = crate::text::parse(text);
    let mut diags = parsed.diagnostics;
    if let Some(shader) = &parsed.shader {
        let mut v = super::check(shader, &super::Options::default());
        diag::locate(&mut v, &LineIndex::new(text));
        diags.extend(v);
    }
    (parsed.shader, diags)
}

/// What `validate(text)` returns.
pub fn validate(text: &str) -> Vec<JsDiagnostic> {
    check_text(text).1.iter().map(JsDiagnostic::from).collect()
}

/// A paste that may be a log (`text::log`): every shader it holds checked as [`validate`]
/// checks one, the diagnostics at the paste's lines and columns (what `tgsi check` does with a
/// log); a text that is one shader and nothing else (or too big to look into) is `validate`d.
pub fn validate_log(text: &str) -> Vec<JsDiagnostic> {
    if crate::limits::check_input(text).is_err() {
        return validate(text);
    }
    let found = crate::text::log::find(text);
    if crate::text::log::is_plain(text, &found) {
        return validate(text);
    }
    found.iter().flat_map(|f| validate(&crate::text::log::isolate(text, f))).collect()
}

/// What `link(vsText, fsText)` returns.
pub fn link(vs_text: &str, fs_text: &str) -> JsLink {
    let (vs, mut vd) = check_text(vs_text);
    let (fs, mut fd) = check_text(fs_text);
    if let (Some(vs), Some(fs)) = (&vs, &fs) {
        let (mut lv, mut lf) = super::link(vs, fs);
        diag::locate(&mut lv, &LineIndex::new(vs_text));
        diag::locate(&mut lf, &LineIndex::new(fs_text));
        vd.extend(lv);
        fd.extend(lf);
    }
    JsLink {
        vs: vd.iter().map(JsDiagnostic::from).collect(),
        fs: fd.iter().map(JsDiagnostic::from).collect(),
    }
}
