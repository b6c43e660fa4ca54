//! A compute dispatch on several threads that leaves exactly what [`dispatch`](super::dispatch)
//! on one thread leaves: every byte of every resource, the run's counts, and the diagnostic
//! and budget of a dispatch that stops (docs/resources.md, "Threads").
//!
//! One thread runs the blocks in a fixed order (`compute::Grid::block_id`): a later block's
//! store wins, and atomics return their values in block order. Blocks are otherwise independent
//! (tgsi.rst "Compute ISA": shared memory and BARRIER belong to one block). So the grid is cut
//! into contiguous ranges of blocks, one per thread, only when no block can observe another:
//! the program has no atomic on a resource every block shares (buffers, images, counters,
//! global memory) and never loads from such a resource that it also stores to ([`sharing`]).
//! Each thread then runs its range on its own copy of the resources, which logs the bytes its
//! stores wrote (`memory::Written`); the copies are laid over the original in range order, so
//! a later range's bytes win, as a later block's do on one thread. What a block computes
//! depends only on what it reads, and it reads nothing another block writes, so every block
//! computes on its copy what it computes on one thread.
//!
//! The budget is the whole dispatch's (`limits`): each thread's runs count their own work from
//! what the frame had at the start ([`FrameBudget::part`]), so none can do more than one thread
//! would; when every range finishes, the dispatch is accepted only if their work together fits
//! the frame and no block passed the machine's budget, which are exactly the conditions under
//! which one thread runs every block to its end. Otherwise (a thread stopped on the budget or an
//! error, or the sum does not fit) the copies are dropped and the dispatch runs again on one
//! thread from the untouched resources, which gives one thread's diagnostic, partial writes and
//! frame charge by construction: a dispatch that stops takes up to twice as long. A stop from
//! outside (`--timeout`, Ctrl-C) reports the first range's stop diagnostic and leaves the
//! resources as they were.

use super::accel::MakeAccelerator;
use super::compute::{run_range, Grid};
use super::frame::FrameBudget;
use super::io::{Constants, TextureHooks};
use super::machine::{ExecError, Machine, RunStats};
use super::memory::{Resources, Written, DEFAULT_SHARED_BYTES, PRIVATE_BYTES};
use super::program::Program;
use crate::ir::{File, MemoryKind, Span};
use crate::opcode::{Family, F_STORE};

/// Why a dispatch ran on fewer threads than it was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fewer {
    /// Fewer blocks than threads: one thread per block (a grid of one block or none: one).
    Blocks,
    /// An atomic on a buffer, image, counter or global memory: what it returns and leaves
    /// depends on the order of the blocks.
    Atomics,
    /// A LOAD from a buffer, image or global memory that the program also stores to, or a
    /// STORE of only some of an image's channels (which keeps the others as the texel held
    /// them): a block could read what another wrote.
    ReadsStores,
    /// The resources collect a geometry shader's emits (`Resources::emits`), in run order.
    Emits,
    /// A copy of the resources per thread would pass [`crate::limits::MAX_DISPATCH_COPY_BYTES`].
    Memory,
    /// A thread stopped short (the budget, an error; or it could not start, or make the same
    /// compiled form) or the ranges' work together passed the budget: the dispatch ran again on
    /// one thread, which gives one thread's result.
    Rerun,
}

impl Fewer {
    /// Why, in words (`tgsi run` prints it beside the threads used).
    pub fn reason(self) -> &'static str {
        match self {
            Fewer::Blocks => "one per block",
            Fewer::Atomics => {
                "atomics on a buffer, image, counter or global memory: what they return \
                 depends on the order of the blocks"
            }
            Fewer::ReadsStores => {
                "the shader loads from a resource it also stores to: a block could read \
                 another block's stores"
            }
            Fewer::Emits => "the dispatch collects geometry emits",
            Fewer::Memory => "a copy of the resources per thread: more would pass the limit",
            Fewer::Rerun => {
                "a thread stopped short (the budget or an error): the dispatch ran again on \
                 one thread for one thread's result"
            }
        }
    }
}

/// The threads a dispatch ran on, and why not as many as it was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreadsUsed {
    pub threads: usize,
    pub fewer: Option<Fewer>,
}

/// How a dispatch may use threads.
#[derive(Clone, Copy)]
pub struct Threads<'a> {
    /// The most threads (1: the plain dispatch).
    pub count: usize,
    /// The compiled form each machine of the dispatch runs (`jit::accelerator`), the caller's
    /// included; `None`: the interpreter.
    pub accel: Option<&'a dyn MakeAccelerator>,
}

