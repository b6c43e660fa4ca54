//! The interpreter as the pipeline's shader stages: a vertex stage running 4 vertices per lane
//! vector (up to 256 vertices per call) and a fragment stage running a whole batch of quads per
//! call, with coverage → helper lanes, FACE / POSITION / PRIM_ID / SAMPLE system values, plane
//! equations for INTERP_* opcodes, and kill masks.

use super::stage::{FragmentStage, InPlaceStage, QuadBatch, QuadOutputs, VertexStage};
use crate::diag::Diagnostic;
use crate::exec::{Batch, Coef as ExecCoef, Constants, Lanes, Machine, Program, TextureHooks};
use crate::ir::SemanticName;

/// Vertices per interpreter call in the vertex stage.
const VERTEX_QUADS: usize = 64;

/// A compiled vertex shader with its machine.
pub struct ExecVertexStage<'a> {
    pub program: &'a Program,
    pub constants: &'a Constants,
    pub hooks: &'a mut dyn TextureHooks,
    pub machine: Machine,
    /// Set when a run failed, so the caller knows which shader a diagnostic is about.
    pub failed: bool,
    /// The inspector: a vertex to trace (its batch runs in trace mode), its trace and lane …
    pub trace_vertex: Option<usize>,
    pub trace: Option<(crate::exec::Trace, usize)>,
    /// … and, when set, every vertex's inputs and outputs as the draw used them.
    pub record: Option<super::watch::VertexTable>,
}

impl VertexStage for ExecVertexStage<'_> {
    fn shade(
        &mut self,
        inputs: &[[f32; 4]],
        ni: usize,
        count: usize,
        outputs: &mut [[f32; 4]],
        no: usize,
    ) -> Result<(), Diagnostic> {
        let p_in = self.program.input_count() as usize;
        let p_out = self.program.output_count() as usize;
        let mut start = 0;
        while start < count {
            let n = (count - start).min(VERTEX_QUADS * 4);
            let nq = n.div_ceil(4);
            let mut batch = Batch::new(self.program, nq);
            for reg in 0..p_in.min(ni) {
                for c in 0..4 {
                    for q in 0..nq {
                        let lanes = [0, 1, 2, 3].map(|l| {
                            let v = start + q * 4 + l;
                            if v < start + n {
                                inputs.get(v * ni + reg).map_or(0, |a| a[c].to_bits())
                            } else {
                                0
                            }
                        });
                        batch.set_input(reg, c, q, Lanes(lanes));
                    }
                }
            }
            for q in 0..nq {
                // Lanes past the last vertex are not covered: they run as helpers.
                let valid = (n - q * 4).min(4);
                if let Some(c) = batch.coverage.get_mut(q) {
                    *c = ((1u16 << valid) - 1) as u8;
                }
            }
            batch.system.set_with(SemanticName::VertexId, nq, |q, l, _| (start + q * 4 + l) as u32);
            batch
                .system
                .set_with(SemanticName::VertexIdNoBase, nq, |q, l, _| (start + q * 4 + l) as u32);
            batch.system.set_with(SemanticName::InstanceId, nq, |_, _, _| 0);
            let traced = self
                .trace_vertex
                .filter(|v| super::watch::WATCHING && (start..start + n).contains(v));
            let result = match traced {
                Some(v) => {
                    let (trace, r) = self.machine.run_traced(
                        self.program,
                        &mut batch,
                        self.constants,
                        &mut *self.hooks,
                        (v - start) / 4,
                    );
                    self.trace = Some((trace, (v - start) % 4));
                    r
                }
                None => self.machine.run_with(
                    self.program,
                    &mut batch,
                    self.constants,
                    &mut *self.hooks,
                ),
            };
            if let Err(e) = result {
                self.failed = true;
                return Err(e.diagnostic);
            }
            for reg in 0..p_out.min(no) {
                for c in 0..4 {
                    for q in 0..nq {
                        let lanes = batch.output(reg, c, q).0;
                        for (l, bits) in lanes.iter().enumerate() {
                            let v = start + q * 4 + l;
                            if v < start + n {
                                if let Some(o) = outputs.get_mut(v * no + reg) {
                                    o[c] = f32::from_bits(*bits);
                                }
                            }
                        }
                    }
                }
            }
            start += n;
        }
        if let Some(table) = self.record.as_mut() {
            table.input_registers = ni;
            table.output_registers = no;
            table.inputs = inputs.get(..count * ni).unwrap_or(inputs).to_vec();
            table.outputs = outputs.get(..count * no).unwrap_or(outputs).to_vec();
        }
        Ok(())
    }
}

