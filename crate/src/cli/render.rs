//! `tgsi render FS.tgsi [--vs VS.tgsi] [--gs GS.tgsi] [--mesh fullscreen|quad|cube|sphere |
//! --vertices FILE.json] [--size WxH] [--const B:I=X,Y,Z,W]...
//! [--vs-const|--fs-const|--gs-const B:I=X,Y,Z,W]...
//! [--texture U=FILE[,nearest|linear][,repeat|clamp]]... [--time T] [--budget N]
//! [--timeout SECONDS] -o OUT.png|OUT.f32` (docs/render.md); `--help` prints the usage.
//! Exit status: 0 written, 1 diagnostics with errors (parse, validation, linkage, budget,
//! timeout), 2 usage or I/O, 130 after Ctrl-C (the partial image is written).

use super::Args;
use crate::render::job::{self, Request, Source, SourcedDiagnostic};
use crate::render::options::{parse_const, parse_size, ConstValue};
use crate::render::uniforms::Builtins;
use crate::texture::bind::Bindings;

pub(crate) const USAGE: &str = "usage: tgsi render FS.tgsi [--vs VS.tgsi] [--gs GS.tgsi] [--mesh fullscreen|quad|cube|sphere | --vertices FILE.json] [--size WxH] [--const B:I=X,Y,Z,W]... [--vs-const|--fs-const|--gs-const B:I=X,Y,Z,W]... [--texture U=FILE[,nearest|linear][,repeat|clamp]]... [--time T] [--budget N] [--timeout SECONDS] [--engine interp|jit] -o OUT.png|OUT.f32";

/// The options `render` and `trace` share (read by [`read_common`]).
pub(crate) const COMMON_OPTIONS: &[&str] = &[
    "vs", "gs", "mesh", "vertices", "size", "const", "vs-const", "fs-const", "gs-const", "texture",
    "time",
];

/// Options common to `render` and `bench`, read and checked.
pub(crate) struct Common {
    pub fs_path: String,
    pub fs: String,
    pub vs_path: Option<String>,
    pub vs: Option<String>,
    pub gs_path: Option<String>,
    pub gs: Option<String>,
    pub mesh: Option<String>,
    pub vertices_path: Option<String>,
    pub vertices: Option<String>,
    pub size: (u32, u32),
    /// `--const`: every stage.
    pub constants: Vec<ConstValue>,
    /// `--vs-const`, `--fs-const`, `--gs-const`: one stage each.
    pub vs_constants: Vec<ConstValue>,
    pub fs_constants: Vec<ConstValue>,
    pub gs_constants: Vec<ConstValue>,
    /// Texture units bound with `--texture`.
    pub textures: Bindings,
    pub time: f32,
}

/// Reads the shared options; `Err(status)` after printing the problem.
pub(crate) fn read_common(args: &Args, command: &str, usage: &str) -> Result<Common, i32> {
    let fail = |msg: String| -> i32 {
        eprintln!("tgsi {}: {}\n{}", command, msg, usage);
        2
    };
    let [fs_path] = args.positional.as_slice() else {
        return Err(fail("expected exactly one fragment shader file".into()));
    };
    let size = match args.value("size") {
        Some(s) => parse_size(s).map_err(fail)?,
        None => (256, 256),
    };
    if args.value("mesh").is_some() && args.value("vertices").is_some() {
        return Err(fail("give either --mesh or --vertices, not both".into()));
    }
    // One parser for every constant flag, each repeatable.
    let constants_of = |flag: &str| -> Result<Vec<ConstValue>, i32> {
        args.values(flag).into_iter().map(parse_const).collect::<Result<Vec<_>, _>>().map_err(fail)
    };
    let constants = constants_of("const")?;
    let vs_constants = constants_of("vs-const")?;
    let fs_constants = constants_of("fs-const")?;
    let gs_constants = constants_of("gs-const")?;
    let mut textures = Bindings::new();
    // Every --texture shares one budget of texel bytes (limits::MAX_TEXTURE_BYTES).
    let mut texture_bytes = crate::texture::desc::TextureBytes::job();
    for spec in args.values("texture") {
        let (unit, bound) = crate::texture::desc::load_binding_charged(spec, &mut texture_bytes)
            .map_err(|e| fail(format!("--texture {}: {}", spec, e)))?;
        textures.bind(unit, bound);
    }
    let time = match args.value("time") {
        Some(t) => t
            .parse::<f32>()
            .ok()
            .filter(|t| t.is_finite())
            .ok_or_else(|| fail(format!("bad time '{}'", t)))?,
        None => 0.0,
    };
    let fs = super::read_text(fs_path).ok_or(2)?;
    let read_opt = |name: &str| -> Result<(Option<String>, Option<String>), i32> {
        match args.value(name) {
            Some(p) => Ok((Some(p.to_string()), Some(super::read_text(p).ok_or(2)?))),
            None => Ok((None, None)),
        }
    };
    let (vs_path, vs) = read_opt("vs")?;
    let (gs_path, gs) = read_opt("gs")?;
    let (vertices_path, vertices) = read_opt("vertices")?;
    Ok(Common {
        fs_path: fs_path.clone(),
        fs,
        vs_path,
        vs,
        gs_path,
        gs,
        mesh: args.value("mesh").map(str::to_string),
        vertices_path,
        vertices,
        size,
        constants,
        vs_constants,
        fs_constants,
        gs_constants,
        textures,
        time,
    })
}

