//! `tgsi run CS.tgsi` (alias `tgsi compute`): runs a compute shader on buffers and images read
//! from files and writes them back (`docs/resources.md` "Command line").
//!
//! ```text
//! tgsi run CS.tgsi --grid X[,Y[,Z]] [--block X[,Y[,Z]]]
//!     [--buffer N=IN.bin[:OUT.bin]] [--buffer N=@BYTES[:OUT.bin]]
//!     [--image N=FORMAT,WxH[xD][,IN.bin][:OUT.bin]] [--atomic N=@BYTES[:OUT.bin]]
//!     [--shared BYTES] [--const B:I=x,y,z,w] [--texture U=FILE[,options]] [--budget N]
//!     [--timeout SECONDS] [--threads N] [--engine interp|jit] [--print]
//! ```
//! `--threads N` (default: the machine's cores) runs ranges of blocks side by side when that
//! gives one thread's bytes (`exec::parallel`); standard error names the threads used.
//! Exit status: 0 success, 1 shader errors (parse, compile, run, budget, timeout), 2 usage or I/O
//! problems, 130 after Ctrl-C.

use super::args::RunArgs;
use super::report::{display_name, Origin, Printer, Stream};
use crate::diag::{self, Diagnostic};
use crate::exec::memory::MAX_MEMORY_BYTES;
use crate::exec::{Constants, ImageBuffer, ImageFormat, Machine, Resources, Threads, ThreadsUsed};
use crate::ir::LineIndex;

const USAGE: &str = "usage: tgsi run CS.tgsi --grid X[,Y,Z] [--block X[,Y,Z]] [--buffer N=IN.bin[:OUT.bin] | N=@BYTES[:OUT.bin]]... \
[--image N=FORMAT,WxH[xD][,IN.bin][:OUT.bin]]... [--atomic N=@BYTES[:OUT.bin]]... [--shared BYTES] [--const B:I=x,y,z,w]... [--texture U=FILE[,options]]... [--budget N] [--timeout SECONDS] [--threads N] [--engine interp|jit] [--print]";

/// Where a resource is written after the run.
enum Back {
    Buffer(u32, Option<String>),
    Atomic(u32, Option<String>),
    Image(u32, Option<String>),
}

pub fn run(args: &RunArgs) -> i32 {
    match setup_and_run(&args.file, args) {
        Ok(code) => code,
        Err(msg) => {
            eprintln!("tgsi run: {msg}\n{USAGE}");
            2
        }
    }
}

