//! Unit tests on hand-built IR (see `testkit`). Each failing program has a passing neighbour.

use super::testkit::*;
use super::{check, match_blocks, Options};
use crate::diag::Diagnostic;
use crate::ir::*;
use crate::opcode::Opcode;

fn run(s: &Shader) -> Vec<Diagnostic> {
    check(s, &Options::default())
}

fn errors(s: &Shader) -> Vec<&'static str> {
    run(s).iter().filter(|d| d.is_error()).map(|d| d.code).collect()
}

#[test]
fn a_minimal_fragment_shader_is_clean() {
    let s = frag_with(|b| b);
    assert_eq!(codes(&run(&s)), Vec::<&str>::new());
}

#[test]
fn undeclared_and_declared_registers() {
    let bad = frag_with(|b| {
        b.op(Opcode::MOV, vec![dst(reg(File::Temp, 1), 0xF)], vec![src(reg(File::Temp, 0))])
    });
    let d = run(&bad);
    let v5: Vec<_> = d.iter().filter(|x| x.code == "V005").collect();
    assert_eq!(v5.len(), 1);
    assert_eq!(v5[0].span, Span::default()); // the builder's operand span
    let good = frag_with(|b| {
        b.op(Opcode::MOV, vec![dst(reg(File::Temp, 0), 0xF)], vec![src(reg(File::Temp, 0))])
    });
    assert_eq!(errors(&good), Vec::<&str>::new());
}

#[test]
fn huge_declarations_are_intervals_not_allocations() {
    let s = Builder::new(Processor::Fragment)
        .dcl(File::Temp, 0, 4_000_000_000)
        .op(
            Opcode::MOV,
            vec![dst(reg(File::Temp, 3_999_999_999), 0xF)],
            vec![src(reg(File::Temp, 0))],
        )
        .flow(Opcode::END)
        .build();
    let d = run(&s);
    assert_eq!(codes(&d), vec!["V501"], "{:?}", d);
}

#[test]
fn duplicate_declarations_point_at_the_first() {
    let s = Builder::new(Processor::Fragment)
        .dcl(File::Temp, 0, 3)
        .dcl(File::Temp, 3, 5)
        .flow(Opcode::END)
        .build();
    let d: Vec<_> = run(&s).into_iter().filter(|x| x.code == "V008").collect();
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].span, decl_span(1));
    assert_eq!(d[0].related[0].span, decl_span(0));
    let ok = Builder::new(Processor::Fragment)
        .dcl(File::Temp, 0, 3)
        .dcl(File::Temp, 4, 5)
        .flow(Opcode::END)
        .build();
    assert!(!errors(&ok).contains(&"V008"));
}

#[test]
fn if_else_endif_targets() {
    // 0 IF, 1 ELSE, 2 ENDIF, 3 END
    let s = Builder::new(Processor::Fragment)
        .dcl(File::Temp, 0, 0)
        .flow(Opcode::IF)
        .flow(Opcode::ELSE)
        .flow(Opcode::ENDIF)
        .flow(Opcode::END)
        .build();
    let t = match_blocks(&s).expect("well formed");
    let at = |i: usize| t.iter().find(|x| x.at == i).map(|x| (x.partner, x.end));
    assert_eq!(at(0), Some((1, 2)));
    assert_eq!(at(1), Some((2, 2)));
    assert_eq!(at(2), Some((0, 2)));
}

#[test]
fn unclosed_if_and_stray_endif() {
    let s = Builder::new(Processor::Fragment)
        .dcl(File::Temp, 0, 0)
        .flow(Opcode::IF)
        .flow(Opcode::END)
        .build();
    let d = run(&s);
    let v: Vec<_> = d.iter().filter(|x| x.code == "V103").collect();
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].span, ins_span(0));
    assert_eq!(v[0].related[0].span, ins_span(1));
    let s = Builder::new(Processor::Fragment).flow(Opcode::ENDIF).flow(Opcode::END).build();
    assert_eq!(errors(&s), vec!["V102"]);
}

