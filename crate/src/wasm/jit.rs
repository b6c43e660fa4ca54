//! wasm bindings: the compiling tier in the browser (`docs/jit.md`, "Browser"). The engine
//! generates a fragment program's module (`jit::compile`, the bytes wasmtime runs natively);
//! the render worker compiles them with `WebAssembly.compile`, instantiates them and registers
//! the instance here under the hash of the bytes; a render whose `engine` option allows it then
//! runs its fragment batches through that instance, synchronously, copying the machine's rows
//! (and the constant buffers the module indexes) between this engine's memory and the
//! instance's `mem` as `jit::plan` says.
//!
//! - `jitModule(fsText, vsText | null, options)` → `{ok: true, key, bytes: Uint8Array,
//!   instructions, ms}` or `{ok: false, reason}` for the frame's fragment program.
//! - `jitRegister(key, instance)` → whether the instance (exports `run` and `mem`) was kept.
//! - `jitForget(key)`: drops a registered instance.
//! - `jitImports()` → the import object every generated module is instantiated with:
//!   `{env: {sin: <the engine's raw export jit_sin>, …, poll: <jit_poll>}}` (`jit::imports`),
//!   so a module's SIN calls the engine's own function, wasm to wasm, and gives the
//!   interpreter's bits, and a long run looks at the band's time limit.
//!
//! The render result says `engine` ("compiled" when any fragment batch ran compiled, else
//! "interpreter") and `jit`: `{state, key, reason, compiled, interpreted, flushedQuads}` —
//! state "off" (the interpreter was asked for), "refused" (`reason` says why the shader is not
//! compiled), "pending" (no instance registered for `key` yet: the worker compiles it) or
//! "ready"; `compiled` / `interpreted` count the fragment batches each engine ran, and
//! `flushedQuads` the quads of draw chunks inside the view that the interpreter shaded
//! flushing denormals (docs/interpreter.md, "Denormals"): a job with such chunks has a second,
//! flushing program, whose module `jitModule` gives once the plain one is registered (until
//! that one is registered too the report is `pending` with its key, while the plain module
//! draws the other chunks).

use crate::exec::program::Inst;
use crate::exec::{AccelEnv, Accelerator, Lanes, MakeAccelerator};
use crate::jit::{Plan, Side, Stage};
use std::cell::{Cell, RefCell};
use std::sync::Arc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Which engine a render may use (the page's switch).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Mode {
    /// The compiled module once it is ready, the interpreter until then and for shaders that
    /// are not compiled.
    Auto,
    /// The default when a caller does not ask (the widget, the Learn page, the gallery's
    /// thumbnails): no code is generated.
    #[default]
    Interpreter,
    /// As `Auto` (the interpreter still draws until the module is ready, and shaders that are
    /// not compiled): the page marks the frames the interpreter draws.
    Compiled,
}

impl Mode {
    pub fn parse(name: Option<&str>) -> Mode {
        match name {
            Some("compiled") | Some("jit") => Mode::Compiled,
            Some("auto") => Mode::Auto,
            _ => Mode::Interpreter,
        }
    }
}

/// A job's generated module, made once per prepared job.
pub struct Generated {
    /// FNV-1a hash of `bytes`: the key the worker's cache and the registry use.
    pub key: u64,
    pub bytes: Vec<u8>,
    pub stage: Arc<Stage>,
    /// The module's texture instructions, for its `sample` import (`jit::host`).
    pub samplers: Arc<[Inst]>,
    pub instructions: usize,
    /// Time the code generator took, in milliseconds.
    pub ms: f64,
}

/// Why a module of `layout` is not run in the page: its memory would pass
/// `limits::MAX_JIT_MODULE_MEMORY`.
pub fn memory_refusal(layout: &crate::jit::Layout) -> Option<String> {
    let limit = crate::limits::MAX_JIT_MODULE_MEMORY;
    (layout.memory_bytes() > limit).then(|| {
        format!(
            "its compiled form would need {} MiB of memory (the page allows {} MiB)",
            layout.memory_bytes().div_ceil(1 << 20),
            limit >> 20
        )
    })
}

