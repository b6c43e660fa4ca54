//! The draw call: vertex stage → primitive assembly → clipping → perspective divide and
//! viewport → triangle set-up → rasterization into 2x2 quads → interpolation → fragment stage →
//! depth test → render targets.

use super::clip::{clip_triangle, fan, outside_view, ClipVertex};
use super::framebuffer::{Format, Framebuffer};
use super::interp::{fragcoord_coefs, Coef, Mode};
use super::link::{link, InputSource};
use super::mesh::{FrontFace, Mesh, Provoking, Topology};
use super::quads::{fill_inputs, write_quads, LanePlan, Target};
use super::raster::{rasterize_into, Region};
use super::setup::{Triangle, WindowPos};
use super::stage::{
    FragmentStage, FsInterface, InputPlanes, Quad, QuadBatch, QuadOutputs, VertexStage,
    VsInterface, VsOutput,
};
use crate::diag::Diagnostic;
use crate::exec::Rows;
use crate::ir::{Interp, SemanticName, Span};

/// Default quads per fragment-stage call.
pub const BATCH_QUADS: usize = 64;
/// The largest batch the job's renders use (divergent shaders in the WebAssembly engine,
/// `job::batch_size`); the compiled module's rows hold this many quads (`jit::codegen::MAX_QUADS`).
pub const MAX_BATCH_QUADS: usize = 1024;

/// Options of one draw.
#[derive(Clone, Debug, Default)]
pub struct DrawConfig {
    /// Only these window rows (counted from the bottom row) are shaded and written; `None` = all.
    pub rows: Option<std::ops::Range<u32>>,
    /// LESS depth test against the framebuffer's depth buffer (cleared to 1.0).
    pub depth_test: bool,
    /// Quads per fragment-stage call (0 = [`BATCH_QUADS`]).
    pub batch_quads: usize,
}

/// Counters of one draw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DrawStats {
    pub triangles: u64,
    pub quads: u64,
    pub fragments_written: u64,
    /// Quads shaded by the fragment program that flushes denormals (draw chunks with every
    /// vertex inside the view; natively its compiled form runs them where there is one, in the
    /// page the interpreter).
    pub flushed_quads: u64,
    /// Quads whose colour the compiled stage stored into the render target itself (natively,
    /// docs/jit.md "Colours stored by the module").
    pub fused_quads: u64,
}

/// Draws `mesh` with the two stages into `fb`: the vertex stage once over all its vertices,
/// then each of its draws in order (primitive ids count from 0 in each draw). Linkage warnings
/// are appended to `warnings`; an error (no POSITION output, a stage failure such as a budget
/// overrun) stops the draw.
#[allow(clippy::too_many_arguments)] // each stage comes as its interface and its implementation
pub fn draw(
    fb: &mut Framebuffer,
    mesh: &Mesh,
    vs_if: &VsInterface,
    vs: &mut dyn VertexStage,
    fs_if: &FsInterface,
    fs: &mut dyn FragmentStage,
    config: &DrawConfig,
    warnings: &mut Vec<Diagnostic>,
) -> Result<DrawStats, Diagnostic> {
    let Some(pos_reg) = vs_if.find(SemanticName::Position, 0) else {
        return Err(Diagnostic::error(
            "R102",
            "the vertex shader writes no POSITION output, so nothing can be drawn",
            Span::default(),
        ));
    };
    let out_regs = vs_if.output_registers.max(pos_reg as usize + 1);
    let count = mesh.vertex_count();

    // Vertex stage over the whole mesh (the stage batches lanes itself).
    let in_regs = vs_if.input_registers;
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

    let (sources, link_warnings) = link(vs_if, fs_if);
    warnings.extend(link_warnings);

    let mut ctx = Raster::new(fb, fs_if, &sources, config, mesh.front_face);
    let vertex = |i: u32| -> Option<&[[f32; 4]]> {
        let start = (i as usize).checked_mul(out_regs)?;
        vout.get(start..start + out_regs)
    };
    // Softpipe shades a chunk of a draw inside its draw call, with denormals flushed, when
    // none of the chunk's vertices is outside the view volume (`chunk_triangles`).
    let outside: Vec<bool> = (0..count)
        .map(|v| {
            vertex(v as u32).and_then(|attrs| attrs.get(pos_reg as usize)).is_some_and(outside_view)
        })
        .collect();
    let mut stats = DrawStats::default();
    for d in &mesh.draws {
        let triangles: Vec<[u32; 3]> = mesh.draw_triangles(d).collect();
        let per_chunk = chunk_triangles(d.topology);
        for (k, chunk) in triangles.chunks(per_chunk).enumerate() {
            let clipped =
                chunk.iter().flatten().any(|&v| outside.get(v as usize).copied().unwrap_or(true));
            let flushing = fs.flush_denormals(!clipped);
            let (first_prim, quads_before) = (k * per_chunk, stats.quads);
            draw_chunk(
                &mut ctx,
                chunk,
                first_prim,
                &vertex,
                pos_reg,
                mesh.provoking,
                fs,
                &mut stats,
            )?;
            if flushing {
                stats.flushed_quads += stats.quads - quads_before;
            }
        }
    }
    Ok(stats)
}

