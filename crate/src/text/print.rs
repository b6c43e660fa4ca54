//! The printer. One walker, two styles that differ at a few marked decisions:
//!
//! * [`Style::Mesa`] reproduces `tgsi_dump` byte for byte (`tgsi_dump.c`): `%3u: `
//!   numbering, two-space indentation from the opcode flags, `IMM[n]` always, FLT32 as `%10.4f`
//!   (lossy), and what Mesa drops (interpolation of anything but fragment inputs, location
//!   without interpolation, array ids of direct registers, labels of non-branch opcodes, …).
//! * [`Style::Exact`] is lossless: reading its output gives back the same shader model.
//!   Floats are printed as the shortest text that reads back bit for bit (NaNs as raw bits
//!   `0x%08x`), and everything written in the source that the model keeps is printed, as
//!   written (statement numbers only where the source had them, `IMM` with or without index).

use super::number::{c_fixed, f32_exact, f64_exact};
use super::Style;
use crate::ir::*;
use crate::opcode::{Opcode, F_MEMORY, F_POST_INDENT, F_PRE_DEDENT, F_TEX};
use std::fmt::Write;

pub(super) fn print(shader: &Shader, style: Style) -> String {
    let mut p = Printer {
        out: String::with_capacity(64 + shader.instructions.len() * 48),
        style,
        shader,
        indent: 0,
        instno: 0,
        immno: 0,
    };
    p.out.push_str(shader.processor.name());
    p.out.push('\n');
    let total = shader.properties.len()
        + shader.declarations.len()
        + shader.immediates.len()
        + shader.instructions.len();
    if shader.order.len() == total {
        for st in &shader.order {
            p.statement(*st);
        }
    } else {
        // A model built by code rather than parsed: canonical order.
        let order = (0..shader.properties.len())
            .map(Statement::Property)
            .chain((0..shader.declarations.len()).map(Statement::Declaration))
            .chain((0..shader.immediates.len()).map(Statement::Immediate))
            .chain((0..shader.instructions.len()).map(Statement::Instruction));
        for st in order {
            p.statement(st);
        }
    }
    p.out
}

struct Printer<'a> {
    out: String,
    style: Style,
    shader: &'a Shader,
    indent: i32,
    instno: u32,
    immno: u32,
}

impl<'a> Printer<'a> {
    fn mesa(&self) -> bool {
        self.style == Style::Mesa
    }

    fn statement(&mut self, st: Statement) {
        let sh = self.shader;
        match st {
            Statement::Property(i) => self.property(&sh.properties[i]),
            Statement::Declaration(i) => self.declaration(&sh.declarations[i]),
            Statement::Immediate(i) => self.immediate(&sh.immediates[i]),
            Statement::Instruction(i) => self.instruction(&sh.instructions[i]),
        }
        self.out.push('\n');
    }

    fn property(&mut self, p: &Property) {
        let o = &mut self.out;
        o.push_str("PROPERTY ");
        o.push_str(p.name.name());
        o.push(' ');
        match p.value {
            // Mesa prints numeric values with %d.
            PropertyValue::Uint(v) if self.style == Style::Mesa => {
                write!(o, "{}", v as i32).unwrap()
            }
            PropertyValue::Uint(v) => write!(o, "{}", v).unwrap(),
            PropertyValue::Primitive(v) => o.push_str(v.name()),
            PropertyValue::Origin(v) => o.push_str(v.name()),
            PropertyValue::Center(v) => o.push_str(v.name()),
            PropertyValue::Shader(v) => o.push_str(v.name()),
        }
    }