/// The generated module of `program`, or why the interpreter runs it.
pub fn generate(program: &crate::exec::Program) -> Result<Arc<Generated>, String> {
    let start = js_sys::Date::now();
    let c = crate::jit::compile(program).map_err(|u| u.reason)?;
    if let Some(why) = memory_refusal(&c.layout) {
        return Err(why);
    }
    Ok(Arc::new(Generated {
        key: fnv1a(&c.bytes),
        stage: Arc::new(Stage::of(&c)),
        samplers: c.samplers.clone().into(),
        instructions: c.instructions,
        bytes: c.bytes,
        ms: js_sys::Date::now() - start,
    }))
}

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn key_text(key: u64) -> String {
    format!("{key:016x}")
}

/// One registered instance: its `run` export and its memory.
struct Instance {
    key: u64,
    run: js_sys::Function,
    memory: js_sys::WebAssembly::Memory,
    /// The memory's words, made once (a generated module never grows its memory; a detached
    /// view, length 0, is made again).
    words: js_sys::Uint32Array,
}

/// How many instances a worker keeps registered, within `limits::MAX_JIT_WORKER_MEMORY` (the
/// worker's module cache holds more; an instance dropped here is made again from its cached
/// module).
const KEPT_INSTANCES: usize = 8;

thread_local! {
    /// This worker's registered instances, the newest last.
    static INSTANCES: RefCell<Vec<Instance>> = const { RefCell::new(Vec::new()) };
    /// The instance whose `run` is in progress (its sampling imports read and write their
    /// scratch or rows in its memory).
    static RUNNING: RefCell<Option<Running>> = const { RefCell::new(None) };
    /// Fragment batches run by the compiled module and by the interpreter (after a refusal: the
    /// budget), since the last `take_counts`.
    static COUNTS: Cell<(u64, u64)> = const { Cell::new((0, 0)) };
    /// `jit_sample_rows`'s copy of a batch's sampling rows, kept between calls.
    static SAMPLE_ROWS: RefCell<Vec<Lanes>> = const { RefCell::new(Vec::new()) };
}

fn registered(key: u64) -> bool {
    INSTANCES.with(|i| i.borrow().iter().any(|x| x.key == key))
}

fn count(compiled: bool) {
    COUNTS.with(|c| {
        let (a, b) = c.get();
        c.set(if compiled { (a + 1, b) } else { (a, b + 1) });
    });
}

/// Keeps `instance` (a `WebAssembly.Instance` of the module whose key is `key`) for renders.
#[wasm_bindgen(js_name = jitRegister)]
pub fn jit_register(key: &str, instance: JsValue) -> bool {
    let Ok(key) = u64::from_str_radix(key, 16) else { return false };
    let exports = js_sys::Reflect::get(&instance, &"exports".into()).unwrap_or_default();
    let run = js_sys::Reflect::get(&exports, &"run".into()).unwrap_or_default();
    let memory = js_sys::Reflect::get(&exports, &"mem".into()).unwrap_or_default();
    let (Ok(run), Ok(memory)) =
        (run.dyn_into::<js_sys::Function>(), memory.dyn_into::<js_sys::WebAssembly::Memory>())
    else {
        return false;
    };
    let bytes = |m: &js_sys::WebAssembly::Memory| {
        m.buffer().dyn_into::<js_sys::ArrayBuffer>().map_or(0, |b| u64::from(b.byte_length()))
    };
    let size = bytes(&memory);
    if size > crate::limits::MAX_JIT_MODULE_MEMORY {
        return false;
    }
    INSTANCES.with(|i| {
        let mut list = i.borrow_mut();
        list.retain(|x| x.key != key);
        while !list.is_empty()
            && (list.len() >= KEPT_INSTANCES
                || list.iter().map(|x| bytes(&x.memory)).sum::<u64>() + size
                    > crate::limits::MAX_JIT_WORKER_MEMORY)
        {
            list.remove(0);
        }
        let words = js_sys::Uint32Array::new(&memory.buffer());
        list.push(Instance { key, run, memory, words });
    });
    true
}

