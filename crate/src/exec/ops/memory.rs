//! LOAD, STORE, RESQ, the ATOM* family, FBFETCH, and the geometry stage's EMIT / ENDPRIM
//! (tgsi.rst "Resource Access Opcodes", "Atomic opcodes", "Geometry ISA"). Resources live in
//! [`Resources`](crate::exec::Resources). Lanes are processed quad by quad, lane 0 to 3, so
//! atomics have one defined order. Only lanes that are active, not helpers and not killed
//! write or perform atomics (tgsi_exec.c masks them with `NonHelperMask`); reads outside a resource
//! give 0 and writes outside it are dropped. Memory qualifiers (COHERENT, RESTRICT, VOLATILE)
//! change nothing in a sequential interpreter and are accepted.

use super::{mask, Ctx, Shape};
use crate::diag::Diagnostic;
use crate::exec::lanes::Lanes;
use crate::exec::memory::{read_word, write_word, Space};
use crate::exec::program::{Inst, Src, Store};
use crate::exec::regs::{Io, Res};
use crate::ir::{File, MemoryKind, TextureTarget};
use crate::opcode::Opcode as O;

/// What a resource operand resolves to for one quad.
#[derive(Clone, Copy, Debug)]
enum Target {
    Buffer(u32),
    Image(u32, TextureTarget),
    Memory(Space),
    /// Atomic buffer and the counter index the operand names.
    Counter(u32, i64),
    None,
}

pub fn run(
    inst: &Inst,
    io: &mut Io,
    res: &mut Res,
    ctx: &mut Ctx,
) -> Option<Result<Shape, Diagnostic>> {
    let shape = match inst.op {
        O::LOAD => load(inst, io, res, ctx),
        O::STORE => store(inst, io, ctx),
        O::RESQ => resq(inst, io, res, ctx),
        O::FBFETCH => fbfetch(inst, io, res, ctx),
        O::EMIT | O::ENDPRIM => emit(inst, io, ctx),
        op if atomic_kind(op).is_some() => atomic(inst, io, res, ctx),
        _ => return None,
    };
    Some(Ok(shape))
}

fn resolve(ctx: &Ctx, io: &Io, s: &Src, q: usize) -> Target {
    let idx = io.resource_index(s, q);
    match s.file {
        Some(File::Buffer) => Target::Buffer(idx),
        Some(File::Image) => {
            let t = ctx
                .program
                .images
                .iter()
                .find(|(i, _, _)| *i == idx)
                .map_or(TextureTarget::Tex2D, |d| d.1);
            Target::Image(idx, t)
        }
        Some(File::Memory) => {
            let kind = ctx
                .program
                .memories
                .iter()
                .find(|(i, _)| *i == idx)
                .map_or(MemoryKind::Global, |d| d.1);
            Target::Memory(match kind {
                MemoryKind::Shared => Space::Shared,
                MemoryKind::Private => Space::Private,
                _ => Space::Global,
            })
        }
        Some(File::Hwatomic) => Target::Counter(u32::try_from(s.dim).unwrap_or(u32::MAX), s.index),
        _ => Target::None,
    }
}

/// The destination of STORE seen as a resource operand.
fn dst_as_src(inst: &Inst) -> Src {
    let d = inst.dst[0];
    Src {
        store: Store::None,
        index: d.index,
        indirect: d.indirect,
        resource: d.index.clamp(0, u32::MAX as i64) as u32,
        file: d.file,
        swizzle: [0, 1, 2, 3],
        ..Src::default()
    }
}

/// Lanes of quad `q` that may have side effects: active, not helpers, not killed.
fn writers(io: &Io, ctx: &Ctx, q: usize) -> [bool; 4] {
    let e = io.exec.get(q).copied().unwrap_or_default();
    let h = ctx.helper.get(q).copied().unwrap_or_default();
    let k = ctx.kill.get(q).copied().unwrap_or_default();
    [0, 1, 2, 3].map(|l| e.0[l] != 0 && h.0[l] == 0 && k.0[l] == 0)
}

