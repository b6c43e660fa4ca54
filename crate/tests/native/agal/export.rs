//! TGSI → AGAL export: every lowering rule, checked by running the exported program on the AGAL
//! executor and comparing with the value TGSI defines, computed in the test from the formulas of
//! tgsi.rst as tgsi_exec evaluates them (tgsi_exec.c `micro_*`). The TGSI interpreter was not
//! on `main` when these tests were written, so the expected values are those formulas, not the
//! interpreter's output. Every exported program must also pass our AGAL validator.
#![allow(clippy::needless_range_loop, clippy::approx_constant, clippy::unnecessary_sort_by)]

use crate::agal_common::*;

type Formula = fn(Vec4, Vec4, Vec4) -> Vec4;

fn each(f: impl Fn(usize) -> f32) -> Vec4 {
    [f(0), f(1), f(2), f(3)]
}

/// Every arithmetic lowering rule, with the TGSI formula for the expected value.
#[test]
fn arithmetic_lowering_matches_tgsi_formulas() {
    let cases: &[(&str, Formula)] = &[
        ("MOV TEMP[0], IN[0].wzyx", |a, _, _| [a[3], a[2], a[1], a[0]]),
        ("ADD TEMP[0], IN[0], IN[1]", |a, b, _| each(|i| a[i] + b[i])),
        ("ADD TEMP[0], IN[0], -IN[1]", |a, b, _| each(|i| a[i] - b[i])),
        ("ADD TEMP[0], -IN[0], IN[1]", |a, b, _| each(|i| -a[i] + b[i])),
        ("ADD TEMP[0], -IN[0], -IN[1]", |a, b, _| each(|i| -a[i] + -b[i])),
        ("SUB TEMP[0], IN[0], IN[1]", |a, b, _| each(|i| a[i] - b[i])),
        ("MUL TEMP[0], IN[0], |IN[1]|", |a, b, _| each(|i| a[i] * b[i].abs())),
        ("MUL TEMP[0], IN[0], -|IN[1]|", |a, b, _| each(|i| a[i] * -b[i].abs())),
        ("DIV TEMP[0], IN[0], IN[1]", |a, b, _| each(|i| a[i] / b[i])),
        ("MIN TEMP[0], IN[0], IN[1]", |a, b, _| each(|i| a[i].min(b[i]))),
        ("MAX TEMP[0], IN[0], IN[1]", |a, b, _| each(|i| a[i].max(b[i]))),
        ("FRC TEMP[0], IN[0]", |a, _, _| each(|i| a[i] - a[i].floor())),
        ("FLR TEMP[0], IN[0]", |a, _, _| each(|i| a[i].floor())),
        ("CEIL TEMP[0], IN[0]", |a, _, _| each(|i| a[i].ceil())),
        ("ABS TEMP[0], IN[0]", |a, _, _| each(|i| a[i].abs())),
        ("MOV TEMP[0], |IN[0]|", |a, _, _| each(|i| a[i].abs())),
        ("SSG TEMP[0], IN[2]", |_, _, c| {
            each(|i| {
                if c[i] > 0.0 {
                    1.0
                } else if c[i] < 0.0 {
                    -1.0
                } else {
                    0.0
                }
            })
        }),
        // Scalar opcodes read src.x and replicate (tgsi.rst); formulas as tgsi_exec computes them.
        ("RCP TEMP[0], IN[0].yyyy", |a, _, _| [1.0 / a[1]; 4]),
        ("RSQ TEMP[0], |IN[0].y|", |a, _, _| [1.0 / a[1].abs().sqrt(); 4]),
        ("SQRT TEMP[0], |IN[0].x|", |a, _, _| [a[0].abs().sqrt(); 4]),
        ("EX2 TEMP[0], IN[1].z", |_, b, _| [2f32.powf(b[2]); 4]),
        ("LG2 TEMP[0], |IN[0].w|", |a, _, _| [a[3].abs().ln() * 1.442_695; 4]),
        ("POW TEMP[0], |IN[0].x|, IN[1].y", |a, b, _| [a[0].abs().powf(b[1]); 4]),
        ("SIN TEMP[0], IN[0].z", |a, _, _| [a[2].sin(); 4]),
        ("COS TEMP[0], IN[0].z", |a, _, _| [a[2].cos(); 4]),
        ("DP2 TEMP[0], IN[0], IN[1]", |a, b, _| [a[0] * b[0] + a[1] * b[1]; 4]),
        ("DP3 TEMP[0], IN[0], IN[1]", |a, b, _| [a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; 4]),
        ("DP4 TEMP[0], IN[0], IN[1]", |a, b, _| {
            [a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]; 4]
        }),
        ("MAD TEMP[0], IN[0], IN[1], IN[2]", |a, b, c| each(|i| a[i] * b[i] + c[i])),
        ("MAD TEMP[0], IN[0], IN[1], -IN[2]", |a, b, c| each(|i| a[i] * b[i] - c[i])),
        ("LRP TEMP[0], IN[2], IN[0], IN[1]", |a, b, c| each(|i| c[i] * (a[i] - b[i]) + b[i])),
        ("CMP TEMP[0], IN[2], IN[0], IN[1]", |a, b, c| {
            each(|i| if c[i] < 0.0 { a[i] } else { b[i] })
        }),
        ("SLT TEMP[0], IN[0], IN[1]", |a, b, _| each(|i| (a[i] < b[i]) as u8 as f32)),
        ("SGE TEMP[0], IN[0], IN[1]", |a, b, _| each(|i| (a[i] >= b[i]) as u8 as f32)),
        ("SGT TEMP[0], IN[0], IN[1]", |a, b, _| each(|i| (a[i] > b[i]) as u8 as f32)),
        ("SLE TEMP[0], IN[0], IN[1]", |a, b, _| each(|i| (a[i] <= b[i]) as u8 as f32)),
        ("SEQ TEMP[0], IN[0], IN[0].xyxy", |a, _, _| {
            each(|i| (a[i] == a[[0, 1, 0, 1][i]]) as u8 as f32)
        }),
        ("SNE TEMP[0], IN[0], IN[0].xyxy", |a, _, _| {
            each(|i| (a[i] != a[[0, 1, 0, 1][i]]) as u8 as f32)
        }),
        ("ADD_SAT TEMP[0], IN[0], IN[1]", |a, b, _| each(|i| (a[i] + b[i]).clamp(0.0, 1.0))),
        ("MUL TEMP[0], IN[0], IMM[0].yyyy", |a, _, _| each(|i| a[i] * 2.0)),
        ("XPD TEMP[0], IN[0], IN[1]", |a, b, _| {
            [a[1] * b[2] - b[1] * a[2], a[2] * b[0] - b[2] * a[0], a[0] * b[1] - b[0] * a[1], 1.0]
        }),
        ("NRM TEMP[0], IN[0]", |a, _, _| {
            let r = 1.0 / (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt();
            [a[0] * r, a[1] * r, a[2] * r, 1.0]
        }),
        // Lane-positional partial writes: z ← src.z, w ← src.w; x, y keep TGSI's initial zero.
        ("MOV TEMP[0].zw, IN[0]", |a, _, _| [0.0, 0.0, a[2], a[3]]),
        // A single-lane write reads that lane's component of the swizzle.
        ("MOV TEMP[0].w, IN[0].wzyx", |a, _, _| [0.0, 0.0, 0.0, a[0]]),
        ("MOV TEMP[0].y, IN[1].xwzy\n  ADD TEMP[0].x, TEMP[0].yyyy, IN[0]", |a, b, _| {
            [b[3] + a[0], b[3], 0.0, 0.0]
        }),
    ];
    let (a, b, c) = (lanes_a(), lanes_b(), lanes_c());
    for (body, formula) in cases {
        let (e, got) = frag(body);
        for l in 0..LANES {
            let want = formula(a[l], b[l], c[l]);
            assert!(
                same_bits(got[l], want),
                "{}: lane {}: got {:?}, want {:?}\n{}",
                body,
                l,
                got[l],
                want,
                e.assembly
            );
        }
    }
}