#[test]
fn mismatched_nesting() {
    // IF, BGNLOOP, ENDIF, ENDLOOP, END
    let s = Builder::new(Processor::Fragment)
        .dcl(File::Temp, 0, 0)
        .flow(Opcode::IF)
        .flow(Opcode::BGNLOOP)
        .flow(Opcode::ENDIF)
        .flow(Opcode::ENDLOOP)
        .flow(Opcode::END)
        .build();
    assert_eq!(errors(&s), vec!["V104", "V102"]);
}

#[test]
fn brk_cont_placement() {
    let s = Builder::new(Processor::Fragment).flow(Opcode::BRK).flow(Opcode::END).build();
    assert_eq!(errors(&s), vec!["V105"]);
    let s = Builder::new(Processor::Fragment)
        .dcl(File::Temp, 0, 0)
        .flow(Opcode::SWITCH)
        .flow(Opcode::CASE)
        .flow(Opcode::CONT)
        .flow(Opcode::BRK)
        .flow(Opcode::ENDSWITCH)
        .flow(Opcode::END)
        .build();
    assert_eq!(errors(&s), vec!["V106"]);
    let s = Builder::new(Processor::Fragment)
        .flow(Opcode::BGNLOOP)
        .flow(Opcode::CONT)
        .flow(Opcode::BRK)
        .flow(Opcode::ENDLOOP)
        .flow(Opcode::END)
        .build();
    assert_eq!(errors(&s), Vec::<&str>::new());
}

#[test]
fn end_rules() {
    let s = Builder::new(Processor::Fragment).flow(Opcode::NOP).build();
    assert_eq!(errors(&s), vec!["V010"]);
    let s = Builder::new(Processor::Fragment).flow(Opcode::END).flow(Opcode::END).build();
    assert_eq!(errors(&s), vec!["V002"]);
    let s = Builder::new(Processor::Fragment).flow(Opcode::END).flow(Opcode::NOP).build();
    assert_eq!(errors(&s), vec!["V111"]);
}

#[test]
fn subroutines_and_calls() {
    // 0 CAL :2, 1 END, 2 BGNSUB, 3 RET, 4 ENDSUB
    let s = Builder::new(Processor::Fragment)
        .labeled(Opcode::CAL, 2)
        .flow(Opcode::END)
        .flow(Opcode::BGNSUB)
        .flow(Opcode::RET)
        .flow(Opcode::ENDSUB)
        .build();
    assert_eq!(errors(&s), Vec::<&str>::new());
    let t = match_blocks(&s).expect("ok");
    assert_eq!(t.iter().find(|x| x.at == 0).map(|x| (x.partner, x.end)), Some((2, 4)));
    let s = Builder::new(Processor::Fragment).labeled(Opcode::CAL, 1).flow(Opcode::END).build();
    assert_eq!(errors(&s), vec!["V113"]);
    let s = Builder::new(Processor::Fragment).flow(Opcode::CAL).flow(Opcode::END).build();
    assert_eq!(errors(&s), vec!["V112"]);
    // Recursion: 0 CAL :2, 1 END, 2 BGNSUB, 3 CAL :2, 4 ENDSUB
    let s = Builder::new(Processor::Fragment)
        .labeled(Opcode::CAL, 2)
        .flow(Opcode::END)
        .flow(Opcode::BGNSUB)
        .labeled(Opcode::CAL, 2)
        .flow(Opcode::ENDSUB)
        .build();
    assert_eq!(errors(&s), vec!["V115"]);
}

#[test]
fn deep_nesting_is_linear_and_reported_once() {
    let mut b = Builder::new(Processor::Fragment).dcl(File::Temp, 0, 0);
    for _ in 0..100_000 {
        b = b.flow(Opcode::IF);
    }
    for _ in 0..100_000 {
        b = b.flow(Opcode::ENDIF);
    }
    let s = b.flow(Opcode::END).build();
    let d = run(&s);
    assert_eq!(codes(&d), vec!["V506"]);
    // 32 levels (tgsi_exec's TGSI_EXEC_MAX_NESTING) pass.
    let mut b = Builder::new(Processor::Fragment).dcl(File::Temp, 0, 0);
    for _ in 0..32 {
        b = b.flow(Opcode::IF);
    }
    for _ in 0..32 {
        b = b.flow(Opcode::ENDIF);
    }
    assert_eq!(codes(&run(&b.flow(Opcode::END).build())), Vec::<&str>::new());
}

