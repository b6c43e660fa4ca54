//! `tgsi render FS.tgsi [--vs VS.tgsi] [--gs GS.tgsi] [--mesh fullscreen|quad|cube|sphere |
//! --vertices FILE.json] [--size WxH] [--const B:I=X,Y,Z,W]...
//! [--vs-const|--fs-const|--gs-const B:I=X,Y,Z,W]...
//! [--texture U=FILE[,nearest|linear][,WRAP]]... [--time T] [--budget N]
//! [--timeout SECONDS] [--target N] [--depth FILE.png|FILE.f32] -o OUT.png|OUT.f32`
//! (docs/render.md); `--help` prints the usage.
//! Exit status: 0 written, 1 diagnostics with errors (parse, validation, linkage, budget,
//! timeout), 2 usage or I/O (a bad `--const` or texture too, printed as its R004 / R005
//! diagnostic: `render::options::read`, the page's own), 130 after Ctrl-C (the partial image
//! is written).

use super::args::{FrameArgs, RenderArgs};
use super::report::{display_name, Origin, Printer};
use crate::render::bands;
use crate::render::job::{self, Request, Source, SourcedDiagnostic};
use crate::render::options::{parse_size, RenderOptions, DEFAULT_SIZE};
use crate::render::uniforms::Builtins;
use crate::texture::bind::Bindings;
use crate::texture::desc::TextureSpec;

pub(crate) const USAGE: &str = "usage: tgsi render FS.tgsi [--vs VS.tgsi] [--gs GS.tgsi] [--mesh fullscreen|quad|cube|sphere | --vertices FILE.json] [--size WxH] [--const B:I=X,Y,Z,W]... [--vs-const|--fs-const|--gs-const B:I=X,Y,Z,W]... [--texture U=FILE[,nearest|linear][,WRAP]]... [--time T] [--budget N] [--timeout SECONDS] [--threads N] [--engine interp|jit] -o OUT.png|OUT.f32";

/// The files and values of a frame's options, read and checked (the shells' own part: flags
/// and files); the texts are borrowed by [`Common`].
pub(crate) struct Inputs {
    pub fs_path: String,
    pub fs: String,
    pub vs_path: Option<String>,
    pub vs: Option<String>,
    pub gs_path: Option<String>,
    pub gs: Option<String>,
    pub vertices_path: Option<String>,
    pub vertices: Option<String>,
    pub size: (u32, u32),
    pub time: f32,
    /// `--texture`: each unit's file read, its texture not built yet.
    pub textures: Vec<TextureSpec>,
}

/// A frame's options through the shared entry (`render::options::read`): the job's request
/// and the bound textures.
pub(crate) struct Common<'a> {
    pub inputs: &'a Inputs,
    pub request: Request<'a>,
    pub textures: Bindings,
}

/// `--threads N` (1 to 256), by default the machine's cores (`std::thread::available_parallelism`).
pub(crate) fn parse_threads(text: Option<&str>) -> Result<usize, String> {
    match text {
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
        Some(t) => match t.trim().parse::<usize>() {
            Ok(n) if (1..=256).contains(&n) => Ok(n),
            _ => Err(format!("--threads: '{}' is not a whole number from 1 to 256", t)),
        },
    }
}

/// Reads the flags' syntax and the files; `Err(status)` after printing the problem (usage or
/// I/O: 2).
/// The instruction budget of a whole frame of `size` (`limits`): `--budget` if given, else in
/// proportion to its quads; at most `limits::MAX_BUDGET`. A bad value is a usage error.
pub(crate) fn frame_budget(
    given: Option<&str>,
    size: (u32, u32),
    command: &str,
    usage: &str,
) -> Result<u64, i32> {
    let default = crate::limits::default_frame_budget(crate::limits::frame_quads(size.0, size.1));
    crate::limits::parse_budget(given, default).map_err(|e| {
        eprintln!("tgsi {}: --budget: {}\n{}", command, e, usage);
        2
    })
}

