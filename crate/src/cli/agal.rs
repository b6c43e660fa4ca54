//! `tgsi agal`, `tgsi agal-asm`, `tgsi agal-dis` (`docs/agal.md`).
//! Exit status: 0 success, 1 diagnostics with errors, 2 usage or I/O errors.

use super::args::{AgalArgs, AgalAsmArgs, AgalDisArgs};
use super::report::{display_name, Origin, Printer, Stream};
use crate::agal::{self, ShaderKind};
use crate::diag::{self, Diagnostic};
use crate::ir::{LineIndex, Span};

/// Reads `--agal-version` (1, 2 or 3); `Err` is a usage message.
fn version_option(value: Option<&str>) -> Result<Option<u32>, String> {
    match value {
        None => Ok(None),
        Some(v) => match v.parse::<u32>() {
            Ok(n @ 1..=3) => Ok(Some(n)),
            _ => Err(format!("--agal-version must be 1, 2 or 3, not '{}'", v)),
        },
    }
}

fn usage_error(cmd: &str, msg: &str) -> i32 {
    eprintln!("tgsi {}: {}", cmd, msg);
    2
}

/// Writes bytes to a file, or standard output for `-`.
pub(crate) fn write_output(path: &str, bytes: &[u8]) -> bool {
    use std::io::Write;
    let result =
        if path == "-" { std::io::stdout().write_all(bytes) } else { std::fs::write(path, bytes) };
    match result {
        Ok(()) => true,
        Err(e) => {
            eprintln!("tgsi: cannot write {}: {}", path, e);
            false
        }
    }
}

/// Prints diagnostics located in `text`; returns true when one is an error.
pub(crate) fn print_diagnostics(
    printer: &Printer,
    command: &str,
    file: &str,
    text: &str,
    diags: &mut [Diagnostic],
) -> bool {
    diag::locate(diags, &LineIndex::new(text));
    printer.print_all(command, Some(Origin { name: display_name(file), text }), diags);
    diag::has_errors(diags)
}

/// `--sampler N=word,word…` (filter, mipmap and wrap words of docs/agal.md "Sampler").
fn sampler_option(v: &str) -> Result<(u32, agal::lower::SamplerState), String> {
    let bad = || {
        format!(
            "--sampler expects N=linear,miplinear,repeat (filter, mipmap, wrap words), not '{}'",
            v
        )
    };
    let (n, words) = v.split_once('=').ok_or_else(bad)?;
    let n: u32 = n.trim().parse().map_err(|_| bad())?;
    let mut st = agal::lower::SamplerState::default();
    for w in words.split(',').map(str::trim).filter(|w| !w.is_empty()) {
        let pos = |names: &[&str]| names.iter().position(|x| *x == w).map(|p| p as u8);
        if let Some(f) = pos(agal::FILTER_NAMES) {
            st.filter = f;
        } else if let Some(m) = pos(agal::MIP_NAMES) {
            st.mip = m;
        } else if let Some(r) = pos(agal::WRAP_NAMES) {
            st.wrap = r;
        } else {
            return Err(bad());
        }
    }
    Ok((n, st))
}

