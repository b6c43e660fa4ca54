//! Shared helpers of the validator test suites (`valid_*.rs`): parse TGSI text, validate it,
//! and compare diagnostics by code, line and column (1-based, as the CLI prints them).
#![allow(dead_code)]

use tgsi::diag::{locate, Diagnostic, Severity};
use tgsi::ir::{LineIndex, Shader};
use tgsi::valid::{check, Options};

/// Parses text that must be syntactically valid.
pub fn parse(text: &str) -> Shader {
    let parsed = tgsi::text::parse(text);
    let errors: Vec<_> = parsed.diagnostics.iter().filter(|d| d.is_error()).collect();
    assert!(errors.is_empty(), "parse errors in test program:\n{}\n{:#?}", text, errors);
    parsed.shader.expect("a shader")
}

/// Validator diagnostics of a text, located.
pub fn diags(text: &str) -> Vec<Diagnostic> {
    let shader = parse(text);
    let mut d = check(&shader, &Options::default());
    locate(&mut d, &LineIndex::new(text));
    d
}

/// (code, line, column) of every diagnostic.
pub fn triples(d: &[Diagnostic]) -> Vec<(&'static str, u32, u32)> {
    d.iter().map(|x| (x.code, x.line, x.column)).collect()
}

/// Asserts the text yields exactly these diagnostics (code, line, column), in order.
pub fn expect(text: &str, want: &[(&str, u32, u32)]) -> Vec<Diagnostic> {
    let d = diags(text);
    let got = triples(&d);
    assert_eq!(got, want.to_vec(), "for program:\n{}\ndiagnostics: {:#?}", text, d);
    d
}

/// Asserts the text yields no diagnostic at all.
pub fn clean(text: &str) {
    let d = diags(text);
    assert!(d.is_empty(), "expected no diagnostics for:\n{}\ngot: {:#?}", text, d);
}

/// Asserts the text yields no error (warnings and notes allowed).
pub fn no_errors(text: &str) -> Vec<Diagnostic> {
    let d = diags(text);
    let e: Vec<_> = d.iter().filter(|x| x.severity == Severity::Error).collect();
    assert!(e.is_empty(), "expected no errors for:\n{}\ngot: {:#?}", text, e);
    d
}

/// The only diagnostic with `code`.
pub fn one<'a>(d: &'a [Diagnostic], code: &str) -> &'a Diagnostic {
    let v: Vec<_> = d.iter().filter(|x| x.code == code).collect();
    assert_eq!(v.len(), 1, "expected exactly one {}: {:#?}", code, d);
    v[0]
}

/// Linkage diagnostics of two texts, located in their own text.
pub fn link(vs: &str, fs: &str) -> (Vec<Diagnostic>, Vec<Diagnostic>) {
    let (a, b) = (parse(vs), parse(fs));
    let (mut v, mut f) = tgsi::valid::link(&a, &b);
    locate(&mut v, &LineIndex::new(vs));
    locate(&mut f, &LineIndex::new(fs));
    (v, f)
}

/// Path of a file or folder of the corpus (`tests/corpus/`).
pub fn corpus_path(rel: &str) -> std::path::PathBuf {
    std::path::Path::new(corpus!()).join(rel)
}
