//! Prints diagnostics in the three `--format`s (docs/diagnostics.md): `short` (one line each,
//! `FILE:LINE:COL: error: MESSAGE [CODE]`), `rich` (annotate-snippets: a source excerpt, a caret
//! under the span, labelled related places, notes and help; colour only on a terminal and never
//! with NO_COLOR) and `json` (one object per line, the documented schema).
//! Without `--format`: rich when the stream is a terminal, short otherwise (pipes, tests, CI).

use super::args::{DiagFormat, DiagOptions};
use crate::diag::{Diagnostic, Severity};
use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};
use std::io::IsTerminal;

/// Which stream diagnostics go to (each subcommand keeps the one it always used).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    Stdout,
    Stderr,
}

/// A resolved format and colour choice for one stream.
#[derive(Clone, Copy, Debug)]
pub struct Printer {
    pub format: DiagFormat,
    pub color: bool,
    pub stream: Stream,
}

/// Where a diagnostic is: a file name (shown) and its text (for excerpts); `None` for
/// diagnostics about the whole job (a render limit, a missing output).
#[derive(Clone, Copy, Debug)]
pub struct Origin<'a> {
    pub name: &'a str,
    pub text: &'a str,
}

impl Printer {
    pub fn new(options: &DiagOptions, stream: Stream) -> Printer {
        let terminal = match stream {
            Stream::Stdout => std::io::stdout().is_terminal(),
            Stream::Stderr => std::io::stderr().is_terminal(),
        };
        // https://no-color.org: any non-empty NO_COLOR turns colour off.
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let format =
            options.format.unwrap_or(if terminal { DiagFormat::Rich } else { DiagFormat::Short });
        Printer { format, color: terminal && !no_color, stream }
    }

    /// Prints one diagnostic. `command` names the subcommand for diagnostics without a file.
    pub fn print(&self, command: &str, origin: Option<Origin>, d: &Diagnostic) {
        let text = match self.format {
            DiagFormat::Short => short(command, origin, d),
            // A blank line between reports, as compilers print them.
            DiagFormat::Rich => rich(origin, d, self.color) + "\n",
            DiagFormat::Json => json(origin, d).to_string(),
        };
        match self.stream {
            Stream::Stdout => println!("{text}"),
            Stream::Stderr => eprintln!("{text}"),
        }
    }

    pub fn print_all(&self, command: &str, origin: Option<Origin>, diags: &[Diagnostic]) {
        for d in diags {
            self.print(command, origin, d);
        }
    }
}

/// `<stdin>` for `-`.
pub fn display_name(path: &str) -> &str {
    if path == "-" {
        "<stdin>"
    } else {
        path
    }
}

fn short(command: &str, origin: Option<Origin>, d: &Diagnostic) -> String {
    match origin {
        Some(o) => d.render(o.name),
        None => {
            let mut s =
                format!("tgsi {}: {}: {} [{}]", command, d.severity.word(), d.message, d.code);
            for line in d.notes().map(|n| ("note", n)).chain(d.help().map(|h| ("help", h))) {
                s.push_str(&format!("\ntgsi {}: {}: {}", command, line.0, line.1));
            }
            s
        }
    }
}

fn level(severity: Severity) -> Level<'static> {
    match severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
        Severity::Note => Level::NOTE,
    }
}

