//! The interpreter's API: system values, interpolation (batch inputs and INTERP_*), texture
//! hooks, CLOCK, and the legacy flow opcodes. Expected values by hand or by the plane formula
//! a0 + dadx·x + dady·y (tgsi_exec.c `eval_linear_coef`).
use crate::exec_support::*;
use tgsi::exec::{Batch, Coef, Constants, Lanes, Machine, SampleRequest, TextureHooks};
use tgsi::ir::SemanticName;
use tgsi::texture::sample::Control;

#[test]
fn system_values_come_from_the_batch() {
    let p = program("FRAG\nDCL SV[0], SAMPLEID\nDCL SV[1], PRIM_ID\nDCL OUT[0]\nMOV OUT[0].x, SV[0].xxxx\nMOV OUT[0].y, SV[1].xxxx\nEND");
    let mut b = Batch::new(&p, 2);
    b.system.set_with(SemanticName::SampleId, 2, |q, l, _| (q * 10 + l) as u32);
    b.system.set_with(SemanticName::PrimId, 2, |_, _, _| 77);
    Machine::new().run(&p, &mut b, &Constants::default()).unwrap();
    assert_eq!(b.output(0, 0, 1).0, [10, 11, 12, 13]);
    assert_eq!(b.output(0, 1, 0).0, [77; 4]);
}

#[test]
fn batch_interpolation_and_interp_opcodes_use_the_plane_equations() {
    let text = "FRAG
        DCL IN[0], GENERIC[0], LINEAR
        DCL OUT[0..2]
        DCL TEMP[0]
        IMM FLT32 {0.25, -0.5, 0.0, 0.0}
        MOV OUT[0], IN[0]
        INTERP_OFFSET OUT[1], IN[0], IMM[0]
        INTERP_CENTROID OUT[2], IN[0]
        END";
    let p = program(text);
    let mut b = Batch::new(&p, 1);
    let cx = Coef { a0: 1.0, dadx: 2.0, dady: 10.0 };
    b.interp.coefs = vec![Some([cx; 4])];
    b.interp.quad_origin = vec![[4.0, 6.0]];
    b.interpolate(&p);
    Machine::new().run(&p, &mut b, &Constants::default()).unwrap();
    let at = |x: f32, y: f32| 1.0 + 2.0 * x + 10.0 * y;
    assert_eq!(b.output(0, 0, 0).f32s(), [at(4.0, 6.0), at(5.0, 6.0), at(4.0, 7.0), at(5.0, 7.0)]);
    assert_eq!(
        b.output(1, 0, 0).f32s(),
        [at(4.25, 5.5), at(5.25, 5.5), at(4.25, 6.5), at(5.25, 6.5)]
    );
    assert_eq!(b.output(2, 0, 0).f32s(), b.output(0, 0, 0).f32s());
}

#[test]
fn perspective_inputs_divide_by_interpolated_w() {
    let p = program("FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0]\nMOV OUT[0], IN[0]\nEND");
    let mut b = Batch::new(&p, 1);
    b.interp.coefs = vec![Some([Coef { a0: 6.0, dadx: 0.0, dady: 0.0 }; 4])];
    b.interp.inv_w = Some(Coef { a0: 2.0, dadx: 1.0, dady: 0.0 });
    b.interp.quad_origin = vec![[0.0, 0.0]];
    b.interpolate(&p);
    Machine::new().run(&p, &mut b, &Constants::default()).unwrap();
    assert_eq!(b.output(0, 0, 0).f32s(), [3.0, 2.0, 3.0, 2.0]);
}

/// A sampler that returns its inputs so the call shape can be checked.
struct Echo {
    calls: Vec<SampleRequest>,
}

