//! `tgsi bench FS.tgsi [--vs VS.tgsi] [--size WxH] [--seconds S]` (also every frame option of
//! `render`, `--format`, `--json`, `--engine interp|jit|both`): renders one untimed warm-up
//! frame, then frames until S seconds (default 2) have passed, and prints frames, milliseconds
//! per frame and, on its last line, `Mpix/s: N`; with `--json` one JSON object instead
//! (docs/render.md). With `--engine both` each engine is measured in turn and a table compares
//! them. Frames go into an RGBA32F framebuffer (like softpipe's oracle), or with `--format
//! rgba8` into an RGBA8 one (what PNG and the canvas need; reported as such).

use super::args::BenchArgs;
use super::render::{read_common, read_inputs};
use super::report::{Printer, Stream};
use crate::render::framebuffer::{Format, Framebuffer};
use crate::render::{bands, job};
use std::time::Instant;

const USAGE: &str = "usage: tgsi bench FS.tgsi [--vs VS.tgsi] [--mesh NAME] [--size WxH] [--const B:I=X,Y,Z,W]... [--texture U=FILE[,...]]... [--time T] [--seconds S] [--format rgba32f|rgba8] [--json] [--threads N] [--engine interp|jit|both]";

pub fn run(args: &BenchArgs) -> i32 {
    let printer = Printer::new(&Default::default(), Stream::Stderr);
    let seconds = match args.seconds.as_deref().map(crate::text::decimal::parse_f64) {
        None => 2.0,
        Some(Some(s)) if (0.0..=3600.0).contains(&s) => s,
        Some(_) => {
            eprintln!("tgsi bench: --seconds takes a number of seconds (0..3600)\n{}", USAGE);
            return 2;
        }
    };
    let format = match args.format.as_deref() {
        None | Some("rgba32f") => Format::Rgba32F,
        Some("rgba8") => Format::Rgba8,
        Some(_) => {
            eprintln!("tgsi bench: --format is rgba32f (the default) or rgba8\n{}", USAGE);
            return 2;
        }
    };
    let threads = match super::render::parse_threads(args.threads.as_deref()) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("tgsi bench: {}\n{}", e, USAGE);
            return 2;
        }
    };
    let inputs = match read_inputs(&args.frame, "bench", USAGE) {
        Ok(i) => i,
        Err(status) => return status,
    };
    let common = match read_common(&inputs, &args.frame, &printer, "bench") {
        Ok(c) => c,
        Err(status) => return status,
    };
    let (engines, named) = match super::engine::read(args.engine.as_deref(), true) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("tgsi bench: {}\n{}", e, USAGE);
            return 2;
        }
    };
    let (prepared, diags) = job::prepare(&common.request);
    common.print(&printer, "bench", &diags);
    let Some(mut job) = prepared else { return 1 };
    let mut results = Vec::new();
    for &engine in &engines {
        let compile_start = Instant::now();
        let attached = crate::jit::attach(&mut job, engine, named);
        let compile_ms = compile_start.elapsed().as_secs_f64() * 1000.0;
        let ran = match attached {
            Ok(()) => engine,
            Err(why) => {
                if named {
                    super::engine::note("bench", &why);
                }
                crate::jit::Engine::Interpreter
            }
        };
        let m = match measure(&job, &common, &printer, format, seconds, threads) {
            Ok(m) => m,
            Err(status) => return status,
        };
        let compile_ms = (ran == crate::jit::Engine::Jit).then_some(compile_ms);
        if args.json {
            let json = serde_json::json!({
                "shader": inputs.fs_path,
                "width": job.width,
                "height": job.height,
                "format": if format == Format::Rgba8 { "rgba8" } else { "rgba32f" },
                "engine": match ran {
                    crate::jit::Engine::Interpreter => "interpreter",
                    crate::jit::Engine::Jit => "jit",
                },
                "compile_ms": compile_ms,
                // Bands drawn side by side (`--threads`, at most one per row).
                "threads": m.bands,
                "frames": m.frames,
                "seconds": m.elapsed,
                "ms_per_frame": m.elapsed * 1000.0 / m.frames as f64,
                "mpix_per_s": m.pixels / m.elapsed / 1e6,
                "cpu_ms_per_frame": m.cpu.map(|c| c * 1000.0 / m.frames as f64),
                "cpu_mpix_per_s": m.cpu.map(|c| m.pixels / c / 1e6),
                // The share of quads whose colours the compiled module stored itself.
                "fused_share": m.fused,
                // Instructions as written in each shader (END included).
                "instructions": {
                    "fs": instruction_count(Some(&inputs.fs)),
                    "vs": instruction_count(inputs.vs.as_deref()),
                    "gs": instruction_count(inputs.gs.as_deref()),
                },
                "machine": machine(),
                "version": crate::version(),
            });
            println!("{}", serde_json::to_string_pretty(&json).unwrap_or_default());
            results.push((ran, m));
            continue;
        }
        println!("shader: {}  size: {}x{}", inputs.fs_path, job.width, job.height);
        println!("engine: {}", ran.name());
        println!("threads: {}", m.bands);
        if let Some(ms) = compile_ms {
            // Code generation and the runtime's compilation of the module, once per program.
            println!("compile ms: {:.3}", ms);
        }
        if format == Format::Rgba8 {
            // Not comparable with softpipe's RGBA32F figures.
            println!("format: rgba8");
        }
        if ran == crate::jit::Engine::Jit {
            // docs/jit.md "Colours stored by the module".
            println!("colours stored by the module: {:.0}% of quads", m.fused * 100.0);
        }
        println!("frames: {}", m.frames);
        println!("ms/frame: {:.3}", m.elapsed * 1000.0 / m.frames as f64);
        // On a shared machine wall-clock time includes waiting for a core; CPU time does not.
        if let Some(cpu) = m.cpu {
            println!("cpu ms/frame: {:.3}", cpu * 1000.0 / m.frames as f64);
            println!("cpu Mpix/s: {:.3}", m.pixels / cpu / 1e6);
        }
        println!("Mpix/s: {:.3}", m.pixels / m.elapsed / 1e6);
        results.push((ran, m));
    }
    if let (false, [(a, ma), (b, mb)]) = (args.json, results.as_slice()) {
        // Side by side (CPU figures when the platform gives them).
        let rate = |m: &Measured| m.pixels / m.cpu.unwrap_or(m.elapsed) / 1e6;
        println!("| engine | Mpix/s |");
        println!("|---|---|");
        println!("| {} | {:.3} |", a.name(), rate(ma));
        println!("| {} | {:.3} |", b.name(), rate(mb));
        println!("speed-up: {:.2}x", rate(mb) / rate(ma));
    }
    0
}

