//! The one place the tests (and the interpreter benchmark) know where the corpus is:
//! `tests/corpus/` in the repository (see its README for where each set comes from).
//! `corpus!("/softpipe")` is its `softpipe` folder.

/// The path of the corpus (or of something inside it, when given a suffix).
#[macro_export]
macro_rules! corpus {
    () => {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/corpus")
    };
    ($sub:literal) => {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/corpus", $sub)
    };
}
