//! The interpreter's API for its callers (the render pipeline, the page, the tests): batches of
//! quads with their inputs and outputs, system values, constant buffers and the texture hooks.
//!
//! Layout of every per-register array: channel-major rows of quads, element
//! `(register * 4 + channel) * quads + quad`, each element one [`Lanes`] (TL, TR, BL, BR).

use super::lanes::Lanes;
use super::program::{InputInterp, Program};
use crate::ir::{SemanticName, TextureTarget};
use crate::texture::sample::Request;

/// Constant buffers: `buffers[b][i]` is `CONST[b][i]` as raw bits. Reads outside them give 0
/// (as tgsi_exec.c `fetch_src_file_channel`).
#[derive(Clone, Debug, Default)]
pub struct Constants {
    pub buffers: Vec<Vec<[u32; 4]>>,
}

impl Constants {
    pub fn new() -> Constants {
        Constants::default()
    }
    /// Sets `CONST[buffer][index]` from floats, growing the buffers as needed (bounded by
    /// `limits::MAX_CONST_BUFFERS` and `limits::MAX_CONST_REGISTERS`).
    pub fn set_f32(&mut self, buffer: usize, index: usize, v: [f32; 4]) {
        self.set_bits(buffer, index, v.map(f32::to_bits));
    }
    pub fn set_bits(&mut self, buffer: usize, index: usize, v: [u32; 4]) {
        if buffer >= crate::limits::MAX_CONST_BUFFERS || index >= crate::limits::MAX_CONST_REGISTERS
        {
            return;
        }
        if self.buffers.len() <= buffer {
            self.buffers.resize(buffer + 1, Vec::new());
        }
        if let Some(b) = self.buffers.get_mut(buffer) {
            if b.len() <= index {
                b.resize(index + 1, [0; 4]);
            }
            if let Some(slot) = b.get_mut(index) {
                *slot = v;
            }
        }
    }
    #[inline]
    pub fn get(&self, buffer: i64, index: i64, channel: usize) -> u32 {
        if buffer < 0 || index < 0 {
            return 0;
        }
        self.buffers
            .get(buffer as usize)
            .and_then(|b| b.get(index as usize))
            .map_or(0, |v| v[channel & 3])
    }
}

/// Plane equations of one attribute channel, as tgsi_exec's InterpCoefs: the value at pixel
/// position (x, y) is `a0 + dadx * x + dady * y` (tgsi_exec.c `eval_linear_coef`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Coef {
    pub a0: f32,
    pub dadx: f32,
    pub dady: f32,
}

impl Coef {
    #[inline]
    pub fn at(&self, x: f32, y: f32) -> f32 {
        self.a0 + self.dadx * x + self.dady * y
    }
}

/// Interpolation data of a batch: used by [`Batch::interpolate`] and by INTERP_CENTROID /
/// INTERP_SAMPLE / INTERP_OFFSET.
#[derive(Clone, Debug, Default)]
pub struct Interpolation {
    /// Per input register: coefficients of x, y, z, w (None: the input is given per lane only).
    pub coefs: Vec<Option<[Coef; 4]>>,
    /// Coefficients of 1/w for perspective-correct attributes (None: w = 1).
    pub inv_w: Option<Coef>,
    /// Position of each quad's top-left pixel, in the coordinates the coefficients use
    /// (softpipe uses the integer pixel coordinates).
    pub quad_origin: Vec<[f32; 2]>,
    /// Whether COLOR inputs are flat (constant) rather than perspective.
    pub flat_shade: bool,
    /// Sample positions inside the pixel (offsets from its centre) for INTERP_SAMPLE; empty means
    /// one sample at the centre.
    pub sample_offsets: Vec<[f32; 2]>,
}

impl Interpolation {
    /// The value of `input`.`channel` at lane position (x, y) using the declared mode.
    pub fn eval(
        &self,
        input: usize,
        channel: usize,
        mode: InputInterp,
        x: f32,
        y: f32,
    ) -> Option<f32> {
        let c = self.coefs.get(input).copied().flatten()?[channel & 3];
        let mode = match mode {
            InputInterp::Color if self.flat_shade => InputInterp::Constant,
            InputInterp::Color => InputInterp::Perspective,
            m => m,
        };
        Some(match mode {
            InputInterp::Constant => c.a0,
            InputInterp::Linear => c.at(x, y),
            _ => {
                let w = self.inv_w.map_or(1.0, |w| w.at(x, y));
                c.at(x, y) / w
            }
        })
    }
}