/// Triangles per chunk of one draw as Mesa's draw module splits it (draw_pt_vsplit.c, its
/// `segment_size`, and draw_split_tmp.h): softpipe's middle end takes 4096 vertices at a time,
/// so a triangle list is split every 4095 vertices (1365 triangles), a strip every 4094
/// triangles (the next chunk repeats two vertices) and a fan, through the 1024-vertex segment
/// cache, every 1022 triangles. Each chunk is clip-tested alone. (An indexed draw of more than
/// 4096 indices is split through the same 1024-vertex cache; the built-in meshes have fewer.)
fn chunk_triangles(topology: Topology) -> usize {
    match topology {
        Topology::TriangleList => 4095 / 3,
        Topology::TriangleStrip => 4096 - 2,
        Topology::TriangleFan => 1024 - 2,
    }
}

/// Draws the triangles of one chunk, numbering primitives from `first_prim`.
#[allow(clippy::too_many_arguments)] // the parts of `draw` a chunk needs
fn draw_chunk<'v>(
    ctx: &mut Raster<'_>,
    chunk: &[[u32; 3]],
    first_prim: usize,
    vertex: &impl Fn(u32) -> Option<&'v [[f32; 4]]>,
    pos_reg: u32,
    provoking: Provoking,
    fs: &mut dyn FragmentStage,
    stats: &mut DrawStats,
) -> Result<(), Diagnostic> {
    for (i, tri) in chunk.iter().enumerate() {
        let prim = first_prim + i;
        let (Some(a), Some(b), Some(c)) = (vertex(tri[0]), vertex(tri[1]), vertex(tri[2])) else {
            continue;
        };
        let cv = |attrs: &[[f32; 4]]| ClipVertex {
            pos: attrs.get(pos_reg as usize).copied().unwrap_or([0.0; 4]),
            attrs: attrs.to_vec(),
        };
        let (ca, cb, cc) = (cv(a), cv(b), cv(c));
        let poly = clip_triangle([&ca, &cb, &cc]);
        // Flat inputs read the provoking vertex of the original triangle (the mesh's
        // convention, first or last).
        let provoking = match provoking {
            Provoking::First => a,
            Provoking::Last => c,
        };
        for [i, j, k] in fan(poly.len()) {
            let verts = [&poly[i], &poly[j], &poly[k]];
            stats.triangles += 1;
            ctx.triangle(verts, provoking, prim as u32, fs, stats)?;
        }
    }
    Ok(())
}

