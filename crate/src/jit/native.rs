//! Runs generated modules natively with wasmtime (Cranelift): the same bytes the browser
//! compiles, so there is one code generator for both hosts.
//!
//! A program is compiled once; its instances (a store, an instance and its memory) are kept in
//! a pool and lent to machines: the render makes an accelerator per frame and thread, and a
//! frame reuses the instances of the frames before it instead of instantiating anew.

#[cfg(target_endian = "big")]
compile_error!("the compiling tier stages storage as little-endian bytes (WebAssembly's order)");

use super::codegen::{Compiled, Layout, Unsupported};
use crate::exec::lend;
use crate::exec::program::Inst;
use crate::exec::{AccelEnv, Accelerator, Lanes, MakeAccelerator, Program, Rows, RowsMut};
use std::sync::{Arc, Mutex, OnceLock};
use wasmtime::{Caller, Config, Engine, Linker, Memory, Module, OptLevel, Store, TypedFunc, V128};

/// Instances kept for reuse per program (more machines than this at once instantiate anew and
/// drop the extra ones when they end).
const POOL: usize = 32;

/// Every import of `jit::imports` as a host function: the lane formulas calling the
/// interpreter's own functions, sampling, the stop flag (a module imports the ones it uses).
fn linker(lent: bool) -> Option<&'static Linker<Host>> {
    static LINKER: OnceLock<Option<Linker<Host>>> = OnceLock::new();
    static LENT_LINKER: OnceLock<Option<Linker<Host>>> = OnceLock::new();
    let (cell, engine) = match lent {
        false => (&LINKER, engine()),
        true => (&LENT_LINKER, lent_engine()?),
    };
    cell.get_or_init(|| {
        let mut l = Linker::new(engine);
        for im in super::imports::LANE_IMPORTS {
            let m = super::imports::MODULE;
            // Whole quads: lane i of every argument to the formula, into lane i.
            let f = move |args: [u128; 3]| V128::from((im.quad)(args));
            match im.lane.arity() {
                1 => l.func_wrap(m, im.name, move |x: V128| f([x.as_u128(), 0, 0])),
                2 => l.func_wrap(m, im.name, move |x: V128, y: V128| {
                    f([x.as_u128(), y.as_u128(), 0])
                }),
                _ => l.func_wrap(m, im.name, move |x: V128, y: V128, w: V128| {
                    f([x.as_u128(), y.as_u128(), w.as_u128()])
                }),
            }
            .ok()?;
        }
        // Texture sampling: the scratch is in the calling module's memory.
        l.func_wrap(
            super::imports::MODULE,
            super::imports::SAMPLE.0,
            |mut caller: Caller<'_, Host>, index: i32, at: i32| -> i32 {
                let Some(m) = caller.data().memory else { return 0 };
                let at = at as u32 as usize;
                let bytes = m.data_mut(&mut caller);
                let Some(scratch) = bytes.get_mut(at..at + super::host::scratch::BYTES) else {
                    return 0;
                };
                super::host::sample(index as u32, scratch) as i32
            },
        )
        .ok()?;
        // Batched sampling: the rows are in the calling module's memory too.
        l.func_wrap(
            super::imports::MODULE,
            super::imports::SAMPLE_ROWS.0,
            |mut caller: Caller<'_, Host>, index: i32, at: i32, nq: i32| -> i32 {
                let Some(m) = caller.data().memory else { return 0 };
                let bytes = m.data_mut(&mut caller);
                let (at, nq) = (at as u32 as usize, nq as u32 as usize);
                let stride = super::codegen::sample_row_stride(nq);
                super::host::sample_rows(index as u32, bytes, at, stride, nq) as i32
            },
        )
        .ok()?;
        // The stop flag, looked at every `STOP_CHECK_INTERVAL` of work.
        l.func_wrap(super::imports::MODULE, super::imports::POLL.0, || -> i32 {
            super::host::stopped() as i32
        })
        .ok()?;
        Some(l)
    })
    .as_ref()
}