/// Image coordinates used by a target: x; x, y; or x, y, z (tgsi.rst LOAD: the array index is
/// in y for 1D arrays and in z for 2D arrays).
fn image_coords(t: TextureTarget, a: [u32; 4]) -> (i64, i64, i64) {
    use TextureTarget::*;
    let v = |i: usize| a[i] as i32 as i64;
    match t {
        Buffer | Tex1D | Shadow1D => (v(0), 0, 0),
        Tex2D | Rect | Array1D | Shadow2D | ShadowRect | Shadow1DArray | Msaa2D => (v(0), v(1), 0),
        _ => (v(0), v(1), v(2)),
    }
}

fn lane_vec(v: &[&[Lanes]; 4], q: usize, l: usize) -> [u32; 4] {
    [0, 1, 2, 3].map(|c| v[c].get(q).map_or(0, |x| x.0[l]))
}

/// The four words at a byte address of a byte-addressed resource.
fn read4(ctx: &mut Ctx, t: Target, invocation: usize, addr: u32) -> [u32; 4] {
    let base = addr as u64;
    let words = |b: &[u8]| [0u64, 1, 2, 3].map(|c| read_word(b, base + 4 * c));
    match t {
        Target::Buffer(n) => ctx.mem.buffers.get(&n).map_or([0; 4], |b| words(b)),
        Target::Memory(s) => ctx.mem.space_mut(s, invocation).map_or([0; 4], |b| words(b)),
        Target::Counter(b, i) => {
            let at = (i.saturating_add(addr as i64)).saturating_mul(4);
            let w = u64::try_from(at).map_or(0, |at| {
                ctx.mem.atomic_buffers.get(&b).map_or(0, |bytes| read_word(bytes, at))
            });
            [w, 0, 0, 0]
        }
        _ => [0; 4],
    }
}

fn load(inst: &Inst, io: &mut Io, res: &mut Res, ctx: &mut Ctx) -> Shape {
    let r = inst.src[0];
    let addr: [&[Lanes]; 4] = std::array::from_fn(|c| io.src(inst, 1, c));
    let m = mask(inst);
    for q in 0..io.nq {
        let t = resolve(ctx, io, &r, q);
        let mut out = [[0u32; 4]; 4];
        for l in 0..4 {
            let a = lane_vec(&addr, q, l);
            let v = match t {
                Target::Image(n, tt) => {
                    let (x, y, z) = image_coords(tt, a);
                    ctx.mem.images.get(&n).map_or([0; 4], |img| img.load(x, y, z))
                }
                other => read4(ctx, other, q * 4 + l, a[0]),
            };
            // A swizzle on the resource operand swizzles the data (tgsi.rst LOAD).
            for c in 0..4 {
                out[c][l] = v[r.swizzle[c] as usize & 3];
            }
        }
        for (c, v) in out.iter().enumerate() {
            if m >> c & 1 != 0 {
                if let Some(o) = res[c].get_mut(q) {
                    *o = Lanes(*v);
                }
            }
        }
    }
    Shape::PerChannel
}

