//! Every generated module passes `wasmparser`'s validator (with SIMD): compiled corpus shaders
//! and random programs.

use super::random::{gen_program, gen_textured, gen_textured_straight};
use crate::rng::Rng;
use tgsi::jit::compile;

pub fn validate(bytes: &[u8], what: &str) {
    let mut v = wasmparser::Validator::new_with_features(wasmparser::WasmFeatures::default());
    if let Err(e) = v.validate_all(bytes) {
        panic!("{what}: generated module is invalid: {e}");
    }
}

#[test]
fn corpus_modules_validate() {
    let mut compiled = 0;
    for (name, p) in super::differential::corpus_programs() {
        if let Ok(c) = compile(&p) {
            validate(&c.bytes, &name);
            compiled += 1;
        }
    }
    assert!(compiled >= 20, "only {compiled} corpus shaders compiled");
}

#[test]
fn random_modules_validate() {
    let mut rng = Rng(0x5eed_0001);
    for i in 0..300 {
        let text = gen_program(&mut rng);
        let p = super::differential::program(&text);
        let c = compile(&p).unwrap_or_else(|u| panic!("program {i} not compiled: {u:?}\n{text}"));
        validate(&c.bytes, &text);
    }
}

/// Textured programs, with flow (sampling quad by quad) and without (a batch at a time).
#[test]
fn random_textured_modules_validate() {
    let mut rng = Rng(0x5eed_0002);
    for i in 0..200 {
        let text =
            if i % 2 == 0 { gen_textured(&mut rng) } else { gen_textured_straight(&mut rng) };
        let p = super::differential::program(&text);
        if let Ok(c) = compile(&p) {
            validate(&c.bytes, &text);
        }
    }
}

#[test]
fn unsupported_opcodes_give_a_reason() {
    let p = super::differential::program(
        "FRAG\nDCL IN[0]\nDCL OUT[0]\nMOV OUT[0], IN[0]\nUMUL_HI OUT[0], IN[0], IN[0]\nEND\n",
    );
    let u = compile(&p).expect_err("UMUL_HI has no compiled form");
    assert!(u.reason.contains("UMUL_HI"), "{}", u.reason);
    assert_eq!(u.instruction, Some(1));
}