/// Per-batch system values, by semantic: four channels × quads, laid out like registers of one
/// register (`channel * quads + quad`). Missing ones read 0, except HELPER_INVOCATION which the
/// machine derives from coverage and DEMOTE.
#[derive(Clone, Debug, Default)]
pub struct SystemValues {
    pub values: Vec<(SemanticName, Vec<Lanes>)>,
}

impl SystemValues {
    /// Sets a system value for every lane of every quad from a function of (quad, lane, channel).
    pub fn set_with(
        &mut self,
        name: SemanticName,
        quads: usize,
        f: impl Fn(usize, usize, usize) -> u32,
    ) {
        let mut v = vec![Lanes::ZERO; 4 * quads];
        for c in 0..4 {
            for q in 0..quads {
                if let Some(l) = v.get_mut(c * quads + q) {
                    l.0 = [0, 1, 2, 3].map(|lane| f(q, lane, c));
                }
            }
        }
        self.values.retain(|(n, _)| *n != name);
        self.values.push((name, v));
    }
    pub fn get(&self, name: SemanticName) -> Option<&[Lanes]> {
        self.values.iter().find(|(n, _)| *n == name).map(|(_, v)| v.as_slice())
    }
}

/// The helper lanes of a quad at the start of a run: the lanes its coverage bits leave out.
#[inline]
pub fn helper_bits(coverage: u8) -> u8 {
    !coverage & 0xF
}

/// N quads run together through each decoded instruction (a "warp").
#[derive(Clone, Debug)]
pub struct Batch {
    quads: usize,
    /// IN registers, `(register * 4 + channel) * quads + quad`.
    pub inputs: Vec<Lanes>,
    /// OUT registers after a run, same layout.
    pub outputs: Vec<Lanes>,
    /// Per quad, bit i set when lane i is covered by the primitive; the others are helper
    /// lanes: they run (derivatives need them) but their outputs must be discarded.
    pub coverage: Vec<u8>,
    /// After a run: per quad, lanes killed by KILL / KILL_IF / DEMOTE.
    pub killed: Vec<u8>,
    /// After a run: per quad, lanes that ended as helpers (not covered, or demoted).
    pub helpers: Vec<u8>,
    pub system: SystemValues,
    pub interp: Interpolation,
    /// The caller writes the inputs straight into the machine's IN rows
    /// ([`Machine::input_rows`](super::Machine::input_rows)) and reads the outputs from its OUT
    /// rows ([`Machine::output_rows`](super::Machine::output_rows)); `inputs` and `outputs` are
    /// then left alone. Saves two copies of every value (the render pipeline's fragment stage).
    pub in_place: bool,
}

