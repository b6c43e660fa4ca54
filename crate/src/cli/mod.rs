//! The `tgsi` command-line interface. The arguments are clap types (`args.rs`); each subcommand
//! lives in its own file and exposes `run(&TheirArgs) -> i32`. Exit status: 0 success, 1
//! diagnostics with errors, 2 usage or I/O (clap's usage errors too), 130 after Ctrl-C.

pub mod agal;
pub mod args;
pub mod bench;
pub mod check;
pub mod diff;
pub mod engine;
pub mod explain;
pub mod fmt;
pub mod reference;
pub mod render;
pub mod report;
pub mod run;
pub mod trace;
pub mod watchdog;

use args::{Cli, Command};
use clap::{CommandFactory, Parser};

/// Runs the CLI with `args` (without the program name) and returns the exit status. Usage
/// errors are clap's messages with status 2; `--help` and `--version` print and return 0.
pub fn main(args: Vec<String>) -> i32 {
    let cli = match Cli::try_parse_from(std::iter::once("tgsi".to_string()).chain(args)) {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to stdout with status 0; usage errors to stderr with 2.
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    match cli.command {
        Command::Fmt(a) => fmt::run(&a),
        Command::Check(a) => check::run(&a),
        Command::Render(a) => render::run(&a),
        Command::Bench(a) => bench::run(&a),
        Command::Trace(a) => trace::run(&a),
        Command::Diff(a) => diff::run(&a),
        Command::Run(a) => run::run(&a),
        Command::Agal(a) => agal::run_export(&a),
        Command::AgalAsm(a) => agal::run_asm(&a),
        Command::AgalDis(a) => agal::run_dis(&a),
        Command::Reference(a) => reference::run(&a),
        Command::Explain(a) => explain::run(&a),
        Command::Completions(a) => {
            let mut cmd = Cli::command();
            clap_complete::generate(a.shell, &mut cmd, "tgsi", &mut std::io::stdout());
            0
        }
        Command::Version => {
            println!("{}", crate::version());
            0
        }
    }
}

/// Reads a file, or standard input for `-`. Errors are printed; `None` means exit 2.
pub fn read_input(path: &str) -> Option<Vec<u8>> {
    use std::io::Read;
    let result = if path == "-" {
        let mut buf = Vec::new();
        std::io::stdin().read_to_end(&mut buf).map(|_| buf)
    } else {
        std::fs::read(path)
    };
    match result {
        Ok(b) => Some(b),
        Err(e) => {
            eprintln!("tgsi: cannot read {}: {}", path, e);
            None
        }
    }
}

/// Reads a text file (lossy UTF-8), or standard input for `-`.
pub fn read_text(path: &str) -> Option<String> {
    read_input(path).map(|b| String::from_utf8_lossy(&b).into_owned())
}

/// The shader texts to read from an input (`text::log`): the input itself when it is one shader
/// and nothing else; else every shader found in it (a log, a paste of several), or the one
/// `--index` picks, each as the input with all but that shader blanked, so that diagnostics
/// point into the input. `Err` is a usage message (`--index` not a number or out of range).
pub fn shaders_of(
    text: &str,
    index: Option<&str>,
) -> Result<Vec<(Option<crate::text::log::Found>, String)>, String> {
    use crate::text::log;
    // An input over the size limit is left to the parser, which says so.
    if crate::limits::check_input(text).is_err() {
        return Ok(vec![(None, text.to_string())]);
    }
    let found = log::find(text);
    let index = match index {
        None => None,
        Some(s) => match s.parse::<usize>() {
            Ok(n) if n >= 1 && n <= found.len().max(1) => Some(n - 1),
            _ => {
                return Err(format!(
                    "--index {s}: the input holds {} shader(s); give 1 to {}",
                    found.len(),
                    found.len().max(1)
                ))
            }
        },
    };
    if log::is_plain(text, &found) {
        return Ok(vec![(None, text.to_string())]);
    }
    Ok(found
        .into_iter()
        .enumerate()
        .filter(|(k, _)| index.is_none_or(|i| i == *k))
        .map(|(_, f)| {
            let isolated = log::isolate(text, &f);
            (Some(f), isolated)
        })
        .collect())
}