/// The import object of every generated module (`jit::imports`): each entry the engine's raw
/// wasm export (not a JS wrapper), so the call stays inside WebAssembly. Null when an export is
/// missing (a module that imports it then fails to instantiate, and the interpreter draws).
#[wasm_bindgen(js_name = jitImports)]
pub fn jit_imports() -> JsValue {
    let exports = wasm_bindgen::exports();
    let env = js_sys::Object::new();
    for im in crate::jit::imports::LANE_IMPORTS {
        let f = js_sys::Reflect::get(&exports, &im.export.into()).unwrap_or_default();
        if !f.is_function() {
            return JsValue::NULL;
        }
        super::render::set(&env, im.name, &f);
    }
    for (name, export) in
        [crate::jit::imports::SAMPLE, crate::jit::imports::SAMPLE_ROWS, crate::jit::imports::POLL]
    {
        let f = js_sys::Reflect::get(&exports, &export.into()).unwrap_or_default();
        if !f.is_function() {
            return JsValue::NULL;
        }
        super::render::set(&env, name, &f);
    }
    let imports = js_sys::Object::new();
    super::render::set(&imports, crate::jit::imports::MODULE, &env);
    imports.into()
}

/// The `poll` import of every generated module (`jit::imports::POLL`): 1 once the frame of the
/// run in progress was stopped (a band's time limit: the frame reads the clock here).
#[wasm_bindgen]
pub fn jit_poll() -> u32 {
    u32::from(crate::jit::host::stopped())
}

/// The `sample` import of every generated module that samples textures (`jit::host`): the
/// module calls this raw export with the sampler's index and the scratch's offset in its own
/// memory; the scratch (`jit::host::scratch::BYTES`) is copied out of that memory, sampled by
/// the interpreter's texture code with the render's hooks, and the results copied back. 1 when
/// done, 0 when the batch must go back to the interpreter.
#[wasm_bindgen]
pub fn jit_sample(index: u32, at: u32) -> u32 {
    use crate::jit::host::scratch;
    RUNNING.with(|r| {
        let mut running = r.borrow_mut();
        let Some(running) = running.as_mut() else { return 0 };
        let Some(view) = running.scratch(at) else { return 0 };
        let mut slots = [Lanes::default(); scratch::BYTES / 16];
        view.copy_to(crate::exec::lanes::flat_mut(&mut slots));
        if !crate::jit::host::sample(index, crate::exec::lanes::bytes_mut(&mut slots)) {
            return 0;
        }
        view.copy_from(crate::exec::lanes::flat(&slots));
        1
    })
}

/// The `sample_rows` import of every generated module that samples a batch at a time
/// (`jit::host::sample_rows`): the rows the sampler reads (`jit::host::slots_read`; slot `k`'s
/// `nq` quads at `at + k·sample_row_stride(nq)` in the instance's memory) are copied out,
/// sampled, and the four result rows copied back: a few typed-array copies per texture
/// instruction and batch. 1 when done, 0 when the batch must go back to the interpreter.
#[wasm_bindgen]
pub fn jit_sample_rows(index: u32, at: u32, nq: u32) -> u32 {
    use crate::jit::codegen::{sample_row_stride, SAMPLE_SLOTS};
    use crate::jit::host::scratch;
    let Some(words) = RUNNING.with(|r| r.borrow().as_ref().map(|r| r.words.clone())) else {
        return 0;
    };
    if nq == 0 || nq > crate::jit::codegen::MAX_QUADS || !at.is_multiple_of(4) {
        return u32::from(nq == 0);
    }
    let (nq, slots) = (nq as usize, SAMPLE_SLOTS as usize);
    let stride = sample_row_stride(nq);
    let end = at as usize + (slots - 1) * stride + nq * 16;
    if end > words.length() as usize * 4 {
        return 0;
    }
    // Row k's words in the instance's memory.
    let row = |k: usize| {
        let first = (at as usize + k * stride) / 4;
        words.subarray(first as u32, (first + nq * 4) as u32)
    };
    SAMPLE_ROWS.with(|rows| {
        // The rows side by side, `nq` quads each; only those the sampler reads are copied in
        // (it reads no other).
        let mut rows = rows.borrow_mut();
        rows.resize(slots * nq, Lanes::default());
        let read = crate::jit::host::slots_read(index);
        for k in (0..scratch::RESULT).filter(|k| read >> k & 1 != 0) {
            row(k).copy_to(crate::exec::lanes::flat_mut(&mut rows[k * nq..(k + 1) * nq]));
        }
        let bytes = crate::exec::lanes::bytes_mut(&mut rows);
        if !crate::jit::host::sample_rows(index, bytes, 0, nq * 16, nq) {
            return 0;
        }
        for k in scratch::RESULT..slots {
            row(k).copy_from(crate::exec::lanes::flat(&rows[k * nq..(k + 1) * nq]));
        }
        1
    })
}

