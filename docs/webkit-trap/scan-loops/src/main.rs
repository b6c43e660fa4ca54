//! Lists the loops of a wasm module that are entered with values on the operand stack (a loop
//! with parameters, or values an enclosing block left on the stack), and which of those hold an
//! f32, f64 or v128: the values JavaScriptCore's loop OSR entry carries in floating-point
//! registers, which WebKitGTK 2.50.6 loads wrongly (osr-live-fpr.html, README.md).
//! `cargo run --release -- MODULE.wasm...`
use std::collections::HashMap;
use wasmparser::{
    KnownCustom, Name, Operator, Parser, Payload, ValidPayload, Validator, WasmFeatures,
};

fn main() {
    for path in std::env::args().skip(1) {
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let mut validator = Validator::new_with_features(WasmFeatures::all());
        let mut names = HashMap::new();
        let mut funcs = vec![];
        for payload in Parser::new(0).parse_all(&bytes) {
            let payload = payload.expect("a valid module");
            if let Payload::CustomSection(c) = &payload {
                if let KnownCustom::Name(reader) = c.as_known() {
                    for n in reader.into_iter().flatten() {
                        if let Name::Function(map) = n {
                            for x in map.into_iter().flatten() {
                                names.insert(x.index, x.name.to_string());
                            }
                        }
                    }
                }
            }
            if let ValidPayload::Func(f, body) = validator.payload(&payload).expect("valid") {
                funcs.push((f, body));
            }
        }
        let (mut loops, mut with_values, mut with_floats) = (0, 0, 0);
        for (f, body) in funcs {
            let mut v = f.into_validator(Default::default());
            let index = v.index();
            let mut locals = body.get_locals_reader().expect("locals");
            for _ in 0..locals.get_count() {
                let offset = locals.original_position();
                let (count, ty) = locals.read().expect("a local");
                v.define_locals(offset, count, ty).expect("valid locals");
            }
            let mut ops = body.get_operators_reader().expect("code");
            while !ops.eof() {
                let offset = ops.original_position();
                let op = ops.read().expect("an operator");
                if let Operator::Loop { blockty } = &op {
                    loops += 1;
                    // Every operand on the stack, of this block and the enclosing ones.
                    let height = v.operand_stack_height() as usize;
                    if height > 0 {
                        with_values += 1;
                        let types: Vec<String> =
                            (0..height).map(|d| format!("{:?}", v.get_operand_type(d))).collect();
                        if types
                            .iter()
                            .any(|t| ["F32", "F64", "V128"].iter().any(|f| t.contains(f)))
                        {
                            with_floats += 1;
                            let name = names.get(&index).map_or("?", |s| s.as_str());
                            println!(
                                "function {index} {name} at {offset:#x} ({blockty:?}): {types:?}"
                            );
                        }
                    }
                }
                v.op(offset, &op).expect("valid code");
            }
        }
        println!(
            "{path}: {loops} loops, {with_values} entered with values on the operand stack, \
             {with_floats} of them with an f32, f64 or v128"
        );
    }
}
