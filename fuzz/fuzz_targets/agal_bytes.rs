#![no_main]
// The body is tgsi::fuzzing::agal_bytes (crate/src/fuzzing.rs): an Err is a broken promise.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Err(broken) = tgsi::fuzzing::agal_bytes(data) {
        panic!("{broken}");
    }
});
