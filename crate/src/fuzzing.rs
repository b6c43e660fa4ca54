//! The bodies of the fuzz targets, written once: `fuzz/fuzz_targets/*.rs` (libFuzzer, nightly,
//! `scripts/fuzz.sh`) and the stable smoke run inside `npm test`
//! (`crate/tests/native/fuzz_smoke.rs`) both call [`TARGETS`].
//!
//! Each body takes arbitrary bytes, drives one input surface of the crate through every stage
//! it reaches, and checks what the crate promises about any input: no panic (the fuzzer and the
//! smoke run see one), diagnostics inside the input and at most `limits::MAX_DIAGNOSTICS` of
//! them (plus the closing note), every run within its instruction budget, the texture bytes
//! within the description's limit, the round trips the docs promise (exact TGSI printing,
//! AGAL encode/decode), and where this build has the native JIT, that a frame `render` draws
//! is drawn the same by the compiling tier. A broken promise is an `Err` naming it (the fuzz
//! targets panic with it).
//!
//! Input framing (the seed script `scripts/fuzz.sh` writes the same):
//! * `tgsi_text`, `agal_bytes`, `texture_json`: the input as it is.
//! * `agal_asm`: one byte (bit 0: fragment, else vertex; `(b >> 1) % 3 + 1`: AGAL version),
//!   then the assembly text.
//! * `render_options`: lines, each tried as `--size`, `--const`, texture options and
//!   `--timeout` values.
//! * `render`: three bytes (width `1 + b0 % 16`, height `1 + b1 % 16`, mesh `b2 % 5`:
//!   none, fullscreen, quad, cube, sphere), then the fragment shader, optionally followed by a
//!   NUL and the vertex shader, and another NUL and the geometry shader.
//! * `vertices_json`: a vertices file (`--vertices`) as it is.

use crate::agal::{self, ShaderKind};
use crate::diag::Diagnostic;
use crate::exec::{self, Batch, Constants, FrameBudget, Machine, Resources};
use crate::ir::Processor;
use crate::limits::MAX_DIAGNOSTICS;
use crate::text::{self, Style};

/// Work one input may do (the whole frame or dispatch), in quad-instructions (`exec::work`):
/// 2^15 instructions of the two-quad batch `tgsi_text` runs, 1024 per quad of a 16x16 render.
pub const BUDGET: u64 = 1 << 16;
/// Largest side of the render target's framebuffer.
pub const MAX_SIDE: u32 = 16;
/// Bytes all the textures of one description may take in `texture_json`.
pub const TEXTURE_BYTES: u64 = 4 << 20;
/// The meshes `render` picks from (`None`: the request's default).
pub const MESHES: [Option<&str>; 5] =
    [None, Some("fullscreen"), Some("quad"), Some("cube"), Some("sphere")];

/// What one input did, for the smoke run's counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// The input got through its first stage (parsed, decoded, assembled, …).
    pub accepted: bool,
    /// It went all the way (validated and ran, or built, or round-tripped).
    pub completed: bool,
    /// Work (quad-instructions) charged to its frame (at most [`BUDGET`]).
    pub instructions: u64,
}

/// A target's body: `Err` names the promise the input broke.
pub type Target = fn(&[u8]) -> Result<Outcome, String>;

/// Every target, by the name of its `fuzz/fuzz_targets/NAME.rs`.
pub const TARGETS: &[(&str, Target)] = &[
    ("tgsi_text", tgsi_text),
    ("agal_bytes", agal_bytes),
    ("agal_asm", agal_asm),
    ("texture_json", texture_json),
    ("render_options", render_options),
    ("render", render),
    ("vertices_json", vertices_json),
];

/// The body of target `name`.
pub fn target(name: &str) -> Option<Target> {
    TARGETS.iter().find(|(n, _)| *n == name).map(|&(_, t)| t)
}

