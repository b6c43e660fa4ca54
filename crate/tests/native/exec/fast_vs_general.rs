//! Differential test: every opcode with a fast kernel (`exec/kernels.rs`) gives, bit for bit,
//! what the general path (`exec/ops/*`) gives, over special bit patterns — ±0, denormals,
//! ±FLT_MIN/MAX, ±Inf, quiet and signalling NaNs with payloads, INT_MIN/MAX, −1, 2^24 ± 1,
//! shift counts past 31 — with and without source modifiers and `_SAT`, and with an operand
//! that is the destination itself. The general path is forced by clearing the decoded
//! instructions' kernels. The kernels' specialised loops (cargo feature `kernel-variants`: no
//! modifiers, in-place operands) are checked against the kernels' general loop too, which is
//! all the widget's lean engine runs (`kernels::decode_with(.., false)`).
//!
//! One allowance: when a float result is NaN in both paths, its payload and sign may differ.
//! Which NaN an operation returns when several operands are NaN (or an invalid operation meets
//! a NaN) depends on the order of the machine instruction's operands, and LLVM may commute an
//! addition differently in the two loops in an optimised build (tgsi.rst leaves NaN payloads
//! unspecified too). Every other bit pattern must match exactly.

use tgsi::exec::{Batch, Constants, Machine, Program};
use tgsi::fuzzing::SPECIAL_BITS;

/// Every kernel opcode with its number of sources and whether its sources are floats (float
/// modifiers and `_SAT` apply).
const OPS: &[(&str, usize, bool)] = &[
    ("MOV", 1, true),
    ("ADD", 2, true),
    ("SUB", 2, true),
    ("MUL", 2, true),
    ("DIV", 2, true),
    ("MAD", 3, true),
    ("MIN", 2, true),
    ("MAX", 2, true),
    ("DP2", 2, true),
    ("DP3", 2, true),
    ("DP4", 2, true),
    ("SLT", 2, true),
    ("SGE", 2, true),
    ("SEQ", 2, true),
    ("SNE", 2, true),
    ("SGT", 2, true),
    ("SLE", 2, true),
    ("FSLT", 2, true),
    ("FSGE", 2, true),
    ("FSEQ", 2, true),
    ("FSNE", 2, true),
    ("UADD", 2, false),
    ("UMUL", 2, false),
    ("IMIN", 2, false),
    ("IMAX", 2, false),
    ("UMIN", 2, false),
    ("UMAX", 2, false),
    ("ISGE", 2, false),
    ("ISLT", 2, false),
    ("USEQ", 2, false),
    ("USNE", 2, false),
    ("USGE", 2, false),
    ("USLT", 2, false),
    ("SHL", 2, false),
    ("ISHR", 2, false),
    ("USHR", 2, false),
    ("AND", 2, false),
    ("OR", 2, false),
    ("XOR", 2, false),
    ("NOT", 1, false),
    ("I2F", 1, false),
    ("U2F", 1, false),
    ("F2I", 1, true),
    ("F2U", 1, true),
];

fn program(text: &str) -> Program {
    let shader = tgsi::text::parse(text).shader.expect("test shader parses");
    tgsi::exec::build(&shader).unwrap_or_else(|d| panic!("{text}\n{d:?}"))
}

/// Runs `p` on one quad whose IN[k] channel c lane l holds `inputs[k][c][l]`; OUT[0] bits.
fn run(p: &Program, inputs: &[[[u32; 4]; 4]; 3]) -> [[u32; 4]; 4] {
    let mut b = Batch::new(p, 1);
    for (k, reg) in inputs.iter().enumerate().take(p.input_count() as usize) {
        for (c, lanes) in reg.iter().enumerate() {
            b.set_input(k, c, 0, tgsi::exec::Lanes(*lanes));
        }
    }
    Machine::new().run(p, &mut b, &Constants::default()).expect("runs");
    [0, 1, 2, 3].map(|c| b.output(0, c, 0).0)
}

