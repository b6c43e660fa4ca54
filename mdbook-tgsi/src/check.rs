//! Checks a widget's shaders as `tgsi check` does (the engine's parser, then its validator with
//! the default options; with a vertex shader, the linkage check of `tgsi check --link`), plus the
//! one thing the widget adds: the block is a fragment shader and `vs=` a vertex shader (the
//! engine's R100, which the widget would show). Every diagnostic is placed in the book's file.

use crate::report::{Footer, Place, Problem};
use tgsi::diag::{self, Diagnostic};
use tgsi::ir::{LineIndex, Processor, Shader};
use tgsi::{text, valid};

/// A shader's text and where it is in the book.
#[derive(Clone, Debug)]
pub struct Source {
    pub text: String,
    /// The file as shown in messages (`src/guide/intro.md`).
    pub file: String,
    /// The file's line that holds the text's first line (1-based).
    pub first_line: u32,
    /// For each line of the text, how many characters were taken off its start (a fence's
    /// indentation); missing entries count as 0.
    pub removed: Vec<u32>,
    /// Lines added under each of its problems (where a file was included).
    pub context: Vec<Footer>,
}

impl Source {
    /// The book's place of a 1-based line and column of the text.
    pub fn place(&self, line: u32, col: u32) -> Place {
        let line = line.max(1);
        let removed = self.removed.get(line as usize - 1).copied().unwrap_or(0);
        Place {
            file: self.file.clone(),
            line: self.first_line + line - 1,
            col: col.max(1) + removed,
        }
    }
}

/// One shader, parsed and validated.
struct Checked {
    shader: Option<Shader>,
    index: LineIndex,
    diagnostics: Vec<Diagnostic>,
}

fn check_one(text: &str, expected: Processor) -> Checked {
    let parsed = text::parse(text);
    let mut diagnostics = parsed.diagnostics;
    let index = LineIndex::new(text);
    if let Some(shader) = &parsed.shader {
        let mut more = valid::check(shader, &valid::Options::default());
        more.extend(tgsi::render::job::wrong_processor(shader, expected));
        diag::locate(&mut more, &index);
        diagnostics.extend(more);
    }
    Checked { shader: parsed.shader, index, diagnostics }
}

/// Every diagnostic of a widget's fragment shader and optional vertex shader, placed in the book.
pub fn check(fs: &Source, vs: Option<&Source>) -> Vec<Problem> {
    let f = check_one(&fs.text, Processor::Fragment);
    let v = vs.map(|vs| (vs, check_one(&vs.text, Processor::Vertex)));
    let mut problems = Vec::new();
    if let Some((vs, v)) = &v {
        problems.extend(v.diagnostics.iter().map(|d| problem(d, vs)));
    }
    problems.extend(f.diagnostics.iter().map(|d| problem(d, fs)));
    if let Some((vs, v)) = &v {
        // Linked only when each is of its kind: R100 already says what is wrong otherwise.
        if let (Some(vs_shader), Some(fs_shader)) = (&v.shader, &f.shader) {
            if vs_shader.processor != Processor::Vertex
                || fs_shader.processor != Processor::Fragment
            {
                return problems;
            }
            let (mut dv, mut df) = valid::link(vs_shader, fs_shader);
            diag::locate(&mut dv, &v.index);
            diag::locate(&mut df, &f.index);
            problems.extend(dv.iter().map(|d| problem(d, vs)));
            problems.extend(df.iter().map(|d| problem(d, fs)));
        }
    }
    problems
}