fn setup_and_run(path: &str, args: &RunArgs) -> Result<i32, String> {
    let grid = triple(args.grid.as_deref().ok_or("--grid is required")?)?;
    let block = args.block.as_deref().map(triple).transpose()?;
    let mut res = Resources::new();
    let mut back = Vec::new();
    for spec in &args.buffer {
        let (n, bytes, out) = byte_spec(spec)?;
        res.buffers.insert(n, bytes);
        back.push(Back::Buffer(n, out));
    }
    for spec in &args.atomic {
        let (n, bytes, out) = byte_spec(spec)?;
        res.atomic_buffers.insert(n, bytes);
        back.push(Back::Atomic(n, out));
    }
    for spec in &args.image {
        let (n, img, out) = image_spec(spec)?;
        res.images.insert(n, img);
        back.push(Back::Image(n, out));
    }
    if let Some(s) = &args.shared {
        let n: usize = s.parse().map_err(|_| format!("--shared {s}: not a byte count"))?;
        res.shared = vec![0; n.min(MAX_MEMORY_BYTES)];
    }
    let mut consts = Constants::new();
    // The same `--const` syntax as `tgsi render` (one parser: render::options).
    for spec in &args.constants {
        let c = crate::render::options::parse_const(spec).map_err(|e| format!("--const {e}"))?;
        consts.set_bits(c.buffer as usize, c.index as usize, c.bits);
    }
    let mut textures = crate::texture::bind::Bindings::new();
    // Every --texture shares one budget of texel bytes (limits::MAX_TEXTURE_BYTES).
    let mut texture_bytes = crate::texture::desc::TextureBytes::job();
    for spec in &args.texture {
        let (unit, bound) = crate::texture::desc::load_binding_charged(spec, &mut texture_bytes)
            .map_err(|e| format!("--texture {spec}: {e}"))?;
        textures.bind(unit, bound);
    }
    // The budget bounds the whole dispatch (every block draws from it), at most
    // limits::MAX_BUDGET; checked here, its default (known once the block size is) below.
    let asked = match args.budget.as_deref() {
        Some(b) => {
            Some(crate::limits::parse_budget(Some(b), 0).map_err(|e| format!("--budget: {e}"))?)
        }
        None => None,
    };
    let timeout = super::watchdog::parse_timeout(args.timeout.as_deref())?;
    // The same option as `tgsi render --threads` (one parser).
    let threads = super::render::parse_threads(args.threads.as_deref())?;

    let Some(src) = super::read_text(path) else { return Ok(2) };
    let index = LineIndex::new(&src);
    let parsed = crate::text::parse(&src);
    let mut diags = parsed.diagnostics;
    let printer = Printer::new(&args.diag, Stream::Stdout);
    let origin = Origin { name: display_name(path), text: &src };
    let Some(shader) = parsed.shader.filter(|_| !diag::has_errors(&diags)) else {
        print_diags(&printer, &mut diags, &index, origin);
        return Ok(1);
    };
    let program = match crate::exec::build(&shader) {
        Ok(p) => p,
        Err(mut found) => {
            print_diags(&printer, &mut found, &index, origin);
            return Ok(1);
        }
    };
    let budget =
        asked.unwrap_or_else(|| crate::exec::compute::default_budget(&program, grid, block));
    let frame = crate::exec::FrameBudget::new(budget);
    let mut machine = Machine::in_frame(budget, &frame);
    // The wall clock (--timeout) and Ctrl-C stop the dispatch as the budget does (`watchdog`).
    let _watchdog = super::watchdog::Watchdog::start(&frame, timeout, args.timeout.as_deref());
    let (engines, named) = super::engine::read(args.engine.as_deref(), false)?;
    let mut accel = None;
    if engines[0] == crate::jit::Engine::Jit {
        match crate::jit::accelerator(&program, named) {
            Ok(m) => accel = Some(m),
            Err(why) if named => super::engine::note("run", &why),
            Err(_) => {}
        }
    }
    let threads = Threads { count: threads, accel: accel.as_deref() };
    let (result, used) = crate::exec::dispatch_threads(
        &mut machine,
        &program,
        &consts,
        &mut textures,
        &mut res,
        grid,
        block,
        threads,
    );
    if let Some(used) = used {
        report_threads(used);
    }
    if let Err(e) = result {
        print_diags(&printer, &mut [e.diagnostic], &index, origin);
        return Ok(super::watchdog::status_of(&frame));
    }
    write_back(&res, &back, args.print)
}

/// `tgsi run: N threads`, and why not more when there are fewer than asked for.
fn report_threads(used: ThreadsUsed) {
    let n = used.threads;
    let plural = if n == 1 { "" } else { "s" };
    match used.fewer {
        Some(crate::exec::Fewer::Memory) => eprintln!(
            "tgsi run: {n} thread{plural} ({} of {} MiB)",
            crate::exec::Fewer::Memory.reason(),
            crate::limits::MAX_DISPATCH_COPY_BYTES >> 20
        ),
        Some(why) => eprintln!("tgsi run: {n} thread{plural} ({})", why.reason()),
        None => eprintln!("tgsi run: {n} thread{plural}"),
    }
}

fn print_diags(printer: &Printer, diags: &mut [Diagnostic], index: &LineIndex, origin: Origin) {
    diag::locate(diags, index);
    printer.print_all("run", Some(origin), diags);
}

/// `X`, `X,Y` or `X,Y,Z` (missing ones are 1).
pub(crate) fn triple(s: &str) -> Result<[u32; 3], String> {
    let mut v = [1u32; 3];
    for (k, part) in s.split([',', 'x']).enumerate() {
        let slot = v.get_mut(k).ok_or_else(|| format!("'{s}': at most three sizes"))?;
        *slot = part.trim().parse().map_err(|_| format!("'{s}': '{part}' is not a size"))?;
    }
    Ok(v)
}