fn engine() -> &'static Engine {
    static ENGINE: OnceLock<Engine> = OnceLock::new();
    ENGINE.get_or_init(|| {
        let mut c = Config::new();
        c.cranelift_opt_level(OptLevel::Speed);
        Engine::new(&c).unwrap_or_default()
    })
}

/// The engine of modules that store colours into a lent render target (`lend::Region`): its
/// memories are what the `Lender` is given, reserved and guarded as wasmtime's own are, so that
/// their accesses need no bounds checks (docs/perf-log.md, 2026-12-06 22:50).
fn lent_engine() -> Option<&'static Engine> {
    static ENGINE: OnceLock<Option<Engine>> = OnceLock::new();
    ENGINE
        .get_or_init(|| {
            let mut c = Config::new();
            c.cranelift_opt_level(OptLevel::Speed);
            c.with_host_memory(Arc::new(Lender));
            c.memory_reservation(lend::RESERVE as u64);
            c.memory_guard_size(lend::GUARD as u64);
            c.memory_may_move(false);
            c.memory_init_cow(false);
            Engine::new(&c).ok()
        })
        .as_ref()
}

thread_local! {
    /// The region the next instantiation on this thread is lent (`Lender`).
    static LENDING: std::cell::Cell<Option<(usize, usize)>> = const { std::cell::Cell::new(None) };
}

/// Gives a module being instantiated the region in `LENDING` as its memory.
struct Lender;

// SAFETY: the memory returned is the region's readable and writable part, its reservation and
// guard as large as the engine asks for (checked); the region outlives the instance (it owns
// it, `lend::Region::slot`).
unsafe impl wasmtime::MemoryCreator for Lender {
    fn new_memory(
        &self,
        _ty: wasmtime::MemoryType,
        minimum: usize,
        _maximum: Option<usize>,
        reserved: Option<usize>,
        guard: usize,
    ) -> Result<Box<dyn wasmtime::LinearMemory>, String> {
        let (base, bytes) = LENDING.with(|l| l.take()).ok_or("no render target lent")?;
        if minimum > bytes || reserved.is_some_and(|r| r > lend::RESERVE) || guard > lend::GUARD {
            return Err("the render target's region does not fit the module".to_string());
        }
        Ok(Box::new(LentMemory { base, bytes }))
    }
}

/// A region's memory as the module sees it: fixed in size and place.
struct LentMemory {
    base: usize,
    bytes: usize,
}

// SAFETY: `base..base + bytes` is readable and writable for the memory's life (see `Lender`);
// it never grows or moves.
unsafe impl wasmtime::LinearMemory for LentMemory {
    fn byte_size(&self) -> usize {
        self.bytes
    }
    fn byte_capacity(&self) -> usize {
        self.bytes
    }
    fn grow_to(&mut self, new_size: usize) -> wasmtime::Result<()> {
        if new_size <= self.bytes {
            Ok(())
        } else {
            Err(wasmtime::Error::msg("a lent memory does not grow"))
        }
    }
    fn as_ptr(&self) -> *mut u8 {
        self.base as *mut u8
    }
}

/// A program compiled to native code, with its pool of instances.
pub struct NativeProgram {
    shared: Arc<Shared>,
}

struct Shared {
    /// Tells this program's instances kept by a region from another program's (an address
    /// could be reused; a number is not).
    id: u64,
    module: Module,
    layout: Layout,
    samplers: Vec<Inst>,
    pool: Mutex<Vec<Instanced>>,
    /// The program, for its colour-storing form (`compile_fused`), compiled when first asked.
    source: Option<Program>,
    /// By OUT register, the colour-storing forms compiled so far (None: it has none).
    fused: Mutex<Vec<(u32, Option<Arc<FusedModule>>)>>,
}

/// The form of a program that stores one OUT register into a lent render target.
struct FusedModule {
    colour: u32,
    /// `Compiled::quad_work_bound`: a batch whose bound passes its limit goes to the
    /// interpreter before anything is stored.
    quad_work: u64,
    module: Module,
    layout: Layout,
    samplers: Vec<Inst>,
}

