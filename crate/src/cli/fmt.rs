//! `tgsi fmt [--style mesa|exact] FILE`: parses a shader and prints it to standard output.
//! Errors are printed as by `tgsi check` and give exit status 1; warnings do not stop it.

use super::Args;
use crate::text::{self, Style};

pub fn run(args: &Args) -> i32 {
    if let Some(bad) = args.unknown(&["style"]) {
        eprintln!(
            "tgsi fmt: unknown option '--{}'\nusage: tgsi fmt [--style mesa|exact] FILE",
            bad
        );
        return 2;
    }
    let style = match args.value("style") {
        None => Style::Exact,
        Some(s) => match Style::from_name(s) {
            Some(st) => st,
            None => {
                eprintln!("tgsi fmt: unknown style '{}' (expected mesa or exact)", s);
                return 2;
            }
        },
    };
    let [path] = args.positional.as_slice() else {
        eprintln!("usage: tgsi fmt [--style mesa|exact] FILE   ('-' reads standard input)");
        return 2;
    };
    let Some(src) = super::read_text(path) else { return 2 };
    let parsed = text::parse(&src);
    let name = if path == "-" { "<stdin>" } else { path.as_str() };
    for d in &parsed.diagnostics {
        eprintln!("{}", d.render(name));
    }
    match parsed.shader {
        Some(shader) => {
            print!("{}", text::print(&shader, style));
            0
        }
        None => 1,
    }
}