fn problem(d: &Diagnostic, src: &Source) -> Problem {
    let severity = d.severity;
    let place = src.place(d.line, d.column);
    let mut footers: Vec<Footer> = d
        .related
        .iter()
        .map(|r| Footer {
            kind: "note",
            place: src.place(r.line, r.column),
            text: r.message.clone(),
        })
        .collect();
    footers.extend(d.notes().map(|n| Footer {
        kind: "note",
        place: place.clone(),
        text: n.to_string(),
    }));
    footers.extend(d.help().map(|h| Footer {
        kind: "help",
        place: place.clone(),
        text: h.to_string(),
    }));
    footers.extend(src.context.iter().cloned());
    Problem { severity, place, message: d.message.clone(), code: Some(d.code.to_string()), footers }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) const GOOD_FS: &str = "FRAG\nDCL OUT[0], COLOR\nIMM[0] FLT32 { 0.2500, 0.5000, 1.0000, 1.0000 }\n  0: MOV OUT[0], IMM[0]\n  1: END\n";

    fn source(text: &str, first_line: u32, removed: Vec<u32>) -> Source {
        Source {
            text: text.to_string(),
            file: "src/ch.md".to_string(),
            first_line,
            removed,
            context: Vec::new(),
        }
    }

    #[test]
    fn a_correct_shader_has_no_problem() {
        assert_eq!(check(&source(GOOD_FS, 10, vec![]), None), []);
    }

    #[test]
    fn an_error_is_placed_at_the_books_line_and_column() {
        // TEMP[7] is not declared: the engine reports the shader's line 3, column 18 (in
        // "  0: MOV OUT[0], TEMP[7]" the T follows 2 spaces, "0: " (3), "MOV " (4) and
        // "OUT[0], " (8)), plus the 2 spaces the fence's indentation took off that line: 20.
        // The text starts at the file's line 20: 20 + 3 - 1 = 22.
        let text = "FRAG\nDCL OUT[0], COLOR\n  0: MOV OUT[0], TEMP[7]\n  1: END\n";
        let problems = check(&source(text, 20, vec![2, 2, 2, 2]), None);
        let errors: Vec<&Problem> = problems.iter().filter(|p| p.is_error()).collect();
        assert_eq!(errors.len(), 1, "{problems:?}");
        assert_eq!(errors[0].place, Place::new("src/ch.md", 22, 20));
        assert!(errors[0].message.contains("TEMP[7]"), "{}", errors[0].message);
        assert!(errors[0].code.as_deref().is_some_and(|c| c.starts_with('V')));
    }

    #[test]
    fn a_parse_error_is_placed_too() {
        // "MOVE" is no opcode: line 2 of the text, which starts at line 5 of the file.
        let problems = check(&source("FRAG\n  0: MOVE OUT[0], IN[0]\n  1: END\n", 5, vec![]), None);
        assert!(problems.iter().any(|p| p.is_error() && p.place.line == 6), "{problems:?}");
    }

    #[test]
    fn the_block_must_be_a_fragment_shader_and_vs_a_vertex_shader() {
        let vert = "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\n  0: MOV OUT[0], IN[0]\n  1: END\n";
        let problems = check(&source(vert, 1, vec![]), None);
        let r100: Vec<&Problem> =
            problems.iter().filter(|p| p.code.as_deref() == Some("R100")).collect();
        assert_eq!(r100.len(), 1, "{problems:?}");
        assert_eq!(r100[0].message, "expected a FRAG shader here, found VERT");
        assert_eq!(r100[0].place.line, 1);
        let problems = check(&source(GOOD_FS, 1, vec![]), Some(&source(GOOD_FS, 30, vec![])));
        let r100: Vec<&Problem> =
            problems.iter().filter(|p| p.code.as_deref() == Some("R100")).collect();
        assert_eq!(r100.len(), 1, "{problems:?}");
        assert_eq!(r100[0].message, "expected a VERT shader here, found FRAG");
        assert_eq!(r100[0].place.line, 30);
    }

    #[test]
    fn a_link_error_is_reported() {
        // The fragment shader reads GENERIC[3], which the vertex shader does not write.
        let vs = "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\n  0: MOV OUT[0], IN[0]\n  1: END\n";
        let fs = "FRAG\nDCL IN[0], GENERIC[3], PERSPECTIVE\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0]\n  1: END\n";
        let problems = check(&source(fs, 1, vec![]), Some(&source(vs, 1, vec![])));
        assert!(
            problems.iter().any(|p| p.code.as_deref().is_some_and(|c| c.starts_with('L'))),
            "{problems:?}"
        );
    }
}
