//! Test support for the interpreter tests: a tiny builder that turns a small TGSI-like text into
//! an `ir::Shader` (only what these tests write), helpers to run one quad, and lane views.
#![allow(dead_code)]

use tgsi::exec::{compile, Batch, Constants, Lanes, Machine, Program};
use tgsi::ir::{self, Bracket, DstOperand, File, Immediate, ImmType, IndirectAddr, Processor, RegRef, Shader, SrcOperand, Swizzle, WriteMask};
use tgsi::opcode::Opcode;

fn reg(text: &str) -> (RegRef, &str) {
    let open = text.find('[').expect("register needs [");
    let file = File::from_name(&text[..open]).unwrap_or_else(|| panic!("file {}", &text[..open]));
    let mut rest = &text[open..];
    let mut brackets = Vec::new();
    while rest.starts_with('[') {
        let close = rest.find(']').expect("]");
        // Nested ADDR[..] inside the bracket.
        let inner_end = if rest[1..].starts_with("ADDR[") || rest[1..].starts_with("TEMP[") {
            let first = rest.find(']').unwrap();
            first + 1 + rest[first + 1..].find(']').unwrap()
        } else {
            close
        };
        brackets.push(bracket(&rest[1..inner_end]));
        rest = &rest[inner_end + 1..];
    }
    let (dimension, index) = if brackets.len() == 2 { (Some(brackets[0]), brackets[1]) } else { (None, brackets[0]) };
    (RegRef { file, dimension, index, span: ir::Span::default() }, rest)
}

fn bracket(t: &str) -> Bracket {
    let t = t.trim();
    if let Some(range) = t.split_once("..") {
        return Bracket::direct(range.0.parse().unwrap());
    }
    if let Ok(v) = t.parse::<i64>() {
        return Bracket::direct(v);
    }
    // FILE[n].c [+|- k]
    let open = t.find('[').unwrap();
    let close = t.find(']').unwrap();
    let file = File::from_name(&t[..open]).unwrap();
    let index: u32 = t[open + 1..close].parse().unwrap();
    let rest = &t[close + 1..];
    let (comp, off) = if let Some(r) = rest.strip_prefix('.') {
        let c = "xyzw".find(&r[..1]).unwrap() as u8;
        (c, r[1..].trim())
    } else {
        (0, rest.trim())
    };
    let offset = if off.is_empty() { 0 } else { off.replace(' ', "").parse::<i64>().unwrap() };
    Bracket {
        offset,
        indirect: Some(IndirectAddr { file, index, component: comp, span: ir::Span::default() }),
        array_id: 0,
        span: ir::Span::default(),
    }
}

fn src(t: &str) -> SrcOperand {
    let mut t = t.trim();
    let negate = t.starts_with('-');
    if negate {
        t = &t[1..];
    }
    let absolute = t.starts_with('|');
    if absolute {
        t = t.trim_matches('|');
    }
    let (reg, rest) = reg(t);
    let swizzle = match rest.strip_prefix('.') {
        Some(s) => {
            let mut sw = [0u8; 4];
            let letters: Vec<u8> = s.chars().map(|c| "xyzw".find(c).unwrap() as u8).collect();
            for (i, v) in sw.iter_mut().enumerate() {
                *v = *letters.get(i).or(letters.last()).unwrap();
            }
            Swizzle(sw)
        }
        None => Swizzle::IDENTITY,
    };
    SrcOperand { reg, swizzle, negate, absolute, span: ir::Span::default() }
}

fn dst(t: &str) -> DstOperand {
    let (reg, rest) = reg(t.trim());
    let mask = match rest.strip_prefix('.') {
        Some(s) => WriteMask(s.chars().map(|c| 1u8 << "xyzw".find(c).unwrap()).fold(0, |a, b| a | b)),
        None => WriteMask::XYZW,
    };
    DstOperand { reg, write_mask: mask, span: ir::Span::default() }
}

