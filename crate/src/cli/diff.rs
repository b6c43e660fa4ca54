//! `tgsi diff A.tgsi B.tgsi`: runs both shaders on the same inputs and reports "no difference"
//! or the first difference with both traces (`diff`, docs/diff.md). Exit status: 0 no
//! difference found, 1 a difference, 2 usage, I/O or a shader with errors.

use super::args::DiffArgs;
use super::report::{display_name, Origin, Printer, Stream};
use crate::diag;
use crate::diff::{self, Options, Side};
use crate::ir::LineIndex;

const USAGE: &str =
    "usage: tgsi diff A.tgsi B.tgsi [--seed N] [--trials N] [--exact-nan] [--size N] \
[--grid X[,Y,Z]] [--block X[,Y,Z]] [--budget N] [--texture U=SPEC]... [--index-a N] [--index-b N]";

/// Most trials one comparison runs (each is two runs of one quad or one dispatch).
pub const MAX_TRIALS: u32 = 1_000_000;
/// Largest picture side (the picture is drawn twice and compared pixel by pixel).
pub const MAX_SIZE: u32 = 1024;

pub fn run(args: &DiffArgs) -> i32 {
    match compare(args) {
        Ok(code) => code,
        Err(msg) => {
            eprintln!("tgsi diff: {msg}\n{USAGE}");
            2
        }
    }
}

fn number<T: std::str::FromStr>(flag: &str, s: &str) -> Result<T, String> {
    s.trim().parse().map_err(|_| format!("{flag} {s}: not a number"))
}

/// The one shader of an input (a log may hold several: `index` picks one), its text with the
/// rest blanked so that lines and columns stay the input's.
fn shader_text(path: &str, src: &str, index: Option<&str>, flag: &str) -> Result<String, String> {
    let mut shaders =
        super::shaders_of(src, index).map_err(|e| format!("{}: {e}", display_name(path)))?;
    match shaders.len() {
        1 => Ok(shaders.remove(0).1),
        0 => Ok(src.to_string()),
        n => Err(format!(
            "{}: holds {n} shaders; pick one with {flag} N (`tgsi fmt --list` lists them)",
            display_name(path)
        )),
    }
}

/// Parses and compiles one side, printing its diagnostics; `None` when it has errors.
fn side<'a>(printer: &Printer, path: &str, src: &str, text: &'a str) -> Option<Side<'a>> {
    let origin = Origin { name: display_name(path), text: src };
    let index = LineIndex::new(text);
    let parsed = crate::text::parse(text);
    let mut diags = parsed.diagnostics;
    let shader = parsed.shader.filter(|_| !diag::has_errors(&diags));
    let program = shader.as_ref().map(crate::exec::build);
    match (shader, program) {
        (Some(shader), Some(Ok(program))) => {
            // Warnings still show: a dump-rounded immediate (P109) explains many differences.
            diag::locate(&mut diags, &index);
            printer.print_all("diff", Some(origin), &diags);
            Some(Side { text, shader, program })
        }
        (_, Some(Err(more))) => {
            diags.extend(more);
            diag::locate(&mut diags, &index);
            printer.print_all("diff", Some(origin), &diags);
            None
        }
        _ => {
            diag::locate(&mut diags, &index);
            printer.print_all("diff", Some(origin), &diags);
            None
        }
    }
}

fn compare(args: &DiffArgs) -> Result<i32, String> {
    let seed: u64 = number("--seed", &args.seed)?;
    let size: u32 = number("--size", &args.size)?;
    if !(2..=MAX_SIZE).contains(&size) {
        return Err(format!("--size {size}: give 2 to {MAX_SIZE}"));
    }
    let trials: Option<u32> = args.trials.as_deref().map(|t| number("--trials", t)).transpose()?;
    if trials.is_some_and(|t| t > MAX_TRIALS) {
        return Err(format!("--trials: at most {MAX_TRIALS}"));
    }
    let grid = super::run::triple(&args.grid)?;
    let block = args.block.as_deref().map(super::run::triple).transpose()?;
    let budget =
        crate::limits::parse_budget(args.budget.as_deref(), crate::limits::default_frame_budget(1))
            .map_err(|e| format!("--budget: {e}"))?;
    let mut textures = crate::texture::bind::Bindings::new();
    let mut texture_bytes = crate::texture::desc::TextureBytes::job();
    for spec in &args.texture {
        let (unit, bound) = crate::texture::desc::load_binding_charged(spec, &mut texture_bytes)
            .map_err(|e| format!("--texture {spec}: {e}"))?;
        textures.bind(unit, bound);
    }

    let printer = Printer::new(&args.diag, Stream::Stderr);
    let (Some(src_a), Some(src_b)) = (super::read_text(&args.a), super::read_text(&args.b)) else {
        return Ok(2);
    };
    let text_a = shader_text(&args.a, &src_a, args.index_a.as_deref(), "--index-a")?;
    let text_b = shader_text(&args.b, &src_b, args.index_b.as_deref(), "--index-b")?;
    let a = side(&printer, &args.a, &src_a, &text_a);
    let b = side(&printer, &args.b, &src_b, &text_b);
    let (Some(a), Some(b)) = (a, b) else {
        eprintln!("tgsi diff: only shaders without errors compare");
        return Ok(2);
    };
    let compute = a.program.processor == crate::ir::Processor::Compute;
    let opts = Options {
        seed,
        trials: trials.unwrap_or(if compute { 100 } else { 1000 }),
        exact_nan: args.exact_nan,
        budget,
        size,
        grid,
        block,
    };
    let mut textures_b = textures.clone();
    let out = diff::compare(&a, &b, &opts, &mut textures, &mut textures_b)?;
    let names = [display_name(&args.a), display_name(&args.b)];
    print!("{}", diff::report::text(&out, names, [a.text, b.text], seed, opts.exact_nan));
    Ok(if out.same() { 0 } else { 1 })
}