    fn declaration(&mut self, d: &Declaration) {
        let mesa = self.mesa();
        let processor = self.shader.processor;
        let o = &mut self.out;
        o.push_str("DCL ");
        o.push_str(d.file.name());
        if mesa {
            let patch = d.semantic.is_some_and(|s| {
                matches!(
                    s.name,
                    SemanticName::Patch
                        | SemanticName::TessInner
                        | SemanticName::TessOuter
                        | SemanticName::PrimId
                )
            });
            let tess = matches!(processor, Processor::TessCtrl | Processor::TessEval);
            if (d.file == File::In && (processor == Processor::Geometry || (!patch && tess)))
                || (d.file == File::Out && !patch && processor == Processor::TessCtrl)
            {
                o.push_str("[]");
            }
            if let DclDimension::Range(r) = d.dimension {
                write!(o, "[{}]", r.first).unwrap();
            }
        } else {
            match d.dimension {
                DclDimension::None => {}
                DclDimension::Implied => o.push_str("[]"),
                DclDimension::Range(r) => range(o, &r),
            }
        }
        range(o, &d.range);
        o.push_str(&d.usage_mask.suffix());
        if let Some(id) = d.array_id {
            write!(o, ", ARRAY({})", id).unwrap();
        }
        if d.local {
            o.push_str(", LOCAL");
        }
        if let Some(s) = d.semantic {
            o.push_str(", ");
            o.push_str(s.name.name());
            if s.index != 0 || matches!(s.name, SemanticName::Generic | SemanticName::TexCoord) {
                write!(o, "[{}]", s.index).unwrap();
            }
        }
        if let Some(st) = d.stream {
            // Mesa prints STREAM inside the semantic, and only when not all zero.
            if !mesa || (d.semantic.is_some() && st.iter().any(|&v| v != 0)) {
                write!(o, ", STREAM({}, {}, {}, {})", st[0], st[1], st[2], st[3]).unwrap();
            }
        }
        match &d.extra {
            DclExtra::Image { target, format, writable, raw } => {
                write!(o, ", {}", target.name()).unwrap();
                match format {
                    Some(f) => write!(o, ", {}", f).unwrap(),
                    None if mesa => o.push_str(", PIPE_FORMAT_NONE"),
                    None => {}
                }
                if *writable {
                    o.push_str(", WR");
                }
                if *raw {
                    o.push_str(", RAW");
                }
            }
            DclExtra::SamplerView { target, return_types: t } => {
                write!(o, ", {}, {}", target.name(), t[0].name()).unwrap();
                if !(t[0] == t[1] && t[0] == t[2] && t[0] == t[3]) {
                    write!(o, ", {}, {}, {}", t[1].name(), t[2].name(), t[3].name()).unwrap();
                }
            }
            DclExtra::Buffer { atomic } => {
                if *atomic {
                    o.push_str(", ATOMIC");
                }
            }
            DclExtra::Memory { kind } => write!(o, ", {}", kind.name()).unwrap(),
            DclExtra::None if mesa => match d.file {
                // Mesa's defaults for a bare `DCL SVIEW[n]` / `DCL IMAGE[n]`.
                File::Sview => o.push_str(", BUFFER, UNORM"),
                File::Image => o.push_str(", BUFFER, PIPE_FORMAT_NONE"),
                _ => {}
            },
            DclExtra::None => {}
        }
        if mesa {
            if let Some(i) = d.interp {
                if processor == Processor::Fragment && d.file == File::In {
                    write!(o, ", {}", i.name()).unwrap();
                }
                if let Some(l) = d.location.filter(|&l| l != Location::Center) {
                    write!(o, ", {}", l.name()).unwrap();
                }
            }
        } else {
            if let Some(i) = d.interp {
                write!(o, ", {}", i.name()).unwrap();
            }
            if let Some(l) = d.location {
                write!(o, ", {}", l.name()).unwrap();
            }
        }
        if d.invariant {
            o.push_str(", INVARIANT");
        }
    }

    fn immediate(&mut self, imm: &Immediate) {
        let mesa = self.mesa();
        let o = &mut self.out;
        if mesa {
            write!(o, "IMM[{}] ", self.immno).unwrap();
        } else if let Some(n) = imm.written_index {
            write!(o, "IMM[{}] ", n).unwrap();
        } else {
            o.push_str("IMM ");
        }
        self.immno += 1;
        o.push_str(imm.ty.name());
        o.push_str(" {");
        let values: Vec<String> = match imm.ty {
            ImmType::Flt32 => imm
                .bits
                .iter()
                .map(
                    |&b| if mesa { c_fixed(f32::from_bits(b) as f64, 10, 4) } else { f32_exact(b) },
                )
                .collect(),
            ImmType::Uint32 => imm.bits.iter().map(|b| b.to_string()).collect(),
            ImmType::Int32 => imm.bits.iter().map(|&b| (b as i32).to_string()).collect(),
            ImmType::Flt64 => imm
                .u64s()
                .iter()
                .map(|&b| if mesa { c_fixed(f64::from_bits(b), 10, 8) } else { f64_exact(b) })
                .collect(),
            ImmType::Uint64 => imm.u64s().iter().map(|b| b.to_string()).collect(),
            ImmType::Int64 => imm.u64s().iter().map(|&b| (b as i64).to_string()).collect(),
        };
        o.push_str(&values.join(", "));
        o.push('}');
    }