/// A byte range inside `text` on character boundaries (spans come from the same text, but a
/// diagnostic must never make the printer panic).
fn clamp(text: &str, start: u32, end: u32) -> std::ops::Range<usize> {
    let fix = |mut i: usize| {
        i = i.min(text.len());
        while i > 0 && !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let (s, e) = (fix(start as usize), fix(end as usize));
    s..e.max(s)
}

fn rich(origin: Option<Origin>, d: &Diagnostic, color: bool) -> String {
    let title = level(d.severity).primary_title(d.message.as_str()).id(d.code);
    let mut group = match origin {
        Some(o) => {
            let mut snippet = Snippet::source(o.text)
                .path(o.name)
                .fold(true)
                .annotation(AnnotationKind::Primary.span(clamp(o.text, d.span.start, d.span.end)));
            for r in &d.related {
                snippet = snippet.annotation(
                    AnnotationKind::Context
                        .span(clamp(o.text, r.span.start, r.span.end))
                        .label(r.message.as_str()),
                );
            }
            title.element(snippet)
        }
        // About the whole job: no excerpt, the title says it all.
        None => Group::with_title(title),
    };
    for n in d.notes() {
        group = group.element(Level::NOTE.message(n));
    }
    for h in d.help() {
        group = group.element(Level::HELP.message(h));
    }
    let renderer = if color { Renderer::styled() } else { Renderer::plain() };
    renderer.render(&[group])
}

/// The JSON schema of docs/diagnostics.md ("JSON").
fn json(origin: Option<Origin>, d: &Diagnostic) -> serde_json::Value {
    use serde_json::json;
    let place = |start: u32, end: u32, line: u32, column: u32, end_line: u32, end_column: u32| {
        json!({
            "start": start, "end": end, "line": line, "column": column,
            "end_line": end_line, "end_column": end_column,
        })
    };
    json!({
        "file": origin.map(|o| o.name),
        "code": d.code,
        "severity": d.severity.word(),
        "message": d.message,
        "span": origin.map(|_| place(
            d.span.start, d.span.end, d.line, d.column, d.end_line, d.end_column,
        )),
        "labels": d.related.iter().map(|r| json!({
            "message": r.message,
            "span": place(r.span.start, r.span.end, r.line, r.column, r.end_line, r.end_column),
        })).collect::<Vec<_>>(),
        "notes": d.notes().collect::<Vec<_>>(),
        "help": d.help().collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{LineIndex, Span};

    fn located(text: &str, d: Diagnostic) -> Diagnostic {
        let mut v = [d];
        crate::diag::locate(&mut v, &LineIndex::new(text));
        let [d] = v;
        d
    }

    #[test]
    fn rich_puts_the_caret_under_the_span_and_labels_related_places() {
        let text = "FRAG\nDCL TEMP[0]\nMOV OUT[0], TEMP[3]\nEND\n";
        // TEMP[3] is bytes 29..36 of the text; the declaration 5..16.
        let d = located(
            text,
            Diagnostic::error("V005", "source register TEMP[3] is not declared", Span::new(29, 36))
                .with_related("TEMP is declared here", Span::new(5, 16))
                .with_help("declare it: DCL TEMP[3]"),
        );
        let out = rich(Some(Origin { name: "a.tgsi", text }), &d, false);
        let lines: Vec<&str> = out.lines().collect();
        let at = lines.iter().position(|l| l.contains("MOV OUT[0], TEMP[3]")).expect("excerpt");
        // "3 | MOV OUT[0], TEMP[3]": the caret line starts under the same gutter; TEMP[3] is at
        // column 13 of its line, so 12 characters of source precede the carets.
        let source_col = lines[at].find("MOV").unwrap_or(0);
        let caret_line = lines[at + 1];
        assert_eq!(caret_line.find('^'), Some(source_col + 12), "{out}");
        assert_eq!(caret_line.matches('^').count(), 7, "{out}");
        assert!(out.contains("error[V005]: source register TEMP[3] is not declared"), "{out}");
        assert!(out.contains("TEMP is declared here"), "{out}");
        assert!(out.contains("help: declare it: DCL TEMP[3]"), "{out}");
        assert!(out.contains("a.tgsi:3:13"), "{out}");
        assert!(!out.contains('\u{1b}'), "no colour when asked for none");
    }

    #[test]
    fn json_has_the_documented_fields() {
        let text = "FRAG\nEND\n";
        let d = located(
            text,
            Diagnostic::warning("V011", "unused", Span::new(5, 8))
                .with_related("here", Span::new(0, 4))
                .with_note("a note"),
        );
        let v = json(Some(Origin { name: "b.tgsi", text }), &d);
        assert_eq!(v["file"], "b.tgsi");
        assert_eq!(v["code"], "V011");
        assert_eq!(v["severity"], "warning");
        assert_eq!(v["span"]["line"], 2);
        assert_eq!(v["span"]["column"], 1);
        assert_eq!(v["span"]["end_column"], 4);
        assert_eq!(v["labels"][0]["span"]["line"], 1);
        assert_eq!(v["notes"][0], "a note");
        assert_eq!(v["help"].as_array().map(Vec::len), Some(0));
    }

    #[test]
    fn spans_outside_the_text_do_not_panic() {
        let text = "FRAG é\n";
        let d = Diagnostic::error("P001", "x", Span::new(6, 400));
        let out = rich(Some(Origin { name: "c", text }), &d, true);
        assert!(out.contains("P001"));
    }
}