fn store(inst: &Inst, io: &mut Io, ctx: &mut Ctx) -> Shape {
    let r = dst_as_src(inst);
    let m = inst.dst[0].mask;
    let addr: [&[Lanes]; 4] = std::array::from_fn(|c| io.src(inst, 0, c));
    let val: [&[Lanes]; 4] = std::array::from_fn(|c| io.src(inst, 1, c));
    for q in 0..io.nq {
        let t = resolve(ctx, io, &r, q);
        let w = writers(io, ctx, q);
        for l in (0..4).filter(|&l| w[l]) {
            let a = lane_vec(&addr, q, l);
            let v = lane_vec(&val, q, l);
            match t {
                Target::Image(n, tt) => {
                    let (x, y, z) = image_coords(tt, a);
                    if let Some(img) = ctx.mem.images.get_mut(&n) {
                        // Channels outside the write mask keep the texel's value.
                        let mut texel = img.load(x, y, z);
                        for c in (0..4).filter(|c| m >> c & 1 != 0) {
                            texel[c] = v[c];
                        }
                        let at = img.store(x, y, z, texel);
                        // Only the channels written count as written: the others were
                        // decoded and encoded again.
                        if let (Some(o), Some(log)) = (at, ctx.mem.written.as_deref_mut()) {
                            if let Some(set) = log.images.get_mut(&n) {
                                for c in (0..4).filter(|c| m >> c & 1 != 0) {
                                    if let Some(r) = img.format.channel_bytes(c) {
                                        set.insert(o + r.start..o + r.end);
                                    }
                                }
                            }
                        }
                    }
                }
                Target::None => {}
                Target::Buffer(n) => {
                    if let Some(b) = ctx.mem.buffers.get_mut(&n) {
                        let log = ctx.mem.written.as_deref_mut();
                        let mut set = log.and_then(|w| w.buffers.get_mut(&n));
                        for c in (0..4).filter(|c| m >> c & 1 != 0) {
                            let r = write_word(b, a[0] as u64 + 4 * c as u64, v[c]);
                            if let (Some(r), Some(set)) = (r, set.as_deref_mut()) {
                                set.insert(r);
                            }
                        }
                    }
                }
                Target::Memory(Space::Global) => {
                    let b = &mut ctx.mem.global;
                    let mut set = ctx.mem.written.as_deref_mut().map(|w| &mut w.global);
                    for c in (0..4).filter(|c| m >> c & 1 != 0) {
                        let r = write_word(b, a[0] as u64 + 4 * c as u64, v[c]);
                        if let (Some(r), Some(set)) = (r, set.as_deref_mut()) {
                            set.insert(r);
                        }
                    }
                }
                Target::Memory(s) => {
                    if let Some(b) = ctx.mem.space_mut(s, q * 4 + l) {
                        for c in (0..4).filter(|c| m >> c & 1 != 0) {
                            write_word(b, a[0] as u64 + 4 * c as u64, v[c]);
                        }
                    }
                }
                Target::Counter(..) => {}
            }
        }
    }
    Shape::Nothing
}

/// RESQ: buffers and memory give their size in bytes in x; images (width, height, depth or
/// layers, 1 sample) — tgsi.rst "RESQ".
fn resq(inst: &Inst, io: &mut Io, res: &mut Res, ctx: &mut Ctx) -> Shape {
    let r = inst.src[0];
    for q in 0..io.nq {
        let v = match resolve(ctx, io, &r, q) {
            Target::Buffer(n) => [ctx.mem.buffers.get(&n).map_or(0, |b| b.len() as u32), 0, 0, 0],
            Target::Image(n, _) => {
                ctx.mem.images.get(&n).map_or([0; 4], |i| [i.width, i.height, i.depth, 1])
            }
            Target::Memory(s) => {
                [ctx.mem.space_mut(s, q * 4).map_or(0, |b| b.len() as u32), 0, 0, 0]
            }
            Target::Counter(b, _) => {
                [ctx.mem.atomic_buffers.get(&b).map_or(0, |b| b.len() as u32), 0, 0, 0]
            }
            Target::None => [0; 4],
        };
        for (c, x) in v.iter().enumerate() {
            if let Some(o) = res[c].get_mut(q) {
                *o = Lanes::splat(*x);
            }
        }
    }
    Shape::PerChannel
}

/// FBFETCH dst, OUT[n]: the colour the framebuffer held before this invocation (0 when the
/// caller gave none).
fn fbfetch(inst: &Inst, io: &mut Io, res: &mut Res, ctx: &mut Ctx) -> Shape {
    let reg = u32::try_from(inst.src[0].index).unwrap_or(u32::MAX);
    let fb = ctx.mem.framebuffer.get(&reg);
    for q in 0..io.nq {
        let px = fb.and_then(|f| f.get(q)).copied().unwrap_or([[0.0; 4]; 4]);
        for c in 0..4 {
            if let Some(o) = res[c].get_mut(q) {
                *o = Lanes::from_f32([0, 1, 2, 3].map(|l| px[l][c]));
            }
        }
    }
    Shape::PerChannel
}

