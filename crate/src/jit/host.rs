//! Calls from a running module back into the engine: texture sampling. A compiled TEX (any
//! instruction of the texture family) runs the interpreter's own texture code for one quad, so
//! there is one sampler.
//!
//! The module stages the instruction's source values for the current quad (after swizzles and
//! modifiers) and the quad's exec mask in a scratch area of its memory ([`scratch`]), and calls
//! the import `env.sample(index, at)`: `index` names the instruction in
//! `Compiled::samplers` (its sources rewritten to read the staged values), `at` is the scratch's
//! byte offset. The host runs that instruction over a one-quad view of the scratch with the
//! run's texture hooks ([`sample`]) and writes the four result channels back; the module then
//! writes them to the destination as any other result (write mask, `_SAT`, exec blend).
//! Natively the host function reads the module's memory through wasmtime's `Caller`; in the
//! browser the engine's export `jit_sample` reads it through the registered instance's memory
//! (`wasm/jit.rs`). Either way the run's hooks are reached through [`with_scope`], set for the
//! duration of one synchronous `run` on this thread.

use crate::exec::io::sample_batches;
use crate::exec::lanes::Lanes;
use crate::exec::ops::texture::{texel_offset, Sampling};
use crate::exec::program::{AddrRow, Inst, Src, Store};
use crate::exec::regs::{Res, Shape};
use crate::exec::AccelEnv;
use crate::exec::SampleRequest;
use std::cell::Cell;

/// Layout of the sampling scratch, in 16-byte slots from its start.
pub mod scratch {
    /// Operands staged: src0..src3 and the texel-offset operand, four channels each.
    pub const OPERANDS: usize = 5;
    /// The address channel of resource operand i (an indirect SAMP or SVIEW) at `ADDR + i`.
    pub const ADDR: usize = OPERANDS * 4;
    /// Rows of the one-quad view the host builds: the operands, then the address channels.
    pub const ROWS: usize = ADDR + 4;
    /// The quad's exec mask (an indirect resource index is read from its first active lane).
    pub const EXEC: usize = ROWS;
    /// The four result channels.
    pub const RESULT: usize = EXEC + 1;
    /// Size of the scratch in bytes.
    pub const BYTES: usize = (RESULT + 4) * 16;
}

/// Where staged operand `i` lives in the one-quad view: storage rows `4i..4i + 4`.
fn staged_src(original: &Src, i: usize) -> Src {
    Src {
        store: Store::Rows { base: 4 * i as u32, count: 1 },
        index: 0,
        indirect: None,
        dim: 0,
        dim_indirect: None,
        swizzle: [0, 1, 2, 3],
        negate: false,
        absolute: false,
        ..*original
    }
}

/// `inst` with every value operand reading its staged channels (resource operands, SAMP[n]
/// and SVIEW[n], keep their index; an indirect one reads its staged address channel). None
/// when an operand cannot be staged.
pub fn staged(inst: &Inst) -> Option<Inst> {
    if inst.daz != 0 || inst.ftz || inst.num_dst > 1 {
        return None;
    }
    let mut s = inst.clone();
    for i in 0..(inst.num_src as usize).min(4) {
        let src = inst.src[i];
        match src.store {
            Store::Rows { .. } if src.indirect.is_none() => s.src[i] = staged_src(&src, i),
            Store::None => {
                if src.indirect.is_some() {
                    s.src[i].indirect = Some(AddrRow((scratch::ADDR + i) as u32));
                }
            }
            _ => return None,
        }
    }
    if inst.num_src > 4 {
        return None;
    }
    if let Some(o) = inst.offsets[0] {
        if o.indirect.is_some() || !matches!(o.store, Store::Rows { .. }) {
            return None;
        }
        s.offsets[0] = Some(staged_src(&o, 4));
    }
    // The module applies `_SAT` and the write to the destination.
    s.saturate = false;
    Some(s)
}