/// State of the raster and fragment half of a draw.
struct Raster<'a> {
    fb: &'a mut Framebuffer,
    fs_if: &'a FsInterface,
    sources: &'a [InputSource],
    config: &'a DrawConfig,
    row_range: (u32, u32),
    batch: QuadBatch,
    outputs: QuadOutputs,
    lanes: LanePlan,
    /// Batch size for which the in-place stage's input rows that are not interpolated have
    /// been cleared.
    zeroed_inputs: Option<usize>,
    /// Per quad of the batch, the lanes that write.
    live: Vec<u8>,
    /// The quads rasterized and not yet in a batch (kept for its allocation).
    pending: Vec<Quad>,
    /// The triangle's window depth plane (set with its inputs, once per triangle; the depth
    /// test and POSITION.z read it).
    depth_plane: Coef,
    batch_limit: usize,
    /// Clockwise triangles face the viewer (`FrontFace::Cw`).
    clockwise_front: bool,
    /// The OUT register a compiled stage may store into render target 0 itself: one RGBA32F
    /// colour, no depth (docs/jit.md "Colours stored by the module").
    fuse_colour: Option<u32>,
    /// The last batch's stage stored its colours itself.
    fused: bool,
}

impl<'a> Raster<'a> {
    fn new(
        fb: &'a mut Framebuffer,
        fs_if: &'a FsInterface,
        sources: &'a [InputSource],
        config: &'a DrawConfig,
        front_face: FrontFace,
    ) -> Raster<'a> {
        let row_range = match &config.rows {
            Some(r) => (r.start.min(fb.height), r.end.min(fb.height)),
            None => (0, fb.height),
        };
        let fuse_colour = match (fb.format, fs_if.colors.as_slice()) {
            (Format::Rgba32F, &[(0, r)]) if fs_if.depth.is_none() && !config.depth_test => Some(r),
            _ => None,
        };
        Raster {
            fb,
            fs_if,
            sources,
            config,
            row_range,
            batch: QuadBatch { input_registers: fs_if.input_registers, ..QuadBatch::default() },
            outputs: QuadOutputs::default(),
            lanes: LanePlan::default(),
            zeroed_inputs: None,
            live: Vec::new(),
            pending: Vec::new(),
            depth_plane: Coef::default(),
            batch_limit: if config.batch_quads == 0 { BATCH_QUADS } else { config.batch_quads },
            clockwise_front: front_face == FrontFace::Cw,
            fuse_colour,
            fused: false,
        }
    }

    /// Viewport transform (GL: x and y from −1..1 to 0..W and 0..H with row 0 at the bottom,
    /// z from −1..1 to 0..1), after the perspective divide.
    fn window(&self, p: &[f32; 4]) -> WindowPos {
        let inv_w = 1.0 / p[3];
        let (hw, hh) = (self.fb.width as f32 * 0.5, self.fb.height as f32 * 0.5);
        WindowPos {
            x: p[0] * inv_w * hw + hw,
            y: p[1] * inv_w * hh + hh,
            z: p[2] * inv_w * 0.5 + 0.5,
            inv_w,
        }
    }

    fn triangle(
        &mut self,
        verts: [&ClipVertex; 3],
        provoking: &[[f32; 4]],
        prim: u32,
        fs: &mut dyn FragmentStage,
        stats: &mut DrawStats,
    ) -> Result<(), Diagnostic> {
        let Some(mut tri) = Triangle::new(verts.map(|v| self.window(&v.pos))) else {
            return Ok(());
        };
        // Set-up finds counter-clockwise triangles; softpipe's `facing` flips with the front
        // face state in the same way.
        tri.front ^= self.clockwise_front;
        self.plan_inputs(&tri, verts, provoking, prim);
        let region = Region {
            x0: 0,
            x1: self.fb.width as i64,
            y0: self.row_range.0 as i64,
            y1: self.row_range.1 as i64,
        };
        // The quads are rasterized into `pending`, which becomes the batch by a swap of vectors
        // rather than a copy (a copy of every quad was 6% of a trivial frame).
        let mut pending = std::mem::take(&mut self.pending);
        pending.clear();
        let drawn = rasterize_into(&tri, region, &mut pending, |pending| {
            // Batches of exactly `batch_limit` quads (the last one of a triangle excepted).
            while pending.len() >= self.batch_limit {
                self.take_batch(pending, self.batch_limit);
                self.flush(fs, stats)?;
            }
            Ok(())
        })
        .and_then(|()| {
            let rest = pending.len();
            self.take_batch(&mut pending, rest);
            self.flush(fs, stats)
        });
        self.pending = pending;
        drawn
    }

    /// Makes the first `count` quads of `pending` the batch (which is empty): the batch's vector
    /// and `pending` are swapped, and the quads after the first `count` (fewer than a block)
    /// are copied back into `pending`.
    fn take_batch(&mut self, pending: &mut Vec<Quad>, count: usize) {
        let quads = &mut self.batch.quads;
        quads.clear();
        quads.extend_from_slice(pending.get(count..).unwrap_or_default());
        pending.truncate(count);
        std::mem::swap(quads, pending);
    }

    /// Plane equations of every fragment input for this triangle.
    fn plan_inputs(
        &mut self,
        tri: &Triangle,
        verts: [&ClipVertex; 3],
        provoking: &[[f32; 4]],
        prim: u32,
    ) {
        let fs_if = self.fs_if;
        let b = &mut self.batch;
        b.face = if tri.front { 1.0 } else { -1.0 };
        b.primitive_id = prim;
        b.inv_w = tri.inv_w();
        self.depth_plane = tri.depth();
        b.fragcoord = fragcoord_coefs(
            self.fb.height,
            fs_if.lower_left,
            fs_if.integer_center,
            self.depth_plane,
            b.inv_w,
        );
        b.planes.clear();
        b.planes.resize(fs_if.input_registers, None);
        for (input, source) in fs_if.inputs.iter().zip(self.sources.iter()) {
            let mask = input.usage_mask;
            let constant = |v: [f32; 4]| InputPlanes {
                coefs: v.map(Coef::constant),
                mode: Mode::Constant,
                mask,
            };
            let planes = match *source {
                InputSource::Position => {
                    InputPlanes { coefs: b.fragcoord, mode: Mode::Linear, mask }
                }
                InputSource::Face => constant([b.face, 0.0, 0.0, 1.0]),
                InputSource::PrimitiveId => constant([f32::from_bits(prim), 0.0, 0.0, 1.0]),
                InputSource::Missing => constant([0.0, 0.0, 0.0, 1.0]),
                InputSource::Varying { front, back } => {
                    let reg = if tri.front { front } else { back } as usize;
                    if reg >= verts[0].attrs.len() {
                        constant([0.0, 0.0, 0.0, 1.0])
                    } else {
                        match input.interp {
                            Interp::Constant => constant(
                                provoking.get(reg).copied().unwrap_or([0.0, 0.0, 0.0, 1.0]),
                            ),
                            interp => {
                                let mode = if interp == Interp::Linear {
                                    Mode::Linear
                                } else {
                                    Mode::Perspective
                                };
                                let coefs = [0, 1, 2, 3].map(|c| {
                                    let v = verts.map(|v| v.attrs[reg][c]);
                                    if mode == Mode::Linear {
                                        tri.linear(v)
                                    } else {
                                        tri.perspective(v)
                                    }
                                });
                                InputPlanes { coefs, mode, mask }
                            }
                        }
                    }
                }
            };
            if let Some(slot) = b.planes.get_mut(input.register as usize) {
                *slot = Some(planes);
            }
        }
    }

    /// Interpolates, shades and writes the pending quads. A stage that takes its inputs in place
    /// gets them interpolated straight into its rows, and its outputs are written to the
    /// framebuffer straight from its rows.
    fn flush(
        &mut self,
        fs: &mut dyn FragmentStage,
        stats: &mut DrawStats,
    ) -> Result<(), Diagnostic> {
        let nq = self.batch.quads.len();
        if nq == 0 {
            return Ok(());
        }
        stats.quads += nq as u64;
        let b = &mut self.batch;
        b.input_registers = self.fs_if.input_registers;
        self.lanes.prepare(&b.quads, &b.inv_w);
        let depth_plane = self.depth_plane;
        let mut target =
            Target { fb: &mut *self.fb, fs_if: self.fs_if, depth_test: self.config.depth_test };
        let written = match fs.in_place() {
            Some(stage) => {
                // A compiled stage stores the colours itself where it can (its input rows are
                // then in another memory).
                let fuse = self.fuse_colour.and_then(|r| Some((target.fb.targets.first()?, r)));
                let recorded = match stage.fuse(fuse) {
                    true => stage
                        .colour_records(nq)
                        .and_then(|(rows, base)| colour_records(rows, base, target.fb, &b.quads)),
                    false => None,
                };
                let fused = recorded.is_some();
                if fused != self.fused {
                    if !fused {
                        // (A fused stage without its records: not expected.)
                        stage.fuse(None);
                    }
                    self.zeroed_inputs = None;
                    self.fused = fused;
                }
                // The interpreter never writes its input rows and keeps them from run to run
                // (or clears them all when the batch size changes), so the rows that are not
                // interpolated need zeros only once per batch size.
                let keep_zeros = self.zeroed_inputs == Some(nq);
                let rows = stage.input_rows(nq);
                fill_inputs(rows.lanes, rows.stride, nq, &b.planes, &self.lanes, keep_zeros);
                self.zeroed_inputs = Some(nq);
                stage.run(b)?;
                match recorded.filter(|_| stage.colours_stored()) {
                    Some(written) => {
                        // (No watch: `stored` has no trace to keep or drop.)
                        self.live.clear();
                        stats.fused_quads += nq as u64;
                        written
                    }
                    None => {
                        let (values, killed) = stage.outputs();
                        write_quads(
                            &mut target,
                            &b.quads,
                            values,
                            killed,
                            &depth_plane,
                            &mut self.live,
                        )
                    }
                }
            }
            None => {
                b.inputs.resize(b.input_registers * 4 * nq, [0.0; 4]);
                fill_inputs(&mut b.inputs, nq, nq, &b.planes, &self.lanes, false);
                self.outputs.reset(self.fs_if.output_registers, nq);
                fs.shade(b, &mut self.outputs)?;
                write_quads(
                    &mut target,
                    &b.quads,
                    Rows { lanes: &self.outputs.values, stride: nq },
                    &self.outputs.killed,
                    &depth_plane,
                    &mut self.live,
                )
            }
        };
        stats.fragments_written += written;
        fs.stored(&self.live);
        self.batch.quads.clear();
        Ok(())
    }
}

