//! TGSI text: lexer, parser (with error recovery and spans) and printer (mesa and exact styles).
//! Grammar: Mesa's `tgsi_text.c`; print format `tgsi_dump.c`; the language as implemented, with its
//! extensions and diagnostics, in `docs/language.md`.

pub mod decimal;
pub mod lexer;
pub mod log;
pub mod number;
mod parser;
mod print;
mod spans;
pub mod summary;
pub mod vocabulary;

use crate::diag::{self, Diagnostic};
use crate::ir::{LineIndex, Shader};

pub use parser::codes;
pub use spans::strip_spans;

/// The result of parsing: a shader when the text could be read (possibly with warnings), and
/// every diagnostic found, with line and column filled in.
#[derive(Debug, Clone)]
pub struct Parsed {
    pub shader: Option<Shader>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Parsed {
    /// True when any diagnostic is an error (then `shader` is `None`).
    pub fn has_errors(&self) -> bool {
        diag::has_errors(&self.diagnostics)
    }
}

/// Parses TGSI text. Never panics; returns a shader or at least one error diagnostic.
/// Diagnostics are in source order.
pub fn parse(text: &str) -> Parsed {
    // Too long an input is refused before anything is built from it (`limits`).
    if let Err(mut d) = crate::limits::check_input(text) {
        d.line = 1;
        d.column = 1;
        d.end_line = 1;
        d.end_column = 1;
        return Parsed { shader: None, diagnostics: vec![d] };
    }
    let (shader, mut diagnostics) = parser::Parser::new(text).run();
    crate::limits::cap_diagnostics(&mut diagnostics);
    if !diagnostics.is_empty() {
        diag::locate(&mut diagnostics, &LineIndex::new(text));
    }
    let ok = !diag::has_errors(&diagnostics);
    Parsed { shader: ok.then_some(shader), diagnostics }
}

/// How [`print`] writes a shader.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Style {
    /// Mesa's `tgsi_dump` output, byte for byte (FLT32 immediates as `%10.4f`: lossy).
    Mesa,
    /// Lossless: parsing the output gives back the same shader, immediates bit for bit.
    #[default]
    Exact,
}

impl Style {
    /// `mesa` or `exact` (any case).
    pub fn from_name(name: &str) -> Option<Style> {
        match name.to_ascii_lowercase().as_str() {
            "mesa" => Some(Style::Mesa),
            "exact" => Some(Style::Exact),
            _ => None,
        }
    }
}

/// Prints a shader as TGSI text.
pub fn print(shader: &Shader, style: Style) -> String {
    print::print(shader, style)
}