/// Diagnostics of a text of `len` bytes: capped, with spans inside it.
fn check_diagnostics(what: &str, diags: &[Diagnostic], len: usize) -> Result<(), String> {
    if diags.len() > MAX_DIAGNOSTICS + 1 {
        return Err(format!("{what}: {} diagnostics (the cap is {MAX_DIAGNOSTICS})", diags.len()));
    }
    for d in diags {
        let (s, e) = (d.span.start as usize, d.span.end as usize);
        if s > e || e > len {
            return Err(format!(
                "{what}: {} '{}' has the span {s}..{e}, outside the input of {len} bytes",
                d.code, d.message
            ));
        }
    }
    Ok(())
}

/// A frame of [`BUDGET`] (quad-instructions) after a run: what was charged, checked against the
/// run's result (`X005` exactly when the frame ran out).
fn charged(what: &str, frame: &FrameBudget, stopped: Option<&Diagnostic>) -> Result<u64, String> {
    let left = frame.left();
    if left > BUDGET {
        return Err(format!("{what}: the frame has {left} instructions left of {BUDGET}"));
    }
    if let Some(d) = stopped {
        if d.code == "X005" && left != 0 {
            return Err(format!("{what}: X005 with {left} instructions still left"));
        }
    }
    Ok(BUDGET - left)
}

/// TGSI text: parse, print both styles and read them back, validate, compile, run a short
/// bounded execution of its stage, and export it as AGAL; a fragment program the compiling
/// tier compiles also runs through it ([`compiled_batch_agrees`], native `jit` builds).
pub fn tgsi_text(data: &[u8]) -> Result<Outcome, String> {
    let text = String::from_utf8_lossy(data);
    let parsed = text::parse(&text);
    check_diagnostics("parse", &parsed.diagnostics, text.len())?;
    let failed = parsed.has_errors();
    let Some(shader) = parsed.shader else {
        if !failed {
            return Err("parse: no shader and no error".into());
        }
        return Ok(Outcome::default());
    };
    let mut out = Outcome { accepted: !failed, ..Outcome::default() };
    if failed {
        return Ok(out);
    }
    // What parses prints in both styles and reads back; the exact style keeps the model.
    let exact = text::print(&shader, Style::Exact);
    let again = text::parse(&exact);
    match &again.shader {
        Some(s) if !again.has_errors() => {
            if text::strip_spans(s) != text::strip_spans(&shader) {
                return Err(format!("print: the exact style changed the shader:\n{exact}"));
            }
        }
        _ => return Err(format!("print: the exact style does not read back:\n{exact}")),
    }
    let mesa = text::print(&shader, Style::Mesa);
    if text::parse(&mesa).has_errors() {
        return Err(format!("print: the mesa style does not read back:\n{mesa}"));
    }
    let analysed = match crate::valid::analyse(&shader, &crate::valid::Options::default()) {
        Ok(a) => a,
        Err(diags) => {
            check_diagnostics("validate", &diags, text.len())?;
            return Ok(out);
        }
    };
    check_diagnostics("validate", analysed.warnings(), text.len())?;
    // The AGAL export of a valid program decodes back.
    let export = agal::lower::export(&analysed, &agal::lower::ExportOptions::default());
    check_diagnostics("agal export", &export.diagnostics, text.len())?;
    if export.program.is_some() {
        agal::decode(&export.bytes)
            .map_err(|e| format!("agal export: its bytes do not decode: {}", e.message))?;
    }
    let program = match exec::compile(&analysed) {
        Ok(p) => p,
        Err(d) => {
            check_diagnostics("compile", std::slice::from_ref(&d), text.len())?;
            // The compiler's guards are for programs the validator refuses (`tgsi check`
            // passes exactly when `run` accepts); its one documented refusal of a valid
            // program is a STORE to an atomic counter.
            if !d.message.contains("HWATOMIC") {
                return Err(format!(
                    "compile: a validated program was refused: {} [{}]",
                    d.message, d.code
                ));
            }
            return Ok(out);
        }
    };
    let frame = FrameBudget::new(BUDGET);
    let mut machine = Machine::in_frame(BUDGET, &frame);
    let consts = Constants::new();
    let mut hooks = exec::NoTextures;
    let mut res = Resources::default();
    let inputs = program.input_count() as usize;
    let lanes = |r: usize| {
        let v = r as f32;
        [[0.25, 0.5, v, 1.0], [0.75, 0.5, -v, 1.0], [0.25, -1.5, v, 0.0], [0.75, 1.5, 2.0, 1.0]]
    };
    let result = match program.processor {
        Processor::Compute => exec::dispatch(
            &mut machine,
            &program,
            &consts,
            &mut hooks,
            &mut res,
            [2, 1, 1],
            Some([2, 2, 1]),
        )
        .map(|s| s.work),
        Processor::Geometry => {
            let vertex: Vec<[u32; 4]> =
                (0..inputs).map(|r| lanes(r)[0].map(f32::to_bits)).collect();
            let prim = vec![vertex.clone(), vertex.clone(), vertex];
            exec::run_geometry(&mut machine, &program, &consts, &mut hooks, &[prim])
                .map(|_| BUDGET - frame.left())
        }
        _ => {
            let mut batch = Batch::new(&program, 2);
            for r in 0..inputs {
                batch.set_input_f32(r, 0, lanes(r));
                batch.set_input_f32(r, 1, lanes(r + 1));
            }
            machine
                .run_with_resources(&program, &mut batch, &consts, &mut hooks, &mut res)
                .map(|s| s.work)
        }
    };
    let stop = result.as_ref().err().map(|e| &e.diagnostic);
    out.instructions = charged("run", &frame, stop)?;
    match result {
        Ok(n) if n > BUDGET => {
            return Err(format!("run: {n} instructions of a budget of {BUDGET}"))
        }
        Ok(_) => out.completed = true,
        Err(e) => check_diagnostics("run", std::slice::from_ref(&e.diagnostic), text.len())?,
    }
    #[cfg(all(feature = "jit", not(target_arch = "wasm32")))]
    if program.processor == Processor::Fragment {
        compiled_batch_agrees(&program)?;
    }
    Ok(out)
}

