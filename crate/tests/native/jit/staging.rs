//! `jit::plan`, the one statement of what a run copies between the machine's storage and a
//! module's memory (both runtimes follow it). Expected offsets worked out by hand from the
//! layouts: the machine keeps row `r` of `nq` quads at byte `r * nq * 16`; the module keeps row
//! slot `s` at byte `s * ROW_BYTES` (1024 quads of 16 bytes = 16 384): first the rows copied
//! in, then the rows copied out, then the kill row, then the cached constants, 16 bytes each,
//! the sampling scratch and the areas of the constant buffers read through an index.

use tgsi::exec::{Constants, Lanes};
use tgsi::jit::{plan, stage_in, BufferCopy, Copy, Layout, Side};

#[test]
fn a_plan_copies_inputs_constants_outputs_and_the_kill_mask() {
    // IN row 0 in slot 0, row 2 (an SV row) in slot 1, OUT row 3 in slot 2, kill in slot 3,
    // constants (storage rows 7 and 9) from 4 * 16 384 = 65 536.
    let layout = Layout {
        rows_in: vec![0, 2],
        in_slots: 1,
        in_read: vec![0],
        rows_out: vec![3],
        consts: vec![7, 9],
        kill: true,
        sampling: false,
        const_buffers: vec![],
        constants: 0,
        sample_rows: false,
        spills: vec![],
        colour: None,
    };
    let p = plan(&layout, 3).expect("3 quads fit");
    let copy = |side, at, module, bytes| Copy { side, at, module, bytes };
    // 3 quads: 48 bytes a row. Row 2 at 96 in the machine, slot 1 at 16 384 in the module;
    // constant row 7 at 7 * 48 = 336 (quad 0's 16 bytes) to 65 536, row 9 at 432 to 65 552.
    // The IN row apart (skipped when the render wrote it into the module in place).
    assert_eq!(p.in_rows, vec![copy(Side::Regs, 0, 0, 48)]);
    assert_eq!(
        p.inputs,
        vec![
            copy(Side::Regs, 96, 16_384, 48),
            copy(Side::Regs, 336, 65_536, 16),
            copy(Side::Regs, 432, 65_552, 16),
        ]
    );
    // Every quad starts its masks itself: nothing is filled, and kill is never copied in.
    // OUT row 3 at 144 from slot 2 (32 768); kill from slot 3 (49 152).
    assert_eq!(p.outputs, vec![copy(Side::Regs, 144, 32_768, 48), copy(Side::Kill, 0, 49_152, 48)]);
    assert_eq!(p.nq, 3);
}

/// IN registers 0 and 1 have slots 0..8 (every IN row, so that the render can fill them in
/// place); a program reading only IN[0].x and IN[1].y (slots 0 and 5) has only those copied in
/// when the render has not placed them: rows 0 and 5 of 2 quads (32 bytes each) at 0 and 160,
/// to slots 0 and 5 (5 x 16 384 = 81 920).
#[test]
fn only_the_in_rows_the_program_reads_are_copied_in() {
    let layout =
        Layout { rows_in: (0..8).collect(), in_slots: 8, in_read: vec![0, 5], ..Layout::default() };
    let p = plan(&layout, 2).expect("2 quads fit");
    let copy = |at, module| Copy { side: Side::Regs, at, module, bytes: 32 };
    assert_eq!(p.in_rows, vec![copy(0, 0), copy(160, 81_920)]);
    // And the code generator says which those are: IN[0].xy read, IN[1] declared and unread.
    let program = super::differential::program(
        "FRAG\nDCL IN[0].xy, GENERIC[0], PERSPECTIVE\nDCL IN[1], GENERIC[1], PERSPECTIVE\nDCL OUT[0], COLOR\n  0: ADD OUT[0], IN[0].xxxx, IN[0].yyyy\n  1: END\n",
    );
    let compiled = tgsi::jit::compile(&program).expect("compiled");
    assert_eq!(compiled.layout.in_slots, 8);
    assert_eq!(compiled.layout.in_read, vec![0, 1]);
}

#[test]
fn a_program_that_never_kills_copies_no_kill_mask_back() {
    let layout = Layout {
        rows_in: vec![1],
        in_slots: 1,
        in_read: vec![0],
        rows_out: vec![4],
        consts: vec![],
        kill: false,
        sampling: false,
        const_buffers: vec![],
        constants: 0,
        sample_rows: false,
        spills: vec![],
        colour: None,
    };
    let p = plan(&layout, 2).expect("2 quads fit");
    // OUT row 4 of 2 quads at 4 * 32 = 128, from slot 1.
    assert_eq!(p.outputs, vec![Copy { side: Side::Regs, at: 128, module: 16_384, bytes: 32 }]);
}

