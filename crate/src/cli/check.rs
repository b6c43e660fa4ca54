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
            Some((_, false)) => {}
            Some((_, true)) => status = 1,
        }
    }
    status
}

/// Parses, validates and prints the diagnostics of one file. Returns the shader (when it
/// parsed) and whether there was an error; `None` for an I/O problem.
fn check_file(path: &str) -> Option<(Option<(Shader, LineIndex)>, bool)> {
    let src = super::read_text(path)?;
    let name = display_name(path);
    let parsed = text::parse(&src);
    let mut diags = parsed.diagnostics;
    let index = LineIndex::new(&src);
    if let Some(shader) = &parsed.shader {
        let mut more = valid::check(shader, &valid::Options::default());
        diag::locate(&mut more, &index);
        diags.extend(more);
    }
    print_diags(&diags, name);
    let errors = diag::has_errors(&diags);
    Some((parsed.shader.map(|s| (s, index)), errors))
}

fn link(vs: &str, fs: &str) -> i32 {
    let Some((vs_shader, vs_err)) = check_file(vs) else { return 2 };
    let Some((fs_shader, fs_err)) = check_file(fs) else { return 2 };
    let mut errors = vs_err || fs_err;
    if let (Some((v, vi)), Some((f, fi))) = (vs_shader, fs_shader) {
        let (mut dv, mut df) = valid::link(&v, &f);
        diag::locate(&mut dv, &vi);
        diag::locate(&mut df, &fi);
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