/// `N=IN.bin[:OUT.bin]` or `N=@BYTES[:OUT.bin]`; a file buffer without OUT is written back to IN.
fn byte_spec(spec: &str) -> Result<(u32, Vec<u8>, Option<String>), String> {
    let (n, rest) = spec.split_once('=').ok_or_else(|| format!("'{spec}': expected N=FILE"))?;
    let n: u32 =
        n.trim().parse().map_err(|_| format!("'{spec}': '{n}' is not a register number"))?;
    let (src, out) = match rest.split_once(':') {
        Some((a, b)) => (a, Some(b.to_string())),
        None => (rest, None),
    };
    if let Some(size) = src.strip_prefix('@') {
        let bytes: usize =
            size.parse().map_err(|_| format!("'{spec}': '{size}' is not a byte count"))?;
        if bytes > MAX_MEMORY_BYTES {
            return Err(format!("'{spec}': more than {MAX_MEMORY_BYTES} bytes"));
        }
        Ok((n, vec![0; bytes], out))
    } else {
        let data = std::fs::read(src).map_err(|e| format!("cannot read {src}: {e}"))?;
        Ok((n, data, out.or_else(|| Some(src.to_string()))))
    }
}

/// `N=FORMAT,WxH[xD][,IN.bin][:OUT.bin]`.
fn image_spec(spec: &str) -> Result<(u32, ImageBuffer, Option<String>), String> {
    let (n, rest) =
        spec.split_once('=').ok_or_else(|| format!("'{spec}': expected N=FORMAT,WxH"))?;
    let n: u32 =
        n.trim().parse().map_err(|_| format!("'{spec}': '{n}' is not a register number"))?;
    let (body, out) = match rest.split_once(':') {
        Some((a, b)) => (a, Some(b.to_string())),
        None => (rest, None),
    };
    let mut parts = body.split(',');
    let fmt = parts.next().unwrap_or("");
    let format = ImageFormat::from_name(fmt).ok_or_else(|| {
        format!("'{fmt}': unknown image format (one of {})", ImageFormat::names().join(", "))
    })?;
    let [w, h, d] = triple(parts.next().ok_or_else(|| format!("'{spec}': missing WxH"))?)?;
    let mut img = ImageBuffer::new(format, w, h, d)?;
    let input = parts.next();
    if let Some(file) = input {
        let data = std::fs::read(file).map_err(|e| format!("cannot read {file}: {e}"))?;
        let n = data.len().min(img.data.len());
        img.data[..n].copy_from_slice(&data[..n]);
    }
    Ok((n, img, out.or_else(|| input.map(str::to_string))))
}

fn write_back(res: &Resources, back: &[Back], print: bool) -> Result<i32, String> {
    for b in back {
        let (label, bytes, out) = match b {
            Back::Buffer(n, o) => {
                (format!("BUFFER[{n}]"), res.buffers.get(n).map(|v| v.as_slice()), o)
            }
            Back::Atomic(n, o) => {
                (format!("HWATOMIC[{n}]"), res.atomic_buffers.get(n).map(|v| v.as_slice()), o)
            }
            Back::Image(n, o) => {
                (format!("IMAGE[{n}]"), res.images.get(n).map(|i| i.data.as_slice()), o)
            }
        };
        let bytes = bytes.unwrap_or_default();
        if let Some(path) = out {
            std::fs::write(path, bytes).map_err(|e| format!("cannot write {path}: {e}"))?;
        }
        if print || out.is_none() {
            let words: Vec<String> = bytes
                .chunks(4)
                .map(|c| {
                    let mut w = [0u8; 4];
                    w[..c.len()].copy_from_slice(c);
                    u32::from_le_bytes(w).to_string()
                })
                .collect();
            println!("{label}: {}", words.join(" "));
        }
    }
    Ok(0)
}
