//! Running the fast kernels (`kernels.rs`) and the fused conditional break.
//!
//! A kernel runs over each run of quads with active lanes (`Machine::runs`) as one pass per
//! destination channel over flat `u32` slices: read the sources (float modifiers applied as
//! `(x & and) ^ xor`), compute, saturate, and write the destination row — a plain store when
//! every lane of the batch is active, a blend with the exec mask otherwise. The formulas are
//! the `ops` family files' (scalar IEEE operations, no fused multiply-add), so results are
//! bit-identical; LLVM vectorizes these loops at the machine's full width.

use super::io::Constants;
use super::lanes::{flat, flat_mut, from_fv, fv, iv, Lanes};
use super::machine::{saturate, Machine};
use super::ops::int::{f2i, f2u, ishr, shl, ushr};
use super::ops::lane;
use super::program::{Inst, Kernel, KernelOp as K, SrcRow, NO_SNAPSHOT};
use crate::opcode::Opcode;

/// A source channel resolved for one run: its quads as flat lanes and its float modifiers.
#[derive(Clone, Copy)]
struct Operand<'a> {
    bits: &'a [u32],
    and: u32,
    xor: u32,
}

/// Read access to every storage row except the destination row being written (the hole),
/// and to the snapshots of destination rows that sources read.
struct Rows<'a> {
    lo: &'a [Lanes],
    hi: &'a [Lanes],
    /// Element range of the hole in storage.
    hole: (usize, usize),
    snapshots: &'a [Lanes],
    nq: usize,
    first: usize,
    n: usize,
}

impl<'a> Rows<'a> {
    #[inline]
    fn get(&self, s: SrcRow) -> Operand<'a> {
        let n = self.n;
        let quads = if s.in_place {
            // Read from the destination itself by the in-place passes.
            Some(&[][..])
        } else if s.snapshot != NO_SNAPSHOT {
            let at = usize::from(s.snapshot) * n;
            self.snapshots.get(at..at + n)
        } else {
            let at = s.row as usize * self.nq + self.first;
            if at + n <= self.hole.0 {
                self.lo.get(at..at + n)
            } else if at >= self.hole.1 {
                let at = at - self.hole.1;
                self.hi.get(at..at + n)
            } else {
                // Never: only snapshotted rows can be destination rows.
                None
            }
        };
        Operand { bits: flat(quads.unwrap_or_default()), and: s.and, xor: s.xor }
    }
}

/// Applies a source's float modifiers; `MODS` is false when no source of the instruction has
/// any (the loops then skip two operations per source and lane).
#[inline(always)]
fn m<const MODS: bool>(o: &Operand, x: u32) -> u32 {
    if MODS {
        (x & o.and) ^ o.xor
    } else {
        x
    }
}

#[inline(always)]
fn f(x: u32) -> f32 {
    f32::from_bits(x)
}

#[inline(always)]
fn sat(x: u32) -> u32 {
    saturate(f32::from_bits(x)).to_bits()
}

#[inline(always)]
fn pass1<const MODS: bool>(
    d: &mut [u32],
    a: Operand,
    exec: Option<&[u32]>,
    g: impl Fn(u32) -> u32,
) {
    match exec {
        None => {
            for (d, &x) in d.iter_mut().zip(a.bits) {
                *d = g(m::<MODS>(&a, x));
            }
        }
        Some(e) => {
            for ((d, &x), &e) in d.iter_mut().zip(a.bits).zip(e) {
                *d = (g(m::<MODS>(&a, x)) & e) | (*d & !e);
            }
        }
    }
}

#[inline(always)]
fn pass2<const MODS: bool>(
    d: &mut [u32],
    a: Operand,
    b: Operand,
    exec: Option<&[u32]>,
    g: impl Fn(u32, u32) -> u32,
) {
    match exec {
        None => {
            for ((d, &x), &y) in d.iter_mut().zip(a.bits).zip(b.bits) {
                *d = g(m::<MODS>(&a, x), m::<MODS>(&b, y));
            }
        }
        Some(e) => {
            for (((d, &x), &y), &e) in d.iter_mut().zip(a.bits).zip(b.bits).zip(e) {
                *d = (g(m::<MODS>(&a, x), m::<MODS>(&b, y)) & e) | (*d & !e);
            }
        }
    }
}

