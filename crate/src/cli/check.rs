//! `tgsi check FILE...` and `tgsi check --link VS FS`: parses and validates, printing every
//! diagnostic as `FILE:LINE:COL: error: MESSAGE [CODE]` (or `warning:` / `note:`).
//! Exit status: 0 without errors, 1 with at least one error, 2 for usage or I/O problems.

use super::Args;
use crate::diag::{self, Diagnostic};
use crate::ir::{LineIndex, Shader};
use crate::text;
use crate::valid;

pub fn run(args: &Args) -> i32 {
    if let Some(bad) = args.unknown(&["link"]) {
        eprintln!("tgsi check: unknown option '--{}'\nusage: tgsi check FILE... | tgsi check --link VS FS", bad);
        return 2;
    }
    if args.flag("link") {
        // `--link VS FS`: the argument reader takes VS as the option's value.
        let vs = args.value("link").unwrap_or("");
        let [fs] = args.positional.as_slice() else {
            eprintln!("usage: tgsi check --link VS.tgsi FS.tgsi");
            return 2;
        };
        return link(vs, fs);
    }
    if args.positional.is_empty() {
        eprintln!("usage: tgsi check FILE...   ('-' reads standard input)");
        return 2;
    }
    let mut status = 0;
    for path in &args.positional {
        match check_file(path) {
            None => return 2,
            Some(c) => status |= c.errors as i32,
        }
    }
    status
}

/// One checked file: its shader (when it parsed), where its lines start, whether it had errors.
struct Checked {
    shader: Option<Shader>,
    index: LineIndex,
    errors: bool,
}

/// Parses, validates and prints the diagnostics of one file; `None` for an I/O problem.
fn check_file(path: &str) -> Option<Checked> {
    let src = super::read_text(path)?;
    let parsed = text::parse(&src);
    let mut diags = parsed.diagnostics;
    let index = LineIndex::new(&src);
    if let Some(shader) = &parsed.shader {
        let mut more = valid::check(shader, &valid::Options::default());
        diag::locate(&mut more, &index);
        diags.extend(more);
    }
    print_diags(&diags, display_name(path));
    Some(Checked { shader: parsed.shader, index, errors: diag::has_errors(&diags) })
}

fn link(vs: &str, fs: &str) -> i32 {
    let Some(v) = check_file(vs) else { return 2 };
    let Some(f) = check_file(fs) else { return 2 };
    let mut errors = v.errors || f.errors;
    if let (Some(vs_shader), Some(fs_shader)) = (&v.shader, &f.shader) {
        let (mut dv, mut df) = valid::link(vs_shader, fs_shader);
        diag::locate(&mut dv, &v.index);
        diag::locate(&mut df, &f.index);
        print_diags(&dv, display_name(vs));
        print_diags(&df, display_name(fs));
        errors |= diag::has_errors(&dv) || diag::has_errors(&df);
    }
    errors as i32
}

fn display_name(path: &str) -> &str {
    if path == "-" {
        "<stdin>"
    } else {
        path
    }
}

fn print_diags(diags: &[Diagnostic], name: &str) {
    for d in diags {
        println!("{}", d.render(name));
    }
}