#[test]
fn fast_kernels_equal_the_general_path_bit_for_bit() {
    let n = SPECIAL_BITS.len();
    let mut checked = 0;
    for &(op, nsrc, float) in OPS {
        // Plain, saturated (float results only), and with float source modifiers.
        let variants: Vec<(String, [&str; 3])> = if float {
            vec![
                (op.to_string(), ["", "", ""]),
                (format!("{op}_SAT"), ["", "", ""]),
                (op.to_string(), ["-", "|", "-|"]),
            ]
        } else {
            vec![(op.to_string(), ["", "", ""])]
        };
        for (name, mods) in variants {
            // Operand `own` (if any) is TEMP[0] itself, loaded from IN[own] first: the
            // in-place loop reads it lane by lane as it writes.
            let owns: Vec<Option<usize>> =
                if nsrc == 2 { vec![None, Some(0), Some(1)] } else { vec![None] };
            for own in owns {
                let srcs: Vec<String> = (0..nsrc)
                    .map(|k| {
                        let m = mods[k];
                        let close = if m.contains('|') { "|" } else { "" };
                        let reg =
                            if own == Some(k) { "TEMP[0]".to_string() } else { format!("IN[{k}]") };
                        format!("{m}{reg}{close}")
                    })
                    .collect();
                let load = own.map(|k| format!("MOV TEMP[0], IN[{k}]\n")).unwrap_or_default();
                let text = format!(
                "FRAG\nDCL IN[0..2]\nDCL OUT[0]\nDCL TEMP[0]\n{load}{name} TEMP[0], {}\nMOV OUT[0], TEMP[0]\nEND\n",
                srcs.join(", ")
            );
                let fast = program(&text);
                let at = usize::from(own.is_some());
                let kernel = fast.code.get(at).and_then(|i| i.kernel);
                assert!(
                    kernel.is_some(),
                    "{name}: no fast kernel was chosen, so this compares nothing"
                );
                // Dot products snapshot their sources instead (`kernels.rs`).
                if own.is_some() && mods == ["", "", ""] && !op.starts_with("DP") {
                    assert!(
                    kernel.is_some_and(|k| k.src.iter().flatten().any(|r| r.in_place)),
                    "{text}: the operand is not read in place, so the in-place loop is not tested"
                );
                }
                let mut general = fast.clone();
                for i in general.code.iter_mut() {
                    i.kernel = None;
                }
                let mut lean = fast.clone();
                for i in lean.code.iter_mut() {
                    if i.kernel.is_some() {
                        i.kernel = tgsi::exec::kernels::decode_with(i, false);
                        assert!(i.kernel.is_some_and(|k| !k.variants), "{text}: no lean kernel");
                    }
                }
                // Every pair (and triple, rotated) of special values, four lanes at a time.
                for start in (0..n * n).step_by(4) {
                    let mut inputs = [[[0u32; 4]; 4]; 3];
                    for l in 0..4 {
                        let idx = (start + l) % (n * n);
                        let (i, j) = (idx / n, idx % n);
                        for c in 0..4 {
                            inputs[0][c][l] = SPECIAL_BITS[(i + c) % n];
                            inputs[1][c][l] = SPECIAL_BITS[(j + 3 * c) % n];
                            inputs[2][c][l] = SPECIAL_BITS[(i + j + c) % n];
                        }
                    }
                    let (a, b) = (run(&fast, &inputs), run(&general, &inputs));
                    let c = run(&lean, &inputs);
                    let nan = |x: u32| f32::from_bits(x).is_nan();
                    let (a, b, c) = if float {
                        let canon = |v: [[u32; 4]; 4], w: [[u32; 4]; 4]| {
                            std::array::from_fn::<_, 4, _>(|c| {
                                std::array::from_fn::<_, 4, _>(|l| {
                                    if nan(v[c][l]) && nan(w[c][l]) {
                                        0x7fc0_0000
                                    } else {
                                        v[c][l]
                                    }
                                })
                            })
                        };
                        (canon(a, b), canon(b, a), canon(c, b))
                    } else {
                        (a, b, c)
                    };
                    assert_eq!(
                        a, b,
                        "{text}: fast {a:08x?} general {b:08x?} for inputs {inputs:08x?}"
                    );
                    assert_eq!(
                        c, b,
                        "{text}: lean {c:08x?} general {b:08x?} for inputs {inputs:08x?}"
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 10_000, "only {checked} quads compared");
}
