//! One parse-and-print check per row of the opcode table: an instruction using the opcode, with
//! as many operands as the row says, parses with those operands in order and prints back.

use tgsi::ir::*;
use tgsi::opcode::{Opcode, F_BRANCH, F_TEX, OPCODES};
use tgsi::text::{self, codes, Style};

/// The instruction text for a row: dsts `TEMP[0]`, `TEMP[1]`…, sources `-TEMP[10].wzyx`,
/// `TEMP[11]`…, then `2D` for texture opcodes and `:7` for branch opcodes.
fn instruction_for(op: Opcode) -> String {
    let info = op.info();
    let mut ops: Vec<String> = Vec::new();
    for i in 0..info.num_dst {
        ops.push(if i == 0 { "TEMP[0].xz".to_string() } else { format!("TEMP[{}]", i) });
    }
    for i in 0..info.num_src {
        ops.push(if i == 0 { "-TEMP[10].wzyx".to_string() } else { format!("TEMP[{}]", 10 + i) });
    }
    if info.has(F_TEX) {
        ops.push("2D".to_string());
    }
    let mut s = info.name.to_string();
    if !ops.is_empty() {
        s.push(' ');
        s.push_str(&ops.join(", "));
    }
    if info.has(F_BRANCH) {
        s.push_str(" :7");
    }
    s
}

#[test]
fn every_opcode_parses_with_its_operands_and_prints_back() {
    let mut rows = 0;
    for op in Opcode::all() {
        let info = op.info();
        rows += 1;
        let line = instruction_for(op);
        let src = format!("FRAG\n  0: {}\n", line);
        let parsed = text::parse(&src);
        let unexpected: Vec<_> =
            parsed.diagnostics.iter().filter(|d| d.code != codes::LEGACY_OPCODE).collect();
        assert!(unexpected.is_empty(), "{}: {:#?}", line, unexpected);
        assert_eq!(
            info.is_legacy(),
            parsed.diagnostics.iter().any(|d| d.code == codes::LEGACY_OPCODE),
            "{}: legacy warning",
            line
        );
        let shader = parsed.shader.expect(&line);
        assert_eq!(shader.instructions.len(), 1, "{}", line);
        let inst = &shader.instructions[0];
        assert_eq!(inst.opcode, op, "{}", line);
        assert_eq!(inst.dst.len(), info.num_dst as usize, "{}", line);
        assert_eq!(inst.src.len(), info.num_src as usize, "{}", line);
        for (i, d) in inst.dst.iter().enumerate() {
            assert_eq!((d.reg.file, d.reg.index.offset), (File::Temp, i as i64), "{}", line);
            assert_eq!(
                d.write_mask,
                if i == 0 { WriteMask(0b0101) } else { WriteMask::XYZW },
                "{}",
                line
            );
        }
        for (i, s) in inst.src.iter().enumerate() {
            assert_eq!((s.reg.file, s.reg.index.offset), (File::Temp, 10 + i as i64), "{}", line);
            assert_eq!(s.negate, i == 0, "{}", line);
            assert_eq!(
                s.swizzle,
                if i == 0 { Swizzle([3, 2, 1, 0]) } else { Swizzle::IDENTITY },
                "{}",
                line
            );
        }
        assert_eq!(inst.texture, info.has(F_TEX).then_some(TextureTarget::Tex2D), "{}", line);
        assert_eq!(inst.label, info.has(F_BRANCH).then_some(7), "{}", line);
        assert_eq!(inst.number, Some(0), "{}", line);

        assert_eq!(text::print(&shader, Style::Exact), src, "{}: exact", line);
        // Mesa prints branch labels only for its own branch opcodes.
        let mesa_labels = [
            Opcode::IF,
            Opcode::UIF,
            Opcode::ELSE,
            Opcode::BGNLOOP,
            Opcode::ENDLOOP,
            Opcode::CAL,
            Opcode::BGNSUB,
        ];
        let mesa_line = if info.has(F_BRANCH) && !mesa_labels.contains(&op) {
            line.trim_end_matches(" :7").to_string()
        } else {
            line.clone()
        };
        assert_eq!(
            text::print(&shader, Style::Mesa),
            format!("FRAG\n  0: {}\n", mesa_line),
            "{}: mesa",
            line
        );
    }
    assert_eq!(rows, OPCODES.len());
    assert!(rows >= 240 + 27, "only {} rows", rows);
}

#[test]
fn opcode_names_ignore_case_and_take_sat_and_precise_suffixes() {
    let src = "frag\ndcl temp[0..1]\nmov_sat temp[0], temp[1]\nMov_Precise TEMP[0], TEMP[1]\nADD_SAT_PRECISE TEMP[0], TEMP[1], TEMP[1]\nTEX_LZ TEMP[0], TEMP[1], SAMP[0], 2d\nddx_fine TEMP[0], TEMP[1]\nend\n";
    let parsed = text::parse(src);
    assert!(parsed.diagnostics.is_empty(), "{:#?}", parsed.diagnostics);
    let s = parsed.shader.unwrap();
    let i = &s.instructions;
    assert_eq!((i[0].opcode, i[0].saturate, i[0].precise), (Opcode::MOV, true, false));
    assert_eq!((i[1].opcode, i[1].saturate, i[1].precise), (Opcode::MOV, false, true));
    assert_eq!((i[2].opcode, i[2].saturate, i[2].precise), (Opcode::ADD, true, true));
    assert_eq!((i[3].opcode, i[3].texture), (Opcode::TEX_LZ, Some(TextureTarget::Tex2D)));
    assert_eq!(i[4].opcode, Opcode::DDX_FINE);
    assert_eq!(
        text::print(&s, Style::Mesa),
        "FRAG\nDCL TEMP[0..1]\n  0: MOV_SAT TEMP[0], TEMP[1]\n  1: MOV_PRECISE TEMP[0], TEMP[1]\n  2: ADD_SAT_PRECISE TEMP[0], TEMP[1], TEMP[1]\n  3: TEX_LZ TEMP[0], TEMP[1], SAMP[0], 2D\n  4: DDX_FINE TEMP[0], TEMP[1]\n  5: END\n"
    );
}