/// Fills a fused batch's colour records (`exec::Accelerator::colour_records`): row 0 each
/// quad's covered lanes as masks, lane 0 of row 1 the byte offset of its pixels (`base` is
/// the offset of the target's quad 0). A quad outside the storage stores nothing. Returns the
/// fragments the batch writes, counted as `write_quads` counts them (its covered lanes: a fused
/// program kills none and there is no depth test), or None when the rows are too short.
fn colour_records(
    rows: crate::exec::RowsMut<'_>,
    base: u32,
    fb: &Framebuffer,
    quads: &[Quad],
) -> Option<u64> {
    /// The lane mask of each coverage.
    const MASKS: [crate::exec::Lanes; 16] = {
        let mut m = [crate::exec::Lanes([0; 4]); 16];
        let mut c = 0;
        while c < 16 {
            let mut l = 0;
            while l < 4 {
                m[c].0[l] = if c >> l & 1 != 0 { !0 } else { 0 };
                l += 1;
            }
            c += 1;
        }
        m
    };
    let nq = quads.len();
    let (masks, rest) = rows.lanes.split_at_mut_checked(rows.stride)?;
    let (masks, offsets) = (masks.get_mut(..nq)?, rest.get_mut(..nq)?);
    let tiling = fb.tiling();
    let stored = fb.targets.first().map_or(0, |t| t.len());
    let quad_bytes = std::mem::size_of::<super::framebuffer::QuadPixels>();
    // A fully covered block (most of a large primitive) is 64 quads the rasterizer emits in
    // storage order, so a batch holds runs of them that are runs of storage: the run from quad
    // `at` to its block's end (or the batch's), when its last quad is where the block's order
    // puts it (no quad of the block was left out) and every lane is covered.
    let side = super::framebuffer::TILE;
    let block = (side as usize / 2).pow(2);
    // (A run whose positions are a block's but with a lane uncovered is then done quad by quad
    // as a whole, so no quad is looked at as the start of a run twice.)
    let run_at = |at: usize| -> Option<(usize, usize, bool)> {
        let a = quads.get(at)?;
        let (bx, by) = (a.x & !(side - 1), a.y & !(side - 1));
        let k = ((a.y - by) / 2 * (side / 2) + (a.x - bx) / 2) as usize;
        let len = (block - k).min(nq - at);
        let z = quads.get(at + len - 1)?;
        let kz = (k + len - 1) as u32;
        let last = (bx + kz % (side / 2) * 2, by + kz / (side / 2) * 2);
        let first = tiling.quad_index(a.x, a.y);
        if (z.x, z.y) != last || first + len > stored {
            return None;
        }
        let covered = quads.get(at..at + len)?.iter().fold(0xF, |all, q| all & q.coverage);
        Some((first, len, covered == 0xF))
    };
    let mut written = 0;
    let mut q = 0;
    while q < nq {
        let (first, len, whole) = run_at(q).unwrap_or((0, 1, false));
        if whole {
            masks[q..q + len].fill(MASKS[0xF]);
            // (Whole records: storing lane 0 alone compiles to a slow scatter.)
            for (k, offset) in offsets[q..q + len].iter_mut().enumerate() {
                *offset = crate::exec::Lanes([base + ((first + k) * quad_bytes) as u32, 0, 0, 0]);
            }
            written += len as u64 * 4;
            q += len;
            continue;
        }
        for at in q..q + len {
            let quad = quads[at];
            let index = tiling.quad_index(quad.x, quad.y);
            let inside = index < stored;
            let coverage = if inside { quad.coverage & 0xF } else { 0 };
            masks[at] = MASKS[coverage as usize];
            let offset = base + (if inside { index } else { 0 } * quad_bytes) as u32;
            offsets[at] = crate::exec::Lanes([offset, 0, 0, 0]);
            written += (quad.coverage & 0xF).count_ones() as u64;
        }
        q += len;
    }
    Some(written)
}

