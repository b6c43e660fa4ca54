//! What an opcode implementation sees of the machine: register reads ([`Io`]: operand fetch
//! with swizzle, indirect addressing per lane, constant buffers and type-dependent modifiers,
//! tgsi_exec.c `fetch_source`) and the result buffers it writes ([`Res`], [`Shape`]), which the
//! machine then stores into the destinations.

use super::io::Constants;
use super::lanes::Lanes;
use super::program::{Inst, Src, Store};
use crate::opcode::ValType;

/// The shape of an ALU result in the result buffers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `res[c]` holds channel c (only the enabled ones are needed).
    PerChannel,
    /// `res[0]` holds the value for every channel.
    Replicated,
    /// The op wrote nothing through the normal path.
    Nothing,
}

/// Result buffers: 4 channels of dst 0, then 4 of dst 1.
pub type Res<'r> = [&'r mut [Lanes]; 8];

/// Read access to registers for the opcode implementations of one instruction.
pub struct Io<'a> {
    /// Storage rows below the hole …
    lo: &'a [Lanes],
    /// … and from the hole's end on. The hole is the destination register being written in
    /// place (fused stores); it is never read through this view.
    hi: &'a [Lanes],
    hole: (usize, usize),
    pub consts: &'a Constants,
    pub exec: &'a [Lanes],
    /// Quads this view covers (the ops loop over `0..nq`).
    pub nq: usize,
    /// Quads per storage row, and the first quad of the view inside each row.
    stride: usize,
    first: usize,
    scratch: std::slice::ChunksExactMut<'a, Lanes>,
}

impl<'a> Io<'a> {
    pub fn new(
        regs: &'a [Lanes],
        consts: &'a Constants,
        exec: &'a [Lanes],
        nq: usize,
        scratch: &'a mut [Lanes],
    ) -> Io<'a> {
        Io::quads(regs, consts, exec, nq, 0..nq, scratch)
    }

    /// A view of quads `range` only, in storage rows of `stride` quads (`exec` covers `range`).
    /// Used to run an instruction over the span of quads that still have active lanes.
    pub(crate) fn quads(
        regs: &'a [Lanes],
        consts: &'a Constants,
        exec: &'a [Lanes],
        stride: usize,
        range: std::ops::Range<usize>,
        scratch: &'a mut [Lanes],
    ) -> Io<'a> {
        let n = range.end.saturating_sub(range.start);
        Io {
            lo: regs,
            hi: &[],
            hole: (usize::MAX, usize::MAX),
            consts,
            exec,
            nq: n,
            stride,
            first: range.start,
            scratch: scratch.chunks_exact_mut(n.max(1)),
        }
    }

    /// A view with rows `hole.0 .. hole.1` missing (they are being written).
    pub(crate) fn with_hole(
        lo: &'a [Lanes],
        hi: &'a [Lanes],
        hole: (usize, usize),
        consts: &'a Constants,
        exec: &'a [Lanes],
        nq: usize,
        scratch: &'a mut [Lanes],
    ) -> Io<'a> {
        Io {
            lo,
            hi,
            hole,
            consts,
            exec,
            nq,
            stride: nq,
            first: 0,
            scratch: scratch.chunks_exact_mut(nq.max(1)),
        }
    }

    /// One storage row (the view's quads of one channel of one register).
    #[inline]
    fn row(&self, row: usize) -> Option<&'a [Lanes]> {
        let (stride, first, n) = (self.stride, self.first, self.nq);
        if row < self.hole.0 {
            let s = row * stride + first;
            self.lo.get(s..s + n)
        } else if row >= self.hole.1 {
            let s = (row - self.hole.1) * stride + first;
            self.hi.get(s..s + n)
        } else {
            None
        }
    }

    /// The batch's index of the view's quad `q`.
    #[inline]
    pub fn quad_index(&self, q: usize) -> usize {
        self.first + q
    }

    /// A free scratch buffer of one channel (nq quads).
    #[inline]
    pub fn tmp(&mut self) -> &'a mut [Lanes] {
        self.scratch.next().unwrap_or_default()
    }

    /// Channel `c` (after swizzle) of source `i`, with its modifiers applied per its type.
    #[inline]
    pub fn src(&mut self, inst: &Inst, i: usize, c: usize) -> &'a [Lanes] {
        let Some(s) = inst.src.get(i) else { return self.tmp() };
        if inst.daz >> i & 1 != 0 {
            return self.fetch_flushed(s, c);
        }
        self.fetch(s, c)
    }

    /// [`Io::fetch`] with denormals read as zero (`Inst::daz`), copied so that the register
    /// itself is left alone.
    #[cold]
    fn fetch_flushed(&mut self, s: &Src, c: usize) -> &'a [Lanes] {
        let v = self.fetch(s, c);
        let out = self.tmp();
        out.copy_from_slice(v);
        flush_denormals(out);
        out
    }

    /// Like [`Io::src`] for a source that is not one of the instruction's operands.
    pub fn fetch(&mut self, s: &Src, c: usize) -> &'a [Lanes] {
        let plain = !s.negate && !s.absolute;
        if plain {
            if let Some(row) = s.direct_row(c) {
                if let Some(sl) = self.row(row as usize) {
                    return sl;
                }
            }
        }
        let buf = self.tmp();
        // Direct float operand with modifiers: one pass (mask the sign bit, flip it).
        if let (Some(row), ValType::Float | ValType::Untyped) =
            (s.direct_row(c), s.ty.unwrap_or(ValType::Float))
        {
            if let Some(sl) = self.row(row as usize) {
                let and = if s.absolute { 0x7fff_ffff } else { u32::MAX };
                let xor = if s.negate { 0x8000_0000 } else { 0 };
                for (o, v) in buf.iter_mut().zip(sl) {
                    for l in 0..4 {
                        o.0[l] = (v.0[l] & and) ^ xor;
                    }
                }
                return buf;
            }
        }
        self.gather(s, c, buf);
        apply_modifiers(buf, s, c);
        buf
    }

    /// Raw bits of channel `c` of a source with no modifiers (for 64-bit ops that apply their own).
    pub fn fetch_raw(&mut self, s: &Src, c: usize) -> &'a [Lanes] {
        let mut plain = *s;
        plain.negate = false;
        plain.absolute = false;
        self.fetch(&plain, c)
    }

    /// Fetches channel `c` of `s` (with modifiers) into `out`.
    pub fn fetch_into(&self, s: &Src, c: usize, out: &mut [Lanes]) {
        self.gather(s, c, out);
        apply_modifiers(out, s, c);
    }

    /// The register index of a resource operand (SAMP, SVIEW, BUFFER, IMAGE, …) for quad `q`:
    /// with `[ADDR[n].c]` the first active lane's address is used for the whole quad, as
    /// tgsi_exec does (tgsi_exec.c `exec_tex`). Negative indices give `u32::MAX` (nothing bound).
    pub fn resource_index(&self, s: &Src, q: usize) -> u32 {
        let Some(a) = s.indirect else { return s.resource };
        let m = self.exec.get(q).copied().unwrap_or_default();
        let lane = (0..4).find(|&l| m.0[l] != 0).unwrap_or(0);
        let idx = s.index.saturating_add(self.addr(a.0, q).0[lane] as i32 as i64);
        u32::try_from(idx).unwrap_or(u32::MAX)
    }

    fn addr(&self, row: u32, q: usize) -> Lanes {
        self.row(row as usize).and_then(|r| r.get(q)).copied().unwrap_or_default()
    }

    fn gather(&self, s: &Src, c: usize, buf: &mut [Lanes]) {
        let chan = s.swizzle[c & 3] as usize;
        match s.store {
            Store::Rows { base, count } => match s.indirect {
                None => {
                    let ok = s.index >= 0 && (s.index as u64) < count as u64;
                    let r = base as usize + s.index.max(0) as usize * 4 + chan;
                    match self.row(r) {
                        Some(sl) if ok => buf.copy_from_slice(sl),
                        _ => buf.fill(Lanes::ZERO),
                    }
                }
                Some(a) => {
                    for (q, out) in buf.iter_mut().enumerate() {
                        let addr = self.addr(a.0, q);
                        for l in 0..4 {
                            let idx = s.index.saturating_add(addr.0[l] as i32 as i64);
                            out.0[l] = if idx >= 0 && idx < count as i64 {
                                let r = base as usize + idx as usize * 4 + chan;
                                self.row(r).and_then(|v| v.get(q)).map_or(0, |v| v.0[l])
                            } else {
                                0
                            };
                        }
                    }
                }
            },
            Store::Const => {
                for (q, out) in buf.iter_mut().enumerate() {
                    let ia = s.indirect.map(|a| self.addr(a.0, q));
                    let da = s.dim_indirect.map(|a| self.addr(a.0, q));
                    for l in 0..4 {
                        let idx = s.index.saturating_add(ia.map_or(0, |a| a.0[l] as i32 as i64));
                        let dim = s.dim.saturating_add(da.map_or(0, |a| a.0[l] as i32 as i64));
                        out.0[l] = self.consts.get(dim, idx, chan);
                    }
                }
            }
            Store::None => buf.fill(Lanes::ZERO),
        }
    }
}

