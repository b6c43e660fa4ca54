//! Export of control flow, kills, textures, derivatives, indirect constants, outputs, register
//! allocation and version choice. Expected values are written from the TGSI definitions
//! (tgsi.rst; derivatives and kill as tgsi_exec, tgsi_exec.c `exec_kill_if`, `micro_ddx`) in each
//! test.
#![allow(clippy::needless_range_loop, clippy::approx_constant, clippy::unnecessary_sort_by)]

use crate::agal_common::*;
use crate::support::export_pair;
use tgsi::agal::lower::SamplerState;

fn with_body(body: &str) -> String {
    format!("{}{}\n  MOV OUT[0], TEMP[0]\n  END\n", FS_HEAD, body)
}

fn max_temp(e: &Export) -> u16 {
    let p = e.program.as_ref().unwrap();
    let mut m = 0;
    for ins in &p.code {
        if let Some(d) = ins.dest.filter(|d| d.reg == agal::RegType::Temporary) {
            m = m.max(d.index);
        }
        for s in ins.sources().filter(|s| s.reg == agal::RegType::Temporary) {
            m = m.max(s.index);
        }
    }
    m
}

#[test]
fn if_else_needs_agal2_and_follows_each_lane() {
    let body = "SLT TEMP[1], IN[0], IN[1]
  IF TEMP[1].xxxx
    ADD TEMP[0], IN[0], IN[1]
  ELSE
    MUL TEMP[0], IN[0], IN[1]
  ENDIF";
    let src = with_body(body);
    let e = export_ok(&src, &ExportOptions::default());
    assert_eq!(e.version, 2, "ine/els/eif are AGAL 2 opcodes\n{}", e.assembly);
    assert!(
        e.assembly.contains("ine ft")
            && e.assembly.contains("els\n")
            && e.assembly.contains("eif\n"),
        "{}",
        e.assembly
    );
    let out = run(&e, &fs_varyings(), &[], &[], None);
    let (a, b) = (lanes_a(), lanes_b());
    for l in 0..LANES {
        let cond = a[l][0] < b[l][0];
        let want: Vec4 =
            std::array::from_fn(|c| if cond { a[l][c] + b[l][c] } else { a[l][c] * b[l][c] });
        assert!(same_bits(out.outputs[0][l], want), "lane {}", l);
    }
    // Asking for AGAL 1 is an error that names the version rule.
    let e1 = export(&parse(&src), &ExportOptions { version: Some(1), ..Default::default() });
    assert!(e1.program.is_none());
    assert!(
        e1.diagnostics.iter().any(|d| d.code == "A3726" && d.message.contains("version 2")),
        "{:?}",
        e1.diagnostics
    );
}

#[test]
fn empty_then_branch_becomes_the_inverted_test() {
    let body = "MOV TEMP[0], IN[1]
  SLT TEMP[1], IN[0], IN[1]
  IF TEMP[1].xxxx
  ELSE
    MOV TEMP[0], IN[0]
  ENDIF";
    let e = export_ok(&with_body(body), &ExportOptions::default());
    assert!(e.assembly.contains("ife ") && !e.assembly.contains("els"), "{}", e.assembly);
    let out = run(&e, &fs_varyings(), &[], &[], None);
    let (a, b) = (lanes_a(), lanes_b());
    for l in 0..LANES {
        assert_eq!(out.outputs[0][l], if a[l][0] < b[l][0] { b[l] } else { a[l] });
    }
}

#[test]
fn kill_if_emits_one_kil_per_distinct_component() {
    let e = export_ok(
        &with_body("KILL_IF IN[2].xyxy\n  MOV TEMP[0], IN[0]"),
        &ExportOptions::default(),
    );
    assert_eq!(e.assembly.matches("kil ").count(), 2, "{}", e.assembly);
    let out = run(&e, &fs_varyings(), &[], &[], None);
    let c = lanes_c();
    for l in 0..LANES {
        assert_eq!(out.killed[l], c[l][0] < 0.0 || c[l][1] < 0.0, "lane {}", l);
    }
    let e = export_ok(&with_body("KILL\n  MOV TEMP[0], IN[0]"), &ExportOptions::default());
    assert_eq!(run(&e, &fs_varyings(), &[], &[], None).killed, [true; 4]);
}

/// A made-up texture: the colour is the coordinates, w = 1 (enough to see which coordinates
/// reached the sampler).
fn coord_texture(_s: &Sampler, c: Vec4) -> Vec4 {
    [c[0], c[1], c[2], 1.0]
}