#[inline(always)]
fn pass3<const MODS: bool>(
    d: &mut [u32],
    a: Operand,
    b: Operand,
    c: Operand,
    exec: Option<&[u32]>,
    g: impl Fn(u32, u32, u32) -> u32,
) {
    match exec {
        None => {
            for (((d, &x), &y), &z) in d.iter_mut().zip(a.bits).zip(b.bits).zip(c.bits) {
                *d = g(m::<MODS>(&a, x), m::<MODS>(&b, y), m::<MODS>(&c, z));
            }
        }
        Some(e) => {
            for ((((d, &x), &y), &z), &e) in d.iter_mut().zip(a.bits).zip(b.bits).zip(c.bits).zip(e)
            {
                *d = (g(m::<MODS>(&a, x), m::<MODS>(&b, y), m::<MODS>(&c, z)) & e) | (*d & !e);
            }
        }
    }
}

/// A two-source pass where one operand is the destination row itself (`A_IS_DST`: operand a,
/// else operand b), read lane by lane before the lane is written; no modifiers.
#[inline(always)]
fn pass2_in_place<const A_IS_DST: bool>(
    d: &mut [u32],
    other: Operand,
    exec: Option<&[u32]>,
    g: impl Fn(u32, u32) -> u32,
) {
    let g = |old: u32, y: u32| if A_IS_DST { g(old, y) } else { g(y, old) };
    match exec {
        None => {
            for (d, &y) in d.iter_mut().zip(other.bits) {
                *d = g(*d, y);
            }
        }
        Some(e) => {
            for ((d, &y), &e) in d.iter_mut().zip(other.bits).zip(e) {
                *d = (g(*d, y) & e) | (*d & !e);
            }
        }
    }
}

/// A two-source pass with operand `in_place` (0 or 1) read from the destination, if any.
#[inline(always)]
fn run2<const MODS: bool>(
    d: &mut [u32],
    a: Operand,
    b: Operand,
    in_place: Option<usize>,
    exec: Option<&[u32]>,
    g: impl Fn(u32, u32) -> u32,
) {
    match in_place {
        Some(0) if !MODS => pass2_in_place::<true>(d, b, exec, g),
        Some(1) if !MODS => pass2_in_place::<false>(d, a, exec, g),
        _ => pass2::<MODS>(d, a, b, exec, g),
    }
}

/// DP2 in one pass: `a0*b0`, then `a1*b1 + that` (tgsi_exec's MUL then MAD, each rounded).
fn dot2(d: &mut [u32], t: [(Operand, Operand); 2], saturated: bool, exec: Option<&[u32]>) {
    let [(a, b), (c, e)] = t;
    let g = |x, y, z, w| {
        let first = lane::mul(f(m::<true>(&a, x)), f(m::<true>(&b, y)));
        lane::dot_step(first, f(m::<true>(&c, z)), f(m::<true>(&e, w))).to_bits()
    };
    let g = |x, y, z, w| if saturated { sat(g(x, y, z, w)) } else { g(x, y, z, w) };
    let ops = d.iter_mut().zip(a.bits).zip(b.bits).zip(c.bits).zip(e.bits);
    match exec {
        None => {
            for ((((d, &x), &y), &z), &w) in ops {
                *d = g(x, y, z, w);
            }
        }
        Some(mask) => {
            for (((((d, &x), &y), &z), &w), &k) in ops.zip(mask) {
                *d = (g(x, y, z, w) & k) | (*d & !k);
            }
        }
    }
}