pub(crate) fn read_inputs(args: &FrameArgs, command: &str, usage: &str) -> Result<Inputs, i32> {
    let fail = |msg: String| -> i32 {
        eprintln!("tgsi {}: {}\n{}", command, msg, usage);
        2
    };
    let size = match args.size.as_deref() {
        Some(s) => parse_size(s).map_err(fail)?,
        None => (DEFAULT_SIZE, DEFAULT_SIZE),
    };
    if args.mesh.is_some() && args.vertices.is_some() {
        return Err(fail("give either --mesh or --vertices, not both".into()));
    }
    let time = match args.time.as_deref() {
        Some(t) => crate::text::decimal::parse_f32(t)
            .filter(|t| t.is_finite())
            .ok_or_else(|| fail(format!("bad time '{}'", t)))?,
        None => 0.0,
    };
    // The files only: the textures are built by the shared entry, as the page's are.
    let textures = args
        .texture
        .iter()
        .map(|spec| {
            crate::texture::desc::read_binding(spec)
                .map_err(|e| fail(format!("--texture {}: {}", spec, e)))
        })
        .collect::<Result<Vec<_>, i32>>()?;
    let fs = super::read_text(&args.fs).ok_or(2)?;
    let read_opt = |path: &Option<String>| -> Result<(Option<String>, Option<String>), i32> {
        match path {
            Some(p) => Ok((Some(p.to_string()), Some(super::read_text(p).ok_or(2)?))),
            None => Ok((None, None)),
        }
    };
    let (vs_path, vs) = read_opt(&args.vs)?;
    let (gs_path, gs) = read_opt(&args.gs)?;
    let (vertices_path, vertices) = read_opt(&args.vertices)?;
    Ok(Inputs {
        fs_path: args.fs.clone(),
        fs,
        vs_path,
        vs,
        gs_path,
        gs,
        vertices_path,
        vertices,
        size,
        time,
        textures,
    })
}

/// Passes the inputs and the constant flags through the shared entry. A bad `--const` or
/// texture is its diagnostic (`R004`, `R005`, as the page reports it) in the printer's format,
/// and still a usage error: `Err(2)`.
pub(crate) fn read_common<'a>(
    inputs: &'a Inputs,
    args: &'a FrameArgs,
    printer: &Printer,
    command: &str,
) -> Result<Common<'a>, i32> {
    let setup = crate::render::options::read(&RenderOptions {
        frame: Request {
            fs: &inputs.fs,
            vs: inputs.vs.as_deref(),
            gs: inputs.gs.as_deref(),
            mesh: args.mesh.as_deref(),
            vertices: inputs.vertices.as_deref(),
            width: inputs.size.0,
            height: inputs.size.1,
            builtins: Builtins { time: inputs.time, ..Builtins::default() },
            ..Request::default()
        },
        consts: &args.constants,
        vs_consts: &args.vs_const,
        fs_consts: &args.fs_const,
        gs_consts: &args.gs_const,
        textures: &inputs.textures,
    });
    if setup.has_errors() {
        inputs.print(printer, command, &setup.diagnostics);
        return Err(2);
    }
    Ok(Common { inputs, request: setup.request, textures: setup.textures })
}

impl Inputs {
    /// Prints diagnostics in the printer's format, each with the file it is about (none for
    /// diagnostics about the whole job).
    pub(crate) fn print(&self, printer: &Printer, command: &str, diags: &[SourcedDiagnostic]) {
        for d in diags {
            let file = match d.source {
                Source::Fragment => Some((self.fs_path.as_str(), Some(self.fs.as_str()))),
                Source::Vertex => self.vs_path.as_deref().map(|p| (p, self.vs.as_deref())),
                Source::Geometry => self.gs_path.as_deref().map(|p| (p, self.gs.as_deref())),
                Source::Vertices => {
                    self.vertices_path.as_deref().map(|p| (p, self.vertices.as_deref()))
                }
                Source::Render => None,
            };
            let origin = file.map(|(name, text)| Origin {
                name: display_name(name),
                text: text.unwrap_or_default(),
            });
            printer.print(command, origin, &d.diagnostic);
        }
    }
}

impl Common<'_> {
    pub(crate) fn print(&self, printer: &Printer, command: &str, diags: &[SourcedDiagnostic]) {
        self.inputs.print(printer, command, diags);
    }
}