#[test]
fn textures_get_flags_from_target_and_sampler_state() {
    let src = format!(
        "{}DCL SAMP[0]\nDCL SAMP[1]\nDCL SAMP[2]\n  TEX TEMP[0], IN[0], SAMP[0], 2D\n  TEX TEMP[1], IN[1], SAMP[1], CUBE\n  TXP TEMP[2], IN[2], SAMP[2], 3D\n  ADD TEMP[0], TEMP[0], TEMP[1]\n  ADD TEMP[0], TEMP[0], TEMP[2]\n  MOV OUT[0], TEMP[0]\n  END\n",
        FS_HEAD
    );
    let mut opts = ExportOptions::default();
    opts.samplers.insert(0, SamplerState { filter: 0, mip: 2, wrap: 1 });
    let e = export_ok(&src, &opts);
    assert!(e.assembly.contains("fs0 <2d,nearest,miplinear,repeat>"), "{}", e.assembly);
    assert!(e.assembly.contains("fs1 <cube,linear,mipnone,clamp>"), "{}", e.assembly);
    assert!(e.assembly.contains("fs2 <3d,linear,mipnone,clamp>"), "{}", e.assembly);
    let out = run(&e, &fs_varyings(), &[], &[], Some(&coord_texture));
    let (a, b, c) = (lanes_a(), lanes_b(), lanes_c());
    for l in 0..LANES {
        // TXP divides x, y, z by w (tgsi.rst).
        let p = [c[l][0] / c[l][3], c[l][1] / c[l][3], c[l][2] / c[l][3], 1.0];
        let t0 = [a[l][0], a[l][1], a[l][2], 1.0];
        let t1 = [b[l][0], b[l][1], b[l][2], 1.0];
        let want: Vec4 = std::array::from_fn(|k| (t0[k] + t1[k]) + p[k]);
        assert!(
            same_bits(out.outputs[0][l], want),
            "lane {}: {:?} vs {:?}",
            l,
            out.outputs[0][l],
            want
        );
    }
}

#[test]
fn txb_with_an_immediate_bias_sets_the_bias_byte() {
    let src = format!("{}DCL SAMP[0]\nIMM[1] FLT32 {{ 0.25, 0.5, 0.0, -1.5 }}\n  TXB TEMP[0], IMM[1], SAMP[0], 2D\n  MOV OUT[0], TEMP[0]\n  END\n", FS_HEAD);
    let e = export_ok(&src, &ExportOptions::default());
    let tex = e.program.as_ref().unwrap().code.iter().find_map(|i| i.sampler).unwrap();
    // docs/agal.md "Sampler": bias byte = trunc(bias * 8) = -12.
    assert_eq!(tex.bias, -12);
    assert!(e.assembly.contains(",-1.5>"), "{}", e.assembly);
}

#[test]
fn derivatives_need_agal2_and_are_coarse() {
    let e = export_ok(
        &with_body("DDX TEMP[1], IN[0]\n  DDY TEMP[2], IN[0]\n  ADD TEMP[0], TEMP[1], TEMP[2]"),
        &ExportOptions::default(),
    );
    assert_eq!(e.version, 2);
    let out = run(&e, &fs_varyings(), &[], &[], None);
    let a = lanes_a();
    // Coarse: ddx = BR − BL (lanes 3 − 2), ddy = BL − TL (lanes 2 − 0), tgsi_exec.c
    // `micro_ddx`/`micro_ddy`.
    let want: Vec4 = std::array::from_fn(|c| (a[3][c] - a[2][c]) + (a[2][c] - a[0][c]));
    for l in 0..LANES {
        assert!(same_bits(out.outputs[0][l], want));
    }
}

#[test]
fn indirect_constants_in_vertex_programs() {
    let src = "VERT
DCL IN[0]
DCL IN[1]
DCL OUT[0], POSITION
DCL CONST[0..7]
DCL ADDR[0]
  ARL ADDR[0].x, IN[1].xxxx
  MOV OUT[0], CONST[ADDR[0].x+2]
  END
";
    let e = export_ok(src, &ExportOptions::default());
    assert!(e.assembly.contains("vc[vt0.x+2]"), "{}", e.assembly);
    let consts: Vec<Vec4> = (0..8).map(|i| [i as f32, 10.0 + i as f32, 0.5, 1.0]).collect();
    let idx: Quad = [[0.0; 4], [1.5, 0.0, 0.0, 0.0], [2.9, 0.0, 0.0, 0.0], [4.2, 0.0, 0.0, 0.0]];
    let out = run(&e, &[], &[lanes_a(), idx], &consts, None);
    // ARL floors: lanes read CONST[2 + 0], [2 + 1], [2 + 2], [2 + 4].
    for (l, k) in [2usize, 3, 4, 6].iter().enumerate() {
        assert_eq!(out.outputs[0][l], consts[*k]);
    }
}

