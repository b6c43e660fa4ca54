//! Diagnostics shared by every stage: a stable code, a severity, one plain-words message, the
//! span it is about, labelled related places ("the IF opened here", "declared here"), notes
//! (why) and help lines (what to do). The CLI prints them short, rich (source excerpts) or as
//! JSON (`cli/report.rs`, docs/diagnostics.md); the page receives [`JsDiagnostic`].
//!
//! Code prefixes: `P` parser, `V` validator, `L` linkage, `X` execution, `R` render, `A` AGAL.

use crate::ir::{LineIndex, Span};
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Note,
    Warning,
    Error,
}

impl Severity {
    pub fn word(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// A place related to a diagnostic, with its own message.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Related {
    pub message: String,
    pub span: Span,
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Diagnostic {
    pub severity: Severity,
    pub code: &'static str,
    pub message: String,
    pub span: Span,
    /// 1-based line and column of `span.start`; filled by [`locate`].
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
    /// Secondary labelled places in the same source.
    pub related: Vec<Related>,
    /// Notes (background facts, "the shader declares no CONST registers") and help lines
    /// (what would fix it, "declare it: DCL TEMP[3]"), in the order added. One boxed list
    /// keeps the diagnostic small (it is the error type of many `Result`s); read them with
    /// [`Diagnostic::notes`] and [`Diagnostic::help`].
    /// The box is deliberate: a pointer here instead of a `Vec` keeps every `Result<_,
    /// Diagnostic>` under clippy's large-error size.
    #[allow(clippy::box_collection)]
    pub footers: Option<Box<Vec<Footer>>>,
}

/// Whether a footer line is a note or a help line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FooterKind {
    Note,
    Help,
}

/// A line printed under a diagnostic.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Footer {
    pub kind: FooterKind,
    pub text: String,
}

impl Diagnostic {
    pub fn new(
        severity: Severity,
        code: &'static str,
        message: impl Into<String>,
        span: Span,
    ) -> Diagnostic {
        Diagnostic::with_message(severity, code, message.into(), span)
    }
    /// The body of [`Diagnostic::new`], once: the validator and parser build diagnostics in
    /// hundreds of places, and each inlined copy of these stores cost the widget's engine code.
    #[inline(never)]
    fn with_message(
        severity: Severity,
        code: &'static str,
        message: String,
        span: Span,
    ) -> Diagnostic {
        Diagnostic {
            severity,
            code,
            message,
            span,
            line: 0,
            column: 0,
            end_line: 0,
            end_column: 0,
            related: Vec::new(),
            footers: None,
        }
    }
    pub fn error(code: &'static str, message: impl Into<String>, span: Span) -> Diagnostic {
        Diagnostic::new(Severity::Error, code, message, span)
    }
    pub fn warning(code: &'static str, message: impl Into<String>, span: Span) -> Diagnostic {
        Diagnostic::new(Severity::Warning, code, message, span)
    }
    pub fn note(code: &'static str, message: impl Into<String>, span: Span) -> Diagnostic {
        Diagnostic::new(Severity::Note, code, message, span)
    }
    /// Adds a related place.
    pub fn with_related(mut self, message: impl Into<String>, span: Span) -> Diagnostic {
        self.related.push(Related {
            message: message.into(),
            span,
            line: 0,
            column: 0,
            end_line: 0,
            end_column: 0,
        });
        self
    }
    /// Adds a note line.
    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.footers
            .get_or_insert_default()
            .push(Footer { kind: FooterKind::Note, text: note.into() });
        self
    }
    /// Adds a help line.
    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.footers
            .get_or_insert_default()
            .push(Footer { kind: FooterKind::Help, text: help.into() });
        self
    }
    /// The note lines.
    pub fn notes(&self) -> impl Iterator<Item = &str> {
        self.footers_of(FooterKind::Note)
    }
    /// The help lines.
    pub fn help(&self) -> impl Iterator<Item = &str> {
        self.footers_of(FooterKind::Help)
    }
    fn footers_of(&self, kind: FooterKind) -> impl Iterator<Item = &str> {
        self.footers
            .iter()
            .flat_map(|f| f.iter())
            .filter(move |f| f.kind == kind)
            .map(|f| f.text.as_str())
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
    /// `FILE:LINE:COL: error: MESSAGE [CODE]`, the CLI's short format; related places follow as
    /// `note:` lines, then notes and help lines at the diagnostic's own position.
    pub fn render(&self, file: &str) -> String {
        let mut s = format!(
            "{}:{}:{}: {}: {} [{}]",
            file,
            self.line,
            self.column,
            self.severity.word(),
            self.message,
            self.code
        );
        for r in &self.related {
            s.push_str(&format!("\n{}:{}:{}: note: {}", file, r.line, r.column, r.message));
        }
        for n in self.notes() {
            s.push_str(&format!("\n{}:{}:{}: note: {}", file, self.line, self.column, n));
        }
        for h in self.help() {
            s.push_str(&format!("\n{}:{}:{}: help: {}", file, self.line, self.column, h));
        }
        s
    }
}

