//! `tgsi check FILE...` and `tgsi check --link VS FS`: parses and validates, printing every
//! diagnostic in the chosen `--format` (short: `FILE:LINE:COL: error: MESSAGE [CODE]`).
//! Exit status: 0 without errors, 1 with at least one error, 2 for usage or I/O problems.

use super::args::CheckArgs;
use super::report::{display_name, Origin, Printer, Stream};
use crate::diag;
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
    let mut status = 0;
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
            status |= check_text(&printer, path, &src, text).errors as i32;
        }
    }
    status
}

/// One checked file: its text, its shader (when it parsed), where its lines start, whether it
/// had errors.
struct Checked {
    text: String,
    shader: Option<Shader>,
    index: LineIndex,
    errors: bool,
}

/// Parses, validates and prints the diagnostics of one file; `None` for an I/O problem.
fn check_file(printer: &Printer, path: &str) -> Option<Checked> {
    let src = super::read_text(path)?;
    Some(check_text(printer, path, &src.clone(), src))
}

/// Parses and validates `text` (a shader of the input `src`, with the same byte offsets:
/// `text::log::isolate`) and prints its diagnostics against `src`.
fn check_text(printer: &Printer, path: &str, src: &str, text: String) -> Checked {
    let parsed = text::parse(&text);
    let mut diags = parsed.diagnostics;
    let index = LineIndex::new(&text);
    if let Some(shader) = &parsed.shader {
        let mut more = valid::check(shader, &valid::Options::default());
        diag::locate(&mut more, &index);
        diags.extend(more);
    }
    printer.print_all("check", Some(Origin { name: display_name(path), text: src }), &diags);
    let errors = diag::has_errors(&diags);
    Checked { text, shader: parsed.shader, index, errors }
}

fn link(printer: &Printer, vs: &str, fs: &str) -> i32 {
    let Some(v) = check_file(printer, vs) else { return 2 };
    let Some(f) = check_file(printer, fs) else { return 2 };
    let mut errors = v.errors || f.errors;
    if let (Some(vs_shader), Some(fs_shader)) = (&v.shader, &f.shader) {
        let (mut dv, mut df) = valid::link(vs_shader, fs_shader);
        diag::locate(&mut dv, &v.index);
        diag::locate(&mut df, &f.index);
        printer.print_all("check", Some(Origin { name: display_name(vs), text: &v.text }), &dv);
        printer.print_all("check", Some(Origin { name: display_name(fs), text: &f.text }), &df);
        errors |= diag::has_errors(&dv) || diag::has_errors(&df);
    }
    errors as i32
}