/// Bit patterns where two implementations of a lane formula are most likely to part: signed
/// zeros, denormals, the float range's ends, infinities, NaNs (quiet, signalling, with a
/// payload), integers at the edges of shifts and conversions. The differential tests (fast vs
/// general path, JIT vs interpreter) and [`compiled_batch_agrees`] draw inputs from it.
pub const SPECIAL_BITS: &[u32] = &[
    0x0000_0000, // +0
    0x8000_0000, // -0
    0x0000_0001, // smallest denormal
    0x807f_ffff, // largest negative denormal
    0x0080_0000, // FLT_MIN
    0x8080_0000, // -FLT_MIN
    0x7f7f_ffff, // FLT_MAX
    0xff7f_ffff, // -FLT_MAX
    0x7f80_0000, // +Inf
    0xff80_0000, // -Inf
    0x7fc0_0000, // quiet NaN
    0xffc0_1234, // negative quiet NaN with payload
    0x7f80_0001, // signalling NaN
    0x3f80_0000, // 1.0
    0xbf80_0000, // -1.0
    0x4b80_0001, // 2^24 + 2 (as float); as int a large positive
    0x0100_0001, // 2^24 + 1 as an integer
    0x00ff_ffff, // 2^24 - 1 as an integer
    0x7fff_ffff, // INT_MAX
    0xffff_ffff, // -1
    0x0000_0020, // 32: a shift count past 31
    0x0000_0021, // 33
    0x3eaa_aaab, // 1/3
    0x4f00_0000, // 2^31 as float (F2I/F2U edge)
];