/// The instance whose `run` is in progress.
struct Running {
    /// Its memory's words ([`Instance::words`], or made again if that view was detached).
    words: js_sys::Uint32Array,
    /// The sampling scratch at byte offset `.0` (a module's scratch is at one place): made
    /// once per run instead of once per sample (each JavaScript call is a good part of a
    /// sample).
    scratch: Option<(u32, js_sys::Uint32Array)>,
}

impl Running {
    fn scratch(&mut self, at: u32) -> Option<&js_sys::Uint32Array> {
        use crate::jit::host::scratch;
        if self.scratch.as_ref().is_none_or(|v| v.0 != at) {
            let end = u64::from(at) + scratch::BYTES as u64;
            if !at.is_multiple_of(4) || end > u64::from(self.words.length()) * 4 {
                return None;
            }
            self.scratch = Some((at, self.words.subarray(at / 4, end as u32 / 4)));
        }
        self.scratch.as_ref().map(|v| &v.1)
    }
}

/// `instance`'s memory as words: its kept view, or a new one if that view was detached (a
/// generated module never grows its memory, so it stays valid).
fn words_of(instance: &Instance) -> js_sys::Uint32Array {
    if instance.words.length() > 0 {
        instance.words.clone()
    } else {
        js_sys::Uint32Array::new(&instance.memory.buffer())
    }
}

/// Drops the instance registered under `key` (the worker's cache let its module go).
#[wasm_bindgen(js_name = jitForget)]
pub fn jit_forget(key: &str) {
    if let Ok(key) = u64::from_str_radix(key, 16) {
        INSTANCES.with(|i| i.borrow_mut().retain(|x| x.key != key));
    }
}

/// The generated module of the frame's fragment program (see the module's doc): the plain
/// program's, or once that one is registered, the flushing program's when it has one that is
/// not (the module a render's `pending` report names).
#[wasm_bindgen(js_name = jitModule)]
pub fn jit_module(fs_text: &str, vs_text: Option<String>, options: JsValue) -> JsValue {
    let call = super::render::read_call(fs_text, vs_text, options);
    let generated = super::render::with_job(call, |prepared, _| next_module(prepared));
    let result = js_sys::Object::new();
    match generated {
        Ok(g) => {
            super::render::set(&result, "ok", &JsValue::TRUE);
            super::render::set(&result, "key", &key_text(g.key).into());
            super::render::set(&result, "bytes", &js_sys::Uint8Array::from(g.bytes.as_slice()));
            super::render::set(&result, "instructions", &JsValue::from(g.instructions as u32));
            super::render::set(&result, "ms", &JsValue::from(g.ms));
        }
        Err(reason) => {
            super::render::set(&result, "ok", &JsValue::FALSE);
            super::render::set(&result, "reason", &reason.into());
        }
    }
    result.into()
}

/// The prepared job's generated module, made on first use.
fn generated_of(prepared: &mut super::render::Prepared) -> Result<Arc<Generated>, String> {
    let Some(job) = prepared.job.as_ref() else {
        return Err("the shaders did not compile".into());
    };
    prepared.jit.get_or_insert_with(|| generate(&job.fs)).clone()
}

/// The module of the job a worker compiles next, and the one a `pending` report names: the
/// plain program's until it is registered, then the flushing program's while it is not; once
/// both are (or the flushing one is refused), the plain program's.
fn next_module(prepared: &mut super::render::Prepared) -> Result<Arc<Generated>, String> {
    let plain = generated_of(prepared)?;
    Ok(match in_draw_of(prepared) {
        Some(Ok(f)) if registered(plain.key) && !registered(f.key) => f,
        _ => plain,
    })
}

/// The prepared job's flushing program's generated module (draw chunks inside the view,
/// `Job::fs_in_draw`), made on first use; None when the job has no such program.
fn in_draw_of(prepared: &mut super::render::Prepared) -> Option<Result<Arc<Generated>, String>> {
    let program = prepared.job.as_ref()?.fs_in_draw.as_ref()?;
    Some(prepared.jit_in_draw.get_or_insert_with(|| generate(program)).clone())
}