/// A resource every block shares, as an operand names it (`None`: an index known only when it
/// runs, which may name any of its file).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SharedRes {
    Buffer(Option<u32>),
    Image(Option<u32>),
    Counter,
    Global,
}

impl SharedRes {
    fn may_alias(self, other: SharedRes) -> bool {
        match (self, other) {
            (SharedRes::Buffer(a), SharedRes::Buffer(b))
            | (SharedRes::Image(a), SharedRes::Image(b)) => a.is_none() || b.is_none() || a == b,
            (SharedRes::Counter, SharedRes::Counter) | (SharedRes::Global, SharedRes::Global) => {
                true
            }
            _ => false,
        }
    }
}

/// The shared resource an operand of `file` names, as `exec/ops/memory.rs` resolves it: a
/// MEMORY register that is not declared SHARED or PRIVATE is global memory (an indirect one may
/// be any); shared and private memory belong to one block.
fn shared_res(
    program: &Program,
    file: Option<File>,
    index: u32,
    indirect: bool,
) -> Option<SharedRes> {
    let at = (!indirect).then_some(index);
    match file? {
        File::Buffer => Some(SharedRes::Buffer(at)),
        File::Image => Some(SharedRes::Image(at)),
        File::Hwatomic => Some(SharedRes::Counter),
        File::Memory => {
            let kind = match at {
                Some(i) => program.memories.iter().find(|(n, _)| *n == i).map(|d| d.1),
                None => None,
            };
            match kind {
                Some(MemoryKind::Shared | MemoryKind::Private) => None,
                _ => Some(SharedRes::Global),
            }
        }
        _ => None,
    }
}

/// Why the blocks of `program` could observe one another through `res`, if they can: then
/// only one thread gives one thread's result. Read from the opcode table: the instructions of
/// the `Memory` family touch resources; one whose row writes memory (`F_STORE`) writes its
/// destination resource (STORE) or, when the resource is a source followed by an address, reads
/// and writes it there (the atomics); a resource source followed by an address is read at that
/// address (LOAD); one without an address is only asked its size (RESQ), which no instruction
/// changes.
pub fn sharing(program: &Program, res: &Resources) -> Option<Fewer> {
    if res.emits.is_some() {
        return Some(Fewer::Emits);
    }
    let mut stored = Vec::new();
    let mut read = Vec::new();
    for inst in &program.code {
        let info = inst.op.info();
        if info.family != Family::Memory {
            continue;
        }
        let writes = info.has(F_STORE);
        for d in inst.dst.iter().take(inst.num_dst as usize) {
            let index = d.index.clamp(0, u32::MAX as i64) as u32;
            let Some(r) = shared_res(program, d.file, index, d.indirect.is_some()) else {
                continue;
            };
            stored.push(r);
            // A STORE of some channels of a texel decodes and encodes the texel again: it reads
            // the image unless its mask covers every channel the bound format stores.
            if d.file == Some(File::Image) {
                let covers = |img: &super::ImageBuffer| {
                    let all = (1u8 << img.format.channels()) - 1;
                    d.mask & all == all
                };
                let whole = match r {
                    SharedRes::Image(Some(n)) => res.images.get(&n).is_none_or(covers),
                    _ => res.images.values().all(covers),
                };
                if !whole {
                    read.push(r);
                }
            }
        }
        let sources = inst.num_src as usize;
        for (k, s) in inst.src.iter().enumerate().take(sources) {
            let Some(r) = shared_res(program, s.file, s.resource, s.indirect.is_some()) else {
                continue;
            };
            if k + 1 >= sources {
                continue; // no address: a size query
            }
            if writes {
                return Some(Fewer::Atomics);
            }
            read.push(r);
        }
    }
    let observed = read.iter().any(|r| stored.iter().any(|s| r.may_alias(*s)));
    observed.then_some(Fewer::ReadsStores)
}

