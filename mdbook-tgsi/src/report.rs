//! What the preprocessor tells the author, on standard error:
//! `src/CHAPTER.md:LINE:COL: error: MESSAGE [CODE]`, then `note:` and `help:` lines at their own
//! places (where a shader file was included, the other place a message refers to).

use std::fmt;

/// The engine's severities (`note`, `warning`, `error`), as `tgsi check` prints them.
pub use tgsi::diag::Severity;

/// A place in a file of the book, as the author opens it: the path shown (`src/…`), 1-based
/// line and column (in characters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    pub file: String,
    pub line: u32,
    pub col: u32,
}

impl Place {
    pub fn new(file: &str, line: u32, col: u32) -> Place {
        Place { file: file.to_string(), line, col }
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}

/// A line under a problem: `note` or `help`, at a place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Footer {
    pub kind: &'static str,
    pub place: Place,
    pub text: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub severity: Severity,
    pub place: Place,
    pub message: String,
    /// The engine's diagnostic code (`V001`, …), for shader diagnostics.
    pub code: Option<String>,
    pub footers: Vec<Footer>,
}

impl Problem {
    pub fn error(place: Place, message: impl Into<String>) -> Problem {
        Problem {
            severity: Severity::Error,
            place,
            message: message.into(),
            code: None,
            footers: Vec::new(),
        }
    }

    pub fn with_note(mut self, place: Place, text: impl Into<String>) -> Problem {
        self.footers.push(Footer { kind: "note", place, text: text.into() });
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}: {}", self.place, self.severity.word(), self.message)?;
        if let Some(code) = &self.code {
            write!(f, " [{code}]")?;
        }
        for footer in &self.footers {
            write!(f, "\n{}: {}: {}", footer.place, footer.kind, footer.text)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_problem_prints_as_file_line_col() {
        let mut p = Problem::error(Place::new("src/a.md", 12, 3), "bad")
            .with_note(Place::new("src/b.md", 4, 1), "included here");
        p.code = Some("V001".to_string());
        assert_eq!(
            p.to_string(),
            "src/a.md:12:3: error: bad [V001]\nsrc/b.md:4:1: note: included here"
        );
    }
}