/// Why the `auto` engine leaves a shader that samples textures to the interpreter (the
/// `compiled` engine still compiles it): each sample is set up per quad and its scratch copied
/// through JavaScript, slower than the interpreter's per-batch sampling (docs/jit.md,
/// "Browser"). Shaders calling the libm lane formulas (SIN, POW, …; one wasm-to-wasm call per
/// quad) are faster compiled in the page and `auto` compiles them, unlike the CLI's default
/// engine, whose host calls cross into wasmtime's host.
pub const SAMPLING_IN_AUTO: &str = "the interpreter runs shaders that sample textures faster \
     in the page (choose Compiled to force it)";

/// What a render reports about the compiling tier.
pub(super) struct Used {
    pub(super) state: &'static str,
    key: Option<u64>,
    pub(super) reason: Option<String>,
    /// The flushing program's module runs the draw chunks inside the view.
    in_draw: bool,
}

/// Sets which engine runs the prepared job's fragment batches for this call.
pub(super) fn attach(prepared: &mut super::render::Prepared, mode: Mode) -> Used {
    COUNTS.with(|c| c.set((0, 0)));
    if let Some(job) = prepared.job.as_mut() {
        job.fs_accel = None;
        job.fs_in_draw_accel = None;
    }
    let used = |state, key, reason| Used { state, key, reason, in_draw: false };
    if mode == Mode::Interpreter {
        return used("off", None, None);
    }
    let g = match generated_of(prepared) {
        Ok(g) => g,
        Err(reason) => return used("refused", None, Some(reason)),
    };
    if mode == Mode::Auto && g.stage.samples() {
        return used("refused", None, Some(SAMPLING_IN_AUTO.to_string()));
    }
    // Each registered module runs its program's chunks: the plain one the others while the
    // flushing one (draw chunks inside the view) is still being made; a refused flushing
    // program leaves those chunks to the interpreter.
    let in_draw = in_draw_of(prepared).and_then(Result::ok).filter(|f| registered(f.key));
    if let Some(job) = prepared.job.as_mut() {
        job.fs_accel = registered(g.key).then(|| accelerator(&g));
        job.fs_in_draw_accel = in_draw.as_ref().map(|f| accelerator(f));
    }
    let state = match next_module(prepared) {
        Ok(next) if !registered(next.key) => used("pending", Some(next.key), None),
        _ => used("ready", Some(g.key), None),
    };
    Used { in_draw: in_draw.is_some(), ..state }
}

/// Adds `engine` and `jit` to a render result (see the module's doc); `flushed_quads`: quads
/// shaded flushing denormals (`render::DrawStats::flushed_quads`), reported as the
/// interpreter's unless the flushing program's module ran them.
pub(super) fn report(result: &js_sys::Object, used: &Used, flushed_quads: u64) {
    let flushed_quads = if used.in_draw { 0 } else { flushed_quads };
    let (compiled, interpreted) = COUNTS.with(|c| c.get());
    let engine = if compiled > 0 { "compiled" } else { "interpreter" };
    super::render::set(result, "engine", &engine.into());
    let jit = js_sys::Object::new();
    super::render::set(&jit, "state", &used.state.into());
    if let Some(k) = used.key {
        super::render::set(&jit, "key", &key_text(k).into());
    }
    if let Some(r) = &used.reason {
        super::render::set(&jit, "reason", &r.into());
    }
    super::render::set(&jit, "compiled", &JsValue::from(compiled as f64));
    super::render::set(&jit, "interpreted", &JsValue::from(interpreted as f64));
    super::render::set(&jit, "flushedQuads", &JsValue::from(flushed_quads as f64));
    super::render::set(result, "jit", &jit);
}

/// What a render gives the fragment stage for `g` once its instance is registered (tests
/// drive a machine with it too).
pub fn accelerator(g: &Generated) -> Arc<dyn MakeAccelerator> {
    Arc::new(BrowserProgram { key: g.key, stage: g.stage.clone(), samplers: g.samplers.clone() })
}

/// A registered module as the render job holds it: only the key (a JS value cannot cross
/// threads, and `MakeAccelerator` must be `Send + Sync`; a worker is one thread).
struct BrowserProgram {
    key: u64,
    stage: Arc<Stage>,
    samplers: Arc<[Inst]>,
}

impl MakeAccelerator for BrowserProgram {
    fn make(&self) -> Option<Box<dyn Accelerator>> {
        registered(self.key).then(|| {
            Box::new(BrowserRun {
                key: self.key,
                stage: self.stage.clone(),
                samplers: self.samplers.clone(),
                plan: Plan::default(),
            }) as Box<dyn Accelerator>
        })
    }
}