#[derive(Clone, Copy)]
enum Atom {
    UAdd,
    Xchg,
    Cas,
    And,
    Or,
    Xor,
    UMin,
    UMax,
    IMin,
    IMax,
    FAdd,
    IncWrap,
    DecWrap,
}

fn atomic_kind(op: crate::opcode::Opcode) -> Option<Atom> {
    Some(match op {
        O::ATOMUADD => Atom::UAdd,
        O::ATOMXCHG => Atom::Xchg,
        O::ATOMCAS => Atom::Cas,
        O::ATOMAND => Atom::And,
        O::ATOMOR => Atom::Or,
        O::ATOMXOR => Atom::Xor,
        O::ATOMUMIN => Atom::UMin,
        O::ATOMUMAX => Atom::UMax,
        O::ATOMIMIN => Atom::IMin,
        O::ATOMIMAX => Atom::IMax,
        O::ATOMFADD => Atom::FAdd,
        O::ATOMINC_WRAP => Atom::IncWrap,
        O::ATOMDEC_WRAP => Atom::DecWrap,
        _ => return None,
    })
}

/// The new value of an atomic (tgsi.rst "Atomic opcodes"); `a` is src.x, `b` the second
/// operand of ATOMCAS.
pub fn atomic_result(kind_op: crate::opcode::Opcode, old: u32, a: u32, b: u32) -> u32 {
    let Some(kind) = atomic_kind(kind_op) else { return old };
    match kind {
        Atom::UAdd => old.wrapping_add(a),
        Atom::Xchg => a,
        Atom::Cas => {
            if old == a {
                b
            } else {
                old
            }
        }
        Atom::And => old & a,
        Atom::Or => old | a,
        Atom::Xor => old ^ a,
        Atom::UMin => old.min(a),
        Atom::UMax => old.max(a),
        Atom::IMin => (old as i32).min(a as i32) as u32,
        Atom::IMax => (old as i32).max(a as i32) as u32,
        Atom::FAdd => (f32::from_bits(old) + f32::from_bits(a)).to_bits(),
        // resource = old + 1 <= src ? old + 1 : 0
        Atom::IncWrap => {
            if (old as u64) < a as u64 {
                old + 1
            } else {
                0
            }
        }
        // resource = (old > 0 && old < src) ? old - 1 : 0
        Atom::DecWrap => {
            if old > 0 && old < a {
                old - 1
            } else {
                0
            }
        }
    }
}