#[test]
fn single_lane_writes_use_replicated_swizzles() {
    // docs/agal.md "Semantics" 1: `mov ft0.w, v1` differs between Ruffle and the others; `.wwww`
    // does not.
    let (e, _) = frag("MOV TEMP[0].w, IN[0].wzyx");
    assert!(e.assembly.contains("mov ft0.w, v2.x\n"), "{}", e.assembly);
}

#[test]
fn vertex_matrix_pattern_becomes_m44_and_outputs_are_mapped() {
    let src = "VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL CONST[0..3]
DCL TEMP[0]
  DP4 TEMP[0].x, IN[0], CONST[0]
  DP4 TEMP[0].y, IN[0], CONST[1]
  DP4 TEMP[0].z, IN[0], CONST[2]
  DP4 TEMP[0].w, IN[0], CONST[3]
  MOV OUT[0], TEMP[0]
  MOV OUT[1], IN[1]
  END
";
    let e = export_ok(src, &ExportOptions::default());
    assert_eq!(e.version, 1);
    assert!(e.assembly.starts_with("m44 vt0, va0, vc0\n"), "{}", e.assembly);
    assert!(e.assembly.contains("mov op, vt0"), "{}", e.assembly);
    assert!(e.assembly.contains("mov v2, "), "{}", e.assembly);
    let m: [Vec4; 4] =
        [[1.0, 0.5, 0.0, 2.0], [0.0, -1.0, 3.0, 0.25], [0.5, 0.5, 0.5, 0.5], [0.0, 0.0, -2.0, 1.0]];
    let attrs = [lanes_a(), lanes_b()];
    let out = run(&e, &[], &attrs, &m, None);
    for l in 0..LANES {
        let a = attrs[0][l];
        let want = each(|r| a[0] * m[r][0] + a[1] * m[r][1] + a[2] * m[r][2] + a[3] * m[r][3]);
        assert!(same_bits(out.outputs[0][l], want), "lane {}", l);
        assert_eq!(out.varyings[2][l], attrs[1][l]);
    }
}

