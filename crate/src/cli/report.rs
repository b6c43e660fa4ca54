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

/// Bytes of context an excerpt may take on either side of its spans (a long line is cut there;
/// its line numbers stay right and the `-->` header keeps the true column).
const EXCERPT_REACH: usize = 1024;
/// How far (in bytes) a related place may be from the primary span and still share its
/// excerpt; further ones are listed as notes with their line numbers. Together with the reach
/// this bounds the work per diagnostic, whatever the size of the file.
const RELATED_REACH: usize = 16 * 1024;

/// The start of the line holding byte `at`, looking back at most [`EXCERPT_REACH`] bytes.
fn excerpt_start(text: &str, at: usize) -> usize {
    let floor = at.saturating_sub(EXCERPT_REACH);
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1).max(floor);
    clamp(text, start as u32, start as u32).start
}

/// The end of the line holding byte `at` (before its line break), looking ahead at most
/// [`EXCERPT_REACH`] bytes.
fn excerpt_end(text: &str, at: usize) -> usize {
    let ceiling = (at + EXCERPT_REACH).min(text.len());
    let end = text[at..ceiling].find('\n').map_or(ceiling, |i| at + i);
    clamp(text, end as u32, end as u32).start
}

fn rich(origin: Option<Origin>, d: &Diagnostic, color: bool) -> String {
    let title = level(d.severity).primary_title(d.message.as_str()).id(d.code);
    let mut far = Vec::new();
    let mut group = match origin {
        Some(o) => {
            let primary = clamp(o.text, d.span.start, d.span.end);
            let (near, away): (Vec<_>, Vec<_>) = d
                .related
                .iter()
                .partition(|r| (r.span.start as usize).abs_diff(primary.start) <= RELATED_REACH);
            far = away;
            // One excerpt from the line of the first span to the line of the last one: the
            // renderer only ever sees these bytes, not the whole file.
            let spans: Vec<(std::ops::Range<usize>, u32)> =
                std::iter::once((primary.clone(), d.line))
                    .chain(near.iter().map(|r| (clamp(o.text, r.span.start, r.span.end), r.line)))
                    .collect();
            let (first, first_line) = spans
                .iter()
                .min_by_key(|(r, _)| r.start)
                .cloned()
                .unwrap_or((primary.clone(), d.line));
            let last_end = spans.iter().map(|(r, _)| r.end).max().unwrap_or(primary.end);
            let from = excerpt_start(o.text, first.start);
            let to = excerpt_end(o.text, last_end).max(last_end);
            let local = |r: &std::ops::Range<usize>| (r.start - from)..(r.end - from);
            let mut snippet = Snippet::source(&o.text[from..to])
                .line_start(first_line.max(1) as usize)
                .fold(true)
                .annotation(AnnotationKind::Primary.span(local(&primary)));
            for r in &near {
                snippet = snippet.annotation(
                    AnnotationKind::Context
                        .span(local(&clamp(o.text, r.span.start, r.span.end)))
                        .label(r.message.as_str()),
                );
            }
            if from == 0 || o.text.as_bytes().get(from - 1) == Some(&b'\n') {
                title.element(snippet.path(o.name))
            } else {
                // The excerpt starts inside a long line: name the true place explicitly, as the
                // renderer would count columns from the cut.
                title
                    .element(
                        annotate_snippets::Origin::path(o.name)
                            .line(d.line.max(1) as usize)
                            .char_column(d.column.max(1) as usize),
                    )
                    .element(snippet)
            }
        }
        // About the whole job: no excerpt, the title says it all.
        None => Group::with_title(title),
    };
    for r in far {
        group = group.element(Level::NOTE.message(format!("{} (line {})", r.message, r.line)));
    }
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
    fn excerpts_stay_small_in_big_files() {
        // The primary span on line 3 after 3000 spaces; its declaration 40 000 bytes before,
        // too far to share the excerpt: it becomes a note naming its line.
        let text = format!(
            "FRAG\nDCL TEMP[0]\n{}MOV OUT[0], TEMP[9]\n{}END\n",
            " ".repeat(3000),
            ";\n".repeat(10)
        );
        let text =
            text.replacen("DCL TEMP[0]\n", &format!("DCL TEMP[0]\n{}", ";x\n".repeat(13_000)), 1);
        let at = text.find("TEMP[9]").unwrap_or(0);
        let decl = text.find("DCL TEMP[0]").unwrap_or(0);
        let d = located(
            &text,
            Diagnostic::error(
                "V005",
                "source register TEMP[9] is not declared",
                Span::new(at, at + 7),
            )
            .with_related("TEMP[0] is declared here", Span::new(decl, decl + 11)),
        );
        let out = rich(Some(Origin { name: "big.tgsi", text: &text }), &d, false);
        // Line 13 003 (2 + 13 000 comment lines + 1), column 3013 (3000 spaces and the 12
        // characters of `MOV OUT[0], ` before it): the true place, although the excerpt starts
        // 1024 bytes before the span.
        assert!(out.contains("big.tgsi:13003:3013"), "{out}");
        assert!(out.contains("note: TEMP[0] is declared here (line 2)"), "{out}");
        assert!(out.len() < 4096, "the excerpt is bounded: {} bytes", out.len());
    }

    #[test]
    fn spans_outside_the_text_do_not_panic() {
        let text = "FRAG é\n";
        let d = Diagnostic::error("P001", "x", Span::new(6, 400));
        let out = rich(Some(Origin { name: "c", text }), &d, true);
        assert!(out.contains("P001"));
    }
}
