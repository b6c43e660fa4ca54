//! In-place inputs and outputs: a caller that produces inputs and consumes outputs in the
//! interpreter's own layout (the render pipeline's fragment stage) writes them straight into the
//! machine's register rows and reads them from there, instead of going through `Batch::inputs`
//! and `Batch::outputs` (two copies of every value fewer). With a compiled form that offers its
//! own rows (`Accelerator::input_rows`, natively) the inputs are written into its memory and
//! the outputs read from there: no copy at all.
//!
//! ```text
//! let rows = machine.input_rows(&program, quads);   // fill rows.row_mut(register * 4 + channel, quads)
//! batch.in_place = true;                            // a batch of `quads` quads
//! machine.run(&program, &mut batch, &consts)?;
//! let out = machine.output_rows(&program);          // out.row(register * 4 + channel, quads)
//! ```

use super::lanes::Lanes;
use super::machine::Machine;
use super::program::Program;
use super::rows::{Rows, RowsMut};

impl Machine {
    /// Sizes the registers for a run of `program` over `quads` quads (at least 1) and returns
    /// its IN rows, row `register * 4 + channel` ([`RowsMut::row_mut`]); the caller fills them,
    /// then runs a batch of the same number of quads with `in_place` set. The rows are the
    /// machine's (`quads` apart) or, when its compiled form offers them, that form's own
    /// ([`Accelerator::input_rows`](super::accel::Accelerator::input_rows): the run then copies
    /// nothing in, and a batch the interpreter runs after all copies them from there). Runs
    /// neither clear nor write these rows, so after an in-place run of the same program and
    /// size they still hold what the caller wrote; after a change of size they are all zero;
    /// otherwise (a first call after runs through the `Batch` API or of another program) their
    /// contents are unspecified.
    pub fn input_rows(&mut self, program: &Program, quads: usize) -> RowsMut<'_> {
        let quads = quads.max(1);
        let l = program.layout;
        let total = l.rows as usize * quads;
        if self.regs.len() != total {
            // The run's set-up clears what it needs only when the size is unchanged.
            self.regs.clear();
            self.regs.resize(total, Lanes::ZERO);
            self.imm_filled = None;
        }
        let count = l.input.1 as usize * 4;
        let resized = self.inputs_placed != Some(quads);
        if let Some(mut rows) = self.accel.as_mut().and_then(|a| a.input_rows(quads)) {
            self.inputs_placed = Some(quads);
            if resized {
                // As the machine's own rows after a change of size: all zero.
                for k in 0..count {
                    rows.row_mut(k, quads).fill(Lanes::ZERO);
                }
            }
            return rows;
        }
        self.inputs_placed = None;
        let start = l.input.0 as usize * quads;
        let end = start + count * quads;
        RowsMut { lanes: self.regs.get_mut(start..end).unwrap_or_default(), stride: quads }
    }

    /// Exchanges the machine's compiled form with `other` (a render switching between a
    /// program and its flushing form, `render::shaders`). The rows the next `input_rows` gives
    /// are then cleared as after a change of size: the other form's memory may hold anything.
    pub fn swap_accel(&mut self, other: &mut Option<Box<dyn super::Accelerator>>) {
        std::mem::swap(&mut self.accel, other);
        self.inputs_placed = None;
    }

    /// Input channel `channel` of IN register `register` of quad `quad`, as the last run read
    /// it from the machine's own rows (the inspector's record of a traced quad's inputs).
    pub fn input_lanes(
        &self,
        program: &Program,
        register: usize,
        channel: usize,
        quad: usize,
    ) -> Lanes {
        let row = program.layout.input.0 as usize + register * 4 + channel;
        self.regs.get(row * self.nq + quad).copied().unwrap_or_default()
    }

    /// Before the interpreter runs an in-place batch whose inputs the caller wrote into the
    /// compiled form's rows (`input_rows`): copies them into the machine's IN rows.
    pub(super) fn take_placed_inputs(&mut self, program: &Program, nq: usize) {
        if self.inputs_placed != Some(nq) {
            return;
        }
        let l = program.layout;
        let Some(placed) = self.accel.as_mut().and_then(|a| a.input_rows(nq)) else { return };
        let rows = placed.rows();
        for k in 0..l.input.1 as usize * 4 {
            let at = (l.input.0 as usize + k) * nq;
            if let (Some(dst), src) = (self.regs.get_mut(at..at + nq), rows.row(k, nq)) {
                if src.len() == nq {
                    dst.copy_from_slice(src);
                }
            }
        }
    }

    /// The OUT rows of the last run: row `register * 4 + channel` holds the batch's quads in
    /// order (empty before any run). They are the machine's own rows, or, after an in-place run
    /// of a compiled form that left them in its memory, that memory's
    /// ([`Accelerator::kept_outputs`](super::accel::Accelerator::kept_outputs)).
    pub fn output_rows(&self, program: &Program) -> Rows<'_> {
        if self.outputs_kept {
            if let Some(rows) = self.accel.as_ref().and_then(|a| a.kept_outputs()) {
                return rows;
            }
        }
        let l = program.layout;
        let start = l.out.0 as usize * self.nq;
        let end = start + l.out.1 as usize * 4 * self.nq;
        Rows { lanes: self.regs.get(start..end).unwrap_or_default(), stride: self.nq }
    }
}