/// Builds a shader from lines: a processor header, `DCL FILE[a..b]`, `IMM FLT32|UINT32|INT32
/// {..}`, and instructions `OP[_SAT] dst, src, ... [:label]`. Operands as TGSI text.
pub fn build(text: &str) -> Shader {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let proc = Processor::from_name(lines.next().unwrap()).unwrap();
    let mut sh = Shader::new(proc);
    for line in lines {
        // Statement numbers `12:` as Mesa prints them are ignored.
        let line = match line.split_once(':') {
            Some((n, rest)) if n.trim().chars().all(|c| c.is_ascii_digit()) && !n.trim().is_empty() => rest.trim(),
            _ => line,
        };
        if line.starts_with("PROPERTY") {
            continue;
        }
        let line = if line.starts_with("IMM[") { &line[line.find(']').unwrap() + 1..] } else { line };
        let line = if line.starts_with(' ') { line.trim_start() } else { line };
        let owned;
        let line = if !line.starts_with("IMM ") && (line.starts_with("FLT32") || line.starts_with("UINT32") || line.starts_with("INT32")) {
            owned = format!("IMM {}", line);
            owned.as_str()
        } else {
            line
        };
        if let Some(rest) = line.strip_prefix("DCL ") {
            let parts: Vec<&str> = rest.split(',').map(str::trim).collect();
            let file = File::from_name(&parts[0][..parts[0].find('[').unwrap()]).unwrap();
            // Last bracket holds the range (CONST[1][0..3] has two).
            let body = &parts[0][parts[0].rfind('[').unwrap() + 1..parts[0].rfind(']').unwrap()];
            let (a, b) = match body.split_once("..") {
                Some((a, b)) => (a.parse().unwrap(), b.parse().unwrap()),
                None => (body.parse().unwrap(), body.parse().unwrap()),
            };
            let mut d = ir::Declaration::new(file, a, b);
            if let Some(m) = parts[0].rsplit_once("].") {
                d.usage_mask = WriteMask(m.1.chars().map(|c| 1u8 << "xyzw".find(c).unwrap()).fold(0, |a, b| a | b));
            }
            if let Some(sem) = parts.get(1) {
                let name = sem.split('[').next().unwrap();
                let idx = sem.split('[').nth(1).map_or(0, |s| s.trim_end_matches(']').parse().unwrap());
                d.semantic = ir::SemanticName::from_name(name).map(|name| ir::Semantic { name, index: idx, span: ir::Span::default() });
            }
            for p in parts.iter().skip(2) {
                if let Some(i) = ir::Interp::from_name(p) {
                    d.interp = Some(i);
                }
            }
            sh.declarations.push(d);
        } else if let Some(rest) = line.strip_prefix("IMM ") {
            let (ty, vals) = rest.split_once('{').unwrap();
            let vals: Vec<&str> = vals.trim_end_matches('}').split(',').map(str::trim).collect();
            let ty = ImmType::from_name(ty.trim()).unwrap();
            let mut bits = [0u32; 4];
            for (i, v) in vals.iter().enumerate() {
                bits[i] = match ty {
                    ImmType::Flt32 => v.parse::<f32>().unwrap().to_bits(),
                    ImmType::Int32 => v.parse::<i32>().unwrap() as u32,
                    _ => {
                        if let Some(h) = v.strip_prefix("0x") { u32::from_str_radix(h, 16).unwrap() } else { v.parse::<u32>().unwrap() }
                    }
                };
            }
            sh.immediates.push(Immediate { ty, bits, count: vals.len() as u8, written_index: None, span: ir::Span::default() });
        } else {
            let (body, label) = match line.rsplit_once(" :") {
                Some((b, l)) => (b, Some(l.trim().parse().unwrap())),
                None => (line, None),
            };
            let (name, ops) = body.split_once(' ').unwrap_or((body, ""));
            let (name, sat) = match name.strip_suffix("_SAT") {
                Some(n) => (n, true),
                None => (name, false),
            };
            let op = Opcode::from_name(name).unwrap_or_else(|| panic!("opcode {}", name));
            let mut inst = ir::Instruction::new(op);
            inst.saturate = sat;
            inst.label = label;
            let ops: Vec<&str> = if ops.trim().is_empty() { vec![] } else { split_ops(ops) };
            let nd = op.info().num_dst as usize;
            for (i, o) in ops.iter().enumerate() {
                if i < nd {
                    inst.dst.push(dst(o));
                } else if let Some(t) = ir::TextureTarget::from_name(o.trim()) {
                    inst.texture = Some(t);
                } else {
                    inst.src.push(src(o));
                }
            }
            sh.instructions.push(inst);
        }
    }
    sh
}

