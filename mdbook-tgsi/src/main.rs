//! `mdbook-tgsi` (what mdBook runs): `mdbook-tgsi supports RENDERER` answers with the exit
//! status (0 for `html`); without arguments it reads `[context, book]` as JSON from standard
//! input and writes the book back to standard output. Problems go to standard error; a shader
//! error fails the build (exit 1), unreadable input or a missing package too (exit 2).

use mdbook_tgsi::{assets, book, report::Severity};
use std::io::{self, Read, Write};
use std::process::ExitCode;

const USAGE: &str = "usage: mdbook-tgsi [supports RENDERER]\n\
\n\
An mdBook preprocessor: add [preprocessor.tgsi] to book.toml and mdBook runs it.\n\
Without arguments it reads mdBook's [context, book] JSON from standard input and writes the\n\
book to standard output; `supports RENDERER` exits 0 for html and 1 otherwise.";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        [] => run(),
        ["supports", renderer] => ExitCode::from(if *renderer == "html" { 0 } else { 1 }),
        ["--version" | "-V"] => {
            println!("mdbook-tgsi {} ({})", env!("CARGO_PKG_VERSION"), tgsi::version());
            ExitCode::SUCCESS
        }
        ["--help" | "-h"] => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("mdbook-tgsi: error: {message}");
    ExitCode::from(2)
}

fn run() -> ExitCode {
    let mut input = String::new();
    if let Err(e) = io::stdin().read_to_string(&mut input) {
        return fail(format!("cannot read standard input: {e}"));
    }
    let (settings, input_book) = match book::parse_input(&input) {
        Ok(x) => x,
        Err(e) => return fail(e),
    };
    for w in &settings.warnings {
        eprintln!("mdbook-tgsi: warning: {w}");
    }
    let outcome = match book::rewrite(&settings, input_book) {
        Ok(o) => o,
        Err(e) => return fail(e),
    };
    for p in &outcome.problems {
        eprintln!("{p}");
    }
    let errors = outcome.problems.iter().filter(|p| p.severity == Severity::Error).count();
    if errors > 0 {
        let s = if errors == 1 { "" } else { "s" };
        eprintln!("mdbook-tgsi: {errors} error{s} in the book's shaders: the book is not built");
        return ExitCode::from(1);
    }
    if outcome.widgets > 0 {
        let files = match &settings.assets {
            Some(dir) => match assets::from_folder(dir) {
                Ok(f) => f,
                Err(e) => return fail(format!("[preprocessor.tgsi] assets: {e}")),
            },
            None => assets::embedded(),
        };
        if files.is_empty() {
            return fail(
                "this mdbook-tgsi was built without the widget's files (dist/tgsi-shader did not \
                 exist): build them with `node scripts/build-package.mjs` and install mdbook-tgsi \
                 again, or name the package's folder in book.toml: [preprocessor.tgsi] assets = \
                 \"node_modules/tgsi-shader\"",
            );
        }
        let dest = settings.src_dir.join(assets::FOLDER);
        if let Err(e) = assets::install(&files, &dest) {
            return fail(format!("cannot write the widget's files to {}: {e}", dest.display()));
        }
    }
    let mut out = io::stdout().lock();
    let written = serde_json::to_writer(&mut out, &outcome.book)
        .map_err(io::Error::from)
        .and_then(|()| out.flush());
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(format!("cannot write the book to standard output: {e}")),
    }
}