#[test]
fn three_dp3_become_m33() {
    let (e, got) = frag(
        "DP3 TEMP[0].x, IN[0], IMM[0]\n  DP3 TEMP[0].y, IN[0], IMM[0]\n  MOV TEMP[0].zw, IN[1]",
    );
    assert!(!e.assembly.contains("m33"), "immediates are not a matrix:\n{}", e.assembly);
    let _ = got;
    let src = format!("{}DCL CONST[0..2]\n  DP3 TEMP[0].x, IN[0], CONST[0]\n  DP3 TEMP[0].y, IN[0], CONST[1]\n  DP3 TEMP[0].z, IN[0], CONST[2]\n  MOV TEMP[0].w, IN[1]\n  MOV OUT[0], TEMP[0]\n  END\n", FS_HEAD);
    let e = export_ok(&src, &ExportOptions::default());
    assert!(e.assembly.contains("m33 ft0.xyz, v2, fc0"), "{}", e.assembly);
    let m: [Vec4; 3] = [[1.0, 2.0, 3.0, 9.0], [-1.0, 0.5, 0.25, 9.0], [0.0, 0.0, 1.0, 9.0]];
    let out = run(&e, &fs_varyings(), &[], &m, None);
    let a = lanes_a();
    for l in 0..LANES {
        let want = [0, 1, 2].map(|r| a[l][0] * m[r][0] + a[l][1] * m[r][1] + a[l][2] * m[r][2]);
        assert_eq!(&out.outputs[0][l][..3], &want[..]);
    }
}

/// Every opcode whose table row names an AGAL instruction (the `agal` column) lowers to that
/// instruction: the column is what the export uses, not a second list.
#[test]
fn the_agal_column_is_what_the_export_emits() {
    use tgsi::opcode::{Category, Opcode};
    let mut checked = 0;
    for op in Opcode::all() {
        let info = op.info();
        if info.agal.is_empty() {
            continue;
        }
        let srcs = (0..info.num_src).map(|k| format!("IN[{k}]")).collect::<Vec<_>>().join(", ");
        let body = match (op, info.category) {
            (Opcode::ELSE, _) => {
                "IF IN[0].xxxx\nMOV TEMP[0], IN[1]\nELSE\nMOV TEMP[0], IN[2]\nENDIF".to_string()
            }
            (Opcode::ENDIF, _) => "IF IN[0].xxxx\nMOV TEMP[0], IN[1]\nENDIF".to_string(),
            (_, Category::Texture) => "TEX TEMP[0], IN[0], SAMP[0], 2D".to_string(),
            (Opcode::KIL | Opcode::KILL_IF, _) => {
                format!("{} IN[0]\nMOV TEMP[0], IN[1]", info.name)
            }
            _ if info.num_dst == 0 => format!("{} {srcs}", info.name),
            _ => format!("{} TEMP[0], {srcs}", info.name),
        };
        let src = format!(
            "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL IN[1], GENERIC[1], PERSPECTIVE\nDCL IN[2], GENERIC[2], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL TEMP[0]\nDCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\n{body}\nMOV OUT[0], TEMP[0]\nEND\n"
        );
        let e = export(&parse(&src), &ExportOptions::default());
        let want = format!("{} ", info.agal);
        assert!(
            e.assembly.lines().any(|l| l.starts_with(&want) || l == info.agal),
            "{}: expected `{}` in\n{}\n{:?}",
            info.name,
            info.agal,
            e.assembly,
            e.diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>()
        );
        checked += 1;
    }
    assert!(checked >= 30, "only {checked} opcodes have an AGAL column");
}