impl Shared {
    /// The colour-storing form for OUT register `colour`, if the program has one that fits a
    /// region's prefix.
    fn fused(&self, colour: u32) -> Option<Arc<FusedModule>> {
        let mut forms = self.fused.lock().ok()?;
        if let Some((_, f)) = forms.iter().find(|(c, _)| *c == colour) {
            return f.clone();
        }
        let make = || {
            let c = super::codegen::compile_fused(self.source.as_ref()?, colour).ok()?;
            if c.layout.memory_bytes() > lend::PREFIX as u64 {
                return None;
            }
            let module = Module::new(lent_engine()?, &c.bytes).ok()?;
            let quad_work = c.quad_work_bound;
            let (layout, samplers) = (c.layout, c.samplers);
            Some(Arc::new(FusedModule { colour, quad_work, module, layout, samplers }))
        };
        let f = make();
        forms.push((colour, f.clone()));
        f
    }
}

impl NativeProgram {
    /// Generates and compiles `program`, or says why it runs in the interpreter.
    pub fn new(program: &Program) -> Result<NativeProgram, Unsupported> {
        let mut p = NativeProgram::from_compiled(&super::codegen::compile(program)?)?;
        p.keep_source(program);
        Ok(p)
    }
    pub fn from_compiled(c: &Compiled) -> Result<NativeProgram, Unsupported> {
        static IDS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        let module = Module::new(engine(), &c.bytes).map_err(|e| Unsupported {
            reason: format!("the runtime refused the generated module: {e}"),
            instruction: None,
        })?;
        let shared = Shared {
            id: IDS.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            module,
            layout: c.layout.clone(),
            samplers: c.samplers.clone(),
            pool: Mutex::new(Vec::new()),
            source: None,
            fused: Mutex::new(Vec::new()),
        };
        Ok(NativeProgram { shared: Arc::new(shared) })
    }
    /// Keeps the program `self` was compiled from, so that its runs can store colours into a
    /// lent render target ([`Accelerator::fuse`]); without it they never do.
    pub fn keep_source(&mut self, program: &Program) {
        if let Some(s) = Arc::get_mut(&mut self.shared) {
            s.source = Some(program.clone());
        }
    }
    /// An instance from the pool, or a new one; it goes back to the pool when dropped.
    pub fn instance(&self) -> Option<NativeRun> {
        let pooled = self.shared.pool.lock().ok().and_then(|mut p| p.pop());
        let inst = match pooled {
            Some(i) => i,
            None => Instanced::new(&self.shared.module, false)?,
        };
        Some(NativeRun {
            inst: Some(inst),
            shared: self.shared.clone(),
            plan: super::Plan::default(),
            kept: false,
            fused: None,
            stored: false,
        })
    }
    /// Instances waiting in the pool.
    pub fn pooled(&self) -> usize {
        self.shared.pool.lock().map_or(0, |p| p.len())
    }
}

impl MakeAccelerator for NativeProgram {
    fn make(&self) -> Option<Box<dyn Accelerator>> {
        self.instance().map(|r| Box::new(r) as Box<dyn Accelerator>)
    }
}

/// What a store keeps for its host functions: the instance's memory (the sampling import
/// reads its scratch there without looking the export up on every call).
#[derive(Default)]
struct Host {
    memory: Option<Memory>,
}

/// A store with one instance of the module (its memory kept in the store's `Host`) and its
/// `run`.
struct Instanced {
    store: Store<Host>,
    run: TypedFunc<(i32, i64), i64>,
}

impl Instanced {
    /// An instance of `module`; `lent`: of the lent engine, its memory the region in `LENDING`.
    fn new(module: &Module, lent: bool) -> Option<Instanced> {
        let mut store = Store::new(module.engine(), Host::default());
        let instance = linker(lent)?.instantiate(&mut store, module).ok()?;
        let memory = instance.get_memory(&mut store, "mem")?;
        store.data_mut().memory = Some(memory);
        let run = instance.get_typed_func::<(i32, i64), i64>(&mut store, "run").ok()?;
        Some(Instanced { store, run })
    }