/// Absolute value then negation, in the operand's type (tgsi_exec.c `fetch_source`): float ops
/// flip/clear the sign bit, integer ops negate in two's complement, double ops act on the high
/// word (odd channels). 64-bit integer operands are handled by their opcodes.
fn apply_modifiers(buf: &mut [Lanes], s: &Src, c: usize) {
    if !s.negate && !s.absolute {
        return;
    }
    match s.ty.unwrap_or(ValType::Float) {
        ValType::Float | ValType::Untyped => {
            let and = if s.absolute { 0x7fff_ffff } else { u32::MAX };
            let xor = if s.negate { 0x8000_0000 } else { 0 };
            for l in buf.iter_mut() {
                for v in l.0.iter_mut() {
                    *v = (*v & and) ^ xor;
                }
            }
        }
        ValType::Int | ValType::Uint => {
            for l in buf.iter_mut() {
                for v in l.0.iter_mut() {
                    let mut x = *v as i32;
                    if s.absolute {
                        x = x.wrapping_abs();
                    }
                    if s.negate {
                        x = x.wrapping_neg();
                    }
                    *v = x as u32;
                }
            }
        }
        ValType::Double => {
            if c & 1 == 1 {
                let and = if s.absolute { 0x7fff_ffff } else { u32::MAX };
                let xor = if s.negate { 0x8000_0000 } else { 0 };
                for l in buf.iter_mut() {
                    for v in l.0.iter_mut() {
                        *v = (*v & and) ^ xor;
                    }
                }
            }
        }
        ValType::Int64 | ValType::Uint64 => {}
    }
}

/// Denormal lanes become zeros of the same sign (DAZ).
pub(crate) fn flush_denormals(buf: &mut [Lanes]) {
    for o in buf.iter_mut() {
        *o = Lanes(o.0.map(super::program::flush_denormal));
    }
}