#[derive(Clone, Copy)]
struct Scope {
    env: *mut AccelEnv<'static>,
    samplers: *const [Inst],
    /// Each sampler's direct form, if it has one ([`Direct`]), decoded once per run.
    direct: *const [Option<Direct>],
    /// The memory resources the texture code is given (none: no memory opcode is compiled),
    /// made once per run rather than per sample (dropping its maps was 8 % of a frame).
    mem: *mut crate::exec::Resources,
}

thread_local! {
    /// The run in progress on this thread (set by `with_scope`).
    static CURRENT: Cell<Option<Scope>> = const { Cell::new(None) };
}

/// Runs `f` (one synchronous `run` of a module) with `env` and the module's `samplers`
/// reachable from [`sample`] on this thread.
pub fn with_scope<R>(env: &mut AccelEnv, samplers: &[Inst], f: impl FnOnce() -> R) -> R {
    struct Restore(Option<Scope>);
    impl Drop for Restore {
        fn drop(&mut self) {
            CURRENT.with(|c| c.set(self.0.take()));
        }
    }
    let mut mem = crate::exec::Resources::default();
    let direct: Vec<Option<Direct>> = samplers.iter().map(Direct::of).collect();
    let scope = Scope {
        env: (env as *mut AccelEnv<'_>).cast::<AccelEnv<'static>>(),
        samplers: samplers as *const [Inst],
        direct: direct.as_slice() as *const [Option<Direct>],
        mem: &mut mem,
    };
    let _restore = Restore(CURRENT.with(|c| c.replace(Some(scope))));
    f()
}

/// Whether the frame of the run in progress on this thread has been stopped (`--timeout`,
/// Ctrl-C, its time limit, which this reads the clock for): the module's `poll` import
/// (`jit::imports::POLL`), called every `STOP_CHECK_INTERVAL` of work, so that a compiled run
/// ends soon after a stop instead of at the end of its batch (docs/jit.md, "The budget").
pub fn stopped() -> bool {
    let Some(scope) = CURRENT.with(Cell::get) else { return false };
    // SAFETY: as in `sample`: the pointer is live for the synchronous run that calls this.
    let env = unsafe { &*scope.env };
    let polls = env.polls.get().saturating_add(1);
    env.polls.set(polls);
    let work = polls.saturating_mul(crate::exec::STOP_CHECK_INTERVAL);
    env.frame.is_some_and(|f| f.stopped_after(work).is_some())
}

/// Runs sampling instruction `index` of the current run for one quad over `scratch` (the
/// staged operands and exec in, the results out; see [`scratch`]). False when there is no run
/// in progress, no such instruction, or the interpreter's texture code reported an error (the
/// module then returns −1 and the interpreter reruns the batch, giving that error itself).
pub fn sample(index: u32, bytes: &mut [u8]) -> bool {
    let Some(scope) = CURRENT.with(Cell::get) else { return false };
    // SAFETY: `with_scope` set these pointers from live borrows for the duration of `f`, which
    // is the module's synchronous run on this thread; the import is called from inside it, one
    // call at a time, and `with_scope` does not touch the borrows while `f` runs. The scope is
    // cleared (restored) when `f` returns or unwinds.
    let (env, samplers, direct, mem) =
        unsafe { (&mut *scope.env, &*scope.samplers, &*scope.direct, &mut *scope.mem) };
    let Some(inst) = samplers.get(index as usize) else { return false };
    let Some(bytes) = bytes.get_mut(..scratch::BYTES) else { return false };
    if let Some(Some(d)) = direct.get(index as usize) {
        let rgba = d.sample(&mut *env.hooks, &mut d.blank(), |slot| slot_lanes(bytes, slot * 16));
        let at = scratch::RESULT * 16;
        bytes[at..at + 64].copy_from_slice(crate::exec::lanes::bytes(&rgba));
        return true;
    }
    // The scratch is little-endian lanes, as `Lanes` are in memory here (both hosts are
    // little-endian): copied as bytes. (Read lane by lane through an array `from_fn`, the
    // closure was not inlined and this copy was three quarters of a sampling frame.)
    let mut regs = [Lanes::default(); scratch::ROWS];
    crate::exec::lanes::bytes_mut(&mut regs).copy_from_slice(&bytes[..scratch::ROWS * 16]);
    let mut exec = [Lanes::default()];
    let at = scratch::EXEC * 16;
    crate::exec::lanes::bytes_mut(&mut exec).copy_from_slice(&bytes[at..at + 16]);
    let mut tmp = [Lanes::default(); 16];
    let mut out = [Lanes::default(); 8];
    let shape = {
        let mut res: Res = out.each_mut().map(std::slice::from_mut);
        let mut io = crate::exec::regs::Io::new(&regs, env.consts, &exec, 1, &mut tmp);
        let ctx = crate::exec::ops::Ctx {
            batch: env.batch,
            hooks: &mut *env.hooks,
            helper: &[],
            kill: &[],
            mem,
            clock: 0,
            program: env.program,
        };
        match crate::exec::ops::execute(inst, &mut io, &mut res, ctx) {
            Ok(shape) => shape,
            Err(_) => return false,
        }
    };
    for c in 0..4 {
        let v = match shape {
            Shape::Replicated => out[0],
            Shape::PerChannel => out[c],
            _ => return false,
        };
        let at = (scratch::RESULT + c) * 16;
        bytes[at..at + 16].copy_from_slice(crate::exec::lanes::bytes(std::slice::from_ref(&v)));
    }
    true
}

/// A sampler of the TEX family with a direct SAMP operand (the common case): each quad's
/// request is filled from the staged operands as the interpreter fills it from its registers
/// ([`Sampling::fill`]), without building a one-quad machine.
#[derive(Clone, Copy)]
struct Direct {
    sampling: Sampling,
    /// The result channels written.
    mask: u8,
    unit: u32,
    offsets: bool,
}

impl Direct {
    /// None for the other instructions and an indirect SAMP (the general path runs them).
    fn of(inst: &Inst) -> Option<Direct> {
        let sampling = Sampling::of(inst)?;
        let unit_op = inst.src.get(sampling.unit_src)?;
        if unit_op.indirect.is_some() {
            return None;
        }
        Some(Direct {
            sampling,
            mask: crate::exec::ops::mask(inst),
            unit: unit_op.resource,
            offsets: inst.offsets[0].is_some(),
        })
    }

    /// A request for [`Direct::sample`] to fill, one for all the quads of a call.
    fn blank(&self) -> SampleRequest {
        let mut req = self.sampling.blank();
        (req.sview, req.sampler) = (self.unit, self.unit);
        req
    }

    /// The four result channels for the quad whose staged slots `lanes(slot)` reads, through
    /// `req` (from [`Direct::blank`]); the channels outside the write mask are zero, as the
    /// general path leaves them.
    fn sample(
        &self,
        hooks: &mut dyn crate::exec::TextureHooks,
        req: &mut SampleRequest,
        lanes: impl Fn(usize) -> Lanes,
    ) -> [Lanes; 4] {
        self.fill(req, lanes);
        let rgba = hooks.get_samples(req);
        std::array::from_fn(|c| self.channel(c, rgba[c]))
    }

    /// Fills `req` (from [`Direct::blank`]) with the quad's operands, which `lanes(slot)`
    /// reads from its staged slots.
    fn fill(&self, req: &mut SampleRequest, lanes: impl Fn(usize) -> Lanes) {
        if self.offsets {
            // Staged as operand 4 (`staged`); lane 0 of each channel.
            for (c, o) in req.request.offsets.iter_mut().enumerate() {
                *o = texel_offset(lanes(16 + c).0[0]);
            }
        }
        // Operand i's channel c is staged in slot 4i + c.
        self.sampling.fill(&mut req.request, |i, c| lanes(4 * i + c).f32s());
    }

    /// Result channel `c` of a filtered sample: zero outside the write mask.
    #[inline]
    fn channel(&self, c: usize, v: [f32; 4]) -> Lanes {
        Lanes::from_f32(if self.mask >> c & 1 != 0 { v } else { [0.0; 4] })
    }
}

/// The 16 bytes at `at` as lanes (zeros past the end).
#[inline]
fn slot_lanes(bytes: &[u8], at: usize) -> Lanes {
    let mut v = [Lanes::default()];
    if let Some(b) = bytes.get(at..at + 16) {
        crate::exec::lanes::bytes_mut(&mut v).copy_from_slice(b);
    }
    v[0]
}

/// Runs sampling instruction `index` of the current run for `nq` quads whose staged slots are
/// rows: slot `k` of quad `q` at `at + k·stride + q·16` in `mem` (the slots of [`scratch`], a
/// row each), the results in the rows of slots `scratch::RESULT..`. False as for [`sample`],
/// or when the rows do not fit in `mem`.
pub fn sample_rows(index: u32, mem: &mut [u8], at: usize, stride: usize, nq: usize) -> bool {
    let Some(scope) = CURRENT.with(Cell::get) else { return false };
    if nq == 0 {
        return true;
    }
    let end = (scratch::RESULT + 3)
        .checked_mul(stride)
        .and_then(|x| x.checked_add(at))
        .and_then(|x| x.checked_add(nq * 16));
    if end.is_none_or(|e| e > mem.len()) || stride < nq * 16 {
        return false;
    }
    // SAFETY: as in `sample` (the scope's borrows live for the synchronous run calling this).
    let direct = unsafe { &*scope.direct }.get(index as usize).copied().flatten();
    let slot_at = |q: usize, k: usize| at + k * stride + q * 16;
    let put = |mem: &mut [u8], q: usize, rgba: &[Lanes; 4]| {
        for (c, v) in rgba.iter().enumerate() {
            let o = slot_at(q, scratch::RESULT + c);
            mem[o..o + 16].copy_from_slice(crate::exec::lanes::bytes(std::slice::from_ref(v)));
        }
    };
    if let Some(d) = direct {
        // The texture stage is asked for a batch of quads at a time, as the interpreter asks
        // (the unit, sampler state and λ shape worked out once per batch).
        let make = |mem: &[u8], q: usize, req: &mut SampleRequest| {
            req.quad = q;
            d.fill(req, |k| slot_lanes(mem, slot_at(q, k)));
        };
        let put = |mem: &mut [u8], q: usize, channels: [[f32; 4]; 4]| {
            // Channel by channel, straight from the answer (a `[Lanes; 4]` built with the
            // write mask and then copied stalled on store forwarding: 15% of a TEX frame).
            for (c, v) in channels.into_iter().enumerate() {
                let lanes = d.channel(c, v);
                let o = slot_at(q, scratch::RESULT + c);
                mem[o..o + 16].copy_from_slice(crate::exec::lanes::bytes(&[lanes]));
            }
        };
        // SAFETY: as in `sample`; this borrow ends with the call.
        let env = unsafe { &mut *scope.env };
        sample_batches(&mut *env.hooks, nq, d.blank(), mem, make, put);
        return true;
    }
    for q in 0..nq {
        // The general path: the quad's slots gathered into a scratch of its own.
        let mut one = [0u8; scratch::BYTES];
        for k in 0..scratch::RESULT {
            one[k * 16..k * 16 + 16].copy_from_slice(&mem[slot_at(q, k)..slot_at(q, k) + 16]);
        }
        if !sample(index, &mut one) {
            return false;
        }
        put(mem, q, &std::array::from_fn(|c| slot_lanes(&one, (scratch::RESULT + c) * 16)));
    }
    true
}

/// The sampling slots instruction `index` of the current run reads (bit `k`: slot `k`): a
/// direct sampler's operand channels and texel offsets, else every operand slot and the exec
/// mask.
pub fn slots_read(index: u32) -> u32 {
    let all = (1u32 << scratch::RESULT) - 1;
    let Some(scope) = CURRENT.with(Cell::get) else { return all };
    // SAFETY: as in `sample`.
    let direct = unsafe { &*scope.direct }.get(index as usize).copied().flatten();
    let Some(d) = direct else { return all };
    let mut bits = 0u32;
    d.sampling.for_each_operand(|i, c| bits |= 1 << (4 * i + c));
    if d.offsets {
        bits |= 0b111 << 16;
    }
    bits
}