    /// Runs a batch of `nq` quads staged by `plan`, sampling with `samplers` (see
    /// [`Accelerator::run`]); returns the work,
    /// or None when the batch goes back to the interpreter.
    fn run(
        &mut self,
        (plan, samplers): (&super::Plan, &[Inst]),
        regs: &[Lanes],
        kill: &[Lanes],
        nq: usize,
        limit: u64,
        env: &mut AccelEnv,
    ) -> Option<u64> {
        let memory = self.store.data().memory?;
        let mem = memory.data_mut(&mut self.store);
        if !super::stage_in(plan, regs, kill, env.consts, mem, !env.inputs_placed) {
            return None;
        }
        let limit = limit.min(i64::MAX as u64) as i64;
        let work = super::host::with_scope(env, samplers, || {
            self.run.call(&mut self.store, (nq as i32, limit))
        })
        .ok()?;
        u64::try_from(work).ok()
    }

    fn memory(&self) -> Option<&[u8]> {
        Some(self.store.data().memory?.data(&self.store))
    }

    fn memory_mut(&mut self) -> Option<&mut [u8]> {
        Some(self.store.data().memory?.data_mut(&mut self.store))
    }
}

/// A colour-storing instance a region keeps (`lend::Slot::Kept`).
struct FusedInstance {
    /// `Shared::id` of its program and the OUT register it stores.
    program: (u64, u32),
    /// The bytes of the region's prefix the module uses (`Layout::memory_bytes`).
    used: usize,
    inst: Instanced,
}

/// The colour-storing instance an accelerator holds, taken from its region's slot.
struct Fused {
    region: Arc<lend::Region>,
    module: Arc<FusedModule>,
    inst: Option<FusedInstance>,
    plan: super::Plan,
    /// The runs store colours (`Accelerator::fuse` said so last).
    active: bool,
}

impl Fused {
    /// Gives the instance back to its region.
    fn release(&mut self) {
        if let (Some(i), Ok(mut slot)) = (self.inst.take(), self.region.slot.lock()) {
            *slot = lend::Slot::Kept(Box::new(i));
        }
    }
}

impl Drop for Fused {
    fn drop(&mut self) {
        self.release();
    }
}

/// One instance lent to a machine.
pub struct NativeRun {
    inst: Option<Instanced>,
    shared: Arc<Shared>,
    /// The staging plan of the last batch size seen (`jit::plan`).
    plan: super::Plan,
    /// The last run left its OUT rows in the module's memory (`kept_outputs`).
    kept: bool,
    /// The colour-storing instance, while the render lends a target (`Accelerator::fuse`).
    fused: Option<Fused>,
    /// The last run stored its colours (`Accelerator::colours_stored`).
    stored: bool,
}

impl Drop for NativeRun {
    fn drop(&mut self) {
        if let (Some(i), Ok(mut pool)) = (self.inst.take(), self.shared.pool.lock()) {
            if pool.len() < POOL {
                pool.push(i);
            }
        }
    }
}

impl NativeRun {
    /// The fused instance when the runs store colours.
    fn active(&mut self) -> Option<(&mut Instanced, &mut super::Plan)> {
        let f = self.fused.as_mut().filter(|f| f.active)?;
        Some((&mut f.inst.as_mut()?.inst, &mut f.plan))
    }

    /// Takes the colour-storing instance of this program from `region`'s slot, or makes one
    /// (lent the region), unless another accelerator holds it now.
    fn take_fused(&self, region: &Arc<lend::Region>, fm: &FusedModule) -> Option<FusedInstance> {
        let mut slot = region.slot.lock().ok()?;
        let kept = match std::mem::replace(&mut *slot, lend::Slot::Lent) {
            lend::Slot::Lent => return None,
            lend::Slot::Empty => None,
            lend::Slot::Kept(b) => b.downcast::<FusedInstance>().ok(),
        };
        drop(slot);
        if let Some(k) = kept {
            if k.program == (self.shared.id, fm.colour) {
                return Some(*k);
            }
            // Another program's instance (dropped here): a new one starts from zeros, as a
            // fresh module memory does (a fresh region's pages are zeros already).
            region.clear_prefix(k.used);
        }
        LENDING.with(|l| l.set(Some((region.base() as usize, region.memory_bytes()))));
        let inst = Instanced::new(&fm.module, true);
        LENDING.with(|l| l.set(None));
        let used = fm.layout.memory_bytes() as usize;
        match inst {
            Some(inst) => Some(FusedInstance { program: (self.shared.id, fm.colour), used, inst }),
            None => {
                if let Ok(mut s) = region.slot.lock() {
                    *s = lend::Slot::Empty;
                }
                None
            }
        }
    }
}