/// A fragment program the compiling tier compiles, run on the same batch by the interpreter
/// and by the module (natively, wasmtime): two quads, the second partly covered, every input
/// channel of the first a spread of small floats and of the second special bit patterns (NaN,
/// ±∞, −0, denormals, integers). wasmtime must accept the module; the outputs (any NaN for a
/// NaN), kill masks and work, or the diagnostic that stopped the run, must be the
/// interpreter's.
#[cfg(all(feature = "jit", not(target_arch = "wasm32")))]
fn compiled_batch_agrees(program: &exec::Program) -> Result<(), String> {
    use crate::exec::{Lanes, MakeAccelerator};
    let Some(native) = native_program(program, "jit")? else { return Ok(()) };
    let mut batch = Batch::new(program, 2);
    for r in 0..program.input_count() as usize {
        for c in 0..4 {
            let small = std::array::from_fn(|l| ((r * 4 + c + l) as f32 * 0.375 - 2.0).to_bits());
            let special =
                std::array::from_fn(|l| SPECIAL_BITS[(r * 5 + c * 3 + l) % SPECIAL_BITS.len()]);
            batch.set_input(r, c, 0, Lanes(small));
            batch.set_input(r, c, 1, Lanes(special));
        }
    }
    if let Some(c) = batch.coverage.get_mut(1) {
        *c = 0b0110;
    }
    let mut compiled_batch = batch.clone();
    let run = |machine: &mut Machine, b: &mut Batch| {
        machine.run_with_resources(
            program,
            b,
            &Constants::new(),
            &mut exec::NoTextures,
            &mut Resources::default(),
        )
    };
    let interpreted = run(&mut Machine::with_budget(BUDGET), &mut batch);
    let mut jit = Machine::with_budget(BUDGET);
    jit.accel = native.make();
    if jit.accel.is_none() {
        return Err("jit: no instance of an accepted module".into());
    }
    let by_module = run(&mut jit, &mut compiled_batch);
    let outcome = |r: &Result<exec::RunStats, exec::ExecError>| match r {
        Ok(s) => Ok((s.work, s.quads)),
        Err(e) => Err(e.diagnostic.clone()),
    };
    if outcome(&interpreted) != outcome(&by_module) {
        return Err(format!(
            "jit: the interpreter's run gave {:?}, the module's {:?}",
            outcome(&interpreted),
            outcome(&by_module)
        ));
    }
    if interpreted.is_err() {
        return Ok(());
    }
    let lanes = |b: &Batch| b.outputs.iter().flat_map(|l| l.0).collect::<Vec<u32>>();
    let (a, b) = (lanes(&batch), lanes(&compiled_batch));
    if let Some(i) = first_difference(&a, &b) {
        return Err(format!(
            "jit: output word {i} is {:#x?} from the module, {:#x?} from the interpreter",
            b.get(i),
            a.get(i)
        ));
    }
    if batch.killed != compiled_batch.killed {
        return Err(format!(
            "jit: kill masks {:?} from the module, {:?} from the interpreter",
            compiled_batch.killed, batch.killed
        ));
    }
    Ok(())
}

/// AGAL bytecode: decode, disassemble and assemble back, validate, encode back, run on one
/// quad.
pub fn agal_bytes(data: &[u8]) -> Result<Outcome, String> {
    let Ok(program) = agal::decode(data) else { return Ok(Outcome::default()) };
    let mut out = Outcome { accepted: true, ..Outcome::default() };
    let findings = agal::validate(&program);
    let bytes = agal::encode(&program);
    // The disassembly is chosen so that assembling it gives the same bytes (`agal/disasm.rs`):
    // whatever the assembler accepts of it must encode as the program did.
    let text = agal::disassemble(&program);
    let again = agal::assemble(&text, program.kind, program.version);
    if again.errors.is_empty() && agal::encode(&again.program) != bytes {
        return Err(format!("agal: the disassembly assembles to other bytes:\n{text}"));
    }
    match agal::decode(&bytes) {
        Ok(p) if p == program => {}
        Ok(_) => return Err("agal: encode then decode changed the program".into()),
        Err(e) => return Err(format!("agal: the encoded program does not decode: {}", e.message)),
    }
    // A program the validator accepts runs (or reports why not) on zero inputs.
    if !findings.iter().any(|f| f.severity == crate::diag::Severity::Error) {
        let inputs =
            agal::exec::Inputs { constants: &[], attributes: &[], varyings: &[], sample: None };
        out.completed = agal::exec::run(&program, &inputs).is_ok();
    }
    Ok(out)
}