impl Batch {
    /// A batch of `quads` quads (at least 1) sized for `program`, every lane covered.
    pub fn new(program: &Program, quads: usize) -> Batch {
        let quads = quads.max(1);
        Batch {
            quads,
            inputs: vec![Lanes::ZERO; program.input_count() as usize * 4 * quads],
            outputs: vec![Lanes::ZERO; program.output_count() as usize * 4 * quads],
            coverage: vec![0xF; quads],
            killed: vec![0; quads],
            helpers: vec![0; quads],
            system: SystemValues::default(),
            interp: Interpolation::default(),
            in_place: false,
        }
    }
    pub fn quads(&self) -> usize {
        self.quads
    }
    /// Index of `(register, channel, quad)` in `inputs` / `outputs`.
    #[inline]
    pub fn at(&self, register: usize, channel: usize, quad: usize) -> usize {
        (register * 4 + channel) * self.quads + quad
    }
    /// Sets one input channel of one quad.
    pub fn set_input(&mut self, register: usize, channel: usize, quad: usize, lanes: Lanes) {
        let i = self.at(register, channel, quad);
        if let Some(slot) = self.inputs.get_mut(i) {
            *slot = lanes;
        }
    }
    /// Sets an input register of one quad from four float vectors (one per lane).
    pub fn set_input_f32(&mut self, register: usize, quad: usize, lanes: [[f32; 4]; 4]) {
        for c in 0..4 {
            self.set_input(register, c, quad, Lanes::from_f32([0, 1, 2, 3].map(|l| lanes[l][c])));
        }
    }
    /// One output channel of one quad.
    pub fn output(&self, register: usize, channel: usize, quad: usize) -> Lanes {
        self.outputs.get(self.at(register, channel, quad)).copied().unwrap_or_default()
    }
    /// Output register of one lane as floats.
    pub fn output_f32(&self, register: usize, quad: usize, lane: usize) -> [f32; 4] {
        [0, 1, 2, 3].map(|c| f32::from_bits(self.output(register, c, quad).0[lane & 3]))
    }
    /// Sets the fragment built-ins of one quad: every IN register declared POSITION gets the
    /// lanes' window positions (x, y, z, 1/w), and every IN register declared FACE gets
    /// (±1, 0, 0, 1) — +1 for a front face (tgsi.rst "TGSI_SEMANTIC_FACE").
    pub fn set_fragment_builtins(
        &mut self,
        program: &Program,
        quad: usize,
        position: [[f32; 4]; 4],
        front_face: bool,
    ) {
        use crate::ir::SemanticName;
        let face = if front_face { 1.0 } else { -1.0 };
        for info in &program.inputs {
            match info.semantic.map(|s| s.0) {
                Some(SemanticName::Position) => {
                    self.set_input_f32(info.index as usize, quad, position)
                }
                Some(SemanticName::Face) => {
                    self.set_input_f32(info.index as usize, quad, [[face, 0.0, 0.0, 1.0]; 4])
                }
                _ => {}
            }
        }
    }

    /// Fills the inputs that have coefficients in `self.interp`, as tgsi_exec does before
    /// running a quad: lane positions are the quad origin plus (0|1, 0|1).
    pub fn interpolate(&mut self, program: &Program) {
        for info in &program.inputs {
            for q in 0..self.quads {
                let [ox, oy] = self.interp.quad_origin.get(q).copied().unwrap_or([0.0, 0.0]);
                for c in 0..4 {
                    let mut lanes = [0f32; 4];
                    let mut any = false;
                    for (l, v) in lanes.iter_mut().enumerate() {
                        let (x, y) = (ox + (l & 1) as f32, oy + (l >> 1) as f32);
                        if let Some(r) = self.interp.eval(info.index as usize, c, info.interp, x, y)
                        {
                            *v = r;
                            any = true;
                        }
                    }
                    if any {
                        self.set_input(info.index as usize, c, q, Lanes::from_f32(lanes));
                    }
                }
            }
        }
    }
}

/// One sampling request for the four lanes of a quad (tgsi_exec.h `struct tgsi_sampler`): all four
/// lanes come together so that the sampler can compute the LOD from their differences. The
/// sampler's own [`Request`] (coordinates where tgsi_exec puts them, derivatives, offsets, LOD
/// control, target), made once per quad and handed to it by reference, and which units it
/// names.
#[derive(Clone, Copy, Debug)]
pub struct SampleRequest {
    pub sview: u32,
    pub sampler: u32,
    /// Which quad of the batch asks (so that a trace can watch one).
    pub quad: usize,
    pub request: Request,
}

/// [`TextureHooks::get_samples_batch`] answered one request at a time by
/// [`TextureHooks::get_samples`] (the trait's default, and what hooks that trace use).
pub fn samples_quad_by_quad<H: TextureHooks + ?Sized>(
    hooks: &mut H,
    requests: &[SampleRequest],
    out: &mut [[[f32; 4]; 4]],
) {
    for (r, o) in requests.iter().zip(out.iter_mut()) {
        *o = hooks.get_samples(r);
    }
}

/// How many quads' sampling requests the interpreter and the compiling tier hand to
/// [`TextureHooks::get_samples_batch`] at once.
pub const SAMPLE_BATCH: usize = 16;