impl Accelerator for NativeRun {
    fn run(
        &mut self,
        regs: &mut [Lanes],
        kill: &mut [Lanes],
        nq: usize,
        limit: u64,
        env: &mut AccelEnv,
    ) -> Option<u64> {
        self.kept = false;
        self.stored = false;
        let shared = self.shared.clone();
        let module = self.fused.as_ref().map(|f| f.module.clone());
        if let (Some((inst, plan)), Some(f)) = (self.active(), module) {
            // A batch that might run out of budget stores nothing: the interpreter runs it.
            if (nq as u64).saturating_mul(f.quad_work) > limit {
                return None;
            }
            if plan.nq != nq {
                *plan = super::plan(&f.layout, nq)?;
            }
            let work = inst.run((plan, &f.samplers), regs, kill, nq, limit, env)?;
            // The colours are in the target; the other OUT rows stay in the module's memory
            // (no fused program kills lanes, so there is no kill mask to copy out).
            self.kept = true;
            self.stored = true;
            return Some(work);
        }
        if self.plan.nq != nq {
            self.plan = super::plan(&shared.layout, nq)?;
        }
        let inst = self.inst.as_mut()?;
        let work = inst.run((&self.plan, &shared.samplers), regs, kill, nq, limit, env)?;
        // An in-place batch's OUT rows stay in the module's memory, where the render reads
        // them (`kept_outputs`): a copy of every output fewer.
        let mem = inst.memory()?;
        let keep = env.batch.in_place && out_rows(&shared.layout, mem).is_some();
        super::stage_out(&self.plan, mem, regs, kill, !keep);
        self.kept = keep;
        Some(work)
    }
    fn kept_outputs(&self) -> Option<Rows<'_>> {
        if !self.kept {
            return None;
        }
        match self.fused.as_ref().filter(|f| f.active) {
            Some(f) => out_rows(&f.module.layout, f.inst.as_ref()?.inst.memory()?),
            None => out_rows(&self.shared.layout, self.inst.as_ref()?.memory()?),
        }
    }
    fn input_rows(&mut self, nq: usize) -> Option<RowsMut<'_>> {
        if nq == 0 || nq > super::codegen::MAX_QUADS as usize {
            return None;
        }
        let in_slots = self.shared.layout.in_slots as usize;
        let fusing = self.fused.as_ref().is_some_and(|f| f.active);
        let mem = match fusing {
            true => self.active()?.0.memory_mut()?,
            false => self.inst.as_mut()?.memory_mut()?,
        };
        let row = super::codegen::ROW_BYTES as usize;
        let bytes = mem.get_mut(..in_slots * row)?;
        Some(RowsMut { lanes: crate::exec::lanes::from_bytes_mut(bytes)?, stride: row / 16 })
    }
    fn fuse(&mut self, target: Option<(&Arc<lend::Region>, u32)>) -> bool {
        // Stopping, or a target held already (every batch of a frame asks): no lookup.
        if let Some(f) = self.fused.as_mut() {
            let held = target.is_some_and(|(region, colour)| {
                Arc::ptr_eq(&f.region, region) && f.module.colour == colour
            });
            f.active = held && f.inst.is_some();
            if held || target.is_none() {
                return f.active;
            }
        }
        let Some((region, colour)) = target else { return false };
        let shared = self.shared.clone();
        let Some(fm) = shared.fused(colour) else { return false };
        // Another region or colour: the instance held goes back to its region.
        self.fused = None;
        let Some(inst) = self.take_fused(region, &fm) else { return false };
        self.fused = Some(Fused {
            region: region.clone(),
            module: fm,
            inst: Some(inst),
            plan: super::Plan::default(),
            active: true,
        });
        true
    }
    fn colour_records(&mut self, nq: usize) -> Option<(RowsMut<'_>, u32)> {
        if nq == 0 || nq > super::codegen::MAX_QUADS as usize {
            return None;
        }
        let module = self.fused.as_ref()?.module.clone();
        let layout = &module.layout;
        let (inst, _) = self.active()?;
        let row = super::codegen::ROW_BYTES as usize;
        let at = layout.records_base() as usize;
        let bytes = inst.memory_mut()?.get_mut(at..at + 2 * row)?;
        let rows = RowsMut { lanes: crate::exec::lanes::from_bytes_mut(bytes)?, stride: row / 16 };
        Some((rows, lend::PREFIX as u32))
    }
    fn colours_stored(&self) -> bool {
        self.stored
    }
}