/// AGAL assembly text (framing byte: kind and version): assemble with every span inside the
/// text, then validate, disassemble and assemble back, and round-trip the bytes.
pub fn agal_asm(data: &[u8]) -> Result<Outcome, String> {
    let Some((&head, body)) = data.split_first() else { return Ok(Outcome::default()) };
    let kind = if head & 1 == 1 { ShaderKind::Fragment } else { ShaderKind::Vertex };
    let version = u32::from((head >> 1) % 3) + 1;
    let text = String::from_utf8_lossy(body);
    let a = agal::assemble(&text, kind, version);
    check_diagnostics("agal assemble", &a.errors, text.len())?;
    for s in &a.spans {
        if s.start > s.end || s.end as usize > text.len() {
            return Err(format!(
                "agal assemble: instruction span {}..{} outside the text",
                s.start, s.end
            ));
        }
    }
    if !a.errors.is_empty() {
        return Ok(Outcome::default());
    }
    let whole = crate::ir::Span::new(0, text.len());
    let findings: Vec<Diagnostic> =
        agal::validate(&a.program).iter().map(|f| f.to_diagnostic(&a.spans, whole)).collect();
    check_diagnostics("agal validate", &findings, text.len())?;
    // What assembled disassembles to text that assembles to the same program.
    let shown = agal::disassemble(&a.program);
    let again = agal::assemble(&shown, kind, version);
    if !again.errors.is_empty() || again.program != a.program {
        let first = again.errors.first().map(|d| d.message.as_str()).unwrap_or("other code");
        return Err(format!(
            "agal assemble: the disassembly does not assemble back ({first}):\n{shown}"
        ));
    }
    let bytes = agal::encode(&a.program);
    match agal::decode(&bytes) {
        Ok(p) if p == a.program => {}
        // An empty program has no token to decode: refused by decode, as by Flash.
        Err(_) if a.program.code.is_empty() => {}
        Ok(_) => return Err("agal assemble: encode then decode changed the program".into()),
        Err(e) => return Err(format!("agal assemble: the bytes do not decode: {}", e.message)),
    }
    Ok(Outcome { accepted: true, completed: true, instructions: 0 })
}

/// The bytes the textures of `units` hold.
fn texture_bytes(units: &[(u32, crate::texture::sampler::TextureUnit)]) -> u64 {
    units
        .iter()
        .flat_map(|(_, u)| u.texture.levels.iter())
        .map(|l| l.texels.len() as u64 * crate::texture::image::TEXEL_BYTES)
        .sum()
}

/// A JSON texture description (image files refused): built within [`TEXTURE_BYTES`] in all.
pub fn texture_json(data: &[u8]) -> Result<Outcome, String> {
    let text = String::from_utf8_lossy(data);
    let refuse = |name: &str| Err(format!("no image files here ({name})"));
    match crate::texture::desc::parse_all_charged(
        &text,
        &refuse,
        &mut crate::texture::desc::TextureBytes::new(TEXTURE_BYTES),
    ) {
        Ok(units) => {
            let bytes = texture_bytes(&units);
            if bytes > TEXTURE_BYTES {
                return Err(format!("texture: {bytes} bytes built, the limit was {TEXTURE_BYTES}"));
            }
            Ok(Outcome { accepted: true, completed: true, instructions: 0 })
        }
        Err(_) => Ok(Outcome::default()),
    }
}

/// A tiny texture for the option strings and the render target to work on.
fn small_texture() -> Result<crate::texture::sampler::TextureUnit, String> {
    let json = r#"{"target": "2D", "format": "RGBA8", "width": 2, "height": 2, "levels": 2,
        "texels": [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [255, 255, 255, 0]]}"#;
    let refuse = |_: &str| Err(String::new());
    crate::texture::desc::parse_description(json, &refuse)
        .map_err(|e| format!("fuzzing: the built-in texture does not build: {e}"))
}