fn atomic(inst: &Inst, io: &mut Io, res: &mut Res, ctx: &mut Ctx) -> Shape {
    let r = inst.src[0];
    let addr: [&[Lanes]; 4] = std::array::from_fn(|c| io.src(inst, 1, c));
    let a = io.src(inst, 2, 0);
    let b = io.src(inst, 3, 0);
    let m = mask(inst);
    for q in 0..io.nq {
        let t = resolve(ctx, io, &r, q);
        let w = writers(io, ctx, q);
        let mut old = [0u32; 4];
        for l in (0..4).filter(|&l| w[l]) {
            let ad = lane_vec(&addr, q, l);
            let (av, bv) = (a.get(q).map_or(0, |x| x.0[l]), b.get(q).map_or(0, |x| x.0[l]));
            old[l] = match t {
                Target::Image(n, tt) => {
                    let (x, y, z) = image_coords(tt, ad);
                    match ctx.mem.images.get_mut(&n) {
                        Some(img) if img.format.atomic() && img.offset(x, y, z).is_some() => {
                            let mut texel = img.load(x, y, z);
                            let prev = texel[0];
                            texel[0] = atomic_result(inst.op, prev, av, bv);
                            let at = img.store(x, y, z, texel);
                            let log = ctx.mem.written.as_deref_mut();
                            if let (Some(o), Some(set)) =
                                (at, log.and_then(|w| w.images.get_mut(&n)))
                            {
                                set.insert(o..o + img.format.bytes());
                            }
                            prev
                        }
                        _ => 0,
                    }
                }
                Target::None => 0,
                other => {
                    // The word's resource, and its set of written bytes when it is shared by
                    // every block and a log is kept.
                    let log = ctx.mem.written.as_deref_mut();
                    let (bytes, at, set) = match other {
                        Target::Buffer(n) => (
                            ctx.mem.buffers.get_mut(&n),
                            Some(ad[0] as u64),
                            log.and_then(|w| w.buffers.get_mut(&n)),
                        ),
                        Target::Memory(Space::Global) => (
                            Some(&mut ctx.mem.global),
                            Some(ad[0] as u64),
                            log.map(|w| &mut w.global),
                        ),
                        Target::Memory(s) => {
                            (ctx.mem.space_mut(s, q * 4 + l), Some(ad[0] as u64), None)
                        }
                        Target::Counter(bn, i) => {
                            let word = i.saturating_add(ad[0] as i64).saturating_mul(4);
                            (
                                ctx.mem.atomic_buffers.get_mut(&bn),
                                u64::try_from(word).ok(),
                                log.and_then(|w| w.atomic_buffers.get_mut(&bn)),
                            )
                        }
                        _ => (None, None, None),
                    };
                    match (bytes, at) {
                        (Some(bytes), Some(at)) if (at as u128) + 4 <= bytes.len() as u128 => {
                            let prev = read_word(bytes, at);
                            let r = write_word(bytes, at, atomic_result(inst.op, prev, av, bv));
                            if let (Some(r), Some(set)) = (r, set) {
                                set.insert(r);
                            }
                            prev
                        }
                        _ => 0,
                    }
                }
            };
        }
        // dst.x receives the old value; other enabled channels get it too.
        for c in 0..4 {
            if m >> c & 1 != 0 {
                if let Some(o) = res[c].get_mut(q) {
                    *o = Lanes(old);
                }
            }
        }
    }
    Shape::PerChannel
}

/// EMIT src (stream in src.x): appends the lane's OUT registers as a vertex of the open
/// primitive of that stream; ENDPRIM closes it (tgsi.rst "Geometry ISA"). Vertices past
/// GS_MAX_OUTPUT_VERTICES are dropped. Without an emit sink (not a geometry run) both do
/// nothing.
fn emit(inst: &Inst, io: &mut Io, ctx: &mut Ctx) -> Shape {
    if ctx.mem.emits.is_none() {
        return Shape::Nothing;
    }
    let stream = io.src(inst, 0, 0);
    let (base, count) = ctx.program.layout.out;
    let outs: Vec<[&[Lanes]; 4]> = (0..count)
        .map(|reg| {
            let s = Src {
                store: Store::Rows { base, count },
                index: reg as i64,
                swizzle: [0, 1, 2, 3],
                ..Src::default()
            };
            std::array::from_fn(|c| io.fetch(&s, c))
        })
        .collect();
    for q in 0..io.nq {
        let w = writers(io, ctx, q);
        let Some(sink) = ctx.mem.emits.as_mut() else { break };
        let max = sink.max_vertices;
        for l in (0..4).filter(|&l| w[l]) {
            let inv = q * 4 + l;
            if sink.invocations.len() <= inv {
                sink.invocations.resize(inv + 1, Default::default());
            }
            let Some(e) = sink.invocations.get_mut(inv) else { continue };
            let st = stream.get(q).map_or(0, |s| s.0[l]) as usize & 3;
            if inst.op == O::ENDPRIM {
                e.end_primitive(st);
            } else if e.emitted < max {
                e.emitted += 1;
                let vertex: Vec<[u32; 4]> = outs.iter().map(|o| lane_vec(o, q, l)).collect();
                if let Some(open) = e.open.get_mut(st) {
                    open.push(vertex);
                }
            }
        }
    }
    Shape::Nothing
}