/// Runs batches through the registered instance of `key`.
struct BrowserRun {
    key: u64,
    stage: Arc<Stage>,
    samplers: Arc<[Inst]>,
    plan: Plan,
}

impl Accelerator for BrowserRun {
    fn run(
        &mut self,
        regs: &mut [Lanes],
        kill: &mut [Lanes],
        nq: usize,
        limit: u64,
        env: &mut AccelEnv,
    ) -> Option<u64> {
        if self.plan.nq != nq {
            self.plan = self.stage.plan(nq)?;
        }
        let consts = env.consts;
        let clock = INSTANCES.with(|i| {
            let list = i.borrow();
            let instance = list.iter().find(|x| x.key == self.key)?;
            crate::jit::host::with_scope(env, &self.samplers, || {
                RUNNING.with(|r| {
                    *r.borrow_mut() = Some(Running { words: words_of(instance), scratch: None })
                });
                let clock = run_instance(instance, &self.plan, regs, kill, consts, nq, limit);
                RUNNING.with(|r| *r.borrow_mut() = None);
                clock
            })
        });
        count(clock.is_some());
        clock
    }
    fn kept_outputs(&self) -> Option<crate::exec::Rows<'_>> {
        // The module's memory is a JavaScript object here: every run copies its rows back.
        None
    }
}

/// One batch: copies in (the storage rows, then each constant buffer read through an index:
/// its length, then its registers), `run(nq, limit)`, copies out (through typed arrays over the
/// instance's memory, from and into the machine's slices). None (the interpreter reruns the
/// batch) when a copy would fall outside either buffer, a constant buffer does not fit its
/// area, the module traps, or the budget would run out.
fn run_instance(
    instance: &Instance,
    plan: &Plan,
    regs: &mut [Lanes],
    kill: &mut [Lanes],
    consts: &crate::exec::Constants,
    nq: usize,
    limit: u64,
) -> Option<u64> {
    let module = &words_of(instance);
    let module_len = module.length() as usize * 4;
    let side_len = |side: Side| match side {
        Side::Regs => regs.len() * 16,
        Side::Kill => kill.len() * 16,
    };
    let fits = |c: &crate::jit::Copy| {
        c.at + c.bytes <= side_len(c.side)
            && c.module + c.bytes <= module_len
            && (c.at | c.module | c.bytes).is_multiple_of(4)
    };
    // (This runtime offers no rows of its own: the IN rows are always copied.)
    if !plan.in_rows.iter().chain(&plan.inputs).chain(&plan.outputs).all(fits) {
        return None;
    }
    let words = |c: &crate::jit::Copy| (c.at / 4..(c.at + c.bytes) / 4, c.module as u32 / 4);
    for c in plan.in_rows.iter().chain(&plan.inputs) {
        let (range, at) = words(c);
        let src = match c.side {
            Side::Regs => &crate::exec::lanes::flat(regs)[range],
            Side::Kill => &crate::exec::lanes::flat(kill)[range],
        };
        module.subarray(at, at + src.len() as u32).copy_from(src);
    }
    for b in &plan.buffers {
        let words = crate::jit::buffer_words(consts, b)?;
        if b.module + 16 + words.len() * 4 > module_len || !b.module.is_multiple_of(4) {
            return None;
        }
        let at = b.module as u32 / 4;
        module.set_index(at, (words.len() / 4) as u32);
        module.subarray(at + 4, at + 4 + words.len() as u32).copy_from(words);
    }
    let limit = limit.min(i64::MAX as u64) as i64;
    let clock = instance
        .run
        .call2(&JsValue::UNDEFINED, &JsValue::from(nq as i32), &JsValue::from(limit))
        .ok()?;
    let clock = i64::try_from(clock).ok()?;
    if clock < 0 {
        return None;
    }
    for c in &plan.outputs {
        let (range, at) = words(c);
        let dst = match c.side {
            Side::Regs => &mut crate::exec::lanes::flat_mut(regs)[range],
            Side::Kill => &mut crate::exec::lanes::flat_mut(kill)[range],
        };
        module.subarray(at, at + dst.len() as u32).copy_to(dst);
    }
    Some(clock as u64)
}
