//! One case per validator rule (docs/agal.md "Opcodes", "Limits per version", "Semantics"; Flash's
//! message numbers): a small program breaking exactly that rule gets the Flash error number of the
//! rule. Programs the assembler cannot write (it refuses some of these itself) are built as bytes
//! or as models.

use tgsi::agal::{self, opc, Dest, Instruction, Program, RegType, Sampler, ShaderKind, Source};

fn asm(kind: ShaderKind, version: u32, text: &str) -> Program {
    let a = agal::assemble(text, kind, version);
    assert!(a.errors.is_empty(), "{}: {:?}", text, a.errors);
    a.program
}

fn codes(p: &Program) -> Vec<&'static str> {
    agal::validate(p).into_iter().map(|f| f.code).collect()
}

const V: ShaderKind = ShaderKind::Vertex;
const F: ShaderKind = ShaderKind::Fragment;

#[test]
fn rules_checked_on_assembled_programs() {
    let cases: &[(ShaderKind, u32, &str, &str)] = &[
        (V, 1, "nrm vt0, va0\nmov op, vt0", "A3628"),
        (V, 1, "crs vt0.xyzw, va0, va1\nmov op, vt0", "A3628"),
        (V, 1, "m33 vt0, va0, vc0\nmov op, vt0", "A3628"),
        (V, 1, "m34 vt0, va0, vc0\nmov op, vt0", "A3628"),
        (F, 1, "kil v0.xy\nmov oc, v0", "A3703"),
        (F, 2, "ife v0.xy, fc0.x\nmov ft0, v0\neif\nmov oc, v0", "A3703"),
        (V, 1, "mov op, vt0", "A3647"),
        (V, 1, "mov vt0.xy, va0\nmov op, vt0", "A3648"),
        (V, 1, "mov vt3.xyz, va0\nmov vt4, va0\nmov vt5, va0\nm44 op, va0, vt3", "A3648"),
        (V, 1, "mov v0.xy, va0\nmov op, va0", "A3633"),
        (V, 1, "mov op.xyz, va0", "A3635"),
        (F, 1, "mov oc.xyz, v0", "A3701"),
        (F, 1, "mov oc, v0\nmov oc, v1", "A3744"),
        (F, 1, "mov ft0, v0", "A3634"),
        (F, 2, "ife v0.x, fc0.x\nmov ft0, v0\nels\nmov ft0, v1\nels\nmov ft0, v1\neif\nmov oc, ft0", "A3752"),
        (F, 2, "ife v0.x, fc0.x\neif\nmov oc, v0", "A3748"),
        (F, 2, "ife v0.x, fc0.x\nmov ft0, v0\nmov oc, ft0", "A3739"),
        (F, 2, "ife fc0.x, fc1.x\nmov ft0, v0\neif\nmov oc, v0", "A3758"),
        (F, 2, "ife v0.x, fc0.x\nmov oc, v0\neif", "A3751"),
        (F, 2, "mov ft0, v0\nife v0.x, fc0.x\nddx ft0, v0\neif\nmov oc, ft0", "A3742"),
        (F, 2, "mov ft1, v0\nife v0.x, fc0.x\ntex ft0, ft1, fs0 <2d>\neif\nmov oc, v0", "A3741"),
        (F, 2, "ife v0.x, fc0.x\nife v0.x, fc0.x\nife v0.x, fc0.x\nife v0.x, fc0.x\nife v0.x, fc0.x\nmov ft0, v0\neif\neif\neif\neif\neif\nmov oc, v0", "A3624"),
        (F, 1, "tex ft0, v0, fs0 <cube,linear,repeat>\nmov oc, ft0", "A3662"),
        (F, 1, "tex ft0, v0, fs0 <2d,linear>\ntex ft1, v0, fs0 <2d,nearest>\nadd oc, ft0, ft1", "A3696"),
        (F, 1, "mov oc, fs0", "A3638"),
        (V, 1, "mov vt0, vc[va0.x+1]\nadd op, vt0, vc[va1.x+2]", ""),
        (V, 1, "add op, vc[va0.x+1], vc[va1.x+2]", "A3626"),
        (V, 1, "mov vt0, vc[vc0.x+1]\nmov op, vt0", ""),
        (V, 1, "mov vt0, vc[v0.x+1]\nmov op, vt0", "A3642"),
        (V, 1, "mov op, v0", "A3644"),
        (V, 1, "add op, va0, vc0", ""),
        (V, 1, "add op, vc0, vc1", "A3625"),
        (F, 2, "mov fd.xy, v0.x\nmov oc, v0", "A3756"),
        (F, 1, "mov fd.x, v0.x\nmov oc, v0", "A3749"),
    ];
    for (kind, version, text, want) in cases {
        let got = codes(&asm(*kind, *version, text));
        if want.is_empty() {
            assert!(got.is_empty(), "{}: {:?}", text, got);
        } else {
            assert!(got.contains(want), "{}: wanted {} in {:?}", text, want, got);
        }
    }
}

