//! The shader stages as seen by the pipeline: what a shader declares (its interface, read from
//! the IR) and the two traits the pipeline drives. The interpreter implements the traits in
//! `render::shaders`; tests implement them with plain closures.

use super::interp::{Coef, Mode};
use crate::diag::Diagnostic;
use crate::ir::{
    CoordOrigin, File, Interp, Location, PixelCenter, PropertyName, PropertyValue, SemanticName,
    Shader,
};

/// One declared fragment input register.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FsInput {
    pub register: u32,
    pub semantic: Option<(SemanticName, u32)>,
    pub interp: Interp,
    pub location: Location,
    /// Declared channels (bit c = channel c); only these are interpolated.
    pub usage_mask: u8,
}

/// What the pipeline needs to know about a fragment shader.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FsInterface {
    pub inputs: Vec<FsInput>,
    /// Number of IN registers (highest declared index + 1).
    pub input_registers: usize,
    /// Number of OUT registers.
    pub output_registers: usize,
    /// (render target, OUT register) of each COLOR[n] output.
    pub colors: Vec<(u32, u32)>,
    /// OUT register of the POSITION output (its z is the fragment depth).
    pub depth: Option<u32>,
    /// FS_COORD_ORIGIN LOWER_LEFT.
    pub lower_left: bool,
    /// FS_COORD_PIXEL_CENTER INTEGER.
    pub integer_center: bool,
}

/// One vertex-shader output register with its semantic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VsOutput {
    pub register: u32,
    pub semantic: SemanticName,
    pub index: u32,
}

/// What the pipeline needs to know about a vertex shader.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VsInterface {
    pub input_registers: usize,
    pub output_registers: usize,
    pub outputs: Vec<VsOutput>,
    /// Fragment-only rendering: every GENERIC, TEXCOORD and COLOR input of the fragment shader
    /// reads this output register (the built-in uv), whatever its index.
    pub uv_wildcard: Option<u32>,
}

impl VsInterface {
    /// The register of the output with this semantic and index.
    pub fn find(&self, semantic: SemanticName, index: u32) -> Option<u32> {
        self.outputs.iter().find(|o| o.semantic == semantic && o.index == index).map(|o| o.register)
    }
}

fn registers(shader: &Shader, file: File) -> usize {
    shader
        .declarations
        .iter()
        .filter(|d| d.file == file)
        .map(|d| d.range.last as usize + 1)
        .max()
        .unwrap_or(0)
        .min(4096)
}

impl FsInterface {
    /// Reads the declarations and properties of a fragment shader (`tgsi.rst`, "Declaration
    /// Interpolate", "FS_COORD_ORIGIN", "FS_COORD_PIXEL_CENTER"). An input with no
    /// interpolation written is perspective-correct, as the interpreter assumes.
    pub fn from_shader(shader: &Shader) -> FsInterface {
        let mut fs = FsInterface {
            input_registers: registers(shader, File::In),
            output_registers: registers(shader, File::Out),
            lower_left: shader.property(PropertyName::FsCoordOrigin)
                == Some(PropertyValue::Origin(CoordOrigin::LowerLeft)),
            integer_center: shader.property(PropertyName::FsCoordPixelCenter)
                == Some(PropertyValue::Center(PixelCenter::Integer)),
            ..FsInterface::default()
        };
        for d in shader.distinct_declarations() {
            if d.range.count() > 4096 {
                continue;
            }
            for r in d.range.first..=d.range.last {
                let semantic =
                    d.semantic.map(|s| (s.name, s.index.saturating_add(r - d.range.first)));
                match d.file {
                    File::In => fs.inputs.push(FsInput {
                        register: r,
                        semantic,
                        interp: d.interp.unwrap_or(Interp::Perspective),
                        location: d.location.unwrap_or(Location::Center),
                        usage_mask: d.usage_mask.0 & 0xF,
                    }),
                    File::Out => match semantic {
                        Some((SemanticName::Color, n)) => fs.colors.push((n, r)),
                        Some((SemanticName::Position, _)) => fs.depth = Some(r),
                        _ => {}
                    },
                    _ => {}
                }
            }
        }
        fs
    }
}

