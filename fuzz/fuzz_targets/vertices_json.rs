#![no_main]
// The body is tgsi::fuzzing::vertices_json (crate/src/fuzzing.rs): an Err is a broken promise.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Err(broken) = tgsi::fuzzing::vertices_json(data) {
        panic!("{broken}");
    }
});
