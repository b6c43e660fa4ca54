//! `tgsi fmt [--style mesa|exact] [--index N] FILE` and `tgsi fmt --list FILE`: parses a
//! shader and prints it to standard output. The input may be a log holding shaders among other
//! lines (`text::log`): `--list` lists them, `--index N` picks one. Errors are printed as by
//! `tgsi check` (on standard error) and give exit status 1; warnings do not stop it.

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
    let name = display_name(&args.file);
    if args.list {
        let found = text::log::find(&src);
        for (k, f) in found.iter().enumerate() {
            println!(
                "{}: {} lines {}-{}, {} instruction(s){}",
                k + 1,
                f.processor.name(),
                f.first_line + 1,
                f.last_line + 1,
                f.instructions,
                if f.prefixed() { ", line prefixes taken off" } else { "" }
            );
        }
        if found.is_empty() {
            eprintln!(
                "tgsi fmt: {name}: no shader found (a processor line such as FRAG, up to END)"
            );
            return 1;
        }
        return 0;
    }
    let shaders = match super::shaders_of(&src, args.index.as_deref()) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("tgsi fmt: {name}: {e}");
            return 2;
        }
    };
    let [(_, text)] = shaders.as_slice() else {
        eprintln!(
            "tgsi fmt: {name} holds {} shaders: pick one with --index N (--list lists them)",
            shaders.len()
        );
        return 2;
    };
    let parsed = text::parse(text);
    let printer = Printer::new(&args.diag, Stream::Stderr);
    let origin = Origin { name, text: &src };
    printer.print_all("fmt", Some(origin), &parsed.diagnostics);
    match parsed.shader {
        Some(shader) => {
            print!("{}", text::print(&shader, style));
            0
        }
        None => 1,
    }
}