/// In a batch of 1024 quads a machine row is as long as a module row (16 384 bytes), so rows
/// that follow each other on both sides are one copy: IN rows 0..4 to slots 0..4 are 65 536
/// bytes from 0 to 0; OUT rows 4, 5, 6 (slots 4, 5, 6) 49 152 bytes from 4 x 16 384 = 65 536 to
/// 65 536, and OUT row 9 (slot 7 at 114 688, from 9 x 16 384 = 147 456) apart. With 1023 quads
/// a machine row is 16 368 bytes: nothing follows on both sides, one copy per row.
#[test]
fn rows_that_follow_each_other_on_both_sides_are_one_copy() {
    let layout = Layout {
        rows_in: vec![0, 1, 2, 3],
        in_slots: 4,
        in_read: vec![0, 1, 2, 3],
        rows_out: vec![4, 5, 6, 9],
        ..Layout::default()
    };
    let copy = |at, module, bytes| Copy { side: Side::Regs, at, module, bytes };
    let p = plan(&layout, 1024).expect("1024 quads fit");
    assert_eq!(p.in_rows, vec![copy(0, 0, 65_536)]);
    assert_eq!(p.outputs, vec![copy(65_536, 65_536, 49_152), copy(147_456, 114_688, 16_384)]);
    let p = plan(&layout, 1023).expect("1023 quads fit");
    assert_eq!(p.in_rows.len(), 4);
    assert_eq!(p.in_rows[1], copy(16_368, 16_384, 16_368));
    assert_eq!(p.outputs.len(), 4);
}

#[test]
fn no_plan_for_an_empty_batch_or_one_over_the_modules_quads() {
    let layout = Layout::default();
    assert!(plan(&layout, 0).is_none());
    assert!(plan(&layout, 1024).is_some());
    assert!(plan(&layout, 1025).is_none());
}

/// A layout with one IN row (slot 0), one OUT row (slot 1), the kill slot 2 (copied out only
/// for a program that kills), one cached constant at 3 x 16 384 = 49 152, the sampling scratch
/// at 49 168 (`jit::host::scratch`: 5 operands x 4 channels, 4 address channels, the exec mask
/// and 4 results = 29 slots of 16 bytes = 464 bytes), then the areas of constant buffers 0 and
/// 2, each 16 bytes of length, 4096 registers of 16 bytes (`limits::MAX_CONST_REGISTERS`) and
/// one zero register: 16 + 4097 x 16 = 65 568 bytes, at 49 632 and 115 200. The memory ends at
/// 180 768.
fn indexed() -> Layout {
    Layout {
        rows_in: vec![0],
        in_slots: 1,
        in_read: vec![0],
        rows_out: vec![1],
        consts: vec![5],
        kill: false,
        sampling: true,
        const_buffers: vec![0, 2],
        constants: 0,
        sample_rows: false,
        spills: vec![],
        colour: None,
    }
}

#[test]
fn constant_buffers_read_through_an_index_get_an_area_each() {
    let layout = indexed();
    let p = plan(&layout, 2).expect("2 quads fit");
    let area = |buffer, module| BufferCopy { buffer, module, capacity: 4096 };
    assert_eq!(p.buffers, vec![area(0, 49_632), area(2, 115_200)]);
    assert_eq!(layout.memory_bytes(), 180_768);
    // The cached constant (row 5 of 2 quads: 5 x 32 = 160) still goes to 49 152.
    assert_eq!(p.inputs[0], Copy { side: Side::Regs, at: 160, module: 49_152, bytes: 16 });
}

