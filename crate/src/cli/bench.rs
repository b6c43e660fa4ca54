//! `tgsi bench FS.tgsi [--vs VS.tgsi] [--size WxH] [--seconds S]` (also `--mesh`, `--const`,
//! `--texture`, `--time`, `--format`, `--engine interp|jit|both`): renders one untimed warm-up frame, then frames until S
//! seconds (default 2) have passed, and prints frames, milliseconds per frame and, on its last
//! line, `Mpix/s: N`. Frames go into an RGBA32F framebuffer (like softpipe's oracle), or with
//! `--format rgba8` into an RGBA8 one (what PNG and the canvas need; reported as such).

use super::render::read_common;
use super::Args;
use crate::render::framebuffer::{Format, Framebuffer};
use crate::render::job;
use std::time::Instant;

const USAGE: &str = "usage: tgsi bench FS.tgsi [--vs VS.tgsi] [--mesh NAME] [--size WxH] [--const B:I=X,Y,Z,W]... [--texture U=FILE[,...]]... [--time T] [--seconds S] [--format rgba32f|rgba8] [--engine interp|jit|both]";

pub fn run(args: &Args) -> i32 {
    if let Some(bad) = args.unknown(&[
        "vs", "gs", "mesh", "size", "const", "texture", "time", "seconds", "format", "engine",
    ]) {
        eprintln!("tgsi bench: unknown option '--{}'\n{}", bad, USAGE);
        return 2;
    }
    let seconds = match args.value("seconds").map(str::parse::<f64>) {
        None => 2.0,
        Some(Ok(s)) if (0.0..=3600.0).contains(&s) => s,
        Some(_) => {
            eprintln!("tgsi bench: --seconds takes a number of seconds (0..3600)\n{}", USAGE);
            return 2;
        }
    };
    let format = match args.value("format") {
        None | Some("rgba32f") => Format::Rgba32F,
        Some("rgba8") => Format::Rgba8,
        Some(_) => {
            eprintln!("tgsi bench: --format is rgba32f (the default) or rgba8\n{}", USAGE);
            return 2;
        }
    };
    let common = match read_common(args, "bench", USAGE) {
        Ok(c) => c,
        Err(status) => return status,
    };
    let (engines, named) = match super::engine::read(args, true) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("tgsi bench: {}\n{}", e, USAGE);
            return 2;
        }
    };
    let (prepared, diags) = job::prepare(&common.request());
    common.print("bench", &diags);
    let Some(mut job) = prepared else { return 1 };
    let mut results = Vec::new();
    for &engine in &engines {
        let compile_start = Instant::now();
        let attached = crate::jit::attach(&mut job, engine);
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
        let m = match measure(&job, &common, format, seconds) {
            Ok(m) => m,
            Err(status) => return status,
        };
        println!("shader: {}  size: {}x{}", common.fs_path, job.width, job.height);
        println!("engine: {}", ran.name());
        if ran == crate::jit::Engine::Jit {
            // Code generation and the runtime's compilation of the module, once per program.
            println!("compile ms: {:.3}", compile_ms);
        }
        if format == Format::Rgba8 {
            // Not comparable with softpipe's RGBA32F figures.
            println!("format: rgba8");
        }
        println!("frames: {}", m.frames);
        println!("ms/frame: {:.3}", m.elapsed * 1000.0 / m.frames as f64);
        // On a shared machine wall-clock time includes waiting for a core; CPU time does not.
        if let Some(cpu) = m.cpu {
            println!("cpu ms/frame: {:.3}", cpu * 1000.0 / m.frames as f64);
            println!("cpu Mpix/s: {:.3}", m.pixels / cpu / 1e6);
        }
        println!("Mpix/s: {:.3}", m.pixels / m.elapsed / 1e6);
        results.push((engine, ran, m));
    }
    if let [(_, a, ma), (_, b, mb)] = results.as_slice() {
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
    frames: u64,
    elapsed: f64,
    cpu: Option<f64>,
    pixels: f64,
}

/// One untimed warm-up frame, then frames until `seconds` have passed.
fn measure(
    job: &job::Job,
    common: &super::render::Common,
    format: Format,
    seconds: f64,
) -> Result<Measured, i32> {
    let targets = job.color_targets();
    let mut fb = match Framebuffer::with_format(job.width, job.height, targets, format) {
        Ok(fb) => fb,
        Err(e) => {
            eprintln!("tgsi bench: {}", e);
            return Err(1);
        }
    };
    let mut textures = common.textures.clone();
    let mut frame = |fb: &mut Framebuffer| -> Result<(), i32> {
        if job.mesh.wants_depth {
            fb.clear_depth();
        }
        job::run_into(job, fb, None, &mut textures, crate::limits::DEFAULT_FRAME_BUDGET)
            .map(|_| ())
            .map_err(|d| {
                common.print("bench", &[d]);
                1
            })
    };
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
        (Some(a), Some(b)) if b - a > 0.0 => Some(b - a),
        _ => None,
    };
    let pixels = job.width as f64 * job.height as f64 * frames as f64;
    Ok(Measured { frames, elapsed, cpu, pixels })
}

/// User + system CPU time of this process from `/proc/self/stat` (Linux; clock ticks of 1/100 s,
/// the kernel's USER_HZ on every common configuration). `None` elsewhere.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the parenthesised command name: state is field 3, utime 14, stime 15.
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}