/// Option strings: each line as a `--size`, a `--const` (which must print back to itself),
/// `--texture` options and a `--timeout`.
pub fn render_options(data: &[u8]) -> Result<Outcome, String> {
    use crate::render::options::{parse_const, parse_size, MAX_CONST_BUFFER, MAX_CONST_INDEX};
    let text = String::from_utf8_lossy(data);
    let mut out = Outcome::default();
    for line in text.lines().take(64) {
        if let Ok((w, h)) = parse_size(line) {
            if w == 0 || h == 0 {
                return Err(format!("size: '{line}' gave {w}x{h}"));
            }
            out.accepted = true;
        }
        if let Ok(c) = parse_const(line) {
            if c.buffer > MAX_CONST_BUFFER || c.index > MAX_CONST_INDEX {
                return Err(format!("const: '{line}' gave CONST[{}][{}]", c.buffer, c.index));
            }
            let [x, y, z, w] = c.bits;
            let back = format!("{}:{}=0x{x:08x},0x{y:08x},0x{z:08x},0x{w:08x}", c.buffer, c.index);
            if parse_const(&back) != Ok(c) {
                return Err(format!("const: '{line}' does not read back as '{back}'"));
            }
            out.accepted = true;
        }
        let mut unit = small_texture()?;
        let options: Vec<&str> = line.split(',').map(str::trim).collect();
        if crate::texture::desc::apply_options(&mut unit, &options).is_ok() {
            out.completed = true;
        }
        #[cfg(not(target_arch = "wasm32"))]
        if let Ok(Some(t)) = crate::cli::watchdog::parse_timeout(Some(line)) {
            if t.is_zero() {
                return Err(format!("timeout: '{line}' gave zero seconds"));
            }
        }
    }
    Ok(out)
}

/// The bytes of one `render` input (the seed script writes the same framing).
pub fn render_input(width: u8, height: u8, mesh: u8, fs: &str, vs: Option<&str>) -> Vec<u8> {
    let mut v = vec![width, height, mesh];
    v.extend_from_slice(fs.as_bytes());
    if let Some(vs) = vs {
        v.push(0);
        v.extend_from_slice(vs.as_bytes());
    }
    v
}

/// A render of at most [`MAX_SIDE`]² pixels with a frame budget of [`BUDGET`] and two small
/// textures bound: prepare (parse, validate, link, compile), draw, check the budget; then the
/// same frame compiled ([`compiled_frame_agrees`], native builds with the `jit` feature).
pub fn render(data: &[u8]) -> Result<Outcome, String> {
    use crate::render::job::{self, Request, Source};
    let [w, h, m, rest @ ..] = data else { return Ok(Outcome::default()) };
    let width = 1 + u32::from(*w) % MAX_SIDE;
    let height = 1 + u32::from(*h) % MAX_SIDE;
    let mesh = MESHES[usize::from(*m) % MESHES.len()];
    let text = String::from_utf8_lossy(rest);
    let mut parts = text.splitn(3, '\0');
    let fs = parts.next().unwrap_or_default();
    let vs = parts.next();
    let gs = parts.next();
    let req = Request { fs, vs, gs, mesh, width, height, ..Request::default() };
    let (prepared, diags) = job::prepare(&req);
    for d in &diags {
        let len = match d.source {
            Source::Fragment => fs.len(),
            Source::Vertex => vs.map_or(0, str::len),
            Source::Geometry => gs.map_or(0, str::len),
            Source::Vertices | Source::Render => usize::MAX,
        };
        check_diagnostics("render prepare", std::slice::from_ref(&d.diagnostic), len)?;
    }
    let Some(job) = prepared else {
        if !diags.iter().any(|d| d.diagnostic.is_error()) {
            return Err("render: the job was refused without an error".into());
        }
        return Ok(Outcome::default());
    };
    let drawn = draw(&job, "render")?;
    let out = Outcome { accepted: true, completed: drawn.stop.is_none(), instructions: drawn.work };
    #[cfg(all(feature = "jit", not(target_arch = "wasm32")))]
    compiled_frame_agrees(job, &drawn)?;
    Ok(out)
}