fn split_ops(s: &str) -> Vec<&str> {
    // Commas inside brackets do not occur in these tests; split on top-level commas.
    let mut out = Vec::new();
    let mut depth = 0;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(s[start..].trim());
    out
}

pub fn program(text: &str) -> Program {
    compile(&build(text)).unwrap_or_else(|d| panic!("compile failed: {}", d.message))
}

/// Runs one quad whose IN registers are given per register as 4 lanes × 4 channels
/// (`inputs[reg][lane][channel]`), returns OUT registers as `[reg][lane][channel]` bits.
pub fn run_quad_bits(text: &str, inputs: &[[[u32; 4]; 4]], consts: &Constants) -> Vec<[[u32; 4]; 4]> {
    let p = program(text);
    let mut b = Batch::new(&p, 1);
    for (r, lanes) in inputs.iter().enumerate() {
        for c in 0..4 {
            b.set_input(r, c, 0, Lanes([0, 1, 2, 3].map(|l| lanes[l][c])));
        }
    }
    let mut m = Machine::new();
    m.run(&p, &mut b, consts).unwrap_or_else(|e| panic!("run failed: {}", e.diagnostic.message));
    (0..p.output_count() as usize)
        .map(|r| [0, 1, 2, 3].map(|l| [0, 1, 2, 3].map(|c| b.output(r, c, 0).0[l])))
        .collect()
}

/// Float inputs given the same for all four lanes; returns OUT[0] of lane 0 as raw bits.
pub fn eval_bits(text: &str, inputs: &[[u32; 4]]) -> [u32; 4] {
    let ins: Vec<[[u32; 4]; 4]> = inputs.iter().map(|v| [*v; 4]).collect();
    run_quad_bits(text, &ins, &Constants::default())[0][0]
}

/// A one-instruction fragment shader `OP OUT[0], IN[0], IN[1], IN[2]` (as many sources as the
/// opcode has), evaluated with the given source bits, result bits of OUT[0] lane 0.
pub fn op_bits(op: &str, srcs: &[[u32; 4]]) -> [u32; 4] {
    let ins: Vec<String> = (0..srcs.len()).map(|i| format!("IN[{}]", i)).collect();
    let text = format!("FRAG\nDCL IN[0..{}]\nDCL OUT[0]\n{} OUT[0], {}\nEND", srcs.len().max(1) - 1, op, ins.join(", "));
    eval_bits(&text, srcs)
}

pub fn op_f(op: &str, srcs: &[[f32; 4]]) -> [f32; 4] {
    let s: Vec<[u32; 4]> = srcs.iter().map(|v| v.map(f32::to_bits)).collect();
    op_bits(op, &s).map(f32::from_bits)
}

pub fn op_i(op: &str, srcs: &[[i32; 4]]) -> [i32; 4] {
    let s: Vec<[u32; 4]> = srcs.iter().map(|v| v.map(|x| x as u32)).collect();
    op_bits(op, &s).map(|x| x as i32)
}

pub fn op_u(op: &str, srcs: &[[u32; 4]]) -> [u32; 4] {
    op_bits(op, srcs)
}

/// Asserts float bit equality (so NaN == NaN and −0 ≠ +0 are checked).
#[track_caller]
pub fn assert_f(got: [f32; 4], want: [f32; 4]) {
    let (g, w) = (got.map(f32::to_bits), want.map(f32::to_bits));
    assert!(
        g.iter().zip(&w).all(|(a, b)| a == b || (f32::from_bits(*a).is_nan() && f32::from_bits(*b).is_nan())),
        "got {:?} want {:?}",
        got,
        want
    );
}