#[cfg(test)]
mod tests {
    use crate::exec::{build, Batch, Constants, Lanes, Machine};

    fn program(text: &str) -> crate::exec::Program {
        let parsed = crate::text::parse(text);
        build(&parsed.shader.expect("test shader parses")).expect("test shader compiles")
    }

    const SHADER: &str = "FRAG\nDCL IN[0]\nDCL IN[1]\nDCL OUT[0], COLOR\nDCL TEMP[0]\n\
        0: ADD TEMP[0], IN[0], IN[1]\n1: MUL OUT[0], TEMP[0], IN[1]\n2: END\n";

    /// Lanes of input register r, channel c, quad q: distinct small integers.
    fn input(r: usize, c: usize, q: usize) -> Lanes {
        Lanes::from_f32([0, 1, 2, 3].map(|l| (r * 100 + c * 10 + q * 4 + l) as f32))
    }

    #[test]
    fn in_place_rows_give_the_batch_results() {
        let p = program(SHADER);
        let consts = Constants::new();
        let nq = 3;
        // OUT[0] = (IN[0] + IN[1]) · IN[1], lane by lane.
        let expected = |c: usize, q: usize| -> [f32; 4] {
            let (a, b) = (input(0, c, q).f32s(), input(1, c, q).f32s());
            [0, 1, 2, 3].map(|l| (a[l] + b[l]) * b[l])
        };
        // The Batch API.
        let mut batch = Batch::new(&p, nq);
        for (r, c, q) in
            (0..2).flat_map(|r| (0..4).flat_map(move |c| (0..nq).map(move |q| (r, c, q))))
        {
            batch.set_input(r, c, q, input(r, c, q));
        }
        let mut m = Machine::new();
        m.run(&p, &mut batch, &consts).unwrap();
        // In place, twice on one machine (the second run must not see the first one's values).
        let mut direct = Machine::new();
        for round in 0..2 {
            let mut rows = direct.input_rows(&p, nq);
            assert_eq!((rows.lanes.len(), rows.stride), (2 * 4 * nq, nq));
            for (r, c, q) in
                (0..2).flat_map(|r| (0..4).flat_map(move |c| (0..nq).map(move |q| (r, c, q))))
            {
                rows.row_mut(r * 4 + c, nq)[q] =
                    if round == 0 { Lanes::splat_f(7.0) } else { input(r, c, q) };
            }
            let mut b = Batch::new(&p, nq);
            b.in_place = true;
            direct.run(&p, &mut b, &consts).unwrap();
            assert!(b.outputs.iter().all(|v| *v == Lanes::ZERO), "outputs are left in the machine");
            if round == 0 {
                // (7 + 7) · 7 = 98 everywhere.
                assert!(direct.output_rows(&p).lanes.iter().all(|v| v.f32s() == [98.0; 4]));
            }
        }
        let out = direct.output_rows(&p);
        assert_eq!((out.lanes.len(), out.stride), (4 * nq, nq));
        for c in 0..4 {
            for q in 0..nq {
                assert_eq!(out.row(c, nq)[q].f32s(), expected(c, q), "channel {} quad {}", c, q);
                assert_eq!(batch.output(0, c, q).f32s(), expected(c, q));
            }
        }
    }

    #[test]
    fn resizing_between_runs_starts_from_zero() {
        let p = program(SHADER);
        let consts = Constants::new();
        let mut m = Machine::new();
        for nq in [4, 2, 4] {
            m.input_rows(&p, nq).lanes.fill(Lanes::splat_f(1.0));
            let mut b = Batch::new(&p, nq);
            b.in_place = true;
            m.run(&p, &mut b, &consts).unwrap();
            // (1 + 1) · 1 = 2.
            assert_eq!(m.output_rows(&p).lanes.len(), 4 * nq);
            assert!(m.output_rows(&p).lanes.iter().all(|v| v.f32s() == [2.0; 4]));
        }
    }
}