/// A compiled fragment shader with its machine and a reusable batch.
pub struct ExecFragmentStage<'a> {
    /// The program the next batch runs: [`Self::plain`] or [`Self::in_draw`].
    pub program: &'a Program,
    /// The program compiled as the stage is (denormals kept).
    plain: &'a Program,
    /// The program for draw chunks softpipe shades inside its draw call (denormals flushed,
    /// `render::job::Job::fs_in_draw`), if the job has one.
    in_draw: Option<&'a Program>,
    /// The compiled form of the program that is not running now: the flushing program's
    /// (`render::job::Job::fs_in_draw_accel`) while the plain one runs, the plain one's while
    /// the flushing one runs. None: that program's batches run in the interpreter.
    other_accel: Option<Box<dyn crate::exec::Accelerator>>,
    pub constants: &'a Constants,
    pub hooks: &'a mut dyn TextureHooks,
    pub machine: Machine,
    batch: Option<Batch>,
    /// The program has INTERP_* instructions, which need the plane equations.
    interpolates: bool,
    /// What the inspector watches: the batch holding the traced fragment runs in trace mode,
    /// every batch in probe mode when probing, all on the same program and path.
    pub watch: super::watch::Watch,
}

impl<'a> ExecFragmentStage<'a> {
    pub fn new(
        program: &'a Program,
        constants: &'a Constants,
        hooks: &'a mut dyn TextureHooks,
        machine: Machine,
    ) -> Self {
        let interpolates =
            program.code.iter().any(|i| i.op.info().family == crate::opcode::Family::Interpolation);
        ExecFragmentStage {
            program,
            plain: program,
            in_draw: None,
            other_accel: None,
            constants,
            hooks,
            machine,
            batch: None,
            interpolates,
            watch: super::watch::Watch::default(),
        }
    }
}

impl<'a> ExecFragmentStage<'a> {
    /// The stage with the program to run for draw chunks shaded inside the draw call.
    pub fn with_in_draw(mut self, in_draw: Option<&'a Program>) -> Self {
        self.in_draw = in_draw;
        self
    }

    /// The compiled form of the flushing program ([`Self::with_in_draw`]), which runs its
    /// batches while it is the program.
    pub fn set_in_draw_accel(&mut self, accel: Option<Box<dyn crate::exec::Accelerator>>) {
        self.other_accel = accel;
    }
}

fn exec_coef(c: &super::interp::Coef) -> ExecCoef {
    ExecCoef { a0: c.a0, dadx: c.dadx, dady: c.dady }
}