    fn instruction(&mut self, inst: &Instruction) {
        let mesa = self.mesa();
        let info = inst.opcode.info();
        let instno = self.instno;
        self.instno += 1;
        let number = if mesa { Some(instno) } else { inst.number };
        if let Some(n) = number {
            write!(self.out, "{:3}: ", n).unwrap();
        }
        self.indent -= info.has(F_PRE_DEDENT) as i32;
        for _ in 0..self.indent.max(0) {
            self.out.push_str("  ");
        }
        self.indent += info.has(F_POST_INDENT) as i32;

        self.out.push_str(info.name);
        if inst.saturate {
            self.out.push_str("_SAT");
        }
        if inst.precise {
            self.out.push_str("_PRECISE");
        }
        let mut first = true;
        for d in &inst.dst {
            self.out.push_str(if first { " " } else { ", " });
            first = false;
            self.register(&d.reg);
            self.out.push_str(&d.write_mask.suffix());
        }
        for s in &inst.src {
            self.out.push_str(if first { " " } else { ", " });
            first = false;
            if s.negate {
                self.out.push('-');
            }
            if s.absolute {
                self.out.push('|');
            }
            self.register(&s.reg);
            if !s.swizzle.is_identity() {
                self.out.push('.');
                self.out.push_str(&s.swizzle.letters());
            }
            if s.absolute {
                self.out.push('|');
            }
        }
        if info.has(F_TEX) {
            if let Some(t) = inst.texture {
                write!(self.out, ", {}", t.name()).unwrap();
            }
        }
        for off in &inst.tex_offsets {
            write!(self.out, ", {}[{}].", off.reg.file.name(), off.reg.index.offset).unwrap();
            for &c in &off.swizzle {
                self.out.push(CHANNEL_NAMES[c as usize & 3]);
            }
        }
        if info.has(F_MEMORY) {
            for q in MemoryQualifier::ALL {
                if inst.memory_qualifiers & (1 << q.index()) != 0 {
                    write!(self.out, ", {}", q.name()).unwrap();
                }
            }
            if !info.has(F_TEX) {
                if let Some(t) = inst.texture.filter(|&t| !mesa || t != TextureTarget::Buffer) {
                    write!(self.out, ", {}", t.name()).unwrap();
                }
            }
            if let Some(f) = &inst.memory_format {
                write!(self.out, ", {}", f).unwrap();
            }
        }
        if let Some(l) = inst.label {
            let printed = [
                Opcode::IF,
                Opcode::UIF,
                Opcode::ELSE,
                Opcode::BGNLOOP,
                Opcode::ENDLOOP,
                Opcode::CAL,
                Opcode::BGNSUB,
            ];
            if !mesa || printed.contains(&inst.opcode) {
                write!(self.out, " :{}", l).unwrap();
            }
        }
    }

    fn register(&mut self, r: &RegRef) {
        self.out.push_str(r.file.name());
        if let Some(d) = &r.dimension {
            self.bracket(d);
        }
        self.bracket(&r.index);
    }

    fn bracket(&mut self, b: &Bracket) {
        let o = &mut self.out;
        match &b.indirect {
            Some(ind) => {
                write!(
                    o,
                    "[{}[{}].{}",
                    ind.file.name(),
                    ind.index,
                    CHANNEL_NAMES[ind.component as usize & 3]
                )
                .unwrap();
                if b.offset != 0 {
                    write!(o, "{:+}", b.offset).unwrap();
                }
                o.push(']');
                if b.array_id != 0 {
                    write!(o, "({})", b.array_id).unwrap();
                }
            }
            None => {
                write!(o, "[{}]", b.offset).unwrap();
                if b.array_id != 0 && self.style == Style::Exact {
                    write!(o, "({})", b.array_id).unwrap();
                }
            }
        }
    }
}

fn range(o: &mut String, r: &DclRange) {
    if r.first == r.last {
        write!(o, "[{}]", r.first).unwrap();
    } else {
        write!(o, "[{}..{}]", r.first, r.last).unwrap();
    }
}