/// The bytes one thread's copy of `res` takes for a dispatch of `size`: every buffer, image,
/// counter buffer and the global memory, their logs of written bytes, one block's shared
/// memory, its private memory when the program declares some, and the FBFETCH colours.
pub fn copy_bytes(program: &Program, res: &Resources, size: &Grid) -> u64 {
    let data = |m: &std::collections::BTreeMap<u32, Vec<u8>>| -> u64 {
        m.values().map(|b| b.len() as u64).sum()
    };
    let shared = if res.shared.is_empty() { DEFAULT_SHARED_BYTES } else { res.shared.len() };
    let private = if program.memories.iter().any(|(_, k)| *k == MemoryKind::Private) {
        (size.quads() * 4 * PRIVATE_BYTES) as u64
    } else {
        0
    };
    let framebuffer: u64 =
        res.framebuffer.values().map(|f| std::mem::size_of_val(f.as_slice()) as u64).sum();
    data(&res.buffers)
        + res.images.values().map(|i| i.data.len() as u64).sum::<u64>()
        + framebuffer
        + data(&res.atomic_buffers)
        + res.global.len() as u64
        + Written::bytes_for(res)
        + shared as u64
        + private
}

/// How many threads (at most `wanted`) may each have a copy of `bytes`, all the copies within
/// [`crate::limits::MAX_DISPATCH_COPY_BYTES`]; at least 1 (the plain dispatch makes no copy).
pub fn threads_within(bytes: u64, wanted: usize) -> usize {
    let fit = crate::limits::MAX_DISPATCH_COPY_BYTES.checked_div(bytes).unwrap_or(u64::MAX);
    (wanted as u64).min(fit).max(1) as usize
}

/// The threads a dispatch of `size` runs on, and why fewer than `count`.
/// A grid of one block says so whatever `count` is (so that what `tgsi run` prints for it is
/// the same on every machine).
fn plan(program: &Program, res: &Resources, size: &Grid, count: usize) -> ThreadsUsed {
    if size.blocks <= 1 {
        return ThreadsUsed { threads: 1, fewer: Some(Fewer::Blocks) };
    }
    if count <= 1 {
        return ThreadsUsed { threads: 1, fewer: None };
    }
    if let Some(why) = sharing(program, res) {
        return ThreadsUsed { threads: 1, fewer: Some(why) };
    }
    let mut used = ThreadsUsed { threads: count, fewer: None };
    if size.blocks < count as u64 {
        used = ThreadsUsed { threads: size.blocks as usize, fewer: Some(Fewer::Blocks) };
    }
    let fit = threads_within(copy_bytes(program, res, size), used.threads);
    if fit < used.threads {
        used = ThreadsUsed { threads: fit, fewer: Some(Fewer::Memory) };
    }
    used
}

/// Blocks `k`-th of `parts` contiguous ranges of `blocks` (the first ones one longer).
fn range(blocks: u64, parts: u64, k: u64) -> std::ops::Range<u64> {
    let (per, extra) = (blocks / parts, blocks % parts);
    let start = k * per + k.min(extra);
    start..start + per + u64::from(k < extra)
}

/// What one thread did: its range's result (`None`: it could not make the machine's compiled
/// form), its copy of the resources and the work its runs did.
struct Part {
    result: Option<Result<(RunStats, u64), ExecError>>,
    copy: Resources,
    work: u64,
}