/// `tgsi agal FILE.tgsi [--agal-version N] [--sampler N=…] [--link OTHER.tgsi] -o OUT [--asm]
/// [--layout] [--json]`.
pub fn run_export(args: &AgalArgs) -> i32 {
    const CMD: &str = "agal";
    let printer = Printer::new(&args.diag, Stream::Stderr);
    let file = &args.file;
    let mut opts = agal::lower::ExportOptions::default();
    match version_option(args.agal_version.as_deref()) {
        Ok(v) => opts.version = v,
        Err(e) => return usage_error(CMD, &e),
    }
    for v in &args.sampler {
        match sampler_option(v) {
            Ok((n, st)) => {
                opts.samplers.insert(n, st);
            }
            Err(e) => return usage_error(CMD, &e),
        }
    }
    let out_path = args.output.as_deref();
    if out_path.is_none() && !args.asm && !args.layout && !args.json {
        return usage_error(CMD, "nothing to do: give -o OUT, --asm, --layout or --json");
    }
    let Some(text) = super::read_text(file) else {
        return 2;
    };
    let parsed = crate::text::parse(&text);
    let mut diags = parsed.diagnostics.clone();
    let Some(shader) = parsed.shader else {
        print_diagnostics(&printer, CMD, file, &text, &mut diags);
        return 1;
    };
    let analysed = match crate::valid::analyse(&shader, &crate::valid::Options::default()) {
        Ok(a) => a,
        Err(all) => {
            diags.extend(all);
            print_diagnostics(&printer, CMD, file, &text, &mut diags);
            return 1;
        }
    };
    let export = match args.link.as_deref() {
        None => agal::lower::export(&analysed, &opts),
        Some(other_path) => {
            // Export as one half of a linked pair: varyings packed the same way on both sides.
            let Some(other_text) = super::read_text(other_path) else {
                return 2;
            };
            let other = crate::text::parse(&other_text);
            let Some(other) = other.shader else {
                let mut d = other.diagnostics.clone();
                print_diagnostics(&printer, CMD, other_path, &other_text, &mut d);
                return 1;
            };
            let other = match crate::valid::analyse(&other, &crate::valid::Options::default()) {
                Ok(a) => a,
                Err(mut all) => {
                    print_diagnostics(&printer, CMD, other_path, &other_text, &mut all);
                    return 1;
                }
            };
            let this_is_vertex = shader.processor == crate::ir::Processor::Vertex;
            let (vs, fs) = if this_is_vertex { (&analysed, &other) } else { (&other, &analysed) };
            let (a, b) = agal::lower::export_pair(vs, fs, &opts);
            if this_is_vertex {
                a
            } else {
                b
            }
        }
    };
    diags.extend(export.diagnostics.iter().cloned());
    if print_diagnostics(&printer, CMD, file, &text, &mut diags) || export.program.is_none() {
        return 1;
    }
    if let Some(path) = out_path {
        if !write_output(path, &export.bytes) {
            return 2;
        }
    }
    if args.json {
        let json = serde_json::json!({
            "version": export.version,
            "kind": export.program.as_ref().map(|p| p.kind.word()),
            "assembly": export.assembly,
            "layout": export.layout,
        });
        println!("{}", serde_json::to_string_pretty(&json).unwrap_or_default());
        return 0;
    }
    if args.asm {
        print!(
            "// AGAL {} {} program\n{}",
            export.version,
            export.program.as_ref().map(|p| p.kind.word()).unwrap_or(""),
            export.assembly
        );
    }
    if args.layout {
        print!("{}", export.layout.to_text());
    }
    0
}

/// `tgsi agal-asm vertex|fragment FILE [--agal-version N] [--no-validate] -o OUT`.
pub fn run_asm(args: &AgalAsmArgs) -> i32 {
    const CMD: &str = "agal-asm";
    let printer = Printer::new(&args.diag, Stream::Stderr);
    let (kind, file) = (&args.kind, &args.file);
    let Some(kind) = ShaderKind::from_word(kind) else {
        return usage_error(
            CMD,
            &format!("program type must be 'vertex' or 'fragment', not '{}'", kind),
        );
    };
    let version = match version_option(args.agal_version.as_deref()) {
        Ok(v) => v.unwrap_or(1),
        Err(e) => return usage_error(CMD, &e),
    };
    let Some(out_path) = args.output.as_deref() else {
        return usage_error(CMD, "missing -o OUT (use '-o -' for standard output)");
    };
    let Some(text) = super::read_text(file) else {
        return 2;
    };
    let assembled = agal::assemble(&text, kind, version);
    let mut diags = assembled.errors.clone();
    if diags.is_empty() && !args.no_validate {
        let whole = Span::new(0, text.len());
        diags.extend(
            agal::validate(&assembled.program)
                .iter()
                .map(|f| f.to_diagnostic(&assembled.spans, whole)),
        );
    }
    if print_diagnostics(&printer, CMD, file, &text, &mut diags) {
        return 1;
    }
    if write_output(out_path, &agal::encode(&assembled.program)) {
        0
    } else {
        2
    }
}

/// `tgsi agal-dis FILE`: prints the program in Adobe's syntax; validator findings go to stderr.
pub fn run_dis(args: &AgalDisArgs) -> i32 {
    let file = &args.file;
    let Some(bytes) = super::read_input(file) else {
        return 2;
    };
    let program = match agal::decode(&bytes) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{}:byte {}: error: {} [{}]", file, e.offset, e.message, e.code);
            return 1;
        }
    };
    print!(
        "// AGAL {} {} program, {} instructions\n{}",
        program.version,
        program.kind.word(),
        program.code.len(),
        agal::disassemble(&program)
    );
    if !args.no_validate {
        for f in agal::validate(&program) {
            let at = f
                .token
                .map(|t| format!("token {} (byte {})", t + 1, 7 + 24 * t))
                .unwrap_or_else(|| "program".into());
            eprintln!("{}:{}: {}: {} [{}]", file, at, f.severity.word(), f.message, f.code);
        }
    }
    0
}