impl ExecFragmentStage<'_> {
    /// The reusable batch for `nq` quads.
    fn batch_for(&mut self, nq: usize) -> &mut Batch {
        let program = self.program;
        if self.batch.as_ref().is_none_or(|b| b.quads() != nq.max(1)) {
            self.batch = Some(Batch::new(program, nq));
        }
        self.batch.get_or_insert_with(|| Batch::new(program, nq))
    }

    /// Fills everything of the interpreter's batch but the inputs, then runs it.
    fn run_batch(&mut self, qb: &QuadBatch, in_place: bool) -> Result<(), Diagnostic> {
        let nq = qb.quads.len();
        let program = self.program;
        self.batch_for(nq);
        let Some(batch) = self.batch.as_mut() else { return Ok(()) };
        batch.in_place = in_place;
        for (c, quad) in batch.coverage.iter_mut().zip(qb.quads.iter()) {
            *c = quad.coverage;
        }
        for &(_, name) in &program.system_values {
            match name {
                SemanticName::Face => {
                    batch.system.set_with(
                        name,
                        nq,
                        |_, _, c| if c == 0 { qb.face.to_bits() } else { 0 },
                    )
                }
                SemanticName::Position => batch.system.set_with(name, nq, |q, l, c| {
                    let quad = qb.quads.get(q).copied().unwrap_or(super::stage::Quad {
                        x: 0,
                        y: 0,
                        coverage: 0,
                    });
                    let [x, y] = quad.origin();
                    qb.fragcoord[c].quad(x, y)[l].to_bits()
                }),
                SemanticName::PrimId => {
                    batch.system.set_with(
                        name,
                        nq,
                        |_, _, c| if c == 0 { qb.primitive_id } else { 0 },
                    )
                }
                SemanticName::SamplePos => {
                    batch.system.set_with(
                        name,
                        nq,
                        |_, _, c| if c < 2 { 0.5f32.to_bits() } else { 0 },
                    )
                }
                SemanticName::SampleMask => {
                    batch.system.set_with(name, nq, |_, _, c| if c == 0 { 1 } else { 0 })
                }
                _ => {}
            }
        }
        // Plane equations for INTERP_CENTROID / INTERP_SAMPLE / INTERP_OFFSET (only programs
        // with such instructions read them).
        if self.interpolates {
            let interp = &mut batch.interp;
            interp.coefs.clear();
            interp
                .coefs
                .extend(qb.planes.iter().map(|p| p.map(|p| p.coefs.map(|c| exec_coef(&c)))));
            interp.inv_w = Some(exec_coef(&qb.inv_w));
            interp.quad_origin.clear();
            interp.quad_origin.extend(qb.quads.iter().map(super::stage::Quad::origin));
            // No flat-shade state: COLOR inputs are perspective-correct (see docs/render.md).
            interp.flat_shade = false;
        }
        // The traced fragment: its quad, in the batch where the primitive covers its lane.
        let traced =
            self.watch.trace_at.filter(|_| super::watch::WATCHING).and_then(|(x, y, lane)| {
                qb.quads
                    .iter()
                    .position(|q| q.x as i32 == x && q.y as i32 == y && q.coverage >> lane & 1 != 0)
            });
        // Tracing draws only to find the traced quad: other batches (whose results the throwaway
        // image would hold) are not run, so they cannot spend the frame's budget first.
        if !self.watch.shades(traced.is_some()) {
            return Ok(());
        }
        if let Some(quad) = traced {
            let (trace, r) =
                self.machine.run_traced(program, batch, self.constants, &mut *self.hooks, quad);
            let machine = &self.machine;
            let input = |r: usize, c: usize| match batch.in_place {
                true => machine.input_lanes(program, r, c, quad),
                false => batch.inputs.get(batch.at(r, c, quad)).copied().unwrap_or_default(),
            };
            let inputs = (0..program.input_count() as usize)
                .map(|r| {
                    let channels = [0, 1, 2, 3].map(|c| input(r, c));
                    [0, 1, 2, 3].map(|l| [0, 1, 2, 3].map(|c| channels[c].0[l]))
                })
                .collect();
            if r.is_err() {
                // The frame stops here: this trace is the answer.
                self.watch.trace = Some(trace);
                self.watch.trace_inputs = Some(inputs);
            } else {
                // Kept once the pipeline says the traced lane was stored (`Self::stored`).
                self.watch.pending = Some((quad, trace, inputs));
            }
            r.map_err(|e| e.diagnostic)?;
        } else if let Some(image) = self.watch.probe.as_mut().filter(|_| super::watch::WATCHING) {
            let r = self.machine.run_probed(
                program,
                batch,
                self.constants,
                &mut *self.hooks,
                &mut image.probe,
            );
            image.keep(qb);
            r.map_err(|e| e.diagnostic)?;
        } else {
            self.machine
                .run_with(program, batch, self.constants, &mut *self.hooks)
                .map_err(|e| e.diagnostic)?;
        }
        Ok(())
    }
}