#[test]
fn label_disagreement_warns_with_the_right_value() {
    // 0 IF :7 (should be :2), 1 NOP, 2 ENDIF, 3 END
    let s = Builder::new(Processor::Fragment)
        .dcl(File::Temp, 0, 0)
        .labeled(Opcode::IF, 7)
        .flow(Opcode::NOP)
        .flow(Opcode::ENDIF)
        .flow(Opcode::END)
        .build();
    let d = run(&s);
    assert_eq!(codes(&d), vec!["V114"]);
    assert!(d[0].message.contains(":2"), "{}", d[0].message);
    let s = Builder::new(Processor::Fragment)
        .dcl(File::Temp, 0, 0)
        .labeled(Opcode::IF, 2)
        .flow(Opcode::NOP)
        .flow(Opcode::ENDIF)
        .labeled(Opcode::BGNLOOP, 0)
        .flow(Opcode::BRK)
        .labeled(Opcode::ENDLOOP, 0)
        .flow(Opcode::END)
        .build();
    assert_eq!(codes(&run(&s)), Vec::<&str>::new());
}

#[test]
fn operand_files() {
    let s = Builder::new(Processor::Fragment)
        .dcl(File::In, 0, 0)
        .op(Opcode::MOV, vec![dst(reg(File::In, 0), 0xF)], vec![src(reg(File::In, 0))])
        .flow(Opcode::END)
        .build();
    assert_eq!(errors(&s), vec!["V201"]);
    let s = Builder::new(Processor::Fragment)
        .dcl(File::Addr, 0, 0)
        .dcl(File::Temp, 0, 0)
        .op(Opcode::MOV, vec![dst(reg(File::Addr, 0), 0x1)], vec![src(reg(File::Temp, 0))])
        .op(Opcode::ARL, vec![dst(reg(File::Addr, 0), 0x1)], vec![src(reg(File::Temp, 0))])
        .op(Opcode::MOV, vec![dst(reg(File::Temp, 0), 0x1)], vec![src(reg(File::Addr, 0))])
        .flow(Opcode::END)
        .build();
    assert_eq!(errors(&s), vec!["V204", "V205"]);
}

#[test]
fn abs_on_integer_operand() {
    let mut s = frag_with(|b| {
        b.op(
            Opcode::UADD,
            vec![dst(reg(File::Temp, 0), 0xF)],
            vec![src(reg(File::Temp, 0)), src(reg(File::Temp, 0))],
        )
    });
    assert_eq!(errors(&s), Vec::<&str>::new());
    s.instructions[0].src[0].absolute = true;
    assert_eq!(errors(&s), vec!["V212"]);
}

#[test]
fn stage_only_opcodes() {
    let s = Builder::new(Processor::Vertex).flow(Opcode::KILL).flow(Opcode::END).build();
    assert_eq!(errors(&s), vec!["V301"]);
    let s = Builder::new(Processor::Fragment).flow(Opcode::KILL).flow(Opcode::END).build();
    assert_eq!(errors(&s), Vec::<&str>::new());
}

