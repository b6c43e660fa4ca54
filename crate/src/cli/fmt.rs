//! `tgsi fmt [--style mesa|exact] FILE`: parses a shader and prints it to standard output.
//! Errors are printed as by `tgsi check` (on standard error) and give exit status 1; warnings
//! do not stop it.

use super::args::FmtArgs;
use super::report::{display_name, Origin, Printer, Stream};
use crate::text::{self, Style};

pub fn run(args: &FmtArgs) -> i32 {
    let style = match args.style.as_deref() {
        None => Style::Exact,
        Some(s) => match Style::from_name(s) {
            Some(st) => st,
            None => {
                eprintln!("tgsi fmt: unknown style '{}' (expected mesa or exact)", s);
                return 2;
            }
        },
    };
    let Some(src) = super::read_text(&args.file) else { return 2 };
    let parsed = text::parse(&src);
    let printer = Printer::new(&args.diag, Stream::Stderr);
    let origin = Origin { name: display_name(&args.file), text: &src };
    printer.print_all("fmt", Some(origin), &parsed.diagnostics);
    match parsed.shader {
        Some(shader) => {
            print!("{}", text::print(&shader, style));
            0
        }
        None => 1,
    }
}