#[test]
fn staging_writes_each_buffers_length_and_registers_and_refuses_one_too_long() {
    let layout = indexed();
    let p = plan(&layout, 1).expect("1 quad fits");
    let mut mem = vec![0xaau8; layout.memory_bytes() as usize];
    let regs = vec![Lanes::default(); 8];
    let kill = vec![Lanes::default(); 1];
    // CONST[0] holds two registers; CONST[2] is not bound (length 0).
    let mut consts = Constants::new();
    consts.set_bits(0, 0, [1, 2, 3, 4]);
    consts.set_bits(0, 1, [0x0102_0304, 6, 7, 0xffff_ffff]);
    // Without the IN rows (the render wrote them in place): slot 0 keeps its bytes.
    assert!(stage_in(&p, &regs, &kill, &consts, &mut mem, false));
    assert_eq!(&mem[..16], &[0xaa; 16]);
    assert!(stage_in(&p, &regs, &kill, &consts, &mut mem, true));
    assert_eq!(&mem[..16], &[0; 16], "IN row 0 of quad 0 copied");
    let word = |mem: &[u8], at: usize| {
        u32::from_le_bytes([mem[at], mem[at + 1], mem[at + 2], mem[at + 3]])
    };
    assert_eq!(word(&mem, 49_632), 2, "CONST[0]'s length");
    // Registers from 49 632 + 16 = 49 648: CONST[0][1].x at 49 664, little-endian.
    let regs0: Vec<u32> = (0..8).map(|k| word(&mem, 49_648 + 4 * k)).collect();
    assert_eq!(regs0, [1, 2, 3, 4, 0x0102_0304, 6, 7, 0xffff_ffff]);
    assert_eq!(&mem[49_664..49_668], &[4, 3, 2, 1]);
    assert_eq!(word(&mem, 115_200), 0, "CONST[2] is not bound");
    // Past the bound registers the area is not written (the module reads the length first).
    assert_eq!(word(&mem, 49_680), 0xaaaa_aaaa);
    // A buffer of 4097 registers does not fit its area: the batch goes to the interpreter.
    let mut long = Constants::new();
    long.buffers = vec![vec![[0; 4]; 4097]];
    assert!(!stage_in(&p, &regs, &kill, &long, &mut mem, true));
    long.buffers[0].pop();
    assert!(stage_in(&p, &regs, &kill, &long, &mut mem, true));
    assert_eq!(word(&mem, 49_632), 4096);
}

/// The in-place inputs of a batch the module hands back go to the interpreter: the machine
/// offers the module's IN rows (1024 quads apart), the caller fills them, the accelerator
/// refuses the run (as when the budget would run out), and the interpreter reads them from
/// there. Expected by hand: OUT[0] = IN[0] + IN[1] = 1 + 4q + l + 10, OUT[1] = 2·IN[1].
#[test]
fn inputs_written_into_the_module_reach_the_interpreter_when_it_takes_the_batch() {
    use super::differential::program;
    use tgsi::exec::{AccelEnv, Accelerator, Batch, Machine, MakeAccelerator, Rows, RowsMut};
    use tgsi::jit::native::NativeProgram;
    /// Offers the module's rows, then refuses every run.
    struct Refusing(Box<dyn Accelerator>);
    impl Accelerator for Refusing {
        fn run(
            &mut self,
            _: &mut [Lanes],
            _: &mut [Lanes],
            _: usize,
            _: u64,
            _: &mut AccelEnv,
        ) -> Option<u64> {
            None
        }
        fn kept_outputs(&self) -> Option<Rows<'_>> {
            None
        }
        fn input_rows(&mut self, nq: usize) -> Option<RowsMut<'_>> {
            self.0.input_rows(nq)
        }
    }
    let p = program(
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL IN[1], GENERIC[1], PERSPECTIVE\n\
         DCL OUT[0], COLOR\nDCL OUT[1], COLOR[1]\n\
         0: ADD OUT[0], IN[0], IN[1]\n1: ADD OUT[1], IN[1], IN[1]\n2: END\n",
    );
    let native = NativeProgram::new(&p).unwrap_or_else(|u| panic!("not compiled: {}", u.reason));
    let mut m = Machine::new();
    m.accel = Some(Box::new(Refusing(native.make().expect("instance"))));
    let consts = Constants::new();
    for nq in [3, 7, 7] {
        let mut rows = m.input_rows(&p, nq);
        assert_eq!(rows.stride, 1024, "the module's rows");
        for c in 0..4 {
            for (q, v) in rows.row_mut(c, nq).iter_mut().enumerate() {
                *v = Lanes([0, 1, 2, 3].map(|l| ((1 + 4 * q + l) as f32).to_bits()));
            }
            rows.row_mut(4 + c, nq).fill(Lanes::splat_f(10.0));
        }
        let mut b = Batch::new(&p, nq);
        b.in_place = true;
        m.run(&p, &mut b, &consts).expect("runs");
        let out = m.output_rows(&p);
        assert_eq!(out.stride, nq, "the interpreter's rows");
        for c in 0..4 {
            for q in 0..nq {
                let sum = [0, 1, 2, 3].map(|l| (1 + 4 * q + l) as f32 + 10.0);
                assert_eq!(out.row(c, nq)[q].f32s(), sum, "OUT[0].{c} quad {q} of {nq}");
                assert_eq!(out.row(4 + c, nq)[q].f32s(), [20.0; 4], "OUT[1].{c} quad {q}");
            }
        }
    }
}