impl TextureHooks for Echo {
    fn get_samples(&mut self, r: &SampleRequest) -> [[f32; 4]; 4] {
        self.calls.push(*r);
        let c = &r.request.coords;
        [c[0], c[1], c[3], c[4]]
    }
    fn get_dims(&mut self, sview: u32, level: i32) -> [i32; 4] {
        [64 >> level, 32 >> level, 1, sview as i32]
    }
    fn get_texel(
        &mut self,
        _: u32,
        i: [i32; 4],
        j: [i32; 4],
        _: [i32; 4],
        lod: [i32; 4],
        _: [i8; 3],
    ) -> [[u32; 4]; 4] {
        [i.map(|v| v as u32), j.map(|v| v as u32), lod.map(|v| v as u32), [0; 4]]
    }
}

#[test]
fn texture_opcodes_call_the_hooks_with_whole_quads() {
    let text = "FRAG
        DCL IN[0]
        DCL OUT[0..3]
        DCL SAMP[2]
        IMM INT32 {1, 0, 0, 0}
        TXP OUT[0], IN[0], SAMP[2], 2D
        TXB OUT[1], IN[0], SAMP[2], 2D
        TXQ OUT[2], IMM[0].xxxx, SAMP[2], 2D
        TXF OUT[3], IMM[0], SAMP[2], 2D
        END";
    let p = program(text);
    let mut b = Batch::new(&p, 1);
    b.set_input_f32(
        0,
        0,
        [[2.0, 4.0, 0.0, 2.0], [6.0, 8.0, 0.0, 2.0], [1.0, 1.0, 0.0, 1.0], [0.0, 0.0, 0.0, 4.0]],
    );
    let mut echo = Echo { calls: Vec::new() };
    Machine::new().run_with(&p, &mut b, &Constants::default(), &mut echo).unwrap();
    assert_eq!(echo.calls.len(), 2);
    assert_eq!(echo.calls[0].sview, 2);
    assert_eq!(echo.calls[0].request.control, Control::Implicit);
    assert_eq!(echo.calls[1].request.control, Control::Bias);
    // TXP divides s and t by w per lane.
    assert_eq!(b.output(0, 0, 0).f32s(), [1.0, 3.0, 1.0, 0.0]);
    assert_eq!(b.output(0, 1, 0).f32s(), [2.0, 4.0, 1.0, 0.0]);
    // TXB: the bias (src0.w) arrives as c1.
    assert_eq!(b.output(1, 3, 0).f32s(), [2.0, 2.0, 1.0, 4.0]);
    assert_eq!(b.output(2, 0, 0).0, [32; 4]);
    assert_eq!(b.output(2, 3, 0).0, [2; 4]);
    assert_eq!(b.output(3, 0, 0).0, [1; 4]);
}

#[test]
fn no_textures_bound_reads_zero() {
    let p =
        program("FRAG\nDCL IN[0]\nDCL OUT[0]\nDCL SAMP[0]\nTEX OUT[0], IN[0], SAMP[0], 2D\nEND");
    let mut b = Batch::new(&p, 1);
    b.set_input_f32(0, 0, [[1.0; 4]; 4]);
    Machine::new().run(&p, &mut b, &Constants::default()).unwrap();
    assert_eq!(b.output(0, 0, 0), Lanes::ZERO);
}

#[test]
fn clock_is_monotonic() {
    let p = program("FRAG\nDCL OUT[0..1]\nCLOCK OUT[0].xy\nNOP\nCLOCK OUT[1].xy\nEND");
    let mut b = Batch::new(&p, 1);
    Machine::new().run(&p, &mut b, &Constants::default()).unwrap();
    assert!(b.output(1, 0, 0).0[0] > b.output(0, 0, 0).0[0]);
}