/// What one draw of [`render`] gave: the pixels (`Framebuffer::f32_bytes`), the diagnostic
/// that stopped the frame, and the work charged.
struct Drawn {
    /// Compared with the compiling tier's, in builds that have it.
    #[cfg_attr(not(all(feature = "jit", not(target_arch = "wasm32"))), allow(dead_code))]
    pixels: Vec<u8>,
    stop: Option<Diagnostic>,
    work: u64,
}

/// `job` drawn into a new framebuffer (its first target lendable, so that a compiled draw stores
/// its colours through the module), with two small textures bound and a frame of [`BUDGET`].
fn draw(job: &crate::render::job::Job, what: &str) -> Result<Drawn, String> {
    let (width, height) = (job.width, job.height);
    let targets = job.color_targets();
    let mut fb = crate::render::framebuffer::Framebuffer::new_lendable(width, height, targets)
        .map_err(|e| format!("{what}: a {width}x{height} framebuffer was refused: {e}"))?;
    let mut textures = crate::texture::bind::Bindings::new();
    let unit = small_texture()?;
    textures.bind(0, unit.clone());
    textures.bind(1, unit);
    let frame = FrameBudget::new(BUDGET);
    let result = crate::render::job::run_in_frame(job, &mut fb, None, &mut textures, &frame);
    let stop = result.err().map(|d| d.diagnostic);
    let work = charged(what, &frame, stop.as_ref())?;
    Ok(Drawn { pixels: fb.f32_bytes(), stop, work })
}

/// The frame [`render`] drew, drawn again by the compiling tier where the fragment shader
/// compiles: wasmtime must accept the generated module, and the pixels (bit for bit, any NaN
/// for a NaN), the work charged and the diagnostic that stopped the frame must be the
/// interpreter's (`drawn`).
#[cfg(all(feature = "jit", not(target_arch = "wasm32")))]
fn compiled_frame_agrees(mut job: crate::render::job::Job, drawn: &Drawn) -> Result<(), String> {
    let Some(mut native) = native_program(&job.fs, "render")? else { return Ok(()) };
    native.keep_source(&job.fs);
    job.fs_accel = Some(std::sync::Arc::new(native));
    // Its colours stored by the module where the program allows (a target lent at any size).
    let again = draw(&job, "render (compiled)")?;
    if (&again.stop, again.work) != (&drawn.stop, drawn.work) {
        return Err(format!(
            "render: compiled, the frame charged {} and stopped with {:?}; interpreted, {} and \
             {:?}",
            again.work, again.stop, drawn.work, drawn.stop
        ));
    }
    let words = |b: &[u8]| -> Vec<u32> {
        b.chunks_exact(4).map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]])).collect()
    };
    let (a, b) = (words(&drawn.pixels), words(&again.pixels));
    match first_difference(&a, &b) {
        Some(i) => Err(format!(
            "render: compiled, float {i} of the frame is {:#x?}; interpreted, {:#x?}",
            b.get(i),
            a.get(i)
        )),
        None => Ok(()),
    }
}

/// `program` compiled and loaded by wasmtime, `None` when the compiling tier does not compile
/// it; `Err` (naming `what`) when wasmtime refuses the generated module.
#[cfg(all(feature = "jit", not(target_arch = "wasm32")))]
fn native_program(
    program: &exec::Program,
    what: &str,
) -> Result<Option<crate::jit::native::NativeProgram>, String> {
    let Ok(compiled) = crate::jit::codegen::compile(program) else { return Ok(None) };
    crate::jit::native::NativeProgram::from_compiled(&compiled)
        .map(Some)
        .map_err(|u| format!("{what}: wasmtime refused the generated module: {}", u.reason))
}