struct Measured {
    /// Bands drawn side by side.
    bands: u32,
    frames: u64,
    elapsed: f64,
    cpu: Option<f64>,
    pixels: f64,
    /// The share of a frame's quads whose colours the compiled module stored itself
    /// (`DrawStats::fused_quads`).
    fused: f64,
}

/// One untimed warm-up frame, then frames until `seconds` have passed.
fn measure(
    job: &job::Job,
    common: &super::render::Common<'_>,
    printer: &Printer,
    format: Format,
    seconds: f64,
    threads: usize,
) -> Result<Measured, i32> {
    let targets = job.color_targets();
    let mut fb = match Framebuffer::with_format(job.width, job.height, targets, format) {
        Ok(fb) => fb,
        Err(e) => {
            eprintln!("tgsi bench: {}", e);
            return Err(1);
        }
    };
    let bands = bands::bands_for(fb.height, threads);
    let mut scratch = bands::BandScratch::default();
    let mut last = crate::render::DrawStats::default();
    let mut frame = |fb: &mut Framebuffer| -> Result<(), i32> {
        if job.mesh.wants_depth {
            fb.clear_depth();
        }
        let budget = crate::exec::FrameBudget::new(job.default_budget());
        // The bands stay in their own framebuffers: a benchmark reads no pixel.
        bands::run_in_bands(job, fb, threads, &common.textures, &budget, &mut scratch, false)
            .map(|(stats, _)| last = stats)
            .map_err(|d| {
                common.print(printer, "bench", &[d]);
                1
            })
    };
    // Warm-up frame, not timed.
    frame(&mut fb)?;
    let start = Instant::now();
    let cpu_start = cpu_seconds();
    let mut frames = 0u64;
    loop {
        frame(&mut fb)?;
        frames += 1;
        if start.elapsed().as_secs_f64() >= seconds {
            break;
        }
    }
    let elapsed = start.elapsed().as_secs_f64();
    let cpu = match (cpu_start, cpu_seconds()) {
        (Some(a), Some(b)) if b > a => Some(b - a),
        _ => None,
    };
    let pixels = job.width as f64 * job.height as f64 * frames as f64;
    let fused = last.fused_quads as f64 / last.quads.max(1) as f64;
    Ok(Measured { bands, frames, elapsed, cpu, pixels, fused })
}

/// User + system CPU time of this process from `/proc/self/stat` (Linux; clock ticks of 1/100 s,
/// the kernel's USER_HZ on every common configuration). `None` elsewhere.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the parenthesised command name: state is field 3, utime 14, stime 15.
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // Clock ticks, whole numbers.
    let ticks = |i: usize| fields.get(i)?.parse::<u64>().ok();
    Some((ticks(11)? + ticks(12)?) as f64 / 100.0)
}

/// The machine a benchmark ran on: CPU model (Linux `/proc/cpuinfo`, else null), logical cores,
/// operating system and architecture (and the distribution's name where `/etc/os-release` has
/// one).
fn machine() -> serde_json::Value {
    let cpu = std::fs::read_to_string("/proc/cpuinfo").ok().and_then(|info| {
        info.lines()
            .find(|l| l.starts_with("model name"))
            .and_then(|l| l.split_once(':'))
            .map(|(_, v)| v.trim().to_string())
    });
    let os_name = std::fs::read_to_string("/etc/os-release").ok().and_then(|t| {
        t.lines()
            .find_map(|l| l.strip_prefix("PRETTY_NAME="))
            .map(|v| v.trim_matches('"').to_string())
    });
    serde_json::json!({
        "cpu": cpu,
        "cores": std::thread::available_parallelism().map(|n| n.get()).ok(),
        "os": std::env::consts::OS,
        "os_name": os_name,
        "arch": std::env::consts::ARCH,
    })
}

/// How many instructions a shader's text has (it parsed already when the job was prepared).
fn instruction_count(text: Option<&str>) -> Option<usize> {
    crate::text::parse(text?).shader.map(|s| s.instructions.len())
}