#[test]
fn gaps_and_suffix_order_are_rejected() {
    for (line, code) in [
        ("UNK67", codes::OPCODE),
        ("MOV_PRECISE_SAT TEMP[0], TEMP[1]", codes::OPCODE),
        ("MOVE TEMP[0], TEMP[1]", codes::OPCODE),
    ] {
        let parsed = text::parse(&format!("FRAG\n{}\n", line));
        assert!(parsed.shader.is_none(), "{}", line);
        assert_eq!(parsed.diagnostics[0].code, code, "{}: {:#?}", line, parsed.diagnostics);
    }
    let parsed = text::parse("FRAG\nMOVE TEMP[0], TEMP[1]\n");
    assert!(
        parsed.diagnostics[0].message.contains("did you mean `MOV`"),
        "{}",
        parsed.diagnostics[0].message
    );
}

#[test]
fn texture_memory_and_offset_forms() {
    let src = "\
FRAG
DCL TEMP[0..3]
DCL SAMP[0]
DCL SVIEW[0], 2D_ARRAY, UINT, UINT, UINT, FLOAT
DCL IMAGE[0], 2D, PIPE_FORMAT_R32_FLOAT, WR
DCL BUFFER[0], ATOMIC
DCL MEMORY[0], SHARED
IMM[0] INT32 {-1, 0, 1, 0}
  0: TXF TEMP[2], TEMP[3], SAMP[0], 2D_ARRAY, IMM[0].xyz
  1: SAMPLE TEMP[0], TEMP[1], SVIEW[0], SAMP[0], IMM[0].zzz
  2: LOAD TEMP[0], IMAGE[0], TEMP[1], 2D, PIPE_FORMAT_R32_FLOAT
  3: STORE MEMORY[0].x, TEMP[0].xxxx, TEMP[1].xxxx
  4: ATOMUADD TEMP[0], BUFFER[0], TEMP[1], TEMP[2], COHERENT, VOLATILE
  5: LOAD TEMP[0], BUFFER[0], TEMP[1], BUFFER
  6: END
";
    let parsed = text::parse(src);
    assert!(parsed.diagnostics.is_empty(), "{:#?}", parsed.diagnostics);
    let s = parsed.shader.unwrap();
    let i = &s.instructions;
    assert_eq!(i[0].tex_offsets.len(), 1);
    assert_eq!(i[0].tex_offsets[0].swizzle, [0, 1, 2]);
    assert_eq!(i[1].texture, None);
    assert_eq!(i[1].tex_offsets[0].swizzle, [2, 2, 2]);
    assert_eq!(i[2].memory_format.as_deref(), Some("PIPE_FORMAT_R32_FLOAT"));
    assert_eq!(i[4].memory_qualifiers, 0b101);
    assert_eq!(text::print(&s, Style::Exact), src);
    // Mesa does not print a BUFFER target on memory instructions.
    assert!(text::print(&s, Style::Mesa).contains("  5: LOAD TEMP[0], BUFFER[0], TEMP[1]\n"));
}

#[test]
fn every_row_is_documented() {
    const AGAL: &[&str] = &[
        "mov", "add", "sub", "mul", "div", "rcp", "min", "max", "frc", "sqt", "rsq", "pow", "log",
        "exp", "sin", "cos", "dp3", "dp4", "m33", "m44", "kil", "tex", "sge", "slt", "seq", "sne",
        "abs", "neg", "sat", "nrm", "crs", "ddx", "ddy", "ife", "ine", "ifg", "ifl", "els", "eif",
    ];
    let mut agal_used = std::collections::HashMap::new();
    for o in OPCODES {
        assert!(!o.summary.is_empty(), "{}: no summary", o.name);
        assert!(!o.summary.contains('"'), "{}", o.name);
        if o.name != "NOP" {
            assert!(!o.formula.is_empty(), "{}: no formula", o.name);
        }
        assert_eq!(
            o.is_legacy(),
            !o.replacement.is_empty(),
            "{}: replacement is for legacy rows",
            o.name
        );
        if !o.agal.is_empty() {
            assert!(AGAL.contains(&o.agal), "{}: unknown AGAL mnemonic {}", o.name, o.agal);
            // A legacy opcode may share its modern twin's mnemonic (KIL and KILL_IF: kil).
            if o.is_legacy() {
                continue;
            }
            if let Some(prev) = agal_used.insert(o.agal, o.name) {
                panic!("{} and {} both claim AGAL {}", prev, o.name, o.agal);
            }
        }
    }
}