pub fn run(args: &RenderArgs) -> i32 {
    let printer = Printer::new(&args.diag, super::report::Stream::Stderr);
    let Some(out_path) = args.output.as_deref() else {
        eprintln!("tgsi render: missing -o OUT.png|OUT.f32\n{}", USAGE);
        return 2;
    };
    for (what, path) in [("the output", Some(out_path)), ("--depth", args.depth.as_deref())] {
        let lower = path.unwrap_or(".png").to_ascii_lowercase();
        if !(lower.ends_with(".png") || lower.ends_with(".f32")) {
            eprintln!("tgsi render: {what} must end in .png or .f32\n{USAGE}");
            return 2;
        }
    }
    let target = match args.target.as_deref().map(str::parse::<usize>) {
        None => 0,
        Some(Ok(n)) if n < crate::render::framebuffer::MAX_TARGETS => n,
        Some(_) => {
            eprintln!(
                "tgsi render: --target takes a colour buffer number 0..{}\n{USAGE}",
                crate::render::framebuffer::MAX_TARGETS - 1
            );
            return 2;
        }
    };
    let inputs = match read_inputs(&args.frame, "render", USAGE) {
        Ok(i) => i,
        Err(status) => return status,
    };
    let common = match read_common(&inputs, &args.frame, &printer, "render") {
        Ok(c) => c,
        Err(status) => return status,
    };
    let budget = match frame_budget(args.budget.as_deref(), inputs.size, "render", USAGE) {
        Ok(n) => n,
        Err(status) => return status,
    };
    // The wall clock (--timeout) and Ctrl-C stop the frame as the budget does (`watchdog`).
    let timeout = match super::watchdog::parse_timeout(args.timeout.as_deref()) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("tgsi render: {}\n{}", e, USAGE);
            return 2;
        }
    };
    let threads = match parse_threads(args.threads.as_deref()) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("tgsi render: {}\n{}", e, USAGE);
            return 2;
        }
    };
    let frame = crate::exec::FrameBudget::new(budget);
    let _watchdog = super::watchdog::Watchdog::start(&frame, timeout, args.timeout.as_deref());
    let (engines, named) = match super::engine::read(args.engine.as_deref(), false) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("tgsi render: {}\n{}", e, USAGE);
            return 2;
        }
    };
    let (prepared, mut diags) = job::prepare(&common.request);
    let Some(mut job) = prepared else {
        common.print(&printer, "render", &diags);
        return 1;
    };
    if let Err(why) = crate::jit::attach(&mut job, engines[0], named) {
        if named {
            super::engine::note("render", &why);
        }
    }
    let targets = job.color_targets();
    if target >= targets {
        common.print(&printer, "render", &diags);
        eprintln!(
            "tgsi render: --target {target}: the fragment shader writes {targets} colour \
             buffer(s), COLOR[0..{}]",
            targets - 1
        );
        return 2;
    }
    let mut fb = match crate::render::framebuffer::Framebuffer::new(job.width, job.height, targets)
    {
        Ok(fb) => fb,
        Err(e) => {
            eprintln!("tgsi render: {}", e);
            return 1;
        }
    };
    let mut scratch = bands::BandScratch::default();
    let drawn =
        bands::run_in_bands(&job, &mut fb, threads, &common.textures, &frame, &mut scratch, true);
    let status = match drawn {
        Ok((_, warnings)) => {
            diags.extend(
                warnings
                    .into_iter()
                    .map(|d| SourcedDiagnostic { source: Source::Render, diagnostic: d }),
            );
            0
        }
        // Stopped (the budget ran out, the time, Ctrl-C, …): the diagnostic, and the image as
        // far as it got.
        Err(d) => {
            diags.push(d);
            super::watchdog::status_of(&frame)
        }
    };
    common.print(&printer, "render", &diags);
    let written = crate::render::image_io::write_target(out_path, &fb, target).and_then(|()| {
        match args.depth.as_deref() {
            Some(path) => crate::render::image_io::write_depth(path, &fb),
            None => Ok(()),
        }
    });
    if let Err(e) = written {
        eprintln!("tgsi render: {}", e);
        return 2;
    }
    status
}