impl Common {
    pub(crate) fn request(&self) -> Request<'_> {
        Request {
            fs: &self.fs,
            vs: self.vs.as_deref(),
            gs: self.gs.as_deref(),
            mesh: self.mesh.as_deref(),
            vertices: self.vertices.as_deref(),
            width: self.size.0,
            height: self.size.1,
            constants: self.constants.clone(),
            vs_constants: self.vs_constants.clone(),
            fs_constants: self.fs_constants.clone(),
            gs_constants: self.gs_constants.clone(),
            builtins: Builtins { time: self.time, ..Builtins::default() },
        }
    }

    /// Prints diagnostics as `FILE:LINE:COL: severity: message [CODE]`.
    pub(crate) fn print(&self, command: &str, diags: &[SourcedDiagnostic]) {
        for d in diags {
            let file = match d.source {
                Source::Fragment => Some(self.fs_path.as_str()),
                Source::Vertex => self.vs_path.as_deref(),
                Source::Geometry => self.gs_path.as_deref(),
                Source::Vertices => self.vertices_path.as_deref(),
                Source::Render => None,
            };
            match file {
                Some(f) => {
                    eprintln!("{}", d.diagnostic.render(if f == "-" { "<stdin>" } else { f }))
                }
                None => eprintln!(
                    "tgsi {}: {}: {} [{}]",
                    command,
                    d.diagnostic.severity.word(),
                    d.diagnostic.message,
                    d.diagnostic.code
                ),
            }
        }
    }
}

pub fn run(args: &Args) -> i32 {
    if args.flag("help") || args.flag("h") {
        println!("{}", USAGE);
        return 0;
    }
    let known: Vec<&str> =
        COMMON_OPTIONS.iter().copied().chain(["budget", "timeout", "o", "engine"]).collect();
    if let Some(bad) = args.unknown(&known) {
        eprintln!("tgsi render: unknown option '--{}'\n{}", bad, USAGE);
        return 2;
    }
    let Some(out_path) = args.value("o") else {
        eprintln!("tgsi render: missing -o OUT.png|OUT.f32\n{}", USAGE);
        return 2;
    };
    let lower = out_path.to_ascii_lowercase();
    if !(lower.ends_with(".png") || lower.ends_with(".f32")) {
        eprintln!("tgsi render: the output must end in .png or .f32\n{}", USAGE);
        return 2;
    }
    let common = match read_common(args, "render", USAGE) {
        Ok(c) => c,
        Err(status) => return status,
    };
    // The instruction budget of the whole frame (`limits`): at most limits::MAX_BUDGET.
    let budget = match crate::limits::parse_budget(args.value("budget")) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("tgsi render: --budget: {}\n{}", e, USAGE);
            return 2;
        }
    };
    // The wall clock (--timeout) and Ctrl-C stop the frame as the budget does (`watchdog`).
    let timeout = match super::watchdog::parse_timeout(args.value("timeout")) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("tgsi render: {}\n{}", e, USAGE);
            return 2;
        }
    };
    let frame = crate::exec::FrameBudget::new(budget);
    let _watchdog = super::watchdog::Watchdog::start(&frame, timeout, args.value("timeout"));
    let (engines, named) = match super::engine::read(args, false) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("tgsi render: {}\n{}", e, USAGE);
            return 2;
        }
    };
    let (prepared, mut diags) = job::prepare(&common.request());
    let Some(mut job) = prepared else {
        common.print("render", &diags);
        return 1;
    };
    if let Err(why) = crate::jit::attach(&mut job, engines[0]) {
        if named {
            super::engine::note("render", &why);
        }
    }
    let mut textures = common.textures.clone();
    let targets = job.color_targets();
    let mut fb = match crate::render::framebuffer::Framebuffer::new(job.width, job.height, targets)
    {
        Ok(fb) => fb,
        Err(e) => {
            eprintln!("tgsi render: {}", e);
            return 1;
        }
    };
    let status = match job::run_in_frame(&job, &mut fb, None, &mut textures, &frame) {
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
    common.print("render", &diags);
    if let Err(e) = crate::render::image_io::write_image(out_path, &fb) {
        eprintln!("tgsi render: {}", e);
        return 2;
    }
    status
}
