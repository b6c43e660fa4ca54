//! The geometry stage (tgsi.rst "Geometry ISA", "Properties"): runs a GEOM shader over input
//! primitives and returns what it emitted. Every invocation is one lane (four per quad);
//! `IN[v][n]` reads attribute n of vertex v of the lane's primitive; EMIT appends the OUT
//! registers as a vertex to the open primitive of a stream, ENDPRIM closes it, and END closes
//! every stream's open primitive (tgsi_exec's `conditional_emit_primitive`).

use super::compile::MAX_REGS_PER_FILE;
use super::io::{Batch, Constants, TextureHooks};
use super::lanes::Lanes;
use super::machine::{ExecError, Machine, RunStats};
use super::memory::{EmitSink, EmittedPrimitive, Resources};
use super::program::Program;
use crate::ir::{PrimType, PropertyName, PropertyValue, SemanticName};

/// Largest GS_MAX_OUTPUT_VERTICES honoured; GS_INVOCATIONS likewise (GL's minimum maximums).
pub const MAX_OUTPUT_VERTICES: u32 = 1024;
pub const MAX_INVOCATIONS: u32 = 32;
/// Invocations run together in one batch.
const BATCH_LANES: usize = 256;

/// The shader's geometry properties, with defaults when missing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GeometryInfo {
    pub input: PrimType,
    pub output: PrimType,
    pub max_vertices: u32,
    pub invocations: u32,
}

impl GeometryInfo {
    pub fn of(program: &Program) -> GeometryInfo {
        let prop = |n: PropertyName| {
            program.properties.iter().rev().find(|p| p.name == n).map(|p| p.value)
        };
        let prim = |n, d| match prop(n) {
            Some(PropertyValue::Primitive(p)) => p,
            _ => d,
        };
        let uint = |n, d: u32| match prop(n) {
            Some(PropertyValue::Uint(v)) => v,
            _ => d,
        };
        GeometryInfo {
            input: prim(PropertyName::GsInputPrimitive, PrimType::Triangles),
            output: prim(PropertyName::GsOutputPrimitive, PrimType::TriangleStrip),
            max_vertices: uint(PropertyName::GsMaxOutputVertices, MAX_OUTPUT_VERTICES)
                .min(MAX_OUTPUT_VERTICES),
            invocations: uint(PropertyName::GsInvocations, 1).clamp(1, MAX_INVOCATIONS),
        }
    }
}

/// One input primitive: its vertices, each a list of attributes (`IN[v][n]` = `vertices[v][n]`)
/// as raw bits. Missing vertices or attributes read 0.
pub type InputPrimitive = Vec<Vec<[u32; 4]>>;

/// What a geometry run produced: for each input primitive in order, for each invocation in
/// order, the primitives it emitted (vertices = every OUT register as raw bits).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GeometryOutput {
    pub primitives: Vec<EmittedPrimitive>,
    pub stats: RunStats,
}

impl GeometryOutput {
    /// Stream-0 triangle strips cut into triangles, alternating the winding of odd triangles
    /// so that every triangle keeps the strip's orientation.
    pub fn triangles(&self) -> Vec<[Vec<[u32; 4]>; 3]> {
        let mut out = Vec::new();
        for p in self.primitives.iter().filter(|p| p.stream == 0) {
            for i in 2..p.vertices.len() {
                let (a, b, c) = (&p.vertices[i - 2], &p.vertices[i - 1], &p.vertices[i]);
                if i % 2 == 0 {
                    out.push([a.clone(), b.clone(), c.clone()]);
                } else {
                    out.push([b.clone(), a.clone(), c.clone()]);
                }
            }
        }
        out
    }
}

/// Runs `program` (a GEOM shader) over `inputs`. PRIMID and INVOCATIONID system values are
/// filled per invocation.
pub fn run_geometry(
    machine: &mut Machine,
    program: &Program,
    consts: &Constants,
    hooks: &mut dyn TextureHooks,
    inputs: &[InputPrimitive],
) -> Result<GeometryOutput, ExecError> {
    let info = GeometryInfo::of(program);
    let stride = program.vertex_stride.max(1) as usize;
    let per_prim = info.invocations as usize;
    let total = inputs.len().saturating_mul(per_prim);
    let mut out = GeometryOutput::default();
    let mut start = 0usize;
    while start < total {
        let n = (total - start).min(BATCH_LANES);
        let quads = n.div_ceil(4);
        let mut batch = Batch::new(program, quads);
        let lane_of = |q: usize, l: usize| start + q * 4 + l;
        for (q, cov) in batch.coverage.iter_mut().enumerate() {
            *cov = (0..4).filter(|&l| lane_of(q, l) < total).fold(0u8, |m, l| m | 1 << l);
        }
        // IN[v][n] lives in input row v * stride + n.
        let rows = (program.input_count() as usize).min(MAX_REGS_PER_FILE as usize);
        for row in 0..rows {
            let (v, attr) = (row / stride, row % stride);
            for q in 0..quads {
                for c in 0..4 {
                    let lanes = [0, 1, 2, 3].map(|l| {
                        let prim = lane_of(q, l) / per_prim;
                        inputs
                            .get(prim)
                            .and_then(|p| p.get(v))
                            .and_then(|vx| vx.get(attr))
                            .map_or(0, |x| x[c])
                    });
                    batch.set_input(row, c, q, Lanes(lanes));
                }
            }
        }
        batch
            .system
            .set_with(SemanticName::PrimId, quads, |q, l, _| (lane_of(q, l) / per_prim) as u32);
        batch.system.set_with(SemanticName::InvocationId, quads, |q, l, _| {
            (lane_of(q, l) % per_prim) as u32
        });
        let mut res = Resources {
            emits: Some(EmitSink { max_vertices: info.max_vertices, invocations: Vec::new() }),
            ..Resources::default()
        };
        let s = machine.run_with_resources(program, &mut batch, consts, hooks, &mut res)?;
        out.stats.add(s);
        if let Some(mut sink) = res.emits.take() {
            for inv in sink.invocations.iter_mut() {
                for st in 0..4 {
                    inv.end_primitive(st);
                }
                out.primitives.append(&mut inv.done);
            }
        }
        start += n;
    }
    Ok(out)
}