#[test]
fn semantic_indices() {
    let s = Builder::new(Processor::Vertex)
        .dcl_sem(File::Out, 0, 0, SemanticName::Generic, 219)
        .flow(Opcode::END)
        .build();
    assert!(run(&s).iter().any(|d| d.code == "V404" && !d.is_error()));
    let s = Builder::new(Processor::Vertex)
        .dcl_sem(File::Out, 0, 0, SemanticName::Generic, 256)
        .flow(Opcode::END)
        .build();
    assert_eq!(errors(&s), vec!["V405"]);
    let s = Builder::new(Processor::Vertex)
        .dcl_sem(File::Out, 0, 0, SemanticName::Color, 2)
        .flow(Opcode::END)
        .build();
    assert_eq!(errors(&s), vec!["V403"]);
    let s = Builder::new(Processor::Vertex)
        .dcl_sem(File::Out, 0, 0, SemanticName::Position, 1)
        .flow(Opcode::END)
        .build();
    assert_eq!(errors(&s), vec!["V402"]);
    let s = Builder::new(Processor::Vertex)
        .dcl_sem(File::Out, 0, 0, SemanticName::Normal, 0)
        .flow(Opcode::END)
        .build();
    assert_eq!(errors(&s), vec!["V401"]);
    let s = Builder::new(Processor::Vertex)
        .dcl_sem(File::Out, 0, 1, SemanticName::Generic, 0)
        .dcl_sem(File::Out, 2, 2, SemanticName::Generic, 1)
        .flow(Opcode::END)
        .build();
    assert_eq!(errors(&s), vec!["V406"]);
}

#[test]
fn linkage_by_semantic_and_channels() {
    let vs = Builder::new(Processor::Vertex)
        .dcl_sem(File::Out, 0, 0, SemanticName::Position, 0)
        .dcl_sem(File::Out, 1, 1, SemanticName::Generic, 0)
        .dcl_sem(File::Out, 2, 2, SemanticName::Generic, 5)
        .dcl(File::Temp, 0, 0)
        .op(Opcode::MOV, vec![dst(reg(File::Out, 0), 0xF)], vec![src(reg(File::Temp, 0))])
        .op(Opcode::MOV, vec![dst(reg(File::Out, 1), 0x3)], vec![src(reg(File::Temp, 0))])
        .op(Opcode::MOV, vec![dst(reg(File::Out, 2), 0xF)], vec![src(reg(File::Temp, 0))])
        .flow(Opcode::END)
        .build();
    let fs = Builder::new(Processor::Fragment)
        .dcl_sem(File::In, 0, 0, SemanticName::Generic, 0)
        .dcl_sem(File::In, 1, 1, SemanticName::Generic, 1)
        .dcl_sem(File::Out, 0, 0, SemanticName::Color, 0)
        .op(Opcode::MOV, vec![dst(reg(File::Out, 0), 0x7)], vec![src(reg(File::In, 0))])
        .op(Opcode::MOV, vec![dst(reg(File::Out, 0), 0x8)], vec![src(reg(File::In, 1))])
        .flow(Opcode::END)
        .build();
    let (v, f) = super::link(&vs, &fs);
    assert_eq!(codes(&v), vec!["L003"]);
    assert_eq!(codes(&f), vec!["L002", "L001"]);
}

#[test]
fn two_dimensional_references() {
    let s = Builder::new(Processor::Fragment)
        .decl({
            let mut d = Declaration::new(File::Const, 0, 3);
            d.dimension =
                DclDimension::Range(DclRange { first: 1, last: 1, span: Span::default() });
            d
        })
        .dcl(File::Temp, 0, 0)
        .op(Opcode::MOV, vec![dst(reg(File::Temp, 0), 0xF)], vec![src(reg2(File::Const, 1, 3))])
        .op(Opcode::MOV, vec![dst(reg(File::Temp, 0), 0xF)], vec![src(reg2(File::Temp, 1, 0))])
        .op(Opcode::MOV, vec![dst(reg(File::Temp, 0), 0xF)], vec![src(reg2(File::Const, 0, 3))])
        .flow(Opcode::END)
        .build();
    // TEMP takes one index (V208); CONST[0][3] is in buffer 0, which is not declared (V005).
    assert_eq!(errors(&s), vec!["V005", "V208"]); // equal (synthetic) spans sort by code
}

#[test]
fn wide_immediates_are_refused_like_tgsi_sanity() {
    let s = Builder::new(Processor::Fragment)
        .imm(ImmType::Flt64)
        .imm(ImmType::Uint32)
        .dcl(File::Temp, 0, 0)
        .op(Opcode::MOV, vec![dst(reg(File::Temp, 0), 0xF)], vec![src(reg(File::Imm, 0))])
        .op(Opcode::MOV, vec![dst(reg(File::Temp, 0), 0xF)], vec![src(reg(File::Imm, 1))])
        .flow(Opcode::END)
        .build();
    assert!(errors(&s).is_empty());
    assert_eq!(check(&s, &Options::default()).iter().filter(|d| d.code == "V009").count(), 1);
}