impl FragmentStage for ExecFragmentStage<'_> {
    fn stored(&mut self, live: &[u8]) {
        self.watch.stored(live);
    }

    fn shade(&mut self, qb: &QuadBatch, out: &mut QuadOutputs) -> Result<(), Diagnostic> {
        let nq = qb.quads.len();
        let program = self.program;
        let batch = self.batch_for(nq);
        let p_in = program.input_count() as usize;
        for reg in 0..p_in.min(qb.input_registers) {
            for c in 0..4 {
                let src = (reg * 4 + c) * nq;
                let dst = batch.at(reg, c, 0);
                if let (Some(s), Some(d)) =
                    (qb.inputs.get(src..src + nq), batch.inputs.get_mut(dst..dst + nq))
                {
                    for (d, s) in d.iter_mut().zip(s) {
                        *d = Lanes(s.map(f32::to_bits));
                    }
                }
            }
        }
        self.run_batch(qb, false)?;
        let Some(batch) = self.batch.as_ref() else { return Ok(()) };
        let p_out = program.output_count() as usize;
        for reg in 0..p_out.min(out.output_registers) {
            for c in 0..4 {
                let src = batch.at(reg, c, 0);
                let dst = (reg * 4 + c) * nq;
                if let (Some(s), Some(d)) =
                    (batch.outputs.get(src..src + nq), out.values.get_mut(dst..dst + nq))
                {
                    for (d, s) in d.iter_mut().zip(s) {
                        *d = s.0;
                    }
                }
            }
        }
        for (k, b) in out.killed.iter_mut().zip(batch.killed.iter()) {
            *k = *b;
        }
        Ok(())
    }

    fn in_place(&mut self) -> Option<&mut dyn InPlaceStage> {
        Some(self)
    }

    fn flush_denormals(&mut self, on: bool) -> bool {
        let Some(in_draw) = self.in_draw else { return false };
        let flushing = std::ptr::eq(self.program, in_draw);
        if on != flushing {
            self.program = if on { in_draw } else { self.plain };
            self.machine.swap_accel(&mut self.other_accel);
        }
        on
    }
}

impl InPlaceStage for ExecFragmentStage<'_> {
    fn input_rows(&mut self, quads: usize) -> crate::exec::RowsMut<'_> {
        self.machine.input_rows(self.program, quads)
    }

    fn run(&mut self, batch: &QuadBatch) -> Result<(), Diagnostic> {
        self.run_batch(batch, true)
    }

    fn outputs(&self) -> (crate::exec::Rows<'_>, &[u8]) {
        let killed = self.batch.as_ref().map_or(&[][..], |b| b.killed.as_slice());
        (self.machine.output_rows(self.program), killed)
    }

    fn fuse(&mut self, target: Option<(&super::framebuffer::TargetQuads, u32)>) -> bool {
        // A watched draw reads the outputs where the machine leaves them.
        let target = target
            .filter(|_| !self.watch.watches_fragments())
            .and_then(|(quads, colour)| Some((quads.region()?, colour)));
        self.machine.accel.as_mut().is_some_and(|a| a.fuse(target))
    }

    fn colour_records(&mut self, quads: usize) -> Option<(crate::exec::RowsMut<'_>, u32)> {
        self.machine.accel.as_mut()?.colour_records(quads)
    }

    fn colours_stored(&self) -> bool {
        self.machine.accel.as_ref().is_some_and(|a| a.colours_stored())
    }
}