/// One destination channel of a component-wise kernel.
fn channel<const MODS: bool>(
    op: K,
    saturated: bool,
    d: &mut [u32],
    s: [Operand; 3],
    in_place: Option<usize>,
    exec: Option<&[u32]>,
) {
    let [a, b, c] = s;
    macro_rules! p1 {
        ($g:expr) => {{
            let g = $g;
            if saturated {
                pass1::<MODS>(d, a, exec, |x| sat(g(x)))
            } else {
                pass1::<MODS>(d, a, exec, g)
            }
        }};
    }
    macro_rules! p2 {
        ($g:expr) => {{
            let g = $g;
            if saturated {
                run2::<MODS>(d, a, b, in_place, exec, |x, y| sat(g(x, y)))
            } else {
                run2::<MODS>(d, a, b, in_place, exec, g)
            }
        }};
    }
    macro_rules! i2 {
        // Integer results: `_SAT` does not apply (decode never sets it for them).
        ($g:expr) => {
            run2::<MODS>(d, a, b, in_place, exec, $g)
        };
    }
    match op {
        K::Mov => p1!(|x| x),
        K::Add => p2!(|x, y| lane::add(f(x), f(y)).to_bits()),
        K::Sub => p2!(|x, y| lane::sub(f(x), f(y)).to_bits()),
        K::Mul => p2!(|x, y| lane::mul(f(x), f(y)).to_bits()),
        K::Div => p2!(|x, y| lane::div(f(x), f(y)).to_bits()),
        K::Mad => {
            let g = |x, y, z| lane::mad(f(x), f(y), f(z)).to_bits();
            if saturated {
                pass3::<MODS>(d, a, b, c, exec, |x, y, z| sat(g(x, y, z)))
            } else {
                pass3::<MODS>(d, a, b, c, exec, g)
            }
        }
        K::Min => p2!(|x, y| lane::min(f(x), f(y)).to_bits()),
        K::Max => p2!(|x, y| lane::max(f(x), f(y)).to_bits()),
        K::Slt => p2!(|x, y| lane::slt(f(x), f(y)).to_bits()),
        K::Sge => p2!(|x, y| lane::sge(f(x), f(y)).to_bits()),
        K::Seq => p2!(|x, y| lane::seq(f(x), f(y)).to_bits()),
        K::Sne => p2!(|x, y| lane::sne(f(x), f(y)).to_bits()),
        K::Sgt => p2!(|x, y| lane::sgt(f(x), f(y)).to_bits()),
        K::Sle => p2!(|x, y| lane::sle(f(x), f(y)).to_bits()),
        K::Fslt => i2!(|x, y| lane::fslt(f(x), f(y)).to_bits()),
        K::Fsge => i2!(|x, y| lane::fsge(f(x), f(y)).to_bits()),
        K::Fseq => i2!(|x, y| lane::fseq(f(x), f(y)).to_bits()),
        K::Fsne => i2!(|x, y| lane::fsne(f(x), f(y)).to_bits()),
        K::Uadd => i2!(lane::uadd),
        K::Umul => i2!(lane::umul),
        K::Imin => i2!(lane::imin),
        K::Imax => i2!(lane::imax),
        K::Umin => i2!(lane::umin),
        K::Umax => i2!(lane::umax),
        K::Isge => i2!(lane::isge::<u32>),
        K::Islt => i2!(lane::islt::<u32>),
        K::Useq => i2!(lane::useq::<u32>),
        K::Usne => i2!(lane::usne::<u32>),
        K::Usge => i2!(lane::usge),
        K::Uslt => i2!(lane::uslt),
        K::Shl => i2!(shl),
        K::Ishr => i2!(ishr),
        K::Ushr => i2!(ushr),
        K::And => i2!(lane::and),
        K::Or => i2!(lane::or),
        K::Xor => i2!(lane::xor),
        K::Not => pass1::<MODS>(d, a, exec, lane::not),
        K::I2f => p1!(lane::i2f),
        K::U2f => p1!(lane::u2f),
        K::F2i => pass1::<MODS>(d, a, exec, |x| f2i(f(x)) as u32),
        K::F2u => pass1::<MODS>(d, a, exec, |x| f2u(f(x))),
        // Dot products run through `dot` (replicated result).
        K::Dot(_) => {}
    }
}

/// `t = a0*b0`, then `t = ak*bk + t` for each further term: tgsi_exec's MUL then MADs, each
/// product and sum rounded.
fn dot(t: &mut [u32], terms: &[(Operand, Operand)]) {
    let mut terms = terms.iter();
    if let Some((a, b)) = terms.next() {
        for ((t, &x), &y) in t.iter_mut().zip(a.bits).zip(b.bits) {
            *t = lane::mul(f(m::<true>(a, x)), f(m::<true>(b, y))).to_bits();
        }
    }
    for (a, b) in terms {
        for ((t, &x), &y) in t.iter_mut().zip(a.bits).zip(b.bits) {
            *t = lane::dot_step(f(*t), f(m::<true>(a, x)), f(m::<true>(b, y))).to_bits();
        }
    }
}

impl Machine {
    /// Runs a fast kernel over the runs of quads with active lanes.
    pub(crate) fn run_kernel(&mut self, k: &Kernel) {
        for i in 0..self.runs.len() {
            let Some(&(a, b)) = self.runs.get(i) else { break };
            self.run_kernel_quads(k, a, b);
        }
    }