// Rules the text syntax cannot express (the parser refuses these forms), checked on IR.

#[test]
fn v001_null_file() {
    let s = frag_with(|b| {
        b.op(Opcode::MOV, vec![dst(reg(File::Temp, 0), 0xF)], vec![src(reg(File::Null, 0))])
    });
    assert_eq!(errors(&s), vec!["V001"]);
    let s = Builder::new(Processor::Fragment).dcl(File::Null, 0, 0).flow(Opcode::END).build();
    assert_eq!(errors(&s), vec!["V001"]);
}

#[test]
fn v004_operand_counts() {
    let s = frag_with(|b| {
        b.op(Opcode::ADD, vec![dst(reg(File::Temp, 0), 0xF)], vec![src(reg(File::Temp, 0))])
    });
    assert_eq!(errors(&s), vec!["V004"]);
    let s = frag_with(|b| {
        b.op(
            Opcode::ADD,
            vec![dst(reg(File::Temp, 0), 0xF)],
            vec![src(reg(File::Temp, 0)), src(reg(File::Temp, 0))],
        )
    });
    assert_eq!(errors(&s), Vec::<&str>::new());
}

#[test]
fn v006_empty_write_mask() {
    let s = frag_with(|b| {
        b.op(Opcode::MOV, vec![dst(reg(File::Temp, 0), 0)], vec![src(reg(File::Temp, 0))])
    });
    assert_eq!(errors(&s), vec!["V006"]);
}

#[test]
fn v215_v216_targets_and_qualifiers() {
    let mut s = frag_with(|b| {
        b.dcl(File::Samp, 0, 0).op(
            Opcode::TEX,
            vec![dst(reg(File::Temp, 0), 0xF)],
            vec![src(reg(File::Temp, 0)), src(reg(File::Samp, 0))],
        )
    });
    // Declared after OUT[0] and TEMP[0]: the TEX is instruction 0 and has no target.
    assert_eq!(errors(&s), vec!["V215"]);
    s.instructions[0].texture = Some(TextureTarget::Tex2D);
    assert_eq!(errors(&s), Vec::<&str>::new());
    s.instructions[0].memory_qualifiers = 1;
    assert_eq!(errors(&s), vec!["V216"]);
    let mut s = frag_with(|b| {
        b.op(Opcode::MOV, vec![dst(reg(File::Temp, 0), 0xF)], vec![src(reg(File::Temp, 0))])
    });
    s.instructions[0].texture = Some(TextureTarget::Tex2D);
    assert_eq!(errors(&s), vec!["V215"]);
}

#[test]
fn v305_vertex_inputs_take_no_semantic() {
    let mut d = Declaration::new(File::In, 0, 0);
    d.semantic = Some(Semantic { name: SemanticName::Position, index: 0, span: Span::default() });
    let s = Builder::new(Processor::Vertex)
        .decl(d)
        .dcl_sem(File::Out, 0, 0, SemanticName::Position, 0)
        .op(Opcode::MOV, vec![dst(reg(File::Out, 0), 0xF)], vec![src(reg(File::In, 0))])
        .flow(Opcode::END)
        .build();
    assert_eq!(errors(&s), vec!["V305"]);
}

#[test]
fn small_profiles_limit_instructions_immediates_and_calls() {
    let tiny = super::Profile {
        name: "tiny",
        description: "test profile",
        max_instructions: Some(2),
        max_immediates: Some(1),
        max_call_depth: 0,
        ..super::limits::PROFILES[0].clone()
    };
    let s = Builder::new(Processor::Fragment)
        .imm(ImmType::Flt32)
        .imm(ImmType::Flt32)
        .dcl(File::Temp, 0, 0)
        .op(
            Opcode::ADD,
            vec![dst(reg(File::Temp, 0), 0xF)],
            vec![src(reg(File::Imm, 0)), src(reg(File::Imm, 1))],
        )
        .labeled(Opcode::CAL, 3)
        .flow(Opcode::END)
        .flow(Opcode::BGNSUB)
        .flow(Opcode::ENDSUB)
        .build();
    let d = super::check_with_profile(&s, &tiny);
    let mut c = codes(&d);
    c.sort_unstable();
    assert_eq!(c, vec!["V507", "V510", "V511"]);
    assert!(codes(&run(&s)).is_empty(), "the default profile has room: {:?}", run(&s));
}

