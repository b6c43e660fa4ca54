//! `tgsi check FILE...` and `tgsi check --link VS FS`: parses and validates, printing every
//! diagnostic in the chosen `--format` (short: `FILE:LINE:COL: error: MESSAGE [CODE]`).
//! In the rich format (a terminal's), a last line counts the shaders checked and the problems
//! found, so that a clean check does not end in silence; the short and JSON formats print
//! diagnostics only, for scripts. Exit status: 0 without errors, 1 with at least one error, 2 for
//! usage or I/O problems.

use super::args::CheckArgs;
use super::args::DiagFormat;
use super::report::{display_name, Origin, Printer, Stream};
use crate::diag::{self, Diagnostic, Severity};
use crate::ir::{LineIndex, Shader};
use crate::text;
use crate::valid;

pub fn run(args: &CheckArgs) -> i32 {
    let printer = Printer::new(&args.diag, Stream::Stdout);
    if let Some(vs) = &args.link {
        let [fs] = args.files.as_slice() else {
            eprintln!("usage: tgsi check --link VS.tgsi FS.tgsi");
            return 2;
        };
        return link(&printer, vs, fs);
    }
    if args.files.is_empty() {
        eprintln!("usage: tgsi check FILE...   ('-' reads standard input)");
        return 2;
    }
    let mut tally = Tally::default();
    for path in &args.files {
        let Some(src) = super::read_text(path) else { return 2 };
        let shaders = match super::shaders_of(&src, args.index.as_deref()) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("tgsi check: {}: {e}", display_name(path));
                return 2;
            }
        };
        for (_, text) in shaders {
            check_text(&printer, path, &src, text, &mut tally);
        }
    }
    tally.finish(&printer, "")
}

/// What a check found, over every shader it read.
#[derive(Default)]
struct Tally {
    shaders: usize,
    errors: usize,
    warnings: usize,
    notes: usize,
}

impl Tally {
    fn add(&mut self, diags: &[Diagnostic]) {
        for d in diags {
            match d.severity {
                Severity::Error => self.errors += 1,
                Severity::Warning => self.warnings += 1,
                Severity::Note => self.notes += 1,
            }
        }
    }

    /// Prints the count line (rich format only) and gives the exit status: 1 with any error.
    fn finish(&self, printer: &Printer, linked: &str) -> i32 {
        if printer.format == DiagFormat::Rich {
            println!("{}", self.summary(linked));
        }
        (self.errors > 0) as i32
    }

    /// `2 shaders checked: 1 error, 1 warning`, or `…: no problems`.
    fn summary(&self, linked: &str) -> String {
        let count = |n: usize, one: &str| match n {
            1 => format!("1 {one}"),
            n => format!("{n} {one}s"),
        };
        let found: Vec<String> =
            [(self.errors, "error"), (self.warnings, "warning"), (self.notes, "note")]
                .into_iter()
                .filter(|&(n, _)| n > 0)
                .map(|(n, one)| count(n, one))
                .collect();
        let found = if found.is_empty() { "no problems".to_string() } else { found.join(", ") };
        format!("{} checked{linked}: {found}", count(self.shaders, "shader"))
    }
}

/// One checked file: its text, its shader (when it parsed), where its lines start.
struct Checked {
    text: String,
    shader: Option<Shader>,
    index: LineIndex,
}

/// Parses, validates and prints the diagnostics of one file; `None` for an I/O problem.
fn check_file(printer: &Printer, path: &str, tally: &mut Tally) -> Option<Checked> {
    let src = super::read_text(path)?;
    Some(check_text(printer, path, &src.clone(), src, tally))
}

/// Parses and validates `text` (a shader of the input `src`, with the same byte offsets:
/// `text::log::isolate`) and prints its diagnostics against `src`.
fn check_text(
    printer: &Printer,
    path: &str,
    src: &str,
    text: String,
    tally: &mut Tally,
) -> Checked {
    let parsed = text::parse(&text);
    let mut diags = parsed.diagnostics;
    let index = LineIndex::new(&text);
    if let Some(shader) = &parsed.shader {
        let mut more = valid::check(shader, &valid::Options::default());
        diag::locate(&mut more, &index);
        diags.extend(more);
    }
    printer.print_all("check", Some(Origin { name: display_name(path), text: src }), &diags);
    tally.shaders += 1;
    tally.add(&diags);
    Checked { text, shader: parsed.shader, index }
}

fn link(printer: &Printer, vs: &str, fs: &str) -> i32 {
    let mut tally = Tally::default();
    let Some(v) = check_file(printer, vs, &mut tally) else { return 2 };
    let Some(f) = check_file(printer, fs, &mut tally) else { return 2 };
    // Linkage needs both shaders parsed; when one did not, its errors are the count.
    let mut linked = "";
    if let (Some(vs_shader), Some(fs_shader)) = (&v.shader, &f.shader) {
        let (mut dv, mut df) = valid::link(vs_shader, fs_shader);
        diag::locate(&mut dv, &v.index);
        diag::locate(&mut df, &f.index);
        printer.print_all("check", Some(Origin { name: display_name(vs), text: &v.text }), &dv);
        printer.print_all("check", Some(Origin { name: display_name(fs), text: &f.text }), &df);
        tally.add(&dv);
        tally.add(&df);
        linked = " and linked";
    }
    tally.finish(printer, linked)
}
