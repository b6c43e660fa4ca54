//! A small builder of hand-made shaders for the validator's unit tests (written before the
//! parser existed; the text-based suite lives in `crate/tests/valid_*.rs`).
//! Spans are synthetic: declaration `k` covers `10k..10k+5`, instruction `k` covers
//! `1000+10k..1000+10k+5`, immediate `k` covers `500+10k..`, so tests can tell statements apart.

use crate::ir::*;
use crate::opcode::Opcode;

pub fn decl_span(k: usize) -> Span {
    Span::new(10 * k, 10 * k + 5)
}
pub fn ins_span(k: usize) -> Span {
    Span::new(1000 + 10 * k, 1000 + 10 * k + 5)
}

pub fn reg(file: File, index: i64) -> RegRef {
    RegRef { file, dimension: None, index: Bracket::direct(index), span: Span::default() }
}
pub fn reg2(file: File, dim: i64, index: i64) -> RegRef {
    RegRef {
        file,
        dimension: Some(Bracket::direct(dim)),
        index: Bracket::direct(index),
        span: Span::default(),
    }
}
pub fn dst(r: RegRef, mask: u8) -> DstOperand {
    DstOperand { reg: r, write_mask: WriteMask(mask), span: r.span }
}
pub fn src(r: RegRef) -> SrcOperand {
    SrcOperand { reg: r, swizzle: Swizzle::IDENTITY, negate: false, absolute: false, span: r.span }
}

pub struct Builder {
    pub s: Shader,
}

impl Builder {
    pub fn new(p: Processor) -> Builder {
        Builder { s: Shader::new(p) }
    }
    pub fn decl(mut self, mut d: Declaration) -> Builder {
        let k = self.s.declarations.len();
        d.span = decl_span(k);
        if let Some(s) = d.semantic.as_mut() {
            s.span = d.span;
        }
        d.range.span = d.span;
        self.s.order.push(Statement::Declaration(k));
        self.s.declarations.push(d);
        self
    }
    pub fn dcl(self, file: File, first: u32, last: u32) -> Builder {
        self.decl(Declaration::new(file, first, last))
    }
    pub fn dcl_sem(
        self,
        file: File,
        first: u32,
        last: u32,
        name: SemanticName,
        index: u32,
    ) -> Builder {
        let mut d = Declaration::new(file, first, last);
        d.semantic = Some(Semantic { name, index, span: Span::default() });
        self.decl(d)
    }
    pub fn imm(mut self, ty: ImmType) -> Builder {
        let k = self.s.immediates.len();
        self.s.order.push(Statement::Immediate(k));
        self.s.immediates.push(Immediate {
            ty,
            bits: [0; 4],
            count: 4,
            written_index: None,
            span: Span::new(500 + 10 * k, 505 + 10 * k),
        });
        self
    }
    pub fn ins(mut self, mut i: Instruction) -> Builder {
        let k = self.s.instructions.len();
        i.span = ins_span(k);
        i.opcode_span = i.span;
        self.s.order.push(Statement::Instruction(k));
        self.s.instructions.push(i);
        self
    }
    /// An instruction from opcode and operands.
    pub fn op(self, op: Opcode, dsts: Vec<DstOperand>, srcs: Vec<SrcOperand>) -> Builder {
        let mut i = Instruction::new(op);
        i.dst = dsts;
        i.src = srcs;
        self.ins(i)
    }
    /// A bare opcode (END, ELSE, ENDIF, …) or one with a single `TEMP[0]` source for IF & co.
    pub fn flow(self, op: Opcode) -> Builder {
        let srcs = match op {
            Opcode::IF | Opcode::UIF | Opcode::SWITCH | Opcode::CASE => {
                vec![src(reg(File::Temp, 0))]
            }
            _ => Vec::new(),
        };
        self.op(op, Vec::new(), srcs)
    }
    pub fn labeled(self, op: Opcode, label: u32) -> Builder {
        let mut b = self.flow(op);
        if let Some(i) = b.s.instructions.last_mut() {
            i.label = Some(label);
        }
        b
    }
    pub fn build(self) -> Shader {
        self.s
    }
}

/// A fragment shader with `TEMP[0]` and `OUT[0], COLOR` declared, whose body is `f(builder)`,
/// followed by `MOV OUT[0], TEMP[0]` and END.
pub fn frag_with(f: impl FnOnce(Builder) -> Builder) -> Shader {
    let b = Builder::new(Processor::Fragment).dcl_sem(File::Out, 0, 0, SemanticName::Color, 0).dcl(
        File::Temp,
        0,
        0,
    );
    let b = f(b);
    b.op(Opcode::MOV, vec![dst(reg(File::Out, 0), 0xF)], vec![src(reg(File::Temp, 0))])
        .flow(Opcode::END)
        .build()
}

/// Codes of the diagnostics, in order.
pub fn codes(d: &[crate::diag::Diagnostic]) -> Vec<&'static str> {
    d.iter().map(|x| x.code).collect()
}