/// Samples quads `0..nq`, [`SAMPLE_BATCH`] at a time through
/// [`TextureHooks::get_samples_batch`]: `make(data, q, request)` fills quad q's request (over
/// `blank`'s fields), and `put(data, q, rgba)` takes its `rgba[channel][lane]`. `data` is what
/// both reach (the interpreter's registers, the compiled module's memory). The interpreter's
/// sampling opcodes and the compiled module's batched sampling both ask this way.
pub fn sample_batches<D: ?Sized>(
    hooks: &mut dyn TextureHooks,
    nq: usize,
    blank: SampleRequest,
    data: &mut D,
    mut make: impl FnMut(&D, usize, &mut SampleRequest),
    mut put: impl FnMut(&mut D, usize, [[f32; 4]; 4]),
) {
    let mut requests = [blank; SAMPLE_BATCH];
    let mut rgba = [[[0f32; 4]; 4]; SAMPLE_BATCH];
    for first in (0..nq).step_by(SAMPLE_BATCH) {
        let n = (nq - first).min(SAMPLE_BATCH);
        for (k, req) in requests.iter_mut().take(n).enumerate() {
            make(data, first + k, req);
        }
        hooks.get_samples_batch(&requests[..n], &mut rgba[..n]);
        for (k, v) in rgba[..n].iter().enumerate() {
            put(data, first + k, *v);
        }
    }
}

/// Where texture and resource instructions get their data. The render pipeline implements it;
/// [`NoTextures`] answers zeros. Shapes follow tgsi_exec's `tgsi_sampler`.
pub trait TextureHooks {
    /// Filtered samples for 4 lanes: `rgba[channel][lane]`.
    fn get_samples(&mut self, request: &SampleRequest) -> [[f32; 4]; 4];
    /// Filtered samples for several quads of a batch at once: `out[k]` is what
    /// [`TextureHooks::get_samples`] gives for `requests[k]`, in order. The interpreter asks
    /// this way ([`SAMPLE_BATCH`] quads at a time), so that a texture stage can look up the
    /// unit and work out its sampler state, λ shape and mip level once for a run of quads
    /// instead of once per quad.
    fn get_samples_batch(&mut self, requests: &[SampleRequest], out: &mut [[[f32; 4]; 4]]) {
        samples_quad_by_quad(self, requests, out);
    }
    /// Size of a level: width, height, depth (or layers), number of levels.
    fn get_dims(&mut self, sview: u32, level: i32) -> [i32; 4];
    /// Unfiltered texels at integer coordinates per lane: `rgba[channel][lane]` as raw bits
    /// (float for float formats, integers for integer formats).
    fn get_texel(
        &mut self,
        sview: u32,
        i: [i32; 4],
        j: [i32; 4],
        k: [i32; 4],
        lod: [i32; 4],
        offsets: [i8; 3],
    ) -> [[u32; 4]; 4];
    /// LODQ: `[level used, computed λ]` per lane (tgsi.rst "LODQ"); zeros by default.
    fn query_lod(
        &mut self,
        _sview: u32,
        _sampler: u32,
        _target: TextureTarget,
        _coords: [[f32; 4]; 5],
    ) -> [[f32; 4]; 2] {
        [[0.0; 4]; 2]
    }
    /// Trace mode: record what sampling does for quad `quad` of the batch (None: stop).
    fn watch_quad(&mut self, _quad: Option<usize>) {}
    /// What the last sampling call for the watched quad did, taken (None when none ran since).
    fn watched_sample(&mut self) -> Option<crate::texture::trace::SampleTrace> {
        None
    }
    /// Samples per texel of a view (TXQS, SAMPLE_INFO); 0 when nothing is bound.
    fn sample_count(&mut self, _sview: u32) -> u32 {
        0
    }
    /// Position of sample `index` inside the pixel, in [0, 1] (SAMPLE_POS): x, y, 0, 0.
    fn sample_position(&mut self, _sview: u32, index: i32) -> [f32; 4] {
        if index == 0 {
            [0.5, 0.5, 0.0, 0.0]
        } else {
            [0.0; 4]
        }
    }
}

/// The default hooks: no texture bound; every fetch returns 0 and every size is 0.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTextures;

impl TextureHooks for NoTextures {
    fn get_samples(&mut self, _: &SampleRequest) -> [[f32; 4]; 4] {
        [[0.0; 4]; 4]
    }
    fn get_dims(&mut self, _: u32, _: i32) -> [i32; 4] {
        [0; 4]
    }
    fn get_texel(
        &mut self,
        _: u32,
        _: [i32; 4],
        _: [i32; 4],
        _: [i32; 4],
        _: [i32; 4],
        _: [i8; 3],
    ) -> [[u32; 4]; 4] {
        [[0; 4]; 4]
    }
}