fn dest(reg: RegType, index: u16, mask: u8) -> Option<Dest> {
    Some(Dest { reg, index, mask })
}

fn src(reg: RegType, index: u16) -> Option<Source> {
    Some(Source::direct(reg, index, agal::SWIZZLE_IDENTITY))
}

fn ins(op: u8, d: Option<Dest>, a: Option<Source>, b: Option<Source>) -> Instruction {
    Instruction { op, dest: d, src1: a, src2: b, sampler: None }
}

/// Rules the assembler already enforces (so they need hand-built programs).
#[test]
fn rules_checked_on_built_programs() {
    let out_v = ins(opc::MOV, dest(RegType::Output, 0, 0xF), src(RegType::Attribute, 0), None);
    let out_f = ins(opc::MOV, dest(RegType::Output, 0, 0xF), src(RegType::Varying, 0), None);
    let cases: Vec<(ShaderKind, u32, Vec<Instruction>, &str)> = vec![
        (
            V,
            1,
            vec![
                ins(opc::DDX, dest(RegType::Temporary, 0, 0xF), src(RegType::Attribute, 0), None),
                out_v,
            ],
            "A3622",
        ),
        (
            F,
            1,
            vec![
                ins(opc::DDX, dest(RegType::Temporary, 0, 0xF), src(RegType::Varying, 0), None),
                out_f,
            ],
            "A3726",
        ),
        (
            F,
            1,
            vec![
                out_f,
                ins(opc::MOV, dest(RegType::Attribute, 0, 0xF), src(RegType::Varying, 0), None),
            ],
            "A3651",
        ),
        (
            F,
            1,
            vec![
                out_f,
                ins(opc::MOV, dest(RegType::Constant, 0, 0xF), src(RegType::Varying, 0), None),
            ],
            "A3652",
        ),
        (
            F,
            1,
            vec![
                out_f,
                ins(opc::MOV, dest(RegType::Varying, 0, 0xF), src(RegType::Varying, 0), None),
            ],
            "A3650",
        ),
        (
            F,
            1,
            vec![
                out_f,
                ins(opc::MOV, dest(RegType::Sampler, 0, 0xF), src(RegType::Varying, 0), None),
            ],
            "A3649",
        ),
        (
            F,
            1,
            vec![ins(opc::MOV, dest(RegType::Output, 0, 0xF), src(RegType::Attribute, 0), None)],
            "A3645",
        ),
        (
            V,
            1,
            vec![ins(opc::MOV, dest(RegType::Output, 0, 0xF), src(RegType::Output, 0), None)],
            "A3646",
        ),
        (
            V,
            1,
            vec![ins(opc::MOV, dest(RegType::Output, 0, 0xF), src(RegType::InstanceId, 0), None)],
            "A3789",
        ),
        (
            V,
            3,
            vec![ins(opc::MOV, dest(RegType::Output, 0, 0xF), src(RegType::InstanceId, 0), None)],
            "",
        ),
        (
            V,
            1,
            vec![ins(opc::MOV, dest(RegType::Output, 0, 0xF), src(RegType::Attribute, 8), None)],
            "A3658",
        ),
        (
            V,
            3,
            vec![ins(opc::MOV, dest(RegType::Output, 0, 0xF), src(RegType::Attribute, 15), None)],
            "",
        ),
        (
            V,
            1,
            vec![ins(opc::MOV, dest(RegType::Output, 0, 0xF), src(RegType::Constant, 128), None)],
            "A3659",
        ),
        (
            V,
            2,
            vec![ins(opc::MOV, dest(RegType::Output, 0, 0xF), src(RegType::Constant, 249), None)],
            "",
        ),
        (
            F,
            1,
            vec![
                out_f,
                ins(opc::MOV, dest(RegType::Temporary, 8, 0xF), src(RegType::Varying, 0), None),
            ],
            "A3661",
        ),
        (
            F,
            1,
            vec![
                out_f,
                ins(opc::MOV, dest(RegType::Temporary, 0, 0xF), src(RegType::Varying, 8), None),
            ],
            "A3657",
        ),
        (
            F,
            1,
            vec![
                ins(opc::MOV, dest(RegType::Output, 1, 0xF), src(RegType::Varying, 0), None),
                out_f,
            ],
            "A3660",
        ),
        (
            F,
            2,
            vec![
                ins(opc::MOV, dest(RegType::Output, 3, 0xF), src(RegType::Varying, 0), None),
                out_f,
            ],
            "",
        ),
        (
            V,
            1,
            vec![
                out_v,
                ins(opc::MOV, dest(RegType::Depth, 0, 1), src(RegType::Attribute, 0), None),
            ],
            "A3750",
        ),
        (
            F,
            1,
            vec![
                out_f,
                ins(opc::TED, dest(RegType::Temporary, 0, 0xF), src(RegType::Varying, 0), None),
            ],
            "A3621",
        ),
        (
            V,
            1,
            vec![
                out_v,
                ins(opc::TLD, dest(RegType::Temporary, 0, 0xF), src(RegType::Attribute, 0), None),
            ],
            "A3805",
        ),
        (
            F,
            1,
            vec![
                out_f,
                ins(opc::TLD, dest(RegType::Temporary, 0, 0xF), src(RegType::Varying, 0), None),
            ],
            "A3803",
        ),
        (F, 1, Vec::new(), "A3615"),
        (F, 1, vec![out_f; 201], "A3629"),
        (F, 2, vec![out_f; 201], "A3744"),
    ];
    for (i, (kind, version, code, want)) in cases.into_iter().enumerate() {
        let mut code = code;
        for c in code.iter_mut() {
            if matches!(c.op, opc::TED | opc::TLD) {
                c.sampler = Some(Sampler::new(0));
            }
        }
        let got = codes(&Program { version, kind, code });
        if want.is_empty() {
            assert!(got.is_empty(), "case {}: {:?}", i, got);
        } else {
            assert!(got.contains(&want), "case {}: wanted {} in {:?}", i, want, got);
        }
    }
}