/// Fills line and column numbers of diagnostics from their spans.
pub fn locate(diags: &mut [Diagnostic], index: &LineIndex) {
    for d in diags {
        let (l, c) = index.line_col(d.span.start);
        let (el, ec) = index.line_col(d.span.end);
        d.line = l;
        d.column = c;
        d.end_line = el;
        d.end_column = ec;
        for r in &mut d.related {
            let (l, c) = index.line_col(r.span.start);
            let (el, ec) = index.line_col(r.span.end);
            r.line = l;
            r.column = c;
            r.end_line = el;
            r.end_column = ec;
        }
    }
}

/// True when any diagnostic is an error.
pub fn has_errors(diags: &[Diagnostic]) -> bool {
    diags.iter().any(Diagnostic::is_error)
}

// ---- The shape the page receives --------------------------------------------------------
// One camelCase form for every wasm function that returns diagnostics, so the page has a single
// renderer for them.

/// A byte range of the source text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct JsSpan {
    pub start: u32,
    pub end: u32,
}

/// One related place ("the IF opened here").
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JsRelated {
    pub message: String,
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
    pub span: JsSpan,
}

/// One diagnostic with 1-based line and column numbers.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JsDiagnostic {
    /// Which input it is about, for calls that take several (`"fragment"`, `"vertex"`, …; the
    /// render and stage calls); the object has no `source` key when it is `None`. A field of
    /// its own rather than a `#[serde(flatten)]` wrapper: flattening serializes through serde's
    /// map machinery, about 1 KB (gzipped) of the widget's lean engine.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<&'static str>,
    pub code: &'static str,
    pub severity: &'static str,
    pub message: String,
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
    pub span: JsSpan,
    pub related: Vec<JsRelated>,
    pub notes: Vec<String>,
    pub help: Vec<String>,
}

impl JsDiagnostic {
    /// `d` with the input it is about (`"fragment"`, `"compute"`, `"render"`, …).
    pub fn with_source(source: &'static str, d: &Diagnostic) -> JsDiagnostic {
        JsDiagnostic { source: Some(source), ..JsDiagnostic::from(d) }
    }
}

impl From<&Diagnostic> for JsDiagnostic {
    fn from(d: &Diagnostic) -> JsDiagnostic {
        JsDiagnostic {
            source: None,
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
                .map(|r| JsRelated {
                    message: r.message.clone(),
                    line: r.line,
                    column: r.column,
                    end_line: r.end_line,
                    end_column: r.end_column,
                    span: JsSpan { start: r.span.start, end: r.span.end },
                })
                .collect(),
            notes: d.notes().map(str::to_string).collect(),
            help: d.help().map(str::to_string).collect(),
        }
    }
}
