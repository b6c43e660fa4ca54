//! Runs generated modules natively with wasmtime (Cranelift): the same bytes the browser
//! compiles, so there is one code generator for both hosts.

use super::codegen::{Compiled, Layout, Unsupported};
use crate::exec::{Accelerator, Lanes, MakeAccelerator, Program};
use std::sync::OnceLock;
use wasmtime::{Engine, Instance, Memory, Module, Store, TypedFunc};

fn engine() -> &'static Engine {
    static ENGINE: OnceLock<Engine> = OnceLock::new();
    ENGINE.get_or_init(Engine::default)
}

/// A program compiled to native code, ready to instantiate once per machine.
pub struct NativeProgram {
    module: Module,
    layout: Layout,
    staging: std::sync::Arc<super::Staging>,
}

impl NativeProgram {
    /// Generates and compiles `program`, or says why it runs in the interpreter.
    pub fn new(program: &Program) -> Result<NativeProgram, Unsupported> {
        let c = super::codegen::compile(program)?;
        NativeProgram::from_compiled(&c, super::Staging::of(program))
    }
    pub fn from_compiled(
        c: &Compiled,
        staging: super::Staging,
    ) -> Result<NativeProgram, Unsupported> {
        let module = Module::new(engine(), &c.bytes).map_err(|e| Unsupported {
            reason: format!("the runtime refused the generated module: {e}"),
            instruction: None,
        })?;
        Ok(NativeProgram { module, layout: c.layout, staging: std::sync::Arc::new(staging) })
    }
    /// A fresh instance (its own memory).
    pub fn instance(&self) -> Option<NativeRun> {
        let mut store = Store::new(engine(), ());
        let instance = Instance::new(&mut store, &self.module, &[]).ok()?;
        let memory = instance.get_memory(&mut store, "mem")?;
        let run = instance.get_typed_func::<(i32, i64), i64>(&mut store, "run").ok()?;
        Some(NativeRun {
            store,
            memory,
            run,
            layout: self.layout,
            staging: self.staging.clone(),
            plan: super::Plan::default(),
        })
    }
}

impl MakeAccelerator for NativeProgram {
    fn make(&self) -> Option<Box<dyn Accelerator>> {
        self.instance().map(|r| Box::new(r) as Box<dyn Accelerator>)
    }
}

/// One instance of a compiled program.
pub struct NativeRun {
    store: Store<()>,
    memory: Memory,
    run: TypedFunc<(i32, i64), i64>,
    layout: Layout,
    staging: std::sync::Arc<super::Staging>,
    /// The staging plan of the last batch size (batches of a frame mostly share one).
    plan: super::Plan,
}

impl Accelerator for NativeRun {
    fn run(
        &mut self,
        regs: &mut [Lanes],
        kill: &mut [Lanes],
        nq: usize,
        limit: u64,
    ) -> Option<u64> {
        if self.plan.nq != nq {
            self.plan = super::plan(&self.layout, &self.staging, nq)?;
        }
        super::stage_in(&self.plan, regs, kill, self.memory.data_mut(&mut self.store));
        let limit = limit.min(i64::MAX as u64) as i64;
        let clock = self.run.call(&mut self.store, (nq as i32, limit)).ok()?;
        if clock < 0 {
            return None;
        }
        super::stage_out(&self.plan, self.memory.data(&self.store), regs, kill);
        Some(clock as u64)
    }
}