/// An in-place batch (the render's) run through the module leaves its OUT rows in the module's
/// memory, where `Machine::output_rows` reads them, 1024 quads (`ROW_BYTES / 16`) apart, with
/// the values the interpreter leaves in its own rows: worked out by hand, OUT[0].xyz = 2·IN[0],
/// OUT[0].w (never written) 0, OUT[1] = IN[0]·IN[0]. Through the `Batch` API the outputs are
/// copied as before.
#[test]
fn in_place_outputs_are_read_from_the_modules_memory() {
    use super::differential::{counting_machine, program, Tally};
    use tgsi::exec::{Batch, Machine, DEFAULT_BUDGET};
    use tgsi::jit::native::NativeProgram;
    let p = program(
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL OUT[1], COLOR[1]\n\
         0: ADD OUT[0].xyz, IN[0], IN[0]\n1: MUL OUT[1], IN[0], IN[0]\n2: END\n",
    );
    let nq = 5;
    // IN[0] channel c of quad q, lane l: c + 4q + l/4 (exact in f32, as are the results).
    let x = |c: usize, q: usize, l: usize| (c + 4 * q) as f32 + l as f32 / 4.0;
    let expected = |reg: usize, c: usize, q: usize, l: usize| match (reg, c) {
        (0, 3) => 0.0,
        (0, _) => 2.0 * x(c, q, l),
        _ => x(c, q, l) * x(c, q, l),
    };
    let native = NativeProgram::new(&p).unwrap_or_else(|u| panic!("not compiled: {}", u.reason));
    let tally = Tally::default();
    let mut jit = counting_machine(&native, DEFAULT_BUDGET, &tally).expect("instance");
    let mut interp = Machine::new();
    let consts = Constants::new();
    for (name, m, stride) in [("interpreter", &mut interp, nq), ("jit", &mut jit, 1024)] {
        let mut rows = m.input_rows(&p, nq);
        assert_eq!(rows.stride, stride, "{name}: where the inputs go");
        for c in 0..4 {
            for (q, v) in rows.row_mut(c, nq).iter_mut().enumerate() {
                *v = Lanes([0, 1, 2, 3].map(|l| x(c, q, l).to_bits()));
            }
        }
        let mut b = Batch::new(&p, nq);
        b.in_place = true;
        m.run(&p, &mut b, &consts).expect("runs");
        let out = m.output_rows(&p);
        assert_eq!(out.stride, stride, "{name}: where the rows are");
        for (reg, c, q) in
            (0..2).flat_map(|r| (0..4).flat_map(move |c| (0..nq).map(move |q| (r, c, q))))
        {
            let got = out.row(reg * 4 + c, nq).get(q).map(|v| v.f32s());
            assert_eq!(
                got,
                Some([0, 1, 2, 3].map(|l| expected(reg, c, q, l))),
                "{name}: OUT[{reg}] channel {c} quad {q}"
            );
        }
    }
    assert_eq!(tally.done.load(std::sync::atomic::Ordering::Relaxed), 1, "the module ran it");
    // The same batch through the Batch API: copied into `Batch::outputs`.
    let mut b = Batch::new(&p, nq);
    for c in 0..4 {
        for q in 0..nq {
            b.set_input(0, c, q, Lanes([0, 1, 2, 3].map(|l| x(c, q, l).to_bits())));
        }
    }
    jit.run(&p, &mut b, &consts).expect("runs");
    assert_eq!(jit.output_rows(&p).stride, nq, "not kept: the machine's rows");
    for c in 0..4 {
        for q in 0..nq {
            assert_eq!(b.output(1, c, q).f32s(), [0, 1, 2, 3].map(|l| expected(1, c, q, l)));
            assert_eq!(b.output(0, c, q).f32s(), [0, 1, 2, 3].map(|l| expected(0, c, q, l)));
        }
    }
}

/// Batched sampling keeps its rows after the constant buffers' areas: `indexed()` with two
/// register rows kept between passes and the kill mask. ROW_BYTES is 1024 quads x 16 bytes =
/// 16 384. The kept rows start where the areas end (180 768); three rows (two registers, the
/// kill mask) = 49 152 bytes, so the sampling rows start at 229 920; 29 slot rows (20 operand
/// channels, 4 address channels, the exec mask, 4 results) of 16 384 + 64 bytes (the padding
/// that keeps rows out of each other's cache sets) = 476 992 bytes, and the memory ends at
/// 706 912.
#[test]
fn batched_sampling_rows_follow_the_buffer_areas() {
    let layout = Layout { kill: true, sample_rows: true, spills: vec![7, 9], ..indexed() };
    assert_eq!(tgsi::jit::codegen::ROW_BYTES, 16_384);
    assert_eq!(layout.spill_base(), 180_768);
    assert_eq!(layout.sample_rows_base(), 229_920);
    assert_eq!(layout.constant_table(), 706_912);
    assert_eq!(layout.memory_bytes(), 706_912);
    // The buffers' areas and the constants stay where they were.
    let p = plan(&layout, 2).expect("2 quads fit");
    assert_eq!(p.buffers[1].module, 115_200);
}