impl VsInterface {
    /// Reads the input and output declarations of a vertex (or geometry) shader.
    pub fn from_shader(shader: &Shader) -> VsInterface {
        let mut vs = VsInterface {
            input_registers: registers(shader, File::In),
            output_registers: registers(shader, File::Out),
            ..VsInterface::default()
        };
        for d in shader
            .distinct_declarations()
            .into_iter()
            .filter(|d| d.file == File::Out && d.range.count() <= 4096)
        {
            if let Some(s) = d.semantic {
                for r in d.range.first..=d.range.last {
                    vs.outputs.push(VsOutput {
                        register: r,
                        semantic: s.name,
                        index: s.index.saturating_add(r - d.range.first),
                    });
                }
            }
        }
        vs
    }
}

/// One 2x2 quad: window position of lane 0 (even x and y, y counted from the bottom row) and
/// the lanes covered by the primitive (bit i = lane i); the others run as helper lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quad {
    pub x: u32,
    pub y: u32,
    pub coverage: u8,
}

impl Quad {
    /// Lane 0's window position as floats, where the plane equations are evaluated. Through
    /// `i32` (exact: positions are at most `framebuffer::MAX_DIMENSION`): WebAssembly's unsigned
    /// int-to-float vector conversion has no x86 instruction, and V8 expands it.
    #[inline]
    pub fn origin(&self) -> [f32; 2] {
        [self.x as i32 as f32, self.y as i32 as f32]
    }
}

/// Plane equations of one fragment input register, for INTERP_* opcodes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InputPlanes {
    pub coefs: [Coef; 4],
    pub mode: Mode,
    /// Channels to evaluate (the declaration's usage mask).
    pub mask: u8,
}

/// A batch of quads of one primitive, with their interpolated inputs.
#[derive(Clone, Debug, Default)]
pub struct QuadBatch {
    pub quads: Vec<Quad>,
    pub input_registers: usize,
    /// `inputs[(register * 4 + channel) * quads + quad]`: the four lanes of that channel.
    pub inputs: Vec<[f32; 4]>,
    /// +1 for a front-facing primitive, −1 for a back-facing one (`tgsi.rst` FACE).
    pub face: f32,
    /// Plane equations of POSITION (for a POSITION system value).
    pub fragcoord: [Coef; 4],
    /// 1/w plane for perspective-correct INTERP_* evaluation.
    pub inv_w: Coef,
    /// Per input register, its planes (None: not interpolated, e.g. FACE).
    pub planes: Vec<Option<InputPlanes>>,
    pub primitive_id: u32,
}

impl QuadBatch {
    #[inline]
    pub fn at(&self, register: usize, channel: usize, quad: usize) -> usize {
        (register * 4 + channel) * self.quads.len() + quad
    }
    /// Lanes of one input channel of one quad.
    pub fn input(&self, register: usize, channel: usize, quad: usize) -> [f32; 4] {
        self.inputs.get(self.at(register, channel, quad)).copied().unwrap_or([0.0; 4])
    }
}

/// What the fragment stage returns for a batch.
#[derive(Clone, Debug, Default)]
pub struct QuadOutputs {
    pub output_registers: usize,
    /// `values[(register * 4 + channel) * quads + quad]` as raw bits per lane.
    pub values: Vec<[u32; 4]>,
    /// Per quad, the lanes killed or demoted: they write nothing.
    pub killed: Vec<u8>,
}

impl QuadOutputs {
    /// Sizes the buffers for `quads` quads (kill masks cleared).
    pub fn reset(&mut self, output_registers: usize, quads: usize) {
        self.output_registers = output_registers;
        // Values are left as they are when the size does not change: the stage overwrites them.
        self.values.resize(output_registers * 4 * quads, [0; 4]);
        self.killed.clear();
        self.killed.resize(quads, 0);
    }
    /// One output channel of one quad as floats.
    pub fn lanes_f32(
        &self,
        register: usize,
        channel: usize,
        quad: usize,
        quads: usize,
    ) -> [f32; 4] {
        self.values
            .get((register * 4 + channel) * quads + quad)
            .map_or([0.0; 4], |v| v.map(f32::from_bits))
    }
}

