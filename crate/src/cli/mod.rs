//! The `tgsi` command-line interface. Each subcommand lives in its own file and exposes
//! `run(args: &Args) -> i32`. Exit status: 0 success, 1 diagnostics with errors, 2 usage or I/O.

pub mod agal;
pub mod args;
pub mod bench;
pub mod check;
pub mod fmt;
pub mod reference;
pub mod render;
pub mod run;
pub mod trace;
pub mod watchdog;

pub use args::Args;

/// One line per subcommand, shown by `tgsi --help`.
const COMMANDS: &[(&str, &str)] = &[
    ("fmt", "fmt [--style mesa|exact] FILE          print a shader in Mesa's dump format or losslessly"),
    ("check", "check [--link VS FS] FILE...          parse and validate; FILE:LINE:COL: error: MESSAGE [CODE]"),
    ("render", "render FS.tgsi [options] [--budget N] [--timeout S] -o OUT.png|OUT.f32   render a shader to an image"),
    ("bench", "bench FS.tgsi [--vs VS] [--size WxH] [--seconds S]   measure rendering speed (Mpix/s)"),
    ("trace", "trace FS.tgsi [render options] --pixel X,Y [--json]   what the shader did for one pixel"),
    ("run", "run CS.tgsi [options] [--budget N] [--timeout S]   run a compute shader on buffers"),
    ("agal", "agal FILE.tgsi [--agal-version N] -o OUT [--asm] [--layout]   export TGSI as AGAL"),
    ("agal-asm", "agal-asm vertex|fragment FILE [--agal-version N] -o OUT   assemble AGAL"),
    ("agal-dis", "agal-dis FILE                          disassemble AGAL bytecode"),
    ("reference", "reference --out DIR                    write the opcode reference site (index.html, data.json)"),
];

pub fn usage() -> String {
    let mut s = format!("{}\n\nUsage: tgsi <command> [options]\n\nCommands:\n", crate::version());
    for (_, line) in COMMANDS {
        s.push_str("  ");
        s.push_str(line);
        s.push('\n');
    }
    s.push_str(
        "\nOptions:\n  -h, --help     show this help\n  -V, --version  show the version\n\n",
    );
    s.push_str("A FILE of '-' reads standard input.\n");
    s
}

/// Runs the CLI with `args` (without the program name) and returns the exit status.
pub fn main(args: Vec<String>) -> i32 {
    let Some(cmd) = args.first() else {
        eprint!("{}", usage());
        return 2;
    };
    let rest = &args[1..];
    match cmd.as_str() {
        "-h" | "--help" | "help" => {
            print!("{}", usage());
            0
        }
        "-V" | "--version" | "version" => {
            println!("{}", crate::version());
            0
        }
        "fmt" => with_args(rest, fmt::run),
        "check" => with_args(rest, check::run),
        "render" => with_args(rest, render::run),
        "bench" => with_args(rest, bench::run),
        "trace" => with_args(rest, trace::run),
        "run" | "compute" => with_args(rest, run::run),
        "agal" => with_args(rest, agal::run_export),
        "agal-asm" => with_args(rest, agal::run_asm),
        "agal-dis" => with_args(rest, agal::run_dis),
        "reference" => with_args(rest, reference::run),
        other => {
            eprintln!("tgsi: unknown command '{}'\n", other);
            eprint!("{}", usage());
            2
        }
    }
}

fn with_args(raw: &[String], f: fn(&Args) -> i32) -> i32 {
    match Args::parse(raw) {
        Ok(a) => f(&a),
        Err(e) => {
            eprintln!("tgsi: {}", e);
            2
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