    fn run_kernel_quads(&mut self, k: &Kernel, first: usize, end: usize) {
        let (nq, n) = (self.nq, end.saturating_sub(first));
        let snaps = usize::from(k.num_snapshots).min(4);
        if n == 0 || self.scratch.len() < (snaps + 1) * n {
            return;
        }
        let (snapshots, spare) = self.scratch.split_at_mut(snaps * n);
        for (s, &row) in k.snapshots.iter().take(snaps).enumerate() {
            let at = row as usize * nq + first;
            if let (Some(to), Some(from)) =
                (snapshots.get_mut(s * n..s * n + n), self.regs.get(at..at + n))
            {
                to.copy_from_slice(from);
            }
        }
        let exec = if self.all_active { None } else { self.exec.get(first..end).map(flat) };
        let mut dot_result = None;
        if let (K::Dot(2), 0b0001 | 0b0010 | 0b0100 | 0b1000) = (k.op, k.mask) {
            // One channel: products, sum, saturation and store in one pass (a source that is
            // the destination row reads its snapshot).
            let c = k.mask.trailing_zeros() as usize;
            let at = k.dst[c] as usize * nq + first;
            if self.regs.len() < at + n {
                return;
            }
            let (lo, rest) = self.regs.split_at_mut(at);
            let (dst, hi) = rest.split_at_mut(n);
            let rows = Rows { lo, hi, hole: (at, at + n), snapshots, nq, first, n };
            let t = [0, 1].map(|i| (rows.get(k.src[0][i]), rows.get(k.src[1][i])));
            dot2(flat_mut(dst), t, k.saturate, exec);
            return;
        }
        if let K::Dot(terms) = k.op {
            // Computed once, before any channel is written, then stored to each.
            let rows = Rows {
                lo: &self.regs,
                hi: &[],
                hole: (usize::MAX, usize::MAX),
                snapshots,
                nq,
                first,
                n,
            };
            let pairs: [(Operand, Operand); 4] =
                std::array::from_fn(|c| (rows.get(k.src[0][c]), rows.get(k.src[1][c])));
            let t = spare.get_mut(..n).unwrap_or_default();
            dot(flat_mut(t), pairs.get(..usize::from(terms).min(4)).unwrap_or_default());
            dot_result = Some(&*t);
        }
        for c in 0..4 {
            if k.mask >> c & 1 == 0 {
                continue;
            }
            let at = k.dst[c] as usize * nq + first;
            if self.regs.len() < at + n {
                continue;
            }
            let (lo, rest) = self.regs.split_at_mut(at);
            let (dst, hi) = rest.split_at_mut(n);
            let dst = flat_mut(dst);
            if let Some(t) = dot_result {
                let t = Operand { bits: flat(t), and: u32::MAX, xor: 0 };
                if k.saturate {
                    pass1::<false>(dst, t, exec, sat)
                } else {
                    pass1::<false>(dst, t, exec, |x| x)
                }
                continue;
            }
            let rows = Rows { lo, hi, hole: (at, at + n), snapshots, nq, first, n };
            let ops = std::array::from_fn(|i| {
                if i < usize::from(k.num_src) {
                    rows.get(k.src[i][c])
                } else {
                    Operand { bits: &[], and: u32::MAX, xor: 0 }
                }
            });
            let in_place = (0..2).find(|&i| k.src[i][c].in_place);
            // Only a build with the specialised loops compiles the unmodified one at all.
            let general = !(cfg!(feature = "kernel-variants") && k.variants);
            if general || ops.iter().any(|o| o.and != u32::MAX || o.xor != 0) {
                channel::<true>(k.op, k.saturate, dst, ops, in_place, exec);
            } else {
                channel::<false>(k.op, k.saturate, dst, ops, in_place, exec);
            }
        }
    }