#[test]
fn partial_output_writes_are_merged_and_written_once() {
    let src = format!("{}  MOV OUT[0].xyz, IN[0]\n  MOV OUT[0].w, IMM[0].yyyy\n  END\n", FS_HEAD);
    let e = export_ok(&src, &ExportOptions::default());
    assert_eq!(e.assembly.matches(" oc").count(), 1, "{}", e.assembly);
    let out = run(&e, &fs_varyings(), &[], &[], None);
    let a = lanes_a();
    for l in 0..LANES {
        assert_eq!(out.outputs[0][l], [a[l][0], a[l][1], a[l][2], 2.0]);
    }
    // Vertex position written partly: the rest is TGSI's initial zero, op is written in full.
    let vs = "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\n  MOV OUT[0].xy, IN[0]\n  END\n";
    let e = export_ok(vs, &ExportOptions::default());
    let out = run(&e, &[], &[lanes_a()], &[], None);
    assert_eq!(out.outputs[0][1], [2.5, -0.5, 0.0, 0.0]);
}

#[test]
fn second_color_output_and_depth_need_agal2() {
    let src = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL OUT[1], COLOR[1]\nDCL OUT[2], POSITION\n  MOV OUT[0], IN[0]\n  MOV OUT[1], IN[0].wzyx\n  MOV OUT[2].z, IN[0].xxxx\n  END\n";
    let e = export_ok(src, &ExportOptions::default());
    assert_eq!(e.version, 2);
    assert!(
        e.assembly.contains("mov oc1, ") && e.assembly.contains("mov fd.x, "),
        "{}",
        e.assembly
    );
    let out = run(&e, &fs_varyings(), &[], &[], None);
    let a = lanes_a();
    for l in 0..LANES {
        assert_eq!(out.outputs[1][l], [a[l][3], a[l][2], a[l][1], a[l][0]]);
        assert_eq!(out.depth[l], a[l][0]);
    }
}

#[test]
fn two_constant_sources_go_through_a_temporary() {
    let (e, got) = frag("ADD TEMP[0], IMM[0], IMM[0].yxwz");
    assert!(e.assembly.contains("mov ft"), "{}", e.assembly);
    assert_eq!(got[0], [2.5, 2.5, -1.0, -1.0]);
}

/// A chain of 12 temporaries, each dead after the next is computed: fits in AGAL 1's 8.
#[test]
fn allocation_fits_short_lived_temporaries_into_eight() {
    let mut body = String::from("MOV TEMP[4], IN[0]\n");
    for i in 5..16 {
        body.push_str(&format!("  ADD TEMP[{}], TEMP[{}], IN[{}]\n", i, i - 1, i % 3));
    }
    body.push_str("  MOV TEMP[0], TEMP[15]");
    let src = with_body(&body).replace("DCL TEMP[0..3]", "DCL TEMP[0..15]");
    let e = export_ok(&src, &ExportOptions::default());
    assert_eq!(e.version, 1);
    assert!(max_temp(&e) < 8, "{}", e.assembly);
    let out = run(&e, &fs_varyings(), &[], &[], None);
    let ins = [lanes_a(), lanes_b(), lanes_c()];
    for l in 0..LANES {
        let mut v = ins[0][l];
        for i in 5..16 {
            v = std::array::from_fn(|c| v[c] + ins[i % 3][l][c]);
        }
        assert!(same_bits(out.outputs[0][l], v));
    }
}

/// Ten values live at once do not fit in 8 temporaries: AGAL 2 is chosen, and asking for
/// AGAL 1 names the limit.
#[test]
fn too_many_live_temporaries_choose_agal2_or_name_the_limit() {
    let mut body = String::new();
    for i in 0..10 {
        body.push_str(&format!(
            "  ADD TEMP[{}], IN[{}], IMM[0].{}\n",
            i + 4,
            i % 3,
            ["xxxx", "yyyy", "zzzz", "wwww"][i % 4]
        ));
    }
    body.push_str("  MOV TEMP[0], TEMP[4]\n");
    for i in 5..14 {
        body.push_str(&format!("  MUL TEMP[0], TEMP[0], TEMP[{}]\n", i));
    }
    let src = with_body(&body).replace("DCL TEMP[0..3]", "DCL TEMP[0..13]");
    let e = export_ok(&src, &ExportOptions::default());
    assert_eq!(e.version, 2);
    let e1 = export(&parse(&src), &ExportOptions { version: Some(1), ..Default::default() });
    assert!(e1.program.is_none());
    assert!(
        e1.diagnostics.iter().any(|d| d.code == "A0201" && d.message.contains("AGAL 1 is 8")),
        "{:?}",
        e1.diagnostics
    );
}

