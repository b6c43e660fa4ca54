//! A reproduction of WebKitGTK's intermittent trap in engine code (`docs/jit.md`, "Not done
//! yet"), for reporting it and for checking a later WebKitGTK: the engine renders the same
//! textured shader again and again in the interpreter — alone, beside a module that never calls
//! the engine (no imports), or beside spare `WebAssembly.Memory` objects — and each picture must
//! be the first one. In JavaScriptCore a run now and then traps instead, early in the page's
//! life ("Out of bounds memory access", "Unreachable code" or an impossible index inside the
//! engine's own functions), with nothing but the engine in the page too.
//! Ignored: a run passes most of the time, so it is run on purpose, many times, in WebKitGTK:
//! `cargo test -p tgsi --target wasm32-unknown-unknown --test web -- webkit_trap:: --include-ignored`
//! (the driver set-up is `scripts/test.sh`'s). In Chromium and Firefox every run passes.

use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;
use wasm_encoder::{
    BlockType, CodeSection, ExportKind, ExportSection, Function, FunctionSection, Instruction as I,
    MemorySection, MemoryType, Module, TypeSection, ValType,
};

const ROUNDS: u32 = 40;

/// A module with its own 1 MiB memory and no imports: `run(n)` adds 3 to a local `n` times.
fn module_without_imports() -> Vec<u8> {
    let mut m = Module::new();
    let mut types = TypeSection::new();
    types.ty().function([ValType::I32], [ValType::I32]);
    m.section(&types);
    let mut funcs = FunctionSection::new();
    funcs.function(0);
    m.section(&funcs);
    let mut mems = MemorySection::new();
    mems.memory(MemoryType {
        minimum: 16,
        maximum: None,
        memory64: false,
        shared: false,
        page_size_log2: None,
    });
    m.section(&mems);
    let mut ex = ExportSection::new();
    ex.export("run", ExportKind::Func, 0);
    ex.export("mem", ExportKind::Memory, 0);
    m.section(&ex);
    let (n, i, acc) = (0, 1, 2);
    let mut f = Function::new([(2, ValType::I32)]);
    for ins in [
        I::Loop(BlockType::Empty),
        I::LocalGet(acc),
        I::I32Const(3),
        I::I32Add,
        I::LocalSet(acc),
        I::LocalGet(i),
        I::I32Const(1),
        I::I32Add,
        I::LocalTee(i),
        I::LocalGet(n),
        I::I32LtS,
        I::BrIf(0),
        I::End,
        I::LocalGet(acc),
        I::End,
    ] {
        f.instruction(&ins);
    }
    let mut code = CodeSection::new();
    code.function(&f);
    m.section(&code);
    m.finish()
}

fn render() -> Vec<u8> {
    let r = tgsi::wasm::render::render(
        super::jit::TEXTURED,
        None,
        super::jit::textured(64, "interpreter"),
    );
    let pixels = js_sys::Reflect::get(&r, &"pixels".into()).unwrap_or_default();
    pixels.dyn_into::<js_sys::Uint8Array>().map(|a| a.to_vec()).unwrap_or_default()
}

/// Renders `ROUNDS` times, calling `beside(round)` before each render; every picture must be
/// the first (a trap fails the test with the engine's stack).
fn rounds(mut beside: impl FnMut(u32)) {
    let first = render();
    assert_eq!(first.len(), 64 * 64 * 4);
    for round in 0..ROUNDS {
        beside(round);
        web_sys::console::log_1(&format!("round {round}").into());
        assert!(render() == first, "round {round}: another picture");
    }
}

#[wasm_bindgen_test]
#[ignore]
fn engine_work_beside_a_module_that_never_calls_the_engine() {
    let bytes = js_sys::Uint8Array::from(module_without_imports().as_slice());
    let module = js_sys::WebAssembly::Module::new(&bytes).expect("the module compiles");
    rounds(|round| {
        let instance = js_sys::WebAssembly::Instance::new(&module, &js_sys::Object::new())
            .expect("the module instantiates");
        let exports = js_sys::Reflect::get(&instance, &"exports".into()).unwrap_or_default();
        let run: js_sys::Function =
            js_sys::Reflect::get(&exports, &"run".into()).unwrap_or_default().unchecked_into();
        let sum = run.call1(&JsValue::UNDEFINED, &JsValue::from(200_000));
        // 200 000 additions of 3.
        assert_eq!(sum.ok().and_then(|s| s.as_f64()), Some(600_000.0), "round {round}");
    });
}

#[wasm_bindgen_test]
#[ignore]
fn engine_work_beside_spare_memories() {
    let kept = js_sys::Array::new();
    rounds(|_| {
        let descriptor = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&descriptor, &"initial".into(), &16.into());
        kept.push(&js_sys::WebAssembly::Memory::new(&descriptor).expect("a memory").into());
    });
}

/// The control: the same renders with nothing beside them.
#[wasm_bindgen_test]
#[ignore]
fn engine_work_alone() {
    rounds(|_| {});
}