    /// A fused `IF/UIF c; BRK; ENDIF` leaving a loop: the lanes where `c` holds leave it
    /// (loop mask &= !(exec & c); exec &= !c), with no condition stack push or pop. Only the
    /// span of quads with active lanes is looked at (every other exec lane is zero). Returns
    /// whether some lane left.
    ///
    /// Charged as its three instructions (`work.rs`): the IF the quads active at its start;
    /// the BRK, dispatched only when some lane leaves, the quads with a leaving lane; the
    /// ENDIF the quads active after it. When no lane leaves, the IF jumps to the ENDIF and
    /// both are charged the (unchanged) active quads.
    pub(crate) fn cond_break(&mut self, inst: &Inst, consts: &Constants) -> bool {
        let (s0, s1) = self.active;
        let float = inst.op != Opcode::UIF;
        let s = &inst.src[0];
        let nq = self.nq;
        let mut left = Left::default();
        match s.direct_row(0) {
            Some(row) if !s.negate && !s.absolute => {
                // Only the runs: a span can hold long stretches of finished quads.
                for &(a, b) in &self.runs {
                    let at = row as usize * nq + a;
                    let cond = self.regs.get(at..at + (b - a)).unwrap_or_default();
                    if let (Some(exec), Some(lp)) =
                        (self.exec.get_mut(a..b), self.loop_mask.get_mut(a..b))
                    {
                        left.add(if float {
                            break_lanes::<true>(exec, lp, cond)
                        } else {
                            break_lanes::<false>(exec, lp, cond)
                        });
                    }
                }
            }
            _ => {
                // Fetched as ~0 / 0 masks.
                let t = self.truth_in(s, float, consts, s0..s1);
                if let (Some(exec), Some(lp)) =
                    (self.exec.get_mut(s0..s1), self.loop_mask.get_mut(s0..s1))
                {
                    left.add(break_lanes::<false>(exec, lp, &t));
                }
                self.give(t);
            }
        }
        // The quads outside the runs (or the span) have no active lane: they count nothing.
        // Quads active after = active before − those whose last lanes left.
        let before = self.live;
        if left.quads != 0 {
            self.all_active = false;
            self.refine_runs();
            self.any_active = !self.runs.is_empty();
            self.live = before - left.ended;
            self.work += before + left.quads + self.live;
        } else {
            self.work += 2 * before;
        }
        left.quads != 0
    }
}

/// What `break_lanes` found over some quads: how many had a lane leave the loop, and how many
/// of those have no active lane left.
#[derive(Default)]
struct Left {
    quads: u64,
    ended: u64,
}

impl Left {
    fn add(&mut self, other: Left) {
        self.quads += other.quads;
        self.ended += other.ended;
    }
}

/// Quads tested at a time by `break_lanes` before any is changed.
const BREAK_BLOCK: usize = 16;

/// The lanes of `exec` where `cond` holds leave the loop (cleared in `exec` and `lp`); counts
/// the quads with a leaving lane and those left with no active lane. Each block of quads is
/// first tested at the machine's full vector width, read only: most blocks have no leaving
/// lane and cost nothing more. A block with one is then done quad by quad (mask lanes are all
/// ones or zero, so a quad's sign-bit mask tells whether it has an active lane).
#[inline]
fn break_lanes<const FLOAT: bool>(exec: &mut [Lanes], lp: &mut [Lanes], cond: &[Lanes]) -> Left {
    use wide::{f32x4, i32x4, CmpEq, CmpNe};
    // IF: −0 is false, NaN true; UIF: any non-zero bits.
    let truth = |v: u32| if FLOAT { lane::truth(f(v) != 0.0) } else { lane::truth(v != 0) };
    let mut left = Left::default();
    let blocks = exec.chunks_mut(BREAK_BLOCK).zip(lp.chunks_mut(BREAK_BLOCK));
    for ((e, l), c) in blocks.zip(cond.chunks(BREAK_BLOCK)) {
        let any = flat(e).iter().zip(flat(c)).fold(0, |acc, (&e, &v)| acc | (e & truth(v)));
        if any == 0 {
            continue;
        }
        for ((e, l), v) in e.iter_mut().zip(l.iter_mut()).zip(c) {
            let t = if FLOAT {
                iv(&from_fv(fv(v).cmp_ne(f32x4::ZERO)))
            } else {
                !iv(v).cmp_eq(i32x4::ZERO)
            };
            let ev = iv(e);
            let out = ev & t;
            let still = ev & !t;
            *e = Lanes::from_i32(still.to_array());
            *l = Lanes::from_i32((iv(l) & !out).to_array());
            let leaves = out.move_mask() != 0;
            left.quads += leaves as u64;
            left.ended += (leaves && still.move_mask() == 0) as u64;
        }
    }
    left
}