/// The fragment stage: shades every quad of a batch (helper lanes included) and reports its
/// outputs and killed lanes.
pub trait FragmentStage {
    fn shade(&mut self, batch: &QuadBatch, out: &mut QuadOutputs) -> Result<(), Diagnostic>;
    /// The same stage with inputs and outputs in its own storage (the interpreter's register
    /// rows), which saves copying every value twice; `None`: the pipeline calls `shade`.
    fn in_place(&mut self) -> Option<&mut dyn InPlaceStage> {
        None
    }
    /// Whether the next triangles belong to a draw chunk that softpipe shades inside its draw
    /// call, with denormals flushed (`exec::program::Denormals::InDraw`). Returns whether the
    /// stage now runs a program that flushes them (a stage without one ignores the call).
    fn flush_denormals(&mut self, _on: bool) -> bool {
        false
    }
    /// After the pipeline stored the last batch: per quad, the lanes it wrote to the render
    /// targets (covered, not killed, passing the depth test). The inspector keeps the trace of
    /// the fragment a pixel shows (`render::inspect`), not of one a later depth test hid.
    fn stored(&mut self, _live: &[u8]) {}
}

/// A fragment stage whose inputs the pipeline writes straight into its storage and whose
/// outputs it reads from there. Rows are laid out like [`QuadBatch::inputs`] and
/// [`QuadOutputs::values`]: element `(register * 4 + channel) * quads + quad`, four lanes each.
pub trait InPlaceStage {
    /// The input rows for a batch of `quads` quads (row `register * 4 + channel`, possibly
    /// further apart than `quads`). When the previous batch had the same size they still hold
    /// what the caller wrote for it (the stage never writes them); otherwise their contents are
    /// unspecified.
    fn input_rows(&mut self, quads: usize) -> crate::exec::RowsMut<'_>;
    /// Shades `batch` (its `inputs` are not used: the rows above hold them).
    fn run(&mut self, batch: &QuadBatch) -> Result<(), Diagnostic>;
    /// After `run`: the output rows (raw bits; row `register * 4 + channel`, possibly further
    /// apart than `quads`) and, per quad, the killed lanes.
    fn outputs(&self) -> (crate::exec::Rows<'_>, &[u8]);
    /// From the next batch on, stores OUT register `colour` into `target` itself
    /// (`exec::Accelerator::fuse`); `None` stops that. Returns whether it will.
    fn fuse(&mut self, _target: Option<(&super::framebuffer::TargetQuads, u32)>) -> bool {
        false
    }
    /// While fused: the batch's colour records to fill before `run`
    /// (`exec::Accelerator::colour_records`).
    fn colour_records(&mut self, _quads: usize) -> Option<(crate::exec::RowsMut<'_>, u32)> {
        None
    }
    /// After `run`: whether the colours are already in the target (then `outputs` does not
    /// hold them).
    fn colours_stored(&self) -> bool {
        false
    }
}

impl<F: FnMut(&QuadBatch, &mut QuadOutputs) -> Result<(), Diagnostic>> FragmentStage for F {
    fn shade(&mut self, batch: &QuadBatch, out: &mut QuadOutputs) -> Result<(), Diagnostic> {
        self(batch, out)
    }
}

/// The vertex stage: `inputs[v * input_registers + a]` is `IN[a]` of vertex v; it writes
/// `outputs[v * output_registers + r]` = `OUT[r]` for `count` vertices.
pub trait VertexStage {
    fn shade(
        &mut self,
        inputs: &[[f32; 4]],
        input_registers: usize,
        count: usize,
        outputs: &mut [[f32; 4]],
        output_registers: usize,
    ) -> Result<(), Diagnostic>;
}

impl<F: FnMut(&[[f32; 4]], usize, usize, &mut [[f32; 4]], usize) -> Result<(), Diagnostic>>
    VertexStage for F
{
    fn shade(
        &mut self,
        inputs: &[[f32; 4]],
        input_registers: usize,
        count: usize,
        outputs: &mut [[f32; 4]],
        output_registers: usize,
    ) -> Result<(), Diagnostic> {
        self(inputs, input_registers, count, outputs, output_registers)
    }
}