/// The module's OUT slots in `mem` as rows of quads (`Layout::rows_out`: every OUT row in
/// order, `ROW_BYTES` apart).
fn out_rows<'m>(l: &Layout, mem: &'m [u8]) -> Option<Rows<'m>> {
    let row = super::codegen::ROW_BYTES as usize;
    let start = l.rows_in.len() * row;
    let bytes = mem.get(start..start + l.rows_out.len() * row)?;
    Some(Rows { lanes: crate::exec::lanes::from_bytes(bytes)?, stride: row / 16 })
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    /// A module whose `run(addr, value)` stores the 32-bit `value` at `addr` of its memory.
    fn storing_module() -> Vec<u8> {
        use wasm_encoder::{
            CodeSection, ExportKind, ExportSection, Function, FunctionSection, Instruction as I,
            MemArg, MemorySection, MemoryType, Module, TypeSection, ValType,
        };
        let mut m = Module::new();
        let mut types = TypeSection::new();
        types.ty().function([ValType::I32, ValType::I64], [ValType::I64]);
        m.section(&types);
        let mut funcs = FunctionSection::new();
        funcs.function(0);
        m.section(&funcs);
        let mut mems = MemorySection::new();
        let ty = MemoryType {
            minimum: 1,
            maximum: None,
            memory64: false,
            shared: false,
            page_size_log2: None,
        };
        mems.memory(ty);
        m.section(&mems);
        let mut ex = ExportSection::new();
        ex.export("run", ExportKind::Func, 0);
        ex.export("mem", ExportKind::Memory, 0);
        m.section(&ex);
        let mut f = Function::new([]);
        f.instruction(&I::LocalGet(0));
        f.instruction(&I::LocalGet(1));
        f.instruction(&I::I32WrapI64);
        f.instruction(&I::I32Store(MemArg { offset: 0, align: 2, memory_index: 0 }));
        f.instruction(&I::I64Const(0));
        f.instruction(&I::End);
        let mut code = CodeSection::new();
        code.function(&f);
        m.section(&code);
        m.finish()
    }

    #[test]
    fn a_lent_memory_is_the_regions_and_a_store_past_its_used_part_traps() {
        let region = lend::Region::new(64 * 64).expect("the system maps a region");
        let engine = lent_engine().expect("the lent engine");
        let module = Module::new(engine, storing_module()).expect("a valid module");
        LENDING.with(|l| l.set(Some((region.base() as usize, region.memory_bytes()))));
        let inst = Instanced::new(&module, true);
        LENDING.with(|l| l.set(None));
        let mut inst = inst.expect("instantiated in the region");
        // A store inside lands in the region (its data starts after the prefix).
        let at = lend::PREFIX as i32 + 8;
        assert_eq!(inst.run.call(&mut inst.store, (at, 0x1234_5678)).ok(), Some(0));
        // SAFETY: the region's used part is readable; nothing runs meanwhile.
        let word = unsafe { region.data().add(8).cast::<u32>().read_unaligned() };
        assert_eq!(word, 0x1234_5678);
        // Past the used part, inside the reservation, and at the top of the 32-bit range: a
        // trap, which wasmtime reports as an error (the process goes on).
        for addr in [region.memory_bytes() as u32, u32::MAX - 3] {
            assert!(inst.run.call(&mut inst.store, (addr as i32, 1)).is_err(), "{addr:#x}");
        }
        // Without a region lent, no instance is made.
        assert!(Instanced::new(&module, true).is_none());
        drop(inst);
    }
}
