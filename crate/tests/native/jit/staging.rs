//! `jit::plan`, the one statement of what a run copies between the machine's storage and a
//! module's memory (both runtimes follow it). Expected offsets worked out by hand from the
//! layouts: the machine keeps row `r` of `nq` quads at byte `r * nq * 16`; the module keeps row
//! slot `s` at byte `s * ROW_BYTES` (1024 quads of 16 bytes = 16 384): first the rows copied
//! in, then the rows copied out, then the kill row, then the cached constants, 16 bytes each.

use tgsi::jit::{plan, Copy, Layout, Side};

#[test]
fn a_plan_copies_inputs_constants_outputs_and_the_kill_mask() {
    // IN rows 0 and 2 in slots 0 and 1, OUT row 3 in slot 2, kill in slot 3, constants (storage
    // rows 7 and 9) from 4 * 16 384 = 65 536.
    let layout = Layout {
        rows_in: vec![0, 2],
        rows_out: vec![3],
        consts: vec![7, 9],
        kill: true,
        sampling: false,
    };
    let p = plan(&layout, 3).expect("3 quads fit");
    let copy = |side, at, module, bytes| Copy { side, at, module, bytes };
    // 3 quads: 48 bytes a row. Row 2 at 96 in the machine, slot 1 at 16 384 in the module;
    // constant row 7 at 7 * 48 = 336 (quad 0's 16 bytes) to 65 536, row 9 at 432 to 65 552.
    assert_eq!(
        p.inputs,
        vec![
            copy(Side::Regs, 0, 0, 48),
            copy(Side::Regs, 96, 16_384, 48),
            copy(Side::Regs, 336, 65_536, 16),
            copy(Side::Regs, 432, 65_552, 16),
        ]
    );
    // Every quad starts its masks itself: nothing is filled, and kill is never copied in.
    assert!(p.fills.is_empty());
    // OUT row 3 at 144 from slot 2 (32 768); kill from slot 3 (49 152).
    assert_eq!(p.outputs, vec![copy(Side::Regs, 144, 32_768, 48), copy(Side::Kill, 0, 49_152, 48)]);
    assert_eq!(p.nq, 3);
}

#[test]
fn a_program_that_never_kills_copies_no_kill_mask_back() {
    let layout = Layout {
        rows_in: vec![1],
        rows_out: vec![4],
        consts: vec![],
        kill: false,
        sampling: false,
    };
    let p = plan(&layout, 2).expect("2 quads fit");
    // OUT row 4 of 2 quads at 4 * 32 = 128, from slot 1.
    assert_eq!(p.outputs, vec![Copy { side: Side::Regs, at: 128, module: 16_384, bytes: 32 }]);
}

#[test]
fn no_plan_for_an_empty_batch_or_one_over_the_modules_quads() {
    let layout = Layout::default();
    assert!(plan(&layout, 0).is_none());
    assert!(plan(&layout, 1024).is_some());
    assert!(plan(&layout, 1025).is_none());
}