#[test]
fn legacy_kil_kilp_ifc_breakc_callnz() {
    let text = "FRAG
        DCL IN[0]
        DCL OUT[0]
        DCL TEMP[0]
        IMM FLT32 {1.0, 0.0, 5.0, 0.0}
        KIL IN[0].yyyy
        MOV OUT[0], IMM[0].yyyy
        IFC IN[0].xxxx
          MOV OUT[0].x, IMM[0].xxxx
        ENDIF
        BGNLOOP
          ADD OUT[0].y, OUT[0].yyyy, IMM[0].xxxx
          SGE TEMP[0].x, OUT[0].yyyy, IMM[0].zzzz
          BREAKC TEMP[0].xxxx
        ENDLOOP
        CALLNZ IN[0].xxxx :12
        END
        BGNSUB
          MOV OUT[0].z, IMM[0].zzzz
        ENDSUB";
    let p = program(text);
    let mut b = Batch::new(&p, 1);
    b.set_input_f32(
        0,
        0,
        [[1.0, 0.0, 0.0, 0.0], [0.0, -1.0, 0.0, 0.0], [2.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]],
    );
    Machine::new().run(&p, &mut b, &Constants::default()).unwrap();
    assert_eq!(b.killed[0], 0b0010);
    assert_eq!(b.output(0, 0, 0).f32s(), [1.0, 0.0, 1.0, 0.0]);
    assert_eq!(b.output(0, 1, 0).f32s(), [5.0; 4]);
    assert_eq!(b.output(0, 2, 0).f32s(), [5.0, 0.0, 5.0, 0.0]);
    let p = program("FRAG\nDCL OUT[0]\nKILP\nEND");
    let mut b = Batch::new(&p, 1);
    Machine::new().run(&p, &mut b, &Constants::default()).unwrap();
    assert_eq!(b.killed[0], 0b1111);
}

#[test]
fn legacy_pusha_popa_and_ara() {
    // Address registers are only read as indices (V205): IMM[k] holds k, so
    // IMM[ADDR[0].c] shows the address value of channel c.
    let mut text = String::from("FRAG\nDCL IN[0]\nDCL OUT[0]\nDCL ADDR[0]\n");
    text.push_str("IMM FLT32 {2.5, -1.5, 0.0, 0.0}\n");
    for k in 1..=20 {
        text.push_str(&format!("IMM UINT32 {{{k}, {k}, {k}, {k}}}\n"));
    }
    text.push_str(
        "UARL ADDR[0], IN[0]
        PUSHA ADDR[0]
        ARA ADDR[0], IMM[0]
        MOV OUT[0].x, IMM[ADDR[0].x].xxxx
        MOV OUT[0].y, IMM[ADDR[0].y].xxxx
        POPA ADDR[0]
        MOV OUT[0].z, IMM[ADDR[0].x].xxxx
        MOV OUT[0].w, IMM[ADDR[0].y].xxxx
        END",
    );
    let r = eval_bits(&text, &[[10, 20, 0, 0]]);
    // ARA adds floor(2.5) = 2 and floor(-1.5) = -2; POPA restores (10, 20).
    assert_eq!(r, [12, 18, 10, 20]);
}

#[test]
fn bra_is_refused_with_a_diagnostic() {
    let e = crate::support::compile(&build("FRAG\nBRA :0\nEND")).unwrap_err();
    assert_eq!(e.code, "V116");
}

#[test]
fn interp_sample_uses_the_batch_sample_offsets() {
    let text = "FRAG
        DCL IN[0], GENERIC[0], LINEAR
        DCL OUT[0..1]
        IMM UINT32 {1, 7, 0, 0}
        INTERP_SAMPLE OUT[0], IN[0], IMM[0].xxxx
        INTERP_SAMPLE OUT[1], IN[0], IMM[0].yyyy
        END";
    let p = program(text);
    let mut b = Batch::new(&p, 1);
    b.interp.coefs = vec![Some([Coef { a0: 0.0, dadx: 1.0, dady: 100.0 }; 4])];
    b.interp.quad_origin = vec![[10.0, 20.0]];
    b.interp.sample_offsets = vec![[0.0, 0.0], [0.25, -0.25]];
    Machine::new().run(&p, &mut b, &Constants::default()).unwrap();
    let at = |x: f32, y: f32| x + 100.0 * y;
    // Sample 1 is offset by (0.25, -0.25); sample 7 does not exist: the centre is used.
    assert_eq!(
        b.output(0, 0, 0).f32s(),
        [at(10.25, 19.75), at(11.25, 19.75), at(10.25, 20.75), at(11.25, 20.75)]
    );
    assert_eq!(
        b.output(1, 0, 0).f32s(),
        [at(10.0, 20.0), at(11.0, 20.0), at(10.0, 21.0), at(11.0, 21.0)]
    );
}

