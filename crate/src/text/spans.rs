//! Comparing shader models regardless of where their parts were written.

use crate::ir::*;

/// A copy of `shader` with every span cleared, so that two models read from differently laid
/// out texts compare equal when they say the same thing (`strip_spans(a) == strip_spans(b)`).
pub fn strip_spans(shader: &Shader) -> Shader {
    let mut s = shader.clone();
    let z = Span::default();
    s.header_span = z;
    for p in &mut s.properties {
        p.span = z;
    }
    for d in &mut s.declarations {
        d.span = z;
        d.range.span = z;
        if let DclDimension::Range(r) = &mut d.dimension {
            r.span = z;
        }
        if let Some(sem) = &mut d.semantic {
            sem.span = z;
        }
    }
    for i in &mut s.immediates {
        i.span = z;
    }
    for inst in &mut s.instructions {
        inst.span = z;
        inst.opcode_span = z;
        for d in &mut inst.dst {
            d.span = z;
            clear_reg(&mut d.reg);
        }
        for src in &mut inst.src {
            src.span = z;
            clear_reg(&mut src.reg);
        }
        for t in &mut inst.tex_offsets {
            t.span = z;
            clear_reg(&mut t.reg);
        }
    }
    s
}

fn clear_reg(r: &mut RegRef) {
    r.span = Span::default();
    for b in r.dimension.iter_mut().chain(std::iter::once(&mut r.index)) {
        b.span = Span::default();
        if let Some(ind) = &mut b.indirect {
            ind.span = Span::default();
        }
    }
}