#[test]
fn more_than_200_instructions_need_agal2() {
    let mut body = String::from("MOV TEMP[0], IN[0]\n");
    for _ in 0..205 {
        body.push_str("  ADD TEMP[0], TEMP[0], IN[1]\n");
    }
    let src = with_body(&body);
    assert_eq!(export_ok(&src, &ExportOptions::default()).version, 2);
    let e1 = export(&parse(&src), &ExportOptions { version: Some(1), ..Default::default() });
    assert!(
        e1.diagnostics.iter().any(|d| d.code == "A3629" && d.message.contains("limit of 200")),
        "{:?}",
        e1.diagnostics
    );
}

#[test]
fn pair_export_packs_varyings_and_links() {
    let vs = "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[5]\nDCL OUT[2], COLOR\n  MOV OUT[0], IN[0]\n  MOV OUT[1], IN[0].yxzw\n  MOV OUT[2], IN[0].wzyx\n  END\n";
    let fs =
        "FRAG\nDCL IN[0], GENERIC[5], PERSPECTIVE\nDCL OUT[0], COLOR\n  MOV OUT[0], IN[0]\n  END\n";
    let (a, b) = export_pair(&parse(vs), &parse(fs), &ExportOptions::default());
    let (pa, pb) = (a.program.unwrap(), b.program.unwrap());
    assert!(a.assembly.contains("mov v1, "), "COLOR → v0, GENERIC[5] → v1:\n{}", a.assembly);
    assert!(b.assembly.contains("mov oc, v1"), "{}", b.assembly);
    assert!(agal::validate_link(&pa, &pb).is_empty());
    assert_eq!(b.layout.varyings[0].register, "v1");
}

/// Immediates and internal values share constant registers: only the components read are
/// uploaded, each value once.
#[test]
fn layout_packs_immediates_and_internal_values() {
    let src = format!(
        "{}DCL CONST[0..1]\nIMM[1] FLT32 {{ 3.0, 0.5, 7.0, 8.0 }}\n  CMP TEMP[0], IN[0], CONST[1], IMM[0].yyyy\n  MUL TEMP[0], TEMP[0], IMM[1].xxxx\n  ADD TEMP[0], TEMP[0], IMM[1].yyyy\n  MOV OUT[0], TEMP[0]\n  END\n",
        FS_HEAD
    );
    let e = export_ok(&src, &ExportOptions::default());
    let text = e.layout.to_text();
    // IMM[1].y = 0.5 is IMM[0].x's value too, but IMM[0].x is never read: it takes a new slot.
    assert!(
        text.contains("fc0 = CONST[0]\nfc1 = CONST[1]\nfc2 = IMM[0].y, 0 (internal), IMM[1].x, IMM[1].y (2, 0, 3, 0.5)\n"),
        "{}",
        text
    );
    let json = serde_json::to_value(&e.layout).unwrap();
    assert_eq!(json["constants"][2]["values"][2], 3.0);
    let consts = [[9.0; 4], [7.0, 6.0, 5.0, 4.0]];
    let upload = e.layout.constant_values(&consts);
    assert_eq!(upload[1], [7.0, 6.0, 5.0, 4.0]);
    let out = run(&e, &fs_varyings(), &[], &consts, None);
    let a = lanes_a();
    for l in 0..LANES {
        let want: Vec4 =
            std::array::from_fn(|c| (if a[l][c] < 0.0 { consts[1][c] } else { 2.0 }) * 3.0 + 0.5);
        assert_eq!(out.outputs[0][l], want);
    }
}

#[test]
fn negated_immediates_are_folded_into_the_constants() {
    let (e, got) = frag("MUL TEMP[0], IN[0], -|IMM[0].zyxw|");
    assert!(!e.assembly.contains("neg") && !e.assembly.contains("abs"), "{}", e.assembly);
    let a = lanes_a();
    let imm = [-1.0f32, 2.0, 0.5, 0.0];
    for l in 0..LANES {
        let want: Vec4 = std::array::from_fn(|c| a[l][c] * -imm[c].abs());
        assert!(same_bits(got[l], want), "lane {}: {:?} vs {:?}", l, got[l], want);
    }
}