#[test]
fn indirect_rules() {
    let ind = |reg: RegType, ireg: RegType| Source {
        reg,
        index: 1,
        swizzle: agal::SWIZZLE_IDENTITY,
        indirect: Some(agal::IndexReg { reg: ireg, index: 0, component: 0 }),
    };
    let mk = |kind, s: Source| Program {
        version: 1,
        kind,
        code: vec![ins(opc::MOV, dest(RegType::Output, 0, 0xF), Some(s), None)],
    };
    assert!(codes(&mk(F, ind(RegType::Constant, RegType::Temporary))).contains(&"A3639"));
    assert!(codes(&mk(V, ind(RegType::Attribute, RegType::Attribute))).contains(&"A3640"));
    assert!(codes(&mk(V, ind(RegType::Constant, RegType::Varying))).contains(&"A3642"));
    assert!(codes(&mk(V, ind(RegType::Constant, RegType::Attribute))).is_empty());
}

#[test]
fn linkage_rules() {
    let vs = asm(V, 1, "mov op, va0\nmov v0, va0");
    let fs = asm(F, 1, "add oc, v0, v1");
    let codes: Vec<_> = agal::validate_link(&vs, &fs).into_iter().map(|f| f.code).collect();
    assert_eq!(codes, vec!["A3632"]);
    let fs2 = asm(F, 2, "mov oc, v0");
    let codes: Vec<_> = agal::validate_link(&vs, &fs2).into_iter().map(|f| f.code).collect();
    assert_eq!(codes, vec!["A3757"]);
}