/// [`dispatch`](super::dispatch) on up to `threads.count` threads, with one thread's result:
/// the same resources, counts and diagnostic, the frame charged the same (see the module's
/// comment for why and for a dispatch that stops). `machine` gives the budget and frame of every
/// thread's machine and runs the dispatch itself on one thread; its compiled form is made from
/// `threads.accel`. The threads used are `None` when the sizes are refused (`X009`).
#[allow(clippy::too_many_arguments)]
pub fn dispatch_threads<H: TextureHooks + Clone + Send>(
    machine: &mut Machine,
    program: &Program,
    consts: &Constants,
    hooks: &mut H,
    resources: &mut Resources,
    grid: [u32; 3],
    block: Option<[u32; 3]>,
    threads: Threads<'_>,
) -> (Result<RunStats, ExecError>, Option<ThreadsUsed>) {
    machine.accel = threads.accel.and_then(|a| a.make());
    let size = match Grid::check(program, grid, block) {
        Ok(s) => s,
        Err(e) => return (Err(e), None),
    };
    let used = plan(program, resources, &size, threads.count);
    let one = |machine: &mut Machine, hooks: &mut H, resources: &mut Resources| {
        let all = 0..size.blocks;
        run_range(machine, program, consts, hooks, resources, &size, all, None, &mut None)
            .map(|(total, _)| total)
    };
    if used.threads <= 1 {
        return (one(machine, hooks, resources), Some(used));
    }
    if resources.shared.is_empty() {
        resources.shared = vec![0; DEFAULT_SHARED_BYTES];
    }
    // What each block may do on one thread: the machine's budget, within what the frame has.
    let (budget, frame) = (machine.budget, machine.frame.clone());
    let start = frame.as_ref().map(FrameBudget::left);
    let compiled = machine.accel.is_some();
    let parts = used.threads as u64;
    let original: &Resources = resources;
    let mut done: Vec<Part> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..parts)
            .map(|k| {
                let blocks = range(size.blocks, parts, k);
                let mut hooks = hooks.clone();
                let part = frame.as_ref().zip(start).map(|(f, left)| f.part(left));
                let size = &size;
                let thread = std::thread::Builder::new();
                thread.spawn_scoped(scope, move || {
                    let mut copy = copy_of(original);
                    let mut m = Machine::with_budget(budget);
                    m.frame = part.clone();
                    m.accel = threads.accel.and_then(|a| a.make());
                    let result = (m.accel.is_some() == compiled).then(|| {
                        run_range(
                            &mut m, program, consts, &mut hooks, &mut copy, size, blocks, None,
                            &mut None,
                        )
                    });
                    let work = part.zip(start).map_or(0, |(p, s)| s.saturating_sub(p.left()));
                    Part { result, copy, work }
                })
            })
            .collect();
        // A thread the system would not start, or one that panicked, leaves no result.
        handles
            .into_iter()
            .map(|h| h.ok().and_then(|h| h.join().ok()).unwrap_or_else(failed))
            .collect()
    });
    let finished: Option<Vec<(RunStats, u64)>> =
        done.iter().map(|p| p.result.clone().and_then(Result::ok)).collect();
    if let Some(finished) = finished {
        let mut total = RunStats::default();
        let mut most = 0;
        for (s, m) in &finished {
            total.add(*s);
            most = most.max(*m);
        }
        // One thread runs every block to its end exactly when no block does more than the
        // machine's budget and the blocks before it leave it enough of the frame's.
        if most <= budget && start.is_none_or(|left| total.work <= left) {
            for p in &done {
                if let Some(log) = &p.copy.written {
                    log.copy(&p.copy, resources);
                    // A caller that keeps its own log sees every thread's writes in it.
                    if let Some(mine) = resources.written.as_deref_mut() {
                        mine.union(log);
                    }
                }
            }
            // Shared and private memory as the last block left them.
            if let Some(last) = done.last_mut() {
                resources.shared = std::mem::take(&mut last.copy.shared);
                resources.private = std::mem::take(&mut last.copy.private);
            }
            if let Some(f) = &frame {
                f.charge(total.work);
            }
            return (Ok(total), Some(used));
        }
    }
    // Stopped from outside: the first range the stop ended says where.
    if let Some(stop) = frame.as_ref().and_then(FrameBudget::stopped) {
        let code = stop.diagnostic("", Span::default()).code;
        let first = done.iter().find_map(|p| match &p.result {
            Some(Err(e)) if e.diagnostic.code == code => Some(e.clone()),
            _ => None,
        });
        if let Some(e) = first {
            if let Some(f) = &frame {
                f.charge(done.iter().map(|p| p.work).sum());
            }
            return (Err(e), Some(used));
        }
    }
    drop(done);
    (one(machine, hooks, resources), Some(ThreadsUsed { threads: 1, fewer: Some(Fewer::Rerun) }))
}

/// A thread's copy of the resources: the ones every block shares with a log of the bytes it
/// writes, zeroed shared memory of the same size, no private memory yet (each block starts
/// without).
fn copy_of(res: &Resources) -> Resources {
    Resources {
        buffers: res.buffers.clone(),
        images: res.images.clone(),
        atomic_buffers: res.atomic_buffers.clone(),
        global: res.global.clone(),
        shared: vec![0; res.shared.len()],
        private: Vec::new(),
        framebuffer: res.framebuffer.clone(),
        emits: None,
        written: Some(Box::new(Written::covering(res))),
    }
}

/// A thread that ended without a result (the system did not start it, or it panicked): the
/// dispatch runs again on one thread.
fn failed() -> Part {
    Part { result: None, copy: Resources::default(), work: 0 }
}

#[cfg(test)]
mod tests {
    use super::range;

    #[test]
    fn ranges_cover_the_blocks_in_order() {
        for blocks in 1..40u64 {
            for parts in 1..=blocks.min(9) {
                let mut next = 0;
                for k in 0..parts {
                    let r = range(blocks, parts, k);
                    assert_eq!(r.start, next);
                    assert!(!r.is_empty());
                    next = r.end;
                }
                assert_eq!(next, blocks);
            }
        }
    }
}
