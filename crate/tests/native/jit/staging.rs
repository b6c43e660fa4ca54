//! `jit::plan`, the one statement of what a run copies between the machine's storage and a
//! module's memory (both runtimes follow it). Expected offsets worked out by hand from the
//! layouts: the machine keeps row `r` of `nq` quads at byte `r * nq * 16`; the module keeps row
//! `r` at byte `r * ROW_BYTES` (1024 quads of 16 bytes = 16 384).

use tgsi::jit::{plan, Copy, Layout, Side, Staging};

#[test]
fn a_plan_copies_the_staged_rows_and_the_kill_mask_and_fills_four_mask_rows() {
    // Five storage rows, masks from row 5 (exec 5, cond 6, loop 7, cont 8, kill 9).
    let layout = Layout { rows: 5, masks: 5, quad_rows: 11 };
    let staging = Staging { rows_in: vec![0, 2], rows_out: vec![3] };
    let p = plan(&layout, &staging, 3).expect("3 quads fit");
    let copy = |side, at, module, bytes| Copy { side, at, module, bytes };
    // 3 quads: 48 bytes a row. Row 2 at 96 in the machine, 32 768 in the module; kill (row 9)
    // at 147 456.
    assert_eq!(
        p.inputs,
        vec![
            copy(Side::Regs, 0, 0, 48),
            copy(Side::Regs, 96, 32_768, 48),
            copy(Side::Kill, 0, 147_456, 48)
        ]
    );
    assert_eq!(p.fills, vec![81_920..81_968, 98_304..98_352, 114_688..114_736, 131_072..131_120]);
    assert_eq!(
        p.outputs,
        vec![copy(Side::Regs, 144, 49_152, 48), copy(Side::Kill, 0, 147_456, 48)]
    );
    assert_eq!(p.nq, 3);
}

#[test]
fn no_plan_for_an_empty_batch_or_one_over_the_modules_quads() {
    let layout = Layout { rows: 1, masks: 1, quad_rows: 7 };
    let staging = Staging::default();
    assert!(plan(&layout, &staging, 0).is_none());
    assert!(plan(&layout, &staging, 1024).is_some());
    assert!(plan(&layout, &staging, 1025).is_none());
}