/// The vertex side of fragment-only rendering: the `fullscreen` mesh with POSITION = IN[0] and a
/// uv output (x·0.5 + 0.5, y·0.5 + 0.5, 0, 1) that every GENERIC, TEXCOORD and COLOR input reads
/// — the same values as the softpipe corpus's `v_uv` vertex shader.
pub fn fragment_only_vertex_stage() -> (VsInterface, impl VertexStage) {
    let vs_if = VsInterface {
        input_registers: 1,
        output_registers: 2,
        outputs: vec![VsOutput { register: 0, semantic: SemanticName::Position, index: 0 }],
        uv_wildcard: Some(1),
    };
    let stage = |input: &[[f32; 4]],
                 in_regs: usize,
                 count: usize,
                 out: &mut [[f32; 4]],
                 out_regs: usize|
     -> Result<(), Diagnostic> {
        for v in 0..count {
            let p = input.get(v * in_regs).copied().unwrap_or([0.0, 0.0, 0.0, 1.0]);
            if let Some(o) = out.get_mut(v * out_regs..v * out_regs + 2) {
                o[0] = p;
                o[1] = [p[0] * 0.5 + 0.5, p[1] * 0.5 + 0.5, 0.0, 1.0];
            }
        }
        Ok(())
    };
    (vs_if, stage)
}
