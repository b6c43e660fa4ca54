//! The one place the tests (and the interpreter benchmark) know where the shared corpus is:
//! `shared/corpus/` beside the repository. `corpus!("/softpipe")` is its `softpipe` folder.

/// The path of the shared corpus (or of something inside it, when given a suffix).
#[macro_export]
macro_rules! corpus {
    () => {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpus")
    };
    ($sub:literal) => {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpus", $sub)
    };
}