#[test]
fn interval_lookup_is_exact_with_overlaps_and_fast() {
    // One wide declaration then many single ones inside it (duplicates, but lookups must
    // stay correct and logarithmic).
    let n = 50_000u32;
    let mut b = Builder::new(Processor::Fragment).dcl(File::Temp, 0, 1_000_000_000);
    for k in 1..=n {
        b = b.dcl(File::Temp, k, k);
    }
    b = b.dcl(File::Temp, 2_000_000_000, 2_000_000_005);
    for k in 0..n {
        b = b.op(
            Opcode::MOV,
            vec![dst(reg(File::Temp, 500_000_000 + k as i64), 0xF)],
            vec![src(reg(File::Temp, k as i64))],
        );
    }
    let s = b.flow(Opcode::END).build();
    let map = super::regmap::DeclMap::build(&s);
    assert_eq!(map.find(File::Temp, 0, 500_000_000), Some(0));
    assert!(map.find(File::Temp, 0, 7).is_some());
    assert_eq!(map.find(File::Temp, 0, 2_000_000_003), Some(n as usize + 1));
    assert_eq!(map.find(File::Temp, 0, 1_500_000_000), None);
    assert_eq!(map.find(File::Temp, 0, -1), None);
    let start = std::time::Instant::now();
    let d = run(&s);
    // 50 000 overlaps (V008) are found; past the first 1000 diagnostics the rest are counted
    // in one last note (`limits::MAX_DIAGNOSTICS`).
    let kept = crate::limits::MAX_DIAGNOSTICS;
    assert_eq!(d.len(), kept + 1);
    let note = d.last().map(|x| x.message.clone()).unwrap_or_default();
    let more: usize = note
        .trim_start_matches("… and ")
        .trim_end_matches(" more diagnostics")
        .parse()
        .unwrap_or(0);
    let v008 = d.iter().filter(|x| x.code == "V008").count();
    assert!(v008 + more >= n as usize, "{v008} kept, {more} more");
    assert!(d.iter().all(|x| matches!(x.code, "V008" | "V501" | "V011" | "D001")));
    assert!(start.elapsed().as_secs() < 10, "took {:?}", start.elapsed());
}

#[test]
fn linkage_of_many_semantics_is_fast() {
    let n = 30_000u32;
    let mut vs = Builder::new(Processor::Vertex).dcl(File::Temp, 0, 0);
    let mut fs = Builder::new(Processor::Fragment).dcl_sem(File::Out, 0, 0, SemanticName::Color, 0);
    for k in 0..n {
        vs = vs.dcl_sem(File::Out, k, k, SemanticName::Generic, k);
        fs = fs.dcl_sem(File::In, k, k, SemanticName::Generic, n - 1 - k);
    }
    for k in 0..n {
        vs = vs.op(
            Opcode::MOV,
            vec![dst(reg(File::Out, k as i64), 0x3)],
            vec![src(reg(File::Temp, 0))],
        );
        fs = fs.op(
            Opcode::MOV,
            vec![dst(reg(File::Out, 0), 0x1)],
            vec![src(reg(File::In, k as i64))],
        );
    }
    let (vs, fs) = (vs.flow(Opcode::END).build(), fs.flow(Opcode::END).build());
    let start = std::time::Instant::now();
    let (v, f) = super::link(&vs, &fs);
    assert!(v.is_empty() && f.is_empty(), "{:?} {:?}", v.first(), f.first());
    assert!(start.elapsed().as_secs() < 10, "took {:?}", start.elapsed());
}
