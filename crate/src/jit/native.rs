//! Runs generated modules natively with wasmtime (Cranelift): the same bytes the browser
//! compiles, so there is one code generator for both hosts.
//!
//! A program is compiled once; its instances (a store, an instance and its memory) are kept in
//! a pool and lent to machines: the render makes an accelerator per frame and thread, and a
//! frame reuses the instances of the frames before it instead of instantiating anew.

#[cfg(target_endian = "big")]
compile_error!("the compiling tier stages storage as little-endian bytes (WebAssembly's order)");

use super::codegen::{Compiled, Layout, Unsupported};
use crate::exec::program::Inst;
use crate::exec::{AccelEnv, Accelerator, Lanes, MakeAccelerator, Program, Rows, RowsMut};
use std::sync::{Arc, Mutex, OnceLock};
use wasmtime::{Caller, Config, Engine, Linker, Memory, Module, OptLevel, Store, TypedFunc, V128};

/// Instances kept for reuse per program (more machines than this at once instantiate anew and
/// drop the extra ones when they end).
const POOL: usize = 32;

/// Every import of `jit::imports` as a host function: the lane formulas calling the
/// interpreter's own functions, sampling, the stop flag (a module imports the ones it uses).
fn linker() -> Option<&'static Linker<Host>> {
    static LINKER: OnceLock<Option<Linker<Host>>> = OnceLock::new();
    LINKER
        .get_or_init(|| {
            let mut l = Linker::new(engine());
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

/// A program compiled to native code, with its pool of instances.
pub struct NativeProgram {
    shared: Arc<Shared>,
}

struct Shared {
    module: Module,
    layout: Layout,
    samplers: Vec<Inst>,
    pool: Mutex<Vec<Instanced>>,
}

impl NativeProgram {
    /// Generates and compiles `program`, or says why it runs in the interpreter.
    pub fn new(program: &Program) -> Result<NativeProgram, Unsupported> {
        NativeProgram::from_compiled(&super::codegen::compile(program)?)
    }
    pub fn from_compiled(c: &Compiled) -> Result<NativeProgram, Unsupported> {
        let module = Module::new(engine(), &c.bytes).map_err(|e| Unsupported {
            reason: format!("the runtime refused the generated module: {e}"),
            instruction: None,
        })?;
        let shared = Shared {
            module,
            layout: c.layout.clone(),
            samplers: c.samplers.clone(),
            pool: Mutex::new(Vec::new()),
        };
        Ok(NativeProgram { shared: Arc::new(shared) })
    }
    /// An instance from the pool, or a new one; it goes back to the pool when dropped.
    pub fn instance(&self) -> Option<NativeRun> {
        let pooled = self.shared.pool.lock().ok().and_then(|mut p| p.pop());
        let inst = match pooled {
            Some(i) => i,
            None => Instanced::new(&self.shared.module)?,
        };
        Some(NativeRun {
            inst: Some(inst),
            shared: self.shared.clone(),
            plan: super::Plan::default(),
            kept: false,
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
    fn new(module: &Module) -> Option<Instanced> {
        let mut store = Store::new(engine(), Host::default());
        let instance = linker()?.instantiate(&mut store, module).ok()?;
        let memory = instance.get_memory(&mut store, "mem")?;
        store.data_mut().memory = Some(memory);
        let run = instance.get_typed_func::<(i32, i64), i64>(&mut store, "run").ok()?;
        Some(Instanced { store, run })
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
        if self.plan.nq != nq {
            self.plan = super::plan(&self.shared.layout, nq)?;
        }
        let inst = self.inst.as_mut()?;
        let memory = inst.store.data().memory?;
        let mem = memory.data_mut(&mut inst.store);
        if !super::stage_in(&self.plan, regs, kill, env.consts, mem, !env.inputs_placed) {
            return None;
        }
        let limit = limit.min(i64::MAX as u64) as i64;
        let work = super::host::with_scope(env, &self.shared.samplers, || {
            inst.run.call(&mut inst.store, (nq as i32, limit))
        })
        .ok()?;
        if work < 0 {
            return None;
        }
        // An in-place batch's OUT rows stay in the module's memory, where the render reads
        // them (`kept_outputs`): a copy of every output fewer.
        let keep =
            env.batch.in_place && out_rows(&self.shared.layout, memory.data(&inst.store)).is_some();
        super::stage_out(&self.plan, memory.data(&inst.store), regs, kill, !keep);
        self.kept = keep;
        Some(work as u64)
    }
    fn kept_outputs(&self) -> Option<Rows<'_>> {
        let inst = self.inst.as_ref().filter(|_| self.kept)?;
        out_rows(&self.shared.layout, inst.store.data().memory?.data(&inst.store))
    }
    fn input_rows(&mut self, nq: usize) -> Option<RowsMut<'_>> {
        if nq == 0 || nq > super::codegen::MAX_QUADS as usize {
            return None;
        }
        let inst = self.inst.as_mut()?;
        let memory = inst.store.data().memory?;
        let row = super::codegen::ROW_BYTES as usize;
        let bytes = memory
            .data_mut(&mut inst.store)
            .get_mut(..self.shared.layout.in_slots as usize * row)?;
        Some(RowsMut { lanes: crate::exec::lanes::from_bytes_mut(bytes)?, stride: row / 16 })
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
