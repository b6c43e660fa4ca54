//! The geometry stage of a draw (`tgsi render --gs`, `docs/resources.md`): the vertex stage
//! runs over the mesh, the geometry shader over its triangles (`exec::run_geometry`), and the
//! triangles it emits on stream 0 become a new triangle-list mesh whose vertices are the
//! geometry shader's outputs. The rest of the pipeline then draws that mesh through a
//! pass-through vertex stage, so clipping, rasterization and linkage to the fragment shader
//! work on the geometry shader's outputs exactly as on a vertex shader's.

use super::mesh::{triangle_count, triangle_order, Mesh, Topology};
use super::stage::{VertexStage, VsInterface};
use crate::diag::Diagnostic;
use crate::exec::{self, Constants, GeometryInfo, Machine, Program, TextureHooks};
use crate::ir::{File, PrimType, PropertyName, SemanticName, Shader};

/// A compiled geometry shader with what the draw needs from its declarations.
#[derive(Clone, Debug)]
pub struct GeometryJob {
    pub program: Program,
    /// Semantic of each `IN[][n]` (index n), when declared.
    pub inputs: Vec<(u32, SemanticName, u32)>,
    /// The outputs, as the fragment shader's linkage sees them.
    pub outputs: VsInterface,
}

impl GeometryJob {
    /// Checks that the renderer can feed and draw this shader: triangles in, triangle strips
    /// out (R104 otherwise).
    pub fn new(program: Program, shader: &Shader) -> Result<GeometryJob, Diagnostic> {
        let info = GeometryInfo::of(&program);
        // The refusal points at the property that asks for it (the header when it is missing).
        let at = |name: PropertyName| {
            shader
                .properties
                .iter()
                .rev()
                .find(|p| p.name == name)
                .map_or(shader.header_span, |p| p.span)
        };
        if info.input != PrimType::Triangles {
            return Err(Diagnostic::error(
                "R104",
                format!(
                    "the renderer feeds triangles to the geometry shader; GS_INPUT_PRIMITIVE is {}",
                    info.input.name()
                ),
                at(PropertyName::GsInputPrimitive),
            ));
        }
        if info.output != PrimType::TriangleStrip {
            return Err(Diagnostic::error(
                "R104",
                format!(
                    "the renderer draws triangles; GS_OUTPUT_PRIMITIVE is {}",
                    info.output.name()
                ),
                at(PropertyName::GsOutputPrimitive),
            ));
        }
        let mut inputs = Vec::new();
        for d in shader
            .distinct_declarations()
            .into_iter()
            .filter(|d| d.file == File::In && d.range.count() <= 4096)
        {
            if let Some(s) = d.semantic {
                for r in d.range.first..=d.range.last {
                    inputs.push((r, s.name, s.index.saturating_add(r - d.range.first)));
                }
            }
        }
        let mut outputs = VsInterface::from_shader(shader);
        let regs = (program.output_count() as usize).max(outputs.output_registers);
        outputs.output_registers = regs;
        outputs.input_registers = regs;
        Ok(GeometryJob { program, inputs, outputs })
    }

    /// Runs the vertex stage over the mesh and the geometry shader over its triangles; returns
    /// what the shader emitted, every stream (the page lists it; [`Self::to_mesh`] makes the
    /// mesh a draw sees).
    #[allow(clippy::too_many_arguments)]
    pub fn emit(
        &self,
        mesh: &Mesh,
        vs_if: &VsInterface,
        vs: &mut dyn VertexStage,
        constants: &Constants,
        hooks: &mut dyn TextureHooks,
        budget: u64,
        frame: &exec::FrameBudget,
    ) -> Result<exec::GeometryOutput, Diagnostic> {
        let count = mesh.vertex_count();
        let in_regs = vs_if.input_registers;
        let out_regs = vs_if.output_registers.max(1);
        let mut vin = vec![[0.0, 0.0, 0.0, 1.0]; count * in_regs];
        for v in 0..count {
            for a in 0..in_regs.min(mesh.attributes) {
                if let (Some(dst), Some(src)) =
                    (vin.get_mut(v * in_regs + a), mesh.vertices.get(v * mesh.attributes + a))
                {
                    *dst = *src;
                }
            }
        }
        let mut vout = vec![[0.0f32; 4]; count * out_regs];
        vs.shade(&vin, in_regs, count, &mut vout, out_regs)?;

        // IN[][n] reads the vertex output with the same semantic (uv for fragment-only draws).
        let stride = self.program.vertex_stride.max(1) as usize;
        let source: Vec<Option<u32>> = (0..stride as u32)
            .map(|n| {
                let (_, name, index) = *self.inputs.iter().find(|i| i.0 == n)?;
                vs_if.find(name, index).or(match name {
                    SemanticName::Generic | SemanticName::TexCoord | SemanticName::Color => {
                        vs_if.uv_wildcard
                    }
                    _ => None,
                })
            })
            .collect();
        let vertex = |i: u32| -> Vec<[u32; 4]> {
            source
                .iter()
                .map(|r| {
                    let at =
                        r.and_then(|r| (i as usize).checked_mul(out_regs)?.checked_add(r as usize));
                    at.and_then(|at| vout.get(at))
                        .copied()
                        .unwrap_or([0.0, 0.0, 0.0, 1.0])
                        .map(f32::to_bits)
                })
                .collect()
        };
        let prims: Vec<_> =
            mesh.triangles().into_iter().map(|t| t.iter().map(|&i| vertex(i)).collect()).collect();
        let mut machine = Machine::in_frame(budget, frame);
        exec::run_geometry(&mut machine, &self.program, constants, hooks, &prims)
            .map_err(|e| e.diagnostic)
    }

    /// The stream-0 strips of a geometry run as the triangle-list mesh the rest of the draw sees.
    pub fn to_mesh(&self, out: &exec::GeometryOutput, mesh: &Mesh) -> Mesh {
        // Each emitted strip cut into triangles in the order the mesh's provoking-vertex
        // convention gives (as for a strip drawn from a mesh), listed as one triangle list.
        let attributes = self.outputs.output_registers.max(1);
        let mut vertices = Vec::new();
        for p in out.primitives.iter().filter(|p| p.stream == 0) {
            for t in 0..triangle_count(Topology::TriangleStrip, p.vertices.len()) {
                for k in triangle_order(Topology::TriangleStrip, mesh.provoking, t) {
                    let v = p.vertices.get(k).map(Vec::as_slice).unwrap_or_default();
                    for a in 0..attributes {
                        vertices.push(v.get(a).copied().unwrap_or_default().map(f32::from_bits));
                    }
                }
            }
        }
        let n = (vertices.len() / attributes) as u32;
        Mesh {
            front_face: mesh.front_face,
            provoking: mesh.provoking,
            wants_depth: mesh.wants_depth,
            ..Mesh::new(mesh.name, attributes, vertices, (0..n).collect(), Topology::TriangleList)
        }
    }
}

/// The vertex stage after a geometry stage: the mesh already holds the outputs.
pub fn pass_through(
    input: &[[f32; 4]],
    in_regs: usize,
    count: usize,
    out: &mut [[f32; 4]],
    out_regs: usize,
) -> Result<(), Diagnostic> {
    for v in 0..count {
        for r in 0..in_regs.min(out_regs) {
            if let (Some(o), Some(i)) = (out.get_mut(v * out_regs + r), input.get(v * in_regs + r))
            {
                *o = *i;
            }
        }
    }
    Ok(())
}