/// The first word where the interpreter's results `a` and the module's `b` differ (any NaN
/// equals any NaN), or where one is longer.
#[cfg(all(feature = "jit", not(target_arch = "wasm32")))]
fn first_difference(a: &[u32], b: &[u32]) -> Option<usize> {
    let nan = |w: u32| f32::from_bits(w).is_nan();
    a.iter()
        .zip(b)
        .position(|(&x, &y)| x != y && !(nan(x) && nan(y)))
        .or((a.len() != b.len()).then(|| a.len().min(b.len())))
}

/// A vertices file (`--vertices`): read within the limits of `limits` with every diagnostic
/// inside the text, and when it is accepted, drawn into a [`MAX_SIDE`]² target through a vertex
/// shader that passes attributes 0..3 on (position, a perspective and a flat varying) and a
/// fragment shader that also reads FACE, within [`BUDGET`] instructions.
pub fn vertices_json(data: &[u8]) -> Result<Outcome, String> {
    use crate::limits::{MAX_DRAWN_VERTICES, MAX_DRAWS, MAX_VERTEX_ATTRIBUTES, MAX_VERTICES};
    use crate::render::job::{self, Request, Source};
    const VS: &str = "VERT\nDCL IN[0..2]\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\n\
        DCL OUT[2], GENERIC[1]\nMOV OUT[0], IN[0]\nMOV OUT[1], IN[1]\nMOV OUT[2], IN[2]\nEND\n";
    const FS: &str = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL IN[1], GENERIC[1], CONSTANT\n\
        DCL IN[2].x, FACE, CONSTANT\nDCL OUT[0], COLOR\nADD OUT[0], IN[0], IN[1]\n\
        MUL OUT[0].x, IN[0].xxxx, IN[2].xxxx\nEND\n";
    let text = String::from_utf8_lossy(data);
    let req = Request {
        fs: FS,
        vs: Some(VS),
        vertices: Some(&text),
        width: MAX_SIDE,
        height: MAX_SIDE,
        ..Request::default()
    };
    let (prepared, diags) = job::prepare(&req);
    for d in &diags {
        if d.source != Source::Vertices && d.diagnostic.is_error() {
            return Err(format!("vertices: an error about the shaders: {}", d.diagnostic.message));
        }
        check_diagnostics("vertices", std::slice::from_ref(&d.diagnostic), text.len())?;
    }
    let Some(job) = prepared else {
        if !diags.iter().any(|d| d.diagnostic.is_error()) {
            return Err("vertices: the file was refused without an error".into());
        }
        return Ok(Outcome::default());
    };
    let mesh = &job.mesh;
    let drawn: u64 = mesh.draws.iter().map(|d| d.count as u64).sum();
    if mesh.vertex_count() > MAX_VERTICES
        || mesh.attributes > MAX_VERTEX_ATTRIBUTES
        || mesh.draws.len() > MAX_DRAWS
        || drawn > MAX_DRAWN_VERTICES
        || mesh.draws.iter().any(|d| d.first + d.count > mesh.indices.len())
    {
        return Err(format!(
            "vertices: accepted {} vertices, {} attributes, {} draws reading {drawn}",
            mesh.vertex_count(),
            mesh.attributes,
            mesh.draws.len()
        ));
    }
    let mut out = Outcome { accepted: true, ..Outcome::default() };
    let mut fb = crate::render::framebuffer::Framebuffer::new(MAX_SIDE, MAX_SIDE, 1)
        .map_err(|e| format!("vertices: the framebuffer was refused: {e}"))?;
    let frame = FrameBudget::new(BUDGET);
    let result = job::run_in_frame(&job, &mut fb, None, &mut exec::NoTextures, &frame);
    let stop = result.as_ref().err().map(|d| &d.diagnostic);
    out.instructions = charged("vertices", &frame, stop)?;
    out.completed = result.is_ok();
    Ok(out)
}