#[test]
fn legacy_dfracexp_and_shr() {
    // DFRACEXP: dst0 = significand in [0.5, 1) as a double, dst1 = exponent as an integer in
    // both channels of the pair: 12 = 0.75 · 2^4, −0.375 = −0.75 · 2^-1.
    let text = "FRAG\nDCL IN[0]\nDCL OUT[0..1]\nDFRACEXP OUT[0], OUT[1], IN[0]\nEND";
    let v = 12f64.to_bits();
    let w = (-0.375f64).to_bits();
    let ins = [[[v as u32, (v >> 32) as u32, w as u32, (w >> 32) as u32]; 4]];
    let r = run_quad_bits(text, &ins, &Constants::default());
    let d = |o: [u32; 4], p: usize| f64::from_bits(o[2 * p] as u64 | (o[2 * p + 1] as u64) << 32);
    assert_eq!((d(r[0][0], 0), r[1][0][0], r[1][0][1]), (0.75, 4, 4));
    assert_eq!((d(r[0][0], 1), r[1][0][2] as i32, r[1][0][3] as i32), (-0.75, -1, -1));
    // SHR (2010) is an arithmetic shift of integers.
    assert_eq!(op_i("SHR", &[[-16, 16, -1, 5], [2, 2, 31, 33]]), [-4, 4, -1, 2]);
}

#[test]
fn sync_opcodes_are_harmless_no_ops_and_stage_opcodes_stay_in_their_stage() {
    let text = "FRAG\nDCL IN[0]\nDCL OUT[0]\nIMM[0] UINT32 {0, 0, 0, 0}\nNOP\nMEMBAR IMM[0].xxxx\nMOV OUT[0], IN[0]\nEND";
    assert_eq!(eval_bits(text, &[[1, 2, 3, 4]]), [1, 2, 3, 4]);
    // EMIT/ENDPRIM belong to geometry shaders and BARRIER to compute shaders: a fragment
    // shader using them is refused before it runs (V301), as `tgsi check` says.
    for op in ["EMIT IMM[0].xxxx", "ENDPRIM IMM[0].xxxx", "BARRIER"] {
        let t = format!("FRAG\nDCL OUT[0]\nIMM[0] UINT32 {{0, 0, 0, 0}}\n{op}\nEND");
        assert_eq!(crate::support::compile(&build(&t)).unwrap_err().code, "V301", "{op}");
    }
}

#[test]
fn interp_applies_source_modifiers() {
    let p = program(
        "FRAG\nDCL IN[0], GENERIC[0], LINEAR\nDCL OUT[0]\nINTERP_CENTROID OUT[0], -IN[0]\nEND",
    );
    let mut b = Batch::new(&p, 1);
    b.interp.coefs = vec![Some([Coef { a0: 2.0, dadx: 1.0, dady: 0.0 }; 4])];
    b.interp.quad_origin = vec![[0.0, 0.0]];
    Machine::new().run(&p, &mut b, &Constants::default()).unwrap();
    assert_eq!(b.output(0, 0, 0).f32s(), [-2.0, -3.0, -2.0, -3.0]);
}

#[test]
fn fragment_builtins_fill_position_and_face() {
    let p = program("FRAG\nDCL IN[0], POSITION, LINEAR\nDCL IN[1], FACE, CONSTANT\nDCL OUT[0]\nMUL OUT[0], IN[0], IN[1].xxxx\nEND");
    let mut b = Batch::new(&p, 1);
    let pos = [
        [0.5, 0.5, 0.25, 1.0],
        [1.5, 0.5, 0.25, 1.0],
        [0.5, 1.5, 0.25, 1.0],
        [1.5, 1.5, 0.25, 1.0],
    ];
    b.set_fragment_builtins(&p, 0, pos, false);
    Machine::new().run(&p, &mut b, &Constants::default()).unwrap();
    assert_eq!(b.output_f32(0, 0, 3), [-1.5, -1.5, -0.25, -1.0]);
}
