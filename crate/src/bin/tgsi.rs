//! The `tgsi` command. All logic lives in `tgsi::cli`; this shell only guarantees that a bug
//! never shows up as Rust's exit status 101.

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::panic::set_hook(Box::new(|info| {
        // A reader that closed the pipe (`tgsi fmt x | head`) is not a bug: stop quietly, as
        // C tools do on SIGPIPE.
        if info.to_string().contains("Broken pipe") {
            std::process::exit(0);
        }
        eprintln!(
            "tgsi: internal error: {} (please report this with the input that caused it)",
            info
        );
    }));
    let code = std::panic::catch_unwind(|| tgsi::cli::main(args)).unwrap_or(3);
    std::process::exit(code);
}

/// The CLI is native only; the wasm build uses the library.
#[cfg(target_arch = "wasm32")]
fn main() {}