/// IF on a negated or constant condition still compares a replicated scalar (#3703, #3758).
#[test]
fn if_conditions_with_modifiers_and_constants() {
    let body = "IF -|IN[2].yyyy|\n    MOV TEMP[0], IN[0]\n  ELSE\n    MOV TEMP[0], IN[1]\n  ENDIF\n  IF IMM[0].wwww\n    ADD TEMP[0], TEMP[0], IN[1]\n  ENDIF";
    let e = export_ok(&with_body(body), &ExportOptions::default());
    let out = run(&e, &fs_varyings(), &[], &[], None);
    let (a, b, c) = (lanes_a(), lanes_b(), lanes_c());
    for l in 0..LANES {
        // -|c.y| != 0 for every lane here; IMM[0].w = 0 is false.
        assert_ne!(c[l][1], 0.0);
        assert_eq!(out.outputs[0][l], a[l], "lane {}", l);
    }
    let _ = b;
}

/// FSLT/FSGE and friends give all-ones or zero bits in TGSI; AGAL keeps them as 1.0/0.0 and the
/// boolean operations follow (tgsi.rst: AND/OR/NOT are bitwise, UCMP selects on non-zero bits).
#[test]
fn integer_booleans_from_comparisons() {
    let body = "FSGE TEMP[1], IN[0], IN[1]
  FSLT TEMP[2], IN[0], IN[2]
  OR TEMP[3], TEMP[1], TEMP[2]
  NOT TEMP[3], TEMP[3]
  UCMP TEMP[0], TEMP[3], IN[0], IN[1]
  FSLT TEMP[1].x, IN[1].xxxx, IN[2].xxxx
  AND TEMP[1].x, TEMP[1].xxxx, IMM[0].yyyy
  ADD TEMP[0].w, TEMP[0], TEMP[1].xxxx";
    let e = export_ok(&with_body(body), &ExportOptions::default());
    let out = run(&e, &fs_varyings(), &[], &[], None);
    let (a, b, c) = (lanes_a(), lanes_b(), lanes_c());
    for l in 0..LANES {
        let mut want: Vec4 = std::array::from_fn(|k| {
            let or = a[l][k] >= b[l][k] || a[l][k] < c[l][k];
            if !or {
                a[l][k]
            } else {
                b[l][k]
            }
        });
        // AND of the boolean with the bits of 2.0 is 2.0 or +0.
        let and = if b[l][0] < c[l][0] { 2.0 } else { 0.0 };
        want[3] += and;
        assert!(
            same_bits(out.outputs[0][l], want),
            "lane {}: {:?} vs {:?}\n{}",
            l,
            out.outputs[0][l],
            want,
            e.assembly
        );
    }
}

#[test]
fn booleans_used_as_numbers_are_refused() {
    let src = with_body("FSLT TEMP[1], IN[0], IN[1]\n  ADD TEMP[0], TEMP[1], IN[0]");
    let e = export(&parse(&src), &ExportOptions::default());
    assert!(e.program.is_none());
    assert!(
        e.diagnostics.iter().any(|d| d.message.contains("TEMP[1].x holds an integer boolean")),
        "{:?}",
        e.diagnostics
    );
    // A boolean on one path and a number on the other cannot be read after ENDIF.
    let src = with_body("MOV TEMP[1], IN[0]\n  IF IN[1].xxxx\n    FSLT TEMP[1], IN[0], IN[1]\n  ENDIF\n  AND TEMP[0], TEMP[1], IN[2]");
    let e = export(&parse(&src), &ExportOptions::default());
    assert!(
        e.diagnostics.iter().any(|d| d.message.contains("on some paths")),
        "{:?}",
        e.diagnostics
    );
}

/// A fragment input the vertex shader never writes is a linkage error (#3632).
#[test]
fn pair_export_reports_unwritten_varyings() {
    let vs = "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL OUT[1], GENERIC[0]\n  MOV OUT[0], IN[0]\n  MOV OUT[1], IN[0]\n  END\n";
    let fs = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL IN[1], GENERIC[1], PERSPECTIVE\nDCL OUT[0], COLOR\n  ADD OUT[0], IN[0], IN[1]\n  END\n";
    let (_, b) = export_pair(&parse(vs), &parse(fs), &ExportOptions::default());
    assert!(
        b.diagnostics.iter().any(|d| d.code == "A3632" && d.message.contains("v1")),
        "{:?}",
        b.diagnostics
    );
}
